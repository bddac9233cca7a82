"""Two Kingdoms knowledge: the BasicTBSCombat evaluator and the BasicTBSAgent rule-based agent.

Both reproduce GAIGResearch/Stratega, branch ``scsa_tk`` (``specs/stratega_rules.md`` sections 4
and 5): ``Agent/Heuristic/BasicTBSCombatHeuristic.cpp`` with the battle-mode switch of
``Agent/UnitMCTSAgent/UnitMCTSAgent.cpp``, and ``Agent/RuleBasedAgents/BasicTBSAgent.cpp``. They
are re-implemented from the facts of those files (formulas, constants, iteration orders); where
the reference code does something other than what its names suggest, the behaviour of the
reference is kept and the docstring says so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from stratagem.baselines.agent import BaseAgent
from stratagem.envs.core import Game, State
from stratagem.envs.two_kingdoms import actions as A
from stratagem.envs.two_kingdoms.rules import (
    CITY,
    GOLD_VEIN,
    KING,
    WARRIOR,
    WORKER,
    TwoKingdomsState,
    UnitView,
)

__all__ = [
    "BATTLE_MODE_WARRIORS",
    "TwoKingdomsEvaluator",
    "TwoKingdomsRuleBasedAgent",
]

#: Own Warriors at a decision that switch the search agents to battle mode (sticky).
BATTLE_MODE_WARRIORS = 3

# --------------------------------------------------------------------------------------------
# BasicTBSCombat evaluator
# --------------------------------------------------------------------------------------------

_WIN, _NOT_WIN = 2.0, -2.0
_MAX_DISTANCE = 400.0
_MAX_KING_HP = 400.0
_UNIT_COUNT_SCALE = 20.0


def _euclid(ax: float, ay: float, bx: float, by: float) -> float:
    return math.hypot(ax - bx, ay - by)


class TwoKingdomsEvaluator:
    """Stratega's ``BasicTBSCombatHeuristic`` as an :class:`~stratagem.baselines.agent.Evaluator`.

    The search agents of the SCSA paper use it for Two Kingdoms. It has two modes per player:

    * **Economy** (until battle mode): the sum, divided by 100, of
      +10 if Mining is researched (only reachable with the ``research`` option);
      if the player has a Worker: +10 and ``10·(1 − d/D)`` with ``d`` the distance of its
      Worker nearest to the target vein (the first vein, in entity order, with gold left) and
      ``D = √(2·W²)``; else +30 if ``warriors + gold/40 ≥ 3``;
      gold: +20 above 120, else ``18·gold/120``; warriors: +10 from 3 on, else ``10·n/3``;
      and ``20·(4D − Σ dist(own Warriors and King, own City's starting tile))/(4D)``.
    * **Battle** (once the player, at one of its decisions, owns at least 3 Warriors; it never
      switches back within a game): ``(score + 2)/4`` with ``score = 1 − mean Manhattan
      distance(mine → enemy King)/400 + 1 − enemy King health/400 + |mine|/20 − |theirs|/20``,
      where "mine" is the player's King and Warriors and "theirs" every other living entity but
      Workers and Cities, the neutral gold veins included (the reference's loop files every
      entity not owned by the player as an opponent's).

    Terminal states are +2 for the winner and −2 otherwise (a draw is −2 for both). Distances
    are Euclidean unless stated. Reference quirks kept when ``reference_quirks`` is true (the
    default): the gold term reads the gold of the player *to move*, not of the evaluated player.

    Battle mode is switched by :meth:`set_root`, which the planners call at every decision with
    the root state, exactly when the reference's UnitMCTS agent checks its Warrior count.
    :meth:`abstraction_ready` tells the abstraction planners whether battle mode is on: the
    reference builds no abstraction before it.

    Args:
        game: The Two Kingdoms game (used for nothing but validation).
        reference_quirks: Keep the reference's gold-of-the-player-to-move term.
    """

    name = "basic_tbs_combat"

    def __init__(self, game: Game | None = None, *, reference_quirks: bool = True) -> None:
        if game is not None and game.spec.name != "two_kingdoms":
            raise ValueError(f"TwoKingdomsEvaluator evaluates two_kingdoms, not {game.spec.name}")
        self.game = game
        self.reference_quirks = bool(reference_quirks)
        self.battle = [False, False]
        self._game_key: tuple[int, int] | None = None
        self._last_tick = 0

    def __repr__(self) -> str:
        return f"{type(self).__name__}(reference_quirks={self.reference_quirks})"

    def reset(self) -> None:
        """Forget battle mode (a new game starts)."""
        self.battle = [False, False]
        self._game_key = None
        self._last_tick = 0

    def set_root(self, state: State) -> None:
        """Switch battle mode on for the player to move once it owns 3 Warriors (sticky).

        A root state from another game object or board, from an earlier round than the last one
        seen, or in which no unit was ever spawned (battle mode needs spawned Warriors) starts a
        new game and clears battle mode first.
        """
        assert isinstance(state, TwoKingdomsState)
        key = (id(state.game), state.board_index)
        fresh = state.num_entities == len(state.board.units)
        if key != self._game_key or state.tick < self._last_tick or fresh:
            self.reset()
            self._game_key = key
        self._last_tick = state.tick
        p = state.current_player
        if not self.battle[p] and state.count(p, WARRIOR) >= BATTLE_MODE_WARRIORS:
            self.battle[p] = True

    def abstraction_ready(self, player: int) -> bool:
        """True once ``player`` is in battle mode: the reference abstracts only from then on."""
        return self.battle[player]

    def evaluate(self, state: State) -> np.ndarray:
        """Value of ``state`` for each player, larger is better for that player."""
        assert isinstance(state, TwoKingdomsState)
        if state.is_terminal():
            return np.array(
                [_WIN if state.winner == p else _NOT_WIN for p in (0, 1)], dtype=np.float64
            )
        units = state.units()
        return np.array(
            [
                self._battle(units, p) if self.battle[p] else self._economy(state, units, p)
                for p in (0, 1)
            ],
            dtype=np.float64,
        )

    @staticmethod
    def _battle(units: Sequence[UnitView], p: int) -> float:
        king_x, king_y, king_hp = -1, -1, _MAX_KING_HP
        mine, theirs = [], 0
        for u in units:
            if u.type in (WORKER, CITY):
                continue
            if u.owner != p:
                theirs += 1
                if u.type == KING:
                    king_x, king_y, king_hp = u.x, u.y, float(u.health)
            else:
                mine.append(u)
        total = sum(abs(u.x - king_x) + abs(u.y - king_y) for u in mine)
        mean = total / len(mine) if mine else 0.0
        score = 1.0 - mean / _MAX_DISTANCE + 1.0 - king_hp / _MAX_KING_HP
        score += len(mine) / _UNIT_COUNT_SCALE - theirs / _UNIT_COUNT_SCALE
        return (score + 2.0) / 4.0

    def _economy(self, state: TwoKingdomsState, units: Sequence[UnitView], p: int) -> float:
        board = state.board
        diag = math.sqrt(2.0 * board.width * board.width)
        city_x, city_y = _start_city(state, p)
        target = None
        for vein in state.veins():
            if vein.gold > 0:
                target = vein
                break
        has_worker = False
        worker_dis = diag
        warriors = 0
        home = 0.0
        for u in units:
            if u.owner != p:
                continue
            if u.type == WARRIOR:
                warriors += 1
                home += _euclid(u.x, u.y, city_x, city_y)
            elif u.type == WORKER:
                has_worker = True
                if target is not None:
                    d = _euclid(u.x, u.y, target.x, target.y)
                    if d < worker_dis:
                        worker_dis = d
            elif u.type == KING:
                home += _euclid(u.x, u.y, city_x, city_y)
        reward = 10.0 if state.mining_researched(p) else 0.0
        gold = float(state.gold(state.current_player if self.reference_quirks else p))
        if has_worker:
            reward += 10.0
            if target is not None:
                reward += (1.0 - worker_dis / diag) * 10.0
        elif warriors + gold / 40.0 >= 3:
            reward += 30.0
        reward += 20.0 if gold > 120 else 18.0 * gold / 120.0
        reward += 10.0 if warriors >= 3 else warriors / 3.0 * 10.0
        reward += (4.0 * diag - home) / (4.0 * diag) * 20.0
        return reward / 100.0


def _start_city(state: TwoKingdomsState, player: int) -> tuple[int, int]:
    """Starting tile of ``player``'s City (the last one in entity order, as the reference)."""
    where = (-1, -1)
    for t, o, x, y in state.board.units:
        if t == CITY and o == player:
            where = (x, y)
    return where


# --------------------------------------------------------------------------------------------
# BasicTBSAgent
# --------------------------------------------------------------------------------------------

#: Square neighbours in the reference's sampling order: x-major, then y.
_SQUARE_ORDER = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0))
_NEIGHBOUR_INDEX = {off: i for i, off in enumerate(A.NEIGHBOURS)}
_SIDE_INDEX = {off: i for i, off in enumerate(A.SIDE_OFFSETS)}
#: Tracked attackers the agent sends to the front (the reference's farAwayAttackable).
_MAX_ATTACKERS = 4
#: Gold the agent waits for before spawning a Warrior (the Warrior itself costs 40).
_SPAWN_WARRIOR_GOLD = 80
_SPAWN_WORKER_PROD = 50
#: Prod the agent waits for before researching Mining (research option only).
_RESEARCH_MINING_PROD = 5


class TwoKingdomsRuleBasedAgent(BaseAgent):
    """Stratega's ``BasicTBSAgent``: one Worker mines, up to four Warriors go to war.

    One action per call, with memory across the calls of one game (call :meth:`reset` between
    games). With probability ``random_probability`` (the reference's 0.10) it plays a uniformly
    random legal action, and it always does once its City is lost. Otherwise, in order:

    1. With no Worker and at least 50 Prod, the City spawns a Worker on the first free
       neighbour tile in the reference's order (x-major, then y).
    2. Each Worker mines if it can, else steps to the neighbour tile closest to the gold vein
       nearest the City at the start of the game. The reference accepts the chosen action only
       when its index in the unit's action list is above 0, so a Worker whose best action is
       the first in its list does nothing here: in particular a Worker that has already moved
       this round never mines (its Mine action is then first), and a Worker whose best step is
       the first of its list stays. Kept as in the reference.
    3. (``research`` option only, the paper's description; the reference's code for it is
       commented out) without Mining, not researching and with at least 5 Prod, the City
       researches Mining.
    4. With fewer than four tracked Warriors and at least 80 Gold, the City spawns a Warrior
       (first free tile). Warriors are tracked in the order they are first seen, up to four.
    5. Each tracked Warrior attacks if it can (the first enemy in range, in entity order, which
       need not be the one it walks to), else steps to the neighbour tile closest to the enemy
       Warrior or King nearest to its own City (even when that step does not bring it closer).
    6. Otherwise it ends its turn.

    Args:
        game: The Two Kingdoms game.
        random_probability: Chance of a uniformly random legal action per call.

    Raises:
        ValueError: For a game other than Two Kingdoms or a probability outside [0, 1].
    """

    name = "two_kingdoms_rule_based"

    def __init__(self, game: Game, *, random_probability: float = 0.10) -> None:
        if game.spec.name != "two_kingdoms":
            raise ValueError(f"TwoKingdomsRuleBasedAgent plays two_kingdoms, not {game.spec.name}")
        if isinstance(random_probability, bool) or not 0.0 <= float(random_probability) <= 1.0:
            raise ValueError(f"random_probability must be in [0, 1], got {random_probability!r}")
        self.game = game
        self.random_probability = float(random_probability)
        self.reset()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(random_probability={self.random_probability})"

    def reset(self) -> None:
        """Forget the previous game's Workers, Warriors and vein order."""
        self.workers: list[int] = []
        self.attackers: list[int] = []
        self.reserve: list[int] = []
        self.veins: list[int] | None = None

    def act(self, state: State, *, rng: np.random.Generator) -> int:
        """Choose the next action for ``state.current_player``."""
        assert isinstance(state, TwoKingdomsState)
        legal = state.legal_action_list()
        if not legal:
            raise ValueError("two_kingdoms: no legal action (the game is over)")
        me = state.current_player
        if self.veins is None:
            self._init_veins(state, me)
        if rng.random() > 1.0 - self.random_probability:
            return int(legal[int(rng.integers(len(legal)))])
        units = state.units()
        city = None
        enemy_king = None
        for u in units:
            if u.owner == me and u.type == CITY:
                city = u
            elif u.owner != me and u.owner >= 0 and u.type == KING:
                enemy_king = u
        if city is None:
            return int(legal[int(rng.integers(len(legal)))])
        nearest, nearest_dis = None, 1_000_000.0
        alive = set()
        for u in units:
            if u.owner == me:
                alive.add(u.id)
                if u.type == WORKER and u.id not in self.workers:
                    self.workers.append(u.id)
                elif u.type == WARRIOR and u.id not in self.attackers:
                    if len(self.attackers) < _MAX_ATTACKERS:
                        self.attackers.append(u.id)
                    elif u.id not in self.reserve:
                        self.reserve.append(u.id)
            elif u.type in (WARRIOR, KING):
                d = _euclid(u.x, u.y, city.x, city.y)
                if d < nearest_dis:
                    nearest, nearest_dis = u, d
        self.attackers = [u for u in self.attackers if u in alive]
        self.reserve = [u for u in self.reserve if u in alive]
        self.workers = [u for u in self.workers if u in alive]
        legal_set = set(legal)
        hw = state.width * state.height
        if not self.workers and state.prod(me) >= _SPAWN_WORKER_PROD:
            action = self._spawn(state, city, 0, hw, legal_set)
            if action is not None:
                return action
        for wid in self.workers:
            vein = state.unit(self.veins[0]) if self.veins else None
            if vein is None:
                break
            index, action = self._move_and_act(state, state.unit(wid), vein, "mine", hw, legal_set)
            if index > 0:
                return action
        if (
            self.game.research  # type: ignore[attr-defined]
            and not state.mining_researched(me)
            and not state.researching(me)
            and state.prod(me) >= _RESEARCH_MINING_PROD
        ):
            action = A.RESEARCH_PLANE * hw + city.y * state.width + city.x
            if action in legal_set:
                return action
        if len(self.attackers) < _MAX_ATTACKERS and state.gold(me) >= _SPAWN_WARRIOR_GOLD:
            action = self._spawn(state, city, 1, hw, legal_set)
            if action is not None:
                return action
        if self.attackers and enemy_king is not None and nearest is not None:
            for aid in self.attackers:
                index, action = self._move_and_act(
                    state, state.unit(aid), nearest, "attack", hw, legal_set
                )
                if index >= 0:
                    return action
        return self.game.end_turn_action  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ helpers
    def _init_veins(self, state: TwoKingdomsState, me: int) -> None:
        """Order the veins so that the one nearest the City comes first (the reference's init).

        A vein farther than the current head is appended, any other goes to the front.
        """
        city = state.city(me)
        cx, cy = (city.x, city.y) if city is not None else _start_city(state, me)
        order: list[UnitView] = []
        for vein in state.veins():
            if order and _euclid(vein.x, vein.y, cx, cy) > _euclid(order[0].x, order[0].y, cx, cy):
                order.append(vein)
            else:
                order.insert(0, vein)
        self.veins = [v.id for v in order]

    @staticmethod
    def _spawn(
        state: TwoKingdomsState, city: UnitView, kind: int, hw: int, legal: set[int]
    ) -> int | None:
        """The City's first legal Spawn of ``kind`` (0 Worker, 1 Warrior), tiles x-major."""
        p = city.y * state.width + city.x
        for off in _SQUARE_ORDER:
            plane = A.SPAWN_PLANE0 + kind * len(A.NEIGHBOURS) + _NEIGHBOUR_INDEX[off]
            action = plane * hw + p
            if action in legal:
                return action
        return None

    @staticmethod
    def _move_and_act(
        state: TwoKingdomsState,
        unit: UnitView,
        target: UnitView,
        kind: str,
        hw: int,
        legal: set[int],
    ) -> tuple[int, int]:
        """The reference's ``moveAndAct``: (index in the unit's action list, action).

        The unit's list is its Moves (x-major, then y), then its Mine or Attack actions
        (targets in entity order), then Empty. The first Mine/Attack is returned at once;
        otherwise the Move whose tile is closest to ``target`` (the first on ties); index -1
        when there is neither.
        """
        p = unit.y * state.width + unit.x
        moves = []
        for dx, dy in _SQUARE_ORDER:
            action = (A.MOVE_PLANE0 + _NEIGHBOUR_INDEX[(dx, dy)]) * hw + p
            if action in legal:
                moves.append((action, unit.x + dx, unit.y + dy))
        acts = []
        if kind == "mine":
            for dx, dy in A.SIDE_OFFSETS:
                other = state.unit_at(unit.x + dx, unit.y + dy)
                if other is not None and other.type == GOLD_VEIN:
                    action = (A.MINE_PLANE0 + _SIDE_INDEX[(dx, dy)]) * hw + p
                    if action in legal:
                        acts.append((other.id, action))
        else:
            for dx, dy in A.NEIGHBOURS:
                other = state.unit_at(unit.x + dx, unit.y + dy)
                if other is not None:
                    action = (A.ATTACK_PLANE0 + _NEIGHBOUR_INDEX[(dx, dy)]) * hw + p
                    if action in legal:
                        acts.append((other.id, action))
        if acts:
            return len(moves), min(acts)[1]
        best, best_dis = -1, 1_000_000.0
        for i, (_, x, y) in enumerate(moves):
            d = _euclid(x, y, target.x, target.y)
            if d < best_dis:
                best, best_dis = i, d
        return best, (moves[best][0] if best >= 0 else -1)
