"""What a tribe sees: the observation tensor and the agent's copy of the state.

Observation planes (``H × W × 100``, float32 in [0, 1], relative to the observing tribe: "seat
offset k" is the tribe ``k`` seats after the observer in turn order, 0 being the observer):

=======  ==============================  ======================================================
planes   name                            value
=======  ==============================  ======================================================
0-7      ``terrain_<t>``                 one-hot terrain (plain, shallow water, deep water,
                                         mountain, village, city, forest, fog); fog = unseen
8-14     ``resource_<r>``                fish, fruit, animal, whales, ore, crops, ruins (crops
                                         need Organization, ore Climbing, whales Fishing to be
                                         seen, as in the reference)
15-33    ``building_<b>``                one-hot building (19 types)
34       ``road``                        a road
35-38    ``territory_<k>``               tile of a city of seat offset k (when that city is seen)
39-42    ``city_<k>``                    city centre of seat offset k
43-46    ``capital_<k>``                 original capital of seat offset k (held by anyone)
47       ``city_level``                  level of the city here / 8 (capped at 1)
48       ``city_walls``                  the city here has walls
49-60    ``unit_<type>``                 one-hot type of the unit here (12 types)
61-64    ``unit_owner_<k>``              the unit here belongs to seat offset k
65       ``unit_hp``                     health / maximum health
66       ``unit_veteran``                the unit is a veteran
67       ``unit_can_move``               own unit that may still move this turn
68       ``unit_can_attack``             own unit that may still attack (convert, heal)
69       ``unit_fresh``                  own unit that has not acted (capture, examine, recover)
70       ``own_stars``                   own stars / 100 (capped), on every tile
71       ``turn``                        turn / turn limit
72-95    ``tech_<t>``                    own researched technologies (24), on every tile
96-99    ``score_<k>``                   score of seat offset k / 20000 (capped), every tile
=======  ==============================  ======================================================

Other tribes' private figures (stars, technologies, kills, population, production, unit homes)
are never part of an observation, in either observability mode, and with partial observability
nothing of an unseen tile is (a test re-draws hidden information and checks that the observation
stays the same).

:func:`observed_copy` builds the state an agent is handed (the reference's ``copy(playerIdx)``):
other tribes' stars, kills, technologies, city lists, populations, productions and unit homes are
hidden; with partial observability unseen tiles become fog (the forward model treats them as plain
empty tiles, as in the reference); resources the observer cannot identify are removed. The copy is
marked non-native: a tribe losing its last visible city there is not eliminated. Its random
generator is a fresh one derived from the real one, so simulations cannot foresee the real game's
chance events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from stratagem.envs.tribes import cities as CT
from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes import units as UN

if TYPE_CHECKING:
    from stratagem.envs.tribes.rules import TribesState

__all__ = ["OBSERVATION_PLANES", "observe", "observed_copy"]

OBSERVATION_PLANES: tuple[str, ...] = (
    tuple(f"terrain_{t}" for t in C.TERRAIN_NAMES)
    + tuple(f"resource_{name}" for name in C.RESOURCE_NAMES.values())
    + tuple(f"building_{b}" for b in C.BUILDING_NAMES)
    + ("road",)
    + tuple(f"territory_{k}" for k in range(4))
    + tuple(f"city_{k}" for k in range(4))
    + tuple(f"capital_{k}" for k in range(4))
    + ("city_level", "city_walls")
    + tuple(f"unit_{u}" for u in C.UNIT_NAMES)
    + tuple(f"unit_owner_{k}" for k in range(4))
    + ("unit_hp", "unit_veteran", "unit_can_move", "unit_can_attack", "unit_fresh")
    + ("own_stars", "turn")
    + tuple(f"tech_{t.name}" for t in C.TECHS)
    + tuple(f"score_{k}" for k in range(4))
)
P_TERRAIN = 0
P_RESOURCE = 8
P_BUILDING = 15
P_ROAD = 34
P_TERRITORY = 35
P_CITY = 39
P_CAPITAL = 43
P_LEVEL = 47
P_WALLS = 48
P_UNIT = 49
P_OWNER = 61
P_HP = 65
P_VET = 66
P_MOVE = 67
P_ATTACK = 68
P_FRESH = 69
P_STARS = 70
P_TURN = 71
P_TECH = 72
P_SCORE = 96
NUM_PLANES = 100
assert len(OBSERVATION_PLANES) == NUM_PLANES

#: Resources hidden until the observer has the technology that reveals them.
_MASKED = {C.CROPS: C.ORGANIZATION, C.ORE: C.CLIMBING, C.WHALES: C.FISHING}


def visible_resource(res: int, techs: int) -> int:
    """The resource the observer can identify (the reference's ``maskResource``)."""
    tech = _MASKED.get(res)
    if tech is not None and not techs >> tech & 1:
        return C.NO_RESOURCE
    return res


def observe(s: TribesState, player: int) -> np.ndarray:
    """The observation tensor of ``player`` (see the module docstring)."""
    geo = s.geo
    size, n = geo.size, geo.n
    nt = s.num_tribes
    obs = np.zeros((n, NUM_PLANES), dtype=np.float32)
    vis = s.vis[player]
    partial = s.game.partial
    techs = s.techs[player]
    terrain, resource, building = s.terrain, s.resource, s.building
    network, tile_city, cities = s.network, s.tile_city, s.cities
    tiles = range(n)
    seen = [t for t in tiles if vis[t]] if partial else tiles
    if partial:
        fog = [t for t in tiles if not vis[t]]
        obs[fog, P_TERRAIN + C.FOG] = 1.0
    ter = [terrain[t] for t in seen]
    # a view's unseen tiles are FOG already; they must not light the terrain planes twice
    obs[list(seen), [P_TERRAIN + x for x in ter]] = 1.0
    for t in seen:
        res = resource[t]
        if res >= 0:
            res = visible_resource(res, techs)
            if res >= 0:
                obs[t, P_RESOURCE + C.RESOURCE_INDEX[res]] = 1.0
        b = building[t]
        if b >= 0:
            obs[t, P_BUILDING + b] = 1.0
        if network[t]:
            x = terrain[t]
            if x != C.SHALLOW_WATER and x != C.DEEP_WATER and x != C.CITY:
                obs[t, P_ROAD] = 1.0
        cid = tile_city[t]
        if cid:
            city = cities.get(cid)
            if city is not None and vis[city[0]]:
                obs[t, P_TERRITORY + (city[1] - player) % nt] = 1.0
    for city in cities.values():
        pos = city[0]
        if not vis[pos]:
            continue
        k = (city[1] - player) % nt
        obs[pos, P_CITY + k] = 1.0
        obs[pos, P_LEVEL] = min(1.0, city[2] / 8.0)
        obs[pos, P_WALLS] = float(city[7])
    for k, cap in enumerate(s.capital):
        city = cities.get(cap)
        if city is not None and vis[city[0]]:
            obs[city[0], P_CAPITAL + (k - player) % nt] = 1.0
    after_move, after_attack = C.AFTER_MOVE, C.AFTER_ATTACK
    for unit in s.units.values():
        pos = unit[2]
        if not vis[pos]:
            continue
        row = obs[pos]
        utype = unit[0]
        row[P_UNIT + utype] = 1.0
        k = (unit[1] - player) % nt
        row[P_OWNER + k] = 1.0
        row[P_HP] = max(0.0, min(1.0, unit[3] / unit[4])) if unit[4] > 0 else 0.0
        row[P_VET] = float(unit[6])
        if k == 0:
            status = unit[8]
            row[P_MOVE] = float(after_move[utype][status] >= 0)
            row[P_ATTACK] = float(after_attack[utype][status] >= 0)
            row[P_FRESH] = float(status == C.FRESH)
    obs[:, P_STARS] = min(1.0, max(0.0, s.stars[player] / 100.0))
    obs[:, P_TURN] = min(1.0, s.tick / max(1, s.game.max_turns))
    for tech in range(C.NUM_TECHS):
        if techs >> tech & 1:
            obs[:, P_TECH + tech] = 1.0
    for t in range(nt):
        obs[:, P_SCORE + (t - player) % nt] = min(1.0, max(0.0, s.score[t] / 20000.0))
    return obs.reshape(size, size, NUM_PLANES)


def observed_copy(s: TribesState, player: int) -> TribesState:
    """The state as tribe ``player`` may know it (see the module docstring)."""
    v = s.clone()
    v._own_board()  # the fog is written on the copy's board
    v.native = False
    nt = s.num_tribes
    n = s.geo.n
    vis = s.vis[player]
    partial = s.game.partial
    techs = s.techs[player]
    # the board
    for t in range(n):
        if partial and not vis[t]:
            v.terrain[t] = C.FOG
            v.resource[t] = C.NO_RESOURCE
            v.building[t] = C.NO_BUILDING
            v.unit_at[t] = 0
            v.tile_city[t] = 0
            v.network[t] = 0
            v.temples.pop(t, None)
        else:
            res = v.resource[t]
            if res >= 0:
                v.resource[t] = visible_resource(res, techs)
    # other tribes' actors: keep what is seen, hide the private parts
    for cid in list(v.cities):
        city = v.cities[cid]
        if city[CT.C_TRIBE] == player:
            continue
        if partial and not vis[city[CT.C_POS]]:
            del v.cities[cid]
            continue
        city[CT.C_POP] = 0
        city[CT.C_PROD] = 0
        city[CT.C_UNITS] = []
    for uid in list(v.units):
        unit = v.units[uid]
        if unit[UN.U_TRIBE] == player:
            continue
        if partial and not vis[unit[UN.U_POS]]:
            del v.units[uid]
            continue
        unit[UN.U_CITY] = 0
        unit[UN.U_KILLS] = 0
    full = (1,) * n
    for t in range(nt):
        if t == player:
            continue
        v.stars[t] = 0
        v.kills[t] = 0
        v.pacifist[t] = 0
        v.techs[t] = 0
        v.tcities[t] = sorted(cid for cid, c in v.cities.items() if c[CT.C_TRIBE] == t)
        v.extra[t] = sorted(uid for uid, u in v.units.items() if u[UN.U_TRIBE] == t)
        v.connected[t] = []
        v.met[t] = 0
        v.monuments[t] = [C.MONUMENT_BUILT] * len(C.MONUMENTS)  # unknown: never buildable
        if partial:
            v.vis[t] = list(full)  # the reference lets other tribes see everything
    # a fresh generator: the copy cannot foresee the real game's chance events
    words = s._rng.bit_generator.state["state"]  # type: ignore[union-attr]
    entropy = [int(words["state"]) & (2**64 - 1), int(words["state"]) >> 64, player, 0x7B1E5]
    v._rng = np.random.default_rng(np.random.SeedSequence(entropy))
    v._rng_owned = True
    v._legal = None
    return v
