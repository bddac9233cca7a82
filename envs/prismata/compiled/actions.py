"""The legal action list, ``apply`` and the buffer check, in numba.

The counterparts of ``PrismataState.legal_action_list`` and ``apply`` in ``rules.py`` on a
packed position (see :mod:`.engine` for the conventions). Action indices are the flat layout of
``envs/prismata/actions.py``: buy ``t``, then ``use``, ``block``, ``target``, ``frontline`` and
``breach`` blocks of ``max_units`` slots, then ``end_phase``.
"""

from __future__ import annotations

from numba import njit

from stratagem.envs.prismata.cards import NUM_CARDS as NC
from stratagem.envs.prismata.compiled import tables as tb
from stratagem.envs.prismata.compiled.engine import (
    buy,
    can_block,
    can_buy,
    can_use,
    fire_target,
    lo,
    target_ok,
    uo,
    use_ability,
)
from stratagem.envs.prismata.compiled.layout import (
    BUYABLE,
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
    PLAYING,
    RES,
    SUPPLY,
)
from stratagem.envs.prismata.compiled.phases import (
    begin_turn,
    block,
    breach,
    breach_targets,
    can_frontline,
    end_action_phase,
)
from stratagem.envs.prismata.data import ACTION, ATTACK, BREACH, DEFENSE, K


@njit(cache=True)
def baked_digest():
    """``tables.SOURCE_DIGEST`` as this module's machine code froze it (stale-cache check)."""
    return tb.SOURCE_DIGEST


@njit(cache=True)
def buyable_types(buf, out):
    """The game's buyable cards, ascending, into ``out``; returns how many."""
    n = 0
    for t in range(NC):
        if buf[BUYABLE + t] != 0:
            out[n] = t
            n += 1
    return n


@njit(cache=True)
def affordable(buf, T, p, types, ntypes, out, start):
    """``_affordable``: the cards ``p`` could buy now, ascending, into ``out[start:]``."""
    n = 0
    for i in range(ntypes):
        if can_buy(buf, T, p, types[i]):
            out[start + n] = types[i]
            n += 1
    return n


@njit(cache=True)
def legal_actions(buf, T, types, ntypes, out):
    """``legal_action_list`` into ``out`` (same order); returns how many."""
    if buf[H_WINNER] != PLAYING:
        return 0
    size = buf[H_MAX_UNITS]
    p = buf[H_PLAYER]
    e = 1 - p
    phase = buf[H_PHASE]
    n = 0
    if phase == DEFENSE:
        base = uo(buf, p)
        for s in range(buf[H_NSLOTS + p]):
            if can_block(buf, T, base + s * K):
                out[n] = NC + size + s
                n += 1
        return n
    if phase == BREACH:
        n = breach_targets(buf, T, out, 0)
        for i in range(n):
            out[i] += NC + 4 * size
        return n
    pending = buf[H_PENDING]
    base = uo(buf, e)
    if pending >= 0:
        t = buf[uo(buf, p) + pending * K]
        for s in range(buf[H_NSLOTS + e]):
            if target_ok(buf, T, t, base + s * K):
                out[n] = NC + 2 * size + s
                n += 1
        return n
    n = affordable(buf, T, p, types, ntypes, out, 0)
    for s in range(buf[H_NSLOTS + p]):
        if can_use(buf, T, p, s):
            out[n] = NC + s
            n += 1
    if buf[RES + 6 * p + ATTACK] > 0:
        for s in range(buf[H_NSLOTS + e]):
            if can_frontline(buf, T, p, s):
                out[n] = NC + 3 * size + s
                n += 1
    out[n] = NC + 5 * size
    return n + 1


@njit(cache=True)
def apply_action(buf, T, action, scratch):
    """``apply`` of an action known to be legal (the caller checks it)."""
    size = buf[H_MAX_UNITS]
    p = buf[H_PLAYER]
    if action < NC:
        buy(buf, T, p, action, scratch)
        return
    if action == NC + 5 * size:
        end_action_phase(buf, T, scratch)
        return
    kind = (action - NC) // size
    slot = (action - NC) % size
    if kind == 0:  # use
        if T[buf[uo(buf, p) + slot * K], tb.TGT] != 0:
            buf[H_PENDING] = slot
        else:
            use_ability(buf, T, p, slot, scratch)
    elif kind == 1:  # block
        block(buf, T, p, slot)
        if buf[RES + 6 * (1 - p) + ATTACK] == 0:
            begin_turn(buf, T, p, scratch)
    elif kind == 2:  # target
        fire_target(buf, T, p, buf[H_PENDING], slot, scratch)
    elif kind == 3:  # frontline
        block(buf, T, 1 - p, slot)
    else:
        breach(buf, T, p, slot, scratch)


@njit(cache=True)
def check_buffer(buf, T):
    """0 when every index the engine follows is in range, else the number of the first fault.

    The faults (see ``api.FAULTS``): 1 a header field, 2 slot counts, 3 a live slot, 4 the
    live list and the occupied slots differ, 5 a card index, 6 the pending slot, 7 card set
    or supply, 8 a negative resource.
    """
    size = buf[H_MAX_UNITS]
    if buf[H_PLAYER] not in (0, 1) or buf[H_PHASE] not in (ACTION, DEFENSE, BREACH):
        return 1
    if buf[H_WINNER] < PLAYING or buf[H_WINNER] > 1 or buf[H_FROZEN] not in (0, 1):
        return 1
    if buf[H_TURN] < 0 or buf[H_TURN_LIMIT] < 1:
        return 1
    for p in range(2):
        nslots, nlive = buf[H_NSLOTS + p], buf[H_NLIVE + p]
        if not 0 <= nlive <= nslots <= size:
            return 2
        base = uo(buf, p)
        occupied = 0
        for s in range(nslots):
            t = buf[base + s * K]
            if t < -1 or t >= NC:
                return 5
            if t >= 0:
                occupied += 1
        if occupied != nlive:
            return 4
        at = lo(buf, p)
        for i in range(nlive):
            s = buf[at + i]
            if not 0 <= s < nslots or buf[base + s * K] < 0:
                return 3
            for j in range(i):
                if buf[at + j] == s:
                    return 4
    pending = buf[H_PENDING]
    if pending != -1:
        p = buf[H_PLAYER]
        if not 0 <= pending < buf[H_NSLOTS + p] or buf[H_PHASE] != ACTION:
            return 6
        t = buf[uo(buf, p) + pending * K]
        if t < 0 or T[t, tb.TGT] == 0:
            return 6
    for t in range(NC):
        if buf[BUYABLE + t] not in (0, 1) or buf[SUPPLY + t] < 0 or buf[SUPPLY + NC + t] < 0:
            return 7
    for r in range(12):
        if buf[RES + r] < 0:
            return 8
    return 0
