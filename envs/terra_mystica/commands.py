"""``stratagem replay terra_mystica <ledger.txt> ...``: replay real games through our engine.

Each ledger is replayed with :func:`stratagem.envs.terra_mystica.replay.replay_file`; the final
VP are checked against the ledger and, when a ``manifest.json`` sits next to the ledger (or is
given with ``--manifest``), against the site's recorded totals. Every file gets one line, ``ok``
or ``FAIL <file>: ledger line N: <reason>``; a missing or broken file does not stop the batch,
and the exit status is 1 when any file failed.
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
    """Replay every ledger, one line per file; a bad file never stops the others.

    Returns:
        0 when every ledger replayed exactly, 1 when any failed (missing, unreadable,
        malformed or different); each failure is printed as ``FAIL <file>: ledger line N: ...``.
    """
    from stratagem.envs.terra_mystica.replay import ReplayError, replay_file

    failures = 0
    for name in args.ledgers:
        path = Path(name)
        manifest = args.manifest
        if manifest is None and (path.parent / "manifest.json").is_file():
            manifest = path.parent / "manifest.json"
        if not path.is_file():
            failures += 1
            print(f"FAIL {name}: no such ledger file")
            continue
        start = time.perf_counter()
        try:
            result = replay_file(path, manifest=manifest)
        except ReplayError as exc:  # names the file (ledger or manifest) and the line
            failures += 1
            print(f"FAIL {exc}")
            continue
        except OSError as exc:
            failures += 1
            reason = exc.strerror if exc.strerror and exc.filename else exc
            where = exc.filename if exc.filename else name
            print(f"FAIL {where}: {reason}")
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
