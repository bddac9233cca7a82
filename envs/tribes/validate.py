"""Checks of a Tribes state read from JSON: ranges and the invariants of play.

A state's JSON is untrusted input, and the rules trust their state: a city's territory radius
is looped over, ids index dictionaries, a unit's health divides its attack. So a state read back
must be one that play could have produced: :func:`check_state` refuses anything else with an
:class:`InvalidStateError` naming the field. (A city border radius of 10⁹ used to be accepted,
and the next ``apply`` then built a square of 10¹⁸ tiles.)

The checks: every per-tile value in its range; every unit on its tile, of a type, tribe, health
and status that exist, in exactly one list of its tribe; every city on a city tile that it owns
(a city centre always belongs to its own city), with its level, population, territory radius
(1 or 2) and units as play leaves them; the tribes' lists, technologies (each with its parent),
monuments and results; the turn counter and the end of the game.

Copies made for an agent (``native`` false, :meth:`TribesState.observed_by`) hide things: fog
tiles, other tribes' cities and units out of sight, their private figures zeroed. For them the
checks that hiding breaks are relaxed (a territory may belong to a city that is not there, the
capital of another tribe may be unknown, other tribes' technologies are zero).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stratagem.envs.state_json import InvalidStateError
from stratagem.envs.tribes import constants as C

if TYPE_CHECKING:
    from stratagem.envs.tribes.rules import TribesState

__all__ = ["MAX_COUNT", "check_state"]

#: Cap on stars, kills, the pacifist count and similar counters: far above any game, low enough
#: for every arithmetic on them to stay small.
MAX_COUNT = 1_000_000
#: Cap on a tribe's score and a city's worth (the observation scales scores by 20,000).
MAX_SCORE = 10_000_000
#: Highest city level kept (a city gains one level per level-up; 50 turns give far fewer).
MAX_LEVEL = 100
#: How far a city's population may exceed what its next level needs (one action adds a few).
MAX_POP_OVER = 50
_RESOURCES = frozenset((C.FISH, C.FRUIT, C.ANIMAL, C.WHALES, C.ORE, C.CROPS, C.RUINS))
_WATER = frozenset((C.SHALLOW_WATER, C.DEEP_WATER))


def _bad(msg: str) -> InvalidStateError:
    return InvalidStateError(f"tribes: malformed state JSON: {msg}")


def _range(value: int, lo: int, hi: int, field: str) -> None:
    if not lo <= value <= hi:
        raise _bad(f"{field} must be in {lo}..{hi}, got {value}")


def check_state(s: TribesState) -> None:
    """Refuse a state that play could not have produced (see the module docstring).

    The field types (integers, lists of the right lengths) were checked by the caller.

    Raises:
        InvalidStateError: Naming the first field found wrong.
    """
    _check_board(s)
    _check_units(s)
    _check_cities(s)
    _check_tribes(s)
    _check_turn(s)


def _check_board(s: TribesState) -> None:
    native = s.native
    for tile in range(s.geo.n):
        _range(s.terrain[tile], 0, C.FOG if not native else C.FOREST, f"terrain[{tile}]")
        res = s.resource[tile]
        if res != C.NO_RESOURCE and res not in _RESOURCES:
            raise _bad(f"resource[{tile}] must be -1 or a resource, got {res}")
        if s.building[tile] != C.NO_BUILDING and not s.tile_city[tile] and native:
            raise _bad(f"building[{tile}] stands outside every city's territory")
    for tile, entry in s.temples.items():
        level, turns = entry
        _range(tile, 0, s.geo.n - 1, "temples (tile)")
        if s.building[tile] not in C.TEMPLES:
            raise _bad(f"temples lists tile {tile}, which holds no temple")
        _range(level, 1, 5, f"temples[{tile}] (level)")
        _range(turns, 0, C.TEMPLE_TURNS_TO_SCORE, f"temples[{tile}] (turns)")
    if native:
        for tile in range(s.geo.n):
            if s.building[tile] in C.TEMPLES and tile not in s.temples:
                raise _bad(f"building[{tile}] is a temple missing from temples")


def _base_hp(unit: list[int]) -> int:
    """Maximum health of a unit before the veteran bonus (a ship's is its crew's)."""
    utype = unit[0]
    if utype in C.WATER_UNITS:
        crew = unit[9] if unit[9] >= 0 else C.WARRIOR
        return C.UNITS[crew].max_hp
    return C.UNITS[utype].max_hp


def _check_units(s: TribesState) -> None:
    nt = s.num_tribes
    land = [t for t in range(C.NUM_UNIT_TYPES) if t not in C.WATER_UNITS]
    for uid, unit in s.units.items():
        where = f"unit {uid}"
        _range(uid, 1, s.next_id - 1, f"{where} (id, below next_id)")
        if len(unit) != 10:
            raise _bad(f"{where} must have 10 fields")
        utype, tribe, pos, hp, max_hp, kills, vet, city, status, base = unit
        _range(utype, 0, C.NUM_UNIT_TYPES - 1, f"{where} type")
        _range(tribe, 0, nt - 1, f"{where} tribe")
        if s.result[tribe] == C.LOSS and s.native and not s.game_over:
            raise _bad(f"{where} belongs to tribe {tribe}, which is out of the game")
        _range(pos, 0, s.geo.n - 1, f"{where} tile")
        if s.unit_at[pos] != uid:
            raise _bad(f"{where} is not where the board says")
        _range(vet, 0, 1, f"{where} veteran flag")
        if utype in C.WATER_UNITS:
            if base != -1 and base not in land:
                raise _bad(f"{where} carries unit type {base}, which is not a land unit")
        elif base != -1:
            raise _bad(f"{where} is a land unit but carries type {base}")
        if max_hp != _base_hp(unit) + C.VETERAN_PLUS_HP * vet:
            raise _bad(f"{where} maximum health {max_hp} is not its type's (veteran: +5)")
        _range(hp, 1, max_hp, f"{where} health")
        _range(kills, 0, MAX_COUNT, f"{where} kills")
        _range(status, 0, len(C.STATUS_NAMES) - 1, f"{where} status")
        ter = s.terrain[pos]
        if ter != C.FOG and (ter in _WATER) != (utype in C.WATER_UNITS):
            raise _bad(f"{where} is a {C.UNIT_NAMES[utype]} on {C.TERRAIN_NAMES[ter]}")
        if city:
            home = s.cities.get(city)
            if home is None or uid not in home[9] or home[1] != tribe:
                raise _bad(f"{where} names city {city}, which does not list it")
        elif uid not in s.extra[tribe]:
            raise _bad(f"{where} has no city and is not an extra unit of its tribe")
    for tile, uid in enumerate(s.unit_at):
        if uid and uid not in s.units:
            raise _bad(f"tile {tile} holds unknown unit {uid}")


def _check_cities(s: TribesState) -> None:
    nt = s.num_tribes
    native = s.native
    dist = s.geo.dist
    capitals = set(s.capital)
    for cid, city in s.cities.items():
        where = f"city {cid}"
        _range(cid, 1, s.next_id - 1, f"{where} (id, below next_id)")
        pos, tribe, level, pop, need, capital, prod, walls, bound, units, worth = city
        _range(pos, 0, s.geo.n - 1, f"{where} tile")
        _range(tribe, 0, nt - 1, f"{where} tribe")
        if s.terrain[pos] != C.CITY:
            raise _bad(f"{where} stands on tile {pos}, which is not a city tile")
        if s.tile_city[pos] != cid:
            raise _bad(f"{where}'s centre tile {pos} must belong to the city itself")
        _range(level, 1, MAX_LEVEL, f"{where} level")
        if need != level + 1:
            raise _bad(f"{where} must need level + 1 = {level + 1} population, not {need}")
        _range(pop, -level, need + MAX_POP_OVER, f"{where} population")
        _range(capital, 0, 1, f"{where} capital flag")
        if native and bool(capital) != (cid in capitals):
            raise _bad(f"{where} capital flag disagrees with the tribes' capitals")
        _range(prod, 0, 100, f"{where} production bonus")
        _range(walls, 0, 1, f"{where} walls")
        _range(bound, 1, 2, f"{where} territory radius")
        if bound == 2 and level < 4:
            raise _bad(f"{where} has territory radius 2 below level 4")
        if len(set(units)) != len(units) or len(units) > level + 1:
            raise _bad(f"{where} lists its units twice or more than level + 1 of them")
        for uid in units:
            unit = s.units.get(uid)
            if unit is None or unit[7] != cid:
                raise _bad(f"{where} lists unit {uid}, which is not one of its units")
        _range(worth, -MAX_SCORE, MAX_SCORE, f"{where} worth")
        for t in range(nt):
            if t != tribe and cid in s.tcities[t]:
                raise _bad(f"{where} of tribe {tribe} is listed by tribe {t}")
        if cid not in s.tcities[tribe]:
            raise _bad(f"{where} is missing from its tribe's cities")
    for tile, cid in enumerate(s.tile_city):
        if not cid:
            continue
        city = s.cities.get(cid)
        if city is None:
            if native:
                raise _bad(f"tile {tile} belongs to unknown city {cid}")
            continue
        if dist(tile, city[0]) > city[8]:
            raise _bad(f"tile {tile} lies outside the territory radius of city {cid}")
    if native:
        for tile in range(s.geo.n):
            if s.terrain[tile] == C.CITY and not s.tile_city[tile]:
                raise _bad(f"terrain[{tile}] is a city tile without a city")


def _check_tribes(s: TribesState) -> None:
    nt = s.num_tribes
    native = s.native
    listed: set[int] = set()
    for t in range(nt):
        _range(s.stars[t], 0, MAX_COUNT, f"stars[{t}]")
        _range(s.score[t], 0, MAX_SCORE, f"score[{t}]")
        _range(s.kills[t], 0, MAX_COUNT, f"kills[{t}]")
        _range(s.pacifist[t], 0, MAX_COUNT, f"pacifist[{t}]")
        _range(s.result[t], C.INCOMPLETE, C.LOSS, f"result[{t}]")
        _range(s.met[t], 0, (1 << nt) - 1, f"met[{t}]")
        techs = s.techs[t]
        _range(techs, 0, C.ALL_TECHS_MASK, f"techs[{t}]")
        for tech in range(C.NUM_TECHS):
            parent = C.TECHS[tech].parent
            if techs >> tech & 1 and parent >= 0 and not techs >> parent & 1:
                raise _bad(f"techs[{t}] holds {C.TECH_NAMES[tech]} without its parent")
        start = C.TRIBES[s.tribe_type[t]].tech
        if (native or techs) and not techs >> start & 1:  # a view zeroes others' techs
            raise _bad(f"techs[{t}] lacks the tribe's starting technology")
        monuments = s.monuments[t]
        if len(monuments) != len(C.MONUMENTS):
            raise _bad(f"monuments[{t}] must have {len(C.MONUMENTS)} entries")
        for k, m in enumerate(monuments):
            _range(m, C.MONUMENT_UNAVAILABLE, C.MONUMENT_BUILT, f"monuments[{t}][{k}]")
        cities = s.tcities[t]
        if len(set(cities)) != len(cities):
            raise _bad(f"tcities[{t}] lists a city twice")
        for cid in cities:
            if cid not in s.cities:
                raise _bad(f"tribe {t} lists unknown city {cid}")
        if native and s.capital[t] not in s.cities:
            raise _bad(f"capital[{t}] is unknown city {s.capital[t]}")
        for cid in s.connected[t]:
            if cid not in cities:
                raise _bad(f"connected[{t}] lists city {cid}, not one of the tribe's")
        if len(set(s.connected[t])) != len(s.connected[t]):
            raise _bad(f"connected[{t}] lists a city twice")
        for uid in s.extra[t]:
            unit = s.units.get(uid)
            if unit is None or unit[1] != t or unit[7]:
                raise _bad(f"extra[{t}] lists unit {uid}, which is not a homeless unit of it")
            if uid in listed:
                raise _bad(f"extra[{t}] lists unit {uid} twice")
            listed.add(uid)
        if native and not s.game_over and (s.result[t] == C.LOSS) != (not cities):
            raise _bad(f"result[{t}]: a tribe is out exactly when it has no city")
    capitals = s.capital
    if native and len(set(capitals)) != nt:
        raise _bad("capital must name a different city per tribe")


def _check_turn(s: TribesState) -> None:
    nt = s.num_tribes
    _range(s.tick, 0, s.game.max_turns + 1, "tick")
    ids = [*s.units, *s.cities]
    if len(set(ids)) != len(ids):
        raise _bad("a unit and a city share an id")
    if s.game_over:
        ranking = s.ranking
        if ranking is None or sorted(ranking) != list(range(nt)):
            raise _bad("ranking must order every tribe once the game is over")
        for k, t in enumerate(ranking):
            if s.result[t] != (C.WIN if k == 0 else C.LOSS):
                raise _bad("result must be a win for the first of the ranking, else a loss")
    else:
        if s.ranking is not None:
            raise _bad("ranking must be null while the game goes on")
        if any(r == C.WIN for r in s.result):
            raise _bad("result holds a win while the game goes on")
        if s.tick > s.game.max_turns:
            raise _bad("tick is past the last turn while the game goes on")
        if s.result[s.current_player] == C.LOSS:
            raise _bad("current_player is a tribe that is out of the game")
