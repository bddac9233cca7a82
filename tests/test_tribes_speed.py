"""The shortcuts of Tribes' fast paths give the same games as the plain computations.

Two shortcuts are checked on seeded random games, in every observability and with 2 to 4
tribes: after a move, ``apply`` reuses the previous list's board memo and context instead of
checking them (``legal._compute_legal``'s ``kept``); and ``clone`` shares the board lists until
one side writes them (``TribesState._own_board``).
"""

from __future__ import annotations

import json
import random

import pytest

from stratagem.envs import make_game

CONFIGS = (
    {"num_players": 2},
    {"num_players": 2, "observability": "partial", "mode": "score"},
    {"num_players": 3, "max_rounds": 15},
    {"num_players": 4, "observability": "partial", "max_rounds": 10},
)


def _fresh_legal(state) -> list[int]:
    """The legal actions computed from scratch: no memo, no kept context."""
    c = state.clone()
    c._legal = None
    c._legal_link = None
    c._memo = None
    return c.legal_action_list()


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_kept_context_gives_the_fresh_legal_actions(config: dict) -> None:
    game = make_game("tribes", **config)
    for seed in range(6):
        s = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            legal = s.legal_action_list()
            assert legal == _fresh_legal(s)
            s.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_clones_sharing_the_board_stay_independent(config: dict) -> None:
    game = make_game("tribes", **config)
    for seed in range(4):
        s = game.new_initial_state(seed)
        rng = random.Random(100 + seed)
        step = 0
        while not s.is_terminal():
            if step % 5 == 0:
                before = json.dumps(s._to_dict())
                branch = s.clone()
                for _ in range(30):  # the branch builds, captures... on the shared board
                    if branch.is_terminal():
                        break
                    moves = branch.legal_action_list()
                    branch.apply(moves[rng.randrange(len(moves))])
                assert json.dumps(s._to_dict()) == before
                if step % 10 == 0:
                    s.observed_by(s.current_player)  # writes fog on its copy's board
                    assert json.dumps(s._to_dict()) == before
            legal = s.legal_action_list()
            s.apply(legal[rng.randrange(len(legal))])
            step += 1


def test_a_clone_plays_the_same_game_as_its_original() -> None:
    game = make_game("tribes", num_players=2)
    s = game.new_initial_state(7)
    rng = random.Random(7)
    for _ in range(60):
        legal = s.legal_action_list()
        s.apply(legal[rng.randrange(len(legal))])
    twin = s.clone()
    while not s.is_terminal():
        legal = s.legal_action_list()
        assert twin.legal_action_list() == legal
        action = legal[rng.randrange(len(legal))]
        s.apply(action)
        twin.apply(action)
    assert json.dumps(twin._to_dict()) == json.dumps(s._to_dict())
    assert list(twin.returns()) == list(s.returns())
