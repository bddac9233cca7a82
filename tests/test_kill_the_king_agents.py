"""Kill The King's rule-based agent (KTKCombatAgent) and AimToKing evaluator.

Scenarios on tiny inline boards, checked by hand against the reference C++ (Stratega branch
``scsa_ktkpta``, ``KTKCombatAgent.cpp``, ``UnitEvaluator.h``, ``AimToKingHeuristic.cpp``).
Boards: the first row is ``y = 0``; units are numbered in reading order; ``k w a h`` are King,
Warrior, Archer and Healer followed by their owner.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from stratagem.baselines.agent import Evaluator, make_agent
from stratagem.baselines.kill_the_king import (
    KillTheKingEvaluator,
    KillTheKingRuleBasedAgent,
    aim_to_king_values,
    unit_type_values,
)
from stratagem.envs.kill_the_king import KillTheKingGame

# --------------------------------------------------------------------------------- helpers


def board(
    layout: str,
    *,
    hp: dict[int, int] | None = None,
    mp: dict[int, int] | None = None,
    dead: tuple[int, ...] = (),
    player: int = 0,
    max_rounds: int = 99,
):
    """State on ``layout`` with some units' health or movement points changed, or removed."""
    game = KillTheKingGame(map=layout, max_rounds=max_rounds)
    state = game.new_initial_state()
    data = json.loads(state.to_json())
    fields = data["state"]
    for uid, value in (hp or {}).items():
        fields["hp"][uid] = value
    for uid, value in (mp or {}).items():
        fields["mp"][uid] = value
    for uid in dead:
        fields["pos"][uid] = -1
        fields["hp"][uid] = 0
    fields["current_player"] = player
    return game.state_from_json(json.dumps(data))


def decide(state, *, quirks: bool = True) -> str:
    """The agent's action on a copy of ``state``, as a readable name."""
    agent = KillTheKingRuleBasedAgent(state.game, reference_quirks=quirks)
    action = agent.act(state.clone(), rng=np.random.default_rng(0))
    assert action in state.legal_action_list()
    return state.game.action_to_string(action)


def play(game, agents, seed: int) -> int | None:
    """Play one game to the end; return the winner (-1 for a draw)."""
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        state.apply(agents[state.current_player].act(state.clone(), rng=rng))
    return state.winner


# ------------------------------------------------------------------------ unit strengths


def test_unit_type_values_are_the_references_linear_sum():
    # King, Warrior, Archer, Healer: health/200 + movement/1 (+ heal 50/50/50 * 1 for the
    # Healer); the attack term reads an unset variable and adds nothing.
    assert unit_type_values() == pytest.approx((2.0, 1.5, 1.5, 1.27))


# ------------------------------------------------------------------------------- attack

KILL = """\
.  a1 .  .
.  w0 k1 .
.  .  .  .
k0 .  .  .
"""  # ids: a1 0, w0 1, k1 2, k0 3


def test_kills_the_king_when_it_can():
    state = board(KILL, hp={0: 60, 2: 50})  # both killable; the King is worth more (4 vs 3)
    assert decide(state) == "attack (1,1)->(2,1)"
    state.apply(state.game.string_to_action("attack (1,1)->(2,1)"))
    assert state.winner == 0


def test_prefers_a_kill_to_wounding_the_king():
    # Killing the Archer scores 2 * 1.5 = 3; hitting the 200-health King (3 hits to kill)
    # scores 2 * (1 + 1/4) = 2.5.
    assert decide(board(KILL, hp={0: 60})) == "attack (1,1)->(1,0)"


def test_wounding_prefers_the_target_killed_soonest_then_unit_order():
    # Full health: Archer 1.5 * (1 + 1/3) = 2.0 (2 hits), King 2 * (1 + 1/4) = 2.5 (3 hits).
    assert decide(board(KILL)) == "attack (1,1)->(2,1)"
    # With the King at 140 (2 hits) it is 2 * (1 + 1/3) = 2.67, still the King; with an
    # Archer instead of the King the two Archers tie and the first in unit order is hit.
    two_archers = KILL.replace("k1", "a1").replace(".  .  .  .\nk0", ".  .  .  k1\nk0")
    assert decide(board(two_archers)) == "attack (1,1)->(1,0)"
    assert decide(board(two_archers, hp={0: 100, 2: 90})) == "attack (1,1)->(1,0)"
    assert decide(board(two_archers, hp={2: 60})) == "attack (1,1)->(2,1)"


def test_attacks_rather_than_moves():
    state = board(KILL)
    assert state.unit(1).movement_points == 1  # moves are available too
    assert decide(state).startswith("attack (1,1)")


def test_the_first_unit_in_order_with_an_attack_acts():
    layout = """\
.  a0 .  .  .
.  .  w1 .  .
.  .  .  .  .
.  .  .  w0 k1
k0 .  .  .  .
"""  # a0 (id 0) can hit the Warrior at (2,1); w0 (id 2) could kill the wounded King (id 3)
    state = board(layout, hp={3: 40})
    assert decide(state) == "attack (1,0)->(2,1)"


# --------------------------------------------------------------------------------- heal

HEAL = """\
h0 w0 .  .  .
.  .  .  .  .
k0 .  .  .  k1
"""  # ids: h0 0, w0 1, k0 2, k1 3


def test_fixed_agent_heals_a_damaged_ally():
    assert decide(board(HEAL, hp={1: 30}), quirks=False) == "heal (0,0)->(1,0)"


def test_reference_healer_ignores_a_damaged_ally_while_itself_unhurt():
    # The reference scores the heal's source (the Healer) instead of its target.
    action = decide(board(HEAL, hp={1: 30}))
    assert not action.startswith("heal")
    assert action.startswith("move (0,0)")  # the Healer walks toward the focus instead


def test_reference_healer_when_hurt_heals_the_first_unit_in_range():
    # Damaged Healer: every heal scores alike, so the first target in unit order wins. Here it
    # is the Healer itself (id 0) although the Warrior is hurt more.
    assert decide(board(HEAL, hp={0: 20, 1: 30})) == "heal (0,0)->(0,0)"
    # A full-health ally earlier in unit order gets the heal (the Warrior cannot move, so the
    # Healer is the first unit with something to do).
    layout = """\
w0 h0 .  .  .
.  .  .  .  .
k0 .  .  .  k1
"""
    assert decide(board(layout, hp={1: 20}, mp={0: 0})) == "heal (1,0)->(0,0)"


def test_reference_healer_may_heal_an_enemy():
    layout = """\
a1 .  h0 .  .
.  .  .  .  .
k0 .  .  .  k1
"""
    assert decide(board(layout, hp={0: 50, 1: 20})) == "heal (2,0)->(0,0)"


# --------------------------------------------------------------------------------- move

FOCUS = """\
M  M  M  .  .  .  .  .  .
M  k0 M  w0 .  .  a1 .  .
M  M  M  .  .  .  .  .  .
.  .  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .  k1
"""


def test_reference_heads_for_the_last_enemy_in_unit_order():
    # The reference keeps a pointer to its loop copy, so its focus is the last enemy (k1).
    assert decide(board(FOCUS)) == "move (3,1)->(4,2)"


def test_fixed_agent_heads_for_the_best_scoring_enemy():
    # Focus scores: Archer 0.9/3 - (2/6)/2 = 0.133, King 0.586/3 - (1.5/6)/2 = 0.070.
    assert decide(board(FOCUS), quirks=False) == "move (3,1)->(4,1)"


def test_move_into_range_picks_the_least_exposed_tile():
    layout = """\
.  .  .  .  .  .
.  .  .  .  .  .
.  w1 .  .  .  .
.  .  .  .  k1 .
.  .  a0 .  .  .
.  .  .  .  .  .
k0 .  .  .  .  .
"""
    # Tiles within the Archer's range 2 (Manhattan) of k1: (2,3), (3,3), (3,4). (2,3) is also
    # within reach of the Warrior (1.5 + 1 >= 2), the other two only of the King: the first of
    # those in the reference's x-then-y order is (3,3).
    assert decide(board(layout)) == "move (2,4)->(3,3)"


def test_move_ties_go_to_the_first_tile_in_x_then_y_order():
    layout = """\
M  M  M  .  .  .  .
M  k0 M  .  .  .  .
M  M  M  .  .  .  .
.  .  .  a0 .  .  .
.  .  .  .  .  .  .
.  .  .  .  .  .  .
.  .  .  .  .  .  k1
"""
    # No step of the Archer gets within Manhattan 2 of k1 (6,6): the closest step, (4,4), wins.
    assert decide(board(layout)) == "move (3,3)->(4,4)"
    # Block the diagonal: (3,4) and (4,3) tie at Manhattan 5; x-then-y order picks (3,4).
    blocked = layout.replace(
        ".  .  .  .  .  .  .\n.  .  .  .  .  .  .\n.  .  .  .  .  .  k1",
        ".  .  .  .  M  .  .\n.  .  .  .  .  .  .\n.  .  .  .  .  .  k1",
    )
    assert decide(board(blocked)) == "move (3,3)->(3,4)"


def test_unit_within_range_of_the_focus_stays_and_the_turn_ends():
    layout = """\
M  M  M  .  .
M  k0 M  w0 k1
M  M  M  .  .
"""
    state = board(layout)
    assert decide(state) == "attack (3,1)->(4,1)"
    state.apply(state.game.string_to_action("attack (3,1)->(4,1)"))
    # The walled-in King has nothing to do; the Warrior is adjacent to the focus and has
    # attacked, so it does not move.
    assert decide(state) == "end_turn"


def test_ends_turn_when_no_unit_can_do_anything():
    state = board(HEAL, mp={0: 0, 1: 0, 2: 0})
    assert decide(state) == "end_turn"
    assert decide(state, quirks=False) == "end_turn"


def test_plays_for_player_one_too():
    # Player 1's first unit, the Archer (1,0), hits the Warrior below it.
    assert decide(board(KILL, player=1)) == "attack (1,0)->(1,1)"


# ---------------------------------------------------------------------- legality, strength


@pytest.mark.parametrize("quirks", [True, False])
def test_always_returns_a_legal_action_on_kwah_maps(quirks):
    game = KillTheKingGame(map="kwah")
    agent = KillTheKingRuleBasedAgent(game, reference_quirks=quirks)
    random = make_agent("random", game)
    checked = 0
    for seed in range(6):
        state = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal() and checked < 400 * (seed + 1):
            mine = agent.act(state.clone(), rng=rng)
            assert mine in state.legal_action_list()
            checked += 1
            # Mostly random play, to reach varied states (hurt units, spent movement points).
            mover = agent if rng.random() < 0.3 else random
            state.apply(mover.act(state.clone(), rng=rng))
    assert checked > 1000


def test_act_does_not_modify_the_state():
    state = KillTheKingGame(map="kwah:3").new_initial_state()
    before = state.to_json()
    KillTheKingRuleBasedAgent(state.game).act(state, rng=np.random.default_rng(0))
    assert state.to_json() == before


def test_beats_random_on_kwah_maps():
    # Measured with these seeds: 9 wins, 1 loss (seats alternate). Over 100 kwah games (50
    # maps x 2 seats) it won 97 and lost 3; on the default board 39 wins and 1 draw of 40.
    game = KillTheKingGame(map="kwah")
    wins = draws = 0
    for seed in range(10):
        seat = seed % 2
        agents = [make_agent("random", game), make_agent("random", game)]
        agents[seat] = make_agent("rule_based", game)
        winner = play(game, agents, seed)
        wins += winner == seat
        draws += winner == -1
    assert wins >= 8, (wins, draws)


def test_full_game_on_the_default_board_finishes():
    game = KillTheKingGame()
    agents = [make_agent("rule_based", game), make_agent("random", game)]
    assert play(game, agents, seed=1) in (-1, 0, 1)


# ------------------------------------------------------------------------ construction


def test_registry_builds_it_and_parameters_are_checked():
    game = KillTheKingGame(map="kwah:1")
    agent = make_agent("rule_based", game)
    assert isinstance(agent, KillTheKingRuleBasedAgent)
    assert agent.name == "rule_based" and agent.reference_quirks
    assert not make_agent("rule_based:reference_quirks=false", game).reference_quirks
    with pytest.raises(TypeError, match="unexpected keyword argument 'budget'"):
        KillTheKingRuleBasedAgent(game, budget=3)
    with pytest.raises(TypeError, match="bool"):
        KillTheKingRuleBasedAgent(game, reference_quirks="yes")
    with pytest.raises(ValueError, match="budget"):
        make_agent("rule_based:budget=3", game)


def test_refuses_a_terminal_state():
    state = board(KILL, hp={2: 50})
    state.apply(state.game.string_to_action("attack (1,1)->(2,1)"))
    with pytest.raises(ValueError, match="over"):
        KillTheKingRuleBasedAgent(state.game).act(state, rng=np.random.default_rng(0))


# ---------------------------------------------------------------------------- evaluator

EVAL = """\
k0 .  .  .  .
w0 .  .  .  .
.  .  .  .  .
.  .  .  a1 k1
"""  # ids: k0 0, w0 1, a1 2, k1 3


def test_evaluator_is_an_evaluator():
    evaluator = KillTheKingEvaluator()
    assert isinstance(evaluator, Evaluator)
    values = evaluator.evaluate(board(EVAL))
    assert values.shape == (2,) and values.dtype == np.float64


def test_evaluator_values_per_player_by_hand():
    values = aim_to_king_values(board(EVAL))
    # Player 0: units (0,0) and (0,1) to the King at (4,3): mean (7 + 6) / 2 = 6.5.
    p0 = (1 - 6.5 / 400) + (1 - 200 / 400) + 2 / 20 - 2 / 20
    # Player 1: units (3,3) and (4,3) to the King at (0,0): mean (6 + 7) / 2 = 6.5.
    p1 = p0
    assert values == pytest.approx([(p0 + 2) / 4, (p1 + 2) / 4])
    hurt = aim_to_king_values(board(EVAL, hp={3: 120}))
    assert hurt[0] == pytest.approx((p0 + 80 / 400 + 2) / 4)
    assert hurt[1] == pytest.approx(values[1])  # a player's own King's health does not count


def test_evaluator_grows_as_the_enemy_king_weakens():
    mine = [aim_to_king_values(board(EVAL, hp={3: hp}))[0] for hp in (200, 150, 100, 50, 1)]
    assert all(a < b for a, b in itertools.pairwise(mine))


def test_evaluator_counts_units():
    full = aim_to_king_values(board(EVAL))
    # The enemy loses its Archer: better for player 0, worse for player 1.
    fewer_enemies = aim_to_king_values(board(EVAL, dead=(2,)))
    assert fewer_enemies[0] == pytest.approx(full[0] + 1 / 20 / 4)
    assert fewer_enemies[1] < full[1]
    # Player 0 loses its Warrior (which stood closer to the enemy King than the King).
    fewer_mine = aim_to_king_values(board(EVAL, dead=(1,)))
    assert fewer_mine[0] < full[0]
    assert fewer_mine[1] == pytest.approx(full[1] + 1 / 20 / 4)


def test_evaluator_terminal_values():
    layout = """\
k0 .  .
.  w0 k1
"""
    won = board(layout, hp={2: 50})
    won.apply(won.game.string_to_action("attack (1,1)->(2,1)"))
    assert won.winner == 0
    assert list(aim_to_king_values(won)) == [2.0, -2.0]
    assert list(KillTheKingEvaluator().evaluate(won)) == [2.0, -2.0]
    # A draw by the round limit is worth -2 to both players, as a loss (the reference compares
    # the winner id, -1 for a draw, with the player).
    draw = board(EVAL, max_rounds=1)
    end = draw.game.end_turn_action
    draw.apply(end)
    draw.apply(end)
    assert draw.winner == -1
    assert list(aim_to_king_values(draw)) == [-2.0, -2.0]
    # Terminal values bound the non-terminal ones.
    alive = aim_to_king_values(board(EVAL, hp={3: 1}))
    assert -2.0 < alive.min() and alive.max() < 2.0
