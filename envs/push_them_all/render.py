"""Push Them All rendering: a text board (``ansi``) and a picture of it (``rgb_array``).

Rendering is kept apart from the rules so that the forward model stays lean; both functions only
read the state through its public queries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from stratagem.envs import stratega_render as sr
from stratagem.envs.push_them_all.actions import PUSH_NAMES
from stratagem.envs.push_them_all.maps import TILE_NAMES, TILE_SYMBOLS

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


_STYLES = (sr.UnitStyle("Warrior", "W", "square"), sr.UnitStyle("Ghost", "G", "disc"))


def render_rgb(state: PushThemAllState) -> np.ndarray:
    """The picture of the position (at least 800 pixels wide).

    Terrain is coloured by type, holes near black; Warriors are owner-coloured squares ``W``,
    Ghosts owner-coloured discs ``G``, faded once they have neither a move nor a push left this
    round. Under the board, each player's units; a legend at the bottom.
    """
    from stratagem.envs.picture import rgb

    def look(u: Any) -> sr.UnitLook:
        return sr.UnitLook(
            style=u.type,
            colour=rgb(sr.PLAYER_RGB[u.owner]),
            done=not u.movement_points and not any(u.push_ready),
        )

    lines = []
    for p in (0, 1):
        units = state.units(p)
        warriors = sum(u.type == 0 for u in units)
        ghosts = len(units) - warriors
        lines.append(
            f"{warriors} Warrior{'s' * (warriors != 1)}, {ghosts} Ghost{'s' * (ghosts != 1)}"
        )
    return sr.board_picture(
        state,
        title="Push Them All",
        status=sr.status_line(state, "every enemy unit fell"),
        tile_rgb=_TILE_RGB,
        tile_names=TILE_NAMES,
        styles=_STYLES,
        look=look,
        player_lines=lines,
    )
