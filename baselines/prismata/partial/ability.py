"""Ability-phase partial players that click by rule, without predicting the enemy's turn.

Economy, attack, utility, frontline, snipe and chill clicks, the converter clean-up
(:class:`AvoidEconomyWaste`) and the default and random ability players. The players that
weigh their clicks against the enemy's next turn are in
:mod:`~stratagem.baselines.prismata.partial.lookahead`; the prediction itself uses some of the
players here, so this module imports no prediction.
"""

from __future__ import annotations

from collections.abc import Callable

from stratagem.baselines.prismata import heuristics as H
from stratagem.baselines.prismata.partial.common import (
    _APOLLO,
    ABILITY_COST,
    ECON,
    NO_FILTER,
    CardFilter,
    PartialPlayer,
    _gain,
    _is_chiller,
    _is_sniper,
)
from stratagem.baselines.prismata.turn import Turn
from stratagem.envs.prismata.data import (
    ACTION,
    C_ABILITY,
    C_FRONT,
    C_HAS_ABILITY,
    C_TARGET,
    CHILL,
    HP,
    STATUS,
    USED,
    K,
)
from stratagem.envs.prismata.rules import PrismataState


class EconomyDefault(PartialPlayer):
    """Click every economy unit (Drone-like: free clicks that only make gold)."""

    def play(self, turn: Turn) -> None:
        """Click the economy units that can be clicked, in arrival order."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        for x in list(s.live[p]):
            if ECON[s.u[p][x * K]] and s.can_use(p, x):
                turn.do(turn.lay.use0 + x)


class AttackDefault(PartialPlayer):
    """Click every unit whose click makes attack.

    Except units that would die of the click's health cost, and filtered cards (Drake and
    Grenade Mech in the bots).
    """

    def __init__(self, name: str = "", filter: CardFilter | None = None, **kw: object) -> None:
        super().__init__(name, **kw)  # type: ignore[arg-type]
        self.filter = filter or NO_FILTER

    def play(self, turn: Turn) -> None:
        """Click the attackers in activation order until no click is left."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        attackers = [x for x in s.live[p] if H.ABILITY_ATTACK[s.u[p][x * K]] > 0]
        attackers.sort(key=lambda x: H.activate_order_key(s, p, x))
        while True:
            clicked = False
            for x in attackers:
                s = turn.state
                u = s.u[p]
                t = u[x * K]
                if t < 0 or t in self.filter:
                    continue
                script = C_ABILITY[t]
                if script is not None and script.hp_cost > 0 and u[x * K + HP] == script.hp_cost:
                    continue
                if turn.use(x):
                    clicked = True
            if not clicked:
                break


def _is_utility(t: int) -> bool:
    """A click that is neither attack nor gold nor targeted (creators, converters)."""
    return (
        C_HAS_ABILITY[t]
        and C_TARGET[t] is None
        and not H.ABILITY_ATTACK[t]
        and not _gain(C_ABILITY[t], 0)
    )


class ActivateUtility(PartialPlayer):
    """Click units whose click is neither attack nor gold nor targeted (creators, converters).

    A health-paying click that would bring the unit to 3 health or less is skipped when the enemy
    has an Apollo.
    """

    def __init__(self, name: str = "", filter: CardFilter | None = None, **kw: object) -> None:
        super().__init__(name, **kw)  # type: ignore[arg-type]
        self.filter = filter or NO_FILTER

    def play(self, turn: Turn) -> None:
        """Click the utility units in activation order until no click is left."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        utility = [x for x in s.live[p] if _is_utility(s.u[p][x * K])]
        utility.sort(key=lambda x: H.activate_order_key(s, p, x))
        floor = 3 if s.count(1 - p, _APOLLO) > 0 else 0
        while True:
            clicked = False
            for x in utility:
                u = turn.state.u[p]
                t = u[x * K]
                # a slot freed by a unit that died this turn may hold another card now
                if t < 0 or not _is_utility(t) or t in self.filter:
                    continue
                cost = C_ABILITY[t].hp_cost
                hp = u[x * K + HP]
                if cost > 0 and hp > floor and hp - cost <= floor:
                    continue
                if turn.use(x):
                    clicked = True
            if not clicked:
                break


class FrontlineGreedy(PartialPlayer):
    """Spend attack on enemy frontline units, most valuable first."""

    def play(self, turn: Turn) -> None:
        """Attack the most valuable frontline unit the attack can take, repeatedly."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        e = 1 - p
        front = [x for x in s.live[e] if C_FRONT[s.u[e][x * K]]]
        if not front:
            return
        front.sort(key=lambda x: -H.current_value(s, e, x))
        while turn.in_action:
            done = False
            for x in front:
                if turn.state._can_frontline(p, x):
                    turn.do(turn.lay.front0 + x)
                    front.remove(x)
                    done = True
                    break
            if not done:
                break


class SnipeGreedy(PartialPlayer):
    """Snipe with each sniper the most valuable legal target."""

    def __init__(
        self,
        name: str = "",
        priority: Callable[[PrismataState, int, int], float] | None = None,
        **kw: object,
    ) -> None:
        super().__init__(name, **kw)  # type: ignore[arg-type]
        self.priority = priority or H.current_value

    def play(self, turn: Turn) -> None:
        """Snipe with each ready sniper, sniper types in library order."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        e = 1 - p
        snipers: dict[int, list[int]] = {}
        for x in s.live[p]:
            t = s.u[p][x * K]
            if _is_sniper(t) and s.can_use(p, x):
                snipers.setdefault(t, []).append(x)
        for t in sorted(snipers):
            for x in snipers[t]:
                s = turn.state
                if not s.can_use(p, x):
                    continue
                targets = s._targets_for(x, p)
                if not targets:
                    continue
                best = max(targets, key=lambda y: (self.priority(s, e, y), -y))
                turn.target(x, best)


class ChillGreedy(PartialPlayer):
    """When the attack could then wipe the enemy out, freeze its blockers, largest first."""

    def play(self, turn: Turn) -> None:
        """Freeze enemy blockers, largest first, when the attack then wipes them out."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        e = 1 - p
        if s.attack(p) == 0:
            return
        chillers = [x for x in s.live[p] if _is_chiller(s.u[p][x * K]) and s.can_use(p, x)]
        if not chillers:
            return
        total_chill = sum(C_TARGET[s.u[p][x * K]][1] for x in chillers)
        blockers = [x for x in s.live[e] if s.can_block(e, x)]
        if not blockers:
            return
        ue = s.u[e]
        blockers.sort(key=lambda x: -H.current_value(s, e, x))
        left = total_chill
        largest_remaining = 0
        for x in blockers:
            hp = ue[x * K + HP]
            if hp <= left:
                left -= hp
            else:
                largest_remaining = hp
                break
        if s.attack(p) < largest_remaining:
            return
        remaining = total_chill
        for x in blockers:
            ue = turn.state.u[e]
            hp, chill = ue[x * K + HP], ue[x * K + CHILL]
            if ue[x * K] < 0 or chill >= hp or hp > remaining:
                continue
            used = self._freeze(turn, x, chillers)
            if 0 < used < hp:
                return
            remaining -= used
            if remaining <= 0:
                return

    def _freeze(self, turn: Turn, target: int, chillers: list[int]) -> int:
        p = turn.player
        e = 1 - p
        used = 0
        while True:
            s = turn.state
            hp, chill = s.u[e][target * K + HP], s.u[e][target * K + CHILL]
            if chill >= hp:
                return used
            need = hp - chill
            best, best_diff = -1, 0
            for x in chillers:
                if not s.can_use(p, x) or target not in s._targets_for(x, p):
                    continue
                diff = C_TARGET[s.u[p][x * K]][1] - need
                if best < 0:
                    best, best_diff = x, diff
                    if diff == 0:
                        break
                    continue
                if diff == 0:
                    best, best_diff = x, diff
                    break
                if best_diff < 0:
                    if diff > best_diff:
                        best, best_diff = x, diff
                elif 0 < diff < best_diff:
                    best, best_diff = x, diff
            if best < 0:
                return used
            used += C_TARGET[s.u[p][best * K]][1]
            turn.target(best, target)


class AvoidEconomyWaste(PartialPlayer):
    """Use leftover resources on converter clicks, then take back clicks that were wasted.

    Converters are clicks making gold or green; clicks taken back are those whose blue, red or
    energy went unspent.
    """

    def play(self, turn: Turn) -> None:
        """Click the converters, then take back the clicks whose output went unused."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        for x in list(s.live[p]):
            t = s.u[p][x * K]
            script = C_ABILITY[t]
            if (
                script is None
                or H.ABILITY_ATTACK[t] > 0
                or not C_HAS_ABILITY[t]
                or script.selfsac
                or C_TARGET[t] is not None
                or ECON[t]
                or ABILITY_COST[t][5] > 0
            ):
                continue
            if _gain(script, 0) == 0 and _gain(script, 4) == 0:
                continue
            turn.use(x)
        s = turn.state
        for x in list(s.live[p]):
            u = turn.state.u[p]
            t = u[x * K]
            if t < 0 or u[x * K + STATUS] != USED or C_TARGET[t] is not None:
                continue
            script = C_ABILITY[t]
            if script is None or _gain(script, 5) > 0 or script.create:
                continue
            cost = ABILITY_COST[t]
            if not any(cost) and not script.selfsac:
                continue
            if cost[5] or cost[2] or cost[3] or cost[1]:
                continue
            if _gain(script, 0) or _gain(script, 4):
                continue
            if not (_gain(script, 2) or _gain(script, 3) or _gain(script, 1)):
                continue
            turn.undo_use(x)


class AbilityDefault(PartialPlayer):
    """Click everything clickable, in slot order, until nothing more can be clicked."""

    def play(self, turn: Turn) -> None:
        """Click (and target) the lowest clickable slot until none is clickable."""
        while turn.in_action:
            s = turn.state
            p = turn.player
            for x in sorted(s.live[p]):
                if s.can_use(p, x):
                    t = s.u[p][x * K]
                    if C_TARGET[t] is not None:
                        turn.target(x, s._targets_for(x, p)[0])
                    else:
                        turn.use(x)
                    break
            else:
                return


class DontAttack(PartialPlayer):
    """Click every clickable unit that makes no attack."""

    def play(self, turn: Turn) -> None:
        """Click every unit whose click makes no attack and needs no target."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        for x in list(s.live[p]):
            t = turn.state.u[p][x * K]
            if t >= 0 and H.ATTACK_OF[t] == 0 and C_TARGET[t] is None:
                turn.use(x)


class AbilityRandom(PartialPlayer):
    """Uniformly random action-phase actions until the random draw ends the phase.

    The reference's version ends the phase by drawing its end; here the phase end is left to
    the buy step, so drawing ``end_phase`` stops this player.
    """

    def play(self, turn: Turn) -> None:
        """Play random action-phase actions until ``end_phase`` is drawn."""
        while turn.acting and turn.state.phase == ACTION:
            legal = turn.state.legal_action_list()
            a = legal[int(turn.rng.integers(len(legal)))]
            if a == turn.lay.end:
                return
            turn.do(a)
