"""Training: AlphaZero-style self-play (:mod:`.alphazero`) and masked PPO (:mod:`.ppo`).

Both need the ``train`` extra (torch, stable-baselines3, sb3-contrib, tensorboard). Importing
this package does not import torch. :data:`AGENTS` is its table of trained-network agents,
``alphazero`` and ``ppo``, with lazy factories; the ``stratagem`` package names it to the agent
registry, so ``make_agent("alphazero:checkpoint=run/final.pt", game)`` works anywhere agents are
named, while ``stratagem.baselines`` (a layer below) imports nothing from here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["AGENTS"]


def _lazy(name: str, cls: str, extra_hint: str) -> Callable[..., Any]:
    """A factory that imports the agent class (and torch) only when the agent is built."""

    def factory(game: Any, **params: Any) -> Any:
        try:
            from stratagem.training import agents
        except ImportError as exc:
            raise ValueError(f"agent {name!r} needs the train extra ({extra_hint}): {exc}") from exc
        from stratagem.baselines.agent import refuse_unknown_keywords

        klass = getattr(agents, cls)
        refuse_unknown_keywords(klass, params)  # the message lists what it accepts
        return klass(game, **params)

    return factory


#: Agent name -> (factory, description), in the form of a game's agent table.
AGENTS: dict[str, tuple[Callable[..., Any], str]] = {
    "alphazero": (
        _lazy("alphazero", "AlphaZeroAgent", "pip install 'stratagem[train]'"),
        "PUCT search with a trained AlphaZero network (checkpoint=path,simulations=N)",
    ),
    "ppo": (
        _lazy("ppo", "PPOAgent", "pip install 'stratagem[train]'"),
        "a MaskablePPO policy trained by 'stratagem train ppo' (model=path)",
    ),
}
