"""The compiled unit actions: a port of the actions of :mod:`stratagem.envs.tribes.units`.

Embarking, disembarking and pushes, then move, attack, convert, disband, heal, veteran,
recover and upgrade over the buffer of :mod:`.layout` (examining ruins, which draws from the
generator and feeds the economy, is in :mod:`.capture`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes.compiled import tables as tb
from stratagem.envs.tribes.compiled.engine import (
    MON0,
    add_stars,
    add_unit,
    city_of_tribe,
    detach_unit,
    dist,
    kill_unit,
    list_append,
    move_unit_to,
    pl,
    rec,
    remove_unit,
    square,
    tof,
)
from stratagem.envs.tribes.compiled.layout import (
    C_WALLS,
    H_SIZE,
    MAXEX,
    P_BLD,
    P_CITY,
    P_TER,
    P_UNIT,
    T_EX,
    T_KILLS,
    T_MON,
    T_NEX,
    T_PAC,
    T_STARS,
    T_TECHS,
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


@njit(cache=True)
def baked_digest():
    """``tables.SOURCE_DIGEST`` as this module's machine code froze it (stale-cache check)."""
    return tb.SOURCE_DIGEST


@njit(cache=True)
def transform(buf, uid, dest, utype, base):
    """``units._transform`` (embark: ``utype`` Boat; disembark: the carried type)."""
    o = rec(buf, uid)
    tribe, city, hp, mhp = buf[o + U_TRIBE], buf[o + U_CITY], buf[o + U_HP], buf[o + U_MAXHP]
    kills, vet = buf[o + U_KILLS], buf[o + U_VET]
    remove_unit(buf, uid)
    return add_unit(buf, utype, tribe, dest, city, hp, mhp, kills, vet, C.FINISHED, base)


@njit(cache=True)
def embark(buf, uid, dest):
    """``units.embark``."""
    return transform(buf, uid, dest, C.BOAT, buf[rec(buf, uid) + U_TYPE])


@njit(cache=True)
def disembark(buf, uid, dest):
    """``units.disembark``."""
    base = buf[rec(buf, uid) + U_BASE]
    return transform(buf, uid, dest, base if base >= 0 else C.WARRIOR, -1)


@njit(cache=True)
def try_push(buf, uid, dest):
    """``units.try_push``."""
    if buf[pl(buf, P_UNIT) + dest]:
        return False
    o = rec(buf, uid)
    tribe = buf[o + U_TRIBE]
    ter = buf[pl(buf, P_TER) + dest]
    water_unit = tb.U_WATER[buf[o + U_TYPE]] == 1
    if ter == C.MOUNTAIN:
        if water_unit or not buf[tof(buf, tribe) + T_TECHS] >> C.CLIMBING & 1:
            return False
        move_unit_to(buf, uid, dest)
        return True
    if ter == C.SHALLOW_WATER or ter == C.DEEP_WATER:
        if water_unit:
            move_unit_to(buf, uid, dest)
            return True
        if buf[pl(buf, P_BLD) + dest] == C.PORT:
            if city_of_tribe(buf, buf[pl(buf, P_CITY) + dest], tribe):
                embark(buf, uid, dest)
                return True
        return False
    if water_unit:
        return False
    move_unit_to(buf, uid, dest)
    return True


PUSH_DR = np.array([0, -1, 0, 1, -1, -1, 1, 1], dtype=np.int64)
PUSH_DC = np.array([1, 0, -1, 0, 1, -1, -1, 1], dtype=np.int64)


@njit(cache=True)
def push_unit(buf, uid):
    """``units.push_unit``: the pushed unit's id (new if it embarked), 0 if it died."""
    size = buf[H_SIZE]
    o = rec(buf, uid)
    row = buf[o + U_POS] // size
    col = buf[o + U_POS] % size
    for k in range(8):
        r = row + PUSH_DR[k]
        c = col + PUSH_DC[k]
        if 0 <= r < size and 0 <= c < size and try_push(buf, uid, r * size + c):
            moved = buf[pl(buf, P_UNIT) + r * size + c]
            if moved == uid:
                buf[o + U_STATUS] = C.PUSHED
            return moved
    kill_unit(buf, uid)
    return 0


@njit(cache=True)
def do_move(buf, uid, dest):
    """``units.do_move``."""
    o = rec(buf, uid)
    utype = buf[o + U_TYPE]
    buf[o + U_STATUS] = tb.AFTER_MOVE[utype, buf[o + U_STATUS]]
    move_unit_to(buf, uid, dest)
    ter = buf[pl(buf, P_TER) + dest]
    if tb.U_WATER[utype]:
        if ter != C.SHALLOW_WATER and ter != C.DEEP_WATER:
            disembark(buf, uid, dest)
    elif buf[pl(buf, P_BLD) + dest] == C.PORT:
        embark(buf, uid, dest)


@njit(cache=True)
def defence_bonus(buf, tid):
    """``units.defence_bonus``."""
    o = rec(buf, tid)
    pos = buf[o + U_POS]
    if buf[pl(buf, P_TER) + pos] != C.CITY:
        return 1.0
    cid = buf[pl(buf, P_CITY) + pos]
    if not city_of_tribe(buf, cid, buf[o + U_TRIBE]):
        return 1.0
    return C.DEFENCE_IN_WALLS if buf[rec(buf, cid) + C_WALLS] else C.DEFENCE_BONUS


@njit(cache=True)
def attack_results(atk, hp_a, max_a, defence, hp_d, max_d, bonus):
    """``combat.attack_results`` (the same float operations, Java's rounding)."""
    attack_force = atk * (hp_a / max_a)
    defence_force = defence * (hp_d / max_d) * bonus
    total = attack_force + defence_force
    if total <= 0:
        return 0, 0
    damage = math.floor(attack_force / total * atk * C.ATTACK_MODIFIER + 0.5)
    retaliation = math.floor(defence_force / total * defence * C.ATTACK_MODIFIER + 0.5)
    return np.int64(damage), np.int64(retaliation)


@njit(cache=True)
def add_kill(buf, uid):
    """``units.add_kill``."""
    o = rec(buf, uid)
    buf[o + U_KILLS] += 1
    if buf[o + U_TYPE] == C.KNIGHT:
        buf[o + U_STATUS] = C.ATTACKED
    to = tof(buf, buf[o + U_TRIBE])
    buf[to + T_KILLS] += 1
    k = to + T_MON + C.GATE_OF_POWER - MON0
    if buf[to + T_KILLS] >= C.GATE_OF_POWER_KILLS and buf[k] == C.MONUMENT_UNAVAILABLE:
        buf[k] = C.MONUMENT_AVAILABLE


@njit(cache=True)
def do_attack(buf, uid, tid):
    """``units.do_attack``."""
    a = rec(buf, uid)
    d = rec(buf, tid)
    atype = buf[a + U_TYPE]
    buf[a + U_STATUS] = tb.AFTER_ATTACK[atype, buf[a + U_STATUS]]
    buf[tof(buf, buf[a + U_TRIBE]) + T_PAC] = 0
    dtype = buf[d + U_TYPE]
    damage, retaliation = attack_results(
        tb.U_ATK[atype],
        buf[a + U_HP],
        buf[a + U_MAXHP],
        tb.U_DEF[dtype],
        buf[d + U_HP],
        buf[d + U_MAXHP],
        defence_bonus(buf, tid),
    )
    if buf[d + U_HP] <= damage:
        add_kill(buf, uid)
        dest = buf[d + U_POS]
        kill_unit(buf, tid)
        if tb.U_MELEE[atype]:
            try_push(buf, uid, dest)
    else:
        buf[d + U_HP] -= damage
        if dist(buf, buf[a + U_POS], buf[d + U_POS]) <= tb.U_RANGE[dtype]:
            buf[a + U_HP] -= retaliation
            if buf[a + U_HP] <= 0:
                add_kill(buf, tid)
                kill_unit(buf, uid)


@njit(cache=True)
def do_convert(buf, uid, tid):
    """``units.do_convert``."""
    b = rec(buf, uid)
    d = rec(buf, tid)
    detach_unit(buf, tid)
    tribe = buf[b + U_TRIBE]
    buf[d + U_TRIBE] = tribe
    buf[d + U_CITY] = 0
    to = tof(buf, tribe)
    list_append(buf, to + T_EX, to + T_NEX, MAXEX, tid)
    buf[b + U_STATUS] = tb.AFTER_ATTACK[buf[b + U_TYPE], buf[b + U_STATUS]]
    buf[d + U_STATUS] = C.FINISHED


@njit(cache=True)
def do_disband(buf, uid):
    """``units.do_disband``."""
    o = rec(buf, uid)
    add_stars(buf, buf[o + U_TRIBE], tb.U_COST[buf[o + U_TYPE]] // 2)
    kill_unit(buf, uid)


@njit(cache=True)
def heal_targets(buf, uid, out):
    """``units.heal_targets`` into ``out``: the count."""
    o = rec(buf, uid)
    tribe = buf[o + U_TRIBE]
    nb = np.empty(8, dtype=np.int64)
    m = square(buf, buf[o + U_POS], 1, nb, False)
    k = 0
    ua = pl(buf, P_UNIT)
    for i in range(m):
        other = buf[ua + nb[i]]
        if other:
            p = rec(buf, other)
            if buf[p + U_TRIBE] == tribe and buf[p + U_HP] < buf[p + U_MAXHP]:
                out[k] = other
                k += 1
    return k


@njit(cache=True)
def do_heal(buf, uid):
    """``units.do_heal``."""
    targets = np.empty(8, dtype=np.int64)
    m = heal_targets(buf, uid, targets)
    for i in range(m):
        p = rec(buf, targets[i])
        buf[p + U_HP] = min(buf[p + U_HP] + C.MINDBENDER_HEAL, buf[p + U_MAXHP])
    o = rec(buf, uid)
    buf[o + U_STATUS] = tb.AFTER_ATTACK[buf[o + U_TYPE], buf[o + U_STATUS]]


@njit(cache=True)
def do_make_veteran(buf, uid):
    """``units.do_make_veteran``."""
    o = rec(buf, uid)
    buf[o + U_VET] = 1
    buf[o + U_MAXHP] += C.VETERAN_PLUS_HP
    buf[o + U_HP] = buf[o + U_MAXHP]


@njit(cache=True)
def can_recover(buf, uid):
    """``units.can_recover``."""
    o = rec(buf, uid)
    return buf[o + U_STATUS] == C.FRESH and 0 < buf[o + U_HP] < buf[o + U_MAXHP]


@njit(cache=True)
def do_recover(buf, uid):
    """``units.do_recover``."""
    o = rec(buf, uid)
    add = C.RECOVER_PLUS_HP
    if city_of_tribe(buf, buf[pl(buf, P_CITY) + buf[o + U_POS]], buf[o + U_TRIBE]):
        add += C.RECOVER_IN_BORDERS_PLUS_HP
    buf[o + U_HP] = min(buf[o + U_HP] + add, buf[o + U_MAXHP])
    buf[o + U_STATUS] = C.FINISHED


@njit(cache=True)
def can_upgrade(buf, uid):
    """``units.can_upgrade``."""
    o = rec(buf, uid)
    utype = buf[o + U_TYPE]
    to = tof(buf, buf[o + U_TRIBE])
    if utype == C.BOAT:
        return buf[to + T_TECHS] >> C.SAILING & 1 == 1 and buf[to + T_STARS] >= tb.U_COST[C.SHIP]
    if utype == C.SHIP:
        return (
            buf[to + T_TECHS] >> C.NAVIGATION & 1 == 1
            and buf[to + T_STARS] >= tb.U_COST[C.BATTLESHIP]
        )
    return False


@njit(cache=True)
def do_upgrade(buf, uid):
    """``units.do_upgrade``."""
    o = rec(buf, uid)
    nxt = C.SHIP if buf[o + U_TYPE] == C.BOAT else C.BATTLESHIP
    tribe = buf[o + U_TRIBE]
    buf[tof(buf, tribe) + T_STARS] -= tb.U_COST[nxt]
    pos, city, hp, mhp = buf[o + U_POS], buf[o + U_CITY], buf[o + U_HP], buf[o + U_MAXHP]
    kills, vet, status, base = buf[o + U_KILLS], buf[o + U_VET], buf[o + U_STATUS], buf[o + U_BASE]
    remove_unit(buf, uid)
    add_unit(buf, nxt, tribe, pos, city, hp, mhp, kills, vet, status, base)
