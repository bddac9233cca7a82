"""Search overhead and random sampling (issue 18): calls/s inside MCTS against bare steps/s.

Prints, for one game configuration, single-threaded and in CPU time (``time.process_time``):

* **bare steps/s**: complete random games, each step ``legal_action_list()``, a uniform pick and
  ``apply``; and the same games stepped as ``stratagem bench`` steps them (``legal_actions()``,
  the sorted array, and ``int`` of the pick), a little slower: the figure the issue quoted;
* **sampled steps/s** and **ms per random game** with ``sample_legal_action`` against the list
  pick, alternated in the same process (the two pick different moves, so the games differ:
  compare the per-step rate, and the game time over the same seeds);
* **MCTS calls/s**: forward-model calls per CPU second inside the search of the default ``mcts``
  agent (budget 2000, no rollouts) and of the SCSA paper's Kill The King MCTS (budget 10000,
  random rollouts of 10 and random opponents: rollouts go through the sampler) over fixed
  positions, and their ratio to bare steps/s.

``--against REF`` also measures the tree of a git revision (``git archive REF``, unpacked in a
temporary folder and imported instead of the installed package): each round runs the old and
the new tree in turn, in separate processes, and the table gives the median of each figure and
the median of the per-round ratios new/old, so that load drifting over the run cancels out.

Usage::

    nice -n 10 python3 benchmarks/search_speed.py                    # this tree only
    nice -n 10 python3 benchmarks/search_speed.py --against HEAD --rounds 5
    nice -n 10 python3 benchmarks/search_speed.py --game push_them_all --against HEAD
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

#: The SCSA paper's Kill The King MCTS (``scsa_ktk_mcts`` in ``baselines/search/presets.toml``).
SCSA_MCTS = {
    "budget": 10000,
    "c": 0.1,
    "rollout_length": 10,
    "rollouts": True,
    "normalize": False,
    "opponent": "random",
    "open_loop": False,
}
ROOT = Path(__file__).resolve().parent.parent


def positions(game: Any, count: int, seed: int) -> list[Any]:
    """``count`` positions of seeded random games where the player has a real choice.

    Drawn with ``legal_action_list`` and Python's ``random``, which both trees share, so the old
    and the new tree search exactly the same positions.
    """
    prng = random.Random(seed)
    out: list[Any] = []
    g = 0
    while len(out) < count:
        state = game.new_initial_state(seed + g)
        g += 1
        while not state.is_terminal() and len(out) < count:
            legal = state.legal_action_list()
            if len(legal) > 1 and prng.random() < 0.05:
                out.append(state.clone())
            state.apply(legal[int(prng.random() * len(legal))])
    return out


def random_games(game: Any, games: int, how: str, warm: bool = True) -> tuple[float, int]:
    """CPU seconds and steps of ``games`` complete random games (seeds ``0..games-1``).

    ``how``: ``"list"`` (``legal_action_list``), ``"array"`` (``legal_actions``, as ``stratagem
    bench`` steps) or ``"sample"`` (``sample_legal_action``). With ``warm``, the same games are
    played once untimed first: the steady state of a long run, in which per-board tables built
    on first use (Kill The King's sampling tables, about 0.4 ms a board) are already there.
    """
    if warm:
        random_games(game, games, how, warm=False)
    prng = random.Random(0)
    steps = 0
    start = time.process_time()
    for seed in range(games):
        state = game.new_initial_state(seed)
        if how == "sample":
            draw = state.sample_legal_action
            while not state.is_terminal():
                state.apply(draw(prng))
                steps += 1
        elif how == "array":
            while not state.is_terminal():
                actions = state.legal_actions()
                state.apply(int(actions[int(prng.random() * len(actions))]))
                steps += 1
        else:
            while not state.is_terminal():
                legal = state.legal_action_list()
                state.apply(legal[int(prng.random() * len(legal))])
                steps += 1
    return time.process_time() - start, steps


def search_rate(game: Any, params: dict[str, Any], states: list[Any]) -> float:
    """Forward-model calls per CPU second inside ``act`` of an MCTS agent over ``states``."""
    import numpy as np

    from stratagem.baselines.search.mcts import MCTSAgent

    agent = MCTSAgent(game, **params)
    calls = 0
    seconds = 0.0
    for i, state in enumerate(states):
        copy = state.clone()
        rng = np.random.default_rng(i)
        start = time.process_time()
        agent.act(copy, rng=rng)
        seconds += time.process_time() - start
        calls += agent.last_stats.fm_calls
    return calls / seconds


def measure(args: argparse.Namespace) -> dict[str, float]:
    """One round of every figure in this process (the worker of ``--against``)."""
    from stratagem.envs.registry import make_game

    game = make_game(args.game, **dict(args.config))
    out: dict[str, float] = {}
    seconds, steps = random_games(game, args.games, "list")
    out["bare steps/s"] = bare = steps / seconds
    out["random game ms (list)"] = 1000 * seconds / args.games
    seconds, steps = random_games(game, args.games, "array")
    out["bare steps/s (as stratagem bench)"] = bench = steps / seconds
    if hasattr(game.new_initial_state(0), "sample_legal_action"):
        seconds, steps = random_games(game, args.games, "sample")
        out["sampled steps/s"] = steps / seconds
        out["random game ms (sample)"] = 1000 * seconds / args.games
        out["sampled / bare steps/s"] = out["sampled steps/s"] / bare
    states = positions(game, args.decisions, seed=1)
    searches = [("mcts", {"budget": 2000}, states)]
    if args.game == "kill_the_king" or args.scsa:
        searches.append(("scsa mcts", SCSA_MCTS, states[: max(1, args.decisions // 4)]))
    for name, params, where in searches:
        out[f"{name} calls/s"] = rate = search_rate(game, params, where)
        out[f"{name} calls/s / bare steps/s"] = rate / bare
        out[f"{name} calls/s / bench steps/s"] = rate / bench
    return out


def unpack(ref: str, into: Path) -> Path:
    """Unpack ``git archive ref`` and lay it out as an importable ``stratagem`` package."""
    source = into / "src"
    source.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True
    ).stdout
    tar = into / "tree.tar"
    tar.write_bytes(archive)
    with tarfile.open(tar) as fh:
        fh.extractall(source, filter="data")
    package = into / "shim" / "stratagem"
    package.parent.mkdir()
    # pyproject maps the top-level folders into the stratagem namespace; so does this copy.
    subprocess.run(["cp", "-r", str(source / "stratagem"), str(package)], check=True)
    for area in ("envs", "baselines", "wrappers", "training"):
        (package / area).symlink_to(source / area)
    return package.parent


def run_worker(args: argparse.Namespace, pythonpath: Path | None) -> dict[str, float]:
    """Run :func:`measure` in a fresh single-threaded process (the old tree on ``pythonpath``)."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", "--game", args.game]
    command += ["--games", str(args.games), "--decisions", str(args.decisions)]
    command += [f"-c{k}={v}" for k, v in args.config]
    if args.scsa:
        command.append("--scsa")
    # Run from a neutral folder so that the source tree in the working directory is not imported.
    done = subprocess.run(
        command, env=env, cwd=tempfile.gettempdir(), check=True, capture_output=True, text=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(rows: dict[str, list[dict[str, float]]], labels: list[str]) -> str:
    """Medians per figure and tree, and the median of the per-round ratios first/second."""
    figures = [k for k in rows[labels[0]][0]]
    head = f"{'figure':34s}" + "".join(f"{label:>16s}" for label in labels)
    if len(labels) == 2:
        head += f"{labels[0] + '/' + labels[1]:>16s}"
    lines = [head]
    for key in figures:
        cells = []
        for label in labels:
            values = [r[key] for r in rows[label] if key in r]
            if not values:
                cells.append(f"{'—':>16s}")
                continue
            med = statistics.median(values)
            cells.append(f"{med:16.1%}" if " / " in key else f"{med:16,.1f}")
        if len(labels) == 2:
            pairs = [(a[key], b[key]) for a, b in zip(*rows.values(), strict=True) if key in b]
            ratio = statistics.median(a / b for a, b in pairs) if pairs else None
            cells.append(f"{ratio:16.2f}" if ratio is not None else f"{'—':>16s}")
        lines.append(f"{key:34s}" + "".join(cells))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="kill_the_king")
    parser.add_argument("-c", "--config", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--rounds", type=int, default=3, help="alternations of the measurement")
    parser.add_argument("--games", type=int, default=10, help="random games per round")
    parser.add_argument("--decisions", type=int, default=12, help="positions MCTS searches")
    parser.add_argument("--scsa", action="store_true", help="the SCSA MCTS on any game too")
    parser.add_argument("--against", metavar="REF", help="also measure this git revision")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    pairs = []
    for item in args.config:
        key, _, value = item.partition("=")
        pairs.append((key, int(value) if value.lstrip("-").isdigit() else value))
    args.config = pairs
    if args.worker:
        print(json.dumps(measure(args)))
        return
    load = os.getloadavg()
    print(
        f"{args.game} {dict(args.config)}: {args.rounds} rounds, single-threaded, CPU time; "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores"
    )
    with tempfile.TemporaryDirectory() as tmp:
        trees: dict[str, Path | None] = {"new": None}
        if args.against:
            trees[args.against] = unpack(args.against, Path(tmp))
        rows: dict[str, list[dict[str, float]]] = {label: [] for label in trees}
        for _ in range(args.rounds):
            for label, path in trees.items():
                rows[label].append(run_worker(args, path))
    print(table(rows, list(trees)))
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
