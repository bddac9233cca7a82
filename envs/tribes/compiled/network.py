"""The compiled trade network: a port of ``cities.update_network_tribe`` (full observability).

Which cities of a tribe connect to its capital by roads, cities and port links (ports within
four navigable water steps of each other), and the population each joining or leaving city
brings or costs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes.compiled import tables as tb
from stratagem.envs.tribes.compiled.engine import (
    MON0,
    add_population,
    list_append,
    list_remove,
    pl,
    rec,
    square,
    tof,
)
from stratagem.envs.tribes.compiled.layout import (
    C_BOUND,
    C_POS,
    C_TRIBE,
    H_N,
    H_NT,
    H_PLAYER,
    MAXCONN,
    P_BLD,
    P_CITY,
    P_NET,
    P_TER,
    T_CAP,
    T_CONN,
    T_MON,
    T_NCONN,
    T_NTC,
    T_TC,
)


@njit(cache=True)
def baked_digest():
    """``tables.SOURCE_DIGEST`` as this module's machine code froze it (stale-cache check)."""
    return tb.SOURCE_DIGEST


@njit(cache=True)
def controls_capital(buf, t):
    """``cities.controls_capital``."""
    cap = buf[tof(buf, t) + T_CAP]
    return cap != 0 and buf[rec(buf, cap) + C_TRIBE] == t


@njit(cache=True)
def city_buildings(buf, cid, out):
    """``cities.city_buildings`` into ``out``: the count."""
    o = rec(buf, cid)
    tiles = np.empty(128, dtype=np.int64)
    m = square(buf, buf[o + C_POS], max(2, buf[o + C_BOUND]), tiles, True)
    tc = pl(buf, P_CITY)
    bl = pl(buf, P_BLD)
    k = 0
    for i in range(m):
        t = tiles[i]
        if buf[tc + t] == cid and buf[bl + t] >= 0:
            out[k] = t
            k += 1
    return k


@njit(cache=True)
def _owner_ok(buf, t, tribe):
    cid = buf[pl(buf, P_CITY) + t]
    if not cid:
        return 2
    return 1 if buf[rec(buf, cid) + C_TRIBE] == tribe else 0


@njit(cache=True)
def _in_network(buf, t, tribe):
    if not buf[pl(buf, P_NET) + t]:
        return False
    ok = _owner_ok(buf, t, tribe)
    if not ok:
        return False
    ter = buf[pl(buf, P_TER) + t]
    if ok == 1 and (ter == C.CITY or buf[pl(buf, P_BLD) + t] == C.PORT):
        return True
    return ter != C.SHALLOW_WATER and ter != C.DEEP_WATER and ter != C.CITY


@njit(cache=True)
def _water_reach(buf, start, tribe, seen, mark):
    """``cities._water_reach``: ``seen[t] == mark`` for the tiles reached."""
    n = buf[H_N]
    frontier = np.empty(n, dtype=np.int64)
    nxt = np.empty(n, dtype=np.int64)
    nb = np.empty(8, dtype=np.int64)
    seen[start] = mark
    frontier[0] = start
    nf = 1
    ter = pl(buf, P_TER)
    for _ in range(C.PORT_TRADE_DISTANCE):
        nn = 0
        for i in range(nf):
            m = square(buf, frontier[i], 1, nb, False)
            for j in range(m):
                t = nb[j]
                tt = buf[ter + t]
                if seen[t] != mark and (tt == C.SHALLOW_WATER or tt == C.DEEP_WATER):
                    if _owner_ok(buf, t, tribe) > 0:
                        seen[t] = mark
                        nxt[nn] = t
                        nn += 1
        for i in range(nn):
            frontier[i] = nxt[i]
        nf = nn


@njit(cache=True)
def update_network_tribe(buf, tribe):
    """``cities.update_network_tribe`` (the state is native: every tribe is updated)."""
    to = tof(buf, tribe)
    if not controls_capital(buf, tribe):
        for i in range(buf[to + T_NCONN]):
            buf[to + T_CONN + i] = 0
        buf[to + T_NCONN] = 0
        return
    ntc = buf[to + T_NTC]
    if ntc == 1 and buf[to + T_NCONN] == 0:
        return
    n = buf[H_N]
    ports = np.empty(n, dtype=np.int64)
    np_ = 0
    bt = np.empty(128, dtype=np.int64)
    for i in range(ntc):
        m = city_buildings(buf, buf[to + T_TC + i], bt)
        for j in range(m):
            if buf[pl(buf, P_BLD) + bt[j]] == C.PORT:
                ports[np_] = bt[j]
                np_ += 1
    # links[i, j]: ports i and j are within reach of each other
    links = np.zeros((np_, np_), dtype=np.uint8)
    reach = np.zeros(n, dtype=np.int64)
    for i in range(np_ - 1):
        _water_reach(buf, ports[i], tribe, reach, i + 1)
        for j in range(i + 1, np_):
            if reach[ports[j]] == i + 1:
                links[i, j] = 1
                links[j, i] = 1
    port_index = np.full(n, -1, dtype=np.int64)
    for i in range(np_):
        port_index[ports[i]] = i
    cap_id = buf[to + T_CAP]
    start = buf[rec(buf, cap_id) + C_POS]
    seen = np.zeros(n, dtype=np.uint8)
    stack = np.empty(n, dtype=np.int64)
    seen[start] = 1
    stack[0] = start
    ns = 1
    nb = np.empty(8, dtype=np.int64)
    while ns:
        ns -= 1
        t = stack[ns]
        m = square(buf, t, 1, nb, False)
        for j in range(m):
            x = nb[j]
            if not seen[x] and _in_network(buf, x, tribe):
                seen[x] = 1
                stack[ns] = x
                ns += 1
        pi = port_index[t]
        if pi >= 0:
            for j in range(np_):
                if links[pi, j] and not seen[ports[j]]:
                    seen[ports[j]] = 1
                    stack[ns] = ports[j]
                    ns += 1
    added = np.empty(ntc, dtype=np.int64)
    na = 0
    lost = 0
    for i in range(ntc):
        cid = buf[to + T_TC + i]
        if cid == cap_id:
            continue
        now = seen[buf[rec(buf, cid) + C_POS]] == 1
        inside = False
        for k in range(buf[to + T_NCONN]):
            if buf[to + T_CONN + k] == cid:
                inside = True
        if inside:
            if not now:
                list_remove(buf, to + T_CONN, to + T_NCONN, cid)
                add_population(buf, cid, -1, tribe)
                lost += 1
        elif now:
            list_append(buf, to + T_CONN, to + T_NCONN, MAXCONN, cid)
            added[na] = cid
            na += 1
    k = 0
    while k < buf[to + T_NCONN]:
        cid = buf[to + T_CONN + k]
        if buf[rec(buf, cid) + C_TRIBE] != tribe:
            list_remove(buf, to + T_CONN, to + T_NCONN, cid)
            add_population(buf, cid, -1, tribe)
            lost += 1
        else:
            k += 1
    if na or lost:
        add_population(buf, cap_id, na - lost, tribe)
    mk = to + T_MON + C.GRAND_BAZAR - MON0
    if buf[to + T_NCONN] >= C.GRAND_BAZAR_CITIES and buf[mk] == C.MONUMENT_UNAVAILABLE:
        buf[mk] = C.MONUMENT_AVAILABLE
    if tribe == buf[H_PLAYER]:
        for i in range(na):
            add_population(buf, added[i], 1, tribe)


@njit(cache=True)
def update_network_all(buf):
    """``cities.update_network_all``."""
    for t in range(buf[H_NT]):
        update_network_tribe(buf, t)
