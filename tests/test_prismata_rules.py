"""Prismata rules scenarios, checked against the facts of specs/prismata_rules.md.

Positions are built with ``PrismataGame.position`` from unit specs (``"Drone*3:used"``), so each
scenario states its board in a line or two.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scenario_helpers import statuses_to_the_end

from stratagem.envs import IllegalActionError, InvalidStateError, make_game
from stratagem.envs.prismata import (
    BASE_SET,
    CARDS,
    NUM_CARDS,
    POOL,
    CardSetError,
    PrismataGame,
    card_by_name,
    parse_resources,
)
from stratagem.envs.prismata.rules import ACTION, BREACH, DEFENSE

BASE = PrismataGame(cards="base")
DATA = Path("/work/shared/prismata_data/cardLibrary.jso")


def game_with(*names: str) -> PrismataGame:
    return PrismataGame(cards=",".join(names)) if names else BASE


def act(state, text: str) -> None:
    state.apply(state.game.string_to_action(text))


def names(state, player: int) -> list[str]:
    return [u.name for u in state.units(player)]


def legal_names(state) -> set[str]:
    return {state.game.action_to_string(a) for a in state.legal_action_list()}


# ---------------------------------------------------------------- card table and setup


def test_card_table_sizes_and_names():
    assert len(CARDS) == NUM_CARDS == 104
    assert [CARDS[i].name for i in BASE_SET] == [
        "Drone",
        "Engineer",
        "Blastforge",
        "Animus",
        "Conduit",
        "Steelsplitter",
        "Wall",
        "Rhino",
        "Tarsier",
        "Forcefield",
        "Gauss Cannon",
    ]
    assert len(POOL) == 93
    assert card_by_name("treant").name == "Steelsplitter"
    assert card_by_name("Blood Barrier").name == "Forcefield"
    assert card_by_name("house").name == "Husk"  # the pool card the reference names by engine name
    with pytest.raises(CardSetError, match="unknown Prismata card 'Dronne'.*Drone"):
        card_by_name("Dronne")


@pytest.mark.skipif(not DATA.exists(), reason="reference card library not available")
def test_card_table_matches_the_reference_library():
    """Every fact of our table equals the reference's data file (read here, never shipped)."""
    data = json.loads(DATA.read_text())
    supply = {"legendary": 1, "rare": 4, "normal": 10, "trinket": 20, "unbuyable": 0}
    ui = {k: v.get("UIName", k) for k, v in data.items()}

    def res(text):
        if text is None:
            return (0,) * 6
        text = str(text)
        digits = len(text) - len(text.lstrip("0123456789"))
        gold = int(text[:digits]) if digits else 0
        rest = text[digits:]
        return (gold, *(rest.count(ch) for ch in "HBCGA"))

    for card in CARDS:
        d = data[card.engine]
        assert ui[card.engine] == card.name
        assert card.base == (d.get("baseSet") == 1), card.name
        assert card.supply == supply[d["rarity"]], card.name
        assert card.cost == res(d["buyCost"]), card.name
        assert card.hp == d.get("toughness", 1), card.name
        assert card.build == (0 if "spell" in d else d.get("buildTime", 1)), card.name
        assert card.lifespan == d.get("lifespan", 0), card.name
        assert card.charges == d.get("charge", 0), card.name
        assert card.blocker == bool(d.get("defaultBlocking", 0)), card.name
        assert card.blocks_when_used == bool(d.get("assignedBlocking", 0)), card.name
        assert card.frontline == bool(d.get("undefendable", 0)), card.name
        assert card.fragile == bool(d.get("fragile", 0)), card.name
        assert card.hp_gain == d.get("HPGained", 0), card.name
        assert card.hp_max == d.get("HPMax", 0), card.name
        assert card.buy_sac == tuple(
            (ui[s[0]], s[1] if len(s) > 1 else 1) for s in d.get("buySac", [])
        ), card.name
        for ours, key in (
            (card.start, "beginOwnTurnScript"),
            (card.ability, "abilityScript"),
            (card.on_buy, "buyScript"),
        ):
            script = d.get(key, {})
            gain = res(script.get("receive")) if ours is not None else (0,) * 6
            assert gain == res(script.get("receive")), (card.name, key)
            creates = [
                (
                    ui[c[0]],
                    c[2] if len(c) > 2 else 1,
                    c[3] if len(c) > 3 else 1,
                    c[4] if len(c) > 4 else 0,
                    c[1] == "opponent",
                )
                for c in script.get("create", [])
            ]
            mine = (
                []
                if ours is None
                else [(m.card, m.count, m.delay, m.lifespan, m.enemy) for m in ours.create]
            )
            assert mine == creates, (card.name, key)
            assert (ours is not None and ours.selfsac) == bool(script.get("selfsac")), (
                card.name,
                key,
            )
            assert (0 if ours is None else ours.delay) == script.get("delay", 0), (card.name, key)
        if card.ability is not None:
            assert card.ability.cost == res(d.get("abilityCost")), card.name
            assert card.ability.hp_cost == d.get("HPUsed", 0), card.name
            sac = tuple((ui[s[0]], s[1] if len(s) > 1 else 1) for s in d.get("abilitySac", []))
            assert card.ability.sac == sac, card.name
        kind = {"snipe": "snipe", "disrupt": "chill"}.get(d.get("targetAction"))
        assert (card.target.kind if card.target else None) == kind, card.name
        if kind == "chill":
            assert card.target.amount == d["targetAmount"]
        resonate = d.get("resonate") or d.get("goldResonate")
        assert (card.start.resonate[0] if card.start and card.start.resonate else None) == (
            ui[resonate] if resonate else None
        ), card.name


def test_resource_notation():
    assert parse_resources("6g 1B") == (6, 0, 1, 0, 0, 0)
    assert parse_resources("4G") == (0, 0, 0, 0, 4, 0)
    assert parse_resources("") == (0,) * 6
    with pytest.raises(ValueError, match="bad resource token"):
        parse_resources("6 gold")


def test_starting_state():
    state = BASE.new_initial_state(0)
    assert names(state, 0) == ["Drone"] * 6 + ["Engineer"] * 2
    assert names(state, 1) == ["Drone"] * 7 + ["Engineer"] * 2
    assert state.current_player == 0 and state.phase == ACTION and state.turn == 0
    # player 0's first start of turn ran: Engineers gave 1 energy each
    assert state.resources(0) == (0, 2, 0, 0, 0, 0)
    assert state.resources(1) == (0,) * 6
    assert state.supply_left(0, card_by_name("Drone").index) == 20
    assert state.supply_left(1, card_by_name("Gauss Cannon").index) == 10
    assert legal_names(state) == {f"use #{i}" for i in range(6)} | {"end_phase"}


def test_random_card_sets_are_seeded_and_sized():
    game = PrismataGame(cards="random:8")
    a, b = game.new_initial_state(3), game.new_initial_state(3)
    assert a.cards == b.cards and len(a.cards) == 19
    assert set(BASE_SET) <= set(a.cards)
    sets = {game.new_initial_state(s).cards for s in range(20)}
    assert len(sets) > 15
    assert len(PrismataGame(cards="random:5").new_initial_state(1).cards) == 16
    fixed = PrismataGame(cards="Apollo, wild drone")
    assert [CARDS[t].name for t in fixed.new_initial_state(9).cards if t not in BASE_SET] == [
        "Wild Drone",
        "Apollo",
    ]


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("random:x", "number of random cards"),
        ("random:94", "number of random cards"),
        ("Apollo,Nope", "unknown Prismata card 'Nope'"),
        ("Apollo,Apollo", "listed twice"),
        ("Drone", "base set already"),
        ("", "cards must be"),
    ],
)
def test_bad_card_options_are_clear_errors(option, message):
    with pytest.raises(CardSetError, match=message):
        make_game("prismata", cards=option)


def test_bad_numeric_options():
    with pytest.raises(ValueError, match="max_rounds"):
        make_game("prismata", max_rounds=0)
    with pytest.raises(ValueError, match="max_units"):
        make_game("prismata", max_units=4)
    with pytest.raises(ValueError, match="unknown option"):
        make_game("prismata", colour="red")


# ---------------------------------------------------------------- paper and spec figures


def _purchase_multisets(resources: str, drones: str) -> int:
    state = BASE.position(
        [[f"Drone*6:{drones}", "Engineer*2"], ["Drone*7", "Engineer*2"]], resources=[resources, ""]
    )
    seen = {()}
    stack = [(state, ())]
    while stack:
        s, key = stack.pop()
        for a in s.legal_action_list():
            if a >= NUM_CARDS:
                continue
            k = tuple(sorted((*key, a)))
            if k not in seen:
                seen.add(k)
                c = s.clone()
                c.apply(a)
                stack.append((c, k))
    return len(seen)


def test_purchase_counts_of_the_paper_and_spec():
    """Paper: 18 ways to buy base-set units (the spec finds 18 with 8 gold and 1 energy)."""
    assert _purchase_multisets("8g 1E", "ready") == 18
    assert _purchase_multisets("8g 2E", "ready") == 20
    # spec section 9: the mid-game budget, Forcefield allowed (Drones clicked) or not
    assert _purchase_multisets("20g 2E 2B 4R 2G", "used") == 3257
    assert _purchase_multisets("20g 2E 2B 4R 2G", "ready") == 1443


# ---------------------------------------------------------------- turn structure and resources


def test_gold_and_green_carry_over_the_rest_is_emptied():
    state = BASE.position([["Drone", "Conduit"], ["Drone"]], resources=["3g 2E 1B 1R 4G 0A", ""])
    act(state, "end_phase")
    assert state.current_player == 1
    act(state, "end_phase")  # back to player 0: start of turn
    assert state.resources(0) == (3, 0, 0, 0, 5, 0)  # Conduit +1 green


def test_drone_click_gives_gold_and_stops_blocking():
    state = BASE.position([["Drone*2"], ["Drone"]])
    act(state, "use #0")
    assert state.resources(0)[0] == 1
    assert state.unit(0, 0).status == "used" and not state.can_block(0, 0)
    assert state.can_block(0, 1)
    with pytest.raises(IllegalActionError, match="cannot be clicked"):
        act(state, "use #0")


def test_build_time_and_start_of_turn_scripts():
    state = BASE.position([["Drone"], ["Drone"]], resources=["4g 1R", ""])
    act(state, "buy Tarsier")
    tarsier = state.units(0)[-1]
    assert tarsier.build == 2 and not tarsier.can_block
    for _ in range(2):
        act(state, "end_phase")
        act(state, "end_phase")
    # two own turn starts later it is built and fires at once
    assert state.unit(0, tarsier.slot).build == 0
    assert state.attack(0) == 1


def test_prompt_blocker_blocks_the_turn_it_is_bought():
    state = BASE.position([["Drone"], ["Drone"]], resources=["5g 1B", ""])
    act(state, "buy Wall")
    wall = state.units(0)[-1]
    assert wall.build == 0 and state.can_block(0, wall.slot)
    assert state.total_defense(0) == 1 + 3


def test_supply_is_per_player_and_runs_out():
    state = game_with("Centurion").position([["Drone"], ["Drone"]], resources=["40g 4B 2R 4G", ""])
    act(state, "buy Centurion")
    assert state.supply_left(0, card_by_name("Centurion").index) == 0
    assert state.supply_left(1, card_by_name("Centurion").index) == 1
    assert "buy Centurion" not in legal_names(state)
    with pytest.raises(IllegalActionError, match="no Centurion left"):
        act(state, "buy Centurion")


def test_illegal_buys_are_explained_and_change_nothing():
    state = BASE.position([["Drone"], ["Drone"]], resources=["2g", ""])
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="costs 3g 1E, player has 2g"):
        act(state, "buy Drone")
    with pytest.raises(IllegalActionError, match="not in this game's card set"):
        act(state, "buy Apollo")
    assert state.to_json() == before


# ---------------------------------------------------------------- combat: blocking


def _attack_position(defenders: list[str], attack: int, *, fragile_attack: bool = False):
    state = BASE.position([["Drone"], defenders], resources=[f"{attack}A", ""])
    act(state, "end_phase")  # player 0 ends with attack: player 1 defends
    return state


def test_blocking_absorbs_and_non_fragile_blockers_stay_whole():
    state = _attack_position(["Wall", "Drone*2"], 2)
    assert state.phase == DEFENSE and state.current_player == 1
    assert legal_names(state) == {"block #0", "block #1", "block #2"}
    act(state, "block #0")  # Wall (3hp) absorbs 2 and survives at full health
    assert state.unit(1, 0).hp == 3
    # the attack is absorbed: defense ends by itself and player 1's action phase begins
    assert state.phase == ACTION and state.current_player == 1 and state.attack(0) == 0


def test_blocker_dies_when_attack_reaches_its_health_and_the_rest_carries_on():
    state = _attack_position(["Wall", "Drone*3"], 4)
    act(state, "block #1")  # a Drone dies, 3 attack left
    assert names(state, 1) == ["Wall", "Drone", "Drone"]
    assert state.phase == DEFENSE and state.attack(0) == 3
    act(state, "block #0")  # the Wall takes 3 and dies
    assert names(state, 1) == ["Drone", "Drone"] and state.phase == ACTION


def test_fragile_blocker_keeps_its_damage():
    state = _attack_position(["Forcefield", "Drone*3"], 1)
    act(state, "block #0")
    assert state.unit(1, 0).hp == 1  # Forcefield 2hp, fragile


def test_wipeout_kills_every_blocker_then_breach():
    state = BASE.position(
        [["Drone"], ["Wall", "Drone", "Conduit", "Tarsier:build=1"]], resources=["7A", ""]
    )
    act(state, "end_phase")  # 7 >= 3 + 1: wipeout
    assert names(state, 1) == ["Conduit", "Tarsier"]
    assert state.phase == BREACH and state.current_player == 0 and state.attack(0) == 3
    # the Tarsier is under construction: it can be breached only when everything else is
    assert legal_names(state) == {"breach #2"}
    act(state, "breach #2")  # the Conduit (3hp) dies, attack exhausted: the turn ends
    assert names(state, 1) == ["Tarsier"] and state.current_player == 1


def test_breach_needs_attack_at_least_the_health_of_non_fragile_units():
    state = BASE.position(
        [["Drone"], ["Drone", "Blastforge", "Gauss Cannon"]], resources=["3A", ""]
    )
    act(state, "end_phase")
    # 2 left after the Drone: Blastforge (3hp) is out of reach, the fragile Gauss Cannon is not
    assert legal_names(state) == {"breach #2"}
    act(state, "breach #2")
    assert state.unit(1, 2).hp == 3 and state.current_player == 1  # damaged, turn over


def test_leftover_breach_attack_is_lost():
    state = BASE.position([["Drone"], ["Drone", "Blastforge"]], resources=["3A", ""])
    act(state, "end_phase")  # 2 attack left cannot kill the Blastforge: the turn just ends
    assert state.current_player == 1 and state.phase == ACTION
    assert state.attack(0) == 0 and names(state, 1) == ["Blastforge"]


def test_overkill_units_under_construction_once_nothing_else_is_left():
    state = BASE.position(
        [["Drone"], ["Drone", "Wall:build=1", "Steelsplitter:build=1"]], resources=["7A", ""]
    )
    act(state, "end_phase")
    assert legal_names(state) == {"breach #1", "breach #2"}
    act(state, "breach #1")
    act(state, "breach #2")
    assert names(state, 1) == []


def test_a_player_without_units_at_the_end_of_a_turn_loses():
    state = BASE.position([["Drone"], ["Drone*2"]], resources=["2A", ""])
    act(state, "end_phase")
    assert state.is_terminal() and state.winner == 0
    assert list(state.returns()) == [1.0, -1.0]
    assert not state.legal_action_mask().any()


def test_max_rounds_draw():
    game = PrismataGame(cards="base", max_rounds=2)  # a round is a turn of each player
    state = game.new_initial_state(0)
    for _ in range(3):
        act(state, "end_phase")
    assert not state.is_terminal() and state.turn == 3
    act(state, "end_phase")
    assert state.is_terminal() and state.winner == -1 and list(state.returns()) == [0.0, 0.0]


# ---------------------------------------------------------------- frontline, chill, snipe


def test_frontline_units_can_be_attacked_in_the_action_phase():
    game = game_with("Wild Drone", "Polywall")
    state = game.position(
        [["Drone:used"], ["Wild Drone", "Polywall", "Drone"]], resources=["3A", ""]
    )
    assert legal_names(state) == {"frontline #0", "end_phase"}  # 3 < Polywall's 6
    act(state, "frontline #0")
    assert names(state, 1) == ["Polywall", "Drone"] and state.attack(0) == 0
    assert legal_names(state) == {"end_phase"}


def test_frontline_needs_attack_at_least_the_health_of_non_fragile_units():
    game = game_with("Thunderhead")
    state = game.position([["Drone:used"], ["Thunderhead", "Drone"]], resources=["9A", ""])
    assert legal_names(state) == {"end_phase"}  # Thunderhead has 10 health
    with pytest.raises(IllegalActionError, match="cannot be attacked directly"):
        act(state, "frontline #0")
    state = game.position([["Drone:used"], ["Thunderhead", "Drone"]], resources=["11A", ""])
    act(state, "frontline #0")
    assert names(state, 1) == ["Drone"] and state.attack(0) == 1


def test_chill_freezes_a_blocker_until_its_owner_s_turn():
    game = game_with("Shiver Yeti")
    state = game.position([["Shiver Yeti", "Drone"], ["Wall", "Drone"]], resources=["3A", ""])
    act(state, "use #0")
    assert state.pending == 0
    assert legal_names(state) == {"target #0", "target #1"}
    with pytest.raises(IllegalActionError):
        act(state, "end_phase")
    act(state, "target #0")  # Wall: chill 2 < 3hp, not frozen yet
    assert state.unit(1, 0).chill == 2 and state.can_block(1, 0)
    assert not state.can_block(0, 0)  # the Yeti was clicked: it no longer blocks
    state = game.position([["Shiver Yeti*2", "Drone"], ["Wall", "Drone"]], resources=["1A", ""])
    act(state, "use #0")
    act(state, "target #0")
    act(state, "use #1")
    act(state, "target #0")  # chill 4 >= 3: frozen
    assert not state.can_block(1, 0) and state.total_defense(1) == 1
    act(state, "end_phase")  # 1 attack >= 1 defense: wipeout of the Drone
    assert state.phase == BREACH or state.current_player == 1
    # frozen Wall: the Drone was blocked, so frozen units may be breached; 0 attack left anyway
    assert names(state, 1) == ["Wall"]


def test_frozen_units_cannot_block_in_the_defense_phase_and_thaw_next_turn():
    game = game_with("Shiver Yeti")
    state = game.position([["Shiver Yeti", "Drone"], ["Drone*3"]], resources=["2A", ""])
    act(state, "use #0")
    act(state, "target #0")  # a Drone (1hp) gets 2 chill: frozen
    act(state, "end_phase")  # 2 attack vs 2 defense: wipeout
    assert state.phase == BREACH or state.current_player == 1
    assert names(state, 1) == ["Drone"]  # the frozen Drone survived the wipeout
    state = game.position([["Shiver Yeti", "Drone"], ["Drone*4"]], resources=["2A", ""])
    act(state, "use #0")
    act(state, "target #0")
    act(state, "end_phase")  # 2 attack < 3 defense: player 1 must block with unfrozen Drones
    assert state.phase == DEFENSE and legal_names(state) == {"block #1", "block #2", "block #3"}
    act(state, "block #1")
    act(state, "block #2")
    assert state.phase == ACTION and state.unit(1, 0).chill == 0  # thawed at its turn start


def test_frozen_units_wait_until_a_non_frontline_unit_is_breached():
    game = game_with("Shiver Yeti")
    state = game.position([["Shiver Yeti", "Drone"], ["Drone", "Conduit"]], resources=["4A", ""])
    act(state, "use #0")
    act(state, "target #0")  # the only blocker is frozen: no blocker dies in the wipeout
    act(state, "end_phase")
    assert state.phase == BREACH and not state.breach_frozen
    assert legal_names(state) == {"breach #1"}  # the frozen Drone must wait
    act(state, "breach #1")
    assert state.breach_frozen and legal_names(state) == {"breach #0"}
    act(state, "breach #0")
    assert state.is_terminal() and state.winner == 0


def test_only_frozen_units_left_become_breachable():
    """Our choice where the reference's player must undo a chill (spec section 11)."""
    game = game_with("Shiver Yeti")
    state = game.position([["Shiver Yeti", "Drone"], ["Drone"]], resources=["2A", ""])
    act(state, "use #0")
    act(state, "target #0")
    act(state, "end_phase")
    assert state.phase == BREACH and legal_names(state) == {"breach #0"}


def test_targeted_click_needs_a_target():
    game = game_with("Apollo")
    state = game.position([["Apollo", "Drone"], ["Blastforge:hp=3", "Animus"]])
    # Apollo snipes units with at most 3 health: both qualify
    act(state, "use #0")
    assert legal_names(state) == {"target #0", "target #1"}
    act(state, "target #1")
    assert names(state, 1) == ["Blastforge"] and state.unit(0, 0).status == "used"
    state = game.position([["Apollo"], ["Gauss Cannon"]])  # 5hp: no target, no click
    assert "use #0" not in legal_names(state)


def test_kinetic_driver_snipes_tech_and_sacrifices_itself():
    game = game_with("Kinetic Driver")
    state = game.position(
        [["Kinetic Driver", "Drone"], ["Conduit", "Wall", "Animus:build=1"]], resources=["3g", ""]
    )
    act(state, "use #0")
    assert legal_names(state) == {"target #0"}  # not the Wall, not the Animus under construction
    act(state, "target #0")
    assert names(state, 1) == ["Wall", "Animus"] and names(state, 0) == ["Drone"]
    assert state.resources(0)[0] == 0


def test_deadeye_destroys_a_drone_that_cannot_block():
    game = game_with("Deadeye Operative")
    state = game.position([["Deadeye Operative"], ["Drone*2", "Drone:used"]], resources=["2A", ""])
    act(state, "use #0")
    assert state.attack(0) == 0
    assert [u.status for u in state.units(1)] == ["ready", "ready"]
    state = game.position([["Deadeye Operative"], ["Drone*2"]], resources=["2A", ""])
    assert "use #0" not in legal_names(state)  # every Drone can block


# ---------------------------------------------------------------- ability kinds


def test_charges_hp_costs_and_ability_costs():
    state = BASE.position([["Rhino:charges=1"], ["Drone*3"]])
    act(state, "use #0")
    assert state.attack(0) == 1 and state.unit(0, 0).charges == 0
    act(state, "end_phase")
    act(state, "block #0")
    act(state, "end_phase")
    assert "use #0" not in legal_names(state)  # no charge left; still a blocker
    assert state.can_block(0, 0)

    game = game_with("Tantalum Ray", "Militia")
    state = game.position([["Tantalum Ray:hp=2", "Militia"], ["Drone"]], resources=["1A", ""])
    act(state, "use #0")  # pays its last 2 health: dies, but makes a Gauss Charge
    assert names(state, 0) == ["Militia", "Gauss Charge"]
    act(state, "use #1")  # Militia pays 1 attack for 1 gold
    assert state.resources(0)[0] == 1 and state.attack(0) == 0


def test_sacrifice_costs_need_clicked_units():
    state = BASE.position([["Drone*2"], ["Drone"]], resources=["1g 1G", ""])
    assert "buy Forcefield" not in legal_names(state)  # Drones must be clicked first
    act(state, "use #1")
    assert "buy Forcefield" in legal_names(state)
    act(state, "buy Forcefield")
    assert names(state, 0) == ["Drone", "Forcefield"]
    assert state.resources(0) == (1, 0, 0, 0, 0, 0)


def test_self_sacrifice_delay_and_creation():
    game = game_with("Pixie", "Corpus", "Immolite")
    state = game.position([["Pixie", "Corpus", "Immolite"], ["Drone*4"]], resources=["4g 3R", ""])
    act(state, "use #0")  # Pixie: +1 attack, sacrifices itself
    act(state, "use #1")  # Corpus: 4 prompt Husks
    act(state, "use #2")  # Immolite: +1 attack, inactive 2 turns
    assert state.attack(0) == 2
    # live order is arrival order; the first Husk took the Pixie's freed slot 0
    assert names(state, 0) == ["Corpus", "Immolite", "Husk", "Husk", "Husk", "Husk"]
    assert [u.slot for u in state.units(0)] == [1, 2, 0, 3, 4, 5]
    assert all(state.can_block(0, u.slot) for u in state.units(0) if u.name == "Husk")
    assert state.unit(0, 2).delay == 2
    act(state, "end_phase")  # player 1 blocks the 2 attack with two Drones
    act(state, "block #0")
    act(state, "block #1")
    act(state, "end_phase")
    immolite = state.unit(0, 2)
    assert immolite.delay == 1 and immolite.status == "inert" and not immolite.can_block


def test_lifespan_kills_after_that_many_turns():
    game = game_with("Doomed Drone")
    state = game.position([["Doomed Drone:life=1", "Drone"], ["Drone"]])
    act(state, "end_phase")
    act(state, "end_phase")
    assert names(state, 0) == ["Drone"]


def test_resonate_counts_active_units():
    game = game_with("Amporilla")
    state = game.position([["Amporilla", "Tarsier*2", "Tarsier:build=1"], ["Drone"]])
    act(state, "end_phase")
    act(state, "end_phase")
    # two Tarsiers fire (+2) and resonate (+2); the third finished building this turn (+1, +1)
    assert state.attack(0) == 6


def test_gold_resonate_and_hp_gain():
    game = game_with("Savior", "Mahar Rectifier")
    state = game.position([["Savior", "Drone*3", "Mahar Rectifier:hp=1"], ["Drone"]])
    act(state, "end_phase")
    act(state, "end_phase")
    assert state.resources(0)[0] == 3 and state.attack(0) == 2
    assert state.unit(0, 4).hp == 3  # +2 per turn, up to 5


def test_start_of_turn_creation_and_opponent_gifts():
    game = game_with("Defense Grid", "Redeemer")
    state = game.position([["Defense Grid"], ["Drone"]])
    act(state, "end_phase")
    act(state, "end_phase")
    drone = state.units(0)[-1]
    assert drone.name == "Drone" and drone.delay == 1 and not drone.can_block
    state = game.position([["Drone"], ["Drone"]], resources=["9g 1B 2G", ""])
    act(state, "buy Redeemer")
    assert [u.name for u in state.units(1)].count("Gauss Charge") == 4
    assert all(u.build == 1 for u in state.units(1) if u.name == "Gauss Charge")


def test_spells_resolve_and_vanish():
    game = game_with("Blood Pact")
    state = game.position([["Drone"], ["Drone"]], resources=["3g 1R", ""])
    act(state, "buy Blood Pact")
    assert names(state, 0) == ["Drone", "Husk", "Husk", "Husk", "Husk"]
    assert names(state, 1) == ["Drone", "Tarsier"]


# ---------------------------------------------------------------- actions, JSON, rendering


def test_action_names_round_trip_and_layout():
    game = PrismataGame(max_units=20)
    assert game.spec.action_size == 104 + 5 * 20 + 1
    for a in range(game.spec.action_size):
        assert game.string_to_action(game.action_to_string(a)) == a
    assert game.action_to_string(card_by_name("Gauss Cannon").index) == "buy Gauss Cannon"
    assert game.string_to_action("buy minicannon") == card_by_name("Gauss Cannon").index
    assert game.end_turn_action == game.string_to_action("end_phase")
    for bad in ("use #20", "buy Nope", "jump #1", 7):
        with pytest.raises(ValueError):
            game.string_to_action(bad)


def test_json_round_trip_and_validation():
    state = game_with("Shiver Yeti").position([["Shiver Yeti", "Drone"], ["Wall"]])
    act(state, "use #0")
    text = state.to_json()
    again = state.game.state_from_json(text)
    assert again.to_json() == text and again.pending == 0
    data = json.loads(text)
    data["state"]["units"][0][1] = 0  # a unit with no health
    with pytest.raises(InvalidStateError, match="impossible unit values"):
        state.game.state_from_json(json.dumps(data))
    data = json.loads(text)
    data["state"]["cards"].append("Nope")
    with pytest.raises(InvalidStateError, match="unknown Prismata card"):
        state.game.state_from_json(json.dumps(data))


def test_json_round_trip_of_health_regained_above_the_start():
    # a Xaetron starts at 4 health and regains 4 a turn up to 12: a reachable state to reload
    state = game_with("Xaetron").position([["Xaetron", "Drone"], ["Wall", "Drone"]])
    for _ in range(2):
        act(state, "end_phase")
    assert state.units(0)[0].hp == 8
    again = state.game.state_from_json(state.to_json())
    assert again == state and again.units(0)[0].hp == 8
    data = json.loads(state.to_json())
    data["state"]["units"][0][1] = 13  # above the cap
    with pytest.raises(InvalidStateError, match="more health or charges than a Xaetron"):
        state.game.state_from_json(json.dumps(data))


def test_observation_planes_and_render():
    game = PrismataGame(cards="base", max_units=32)
    state = game.new_initial_state(0)
    obs = state.observation(0)
    planes = game.spec.observation_planes
    assert obs.shape == (2, 32 + 104, len(planes)) and obs.dtype == np.float32
    drone = planes.index("unit_Drone")
    assert obs[0, :6, drone].tolist() == [1.0] * 6 and obs[1, :7, drone].sum() == 7
    assert obs[0, 0, planes.index("ready")] == 1.0
    assert obs[0, 0, planes.index("energy")] == pytest.approx(2 / 20)
    assert obs[0, 0, planes.index("to_move")] == 1.0 and obs[1, 0, planes.index("to_move")] == 0.0
    supply = planes.index("card_supply")
    assert obs[0, 32 + card_by_name("Drone").index, supply] == 1.0
    # rows are sides: player 1's own row is what player 0 sees of it
    assert np.array_equal(state.observation(1)[0], obs[1])
    assert np.array_equal(state.observation(1)[1], obs[0])
    text = str(state)
    assert "player 0: 2E" in text and "#0 Drone 1hp (ready, blocker)" in text
    img = state.render_rgb()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3


def test_status_and_statistics_count_rounds_as_max_rounds_does():
    """``round 1/2`` on the first move (not ``turn 1/4``); a draw reports ``max_rounds`` rounds.

    The statistics name the draw ``draw``, not after the old ``turn_limit`` option.
    """
    state = make_game("prismata", max_rounds=2).new_initial_state(0)
    assert statuses_to_the_end(state) == [
        "round 1/2: player 0, action phase",
        "round 1/2: player 1, action phase",
        "round 2/2: player 0, action phase",
        "round 2/2: player 1, action phase",
        "draw after 2 rounds (round limit)",
    ]
    stats = state.end_statistics()
    assert stats["rounds"] == 2.0 and stats["turns"] == 4.0 and stats["draw"] == 1.0
    assert "turn_limit" not in stats
