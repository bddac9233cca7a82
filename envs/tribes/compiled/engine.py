"""The compiled rules' core: buffer access, unit bookkeeping, vision, the economy's basics.

A line-for-line port of the bookkeeping of :mod:`stratagem.envs.tribes.units` and the basics of
:mod:`stratagem.envs.tribes.cities` (stars, population, research) over the flat buffer of
:mod:`.layout`, full observability only (every tile seen: meeting tribes draws nothing). Each
function names the Python function it mirrors; ``tests/test_tribes_compiled.py`` checks them
all against the readable rules at every decision of random games.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes.compiled import rng
from stratagem.envs.tribes.compiled import tables as tb
from stratagem.envs.tribes.compiled.layout import (
    C_LEVEL,
    C_NU,
    C_POP,
    C_TRIBE,
    C_U0,
    C_WORTH,
    ERR_CITY_UNITS,
    ERR_IDS,
    ERR_LISTS,
    H_ERR,
    H_N,
    H_NEXTID,
    H_NT,
    H_RNG,
    H_SIZE,
    HEADER,
    KIND_UNIT,
    MAXCU,
    MAXEX,
    MAXID,
    NPLANES,
    P_CITY,
    P_TER,
    P_UNIT,
    R_KIND,
    RW,
    T_EX,
    T_MET,
    T_MON,
    T_NEX,
    T_NTC,
    T_SCORE,
    T_STARS,
    T_TC,
    T_TECHS,
    TW,
    U_BASE,
    U_CITY,
    U_HP,
    U_KILLS,
    U_MAXHP,
    U_POS,
    U_STATUS,
    U_TRIBE,
    U_TYPE,
    U_VET,
)

MON0 = C.ALTAR_OF_PEACE


@njit(cache=True)
def baked_digest():
    """``tables.SOURCE_DIGEST`` as this module's machine code froze it (stale-cache check)."""
    return tb.SOURCE_DIGEST


@njit(cache=True, inline="always")
def pl(buf, plane):
    """Offset of a per-tile plane."""
    return HEADER + plane * buf[H_N]


@njit(cache=True, inline="always")
def tof(buf, t):
    """Offset of tribe ``t``'s record."""
    return HEADER + NPLANES * buf[H_N] + t * TW


@njit(cache=True, inline="always")
def rec(buf, i):
    """Offset of id ``i``'s record (unit or city)."""
    return HEADER + NPLANES * buf[H_N] + 4 * TW + i * RW


@njit(cache=True)
def square(buf, center, radius, out, centre_last):
    """``Geo.square_nc`` (reading order), with the centre appended if ``centre_last``."""
    size = buf[H_SIZE]
    r0 = center // size
    c0 = center % size
    k = 0
    for r in range(r0 - radius, r0 + radius + 1):
        if r < 0 or r >= size:
            continue
        for c in range(c0 - radius, c0 + radius + 1):
            if c < 0 or c >= size or (r == r0 and c == c0):
                continue
            out[k] = r * size + c
            k += 1
    if centre_last:
        out[k] = center
        k += 1
    return k


@njit(cache=True)
def dist(buf, a, b):
    """Chebyshev distance (``Geo.dist``)."""
    size = buf[H_SIZE]
    return max(abs(a // size - b // size), abs(a % size - b % size))


@njit(cache=True)
def list_remove(buf, start, count_at, value):
    """Remove ``value`` from the list at ``start`` (length at ``count_at``); True if found."""
    m = buf[count_at]
    for i in range(m):
        if buf[start + i] == value:
            for j in range(i, m - 1):
                buf[start + j] = buf[start + j + 1]
            buf[start + m - 1] = 0
            buf[count_at] = m - 1
            return True
    return False


@njit(cache=True)
def list_append(buf, start, count_at, cap, value):
    """Append to a fixed-capacity list; sets the error code when it is full."""
    m = buf[count_at]
    if m >= cap:
        buf[H_ERR] = ERR_LISTS
        return
    buf[start + m] = value
    buf[count_at] = m + 1


@njit(cache=True)
def city_of_tribe(buf, cid, t):
    """``cid`` is a city of tribe ``t`` (``city is not None and city[C_TRIBE] == t``)."""
    return cid != 0 and buf[rec(buf, cid) + C_TRIBE] == t


# ------------------------------------------------------------------ economy basics (cities)


@njit(cache=True)
def add_stars(buf, t, stars):
    """``cities.add_stars``."""
    o = tof(buf, t)
    buf[o + T_STARS] += stars
    k = o + T_MON + C.EMPERORS_TOMB - MON0
    if buf[o + T_STARS] >= C.EMPERORS_TOMB_STARS and buf[k] == C.MONUMENT_UNAVAILABLE:
        buf[k] = C.MONUMENT_AVAILABLE


@njit(cache=True)
def add_population(buf, cid, value, tribe):
    """``cities.add_population`` (``tribe`` -1: the city's owner)."""
    o = rec(buf, cid)
    if buf[o + C_POP] + value < -buf[o + C_LEVEL]:
        value = -buf[o + C_LEVEL] - buf[o + C_POP]
    buf[o + C_POP] += value
    who = buf[o + C_TRIBE] if tribe < 0 else tribe
    buf[tof(buf, who) + T_SCORE] += value * C.POINTS_PER_POPULATION
    buf[o + C_WORTH] += value * C.POINTS_PER_POPULATION


@njit(cache=True)
def research(buf, t, tech, cost):
    """``cities.research``."""
    o = tof(buf, t)
    buf[o + T_STARS] -= cost
    buf[o + T_TECHS] |= 1 << tech
    if buf[o + T_TECHS] & C.ALL_TECHS_MASK == C.ALL_TECHS_MASK:
        k = o + T_MON + C.TOWER_OF_WISDOM - MON0
        if buf[k] == C.MONUMENT_UNAVAILABLE:
            buf[k] = C.MONUMENT_AVAILABLE


@njit(cache=True)
def research_cost(buf, t, tech):
    """``techtree.research_cost``."""
    o = tof(buf, t)
    cost = C.TECH_BASE_COST + tb.TECH_TIER[tech] * buf[o + T_NTC]
    if buf[o + T_TECHS] >> C.PHILOSOPHY & 1:
        cost = np.int64(cost * C.TECH_DISCOUNT_VALUE)
    return cost


@njit(cache=True)
def researchable(techs, tech):
    """``techtree.researchable``."""
    if techs >> tech & 1:
        return False
    parent = tb.TECH_PARENT[tech]
    return parent < 0 or (techs >> parent & 1) == 1


# ------------------------------------------------------------------ unit bookkeeping


@njit(cache=True)
def add_unit(buf, utype, tribe, pos, city, hp, max_hp, kills, vet, status, base):
    """``units.new_unit`` + ``units.add_unit``: the new id (0 and the error code if full)."""
    uid = buf[H_NEXTID]
    if uid >= MAXID:
        buf[H_ERR] = ERR_IDS
        return 0
    buf[H_NEXTID] = uid + 1
    if max_hp == -2:
        max_hp = tb.U_MAXHP[utype]
    if hp == -2:
        hp = max_hp
    o = rec(buf, uid)
    buf[o + R_KIND] = KIND_UNIT
    buf[o + U_TYPE] = utype
    buf[o + U_TRIBE] = tribe
    buf[o + U_POS] = pos
    buf[o + U_HP] = hp
    buf[o + U_MAXHP] = max_hp
    buf[o + U_KILLS] = kills
    buf[o + U_VET] = vet
    buf[o + U_CITY] = city
    buf[o + U_STATUS] = status
    buf[o + U_BASE] = base
    buf[pl(buf, P_UNIT) + pos] = uid
    if city:
        co = rec(buf, city)
        if buf[co + C_NU] < buf[co + C_LEVEL] + 1:
            if buf[co + C_NU] >= MAXCU:
                buf[H_ERR] = ERR_CITY_UNITS
                return uid
            list_append(buf, co + C_U0, co + C_NU, MAXCU, uid)
            return uid
        buf[o + U_CITY] = 0
    to = tof(buf, tribe)
    list_append(buf, to + T_EX, to + T_NEX, MAXEX, uid)
    return uid


@njit(cache=True)
def detach_unit(buf, uid):
    """``units.detach_unit``."""
    o = rec(buf, uid)
    cid = buf[o + U_CITY]
    if cid:
        co = rec(buf, cid)
        if list_remove(buf, co + C_U0, co + C_NU, uid):
            return
    to = tof(buf, buf[o + U_TRIBE])
    list_remove(buf, to + T_EX, to + T_NEX, uid)


@njit(cache=True)
def remove_unit(buf, uid):
    """``units.remove_unit`` (the record is zeroed, as the id leaves ``units``)."""
    o = rec(buf, uid)
    u = pl(buf, P_UNIT) + buf[o + U_POS]
    if buf[u] == uid:
        buf[u] = 0
    detach_unit(buf, uid)
    for k in range(RW):
        buf[o + k] = 0


@njit(cache=True)
def kill_unit(buf, uid):
    """``units.kill_unit``."""
    o = rec(buf, uid)
    buf[tof(buf, buf[o + U_TRIBE]) + T_SCORE] -= tb.U_POINTS[buf[o + U_TYPE]]
    remove_unit(buf, uid)


@njit(cache=True)
def tribe_units(buf, t, out):
    """``units.tribe_units`` into ``out``: the count."""
    to = tof(buf, t)
    k = 0
    for i in range(buf[to + T_NTC]):
        co = rec(buf, buf[to + T_TC + i])
        for j in range(buf[co + C_NU]):
            out[k] = buf[co + C_U0 + j]
            k += 1
    for i in range(buf[to + T_NEX]):
        out[k] = buf[to + T_EX + i]
        k += 1
    return k


# ------------------------------------------------------------------ vision


@njit(cache=True)
def clear_view(buf, tribe, center, radius):
    """``units.clear_view`` with full observability: the tribes seen there meet."""
    nt = buf[H_NT]
    to = tof(buf, tribe)
    if buf[to + T_MET] | (1 << tribe) == (1 << nt) - 1:
        return
    tiles = np.empty(64, dtype=np.int64)
    m = square(buf, center, radius, tiles, True)
    ua = pl(buf, P_UNIT)
    tc = pl(buf, P_CITY)
    for i in range(m):
        tile = tiles[i]
        uid = buf[ua + tile]
        if uid:
            other = buf[rec(buf, uid) + U_TRIBE]
            if other != tribe:
                buf[to + T_MET] |= 1 << other
                buf[tof(buf, other) + T_MET] |= 1 << tribe
        cid = buf[tc + tile]
        if cid:
            other = buf[rec(buf, cid) + C_TRIBE]
            if other != tribe:
                buf[to + T_MET] |= 1 << other
                buf[tof(buf, other) + T_MET] |= 1 << tribe


@njit(cache=True)
def move_unit_to(buf, uid, dest):
    """``units.move_unit_to``."""
    o = rec(buf, uid)
    ua = pl(buf, P_UNIT)
    buf[ua + buf[o + U_POS]] = 0
    buf[ua + dest] = uid
    buf[o + U_POS] = dest
    radius = 1
    if buf[pl(buf, P_TER) + dest] == C.MOUNTAIN or buf[o + U_TYPE] == C.BATTLESHIP:
        radius = 2
    clear_view(buf, buf[o + U_TRIBE], dest, radius)


@njit(cache=True)
def traversable(buf, tile, tribe):
    """``units.traversable``."""
    ter = buf[pl(buf, P_TER) + tile]
    techs = buf[tof(buf, tribe) + T_TECHS]
    if ter == C.MOUNTAIN:
        return techs >> C.CLIMBING & 1 == 1
    if ter == C.SHALLOW_WATER:
        return techs >> C.SAILING & 1 == 1
    if ter == C.DEEP_WATER:
        return techs >> C.NAVIGATION & 1 == 1
    return True


@njit(cache=True)
def launch_explorer(buf, start, tribe):
    """``units.launch_explorer``: 15 random steps (the state's generator)."""
    nb = np.empty(8, dtype=np.int64)
    pos = start
    for _ in range(C.EXPLORER_STEPS):
        for _ in range(C.EXPLORER_STEPS * 3):
            m = square(buf, pos, 1, nb, False)
            nxt = nb[rng.randint(buf, H_RNG, m)]
            if traversable(buf, nxt, tribe):
                pos = nxt
                clear_view(buf, tribe, pos, 1)
                break
