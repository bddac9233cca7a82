"""The compiled Tribes engine is the readable rules, decision for decision (issue 18).

``stratagem.envs.tribes.compiled`` is a second implementation of the rules in numba. These tests
hold it to the Python rules, the one definition:

* generator: the compiled PCG64 draws what numpy's ``default_rng`` draws (``integers``,
  ``permutation``), so games that draw (ruins, explorers, captures, the final tie-break) stay
  the same game;
* step level: random games (actions drawn in Python) of the benchmark's configurations and of
  other ones (default options, Score mode, 3 and 4 tribes, every tribe, small boards, bundled
  levels, short games); at every decision the compiled legal action list equals
  ``legal_action_list()``, the compiled buffer equals ``encode`` of the Python state, and the
  terminal flag and returns agree (``decode`` of the buffer equals the state every 25 decisions
  and at the end);
* whole games: ``play_random_games`` plays exactly the game a Python loop plays with the same
  action stream;
* the Python boundary refuses bad input (illegal actions, foreign or corrupt buffers, partial
  observability) with a clear error and leaves the buffer untouched.

The default run plays a few dozen games; ``-m slow`` plays thousands.
"""

from __future__ import annotations

import collections
import random
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("numba")

from stratagem.envs import make_game
from stratagem.envs.core import IllegalActionError
from stratagem.envs.tribes import compiled as TC
from stratagem.envs.tribes.compiled import layout as L
from stratagem.envs.tribes.compiled import rng as R
from stratagem.envs.tribes.rules import TribesGame

#: ``benchmarks/reference_speed.py``'s ``TRIBES_CONFIGS`` (tribes, level seed).
BENCH = (
    ("XIN_XI,IMPERIUS", 11),
    ("BARDUR,OUMAJI", 21),
    ("OUMAJI,XIN_XI", 31),
    ("XIN_XI,IMPERIUS", 12),
    ("BARDUR,OUMAJI", 22),
    ("OUMAJI,XIN_XI", 32),
)
BENCH_GAMES = [
    make_game("tribes", map=f"seed:{lv}", tribes=t.lower(), num_players=2, mode="capitals")
    for t, lv in BENCH
]
#: Other supported configurations (full observability: partial is refused).
OTHER_CONFIGS = (
    {},
    {"mode": "score"},
    {"num_players": 3},
    {"num_players": 4, "mode": "score"},
    {"num_players": 4, "tribes": "oumaji,bardur,imperius,xin_xi"},
    {"map_size": 8, "num_players": 3},
    {"map_size": 6, "num_players": 4, "mode": "score"},
    {"map": "SampleLevel2p", "mode": "score", "max_rounds": 12},
    {"map": "MinimalLevel2", "max_rounds": 7},
    {"num_players": 3, "mode": "score", "max_rounds": 4},
    {"map": "paper", "tribes": "bardur,oumaji"},
)
OTHER_GAMES = [make_game("tribes", **cfg) for cfg in OTHER_CONFIGS]


def play_checked(game: TribesGame, seed: int, kinds: collections.Counter | None = None) -> int:
    """One random game (actions drawn in Python), both engines compared at every decision.

    Returns:
        The decisions played.
    """
    state = game.new_initial_state(seed)
    buf = TC.encode(state)
    rng = random.Random(seed)
    decisions = 0
    while True:
        legal = state.legal_action_list()
        assert TC.legal_actions(buf).tolist() == legal, (seed, decisions)
        assert TC.is_terminal(buf) == state.is_terminal()
        np.testing.assert_array_equal(TC.returns(buf), state.returns())
        if state.is_terminal() or decisions % 25 == 0:
            assert TC.decode(buf, game) == state, (seed, decisions)
        if state.is_terminal():
            return decisions
        action = legal[rng.randrange(len(legal))]
        if kinds is not None:
            kinds[state.action_kind(action)] += 1
        state.apply(action)
        TC.apply(buf, action)
        decisions += 1
        expected = TC.encode(state)
        if not np.array_equal(expected, buf):
            where = np.flatnonzero(expected != buf)[:8].tolist()
            pytest.fail(
                f"seed {seed}, decision {decisions} ({game.action_to_string(action)}): "
                f"buffers differ at {where}"
            )


# ------------------------------------------------------------------ generator


@pytest.mark.parametrize("seed", range(20))
def test_generator_draws_as_numpy(seed: int) -> None:
    g = np.random.default_rng(seed)
    buf = np.array(R.from_numpy(g), dtype=np.int64)
    for step in range(300):
        if step % 3 == 0:
            n = step % 6 + 1
            expected = g.permutation(n) if n > 1 else np.arange(n)
            arr = np.arange(n, dtype=np.int64)
            R.shuffle(buf, 0, arr, n)
            assert arr.tolist() == expected.tolist()
        else:
            k = (1, 2, 3, 5, 8, 24, 100, 1 << 31)[step % 8]
            assert R.randint(buf, 0, k) == int(g.integers(k))
    assert buf.tolist() == R.from_numpy(g)
    assert R.from_numpy(R.to_numpy(buf.tolist())) == buf.tolist()


# ------------------------------------------------------------------ step level


@pytest.mark.parametrize("k", range(len(BENCH_GAMES)))
def test_benchmark_configs_match_python(k: int) -> None:
    kinds: collections.Counter = collections.Counter()
    for seed in (k, 100 + k):
        assert play_checked(BENCH_GAMES[k], seed, kinds) > 0
    assert kinds["move"] and kinds["research"] and kinds["end_turn"]


@pytest.mark.parametrize("k", range(len(OTHER_CONFIGS)))
def test_other_configs_match_python(k: int) -> None:
    assert play_checked(OTHER_GAMES[k], 7 + k) > 0


@pytest.mark.slow
def test_thousands_of_games_match_python() -> None:
    kinds: collections.Counter = collections.Counter()
    games = BENCH_GAMES + OTHER_GAMES
    for seed in range(2100):
        play_checked(games[seed % len(games)], 1000 + seed, kinds)
    rare = ("examine", "convert", "heal", "upgrade", "veteran", "capture", "attack", "destroy")
    assert all(kinds[kind] for kind in rare), kinds


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize("game", [BENCH_GAMES[0], OTHER_GAMES[3]], ids=["bench", "4p-score"])
def test_random_games_are_the_python_games(game: TribesGame) -> None:
    results = TC.play_random_games(game, 3, seed=40)
    for k in range(3):
        state = game.new_initial_state(40 + k)
        stream = TC.action_stream(40, k)
        decisions = 0
        while not state.is_terminal():
            legal = state.legal_action_list()
            state.apply(legal[int(stream.integers(len(legal)))])
            decisions += 1
        assert results.decisions[k] == decisions
        assert results.turns[k] == state.tick
        assert results.winners[k] == state.ranking[0]
        np.testing.assert_array_equal(results.returns[k], state.returns())


def test_prepared_games_run_in_place() -> None:
    starts, streams = TC.prepare_games(BENCH_GAMES[1], 2, seed=3)
    results = TC.run_games(starts, streams)
    assert all(TC.is_terminal(row) for row in starts)
    assert (
        results.decisions.tolist() == TC.play_random_games(BENCH_GAMES[1], 2, 3).decisions.tolist()
    )
    assert len(TC.play_random_games(BENCH_GAMES[1], 0).winners) == 0


# ------------------------------------------------------------------ the boundary


def test_boundary_refuses_bad_input() -> None:
    state = BENCH_GAMES[0].new_initial_state(0)
    buf = TC.encode(state)
    keep = buf.copy()
    with pytest.raises(TypeError):
        TC.legal_actions(buf.tolist())
    with pytest.raises(TypeError):
        TC.legal_actions(buf.astype(np.int32))
    with pytest.raises(TypeError):
        TC.legal_actions(np.stack([buf, buf])[:, ::2][0])
    with pytest.raises(ValueError, match="magic"):
        TC.legal_actions(np.zeros_like(buf))
    with pytest.raises(ValueError, match="does not match"):
        TC.legal_actions(buf[:-1].copy())
    bad = buf.copy()
    bad[L.HEADER + L.P_UNIT * 121 + 5] = 400
    with pytest.raises(ValueError, match="corrupt"):
        TC.apply(bad, int(TC.legal_actions(buf)[0]))
    bad = buf.copy()
    bad[L.HEADER + L.P_TLVL * 121 + 3] = 9  # a temple level past the table of points
    with pytest.raises(ValueError, match="tile plane 6"):
        TC.legal_actions(bad)
    bad = buf.copy()
    bad[L.H_PLAYER] = 7
    with pytest.raises(ValueError, match="corrupt"):
        TC.is_terminal(bad)
    frozen = buf.copy()
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        TC.apply(frozen, int(TC.legal_actions(buf)[-1]))
    with pytest.raises(IllegalActionError, match="not in the legal"):
        TC.apply(buf, 0)
    with pytest.raises(IllegalActionError):
        TC.apply(buf, True)
    with pytest.raises(IllegalActionError):
        TC.apply(buf, 10**12)
    np.testing.assert_array_equal(buf, keep)
    with pytest.raises(TypeError):
        TC.encode("state")
    assert TC.decode(buf, BENCH_GAMES[0]) == state
    with pytest.raises(ValueError, match="another configuration"):
        TC.decode(buf, OTHER_GAMES[3])
    with pytest.raises(TypeError):
        TC.play_random_games(BENCH_GAMES[0], 1, seed=1.5)
    with pytest.raises(ValueError):
        TC.play_random_games(BENCH_GAMES[0], -1)
    with pytest.raises(TypeError):
        TC.play_random_games("tribes", 1)
    with pytest.raises(TypeError):
        TC.run_games(buf, buf)


def test_partial_observability_is_refused() -> None:
    game = make_game("tribes", observability="partial")
    with pytest.raises(ValueError, match="partial observability"):
        TC.encode(game.new_initial_state(0))
    with pytest.raises(ValueError, match="partial observability"):
        TC.play_random_games(game, 1)


def test_game_over_refuses_actions() -> None:
    game = make_game("tribes", map="MinimalLevel2", max_rounds=2)
    state = game.new_initial_state(0)
    buf = TC.encode(state)
    while not TC.is_terminal(buf):
        TC.apply(buf, int(TC.legal_actions(buf)[-1]))
    assert TC.legal_actions(buf).size == 0
    with pytest.raises(IllegalActionError, match="game is over"):
        TC.apply(buf, 0)


def test_importing_tribes_does_not_import_numba() -> None:
    code = "import sys, stratagem.envs.tribes; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
