"""A player-turn under construction: the scratch pad of the partial players.

The reference's partial players click, buy and also *undo* clicks (an attacker whose attack
would be wasted, a Drone kept back as a blocker). Our environment has no undo actions, so a
:class:`Turn` keeps the actions of the turn on a private copy of the state and undoes a click by
taking it out of that list: the list stays a sequence of ordinary actions that replays on the
real state. A click is undone only when the reference's engine would allow it (the unit was
clicked this turn and what the click produced has not been spent since).
"""

from __future__ import annotations

import numpy as np

from stratagem.envs.prismata.data import ACTION, C_ABILITY, C_TARGET
from stratagem.envs.prismata.rules import PrismataState

__all__ = ["Turn"]


def _simple_click(card: int) -> bool:
    """A click whose undo is a plain refund (no sacrifice, creation, destruction or target)."""
    script = C_ABILITY[card]
    if script is None or C_TARGET[card] is not None:
        return False
    return not (script.sac or script.create or script.destroy or script.selfsac or script.give)


class Turn:
    """The actions of one player-turn, applied to a private copy of the state.

    Attributes:
        start: The state the turn started from (the caller's object, never modified).
        state: The state after :attr:`actions`.
        player: The player whose turn it is.
        actions: The actions so far, in order.
        rng: Random generator of the partial players that need one.
        for_plan: The turn is built as an agent's plan (see ``__init__``).
        positions: For a plan, the position before each action of :attr:`actions` (copies that
            share unchanged lists with the turn's state), while they are known to replay:
            ``None`` once a click was taken back, and for turns not built as plans.
        closed: The turn was ended by an ``end_phase`` recorded but not played (plans only).

    Args:
        state: The position the turn starts from.
        rng: Random generator of the partial players that need one.
        for_plan: Build the turn for its actions only, as an agent's plan: record
            :attr:`positions` (so the agent can tell, decision by decision, that the game
            follows the plan, without replaying it), and record an ``end_phase`` that ends the
            turn without playing it (playing it would start the opponent's turn on
            :attr:`state`, the dearest action of a turn): :attr:`state` then stays before it.
    """

    __slots__ = (
        "_snaps",
        "actions",
        "closed",
        "for_plan",
        "lay",
        "player",
        "positions",
        "rng",
        "start",
        "state",
    )

    def __init__(
        self,
        state: PrismataState,
        rng: np.random.Generator | None = None,
        *,
        for_plan: bool = False,
    ) -> None:
        # ``start`` is only read (undo replays clone it), so the caller's state is kept as it
        # is: callers must not modify it while the turn is in use.
        self.start = state
        self.state = state.clone()
        self.player = state.current_player
        self.actions: list[int] = []
        # the player's resources after each action (tuples: shared by copies until an undo)
        self._snaps: list[tuple[int, ...]] = []
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.lay = state.game.layout
        self.for_plan = for_plan
        self.positions: list[PrismataState] | None = [] if for_plan else None
        self.closed = False

    def copy(self) -> Turn:
        """An independent copy (the start state is shared: it is never modified)."""
        t = Turn.__new__(Turn)
        t.start = self.start
        t.state = self.state.clone()
        t.player = self.player
        t.actions = self.actions[:]
        t._snaps = self._snaps[:]
        t.rng = self.rng
        t.lay = self.lay
        t.for_plan = self.for_plan
        t.positions = None if self.positions is None else self.positions[:]
        t.closed = self.closed
        return t

    # ------------------------------------------------------------------ doing
    def do(self, action: int) -> None:
        """Apply ``action`` (must be legal) and record it."""
        if self.positions is not None:
            self.positions.append(self.state.clone())
        self.state.apply(action)
        self.actions.append(action)
        self._snaps.append(self.state.resources(self.player))

    @property
    def acting(self) -> bool:
        """The turn's player is still to move (the turn has not ended)."""
        s = self.state
        return s.winner is None and s.current_player == self.player and not self.closed

    @property
    def in_action(self) -> bool:
        """The turn's player is in its action phase with no target pending."""
        s = self.state
        return self.acting and s.phase == ACTION and s.pending < 0

    def use(self, slot: int) -> bool:
        """Click own unit ``slot`` if that is legal (not for targeted clicks)."""
        s = self.state
        if not self.in_action or not s.can_use(self.player, slot):
            return False
        if C_TARGET[s.unit_card(self.player, slot)] is not None:
            return False
        self.do(self.lay.use0 + slot)
        return True

    def target(self, slot: int, enemy_slot: int) -> bool:
        """Click targeting unit ``slot`` and name enemy unit ``enemy_slot`` if both are legal."""
        s = self.state
        if not self.in_action or not s.can_use(self.player, slot):
            return False
        if enemy_slot not in s.click_targets(self.player, slot):
            return False
        self.do(self.lay.use0 + slot)
        self.do(self.lay.target0 + enemy_slot)
        return True

    def buy(self, card: int) -> bool:
        """Buy ``card`` if that is legal."""
        if not self.in_action or not self.state.can_buy(card):
            return False
        self.do(card)
        return True

    def end_action(self) -> None:
        """End the action phase (the turn, or go on to a breach).

        In a plan (:attr:`for_plan`), an end that ends the turn (no wipeout follows) is
        recorded but not played: :attr:`state` stays before it and the turn is :attr:`closed`.
        """
        if self.in_action:
            if self.for_plan and not self.state.end_wipes_out():
                if self.positions is not None:
                    self.positions.append(self.state.clone())
                self.actions.append(self.lay.end)
                self._snaps.append(self.state.resources(self.player))
                self.closed = True
            else:
                self.do(self.lay.end)

    # ------------------------------------------------------------------ undoing
    def can_undo_use(self, slot: int) -> bool:
        """The unit in ``slot`` was clicked this turn and the click can be taken back."""
        return self._undo(slot, commit=False)

    def undo_use(self, slot: int) -> bool:
        """Take back this turn's click of the unit in ``slot``; False when not allowed."""
        return self._undo(slot, commit=True)

    def _undo(self, slot: int, commit: bool) -> bool:
        if not self.in_action:
            return False
        p = self.player
        s = self.state
        t = s.unit_card(p, slot)
        if t < 0 or not s.unit_clicked(p, slot):
            return False
        use = self.lay.use0 + slot
        try:
            i = len(self.actions) - 1 - self.actions[::-1].index(use)
        except ValueError:
            return False
        if C_TARGET[t] is not None and C_TARGET[t][0]:
            return False  # the reference cannot undo a snipe
        if not _simple_click(t):
            return self._undo_at(i, t, commit)
        # a plain click: refund it on the spot if what it made is still unspent at every later
        # point of the turn (the reference's undo condition), so the rest stays replayable
        script = C_ABILITY[t]
        delta = [0] * 6
        if script.cost is not None:
            for r in range(6):
                delta[r] += script.cost[r]
        if script.gain is not None:
            for r in range(6):
                delta[r] -= script.gain[r]
        for snap in self._snaps[i:]:
            for r in range(6):
                if snap[r] + delta[r] < 0:
                    return False
        if not commit:
            return True
        s.take_back_click(p, slot)
        self.positions = None  # the positions before this point no longer match the actions
        snaps = self._snaps
        for j in range(i, len(snaps)):
            snaps[j] = tuple(x + d for x, d in zip(snaps[j], delta, strict=True))
        del self.actions[i]
        del self._snaps[i]
        return True

    def sacrificed_clicks(self) -> list[tuple[int, int]]:
        """``(action index, card)`` of this turn's clicks whose unit sacrificed itself."""
        out = []
        p = self.player
        replay = self.start.clone()
        for i, a in enumerate(self.actions):
            if self.lay.use0 <= a < self.lay.block0:
                slot = a - self.lay.use0
                card = replay.unit_card(p, slot)
                script = C_ABILITY[card]
                replay.apply(a)
                if script is not None and script.selfsac and C_TARGET[card] is None:
                    out.append((i, card))
            else:
                replay.apply(a)
        return out

    def undo_at(self, index: int, card: int) -> bool:
        """Take back the click recorded at ``index`` (a click of a ``card`` unit) by replay."""
        return self._undo_at(index, card, True)

    def _undo_at(self, i: int, t: int, commit: bool) -> bool:
        """Drop the click at ``i`` (and its target) and replay the turn; False if illegal."""
        if C_TARGET[t] is not None and C_TARGET[t][0]:
            return False
        p = self.player
        drop = {i}
        if C_TARGET[t] is not None and i + 1 < len(self.actions):
            drop.add(i + 1)
        kept = [a for j, a in enumerate(self.actions) if j not in drop]
        replay = self.start.clone()
        snaps = []
        for a in kept:
            if a not in replay.legal_action_list():
                return False
            replay.apply(a)
            snaps.append(replay.resources(p))
        if not commit:
            return True
        self.state = replay
        self.actions = kept
        self._snaps = snaps
        self.positions = None
        return True
