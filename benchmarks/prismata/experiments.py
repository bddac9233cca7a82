"""The HPS paper's experiments at a scale this machine can run, and the spec's game figures.

Usage (each writes JSON Lines results under ``--out``, by default ``results/`` next to this
script, the raw results of ``docs/results/prismata.md``, and prints Markdown tables)::

    python3 benchmarks/prismata/experiments.py lengths --games 100
    python3 benchmarks/prismata/experiments.py table2 --playouts 4 --games 10
    python3 benchmarks/prismata/experiments.py table3 --budgets 2,8 --games 8
    python3 benchmarks/prismata/experiments.py report

Budgets. The paper's searches are time-limited (100, 1000, 3000 ms of a C++ engine). Our engine
is Python, about 50 times slower per playout, and the machine is shared, so the searches here
spend a fixed number of evaluation playouts per decision instead (machine-independent and
reproducible). The C++ engine plays about 142 Playout-vs-Playout games a second on base+8
(``specs/prismata_rules.md`` section 9), so 100 ms is about 14 playouts; ``--playouts 4`` runs
Table 2 at about 30 ms of the reference. Expert keeps its depth limit (2 player-turns) with ten
times the budget of the 100 ms searches, as 1000 ms is ten times 100 ms.

Games: base set + 8 random cards (the paper's setting), seats alternating, seeds shared by all
pairings (the tournament protocol of :mod:`stratagem.baselines.tournament`).

This is a paper's reproduction, not library code: it uses the public API only.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.baselines import BaseAgent, make_agent
from stratagem.baselines.match import play_game
from stratagem.baselines.tournament import run_tournament
from stratagem.envs import State, make_game

#: The raw results of ``docs/results/prismata.md`` (next to this script, wherever it is run from).
DEFAULT_OUT = Path(__file__).resolve().parent / "results"

logger = logging.getLogger(__name__)


def _spec(bot: str, **params: Any) -> str:
    extra = "".join(f",{k}={v}" for k, v in params.items())
    return f"rule_based:bot={bot}{extra}"


# ---------------------------------------------------------------------------------- lengths
class UniformAgent(BaseAgent):
    """A uniform pick from ``legal_action_list()`` with ``rng.integers``: the spec's random play.

    The spec's figures of uniformly random games were measured with exactly this draw, so it
    stays here rather than following the library's random agent if that ever draws otherwise.
    """

    name = "uniform"

    def act(self, state: State, *, rng: np.random.Generator) -> int:
        """One legal action, uniformly."""
        legal = state.legal_action_list()
        return int(legal[int(rng.integers(len(legal)))])


def _lengths(games: int, out: Path) -> list[dict[str, Any]]:
    """Game lengths of random and scripted self-play, against the spec's C++ figures.

    Game ``k`` of a setup starts from seed ``k``, and both seats draw from one generator seeded
    ``k`` (:func:`~stratagem.baselines.match.play_game`).
    """
    rows = []
    setups = [
        ("uniform random actions", None),
        ("RandomAI bot", "prismata_random"),
        ("Playout bot", "prismata_playout"),
    ]
    for cards in ("base", "random:8"):
        game = make_game("prismata", cards=cards)
        for label, spec in setups:
            n = games * (4 if spec is None else 1)
            turns, p0, limit = [], 0, 0
            start = time.perf_counter()
            for seed in range(n):
                players = [
                    UniformAgent() if spec is None else make_agent(spec, game) for _ in range(2)
                ]
                state: Any = play_game(game, players, seed=seed, verbose=False)
                turns.append(state.turn)
                p0 += state.winner == 0
                limit += state.winner == -1
            seconds = time.perf_counter() - start
            rows.append(
                {
                    "cards": cards,
                    "players": label,
                    "games": n,
                    "mean_turns": float(np.mean(turns)),
                    "se_turns": float(np.std(turns) / math.sqrt(n)),
                    "turn_limit_pct": 100.0 * limit / n,
                    "p0_win_pct": 100.0 * p0 / n,
                    "games_per_s": n / seconds,
                }
            )
            logger.info("%s", json.dumps(rows[-1]))
    out.mkdir(parents=True, exist_ok=True)
    (out / "lengths.json").write_text(json.dumps(rows, indent=1))
    return rows


def _lengths_table(rows: Sequence[Mapping[str, Any]]) -> str:
    ref = {
        ("base", "RandomAI bot"): "90 turns, 26% limit",
        ("random:8", "RandomAI bot"): "73 turns, 15% limit",
        ("base", "Playout bot"): "35 turns, P1 100%",
        ("random:8", "Playout bot"): "34.5 turns, P1 57%",
    }
    lines = [
        "| cards | players | games | turns (mean ± SE) | turn limit | player 0 wins | games/s | "
        "C++ reference |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['cards']} | {r['players']} | {r['games']} | {r['mean_turns']:.1f} ± "
            f"{r['se_turns']:.1f} | {r['turn_limit_pct']:.0f}% | {r['p0_win_pct']:.0f}% | "
            f"{r['games_per_s']:.1f} | {ref.get((r['cards'], r['players']), '-')} |"
        )
    return "\n".join(lines)


# ---------------------------------------------------------------------------------- tables
def _table2_agents(playouts: int) -> dict[str, str]:
    return {
        "UCT100": _spec("UCT100", time_limit_ms=0, max_playouts=playouts),
        "AB100": _spec("AB100", time_limit_ms=0, max_playouts=playouts),
        "Expert": _spec("Expert", time_limit_ms=0, max_playouts=10 * playouts),
        "Medium": _spec("Medium"),
        "Easy": _spec("Easy"),
        "Random": _spec("Random"),
    }


def _table3_agents(budgets: Sequence[int]) -> dict[str, str]:
    agents = {}
    for b in budgets:
        agents[f"AB-{b}"] = _spec("AB100", time_limit_ms=0, max_playouts=b)
        agents[f"UCT-{b}"] = _spec("UCT100", time_limit_ms=0, max_playouts=b)
    return agents


def _run(
    agents: Mapping[str, str],
    games: int,
    workers: int,
    out: Path,
    against: Mapping[str, str] | None = None,
    seed: int = 0,
) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    run_tournament(
        "prismata",
        dict(agents),
        games=games,
        against=dict(against) if against else None,
        config={"cards": "random:8"},
        seed=seed,
        workers=workers,
        out=out,
        progress=False,
        on_result=lambda r: logger.info(
            "%s vs %s game %s: seats %s scores %s, %s turns, %.0fs",
            r["row"],
            r["col"],
            r["index"],
            r["names"],
            r["scores"],
            r["stats"].get("turns", "?"),
            r["seconds"],
        ),
    )


def _records(paths: Sequence[Path]) -> list[dict[str, Any]]:
    records = []
    for path in paths:
        if path.exists():
            for line in path.read_text().splitlines():
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError:
                    continue
    return records


def _matrix(records: Sequence[Mapping[str, Any]], order: Sequence[str]) -> str:
    """Row-versus-column win rates (draws half) with standard errors and game counts."""
    scores: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in records:
        a, b = r["row"], r["col"]
        names = r["names"]
        sa = r["scores"][names.index(a)]
        sb = r["scores"][names.index(b)]
        scores[(a, b)].append(sa)
        scores[(b, a)].append(sb)
    present = [n for n in order if any(k[0] == n for k in scores)]
    head = "| row vs column | " + " | ".join(present) + " | avg |"
    lines = [head, "|---" * (len(present) + 2) + "|"]
    for a in present:
        cells = []
        means = []
        for b in present:
            s = scores.get((a, b))
            if a == b or not s:
                cells.append("-")
                continue
            m = float(np.mean(s))
            means.append(m)
            if len(s) == 1:  # no standard error from one game
                cells.append(f"{100 * m:.0f} (1)")
                continue
            se = float(np.std(s) / math.sqrt(len(s)))
            cells.append(f"{100 * m:.0f} ± {100 * se:.0f} ({len(s)})")
        avg = f"{100 * float(np.mean(means)):.0f}" if means else "-"
        lines.append(f"| {a} | " + " | ".join(cells) + f" | {avg} |")
    return "\n".join(lines)


def _time_table(records: Sequence[Mapping[str, Any]], order: Sequence[str]) -> str:
    per: dict[str, list[float]] = defaultdict(list)
    turns: dict[str, list[int]] = defaultdict(list)
    for r in records:
        t = r["stats"].get("turns")
        for seat, name in enumerate(r["names"]):
            if t:
                own = (t + 1 - seat) // 2  # player 0 plays the odd-numbered turns
                per[name].append(r["agent_seconds"][seat] / max(1, own))
                turns[name].append(t)
    lines = [
        "| agent | seconds per own turn (mean) | game length in turns (mean) | games |",
        "|---|---|---|---|",
    ]
    for n in order:
        if per.get(n):
            lines.append(
                f"| {n} | {np.mean(per[n]):.2f} | {np.mean(turns[n]):.1f} | {len(per[n])} |"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python3 benchmarks/prismata/experiments.py")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("lengths", help="random and scripted game lengths vs the spec figures")
    p.add_argument("--games", type=int, default=100)
    p = sub.add_parser("table2", help="difficulty bots round robin (paper Table 2)")
    p.add_argument("--playouts", type=int, default=4, help="playouts per decision of UCT100/AB100")
    p.add_argument("--games", type=int, default=10, help="games per pairing with a search bot")
    p.add_argument("--scripted-games", type=int, default=40, help="games per scripted pairing")
    p = sub.add_parser("table3", help="UCT and Alpha-Beta at several budgets (paper Table 3)")
    p.add_argument("--budgets", default="2,8", help="comma-separated playouts per decision")
    p.add_argument("--games", type=int, default=8)
    sub.add_parser("report", help="print the tables of the results found under --out")
    for q in sub.choices.values():
        q.add_argument("--out", type=Path, default=DEFAULT_OUT)
        q.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")  # progress lines, on stderr
    out: Path = args.out
    if args.command == "lengths":
        print(_lengths_table(_lengths(args.games, out)))
    elif args.command == "table2":
        agents = _table2_agents(args.playouts)
        scripted = {k: v for k, v in agents.items() if k in ("Medium", "Easy", "Random")}
        search = {k: v for k, v in agents.items() if k not in scripted}
        _run(scripted, args.scripted_games, args.workers, out / "table2_scripted.jsonl")
        _run(search, args.games, args.workers, out / "table2_search.jsonl")
        _run(search, args.games, args.workers, out / "table2_gauntlet.jsonl", against=scripted)
        print(_report(out))
    elif args.command == "table3":
        budgets = [int(b) for b in args.budgets.split(",")]
        _run(_table3_agents(budgets), args.games, args.workers, out / "table3.jsonl")
        print(_report(out))
    else:
        print(_report(out))
    return 0


def _report(out: Path) -> str:
    """The Markdown tables of the results under ``out`` (``main`` prints them)."""
    parts: list[str] = []
    t2 = _records(
        [out / "table2_scripted.jsonl", out / "table2_search.jsonl", out / "table2_gauntlet.jsonl"]
    )
    order2 = ["UCT100", "AB100", "Expert", "Medium", "Easy", "Random"]
    if t2:
        parts.append("Table 2 (row win %, draws half; ± standard error; games):\n")
        parts.append(_matrix(t2, order2) + "\n")
        parts.append(_time_table(t2, order2) + "\n")
    t3 = _records([out / "table3.jsonl"])
    if t3:
        names = sorted(
            {n for r in t3 for n in r["names"]}, key=lambda n: (-int(n.split("-")[1]), n)
        )
        parts.append("Table 3 (row win %, draws half; ± standard error; games):\n")
        parts.append(_matrix(t3, names) + "\n")
        parts.append(_time_table(t3, names))
    lengths = out / "lengths.json"
    if lengths.exists():
        parts.append("\nGame lengths:\n")
        parts.append(_lengths_table(json.loads(lengths.read_text())))
    return "\n".join(parts)


if __name__ == "__main__":
    raise SystemExit(main())
