"""Every batched game refuses bad input with an error that names the problem."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.usefixtures("one_torch_thread")

from stratagem.envs.batched import batched_game  # noqa: E402
from stratagem.envs.core import ActionTypeError, IllegalActionError  # noqa: E402
from stratagem.envs.registry import batched_game_names, make_game  # noqa: E402

CONFIGS = {"push_them_all": {"map": "pta"}, "kill_the_king": {"map": "small"}}


@pytest.mark.parametrize("name", batched_game_names())
def test_bad_actions_and_players_raise_clear_errors(name: str) -> None:
    """Wrong types, shapes, ranges, illegal actions and bad observers raise naming the problem."""
    game = make_game(name, **CONFIGS.get(name, {}))
    batched = batched_game(game)
    state = batched.init([0, 1])
    with pytest.raises(ActionTypeError, match="integers"):
        batched.step(state, torch.tensor([0.0, 1.0]))
    with pytest.raises(ActionTypeError, match="integers"):
        batched.step(state, [True, False])
    with pytest.raises(ActionTypeError, match="list of integers"):
        batched.step(state, "0 1")
    with pytest.raises(ValueError, match="one per game"):
        batched.step(state, torch.tensor([0, 1, 2]))
    with pytest.raises(IllegalActionError, match="outside the action space"):
        batched.step(state, torch.tensor([0, game.spec.action_size]))
    end_turn = game.spec.action_size - 1
    with pytest.raises(IllegalActionError, match="illegal action 0 .* in game 0"):
        batched.step(state, torch.tensor([0, end_turn]))
    with pytest.raises(ValueError, match="active must be a bool tensor"):
        batched.step(state, torch.tensor([end_turn, end_turn]), active=torch.tensor([1, 0]))
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        batched.observation(state, 2)
    with pytest.raises(ValueError, match="shape"):
        batched.observation(state, torch.tensor([0, 1, 0]))
    with pytest.raises(IndexError, match="game 5 of a batch of 2"):
        batched.to_scalar(state, 5)
    with pytest.raises(ValueError, match=f"needs a {name} game"):
        type(batched)(make_game(_other(name)))
    with pytest.raises(ValueError, match="no batched version"):
        batched_game(make_game("tribes"))


def _other(name: str) -> str:
    return next(n for n in batched_game_names() if n != name)
