"""CotG combat rules as small scripted scenarios on drawn hex boards.

Checked against ``specs/cotg_combat_spec.md`` sections 1–4 and the paper's "Combat Background"
(Šmejkal & Gemrot 2018): hex distance in axial coordinates, movement of one hex per power point
over free hexes (units block), interleaved move/attack, one attack per unit per turn, flat shield
reduction with a minimum of 1, elimination wins, the turn-limit draw.

Boards are drawn one row per line (row ``r`` from the top, ``q`` from the left); ``D``/``B`` are
player 0's Destroyer/Battleship, ``d``/``b`` player 1's. Default stats (⚑ spec): Destroyer hp 12,
strength 6, shield 0, range 1, power 4; Battleship hp 24, strength 4, shield 2, range 3, power 3.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from scenario_helpers import act, statuses_to_the_end

from stratagem.envs import InvalidStateError, make_game
from stratagem.envs.core import IllegalActionError
from stratagem.envs.cotg_combat import (
    BATTLESHIP,
    DESTROYER,
    OBSERVATION_PLANES,
    CotgCombatGame,
    HexGrid,
    auto_board_size,
    hex_distance,
    move_offsets,
    parse_armies,
)
from stratagem.envs.cotg_combat.armies import army_radius

# --------------------------------------------------------------------------------- helpers


def board(*rows: str) -> str:
    return "\n".join(rows)


def new_state(layout: str, **kwargs):
    return CotgCombatGame(armies=layout, **kwargs).new_initial_state()


def legal_names(state) -> set[str]:
    return {state.game.action_to_string(a) for a in state.legal_actions()}


EMPTY7 = [". . . . . . ."] * 7


def place(rows: list[str], q: int, r: int, token: str) -> list[str]:
    out = [row.split() for row in rows]
    out[r][q] = token
    return [" ".join(row) for row in out]


def scenario(placed: dict[tuple[int, int], str], size: int = 7, **kwargs):
    rows = [" ".join(["."] * size)] * size
    for (q, r), token in placed.items():
        rows = place(rows, q, r, token)
    return new_state(board(*rows), **kwargs)


# --------------------------------------------------------------------------------- geometry


def test_hex_distance_axial():
    assert hex_distance(0, 0) == 0
    for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
        assert hex_distance(dq, dr) == 1
    assert hex_distance(1, 1) == 2  # not a neighbour: (+1,+1) is two steps
    assert hex_distance(2, -1) == 2
    assert hex_distance(3, -3) == 3
    assert hex_distance(-2, 5) == 5
    assert hex_distance(4, 4) == 8


def test_move_offsets_count_and_order():
    for p in range(1, 6):
        offsets = move_offsets(p)
        assert len(offsets) == 3 * p * (p + 1)
        assert len(set(offsets)) == len(offsets)
        dists = [hex_distance(*o) for o in offsets]
        assert dists == sorted(dists) and max(dists) == p and min(dists) == 1
    assert len(move_offsets(4)) == 60  # the spec's M


def test_grid_neighbours_and_discs():
    grid = HexGrid(5, 4, 2)
    assert len(grid.neighbours[grid.cell(2, 2)]) == 6
    assert len(grid.neighbours[grid.cell(0, 0)]) == 2  # (1,0) and (0,1)
    assert len(grid.disc(grid.cell(2, 2), 1)) == 7
    for a in range(grid.size):
        for b in range(grid.size):
            assert grid.dist[a][b] == grid.distance(a, b)
    with pytest.raises(ValueError, match="off the 5x4 board"):
        grid.cell(5, 0)


# --------------------------------------------------------------------------------- layout


def test_action_layout_size_and_formula():
    game = CotgCombatGame(units=5)
    assert game.spec.action_size == 1 + 5 * (60 + 5) == 326
    assert CotgCombatGame(units=32).spec.action_size == 2945  # the spec's figure for U = 32
    layout = game.layout
    assert layout.move(0, 0) == 1
    assert layout.attack(0, 0) == 61
    assert layout.move(2, 7) == 1 + 2 * 65 + 7
    assert layout.attack(4, 3) == 1 + 4 * 65 + 60 + 3
    assert game.string_to_action("end_turn") == 0 == game.end_turn_action
    assert game.action_to_string(layout.attack(4, 3)) == "attack 4 -> 3"
    dq, dr = move_offsets(4)[7]
    assert game.action_to_string(layout.move(2, 7)) == f"move 2 ({dq:+d},{dr:+d})"
    for action in range(game.spec.action_size):
        assert game.string_to_action(game.action_to_string(action)) == action


@pytest.mark.parametrize(
    "text",
    ["move 5 (+1,+0)", "move 0 (+5,+0)", "move 0 (+0,+0)", "attack 0 -> 9", "fly 1", "move x"],
)
def test_bad_action_names(text):
    with pytest.raises(ValueError):
        CotgCombatGame(units=5).string_to_action(text)


# --------------------------------------------------------------------------------- movement


def test_move_spends_path_length_and_allows_interleaving():
    s = scenario({(0, 3): "D", (6, 3): "d"})
    act(s, "move 0 (+2,+0)")
    u = s.unit(0)
    assert (u.q, u.r, u.power) == (2, 3, 2)
    act(s, "move 0 (+1,-1)")
    assert (s.unit(0).q, s.unit(0).r, s.unit(0).power) == (3, 2, 1)
    # the last power point: one more hex, then nothing
    act(s, "move 0 (+1,+0)")
    assert s.unit(0).power == 0
    assert not any(n.startswith("move 0") for n in legal_names(s))
    with pytest.raises(IllegalActionError, match="no power left"):
        act(s, "move 0 (+1,+0)")


def test_move_beyond_power_is_illegal_and_changes_nothing():
    s = scenario({(0, 3): "B", (6, 3): "b"})
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="within the unit's power"):
        act(s, "move 0 (+4,+0)")  # battleship power 3
    assert s.to_json() == before
    names = legal_names(s)
    assert "move 0 (+3,+0)" in names and "move 0 (+4,+0)" not in names


def test_units_block_movement_for_everyone():
    # D at (1,3) (slot 3 in reading order) is walled in by its own Battleships and enemies
    s = scenario(
        {(1, 3): "D", (2, 3): "B", (2, 2): "B", (1, 2): "B", (0, 3): "B", (0, 4): "b", (1, 4): "d"},
        units=5,
    )
    assert s.unit(3).type == DESTROYER and (s.unit(3).q, s.unit(3).r) == (1, 3)
    assert not any(n.startswith("move 3") for n in legal_names(s))
    with pytest.raises(IllegalActionError, match="no free path"):
        act(s, "move 3 (+2,+0)")
    # cannot end on an occupied hex either
    with pytest.raises(IllegalActionError):
        act(s, "move 1 (-1,+0)")


def test_detour_around_a_unit_costs_more():
    # B at (1,3) moving to (3,3): straight line (2,3) is blocked, the detour takes 3 steps
    s = scenario({(1, 3): "B", (2, 3): "b", (6, 0): "d"}, units=2)
    act(s, "move 0 (+2,+0)")
    assert (s.unit(0).q, s.unit(0).power) == (3, 0)
    # a Destroyer (power 4) passes the same wall with power to spare
    s = scenario({(1, 3): "D", (2, 3): "b", (6, 0): "d"}, units=2)
    act(s, "move 0 (+2,+0)")
    assert s.unit(0).power == 1


def test_power_refills_and_does_not_carry_over():
    s = scenario({(0, 3): "D", (6, 3): "d"})
    act(s, "move 0 (+1,+0)", "end_turn")
    assert s.current_player == 1 and s.unit(0).power == 4  # refilled at the end of its turn
    act(s, "end_turn")
    assert s.current_player == 0 and s.unit(0).power == 4


def test_move_attack_move():
    s = scenario({(0, 3): "D", (3, 3): "b"}, units=1)
    act(s, "move 0 (+2,+0)", "attack 0 -> 0", "move 0 (-2,+0)")
    u = s.unit(0)
    assert (u.q, u.power, u.attacked) == (0, 0, True)
    assert s.unit(1).hp == 24 - 4


# --------------------------------------------------------------------------------- combat


@pytest.mark.parametrize(
    ("attacker", "target", "damage"),
    [("D", "d", 6), ("D", "b", 4), ("B", "d", 4), ("B", "b", 2)],
)
def test_damage_is_strength_minus_shield(attacker, target, damage):
    s = scenario({(2, 3): attacker, (3, 3): target}, units=1)
    full = s.unit(1).hp
    act(s, "attack 0 -> 0")
    assert s.unit(1).hp == full - damage


def test_shield_never_reduces_a_hit_below_one():
    s = scenario({(2, 3): "D", (3, 3): "b"}, units=1, unit_stats={"destroyer": {"strength": 1}})
    act(s, "attack 0 -> 0")
    assert s.unit(1).hp == 23


def test_attack_range_by_hex_distance():
    # Battleship range 3: (0,3) -> (3,3) is 3 hexes, (0,3) -> (4,3) is 4
    # (enemy slots in reading order: 0 is the Destroyer at (4,2), 1 the Battleship at (3,3))
    s = scenario({(0, 3): "B", (3, 3): "b", (4, 2): "d"}, units=2)
    names = legal_names(s)
    assert "attack 0 -> 1" in names
    assert "attack 0 -> 0" not in names  # (4,2): distance 4
    with pytest.raises(IllegalActionError, match="range 3"):
        act(s, "attack 0 -> 0")
    # Destroyer range 1: only neighbours
    s = scenario({(2, 2): "D", (3, 1): "d", (4, 2): "b"}, units=2)
    names = legal_names(s)
    assert "attack 0 -> 0" in names and "attack 0 -> 1" not in names


def test_one_attack_per_unit_per_turn():
    s = scenario({(2, 3): "B", (3, 3): "b", (2, 2): "d"}, units=2)
    act(s, "attack 0 -> 0")
    assert not any(n.startswith("attack 0") for n in legal_names(s))
    with pytest.raises(IllegalActionError, match="already attacked"):
        act(s, "attack 0 -> 1")
    act(s, "end_turn", "end_turn")
    assert "attack 0 -> 1" in legal_names(s)


def test_kill_removes_the_unit_and_frees_its_hex():
    s = scenario({(3, 2): "D", (2, 3): "D", (3, 3): "d", (6, 6): "b"}, units=2)
    act(s, "attack 0 -> 0", "attack 1 -> 0")  # 6 + 6 = 12: dead
    assert s.unit(2).hp == 0 and s.unit(2).q == -1
    assert s.unit_at(3, 3) is None
    assert not s.is_terminal()
    act(s, "move 1 (+1,+0)")  # onto the freed hex
    assert (s.unit(1).q, s.unit(1).r) == (3, 3)
    assert s.alive_counts == (2, 1)


def test_elimination_wins_at_once():
    s = scenario({(2, 3): "D", (3, 3): "d"}, units=1, unit_stats={"destroyer": {"hp": 6}})
    act(s, "attack 0 -> 0")
    assert s.is_terminal() and s.winner == 0
    assert list(s.returns()) == [1.0, -1.0]
    assert not s.legal_action_mask().any()
    with pytest.raises(IllegalActionError, match="over"):
        act(s, "end_turn")


def test_max_rounds_draw_keeps_hit_points():
    s = scenario({(0, 0): "D", (6, 6): "b"}, units=1, max_rounds=2)  # 4 player-turns
    act(s, "end_turn", "end_turn", "end_turn")
    assert not s.is_terminal()
    act(s, "end_turn")
    assert s.is_terminal() and s.winner == -1
    assert list(s.returns()) == [0.0, 0.0]
    assert s.hp_totals() == (12, 24) and s.starting_hp() == (12, 24)


def test_slots_are_relative_to_the_player_to_move():
    s = scenario({(2, 3): "D", (0, 0): "B", (3, 3): "d", (6, 6): "b"}, units=2)
    act(s, "end_turn")
    # player 1's slot 0 is its Destroyer at (3,3); enemy slot 1 is player 0's Destroyer
    act(s, "attack 0 -> 1")
    assert s.unit(1).hp == 6
    assert s.action_unit(s.game.string_to_action("attack 0 -> 1")) == 2
    assert s.action_kind(s.game.string_to_action("attack 0 -> 1")) == "attack"


def test_exact_legal_actions():
    # One Destroyer of player 0 in a corner next to an enemy Battleship
    s = scenario({(0, 0): "D", (1, 0): "b"}, size=3, units=1)
    names = legal_names(s)
    assert "end_turn" in names and "attack 0 -> 0" in names
    moves = {n for n in names if n.startswith("move")}
    # every free hex of the 3x3 board is within 4 steps
    assert len(moves) == 9 - 2
    assert s.legal_actions()[0] == 0


def test_illegal_input_is_rejected_without_change():
    s = scenario({(2, 3): "D", (3, 3): "d"}, units=2)
    before = s.to_json()
    for bad in (-1, s.game.spec.action_size, 1.5, None, "0", True):
        with pytest.raises(IllegalActionError):
            s.apply(bad)
    with pytest.raises(IllegalActionError, match="no unit in slot 1"):
        act(s, "move 1 (+1,+0)")
    with pytest.raises(IllegalActionError, match="no unit in slot 1"):
        act(s, "attack 0 -> 1")
    with pytest.raises(IllegalActionError, match="off the board"):
        s2 = scenario({(0, 0): "D", (3, 3): "d"}, units=1)
        act(s2, "move 0 (-1,+0)")
    assert s.to_json() == before


# --------------------------------------------------------------------------------- armies


@pytest.mark.parametrize("units", [1, 2, 5, 7, 9, 16, 32])
def test_generated_armies_follow_the_protocol(units):
    game = CotgCombatGame(units=units)
    side = auto_board_size(units)
    assert (game.width, game.height) == (side, side)
    radius = army_radius(units)
    for seed in range(5):
        s = game.new_initial_state(seed)
        for p in (0, 1):
            army = s.units(p)
            assert len(army) == units
            types = [u.type for u in army]
            nb = types.count(BATTLESHIP)
            assert types == [BATTLESHIP] * nb + [DESTROYER] * (units - nb)
            assert nb in {int(np.floor(r * units + 0.5)) for r in (0.25, 0.5, 0.75)}
            # every unit within 2 * radius of every other (a disc of that radius)
            for a in army:
                for b in army:
                    assert hex_distance(a.q - b.q, a.r - b.r) <= 2 * radius
        assert [u.type for u in s.units(0)] == [u.type for u in s.units(1)]
        assert s.hp_totals() == s.starting_hp()


def test_generation_is_deterministic_and_varies_with_the_seed():
    game = CotgCombatGame(units=7)
    assert game.new_initial_state(3).to_json() == game.new_initial_state(3).to_json()
    assert game.new_initial_state(3).to_json() != game.new_initial_state(4).to_json()


def test_mirror_placement_is_point_symmetric():
    game = CotgCombatGame(units=9, placement="mirror", battleships=4)
    s = game.new_initial_state(11)
    first, second = s.units(0), s.units(1)
    for a, b in zip(first, second, strict=True):
        assert (b.q, b.r) == (game.width - 1 - a.q, game.height - 1 - a.r)
        assert a.type == b.type
    assert [u.type for u in first].count(BATTLESHIP) == 4


def test_random_placement_centres_in_opposite_halves():
    game = CotgCombatGame(units=5, battleships=0)
    for seed in range(20):
        s = game.new_initial_state(seed)
        mean0 = np.mean([u.q for u in s.units(0)])
        mean1 = np.mean([u.q for u in s.units(1)])
        assert mean0 < mean1


def test_parse_armies_forms():
    w, h, (a0, a1) = parse_armies(board(". D .", " . . b", "  B . ."))
    assert (w, h) == (3, 3)
    assert a0 == [(DESTROYER, 1, 0), (BATTLESHIP, 0, 2)]
    assert a1 == [(BATTLESHIP, 2, 1)]
    assert parse_armies("D(2,3) B(4, 5) | b(10,3)")[2] == (
        [(DESTROYER, 2, 3), (BATTLESHIP, 4, 5)],
        [(BATTLESHIP, 10, 3)],
    )


@pytest.mark.parametrize(
    ("armies", "kwargs", "match"),
    [
        (board(". D", ". . ."), {}, "equally long"),
        (board(". X", ". d"), {}, "unknown token"),
        ("D(1,1) B(2,2)", {}, "'|'"),
        ("D(1,1) Q(2,2) | d(3,3)", {}, "cannot read unit"),
        ("D(1,1) | ", {}, "both players"),
        ("D(1,1) D(1,1) | d(3,3)", {}, "two units on hex"),
        ("D(1,1) | d(30,3)", {}, "off the"),
        ("D(1,1) D(2,2) | d(3,3)", {"units": 1}, "raise units"),
        (board(". D", ". d"), {"width": 3}, "disagrees"),
    ],
)
def test_malformed_armies_are_named(armies, kwargs, match):
    with pytest.raises(ValueError, match=match):
        CotgCombatGame(armies=armies, **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"units": 0}, "units"),
        ({"units": 65}, "units"),
        ({"units": 2.5}, "units"),
        ({"placement": "spiral"}, "placement"),
        ({"battleships": 6}, "battleships"),
        ({"max_rounds": 0}, "max_rounds"),
        ({"unit_stats": {"cruiser": {"hp": 3}}}, "unknown unit type"),
        ({"unit_stats": {"destroyer": {"speed": 3}}}, "unknown attribute"),
        ({"unit_stats": {"destroyer": {"hp": 0}}}, "destroyer hp"),
        ({"unit_stats": "fast"}, "mapping"),
        ({"units": 32, "width": 6, "height": 6}, "larger board"),
    ],
)
def test_bad_configuration_is_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        CotgCombatGame(**kwargs)


def test_registry_rejects_unknown_options():
    with pytest.raises(ValueError, match="unknown option"):
        make_game("cotg_combat", size=5)
    game = make_game("cotg_combat", units=9, unit_stats={"battleship": {"shield": 1}})
    assert game.damage[BATTLESHIP][BATTLESHIP] == 3


# --------------------------------------------------------------------------------- views


def test_observation_planes():
    s = scenario({(2, 3): "D", (3, 3): "b"}, units=1, max_rounds=5)
    act(s, "attack 0 -> 0", "move 0 (-1,+0)")
    obs = s.observation(0)
    assert obs.shape == (7, 7, len(OBSERVATION_PLANES))
    planes = dict(zip(OBSERVATION_PLANES, np.moveaxis(obs, -1, 0), strict=True))
    assert planes["own_destroyer"][3, 1] == 1 and planes["own_destroyer"].sum() == 1
    assert planes["enemy_battleship"][3, 3] == 1 and planes["enemy_battleship"].sum() == 1
    assert planes["hp_fraction"][3, 3] == pytest.approx(20 / 24)
    assert planes["power_fraction"][3, 1] == pytest.approx(3 / 4)
    assert planes["has_attacked"][3, 1] == 1
    assert planes["shield"][3, 3] == 1 and planes["shield"][3, 1] == 0
    assert np.all(planes["turn_progress"] == 0) and np.all(planes["to_move"] == 1)
    other = s.observation(1)
    assert other[3, 1, OBSERVATION_PLANES.index("enemy_destroyer")] == 1
    assert np.all(other[..., OBSERVATION_PLANES.index("to_move")] == 0)


def test_text_and_picture():
    s = scenario({(2, 3): "D", (3, 3): "b"}, units=1)
    text = str(s)
    assert "D" in text and "b" in text and "player 0 to move" in text
    img = s.render_rgb()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    reds = np.all(img == (220, 50, 40), axis=-1).sum()
    blues = np.all(img == (40, 90, 230), axis=-1).sum()
    assert reds > 0 and blues > 0


def test_json_round_trip_and_malformed_fields():
    s = scenario({(2, 3): "D", (3, 3): "b"}, units=1)
    act(s, "attack 0 -> 0", "move 0 (-1,+0)")
    game = s.game
    assert game.state_from_json(s.to_json()) == s
    data = json.loads(s.to_json())
    for key, value, match in (
        ("hp", [12, 99], "hp 99"),
        ("pos", [0, 0], "shared"),
        ("types", [0, 7], "unknown type"),
        ("attacked", [1, 0], "bool"),
        ("turn", 500, "turn"),
        ("winner", 0, "winner"),
    ):
        bad = json.loads(json.dumps(data))
        bad["state"][key] = value
        with pytest.raises(InvalidStateError, match=match):
            game.state_from_json(json.dumps(bad))


def test_status_and_statistics_count_rounds_as_max_rounds_does():
    """``round 1/2`` on the first move (not ``turn 0/4``); a draw reports ``max_rounds`` rounds."""
    state = make_game("cotg_combat", max_rounds=2).new_initial_state(0)
    hp = "; hp 108 v 108"
    assert statuses_to_the_end(state) == [
        "round 1/2, player 0 to move" + hp,
        "round 1/2, player 1 to move" + hp,
        "round 2/2, player 0 to move" + hp,
        "round 2/2, player 1 to move" + hp,
        "draw after 2 rounds (round limit)" + hp,
    ]
    stats = state.end_statistics()
    assert stats["rounds"] == 2.0 and stats["turns"] == 4.0  # turns: player-turns
