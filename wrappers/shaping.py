"""Potential-based reward shaping with a game's heuristic evaluator.

Most games of the suite pay a reward only when the game ends, hundreds of decisions after the
moves that decided it, which leaves a policy-gradient learner with almost no signal early in
training. Shaping with a potential ``Φ`` (Ng, Harada and Russell, 1999) adds
``weight · (γ·Φ(s′) − Φ(s))`` to every reward: the optimal policy of the shaped task is the
optimal policy of the original one, so the heuristic can speed learning up without redefining
what winning means. ``Φ`` is the game's heuristic :class:`~stratagem.baselines.agent.Evaluator`
(the one the planners use) seen from the learner's seat, and 0 once the game is over.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from stratagem.baselines.agent import Evaluator
from stratagem.baselines.evaluators import make_evaluator

__all__ = ["PotentialShaping"]


class PotentialShaping(gym.Wrapper):
    """Adds ``weight · (γ·Φ(s′) − Φ(s))`` to the reward of a :class:`SingleAgentEnv`.

    The potential is read from the environment's state after the opponents have moved, i.e. at
    the learner's decision points, so the shaping of one learner step also credits the
    opponent's replies. ``info["shaping"]`` carries the added term so that logs can separate the
    game's own reward from the heuristic's.

    Args:
        env: A :class:`~stratagem.wrappers.gym_env.SingleAgentEnv` (possibly wrapped); its
            ``unwrapped`` must expose ``game_state``, ``seat`` and ``game``.
        weight: Scale of the shaping term; 0 turns it off.
        gamma: The learner's discount factor (the invariance holds for this γ only).
        evaluator: An evaluator object or spec for
            :func:`~stratagem.baselines.evaluators.make_evaluator`; ``"default"`` is the game's
            own heuristic.

    Raises:
        ValueError: For a negative weight or a discount outside (0, 1].
    """

    def __init__(
        self,
        env: gym.Env,
        *,
        weight: float = 1.0,
        gamma: float = 0.99,
        evaluator: Evaluator | str | None = "default",
    ) -> None:
        super().__init__(env)
        if weight < 0:
            raise ValueError(f"shaping weight must be >= 0, got {weight}")
        if not 0.0 < gamma <= 1.0:
            raise ValueError(f"gamma must be in (0, 1], got {gamma}")
        self.weight = float(weight)
        self.gamma = float(gamma)
        self.evaluator = make_evaluator(evaluator, env.unwrapped.game)
        self._phi = 0.0

    def _potential(self) -> float:
        base = self.env.unwrapped
        if base.game_state.is_terminal():
            return 0.0
        values = np.asarray(self.evaluator.evaluate(base.game_state), dtype=np.float64)
        return self.weight * float(values[base.seat])

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        """Reset the environment and the potential."""
        obs, info = self.env.reset(**kwargs)
        self._phi = self._potential()
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Step and add the shaping term to the reward."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        phi = self._potential()
        bonus = self.gamma * phi - self._phi
        self._phi = phi
        info = dict(info)
        info["shaping"] = bonus
        return obs, float(reward) + bonus, terminated, truncated, info
