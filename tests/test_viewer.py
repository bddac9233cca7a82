"""Replays of recorded games (``stratagem replay``) and the HTML viewer (``stratagem view``)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from stratagem.baselines import make_agent
from stratagem.baselines.tournament import make_tasks, play_task
from stratagem.baselines.viewer import (
    KEYFRAME_EVERY,
    ReplayError,
    _FrameEncoder,
    load_records,
    play_record,
    replay_record,
    replay_steps,
    select_record,
    write_viewer,
)
from stratagem.cli import main
from stratagem.envs.registry import list_games, make_game

# the shipped games (test-only games registered by other test modules have no pictures)
GAMES = [name for name in list_games() if not name.endswith("_test")]
CHROMIUM = next(
    (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)),
    None,
)


def _short_record(name: str, decisions: int = 12, seed: int = 1) -> dict:
    n = make_game(name).spec.num_players
    return play_record(name, ["random"] * n, seed=seed, max_decisions=decisions)


@pytest.fixture(scope="module")
def tournament_file(tmp_path_factory) -> Path:
    """A real tournament results file: Push Them All, random against rule_based, 2 games."""
    path = tmp_path_factory.mktemp("records") / "results.jsonl"
    tasks = make_tasks("push_them_all", {"random": "random", "rule": "rule_based"}, games=2)
    with path.open("w") as fh:
        for task in tasks:
            fh.write(json.dumps(play_task(task)) + "\n")
    return path


# ----------------------------------------------------------------------------- records
def test_tournament_records_keep_what_replays_them(tournament_file):
    records = load_records(tournament_file)
    assert len(records) == 2
    for record in records:
        assert {"game", "config", "seed", "actions", "rules_version"} <= set(record)
        assert len(record["actions"]) == sum(record["decisions"])
        final = replay_record(record)
        assert final.returns().tolist() == record["returns"]


def test_replay_command(tournament_file, capsys):
    assert main(["replay", "push_them_all", str(tournament_file)]) == 0
    out = capsys.readouterr().out
    assert "2/2 games replayed exactly" in out and out.count("ok ") == 2
    assert main(["replay", "push_them_all", str(tournament_file), "--game-index", "1"]) == 0
    assert "1/1 games replayed exactly" in capsys.readouterr().out


def test_replay_detects_a_wrong_record(tmp_path, tournament_file, capsys):
    record = load_records(tournament_file)[0]
    bad = dict(record, returns=[-r for r in record["returns"]])
    if bad["returns"] == record["returns"]:  # a draw: cut the game instead
        bad = dict(record, actions=record["actions"][:-1])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    assert main(["replay", "push_them_all", str(path)]) == 1
    assert "FAIL" in capsys.readouterr().out
    illegal = dict(record, actions=[10**6, *record["actions"]])
    with pytest.raises(ReplayError, match="action 0 of the record is illegal"):
        replay_record(illegal)


def test_replay_batch_reports_every_file_and_goes_on(tmp_path, tournament_file, capsys):
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    files = [str(tmp_path / "missing.jsonl"), str(binary), str(tournament_file)]
    assert main(["replay", "push_them_all", *files]) == 1
    out = capsys.readouterr().out
    assert out.count("FAIL ") == 2 and "missing.jsonl" in out and "binary.jsonl" in out
    assert "2/4 games replayed exactly" in out  # the good file's two games still replayed


def test_old_records_without_actions_load_but_say_why_they_cannot_replay(tournament_file):
    record = load_records(tournament_file)[0]
    del record["actions"]
    with pytest.raises(ReplayError, match="before records kept their actions"):
        replay_record(record)


def test_other_rules_version_warns(tournament_file, caplog):
    import logging

    logger = logging.getLogger("stratagem.baselines.viewer")
    logger.addHandler(caplog.handler)  # the CLI stops "stratagem" messages at its own handler
    try:
        replay_record(dict(load_records(tournament_file)[0], rules_version=999))
    finally:
        logger.removeHandler(caplog.handler)
    assert "rules version 999" in caplog.text


def test_select_record_errors(tournament_file):
    records = load_records(tournament_file)
    assert select_record(records, "push_them_all", 1) == records[1]
    with pytest.raises(ReplayError, match="out of range"):
        select_record(records, "push_them_all", 5)
    with pytest.raises(ReplayError, match="no record of game 'tribes'"):
        select_record(records, "tribes", 0)


def test_torn_last_line_is_skipped(tmp_path, tournament_file):
    path = tmp_path / "torn.jsonl"
    path.write_text(tournament_file.read_text() + '{"game": "push_th')
    assert len(load_records(path)) == 2


def test_truncated_record_replays(tmp_path):
    record = _short_record("kill_the_king", decisions=20)
    assert record["truncated"] and len(record["actions"]) == 20
    assert not replay_record(record).is_terminal()


# ----------------------------------------------------------------------------- viewer
@pytest.mark.parametrize("name", GAMES)
def test_viewer_file_for_every_game(name, tmp_path):
    record = _short_record(name)
    out = tmp_path / f"{name}.html"
    stats = write_viewer(record, out)
    page = out.read_text()
    assert stats.decisions == 12 and stats.bytes == out.stat().st_size
    # self-contained: nothing is fetched from elsewhere
    assert not re.search(r"https?://", page)
    assert "<script src" not in page and "<link" not in page and "@import" not in page
    data = json.loads(re.search(r'<script id="data"[^>]*>(.*?)</script>', page, re.S).group(1))
    assert len(data["frames"]) == 13 and len(data["steps"]) == 13
    assert data["frames"][0]["k"] == 1
    assert data["steps"][0][3] == make_game(name).action_to_string(record["actions"][0])


def test_view_command(tmp_path, tournament_file, capsys):
    out = tmp_path / "game.html"
    code = main(
        ["view", "push_them_all", str(tournament_file), "--game-index", "1", "--out", str(out)]
    )
    assert code == 0 and out.is_file()
    assert "wrote" in capsys.readouterr().out
    assert main(["view", "tribes", str(tournament_file), "--out", str(out)]) == 2


def test_encoder_reproduces_every_picture():
    """Keyframes plus changed squares rebuild each (palette-mapped) picture exactly."""
    record = _short_record("cotg_combat", decisions=KEYFRAME_EVERY + 5)
    encoder = _FrameEncoder()
    canvas = None
    for step in replay_steps(record):
        img = step.state.render_rgb()
        frame = encoder.add(img)
        if frame.get("k"):
            canvas = _decode(frame["png"])
        elif frame:
            atlas = _decode(frame["png"])
            tiles = frame["tiles"]
            for n in range(len(tiles) // 2):
                sx, sy = (n % frame["cols"]) * 32, (n // frame["cols"]) * 32
                x, y = tiles[2 * n], tiles[2 * n + 1]
                h = min(32, canvas.shape[0] - y)
                w = min(32, canvas.shape[1] - x)
                canvas[y : y + h, x : x + w] = atlas[sy : sy + h, sx : sx + w]
        assert np.array_equal(canvas, encoder._prev)
        # the 256-colour pictures stay close to the real ones
        assert np.abs(canvas.astype(int) - img).mean() < 3
    assert encoder.keyframes >= 2


def _decode(b64: str) -> np.ndarray:
    import base64
    import io

    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(base64.b64decode(b64))).convert("RGB")).copy()


def test_play_record_takes_a_game_object_and_refuses_what_a_record_cannot_hold():
    """A game object used to give "unknown game KillTheKingGame(map='kwah:3', ...)"."""
    game = make_game("kill_the_king", map="kwah:3")
    record = play_record(game, ["random", "random"], seed=2, max_decisions=10)
    assert record["game"] == "kill_the_king" and record["config"] == dict(game.spec.config)
    assert record == play_record(
        "kill_the_king", ["random", "random"], seed=2, config={"map": "kwah:3"}, max_decisions=10
    )
    replay_record(record)
    with pytest.raises(TypeError, match="config is for a game given by name"):
        play_record(game, ["random", "random"], config={"map": "kwah:1"})
    with pytest.raises(TypeError, match="game must be a registry name or a Game, got int"):
        play_record(3, ["random", "random"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="agents must be a list of agent spec strings"):
        play_record(game, "random")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="agents must be a list of agent spec strings"):
        play_record(game, [make_agent("random", game), "random"])  # type: ignore[list-item]


@pytest.mark.slow
def test_viewer_of_a_long_game_stays_small(tmp_path):
    """A 1,000-decision game's viewer stays well under 10 MB."""
    record = play_record("kill_the_king", ["random", "random"], seed=3, max_decisions=1000)
    stats = write_viewer(record, tmp_path / "long.html")
    assert stats.decisions == 1000
    assert stats.bytes < 10e6, f"{stats.bytes / 1e6:.1f} MB"


# ----------------------------------------------------------------------------- in a browser
def _fingerprint(rgb: np.ndarray) -> int:
    """The page's ``boardSum``: every 7th byte of the RGBA pixels, hashed base 31 mod 2^32."""
    rgba = np.concatenate([rgb, np.full((*rgb.shape[:2], 1), 255, np.uint8)], axis=2)
    d = rgba.reshape(-1)[::7].astype(np.uint64)
    powers = np.full(len(d), 31, dtype=np.uint64)
    powers[0] = 1
    powers = np.cumprod(powers)[::-1]  # 31^(n-1) .. 1, wrapping mod 2^64
    return int(np.sum(d * powers) & np.uint64(0xFFFFFFFF))


def _open_headless(page: Path, fragment: str) -> dict[str, str]:
    result = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=15000",
            "--dump-dom",
            f"{page.resolve().as_uri()}#{fragment}",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    body = re.search(r"<body([^>]*)>", result.stdout)
    assert body, f"chromium printed no page: {result.stderr[-2000:]}"
    return dict(re.findall(r'data-([a-z0-9]+)="([^"]*)"', body.group(1)))


@pytest.mark.skipif(
    CHROMIUM is None,
    reason="headless Chromium is not installed (Debian: apt-get install chromium; .ci/run "
    "installs it where it runs as root with apt-get); "
    "the viewer's page is not opened in a browser",
)
@pytest.mark.parametrize("name", GAMES)
def test_viewer_steps_forward_in_a_browser(name, tmp_path):
    record = _short_record(name, decisions=8)
    page = tmp_path / f"{name}.html"
    write_viewer(record, page)
    seen = _open_headless(page, "keys=3")
    assert seen.get("ready") == "1", seen
    assert seen["step"] == "3"
    assert seen["board0"] != seen["board"], "pressing the right arrow did not change the board"
    assert seen["direct"] == seen["board"], "stepping and jumping to decision 3 differ"
    # the canvas shows exactly the stored picture of decision 3
    encoder = _FrameEncoder()
    for step in replay_steps(record):
        encoder.add(step.state.render_rgb())
        if step.index == 3:
            break
    assert int(seen["board"]) == _fingerprint(encoder._prev)
