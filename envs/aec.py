"""The PettingZoo AEC adapter shared by every game.

One class serves all games through the forward-model contract: agents are ``player_0`` ..
``player_{n-1}``, :meth:`StratagemAECEnv.observe` returns ``{"observation", "action_mask"}``,
the mask is also in ``infos[agent]["action_mask"]``, rewards are the game's returns given at the
end, and the same agent stays selected for as long as the game keeps it the mover (multi-action
turns). ``env.unwrapped.game_state`` is the forward model; ``clone()`` it before searching.
``env.state()`` is PettingZoo's global state (every player's observation, stacked on the channel
axis, see :meth:`StratagemAECEnv.state`) and ``env.state_space`` its space.

Every game has a PettingZoo entry module ``stratagem.envs.<game>_v0`` whose ``env()`` and
``raw_env()`` come from :func:`make_env_functions`. Example::

    from stratagem.envs import kill_the_king_v0
    env = kill_the_king_v0.env(map="kwah:3")
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        mask = obs["action_mask"]
        action = None if termination or truncation else env.action_space(agent).sample(mask)
        env.step(action)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.base import BaseWrapper

from stratagem.envs.core import State, action_in_space, as_action_index
from stratagem.envs.registry import make_game
from stratagem.envs.window import human_window, render_state

__all__ = ["CheckActionWrapper", "StratagemAECEnv", "make_env_functions", "wrap_aec"]


class StratagemAECEnv(AECEnv):
    """A registered game as a PettingZoo AEC environment (the ``raw_env``).

    Args:
        game: Registry name of the game.
        render_mode: ``None``, ``"human"`` (shows the picture in a window after every
            ``reset`` and ``step``, see :mod:`stratagem.envs.window`; a game without pictures
            prints its text board), ``"ansi"`` (returns the text board) or ``"rgb_array"``
            (returns the picture).
        **config: The game's configuration keywords (``map="kwah:3"``, ...).

    Attributes:
        game_state: The forward model of the current game (a :class:`State`). It is not called
            ``state`` because :meth:`state` is PettingZoo's global-state method.
        state_space: Box of :meth:`state`.

    Raises:
        UnknownGameError: For an unknown game.
        UnknownOptionError: For an unknown option (a ``TypeError`` and a ``ValueError``).
        ValueError: For a bad option value or render mode.
        DisplayError: For ``render_mode="human"`` where no window can be shown (matplotlib or
            a display is missing); raised here rather than at the first step.
    """

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(self, game: str, render_mode: str | None = None, **config: Any) -> None:
        super().__init__()
        self.game = make_game(game, **config)
        spec = self.game.spec
        self.metadata = {**self.metadata, "name": f"{spec.name}_v{spec.version}"}
        if self.game.new_initial_state(0).render_module is None:  # a game without pictures
            self.metadata["render_modes"] = ["human", "ansi"]
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or "
                f"None, got {render_mode!r}"
            )
        self.render_mode = render_mode
        self._window = human_window(
            render_mode,
            self.metadata["name"],
            self.metadata["render_fps"],
            "rgb_array" in self.metadata["render_modes"],
        )
        self.possible_agents = [f"player_{i}" for i in range(spec.num_players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        low, high = spec.observation_bounds
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, spec.observation_shape, np.float32),
                "action_mask": spaces.Box(0, 1, (spec.action_size,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(spec.action_size) for a in self.possible_agents}
        height, width, channels = spec.observation_shape
        self.state_space = spaces.Box(
            low, high, (height, width, channels * spec.num_players), np.float32
        )
        self._seeder = np.random.default_rng()
        self.game_state: State = self.game.new_initial_state(0)
        self.agents = []
        self._has_reset = False

    def observation_space(self, agent: str) -> spaces.Space:
        """Dict space of ``observation`` (float32 planes) and ``action_mask`` (int8)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The flat ``Discrete(action_size)`` space."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game; the same ``seed`` gives the same game."""
        if seed is not None:
            self._seeder = np.random.default_rng(seed)
        self.game_state = self.game.new_initial_state(int(self._seeder.integers(2**31)))
        self._has_reset = True
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.agent_selection = self.possible_agents[self.game_state.current_player]
        self.infos = {a: {} for a in self.agents}
        self._update_masks()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Planes seen by ``agent`` and its int8 action mask (zeros when it is not to move)."""
        return {
            "observation": self.game_state.observation(self._index[agent]),
            "action_mask": self._mask(agent),
        }

    def state(self) -> np.ndarray:
        """PettingZoo's global state: every player's observation, stacked on the channel axis.

        Player ``i``'s planes (in its own relative frame) are channels ``i·C .. (i+1)·C − 1``
        of an ``H × W × (num_players·C)`` float32 array (``state_space``). As in PettingZoo's
        MPE environments, the global state is the concatenation of the agents' views: for a
        perfect-information game it holds the whole position; for Tribes it holds everything
        any tribe sees, each tribe's private figures included (tiles no tribe has seen stay
        fog). It is what centralized critics (QMIX, MAPPO) take, never what an agent acts on.
        """
        return np.concatenate(
            [self.game_state.observation(p) for p in range(self.game.spec.num_players)], axis=-1
        )

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action; ``None`` for an agent that is already done.

        Raises:
            RuntimeError: Before the first :meth:`reset`, or once every agent is done.
            ActionTypeError: For an action that is not an integer (a bool, float, str, ...).
            IllegalActionError: For an illegal or out-of-space action (nothing changes).
        """
        name = self.metadata["name"]
        if not self._has_reset:
            raise RuntimeError(f"{name}: step() called before reset(); call env.reset() first")
        if not self.agents:
            raise RuntimeError(
                f"{name}: step() called after the game ended (every agent is done); "
                "call env.reset() to start a new game"
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = as_action_index(action, f"{name} ({agent})")
        self._cumulative_rewards[agent] = 0.0
        self.game_state.apply(action)  # raises IllegalActionError, leaving everything unchanged
        if self.game_state.is_terminal():
            returns = self.game_state.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self._index[a]])
                self.terminations[a] = True
            # PettingZoo then steps every agent with None, starting from the next one.
            self.agent_selection = self.possible_agents[
                (self._index[agent] + 1) % len(self.possible_agents)
            ]
        else:
            self.agent_selection = self.possible_agents[self.game_state.current_player]
        self._update_masks()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray | None:
        """Render according to ``render_mode`` (``"human"``: show it and return ``None``)."""
        return render_state(self.render_mode, self.game_state, self._window)

    def close(self) -> None:
        """Close the ``human`` window, if one is open."""
        if self._window is not None:
            self._window.close()

    def _mask(self, agent: str) -> np.ndarray:
        state = self.game_state
        if state.is_terminal() or self._index[agent] != state.current_player:
            return np.zeros(self.game.spec.action_size, dtype=np.int8)
        return state.legal_action_mask().astype(np.int8)

    def _update_masks(self) -> None:
        for a in self.agents:
            self.infos[a] = {"action_mask": self._mask(a)}


class CheckActionWrapper(BaseWrapper):
    """Rejects a non-integer or out-of-space action with an error that names it.

    It takes the place of PettingZoo's ``AssertOutOfBoundsWrapper``, whose bare ``assert`` does
    not name the action and vanishes under ``python -O``, and it runs before
    ``TerminateIllegalWrapper`` indexes the mask with the action (a ``bool`` there would raise
    numpy's "truth value is ambiguous"). An in-space action that is illegal is left to
    ``TerminateIllegalWrapper`` (the mover loses); an action that is not in the space at all is a
    programming error, so it raises.
    """

    def step(self, action: Any) -> None:
        """Check ``action`` for the selected agent, then pass it on as a Python ``int``.

        Raises:
            ActionTypeError: For an action that is not an integer (``None`` included) given to
                an agent that is not done.
            IllegalActionError: For an integer outside the agent's ``Discrete`` space.
        """
        agent = self.agent_selection
        if not (self.terminations[agent] or self.truncations[agent]):
            name = f"{self.metadata.get('name', 'env')} ({agent})"
            action = action_in_space(action, int(self.action_space(agent).n), name)
        super().step(action)

    def __str__(self) -> str:
        return str(self.env)


def wrap_aec(env: StratagemAECEnv) -> AECEnv:
    """PettingZoo's standard wrappers: an illegal move ends the game with -1 to the mover.

    Order, inside out: ``TerminateIllegalWrapper`` (an illegal in-space action: -1 to the mover,
    game over), :class:`CheckActionWrapper` (a non-integer or out-of-space action raises a
    clear error), ``OrderEnforcingWrapper`` (reset before step).
    """
    wrapped: AECEnv = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    wrapped = CheckActionWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def make_env_functions(
    game: str,
) -> tuple[Callable[..., AECEnv], Callable[..., StratagemAECEnv]]:
    """The ``env`` and ``raw_env`` functions of the entry module ``stratagem.envs.<game>_v0``.

    Both take ``render_mode`` and the game's configuration keywords. They are named as that
    module's own functions, so they pickle by reference once the module assigns them.

    Args:
        game: Registry name of the game.

    Returns:
        ``(env, raw_env)``.
    """

    def raw_env(render_mode: str | None = None, **config: Any) -> StratagemAECEnv:
        """The unwrapped environment: an illegal action raises ``IllegalActionError``."""
        return StratagemAECEnv(game, render_mode=render_mode, **config)

    def env(render_mode: str | None = None, **config: Any) -> AECEnv:
        """The environment with PettingZoo's standard wrappers (illegal move: -1, game over)."""
        return wrap_aec(raw_env(render_mode=render_mode, **config))

    for function in (env, raw_env):
        function.__module__ = f"stratagem.envs.{game}_v0"
        function.__qualname__ = function.__name__
    return env, raw_env
