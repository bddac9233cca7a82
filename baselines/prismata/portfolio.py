"""Whole-turn moves from partial players: sequences, portfolios and their move iterator.

Source: ``specs/prismata_rules.md`` section 8 (``Player_PPSequence``, ``MoveIterator_PPPortfolio``,
``Player_RandomFromIterator`` of davechurchill/PrismataAI).

* A :class:`PartialSequence` is one partial player per phase (defense, ability, buy, breach): it
  plays a whole turn, ending the action phase after the buy player.
* A :class:`Portfolio` lists several partial players per phase. Its children are the distinct
  whole turns of the cross product of those lists, in odometer order (the breach choice turns
  fastest), identical turns kept once: HPS's move generator.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from stratagem.baselines.prismata.partial import (
    ABILITY,
    BREACH_PHASE,
    BUY,
    DEFENSE_PHASE,
    PHASES,
    PartialPlayer,
)
from stratagem.baselines.prismata.turn import Turn
from stratagem.envs.prismata.data import ACTION
from stratagem.envs.prismata.rules import PrismataState

__all__ = ["PartialSequence", "Portfolio", "finish_turn"]


def finish_turn(turn: Turn) -> None:
    """End the turn: close the action phase, then take the first legal action while needed.

    A turn that the partial players left unfinished (a breach they did not complete) is
    completed with the first legal actions, so a move always ends the player's turn.
    """
    while turn.acting:
        s = turn.state
        if s.phase == ACTION and s.pending < 0:
            turn.end_action()
        else:
            turn.do(s.legal_action_list()[0])


def _play_phase(turn: Turn, player: PartialPlayer, phase: int) -> None:
    if not turn.acting:
        return
    if phase == BUY:
        player.play(turn)
        if turn.in_action:
            turn.end_action()
        return
    player.play(turn)


class PartialSequence:
    """One partial player per phase: a scripted player (the reference's ``Player_PPSequence``).

    Args:
        players: Defense, ability, buy and breach partial players, in that order.
        name: Configuration name.
    """

    def __init__(self, players: Sequence[PartialPlayer], name: str = "") -> None:
        if len(players) != 4:
            raise ValueError(f"a partial-player sequence needs 4 players, got {len(players)}")
        for phase, pp in zip((DEFENSE_PHASE, ABILITY, BUY, BREACH_PHASE), players, strict=True):
            if pp.phase != phase and not (phase == ABILITY and pp.phase == BUY):
                raise ValueError(
                    f"partial player {pp.name!r} plays the {PHASES[pp.phase]} phase, "
                    f"not the {PHASES[phase]} phase"
                )
        self.players = list(players)
        self.name = name or "+".join(pp.name for pp in players)

    def play_turn(
        self,
        state: PrismataState,
        rng: np.random.Generator | None = None,
        *,
        for_plan: bool = False,
    ) -> Turn:
        """The whole turn of the player to move in ``state`` (``for_plan``: see :class:`Turn`)."""
        turn = Turn(state, rng, for_plan=for_plan)
        for phase, pp in enumerate(self.players):
            _play_phase(turn, pp, phase)
        finish_turn(turn)
        return turn


class Portfolio:
    """Partial players per phase; the cross product of one per phase gives candidate turns.

    Args:
        phases: Four lists of partial players (defense, ability, buy, breach); an empty list
            (the reference's base iterator leaves the ability phase empty) means "do nothing
            in that phase".
        name: Configuration name.
        max_children: Most distinct turns generated (0: all).
    """

    def __init__(
        self, phases: Sequence[Sequence[PartialPlayer]], name: str = "", max_children: int = 0
    ) -> None:
        if len(phases) != 4:
            raise ValueError(f"a portfolio needs 4 phase lists, got {len(phases)}")
        self.phases = [list(p) for p in phases]
        self.name = name
        self.max_children = max_children

    def sizes(self) -> tuple[int, ...]:
        """Partial players per phase (at least 1: an empty phase counts as 'do nothing')."""
        return tuple(max(1, len(p)) for p in self.phases)

    def children(
        self, state: PrismataState, rng: np.random.Generator | None = None
    ) -> Iterator[tuple[list[int], PrismataState]]:
        """Distinct whole turns ``(actions, resulting state)`` in odometer order.

        Prefixes are shared: when only the later phases change, the earlier phases' turn is
        reused rather than replayed.
        """
        sizes = self.sizes()
        seen: set[tuple[int, ...]] = set()
        produced = 0
        index = [0] * 4
        prefix: list[Turn | None] = [None] * 5
        prefix[0] = Turn(state, rng)
        changed = 0
        while True:
            for phase in range(changed, 4):
                turn = prefix[phase].copy()  # type: ignore[union-attr]
                players = self.phases[phase]
                if players:
                    _play_phase(turn, players[index[phase]], phase)
                elif phase == BUY and turn.in_action:
                    turn.end_action()
                prefix[phase + 1] = turn
            final = prefix[4].copy()  # type: ignore[union-attr]
            finish_turn(final)
            key = tuple(final.actions)
            if key not in seen:
                seen.add(key)
                produced += 1
                yield list(final.actions), final.state
                if self.max_children and produced >= self.max_children:
                    return
            # odometer: the last phase turns fastest
            phase = 3
            while phase >= 0:
                index[phase] += 1
                if index[phase] < sizes[phase]:
                    break
                index[phase] = 0
                phase -= 1
            if phase < 0:
                return
            changed = phase

    def random_turn(
        self, state: PrismataState, rng: np.random.Generator, *, for_plan: bool = False
    ) -> Turn:
        """A turn from one uniformly drawn partial player per phase (Medium and Easy bots).

        ``for_plan``: see :class:`Turn`.
        """
        picks = [
            players[int(rng.integers(len(players)))] if players else None for players in self.phases
        ]
        turn = Turn(state, rng, for_plan=for_plan)
        for phase, pp in enumerate(picks):
            if pp is not None:
                _play_phase(turn, pp, phase)
            elif phase == BUY and turn.in_action:
                turn.end_action()
        finish_turn(turn)
        return turn
