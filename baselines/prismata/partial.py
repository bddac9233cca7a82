"""Prismata's partial players: scripts that play one phase of a turn.

Source: ``specs/prismata_rules.md`` section 8.1 and davechurchill/PrismataAI (the
``PartialPlayer_*`` classes, ``AITools``, ``AvoidBreachBuyIterator``, ``AttackDamageScenario``);
the behaviour of each is paraphrased in its docstring. A partial player acts on a
:class:`~stratagem.baselines.prismata.turn.Turn`; four of them, one per phase (defense, ability,
buy, breach), make a whole turn (:mod:`stratagem.baselines.prismata.portfolio`).

Phase ends: our environment ends the defense and breach phases by itself, so defense and breach
partial players only assign blockers and breach targets; the action phase is ended by whoever
plays the turn after the buy partial player.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from stratagem.baselines.prismata import heuristics as H
from stratagem.baselines.prismata.solvers import (
    LossFn,
    max_chill_used,
    solve_blocks,
    solve_blocks_with_loss,
)
from stratagem.baselines.prismata.turn import Turn
from stratagem.envs.prismata.cards import BASE_SET, CARDS, NUM_CARDS, card_by_name
from stratagem.envs.prismata.rules import (
    ACTION,
    BREACH,
    BUILD,
    C_ABILITY,
    C_BLOCK,
    C_BUILD,
    C_CHARGES,
    C_COST,
    C_FRAGILE,
    C_FRONT,
    C_HAS_ABILITY,
    C_HP,
    C_LIFE,
    C_START,
    C_TARGET,
    C_TECH,
    CHARGES,
    CHILL,
    DEFENSE,
    DELAY,
    HP,
    LIFE,
    STATUS,
    USED,
    K,
    PrismataState,
)

__all__ = [
    "ABILITY",
    "BREACH_PHASE",
    "BUY",
    "DEFENSE_PHASE",
    "PHASES",
    "BuyLimits",
    "CardFilter",
    "PartialPlayer",
    "predict_enemy_next_turn",
]

DEFENSE_PHASE, ABILITY, BUY, BREACH_PHASE = range(4)
PHASES = ("defense", "ability", "buy", "breach")

_DRONE = card_by_name("Drone").index
_DOOMED_DRONE = card_by_name("Doomed Drone").index
_ENGINEER = card_by_name("Engineer").index
_WALL = card_by_name("Wall").index
_CONDUIT = card_by_name("Conduit").index
_BLASTFORGE = card_by_name("Blastforge").index
_ANIMUS = card_by_name("Animus").index
_APOLLO = card_by_name("Apollo").index

# ---------------------------------------------------------------------------------------------
# card facts used by several partial players


def _gain(script: object, r: int) -> int:
    return 0 if script is None or script.gain is None else script.gain[r]  # type: ignore[attr-defined]


ECON = tuple(CARDS[i].econ for i in range(NUM_CARDS))
PROMPT = tuple(CARDS[i].prompt for i in range(NUM_CARDS))
CREATES_OWN_PROMPT = tuple(
    any(
        not m.enemy and PROMPT[card_by_name(m.card).index]
        for m in (CARDS[i].on_buy.create if CARDS[i].on_buy else ())
    )
    for i in range(NUM_CARDS)
)
DRONE_SAC = tuple(
    sum(n for name, n in CARDS[i].buy_sac if name in ("Drone", "Doomed Drone"))
    for i in range(NUM_CARDS)
)
START_INCOME = tuple(
    (0,) * 6 if C_START[i] is None or C_START[i].gain is None else tuple(C_START[i].gain)
    for i in range(NUM_CARDS)
)
CREATED_INCOME = tuple(
    tuple(
        sum(
            START_INCOME[card_by_name(m.card).index][r] * m.count
            for m in (CARDS[i].on_buy.create if CARDS[i].on_buy else ())
            if not m.enemy
        )
        for r in range(6)
    )
    for i in range(NUM_CARDS)
)
ABILITY_COST = tuple(
    (0,) * 6 if C_ABILITY[i] is None or C_ABILITY[i].cost is None else tuple(C_ABILITY[i].cost)
    for i in range(NUM_CARDS)
)


def _is_chiller(card: int) -> bool:
    return C_TARGET[card] is not None and not C_TARGET[card][0]


def _is_sniper(card: int) -> bool:
    return C_TARGET[card] is not None and C_TARGET[card][0]


# ---------------------------------------------------------------------------------------------
# buy limits and card filters


class BuyLimits:
    """At most so many units of a card type owned (the reference's ``BuyLimits``)."""

    def __init__(self, limits: Mapping[str, int] | None = None) -> None:
        self.limits: dict[int, int] = {}
        for name, n in (limits or {}).items():
            self.limits[card_by_name(name).index] = int(n)

    def merged(self, other: BuyLimits | None) -> BuyLimits:
        """These limits overridden by ``other``'s."""
        out = BuyLimits()
        out.limits = dict(self.limits)
        if other is not None:
            out.limits.update(other.limits)
        return out

    def allows(self, state: PrismataState, player: int, card: int) -> bool:
        """``player`` owns fewer of ``card`` than its limit (or it has none)."""
        limit = self.limits.get(card)
        return limit is None or state.count(player, card) < limit

    def get(self, card: int) -> int | None:
        """The limit of ``card``, if any."""
        return self.limits.get(card)


_OPS: dict[str, Callable[[float, float], bool]] = {
    "=": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
}

_PROPERTIES: dict[str, Callable[[int], float]] = {
    "lifespan": lambda t: C_LIFE[t],
    "constructionTime": lambda t: C_BUILD[t],
    "isBlocker": lambda t: C_BLOCK[t],
    "hasAbility": lambda t: C_HAS_ABILITY[t],
    "hasBeginTurnAbility": lambda t: H.HAS_START[t],
    "attackProduced": lambda t: H.ATTACK_OF[t],
    "startingHealth": lambda t: C_HP[t],
    "abilityAttack": lambda t: H.ABILITY_ATTACK[t],
    "beginTurnAttack": lambda t: H.START_ATTACK[t],
}


class CardFilter:
    """Card types a partial player leaves alone (the reference's ``CardFilter``).

    A card is filtered when it is named in ``cards``, when every test of one of the
    ``conditions`` groups holds for its type (``[property, op, value]``), or when every test of
    one of the ``state_conditions`` groups holds (``["cardName", "=", name]`` or
    ``[card, op, number or card]`` comparing how many the player owns).
    """

    def __init__(
        self,
        cards: Sequence[str] = (),
        conditions: Sequence[Sequence[Sequence[object]]] = (),
        state_conditions: Sequence[Sequence[Sequence[object]]] = (),
        allow_resonate: bool = False,
    ) -> None:
        self.static = [False] * NUM_CARDS
        for name in cards:
            self.static[card_by_name(name).index] = True
        for group in conditions:
            tests = []
            for prop, op, value in group:
                if prop not in _PROPERTIES or op not in _OPS:
                    raise ValueError(f"card filter: unknown condition {[prop, op, value]}")
                tests.append((_PROPERTIES[prop], _OPS[op], value))
            for t in range(NUM_CARDS):
                if all(op(get(t), value) for get, op, value in tests):
                    self.static[t] = True
        self.state_conditions = []
        for group in state_conditions:
            tests = []
            for lhs, op, rhs in group:
                if op not in _OPS:
                    raise ValueError(f"card filter: unknown operator {op!r}")
                if lhs == "cardName":
                    tests.append(("name", card_by_name(str(rhs)).index, _OPS[op]))
                else:
                    other = rhs if isinstance(rhs, int) else card_by_name(str(rhs)).index
                    tests.append(
                        (
                            "count",
                            (card_by_name(str(lhs)).index, other, isinstance(rhs, int)),
                            _OPS[op],
                        )
                    )
            self.state_conditions.append(tests)
        self.allow_resonate = allow_resonate

    def __contains__(self, card: int) -> bool:
        return self.static[card]

    def filtered(self, state: PrismataState, player: int, card: int) -> bool:
        """The filter excludes ``card`` for ``player`` in ``state``."""
        if self.static[card]:
            return True
        for tests in self.state_conditions:
            ok = True
            for kind, arg, op in tests:
                if kind == "name":
                    ok = op(card, arg)
                else:
                    lhs, rhs, is_number = arg
                    right = rhs if is_number else state.count(player, rhs)
                    ok = op(state.count(player, lhs), right)
                if not ok:
                    break
            if ok:
                return True
        return False


NO_FILTER = CardFilter()

# ---------------------------------------------------------------------------------------------
# partial player base


class PartialPlayer:
    """Plays one phase of a turn on a :class:`Turn`.

    Attributes:
        name: Configuration name.
        phase: ``DEFENSE_PHASE``, ``ABILITY``, ``BUY`` or ``BREACH_PHASE``.
        limits: Buy limits of this partial player (combinations pass theirs down).
    """

    phase = ABILITY

    def __init__(self, name: str = "", limits: BuyLimits | None = None) -> None:
        self.name = name or type(self).__name__
        self.limits = limits or BuyLimits()

    def set_limits(self, limits: BuyLimits) -> None:
        """Override this player's limits with ``limits`` (recursively for combinations)."""
        self.limits = self.limits.merged(limits)

    def play(self, turn: Turn) -> None:
        """Add this phase's actions to ``turn``."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def _active(turn: Turn, phase: int) -> bool:
    s = turn.state
    return s.winner is None and s.current_player == turn.player and s.phase == phase


# ---------------------------------------------------------------------------------------------
# defense


class DefenseSolver(PartialPlayer):
    """Branch and bound over blocker assignments minimising the will-score lost."""

    phase = DEFENSE_PHASE

    def __init__(self, name: str = "", loss: LossFn | None = None, **kw: object) -> None:
        super().__init__(name, **kw)  # type: ignore[arg-type]
        self.loss = loss or H.damage_loss_will

    def play(self, turn: Turn) -> None:
        if not _active(turn, DEFENSE):
            return
        for s in solve_blocks(turn.state, turn.player, self.loss):
            if not _active(turn, DEFENSE):
                break
            turn.do(turn.lay.block0 + s)
        _finish_defense(turn)


def _finish_defense(turn: Turn) -> None:
    """Block with the first legal blocker until the attack is absorbed (safety net)."""
    while _active(turn, DEFENSE):
        legal = turn.state.legal_action_list()
        turn.do(legal[0])


class DefenseGreedy(PartialPlayer):
    """Block in ascending order of a value heuristic (the will-knapsack defense)."""

    phase = DEFENSE_PHASE

    def __init__(
        self,
        name: str = "",
        value: Callable[[PrismataState, int, int], float] | None = None,
        **kw: object,
    ) -> None:
        super().__init__(name, **kw)  # type: ignore[arg-type]
        self.value = value or H.current_value

    def play(self, turn: Turn) -> None:
        if not _active(turn, DEFENSE):
            return
        s = turn.state
        p = turn.player
        blockers = [x for x in s.live[p] if s.can_block(p, x)]
        blockers.sort(key=lambda x: self.value(s, p, x))
        for x in blockers:
            if not _active(turn, DEFENSE):
                break
            if turn.state.can_block(p, x):
                turn.do(turn.lay.block0 + x)
        _finish_defense(turn)


class DefenseDefault(PartialPlayer):
    """Block with the first legal blocker until the attack is absorbed."""

    phase = DEFENSE_PHASE

    def play(self, turn: Turn) -> None:
        _finish_defense(turn)


class DefenseRandom(PartialPlayer):
    """Block with uniformly random legal blockers."""

    phase = DEFENSE_PHASE

    def play(self, turn: Turn) -> None:
        while _active(turn, DEFENSE):
            legal = turn.state.legal_action_list()
            turn.do(legal[int(turn.rng.integers(len(legal)))])


# ---------------------------------------------------------------------------------------------
# breach


class BreachGreedy(PartialPlayer):
    """Breach the enemy unit with the highest loss per health first; tech last (optional).

    Attributes:
        total_loss: Loss inflicted by the last :meth:`play` (read by the loss estimates).
    """

    phase = BREACH_PHASE

    def __init__(self, name: str = "", low_tech_priority: bool = True, **kw: object) -> None:
        super().__init__(name, **kw)  # type: ignore[arg-type]
        self.low_tech_priority = low_tech_priority
        self.total_loss = 0.0

    def play(self, turn: Turn) -> None:
        self.total_loss = 0.0
        while _active(turn, BREACH):
            s = turn.state
            p = turn.player
            e = 1 - p
            attack = s.attack(p)
            targets = s.breach_targets()
            if not targets:
                break
            ue = s.u[e]
            best, best_value, best_loss = -1, -float("inf"), 0.0
            for t in targets:
                hp = ue[t * K + HP]
                damage = attack if attack < hp else hp
                loss = H.damage_loss_will(s, e, t, damage)
                value = loss / hp
                if self.low_tech_priority and C_TECH[ue[t * K]]:
                    value /= 100000.0
                if value > best_value:
                    best, best_value, best_loss = t, value, loss
            turn.do(turn.lay.breach0 + best)
            self.total_loss += best_loss


class BreachDefault(PartialPlayer):
    """Breach the first legal target until the breach ends."""

    phase = BREACH_PHASE

    def play(self, turn: Turn) -> None:
        while _active(turn, BREACH):
            turn.do(turn.state.legal_action_list()[0])


class BreachRandom(PartialPlayer):
    """Breach uniformly random legal targets."""

    phase = BREACH_PHASE

    def play(self, turn: Turn) -> None:
        while _active(turn, BREACH):
            legal = turn.state.legal_action_list()
            turn.do(legal[int(turn.rng.integers(len(legal)))])


# ---------------------------------------------------------------------------------------------
# enemy prediction and loss estimates (AITools, AttackDamageScenario)


def _prediction_player() -> Combination:
    return Combination(
        "Prediction",
        [
            EconomyDefault(),
            AttackDefault(),
            SnipeGreedy(priority=H.snipe_highest_defense),
        ],
    )


_PREDICTOR = None


def predict_enemy_next_turn(state: PrismataState, solve_defense: bool = False) -> PrismataState:
    """The state after this turn ends as it stands and the enemy clicks its attackers.

    The mover's turn is finished (blocks by the attack-saving solver, the action phase ended,
    breach by the greedy breacher); then the enemy defends (greedily, saving attackers) and
    clicks its economy, attackers and snipers. The result's enemy attack is the attack to
    expect next turn. Results are memoised per position: treat the returned state as
    read-only.
    """
    global _PREDICTOR
    if _PREDICTOR is None:
        _PREDICTOR = _prediction_player()
    key = (
        id(state._cs),
        solve_defense,
        state.current_player,
        state.phase,
        state.pending,
        state.turn,
        tuple(state.res),
        tuple(state.u[0]),
        tuple(state.u[1]),
        tuple(state.live[0]),
        tuple(state.live[1]),
    )
    found = _PREDICTIONS.get(key)
    if found is not None:
        return found
    if len(_PREDICTIONS) > 256:
        _PREDICTIONS.clear()
    result = _predict(state, solve_defense)
    _PREDICTIONS[key] = result
    return result


_PREDICTIONS: dict[tuple, PrismataState] = {}


def _predict(state: PrismataState, solve_defense: bool) -> PrismataState:
    player = state.current_player
    enemy = 1 - player
    turn = Turn(state)
    if _active(turn, DEFENSE):
        DefenseSolver(loss=H.damage_loss_attack).play(turn)
    if turn.in_action:
        turn.end_action()
    elif turn.acting and turn.state.phase == ACTION and turn.state.pending >= 0:
        turn.do(turn.state.legal_action_list()[0])
        turn.end_action()
    if _active(turn, BREACH):
        BreachGreedy().play(turn)
    s = turn.state
    if s.winner is not None:
        return s
    enemy_turn = Turn(s)
    if s.current_player == enemy and s.phase == DEFENSE:
        if solve_defense:
            DefenseSolver(loss=H.damage_loss_attack).play(enemy_turn)
        else:
            DefenseGreedy(value=H.defense_save_attackers).play(enemy_turn)
    if enemy_turn.in_action:
        _PREDICTOR.play(enemy_turn)
    return enemy_turn.state


def wipeout_loss(state: PrismataState, player: int) -> float:
    """Loss of ``player`` if every one of its blockers died."""
    return sum(
        H.damage_loss_will(state, player, s, state.u[player][s * K + HP])
        for s in state.live[player]
        if state.can_block(player, s)
    )


def _with_attack(state: PrismataState, player: int, attack: int) -> PrismataState:
    c = state.clone()
    c.res[6 * player + 5] = attack
    return c


def breach_loss(state: PrismataState, defender: int, attack: int, frozen_ok: bool) -> float:
    """Loss of the greedy breach (:class:`BreachGreedy`) of ``attack`` into ``defender``.

    Simulated on plain lists of the units that cannot block (the blockers died in the wipeout),
    with no state copies: the loss estimates call this for many attack amounts.
    """
    u = state.u[defender]
    units = []  # [slot, hp, fragile, building, frozen, frontline, tech]
    for x in state.live[defender]:
        if state.can_block(defender, x):
            continue
        b = x * K
        t = u[b]
        units.append(
            [
                x,
                u[b + HP],
                C_FRAGILE[t],
                u[b + BUILD] > 0,
                u[b + CHILL] >= u[b + HP],
                C_FRONT[t],
                C_TECH[t],
            ]
        )
    total = 0.0
    while attack > 0 and units:
        if all(unit[3] for unit in units):
            targets = [unit for unit in units if unit[2] or attack >= unit[1]]
        else:
            ok = [unit for unit in units if not unit[3] and (unit[2] or attack >= unit[1])]
            targets = [unit for unit in ok if frozen_ok or not unit[4]] or ok
        if not targets:
            break
        best, best_value, best_loss = None, -float("inf"), 0.0
        for unit in targets:
            hp = unit[1]
            damage = attack if attack < hp else hp
            loss = H.damage_loss_will(state, defender, unit[0], damage, hp)
            value = loss / hp
            if unit[6]:
                value /= 100000.0
            if value > best_value:
                best, best_value, best_loss = unit, value, loss
        damage = attack if attack < best[1] else best[1]
        total += best_loss
        attack -= damage
        if damage >= best[1]:
            units.remove(best)
        else:
            best[1] -= damage
        if not best[5]:
            frozen_ok = True
    return total


class AttackDamageScenario:
    """Loss the defender suffers for each amount of attack of the player to move (memoised)."""

    def __init__(self, state: PrismataState) -> None:
        self.state = state
        self.attacker = state.current_player
        self.defender = 1 - self.attacker
        self.total_defense = state.total_defense(self.defender)
        self.total_hp = sum(state.u[self.defender][s * K + HP] for s in state.live[self.defender])
        self.cache: dict[int, float] = {0: 0.0}
        self._wipeout: float | None = None

    def wipeout(self) -> float:
        """Loss when every defender blocker dies."""
        if self._wipeout is None:
            self._wipeout = wipeout_loss(self.state, self.defender)
        return self._wipeout

    def loss(self, attack: int) -> float:
        """Defender's loss against ``attack``."""
        attack = min(attack, self.total_hp)
        if attack in self.cache:
            return self.cache[attack]
        if attack == self.total_defense:
            value = self.wipeout()
        elif attack > self.total_defense:
            value = self.wipeout() + breach_loss(
                self.state, self.defender, attack - self.total_defense, self.total_defense > 0
            )
        else:
            value = solve_blocks_with_loss(self.state, self.defender, H.damage_loss_will, attack)[1]
        self.cache[attack] = value
        return value

    def breach_loss(self, breach: int) -> float:
        """Loss when ``breach`` attack gets past the whole defense."""
        return self.loss(self.total_defense + breach)

    def loss_decrease_threshold(self, attack: int) -> int:
        """The least attack that does as much damage as ``attack`` (spare attack is waste)."""
        original = self.loss(attack)
        for a in range(attack, -1, -1):
            if self.loss(a) < original:
                return a + 1
        return 0


# ---------------------------------------------------------------------------------------------
# ability players


class EconomyDefault(PartialPlayer):
    """Click every economy unit (Drone-like: free clicks that only make gold)."""

    def play(self, turn: Turn) -> None:
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


class ChillSolver(PartialPlayer):
    """Search chill assignments and keep the best one.

    The value of an assignment (blockers frozen) is the enemy's loss next turn net of what the
    chillers cost; ``max_iterations`` caps the nodes.
    """

    def __init__(self, name: str = "", max_iterations: int = 200, **kw: object) -> None:
        super().__init__(name, **kw)  # type: ignore[arg-type]
        self.max_iterations = max_iterations

    def play(self, turn: Turn) -> None:
        if not turn.in_action or turn.state.attack(turn.player) == 0:
            return
        p = turn.player
        e = 1 - p
        base_value = H.will_score_sum(turn.state, p)
        best = {"score": self._score(turn.state, base_value), "actions": []}
        nodes = [0]

        def recurse(t: Turn, depth: int) -> None:
            if nodes[0] >= self.max_iterations:
                return
            s = t.state
            chillers = [x for x in s.live[p] if _is_chiller(s.u[p][x * K]) and s.can_use(p, x)]
            if not chillers:
                return
            seen = set()
            for x in chillers:
                for y in s._targets_for(x, p):
                    key = (s.u[p][x * K], tuple(s.u[e][y * K : y * K + K]))
                    if key in seen:
                        continue
                    seen.add(key)
                    nodes[0] += 1
                    if nodes[0] > self.max_iterations:
                        return
                    child = Turn(s)
                    child.target(x, y)
                    if child.state.u[e][y * K + CHILL] >= child.state.u[e][y * K + HP]:
                        score = self._score(child.state, base_value)
                        if score > best["score"]:
                            best["score"] = score
                            best["actions"] = t.actions + child.actions
                    nxt = Turn(s)
                    nxt.actions = t.actions + child.actions
                    nxt.state = child.state
                    recurse(nxt, depth + 1)

        root = Turn(turn.state)
        recurse(root, 0)
        for a in best["actions"]:
            turn.do(a)

    def _score(self, state: PrismataState, base_value: float) -> float:
        p = state.current_player
        freeze_cost = base_value - H.will_score_sum(state, p)
        return _enemy_next_turn_defense_loss(state) - freeze_cost


def _enemy_next_turn_defense_loss(state: PrismataState) -> float:
    """Loss the enemy takes from the mover's attack if the turn ended now."""
    p = state.current_player
    e = 1 - p
    wipe = wipeout_loss(state, e)
    turn = Turn(state)
    turn.end_action()
    s = turn.state
    if s.phase == BREACH and s.current_player == p and s.winner is None:
        breacher = BreachGreedy()
        breacher.play(turn)
        return wipe + breacher.total_loss
    if s.winner is not None:
        return wipe if not s.live[e] else 0.0
    if s.phase == DEFENSE and s.current_player == e:
        return solve_blocks_with_loss(s, e, H.damage_loss_will)[1]
    return 0.0


class AvoidAttackWaste(PartialPlayer):
    """Un-click attackers whose attack would be wasted.

    Attack above the least amount that does the same damage is taken back (self-sacrificing, charged
    and delayed ones first); then click abilities that pay with attack while that keeps the damage.
    """

    def play(self, turn: Turn) -> None:
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        e = 1 - p
        attack = s.attack(p)
        if attack == 0:
            return
        if attack >= sum(s.u[e][x * K + HP] for x in s.live[e]):
            return  # this attack wins the game
        attackers = [
            x for x in s.live[p] if H.ABILITY_ATTACK[s.u[p][x * K]] > 0 and turn.can_undo_use(x)
        ]
        cost_cards = []
        for x in s.live[p]:
            t = s.u[p][x * K]
            script = C_ABILITY[t]
            if script is None or script.selfsac or C_CHARGES[t] or C_TARGET[t] is not None:
                continue
            if ABILITY_COST[t][5] > 0 and s.can_use(p, x):
                cost_cards.append(x)
        if not attackers and not cost_cards:
            return

        def waste_key(x: int) -> tuple[float, float, float, float, int]:
            u = s.u[p]
            t = u[x * K]
            script = C_ABILITY[t]
            return (
                -(H.current_value(s, p, x) if script.selfsac else 0.0),
                (u[x * K + CHARGES] if C_CHARGES[t] else 10000.0),
                -float(script.delay),
                -(u[x * K + HP] / H.ABILITY_ATTACK[t]),
                x,
            )

        attackers.sort(key=waste_key)
        self._untap_lifespan_one(turn, attackers)
        threshold = AttackDamageScenario(turn.state).loss_decrease_threshold(turn.state.attack(p))
        if turn.state.attack(p) > threshold:
            # single-use attackers that already sacrificed themselves are taken back first
            for i, card in reversed(turn.sacrificed_clicks()):
                if H.ABILITY_ATTACK[card] == 0:
                    continue
                if turn.state.attack(p) - H.ABILITY_ATTACK[card] >= threshold:
                    turn.undo_at(i, card)
                if turn.state.attack(p) == threshold:
                    break
        for x in attackers:
            t = turn.state.u[p][x * K]
            if t < 0:
                continue
            if turn.state.attack(p) <= threshold:
                break
            if turn.state.attack(p) - H.ABILITY_ATTACK[t] >= threshold:
                turn.undo_use(x)
            if turn.state.attack(p) == threshold:
                break
        for x in cost_cards:
            s = turn.state
            if not s.can_use(p, x):
                continue
            if s.attack(p) - ABILITY_COST[s.u[p][x * K]][5] >= threshold:
                turn.use(x)
            if turn.state.attack(p) == threshold:
                break

    def _untap_lifespan_one(self, turn: Turn, attackers: list[int]) -> None:
        s = turn.state
        p = turn.player
        if not any(s.u[p][x * K + LIFE] == 1 for x in attackers):
            return
        predicted = predict_enemy_next_turn(s)
        enemy_attack = predicted.attack(1 - p)
        largest = max(
            (
                s.u[p][x * K + HP]
                for x in s.live[p]
                if s.can_block(p, x) and not C_FRAGILE[s.u[p][x * K]]
            ),
            default=0,
        )
        for x in attackers:
            u = turn.state.u[p]
            if u[x * K] < 0 or u[x * K + LIFE] != 1:
                continue
            if H.ABILITY_ATTACK[u[x * K]] > u[x * K + HP]:
                continue
            if enemy_attack >= u[x * K + HP] + largest - 1:
                turn.undo_use(x)


class AvoidEconomyWaste(PartialPlayer):
    """Use leftover resources on converter clicks, then take back clicks that were wasted.

    Converters are clicks making gold or green; clicks taken back are those whose blue, red or
    energy went unspent.
    """

    def play(self, turn: Turn) -> None:
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


class UntapAvoidBreach(PartialPlayer):
    """Un-click Drones until the predicted enemy attack no longer breaches us."""

    def play(self, turn: Turn) -> None:
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        if s.attack(p) >= s.total_defense(1 - p):
            return
        drones = [x for x in s.live[p] if s.u[p][x * K] == _DRONE and turn.can_undo_use(x)]
        while True:
            predicted = predict_enemy_next_turn(turn.state)
            enemy_attack = predicted.attack(1 - p)
            if enemy_attack == 0 or enemy_attack < predicted.total_defense(p):
                return
            if not drones:
                return
            x = drones.pop(0)
            if not turn.undo_use(x):
                continue


class AvoidBreachSolver(PartialPlayer):
    """Buy prompt blockers and un-click Drones to lose the least to next turn's attack.

    A brute-force search over prompt-blocker purchase sets and numbers of Drones kept back, scored
    by resource cost plus the predicted breach loss minus the chill the enemy can use (the
    reference's ``AvoidBreachBuyIterator``).
    """

    def __init__(
        self,
        name: str = "",
        max_untap_drones: int = 5,
        chill: str = "solver",
        max_chill_iterations: int = 500,
        **kw: object,
    ) -> None:
        super().__init__(name, **kw)  # type: ignore[arg-type]
        if chill not in ("none", "solver", "heuristic"):
            raise ValueError(
                f"AvoidBreachSolver: chill must be none, solver or heuristic, got {chill!r}"
            )
        self.max_untap = max_untap_drones
        self.chill = chill
        self.max_chill_iterations = max_chill_iterations
        self.max_nodes = 3000  # our cap on purchase sets (the reference enumerates them all)

    def play(self, turn: Turn) -> None:
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        e = 1 - p
        predicted = predict_enemy_next_turn(s)
        enemy_attack = predicted.attack(e)
        if enemy_attack == 0:
            return
        pu = predicted.u
        enemy_chills = [
            C_TARGET[pu[e][x * K]][1]
            for x in predicted.live[e]
            if _is_chiller(pu[e][x * K]) and pu[e][x * K + BUILD] == 0 and pu[e][x * K + DELAY] == 0
        ]
        chill_potential = sum(enemy_chills)
        our_defense = 0
        largest = 0
        largest_cost = 0.0
        frontline_used = 0
        defenders: list[int] = []
        for x in predicted.live[p]:
            t = pu[p][x * K]
            if not predicted.can_block(p, x):
                continue
            hp = pu[p][x * K + HP]
            our_defense += hp
            defenders.append(hp)
            absorber = not C_FRAGILE[t]
            left = max(0, enemy_attack - frontline_used)
            if C_FRONT[t] and left >= hp:
                absorber = False
                frontline_used += hp
            if absorber and hp > largest:
                largest = hp
                largest_cost = H.BUY_MANA_COST[t]
        if largest > chill_potential and largest > enemy_attack:
            return
        if (
            _WALL in s.cards
            and enemy_attack < C_HP[_WALL]
            and chill_potential < C_HP[_WALL]
            and largest < C_HP[_WALL]
            and turn.buy(_WALL)
        ):
            return
        prompt = [t for t in s.cards if PROMPT[t] or CREATES_OWN_PROMPT[t]]
        prompt.sort(key=lambda t: (-C_HP[t] if PROMPT[t] else 0, H.BUY_TOTAL_COST[t], t))
        cheapest = None
        for t in prompt:
            if C_FRAGILE[t] or C_LIFE[t] == 1 or C_HP[t] == 1 or not PROMPT[t]:
                continue
            if C_HP[t] > enemy_attack and C_HP[t] > chill_potential and s.can_buy(t):
                if cheapest is None or H.BUY_TOTAL_COST[t] < H.BUY_TOTAL_COST[cheapest]:
                    cheapest = t
        if cheapest is not None:
            turn.buy(cheapest)
            return
        scenario = AttackDamageScenario(predicted)
        tapped = [
            x
            for x in s.live[p]
            if s.u[p][x * K] in (_DRONE, _DOOMED_DRONE) and turn.can_undo_use(x)
        ]
        drone_cost = H.BUY_TOTAL_COST[_DRONE] + 1
        best = {"cost": float("inf"), "spent": float("inf"), "buys": [], "untap": 0}
        chill_cache: dict[tuple[int, ...], int] = {}

        def enemy_chill(extra: list[int]) -> int:
            if self.chill == "none" or not enemy_chills:
                return chill_potential if self.chill == "none" else 0
            key = tuple(sorted(defenders + extra))
            value = chill_cache.get(key)
            if value is None:
                if self.chill == "solver":
                    value, _ = max_chill_used(enemy_chills, list(key), self.max_chill_iterations)
                else:
                    value, _ = max_chill_used(enemy_chills, list(key), 50)
                chill_cache[key] = value
            return value

        def evaluate(
            buys: list[int],
            cost: float,
            bought_hp: list[int],
            absorber: int,
            absorber_cost: float,
            attack: int,
            untappable: int,
        ) -> None:
            for untap in range(untappable + 1):
                extra = bought_hp + [1] * untap
                chill = enemy_chill(extra)
                total = our_defense + sum(bought_hp) + untap
                after_chill = max(0, total - chill)
                breach = max(0, attack - after_chill)
                spent = cost + untap * drone_cost + scenario.breach_loss(breach)
                true_cost = spent
                if attack < after_chill and absorber > 1:
                    true_cost -= absorber_cost
                true_cost = max(0.0, true_cost - 2.0 * chill)
                if true_cost < best["cost"] or (
                    true_cost == best["cost"] and spent < best["spent"]
                ):
                    best.update(cost=true_cost, spent=spent, buys=list(buys), untap=untap)

        nodes = [0]

        def recurse(
            index: int,
            count: int,
            t_state: PrismataState,
            buys: list[int],
            cost: float,
            bought_hp: list[int],
            absorber: int,
            absorber_cost: float,
            attack: int,
            front: int,
            tapped_n: int,
        ) -> None:
            nodes[0] += 1
            if nodes[0] > self.max_nodes:
                return
            if index == 0 or count > 0:
                gold = t_state.resources(p)[0]
                untappable = min(self.max_untap, tapped_n, gold, attack)
                evaluate(buys, cost, bought_hp, absorber, absorber_cost, attack, max(0, untappable))
            if index >= len(prompt) or len(buys) >= 12:
                return
            t = prompt[index]
            if t_state.can_buy(t):
                c = t_state.clone()
                c.apply(t)
                card_cost = H.BUY_MANA_COST[t] + H.INFLATED_GIVEN_TO_ENEMY[t] + H.BUY_SAC_COST[t]
                new_attack = attack + H.ATTACK_GIVEN_TO_ENEMY[t]
                hp_added = []
                if PROMPT[t]:
                    hp_added.append(C_HP[t])
                for m in CARDS[t].on_buy.create if CARDS[t].on_buy else ():
                    made = card_by_name(m.card).index
                    if not m.enemy and PROMPT[made]:
                        hp_added += [C_HP[made]] * m.count
                new_abs, new_abs_cost = absorber, absorber_cost
                used_front = 0
                is_abs = not C_FRAGILE[t]
                left = max(0, new_attack - front)
                if C_FRONT[t] and left >= C_HP[t]:
                    is_abs = False
                    used_front = C_HP[t]
                if is_abs and C_HP[t] > new_abs:
                    new_abs = C_HP[t]
                    new_abs_cost = H.BUY_MANA_COST[t] + H.INFLATED_GIVEN_TO_ENEMY[t]
                recurse(
                    index,
                    count + 1,
                    c,
                    [*buys, t],
                    cost + card_cost,
                    bought_hp + hp_added,
                    new_abs,
                    new_abs_cost,
                    new_attack,
                    front + used_front,
                    tapped_n - DRONE_SAC[t],
                )
            recurse(
                index + 1,
                0,
                t_state,
                buys,
                cost,
                bought_hp,
                absorber,
                absorber_cost,
                attack,
                front,
                tapped_n,
            )

        recurse(
            0,
            0,
            s,
            [],
            0.0,
            [],
            largest if largest > 1 else 0,
            largest_cost if largest > 1 else 0.0,
            enemy_attack,
            frontline_used,
            len(tapped),
        )
        for t in best["buys"]:
            turn.buy(t)
        if best["untap"]:
            s = turn.state
            drones = [
                x
                for x in s.live[p]
                if s.u[p][x * K] in (_DRONE, _DOOMED_DRONE) and turn.can_undo_use(x)
            ]
            # untap Doomed Drones closest to death first, then Drones
            drones.sort(key=lambda x: (s.u[p][x * K] == _DRONE, s.u[p][x * K + LIFE], x))
            for x in drones[: best["untap"]]:
                turn.undo_use(x)


class Combination(PartialPlayer):
    """Run partial players one after the other (the reference's ``*_Combination``)."""

    def __init__(
        self, name: str, players: Sequence[PartialPlayer], phase: int | None = None, **kw: object
    ) -> None:
        super().__init__(name, **kw)  # type: ignore[arg-type]
        self.players = list(players)
        if phase is None:
            phase = self.players[0].phase if self.players else ABILITY
        self.phase = phase
        for pp in self.players:
            pp.set_limits(self.limits)

    def set_limits(self, limits: BuyLimits) -> None:
        super().set_limits(limits)
        for pp in self.players:
            pp.set_limits(limits)

    def play(self, turn: Turn) -> None:
        for pp in self.players:
            if not turn.in_action:
                return
            pp.play(turn)


class AbilityDefault(PartialPlayer):
    """Click everything clickable, in slot order, until nothing more can be clicked."""

    def play(self, turn: Turn) -> None:
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
        while turn.acting and turn.state.phase == ACTION:
            legal = turn.state.legal_action_list()
            a = legal[int(turn.rng.integers(len(legal)))]
            if a == turn.lay.end:
                return
            turn.do(a)


# ---------------------------------------------------------------------------------------------
# buy players


def enemy_chill_potential(predicted: PrismataState, enemy: int) -> int:
    """Chill the enemy's active chillers can apply."""
    u = predicted.u[enemy]
    return sum(
        C_TARGET[u[x * K]][1]
        for x in predicted.live[enemy]
        if _is_chiller(u[x * K]) and u[x * K + BUILD] == 0 and u[x * K + DELAY] == 0
    )


def purchase_out_of_sync(state: PrismataState, p: int, card: int) -> bool:
    """A card that acts every other turn or less is bought only in step with the ones owned."""
    delay = max(
        C_ABILITY[card].delay if C_ABILITY[card] is not None else 0,
        C_START[card].delay if C_START[card] is not None else 0,
    )
    if delay < 2:
        return False
    u = state.u[p]
    for x in state.live[p]:
        if u[x * K] == card and max(u[x * K + BUILD], u[x * K + DELAY]) != C_BUILD[card]:
            return True
    return False


class BuyGreedy(PartialPlayer):
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
        super().__init__(name, **kw)  # type: ignore[arg-type]
        self.heuristic = heuristic or H.buy_highest_cost
        self.filter = filter or NO_FILTER

    def play(self, turn: Turn) -> None:
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        e = 1 - p
        if not any(s.can_buy(t) for t in s.cards):
            return
        predicted = predict_enemy_next_turn(s)
        enemy_attack = predicted.attack(e)
        enemy_chill = enemy_chill_potential(predicted, e)
        our_defense = s.total_defense(p)
        enemy_was_chilled = any(s.u[e][x * K + CHILL] > 0 for x in s.live[e])
        income = [0] * 6
        ability_cost = [0] * 6
        for x in s.live[p]:
            t = s.u[p][x * K]
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
        enemy_attacker = any(H.ATTACK_OF[s.u[e][x * K]] > 0 for x in s.live[e])
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
        for x in s.live[p]:
            t = s.u[p][x * K]
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
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        e = 1 - p
        for own, enemy, buyable, buy in self.book:
            if any(s.count(p, t) != k for t, k in own):
                continue
            if len(s.live[p]) != sum(k for _, k in own):
                continue
            if any(s.count(e, t) != k for t, k in enemy):
                continue
            if enemy and len(s.live[e]) != sum(k for _, k in enemy):
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
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        if not s.can_buy(_ENGINEER):
            return
        if any(s.u[p][x * K] not in (_DRONE, _ENGINEER) for x in s.live[p]):
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
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        e = 1 - p
        upper = sum(H.ATTACK_OF[s.u[e][x * K]] for x in s.live[e] if s.u[e][x * K + BUILD] < 2)
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
                predicted.u[p][x * K + HP]
                for x in predicted.live[p]
                if predicted.can_block(p, x) and not C_FRAGILE[predicted.u[p][x * K]]
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
        while turn.in_action and len(turn.actions) < 512:
            s = turn.state
            options = [t for t in s.cards if s.can_buy(t)]
            if not options:
                return
            turn.buy(options[int(turn.rng.integers(len(options)))])


class BuyNothing(PartialPlayer):
    """Buy nothing."""

    phase = BUY

    def play(self, turn: Turn) -> None:
        return


class BuyDefault(PartialPlayer):
    """Buy base-set cards in order, each as many as affordable."""

    phase = BUY

    def play(self, turn: Turn) -> None:
        for t in turn.state.cards:
            if t in BASE_SET:
                while turn.buy(t):
                    pass
