"""Push Them All rendering: a text board (``ansi``) and a picture of it (``rgb_array``).

Rendering is kept apart from the rules so that the forward model stays lean; both functions only
read the state through its public queries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from stratagem.envs.push_them_all.actions import PUSH_NAMES
from stratagem.envs.push_them_all.maps import TILE_SYMBOLS

if TYPE_CHECKING:
    from stratagem.envs.push_them_all.rules import PushThemAllState

__all__ = ["render_rgb", "render_text"]

_TILE_CHAR = {tid: sym for sym, (tid, _) in TILE_SYMBOLS.items()}
_UNIT_CHAR = ("w", "g")
_UNIT_NAME = ("Warrior", "Ghost")

_TILE_RGB = np.array(
    [[200, 190, 140], [60, 110, 200], [110, 100, 95], [60, 140, 70], [25, 20, 20]], dtype=np.uint8
)
_PLAYER_RGB = np.array([[220, 40, 40], [40, 80, 230]], dtype=np.uint8)


def render_text(state: PushThemAllState) -> str:
    """The board in the reference's layout syntax, then a status line and each unit's state."""
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
        status = f"round {state.tick}: player {state.winner} wins (every enemy unit fell)"
    lines.append(status)
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
    shapes = (
        square & ~((abs(xx - c) < cell / 6) & (yy < cell / 2)),
        abs(xx - c) + abs(yy - c) <= c - m / 2,
    )
    for u in state.units():
        tile = img[u.y * cell : (u.y + 1) * cell, u.x * cell : (u.x + 1) * cell]
        tile[shapes[u.type]] = _PLAYER_RGB[u.owner]
    return img
