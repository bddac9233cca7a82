"""The compiled engine's Python boundary: checked step-level calls and batches of whole games.

numba does no bounds checks, so nothing reaches compiled code unchecked: every call checks the
buffer (type, size, magic number and every index the engine follows, :func:`check_buffer`)
and every action (it must be in the legal list), and raises ``TypeError`` or ``ValueError``
(an :class:`~stratagem.envs.core.IllegalActionError` for an action) naming the problem,
leaving the buffer untouched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from stratagem.envs.compiled_common import check_position_array
from stratagem.envs.core import IllegalActionError
from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes.compiled import layout as L
from stratagem.envs.tribes.compiled import play as _play
from stratagem.envs.tribes.compiled.legal import legal_actions as _legal_actions
from stratagem.envs.tribes.compiled.rng import from_numpy
from stratagem.envs.tribes.compiled.tables import NUM_PLANES
from stratagem.envs.tribes.rules import TribesGame, TribesState

__all__ = [
    "GameResults",
    "action_stream",
    "apply",
    "check_buffer",
    "decode",
    "encode",
    "is_terminal",
    "legal_actions",
    "play_random_games",
    "prepare_games",
    "returns",
    "run_games",
]

_ERRORS = {
    L.ERR_IDS: f"more than {L.MAXID - 1} unit and city ids",
    L.ERR_CITY_UNITS: f"a city with more than {L.MAXCU} units",
    L.ERR_LISTS: "a tribe with more cities, extra units or connections than the layout holds",
}


def _fail(why: str) -> None:
    raise ValueError(f"tribes compiled: corrupt position buffer: {why}")


def _check_game(game: object) -> TribesGame:
    if not isinstance(game, TribesGame):
        raise TypeError(f"tribes compiled: expected a TribesGame, not {type(game).__name__}")
    if game.partial:
        raise ValueError(
            "tribes compiled: partial observability is not supported (its meetings and "
            "visibility are not compiled); use observability='full'"
        )
    return game


def check_buffer(buf: object, *, writable: bool = False) -> np.ndarray:
    """``buf`` as a position buffer the compiled engine can follow safely.

    Raises:
        TypeError: If ``buf`` is not a 1-D C-contiguous int64 array.
        ValueError: If it is not a compiled Tribes position, an index in it is out of range,
            or its game stopped on a capacity of the layout (the message names which).
    """
    buf = check_position_array(buf, "tribes compiled", writable=writable)
    if buf.size < L.HEADER or int(buf[L.H_MAGIC]) != L.MAGIC:
        raise ValueError("tribes compiled: not a position buffer (wrong size or magic number)")
    size, n, nt = int(buf[L.H_SIZE]), int(buf[L.H_N]), int(buf[L.H_NT])
    if not 6 <= size <= 32 or n != size * size or buf.size != L.buffer_size(n):
        raise ValueError(f"tribes compiled: buffer of {buf.size} ints does not match its board")
    err = int(buf[L.H_ERR])
    if err:
        raise ValueError(f"tribes compiled: the game exceeded the layout: {_ERRORS.get(err, err)}")
    next_id = int(buf[L.H_NEXTID])
    if not 2 <= nt <= 4 or not 0 <= int(buf[L.H_PLAYER]) < nt or not 1 <= next_id <= L.MAXID:
        _fail("a header field (tribes, player, next id) is out of range")
    planes = buf[L.HEADER : L.HEADER + L.NPLANES * n].reshape(L.NPLANES, n)
    limits = (
        (0, 7),
        (-1, 7),
        (-1, C.NUM_BUILDINGS - 1),
        (0, next_id - 1),
        (0, next_id - 1),
        (0, 1),
        (0, 5),
        (0, C.TEMPLE_TURNS_TO_SCORE),
    )
    for p, (lo, hi) in enumerate(limits):
        if planes[p].min() < lo or planes[p].max() > hi:
            _fail(f"tile plane {p} holds a value out of range")
    recs = buf[L.ids_off(n) :].reshape(L.MAXID, L.RW)
    kinds = recs[:, L.R_KIND]
    units = recs[kinds == L.KIND_UNIT]
    if ((kinds != 0) & (kinds != L.KIND_UNIT) & (kinds != L.KIND_CITY)).any() or kinds[
        next_id:
    ].any():
        _fail("an id record has an unknown kind")
    if (kinds[planes[3][planes[3] > 0]] != L.KIND_UNIT).any():
        _fail("a tile names a unit that does not exist")
    if (kinds[planes[4][planes[4] > 0]] != L.KIND_CITY).any():
        _fail("a tile names a city that does not exist")
    if len(units) and (
        (units[:, L.U_TYPE] < 0).any()
        or (units[:, L.U_TYPE] >= C.NUM_UNIT_TYPES).any()
        or (units[:, L.U_TRIBE] < 0).any()
        or (units[:, L.U_TRIBE] >= nt).any()
        or (units[:, L.U_POS] < 0).any()
        or (units[:, L.U_POS] >= n).any()
        or (units[:, L.U_STATUS] < 0).any()
        or (units[:, L.U_STATUS] > C.FINISHED).any()
        or (units[:, L.U_CITY] < 0).any()
        or (kinds[units[:, L.U_CITY]][units[:, L.U_CITY] > 0] != L.KIND_CITY).any()
        or (units[:, L.U_MAXHP] <= 0).any()
        or (units[:, L.U_BASE] < -1).any()
        or (units[:, L.U_BASE] >= C.NUM_UNIT_TYPES).any()
    ):
        _fail("a unit field is out of range")
    cities = recs[kinds == L.KIND_CITY]
    if len(cities) and (
        (cities[:, L.C_POS] < 0).any()
        or (cities[:, L.C_POS] >= n).any()
        or (cities[:, L.C_TRIBE] < 0).any()
        or (cities[:, L.C_TRIBE] >= nt).any()
        or (cities[:, L.C_LEVEL] < 1).any()
        or (cities[:, L.C_BOUND] < 1).any()
        or (cities[:, L.C_BOUND] > 5).any()
        or (cities[:, L.C_NU] < 0).any()
        or (cities[:, L.C_NU] > L.MAXCU).any()
    ):
        _fail("a city field is out of range")
    for row in cities:
        if (kinds[row[L.C_U0 : L.C_U0 + row[L.C_NU]]] != L.KIND_UNIT).any():
            _fail("a city lists a unit that does not exist")
    for t in range(nt):
        o = L.tribes_off(n) + t * L.TW
        cap = int(buf[o + L.T_CAP])
        if not 0 < cap < L.MAXID or kinds[cap] != L.KIND_CITY:
            _fail(f"tribe {t}'s capital is not a city")
        for start, count, cap_, kind in (
            (L.T_TC, L.T_NTC, L.MAXTC, L.KIND_CITY),
            (L.T_EX, L.T_NEX, L.MAXEX, L.KIND_UNIT),
            (L.T_CONN, L.T_NCONN, L.MAXCONN, L.KIND_CITY),
        ):
            m = int(buf[o + count])
            if not 0 <= m <= cap_:
                _fail(f"tribe {t}'s list length is out of range")
            ids = buf[o + start : o + start + m]
            if (ids <= 0).any() or (ids >= L.MAXID).any() or (kinds[ids] != kind).any():
                _fail(f"tribe {t}'s list names a missing unit or city")
        if not 0 <= int(buf[o + L.T_TYPE]) < len(C.TRIBES) or int(buf[o + L.T_TECHS]) < 0:
            _fail(f"tribe {t}'s type or technologies are out of range")
    return buf


def encode(state: TribesState) -> np.ndarray:
    """Pack a Python position into a new buffer (layout: :mod:`.layout`)."""
    if not isinstance(state, TribesState):
        raise TypeError(f"tribes compiled: encode takes a TribesState, not {type(state)}")
    _check_game(state.game)
    if not state.native:
        raise ValueError("tribes compiled: an agent's observed copy cannot be encoded")
    return L.encode(state)


def decode(buf: np.ndarray, game: TribesGame) -> TribesState:
    """The Python position of a buffer, as a state of ``game`` (checked as a JSON load is).

    Raises:
        ValueError: If the buffer is malformed or belongs to another configuration.
    """
    check_buffer(buf)
    _check_game(game)
    if (
        int(buf[L.H_SIZE]) != game.size
        or int(buf[L.H_NT]) != game.num_players
        or int(buf[L.H_MODE]) != game.mode
        or int(buf[L.H_MAXTURNS]) != game.max_turns
    ):
        raise ValueError("tribes compiled: the buffer is of another configuration of Tribes")
    return TribesState._from_dict(game, L.to_dict(buf))


def _scratch(buf: np.ndarray) -> np.ndarray:
    return np.empty(NUM_PLANES * int(buf[L.H_N]) + 32, dtype=np.int64)


def legal_actions(buf: np.ndarray) -> np.ndarray:
    """The legal actions, ascending, as ``TribesState.legal_action_list`` (empty at the end)."""
    check_buffer(buf)
    out = _scratch(buf)
    return out[: _legal_actions(buf, out)].copy()


def apply(buf: np.ndarray, action: int) -> None:
    """Play ``action`` on the buffer in place, as ``TribesState.apply`` does.

    Raises:
        IllegalActionError: If the action is not legal here (the buffer is unchanged).
        ValueError: If the game exceeded a capacity of the layout (the buffer is then
            marked and refused by every later call).
    """
    check_buffer(buf, writable=True)
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise IllegalActionError(f"tribes compiled: an action is an integer, not {action!r}")
    out = _scratch(buf)
    k = _legal_actions(buf, out)
    if int(action) not in out[:k].tolist():
        why = "the game is over" if k == 0 else "not in the legal action list"
        raise IllegalActionError(
            f"tribes compiled: illegal action {int(action)} for tribe {int(buf[L.H_PLAYER])}: {why}"
        )
    _play.apply_action(buf, int(action), out)
    if buf[L.H_ERR]:
        check_buffer(buf)


def is_terminal(buf: np.ndarray) -> bool:
    """The game in the buffer is over."""
    check_buffer(buf)
    return bool(buf[L.H_OVER])


def returns(buf: np.ndarray) -> np.ndarray:
    """+1 for the winner, -1/(n-1) for every other tribe; zeros before the end."""
    check_buffer(buf)
    n, nt = int(buf[L.H_N]), int(buf[L.H_NT])
    out = np.zeros(nt, dtype=np.float64)
    if buf[L.H_OVER]:
        for t in range(nt):
            won = buf[L.tribes_off(n) + t * L.TW + L.T_RESULT] == C.WIN
            out[t] = 1.0 if won else -1.0 / (nt - 1)
    return out


@dataclass(frozen=True)
class GameResults:
    """The outcome of a batch of compiled games.

    Attributes:
        winners: Per game, the winning tribe's seat.
        turns: Per game, the turn counter (tick) at the end.
        decisions: Per game, the actions taken.
        num_tribes: Tribes per game.
    """

    winners: np.ndarray
    turns: np.ndarray
    decisions: np.ndarray
    num_tribes: int

    @property
    def returns(self) -> np.ndarray:
        """``(games, tribes)`` returns: +1 for the winner, -1/(n-1) for the others."""
        out = np.full((len(self.winners), self.num_tribes), -1.0 / (self.num_tribes - 1))
        out[np.arange(len(self.winners)), self.winners] = 1.0
        return out


def action_stream(seed: int, k: int) -> np.random.Generator:
    """The generator whose ``integers(len(legal))`` picks game ``k``'s actions."""
    return np.random.default_rng([int(seed) + k, 18])


def prepare_games(
    game: TribesGame | Sequence[TribesGame], n: int, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """The start buffers and action streams of :func:`play_random_games` (levels in Python).

    Args:
        game: The configuration, or several of one board size: game ``k`` is then of
            ``game[k % len(game)]`` (as the benchmark cycles through its levels).
        n: Number of games.
        seed: Game ``k`` starts from ``new_initial_state(seed + k)``.

    Returns:
        ``(starts, streams)``: one row per game, for :func:`run_games`.

    Raises:
        TypeError, ValueError: For a bad game, ``n`` or ``seed``.
    """
    games = [game] if isinstance(game, TribesGame) else list(game)  # type: ignore[arg-type]
    if not games:
        raise ValueError("tribes compiled: no game given")
    for g in games:
        _check_game(g)
    if len({g.geo.n for g in games}) != 1:
        raise ValueError("tribes compiled: the games must share one board size")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"tribes compiled: seed must be an integer, got {seed!r}")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"tribes compiled: n must be a non-negative integer, got {n!r}")
    n, seed = int(n), int(seed)
    size = L.buffer_size(games[0].geo.n)
    starts = np.zeros((n, size), dtype=np.int64)
    for k in range(n):
        starts[k] = L.encode(games[k % len(games)].new_initial_state(seed + k))
    streams = np.array(
        [from_numpy(action_stream(seed, k)) for k in range(n)], dtype=np.int64
    ).reshape(n, 6)
    return starts, streams


def run_games(starts: np.ndarray, streams: np.ndarray) -> GameResults:
    """Play the prepared games to their end in compiled code (``starts`` is played in place).

    Raises:
        TypeError, ValueError: If a buffer is malformed or a game exceeded the layout.
    """
    if (
        not isinstance(starts, np.ndarray)
        or not isinstance(streams, np.ndarray)
        or starts.ndim != 2
        or streams.shape != (len(starts), 6)
        or streams.dtype != np.int64
        or not streams.flags.c_contiguous
    ):
        raise TypeError("tribes compiled: run_games takes the arrays of prepare_games")
    for row in starts:
        check_buffer(row, writable=True)
    out = np.zeros((len(starts), 2), dtype=np.int64)
    _play.play_games(starts, streams, out)
    bad = np.flatnonzero(out[:, 1])
    if len(bad):
        check_buffer(starts[bad[0]])
    nt = int(starts[0, L.H_NT]) if len(starts) else 2
    return GameResults(starts[:, L.H_RANK].copy(), starts[:, L.H_TICK].copy(), out[:, 0].copy(), nt)


def play_random_games(game: TribesGame, n: int, seed: int = 0) -> GameResults:
    """Play ``n`` whole games of uniformly random legal actions in compiled code.

    Game ``k`` starts from ``game.new_initial_state(seed + k)`` (generated in Python) and
    picks its actions with ``action_stream(seed, k).integers(len(legal))``: a Python loop
    with that generator plays the very same game.

    Raises:
        TypeError, ValueError: For a bad game, ``n`` or ``seed``, or a game that exceeded the
            layout's capacities.
    """
    starts, streams = prepare_games(game, n, seed)
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return GameResults(empty, empty, empty, game.num_players)
    return run_games(starts, streams)
