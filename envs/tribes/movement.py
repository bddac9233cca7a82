"""Movement: where a unit can go this move, searched over the reference's step costs.

Facts come from ``specs/tribes_rules.md`` sections 5-6 and the reference's ``StepMove`` and
``Board``. A decision where the reference misbehaves (listed on the docs page):

* Movement is a clean Dijkstra over the reference's step costs (roads halve a step from a
  road or city tile that is neutral or the mover's own; forest, mountain, embarking,
  disembarking and enemy zones of control end the move; a step is accepted if
  ``floor(cost) <= movement``). The reference's search updates costs without re-expanding nodes;
  with these monotone costs the clean search gives the intended reachable set.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from typing import TYPE_CHECKING

from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes.units import (
    _MOV,
    _TECH_CLIMBING,
    _TECH_NAVIGATION,
    _TECH_SAILING,
    U_POS,
    U_TRIBE,
    U_TYPE,
)

if TYPE_CHECKING:
    from stratagem.envs.tribes.rules import TribesState


def _step_kinds(utype: int, techs: int) -> tuple[int, ...]:
    """Per terrain, how a unit of ``utype`` steps onto it.

    0 never, 1 a full step, 2 the step ends the move, 3 only onto a port (ends the move), 4 a
    city (Mind Benders enter only their own).
    """
    climb = bool(techs & _TECH_CLIMBING)
    sail = bool(techs & _TECH_SAILING)
    navigate = bool(techs & _TECH_NAVIGATION)
    kinds = [0] * 8
    if utype in C.WATER_UNITS:
        kinds[C.SHALLOW_WATER] = 1 if sail else 0
        kinds[C.DEEP_WATER] = 1 if navigate else 0
        kinds[C.FOG] = 1
        for ter in (C.PLAIN, C.CITY, C.VILLAGE, C.FOREST):
            kinds[ter] = 2
        kinds[C.MOUNTAIN] = 2 if climb else 0
    else:
        kinds[C.PLAIN] = kinds[C.VILLAGE] = kinds[C.FOG] = 1
        kinds[C.CITY] = 4 if utype == C.MIND_BENDER else 1
        kinds[C.FOREST] = 2
        kinds[C.MOUNTAIN] = 2 if climb else 0
        kinds[C.SHALLOW_WATER] = 3 if sail else 0
        kinds[C.DEEP_WATER] = 3 if navigate else 0
    return tuple(kinds)


_STEP_KINDS = {}


def move_costs(
    s: TribesState,
    uid: int,
    zoc: bytearray,
    enemy: bytearray | None = None,
    searched: list[int] | None = None,
) -> dict[int, float]:
    """Cheapest movement cost to every tile the unit can reach this move (start included).

    ``zoc[tile]`` is nonzero when a unit of another tribe stands next to ``tile``; ``enemy[tile]``
    when one stands on it (both from :func:`zone_of_control`). ``searched``, if given, receives
    the tiles the search went on from (:func:`reachable` tells from them how far it read); a
    unit with one move point off roads and cities steps once, without a search, and leaves it
    empty.
    """
    unit = s.units[uid]
    tribe = unit[U_TRIBE]
    utype = unit[U_TYPE]
    if enemy is None:
        zoc, enemy = zone_of_control(s, tribe)
    mov = float(_MOV[utype])
    start = unit[U_POS]
    techs = s.techs[tribe]
    key = (utype, techs & (_TECH_CLIMBING | _TECH_SAILING | _TECH_NAVIGATION))
    kinds = _STEP_KINDS.get(key)
    if kinds is None:
        kinds = _STEP_KINDS[key] = _step_kinds(utype, techs)
    water_unit = utype in C.WATER_UNITS
    terrain = s.terrain
    network, tile_city, building, cities = s.network, s.tile_city, s.building, s.cities
    vis = s.vis[tribe] if s.game.partial else None
    nb1 = s.geo.nb1
    costs = {start: 0.0}
    CITY, SHALLOW, DEEP, PORT = C.CITY, C.SHALLOW_WATER, C.DEEP_WATER, C.PORT
    if searched is None:
        searched = []
    if mov == 1.0:
        ter0 = terrain[start]
        if ter0 != CITY and not network[start]:
            # no road to halve a step: every passable neighbour costs the single move point
            for tile in nb1[start]:
                if enemy[tile]:
                    continue
                kind = kinds[terrain[tile]]
                if kind == 0:
                    continue
                if kind == 3:
                    if building[tile] != PORT:
                        continue
                elif kind == 4:
                    cid = tile_city[tile]
                    city = cities.get(cid) if cid else None
                    if city is None or city[1] != tribe:
                        continue
                if vis is not None and not vis[tile]:
                    continue
                costs[tile] = 1.0
            return costs
    # A tile reached at a cost of ``mov`` or ``mov + 0.5`` and more leads nowhere (every step
    # costs at least 0.5 and a step into a zone of control costs ``mov``), so it is recorded
    # but never searched from. Between ``mov`` and ``mov + 0.5`` (quarter costs from halved
    # forest steps) a further step may still round down to ``mov``.
    dead_end = mov + 0.5
    beyond = mov + 1.0
    heap = [(0.0, start)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        cost, frm = pop(heap)
        if cost > costs[frm]:
            continue
        searched.append(frm)
        rest = mov - cost if cost < mov else mov
        on_road = False
        if not water_unit:
            ter_f = terrain[frm]
            if ter_f == CITY or (network[frm] and ter_f != SHALLOW and ter_f != DEEP):
                cid = tile_city[frm]
                if not cid:
                    on_road = True
                else:
                    city = cities.get(cid)
                    on_road = city is not None and city[1] == tribe
        for tile in nb1[frm]:
            old = costs.get(tile)
            if old is not None and old <= cost:
                continue  # settled: a step costs more than nothing, so it cannot improve
            if enemy[tile]:
                continue
            ter = terrain[tile]
            kind = kinds[ter]
            if kind == 1:
                step = 1.0
            elif kind == 2:
                step = rest
            elif kind == 0:
                continue
            elif kind == 3:
                if building[tile] != PORT:
                    continue
                step = rest
            else:  # a Mind Bender enters only its own tribe's cities
                cid = tile_city[tile]
                city = cities.get(cid) if cid else None
                if city is None or city[1] != tribe:
                    continue
                step = 1.0
            if vis is not None and not vis[tile]:
                continue
            if on_road and (ter == CITY or (network[tile] and kind != 3)):
                step = step / 2.0
                if step < 0.5:
                    step = 0.5
            if zoc[tile]:
                new = cost + rest
                if new > mov:
                    continue
            else:
                new = cost + step
                if new >= beyond:  # int(new) > mov, costs being positive
                    continue
            if old is None or new < old:
                costs[tile] = new
                if new < dead_end and new != mov:
                    push(heap, (new, tile))
    return costs


def reachable(s: TribesState, uid: int, zoc: bytearray, enemy: bytearray) -> tuple[list[int], int]:
    """The tiles :func:`move_costs` finds for the unit (start left out), and how far it read.

    The second value is the Chebyshev distance from the unit's tile within which the answer
    read the board and the enemy tiles (what a remembered answer depends on, besides the
    unit, its technologies and the mover's visibility: ``legal._move_targets``):

    * one move point off roads and cities (``move_costs`` steps once): the neighbours, 1;
    * one move point on a road (:func:`_reach_one`, no search): 2, the neighbours' zone of
      control and the neighbours of those reached for half a point;
    * a search: :data:`MOVE_MARGIN` beyond the tiles it went on from (their neighbours are
      examined, and the zone of control of those comes from enemies next to them).
    """
    unit = s.units[uid]
    pos = unit[U_POS]
    if _MOV[unit[U_TYPE]] == 1 and _on_road(s, pos, unit[U_TRIBE]):
        return _reach_one(s, unit, zoc, enemy), 2
    searched: list[int] = []
    costs = move_costs(s, uid, zoc, enemy, searched)
    del costs[pos]
    if not searched:
        return list(costs), 1
    dist = s.geo.dist_row(pos)
    return list(costs), max(map(dist.__getitem__, searched)) + MOVE_MARGIN


#: How far beyond the tiles a search went on from it reads the board: their neighbours are
#: examined (1), and the zone of control of those comes from enemies next to them (2).
MOVE_MARGIN = 2


def _reach_one(s: TribesState, unit: list[int], zoc: bytearray, enemy: bytearray) -> list[int]:
    """:func:`reachable` for a (land) unit with one move point on a road, without the search.

    With one point, every passable neighbour is reached: a step costs 1 at most (a full step,
    one that ends the move, one into a zone of control). A neighbour reached for half a point (a
    road step from the unit's road or city onto a road or city, not into a zone of control)
    lets the unit go on to each passable neighbour of it (for 1.5 at most, which rounds down to
    the 1 point); a tile reached for a whole point or more leads nowhere. This is exactly what
    the search of :func:`move_costs` does with ``mov == 1`` from a road.
    """
    tribe = unit[U_TRIBE]
    start = unit[U_POS]
    kinds = _kinds(unit[U_TYPE], s.techs[tribe])
    nb1 = s.geo.nb1
    terrain, network = s.terrain, s.network
    first = _passable(s, nb1[start], kinds, tribe, enemy)
    reached = [tile for tile, _ in first]
    further = set()
    for tile, kind in first:
        if not zoc[tile] and (terrain[tile] == C.CITY or (network[tile] and kind != 3)):
            further.update(nb1[tile])  # reached for half a point: one more step
    if further:
        further.difference_update(reached)
        further.discard(start)
        reached.extend(tile for tile, _ in _passable(s, sorted(further), kinds, tribe, enemy))
    return reached


def _passable(
    s: TribesState, tiles: Iterable[int], kinds: tuple[int, ...], tribe: int, enemy: bytearray
) -> list[tuple[int, int]]:
    """``(tile, step kind)`` of the ``tiles`` a unit of ``tribe`` may step onto.

    As in :func:`move_costs`: seen, no enemy on it, terrain allowed, a port for a land unit
    going to sea, its own city for a Mind Bender.
    """
    terrain, building, tile_city, cities = s.terrain, s.building, s.tile_city, s.cities
    vis = s.vis[tribe] if s.game.partial else None
    out = []
    for tile in tiles:
        if enemy[tile]:
            continue
        kind = kinds[terrain[tile]]
        if kind == 0:
            continue
        if kind == 3:
            if building[tile] != C.PORT:
                continue
        elif kind == 4:
            cid = tile_city[tile]
            city = cities.get(cid) if cid else None
            if city is None or city[1] != tribe:
                continue
        if vis is not None and not vis[tile]:
            continue
        out.append((tile, kind))
    return out


def _on_road(s: TribesState, tile: int, tribe: int) -> bool:
    """A land unit of ``tribe`` on ``tile`` moves at road speed (as in :func:`move_costs`)."""
    ter = s.terrain[tile]
    if ter == C.CITY or (s.network[tile] and ter != C.SHALLOW_WATER and ter != C.DEEP_WATER):
        cid = s.tile_city[tile]
        if not cid:
            return True
        city = s.cities.get(cid)
        return city is not None and city[1] == tribe
    return False


def _kinds(utype: int, techs: int) -> tuple[int, ...]:
    """:func:`_step_kinds`, cached per unit type and movement technologies."""
    key = (utype, techs & (_TECH_CLIMBING | _TECH_SAILING | _TECH_NAVIGATION))
    kinds = _STEP_KINDS.get(key)
    if kinds is None:
        kinds = _STEP_KINDS[key] = _step_kinds(utype, techs)
    return kinds


def zone_of_control(s: TribesState, tribe: int) -> tuple[bytearray, bytearray]:
    """Per tile: is a unit of another tribe next to it (zone of control), and on it."""
    n = s.geo.n
    zoc = bytearray(n)
    enemy = bytearray(n)
    nb1 = s.geo.nb1
    for unit in s.units.values():
        if unit[U_TRIBE] != tribe:
            pos = unit[U_POS]
            enemy[pos] = 1
            for tile in nb1[pos]:
                zoc[tile] = 1
    return zoc, enemy
