"""Whole games in numba: the Random bot of ``bots.toml`` and uniformly random actions.

``[players.Random]`` is the partial-player sequence DefenseRandom, ACRandom (the economy clicks
of AbilityEconomyDefault), BuyRandom, BreachRandom. :func:`random_bot_turn` plays it as
``baselines/prismata/portfolio.PartialSequence.play_turn`` does, draw for draw: one uniform draw
among the sorted legal blocks per block, none for the economy clicks (every Drone-like unit
that can be clicked, in arrival order), one among the affordable cards per purchase (while
fewer than 512 actions were taken this turn), then ``end_phase`` and one draw among the sorted
legal breaches per breach. ``uniform`` games draw among all legal actions at every decision,
the reference's ``Player_Random``.

Draws come from numba's own Mersenne Twister (``np.random.randint`` in compiled code), seeded
per game: a compiled game replays from its seed, but it is not the game that the Python agents
play from the same seed (their draws come from a ``numpy.random.Generator``).

When ``rec`` has room (``rec.shape[0] > 0``), every draw is recorded as ``(options, index)``
and every action taken as ``(action, -1)``, in order, so that a test can replay the Python bot
against the same draws.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from stratagem.envs.prismata.cards import NUM_CARDS as NC
from stratagem.envs.prismata.compiled import tables as tb
from stratagem.envs.prismata.compiled.actions import (
    affordable,
    apply_action,
    buyable_types,
    legal_actions,
)
from stratagem.envs.prismata.compiled.engine import BOT, SCRATCH_PER_UNIT, can_use, lo, uo
from stratagem.envs.prismata.compiled.layout import (
    H_MAX_UNITS,
    H_NLIVE,
    H_PENDING,
    H_PHASE,
    H_PLAYER,
    H_TURN,
    H_WINNER,
    PLAYING,
)
from stratagem.envs.prismata.data import ACTION, BREACH, DEFENSE, K

#: Most actions BuyRandom lets a turn hold (``baselines/prismata/partial/buy.py``).
BUY_RANDOM_CAP = 512
RANDOM, UNIFORM = 0, 1


@njit(cache=True)
def baked_digest():
    """``tables.SOURCE_DIGEST`` as this module's machine code froze it (stale-cache check)."""
    return tb.SOURCE_DIGEST


@njit(cache=True)
def _note(rec, count, a, b):
    """Append ``(a, b)`` to the record when it has room."""
    n = count[0]
    if n < rec.shape[0]:
        rec[n, 0] = a
        rec[n, 1] = b
    count[0] = n + 1


@njit(cache=True)
def _draw(n, rec, count):
    """A uniform index below ``n``, recorded."""
    i = np.random.randint(0, n)  # noqa: NPY002 - numba compiles the legacy global API only
    _note(rec, count, n, i)
    return i


@njit(cache=True)
def _do(buf, T, action, scratch, rec, count):
    apply_action(buf, T, action, scratch)
    _note(rec, count, action, -1)


@njit(cache=True)
def _acting(buf, player):
    return buf[H_WINNER] == PLAYING and buf[H_PLAYER] == player


@njit(cache=True)
def _in_action(buf, player):
    return _acting(buf, player) and buf[H_PHASE] == ACTION and buf[H_PENDING] < 0


@njit(cache=True)
def random_bot_turn(buf, T, types, ntypes, legal, scratch, rec, count):
    """One whole turn of the Random bot for the player to move; returns its decisions."""
    p = buf[H_PLAYER]
    size = buf[H_MAX_UNITS]
    taken = 0
    while _acting(buf, p) and buf[H_PHASE] == DEFENSE:  # DefenseRandom
        n = legal_actions(buf, T, types, ntypes, legal)
        _do(buf, T, legal[_draw(n, rec, count)], scratch, rec, count)
        taken += 1
    if _in_action(buf, p):  # ACRandom: AbilityEconomyDefault, in arrival order
        econ = BOT * size
        m = 0
        at = lo(buf, p)
        base = uo(buf, p)
        for i in range(buf[H_NLIVE + p]):
            s = buf[at + i]
            if T[buf[base + s * K], tb.ECON] != 0:
                scratch[econ + m] = s
                m += 1
        for i in range(m):
            s = scratch[econ + i]
            if buf[base + s * K] >= 0 and can_use(buf, T, p, s):
                _do(buf, T, NC + s, scratch, rec, count)
                taken += 1
    if _acting(buf, p):  # BuyRandom, then the end of the action phase
        while _in_action(buf, p) and taken < BUY_RANDOM_CAP:
            n = affordable(buf, T, p, types, ntypes, legal, 0)
            if n == 0:
                break
            _do(buf, T, legal[_draw(n, rec, count)], scratch, rec, count)
            taken += 1
        if _in_action(buf, p):
            _do(buf, T, NC + 5 * size, scratch, rec, count)
            taken += 1
    while _acting(buf, p) and buf[H_PHASE] == BREACH:  # BreachRandom
        n = legal_actions(buf, T, types, ntypes, legal)
        _do(buf, T, legal[_draw(n, rec, count)], scratch, rec, count)
        taken += 1
    while _acting(buf, p):  # finish_turn (a safety net the Random bot never needs)
        if buf[H_PHASE] == ACTION and buf[H_PENDING] < 0:
            _do(buf, T, NC + 5 * size, scratch, rec, count)
        else:
            legal_actions(buf, T, types, ntypes, legal)
            _do(buf, T, legal[0], scratch, rec, count)
        taken += 1
    return taken


@njit(cache=True)
def play_game(buf, T, bot, legal, scratch, types, rec, count):
    """Play the position in ``buf`` to its end in place; returns the decisions taken."""
    ntypes = buyable_types(buf, types)
    decisions = 0
    while buf[H_WINNER] == PLAYING:
        if bot == RANDOM:
            decisions += random_bot_turn(buf, T, types, ntypes, legal, scratch, rec, count)
        else:
            n = legal_actions(buf, T, types, ntypes, legal)
            _do(buf, T, legal[_draw(n, rec, count)], scratch, rec, count)
            decisions += 1
    return decisions


@njit(cache=True)
def play_games(starts, which, seeds, T, bot, out):
    """Play game ``k`` from ``starts[which[k]]`` seeded ``seeds[k]``; results into ``out[k]``.

    ``out[k]`` receives (winner: -1 draw, 0 or 1; player-turns; decisions).
    """
    size = starts[0, H_MAX_UNITS]
    buf = np.empty(starts.shape[1], dtype=np.int64)
    legal = np.empty(NC + 5 * size + 1, dtype=np.int64)
    scratch = np.empty(SCRATCH_PER_UNIT * size, dtype=np.int64)
    types = np.empty(NC, dtype=np.int64)
    rec = np.empty((0, 2), dtype=np.int64)
    count = np.zeros(1, dtype=np.int64)
    for k in range(which.shape[0]):
        buf[:] = starts[which[k]]
        np.random.seed(seeds[k])  # noqa: NPY002 - numba compiles the legacy global API only
        out[k, 2] = play_game(buf, T, bot, legal, scratch, types, rec, count)
        out[k, 0] = buf[H_WINNER]
        out[k, 1] = buf[H_TURN]


@njit(cache=True)
def seed(value):
    """Seed numba's generator (it is separate from numpy's global one)."""
    np.random.seed(value)  # noqa: NPY002 - numba compiles the legacy global API only
