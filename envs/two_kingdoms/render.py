"""Two Kingdoms rendering: a text board (``ansi``) and a picture of it (``rgb_array``).

Rendering is kept apart from the rules so that the forward model stays lean; both functions only
read the state through its public queries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from stratagem.envs.two_kingdoms.maps import TILE_SYMBOLS

if TYPE_CHECKING:
    from stratagem.envs.two_kingdoms.rules import TwoKingdomsState

__all__ = ["render_rgb", "render_text"]

_TILE_CHAR = {tid: sym for sym, (tid, _) in TILE_SYMBOLS.items()}
_UNIT_CHAR = ("c", "k", "o", "w", "g")
_UNIT_NAME = ("City", "King", "Warrior", "Worker", "GoldVein")

_TILE_RGB = np.array(
    [[200, 190, 140], [60, 110, 200], [110, 100, 95], [60, 140, 70]], dtype=np.uint8
)
_PLAYER_RGB = np.array([[220, 40, 40], [40, 80, 230]], dtype=np.uint8)
_VEIN_RGB = np.array([240, 200, 30], dtype=np.uint8)


def render_text(state: TwoKingdomsState) -> str:
    """The board in the reference's layout syntax, a status line, then each player's holdings."""
    w, h = state.width, state.height
    grid = [[_TILE_CHAR[state.board.terrain[y * w + x]] + " " for x in range(w)] for y in range(h)]
    for u in state.units():
        grid[u.y][u.x] = _UNIT_CHAR[u.type] + (" " if u.owner < 0 else str(u.owner))
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
    square = (xx >= m) & (xx < cell - m) & (yy >= m) & (yy < cell - m)
    inner = (
        (xx >= 2 * m + 1) & (xx < cell - 2 * m - 1) & (yy >= 2 * m + 1) & (yy < cell - 2 * m - 1)
    )
    shapes = (
        square & ~inner,
        square,
        square & ~((abs(xx - c) < cell / 6) & (yy < cell / 2)),
        ((abs(xx - c) < cell / 6) | (abs(yy - c) < cell / 6)) & square,
        abs(xx - c) + abs(yy - c) <= c - m / 2,
    )
    from stratagem.envs.two_kingdoms.rules import MAX_HEALTH, VEIN_GOLD

    for u in state.units():
        tile = img[u.y * cell : (u.y + 1) * cell, u.x * cell : (u.x + 1) * cell]
        tile[shapes[u.type]] = _VEIN_RGB if u.owner < 0 else _PLAYER_RGB[u.owner]
        frac = u.gold / VEIN_GOLD if u.owner < 0 else u.health / MAX_HEALTH[u.type]
        bar = max(1, round(frac * cell))
        tile[cell - 2 :, :, :] = (30, 30, 30)
        tile[cell - 2 :, :bar, :] = (240, 200, 30) if u.owner < 0 else (40, 220, 40)
    return img
