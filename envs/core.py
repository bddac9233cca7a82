"""The forward-model contract every stratagem game implements.

A game is split the way OpenSpiel splits it: an immutable :class:`Game` holds the configuration
and the facts (:class:`GameSpec`), and a mutable, cheaply clonable :class:`State` is the forward
model that planners copy and advance. Environments, agents and training code only ever talk to
these two classes, which is what lets every planner and trainer work on every game.

The saved-state (JSON) machinery (parsing untrusted text, field checks, generator state) is in
:mod:`stratagem.envs.state_json`; its public names are re-exported here. This module imports
nothing from gymnasium, pettingzoo or torch: rules cores stay pure.
"""

from __future__ import annotations

import importlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

import numpy as np

# The saved-state (JSON) machinery lives in its own module; its public names are re-exported
# here so that ``from stratagem.envs.core import ...`` keeps working for every one of them.
from stratagem.envs.state_json import (
    MAX_JSON_DEPTH,  # noqa: F401 (re-exported)
    InvalidStateError,
    _brief,
    _jsonable,
    clone_rng,  # noqa: F401 (re-exported)
    expect_bool,
    expect_int,
    expect_int_list,
    expect_list,
    load_state_json,
    refuse_file_option,
    rng_from_state,  # noqa: F401 (re-exported)
    rng_state,  # noqa: F401 (re-exported)
    untrusted_config,
)

__all__ = [
    "ActionGroups",
    "ActionKinds",
    "ActionTypeError",
    "ActionUnits",
    "Game",
    "GameSpec",
    "IllegalActionError",
    "InvalidStateError",
    "RandomSource",
    "SpatialActionLayout",
    "State",
    "TwoPlayerState",
    "UnitTypeNames",
    "UnitViews",
    "action_in_space",
    "as_action_index",
    "check_seed",
    "expect_bool",
    "expect_int",
    "expect_int_list",
    "expect_list",
    "load_state_json",
    "optional_hook",
    "refuse_file_option",
    "untrusted_config",
]


#: What :meth:`State.sample_legal_action` draws from: Python's ``random.Random`` (what the
#: planners use inside search, because it draws single numbers about ten times faster) or a
#: ``numpy.random.Generator`` (what an agent's ``act`` is handed). Both have ``random()``, a float
#: in ``[0, 1)``.
RandomSource = random.Random | np.random.Generator


class IllegalActionError(ValueError):
    """Raised by :meth:`State.apply` for an action that is not legal in the state.

    The state is left exactly as it was, so a caller may catch the error and continue.
    """


class ActionTypeError(IllegalActionError, TypeError):
    """Raised for an action that is not an integer index (a bool, float, string, ``None``, ...).

    Actions are indices of a ``Discrete`` space, so only Python and numpy integers (and 0-d
    integer arrays, which Gymnasium's ``Discrete.contains`` accepts) are actions; converting
    anything else with ``int()`` would silently play another action (``3.7`` plays 3, ``True``
    plays 1, ``"408"`` plays 408). It is a ``TypeError`` (the wrong type) and an
    :class:`IllegalActionError`, so code catching either sees it.
    """


def as_action_index(action: Any, where: str) -> int:
    """``action`` as a Python ``int`` if it is an integer, else :class:`ActionTypeError`.

    Accepts ``int`` and numpy integer scalars and 0-d integer arrays; rejects ``bool`` (an
    ``int`` subclass in Python, but never meant as an index), floats, strings, bytes,
    ``Decimal``, ``None`` and arrays of other shapes. The range is not checked here: what an
    out-of-range index means is the caller's rule.

    Args:
        action: The value given as an action.
        where: Prefix of the error message (the game or environment name).
    """
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        return int(action)
    raise ActionTypeError(
        f"{where}: an action must be an integer index (int or numpy integer), got "
        f"{action!r} of type {type(action).__name__}"
    )


def action_in_space(action: Any, size: int, where: str) -> int:
    """``action`` as an index of ``Discrete(size)``, else an error naming what is wrong.

    An index outside the space is a bug of the caller (a policy head of the wrong size, an
    action meant for another game), not a move of the game, so the environments raise for it
    whatever they do with an illegal move: PettingZoo's ``env()`` and the Gymnasium view with
    ``illegal_action="lose"`` end the game only for an in-space action that is not legal.

    Args:
        action: The value given as an action.
        size: The number of actions of the space.
        where: Prefix of the error message (the game or environment name).

    Raises:
        ActionTypeError: If ``action`` is not an integer (see :func:`as_action_index`).
        IllegalActionError: If it is outside ``0..size - 1``.
    """
    index = as_action_index(action, where)
    if not 0 <= index < size:
        raise IllegalActionError(
            f"{where}: action {index} is outside the action space Discrete({size}) (0..{size - 1})"
        )
    return index


def check_seed(seed: object, where: str) -> int | None:
    """``seed`` if it can seed a game: ``None`` (fresh entropy) or an integer >= 0.

    numpy's generators take no other, and a game whose start does not depend on the seed must
    refuse the same seeds as one whose start does, so every ``new_initial_state`` checks it.

    Args:
        seed: The seed given.
        where: The game's name, for the message.

    Raises:
        TypeError: If ``seed`` is not ``None`` or an integer (``bool`` is refused).
        ValueError: If it is negative.
    """
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise TypeError(f"{where}: seed must be an integer >= 0 or None, got {seed!r}")
    if seed < 0:
        raise ValueError(f"{where}: seed must be >= 0, got {seed}")
    return int(seed)


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

        The JSON is treated as untrusted input: every field is checked for its type, its range
        and its agreement with the rest of the state, and the rebuilt state must write back
        exactly the JSON it was read from (so nothing is ignored, coerced or repaired). A state
        that passes plays on like the one that was saved. Nothing is opened or imported on the
        JSON's say: the game (and its map) is this one.

        Raises:
            InvalidStateError: If the text is not JSON, is another game's or another
                configuration's state, or a field is malformed (the message names it).
        """
        name = self.spec.name
        data = load_state_json(text, name)
        if data.get("game") != name:
            raise InvalidStateError(
                f"state JSON is for game {_brief(data.get('game'))}, not {name!r}"
            )
        if type(data.get("version")) is not int or data.get("version") != self.spec.version:
            raise InvalidStateError(
                f"{name}: state JSON has rules version {_brief(data.get('version'))}, "
                f"this game is version {self.spec.version}"
            )
        config = _jsonable(dict(self.spec.config))
        if json.dumps(data.get("config"), sort_keys=True) != json.dumps(config, sort_keys=True):
            raise InvalidStateError(
                f"{name}: state JSON was written with configuration "
                f"{_brief(data.get('config'), 200)}, this game has {dict(self.spec.config)!r}"
            )
        fields = data.get("state")
        if not isinstance(fields, dict):
            raise InvalidStateError(f"{name}: state JSON lacks a 'state' object")
        extra = sorted(set(data) - {"game", "version", "config", "state"})
        if extra:
            raise InvalidStateError(f"{name}: state JSON has unknown key(s) {', '.join(extra)}")
        try:
            state = self._state_from_dict(fields)
            _check_restored(state, fields)
        except InvalidStateError:
            raise
        except KeyError as exc:
            raise InvalidStateError(
                f"{name}: malformed state JSON: missing field or unknown id {exc.args[0]!r}"
            ) from exc
        except (
            TypeError,
            ValueError,
            IndexError,
            AttributeError,
            OverflowError,
            ZeroDivisionError,
            RecursionError,
        ) as exc:
            raise InvalidStateError(f"{name}: malformed state JSON: {exc!r}") from exc
        return state

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

    def sample_legal_action(self, rng: RandomSource) -> int:
        """One legal action drawn uniformly at random: the step of random agents and rollouts.

        A random playout only needs one action per state, and listing them all is most of what
        a random step costs, so a game may override this to draw without building the list (by
        rejection from a cheap superset of candidate actions, for instance); an override must
        keep this distribution exactly, every legal action with probability ``1 / n``. This
        default is a uniform pick from the list, with the draw each generator already made
        before this method existed, so that games without an override play the same moves for
        the same seeds: ``rng.integers`` over :meth:`legal_actions` for a numpy generator (the
        random agent's pick), ``int(rng.random() * n)`` over :meth:`legal_action_list` for a
        ``random.Random`` (the planners' pick).

        Args:
            rng: The random source (see :data:`RandomSource`); only this call advances it.

        Raises:
            ValueError: At a terminal state, where no action is legal.
        """
        if isinstance(rng, np.random.Generator):
            actions = self.legal_actions()
            if not len(actions):
                raise self._nothing_to_sample()
            return int(actions[rng.integers(len(actions))])
        legal = self.legal_action_list()
        if not legal:
            raise self._nothing_to_sample()
        return int(legal[int(rng.random() * len(legal))])

    def _nothing_to_sample(self) -> ValueError:
        """The error of :meth:`sample_legal_action` where no action is legal."""
        return ValueError(f"{self.game.spec.name}: no legal action to sample: the game is over")

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

        Raises:
            ValueError: If ``player`` is not a seat of this game.
        """
        seats = self.game.spec.num_players
        if isinstance(player, bool) or not isinstance(player, int | np.integer):
            raise ValueError(f"{self.game.spec.name}: player must be a seat, got {player!r}")
        if not 0 <= player < seats:
            raise ValueError(
                f"{self.game.spec.name}: player must be 0..{seats - 1}, got {player!r}"
            )
        return self.clone()

    def round_number(self) -> int | None:
        """The game's round counter where it has one (``None`` otherwise).

        Trainers cut long self-play games by rounds rather than by decisions: the round is what
        the observation shows (its progress plane), the number of decisions is not.
        """
        return None

    def rounds_played(self) -> int | None:
        """Rounds played so far in the terms of the ``max_rounds`` option (``None`` without).

        The round in progress counts, so a display reads ``round 1/N`` from the first move, and
        a game drawn at the round limit reports exactly ``max_rounds``. Games count rounds
        internally the way their reference implementations do (Stratega's tick starts at 1 and
        reaches ``max_rounds + 1``, other games count player-turns from 0), so status lines and
        end-of-game statistics read this instead of the internal counter.
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
        """Validate that ``action`` is an integer index of the action space and return it.

        Raises:
            ActionTypeError: If ``action`` is not an integer (see :func:`as_action_index`).
            IllegalActionError: If it is outside ``0..action_size - 1``.
        """
        return action_in_space(action, self.game.spec.action_size, self.game.spec.name)


# ----------------------------------------------------------------------------- optional hooks
# What a State may offer beyond the contract above so that planners can use the game's structure.
# None is required: a planner that needs one names the game when it is missing, and a game
# without it plays every other agent as before. Each is a Protocol of its own because games
# implement different subsets (Tribes has kinds and groups, the Stratega games units).


@runtime_checkable
class ActionKinds(Protocol):
    """A state that names the kind of each action (``"move"``, ``"disband"``, ...).

    Planners exclude action kinds (the Tribes paper never plays Disband or Destroy); without
    this hook the kind is the first word of ``game.action_to_string(action)``, which costs a
    string per action and is wrong for games whose names do not start with the kind.
    """

    def action_kind(self, action: int) -> str:
        """Kind of ``action`` here (the names ``exclude_kinds`` lists)."""
        ...


@runtime_checkable
class ActionGroups(Protocol):
    """A state that sorts its actions into groups (Tribes: per unit, city and the tribe).

    Root prioritisation (the Tribes paper) draws one group uniformly at random per decision and
    searches only its actions, so that a unit with many moves does not crowd out the rest.
    """

    def action_group(self, action: int) -> Hashable:
        """Group of ``action``; groups compare by ``repr`` for a reproducible order."""
        ...


@runtime_checkable
class ActionUnits(Protocol):
    """A state whose actions belong to units (the Stratega games, CotG combat).

    MCTS with unit ordering (MCTS_u and the SCSA planners) gives each tree level to one unit,
    so it must know which unit an action moves; without this hook it refuses the game.
    """

    def action_unit(self, action: int) -> Hashable | None:
        """Id of the unit that performs ``action`` (``None`` for actions of no unit)."""
        ...


@runtime_checkable
class UnitViews(Protocol):
    """A state that shows one unit by id (a snapshot with ``type``, ``x`` and ``y``).

    The SCSA planners compare where an action left the acting unit (its type and tile) to
    decide whether two tree nodes may share statistics; without it the unit id stands in.
    """

    def unit(self, uid: Any) -> Any:
        """Snapshot of unit ``uid`` (a removed unit has ``x < 0``)."""
        ...


@runtime_checkable
class UnitTypeNames(Protocol):
    """A state that names a unit's type (``"city"``, ``"king"``, ...).

    The SCSA planners never group the nodes of some unit types (``skip_units``: Two Kingdoms'
    Cities and Barracks, as the reference code); without this hook no node is skipped.
    """

    def unit_type_name(self, uid: Any) -> str:
        """Type name of unit ``uid``."""
        ...


_Hook = TypeVar("_Hook", bound=Callable[..., Any])


def optional_hook(obj: object, member: _Hook) -> _Hook | None:
    """``obj``'s implementation of an optional hook, bound, or ``None`` when it has none.

    ``member`` is the hook as a Protocol declares it (``optional_hook(state,
    ActionUnits.action_unit)``), so the name is checked when this module loads rather than
    spelled as a string at every call site. Planners look a hook up once per decision and call
    the bound method in their inner loops. The lookup is ``getattr`` and not ``isinstance``
    against the Protocol: since Python 3.12 ``isinstance`` reads attributes statically, so a
    state wrapper that forwards through ``__getattr__`` (a call counter, a recorder) would lose
    its hooks on some Python versions and not others.
    """
    return getattr(obj, member.__name__, None)


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


def _check_restored(state: State, fields: Mapping[str, Any]) -> None:
    """The checks every game's rebuilt state passes: seat, result, a move, exact round trip.

    ``current_player`` (and a two-player ``winner``) must be a real ``int`` (a ``0.0`` or
    ``true`` read from JSON would index lists and compare equal, then fail far away); a game
    that is not over must offer its player a legal action; and the state must write back
    exactly the fields it was read from: an unknown field, a missing one or a value the game
    would store differently (``1.0`` for ``1``) is refused here, naming the field.
    """
    name = state.game.spec.name
    player = state.current_player
    if type(player) is not int or not 0 <= player < state.game.spec.num_players:
        raise InvalidStateError(
            f"{name}: state field current_player must be a seat 0.."
            f"{state.game.spec.num_players - 1}, got {_brief(player)}"
        )
    if isinstance(state, TwoPlayerState):
        winner = state.winner
        if winner is not None and (type(winner) is not int or winner not in (-1, 0, 1)):
            raise InvalidStateError(
                f"{name}: state field winner must be null, -1, 0 or 1, got {_brief(winner)}"
            )
    if not state.is_terminal() and not state.legal_action_list():
        raise InvalidStateError(
            f"{name}: the state is not over but its player has no legal action (a finished "
            "game's result was removed, or fields disagree)"
        )
    written = state._to_dict()
    unknown = sorted(set(fields) - set(written))
    if unknown:
        raise InvalidStateError(f"{name}: state JSON has unknown field(s) {', '.join(unknown)}")
    missing = sorted(set(written) - set(fields))
    if missing:
        raise InvalidStateError(f"{name}: state JSON lacks field(s) {', '.join(missing)}")
    for key in written:
        if json.dumps(written[key], sort_keys=True) != json.dumps(fields[key], sort_keys=True):
            raise InvalidStateError(
                f"{name}: state field {key} does not describe a state of this game "
                f"(read {_brief(fields[key])}, which the game would write as "
                f"{_brief(written[key])})"
            )
