"""The forward-model benchmark: ``apply``, ``clone`` and mask speed, random games per second.

``stratagem bench`` prints it (with a planner's throughput from :mod:`stratagem.baselines.bench`
when ``--agent`` is given); DESIGN section 8 says what is measured and why.
"""

from __future__ import annotations

import platform
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from stratagem.envs.core import Game, State

__all__ = ["benchmark_game"]


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
