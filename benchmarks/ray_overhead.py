"""What ``--backend ray`` costs a game against ``--workers``, on one machine (docs/distributed.md).

Runs the same ``stratagem tournament`` command with ``--workers W`` (worker processes) and with
``--backend ray`` (a local Ray instance with W CPUs, started and stopped by the command) for two
numbers of games, interleaved and repeated, and reports the median wall time of each. The
difference of the slopes is Ray's cost per game; the difference of the intercepts its fixed cost
(starting and stopping the Ray instance, against starting the process pool). The games are short
(the rule-based agent against random play, a few milliseconds each), so that the per-game cost
shows; the load average before each run is printed, since the machine may be shared.

Usage: ``python benchmarks/ray_overhead.py [--games 200 2000] [--repeats 3] [--workers 2]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMAND = [
    *(sys.executable, "-m", "stratagem", "tournament", "kill_the_king"),
    *("--agents", "rule_based,random", "-c", "map=kwah:3", "--no-progress"),
]


def run(games: int, backend: str, workers: int, out: Path) -> float:
    """Wall seconds of one tournament of ``games`` games per pairing, from a fresh file."""
    out.unlink(missing_ok=True)
    argv = [*COMMAND, "--games", str(games), "--workers", str(workers), "--backend", backend]
    start = time.perf_counter()
    subprocess.run([*argv, "-o", str(out)], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    """Measure and print the medians, the slopes and the intercepts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs=2, default=[200, 2000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    times: dict[tuple[str, int], list[float]] = {}
    loads = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.jsonl"
        for rep in range(args.repeats):
            for n in args.games:
                for backend in ("local", "ray"):
                    loads.append(os.getloadavg()[0])
                    seconds = run(n, backend, args.workers, out)
                    times.setdefault((backend, n), []).append(seconds)
                    print(f"rep {rep} {backend:5} {n:5} games {seconds:6.2f} s", flush=True)
    low, high = args.games
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"load average (1 min) before the runs: {min(loads):.1f} to {max(loads):.1f}")
    for backend in ("local", "ray"):
        slope = (med[(backend, high)] - med[(backend, low)]) / (high - low)
        fixed = med[(backend, low)] - slope * low
        print(
            f"{backend:5}: median {med[(backend, low)]:.2f} s ({low} games), "
            f"{med[(backend, high)]:.2f} s ({high} games); {1000 * slope:.2f} ms a game, "
            f"{fixed:.2f} s fixed"
        )
    extra = (
        med[("ray", high)] - med[("ray", low)] - med[("local", high)] + med[("local", low)]
    ) / (high - low)
    print(f"ray minus local: {1000 * extra:.2f} ms a game")


if __name__ == "__main__":
    main()
