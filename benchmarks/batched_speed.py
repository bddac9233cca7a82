"""Random steps/s of the batched Stratega games against their scalar engines, per batch size.

For each game and batch size the script measures, alternately in the same process so that the
load of the shared machine falls on both alike:

* **batched**: ``B`` random games stepped together, each step ``step_random`` (a uniformly
  random legal action per game and the rules, as ``sample_legal`` and ``step(...,
  validate=False)`` do in two calls); finished games are reset (``reset_where``) every
  ``--reset-every`` steps (4: a finished game idles three steps at most, against about 160 steps
  of a random Push Them All game, and the fixed cost of a reset is shared), and only the steps
  of live games count;
* **scalar**: one game at a time, ``apply(sample_legal_action(rng))``, a new game as soon as one
  ends.

On CPU torch runs on one thread (``torch.set_num_threads(1)``) and both are timed in CPU time
(``time.process_time``); on CUDA the batched side is timed in wall time, with
``torch.cuda.synchronize`` before each reading, and the scalar side still in CPU time. Each
round times every batch size for ``--seconds`` (after an untimed warm-up of a second) and the scalar
engine for as long; the table gives the medians over the rounds and the median of the
per-round ratios batched ÷ scalar.

Usage::

    nice -n 10 python3 benchmarks/batched_speed.py --game push_them_all
    nice -n 10 python3 benchmarks/batched_speed.py --game all --batch-sizes 1,64,1024,4096
    nice -n 10 python3 benchmarks/batched_speed.py --game all --batch-sizes 1024,4096 --compile
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

from stratagem.envs.batched import BatchedGame, batched_game
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


_GAMES: dict[tuple[str, str, bool], BatchedGame[Any]] = {}


def _batched(name: str, device: str, compile: bool) -> BatchedGame[Any]:
    """One batched game per configuration, so that compiled rules are compiled once per size."""
    key = (name, device, compile)
    if key not in _GAMES:
        _GAMES[key] = batched_game(make_game(name, **GAMES[name]), device, compile=compile)
    return _GAMES[key]


def batched_rate(
    name: str,
    batch: int,
    seconds: float,
    device: str,
    seed: int,
    reset_every: int = 4,
    compile: bool = False,
    warmup: float = 1.0,
) -> float:
    """Steps of live games per second of ``batch`` random games stepped together.

    Args:
        name: The game.
        batch: Games per batch.
        seconds: Time to measure for (after an untimed warm-up of ``warmup`` seconds).
        device: Where the tensors live.
        seed: First game seed and the action generator's seed.
        reset_every: Reset the finished games every this many steps.
        compile: Run the rules compiled (``batched_game(..., compile=True)``); the first
            measurement of a batch size compiles in its untimed warm-up.
        warmup: Seconds of untimed steps first (at least ``2 · reset_every`` steps).

    Returns:
        Steps of live games per second (CPU time on CPU, wall time on CUDA).
    """
    bg = _batched(name, device, compile)
    clock = _clock(bg.device)
    generator = torch.Generator(device=bg.device).manual_seed(seed)
    next_seed = seed + batch
    state = bg.init(range(seed, next_seed))

    def advance(state: Any, reset: bool) -> tuple[Any, torch.Tensor]:
        nonlocal next_seed
        live = ~bg.terminated(state)
        state, _ = bg.step_random(state, generator)
        if reset:
            done = bg.terminated(state)
            count = int(done.sum())
            if count:
                state = bg.reset_where(state, done, range(next_seed, next_seed + count))
                next_seed += count
        return state, live.sum()

    # warm-up, untimed: compilation, dispatch caches, and the allocator's steady state (the
    # first second of a fresh batch size allocates its tensors through fresh pages, up to 30%
    # slower, until glibc's malloc has adapted its mmap threshold to the tensors' sizes)
    k, start = 0, clock()
    while k < 2 * reset_every or clock() - start < warmup:
        state, _ = advance(state, k % reset_every == reset_every - 1)
        k += 1
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
    """The table of one game: per batch size its batched and scalar rates and their ratios."""
    sizes = [int(b) for b in args.batch_sizes.split(",")]
    modes = [False, True] if args.compile else [False]
    batched: dict[tuple[bool, int], list[float]] = {(c, b): [] for c in modes for b in sizes}
    scalar: dict[int, list[float]] = {b: [] for b in sizes}
    for r in range(args.rounds):
        for b in sizes:
            for c in modes:
                batched[c, b].append(
                    batched_rate(name, b, args.seconds, args.device, 1000 * r, args.reset_every, c)
                )
            scalar[b].append(scalar_rate(name, args.seconds, seed=1000 * r))
    heads = ["eager"] + (["compiled"] if args.compile else [])
    lines = [
        f"{name} {GAMES[name]}",
        f"{'batch':>6s}"
        + "".join(f"{h + ' steps/s':>20s}" for h in heads)
        + f"{'scalar steps/s':>18s}"
        + "".join(f"{h + '/scalar':>17s}" for h in heads),
    ]
    for b in sizes:
        rates = "".join(f"{statistics.median(batched[c, b]):20,.0f}" for c in modes)
        ratios = "".join(f"{_ratio(batched[c, b], scalar[b]):17.2f}" for c in modes)
        lines.append(f"{b:6d}{rates}{statistics.median(scalar[b]):18,.0f}{ratios}")
    return "\n".join(lines)


def _ratio(batched: list[float], scalar: list[float]) -> float:
    """The median of the per-round ratios."""
    return statistics.median(x / y for x, y in zip(batched, scalar, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=[*GAMES, "all"], default="all")
    parser.add_argument("--batch-sizes", default="1,64,1024,4096", help="comma-separated")
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--rounds", type=int, default=3, help="alternations of the measurement")
    parser.add_argument("--reset-every", type=int, default=4, help="steps between resets")
    parser.add_argument(
        "--compile",
        action="store_true",
        help="also measure the rules compiled with torch.compile (needs a C++ compiler on CPU)",
    )
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
