"""The compiled engine's Python boundary: checked step-level calls and batches of whole games.

numba does no bounds checks, so nothing reaches compiled code unchecked: every call checks the
buffer (type, size, version, and every index the engine follows, :func:`check_buffer`) and
every action (it must be in the legal list), and raises ``ValueError`` (an
:class:`~stratagem.envs.core.IllegalActionError` for an action) naming the problem, leaving the
buffer untouched.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from stratagem.envs.compiled_common import check_position_array
from stratagem.envs.core import IllegalActionError
from stratagem.envs.prismata.actions import ActionLayout
from stratagem.envs.prismata.cards import CARDS
from stratagem.envs.prismata.compiled import actions as _actions
from stratagem.envs.prismata.compiled import bot as _bot
from stratagem.envs.prismata.compiled import layout as L
from stratagem.envs.prismata.compiled.engine import SCRATCH_PER_UNIT
from stratagem.envs.prismata.compiled.tables import card_table
from stratagem.envs.prismata.data import K
from stratagem.envs.prismata.rules import PrismataGame, PrismataState

__all__ = [
    "GameResults",
    "apply",
    "check_buffer",
    "decode",
    "encode",
    "is_terminal",
    "legal_actions",
    "play_random_games",
    "record_game",
    "returns",
]

#: The card table every compiled call reads (built once, read-only).
TABLE = card_table()

#: What each fault number of ``phases.check_buffer`` means.
FAULTS = {
    1: "a header field (player, phase, winner, breach_frozen, turn) is out of range",
    2: "a player's slot counts are out of range",
    3: "a live list names a slot that is out of range or free",
    4: "a live list does not list exactly the occupied slots",
    5: "a unit's card index is not a library card",
    6: "the pending slot is not a living targeting unit of the player to move",
    7: "the card set or a supply entry is malformed",
    8: "a resource is negative",
}

Bot = Literal["random", "uniform"]
_BOTS = {"random": _bot.RANDOM, "uniform": _bot.UNIFORM}


def check_buffer(buf: object, *, writable: bool = False) -> np.ndarray:
    """``buf`` as a position buffer the compiled engine can follow safely.

    Args:
        buf: The object to check.
        writable: The caller will write the buffer (``apply``).

    Returns:
        ``buf`` itself.

    Raises:
        TypeError: If ``buf`` is not a 1-D C-contiguous int64 array.
        ValueError: If it is not a compiled Prismata position, or an index in it is out of
            range (the message names which).
    """
    buf = check_position_array(buf, "prismata compiled", writable=writable)
    if buf.size < L.UNITS or int(buf[L.H_MAGIC]) != L.MAGIC:
        raise ValueError("prismata compiled: not a position buffer (wrong size or magic number)")
    size = int(buf[L.H_MAX_UNITS])
    if not 16 <= size <= 1000 or buf.size != L.buffer_size(size):
        raise ValueError(
            f"prismata compiled: buffer of {buf.size} ints does not match its max_units={size}"
        )
    fault = int(_actions.check_buffer(buf, TABLE))
    if fault:
        raise ValueError(f"prismata compiled: corrupt position buffer: {FAULTS[fault]}")
    return buf


def encode(state: PrismataState) -> np.ndarray:
    """Pack a Python position into a new buffer (layout: :mod:`.layout`)."""
    if not isinstance(state, PrismataState):
        raise TypeError(f"prismata compiled: encode takes a PrismataState, not {type(state)}")
    return L.encode(state)


def decode(buf: np.ndarray, game: PrismataGame) -> PrismataState:
    """The Python position of a buffer, as a state of ``game``.

    Raises:
        ValueError: If the buffer is malformed or belongs to a game with another
            ``max_units`` or ``max_rounds``, or holds a unit of a card outside its card set.
    """
    check_buffer(buf)
    size, limit = int(buf[L.H_MAX_UNITS]), int(buf[L.H_TURN_LIMIT])
    if size != game.max_units or limit != game.turn_limit:
        raise ValueError(
            f"prismata compiled: the buffer is of another game (max_units={size}, "
            f"turn limit {limit}; this game: {game.max_units}, {game.turn_limit})"
        )
    state = L.decode(buf, game)
    for p in (0, 1):
        for s in state.live[p]:
            t = state.u[p][s * K]
            if not state.card_in_game(t):
                raise ValueError(
                    f"prismata compiled: player {p}'s unit #{s} is a {CARDS[t].name}, "
                    f"which is not in the buffer's card set"
                )
    return state


def _work(buf: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    size = int(buf[L.H_MAX_UNITS])
    types = np.empty(len(CARDS), dtype=np.int64)
    ntypes = int(_actions.buyable_types(buf, types))
    legal = np.empty(len(CARDS) + 5 * size + 1, dtype=np.int64)
    return types, legal, np.empty(SCRATCH_PER_UNIT * size, dtype=np.int64), ntypes


def legal_actions(buf: np.ndarray) -> np.ndarray:
    """The legal actions, in ``PrismataState.legal_action_list`` order (empty at the end)."""
    check_buffer(buf)
    types, legal, _, ntypes = _work(buf)
    n = _actions.legal_actions(buf, TABLE, types, ntypes, legal)
    return legal[:n].copy()


def apply(buf: np.ndarray, action: int) -> None:
    """Play ``action`` on the buffer in place, as ``PrismataState.apply`` does.

    Raises:
        IllegalActionError: If the action is not legal here (the buffer is unchanged).
    """
    check_buffer(buf, writable=True)
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise IllegalActionError(f"prismata compiled: an action is an integer, not {action!r}")
    types, legal, scratch, ntypes = _work(buf)
    n = _actions.legal_actions(buf, TABLE, types, ntypes, legal)
    if int(action) not in legal[:n].tolist():
        layout = ActionLayout(int(buf[L.H_MAX_UNITS]))
        try:
            name = layout.to_string(int(action))
        except ValueError:
            name = "outside the action space"
        why = "the game is over" if n == 0 else "not in the legal action list"
        raise IllegalActionError(
            f"prismata compiled: illegal action {int(action)} ({name}) for player "
            f"{int(buf[L.H_PLAYER])}: {why}"
        )
    _actions.apply_action(buf, TABLE, int(action), scratch)


def is_terminal(buf: np.ndarray) -> bool:
    """The game in the buffer is over (won or drawn)."""
    check_buffer(buf)
    return int(buf[L.H_WINNER]) != L.PLAYING


def returns(buf: np.ndarray) -> np.ndarray:
    """+1 for the winner, -1 for the loser, zeros for a draw or an unfinished game."""
    check_buffer(buf)
    out = np.zeros(2, dtype=np.float64)
    winner = int(buf[L.H_WINNER])
    if winner >= 0:
        out[winner] = 1.0
        out[1 - winner] = -1.0
    return out


@dataclass(frozen=True)
class GameResults:
    """The outcome of a batch of compiled games.

    Attributes:
        winners: Per game, -1 for a draw (the turn limit), else the winning player.
        turns: Per game, the player-turns played (``PrismataState.turn`` at the end).
        decisions: Per game, the actions taken.
    """

    winners: np.ndarray
    turns: np.ndarray
    decisions: np.ndarray

    @property
    def returns(self) -> np.ndarray:
        """``(n, 2)`` returns per game and player: +1 win, -1 loss, 0 draw."""
        out = np.zeros((len(self.winners), 2), dtype=np.float64)
        won = self.winners >= 0
        out[won, self.winners[won]] = 1.0
        out[won, 1 - self.winners[won]] = -1.0
        return out


def _bot_code(bot: str) -> int:
    if bot not in _BOTS:
        raise ValueError(f"prismata compiled: bot must be one of {sorted(_BOTS)}, got {bot!r}")
    return _BOTS[bot]


def _seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"prismata compiled: seed must be an integer, got {seed!r}")
    return int(seed)


def play_random_games(
    game: PrismataGame, n: int, seed: int = 0, bot: Bot = "random"
) -> GameResults:
    """Play ``n`` whole games in compiled code: the fast path for random playouts.

    Game ``k`` starts from ``game.new_initial_state(seed + k)`` (so a ``random:N`` game draws
    its cards from that seed) and its draws are seeded ``(seed + k) mod 2**32``: each game
    replays from its seed alone. They are not the games the Python agents play from the same
    seed (numba's generator is not numpy's ``Generator``).

    Args:
        game: The Prismata configuration.
        n: Number of games.
        seed: Seed of game 0.
        bot: ``"random"``: the Random bot of ``bots.toml`` (``prismata_random``) in both
            seats; ``"uniform"``: a uniformly random legal action at every decision.

    Returns:
        Winners, turns and decisions per game.
    """
    if not isinstance(game, PrismataGame):
        raise TypeError(f"prismata compiled: play_random_games takes a PrismataGame, not {game!r}")
    code = _bot_code(bot)
    seed = _seed(seed)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"prismata compiled: n must be a non-negative integer, got {n!r}")
    n = int(n)
    if game._fixed is None:  # the cards depend on the seed
        starts = np.stack([L.encode(game.new_initial_state(seed + k)) for k in range(max(n, 1))])
        which = np.arange(n, dtype=np.int64)
    else:
        starts = L.encode(game.new_initial_state(seed))[None, :]
        which = np.zeros(n, dtype=np.int64)
    seeds = (seed + np.arange(n, dtype=np.int64)) % (1 << 32)
    out = np.zeros((n, 3), dtype=np.int64)
    _bot.play_games(starts, which, seeds, TABLE, code, out)
    return GameResults(out[:, 0].copy(), out[:, 1].copy(), out[:, 2].copy())


def record_game(
    state: PrismataState, seed: int, bot: Bot = "random", capacity: int = 200_000
) -> tuple[np.ndarray, np.ndarray]:
    """Play one compiled game from ``state`` and record it, for tests and debugging.

    Returns:
        The final buffer, and the record: one row per draw ``(options, index)`` and per action
        taken ``(action, -1)``, in order.

    Raises:
        RuntimeError: If the game needs more than ``capacity`` rows.
    """
    code = _bot_code(bot)
    buf = encode(state)
    types, legal, scratch, _ = _work(buf)
    rec = np.zeros((capacity, 2), dtype=np.int64)
    count = np.zeros(1, dtype=np.int64)
    _bot.seed(_seed(seed) % (1 << 32))
    _bot.play_game(buf, TABLE, code, legal, scratch, types, rec, count)
    if count[0] > capacity:
        raise RuntimeError(f"prismata compiled: the game needed {count[0]} > {capacity} rows")
    return buf, rec[: count[0]].copy()
