"""State evaluators for the planners, and the lookup of each game's own heuristic.

A planner needs a value for the states where its search stops (the expanded node, the end of a
rollout or of an individual). The papers pair every game with its own heuristic (Kill The King:
``AimToKing``; Tribes: the DIFF heuristic), so :func:`default_evaluator` looks the game's heuristic
up in the game's registry entry (the one place a game names it, so every process gets the same
evaluator whatever it imported first), and falls back to :class:`TerminalEvaluator` (the game's
returns at the end, 0 before) for a game that has none: with random rollouts to the end that is
plain Monte Carlo evaluation and needs no game knowledge at all.

Evaluators return one value per player (larger is better for that player), which is what lets
the planners back values up per player with no sign flip per ply. An evaluator may also define
``set_root(state)``: planners call it once at the start of every decision, for heuristics that
score progress relative to the state the decision starts from (Tribes' DIFF heuristic).
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from stratagem.baselines.agent import Evaluator
from stratagem.envs.core import Game, State
from stratagem.envs.registry import UnknownGameError, game_entry, load_target

__all__ = [
    "TerminalEvaluator",
    "default_evaluator",
    "make_evaluator",
]


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


def default_evaluator(game: Game) -> Evaluator:
    """The heuristic named by the game's registry entry, else :class:`TerminalEvaluator`.

    A game that is not registered (built directly from its class under another name) has no
    entry, hence no heuristic, and gets :class:`TerminalEvaluator` too.
    """
    try:
        target = game_entry(game.spec.name).evaluator
    except UnknownGameError:
        target = None
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
    """Import ``module:attribute`` and instantiate it for ``game``.

    Raises:
        ValueError: If the target cannot be imported (the message names the game and target).
    """
    obj: Any = load_target(target, f"{game.spec.name}: evaluator")
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
