"""Ability-phase partial players that weigh their clicks against the enemy's next turn.

Chill search, taking back wasted attack, and keeping Drones or buying prompt blockers so that
the predicted enemy attack does not breach (:mod:`~stratagem.baselines.prismata.partial.
prediction` predicts that turn and prices the loss).
"""

from __future__ import annotations

from stratagem.baselines.prismata import heuristics as H
from stratagem.baselines.prismata.partial.breach import BreachGreedy
from stratagem.baselines.prismata.partial.common import (
    _DOOMED_DRONE,
    _DRONE,
    _WALL,
    ABILITY_COST,
    CLICK_ATTACKS,
    CREATES_OWN_PROMPT,
    DRONE_SAC,
    IS_CHILLER,
    PROMPT,
    PartialPlayer,
    _is_chiller,
)
from stratagem.baselines.prismata.partial.prediction import (
    AttackDamageScenario,
    predict_enemy_next_turn,
    wipeout_loss,
)
from stratagem.baselines.prismata.solvers import max_chill_used, solve_blocks_with_loss
from stratagem.baselines.prismata.turn import Turn
from stratagem.envs.prismata.cards import CARDS, card_by_name
from stratagem.envs.prismata.data import (
    BREACH,
    C_ABILITY,
    C_CHARGES,
    C_FRAGILE,
    C_FRONT,
    C_HP,
    C_LIFE,
    C_TARGET,
    DEFENSE,
)
from stratagem.envs.prismata.rules import PrismataState


class ChillSolver(PartialPlayer):
    """Search chill assignments and keep the best one.

    The value of an assignment (blockers frozen) is the enemy's loss next turn net of what the
    chillers cost; ``max_iterations`` caps the nodes.
    """

    def __init__(self, name: str = "", max_iterations: int = 200, **kw: object) -> None:
        super().__init__(name, **kw)  # type: ignore[arg-type]
        self.max_iterations = max_iterations

    def play(self, turn: Turn) -> None:
        """Play the chill assignment of the best score found within the node cap."""
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
            chillers = [x for x in s.live_slots_where(p, IS_CHILLER) if s.can_use(p, x)]
            if not chillers:
                return
            seen = set()
            for x in chillers:
                for y in s.click_targets(p, x):
                    key = (s.unit_card(p, x), s.unit_record(e, y))
                    if key in seen:
                        continue
                    seen.add(key)
                    nodes[0] += 1
                    if nodes[0] > self.max_iterations:
                        return
                    child = Turn(s)
                    child.target(x, y)
                    if child.state.unit_chill(e, y) >= child.state.unit_hp(e, y):
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
        return wipe if s.num_units(e) == 0 else 0.0
    if s.phase == DEFENSE and s.current_player == e:
        return solve_blocks_with_loss(s, e, H.damage_loss_will)[1]
    return 0.0


class AvoidAttackWaste(PartialPlayer):
    """Un-click attackers whose attack would be wasted.

    Attack above the least amount that does the same damage is taken back (self-sacrificing, charged
    and delayed ones first); then click abilities that pay with attack while that keeps the damage.
    """

    def play(self, turn: Turn) -> None:
        """Take back attack clicks above the damage threshold, then spend the rest."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        e = 1 - p
        attack = s.attack(p)
        if attack == 0:
            return
        if attack >= s.total_health(e):
            return  # this attack wins the game
        attackers = [x for x in s.live_slots_where(p, CLICK_ATTACKS) if turn.can_undo_use(x)]
        cost_cards = []
        for x in s.live_slots(p):
            t = s.unit_card(p, x)
            script = C_ABILITY[t]
            if script is None or script.selfsac or C_CHARGES[t] or C_TARGET[t] is not None:
                continue
            if ABILITY_COST[t][5] > 0 and s.can_use(p, x):
                cost_cards.append(x)
        if not attackers and not cost_cards:
            return

        def waste_key(x: int) -> tuple[float, float, float, float, int]:
            t = s.unit_card(p, x)
            script = C_ABILITY[t]
            return (
                -(H.current_value(s, p, x) if script.selfsac else 0.0),
                (s.unit_charges(p, x) if C_CHARGES[t] else 10000.0),
                -float(script.delay),
                -(s.unit_hp(p, x) / H.ABILITY_ATTACK[t]),
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
            t = turn.state.unit_card(p, x)
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
            if s.attack(p) - ABILITY_COST[s.unit_card(p, x)][5] >= threshold:
                turn.use(x)
            if turn.state.attack(p) == threshold:
                break

    def _untap_lifespan_one(self, turn: Turn, attackers: list[int]) -> None:
        s = turn.state
        p = turn.player
        if not any(s.unit_lifespan(p, x) == 1 for x in attackers):
            return
        predicted = predict_enemy_next_turn(s)
        enemy_attack = predicted.attack(1 - p)
        largest = max(
            (
                s.unit_hp(p, x)
                for x in s.live_slots(p)
                if s.can_block(p, x) and not C_FRAGILE[s.unit_card(p, x)]
            ),
            default=0,
        )
        for x in attackers:
            now = turn.state
            t = now.unit_card(p, x)
            if t < 0 or now.unit_lifespan(p, x) != 1:
                continue
            if H.ABILITY_ATTACK[t] > now.unit_hp(p, x):
                continue
            if enemy_attack >= now.unit_hp(p, x) + largest - 1:
                turn.undo_use(x)


class UntapAvoidBreach(PartialPlayer):
    """Un-click Drones until the predicted enemy attack no longer breaches us."""

    def play(self, turn: Turn) -> None:
        """Take back Drone clicks while the predicted enemy attack would breach."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        if s.attack(p) >= s.total_defense(1 - p):
            return
        drones = [
            x for x in s.live_slots(p) if s.unit_card(p, x) == _DRONE and turn.can_undo_use(x)
        ]
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
        """Buy the blockers and take back the Drone clicks of the cheapest plan."""
        if not turn.in_action:
            return
        s = turn.state
        p = turn.player
        e = 1 - p
        predicted = predict_enemy_next_turn(s)
        enemy_attack = predicted.attack(e)
        if enemy_attack == 0:
            return
        enemy_chills = [
            C_TARGET[predicted.unit_card(e, x)][1]
            for x in predicted.live_slots(e)
            if _is_chiller(predicted.unit_card(e, x)) and predicted.unit_active(e, x)
        ]
        chill_potential = sum(enemy_chills)
        our_defense = 0
        largest = 0
        largest_cost = 0.0
        frontline_used = 0
        defenders: list[int] = []
        for x in predicted.live_slots(p):
            t = predicted.unit_card(p, x)
            if not predicted.can_block(p, x):
                continue
            hp = predicted.unit_hp(p, x)
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
            for x in s.live_slots(p)
            if s.unit_card(p, x) in (_DRONE, _DOOMED_DRONE) and turn.can_undo_use(x)
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
                for x in s.live_slots(p)
                if s.unit_card(p, x) in (_DRONE, _DOOMED_DRONE) and turn.can_undo_use(x)
            ]
            # untap Doomed Drones closest to death first, then Drones
            drones.sort(key=lambda x: (s.unit_card(p, x) == _DRONE, s.unit_lifespan(p, x), x))
            for x in drones[: best["untap"]]:
                turn.undo_use(x)
