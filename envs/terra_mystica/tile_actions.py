"""Taking favor, town and bonus tiles, and a town tile's cult steps.

:class:`TileActions` is a mixin of
:class:`~stratagem.envs.terra_mystica.rules.TerraMysticaState`. A favor tile moves a cult
track (FAV5 makes towns of 6 power); a town tile pays its rewards and its keys, and the
steps of TW5 and TW6 make each track they would take to 10 a decision of its own; a bonus
tile is taken with the coins that gathered on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stratagem.envs.terra_mystica.buildings import detect_town, iter_bits
from stratagem.envs.terra_mystica.context import X_FAV, X_TCULT, X_TSTEPS, X_TW, _put
from stratagem.envs.terra_mystica.cults import advance_cult, gain_keys
from stratagem.envs.terra_mystica.factions import FAKIRS, SWARMLINGS, WITCHES
from stratagem.envs.terra_mystica.fields import (
    BON,
    CARPET,
    CULT,
    FAVS,
    KEY,
    TOWN_SIZE,
    TW,
    VP,
    C,
    W,
)
from stratagem.envs.terra_mystica.power import gain_power, gain_priests
from stratagem.envs.terra_mystica.tiles import FAVORS, SCORING, TOWNS

if TYPE_CHECKING:
    from stratagem.envs.terra_mystica.rules import TerraMysticaGame

__all__ = ["TileActions"]


class TileActions:
    """Favor, town and bonus tiles taken (a mixin of ``TerraMysticaState``)."""

    __slots__ = ()
    game: TerraMysticaGame

    def _take_favor(self, p: int, i: int) -> None:
        d = self.pd[p]
        self.ctx[X_FAV] -= 1
        self.fav_supply = _put(self.fav_supply, i, self.fav_supply[i] - 1)
        d[FAVS] |= 1 << i
        tile = FAVORS[i]
        advance_cult(self.pd, p, tile.cult, tile.steps)
        if i == 4:
            d[TOWN_SIZE] = 6
            for cell in iter_bits(self.mine[p]):
                detect_town(self, p, cell)

    def _take_town(self, p: int, i: int) -> None:
        d = self.pd[p]
        self.ctx[X_TW] -= 1
        self.tw_supply = _put(self.tw_supply, i, self.tw_supply[i] - 1)
        d[TW + i] += 1
        t = TOWNS[i]
        gain_keys(self.pd, p, t.keys)
        d[VP] += t.vp
        d[C] += t.coins
        d[W] += t.workers
        if t.priests:
            gain_priests(d, t.priests)
        if t.power:
            gain_power(d, t.power)
        if t.cult_steps:
            self._town_cult(p, t.cult_steps)
        if t.ship:
            self._gain_ship(p)
            if self.fac[p] == FAKIRS and d[CARPET] < 4:
                d[CARPET] += 1
        if self.round and SCORING[self.score_tiles[self.round - 1]].kind == "town":
            d[VP] += 5
        if self.fac[p] == WITCHES:
            d[VP] += 5
        elif self.fac[p] == SWARMLINGS:
            d[W] += 3

    def _town_cult(self, p: int, steps: int) -> None:
        """A town tile's steps on every track (TW5, TW6); the player decides the ones to 10.

        A step that would reach 10 spends a key, and the player may decline it: the engine lets
        a player lower a track at 8 or 9 before taking the tile (``-WATER. +TW5``, the
        ``command_adjust_resources`` exception "needed to work around the TW5 issue"), which
        leaves it at 9 with the key kept, or the key for another track when there are fewer
        keys than tracks at the top. So each such track becomes a decision (lowest track
        first): ``+TRACK`` takes it to 10, ``decline`` leaves it at 9. The other tracks move
        at once.
        """
        pd = self.pd
        mask = 0
        for track in range(4):
            pos = pd[p][CULT + track]
            if pos < 10 <= pos + steps and not any(
                q != p and e[CULT + track] == 10 for q, e in enumerate(pd)
            ):
                mask |= 1 << track
            else:
                advance_cult(pd, p, track, steps)
        self.ctx[X_TCULT] = mask
        self.ctx[X_TSTEPS] = steps
        self._settle_town_cult(p)

    def _settle_town_cult(self, p: int) -> None:
        """Move on the tracks left without a choice: with no key the marker stops at 9.

        It stops *blocked* there, as any step to 10 without a key does (a key won later in
        the turn still takes it up).
        """
        x = self.ctx
        while x[X_TCULT] and self.pd[p][KEY] < 1:
            track = (x[X_TCULT] & -x[X_TCULT]).bit_length() - 1
            x[X_TCULT] &= x[X_TCULT] - 1
            advance_cult(self.pd, p, track, x[X_TSTEPS])
        if not x[X_TCULT]:
            x[X_TSTEPS] = 0

    def _town_top(self, p: int, take: bool) -> None:
        """Decide the lowest undecided track of a town tile: to 10, or stay at 9."""
        x = self.ctx
        track = (x[X_TCULT] & -x[X_TCULT]).bit_length() - 1
        x[X_TCULT] &= x[X_TCULT] - 1
        pos = self.pd[p][CULT + track]
        advance_cult(self.pd, p, track, x[X_TSTEPS] if take else 9 - pos)
        self._settle_town_cult(p)

    def _take_bonus(self, p: int, tile: int) -> None:
        d = self.pd[p]
        if d[BON] >= 0:
            self.bon_supply = _put(self.bon_supply, d[BON], 1)
        d[BON] = tile
        if tile >= 0:
            self.bon_supply = _put(self.bon_supply, tile, 0)
            d[C] += self.bon_coins[tile]
            self.bon_coins = _put(self.bon_coins, tile, 0)
