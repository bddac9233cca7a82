"""One Tribes position packed into one flat int64 array (the compiled engine's state).

Offsets (ints). ``n`` is the number of tiles; ids (units and cities share the counter
``next_id``) index fixed-width records. Capacities are fixed; a game that would exceed one
sets ``H_ERR`` and stops (the Python boundary raises), never a silent wrong game.

==============  =========  =====================================================================
offset          length     content
==============  =========  =====================================================================
``H_*`` (0)     24         magic, size, n, tribes, mode, last turn, next id, tick, player,
                           game over, error code, ranking (4, -1 unset), the generator (6, at
                           ``H_RNG``: :mod:`.rng`)
``TILES``       8·n        planes ``P_*``: terrain, resource, building, unit id, city id,
                           network, temple level (0: no temple), temple turns left
``tribes_off``  4·``TW``   per tribe ``T_*``: type, stars, score, techs, kills, pacifist,
                           result, capital, met, list lengths, monuments, then the city list,
                           the extra units and the connected cities
``ids_off``     MAXID·RW   per id ``R_KIND`` (0 none, 1 unit, 2 city), then the unit fields
                           (``units.U_*`` + 1) or the city fields (``cities.C_*`` + 1, the
                           unit list as a count and ``MAXCU`` slots)
==============  =========  =====================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from stratagem.envs.tribes.compiled.rng import from_numpy, to_numpy

if TYPE_CHECKING:
    from stratagem.envs.tribes.rules import TribesState

MAGIC = 0x5452494201  # "TRIB", layout version 1
H_MAGIC, H_SIZE, H_N, H_NT, H_MODE, H_MAXTURNS, H_NEXTID, H_TICK = range(8)
H_PLAYER, H_OVER, H_ERR, H_RANK, H_RNG = 8, 9, 10, 11, 16
HEADER = 24
P_TER, P_RES, P_BLD, P_UNIT, P_CITY, P_NET, P_TLVL, P_TTURN = range(8)
NPLANES = 8
T_TYPE, T_STARS, T_SCORE, T_TECHS, T_KILLS, T_PAC, T_RESULT, T_CAP, T_MET = range(9)
T_NTC, T_NEX, T_NCONN, T_MON = 9, 10, 11, 12
MAXTC, MAXEX, MAXCONN = 32, 64, 32
T_TC = 20
T_EX = T_TC + MAXTC
T_CONN = T_EX + MAXEX
TW = T_CONN + MAXCONN
MAXID = 512
RW = 24
R_KIND = 0
KIND_UNIT, KIND_CITY = 1, 2
U_TYPE, U_TRIBE, U_POS, U_HP, U_MAXHP, U_KILLS, U_VET, U_CITY, U_STATUS, U_BASE = range(1, 11)
C_POS, C_TRIBE, C_LEVEL, C_POP, C_NEED, C_CAPITAL, C_PROD, C_WALLS, C_BOUND = range(1, 10)
C_WORTH, C_NU, C_U0 = 10, 11, 12
MAXCU = RW - C_U0
#: Error codes of ``H_ERR``.
ERR_IDS, ERR_CITY_UNITS, ERR_LISTS = 1, 2, 3


def tribes_off(n: int) -> int:
    """Offset of tribe 0's record."""
    return HEADER + NPLANES * n


def ids_off(n: int) -> int:
    """Offset of id 0's record."""
    return tribes_off(n) + 4 * TW


def buffer_size(n: int) -> int:
    """Length of the buffer of a board of ``n`` tiles."""
    return ids_off(n) + MAXID * RW


def encode(state: TribesState) -> np.ndarray:
    """Pack a (full-observability) Python position into a new buffer.

    Raises:
        ValueError: If the position exceeds a capacity of the layout.
    """
    game = state.game
    n = state.geo.n
    buf = np.zeros(buffer_size(n), dtype=np.int64)
    if state.next_id >= MAXID:
        raise ValueError(f"tribes compiled: more than {MAXID - 1} ids")
    buf[H_MAGIC] = MAGIC
    buf[H_SIZE] = state.geo.size
    buf[H_N] = n
    buf[H_NT] = state.num_tribes
    buf[H_MODE] = game.mode
    buf[H_MAXTURNS] = game.max_turns
    buf[H_NEXTID] = state.next_id
    buf[H_TICK] = state.tick
    buf[H_PLAYER] = state.current_player
    buf[H_OVER] = int(state.game_over)
    buf[H_RANK : H_RANK + 4] = -1
    if state.ranking is not None:
        buf[H_RANK : H_RANK + len(state.ranking)] = state.ranking
    rng = state._rng
    buf[H_RNG : H_RNG + 6] = from_numpy(rng)
    for p, plane in enumerate(
        (state.terrain, state.resource, state.building, state.unit_at, state.tile_city)
    ):
        buf[HEADER + p * n : HEADER + (p + 1) * n] = plane
    buf[HEADER + P_NET * n : HEADER + (P_NET + 1) * n] = state.network
    for tile, (level, turns) in state.temples.items():
        buf[HEADER + P_TLVL * n + tile] = level
        buf[HEADER + P_TTURN * n + tile] = turns
    for t in range(state.num_tribes):
        o = tribes_off(n) + t * TW
        buf[o + T_TYPE] = state.tribe_type[t]
        buf[o + T_STARS] = state.stars[t]
        buf[o + T_SCORE] = state.score[t]
        buf[o + T_TECHS] = state.techs[t]
        buf[o + T_KILLS] = state.kills[t]
        buf[o + T_PAC] = state.pacifist[t]
        buf[o + T_RESULT] = state.result[t]
        buf[o + T_CAP] = state.capital[t]
        buf[o + T_MET] = state.met[t]
        for start, count, items, cap in (
            (T_TC, T_NTC, state.tcities[t], MAXTC),
            (T_EX, T_NEX, state.extra[t], MAXEX),
            (T_CONN, T_NCONN, state.connected[t], MAXCONN),
        ):
            if len(items) > cap:
                raise ValueError("tribes compiled: a tribe's list exceeds the layout's capacity")
            buf[o + count] = len(items)
            buf[o + start : o + start + len(items)] = items
        buf[o + T_MON : o + T_MON + 7] = state.monuments[t]
    base = ids_off(n)
    for uid, unit in state.units.items():
        o = base + uid * RW
        buf[o + R_KIND] = KIND_UNIT
        buf[o + 1 : o + 11] = unit
    for cid, city in state.cities.items():
        o = base + cid * RW
        buf[o + R_KIND] = KIND_CITY
        buf[o + 1 : o + 10] = city[:9]
        buf[o + C_WORTH] = city[10]
        units = city[9]
        if len(units) > MAXCU:
            raise ValueError("tribes compiled: a city's unit list exceeds the layout's capacity")
        buf[o + C_NU] = len(units)
        buf[o + C_U0 : o + C_U0 + len(units)] = units
    return buf


def to_dict(buf: np.ndarray) -> dict[str, Any]:
    """The position as ``TribesState._to_dict`` writes it (full observability).

    Every collection the JSON holds is sorted or kept in the buffer's list order, so the
    dictionary, and the state read back from it, are the Python position's exactly.
    """
    n, nt = int(buf[H_N]), int(buf[H_NT])
    planes = buf[HEADER : HEADER + NPLANES * n].reshape(NPLANES, n)
    tribes = [buf[tribes_off(n) + t * TW : tribes_off(n) + (t + 1) * TW] for t in range(nt)]
    recs = buf[ids_off(n) :].reshape(MAXID, RW)
    units, cities = [], []
    for i in np.flatnonzero(recs[:, R_KIND]).tolist():
        r = recs[i].tolist()
        if r[R_KIND] == KIND_UNIT:
            units.append([i, *r[1:11]])
        else:
            cities.append([i, *r[1:10], r[C_U0 : C_U0 + r[C_NU]], r[C_WORTH]])
    rank = buf[H_RANK : H_RANK + nt].tolist()

    def lists(start: int, count: int) -> list[list[int]]:
        return [tr[start : start + int(tr[count])].tolist() for tr in tribes]

    def field(k: int) -> list[int]:
        return [int(tr[k]) for tr in tribes]

    return {
        "tick": int(buf[H_TICK]),
        "current_player": int(buf[H_PLAYER]),
        "game_over": bool(buf[H_OVER]),
        "native": True,
        "ranking": None if rank[0] < 0 else rank,
        "tribe_type": field(T_TYPE),
        "terrain": planes[P_TER].tolist(),
        "resource": planes[P_RES].tolist(),
        "building": planes[P_BLD].tolist(),
        "unit_at": planes[P_UNIT].tolist(),
        "tile_city": planes[P_CITY].tolist(),
        "network": planes[P_NET].tolist(),
        "temples": [
            [t, int(planes[P_TLVL, t]), int(planes[P_TTURN, t])]
            for t in np.flatnonzero(planes[P_TLVL]).tolist()
        ],
        "units": units,
        "cities": cities,
        "stars": field(T_STARS),
        "score": field(T_SCORE),
        "techs": field(T_TECHS),
        "kills": field(T_KILLS),
        "pacifist": field(T_PAC),
        "result": field(T_RESULT),
        "capital": field(T_CAP),
        "tcities": lists(T_TC, T_NTC),
        "extra": lists(T_EX, T_NEX),
        "connected": lists(T_CONN, T_NCONN),
        "monuments": [tr[T_MON : T_MON + 7].tolist() for tr in tribes],
        "met": field(T_MET),
        "vis": None,
        "next_id": int(buf[H_NEXTID]),
        "rng": to_numpy(buf[H_RNG : H_RNG + 6].tolist()).bit_generator.state,
    }
