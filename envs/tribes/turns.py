"""Turns: carrying out a decision, ending a turn, starting the next, ending the game.

:class:`TurnFlow` is a mixin of :class:`~stratagem.envs.tribes.rules.TribesState` holding what
:meth:`apply` does once an action is known to be legal: the unit, city and tribe actions are
dispatched to :mod:`~stratagem.envs.tribes.units` and :mod:`~stratagem.envs.tribes.cities`, and
the end of a turn hands over to the next tribe still playing (production, unit refresh,
pacifism), counts the turns and ends the game (capitals held, tribes left, the turn limit) with
the ranking of the rules' docstring.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from stratagem.envs.tribes import actions as A
from stratagem.envs.tribes import cities as CT
from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes import techtree
from stratagem.envs.tribes import units as UN
from stratagem.envs.tribes.cities import C_POS, C_WORTH
from stratagem.envs.tribes.units import U_STATUS, U_TRIBE

if TYPE_CHECKING:
    from stratagem.envs.tribes.rules import TribesGame

__all__ = ["TurnFlow"]


class TurnFlow:
    """Actions carried out, turns ended and begun, the game ended (a mixin of ``TribesState``)."""

    __slots__ = ()
    game: TribesGame

    def _execute(self, action: int) -> bool:
        """Carry out a legal non-end-turn action; True if it was a capture."""
        n = self.geo.n
        plane, tile = divmod(action, n)
        t = self.current_player
        if plane >= A.CAPTURE:  # moves, attacks and converts never write the board
            self._own_board()
        if plane >= A.NUM_PLANES:
            tech = action - A.NUM_PLANES * n
            cost = techtree.research_cost(tech, len(self.tcities[t]), self.techs[t])
            CT.research(self, t, tech, cost)
            return False
        kind, dr, dc, param = A.PLANE_INFO[plane]
        if plane <= A.UPGRADE:
            uid = self.unit_at[tile]
            if dr or dc:
                row, col = self.geo.rc[tile]
                target = (row + dr) * self.geo.size + (col + dc)
                if kind == "move":
                    UN.do_move(self, uid, target)
                elif kind == "attack":
                    UN.do_attack(self, uid, self.unit_at[target])
                else:
                    UN.do_convert(self, uid, self.unit_at[target])
                return False
            if kind == "capture":
                CT.capture(self, uid)
                return True
            if kind == "examine":
                UN.do_examine(self, uid)
            elif kind == "disband":
                UN.do_disband(self, uid)
            elif kind == "heal":
                UN.do_heal(self, uid)
            elif kind == "veteran":
                UN.do_make_veteran(self, uid)
            elif kind == "recover":
                UN.do_recover(self, uid)
            else:
                UN.do_upgrade(self, uid)
            return False
        if plane == A.BUILD_ROAD:
            self.stars[t] -= C.ROAD_COST
            self.network[tile] = 1
            CT.update_network_all(self)
            return False
        cid = self.tile_city[tile]
        if kind == "level_up":
            CT.do_level_up(self, cid, param)
        elif kind == "spawn":
            CT.do_spawn(self, cid, param)
        elif kind == "build":
            CT.do_build(self, cid, tile, param)
        elif kind == "harvest":
            CT.do_harvest(self, cid, tile)
        elif kind == "clear_forest":
            CT.do_clear_forest(self, cid, tile)
        elif kind == "burn_forest":
            CT.do_burn_forest(self, cid, tile)
        elif kind == "grow_forest":
            CT.do_grow_forest(self, cid, tile)
        else:
            CT.do_destroy(self, cid, tile)
        return False

    def _end_turn(self) -> None:
        t = self.current_player
        units = self.units
        for uid in UN.tribe_units(self, t):
            if UN.can_recover(units[uid]):
                UN.do_recover(self, uid)
        self._legal = None
        self._check_game_over()
        if self.game_over:
            return
        n = self.num_tribes
        nxt = t
        wrapped = False
        while True:
            nxt = (nxt + 1) % n
            if nxt == 0:
                wrapped = True
            if self.result[nxt] != C.LOSS:
                break
        if wrapped:
            self.tick += 1
            self._check_game_over()
            if self.game_over:
                return
        self.current_player = nxt
        self._init_turn(nxt)

    def _init_turn(self, t: int) -> None:
        cities, units, unit_at = self.cities, self.units, self.unit_at
        prod = 0
        for cid in self.tcities[t]:
            city = cities[cid]
            occupant = unit_at[city[C_POS]]
            if not occupant or units[occupant][U_TRIBE] == t:
                prod += CT.production(city)
            if self.temples:
                for tile in CT.city_buildings(self, cid):
                    if tile in self.temples:
                        points = CT.temple_turn(self, tile)
                        if points:
                            self.score[t] += points
                            city[C_WORTH] += points
        if self.tick == 0:
            self.score[t] = C.TRIBES[self.tribe_type[t]].initial_score
            self.stars[t] = C.INITIAL_STARS
        else:
            CT.add_stars(self, t, max(0, prod))
        for uid in UN.tribe_units(self, t):
            unit = units[uid]
            unit[U_STATUS] = C.MOVED if unit[U_STATUS] == C.PUSHED else C.FRESH
        if self.techs[t] >> C.MEDITATION & 1:
            self.pacifist[t] += 1
            mon = self.monuments[t]
            k = C.ALTAR_OF_PEACE - C.ALTAR_OF_PEACE
            if self.pacifist[t] >= C.ALTAR_OF_PEACE_TURNS and mon[k] == C.MONUMENT_UNAVAILABLE:
                mon[k] = C.MONUMENT_AVAILABLE
        self._legal = None

    def _check_game_over(self) -> None:
        ended = False
        n = self.num_tribes
        if self.game.mode == C.CAPITALS:
            caps = self.capital
            for t in range(n):
                if self.result[t] == C.LOSS:
                    continue
                owned = self.tcities[t]
                if all(cap in owned for cap in caps):
                    self.result[t] = C.WIN
                    ended = True
                    break
        else:
            ended = sum(1 for r in self.result if r != C.LOSS) <= 1
        if ended or self.tick > self.game.max_turns:
            order = self.current_ranking(tie_break=self.shuffled(range(n)))
            for k, t in enumerate(order):
                self.result[t] = C.WIN if k == 0 else C.LOSS
            self.ranking = tuple(order)
            self.game_over = True
            self._legal = []

    def current_ranking(self, tie_break: Sequence[int] | None = None) -> list[int]:
        """Tribes best first: win, survival, score, techs, cities, production, tie-break order."""
        pos = {t: k for k, t in enumerate(tie_break if tie_break is not None else range(99))}

        def key(t: int) -> tuple:
            return (
                self.result[t] != C.WIN,
                self.result[t] == C.LOSS,
                -self.score[t],
                -techtree.num_researched(self.techs[t]),
                -len(self.tcities[t]),
                -CT.tribe_production(self, t),
                pos.get(t, t),
            )

        return sorted(range(self.num_tribes), key=key)
