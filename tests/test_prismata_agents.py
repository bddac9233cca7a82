"""Prismata AI: partial players, the turn builder, portfolios, HPS searches and the bots."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import stratagem.baselines.prismata as BP
from stratagem.baselines import make_agent
from stratagem.baselines.prismata import heuristics as H
from stratagem.baselines.prismata import partial as P
from stratagem.baselines.prismata.config import BotConfig, load_config
from stratagem.baselines.prismata.solvers import max_chill_used, solve_blocks
from stratagem.baselines.prismata.turn import Turn
from stratagem.envs import make_game
from stratagem.envs.prismata import PrismataGame, card_by_name
from stratagem.envs.prismata.rules import ACTION, DEFENSE

CFG = BP.default_config()
BASE = PrismataGame(cards="base")


def act(state, text):
    state.apply(state.game.string_to_action(text))


def replay(state, actions):
    s = state.clone()
    for a in actions:
        assert a in s.legal_action_list(), state.game.action_to_string(a)
        s.apply(a)
    return s


# ---------------------------------------------------------------- configuration


def test_every_configured_player_builds():
    names = CFG.player_names()
    for bot in ("Master", "Expert", "ExpertAI", "Medium", "Easy", "Docile", "Random", "Playout"):
        assert bot in names
    for name in names:
        CFG.player(name)
    master = CFG.player("Master")
    assert isinstance(master, BP.UCTPlayer) and master.time_limit_ms == 3000
    expert = CFG.player("Expert")
    assert isinstance(expert, BP.AlphaBetaPlayer) and expert.max_depth == 2
    assert CFG.player("ExpertAI").max_depth == 1
    assert CFG.player("HardAI").time_limit_ms == 3000
    root = CFG.portfolio("HardIterator_Root")
    assert root.sizes() == (1, 1, 5, 1)
    assert CFG.portfolio("EasyIterator").sizes() == (1, 1, 5, 1)
    assert CFG.portfolio("BaseIterator").phases[1] == []


def test_config_errors_name_the_problem(tmp_path: Path):
    with pytest.raises(ValueError, match="unknown Prismata player 'Grandmaster'"):
        CFG.player("Grandmaster")
    with pytest.raises(ValueError, match="unknown parameters"):
        CFG.player("Master", depth=3)
    with pytest.raises(ValueError, match="takes no parameters"):
        CFG.player("Medium", time_limit_ms=10)
    bad = tmp_path / "bots.toml"
    bad.write_text(
        '[partial]\nX = { type = "teleport" }\n[players.P]\ntype = "sequence"\n'
        'partial = ["X", "X", "X", "X"]\n'
    )
    with pytest.raises(ValueError, match="unknown type 'teleport'"):
        load_config(bad).player("P")
    bad.write_text('[players.P]\ntype = "minimax"\n')
    with pytest.raises(ValueError, match="has type 'minimax'"):
        load_config(bad)
    bad.write_text("not toml [")
    with pytest.raises(ValueError, match="not valid TOML"):
        load_config(bad)
    with pytest.raises(ValueError, match="Prismata AI config .* does not exist"):
        load_config(tmp_path / "missing.toml")
    with pytest.raises(ValueError, match="unknown Prismata card"):
        BotConfig(
            {"limits": {"L": {"Nope": 1}}, "partial": {"B": {"type": "buy_nothing", "limits": "L"}}}
        ).partial_player("B")


def test_a_new_bot_is_a_few_lines_of_configuration(tmp_path: Path):
    path = tmp_path / "mine.toml"
    text = Path(BP.__file__).with_name("bots.toml").read_text()
    text += (
        '\n[players.Greedy]\ntype = "sequence"\n'
        'partial = ["DefenseDefault", "ACDefault", "BuyComboGreedyWill", "BreachDefault"]\n'
    )
    path.write_text(text)
    agent = make_agent(f"prismata_bot:bot=Greedy,config={path}", BASE)
    state = BASE.new_initial_state(0)
    action = agent.act(state, rng=np.random.default_rng(0))
    assert action in state.legal_action_list()


# ---------------------------------------------------------------- heuristics and solvers


def test_will_score_values():
    state = BASE.position([["Drone", "Wall", "Tarsier:build=1", "Forcefield"], ["Drone"]])
    wall = card_by_name("Wall").index
    # Wall: 5 gold + 1 blue (1.5) = 6.5, prompt: / 1.13
    assert H.INFLATED_TOTAL[wall] == pytest.approx(6.5 / 1.13)
    assert H.current_value(state, 0, 1) == pytest.approx(6.5 / 1.13)
    # Tarsier: 4 gold + 1 red (0.9), build 2: x 1.28
    assert H.current_value(state, 0, 2) == pytest.approx(4.9 * 1.28)
    # a 1-health plain blocker is worth a fixed 1.875; the Forcefield is priced by hand
    assert H.current_value(state, 0, 3) == pytest.approx(3.75 * 1.0)


def test_defense_solver_keeps_the_valuable_units():
    # 2 attack: the Wall (3 health, not fragile) absorbs all of it and nothing dies
    state = BASE.position([["Drone"], ["Wall", "Drone*3", "Steelsplitter"]], resources=["2A", ""])
    act(state, "end_phase")
    assert state.phase == DEFENSE
    order = solve_blocks(state, 1, H.damage_loss_will)
    assert [state.unit(1, s).name for s in order] == ["Wall"]
    # 4 attack: the Wall (worth 6.5/1.13) dies and the Steelsplitter absorbs the last point;
    # two Drones (3.5 each: clickable, so valued at their full price) would cost more
    state = BASE.position([["Drone"], ["Wall", "Drone*3", "Steelsplitter"]], resources=["4A", ""])
    act(state, "end_phase")
    names = [state.unit(1, s).name for s in solve_blocks(state, 1, H.damage_loss_will)]
    assert names == ["Wall", "Steelsplitter"]
    turn = Turn(state)
    P.DefenseSolver().play(turn)
    assert turn.state.phase == ACTION and turn.state.current_player == 1
    assert [u.name for u in turn.state.units(1)] == ["Drone"] * 3 + ["Steelsplitter"]


def test_max_chill_used():
    assert max_chill_used([2, 2], [3, 1]) == (3, True)  # 2+2 on the 3 beats 2 on the 1
    assert max_chill_used([5], [3, 3]) == (3, True)
    assert max_chill_used([], [3]) == (0, True)
    assert max_chill_used([3, 3], [2, 2, 2]) == (4, True)  # a chiller cannot be split
    value, solved = max_chill_used([1, 2, 3, 4, 5, 6, 7], [4, 5, 6, 7, 8, 9, 10, 11], max_nodes=3)
    assert not solved and 0 < value <= 28


def test_breach_greedy_prefers_value_and_leaves_tech_last():
    state = BASE.position(
        [["Drone"], ["Drone", "Conduit", "Tarsier", "Gauss Cannon"]], resources=["5A", ""]
    )
    act(state, "end_phase")  # wipeout of the Drone, 4 attack left
    turn = Turn(state)
    breacher = P.BreachGreedy()
    breacher.play(turn)
    names = [u.name for u in turn.state.units(1)]
    assert "Tarsier" not in names and "Conduit" in names
    assert breacher.total_loss > 0


def test_enemy_prediction_counts_its_attackers():
    state = BASE.position([["Drone*2"], ["Tarsier*2", "Steelsplitter", "Drone*4"]])
    predicted = P.predict_enemy_next_turn(state)
    assert predicted.current_player == 1
    assert predicted.attack(1) == 3  # two Tarsiers at their turn start, the Steelsplitter clicked
    assert P.predict_enemy_next_turn(state) is predicted  # memoised


# ---------------------------------------------------------------- the turn builder


def test_turn_undo_of_a_plain_click_refunds_it():
    state = BASE.position([["Drone*3", "Steelsplitter"], ["Drone"]])
    turn = Turn(state)
    for slot in (0, 1, 2, 3):
        turn.use(slot)
    assert turn.state.resources(0) == (3, 0, 0, 0, 0, 1)
    assert turn.undo_use(3)
    assert turn.state.attack(0) == 0 and turn.state.can_block(0, 3)
    turn.buy(card_by_name("Engineer").index)  # spends 2 of the 3 gold
    assert turn.undo_use(2)  # one gold is left over: a Drone can be taken back
    assert not turn.undo_use(1)  # the other gold was spent
    final = replay(state, turn.actions)
    assert final.to_json() == turn.state.to_json()


def test_turn_undo_of_a_complex_click_replays():
    game = PrismataGame(cards="Pixie,Corpus")
    state = game.position([["Pixie", "Corpus", "Drone"], ["Drone"]], resources=["4g 3R", ""])
    turn = Turn(state)
    turn.use(0)  # Pixie sacrifices itself
    turn.use(1)  # Corpus makes 4 Husks
    clicks = turn.sacrificed_clicks()
    assert clicks and clicks[0][0] == 0
    assert turn.undo_at(*clicks[0])
    assert [u.name for u in turn.state.units(0)][:2] == ["Pixie", "Corpus"]
    assert turn.state.attack(0) == 0
    assert replay(state, turn.actions).to_json() == turn.state.to_json()


# ---------------------------------------------------------------- partial players and portfolios


def _positions(n_games=2, cards="random:8"):
    game = make_game("prismata", cards=cards)
    medium = CFG.player("Medium")
    for seed in range(n_games):
        state = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            yield state.clone(), rng
            for a in medium.get_move(state, rng):
                state.apply(a)


def test_portfolio_turns_are_legal_distinct_and_end_the_turn():
    root = CFG.portfolio("HardIterator_Root")
    counts = []
    for state, rng in _positions(1):
        moves = list(root.children(state, rng))
        counts.append(len(moves))
        assert 1 <= len(moves) <= 5
        assert len({tuple(m) for m, _ in moves}) == len(moves)
        for move, child in moves:
            assert replay(state, move).to_json() == child.to_json()
            assert child.is_terminal() or child.current_player != state.current_player
    assert max(counts) > 1  # the buy players disagree somewhere


@pytest.mark.parametrize(
    "name",
    ["Playout", "PuzzlePlayer", "PlayoutBuyNothing", "Docile", "Random", "Medium", "Easy"],
)
def test_scripted_players_make_legal_whole_turns(name):
    player = CFG.player(name)
    for state, rng in _positions(
        1, cards="Apollo,Shiver Yeti,Wild Drone,Corpus,Pixie,Synthesizer,Xaetron,Tatsu Nullifier"
    ):
        move = player.get_move(state, rng)
        after = replay(state, move)
        assert after.is_terminal() or after.current_player != state.current_player
        if state.turn > 24:
            break


def test_every_partial_player_runs():
    names = list(CFG.partial_data)
    states = [s for s, _ in zip(_positions(1), range(30), strict=False)]
    for name in names:
        pp = CFG.partial_player(name)
        for state, rng in states[::6]:
            turn = Turn(state, rng)
            P.DefenseSolver().play(turn)
            if pp.phase == P.BREACH_PHASE:
                turn.end_action()
            pp.play(turn)
            replay(state, turn.actions)


# ---------------------------------------------------------------- searches and bots


def test_playout_self_play_matches_the_reference_figure():
    """Spec section 9: Playout vs Playout on the base set is deterministic, ~35 turns, P1 wins."""
    pp = CFG.player("Playout")
    winner, turns = BP.playout(BASE.new_initial_state(0), (pp, pp), np.random.default_rng(0))
    assert winner == 0 and 30 <= turns <= 40


def test_alphabeta_and_uct_choose_a_root_turn():
    game = make_game("prismata", cards="random:8")
    state = game.new_initial_state(5)
    for _ in range(6):  # a few turns in, so that the portfolio has choices
        for a in CFG.player("Medium").get_move(state, np.random.default_rng(1)):
            state.apply(a)
    rng = np.random.default_rng(0)
    root = [m for m, _ in CFG.portfolio("HardIterator_Root").children(state, rng)]
    ab = CFG.player("AB100", time_limit_ms=0, max_playouts=4)
    move = ab.get_move(state, rng)
    assert move in root and ab.last_stats.playouts <= 4 and ab.last_stats.depth >= 0
    uct = CFG.player("UCT100", time_limit_ms=0, max_playouts=3)
    move = uct.get_move(state, rng)
    assert move in root and uct.last_stats.playouts == 3
    expert = CFG.player("Expert", time_limit_ms=0, max_playouts=60)
    move = expert.get_move(state, rng)
    assert move in root and expert.last_stats.depth >= 1
    will = CFG.player("AB100", evaluation="willscore", time_limit_ms=0, max_playouts=1, max_depth=2)
    assert will.get_move(state, rng) in root


def test_bots_play_whole_games_through_make_agent():
    game = make_game("prismata", cards="random:5")
    agents = [make_agent("prismata_medium", game), make_agent("rule_based:bot=Easy", game)]
    state = game.new_initial_state(3)
    rng = np.random.default_rng(3)
    while not state.is_terminal():
        state.apply(agents[state.current_player].act(state, rng=rng))
    assert state.winner in (0, 1, -1)
    assert make_agent("rule_based", game).bot == "Playout"
    with pytest.raises(ValueError, match="made for prismata only, not kill_the_king"):
        make_agent("prismata_master", make_game("kill_the_king"))


@pytest.mark.parametrize("name", ["Random", "Medium", "Easy", "Playout", "Docile"])
def test_plans_are_the_moves_with_the_positions_they_pass(name):
    """``plan_move`` (a turn built with ``for_plan``) gives ``get_move``'s actions for the same
    draws, and the position before each action (what the agent checks instead of replaying)
    unless a click was taken back in place (then ``None``: the agent replays the plan)."""
    player = CFG.player(name)
    given = 0
    for n, (state, rng) in enumerate(_positions(1)):
        seed = int(rng.integers(1 << 30))
        move = player.get_move(state, np.random.default_rng(seed))
        plan, positions = player.plan_move(state, np.random.default_rng(seed))
        assert plan == move
        s = state.clone()
        for i, a in enumerate(plan):
            if positions is not None:
                assert positions[i].position_key() == s.position_key()
            assert a in s.legal_action_list()
            s.apply(a)
        assert s.is_terminal() or s.current_player != state.current_player
        if positions is not None:
            assert len(positions) == len(plan)
            given += 1
        if n > 30:
            break
    assert given > (n if name == "Random" else 0)


def test_a_plan_with_a_click_taken_back_in_place_has_no_positions():
    state = BASE.position([["Drone*3", "Steelsplitter"], ["Drone"]])
    turn = Turn(state, for_plan=True)
    turn.use(0)
    turn.use(3)
    assert turn.positions is not None and len(turn.positions) == 2
    assert turn.undo_use(3)
    assert turn.positions is None  # the agent replays such a plan to check it
    turn.end_action()
    assert turn.closed and not turn.acting and turn.actions[-1] == BASE.end_turn_action
    assert turn.state.current_player == 0  # the closing end_phase was recorded, not played


def test_agent_replans_when_the_state_is_not_the_planned_one():
    agent = make_agent("prismata_playout", BASE)
    state = BASE.new_initial_state(0)
    rng = np.random.default_rng(0)
    first = agent.act(state, rng=rng)
    state.apply(first)
    other = BASE.new_initial_state(0)  # not the state the plan expects
    assert agent.act(other, rng=rng) == first


@pytest.mark.slow
def test_difficulty_ranking_medium_beats_random():
    game = make_game("prismata", cards="random:8")
    wins = 0
    for seed in range(10):
        agents = [make_agent("prismata_medium", game), make_agent("prismata_random", game)]
        if seed % 2:
            agents.reverse()
        state = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            state.apply(agents[state.current_player].act(state, rng=rng))
        medium_seat = 0 if seed % 2 == 0 else 1
        wins += state.winner == medium_seat
    assert wins >= 8


@pytest.mark.slow
def test_random_bot_game_length_is_near_the_reference():
    """Spec section 9: RandomAI self-play on base+8 lasts ~73 turns, 15% hit the turn limit."""
    game = make_game("prismata", cards="random:8")
    turns, limits = [], 0
    for seed in range(60):
        agents = [make_agent("prismata_random", game) for _ in range(2)]
        state = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            state.apply(agents[state.current_player].act(state, rng=rng))
        turns.append(state.turn)
        limits += state.winner == -1
    assert 55 <= np.mean(turns) <= 95
    assert 2 <= limits <= 20
