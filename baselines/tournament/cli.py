"""The ``stratagem tournament`` command: its arguments, agent presets and level-seed ranges.

:func:`register` adds the subcommand; ``_cmd_tournament`` resolves presets and ranges, runs
:func:`~.runner.run_tournament` and prints the tables (and writes the heat map).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Mapping, Sequence

from stratagem.baselines.tournament.runner import run_tournament
from stratagem.baselines.tournament.schedule import split_agent_list
from stratagem.baselines.tournament.summary import plot_heatmap

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``stratagem tournament``."""
    from stratagem.envs.cli_options import add_config_argument, non_negative_int, positive_int

    p = subparsers.add_parser(
        "tournament",
        help="round robin with side switching; prints win rates with standard errors",
        description=(
            "Play every pairing of the agents on the same levels and seeds with the seats "
            "switched, in parallel, and print the win-rate matrix (row vs column, standard "
            "errors, draws count half), overall records and end-of-game statistics. With "
            "--out, games are appended to a JSON Lines file as they finish and a rerun resumes."
        ),
    )
    p.add_argument("game", help="game name (see 'stratagem games')")
    p.add_argument(
        "--agents",
        "-a",
        required=True,
        action="append",
        help="comma-separated agent specs or preset names, e.g. "
        "'mcts:budget=2000,c=1.414,rule_based,random' (repeatable)",
    )
    p.add_argument(
        "--against",
        action="append",
        default=None,
        help="fixed opponents: each --agents entry plays only these (a gauntlet)",
    )
    p.add_argument(
        "--games",
        "-n",
        type=int,
        default=20,
        help="games per pairing, seats alternating (default 20)",
    )
    p.add_argument(
        "--maps",
        nargs="+",
        default=None,
        help="maps cycled over game pairs; 'kwah:1-50' is a range (game's map option)",
    )
    p.add_argument(
        "--levels",
        type=int,
        default=None,
        help="number of distinct level seeds cycled over game pairs",
    )
    p.add_argument(
        "--level-seeds",
        nargs="+",
        default=None,
        help="initial-state seeds cycled over game pairs, as given; '2018-2067' is a range",
    )
    p.add_argument(
        "--symmetric",
        action="store_true",
        help="score each pair of games (one level, seats switched) as one battle, won by the "
        "agent that won more of the two (the CotG paper's sym-win)",
    )
    p.add_argument(
        "--tie-break",
        default=None,
        metavar="STAT",
        help="per-player end statistic deciding a split pair with --symmetric (cotg_combat: hp)",
    )
    add_config_argument(p)
    p.add_argument(
        "--workers",
        "-w",
        type=positive_int,
        default=os.cpu_count() or 1,
        help="worker processes (default: CPU count; 1 plays in this process); with --backend "
        "ray and no cluster address, the CPUs of the Ray instance started here",
    )
    p.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local: worker processes on this machine (default); ray: one Ray task per game on "
        "a Ray cluster (pip install 'stratagem[distributed]'; docs/distributed.md)",
    )
    p.add_argument(
        "--ray-address",
        default=None,
        help="Ray cluster to join with --backend ray (default: $RAY_ADDRESS, else a Ray "
        "instance started here for the tournament)",
    )
    p.add_argument(
        "--out",
        "-o",
        default=None,
        help="JSON Lines results file, appended game by game; reruns resume",
    )
    p.add_argument("--plot", default=None, help="write a win-rate heat map PNG (matplotlib)")
    p.add_argument("--seed", type=non_negative_int, default=0, help="base seed, >= 0 (default 0)")
    p.add_argument(
        "--agent-file", default=None, help="TOML file of named agent presets usable in --agents"
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_tournament)


def _resolve(items: Sequence[str] | None, presets: Mapping[str, str]) -> dict[str, str]:
    """Name -> spec of the agents listed, with ``--agent-file`` presets written out.

    Parameters given with a preset's name (``fast:budget=50``) replace the preset's own: the
    two are merged here, because a spec that names a parameter twice is refused.
    """
    from stratagem.baselines.agent import parse_agent_spec
    from stratagem.baselines.search.presets import spec_string

    named: dict[str, str] = {}
    for item in items or ():
        for spec in split_agent_list(item):
            name = spec
            head, _, rest = spec.partition(":")
            if head in presets:
                spec = presets[head]
                if rest:
                    agent, params = parse_agent_spec(spec)
                    params.update(parse_agent_spec(name)[1])
                    spec = spec_string(agent, params)
            if name in named:
                raise ValueError(f"agent {name!r} is listed twice")
            named[name] = spec
    return named


def _parse_seeds(items: Sequence[str] | None) -> list[int] | None:
    """``["2018-2020", "7,9"]`` -> ``[2018, 2019, 2020, 7, 9]``.

    Raises:
        ValueError: For an item that is neither an integer nor a range ``A-B`` with ``A <= B``.
    """
    if items is None:
        return None
    seeds: list[int] = []
    for item in items:
        for part in filter(None, (p.strip() for p in item.split(","))):
            match = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
            low = int(match.group(1)) if match else 0
            high = int(match.group(2) or low) if match else -1
            if high < low:
                raise ValueError(
                    f"level seed {part!r} is neither an integer nor a range like 2018-2067"
                )
            seeds.extend(range(low, high + 1))
    return seeds


def _cmd_tournament(args: argparse.Namespace) -> int:
    from stratagem.envs.cli_options import check_output_path, parse_config

    presets: dict[str, str] = {}
    if args.agent_file:
        from stratagem.baselines.search.presets import load_agent_file

        presets = load_agent_file(args.agent_file)
    agents = _resolve(args.agents, presets)
    against = _resolve(args.against, presets) if args.against else None
    # fail before playing for an hour, not after
    check_output_path(args.out, "--out")
    check_output_path(args.plot, "--plot")
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise ValueError("--plot needs matplotlib: pip install 'stratagem[plot]'") from None
    try:
        result = run_tournament(
            args.game,
            agents,
            games=args.games,
            against=against,
            config=parse_config(args.config),
            maps=args.maps,
            levels=args.levels,
            seed=args.seed,
            workers=args.workers,
            out=args.out,
            progress=not args.no_progress,
            backend=args.backend,
            ray_address=args.ray_address,
            level_seeds=_parse_seeds(args.level_seeds),
            symmetric=args.symmetric,
            tie_break=args.tie_break,
        )
    except RuntimeError as exc:  # an agent failed inside a game: one clear line, not a trace
        raise ValueError(str(exc)) from exc
    except KeyboardInterrupt:
        if args.out:
            print(
                f"interrupted: finished games are in {args.out}; rerun the same command to resume",
                file=sys.stderr,
            )
        raise
    print(result.table())
    if args.out:
        print(f"\nresults: {args.out}")
    if args.plot:
        plot_heatmap(result, args.plot)
        print(f"heat map: {args.plot}")
    return 0
