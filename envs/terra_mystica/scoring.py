"""Income, pass VP, round rewards and final scoring.

Source: ``specs/terra_mystica_rules.md`` sections 4, 7, 10 and 11 and the engine
(``income.pm``, ``scoring.pm``). Facts that decide play:

* Income is taken in the engine's order: the previous round's cult reward first (its own phase,
  spades used before anything else), then the held bonus tile, buildings, favor tiles.
* Pass VP come from the bonus tile being returned, FAV12, and the Engineers' stronghold (3 VP per
  own bridge joining two own buildings).
* Final scoring: cult majorities 8/4/2 and largest network 18/12/6, ties splitting the places'
  points (rounded down), nothing for position 0; then resources: burn half of bowl II, bowl III,
  priests and workers to coins, 3 coins per VP (Alchemists 2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stratagem.envs.terra_mystica.buildings import adjacent_mask, iter_bits
from stratagem.envs.terra_mystica.factions import (
    ALCHEMISTS,
    ENGINEERS,
    MERMAIDS,
)
from stratagem.envs.terra_mystica.fields import (
    BON,
    CARPET,
    CULT,
    CULTP,
    FAVS,
    NB,
    P1,
    P2,
    P3,
    SHIP,
    VP,
    C,
    P,
    W,
)
from stratagem.envs.terra_mystica.map import BRIDGE_SLOTS, HEX_DIST, RIVER_LAND, SHIP_DIST
from stratagem.envs.terra_mystica.power import gain_power, gain_priests
from stratagem.envs.terra_mystica.tiles import BONUS, FAV12_PASS_VP, FAVORS, SCORING

if TYPE_CHECKING:
    from stratagem.envs.terra_mystica.rules import TerraMysticaState

__all__ = [
    "CULT_POINTS",
    "NETWORK_POINTS",
    "building_income",
    "cult_reward",
    "income_parts",
    "network_size",
    "pass_vp",
    "rank_points",
    "resource_vp",
]

CULT_POINTS = (8, 4, 2)
NETWORK_POINTS = (18, 12, 6)


def building_income(st: TerraMysticaState, p: int) -> tuple[int, int, int, int]:
    """Coins, workers, priests, power from the buildings on the board."""
    d = st.pd[p]
    f = st.F[p]
    nd, ntp, nte, nsh, nsa = d[NB + 1], d[NB + 2], d[NB + 3], d[NB + 4], d[NB + 5]
    c = f.tp_coins[ntp]
    w = f.d_workers[nd]
    pr = f.te_priests[nte] + f.sa_priests[nsa]
    pw = f.tp_power[ntp] + f.te_power[nte]
    if nsh:
        c += f.sh_income[0]
        w += f.sh_income[1]
        pr += f.sh_income[2]
        pw += f.sh_income[3]
    return c, w, pr, pw


def income_parts(st: TerraMysticaState, p: int) -> list[tuple[int, int, int, int]]:
    """The three parts of the ordinary income, in the engine's order: bonus, buildings, favors."""
    d = st.pd[p]
    bonus = BONUS[d[BON]].income if d[BON] >= 0 else (0, 0, 0, 0)
    fav = [0, 0, 0, 0]
    favs = d[FAVS]
    for i in iter_bits(favs):
        inc = FAVORS[i].income
        for k in range(4):
            fav[k] += inc[k]
    return [bonus, building_income(st, p), (fav[0], fav[1], fav[2], fav[3])]


def take_income(st: TerraMysticaState, p: int) -> None:
    """Add the ordinary income (bonus tile, buildings, favors) to player ``p``."""
    d = st.pd[p]
    for c, w, pr, pw in income_parts(st, p):
        d[C] += c
        d[W] += w
        if pr:
            gain_priests(d, pr)
        if pw:
            gain_power(d, pw)


def cult_reward(st: TerraMysticaState, p: int, tile: int) -> int:
    """Give the end-of-round cult reward of scoring tile ``tile``; returns spades to use."""
    t = SCORING[tile]
    d = st.pd[p]
    level = d[CULTP] if t.cult < 0 else d[CULT + t.cult]
    mul = level // t.req
    if not mul:
        return 0
    amount = mul * t.amount
    if t.reward == "C":
        d[C] += amount
    elif t.reward == "W":
        d[W] += amount
    elif t.reward == "P":
        gain_priests(d, amount)
    elif t.reward == "PW":
        gain_power(d, amount)
    else:
        return amount
    return 0


def pass_vp(st: TerraMysticaState, p: int) -> int:
    """VP scored when passing: returned bonus tile, FAV12, Engineers' stronghold bridges."""
    d = st.pd[p]
    vp = 0
    if d[BON] >= 0:
        tile = BONUS[d[BON]]
        if tile.pass_kind == "D":
            vp += tile.pass_vp * d[NB + 1]
        elif tile.pass_kind == "TP":
            vp += tile.pass_vp * d[NB + 2]
        elif tile.pass_kind == "SHSA":
            vp += tile.pass_vp * (d[NB + 4] + d[NB + 5])
        elif tile.pass_kind == "ship":
            vp += tile.pass_vp * d[SHIP]
    if d[FAVS] >> 11 & 1:
        vp += FAV12_PASS_VP[d[NB + 2]]
    if st.fac[p] == ENGINEERS and d[NB + 4]:
        mine = st.mine[p]
        for slot in iter_bits(st.bmask):
            a, b = BRIDGE_SLOTS[slot]
            if st.bown[slot] == p and mine >> a & 1 and mine >> b & 1:
                vp += 3
    return vp


_NETWORK_CACHE: dict[tuple[int, ...], int] = {}


def network_size(st: TerraMysticaState, p: int) -> int:
    """Largest group of own buildings linked by adjacency, bridges, shipping or teleport range.

    Memoised on everything it depends on (planners evaluate the same boards many times).
    """
    mine = st.mine[p]
    if not mine:
        return 0
    d = st.pd[p]
    key = (st.fac[p], mine, st.bmask, st.mriv, d[SHIP], d[CARPET])
    size = _NETWORK_CACHE.get(key)
    if size is None:
        if len(_NETWORK_CACHE) > 200_000:
            _NETWORK_CACHE.clear()
        size = _NETWORK_CACHE[key] = _network_size(st, p)
    return size


def _network_size(st: TerraMysticaState, p: int) -> int:
    mine = st.mine[p]
    f = st.F[p]
    d = st.pd[p]
    cells = list(iter_bits(mine))
    if f.teleport:
        reach = 2 if f.teleport == "tunnel" else d[CARPET] + 1
        dist, limit = HEX_DIST, reach
    else:
        dist, limit = SHIP_DIST, d[SHIP]
    skip: dict[int, int] = {}
    if st.fac[p] == MERMAIDS and st.mriv:
        for r in iter_bits(st.mriv):
            land = RIVER_LAND[r]
            for x in land:
                for y in land:
                    if x != y:
                        skip[x] = skip.get(x, 0) | 1 << y
    best = 0
    seen = 0
    for start in cells:
        if seen >> start & 1:
            continue
        comp = 1 << start
        todo = [start]
        while todo:
            a = todo.pop()
            adj = adjacent_mask(st, a) | skip.get(a, 0)
            row = dist[a]
            for b in cells:
                if comp >> b & 1:
                    continue
                if adj >> b & 1 or row[b] <= limit:
                    comp |= 1 << b
                    todo.append(b)
        seen |= comp
        size = bin(comp).count("1")
        if size > best:
            best = size
    return best


def rank_points(levels: list[int], points: tuple[int, ...]) -> list[int]:
    """The engine's ranking: best levels take the places' points, ties share them rounded down.

    A level of 0 scores nothing.
    """
    ordered = sorted(levels)
    pool: dict[int, int] = {}
    count: dict[int, int] = {}
    for v in levels:
        count[v] = count.get(v, 0) + 1
    for pts in points:
        if ordered:
            v = ordered.pop()
            pool[v] = pool.get(v, 0) + pts
    return [pool[v] // count[v] if v and v in pool else 0 for v in levels]


def resource_vp(st: TerraMysticaState, p: int) -> int:
    """Convert everything to coins and coins to VP, as the engine's ``score_resources``."""
    d = st.pd[p]
    b = d[P2] // 2
    if b:
        d[P2] -= 2 * b
        d[P3] += b
    d[C] += d[P3] + d[P] + d[W]
    d[P1] += d[P3]
    d[P3] = 0
    d[P] = 0
    d[W] = 0
    rate = 2 if st.fac[p] == ALCHEMISTS else 3
    vp = d[C] // rate
    d[C] -= vp * rate
    d[VP] += vp
    return vp
