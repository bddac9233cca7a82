"""Training: AlphaZero-style self-play (:mod:`.alphazero`) and masked PPO (:mod:`.ppo`).

Both need the ``train`` extra (torch, stable-baselines3, sb3-contrib, tensorboard). Importing
this package does not import torch; it registers the trained-network agents ``alphazero`` and
``ppo`` with lazy factories, so ``make_agent("alphazero:checkpoint=run/final.pt", game)`` works
anywhere agents are named.
"""

from __future__ import annotations

from typing import Any

from stratagem.baselines.agent import register_agent


def _lazy(name: str, cls: str, extra_hint: str) -> Any:
    def factory(game: Any, **params: Any) -> Any:
        try:
            from stratagem.training import agents
        except ImportError as exc:
            raise ValueError(f"agent {name!r} needs the train extra ({extra_hint}): {exc}") from exc
        return getattr(agents, cls)(game, **params)

    return factory


register_agent(
    "alphazero",
    _lazy("alphazero", "AlphaZeroAgent", "pip install 'stratagem[train]'"),
    "PUCT search with a trained AlphaZero network (checkpoint=path,simulations=N)",
)
register_agent(
    "ppo",
    _lazy("ppo", "PPOAgent", "pip install 'stratagem[train]'"),
    "a MaskablePPO policy trained by 'stratagem train ppo' (model=path)",
)
