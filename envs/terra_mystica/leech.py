"""Leech offers: made by builds, decided after the turn, and postponed by replays.

:class:`LeechOffers` is a mixin of
:class:`~stratagem.envs.terra_mystica.rules.TerraMysticaState`. A build offers power to
its neighbours; when the turn is over each offer is decided in order (``_resolve``), an
accepted offer of the Cultists gives them a cult step, all declined gives them 1 power.
The answers of one build are counted per build id (``lstat``, ``lstats``) so that a
replay may postpone an offer (:meth:`~LeechOffers.postpone_leech`) and bring it back
later (:meth:`~LeechOffers.resume_leech`) with the same outcome as in the real game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stratagem.envs.terra_mystica.buildings import leech_offers
from stratagem.envs.terra_mystica.context import ACTION, CULTIST, LEECH
from stratagem.envs.terra_mystica.factions import CULTISTS
from stratagem.envs.terra_mystica.fields import VP
from stratagem.envs.terra_mystica.power import gain_power, leech_amount

if TYPE_CHECKING:
    from stratagem.envs.terra_mystica.rules import TerraMysticaGame

__all__ = ["LeechOffers"]


class LeechOffers:
    """Power offers and their answers (a mixin of ``TerraMysticaState``)."""

    __slots__ = ()
    game: TerraMysticaGame

    def _offer_leech(self, p: int, cell: int) -> None:
        if not self.round:
            return
        offers = leech_offers(self, p, cell)
        if self.dropped:  # a player who left is offered nothing
            offers = [o for o in offers if o[0] not in self.dropped]
        if offers:
            self.lid += 1
            self.leech = self.leech + tuple((q, p, amount, self.lid) for q, amount in offers)

    def _resolve(self) -> None:
        """After a turn or an out-of-turn decision: the next decision in the engine's order."""
        while True:
            if self.cpend:
                self.phase = CULTIST
                self.current_player = self.fac.index(CULTISTS)
                return
            if not self.leech:
                break
            q, _, amount, _ = self.leech[0]
            if leech_amount(self.pd[q], amount) > 0:
                self.phase = LEECH
                self.current_player = q
                return
            self._trace_row(q, "nothing to leech")
            self._pop_offer(None)
        self._next_turn()

    def _decide_leech(self, accept: bool) -> None:
        q, frm, amount, lid = self.leech[0]
        d = self.pd[q]
        if accept:
            n = amount if amount <= d[VP] else d[VP] + 1
            got = gain_power(d, n)
            if got:
                d[VP] -= got - 1
            self._trace_row(q, "leech")
            first = not self._answers(lid)[0]
            if self.fac[frm] == CULTISTS and first:
                self.cpend += 1
                self._trace_row(frm, "[opponent accepted power]")
        else:
            self._trace_row(q, "decline")
        self._pop_offer(accept)

    def _answers(self, lid: int) -> tuple[int, int]:
        """(accepted, declined) so far of the offers of build ``lid``, postponed ones included."""
        if self.lstat[0] == lid:
            return self.lstat[1], self.lstat[2]
        for lst, acc, dec in self.lstats:
            if lst == lid:
                return acc, dec
        return 0, 0

    def _pop_offer(self, accepted: bool | None) -> None:
        _, frm, _, lid = self.leech[0]
        self.leech = self.leech[1:]
        acc, dec = self._answers(lid)
        if accepted is True:
            acc = 1
        elif accepted is False:
            dec = 1
        self.lstat = (lid, acc, dec)
        self.lstats = tuple(o for o in self.lstats if o[0] != lid)
        if self.leech and self.leech[0][3] == lid:
            return
        if any(o[3] == lid for o in self.late):
            # a postponed answer is still to come: the build's outcome waits for it
            self.lstats = (*self.lstats, self.lstat)
            return
        if self.fac[frm] == CULTISTS and self.game.cultists_errata and dec and not acc:
            gain_power(self.pd[frm], 1)
            self._trace_row(frm, "[all opponents declined power]")

    def postpone_leech(self) -> None:
        """Leave the offer being decided unanswered for now (replays of real games only).

        The online engine lets a receiver answer an offer any time before its own next action,
        and applies what follows from the answers (the Cultists' cult step or power) when the
        last one arrives, which may be after the builder's next turn; our game asks right after
        the builder's turn. A replay postpones an offer that the ledger answers that late, and
        brings it back with :meth:`resume_leech` where the ledger answers it, so that the
        Cultists' bowls and tracks follow the same order as in the real game. No agent action
        does this: the game's own rules stay "every offer is decided after the turn".

        Raises:
            ValueError: Outside the leech phase.
        """
        if self.phase != LEECH:
            raise ValueError("terra_mystica: only an offer being decided can be postponed")
        offer = self.leech[0]
        lid = offer[3]
        self.leech = self.leech[1:]
        self.late = (*self.late, offer)
        acc, dec = self._answers(lid)
        self.lstat = (lid, acc, dec)
        if not (self.leech and self.leech[0][3] == lid):
            self.lstats = (*(o for o in self.lstats if o[0] != lid), self.lstat)
        self._legal = None
        self._resolve()

    def resume_leech(self, index: int) -> None:
        """Bring back postponed offer ``index`` of :attr:`late`: decided right after this turn.

        It goes before the offers made by this turn (it is older), and its answer then
        finishes its build's outcome as if it had been given in time.

        Raises:
            ValueError: Outside a turn's action phase, or for no such postponed offer.
        """
        if self.phase != ACTION:
            raise ValueError("terra_mystica: a postponed offer comes back during a turn only")
        if not 0 <= index < len(self.late):
            raise ValueError(f"terra_mystica: no postponed offer {index}")
        offer = self.late[index]
        self.late = self.late[:index] + self.late[index + 1 :]
        k = 0
        while k < len(self.leech) and self.leech[k][3] <= offer[3]:
            k += 1
        self.leech = (*self.leech[:k], offer, *self.leech[k:])
        self._legal = None
