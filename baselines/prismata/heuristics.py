"""Prismata card values: the reference AI's "will score" and the heuristics built on it.

Source: ``specs/prismata_rules.md`` section 8.4 and davechurchill/PrismataAI ``Heuristics``
(facts only: the resource weights, the inflation per build turn, the prompt discount, the
Forcefield price, the tie-break epsilons and the order of the comparisons).

A card's *will score* is its purchase price with resources weighted (attack 2.25, blue 1.5,
green 1.2, gold 1, red 0.9, energy 0.5), units it sacrifices on purchase added, multiplied by
1.28 per build turn beyond the first and divided by 1.13 when the card is prompt. The loss of a
unit that dies is its will score; a fragile unit loses in proportion to the health it loses.
"""

from __future__ import annotations

from collections.abc import Sequence

from stratagem.envs.prismata.cards import CARDS, NUM_CARDS, card_by_name
from stratagem.envs.prismata.data import (
    C_ABILITY,
    C_BLOCK,
    C_CHARGES,
    C_CLICK,
    C_FRAGILE,
    C_HAS_ABILITY,
    C_HP,
    C_START,
    C_TARGET,
)
from stratagem.envs.prismata.rules import PrismataState

__all__ = [
    "ATTACK_OF",
    "BUY_MANA_COST",
    "BUY_TOTAL_COST",
    "INFLATED_MANA",
    "INFLATED_TOTAL",
    "attack_produced",
    "buy_attack_value",
    "buy_block_value",
    "buy_highest_cost",
    "current_value",
    "damage_loss_attack",
    "damage_loss_of_record",
    "damage_loss_will",
    "will_score_sum",
]

#: Resource weights of the will score: gold, energy, blue, red, green, attack.
WEIGHTS = (1.0, 0.5, 1.5, 0.9, 1.2, 2.25)
CONSTRUCTION_INFLATION = 1.28
PROMPT_DISCOUNT = 1.13
EPSILON = 0.001


def _mana_cost(card: int) -> float:
    return sum(w * n for w, n in zip(WEIGHTS, CARDS[card].cost, strict=True))


def _inflation(build: int) -> float:
    if build == 0:
        return 1.0 / PROMPT_DISCOUNT
    return CONSTRUCTION_INFLATION ** (build - 1)


#: Weighted purchase price of each card.
BUY_MANA_COST = tuple(_mana_cost(i) for i in range(NUM_CARDS))
#: Price of the units sacrificed to buy each card.
BUY_SAC_COST = tuple(
    sum(n * BUY_MANA_COST[card_by_name(name).index] for name, n in CARDS[i].buy_sac)
    for i in range(NUM_CARDS)
)
#: Price plus sacrificed units.
BUY_TOTAL_COST = tuple(m + s for m, s in zip(BUY_MANA_COST, BUY_SAC_COST, strict=True))
#: Price inflated for build time.
INFLATED_MANA = [BUY_MANA_COST[i] * _inflation(CARDS[i].build) for i in range(NUM_CARDS)]
INFLATED_TOTAL = [BUY_TOTAL_COST[i] * _inflation(CARDS[i].build) for i in range(NUM_CARDS)]
_FORCEFIELD = card_by_name("Forcefield").index
# The reference prices Forcefield by hand (about two thirds of a Wall), its total cost uninflated.
INFLATED_MANA[_FORCEFIELD] = 3.75
INFLATED_TOTAL[_FORCEFIELD] = BUY_TOTAL_COST[_FORCEFIELD]
INFLATED_MANA = tuple(INFLATED_MANA)
INFLATED_TOTAL = tuple(INFLATED_TOTAL)


def _given_to_enemy(per_card: Sequence[float]) -> tuple[float, ...]:
    """Per card, the sum of ``per_card`` over the units its purchase creates for the opponent.

    The price and the attack of a purchase's gifts are both read this way, so that what counts
    as a gift (the enemy's units of the purchase script, with their counts) is decided once.
    """
    return tuple(
        sum(
            per_card[card_by_name(m.card).index] * m.count
            for m in (CARDS[i].on_buy.create if CARDS[i].on_buy else ())
            if m.enemy
        )
        for i in range(NUM_CARDS)
    )


#: Inflated price of what a purchase gives the opponent (Redeemer's Gauss Charges, ...).
INFLATED_GIVEN_TO_ENEMY = _given_to_enemy(INFLATED_MANA)


def _script_attack(script: object) -> int:
    return 0 if script is None or script.gain is None else script.gain[5]  # type: ignore[attr-defined]


#: Attack of each card's click and start scripts (without resonance).
ABILITY_ATTACK = tuple(_script_attack(C_ABILITY[i]) for i in range(NUM_CARDS))
START_ATTACK = tuple(_script_attack(C_START[i]) for i in range(NUM_CARDS))
ATTACK_OF = tuple(a + b for a, b in zip(ABILITY_ATTACK, START_ATTACK, strict=True))
#: Attack a purchase hands the opponent (the attack of units created for it).
ATTACK_GIVEN_TO_ENEMY = _given_to_enemy(ATTACK_OF)

# resonance: RESONATE_FROM[i] = the type card i resonates with; RESONATE_TO[i] = cards that
# resonate with card i.
RESONATE_FROM = tuple(
    () if C_START[i] is None or C_START[i].resonate is None else (C_START[i].resonate[0],)
    for i in range(NUM_CARDS)
)
RESONATE_GAIN = tuple(
    (0,) * 6 if C_START[i] is None or C_START[i].resonate is None else C_START[i].resonate[1]
    for i in range(NUM_CARDS)
)
RESONATE_TO_ALL = tuple(
    tuple(j for j in range(NUM_CARDS) if i in RESONATE_FROM[j]) for i in range(NUM_CARDS)
)
# only attack resonance changes a unit's value (Savior's gold resonance adds no attack)
RESONATE_TO = tuple(
    tuple(j for j in range(NUM_CARDS) if i in RESONATE_FROM[j] and RESONATE_GAIN[j][5] > 0)
    for i in range(NUM_CARDS)
)


def _health_user_only(i: int) -> bool:
    c = CARDS[i]
    a = c.ability
    return (
        (c.has_ability or c.target is not None)
        and c.fragile
        and not c.blocker
        and c.charges == 0
        and (a is None or (not any(a.cost) and not a.sac and a.hp_cost > 0))
        and a is not None
        and (c.start is None or not c.start.has_effect)
    )


HEALTH_USER_ONLY = tuple(_health_user_only(i) for i in range(NUM_CARDS))
HAS_START = tuple(c.start is not None and c.start.has_effect for c in CARDS)


def can_block_only(state: PrismataState, p: int, s: int) -> bool:
    """The unit is a plain blocker: no start script, no target, no usable ability left."""
    return _block_only(state.unit_card(p, s), state.unit_charges(p, s))


def _block_only(t: int, charges: int) -> bool:
    """:func:`can_block_only` of a unit of card ``t`` with ``charges`` left (hot loops)."""
    if not C_BLOCK[t] or HAS_START[t] or C_TARGET[t] is not None:
        return False
    if C_HAS_ABILITY[t]:
        if C_CHARGES[t] == 0:
            return False
        if charges >= 1:
            return False
    return True


def _count_ready(state: PrismataState, p: int, card: int, max_build: int = 1) -> int:
    return state.count_built_within(p, card, max_build)


def resonance_attack(state: PrismataState, p: int, card: int) -> int:
    """Attack this card adds through resonance: as the resonated-with type and as resonator."""
    attack = 0
    for r in RESONATE_TO[card]:
        if state.card_in_game(r):
            attack += RESONATE_GAIN[r][5] * _count_ready(state, p, r)
    for f in RESONATE_FROM[card]:
        attack += RESONATE_GAIN[card][5] * _count_ready(state, p, f)
    return attack


def resonators_ready(state: PrismataState, p: int, card: int) -> int:
    """Units of types that resonate with ``card`` (built or one turn from it)."""
    return sum(_count_ready(state, p, r) for r in RESONATE_TO_ALL[card] if state.card_in_game(r))


def resonatees_ready(state: PrismataState, p: int, card: int) -> int:
    """Units of the type ``card`` resonates with (built or one turn from it)."""
    return sum(_count_ready(state, p, f) for f in RESONATE_FROM[card])


def damage_loss_will(
    state: PrismataState, p: int, s: int, damage: int, hp: int | None = None
) -> float:
    """Will-score loss of unit ``s`` of ``p`` taking ``damage`` (the reference's main one).

    ``hp`` replaces the unit's health (simulations that track damage without a state).
    """
    return damage_loss_of_record(state, p, state.unit_record(p, s), damage, hp)


def damage_loss_of_record(
    state: PrismataState,
    p: int,
    record: tuple[int, ...],
    damage: int,
    hp: int | None = None,
) -> float:
    """:func:`damage_loss_will` of a unit given by its :meth:`~PrismataState.unit_record`.

    For simulations that value the same units many times (the breach-loss estimate): they
    read each record once.
    """
    t, unit_hp, _chill, _build, delay, life, charges, _status = record
    if life == 1 or damage == 0:
        return 0.0
    if hp is None:
        hp = unit_hp
    charge_loss = (1.0 / (1 + charges)) * EPSILON if C_CHARGES[t] else 0.0
    life_loss = (1.0 / life) * EPSILON if life > 0 else 0.0
    exhaust_loss = delay * EPSILON if delay > 0 else 0.0
    tie = charge_loss + life_loss + exhaust_loss
    block_only = _block_only(t, charges)
    linear = block_only or HEALTH_USER_ONLY[t]
    resonate = (
        resonance_attack(state, p, t) * WEIGHTS[5] if (RESONATE_TO[t] or RESONATE_FROM[t]) else 0.0
    )
    if block_only and hp == 1:
        return 1.875 + resonate
    mana = INFLATED_MANA[t]
    total = INFLATED_TOTAL[t]
    if C_FRAGILE[t]:
        taken = damage if damage < hp else hp
        ratio = taken / C_HP[t]
        if linear:
            value = (mana - tie) * ratio
            if taken < hp:
                value -= EPSILON
            if hp == 1:
                value += 2 * EPSILON
            return value + resonate if taken >= hp else value
        value = total - 2 * tie
        return value + resonate if taken >= hp else ratio * value * EPSILON
    if damage >= hp:
        return (mana if linear else total) - tie + resonate
    return 0.0


def current_value(state: PrismataState, p: int, s: int) -> float:
    """Will-score value of a unit as it stands (its loss if it died now)."""
    return damage_loss_will(state, p, s, state.unit_hp(p, s))


def attack_produced(state: PrismataState, p: int, s: int) -> int:
    """Attack the unit makes per turn (its click while it has charges, its start script)."""
    if state.unit_lifespan(p, s) == 1:
        return 0
    t = state.unit_card(p, s)
    attack = START_ATTACK[t]
    if not C_CHARGES[t] or state.unit_charges(p, s) > 0:
        attack += ABILITY_ATTACK[t]
    if RESONATE_FROM[t]:  # the reference counts resonance only for cards that resonate
        attack += RESONATE_GAIN[t][5] * resonatees_ready(state, p, t)
    return attack


def damage_loss_attack(state: PrismataState, p: int, s: int, damage: int) -> float:
    """Attack (and chill) lost if the unit takes ``damage``: the enemy's defense guess."""
    if state.unit_lifespan(p, s) == 1:
        return 0.0
    if damage >= state.unit_hp(p, s):
        target = C_TARGET[state.unit_card(p, s)]
        chill = target[1] if target is not None and not target[0] else 0
        return float(chill + attack_produced(state, p, s))
    return 0.0


def defense_save_attackers(state: PrismataState, p: int, s: int) -> float:
    """Attack per health of a blocker: block with the ones that attack least first."""
    t = state.unit_card(p, s)
    attack = ATTACK_OF[t]
    if C_CHARGES[t] and state.unit_charges(p, s) == 0:
        attack = 0
    return attack / state.unit_hp(p, s)


def snipe_highest_defense(state: PrismataState, p: int, s: int) -> float:
    """Snipe priority of the enemy's prediction: the biggest blocker first."""
    return float(state.unit_hp(p, s)) if state.can_block(p, s) else 0.0


def buy_highest_cost(state: PrismataState, p: int, card: int) -> float:
    """Buy the most expensive card first (the will-score buy heuristic)."""
    return INFLATED_TOTAL[card]


def buy_attack_value(state: PrismataState, p: int, card: int) -> float:
    """Attack per price, attackers far ahead of everything else (permanent, then pool cards)."""
    attack = START_ATTACK[card] + ABILITY_ATTACK[card]
    if RESONATE_FROM[card]:
        attack += RESONATE_GAIN[card][5] * resonatees_ready(state, p, card)
    value = attack / BUY_TOTAL_COST[card] if BUY_TOTAL_COST[card] > 0 else float(attack)
    c = CARDS[card]
    single_use = (c.ability is not None and c.ability.selfsac) or (
        c.start is not None and c.start.selfsac
    )
    resonates = resonators_ready(state, p, card) > 0 or resonatees_ready(state, p, card) > 0
    if value > 0:
        value += 100
        value += 0 if (single_use and not resonates) else 10000
        value += 1000 if (not c.base or resonates) else 0
        return value
    return buy_highest_cost(state, p, card)


def buy_block_value(state: PrismataState, p: int, card: int) -> float:
    """Health squared per price of blockers."""
    block = C_HP[card] if C_BLOCK[card] else 0
    cost = BUY_TOTAL_COST[card]
    return block * block / cost if cost > 0 else float(block * block)


def will_score_sum(state: PrismataState, p: int) -> float:
    """Sum of the will-score values of ``p``'s units (the reference's WillScore evaluation)."""
    return sum(current_value(state, p, s) for s in state.live_slots(p))


def activate_order_key(state: PrismataState, p: int, s: int) -> tuple[int, int, int, int]:
    """Sort key for clicking units.

    Lower card first, healthiest health-users first, most charges first, then the slot.
    """
    t = state.unit_card(p, s)
    script = C_ABILITY[t]
    uses_hp = script is not None and script.hp_cost > 0
    hp = state.unit_hp(p, s)
    return (
        t,
        -hp if uses_hp else hp,
        -state.unit_charges(p, s) if C_CHARGES[t] else 10000,
        s,
    )


def is_clicked(state: PrismataState, p: int, s: int) -> bool:
    """The unit was clicked this turn."""
    return state.unit_clicked(p, s)


def clickable(card: int) -> bool:
    """Cards with a click (ability or target)."""
    return bool(C_CLICK[card])
