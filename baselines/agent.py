"""The ``Agent`` protocol and the registry that builds agents from ``name:key=value`` specs.

An agent is handed a copy of the state as seen by the acting player
(:meth:`State.observed_by`) and a random generator, and returns one action index. Agents that
keep memory across decisions of one game implement :meth:`Agent.reset`, which runners call at
the start of every game. Planners count their budget in forward-model calls (``apply``).

Where the names come from, so that every process knows the same ones whatever it imported first:

* the generic agents of this package (``random``, ``mcts``, the papers' presets, ...), registered
  with :func:`register_agent` when :mod:`stratagem.baselines` is imported;
* ``rule_based``, which builds the class named by the game's registry entry;
* each game's table of named agents (``cotg_pgs``, ``prismata_master``, ...), named by the
  ``agents`` field of its registry entry;
* tables of layers above this one or of other packages, named with :func:`register_agent_table`
  (the ``stratagem`` package names ``stratagem.training``'s ``alphazero`` and ``ppo`` this way).

The tables are imported together, once, the first time an agent is built or listed by name.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from stratagem.envs.core import Game, State
from stratagem.envs.registry import game_entry, list_games, load_target, parse_config_value

__all__ = [
    "Agent",
    "AgentFactory",
    "AgentTable",
    "BaseAgent",
    "Evaluator",
    "EvaluatorAbstractionGate",
    "EvaluatorFastValues",
    "EvaluatorMemory",
    "EvaluatorRoot",
    "agent_names",
    "make_agent",
    "parse_agent_spec",
    "register_agent",
    "register_agent_table",
]

#: CPython's message for a keyword a callable does not take (how an agent refuses one).
_UNEXPECTED_KEYWORD = re.compile(r"unexpected keyword argument '(\w+)'")


@runtime_checkable
class Agent(Protocol):
    """What every agent implements."""

    name: str

    def act(self, state: State, *, rng: np.random.Generator) -> int:
        """Choose a legal action for ``state.current_player``; ``state`` is the agent's own copy."""
        ...

    def reset(self) -> None:
        """Forget everything about the previous game."""
        ...


class BaseAgent:
    """Convenience base: a name and a no-op :meth:`reset`."""

    name = "agent"

    def reset(self) -> None:
        """Stateless by default."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


#: ``factory(game, **params) -> Agent``.
AgentFactory = Callable[..., Agent]
#: Agent name -> (factory, one-line description): what a game's ``agents`` entry names.
AgentTable = Mapping[str, tuple[AgentFactory, str]]

_AGENTS: dict[str, tuple[AgentFactory, str]] = {}
#: Agent name -> the games it plays, for agents made for some games only (a game's own table,
#: a paper's preset); agents absent here play every game.
_AGENT_GAMES: dict[str, frozenset[str]] = {}
#: ``"module:attribute"`` of agent tables from above this layer (see :func:`register_agent_table`).
_TABLE_TARGETS: list[str] = []
#: Tables whose agents are in :data:`_AGENTS` already.
_LOADED_TABLES: set[str] = set()


def register_agent(
    name: str,
    factory: AgentFactory,
    description: str,
    *,
    games: Sequence[str] | None = None,
) -> None:
    """Register ``factory(game, **params) -> Agent`` under ``name``.

    Args:
        name: The name specs use.
        factory: Builds the agent for a game from the spec's parameters.
        description: One line, shown where agents are listed.
        games: The games the agent is made for (a paper's preset tuned for one game), or
            ``None`` for every game. :func:`make_agent` refuses it on any other game, because
            such an agent relies on that game's rules and would fail deep inside a game, and
            the unknown-agent error of another game does not list it.

    Raises:
        ValueError: If ``name`` is already registered or ``games`` is empty.
    """
    if name in _AGENTS:
        raise ValueError(f"agent {name!r} is already registered")
    if games is not None:
        if isinstance(games, str) or not games or not all(isinstance(g, str) for g in games):
            raise ValueError(f"agent {name!r}: games must be a non-empty list of game names")
        _AGENT_GAMES[name] = frozenset(games)
    _AGENTS[name] = (factory, description)


def register_agent_table(target: str) -> None:
    """Name a table of agents (``"module:attribute"`` of an :data:`AgentTable`) to load lazily.

    For agents defined above this layer (``stratagem.training``'s trained networks) or in
    another package: the table's module is imported only when agents are next built or listed
    by name, so naming it costs nothing and creates no import of the layer above. Naming the
    same table again changes nothing. A game's own agents are named by its registry entry.

    Raises:
        ValueError: If ``target`` is not written ``module:attribute``.
    """
    if not isinstance(target, str) or ":" not in target:
        raise ValueError(f"agent table must be named 'module:attribute', got {target!r}")
    if target not in _TABLE_TARGETS:
        _TABLE_TARGETS.append(target)


def agent_names() -> dict[str, str]:
    """Registered agent names with their one-line descriptions."""
    _ensure_loaded()
    return {k: v[1] for k, v in sorted(_AGENTS.items())}


def _constructor_keywords(cls: type) -> set[str]:
    """The keywords the constructors along ``cls``'s MRO take, beside ``game`` and ``config``."""
    names: set[str] = set()
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None or klass is object:
            continue
        for p in inspect.signature(init).parameters.values():
            if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD):
                names.add(p.name)
    return names - {"self", "game", "config"}


def refuse_unknown_keywords(
    owner: type, given: Iterable[str], takes: Iterable[str] | None = None
) -> None:
    """Refuse keywords outside ``takes`` as Python words it, listing what ``owner`` accepts.

    The list (``takes`` and the keywords of ``owner``'s constructors) answers a misspelt
    parameter in an agent spec with the right spelling.

    Args:
        owner: The class the keywords are for.
        given: The keywords given.
        takes: The keywords allowed (``None``: those of ``owner``'s constructors).

    Raises:
        TypeError: Naming the first unknown keyword and what ``owner`` accepts.
    """
    constructors = _constructor_keywords(owner)
    allowed = constructors if takes is None else set(takes)
    unknown = sorted(set(given) - allowed)
    if unknown:
        accepts = ", ".join(sorted(allowed | constructors))
        raise TypeError(
            f"{owner.__name__}() got an unexpected keyword argument {unknown[0]!r} "
            f"(it accepts: {accepts})"
        )


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"mcts:budget=2000,c=1.414"`` into ``("mcts", {"budget": 2000, "c": 1.414})``.

    Raises:
        ValueError: If a parameter is not written ``key=value`` or is given twice (the
            second value would silently win).
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"agent spec must be a non-empty string, got {spec!r}")
    name, _, rest = spec.strip().partition(":")
    params: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"agent spec {spec!r}: parameter {item!r} must be written key=value")
        key = key.strip()
        if key in params:
            raise ValueError(f"agent spec {spec!r}: parameter {key!r} is given twice")
        params[key] = parse_config_value(value.strip())
    return name.strip(), params


def make_agent(spec: str | Agent, game: Game, **overrides: Any) -> Agent:
    """Build an agent for ``game`` from a spec such as ``"rule_based"`` or ``"mcts:budget=500"``.

    An object that already implements :class:`Agent` is returned as it is. ``overrides`` are
    Python keywords, so one the agent does not take is a ``TypeError`` (as any call's is); a
    parameter written in the spec string is data, so a bad one is a ``ValueError`` (what the
    command line reports).

    Raises:
        TypeError: If ``spec`` is neither a string nor an agent, ``game`` is not a
            :class:`~stratagem.envs.core.Game`, or an override is a keyword the agent does not
            take.
        ValueError: For an unknown agent name (the message lists the agents that play
            ``game``), an agent made for other games, or a spec parameter the agent does not
            take.
    """
    if not isinstance(spec, str):
        if isinstance(spec, Agent):
            return spec
        raise TypeError(f"make_agent() needs an agent spec string or an agent, got {spec!r}")
    if not isinstance(game, Game):
        raise TypeError(f"make_agent() needs a Game (make_game(...)), got {game!r}")
    _ensure_loaded()
    name, params = parse_agent_spec(spec)
    game_name = game.spec.name
    if name not in _AGENTS:
        known = ", ".join(n for n in sorted(_AGENTS) if _plays(n, game_name))
        raise ValueError(f"unknown agent {name!r}; agents for {game_name}: {known}")
    if not _plays(name, game_name):
        made_for = ", ".join(sorted(_AGENT_GAMES[name]))
        raise ValueError(f"agent {name!r} is made for {made_for} only, not {game_name}")
    factory = _AGENTS[name][0]
    spec_keys = set(params)
    params.update(overrides)
    try:
        return factory(game, **params)
    except TypeError as exc:
        bad = _UNEXPECTED_KEYWORD.search(str(exc))
        if bad and bad.group(1) in overrides and bad.group(1) not in spec_keys:
            accepts = str(exc).partition(" (it accepts:")[2]
            raise TypeError(
                f"make_agent() got an unexpected keyword argument {bad.group(1)!r} "
                f"for agent {name!r}" + (f" (it accepts:{accepts}" if accepts else "")
            ) from exc
        raise ValueError(f"agent {spec!r}: {exc}") from exc


def _plays(name: str, game: str) -> bool:
    """Whether the registered agent ``name`` may play ``game`` (see :func:`register_agent`)."""
    games = _AGENT_GAMES.get(name)
    return games is None or game in games


def _rule_based(game: Game, **params: Any) -> Agent:
    """The game's own rule-based agent: the class its registry entry names."""
    entry = game_entry(game.spec.name)
    if entry.rule_based_agent is None:
        raise ValueError(f"{game.spec.name} has no rule-based agent")
    cls = load_target(entry.rule_based_agent, f"{game.spec.name}: rule_based_agent")
    return cls(game, **params)


def _ensure_loaded() -> None:
    """Register the agents of every table not loaded yet: each game's, then the named ones.

    The tables are read from the registry entries and :func:`register_agent_table` alone, never
    from what happens to be imported, so every process ends with the same names (a game
    registered later has its table loaded at the next lookup). Nothing is registered unless
    every new table loads and no name clashes, so a failure leaves the registry as it was and is
    raised again, with the same message, by the next call.

    Raises:
        ValueError: If a table cannot be imported, is not a table of ``(factory, description)``,
            or names an agent that already exists; the message names the game or the table.
    """
    import stratagem.baselines  # noqa: F401  (the generic agents register on import)

    # a game's table holds that game's own agents: they play the games naming the table only
    games_of: dict[str, set[str]] = {}
    for game in list_games():
        if (target := game_entry(game).agents) is not None:
            games_of.setdefault(target, set()).add(game)
    sources = [(f"{', '.join(sorted(g))}: agents", target) for target, g in games_of.items()]
    sources += [(f"agent table {target}", target) for target in _TABLE_TARGETS]
    new: dict[str, tuple[AgentFactory, str]] = {}
    new_games: dict[str, frozenset[str]] = {}
    loaded: set[str] = set()
    for what, target in sources:
        if target in _LOADED_TABLES or target in loaded:
            continue
        loaded.add(target)
        table = load_target(target, what)
        if not isinstance(table, Mapping):
            raise ValueError(f"{what}: {target!r} is not a mapping of agent name to entry")
        for name, item in table.items():
            if not (isinstance(item, tuple) and len(item) == 2 and callable(item[0])):
                raise ValueError(f"{what}: agent {name!r} must be (factory, description)")
            if name in _AGENTS or name in new:
                raise ValueError(f"{what}: agent {name!r} is already registered")
            new[name] = (item[0], str(item[1]))
            if target in games_of:
                new_games[name] = frozenset(games_of[target])
    _AGENTS.update(new)
    _AGENT_GAMES.update(new_games)
    _LOADED_TABLES.update(loaded)


register_agent("rule_based", _rule_based, "the game's rule-based agent from its paper")


@runtime_checkable
class Evaluator(Protocol):
    """Heuristic value of a state for every player, used by planners at their leaves.

    Values are per player (an array of ``num_players`` floats, larger is better for that
    player), so games with more than two players and multi-action turns back up correctly with
    no sign flip per ply. At a terminal state an evaluator should rank wins above every
    non-terminal value and losses below.
    """

    def evaluate(self, state: State) -> np.ndarray:
        """Value of ``state`` for each player."""
        ...


# Optional evaluator hooks: planners look them up once (stratagem.envs.core.optional_hook) and
# call them when present; an evaluator without them is scored by ``evaluate`` alone.


@runtime_checkable
class EvaluatorRoot(Protocol):
    """An evaluator that wants to see the root of every decision before any leaf.

    Tribes' heuristic scores a leaf by its difference from the root; Two Kingdoms' switches to
    battle mode from what the root shows.
    """

    def set_root(self, state: State) -> None:
        """Called once at the start of every decision with the position searched from."""
        ...


@runtime_checkable
class EvaluatorFastValues(Protocol):
    """An evaluator that can return its values as a list of Python floats.

    Planners score about one leaf per forward-model call, and for a cheap heuristic building a
    small array and converting it back costs more than the arithmetic.
    """

    def evaluate_list(self, state: State) -> list[float]:
        """The values of :meth:`Evaluator.evaluate`, as a plain list."""
        ...


@runtime_checkable
class EvaluatorMemory(Protocol):
    """An evaluator that remembers the game it scores (Two Kingdoms' battle mode)."""

    def reset(self) -> None:
        """Forget the previous game; planners call it from their own ``reset``."""
        ...


@runtime_checkable
class EvaluatorAbstractionGate(Protocol):
    """An evaluator that says when state abstraction may start (Two Kingdoms).

    The SCSA reference abstracts only once the agent owns three Warriors; while this returns
    false the abstraction planners search without grouping nodes.
    """

    def abstraction_ready(self, player: int) -> bool:
        """Whether the abstraction planners may group nodes in ``player``'s search."""
        ...
