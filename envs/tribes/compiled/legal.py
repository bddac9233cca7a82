"""The compiled legal action list: :mod:`stratagem.envs.tribes.legal` without its memos.

A port of ``legal`` and ``cities.city_actions``; the memos only remember, so the list
is the same without them.

The list is built per city, unit and tribe as the Python rules build it, then sorted, as
``TribesState.legal_action_list`` returns it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes.compiled import tables as tb
from stratagem.envs.tribes.compiled.engine import (
    MON0,
    pl,
    rec,
    research_cost,
    researchable,
    square,
    tof,
)
from stratagem.envs.tribes.compiled.layout import (
    C_LEVEL,
    C_NEED,
    C_NU,
    C_POP,
    C_POS,
    C_TRIBE,
    C_U0,
    H_N,
    H_OVER,
    H_PLAYER,
    H_SIZE,
    P_BLD,
    P_CITY,
    P_NET,
    P_RES,
    P_TER,
    P_UNIT,
    T_EX,
    T_MON,
    T_NEX,
    T_NTC,
    T_STARS,
    T_TC,
    T_TECHS,
    U_HP,
    U_KILLS,
    U_MAXHP,
    U_POS,
    U_STATUS,
    U_TRIBE,
    U_TYPE,
    U_VET,
)
from stratagem.envs.tribes.compiled.movement import reachable
from stratagem.envs.tribes.compiled.units import can_upgrade, heal_targets

FREE = -(1 << 30)


@njit(cache=True)
def baked_digest():
    """``tables.SOURCE_DIGEST`` as this module's machine code froze it (stale-cache check)."""
    return tb.SOURCE_DIGEST


@njit(cache=True)
def end_turn_action(buf):
    """The index of ``end_turn`` (the last action)."""
    return tb.NUM_PLANES * buf[H_N] + C.NUM_TECHS


@njit(cache=True)
def _city_actions(buf, cid, out, k):
    """``cities.city_actions`` (``city_options`` filtered by the stars): the new count."""
    n = buf[H_N]
    o = rec(buf, cid)
    tribe = buf[o + C_TRIBE]
    to = tof(buf, tribe)
    techs = buf[to + T_TECHS]
    stars = buf[to + T_STARS]
    pos = buf[o + C_POS]
    radius = 1 if buf[o + C_LEVEL] < 4 else 2
    sq = np.empty(32, dtype=np.int64)
    m = square(buf, pos, radius, sq, True)
    tiles = np.empty(32, dtype=np.int64)
    nt = 0
    tc = pl(buf, P_CITY)
    for i in range(m):
        if buf[tc + sq[i]] == cid:
            tiles[nt] = sq[i]
            nt += 1
    ter_p, res_p, bld_p = pl(buf, P_TER), pl(buf, P_RES), pl(buf, P_BLD)
    nb = np.empty(8, dtype=np.int64)
    for i in range(nt):
        tile = tiles[i]
        ter = buf[ter_p + tile]
        b_here = buf[bld_p + tile]
        if b_here < 0:
            res_here = buf[res_p + tile]
            for b in range(C.NUM_BUILDINGS):
                if not tb.B_TERRAIN[b, ter]:
                    continue
                tech = tb.B_TECH[b]
                if tech >= 0 and not techs >> tech & 1:
                    continue
                if b >= MON0 and buf[to + T_MON + b - MON0] != C.MONUMENT_AVAILABLE:
                    continue
                if tb.B_RES[b] >= 0 and res_here != tb.B_RES[b]:
                    continue
                adj = tb.B_ADJ[b]
                if adj >= 0:
                    found = False
                    mm = square(buf, tile, 1, nb, False)
                    for j in range(mm):
                        if buf[bld_p + nb[j]] == adj:
                            found = True
                    if not found:
                        continue
                if tb.B_UNIQUE[b]:
                    dup = False
                    for j in range(nt):
                        if buf[bld_p + tiles[j]] == b:
                            dup = True
                    if dup:
                        continue
                price = tb.B_COST[b] if tb.B_COST[b] > 0 else FREE
                if price <= stars:
                    out[k] = (tb.BUILD0 + b) * n + tile
                    k += 1
        elif techs >> C.CONSTRUCTION & 1:
            out[k] = tb.DESTROY * n + tile
            k += 1
        if ter == C.FOREST:
            if techs >> C.CHIVALRY & 1 and C.BURN_FOREST_COST <= stars:
                out[k] = tb.BURN_FOREST * n + tile
                k += 1
            if techs >> C.FORESTRY & 1:
                out[k] = tb.CLEAR_FOREST * n + tile
                k += 1
        elif ter == C.PLAIN and techs >> C.SPIRITUALISM & 1 and C.GROW_FOREST_COST <= stars:
            out[k] = tb.GROW_FOREST * n + tile
            k += 1
        res = buf[res_p + tile]
        if res >= 0 and tb.HARVEST_TECH[res] >= 0 and techs >> tb.HARVEST_TECH[res] & 1:
            if tb.HARVEST_COST[res] <= stars:
                out[k] = tb.HARVEST * n + tile
                k += 1
    if not buf[pl(buf, P_UNIT) + pos] and buf[o + C_NU] < buf[o + C_LEVEL] + 1:
        for i in range(len(tb.SPAWNABLE)):
            utype = tb.SPAWNABLE[i]
            tech = tb.U_TECH[utype]
            if (tech < 0 or techs >> tech & 1) and tb.U_COST[utype] <= stars:
                out[k] = (tb.SPAWN0 + i) * n + pos
                k += 1
    return k


@njit(cache=True)
def _unit_actions(buf, uid, out, k, zoc, enemy, reached):
    """``legal.unit_actions`` with its plan inlined: the new count."""
    n = buf[H_N]
    size = buf[H_SIZE]
    o = rec(buf, uid)
    utype = buf[o + U_TYPE]
    tribe = buf[o + U_TRIBE]
    pos = buf[o + U_POS]
    status = buf[o + U_STATUS]
    boat = utype == C.BOAT or utype == C.SHIP
    if boat and can_upgrade(buf, uid):
        out[k] = tb.UPGRADE * n + pos
        k += 1
    if status == C.FINISHED:
        return k
    techs = buf[tof(buf, tribe) + T_TECHS]
    attack_ok = tb.AFTER_ATTACK[utype, status] >= 0
    r0, c0 = pos // size, pos % size
    if attack_ok:
        radius = 1 if utype == C.MIND_BENDER else tb.U_RANGE[utype]
        sq = np.empty(64, dtype=np.int64)
        m = square(buf, pos, radius, sq, False)
        for i in range(m):
            tile = sq[i]
            if enemy[tile]:
                dr = tile // size - r0
                dc = tile % size - c0
                if utype == C.MIND_BENDER:
                    plane = tb.CONVERT_PLANE[(dr + 1) * 3 + dc + 1]
                else:
                    plane = tb.ATTACK_PLANE[(dr + 3) * 7 + dc + 3]
                out[k] = plane * n + pos
                k += 1
    if status == C.FRESH:
        ter = buf[pl(buf, P_TER) + pos]
        if ter == C.VILLAGE:
            out[k] = tb.CAPTURE * n + pos
            k += 1
        elif ter == C.CITY:
            cid = buf[pl(buf, P_CITY) + pos]
            if cid and buf[rec(buf, cid) + C_TRIBE] != tribe:
                out[k] = tb.CAPTURE * n + pos
                k += 1
        if techs >> C.FREE_SPIRIT & 1:
            out[k] = tb.DISBAND * n + pos
            k += 1
        if buf[pl(buf, P_RES) + pos] == C.RUINS and buf[tof(buf, tribe) + T_NTC]:
            out[k] = tb.EXAMINE * n + pos
            k += 1
    if buf[o + U_KILLS] >= C.VETERAN_KILLS and not buf[o + U_VET] and utype != C.SUPERUNIT:
        out[k] = tb.VETERAN * n + pos
        k += 1
    if status == C.FRESH and 0 < buf[o + U_HP] < buf[o + U_MAXHP]:
        out[k] = tb.RECOVER * n + pos
        k += 1
    if tb.AFTER_MOVE[utype, status] >= 0:
        reached[:] = 0
        reachable(buf, uid, zoc, enemy, reached)
        ua = pl(buf, P_UNIT)
        for tile in range(n):
            if reached[tile] and not buf[ua + tile]:
                dr = tile // size - r0
                dc = tile % size - c0
                out[k] = tb.MOVE_PLANE[(dr + 7) * 15 + dc + 7] * n + pos
                k += 1
    if utype == C.MIND_BENDER and attack_ok:
        targets = np.empty(8, dtype=np.int64)
        if heal_targets(buf, uid, targets):
            out[k] = tb.HEAL * n + pos
            k += 1
    return k


@njit(cache=True)
def legal_actions(buf, out):
    """``TribesState.legal_action_list`` into ``out`` (ascending): the count."""
    if buf[H_OVER]:
        return 0
    n = buf[H_N]
    t = buf[H_PLAYER]
    to = tof(buf, t)
    ntc = buf[to + T_NTC]
    for i in range(ntc):
        o = rec(buf, buf[to + T_TC + i])
        if buf[o + C_POP] >= buf[o + C_NEED]:
            pos = buf[o + C_POS]
            out[0] = tb.LEVEL_UP0 * n + pos
            out[1] = (tb.LEVEL_UP0 + 1) * n + pos
            return 2
    # the enemies and their zones of control
    enemy = np.zeros(n, dtype=np.uint8)
    zoc = np.zeros(n, dtype=np.uint8)
    ua = pl(buf, P_UNIT)
    nb = np.empty(8, dtype=np.int64)
    for tile in range(n):
        uid = buf[ua + tile]
        if uid and buf[rec(buf, uid) + U_TRIBE] != t:
            enemy[tile] = 1
            m = square(buf, tile, 1, nb, False)
            for j in range(m):
                zoc[nb[j]] = 1
    k = 0
    for i in range(ntc):
        k = _city_actions(buf, buf[to + T_TC + i], out, k)
    reached = np.zeros(n, dtype=np.uint8)
    for i in range(ntc):
        co = rec(buf, buf[to + T_TC + i])
        for j in range(buf[co + C_NU]):
            k = _unit_actions(buf, buf[co + C_U0 + j], out, k, zoc, enemy, reached)
    for i in range(buf[to + T_NEX]):
        k = _unit_actions(buf, buf[to + T_EX + i], out, k, zoc, enemy, reached)
    techs = buf[to + T_TECHS]
    stars = buf[to + T_STARS]
    if techs >> C.ROADS & 1 and stars >= C.ROAD_COST:
        ter_p, net_p, tc = pl(buf, P_TER), pl(buf, P_NET), pl(buf, P_CITY)
        for tile in range(n):
            ter = buf[ter_p + tile]
            if ter != C.PLAIN and ter != C.FOREST and ter != C.VILLAGE:
                continue
            if buf[net_p + tile] or enemy[tile]:
                continue
            cid = buf[tc + tile]
            if cid and buf[rec(buf, cid) + C_TRIBE] != t:
                continue
            out[k] = tb.BUILD_ROAD * n + tile
            k += 1
    for tech in range(C.NUM_TECHS):
        if researchable(techs, tech) and research_cost(buf, t, tech) <= stars:
            out[k] = tb.NUM_PLANES * n + tech
            k += 1
    out[k] = end_turn_action(buf)
    k += 1
    out[:k].sort()
    return k
