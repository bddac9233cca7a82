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
    CLICK_ATTACKS,
    ECON,
    IS_CHILLER,
    FilteredPlayer,
    PartialPlayer,
    _gain,
    _is_sniper,
)
from stratagem.baselines.prismata.turn import Turn
from stratagem.envs.prismata.cards import NUM_CARDS
from stratagem.envs.prismata.data import (
    ACTION,
    C_ABILITY,
    C_FRONT,
    C_HAS_ABILITY,
    C_TARGET,
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
        # Econ clicks only gain (every econ card's click script is plain: a test checks it), so
        # no unit appears or changes card while they run and the econ slots can be listed first.
        for x in s.live_slots_where(p, ECON):
            if s.can_use(p, x):
                turn.do(turn.lay.use0 + x)


def _click_until_idle(
    turn: Turn, slots: list[int], may_click: Callable[[PrismataState, int, int], bool]
) -> None:
    """Click ``slots`` in order, round after round, until a round clicks none.

    One click can make another possible (the gold a converter needs, a unit made ready), hence
    the rounds. ``may_click(state, slot, card)`` vets the unit now in ``slot`` (of ``card``): a
    slot freed by a unit that died this turn may hold another card by then, or none (skipped).
    """
    p = turn.player
    while True:
        clicked = False
        for x in slots:
            s = turn.state
            t = s.unit_card(p, x)
            if t >= 0 and may_click(s, x, t) and turn.use(x):
                clicked = True
        if not clicked:
            return


class AttackDefault(FilteredPlayer):
    """Click every unit whose click makes attack.

    Except units that would die of the click's health cost, and filtered cards (Drake and
    Grenade Mech in the bots).
    """

    def play(self, turn: Turn) -> None:
        """Click the attackers in activation order until no click is left."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        attackers = s.live_slots_where(p, CLICK_ATTACKS)
        attackers.sort(key=lambda x: H.activate_order_key(s, p, x))
        skipped = self.filter

        def may_click(s: PrismataState, x: int, t: int) -> bool:
            if t in skipped:
                return False
            script = C_ABILITY[t]
            return script is None or script.hp_cost <= 0 or s.unit_hp(p, x) != script.hp_cost

        _click_until_idle(turn, attackers, may_click)


def _is_utility(t: int) -> bool:
    """A click that is neither attack nor gold nor targeted (creators, converters)."""
    return (
        C_HAS_ABILITY[t]
        and C_TARGET[t] is None
        and not H.ABILITY_ATTACK[t]
        and not _gain(C_ABILITY[t], 0)
    )


#: Per card: :func:`_is_utility`, for ``live_slots_where``.
IS_UTILITY = tuple(_is_utility(i) for i in range(NUM_CARDS))


class ActivateUtility(FilteredPlayer):
    """Click units whose click is neither attack nor gold nor targeted (creators, converters).

    A health-paying click that would bring the unit to 3 health or less is skipped when the enemy
    has an Apollo.
    """

    def play(self, turn: Turn) -> None:
        """Click the utility units in activation order until no click is left."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        utility = s.live_slots_where(p, IS_UTILITY)
        utility.sort(key=lambda x: H.activate_order_key(s, p, x))
        floor = 3 if s.count(1 - p, _APOLLO) > 0 else 0
        skipped = self.filter

        def may_click(s: PrismataState, x: int, t: int) -> bool:
            if not IS_UTILITY[t] or t in skipped:
                return False
            cost = C_ABILITY[t].hp_cost
            hp = s.unit_hp(p, x)
            return not (cost > 0 and hp > floor and hp - cost <= floor)

        _click_until_idle(turn, utility, may_click)


class FrontlineGreedy(PartialPlayer):
    """Spend attack on enemy frontline units, most valuable first."""

    def play(self, turn: Turn) -> None:
        """Attack the most valuable frontline unit the attack can take, repeatedly."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        e = 1 - p
        front = s.live_slots_where(e, C_FRONT)
        if not front:
            return
        front.sort(key=lambda x: -H.current_value(s, e, x))
        while turn.in_action:
            done = False
            for x in front:
                if turn.state.can_attack_frontline(p, x):
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
        for x in s.live_slots(p):
            t = s.unit_card(p, x)
            if _is_sniper(t) and s.can_use(p, x):
                snipers.setdefault(t, []).append(x)
        for t in sorted(snipers):
            for x in snipers[t]:
                s = turn.state
                if not s.can_use(p, x):
                    continue
                targets = s.click_targets(p, x)
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
        chillers = [x for x in s.live_slots_where(p, IS_CHILLER) if s.can_use(p, x)]
        if not chillers:
            return
        total_chill = sum(C_TARGET[s.unit_card(p, x)][1] for x in chillers)
        blockers = [x for x in s.live_slots(e) if s.can_block(e, x)]
        if not blockers:
            return
        blockers.sort(key=lambda x: -H.current_value(s, e, x))
        left = total_chill
        largest_remaining = 0
        for x in blockers:
            hp = s.unit_hp(e, x)
            if hp <= left:
                left -= hp
            else:
                largest_remaining = hp
                break
        if s.attack(p) < largest_remaining:
            return
        remaining = total_chill
        for x in blockers:
            now = turn.state
            if now.unit_card(e, x) < 0:
                continue
            hp, chill = now.unit_hp(e, x), now.unit_chill(e, x)
            if chill >= hp or hp > remaining:
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
            hp, chill = s.unit_hp(e, target), s.unit_chill(e, target)
            if chill >= hp:
                return used
            need = hp - chill
            best, best_diff = -1, 0
            for x in chillers:
                if not s.can_use(p, x) or target not in s.click_targets(p, x):
                    continue
                diff = C_TARGET[s.unit_card(p, x)][1] - need
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
            used += C_TARGET[s.unit_card(p, best)][1]
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
        for x in list(s.live_slots(p)):
            t = s.unit_card(p, x)
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
        for x in list(s.live_slots(p)):
            now = turn.state
            t = now.unit_card(p, x)
            if t < 0 or not now.unit_clicked(p, x) or C_TARGET[t] is not None:
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
            for x in sorted(s.live_slots(p)):
                if s.can_use(p, x):
                    t = s.unit_card(p, x)
                    if C_TARGET[t] is not None:
                        turn.target(x, s.click_targets(p, x)[0])
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
        for x in list(s.live_slots(p)):
            t = turn.state.unit_card(p, x)
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
