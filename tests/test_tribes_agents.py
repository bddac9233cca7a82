"""Tribes agents: the paper's rule-based agent, the DIFF evaluator, and planners on Tribes."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.baselines.agent import make_agent
from stratagem.baselines.tribes import (
    DIFF_WEIGHTS,
    TribesDiffEvaluator,
    TribesRuleBasedAgent,
    diff_features,
)
from stratagem.envs.registry import make_game
from stratagem.envs.tribes import cities as CT
from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes import units as UN
from stratagem.envs.tribes.levelgen import parse_level
from stratagem.envs.tribes.rules import TribesGame, TribesState


def board(cells=None, size=8) -> str:
    grid = [[".:" for _ in range(size)] for _ in range(size)]
    for (r, c), v in (cells or {}).items():
        grid[r][c] = v
    grid[1][1] = "c:0"
    grid[6][6] = "c:1"
    return "\n".join(",".join(row) for row in grid)


def start(text=None) -> TribesState:
    level = parse_level(text or board())
    game = TribesGame(map_size=level.size, tribes="xin_xi,imperius")
    s = game.new_initial_state(0, level=level)
    for uid in list(s.units):
        UN.remove_unit(s, uid)
    for city in s.cities.values():
        city[CT.C_NEED] = 99
    s._legal = None
    return s


def put(s, utype, tribe, r, c, hp=None) -> int:
    uid = UN.add_unit(s, UN.new_unit(utype, tribe, r * s.geo.size + c, 0, hp=hp, status=C.FRESH))
    s._legal = None
    return uid


def scored(s: TribesState) -> dict[str, int]:
    agent = TribesRuleBasedAgent(s.game)
    return {s.game.action_to_string(a): v for a, v in agent.scores(s).items()}


# ----------------------------------------------------------------------------- rule-based


def test_rule_based_priorities():
    s = start(board({(3, 3): "v:"}))
    s.techs[0] |= 1 << C.FREE_SPIRIT
    s.stars[0] = 20
    put(s, C.WARRIOR, 0, 3, 3)
    put(s, C.SWORDSMAN, 0, 2, 5, hp=5)
    put(s, C.WARRIOR, 1, 2, 6, hp=3)
    sc = scored(s)
    assert sc["capture (3,3)"] == 5
    assert sc["disband (3,3)"] == -2
    assert sc["end_turn"] == -1
    assert sc["attack (2,5)->(2,6)"] == 5  # healthier, and attack 3 beats defence 2
    s.units[s.unit_at[2 * 8 + 5]][0] = C.WARRIOR
    assert scored(s)["attack (2,5)->(2,6)"] == 1  # attack 2 does not beat defence 2
    assert sc["research_mining"] == 5 and sc["research_riding"] == 4
    assert sc["research_meditation"] == 3


def test_rule_based_build_scores_as_compiled():
    # the reference's switch falls through: every building scores 1 (+5 - needed), forest
    # temple 0, and nothing at all under 8 stars
    cells = {(0, 1): ".:c", (0, 2): ".:"}
    s = start(board(cells))
    s.techs[0] |= (1 << C.FARMING) | (1 << C.FREE_SPIRIT)
    s.stars[0] = 30
    sc = scored(s)
    needed = 1 + 1 - CT.production(s.cities[s.capital[0]])
    assert sc["build_farm (0,1)"] == min(5, max(0, 1 + 5 - needed))
    assert sc["build_temple (0,2)"] == sc["build_farm (0,1)"]
    s.stars[0] = 7
    s._legal = None
    assert scored(s)["build_farm (0,1)"] == 0


def test_rule_based_spawn_defends_a_threatened_city():
    s = start()
    s.techs[0] |= (1 << C.SHIELDS) | (1 << C.RIDING)
    s.stars[0] = 10
    assert scored(s)["spawn_defender (1,1)"] == 3
    put(s, C.WARRIOR, 1, 2, 2)  # an enemy inside the city's borders
    sc = scored(s)
    assert sc["spawn_defender (1,1)"] == 5 and sc["spawn_rider (1,1)"] == 0


def test_rule_based_plays_best_and_only_ends_turn_when_nothing_else():
    s = start()
    put(s, C.WARRIOR, 0, 3, 3)
    agent = make_agent("rule_based", s.game)
    rng = np.random.default_rng(0)
    action = agent.act(s, rng=rng)
    assert s.game.action_to_string(action) != "end_turn"
    best = max(agent.scores(s).values())
    assert agent.scores(s)[action] == best


def test_rule_based_beats_random():
    game = make_game("tribes", max_rounds=16)
    rb, rnd = make_agent("rule_based", game), make_agent("random", game)
    wins = 0
    for g in range(4):
        s = game.new_initial_state(g)
        seats = [rb, rnd] if g % 2 == 0 else [rnd, rb]
        rngs = [np.random.default_rng(10 * g + k) for k in range(2)]
        while not s.is_terminal():
            p = s.current_player
            s.apply(seats[p].act(s.observed_by(p), rng=rngs[p]))
        wins += s.returns()[g % 2] > 0
    assert wins >= 3


# ----------------------------------------------------------------------------- DIFF


def test_diff_features_and_weights():
    s = start()
    put(s, C.WARRIOR, 0, 3, 3)
    f = diff_features(s)
    assert f.shape == (2, 9)
    assert f[0, 0] == 2 and f[0, 3] == 1 and f[0, 4] == 1 and f[0, 6] == 1
    assert DIFF_WEIGHTS == (5.0, 4.0, 0.1, 4.0, 2.0, 3.0, 2.0)


def test_diff_evaluator_measures_progress_from_the_root():
    s = start()
    ev = TribesDiffEvaluator(s.game)
    ev.set_root(s)
    assert np.allclose(ev.evaluate(s), 0.0)
    after = s.clone()
    put(after, C.WARRIOR, 0, 3, 3)  # +1 unit (2) and 10 score (0.1 × 10 = 1)
    after.score[0] += 10
    v = ev.evaluate(after)
    assert v[0] == pytest.approx(3.0) and v[1] == pytest.approx(-3.0)


def test_planners_play_tribes_with_the_diff_evaluator():
    game = make_game("tribes", max_rounds=4)
    s = game.new_initial_state(1)
    spec = "mcts:budget=60,rollout_length=5,rollouts=false,prioritize_root=true"
    ev = "evaluator=stratagem.baselines.tribes:TribesDiffEvaluator"
    agent = make_agent(f"{spec},{ev},exclude_kinds=disband|destroy", game)
    action = agent.act(s.observed_by(s.current_player), rng=np.random.default_rng(0))
    assert action in s.legal_action_list()
    assert agent.last_stats.fm_calls <= 60
    assert s.action_group(action) in ("unit", "city", "tribe")
