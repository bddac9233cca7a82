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

__all__ = [
    "add_config_argument",
    "check_output_path",
    "load_toml",
    "non_negative_int",
    "parse_config",
    "parse_config_value",
    "positive_int",
]


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


def positive_int(text: str) -> int:
    """An argparse type: an integer >= 1 (argparse names the option in its error)."""
    return _int_at_least(text, 1)


def non_negative_int(text: str) -> int:
    """An argparse type: an integer >= 0, such as a seed (argparse names the option)."""
    return _int_at_least(text, 0)


def _int_at_least(text: str, low: int) -> int:
    """``text`` as an integer >= ``low``; argparse turns the error into one naming the option.

    Raises:
        argparse.ArgumentTypeError: For text that is not such an integer.
    """
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or value < low:
        raise argparse.ArgumentTypeError(f"must be an integer >= {low}, got {text!r}")
    return value


def check_output_path(path: str | None, option: str) -> None:
    """Refuse an output file that cannot be written, before any work is done.

    A tournament or a tuning run can take hours, and a benchmark minutes; a typo in the folder
    of ``--out`` would otherwise surface only when the file is written, after all of it.

    Raises:
        ValueError: Naming the option, if the path is a folder or its folder is missing or
            not writable.
    """
    if path is None:
        return
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise ValueError(f"{option} {path} is a folder; give a file name")
    if not folder.is_dir():
        raise ValueError(f"{option} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise ValueError(f"{option} {path} cannot be written (permission denied)")
