"""One Prismata position packed into one flat int64 array, and back.

The compiled engine works on a single ``numpy.int64`` buffer per position, so that a whole game
runs in machine code without a Python object. With ``L`` = 104 library cards and ``U`` =
``max_units`` slots per player, the buffer is (offsets in ints):

=====================  ============  ==========================================================
offset                 length        content
=====================  ============  ==========================================================
``H_MAGIC`` (0)        1             :data:`MAGIC` (format and version of the layout)
``H_MAX_UNITS``        1             ``U`` (the game's ``max_units``)
``H_TURN_LIMIT``       1             player-turns before the draw (the game's ``turn_limit``)
``H_PLAYER``           1             ``current_player``
``H_PHASE``            1             ``phase`` (0 action, 1 defense, 2 breach)
``H_TURN``             1             ``turn`` (player-turns completed)
``H_PENDING``          1             ``pending`` (slot of a targeting unit waiting, else -1)
``H_FROZEN``           1             ``breach_frozen`` (0 or 1)
``H_WINNER``           1             ``winner``: :data:`PLAYING` (-2) while playing, -1 draw, 0, 1
``H_NSLOTS`` + p       2             slots ever used by player p (``len(u[p]) // K``)
``H_NLIVE`` + p        2             living units of player p (``len(live[p])``)
``RES``                12            resources, ``6 * p + r`` (gold, energy, blue, red, green,
                                     attack), as ``PrismataState.res``
``SUPPLY`` + p·L + t   2·L           copies of library card t player p may still buy
``BUYABLE`` + t        L             1 when card t is buyable in this game (the card set)
``UNITS`` + p·U·K      2·U·K         player p's unit records: ``K`` = 8 ints per slot, the fields
                                     of :mod:`stratagem.envs.prismata.data` (type, hp, chill,
                                     build, delay, lifespan, charges, status); type -1 is a free
                                     slot; slots at and past ``nslots`` are zero
``live_offset(p)``     2·U           player p's living slots in arrival order (``live[p]``),
                                     zero past ``nlive``
=====================  ============  ==========================================================

A dead unit's record keeps its last values, as in ``PrismataState.u``, so that
:func:`encode` and :func:`decode` are exact inverses (``decode(encode(s)) == s``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from stratagem.envs.prismata.cards import NUM_CARDS
from stratagem.envs.prismata.data import K

if TYPE_CHECKING:
    from stratagem.envs.prismata.rules import PrismataGame, PrismataState

__all__ = ["MAGIC", "PLAYING", "buffer_size", "decode", "encode", "live_offset", "units_offset"]

#: First int of every buffer: "PRSM" and the layout version (1).
MAGIC = 0x5052534D01
#: ``H_WINNER`` of a game still being played (``winner is None``).
PLAYING = -2

H_MAGIC, H_MAX_UNITS, H_TURN_LIMIT, H_PLAYER, H_PHASE, H_TURN, H_PENDING = range(7)
H_FROZEN, H_WINNER, H_NSLOTS, H_NLIVE = 7, 8, 9, 11
HEADER = 16
RES = HEADER
SUPPLY = RES + 12
BUYABLE = SUPPLY + 2 * NUM_CARDS
UNITS = BUYABLE + NUM_CARDS


def units_offset(max_units: int, p: int) -> int:
    """Offset of player ``p``'s first unit record."""
    return UNITS + p * max_units * K


def live_offset(max_units: int, p: int) -> int:
    """Offset of player ``p``'s live-slot list."""
    return UNITS + 2 * max_units * K + p * max_units


def buffer_size(max_units: int) -> int:
    """Length of the buffer of a game with ``max_units`` slots per player."""
    return UNITS + 2 * max_units * K + 2 * max_units


def encode(state: PrismataState) -> np.ndarray:
    """Pack ``state`` into a new buffer (see the module docstring for the layout).

    Args:
        state: Any Prismata position (the state is only read).

    Returns:
        A fresh C-contiguous ``int64`` array of :func:`buffer_size` ints.
    """
    game = state.game
    size = game.max_units
    buf = np.zeros(buffer_size(size), dtype=np.int64)
    buf[H_MAGIC] = MAGIC
    buf[H_MAX_UNITS] = size
    buf[H_TURN_LIMIT] = game.turn_limit
    buf[H_PLAYER] = state.current_player
    buf[H_PHASE] = state.phase
    buf[H_TURN] = state.turn
    buf[H_PENDING] = state.pending
    buf[H_FROZEN] = int(state.breach_frozen)
    buf[H_WINNER] = PLAYING if state.winner is None else state.winner
    buf[RES : RES + 12] = state.res
    types = state.cards
    buf[BUYABLE + np.asarray(types, dtype=np.int64)] = 1
    for p in (0, 1):
        u = state.u[p]
        live = state.live[p]
        buf[H_NSLOTS + p] = len(u) // K
        buf[H_NLIVE + p] = len(live)
        at = units_offset(size, p)
        buf[at : at + len(u)] = u
        at = live_offset(size, p)
        buf[at : at + len(live)] = live
        for pos, t in enumerate(types):
            buf[SUPPLY + p * NUM_CARDS + t] = state.supply[p][pos]
    return buf


def decode(buf: np.ndarray, game: PrismataGame) -> PrismataState:
    """Unpack a buffer into a state of ``game`` (the caller checks it: ``api.check_buffer``).

    Args:
        buf: A buffer written by :func:`encode` or the compiled engine.
        game: The game the buffer belongs to (same ``max_units`` and ``turn_limit``).

    Returns:
        A new :class:`~stratagem.envs.prismata.rules.PrismataState` equal to the position.
    """
    size = game.max_units
    types = tuple(int(t) for t in np.flatnonzero(buf[BUYABLE : BUYABLE + NUM_CARDS]))
    state = game.initial_state_with_cards(types)
    values = buf.tolist()
    for p in (0, 1):
        at = units_offset(size, p)
        state.u[p] = values[at : at + K * values[H_NSLOTS + p]]
        at = live_offset(size, p)
        state.live[p] = values[at : at + values[H_NLIVE + p]]
        state.supply[p] = [values[SUPPLY + p * NUM_CARDS + t] for t in types]
    state.res = values[RES : RES + 12]
    state.current_player = values[H_PLAYER]
    state.phase = values[H_PHASE]
    state.turn = values[H_TURN]
    state.pending = values[H_PENDING]
    state.breach_frozen = bool(values[H_FROZEN])
    winner = values[H_WINNER]
    state.winner = None if winner == PLAYING else winner
    return state
