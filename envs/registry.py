"""The game registry: names to game factories with their configuration keywords.

Everything that takes a game by name (the CLI, environments, tournaments, training) goes
through :func:`make_game`, so an unknown game or option is rejected in one place with one clear
message. Games register themselves when :mod:`stratagem.envs` is imported.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from stratagem.envs.core import Game, InvalidStateError, State

__all__ = [
    "GameEntry",
    "UnknownGameError",
    "game_entry",
    "list_games",
    "make_game",
    "register",
    "state_from_json",
]


class UnknownGameError(KeyError, ValueError):
    """Raised for a game name that is not registered.

    It is a ``KeyError`` (a failed lookup) and a ``ValueError`` (bad input), so callers that
    validate user input with ``except ValueError`` catch it too.
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"


@dataclass(frozen=True)
class GameEntry:
    """One registered game.

    Attributes:
        name: Registry name (``"kill_the_king"``).
        factory: Callable taking the configuration keywords and returning a :class:`Game`.
        defaults: Every accepted keyword with its default value.
        description: One line shown by ``stratagem games``.
        env_id: Gymnasium id (``"stratagem/KillTheKing-v0"``).
        test_configs: Configurations the conformance suite runs (the default one included).
        rule_based_agent: ``module:attribute`` of the game's rule-based agent, if it has one.
        evaluator: ``module:attribute`` of the game's heuristic evaluator class (built with the
            game), used by the planners by default; ``None`` when the game has none.
    """

    name: str
    factory: Callable[..., Game]
    defaults: Mapping[str, Any]
    description: str
    env_id: str
    test_configs: Sequence[Mapping[str, Any]] = field(default_factory=lambda: ({},))
    rule_based_agent: str | None = None
    evaluator: str | None = None


_REGISTRY: dict[str, GameEntry] = {}


def register(
    name: str,
    factory: Callable[..., Game],
    *,
    description: str,
    env_id: str,
    test_configs: Sequence[Mapping[str, Any]] = ({},),
    rule_based_agent: str | None = None,
    evaluator: str | None = None,
) -> GameEntry:
    """Register a game; its keywords and defaults are read from ``factory``'s signature."""
    if name in _REGISTRY:
        raise ValueError(f"game {name!r} is already registered")
    defaults: dict[str, Any] = {}
    for param in inspect.signature(factory).parameters.values():
        if param.kind is not inspect.Parameter.KEYWORD_ONLY:
            raise TypeError(f"{name}: factory options must be keyword-only, {param.name} is not")
        if param.default is inspect.Parameter.empty:
            raise TypeError(f"{name}: factory option {param.name} needs a default")
        defaults[param.name] = param.default
    entry = GameEntry(
        name=name,
        factory=factory,
        defaults=defaults,
        description=description,
        env_id=env_id,
        test_configs=tuple(dict(c) for c in test_configs),
        rule_based_agent=rule_based_agent,
        evaluator=evaluator,
    )
    _REGISTRY[name] = entry
    return entry


def game_entry(name: str) -> GameEntry:
    """The registry entry of ``name``.

    Raises:
        UnknownGameError: If no game of that name is registered; the message lists the names.
    """
    _ensure_loaded()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownGameError(f"unknown game {name!r}; registered games: {known}") from None


def list_games() -> list[str]:
    """Registered game names, sorted."""
    _ensure_loaded()
    return sorted(_REGISTRY)


def make_game(name: str, **config: Any) -> Game:
    """Build the game ``name`` with configuration keywords.

    Raises:
        UnknownGameError: If the game is not registered.
        ValueError: If an option is unknown or its value is invalid (the game's factory decides
            what is valid and says why).
    """
    entry = game_entry(name)
    unknown = sorted(set(config) - set(entry.defaults))
    if unknown:
        valid = ", ".join(sorted(entry.defaults)) or "none"
        raise ValueError(f"{name}: unknown option(s) {', '.join(unknown)}; valid options: {valid}")
    return entry.factory(**config)


def state_from_json(text: str) -> State:
    """Rebuild any registered game's state from :meth:`State.to_json` output."""
    try:
        data = json.loads(text)
    except (TypeError, json.JSONDecodeError) as exc:
        raise InvalidStateError(f"state is not valid JSON: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("config"), dict):
        raise InvalidStateError("state JSON must be an object with 'game' and 'config'")
    game = make_game(str(data.get("game")), **data["config"])
    return game.state_from_json(text)


def parse_config_value(text: str) -> Any:
    """Interpret a ``key=value`` value from the command line: JSON if it parses, else a string."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _ensure_loaded() -> None:
    """Import the game modules so that they register (idempotent)."""
    import stratagem.envs  # noqa: F401  (registers the built-in games)
