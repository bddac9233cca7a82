"""Self-play on the batched game plays the very games of the scalar self-play (same seeds)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.usefixtures("one_torch_thread")

from stratagem.envs.registry import make_game  # noqa: E402
from stratagem.training.actors import FinishedGame, GamePlayer  # noqa: E402
from stratagem.training.alphazero import (  # noqa: E402
    make_batch_evaluator,
    uses_batched_selfplay,
)
from stratagem.training.batched_selfplay import BatchedGamePlayer  # noqa: E402
from stratagem.training.config import AlphaZeroConfig  # noqa: E402
from stratagem.training.networks import build_network  # noqa: E402

GAME_CONFIG = {"map": "pta", "max_rounds": 12}


def _play(engine: str, config: AlphaZeroConfig, games: list, seed: int) -> dict:
    game = make_game("push_them_all", **GAME_CONFIG)
    torch.manual_seed(0)
    net = build_network(game.spec, "tiny", global_pooling=True, symmetric_value=True)
    done: list[FinishedGame] = []
    common = {"parallel": 3, "truncation_scale": 1.0, "on_finish": done.append}
    rng = np.random.default_rng(seed)
    device = torch.device("cpu")
    if engine == "scalar":
        player = GamePlayer(game, config, rng, make_batch_evaluator(net, device), **common)
    else:
        player = BatchedGamePlayer(game, config, rng, net, device, **common)
    player.play(games)
    return {"games": {d.index: d.positions for d in done}, "diag": player.diag}


def _same_positions(a: list, b: list) -> bool:
    if len(a) != len(b):
        return False
    for (obs1, act1, pol1, val1), (obs2, act2, pol2, val2) in zip(a, b, strict=True):
        if not (np.array_equal(obs1, obs2) and np.array_equal(act1, act2)):
            return False
        if not np.allclose(pol1, pol2, atol=1e-4):
            return False
        if (val1 is None) != (val2 is None) or (
            val1 is not None and not np.array_equal(val1, val2)
        ):
            return False
    return True


def test_batched_selfplay_stores_the_games_of_the_scalar_selfplay() -> None:
    """Without root noise both engines play and store the same decisions of the same games."""
    config = AlphaZeroConfig(
        game="push_them_all", game_config=GAME_CONFIG, simulations=8, temperature_moves=0
    )
    games = [(i, 100 + i) for i in range(5)]
    scalar = _play("scalar", config, games, 0)
    batched = _play("batched", config, games, 0)
    assert sorted(batched["games"]) == list(range(5))
    for i in range(5):
        assert _same_positions(scalar["games"][i], batched["games"][i]), f"game {i}"
    assert batched["diag"].forced == scalar["diag"].forced > 0
    # the scalar engine keeps the played child's evaluation as the next root; this one
    # evaluates every root afresh (the same values: the same network and position)
    assert batched["diag"].evaluated >= scalar["diag"].evaluated


def test_batched_selfplay_with_noise_opponent_imitation_and_cuts() -> None:
    """The curriculum opponent, its imitation and cut games work on the batched engine."""
    config = AlphaZeroConfig(
        game="push_them_all",
        game_config=GAME_CONFIG,
        simulations=4,
        opponent_share=0.5,
        imitate_opponent=True,
        cut_rounds=6,
        truncation_value="draw",
    )
    result = _play("batched", config, [(i, i) for i in range(6)], 1)
    diag = result["diag"]
    assert diag.games == 6 and diag.opponent_moves > 0 and diag.imitated > 0
    assert diag.cut + diag.decided <= 6 and diag.cut > 0
    for positions in result["games"].values():
        for obs, actions, policy, value in positions:
            assert obs.shape == make_game("push_them_all", **GAME_CONFIG).spec.observation_shape
            assert len(actions) == len(policy) >= 2
            assert abs(float(policy.sum()) - 1.0) < 1e-4
            assert value is not None and value.shape == (2,)


def test_batched_selfplay_plays_demonstration_games() -> None:
    """Demonstration games (the baseline in every seat) store its decisions on both engines."""
    config = AlphaZeroConfig(
        game="push_them_all",
        game_config=GAME_CONFIG,
        simulations=4,
        demonstration_share=1.0,
        selfplay_opponent="random",
        cut_rounds=6,
        truncation_value="draw",
    )
    for engine in ("scalar", "batched"):
        result = _play(engine, config, [(i, 200 + i) for i in range(4)], 2)
        diag = result["diag"]
        stored = [p for positions in result["games"].values() for p in positions]
        assert diag.games == 4 and diag.searched == 0 and diag.imitated == len(stored) > 0
        for _, actions, policy, value in stored:
            assert len(actions) >= 2 and np.count_nonzero(policy) == 1 and policy.max() == 1.0
            assert value is not None


def test_engine_choice() -> None:
    """``auto`` takes the batched engine on CUDA only; ``batched`` says why it cannot run."""
    config = AlphaZeroConfig(game="push_them_all", game_config=GAME_CONFIG)
    assert not uses_batched_selfplay(config, torch.device("cpu"))
    assert uses_batched_selfplay(config, torch.device("cuda"))
    forced = AlphaZeroConfig(game="push_them_all", selfplay_engine="batched")
    assert uses_batched_selfplay(forced, torch.device("cpu"))
    with pytest.raises(ValueError, match="tribes has no batched version"):
        AlphaZeroConfig(game="tribes", selfplay_engine="batched").validate()
    with pytest.raises(ValueError, match="Gumbel"):
        AlphaZeroConfig(
            game="push_them_all", selfplay_engine="batched", algorithm="puct"
        ).validate()
    with pytest.raises(ValueError, match="selfplay_engine must be one of"):
        AlphaZeroConfig(game="push_them_all", selfplay_engine="gpu").validate()


def test_import_stratagem_does_not_import_torch() -> None:
    """The batched package is opt-in: the library and its Gymnasium ids load without torch."""
    code = (
        "import sys, gymnasium, stratagem, stratagem.envs, stratagem.wrappers.gym_env; "
        "assert 'torch' not in sys.modules, 'torch was imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
