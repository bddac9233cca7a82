"""Terra Mystica agents: the evaluator, the greedy rule-based agent, and the planners on it."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.baselines.agent import make_agent
from stratagem.baselines.terra_mystica import TerraMysticaEvaluator, TerraMysticaRuleBasedAgent
from stratagem.envs import make_game
from stratagem.envs.terra_mystica import actions as A
from stratagem.envs.terra_mystica.scenario import position


def _play(game, agents, seed: int):
    st = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for agent in agents:
        agent.reset()
    while not st.is_terminal():
        st.apply(agents[st.current_player].act(st.observed_by(st.current_player), rng=rng))
    return st


def test_evaluator_prefers_more_vp_and_buildings_and_is_relative():
    game = make_game("terra_mystica")
    ev = TerraMysticaEvaluator(game)
    a = position(game, buildings={"A1": (0, "D"), "I1": (1, "D")})
    b = position(game, buildings={"A1": (0, "D"), "A2": (0, "D"), "I1": (1, "D")})
    c = position(game, buildings={"A1": (0, "D"), "I1": (1, "D")}, resources={0: {"VP": 30}})
    assert ev.evaluate(b)[0] > ev.evaluate(a)[0]
    assert ev.evaluate(c)[0] > ev.evaluate(a)[0] + 9
    values = ev.evaluate(a)
    assert abs(values[0] + values[1]) < 1e-9  # two players: each other's margin
    with pytest.raises(ValueError, match="unknown weight"):
        TerraMysticaEvaluator(game, colour=1.0)


def test_evaluator_at_the_end_is_the_vp_margin():
    game = make_game("terra_mystica")
    rng = np.random.default_rng(0)
    st = game.new_initial_state(0)
    while not st.is_terminal():
        legal = st.legal_action_list()
        st.apply(legal[rng.integers(len(legal))])
    ev = TerraMysticaEvaluator(game)
    margin = st.final[0] - st.final[1]
    assert ev.evaluate(st).tolist() == [10.0 * margin, -10.0 * margin]


def test_rule_based_agent_is_the_registered_one_and_validates_options():
    game = make_game("terra_mystica")
    agent = make_agent("rule_based", game)
    assert isinstance(agent, TerraMysticaRuleBasedAgent)
    assert make_agent("rule_based:late_leech=5,token=0.5", game).late_leech == 5
    with pytest.raises(ValueError):
        make_agent("rule_based:late_leech=0", game)
    with pytest.raises(ValueError):
        TerraMysticaRuleBasedAgent(make_game("kill_the_king"))


def test_rule_based_opening_builds_on_home_terrain_and_acts_before_passing():
    game = make_game("terra_mystica")
    agent = TerraMysticaRuleBasedAgent(game)
    st = game.new_initial_state(1)
    rng = np.random.default_rng(1)
    first = agent.act(st, rng=rng)
    assert first // 117 == 7 + st.F[0].home  # a dwelling on its own terrain
    # a fresh round-1 turn with plenty of resources: it does something before passing
    tiles = [f"BON{i + 1}" for i in range(9) if game.new_initial_state(0).bon_supply[i]]
    st = position(
        game,
        buildings={"E8": (0, "D"), "A1": (1, "D")},
        resources={0: {"C": 20, "W": 8}},
        bonus={0: tiles[0], 1: tiles[1]},
    )
    action = agent.act(st, rng=rng)
    assert not (A.A_PASS <= action < A.A_PASS + 9)


def test_rule_based_leech_policy():
    game = make_game("terra_mystica")
    agent = TerraMysticaRuleBasedAgent(game)
    rng = np.random.default_rng(0)
    st = position(
        game, buildings={"E8": (0, "D"), "E6": (1, "TP")}, resources={0: {"C": 20, "W": 10}}
    )
    st.apply(game.string_to_action("build E7 on plains"))
    st.apply(A.X_END)
    assert agent.act(st, rng=rng) == A.X_ACCEPT  # 2 power for 1 VP in round 1
    st = position(
        game,
        round=6,
        buildings={"E8": (0, "D"), "E6": (1, "TP")},
        resources={0: {"C": 20, "W": 10}},
    )
    st.apply(game.string_to_action("build E7 on plains"))
    st.apply(A.X_END)
    assert agent.act(st, rng=rng) == A.X_DECLINE  # power is nearly worthless in round 6


def test_rule_based_beats_random_by_a_wide_margin():
    game = make_game("terra_mystica")
    margins = []
    for seed in range(2):
        st = _play(game, [TerraMysticaRuleBasedAgent(game), make_agent("random", game)], seed)
        margins.append(st.final[0] - st.final[1])
    assert min(margins) > 20


def test_mcts_uses_the_terra_mystica_evaluator_and_plays_a_legal_game():
    game = make_game("terra_mystica")
    mcts = make_agent("mcts:budget=60", game)
    st = position(game, buildings={"E8": (0, "D"), "A1": (1, "D")}, resources={0: {"C": 9}})
    action = mcts.act(st, rng=np.random.default_rng(0))
    assert action in st.legal_action_list()
    assert mcts.last_stats.fm_calls <= 60
