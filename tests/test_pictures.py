"""Pictures (``rgb_array``) of every game: readable size, not blank, and following the game."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from stratagem.envs.registry import list_games, make_game

# the shipped games (test-only games registered by other test modules have no pictures)
GAMES = [name for name in list_games() if not name.endswith("_test")]


def _random_positions(name: str, checkpoints: tuple[int, ...], **config):
    """States of one seeded random game at the given decision numbers (or its end)."""
    game = make_game(name, **config)
    state = game.new_initial_state(seed=5)
    rng = np.random.default_rng(5)
    out = []
    for step in range(max(checkpoints) + 1):
        if step in checkpoints or state.is_terminal():
            out.append(state.clone())
        if state.is_terminal():
            break
        state.apply(int(rng.choice(state.legal_actions())))
    return out


def _check_picture(img: np.ndarray) -> None:
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    height, width = img.shape[:2]
    assert width >= 800 and height >= 400, f"picture too small to read: {width}x{height}"
    flat = img.reshape(-1, 3).astype(np.uint32)
    colours = np.unique(flat[:, 0] << 16 | flat[:, 1] << 8 | flat[:, 2])
    assert len(colours) > 30, "picture looks blank"
    assert img.std() > 20


@pytest.mark.parametrize("name", GAMES)
def test_picture_readable_and_changes_with_the_game(name):
    states = _random_positions(name, (0, 12, 40))
    pictures = [s.render_rgb() for s in states]
    for img in pictures:
        _check_picture(img)
    # the picture follows the game: no two checkpoints draw the same picture
    for a in range(len(pictures)):
        for b in range(a + 1, len(pictures)):
            same = pictures[a].shape == pictures[b].shape and np.array_equal(
                pictures[a], pictures[b]
            )
            assert not same, f"{name}: decisions {a} and {b} give the same picture"


@pytest.mark.parametrize("name", GAMES)
def test_picture_of_a_finished_game(name):
    game = make_game(name)
    state = game.new_initial_state(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(3000):
        if state.is_terminal():
            break
        state.apply(int(rng.choice(state.legal_actions())))
    _check_picture(state.render_rgb())


def test_pictures_are_deterministic():
    a = _random_positions("terra_mystica", (30,))[-1]
    assert np.array_equal(a.render_rgb(), a.clone().render_rgb())


@pytest.mark.parametrize("players", [3, 5])
def test_terra_mystica_many_players(players):
    state = _random_positions("terra_mystica", (60,), num_players=players)[-1]
    _check_picture(state.render_rgb())


def test_tribes_fog_for_the_observer():
    from stratagem.envs.tribes.render import render_rgb

    state = _random_positions("tribes", (10,), observability="partial")[-1]
    full = render_rgb(state)
    seen = render_rgb(state, observer=0)
    _check_picture(seen)
    assert not np.array_equal(full, seen)
    fog = np.all(seen == (40, 40, 46), axis=-1).sum()
    assert fog > 1000, "unseen tiles should be drawn as fog"
    # the agent's own copy draws the same fogged map
    copy = render_rgb(state.observed_by(0))
    assert np.array_equal(copy, seen)


def test_player_colours_are_drawn_exactly():
    """Shapes are not anti-aliased: a player's colour named in the legend is in the picture."""
    state = make_game("kill_the_king").new_initial_state(seed=0)
    img = state.render_rgb()
    for colour in ((220, 40, 40), (40, 80, 230)):
        assert np.all(img == colour, axis=-1).sum() > 50


def test_make_pictures_help_prints_usage_and_writes_nothing():
    """``make_pictures.py --help`` used to ignore the flag and regenerate every picture."""
    folder = Path(__file__).resolve().parents[1] / "docs" / "pictures"
    before = {p.name: p.stat().st_mtime_ns for p in folder.glob("*.png")}
    run = subprocess.run(
        [sys.executable, str(folder / "make_pictures.py"), "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert (
        run.stdout.startswith("usage: make_pictures.py") and "Regenerate the pictures" in run.stdout
    )
    assert {p.name: p.stat().st_mtime_ns for p in folder.glob("*.png")} == before
