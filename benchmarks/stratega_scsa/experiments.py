"""The SCSA paper's experiments at a chosen scale (``docs/results/stratega_scsa.md``).

Usage: ``python3 benchmarks/stratega_scsa/experiments.py table|compare|sweep|compression|speed``.
Every command makes one table of the results page:

* ``table GAME``: the round robin of Tables II-IV (Rule-based, MCTS, MCTS_u, RG MCTS_u, Elastic
  MCTS_u and SCSA with the parameters of the paper's Table I), seats switched on every map, with
  win rates and standard errors (the tournament runner's protocol);
* ``sweep GAME``: SCSA against the rule-based agent for SIZE_LIMIT 2..5 (Figure 5);
* ``compression GAME``: the compression rate of SCSA and Elastic MCTS_u after every batch of
  their searches during games against the rule-based agent (Figure 6);
* ``compare GAME FILE``: a ``table`` results file next to the paper's Table II, III or IV;
* ``speed GAME``: iterations and forward-model calls per second of SCSA against MCTS_u at the
  same budget from the same positions (the abstraction's overhead).

``GAME`` is ``ktk``, ``pta`` or ``tk``, played on the paper's maps (``kwah:1-50``, ``pta``,
``tk``). ``--budget`` replaces the paper's budgets (10,000 forward-model calls in KTK and PTA,
5,000 in TK), which one Python core cannot afford for hundreds of games. MCTS is the flat planner
of :mod:`stratagem.baselines.search.mcts` with Stratega's settings (random opponent, closed loop,
rollouts, raw values); MCTS_u is the reference's UnitMCTS loop of
:mod:`stratagem.baselines.search.abstraction` with no abstraction, the loop the three
abstraction planners run, so the pairs differ only in the abstraction.

This is a paper's reproduction, not library code: it uses the public API only (agents by name,
the tournament runner, :func:`~stratagem.baselines.match.play_game`), and the raw results of the
page are in ``results/`` next to it.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import re
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.baselines import make_agent
from stratagem.baselines.match import play_game
from stratagem.baselines.tournament import (
    TournamentResult,
    expand_maps,
    read_results,
    run_tournament,
)
from stratagem.envs import Game, State, make_game

logger = logging.getLogger(__name__)

#: The raw results of ``docs/results/stratega_scsa.md``.
RESULTS = Path(__file__).resolve().parent / "results"

#: Short name -> (registry name, maps cycled over game pairs, the paper's budget).
GAMES: dict[str, tuple[str, tuple[str, ...], int]] = {
    "ktk": ("kill_the_king", ("kwah:1-50",), 10_000),
    "pta": ("push_them_all", ("pta:1-50",), 10_000),
    "tk": ("two_kingdoms", ("tk:1-50",), 5_000),
}

_MCTS = "mcts:opponent=random,rollouts=true,normalize=false,open_loop=false"
_MCTS_U = "abs_mcts_u:abstraction=none"

#: The paper's Table I: agent -> spec without budget, per game.
TABLE_I: dict[str, dict[str, str]] = {
    "ktk": {
        "MCTS": f"{_MCTS},c=0.1,rollout_length=10",
        "MCTS_u": f"{_MCTS_U},c=1.0,rollout_length=10",
        "RG MCTS_u": "rg_mcts_u:c=0.1,rollout_length=10,early_stop=8",
        "Elastic MCTS_u": "elastic_mcts_u:c=0.1,rollout_length=10,early_stop=10,"
        "eta_r=0.05,eta_t=1.0",
        "SCSA": "scsa:c=0.1,rollout_length=10,eta_r=0.05,eta_t=1.0,size_limit=2",
    },
    "pta": {
        "MCTS": f"{_MCTS},c=10.0,rollout_length=10",
        "MCTS_u": f"{_MCTS_U},c=10.0,rollout_length=20",
        "RG MCTS_u": "rg_mcts_u:c=0.1,rollout_length=10,early_stop=4",
        "Elastic MCTS_u": "elastic_mcts_u:c=10.0,rollout_length=10,early_stop=8,"
        "eta_r=1.0,eta_t=1.0",
        "SCSA": "scsa:c=10.0,rollout_length=10,eta_r=1.0,eta_t=1.0,size_limit=2",
    },
    "tk": {
        "MCTS": f"{_MCTS},c=0.1,rollout_length=20",
        "MCTS_u": f"{_MCTS_U},c=1.0,rollout_length=20",
        "RG MCTS_u": "rg_mcts_u:c=0.1,rollout_length=10,early_stop=8",
        "Elastic MCTS_u": "elastic_mcts_u:c=1.0,rollout_length=20,early_stop=6,"
        "eta_r=0.05,eta_t=1.0",
        "SCSA": "scsa:c=1.0,rollout_length=20,eta_r=0.05,eta_t=1.0,size_limit=2",
    },
}


#: The paper's Tables II-IV: (agent 1, agent 2) -> (agent 1 win %, se, agent 2 win %, se), 500
#: games a pair (50 maps, both seats, 5 seeds); draws are neither.
PAPER: dict[str, dict[tuple[str, str], tuple[float, float, float, float]]] = {
    "ktk": {
        ("MCTS", "Rule-based"): (47.2, 1.9, 52.8, 1.9),
        ("MCTS_u", "Rule-based"): (62.2, 1.1, 37.6, 1.3),
        ("RG MCTS_u", "Rule-based"): (63.4, 1.0, 36.6, 1.0),
        ("Elastic MCTS_u", "Rule-based"): (54.2, 1.4, 44.8, 1.6),
        ("SCSA", "Rule-based"): (55.6, 0.6, 44.4, 0.6),
        ("MCTS_u", "MCTS"): (58.0, 1.2, 41.4, 1.2),
        ("RG MCTS_u", "MCTS"): (61.6, 0.9, 38.4, 0.9),
        ("Elastic MCTS_u", "MCTS"): (61.4, 1.2, 36.6, 1.2),
        ("SCSA", "MCTS"): (58.2, 1.9, 30.2, 1.7),
        ("RG MCTS_u", "MCTS_u"): (49.0, 0.9, 51.0, 0.9),
        ("Elastic MCTS_u", "MCTS_u"): (61.2, 1.4, 38.8, 1.4),
        ("SCSA", "MCTS_u"): (53.8, 1.7, 38.8, 1.7),
        ("Elastic MCTS_u", "RG MCTS_u"): (50.2, 1.0, 49.8, 1.0),
        ("SCSA", "RG MCTS_u"): (52.4, 1.4, 47.4, 1.3),
        ("SCSA", "Elastic MCTS_u"): (49.2, 2.1, 38.8, 1.9),
    },
    "pta": {
        ("MCTS", "Rule-based"): (48.8, 1.6, 51.2, 1.6),
        ("MCTS_u", "Rule-based"): (69.0, 1.1, 30.8, 1.2),
        ("RG MCTS_u", "Rule-based"): (74.0, 2.3, 26.0, 2.3),
        ("Elastic MCTS_u", "Rule-based"): (81.8, 0.9, 18.0, 1.1),
        ("SCSA", "Rule-based"): (79.8, 1.6, 20.2, 1.6),
        ("MCTS_u", "MCTS"): (64.4, 1.1, 33.6, 1.4),
        ("RG MCTS_u", "MCTS"): (86.2, 0.7, 12.0, 0.7),
        ("Elastic MCTS_u", "MCTS"): (85.4, 1.5, 13.0, 1.7),
        ("SCSA", "MCTS"): (86.0, 1.4, 12.8, 0.9),
        ("RG MCTS_u", "MCTS_u"): (73.4, 2.0, 25.6, 1.9),
        ("Elastic MCTS_u", "MCTS_u"): (80.2, 1.0, 18.0, 1.0),
        ("SCSA", "MCTS_u"): (77.2, 1.8, 22.0, 2.0),
        ("Elastic MCTS_u", "RG MCTS_u"): (62.4, 1.4, 35.8, 1.3),
        ("SCSA", "RG MCTS_u"): (58.8, 1.8, 40.4, 2.0),
        ("SCSA", "Elastic MCTS_u"): (52.0, 1.6, 46.8, 1.9),
    },
    "tk": {
        ("MCTS", "Rule-based"): (12.6, 0.5, 81.2, 1.2),
        ("MCTS_u", "Rule-based"): (90.8, 1.7, 7.6, 1.6),
        ("RG MCTS_u", "Rule-based"): (88.0, 1.1, 11.8, 1.2),
        ("Elastic MCTS_u", "Rule-based"): (89.2, 1.4, 9.6, 1.3),
        ("SCSA", "Rule-based"): (88.8, 1.0, 9.8, 1.3),
        ("MCTS_u", "MCTS"): (96.0, 0.4, 4.0, 0.4),
        ("RG MCTS_u", "MCTS"): (89.6, 1.2, 10.4, 1.2),
        ("Elastic MCTS_u", "MCTS"): (96.0, 0.5, 4.0, 0.5),
        ("SCSA", "MCTS"): (94.0, 0.6, 6.0, 0.6),
        ("RG MCTS_u", "MCTS_u"): (43.6, 1.6, 56.2, 1.6),
        ("Elastic MCTS_u", "MCTS_u"): (52.2, 2.1, 47.6, 1.9),
        ("SCSA", "MCTS_u"): (49.0, 1.8, 50.8, 1.8),
        ("Elastic MCTS_u", "RG MCTS_u"): (62.4, 1.0, 37.6, 1.0),
        ("SCSA", "RG MCTS_u"): (57.0, 1.6, 43.0, 1.6),
        ("SCSA", "Elastic MCTS_u"): (51.4, 2.7, 48.6, 2.7),
    },
}


def _game(key: str) -> tuple[str, tuple[str, ...], int]:
    if key not in GAMES:
        raise ValueError(f"unknown game {key!r}; use one of {', '.join(GAMES)}")
    return GAMES[key]


def paper_agents(key: str, budget: int | None = None) -> dict[str, str]:
    """Name -> spec of the paper's six agents for game ``key`` (budget: the paper's if None)."""
    _, _, paper_budget = _game(key)
    b = paper_budget if budget is None else budget
    agents = {"Rule-based": "rule_based"}
    agents.update({name: f"{spec},budget={b}" for name, spec in TABLE_I[key].items()})
    return agents


def _run(
    game_key: str, agents: Mapping[str, str], args: argparse.Namespace, **kw: Any
) -> TournamentResult:
    name, maps, _ = _game(game_key)
    return run_tournament(
        name,
        dict(agents),
        games=args.games,
        maps=list(args.maps or maps),
        seed=args.seed,
        workers=args.workers,
        out=args.out,
        progress=not args.no_progress,
        **kw,
    )


# ----------------------------------------------------------------------------- commands
def _cmd_compare(args: argparse.Namespace) -> int:
    """Our measured pairs next to the paper's, from a ``table`` results file."""
    records = read_results(args.results)
    if args.games is not None:  # the first games of every pairing (tournaments are game-major)
        records = [r for r in records if r["index"] < args.games]
    print(
        "| agent 1 | agent 2 | paper: agent 1 win % (se) | paper: agent 2 win % (se) "
        "| ours: agent 1 win % (se) | ours: agent 2 win % (se) | draws % | games |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for (a, b), (pa, pas, pb, pbs) in PAPER[args.game].items():
        wins_a = wins_b = draws = 0
        for rec in records:
            if {rec["row"], rec["col"]} != {a, b}:
                continue
            scores = dict(zip(rec["names"], rec["scores"], strict=True))
            if scores[a] == 1.0:
                wins_a += 1
            elif scores[b] == 1.0:
                wins_b += 1
            else:
                draws += 1
        n = wins_a + wins_b + draws
        if n == 0:
            continue  # a pair this results file did not play (a gauntlet)
        ours = f"| {_pct(wins_a, n)} | {_pct(wins_b, n)} | {100.0 * draws / n:.1f} | {n} |"
        print(f"| {a} | {b} | {pa:.1f} ({pas:.1f}) | {pb:.1f} ({pbs:.1f}) {ours}")
    return 0


def _pct(k: int, n: int) -> str:
    p = k / n
    return f"{100.0 * p:.1f} ({100.0 * math.sqrt(p * (1.0 - p) / n):.1f})"


def _cmd_table(args: argparse.Namespace) -> int:
    agents = paper_agents(args.game, args.budget)
    if args.only:
        keep = [a.strip() for a in args.only.split(",")]
        unknown = [a for a in keep if a not in agents]
        if unknown:
            raise ValueError(f"unknown agent(s) {unknown}; the agents are {list(agents)}")
        agents = {k: v for k, v in agents.items() if k in keep}
    against = None
    if args.gauntlet:
        against = {"Rule-based": agents.pop("Rule-based")}
    result = _run(args.game, agents, args, against=against)
    print(result.table())
    return 0


def _cmd_sweep(args: argparse.Namespace) -> int:
    base = paper_agents(args.game, args.budget)["SCSA"]
    agents = {
        f"SCSA SIZE_LIMIT={k}": base.replace("size_limit=2", f"size_limit={k}") for k in args.limits
    }
    result = _run(args.game, agents, args, against={"Rule-based": "rule_based"})
    print(result.table())
    return 0


def _cmd_compression(args: argparse.Namespace) -> int:
    """Play games of each planner against the rule-based agent; average the rates per batch."""
    if args.load:
        with open(args.load, encoding="utf-8") as fh:
            data = json.load(fh)
        rows = {k: {int(b): v for b, v in t.items()} for k, t in data["rows"].items()}
        whole = {k: {int(b): v for b, v in t.items()} for k, t in data["whole"].items()}
        decisions = data["decisions"]
    else:
        rows, whole, decisions = _measure_compression(args)
        if args.out:
            with open(args.out, "w", encoding="utf-8") as fh:
                json.dump({"rows": rows, "whole": whole, "decisions": decisions}, fh)
    batches = sorted({b for r in rows.values() for b in r})
    if args.batches:
        wanted = {int(b) for b in args.batches.split(",")}
        batches = [b for b in batches if b in wanted]
    header = ["batch (iterations)"]
    for label in rows:
        header += [f"{label}: grouped/groups", f"{label}: nodes/abstract"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for b in batches:
        line = [f"{b} ({b * 20})"]
        for label in rows:
            for table in (rows[label], whole[label]):
                vals = table.get(b, [])
                line.append(_mean_se(vals) if vals else "-")
        print("| " + " | ".join(line) + " |")
    print("\ndecisions: " + ", ".join(f"{k} {v}" for k, v in decisions.items()))
    return 0


def _measure_compression(args: argparse.Namespace) -> tuple[dict, dict, dict]:
    """Per batch, the compression rates of every search of the planners, and their counts.

    Game ``g`` is played on map ``g`` (cycled) with the planner in seat ``g % 2`` against the
    rule-based agent, both on one generator seeded ``seed + g``, until the planner has made
    ``decisions`` searches with batches.
    """
    if args.decisions < 1:
        raise ValueError(f"--decisions must be at least 1, got {args.decisions}")
    name, maps, _ = _game(args.game)
    specs = paper_agents(args.game, args.budget)
    planners = {k: specs[k] for k in ("SCSA", "Elastic MCTS_u")}
    if args.no_early_stop:
        planners["Elastic MCTS_u (no early stop)"] = re.sub(
            r"early_stop=\d+", "early_stop=0", specs["Elastic MCTS_u"]
        )
    map_list = expand_maps(list(args.maps or maps))
    rows: dict[str, dict[int, list[float]]] = {}
    whole: dict[str, dict[int, list[float]]] = {}
    decisions: dict[str, int] = {}
    for label, spec in planners.items():
        per_batch: dict[int, list[float]] = {}
        per_batch_tree: dict[int, list[float]] = {}
        searches = 0
        for g in range(args.games):
            game = make_game(name, map=map_list[g % len(map_list)])
            for compression in _searches(game, spec, g % 2, args.seed + g, args.decisions):
                searches += 1
                for batch, (_, rate, tree) in enumerate(compression, 1):
                    per_batch.setdefault(batch, []).append(rate)
                    per_batch_tree.setdefault(batch, []).append(tree)
        rows[label] = per_batch
        whole[label] = per_batch_tree
        decisions[label] = searches
    return rows, whole, decisions


def _searches(game: Game, spec: str, seat: int, seed: int, decisions: int) -> list[list[Any]]:
    """The compression figures of the first ``decisions`` searches with batches of a planner.

    The planner sits in ``seat`` against the rule-based agent, both on one generator seeded
    ``seed`` (the initial state's seed too); the game stops after those searches.
    """
    agent = make_agent(spec, game)
    players = [agent, make_agent("rule_based", game)]
    found: list[list[Any]] = []

    def read(state: State, action: int) -> bool:
        stats = agent.last_stats
        if state.current_player == seat and stats.searched and stats.extra.get("batches"):
            found.append(list(stats.extra["compression"]))  # a copy: read now
        return len(found) >= decisions

    play_game(
        game, players if seat == 0 else players[::-1], seed=seed, verbose=False, on_decision=read
    )
    return found


def _mean_se(vals: Sequence[float]) -> str:
    m = statistics.fmean(vals)
    se = statistics.stdev(vals) / math.sqrt(len(vals)) if len(vals) > 1 else 0.0
    return f"{m:.2f} ({se:.2f})"


def _cmd_speed(args: argparse.Namespace) -> int:
    """Iterations and calls per CPU second of SCSA and MCTS_u on the same positions and budget."""
    name, maps, paper_budget = _game(args.game)
    budget = args.budget or paper_budget
    map_list = expand_maps(list(args.maps or maps))
    specs = paper_agents(args.game, budget)
    # the same search settings but the abstraction, so only the abstraction differs
    scsa = specs["SCSA"]
    plain = scsa.replace("scsa:", "abs_mcts_u:abstraction=none,", 1)
    positions = []
    for g in range(args.games):
        game = make_game(name, map=map_list[g % len(map_list)])
        mover = make_agent("rule_based", game)
        state = play_game(
            game, [mover, mover], seed=args.seed + g, verbose=False, max_decisions=args.warmup
        )
        if not state.is_terminal():
            positions.append((game, state))
    logger.info("%s: %d positions, budget %s", args.game, len(positions), budget)
    for label, spec in (("MCTS_u", plain), ("SCSA", scsa)):
        iters = calls = 0
        seconds = 0.0
        for i, (game, state) in enumerate(positions):
            agent = make_agent(spec, game)
            agent.reset()
            if hasattr(agent.evaluator, "battle"):  # Two Kingdoms: time the abstraction itself,
                agent.evaluator.set_root(state)  # not its battle-mode gate
                agent.evaluator.battle = [True, True]
            t0 = time.process_time()  # CPU time: the machine may be shared
            agent.act(state.clone(), rng=np.random.default_rng(i))
            seconds += time.process_time() - t0
            iters += agent.last_stats.iterations
            calls += agent.last_stats.fm_calls
        logger.info(
            "  %-7s %9.1f iterations/s  %9.0f calls/s  %.3f CPU s/decision",
            label,
            iters / seconds,
            calls / seconds,
            seconds / len(positions),
        )
    return 0


# ----------------------------------------------------------------------------- CLI
def build_parser() -> argparse.ArgumentParser:
    """The command line: one subcommand per table of the results page."""
    parser = argparse.ArgumentParser(
        prog="python3 benchmarks/stratega_scsa/experiments.py",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    sub = parser.add_subparsers(dest="experiment", required=True)

    def common(q: argparse.ArgumentParser, games: int) -> None:
        q.add_argument("game", choices=sorted(GAMES), help="ktk, pta or tk")
        q.add_argument("--budget", type=int, default=None, help="forward-model calls per decision")
        q.add_argument("--games", "-n", type=int, default=games, help=f"games (default {games})")
        q.add_argument("--maps", nargs="+", default=None, help="maps (default: the paper's)")
        q.add_argument("--seed", type=int, default=0, help="base seed (default 0)")

    t = sub.add_parser("table", help="round robin of the paper's six agents (Tables II-IV)")
    common(t, 10)
    t.add_argument("--only", default=None, help="comma-separated subset of the agents")
    t.add_argument("--gauntlet", action="store_true", help="everyone against Rule-based only")
    _runner_args(t)
    t.set_defaults(func=_cmd_table)
    k = sub.add_parser("compare", help="a table results file next to the paper's Table II-IV")
    k.add_argument("game", choices=sorted(GAMES), help="ktk, pta or tk")
    k.add_argument("results", help="JSON Lines file written by 'table --out'")
    k.add_argument("--games", type=int, default=None, help="count only each pair's first games")
    k.set_defaults(func=_cmd_compare)
    s = sub.add_parser("sweep", help="SCSA SIZE_LIMIT sweep against Rule-based (Figure 5)")
    common(s, 10)
    s.add_argument("--limits", type=int, nargs="+", default=[2, 3, 4, 5])
    _runner_args(s)
    s.set_defaults(func=_cmd_sweep)
    c = sub.add_parser("compression", help="compression rate per batch (Figure 6)")
    common(c, 4)
    c.add_argument("--decisions", type=int, default=30, help="searched decisions per game")
    c.add_argument("--no-early-stop", action="store_true", help="also Elastic without early stop")
    c.add_argument("--out", default=None, help="JSON file of the raw rates")
    c.add_argument("--load", default=None, help="print from a JSON file of an earlier run")
    c.add_argument("--batches", default=None, help="comma-separated batches to print")
    c.set_defaults(func=_cmd_compression)
    v = sub.add_parser("speed", help="iterations/s of SCSA against MCTS_u (overhead)")
    common(v, 6)
    v.add_argument("--warmup", type=int, default=40, help="rule-based moves before timing")
    v.set_defaults(func=_cmd_speed)
    return parser


def _runner_args(q: argparse.ArgumentParser) -> None:
    q.add_argument("--workers", "-w", type=int, default=1, help="worker processes (default 1)")
    q.add_argument("--out", "-o", default=None, help="JSON Lines results file (resumable)")
    q.add_argument("--no-progress", action="store_true", help="no progress bar")


def main(argv: Sequence[str] | None = None) -> int:
    """Run one experiment; returns the exit code (2 for a bad argument, named on stderr)."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")  # progress lines, on stderr
    try:
        return args.func(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
