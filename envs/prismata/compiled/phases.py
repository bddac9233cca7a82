"""The turn's phases in numba: blocks, frontline attacks, breach, turn end and turn start.

The counterparts of ``envs/prismata/phases.py`` on a packed position (see :mod:`.engine` for
the conventions).
"""

from __future__ import annotations

from numba import njit

from stratagem.envs.prismata.compiled import tables as tb
from stratagem.envs.prismata.compiled.engine import (
    BR,
    SNAP,
    WIPE,
    can_block,
    kill,
    lo,
    run,
    uo,
)
from stratagem.envs.prismata.compiled.layout import (
    H_FROZEN,
    H_MAX_UNITS,
    H_NLIVE,
    H_NSLOTS,
    H_PENDING,
    H_PHASE,
    H_PLAYER,
    H_TURN,
    H_TURN_LIMIT,
    H_WINNER,
    RES,
)
from stratagem.envs.prismata.data import (
    ACTION,
    ATTACK,
    BLUE,
    BREACH,
    BUILD,
    CHILL,
    DEFENSE,
    DELAY,
    ENERGY,
    HP,
    INERT,
    LIFE,
    RED,
    STATUS,
    K,
)


@njit(cache=True)
def baked_digest():
    """``tables.SOURCE_DIGEST`` as this module's machine code froze it (stale-cache check)."""
    return tb.SOURCE_DIGEST


@njit(cache=True)
def block(buf, T, p, s):
    """``_block``: unit ``s`` of ``p`` absorbs the enemy's attack (block or frontline attack)."""
    e = 1 - p
    b = uo(buf, p) + s * K
    attack = buf[RES + 6 * e + ATTACK]
    hp = buf[b + HP]
    damage = attack if attack < hp else hp
    if damage >= hp:
        kill(buf, p, s)
    elif T[buf[b], tb.FRAGILE] != 0:
        buf[b + HP] = hp - damage
    buf[RES + 6 * e + ATTACK] = attack - damage


@njit(cache=True)
def can_frontline(buf, T, p, s):
    """``_can_frontline``: ``p``'s attack may be spent on enemy frontline unit ``s``."""
    attack = buf[RES + 6 * p + ATTACK]
    e = 1 - p
    if attack <= 0 or not 0 <= s < buf[H_NSLOTS + e]:
        return False
    b = uo(buf, e) + s * K
    t = buf[b]
    return (
        t >= 0
        and T[t, tb.FRONT] != 0
        and buf[b + BUILD] == 0
        and (T[t, tb.FRAGILE] != 0 or attack >= buf[b + HP])
    )


@njit(cache=True)
def breach_targets(buf, T, out, start):
    """``_breach_targets`` into ``out[start:]``, ascending slots; returns how many."""
    p = buf[H_PLAYER]
    attack = buf[RES + 6 * p + ATTACK]
    e = 1 - p
    if attack <= 0 or buf[H_NLIVE + e] == 0:
        return 0
    base = uo(buf, e)
    nslots = buf[H_NSLOTS + e]
    building = True
    for s in range(nslots):
        b = base + s * K
        if buf[b] >= 0 and buf[b + BUILD] == 0:
            building = False
            break
    n = 0
    if building:  # overkill: every enemy unit is under construction
        for s in range(nslots):
            b = base + s * K
            if buf[b] >= 0 and (T[buf[b], tb.FRAGILE] != 0 or attack >= buf[b + HP]):
                out[start + n] = s
                n += 1
        return n
    frozen = 0
    for pass_ in range(2):
        for s in range(nslots):
            b = base + s * K
            t = buf[b]
            if t < 0 or buf[b + BUILD] != 0:
                continue
            if T[t, tb.FRAGILE] == 0 and attack < buf[b + HP]:
                continue
            is_frozen = buf[b + CHILL] >= buf[b + HP] and buf[H_FROZEN] == 0
            if pass_ == 0 and is_frozen:
                frozen += 1
            elif pass_ == 0 or is_frozen:
                out[start + n] = s
                n += 1
        # frozen units become breachable only when nothing else is
        if n > 0 or frozen == 0:
            return n
    return n


@njit(cache=True)
def breach(buf, T, p, s, scratch):
    """``_breach``: spend attack on enemy unit ``s``; the turn ends when nothing is left."""
    e = 1 - p
    b = uo(buf, e) + s * K
    t = buf[b]
    attack = buf[RES + 6 * p + ATTACK]
    hp = buf[b + HP]
    damage = attack if attack < hp else hp
    if damage >= hp:
        kill(buf, e, s)
    elif T[t, tb.FRAGILE] != 0:
        buf[b + HP] = hp - damage
    buf[RES + 6 * p + ATTACK] = attack - damage
    if T[t, tb.FRONT] == 0:
        buf[H_FROZEN] = 1
    if breach_targets(buf, T, scratch, BR * buf[H_MAX_UNITS]) == 0:
        end_turn(buf, T, scratch)


@njit(cache=True)
def total_defense(buf, T, p):
    """Summed health of ``p``'s units that can block now."""
    base = uo(buf, p)
    total = 0
    for s in range(buf[H_NSLOTS + p]):
        b = base + s * K
        if can_block(buf, T, b):
            total += buf[b + HP]
    return total


@njit(cache=True)
def end_wipes_out(buf, T):
    """``end_wipes_out``: the mover's attack is at least the enemy's total defense."""
    p = buf[H_PLAYER]
    e = 1 - p
    attack = buf[RES + 6 * p + ATTACK]
    return attack > 0 and buf[H_NLIVE + e] > 0 and attack >= total_defense(buf, T, e)


@njit(cache=True)
def end_action_phase(buf, T, scratch):
    """``_end_action_phase``: a wipeout and the breach phase, or the end of the turn."""
    p = buf[H_PLAYER]
    e = 1 - p
    if end_wipes_out(buf, T):
        size = buf[H_MAX_UNITS]
        copy = WIPE * size
        n = buf[H_NLIVE + e]
        at = lo(buf, e)
        for i in range(n):
            scratch[copy + i] = buf[at + i]
        base = uo(buf, e)
        for i in range(n):
            s = scratch[copy + i]
            if can_block(buf, T, base + s * K):
                block(buf, T, e, s)
                buf[H_FROZEN] = 1
        buf[H_PHASE] = BREACH
        if breach_targets(buf, T, scratch, BR * size) > 0:
            return
    end_turn(buf, T, scratch)


@njit(cache=True)
def end_turn(buf, T, scratch):
    """``_end_turn``: count the turn, check the end, hand over to the enemy."""
    p = buf[H_PLAYER]
    e = 1 - p
    a = RES + 6 * p + ATTACK
    buf[H_PENDING] = -1
    if buf[H_PHASE] == BREACH:
        buf[a] = 0
    buf[H_TURN] += 1
    if buf[H_NLIVE] == 0 or buf[H_NLIVE + 1] == 0:
        buf[H_WINNER] = 1 if buf[H_NLIVE] == 0 else 0
        buf[a] = 0
        return
    if buf[H_TURN] >= buf[H_TURN_LIMIT]:
        buf[H_WINNER] = -1
        return
    buf[H_PLAYER] = e
    if buf[a] > 0:
        buf[H_PHASE] = DEFENSE
    else:
        begin_turn(buf, T, e, scratch)


@njit(cache=True)
def begin_turn(buf, T, p, scratch):
    """``_begin_turn``: empty the spent resources, tick every unit, run the start scripts."""
    o = RES + 6 * p
    buf[o + ENERGY] = 0
    buf[o + BLUE] = 0
    buf[o + RED] = 0
    buf[o + ATTACK] = 0
    buf[H_FROZEN] = 0
    buf[H_PHASE] = ACTION
    buf[H_PLAYER] = p
    snap = SNAP * buf[H_MAX_UNITS]
    n = buf[H_NLIVE + p]
    at = lo(buf, p)
    for i in range(n):
        scratch[snap + i] = buf[at + i]
    base = uo(buf, p)
    for i in range(n):
        s = scratch[snap + i]
        b = base + s * K
        t, hp, build, delay, life = (
            buf[b],
            buf[b + HP],
            buf[b + BUILD],
            buf[b + DELAY],
            buf[b + LIFE],
        )
        if build == 0 and delay == 0:
            if life > 0:
                buf[b + LIFE] = life - 1
                if life == 1:
                    kill(buf, p, s)
                    continue
        else:
            if build == 0:
                delay -= 1
                buf[b + DELAY] = delay
            if delay > 0:
                buf[b + STATUS] = INERT
            if build > 0:
                build -= 1
                buf[b + BUILD] = build
            if build != 0 or delay != 0:
                continue
        if T[t, tb.HP_GAIN] != 0:
            buf[b + HP] = min(hp + T[t, tb.HP_GAIN], T[t, tb.HP_CAP])
        buf[b + STATUS] = T[t, tb.FRESH]
        buf[b + CHILL] = 0
    # the start scripts, of the snapshot's survivors only (a unit created now waits a turn)
    m = 0
    for i in range(n):
        s = scratch[snap + i]
        if buf[base + s * K] >= 0:
            scratch[snap + m] = s
            m += 1
    for i in range(m):
        s = scratch[snap + i]
        b = base + s * K
        t = buf[b]
        if T[t, tb.START + tb.S_HAS] != 0 and buf[b + BUILD] == 0 and buf[b + DELAY] == 0:
            run(buf, T, p, s, t, tb.START, 2, scratch)
            if buf[b] >= 0:
                buf[b + DELAY] = T[t, tb.START + tb.S_DELAY]
