"""Drawing shared by the Stratega grid games (Kill The King, Push Them All, Two Kingdoms).

The three games draw their square-tile boards the same way; each game's ``render`` module keeps
only what is its own (unit symbols and shapes, the per-player lines, bars):

* text: the board in the reference's layout syntax under a column header, then a status line;
* picture (:func:`board_picture`): a header with the round and the player to move, the board
  with column and row numbers (the coordinates of the action names), terrain coloured by tile
  id, each unit an owner-coloured shape with its type's letter and a bar (health, gold) along
  the tile's bottom edge, faded once it has nothing left to do this round; under the board one
  line per player and a legend of every colour and shape.

Like the game renderers, these functions only read the state through its public queries.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from stratagem.envs.stratega_maps import COMMON_TILE_NAMES, Board

__all__ = [
    "PLAYER_NAMES",
    "PLAYER_RGB",
    "TILE_NAMES",
    "TILE_RGB",
    "StrategaView",
    "UnitLook",
    "UnitStyle",
    "board_lines",
    "board_picture",
    "status_line",
]

#: Colour of each player's units.
PLAYER_RGB = np.array([[220, 40, 40], [40, 80, 230]], dtype=np.uint8)
#: Colour of the common tiles by id: Plain, Water, Mountain, Forest.
TILE_RGB = np.array(
    [[205, 195, 145], [125, 185, 230], [105, 95, 90], [60, 140, 70]], dtype=np.uint8
)
#: Names of the common tiles, for the legend.
TILE_NAMES = COMMON_TILE_NAMES
#: Colour names of the players, used in the picture's texts.
PLAYER_NAMES = ("red", "blue")


class StrategaView(Protocol):
    """What the shared drawing reads from a Stratega game's state."""

    winner: int | None
    current_player: int

    @property
    def game(self) -> Any:
        """The game (its ``max_rounds`` is read)."""

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

    def rounds_played(self) -> int:
        """Rounds played so far, the one in progress included."""


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
    """Round and player to move, or how the game ended (``win_reason`` says why a player won).

    Rounds are counted as the ``max_rounds`` option counts them (``round 1/99`` on the first
    move, ``draw after 99 rounds``), not by the internal tick, which ends one past the limit.
    """
    rounds = state.rounds_played()
    if state.winner is None:
        return f"round {rounds}/{state.game.max_rounds}, player {state.current_player} to move"
    if state.winner < 0:
        return f"draw after {rounds} rounds (round limit)"
    return f"round {rounds}: player {state.winner} wins ({win_reason})"


@dataclass(frozen=True)
class UnitStyle:
    """How one unit type is drawn.

    Attributes:
        name: Type name shown in the legend (``"King"``).
        letter: Letter written on the unit (``"K"``).
        shape: Shape name understood by :func:`stratagem.envs.picture.shape_points`.
    """

    name: str
    letter: str
    shape: str


@dataclass(frozen=True)
class UnitLook:
    """How one unit looks now.

    Attributes:
        style: Index of its type's :class:`UnitStyle`.
        colour: Fill colour (the owner's, or a neutral one).
        bar: Fill of the bar along the tile's bottom edge (0..1), or ``None`` for no bar.
        bar_colour: Colour of that bar.
        done: True when the unit has nothing left to do this round (drawn faded).
    """

    style: int
    colour: tuple[int, int, int]
    bar: float | None = None
    bar_colour: tuple[int, int, int] = (50, 200, 60)
    done: bool = False


def _cell_size(width: int) -> int:
    """Tile size in pixels: the board fills about 800 pixels, tiles stay 22..56 pixels."""
    from stratagem.envs.picture import MIN_WIDTH

    return max(22, min(56, math.ceil((MIN_WIDTH - 40) / max(1, width))))


def board_picture(
    state: StrategaView,
    *,
    title: str,
    status: str,
    tile_rgb: np.ndarray,
    tile_names: Sequence[str],
    styles: Sequence[UnitStyle],
    look: Callable[[Any], UnitLook],
    player_lines: Sequence[str],
    legend_extra: Sequence[tuple[Any, str]] = (),
) -> np.ndarray:
    """The picture of a Stratega position (see the module docstring).

    Args:
        state: The position.
        title: Game name for the header.
        status: Where the game stands (round, player to move or result) for the header.
        tile_rgb: Colour of each tile id.
        tile_names: Name of each tile id, for the legend.
        styles: Drawing style of each unit type.
        look: How a unit (an element of ``state.units()``) looks now.
        player_lines: One line of figures per player, shown under the board next to its colour.
        legend_extra: More legend entries (icon, label), after the terrain and unit types.

    Returns:
        An ``H × W × 3`` uint8 array at least 800 pixels wide.
    """
    from stratagem.envs import picture as pic

    w, h = state.width, state.height
    cell = _cell_size(w)
    axis = 22
    board_w, board_h = w * cell, h * cell
    width = max(pic.MIN_WIDTH, board_w + axis + 20)
    left = (width - board_w - axis) // 2 + axis
    top = pic.HEADER_HEIGHT + axis
    legend: list[tuple[Any, str]] = [
        (pic.swatch_icon(pic.rgb(tile_rgb[i])), name) for i, name in enumerate(tile_names)
    ]
    for st in styles:
        legend.append((pic.shape_icon(st.shape, (120, 120, 120), st.letter), st.name))
    for p, name in enumerate(PLAYER_NAMES):
        legend.append((pic.swatch_icon(pic.rgb(PLAYER_RGB[p])), f"player {p} ({name})"))
    legend.append(
        (
            pic.shape_icon(
                "square",
                pic.blend(pic.rgb(PLAYER_RGB[0]), (200, 200, 200), 0.6),
                "",
                outline=(120, 120, 120),
            ),
            "faded: done this round",
        )
    )
    legend.extend(legend_extra)
    probe = pic.Canvas(width, 1)
    wrapped = [
        probe.wrap(f"player {p} ({PLAYER_NAMES[p]}): {line}", width - 50, 14)
        for p, line in enumerate(player_lines)
    ]
    panel_h = 10 + pic.panel_height(wrapped)
    legend_top = top + board_h + 8 + panel_h
    height = probe.legend(legend_top, legend, dry_run=True) + 4
    c = pic.Canvas(width, height)
    c.header(title, status)
    # terrain and grid
    terrain = state.board.terrain
    for y in range(h):
        for x in range(w):
            x0, y0 = left + x * cell, top + y * cell
            c.rect(
                (x0, y0, x0 + cell - 1, y0 + cell - 1),
                fill=pic.rgb(tile_rgb[terrain[y * w + x]]),
                outline=pic.blend(pic.rgb(tile_rgb[terrain[y * w + x]]), (0, 0, 0), 0.18),
            )
    label = 10 if cell < 30 else 12
    for x in range(w):
        c.text(
            (left + x * cell + cell / 2, top - 4), str(x), size=label, fill=pic.MUTED, anchor="md"
        )
    for y in range(h):
        c.text(
            (left - 5, top + y * cell + cell / 2), str(y), size=label, fill=pic.MUTED, anchor="rm"
        )
    # units
    r = cell * 0.4
    for u in state.units():
        lk = look(u)
        st = styles[lk.style]
        cx = left + u.x * cell + cell / 2
        cy = top + u.y * cell + cell / 2 - (cell * 0.07 if lk.bar is not None else 0)
        colour = pic.blend(lk.colour, (200, 200, 200), 0.6) if lk.done else lk.colour
        c.shape(st.shape, cx, cy, r, colour, outline=(0, 0, 0) if not lk.done else (110, 110, 110))
        c.text(
            (cx, cy + 1),
            st.letter,
            size=max(10, int(cell * 0.5)),
            fill=(255, 255, 255),
            anchor="mm",
            outline=(0, 0, 0) if not lk.done else None,
        )
        if lk.bar is not None:
            x0 = left + u.x * cell + 3
            y1 = top + (u.y + 1) * cell - 2
            c.bar(
                (x0, y1 - max(2, cell // 9), left + (u.x + 1) * cell - 4, y1),
                lk.bar,
                lk.bar_colour,
            )
    # players
    c.player_panel(top + board_h + 12, wrapped, [pic.rgb(PLAYER_RGB[p]) for p in (0, 1)])
    c.legend(legend_top, legend)
    return c.to_array()
