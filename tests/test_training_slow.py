"""Slow learning check on a real game: AlphaZero learns Push Them All in a few minutes.

Run with ``python3 -m pytest -m slow tests/test_training_slow.py`` (about 5 CPU-minutes).
"""

from __future__ import annotations

import dataclasses

import pytest

torch = pytest.importorskip("torch")

from training_helpers import quiet_az_config  # noqa: E402

from stratagem.envs import make_game  # noqa: E402
from stratagem.training import alphazero  # noqa: E402
from stratagem.training.agents import AlphaZeroAgent  # noqa: E402
from stratagem.training.common import evaluate_agent  # noqa: E402


@pytest.mark.slow
@pytest.mark.usefixtures("one_torch_thread")
def test_alphazero_learns_push_them_all_against_the_untrained_network(tmp_path):
    """Three iterations of the default (Gumbel) trainer beat the untrained network."""
    config = quiet_az_config(
        tmp_path,
        game="push_them_all",
        game_config={"map": "pta"},
        preset="tiny",
        iterations=3,
        games_per_iteration=32,
        parallel_games=32,
        simulations=16,
        train_steps=100,
    )
    alphazero.train(config)
    game = make_game("push_them_all", map="pta")
    trained = AlphaZeroAgent(game, checkpoint=str(tmp_path / "final.pt"), simulations=16)
    torch.manual_seed(0)
    untrained = AlphaZeroAgent.from_network(
        game,
        alphazero.network_from_config(game.spec, dataclasses.asdict(config)),
        torch.device("cpu"),
        simulations=16,
        algorithm="gumbel",
    )
    result = evaluate_agent(game, trained, untrained, games=20, seed=11)
    assert result["score"] >= 0.75, result
