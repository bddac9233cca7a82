"""The AlphaTM observation: ``9 × 26 × (48 P + 110)`` float32 planes, ``H × W × C``.

Source: ``papers/terra_mystica_alphatm.txt`` section 2.3. The map is the doubled grid: hex
``(r, c)`` covers columns ``2c, 2c + 1`` on rows A, C, E, G, I and ``2c + 1, 2c + 2`` on rows B,
D, F, H, whose columns 0 and 25 are water padding. The planes come in the paper's groups and
order; values are raw counts (a "constant layer" repeats one number over the whole grid).
Players are relative to the observer: the first player block is the observer's, then the
following seats in seat order.

Board (96 planes; the paper lists 88 and counts 96, the last 8 are ours):

=======  ===========================================================================
planes   content
=======  ===========================================================================
0–7      terrain one-hot: Plains, Swamp, Lakes, Forest, Mountains, Wasteland, Desert,
         water (rivers and padding)
8–12     structures: dwelling, trading post, sanctuary, temple, stronghold (paper order)
13–18    power actions ACT1–ACT6: 1 when taken this round (constant)
19–66    round scoring tiles SCORE1–SCORE8 × rounds 1–6: plane ``19 + 6 (t − 1) + (r − 1)``
         is 1 when tile ``t`` scores round ``r`` (constant)
67–78    favor tiles FAV1–FAV12 left in the supply (constant counts)
79–87    bonus tiles BON1–BON9 in this game (constant 0/1)
88       owner of each building: relative seat + 1 (observer 1)
89       1 on buildings that belong to a town
90       round number, 0 in setup (constant)
91       kind of the pending decision (constant code, see ``DECISION_CODES``)
92       relative seat + 1 of the player to decide (constant; 0 when over)
93       supply table (cells, row/column): row 0 coins on BON1–BON10; row 1 BON1–BON10 in
         the supply; row 2 town tiles TW1–TW8 left; row 3 scoring tile number of rounds
         1–6 (SCORE9 included); row 4 cult order spaces (Fire 3, 2, 2, 2, Water ..., 16
         columns) holding relative seat + 1; row 5: BON10 in the game, power and builder
         (relative seat + 1) of the leech offer being decided, the track (Fire 1 .. Air 4)
         whose town step to 10 is being decided and the tracks left to decide
94       player table, row = relative player: passed, bonus action used, FAV6 action used,
         faction action used, keys, holds BON10, TW6, TW7, TW8 held, position in this
         round's turn order, position in the passing order, cult-reward spades to place,
         cultist cult steps to place, teleport level, carpet range, priests on cult spaces;
         then for the acting player: spades held, main actions left, town
         tiles, cult choices, bridge, Darklings conversion pending, terraforms left, build
         allowed, dig allowed, home-terrain-only
95       turn marks: 1 on hexes terraformed to home this action (a dwelling may follow), 2 on
         the hex reached by tunnel/carpet this turn, 3 on rivers the Mermaids connected
=======  ===========================================================================

Per player (48 planes each, constant unless said): workers, priests, coins, power bowls I,
II, III, terraform cost (workers per spade; Darklings: 1 priest), shipping level, Fire, Water,
Earth, Air, dwellings, trading posts, temples, strongholds, sanctuaries, VP, next income of
workers, priests, coins, power, bridges still available; bridges (spatial: 1 on the river hexes
the player's bridges cross); bonus tile held BON1–BON9; favor tiles (the paper's 10 planes:
number of FAV1–FAV4 held, FAV5–FAV12 held, favor tiles still to choose); town tiles TW1–TW5 held.

Factions (14 planes, alphabetical engine names): relative seat + 1 of the player playing that
faction, 0 for factions not in the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from stratagem.envs.terra_mystica.factions import CULTISTS, DARKLINGS, FACTION_NAMES
from stratagem.envs.terra_mystica.fields import (
    BON,
    BON_USED,
    BRIDGES,
    CARPET,
    CULT,
    CULTP,
    DIG,
    FAV6_USED,
    FAVS,
    KEY,
    NB,
    P1,
    P2,
    P3,
    PASSED,
    SH_USED,
    SHIP,
    TELE,
    TW,
    VP,
    C,
    P,
    W,
)
from stratagem.envs.terra_mystica.map import (
    BRIDGE_RIVERS,
    COLS,
    GRID_COLS,
    NAMES,
    NUM_CELLS,
    RIVER,
)
from stratagem.envs.terra_mystica.scoring import income_parts

if TYPE_CHECKING:
    from stratagem.envs.terra_mystica.rules import TerraMysticaState

__all__ = ["BOARD_PLANES", "DECISION_CODES", "PLAYER_PLANES", "encode", "observation_planes"]

_TERRAINS = ("plains", "swamp", "lakes", "forest", "mountains", "wasteland", "desert", "water")
BOARD_PLANES: tuple[str, ...] = (
    *(f"terrain_{t}" for t in _TERRAINS),
    "dwelling",
    "trading_post",
    "sanctuary",
    "temple",
    "stronghold",
    *(f"ACT{i + 1}_taken" for i in range(6)),
    *(f"SCORE{t + 1}_round{r + 1}" for t in range(8) for r in range(6)),
    *(f"FAV{i + 1}_supply" for i in range(12)),
    *(f"BON{i + 1}_in_game" for i in range(9)),
    "building_owner",
    "town",
    "round",
    "decision",
    "to_move",
    "supply_table",
    "player_table",
    "turn_marks",
)
PLAYER_PLANES: tuple[str, ...] = (
    "workers",
    "priests",
    "coins",
    "power_1",
    "power_2",
    "power_3",
    "terraform_cost",
    "shipping",
    "cult_fire",
    "cult_water",
    "cult_earth",
    "cult_air",
    "num_D",
    "num_TP",
    "num_TE",
    "num_SH",
    "num_SA",
    "vp",
    "income_workers",
    "income_priests",
    "income_coins",
    "income_power",
    "bridges_available",
    "bridges",
    *(f"BON{i + 1}" for i in range(9)),
    "FAV1_4_count",
    *(f"FAV{i + 5}" for i in range(8)),
    "favors_to_choose",
    *(f"TW{i + 1}" for i in range(5)),
)
assert len(BOARD_PLANES) == 96 and len(PLAYER_PLANES) == 48

#: Codes of the ``decision`` plane.
DECISION_CODES = {
    "over": 0,
    "setup dwelling": 1,
    "setup bonus": 2,
    "main action": 3,
    "end of turn": 4,
    "spades": 5,
    "tile choice": 6,
    "cult track": 7,
    "bridge": 8,
    "leech": 9,
    "cultist step": 10,
    "income spades": 11,
    "darklings conversion": 12,
    "town cult step": 13,
    "action": 3,
}


def observation_planes(num_players: int) -> tuple[str, ...]:
    """Names of the ``48 P + 110`` channels."""
    names = list(BOARD_PLANES)
    for k in range(num_players):
        names += [f"p{k}_{x}" for x in PLAYER_PLANES]
    names += [f"faction_{f}" for f in FACTION_NAMES]
    return tuple(names)


# grid positions of every cell, and the water padding
_ROWS = np.array([c // COLS for c in range(NUM_CELLS) for _ in (0, 1)], dtype=np.intp)
_COLS = np.array([GRID_COLS[c][k] for c in range(NUM_CELLS) for k in (0, 1)], dtype=np.intp)
_EXISTS = np.array([bool(NAMES[c]) for c in range(NUM_CELLS) for _ in (0, 1)])
_ROWS, _COLS = _ROWS[_EXISTS], _COLS[_EXISTS]
_CELL_OF_POS = np.array([c for c in range(NUM_CELLS) for _ in (0, 1)])[_EXISTS]
_PAD = [(r, col) for r in (1, 3, 5, 7) for col in (0, 25)]
_STRUCT_PLANE = (0, 8, 9, 11, 12, 10)  # building kind -> plane (D, TP, TE, SH, SA)


def _mark(obs: np.ndarray, cell: int, plane: int, value: float) -> None:
    r = cell // COLS
    c0, c1 = GRID_COLS[cell]
    obs[r, c0, plane] = value
    obs[r, c1, plane] = value


def encode(st: TerraMysticaState, me: int) -> np.ndarray:
    """The observation of player ``me``."""
    from stratagem.envs.terra_mystica import rules as R

    n = st.n
    nplanes = 96 + 48 * n + 14
    rel = [(p - me) % n for p in range(n)]
    const = np.zeros(nplanes, dtype=np.float32)
    for i in range(6):
        if st.act_used >> i & 1:
            const[13 + i] = 1.0
    for r, t in enumerate(st.score_tiles):
        if t < 8:
            const[19 + 6 * t + r] = 1.0
    const[67:79] = st.fav_supply
    const[79:88] = st.bon_game[:9]
    const[90] = st.round
    const[91] = DECISION_CODES[st.decision()] if st.phase != R.OVER else 0
    const[92] = 0 if st.phase == R.OVER else rel[st.current_player] + 1
    for p in range(n):
        d = st.pd[p]
        f = st.F[p]
        base = 96 + 48 * rel[p]
        const[base + 0] = d[W]
        const[base + 1] = d[P]
        const[base + 2] = d[C]
        const[base + 3] = d[P1]
        const[base + 4] = d[P2]
        const[base + 5] = d[P3]
        const[base + 6] = 1 if st.fac[p] == DARKLINGS else f.dig_workers[d[DIG]]
        const[base + 7] = d[SHIP]
        const[base + 8 : base + 12] = d[CULT : CULT + 4]
        const[base + 12 : base + 17] = d[NB + 1 : NB + 6]
        const[base + 17] = d[VP]
        inc = [0, 0, 0, 0]
        for part in income_parts(st, p):
            for k in range(4):
                inc[k] += part[k]
        const[base + 18] = inc[1]
        const[base + 19] = inc[2]
        const[base + 20] = inc[0]
        const[base + 21] = inc[3]
        const[base + 22] = 3 - d[BRIDGES]
        if 0 <= d[BON] < 9:
            const[base + 24 + d[BON]] = 1.0
        favs = d[FAVS]
        const[base + 33] = bin(favs & 0xF).count("1")
        for i in range(8):
            const[base + 34 + i] = favs >> (4 + i) & 1
        if st.phase == R.ACTION and p == st.act:
            const[base + 42] = st.ctx[R.X_FAV]
        const[base + 43 : base + 48] = d[TW : TW + 5]
        const[96 + 48 * n + st.fac[p]] = rel[p] + 1
    obs = np.empty((9, 26, nplanes), dtype=np.float32)
    obs[...] = const
    # terrain and structures
    terrain = np.asarray(st.terrain, dtype=np.intp)[_CELL_OF_POS]
    terrain[terrain == -1] = RIVER
    obs[_ROWS, _COLS, terrain] = 1.0
    for r, col in _PAD:
        obs[r, col, 7] = 1.0
    for p in range(n):
        m = st.mine[p]
        while m:
            low = m & -m
            cell = low.bit_length() - 1
            m ^= low
            _mark(obs, cell, _STRUCT_PLANE[st.bld[cell]], 1.0)
            _mark(obs, cell, 88, rel[p] + 1)
            if st.town[cell]:
                _mark(obs, cell, 89, 1.0)
    # bridges
    b = st.bmask
    while b:
        low = b & -b
        slot = low.bit_length() - 1
        b ^= low
        plane = 96 + 48 * rel[st.bown[slot]] + 23
        for river in BRIDGE_RIVERS[slot]:
            _mark(obs, river, plane, 1.0)
    # turn marks
    for cell in st.build_locs:
        _mark(obs, cell, 95, 1.0)
    if st.phase == R.ACTION and st.ctx[R.X_TELE] >= 0:
        _mark(obs, st.ctx[R.X_TELE], 95, 2.0)
    m = st.mriv
    while m:
        low = m & -m
        _mark(obs, low.bit_length() - 1, 95, 3.0)
        m ^= low
    # supply table (plane 93)
    t = obs[:, :, 93]
    t[0, :10] = st.bon_coins
    t[1, :10] = st.bon_supply
    t[2, :8] = st.tw_supply
    t[3, :6] = [x + 1 for x in st.score_tiles]
    t[4, :16] = [0 if q < 0 else rel[q] + 1 for q in st.cult_spaces]
    t[5, 0] = st.bon_game[9]
    if st.phase == R.LEECH:
        _, frm, amount, _ = st.leech[0]
        t[5, 1] = amount
        t[5, 2] = rel[frm] + 1
    if st.phase == R.ACTION and st.ctx[R.X_TCULT]:
        mask = st.ctx[R.X_TCULT]
        t[5, 3] = (mask & -mask).bit_length()  # the track decided: Fire 1 .. Air 4
        t[5, 4] = bin(mask).count("1")
    # player table (plane 94)
    t = obs[:, :, 94]
    x = st.ctx
    for p in range(n):
        d = st.pd[p]
        row = t[rel[p]]
        row[0] = d[PASSED]
        row[1] = d[BON_USED]
        row[2] = d[FAV6_USED]
        row[3] = d[SH_USED]
        row[4] = d[KEY]
        row[5] = 1 if d[BON] == 9 else 0
        row[6:9] = d[TW + 5 : TW + 8]
        row[9] = st.order.index(p) + 1
        row[10] = st.pass_order.index(p) + 1 if p in st.pass_order else 0
        row[11] = st.inc_spades[p]
        row[12] = st.cpend if st.fac[p] == CULTISTS else 0
        row[13] = d[TELE]
        row[14] = d[CARPET]
        row[15] = d[CULTP]
        if st.phase in (R.ACTION, R.INCOME_SPADES) and p == st.act:
            row[16] = x[R.X_SPADES]
            row[17] = x[R.X_ACTIONS]
            row[18] = x[R.X_TW]
            row[19] = x[R.X_CULT] * max(1, x[R.X_CSTEPS])
            row[20] = x[R.X_BRIDGE]
            row[21] = x[R.X_WP]
            row[22] = max(0, x[R.X_TF])
            row[23] = x[R.X_BUILD]
            row[24] = x[R.X_DIG]
            row[25] = x[R.X_HOME]
    return obs
