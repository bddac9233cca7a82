"""Defense-phase partial players: which units block the incoming attack.

The environment ends the defense phase by itself once the attack is absorbed, so these players
only assign blockers; :func:`~stratagem.baselines.prismata.partial.common.play_first_legal` is
the safety net every one of them ends with.
"""

from __future__ import annotations

from collections.abc import Callable

from stratagem.baselines.prismata import heuristics as H
from stratagem.baselines.prismata.partial.common import (
    DEFENSE_PHASE,
    PartialPlayer,
    _active,
    play_first_legal,
    play_random_legal,
)
from stratagem.baselines.prismata.solvers import LossFn, solve_blocks
from stratagem.baselines.prismata.turn import Turn
from stratagem.envs.prismata.data import DEFENSE
from stratagem.envs.prismata.rules import PrismataState


class DefenseSolver(PartialPlayer):
    """Branch and bound over blocker assignments minimising the will-score lost."""

    phase = DEFENSE_PHASE

    def __init__(self, name: str = "", loss: LossFn | None = None, **kw: object) -> None:
        super().__init__(name, **kw)  # type: ignore[arg-type]
        self.loss = loss or H.damage_loss_will

    def play(self, turn: Turn) -> None:
        """Block with the solver's assignment; the first legal blockers finish."""
        if not _active(turn, DEFENSE):
            return
        for s in solve_blocks(turn.state, turn.player, self.loss):
            if not _active(turn, DEFENSE):
                break
            turn.do(turn.lay.block0 + s)
        play_first_legal(turn, DEFENSE)


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
        """Block with the least valuable blockers first; the first legal ones finish."""
        if not _active(turn, DEFENSE):
            return
        s = turn.state
        p = turn.player
        blockers = [x for x in s.live_slots(p) if s.can_block(p, x)]
        blockers.sort(key=lambda x: self.value(s, p, x))
        for x in blockers:
            if not _active(turn, DEFENSE):
                break
            if turn.state.can_block(p, x):
                turn.do(turn.lay.block0 + x)
        play_first_legal(turn, DEFENSE)


class DefenseDefault(PartialPlayer):
    """Block with the first legal blocker until the attack is absorbed."""

    phase = DEFENSE_PHASE

    def play(self, turn: Turn) -> None:
        """Block with the first legal blocker until the attack is absorbed."""
        play_first_legal(turn, DEFENSE)


class DefenseRandom(PartialPlayer):
    """Block with uniformly random legal blockers."""

    phase = DEFENSE_PHASE

    def play(self, turn: Turn) -> None:
        """Block with random legal blockers until the attack is absorbed."""
        play_random_legal(turn, DEFENSE)
