"""Where a RandomAI-vs-RandomAI game's time goes in Python, and the floor under it (issue 18).

The side-by-side benchmark (``benchmarks/reference_speed.py --game prismata``) times whole
games of the ``prismata_random`` agent through ``play_game``. This script splits that time into
what any Python agent pays and what ours adds, so that the distance to the C++ reference can be
read as "engine", "loop" and "agent":

* **bare apply**: the recorded games' actions applied to a state, nothing else;
* **loop**: ``play_game`` with an agent that replays the recorded actions (its per-decision
  view clone, terminal check and call of the agent), minus the bare applies;
* **planning**: the partial players building each turn on a copy of the state;
* **act**: the rest of the agent's per-decision work (checking the position against the plan,
  advancing its copy of the expected state).

Usage::

    nice -n 10 python3 benchmarks/prismata_reference/floor.py --games 60

Single-threaded process CPU time; the games are recorded before the clock starts. The C++ time
per game is read from ``benchmarks/results/reference_speed_prismata.json`` when it is there.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.baselines import make_agent
from stratagem.baselines.agent import BaseAgent
from stratagem.baselines.match import play_game
from stratagem.envs import make_game

RESULTS = Path(__file__).resolve().parents[1] / "results" / "reference_speed_prismata.json"


class _Replay(BaseAgent):
    """Plays the recorded actions of one game: an agent that costs nothing but its call."""

    name = "replay"

    def __init__(self) -> None:
        self.actions: list[int] = []
        self.next = 0

    def reset(self) -> None:
        self.next = 0

    def act(self, state: Any, *, rng: np.random.Generator) -> int:
        action = self.actions[self.next]
        self.next += 1
        return action


def measure(games: int, seed: int) -> dict[str, float]:
    """Milliseconds per game of each part (see the module docstring), over ``games`` games."""
    game = make_game("prismata", cards="base")
    bots = [make_agent("prismata_random", game) for _ in range(2)]
    seeds = [seed + k for k in range(games)]
    records = []
    for s in seeds:
        actions: list[int] = []
        play_game(game, bots, seed=s, verbose=False, actions=actions)
        records.append(actions)
    decisions = sum(map(len, records)) / games

    t0 = time.process_time()
    for s, actions in zip(seeds, records, strict=True):
        state = game.new_initial_state(s)
        for a in actions:
            state.apply(a)
    bare = time.process_time() - t0

    replay = _Replay()
    t0 = time.process_time()
    for s, actions in zip(seeds, records, strict=True):
        replay.actions = actions
        play_game(game, [replay, replay], seed=s, verbose=False)
    replayed = time.process_time() - t0

    planning = [0.0, 0]
    for bot in bots:
        inner = bot.player  # type: ignore[attr-defined]
        plan = inner.plan_move

        def timed(state: Any, rng: np.random.Generator, plan: Any = plan) -> Any:
            t = time.process_time()
            out = plan(state, rng)
            planning[0] += time.process_time() - t
            planning[1] += 1
            return out

        inner.plan_move = timed
    t0 = time.process_time()
    for s in seeds:
        play_game(game, bots, seed=s, verbose=False)
    total = time.process_time() - t0

    ms = 1000.0 / games
    return {
        "decisions_per_game": decisions,
        "turns_planned_per_game": planning[1] / games,
        "total_ms": total * ms,
        "bare_apply_ms": bare * ms,
        "loop_ms": (replayed - bare) * ms,
        "planning_ms": planning[0] * ms,
        "act_ms": (total - replayed - planning[0]) * ms,
        "apply_us": bare / games / decisions * 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    figures = measure(args.games, args.seed)
    reference = None
    if RESULTS.exists():
        reference = json.loads(RESULTS.read_text())["medians"]["reference"]["ms_per_game"]
    print(
        f"{figures['decisions_per_game']:.0f} decisions and "
        f"{figures['turns_planned_per_game']:.0f} planned turns per game"
    )
    for key in ("total_ms", "bare_apply_ms", "loop_ms", "planning_ms", "act_ms"):
        ratio = f"  ({figures[key] / reference:.2f}x the C++ game)" if reference else ""
        print(f"  {key[:-3]:<12} {figures[key]:7.3f} ms/game{ratio}")
    print(f"  one apply    {figures['apply_us']:7.2f} us on average")


if __name__ == "__main__":
    main()
