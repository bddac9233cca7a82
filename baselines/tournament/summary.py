"""Summaries of finished games: :class:`TournamentResult`, the papers' tables, the heat map.

Everything here works on game records only (from a run or from a results file): win rates with
standard errors, symmetric battles (:func:`pair_score`), per-agent aggregates, the printed
tables (:func:`format_tables`) and the win-rate heat map (:func:`plot_heatmap`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["TournamentResult", "format_tables", "pair_score", "plot_heatmap"]


@dataclass
class TournamentResult:
    """Finished games of a tournament, with the tables of the papers.

    Attributes:
        game: Registry name.
        agents: Agent names in table order.
        records: One record per finished game (see :func:`play_task`).
        pending: Games not played (interrupted run).
        symmetric: Score each pair of games (one level, seats switched) as one battle (see
            :func:`pair_score`) instead of each game.
        tie_break: Per-player end statistic that decides a split pair (symmetric scoring).
    """

    game: str
    agents: list[str]
    records: list[dict[str, Any]] = field(default_factory=list)
    pending: int = 0
    symmetric: bool = False
    tie_break: str | None = None

    def scores(self, row: str, col: str | None = None) -> list[float]:
        """Scores of ``row`` in its games, or its pairs when symmetric (against ``col`` only)."""
        if self.symmetric:
            return [
                score if a == row else 1.0 - score
                for a, b, score in self.battles()
                if (a == row and col in (None, b)) or (b == row and col in (None, a))
            ]
        out = []
        for rec in self.records:
            names = rec["names"]
            if (
                row not in names
                or (col is not None and col not in names)
                or (col is None and len(set(names)) < 2)
            ):
                continue
            if col is not None and col == row:
                continue
            seats = [k for k, name in enumerate(names) if name == row]
            out.append(sum(rec["scores"][k] for k in seats) / len(seats))
        return out

    def battles(self) -> list[tuple[str, str, float]]:
        """``(row agent, column agent, row agent's score)`` of every complete pair of games.

        A pair is games ``2p`` and ``2p + 1`` of a pairing: the same level with the seats
        switched. A pair with one game missing (an interrupted run) is left out.
        """
        pairs: dict[tuple[str, str, int], dict[int, dict[str, Any]]] = {}
        for rec in self.records:
            pair, second = divmod(rec["index"], 2)
            pairs.setdefault((rec["row"], rec["col"], pair), {})[second] = rec
        return [
            (row, col, pair_score(games[0], games[1], row, col, self.tie_break))
            for (row, col, _), games in pairs.items()
            if len(games) == 2
        ]

    def matrix(self) -> list[list[tuple[float, float, int] | None]]:
        """``[row][col]`` = (win rate, standard error, games or pairs) of row against col."""
        return [
            [None if r == c else _rate(self.scores(r, c)) for c in self.agents] for r in self.agents
        ]

    def table(self) -> str:
        """The printed tables (see :func:`format_tables`)."""
        return format_tables(self)


def pair_score(
    first: Mapping[str, Any],
    second: Mapping[str, Any],
    a: str,
    b: str,
    tie_break: str | None = None,
) -> float:
    """Agent ``a``'s score in the symmetric battle of two game records against agent ``b``.

    The CotG paper's sym-win: the agent that won more of the two games scores 1 and the other
    0; when they won equally many (1:1, or two draws) the agent whose seats have the larger sum
    of the per-player end statistic ``tie_break`` over both games scores 1 (the paper: hit
    points left); 0.5 each when that is equal too, or without a tie-break.

    Raises:
        ValueError: If a game is not between ``a`` and ``b`` or lacks the tie-break statistic.
    """
    wins = {a: 0, b: 0}
    totals = {a: 0.0, b: 0.0}
    for rec in (first, second):
        names = list(rec["names"])
        if sorted(names) != sorted([a, b]):
            raise ValueError(f"game {rec.get('key')} is {names}, not a game of {a} against {b}")
        for name in (a, b):
            seat = names.index(name)
            wins[name] += rec["scores"][seat] == 1.0
            if tie_break is not None:
                value = rec["stats"].get(tie_break)
                if not isinstance(value, list):
                    raise ValueError(
                        f"tie-break {tie_break!r} is not a per-player end statistic of game "
                        f"{rec.get('key')} (it has {', '.join(sorted(rec['stats'])) or 'none'})"
                    )
                totals[name] += float(value[seat])
    if wins[a] != wins[b]:
        return 1.0 if wins[a] > wins[b] else 0.0
    if totals[a] != totals[b]:
        return 1.0 if totals[a] > totals[b] else 0.0
    return 0.5


def _rate(scores: Sequence[float]) -> tuple[float, float, int] | None:
    if not scores:
        return None
    n = len(scores)
    mean = sum(scores) / n
    var = max(0.0, sum(s * s for s in scores) / n - mean * mean)
    return mean, math.sqrt(var / n), n


def _cell(rate: tuple[float, float, int] | None) -> str:
    if rate is None:
        return "-"
    return f"{100 * rate[0]:.1f} ({100 * rate[1]:.1f})"


def _agent_stats(result: TournamentResult, name: str) -> dict[str, Any]:
    """Per-agent aggregates: record (games, or pairs when symmetric), timing, end statistics."""
    scores = result.scores(name)
    wins = sum(s == 1.0 for s in scores)
    losses = sum(s == 0.0 for s in scores)
    draws = len(scores) - wins - losses
    decisions = 0
    seconds = 0.0
    calls = 0
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for rec in result.records:
        seats = [k for k, n in enumerate(rec["names"]) if n == name]
        if not seats or len(set(rec["names"])) < 2:
            continue
        for k in seats:
            decisions += rec["decisions"][k]
            seconds += rec["agent_seconds"][k]
            calls += rec["fm_calls"][k]
        for key, value in rec.get("stats", {}).items():
            v = (sum(value[k] for k in seats) / len(seats)) if isinstance(value, list) else value
            sums[key] = sums.get(key, 0.0) + float(v)
            counts[key] = counts.get(key, 0) + 1
        sums["decisions"] = sums.get("decisions", 0.0) + sum(rec["decisions"][k] for k in seats)
        counts["decisions"] = counts.get("decisions", 0) + 1
    return {
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "ms_per_decision": 1000 * seconds / decisions if decisions else float("nan"),
        "calls_per_decision": calls / decisions if decisions else float("nan"),
        "end": {k: sums[k] / counts[k] for k in sums},
    }


def _format_rows(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    )


def format_tables(result: TournamentResult) -> str:
    """The papers' tables as text.

    1. Win rate (%) of the row agent against the column agent, standard error in brackets,
       draws counted half, with the number of games per pairing (of pairs, when symmetric).
    2. Each agent's overall score with standard error, wins/draws/losses, time and forward-model
       calls per decision.
    3. Means of the game's end-of-game statistics over each agent's games (per-player figures
       are the agent's own).
    """
    names = result.agents
    out = []
    counts = sorted({r[2] for row in result.matrix() for r in row if r is not None})
    per = (", ".join(str(c) for c in counts) or "0") + " per pairing"
    unit = "games"
    if result.symmetric:
        unit = "pairs"
        per = per.replace(" per", " symmetric pairs per")
        if result.tie_break:
            per += f"; a split pair goes to the larger {result.tie_break}"
    out.append(
        f"{result.game}: {len(result.records)} games ({per})"
        + (f", {result.pending} not played" if result.pending else "")
    )
    out.append("Win rate % of row against column (standard error); draws count half")
    matrix = result.matrix()
    rows = [["", *names]]
    for name, cells in zip(names, matrix, strict=True):
        rows.append([name] + [_cell(c) for c in cells])
    out.append(_format_rows(rows))
    out.append("")
    stats = {n: _agent_stats(result, n) for n in names}
    rows = [
        [
            "agent",
            unit,
            "score % (se)",
            "wins",
            "draws",
            "losses",
            "ms/decision",
            "calls/decision",
        ]
    ]
    for name in names:
        rate = _rate(result.scores(name))
        s = stats[name]
        rows.append(
            [
                name,
                str(rate[2] if rate else 0),
                _cell(rate),
                str(s["wins"]),
                str(s["draws"]),
                str(s["losses"]),
                f"{s['ms_per_decision']:.1f}",
                f"{s['calls_per_decision']:.0f}",
            ]
        )
    out.append("Overall")
    out.append(_format_rows(rows))
    keys = sorted(
        {k for s in stats.values() for k in s["end"]}, key=lambda k: (k == "decisions", k)
    )
    if keys:
        out.append("")
        out.append("End of game (means over each agent's games; per-player figures are its own)")
        rows = [["agent", *keys]]
        for name in names:
            end = stats[name]["end"]
            rows.append([name] + [f"{end[k]:.1f}" if k in end else "-" for k in keys])
        out.append(_format_rows(rows))
    return "\n".join(out)


def plot_heatmap(result: TournamentResult, path: str | Path) -> None:
    """Write the win-rate matrix as a heat map PNG.

    Needs matplotlib (``pip install 'stratagem[plot]'``), imported only here so that the rest of
    the tournament code runs without it.

    Raises:
        RuntimeError: If matplotlib is not installed.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise RuntimeError("--plot needs matplotlib: pip install 'stratagem[plot]'") from exc
    names = result.agents
    matrix = result.matrix()
    data = np.array([[np.nan if c is None else 100 * c[0] for c in row] for row in matrix])
    size = 1.2 + 1.1 * len(names)
    fig, ax = plt.subplots(figsize=(size + 1.5, size))
    image = ax.imshow(data, cmap="RdYlGn", vmin=0, vmax=100)
    ax.set_xticks(range(len(names)), labels=names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), labels=names)
    for i, row in enumerate(matrix):
        for j, cell in enumerate(row):
            if cell is not None:
                ax.text(
                    j,
                    i,
                    f"{100 * cell[0]:.0f}\n±{100 * cell[1]:.0f}",
                    ha="center",
                    va="center",
                    fontsize=9,
                )
    ax.set_title(f"{result.game}: win rate % of row vs column")
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
