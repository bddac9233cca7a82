"""Two Kingdoms rendering: a text board (``ansi``) and a picture of it (``rgb_array``).

Rendering is kept apart from the rules so that the forward model stays lean; both functions only
read the state through its public queries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from stratagem.envs import stratega_render as sr
from stratagem.envs.two_kingdoms.maps import TILE_SYMBOLS

if TYPE_CHECKING:
    from stratagem.envs.two_kingdoms.rules import TwoKingdomsState

__all__ = ["render_rgb", "render_text"]

_UNIT_CHAR = ("c", "k", "o", "w", "g")
_UNIT_NAME = ("City", "King", "Warrior", "Worker", "GoldVein")

_VEIN_BAR = (240, 200, 30)


def _research(state: TwoKingdomsState, player: int, sep: str) -> str:
    """``player``'s Mining research after ``sep``, or nothing when the game has no research."""
    if not state.game.research:
        return ""
    if state.mining_researched(player):
        return f"{sep}Mining researched"
    return f"{sep}researching Mining" if state.researching(player) else f"{sep}no Mining"


def render_text(state: TwoKingdomsState) -> str:
    """The board in the reference's layout syntax, a status line, then each player's holdings."""
    lines = sr.board_lines(state, TILE_SYMBOLS, _UNIT_CHAR)
    lines.append(sr.status_line(state, "enemy King killed"))
    for p in (0, 1):
        research = _research(state, p, ", ")
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


_STYLES = (
    sr.UnitStyle("City", "C", "house"),
    sr.UnitStyle("King", "K", "octagon"),
    sr.UnitStyle("Warrior", "W", "square"),
    sr.UnitStyle("Worker", "w", "disc"),
    sr.UnitStyle("Gold vein", "$", "diamond"),
)


def render_rgb(state: TwoKingdomsState) -> np.ndarray:
    """The picture of the position (at least 800 pixels wide).

    Terrain is coloured by type; Cities are owner-coloured houses ``C``, Kings octagons ``K``,
    Warriors squares ``W``, Workers discs ``w``, gold veins yellow diamonds ``$``. Units carry a
    health bar and veins a bar of the gold left; a unit with neither a move nor an action left
    this round is faded. Under the board, each player's gold, production, score and research;
    a legend at the bottom.
    """
    from stratagem.envs.picture import line_icon, rgb
    from stratagem.envs.two_kingdoms.rules import MAX_HEALTH, VEIN_GOLD

    def look(u: Any) -> sr.UnitLook:
        if u.owner < 0:
            return sr.UnitLook(u.type, _VEIN_BAR, u.gold / VEIN_GOLD, _VEIN_BAR)
        done = u.type in (1, 2, 3) and not u.movement_points and not u.can_act
        colour = rgb(sr.PLAYER_RGB[u.owner])
        return sr.UnitLook(u.type, colour, u.health / MAX_HEALTH[u.type], done=done)

    lines = []
    for p in (0, 1):
        units = state.units(p)
        counts = ", ".join(
            f"{n} {_UNIT_NAME[t]}{'s' * (n != 1)}"
            for t in (1, 2, 3)
            if (n := sum(u.type == t for u in units)) or t == 1
        )
        research = _research(state, p, "; ")
        lines.append(
            f"gold {state.gold(p)}, production {state.prod(p)}, score {state.score(p)}"
            f"{research}; {counts}"
        )
    return sr.board_picture(
        state,
        title="Two Kingdoms",
        status=sr.status_line(state, "enemy King killed"),
        tile_rgb=sr.TILE_RGB,
        tile_names=sr.TILE_NAMES,
        styles=_STYLES,
        look=look,
        player_lines=lines,
        legend_extra=((line_icon((50, 200, 60)), "health"), (line_icon(_VEIN_BAR), "gold left")),
    )
