"""Two Kingdoms rules as small scripted scenarios on tiny inline boards, plus its agents.

Checked against ``specs/stratega_rules.md`` sections 0 (TBS engine) and 3 (TK), and where the
spec is terse against the reference C++ Stratega, branch ``scsa_tk``:

* ``tk_*.yaml``: the City's ``[Spawn, Empty]`` with ``CanSpawn: [Worker, Warrior]``, Spawn with
  ``Cooldown: 0`` onto a walkable ``Square`` 1 neighbour, costs Prod 50 (Worker) and Gold 40
  (Warrior), Score +2; Move with ``Cooldown: 1`` setting movement points to the minimum; Attack
  (``Cooldown: 1``) of Attackable entities of another player within ``Range`` 1.5; Mine
  (``Cooldown: 1``) of a GoldVein in ``Circle`` 1 with ``Gold >= 40``: Transfer 40 and
  ``Attack(Source.Health, 12``; OnTick: City owners gain 1 Prod, movement points refilled;
  player parameters ``Gold [0,0,1000]``, ``Prod [0,50,100]``; lose condition
  ``HasNoEntity(Source, King)``; ``RoundLimit: 100``;
* ``Entity.cpp``: a new entity's ``lastExecutedTick`` is 0, so it may act in its first turn.

Boards: the first row is ``y = 0`` and ``x`` runs left to right; ``c k o w`` are City, King,
Warrior and Worker followed by the owner; ``g`` is a neutral gold vein.
"""

from __future__ import annotations

import numpy as np
import pytest
from scenario_helpers import act, assert_illegal, legal_names

from stratagem.baselines import make_agent
from stratagem.baselines.two_kingdoms import TwoKingdomsEvaluator, TwoKingdomsRuleBasedAgent
from stratagem.envs import make_game
from stratagem.envs.two_kingdoms import (
    CITY,
    GOLD_VEIN,
    KING,
    WARRIOR,
    WORKER,
    MapError,
    TwoKingdomsGame,
)

# --------------------------------------------------------------------------------- helpers


def new_state(layout: str, **kwargs):
    return TwoKingdomsGame(map=layout, **kwargs).new_initial_state()


def give(state, player: int, *, gold: int | None = None, prod: int | None = None) -> None:
    """Set a player's resources directly (through the JSON round trip, as a saved game would)."""
    import json

    data = json.loads(state.to_json())
    if gold is not None:
        data["state"]["gold"][player] = gold
    if prod is not None:
        data["state"]["prod"][player] = prod
    restored = state.game.state_from_json(json.dumps(data))
    state._gold, state._prod = restored._gold, restored._prod


MINE_BOARD = """
M  M  M  M  M  M
M  c0 .  .  .  M
M  k0 w0 g  .  M
M  .  .  .  k1 M
M  M  M  M  M  M
"""


# --------------------------------------------------------------------------------- board


def test_default_board_matches_the_reference():
    state = TwoKingdomsGame().new_initial_state()
    assert (state.width, state.height) == (11, 11)
    found = [(u.type, u.owner, u.x, u.y) for u in state.units()]
    assert found == [
        (CITY, 1, 2, 1),
        (KING, 1, 2, 2),
        (GOLD_VEIN, -1, 5, 3),
        (GOLD_VEIN, -1, 5, 7),
        (KING, 0, 2, 8),
        (CITY, 0, 2, 9),
    ]
    assert state.board.terrain[2 * 11 + 4] == 3  # the irregular row: Forest at x = 4
    assert (state.gold(0), state.prod(0), state.score(0)) == (0, 50, 0)
    assert [v.gold for v in state.veins()] == [120, 120]
    assert len(TwoKingdomsGame(map="tk").boards) == 50
    assert len(TwoKingdomsGame(map="ntbea").boards) == 10


def test_bad_maps_and_options():
    with pytest.raises(MapError, match="no King"):
        new_state("c0 k1\n. .")
    with pytest.raises(MapError, match="unknown token"):
        new_state("k0 z1\n. k1")
    with pytest.raises(ValueError, match="research"):
        TwoKingdomsGame(research="yes")
    with pytest.raises(MapError, match="tk:1 .. tk:50"):
        TwoKingdomsGame(map="tk:0")
    with pytest.raises(ValueError, match="unknown option"):
        make_game("two_kingdoms", gold=5)


# --------------------------------------------------------------------------------- spawning


def test_city_spawns_a_worker_for_50_prod_on_any_free_neighbour():
    state = new_state(
        """
        M  M  M  M  M
        M  .  c0 M  M
        M  k0 .  W  M
        M  M  M  M  k1
        """
    )
    assert legal_names(state, "spawn") == {
        "spawn_worker (2,1)->(1,1)",
        "spawn_worker (2,1)->(2,2)",
    }  # (1,2) holds the King; M and W tiles are not walkable
    act(state, "spawn_worker (2,1)->(2,2)")
    worker = state.unit_at(2, 2)
    assert worker.type == WORKER and worker.owner == 0 and worker.health == 30
    assert (state.prod(0), state.score(0)) == (0, 2)
    assert legal_names(state, "spawn") == set()  # 0 Prod left
    # a new unit acts in the turn it appears (lastExecutedTick 0, full movement point)
    assert "move (2,2)->(1,1)" in legal_names(state)


def test_two_spawns_in_one_turn():
    state = new_state(
        """
        M  M  M  M  M
        M  .  c0 .  M
        M  .  .  .  M
        M  k0 M  M  k1
        """
    )
    give(state, 0, gold=80, prod=100)
    act(state, "spawn_warrior (2,1)->(1,1)", "spawn_warrior (2,1)->(3,1)")
    assert state.gold(0) == 0 and state.count(0, WARRIOR) == 2
    act(state, "spawn_worker (2,1)->(2,2)", "spawn_worker (2,1)->(1,2)")
    assert state.prod(0) == 0 and state.count(0, WORKER) == 2
    assert state.score(0) == 8
    assert legal_names(state, "spawn") == set()


# --------------------------------------------------------------------------------- mining


def test_mining_gives_40_gold_and_costs_the_worker_12_health():
    state = new_state(MINE_BOARD)
    assert legal_names(state, "mine") == {"mine (2,2)->(3,2)"}
    act(state, "mine (2,2)->(3,2)")
    assert state.gold(0) == 40 and state.mined(0) == 40
    assert state.veins()[0].gold == 80
    assert state.unit_at(2, 2).health == 18
    assert_illegal(state, "mine (2,2)->(3,2)")  # cooldown 1
    act(state, "end_turn", "end_turn")
    act(state, "mine (2,2)->(3,2)")
    assert state.unit_at(2, 2).health == 6
    act(state, "end_turn", "end_turn")
    act(state, "mine (2,2)->(3,2)")  # third mine: 6 - 12 < 0, the worker dies
    assert state.unit_at(2, 2) is None
    assert state.gold(0) == 120 and state.veins()[0].gold == 0
    assert state.count(0, WORKER) == 0


def test_an_exhausted_vein_cannot_be_mined_and_mining_is_orthogonal():
    state = new_state(
        """
        M  M  M  M  M
        M  w0 .  g  M
        M  k0 w0 .  M
        M  .  .  .  k1
        """
    )
    # (1,1) is two tiles from the vein; (2,2) is diagonal to it: neither may mine
    assert legal_names(state, "mine") == set()
    act(state, "move (2,2)->(2,1)")
    assert legal_names(state, "mine") == {"mine (2,1)->(3,1)"}


# --------------------------------------------------------------------------------- moves, combat


def test_move_and_empty_share_the_movement_point_attack_once_a_round():
    state = new_state(
        """
        M  M  M  M  M
        M  k0 .  o1 M
        M  .  .  .  M
        M  c1 .  k1 M
        """
    )
    assert "attack (1,1)->(2,1)" not in legal_names(state)
    act(state, "move (1,1)->(2,2)")  # diagonal step
    assert legal_names(state, "move") == set() and legal_names(state, "empty (2,2)") == set()
    assert legal_names(state, "attack") == {
        "attack (2,2)->(3,1)",
        "attack (2,2)->(1,3)",
        "attack (2,2)->(3,3)",
    }
    act(state, "attack (2,2)->(3,1)")  # King: 50 damage
    assert state.unit_at(3, 1).health == 50
    assert legal_names(state, "attack") == set()
    act(state, "end_turn")
    act(state, "attack (3,1)->(2,2)")  # Warrior: 70 damage
    assert state.unit_at(2, 2).health == 130


def test_killing_the_king_wins_and_the_city_is_not_fatal():
    state = new_state(
        """
        M  M  M  M
        M  o0 c1 M
        M  k0 k1 M
        """
    )
    for _ in range(3):  # the Warrior hits the City (70 a round), the King the King (50)
        act(state, "attack (1,1)->(2,1)", "attack (1,2)->(2,2)", "end_turn", "end_turn")
    assert state.city(1) is None  # 210 >= 200: destroyed, and the game goes on
    assert state.winner is None
    assert state.unit_at(2, 2).health == 50
    act(state, "attack (1,1)->(2,2)")  # diagonal, within range 1.5: 70 > 50
    assert state.unit_at(2, 2) is None
    assert state.winner == 0 and list(state.returns()) == [1.0, -1.0]
    assert state.legal_action_list() == []


def test_gold_veins_cannot_be_attacked_or_entered():
    state = new_state(
        """
        M  M  M  M
        M  k0 g  M
        M  .  .  k1
        """
    )
    assert legal_names(state, "attack") == set()
    assert "move (1,1)->(2,1)" not in legal_names(state)


def test_prod_income_and_movement_refill_at_round_end():
    state = new_state(MINE_BOARD)
    give(state, 0, prod=99)
    act(state, "empty (1,1)")
    assert legal_names(state, "empty (1,1)") == set()
    act(state, "end_turn")
    assert state.prod(0) == 99  # not yet: the round ends when player 0 is to move again
    act(state, "end_turn")
    assert state.tick == 2 and state.prod(0) == 100
    act(state, "end_turn", "end_turn")
    assert state.prod(0) == 100  # clamped at its maximum
    assert state.prod(1) == 50  # player 1 has no City
    assert "empty (1,1)" in legal_names(state)


def test_max_rounds_draw():
    state = new_state(MINE_BOARD, max_rounds=1)
    act(state, "end_turn", "end_turn")
    assert state.winner == -1 and list(state.returns()) == [0.0, 0.0]


# --------------------------------------------------------------------------------- research


def test_research_variant_gates_workers_behind_mining():
    state = new_state(MINE_BOARD, research=True)
    assert legal_names(state, "spawn_worker") == set()
    assert legal_names(state, "research") == {"research_mining (1,1)"}
    act(state, "research_mining (1,1)")
    assert state.prod(0) == 48 and state.researching(0)
    assert legal_names(state, "research") == set()
    assert legal_names(state, "spawn_worker") == set()
    act(state, "end_turn", "end_turn")  # one round later it is done
    assert state.mining_researched(0) and not state.researching(0)
    assert state.score(0) == 10
    assert "empty (1,1)" not in legal_names(state)  # OnComplete took the City's point
    assert state.prod(0) == 49
    give(state, 0, prod=50)
    assert "spawn_worker (1,1)->(2,1)" in legal_names(state)


def test_research_is_inert_without_the_option():
    state = new_state(MINE_BOARD)
    assert legal_names(state, "research") == set()
    assert_illegal(state, "research_mining (1,1)")


# --------------------------------------------------------------------------------- agents


def test_heuristic_economy_and_battle_modes():
    game = TwoKingdomsGame()
    state = game.new_initial_state()
    ev = TwoKingdomsEvaluator(game)
    ev.set_root(state)
    diag = (2 * 11 * 11) ** 0.5
    home = 1.0  # the King stands next to its City
    expected = (0 + 0 + 20 * (4 * diag - home) / (4 * diag)) / 100
    assert ev.evaluate(state) == pytest.approx([expected, expected])
    assert not ev.abstraction_ready(0)
    ev.battle[0] = True
    # battle: mine = {King}; theirs = enemy King + the two gold veins
    manhattan = 6  # (2,8) -> (2,2)
    battle = (1 - manhattan / 400 + 1 - 200 / 400 + 1 / 20 - 3 / 20 + 2) / 4
    assert ev.evaluate(state)[0] == pytest.approx(battle)
    ev.set_root(game.new_initial_state())  # an earlier round: a new game
    assert not ev.abstraction_ready(0)


def test_heuristic_reads_gold_of_the_player_to_move():
    state = new_state(MINE_BOARD)
    act(state, "mine (2,2)->(3,2)")  # player 0 has 40 gold
    quirky = TwoKingdomsEvaluator().evaluate(state)
    fixed = TwoKingdomsEvaluator(reference_quirks=False).evaluate(state)
    assert quirky[1] == pytest.approx(fixed[1] + 18 * 40 / 120 / 100)
    assert quirky[0] == pytest.approx(fixed[0])


def test_rule_based_agent_spawns_a_worker_then_heads_for_the_nearest_vein():
    game = TwoKingdomsGame()
    agent = TwoKingdomsRuleBasedAgent(game, random_probability=0.0)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    played = []
    for _ in range(5):
        action = agent.act(state.clone(), rng=rng)
        played.append(game.action_to_string(action))
        state.apply(action)
    # player 0: the first free tile x-major is (1,8); the worker steps toward (5,7), the vein
    # nearest its City; player 1's worker at (1,1) has a single step, at index 0 of its action
    # list, which the reference ignores: it stays
    assert played == [
        "spawn_worker (2,9)->(1,8)",
        "move (1,8)->(2,7)",
        "end_turn",
        "spawn_worker (2,1)->(1,1)",
        "end_turn",
    ]


def test_rule_based_worker_quirk_index_zero_is_ignored():
    game = TwoKingdomsGame(
        map="""
        M  M  M  M  M  M
        M  w0 .  .  .  M
        M  M  g  M  M  M
        M  c0 k0 M  k1 M
        M  M  M  M  M  M
        """
    )
    agent = TwoKingdomsRuleBasedAgent(game, random_probability=0.0)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    # the worker at (1,1) can mine (2,2)? no: diagonal. Its only step (2,1) is index 0: ignored
    assert game.action_to_string(agent.act(state.clone(), rng=rng)) == "end_turn"
    act(state, "move (1,1)->(2,1)")
    # now adjacent but its movement point is spent: Mine is the first (index 0) action: ignored
    assert "mine (2,1)->(2,2)" in legal_names(state)
    assert game.action_to_string(agent.act(state.clone(), rng=rng)) == "end_turn"
    act(state, "end_turn", "end_turn")
    # a new round: Moves come first, so Mine has index > 0 and is played
    assert game.action_to_string(agent.act(state.clone(), rng=rng)) == "mine (2,1)->(2,2)"


def test_rule_based_agent_beats_random():
    game = make_game("two_kingdoms")
    agents = [make_agent("rule_based", game), make_agent("random", game)]
    wins = 0
    for g in range(4):
        for a in agents:
            a.reset()
        state = game.new_initial_state(g)
        rng = np.random.default_rng(g)
        seats = agents if g % 2 == 0 else agents[::-1]
        while not state.is_terminal():
            state.apply(seats[state.current_player].act(state.clone(), rng=rng))
        wins += state.winner == (0 if g % 2 == 0 else 1)
    assert wins >= 3
