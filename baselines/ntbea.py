"""NTBEA parameter tuning (Lucas, Liu and Perez-Liebana 2018) and ``stratagem tune``.

The N-Tuple Bandit Evolutionary Algorithm tunes a planner's discrete parameters with few, noisy
evaluations, as the SCSA paper does for every agent (section VI-A: exploration factor 2, 50
neighbours, 50 iterations). It is re-implemented from the facts of the reference's
``src/stratega/src/ntbea`` (branch ``scsa_tk``, ``specs/stratega_rules.md`` section 6.6):

* **Landscape model**: the 1-tuples and 2-tuples of parameter indices. Every evaluated point
  adds its fitness to the statistics of each tuple's value combination. The mean estimate of a
  point is the average, over the tuples whose value combination was seen, of that combination's
  mean fitness; its exploration estimate is the average over all tuples of
  ``√(ln(1 + n) / (ε + n))`` for a combination seen ``n`` times, or ``√(ln(1 + N) / ε)`` for an
  unseen one, ``N`` being the tuple's total count (ε = 0.5).
* **Mutation**: each parameter is redrawn uniformly with probability 0.1, then one parameter
  chosen uniformly is redrawn (flip at least one; a redraw may give the same value).
* **Loop**: start from a uniformly random point; in each of ``iterations`` rounds evaluate the
  current point (its fitness is the mean score of ``games`` games against the opponent, seats
  alternating, maps cycled: the reference plays its 10 tuning maps with both seats, 20 games)
  and add it to the model, then draw ``neighbours`` distinct mutants and move to the one with
  the best ``mean + k_explore · exploration`` (plus 1e-6 noise to break ties).
* **Result**: the sampled point with the best mean estimate.

``stratagem tune <game> --agent <name> --space <toml>`` runs it for any registered agent and
writes the tuned values as an agent preset that ``stratagem tournament --agent-file`` accepts.
The space file::

    agent = "scsa"            # optional: the agent to tune (else --agent)
    opponent = "rule_based"   # optional: the opponent (else --opponent, default rule_based)

    [fixed]                   # parameters passed unchanged
    budget = 5000

    [space]                   # parameters tuned, each with its candidate values
    c = [0.1, 1.0, 10.0, 100.0]
    rollout_length = [10, 20, 40]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.baselines.search.config import check_int, check_number
from stratagem.envs.cli_options import (
    add_config_argument,
    check_output_path,
    load_toml,
    non_negative_int,
    parse_config,
)

__all__ = [
    "NTBEAResult",
    "NTupleLandscape",
    "SearchSpace",
    "load_space",
    "ntbea",
    "register",
    "tune",
    "write_preset",
]

#: The reference's UCB epsilon of the landscape model and tie-break noise of the neighbour UCB.
UCB_EPSILON = 0.5
TIE_BREAK_NOISE = 1e-6


@dataclass(frozen=True)
class SearchSpace:
    """Discrete parameters: each name with its candidate values.

    Attributes:
        names: Parameter names, in order.
        values: Candidate values of each parameter.
    """

    names: tuple[str, ...]
    values: tuple[tuple[Any, ...], ...]

    def __post_init__(self) -> None:
        if not self.names:
            raise ValueError("the search space has no parameter")
        if len(self.names) != len(self.values):
            raise ValueError("the search space needs one list of values per parameter")
        for name, vals in zip(self.names, self.values, strict=True):
            if not vals:
                raise ValueError(f"parameter {name!r} has no candidate value")

    @property
    def size(self) -> int:
        """Number of points."""
        return math.prod(len(v) for v in self.values)

    def params(self, point: Sequence[int]) -> dict[str, Any]:
        """The parameter values of an index vector."""
        return {n: v[i] for n, v, i in zip(self.names, self.values, point, strict=True)}


class NTupleLandscape:
    """The bandit landscape model over 1- and 2-tuples of parameter indices."""

    def __init__(
        self, dims: int, tuple_sizes: Sequence[int] = (1, 2), epsilon: float = UCB_EPSILON
    ):
        if dims < 1:
            raise ValueError("the landscape needs at least one dimension")
        self.tuples: list[tuple[int, ...]] = [
            t for r in tuple_sizes if 1 <= r <= dims for t in itertools.combinations(range(dims), r)
        ]
        self.epsilon = epsilon
        self.stats: dict[tuple[int, ...], dict[tuple[int, ...], list[float]]] = {
            t: {} for t in self.tuples
        }
        self.totals: dict[tuple[int, ...], int] = {t: 0 for t in self.tuples}
        self.sampled: list[tuple[int, ...]] = []

    def add(self, point: Sequence[int], fitness: float) -> None:
        """Add one evaluation of ``point``."""
        point = tuple(point)
        if point not in self.sampled:
            self.sampled.append(point)
        for t in self.tuples:
            key = tuple(point[i] for i in t)
            self.totals[t] += 1
            entry = self.stats[t].setdefault(key, [0.0, 0.0])
            entry[0] += 1
            entry[1] += fitness

    def mean(self, point: Sequence[int]) -> float:
        """Mean estimate: average over the tuples that saw the point's values (0 if none)."""
        total, count = 0.0, 0
        for t in self.tuples:
            entry = self.stats[t].get(tuple(point[i] for i in t))
            if entry is not None and entry[0] > 0:
                total += entry[1] / entry[0]
                count += 1
        return total / count if count else 0.0

    def exploration(self, point: Sequence[int]) -> float:
        """Exploration estimate, averaged over all tuples."""
        total = 0.0
        for t in self.tuples:
            entry = self.stats[t].get(tuple(point[i] for i in t))
            if entry is None or entry[0] == 0:
                total += math.sqrt(math.log(1 + self.totals[t]) / self.epsilon)
            else:
                n = entry[0]
                total += math.sqrt(math.log(1 + n) / (self.epsilon + n))
        return total / len(self.tuples)

    def best_sampled(self) -> tuple[tuple[int, ...], float]:
        """The sampled point with the best mean estimate, and that estimate."""
        if not self.sampled:
            raise ValueError("no point was evaluated")
        best = max(self.sampled, key=self.mean)
        return best, self.mean(best)


@dataclass
class NTBEAResult:
    """What a tuning run found.

    Attributes:
        best: The recommended parameter values.
        estimate: The landscape model's mean estimate of ``best``.
        history: One entry per iteration: the evaluated parameters and their fitness.
    """

    best: dict[str, Any]
    estimate: float
    history: list[dict[str, Any]] = field(default_factory=list)


def _mutate(point: Sequence[int], space: SearchSpace, rng: np.random.Generator, p: float) -> tuple:
    new = list(point)
    for d, vals in enumerate(space.values):
        if p > rng.random():
            new[d] = int(rng.integers(len(vals)))
    d = int(rng.integers(len(space.values)))
    new[d] = int(rng.integers(len(space.values[d])))
    return tuple(new)


def ntbea(
    space: SearchSpace,
    evaluate: Callable[[dict[str, Any]], float],
    *,
    iterations: int = 50,
    neighbours: int = 50,
    k_explore: float = 2.0,
    mutation_probability: float = 0.1,
    seed: int = 0,
    log: Callable[[str], None] | None = None,
) -> NTBEAResult:
    """Run NTBEA over ``space``; ``evaluate(params)`` returns a (noisy) fitness to maximise.

    Raises:
        ValueError: For a bad option (a non-positive iteration or neighbour count, a negative
            ``k_explore``, a ``mutation_probability`` outside [0, 1]), naming it and the value.
    """
    check_int("ntbea", "iterations", iterations, 1)
    check_int("ntbea", "neighbours", neighbours, 1)
    check_number("ntbea", "k_explore", k_explore)
    check_number(
        "ntbea", "mutation_probability", mutation_probability, high=1.0, what="a probability"
    )
    rng = np.random.default_rng(seed)
    model = NTupleLandscape(len(space.names))
    point = tuple(int(rng.integers(len(v))) for v in space.values)
    wanted = min(neighbours, max(1, space.size - 1))
    history = []
    for it in range(iterations):
        if it > 0:
            seen: set[tuple] = set()
            best, best_ucb = point, -math.inf
            attempts = 0
            while len(seen) < wanted and attempts < 100 * wanted:
                attempts += 1
                cand = _mutate(point, space, rng, mutation_probability)
                if cand in seen:
                    continue
                seen.add(cand)
                ucb = model.mean(cand) + k_explore * model.exploration(cand)
                ucb += rng.random() * TIE_BREAK_NOISE
                if ucb > best_ucb:
                    best, best_ucb = cand, ucb
            point = best
        params = space.params(point)
        fitness = float(evaluate(params))
        model.add(point, fitness)
        history.append({"iteration": it, "params": params, "fitness": fitness})
        if log is not None:
            log(f"[{it + 1}/{iterations}] fitness {fitness:.3f} at {params}")
    best_point, estimate = model.best_sampled()
    return NTBEAResult(space.params(best_point), estimate, history)


# ----------------------------------------------------------------------------- files
def load_space(path: str | Path) -> tuple[SearchSpace, dict[str, Any], dict[str, Any]]:
    """Read a space file; returns the space, the fixed parameters and the top-level options.

    Raises:
        ValueError: For a missing file, invalid TOML, or a malformed ``[space]`` table.
    """
    path = Path(path)
    data = load_toml(path, "search space file")
    table = data.get("space")
    if not isinstance(table, dict) or not table:
        raise ValueError(f"{path}: needs a [space] table of parameter = [values, ...]")
    for name, vals in table.items():
        if not isinstance(vals, list) or not vals:
            raise ValueError(f"{path}: [space] {name} must be a non-empty list of values")
    fixed = data.get("fixed", {})
    if not isinstance(fixed, dict):
        raise ValueError(f"{path}: [fixed] must be a table of parameter = value")
    overlap = set(fixed) & set(table)
    if overlap:
        raise ValueError(f"{path}: {', '.join(sorted(overlap))} both fixed and tuned")
    options = {k: v for k, v in data.items() if k not in ("space", "fixed")}
    unknown = set(options) - {"agent", "opponent"}
    if unknown:
        raise ValueError(f"{path}: unknown key(s) {', '.join(sorted(unknown))}")
    space = SearchSpace(tuple(table), tuple(tuple(v) for v in table.values()))
    return space, dict(fixed), options


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    raise ValueError(f"cannot write {value!r} to TOML")


def write_preset(
    path: str | Path, name: str, agent: str, params: Mapping[str, Any], description: str
) -> None:
    """Write (or append to) a TOML file of agent presets, as ``--agent-file`` reads them.

    Raises:
        ValueError: If the file already holds a preset ``name`` (a second table of that name
            would make the whole file invalid TOML), or is not TOML.
    """
    path = Path(path)
    check_preset_free(path, name)
    lines = [
        f"[{name}]",
        f"agent = {json.dumps(agent)}",
        f"description = {json.dumps(description)}",
    ]
    lines += [f"{k} = {_toml_value(v)}" for k, v in params.items()]
    text = "\n".join(lines) + "\n"
    if path.exists():
        text = path.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + text
    path.write_text(text, encoding="utf-8")


def check_preset_free(path: str | Path, name: str) -> None:
    """Refuse a preset name the file already holds, so that appending keeps it valid TOML.

    Raises:
        ValueError: Naming the file and the preset (and how to choose another), or saying
            that an existing file is not TOML.
    """
    import tomllib

    path = Path(path)
    if not path.exists():
        return
    try:
        tables = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path} is not valid TOML, so no preset can go in it: {exc}") from None
    if name in tables:
        raise ValueError(
            f"{path} already has a preset [{name}]; choose another name with --name or "
            "another file with --out"
        )


# ----------------------------------------------------------------------------- tuning a planner
def tune(
    game: str,
    agent: str,
    space: SearchSpace,
    *,
    fixed: Mapping[str, Any] | None = None,
    opponent: str = "rule_based",
    games: int = 20,
    maps: Sequence[str] | None = None,
    config: Mapping[str, Any] | None = None,
    iterations: int = 50,
    neighbours: int = 50,
    k_explore: float = 2.0,
    seed: int = 0,
    workers: int = 1,
    log: Callable[[str], None] | None = None,
) -> NTBEAResult:
    """Tune ``agent``'s parameters on ``game`` against ``opponent`` with NTBEA.

    The fitness of a point is its mean tournament score (a win 1, a draw 1/2) over ``games``
    games with the seats alternating, maps cycled; every evaluation uses new seeds.

    Raises:
        ValueError: For an unknown game, agent or parameter (checked before any game).
    """
    from stratagem.baselines.agent import make_agent, parse_agent_spec
    from stratagem.baselines.tournament import run_tournament
    from stratagem.envs.registry import make_game

    fixed = dict(fixed or {})
    name, base = parse_agent_spec(agent)
    base.update(fixed)
    probe_cfg = dict(config or {})
    if maps:
        from stratagem.baselines.tournament import expand_maps

        maps = expand_maps(maps)
        probe_cfg["map"] = maps[0]
    probe = make_game(game, **probe_cfg)
    first = {n: v[0] for n, v in zip(space.names, space.values, strict=True)}
    make_agent(_spec(name, {**base, **first}), probe)  # unknown parameters fail now
    make_agent(opponent, probe)
    counter = itertools.count()

    def evaluate(params: dict[str, Any]) -> float:
        spec = _spec(name, {**base, **params})
        result = run_tournament(
            game,
            {"candidate": spec},
            against={"opponent": opponent},
            games=games,
            maps=maps,
            config=config,
            seed=seed * 1_000_003 + next(counter),
            workers=workers,
        )
        scores = result.scores("candidate")
        return float(np.mean(scores)) if scores else 0.0

    return ntbea(
        space,
        evaluate,
        iterations=iterations,
        neighbours=neighbours,
        k_explore=k_explore,
        seed=seed,
        log=log,
    )


def _spec(name: str, params: Mapping[str, Any]) -> str:
    from stratagem.baselines.search.presets import spec_string

    return spec_string(name, params)


# ----------------------------------------------------------------------------- CLI
def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``stratagem tune``."""
    p = subparsers.add_parser(
        "tune",
        help="tune an agent's parameters with NTBEA; writes a preset TOML",
        description=(
            "N-Tuple Bandit Evolutionary Algorithm over the discrete parameter values of a "
            "[space] TOML table: each iteration plays --games games of the current candidate "
            "against the opponent (seats alternating, maps cycled) and moves to the most "
            "promising of --neighbours mutants. The best values are written as an agent preset "
            "for 'stratagem tournament --agent-file'."
        ),
    )
    p.add_argument("game", help="game name (see 'stratagem games')")
    p.add_argument(
        "--agent", default=None, help="agent to tune (name or spec; or 'agent' in the file)"
    )
    p.add_argument("--space", required=True, help="TOML file with [space] (and [fixed]) tables")
    p.add_argument("--opponent", default=None, help="opponent spec (default rule_based)")
    p.add_argument("--games", type=int, default=20, help="games per evaluation (default 20)")
    p.add_argument("--iterations", type=int, default=50, help="NTBEA iterations (default 50)")
    p.add_argument("--neighbours", type=int, default=50, help="neighbours per step (default 50)")
    p.add_argument("--k-explore", type=float, default=2.0, help="exploration factor (default 2)")
    p.add_argument("--maps", nargs="+", default=None, help="maps cycled over game pairs")
    add_config_argument(p)
    p.add_argument("--seed", type=non_negative_int, default=0, help="seed, >= 0 (default 0)")
    p.add_argument("--workers", "-w", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--out", "-o", default=None, help="TOML file the tuned preset is appended to")
    p.add_argument("--name", default=None, help="preset name (default tuned_<agent>)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=_cmd_tune)


def _cmd_tune(args: argparse.Namespace) -> int:
    import stratagem.baselines.search.abstraction  # noqa: F401  (registers the SCSA planners)
    from stratagem.baselines.agent import parse_agent_spec

    check_output_path(args.out, "--out")  # before the tuning, not after it
    space, fixed, options = load_space(args.space)
    agent = args.agent or options.get("agent")
    if not agent:
        raise ValueError("give the agent to tune with --agent or 'agent = ...' in the space file")
    name, spec_params = parse_agent_spec(agent)
    preset = args.name or f"tuned_{name}"
    if args.out:
        check_preset_free(args.out, preset)
    opponent = args.opponent or options.get("opponent") or "rule_based"
    config = parse_config(args.config)
    start = time.perf_counter()
    log = None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    result = tune(
        args.game,
        agent,
        space,
        fixed=fixed,
        opponent=opponent,
        games=args.games,
        maps=args.maps,
        config=config,
        iterations=args.iterations,
        neighbours=args.neighbours,
        k_explore=args.k_explore,
        seed=args.seed,
        workers=args.workers,
        log=log,
    )
    # The spec's own parameters (``mcts:budget=30``) were played in every game: keep them.
    params = {**spec_params, **fixed, **result.best}
    print(
        f"best {name} parameters on {args.game}: {params} (estimated score {result.estimate:.3f})"
    )
    print(f"{len(result.history)} evaluations in {time.perf_counter() - start:.0f} s")
    if args.out:
        write_preset(
            args.out,
            preset,
            name,
            params,
            f"NTBEA-tuned {name} on {args.game} against {opponent} "
            f"({args.iterations} iterations x {args.games} games)",
        )
        print(f"preset [{preset}] written to {args.out}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m stratagem.baselines.ntbea`` (the same as ``stratagem tune``)."""
    parser = argparse.ArgumentParser(prog="python -m stratagem.baselines.ntbea")
    sub = parser.add_subparsers(dest="command", required=True)
    register(sub)
    args = parser.parse_args(["tune", *(sys.argv[1:] if argv is None else argv)])
    try:
        return args.func(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
