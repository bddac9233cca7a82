"""Training: AlphaZero and masked PPO learn tic-tac-toe on a CPU, resume exactly, fail early."""

from __future__ import annotations

import ast
import dataclasses
import logging

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import tiny_games  # noqa: E402,F401  (registers tictactoe_test)
from training_helpers import crash_second_train_network, load_run, quiet_az_config  # noqa: E402

from stratagem.baselines import make_agent  # noqa: E402
from stratagem.cli import main  # noqa: E402
from stratagem.envs import make_game  # noqa: E402
from stratagem.training import alphazero  # noqa: E402
from stratagem.training.agents import AlphaZeroAgent  # noqa: E402
from stratagem.training.common import evaluate_agent  # noqa: E402
from stratagem.training.config import AlphaZeroConfig, PPOConfig  # noqa: E402

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def az_config(out_dir, **overrides) -> AlphaZeroConfig:
    learns = dict(
        preset="tiny",
        iterations=16,
        games_per_iteration=32,
        parallel_games=32,
        algorithm="puct",
        simulations=24,
        temperature_moves=4,
        train_steps=60,
        batch_size=64,
        lr=3e-3,
    )
    return quiet_az_config(out_dir, **{**learns, **overrides})


def test_alphazero_learns_tictactoe(tmp_path):
    """After training, search with the network (almost) never loses to random; untrained it does."""
    game = make_game("tictactoe_test")
    alphazero.train(az_config(tmp_path))
    trained = AlphaZeroAgent(game, checkpoint=str(tmp_path / "final.pt"), simulations=16)
    result = evaluate_agent(game, trained, "random", games=100, seed=123)
    torch.manual_seed(0)
    untrained = AlphaZeroAgent.from_network(
        game,
        alphazero.network_from_config(game.spec, dataclasses.asdict(az_config(tmp_path))),
        torch.device("cpu"),
        simulations=16,
        algorithm="puct",
    )
    baseline = evaluate_agent(game, untrained, "random", games=100, seed=123)
    assert baseline["loss_rate"] >= 0.05, baseline  # the search alone is not enough...
    # ...the trained network is (0 or 1 loss in 100 games, depending on the architecture)
    assert result["loss_rate"] <= 0.02, result
    assert result["win_rate"] > baseline["win_rate"]


def _weights(path):
    data, buffer = load_run(path)
    return data["network"], {"obs": buffer.obs[: buffer.size], "values": buffer.values}


def test_alphazero_resume_is_exact_even_after_a_crash(tmp_path, monkeypatch):
    small = dict(
        iterations=2,
        games_per_iteration=6,
        parallel_games=3,
        simulations=6,
        train_steps=5,
        batch_size=16,
    )
    straight = alphazero.train(az_config(tmp_path / "straight", **small))

    # a run killed during the training phase of its second iteration, then resumed
    real_train_network = crash_second_train_network(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        alphazero.train(az_config(tmp_path / "crashed", **small))
    saved = alphazero.load_checkpoint(tmp_path / "crashed" / "checkpoint.pt")
    assert (saved["iteration"], saved["phase"]) == (1, "train")  # the self-play games were kept
    monkeypatch.setattr(alphazero, "train_network", real_train_network)
    resumed = alphazero.train(az_config(tmp_path / "crashed", **small))
    # the resumed iteration still reports the self-play it did before the crash
    played = {
        k for k in straight if k.startswith("selfplay/") and "per_" not in k and "seconds" not in k
    }
    assert played and {k: resumed.get(k) for k in played} == {k: straight[k] for k in played}

    net_a, buf_a = _weights(tmp_path / "straight" / "checkpoint.pt")
    net_b, buf_b = _weights(tmp_path / "crashed" / "checkpoint.pt")
    assert net_a.keys() == net_b.keys()
    for key in net_a:
        assert torch.equal(net_a[key], net_b[key]), key
    assert np.array_equal(buf_a["obs"], buf_b["obs"])
    assert np.array_equal(buf_a["values"], buf_b["values"])


class _Lines(logging.Handler):
    """Collects the messages of a logger, whatever the logging set-up of other tests."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def test_alphazero_keeps_the_best_evaluated_network(tmp_path):
    config = az_config(
        tmp_path,
        iterations=3,
        games_per_iteration=4,
        parallel_games=4,
        simulations=4,
        train_steps=3,
        batch_size=16,
        eval_every=1,
        eval_games=6,
        eval_opponents=["random", "previous"],
        eval_simulations=2,
    )
    logger, handler = logging.getLogger("stratagem.training.alphazero"), _Lines()
    level, disabled = logger.level, logger.disabled
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.disabled = False
    try:
        last = alphazero.train(config)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
        logger.disabled = disabled
    lines = [line for line in handler.lines if line.startswith("iteration ")]
    scores = [ast.literal_eval(line.split(": ", 1)[1])["random/score"] for line in lines]
    assert len(scores) == 3
    best = alphazero.load_checkpoint(tmp_path / "best.pt")
    # the first iteration with the highest score against the baselines ("previous" not counted)
    assert best["iteration"] == 1 + int(np.argmax(scores))
    assert round(best["eval_score"], 3) == max(scores)
    assert best["eval_score"] == last["eval/best_score"]
    game = make_game("tictactoe_test")
    agent = make_agent(f"alphazero:checkpoint={tmp_path / 'best.pt'},simulations=2", game)
    assert agent.act(game.new_initial_state(0), rng=np.random.default_rng(0)) in range(9)


def test_init_network_starts_a_run_from_another_runs_weights(tmp_path):
    """--init-network: a new run starts from the file's weights; a resumed run ignores it."""
    small = dict(games_per_iteration=2, parallel_games=2, simulations=2, train_steps=2)
    alphazero.train(az_config(tmp_path / "a", iterations=1, **small))
    source = alphazero.load_checkpoint(tmp_path / "a" / "final.pt")["network"]
    init = str(tmp_path / "a" / "final.pt")
    # train_steps=0: final.pt holds the starting weights
    untrained = dict(small, iterations=1, train_steps=0, seed=7)
    alphazero.train(az_config(tmp_path / "b", init_network=init, **untrained))
    started = alphazero.load_checkpoint(tmp_path / "b" / "final.pt")["network"]
    assert all(torch.equal(source[k], started[k]) for k in source)
    # without it the same seed starts elsewhere
    alphazero.train(az_config(tmp_path / "c", **untrained))
    fresh = alphazero.load_checkpoint(tmp_path / "c" / "final.pt")["network"]
    assert not all(torch.equal(source[k], fresh[k]) for k in source)
    # resuming b with another init_network keeps b's own weights
    alphazero.train(az_config(tmp_path / "b", init_network="missing.pt", **untrained))


def test_init_network_of_another_game_or_architecture_is_refused(tmp_path):
    small = dict(iterations=1, games_per_iteration=2, parallel_games=2, simulations=2)
    alphazero.train(az_config(tmp_path / "a", train_steps=1, **small))
    init = str(tmp_path / "a" / "final.pt")
    with pytest.raises(ValueError, match="another architecture"):
        alphazero.train(az_config(tmp_path / "b", filters=8, init_network=init, **small))
    # resuming a run with another size says what differs and how to go on
    with pytest.raises(ValueError, match=r"filters .* there, 8 here\); resume it with"):
        alphazero.train(az_config(tmp_path / "a", filters=8, **{**small, "iterations": 2}))
    with pytest.raises(ValueError, match="no checkpoint at"):
        alphazero.train(az_config(tmp_path / "c", init_network=str(tmp_path / "x.pt"), **small))
    with pytest.raises(ValueError, match="no pretrained network ships for tictactoe_test"):
        alphazero.train(az_config(tmp_path / "d", init_network="pretrained", **small))
    ktk = az_config(
        tmp_path / "e", game="kill_the_king", game_config={"map": "kwah:1"}, init_network=init
    )
    with pytest.raises(ValueError, match="init_network .* on tictactoe_test .*not kill_the_king"):
        alphazero.train(ktk)
    assert not (tmp_path / "b" / "checkpoint.pt").exists()


def test_init_network_pretrained_moves_kill_the_king_from_small_to_kwah(tmp_path):
    """The curriculum step: the network shipped (trained on 12x12 boards) starts a kwah run."""
    config = az_config(
        tmp_path,
        game="kill_the_king",
        game_config={"map": "kwah:1"},
        algorithm="gumbel",
        iterations=1,
        games_per_iteration=1,
        parallel_games=1,
        simulations=2,
        max_moves=4,
        truncation_value="none",
        train_steps=0,
        init_network="pretrained",
    )
    alphazero.train(config)
    from stratagem.training.pretrained import pretrained_path

    shipped = alphazero.load_checkpoint(pretrained_path(make_game("kill_the_king")))["network"]
    started = alphazero.load_checkpoint(tmp_path / "final.pt")["network"]
    assert all(torch.equal(shipped[k], started[k]) for k in shipped)


def test_alphazero_bad_configurations_fail_before_work(tmp_path):
    with pytest.raises(ValueError, match="unknown game"):
        alphazero.train(az_config(tmp_path, game="chess"))
    with pytest.raises(ValueError, match="unknown preset"):
        alphazero.train(az_config(tmp_path, preset="huge"))
    with pytest.raises(ValueError, match="unknown device"):
        alphazero.train(az_config(tmp_path, device="tpu"))
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="no CUDA GPU"):
            alphazero.train(az_config(tmp_path, device="cuda"))
    with pytest.raises(ValueError, match="simulations must be >= 1"):
        alphazero.train(az_config(tmp_path, simulations=0))
    assert not (tmp_path / "checkpoint.pt").exists()


def test_checkpoint_of_another_game_is_rejected(tmp_path):
    alphazero.train(
        az_config(
            tmp_path,
            iterations=1,
            games_per_iteration=2,
            parallel_games=2,
            simulations=2,
            train_steps=1,
        )
    )
    other = az_config(tmp_path, game="kill_the_king", game_config={"map": "kwah:1"})
    with pytest.raises(ValueError, match="checkpoint of tictactoe_test"):
        alphazero.train(other)
    ktk = make_game("kill_the_king", map="kwah:1")
    with pytest.raises(ValueError, match="was trained on tictactoe_test"):  # another game
        make_agent(f"alphazero:checkpoint={tmp_path / 'final.pt'}", ktk)
    with pytest.raises(ValueError, match="not a stratagem AlphaZero checkpoint"):
        (tmp_path / "junk.pt").write_bytes(b"junk")
        make_agent(f"alphazero:checkpoint={tmp_path / 'junk.pt'}", ktk)


def test_a_file_that_is_no_checkpoint_gets_our_message_with_torchs_error_as_its_cause(tmp_path):
    """A text file as checkpoint= used to show torch's own text ("Please file an issue...")."""
    text = tmp_path / "notes.txt"
    text.write_text("not a network\n")
    with pytest.raises(ValueError, match="is not a stratagem AlphaZero checkpoint") as err:
        make_agent(f"alphazero:checkpoint={text}", make_game("tictactoe_test"))
    assert str(text) in str(err.value)
    assert "issue" not in str(err.value) and "weights_only" not in str(err.value)
    assert err.value.__cause__ is not None  # torch's error stays attached


def test_a_misspelt_network_agent_parameter_is_answered_with_what_it_takes():
    game = make_game("tictactoe_test")
    with pytest.raises(ValueError, match=r"'sims' \(it accepts: algorithm, c_puct, checkpoint"):
        make_agent("alphazero:checkpoint=pretrained,sims=3", game)
    with pytest.raises(TypeError, match=r"'sims' for agent 'alphazero' \(it accepts: "):
        make_agent("alphazero", game, checkpoint="pretrained", sims=3)
    with pytest.raises(ValueError, match=r"PPOAgent\(\) .* 'mdl' \(it accepts: deterministic"):
        make_agent("ppo:mdl=x.zip", game)


def test_alphazero_agent_plays_on_one_torch_thread_unless_told(tmp_path):
    """torch's one thread per core made a decision ~80x slower on a busy 2-core machine."""
    game = make_game("kill_the_king", map="small:2")
    torch.set_num_threads(2)  # the one_torch_thread fixture puts the setting back
    make_agent("alphazero:checkpoint=pretrained,simulations=2", game)
    assert torch.get_num_threads() == 1
    make_agent("alphazero:checkpoint=pretrained,simulations=2,threads=2", game)
    assert torch.get_num_threads() == 2
    torch.set_num_threads(3)
    make_agent("alphazero:checkpoint=pretrained,simulations=2,threads=null", game)
    assert torch.get_num_threads() == 3


@pytest.mark.parametrize(
    "params, message",
    [
        ("simulations=abc", "alphazero: simulations must be an integer >= 1, got 'abc'"),
        ("simulations=0", "alphazero: simulations must be an integer >= 1, got 0"),
        ("threads=x", "alphazero: threads must be a positive integer or None, got 'x'"),
        ("threads=0", "alphazero: threads must be a positive integer or None, got 0"),
        ("algorithm=puct,c_puct=x", "alphazero: c_puct must be a number >= 0, got 'x'"),
        ("algorithm=mcts", "alphazero: algorithm must be one of gumbel, puct, got 'mcts'"),
        ("max_considered=true", "alphazero: max_considered must be a positive integer or None"),
        # the shipped Kill The King network searches with Gumbel: c_puct would do nothing
        ("c_puct=2", "alphazero: c_puct applies to algorithm=puct only, .* searches with gumbel"),
        (
            "algorithm=puct,max_considered=4",
            "alphazero: max_considered applies to algorithm=gumbel only, .* searches with puct",
        ),
        ("device=1", "alphazero: device must be auto, cpu or cuda, got 1"),
    ],
)
def test_alphazero_agent_checks_its_parameters_when_built(params, message):
    game = make_game("kill_the_king", map="small:2")
    with pytest.raises(ValueError, match=message):
        make_agent(f"alphazero:checkpoint=pretrained,{params}", game)


def test_alphazero_agent_takes_the_parameters_of_its_search():
    game = make_game("kill_the_king", map="small:2")
    puct = make_agent("alphazero:checkpoint=pretrained,algorithm=puct,c_puct=2,simulations=2", game)
    assert (puct.algorithm, puct.c_puct, puct.max_considered) == ("puct", 2.0, 16)
    gumbel = make_agent("alphazero:checkpoint=pretrained,max_considered=4,simulations=2", game)
    assert (gumbel.algorithm, gumbel.c_puct, gumbel.max_considered) == ("gumbel", 1.5, 4)
    assert gumbel.act(game.new_initial_state(0), rng=np.random.default_rng(0)) >= 0


def test_bad_init_network_leaves_no_run_folder_and_names_the_option(tmp_path, capsys):
    """The error used to advise "pass checkpoint=PATH" and leave an empty --out-dir behind."""
    argv = ["train", "alphazero", "tictactoe_test", "--no-progress", "--no-tensorboard"]
    out = tmp_path / "run"
    assert main([*argv, "--init-network", "pretrained", "--out-dir", str(out)]) == 2
    err = capsys.readouterr().err
    assert "no pretrained network ships for tictactoe_test" in err
    assert "--init-network PATH" in err and "checkpoint=PATH" not in err
    assert not out.exists()
    missing = tmp_path / "missing.pt"
    assert main([*argv, "--init-network", str(missing), "--out-dir", str(out)]) == 2
    assert f"no checkpoint at {missing}" in capsys.readouterr().err
    assert not out.exists()


def test_rerunning_a_finished_alphazero_run_says_it_is_finished(tmp_path, capsys):
    """A finished run's command, run again, used to print only "{}"."""
    config = az_config(
        tmp_path / "run",
        iterations=1,
        games_per_iteration=2,
        parallel_games=2,
        simulations=2,
        train_steps=1,
    )
    saved = tmp_path / "run.toml"
    saved.write_text(alphazero.config_to_toml(config))
    assert alphazero.completed_run(config) is None  # nothing there yet
    assert main(["train", "alphazero", "tictactoe_test", "--config", str(saved)]) == 0
    capsys.readouterr()
    final = (tmp_path / "run" / "final.pt").read_bytes()
    assert main(["train", "alphazero", "tictactoe_test", "--config", str(saved)]) == 0
    out = capsys.readouterr().out
    assert f"{tmp_path / 'run'} already holds a finished tictactoe_test run" in out
    assert "(iterations done: 1 of the 1 asked for)" in out
    assert str(tmp_path / "run" / "final.pt") in out and "--iterations" in out
    assert (tmp_path / "run" / "final.pt").read_bytes() == final  # nothing was trained
    # more iterations, or no resume, is work to do
    assert alphazero.completed_run(dataclasses.replace(config, iterations=2)) is None
    assert alphazero.completed_run(dataclasses.replace(config, resume=False)) is None


def test_alphazero_on_kill_the_king_and_as_a_tournament_agent(tmp_path, capsys):
    """The CLI trains on a real game and the checkpoint plays as an agent by name."""
    out = tmp_path / "ktk"
    code = main(
        [
            "train",
            "alphazero",
            "kill_the_king",
            "-c",
            "map=kwah:1",
            "--preset",
            "tiny",
            "--iterations",
            "1",
            "--games-per-iteration",
            "2",
            "--parallel-games",
            "2",
            "--simulations",
            "2",
            "--max-moves",
            "30",
            "--train-steps",
            "2",
            "--batch-size",
            "8",
            "--eval-games",
            "0",
            "--threads",
            "1",
            "--out-dir",
            str(out),
            "--no-progress",
            "--no-tensorboard",
        ]
    )
    assert code == 0
    game = make_game("kill_the_king", map="kwah:1")
    agent = make_agent(f"alphazero:checkpoint={out / 'final.pt'},simulations=2", game)
    state = game.new_initial_state(0)
    rng = np.random.default_rng(0)
    for _ in range(20):  # it plays legal moves of a real game
        action = agent.act(state.clone(), rng=rng)
        assert state.legal_action_mask()[action]
        state.apply(action)
    capsys.readouterr()


def test_train_cli_config_files_and_errors(tmp_path, capsys):
    path = tmp_path / "run.toml"
    assert (
        main(
            [
                "train",
                "alphazero",
                "tictactoe_test",
                "--simulations",
                "5",
                "--eval-opponents",
                "random,end_turn",
                "--save-config",
                str(path),
            ]
        )
        == 0
    )
    text = path.read_text()
    assert "simulations = 5" in text and 'eval_opponents = [\n    "random",' in text
    assert (
        main(["train", "alphazero", "tictactoe_test", "--config", str(path), "--iterations", "0"])
        == 2
    )
    assert "iterations must be >= 1" in capsys.readouterr().err
    # the file names the game, so GAME may be left out (regression: it was still required)
    again = tmp_path / "again.toml"
    assert main(["train", "alphazero", "--config", str(path), "--save-config", str(again)]) == 0
    assert again.read_text() == text
    assert main(["train", "ppo", "tictactoe_test", "--vec-env", "threads"]) == 2
    assert "vec_env must be" in capsys.readouterr().err
    path.write_text("bogus_option = 1\n")
    assert main(["train", "ppo", "tictactoe_test", "--config", str(path)]) == 2
    assert "unknown PPOConfig option(s): bogus_option" in capsys.readouterr().err
    assert main(["train", "ppo", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def ppo_config(out_dir, **overrides) -> PPOConfig:
    base = dict(
        game="tictactoe_test",
        total_timesteps=60_000,
        n_envs=8,
        vec_env="dummy",
        n_steps=64,
        batch_size=256,
        n_epochs=8,
        learning_rate=1e-3,
        ent_coef=0.0,
        gamma=1.0,
        features=128,
        filters=32,
        opponents=["random"],
        pool_size=0,
        snapshot_every=100_000,
        eval_games=200,
        eval_opponents=["random"],
        out_dir=str(out_dir),
        progress=False,
        tensorboard=False,
        device="cpu",
        seed=0,
    )
    base.update(overrides)
    return PPOConfig(**base)


def test_ppo_learns_tictactoe(tmp_path):
    from stratagem.training import ppo

    result = ppo.train(ppo_config(tmp_path))
    assert result["eval/random/win_rate"] >= 0.9, result
    game = make_game("tictactoe_test")
    agent = make_agent(f"ppo:model={tmp_path / 'model.zip'}", game)
    again = evaluate_agent(game, agent, "random", games=50, seed=5)
    assert again["win_rate"] >= 0.85


def test_ppo_agent_refuses_a_file_that_is_no_ppo_model(tmp_path):
    game = make_game("tictactoe_test")
    with pytest.raises(ValueError, match="no PPO model at"):
        make_agent(f"ppo:model={tmp_path / 'missing.zip'}", game)
    for name, data in (("text.zip", b"not a zip"), ("weights.pt", None)):
        path = tmp_path / name
        if data is None:
            torch.save({"w": torch.zeros(2)}, path)  # a zip archive, but no SB3 model
        else:
            path.write_bytes(data)
        with pytest.raises(ValueError, match="is not a PPO model saved by"):
            make_agent(f"ppo:model={path}", game)


def test_ppo_self_play_pool_and_resume(tmp_path, monkeypatch):
    import tempfile

    from stratagem.training import ppo

    # without TensorBoard nothing lands in the system's temporary folder (SB3's default logger
    # makes an empty SB3-<date> folder there at every learn())
    system_tmp = tmp_path / "system_tmp"
    system_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(system_tmp))
    monkeypatch.delenv("SB3_LOGDIR", raising=False)

    config = ppo_config(
        tmp_path,
        total_timesteps=512,
        n_envs=2,
        n_steps=64,
        batch_size=64,
        n_epochs=1,
        pool_size=2,
        snapshot_every=128,
        eval_games=4,
        opponents=["random", "end_turn"],
    )
    first = ppo.train(config)
    assert first["timesteps"] >= 512
    snapshots = sorted((tmp_path / "pool").glob("snapshot_*.zip"))
    assert len(snapshots) >= 2  # the learner's past selves joined the pool
    assert not list((tmp_path / "pool").glob(".*"))  # written through temporary files
    # a snapshot torn by a kill (older versions wrote them in place) is skipped on resume
    snapshots[-1].write_bytes(snapshots[-1].read_bytes()[:100])
    resumed = ppo.train(dataclasses.replace(config, total_timesteps=1024))
    assert resumed["timesteps"] >= 1024
    assert not list(system_tmp.glob("SB3-*"))
    with pytest.raises(ValueError, match="checkpoint of tictactoe_test"):
        ppo.train(dataclasses.replace(config, game="kill_the_king", game_config={"map": "kwah:1"}))


def test_rerunning_a_finished_ppo_run_says_it_is_finished(tmp_path, capsys):
    """A finished PPO run's command, run again, trained nothing but evaluated again silently."""
    from stratagem.training import ppo
    from stratagem.training.common import to_toml

    config = ppo_config(
        tmp_path / "run",
        total_timesteps=64,
        n_envs=1,
        n_steps=64,
        batch_size=64,
        n_epochs=1,
        eval_games=2,
    )
    saved = tmp_path / "run.toml"
    saved.write_text(to_toml(dataclasses.asdict(config)))
    assert ppo.completed_run(config) is None
    assert main(["train", "ppo", "tictactoe_test", "--config", str(saved)]) == 0
    capsys.readouterr()
    results = (tmp_path / "run" / "results.json").read_text()
    assert main(["train", "ppo", "tictactoe_test", "--config", str(saved)]) == 0
    out = capsys.readouterr().out
    assert f"{tmp_path / 'run'} already holds a finished tictactoe_test run" in out
    assert "(timesteps done: 64 of the 64 asked for)" in out and "--total-timesteps" in out
    assert str(tmp_path / "run" / "results.json") in out
    assert (tmp_path / "run" / "results.json").read_text() == results
    assert ppo.completed_run(dataclasses.replace(config, total_timesteps=128)) is None


def test_ppo_shaping_options_are_checked_and_used(tmp_path):
    from stratagem.training import ppo

    with pytest.raises(ValueError, match="shaping must be >= 0"):
        ppo_config(tmp_path, shaping=-0.5).validate()
    for field, value, message in (
        ("learning_rate", 0.0, "learning_rate must be > 0"),
        ("clip_range", -0.2, "clip_range must be > 0"),
        ("gamma", 1.5, "gamma must be in"),
        ("gae_lambda", -0.1, "gae_lambda must be in"),
        ("ent_coef", -0.01, "ent_coef must be >= 0"),
        ("seed", -1, "seed must be an integer >= 0"),
    ):
        with pytest.raises(ValueError, match=message):
            ppo_config(tmp_path, **{field: value}).validate()
    with pytest.raises(ValueError):
        ppo_config(tmp_path, shaping=0.5, shaping_evaluator="no_such_module:Nothing").validate()
    env = ppo._make_env(ppo_config(tmp_path, shaping=0.5), 0, str(tmp_path), 3.0)()
    assert type(env.env).__name__ == "PotentialShaping"
    # the potential is on the outcome's scale: tanh of the scaled, centred heuristic
    assert env.env.evaluator.scale == 3.0


def test_shaping_potential_is_calibrated_to_the_outcome_scale():
    from stratagem.baselines.evaluators import default_evaluator
    from stratagem.training.targets import CalibratedEvaluator, calibrate_heuristic

    game = make_game("kill_the_king", map="kwah:1")
    fit = calibrate_heuristic(game, 10, 0)
    assert fit["scale"] > 1.0 and fit["mse"] < fit["baseline_mse"]
    potential = CalibratedEvaluator(default_evaluator(game), fit["scale"])
    state = game.new_initial_state(0)
    rng = np.random.default_rng(0)
    spread = []
    for _ in range(300):
        if state.is_terminal():
            break
        legal = state.legal_action_list()
        state.apply(legal[rng.integers(len(legal))])
        values = potential.evaluate(state)
        assert abs(values.sum()) < 1e-9 and np.all(np.abs(values) <= 1.0)
        spread.append(values[0])
    # the raw heuristic moves by ~0.01 over a game; the calibrated one by a sizeable fraction of 1
    assert np.ptp(spread) > 0.1


def test_agent_spec_lists_keep_their_parameters():
    from stratagem.training.common import config_from_mapping
    from stratagem.training.config import AlphaZeroConfig

    cfg = config_from_mapping(
        AlphaZeroConfig, {"eval_opponents": "mcts:budget=500,c=1.0,random, rule_based"}
    )
    assert cfg.eval_opponents == ["mcts:budget=500,c=1.0", "random", "rule_based"]
