"""CotG combat rendering: a text board (``ansi``) and a picture of the hex battlefield.

Rendering reads the state through its public queries only, so the forward model stays lean.

Text: one line per row ``r``, indented by ``r`` characters so that the parallelogram of pointy-top
hexes reads as on screen; ``D``/``B`` are player 0's Destroyers/Battleships, ``d``/``b``
player 1's, ``.`` an empty hex; then a status line and every unit with its slot, hex, hit points,
power and whether it attacked.

Picture: pointy-top hexes (centre of ``(q, r)`` at ``x = s√3 (q + r/2)``, ``y = 1.5 s r``),
player 0 red, player 1 blue; a Battleship is a disc, a Destroyer a diamond; a bar under each unit
shows its hit points and a white dot marks a unit that has attacked this turn.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from stratagem.envs.cotg_combat.rules import CotgCombatState

__all__ = ["render_rgb", "render_text"]

_SYMBOLS = (("D", "B"), ("d", "b"))
_NAMES = ("Destroyer", "Battleship")
_PLAYER_RGB = np.array([[220, 50, 40], [40, 90, 230]], dtype=np.uint8)
_HEX_RGB = np.array([34, 38, 60], dtype=np.uint8)
_EDGE_RGB = np.array([70, 76, 110], dtype=np.uint8)
_SPACE_RGB = np.array([8, 8, 16], dtype=np.uint8)
_SQRT3 = 3**0.5


def render_text(state: CotgCombatState) -> str:
    """The board, a status line and the unit list (see the module docstring)."""
    game = state.game
    w, h = game.width, game.height
    rows = [["."] * w for _ in range(h)]
    for u in state.units():
        rows[u.r][u.q] = _SYMBOLS[u.owner][u.type]
    lines = [f"{r:>3} " + " " * r + " ".join(row) for r, row in enumerate(rows)]
    hp0, hp1 = state.hp_totals()
    if state.winner is None:
        status = (
            f"turn {state.turn}/{game.turn_limit}, player {state.current_player} to move; "
            f"hp {hp0} v {hp1}"
        )
    elif state.winner < 0:
        status = f"turn {state.turn}: draw (turn limit); hp {hp0} v {hp1}"
    else:
        status = (
            f"turn {state.turn}: player {state.winner} wins (enemy destroyed); hp {hp0} v {hp1}"
        )
    lines.append(status)
    for p in (0, 1):
        units = ", ".join(
            f"{u.slot}:{_SYMBOLS[p][u.type]}({u.q},{u.r}) hp {u.hp} pw {u.power}"
            + (" attacked" if u.attacked else "")
            for u in state.units(p)
        )
        lines.append(f"player {p}: {units or 'none'}")
    return "\n".join(lines)


@lru_cache(maxsize=8)
def _pixel_map(width: int, height: int, size: int) -> tuple[np.ndarray, ...]:
    """Per pixel: hex cell (-1 off the board), offsets from the hex centre, and edge pixels."""
    margin = size
    img_w = int(np.ceil(size * _SQRT3 * (width + (height - 1) / 2))) + 2 * margin
    img_h = int(np.ceil(size * 1.5 * (height - 1) + 2 * size)) + 2 * margin
    ys, xs = np.mgrid[0:img_h, 0:img_w].astype(np.float64)
    x = xs - margin - size * _SQRT3 / 2
    y = ys - margin - size
    fq = (_SQRT3 / 3 * x - y / 3) / size
    fr = (2 / 3 * y) / size
    # cube rounding
    cx, cz = fq, fr
    cy = -cx - cz
    rx, ry, rz = np.round(cx), np.round(cy), np.round(cz)
    dx, dy, dz = np.abs(rx - cx), np.abs(ry - cy), np.abs(rz - cz)
    fix_x = (dx > dy) & (dx > dz)
    fix_z = ~fix_x & (dz >= dy)
    rx = np.where(fix_x, -ry - rz, rx)
    rz = np.where(fix_z, -rx - ry, rz)
    q, r = rx.astype(np.int64), rz.astype(np.int64)
    inside = (q >= 0) & (q < width) & (r >= 0) & (r < height)
    cell = np.where(inside, r * width + q, -1)
    off_x = x - size * _SQRT3 * (q + r / 2)
    off_y = y - size * 1.5 * r
    edge = np.zeros_like(inside)
    edge[:-1, :] |= cell[:-1, :] != cell[1:, :]
    edge[:, :-1] |= cell[:, :-1] != cell[:, 1:]
    return cell, off_x / size, off_y / size, edge & inside


def render_rgb(state: CotgCombatState, size: int = 10) -> np.ndarray:
    """An ``H_px × W_px × 3`` uint8 picture of the battlefield (``size``: hex radius in pixels).

    Raises:
        ValueError: If ``size`` is below 6 pixels.
    """
    if size < 6:
        raise ValueError(f"hex size must be at least 6 pixels, got {size}")
    game = state.game
    cell, ox, oy, edge = _pixel_map(game.width, game.height, size)
    img = np.empty((*cell.shape, 3), dtype=np.uint8)
    img[:] = _SPACE_RGB
    img[cell >= 0] = _HEX_RGB
    img[edge] = _EDGE_RGB
    disc = ox * ox + oy * oy <= 0.62**2
    diamond = np.abs(ox) / 0.6 + np.abs(oy + 0.05) / 0.7 <= 1.0
    bar = (np.abs(oy - 0.62) <= 0.09) & (np.abs(ox) <= 0.55)
    dot = (ox - 0.45) ** 2 + (oy + 0.45) ** 2 <= 0.12**2
    grid = game.grid
    for u in state.units():
        here = cell == grid.cell(u.q, u.r)
        img[here & (disc if u.type == 1 else diamond)] = _PLAYER_RGB[u.owner]
        frac = u.hp / game.max_hp[u.type]
        img[here & bar] = (20, 20, 20)
        img[here & bar & (ox <= -0.55 + 1.1 * frac)] = (60, 220, 60)
        if u.attacked:
            img[here & dot] = (250, 250, 250)
    return img
