"""Game options written on a command line: ``-c key=value``, shared by every area's commands.

Every command that builds a game (``stratagem games``, ``bench``, ``play``, ``tournament``,
``train``, the benchmark scripts) takes its options the same way. The helpers live here, at the
bottom layer next to the registry that validates the options, so that each area's command
module can use them without importing another area's commands.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from stratagem.envs.registry import parse_config_value

__all__ = ["add_config_argument", "parse_config", "parse_config_value"]


def parse_config(items: Sequence[str] | None) -> dict[str, Any]:
    """Turn ``["map=kwah:3", "max_rounds=49"]`` into keywords (values parsed as JSON if they can).

    Raises:
        ValueError: If an item is not written ``key=value``.
    """
    config: dict[str, Any] = {}
    for item in items or ():
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"game option {item!r} must be written key=value")
        config[key] = parse_config_value(value)
    return config


def add_config_argument(parser: argparse.ArgumentParser) -> None:
    """The ``--config key=value`` option shared by every command that builds a game."""
    parser.add_argument(
        "--config",
        "-c",
        action="append",
        metavar="KEY=VALUE",
        help="game option, repeatable (e.g. -c map=kwah:3 -c max_rounds=49)",
    )
