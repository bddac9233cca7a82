"""Cities and the economy: population, stars, buildings, level-ups, capture, trade network.

Every city action of the reference's 1.0 rules is here.

A city is a small list indexed by the ``C_*`` constants below. Facts come from
``specs/tribes_rules.md`` sections 7-9 and 12 and the reference's ``City``, ``Tribe``,
``Board``, ``TradeNetwork`` and city-action classes.

Decisions where the reference misbehaves (each listed on the docs page):

* Capturing a city keeps its population and production as they are: the buildings' effects
  are already in them. The reference re-applies the advanced buildings' adjacency bonuses to
  the new owner (population and production grow at every capture) after having taken them
  off and put them back for the base buildings. The new owner still gains the city's
  points-worth, +100 per temple and +400 per monument, as in the reference.
* Destroying a temple takes its accumulated points off the score (the reference adds them).
* The Altar of Peace is unlocked once (the reference makes a built Altar available again each
  time the pacifist counter reaches 5 anew).
* "Everything researched" (Tower of Wisdom) is checked after every research, ruins included
  (the reference checks it only after tier-3 techs or Shields, and never after ruins).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Container
from typing import TYPE_CHECKING

from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes import techtree
from stratagem.envs.tribes import units as UN
from stratagem.envs.tribes.memo import BoardMemo, CityEntry, city_entry, remember

if TYPE_CHECKING:
    from stratagem.envs.tribes.rules import TribesState

C_POS, C_TRIBE, C_LEVEL, C_POP, C_NEED, C_CAPITAL, C_PROD, C_WALLS, C_BOUND, C_UNITS, C_WORTH = (
    range(11)
)

_MON0 = C.ALTAR_OF_PEACE
_BONUS = tuple(b.bonus for b in C.BUILDINGS)
_COST = tuple(b.cost for b in C.BUILDINGS)
_BTECH = tuple(b.tech for b in C.BUILDINGS)
_UCOST = tuple(u.cost for u in C.UNITS)
_UTECH = tuple(u.tech for u in C.UNITS)
_UPOINTS = tuple(u.points for u in C.UNITS)
#: Terrain -> building types that may stand on it.
_BY_TERRAIN: dict[int, tuple[int, ...]] = {
    ter: tuple(b for b in range(C.NUM_BUILDINGS) if ter in C.BUILDINGS[b].terrains)
    for ter in range(8)
}
_HARVESTABLE = frozenset(C.HARVEST_COST)
#: The price of a city option that needs no stars.
_FREE = -(1 << 30)


def new_city(tribe: int, pos: int, capital: bool = False) -> list:
    """A level-1 city record: population 0 of 2 needed, territory radius 1, no units."""
    return [pos, tribe, 1, 0, 2, int(capital), 0, 0, 1, [], 0]


def production(city: list) -> int:
    """Stars per turn: ``level + bonuses (+1 capital)`` if population >= 0, else population."""
    if city[C_POP] >= 0:
        return city[C_LEVEL] + city[C_PROD] + (C.PROD_CAPITAL_BONUS if city[C_CAPITAL] else 0)
    return city[C_POP]


def tribe_production(s: TribesState, tribe: int) -> int:
    """Sum of the production of the tribe's cities (the reference's getMaxProduction)."""
    cities = s.cities
    return sum(production(cities[cid]) for cid in s.tcities[tribe])


def controls_capital(s: TribesState, tribe: int) -> bool:
    """The tribe still owns its original capital."""
    city = s.cities.get(s.capital[tribe])
    return city is not None and city[C_TRIBE] == tribe


def city_tribe(s: TribesState, cid: int) -> int:
    """Owner of city ``cid`` (-1 for no city, or a city hidden from this view)."""
    if not cid:
        return -1
    city = s.cities.get(cid)
    return -1 if city is None else city[C_TRIBE]


def add_stars(s: TribesState, tribe: int, stars: int) -> None:
    """Give stars; holding 100 unlocks the Emperor's Tomb."""
    s.stars[tribe] += stars
    mon = s.monuments[tribe]
    k = C.EMPERORS_TOMB - _MON0
    if s.stars[tribe] >= C.EMPERORS_TOMB_STARS and mon[k] == C.MONUMENT_UNAVAILABLE:
        mon[k] = C.MONUMENT_AVAILABLE


def add_population(s: TribesState, cid: int, value: int, tribe: int | None = None) -> None:
    """Change a city's population (never below ``-level``); 5 score points per population.

    ``tribe`` is whose score moves (the city's owner unless the trade network says otherwise).
    """
    city = s.cities[cid]
    if city[C_POP] + value < -city[C_LEVEL]:
        value = -city[C_LEVEL] - city[C_POP]
    city[C_POP] += value
    s.score[city[C_TRIBE] if tribe is None else tribe] += value * C.POINTS_PER_POPULATION
    city[C_WORTH] += value * C.POINTS_PER_POPULATION


def add_production(s: TribesState, cid: int, value: int) -> None:
    """Change a city's bonus production (never below 0)."""
    city = s.cities[cid]
    city[C_PROD] = max(0, city[C_PROD] + value)


def research(s: TribesState, tribe: int, tech: int, cost: int) -> None:
    """Pay and research; all 24 researched unlocks the Tower of Wisdom."""
    s.stars[tribe] -= cost
    s.techs[tribe] |= 1 << tech
    if techtree.everything_researched(s.techs[tribe]):
        mon = s.monuments[tribe]
        k = C.TOWER_OF_WISDOM - _MON0
        if mon[k] == C.MONUMENT_UNAVAILABLE:
            mon[k] = C.MONUMENT_AVAILABLE


def city_tiles(s: TribesState, cid: int) -> list[int]:
    """Tiles of the city's territory its actions may target (radius 1, 2 from level 4)."""
    city = s.cities[cid]
    tile_city = s.tile_city
    radius = 1 if city[C_LEVEL] < 4 else 2
    return [t for t in s.geo.square(city[C_POS], radius) if tile_city[t] == cid]


def assign_city_tiles(s: TribesState, cid: int, radius: int, reserved: Container[int] = ()) -> None:
    """Claim every unowned tile within ``radius``: +20 score each (and city worth).

    Args:
        s: The state.
        cid: The claiming city.
        radius: Territory radius.
        reserved: Tiles not to claim: the centres of capitals founded after this one when a
            level is set up. A city centre always belongs to its own city (the rules find a
            city's level-up and spawn actions through it); on small boards capitals stand side
            by side, and the reference's loader gives the second capital's centre to the
            first city, after which the second city's actions act on the first one.
    """
    s._own_board()
    city = s.cities[cid]
    tribe = city[C_TRIBE]
    tile_city = s.tile_city
    for tile in s.geo.square(city[C_POS], radius):
        if not tile_city[tile] and tile not in reserved:
            tile_city[tile] = cid
            s.score[tribe] += C.CITY_BORDER_POINTS
            city[C_WORTH] += C.CITY_BORDER_POINTS


# ------------------------------------------------------------------------------------ buildings


def _apply_bonus(
    s: TribesState, cid: int, tile: int, btype: int, is_pop: bool, mult: int, only_matching: bool
) -> None:
    """The reference's ``City.applyBonus``: own bonus and adjacency bonuses of a building.

    As in the reference, the city receiving an adjacency bonus is the one owning the adjacent
    building when that is another city of the same tribe, the choice is not reset for later
    neighbours, and a matching neighbour in another tribe's city ends the loop.
    """
    city = s.cities[cid]
    tribe = city[C_TRIBE]
    is_base = btype in C.BASE_BUILDINGS
    if is_base and is_pop and not only_matching:
        add_population(s, cid, mult * _BONUS[btype])
    match = C.MATCHING.get(btype, -1)
    target = cid
    building, tile_city, cities = s.building, s.tile_city, s.cities
    for adj in s.geo.nb1[tile]:
        b = building[adj]
        if b < 0 or b != match:
            continue
        acid = tile_city[adj]
        if acid != cid:
            other = cities.get(acid) if acid else None
            if other is None or other[C_TRIBE] != tribe:
                return
            target = acid
        bonus = _BONUS[b] if is_base else _BONUS[btype]
        if is_pop:
            add_population(s, target, bonus * mult)
        else:
            add_production(s, target, bonus * mult)


def building_effects(s: TribesState, cid: int, tile: int, btype: int, negative: bool) -> None:
    """Population, production and score effects of building (or destroying) ``btype``."""
    mult = -1 if negative else 1
    tribe = s.cities[cid][C_TRIBE]
    if btype in (C.FARM, C.LUMBER_HUT, C.MINE, C.WINDMILL, C.SAWMILL, C.FORGE):
        _apply_bonus(s, cid, tile, btype, True, mult, False)
    elif btype == C.PORT:
        add_population(s, cid, _BONUS[btype] * mult)
        _apply_bonus(s, cid, tile, btype, False, mult, False)
    elif btype == C.CUSTOMS_HOUSE:
        _apply_bonus(s, cid, tile, btype, False, mult, False)
    elif btype in C.TEMPLES:
        add_population(s, cid, _BONUS[btype] * mult)
        if negative:
            level = s.temples.get(tile, (1, 0))[0]
            s.score[tribe] -= sum(C.TEMPLE_POINTS[:level])
        else:
            s.score[tribe] += C.TEMPLE_POINTS[0]
    else:  # monuments
        add_population(s, cid, _BONUS[btype] * mult)
        s.score[tribe] += C.MONUMENT_POINTS * mult


def temple_turn(s: TribesState, tile: int) -> int:
    """A temple ages one turn of its owner; every 3 turns it levels up (max 5): its points."""
    level, turns = s.temples[tile]
    if level >= 5:
        return 0
    turns -= 1
    if turns == 0:
        level += 1
        s.temples[tile] = (level, C.TEMPLE_TURNS_TO_SCORE)
        return C.TEMPLE_POINTS[level - 1]
    s.temples[tile] = (level, turns)
    return 0


# ------------------------------------------------------------------------------------ actions


def do_level_up(s: TribesState, cid: int, choice: int) -> None:
    """LEVEL_UP with the bonus of index ``choice`` (0 or 1) for the city's level."""
    city = s.cities[cid]
    tribe = city[C_TRIBE]
    bonus = C.level_up_choices(city[C_LEVEL])[choice]
    if C.LEVEL_UP_LEVEL[bonus] == C.PARK_OF_FORTUNE_LEVEL:
        mon = s.monuments[tribe]
        k = C.PARK_OF_FORTUNE - _MON0
        if mon[k] == C.MONUMENT_UNAVAILABLE:
            mon[k] = C.MONUMENT_AVAILABLE
    points = C.LEVEL_UP_POINTS[bonus]
    s.score[tribe] += points
    city[C_WORTH] += points
    city[C_LEVEL] += 1
    city[C_POP] -= city[C_NEED]
    city[C_NEED] = city[C_LEVEL] + 1
    pos = city[C_POS]
    if bonus == C.LU_WORKSHOP:
        add_production(s, cid, C.CITY_LEVEL_UP_WORKSHOP_PROD)
    elif bonus == C.LU_EXPLORER:
        UN.launch_explorer(s, pos, tribe)
    elif bonus == C.LU_CITY_WALL:
        city[C_WALLS] = 1
    elif bonus == C.LU_RESOURCES:
        add_stars(s, tribe, C.CITY_LEVEL_UP_RESOURCES)
    elif bonus == C.LU_POP_GROWTH:
        add_population(s, cid, C.CITY_LEVEL_UP_POP_GROWTH)
    elif bonus == C.LU_BORDER_GROWTH:
        city[C_BOUND] += 1
        assign_city_tiles(s, cid, city[C_BOUND])
    elif bonus == C.LU_PARK:
        s.score[tribe] += C.CITY_LEVEL_UP_PARK
        city[C_WORTH] += C.CITY_LEVEL_UP_PARK
    else:  # super unit, pushing whatever stands on the city
        if s.unit_at[pos]:
            UN.push_unit(s, s.unit_at[pos])
        UN.add_unit(s, UN.new_unit(C.SUPERUNIT, tribe, pos, cid))


def do_spawn(s: TribesState, cid: int, utype: int) -> None:
    """SPAWN: a new (FINISHED) unit on the city tile; its cost paid, its points scored."""
    city = s.cities[cid]
    tribe = city[C_TRIBE]
    UN.add_unit(s, UN.new_unit(utype, tribe, city[C_POS], cid))
    s.stars[tribe] -= _UCOST[utype]
    s.score[tribe] += _UPOINTS[utype]


def do_build(s: TribesState, cid: int, tile: int, btype: int) -> None:
    """BUILD: pay, place, take the tile's resource, apply the building's effects."""
    s._own_board()
    tribe = s.cities[cid][C_TRIBE]
    s.stars[tribe] -= _COST[btype]
    s.building[tile] = btype
    s.resource[tile] = C.NO_RESOURCE
    if btype in C.TEMPLES:
        s.temples[tile] = (1, C.TEMPLE_TURNS_TO_SCORE)
    building_effects(s, cid, tile, btype, negative=False)
    if btype == C.PORT:
        s.network[tile] = 1
        update_network_all(s)
    if C.ALTAR_OF_PEACE <= btype <= C.TOWER_OF_WISDOM:
        s.monuments[tribe][btype - _MON0] = C.MONUMENT_BUILT
    if btype == C.LUMBER_HUT:
        s.terrain[tile] = C.PLAIN  # as in the reference


def do_destroy(s: TribesState, cid: int, tile: int) -> None:
    """DESTROY: remove the building and reverse its effects (no refund)."""
    s._own_board()
    btype = s.building[tile]
    s.building[tile] = C.NO_BUILDING
    if btype == C.PORT:
        s.network[tile] = 0
        update_network_all(s)
    building_effects(s, cid, tile, btype, negative=True)
    s.temples.pop(tile, None)


def do_harvest(s: TribesState, cid: int, tile: int) -> None:
    """RESOURCE_GATHERING: +1 population (fish, fruit, animal) or +10 stars (whales)."""
    s._own_board()
    res = s.resource[tile]
    tribe = s.cities[cid][C_TRIBE]
    s.resource[tile] = C.NO_RESOURCE
    s.stars[tribe] -= C.HARVEST_COST[res]
    if res == C.WHALES:
        add_stars(s, tribe, C.HARVEST_BONUS[res])
    else:
        add_population(s, cid, C.HARVEST_BONUS[res])


def do_clear_forest(s: TribesState, cid: int, tile: int) -> None:
    """CLEAR_FOREST: forest to plain (the resource stays), +2 stars."""
    s._own_board()
    s.terrain[tile] = C.PLAIN
    add_stars(s, s.cities[cid][C_TRIBE], C.CLEAR_FOREST_STARS)


def do_burn_forest(s: TribesState, cid: int, tile: int) -> None:
    """BURN_FOREST: forest to plain with crops, 5 stars."""
    s._own_board()
    s.terrain[tile] = C.PLAIN
    s.resource[tile] = C.CROPS
    s.stars[s.cities[cid][C_TRIBE]] -= C.BURN_FOREST_COST


def do_grow_forest(s: TribesState, cid: int, tile: int) -> None:
    """GROW_FOREST: plain to forest (the resource goes), 5 stars."""
    s._own_board()
    s.terrain[tile] = C.FOREST
    s.resource[tile] = C.NO_RESOURCE
    s.stars[s.cities[cid][C_TRIBE]] -= C.GROW_FOREST_COST


#: A building as :func:`city_options` tests it: ``(type, resource needed, building needed
#: next to it, unique per city, price in stars)`` (-1: no need; ``_FREE``: no stars).
_BuildOption = tuple[int, int, int, bool, int]
_BY_TERRAIN_OK: dict[tuple[int, tuple[int, ...]], dict[int, tuple[_BuildOption, ...]]] = {}


def _buildable_by_terrain(techs: int, monuments: list[int]) -> dict[int, tuple[_BuildOption, ...]]:
    """Per terrain, the buildings the technologies and monuments allow on it (cached)."""
    key = (techs, tuple(monuments))
    table = _BY_TERRAIN_OK.get(key)
    if table is None:
        ok = set()
        for b in range(C.NUM_BUILDINGS):
            tech = _BTECH[b]
            if tech >= 0 and not techs >> tech & 1:
                continue
            if b >= _MON0 and monuments[b - _MON0] != C.MONUMENT_AVAILABLE:
                continue
            ok.add(b)
        table = {
            ter: tuple(
                (
                    b,
                    spec.resource,
                    spec.adjacent,
                    spec.unique,
                    spec.cost if spec.cost > 0 else _FREE,
                )
                for b in kinds
                if b in ok
                for spec in (C.BUILDINGS[b],)
            )
            for ter, kinds in _BY_TERRAIN.items()
        }
        if len(_BY_TERRAIN_OK) < 4096:
            _BY_TERRAIN_OK[key] = table
    return table


def city_actions(
    s: TribesState, cid: int, out: list[int], n: int, A: object, memo: BoardMemo | None = None
) -> None:
    """Append the legal actions of city ``cid`` (not its level-up) to ``out``.

    ``memo`` (the state's board memo, ``memo.board_memo``) remembers the city's options per
    level, technologies and monuments; the stars only pick how many of them are affordable.
    """
    city = s.cities[cid]
    tribe = city[C_TRIBE]
    pos = city[C_POS]
    if memo is None:
        entry = city_options(s, cid, n, A)
    else:
        key = (cid, pos, city[C_LEVEL], tribe, s.techs[tribe], *s.monuments[tribe])
        entry = memo.cities.get(key)  # the usual case, before ``city_entry``'s adoption
        if entry is None:
            entry = city_entry(memo, key, s.geo.dist_row(pos))
        if entry is None:
            entry = city_options(s, cid, n, A)
            remember(memo.cities, key, entry)
    stars = s.stars[tribe]
    prices, actions, spawn_prices, spawns = entry
    out.extend(actions[: bisect_right(prices, stars)])
    if spawns and not s.unit_at[pos] and len(city[C_UNITS]) < city[C_LEVEL] + 1:
        out.extend(spawns[: bisect_right(spawn_prices, stars)])


def city_options(s: TribesState, cid: int, n: int, A: object) -> CityEntry:
    """The city's options, each with the stars it needs, cheapest first.

    Returns:
        ``(prices, actions, spawn prices, spawns)``: an action is legal when the tribe has at
        least its price in stars (``_FREE`` for none); a spawn also needs the city tile free and
        room in the city, which change with every unit move and are checked by the caller.
        Everything else the options depend on (territory, terrain, resources, buildings,
        technologies, monuments) is fixed for them.
    """
    options: list[tuple[int, int]] = []
    city = s.cities[cid]
    tribe = city[C_TRIBE]
    techs = s.techs[tribe]
    monuments = s.monuments[tribe]
    tiles = city_tiles(s, cid)
    terrain, resource, building = s.terrain, s.resource, s.building
    nb1 = s.geo.nb1
    has_destroy = techs >> C.CONSTRUCTION & 1
    has_forestry = techs >> C.FORESTRY & 1
    can_burn = techs >> C.CHIVALRY & 1
    can_grow = techs >> C.SPIRITUALISM & 1
    build0 = A.BUILD0  # type: ignore[attr-defined]
    in_city = None
    by_terrain = _buildable_by_terrain(techs, monuments)
    for tile in tiles:
        ter = terrain[tile]
        b_here = building[tile]
        if b_here < 0:
            res_here = resource[tile]
            near = None
            for b, res_needed, adj_needed, unique, price in by_terrain[ter]:
                if res_needed >= 0 and res_here != res_needed:
                    continue
                if adj_needed >= 0:
                    if near is None:
                        near = {building[adj] for adj in nb1[tile]}
                    if adj_needed not in near:
                        continue
                if unique:
                    if in_city is None:
                        in_city = {building[t] for t in tiles}
                    if b in in_city:
                        continue
                options.append((price, (build0 + b) * n + tile))
        elif has_destroy:
            options.append((_FREE, A.DESTROY * n + tile))  # type: ignore[attr-defined]
        if ter == C.FOREST:
            if can_burn:
                burn = A.BURN_FOREST * n + tile  # type: ignore[attr-defined]
                options.append((C.BURN_FOREST_COST, burn))
            if has_forestry:
                options.append((_FREE, A.CLEAR_FOREST * n + tile))  # type: ignore[attr-defined]
        elif ter == C.PLAIN and can_grow:
            options.append((C.GROW_FOREST_COST, A.GROW_FOREST * n + tile))  # type: ignore[attr-defined]
        res = resource[tile]
        if res in _HARVESTABLE and techs >> C.HARVEST_TECH[res] & 1:
            options.append((C.HARVEST_COST[res], A.HARVEST * n + tile))  # type: ignore[attr-defined]
    pos = city[C_POS]
    spawns = []
    spawn_plane = A.SPAWN_PLANE  # type: ignore[attr-defined]
    for utype in C.SPAWNABLE:
        tech = _UTECH[utype]
        if tech < 0 or techs >> tech & 1:
            spawns.append((_UCOST[utype], spawn_plane[utype] * n + pos))
    options.sort()
    spawns.sort()
    prices, actions = zip(*options, strict=True) if options else ((), ())
    spawn_prices, spawn_actions = zip(*spawns, strict=True) if spawns else ((), ())
    return prices, actions, spawn_prices, spawn_actions


# ------------------------------------------------------------------------------------ capture


def _move_last_unit(s: TribesState, src: int, dst: int) -> None:
    uid = s.cities[src][C_UNITS].pop()
    dest = s.cities[dst]
    if len(dest[C_UNITS]) < dest[C_LEVEL] + 1:
        dest[C_UNITS].append(uid)
        s.units[uid][UN.U_CITY] = dst
    else:  # cannot happen with the callers' checks; never leave a unit in no list
        s.units[uid][UN.U_CITY] = 0
        s.extra[s.units[uid][UN.U_TRIBE]].append(uid)


def _can_add(city: list) -> bool:
    return len(city[C_UNITS]) < city[C_LEVEL] + 1


def move_one_to_new_city(s: TribesState, cid: int, tribe: int) -> None:
    """Re-home one unit of the tribe to its new city: the capital's last, else a random city's."""
    cap = s.capital[tribe]
    if controls_capital(s, tribe) and s.cities[cap][C_UNITS]:
        _move_last_unit(s, cap, cid)
        return
    others = [c for c in s.tcities[tribe] if c != cap]
    for c in s.shuffled(others):
        if s.cities[c][C_UNITS]:
            _move_last_unit(s, c, cid)
            return


def move_all_from_city(s: TribesState, cid: int, tribe: int) -> None:
    """Re-home a lost city's units: to the capital while room, then random cities, then extras."""
    src = s.cities[cid]
    cap = s.capital[tribe]
    if controls_capital(s, tribe):
        capital = s.cities[cap]
        while _can_add(capital) and src[C_UNITS]:
            _move_last_unit(s, cid, cap)
    if src[C_UNITS]:
        others = [c for c in s.tcities[tribe] if c != cap]
        for c in s.shuffled(others):
            dest = s.cities[c]
            while _can_add(dest) and src[C_UNITS]:
                _move_last_unit(s, cid, c)
        for uid in src[C_UNITS]:
            s.units[uid][UN.U_CITY] = 0
            s.extra[tribe].append(uid)
        src[C_UNITS] = []


def found_city(s: TribesState, tribe: int, pos: int, capital: bool = False) -> int:
    """Add a new level-1 city of ``tribe`` at ``pos`` (its vision cleared): its id."""
    s._own_board()
    cid = s.next_id
    s.next_id += 1
    s.cities[cid] = new_city(tribe, pos, capital)
    s.tcities[tribe].append(cid)
    UN.clear_view(s, tribe, pos, C.NEW_CITY_CLEAR_RANGE)
    s.network[pos] = 1
    return cid


def release_tile(s: TribesState, tile: int) -> None:
    """Take ``tile`` out of the territory that holds it, with the 20 points it brought.

    Used for a village inside another city's borders (a border growth can reach one) when it
    is captured: the new city's centre must be its own. The reference leaves the centre to the
    older city, so that capturing the new city later captures the older one; we do not.
    """
    s._own_board()
    cid = s.tile_city[tile]
    if not cid:
        return
    s.tile_city[tile] = 0
    city = s.cities.get(cid)
    if city is not None:
        s.score[city[C_TRIBE]] -= C.CITY_BORDER_POINTS
        city[C_WORTH] -= C.CITY_BORDER_POINTS


def capture(s: TribesState, uid: int) -> None:
    """CAPTURE: the unit takes the village or enemy city it stands on, and is FINISHED."""
    s._own_board()
    unit = s.units[uid]
    tribe = unit[UN.U_TRIBE]
    pos = unit[UN.U_POS]
    unit[UN.U_STATUS] = C.FINISHED
    if s.terrain[pos] == C.VILLAGE:
        release_tile(s, pos)
        cid = found_city(s, tribe, pos)
        assign_city_tiles(s, cid, s.cities[cid][C_BOUND])
        s.terrain[pos] = C.CITY
        move_one_to_new_city(s, cid, tribe)
    else:
        cid = s.tile_city[pos]
        city = s.cities[cid]
        prev = city[C_TRIBE]
        s.score[prev] -= city[C_WORTH]
        s.score[tribe] += city[C_WORTH]
        s.tcities[tribe].append(cid)
        city[C_TRIBE] = tribe
        for tile in city_buildings(s, cid):
            b = s.building[tile]
            if b in C.TEMPLES:
                s.score[tribe] += C.TEMPLE_POINTS[0]
            elif b >= _MON0:
                s.score[tribe] += C.MONUMENT_POINTS
        s.tcities[prev].remove(cid)
        move_all_from_city(s, cid, prev)
        move_one_to_new_city(s, cid, tribe)
        if not s.tcities[prev] and s.native:
            eliminate(s, prev)
    s.network[pos] = 1
    update_network_all(s)


def city_buildings(s: TribesState, cid: int) -> list[int]:
    """Tiles of the city's territory that hold a building."""
    city = s.cities[cid]
    tile_city, building = s.tile_city, s.building
    return [
        t
        for t in s.geo.square(city[C_POS], max(2, city[C_BOUND]))
        if tile_city[t] == cid and building[t] >= 0
    ]


def eliminate(s: TribesState, tribe: int) -> None:
    """A tribe without cities has lost: every unit it still has is removed."""
    s.result[tribe] = C.LOSS
    for uid in UN.tribe_units(s, tribe):
        unit = s.units[uid]
        if s.unit_at[unit[UN.U_POS]] == uid:
            s.unit_at[unit[UN.U_POS]] = 0
        del s.units[uid]
    for cid in s.tcities[tribe]:
        s.cities[cid][C_UNITS] = []
    s.extra[tribe] = []


# ------------------------------------------------------------------------------------ network


def update_network_all(s: TribesState) -> None:
    """Recompute the trade network of every tribe (only the mover's inside an agent's view)."""
    for tribe in range(s.num_tribes):
        update_network_tribe(s, tribe)


def update_network_tribe(s: TribesState, tribe: int) -> None:
    """Which of the tribe's cities connect to its capital by roads, cities and port links.

    A city joining the network gives the capital +1 population and, on the owner's own turn,
    itself +1; a city leaving it costs both 1 (the reference's asymmetry, kept).
    """
    if not s.native and tribe != s.active:
        return
    connected = s.connected[tribe]
    if not controls_capital(s, tribe):
        connected.clear()
        return
    if len(s.tcities[tribe]) == 1 and not connected:
        return  # the capital alone: nothing to connect
    geo = s.geo
    cities = s.cities
    terrain, building, network, tile_city = s.terrain, s.building, s.network, s.tile_city
    vis = s.vis[tribe]
    shallow, deep, city_t, port = C.SHALLOW_WATER, C.DEEP_WATER, C.CITY, C.PORT

    def owner_ok(t: int) -> int:
        """1 own tile, 2 neutral tile, 0 another tribe's (or a hidden city's)."""
        cid = tile_city[t]
        if not cid:
            return 2
        c = cities.get(cid)
        return 1 if c is not None and c[C_TRIBE] == tribe else 0

    def in_network(t: int) -> bool:
        if not network[t]:
            return False
        ok = owner_ok(t)
        if not ok:
            return False
        ter = terrain[t]
        if ok == 1 and (ter == city_t or building[t] == port):
            return True
        return ter != shallow and ter != deep and ter != city_t

    def navigable(t: int) -> bool:
        ter = terrain[t]
        return (ter == shallow or ter == deep) and bool(vis[t]) and owner_ok(t) > 0

    nb1 = geo.nb1
    ports = [t for cid in s.tcities[tribe] for t in city_buildings(s, cid) if building[t] == port]
    links: dict[int, list[int]] = {}
    for i in range(len(ports) - 1):
        reach = _water_reach(ports[i], navigable, nb1)
        for j in range(i + 1, len(ports)):
            if ports[j] in reach:
                links.setdefault(ports[i], []).append(ports[j])
                links.setdefault(ports[j], []).append(ports[i])
    capital = cities[s.capital[tribe]]
    start = capital[C_POS]
    seen = {start}
    frontier = [start]
    while frontier:
        t = frontier.pop()
        for nb in nb1[t]:
            if nb not in seen and in_network(nb):
                seen.add(nb)
                frontier.append(nb)
        for nb in links.get(t, ()):
            if nb not in seen:
                seen.add(nb)
                frontier.append(nb)
    added: list[int] = []
    lost = 0
    cap_id = s.capital[tribe]
    for cid in s.tcities[tribe]:
        if cid == cap_id:
            continue
        now = cities[cid][C_POS] in seen
        if cid in connected:
            if not now:
                connected.remove(cid)
                add_population(s, cid, -1, tribe)
                lost += 1
        elif now:
            connected.append(cid)
            added.append(cid)
    for cid in list(connected):
        if city_tribe(s, cid) != tribe:
            connected.remove(cid)
            if cid in cities:
                add_population(s, cid, -1, tribe)
            lost += 1
    if added or lost:
        add_population(s, cap_id, len(added) - lost, tribe)
    mon = s.monuments[tribe]
    k = C.GRAND_BAZAR - _MON0
    if len(connected) >= C.GRAND_BAZAR_CITIES and mon[k] == C.MONUMENT_UNAVAILABLE:
        mon[k] = C.MONUMENT_AVAILABLE
    if tribe == s.active:
        for cid in added:
            add_population(s, cid, 1, tribe)


def _water_reach(start: int, navigable: Callable[[int], bool], nb1: tuple) -> set[int]:
    """Tiles reachable from a port in at most 4 steps over navigable water."""
    seen = {start}
    frontier = [start]
    for _ in range(C.PORT_TRADE_DISTANCE):
        nxt = []
        for t in frontier:
            for nb in nb1[t]:
                if nb not in seen and navigable(nb):
                    seen.add(nb)
                    nxt.append(nb)
        frontier = nxt
    return seen
