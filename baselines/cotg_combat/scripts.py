"""The per-unit scripts of CotG combat and the agents that play a whole army with them.

A *script* decides everything one unit does in the current turn (spec section 5; Šmejkal &
Gemrot 2018, "Scripts", after SparCraft's ``Player_AttackClosest``/``AttackDPS``/``NOKDPS``/
``Kiter``). A player's turn under a *script vector* runs the scripts of its units in slot order,
each one seeing the state left by the previous ones (the paper's ``a_i = s_i(g_{i-1}, i)``), then
ends the turn. Helpers, with the spec's tie-breaks:

* ``closest``: the enemy at the smallest hex distance; ties: lower current hit points, then lower
  slot.
* ``approach(t)``: move to the reachable hex nearest to ``t``; ties: lower path cost (so staying
  put wins), then lower cell index.
* ``in range``: enemies within the unit's attack range.

The four scripts:

* **Attack-Closest**: attack the closest enemy in range; if none, approach the closest enemy and
  then attack the closest in range.
* **Attack-Value**: as Attack-Closest, but attack the enemy in range with the highest
  ``strength / hp`` (ties: closer, then lower slot).
* **NOKAV** (No-OverKill-Attack-Value): as Attack-Value over the enemies whose *remaining* hit
  points (current hit points minus the damage the player's scripts assigned this turn) are
  positive, with the value computed on the remaining hit points. Hits resolve at once in this
  turn-based game, so the remaining hit points of a living enemy equal its current ones and
  NOKAV chooses what Attack-Value chooses; it is kept as its own script because the paper and
  the game's AI are defined with it (see ``docs/games/cotg_combat.md``).
* **Kiter**: with an enemy in range, attack the closest one and retreat with the power left to
  the reachable hex farthest from the closest enemy (ties: lower cost, lower cell). Otherwise
  move to the reachable hex within range of the closest enemy that is farthest from it (stop at
  range; approach it when no such hex exists), attack the closest in range, then retreat.

Scripts use the state's unit-level interface (:meth:`CotgCombatState.reachable`,
:meth:`~CotgCombatState.move_unit`, :meth:`~CotgCombatState.attack_unit`,
:meth:`~CotgCombatState.end_turn`); every such call is one forward-model call, counted by
:func:`play_turn`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from stratagem.baselines.agent import BaseAgent
from stratagem.envs.core import Game, State
from stratagem.envs.cotg_combat.rules import CotgCombatState

__all__ = [
    "SCRIPTS",
    "SCRIPT_NAMES",
    "AttackClosestAgent",
    "AttackValueAgent",
    "KiterAgent",
    "NokavAgent",
    "PlanStats",
    "ScriptAgent",
    "TurnContext",
    "TurnPlanAgent",
    "check_cotg",
    "play_turn",
    "resolve_portfolio",
]


class TurnContext:
    """What the scripts of one player-turn share: fast references, NOKAV's ledger, a recorder.

    Attributes:
        state: The state being advanced.
        record: Flat actions taken, when recording (agents); ``None`` in playouts.
        calls: Forward-model calls made (moves, attacks and the end of turn).
        hp_left: NOKAV's remaining hit points per unit id (created on first use).
    """

    __slots__ = (
        "atk",
        "calls",
        "dest_offset",
        "dist",
        "ebase",
        "enemies",
        "game",
        "hp",
        "hp_left",
        "layout",
        "pos",
        "record",
        "state",
        "types",
        "units",
    )

    def __init__(self, state: CotgCombatState, record: list[int] | None = None) -> None:
        g = state.game
        self.state = state
        self.game = g
        self.record = record
        self.calls = 0
        self.hp_left: list[int] | None = None
        self.pos = state.positions
        self.hp = state.hit_points
        self.atk = state.has_attacked
        self.types = state.types
        self.dist = g.grid.dist
        self.dest_offset = g.grid.dest_offset
        self.layout = g.layout
        self.units = g.units
        self.ebase = (1 - state.current_player) * g.units
        self.enemies = range(self.ebase, self.ebase + g.units)

    # ----------------------------------------------------------------- queries
    def closest(self, cell: int, reach: int = -1, alive_left: bool = False) -> int:
        """Closest enemy to ``cell`` (ties: lower hp, lower slot), or -1.

        Args:
            cell: Where the distance is measured from.
            reach: Only enemies within this distance (-1: any distance).
            alive_left: Only enemies with positive NOKAV remaining hit points.
        """
        pos, hp = self.pos, self.hp
        left = self.hp_left if alive_left else None
        row = self.dist[cell]
        if reach < 0:
            reach = 1 << 30
        best, bd, bh = -1, 1 << 30, 1 << 30
        for v in self.enemies:
            ce = pos[v]
            if ce < 0 or (left is not None and left[v] <= 0):
                continue
            d = row[ce]
            if d <= reach and (d < bd or (d == bd and hp[v] < bh)):
                best, bd, bh = v, d, hp[v]
        return best

    def most_valuable(self, cell: int, reach: int, use_left: bool) -> int:
        """Enemy within ``reach`` of ``cell`` with the highest ``strength / hp``, or -1.

        Ties: closer, then lower slot. With ``use_left`` (NOKAV) the remaining hit points are
        used and enemies with none left are skipped.
        """
        pos = self.pos
        hp = self.hp_left if use_left else self.hp
        strength, types = self.game.strength, self.types
        row = self.dist[cell]
        best, bv, bd = -1, -1.0, 1 << 30
        for v in self.enemies:
            ce = pos[v]
            if ce < 0:
                continue
            h = hp[v]  # type: ignore[index]
            d = row[ce]
            if h <= 0 or d > reach:
                continue
            value = strength[types[v]] / h
            if value > bv or (value == bv and d < bd):
                best, bv, bd = v, value, d
        return best

    def can_attack(self, u: int) -> bool:
        """True when unit ``u`` may still attack this turn."""
        return not self.atk[u] and self.game.strength[self.types[u]] > 0

    # ----------------------------------------------------------------- actions
    def move(self, u: int, cell: int, cost: int) -> None:
        """Move unit ``u`` (one forward-model call), recording the flat action if asked."""
        if self.record is not None:
            start = self.pos[u]
            self.record.append(self.layout.move(u % self.units, self.dest_offset[start][cell]))
        self.state.move_unit(u, cell, cost)
        self.calls += 1

    def attack(self, u: int, v: int) -> None:
        """Unit ``u`` attacks ``v`` (one forward-model call); keeps NOKAV's ledger."""
        if self.record is not None:
            self.record.append(self.layout.attack(u % self.units, v - self.ebase))
        if self.hp_left is not None:
            self.hp_left[v] -= self.game.damage[self.types[u]][self.types[v]]
        self.state.attack_unit(u, v)
        self.calls += 1

    def approach(self, u: int, target_cell: int) -> None:
        """Move ``u`` to the reachable hex nearest to ``target_cell`` (ties: cost, cell)."""
        here = self.pos[u]
        row = self.dist[target_cell]
        best, bd, bc = here, row[here], 0
        for cell, cost in self.state.reachable(u).items():
            d = row[cell]
            if d < bd or (d == bd and (cost < bc or (cost == bc and cell < best))):
                best, bd, bc = cell, d, cost
        if best != here:
            self.move(u, best, bc)

    def farthest_within(self, u: int, target_cell: int, reach: int) -> tuple[int, int]:
        """Reachable hex within ``reach`` of ``target_cell`` farthest from it, with its cost.

        Ties: lower cost, then lower cell; ``(-1, 0)`` when no reachable hex is within reach.
        """
        row = self.dist[target_cell]
        best, bd, bc = -1, -1, 0
        for cell, cost in self.state.reachable(u).items():
            d = row[cell]
            if d <= reach and (d > bd or (d == bd and (cost < bc or (cost == bc and cell < best)))):
                best, bd, bc = cell, d, cost
        return best, bc

    def retreat(self, u: int) -> None:
        """Move ``u`` to the reachable hex farthest from the closest enemy (ties: cost, cell)."""
        here = self.pos[u]
        if self.state.power_left[u] <= 0:
            return
        enemy = self.closest(here)
        if enemy < 0:
            return
        row = self.dist[self.pos[enemy]]
        best, bd, bc = here, row[here], 0
        for cell, cost in self.state.reachable(u).items():
            d = row[cell]
            if d > bd or (d == bd and (cost < bc or (cost == bc and cell < best))):
                best, bd, bc = cell, d, cost
        if best != here:
            self.move(u, best, bc)


Script = Callable[[TurnContext, int], None]


def attack_closest(ctx: TurnContext, u: int) -> None:
    """Attack-Closest for unit ``u`` (see the module docstring)."""
    if not ctx.can_attack(u):
        target = ctx.closest(ctx.pos[u])
        if target >= 0:
            ctx.approach(u, ctx.pos[target])
        return
    reach = ctx.game.range[ctx.types[u]]
    target = ctx.closest(ctx.pos[u], reach)
    if target < 0:
        nearest = ctx.closest(ctx.pos[u])
        if nearest < 0:
            return
        ctx.approach(u, ctx.pos[nearest])
        target = ctx.closest(ctx.pos[u], reach)
    if target >= 0:
        ctx.attack(u, target)


def _attack_value(ctx: TurnContext, u: int, nokav: bool) -> None:
    if nokav and ctx.hp_left is None:
        ctx.hp_left = list(ctx.hp)
    if not ctx.can_attack(u):
        target = ctx.closest(ctx.pos[u], alive_left=nokav)
        if target >= 0:
            ctx.approach(u, ctx.pos[target])
        return
    reach = ctx.game.range[ctx.types[u]]
    target = ctx.most_valuable(ctx.pos[u], reach, nokav)
    if target < 0:
        nearest = ctx.closest(ctx.pos[u], alive_left=nokav)
        if nearest < 0:
            return
        ctx.approach(u, ctx.pos[nearest])
        target = ctx.most_valuable(ctx.pos[u], reach, nokav)
    if target >= 0:
        ctx.attack(u, target)


def attack_value(ctx: TurnContext, u: int) -> None:
    """Attack-Value (SparCraft's AttackDPS) for unit ``u``."""
    _attack_value(ctx, u, False)


def nokav(ctx: TurnContext, u: int) -> None:
    """No-OverKill-Attack-Value (SparCraft's NOKDPS) for unit ``u``."""
    _attack_value(ctx, u, True)


def kiter(ctx: TurnContext, u: int) -> None:
    """Kiter for unit ``u``: attack from as far as possible, then fall back."""
    reach = ctx.game.range[ctx.types[u]]
    if ctx.can_attack(u):
        target = ctx.closest(ctx.pos[u], reach)
        if target < 0:
            nearest = ctx.closest(ctx.pos[u])
            if nearest < 0:
                return
            tc = ctx.pos[nearest]
            cell, cost = ctx.farthest_within(u, tc, reach)
            if cell < 0:
                ctx.approach(u, tc)
            elif cell != ctx.pos[u]:
                ctx.move(u, cell, cost)
            target = ctx.closest(ctx.pos[u], reach)
        if target >= 0:
            ctx.attack(u, target)
            if ctx.state.winner is not None:
                return
    ctx.retreat(u)


#: The scripts by name, in the order of the spec.
SCRIPTS: dict[str, Script] = {
    "attack_closest": attack_closest,
    "attack_value": attack_value,
    "nokav": nokav,
    "kiter": kiter,
}
SCRIPT_NAMES: tuple[str, ...] = tuple(SCRIPTS)


def resolve_portfolio(portfolio: Sequence[str] | str) -> tuple[str, ...]:
    """Script names of a portfolio given as a sequence or a ``|``-separated string.

    Raises:
        ValueError: For an empty portfolio, a repeated script or an unknown name.
    """
    names = (
        tuple(p.strip() for p in portfolio.split("|") if p.strip())
        if isinstance(portfolio, str)
        else tuple(portfolio)
    )
    if not names:
        raise ValueError("cotg_combat: a portfolio needs at least one script")
    for name in names:
        if name not in SCRIPTS:
            raise ValueError(
                f"cotg_combat: unknown script {name!r}; scripts: {', '.join(SCRIPT_NAMES)}"
            )
    if len(set(names)) != len(names):
        raise ValueError(f"cotg_combat: portfolio {names} repeats a script")
    return names


def play_turn(
    state: CotgCombatState,
    scripts: Sequence[Script] | Script,
    record: list[int] | None = None,
    end: bool = True,
) -> int:
    """Play the current player's turn with one script per slot (or one for all), in place.

    Args:
        state: Advanced in place.
        scripts: A script per slot of the player to move (indexed by slot), or one script.
        record: When given, the flat actions taken are appended to it.
        end: End the turn afterwards (unless the battle is over).

    Returns:
        Forward-model calls made.
    """
    ctx = TurnContext(state, record)
    u_n = ctx.units
    base = state.current_player * u_n
    pos = ctx.pos
    single = callable(scripts)
    for k in range(u_n):
        if state.winner is not None:
            break
        if pos[base + k] >= 0:
            (scripts if single else scripts[k])(ctx, base + k)  # type: ignore[operator,index]
    if end and state.winner is None:
        if record is not None:
            record.append(0)
        state.end_turn()
        ctx.calls += 1
    return ctx.calls


def check_cotg(game: Game, who: str) -> None:
    """Raise a clear error when an agent made for CotG combat is given another game."""
    if game.spec.name != "cotg_combat":
        raise ValueError(f"{who} plays cotg_combat only, not {game.spec.name}")


def _state_key(state: CotgCombatState) -> tuple[Any, ...]:
    return (
        state.turn,
        state.current_player,
        tuple(state.positions),
        tuple(state.hit_points),
        tuple(state.power_left),
        tuple(state.has_attacked),
    )


def _clock(name: str) -> Callable[[], float]:
    if name == "cpu":
        return time.process_time
    if name == "wall":
        return time.perf_counter
    raise ValueError(f"clock must be 'cpu' or 'wall', got {name!r}")


class PlanStats(dict):
    """What the last decision of a turn-planning agent cost, as a dict and as attributes.

    The keys depend on the agent (MCTS: ``iterations``, ``fm_calls``, ``root_children``, ...;
    PGS: ``playouts``, ``cache_hits``, ``fm_calls``, ...; all: ``seconds``, ``cpu_seconds``).
    The attributes ``iterations``, ``fm_calls``, ``seconds`` and ``searched`` read like the
    generic planners' :class:`~stratagem.baselines.search.SearchStats`, so ``stratagem bench
    --agent`` can count them; decisions that only replay a plan are ``searched = False``.
    """

    @property
    def iterations(self) -> int:
        """Search iterations (MCTS) or playouts (PGS) of the decision."""
        return int(self.get("iterations", self.get("playouts", 0)))

    @property
    def fm_calls(self) -> int:
        """Forward-model calls made by the decision's search."""
        return int(self.get("fm_calls", 0))

    @property
    def seconds(self) -> float:
        """Wall time of the decision."""
        return float(self.get("seconds", 0.0))

    @property
    def searched(self) -> bool:
        """True when the decision ran a search (not a replay of the turn's plan)."""
        return bool(self.get("searched", False))


class TurnPlanAgent(BaseAgent):
    """An agent that decides a whole turn at its first decision and then plays it out.

    Subclasses implement :meth:`choose_scripts` (one script per own slot). The turn is played on
    a copy with the chosen scripts while recording the flat actions; later calls in the same
    turn return the next recorded action as long as the state is the one the plan expects (any
    other state makes a new plan). ``last_stats`` (:class:`PlanStats`) holds what the last
    decision cost (empty for a decision that replayed the plan) and ``plans`` counts the plans
    made.

    Args:
        game: A CotG combat game.
        clock: ``"cpu"`` (process CPU time, the default: time limits then mean the same on a
            loaded machine) or ``"wall"`` for the searches' time limits.
    """

    name = "cotg_turn_plan"
    #: Whether choosing the scripts is a search (its decisions count as searched).
    searches = True

    def __init__(self, game: Game, *, clock: str = "cpu") -> None:
        check_cotg(game, type(self).__name__)
        self.game = game
        self.clock_name = clock
        self._now = _clock(clock)
        self._plan: list[tuple[tuple[Any, ...], int]] = []
        self.last_stats: dict[str, Any] = PlanStats()
        self.plans = 0

    def reset(self) -> None:
        """Forget the current plan."""
        self._plan = []
        self.last_stats = PlanStats()

    def act(self, state: State, *, rng: np.random.Generator) -> int:
        """The next action of this turn's plan (planning the turn first when needed)."""
        if not isinstance(state, CotgCombatState):
            raise ValueError(f"{self.name}: expected a cotg_combat state, got {type(state)}")
        if state.is_terminal():
            raise ValueError(f"{self.name}: cannot act in a terminal state")
        key = _state_key(state)
        if self._plan and self._plan[0][0] == key:
            self.last_stats = PlanStats()
            return self._plan.pop(0)[1]
        start = time.perf_counter()
        cpu = time.process_time()
        self.last_stats = PlanStats()
        scripts = self.choose_scripts(state, rng)
        actions: list[int] = []
        play_turn(state.clone(), scripts, actions)
        replay = state.clone()
        plan = []
        for action in actions:
            plan.append((_state_key(replay), action))
            replay.apply(action)  # also checks the plan against the rules
        self._plan = plan
        self.plans += 1
        stats = PlanStats(self.last_stats)
        stats["searched"] = self.searches
        stats["seconds"] = time.perf_counter() - start
        stats["cpu_seconds"] = time.process_time() - cpu
        self.last_stats = stats
        return self._plan.pop(0)[1]

    def choose_scripts(self, state: CotgCombatState, rng: np.random.Generator) -> list[Script]:
        """One script per slot of the player to move (the turn's decision)."""
        raise NotImplementedError


class ScriptAgent(TurnPlanAgent):
    """Every unit of the army follows one script (the paper's scripted players).

    Args:
        game: A CotG combat game.
        script: ``attack_closest``, ``attack_value``, ``nokav`` or ``kiter``.
    """

    name = "cotg_script"
    searches = False

    def __init__(self, game: Game, *, script: str = "nokav") -> None:
        super().__init__(game)
        if script not in SCRIPTS:
            raise ValueError(
                f"cotg_combat: unknown script {script!r}; scripts: {', '.join(SCRIPT_NAMES)}"
            )
        self.script = script
        self.name = f"cotg_{script}"

    def choose_scripts(self, state: CotgCombatState, rng: np.random.Generator) -> list[Script]:
        """The same script for every unit."""
        return [SCRIPTS[self.script]] * self.game.units  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"ScriptAgent(script={self.script!r})"


class AttackClosestAgent(ScriptAgent):
    """The Attack-Closest script for the whole army."""

    def __init__(self, game: Game) -> None:
        super().__init__(game, script="attack_closest")


class AttackValueAgent(ScriptAgent):
    """The Attack-Value script for the whole army."""

    def __init__(self, game: Game) -> None:
        super().__init__(game, script="attack_value")


class NokavAgent(ScriptAgent):
    """The NOKAV script for the whole army: the game's own AI per the paper (rule-based agent)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game, script="nokav")


class KiterAgent(ScriptAgent):
    """The Kiter script for the whole army."""

    def __init__(self, game: Game) -> None:
        super().__init__(game, script="kiter")
