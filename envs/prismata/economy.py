"""Clicks and purchases: costs, sacrifices, card scripts, and units made and destroyed.

:class:`EconomyRules` is a mixin of :class:`~stratagem.envs.prismata.rules.PrismataState` that
holds the rule internals of the action phase's economy: whether a click or a purchase is
possible, and what it does. A mixin rather than functions, so that the state keeps these
methods (its public queries, :meth:`can_use` and
:meth:`~stratagem.envs.prismata.queries.StateQueries.click_targets`, answer through them) and
the hot loops keep their plain attribute lookups. The phase flow is in
:mod:`~stratagem.envs.prismata.phases`.
"""

from __future__ import annotations

from stratagem.envs.prismata.cards import CARDS, format_resources
from stratagem.envs.prismata.data import (
    BUILD,
    C_ABILITY,
    C_BUILD,
    C_CHARGES,
    C_CLICK,
    C_COST,
    C_HAS_ABILITY,
    C_HP,
    C_LIFE,
    C_ON_BUY,
    C_SPELL,
    C_TARGET,
    CHARGES,
    CHILL,
    DELAY,
    HP,
    INERT,
    LIFE,
    READY,
    STATUS,
    USED,
    K,
    StateFields,
    _can_block,
    _Script,
)

__all__ = ["EconomyRules"]


class EconomyRules(StateFields):
    """What clicks and purchases may do and what they do (a mixin of ``PrismataState``)."""

    __slots__ = ()

    def _buy_reason(self, card: int) -> str:
        name = CARDS[card].name
        p = self.current_player
        pos = self._cs.buy_pos.get(card)
        if pos is None:
            return f"{name} is not in this game's card set"
        if self.supply[p][pos] <= 0:
            return f"no {name} left in supply"
        have = self.res[6 * p : 6 * p + 6]
        if any(h < c for h, c in zip(have, C_COST[card], strict=True)):
            return (
                f"{name} costs {format_resources(C_COST[card])}, "
                f"player has {format_resources(have)}"
            )
        if len(self.live[p]) >= self.game.max_units:
            return f"no free unit slot (max_units={self.game.max_units})"
        return f"{name} needs sacrifices the player cannot make"

    def _can_sacrifice(self, p: int, card: int, n: int) -> bool:
        """``p`` has ``n`` units of ``card`` that may be sacrificed (the scan stops at the n-th).

        A unit may be sacrificed when built, active, and clicked if its card is clickable.
        """
        u = self.u[p]
        has_ability = C_HAS_ABILITY[card]
        for s in self.live[p]:
            b = s * K
            if (
                u[b] == card
                and u[b + BUILD] == 0
                and u[b + DELAY] == 0
                and (not has_ability or u[b + STATUS] == USED)
            ):
                n -= 1
                if n <= 0:
                    return True
        return n <= 0

    def _can_run(self, p: int, script: _Script) -> bool:
        """Cost, sacrifices and destroy targets of a click script are available."""
        if script.cost is not None:
            o = 6 * p
            res = self.res
            cost = script.cost
            for r in range(6):
                if res[o + r] < cost[r]:
                    return False
        for sac_type, n in script.sac:
            if not self._can_sacrifice(p, sac_type, n):
                return False
        for card, n, not_blocking in script.destroy:
            e = 1 - p
            ue = self.u[e]
            found = 0
            for s in self.live[e]:
                b = s * K
                if (
                    ue[b] == card
                    and ue[b + BUILD] == 0
                    and (not not_blocking or not _can_block(ue, b))
                ):
                    found += 1
            if found < n:
                return False
        return True

    def _can_use(self, p: int, s: int) -> bool:
        u = self.u[p]
        b = s * K
        t = u[b]
        if t < 0 or not C_CLICK[t] or u[b + STATUS] != READY or u[b + BUILD] or u[b + DELAY]:
            return False
        if C_CHARGES[t] > 0 and u[b + CHARGES] < 1:
            return False
        script = C_ABILITY[t]
        if script is not None:
            if u[b + HP] < script.hp_cost:
                return False
            if not self._can_run(p, script):
                return False
        if C_TARGET[t] is not None:
            return bool(self._targets_for(s, p))
        return True

    def _add_unit(
        self, p: int, card: int, build: int, delay: int, lifespan: int, manual: bool = False
    ) -> int:
        """Put a new unit of ``card`` in ``p``'s lowest free slot; -1 when there is none."""
        u = self.u[p]
        live = self.live[p]
        if len(live) >= self.game.max_units:
            return -1
        n = len(u) // K
        if len(live) == n:
            slot = n
            u.extend((-1, 0, 0, 0, 0, 0, 0, 0))
        else:  # the lowest free slot: the first -1 at a type offset (searched in C)
            i = u.index(-1)
            while i % K:
                i = u.index(-1, i + 1)
            slot = i // K
        b = slot * K
        u[b] = card
        u[b + HP] = C_HP[card]
        u[b + CHILL] = 0
        u[b + BUILD] = build
        u[b + DELAY] = delay
        u[b + LIFE] = lifespan if lifespan else C_LIFE[card]
        u[b + CHARGES] = C_CHARGES[card]
        u[b + STATUS] = READY if manual and C_CLICK[card] else INERT
        live.append(slot)
        return slot

    def _kill(self, p: int, s: int) -> None:
        self.u[p][s * K] = -1
        self.live[p].remove(s)

    def _run(self, p: int, s: int, script: _Script, kind: int) -> None:
        """Run a script of unit ``s`` of ``p``; kind 0 purchase, 1 ability, 2 start of turn.

        Mirrors the reference's order: pay, sacrifice, receive, resonate, create, destroy, then
        (abilities) spend the click, then sacrifice the unit if the script says so or it died.
        """
        res = self.res
        o = 6 * p
        if not script.plain:
            e = 1 - p
            for r, c in script.cost_items:
                res[o + r] -= c
            for sac_type, n in script.sac:
                self._sacrifice(p, sac_type, n)
            for r, c in script.gain_items:
                res[o + r] += c
            oe = 6 * e
            for r, c in script.give_items:
                res[oe + r] += c
            if script.resonate is not None:
                card, gain = script.resonate
                n = self.count(p, card, active=True)
                for r, c in enumerate(gain):
                    res[o + r] += c * n
            for card, count, delay, lifespan, enemy in script.create:
                owner = e if enemy else p
                for _ in range(count):
                    if kind == 0:
                        self._add_unit(owner, card, delay, 0, lifespan)
                    else:
                        self._add_unit(owner, card, 0, delay, lifespan)
            for card, count, not_blocking in script.destroy:
                victims = self._destroy_candidates(e, card, not_blocking)
                for victim in victims[:count]:
                    self._kill(e, victim)
        else:  # gains only: nothing else to do before the click's own bookkeeping
            for r, c in script.gain_items:
                res[o + r] += c
        if kind == 1:
            u = self.u[p]
            b = s * K
            if C_CHARGES[u[b]] > 0:
                u[b + CHARGES] -= 1
            u[b + HP] -= script.hp_cost
            u[b + STATUS] = USED
            u[b + DELAY] = script.delay
            if script.selfsac or u[b + HP] <= 0:
                self._kill(p, s)
        elif script.selfsac:
            self._kill(p, s)

    def _sacrifice(self, p: int, card: int, n: int) -> None:
        """Sacrifice the ``n`` lowest-slot eligible units of ``card`` (the reference's choice)."""
        u = self.u[p]
        has_ability = C_HAS_ABILITY[card]
        chosen = sorted(
            s
            for s in self.live[p]
            if u[s * K] == card
            and u[s * K + BUILD] == 0
            and u[s * K + DELAY] == 0
            and (not has_ability or u[s * K + STATUS] == USED)
        )[:n]
        for s in chosen:
            self._kill(p, s)

    def _destroy_candidates(self, e: int, card: int, not_blocking: bool) -> list[int]:
        """Enemy units a destroy effect may take, best first in the reference's order.

        The order: blockers first, then least delay, longest lifespan, most charges, most
        health, least chill, lowest slot.
        """
        ue = self.u[e]
        cands = []
        for s in self.live[e]:
            b = s * K
            if ue[b] != card or ue[b + BUILD]:
                continue
            blocks = _can_block(ue, b)
            if not_blocking and blocks:
                continue
            cands.append(
                (
                    -int(blocks),
                    ue[b + DELAY],
                    -ue[b + LIFE],
                    -ue[b + CHARGES],
                    -ue[b + HP],
                    ue[b + CHILL],
                    s,
                )
            )
        cands.sort()
        return [c[-1] for c in cands]

    def _buy(self, p: int, card: int) -> None:
        o = 6 * p
        res = self.res
        _, pos, cost, sacs = self._cs.buy_rows[self._cs.buy_pos[card]]
        for r, c in cost:
            res[o + r] -= c
        self.supply[p][pos] -= 1
        slot = self._add_unit(p, card, C_BUILD[card], 0, 0)
        for sac_type, n in sacs:
            self._sacrifice(p, sac_type, n)
        script = C_ON_BUY[card]
        if script is not None:
            self._run(p, slot, script, 0)
        if C_SPELL[card] and self.u[p][slot * K] == card and slot in self.live[p]:
            self._kill(p, slot)

    def _use_ability(self, p: int, s: int) -> None:
        script = C_ABILITY[self.u[p][s * K]]
        if script is None:  # a targeted click without an ability script spends the click only
            self._spend_click(p, s)
        else:
            self._run(p, s, script, 1)

    def _spend_click(self, p: int, s: int) -> None:
        u = self.u[p]
        b = s * K
        if C_CHARGES[u[b]] > 0:
            u[b + CHARGES] -= 1
        u[b + STATUS] = USED

    def _fire_target(self, p: int, s: int, target: int) -> None:
        snipe, amount, _, _ = C_TARGET[self.u[p][s * K]]
        e = 1 - p
        if snipe:
            self._kill(e, target)
        else:
            self.u[e][target * K + CHILL] += amount
        self.pending = -1
        self._use_ability(p, s)
