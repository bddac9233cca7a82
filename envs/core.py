"""The forward-model contract every stratagem game implements.

A game is split the way OpenSpiel splits it: an immutable :class:`Game` holds the configuration
and the facts (:class:`GameSpec`), and a mutable, cheaply clonable :class:`State` is the forward
model that planners copy and advance. Environments, agents and training code only ever talk to
these two classes, which is what lets every planner and trainer work on every game.

This module imports nothing from gymnasium, pettingzoo or torch: rules cores stay pure.
"""

from __future__ import annotations

import importlib
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

__all__ = [
    "Game",
    "GameSpec",
    "IllegalActionError",
    "InvalidStateError",
    "SpatialActionLayout",
    "State",
    "TwoPlayerState",
]


class IllegalActionError(ValueError):
    """Raised by :meth:`State.apply` for an action that is not legal in the state.

    The state is left exactly as it was, so a caller may catch the error and continue.
    """


class InvalidStateError(ValueError):
    """Raised when a serialized state (JSON) is malformed or belongs to another game."""


@dataclass(frozen=True)
class SpatialActionLayout:
    """The AlphaZero-style flat layout ``plane × H × W`` followed by global actions.

    Index ``plane * H * W + y * W + x`` is the action of kind ``planes[plane]`` whose source is
    tile ``(x, y)``; indices from ``len(planes) * H * W`` on are the ``global_actions`` in order.
    A policy head can therefore reshape the first ``len(planes) * H * W`` logits to
    ``(planes, H, W)``.

    Attributes:
        height: Board height ``H``.
        width: Board width ``W``.
        planes: Name of each action plane, in order.
        global_actions: Names of the non-spatial actions appended after the planes.
    """

    height: int
    width: int
    planes: tuple[str, ...]
    global_actions: tuple[str, ...] = ()

    @property
    def num_spatial(self) -> int:
        """Number of spatial actions (``len(planes) * H * W``)."""
        return len(self.planes) * self.height * self.width

    @property
    def size(self) -> int:
        """Total number of actions."""
        return self.num_spatial + len(self.global_actions)

    def encode(self, plane: int, x: int, y: int) -> int:
        """Index of the action of plane ``plane`` at tile ``(x, y)``."""
        if not (0 <= plane < len(self.planes) and 0 <= x < self.width and 0 <= y < self.height):
            raise ValueError(
                f"spatial action out of range: plane={plane}, x={x}, y={y} for a "
                f"{len(self.planes)}x{self.height}x{self.width} layout"
            )
        return (plane * self.height + y) * self.width + x

    def encode_global(self, index: int) -> int:
        """Index of the ``index``-th global action."""
        if not 0 <= index < len(self.global_actions):
            raise ValueError(f"global action {index} out of range 0..{len(self.global_actions)}")
        return self.num_spatial + index

    def decode(self, action: int) -> tuple[int, int, int] | tuple[None, int, None]:
        """Split an index into ``(plane, x, y)``, or ``(None, global_index, None)``."""
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} out of range 0..{self.size - 1}")
        if action >= self.num_spatial:
            return None, action - self.num_spatial, None
        plane, rest = divmod(action, self.height * self.width)
        y, x = divmod(rest, self.width)
        return plane, x, y


@dataclass(frozen=True)
class GameSpec:
    """Facts about one configured game, enough to build networks and environments.

    Attributes:
        name: Registry name (``"kill_the_king"``).
        version: Rules version; bumped whenever a rule change alters play.
        num_players: Number of seats.
        action_size: Size of the flat ``Discrete`` action space.
        observation_shape: Shape ``(H, W, C)`` of :meth:`State.observation`.
        max_game_length: Upper bound on the number of decisions (``apply`` calls) in a game.
        reward_range: Smallest and largest value in :meth:`State.returns`.
        deterministic: True when the rules use no chance after the initial state.
        perfect_information: True when :meth:`State.observed_by` hides nothing.
        zero_sum: True when the returns of a finished game sum to zero.
        action_layout: The spatial layout of the action space, when the game has one.
        observation_planes: Name of each observation channel, in order.
        observation_bounds: Smallest and largest value any observation entry takes.
        config: The configuration keywords the game was built with.
    """

    name: str
    version: int
    num_players: int
    action_size: int
    observation_shape: tuple[int, ...]
    max_game_length: int
    reward_range: tuple[float, float] = (-1.0, 1.0)
    deterministic: bool = True
    perfect_information: bool = True
    zero_sum: bool = True
    action_layout: SpatialActionLayout | None = None
    observation_planes: tuple[str, ...] = ()
    observation_bounds: tuple[float, float] = (0.0, 1.0)
    config: Mapping[str, Any] = field(default_factory=dict)


class Game(ABC):
    """Immutable configuration of a game: its spec and a factory of initial states.

    Subclasses set :attr:`spec` in ``__init__`` and implement the abstract methods. A game object
    is shared by every state created from it, so it must never be mutated after construction.
    """

    spec: GameSpec

    @abstractmethod
    def new_initial_state(self, seed: int | None = None) -> State:
        """Return the initial state; ``seed`` drives every random choice of the game."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """Readable name of ``action``; :meth:`string_to_action` is its exact inverse."""

    @abstractmethod
    def string_to_action(self, text: str) -> int:
        """Parse a name written by :meth:`action_to_string`.

        Raises:
            ValueError: If ``text`` names no action of this game.
        """

    @abstractmethod
    def _state_from_dict(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from the ``"state"`` part written by :meth:`State._to_dict`."""

    def state_from_json(self, text: str) -> State:
        """Rebuild a state written by :meth:`State.to_json` for this same configuration.

        Raises:
            InvalidStateError: If the text is not JSON, is another game's or another
                configuration's state, or its fields are malformed.
        """
        try:
            data = json.loads(text)
        except (TypeError, json.JSONDecodeError) as exc:
            raise InvalidStateError(f"{self.spec.name}: state is not valid JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise InvalidStateError(f"{self.spec.name}: state JSON must be an object")
        if data.get("game") != self.spec.name:
            raise InvalidStateError(
                f"state JSON is for game {data.get('game')!r}, not {self.spec.name!r}"
            )
        if data.get("version") != self.spec.version:
            raise InvalidStateError(
                f"{self.spec.name}: state JSON has rules version {data.get('version')!r}, "
                f"this game is version {self.spec.version}"
            )
        if data.get("config") != _jsonable(dict(self.spec.config)):
            raise InvalidStateError(
                f"{self.spec.name}: state JSON was written with configuration "
                f"{data.get('config')!r}, this game has {dict(self.spec.config)!r}"
            )
        state = data.get("state")
        if not isinstance(state, dict):
            raise InvalidStateError(f"{self.spec.name}: state JSON lacks a 'state' object")
        try:
            return self._state_from_dict(state)
        except InvalidStateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise InvalidStateError(f"{self.spec.name}: malformed state JSON: {exc!r}") from exc

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self.spec.config.items())
        return f"{type(self).__name__}({options})"


class State(ABC):
    """A mutable game position: the forward model that planners clone and advance.

    Attributes:
        game: The :class:`Game` this state belongs to (shared, never copied).
        current_player: The seat that takes the next decision; the same player may decide many
            times in a row (multi-action turns). Meaningless once :meth:`is_terminal`.
    """

    game: Game
    current_player: int

    #: Dotted name of the module whose ``render_text(state)`` and ``render_rgb(state)`` draw this
    #: game (``__str__`` and :meth:`render_rgb` call them); imported on first use, so the rules
    #: never load drawing code. ``None`` for a game without renderers.
    render_module: ClassVar[str | None] = None

    # A game implements at least one of legal_action_list() and legal_action_mask(); the other
    # two methods are derived from it here, once for every game.
    def legal_action_list(self) -> list[int]:
        """Legal actions as a Python list, in any order: the planners' fast path."""
        return np.flatnonzero(self.legal_action_mask()).tolist()

    def legal_action_mask(self) -> np.ndarray:
        """Boolean mask over the action space; all False at a terminal state."""
        mask = np.zeros(self.game.spec.action_size, dtype=bool)
        mask[self.legal_action_list()] = True
        return mask

    def legal_actions(self) -> np.ndarray:
        """Indices of the legal actions, ascending."""
        return np.asarray(sorted(self.legal_action_list()), dtype=np.int64)

    @abstractmethod
    def apply(self, action: int) -> None:
        """Advance the state in place by one decision of :attr:`current_player`.

        Raises:
            IllegalActionError: If ``action`` is not legal here; the state is left unchanged.
        """

    @abstractmethod
    def clone(self) -> State:
        """Independent copy, random generator included: playing on it never changes ``self``."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the game is over."""

    @abstractmethod
    def returns(self) -> np.ndarray:
        """Final outcome per player (float array); all zeros before the end."""

    @abstractmethod
    def observation(self, player: int) -> np.ndarray:
        """Float32 ``H × W × C`` tensor of what ``player`` may see, relative to ``player``."""

    def observed_by(self, player: int) -> State:
        """Copy in which what ``player`` cannot see is hidden; a plain clone by default.

        Games with hidden information override this; agents are always handed this view.
        """
        return self.clone()

    def round_number(self) -> int | None:
        """The game's round counter where it has one (``None`` otherwise).

        Trainers cut long self-play games by rounds rather than by decisions: the round is what
        the observation shows (its progress plane), the number of decisions is not.
        """
        return None

    def end_statistics(self) -> dict[str, Any]:
        """Figures of a finished game for tournament tables; none by default.

        Tournaments average them per agent, so the form is fixed: a float for a fact of the
        game (rounds played), or a list of one float per seat for a fact of each player (units
        left), which the tournament credits to the agent that sat there.
        """
        return {}

    def render_rgb(self) -> np.ndarray:
        """``H × W × 3`` uint8 picture of the position (``rgb_array`` render mode)."""
        if self.render_module is None:
            raise NotImplementedError(f"{self.game.spec.name} has no picture renderer")
        return importlib.import_module(self.render_module).render_rgb(self)

    def __str__(self) -> str:
        """The position as text (``ansi`` render mode); the default ``repr`` without a renderer."""
        if self.render_module is None:
            return super().__str__()
        return importlib.import_module(self.render_module).render_text(self)

    @abstractmethod
    def _to_dict(self) -> dict[str, Any]:
        """JSON-serializable contents of the state (the game writes the envelope)."""

    def to_json(self) -> str:
        """Serialize the state with its game name, rules version and configuration."""
        spec = self.game.spec
        return json.dumps(
            {
                "game": spec.name,
                "version": spec.version,
                "config": _jsonable(dict(spec.config)),
                "state": self._to_dict(),
            },
            separators=(",", ":"),
        )

    def __eq__(self, other: object) -> bool:
        """Same game, same configuration and same serialized contents."""
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, State)
        return (
            self.game.spec.name == other.game.spec.name
            and self.game.spec.config == other.game.spec.config
            and self._to_dict() == other._to_dict()
        )

    __hash__ = None  # type: ignore[assignment]  (states are mutable)

    def action_to_string(self, action: int) -> str:
        """Readable name of ``action`` (delegates to the game)."""
        return self.game.action_to_string(action)

    def illegal(self, action: Any, reason: str) -> IllegalActionError:
        """Build the error for an illegal ``action``, naming the action, player and round."""
        try:
            name = self.game.action_to_string(int(action))
        except (ValueError, TypeError, OverflowError):
            name = repr(action)
        return IllegalActionError(
            f"{self.game.spec.name}: illegal action {action!r} ({name}) for player "
            f"{self.current_player}: {reason}"
        )

    def check_action_index(self, action: Any) -> int:
        """Validate that ``action`` is an integer index of the action space and return it."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(
                f"{self.game.spec.name}: action must be an integer index, got {action!r}"
            )
        action = int(action)
        if not 0 <= action < self.game.spec.action_size:
            raise IllegalActionError(
                f"{self.game.spec.name}: action {action} is outside the action space "
                f"0..{self.game.spec.action_size - 1}"
            )
        return action


class TwoPlayerState(State):
    """A two-player zero-sum position whose outcome is its :attr:`winner`.

    Attributes:
        winner: ``None`` while playing, ``-1`` for a draw, else the winning player (0 or 1).
    """

    winner: int | None

    def is_terminal(self) -> bool:
        """True once the game is won or drawn (:attr:`winner` is set)."""
        return self.winner is not None

    def returns(self) -> np.ndarray:
        """+1 for the winner, -1 for the loser, 0 each for a draw or an unfinished game."""
        out = np.zeros(2, dtype=np.float64)
        if self.winner is not None and self.winner >= 0:
            out[self.winner] = 1.0
            out[1 - self.winner] = -1.0
        return out


def rng_state(rng: np.random.Generator | None) -> dict[str, Any] | None:
    """JSON-serializable state of a generator (``None`` passes through)."""
    return None if rng is None else rng.bit_generator.state


def rng_from_state(data: Mapping[str, Any] | None) -> np.random.Generator | None:
    """Rebuild a generator written by :func:`rng_state`."""
    if data is None:
        return None
    name = data.get("bit_generator")
    bit_gen_cls = getattr(np.random, str(name), None)
    if bit_gen_cls is None:
        raise InvalidStateError(f"unknown bit generator {name!r} in state JSON")
    bit_gen = bit_gen_cls()
    bit_gen.state = dict(data)
    return np.random.Generator(bit_gen)


def clone_rng(rng: np.random.Generator | None) -> np.random.Generator | None:
    """Copy of a generator that continues the same stream independently."""
    if rng is None:
        return None
    bit_gen = type(rng.bit_generator)()
    bit_gen.state = rng.bit_generator.state
    return np.random.Generator(bit_gen)


def _jsonable(value: Any) -> Any:
    """Round-trip ``value`` through JSON so that tuples compare equal to lists."""
    return json.loads(json.dumps(value))
