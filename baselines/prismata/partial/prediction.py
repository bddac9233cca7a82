"""The enemy's next turn and the loss of an attack: what the look-ahead players rest on.

The reference's ``AITools::PredictEnemyNextTurn`` and ``AttackDamageScenario``: the prediction
finishes the mover's turn with fixed partial players and lets the enemy click its economy,
attackers and snipers; the loss estimates price an amount of attack in will-score lost by the
defender (blocks solved exactly below the total defense, a wipeout plus a greedy breach above).
"""

from __future__ import annotations

from stratagem.baselines.prismata import heuristics as H
from stratagem.baselines.prismata.partial.ability import AttackDefault, EconomyDefault, SnipeGreedy
from stratagem.baselines.prismata.partial.breach import BreachGreedy
from stratagem.baselines.prismata.partial.common import Combination, _active
from stratagem.baselines.prismata.partial.defense import DefenseGreedy, DefenseSolver
from stratagem.baselines.prismata.solvers import solve_blocks_with_loss
from stratagem.baselines.prismata.turn import Turn
from stratagem.envs.prismata.data import (
    ACTION,
    BREACH,
    C_FRAGILE,
    C_FRONT,
    C_TECH,
    DEFENSE,
)
from stratagem.envs.prismata.rules import PrismataState


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
    key = (solve_defense, state.position_key())
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
        H.damage_loss_will(state, player, s, state.unit_hp(player, s))
        for s in state.live_slots(player)
        if state.can_block(player, s)
    )


def breach_loss(state: PrismataState, defender: int, attack: int, frozen_ok: bool) -> float:
    """Loss of the greedy breach (:class:`BreachGreedy`) of ``attack`` into ``defender``.

    Simulated on plain lists of the units that cannot block (the blockers died in the wipeout),
    with no state copies: the loss estimates call this for many attack amounts.
    """
    units = []  # [slot, hp, fragile, building, frozen, frontline, tech, record]
    for x in state.live_slots(defender):
        if state.can_block(defender, x):
            continue
        record = state.unit_record(defender, x)
        t, hp, chill, build = record[:4]
        units.append(
            [
                x,
                hp,
                C_FRAGILE[t],
                build > 0,
                chill >= hp,
                C_FRONT[t],
                C_TECH[t],
                record,
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
            loss = H.damage_loss_of_record(state, defender, unit[7], damage, hp)
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
        self.total_hp = state.total_health(self.defender)
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
