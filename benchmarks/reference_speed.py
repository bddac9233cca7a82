"""Side-by-side speed of stratagem and a game's reference implementation (issue 18, item 4).

Runs the reference's speed driver and stratagem's counterpart alternately, each round in fresh
processes, and prints the ratios stratagem ÷ reference of each round and their medians. Only
ratios measured this way count: the shared machine's load changes from minute to minute, and
alternating puts both engines under about the same load.

Every figure is single-threaded CPU time of the whole process (``time.process_time`` in
Python, ``OperatingSystemMXBean.getProcessCpuTime`` in Java, ``CLOCK_PROCESS_CPUTIME_ID`` in
C++), measured after a warm-up; the set-up of a game's initial state is not timed.

* ``tribes``: GAIGResearch/Tribes release 1.0 (Java 17, normal tiered JIT, ``-XX:+UseSerialGC
  -XX:ActiveProcessorCount=1``: one GC thread and a compiler sized for one core; the JIT and
  GC threads' CPU time counts; the main thread's time is printed beside it; warm-up until the
  JIT has settled: a 1 s window with under 2% compilation time, at least 3 s) against
  ``stratagem.envs.tribes``: 2 tribes, 11×11, Capitals, the 2-tribe level seeds of
  ``tribes_reference/compare.py``. Steps are complete uniformly random games (the reference's
  turn loop: ``getAllAvailableActions``, ``next``, ``computePlayerActions``; stratagem:
  ``legal_action_list``, ``apply``), a random game is one of those games, copies are
  ``GameState.copy()`` and ``clone()`` of every 10th state of such games. Driver:
  ``tribes_reference/java/core/game/StratagemSpeed.java``.
* ``prismata``: davechurchill/PrismataAI (C++, its CMake Release build, g++ ``-O3 -DNDEBUG``)
  against ``stratagem.envs.prismata``, base set. Steps are complete games of uniformly random
  atomic actions (the reference's ``Player_Random`` rule: ``generateLegalActions`` +
  ``doAction``; stratagem: ``legal_action_list`` + ``apply``), copies are of every 5th turn's
  state of RandomAI games, games are RandomAI vs RandomAI (the reference's ``RandomAI`` player,
  ``Game::play``; stratagem's ``prismata_random`` agent through ``play_game``). Driver:
  ``prismata_reference/speed_driver.cpp``. Two more rows time the compiled engine
  (``stratagem.envs.prismata.compiled``, numba; skipped without it) the same way after a warm-up
  that compiles or loads its machine code: whole RandomAI vs RandomAI games
  (``play_random_games(bot="random")``, against the reference's time per game) and whole games
  of uniformly random legal actions (``bot="uniform"``, its decisions per second against the
  reference's steps per second).

Usage::

    nice -n 10 python3 benchmarks/reference_speed.py --game tribes --rounds 5 --seconds 2
    nice -n 10 python3 benchmarks/reference_speed.py --game prismata --rounds 5 --seconds 2

The reference is built on first use from a checkout (``--reference``; afterwards remembered in
the build folder's ``REFERENCE``): see ``tribes_reference/README.md`` and
``prismata_reference/README.md``. Results go to
``benchmarks/results/reference_speed_<game>.json`` with the date, machine and load.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

#: 2-tribe configurations of ``tribes_reference/compare.py`` (tribes, level seed).
TRIBES_CONFIGS: tuple[tuple[str, int], ...] = (
    ("XIN_XI,IMPERIUS", 11),
    ("BARDUR,OUMAJI", 21),
    ("OUMAJI,XIN_XI", 31),
    ("XIN_XI,IMPERIUS", 12),
    ("BARDUR,OUMAJI", 22),
    ("OUMAJI,XIN_XI", 32),
)

#: The measures compared, with whether larger is faster.
MEASURES: tuple[tuple[str, str, bool], ...] = (
    ("steps_per_s", "steps/s (legal actions + apply)", True),
    ("copies_per_s", "copies/s (mid-game states)", True),
    ("ms_per_game", "ms per random game", False),
)

#: Rows of stratagem's compiled paths (stratagem key, reference key it is compared with,
#: label): the numba engines of Prismata (``stratagem.envs.prismata.compiled``) and Tribes
#: (``stratagem.envs.tribes.compiled``), when numba is there.
COMPILED_MEASURES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "tribes": (
        ("compiled_ms_per_game", "ms_per_game", "time per game, compiled uniform random"),
        ("compiled_steps_per_s", "steps_per_s", "steps/s, compiled uniform random"),
    ),
    "prismata": (
        ("compiled_ms_per_game", "ms_per_game", "time per game, compiled RandomAI"),
        ("compiled_steps_per_s", "steps_per_s", "steps/s, compiled uniform random"),
    ),
}


def rows(game: str) -> list[tuple[str, str, str]]:
    """Every row of ``game``: (stratagem key, reference key, label)."""
    return [(key, key, label) for key, label, _ in MEASURES] + list(COMPILED_MEASURES.get(game, ()))


JAVA_FLAGS: tuple[str, ...] = ("-XX:+UseSerialGC", "-XX:ActiveProcessorCount=1")


# --- stratagem's side (run in a fresh process per round: ``--worker``) -------------------------


def _cpu() -> float:
    return time.process_time()


def tribes_worker(seconds: float, seed: int) -> dict[str, Any]:
    """stratagem's Tribes figures, the counterpart of ``StratagemSpeed.java``.

    Args:
        seconds: CPU seconds for each measure.
        seed: Seed of the random actions; game ``k`` starts from ``new_initial_state(seed + k)``.

    Returns:
        The figures (same keys as the Java driver's JSON line).
    """
    from stratagem.envs import make_game

    games = [
        make_game("tribes", map=f"seed:{level}", tribes=t.lower(), num_players=2, mode="capitals")
        for t, level in TRIBES_CONFIGS
    ]
    rng = random.Random(seed)

    def start(k: int) -> Any:
        return games[k % len(games)].new_initial_state(seed + k)

    def random_game(state: Any, keep: list[Any] | None = None) -> int:
        decisions = 0
        while not state.is_terminal():
            legal = state.legal_action_list()
            action = legal[rng.randrange(len(legal))]
            decisions += 1
            if keep is not None and decisions % 10 == 0:
                keep.append(state.clone())
            state.apply(action)
        return decisions

    k = 0
    for _ in range(len(games)):  # warm-up: every level generated once, caches filled
        random_game(start(k))
        k += 1
    decisions = games_played = 0
    used = 0.0
    while used < seconds:
        batch = [start(k + i) for i in range(10)]
        k += 10
        t = _cpu()
        for state in batch:
            decisions += random_game(state)
        used += _cpu() - t
        games_played += len(batch)
    states: list[Any] = []
    while len(states) < 200:
        random_game(start(k), states)
        k += 1
    copies, copy_cpu = _time_copies(states, seconds)
    return {
        **_tribes_compiled(games, seconds, seed),
        "engine": "stratagem",
        "steps": decisions,
        "games": games_played,
        "game_cpu": used,
        "steps_per_s": decisions / used,
        "ms_per_game": 1000.0 * used / games_played,
        "decisions_per_game": decisions / games_played,
        "copies": copies,
        "copy_states": len(states),
        "copy_cpu": copy_cpu,
        "copies_per_s": copies / copy_cpu,
    }


def _tribes_compiled(games: Sequence[Any], seconds: float, seed: int) -> dict[str, Any]:
    """The compiled engine's rows: whole uniformly random games in numba.

    Games cycle through ``games`` as the Python rows do (game ``k`` from
    ``new_initial_state(seed + k)``); levels are generated and encoded in Python outside the
    timing, as the Python rows generate them outside it. Measured in process CPU time after a
    warm-up that loads or compiles the machine code; empty without numba.
    """
    try:
        from stratagem.envs.tribes.compiled import prepare_games, run_games
    except ImportError:
        return {}
    t0 = time.perf_counter()
    run_games(*prepare_games(games, len(games), seed))  # warm-up: JIT compile or cache load
    out: dict[str, Any] = {"compiled_warmup_s": time.perf_counter() - t0}
    batch = 60
    k = seed + len(games)
    played = decisions = 0
    used = 0.0
    while used < seconds:
        starts, streams = prepare_games(games, batch, k)  # config of game i: games[i % 6]
        k += batch
        t = _cpu()
        results = run_games(starts, streams)
        used += _cpu() - t
        played += batch
        decisions += int(results.decisions.sum())
    out.update(
        compiled_games=played,
        compiled_game_cpu=used,
        compiled_steps=decisions,
        compiled_ms_per_game=1000.0 * used / played,
        compiled_steps_per_s=decisions / used,
        compiled_decisions_per_game=decisions / played,
    )
    return out


def _time_copies(states: Sequence[Any], seconds: float) -> tuple[int, float]:
    """Clone every state of ``states`` over and over for ``seconds`` of CPU time."""
    copies = 0
    t0 = _cpu()
    used = 0.0
    while used < seconds:
        for s in states:
            s.clone()
        copies += len(states)
        used = _cpu() - t0
    return copies, used


def prismata_worker(seconds: float, seed: int) -> dict[str, Any]:
    """stratagem's Prismata figures (base set), the counterpart of ``speed_driver.cpp``.

    Args:
        seconds: CPU seconds for each measure.
        seed: Seed of the random actions and of the games' initial states.

    Returns:
        The figures (same keys as the C++ driver's JSON line).
    """
    from stratagem.baselines import make_agent
    from stratagem.baselines.match import play_game
    from stratagem.envs import make_game

    game = make_game("prismata", cards="base")
    rng = random.Random(seed)
    players = [make_agent("prismata_random", game) for _ in range(2)]

    def random_game(state: Any) -> int:
        steps = 0
        while not state.is_terminal():
            legal = state.legal_action_list()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    def bot_game(k: int, keep: list[Any] | None = None) -> int:
        def collect(state: Any, action: int) -> None:
            if keep is not None and state.turn % 5 == 4 and state.turn not in seen:
                seen.add(state.turn)
                keep.append(state.clone())

        seen: set[int] = set()
        final: Any = play_game(
            game,
            players,
            seed=seed + k,
            verbose=False,
            on_decision=None if keep is None else collect,
        )
        return int(final.turn)

    k = 0
    end = _cpu() + seconds / 5  # warm-up, as the driver's
    while _cpu() < end:
        random_game(game.new_initial_state(seed + k))
        bot_game(k)
        k += 1
    steps = step_games = 0
    step_cpu = 0.0
    while step_cpu < seconds:
        batch = [game.new_initial_state(seed + k + i) for i in range(10)]
        k += 10
        t = _cpu()
        for state in batch:
            steps += random_game(state)
        step_cpu += _cpu() - t
        step_games += len(batch)
    states: list[Any] = []
    while len(states) < 200:
        bot_game(k, states)
        k += 1
    copies, copy_cpu = _time_copies(states, seconds)
    games = turns = 0
    t0 = _cpu()
    game_cpu = 0.0
    while game_cpu < seconds:
        turns += bot_game(k)
        k += 1
        games += 1
        game_cpu = _cpu() - t0
    return {
        **_prismata_compiled(game, seconds, seed),
        "engine": "stratagem",
        "steps": steps,
        "step_games": step_games,
        "step_cpu": step_cpu,
        "steps_per_s": steps / step_cpu,
        "copies": copies,
        "copy_states": len(states),
        "copy_cpu": copy_cpu,
        "copies_per_s": copies / copy_cpu,
        "games": games,
        "game_cpu": game_cpu,
        "ms_per_game": 1000.0 * game_cpu / games,
        "turns_per_game": turns / games,
    }


def _prismata_compiled(game: Any, seconds: float, seed: int) -> dict[str, Any]:
    """The compiled engine's rows: RandomAI games and uniformly random games, whole in numba.

    Measured as the Python rows are (process CPU time, after a warm-up that loads or compiles
    the machine code); empty without numba.
    """
    try:
        from stratagem.envs.prismata.compiled import play_random_games
    except ImportError:
        return {}
    t0 = time.perf_counter()
    play_random_games(game, 20, seed, bot="random")  # warm-up: JIT compile or cache load
    play_random_games(game, 5, seed, bot="uniform")
    warmup = time.perf_counter() - t0
    out: dict[str, Any] = {"compiled_warmup_s": warmup}
    for bot, batch in (("random", 200), ("uniform", 50)):
        games = turns = decisions = 0
        k = seed
        used = 0.0
        while used < seconds:
            t = _cpu()
            results = play_random_games(game, batch, k, bot=bot)
            used += _cpu() - t
            k += batch
            games += batch
            turns += int(results.turns.sum())
            decisions += int(results.decisions.sum())
        if bot == "random":
            out.update(
                compiled_games=games,
                compiled_game_cpu=used,
                compiled_ms_per_game=1000.0 * used / games,
                compiled_turns_per_game=turns / games,
            )
        else:
            out.update(
                compiled_steps=decisions,
                compiled_step_games=games,
                compiled_step_cpu=used,
                compiled_steps_per_s=decisions / used,
            )
    return out


WORKERS: dict[str, Callable[[float, int], dict[str, Any]]] = {
    "tribes": tribes_worker,
    "prismata": prismata_worker,
}


# --- the references ----------------------------------------------------------------------------


def _reference_checkout(build: Path, given: Path | None) -> Path:
    """The reference checkout: ``given``, else the one the last build recorded."""
    if given is not None:
        return given.resolve()
    recorded = build / "REFERENCE"
    if recorded.exists():
        return Path(recorded.read_text().strip())
    raise SystemExit(f"no reference build in {build}: pass --reference /path/to/checkout")


def tribes_reference(given: Path | None) -> tuple[list[str], Path]:
    """Build (when needed) the Java reference with ``StratagemSpeed``; its command and cwd.

    Args:
        given: A checkout of GAIGResearch/Tribes at tag 1.0, or ``None`` for the last build's.

    Returns:
        The command line prefix (arguments follow) and the folder to run it in.
    """
    folder = HERE / "tribes_reference"
    build = folder / "build"
    ref = _reference_checkout(build, given)
    if not (build / "classes" / "core" / "game" / "GameState.class").exists() or given:
        subprocess.run([str(folder / "build.sh"), str(ref), str(build)], check=True)
    source = folder / "java" / "core" / "game" / "StratagemSpeed.java"
    target = build / "classes" / "core" / "game" / "StratagemSpeed.class"
    if not target.exists() or target.stat().st_mtime < source.stat().st_mtime:
        classpath = os.pathsep.join([str(build / "classes"), str(ref / "lib" / "json.jar")])
        javac = ["javac", "-nowarn", "-encoding", "UTF-8", "-cp", classpath]
        subprocess.run([*javac, "-d", str(build / "classes"), str(source)], check=True)
    classpath = os.pathsep.join([str(build / "classes"), str(ref / "lib" / "json.jar")])
    return ["java", *JAVA_FLAGS, "-cp", classpath, "core.game.StratagemSpeed"], ref


def prismata_reference(given: Path | None) -> tuple[list[str], Path]:
    """Build (when needed) the C++ reference's speed driver; its command and cwd.

    Args:
        given: A checkout of davechurchill/PrismataAI, or ``None`` for the last build's.

    Returns:
        The command line prefix (arguments follow) and the folder to run it in (the checkout's
        ``bin``, where the reference's AI configuration finds its example state file).
    """
    folder = HERE / "prismata_reference"
    build = folder / "build"
    ref = _reference_checkout(build, given)
    driver = build / "speed_driver"
    source = folder / "speed_driver.cpp"
    if given or not driver.exists() or driver.stat().st_mtime < source.stat().st_mtime:
        subprocess.run([str(folder / "build.sh"), str(ref), str(build)], check=True)
    config = ref / "bin" / "asset" / "config"
    return [str(driver), str(config / "cardLibrary.jso"), str(config / "config.txt")], ref / "bin"


REFERENCES: dict[str, Callable[[Path | None], tuple[list[str], Path]]] = {
    "tribes": tribes_reference,
    "prismata": prismata_reference,
}


# --- alternation -------------------------------------------------------------------------------


def _last_json(text: str) -> dict[str, Any]:
    for line in reversed(text.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise RuntimeError(f"no JSON line in the output:\n{text[-2000:]}")


def run_reference(
    game: str, command: Sequence[str], cwd: Path, seconds: float, seed: int
) -> dict[str, Any]:
    """One round of the reference driver, in a fresh process."""
    args = [str(seconds), str(seed)]
    if game == "tribes":
        args += [f"{t}:{level}" for t, level in TRIBES_CONFIGS]
    done = subprocess.run([*command, *args], cwd=cwd, check=True, capture_output=True, text=True)
    return _last_json(done.stdout)


def run_stratagem(game: str, seconds: float, seed: int) -> dict[str, Any]:
    """One round of stratagem's worker, in a fresh Python process."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", game]
    cmd += ["--seconds", str(seconds), "--seed", str(seed)]
    done = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return _last_json(done.stdout)


def _fmt(x: float) -> str:
    """A figure with four significant digits at least, thousands separated."""
    return f"{x:,.0f}" if x >= 1000 else f"{x:.4g}"


def ratios(game: str, ours: dict[str, Any], ref: dict[str, Any]) -> dict[str, float]:
    """stratagem ÷ reference for each row (time per game: ours over theirs, so >1 slower)."""
    return {key: ours[key] / ref[ref_key] for key, ref_key, _ in rows(game) if key in ours}


def machine() -> dict[str, Any]:
    """The machine and software the figures come from."""
    model = ""
    mem = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 2**20:.0f} GiB"
                break
    except OSError:
        pass

    def version(cmd: Sequence[str]) -> str:
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        except OSError:
            return ""
        return (done.stdout or done.stderr).splitlines()[0].strip()

    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "memory": mem,
        "platform": platform.platform(),
        "python": platform.python_version(),
        "java": version(["java", "-version"]),
        "g++": version(["g++", "--version"]),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", choices=sorted(WORKERS), default="tribes")
    p.add_argument("--rounds", type=int, default=5, help="alternations (default 5)")
    p.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measure")
    p.add_argument("--seed", type=int, default=1, help="seed of round 1 (round r: seed + r - 1)")
    p.add_argument("--reference", type=Path, help="reference checkout (to build from)")
    p.add_argument("--out", type=Path, help="JSON results (default results/reference_speed_*)")
    p.add_argument("--worker", choices=sorted(WORKERS), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        print(json.dumps(WORKERS[args.worker](args.seconds, args.seed)))
        return 0

    command, cwd = REFERENCES[args.game](args.reference)
    started = datetime.datetime.now().astimezone()
    uptime_before = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"{args.game}: {args.rounds} rounds, {args.seconds:g} CPU s per measure")
    print(f"date {started:%Y-%m-%d %H:%M %Z}; {uptime_before}")
    rounds = []
    for r in range(args.rounds):
        seed = args.seed + r
        load = os.getloadavg()[0]
        # Alternate which engine goes first, so that neither always meets the same moment.
        if r % 2 == 0:
            ref = run_reference(args.game, command, cwd, args.seconds, seed)
            ours = run_stratagem(args.game, args.seconds, seed)
        else:
            ours = run_stratagem(args.game, args.seconds, seed)
            ref = run_reference(args.game, command, cwd, args.seconds, seed)
        q = ratios(args.game, ours, ref)
        rounds.append({"seed": seed, "load": load, "reference": ref, "stratagem": ours, "ratio": q})
        print(
            f"round {r + 1} (load {load:.1f}): "
            + "; ".join(
                f"{key} ref {_fmt(ref[ref_key])} ours {_fmt(ours[key])} ratio {q[key]:.3f}"
                for key, ref_key, _ in rows(args.game)
                if key in q
            ),
            flush=True,
        )
    shown = [row for row in rows(args.game) if all(row[0] in r["ratio"] for r in rounds)]
    medians = {key: statistics.median(r["ratio"][key] for r in rounds) for key, _, _ in shown}
    ref_medians = {
        key: statistics.median(r["reference"][ref_key] for r in rounds) for key, ref_key, _ in shown
    }
    our_medians = {
        key: statistics.median(r["stratagem"][key] for r in rounds) for key, _, _ in shown
    }
    spans = {
        key: (min(r["ratio"][key] for r in rounds), max(r["ratio"][key] for r in rounds))
        for key, _, _ in shown
    }
    uptime_after = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"after: {uptime_after}")
    print("medians (stratagem ÷ reference; per-round ratios' median and range):")
    for key, _, label in shown:
        low, high = spans[key]
        print(
            f"  {label:34s} ratio {medians[key]:7.3f} [{low:.3f}-{high:.3f}]   "
            f"(reference {_fmt(ref_medians[key])}, stratagem {_fmt(our_medians[key])})"
        )
    out = args.out or HERE / "results" / f"reference_speed_{args.game}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "game": args.game,
        "command": "python3 benchmarks/reference_speed.py "
        + " ".join(argv if argv is not None else sys.argv[1:]),
        "date": started.isoformat(timespec="seconds"),
        "uptime_before": uptime_before,
        "uptime_after": uptime_after,
        "machine": machine(),
        "java_flags": list(JAVA_FLAGS) if args.game == "tribes" else None,
        "seconds": args.seconds,
        "medians": {"ratio": medians, "reference": ref_medians, "stratagem": our_medians},
        "ratio_ranges": spans,
        "rounds": rounds,
    }
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
