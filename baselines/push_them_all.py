"""Push Them All knowledge: the PushThemAll state evaluator and the PusherAgent rule-based agent.

Both reproduce GAIGResearch/Stratega, branch ``scsa_ktkpta`` (``specs/stratega_rules.md``
sections 4 and 5): ``Agent/Heuristic/PushThemAllHeuristic.cpp`` and
``Agent/RuleBasedAgents/PusherAgent.cpp``. They are re-implemented from the facts of those files
(formulas, constants, iteration orders); where the reference code does something other than
what its names suggest, the behaviour of the reference is kept and the docstring says so.
"""

from __future__ import annotations

import math

import numpy as np

from stratagem.baselines.agent import BaseAgent
from stratagem.envs.core import Game, State
from stratagem.envs.push_them_all import actions as A
from stratagem.envs.push_them_all.rules import WARRIOR, PushThemAllState, UnitView

__all__ = [
    "PushThemAllEvaluator",
    "PushThemAllRuleBasedAgent",
    "push_them_all_values",
]

# --------------------------------------------------------------------------------------------
# PushThemAll evaluator
# --------------------------------------------------------------------------------------------

_WEIGHT_DISTANCE, _WEIGHT_SELF, _WEIGHT_OPPONENT = 0.2, 0.4, 0.4


def push_them_all_values(state: PushThemAllState) -> np.ndarray:
    """PushThemAllHeuristic of ``state`` for both players (``PushThemAllHeuristic.cpp``).

    For player ``p`` with ``mine`` and ``enemy`` its and the opponent's living units, ``M0`` and
    ``E0`` the numbers they started with and ``D = W + H`` (board width plus height):

    * 1 if the enemy has no unit left, else 0 if ``p`` has none (checked before the end of the
      game, as in the reference);
    * at any other terminal state (the round limit) 1 for the winner and 0 otherwise, so a draw
      is worth 0 to both;
    * otherwise ``0.2·distance + 0.4·|mine|/M0 + 0.4·(E0 − |enemy|)/E0`` with
      ``distance = (M0·D − S) / (M0·D)`` and
      ``S = (E0 − |mine|)·D + Σ_mine min(D, Manhattan distance to the nearest enemy)``.

    The ``E0 − |mine|`` term mixes the enemy's initial count with the player's current one, as
    the reference does: a lost unit counts as a unit at the maximum distance only on maps with
    equal armies.

    Args:
        state: A Push Them All state.

    Returns:
        ``float64[2]`` in [0, 1].
    """
    units = state.units()
    out = np.empty(2, dtype=np.float64)
    max_distance = float(state.width + state.height)
    for p in (0, 1):
        mine = [u for u in units if u.owner == p]
        enemy = [u for u in units if u.owner != p]
        if not enemy:
            out[p] = 1.0
            continue
        if not mine:
            out[p] = 0.0
            continue
        if state.is_terminal():
            out[p] = 1.0 if state.winner == p else 0.0
            continue
        mine0 = float(state.initial_unit_count(p))
        enemy0 = float(state.initial_unit_count(1 - p))
        self_score = len(mine) / mine0
        opponent_score = (enemy0 - len(enemy)) / enemy0
        total = (enemy0 - len(mine)) * max_distance
        for u in mine:
            closest = max_distance
            for e in enemy:
                d = abs(u.x - e.x) + abs(u.y - e.y)
                if d < closest:
                    closest = d
            total += closest
        max_sum = mine0 * max_distance
        distance_score = (max_sum - total) / max_sum
        out[p] = (
            _WEIGHT_DISTANCE * distance_score
            + _WEIGHT_SELF * self_score
            + _WEIGHT_OPPONENT * opponent_score
        )
    return out


class PushThemAllEvaluator:
    """The PushThemAll heuristic as an :class:`~stratagem.baselines.agent.Evaluator`.

    Stratega's MCTS agents use it at their leaves for Push Them All (``Heuristic: pta``): it
    rewards keeping one's own units, removing enemy ones and staying close to the enemy. Values
    are per player in [0, 1] (see :func:`push_them_all_values`); a win is 1 and a loss 0.

    Args:
        game: Optional and unused; accepted so that evaluators can be built like agents.
    """

    name = "push_them_all"

    def __init__(self, game: Game | None = None) -> None:
        self.game = game

    def evaluate(self, state: State) -> np.ndarray:
        """Value of ``state`` for each player, larger is better for that player."""
        return push_them_all_values(state)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


# --------------------------------------------------------------------------------------------
# PusherAgent
# --------------------------------------------------------------------------------------------

#: The order in which the agent tries the push types (``PushLeft, PushRight, PushDown, PushUp``).
_PUSH_ORDER = tuple(
    A.PUSH_NAMES.index(n) for n in ("push_left", "push_right", "push_down", "push_up")
)
#: Candidate move offsets in the order the reference's Dijkstra sampling pushes them
#: (x-major over the 3x3 box without corners): W, N, S, E.
_MOVE_PUSH_ORDER = ((-1, 0), (0, -1), (0, 1), (1, 0))
#: The order in which libstdc++'s ``priority_queue`` pops 1..4 equal-cost nodes.
_HEAP_POP_ORDER = {1: (0,), 2: (0, 1), 3: (0, 1, 2), 4: (0, 2, 1, 3)}


def _euclid(ax: float, ay: float, bx: float, by: float) -> float:
    return math.hypot(ax - bx, ay - by)


class PushThemAllRuleBasedAgent(BaseAgent):
    """Stratega's ``PusherAgent``: walk to the nearest enemy and push it toward a hole.

    One action per call. With probability ``random_probability`` (the reference's 0.03) it plays
    a uniformly random legal action. Otherwise it goes through its Warriors in unit order (Ghosts
    are never moved) and returns the first action it deems good:

    1. The target is the enemy unit nearest to the Warrior (Euclidean; the first in unit order
       on ties).
    2. If the target is not adjacent (distance 1.1 or more), the Warrior tries its moves in the
       reference's order (the Dijkstra sampling order: of the orthogonal neighbours whose tile is
       walkable, taken W, N, S, E, libstdc++'s heap pops them W, S, N, E when all four exist and
       in that W, N, S, E order otherwise) and plays the first that brings it strictly closer to
       the target; a move into a hole is skipped.
    3. If the target is adjacent and the Warrior still has its movement point, it plays Empty
       (it stands still to push).
    4. It then looks at its available pushes, the first one of each type in the order
       PushLeft, PushRight, PushDown, PushUp (the first adjacent enemy in unit order), simulates
       each and plays the first that kills the target or brings the target strictly closer to
       the hole nearest to the target (the first hole in x-major order on ties); failing that,
       the first push. A push against another adjacent enemy is judged by where the *target*
       ends up, as in the reference.
    5. A Warrior with nothing to do is skipped; when no Warrior acts, the agent ends its turn.

    Args:
        game: The Push Them All game.
        random_probability: Chance of a uniformly random legal action per call.

    Raises:
        ValueError: For a game other than Push Them All or a probability outside [0, 1].
    """

    name = "push_them_all_rule_based"

    def __init__(self, game: Game, *, random_probability: float = 0.03) -> None:
        if game.spec.name != "push_them_all":
            raise ValueError(f"PushThemAllRuleBasedAgent plays push_them_all, not {game.spec.name}")
        if isinstance(random_probability, bool) or not 0.0 <= float(random_probability) <= 1.0:
            raise ValueError(f"random_probability must be in [0, 1], got {random_probability!r}")
        self.game = game
        self.random_probability = float(random_probability)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(random_probability={self.random_probability})"

    def act(self, state: State, *, rng: np.random.Generator) -> int:
        """Choose the next action for ``state.current_player``."""
        assert isinstance(state, PushThemAllState)
        legal = state.legal_action_list()
        if not legal:
            raise ValueError("push_them_all: no legal action (the game is over)")
        if rng.random() > 1.0 - self.random_probability:
            return int(legal[int(rng.integers(len(legal)))])
        me = state.current_player
        legal_set = set(legal)
        opponents = state.units(1 - me)
        for unit in state.units(me):
            if unit.type != WARRIOR:
                continue
            action = self._unit_action(state, unit, opponents, legal_set)
            if action is not None:
                return action
        return self.game.end_turn_action  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ per unit
    def _unit_action(
        self,
        state: PushThemAllState,
        unit: UnitView,
        opponents: list[UnitView],
        legal: set[int],
    ) -> int | None:
        hw = state.width * state.height
        p = unit.y * state.width + unit.x
        moves = self._moves(state, unit, p, hw, legal)
        pushes = self._pushes(state, unit, p, hw, legal)
        empty = A.EMPTY_PLANE * hw + p
        has_empty = empty in legal
        if not moves and not pushes and not has_empty:
            return None  # the unit has no action left
        target: UnitView = unit
        min_dis = 1000.0
        for opp in opponents:
            d = _euclid(unit.x, unit.y, opp.x, opp.y)
            if d < min_dis:
                min_dis, target = d, opp
        if not min_dis < 1.1:
            for action in moves:
                copy = state.clone()
                copy.apply(action)
                moved = copy.unit(unit.id)
                if moved.x < 0:  # walked into a hole
                    continue
                if _euclid(moved.x, moved.y, target.x, target.y) < min_dis:
                    return action
        elif has_empty:
            return empty
        hole: tuple[int, int] | None = None
        hole_dis = 1000.0
        for hx, hy in state.holes:
            d = _euclid(hx, hy, target.x, target.y)
            if d < hole_dis:
                hole, hole_dis = (hx, hy), d
        if not pushes:
            return None
        for action in pushes:
            copy = state.clone()
            copy.apply(action)
            pushed = copy.unit(target.id)
            if pushed.x < 0:
                return action
            if hole is not None and _euclid(pushed.x, pushed.y, *hole) < hole_dis:
                return action
        return pushes[0]

    @staticmethod
    def _moves(state: PushThemAllState, unit: UnitView, p: int, hw: int, legal: set[int]) -> list:
        """The unit's legal moves in the reference's Dijkstra sampling order."""
        candidates = [
            (dx, dy) for dx, dy in _MOVE_PUSH_ORDER if state.walkable(unit.x + dx, unit.y + dy)
        ]
        ordered = [candidates[i] for i in _HEAP_POP_ORDER.get(len(candidates), ())]
        out = []
        for off in ordered:
            action = A.MOVE_PLANE_OF[off] * hw + p
            if action in legal:
                out.append(action)
        return out

    @staticmethod
    def _pushes(state: PushThemAllState, unit: UnitView, p: int, hw: int, legal: set[int]) -> list:
        """The first available push of each type, in the agent's type order."""
        neighbours = []
        for side, (dx, dy) in enumerate(A.SIDE_OFFSETS):
            other = state.unit_at(unit.x + dx, unit.y + dy)
            if other is not None and other.owner != unit.owner:
                neighbours.append((other.id, side))
        neighbours.sort()  # the reference lists push targets in unit order
        out = []
        for k in _PUSH_ORDER:
            for _, side in neighbours:
                action = A.push_plane(k, side) * hw + p
                if action in legal:
                    out.append(action)
                    break
        return out
