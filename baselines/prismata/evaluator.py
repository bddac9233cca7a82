"""Prismata's heuristic evaluator for the generic planners (OSLA, MC, MCTS, RHEA).

The reference AI's ``WillScore`` evaluation (``specs/prismata_rules.md`` section 8.4): each
side's summed unit values, the side to move inflated by 1.13 (``WillScoreInflation``). The
difference is squashed into (-1, 1) so that wins (+1) and losses (-1) of finished games rank
above and below every unfinished position.
"""

from __future__ import annotations

import math

import numpy as np

from stratagem.baselines.prismata.heuristics import will_score_sum
from stratagem.envs.core import Game
from stratagem.envs.prismata.rules import PrismataState

__all__ = ["PrismataEvaluator"]


class PrismataEvaluator:
    """Will-score difference per player, ``tanh(diff / scale)``; returns at the end.

    Args:
        game: The game (unused; accepted so the registry can build it with the game).
        scale: Will-score difference that maps to ``tanh(1)`` (about 0.76).
        inflation: Factor applied to the side to move (the reference's 1.13).
    """

    def __init__(
        self, game: Game | None = None, scale: float = 40.0, inflation: float = 1.13
    ) -> None:
        if scale <= 0:
            raise ValueError(f"scale must be positive, got {scale}")
        self.scale = float(scale)
        self.inflation = float(inflation)

    def evaluate(self, state: PrismataState) -> np.ndarray:
        """Value of ``state`` for players 0 and 1."""
        if state.is_terminal():
            return np.asarray(state.returns(), dtype=np.float64)
        values = [will_score_sum(state, p) for p in (0, 1)]
        values[state.current_player] *= self.inflation
        v = math.tanh((values[0] - values[1]) / self.scale) * 0.999
        return np.array([v, -v], dtype=np.float64)

    def __repr__(self) -> str:
        return f"PrismataEvaluator(scale={self.scale})"
