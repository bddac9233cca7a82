"""Units: movement, vision, combat and every unit action of the reference's 1.0 rules.

The functions take the state (``rules.TribesState``) and read or change its plain lists. A
unit is a small list indexed by the ``U_*`` constants below. Facts come from
``specs/tribes_rules.md`` sections 4-6, 10-13 and the reference's ``Unit``, ``StepMove``,
``Board`` and unit-action classes.

Decisions where the reference misbehaves (each listed on the docs page):

* Movement is a clean Dijkstra over the reference's step costs (roads halve a step from a
  road or city tile that is neutral or the mover's own; forest, mountain, embarking,
  disembarking and enemy zones of control end the move; a step is accepted if
  ``floor(cost) <= movement``). The reference's search updates costs without re-expanding nodes;
  with these monotone costs the clean search gives the intended reachable set.
* A pushed water unit moves to an empty water tile (the reference "pushes" it without moving it,
  leaving two units on one tile); with no such tile it dies.
* The Battleship found in ruins carries a Warrior with the Warrior's health (the reference
  gives it -1 health, so it dies to any attack).
* Meeting a tribe never meets oneself, and a revealed unit's tribe meets the revealer when it
  sees that tile too (the reference adds the revealer to its own list instead).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from itertools import compress
from operator import not_ as _not
from typing import TYPE_CHECKING

from stratagem.envs.tribes import actions as _AP
from stratagem.envs.tribes import combat
from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes.memo import (
    MOVE_MARGIN,
    BoardMemo,
    Context,
    MoveTargets,
    UnitPlan,
    move_entry,
    remember,
)

if TYPE_CHECKING:
    from stratagem.envs.tribes.rules import TribesState

U_TYPE, U_TRIBE, U_POS, U_HP, U_MAXHP, U_KILLS, U_VET, U_CITY, U_STATUS, U_BASE = range(10)

_TECH_CLIMBING = 1 << C.CLIMBING
_TECH_SAILING = 1 << C.SAILING
_TECH_NAVIGATION = 1 << C.NAVIGATION
_TECH_FREE_SPIRIT = 1 << C.FREE_SPIRIT
_LAND_TERRAIN = frozenset((C.CITY, C.PLAIN, C.FOREST, C.VILLAGE, C.MOUNTAIN))
_END_MOVE_TERRAIN = frozenset((C.FOREST, C.MOUNTAIN))
_AFTER_MOVE = C.AFTER_MOVE
_AFTER_ATTACK = C.AFTER_ATTACK
_MOV = tuple(u.movement for u in C.UNITS)
_RANGE = tuple(u.range for u in C.UNITS)
_ATK = tuple(u.attack for u in C.UNITS)
_DEF = tuple(u.defence for u in C.UNITS)
_POINTS = tuple(u.points for u in C.UNITS)
_COST = tuple(u.cost for u in C.UNITS)
#: Push offsets (drow, dcol) in the reference's order.
_PUSH = ((0, 1), (-1, 0), (0, -1), (1, 0), (-1, 1), (-1, -1), (1, -1), (1, 1))


def new_unit(
    utype: int,
    tribe: int,
    pos: int,
    city: int,
    hp: int | None = None,
    max_hp: int | None = None,
    kills: int = 0,
    veteran: bool = False,
    status: int = C.FINISHED,
    base: int = -1,
) -> list[int]:
    """A unit record; new units start FINISHED (they act from their tribe's next turn)."""
    if max_hp is None:
        max_hp = C.UNITS[utype].max_hp
    if hp is None:
        hp = max_hp
    return [utype, tribe, pos, hp, max_hp, kills, int(veteran), city, status, base]


# ------------------------------------------------------------------------------------ bookkeeping


def add_unit(s: TribesState, unit: list[int]) -> int:
    """Place ``unit`` on the board and in its city (or the tribe's extra units); return its id.

    A unit whose city has no room left becomes an extra unit of its tribe (the reference leaves
    it in no list at all, frozen on its tile).
    """
    uid = s.next_id
    s.next_id += 1
    s.units[uid] = unit
    s.unit_at[unit[U_POS]] = uid
    cid = unit[U_CITY]
    if cid:
        city = s.cities[cid]
        if len(city[9]) < city[2] + 1:  # C_UNITS, C_LEVEL
            city[9].append(uid)
            return uid
        unit[U_CITY] = 0
    s.extra[unit[U_TRIBE]].append(uid)
    return uid


def detach_unit(s: TribesState, uid: int) -> None:
    """Take a unit out of its city's list or its tribe's extra units."""
    unit = s.units[uid]
    cid = unit[U_CITY]
    city = s.cities.get(cid) if cid else None
    if city is not None and uid in city[9]:
        city[9].remove(uid)
    else:
        extra = s.extra[unit[U_TRIBE]]
        if uid in extra:
            extra.remove(uid)


def remove_unit(s: TribesState, uid: int) -> None:
    """Remove a unit from the board, its lists and the actor table (no score change)."""
    unit = s.units[uid]
    if s.unit_at[unit[U_POS]] == uid:
        s.unit_at[unit[U_POS]] = 0
    detach_unit(s, uid)
    del s.units[uid]


def kill_unit(s: TribesState, uid: int) -> None:
    """A unit dies: removed, and its tribe loses the unit's score points."""
    unit = s.units[uid]
    s.score[unit[U_TRIBE]] -= _POINTS[unit[U_TYPE]]
    remove_unit(s, uid)


def tribe_units(s: TribesState, tribe: int) -> list[int]:
    """Ids of a tribe's units: those of each city in city order, then the extra units."""
    out: list[int] = []
    cities = s.cities
    for cid in s.tcities[tribe]:
        out.extend(cities[cid][9])
    out.extend(s.extra[tribe])
    return out


def traversable(s: TribesState, tile: int, tribe: int) -> bool:
    """Terrain and technology allow ``tribe`` on ``tile`` (mountain, shallow, deep water)."""
    ter = s.terrain[tile]
    techs = s.techs[tribe]
    if ter == C.MOUNTAIN:
        return bool(techs & _TECH_CLIMBING)
    if ter == C.SHALLOW_WATER:
        return bool(techs & _TECH_SAILING)
    if ter == C.DEEP_WATER:
        return bool(techs & _TECH_NAVIGATION)
    return True


def is_road(s: TribesState, tile: int) -> bool:
    """A trade-network flag on a tile that is not water and not a city centre."""
    ter = s.terrain[tile]
    return (
        bool(s.network[tile]) and ter != C.SHALLOW_WATER and ter != C.DEEP_WATER and ter != C.CITY
    )


# ------------------------------------------------------------------------------------ vision


def clear_view(s: TribesState, tribe: int, center: int, radius: int) -> None:
    """``tribe`` sees the square of ``radius`` around ``center``: +5 score per new tile.

    Units and cities in that square make their tribes meet ``tribe``. With full observability
    every tile is already seen; only the meetings remain (skipped once everyone has met).
    """
    geo = s.geo
    tiles = geo.square(center, radius)
    n_tribes = s.num_tribes
    vis = s.vis[tribe]
    update_network = False
    if s.game.partial:
        for tile in tiles:
            if not vis[tile]:
                vis[tile] = 1
                s.score[tribe] += C.CLEAR_VIEW_POINTS
                ter = s.terrain[tile]
                if ter == C.SHALLOW_WATER or ter == C.DEEP_WATER or is_road(s, tile):
                    update_network = True
    all_met = (1 << n_tribes) - 1
    if s.met[tribe] | (1 << tribe) != all_met:
        unit_at, tile_city, units = s.unit_at, s.tile_city, s.units
        for tile in tiles:
            uid = unit_at[tile]
            if uid:
                other = units[uid][U_TRIBE]
                if other != tribe:
                    meet(s, tribe, other)
                    if s.vis[other][tile]:
                        meet(s, other, tribe)
            cid = tile_city[tile]
            if cid:
                city = s.cities.get(cid)
                if city is not None and city[1] != tribe:
                    other = city[1]
                    meet(s, tribe, other)
                    if s.vis[other][tile]:
                        meet(s, other, tribe)
    if s.game.partial:
        mon = s.monuments[tribe]
        if mon[C.EYE_OF_GOD - C.ALTAR_OF_PEACE] == C.MONUMENT_UNAVAILABLE and all(vis):
            mon[C.EYE_OF_GOD - C.ALTAR_OF_PEACE] = C.MONUMENT_AVAILABLE
        if update_network:
            from stratagem.envs.tribes.cities import update_network_tribe

            update_network_tribe(s, tribe)


def meet(s: TribesState, tribe: int, other: int) -> None:
    """``tribe`` meets ``other``; with partial observability it learns one of its techs."""
    if other == tribe or s.met[tribe] >> other & 1:
        return
    s.met[tribe] |= 1 << other
    if s.game.partial:
        mine, theirs = s.techs[tribe], s.techs[other]
        options = [t for t in range(C.NUM_TECHS) if theirs >> t & 1 and not mine >> t & 1]
        if options:
            tech = options[s.randint(len(options))]
            if _parent_ok(mine, tech):  # the reference's doResearch needs the parent
                from stratagem.envs.tribes.cities import research

                research(s, tribe, tech, cost=0)


def _parent_ok(techs: int, tech: int) -> bool:
    parent = C.TECHS[tech].parent
    return parent < 0 or bool(techs >> parent & 1)


def move_unit_to(s: TribesState, uid: int, dest: int) -> None:
    """Move a unit on the board and clear its vision (radius 2 on a mountain or Battleship)."""
    unit = s.units[uid]
    s.unit_at[unit[U_POS]] = 0
    s.unit_at[dest] = uid
    unit[U_POS] = dest
    radius = 2 if s.terrain[dest] == C.MOUNTAIN or unit[U_TYPE] == C.BATTLESHIP else 1
    clear_view(s, unit[U_TRIBE], dest, radius)


def launch_explorer(s: TribesState, start: int, tribe: int) -> None:
    """The explorer: 15 random steps onto traversable neighbours, clearing vision around each."""
    geo = s.geo
    pos = start
    for _ in range(C.EXPLORER_STEPS):
        for _ in range(C.EXPLORER_STEPS * 3):
            neighbours = geo.nb1[pos]
            nxt = neighbours[s.randint(len(neighbours))]
            if traversable(s, nxt, tribe):
                pos = nxt
                clear_view(s, tribe, pos, 1)
                break


# ------------------------------------------------------------------------------------ transforms


def embark(s: TribesState, uid: int, dest: int) -> int:
    """Replace a land unit by a Boat at ``dest`` that carries it (new id, FINISHED)."""
    unit = s.units[uid]
    remove_unit(s, uid)
    boat = new_unit(
        C.BOAT,
        unit[U_TRIBE],
        dest,
        unit[U_CITY],
        hp=unit[U_HP],
        max_hp=unit[U_MAXHP],
        kills=unit[U_KILLS],
        veteran=bool(unit[U_VET]),
        base=unit[U_TYPE],
    )
    return add_unit(s, boat)


def disembark(s: TribesState, uid: int, dest: int) -> int:
    """Replace a water unit by the land unit it carries, at ``dest`` (new id, FINISHED)."""
    unit = s.units[uid]
    remove_unit(s, uid)
    base = unit[U_BASE] if unit[U_BASE] >= 0 else C.WARRIOR
    land = new_unit(
        base,
        unit[U_TRIBE],
        dest,
        unit[U_CITY],
        hp=unit[U_HP],
        max_hp=unit[U_MAXHP],
        kills=unit[U_KILLS],
        veteran=bool(unit[U_VET]),
    )
    return add_unit(s, land)


def try_push(s: TribesState, uid: int, dest: int) -> bool:
    """Move a unit into ``dest`` after a kill or a push, if the rules allow; True if it went.

    Mountains need Climbing; a land unit enters water only onto a port of its own tribe's city
    (embarking); a water unit only onto empty water.
    """
    if s.unit_at[dest]:
        return False
    unit = s.units[uid]
    tribe = unit[U_TRIBE]
    ter = s.terrain[dest]
    water_unit = unit[U_TYPE] in C.WATER_UNITS
    if ter == C.MOUNTAIN:
        if water_unit or not s.techs[tribe] & _TECH_CLIMBING:
            return False
        move_unit_to(s, uid, dest)
        return True
    if ter == C.SHALLOW_WATER or ter == C.DEEP_WATER:
        if water_unit:
            move_unit_to(s, uid, dest)
            return True
        if s.building[dest] == C.PORT:
            cid = s.tile_city[dest]
            city = s.cities.get(cid) if cid else None
            if city is not None and city[1] == tribe:
                embark(s, uid, dest)
                return True
        return False
    if water_unit:
        return False
    move_unit_to(s, uid, dest)
    return True


def push_unit(s: TribesState, uid: int) -> int:
    """Push a unit off its tile (reference order of directions); it dies if it cannot go.

    Returns:
        The pushed unit's id (a new one if it embarked), 0 if it died. A unit that moved is
        PUSHED (its next turn starts as if it had moved); a Boat it embarked into is new and
        FINISHED, as in the reference.
    """
    geo = s.geo
    unit = s.units[uid]
    row, col = geo.rc[unit[U_POS]]
    size = geo.size
    for dr, dc in _PUSH:
        r, c = row + dr, col + dc
        if 0 <= r < size and 0 <= c < size and try_push(s, uid, r * size + c):
            moved = s.unit_at[r * size + c]
            if moved == uid:
                unit[U_STATUS] = C.PUSHED
            return moved
    kill_unit(s, uid)
    return 0


# ------------------------------------------------------------------------------------ movement


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
    s: TribesState, uid: int, zoc: bytearray, enemy: bytearray | None = None
) -> dict[int, float]:
    """Cheapest movement cost to every tile the unit can reach this move (start included).

    ``zoc[tile]`` is nonzero when a unit of another tribe stands next to ``tile``; ``enemy[tile]``
    when one stands on it (both from :func:`zone_of_control`).
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


def reachable(s: TribesState, uid: int, zoc: bytearray, enemy: bytearray) -> list[int]:
    """The tiles :func:`move_costs` finds for the unit, its own tile left out.

    A unit with one move point on a road needs no search (:func:`_reach_one`); the others
    search.
    """
    unit = s.units[uid]
    pos = unit[U_POS]
    if _MOV[unit[U_TYPE]] == 1 and _on_road(s, pos, unit[U_TRIBE]):
        return _reach_one(s, unit, zoc, enemy)
    costs = move_costs(s, uid, zoc, enemy)
    del costs[pos]
    return list(costs)


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


# ------------------------------------------------------------------------------------ actions


def can_move(unit: list[int]) -> bool:
    """The unit's status allows a move."""
    return _AFTER_MOVE[unit[U_TYPE]][unit[U_STATUS]] >= 0


def can_attack(unit: list[int]) -> bool:
    """The unit's status allows an attack (also: convert, heal)."""
    return _AFTER_ATTACK[unit[U_TYPE]][unit[U_STATUS]] >= 0


def do_move(s: TribesState, uid: int, dest: int) -> None:
    """MOVE: go to ``dest``; landing on a port embarks, a water unit reaching land disembarks."""
    unit = s.units[uid]
    unit[U_STATUS] = _AFTER_MOVE[unit[U_TYPE]][unit[U_STATUS]]
    move_unit_to(s, uid, dest)
    ter = s.terrain[dest]
    if unit[U_TYPE] in C.WATER_UNITS:
        if ter != C.SHALLOW_WATER and ter != C.DEEP_WATER:
            disembark(s, uid, dest)
    elif s.building[dest] == C.PORT:
        embark(s, uid, dest)


def defence_bonus(s: TribesState, target: list[int]) -> float:
    """×4 behind walls, ×1.5 without, on a city centre of the target's own tribe; else ×1."""
    pos = target[U_POS]
    if s.terrain[pos] != C.CITY:
        return 1.0
    cid = s.tile_city[pos]
    city = s.cities.get(cid) if cid else None
    if city is None or city[1] != target[U_TRIBE]:
        return 1.0
    return C.DEFENCE_IN_WALLS if city[7] else C.DEFENCE_BONUS


def attack_preview(s: TribesState, uid: int, tid: int) -> tuple[int, int]:
    """``(damage, retaliation)`` if unit ``uid`` attacked unit ``tid`` now."""
    a, d = s.units[uid], s.units[tid]
    return combat.attack_results(
        _ATK[a[U_TYPE]],
        a[U_HP],
        a[U_MAXHP],
        _DEF[d[U_TYPE]],
        d[U_HP],
        d[U_MAXHP],
        defence_bonus(s, d),
    )


def add_kill(s: TribesState, uid: int) -> None:
    """A unit and its tribe score a kill (a Knight's kill lets it attack again)."""
    unit = s.units[uid]
    unit[U_KILLS] += 1
    if unit[U_TYPE] == C.KNIGHT:
        unit[U_STATUS] = C.ATTACKED
    tribe = unit[U_TRIBE]
    s.kills[tribe] += 1
    mon = s.monuments[tribe]
    k = C.GATE_OF_POWER - C.ALTAR_OF_PEACE
    if s.kills[tribe] >= C.GATE_OF_POWER_KILLS and mon[k] == C.MONUMENT_UNAVAILABLE:
        mon[k] = C.MONUMENT_AVAILABLE


def do_attack(s: TribesState, uid: int, tid: int) -> None:
    """ATTACK: damage, kill (melee units step in) or retaliation (if in the target's range)."""
    attacker, target = s.units[uid], s.units[tid]
    attacker[U_STATUS] = _AFTER_ATTACK[attacker[U_TYPE]][attacker[U_STATUS]]
    s.pacifist[attacker[U_TRIBE]] = 0
    damage, retaliation = attack_preview(s, uid, tid)
    if target[U_HP] <= damage:
        add_kill(s, uid)
        dest = target[U_POS]
        kill_unit(s, tid)
        if attacker[U_TYPE] in C.MELEE:
            try_push(s, uid, dest)
    else:
        target[U_HP] -= damage
        if s.geo.dist(attacker[U_POS], target[U_POS]) <= _RANGE[target[U_TYPE]]:
            attacker[U_HP] -= retaliation
            if attacker[U_HP] <= 0:
                add_kill(s, tid)
                kill_unit(s, uid)


def do_convert(s: TribesState, uid: int, tid: int) -> None:
    """CONVERT: the target joins the Mind Bender's tribe as an extra unit, FINISHED."""
    bender, target = s.units[uid], s.units[tid]
    detach_unit(s, tid)
    target[U_TRIBE] = bender[U_TRIBE]
    target[U_CITY] = 0
    s.extra[bender[U_TRIBE]].append(tid)
    bender[U_STATUS] = _AFTER_ATTACK[bender[U_TYPE]][bender[U_STATUS]]
    target[U_STATUS] = C.FINISHED


def do_disband(s: TribesState, uid: int) -> None:
    """DISBAND: half the unit's cost back (rounded down), its score points lost."""
    unit = s.units[uid]
    from stratagem.envs.tribes.cities import add_stars

    add_stars(s, unit[U_TRIBE], _COST[unit[U_TYPE]] // 2)
    kill_unit(s, uid)


def heal_targets(s: TribesState, uid: int) -> list[int]:
    """Friendly wounded units next to a Mind Bender."""
    unit = s.units[uid]
    tribe = unit[U_TRIBE]
    out = []
    for tile in s.geo.nb1[unit[U_POS]]:
        other = s.unit_at[tile]
        if other:
            o = s.units[other]
            if o[U_TRIBE] == tribe and o[U_HP] < o[U_MAXHP]:
                out.append(other)
    return out


def do_heal(s: TribesState, uid: int) -> None:
    """HEAL_OTHERS: +4 health (capped) to every wounded friendly neighbour."""
    for other in heal_targets(s, uid):
        o = s.units[other]
        o[U_HP] = min(o[U_HP] + C.MINDBENDER_HEAL, o[U_MAXHP])
    unit = s.units[uid]
    unit[U_STATUS] = _AFTER_ATTACK[unit[U_TYPE]][unit[U_STATUS]]


def do_make_veteran(s: TribesState, uid: int) -> None:
    """MAKE_VETERAN: +5 maximum health, fully healed; the status is kept."""
    unit = s.units[uid]
    unit[U_VET] = 1
    unit[U_MAXHP] += C.VETERAN_PLUS_HP
    unit[U_HP] = unit[U_MAXHP]


def can_recover(unit: list[int]) -> bool:
    """FRESH and wounded."""
    return unit[U_STATUS] == C.FRESH and 0 < unit[U_HP] < unit[U_MAXHP]


def do_recover(s: TribesState, uid: int) -> None:
    """RECOVER: +2 health, +2 more inside the tribe's own borders; the unit is FINISHED."""
    unit = s.units[uid]
    add = C.RECOVER_PLUS_HP
    cid = s.tile_city[unit[U_POS]]
    if cid:
        city = s.cities.get(cid)
        if city is not None and city[1] == unit[U_TRIBE]:
            add += C.RECOVER_IN_BORDERS_PLUS_HP
    unit[U_HP] = min(unit[U_HP] + add, unit[U_MAXHP])
    unit[U_STATUS] = C.FINISHED


def can_upgrade(s: TribesState, unit: list[int]) -> bool:
    """Boat to Ship (Sailing, 5 stars) or Ship to Battleship (Navigation, 15 stars)."""
    utype = unit[U_TYPE]
    tribe = unit[U_TRIBE]
    if utype == C.BOAT:
        return bool(s.techs[tribe] & _TECH_SAILING) and s.stars[tribe] >= _COST[C.SHIP]
    if utype == C.SHIP:
        return bool(s.techs[tribe] & _TECH_NAVIGATION) and s.stars[tribe] >= _COST[C.BATTLESHIP]
    return False


def do_upgrade(s: TribesState, uid: int) -> None:
    """UPGRADE: a new Ship/Battleship (new id) with the same health, kills, status and cargo."""
    unit = s.units[uid]
    nxt = C.SHIP if unit[U_TYPE] == C.BOAT else C.BATTLESHIP
    s.stars[unit[U_TRIBE]] -= _COST[nxt]
    remove_unit(s, uid)
    up = new_unit(
        nxt,
        unit[U_TRIBE],
        unit[U_POS],
        unit[U_CITY],
        hp=unit[U_HP],
        max_hp=unit[U_MAXHP],
        kills=unit[U_KILLS],
        veteran=bool(unit[U_VET]),
        status=unit[U_STATUS],
        base=unit[U_BASE],
    )
    add_unit(s, up)


def can_disband(s: TribesState, unit: list[int]) -> bool:
    """FRESH and the tribe knows Free Spirit."""
    return unit[U_STATUS] == C.FRESH and bool(s.techs[unit[U_TRIBE]] & _TECH_FREE_SPIRIT)


def do_examine(s: TribesState, uid: int) -> int:
    """EXAMINE ruins: one of five bonuses drawn uniformly; returns the bonus drawn."""
    from stratagem.envs.tribes import cities as CT
    from stratagem.envs.tribes import techtree

    unit = s.units[uid]
    tribe = unit[U_TRIBE]
    pos = unit[U_POS]
    handler = s.capital[tribe] if CT.controls_capital(s, tribe) else s.tcities[tribe][0]
    all_tech = techtree.everything_researched(s.techs[tribe])
    bonus = s.randint(5)
    while all_tech and bonus == C.EX_RESEARCH:
        bonus = s.randint(5)
    if bonus == C.EX_SUPERUNIT:
        if s.terrain[pos] in C.WATER:
            giant = new_unit(
                C.BATTLESHIP,
                tribe,
                pos,
                0,
                hp=C.UNITS[C.WARRIOR].max_hp,
                max_hp=C.UNITS[C.WARRIOR].max_hp,
                base=C.WARRIOR,
            )
        else:
            giant = new_unit(C.SUPERUNIT, tribe, pos, 0)
        pushed = push_unit(s, uid)
        if pushed:
            s.units[pushed][U_STATUS] = C.FINISHED  # the reference finishes the examiner last
        add_unit(s, giant)
        s.resource[pos] = C.NO_RESOURCE
        return bonus
    if bonus == C.EX_RESEARCH:
        options = techtree.researchable_list(s.techs[tribe])
        if options:
            CT.research(s, tribe, options[s.randint(len(options))], cost=0)
    elif bonus == C.EX_POP_GROWTH:
        CT.add_population(s, handler, C.EXAMINE_POP_GROWTH)
    elif bonus == C.EX_EXPLORER:
        launch_explorer(s, pos, tribe)
    else:
        CT.add_stars(s, tribe, C.EXAMINE_RESOURCES)
    s.resource[pos] = C.NO_RESOURCE
    unit[U_STATUS] = C.FINISHED
    return bonus


# ------------------------------------------------------------------------------------ legal


def unit_actions(
    s: TribesState, uid: int, out: list[int], n: int, ctx: Context, memo: BoardMemo
) -> None:
    """Append the legal actions of unit ``uid`` (plane × tile indices) to ``out``.

    ``ctx`` and ``memo`` are the state's context (``memo.context``: the mover, its enemy tiles
    and visibility) and board memo. The context remembers each unit's plan (:func:`_unit_plan`)
    under everything the plan reads besides the board and the context: the unit's record, its
    tribe's technologies, stars (Boats and Ships upgrade with them) and whether it has cities.
    A unit of another tribe than the mover is planned without them (the context's visibility
    is the mover's).
    """
    unit = s.units[uid]
    utype = unit[U_TYPE]
    tribe = unit[U_TRIBE]
    if unit[U_STATUS] == C.FINISHED:  # most units, most of the time: only an upgrade is left
        if (utype == C.BOAT or utype == C.SHIP) and can_upgrade(s, unit):
            out.append(_P_UPGRADE * n + unit[U_POS])
        return
    if tribe == ctx.tribe:
        stars = s.stars[tribe] if utype == C.BOAT or utype == C.SHIP else 0
        key = (*unit, s.techs[tribe], stars, bool(s.tcities[tribe]))
        plan = ctx.units.get(key)
        if plan is None:
            plan = _unit_plan(s, uid, n, ctx, memo)
            remember(ctx.units, key, plan)
    else:
        plan = _unit_plan(s, uid, n, ctx, None)
    fixed, targets, heals = plan
    out.extend(fixed)
    if targets is not None:
        # the targets not occupied (by the mover's own units: enemies block the search)
        tiles, actions = targets
        out.extend(compress(actions, map(_not, map(s.unit_at.__getitem__, tiles))))
    if heals and heal_targets(s, uid):
        out.append(_P_HEAL * n + unit[U_POS])


def _unit_plan(s: TribesState, uid: int, n: int, ctx: Context, memo: BoardMemo | None) -> UnitPlan:
    """What a unit that has not finished may do, as long as only its tribe's other units move.

    Returns ``(actions, move targets or None, may heal)``. The move targets still need their
    occupied tiles removed, and a Mind Bender that may heal heals only if a wounded friend
    stands next to it; the caller checks both.
    """
    unit = s.units[uid]
    utype = unit[U_TYPE]
    tribe = unit[U_TRIBE]
    pos = unit[U_POS]
    status = unit[U_STATUS]
    out: list[int] = []
    if (utype == C.BOAT or utype == C.SHIP) and can_upgrade(s, unit):
        out.append(_P_UPGRADE * n + pos)
    attack_ok = _AFTER_ATTACK[utype][status] >= 0
    if attack_ok and ctx.enemies:
        out.extend(_attacks(s, pos, utype, tribe, ctx.enemies, ctx.enemy, n))
    if status == C.FRESH:
        ter = s.terrain[pos]
        if ter == C.VILLAGE:
            out.append(_P_CAPTURE * n + pos)
        elif ter == C.CITY:
            cid = s.tile_city[pos]
            city = s.cities.get(cid) if cid else None
            if city is not None and city[1] != tribe:
                out.append(_P_CAPTURE * n + pos)
        if s.techs[tribe] & _TECH_FREE_SPIRIT:
            out.append(_P_DISBAND * n + pos)
        if s.resource[pos] == C.RUINS and s.tcities[tribe]:
            out.append(_P_EXAMINE * n + pos)
    if unit[U_KILLS] >= C.VETERAN_KILLS and not unit[U_VET] and utype != C.SUPERUNIT:
        out.append(_P_VETERAN * n + pos)
    if status == C.FRESH and 0 < unit[U_HP] < unit[U_MAXHP]:
        out.append(_P_RECOVER * n + pos)
    targets = None
    if _AFTER_MOVE[utype][status] >= 0:
        if memo is not None:
            key = (pos, utype, s.techs[tribe] & _MOVE_TECHS)
            targets = ctx.moves.get(key)
            if targets is None:
                targets = _move_targets(s, uid, n, ctx, memo)
                remember(ctx.moves, key, targets)
        else:
            targets = _move_targets(s, uid, n, ctx, None)
    return tuple(out), targets, utype == C.MIND_BENDER and attack_ok


def _attacks(
    s: TribesState,
    pos: int,
    utype: int,
    tribe: int,
    enemies: tuple[int, ...],
    enemy: bytearray,
    n: int,
) -> tuple[int, ...]:
    """Attacks (converts for a Mind Bender) of a unit at ``pos`` on the enemies it sees."""
    geo = s.geo
    radius = 1 if utype == C.MIND_BENDER else _RANGE[utype]
    if min(map(geo.dist_row(pos).__getitem__, enemies), default=radius + 1) > radius:
        return ()  # no enemy in range (the usual case): no need to scan the tiles
    vis = s.vis[tribe]
    if utype == C.MIND_BENDER:
        plane_of = _AP.CONVERT_PLANE
        reach = geo.nb1[pos]
    else:
        plane_of = _AP.ATTACK_PLANE
        reach = geo.square_nc(pos, radius)
    rc = geo.rc
    r0, c0 = rc[pos]
    out = []
    for tile in reach:
        if enemy[tile] and vis[tile]:
            r1, c1 = rc[tile]
            out.append(plane_of[(r1 - r0, c1 - c0)] * n + pos)
    return tuple(out)


def _move_targets(
    s: TribesState, uid: int, n: int, ctx: Context, memo: BoardMemo | None
) -> MoveTargets:
    """The tiles the unit can reach, whether occupied or not, and the move actions there.

    Occupied tiles are kept because friendly units do not block the path (only enemies and
    their zones of control do), so the list stays right while the mover's own units move.
    With ``memo`` the search is remembered on the board with the enemy tiles near enough to
    matter, and reused in later contexts where those are the same (see ``memo``).
    """
    unit = s.units[uid]
    pos, utype, tribe = unit[U_POS], unit[U_TYPE], unit[U_TRIBE]
    geo = s.geo
    dist = geo.dist_row(pos)
    if memo is not None:
        key = (pos, utype, tribe, s.techs[tribe] & _MOVE_TECHS, ctx.vis_key)
        entry = move_entry(memo, key, dist)
        if entry is not None:
            radius = entry[0]
            if _within(ctx.enemies, dist, radius) == entry[1]:
                return entry[2]
    tiles = tuple(reachable(s, uid, ctx.zone(geo.nb1), ctx.enemy))
    action = geo.move_actions(pos)
    found = (tiles, tuple(map(action.__getitem__, tiles)))
    if memo is not None:
        radius = max(map(dist.__getitem__, tiles), default=0) + MOVE_MARGIN
        remember(memo.moves, key, (radius, _within(ctx.enemies, dist, radius), found))
    return found


def _within(tiles: tuple[int, ...], dist: bytes, radius: int) -> tuple[int, ...]:
    """The ``tiles`` at most ``radius`` away (``dist``: distances from the centre)."""
    return tuple(compress(tiles, map(radius.__ge__, map(dist.__getitem__, tiles))))


_MOVE_TECHS = _TECH_CLIMBING | _TECH_SAILING | _TECH_NAVIGATION
_P_UPGRADE, _P_CAPTURE, _P_DISBAND, _P_EXAMINE = _AP.UPGRADE, _AP.CAPTURE, _AP.DISBAND, _AP.EXAMINE
_P_HEAL, _P_VETERAN, _P_RECOVER = _AP.HEAL, _AP.VETERAN, _AP.RECOVER
