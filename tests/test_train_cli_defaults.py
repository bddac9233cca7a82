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
from stratagem.training.commands import _default_text
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
    assert {"rich", "tqdm", "stable-baselines3", "sb3-contrib", "tensorboard"} <= names


@pytest.mark.parametrize(("algo", "cls"), [("ppo", PPOConfig), ("alphazero", AlphaZeroConfig)])
def test_train_help_shows_the_real_defaults(algo, cls, capsys):
    with pytest.raises(SystemExit):
        main(["train", algo, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "(default: None)" not in text
    for f in dataclasses.fields(cls):
        if f.name in ("game", "game_config"):
            continue
        assert "--" + f.name.replace("_", "-") in text
        assert f"(default: {_default_text(f)})" in text, f.name
    assert "(default: 200000)" in text or algo != "ppo"
    assert "(default: true)" in text  # progress, resume, tensorboard


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
