"""Agent presets from TOML files: named, parameterised agent specs.

The papers' configurations ship in ``presets.toml`` next to this module and are registered as
agents when :mod:`stratagem.baselines` is imported. Users write files of the same form and pass
them to ``stratagem tournament --agent-file``. A preset becomes a self-contained spec string
(``"mcts:budget=10000,c=0.1,..."``), which is what crosses process boundaries in tournaments.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from stratagem.baselines.agent import Agent, make_agent, register_agent
from stratagem.envs.cli_options import load_toml
from stratagem.envs.core import Game

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = [
    "PACKAGED_PRESETS",
    "load_agent_file",
    "parse_agent_table",
    "register_presets",
    "spec_string",
]

#: Name -> spec string of the presets shipped with stratagem (filled by :func:`register_presets`).
PACKAGED_PRESETS: dict[str, str] = {}


def spec_string(agent: str, params: Mapping[str, Any]) -> str:
    """Write ``agent`` and its parameters as a ``name:key=value,...`` spec.

    Raises:
        ValueError: If a value cannot be written so that the spec parser reads it back.
    """
    items = []
    for key, value in params.items():
        text = value if isinstance(value, str) else json.dumps(value)
        if isinstance(value, str):
            try:
                json.loads(value)
            except json.JSONDecodeError:
                pass
            else:
                raise ValueError(
                    f"preset parameter {key}={value!r}: a string that reads as "
                    f"JSON would change type in a spec"
                )
        if "," in text or "=" in text:
            raise ValueError(
                f"preset parameter {key}={value!r} cannot be written in a spec "
                f"(no ',' or '=' allowed)"
            )
        items.append(f"{key}={text}")
    return agent + (":" + ",".join(items) if items else "")


def parse_agent_table(
    data: Mapping[str, Any], where: str
) -> dict[str, tuple[str, str, tuple[str, ...] | None]]:
    """Turn a parsed TOML document into ``{name: (spec, description, games)}``.

    ``games`` is the preset's optional ``games = ["tribes"]`` key: the games it is made for
    (``None``: every game). A paper's preset relies on its game's rules (Tribes' root
    prioritisation needs action groups), so it is registered for those games only.

    Raises:
        ValueError: If a table lacks ``agent``, is not a table, or has a ``games`` key that is
            not a non-empty list of game names.
    """
    out: dict[str, tuple[str, str, tuple[str, ...] | None]] = {}
    for name, table in data.items():
        if not isinstance(table, dict):
            raise ValueError(f"{where}: '{name}' must be a table of agent parameters")
        params = dict(table)
        agent = params.pop("agent", None)
        if not isinstance(agent, str) or not agent:
            raise ValueError(f'{where}: agent preset [{name}] needs agent = "<registered name>"')
        description = str(params.pop("description", f"preset of {agent}"))
        games = params.pop("games", None)
        if games is not None and (
            not isinstance(games, list) or not games or not all(isinstance(g, str) for g in games)
        ):
            raise ValueError(
                f"{where}: agent preset [{name}]: games must be a non-empty list of game "
                f"names, got {games!r}"
            )
        out[name] = (spec_string(agent, params), description, tuple(games) if games else None)
    return out


def load_agent_file(path: str | Path) -> dict[str, str]:
    """Read a TOML file of agent presets; returns ``{name: spec}``.

    Raises:
        ValueError: For a missing file, invalid TOML or a malformed preset; also for a preset
            with a ``games`` key, which only the packaged presets may have (a file's presets
            become plain specs, which could not keep the restriction).
    """
    path = Path(path)
    data = load_toml(path, "agent file")
    presets: dict[str, str] = {}
    for name, (spec, _, games) in parse_agent_table(data, str(path)).items():
        if games is not None:
            raise ValueError(
                f"{path}: agent preset [{name}]: games is for the packaged presets only; "
                "remove it (a file's presets play any game)"
            )
        presets[name] = spec
    return presets


def register_presets() -> None:
    """Register the packaged presets as agents (idempotent)."""
    if PACKAGED_PRESETS:
        return
    text = (
        resources.files("stratagem.baselines.search")
        .joinpath("presets.toml")
        .read_text(encoding="utf-8")
    )
    table = parse_agent_table(tomllib.loads(text), "presets.toml")
    for name, (spec, description, games) in table.items():
        PACKAGED_PRESETS[name] = spec
        register_agent(name, _preset_factory(spec), description, games=games)


def _preset_factory(spec: str) -> Callable[..., Agent]:
    """Factory building the preset's agent, keyword overrides applied on top."""

    def factory(game: Game, **overrides: Any) -> Agent:
        return make_agent(spec, game, **overrides)

    return factory
