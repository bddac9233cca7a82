"""Terra Mystica: the real game logs replay through our engine to the site's exact final VP.

The 22 games read here are not part of the repository (those are in
``tests/data/terra_mystica/snellman_league/``, see ``test_terra_mystica_real_games.py``): they
live in an external ``tm_games`` folder holding ``snellman_batch/`` (21 ledgers and their
``manifest.json``) and ``extra/4pLeague_S1_D1L1_G3.txt``. The folder is looked for in
``$STRATAGEM_TM_GAMES``, then in ``shared/tm_games`` beside the repository's checkout, then in
``/work/shared/tm_games``; without it these tests are skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
from pathlib import Path

import pytest

from stratagem.envs.terra_mystica import commands as tm_commands
from stratagem.envs.terra_mystica.replay import (
    ReplayError,
    parse_ledger,
    replay_file,
    replay_ledger,
)


def _tm_games() -> Path:
    """The external ``tm_games`` folder (see the module docstring); a missing path if none."""
    candidates = [
        Path(__file__).resolve().parents[2] / "shared" / "tm_games",
        Path("/work/shared/tm_games"),
    ]
    if os.environ.get("STRATAGEM_TM_GAMES"):
        candidates.insert(0, Path(os.environ["STRATAGEM_TM_GAMES"]))
    return next((path for path in candidates if path.is_dir()), candidates[0])


GAMES = _tm_games()
MANIFEST = GAMES / "snellman_batch" / "manifest.json"
pytestmark = pytest.mark.skipif(
    not MANIFEST.is_file(), reason="tm_games folder not found (set STRATAGEM_TM_GAMES)"
)


def _manifest_games() -> list[dict]:
    if not MANIFEST.is_file():
        return []
    return json.loads(MANIFEST.read_text())["games"]


@pytest.mark.parametrize("game", _manifest_games(), ids=lambda g: g["game_id"])
def test_manifest_game_replays_to_exact_final_vp(game):
    path = MANIFEST.parent / game["log_file"]
    result = replay_file(path, manifest=MANIFEST)
    assert result.final_vp == {k.lower(): v for k, v in game["expected_total_vp"].items()}
    # nearly every row is compared resource by resource (the rest ran in another order)
    assert result.rows_checked >= 0.95 * result.rows_total


def test_extra_game_replays_to_the_ledger_final_vp():
    result = replay_file(GAMES / "extra" / "4pLeague_S1_D1L1_G3.txt")
    assert result.final_vp == {"mermaids": 158, "darklings": 133, "dwarves": 125, "fakirs": 123}


def test_ledger_configuration_is_read_from_the_header():
    ledger = parse_ledger((MANIFEST.parent / "4pLeague_S67_D1L1_G1.txt").read_text())
    cfg = ledger.config()
    assert cfg["factions"] == "engineers,darklings,nomads,witches"
    assert cfg["scoring_tiles"] == "SCORE6,SCORE8,SCORE1,SCORE4,SCORE5,SCORE7"
    assert cfg["bonus_tiles"] == "BON3,BON4,BON5,BON6,BON7,BON8,BON10"
    assert cfg["turn_order"] == "variable" and cfg["mini_expansion"] and cfg["shipping_bonus"]


def test_a_wrong_resource_value_is_reported_with_its_line():
    text = (MANIFEST.parent / "4pLeague_S67_D1L1_G1.txt").read_text()
    lines = text.splitlines()
    # the engineers' first real action row: change its VP column
    index = next(i for i, line in enumerate(lines) if line.endswith("upgrade E7 to TP"))
    fields = lines[index].split("\t")
    fields[2] = "99 VP"
    lines[index] = "\t".join(fields)
    with pytest.raises(ReplayError, match=rf"ledger line {index + 1} .*VP ledger 99"):
        replay_ledger("\n".join(lines))


def test_an_illegal_command_is_reported_with_its_line_and_reason():
    text = (MANIFEST.parent / "4pLeague_S67_D1L1_G1.txt").read_text()
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.endswith("upgrade E7 to TP"))
    lines[index] = lines[index].replace("upgrade E7 to TP", "upgrade E7 to SH")
    with pytest.raises(ReplayError, match=rf"ledger line {index + 1} .*rejects"):
        replay_ledger("\n".join(lines))


def test_malformed_ledgers_are_rejected():
    with pytest.raises(ReplayError, match="scoring"):
        parse_ledger("option strict-leech\n")
    with pytest.raises(ReplayError, match="15 TAB fields"):
        parse_ledger("engineers\t20 VP\n")


def test_replay_command_line(capsys):
    parser = argparse.ArgumentParser()
    tm_commands.register(parser.add_subparsers())
    args = parser.parse_args(
        ["replay", "terra_mystica", str(MANIFEST.parent / "4pLeague_S68_D1L1_G3.txt")]
    )
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "final VP exact" in out and "1/1 games replayed exactly" in out


# ----------------------------------------------------------------------------- corrupted ledgers
def _ledger_lines() -> list[str]:
    return (MANIFEST.parent / "4pLeague_S67_D1L1_G1.txt").read_text().splitlines()


def _replace_command(lines: list[str], old: str, new: str) -> tuple[list[str], int]:
    index = next(i for i, line in enumerate(lines) if line.endswith("\t" + old))
    lines = list(lines)
    lines[index] = lines[index][: -len(old)] + new
    return lines, index + 1


def test_an_unknown_option_line_is_an_error_naming_it(tmp_path):
    lines = _ledger_lines()
    index = lines.index("option email-notify")
    lines[index] = "option fire-and-ice-factions"
    path = tmp_path / "g.txt"
    path.write_text("\n".join(lines))
    with pytest.raises(
        ReplayError, match=rf"line {index + 1}: unknown option 'fire-and-ice"
    ) as info:
        replay_file(path)
    assert info.value.path == str(path) and info.value.line == index + 1
    assert str(info.value).startswith(f"{path}: ledger line {index + 1}: ")


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ("upgrade E7 to TP", "send p to MUD", "no cult track 'mud'"),  # was tuple.index(x)
        ("upgrade E7 to TP", "build Z99", "no hex 'Z99'"),  # was an unknown-hex ValueError
        ("upgrade E7 to TP", "pass BON0", "no tile BON0"),  # was another action (BON9's pass)
        ("upgrade E7 to TP", "+TW9", "no tile TW9"),
        ("upgrade E7 to TP", "+FAV13", "no tile FAV13"),
        ("upgrade E7 to TP", "connect r99", "no hex 'R99'"),
        ("upgrade E7 to TP", "send p to fire for 4", "3, 2 or 1 steps"),  # was a KeyError
    ],
)
def test_a_bad_command_names_its_line(old, new, reason):
    lines, number = _replace_command(_ledger_lines(), old, new)
    with pytest.raises(ReplayError, match=rf"^g\.txt: ledger line {number} .*{re.escape(reason)}"):
        replay_ledger("\n".join(lines), source="g.txt")


def test_header_problems_name_a_line():
    lines = _ledger_lines()
    scoring = next(i for i, line in enumerate(lines) if line.startswith("Round 3 scoring"))
    without = lines[:scoring] + lines[scoring + 1 :]
    with pytest.raises(ReplayError, match="no 'Round N scoring' line for round 3") as info:
        replay_ledger("\n".join(without))
    assert info.value.line == len(without)  # something missing: the end of the ledger
    twice = lines[: scoring + 1] + lines[scoring:]
    with pytest.raises(ReplayError, match=rf"line {scoring + 2}: a second scoring tile"):
        replay_ledger("\n".join(twice))
    removal = next(i for i, line in enumerate(lines) if line.startswith("Removing tile"))
    no_removal = lines[:removal] + lines[removal + 1 :]
    first_row = next(i for i, line in enumerate(no_removal) if "\t" in line)
    with pytest.raises(ReplayError, match=rf"line {first_row + 1}: the game set up .*bonus_tiles"):
        replay_ledger("\n".join(no_removal))


def test_batch_replay_reports_every_file_and_fails_if_any_failed(tmp_path, capsys):
    good = MANIFEST.parent / "4pLeague_S68_D1L1_G3.txt"
    lines = good.read_text().splitlines()
    lines[lines.index("option strict-leech")] = "option nonsense"
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines))
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"option strict-leech\n\xff\xfe\n")
    missing = tmp_path / "missing.txt"
    parser = argparse.ArgumentParser()
    tm_commands.register(parser.add_subparsers())
    names = [str(bad), str(missing), str(binary), str(good)]
    args = parser.parse_args(["replay", "terra_mystica", *names])
    assert args.func(args) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"FAIL {bad}: ledger line ") and "unknown option 'nonsense'" in out[0]
    assert out[1] == f"FAIL {missing}: no such ledger file"
    assert out[2].startswith(f"FAIL {binary}: ledger line 2: not UTF-8 text")
    assert out[3].startswith(f"ok   {good.name}: final VP exact")
    assert out[4] == "1/4 games replayed exactly"


def _mutations(seed: int, count: int) -> list[tuple[str, str, list[str]]]:
    """``count`` corrupted copies of the real ledgers: (file, what was done, lines).

    Each copy gets one to three edits: a line deleted, duplicated, swapped with its neighbour
    or with any line, a token or a TAB field replaced by ledger vocabulary or garbage, a number
    changed, or a stray line inserted.
    """
    rng = random.Random(seed)
    files = sorted(GAMES.glob("*/*.txt"))
    texts = {f.name: f.read_text().splitlines() for f in files}
    tokens = [
        *("build", "upgrade", "to", "TP", "SH", "E7", "Z99", "r3", "send", "p", "fire", "MUD"),
        *("action", "ACT9", "BON11", "+FAV99", "+TW0", "convert", "99", "-1", "", ".", "pass"),
        *("leech", "decline", "from", "nomads", "dig", "99999999999", "burn", "+9air", "r99"),
        *("connect", "bridge", "A1:B2", "transform", "pink", "advance", "ship", "setup"),
        *("+5vp for foo", "\t", "1/2", "1/2/3/4/5", "VP", "done", "wait", "-spade", "option x"),
        *("Round 7 scoring: SCORE99", "Removing tile BON99", "Removing tile BON3"),
    ]
    out = []
    for _ in range(count):
        name = rng.choice(sorted(texts))
        lines = list(texts[name])
        done = []
        for _ in range(rng.choice((1, 1, 2, 3))):
            kind = rng.choice(("delete", "duplicate", "swap", "swap far", "token", "field"))
            kind = rng.choice((kind, "number", "insert"))
            i = rng.randrange(len(lines))
            if kind == "delete":
                del lines[i]
            elif kind == "duplicate":
                lines.insert(i, lines[i])
            elif kind == "swap":
                j = min(i + 1, len(lines) - 1)
                lines[i], lines[j] = lines[j], lines[i]
            elif kind == "swap far":
                j = rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            elif kind in ("token", "field"):
                sep = " " if kind == "token" else "\t"
                parts = lines[i].split(sep)
                parts[rng.randrange(len(parts))] = rng.choice(tokens)
                lines[i] = sep.join(parts)
            elif kind == "number":
                new = str(rng.choice((0, 1, 2, 9, 99)))
                lines[i] = re.sub(r"\d+", new, lines[i], count=1)
            else:
                lines.insert(i, rng.choice(tokens))
            done.append(f"{kind} at line {i + 1}")
        out.append((name, ", ".join(done), lines))
    return out


def _fuzz(tmp_path: Path, seed: int, count: int) -> int:
    """Replay corrupted ledgers; every failure must be a ReplayError naming file and line."""
    failures = 0
    for k, (name, what, lines) in enumerate(_mutations(seed, count)):
        path = tmp_path / f"{k}_{name}"
        path.write_text("\n".join(lines) + "\n")
        try:
            replay_file(path)
        except ReplayError as exc:
            failures += 1
            where = f"{name} ({what}): {exc}"
            assert exc.path == str(path), where
            assert isinstance(exc.line, int) and 1 <= exc.line <= len(lines), where
            assert str(exc).startswith(f"{path}: ledger line {exc.line}"), where
        except Exception as exc:  # the point: nothing else may escape
            pytest.fail(f"{name} ({what}): {type(exc).__name__} escaped: {exc}")
    return failures


def test_corrupted_ledgers_fail_with_file_and_line(tmp_path):
    """Mutation fuzz (short): deleted, repeated, swapped and garbled ledger lines."""
    assert _fuzz(tmp_path, seed=0, count=120) > 60  # most edits break the replay


@pytest.mark.slow
def test_corrupted_ledgers_fail_with_file_and_line_long(tmp_path):
    """Mutation fuzz (long): thousands of corrupted ledgers over several seeds."""
    for seed in range(1, 6):
        _fuzz(tmp_path, seed=seed, count=1000)
