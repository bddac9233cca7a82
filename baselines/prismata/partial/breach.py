"""Breach-phase partial players: which enemy units the attack left over destroys.

The environment ends the breach phase by itself once nothing more can be breached, so these
players only choose targets.
"""

from __future__ import annotations

from stratagem.baselines.prismata import heuristics as H
from stratagem.baselines.prismata.partial.common import (
    BREACH_PHASE,
    PartialPlayer,
    _active,
    play_first_legal,
    play_random_legal,
)
from stratagem.baselines.prismata.turn import Turn
from stratagem.envs.prismata.data import BREACH, C_TECH


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
        """Breach the best target by loss per health until the breach ends."""
        self.total_loss = 0.0
        while _active(turn, BREACH):
            s = turn.state
            p = turn.player
            e = 1 - p
            attack = s.attack(p)
            targets = s.breach_targets()
            if not targets:
                break
            best, best_value, best_loss = -1, -float("inf"), 0.0
            for t in targets:
                hp = s.unit_hp(e, t)
                damage = attack if attack < hp else hp
                loss = H.damage_loss_will(s, e, t, damage)
                value = loss / hp
                if self.low_tech_priority and C_TECH[s.unit_card(e, t)]:
                    value /= 100000.0
                if value > best_value:
                    best, best_value, best_loss = t, value, loss
            turn.do(turn.lay.breach0 + best)
            self.total_loss += best_loss


class BreachDefault(PartialPlayer):
    """Breach the first legal target until the breach ends."""

    phase = BREACH_PHASE

    def play(self, turn: Turn) -> None:
        """Breach the first legal target until the breach ends."""
        play_first_legal(turn, BREACH)


class BreachRandom(PartialPlayer):
    """Breach uniformly random legal targets."""

    phase = BREACH_PHASE

    def play(self, turn: Turn) -> None:
        """Breach random legal targets until the breach ends."""
        play_random_legal(turn, BREACH)
