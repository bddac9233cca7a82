"""Carrying out a legal decision: the dispatch, and the actions that are not on the board.

:class:`Decisions` is a mixin of
:class:`~stratagem.envs.terra_mystica.rules.TerraMysticaState`. ``_do`` sends a decision
to its phase (setup, leech, the Cultists' step) or, in a turn, to the board actions
(:mod:`~stratagem.envs.terra_mystica.board_actions`), the tile choices
(:mod:`~stratagem.envs.terra_mystica.tile_actions`), or the main actions and free
conversions held here: pass, shipping and digging tracks, priests to the cult tracks, the
power actions, bonus-tile, favor and faction actions, bridges, and the Mermaids' river towns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stratagem.envs.terra_mystica import actions as A
from stratagem.envs.terra_mystica.buildings import detect_town
from stratagem.envs.terra_mystica.context import (
    ACTION,
    CULTIST,
    INCOME_SPADES,
    LEECH,
    SETUP_BONUS,
    SETUP_DWELLING,
    X_ACTIONS,
    X_BRIDGE,
    X_BUILD,
    X_CSTEPS,
    X_CULT,
    X_DIG,
    X_FAV,
    X_FREE_D,
    X_FREE_TF,
    X_FREE_TP,
    X_HOME,
    X_NODECL,
    X_SPADES,
    X_TCULT,
    X_TF,
    X_WP,
    _put,
)
from stratagem.envs.terra_mystica.cults import ORDER_SPACE_STEPS, advance_cult
from stratagem.envs.terra_mystica.factions import (
    ALCHEMISTS,
    AUREN,
    CHAOSMAGICIANS,
    CULTISTS,
    ENGINEERS,
    GIANTS,
    NOMADS,
    SWARMLINGS,
    WITCHES,
)
from stratagem.envs.terra_mystica.fields import (
    BLOCKED,
    BON,
    BON_USED,
    BRIDGES,
    CULTP,
    DIG,
    FAV6_USED,
    FAVS,
    MAXP,
    P1,
    P3,
    PASSED,
    SH_USED,
    VP,
    C,
    P,
    W,
)
from stratagem.envs.terra_mystica.map import BRIDGE_SLOTS, NUM_CELLS, RIVER_CELLS
from stratagem.envs.terra_mystica.power import POWER_ACTION_COST, burn, gain_priests

if TYPE_CHECKING:
    from stratagem.envs.terra_mystica.rules import TerraMysticaGame

__all__ = ["Decisions"]


class Decisions:
    """A decision carried out; main actions and conversions (a mixin of ``TerraMysticaState``)."""

    __slots__ = ()
    game: TerraMysticaGame

    def _do(self, a: int) -> None:
        ph = self.phase
        if ph == SETUP_DWELLING:
            p = self.setup_queue[0][0]
            self.setup_queue = self.setup_queue[1:]
            cell = a % NUM_CELLS
            self._place_building(p, cell, 1)
            self._trace_row(p, "build")
            self._advance_setup()
            return
        if ph == SETUP_BONUS:
            p = self.setup_queue[0][0]
            self.setup_queue = self.setup_queue[1:]
            tile = a - A.A_PASS if a < A.A_TOWN else 9
            self._take_bonus(p, tile)
            self.pd[p][PASSED] = 1
            self._trace_row(p, "turn over")
            self._advance_setup()
            return
        if ph == LEECH:
            if a == A.X_BURN:
                burn(self.pd[self.current_player], 1)
                return
            self._decide_leech(a == A.X_ACCEPT)
            self._resolve()
            return
        if ph == CULTIST:
            p = self.fac.index(CULTISTS)
            advance_cult(self.pd, p, a - A.X_CULT, 1)
            self.pd[p][BLOCKED] = 0  # out of their turn: no key comes to lift it
            self.cpend -= 1
            self._resolve()
            return
        p = self.act
        if a < A.NUM_BOARD:
            self._do_board(p, a % NUM_CELLS, a // NUM_CELLS)
        elif a >= A.X_BURN and a < A.X_WP:
            self._do_conversion(p, a)
        elif a >= A.X_CONNECT:
            self._do_connect(p, RIVER_CELLS[a - A.X_CONNECT])
        elif a == A.X_END:
            self._end_turn()
            return
        elif a == A.X_DISCARD:
            if self.ctx[X_TCULT]:
                self._town_top(p, take=False)
            else:
                self.ctx[X_SPADES] = 0
        elif a == A.X_DIG1:
            if not self.ctx[X_SPADES]:
                self._start_action(p)
            self._dig(p, 1)
            self.ctx[X_NODECL] = 1
        elif A.X_WP <= a < A.X_DISCARD:
            k = a - A.X_WP
            d = self.pd[p]
            d[W] -= k
            gain_priests(d, k)
            self.ctx[X_WP] = 0
        elif A.A_TOWN <= a < A.A_TOWN + 5 or A.X_TOWN <= a < A.X_TOWN + 3:
            self._take_town(p, a - A.A_TOWN if a < A.PAPER_SIZE else a - A.X_TOWN + 5)
        elif A.X_FAV <= a < A.X_FAV + 12:
            self._take_favor(p, a - A.X_FAV)
        elif A.X_CULT <= a < A.X_CULT + 4 and self.ctx[X_TCULT]:
            self._town_top(p, take=True)
        elif A.X_CULT <= a < A.X_CULT + 4:
            self.ctx[X_CULT] -= 1
            advance_cult(self.pd, p, a - A.X_CULT, self.ctx[X_CSTEPS])
        elif A.X_BRIDGE <= a < A.X_BRIDGE + 29:
            self._place_bridge(p, a - A.X_BRIDGE)
        else:
            self._do_main(p, a)
        self._after_step()

    def _after_step(self) -> None:
        """Close an income-spade turn once its spades are gone; drop unfillable favor picks."""
        x = self.ctx
        if self.phase == ACTION and x[X_FAV]:
            favs = self.pd[self.act][FAVS]
            if not any(self.fav_supply[i] and not favs >> i & 1 for i in range(12)):
                x[X_FAV] = 0
        if self.phase == INCOME_SPADES and self.ctx[X_SPADES] == 0:
            self._trace_row(self.act, "turn over")
            p = self.inc_queue[0]
            self.inc_queue = self.inc_queue[1:]
            self.inc_spades = _put(self.inc_spades, p, 0)
            self._next_income_spades()

    def _advance_setup(self) -> None:
        if self.setup_queue:
            p, kind = self.setup_queue[0]
            self.phase = SETUP_DWELLING if kind == 0 else SETUP_BONUS
            self.current_player = p
            return
        self._other_income()

    def _do_main(self, p: int, a: int) -> None:
        d = self.pd[p]
        f = self.F[p]
        x = self.ctx
        fid = self.fac[p]
        if a >= A.A_PASS or a == A.X_PASS_NONE:
            self._start_action(p)
            tile = -1 if a == A.X_PASS_NONE else (9 if a == A.X_PASS_BON10 else a - A.A_PASS)
            self._pass(p, tile)
            return
        self._start_action(p)
        if a == A.A_SHIP:
            d[C] -= 4
            d[P] -= 1
            self._gain_ship(p)
        elif a == A.A_DIG:
            aw, ac, ap = f.dig_advance
            d[W] -= aw
            d[C] -= ac
            d[P] -= ap
            d[DIG] += 1
            d[VP] += 6
        elif a < A.A_POWER:
            i = a - A.A_PRIEST
            track, j = divmod(i, 3)
            steps = 1
            if j < 2:
                slots = (0,) if j == 0 else (1, 2, 3)
                for s in slots:
                    if self.cult_spaces[4 * track + s] < 0:
                        self.cult_spaces = _put(self.cult_spaces, 4 * track + s, p)
                        steps = ORDER_SPACE_STEPS[s]
                        d[MAXP] -= 1
                        d[CULTP] += 1
                        break
            advance_cult(self.pd, p, track, steps)
            d[P] -= 1
        elif a < A.A_BON1:
            i = a - A.A_POWER
            d[P3] -= POWER_ACTION_COST[i]
            d[P1] += POWER_ACTION_COST[i]
            self.act_used |= 1 << i
            if i == 0:
                x[X_BRIDGE] = 1
            elif i == 1:
                gain_priests(d, 1)
            elif i == 2:
                d[W] += 2
            elif i == 3:
                d[C] += 7
            else:
                self._spade_context(p, 1 if i == 4 else 2, 1 if i == 4 else 2)
        elif a == A.A_BON1:
            d[BON_USED] = 1
            self._spade_context(p, 1, 1)
        elif a == A.A_CULTACT:
            if d[BON] == 1 and not d[BON_USED]:
                d[BON_USED] = 1
            else:
                d[FAV6_USED] = 1
            x[X_CULT] = 1
            x[X_CSTEPS] = 1
        elif a == A.A_FACTION:
            if fid == ENGINEERS:
                d[W] -= 2
                x[X_BRIDGE] = 1
                return
            d[SH_USED] = 1
            if fid == AUREN:
                x[X_CULT] = 1
                x[X_CSTEPS] = 2
            elif fid == CHAOSMAGICIANS:
                x[X_ACTIONS] += 2
            elif fid == GIANTS:
                self._spade_context(p, 2, 1)
            elif fid == NOMADS:
                x[X_FREE_TF] = 1
                x[X_BUILD] = 1
            elif fid == SWARMLINGS:
                x[X_FREE_TP] = 1
            elif fid == WITCHES:
                x[X_FREE_D] = 1

    def _spade_context(self, p: int, spades: int, transforms: int) -> None:
        x = self.ctx
        x[X_TF] = transforms
        x[X_BUILD] = 1
        x[X_DIG] = 1
        x[X_HOME] = 0
        self.build_locs = ()
        self._gain_spades(p, spades)

    def _do_conversion(self, p: int, a: int) -> None:
        d = self.pd[p]
        if a == A.X_BURN:
            burn(d, 1)
            return
        i = a - A.X_CONV
        if i == 0:
            d[P3] -= 1
            d[P1] += 1
            d[C] += 1
        elif i == 1:
            d[P3] -= 3
            d[P1] += 3
            d[W] += 1
        elif i == 2:
            d[P3] -= 5
            d[P1] += 5
            gain_priests(d, 1)
        elif i == 3:
            d[P] -= 1
            d[W] += 1
        elif i == 4:
            d[P] -= 1
            d[C] += 1
        elif i == 5:
            d[W] -= 1
            d[C] += 1
        elif i == 6:
            d[C] -= 2 if self.fac[p] == ALCHEMISTS else 3
            d[VP] += 1
        else:
            d[VP] -= 1
            d[C] += 1

    def _do_connect(self, p: int, river: int) -> None:
        from stratagem.envs.terra_mystica.map import RIVER_LAND

        self.mriv |= 1 << river
        for cell in RIVER_LAND[river]:
            detect_town(self, p, cell)

    def _place_bridge(self, p: int, slot: int) -> None:
        self.ctx[X_BRIDGE] = 0
        self.bmask |= 1 << slot
        self.bown = _put(self.bown, slot, p)
        self.pd[p][BRIDGES] += 1
        a, b = BRIDGE_SLOTS[slot]
        detect_town(self, p, a)
        detect_town(self, p, b)
