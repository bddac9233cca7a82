"""The compiled city actions: a port of :mod:`stratagem.envs.tribes.cities` (and examine).

Buildings and their adjacency bonuses, temples, level-ups, spawns, the tile actions, capture
(founding a city, re-homing units, elimination) and examining ruins, over :mod:`.layout`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes.compiled import tables as tb
from stratagem.envs.tribes.compiled.engine import (
    MON0,
    add_population,
    add_stars,
    add_unit,
    launch_explorer,
    pl,
    rec,
    square,
    tof,
)
from stratagem.envs.tribes.compiled.layout import (
    C_BOUND,
    C_CAPITAL,
    C_LEVEL,
    C_NEED,
    C_POP,
    C_POS,
    C_PROD,
    C_TRIBE,
    C_WALLS,
    C_WORTH,
    P_BLD,
    P_CITY,
    P_NET,
    P_RES,
    P_TER,
    P_TLVL,
    P_TTURN,
    P_UNIT,
    T_MON,
    T_NTC,
    T_SCORE,
    T_STARS,
    T_TC,
)
from stratagem.envs.tribes.compiled.network import (
    update_network_all,
)
from stratagem.envs.tribes.compiled.units import push_unit


@njit(cache=True)
def baked_digest():
    """``tables.SOURCE_DIGEST`` as this module's machine code froze it (stale-cache check)."""
    return tb.SOURCE_DIGEST


@njit(cache=True)
def production(buf, cid):
    """``cities.production``."""
    o = rec(buf, cid)
    if buf[o + C_POP] >= 0:
        return (
            buf[o + C_LEVEL] + buf[o + C_PROD] + (C.PROD_CAPITAL_BONUS if buf[o + C_CAPITAL] else 0)
        )
    return buf[o + C_POP]


@njit(cache=True)
def tribe_production(buf, t):
    """``cities.tribe_production``."""
    to = tof(buf, t)
    total = 0
    for i in range(buf[to + T_NTC]):
        total += production(buf, buf[to + T_TC + i])
    return total


@njit(cache=True)
def add_production(buf, cid, value):
    """``cities.add_production``."""
    o = rec(buf, cid)
    buf[o + C_PROD] = max(0, buf[o + C_PROD] + value)


@njit(cache=True)
def assign_city_tiles(buf, cid, radius):
    """``cities.assign_city_tiles`` (nothing reserved: only level setup reserves tiles)."""
    o = rec(buf, cid)
    tribe = buf[o + C_TRIBE]
    tiles = np.empty(128, dtype=np.int64)
    m = square(buf, buf[o + C_POS], radius, tiles, True)
    tc = pl(buf, P_CITY)
    for i in range(m):
        t = tiles[i]
        if not buf[tc + t]:
            buf[tc + t] = cid
            buf[tof(buf, tribe) + T_SCORE] += C.CITY_BORDER_POINTS
            buf[o + C_WORTH] += C.CITY_BORDER_POINTS


@njit(cache=True)
def _apply_bonus(buf, cid, tile, btype, is_pop, mult, only_matching):
    """``cities._apply_bonus``."""
    tribe = buf[rec(buf, cid) + C_TRIBE]
    is_base = tb.B_BASE[btype] == 1
    if is_base and is_pop and not only_matching:
        add_population(buf, cid, mult * tb.B_BONUS[btype], -1)
    match = tb.B_MATCH[btype]
    target = cid
    nb = np.empty(8, dtype=np.int64)
    m = square(buf, tile, 1, nb, False)
    for i in range(m):
        adj = nb[i]
        b = buf[pl(buf, P_BLD) + adj]
        if b < 0 or b != match:
            continue
        acid = buf[pl(buf, P_CITY) + adj]
        if acid != cid:
            if not acid or buf[rec(buf, acid) + C_TRIBE] != tribe:
                return
            target = acid
        bonus = tb.B_BONUS[b] if is_base else tb.B_BONUS[btype]
        if is_pop:
            add_population(buf, target, bonus * mult, -1)
        else:
            add_production(buf, target, bonus * mult)


@njit(cache=True)
def building_effects(buf, cid, tile, btype, negative):
    """``cities.building_effects``."""
    mult = -1 if negative else 1
    tribe = buf[rec(buf, cid) + C_TRIBE]
    so = tof(buf, tribe) + T_SCORE
    if btype in (C.FARM, C.LUMBER_HUT, C.MINE, C.WINDMILL, C.SAWMILL, C.FORGE):
        _apply_bonus(buf, cid, tile, btype, True, mult, False)
    elif btype == C.PORT:
        add_population(buf, cid, tb.B_BONUS[btype] * mult, -1)
        _apply_bonus(buf, cid, tile, btype, False, mult, False)
    elif btype == C.CUSTOMS_HOUSE:
        _apply_bonus(buf, cid, tile, btype, False, mult, False)
    elif tb.B_TEMPLE[btype]:
        add_population(buf, cid, tb.B_BONUS[btype] * mult, -1)
        if negative:
            level = buf[pl(buf, P_TLVL) + tile]
            if level == 0:
                level = 1
            buf[so] -= tb.TEMPLE_CUM[level]
        else:
            buf[so] += tb.TEMPLE_POINTS[0]
    else:
        add_population(buf, cid, tb.B_BONUS[btype] * mult, -1)
        buf[so] += C.MONUMENT_POINTS * mult


@njit(cache=True)
def temple_turn(buf, tile):
    """``cities.temple_turn``."""
    lv = pl(buf, P_TLVL) + tile
    tu = pl(buf, P_TTURN) + tile
    level = buf[lv]
    if level >= 5:
        return 0
    turns = buf[tu] - 1
    if turns == 0:
        level += 1
        buf[lv] = level
        buf[tu] = C.TEMPLE_TURNS_TO_SCORE
        return tb.TEMPLE_POINTS[level - 1]
    buf[tu] = turns
    return 0


@njit(cache=True)
def do_level_up(buf, cid, choice):
    """``cities.do_level_up``."""
    o = rec(buf, cid)
    tribe = buf[o + C_TRIBE]
    to = tof(buf, tribe)
    bonus = tb.LU_CHOICES[min(buf[o + C_LEVEL], 4), choice]
    if tb.LU_LEVEL[bonus] == C.PARK_OF_FORTUNE_LEVEL:
        k = to + T_MON + C.PARK_OF_FORTUNE - MON0
        if buf[k] == C.MONUMENT_UNAVAILABLE:
            buf[k] = C.MONUMENT_AVAILABLE
    points = tb.LU_POINTS[bonus]
    buf[to + T_SCORE] += points
    buf[o + C_WORTH] += points
    buf[o + C_LEVEL] += 1
    buf[o + C_POP] -= buf[o + C_NEED]
    buf[o + C_NEED] = buf[o + C_LEVEL] + 1
    pos = buf[o + C_POS]
    if bonus == C.LU_WORKSHOP:
        add_production(buf, cid, C.CITY_LEVEL_UP_WORKSHOP_PROD)
    elif bonus == C.LU_EXPLORER:
        launch_explorer(buf, pos, tribe)
    elif bonus == C.LU_CITY_WALL:
        buf[o + C_WALLS] = 1
    elif bonus == C.LU_RESOURCES:
        add_stars(buf, tribe, C.CITY_LEVEL_UP_RESOURCES)
    elif bonus == C.LU_POP_GROWTH:
        add_population(buf, cid, C.CITY_LEVEL_UP_POP_GROWTH, -1)
    elif bonus == C.LU_BORDER_GROWTH:
        buf[o + C_BOUND] += 1
        assign_city_tiles(buf, cid, buf[o + C_BOUND])
    elif bonus == C.LU_PARK:
        buf[to + T_SCORE] += C.CITY_LEVEL_UP_PARK
        buf[o + C_WORTH] += C.CITY_LEVEL_UP_PARK
    else:
        occupant = buf[pl(buf, P_UNIT) + pos]
        if occupant:
            push_unit(buf, occupant)
        add_unit(buf, C.SUPERUNIT, tribe, pos, cid, -2, -2, 0, 0, C.FINISHED, -1)


@njit(cache=True)
def do_spawn(buf, cid, utype):
    """``cities.do_spawn``."""
    o = rec(buf, cid)
    tribe = buf[o + C_TRIBE]
    add_unit(buf, utype, tribe, buf[o + C_POS], cid, -2, -2, 0, 0, C.FINISHED, -1)
    to = tof(buf, tribe)
    buf[to + T_STARS] -= tb.U_COST[utype]
    buf[to + T_SCORE] += tb.U_POINTS[utype]


@njit(cache=True)
def do_build(buf, cid, tile, btype):
    """``cities.do_build``."""
    tribe = buf[rec(buf, cid) + C_TRIBE]
    to = tof(buf, tribe)
    buf[to + T_STARS] -= tb.B_COST[btype]
    buf[pl(buf, P_BLD) + tile] = btype
    buf[pl(buf, P_RES) + tile] = C.NO_RESOURCE
    if tb.B_TEMPLE[btype]:
        buf[pl(buf, P_TLVL) + tile] = 1
        buf[pl(buf, P_TTURN) + tile] = C.TEMPLE_TURNS_TO_SCORE
    building_effects(buf, cid, tile, btype, False)
    if btype == C.PORT:
        buf[pl(buf, P_NET) + tile] = 1
        update_network_all(buf)
    if C.ALTAR_OF_PEACE <= btype <= C.TOWER_OF_WISDOM:
        buf[to + T_MON + btype - MON0] = C.MONUMENT_BUILT
    if btype == C.LUMBER_HUT:
        buf[pl(buf, P_TER) + tile] = C.PLAIN


@njit(cache=True)
def do_destroy(buf, cid, tile):
    """``cities.do_destroy``."""
    btype = buf[pl(buf, P_BLD) + tile]
    buf[pl(buf, P_BLD) + tile] = C.NO_BUILDING
    if btype == C.PORT:
        buf[pl(buf, P_NET) + tile] = 0
        update_network_all(buf)
    building_effects(buf, cid, tile, btype, True)
    buf[pl(buf, P_TLVL) + tile] = 0
    buf[pl(buf, P_TTURN) + tile] = 0


@njit(cache=True)
def do_tile_action(buf, cid, tile, plane):
    """``cities.do_harvest`` and the forest actions (``plane``: the action's plane)."""
    tribe = buf[rec(buf, cid) + C_TRIBE]
    to = tof(buf, tribe)
    ter = pl(buf, P_TER) + tile
    res = pl(buf, P_RES) + tile
    if plane == tb.HARVEST:
        r = buf[res]
        buf[res] = C.NO_RESOURCE
        buf[to + T_STARS] -= tb.HARVEST_COST[r]
        if r == C.WHALES:
            add_stars(buf, tribe, tb.HARVEST_BONUS[r])
        else:
            add_population(buf, cid, tb.HARVEST_BONUS[r], -1)
    elif plane == tb.CLEAR_FOREST:
        buf[ter] = C.PLAIN
        add_stars(buf, tribe, C.CLEAR_FOREST_STARS)
    elif plane == tb.BURN_FOREST:
        buf[ter] = C.PLAIN
        buf[res] = C.CROPS
        buf[to + T_STARS] -= C.BURN_FOREST_COST
    else:
        buf[ter] = C.FOREST
        buf[res] = C.NO_RESOURCE
        buf[to + T_STARS] -= C.GROW_FOREST_COST
