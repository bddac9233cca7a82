"""Kill The King rules as small scripted scenarios on tiny inline boards.

Checked against ``specs/stratega_rules.md`` sections 0 (TBS engine) and 1 (KTK), and where the
spec is terse against the reference C++ Stratega, branch ``scsa_ktkpta``:

* ``KillTheKing.yaml``: unit parameters, the Attack/Move/Heal/Empty actions, the OnTick trigger
  ``SetToMaximum(Source.MovementPoints)`` and the lose condition ``HasNoEntity(Source, King)``;
* ``GameState.cpp``: ``currentTick(1)``; ``Entity.cpp``: ``lastExecutedTick`` starts at 0;
* ``ActionSpace.cpp``: an action is offered when ``tick - lastExecutedTick >= Cooldown``;
* ``TBSForwardModel.cpp``: ``endTurn`` calls ``endTick`` (``tick++``, triggers) when the turn
  passes back to player 0; ``checkGameIsFinished`` ends the game when ``tick >= tickLimit``;
* ``Effect.cpp`` ``Attack::execute``: health -= damage, flagged for removal when ``<= 0``.

Boards: the first row is ``y = 0`` and ``x`` runs left to right; ``k w a h`` are King, Warrior,
Archer and Healer, followed by the owner.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
from scenario_helpers import act, legal_names

from stratagem.envs.core import IllegalActionError
from stratagem.envs.kill_the_king import (
    ARCHER,
    HEALER,
    KING,
    WARRIOR,
    KillTheKingGame,
    MapError,
)

# --------------------------------------------------------------------------------- helpers


def new_state(layout: str, **kwargs):
    """Initial state of a game on the inline ``layout``."""
    return KillTheKingGame(map=layout, **kwargs).new_initial_state()


def end_turn_index(state) -> int:
    return state.game.string_to_action("end_turn")


class Raw:
    """An action value handed to ``apply`` as is (not parsed as a name)."""

    def __init__(self, value) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"Raw({self.value!r})"


def assert_illegal(state, action) -> None:
    """``action`` (a name or a :class:`Raw` value) raises and leaves the state as it was."""
    action = action.value if isinstance(action, Raw) else state.game.string_to_action(action)
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply(action)
    assert state.to_json() == before


def applicable(state) -> set[int]:
    """Every action index that applies to a copy of ``state`` without raising."""
    ok = set()
    for action in range(state.game.spec.action_size):
        copy = state.clone()
        try:
            copy.apply(action)
        except IllegalActionError:
            continue
        ok.add(action)
    return ok


def health(state, x: int, y: int) -> int:
    unit = state.unit_at(x, y)
    assert unit is not None, f"no unit at ({x},{y})"
    return unit.health


# --------------------------------------------------------------------------------- board basics


def test_layout_coordinates_and_initial_units():
    state = new_state(
        """
        k0 .  W
        F  h1 M
        a0 .  k1
        w1 .  .
        """
    )
    assert (state.width, state.height) == (3, 4)
    assert state.tick == 1
    assert state.current_player == 0
    assert state.winner is None
    assert not state.is_terminal()
    assert list(state.returns()) == [0.0, 0.0]
    kinds = {(u.type, u.owner, u.x, u.y) for u in state.units()}
    assert kinds == {
        (KING, 0, 0, 0),
        (HEALER, 1, 1, 1),
        (ARCHER, 0, 0, 2),
        (KING, 1, 2, 2),
        (WARRIOR, 1, 0, 3),
    }
    assert [u.health for u in state.units(0)] == [200, 100]
    assert [u.health for u in state.units(1)] == [50, 200, 100]
    assert all(u.movement_points == 1 and u.can_act for u in state.units())
    assert state.unit_at(1, 0) is None
    assert state.unit_at(5, 5) is None
    assert [state.walkable(x, 0) for x in range(3)] == [True, True, False]  # k0 on Plain; W
    assert [state.walkable(x, 1) for x in range(3)] == [True, True, False]  # F walkable; M


# --------------------------------------------------------------------------------- attack reach


def test_king_attacks_orthogonal_neighbours_only():
    state = new_state(
        """
        .  .  .  .  .
        .  k0 w1 .  .
        .  .  a1 .  .
        .  .  .  .  k1
        """
    )
    # w1 is at distance 1 (orthogonal), a1 at sqrt(2) (diagonal): the King's range is 1.
    assert legal_names(state, "attack (1,1)") == {"attack (1,1)->(2,1)"}
    assert_illegal(state, "attack (1,1)->(2,2)")
    act(state, "attack (1,1)->(2,1)")
    assert health(state, 2, 1) == 100 - 50
    assert health(state, 2, 2) == 100


def test_warrior_attacks_diagonals_but_not_distance_two():
    state = new_state(
        """
        k0 .  .  .  .
        .  w0 .  a1 .
        .  .  a1 .  .
        .  .  .  .  k1
        """
    )
    # a1 at (2,2) is diagonal (sqrt 2 <= 1.5); a1 at (3,1) is 2 away (> 1.5).
    assert legal_names(state, "attack (1,1)") == {"attack (1,1)->(2,2)"}
    assert_illegal(state, "attack (1,1)->(3,1)")
    act(state, "attack (1,1)->(2,2)")
    assert health(state, 2, 2) == 100 - 70
    assert health(state, 3, 1) == 100


def test_archer_attacks_distance_two_but_not_knight_offset():
    state = new_state(
        """
        k0 .  .  .  .  .
        .  .  .  .  .  .
        .  a0 .  w1 .  .
        w1 .  .  w1 .  .
        .  .  .  .  .  k1
        """
    )
    # From a0 (1,2): w1 (3,2) is 2 away (in range), w1 (0,3) is diagonal (in range),
    # w1 (3,3) is at the knight offset (2,1), distance sqrt(5) > 2.
    assert legal_names(state, "attack (1,2)") == {"attack (1,2)->(3,2)", "attack (1,2)->(0,3)"}
    with pytest.raises(ValueError):  # no action plane reaches offset (2,1)
        state.game.string_to_action("attack (1,2)->(3,3)")
    act(state, "attack (1,2)->(3,2)")
    assert health(state, 3, 2) == 100 - 50
    assert health(state, 3, 3) == 100
    assert health(state, 0, 3) == 100


def test_attack_only_enemies():
    state = new_state(
        """
        k0 w0 a0 .
        .  .  .  .
        .  .  .  k1
        """
    )
    assert legal_names(state, "attack") == set()
    assert_illegal(state, "attack (1,0)->(0,0)")  # own King
    assert_illegal(state, "attack (1,0)->(2,0)")  # own Archer
    assert_illegal(state, "attack (1,0)->(1,1)")  # empty tile
    assert_illegal(state, "attack (2,0)->(0,0)")  # own King, Archer's range


def test_unit_at_exactly_zero_health_is_removed_and_its_tile_freed():
    state = new_state(
        """
        k0 h1 .
        .  .  .
        .  .  k1
        """
    )
    act(state, "attack (0,0)->(1,0)")  # King deals 50 to a 50-health Healer
    assert state.unit_at(1, 0) is None
    assert [u.type for u in state.units(1)] == [KING]
    assert not state.is_terminal()
    assert "move (0,0)->(1,0)" in legal_names(state)
    act(state, "move (0,0)->(1,0)")
    assert state.unit_at(1, 0).type == KING


def test_unit_below_zero_health_is_removed():
    state = new_state(
        """
        k0 .  .  .
        .  w0 a1 .
        .  .  .  k1
        """
    )
    act(state, "attack (1,1)->(2,1)")
    assert health(state, 2, 1) == 30
    act(state, "end_turn", "end_turn")
    act(state, "attack (1,1)->(2,1)")  # 30 - 70 = -40
    assert state.unit_at(2, 1) is None
    assert len(state.units(1)) == 1
    assert "move (1,1)->(2,1)" in legal_names(state)


# --------------------------------------------------------------------------------- heal


def test_heal_range_two_and_clamped_at_max_health():
    state = new_state(
        """
        k0 .  .  .  .
        .  .  .  .  .
        h0 .  w0 w1 .
        .  .  .  .  k1
        """
    )
    # Targets of h0 (0,2): itself, k0 (0,0) and w0 (2,2), both at distance 2; not w1 (3,2).
    assert legal_names(state, "heal") == {
        "heal (0,2)->(0,2)",
        "heal (0,2)->(0,0)",
        "heal (0,2)->(2,2)",
    }
    with pytest.raises(ValueError):  # distance 3 is not even encodable
        state.game.string_to_action("heal (0,2)->(3,2)")
    act(state, "end_turn", "attack (3,2)->(2,2)", "end_turn")  # w1 hits w0: 100 -> 30
    assert health(state, 2, 2) == 30
    act(state, "heal (0,2)->(2,2)")
    assert health(state, 2, 2) == 80
    assert_illegal(state, "heal (0,2)->(2,2)")  # cooldown 1: once per round
    act(state, "end_turn", "end_turn")
    act(state, "heal (0,2)->(2,2)")
    assert health(state, 2, 2) == 100  # 80 + 50 clamped at the Warrior's 100


def test_heal_an_enemy_is_legal():
    state = new_state(
        """
        k0 w0 .  .
        h0 a1 .  .
        .  .  .  k1
        """
    )
    act(state, "attack (1,0)->(1,1)")  # 100 -> 30
    assert "heal (0,1)->(1,1)" in legal_names(state)
    act(state, "heal (0,1)->(1,1)")  # no owner check on Heal (spec quirk 6)
    assert health(state, 1, 1) == 80


def test_heal_itself_and_at_full_health_is_legal_and_changes_nothing():
    state = new_state(
        """
        k0 .  .
        h0 .  .
        .  .  k1
        """
    )
    assert {"heal (0,1)->(0,1)", "heal (0,1)->(0,0)"} <= legal_names(state, "heal")
    act(state, "heal (0,1)->(0,1)")
    healer = state.unit_at(0, 1)
    assert healer.health == 50
    assert not healer.can_act  # the heal was spent
    assert legal_names(state, "heal") == set()
    act(state, "end_turn", "end_turn")
    act(state, "heal (0,1)->(0,0)")
    assert health(state, 0, 0) == 200


def test_healer_cannot_attack():
    state = new_state(
        """
        k0 .  .
        h0 w1 .
        .  .  k1
        """
    )
    assert legal_names(state, "attack") == set()
    assert_illegal(state, "attack (0,1)->(1,1)")
    assert health(state, 1, 1) == 100


def test_only_the_healer_can_heal():
    # The Warrior, Archer and King have no Heal action (KillTheKing.yaml: Actions: [Attack,
    # Move, Empty]), not even on their own tile, which Heal's offset table includes.
    state = new_state(
        """
        k0 w0 a0
        .  w1 .
        .  .  k1
        """
    )
    assert legal_names(state, "heal") == set()
    for name in (
        "heal (1,0)->(1,1)",  # Warrior heals the enemy next to it
        "heal (0,0)->(1,0)",  # King heals a friend
        "heal (1,0)->(1,0)",  # Warrior heals itself
        "heal (2,0)->(2,0)",  # Archer heals itself
        "heal (0,0)->(0,0)",  # King heals itself
    ):
        assert_illegal(state, name)


# --------------------------------------------------------------------------------- movement


def test_move_to_all_eight_neighbours_including_diagonals():
    state = new_state(
        """
        .  .  .  .  .
        .  .  .  .  .
        .  .  w0 .  .
        .  .  .  .  .
        k0 .  .  .  k1
        """
    )
    expected = {f"move (2,2)->({2 + dx},{2 + dy})" for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    expected.discard("move (2,2)->(2,2)")
    assert legal_names(state, "move (2,2)") == expected
    with pytest.raises(ValueError):  # staying put is no move
        state.game.string_to_action("move (2,2)->(2,2)")
    act(state, "move (2,2)->(3,1)")
    assert state.unit_at(2, 2) is None
    assert state.unit_at(3, 1).type == WARRIOR
    assert state.unit_at(3, 1).movement_points == 0


def test_move_blocked_by_water_mountain_and_units_forest_walkable():
    state = new_state(
        """
        W  M  F  .
        .  w0 k0 .
        .  a1 M  .
        .  .  .  k1
        """
    )
    assert legal_names(state, "move (1,1)") == {
        "move (1,1)->(2,0)",  # forest
        "move (1,1)->(0,1)",
        "move (1,1)->(0,2)",
    }
    assert_illegal(state, "move (1,1)->(0,0)")  # water
    assert_illegal(state, "move (1,1)->(1,0)")  # mountain
    assert_illegal(state, "move (1,1)->(2,2)")  # mountain
    assert_illegal(state, "move (1,1)->(2,1)")  # own King
    assert_illegal(state, "move (1,1)->(1,2)")  # enemy Archer
    act(state, "move (1,1)->(2,0)")
    assert state.unit_at(2, 0).type == WARRIOR


def test_move_not_off_the_board():
    state = new_state(
        """
        w0 .  k0
        .  .  .
        .  .  k1
        """
    )
    assert legal_names(state, "move (0,0)") == {
        "move (0,0)->(1,0)",
        "move (0,0)->(0,1)",
        "move (0,0)->(1,1)",
    }
    for name in (
        "move (0,0)->(-1,0)",
        "move (0,0)->(0,-1)",
        "move (0,0)->(-1,-1)",
        "move (0,0)->(-1,1)",
    ):
        assert_illegal(state, name)
    act(state, "end_turn")
    assert_illegal(state, "move (2,2)->(3,2)")
    assert_illegal(state, "move (2,2)->(2,3)")
    assert_illegal(state, "move (2,2)->(3,3)")


def test_one_movement_point_per_round_refilled_when_the_round_ends():
    state = new_state(
        """
        k0 .  .  .
        .  w0 .  .
        .  .  .  k1
        """
    )
    act(state, "move (1,1)->(2,1)")
    assert state.unit_at(2, 1).movement_points == 0
    assert legal_names(state, "move (2,1)") == set()
    assert legal_names(state, "empty (2,1)") == set()
    assert_illegal(state, "move (2,1)->(1,1)")
    assert_illegal(state, "empty (2,1)")
    act(state, "end_turn")  # player 1's turn, same round: not refilled yet
    assert state.current_player == 1
    assert state.tick == 1
    assert state.unit_at(2, 1).movement_points == 0
    act(state, "move (3,2)->(3,1)")  # player 1 spends its King's point too
    act(state, "end_turn")  # back to player 0: the round ends, every unit is refilled
    assert state.tick == 2
    assert state.unit_at(2, 1).movement_points == 1
    assert state.unit_at(3, 1).movement_points == 1
    act(state, "move (2,1)->(1,1)")
    assert state.unit_at(1, 1).type == WARRIOR


def test_empty_spends_the_movement_point():
    state = new_state(
        """
        k0 .  .  .
        .  w0 .  .
        .  .  .  k1
        """
    )
    act(state, "empty (1,1)")
    unit = state.unit_at(1, 1)
    assert unit.movement_points == 0
    assert unit.can_act
    assert legal_names(state, "move (1,1)") == set()
    assert_illegal(state, "move (1,1)->(2,1)")
    assert_illegal(state, "empty (1,1)")
    act(state, "end_turn", "end_turn")
    assert "empty (1,1)" in legal_names(state)
    act(state, "move (1,1)->(2,1)")


# --------------------------------------------------------------------------------- cooldowns


def test_move_then_attack_in_the_same_round_attack_once():
    state = new_state(
        """
        k0 .  .  .
        w0 .  .  .
        .  .  a1 .
        .  .  .  k1
        """
    )
    assert legal_names(state, "attack") == set()  # a1 is sqrt(5) away
    act(state, "move (0,1)->(1,1)")
    act(state, "attack (1,1)->(2,2)")
    assert health(state, 2, 2) == 30
    assert not state.unit_at(1, 1).can_act
    assert legal_names(state, "attack") == set()
    assert_illegal(state, "attack (1,1)->(2,2)")


def test_attack_then_move_then_attack_again_next_round():
    state = new_state(
        """
        k0 .  .  .
        .  w0 k1 .
        .  .  .  .
        """
    )
    act(state, "attack (1,1)->(2,1)")
    assert health(state, 2, 1) == 130
    act(state, "move (1,1)->(1,2)")  # Move has its own cooldown track (none)
    assert_illegal(state, "attack (1,2)->(2,1)")  # still in range (diagonal), but spent
    act(state, "end_turn")
    assert state.current_player == 1
    act(state, "end_turn")
    assert state.tick == 2
    assert state.unit_at(1, 2).can_act
    act(state, "attack (1,2)->(2,1)")
    assert health(state, 2, 1) == 60


# --------------------------------------------------------------------------------- turn structure

INTERLEAVE_BOARD = """
k0 .  .  .  .
.  w0 .  .  .
.  .  k1 .  a0
.  .  .  .  .
"""


def _unit_action(state, uid: int, kind: str, target: tuple[int, int]) -> None:
    (unit,) = [u for u in state.units() if u.id == uid]
    act(state, f"{kind} ({unit.x},{unit.y})->({target[0]},{target[1]})")


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_interleaved_unit_actions_in_any_order(order):
    state = new_state(INTERLEAVE_BOARD)
    warrior = state.unit_at(1, 1).id
    archer = state.unit_at(4, 2).id
    steps = [
        (warrior, "move", (1, 2)),  # k1 stays in reach: orthogonal afterwards
        (archer, "attack", (2, 2)),  # distance 2
        (warrior, "attack", (2, 2)),
    ]
    for i in order:
        _unit_action(state, *steps[i])
        assert state.current_player == 0
        assert state.tick == 1
        assert end_turn_index(state) in state.legal_action_list()
    assert health(state, 2, 2) == 200 - 50 - 70
    assert state.unit_at(1, 2).id == warrior
    assert state.unit_at(1, 2).movement_points == 0
    assert not state.unit_at(1, 2).can_act
    assert not state.unit_at(4, 2).can_act


def test_player_keeps_the_turn_until_end_turn():
    state = new_state(
        """
        k0 .  .  .
        .  a0 .  .
        .  .  .  k1
        """
    )
    act(state, "move (0,0)->(1,0)", "empty (1,1)")
    # Nothing but EndTurn is left, and still there is no automatic end of turn.
    assert state.legal_action_list() == [end_turn_index(state)]
    assert state.current_player == 0
    assert state.tick == 1
    act(state, "end_turn")
    assert state.current_player == 1
    assert state.tick == 1
    assert end_turn_index(state) in state.legal_action_list()
    act(state, "end_turn")
    assert state.current_player == 0
    assert state.tick == 2


def test_actions_of_the_other_player_are_illegal_on_its_turn():
    state = new_state(
        """
        k0 w0 .
        .  .  .
        .  .  k1
        """
    )
    assert_illegal(state, "move (2,2)->(2,1)")  # player 1's King on player 0's turn
    assert_illegal(state, "empty (2,2)")
    act(state, "end_turn")
    assert_illegal(state, "move (1,0)->(1,1)")  # player 0's Warrior on player 1's turn
    assert_illegal(state, "empty (0,0)")
    act(state, "move (2,2)->(2,1)")


# --------------------------------------------------------------------------------- game end

KILL_BOARD = """
.  .  .  .  .
.  w0 k1 .  a0
.  .  .  .  .
k0 .  .  .  .
"""


def test_killing_the_king_ends_the_game_at_once():
    state = new_state(KILL_BOARD)
    act(state, "attack (1,1)->(2,1)", "attack (4,1)->(2,1)")  # 200 - 70 - 50 = 80
    act(state, "end_turn", "end_turn")
    act(state, "attack (1,1)->(2,1)")  # 10 left
    assert health(state, 2, 1) == 10
    assert not state.is_terminal()
    assert "empty (1,1)" in legal_names(state)  # units with actions left ...
    act(state, "attack (4,1)->(2,1)")  # ... do not matter: the game ends at the kill
    assert state.is_terminal()
    assert state.winner == 0
    assert list(state.returns()) == [1.0, -1.0]
    assert state.unit_at(2, 1) is None
    assert state.legal_action_list() == []
    mask = state.legal_action_mask()
    assert mask.shape == (state.game.spec.action_size,)
    assert mask.dtype == bool
    assert not mask.any()
    assert_illegal(state, "empty (1,1)")
    assert_illegal(state, "move (1,1)->(2,1)")
    assert_illegal(state, "attack (1,1)->(2,1)")
    assert_illegal(state, "end_turn")
    assert applicable(state) == set()


def test_player_one_wins_by_killing_king_zero():
    state = new_state(
        """
        k0 w1 .
        a1 .  .
        .  .  k1
        """
    )
    act(state, "end_turn")
    act(state, "attack (1,0)->(0,0)", "attack (0,1)->(0,0)")  # 200 - 120 = 80
    act(state, "end_turn", "end_turn")
    act(state, "attack (1,0)->(0,0)")  # 10
    assert not state.is_terminal()
    act(state, "attack (0,1)->(0,0)")
    assert state.is_terminal()
    assert state.winner == 1
    assert list(state.returns()) == [-1.0, 1.0]
    assert not state.legal_action_mask().any()


def test_draw_when_the_round_counter_reaches_the_reference_limit():
    state = new_state(
        """
        k0 w1 .
        .  .  .
        .  .  k1
        """,
        max_rounds=2,
    )
    assert state.tick == 1
    act(state, "end_turn")
    assert (state.tick, state.current_player, state.is_terminal()) == (1, 1, False)
    act(state, "end_turn")
    assert (state.tick, state.current_player, state.is_terminal()) == (2, 0, False)
    act(state, "end_turn")
    assert (state.tick, state.current_player, state.is_terminal()) == (2, 1, False)
    act(state, "end_turn")  # tick 3 >= RoundLimit 3: two rounds played
    assert state.tick == 3
    assert state.is_terminal()
    assert state.winner == -1
    assert list(state.returns()) == [0.0, 0.0]
    assert not state.legal_action_mask().any()
    assert_illegal(state, "end_turn")
    assert_illegal(state, "attack (0,0)->(1,0)")


def test_default_max_rounds_is_99_as_the_reference_round_limit_100():
    state = new_state(
        """
        k0 .
        .  k1
        """
    )
    end = end_turn_index(state)
    for _ in range(98):
        state.apply(end)
        state.apply(end)
    assert state.tick == 99
    assert not state.is_terminal()
    state.apply(end)
    assert not state.is_terminal()
    state.apply(end)
    assert state.tick == 100
    assert state.is_terminal()
    assert state.winner == -1


def test_max_rounds_one_ends_after_one_round():
    state = new_state("k0 .\n.  k1", max_rounds=1)
    act(state, "end_turn")
    assert not state.is_terminal()
    act(state, "end_turn")
    assert state.is_terminal()
    assert state.winner == -1


@pytest.mark.parametrize("bad", [0, -3, 2.5, "100", None])
def test_nonsense_max_rounds_is_rejected(bad):
    with pytest.raises(ValueError, match="max_rounds"):
        KillTheKingGame(map="k0 .\n. k1", max_rounds=bad)


# --------------------------------------------------------------------------------- illegal actions

ILLEGAL_BOARD = """
k0 .  .  .
w0 .  a1 .
h0 .  .  k1
"""

# (actions applied first, the illegal action as a name or raw value)
ILLEGAL_CASES = {
    "move_enemy_unit": ([], "move (2,1)->(2,0)"),
    "empty_enemy_unit": ([], "empty (2,1)"),
    "attack_with_enemy_unit": ([], "attack (2,1)->(0,1)"),
    "move_twice": (["move (0,1)->(1,1)"], "move (1,1)->(1,0)"),
    "empty_after_move": (["move (0,1)->(1,1)"], "empty (1,1)"),
    "move_after_empty": (["empty (0,1)"], "move (0,1)->(1,1)"),
    "attack_out_of_range": ([], "attack (0,1)->(2,1)"),
    "attack_twice": (["move (0,1)->(1,1)", "attack (1,1)->(2,1)"], "attack (1,1)->(2,1)"),
    "attack_own_unit": ([], "attack (0,1)->(0,0)"),
    "attack_empty_tile": ([], "attack (0,1)->(1,1)"),
    "heal_twice": (["heal (0,2)->(0,1)"], "heal (0,2)->(0,2)"),
    "heal_empty_tile": ([], "heal (0,2)->(1,2)"),
    "move_on_empty_tile": ([], "move (1,1)->(1,0)"),
    "empty_on_empty_tile": ([], "empty (1,1)"),
    "attack_from_empty_tile": ([], "attack (1,1)->(2,1)"),
    "heal_from_empty_tile": ([], "heal (1,1)->(1,1)"),
    "move_onto_enemy": (["move (0,1)->(1,1)", "end_turn", "end_turn"], "move (1,1)->(2,1)"),
    "own_unit_on_other_turn": (["end_turn"], "move (0,1)->(1,1)"),
    "index_minus_one": ([], Raw(-1)),
    "index_action_size": ([], "SIZE"),
    "index_far_out": ([], Raw(10**9)),
    "numpy_index_out_of_range": ([], Raw(np.int64(-2))),
    "float": ([], Raw(1.5)),
    "float_integral": ([], Raw(3.0)),
    "numpy_float": ([], Raw(np.float64(3.0))),
    "string_digit": ([], Raw("3")),
    "action_name_string": ([], Raw("end_turn")),
    "none": ([], Raw(None)),
    "bool": ([], Raw(True)),
    "numpy_bool": ([], Raw(np.bool_(True))),
    "list": ([], Raw([3])),
}


@pytest.mark.parametrize("case", list(ILLEGAL_CASES))
def test_illegal_action_raises_and_leaves_state_unchanged(case):
    state = new_state(ILLEGAL_BOARD)
    prep, action = ILLEGAL_CASES[case]
    act(state, *prep)
    if action == "SIZE":
        action = Raw(state.game.spec.action_size)
    assert_illegal(state, action)


def test_numpy_integer_index_is_accepted():
    state = new_state(ILLEGAL_BOARD)
    state.apply(np.int64(end_turn_index(state)))
    assert state.current_player == 1
    state.apply(np.int32(state.game.string_to_action("empty (2,1)")))
    assert state.unit_at(2, 1).movement_points == 0


# --------------------------------------------------------------------------------- mask

MASK_BOARD = """
k0 w0 .  W  .
a0 h0 F  .  .
.  M  .  w1 a1
.  .  .  h1 k1
"""

MASK_SCENARIOS = {
    "initial": [],
    "after_move_and_empty": ["move (1,0)->(2,0)", "empty (0,1)", "heal (1,1)->(0,0)"],
    "player_one_turn": ["end_turn"],
    "player_one_after_kill": [
        "end_turn",
        "move (3,2)->(2,2)",
        "attack (2,2)->(1,1)",
        "empty (4,3)",
    ],
    "second_round": ["move (0,1)->(0,2)", "end_turn", "move (3,3)->(2,3)", "end_turn"],
    "ranged_exchange": [
        "move (1,0)->(2,0)",
        "end_turn",
        "move (4,2)->(3,1)",
        "attack (3,1)->(2,0)",
    ],
}


@pytest.mark.parametrize("scenario", list(MASK_SCENARIOS))
def test_mask_equals_the_actions_that_apply(scenario):
    state = new_state(MASK_BOARD)
    act(state, *MASK_SCENARIOS[scenario])
    mask = state.legal_action_mask()
    assert mask.shape == (state.game.spec.action_size,)
    legal = set(np.flatnonzero(mask).tolist())
    assert legal == set(state.legal_action_list())
    assert sorted(legal) == state.legal_actions().tolist()
    assert end_turn_index(state) in legal
    works = applicable(state)
    name = state.game.action_to_string
    assert works == legal, (
        f"apply accepts but mask forbids: {sorted(name(a) for a in works - legal)}; "
        f"mask allows but apply rejects: {sorted(name(a) for a in legal - works)}"
    )


def test_mask_scenarios_are_what_they_claim():
    state = new_state(MASK_BOARD)
    act(state, *MASK_SCENARIOS["player_one_after_kill"])
    assert state.current_player == 1
    assert state.unit_at(1, 1) is None  # h0 killed by w1 (70 >= 50)
    assert state.tick == 1
    state = new_state(MASK_BOARD)
    act(state, *MASK_SCENARIOS["ranged_exchange"])
    assert health(state, 2, 0) == 50
    assert (state.tick, state.current_player) == (1, 1)
    state = new_state(MASK_BOARD)
    act(state, *MASK_SCENARIOS["second_round"])
    assert (state.tick, state.current_player) == (2, 0)


# --------------------------------------------------------------------------------- action names


def test_action_names_round_trip_for_every_index():
    game = KillTheKingGame(
        map="""
        k0 .  W
        .  F  k1
        """
    )
    size = game.spec.action_size
    names = [game.action_to_string(a) for a in range(size)]
    assert len(set(names)) == size
    assert names[-1] == "end_turn"
    for index, name in enumerate(names):
        assert game.string_to_action(name) == index
    assert {n.split(" ")[0] for n in names} == {"move", "attack", "heal", "empty", "end_turn"}


@pytest.mark.parametrize(
    "text",
    [
        "",
        "end turn",
        "endturn",
        "jump (0,0)->(1,0)",
        "move (0,0)",
        "move (0,0)->(0,0)",
        "move (0,0)->(2,0)",
        "attack (0,0)->(3,0)",
        "attack (0,0)->(0,0)",
        "heal (0,0)->(2,1)",
        "empty (0,0)->(1,0)",
        "move (9,9)->(9,8)",
        "empty (-1,0)",
        "move (a,b)->(c,d)",
        "attack (0,0)->",
        "move 0,0 -> 1,0",
        None,
        5,
    ],
)
def test_malformed_action_names_raise_value_error(text):
    game = KillTheKingGame(map="k0 .  W\n.  F  k1")
    with pytest.raises(ValueError):
        game.string_to_action(text)


# --------------------------------------------------------------------------------- map loading


@pytest.mark.parametrize(
    ("layout", "needle"),
    [
        ("k0 . .\n. k1\n", "row 1"),
        ("k0 X\n. k1", "unknown token 'X'"),
        ("k0 q0\n. k1", "unknown token 'q0'"),
        ("k0 k\n. k1", "unknown token 'k'"),
        ("k0 k10\n. k1", "unknown token 'k10'"),
        ("k0 k2\n. k1", "player 2"),
        ("k0 w1\n. .", "player 1 has no King"),
        ("w0 . \n. k1", "player 0 has no King"),
        ("\n\n", "empty"),
    ],
)
def test_inline_layout_errors(layout, needle):
    with pytest.raises(MapError) as info:
        KillTheKingGame(map=layout)
    assert needle in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("name", "needle"),
    [
        ("no_such_map", "unknown map 'no_such_map'"),
        ("kwah:51", "kwah:51"),
        ("kwah:0", "kwah:0"),
        ("kwah:x", "kwah:x"),
        ("", "non-empty"),
    ],
)
def test_unknown_map_names(name, needle):
    with pytest.raises(MapError) as info:
        KillTheKingGame(map=name)
    assert needle in str(info.value)


def test_a_missing_map_file_is_named_as_missing(tmp_path):
    """A path names a file: the error says it does not exist, not that the map is unknown."""
    missing = tmp_path / "nonexistent.yaml"
    for name in (str(missing), f"{missing}:Map1", "maps/nonexistent.yml"):
        path = name.rpartition(":Map1")[0] or name
        with pytest.raises(MapError, match=re.escape(f"map file '{path}' does not exist")):
            KillTheKingGame(map=name)
    with pytest.raises(MapError, match=re.escape(f"map file '{tmp_path}' is a directory")):
        KillTheKingGame(map=str(tmp_path))


def test_kwah_out_of_range_names_the_valid_range():
    with pytest.raises(MapError, match=r"kwah:1 \.\. kwah:50"):
        KillTheKingGame(map="kwah:51")


def test_malformed_yaml_file(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("Board:\n  Layout: [unclosed\n  : :\n", encoding="utf-8")
    with pytest.raises(MapError) as info:
        KillTheKingGame(map=str(path))
    assert "not valid YAML" in str(info.value)
    assert "broken.yaml" in str(info.value)


def test_yaml_file_without_a_board(tmp_path):
    path = tmp_path / "nothing.yaml"
    path.write_text("GameConfig:\n  RoundLimit: 100\n", encoding="utf-8")
    with pytest.raises(MapError, match="Layout"):
        KillTheKingGame(map=str(path))


def test_yaml_maps_file_with_a_bad_layout_and_a_missing_pick(tmp_path):
    path = tmp_path / "maps.yaml"
    path.write_text(
        "Maps:\n  Good: |\n    k0 .\n    .  k1\n  Bad: |\n    k0 Z\n    .  k1\n",
        encoding="utf-8",
    )
    with pytest.raises(MapError, match="unknown token 'Z'"):
        KillTheKingGame(map=str(path))
    good = KillTheKingGame(map=f"{path}:Good").new_initial_state()
    assert (good.width, good.height) == (2, 2)
    with pytest.raises(MapError, match="no map 'Other'"):
        KillTheKingGame(map=f"{path}:Other")


def test_yaml_game_file_loads(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("Board:\n  Layout: |-\n    k0 .  W\n    .  M  k1\n", encoding="utf-8")
    state = KillTheKingGame(map=str(path)).new_initial_state()
    assert (state.width, state.height) == (3, 2)
    assert state.unit_at(2, 1).type == KING


# --------------------------------------------------------------------------------- packaged maps


def _army(state, player):
    return tuple(sorted(("kwah"[u.type], u.x, u.y) for u in state.units(player)))


def test_default_map_is_the_32x17_board_with_six_units_a_side():
    state = KillTheKingGame().new_initial_state()
    assert (state.width, state.height) == (32, 17)
    assert _army(state, 0) == (
        ("a", 23, 13),
        ("a", 24, 12),
        ("h", 25, 13),
        ("k", 24, 13),
        ("w", 24, 14),
        ("w", 25, 14),
    )
    assert _army(state, 1) == (
        ("a", 2, 4),
        ("a", 3, 3),
        ("h", 4, 4),
        ("k", 3, 4),
        ("w", 3, 5),
        ("w", 4, 5),
    )
    assert not state.walkable(0, 0)  # mountain frame
    assert not state.walkable(9, 2)  # water
    assert state.walkable(1, 1)
    assert state.game.round_limit == 100


def test_kwah_map_1_is_30x21_with_king_warrior_archer_healer_a_side():
    state = KillTheKingGame(map="kwah:1").new_initial_state()
    assert (state.width, state.height) == (30, 21)
    assert _army(state, 0) == (("a", 9, 13), ("h", 11, 10), ("k", 15, 10), ("w", 7, 14))
    assert _army(state, 1) == (("a", 27, 10), ("h", 24, 11), ("k", 23, 12), ("w", 19, 14))
    assert not state.walkable(13, 0)  # water
    assert state.walkable(16, 3)


def test_kwah_picks_different_boards_for_different_seeds():
    game = KillTheKingGame(map="kwah")
    assert len(game.boards) == 50
    assert {(b.width, b.height) for b in game.boards} == {(30, 21)}
    armies = {tuple(_army(game.new_initial_state(seed=s), p) for p in (0, 1)) for s in range(12)}
    assert len(armies) > 1
    for seed in (0, 7):
        a, b = game.new_initial_state(seed=seed), game.new_initial_state(seed=seed)
        assert a.to_json() == b.to_json()
    for board in game.boards:
        types = sorted(t for t, _, _, _ in board.units)
        assert types == sorted([KING, WARRIOR, ARCHER, HEALER] * 2)
