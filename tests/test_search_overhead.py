"""The search-overhead work of issue 18: faster paths that must give the very same results.

The AimToKing evaluator's distance tables, the closed-loop MCTS's visit-count tables and the
garbage collector paused during tree searches change only the cost of a decision: the values,
the moves and the statistics stay those of the plain code.
"""

from __future__ import annotations

import gc
import math
import random
from typing import Any

import numpy as np
import pytest

from stratagem.baselines.agent import make_agent
from stratagem.baselines.kill_the_king import _aim_by_units, aim_to_king_list
from stratagem.baselines.search import common, mcts
from stratagem.envs.kill_the_king import KillTheKingGame
from stratagem.envs.registry import make_game

#: Two Kings a side: the tables' one-King fast path does not apply, the unit loop does.
TWO_KINGS = """\
k0 .  .  .  .  k0
w0 .  .  .  .  .
.  .  .  .  .  .
.  .  .  a1 k1 k1
"""


def _plain(state: Any) -> list[float]:
    """AimToKing by the plain unit loop (what the tables must reproduce)."""
    if state.is_terminal():
        return aim_to_king_list(state)
    return _aim_by_units(*state.unit_columns())


def _walk(game: Any, seeds: range, prng: random.Random) -> list[Any]:
    """Every state of random games, terminal ones included."""
    out = []
    for seed in seeds:
        state = game.new_initial_state(seed)
        while True:
            out.append(state.clone())
            if state.is_terminal():
                break
            legal = state.legal_action_list()
            state.apply(legal[int(prng.random() * len(legal))])
    return out


@pytest.mark.parametrize("config", [{}, {"map": "kwah"}, {"map": "small:7"}])
def test_aim_to_king_tables_give_the_unit_loop_floats(config: dict[str, Any]) -> None:
    game = make_game("kill_the_king", **config)
    for state in _walk(game, range(4), random.Random(5)):
        assert aim_to_king_list(state) == _plain(state)


def test_aim_to_king_with_several_kings_uses_the_last_living_one() -> None:
    game = KillTheKingGame(map=TWO_KINGS, max_rounds=50)
    states = _walk(game, range(3), random.Random(1))
    assert any(not s.is_terminal() for s in states)
    for state in states:
        assert aim_to_king_list(state) == _plain(state)


def test_visit_tables_hold_the_expressions_floats() -> None:
    top = mcts._visit_tables(3000)
    assert top >= 3000
    for n in range(1, top + 1):
        inv = 1.0 / n
        assert mcts._INV[n] == inv
        assert mcts._ISQ[n] == math.sqrt(inv)
        assert mcts._SQRT_LOG[n] == math.sqrt(math.log(n))


def test_gc_paused_restores_the_collector_state() -> None:
    assert gc.isenabled()
    with common.gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with common.gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the caller's choice is kept
    finally:
        gc.enable()


def test_mcts_decision_leaves_the_collector_on_and_matches_with_it_off() -> None:
    """The collector is back on after a search, and pausing it changes no statistic."""
    game = make_game("kill_the_king", map="kwah")
    state = game.new_initial_state(3)
    for _ in range(6):
        state.apply(state.legal_action_list()[0])
    results = []
    for pauses in (True, False):
        agent = make_agent("mcts:budget=400", game)
        agent.pauses_gc = pauses
        action = agent.act(state.clone(), rng=np.random.default_rng(4))
        assert gc.isenabled()
        stats = agent.last_stats
        results.append((action, stats.fm_calls, stats.iterations, repr(stats.extra)))
    assert results[0] == results[1]
