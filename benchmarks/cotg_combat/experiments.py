"""The CotG combat paper's tournaments: symmetric battles, sym-win rates, HP left, turn times.

Usage (``docs/results/cotg_combat.md`` lists the commands of its tables)::

    python3 benchmarks/cotg_combat/experiments.py run --units 5 --out 5v5.jsonl
    python3 benchmarks/cotg_combat/experiments.py report 5v5.jsonl 7v7.jsonl
    python3 benchmarks/cotg_combat/experiments.py playouts --units 5 32
    python3 benchmarks/cotg_combat/experiments.py iterations --units 5 16 32

Protocol (Šmejkal & Gemrot 2018, "Experiments"), played by the library's tournament runner
(:func:`~stratagem.baselines.tournament.run_tournament` with ``level_seeds``, ``symmetric`` and
``tie_break="hp"``):

* A *scenario* is a generated battle (armies with a random centre each and a random
  Battleship ratio), identified by its seed: scenario ``i`` is seed ``--seed + i`` (2018 + i),
  and every pairing plays the same scenarios.
* A *symmetric battle* of agents A and B on a scenario is two games: A controls army 1 (which
  always moves first) and B army 2, then the sides are switched (the runner's game pair).
* **Sym-win**: the agent that wins more of the two games achieves the sym-win (score 1, the
  other 0). When the games are split (1:1, or both drawn at the turn limit) "we look at how many
  HP did each player's ships end with and the one with more HP left achieves a sym-win"; equal
  hit points give 0.5 each. An agent's sym-win rate is its mean score over all its symmetric
  battles (in a round robin, against every other agent); the 95 % confidence interval is
  ``1.96 · s / sqrt(n)`` with ``s`` the standard deviation of the scores.
* **HP remaining** (the paper's Figure 7): the hit points an agent's ships end with, summed over
  all its games.
* **Execution time** (Figure 9): per game, the longest time an agent took for one turn (the sum
  of its ``act`` calls in that turn); reported as the average and the 90th percentile of these
  maxima, in CPU time of the worker process (what the searches' time limits count) and in wall
  time.
* "Because the MCTS algorithms are not deterministic we run each battle 5 times": ``--repeats``
  (repeat ``r`` of a scenario is another game pair, with other seeds for the agents).

Agents are given by the paper's names (``NOKAV``, ``Kiter``, ``PGS_1_0``, ``PGS_3_3``,
``PGS_5_5``, ``MCTS_100``, ``MCTS_HP_500``, ...; also ``AttackClosest``, ``AttackValue``) or as
agent specs (``cotg_mcts_hp:time_limit=0.05``). ``--time-scale`` multiplies every time limit of
the named agents (the paper's 100/500/2000 ms for MCTS and 500 ms per improvement for PGS), so
that a round robin fits a small machine; the labels keep the paper's numbers.

Results are the runner's JSON Lines records, one game a line, appended as games finish; running
the same command again skips the games already in the file, so an interrupted tournament
resumes. ``report`` also reads the files of the earlier runner of this experiment (one
symmetric battle a line, the files in ``results/`` written before the runner was shared): their
figures are the same, but ``run`` does not append to them.

This is a paper's reproduction, not library code: it uses the public API only.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import random
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.baselines import make_agent
from stratagem.baselines.cotg_combat import SCRIPTS, play_turn
from stratagem.baselines.tournament import (
    TournamentResult,
    pair_score,
    record_problem,
    run_tournament,
)
from stratagem.envs import make_game

logger = logging.getLogger(__name__)

#: The raw results of ``docs/results/cotg_combat.md``.
RESULTS = Path(__file__).resolve().parent / "results"

#: The paper's agents: name -> (agent spec, time-limit keyword, limit in seconds).
PAPER_AGENTS: dict[str, tuple[str, str | None, float]] = {
    "NOKAV": ("cotg_nokav", None, 0.0),
    "Kiter": ("cotg_kiter", None, 0.0),
    "AttackClosest": ("cotg_attack_closest", None, 0.0),
    "AttackValue": ("cotg_attack_value", None, 0.0),
    "PGS_1_0": ("cotg_pgs:iterations=1,responses=0", "time_limit", 0.5),
    "PGS_3_3": ("cotg_pgs:iterations=3,responses=3", "time_limit", 0.5),
    "PGS_5_5": ("cotg_pgs:iterations=5,responses=5", "time_limit", 0.5),
    "MCTS_100": ("cotg_mcts", "time_limit", 0.1),
    "MCTS_500": ("cotg_mcts", "time_limit", 0.5),
    "MCTS_2000": ("cotg_mcts", "time_limit", 2.0),
    "MCTS_HP_100": ("cotg_mcts_hp", "time_limit", 0.1),
    "MCTS_HP_500": ("cotg_mcts_hp", "time_limit", 0.5),
    "MCTS_HP_2000": ("cotg_mcts_hp", "time_limit", 2.0),
}

#: The round robin of the paper's Figures 5-9.
PAPER_ROUND_ROBIN = (
    "NOKAV",
    "Kiter",
    "PGS_1_0",
    "PGS_3_3",
    "PGS_5_5",
    "MCTS_100",
    "MCTS_500",
    "MCTS_2000",
    "MCTS_HP_100",
    "MCTS_HP_500",
    "MCTS_HP_2000",
)


def agent_spec(name: str, time_scale: float = 1.0) -> str:
    """The agent spec of a paper name (time limits scaled), or ``name`` itself if it is a spec.

    Raises:
        ValueError: For a name that is neither a paper agent nor a ``cotg_`` agent spec.
    """
    if name in PAPER_AGENTS:
        spec, key, limit = PAPER_AGENTS[name]
        if key is None:
            return spec
        sep = "," if ":" in spec else ":"
        return f"{spec}{sep}{key}={limit * time_scale:.6g}"
    if name.startswith("cotg_") or ":" in name:
        return name
    raise ValueError(
        f"unknown agent {name!r}; paper agents: {', '.join(PAPER_AGENTS)}, or a cotg_ agent spec"
    )


def run_round_robin(
    agents: Sequence[str],
    *,
    units: int,
    scenarios: int,
    repeats: int = 1,
    time_scale: float = 1.0,
    workers: int = 1,
    out: str | Path,
    base_seed: int = 2018,
    progress: bool = True,
) -> TournamentResult:
    """Play every pairing of ``agents`` on the same scenarios with the tournament runner.

    Each symmetric battle is a game pair of the runner (``level_seeds``: the scenarios), scored
    by the paper's sym-win (``symmetric``, ``tie_break="hp"``). With ``progress``, one line per
    game goes to this module's logger at INFO level.

    Raises:
        ValueError: For fewer than two distinct agents, an unknown agent, or an ``out`` file
            of the earlier runner (its records cannot be resumed; ``report`` reads them).
    """
    if len(set(agents)) != len(agents) or len(agents) < 2:
        raise ValueError(f"need at least two distinct agents, got {list(agents)}")
    path = Path(out)
    if path.exists() and any(_is_battle(record) for record in _lines([path])):
        raise ValueError(
            f"{path} holds symmetric battles of the earlier runner: 'report' reads them, but a "
            "new run needs another --out"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    specs = {name: agent_spec(name, time_scale) for name in agents}
    games = 2 * scenarios * repeats
    start = time.perf_counter()
    played = 0

    def log(record: dict[str, Any]) -> None:
        nonlocal played
        played += 1
        if progress:
            scenario = record["index"] // 2 % scenarios
            logger.info(
                "[%d] %s v %s scenario %d, %s first: returns %s  (%.1f s/game)",
                played,
                record["row"],
                record["col"],
                scenario,
                record["names"][0],
                record["returns"],
                (time.perf_counter() - start) / played,
            )

    return run_tournament(
        "cotg_combat",
        specs,
        games=games,
        config={"units": units},
        level_seeds=[base_seed + i for i in range(scenarios)],
        workers=workers,
        out=path,
        on_result=log,
        symmetric=True,
        tie_break="hp",
    )


def _lines(paths: Iterable[str | Path]) -> list[dict[str, Any]]:
    """Every record of the given JSON Lines files (either runner's), in file order.

    A line that is not a record (the torn last line of a killed run) is skipped with a warning,
    as the tournament runner skips it (and plays its game again) when it resumes.
    """
    out = []
    for path in paths:
        with Path(path).open(encoding="utf-8") as fh:
            for number, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as exc:
                    problem: str | None = f"not valid JSON ({exc.msg})"
                else:
                    problem = None if _is_battle(record) else record_problem(record)
                if problem is not None:
                    logger.warning("%s:%d: skipped, %s", path, number, problem)
                    continue
                out.append(record)
    return out


def _is_battle(record: Mapping[str, Any]) -> bool:
    """A symmetric battle of the earlier runner (two games in one record)."""
    return "games" in record and "sym" in record


def read_battles(paths: Iterable[str | Path]) -> list[dict[str, Any]]:
    """The symmetric battles of result files, whichever runner wrote them.

    A battle is ``{"a", "b", "sym", "games"}``: agent A's sym-win score and its two games, A
    first (``"first": "a"``) then B, each with the ``winner`` (0, 1, or -1 for a draw), the hit
    points left per seat, and per seat the longest turn in CPU and wall seconds and the mean
    search iterations per searched turn (``None`` for an agent that does not search). Records
    of the tournament runner are grouped into game pairs; a pair with a game missing (an
    interrupted run) is left out.
    """
    battles: list[dict[str, Any]] = []
    pairs: dict[tuple[str, str, str, int, int], dict[int, dict[str, Any]]] = {}
    for record in _lines(paths):
        if _is_battle(record):
            battles.append(record)
            continue
        config = json.dumps(record["config"], sort_keys=True)
        key = (config, record["row"], record["col"], record["seed"], record["index"] // 2)
        pairs.setdefault(key, {})[record["index"] % 2] = record
    for (_, a, b, _, _), games in pairs.items():
        if len(games) < 2:
            continue
        battles.append(
            {
                "a": a,
                "b": b,
                "config": games[0]["config"],
                "sym": pair_score(games[0], games[1], a, b, "hp"),
                "games": [_game(games[k], a) for k in (0, 1)],
            }
        )
    return battles


def _game(record: Mapping[str, Any], a: str) -> dict[str, Any]:
    """A runner's game record in the form of a battle's game."""
    returns = record["returns"]
    winner = 0 if returns[0] > returns[1] else 1 if returns[1] > returns[0] else -1
    searches, iterations = record["searches"], record["search_iterations"]
    return {
        "first": "a" if record["names"][0] == a else "b",
        "winner": winner,
        "turns": int(record["stats"]["turns"]),
        "hp": [round(v) for v in record["stats"]["hp"]],
        "max_turn_cpu": record["max_turn_cpu_seconds"],
        "max_turn_wall": record["max_turn_seconds"],
        "mean_iterations": [
            i / s if s else None for i, s in zip(iterations, searches, strict=True)
        ],
    }


def _ci95(scores: Sequence[float]) -> float:
    if len(scores) < 2:
        return float("nan")
    return 1.96 * float(np.std(scores, ddof=1)) / math.sqrt(len(scores))


def summarize(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per-agent sym-win rates with CIs, game win rates, HP left and times; pairwise matrix.

    Args:
        records: Battles (:func:`read_battles`).
    """
    sym: dict[str, list[float]] = defaultdict(list)
    wins: dict[str, list[float]] = defaultdict(list)
    hp_left: dict[str, int] = defaultdict(int)
    hp_games: dict[str, int] = defaultdict(int)
    max_cpu: dict[str, list[float]] = defaultdict(list)
    max_wall: dict[str, list[float]] = defaultdict(list)
    iters: dict[str, list[float]] = defaultdict(list)
    pair: dict[tuple[str, str], list[float]] = defaultdict(list)
    order: list[str] = []
    for rec in records:
        a, b, s = rec["a"], rec["b"], rec["sym"]
        for name in (a, b):
            if name not in order:
                order.append(name)
        sym[a].append(s)
        sym[b].append(1.0 - s)
        pair[(a, b)].append(s)
        pair[(b, a)].append(1.0 - s)
        for game in rec["games"]:
            seats = (a, b) if game["first"] == "a" else (b, a)
            for seat, name in enumerate(seats):
                w = game["winner"]
                wins[name].append(1.0 if w == seat else 0.5 if w == -1 else 0.0)
                hp_left[name] += game["hp"][seat]
                hp_games[name] += 1
                max_cpu[name].append(game["max_turn_cpu"][seat])
                max_wall[name].append(game["max_turn_wall"][seat])
                if game["mean_iterations"][seat] is not None:
                    iters[name].append(game["mean_iterations"][seat])
    agents = {}
    for name in order:
        agents[name] = {
            "battles": len(sym[name]),
            "sym_win": float(np.mean(sym[name])),
            "sym_win_ci95": _ci95(sym[name]),
            "game_win": float(np.mean(wins[name])),
            "hp_left": hp_left[name],
            "games": hp_games[name],
            "avg_max_cpu": float(np.mean(max_cpu[name])),
            "p90_max_cpu": float(np.percentile(max_cpu[name], 90)),
            "avg_max_wall": float(np.mean(max_wall[name])),
            "p90_max_wall": float(np.percentile(max_wall[name], 90)),
            "iterations": float(np.mean(iters[name])) if iters[name] else None,
        }
    matrix = {f"{a}|{b}": float(np.mean(v)) for (a, b), v in pair.items()}
    return {"agents": agents, "order": order, "matrix": matrix}


def format_report(summary: dict[str, Any], title: str = "") -> str:
    """Markdown tables of a :func:`summarize` result (agents sorted by sym-win rate)."""
    agents = summary["agents"]
    order = sorted(summary["order"], key=lambda n: -agents[n]["sym_win"])
    lines = []
    if title:
        lines += [f"#### {title}", ""]
    lines += [
        "| agent | sym-win rate | 95% CI | game win rate | HP left (sum) | avg max turn "
        "CPU s | p90 max turn CPU s | avg max turn wall s | iterations/turn |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name in order:
        s = agents[name]
        ci = "n/a" if math.isnan(s["sym_win_ci95"]) else f"± {s['sym_win_ci95']:.2f}"
        it = "" if s["iterations"] is None else f"{s['iterations']:.0f}"
        lines.append(
            f"| {name} | {s['sym_win']:.2f} | {ci} | {s['game_win']:.2f} | {s['hp_left']} | "
            f"{s['avg_max_cpu']:.3f} | {s['p90_max_cpu']:.3f} | {s['avg_max_wall']:.3f} | {it} |"
        )
    n = {agents[name]["battles"] for name in order}
    lines += ["", f"Symmetric battles per agent: {', '.join(map(str, sorted(n)))}.", ""]
    lines += ["Row agent's sym-win rate against the column agent:", ""]
    lines.append("| | " + " | ".join(order) + " |")
    lines.append("|---" * (len(order) + 1) + "|")
    for a in order:
        cells = []
        for b in order:
            value = summary["matrix"].get(f"{a}|{b}")
            cells.append("—" if value is None else f"{value:.2f}")
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def measure_playouts(units: int, seconds: float = 3.0, seed: int = 0) -> dict[str, float]:
    """Script playouts per second from generated scenarios: what bounds every search here.

    Measures, in CPU time, complete battles played (a) by NOKAV for every unit (PGS's seeding
    playout), (b) with a uniformly random script of the paper's portfolio (Kiter, NOKAV) per
    unit and turn (MCTS's playout), and (c) the same cut at 20 player-turns (PGS's playout
    length), with the forward-model calls (unit moves, attacks, ends of turn) per second.
    """
    game: Any = make_game("cotg_combat", units=units)
    game.grid.dist  # noqa: B018  (build the distance table outside the timing)
    fns = (SCRIPTS["kiter"], SCRIPTS["nokav"])
    out: dict[str, float] = {}
    for label, limit, randomised in (
        ("nokav", None, False),
        ("random_script", None, True),
        ("random_script_20_turns", 20, True),
    ):
        prng = random.Random(seed)
        done = calls = turns = 0
        start = time.process_time()
        while time.process_time() - start < seconds or done < 3:
            state = game.new_initial_state(seed + done)
            played = 0
            while state.winner is None and (limit is None or played < limit):
                scripts = [fns[prng.randrange(2)] for _ in range(units)] if randomised else fns[1]
                calls += play_turn(state, scripts)
                played += 1
            done += 1
            turns += played
        elapsed = time.process_time() - start
        out[f"{label}_playouts_per_s"] = done / elapsed
        out[f"{label}_calls_per_s"] = calls / elapsed
        out[f"{label}_turns_per_playout"] = turns / done
    return out


def measure_iterations(
    units: int, agents: Sequence[str], scenarios: int = 5, time_scale: float = 1.0
) -> dict[str, dict[str, float]]:
    """Search effort of the first decision of a battle (mean over ``scenarios`` scenarios).

    MCTS reports iterations (each one expansion of a whole turn and one playout), PGS its
    playouts and cache hits; both report forward-model calls and CPU seconds. Later decisions of
    a battle near its end run faster (shorter playouts, terminal nodes), so this is the figure
    to compare with the paper's "hundreds of iterations" at the start of a battle.
    """
    game: Any = make_game("cotg_combat", units=units)
    game.grid.dist  # noqa: B018  (build the distance table outside the timing)
    out: dict[str, dict[str, float]] = {}
    for name in agents:
        agent = make_agent(agent_spec(name, time_scale), game)
        rows: dict[str, list[float]] = defaultdict(list)
        for scenario in range(scenarios):
            state = game.new_initial_state(2018 + scenario)
            agent.reset()
            agent.act(state.observed_by(state.current_player), rng=np.random.default_rng(scenario))
            for key in ("iterations", "playouts", "cache_hits", "fm_calls", "cpu_seconds"):
                if key in agent.last_stats:
                    rows[key].append(float(agent.last_stats[key]))
        out[name] = {key: float(np.mean(values)) for key, values in rows.items()}
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``run`` a round robin, ``report`` result files as Markdown, or measure."""
    parser = argparse.ArgumentParser(prog="python3 benchmarks/cotg_combat/experiments.py")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="play a round robin of symmetric battles")
    run.add_argument("--units", type=int, required=True, help="units per side")
    run.add_argument(
        "--agents", default=",".join(PAPER_ROUND_ROBIN), help="comma-separated agent names"
    )
    run.add_argument("--scenarios", type=int, default=4, help="scenarios per pairing")
    run.add_argument("--repeats", type=int, default=1, help="plays of each symmetric battle")
    run.add_argument("--time-scale", type=float, default=1.0, help="multiplies time limits")
    run.add_argument("--workers", type=int, default=1)
    run.add_argument("--seed", type=int, default=2018, help="seed of scenario 0")
    run.add_argument("--out", required=True, help="JSON Lines file (appended, resumable)")
    run.add_argument("--no-progress", action="store_true", help="no line per game")
    report = sub.add_parser("report", help="print Markdown tables of result files")
    report.add_argument("files", nargs="+")
    report.add_argument("--title", default="")
    report.add_argument("--json", action="store_true", help="print the summary as JSON")
    playouts = sub.add_parser("playouts", help="measure script playouts per second")
    playouts.add_argument("--units", type=int, nargs="+", default=[5, 32])
    playouts.add_argument("--seconds", type=float, default=3.0)
    effort = sub.add_parser("iterations", help="search effort of a battle's first decision")
    effort.add_argument("--units", type=int, nargs="+", default=[5, 16, 32])
    effort.add_argument("--agents", default="PGS_1_0,PGS_3_3,PGS_5_5,MCTS_100,MCTS_HP_100")
    effort.add_argument("--scenarios", type=int, default=5)
    effort.add_argument("--time-scale", type=float, default=1.0)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")  # run's progress, on stderr
    if args.command == "iterations":
        print("| units | agent | iterations | playouts | cache hits | fm calls | CPU s |")
        print("|---|---|---|---|---|---|---|")
        for units in args.units:
            result = measure_iterations(
                units, args.agents.split(","), args.scenarios, args.time_scale
            )
            for name, row in result.items():
                cells = [
                    f"{row[k]:,.0f}" if k in row else ""
                    for k in ("iterations", "playouts", "cache_hits", "fm_calls")
                ]
                print(
                    f"| {units}v{units} | {name} | "
                    + " | ".join(cells)
                    + f" | {row.get('cpu_seconds', 0):.3f} |"
                )
        return 0
    if args.command == "playouts":
        for units in args.units:
            result = measure_playouts(units, args.seconds)
            print(f"{units}v{units}: " + ", ".join(f"{k} {v:,.1f}" for k, v in result.items()))
        return 0
    if args.command == "run":
        try:
            run_round_robin(
                args.agents.split(","),
                units=args.units,
                scenarios=args.scenarios,
                repeats=args.repeats,
                time_scale=args.time_scale,
                workers=args.workers,
                out=args.out,
                base_seed=args.seed,
                progress=not args.no_progress,
            )
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        battles = [b for b in read_battles([args.out]) if b["config"] == {"units": args.units}]
        print(format_report(summarize(battles), f"{args.units}v{args.units}"))
        return 0
    summary = summarize(read_battles(args.files))
    print(json.dumps(summary, indent=2) if args.json else format_report(summary, args.title))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
