"""Agents that need no knowledge of the game: uniform random and end-turn-only."""

from __future__ import annotations

import numpy as np

from stratagem.baselines.agent import BaseAgent, register_agent
from stratagem.envs.core import Game, State

__all__ = ["EndTurnAgent", "RandomAgent"]


class RandomAgent(BaseAgent):
    """Uniformly random over the legal actions: the floor every other agent must beat."""

    name = "random"

    def __init__(self, game: Game | None = None) -> None:
        self.game = game

    def act(self, state: State, *, rng: np.random.Generator) -> int:
        """A uniformly random legal action (:meth:`State.sample_legal_action`).

        Games that can draw without listing every action do so; the others pick from
        ``legal_actions()`` with ``rng.integers``, as this agent always did.
        """
        return state.sample_legal_action(rng)


class EndTurnAgent(BaseAgent):
    """Ends its turn at once whenever it can: a do-nothing opponent.

    Useful for sanity checks and learning curves. In games without an ``end_turn`` action it
    plays the highest-numbered legal action.
    """

    name = "end_turn"

    def __init__(self, game: Game) -> None:
        self.game = game
        layout = game.spec.action_layout
        names = layout.global_actions if layout is not None else ()
        self._end = layout.num_spatial + names.index("end_turn") if "end_turn" in names else None

    def act(self, state: State, *, rng: np.random.Generator) -> int:
        """EndTurn when legal, else the highest-numbered legal action."""
        legal = state.legal_actions()
        if self._end is not None and self._end in legal:
            return self._end
        return int(legal[-1])


register_agent(
    "random", lambda game, **kw: RandomAgent(game, **kw), RandomAgent.__doc__.split("\n")[0]
)
register_agent(
    "end_turn",
    lambda game, **kw: EndTurnAgent(game, **kw),
    "always ends its turn at once (do-nothing opponent)",
)
