"""Drawing shared by the Stratega grid games (Kill The King, Push Them All, Two Kingdoms).

The three games draw their square-tile boards the same way; each game's ``render`` module keeps
only what is its own (unit symbols and shapes, the per-player lines, bars):

* text: the board in the reference's layout syntax under a column header, then a status line;
* picture: ``cell × cell`` pixels a tile, terrain coloured by tile id with faint grid lines, and
  each unit an owner-coloured shape, optionally with a bar along the bottom edge.

Like the game renderers, these functions only read the state through its public queries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol

import numpy as np

from stratagem.envs.stratega_maps import Board

__all__ = [
    "PLAYER_RGB",
    "TILE_RGB",
    "StrategaView",
    "UnitShapes",
    "board_image",
    "board_lines",
    "draw_unit",
    "status_line",
    "unit_shapes",
]

#: Colour of each player's units.
PLAYER_RGB = np.array([[220, 40, 40], [40, 80, 230]], dtype=np.uint8)
#: Colour of the common tiles by id: Plain, Water, Mountain, Forest.
TILE_RGB = np.array(
    [[200, 190, 140], [60, 110, 200], [110, 100, 95], [60, 140, 70]], dtype=np.uint8
)


class StrategaView(Protocol):
    """What the shared drawing reads from a Stratega game's state."""

    tick: int
    winner: int | None
    current_player: int

    @property
    def game(self) -> Any:
        """The game (its ``round_limit`` is read)."""

    @property
    def width(self) -> int:
        """Board width."""

    @property
    def height(self) -> int:
        """Board height."""

    @property
    def board(self) -> Board:
        """The board played on."""

    def units(self, player: int | None = None) -> Sequence[Any]:
        """Living units, each with ``type``, ``owner``, ``x`` and ``y``."""


def board_lines(
    state: StrategaView, tile_symbols: Mapping[str, tuple[int, bool]], unit_chars: Sequence[str]
) -> list[str]:
    """Column header, then one line a row: tile symbols, or a unit's symbol and owner digit.

    Args:
        state: The position.
        tile_symbols: The game's ``maps.TILE_SYMBOLS`` (symbol -> (tile id, walkable)).
        unit_chars: Symbol of each unit type; a neutral unit (owner < 0) shows no digit.
    """
    tile_char = {tid: sym for sym, (tid, _) in tile_symbols.items()}
    w, h = state.width, state.height
    grid = [[tile_char[state.board.terrain[y * w + x]] + " " for x in range(w)] for y in range(h)]
    for u in state.units():
        grid[u.y][u.x] = unit_chars[u.type] + (" " if u.owner < 0 else str(u.owner))
    header = "    " + " ".join(f"{x:>2}" for x in range(w))
    return [header] + [f"{y:>3} " + " ".join(row) for y, row in enumerate(grid)]


def status_line(state: StrategaView, win_reason: str) -> str:
    """Round and player to move, or how the game ended (``win_reason`` says why a player won)."""
    if state.winner is None:
        return f"round {state.tick}/{state.game.round_limit}, player {state.current_player} to move"
    if state.winner < 0:
        return f"round {state.tick}: draw (round limit)"
    return f"round {state.tick}: player {state.winner} wins ({win_reason})"


def board_image(state: StrategaView, tile_rgb: np.ndarray, cell: int) -> np.ndarray:
    """``(H·cell) × (W·cell) × 3`` uint8 picture of the terrain, with faint grid lines.

    Raises:
        ValueError: If ``cell`` is under 6 pixels.
    """
    if cell < 6:
        raise ValueError(f"cell size must be at least 6 pixels, got {cell}")
    w, h = state.width, state.height
    terrain = np.asarray(state.board.terrain).reshape(h, w)
    img = np.repeat(np.repeat(tile_rgb[terrain], cell, axis=0), cell, axis=1)
    img[::cell, :, :] = img[::cell, :, :] * 0.85
    img[:, ::cell, :] = img[:, ::cell, :] * 0.85
    return img


class UnitShapes(NamedTuple):
    """Boolean ``cell × cell`` masks of the unit shapes.

    Attributes:
        square: A full square inside a margin of ``cell // 6``.
        notched: The square with a notch cut from the middle of its top edge.
        diamond: A diamond touching the margin.
        cross: A plus sign inside the square.
        frame: The square's outline (its inside cut out).
    """

    square: np.ndarray
    notched: np.ndarray
    diamond: np.ndarray
    cross: np.ndarray
    frame: np.ndarray


def unit_shapes(cell: int) -> UnitShapes:
    """The shape masks for ``cell``-pixel tiles."""
    yy, xx = np.mgrid[0:cell, 0:cell]
    c = (cell - 1) / 2.0
    m = cell // 6
    square = (xx >= m) & (xx < cell - m) & (yy >= m) & (yy < cell - m)
    inner = (
        (xx >= 2 * m + 1) & (xx < cell - 2 * m - 1) & (yy >= 2 * m + 1) & (yy < cell - 2 * m - 1)
    )
    return UnitShapes(
        square=square,
        notched=square & ~((abs(xx - c) < cell / 6) & (yy < cell / 2)),
        diamond=abs(xx - c) + abs(yy - c) <= c - m / 2,
        cross=((abs(xx - c) < cell / 6) | (abs(yy - c) < cell / 6)) & square,
        frame=square & ~inner,
    )


def draw_unit(
    img: np.ndarray,
    cell: int,
    x: int,
    y: int,
    shape: np.ndarray,
    colour: Any,
    bar: float | None = None,
    bar_colour: tuple[int, int, int] = (40, 220, 40),
) -> None:
    """Paint ``shape`` in ``colour`` on tile ``(x, y)``.

    With ``bar`` (0..1), a two-pixel bar along the tile's bottom edge is that full (at least one
    pixel), in ``bar_colour`` on dark grey.
    """
    tile = img[y * cell : (y + 1) * cell, x * cell : (x + 1) * cell]
    tile[shape] = colour
    if bar is not None:
        length = max(1, round(bar * cell))
        tile[cell - 2 :, :, :] = (30, 30, 30)
        tile[cell - 2 :, :length, :] = bar_colour
