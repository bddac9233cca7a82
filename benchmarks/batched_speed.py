"""Random steps/s of the batched Stratega games against their scalar engines, per batch size.

For each game and batch size the script measures, alternately in the same process so that the
load of the shared machine falls on both alike:

* **batched**: ``B`` random games stepped together, each step ``sample_legal`` and
  ``step(..., validate=False)``; finished games are reset (``reset_where``) every
  ``--reset-every`` steps (4: a finished game idles three steps at most, against about 160 steps
  of a random Push Them All game, and the fixed cost of a reset is shared), and only the steps
  of live games count;
* **scalar**: one game at a time, ``apply(sample_legal_action(rng))``, a new game as soon as one
  ends.

On CPU torch runs on one thread (``torch.set_num_threads(1)``) and both are timed in CPU time
(``time.process_time``); on CUDA the batched side is timed in wall time, with
``torch.cuda.synchronize`` before each reading, and the scalar side still in CPU time. Each
round times every batch size for ``--seconds`` (after a short untimed warm-up) and the scalar
engine for as long; the table gives the medians over the rounds and the median of the
per-round ratios batched ÷ scalar.

Usage::

    nice -n 10 python3 benchmarks/batched_speed.py --game push_them_all
    nice -n 10 python3 benchmarks/batched_speed.py --game all --batch-sizes 1,64,1024,4096
    python3 benchmarks/batched_speed.py --game all --device cuda --batch-sizes 1024,16384
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import torch

from stratagem.envs.batched import batched_game, sample_legal
from stratagem.envs.registry import make_game

#: The games measured and the configuration they are measured on (the SCSA maps).
GAMES: dict[str, dict[str, Any]] = {
    "push_them_all": {"map": "pta"},
    "kill_the_king": {"map": "kwah"},
}


def _clock(device: torch.device) -> Callable[[], float]:
    """CPU time on CPU; wall time after the device's queued work on CUDA."""
    if device.type == "cuda":

        def wall() -> float:
            torch.cuda.synchronize(device)
            return time.perf_counter()

        return wall
    return time.process_time


def batched_rate(
    name: str, batch: int, seconds: float, device: str, seed: int, reset_every: int = 4
) -> float:
    """Steps of live games per second of ``batch`` random games stepped together.

    Args:
        name: The game.
        batch: Games per batch.
        seconds: Time to measure for (after an untimed warm-up of a few steps).
        device: Where the tensors live.
        seed: First game seed and the action generator's seed.
        reset_every: Reset the finished games every this many steps.

    Returns:
        Steps of live games per second (CPU time on CPU, wall time on CUDA).
    """
    game = make_game(name, **GAMES[name])
    bg = batched_game(game, device)
    clock = _clock(bg.device)
    generator = torch.Generator(device=bg.device).manual_seed(seed)
    next_seed = seed + batch
    state = bg.init(range(seed, next_seed))

    def advance(state: Any, reset: bool) -> tuple[Any, torch.Tensor]:
        nonlocal next_seed
        live = ~bg.terminated(state)
        state = bg.step(state, sample_legal(bg, state, generator), validate=False)
        if reset:
            done = bg.terminated(state)
            count = int(done.sum())
            if count:
                state = bg.reset_where(state, done, range(next_seed, next_seed + count))
                next_seed += count
        return state, live.sum()

    for k in range(2 * reset_every):  # warm-up: first-call allocations and dispatch caches
        state, _ = advance(state, k % reset_every == reset_every - 1)
    steps: list[torch.Tensor] = []
    start = clock()
    while True:
        for k in range(4 * reset_every):
            state, live = advance(state, k % reset_every == reset_every - 1)
            steps.append(live)
        used = clock() - start
        if used >= seconds:
            break
    return int(torch.stack(steps).sum()) / used


def scalar_rate(name: str, seconds: float, seed: int) -> float:
    """Steps per CPU second of the scalar engine playing random games one after another."""
    game = make_game(name, **GAMES[name])
    rng = random.Random(seed)
    k = seed
    state = game.new_initial_state(k)
    steps = 0
    start = time.process_time()
    while True:
        for _ in range(200):
            state.apply(state.sample_legal_action(rng))
            steps += 1
            if state.is_terminal():
                k += 1
                state = game.new_initial_state(k)
        used = time.process_time() - start
        if used >= seconds:
            return steps / used


def measure(name: str, args: argparse.Namespace) -> str:
    """The table of one game: per batch size its batched and scalar rates and their ratio."""
    sizes = [int(b) for b in args.batch_sizes.split(",")]
    batched: dict[int, list[float]] = {b: [] for b in sizes}
    scalar: dict[int, list[float]] = {b: [] for b in sizes}
    for r in range(args.rounds):
        for b in sizes:
            batched[b].append(
                batched_rate(name, b, args.seconds, args.device, 1000 * r, args.reset_every)
            )
            scalar[b].append(scalar_rate(name, args.seconds, seed=1000 * r))
    lines = [
        f"{name} {GAMES[name]}",
        f"{'batch':>6s}{'batched steps/s':>18s}{'scalar steps/s':>18s}{'batched/scalar':>16s}",
    ]
    for b in sizes:
        ratio = statistics.median(x / y for x, y in zip(batched[b], scalar[b], strict=True))
        lines.append(
            f"{b:6d}{statistics.median(batched[b]):18,.0f}"
            f"{statistics.median(scalar[b]):18,.0f}{ratio:16.2f}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=[*GAMES, "all"], default="all")
    parser.add_argument("--batch-sizes", default="1,64,1024,4096", help="comma-separated")
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--rounds", type=int, default=3, help="alternations of the measurement")
    parser.add_argument("--reset-every", type=int, default=4, help="steps between resets")
    args = parser.parse_args()
    torch.set_num_threads(1)
    load = os.getloadavg()
    clock = "wall time (batched), CPU time (scalar)" if args.device == "cuda" else "CPU time"
    print(
        f"device {args.device}, {args.rounds} rounds of {args.seconds:g} s, one torch thread, "
        f"{clock}, reset every {args.reset_every} steps; load average "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores"
    )
    for name in GAMES if args.game == "all" else [args.game]:
        print(measure(name, args))
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
