"""The game registry: names to game factories with their configuration keywords.

Everything that takes a game by name (the CLI, environments, tournaments, training) goes
through :func:`make_game`, so an unknown game or option is rejected in one place with one clear
message. Games register themselves when :mod:`stratagem.envs` is imported.

A game's entry is also the one place that names its agent knowledge: its rule-based agent, its
heuristic evaluator and its table of named agents. They live in ``stratagem.baselines``, a
layer above this one, so the entry names them as ``"module:attribute"`` strings that
:func:`load_target` imports when an agent or planner first asks: what a process gets then
depends on the entry alone, never on which modules happened to be imported first.
"""

from __future__ import annotations

import importlib
import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from stratagem.envs.core import Game, State
from stratagem.envs.state_json import InvalidStateError, load_state_json, untrusted_config

__all__ = [
    "GameEntry",
    "UnknownGameError",
    "UnknownOptionError",
    "batched_game_names",
    "game_entry",
    "list_games",
    "load_target",
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


class UnknownOptionError(TypeError, ValueError):
    """Raised for a configuration keyword that the game does not have.

    It is a ``TypeError`` because that is Python's convention for an unexpected keyword
    argument, and libraries that probe ``gym.make(id, some_option=...)`` fall back on exactly
    that; it is also a ``ValueError`` (bad input), so code that validates user input with
    ``except ValueError`` keeps working.
    """


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
        rule_based_agent: ``module:attribute`` of the game's rule-based agent class (built
            as ``cls(game, **params)`` for the agent name ``rule_based``), if it has one.
        evaluator: ``module:attribute`` of the game's heuristic evaluator class (built with the
            game), used by the planners by default; ``None`` when the game has none (the
            planners then score only terminal states).
        agents: ``module:attribute`` of the game's table of named agents, a mapping of agent
            name to ``(factory, description)`` with ``factory(game, **params) -> Agent``
            (``cotg_pgs``, ``prismata_master``, ...); ``None`` when the game has none. The
            agent registry loads it the next time an agent is built or listed by name.
        batched: ``module:attribute`` of the game's batched version on torch tensors (a
            :class:`~stratagem.envs.batched.core.BatchedGame` class, built as
            ``cls(game, device)``); ``None`` when the game has none.
    """

    name: str
    factory: Callable[..., Game]
    defaults: Mapping[str, Any]
    description: str
    env_id: str
    test_configs: Sequence[Mapping[str, Any]] = field(default_factory=lambda: ({},))
    rule_based_agent: str | None = None
    evaluator: str | None = None
    agents: str | None = None
    batched: str | None = None


_REGISTRY: dict[str, GameEntry] = {}

#: Options that no game has any more, with what replaced them. ``make_game`` rejects them with
#: this message (as :class:`UnknownOptionError`), so that old scripts fail loudly and say what to
#: write, instead of silently playing another length. Every game's length option is
#: ``max_rounds``: rounds played at most, a round being one turn of every player.
RENAMED_OPTIONS: dict[str, str] = {
    "round_limit": (
        "use max_rounds, the number of rounds played at most; round_limit was the round "
        "counter's draw value, which starts at 1, so round_limit=N is max_rounds=N-1"
    ),
    "turn_limit": (
        "use max_rounds, the number of rounds played at most (a round is a turn of each "
        "player); turn_limit counted player-turns, so turn_limit=N is max_rounds=N/2"
    ),
    "max_turns": (
        "use max_rounds, the number of rounds played at most; max_turns was the last turn, "
        "counted from 0, so max_turns=N is max_rounds=N+1 (0 still means the mode's length)"
    ),
}


def register(
    name: str,
    factory: Callable[..., Game],
    *,
    description: str,
    env_id: str,
    test_configs: Sequence[Mapping[str, Any]] = ({},),
    rule_based_agent: str | None = None,
    evaluator: str | None = None,
    agents: str | None = None,
    batched: str | None = None,
) -> GameEntry:
    """Register a game; its keywords and defaults are read from ``factory``'s signature.

    ``rule_based_agent``, ``evaluator``, ``agents`` and ``batched`` are ``"module:attribute"``
    strings (see :class:`GameEntry`); they are checked for that form here and imported only when
    used, so registering a game imports nothing from the layers above (nor torch).

    Raises:
        ValueError: If ``name`` is already registered or a target is not ``module:attribute``.
        TypeError: If a factory option is not keyword-only or has no default.
    """
    if name in _REGISTRY:
        raise ValueError(f"game {name!r} is already registered")
    for what, target in (
        ("rule_based_agent", rule_based_agent),
        ("evaluator", evaluator),
        ("agents", agents),
        ("batched", batched),
    ):
        if target is not None:
            _check_target(target, f"{name}: {what}")
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
        agents=agents,
        batched=batched,
    )
    _REGISTRY[name] = entry
    return entry


def _check_target(target: object, what: str) -> tuple[str, str]:
    """Split ``"module:attribute"``; a malformed target is refused when it is registered.

    Raises:
        ValueError: If ``target`` is not a string of the form ``module:attribute``.
    """
    if not isinstance(target, str):
        raise ValueError(f"{what} must be a 'module:attribute' string, got {target!r}")
    module, colon, attr = target.partition(":")
    if not colon or not module or not attr or ":" in attr:
        raise ValueError(f"{what} must be written 'module:attribute', got {target!r}")
    return module, attr


def load_target(target: str, what: str = "target") -> Any:
    """Import ``"module:attribute"`` (dots allowed in the attribute) and return the object.

    The registry names agent knowledge by such strings because it lives in a layer above this
    one; this is the single place they are resolved.

    Args:
        target: ``"package.module:Name"``.
        what: What the target is, for the error message (``"kill_the_king: evaluator"``).

    Raises:
        ValueError: If the target is malformed, its module cannot be imported or it has no
            such attribute; the message names ``what`` and the target.
    """
    module_name, attr = _check_target(target, what)
    try:
        obj: Any = importlib.import_module(module_name)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"{what}: cannot load {target!r}: {exc}") from exc
    return obj


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


def batched_game_names() -> list[str]:
    """Names of the games with a batched version (:mod:`stratagem.envs.batched`), sorted."""
    _ensure_loaded()
    return sorted(n for n, e in _REGISTRY.items() if e.batched is not None)


def make_game(name: str, **config: Any) -> Game:
    """Build the game ``name`` with configuration keywords.

    Raises:
        UnknownGameError: If the game is not registered.
        UnknownOptionError: If an option is unknown (a ``TypeError`` and a ``ValueError``).
        ValueError: If an option's value is invalid (the game's factory decides what is valid
            and says why).
    """
    entry = game_entry(name)
    renamed = [k for k in sorted(config) if k in RENAMED_OPTIONS and k not in entry.defaults]
    if renamed:
        raise UnknownOptionError(
            f"{name}: option {renamed[0]!r} was renamed: {RENAMED_OPTIONS[renamed[0]]}"
        )
    unknown = sorted(set(config) - set(entry.defaults))
    if unknown:
        valid = ", ".join(sorted(entry.defaults)) or "none"
        # Python's own wording too: libraries retry without a probed keyword (gym.make with
        # render_mode, TorchRL's GymEnv with frameskip) only when the message says it
        raise UnknownOptionError(
            f"{name}: unknown option(s) {', '.join(unknown)} ({name}() got an unexpected "
            f"keyword argument {unknown[0]!r}); valid options: {valid}"
        )
    return entry.factory(**config)


def state_from_json(text: str, *, trusted: bool = False) -> State:
    """Rebuild any registered game's state from :meth:`State.to_json` output.

    The game is built from the JSON's own ``game`` and ``config``, so the JSON decides what the
    game constructor reads. By default (``trusted=False``) the JSON is untrusted input: a
    configuration that names a file (a map or level path) is refused before any file is touched;
    registered map names, generated maps and inline layouts are fine. Pass ``trusted=True`` only
    for JSON you wrote yourself, or build the game and call ``game.state_from_json(text)``.

    Raises:
        InvalidStateError: For anything wrong with the text, including an unknown game, an
            unknown or invalid option, or (untrusted) a file path in the configuration.
    """
    data = load_state_json(text, "state_from_json")
    config = data.get("config")
    if not isinstance(config, dict):
        raise InvalidStateError("state JSON must be an object with 'game' and 'config'")
    if not isinstance(data.get("game"), str):
        raise InvalidStateError(f"state JSON names no game: {data.get('game')!r}")
    try:
        if trusted:
            game = make_game(data["game"], **config)
        else:
            with untrusted_config():
                game = make_game(data["game"], **config)
    except InvalidStateError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, OverflowError) as exc:
        # an unknown game or option, or an option value its game refuses (or chokes on)
        raise InvalidStateError(f"state JSON: {exc}") from exc
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
