"""The compiled capture and ruins: ``cities.capture`` and ``units.do_examine``.

With the explorer, the two actions that draw from the state's generator (re-homing units of
a captured city, the bonus of ruins), so they follow the Python draws one for one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes.compiled import rng
from stratagem.envs.tribes.compiled import tables as tb
from stratagem.envs.tribes.compiled.cities import add_population, assign_city_tiles
from stratagem.envs.tribes.compiled.engine import (
    MON0,
    add_stars,
    add_unit,
    clear_view,
    launch_explorer,
    list_append,
    list_remove,
    pl,
    rec,
    research,
    researchable,
    tof,
    tribe_units,
)
from stratagem.envs.tribes.compiled.layout import (
    C_BOUND,
    C_LEVEL,
    C_NEED,
    C_NU,
    C_POS,
    C_TRIBE,
    C_U0,
    C_WORTH,
    ERR_CITY_UNITS,
    ERR_IDS,
    H_ERR,
    H_NEXTID,
    H_RNG,
    KIND_CITY,
    MAXEX,
    MAXID,
    MAXTC,
    P_BLD,
    P_CITY,
    P_NET,
    P_RES,
    P_TER,
    P_UNIT,
    R_KIND,
    RW,
    T_CAP,
    T_EX,
    T_NEX,
    T_NTC,
    T_RESULT,
    T_SCORE,
    T_TC,
    T_TECHS,
    U_CITY,
    U_POS,
    U_STATUS,
    U_TRIBE,
)
from stratagem.envs.tribes.compiled.network import (
    city_buildings,
    controls_capital,
    update_network_all,
)
from stratagem.envs.tribes.compiled.units import push_unit


@njit(cache=True)
def baked_digest():
    """``tables.SOURCE_DIGEST`` as this module's machine code froze it (stale-cache check)."""
    return tb.SOURCE_DIGEST


@njit(cache=True)
def _move_last_unit(buf, src, dst):
    """``cities._move_last_unit``."""
    so = rec(buf, src)
    m = buf[so + C_NU]
    uid = buf[so + C_U0 + m - 1]
    buf[so + C_U0 + m - 1] = 0
    buf[so + C_NU] = m - 1
    do = rec(buf, dst)
    uo = rec(buf, uid)
    if buf[do + C_NU] < buf[do + C_LEVEL] + 1:
        if buf[do + C_NU] >= RW - C_U0:
            buf[H_ERR] = ERR_CITY_UNITS
            return
        buf[do + C_U0 + buf[do + C_NU]] = uid
        buf[do + C_NU] += 1
        buf[uo + U_CITY] = dst
    else:
        buf[uo + U_CITY] = 0
        to = tof(buf, buf[uo + U_TRIBE])
        list_append(buf, to + T_EX, to + T_NEX, MAXEX, uid)


@njit(cache=True)
def _can_add(buf, cid):
    o = rec(buf, cid)
    return buf[o + C_NU] < buf[o + C_LEVEL] + 1


@njit(cache=True)
def _others_shuffled(buf, tribe, out):
    """``s.shuffled([c for c in tcities if c != capital])`` into ``out``: the count."""
    to = tof(buf, tribe)
    cap = buf[to + T_CAP]
    k = 0
    for i in range(buf[to + T_NTC]):
        c = buf[to + T_TC + i]
        if c != cap:
            out[k] = c
            k += 1
    if k > 1:
        order = np.arange(k)
        rng.shuffle(buf, H_RNG, order, k)
        copy = out[:k].copy()
        for i in range(k):
            out[i] = copy[order[i]]
    return k


@njit(cache=True)
def move_one_to_new_city(buf, cid, tribe):
    """``cities.move_one_to_new_city``."""
    cap = buf[tof(buf, tribe) + T_CAP]
    if controls_capital(buf, tribe) and buf[rec(buf, cap) + C_NU]:
        _move_last_unit(buf, cap, cid)
        return
    others = np.empty(MAXTC, dtype=np.int64)
    k = _others_shuffled(buf, tribe, others)
    for i in range(k):
        if buf[rec(buf, others[i]) + C_NU]:
            _move_last_unit(buf, others[i], cid)
            return


@njit(cache=True)
def move_all_from_city(buf, cid, tribe):
    """``cities.move_all_from_city``."""
    src = rec(buf, cid)
    cap = buf[tof(buf, tribe) + T_CAP]
    if controls_capital(buf, tribe):
        while _can_add(buf, cap) and buf[src + C_NU]:
            _move_last_unit(buf, cid, cap)
    if buf[src + C_NU]:
        others = np.empty(MAXTC, dtype=np.int64)
        k = _others_shuffled(buf, tribe, others)
        for i in range(k):
            while _can_add(buf, others[i]) and buf[src + C_NU]:
                _move_last_unit(buf, cid, others[i])
        to = tof(buf, tribe)
        for j in range(buf[src + C_NU]):
            uid = buf[src + C_U0 + j]
            buf[rec(buf, uid) + U_CITY] = 0
            list_append(buf, to + T_EX, to + T_NEX, MAXEX, uid)
            buf[src + C_U0 + j] = 0
        buf[src + C_NU] = 0


@njit(cache=True)
def found_city(buf, tribe, pos):
    """``cities.found_city``: the new city's id (0 and the error code if ids ran out)."""
    cid = buf[H_NEXTID]
    if cid >= MAXID:
        buf[H_ERR] = ERR_IDS
        return 0
    buf[H_NEXTID] = cid + 1
    o = rec(buf, cid)
    buf[o + R_KIND] = KIND_CITY
    buf[o + C_POS] = pos
    buf[o + C_TRIBE] = tribe
    buf[o + C_LEVEL] = 1
    buf[o + C_NEED] = 2
    buf[o + C_BOUND] = 1
    to = tof(buf, tribe)
    list_append(buf, to + T_TC, to + T_NTC, MAXTC, cid)
    clear_view(buf, tribe, pos, C.NEW_CITY_CLEAR_RANGE)
    buf[pl(buf, P_NET) + pos] = 1
    return cid


@njit(cache=True)
def release_tile(buf, tile):
    """``cities.release_tile``."""
    tc = pl(buf, P_CITY) + tile
    cid = buf[tc]
    if not cid:
        return
    buf[tc] = 0
    o = rec(buf, cid)
    buf[tof(buf, buf[o + C_TRIBE]) + T_SCORE] -= C.CITY_BORDER_POINTS
    buf[o + C_WORTH] -= C.CITY_BORDER_POINTS


@njit(cache=True)
def eliminate(buf, tribe):
    """``cities.eliminate``."""
    to = tof(buf, tribe)
    buf[to + T_RESULT] = C.LOSS
    ids = np.empty(MAXID, dtype=np.int64)
    m = tribe_units(buf, tribe, ids)
    ua = pl(buf, P_UNIT)
    for i in range(m):
        o = rec(buf, ids[i])
        if buf[ua + buf[o + U_POS]] == ids[i]:
            buf[ua + buf[o + U_POS]] = 0
        for k in range(RW):
            buf[o + k] = 0
    for i in range(buf[to + T_NTC]):
        co = rec(buf, buf[to + T_TC + i])
        for j in range(buf[co + C_NU]):
            buf[co + C_U0 + j] = 0
        buf[co + C_NU] = 0
    for i in range(buf[to + T_NEX]):
        buf[to + T_EX + i] = 0
    buf[to + T_NEX] = 0


@njit(cache=True)
def capture(buf, uid):
    """``cities.capture``."""
    uo = rec(buf, uid)
    tribe = buf[uo + U_TRIBE]
    pos = buf[uo + U_POS]
    buf[uo + U_STATUS] = C.FINISHED
    ter = pl(buf, P_TER) + pos
    if buf[ter] == C.VILLAGE:
        release_tile(buf, pos)
        cid = found_city(buf, tribe, pos)
        if cid == 0:
            return
        assign_city_tiles(buf, cid, buf[rec(buf, cid) + C_BOUND])
        buf[ter] = C.CITY
        move_one_to_new_city(buf, cid, tribe)
    else:
        cid = buf[pl(buf, P_CITY) + pos]
        o = rec(buf, cid)
        prev = buf[o + C_TRIBE]
        to = tof(buf, tribe)
        po = tof(buf, prev)
        buf[po + T_SCORE] -= buf[o + C_WORTH]
        buf[to + T_SCORE] += buf[o + C_WORTH]
        list_append(buf, to + T_TC, to + T_NTC, MAXTC, cid)
        buf[o + C_TRIBE] = tribe
        bt = np.empty(128, dtype=np.int64)
        m = city_buildings(buf, cid, bt)
        for i in range(m):
            b = buf[pl(buf, P_BLD) + bt[i]]
            if tb.B_TEMPLE[b]:
                buf[to + T_SCORE] += tb.TEMPLE_POINTS[0]
            elif b >= MON0:
                buf[to + T_SCORE] += C.MONUMENT_POINTS
        list_remove(buf, po + T_TC, po + T_NTC, cid)
        move_all_from_city(buf, cid, prev)
        move_one_to_new_city(buf, cid, tribe)
        if buf[po + T_NTC] == 0:
            eliminate(buf, prev)
    buf[pl(buf, P_NET) + pos] = 1
    update_network_all(buf)


@njit(cache=True)
def do_examine(buf, uid):
    """``units.do_examine``: the bonus drawn."""
    uo = rec(buf, uid)
    tribe = buf[uo + U_TRIBE]
    pos = buf[uo + U_POS]
    to = tof(buf, tribe)
    handler = buf[to + T_CAP] if controls_capital(buf, tribe) else buf[to + T_TC]
    techs = buf[to + T_TECHS]
    all_tech = techs & C.ALL_TECHS_MASK == C.ALL_TECHS_MASK
    bonus = rng.randint(buf, H_RNG, 5)
    while all_tech and bonus == C.EX_RESEARCH:
        bonus = rng.randint(buf, H_RNG, 5)
    res = pl(buf, P_RES) + pos
    if bonus == C.EX_SUPERUNIT:
        water = buf[pl(buf, P_TER) + pos] in (C.SHALLOW_WATER, C.DEEP_WATER)
        pushed = push_unit(buf, uid)
        if pushed:
            buf[rec(buf, pushed) + U_STATUS] = C.FINISHED
        if water:
            hp = tb.U_MAXHP[C.WARRIOR]
            add_unit(buf, C.BATTLESHIP, tribe, pos, 0, hp, hp, 0, 0, C.FINISHED, C.WARRIOR)
        else:
            add_unit(buf, C.SUPERUNIT, tribe, pos, 0, -2, -2, 0, 0, C.FINISHED, -1)
        buf[res] = C.NO_RESOURCE
        return bonus
    if bonus == C.EX_RESEARCH:
        options = np.empty(C.NUM_TECHS, dtype=np.int64)
        k = 0
        for t in range(C.NUM_TECHS):
            if researchable(techs, t):
                options[k] = t
                k += 1
        if k:
            research(buf, tribe, options[rng.randint(buf, H_RNG, k)], 0)
    elif bonus == C.EX_POP_GROWTH:
        add_population(buf, handler, C.EXAMINE_POP_GROWTH, -1)
    elif bonus == C.EX_EXPLORER:
        launch_explorer(buf, pos, tribe)
    else:
        add_stars(buf, tribe, C.EXAMINE_RESOURCES)
    buf[res] = C.NO_RESOURCE
    buf[uo + U_STATUS] = C.FINISHED
    return bonus
