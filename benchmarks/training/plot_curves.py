"""Learning curves from AlphaZero run logs: score against each evaluation opponent over CPU time.

    python3 benchmarks/training/plot_curves.py docs/results/training/pta_*.log \
        --out docs/results/training/pta_curves.png

Each log is the output of ``stratagem train alphazero`` (one ``iteration i/n: {...}`` line per
iteration); the curve of a run is its ``<opponent>/score`` against its cumulative ``cpu_seconds``.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path


def read_log(path: Path) -> list[dict]:
    """The metrics dictionary of every iteration line of a training log."""
    rows = []
    for line in path.read_text().splitlines():
        if line.startswith("iteration ") and ": {" in line:
            rows.append(ast.literal_eval(line.split(": ", 1)[1]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+", type=Path)
    parser.add_argument("--out", required=True)
    parser.add_argument("--opponent", default="rule_based")
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    key = f"{args.opponent}/score"
    for path in args.logs:
        rows = [r for r in read_log(path) if key in r]
        if rows:
            x = [r["cpu_seconds"] / 60 for r in rows]
            ax.plot(x, [r[key] for r in rows], marker="o", label=path.stem)
    ax.set_xlabel("training CPU minutes (self-play + training + evaluation)")
    ax.set_ylabel(f"score against {args.opponent} (20 games, draws half)")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)


if __name__ == "__main__":
    main()
