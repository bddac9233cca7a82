"""Set-ups the AlphaZero training tests share: a quiet test config, the small actor run, a crash.

Every training test wants a run that writes nothing but its checkpoints under ``out_dir`` and
behaves the same on every machine: no evaluation matches, no progress bar, no TensorBoard, the
CPU and seed 0. The actor tests (processes here, Ray in ``test_ray.py``) compare the same small
tic-tac-toe run, and the resume tests kill a run the same way, so these live here once.
``tiny_games`` must be imported (it registers ``tictactoe_test``) before a config is used.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.training.config import AlphaZeroConfig

__all__ = [
    "SMALL_ACTOR_RUN",
    "crash_second_train_network",
    "load_run",
    "quiet_az_config",
    "same_buffers",
]

#: The small tic-tac-toe run that the actor tests (processes and Ray) play and resume.
SMALL_ACTOR_RUN: dict[str, Any] = dict(
    preset="tiny",
    iterations=2,
    games_per_iteration=8,
    parallel_games=4,
    actors=2,
    simulations=4,
    temperature_moves=4,
    train_steps=3,
    batch_size=16,
)


def quiet_az_config(out_dir: str | Path, **fields: Any) -> AlphaZeroConfig:
    """A tic-tac-toe AlphaZero config that only writes its run to ``out_dir``.

    ``fields`` set the rest (and may name another game); the defaults here keep the run
    reproducible and silent: no evaluation, no progress bar or TensorBoard, CPU, seed 0.
    """
    base: dict[str, Any] = dict(
        game="tictactoe_test",
        eval_every=0,
        out_dir=str(out_dir),
        progress=False,
        tensorboard=False,
        seed=0,
        device="cpu",
    )
    base.update(fields)
    return AlphaZeroConfig(**base)


def crash_second_train_network(monkeypatch: Any) -> Callable[..., Any]:
    """Make the second ``alphazero.train_network`` call raise ``KeyboardInterrupt``.

    That is a run killed during the training phase of its second iteration, after its
    self-play games were saved: what the resume tests must recover from exactly.

    Returns:
        The real ``train_network``, for the test to put back before it resumes.
    """
    from stratagem.training import alphazero

    real_train_network = alphazero.train_network
    calls = {"n": 0}

    def crash_on_second(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real_train_network(*args, **kwargs)

    monkeypatch.setattr(alphazero, "train_network", crash_on_second)
    return real_train_network


def load_run(path: Path) -> tuple[dict[str, Any], Any]:
    """A tic-tac-toe run's checkpoint and its replay buffer, to compare two runs exactly."""
    from stratagem.training import alphazero

    data = alphazero.load_checkpoint(path)
    buffer = alphazero.ReplayBuffer(data["config"]["replay_size"], (3, 3, 3), 2)
    buffer.load(path.parent / data["buffer_file"])
    return data, buffer


def same_buffers(a: Any, b: Any) -> bool:
    """Whether two replay buffers hold the same positions and targets, in the same order."""
    n = a.size
    return (
        n == b.size
        and np.array_equal(a.obs[:n], b.obs[:n])
        and np.array_equal(a.values[:n], b.values[:n])
        and np.array_equal(a.has_value[:n], b.has_value[:n])
        and all(np.array_equal(a.actions[i], b.actions[i]) for i in range(n))
        and all(np.array_equal(a.policies[i], b.policies[i]) for i in range(n))
    )
