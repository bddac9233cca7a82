"""``stratagem train``: its defaults run and its help shows them (issue 14, defects 1 and 2).

The other training tests pass ``progress=False``/``--no-progress``; these run the code paths a
user gets by default (progress bars, TensorBoard, subprocess environments), which is how a
missing dependency of the ``train`` extra went unnoticed.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

import pytest

from stratagem.cli import main
from stratagem.training.config import AlphaZeroConfig, PPOConfig

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]


def _requirement_names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0].strip().lower() for r in requirements}


def test_train_extra_installs_what_the_default_progress_bar_needs():
    """SB3's progress bar imports ``tqdm.rich``: both must come with ``pip install .[train]``."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = _requirement_names(project["dependencies"]) | _requirement_names(
        project["optional-dependencies"]["train"]
    )
    assert {"rich", "tqdm", "stable-baselines3", "sb3-contrib", "tensorboard", "tyro"} <= names


def _tyro_default(f: dataclasses.Field) -> str:
    """A field's default as tyro writes it (and reads it back): ``True``, ``None``, ``a b``."""
    value = f.default_factory() if f.default is dataclasses.MISSING else f.default
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value)


def _help_text(algo: str, capsys, *extra: str) -> str:
    """The help of ``stratagem train <algo>``, box borders removed and whitespace joined."""
    with pytest.raises(SystemExit) as exit_info:
        main(["train", algo, *extra, "--help"])
    assert exit_info.value.code == 0
    return " ".join(re.sub(r"[│╭╮╰╯─|]", " ", capsys.readouterr().out).split())


@pytest.mark.parametrize(("algo", "cls"), [("ppo", PPOConfig), ("alphazero", AlphaZeroConfig)])
def test_train_help_shows_the_real_defaults(algo, cls, capsys):
    text = _help_text(algo, capsys)
    fields = [f for f in dataclasses.fields(cls) if f.name not in ("game", "game_config")]
    for f in fields:
        assert "--" + f.name.replace("_", "-") in text
        assert f"(default: {_tyro_default(f)})" in text, f.name
    # only the options whose default really is None say so (and --config, --save-config)
    nones = sum(_tyro_default(f) == "None" for f in fields)
    assert text.count("(default: None)") == nones + 2
    assert "(default: 200000)" in text or algo != "ppo"
    assert "(default: True)" in text  # progress, resume, tensorboard
    assert "--no-progress" in text and "-c KEY=VALUE" in text and "--save-config" in text
    # the help text is the string under each field, its line breaks joined
    assert "Show progress bars." in text or "Show a progress bar." in text
    assert "calibrated to the outcome's scale" in text or algo != "ppo"


def test_train_help_shows_the_config_files_values_as_defaults(tmp_path, capsys):
    path = tmp_path / "run.toml"
    path.write_text("total_timesteps = 1234\nprogress = false\n")
    text = _help_text("ppo", capsys, "--config", str(path))
    assert "(default: 1234)" in text and "(default: False)" in text


def test_train_ppo_cli_defaults_run(tmp_path, capsys):
    """The default path: progress bar, TensorBoard, subprocess environments, final evaluation."""
    pytest.importorskip("sb3_contrib")
    code = main(
        [
            "train",
            "ppo",
            "kill_the_king",
            "-c",
            "map=k0 k1\n. .",  # a tiny board: short games, so the final evaluation is quick
            "--total-timesteps",
            "128",
            "--n-envs",
            "2",
            "--n-steps",
            "64",
            "--batch-size",
            "64",
            "--eval-games",
            "2",
            "--out-dir",
            str(tmp_path),
        ]
    )
    assert code == 0, capsys.readouterr().err
    assert (tmp_path / "model.zip").is_file()
    assert any(tmp_path.glob("ppo_*/events.out.tfevents.*"))


def test_train_alphazero_cli_defaults_run(tmp_path, capsys):
    """The default path with progress bars and TensorBoard on, a few hundred decisions."""
    pytest.importorskip("torch")
    code = main(
        [
            "train",
            "alphazero",
            "kill_the_king",
            "-c",
            "map=k0 k1\n. .",
            "--iterations",
            "1",
            "--games-per-iteration",
            "2",
            "--parallel-games",
            "2",
            "--simulations",
            "4",
            "--max-moves",
            "100",
            "--train-steps",
            "2",
            "--batch-size",
            "8",
            "--eval-games",
            "2",
            "--eval-simulations",
            "2",
            "--threads",
            "1",
            "--out-dir",
            str(tmp_path),
        ]
    )
    assert code == 0, capsys.readouterr().err
    assert (tmp_path / "final.pt").is_file()


def test_train_options_win_over_the_config_file(tmp_path):
    """TOML values are the defaults; options, -c game options and agent-spec lists win."""
    from stratagem.training.commands import parse_train_args

    path = tmp_path / "run.toml"
    path.write_text(
        "simulations = 7\niterations = 3\nprogress = false\nthreads = 2\n"
        'eval_opponents = ["random"]\ngame_config = {map = "kwah:1"}\n'
    )
    argv = ["kill_the_king", "--config", str(path), "--iterations", "5", "-c", "max_rounds=9"]
    argv += ["--eval-opponents", "mcts:budget=500,c=1,random", "rule_based", "--threads", "none"]
    config = parse_train_args("alphazero", argv).config
    assert (config.simulations, config.iterations, config.progress) == (7, 5, False)
    assert config.game_config == {"map": "kwah:1", "max_rounds": 9}
    assert config.eval_opponents == ["mcts:budget=500,c=1", "random", "rule_based"]
    assert config.threads is None
    config = parse_train_args(
        "alphazero", [f"--config={path}", "push_them_all", "--progress"]
    ).config
    assert (config.game, config.threads, config.progress) == ("push_them_all", 2, True)
