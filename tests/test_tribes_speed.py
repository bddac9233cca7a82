"""The shortcuts of Tribes' fast paths give the same games as the plain computations.

Three shortcuts are checked on seeded random games, in every observability and with 2 to 4
tribes: after a move, ``apply`` reuses the previous list's board memo and context instead of
checking them (``legal._compute_legal``'s ``kept``; after the end of a turn, the board memo
only); the board memo's remembered searches, on clones and originals alike; and ``clone``
shares the board lists until one side writes them (``TribesState._own_board``).
"""

from __future__ import annotations

import json
import random

import pytest

from stratagem.envs import make_game
from stratagem.envs.tribes import actions as A

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


def test_remembered_lists_equal_fresh_lists_on_both_sides_of_clones() -> None:
    """Every list equals the list computed from scratch, on clones and their originals alike.

    The clones share the board memo and the list's context: a search remembered on one branch
    (with the enemies within the distance it read: ``movement.reachable``) is reused on the
    other, and a list after the end of a turn reuses the board memo without comparing the
    board. Units move three times in four, so that they come back to tiles searched before and
    the memo's entries are reused often (a stale one could otherwise go unseen).
    """
    checked = 0
    for config in CONFIGS:
        game = make_game("tribes", **config)
        for seed in range(5):
            s = game.new_initial_state(seed)
            rng = random.Random(1000 + seed)
            step = 0
            while not s.is_terminal():
                if step % 7 == 3:
                    branch = s.clone()  # both play on from the same list and memo
                    for _ in range(12):
                        if branch.is_terminal():
                            break
                        moves = branch.legal_action_list()
                        assert moves == _fresh_legal(branch)
                        checked += 1
                        branch.apply(_prefer_moves(moves, rng, game.geo.n))
                legal = s.legal_action_list()
                assert legal == _fresh_legal(s)
                checked += 1
                s.apply(_prefer_moves(legal, rng, game.geo.n))
                step += 1
    assert checked > 2000


def _prefer_moves(legal: list[int], rng: random.Random, n: int) -> int:
    """A random action, a move three times in four when there is one (to walk the units)."""
    moves = [a for a in legal if a < A.ATTACK0 * n]
    if moves and rng.random() < 0.75:
        return moves[rng.randrange(len(moves))]
    return legal[rng.randrange(len(legal))]
