"""Batched Push Them All is bit-identical to the scalar rules (differential tests) and safe."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.usefixtures("one_torch_thread")

from stratagem.envs.batched import batched_game, sample_legal  # noqa: E402
from stratagem.envs.batched.testing import check_against_scalar  # noqa: E402
from stratagem.envs.registry import make_game  # noqa: E402


@pytest.mark.parametrize(
    ("config", "games", "steps"),
    [
        ({"map": "pta", "max_rounds": 29}, 48, 2500),  # short games: most end decided
        ({"map": "default", "max_rounds": 9}, 16, 600),  # drawn at the round limit
        ({"map": "pta"}, 16, 400),  # the SCSA maps at the reference's limit
    ],
)
def test_random_games_match_the_scalar_rules(config: dict, games: int, steps: int) -> None:
    """States, masks, observations and returns agree at every step of random games."""
    game = make_game("push_them_all", **config)
    report = check_against_scalar(game, batched_game(game), list(range(games)), steps)
    assert report.steps > games * 20
    if config.get("max_rounds", 199) <= 29:
        assert report.finished == games


@pytest.mark.slow
def test_thousands_of_random_games_match_the_scalar_rules() -> None:
    """The long differential run: 2,048 games of the SCSA maps played to their end."""
    game = make_game("push_them_all", map="pta", max_rounds=59)
    batched = batched_game(game)
    total = 0
    for chunk in range(8):
        seeds = list(range(chunk * 256, (chunk + 1) * 256))
        report = check_against_scalar(
            game, batched, seeds, 20_000, action_seed=chunk, compare_every=5
        )
        assert report.finished == len(seeds)
        total += report.games
    assert total == 2048


def test_scalar_states_convert_both_ways() -> None:
    """from_scalar(to_scalar) gives the same batch; boards follow the scalar seeds."""
    game = make_game("push_them_all", map="pta")
    batched = batched_game(game)
    state = batched.init(list(range(10)))
    for _ in range(30):
        state = batched.step(state, sample_legal(batched, state))
    scalars = [batched.to_scalar(state, i) for i in range(10)]
    again = batched.from_scalar(scalars)
    for i in range(10):
        assert batched.to_scalar(again, i) == scalars[i]
    assert torch.equal(again.occ, state.occ) and torch.equal(again.last, state.last)
    fresh = batched.init([5, 6])
    assert [int(b) for b in fresh.board] == [
        game.new_initial_state(5).board_index,
        game.new_initial_state(6).board_index,
    ]


def test_finished_and_inactive_games_do_not_move() -> None:
    """step ignores finished games and, with ``active``, the games left out."""
    game = make_game("push_them_all", map="pta", max_rounds=1)
    batched = batched_game(game)
    state = batched.init([0, 1, 2])
    end = torch.full((3,), game.end_turn_action)
    after = batched.step(state, end, active=torch.tensor([True, False, True]))
    assert after.player.tolist() == [1, 0, 1]
    done = batched.step(after, end, active=torch.tensor([True, False, True]))
    assert batched.terminated(done).tolist() == [True, False, True]
    again = batched.step(done, torch.zeros(3, dtype=torch.int64), validate=False)
    assert torch.equal(again.tick, done.tick) and torch.equal(again.winner, done.winner)
    assert not batched.legal_mask(done)[0].any()
