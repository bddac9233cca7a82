"""CotG combat agents: the four scripts on drawn scenarios, PGS, MCTS / MCTS-HP, the tournaments.

Scripts follow ``specs/cotg_combat_spec.md`` section 5 (SparCraft's definitions adapted to hexes),
PGS section 7 (SparCraft's ``PortfolioGreedySearch.cpp``), MCTS and MCTS-HP the paper's Listings
1 and 2. Boards as in ``test_cotg_combat_rules.py``: slots are numbered in reading order.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import stratagem.baselines.cotg_combat as cotg
from stratagem.baselines import make_agent
from stratagem.baselines.cotg_combat.mcts_script import _Node
from stratagem.baselines.cotg_combat.scripts import SCRIPTS, play_turn
from stratagem.baselines.tournament import pair_score, run_tournament
from stratagem.envs.cotg_combat import CotgCombatGame

# --------------------------------------------------------------------------------- helpers


def scenario(placed: dict[tuple[int, int], str], size: int = 7, **kwargs):
    rows = [["."] * size for _ in range(size)]
    for (q, r), token in placed.items():
        rows[r][q] = token
    layout = "\n".join(" ".join(row) for row in rows)
    return CotgCombatGame(armies=layout, **kwargs).new_initial_state()


def plan(state, script: str) -> list[str]:
    """The readable actions of one turn of ``script`` for every unit (the state is kept)."""
    actions: list[int] = []
    play_turn(state.clone(), SCRIPTS[script], actions)
    return [state.game.action_to_string(a) for a in actions]


def with_hp(state, hp: dict[int, int]):
    data = json.loads(state.to_json())
    for uid, value in hp.items():
        data["state"]["hp"][uid] = value
    return state.game.state_from_json(json.dumps(data))


def position_after(state, script: str, uid: int) -> tuple[int, int]:
    copy = state.clone()
    play_turn(copy, SCRIPTS[script])
    u = copy.unit(uid)
    return u.q, u.r


RNG = np.random.default_rng(0)

# --------------------------------------------------------------------------------- scripts


def test_target_choice_closest_versus_value():
    # own Battleship (range 3) at (3,3); enemy d (slot 0) at (3,0), 3 hexes, and b (slot 1)
    # at (5,3), 2 hexes away
    s = scenario({(3, 3): "B", (3, 0): "d", (5, 3): "b"}, units=2)
    assert plan(s, "attack_closest") == ["attack 0 -> 1", "end_turn"]
    # value = strength / hp: Destroyer 6/12 beats Battleship 4/24
    assert plan(s, "attack_value") == ["attack 0 -> 0", "end_turn"]
    assert plan(s, "nokav") == ["attack 0 -> 0", "end_turn"]
    kiter = plan(s, "kiter")
    assert kiter[0] == "attack 0 -> 1" and kiter[-1] == "end_turn"


def test_closest_ties_break_on_lower_hit_points():
    # two enemy Destroyers at distance 1 from the Destroyer; the wounded one is attacked
    s = scenario({(3, 3): "D", (4, 3): "d", (3, 2): "d", (6, 6): "b"}, units=3)
    assert plan(s, "attack_closest")[0] == "attack 0 -> 0"  # (3,2) is enemy slot 0
    s = with_hp(s, {4: 5})  # enemy slot 1 (4,3) wounded
    assert plan(s, "attack_closest")[0] == "attack 0 -> 1"


def test_value_ties_break_on_distance():
    s = scenario({(3, 3): "B", (3, 0): "d", (4, 3): "d"}, units=2)
    # both Destroyers are worth 6/12; (4,3) (enemy slot 1) is closer
    assert plan(s, "attack_value")[0] == "attack 0 -> 1"


def test_approach_when_nothing_is_in_range():
    # Destroyer (power 4) at (0,3), enemy 6 hexes away at (6,3): it walks to (4,3)
    s = scenario({(0, 3): "D", (6, 3): "d"}, units=1)
    for script in ("attack_closest", "attack_value", "nokav", "kiter"):
        assert position_after(s, script, 0) == (4, 3), script
        assert plan(s, script)[-1] == "end_turn"
        assert not any(a.startswith("attack") for a in plan(s, script))


def test_approach_then_attack():
    # Battleship (power 3, range 3) 5 hexes from the enemy: moves in and attacks this turn
    s = scenario({(1, 3): "B", (6, 3): "d"}, units=1)
    for script in ("attack_closest", "attack_value", "nokav"):
        steps = plan(s, script)
        assert steps[0].startswith("move") and steps[1] == "attack 0 -> 0", script
        # approach minimises the distance: it ends 2 hexes from the target
        assert position_after(s, script, 0) == (4, 3)


def test_kiter_stops_at_range_attacks_and_falls_back():
    s = scenario({(1, 3): "B", (6, 3): "d"}, units=1)
    steps = plan(s, "kiter")
    # to (3,3) (cost 2, exactly 3 hexes from the enemy), attack, then retreat with the last
    # point to a hex 4 away: (2,3) and (3,2) tie on distance and cost, the lower cell wins
    assert steps == ["move 0 (+2,+0)", "attack 0 -> 0", "move 0 (+0,-1)", "end_turn"]
    copy = s.clone()
    play_turn(copy, SCRIPTS["kiter"], end=False)
    assert (copy.unit(0).q, copy.unit(0).r, copy.unit(0).power) == (3, 2, 0)
    assert copy.unit(1).hp == 12 - 4


def test_kiter_in_range_attacks_then_retreats():
    s = scenario({(3, 3): "B", (4, 3): "d"}, units=1)
    copy = s.clone()
    play_turn(copy, SCRIPTS["kiter"], end=False)
    u = copy.unit(0)
    assert copy.unit(1).hp == 8 and u.power == 0 and u.attacked
    assert abs(u.q - 4) + abs(u.r - 3) + abs(u.q - 4 + u.r - 3) == 2 * 4  # 4 hexes away now
    # the other scripts stay and fight
    assert position_after(s, "nokav", 0) == (3, 3)


def test_units_act_in_slot_order_on_the_updated_state():
    # slot 0 (3,2) kills the wounded Destroyer at (3,3); slot 1 (2,3) then finds nothing in
    # range and walks towards the Battleship instead of hitting a dead unit
    s = scenario({(3, 2): "D", (2, 3): "D", (3, 3): "d", (5, 1): "b"}, units=2)
    s = with_hp(s, {3: 6})  # enemy slot 1 is (3,3) (slot 0 is the Battleship at (5,1))
    steps = plan(s, "nokav")
    assert steps[0] == "attack 0 -> 1"
    assert "attack 1 -> 1" not in steps
    assert steps[1].startswith("move 1")


def test_nokav_equals_attack_value_under_sequential_resolution():
    # hits resolve at once, so no assigned damage is ever pending: the two scripts agree
    game = CotgCombatGame(units=6)
    for seed in range(6):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            a, b = [], []
            play_turn(state.clone(), SCRIPTS["nokav"], a)
            play_turn(state.clone(), SCRIPTS["attack_value"], b)
            assert a == b
            play_turn(state, SCRIPTS["kiter"])


def test_turn_context_keeps_the_nokav_ledger():
    s = scenario({(3, 3): "D", (4, 3): "d", (6, 6): "b"}, units=2)
    ctx = cotg.TurnContext(s.clone())
    cotg.SCRIPTS["nokav"](ctx, 0)
    assert ctx.hp_left is not None and ctx.hp_left[2] == 12 - 6  # enemy slot 0 is (4,3)
    assert ctx.calls == 1


@pytest.mark.parametrize("script", ["attack_closest", "attack_value", "nokav", "kiter"])
def test_scripts_play_legal_turns_to_the_end(script):
    game = CotgCombatGame(units=5)
    for seed in range(3):
        state = game.new_initial_state(seed)
        agent = make_agent(f"cotg_script:script={script}", game)
        other = make_agent("cotg_nokav", game)
        while not state.is_terminal():
            mover = agent if state.current_player == 0 else other
            action = mover.act(state.clone(), rng=RNG)
            assert state.legal_action_mask()[action]
            state.apply(action)
        assert state.turn <= game.turn_limit


def test_plan_agent_replans_when_the_state_is_not_the_expected_one():
    s = scenario({(1, 3): "B", (6, 3): "d"}, units=1)
    agent = make_agent("cotg_kiter", s.game)
    first = agent.act(s.clone(), rng=RNG)
    assert s.game.action_to_string(first) == "move 0 (+2,+0)"
    # someone else moved the unit: the agent plans again from the new position
    s.apply(s.game.string_to_action("move 0 (+1,+0)"))
    second = agent.act(s.clone(), rng=RNG)
    assert s.legal_action_mask()[second]
    assert agent.plans == 2


def test_rule_based_is_nokav_and_names_resolve():
    game = CotgCombatGame(units=3)
    assert isinstance(make_agent("rule_based", game), cotg.NokavAgent)
    assert make_agent("cotg_kiter", game).script == "kiter"
    agent = make_agent("cotg_pgs:iterations=3,responses=3,time_limit=0.5", game)
    assert (agent.iterations, agent.responses, agent.time_limit) == (3, 3, 0.5)
    agent = make_agent("cotg_mcts_hp:time_limit=0.1", game)
    assert agent.hp and agent.name == "cotg_mcts_hp_100"
    assert not make_agent("cotg_mcts:iterations=5,time_limit=null", game).hp


@pytest.mark.parametrize(
    ("spec", "match"),
    [
        ("cotg_script:script=dance", "unknown script"),
        ("cotg_pgs:iterations=0", "iterations"),
        ("cotg_pgs:responses=-1", "responses"),
        ("cotg_pgs:portfolio=nokav|fly", "unknown script"),
        ("cotg_pgs:portfolio=nokav|nokav", "repeats"),
        ("cotg_pgs:enemy_script=x", "enemy_script"),
        ("cotg_pgs:time_limit=0", "time_limit"),
        ("cotg_mcts:time_limit=null", "give budget, time_limit or iterations"),
        ("cotg_mcts:samples=-1", "samples"),
        ("cotg_mcts:budget=0", "budget"),
        ("cotg_mcts:playout_turns=0", "playout_turns"),
        ("cotg_mcts:clock=sundial", "clock"),
        ("cotg_mcts:speed=3", "speed"),
    ],
)
def test_bad_agent_parameters_are_named(spec, match):
    with pytest.raises(ValueError, match=match):
        make_agent(spec, CotgCombatGame(units=2))


def test_agents_refuse_other_games():
    from stratagem.envs import list_games, make_game

    other = next(name for name in list_games() if name != "cotg_combat")
    with pytest.raises(ValueError, match="cotg_combat only"):
        make_agent("cotg_nokav", make_game(other))


# --------------------------------------------------------------------------------- PGS


def test_ltd2_score():
    s = scenario({(0, 0): "D", (6, 6): "b", (5, 6): "d"}, units=2)
    expected = math.sqrt(12) * 6 - (math.sqrt(24) * 4 + math.sqrt(12) * 6)
    assert cotg.ltd2_score(s) == pytest.approx(expected)
    won = scenario({(2, 3): "D", (3, 3): "d"}, units=1, unit_stats={"destroyer": {"hp": 6}})
    won.apply(won.game.string_to_action("attack 0 -> 0"))
    assert cotg.ltd2_score(won) == pytest.approx(math.sqrt(6) * 6 + 100_000)


def _evaluations(agent) -> int:
    return agent.last_stats["playouts"] + agent.last_stats["cache_hits"]


def test_pgs_counts_seed_improve_and_respond():
    s = scenario({(1, 3): "B", (5, 3): "d"}, units=1)
    pgs = cotg.PGSAgent(s.game, iterations=1, responses=0, time_limit=None)
    pgs.act(s.clone(), rng=RNG)
    # seeds: 2 scripts x 2 players, then one Improve over one unit: 2 more evaluations
    assert _evaluations(pgs) == 6
    assert pgs.last_stats["cache_hits"] >= 1  # (nokav, nokav) is shared by both seeds
    uncached = cotg.PGSAgent(s.game, iterations=1, responses=0, time_limit=None, cache=False)
    uncached.act(s.clone(), rng=RNG)
    assert uncached.last_stats["playouts"] == 6 and uncached.last_stats["cache_hits"] == 0
    deep = cotg.PGSAgent(s.game, iterations=3, responses=3, time_limit=None)
    deep.act(s.clone(), rng=RNG)
    assert deep.last_stats["improves"] == 7
    assert _evaluations(deep) == 4 + 7 * 3 * 2


def test_pgs_time_limit_and_budget_stop_the_improvement():
    s = CotgCombatGame(units=5).new_initial_state(1)
    quick = cotg.PGSAgent(s.game, iterations=5, responses=5, time_limit=1e-9)
    quick.act(s.clone(), rng=RNG)
    assert _evaluations(quick) == 4  # seeds only: every Improve stops before its first unit
    poor = cotg.PGSAgent(s.game, iterations=5, responses=5, time_limit=None, budget=1)
    poor.act(s.clone(), rng=RNG)
    assert _evaluations(poor) == 4


def test_pgs_improves_on_its_seed():
    # one Battleship against a wounded Destroyer 4 hexes away and a healthy one further off;
    # whatever PGS picks must score at least as well as every uniform assignment
    s = scenario({(1, 3): "B", (5, 3): "d", (6, 0): "d"}, units=2)
    pgs = cotg.PGSAgent(s.game, time_limit=None)
    action = pgs.act(s.clone(), rng=RNG)
    assert s.legal_action_mask()[action]
    assert pgs.last_stats["seed"] in ("nokav", "kiter")


# --------------------------------------------------------------------------------- MCTS


def test_hp_node_value_follows_the_paper():
    # Figure 3: a playout ending with 9 HP of player 1 left, seen from nodes with 10 and 210 HP
    assert cotg.hp_node_value(9, (10, 0)) == pytest.approx(0.9)
    assert cotg.hp_node_value(9, (210, 50)) == pytest.approx(9 / 210)
    # Listing 2: a negative value is normalised by player 2's hit points in the node
    assert cotg.hp_node_value(-43, (158, 86)) == pytest.approx(-0.5)
    assert cotg.hp_node_value(0, (10, 10)) == 0.0
    for delta, hp in ((24, (24, 30)), (-30, (24, 30))):
        assert -1.0 <= cotg.hp_node_value(delta, hp) <= 1.0


def test_node_expansion_order_kiter_first():
    game = CotgCombatGame(units=5)
    state = game.new_initial_state(0)
    node = _Node(state, 2, 8)
    import random

    prng = random.Random(0)
    first, second = node.next_vector(prng, 2), node.next_vector(prng, 2)
    assert first == (0,) * 5 and second == (1,) * 5  # all-Kiter, then all-NOKAV
    rest = [node.next_vector(prng, 2) for _ in range(8)]
    assert len(set(rest)) == 8 and all(v is not None and len(v) == 5 for v in rest)
    assert node.next_vector(prng, 2) is None  # 2 + 8 children: fully expanded
    small = _Node(scenario({(0, 0): "D", (1, 0): "B", (6, 6): "b"}, units=2), 2, 8)
    vectors = [small.next_vector(prng, 2) for _ in range(4)]
    assert vectors == [(0, 0), (0, 1), (1, 0), (1, 1)]  # all 2^2 vectors, in order
    assert small.next_vector(prng, 2) is None


def test_mcts_respects_iterations_and_budget():
    state = CotgCombatGame(units=5).new_initial_state(2)
    for hp in (False, True):
        agent = cotg.ScriptMCTSAgent(state.game, hp=hp, time_limit=None, iterations=7)
        action = agent.act(state.clone(), rng=RNG)
        assert state.legal_action_mask()[action]
        assert agent.last_stats["iterations"] == 7
        one = cotg.ScriptMCTSAgent(state.game, hp=hp, time_limit=None, budget=1)
        one.act(state.clone(), rng=RNG)
        assert one.last_stats["iterations"] == 1


def test_mcts_time_limit_is_kept():
    state = CotgCombatGame(units=5).new_initial_state(3)
    agent = cotg.ScriptMCTSAgent(state.game, hp=True, time_limit=0.05)
    agent.act(state.clone(), rng=RNG)
    # checked between iterations: one playout at most beyond the limit
    assert agent.last_stats["cpu_seconds"] < 0.05 + 0.2
    assert agent.last_stats["iterations"] >= 1


def test_mcts_is_reproducible_given_the_generator():
    state = CotgCombatGame(units=4).new_initial_state(5)
    a = cotg.ScriptMCTSAgent(state.game, hp=True, time_limit=None, iterations=20)
    b = cotg.ScriptMCTSAgent(state.game, hp=True, time_limit=None, iterations=20)
    assert a.act(state.clone(), rng=np.random.default_rng(9)) == b.act(
        state.clone(), rng=np.random.default_rng(9)
    )
    timeless = ("seconds", "cpu_seconds")
    assert {k: v for k, v in a.last_stats.items() if k not in timeless} == {
        k: v for k, v in b.last_stats.items() if k not in timeless
    }


def test_mcts_hp_beats_nokav_in_symmetric_battles():
    result = run_tournament(
        "cotg_combat",
        {"hp": "cotg_mcts_hp:time_limit=null,iterations=30", "nokav": "cotg_nokav"},
        games=6,
        config={"units": 3},
        level_seeds=[0, 1, 2],
        symmetric=True,
        tie_break="hp",
    )
    scores = result.scores("hp", "nokav")
    assert len(scores) == 3 and np.mean(scores) >= 2 / 3


# --------------------------------------------------------------------------------- evaluator


def test_hp_evaluator():
    s = scenario({(2, 3): "D", (3, 3): "b"}, units=1)
    ev = cotg.CotgHPEvaluator(s.game)
    assert list(ev.evaluate(s)) == [0.0, 0.0]
    s.apply(s.game.string_to_action("attack 0 -> 0"))
    v = ev.evaluate(s)
    assert v[0] == pytest.approx(0.5 * 4 / 24) and v[1] == pytest.approx(-v[0])
    won = scenario({(2, 3): "D", (3, 3): "d"}, units=1, unit_stats={"destroyer": {"hp": 6}})
    won.apply(won.game.string_to_action("attack 0 -> 0"))
    assert list(ev.evaluate(won)) == [1.0, -1.0]


def test_generic_planner_uses_the_hp_evaluator():
    pytest.importorskip("stratagem.baselines.search")
    from stratagem.baselines.evaluators import default_evaluator

    game = CotgCombatGame(units=2)
    assert isinstance(default_evaluator(game), cotg.CotgHPEvaluator)
    agent = make_agent("mcts:budget=200", game)
    state = game.new_initial_state(0)
    assert state.legal_action_mask()[agent.act(state.clone(), rng=RNG)]


# --------------------------------------------------------------------------------- tournaments


def _game(first: str, winner: int, hp: tuple[int, int]) -> dict:
    """A tournament record of agents A and B with ``first`` in seat 0 (only what scoring reads)."""
    names = ["A", "B"] if first == "A" else ["B", "A"]
    scores = [1.0, 0.0] if winner == 0 else [0.0, 1.0] if winner == 1 else [0.5, 0.5]
    return {"key": first, "names": names, "scores": scores, "stats": {"hp": [float(h) for h in hp]}}


def sym_win_score(games: list[dict]) -> float:
    return pair_score(games[0], games[1], "A", "B", tie_break="hp")


def test_sym_win_scoring():
    """The paper's sym-win, as the tournament runner scores a symmetric pair (HP tie-break)."""
    # A (seat 0 first, then seat 1) wins both, loses both, splits
    assert sym_win_score([_game("A", 0, (10, 0)), _game("B", 1, (0, 10))]) == 1.0
    assert sym_win_score([_game("A", 1, (0, 10)), _game("B", 0, (10, 0))]) == 0.0
    # 1:1: the agent with more hit points left over the two games takes the sym-win
    assert sym_win_score([_game("A", 0, (30, 0)), _game("B", 0, (12, 0))]) == 1.0
    assert sym_win_score([_game("A", 0, (12, 0)), _game("B", 0, (30, 0))]) == 0.0
    assert sym_win_score([_game("A", 0, (12, 0)), _game("B", 0, (12, 0))]) == 0.5
    # a win and a draw beat a draw and a loss
    assert sym_win_score([_game("A", 0, (5, 0)), _game("B", -1, (50, 40))]) == 1.0
    assert sym_win_score([_game("A", -1, (10, 20)), _game("B", -1, (15, 10))]) == 0.0


def test_symmetric_tournament_hands_out_one_point_per_battle():
    agents = {"NOKAV": "cotg_nokav", "Kiter": "cotg_kiter", "AttackClosest": "cotg_attack_closest"}
    result = run_tournament(
        "cotg_combat",
        agents,
        games=4,
        config={"units": 2},
        level_seeds=[2018, 2019],
        symmetric=True,
        tie_break="hp",
    )
    assert len(result.records) == 3 * 4 and {r["seed"] for r in result.records} == {2018, 2019}
    battles = result.battles()
    assert len(battles) == 3 * 2
    total = sum(len(result.scores(name)) * np.mean(result.scores(name)) for name in agents)
    assert total == pytest.approx(len(battles))  # every battle hands out exactly 1 point
    assert "2 symmetric pairs per pairing; a split pair goes to the larger hp" in result.table()
