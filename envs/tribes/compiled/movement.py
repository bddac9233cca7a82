"""The compiled move search: a port of :mod:`stratagem.envs.tribes.movement`.

``reachable`` fills a per-tile mark array with the tiles a unit can reach this move (its own
tile left out), by the three paths of the Python rules: one step off roads, one point on a road
(``_reach_one``) and the Dijkstra search over the reference's step costs (``move_costs``). The
search's costs are the same float operations, so the reached set is the same.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes.compiled import tables as tb
from stratagem.envs.tribes.compiled.engine import city_of_tribe, pl, rec, square, tof
from stratagem.envs.tribes.compiled.layout import (
    H_N,
    P_BLD,
    P_CITY,
    P_NET,
    P_TER,
    T_TECHS,
    U_POS,
    U_TRIBE,
    U_TYPE,
)


@njit(cache=True)
def baked_digest():
    """``tables.SOURCE_DIGEST`` as this module's machine code froze it (stale-cache check)."""
    return tb.SOURCE_DIGEST


@njit(cache=True)
def step_kind(utype, techs, ter):
    """``movement._step_kinds``: 0 never, 1 full, 2 ends the move, 3 port only, 4 own city."""
    climb = techs >> C.CLIMBING & 1
    if tb.U_WATER[utype]:
        if ter == C.SHALLOW_WATER:
            return 1 if techs >> C.SAILING & 1 else 0
        if ter == C.DEEP_WATER:
            return 1 if techs >> C.NAVIGATION & 1 else 0
        if ter == C.FOG:
            return 1
        if ter == C.MOUNTAIN:
            return 2 if climb else 0
        return 2
    if ter == C.PLAIN or ter == C.VILLAGE or ter == C.FOG:
        return 1
    if ter == C.CITY:
        return 4 if utype == C.MIND_BENDER else 1
    if ter == C.FOREST:
        return 2
    if ter == C.MOUNTAIN:
        return 2 if climb else 0
    if ter == C.SHALLOW_WATER:
        return 3 if techs >> C.SAILING & 1 else 0
    return 3 if techs >> C.NAVIGATION & 1 else 0


@njit(cache=True)
def _passable_kind(buf, tile, utype, techs, tribe, enemy):
    """``movement._passable`` for one tile: its step kind, 0 if it cannot be entered."""
    if enemy[tile]:
        return 0
    kind = step_kind(utype, techs, buf[pl(buf, P_TER) + tile])
    if kind == 3:
        if buf[pl(buf, P_BLD) + tile] != C.PORT:
            return 0
    elif kind == 4:
        if not city_of_tribe(buf, buf[pl(buf, P_CITY) + tile], tribe):
            return 0
    return kind


@njit(cache=True)
def on_road(buf, tile, tribe):
    """``movement._on_road``."""
    ter = buf[pl(buf, P_TER) + tile]
    if ter == C.CITY or (
        buf[pl(buf, P_NET) + tile] and ter != C.SHALLOW_WATER and ter != C.DEEP_WATER
    ):
        cid = buf[pl(buf, P_CITY) + tile]
        return cid == 0 or city_of_tribe(buf, cid, tribe)
    return False


@njit(cache=True)
def _reach_one(buf, uid, zoc, enemy, reached):
    """``movement._reach_one``: ``reached[t] = 1`` for the tiles reached."""
    o = rec(buf, uid)
    tribe, start, utype = buf[o + U_TRIBE], buf[o + U_POS], buf[o + U_TYPE]
    techs = buf[tof(buf, tribe) + T_TECHS]
    nb = np.empty(8, dtype=np.int64)
    nb2 = np.empty(8, dtype=np.int64)
    m = square(buf, start, 1, nb, False)
    further = np.zeros(buf[H_N], dtype=np.uint8)
    ter = pl(buf, P_TER)
    net = pl(buf, P_NET)
    for i in range(m):
        tile = nb[i]
        kind = _passable_kind(buf, tile, utype, techs, tribe, enemy)
        if kind == 0:
            continue
        reached[tile] = 1
        if not zoc[tile] and (buf[ter + tile] == C.CITY or (buf[net + tile] and kind != 3)):
            m2 = square(buf, tile, 1, nb2, False)
            for j in range(m2):
                further[nb2[j]] = 1
    for tile in range(buf[H_N]):
        if further[tile] and not reached[tile] and tile != start:
            if _passable_kind(buf, tile, utype, techs, tribe, enemy):
                reached[tile] = 1


@njit(cache=True)
def _move_costs(buf, uid, zoc, enemy, reached):
    """``movement.move_costs``: ``reached[t] = 1`` for the tiles reached (start left out)."""
    o = rec(buf, uid)
    tribe, start, utype = buf[o + U_TRIBE], buf[o + U_POS], buf[o + U_TYPE]
    techs = buf[tof(buf, tribe) + T_TECHS]
    mov = float(tb.U_MOV[utype])
    n = buf[H_N]
    ter = pl(buf, P_TER)
    net = pl(buf, P_NET)
    nb = np.empty(8, dtype=np.int64)
    if mov == 1.0 and buf[ter + start] != C.CITY and not buf[net + start]:
        m = square(buf, start, 1, nb, False)
        for i in range(m):
            if _passable_kind(buf, nb[i], utype, techs, tribe, enemy):
                reached[nb[i]] = 1
        return
    costs = np.full(n, np.inf)
    costs[start] = 0.0
    water_unit = tb.U_WATER[utype] == 1
    dead_end = mov + 0.5
    beyond = mov + 1.0
    heap_c = np.empty(8 * n + 8, dtype=np.float64)
    heap_t = np.empty(8 * n + 8, dtype=np.int64)
    hn = 1
    heap_c[0] = 0.0
    heap_t[0] = start
    while hn:
        cost = heap_c[0]
        frm = heap_t[0]
        hn -= 1
        _sift_down(heap_c, heap_t, hn)
        if cost > costs[frm]:
            continue
        rest = mov - cost if cost < mov else mov
        road = False
        if not water_unit:
            tf = buf[ter + frm]
            if tf == C.CITY or (buf[net + frm] and tf != C.SHALLOW_WATER and tf != C.DEEP_WATER):
                cid = buf[pl(buf, P_CITY) + frm]
                road = cid == 0 or city_of_tribe(buf, cid, tribe)
        m = square(buf, frm, 1, nb, False)
        for i in range(m):
            tile = nb[i]
            old = costs[tile]
            if old <= cost:
                continue
            kind = _passable_kind(buf, tile, utype, techs, tribe, enemy)
            if kind == 0:
                continue
            step = 1.0 if kind == 1 or kind == 4 else rest
            if road and (buf[ter + tile] == C.CITY or (buf[net + tile] and kind != 3)):
                step = step / 2.0
                if step < 0.5:
                    step = 0.5
            if zoc[tile]:
                new = cost + rest
                if new > mov:
                    continue
            else:
                new = cost + step
                if new >= beyond:
                    continue
            if new < old:
                costs[tile] = new
                if new < dead_end and new != mov:
                    heap_c[hn] = new
                    heap_t[hn] = tile
                    hn += 1
                    _sift_up(heap_c, heap_t, hn - 1)
    for tile in range(n):
        if tile != start and costs[tile] != np.inf:
            reached[tile] = 1


@njit(cache=True, inline="always")
def _less(heap_c, heap_t, i, j):
    return heap_c[i] < heap_c[j] or (heap_c[i] == heap_c[j] and heap_t[i] < heap_t[j])


@njit(cache=True)
def _swap(heap_c, heap_t, i, j):
    heap_c[i], heap_c[j] = heap_c[j], heap_c[i]
    heap_t[i], heap_t[j] = heap_t[j], heap_t[i]


@njit(cache=True)
def _sift_up(heap_c, heap_t, i):
    while i > 0:
        parent = (i - 1) // 2
        if _less(heap_c, heap_t, i, parent):
            _swap(heap_c, heap_t, i, parent)
            i = parent
        else:
            return


@njit(cache=True)
def _sift_down(heap_c, heap_t, hn):
    """Move the last entry to the root and restore the heap of ``hn`` entries."""
    heap_c[0] = heap_c[hn]
    heap_t[0] = heap_t[hn]
    i = 0
    while True:
        left = 2 * i + 1
        if left >= hn:
            return
        best = left
        if left + 1 < hn and _less(heap_c, heap_t, left + 1, left):
            best = left + 1
        if _less(heap_c, heap_t, best, i):
            _swap(heap_c, heap_t, best, i)
            i = best
        else:
            return


@njit(cache=True)
def reachable(buf, uid, zoc, enemy, reached):
    """``movement.reachable``'s tiles: ``reached[t] = 1`` (the caller zeroes it)."""
    o = rec(buf, uid)
    if tb.U_MOV[buf[o + U_TYPE]] == 1 and on_road(buf, buf[o + U_POS], buf[o + U_TRIBE]):
        _reach_one(buf, uid, zoc, enemy, reached)
    else:
        _move_costs(buf, uid, zoc, enemy, reached)
