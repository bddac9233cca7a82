"""The ``stratagem`` command: one entry point whose subcommands live in their own areas.

Each module in :data:`COMMAND_MODULES` exposes ``register(subparsers)``, which adds its
subcommands and sets ``func`` (taking the parsed arguments, returning an exit code) on each.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

__all__ = ["COMMAND_MODULES", "build_parser", "configure_logging", "main"]

#: Modules contributing subcommands, in the order ``stratagem --help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "stratagem.envs.commands",  # games
    "stratagem.baselines.bench",  # bench (the forward model's speed, and a planner's)
    "stratagem.baselines.play",  # play
    "stratagem.baselines.tournament",  # tournament
    "stratagem.baselines.ntbea",  # tune
    "stratagem.training.commands",  # train
    "stratagem.baselines.viewer",  # replay (records, Terra Mystica ledgers), view
    "stratagem.baselines.training_curves",  # plot-training
)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every area's subcommands."""
    from stratagem import __version__

    parser = argparse.ArgumentParser(
        prog="stratagem",
        description="Turn-based strategy games for AI research.",
    )
    parser.add_argument("--version", action="version", version=f"stratagem {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        importlib.import_module(module).register(subparsers)
    return parser


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is at the time of each message (tests swap it)."""

    @property
    def stream(self) -> object:  # type: ignore[override]
        """The current ``sys.stderr``."""
        return sys.stderr

    @stream.setter
    def stream(self, value: object) -> None:
        pass


def configure_logging() -> None:
    """Show the library's messages (logger ``stratagem``, INFO and up) on stderr, once.

    The library logs instead of printing, so that a program importing it decides what is shown;
    the command line is such a program and shows progress lines as before. Idempotent.
    """
    logger = logging.getLogger("stratagem")
    if not any(isinstance(h, _StderrHandler) for h in logger.handlers):
        handler = _StderrHandler()
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False  # a root handler set up elsewhere would print it twice


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    configure_logging()
    if getattr(args, "func", None) is None:
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (ValueError, KeyError, OSError) as exc:  # bad game, option, map, file: one clear line
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"stratagem {args.command}: error: {message}", file=sys.stderr)
        return 2
