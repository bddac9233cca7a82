"""Learning curves from AlphaZero run logs: score against each evaluation opponent over CPU time.

    python3 benchmarks/training/plot_curves.py docs/results/training/pta_*.log \
        --out docs/results/training/pta_curves.png

Each log is the output of ``stratagem train alphazero`` (one ``iteration i/n: {...}`` line per
iteration); the curve of a run is its ``<opponent>/score`` against its cumulative ``cpu_seconds``.
The drawing is the package's (``stratagem plot-training``, which also draws the losses); this
script keeps the figure of docs/results/training.md: one opponent, scores only.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from stratagem.baselines.training_curves import plot_training_curves, read_training_log

__all__ = ["main", "read_log"]


def read_log(path: Path) -> list[dict]:
    """The metrics dictionary of every iteration line of a training log."""
    return read_training_log(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+", type=Path)
    parser.add_argument("--out", required=True)
    parser.add_argument("--opponent", default="rule_based")
    args = parser.parse_args()
    plot_training_curves(args.logs, args.out, opponents=[args.opponent], x="cpu", losses=False)


if __name__ == "__main__":
    main()
