"""The ``Agent`` protocol and the registry that builds agents from ``name:key=value`` specs.

An agent is handed a copy of the state as seen by the acting player
(:meth:`State.observed_by`) and a random generator, and returns one action index. Agents that
keep memory across decisions of one game implement :meth:`Agent.reset`, which runners call at
the start of every game. Planners count their budget in forward-model calls (``apply``).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import numpy as np

from stratagem.envs.core import Game, State
from stratagem.envs.registry import game_entry, parse_config_value

__all__ = [
    "Agent",
    "BaseAgent",
    "Evaluator",
    "agent_names",
    "make_agent",
    "parse_agent_spec",
    "register_agent",
]


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


AgentFactory = Callable[..., Agent]
_AGENTS: dict[str, tuple[AgentFactory, str]] = {}


def register_agent(name: str, factory: AgentFactory, description: str) -> None:
    """Register ``factory(game, **params) -> Agent`` under ``name``."""
    if name in _AGENTS:
        raise ValueError(f"agent {name!r} is already registered")
    _AGENTS[name] = (factory, description)


def agent_names() -> dict[str, str]:
    """Registered agent names with their one-line descriptions."""
    _ensure_loaded()
    return {k: v[1] for k, v in sorted(_AGENTS.items())}


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"mcts:budget=2000,c=1.414"`` into ``("mcts", {"budget": 2000, "c": 1.414})``.

    Raises:
        ValueError: If a parameter is not written ``key=value``.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"agent spec must be a non-empty string, got {spec!r}")
    name, _, rest = spec.strip().partition(":")
    params: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"agent spec {spec!r}: parameter {item!r} must be written key=value")
        params[key.strip()] = parse_config_value(value.strip())
    return name.strip(), params


def make_agent(spec: str | Agent, game: Game, **overrides: Any) -> Agent:
    """Build an agent for ``game`` from a spec such as ``"rule_based"`` or ``"mcts:budget=500"``.

    An object that already implements :class:`Agent` is returned as it is.

    Raises:
        ValueError: For an unknown agent name or a parameter the agent does not take.
    """
    if not isinstance(spec, str):
        if isinstance(spec, Agent):
            return spec
        raise ValueError(f"not an agent or agent spec: {spec!r}")
    _ensure_loaded()
    name, params = parse_agent_spec(spec)
    params.update(overrides)
    if name not in _AGENTS:
        raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(sorted(_AGENTS))}")
    factory = _AGENTS[name][0]
    try:
        return factory(game, **params)
    except TypeError as exc:
        raise ValueError(f"agent {spec!r}: {exc}") from exc


def _rule_based(game: Game, **params: Any) -> Agent:
    """The game's own rule-based agent, looked up in the game registry."""
    entry = game_entry(game.spec.name)
    if entry.rule_based_agent is None:
        raise ValueError(f"{game.spec.name} has no rule-based agent")
    module, _, attr = entry.rule_based_agent.partition(":")
    cls = getattr(importlib.import_module(module), attr)
    return cls(game, **params)


def _ensure_loaded() -> None:
    """Import the modules that register agents: the built-in ones and each game's own.

    A game's agents live in ``stratagem.baselines.<game>`` (a module or a package); importing it
    registers its named agents (``cotg_pgs``, the Prismata bots, ...), as game packages register
    themselves in ``stratagem.envs``.
    """
    import importlib.util

    import stratagem.baselines  # (registers the built-in agents)
    import stratagem.training  # noqa: F401  (registers the trained-network agents, lazily)
    from stratagem.envs.registry import list_games

    for game in list_games():
        module = f"stratagem.baselines.{game}"
        if module not in sys.modules and importlib.util.find_spec(module) is not None:
            importlib.import_module(module)


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
