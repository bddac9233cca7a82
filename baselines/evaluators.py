"""State evaluators for the planners, and the lookup of each game's own heuristic.

A planner needs a value for the states where its search stops (the expanded node, the end of a
rollout or of an individual). The papers pair every game with its own heuristic (Kill The King:
``AimToKing``; Tribes: the DIFF heuristic), so :func:`default_evaluator` looks the game's heuristic
up by game name, and falls back to :class:`TerminalEvaluator` (the game's returns at the end, 0
before) for a game that has none: with random rollouts to the end that is plain Monte Carlo
evaluation and needs no game knowledge at all.

Evaluators return one value per player (larger is better for that player), which is what lets
the planners back values up per player with no sign flip per ply. An evaluator may also define
``set_root(state)``: planners call it once at the start of every decision, for heuristics that
score progress relative to the state the decision starts from (Tribes' DIFF heuristic).
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import numpy as np

from stratagem.baselines.agent import Evaluator
from stratagem.envs.core import Game, State
from stratagem.envs.registry import UnknownGameError, game_entry

__all__ = [
    "GAME_EVALUATORS",
    "TerminalEvaluator",
    "default_evaluator",
    "make_evaluator",
    "register_evaluator",
]

#: Game name -> ``"module:attribute"`` of the game's heuristic evaluator class. The class is built
#: with the game as its only argument when its constructor takes one, else with no argument.
GAME_EVALUATORS: dict[str, str] = {
    "kill_the_king": "stratagem.baselines.kill_the_king:KillTheKingEvaluator",
    "push_them_all": "stratagem.baselines.push_them_all:PushThemAllEvaluator",
    "two_kingdoms": "stratagem.baselines.two_kingdoms:TwoKingdomsEvaluator",
}


class TerminalEvaluator:
    """The game's returns at a terminal state and zero for every player before.

    The evaluator of last resort: it knows nothing about the game, so planners using it need
    rollouts (or a tree) that reach the end of the game to learn anything.
    """

    def __init__(self, game: Game | None = None) -> None:
        self.num_players = None if game is None else game.spec.num_players

    def evaluate(self, state: State) -> np.ndarray:
        """Returns at the end of the game, zeros before."""
        if state.is_terminal():
            return np.asarray(state.returns(), dtype=np.float64)
        n = self.num_players if self.num_players is not None else state.game.spec.num_players
        return np.zeros(n, dtype=np.float64)

    def __repr__(self) -> str:
        return "TerminalEvaluator()"


def register_evaluator(game_name: str, target: str) -> None:
    """Declare ``target`` (``"module:attribute"``) as the heuristic evaluator of ``game_name``.

    Games added later call this (or fill :data:`GAME_EVALUATORS`) so that every planner picks
    their heuristic up by default.
    """
    if ":" not in target:
        raise ValueError(f"evaluator target must be 'module:attribute', got {target!r}")
    GAME_EVALUATORS[game_name] = target


def default_evaluator(game: Game) -> Evaluator:
    """The game's own heuristic if it has one, else :class:`TerminalEvaluator`.

    The registry entry is asked first (an ``evaluator`` attribute, should the registry grow one),
    then :data:`GAME_EVALUATORS`.
    """
    name = game.spec.name
    try:
        entry = game_entry(name)
    except UnknownGameError:  # a game built directly, not through the registry
        entry = None
    target = getattr(entry, "evaluator", None) or GAME_EVALUATORS.get(name)
    if target is None:
        return TerminalEvaluator(game)
    return _build(target, game)


def make_evaluator(spec: Evaluator | str | None, game: Game) -> Evaluator:
    """Resolve an evaluator given as an object, a name or ``None``.

    Args:
        spec: An object with ``evaluate(state)``; ``None`` or ``"default"`` for the game's own
            heuristic (see :func:`default_evaluator`); ``"terminal"`` for
            :class:`TerminalEvaluator`; or ``"module:attribute"`` naming an evaluator class.
        game: The game the evaluator will score states of.

    Raises:
        ValueError: For a name that is none of the above or a class that cannot be imported.
    """
    if spec is None or spec == "default":
        return default_evaluator(game)
    if spec == "terminal":
        return TerminalEvaluator(game)
    if isinstance(spec, str):
        if ":" not in spec:
            raise ValueError(
                f"unknown evaluator {spec!r}; use 'default', 'terminal' or 'module:attribute'"
            )
        return _build(spec, game)
    if not callable(getattr(spec, "evaluate", None)):
        raise ValueError(f"evaluator {spec!r} has no evaluate(state) method")
    return spec


def _build(target: str, game: Game) -> Evaluator:
    """Import ``module:attribute`` and instantiate it for ``game``."""
    module_name, _, attr = target.partition(":")
    try:
        obj: Any = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"{game.spec.name}: cannot load evaluator {target!r}: {exc}") from exc
    if not inspect.isclass(obj):
        return obj
    try:
        params = inspect.signature(obj).parameters
    except (TypeError, ValueError):
        params = {}
    required = [
        p
        for p in params.values()
        if p.default is inspect.Parameter.empty
        and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    return obj(game) if required or "game" in params else obj()
