"""``stratagem bench``: the forward model's speed and, with ``--agent``, a planner's throughput.

Search speed is what decides how strong a planner is under a time limit and how long a
tournament takes, so the benchmark reports it next to the forward model's own speed
(:func:`stratagem.envs.bench.benchmark_game`): decisions per second, search iterations per
second and forward-model calls per second *inside search* (what the papers' budgets are counted
in). The command lives here, in the lowest layer that has both, so that the games layer never
imports the agents.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from stratagem.baselines.agent import make_agent
from stratagem.envs.bench import benchmark_game
from stratagem.envs.cli_options import (
    add_config_argument,
    check_output_path,
    non_negative_int,
    parse_config,
)
from stratagem.envs.core import Game
from stratagem.envs.registry import make_game

__all__ = ["agent_throughput", "register"]


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


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``bench``."""
    bench = subparsers.add_parser(
        "bench", help="measure apply/clone/mask speed and random games per second"
    )
    bench.add_argument("game", help="game name (see 'stratagem games')")
    add_config_argument(bench)
    bench.add_argument(
        "--seconds",
        type=_positive_seconds,
        default=2.0,
        help="time per measurement, the --agent one included (default 2.0); a measurement "
        "always includes at least one decision or game, so a slow planner may take longer",
    )
    bench.add_argument("--seed", type=non_negative_int, default=0, help="seed, >= 0 (default 0)")
    bench.add_argument("--agent", help="also measure a planner's throughput, e.g. 'mcts'")
    bench.add_argument(
        "--out", default=None, help="JSON file to write (default: bench_<game>.json)"
    )
    bench.set_defaults(func=_cmd_bench)


def _positive_seconds(text: str) -> float:
    """An argparse type: a positive number of seconds (argparse names the option in its error).

    Raises:
        argparse.ArgumentTypeError: For text that is not a positive finite number.
    """
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (0.0 < value < float("inf")):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


_LABELS = (
    ("apply_per_s", "apply calls/s (random games replayed)", "{:,.0f}"),
    ("steps_per_s", "steps/s (legal actions + apply)", "{:,.0f}"),
    ("clone_per_s", "clone calls/s (mid-game states)", "{:,.0f}"),
    ("mask_per_s", "legal-mask computations/s", "{:,.0f}"),
    ("games_per_s", "complete random games/s", "{:,.2f}"),
    ("legal_actions_per_decision", "legal actions per decision", "{:.1f}"),
    ("decisions_per_game", "decisions per random game", "{:.0f}"),
)


def _cmd_bench(args: argparse.Namespace) -> int:
    game = make_game(args.game, **parse_config(args.config))
    out = args.out or f"bench_{args.game}.json"
    check_output_path(out, "--out")  # before the measurement, not after it
    result = benchmark_game(game, seconds=args.seconds, seed=args.seed)
    if args.agent:
        result["agent"] = agent_throughput(game, args.agent, seconds=args.seconds, seed=args.seed)
    print(f"stratagem bench {args.game} {dict(game.spec.config)}")
    for key, label, fmt in _LABELS:
        print(f"  {label:<40} {fmt.format(result[key])}")
    for key, value in result.get("agent", {}).items():
        text = f"{value:,.1f}" if isinstance(value, float) else str(value)
        label = "agent" if key == "agent" else f"agent {key}"  # key "agent" holds the spec
        print(f"  {label:<40} {text}")
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(result, fh, indent=2)
    print(f"  written to {out}")
    return 0
