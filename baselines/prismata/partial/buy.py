"""Buy-phase partial players: what to buy with the resources left after the clicks.

The action phase is ended by whoever plays the turn after the buy partial player.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from stratagem.baselines.prismata import heuristics as H
from stratagem.baselines.prismata.partial.common import (
    _ANIMUS,
    _BLASTFORGE,
    _CONDUIT,
    _DRONE,
    _ENGINEER,
    ABILITY_COST,
    BUY,
    CREATED_INCOME,
    IS_CHILLER,
    PROMPT,
    START_INCOME,
    CardFilter,
    FilteredPlayer,
    PartialPlayer,
)
from stratagem.baselines.prismata.partial.prediction import predict_enemy_next_turn
from stratagem.baselines.prismata.turn import Turn
from stratagem.envs.prismata.cards import BASE_SET, card_by_name
from stratagem.envs.prismata.data import (
    C_ABILITY,
    C_BLOCK,
    C_BUILD,
    C_COST,
    C_FRAGILE,
    C_FRONT,
    C_HP,
    C_LIFE,
    C_START,
    C_TARGET,
)
from stratagem.envs.prismata.rules import PrismataState


def enemy_chill_potential(predicted: PrismataState, enemy: int) -> int:
    """Chill the enemy's active chillers can apply."""
    return sum(
        C_TARGET[predicted.unit_card(enemy, x)][1]
        for x in predicted.live_slots_where(enemy, IS_CHILLER)
        if predicted.unit_active(enemy, x)
    )


def purchase_out_of_sync(state: PrismataState, p: int, card: int) -> bool:
    """A card that acts every other turn or less is bought only in step with the ones owned."""
    delay = max(
        C_ABILITY[card].delay if C_ABILITY[card] is not None else 0,
        C_START[card].delay if C_START[card] is not None else 0,
    )
    if delay < 2:
        return False
    for x in state.live_slots(p):
        if state.unit_card(p, x) == card and (
            max(state.unit_build(p, x), state.unit_delay(p, x)) != C_BUILD[card]
        ):
            return True
    return False


class BuyGreedy(FilteredPlayer):
    """Greedy knapsack purchase.

    rank buyable cards by a heuristic and buy the best affordable one repeatedly, skipping filtered
    cards, cards over their limit, cards whose click we could not afford every turn, gifts that
    would let the enemy breach us, frontline units the enemy would kill, and attack-priced cards
    after a chill.
    """

    phase = BUY

    def __init__(
        self,
        name: str = "",
        heuristic: Callable[[PrismataState, int, int], float] | None = None,
        filter: CardFilter | None = None,
        **kw: object,
    ) -> None:
        super().__init__(name, filter, **kw)  # type: ignore[arg-type]
        self.heuristic = heuristic or H.buy_highest_cost

    def play(self, turn: Turn) -> None:
        """Buy the best-ranked affordable card until none passes the checks."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        e = 1 - p
        if not s.buyable_cards():
            return
        predicted = predict_enemy_next_turn(s)
        enemy_attack = predicted.attack(e)
        enemy_chill = enemy_chill_potential(predicted, e)
        our_defense = s.total_defense(p)
        enemy_was_chilled = any(s.unit_chill(e, x) > 0 for x in s.live_slots(e))
        income = [0] * 6
        ability_cost = [0] * 6
        for x in s.live_slots(p):
            t = s.unit_card(p, x)
            for r in range(6):
                income[r] += START_INCOME[t][r]
            if _non_cumulative(t):
                for r in range(6):
                    ability_cost[r] += ABILITY_COST[t][r]
        scored = []
        for t in s.cards:
            if self._skip(turn.state, p, t, enemy_was_chilled, income, ability_cost):
                continue
            score = self.heuristic(s, p, t)
            if C_FRONT[t] and enemy_attack >= C_HP[t]:
                score /= 100000
            scored.append((score, t))
        scored.sort(key=lambda x: -x[0])  # stable: ties keep card order
        order = [t for _, t in scored]
        while turn.in_action:
            bought = False
            for t in order:
                if self._skip(turn.state, p, t, enemy_was_chilled, income, ability_cost):
                    continue
                if H.ATTACK_GIVEN_TO_ENEMY[t] > 0:
                    if enemy_attack + enemy_chill + H.ATTACK_GIVEN_TO_ENEMY[t] >= our_defense:
                        continue
                if turn.buy(t):
                    bought = True
                    enemy_attack += H.ATTACK_GIVEN_TO_ENEMY[t]
                    if PROMPT[t]:
                        our_defense += C_HP[t]
                    if _non_cumulative(t):
                        for r in range(6):
                            ability_cost[r] += ABILITY_COST[t][r]
                    for r in range(6):
                        income[r] += START_INCOME[t][r] + CREATED_INCOME[t][r]
                    break
            if not bought:
                return

    def _skip(
        self,
        state: PrismataState,
        p: int,
        t: int,
        chilled: bool,
        income: list[int],
        ability_cost: list[int],
    ) -> bool:
        resonates = H.resonators_ready(state, p, t) > 0
        if self.filter.filtered(state, p, t) and not (resonates and self.filter.allow_resonate):
            return True
        if chilled and C_COST[t][5] > 0:
            return True
        if purchase_out_of_sync(state, p, t):
            return True
        limit = self.limits.get(t)
        if not resonates and limit is not None and state.count(p, t) >= limit:
            return True
        if any(ABILITY_COST[t]) and _non_cumulative(t):
            for r in range(6):
                have = income[r] + START_INCOME[t][r] + CREATED_INCOME[t][r]
                if have < ability_cost[r] + ABILITY_COST[t][r]:
                    return True
        return False


def _non_cumulative(t: int) -> bool:
    cost = ABILITY_COST[t]
    return bool(cost[1] or cost[2] or cost[3])


class BuyTechElyot(PartialPlayer):
    """Decide whether to buy an Animus, Blastforge or Conduit.

    The decision weighs the income of each colour against the colours of the random cards (the
    reference's "Elyot formula").
    """

    phase = BUY

    def __init__(
        self, name: str = "", balanced: bool = False, playout: bool = False, **kw: object
    ) -> None:
        super().__init__(name, **kw)  # type: ignore[arg-type]
        self.balanced = balanced
        self.playout = playout

    def play(self, turn: Turn) -> None:
        """Buy at most one tech building, the colour the Elyot formula ranks first."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        e = 1 - p
        if s.resources(p)[0] < 4:
            return
        cards = s.cards
        has_c, has_b, has_a = _CONDUIT in cards, _BLASTFORGE in cards, _ANIMUS in cards
        can_c, can_b, can_a = s.can_buy(_CONDUIT), s.can_buy(_BLASTFORGE), s.can_buy(_ANIMUS)
        lay = turn.lay
        spent = sum(C_COST[a][0] for a in turn.actions if a < lay.use0)
        enemy_attacker = any(H.ATTACK_OF[s.unit_card(e, x)] > 0 for x in s.live_slots(e))
        gold = spent + s.resources(p)[0]
        if not enemy_attacker and gold < 11:
            can_b = False
        if gold < 10:
            can_c = False
        if not enemy_attacker and gold < 9:
            can_a = False
        if not (can_c or can_b or can_a):
            return
        income = [0] * 6
        for x in s.live_slots(p):
            t = s.unit_card(p, x)
            for r in range(6):
                income[r] += START_INCOME[t][r]
        n_pool = 0
        cost_count = [0] * 6
        cost_max = [0] * 6
        enough_b = need_b = need_bb = enough_a = need_a = need_aa = 0
        for t in cards:
            if t in BASE_SET or s.supply_left(p, t) <= 0:
                continue
            n_pool += 1
            cost = C_COST[t]
            for r in range(6):
                cost_count[r] += cost[r]
            for r in (2, 3, 4):
                cost_max[r] = max(cost_max[r], cost[r])
            nb = cost[2] - income[2]
            nr = cost[3] - income[3]
            if nb > 0:
                need_b += 1
                if nb > 1:
                    need_bb += 1
            elif cost[2] > 0:
                enough_b += 1
            if nr > 0:
                need_a += 1
                if nr > 2:
                    need_aa += 1
            elif cost[3] > 0:
                enough_a += 1
        max_c = max(2, min(3, cost_max[4]))
        max_b = max(2, cost_max[2])
        max_a = max(2, cost_max[3])
        max_c = max_c if (has_b or has_a) else 4
        max_b = max_b if (has_c or has_a) else 4
        max_a = max_a if (has_b or has_c) else 4
        for t, name in ((_CONDUIT, "c"), (_BLASTFORGE, "b"), (_ANIMUS, "a")):
            limit = self.limits.get(t)
            if limit is not None:
                if name == "c":
                    max_c = min(max_c, limit)
                elif name == "b":
                    max_b = min(max_b, limit)
                else:
                    max_a = min(max_a, 2 * limit)
        g, b, r = income[4], income[2], income[3]
        if self.playout and b + g + r // 2 >= 3:
            return
        can_c = can_c and g < max_c
        can_b = can_b and b < max_b
        can_a = can_a and r < max_a
        if self.balanced:
            if g > 0 and (r == 0 or b == 0):
                can_c = False
            if b > 0 and (g == 0 or r == 0):
                can_b = False
            if r > 0 and (b == 0 or g == 0):
                can_a = False
        total_colour = cost_count[4] + cost_count[2] + cost_count[3]
        stored_green = max(0, s.resources(p)[4] - income[4])
        green = (
            3.0 * (1 + cost_count[4] - stored_green - income[4]) / (3.0 + total_colour)
            if can_c
            else 0.0
        )
        blue = (
            2.0
            * ((1 if b > 0 else 2) + 2.5 * need_b - 1.0 * need_bb + 1.0 * enough_b)
            / (3 + n_pool)
            if can_b
            else 0.0
        )
        red = (
            2.0
            * ((1 if r > 0 else 2) + 2.5 * need_a - 1.0 * need_aa + 1.0 * enough_a)
            / (3 + n_pool)
            if can_a
            else 0.0
        )
        bv = (1.0 if can_b else 0.0, blue, -float(b))
        gv = (1.0 if can_c else 0.0, green, -float(g))
        rv = (1.0 if can_a else 0.0, red, -float(r))
        if can_b and bv >= gv and bv >= rv:
            turn.buy(_BLASTFORGE)
        elif can_c and gv >= bv and gv >= rv:
            turn.buy(_CONDUIT)
        elif can_a and rv >= gv and rv >= bv:
            turn.buy(_ANIMUS)


class BuySequence(PartialPlayer):
    """Buy cards in a fixed order, each as many times as allowed (0: no per-turn cap)."""

    phase = BUY

    def __init__(
        self, name: str = "", sequence: Sequence[tuple[str, int]] = (), **kw: object
    ) -> None:
        super().__init__(name, **kw)  # type: ignore[arg-type]
        self.sequence = [(card_by_name(n).index, int(k)) for n, k in sequence]

    def play(self, turn: Turn) -> None:
        """Buy the sequence's cards in order, within their caps and limits."""
        if not turn.in_action:
            return
        p = turn.player
        for t, cap in self.sequence:
            bought = 0
            while not cap or bought < cap:
                if not self.limits.allows(turn.state, p, t):
                    break
                if not turn.buy(t):
                    break
                bought += 1


class BuyOpeningBook(PartialPlayer):
    """Buy a book line when the position matches one (own units, enemy units, buyable cards)."""

    phase = BUY

    def __init__(
        self, name: str = "", book: Sequence[Mapping[str, object]] = (), **kw: object
    ) -> None:
        super().__init__(name, **kw)  # type: ignore[arg-type]
        self.book = []
        for entry in book:
            try:
                own = [(card_by_name(n).index, int(k)) for n, k in entry.get("self", [])]  # type: ignore[union-attr]
                enemy = [(card_by_name(n).index, int(k)) for n, k in entry.get("enemy", [])]  # type: ignore[union-attr]
                buyable = [card_by_name(n).index for n in entry.get("buyable", [])]  # type: ignore[union-attr]
                buy = [card_by_name(n).index for n in entry["buy"]]  # type: ignore[index,union-attr]
            except (KeyError, TypeError, ValueError) as exc:
                raise ValueError(f"opening book entry {dict(entry)!r} is malformed: {exc}") from exc
            self.book.append((own, enemy, buyable, buy))

    def play(self, turn: Turn) -> None:
        """Buy the first book line whose position matches this one."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        e = 1 - p
        for own, enemy, buyable, buy in self.book:
            if any(s.count(p, t) != k for t, k in own):
                continue
            if s.num_units(p) != sum(k for _, k in own):
                continue
            if any(s.count(e, t) != k for t, k in enemy):
                continue
            if enemy and s.num_units(e) != sum(k for _, k in enemy):
                continue
            if any(t not in s.cards for t in buyable):
                continue
            for t in buy:
                turn.buy(t)
            return


class BuyEngineer(PartialPlayer):
    """Buy a third Engineer early when the card set rewards it.

    Only when nothing but Drones and two Engineers are owned, the enemy has no tech, and the set
    has a 4-health blocker or several blue-heavy cards.
    """

    phase = BUY

    def play(self, turn: Turn) -> None:
        """Buy the third Engineer when the card set and the position call for it."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        if not s.can_buy(_ENGINEER):
            return
        if any(s.unit_card(p, x) not in (_DRONE, _ENGINEER) for x in s.live_slots(p)):
            return
        if s.count(p, _ENGINEER) != 2:
            return
        chrono = card_by_name("Chrono Filter").index
        if any(s.count(1 - p, t) for t in (_ANIMUS, _BLASTFORGE, _CONDUIT, chrono)):
            return
        big = sum(
            1
            for t in s.cards
            if C_BLOCK[t] and not C_FRAGILE[t] and C_HP[t] >= 4 and H.ATTACK_OF[t] <= C_HP[t] // 2
        )
        blue = sum(1 for t in s.cards if C_COST[t][2] >= 2)
        if big > 0 or blue > 2:
            turn.buy(_ENGINEER)


class BuyAvoidBreach(PartialPlayer):
    """Buy the cheapest prompt blocker absorbing the predicted attack, or enough to hold it."""

    phase = BUY

    def play(self, turn: Turn) -> None:
        """Buy prompt blockers against the predicted enemy attack."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        e = 1 - p
        upper = sum(
            H.ATTACK_OF[s.unit_card(e, x)] for x in s.live_slots(e) if s.unit_build(e, x) < 2
        )
        if upper == 0:
            return
        predicted = predict_enemy_next_turn(s)
        attack = predicted.attack(e)
        if attack == 0:
            return
        attack += enemy_chill_potential(predicted, e)
        total = predicted.total_defense(p)
        biggest = max(
            (
                predicted.unit_hp(p, x)
                for x in predicted.live_slots(p)
                if predicted.can_block(p, x) and not C_FRAGILE[predicted.unit_card(p, x)]
            ),
            default=0,
        )
        if attack < biggest:
            return
        prompt = sorted((t for t in s.cards if PROMPT[t]), key=lambda t: (-C_HP[t], t))
        if not prompt:
            return
        cheapest = None
        for t in prompt:
            if C_HP[t] > attack and not C_FRAGILE[t] and C_LIFE[t] != 1 and s.can_buy(t):
                if cheapest is None or H.BUY_TOTAL_COST[t] < H.BUY_TOTAL_COST[cheapest]:
                    cheapest = t
        if cheapest is not None:
            turn.buy(cheapest)
            return
        if attack < total:
            return
        bought = 0
        for t in prompt:
            while turn.buy(t):
                bought += C_HP[t]
                if total + bought > attack:
                    return


class BuyRandom(PartialPlayer):
    """Buy uniformly random affordable cards until nothing is affordable."""

    phase = BUY

    def play(self, turn: Turn) -> None:
        """Buy random affordable cards until none is affordable."""
        while turn.in_action and len(turn.actions) < 512:
            options = turn.state.buyable_cards()
            if not options:
                return
            turn.do(options[int(turn.rng.integers(len(options)))])  # legal: it was listed


class BuyNothing(PartialPlayer):
    """Buy nothing."""

    phase = BUY

    def play(self, turn: Turn) -> None:
        """Leave the turn as it is."""
        return


class BuyDefault(PartialPlayer):
    """Buy base-set cards in order, each as many as affordable."""

    phase = BUY

    def play(self, turn: Turn) -> None:
        """Buy as many of each base-set card as affordable, in card order."""
        for t in turn.state.cards:
            if t in BASE_SET:
                while turn.buy(t):
                    pass
