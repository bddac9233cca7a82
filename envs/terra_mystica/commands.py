"""``stratagem replay terra_mystica <ledger.txt> ...``: replay real games through our engine.

Each ledger is replayed with :func:`stratagem.envs.terra_mystica.replay.replay_file`; the final
VP are checked against the ledger and, when a ``manifest.json`` sits next to the ledger (or is
given with ``--manifest``), against the site's recorded totals.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

__all__ = ["register"]

REPLAY_GAMES = ("terra_mystica",)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``replay``."""
    parser = subparsers.add_parser(
        "replay", help="replay real game logs through a game's engine, checking every row"
    )
    parser.add_argument("game", choices=REPLAY_GAMES, help="game whose logs to replay")
    parser.add_argument("ledgers", nargs="+", help="ledger files (the online game's notation)")
    parser.add_argument(
        "--manifest",
        default=None,
        help="manifest.json with expected final VP (default: one next to each ledger)",
    )
    parser.set_defaults(func=_cmd_replay)


def _cmd_replay(args: argparse.Namespace) -> int:
    from stratagem.envs.terra_mystica.replay import ReplayError, replay_file

    failures = 0
    for name in args.ledgers:
        path = Path(name)
        if not path.is_file():
            raise OSError(f"no such ledger file: {name}")
        manifest = args.manifest
        if manifest is None and (path.parent / "manifest.json").is_file():
            manifest = path.parent / "manifest.json"
        start = time.perf_counter()
        try:
            result = replay_file(path, manifest=manifest)
        except ReplayError as exc:
            failures += 1
            print(f"FAIL {path.name}: {exc}")
            continue
        seconds = time.perf_counter() - start
        vp = ", ".join(f"{f} {v}" for f, v in result.final_vp.items())
        print(
            f"ok   {path.name}: final VP exact ({vp}); {result.rows_checked}/"
            f"{result.rows_total} rows checked, {result.actions} decisions, {seconds:.2f}s"
        )
    total = len(args.ledgers)
    print(f"{total - failures}/{total} games replayed exactly")
    return 1 if failures else 0
