"""Regenerate the pictures of ``docs/pictures.md``: one position per game and viewer screenshots.

Run from the repository root::

    python docs/pictures/make_pictures.py

Each game is played by its rule-based agents from seed 7; the picture is the position after
60 % of the game. The viewer screenshots need headless Chromium (Debian package ``chromium``)
and are skipped without it. Pictures are stored in 256 colours to keep the repository small.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from PIL import Image

from stratagem.baselines.viewer import play_record, replay_steps, write_viewer
from stratagem.envs.registry import list_games, make_game

HERE = Path(__file__).resolve().parent
SEED = 7


def save_small(img: np.ndarray | Image.Image, path: Path) -> None:
    """Write a PNG in at most 256 colours (the pictures have few; text edges lose nothing)."""
    image = Image.fromarray(img) if isinstance(img, np.ndarray) else img.convert("RGB")
    image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
        path, optimize=True
    )


def picture_at(record: dict, decision: int, observer: int | None = None) -> np.ndarray:
    """The picture of a recorded game at a decision."""
    for step in replay_steps(record):
        if step.index == decision:
            state = step.state
            return (state.observed_by(observer) if observer is not None else state).render_rgb()
    raise ValueError(f"the record has no decision {decision}")


def screenshot(page: Path, step: int, out: Path, chromium: str) -> None:
    """A headless Chromium screenshot of a viewer page at a decision."""
    with tempfile.TemporaryDirectory() as tmp:
        shot = Path(tmp) / "shot.png"
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--window-size=1500,1080",
                "--virtual-time-budget=15000",
                f"--screenshot={shot}",
                f"{page.resolve().as_uri()}#step={step}",
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        save_small(Image.open(shot), out)


def main(argv: Sequence[str] | None = None) -> int:
    """Write every picture; returns the exit code.

    The script takes no options, but it parses its arguments all the same: ``--help`` prints
    what it does and exits instead of overwriting every picture, and a mistyped option is an
    error rather than a silent regeneration.
    """
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.parse_args(argv)
    chromium = next(
        (shutil.which(n) for n in ("chromium", "chromium-browser") if shutil.which(n)), None
    )
    with tempfile.TemporaryDirectory() as tmp:
        for name in list_games():
            players = make_game(name).spec.num_players
            record = play_record(name, ["rule_based"] * players, seed=SEED)
            decision = int(0.6 * len(record["actions"]))
            save_small(picture_at(record, decision), HERE / f"{name}.png")
            print(f"{name}: decision {decision} of {len(record['actions'])}")
            if chromium:
                page = Path(tmp) / f"{name}.html"
                write_viewer(record, page)
                screenshot(page, decision, HERE / f"{name}_viewer.png", chromium)
        fog = play_record(
            "tribes", ["rule_based"] * 2, seed=SEED, config={"observability": "partial"}
        )
        save_small(
            picture_at(fog, int(0.3 * len(fog["actions"])), observer=0), HERE / "tribes_fog.png"
        )
    if not chromium:
        print("no chromium: viewer screenshots not made", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
