"""The ``stratagem`` command: games, bench, play (people and agents), errors."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from stratagem.cli import main


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "stratagem", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_games_lists_facts(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "kill_the_king" in out and "18497" in out and "stratagem/KillTheKing-v0" in out
    assert main(["games", "--json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows["kill_the_king"]["options"] == {"map": "default", "max_rounds": 99}
    # one game, in a configuration: the shapes a network for that board needs
    assert main(["games", "kill_the_king", "-c", "map=small", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["observation_shape"] == [12, 12, 17] and row["options"]["map"] == "small"
    assert main(["games", "kill_the_king", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert main(["games", "-c", "map=small"]) == 2
    assert "describe one game" in capsys.readouterr().err


def test_bench_writes_json(tmp_path, capsys):
    out = tmp_path / "bench.json"
    assert (
        main(["bench", "kill_the_king", "-c", "map=kwah:1", "--seconds", "0.2", "--out", str(out)])
        == 0
    )
    result = json.loads(out.read_text())
    for key in (
        "apply_per_s",
        "clone_per_s",
        "mask_per_s",
        "games_per_s",
        "legal_actions_per_decision",
        "steps_per_s",
    ):
        assert result[key] > 0
    assert "apply calls/s" in capsys.readouterr().out


def test_bench_agent_measures_for_the_seconds_asked_and_labels_once(
    tmp_path: Any, capsys: Any
) -> None:
    """``--seconds 0.3`` used to measure the agent for 5 s and print "agent agent mcts"."""
    out = tmp_path / "bench.json"
    argv = ["bench", "kill_the_king", "-c", "map=kwah:3", "--agent", "mcts:budget=50"]
    assert main([*argv, "--seconds", "0.3", "--out", str(out)]) == 0
    # the agent's measurement stops once 0.3 s are spent (a 50-call decision takes a few ms);
    # before, it ran for 5 s whatever --seconds said
    assert json.loads(out.read_text())["agent"]["seconds"] < 1.5
    text = capsys.readouterr().out
    assert "agent agent" not in text
    assert any(line.split() == ["agent", "mcts:budget=50"] for line in text.splitlines())
    with pytest.raises(SystemExit):
        main([*argv, "--seconds", "0"])
    assert "argument --seconds: must be a positive number of seconds" in capsys.readouterr().err


def test_unknown_game_and_bad_option_are_one_line_errors(capsys):
    assert main(["bench", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert main(["play", "kill_the_king", "-c", "colour=red"]) == 2
    assert "unknown option(s) colour" in capsys.readouterr().err
    assert main(["play", "kill_the_king", "-c", "nonsense"]) == 2
    assert "key=value" in capsys.readouterr().err
    assert main(["play", "kill_the_king", "--players", "random"]) == 2
    assert "2 seats" in capsys.readouterr().err


def test_seeds_and_output_paths_are_checked_before_any_work(tmp_path, capsys):
    """A negative seed failed in numpy's words; a bad ``bench --out`` after the measurement."""
    for argv in (
        ["play", "kill_the_king", "--players", "random,random", "--seed", "-3"],
        ["bench", "kill_the_king", "--seed", "-3"],
        ["tune", "kill_the_king", "--space", "x.toml", "--seed", "-1"],
    ):
        with pytest.raises(SystemExit):
            main(argv)
        assert "argument --seed: must be an integer >= 0" in capsys.readouterr().err
    missing = tmp_path / "no_such_folder" / "bench.json"
    argv = ["bench", "kill_the_king", "--seconds", "30", "--out", str(missing)]
    assert main(argv) == 2  # at once: 30 s of measurement would come first otherwise
    assert "--out" in capsys.readouterr().err and not missing.parent.exists()


def test_ill_typed_game_options_are_one_line_errors(capsys):
    """Values of the wrong type (JSON numbers, null) are refused by name, not by a traceback."""
    assert main(["play", "tribes", "-c", "tribes=5", "--players", "random,random"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("stratagem play: error: tribes: tribes must be a comma-separated list")
    assert err.count("\n") == 1 and "Traceback" not in err
    for option in ("factions", "scoring_tiles", "bonus_tiles"):
        assert main(["bench", "terra_mystica", "-c", f"{option}=null"]) == 2
        err = capsys.readouterr().err
        assert f"terra_mystica: {option} must be" in err and "got None" in err
        assert err.count("\n") == 1
    result = run_cli("bench", "terra_mystica", "-c", "factions=null")
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_watch_agents_play_to_the_end():
    result = run_cli(
        "play", "kill_the_king", "--players", "random,end_turn", "-c", "map=kwah:5", "--quiet"
    )
    assert result.returncode == 0, result.stderr
    assert "result: player 0 (random)" in result.stdout


def test_play_reads_agent_specs_with_several_parameters(capsys):
    # Regression: --players was split at every comma, so "mcts:budget=20,c=2" made two seats.
    argv = ["play", "kill_the_king", "-c", "map=k0 . .\n. . k1", "--quiet"]
    assert main([*argv, "--players", "mcts:budget=20,c=2,rollout_length=3,end_turn"]) == 0
    assert "player 0 (mcts:budget=20,c=2,rollout_length=3)" in capsys.readouterr().out
    assert main([*argv, "--players", "mcts:budget=20,c=2"]) == 2
    assert "2 seats, --players names 1" in capsys.readouterr().err


def test_person_plays_with_bad_input():
    script = (
        "\n".join(
            [
                "hello",  # not an action
                "9999",  # no such number
                "move (1,0)->(1,1)",  # well-formed but not legal (no unit there)
                "attack (1,1)->(9,9)",  # unreachable offset
                "help",
                "list",
                "board",
                "empty (0,0)",  # legal: k0 spends its move
                "end_turn",
                "quit",
            ]
        )
        + "\n"
    )
    result = run_cli(
        "play",
        "kill_the_king",
        "--players",
        "human,end_turn",
        "-c",
        "map=k0 . .\n. . k1",
        stdin=script,
    )
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "cannot parse action 'hello'" in out
    assert "no action number 9999" in out
    assert "is not legal now" in out
    assert "cannot reach offset" in out
    assert "player 0 (human): empty (0,0)" in out
    assert "player 0 (human): end_turn" in out
    assert "game abandoned" in out


def test_person_input_ends_cleanly_at_end_of_input():
    result = run_cli(
        "play", "kill_the_king", "--players", "human,random", "-c", "map=kwah:2", stdin="0\n"
    )
    assert result.returncode == 0, result.stderr
    assert "game abandoned" in result.stdout
