"""One game-length option, ``max_rounds``, with one meaning in every game.

The old names (``round_limit``: Stratega's round counter's draw value; ``turn_limit``:
player-turns in CotG combat and Prismata; ``max_turns``: Tribes' last 0-based turn) counted
three different things. They are refused with a message that names ``max_rounds`` and how to
convert, as an error that is both a ``TypeError`` (an unexpected keyword) and a ``ValueError``.
"""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.envs import list_games, make_game
from stratagem.envs.registry import RENAMED_OPTIONS, UnknownOptionError
from stratagem.envs.testing import random_trajectory

#: Games with a length option, and the reference's default length in rounds.
DEFAULT_ROUNDS = {
    "kill_the_king": 99,
    "push_them_all": 199,
    "two_kingdoms": 99,
    "cotg_combat": 50,
    "prismata": 100,
    "tribes": 0,  # 0: the mode's (51 Capitals, 31 Score)
}


def test_every_game_with_a_length_calls_it_max_rounds() -> None:
    for name in list_games():  # (tests may register games of their own: they count too)
        assert not set(make_game(name).spec.config) & set(RENAMED_OPTIONS), name
    for name, rounds in DEFAULT_ROUNDS.items():
        assert make_game(name).spec.config["max_rounds"] == rounds
    assert "max_rounds" not in make_game("terra_mystica").spec.config  # six rounds, fixed


@pytest.mark.parametrize("old", sorted(RENAMED_OPTIONS))
@pytest.mark.parametrize("name", sorted(DEFAULT_ROUNDS))
def test_old_names_are_refused_naming_the_new_one(name: str, old: str) -> None:
    with pytest.raises(UnknownOptionError, match="max_rounds") as info:
        make_game(name, **{old: 10})
    assert isinstance(info.value, TypeError) and isinstance(info.value, ValueError)
    assert old in str(info.value)


@pytest.mark.parametrize(("name", "rounds"), [(n, 3) for n in DEFAULT_ROUNDS])
def test_max_rounds_counts_rounds_of_every_player(name: str, rounds: int) -> None:
    """A game that nobody wins stops after ``max_rounds`` turns of each player, in every game."""
    config = {"max_rounds": rounds}
    if name == "tribes":
        config["map"] = "SampleLevel2p"
    game = make_game(name, **config)
    state = game.new_initial_state(0)
    turns = 0
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        mover = state.current_player
        legal = state.legal_action_list()
        end = [a for a in legal if "end" in game.action_to_string(a)]
        action = end[0] if end else legal[int(rng.integers(len(legal)))]
        state.apply(int(action))
        if state.is_terminal() or state.current_player != mover:
            turns += 1
    assert turns == rounds * game.spec.num_players, (name, turns)


def test_tribes_default_length_is_the_modes() -> None:
    assert make_game("tribes").max_turns == 50  # the last turn, counted from 0: 51 rounds
    assert make_game("tribes", mode="score").max_turns == 30
    assert make_game("tribes", max_rounds=1).max_turns == 0
    state, _ = random_trajectory(make_game("tribes", max_rounds=1, map="SampleLevel2p"), 0)
    assert state.is_terminal() and state.tick == 1
