"""Batched games: thousands of positions advanced per call, on torch tensors (CPU or CUDA).

``batched_game(make_game("push_them_all", map="pta"), device="cuda")`` gives the batched version
of a scalar game, with the same rules, actions and observation planes (bit-identical, checked by
the differential tests). :mod:`stratagem.envs.batched.core` defines the interface,
:class:`~stratagem.envs.batched.env.BatchedEnv` a stateful batch with automatic resets.

This package needs torch (``pip install "stratagem[train]"``); nothing else in
:mod:`stratagem.envs` imports it.
"""

try:
    import torch  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the install
    raise ImportError(
        'stratagem.envs.batched needs torch: pip install "stratagem[train]" (GPU users: install '
        "their CUDA build of torch first, see the README)"
    ) from exc

from stratagem.envs.batched.core import (
    BatchedGame,
    BatchedState,
    batched_game,
    has_batched,
    sample_legal,
)
from stratagem.envs.batched.env import BatchedEnv, BatchedStepResult

__all__ = [
    "BatchedEnv",
    "BatchedGame",
    "BatchedState",
    "BatchedStepResult",
    "batched_game",
    "has_batched",
    "sample_legal",
]
