"""Turns and rounds: passing, the next turn, round end, income and the final scoring.

:class:`TurnFlow` is a mixin of
:class:`~stratagem.envs.terra_mystica.rules.TerraMysticaState`. A turn ends by ``end turn``
or a pass; when every player has passed the round ends: the next turn order, the cult
rewards (their spades placed in that order), the other income, and a new round; after
round 6 the final scoring of cult tracks, networks and resources. A replay may also drop a
player who left the real game (:meth:`~TurnFlow.drop_player`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stratagem.envs.terra_mystica.context import (
    ACTION,
    INCOME_SPADES,
    OVER,
    RESET_CTX,
    X_ACTIONS,
    X_INCOME,
    X_SPADES,
    X_TF,
    _put,
)
from stratagem.envs.terra_mystica.factions import ALCHEMISTS
from stratagem.envs.terra_mystica.fields import (
    BLOCKED,
    BON_USED,
    CULT,
    FAV6_USED,
    NB,
    PASSED,
    SH_USED,
    VP,
)
from stratagem.envs.terra_mystica.power import gain_power
from stratagem.envs.terra_mystica.scoring import (
    CULT_POINTS,
    NETWORK_POINTS,
    cult_reward,
    network_size,
    pass_vp,
    rank_points,
    resource_vp,
    take_income,
)

if TYPE_CHECKING:
    from stratagem.envs.terra_mystica.rules import TerraMysticaGame

__all__ = ["TurnFlow"]


class TurnFlow:
    """Turns, rounds, income and the end of the game (a mixin of ``TerraMysticaState``)."""

    __slots__ = ()
    game: TerraMysticaGame

    def _pass(self, p: int, tile: int) -> None:
        d = self.pd[p]
        d[VP] += pass_vp(self, p)
        d[PASSED] = 1
        self.pass_order = (*self.pass_order, p)
        self._take_bonus(p, tile)
        self.ctx[X_ACTIONS] = 0
        self._end_turn()

    def _start_turn(self, p: int) -> None:
        self.act = p
        self.current_player = p
        self.phase = ACTION
        self._reset_ctx()[X_ACTIONS] = 1
        self.pd[p][BLOCKED] = 0

    def _end_turn(self) -> None:
        self.pd[self.act][BLOCKED] = 0  # a key can no longer come this turn
        self._trace_row(self.act, "turn over")
        self._reset_ctx()
        self._resolve()

    def _reset_ctx(self) -> list[int]:
        """Clear the turn context and the remembered build hexes; returns the context.

        Every turn starts and ends from
        :data:`~stratagem.envs.terra_mystica.context.RESET_CTX`; the list is changed in place,
        as the loops that did this before changed it, so a reference taken earlier in the same
        ``apply`` still sees the state's context.
        """
        x = self.ctx
        x[:] = RESET_CTX
        self.build_locs = ()
        return x

    def drop_player(self) -> None:
        """The player to move leaves the game (replays of real games only).

        The online engine can drop a player (``X dropped from the game``): its bonus tile goes
        back to the supply, it has no more turns and is offered no power, but it keeps its
        buildings, still takes income and still scores the final cult tracks, network and
        resources. A replay drops the player at the start of the first turn the ledger no
        longer has for it. No agent action does this.

        Raises:
            ValueError: Outside the start of a turn of the rounds.
        """
        p = self.current_player
        if self.phase != ACTION or self.act != p or not self.ctx[X_ACTIONS] or self.round < 1:
            raise ValueError("terra_mystica: a player can leave only at the start of its turn")
        if any(o[0] == p for o in self.late):
            raise ValueError("terra_mystica: a player with postponed offers cannot leave")
        self.dropped = (*self.dropped, p)
        self._take_bonus(p, -1)
        self.pd[p][PASSED] = 1
        self.ctx[X_ACTIONS] = 0
        self._legal = None
        self._end_turn()

    def _next_turn(self) -> None:
        if all(d[PASSED] for d in self.pd):
            self._end_round()
            return
        order = self.order
        i = order.index(self.act)
        for k in range(1, self.n + 1):
            q = order[(i + k) % self.n]
            if not self.pd[q][PASSED]:
                self._start_turn(q)
                return

    def _end_round(self) -> None:
        if self.round == 6:
            self._final_scoring()
            return
        if self.game.turn_order == "variable":
            # players who left never pass: they come last
            self.order = (*self.pass_order, *(q for q in self.order if q not in self.pass_order))
        else:
            first = self.pass_order[0]
            self.order = tuple((first + k) % self.n for k in range(self.n))
        tile = self.score_tiles[self.round - 1]
        for p in self.order:
            spades = cult_reward(self, p, tile)
            if spades and p not in self.dropped:  # a player who left places no spades
                self.inc_spades = _put(self.inc_spades, p, spades)
                self._score_spades(p, spades)
                if self.fac[p] == ALCHEMISTS and self.pd[p][NB + 4]:
                    gain_power(self.pd[p], 2 * spades)
            self._trace_row(p, "cult_income_for_faction")
        self.inc_queue = tuple(p for p in self.order if self.inc_spades[p])
        self._next_income_spades()

    def _next_income_spades(self) -> None:
        if self.inc_queue:
            p = self.inc_queue[0]
            self.phase = INCOME_SPADES
            self.act = p
            self.current_player = p
            x = self._reset_ctx()
            x[X_SPADES] = self.inc_spades[p]
            x[X_TF] = -1
            x[X_INCOME] = 1
            return
        self.ctx[X_INCOME] = 0
        self._other_income()

    def _other_income(self) -> None:
        for p in self.order:
            take_income(self, p)
            self._trace_row(p, "other_income_for_faction")
        self._start_round()

    def _start_round(self) -> None:
        self.round += 1
        for d in self.pd:
            d[PASSED] = 0
            d[BON_USED] = 0
            d[FAV6_USED] = 0
            d[SH_USED] = 0
        self.act_used = 0
        self.pass_order = ()
        self.bon_coins = tuple(
            c + 1 if self.bon_supply[i] else c for i, c in enumerate(self.bon_coins)
        )
        for q in self.dropped:
            self.pd[q][PASSED] = 1
        self._start_turn(next(q for q in self.order if not self.pd[q][PASSED]))

    def _final_scoring(self) -> None:
        pd = self.pd
        for track in range(4):
            pts = rank_points([d[CULT + track] for d in pd], CULT_POINTS)
            for p in range(self.n):
                if pts[p]:
                    pd[p][VP] += pts[p]
                    self._trace_row(
                        p, f"+{pts[p]}vp for {('FIRE', 'WATER', 'EARTH', 'AIR')[track]}"
                    )
        sizes = [network_size(self, p) for p in range(self.n)]
        pts = rank_points(sizes, NETWORK_POINTS)
        for p in range(self.n):
            if pts[p]:
                pd[p][VP] += pts[p]
                self._trace_row(p, f"+{pts[p]}vp for network")
        for p in range(self.n):
            resource_vp(self, p)
            self._trace_row(p, "score_resources")
        self.final = [d[VP] for d in pd]
        self.phase = OVER
        self.act = -1
        self.current_player = 0

    def _trace_row(self, p: int, what: str) -> None:
        if self._trace is not None:
            self._trace(self, p, what)
