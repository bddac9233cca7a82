"""Push Them All rendering: a text board (``ansi``) and a picture of it (``rgb_array``).

Rendering is kept apart from the rules so that the forward model stays lean; both functions only
read the state through its public queries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from stratagem.envs import stratega_render as sr
from stratagem.envs.push_them_all.actions import PUSH_NAMES
from stratagem.envs.push_them_all.maps import TILE_SYMBOLS

if TYPE_CHECKING:
    from stratagem.envs.push_them_all.rules import PushThemAllState

__all__ = ["render_rgb", "render_text"]

_UNIT_CHAR = ("w", "g")
_UNIT_NAME = ("Warrior", "Ghost")

#: The common tiles, then Hole (near black).
_TILE_RGB = np.vstack([sr.TILE_RGB, np.array([[25, 20, 20]], dtype=np.uint8)])


def render_text(state: PushThemAllState) -> str:
    """The board in the reference's layout syntax, then a status line and each unit's state."""
    lines = sr.board_lines(state, TILE_SYMBOLS, _UNIT_CHAR)
    lines.append(sr.status_line(state, "every enemy unit fell"))
    for p in (0, 1):
        parts = []
        for u in state.units(p):
            used = [
                n.removeprefix("push_")
                for n, r in zip(PUSH_NAMES, u.push_ready, strict=True)
                if not r
            ]
            text = f"{_UNIT_NAME[u.type]}({u.x},{u.y})" + ("" if u.movement_points else " moved")
            if u.type == 0 and used:
                text += " pushed " + "/".join(used)
            parts.append(text)
        lines.append(f"player {p}: " + (", ".join(parts) or "no units"))
    return "\n".join(lines)


def render_rgb(state: PushThemAllState, cell: int = 16) -> np.ndarray:
    """An ``(H·cell) × (W·cell) × 3`` uint8 picture of the board.

    Terrain is coloured by type (holes are near black); Warriors are owner-coloured squares with
    a notch and Ghosts owner-coloured diamonds.
    """
    img = sr.board_image(state, _TILE_RGB, cell)
    shape = sr.unit_shapes(cell)
    shapes = (shape.notched, shape.diamond)
    for u in state.units():
        sr.draw_unit(img, cell, u.x, u.y, shapes[u.type], sr.PLAYER_RGB[u.owner])
    return img
