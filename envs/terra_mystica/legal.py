"""The legal actions of a position.

:class:`LegalActions` is a mixin of
:class:`~stratagem.envs.terra_mystica.rules.TerraMysticaState` that lists what the player to
move may do in each phase: setup dwellings and bonus tiles, leech answers, the Cultists'
step, and in a turn the free conversions, the pending choices (tiles, cult tracks, bridge,
the Darklings' conversion, a town's steps to 10), the board actions a held spade or a free
building allows, and the main actions. The board scans run on every decision of a random
rollout, so they work on bit masks of hexes and keep costs in locals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stratagem.envs.terra_mystica import actions as A
from stratagem.envs.terra_mystica.buildings import (
    iter_bits,
    mermaid_town_rivers,
    opponent_adjacent,
    reach_masks,
)
from stratagem.envs.terra_mystica.context import (
    CULTIST,
    INCOME_SPADES,
    LEECH,
    OVER,
    SETUP_BONUS,
    SETUP_DWELLING,
    X_ACTIONS,
    X_BRIDGE,
    X_BUILD,
    X_CULT,
    X_DIG,
    X_FAV,
    X_FREE_D,
    X_FREE_TF,
    X_FREE_TP,
    X_HOME,
    X_INCOME,
    X_NODECL,
    X_SPADES,
    X_TCULT,
    X_TELE,
    X_TF,
    X_TW,
    X_WP,
)
from stratagem.envs.terra_mystica.factions import (
    ALCHEMISTS,
    AUREN,
    CHAOSMAGICIANS,
    DARKLINGS,
    DWARVES,
    ENGINEERS,
    GIANTS,
    MERMAIDS,
    NOMADS,
    SWARMLINGS,
    WITCHES,
)
from stratagem.envs.terra_mystica.fields import (
    BON,
    BON_USED,
    BRIDGES,
    DIG,
    FAV6_USED,
    FAVS,
    NB,
    P2,
    P3,
    SH_USED,
    SHIP,
    TELE,
    VP,
    C,
    P,
    W,
)
from stratagem.envs.terra_mystica.map import (
    BRIDGE_SLOTS,
    LAND_ADJ_MASK,
    LAND_CELLS,
    LAND_MASK,
    NUM_CELLS,
    RIVER_CELLS,
    TERRAIN0,
)
from stratagem.envs.terra_mystica.power import POWER_ACTION_COST
from stratagem.envs.terra_mystica.terraform import COST, spade_cost

if TYPE_CHECKING:
    from stratagem.envs.terra_mystica.rules import TerraMysticaGame

__all__ = ["LegalActions"]

_SH_ACTION_FACTIONS = {AUREN, CHAOSMAGICIANS, GIANTS, NOMADS, SWARMLINGS, WITCHES}
_RIVER_INDEX = {cell: i for i, cell in enumerate(RIVER_CELLS)}
_HOME_CELLS = tuple(tuple(c for c in LAND_CELLS if TERRAIN0[c] == t) for t in range(7))


class LegalActions:
    """Legal action generation, phase by phase (a mixin of ``TerraMysticaState``)."""

    __slots__ = ()
    game: TerraMysticaGame

    def _compute_legal(self) -> frozenset[int]:
        ph = self.phase
        if ph == OVER:
            return frozenset()
        if ph == SETUP_DWELLING:
            p = self.setup_queue[0][0]
            home = self.F[p].home
            k = (A.K_BUILD + home) * NUM_CELLS
            return frozenset(
                k + c for c in _HOME_CELLS[home] if self.terrain[c] == home and not self.bld[c]
            )
        if ph == SETUP_BONUS:
            return frozenset(self._bonus_choices(pass_action=True))
        if ph == LEECH:
            if self.pd[self.leech[0][0]][P2] >= 2:
                return frozenset((A.X_ACCEPT, A.X_DECLINE, A.X_BURN))
            return frozenset((A.X_ACCEPT, A.X_DECLINE))
        if ph == CULTIST:
            return frozenset(range(A.X_CULT, A.X_CULT + 4))
        p = self.act
        out: list[int] = []
        if ph == INCOME_SPADES:
            self._spade_actions(p, out)
            out.append(A.X_DISCARD)
            return frozenset(out)
        x = self.ctx
        self._free_actions(p, out)
        if x[X_TCULT]:
            # the town's steps on the lowest undecided track: to 10 (a key), or stop at 9
            track = (x[X_TCULT] & -x[X_TCULT]).bit_length() - 1
            out.append(A.X_CULT + track)
            out.append(A.X_DISCARD)
        elif x[X_WP] or x[X_TW] or x[X_FAV]:
            if x[X_WP]:
                w = self.pd[p][W]
                out.extend(A.X_WP + k for k in range(min(3, w) + 1))
            if x[X_TW]:
                for i in range(8):
                    if self.tw_supply[i]:
                        out.append(A.A_TOWN + i if i < 5 else A.X_TOWN + i - 5)
            if x[X_FAV]:
                favs = self.pd[p][FAVS]
                for i in range(12):
                    if self.fav_supply[i] and not favs >> i & 1:
                        out.append(A.X_FAV + i)
        elif x[X_CULT]:
            out.extend(range(A.X_CULT, A.X_CULT + 4))
        elif x[X_BRIDGE]:
            out.extend(A.X_BRIDGE + s for s in self._bridge_slots(p))
        elif x[X_SPADES] or x[X_FREE_TF] or x[X_FREE_D] or x[X_FREE_TP]:
            before = len(out)
            self._spade_actions(p, out)
            if x[X_SPADES] and (not x[X_NODECL] or len(out) == before):
                # dug spades may not be thrown away, unless conversions made them unusable
                out.append(A.X_DISCARD)
            if x[X_SPADES] and x[X_DIG] and self._can_dig(p, x[X_SPADES]):
                out.append(A.X_DIG1)
        elif x[X_ACTIONS] > 0:
            self._optional_build(p, out)
            self._main_actions(p, out)
            if self._can_dig(p, 0):
                out.append(A.X_DIG1)
        else:
            self._optional_build(p, out)
            out.append(A.X_END)
        return frozenset(out)

    def _bonus_choices(self, pass_action: bool) -> list[int]:
        out = []
        for i in range(10):
            if self.bon_supply[i]:
                out.append(A.A_PASS + i if i < 9 else A.X_PASS_BON10)
        return out

    def _free_actions(self, p: int, out: list[int]) -> None:
        d = self.pd[p]
        if d[P2] >= 2:
            out.append(A.X_BURN)
        p3 = d[P3]
        if p3 >= 1:
            out.append(A.X_CONV)
            if p3 >= 3:
                out.append(A.X_CONV + 1)
                if p3 >= 5:
                    out.append(A.X_CONV + 2)
        if d[P] >= 1:
            out.append(A.X_CONV + 3)
            out.append(A.X_CONV + 4)
        if d[W] >= 1:
            out.append(A.X_CONV + 5)
        alch = self.fac[p] == ALCHEMISTS
        if d[C] >= (2 if alch else 3):
            out.append(A.X_CONV + 6)
        if alch and d[VP] >= 1:
            out.append(A.X_CONV + 7)
        if self.fac[p] == MERMAIDS:
            for r in mermaid_town_rivers(self, p):
                out.append(A.X_CONNECT + _RIVER_INDEX[r])

    def _bridge_slots(self, p: int) -> list[int]:
        """Free bridge slots touching one of ``p``'s buildings (at most 3 bridges each)."""
        if self.pd[p][BRIDGES] >= 3:
            return []
        mine = self.mine[p]
        out = []
        for s, (a, b) in enumerate(BRIDGE_SLOTS):
            if self.bown[s] < 0 and (mine >> a & 1 or mine >> b & 1):
                out.append(s)
        return out

    def _dig_payment(self, p: int, spades: int) -> tuple[int, int]:
        """Workers and priests that buy ``spades`` spades."""
        if self.fac[p] == DARKLINGS:
            return 0, spades
        return spades * self.F[p].dig_workers[self.pd[p][DIG]], 0

    def _tele_payment(self, p: int) -> tuple[int, int]:
        """Workers and priests of one tunnel / carpet flight."""
        if self.fac[p] == DWARVES:
            return (2 if self.pd[p][TELE] == 0 else 1), 0
        return 0, 1

    def _occupied(self) -> int:
        """Bit mask of the cells that hold any player's building."""
        occupied = 0
        for m in self.mine:
            occupied |= m
        return occupied

    def _reachable(self, p: int, income: bool) -> tuple[int, int]:
        """``reach_masks`` (direct, teleport), teleporting limited to a declared target cell."""
        direct, tele = reach_masks(self, p, income)
        x_tele = self.ctx[X_TELE]
        if x_tele >= 0:
            tele &= 1 << x_tele
        return direct, tele

    def _main_actions(self, p: int, out: list[int]) -> None:
        d = self.pd[p]
        f = self.F[p]
        fid = self.fac[p]
        home = f.home
        terrain, bld = self.terrain, self.bld
        occupied = self._occupied()
        direct, tele = self._reachable(p, False)
        w_have, c_have, p_have = d[W], d[C], d[P]
        dw, dc = f.costs[1]
        d_ok = d[NB + 1] < 8
        darkl = fid == DARKLINGS
        rate = 1 if darkl else f.dig_workers[d[DIG]]
        giants = fid == GIANTS
        tw, tp = self._tele_payment(p) if tele else (0, 0)
        cost_row = COST[home]
        nb = NUM_CELLS
        build_k = (A.K_BUILD + home) * nb
        m = (direct | tele) & LAND_MASK & ~occupied
        while m:
            low = m & -m
            cell = low.bit_length() - 1
            m ^= low
            if tele & low:
                ew, ep = tw, tp
            else:
                ew = ep = 0
            cur = terrain[cell]
            if cur == home:
                if d_ok and ew + dw <= w_have and dc <= c_have and ep <= p_have:
                    out.append(build_k + cell)
                continue
            costs = cost_row[cur]
            for t in range(7):
                if t == cur or (giants and t != home):
                    continue
                s = 2 if giants else costs[t]
                if darkl:
                    nw, npr = ew, ep + s
                else:
                    nw, npr = ew + s * rate, ep
                if nw <= w_have and npr <= p_have:
                    out.append(t * nb + cell)
                    if t == home and d_ok and nw + dw <= w_have and dc <= c_have:
                        out.append(build_k + cell)
        # upgrades
        costs = f.costs
        ntp, nte, nsh, nsa = d[NB + 2], d[NB + 3], d[NB + 4], d[NB + 5]
        m = self.mine[p]
        while m:
            low = m & -m
            cell = low.bit_length() - 1
            m ^= low
            kind = bld[cell]
            if kind == 1:
                if ntp < 4:
                    cw, cc = costs[2]
                    if not opponent_adjacent(self, p, cell):
                        cc *= 2
                    if cw <= w_have and cc <= c_have:
                        out.append(A.K_TP * nb + cell)
            elif kind == 2:
                if nsh == 0:
                    cw, cc = costs[4]
                    if cw <= w_have and cc <= c_have:
                        out.append(A.K_SH * nb + cell)
                if nte < 3:
                    cw, cc = costs[3]
                    if cw <= w_have and cc <= c_have:
                        out.append(A.K_TE * nb + cell)
            elif kind == 3 and nsa == 0:
                cw, cc = costs[5]
                if cw <= w_have and cc <= c_have:
                    out.append(A.K_SA * nb + cell)
        # tracks
        if d[SHIP] < f.ship_max and c_have >= 4 and p_have >= 1:
            out.append(A.A_SHIP)
        if d[DIG] < f.dig_max:
            aw, ac, ap = f.dig_advance
            if aw <= w_have and ac <= c_have and ap <= p_have:
                out.append(A.A_DIG)
        # priests
        if p_have >= 1:
            spaces = self.cult_spaces
            for track in range(4):
                base = A.A_PRIEST + 3 * track
                if spaces[4 * track] < 0:
                    out.append(base)
                if (
                    spaces[4 * track + 1] < 0
                    or spaces[4 * track + 2] < 0
                    or spaces[4 * track + 3] < 0
                ):
                    out.append(base + 1)
                out.append(base + 2)
        # power actions
        p3 = d[P3]
        used = self.act_used
        for i in range(6):
            if not used >> i & 1 and p3 >= POWER_ACTION_COST[i]:
                if i == 0 and not self._bridge_slots(p):
                    continue
                out.append(A.A_POWER + i)
        # special actions
        if d[BON] == 0 and not d[BON_USED]:
            out.append(A.A_BON1)
        if (d[BON] == 1 and not d[BON_USED]) or (d[FAVS] >> 5 & 1 and not d[FAV6_USED]):
            out.append(A.A_CULTACT)
        if self._faction_action_ok(p):
            out.append(A.A_FACTION)
        # pass
        if self.round == 6:
            out.append(A.X_PASS_NONE)
        else:
            out.extend(self._bonus_choices(pass_action=True))

    def _faction_action_ok(self, p: int) -> bool:
        fid = self.fac[p]
        d = self.pd[p]
        if fid == ENGINEERS:
            return d[W] >= 2 and bool(self._bridge_slots(p))
        if fid not in _SH_ACTION_FACTIONS or not d[NB + 4] or d[SH_USED]:
            return False
        if fid == NOMADS:
            return bool(self._sandstorm_targets(p))
        if fid == WITCHES:
            return d[NB + 1] < 8 and any(
                self.terrain[c] == 3 and not self.bld[c] for c in LAND_CELLS
            )
        if fid == SWARMLINGS:
            return d[NB + 2] < 4 and d[NB + 1] > 0
        return True

    def _sandstorm_targets(self, p: int) -> int:
        """Empty non-desert hexes directly (not by bridge) adjacent to the Nomads' buildings."""
        m = 0
        for cell in iter_bits(self.mine[p]):
            m |= LAND_ADJ_MASK[cell]
        out = 0
        for cell in iter_bits(m & ~self._occupied()):
            if self.terrain[cell] != self.F[p].home:
                out |= 1 << cell
        return out

    def _can_dig(self, p: int, held: int) -> bool:
        """True when one more spade can be dug and all ``held + 1`` spades used on one hex.

        The rest of that hex's spades must be affordable too (dug spades may not be thrown
        away), so digging never leads to a position without a legal move.
        """
        f = self.F[p]
        d = self.pd[p]
        darkl = self.fac[p] == DARKLINGS
        if not darkl and not f.dig_workers[d[DIG]]:
            return False
        rate = 1 if darkl else f.dig_workers[d[DIG]]
        w_left, p_left = (d[W], d[P] - 1) if darkl else (d[W] - rate, d[P])
        if w_left < 0 or p_left < 0:
            return False
        want = held + 1
        home = f.home
        giants = self.fac[p] == GIANTS
        home_only = self.ctx[X_HOME]
        occupied = self._occupied()
        direct, tele = self._reachable(p, False)
        tw, tp = self._tele_payment(p) if tele else (0, 0)
        for cell in iter_bits((direct | tele) & LAND_MASK & ~occupied):
            cur = self.terrain[cell]
            ew, ep = (tw, tp) if tele >> cell & 1 else (0, 0)
            for t in range(7):
                if t == cur or ((giants or home_only) and t != home):
                    continue
                c = spade_cost(cur, t, home, giants, want)
                if c < want:
                    continue
                more = c - want
                nw, npr = (ew, ep + more) if darkl else (ew + more * rate, ep)
                if nw <= w_left and npr <= p_left:
                    return True
        return False

    def _optional_build(self, p: int, out: list[int]) -> None:
        """The dwelling a terraform action may still add on a hex it turned to home terrain."""
        x = self.ctx
        if not x[X_BUILD] or x[X_SPADES] or not self.build_locs:
            return
        d = self.pd[p]
        f = self.F[p]
        if d[NB + 1] >= 8:
            return
        dw, dc = f.costs[1]
        if d[W] < dw or d[C] < dc:
            return
        k = (A.K_BUILD + f.home) * NUM_CELLS
        for cell in self.build_locs:
            if not self.bld[cell] and self.terrain[cell] == f.home:
                out.append(k + cell)

    def _spade_actions(self, p: int, out: list[int]) -> None:
        """Board actions while spades (or a free terraform, dwelling, trading post) are held."""
        x = self.ctx
        d = self.pd[p]
        f = self.F[p]
        home = f.home
        nb = NUM_CELLS
        if x[X_FREE_D]:
            if d[NB + 1] < 8:
                k = (A.K_BUILD + home) * nb
                out.extend(k + c for c in LAND_CELLS if self.terrain[c] == home and not self.bld[c])
            return
        if x[X_FREE_TP]:
            if d[NB + 2] < 4:
                out.extend(A.K_TP * nb + c for c in iter_bits(self.mine[p]) if self.bld[c] == 1)
            return
        if x[X_FREE_TF]:
            dw, dc = f.costs[1]
            can_build = d[NB + 1] < 8 and d[W] >= dw and d[C] >= dc
            for c in iter_bits(self._sandstorm_targets(p)):
                out.append(home * nb + c)
                if can_build:
                    out.append((A.K_BUILD + home) * nb + c)
            return
        spades = x[X_SPADES]
        income = x[X_INCOME] == 1
        tf_left = x[X_TF]
        if tf_left == 0 and not income:
            return
        occupied = self._occupied()
        direct, tele = self._reachable(p, income)
        fid = self.fac[p]
        giants = fid == GIANTS
        darkl = fid == DARKLINGS
        rate = 1 if darkl else f.dig_workers[d[DIG]]
        tw, tp = self._tele_payment(p) if tele else (0, 0)
        dw, dc = f.costs[1]
        d_ok = d[NB + 1] < 8 and x[X_BUILD] and not income
        home_only = x[X_HOME]
        dig_ok = x[X_DIG] and not income
        w_have, p_have = d[W], d[P]
        m = (direct | tele) & LAND_MASK & ~occupied
        while m:
            low = m & -m
            cell = low.bit_length() - 1
            m ^= low
            ew, ep = (tw, tp) if tele & low else (0, 0)
            cur = self.terrain[cell]
            for t in range(7):
                if t == cur or ((giants or home_only) and t != home):
                    continue
                c = spade_cost(cur, t, home, giants, spades)
                need = c - spades
                if need > 0:
                    if not dig_ok:
                        continue
                    if darkl:
                        nw, npr = ew, ep + need
                    else:
                        nw, npr = ew + need * rate, ep
                    left = 0
                    tf_after = 0
                else:
                    nw, npr = ew, ep
                    left = -need
                    tf_after = tf_left - 1 if tf_left > 0 else tf_left
                if nw > w_have or npr > p_have:
                    continue
                if left and tf_after == 0 and not income and (t != home or x[X_NODECL]):
                    continue  # dug spades must all be used (engine); no dead ends
                out.append(t * nb + cell)
                if t == home and d_ok and not left and nw + dw <= w_have and dc <= d[C]:
                    out.append((A.K_BUILD + home) * nb + cell)
