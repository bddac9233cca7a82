"""PettingZoo entry module for Tribes: ``env()`` (wrapped) and ``raw_env()``.

Example::

    from stratagem.envs import tribes_v0
    env = tribes_v0.env(num_players=2, mode="capitals")
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        mask = obs["action_mask"]
        action = None if termination or truncation else env.action_space(agent).sample(mask)
        env.step(action)
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from stratagem.envs.aec import StratagemAECEnv, wrap_aec

__all__ = ["env", "raw_env"]

GAME = "tribes"


def raw_env(render_mode: str | None = None, **config: Any) -> StratagemAECEnv:
    """The unwrapped environment: an illegal action raises ``IllegalActionError``."""
    return StratagemAECEnv(GAME, render_mode=render_mode, **config)


def env(render_mode: str | None = None, **config: Any) -> AECEnv:
    """The environment with PettingZoo's standard wrappers (illegal move: -1, game over)."""
    return wrap_aec(raw_env(render_mode=render_mode, **config))
