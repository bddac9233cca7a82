"""Seat (and Terra Mystica faction) win rates of random and rule-based self-play: docs/seats.md.

Why: a "win rate against random" only means something when the seats are fair or the learner's
seat is drawn at random (the Gymnasium default ``seat="random"``). This script measures how much
the first seat (and, in Terra Mystica, the faction) decides a game when both sides play alike.

Usage::

    python3 benchmarks/seat_win_rates.py --out benchmarks/results/seat_win_rates.json
    python3 benchmarks/seat_win_rates.py --report benchmarks/results/seat_win_rates.json

Every game is played in its default configuration (Terra Mystica also with ``factions="random"``
for the per-faction rates); game ``g`` uses seed ``g``; both seats are played by the same agent
spec. Uses only the public API.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from collections import defaultdict
from typing import Any

import stratagem  # noqa: F401  (registers the games)
from stratagem.baselines import make_agent
from stratagem.baselines.match import play_game
from stratagem.envs import list_games, make_game

#: (game, configuration, label) measured; Terra Mystica twice (fixed and random factions).
SETUPS: list[tuple[str, dict[str, Any], str]] = [
    *((name, {}, "default") for name in sorted(set(list_games()) - {"terra_mystica"})),
    # the default Kill The King map makes rule-based self-play one deterministic game
    ("kill_the_king", {"map": "kwah"}, "map=kwah"),
    ("terra_mystica", {}, "default"),
    ("terra_mystica", {"factions": "random"}, "factions=random"),
]

#: Games per setup and agent; the slow rule-based Tribes games get fewer.
GAMES = {"random": 1000, "rule_based": 400}
SLOW = {("tribes", "rule_based"): 200}


def play(name: str, config: dict[str, Any], spec: str, seed: int) -> dict[str, Any]:
    """One self-play game; returns the returns per seat and, for Terra Mystica, the factions."""
    game = make_game(name, **config)
    agents = [make_agent(spec, game) for _ in range(game.spec.num_players)]
    state = play_game(game, agents, seed=seed, verbose=False)  # one generator seeded ``seed``
    record: dict[str, Any] = {"seed": seed, "returns": [float(r) for r in state.returns()]}
    if hasattr(state, "faction_name"):
        record["factions"] = [state.faction_name(p) for p in range(game.spec.num_players)]
    return record


def measure(only: str | None = None) -> list[dict[str, Any]]:
    """Play every setup (or those of game ``only``) with both agents; one record per setup/agent."""
    results = []
    for name, config, label in SETUPS:
        if only is not None and name != only:
            continue
        for spec, n in GAMES.items():
            n = SLOW.get((name, spec), n)
            start = time.perf_counter()
            games = [play(name, config, spec, seed) for seed in range(n)]
            results.append(
                {
                    "game": name,
                    "config": config,
                    "label": label,
                    "agent": spec,
                    "games": games,
                    "seconds": time.perf_counter() - start,
                }
            )
            print(f"{name} {label} {spec}: {n} games, {results[-1]['seconds']:.0f} s", flush=True)
    return results


def _rate(wins: int, n: int) -> str:
    p = wins / n if n else 0.0
    se = math.sqrt(p * (1 - p) / n) if n else 0.0
    return f"{100 * p:.1f} ± {100 * se:.1f}"


def report(results: list[dict[str, Any]]) -> str:
    """Markdown tables: seat win rates per game and agent, then Terra Mystica factions."""
    lines = [
        "| game | configuration | agents (both seats) | games | seat 0 wins % | seat 1 wins % "
        "| draws % |",
        "|---|---|---|---|---|---|---|",
    ]
    factions: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for r in results:
        n = len(r["games"])
        wins = [0, 0]
        draws = 0
        for g in r["games"]:
            ret = g["returns"]
            best = max(ret)
            winners = [p for p, v in enumerate(ret) if v == best]
            if len(winners) == 1 and best > min(ret):
                wins[winners[0]] += 1
            else:
                draws += 1
            for p, fac in enumerate(g.get("factions", ())):
                if r["label"] == "factions=random":
                    entry = factions[r["agent"]][fac]
                    entry[0] += len(winners) == 1 and winners[0] == p and best > min(ret)
                    entry[1] += 1
        lines.append(
            f"| {r['game']} | {r['label']} | {r['agent']} | {n} | {_rate(wins[0], n)} "
            f"| {_rate(wins[1], n)} | {_rate(draws, n)} |"
        )
    for agent, table in factions.items():
        lines += [
            "",
            f'Terra Mystica, `factions="random"`, {agent} self-play: win rate of each faction '
            "(± standard error) over the games it played",
            "",
            "| faction | games | wins % |",
            "|---|---|---|",
        ]
        for fac, (w, n) in sorted(table.items(), key=lambda kv: -kv[1][0] / kv[1][1]):
            lines.append(f"| {fac} | {n} | {_rate(w, n)} |")
    return "\n".join(lines)


def main() -> int:
    """Measure (``--out``) or print the tables of a results file (``--report``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="write the raw results (JSON) here")
    parser.add_argument("--report", help="print the Markdown tables of a results file")
    parser.add_argument("--only", help="measure this game only, replacing its records in --out")
    args = parser.parse_args()
    if args.report:
        with open(args.report, encoding="utf-8") as fh:
            print(report(json.load(fh)))
        return 0
    results = measure(args.only)
    if args.only and args.out and os.path.exists(args.out):
        with open(args.out, encoding="utf-8") as fh:
            results = [r for r in json.load(fh) if r["game"] != args.only] + results
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(results, fh, separators=(",", ":"))
    print(report(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
