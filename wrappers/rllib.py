"""RLlib adapter: the observation layout and the masked PPO module that RLlib's new API stack needs.

RLlib (``ray[rllib]``, new API stack: RLModules and connectors) has no built-in action masking
for the new stack. Its recipe (``rllib/examples/rl_modules/action_masking_rl_module.py``) is
an environment whose observation is a ``Dict`` with the keys ``"observations"`` (the real
observation) and ``"action_mask"`` (a float ``Box(0, 1)`` over the actions), and an RLModule
that takes the mask out of the observation and pushes the masked logits to -inf. Our
environments put the mask in ``info["action_mask"]`` (int8) instead, where RLlib never looks, so
this module ships both halves:

- :class:`RLlibActionMask`: a Gymnasium wrapper that moves ``info["action_mask"]`` into the
  observation under RLlib's keys, as float32. It needs no ray and works on any environment that
  reports its mask in ``info`` (every ``stratagem/<Game>-v0``).
- ``MaskedPPOTorchRLModule``: RLlib's default PPO torch module with the mask applied to the
  action logits in every forward pass (sampling, inference, training) and stripped before the
  encoder, so the network is built for the board planes alone. It subclasses RLlib classes, so
  it is built on first access (``from stratagem.wrappers.rllib import MaskedPPOTorchRLModule``)
  and ``import stratagem`` works without ray.

Our observations are ``H × W × C`` planes, which RLlib's catalog encodes with a CNN; give its
``conv_filters`` explicitly (RLlib has default filters only for a few picture sizes), for
example ``[[32, [3, 3], 1], [32, [3, 3], 1]]`` (``"same"`` padding keeps every tile).

The mask once an episode is over allows every action (see :mod:`stratagem.wrappers.gym_env`);
RLlib only uses that last observation to bootstrap the value, so it needs no special case.
"""

from __future__ import annotations

import functools
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

# MaskedPPOTorchRLModule is left out of __all__: a star import must not need ray.
__all__ = ["MASK_KEY", "OBS_KEY", "RLlibActionMask"]

#: RLlib's key for the legal-action mask in a ``Dict`` observation.
MASK_KEY = "action_mask"
#: RLlib's key for the real observation in a ``Dict`` observation.
OBS_KEY = "observations"


class RLlibActionMask(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Observation ``{"observations": obs, "action_mask": float32 mask}``, the layout RLlib expects.

    The mask is read from ``info["action_mask"]`` after every ``reset`` and ``step`` and also
    stays in ``info``, so code that reads it there keeps working.

    Args:
        env: A Gymnasium environment with a ``Discrete`` action space that reports its legal
            actions in ``info["action_mask"]`` (every ``stratagem/<Game>-v0`` does).

    Raises:
        TypeError: If the action space is not ``Discrete`` (a mask needs a finite action set).
        KeyError: At ``reset``/``step``, if the environment's ``info`` carries no
            ``"action_mask"``.
        ValueError: At ``reset``/``step``, if the mask's shape is not ``(action_space.n,)``.
    """

    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)  # env.spec can rebuild the wrapped env
        gym.Wrapper.__init__(self, env)
        if not isinstance(env.action_space, spaces.Discrete):
            raise TypeError(
                f"RLlibActionMask needs a Discrete action space, got {env.action_space}"
            )
        self._size = int(env.action_space.n)
        self.observation_space = spaces.Dict(
            {
                MASK_KEY: spaces.Box(0.0, 1.0, (self._size,), np.float32),
                OBS_KEY: env.observation_space,
            }
        )

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Reset the environment; the observation carries the first mask."""
        obs, info = self.env.reset(seed=seed, options=options)
        return self._with_mask(obs, info), info

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Step the environment; the observation carries the mask of the next decision."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._with_mask(obs, info), reward, terminated, truncated, info

    def _with_mask(self, obs: Any, info: dict[str, Any]) -> dict[str, np.ndarray]:
        if MASK_KEY not in info:
            raise KeyError(
                f"RLlibActionMask: {self.env} reported no info['{MASK_KEY}']; wrap an "
                "environment that puts its legal-action mask in info"
            )
        mask = np.asarray(info[MASK_KEY], dtype=np.float32)
        if mask.shape != (self._size,):
            raise ValueError(
                f"RLlibActionMask: info['{MASK_KEY}'] has shape {mask.shape}, expected "
                f"({self._size},) for the action space {self.env.action_space}"
            )
        return {MASK_KEY: mask, OBS_KEY: obs}


def __getattr__(name: str) -> Any:
    """Build ``MaskedPPOTorchRLModule`` on first access (PEP 562), so ray stays optional."""
    if name == "MaskedPPOTorchRLModule":
        return _masked_ppo_module()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def _masked_ppo_module() -> type:
    """The masked PPO module class, defined once ray is known to be importable."""
    try:
        from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import (
            DefaultPPOTorchRLModule,
        )
        from ray.rllib.core.columns import Columns
        from ray.rllib.utils.torch_utils import FLOAT_MIN
    except ImportError as error:
        raise ImportError(
            "MaskedPPOTorchRLModule needs RLlib: pip install 'stratagem[rllib]' "
            f"(or 'ray[rllib]'); importing it failed with: {error}"
        ) from error
    import torch

    class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
        """RLlib's default PPO torch module with legal-action masking.

        Expects the observation space of :class:`RLlibActionMask` (a ``Dict`` with
        ``"observations"`` and ``"action_mask"``). The encoder, policy and value heads are built
        by RLlib's PPO catalog for ``"observations"`` alone; the mask sets the logits of
        illegal actions to the most negative float, so they are never sampled and carry no
        probability in the PPO loss. The batch passed in is never modified: RLlib reuses it
        (the value of the same observations is computed after the forward pass).

        Raises:
            ValueError: If the observation space is not such a ``Dict``.
        """

        def __init__(self, *, observation_space: gym.Space | None = None, **kwargs: Any) -> None:
            if not (
                isinstance(observation_space, spaces.Dict)
                and set(observation_space.spaces) == {MASK_KEY, OBS_KEY}
            ):
                raise ValueError(
                    "MaskedPPOTorchRLModule needs a Dict observation space with the keys "
                    f"'{OBS_KEY}' and '{MASK_KEY}' (wrap the environment in "
                    f"stratagem.wrappers.rllib.RLlibActionMask), got {observation_space}"
                )
            super().__init__(observation_space=observation_space[OBS_KEY], **kwargs)
            # The networks are built for the planes; the module's own space is the one the
            # environment produces, so that RLlib rebuilds it the same way from a checkpoint.
            self.observation_space = observation_space

        def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
            mask, batch = _split(batch)
            return _mask_logits(super()._forward(batch, **kwargs), mask)

        def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
            mask, batch = _split(batch)
            return _mask_logits(super()._forward_train(batch, **kwargs), mask)

        def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
            if embeddings is None:
                _, batch = _split(batch)
            return super().compute_values(batch, embeddings)

    def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict) or MASK_KEY not in obs:
            raise ValueError(
                f"MaskedPPOTorchRLModule: batch['{Columns.OBS}'] must be a dict with "
                f"'{OBS_KEY}' and '{MASK_KEY}' (see RLlibActionMask)"
            )
        return obs[MASK_KEY], {**batch, Columns.OBS: obs[OBS_KEY]}

    def _mask_logits(out: dict[str, Any], mask: Any) -> dict[str, Any]:
        logits = out[Columns.ACTION_DIST_INPUTS]
        out[Columns.ACTION_DIST_INPUTS] = torch.where(
            mask > 0.5, logits, torch.full_like(logits, FLOAT_MIN)
        )
        return out

    MaskedPPOTorchRLModule.__module__ = __name__  # pickled by reference through __getattr__
    MaskedPPOTorchRLModule.__qualname__ = "MaskedPPOTorchRLModule"
    return MaskedPPOTorchRLModule
