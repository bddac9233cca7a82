"""The compiled turn flow and whole games: :mod:`stratagem.envs.tribes.turns` in numba.

Ports of ``turns`` and ``TribesState.apply``, and the loop of uniformly random games.

``apply_action`` does what ``TribesState.apply`` does after its legality check: the action,
the end of the game after a capture, and the automatic end of a turn with nothing left but
``end_turn``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes.compiled import rng
from stratagem.envs.tribes.compiled import tables as tb
from stratagem.envs.tribes.compiled.capture import capture, do_examine
from stratagem.envs.tribes.compiled.cities import (
    do_build,
    do_destroy,
    do_level_up,
    do_spawn,
    do_tile_action,
    production,
    temple_turn,
    tribe_production,
)
from stratagem.envs.tribes.compiled.engine import (
    MON0,
    add_stars,
    pl,
    rec,
    research,
    research_cost,
    tof,
    tribe_units,
)
from stratagem.envs.tribes.compiled.layout import (
    C_POS,
    H_ERR,
    H_MAXTURNS,
    H_MODE,
    H_N,
    H_NT,
    H_OVER,
    H_PLAYER,
    H_RANK,
    H_RNG,
    H_SIZE,
    H_TICK,
    MAXID,
    P_CITY,
    P_NET,
    P_TLVL,
    P_UNIT,
    T_CAP,
    T_MON,
    T_NTC,
    T_PAC,
    T_RESULT,
    T_SCORE,
    T_STARS,
    T_TC,
    T_TECHS,
    T_TYPE,
    U_STATUS,
    U_TRIBE,
)
from stratagem.envs.tribes.compiled.legal import end_turn_action, legal_actions
from stratagem.envs.tribes.compiled.network import city_buildings, update_network_all
from stratagem.envs.tribes.compiled.units import (
    can_recover,
    do_attack,
    do_convert,
    do_disband,
    do_heal,
    do_make_veteran,
    do_move,
    do_recover,
    do_upgrade,
)


@njit(cache=True)
def baked_digest():
    """``tables.SOURCE_DIGEST`` as this module's machine code froze it (stale-cache check)."""
    return tb.SOURCE_DIGEST


@njit(cache=True)
def execute(buf, action):
    """``TurnFlow._execute``: True if the action was a capture."""
    n = buf[H_N]
    size = buf[H_SIZE]
    plane = action // n
    tile = action % n
    t = buf[H_PLAYER]
    if plane >= tb.NUM_PLANES:
        tech = action - tb.NUM_PLANES * n
        research(buf, t, tech, research_cost(buf, t, tech))
        return False
    if plane <= tb.UPGRADE:
        uid = buf[pl(buf, P_UNIT) + tile]
        dr, dc = tb.PLANE_DR[plane], tb.PLANE_DC[plane]
        if dr or dc:
            target = (tile // size + dr) * size + tile % size + dc
            if plane < tb.ATTACK0:
                do_move(buf, uid, target)
            elif plane < tb.CONVERT0:
                do_attack(buf, uid, buf[pl(buf, P_UNIT) + target])
            else:
                do_convert(buf, uid, buf[pl(buf, P_UNIT) + target])
            return False
        if plane == tb.CAPTURE:
            capture(buf, uid)
            return True
        if plane == tb.EXAMINE:
            do_examine(buf, uid)
        elif plane == tb.DISBAND:
            do_disband(buf, uid)
        elif plane == tb.HEAL:
            do_heal(buf, uid)
        elif plane == tb.VETERAN:
            do_make_veteran(buf, uid)
        elif plane == tb.RECOVER:
            do_recover(buf, uid)
        else:
            do_upgrade(buf, uid)
        return False
    if plane == tb.BUILD_ROAD:
        buf[tof(buf, t) + T_STARS] -= C.ROAD_COST
        buf[pl(buf, P_NET) + tile] = 1
        update_network_all(buf)
        return False
    cid = buf[pl(buf, P_CITY) + tile]
    if plane < tb.SPAWN0:
        do_level_up(buf, cid, plane - tb.LEVEL_UP0)
    elif plane < tb.BUILD0:
        do_spawn(buf, cid, tb.PLANE_PARAM[plane])
    elif plane < tb.HARVEST:
        do_build(buf, cid, tile, plane - tb.BUILD0)
    elif plane == tb.DESTROY:
        do_destroy(buf, cid, tile)
    else:
        do_tile_action(buf, cid, tile, plane)
    return False


@njit(cache=True)
def _better(buf, a, b, place):
    """Tribe ``a`` ranks before ``b`` (``TurnFlow.current_ranking``'s key)."""
    oa, ob = tof(buf, a), tof(buf, b)
    ka = buf[oa + T_RESULT] != C.WIN
    kb = buf[ob + T_RESULT] != C.WIN
    if ka != kb:
        return kb
    ka = buf[oa + T_RESULT] == C.LOSS
    kb = buf[ob + T_RESULT] == C.LOSS
    if ka != kb:
        return kb
    if buf[oa + T_SCORE] != buf[ob + T_SCORE]:
        return buf[oa + T_SCORE] > buf[ob + T_SCORE]
    ta = _popcount(buf[oa + T_TECHS])
    tb_ = _popcount(buf[ob + T_TECHS])
    if ta != tb_:
        return ta > tb_
    if buf[oa + T_NTC] != buf[ob + T_NTC]:
        return buf[oa + T_NTC] > buf[ob + T_NTC]
    pa, pb = tribe_production(buf, a), tribe_production(buf, b)
    if pa != pb:
        return pa > pb
    return place[a] < place[b]


@njit(cache=True)
def _popcount(x):
    c = 0
    while x:
        c += x & 1
        x >>= 1
    return c


@njit(cache=True)
def check_game_over(buf):
    """``TurnFlow._check_game_over``."""
    nt = buf[H_NT]
    ended = False
    if buf[H_MODE] == C.CAPITALS:
        for t in range(nt):
            to = tof(buf, t)
            if buf[to + T_RESULT] == C.LOSS:
                continue
            owns_all = True
            for u in range(nt):
                cap = buf[tof(buf, u) + T_CAP]
                found = False
                for i in range(buf[to + T_NTC]):
                    if buf[to + T_TC + i] == cap:
                        found = True
                if not found:
                    owns_all = False
            if owns_all:
                buf[to + T_RESULT] = C.WIN
                ended = True
                break
    else:
        left = 0
        for t in range(nt):
            if buf[tof(buf, t) + T_RESULT] != C.LOSS:
                left += 1
        ended = left <= 1
    if ended or buf[H_TICK] > buf[H_MAXTURNS]:
        order = np.arange(nt)
        rng.shuffle(buf, H_RNG, order, nt)
        place = np.empty(nt, dtype=np.int64)
        for k in range(nt):
            place[order[k]] = k
        ranking = np.arange(nt)
        for i in range(1, nt):  # insertion sort: stable, as sorted()
            j = i
            while j > 0 and _better(buf, ranking[j], ranking[j - 1], place):
                ranking[j], ranking[j - 1] = ranking[j - 1], ranking[j]
                j -= 1
        for k in range(nt):
            buf[tof(buf, ranking[k]) + T_RESULT] = C.WIN if k == 0 else C.LOSS
            buf[H_RANK + k] = ranking[k]
        buf[H_OVER] = 1


@njit(cache=True)
def init_turn(buf, t):
    """``TurnFlow._init_turn``."""
    to = tof(buf, t)
    prod = 0
    ua = pl(buf, P_UNIT)
    bt = np.empty(128, dtype=np.int64)
    for i in range(buf[to + T_NTC]):
        cid = buf[to + T_TC + i]
        occupant = buf[ua + buf[rec(buf, cid) + C_POS]]
        if not occupant or buf[rec(buf, occupant) + U_TRIBE] == t:
            prod += production(buf, cid)
        m = city_buildings(buf, cid, bt)
        for j in range(m):
            if buf[pl(buf, P_TLVL) + bt[j]]:
                points = temple_turn(buf, bt[j])
                if points:
                    buf[to + T_SCORE] += points
                    buf[rec(buf, cid) + 10] += points  # C_WORTH
    if buf[H_TICK] == 0:
        buf[to + T_SCORE] = tb.TRIBE_SCORE[buf[to + T_TYPE]]
        buf[to + T_STARS] = C.INITIAL_STARS
    else:
        add_stars(buf, t, max(0, prod))
    ids = np.empty(MAXID, dtype=np.int64)
    m = tribe_units(buf, t, ids)
    for i in range(m):
        o = rec(buf, ids[i])
        buf[o + U_STATUS] = C.MOVED if buf[o + U_STATUS] == C.PUSHED else C.FRESH
    if buf[to + T_TECHS] >> C.MEDITATION & 1:
        buf[to + T_PAC] += 1
        k = to + T_MON + C.ALTAR_OF_PEACE - MON0
        if buf[to + T_PAC] >= C.ALTAR_OF_PEACE_TURNS and buf[k] == C.MONUMENT_UNAVAILABLE:
            buf[k] = C.MONUMENT_AVAILABLE


@njit(cache=True)
def end_turn(buf):
    """``TurnFlow._end_turn``."""
    t = buf[H_PLAYER]
    ids = np.empty(MAXID, dtype=np.int64)
    m = tribe_units(buf, t, ids)
    for i in range(m):
        if can_recover(buf, ids[i]):
            do_recover(buf, ids[i])
    check_game_over(buf)
    if buf[H_OVER]:
        return
    nt = buf[H_NT]
    nxt = t
    wrapped = False
    while True:
        nxt = (nxt + 1) % nt
        if nxt == 0:
            wrapped = True
        if buf[tof(buf, nxt) + T_RESULT] != C.LOSS:
            break
    if wrapped:
        buf[H_TICK] += 1
        check_game_over(buf)
        if buf[H_OVER]:
            return
    buf[H_PLAYER] = nxt
    init_turn(buf, nxt)


@njit(cache=True)
def apply_action(buf, action, legal):
    """``TribesState.apply`` of a legal action (``legal``: scratch for the next list)."""
    end = end_turn_action(buf)
    if action == end:
        end_turn(buf)
        return
    captured = execute(buf, action)
    if buf[H_ERR]:
        return
    if captured:
        check_game_over(buf)
        if buf[H_OVER]:
            return
    k = legal_actions(buf, legal)
    if k == 1 and legal[0] == end:
        end_turn(buf)


@njit(cache=True)
def play_games(starts, seeds, out):
    """Uniformly random games from each start buffer; ``out[g]``: decisions, error code.

    The actions are drawn from a PCG64 stream seeded per game (``seeds[g]``: its six ints,
    :mod:`.rng`), not from the game's own generator.
    """
    draw = np.empty(6, dtype=np.int64)
    for g in range(starts.shape[0]):
        buf = starts[g]
        draw[:] = seeds[g]
        legal = np.empty(tb.NUM_PLANES * buf[H_N] + 32, dtype=np.int64)
        scratch = np.empty_like(legal)
        decisions = 0
        while not buf[H_OVER] and not buf[H_ERR]:
            k = legal_actions(buf, legal)
            action = legal[rng.randint(draw, 0, k)]
            apply_action(buf, action, scratch)
            decisions += 1
        out[g, 0] = decisions
        out[g, 1] = buf[H_ERR]
