"""Game options written on a command line: ``-c key=value``, shared by every area's commands.

Every command that builds a game (``stratagem games``, ``bench``, ``play``, ``tournament``,
``train``, the benchmark scripts) takes its options the same way. The helpers live here, at the
bottom layer next to the registry that validates the options, so that each area's command
module can use them without importing another area's commands. So does the reading of the
TOML files that commands take (:func:`load_toml`: agent presets, NTBEA spaces, training
configs), so that every one reports a missing or malformed file alike.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from stratagem.envs.registry import parse_config_value

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

__all__ = ["add_config_argument", "load_toml", "parse_config", "parse_config_value"]


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


def load_toml(path: str | os.PathLike[str], what: str) -> dict[str, Any]:
    """Read a TOML file, with an error that names it as ``what`` (``"agent file"``).

    Raises:
        ValueError: For a missing or unreadable file, or text that is not valid TOML (or not
            UTF-8, which TOML requires).
    """
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{what} {path} does not exist") from None
    except OSError as exc:
        raise ValueError(f"cannot read {what} {path}: {exc}") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{what} {path} is not valid TOML: {exc}") from exc
