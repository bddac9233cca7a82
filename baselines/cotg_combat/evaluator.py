"""A hit-point evaluator so that the generic planners (OSLA, MC, MCTS, RHEA) can play CotG combat.

The paper's searches value a battle by the hit points left on each side (MCTS-HP) or by LTD2
(PGS); the generic planners of :mod:`stratagem.baselines.search` need a per-player value at their
leaves, so this evaluator gives each player its share of hit points left minus the enemy's,
both as fractions of the armies' starting hit points.
"""

from __future__ import annotations

import numpy as np

from stratagem.baselines.cotg_combat.scripts import check_cotg
from stratagem.envs.core import Game, State

__all__ = ["CotgHPEvaluator"]


class CotgHPEvaluator:
    """``(own HP fraction − enemy HP fraction) / 2`` per player; ±1 for a decided battle.

    Non-terminal values lie in [−0.5, 0.5], so a win (+1) ranks above every one of them and a
    loss (−1) below; a draw at the turn limit keeps the hit-point value.

    Args:
        game: A CotG combat game (optional; checked when given).
    """

    name = "cotg_hp"

    def __init__(self, game: Game | None = None) -> None:
        if game is not None:
            check_cotg(game, "CotgHPEvaluator")
        self.game = game

    def evaluate(self, state: State) -> np.ndarray:
        """Value of ``state`` for each player, larger is better for that player."""
        winner = state.winner  # type: ignore[attr-defined]
        if winner is not None and winner >= 0:
            out = np.full(2, -1.0)
            out[winner] = 1.0
            return out
        h0, h1 = state.hp_totals()  # type: ignore[attr-defined]
        s0, s1 = state.starting_hp()  # type: ignore[attr-defined]
        diff = 0.5 * (h0 / s0 - h1 / s1)
        return np.array([diff, -diff], dtype=np.float64)

    def __repr__(self) -> str:
        return "CotgHPEvaluator()"
