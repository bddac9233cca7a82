"""Registry, contract errors, PettingZoo and Gymnasium adapters, rendering."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import stratagem  # noqa: F401  (registers the Gymnasium ids)
from stratagem.envs import (
    IllegalActionError,
    InvalidStateError,
    UnknownGameError,
    kill_the_king_v0,
    list_games,
    make_game,
    state_from_json,
)
from stratagem.envs.kill_the_king import MapError


def test_registry_lists_kill_the_king():
    assert "kill_the_king" in list_games()


def test_unknown_game_is_a_clear_error():
    with pytest.raises(UnknownGameError, match="unknown game 'chess'.*kill_the_king"):
        make_game("chess")


def test_unknown_option_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown option.*colour.*valid options: map, max_rounds"):
        make_game("kill_the_king", colour="red")


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"map": "nowhere"}, "unknown map 'nowhere'"),
        ({"map": "kwah:0"}, "kwah:1 .. kwah:50"),
        ({"map": "kwah:51"}, "kwah:1 .. kwah:50"),
        ({"max_rounds": 0}, "max_rounds must be an integer >= 1"),
        ({"max_rounds": "10"}, "max_rounds must be an integer"),
        ({"map": "k0 . X\nk1 . ."}, "unknown token 'X'"),
    ],
)
def test_bad_configuration_values(config, message):
    with pytest.raises(ValueError, match=message):
        make_game("kill_the_king", **config)


def test_map_file_path_and_pick(tmp_path):
    path = tmp_path / "maps.yaml"
    path.write_text("Maps:\n  A: |-\n    k0 . .\n    . . k1\n  B: |-\n    k0 . k1\n    . . .\n")
    assert make_game("kill_the_king", map=f"{path}:B").new_initial_state().unit_at(2, 0).owner == 1
    both = make_game("kill_the_king", map=str(path))
    boards = {both.new_initial_state(seed).board_index for seed in range(20)}
    assert boards == {0, 1}
    bad = tmp_path / "bad.yaml"
    bad.write_text("Maps: [unclosed\n")
    with pytest.raises(MapError, match="not valid YAML"):
        make_game("kill_the_king", map=str(bad))
    with pytest.raises(MapError, match="has no map 'C'"):
        make_game("kill_the_king", map=f"{path}:C")


def test_state_from_json_rejects_other_configuration():
    state = make_game("kill_the_king", map="kwah:2").new_initial_state()
    other = make_game("kill_the_king", map="kwah:3")
    with pytest.raises(InvalidStateError, match="configuration"):
        other.state_from_json(state.to_json())
    assert state_from_json(state.to_json()).to_json() == state.to_json()
    with pytest.raises(InvalidStateError, match="not valid JSON"):
        state_from_json("{nope")


def test_corrupted_json_fields_are_rejected():
    game = make_game("kill_the_king", map="kwah:2")
    text = game.new_initial_state().to_json()
    for old, new in (
        ('"tick":1', '"tick":0'),
        ('"current_player":0', '"current_player":2'),
        ('"winner":null', '"winner":0'),
        ('"hp":[', '"hp":[999,'),
    ):
        assert old in text
        with pytest.raises(InvalidStateError):
            game.state_from_json(text.replace(old, new, 1))


def test_illegal_action_message_names_action_and_player():
    state = make_game("kill_the_king").new_initial_state()
    with pytest.raises(
        IllegalActionError,
        match=r"illegal action 0 \(move \(0,0\)->\(0,-1\)\) "
        r"for player 0: no unit",
    ):
        state.apply(0)


def test_render_text_and_rgb():
    state = make_game("kill_the_king", map="kwah:1").new_initial_state()
    text = str(state)
    assert "k0" in text and "k1" in text and "round 1/99" in text
    img = state.render_rgb()
    assert img.dtype == np.uint8 and img.shape[1] >= 800 and img.shape[2] == 3  # readable size
    # each player's colour appears in the picture
    assert np.any(np.all(img == (220, 40, 40), axis=-1))
    assert np.any(np.all(img == (40, 80, 230), axis=-1))


def _play_turn(env, n_actions):
    """Apply ``n_actions`` non-EndTurn actions of the selected agent; return the agents seen."""
    seen = []
    for _ in range(n_actions):
        agent = env.agent_selection
        seen.append(agent)
        mask = env.observe(agent)["action_mask"]
        legal = np.flatnonzero(mask)
        end = env.unwrapped.game.end_turn_action
        env.step(int(legal[legal != end][0]))
    return seen


def test_aec_multi_action_turn_keeps_agent():
    env = kill_the_king_v0.env(map="kwah:1")
    env.reset(seed=0)
    assert _play_turn(env, 3) == ["player_0"] * 3
    assert env.agent_selection == "player_0"
    env.step(env.unwrapped.game.end_turn_action)
    assert env.agent_selection == "player_1"
    info_mask = env.infos["player_1"]["action_mask"]
    assert info_mask.dtype == np.int8 and info_mask.any()
    assert not env.infos["player_0"]["action_mask"].any()


def test_aec_illegal_move_wrapped_and_raw():
    env = kill_the_king_v0.env(map="kwah:1")
    env.reset(seed=0)
    env.step(0)
    assert env.terminations["player_0"]
    assert env.rewards["player_0"] == -1
    raw = kill_the_king_v0.raw_env(map="kwah:1")
    raw.reset(seed=0)
    before = raw.game_state.to_json()
    with pytest.raises(IllegalActionError):
        raw.step(0)
    assert raw.game_state.to_json() == before


def test_aec_rewards_at_the_end():
    env = kill_the_king_v0.env(map="k0 k1\n. .", render_mode="ansi")
    env.reset(seed=0)
    assert "k0" in env.render()
    action = env.unwrapped.game.string_to_action("attack (0,0)->(1,0)")
    env.step(action)
    env.step(env.unwrapped.game.string_to_action("end_turn"))  # King hit once: 150 hp left
    env.step(env.unwrapped.game.string_to_action("attack (1,0)->(0,0)"))
    env.step(env.unwrapped.game.string_to_action("end_turn"))
    for _ in range(3):
        assert not any(env.terminations.values())
        env.step(env.unwrapped.game.string_to_action("attack (0,0)->(1,0)"))
        if env.terminations["player_0"]:
            break
        env.step(env.unwrapped.game.end_turn_action)
        env.step(env.unwrapped.game.end_turn_action)
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}


def test_gym_make_with_rule_based_opponent_and_random_seat():
    env = gym.make("stratagem/KillTheKing-v0", opponent="rule_based", seat="random", map="kwah")
    seats = set()
    for seed in range(6):
        obs, info = env.reset(seed=seed)
        seats.add(info["seat"])
        assert obs.shape == (21, 30, 17)
        assert info["action_mask"].dtype == np.int8
        assert np.array_equal(env.unwrapped.action_masks(), info["action_mask"])
    assert seats == {0, 1}


def test_gym_illegal_action_modes():
    env = gym.make("stratagem/KillTheKing-v0", map="kwah:4").unwrapped
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(0)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    env = gym.make("stratagem/KillTheKing-v0", map="kwah:4", illegal_action="raise").unwrapped
    env.reset(seed=0)
    with pytest.raises(IllegalActionError):
        env.step(0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seat": 2}, "seat must be"),
        ({"seat": 1.0}, "seat must be"),
        ({"seat": True}, "seat must be"),
        ({"opponent": "nobody"}, "unknown agent 'nobody'"),
        ({"illegal_action": "ignore"}, "illegal_action must be"),
        ({"map": "nowhere"}, "unknown map"),
    ],
)
def test_gym_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        gym.make("stratagem/KillTheKing-v0", **kwargs)


def test_gym_episode_reward_is_final_outcome():
    env = gym.make(
        "stratagem/KillTheKing-v0", opponent="end_turn", seat=0, map="k0 k1\n. ."
    ).unwrapped
    obs, info = env.reset(seed=0)
    game = env.game
    total = 0.0
    for _ in range(4):
        _, r, term, _, _ = env.step(game.string_to_action("attack (0,0)->(1,0)"))
        total += r
        if term:
            break
        _, r, term, _, _ = env.step(game.end_turn_action)
        total += r
    assert term and total == 1.0


def test_potential_shaping_telescopes_to_minus_the_start_potential():
    """With γ = 1 the shaping terms of an episode sum to −Φ(s₀): the outcome is unchanged."""
    from stratagem.baselines.evaluators import default_evaluator
    from stratagem.wrappers.shaping import PotentialShaping

    base = gym.make("stratagem/KillTheKing-v0", map="kwah:3", opponent="random", seat=0)
    env = PotentialShaping(base, weight=0.5, gamma=1.0)
    obs, info = env.reset(seed=4)
    unwrapped = env.unwrapped
    phi0 = 0.5 * default_evaluator(unwrapped.game).evaluate(unwrapped.game_state)[0]
    rng = np.random.default_rng(0)
    shaped = total_bonus = 0.0
    terminated = truncated = False
    steps = 0
    while not (terminated or truncated) and steps < 3000:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        shaped += reward
        total_bonus += info["shaping"]
        steps += 1
    assert terminated
    assert total_bonus == pytest.approx(-phi0)
    assert shaped == pytest.approx(unwrapped.game_state.returns()[0] - phi0)
    assert phi0 != 0  # the heuristic gives the start a value


def test_potential_shaping_rejects_bad_weights():
    from stratagem.wrappers.shaping import PotentialShaping

    base = gym.make("stratagem/KillTheKing-v0", map="kwah:3")
    with pytest.raises(ValueError, match="shaping weight"):
        PotentialShaping(base, weight=-1.0)
    with pytest.raises(ValueError, match="gamma"):
        PotentialShaping(base, gamma=0.0)


@pytest.mark.parametrize("name", ["kill_the_king", "push_them_all", "two_kingdoms"])
def test_stratega_status_and_statistics_count_rounds_as_max_rounds_does(name):
    """``round 1/2`` on the first move, and a drawn game reports exactly ``max_rounds`` rounds.

    The internal tick starts at 1 and ends at ``max_rounds + 1``; neither the status line nor the
    ``rounds`` statistic may show it (they read ``round 1/3`` and 3 for two rounds).
    """
    from scenario_helpers import statuses_to_the_end

    state = make_game(name, max_rounds=2).new_initial_state(0)
    assert statuses_to_the_end(state) == [
        "round 1/2, player 0 to move",
        "round 1/2, player 1 to move",
        "round 2/2, player 0 to move",
        "round 2/2, player 1 to move",
        "draw after 2 rounds (round limit)",
    ]
    assert state.tick == 3  # the rules' own counter is unchanged
    assert state.end_statistics()["rounds"] == 2.0
