"""CPU-hours of the papers' tournament tables at the papers' protocols (docs/distributed.md).

How: every agent's CPU time is measured with ``time.process_time`` (so the load of a shared
machine does not inflate it) at the paper's budget: per forward-model call for planners with a
budget of calls (``--samples`` positions spread over a whole game of the rule-based agent with
itself: early positions alone, often a forced end of turn, would underestimate them several
times), per decision for the others (``--samples`` decisions in a row against a cheap opponent;
Prismata's bots plan a whole turn at its first action). The work of each agent in a game of each
pairing (its forward-model calls, or its decisions) comes from our recorded runs of the table
(``benchmarks/<paper>/results/``, ``docs/results/tribes/``), calls scaled from the recorded
budget to the paper's. A pairing's game costs the sum over its two seats, a table the sum over
its pairings times the paper's games per pairing. Prismata's searches are counted in playouts
(100 ms of the C++ reference is about 14 of them, docs/results/prismata.md), so 1 s and 3 s cost
10 and 30 times the 100 ms search.

Usage: ``python benchmarks/distributed_cost.py [--samples 12] [--out cost.json]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.baselines import make_agent
from stratagem.envs import make_game

ROOT = Path(__file__).resolve().parents[1]


def _scsa_script() -> Any:
    """``benchmarks/stratega_scsa/experiments.py`` (a script, not a module): the paper's agents."""
    path = ROOT / "benchmarks" / "stratega_scsa" / "experiments.py"
    spec = importlib.util.spec_from_file_location("_stratega_scsa_experiments", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


paper_agents = _scsa_script().paper_agents

_TRIBES_EVAL = (
    "exclude_kinds=disband|destroy,evaluator=stratagem.baselines.tribes:TribesDiffEvaluator"
)
TRIBES = {
    "RHEA": f"rhea:budget=2000,length=20,population=1,{_TRIBES_EVAL}",
    "RB": "rule_based",
    "MCTS": "mcts:budget=2000,c=1.4142135623730951,rollout_length=20,rollouts=false,"
    f"normalize=true,prioritize_root=true,{_TRIBES_EVAL}",
    "MC": f"mc:budget=2000,rollout_length=20,prioritize_root=true,{_TRIBES_EVAL}",
    "OSLA": f"osla:budget=2000,{_TRIBES_EVAL}",
    "RND": "random",
}
_PRISMATA_12 = "time_limit_ms=0,max_playouts=12"

#: title -> game, config, paper's games per pairing, agents (name -> spec), records, record name
#: -> agent name, and cost multipliers (agent -> factor on the measured spec's cost).
TABLES: dict[str, dict[str, Any]] = {
    "SCSA Table II (Kill The King)": {
        "game": "kill_the_king",
        "config": {"map": "kwah:1"},
        "games": 500,
        "agents": paper_agents("ktk"),
        "records": ["benchmarks/stratega_scsa/results/ktk_table_b1000.jsonl"],
        "against": "rule_based",
        "calls_scale": 10,  # recorded at 1,000 calls
    },
    "SCSA Table III (Push Them All)": {
        "game": "push_them_all",
        "config": {"map": "pta:1"},
        "games": 500,
        "agents": paper_agents("pta"),
        "records": ["benchmarks/stratega_scsa/results/pta_table_b1000.jsonl"],
        "against": "rule_based",
        "calls_scale": 10,  # recorded at 1,000 calls
    },
    "SCSA Table IV (Two Kingdoms)": {
        "game": "two_kingdoms",
        "config": {"map": "tk:1"},
        "games": 500,
        "agents": paper_agents("tk"),
        "records": ["benchmarks/stratega_scsa/results/tk_table_b1000.jsonl"],
        "against": "rule_based",
        "calls_scale": 5,  # recorded at 1,000 calls
    },
    "Tribes Table 1 (Capitals, 2,000 calls)": {
        "game": "tribes",
        "config": {"map": "paper:0"},
        "games": 500,
        "agents": TRIBES,
        "records": ["docs/results/tribes/table1_b200.jsonl"],
        "rename": lambda n: n.split(":")[0],
        "against": "rule_based",
        "samples": 8,
        "calls_scale": 10,  # recorded at 200 calls
    },
    "Prismata Table 2 (100 ms searches)": {
        "game": "prismata",
        "config": {"cards": "random:8"},
        "games": 10_000,
        "agents": {
            "UCT100": f"rule_based:bot=UCT100,{_PRISMATA_12}",
            "AB100": f"rule_based:bot=AB100,{_PRISMATA_12}",
            "Expert": "rule_based:bot=Expert,time_limit_ms=0,max_playouts=120",
            "Medium": "rule_based:bot=Medium",
            "Easy": "rule_based:bot=Easy",
            "Random": "rule_based:bot=Random",
        },
        "records": [
            "benchmarks/prismata/results/table2_search.jsonl",
            "benchmarks/prismata/results/table2_scripted.jsonl",
            "benchmarks/prismata/results/table2_gauntlet.jsonl",
        ],
        "against": "rule_based:bot=Medium",
        "samples": 60,  # about five turns: the search runs at a turn's first action
        # 100 ms of the reference = 14 playouts; measured at 12
        "scale": {"UCT100": 14 / 12, "AB100": 14 / 12},
    },
    "Prismata Table 3 (0.1, 1 and 3 s searches)": {
        "game": "prismata",
        "config": {"cards": "random:8"},
        "games": 1_000,
        "agents": {
            "AB3k": f"rule_based:bot=AB100,{_PRISMATA_12}",
            "UCT3k": f"rule_based:bot=UCT100,{_PRISMATA_12}",
            "AB1k": f"rule_based:bot=AB100,{_PRISMATA_12}",
            "UCT1k": f"rule_based:bot=UCT100,{_PRISMATA_12}",
            "UCT100": f"rule_based:bot=UCT100,{_PRISMATA_12}",
            "AB100": f"rule_based:bot=AB100,{_PRISMATA_12}",
        },
        "records": ["benchmarks/prismata/results/table3.jsonl"],
        "against": "rule_based:bot=Medium",
        "samples": 60,
        # every record name -> the decisions of a search bot (the table's games are alike)
        "rename": lambda n: "search",
        "scale": {
            "AB3k": 420 / 12,
            "UCT3k": 420 / 12,
            "AB1k": 140 / 12,
            "UCT1k": 140 / 12,
            "UCT100": 14 / 12,
            "AB100": 14 / 12,
        },
    },
}


def _states(game: Any, against: str, seed: int, cap: int) -> list[tuple[int, Any]]:
    """(seat, state) at every decision of a game of ``against`` with itself, up to ``cap``."""
    agents = [make_agent(against, game) for _ in range(game.spec.num_players)]
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed=seed)
    out = []
    while not state.is_terminal() and len(out) < cap:
        seat = state.current_player
        out.append((seat, state.clone()))
        state.apply(agents[seat].act(state.observed_by(seat), rng=rng))
    return out


def cpu_cost(
    game_name: str, config: dict[str, Any], spec: str, against: str, samples: int, seed: int
) -> tuple[str, float]:
    """``("call", CPU s per forward-model call)`` or ``("decision", CPU s per decision)``.

    Planners with a budget of calls are timed from ``samples`` positions spread over a whole
    game of ``against`` with itself (early positions alone, often a forced end of turn, would
    underestimate them several times); the others, Prismata's bots included (they plan a whole
    turn at its first action), play ``samples`` decisions in a row against ``against``.
    """
    game = make_game(game_name, **config)
    agent = make_agent(spec, game)
    if "budget=" in spec:
        states = _states(game, against, seed, cap=game.spec.max_game_length)
        picks = np.linspace(0, len(states) - 1, num=min(samples, len(states))).astype(int)
        cpu, calls = 0.0, 0
        for i in picks:
            seat, state = states[i]
            agent.reset()
            start = time.process_time()
            agent.act(state.observed_by(seat), rng=np.random.default_rng(seed + int(i)))
            cpu += time.process_time() - start
            calls += int(getattr(getattr(agent, "last_stats", None), "fm_calls", 0))
        return "call", cpu / max(calls, 1)
    other = make_agent(against, game)
    agent.reset()
    other.reset()
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed=seed)
    cpu, made = 0.0, 0
    while not state.is_terminal() and made < samples:
        seat = state.current_player
        me = seat == 0
        start = time.process_time()
        action = (agent if me else other).act(state.observed_by(seat), rng=rng)
        if me:
            cpu += time.process_time() - start
            made += 1
        state.apply(action)
    return "decision", cpu / max(made, 1)


def recorded_work(
    files: list[str], rename: Any
) -> dict[frozenset[str], dict[str, tuple[float, float]]]:
    """Pairing -> agent -> mean (decisions, forward-model calls) per game, from recorded runs."""
    sums: dict[frozenset[str], dict[str, list[tuple[int, int]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for name in files:
        for line in (ROOT / name).read_text().splitlines():
            if not line.strip():
                continue
            rec = json.loads(line)
            names = [rename(n) for n in rec["names"]]
            for n, d, c in zip(names, rec["decisions"], rec["fm_calls"], strict=True):
                sums[frozenset(names)][n].append((d, c))
    return {
        p: {
            n: (float(np.mean([d for d, _ in v])), float(np.mean([c for _, c in v])))
            for n, v in agents.items()
        }
        for p, agents in sums.items()
    }


def main() -> None:
    """Measure every table and print a Markdown table (and write JSON with ``--out``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=12, help="decisions timed per agent")
    parser.add_argument("--tables", nargs="*", default=None, help="titles (default: all)")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    rows = []
    for title, t in TABLES.items():
        if args.tables and not any(s in title for s in args.tables):
            continue
        rename = t.get("rename", lambda n: n)
        agents: dict[str, str] = t["agents"]
        measured: dict[str, tuple[str, float]] = {}
        for k, spec in enumerate(dict.fromkeys(agents.values())):
            measured[spec] = cpu_cost(
                t["game"],
                t["config"],
                spec,
                t["against"],
                t.get("samples", args.samples),
                seed=100 + k,
            )
        work = recorded_work(t["records"], rename)
        names = list(agents)
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
        seconds = 0.0
        for a, b in pairs:
            game_work = work[frozenset({rename(a), rename(b)})]
            for n in (a, b):
                decisions, calls = game_work[rename(n)]
                unit, cost = measured[agents[n]]
                scale = t.get("scale", {}).get(n, 1.0)
                if unit == "call":
                    seconds += t["games"] * cost * calls * t.get("calls_scale", 1)
                else:
                    seconds += t["games"] * scale * cost * decisions
        hours = seconds / 3600
        rows.append(
            {
                "table": title,
                "pairings": len(pairs),
                "games_per_pairing": t["games"],
                "cpu_s": {n: [measured[agents[n]][0], measured[agents[n]][1]] for n in names},
                "cpu_hours": round(hours, 1),
                "cores_for_10_hours": int(np.ceil(hours / 10)),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    print()
    print("| table | pairings × games | CPU-hours | cores for a 10-hour night |")
    print("|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['table']} | {r['pairings']} × {r['games_per_pairing']:,} | "
            f"{r['cpu_hours']:,.0f} | {r['cores_for_10_hours']:,} |"
        )
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
