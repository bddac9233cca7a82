"""Playing one tournament game: :func:`play_task` and the record it returns.

This is the per-game function that worker processes (and Ray tasks) run, so it holds only what
one game needs: building the game (once per configuration and process), the agents' loop with
its timing and search figures, the scores and the end-of-game statistics of the record.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from stratagem.baselines.agent import make_agent
from stratagem.baselines.tournament.schedule import Task
from stratagem.envs.core import Game, State
from stratagem.envs.registry import make_game

__all__ = ["end_statistics", "game_of", "play_task"]


def end_statistics(state: State) -> dict[str, Any]:
    """The game's end-of-game figures (:meth:`State.end_statistics`), as plain floats."""
    out: dict[str, Any] = {}
    for key, value in state.end_statistics().items():
        out[key] = [float(v) for v in value] if isinstance(value, (list, tuple)) else float(value)
    return out


_GAMES: dict[str, Game] = {}


def game_of(name: str, config: Mapping[str, Any]) -> Game:
    """The game ``name`` with ``config``, built once per process (games are immutable)."""
    key = json.dumps([name, config], sort_keys=True)
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = make_game(name, **config)
    return game


def _scores(returns: Sequence[float]) -> list[float]:
    """1 to the sole best, ``1/m`` each to ``m`` tied best players, 0 to the others."""
    best = max(returns)
    tied = [r == best for r in returns]
    share = 1.0 / sum(tied)
    return [share if t else 0.0 for t in tied]


def play_task(task: Task) -> dict[str, Any]:
    """Play one tournament game and return its JSON record.

    Each seat's agent sees ``state.observed_by(seat)`` and its own seeded generator. A game that
    runs past the game's ``max_game_length`` decisions is stopped and scored as a draw.

    Per seat, the record counts the decisions, their time (``agent_seconds``, wall), the
    forward-model calls and, for agents whose ``last_stats`` says the decision ran a search,
    the searches and their iterations (``search_iterations``); and the seat's turns, a turn
    being a run of consecutive decisions of one seat, with the longest one in wall and in
    process CPU time (``max_turn_seconds``, ``max_turn_cpu_seconds``: the CotG paper's
    execution-time measure, which its time limits count in CPU time).

    The record keeps what replays the game exactly (``stratagem replay`` and ``stratagem
    view``): the game, its configuration, the initial state's seed, the rules version and every
    action in order (``actions``). Records written before ``actions`` existed still load; they
    only cannot be replayed.

    Raises:
        RuntimeError: If an agent fails; the message names the agent, game and seed.
    """
    game = game_of(task.game, task.config)
    agents = [make_agent(spec, game) for spec in task.specs]
    for agent in agents:
        agent.reset()
    rngs = [np.random.default_rng(s) for s in task.agent_seeds]
    n = game.spec.num_players
    decisions, seconds, calls = [0] * n, [0.0] * n, [0] * n
    searches, iterations = [0] * n, [0] * n
    turns, max_turn, max_turn_cpu = [0] * n, [0.0] * n, [0.0] * n
    turn_wall = turn_cpu = 0.0
    last_seat = -1
    state = game.new_initial_state(seed=task.game_seed)
    start = time.perf_counter()
    truncated = False
    total = 0
    actions: list[int] = []  # the whole game, so that ``stratagem replay``/``view`` can redo it
    while not state.is_terminal():
        if total >= game.spec.max_game_length:
            truncated = True
            break
        seat = state.current_player
        if seat != last_seat:
            turns[seat] += 1
            turn_wall = turn_cpu = 0.0
            last_seat = seat
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            action = agents[seat].act(state.observed_by(seat), rng=rngs[seat])
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            seconds[seat] += wall
            state.apply(action)
            actions.append(int(action))
        except Exception as exc:
            raise RuntimeError(
                f"agent {task.names[seat]!r} (seat {seat}) failed in {task.game} game "
                f"{task.index} of {task.row} vs {task.col} (seed {task.game_seed}): {exc!r}"
            ) from exc
        decisions[seat] += 1
        turn_wall += wall
        turn_cpu += cpu
        max_turn[seat] = max(max_turn[seat], turn_wall)
        max_turn_cpu[seat] = max(max_turn_cpu[seat], turn_cpu)
        stats = getattr(agents[seat], "last_stats", None)
        calls[seat] += int(getattr(stats, "fm_calls", 0))
        if getattr(stats, "searched", False):
            searches[seat] += 1
            iterations[seat] += int(getattr(stats, "iterations", 0))
        total += 1
    returns = [0.0] * n if truncated else [float(r) for r in state.returns()]
    return {
        "key": task.key,
        "game": task.game,
        "config": dict(task.config),
        "row": task.row,
        "col": task.col,
        "index": task.index,
        "level": task.level,
        "seed": task.game_seed,
        "names": list(task.names),
        "specs": list(task.specs),
        "returns": returns,
        "scores": _scores(returns),
        "truncated": truncated,
        "decisions": decisions,
        "agent_seconds": seconds,
        "fm_calls": calls,
        "searches": searches,
        "search_iterations": iterations,
        "turns": turns,
        "max_turn_seconds": max_turn,
        "max_turn_cpu_seconds": max_turn_cpu,
        "seconds": time.perf_counter() - start,
        "stats": end_statistics(state),
        "rules_version": game.spec.version,
        "agent_seeds": list(task.agent_seeds),
        "actions": actions,
    }
