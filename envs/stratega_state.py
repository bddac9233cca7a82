"""Board queries shared by the states of the Stratega grid games.

Kill The King, Push Them All and Two Kingdoms keep a position the same way: the per-board facts
in ``_s`` (a :class:`BoardFacts`), the occupied cells in ``_occ`` (cell ``y * width + x`` ->
unit id) and the outcome in ``winner``. :class:`StrategaState` answers the queries that only
need those; each game adds its own units, rules and queries.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Generic, TypeVar

import numpy as np

from stratagem.envs.core import TwoPlayerState
from stratagem.envs.stratega_maps import Board

__all__ = ["BoardFacts", "StrategaState"]

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
        terrain_planes: ``H × W × num_tiles`` one-hot float32 terrain.
    """

    __slots__ = ("board", "end_turn", "hw", "terrain_planes", "walkable", "width")

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
        planes = np.zeros((h, w, num_tiles), dtype=np.float32)
        terrain = np.asarray(board.terrain).reshape(h, w)
        for tid in range(num_tiles):
            planes[:, :, tid] = terrain == tid
        self.terrain_planes = planes


class StrategaState(TwoPlayerState, Generic[U]):
    """A two-player Stratega position on a board of square tiles; ``U`` is its unit snapshot."""

    _s: BoardFacts
    _occ: dict[int, int]

    def round_number(self) -> int:
        """Stratega's tick: the round counter, 1 at the start, shown by the observation."""
        return self.tick  # type: ignore[attr-defined]

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
