"""What the Stratega grid games share: board queries, saved-state checks and game basics.

Kill The King, Push Them All and Two Kingdoms keep a position the same way: the per-board facts
in ``_s`` (a :class:`BoardFacts`), the occupied cells in ``_occ`` (cell ``y * width + x`` ->
unit id) and the outcome in ``winner``. :class:`StrategaState` answers the queries that only
need those; each game adds its own units, rules and queries.

They also read and check a saved position the same way (``Game.state_from_dict``): the board
index, the lists of integers, the round counter, the player to move and the recorded winner are
checked here once (:func:`board_index_of`, :func:`int_list_of`, :func:`clock_of`,
:meth:`StrategaState._check_winner`), as is the rule that a side left without its units (or
King) loses (:func:`outcome_of`, run only when a side may have lost). :class:`StrategaGame`
holds the game-level parts that do not depend on the units: EndTurn's index and the board a
seed picks.

The three games also move alike: a unit steps to a free walkable neighbour or waits (Empty),
either spending its single movement point. :meth:`StrategaState.apply` is that part of every
game's forward model (checks, EndTurn, Move, Empty) and hands the game's other action kinds to
its ``_act``. The per-cell tables that a legal-action list walks are built once, by
:meth:`BoardFacts.step_targets`. ``clone`` and the legal-action lists stay in each game, written
out: a shared function called per unit there cost 2-3% of a random game's steps.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np

from stratagem.envs.core import (
    Game,
    InvalidStateError,
    SpatialActionLayout,
    TwoPlayerState,
    check_seed,
)
from stratagem.envs.stratega_maps import Board

__all__ = [
    "BoardFacts",
    "StrategaGame",
    "StrategaState",
    "board_index_of",
    "check_max_rounds",
    "clock_of",
    "int_list_of",
    "outcome_of",
]

#: The game's read-only unit snapshot (its ``UnitView``).
U = TypeVar("U")


class BoardFacts:
    """Per-board facts shared by every state on that board (never mutated).

    Each game's ``_Static`` extends it with its own precomputed tables.

    Args:
        board: The board.
        tile_symbols: The game's ``maps.TILE_SYMBOLS`` (symbol -> (tile id, walkable)).
        num_tiles: Number of tile types (terrain observation planes).
        num_planes: Number of action planes (EndTurn follows them).

    Attributes:
        board: The board.
        width: Board width.
        hw: Number of cells (``width × height``).
        end_turn: Index of EndTurn.
        walkable: Per cell, whether its tile is walkable.
        hole: Per cell, whether a unit that enters it falls in and is removed (Push Them All's
            Holes; no cell in the other games, whose ``_Static`` leaves this all False).
        immobile: Ids of the board's units that never move (Two Kingdoms' Cities; none in the
            other games): :meth:`StrategaState.apply` hands their Move to the game's ``_act``.
        terrain_planes: ``H × W × num_tiles`` one-hot float32 terrain.
    """

    __slots__ = (
        "board",
        "end_turn",
        "hole",
        "hw",
        "immobile",
        "terrain_planes",
        "walkable",
        "width",
    )

    def __init__(
        self,
        board: Board,
        tile_symbols: Mapping[str, tuple[int, bool]],
        num_tiles: int,
        num_planes: int,
    ) -> None:
        self.board = board
        w, h = board.width, board.height
        self.width = w
        self.hw = w * h
        self.end_turn = num_planes * self.hw
        walkable_by_id = dict(tile_symbols.values())
        self.walkable = tuple(walkable_by_id[t] for t in board.terrain)
        self.hole: tuple[bool, ...] = (False,) * self.hw
        self.immobile: frozenset[int] = frozenset()
        planes = np.zeros((h, w, num_tiles), dtype=np.float32)
        terrain = np.asarray(board.terrain).reshape(h, w)
        for tid in range(num_tiles):
            planes[:, :, tid] = terrain == tid
        self.terrain_planes = planes

    def step_targets(
        self, offsets: Sequence[tuple[int, int]], plane0: int, walkable_only: bool = True
    ) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Per cell, the ``(action, target cell)`` of each step of ``offsets`` that stays on board.

        What the legal-action lists walk for moves, spawns, attacks and mines: worked out once
        per board so that a listing only checks occupancy. Action ``i`` of a cell is on plane
        ``plane0 + i`` (``offsets`` in the order of their planes).

        Args:
            offsets: The ``(dx, dy)`` steps, in plane order.
            plane0: The plane of the first step.
            walkable_only: Keep only walkable targets (moves and spawns), else any on board.
        """
        w, h, hw, walkable = self.width, self.board.height, self.hw, self.walkable
        table = []
        for p in range(hw):
            y, x = divmod(p, w)
            row = []
            for i, (dx, dy) in enumerate(offsets):
                nx, ny = x + dx, y + dy
                if 0 <= nx < w and 0 <= ny < h and (walkable[ny * w + nx] or not walkable_only):
                    row.append(((plane0 + i) * hw + p, ny * w + nx))
            table.append(tuple(row))
        return tuple(table)


def check_max_rounds(game: str, max_rounds: object) -> int:
    """``max_rounds`` of a game's options, checked to be an integer of at least 1.

    Raises:
        ValueError: For a boolean, a non-integer or a number below 1.
    """
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1:
        raise ValueError(f"{game}: max_rounds must be an integer >= 1, got {max_rounds!r}")
    return max_rounds


class StrategaGame(Game):
    """What the Stratega games do alike apart from their units: EndTurn and the seeded board.

    Each game sets ``boards`` (its equal-sized boards) and ``layout`` (its action layout, whose
    last index is EndTurn) in its constructor.
    """

    boards: tuple[Board, ...]
    layout: SpatialActionLayout
    #: The round counter's draw value (the counter starts at 1): ``max_rounds + 1``.
    round_limit: int

    @property
    def max_rounds(self) -> int:
        """Rounds played at most, the ``max_rounds`` option (the counter's draw value less 1)."""
        return self.round_limit - 1

    @property
    def end_turn_action(self) -> int:
        """Index of EndTurn."""
        return self.layout.size - 1

    def _board_index(self, seed: int | None) -> int:
        """The board a game from ``seed`` is played on: with several, the seed picks uniformly."""
        seed = check_seed(seed, self.spec.name)  # checked with one board too, as every game
        index = 0
        if len(self.boards) > 1:
            index = int(np.random.default_rng(seed).integers(len(self.boards)))
        return index


def board_index_of(game: str, data: Mapping[str, Any], boards: int) -> int:
    """The saved ``board_index``, checked to name one of the game's ``boards`` boards.

    Raises:
        InvalidStateError: If it is not an integer in ``0..boards - 1``.
    """
    index = data["board_index"]
    if type(index) is not int or not 0 <= index < boards:
        raise InvalidStateError(f"{game}: board_index {index!r} out of range")
    return index


def int_list_of(game: str, data: Mapping[str, Any], key: str, size: int | None) -> list[int]:
    """A copy of the saved list ``data[key]``, checked to hold ``size`` integers (any if None).

    Booleans are refused although Python counts them as integers: JSON ``true`` is no count.

    Raises:
        InvalidStateError: If it is not a list of that many integers.
    """
    values = data[key]
    if (
        not isinstance(values, list)
        or (size is not None and len(values) != size)
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in values)
    ):
        what = f"{size} integers" if size is not None else "integers"
        raise InvalidStateError(f"{game}: '{key}' must be a list of {what}")
    return list(values)


def clock_of(game: str, data: Mapping[str, Any], round_limit: int) -> tuple[int, int, int | None]:
    """The saved ``tick``, ``current_player`` and ``winner``, each checked.

    Args:
        game: The game's name, for the messages.
        data: The saved position.
        round_limit: The game's ``round_limit``: the tick lies in ``1..round_limit``.

    Raises:
        InvalidStateError: For a tick out of range, a player other than 0 or 1, or a winner
            other than null, -1, 0 or 1 (booleans refused).
    """
    tick, player, winner = data["tick"], data["current_player"], data["winner"]
    if type(tick) is not int or not 1 <= tick <= round_limit:
        raise InvalidStateError(f"{game}: tick {tick!r} outside 1..{round_limit}")
    if player not in (0, 1) or isinstance(player, bool):
        raise InvalidStateError(f"{game}: current_player {player!r} is not 0 or 1")
    if winner not in (None, -1, 0, 1) or isinstance(winner, bool):
        raise InvalidStateError(f"{game}: winner {winner!r} is not null, -1, 0 or 1")
    return tick, player, winner


def outcome_of(alive: Sequence[object]) -> int | None:
    """Winner when each side is alive or not: ``None`` both, the survivor, else -1 (a draw)."""
    if alive[0] and alive[1]:
        return None
    if alive[0]:
        return 0
    if alive[1]:
        return 1
    return -1


class StrategaState(TwoPlayerState, Generic[U]):
    """A two-player Stratega position on a board of square tiles; ``U`` is its unit snapshot.

    Each game keeps per unit id its cell in ``_pos`` (-1 once removed), its owner in ``_owner``
    and its movement points in ``_mp``, and sets ``_PLANE_KIND`` (per action plane:
    ``(kind, index, dx, dy)``, kind ``"move"``, ``"empty"`` or one the game's :meth:`_act`
    takes) and ``_NOUN`` (what its messages call a unit).
    """

    _s: BoardFacts
    _occ: dict[int, int]
    _pos: list[int]
    _owner: Sequence[int]
    _mp: list[int]
    _PLANE_KIND: ClassVar[Sequence[tuple[str, int, int, int]]]
    _NOUN: ClassVar[str] = "unit"

    def round_number(self) -> int:
        """Stratega's tick: the round counter, 1 at the start, shown by the observation."""
        return self.tick  # type: ignore[attr-defined]

    def rounds_played(self) -> int:
        """Rounds played so far, the one in progress included: the tick, capped at ``max_rounds``.

        The tick is already 1-based while playing; a drawn game has moved it to the draw value
        ``max_rounds + 1``, one more than the rounds it played.
        """
        return min(self.tick, self.game.max_rounds)  # type: ignore[attr-defined]

    @abstractmethod
    def _outcome(self) -> int | None:
        """Winner implied by the position (``None`` while playing, -1 for a draw)."""

    def _check_winner(self, winner: int | None) -> None:
        """Refuse a loaded position whose recorded ``winner`` is not the one it implies.

        Raises:
            InvalidStateError: If :meth:`_outcome` disagrees with ``winner``.
        """
        expected = self._outcome()
        if expected != winner:
            raise InvalidStateError(
                f"{self.game.spec.name}: winner {winner!r} does not match the position "
                f"(expected {expected!r})"
            )

    @abstractmethod
    def unit(self, uid: int) -> U:
        """Snapshot of unit ``uid`` (the game's ``UnitView``)."""

    @property
    def width(self) -> int:
        """Board width."""
        return self._s.width

    @property
    def height(self) -> int:
        """Board height."""
        return self._s.board.height

    @property
    def board(self) -> Board:
        """The board this game is played on."""
        return self._s.board

    def walkable(self, x: int, y: int) -> bool:
        """True when tile ``(x, y)`` is on the board and walkable (ignoring units)."""
        w = self._s.width
        return 0 <= x < w and 0 <= y < self.height and self._s.walkable[y * w + x]

    def unit_at(self, x: int, y: int) -> U | None:
        """The unit on tile ``(x, y)``, if any."""
        if not (0 <= x < self._s.width and 0 <= y < self.height):
            return None
        u = self._occ.get(y * self._s.width + x)
        return None if u is None else self.unit(u)

    def action_unit(self, action: int) -> int | None:
        """Id of the unit that performs ``action`` here (``None`` for EndTurn or no unit)."""
        if action == self._s.end_turn:
            return None
        return self._occ.get(action % self._s.hw)

    def _target(self, p: int, dx: int, dy: int) -> int:
        """Flat index of ``p + (dx, dy)``, or -1 off the board."""
        s = self._s
        y, x = divmod(p, s.width)
        x, y = x + dx, y + dy
        if 0 <= x < s.width and 0 <= y < s.board.height:
            return y * s.width + x
        return -1

    def apply(self, action: int) -> None:
        """Advance by one decision; illegal actions raise and change nothing.

        The checks every game makes, EndTurn, Move and Empty are here once; any other kind of
        action goes to the game's :meth:`_act`. Move and Empty are written out here, not called,
        because they are most of the steps of every search and rollout; what differs between
        the games on their path is data of the board facts (``hole``, ``immobile``).
        """
        if type(action) is not int:
            action = self.check_action_index(action)
        s = self._s
        if self.winner is not None:
            raise self.illegal(action, "the game is over")
        if action == s.end_turn:
            self._end_turn()
            return
        if not 0 <= action < s.end_turn:
            raise self.illegal(action, f"outside the action space 0..{s.end_turn}")
        plane, p = divmod(action, s.hw)
        u = self._occ.get(p)
        me = self.current_player
        if u is None or self._owner[u] != me:
            y, x = divmod(p, s.width)
            raise self.illegal(action, f"no {self._NOUN} of player {me} at ({x},{y})")
        kind, k, dx, dy = self._PLANE_KIND[plane]
        mp = self._mp
        if kind == "move" and u not in s.immobile:
            if mp[u] < 1:
                raise self.illegal(action, "the unit has no movement point left this round")
            q = self._target(p, dx, dy)
            occ = self._occ
            if q < 0 or not s.walkable[q] or q in occ:
                raise self.illegal(
                    action, "the destination is off the board, not walkable or occupied"
                )
            mp[u] -= 1
            del occ[p]
            if s.hole[q]:
                self._fall(u)
            else:
                occ[q] = u
                self._pos[u] = q
        elif kind == "empty":
            if mp[u] < 1:
                raise self.illegal(
                    action, f"the {self._NOUN} has no movement point left this round"
                )
            mp[u] -= 1
        else:
            self._act(action, kind, u, p, k, dx, dy)

    def _fall(self, u: int) -> None:
        """Remove unit ``u``, which has left its cell for a hole (``BoardFacts.hole``).

        Only a game whose boards have holes (Push Them All) reaches this, and overrides it.
        """
        raise NotImplementedError(f"{type(self).__name__}: no holes in this game")

    @abstractmethod
    def _act(self, action: int, kind: str, u: int, p: int, k: int, dx: int, dy: int) -> None:
        """Play ``action``, of the game's own ``kind``, by unit ``u`` on cell ``p``.

        Args:
            action: The action index (for the messages of illegal actions).
            kind: Its kind (``_PLANE_KIND``): not ``"empty"``, and ``"move"`` only for a unit
                of ``BoardFacts.immobile``.
            u: The acting unit, the current player's.
            p: Its cell.
            k: The plane's index within its kind (push or spawn type; -1 where unused).
            dx: Column offset of the target from ``p``.
            dy: Row offset of the target from ``p``.

        Raises:
            IllegalActionError: If the action is illegal here (nothing changes).
        """

    @abstractmethod
    def _end_turn(self) -> None:
        """Pass the turn (EndTurn): the other player moves; a new round refills."""
