"""``stratagem plot-training``: training curves drawn from a small synthetic AlphaZero log."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from stratagem.baselines.training_curves import (
    _labels,
    opponents_in,
    plot_training_curves,
    read_training_log,
)
from stratagem.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _write_log(path: Path, iterations: int = 4, resumed: bool = False) -> Path:
    """A log as ``stratagem train alphazero`` writes it, with the noise around the lines."""
    lines = ["calibrated the heuristic on 8 games: {'scale': 12.5}"]
    for i in range(1, iterations + 1):
        metrics = {
            "positions_per_s": 300.0 + i,
            "policy": round(2.0 - 0.2 * i, 3),
            "value": round(0.9 - 0.15 * i, 3),
            "cpu_seconds": 60.0 * i,
        }
        if i % 2 == 0:  # evaluated every second iteration
            metrics["rule_based/score"] = round(0.15 * i, 3)
            metrics["rule_based/se"] = 0.05
            metrics["random/score"] = 1.0
        # a progress bar's carriage return before the line, as in a captured stderr
        lines.append(f"iter {i} self-play: 100%|####| 8/8\riteration {i}/{iterations}: {metrics}")
    if resumed:  # the run died after iteration 2's checkpoint and logged iteration 2 again
        lines.append(
            f"iteration 2/{iterations}: {{'policy': 1.5, 'value': nan, 'cpu_seconds': 125.0}}"
        )
    path.write_text("\n".join(lines) + "\n")
    return path


def _picture(path: Path) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(path).convert("RGB"))


def test_read_training_log(tmp_path):
    rows = read_training_log(_write_log(tmp_path / "run.log", resumed=True))
    assert [r["iteration"] for r in rows] == [1, 2, 3, 4]
    assert rows[1]["policy"] == 1.5 and np.isnan(rows[1]["value"])  # the last line counts
    assert rows[3]["rule_based/score"] == 0.6 and rows[3]["iterations"] == 4
    assert opponents_in(rows) == ["rule_based", "random"]


def test_run_labels_are_file_names_with_their_folder_where_they_clash():
    paths = [Path("a/run.log"), Path("b/run.log"), Path("c/other.log")]
    assert _labels(paths) == ["a/run", "b/run", "other"]


def test_plot_training_curves_draws_scores_and_losses(tmp_path):
    pytest.importorskip("matplotlib")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()  # two runs' logs of the same name: labelled a/run and b/run
    a = _write_log(tmp_path / "a" / "run.log", iterations=4)
    b = _write_log(tmp_path / "b" / "run.log", iterations=6, resumed=True)
    out = plot_training_curves([a, b], tmp_path / "curves.png", title="test")
    image = _picture(out)
    assert image.shape[1] >= 800 and image.shape[0] >= 600  # two panels
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 20, "blank picture"
    scores_only = _picture(plot_training_curves([a], tmp_path / "s.png", losses=False))
    assert scores_only.shape[0] < image.shape[0]  # one panel
    by_iteration = plot_training_curves([a], tmp_path / "i.png", x="iteration")
    assert by_iteration.exists()


def test_plot_training_curves_errors(tmp_path):
    pytest.importorskip("matplotlib")
    log = _write_log(tmp_path / "run.log")
    with pytest.raises(ValueError, match="no evaluation against mcts.*rule_based, random"):
        plot_training_curves([log], tmp_path / "x.png", opponents=["mcts"])
    with pytest.raises(ValueError, match="x must be one of"):
        plot_training_curves([log], tmp_path / "x.png", x="wall")
    empty = tmp_path / "empty.log"
    empty.write_text("nothing to see\n")
    with pytest.raises(ValueError, match="no training iterations found"):
        plot_training_curves([empty], tmp_path / "x.png")
    plain = tmp_path / "plain.log"
    plain.write_text("iteration 1/2: {'games': 8.0}\n")
    with pytest.raises(ValueError, match="nothing to draw"):
        plot_training_curves([plain], tmp_path / "x.png", losses=False)


def test_plot_training_command(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    log = _write_log(tmp_path / "run.log")
    out = tmp_path / "curves.png"
    assert main(["plot-training", str(log), "--out", str(out), "--opponents", "rule_based"]) == 0
    assert f"wrote {out}" in capsys.readouterr().out and out.stat().st_size > 10_000
    assert main(["plot-training", str(tmp_path / "missing.log"), "--out", str(out)]) == 2
    assert "missing.log" in capsys.readouterr().err


def test_plot_training_command_without_matplotlib(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    log = _write_log(tmp_path / "run.log")
    assert main(["plot-training", str(log), "--out", str(tmp_path / "c.png")]) == 2
    assert "pip install 'stratagem[plot]'" in capsys.readouterr().err


def test_benchmark_script_still_works(tmp_path):
    pytest.importorskip("matplotlib")
    log = _write_log(tmp_path / "run.log")
    out = tmp_path / "bench.png"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks/training/plot_curves.py"),
            str(log),
            "--out",
            str(out),
        ],
        check=True,
        capture_output=True,
    )
    assert out.stat().st_size > 10_000
