"""Self-play in actor processes: same games for the same seed, exact resume, clean shutdown."""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import tiny_games  # noqa: E402  (registers tictactoe_test)
from training_helpers import (  # noqa: E402
    SMALL_ACTOR_RUN,
    crash_second_train_network,
    load_run,
    quiet_az_config,
    same_buffers,
)

from stratagem.envs import make_game  # noqa: E402
from stratagem.training import alphazero  # noqa: E402
from stratagem.training.actors import ActorError  # noqa: E402
from stratagem.training.config import AlphaZeroConfig  # noqa: E402

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def cfg(out_dir, **overrides) -> AlphaZeroConfig:
    return quiet_az_config(out_dir, **{**SMALL_ACTOR_RUN, **overrides})


def _children() -> set[int]:
    """Live child processes of this one, zombies included (multiprocessing's resource tracker,
    which lives as long as the interpreter, left out)."""
    me, found = os.getpid(), {p.pid for p in multiprocessing.active_children()}
    if not Path("/proc").is_dir():
        return found
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("PPid"))
        if ppid == me and b"resource_tracker" not in cmdline:
            found.add(int(entry.name))
    return found


def _self_play(config: AlphaZeroConfig, game=None, bar=None):
    game = game or make_game(config.game, **config.game_config)
    torch.manual_seed(0)
    net = alphazero.network_from_config(game.spec, dataclasses.asdict(config))
    buffer = alphazero.ReplayBuffer(1000, game.spec.observation_shape, game.spec.num_players)
    rng = np.random.default_rng(7)
    metrics = alphazero.self_play(game, net, config, torch.device("cpu"), rng, buffer, bar)
    return buffer, metrics, rng


@pytest.mark.parametrize("algorithm", ["gumbel", "puct"])
def test_actors_play_the_same_games_for_the_same_seed(tmp_path, algorithm):
    config = cfg(tmp_path, algorithm=algorithm)
    before = _children()
    first, metrics, rng_a = _self_play(config)
    second, _, rng_b = _self_play(config)
    assert _children() <= before  # every actor was joined
    assert first.size == metrics["selfplay/positions"] > 0
    assert same_buffers(first, second)
    assert rng_a.bit_generator.state == rng_b.bit_generator.state
    assert metrics["selfplay/games"] == config.games_per_iteration
    # the same figures as in-process self-play, diagnostics summed over the actors
    _, alone, _ = _self_play(dataclasses.replace(config, actors=1))
    assert metrics.keys() == alone.keys()
    assert metrics["selfplay/cpu_seconds"] > 0 and metrics["selfplay/positions_per_cpu_s"] > 0


def test_actor_runs_resume_exactly_after_a_crash(tmp_path, monkeypatch):
    alphazero.train(cfg(tmp_path / "straight"))
    real_train_network = crash_second_train_network(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        alphazero.train(cfg(tmp_path / "crashed"))
    saved = alphazero.load_checkpoint(tmp_path / "crashed" / "checkpoint.pt")
    assert (saved["iteration"], saved["phase"]) == (1, "train")
    monkeypatch.setattr(alphazero, "train_network", real_train_network)
    alphazero.train(cfg(tmp_path / "crashed"))
    (a, buf_a), (b, buf_b) = (
        load_run(tmp_path / "straight" / "checkpoint.pt"),
        load_run(tmp_path / "crashed" / "checkpoint.pt"),
    )
    assert buf_a.size > 0 and same_buffers(buf_a, buf_b)
    for key in a["network"]:
        assert torch.equal(a["network"][key], b["network"][key]), key
    assert a["cpu_seconds"] > 0


class ExplodingTicTacToe(tiny_games.TicTacToeGame):
    """Fails when a process starts its third game: an actor crashing in the middle of a phase."""

    started = 0

    def new_initial_state(self, seed: int | None = None):
        type(self).started += 1
        if type(self).started == 3:
            raise RuntimeError("boom: the third game")
        return super().new_initial_state(seed)


class VanishingTicTacToe(tiny_games.TicTacToeGame):
    """Its process exits without a word on its third game: an actor killed (OOM, a signal)."""

    started = 0

    def new_initial_state(self, seed: int | None = None):
        type(self).started += 1
        if type(self).started == 3:
            os._exit(3)
        return super().new_initial_state(seed)


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (ExplodingTicTacToe(), r"(?s)actor \d .*failed:\nTraceback.*boom: the third game"),
        (VanishingTicTacToe(), r"actor \d .*ended \(exit code 3\) before finishing its games"),
    ],
    ids=["exception", "exit"],
)
def test_a_failing_actor_raises_a_clear_error_and_leaves_no_process(tmp_path, game, message):
    before = _children()
    with pytest.raises(ActorError, match=message):
        _self_play(cfg(tmp_path, games_per_iteration=12), game=game)
    assert _children() <= before


def test_keyboard_interrupt_stops_the_actors(tmp_path):
    class Interrupting:
        def update(self, n: int = 1) -> None:
            raise KeyboardInterrupt

    before = _children()
    with pytest.raises(KeyboardInterrupt):
        _self_play(cfg(tmp_path), bar=Interrupting())
    assert _children() <= before


def test_actors_must_be_positive(tmp_path):
    with pytest.raises(ValueError, match="actors must be >= 1"):
        cfg(tmp_path, actors=0).validate()
