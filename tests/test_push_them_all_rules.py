"""Push Them All rules as small scripted scenarios on tiny inline boards, plus its agents.

Checked against ``specs/stratega_rules.md`` sections 0 (TBS engine) and 2 (PTA), and where the
spec is terse against the reference C++ Stratega, branch ``scsa_ktkpta``:

* ``PushThemAll.yaml``: the Warrior's actions ``[PushDown, PushUp, PushLeft, PushRight, Move,
  Empty]``, each push with ``Cooldown: 1`` and targets in ``Circle`` 1 with ``DifferentPlayer``;
  Move by ``Dijkstra`` ``SearchSize 1`` without diagonals onto ``IsWalkable`` tiles (Holes are
  walkable); the OnAdvance trigger removing units on Holes; the lose condition ``HasNoEntity(Ghost)
  AND HasNoEntity(Warrior)``; ``RoundLimit: 200``;
* ``Effect.cpp``: ``PushUp`` moves the target by (+1, 0), ``PushDown`` by (-1, 0), ``PushLeft``
  by (0, +1), ``PushRight`` by (0, -1), only onto a walkable, empty tile.

Boards: the first row is ``y = 0`` and ``x`` runs left to right; ``w`` and ``g`` are Warrior
and Ghost, followed by the owner; ``H`` is a Hole.
"""

from __future__ import annotations

import numpy as np
import pytest
from scenario_helpers import act, assert_illegal, legal_names

from stratagem.baselines.push_them_all import (
    PushThemAllEvaluator,
    PushThemAllRuleBasedAgent,
    push_them_all_values,
)
from stratagem.envs import make_game
from stratagem.envs.core import IllegalActionError
from stratagem.envs.push_them_all import GHOST, WARRIOR, MapError, PushThemAllGame

# --------------------------------------------------------------------------------- helpers


def new_state(layout: str, **kwargs):
    return PushThemAllGame(map=layout, **kwargs).new_initial_state()


def where(state, uid: int) -> tuple[int, int]:
    u = state.unit(uid)
    return u.x, u.y


# --------------------------------------------------------------------------------- board basics


def test_layout_units_and_start():
    state = new_state(
        """
        M  M  M  M
        M  w0 g1 M
        M  H  g0 M
        M  w1 .  M
        """
    )
    assert (state.width, state.height) == (4, 4)
    assert state.tick == 1 and state.current_player == 0 and state.winner is None
    assert [(u.type, u.owner, u.x, u.y) for u in state.units()] == [
        (WARRIOR, 0, 1, 1),
        (GHOST, 1, 2, 1),
        (GHOST, 0, 2, 2),
        (WARRIOR, 1, 1, 3),
    ]
    assert state.holes == ((1, 2),)


def test_bad_maps_are_rejected():
    with pytest.raises(MapError, match="unknown token"):
        new_state("M  x0\nM  w1")
    with pytest.raises(MapError, match="player 1 has no unit"):
        new_state("w0 .\n. .")
    with pytest.raises(MapError, match="row 1"):
        new_state("w0 w1 .\n. .")
    with pytest.raises(MapError, match="unknown map"):
        PushThemAllGame(map="nope")
    with pytest.raises(MapError, match="pta:1 .. pta:50"):
        PushThemAllGame(map="pta:51")
    with pytest.raises(ValueError, match="max_rounds"):
        PushThemAllGame(max_rounds=0)
    with pytest.raises(ValueError, match="unknown option"):
        make_game("push_them_all", bogus=1)


def test_packaged_maps():
    default = PushThemAllGame().new_initial_state()
    assert (default.width, default.height) == (13, 8)
    kinds = sorted((u.owner, u.type) for u in default.units())
    assert kinds == [(0, WARRIOR), (0, WARRIOR), (0, GHOST), (1, WARRIOR), (1, WARRIOR), (1, GHOST)]
    pta = PushThemAllGame(map="pta")
    assert len(pta.boards) == 50
    assert all(b.units == pta.boards[0].units for b in pta.boards)
    state = pta.new_initial_state(3)
    assert sorted((u.owner, u.type) for u in state.units()) == [(0, 0)] * 3 + [(1, 0)] * 3
    assert len(PushThemAllGame(map="ntbea").boards) == 10


# --------------------------------------------------------------------------------- moves


def test_moves_are_orthogonal_onto_walkable_empty_tiles():
    state = new_state(
        """
        M  M  M  M  M
        M  .  F  W  M
        M  w0 w0 .  M
        M  .  M  .  M
        M  M  M  M  w1
        """
    )
    assert legal_names(state, "move (2,2)") == {"move (2,2)->(2,1)", "move (2,2)->(3,2)"}
    assert legal_names(state, "move (1,2)") == {"move (1,2)->(1,1)", "move (1,2)->(1,3)"}
    assert_illegal(state, "move (2,2)->(2,3)")  # mountain
    assert_illegal(state, "move (1,2)->(2,2)")  # occupied
    act(state, "move (2,2)->(2,1)")  # onto Forest
    assert where(state, 1) == (2, 1)
    assert legal_names(state, "move (2,1)") == set()
    assert legal_names(state, "empty (2,1)") == set()
    assert_illegal(state, "move (2,1)->(1,1)")  # movement point spent
    act(state, "empty (1,2)")
    assert legal_names(state, "move (1,2)") == set()
    act(state, "end_turn", "end_turn")
    assert state.tick == 2
    assert "move (2,1)->(1,1)" in legal_names(state)


def test_walking_into_a_hole_kills_the_walker():
    state = new_state(
        """
        M  M  M  M
        M  w0 H  M
        M  g0 .  M
        M  .  w1 M
        """
    )
    act(state, "move (1,1)->(2,1)")
    assert state.unit(0).x == -1
    assert state.unit_count(0) == 1
    assert state.winner is None


# --------------------------------------------------------------------------------- pushes


PUSH_BOARD = """
M  M  M  M  M  M  M
M  .  .  .  .  .  M
M  .  .  g1 .  .  M
M  .  .  w0 .  .  M
M  .  .  .  .  .  M
M  M  M  M  M  M  w1
"""


@pytest.mark.parametrize(
    ("push", "expected"),
    [
        ("push_up", (4, 2)),  # +x
        ("push_down", (2, 2)),  # -x
        ("push_left", (3, 3)),  # +y: blocked by the pusher itself, the push is spent
        ("push_right", (3, 1)),  # -y
    ],
)
def test_push_directions_are_fixed_whatever_side_the_pusher_is_on(push, expected):
    state = new_state(PUSH_BOARD)
    ghost = 0  # reading order: g1 (3,2) first
    act(state, f"{push} (3,3)->(3,2)")
    if push == "push_left":
        assert where(state, ghost) == (3, 2)  # destination occupied: nothing moves
    else:
        assert where(state, ghost) == expected
    assert f"{push} (3,3)->(3,2)" not in legal_names(state)  # spent either way


def test_four_push_types_have_independent_cooldowns():
    state = new_state(PUSH_BOARD)
    assert legal_names(state, "push") == {
        "push_down (3,3)->(3,2)",
        "push_up (3,3)->(3,2)",
        "push_left (3,3)->(3,2)",
        "push_right (3,3)->(3,2)",
    }
    act(state, "push_right (3,3)->(3,2)")  # ghost to (3,1): no longer adjacent
    assert legal_names(state, "push") == set()
    act(state, "move (3,3)->(3,2)")  # follow it
    assert legal_names(state, "push") == {
        "push_down (3,2)->(3,1)",
        "push_up (3,2)->(3,1)",
        "push_left (3,2)->(3,1)",
    }
    act(state, "push_up (3,2)->(3,1)")  # ghost to (4,1)
    assert where(state, 0) == (4, 1)
    assert_illegal(state, "push_up (3,2)->(3,1)")  # no target there any more
    act(state, "end_turn", "end_turn")
    assert state.tick == 2
    assert state.unit(1).push_ready == (True, True, True, True)


def test_push_into_wall_or_off_board_is_spent():
    state = new_state(
        """
        g1 w0 M
        .  .  w1
        """
    )
    act(state, "push_down (1,0)->(0,0)")  # (-1, 0): off the board
    assert where(state, 0) == (0, 0)
    assert "push_down (1,0)->(0,0)" not in legal_names(state)
    act(state, "push_right (1,0)->(0,0)")  # (0, -1): off the board
    act(state, "push_left (1,0)->(0,0)")  # (0, +1): to (0,1), free
    assert where(state, 0) == (0, 1)


def test_only_enemies_can_be_pushed_and_ghosts_cannot_push():
    state = new_state(
        """
        M  M  M  M  M
        M  w0 w0 g1 M
        M  g0 .  w1 M
        M  M  M  M  M
        """
    )
    pushes = legal_names(state, "push")
    assert len(pushes) == 4
    assert all(name.split()[1] == "(2,1)->(3,1)" for name in pushes)
    act(state, "end_turn")
    # player 1: the Ghost at (3,1) has no push; the Warrior at (3,2) pushes nobody (no
    # orthogonal enemy: (2,2) is empty)
    assert legal_names(state, "push") == set()


def test_pushed_into_a_hole_the_last_unit_loses():
    state = new_state(
        """
        M  M  M  M  M
        M  H  g1 w0 M
        M  .  .  .  M
        M  M  M  M  M
        """
    )
    assert state.winner is None
    act(state, "push_down (3,1)->(2,1)")  # (-1, 0) into the hole at (1,1)
    assert state.unit(0).x == -1
    assert state.winner == 0 and state.is_terminal()
    assert list(state.returns()) == [1.0, -1.0]
    assert state.legal_action_list() == []
    assert_illegal_after_end(state)


def assert_illegal_after_end(state) -> None:
    with pytest.raises(IllegalActionError, match="over"):
        state.apply(state.game.end_turn_action)


def test_pushes_never_chain():
    state = new_state(
        """
        M  M  M  M  M  M
        M  w0 g1 w1 .  M
        M  M  M  M  M  M
        """
    )
    act(state, "push_up (1,1)->(2,1)")  # (+1, 0) but (3,1) is occupied: nothing moves
    assert where(state, 1) == (2, 1) and where(state, 2) == (3, 1)


def test_max_rounds_ends_in_a_draw():
    state = new_state("w0 .\n. w1", max_rounds=2)
    act(state, "end_turn", "end_turn")
    assert state.tick == 2 and state.winner is None
    act(state, "end_turn", "end_turn")
    assert state.winner == -1 and list(state.returns()) == [0.0, 0.0]


# --------------------------------------------------------------------------------- agents


def test_heuristic_values():
    state = new_state(
        """
        M  M  M  M  M  M
        M  w0 .  .  w1 M
        M  w0 .  .  w1 M
        M  H  .  .  .  M
        M  M  M  M  M  M
        """
    )
    values = push_them_all_values(state)
    # D = 6 + 5 = 11; each unit is 3 from the nearest enemy: S = 0 + 3 + 3 = 6
    expected = 0.2 * (22 - 6) / 22 + 0.4 * 1.0 + 0.4 * 0.0
    assert values == pytest.approx([expected, expected])
    act(state, "move (1,2)->(1,3)")  # into the hole
    values = PushThemAllEvaluator().evaluate(state)
    mine = 0.2 * (22 - (11 + 3)) / 22 + 0.4 * 0.5
    theirs = 0.2 * (22 - (3 + 4)) / 22 + 0.4 + 0.4 * 0.5
    assert values == pytest.approx([mine, theirs])


def test_heuristic_terminal():
    state = new_state(
        """
        M  M  M  M  M
        M  H  g1 w0 M
        M  M  M  M  M
        """
    )
    act(state, "push_down (3,1)->(2,1)")
    assert list(push_them_all_values(state)) == [1.0, 0.0]


def test_rule_based_agent_walks_then_pushes_toward_a_hole():
    game = PushThemAllGame(
        map="""
        M  M  M  M  M  M  M
        M  .  .  .  .  .  M
        M  .  .  .  .  .  M
        M  H  .  w1 .  w0 M
        M  .  .  .  .  .  M
        M  M  M  M  M  M  M
        """
    )
    agent = PushThemAllRuleBasedAgent(game, random_probability=0.0)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    assert game.action_to_string(agent.act(state.clone(), rng=rng)) == "move (5,3)->(4,3)"
    act(state, "move (5,3)->(4,3)")
    # adjacent with no movement point: the push that brings the target closer to the hole
    # (1,3) is PushDown (-1, 0); PushLeft and PushRight (tried first) do not
    assert game.action_to_string(agent.act(state.clone(), rng=rng)) == "push_down (4,3)->(3,3)"


def test_rule_based_agent_beats_random():
    game = make_game("push_them_all", map="pta")
    from stratagem.baselines import make_agent

    agents = [make_agent("rule_based", game), make_agent("random", game)]
    wins = 0
    for g in range(4):
        state = game.new_initial_state(g)
        rng = np.random.default_rng(g)
        seats = agents if g % 2 == 0 else agents[::-1]
        while not state.is_terminal():
            state.apply(seats[state.current_player].act(state.clone(), rng=rng))
        wins += state.winner == (0 if g % 2 == 0 else 1)
    assert wins == 4


def test_a_default_drawn_game_reports_its_199_rounds():
    """Tournaments read ``rounds``: a game drawn at the default limit played 199, not 200."""
    game = make_game("push_them_all")
    state = game.new_initial_state(0)
    while not state.is_terminal():
        state.apply(game.end_turn_action)
    assert state.end_statistics()["rounds"] == 199.0
    assert "draw after 199 rounds (round limit)" in str(state)
