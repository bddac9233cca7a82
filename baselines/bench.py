"""Planner throughput for ``stratagem bench <game> --agent <spec>``.

Search speed is what decides how strong a planner is under a time limit and how long a
tournament takes, so the benchmark reports it next to the forward model's own speed: decisions
per second, search iterations per second and forward-model calls per second *inside search*
(what the papers' budgets are counted in).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from stratagem.baselines.agent import make_agent
from stratagem.envs.core import Game
from stratagem.envs.registry import make_game

__all__ = ["agent_throughput"]


def agent_throughput(
    game: Game | str,
    agent_spec: str,
    seconds: float = 5.0,
    *,
    seed: int = 0,
    config: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Measure an agent deciding along its own self-play games for about ``seconds``.

    The agent plays every seat; each decision is timed, and the planner's statistics of that
    decision (``agent.last_stats``: iterations and forward-model calls, see
    :class:`~stratagem.baselines.search.SearchStats`) are summed. Decisions that needed no
    search (a single legal action) count as decisions but not as search time.

    Args:
        game: A game object, or a registry name built with ``config``.
        agent_spec: Agent spec, e.g. ``"mcts"`` or ``"mcts:budget=2000,c=1.414"``.
        seconds: Measuring time; at least one decision is always measured.
        seed: Seed of the games and of the agent's generator.
        config: Game options when ``game`` is a name.

    Returns:
        ``agent`` (the spec), ``decisions``, ``seconds``, ``decisions_per_s``,
        ``searched_decisions``, ``iterations_per_decision`` and ``fm_calls_per_decision``
        (means over searched decisions), ``iterations_per_s`` and ``fm_calls_per_s`` (per second
        of search time), and ``ms_per_decision``.
    """
    if isinstance(game, str):
        game = make_game(game, **dict(config or {}))
    agent = make_agent(agent_spec, game)
    rng = np.random.default_rng(seed)
    decisions = searched = 0
    iterations = calls = 0
    search_time = total_time = 0.0
    game_index = 0
    state = game.new_initial_state(seed=seed)
    agent.reset()
    start = time.perf_counter()
    while decisions == 0 or time.perf_counter() - start < seconds:
        if state.is_terminal():
            game_index += 1
            state = game.new_initial_state(seed=seed + game_index)
            agent.reset()
        t0 = time.perf_counter()
        action = agent.act(state.observed_by(state.current_player), rng=rng)
        elapsed = time.perf_counter() - t0
        total_time += elapsed
        decisions += 1
        stats = getattr(agent, "last_stats", None)
        if stats is not None and getattr(stats, "searched", True):
            searched += 1
            search_time += elapsed
            iterations += int(getattr(stats, "iterations", 0))
            calls += int(getattr(stats, "fm_calls", 0))
        state.apply(action)
    return {
        "agent": agent_spec,
        "decisions": decisions,
        "seconds": total_time,
        "decisions_per_s": decisions / total_time if total_time else float("nan"),
        "ms_per_decision": 1000.0 * total_time / decisions,
        "searched_decisions": searched,
        "iterations_per_decision": iterations / searched if searched else 0.0,
        "fm_calls_per_decision": calls / searched if searched else 0.0,
        "iterations_per_s": iterations / search_time if search_time else 0.0,
        "fm_calls_per_s": calls / search_time if search_time else 0.0,
    }
