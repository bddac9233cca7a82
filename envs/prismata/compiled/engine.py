"""The Prismata rules in numba, units, clicks and purchases: the compiled ``economy.py``.

With :mod:`.phases` (blocks, breach, turn end and start) and :mod:`.actions` (legal actions,
``apply``), the second, compiled implementation of ``envs/prismata``: every function is the
line-by-line counterpart of a method of the readable rules, named after it, working on one
packed position (:mod:`.layout`) and the card table (:mod:`.tables`) instead of Python lists
and ``_Script`` objects. The readable rules stay the definition:
``tests/test_prismata_compiled.py`` plays thousands of random games through both and requires
the same states, legal action lists and returns at every decision.

Nothing here checks its input (numba does no bounds checks): the public functions of
:mod:`.api` check a buffer (:func:`check_buffer`) and an action before they call in. ``scratch``
is a work array of ``SCRATCH_PER_UNIT * max_units`` ints, split in regions so that nested rules
never share one: ``SNAP`` (the turn start's snapshot), ``CAND`` (destroy candidates, two
regions), ``WIPE`` (the wipeout's copy of the enemy's units), ``BR`` (breach targets) and
``BOT`` (the bots' own lists).

numba caches these functions keyed on this file only, so each compiled module has a
``baked_digest`` whose frozen value the package compares with the current sources' digest
(``tables.SOURCE_DIGEST``) on import, to drop stale machine code.
"""

from __future__ import annotations

from numba import njit

from stratagem.envs.prismata.cards import NUM_CARDS as NC
from stratagem.envs.prismata.compiled import tables as tb
from stratagem.envs.prismata.compiled.layout import (
    BUYABLE,
    H_MAX_UNITS,
    H_NLIVE,
    H_NSLOTS,
    H_PENDING,
    RES,
    SUPPLY,
    UNITS,
)
from stratagem.envs.prismata.data import (
    BUILD,
    CHARGES,
    CHILL,
    DELAY,
    HP,
    INERT,
    LIFE,
    READY,
    STATUS,
    USED,
    K,
)

SCRATCH_PER_UNIT = 8
SNAP, CAND, WIPE, BR, BOT = 0, 1, 3, 4, 5  # region starts, in units of max_units


@njit(cache=True)
def baked_digest():
    """``tables.SOURCE_DIGEST`` as this module's machine code froze it (stale-cache check)."""
    return tb.SOURCE_DIGEST


@njit(cache=True)
def uo(buf, p):
    """Offset of player ``p``'s unit records."""
    return UNITS + p * buf[H_MAX_UNITS] * K


@njit(cache=True)
def lo(buf, p):
    """Offset of player ``p``'s live list."""
    n = buf[H_MAX_UNITS]
    return UNITS + 2 * n * K + p * n


@njit(cache=True)
def can_block(buf, T, b):
    """``data._can_block`` of the record at ``b``."""
    t = buf[b]
    if t < 0 or buf[b + BUILD] != 0 or buf[b + DELAY] != 0 or buf[b + CHILL] >= buf[b + HP]:
        return False
    if buf[b + STATUS] == USED:
        return T[t, tb.BLOCK_USED] != 0
    return T[t, tb.BLOCK] != 0


@njit(cache=True)
def kill(buf, p, s):
    """``_kill``: free the slot and drop it from the live list (order kept)."""
    buf[uo(buf, p) + s * K] = -1
    at = lo(buf, p)
    n = buf[H_NLIVE + p]
    i = 0
    while i < n and buf[at + i] != s:
        i += 1
    if i == n:
        return
    for j in range(i, n - 1):
        buf[at + j] = buf[at + j + 1]
    buf[at + n - 1] = 0
    buf[H_NLIVE + p] = n - 1


@njit(cache=True)
def add_unit(buf, T, p, card, build, delay, lifespan, manual):
    """``_add_unit``: a new unit in the lowest free slot (a new slot when none); -1 if full."""
    nlive = buf[H_NLIVE + p]
    if nlive >= buf[H_MAX_UNITS]:
        return -1
    base = uo(buf, p)
    n = buf[H_NSLOTS + p]
    if nlive == n:
        slot = n
        buf[H_NSLOTS + p] = n + 1
    else:
        slot = 0
        while buf[base + slot * K] >= 0:
            slot += 1
    b = base + slot * K
    buf[b] = card
    buf[b + HP] = T[card, tb.HP]
    buf[b + CHILL] = 0
    buf[b + BUILD] = build
    buf[b + DELAY] = delay
    buf[b + LIFE] = lifespan if lifespan != 0 else T[card, tb.LIFE]
    buf[b + CHARGES] = T[card, tb.CHARGES]
    buf[b + STATUS] = READY if manual and T[card, tb.CLICK] != 0 else INERT
    buf[lo(buf, p) + nlive] = slot
    buf[H_NLIVE + p] = nlive + 1
    return slot


@njit(cache=True)
def sacrificable(buf, T, b, card):
    """The unit at ``b`` may be sacrificed as a ``card`` (built, active, clicked if clickable)."""
    return (
        buf[b] == card
        and buf[b + BUILD] == 0
        and buf[b + DELAY] == 0
        and (T[card, tb.HAS_ABILITY] == 0 or buf[b + STATUS] == USED)
    )


@njit(cache=True)
def can_sacrifice(buf, T, p, card, n):
    """``_can_sacrifice``: ``p`` has ``n`` units of ``card`` that may be sacrificed."""
    base = uo(buf, p)
    found = 0
    for s in range(buf[H_NSLOTS + p]):
        if sacrificable(buf, T, base + s * K, card):
            found += 1
            if found >= n:
                return True
    return n <= 0


@njit(cache=True)
def sacrifice(buf, T, p, card, n):
    """``_sacrifice``: kill the ``n`` lowest-slot eligible units of ``card``."""
    base = uo(buf, p)
    done = 0
    for s in range(buf[H_NSLOTS + p]):
        if done >= n:
            return
        if sacrificable(buf, T, base + s * K, card):
            kill(buf, p, s)
            done += 1


@njit(cache=True)
def count_active(buf, p, card):
    """``count(p, card, active=True)``: built, active living units of ``card``."""
    base = uo(buf, p)
    n = 0
    for s in range(buf[H_NSLOTS + p]):
        b = base + s * K
        if buf[b] == card and buf[b + BUILD] == 0 and buf[b + DELAY] == 0:
            n += 1
    return n


@njit(cache=True)
def can_run(buf, T, p, t, sc):
    """``_can_run`` of card ``t``'s script at column ``sc``: cost, sacrifices, destroy targets."""
    o = RES + 6 * p
    for r in range(6):
        if buf[o + r] < T[t, sc + tb.S_COST + r]:
            return False
    for i in range(T[t, sc + tb.S_SAC_N]):
        if not can_sacrifice(
            buf, T, p, T[t, sc + tb.S_SAC + 2 * i], T[t, sc + tb.S_SAC + 2 * i + 1]
        ):
            return False
    e = 1 - p
    base = uo(buf, e)
    for i in range(T[t, sc + tb.S_DESTROY_N]):
        at = sc + tb.S_DESTROY + 3 * i
        card, n, not_blocking = T[t, at], T[t, at + 1], T[t, at + 2]
        found = 0
        for s in range(buf[H_NSLOTS + e]):
            b = base + s * K
            if buf[b] == card and buf[b + BUILD] == 0:
                if not_blocking == 0 or not can_block(buf, T, b):
                    found += 1
        if found < n:
            return False
    return True


@njit(cache=True)
def target_ok(buf, T, t, b):
    """Card ``t``'s targeted click may name the enemy unit at ``b`` (``_targets_for``)."""
    et = buf[b]
    if et < 0 or buf[b + BUILD] != 0:
        return False
    if T[t, tb.TGT_SNIPE] != 0:
        if T[t, tb.TGT_HP_MAX] >= 0 and buf[b + HP] > T[t, tb.TGT_HP_MAX]:
            return False
        return T[t, tb.TGT_TECH] == 0 or T[et, tb.TECH] != 0
    return can_block(buf, T, b) and buf[b + CHILL] < buf[b + HP]


@njit(cache=True)
def has_target(buf, T, p, t):
    """Some enemy unit is a legal target of card ``t``'s click."""
    e = 1 - p
    base = uo(buf, e)
    for s in range(buf[H_NSLOTS + e]):
        if target_ok(buf, T, t, base + s * K):
            return True
    return False


@njit(cache=True)
def can_use(buf, T, p, s):
    """``_can_use``: ``p`` may click its unit in slot ``s`` now."""
    b = uo(buf, p) + s * K
    t = buf[b]
    if t < 0 or T[t, tb.CLICK] == 0 or buf[b + STATUS] != READY:
        return False
    if buf[b + BUILD] != 0 or buf[b + DELAY] != 0:
        return False
    if T[t, tb.CHARGES] > 0 and buf[b + CHARGES] < 1:
        return False
    if T[t, tb.ABILITY + tb.S_HAS] != 0:
        if buf[b + HP] < T[t, tb.ABILITY + tb.S_HP_COST]:
            return False
        if not can_run(buf, T, p, t, tb.ABILITY):
            return False
    if T[t, tb.TGT] != 0:
        return has_target(buf, T, p, t)
    return True


@njit(cache=True)
def can_buy(buf, T, p, t):
    """``_buyable``: ``p`` may buy card ``t`` now (set, supply, cost, sacrifices, a free slot)."""
    if buf[BUYABLE + t] == 0 or buf[SUPPLY + p * NC + t] <= 0:
        return False
    if buf[H_NLIVE + p] >= buf[H_MAX_UNITS]:
        return False
    o = RES + 6 * p
    for r in range(6):
        if buf[o + r] < T[t, tb.COST + r]:
            return False
    for i in range(T[t, tb.BUY_SAC_N]):
        if not can_sacrifice(buf, T, p, T[t, tb.BUY_SAC + 2 * i], T[t, tb.BUY_SAC + 2 * i + 1]):
            return False
    return True


@njit(cache=True)
def destroy(buf, T, e, card, count, not_blocking, scratch):
    """The destroy part of ``_run``: kill the ``count`` best ``_destroy_candidates``."""
    size = buf[H_MAX_UNITS]
    slots = CAND * size
    blocks = slots + size
    base = uo(buf, e)
    m = 0
    for s in range(buf[H_NSLOTS + e]):
        b = base + s * K
        if buf[b] != card or buf[b + BUILD] != 0:
            continue
        bl = can_block(buf, T, b)
        if not_blocking != 0 and bl:
            continue
        scratch[slots + m] = s
        scratch[blocks + m] = 1 if bl else 0
        m += 1
    for _ in range(min(count, m)):
        best = -1
        for i in range(m):
            s = scratch[slots + i]
            if s < 0:
                continue
            if best < 0 or _before(buf, base, s, scratch[blocks + i], best, scratch):
                best = i
        kill(buf, e, scratch[slots + best])
        scratch[slots + best] = -1


@njit(cache=True)
def _before(buf, base, s, bl, best, scratch):
    """Candidate (``s``, blocks ``bl``) sorts before candidate number ``best``.

    The order of ``_destroy_candidates``: blockers first, then least delay, longest lifespan,
    most charges, most health, least chill, lowest slot.
    """
    size = buf[H_MAX_UNITS]
    s2 = scratch[CAND * size + best]
    bl2 = scratch[CAND * size + size + best]
    if bl != bl2:
        return bl > bl2
    a = base + s * K
    c = base + s2 * K
    if buf[a + DELAY] != buf[c + DELAY]:
        return buf[a + DELAY] < buf[c + DELAY]
    if buf[a + LIFE] != buf[c + LIFE]:
        return buf[a + LIFE] > buf[c + LIFE]
    if buf[a + CHARGES] != buf[c + CHARGES]:
        return buf[a + CHARGES] > buf[c + CHARGES]
    if buf[a + HP] != buf[c + HP]:
        return buf[a + HP] > buf[c + HP]
    if buf[a + CHILL] != buf[c + CHILL]:
        return buf[a + CHILL] < buf[c + CHILL]
    return s < s2


@njit(cache=True)
def run(buf, T, p, s, t, sc, kind, scratch):
    """``_run`` of card ``t``'s script at column ``sc`` for unit ``s``.

    ``kind``: 0 purchase, 1 click, 2 start of turn.
    """
    o = RES + 6 * p
    e = 1 - p
    if T[t, sc + tb.S_PLAIN] == 0:
        for r in range(6):
            buf[o + r] -= T[t, sc + tb.S_COST + r]
        for i in range(T[t, sc + tb.S_SAC_N]):
            sacrifice(buf, T, p, T[t, sc + tb.S_SAC + 2 * i], T[t, sc + tb.S_SAC + 2 * i + 1])
        for r in range(6):
            buf[o + r] += T[t, sc + tb.S_GAIN + r]
            buf[RES + 6 * e + r] += T[t, sc + tb.S_GIVE + r]
        card = T[t, sc + tb.S_RES_CARD]
        if card >= 0:
            n = count_active(buf, p, card)
            for r in range(6):
                buf[o + r] += T[t, sc + tb.S_RES_GAIN + r] * n
        for i in range(T[t, sc + tb.S_CREATE_N]):
            at = sc + tb.S_CREATE + 5 * i
            made, count, delay, life = T[t, at], T[t, at + 1], T[t, at + 2], T[t, at + 3]
            owner = e if T[t, at + 4] != 0 else p
            for _ in range(count):
                if kind == 0:
                    add_unit(buf, T, owner, made, delay, 0, life, False)
                else:
                    add_unit(buf, T, owner, made, 0, delay, life, False)
        for i in range(T[t, sc + tb.S_DESTROY_N]):
            at = sc + tb.S_DESTROY + 3 * i
            destroy(buf, T, e, T[t, at], T[t, at + 1], T[t, at + 2], scratch)
    else:
        for r in range(6):
            buf[o + r] += T[t, sc + tb.S_GAIN + r]
    if kind == 1:
        b = uo(buf, p) + s * K
        if T[buf[b], tb.CHARGES] > 0:
            buf[b + CHARGES] -= 1
        buf[b + HP] -= T[t, sc + tb.S_HP_COST]
        buf[b + STATUS] = USED
        buf[b + DELAY] = T[t, sc + tb.S_DELAY]
        if T[t, sc + tb.S_SELFSAC] != 0 or buf[b + HP] <= 0:
            kill(buf, p, s)
    elif T[t, sc + tb.S_SELFSAC] != 0:
        kill(buf, p, s)


@njit(cache=True)
def buy(buf, T, p, t, scratch):
    """``_buy``: pay, take one from supply, add the unit, sacrifice, run the on-buy script."""
    o = RES + 6 * p
    for r in range(6):
        buf[o + r] -= T[t, tb.COST + r]
    buf[SUPPLY + p * NC + t] -= 1
    slot = add_unit(buf, T, p, t, T[t, tb.BUILD], 0, 0, False)
    for i in range(T[t, tb.BUY_SAC_N]):
        sacrifice(buf, T, p, T[t, tb.BUY_SAC + 2 * i], T[t, tb.BUY_SAC + 2 * i + 1])
    if T[t, tb.ON_BUY + tb.S_HAS] != 0:
        run(buf, T, p, slot, t, tb.ON_BUY, 0, scratch)
    if T[t, tb.SPELL] != 0 and buf[uo(buf, p) + slot * K] == t:
        kill(buf, p, slot)


@njit(cache=True)
def use_ability(buf, T, p, s, scratch):
    """``_use_ability``: run the click script, or only spend the click when there is none."""
    b = uo(buf, p) + s * K
    t = buf[b]
    if T[t, tb.ABILITY + tb.S_HAS] == 0:
        if T[t, tb.CHARGES] > 0:
            buf[b + CHARGES] -= 1
        buf[b + STATUS] = USED
    else:
        run(buf, T, p, s, t, tb.ABILITY, 1, scratch)


@njit(cache=True)
def fire_target(buf, T, p, s, target, scratch):
    """``_fire_target``: snipe or chill the enemy unit, then the click itself."""
    t = buf[uo(buf, p) + s * K]
    e = 1 - p
    if T[t, tb.TGT_SNIPE] != 0:
        kill(buf, e, target)
    else:
        buf[uo(buf, e) + target * K + CHILL] += T[t, tb.TGT_AMOUNT]
    buf[H_PENDING] = -1
    use_ability(buf, T, p, s, scratch)
