"""The papers' reproduction scripts of ``benchmarks/<paper>/`` (not in the wheel) still work.

They are scripts, not modules of the package, so each is loaded from its path. The tests are
kept fast: they check the agents of the papers' tables, rebuild tables from the recorded results
next to the scripts, and play tiny round robins; the full runs are the commands of the results
pages (``docs/results/``).
"""

from __future__ import annotations

import ast
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from stratagem.baselines import make_agent
from stratagem.envs import make_game

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"


def load(paper: str, script: str = "experiments") -> ModuleType:
    """``benchmarks/<paper>/<script>.py`` as a module (once per test session)."""
    name = f"_benchmark_{paper}_{script}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, BENCHMARKS / paper / f"{script}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


#: The modules the scripts may import from: the public API (agents by name, games by name, the
#: tournament runner and the one game loop, a game's exported agents).
PUBLIC = {
    "stratagem.baselines",
    "stratagem.baselines.cotg_combat",
    "stratagem.baselines.match",
    "stratagem.baselines.tournament",
    "stratagem.envs",
    "stratagem.envs.cli_options",
}


@pytest.mark.parametrize("paper", ["stratega_scsa", "cotg_combat", "prismata", "tribes"])
def test_reproduction_scripts_live_outside_the_package_and_use_the_public_api(paper):
    path = BENCHMARKS / paper / "experiments.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("stratagem"):
            assert node.module in PUBLIC, f"{path.name} imports {node.module}"
            assert not any(alias.name.startswith("_") for alias in node.names)
        elif isinstance(node, ast.Import):
            assert not any(alias.name.startswith("stratagem.") for alias in node.names)
    assert not list((ROOT / "baselines").rglob("*experiments*.py"))


# ----------------------------------------------------------------------------- SCSA
@pytest.mark.parametrize("key", ["ktk", "pta", "tk"])
def test_scsa_table_one_agents_build(key):
    scsa = load("stratega_scsa")
    name, maps, budget = scsa.GAMES[key]
    game = make_game(name)
    agents = scsa.paper_agents(key)
    assert list(agents) == ["Rule-based", "MCTS", "MCTS_u", "RG MCTS_u", "Elastic MCTS_u", "SCSA"]
    for spec in agents.values():
        agent = make_agent(spec, game)
        if spec != "rule_based":
            assert agent.budget == budget
    assert make_agent(scsa.paper_agents(key, 300)["SCSA"], game).budget == 300


def test_scsa_commands_read_the_recorded_results(capsys):
    scsa = load("stratega_scsa")
    results = scsa.RESULTS
    table = str(results / "ktk_table_b1000.jsonl")
    assert scsa.main(["compare", "ktk", table, "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "| SCSA | Rule-based | 55.6 (0.6) | 44.4 (0.6) |" in out
    assert out.count("\n") == 2 + 15  # header, rule, the paper's 15 pairs
    load_args = ["--load", str(results / "pta_compression.json"), "--batches", "1,8"]
    assert scsa.main(["compression", "pta", *load_args]) == 0
    out = capsys.readouterr().out
    assert "| 1 (20) |" in out and "| 8 (160) |" in out and "| 2 (40) |" not in out
    assert scsa.main(["table", "ktk", "--only", "Nobody"]) == 2


def test_scsa_compression_stops_after_the_searches_asked_for(tmp_path, capsys):
    scsa = load("stratega_scsa")
    out = tmp_path / "rates.json"
    args = ["compression", "pta", "--games", "1", "--decisions", "1", "--budget", "1000"]
    assert scsa.main([*args, "--out", str(out)]) == 0
    assert json.loads(out.read_text())["decisions"] == {"SCSA": 1, "Elastic MCTS_u": 1}


# ----------------------------------------------------------------------------- CotG combat
def test_cotg_paper_agent_names():
    cotg = load("cotg_combat")
    assert cotg.agent_spec("NOKAV") == "cotg_nokav"
    assert cotg.agent_spec("MCTS_HP_500", 0.1) == "cotg_mcts_hp:time_limit=0.05"
    assert cotg.agent_spec("PGS_3_3") == "cotg_pgs:iterations=3,responses=3,time_limit=0.5"
    assert cotg.agent_spec("cotg_mcts:iterations=3") == "cotg_mcts:iterations=3"
    with pytest.raises(ValueError, match="unknown agent"):
        cotg.agent_spec("AlphaStar")


def test_cotg_round_robin_writes_resumes_and_reports(tmp_path):
    cotg = load("cotg_combat")
    out = tmp_path / "rr.jsonl"
    agents = ["NOKAV", "Kiter", "AttackClosest"]
    kwargs = {"units": 2, "scenarios": 2, "out": out, "progress": False}
    result = cotg.run_round_robin(agents, **kwargs)
    assert len(result.records) == 3 * 2 * 2  # pairings x scenarios x both sides
    lines = out.read_text().splitlines()
    again = cotg.run_round_robin(agents, **kwargs)
    assert len(again.records) == 12 and out.read_text().splitlines() == lines  # nothing replayed
    battles = cotg.read_battles([out])
    assert len(battles) == 3 * 2
    assert {b["a"] for b in battles} | {b["b"] for b in battles} == set(agents)
    summary = cotg.summarize(battles)
    assert set(summary["agents"]) == set(agents)
    total = sum(a["sym_win"] * a["battles"] for a in summary["agents"].values())
    assert total == pytest.approx(len(battles))  # every battle hands out exactly 1 point
    runner = sorted(again.battles())  # the runner's sym-wins are the report's
    assert runner == sorted((b["a"], b["b"], b["sym"]) for b in battles)
    text = cotg.format_report(summary, "2v2")
    assert "sym-win rate" in text and "NOKAV" in text


def test_cotg_reports_the_earlier_runners_files_and_refuses_to_append_to_them(tmp_path, capsys):
    cotg = load("cotg_combat")
    recorded = cotg.RESULTS / "scripts_5v5.jsonl"
    battles = cotg.read_battles([recorded])
    assert len(battles) == 6 * 50
    assert cotg.main(["report", str(recorded)]) == 0
    assert "| Kiter | 0.60 | ± 0.08 | 0.58 | 3802 |" in capsys.readouterr().out
    old = tmp_path / "old.jsonl"
    old.write_text(recorded.read_text().splitlines()[0] + "\n")
    args = ["run", "--units", "5", "--agents", "NOKAV,Kiter", "--scenarios", "1", "--out", str(old)]
    assert cotg.main(args) == 2
    assert "earlier runner" in capsys.readouterr().err


# ----------------------------------------------------------------------------- Prismata
def test_prismata_report_rebuilds_the_tables_from_the_recorded_results(capsys):
    prismata = load("prismata")
    assert prismata.DEFAULT_OUT == BENCHMARKS / "prismata" / "results"
    assert prismata.main(["report"]) == 0
    out = capsys.readouterr().out
    assert "Table 2" in out and "Table 3" in out and "Game lengths" in out


# ----------------------------------------------------------------------------- Tribes
def test_tribes_action_space_records_round_trip():
    tribes = load("tribes")
    data = json.loads((tribes.RESULTS / "action_space_rb.json").read_text())
    expanded = tribes.expand_action_space(data)
    assert expanded["turns"] and tribes.compact_action_space(expanded)["rows"] == data["rows"]
