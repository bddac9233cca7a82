"""Kill The King knowledge: the AimToKing state evaluator and the KTKCombatAgent rule-based agent.

Both reproduce GAIGResearch/Stratega, branch ``scsa_ktkpta`` (``specs/stratega_rules.md``
sections 4 and 5): ``Agent/Heuristic/AimToKingHeuristic.cpp`` and
``Agent/RuleBasedAgents/KTKCombatAgent.cpp`` with ``Agent/Heuristic/UnitEvaluator.h``. They are
re-implemented from the facts of those files (formulas, constants, iteration orders). Where the
reference code does something other than what its names and comments suggest, the behaviour of
the compiled reference is kept, and the docstring of the function concerned says so.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

import numpy as np

from stratagem.baselines.agent import BaseAgent
from stratagem.envs.core import Game, State
from stratagem.envs.kill_the_king.actions import PLANE_KIND
from stratagem.envs.kill_the_king.rules import KING, UNIT_STATS, UnitStats, UnitView

__all__ = [
    "KillTheKingEvaluator",
    "KillTheKingRuleBasedAgent",
    "aim_to_king_list",
    "aim_to_king_values",
    "unit_type_values",
]

# --------------------------------------------------------------------------------------------
# AimToKing evaluator
# --------------------------------------------------------------------------------------------

#: AimToKing's fixed scales: distances over 400, King health over 400, unit counts over 5 * 4.
_MAX_DISTANCE = 400.0
_MAX_KING_HP = 400.0
_UNIT_COUNT_SCALE = 20.0
#: AimToKing's terminal values (returned as they are, not rescaled like the others).
_WIN, _NOT_WIN = 2.0, -2.0
#: The reference's fallback when the enemy has no King (only reachable in terminal states).
_NO_KING = (-1, -1, 200.0)


def aim_to_king_values(state: State) -> np.ndarray:
    """AimToKingHeuristic of ``state`` for both players (Stratega ``AimToKingHeuristic.cpp``).

    Terminal states are worth +2 to the winner and -2 to everyone else. The reference compares
    the winner id with the player, so a draw by the round limit (winner -1) is -2 for *both*
    players, exactly like a loss. Otherwise, with "mine" meaning every living unit of the
    player (its King included) and "enemy" every other living unit::

        score = (1 - mean Manhattan distance(mine -> enemy King) / 400)
              + (1 - enemy King health / 400)
              + |mine| / 20 - |enemy| / 20
        value = (score + 2) / 4

    The unit-count scale is the reference's constant 5 * 4, not the map's unit count. When a
    side has several Kings (only possible on custom layouts) the last one in unit order is
    used, as in the reference loop. The reference's fallbacks for an enemy without a King (a
    King at (-1, -1) with 200 health) and for the mean over zero own units (a division by zero)
    can only matter in terminal states, which return earlier; the mean over no units is taken
    as 0 here so that the function never returns NaN.

    Args:
        state: A Kill The King state.

    Returns:
        ``float64[2]``: 2.0 or -2.0 at a terminal state, otherwise values within about
        [0.25, 1.2].
    """
    return np.array(aim_to_king_list(state))  # float64: the values are Python floats


def aim_to_king_list(state: State) -> list[float]:
    """:func:`aim_to_king_values` as a list of two Python floats (the same floats).

    Search planners call the heuristic at every leaf (the default MCTS once per forward-model
    call) and work with plain floats: building the two-element array and converting it back
    would cost about a third of the arithmetic. On a board where each side has one King (every
    shipped layout) the per-unit work is one list index: the board's :class:`_AimTables` know
    each side's units, and a King cell's row of Manhattan distances to every cell. Integer
    distances sum exactly in any order, and the float arithmetic after the sum is the formula's
    own (:func:`_aim_value`), so the values are those of the plain loop (:func:`_aim_by_units`,
    which other boards use).
    """
    if state.is_terminal():
        winner = state.winner
        return [_WIN if winner == p else _NOT_WIN for p in (0, 1)]
    cells, health, owners, types, width = state.unit_columns()
    tables = _AIM_TABLES.get(id(owners))
    if tables is None:
        tables = _aim_tables(state)
    king0, king1 = tables.king
    if king0 < 0 or king1 < 0 or cells[king0] < 0 or cells[king1] < 0:
        return _aim_by_units(cells, health, owners, types, width)
    rows = tables.rows
    at0 = tables.cells0(cells)
    at1 = tables.cells1(cells)
    row0 = rows[cells[king0]] or tables.row(cells[king0])  # distances to player 0's King
    row1 = rows[cells[king1]] or tables.row(cells[king1])
    total0 = total1 = 0
    for cell in at0:  # a dead unit's cell -1 reads the row's trailing 0
        total0 += row1[cell]
    for cell in at1:
        total1 += row0[cell]
    count0 = len(at0) - at0.count(-1)
    count1 = len(at1) - at1.count(-1)
    return [
        _aim_value(total0, count0, count1, float(health[king1])),
        _aim_value(total1, count1, count0, float(health[king0])),
    ]


def _aim_value(total: int, count: int, enemy: int, khp: float) -> float:
    """One player's AimToKing value from its units' summed distance to the enemy King.

    Args:
        total: Summed Manhattan distance of the player's living units to the enemy King.
        count: The player's living units.
        enemy: The enemy's living units.
        khp: The enemy King's health.
    """
    mean = total / count if count else 0.0
    score = (1.0 - mean / _MAX_DISTANCE) + (1.0 - khp / _MAX_KING_HP)
    score += count / _UNIT_COUNT_SCALE - enemy / _UNIT_COUNT_SCALE
    return (score + 2.0) / 4.0


def _aim_by_units(
    cells: Sequence[int],
    health: Sequence[int],
    owners: Sequence[int],
    types: Sequence[int],
    width: int,
) -> list[float]:
    """AimToKing of a non-terminal position unit by unit, as the reference loops.

    The general case behind :func:`aim_to_king_list`'s tables: any number of Kings a side (the
    last living one in unit order counts) and the reference's fallback for a side without one.
    """
    kings = [_NO_KING, _NO_KING]
    mine: tuple[list[int], list[int]] = ([], [])  # living units' cells per player
    for u, cell in enumerate(cells):
        if cell >= 0:
            mine[owners[u]].append(cell)
            if types[u] == KING:
                y, x = divmod(cell, width)
                kings[owners[u]] = (x, y, float(health[u]))
    values = []
    for p in (0, 1):
        kx, ky, khp = kings[1 - p]
        total = 0
        for cell in mine[p]:
            y, x = divmod(cell, width)
            total += abs(x - kx) + abs(y - ky)
        values.append(_aim_value(total, len(mine[p]), len(mine[1 - p]), khp))
    return values


class _AimTables:
    """What :func:`aim_to_king_list` reads of one board, built on the board's first evaluation.

    Attributes:
        cells0: ``column -> tuple`` of player 0's units' entries (their cells, ``-1`` once dead).
        cells1: The same for player 1.
        king: Per player, its King's unit id when it has exactly one, else ``-1``.
        rows: Per King cell, the Manhattan distance from it to every cell, then a trailing 0
            (what a dead unit's cell ``-1`` reads); ``None`` until a King stands there. Shared
            by the boards of the same size.
        owners: The board's owner column: :data:`_AIM_TABLES` is keyed by its ``id``, which stays
            taken while this holds it.
    """

    __slots__ = ("cells0", "cells1", "height", "king", "owners", "rows", "width")

    def __init__(self, state: State) -> None:
        _, _, owners, types, width = state.unit_columns()
        height = state.height
        ids = [tuple(u for u, o in enumerate(owners) if o == p) for p in (0, 1)]
        self.cells0, self.cells1 = (_picker(i) for i in ids)
        kings = [[u for u in i if types[u] == KING] for i in ids]
        self.king = tuple(k[0] if len(k) == 1 else -1 for k in kings)
        self.owners = owners
        self.width, self.height = width, height
        self.rows = _DISTANCE_ROWS.setdefault((width, height), [None] * (width * height))

    def row(self, cell: int) -> list[int]:
        """Build the distance row of a King on ``cell`` (done once per cell and board size)."""
        width = self.width
        kx, ky = cell % width, cell // width
        across = [abs(x - kx) for x in range(width)]
        row = [dy + dx for dy in [abs(y - ky) for y in range(self.height)] for dx in across]
        row.append(0)
        self.rows[cell] = row
        return row


def _picker(ids: tuple[int, ...]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """``column -> tuple(column[i] for i in ids)``, one C call where ``itemgetter`` allows."""
    if len(ids) >= 2:
        return itemgetter(*ids)
    return lambda column: tuple(column[i] for i in ids)


#: The boards' :class:`_AimTables` by ``id`` of the board's owner column (one column object is
#: shared by every state of a board). Emptied when it grows past :data:`_AIM_TABLES_MAX`, so
#: that a process making game after game does not keep every board's tables.
_AIM_TABLES: dict[int, _AimTables] = {}
_AIM_TABLES_MAX = 1024
#: Distance rows by board ``(width, height)`` (see :attr:`_AimTables.rows`).
_DISTANCE_ROWS: dict[tuple[int, int], list[list[int] | None]] = {}


def _aim_tables(state: State) -> _AimTables:
    """Build and cache the tables of ``state``'s board."""
    if len(_AIM_TABLES) >= _AIM_TABLES_MAX:
        _AIM_TABLES.clear()
    tables = _AimTables(state)
    _AIM_TABLES[id(tables.owners)] = tables
    return tables


class KillTheKingEvaluator:
    """The AimToKing heuristic as an :class:`~stratagem.baselines.agent.Evaluator`.

    Stratega's MCTS agents use it at their leaves for Kill The King (``Heuristic: ktk``): it
    rewards closing in on the enemy King, wounding it and trading units favourably. Values are
    per player (see :func:`aim_to_king_values`); a win (2.0) ranks above every non-terminal
    value, and a loss or a draw (-2.0) below every one.

    Args:
        game: Optional and unused; accepted so that evaluators can be built like agents.
    """

    name = "aim_to_king"

    def __init__(self, game: Game | None = None) -> None:
        self.game = game

    def evaluate(self, state: State) -> np.ndarray:
        """Value of ``state`` for each player, larger is better for that player."""
        return aim_to_king_values(state)

    #: :meth:`evaluate` as a list of Python floats, the search planners' fast path: the
    #: function itself rather than a method calling it, so that a leaf costs one Python call.
    evaluate_list = staticmethod(aim_to_king_list)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


# --------------------------------------------------------------------------------------------
# Reference parameter semantics
# --------------------------------------------------------------------------------------------

#: Stratega's ``Entity::getParameter`` returns -1 for a parameter the unit type does not have
#: (the Healer has no AttackRange or AttackDamage); the agent's arithmetic depends on it.
_MISSING = -1.0
#: What x86 ``cvttsd2si`` (a C++ ``static_cast<int>``) yields for inf, NaN or overflow.
_INT_MIN = -(2**31)


def _can_attack(stats: UnitStats) -> bool:
    return stats.attack_damage > 0


def _can_heal(stats: UnitStats) -> bool:
    return stats.heal_amount > 0


def _c_int(value: float) -> int:
    """``static_cast<int>(value)`` as compiled for x86: truncation, INT_MIN when undefined."""
    if math.isnan(value) or math.isinf(value) or not -(2**31) <= value < 2**31:
        return _INT_MIN
    return int(value)


_ATTACK_RANGE = tuple(s.attack_range if _can_attack(s) else _MISSING for s in UNIT_STATS)
_ATTACK_DAMAGE = tuple(float(s.attack_damage) if _can_attack(s) else _MISSING for s in UNIT_STATS)
_HEAL_AMOUNT = tuple(float(s.heal_amount) if _can_heal(s) else _MISSING for s in UNIT_STATS)
_MAX_HEALTH = tuple(float(s.max_health) for s in UNIT_STATS)
#: The unit's "range" for the move rule: ``static_cast<int>(AttackRange)`` (Healer: -1).
_MOVE_RANGE = tuple(_c_int(r) for r in _ATTACK_RANGE)

#: HealRange, for the quirk-free estimate of enemy healing.
_HEAL_RANGE = tuple(s.heal_range if _can_heal(s) else _MISSING for s in UNIT_STATS)


def unit_type_values(stats: Sequence[UnitStats] = UNIT_STATS) -> tuple[float, ...]:
    """Strength of each unit type: Stratega's ``UnitTypeEvaluator::getLinearSumEvaluation``.

    The reference means to add every stat divided by its maximum over all types; what its code
    actually adds, reproduced here, is:

    * ``max_health / max over types`` (Health);
    * ``0`` for the Attack action: the attack-damage term reads a variable that is never set;
    * ``movement_points / max`` for the Move action (every type has one);
    * ``(heal_amount / max_heal) / max_heal * range_factor`` for the Heal action, where the
      heal amount is divided by its maximum twice, and ``range_factor`` is
      ``int(range / max range over AttackRange and HealRange)``, truncated to an integer.

    With the Kill The King stats this gives King 2.0, Warrior 1.5, Archer 1.5 and Healer 1.27.

    Args:
        stats: Unit stats indexed by unit type (default: Kill The King's).

    Returns:
        The strength of each unit type, indexed like ``stats``.
    """
    attackers = [s for s in stats if _can_attack(s)]
    healers = [s for s in stats if _can_heal(s)]
    max_range = max([s.attack_range for s in attackers] + [s.heal_range for s in healers])
    max_health = max(s.max_health for s in stats)
    max_mp = max(s.movement_points for s in stats)
    max_heal = max((s.heal_amount for s in healers), default=0)
    values = []
    for s in stats:
        range_factor = 1  # the reference's default when a type has neither range
        if _can_attack(s):
            range_factor = _c_int(s.attack_range / max_range)
        elif _can_heal(s):
            range_factor = _c_int(s.heal_range / max_range)
        score = s.max_health / max_health
        score += s.movement_points / max_mp
        if _can_heal(s):
            score += (s.heal_amount / max_heal) / max_heal * range_factor
        values.append(score)
    return tuple(values)


_VALUES = unit_type_values()

# The reference orders a unit's Move targets by x, then y (``Neighbours`` sampling of a
# ``Square``); Attack and Heal targets follow the entity order, i.e. our unit ids.


def _manhattan(ax: float, ay: float, bx: float, by: float) -> float:
    return abs(ax - bx) + abs(ay - by)


def _in_reach(x: float, y: float, units: Sequence[UnitView], rng: Sequence[float]) -> list:
    """``filterUnitsByReach``: the units that could get within their range of ``(x, y)``.

    A unit qualifies when its Manhattan distance to ``(x, y)`` is at most its ``rng``
    parameter plus its *current* movement points.
    """
    return [u for u in units if _manhattan(x, y, u.x, u.y) <= rng[u.type] + u.movement_points]


def _potential_damage(x: float, y: float, opponents: Sequence[UnitView]) -> float:
    """``getPotentialDamage``: summed AttackDamage of the opponents that can reach ``(x, y)``.

    Reach is Manhattan distance <= AttackRange + current movement points. A Healer has no
    AttackRange (-1 in the reference), so with at most one movement point it never counts.
    """
    return sum(_ATTACK_DAMAGE[u.type] for u in _in_reach(x, y, opponents, _ATTACK_RANGE))


# --------------------------------------------------------------------------------------------
# The rule-based agent
# --------------------------------------------------------------------------------------------


class KillTheKingRuleBasedAgent(BaseAgent):
    """Stratega's ``KTKCombatAgent``: a scripted combat player, one action per call.

    Each call looks at the acting player's units in unit order (the reference's entity order,
    i.e. reading order of the layout) and plays the first of these that applies:

    1. the unit's best Attack: ``2·value`` if it kills the target, else
       ``value · (1 + 1 / (1 + turnsToKill))`` with ``turnsToKill = min(4, ceil(health /
       (damage - enemyHealing)))``, ``0`` when the enemy heals at least the damage; ties go to
       the first target in unit order;
    2. a Heal (see the quirks below);
    3. a Move toward the focus target, unless the unit already is within ``int(AttackRange)``
       (Manhattan) of it: among the steps that end in that range, the one exposed to the
       least potential damage (summed AttackDamage of enemies whose Manhattan distance is at
       most their AttackRange plus movement points); if none does, the step that minimises
       the Manhattan distance. Ties go to the first step in the reference's order (by x, then
       y). A Healer has no AttackRange (-1), so it always walks as close as it can.

    When no unit has anything to do it ends its turn; it never plays Empty. Unit strengths come from
    :func:`unit_type_values` (King 2.0, Warrior 1.5, Archer 1.5, Healer 1.27).

    Reference quirks reproduced by default (``reference_quirks=True``), found in
    ``KTKCombatAgent.cpp`` on branch ``scsa_ktkpta``:

    * **Focus target.** The reference scores every enemy (``avgAttackScore -
      avgSupportScore``) but keeps a pointer to its loop variable, which is a copy; after the
      loop that pointer reads the storage the last iteration left, so the compiled agent always
      heads for the *last* enemy unit in unit order (checked with g++ at -O0, -O2 and -O3 on a
      replica of the loop). The scores are never used.
    * **Heal.** The reference reads the heal's *source* (the Healer) where it means its target.
      So a Healer heals only when it is itself damaged, every heal gets the same score, and the
      first heal target in unit order within range 2 is healed: possibly a full-health ally, the
      Healer itself, or even an enemy. A Healer at full health never heals, whoever is hurt.
      (The reference then looks up the maximum health of the entity *type* whose id is the
      Healer's *unit* id: ids 0-3 read some type's value, which changes nothing, but a Healer
      whose unit id is 4 or more makes it throw and abort the game. That crash is not
      reproduced: the heal is played.)
    * **Enemy healing.** The attack score's enemy healing is always 0: the reference looks for
      the enemy Healers' heals among the acting player's own actions, and tests their reach
      with their missing AttackRange (-1).
    * Movement points are read as they are now: an enemy that has already moved this round
      reaches one tile less, and in the focus score a unit with no movement point left divides
      by zero (x86 turns the result into ``INT_MIN``, making its term about 0).

    With ``reference_quirks=False`` the three bugs above are fixed as their names and comments
    intend: the focus target is the highest-scoring enemy (first on ties); a Healer heals the
    best damaged own unit in range (``2·value`` if the heal covers the potential damage, else
    ``(1 + turnsUntilDeath/4)·value``, ``0`` when out of danger or doomed, first on ties); and
    enemy Healers within Manhattan ``HealRange + movement points`` of the target add their heal
    amount to the enemy healing.

    Args:
        game: A :class:`~stratagem.envs.kill_the_king.KillTheKingGame`.
        **params: ``reference_quirks`` (bool, default True), see above.

    Raises:
        TypeError: For an unknown parameter or a parameter of the wrong type.
        ValueError: If ``game`` is not Kill The King.
    """

    name = "rule_based"
    _PARAMS = ("reference_quirks",)

    def __init__(self, game: Game, **params: Any) -> None:
        unknown = sorted(set(params) - set(self._PARAMS))
        if unknown:
            raise TypeError(  # CPython's wording, which make_agent recognises
                f"KillTheKingRuleBasedAgent() got an unexpected keyword argument {unknown[0]!r} "
                f"(it accepts: {', '.join(self._PARAMS)})"
            )
        quirks = params.get("reference_quirks", True)
        if not isinstance(quirks, bool):
            raise TypeError(f"reference_quirks must be a bool, got {quirks!r}")
        if getattr(getattr(game, "spec", None), "name", None) != "kill_the_king":
            raise ValueError(f"KillTheKingRuleBasedAgent plays kill_the_king, not {game!r}")
        self.game = game
        self.reference_quirks = quirks

    def __repr__(self) -> str:
        return f"{type(self).__name__}(reference_quirks={self.reference_quirks})"

    # ---------------------------------------------------------------------------- decision
    def act(self, state: State, *, rng: np.random.Generator) -> int:
        """The reference's single action for ``state.current_player`` (always legal).

        The candidate actions are read from ``state.legal_action_list()``, so whatever the agent
        picks is legal; the state is not modified.

        Raises:
            ValueError: If the state is terminal.
        """
        legal = state.legal_action_list()
        if not legal:
            raise ValueError("KillTheKingRuleBasedAgent.act: the game is over")
        end_turn = state.game.end_turn_action
        me = state.current_player
        units = state.units()
        by_pos = {(u.x, u.y): u for u in units}
        mine = [u for u in units if u.owner == me]
        opponents = [u for u in units if u.owner != me]

        # The legal actions of each unit, by kind: (target unit or (dx, dy), action).
        decode = state.game.layout.decode
        attacks: dict[int, list[tuple[UnitView, int]]] = {}
        heals: dict[int, list[tuple[UnitView, int]]] = {}
        moves: dict[int, list[tuple[int, int, int]]] = {}
        for a in legal:
            if a == end_turn:
                continue
            plane, x, y = decode(a)
            kind, dx, dy = PLANE_KIND[plane]
            src = by_pos[(x, y)]
            if kind == "attack":
                attacks.setdefault(src.id, []).append((by_pos[(x + dx, y + dy)], a))
            elif kind == "heal":
                heals.setdefault(src.id, []).append((by_pos[(x + dx, y + dy)], a))
            elif kind == "move":
                moves.setdefault(src.id, []).append((dx, dy, a))

        focus = self._focus_position(state, mine, opponents, rng)
        for unit in mine:
            unit_attacks = attacks.get(unit.id)
            if unit_attacks:
                return self._best_attack(unit, unit_attacks, opponents)
            unit_heals = heals.get(unit.id)
            if unit_heals:
                action = self._heal(unit, unit_heals, opponents, me)
                if action is not None:
                    return action
            unit_moves = moves.get(unit.id)
            if unit_moves:
                action = _move_toward(unit, focus, unit_moves, opponents)
                if action is not None:
                    return action
        return end_turn

    # ---------------------------------------------------------------------------- focus
    def _focus_position(
        self,
        state: State,
        mine: Sequence[UnitView],
        opponents: Sequence[UnitView],
        rng: np.random.Generator,
    ) -> tuple[float, float]:
        """Where the units head: the focus target's tile (see the class docstring)."""
        if not opponents:
            # The reference walks to a random tile to look for enemies; unreachable here, since
            # a side without units has no King and the game is over.
            return float(rng.integers(state.width)), float(rng.integers(state.height))
        if self.reference_quirks:
            last = opponents[-1]
            return float(last.x), float(last.y)
        best, best_score = opponents[0], -math.inf
        for opp in opponents:
            score = _focus_score(opp, mine, opponents)
            if score > best_score:
                best, best_score = opp, score
        return float(best.x), float(best.y)

    # ---------------------------------------------------------------------------- attack
    def _best_attack(
        self,
        unit: UnitView,
        candidates: list[tuple[UnitView, int]],
        opponents: Sequence[UnitView],
    ) -> int:
        """``getAttackScore`` over the unit's attacks; the first best target in unit order."""
        damage = _ATTACK_DAMAGE[unit.type]
        best_action, best_score = candidates[0][1], -math.inf
        for target, action in sorted(candidates, key=lambda c: c[0].id):
            healing = 0.0 if self.reference_quirks else _enemy_healing(target, opponents)
            score = _attack_score(target, damage, healing)
            if score > best_score:
                best_action, best_score = action, score
        return best_action

    # ---------------------------------------------------------------------------- heal
    def _heal(
        self,
        unit: UnitView,
        candidates: list[tuple[UnitView, int]],
        opponents: Sequence[UnitView],
        me: int,
    ) -> int | None:
        """The heal the reference plays for this unit, or ``None`` to go on to moving."""
        ordered = sorted(candidates, key=lambda c: c[0].id)
        heal_amount = _HEAL_AMOUNT[unit.type]
        if self.reference_quirks:
            # Every candidate is scored as healing the Healer itself: skipped when the Healer is
            # at full health, otherwise all equal, so the first target wins.
            if unit.health >= _MAX_HEALTH[unit.type]:
                return None
            return ordered[0][1]
        best_action, best_score = None, -math.inf
        for target, action in ordered:
            if target.owner != me or target.health >= _MAX_HEALTH[target.type]:
                continue
            score = _heal_score(target, heal_amount, opponents)
            if score > best_score:
                best_action, best_score = action, score
        return best_action


def _focus_score(opp: UnitView, mine: Sequence[UnitView], opponents: Sequence[UnitView]) -> float:
    """``avgAttackScore - avgSupportScore`` of one enemy as a focus target.

    Support: over the enemy's allies, ``value / (1 + int(manhattan / movement points))``,
    divided by the number of enemies (the target included). Attack: over my units,
    ``value / (1 + int(max(0, chebyshev - int(mp)) / mp))``, divided by ``#mine + 1``.
    Movement points are the current ones; a division by zero becomes ``INT_MIN`` as on x86.
    """
    support = 0.0
    for ally in opponents:
        if ally.id == opp.id:
            continue
        dist = int(_manhattan(opp.x, opp.y, ally.x, ally.y))
        mp = float(ally.movement_points)
        moves = _c_int(dist / mp) if mp else _c_int(math.inf)
        support += _VALUES[ally.type] / (1.0 + moves)
    support /= len(opponents)
    attack = 0.0
    for attacker in mine:
        dist = int(max(abs(opp.x - attacker.x), abs(opp.y - attacker.y)))
        mp = float(attacker.movement_points)
        gap = max(0, dist - int(mp))
        moves = _c_int(gap / mp) if mp else _c_int(math.inf if gap else math.nan)
        attack += _VALUES[attacker.type] / (1.0 + moves)
    attack /= len(mine) + 1.0
    return attack - support


def _attack_score(target: UnitView, damage: float, healing: float) -> float:
    """``getAttackScore``: kill now, kill within a few turns, or cannot kill."""
    value = _VALUES[target.type]
    health = float(target.health)
    if damage >= health:
        return 2.0 * value
    if healing < damage:
        turns = _c_int(min(4.0, math.ceil(health / (damage - healing))))
        return value * (1.0 + 1.0 / (1.0 + turns))
    return 0.0


def _enemy_healing(target: UnitView, opponents: Sequence[UnitView]) -> float:
    """Intended ``getPotentialHealing`` (quirk-free mode only).

    The heal amounts of the enemy Healers within Manhattan ``HealRange + movement points`` of
    ``target``.
    """
    return sum(
        _HEAL_AMOUNT[u.type]
        for u in _in_reach(target.x, target.y, opponents, _HEAL_RANGE)
        if _HEAL_AMOUNT[u.type] > 0
    )


def _heal_score(target: UnitView, heal_amount: float, opponents: Sequence[UnitView]) -> float:
    """``getHealScore`` for a heal of ``target`` (quirk-free mode only)."""
    value = _VALUES[target.type]
    health = float(target.health)
    resulting = min(_MAX_HEALTH[target.type], health + heal_amount)
    danger = _potential_damage(target.x, target.y, opponents)
    if danger < 0.0001 or danger > resulting:
        return 0.0  # in no danger, or doomed whatever we do
    if heal_amount >= danger:
        return 2.0 * value
    turns = min(4, _c_int(math.ceil(health / (danger - heal_amount))))
    return (1.0 + turns / 4.0) * value


def _move_toward(
    unit: UnitView,
    focus: tuple[float, float],
    candidates: list[tuple[int, int, int]],
    opponents: Sequence[UnitView],
) -> int | None:
    """``getMoveInRange``: a step toward ``focus``, or ``None`` when the unit stays."""
    fx, fy = focus
    reach = _MOVE_RANGE[unit.type]
    if _manhattan(unit.x, unit.y, fx, fy) <= reach:
        return None
    ordered = sorted(candidates)  # by dx, then dy: the reference's x-major order
    in_range = [
        (dx, dy, a)
        for dx, dy, a in ordered
        if _manhattan(unit.x + dx, unit.y + dy, fx, fy) <= reach
    ]
    if in_range:
        return min(
            in_range, key=lambda m: _potential_damage(unit.x + m[0], unit.y + m[1], opponents)
        )[2]
    return min(ordered, key=lambda m: _manhattan(unit.x + m[0], unit.y + m[1], fx, fy))[2]
