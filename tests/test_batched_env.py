"""BatchedEnv: a stateful batch that restarts finished games, reproducibly from its seed."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from stratagem.envs.batched import (  # noqa: E402
    BatchedEnv,
    BatchedStepResult,
    batched_game,
    sample_legal,
)
from stratagem.envs.core import IllegalActionError  # noqa: E402
from stratagem.envs.registry import make_game  # noqa: E402

#: Player 0's warrior next to player 1's, a hole behind each: one push wins.
DUEL = "H w0 w1 H\n. . . ."
#: The push that sends player 1's warrior into the hole (the push types are the reference's).
P0_WINS = "push_up (1,0)->(2,0)"


pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _same(a: object, b: object) -> bool:
    return all(torch.equal(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))


def _env(batch: int = 8, seed: int = 0, **config: object) -> BatchedEnv:
    config = config or {"map": "pta", "max_rounds": 29}
    return BatchedEnv(batched_game(make_game("push_them_all", **config)), batch, seed=seed)


def test_finished_games_restart_with_seeds_from_the_generator() -> None:
    """Drawn games (max_rounds=1) end after two end-turns and restart on the seeded boards."""
    env = _env(4, seed=7, map="pta", max_rounds=1)
    rng = np.random.default_rng(7)
    assert [int(b) for b in env.state.board] == [
        int(b) for b in env.game.board_indices(rng.integers(2**31, size=4).tolist())
    ]
    end = torch.full((4,), env.game.game.end_turn_action)
    first = env.step(end)
    assert not first.terminated.any() and env.current_player.tolist() == [1] * 4
    result = env.step(end)
    assert isinstance(result, BatchedStepResult)
    assert result.terminated.tolist() == [True] * 4
    assert result.returns.shape == (4, 2) and result.returns.dtype == torch.float32
    assert not result.returns.any()  # draws
    assert env.game.terminated(result.final_state).all()
    fresh = env.game.init(rng.integers(2**31, size=4).tolist())
    assert _same(env.state, fresh)  # the new games, from the next seeds of the stream
    assert not env.game.terminated(env.state).any()
    assert (env.episodes_finished, env.steps) == (4, 2)
    env.reset()
    assert (env.episodes_finished, env.steps) == (0, 0)


def test_returns_are_those_of_the_finished_games_only() -> None:
    """Random games: the returns are the scalar returns of the terminal positions, else 0."""
    env = _env(16, seed=3)
    generator = torch.Generator().manual_seed(0)
    decided = 0
    for _ in range(200):
        before = env.state
        result = env.step(sample_legal(env.game, before, generator))
        live = ~result.terminated
        assert not result.returns[live].any()
        assert torch.equal(
            result.returns[result.terminated],
            env.game.returns(result.final_state)[result.terminated],
        )
        for i in torch.nonzero(result.terminated)[:, 0].tolist():
            scalar = env.game.to_scalar(result.final_state, i)
            assert scalar.is_terminal()
            assert result.returns[i].tolist() == scalar.returns().tolist()
            decided += int(result.returns[i].abs().sum() > 0)
        # the games that did not end are the same in the final state and the new one
        assert _same(result.final_state.take(live), env.state.take(live))
    assert env.episodes_finished > 16 and decided > 0


def test_a_known_win_is_reported_to_the_winner() -> None:
    """Player 0 pushes player 1's warrior into the hole: returns (+1, -1), then a new game."""
    env = _env(2, map=DUEL)
    push = env.game.game.string_to_action(P0_WINS)
    end = env.game.game.end_turn_action
    result = env.step(torch.tensor([push, end]))
    assert result.terminated.tolist() == [True, False]
    assert result.returns.tolist() == [[1.0, -1.0], [0.0, 0.0]]
    assert env.current_player.tolist() == [0, 1]  # game 0 restarted, game 1 at player 1


def test_the_same_seed_and_actions_give_the_same_games() -> None:
    """Two envs with one seed play identical batches; another seed gives other boards."""
    runs = []
    for seed in (5, 5, 6):
        env = _env(8, seed=seed)
        generator = torch.Generator().manual_seed(1)
        boards = []
        for _ in range(150):
            env.step(sample_legal(env.game, env.state, generator))
            boards.append(env.state.board.clone())
        runs.append((env.state, torch.stack(boards), env.episodes_finished))
    assert _same(runs[0][0], runs[1][0]) and torch.equal(runs[0][1], runs[1][1])
    assert runs[0][2] == runs[1][2] > 0
    assert not torch.equal(runs[0][1], runs[2][1])
    env = _env(8, seed=5)
    first = env.state
    env.reset()  # goes on with the stream: new games
    assert not torch.equal(first.board, env.state.board)
    env.reset(seed=5)  # reseeded: the first games again
    assert _same(first, env.state)


def test_active_masks_split_the_batch_between_two_players() -> None:
    """Self-play: each seat's policy moves only in the games where that seat is to move."""
    env = _env(6, seed=2)
    generator = torch.Generator().manual_seed(2)
    for _ in range(60):
        for seat in (0, 1):
            before = env.state
            active = env.current_player == seat
            result = env.step(sample_legal(env.game, before, generator), active)
            still = ~active
            assert _same(before.take(still), result.final_state.take(still))
            assert not result.terminated[still].any()
    # an illegal action of an inactive game is ignored, one of an active game raises
    state = env.state
    mask = env.legal_mask
    illegal = (~mask).to(torch.int64).argmax(dim=1)
    env.step(illegal, torch.zeros(6, dtype=torch.bool))
    assert _same(state, env.state)
    with pytest.raises(IllegalActionError, match="in game 0"):
        env.step(illegal)
    assert _same(state, env.state)


def test_observations_and_masks_are_those_of_the_batch() -> None:
    env = _env(3)
    obs = env.observation()
    assert obs.shape == (3, *env.game.spec.observation_shape) and obs.dtype == torch.float32
    assert torch.equal(env.observation(1), env.game.observation(env.state, 1))
    assert torch.equal(env.legal_mask, env.game.legal_mask(env.state))
    assert env.device == torch.device("cpu")


@pytest.mark.parametrize("bad", [0, -1, 2.0, True, "8"])
def test_bad_batch_sizes_and_seeds_raise(bad: object) -> None:
    game = batched_game(make_game("push_them_all", map="pta"))
    with pytest.raises(ValueError, match="batch_size must be a positive integer"):
        BatchedEnv(game, bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seed must be an integer"):
        BatchedEnv(game, 2, seed=1.5)  # type: ignore[arg-type]


@pytest.mark.gpu
def test_runs_on_cuda() -> None:
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA device")
    env = BatchedEnv(batched_game(make_game("push_them_all", map="pta"), "cuda"), 256, seed=0)
    assert torch.equal(env.state.board.cpu(), _env(256, seed=0, map="pta").state.board)
    generator = torch.Generator(device="cuda").manual_seed(0)
    for _ in range(300):
        result = env.step(sample_legal(env.game, env.state, generator))
    assert result.returns.device.type == "cuda" and env.episodes_finished > 0
