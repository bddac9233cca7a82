"""Gymnasium single-agent view of any registered game: the learner against a built-in opponent.

``gym.make("stratagem/KillTheKing-v0", opponent="rule_based", map="kwah")``: the learner plays
one seat, drawn at every reset by default (``seat="random"``: in several games the first seat
wins far more often, see ``docs/seats.md``, so a fixed seat biases every evaluation); the
opponent (any agent spec or :class:`Agent` object) plays the other seats inside
:meth:`SingleAgentEnv.step`, so every transition is seen from the learner's side only. The
observation is the game's float32 ``H × W × C`` tensor; the legal-action mask is
``info["action_mask"]`` (int8) and :meth:`SingleAgentEnv.action_masks` (for sb3-contrib's
``MaskablePPO``). ``env.unwrapped.game_state`` is the forward model.

Actions are Python or numpy integers (a 0-d integer array too); anything else (a bool, float,
string, ``Decimal``, bytes, ``None``) raises :class:`~stratagem.envs.core.ActionTypeError` (a
``TypeError``) whatever the mode below, because converting it with ``int()`` would play another
action than the one meant.

An integer outside the ``Discrete`` action space raises :class:`IllegalActionError` ("...
outside the action space") whatever the mode below, as PettingZoo's ``env()`` does: it is a bug
of the caller (a policy head of the wrong size), not a move of the game.

Illegal in-space actions are handled deterministically, never by crashing: with
``illegal_action="lose"`` (default) the episode terminates with reward -1 and
``info["illegal_action"] = True``; with ``illegal_action="raise"`` an
:class:`IllegalActionError` is raised and the state is unchanged. After any termination,
``step()`` raises until ``reset()`` is called.

The mask once an episode is over: no action is legal any more, but on that step
``info["action_mask"]`` (and :meth:`SingleAgentEnv.action_masks`) allows every action. Gymnasium's
vector environments return that info in their default ``NEXT_STEP`` autoreset mode and then
ignore the next action of that sub-environment (they reset it instead), so an all-zero mask
there would only make masked sampling fail (``Discrete.sample(mask)`` raises, a masked softmax
gives NaN); with ``SAME_STEP`` autoreset the info is already the reset one, with the new
episode's mask.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from stratagem.baselines.agent import Agent, make_agent
from stratagem.envs.core import State, action_in_space
from stratagem.envs.registry import batched_game_names, game_entry, list_games, make_game
from stratagem.envs.window import human_window, render_state

__all__ = ["SingleAgentEnv", "check_seat", "register_gymnasium_envs"]


def check_seat(seat: object, num_players: int, where: str) -> int | str:
    """``seat`` if it names the learner's seat: ``"random"`` or an integer seat.

    Shared by the Gymnasium views (one game, and the batched vector of many), so that both
    refuse the same values: ``True`` and ``1.0`` are not seats, though ``range`` contains them.

    Raises:
        ValueError: Naming the seats the game has.
    """
    if seat == "random":
        return "random"
    is_int = isinstance(seat, int | np.integer) and not isinstance(seat, bool)
    if not is_int or not 0 <= seat < num_players:  # type: ignore[operator]
        raise ValueError(f"{where}: seat must be 0..{num_players - 1} or 'random', got {seat!r}")
    return int(seat)


class SingleAgentEnv(gym.Env):
    """One seat of a game as a Gymnasium environment.

    Args:
        game: Registry name of the game.
        opponent: Agent spec (``"random"``, ``"rule_based"``, ``"mcts:budget=200"``) or an
            :class:`Agent`; used for every seat but the learner's.
        seat: The learner's seat, or ``"random"`` (the default) to draw it at every reset.
        illegal_action: ``"lose"`` or ``"raise"`` (see the module docstring).
        render_mode: ``None``, ``"ansi"`` (the text board), ``"human"`` (the picture shown in
            a window after every ``reset`` and ``step``, see :mod:`stratagem.envs.window`) or
            ``"rgb_array"`` (the picture as an array).
        **config: The game's configuration keywords.

    Attributes:
        game_state: The forward model of the current episode (the same name as in the
            PettingZoo environments, where ``state`` is PettingZoo's global-state method).
        seat: The learner's seat in the current episode (also ``info["seat"]``).

    Raises:
        UnknownOptionError: For an unknown game option (a ``TypeError`` and a ``ValueError``).
        ValueError: For a bad seat, opponent, illegal-action mode, render mode or option value.
        DisplayError: For ``render_mode="human"`` where no window can be shown (matplotlib or
            a display is missing); raised here rather than at the first step.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        game: str,
        opponent: str | Agent = "random",
        seat: int | str = "random",
        illegal_action: str = "lose",
        render_mode: str | None = None,
        **config: Any,
    ) -> None:
        self.game = make_game(game, **config)
        spec = self.game.spec
        self._name = game_entry(game).env_id
        seat = check_seat(seat, spec.num_players, spec.name)
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        if self.game.new_initial_state(0).render_module is None:  # a game without pictures
            self.metadata = {**self.metadata, "render_modes": ["ansi", "human"]}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or "
                f"None, got {render_mode!r}"
            )
        self.opponent = make_agent(opponent, self.game)
        self.seat_option = seat
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self._window = human_window(
            render_mode,
            self._name,
            self.metadata["render_fps"],
            "rgb_array" in self.metadata["render_modes"],
        )
        low, high = spec.observation_bounds
        self.observation_space = spaces.Box(low, high, spec.observation_shape, np.float32)
        self.action_space = spaces.Discrete(spec.action_size)
        self.seat = 0 if seat == "random" else int(seat)
        self.game_state: State = self.game.new_initial_state(0)
        self._needs_reset = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New game; the opponent moves first when the learner's seat is not first."""
        super().reset(seed=seed)
        self.game_state = self.game.new_initial_state(int(self.np_random.integers(2**31)))
        if self.seat_option == "random":
            self.seat = int(self.np_random.integers(self.game.spec.num_players))
        self.opponent.reset()
        self._play_opponents()
        self._needs_reset = self.game_state.is_terminal()
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then the opponent's until the learner is to move again.

        Raises:
            RuntimeError: Before the first :meth:`reset` or after a termination (an illegal
                action's included) until the next :meth:`reset`.
            ActionTypeError: If ``action`` is not a Python or numpy integer.
            IllegalActionError: For an action outside the action space (always: it is a bug
                of the caller, not a move), or an illegal one with ``illegal_action="raise"``.
        """
        if self._needs_reset:
            raise RuntimeError(
                f"{self._name}: step() called before reset() or after the episode ended; "
                "call reset()"
            )
        a = action_in_space(action, int(self.action_space.n), self._name)
        state = self.game_state
        if not state.legal_action_mask()[a]:
            if self.illegal_action == "raise":
                raise state.illegal(a, "masked out")
            self._needs_reset = True
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), -1.0, True, False, info
        state.apply(a)
        self._play_opponents()
        terminated = state.is_terminal()
        self._needs_reset = terminated
        reward = float(state.returns()[self.seat]) if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """int8 legal-action mask of the learner (sb3-contrib ``MaskablePPO`` reads this).

        Once the episode is over (and before the first reset) every action is allowed: the
        next action is never played (see the module docstring), and a mask without any
        allowed action would break masked sampling.
        """
        size = self.game.spec.action_size
        if self._needs_reset:
            return np.ones(size, dtype=np.int8)
        state = self.game_state
        if state.current_player != self.seat:
            return np.zeros(size, dtype=np.int8)
        return state.legal_action_mask().astype(np.int8)

    def render(self) -> str | np.ndarray | None:
        """Render according to ``render_mode`` (``"human"``: show it and return ``None``)."""
        return render_state(self.render_mode, self.game_state, self._window)

    def close(self) -> None:
        """Close the ``human`` window, if one is open."""
        if self._window is not None:
            self._window.close()

    def _play_opponents(self) -> None:
        state = self.game_state
        while not state.is_terminal() and state.current_player != self.seat:
            view = state.observed_by(state.current_player)
            state.apply(self.opponent.act(view, rng=self.np_random))

    def _obs(self) -> np.ndarray:
        return self.game_state.observation(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seat}


def register_gymnasium_envs() -> None:
    """Register ``stratagem/<Game>-v0`` for every registered game (idempotent).

    The ids of games with a batched version also name
    :class:`~stratagem.wrappers.batched_vector.BatchedVectorEnv` as their
    ``vector_entry_point``, so ``gym.make_vec(id, num_envs)`` (no vectorization mode) builds one
    batch of games on torch tensors; ``vectorization_mode="sync"`` or ``"async"`` still gives
    Gymnasium's vector envs over :class:`SingleAgentEnv`.
    """
    batched = _batched_games()
    for name in list_games():
        env_id = game_entry(name).env_id
        if env_id not in gym.registry:
            gym.register(
                id=env_id,
                entry_point="stratagem.wrappers.gym_env:SingleAgentEnv",
                vector_entry_point=(
                    "stratagem.wrappers.batched_vector:BatchedVectorEnv"
                    if name in batched
                    else None
                ),
                kwargs={"game": name},
                disable_env_checker=False,
            )


def _batched_games() -> set[str]:
    """Games with a batched version that can be built here (none without torch).

    Read from the registry (``GameEntry.batched``), which imports nothing: registering the ids
    must not import torch.
    """
    if importlib.util.find_spec("torch") is None:
        return set()
    return set(batched_game_names())
