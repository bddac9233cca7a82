"""Tournaments: protocol (seeds, seats), scoring, resume after interruption, tables, CLI."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from stratagem.baselines.tournament import (
    TournamentResult,
    expand_maps,
    format_tables,
    make_tasks,
    pair_score,
    plot_heatmap,
    read_results,
    record_problem,
    run_tournament,
    split_agent_list,
)
from stratagem.cli import main
from stratagem.envs.registry import make_game

# Far apart behind a wall: nobody can reach anybody within a few rounds, so every game is a draw.
NO_CONTACT = """
M M M M M M M M
M k0 . M M . k1 M
M M M M M M M M
"""
FAST = {"map": "kwah:3", "max_rounds": 3}


def test_expand_maps_and_split_agents() -> None:
    assert expand_maps(["kwah:1-3", "default,kwah:9"]) == [
        "kwah:1",
        "kwah:2",
        "kwah:3",
        "default",
        "kwah:9",
    ]
    assert expand_maps(["maps/a-b.yaml:Map2"]) == ["maps/a-b.yaml:Map2"]
    assert split_agent_list("mcts:budget=2000,c=1.414,rule_based,random") == [
        "mcts:budget=2000,c=1.414",
        "rule_based",
        "random",
    ]


def test_protocol_same_levels_and_seeds_with_seats_switched() -> None:
    tasks = make_tasks(
        "kill_the_king",
        {"a": "random", "b": "end_turn", "c": "rule_based"},
        games=4,
        maps=["kwah:1", "kwah:2"],
        seed=5,
    )
    assert len(tasks) == 3 * 4
    by_pairing: dict[tuple[str, str], list[Any]] = {}
    for t in tasks:
        by_pairing.setdefault((t.row, t.col), []).append(t)
    assert set(by_pairing) == {("a", "b"), ("a", "c"), ("b", "c")}
    signature = None
    for (row, col), games in by_pairing.items():
        games.sort(key=lambda t: t.index)
        # Games 2k and 2k+1: same map and seeds, seats switched.
        assert [t.names for t in games] == [(row, col), (col, row)] * 2
        assert [t.config["map"] for t in games] == ["kwah:1", "kwah:1", "kwah:2", "kwah:2"]
        assert games[0].game_seed == games[1].game_seed != games[2].game_seed
        assert games[0].agent_seeds == games[1].agent_seeds
        sig = [(t.game_seed, t.agent_seeds, t.config["map"]) for t in games]
        assert signature in (None, sig)  # every pairing plays the same games
        signature = sig
    assert len({t.key for t in tasks}) == len(tasks)
    gauntlet = make_tasks(
        "kill_the_king",
        {"a": "random", "b": "end_turn"},
        games=2,
        against={"c": "rule_based"},
        config=FAST,
    )
    assert {(t.row, t.col) for t in gauntlet} == {("a", "c"), ("b", "c")}


def test_bad_requests_fail_before_playing(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="two different agents"):
        run_tournament("kill_the_king", ["random"], games=2, config=FAST)
    with pytest.raises(ValueError, match="unknown agent"):
        run_tournament("kill_the_king", ["random", "nobody"], games=2, config=FAST)
    with pytest.raises(ValueError, match="unknown option"):
        run_tournament("kill_the_king", ["random", "end_turn"], games=2, config={"size": 3})
    with pytest.raises(ValueError, match="not both"):
        run_tournament(
            "kill_the_king",
            ["random", "end_turn"],
            games=2,
            config={"map": "kwah:1"},
            maps=["kwah:2"],
        )
    # Every map given is checked before the first game, also those no game of this run reaches
    # (regression: kwah:51 failed after the games on kwah:49 and kwah:50 were played).
    out = tmp_path / "maps.jsonl"
    for games in (8, 2):
        with pytest.raises(ValueError, match="unknown map 'kwah:51'"):
            run_tournament(
                "kill_the_king", ["random", "end_turn"], games=games, maps=["kwah:49-52"], out=out
            )
    assert not out.exists()


def test_bad_workers_and_seeds_are_refused(capsys: pytest.CaptureFixture) -> None:
    """``--workers 0`` was taken as 1 without a word; ``--seed -1`` failed in numpy's words."""
    agents = ["random", "end_turn"]
    for workers in (0, -1, True):
        with pytest.raises(ValueError, match="workers must be a positive integer"):
            run_tournament("kill_the_king", agents, games=2, config=FAST, workers=workers)
    with pytest.raises(ValueError, match="seed must be a non-negative integer, got -1"):
        make_tasks("kill_the_king", {"a": "random", "b": "end_turn"}, games=2, seed=-1)
    argv = ["tournament", "kill_the_king", "--agents", "random,end_turn", "--games", "2"]
    for option, value, message in (
        ("--workers", "0", "argument --workers/-w: must be an integer >= 1, got '0'"),
        ("--workers", "-1", "argument --workers/-w: must be an integer >= 1, got '-1'"),
        ("--seed", "-1", "argument --seed: must be an integer >= 0, got '-1'"),
    ):
        with pytest.raises(SystemExit):
            main([*argv, f"{option}={value}"])
        assert message in capsys.readouterr().err


def test_parameters_given_with_a_preset_replace_its_own() -> None:
    """``fast:budget=50`` merges into the preset's spec (a key given twice is refused)."""
    from stratagem.baselines.tournament.cli import _resolve

    presets = {"fast": "mcts:budget=100,c=0.5", "plain": "rule_based"}
    named = _resolve(["fast:budget=50,plain:aggressive=true,fast"], presets)
    assert named == {
        "fast:budget=50": "mcts:budget=50,c=0.5",
        "plain:aggressive=true": "rule_based:aggressive=true",
        "fast": "mcts:budget=100,c=0.5",
    }


def test_output_paths_are_checked_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--plot /missing/dir/x.png`` used to fail with Errno 2 after every game was played."""
    import stratagem.baselines.tournament.cli as tournament_cli

    played: list[Any] = []
    monkeypatch.setattr(tournament_cli, "run_tournament", lambda *a, **k: played.append(a))
    argv = ["tournament", "kill_the_king", "--agents", "random,end_turn", "--games", "2"]
    missing = tmp_path / "missing"
    for option, path, message in (
        ("--plot", missing / "x.png", f"--plot {missing / 'x.png'}: the folder {missing} does"),
        ("--out", missing / "r.jsonl", f"--out {missing / 'r.jsonl'}: the folder {missing} does"),
        ("--out", tmp_path, f"--out {tmp_path} is a folder"),
    ):
        assert main([*argv, option, str(path)]) == 2
        assert message in capsys.readouterr().err
    assert played == []


def test_level_seeds_are_used_as_given_and_cycled_over_game_pairs() -> None:
    agents = {"a": "random", "b": "end_turn"}
    tasks = make_tasks("cotg_combat", agents, games=6, level_seeds=[2018, 2019], seed=3)
    assert [t.game_seed for t in sorted(tasks, key=lambda t: t.index)] == [2018] * 2 + [
        2019
    ] * 2 + [2018] * 2
    assert [t.level for t in sorted(tasks, key=lambda t: t.index)] == [0, 0, 1, 1, 0, 0]
    # a repeat of a level is another game pair: other seeds for the agents
    assert tasks[0].agent_seeds != tasks[4].agent_seeds
    plain = make_tasks("cotg_combat", agents, games=6, seed=3)
    assert not {t.key for t in tasks} & {t.key for t in plain}
    with pytest.raises(ValueError, match="not both"):
        make_tasks("cotg_combat", agents, games=2, levels=2, level_seeds=[1, 2])
    with pytest.raises(ValueError, match="non-negative integers"):
        make_tasks("cotg_combat", agents, games=2, level_seeds=["1"])


def test_symmetric_scoring_scores_pairs_with_the_tie_break() -> None:
    """The CotG paper's sym-win: more wins of the two games, else more of the tie-break."""

    def game(first: str, scores: list[float], hp: list[float]) -> dict[str, Any]:
        names = ["A", "B"] if first == "A" else ["B", "A"]
        return {"key": first, "names": names, "scores": scores, "stats": {"hp": hp}}

    won_both = (game("A", [1.0, 0.0], [9, 0]), game("B", [0.0, 1.0], [0, 9]))
    split = (game("A", [1.0, 0.0], [30, 0]), game("B", [1.0, 0.0], [12, 0]))
    drawn = (game("A", [0.5, 0.5], [10, 20]), game("B", [0.5, 0.5], [15, 10]))
    assert pair_score(*won_both, "A", "B") == 1.0 and pair_score(*won_both, "B", "A") == 0.0
    assert pair_score(*split, "A", "B") == 0.5  # no tie-break: halved
    assert pair_score(*split, "A", "B", "hp") == 1.0  # A kept 30 + 0, B 0 + 12
    assert pair_score(*drawn, "A", "B", "hp") == 0.0  # A 10 + 10, B 20 + 15
    with pytest.raises(ValueError, match="not a per-player end statistic"):
        pair_score(*split, "A", "B", "ships")
    result = TournamentResult("g", ["A", "B"], symmetric=True, tie_break="hp")
    result.records = [
        {**rec, "row": "A", "col": "B", "index": i} for i, rec in enumerate([*split, *drawn])
    ]
    assert result.battles() == [("A", "B", 1.0), ("A", "B", 0.0)]
    assert result.scores("A") == [1.0, 0.0] and result.scores("B", "A") == [0.0, 1.0]
    result.records = result.records[:3]  # the second pair is not complete: left out
    assert result.scores("A") == [1.0]


def test_symmetric_tournament_runs_and_checks_its_requests(capsys: pytest.CaptureFixture) -> None:
    agents = ["cotg_nokav", "cotg_kiter"]
    cfg = {"units": 2}
    result = run_tournament(
        "cotg_combat", agents, games=4, config=cfg, symmetric=True, tie_break="hp"
    )
    assert len(result.records) == 4 and len(result.battles()) == 2
    assert len(result.scores("cotg_nokav")) == 2
    lines = result.table().splitlines()
    assert lines[lines.index("Overall") + 1].split()[:2] == ["agent", "pairs"]
    with pytest.raises(ValueError, match="games must be even"):
        run_tournament("cotg_combat", agents, games=3, config=cfg, symmetric=True)
    with pytest.raises(ValueError, match="needs symmetric"):
        run_tournament("cotg_combat", agents, games=2, config=cfg, tie_break="hp")
    with pytest.raises(ValueError, match=r"not a per-player end statistic .*\(it has hp, "):
        run_tournament(
            "cotg_combat", agents, games=2, config=cfg, symmetric=True, tie_break="health"
        )
    args = ["tournament", "cotg_combat", "-a", ",".join(agents), "-n", "4", "-c", "units=2"]
    args += ["--symmetric", "--tie-break", "hp", "--no-progress", "--workers", "1"]
    assert main([*args, "--level-seeds", "2018-2019"]) == 0
    out = capsys.readouterr().out
    assert "4 games (2 symmetric pairs per pairing; a split pair goes to the larger hp)" in out
    assert main([*args, "--level-seeds", "x-3"]) != 0
    assert "level seed 'x-3' is neither an integer nor a range" in capsys.readouterr().err


def test_records_count_turns_searches_and_the_longest_turn() -> None:
    result = run_tournament("kill_the_king", ["mcts:budget=30", "end_turn"], games=2, config=FAST)
    for rec in result.records:
        assert record_problem(rec) is None
        seat = rec["names"].index("mcts:budget=30")
        assert 0 < rec["searches"][seat] <= rec["decisions"][seat]
        assert rec["search_iterations"][seat] >= rec["searches"][seat]
        assert rec["searches"][1 - seat] == rec["search_iterations"][1 - seat] == 0
        assert all(t >= 1 for t in rec["turns"])
        longest, total = rec["max_turn_seconds"], rec["agent_seconds"]
        assert all(0.0 <= m <= a for m, a in zip(longest, total, strict=True))
        assert all(m >= 0.0 for m in rec["max_turn_cpu_seconds"])
    assert "one entry per seat" in str(record_problem({**rec, "turns": [1]}))


def test_draws_count_half() -> None:
    result = run_tournament(
        "kill_the_king",
        ["random", "end_turn"],
        games=4,
        config={"map": NO_CONTACT, "max_rounds": 2},
    )
    assert len(result.records) == 4
    assert all(r["scores"] == [0.5, 0.5] for r in result.records)
    rate, se, n = result.matrix()[0][1]
    assert (rate, se, n) == (0.5, 0.0, 4)
    table = format_tables(result)
    assert "50.0 (0.0)" in table and "draws" in table


def test_results_and_tables(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    result = run_tournament(
        "kill_the_king",
        ["rule_based", "end_turn", "random"],
        games=4,
        config={"map": "kwah:3", "max_rounds": 29},
        out=out,
    )
    assert len(read_results(out)) == len(result.records) == 12
    matrix = result.matrix()
    assert matrix[0][0] is None
    assert matrix[0][1][0] == 1.0 and matrix[1][0][0] == 0.0  # rule_based beats end_turn
    for i in range(3):
        for j in range(3):
            if i != j:
                assert matrix[i][j][0] + matrix[j][i][0] == pytest.approx(1.0)
    table = result.table()
    for text in (
        "Win rate % of row against column",
        "rule_based",
        "Overall",
        "king_health",
        "units_left",
        "rounds",
        "100.0 (0.0)",
    ):
        assert text in table
    record = result.records[0]
    assert set(record["stats"]) == {"rounds", "units_left", "king_health"}
    assert len(record["stats"]["units_left"]) == 2


def test_interrupted_tournament_resumes_without_losing_games(tmp_path: Path) -> None:
    agents = ["rule_based", "random", "end_turn"]
    cfg = {"map": "kwah:5", "max_rounds": 11}
    reference = run_tournament("kill_the_king", agents, games=4, config=cfg)
    out = tmp_path / "r.jsonl"
    seen: list[str] = []

    def stop_after_five(record: dict[str, Any]) -> None:
        seen.append(record["key"])
        if len(seen) == 5:
            raise KeyboardInterrupt

    def run_to(on_result: Callable[[dict[str, Any]], None]) -> TournamentResult:
        return run_tournament(
            "kill_the_king", agents, games=4, config=cfg, out=out, on_result=on_result
        )

    with pytest.raises(KeyboardInterrupt):
        run_to(stop_after_five)
    assert len(read_results(out)) == 5
    with out.open("a") as fh:  # a run killed mid-write leaves a torn line
        fh.write('{"key": "torn')
    replayed: list[str] = []
    resumed = run_to(lambda r: replayed.append(r["key"]))
    assert len(replayed) == 12 - 5 and not set(replayed) & set(seen)
    assert len(resumed.records) == 12 and len(read_results(out)) == 12

    def totals(res: TournamentResult) -> dict[str, list[float]]:
        return {r["key"]: r["scores"] for r in res.records}

    assert totals(resumed) == totals(reference)
    assert resumed.matrix() == reference.matrix()
    again: list[str] = []
    run_to(lambda r: again.append(r["key"]))
    assert again == []  # nothing left to play


def test_resume_replays_games_whose_lines_are_not_complete_records(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """A line with a valid key but missing fields (or wrong types, or no JSON) does not count.

    Before, a record cut after its key was taken as a finished game: the resumed run never
    played it again and the tables failed on it, on every rerun.
    """
    out = tmp_path / "r.jsonl"
    args = ["tournament", "kill_the_king", "-a", "random,end_turn", "-n", "4", "--workers", "1"]
    args += ["-c", "map=kwah:3", "-c", "max_rounds=3", "--no-progress", "--out", str(out)]
    assert main(args) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    truncated = {"key": records[0]["key"], "game": "kill_the_king", "names": ["random"]}
    wrong_type = {**records[1], "scores": "1,0"}
    cut = lines[2][: len(lines[2]) // 2]  # no JSON at all, in the middle of the file
    out.write_text(
        "\n".join([json.dumps(truncated), json.dumps(wrong_type), cut, lines[3]]) + "\n",
        encoding="utf-8",
    )
    capsys.readouterr()
    assert main(args) == 0
    captured = capsys.readouterr()
    err = captured.err
    assert f"{out}:1: skipped, lacks field(s) config" in err
    assert f"{out}:2: skipped, field 'scores' must be a list of numbers" in err
    assert f"{out}:3: skipped, not valid JSON" in err
    assert "Traceback" not in err and "4 games (4 per pairing)" in captured.out
    valid = read_results(out)  # the three games were played again and appended
    assert sorted(r["key"] for r in valid) == sorted(r["key"] for r in records)
    by_key = {r["key"]: r for r in valid}
    assert all(by_key[r["key"]]["scores"] == r["scores"] for r in records)
    resumed: list[str] = []
    run_tournament(
        "kill_the_king",
        ["random", "end_turn"],
        games=4,
        config={"map": "kwah:3", "max_rounds": 3},
        out=out,
        on_result=lambda r: resumed.append(r["key"]),
    )
    assert resumed == []  # nothing is played a third time


def test_record_problem_names_what_is_wrong() -> None:
    good = run_tournament(
        "kill_the_king", ["random", "end_turn"], games=1, config={"map": "kwah:3", "max_rounds": 2}
    ).records[0]
    assert record_problem(good) is None
    old = {k: v for k, v in good.items() if k not in ("actions", "agent_seeds", "rules_version")}
    assert record_problem(old) is None  # records from before those fields still count
    assert "not a JSON object" in str(record_problem([good]))
    no_stats = {k: v for k, v in good.items() if k != "stats"}
    assert "lacks field(s) stats" in str(record_problem(no_stats))
    assert "'index' must be an integer" in str(record_problem({**good, "index": "0"}))
    assert "'truncated' must be true or false" in str(record_problem({**good, "truncated": 0}))
    assert "'actions' must be a list of integers" in str(record_problem({**good, "actions": [1.5]}))
    assert "one entry per seat" in str(record_problem({**good, "scores": [1.0]}))


_ORPHAN_RUNNER = """
import multiprocessing as mp, sys, threading, time
from stratagem.baselines.tournament import run_tournament

def report_workers():
    while len(mp.active_children()) < 2:
        time.sleep(0.05)
    print(" ".join(str(p.pid) for p in mp.active_children()), flush=True)

if __name__ == "__main__":
    threading.Thread(target=report_workers, daemon=True).start()
    # long games (many seconds each): the workers are busy when this process is killed
    run_tournament("kill_the_king", ["mcts:budget=20000", "rule_based"], games=4,
                   config={"map": "kwah:3", "max_rounds": 99}, workers=2)
"""


def _running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for a reaper that never comes does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # the pid was reused by another user's process: not ours, not running
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_workers_exit_promptly_when_the_tournament_process_is_killed(tmp_path: Path) -> None:
    """After ``kill -9`` of the runner its pool workers go at once, not after their games."""
    script = tmp_path / "runner.py"
    script.write_text(_ORPHAN_RUNNER, encoding="utf-8")
    runner = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    workers: list[int] = []
    try:
        assert runner.stdout is not None
        workers = [int(pid) for pid in runner.stdout.readline().split()]
        assert len(workers) == 2, "the runner did not start its workers"
        time.sleep(1.0)  # let them start (spawn) and begin their first games
        assert all(_running(pid) for pid in workers)
        runner.send_signal(signal.SIGKILL)
        runner.wait(timeout=10)
        deadline = time.monotonic() + 5.0
        while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [pid for pid in workers if _running(pid)]
        assert not left, f"workers {left} still run 5 s after the tournament process died"
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait(timeout=10)
        for pid in workers:
            if _running(pid):
                os.kill(pid, signal.SIGKILL)


def test_worker_processes_give_the_same_results(tmp_path: Path) -> None:
    kwargs: dict[str, Any] = {"games": 4, "config": FAST}
    serial = run_tournament("kill_the_king", ["random", "rule_based"], **kwargs)
    parallel = run_tournament(
        "kill_the_king", ["random", "rule_based"], workers=2, out=tmp_path / "p.jsonl", **kwargs
    )
    strip = ("seconds", "agent_seconds", "max_turn_seconds", "max_turn_cpu_seconds")

    def clean(res: TournamentResult) -> list[dict[str, Any]]:
        return sorted(
            ({k: v for k, v in r.items() if k not in strip} for r in res.records),
            key=lambda r: r["key"],
        )

    assert clean(serial) == clean(parallel)


def test_cli_prints_the_tables_and_plots(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "r.jsonl"
    agents_file = tmp_path / "agents.toml"
    agents_file.write_text('[tiny_mcts]\nagent = "mcts"\nbudget = 30\n', encoding="utf-8")
    args = [
        "tournament",
        "kill_the_king",
        "--agents",
        "tiny_mcts,random",
        "--against",
        "end_turn",
        "--games",
        "2",
        "-c",
        "map=kwah:3",
        "-c",
        "max_rounds=2",
        "--workers",
        "1",
        "--no-progress",
        "--out",
        str(out),
        "--agent-file",
        str(agents_file),
    ]
    pytest.importorskip("matplotlib")
    plot = tmp_path / "heat.png"
    assert main([*args, "--plot", str(plot)]) == 0
    text = capsys.readouterr().out
    assert "Win rate % of row against column" in text and "tiny_mcts" in text
    assert plot.read_bytes()[:4] == b"\x89PNG"
    names = {tuple(json.loads(line)["names"]) for line in out.read_text().splitlines()}
    assert names == {
        ("tiny_mcts", "end_turn"),
        ("end_turn", "tiny_mcts"),
        ("random", "end_turn"),
        ("end_turn", "random"),
    }
    assert (
        main(
            [
                "tournament",
                "kill_the_king",
                "--agents",
                "random,nobody",
                "--games",
                "2",
                "--no-progress",
            ]
        )
        == 2
    )
    assert "unknown agent" in capsys.readouterr().err


def test_plot_without_matplotlib_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import builtins

    real_import = builtins.__import__

    def fake_import(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("matplotlib"):
            raise ImportError("no matplotlib")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    with pytest.raises(RuntimeError, match=r"stratagem\[plot\]"):
        plot_heatmap(TournamentResult("kill_the_king", ["a", "b"]), tmp_path / "x.png")


@pytest.mark.parametrize(
    "game_name, config",
    [
        ("kill_the_king", {"map": "kwah:2"}),
        ("push_them_all", {}),
        ("two_kingdoms", {}),
        ("cotg_combat", {"units": 3}),
        ("prismata", {}),
    ],
)
def test_every_two_player_game_reports_end_statistics(game_name, config):
    """Finished random games report floats and per-seat lists the tables can average."""
    from stratagem.baselines.tournament import end_statistics

    game = make_game(game_name, **config)
    state = game.new_initial_state(3)
    rng = np.random.default_rng(3)
    while not state.is_terminal():
        legal = state.legal_action_list()
        state.apply(legal[int(rng.integers(len(legal)))])
    stats = end_statistics(state)
    assert stats
    for value in stats.values():
        if isinstance(value, list):
            assert len(value) == 2 and all(isinstance(v, float) for v in value)
        else:
            assert isinstance(value, float)
