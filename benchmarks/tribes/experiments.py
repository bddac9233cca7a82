"""The Tribes paper's action-space analysis (section 4.2, Figure 2) and the forward model's speed.

Usage (``docs/results/tribes.md`` lists the commands of its figures; the raw results are in
``results/`` next to this script)::

    python3 benchmarks/tribes/experiments.py action-space --games 100 --maps paper:0-24 \
        --out action_space_rb.json --plot action_space_rb.png
    python3 benchmarks/tribes/experiments.py speed -c mode=score

This is a paper's reproduction, not library code: it uses the public API only.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.baselines import Agent, make_agent
from stratagem.baselines.match import play_game
from stratagem.baselines.tournament import expand_maps, split_agent_list
from stratagem.envs import Game, make_game
from stratagem.envs.cli_options import parse_config

#: The raw results of ``docs/results/tribes.md``'s action-space section.
RESULTS = Path(__file__).resolve().parent / "results"


# ------------------------------------------------------------------------------------ analysis
def action_space_analysis(
    agents: Sequence[str],
    games: int,
    config: dict[str, Any] | None = None,
    seed: int = 0,
    maps: Sequence[str] = (),
) -> dict[str, Any]:
    """The paper's action-space analysis (section 4.2, Figure 2) over games between ``agents``.

    Every decision of every tribe is recorded with its number of legal actions. Per tribe turn:
    the moves played (decisions, an explicit end of turn included), the mean legal actions per
    move, and the turn's branching factor, the product of the legal-action counts of its moves
    (kept as ``log10``). Turns are numbered from 1 (the engine's turn counter + 1); ``h0`` is
    turns 1-25 and ``hF`` turns 26-50, as in the paper. Seats alternate between the agents from
    one game to the next; ``maps`` (the game's ``map`` option) cycle over game pairs.

    Game ``g`` starts from seed ``seed * 1_000_003 + g // 2`` and seat ``k`` draws from a
    generator seeded ``[seed, g, k]``.

    Returns:
        ``{"turns": [...], "summary": {...}}``: one record per tribe turn (game, seat, turn,
        moves, legal per move, log10 branching, whether that tribe won) and the averages.
    """
    config = dict(config or {})
    turns: list[dict[str, Any]] = []
    per_move: list[tuple[int, int, bool]] = []  # (turn, legal, won) per decision
    for g in range(games):
        cfg = dict(config)
        if maps:
            cfg["map"] = maps[(g // 2) % len(maps)]
        game = make_game("tribes", **cfg)
        built = [make_agent(spec, game) for spec in agents]
        n = game.spec.num_players
        seats = [built[(k + g) % len(built)] for k in range(n)]
        rngs = [np.random.default_rng([seed, g, k]) for k in range(n)]
        state, log = _play_counting(game, seats, seed * 1_000_003 + g // 2, rngs)
        returns = state.returns()
        for (p, turn), counts in sorted(log.items()):
            won = bool(returns[p] == 1.0)  # the winner's return; the others' are negative
            turns.append(
                {
                    "game": g,
                    "seat": p,
                    "agent": agents[(p + g) % len(agents)],
                    "turn": turn,
                    "moves": len(counts),
                    "legal_per_move": float(np.mean(counts)),
                    "log10_branching": float(np.sum(np.log10(counts))),
                    "won": won,
                }
            )
            per_move.extend((turn, c, won) for c in counts)

    def summary(lo: int, hi: int) -> dict[str, float]:
        ts = [t for t in turns if lo <= t["turn"] <= hi]
        ms = [c for turn, c, _ in per_move if lo <= turn <= hi]
        return {
            "tribe_turns": len(ts),
            "moves_per_turn": float(np.mean([t["moves"] for t in ts])) if ts else 0.0,
            "legal_per_move": float(np.mean(ms)) if ms else 0.0,
            "log10_branching": float(np.mean([t["log10_branching"] for t in ts])) if ts else 0.0,
        }

    return {
        "agents": list(agents),
        "games": games,
        "config": config,
        "turns": turns,
        "summary": {"all": summary(1, 10**9), "h0": summary(1, 25), "hF": summary(26, 50)},
    }


def _play_counting(
    game: Game, seats: Sequence[Agent], seed: int, rngs: Sequence[np.random.Generator]
) -> tuple[Any, dict[tuple[int, int], list[int]]]:
    """Play one game; the legal actions of every decision by ``(tribe, turn from 1)``."""
    log: dict[tuple[int, int], list[int]] = {}

    def count(state: Any, action: int) -> None:
        key = (state.current_player, state.tick + 1)
        log.setdefault(key, []).append(len(state.legal_action_list()))

    state = play_game(game, seats, seed=seed, verbose=False, rngs=rngs, on_decision=count)
    return state, log


_COLUMNS = ("game", "seat", "turn", "moves", "legal_per_move", "log10_branching", "won")


def compact_action_space(result: dict[str, Any]) -> dict[str, Any]:
    """The analysis with its per-turn records as rows of :data:`_COLUMNS` (a smaller file)."""
    rows = []
    for t in result["turns"]:
        legal, branching = round(t["legal_per_move"], 3), round(t["log10_branching"], 3)
        rows.append([t["game"], t["seat"], t["turn"], t["moves"], legal, branching, int(t["won"])])
    out = {k: v for k, v in result.items() if k != "turns"}
    return {**out, "columns": list(_COLUMNS), "rows": rows}


def expand_action_space(data: dict[str, Any]) -> dict[str, Any]:
    """Inverse of :func:`compact_action_space` (records as dicts again)."""
    if "turns" in data:
        return data
    turns = [dict(zip(data["columns"], row, strict=True)) for row in data["rows"]]
    for t in turns:
        t["won"] = bool(t["won"])
    return {**{k: v for k, v in data.items() if k not in ("columns", "rows")}, "turns": turns}


def plot_action_space(result: dict[str, Any], path: str) -> None:
    """Figure 2 of the paper: legal actions per move and log10 turn branching, by turn."""
    result = expand_action_space(result)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for won, label in ((True, "winner"), (False, "loser")):
        rows = [t for t in result["turns"] if t["won"] == won]
        if not rows:
            continue
        turns = sorted({t["turn"] for t in rows})
        for ax, key in zip(axes, ("legal_per_move", "log10_branching"), strict=True):
            ys = [np.mean([t[key] for t in rows if t["turn"] == x]) for x in turns]
            ax.plot(turns, ys, label=label)
    axes[0].set(xlabel="turn", ylabel="legal actions per move", title="Actions per move")
    axes[1].set(xlabel="turn", ylabel="log10 branching factor", title="Turn branching factor")
    for ax in axes:
        ax.legend()
        ax.grid(alpha=0.3)
    fig.suptitle(f"Tribes action space: {' vs '.join(result['agents'])}, {result['games']} games")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def speed(config: dict[str, Any] | None = None, games: int = 10, seed: int = 0) -> dict[str, Any]:
    """Forward-model speed in CPU time (``time.process_time``), robust on a shared machine.

    Plays ``games`` uniformly random games (their mean CPU time is the "random game" figure),
    keeps a snapshot every 25 decisions, then plays random rollouts of 20 steps from the
    snapshots (``apply`` with the legal actions kept current, what planners spend their budget
    on), clones the snapshots, and builds observations.
    """
    game: Any = make_game("tribes", **dict(config or {}))
    rng = np.random.default_rng(seed)
    snapshots = []
    steps = 0
    start = time.process_time()
    for k in range(games):
        state = game.new_initial_state(seed + k)
        while not state.is_terminal():
            legal = state.legal_action_list()
            state.apply(legal[int(rng.integers(len(legal)))])
            steps += 1
            if steps % 25 == 0:
                snapshots.append(state.clone())
    game_cpu = time.process_time() - start
    start = time.process_time()
    calls = 0
    for snap in snapshots:
        state = snap.clone()
        for _ in range(20):
            if state.is_terminal():
                break
            legal = state.legal_action_list()
            state.apply(legal[int(rng.integers(len(legal)))])
            calls += 1
    roll_cpu = time.process_time() - start
    start = time.process_time()
    for _ in range(5):
        for snap in snapshots:
            snap.clone()
    clone_cpu = time.process_time() - start
    start = time.process_time()
    for snap in snapshots[:200]:
        snap.observation(snap.current_player)
    obs_cpu = time.process_time() - start
    return {
        "config": dict(config or {}),
        "random_game_ms": game_cpu / games * 1000,
        "decisions_per_game": steps / games,
        "apply_per_s": calls / roll_cpu,
        "clone_per_s": 5 * len(snapshots) / clone_cpu,
        "observation_us": obs_cpu / min(200, len(snapshots)) * 1e6,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """``action-space``: the section 4.2 analysis; ``speed``: the forward model's speed."""
    parser = argparse.ArgumentParser(prog="python3 benchmarks/tribes/experiments.py")
    sub = parser.add_subparsers(dest="command", required=True)
    cmd = sub.add_parser("action-space", help="moves per turn, actions per move, branching")
    cmd.add_argument("--agents", default="rule_based,rule_based")
    cmd.add_argument("--games", type=int, default=50)
    cmd.add_argument("--maps", nargs="*", default=["paper:0-24"])
    cmd.add_argument("--config", "-c", action="append", metavar="KEY=VALUE")
    cmd.add_argument("--seed", type=int, default=0)
    cmd.add_argument("--out", help="write the records and summary as JSON")
    cmd.add_argument("--plot", help="write Figure 2 as a PNG")
    bench = sub.add_parser("speed", help="forward-model speed in CPU time")
    bench.add_argument("--config", "-c", action="append", metavar="KEY=VALUE")
    bench.add_argument("--games", type=int, default=10)
    args = parser.parse_args(argv)
    if args.command == "speed":
        fig = speed(parse_config(args.config), games=args.games)
        print(f"tribes speed (CPU time) {fig['config']}")
        print(f"  random game               {fig['random_game_ms']:10.1f} ms")
        print(f"  decisions per game        {fig['decisions_per_game']:10.1f}")
        print(f"  apply/s (legal kept)      {fig['apply_per_s']:10.0f}")
        print(f"  clone/s                   {fig['clone_per_s']:10.0f}")
        print(f"  observation               {fig['observation_us']:10.1f} us")
        return 0
    result = action_space_analysis(
        split_agent_list(args.agents),
        args.games,
        parse_config(args.config),
        seed=args.seed,
        maps=expand_maps(args.maps),
    )
    s = result["summary"]
    print(f"tribes action space: {' vs '.join(result['agents'])}, {args.games} games")
    header = ("turns", "tribe turns", "moves/turn", "actions/move", "log10 BF")
    print(f"{header[0]:8} {header[1]:>12} {header[2]:>11} {header[3]:>13} {header[4]:>9}")
    for key, label in (("all", "all"), ("h0", "1-25"), ("hF", "26-50")):
        row = s[key]
        print(
            f"{label:8} {row['tribe_turns']:>12} {row['moves_per_turn']:>11.2f} "
            f"{row['legal_per_move']:>13.2f} {row['log10_branching']:>9.2f}"
        )
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(compact_action_space(result), fh, separators=(",", ":"))
    if args.plot:
        plot_action_space(result, args.plot)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
