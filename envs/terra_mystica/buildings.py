"""Buildings on the map: adjacency with bridges, reach, power leech and town formation.

Source: ``specs/terra_mystica_rules.md`` sections 2.3, 4, 5 and 8 and the engine
(``map.pm`` ``check_reachable``, ``compute_leech``, ``find_building_cliques``; ``towns.pm``).
Facts that decide play:

* A bridge makes its two hexes directly adjacent for every purpose and every player.
* Reach (where a player may build or terraform): directly adjacent to one of its buildings, or
  within its shipping range (rivers only, plus 1 with BON4 while not passed), or by one tunnel
  (Dwarves, hex distance 2) / carpet flight (Fakirs, distance range + 1) per action, which costs
  extra and gives 4 VP and is only charged when nothing else reaches.
* Leech: every other player with buildings directly adjacent to the built hex is offered the
  sum of their power values there, in turn order after the builder.
* A town: a group of directly connected own buildings (Mermaids also across rivers they
  connected) with power at least 7 (6 with FAV5) and at least 4 buildings, a sanctuary counting
  twice; later buildings next to a town join it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stratagem.envs.terra_mystica.factions import BUILDING_POWER, MERMAIDS, SA
from stratagem.envs.terra_mystica.fields import BON, CARPET, SHIP, TOWN_SIZE
from stratagem.envs.terra_mystica.map import (
    ADJ_MASK,
    BRIDGE_MASK,
    BRIDGE_SLOTS,
    HEX_MASK,
    LAND_ADJ_MASK,
    RIVER_LAND,
    SHIP_MASK,
)

if TYPE_CHECKING:
    from stratagem.envs.terra_mystica.rules import TerraMysticaState

__all__ = [
    "adjacent_mask",
    "detect_town",
    "iter_bits",
    "leech_offers",
    "mermaid_town_rivers",
    "opponent_adjacent",
    "own_group",
    "reach_masks",
]


def iter_bits(mask: int):
    """Yield the set bit positions of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def adjacent_mask(st: TerraMysticaState, cell: int) -> int:
    """Cells directly adjacent to ``cell``: edges plus placed bridges."""
    m = ADJ_MASK[cell]
    b = BRIDGE_MASK[cell] & st.bmask
    while b:
        low = b & -b
        a, c = BRIDGE_SLOTS[low.bit_length() - 1]
        m |= 1 << (c if a == cell else a)
        b ^= low
    return m


def _skip_mask(st: TerraMysticaState, cell: int) -> int:
    """Land cells the Mermaids link to ``cell`` across rivers they connected."""
    m = 0
    for r in iter_bits(st.mriv & ADJ_MASK[cell]):
        for x in RIVER_LAND[r]:
            if x != cell:
                m |= 1 << x
    return m


def own_adjacent(st: TerraMysticaState, p: int, cell: int) -> int:
    """Own buildings linked to ``cell`` for towns (bridges; Mermaids' river links)."""
    m = adjacent_mask(st, cell)
    if st.mriv and st.fac[p] == MERMAIDS:
        m |= _skip_mask(st, cell)
    return m & st.mine[p]


def opponent_adjacent(st: TerraMysticaState, p: int, cell: int) -> bool:
    """True when another player's building is directly adjacent (TP price, engine rule)."""
    others = 0
    for q in range(st.n):
        if q != p:
            others |= st.mine[q]
    return bool(adjacent_mask(st, cell) & others)


def reach_masks(st: TerraMysticaState, p: int, passed: bool) -> tuple[int, int]:
    """Land cells player ``p`` reaches directly or by ship, and those it reaches only by teleport.

    Args:
        st: The state.
        p: The player.
        passed: True in the cult-reward spade phase: no BON4 range, no tunnel or carpet.
    """
    mine = st.mine[p]
    d = st.pd[p]
    direct = 0
    ship = d[SHIP]
    f = st.F[p]
    if f.ship_max and d[BON] == 3 and not passed:
        ship += 1
    ship_mask = SHIP_MASK[ship] if ship else None
    m = mine
    while m:
        low = m & -m
        cell = low.bit_length() - 1
        m ^= low
        direct |= LAND_ADJ_MASK[cell]
        if ship_mask is not None:
            direct |= ship_mask[cell]
    b = st.bmask
    while b:
        low = b & -b
        a, c = BRIDGE_SLOTS[low.bit_length() - 1]
        b ^= low
        if mine >> a & 1:
            direct |= 1 << c
        if mine >> c & 1:
            direct |= 1 << a
    tele = 0
    if f.teleport and not passed:
        dist = 2 if f.teleport == "tunnel" else d[CARPET] + 1
        hm = HEX_MASK[dist]
        m = mine
        while m:
            low = m & -m
            cell = low.bit_length() - 1
            m ^= low
            tele |= hm[cell]
        tele &= ~direct
    return direct, tele


def leech_offers(st: TerraMysticaState, p: int, cell: int) -> list[tuple[int, int]]:
    """(player, power) offered by a build or upgrade of ``p`` at ``cell``, in offer order."""
    adj = adjacent_mask(st, cell)
    out = []
    for q in st.leech_order(p):
        m = adj & st.mine[q]
        if m:
            amount = 0
            bld = st.bld
            while m:
                low = m & -m
                amount += BUILDING_POWER[bld[low.bit_length() - 1]]
                m ^= low
            out.append((q, amount))
    return out


def own_group(st: TerraMysticaState, p: int, start_mask: int) -> tuple[int, int, int]:
    """Connected own buildings reachable from ``start_mask``: (mask, power, count with SA x2)."""
    seen = 0
    todo = start_mask
    power = 0
    count = 0
    bld = st.bld
    while todo:
        low = todo & -todo
        cell = low.bit_length() - 1
        todo ^= low
        if seen & low:
            continue
        seen |= low
        kind = bld[cell]
        power += BUILDING_POWER[kind]
        count += 2 if kind == SA else 1
        todo |= own_adjacent(st, p, cell) & ~seen
    return seen, power, count


def _add_to_town(st: TerraMysticaState, p: int, cell: int) -> None:
    st.town = (*st.town[:cell], 1, *st.town[cell + 1 :])
    for x in iter_bits(own_adjacent(st, p, cell)):
        if not st.town[x]:
            _add_to_town(st, p, x)


def detect_town(st: TerraMysticaState, p: int, cell: int) -> bool:
    """The engine's ``detect_towns_from``: join a neighbouring town or found a new one.

    Returns True when a new town was founded (the player then owes a town tile choice).
    """
    if st.town[cell] or st.own[cell] != p:
        return False
    for x in iter_bits(own_adjacent(st, p, cell)):
        if st.town[x]:
            _add_to_town(st, p, cell)
    if st.town[cell]:
        return False
    group, power, count = own_group(st, p, 1 << cell)
    if power >= st.pd[p][TOWN_SIZE] and count >= 4 and st.town_tiles_left() > 0:
        town = list(st.town)
        for x in iter_bits(group):
            town[x] = 1
        st.town = tuple(town)
        st.ctx[11] += 1  # X_TW: a town tile to choose
        return True
    return False


def mermaid_town_rivers(st: TerraMysticaState, p: int) -> list[int]:
    """River cells across which the Mermaids could found a town now (engine ``connect``)."""
    if st.fac[p] != MERMAIDS or st.town_tiles_left() <= 0:
        return []
    out = []
    size = st.pd[p][TOWN_SIZE]
    mine = st.mine[p]
    for r, land in RIVER_LAND.items():
        if st.mriv >> r & 1:
            continue
        start = 0
        for x in land:
            if mine >> x & 1:
                if st.town[x]:
                    start = -1
                    break
                start |= 1 << x
        if start <= 0:
            continue
        _, power, count = own_group(st, p, start)
        if power >= size and count >= 4:
            out.append(r)
    return out
