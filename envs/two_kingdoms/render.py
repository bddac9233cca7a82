"""Two Kingdoms rendering: a text board (``ansi``) and a picture of it (``rgb_array``).

Rendering is kept apart from the rules so that the forward model stays lean; both functions only
read the state through its public queries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from stratagem.envs import stratega_render as sr
from stratagem.envs.two_kingdoms.maps import TILE_SYMBOLS

if TYPE_CHECKING:
    from stratagem.envs.two_kingdoms.rules import TwoKingdomsState

__all__ = ["render_rgb", "render_text"]

_UNIT_CHAR = ("c", "k", "o", "w", "g")
_UNIT_NAME = ("City", "King", "Warrior", "Worker", "GoldVein")

_VEIN_RGB = np.array([240, 200, 30], dtype=np.uint8)
_VEIN_BAR = (240, 200, 30)


def render_text(state: TwoKingdomsState) -> str:
    """The board in the reference's layout syntax, a status line, then each player's holdings."""
    lines = sr.board_lines(state, TILE_SYMBOLS, _UNIT_CHAR)
    lines.append(sr.status_line(state, "enemy King killed"))
    for p in (0, 1):
        research = ""
        if state.game.research:
            research = (
                ", Mining researched"
                if state.mining_researched(p)
                else (", researching Mining" if state.researching(p) else ", no Mining")
            )
        units = ", ".join(
            f"{_UNIT_NAME[u.type]}({u.x},{u.y}) hp {u.health}"
            + ("" if u.movement_points else " moved")
            for u in state.units(p)
        )
        lines.append(
            f"player {p}: gold {state.gold(p)}, prod {state.prod(p)}, score {state.score(p)}"
            f"{research}; {units}"
        )
    veins = ", ".join(f"({v.x},{v.y}) {v.gold}" for v in state.veins())
    lines.append(f"gold veins: {veins}")
    return "\n".join(lines)


def render_rgb(state: TwoKingdomsState, cell: int = 16) -> np.ndarray:
    """An ``(H·cell) × (W·cell) × 3`` uint8 picture of the board.

    Terrain is coloured by type; Cities are owner-coloured frames, Kings full squares, Warriors
    squares with a notch, Workers crosses, gold veins yellow diamonds; units carry a health bar
    and veins a gold bar along the bottom edge.
    """
    img = sr.board_image(state, sr.TILE_RGB, cell)
    shape = sr.unit_shapes(cell)
    shapes = (shape.frame, shape.square, shape.notched, shape.cross, shape.diamond)
    from stratagem.envs.two_kingdoms.rules import MAX_HEALTH, VEIN_GOLD

    for u in state.units():
        if u.owner < 0:  # a gold vein, its bar the gold left
            gold = u.gold / VEIN_GOLD
            sr.draw_unit(img, cell, u.x, u.y, shapes[u.type], _VEIN_RGB, gold, _VEIN_BAR)
        else:
            health = u.health / MAX_HEALTH[u.type]
            sr.draw_unit(img, cell, u.x, u.y, shapes[u.type], sr.PLAYER_RGB[u.owner], health)
    return img
