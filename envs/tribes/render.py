"""Tribes rendering: a text map (``ansi``) and a picture of it (``rgb_array``).

Kept apart from the rules so the forward model stays lean; both functions only read the state.

Text map: one cell of four characters per tile, ``TRUO``: terrain (``.`` plain, ``s`` shallow,
``d`` deep water, ``m`` mountain, ``v`` village, ``C`` city, ``f`` forest, ``?`` fog), resource
or building (resource letters as in level files, building as a digit/letter code listed under the
map), unit letter (``w`` warrior, ``r`` rider, ``D`` defender, ``S`` swordsman, ``a`` archer,
``c`` catapult, ``k`` knight, ``m`` mind bender, ``b`` boat, ``s`` ship, ``B`` battleship, ``G``
giant) and its tribe's seat. Under the map: the turn and each tribe's stars, score, cities,
technologies and units.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from stratagem.envs.tribes import cities as CT
from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes import techtree

if TYPE_CHECKING:
    from stratagem.envs.tribes.rules import TribesState

__all__ = ["render_rgb", "render_text"]

_TERRAIN_CHAR = (".", "s", "d", "m", "v", "C", "f", "?")
_UNIT_CHAR = ("w", "r", "D", "S", "a", "c", "k", "m", "b", "s", "B", "G")
_BUILDING_CHAR = "PMFfWHLSTtgmAEYOBKZ"

_TERRAIN_RGB = np.array(
    [
        [170, 200, 110],  # plain
        [110, 170, 220],  # shallow water
        [40, 80, 160],  # deep water
        [130, 120, 110],  # mountain
        [200, 170, 120],  # village
        [235, 225, 200],  # city
        [60, 130, 60],  # forest
        [30, 30, 30],  # fog
    ],
    dtype=np.uint8,
)
#: Tribe colours of the reference (Xin-Xi red, Imperius blue, Bardur grey, Oumaji yellow).
_TRIBE_RGB = np.array([[251, 2, 7], [0, 0, 255], [76, 76, 76], [255, 255, 10]], dtype=np.uint8)
_RESOURCE_RGB = np.array([240, 240, 240], dtype=np.uint8)
_BUILDING_RGB = np.array([120, 70, 30], dtype=np.uint8)


def render_text(state: TribesState) -> str:
    """The map, then one status line per tribe."""
    geo = state.geo
    size = geo.size
    lines = ["    " + "".join(f"{c:<4}" for c in range(size))]
    for r in range(size):
        cells = []
        for c in range(size):
            t = r * size + c
            ter = state.terrain[t]
            b = state.building[t]
            res = state.resource[t]
            mid = _BUILDING_CHAR[b] if b >= 0 else C.RESOURCE_CHARS.get(res, " ")
            uid = state.unit_at[t]
            if uid:
                unit = state.units[uid]
                tail = _UNIT_CHAR[unit[0]] + str(unit[1])
            elif ter == C.CITY and state.tile_city[t]:
                tail = " " + str(CT.city_tribe(state, state.tile_city[t])).replace("-1", "?")
            else:
                tail = "  "
            cells.append(_TERRAIN_CHAR[ter] + mid + tail)
        lines.append(f"{r:>3} " + "".join(cells))
    if state.game_over:
        ranking = ", ".join(C.TRIBES[state.tribe_type[t]].name for t in state.ranking or ())
        lines.append(f"turn {state.tick}: game over; ranking {ranking}")
    else:
        lines.append(
            f"turn {state.tick}/{state.game.max_turns}, "
            f"{C.TRIBES[state.tribe_type[state.current_player]].name} "
            f"(seat {state.current_player}) to move"
        )
    for t in range(state.num_tribes):
        units = state.tribe_units(t)
        lines.append(
            f"seat {t} {C.TRIBES[state.tribe_type[t]].name}: stars {state.stars[t]}, "
            f"score {state.score[t]}, cities {len(state.tcities[t])}, "
            f"production {CT.tribe_production(state, t)}, "
            f"techs {techtree.num_researched(state.techs[t])}, units {len(units)}"
            + (", OUT" if state.result[t] == C.LOSS and not state.game_over else "")
        )
    legend = zip(_BUILDING_CHAR, C.BUILDING_NAMES, strict=True)
    lines.append("buildings: " + " ".join(f"{ch}={name}" for ch, name in legend))
    return "\n".join(lines)


def render_rgb(state: TribesState, cell: int = 16) -> np.ndarray:
    """An ``(size·cell) × (size·cell) × 3`` uint8 picture.

    Tiles are filled with their terrain colour; territory gets a border in the owner's colour,
    city centres a thick one; resources are a small light dot, buildings a brown square, units a
    disc-like square in their tribe's colour (darker inside when finished for this turn).
    """
    geo = state.geo
    size = geo.size
    img = np.zeros((size * cell, size * cell, 3), dtype=np.uint8)
    q = max(1, cell // 8)
    for t in range(geo.n):
        r, c = geo.rc[t]
        y0, x0 = r * cell, c * cell
        tile = img[y0 : y0 + cell, x0 : x0 + cell]
        tile[:] = _TERRAIN_RGB[state.terrain[t]]
        owner = CT.city_tribe(state, state.tile_city[t])
        if owner >= 0:
            colour = _TRIBE_RGB[state.tribe_type[owner]]
            width = 3 * q if state.terrain[t] == C.CITY else q
            tile[:width, :] = colour
            tile[-width:, :] = colour
            tile[:, :width] = colour
            tile[:, -width:] = colour
        if state.building[t] >= 0:
            tile[cell // 2 : cell // 2 + 3 * q, q * 2 : q * 5] = _BUILDING_RGB
        elif state.resource[t] >= 0:
            tile[q * 2 : q * 4, q * 2 : q * 4] = _RESOURCE_RGB
        uid = state.unit_at[t]
        if uid:
            unit = state.units[uid]
            colour = _TRIBE_RGB[state.tribe_type[unit[1]]]
            tile[3 * q : cell - 3 * q, 3 * q : cell - 3 * q] = colour
            if unit[8] == C.FINISHED:
                tile[5 * q : cell - 5 * q, 5 * q : cell - 5 * q] = colour // 2
    return img
