"""The Terra Mystica base map: terrains, hex names, adjacency, river distances and bridge slots.

Source: ``specs/terra_mystica_rules.md`` section 2, checked against the online engine
(jsnell/terra-mystica ``Game/Constants.pm`` base map and ``map.pm``). The board has 9 rows
(A..I) of 13 positions; odd rows (B, D, F, H) have 12 positions and are drawn half a hex to
the right. A cell is addressed by ``13 * row + position`` (117 cells, of which 113 exist: 77 land
hexes and 36 river hexes).

Everything here is computed once at import and shared by every state:

* ``TERRAIN0``: the printed terrain of each cell (0..6 land in the paper's order Plains, Swamp,
  Lakes, Forest, Mountains, Wasteland, Desert; ``RIVER``; ``NONE`` for the 4 missing cells).
* ``NAMES`` / ``CELL_OF``: log names (``E7``, ``r12``), land counted per row, rivers in reading
  order, exactly as the engine names them.
* ``ADJ``: edge neighbours of every cell; ``ADJ_MASK``: the same as a bit mask over cells.
* ``SHIP_DIST[a][b]``: the number of river hexes on the shortest all-river path between two land
  hexes (the engine's ``range{1}``), used for shipping; ``HEX_DIST``: crow-flies hex distance
  (tunnelling, carpet flight).
* ``BRIDGE_SLOTS``: the 29 pairs of land hexes a bridge may join.
* ``GRID_COLS``: the two columns each hex covers in the AlphaTM 9 x 26 doubled grid.
"""

from __future__ import annotations

__all__ = [
    "ADJ",
    "ADJ_MASK",
    "BRIDGE_MASK",
    "BRIDGE_RIVERS",
    "BRIDGE_SLOTS",
    "BRIDGE_SLOT_OF",
    "CELL_OF",
    "COLOR_NAMES",
    "COLS",
    "GRID_COLS",
    "GRID_H",
    "GRID_W",
    "HEX_DIST",
    "HEX_MASK",
    "LAND_ADJ_MASK",
    "LAND_CELLS",
    "LAND_MASK",
    "NAMES",
    "NONE",
    "NUM_CELLS",
    "RIVER",
    "RIVER_CELLS",
    "RIVER_LAND",
    "ROWS",
    "SHIP_DIST",
    "SHIP_MASK",
    "TERRAIN0",
    "TERRAIN_LETTERS",
    "TERRAIN_NAMES",
    "cell_name",
    "parse_cell",
    "spade_distance",
]

ROWS = 9
COLS = 13
NUM_CELLS = ROWS * COLS
GRID_H, GRID_W = 9, 26

#: Land terrains in the AlphaTM paper's order (which is also the order around the terraform wheel).
TERRAIN_NAMES = ("plains", "swamp", "lakes", "forest", "mountains", "wasteland", "desert")
TERRAIN_LETTERS = ("P", "S", "L", "F", "M", "W", "D")
#: The engine's colour of each terrain (used by the game logs).
COLOR_NAMES = ("brown", "black", "blue", "green", "gray", "red", "yellow")
RIVER = 7
NONE = -1

_BASE_MAP = (
    "P M F L D W P S W F L W S",
    "D ~ ~ P S ~ ~ D S ~ ~ D",
    "~ ~ S ~ M ~ F ~ F ~ M ~ ~",
    "F L D ~ ~ W L ~ W ~ W P",
    "S P W L S P M D ~ ~ F S L",
    "M F ~ ~ D F ~ ~ ~ P M P",
    "~ ~ ~ M ~ W ~ F ~ D S L D",
    "D L P ~ ~ ~ L S ~ M P M",
    "W S M L W F D P M ~ L F W",
)


def spade_distance(a: int, b: int) -> int:
    """Steps between two land terrains the short way round the 7-terrain wheel (0..3)."""
    d = abs(a - b) % 7
    return min(d, 7 - d)


def _build() -> tuple:
    terrain = [NONE] * NUM_CELLS
    names = [""] * NUM_CELLS
    river_count = 0
    for r, row in enumerate(_BASE_MAP):
        land = 0
        for c, letter in enumerate(row.split()):
            cell = COLS * r + c
            if letter == "~":
                terrain[cell] = RIVER
                names[cell] = f"r{river_count}"
                river_count += 1
            else:
                terrain[cell] = TERRAIN_LETTERS.index(letter)
                land += 1
                names[cell] = f"{'ABCDEFGHI'[r]}{land}"
    exists = [t != NONE for t in terrain]

    def at(r: int, c: int) -> int:
        if 0 <= r < ROWS and 0 <= c < COLS and exists[COLS * r + c]:
            return COLS * r + c
        return -1

    adj: list[tuple[int, ...]] = []
    for cell in range(NUM_CELLS):
        if not exists[cell]:
            adj.append(())
            continue
        r, c = divmod(cell, COLS)
        off = c - 1 if r % 2 == 0 else c
        cand = [at(r, c - 1), at(r, c + 1)]
        for dr in (-1, 1):
            cand += [at(r + dr, off), at(r + dr, off + 1)]
        adj.append(tuple(sorted(x for x in cand if x >= 0)))

    land = [cell for cell in range(NUM_CELLS) if exists[cell] and terrain[cell] != RIVER]
    rivers = [cell for cell in range(NUM_CELLS) if terrain[cell] == RIVER]

    # River distance (the engine's range{1}): breadth-first through river hexes only; a land hex
    # reached after k river hexes has distance k. Directly adjacent land is not reached this way.
    inf = 99
    ship = [[inf] * NUM_CELLS for _ in range(NUM_CELLS)]
    for a in land:
        seen = {a: -1}
        frontier = [x for x in adj[a] if terrain[x] == RIVER]
        for x in frontier:
            seen[x] = 0
        level = 0
        while frontier and level < 6:
            level += 1
            nxt = []
            for x in frontier:
                for y in adj[x]:
                    if y not in seen:
                        seen[y] = level
                        if terrain[y] == RIVER:
                            nxt.append(y)
            frontier = nxt
        for y, d in seen.items():
            if terrain[y] != RIVER and y != a:
                ship[a][y] = d

    # Crow-flies hex distance by breadth-first search over every existing cell.
    hexd = [[inf] * NUM_CELLS for _ in range(NUM_CELLS)]
    for a in range(NUM_CELLS):
        if not exists[a]:
            continue
        dist = {a: 0}
        frontier = [a]
        while frontier:
            nxt = []
            for x in frontier:
                for y in adj[x]:
                    if y not in dist:
                        dist[y] = dist[x] + 1
                        nxt.append(y)
            frontier = nxt
        for y, d in dist.items():
            hexd[a][y] = d

    # Bridge slots, following the engine's construction: two land hexes two steps apart whose
    # common neighbours are rivers (or one river and one missing cell), and one river step apart.
    slots = set()

    def record(a: int, b: int) -> None:
        if b >= 0 and terrain[b] not in (RIVER, NONE) and ship[a][b] == 1:
            slots.add((min(a, b), max(a, b)))

    def is_river(r: int, c: int) -> bool:
        x = at(r, c)
        return x >= 0 and terrain[x] == RIVER

    for a in land:
        r, c = divmod(a, COLS)
        off = c - (1 if r % 2 == 0 else 0)
        sw_r, se_r = is_river(r + 1, off), is_river(r + 1, off + 1)
        sw_missing, se_missing = at(r + 1, off) < 0, at(r + 1, off + 1) < 0
        if (sw_r and se_r) or (sw_r and se_missing) or (se_r and sw_missing):
            record(a, at(r + 2, c))
        if is_river(r, c - 1) and is_river(r + 1, off):
            record(a, at(r + 1, off - 1))
        if is_river(r, c + 1) and is_river(r + 1, off + 1):
            record(a, at(r + 1, off + 2))
    bridge_slots = tuple(sorted(slots))
    bridge_rivers = tuple(
        tuple(sorted(x for x in set(adj[a]) & set(adj[b]) if terrain[x] == RIVER))
        for a, b in bridge_slots
    )
    return terrain, names, adj, land, rivers, ship, hexd, bridge_slots, bridge_rivers


(
    _TERRAIN,
    _NAMES,
    _ADJ,
    _LAND,
    _RIVERS,
    _SHIP,
    _HEXD,
    _BRIDGE_SLOTS,
    _BRIDGE_RIVERS,
) = _build()

TERRAIN0: tuple[int, ...] = tuple(_TERRAIN)
NAMES: tuple[str, ...] = tuple(_NAMES)
CELL_OF: dict[str, int] = {name: cell for cell, name in enumerate(NAMES) if name}
ADJ: tuple[tuple[int, ...], ...] = tuple(_ADJ)
ADJ_MASK: tuple[int, ...] = tuple(sum(1 << x for x in nb) for nb in ADJ)
LAND_CELLS: tuple[int, ...] = tuple(_LAND)
RIVER_CELLS: tuple[int, ...] = tuple(_RIVERS)
SHIP_DIST: tuple[tuple[int, ...], ...] = tuple(tuple(row) for row in _SHIP)
HEX_DIST: tuple[tuple[int, ...], ...] = tuple(tuple(row) for row in _HEXD)
BRIDGE_SLOTS: tuple[tuple[int, int], ...] = _BRIDGE_SLOTS
BRIDGE_RIVERS: tuple[tuple[int, ...], ...] = _BRIDGE_RIVERS
BRIDGE_SLOT_OF: dict[tuple[int, int], int] = {}
for _i, (_a, _b) in enumerate(BRIDGE_SLOTS):
    BRIDGE_SLOT_OF[(_a, _b)] = _i
    BRIDGE_SLOT_OF[(_b, _a)] = _i
#: Bit mask of the bridge slots touching each cell.
BRIDGE_MASK: tuple[int, ...] = tuple(
    sum(1 << i for i, (a, b) in enumerate(BRIDGE_SLOTS) if cell in (a, b))
    for cell in range(NUM_CELLS)
)


def _grid_cols(cell: int) -> tuple[int, int]:
    r, c = divmod(cell, COLS)
    left = 2 * c + (r % 2)
    return left, left + 1


#: The two columns of the 9 x 26 doubled grid each cell covers (row = the cell's row).
GRID_COLS: tuple[tuple[int, int], ...] = tuple(_grid_cols(cell) for cell in range(NUM_CELLS))


def cell_name(cell: int) -> str:
    """Log name of a cell (``E7``, ``r12``)."""
    if not 0 <= cell < NUM_CELLS or not NAMES[cell]:
        raise ValueError(f"terra_mystica: {cell!r} is not a cell of the map")
    return NAMES[cell]


def parse_cell(name: str) -> int:
    """Cell of a log name (``E7``, ``e7``, ``r12``).

    Raises:
        ValueError: If the name is no hex of the base map.
    """
    key = name.strip()
    key = key.lower() if key[:1] in "rR" else key.upper()
    if key not in CELL_OF:
        raise ValueError(f"terra_mystica: unknown hex {name!r}")
    return CELL_OF[key]


#: Bit mask of the land cells.
LAND_MASK: int = sum(1 << c for c in LAND_CELLS)
#: ``SHIP_MASK[s][cell]``: land cells within shipping range ``s`` (0..7) of ``cell``.
SHIP_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(1 << b for b in LAND_CELLS if b != a and SHIP_DIST[a][b] <= s)
        if a in CELL_OF.values()
        else 0
        for a in range(NUM_CELLS)
    )
    for s in range(8)
)
#: ``HEX_MASK[d][cell]``: land cells at crow-flies distance 1..``d`` of ``cell`` (d = 0..6).
HEX_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << b for b in LAND_CELLS if 0 < HEX_DIST[a][b] <= d) for a in range(NUM_CELLS))
    for d in range(7)
)
#: Land neighbours of each cell as a mask (rivers excluded).
LAND_ADJ_MASK: tuple[int, ...] = tuple(m & LAND_MASK for m in ADJ_MASK)
#: Land neighbours of each river cell, for the Mermaids' river-crossing towns.
RIVER_LAND: dict[int, tuple[int, ...]] = {
    r: tuple(x for x in ADJ[r] if TERRAIN0[x] != RIVER) for r in RIVER_CELLS
}
