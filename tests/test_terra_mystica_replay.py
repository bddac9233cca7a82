"""Terra Mystica: the real game logs replay through our engine to the site's exact final VP."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from stratagem.envs.terra_mystica import commands as tm_commands
from stratagem.envs.terra_mystica.replay import (
    ReplayError,
    parse_ledger,
    replay_file,
    replay_ledger,
)

GAMES = Path(__file__).resolve().parents[2] / "shared" / "tm_games"
if not GAMES.is_dir():
    GAMES = Path("/work/shared/tm_games")
MANIFEST = GAMES / "snellman_batch" / "manifest.json"
pytestmark = pytest.mark.skipif(not MANIFEST.is_file(), reason="tm_games data not available")


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
