"""Kill The King rendering: a text board (``ansi``) and a picture of it (``rgb_array``).

Rendering is kept apart from the rules so that the forward model stays lean; both functions only
read the state through its public queries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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


_STYLES = (
    sr.UnitStyle("King", "K", "octagon"),
    sr.UnitStyle("Warrior", "W", "square"),
    sr.UnitStyle("Archer", "A", "triangle"),
    sr.UnitStyle("Healer", "H", "cross"),
)


def render_rgb(state: KillTheKingState) -> np.ndarray:
    """The picture of the position (at least 800 pixels wide).

    Terrain is coloured by type; a unit is an owner-coloured shape with its type's letter (King
    octagon ``K``, Warrior square ``W``, Archer triangle ``A``, Healer cross ``H``) and its
    health bar, faded once it has neither moves nor an action left this round. Under the board,
    each player's units with their health; a legend at the bottom.
    """
    from stratagem.envs.kill_the_king.rules import UNIT_STATS
    from stratagem.envs.picture import line_icon, rgb

    def look(u: Any) -> sr.UnitLook:
        return sr.UnitLook(
            style=u.type,
            colour=rgb(sr.PLAYER_RGB[u.owner]),
            bar=u.health / UNIT_STATS[u.type].max_health,
            done=not u.movement_points and not u.can_act,
        )

    lines = []
    for p in (0, 1):
        units = state.units(p)
        king = [u for u in units if u.type == 0]
        counts = ", ".join(
            _count(sum(u.type == t for u in units), _UNIT_NAME[t]) for t in (1, 2, 3)
        )
        hp = sum(u.health for u in units)
        king_hp = f"King {king[0].health}/{UNIT_STATS[0].max_health} hp" if king else "no King"
        lines.append(f"{king_hp}; {counts}; total health {hp}")
    return sr.board_picture(
        state,
        title="Kill The King",
        status=sr.status_line(state, "enemy King killed"),
        tile_rgb=sr.TILE_RGB,
        tile_names=sr.TILE_NAMES,
        styles=_STYLES,
        look=look,
        player_lines=lines,
        legend_extra=((line_icon((50, 200, 60)), "health"),),
    )


def _count(n: int, name: str) -> str:
    """``"1 Warrior"``, ``"2 Warriors"``."""
    return f"{n} {name}" + ("" if n == 1 else "s")
