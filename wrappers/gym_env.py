"""Gymnasium single-agent view of any registered game: the learner against a built-in opponent.

``gym.make("stratagem/KillTheKing-v0", opponent="rule_based", seat="random", map="kwah")``:
the learner plays one seat; the opponent (any agent spec or :class:`Agent` object) plays the
other seats inside :meth:`SingleAgentEnv.step`, so every transition is seen from the learner's
side only. The observation is the game's float32 ``H × W × C`` tensor; the legal-action mask is
``info["action_mask"]`` (int8) and :meth:`SingleAgentEnv.action_masks` (for sb3-contrib's
``MaskablePPO``).

Illegal actions are handled deterministically, never by crashing: with
``illegal_action="lose"`` (default) the episode terminates with reward -1 and
``info["illegal_action"] = True``; with ``illegal_action="raise"`` an
:class:`IllegalActionError` is raised and the state is unchanged.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from stratagem.baselines.agent import Agent, make_agent
from stratagem.envs.core import State
from stratagem.envs.registry import game_entry, list_games, make_game

__all__ = ["SingleAgentEnv", "register_gymnasium_envs"]


class SingleAgentEnv(gym.Env):
    """One seat of a game as a Gymnasium environment.

    Args:
        game: Registry name of the game.
        opponent: Agent spec (``"random"``, ``"rule_based"``, ``"mcts:budget=200"``) or an
            :class:`Agent`; used for every seat but the learner's.
        seat: The learner's seat, or ``"random"`` to draw it at every reset.
        illegal_action: ``"lose"`` or ``"raise"`` (see the module docstring).
        render_mode: ``None``, ``"ansi"``, ``"human"`` or ``"rgb_array"``.
        **config: The game's configuration keywords.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        game: str,
        opponent: str | Agent = "random",
        seat: int | str = 0,
        illegal_action: str = "lose",
        render_mode: str | None = None,
        **config: Any,
    ) -> None:
        self.game = make_game(game, **config)
        spec = self.game.spec
        if seat != "random" and (isinstance(seat, bool) or seat not in range(spec.num_players)):
            raise ValueError(
                f"{spec.name}: seat must be 0..{spec.num_players - 1} or 'random', got {seat!r}"
            )
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or "
                f"None, got {render_mode!r}"
            )
        self.opponent = make_agent(opponent, self.game)
        self.seat_option = seat
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        low, high = spec.observation_bounds
        self.observation_space = spaces.Box(low, high, spec.observation_shape, np.float32)
        self.action_space = spaces.Discrete(spec.action_size)
        self.seat = 0 if seat == "random" else int(seat)
        self.state: State = self.game.new_initial_state(0)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New game; the opponent moves first when the learner's seat is not first."""
        super().reset(seed=seed)
        self.state = self.game.new_initial_state(int(self.np_random.integers(2**31)))
        if self.seat_option == "random":
            self.seat = int(self.np_random.integers(self.game.spec.num_players))
        self.opponent.reset()
        self._play_opponents()
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then the opponent's until the learner is to move again."""
        if self.state.is_terminal():
            raise RuntimeError("step() called on a finished episode; call reset()")
        mask = self.state.legal_action_mask()
        a = int(action)
        if not (0 <= a < mask.size and mask[a]):
            if self.illegal_action == "raise":
                raise self.state.illegal(action, "masked out")
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), -1.0, True, False, info
        self.state.apply(a)
        self._play_opponents()
        terminated = self.state.is_terminal()
        reward = float(self.state.returns()[self.seat]) if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """int8 legal-action mask of the learner (sb3-contrib ``MaskablePPO`` reads this)."""
        if self.state.is_terminal() or self.state.current_player != self.seat:
            return np.zeros(self.game.spec.action_size, dtype=np.int8)
        return self.state.legal_action_mask().astype(np.int8)

    def render(self) -> str | np.ndarray | None:
        """Render according to ``render_mode``."""
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return self.state.render_rgb()
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _play_opponents(self) -> None:
        state = self.state
        while not state.is_terminal() and state.current_player != self.seat:
            view = state.observed_by(state.current_player)
            state.apply(self.opponent.act(view, rng=self.np_random))

    def _obs(self) -> np.ndarray:
        return self.state.observation(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seat}


def register_gymnasium_envs() -> None:
    """Register ``stratagem/<Game>-v0`` for every registered game (idempotent)."""
    for name in list_games():
        env_id = game_entry(name).env_id
        if env_id not in gym.registry:
            gym.register(
                id=env_id,
                entry_point="stratagem.wrappers.gym_env:SingleAgentEnv",
                kwargs={"game": name},
                disable_env_checker=False,
            )
