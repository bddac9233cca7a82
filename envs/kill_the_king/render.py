"""Kill The King rendering: a text board (``ansi``) and a picture of it (``rgb_array``).

Rendering is kept apart from the rules so that the forward model stays lean; both functions only
read the state through its public queries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from stratagem.envs.kill_the_king.maps import TILE_SYMBOLS

if TYPE_CHECKING:
    from stratagem.envs.kill_the_king.rules import KillTheKingState

__all__ = ["render_rgb", "render_text"]

_TILE_CHAR = {tid: sym for sym, (tid, _) in TILE_SYMBOLS.items()}
_UNIT_CHAR = ("k", "w", "a", "h")
_UNIT_NAME = ("King", "Warrior", "Archer", "Healer")

_TILE_RGB = np.array(
    [[200, 190, 140], [60, 110, 200], [110, 100, 95], [60, 140, 70]], dtype=np.uint8
)
_PLAYER_RGB = np.array([[220, 40, 40], [40, 80, 230]], dtype=np.uint8)


def render_text(state: KillTheKingState) -> str:
    """The board in the reference's layout syntax, then a status line and each unit's health."""
    w, h = state.width, state.height
    grid = [[_TILE_CHAR[state.board.terrain[y * w + x]] + " " for x in range(w)] for y in range(h)]
    for u in state.units():
        grid[u.y][u.x] = f"{_UNIT_CHAR[u.type]}{u.owner}"
    header = "    " + " ".join(f"{x:>2}" for x in range(w))
    lines = [header] + [f"{y:>3} " + " ".join(row) for y, row in enumerate(grid)]
    if state.winner is None:
        status = (
            f"round {state.tick}/{state.game.round_limit}, player {state.current_player} to move"
        )
    elif state.winner < 0:
        status = f"round {state.tick}: draw (round limit)"
    else:
        status = f"round {state.tick}: player {state.winner} wins (enemy King killed)"
    lines.append(status)
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
    if cell < 6:
        raise ValueError(f"cell size must be at least 6 pixels, got {cell}")
    w, h = state.width, state.height
    terrain = np.asarray(state.board.terrain).reshape(h, w)
    img = np.repeat(np.repeat(_TILE_RGB[terrain], cell, axis=0), cell, axis=1)
    img[::cell, :, :] = img[::cell, :, :] * 0.85  # faint grid lines
    img[:, ::cell, :] = img[:, ::cell, :] * 0.85
    yy, xx = np.mgrid[0:cell, 0:cell]
    c = (cell - 1) / 2.0
    m = cell // 6
    shapes = (
        (xx >= m) & (xx < cell - m) & (yy >= m) & (yy < cell - m),
        (xx >= m)
        & (xx < cell - m)
        & (yy >= m)
        & (yy < cell - m)
        & ~((abs(xx - c) < cell / 6) & (yy < cell / 2)),
        abs(xx - c) + abs(yy - c) <= c - m / 2,
        ((abs(xx - c) < cell / 6) | (abs(yy - c) < cell / 6))
        & (xx >= m)
        & (xx < cell - m)
        & (yy >= m)
        & (yy < cell - m),
    )
    from stratagem.envs.kill_the_king.rules import UNIT_STATS

    for u in state.units():
        tile = img[u.y * cell : (u.y + 1) * cell, u.x * cell : (u.x + 1) * cell]
        tile[shapes[u.type]] = _PLAYER_RGB[u.owner]
        frac = u.health / UNIT_STATS[u.type].max_health
        bar = max(1, round(frac * cell))
        tile[cell - 2 :, :, :] = (30, 30, 30)
        tile[cell - 2 :, :bar, :] = (40, 220, 40)
    return img
