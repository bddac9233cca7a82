"""Board actions: terraform, dig, teleport, build and upgrade.

:class:`BoardActions` is a mixin of
:class:`~stratagem.envs.terra_mystica.rules.TerraMysticaState` carrying out an action on a
hex: a fresh terraform (with the dwelling it may bring), the placing of held spades (cult-
reward spades included), the free buildings of the Witches and Swarmlings and the Nomads'
sandstorm, and upgrades with the strongholds' abilities. Spades bought with workers are
implicit (see the rules' docstring); the VP of round tiles and favors are scored here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stratagem.envs.terra_mystica import actions as A
from stratagem.envs.terra_mystica.buildings import detect_town, opponent_adjacent, reach_masks
from stratagem.envs.terra_mystica.context import (
    INCOME_SPADES,
    X_ACTIONS,
    X_BUILD,
    X_DIG,
    X_FAV,
    X_FREE_D,
    X_FREE_TF,
    X_FREE_TP,
    X_HOME,
    X_NODECL,
    X_SPADES,
    X_TELE,
    X_TF,
    X_WP,
    _put,
)
from stratagem.envs.terra_mystica.factions import (
    ALCHEMISTS,
    AUREN,
    BUILDING_NAMES,
    CULTISTS,
    DARKLINGS,
    DWARVES,
    FAKIRS,
    GIANTS,
    HALFLINGS,
    MERMAIDS,
)
from stratagem.envs.terra_mystica.fields import CARPET, FAVS, NB, SHIP, TELE, VP, C, P, W
from stratagem.envs.terra_mystica.power import gain_power
from stratagem.envs.terra_mystica.terraform import COST, spade_cost
from stratagem.envs.terra_mystica.tiles import SCORING

if TYPE_CHECKING:
    from stratagem.envs.terra_mystica.rules import TerraMysticaGame

__all__ = ["BoardActions"]


class BoardActions:
    """Terraforming, building and upgrading (a mixin of ``TerraMysticaState``)."""

    __slots__ = ()
    game: TerraMysticaGame

    def _do_board(self, p: int, cell: int, k: int) -> None:
        x = self.ctx
        f = self.F[p]
        home = f.home
        if self.phase == INCOME_SPADES:
            self._spade_transform(p, cell, k, income=True)
            return
        if x[X_FREE_D]:
            x[X_FREE_D] = 0
            self._build_dwelling(p, cell, free=True)
            return
        if x[X_FREE_TP]:
            x[X_FREE_TP] = 0
            self._upgrade(p, cell, 2, free=True)
            return
        if x[X_FREE_TF]:
            x[X_FREE_TF] = 0
            self.terrain = _put(self.terrain, cell, home)
            x[X_TF] = 0
            x[X_BUILD] = 1
            self.build_locs = (cell,)
            if k >= A.K_BUILD:
                x[X_BUILD] = 0
                self._build_dwelling(p, cell, free=False)
            return
        if x[X_SPADES]:
            self._spade_transform(p, cell, k, income=False)
            return
        if k == A.K_BUILD + home and x[X_BUILD] and cell in self.build_locs:
            x[X_BUILD] = 0
            self._build_dwelling(p, cell, free=False)
            return
        # a fresh main action
        self._start_action(p)
        if k >= A.K_TP:
            self._upgrade(p, cell, A.UPGRADE_OF_K[k][1], free=False)
            return
        target = k if k < A.K_BUILD else k - A.K_BUILD
        direct, _ = reach_masks(self, p, False)
        if not direct >> cell & 1 and x[X_TELE] != cell:
            self._pay_teleport(p, cell)
        cur = self.terrain[cell]
        if cur != target:
            s = 2 if self.fac[p] == GIANTS else COST[home][cur][target]
            self._dig(p, s)
            x[X_SPADES] -= s
            x[X_TF] = 0
            self.terrain = _put(self.terrain, cell, target)
            if target == home:
                self.build_locs = (cell,)
        if k >= A.K_BUILD:
            x[X_BUILD] = 0
            self._build_dwelling(p, cell, free=False)

    def _spade_transform(self, p: int, cell: int, k: int, income: bool) -> None:
        x = self.ctx
        f = self.F[p]
        home = f.home
        target = k if k < A.K_BUILD else k - A.K_BUILD
        if not income:
            direct, _ = reach_masks(self, p, False)
            if not direct >> cell & 1 and x[X_TELE] != cell:
                self._pay_teleport(p, cell)
        cur = self.terrain[cell]
        giants = self.fac[p] == GIANTS
        c = spade_cost(cur, target, home, giants, x[X_SPADES])
        need = c - x[X_SPADES]
        if need > 0:
            self._dig(p, need)
        x[X_SPADES] -= c
        if not income:
            if x[X_TF] > 0:
                x[X_TF] -= 1
            if x[X_SPADES] and target != home:
                x[X_HOME] = 1
        self.terrain = _put(self.terrain, cell, target)
        if target == home and not income:
            self.build_locs = (*self.build_locs, cell)
        if k >= A.K_BUILD:
            x[X_BUILD] = 0
            self._build_dwelling(p, cell, free=False)

    def _dig(self, p: int, n: int) -> None:
        """Buy ``n`` spades with workers (Darklings: priests, +2 VP each); they are gained."""
        d = self.pd[p]
        pw, pp = self._dig_payment(p, n)
        d[W] -= pw
        d[P] -= pp
        if self.fac[p] == DARKLINGS:
            d[VP] += 2 * n
        x = self.ctx
        x[X_TF] = 1
        x[X_BUILD] = 1
        x[X_DIG] = 1
        self._gain_spades(p, n)

    def _gain_spades(self, p: int, n: int) -> None:
        """Spades gained: round tile SCORE1, Halflings +1 VP, Alchemists' stronghold +2 power."""
        d = self.pd[p]
        self.ctx[X_SPADES] += n
        self._score_spades(p, n)
        if self.fac[p] == ALCHEMISTS and d[NB + 4]:
            gain_power(d, 2 * n)

    def _score_spades(self, p: int, n: int) -> None:
        d = self.pd[p]
        if self.round and SCORING[self.score_tiles[self.round - 1]].kind == "spade":
            d[VP] += 2 * n
        if self.fac[p] == HALFLINGS:
            d[VP] += n

    def _pay_teleport(self, p: int, cell: int) -> None:
        d = self.pd[p]
        tw, tp = self._tele_payment(p)
        d[W] -= tw
        d[P] -= tp
        d[VP] += 4
        self.ctx[X_TELE] = cell

    def _start_action(self, p: int) -> None:
        """Use one of the turn's main actions; a new action clears the previous one's leftovers."""
        x = self.ctx
        x[X_ACTIONS] -= 1
        x[X_TF] = 0
        x[X_BUILD] = 0
        x[X_DIG] = 0
        x[X_HOME] = 0
        x[X_NODECL] = 0
        self.build_locs = ()

    def _place_building(self, p: int, cell: int, kind: int) -> None:
        self.bld = _put(self.bld, cell, kind)
        self.own = _put(self.own, cell, p)
        self.mine = _put(self.mine, p, self.mine[p] | 1 << cell)
        self.pd[p][NB + kind] += 1

    def _build_dwelling(self, p: int, cell: int, free: bool) -> None:
        d = self.pd[p]
        self._offer_leech(p, cell)
        if not free:
            cw, cc = self.F[p].costs[1]
            d[W] -= cw
            d[C] -= cc
        if d[FAVS] >> 10 & 1:
            d[VP] += 2
        self._score_build(p, "D")
        self._place_building(p, cell, 1)
        detect_town(self, p, cell)

    def _score_build(self, p: int, kind: str) -> None:
        if not self.round:
            return
        tile = SCORING[self.score_tiles[self.round - 1]]
        if tile.kind == kind or (tile.kind == "SHSA" and kind in ("SH", "SA")):
            self.pd[p][VP] += tile.vp

    def _upgrade(self, p: int, cell: int, kind: int, free: bool) -> None:
        d = self.pd[p]
        f = self.F[p]
        x = self.ctx
        fid = self.fac[p]
        lonely = kind == 2 and not opponent_adjacent(self, p, cell)
        self._offer_leech(p, cell)
        if not free:
            cw, cc = f.costs[kind]
            if lonely:
                cc *= 2
            d[W] -= cw
            d[C] -= cc
        old = self.bld[cell]
        d[NB + old] -= 1
        d[NB + kind] += 1
        self.bld = _put(self.bld, cell, kind)
        if kind in (3, 5):
            x[X_FAV] += f.favors_per_temple
        elif kind == 4:
            if fid == ALCHEMISTS:
                gain_power(d, 12)
            elif fid == AUREN:
                x[X_FAV] += 1
            elif fid == CULTISTS:
                d[VP] += 7
            elif fid == DARKLINGS:
                x[X_WP] = 1
            elif fid == DWARVES:
                d[TELE] = 1
            elif fid == FAKIRS:
                d[TELE] = 1
                d[CARPET] += 1
            elif fid == HALFLINGS:
                x[X_TF] = 3
                x[X_BUILD] = 1
                x[X_DIG] = 0
                x[X_HOME] = 0
                self.build_locs = ()
                self._gain_spades(p, 3)
            elif fid == MERMAIDS:
                self._gain_ship(p)
        if kind == 2 and d[FAVS] >> 9 & 1:
            d[VP] += 3
        self._score_build(p, BUILDING_NAMES[kind])
        detect_town(self, p, cell)

    def _gain_ship(self, p: int) -> None:
        d = self.pd[p]
        f = self.F[p]
        if d[SHIP] < f.ship_max:
            d[VP] += f.ship_vp[d[SHIP]]
            d[SHIP] += 1
