"""Kill The King knowledge: the AimToKing state evaluator and the KTKCombatAgent rule-based agent.

Both reproduce GAIGResearch/Stratega, branch ``scsa_ktkpta`` (``specs/stratega_rules.md``
sections 4 and 5): ``AimToKingHeuristic.cpp`` and ``RuleBasedAgents/KTKCombatAgent.cpp`` with
``Heuristic/UnitEvaluator.h``. They are re-implemented from the facts of those files (formulas,
constants, iteration orders); where the reference code does something other than what its
names and comments suggest, the behaviour of the compiled reference is kept and the docstring
of the function concerned says so.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stratagem.envs.core import Game, State

__all__ = ["KillTheKingEvaluator", "aim_to_king_value"]

#: AimToKing's fixed scales: distances over 400, King health over 400, unit counts over 5 * 4.
_MAX_DISTANCE = 400.0
_MAX_KING_HP = 400.0
_UNIT_COUNT_SCALE = 20.0
#: AimToKing's terminal values (not rescaled like the non-terminal ones).
_WIN, _NOT_WIN = 2.0, -2.0


def aim_to_king_value(state: State, player: int) -> float:
    """AimToKingHeuristic of ``state`` for ``player`` (Stratega ``AimToKingHeuristic.cpp``).

    Terminal states are worth +2 to the winner and -2 to everyone else; the reference compares
    the winner id with the player, so a draw by the round limit (winner -1) is -2 for *both*
    players, exactly like a loss. Otherwise, with "mine" meaning every living unit of
    ``player`` (its King included) and "enemy" every other living unit::

        score = (1 - mean Manhattan distance(mine -> enemy King) / 400)
              + (1 - enemy King health / 400)
              + |mine| / 20 - |enemy| / 20
        value = (score + 2) / 4

    The unit-count scale is the constant 5 * 4 of the reference, not the map's unit count.
    When the enemy has several Kings (only possible on custom layouts) the last one in unit
    order is used, as in the reference loop. The reference's fallbacks for an enemy without a
    King (King at (-1, -1) with 200 health) and the mean over zero own units (a division by
    zero there) only matter in terminal states, which return earlier; here the mean over no
    units is taken as 0 so that the function never returns NaN.

    Args:
        state: A Kill The King state.
        player: The player the value is for.

    Returns:
        The value: 2.0 or -2.0 at a terminal state, else roughly within [0.25, 1.2].
    """
    if state.is_terminal():
        return _WIN if state.winner == player else _NOT_WIN
    from stratagem.envs.kill_the_king import KING

    units = state.units()
    king_x, king_y, king_hp = -1, -1, 200.0
    n_mine = n_enemy = 0
    mine_xy: list[tuple[int, int]] = []
    for u in units:
        if u.owner != player:
            n_enemy += 1
            if u.type == KING:
                king_x, king_y, king_hp = u.x, u.y, float(u.health)
        else:
            n_mine += 1
            mine_xy.append((u.x, u.y))
    total = sum(abs(x - king_x) + abs(y - king_y) for x, y in mine_xy)
    mean = total / n_mine if n_mine else 0.0
    score = (1.0 - mean / _MAX_DISTANCE) + (1.0 - king_hp / _MAX_KING_HP)
    score += n_mine / _UNIT_COUNT_SCALE - n_enemy / _UNIT_COUNT_SCALE
    return (score + 2.0) / 4.0


class KillTheKingEvaluator:
    """The AimToKing heuristic as an :class:`~stratagem.baselines.agent.Evaluator`.

    Stratega's MCTS agents use it at their leaves for Kill The King (``Heuristic: ktk``); it
    rewards closing in on the enemy King, wounding it and trading units favourably. Values
    are per player (see :func:`aim_to_king_value`): a win (2.0) ranks above every non-terminal
    value and a loss or draw (-2.0) below every one.

    Args:
        game: Optional; accepted so that evaluators can be built like agents, ``(game)``.
    """

    name = "aim_to_king"

    def __init__(self, game: Game | None = None) -> None:
        self.game = game

    def evaluate(self, state: State) -> np.ndarray:
        """Value of ``state`` for each player, larger is better for that player."""
        n = state.game.spec.num_players
        return np.array([aim_to_king_value(state, p) for p in range(n)], dtype=np.float64)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
