"""``stratagem games`` and ``stratagem bench``: the registry and the forward-model benchmark."""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from stratagem.envs.core import Game, State
from stratagem.envs.registry import game_entry, list_games, make_game, parse_config_value

__all__ = ["benchmark_game", "parse_config", "register"]


def parse_config(items: Sequence[str] | None) -> dict[str, Any]:
    """Turn ``["map=kwah:3", "max_rounds=49"]`` into keywords (values parsed as JSON if they can).

    Raises:
        ValueError: If an item is not written ``key=value``.
    """
    config: dict[str, Any] = {}
    for item in items or ():
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"game option {item!r} must be written key=value")
        config[key] = parse_config_value(value)
    return config


def add_config_argument(parser: argparse.ArgumentParser) -> None:
    """The ``--config key=value`` option shared by every command that builds a game."""
    parser.add_argument(
        "--config",
        "-c",
        action="append",
        metavar="KEY=VALUE",
        help="game option, repeatable (e.g. -c map=kwah:3 -c max_rounds=49)",
    )


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``games`` and ``bench``."""
    games = subparsers.add_parser("games", help="list the games with their facts and options")
    games.add_argument("--json", action="store_true", help="print JSON instead of text")
    games.set_defaults(func=_cmd_games)

    bench = subparsers.add_parser(
        "bench", help="measure apply/clone/mask speed and random games per second"
    )
    bench.add_argument("game", help="game name (see 'stratagem games')")
    add_config_argument(bench)
    bench.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    bench.add_argument("--seed", type=int, default=0)
    bench.add_argument("--agent", help="also measure a planner's throughput, e.g. 'mcts'")
    bench.add_argument(
        "--out", default=None, help="JSON file to write (default: bench_<game>.json)"
    )
    bench.set_defaults(func=_cmd_bench)


def _cmd_games(args: argparse.Namespace) -> int:
    rows = []
    for name in list_games():
        entry = game_entry(name)
        spec = make_game(name).spec
        rows.append(
            {
                "name": name,
                "description": entry.description,
                "players": spec.num_players,
                "action_size": spec.action_size,
                "observation_shape": list(spec.observation_shape),
                "max_game_length": spec.max_game_length,
                "deterministic": spec.deterministic,
                "perfect_information": spec.perfect_information,
                "options": dict(entry.defaults),
                "gymnasium_id": entry.env_id,
                "pettingzoo_module": f"stratagem.envs.{name}_v0",
            }
        )
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        print(f"{row['name']}: {row['description']}")
        for key in (
            "players",
            "action_size",
            "observation_shape",
            "max_game_length",
            "deterministic",
            "perfect_information",
            "options",
            "gymnasium_id",
            "pettingzoo_module",
        ):
            print(f"  {key:<20} {row[key]}")
    return 0


def _rate(func: Callable[[], int], seconds: float) -> float:
    """Calls per second of ``func`` (which returns how many operations it performed)."""
    done, start = 0, time.perf_counter()
    while True:
        done += func()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def benchmark_game(game: Game, seconds: float = 2.0, seed: int = 0) -> dict[str, Any]:
    """Measure the forward model of ``game`` with uniformly random legal play.

    Returns:
        ``apply_per_s`` (``apply`` alone, replaying recorded random games), ``steps_per_s``
        (``legal_actions`` + choice + ``apply``, what a random rollout costs), ``clone_per_s``
        and ``mask_per_s`` (on states sampled along random games), ``games_per_s`` (complete
        random games), ``legal_actions_per_decision`` and ``decisions_per_game``.
    """
    chooser = random.Random(seed)
    # Record a few random games: their actions and some states along them.
    trajectories: list[tuple[int, list[int]]] = []
    samples: list[State] = []
    legal_counts: list[int] = []
    start = time.perf_counter()
    g = 0
    while len(trajectories) < 3 or time.perf_counter() - start < seconds:
        state = game.new_initial_state(seed + g)
        actions = []
        while not state.is_terminal():
            legal = state.legal_actions()
            legal_counts.append(len(legal))
            action = int(legal[int(chooser.random() * len(legal))])
            if chooser.random() < 0.01:
                samples.append(state.clone())
            state.apply(action)
            actions.append(action)
        trajectories.append((seed + g, actions))
        g += 1
    games_per_s = g / (time.perf_counter() - start)
    total_decisions = sum(len(a) for _, a in trajectories)
    samples = samples or [game.new_initial_state(seed)]

    def replay_all() -> int:
        n = 0
        for game_seed, actions in trajectories:
            state = game.new_initial_state(game_seed)
            apply = state.apply
            for action in actions:
                apply(action)
            n += len(actions)
        return n

    # Time apply alone: subtract the cost of creating the initial states.
    t0 = time.perf_counter()
    replayed = replay_all()
    t_replay = time.perf_counter() - t0
    t0 = time.perf_counter()
    for game_seed, _ in trajectories:
        game.new_initial_state(game_seed)
    t_init = time.perf_counter() - t0
    apply_per_s = replayed / max(t_replay - t_init, 1e-9)
    if t_replay < seconds:
        apply_per_s = _rate(replay_all, seconds)

    def steps() -> int:
        n = 0
        for sample in samples:
            state = sample.clone()
            for _ in range(50):
                if state.is_terminal():
                    break
                legal = state.legal_actions()
                state.apply(int(legal[int(chooser.random() * len(legal))]))
                n += 1
        return n

    def clones() -> int:
        for sample in samples:
            sample.clone()
        return len(samples)

    def masks() -> int:
        for sample in samples:
            sample.legal_action_mask()
        return len(samples)

    return {
        "game": game.spec.name,
        "config": dict(game.spec.config),
        "apply_per_s": apply_per_s,
        "steps_per_s": _rate(steps, seconds),
        "clone_per_s": _rate(clones, seconds),
        "mask_per_s": _rate(masks, seconds),
        "games_per_s": games_per_s,
        "legal_actions_per_decision": float(np.mean(legal_counts)),
        "decisions_per_game": total_decisions / len(trajectories),
        "games_measured": g,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }


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
    result = benchmark_game(game, seconds=args.seconds, seed=args.seed)
    if args.agent:
        from stratagem.baselines.bench import agent_throughput

        result["agent"] = agent_throughput(game, args.agent, seconds=max(args.seconds, 5.0))
    print(f"stratagem bench {args.game} {dict(game.spec.config)}")
    for key, label, fmt in _LABELS:
        print(f"  {label:<40} {fmt.format(result[key])}")
    for key, value in result.get("agent", {}).items():
        text = f"{value:,.1f}" if isinstance(value, float) else str(value)
        print(f"  {'agent ' + key:<40} {text}")
    out = args.out or f"bench_{args.game}.json"
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(result, fh, indent=2)
    print(f"  written to {out}")
    return 0
