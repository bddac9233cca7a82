"""Kill The King rendering: a text board (``ansi``) and a picture of it (``rgb_array``).

Rendering is kept apart from the rules so that the forward model stays lean; both functions only
read the state through its public queries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from stratagem.envs import stratega_render as sr
from stratagem.envs.kill_the_king.maps import TILE_SYMBOLS

if TYPE_CHECKING:
    from stratagem.envs.kill_the_king.rules import KillTheKingState

__all__ = ["render_rgb", "render_text"]

_UNIT_CHAR = ("k", "w", "a", "h")
_UNIT_NAME = ("King", "Warrior", "Archer", "Healer")


def render_text(state: KillTheKingState) -> str:
    """The board in the reference's layout syntax, then a status line and each unit's health."""
    lines = sr.board_lines(state, TILE_SYMBOLS, _UNIT_CHAR)
    lines.append(sr.status_line(state, "enemy King killed"))
    for p in (0, 1):
        units = ", ".join(
            f"{_UNIT_NAME[u.type]}({u.x},{u.y}) hp {u.health}"
            + ("" if u.movement_points else " moved")
            + ("" if u.can_act else " acted")
            for u in state.units(p)
        )
        lines.append(f"player {p}: {units}")
    return "\n".join(lines)


def render_rgb(state: KillTheKingState, cell: int = 16) -> np.ndarray:
    """An ``(H·cell) × (W·cell) × 3`` uint8 picture of the board.

    Terrain is coloured by type; units are owner-coloured shapes (King: full square, Warrior:
    square with a notch, Archer: diamond, Healer: cross) with a health bar along the bottom edge.
    """
    img = sr.board_image(state, sr.TILE_RGB, cell)
    shape = sr.unit_shapes(cell)
    shapes = (shape.square, shape.notched, shape.diamond, shape.cross)
    from stratagem.envs.kill_the_king.rules import UNIT_STATS

    for u in state.units():
        health = u.health / UNIT_STATS[u.type].max_health
        sr.draw_unit(img, cell, u.x, u.y, shapes[u.type], sr.PLAYER_RGB[u.owner], health)
    return img
