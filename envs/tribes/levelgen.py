"""Tribes levels: the procedural generator, the level-file format and the bundled levels.

The generator is the reference's ``core.levelgen.LevelGenerator`` (itself a port of
QuasiStellar's Polytopia map generator), re-implemented step by step from
``specs/tribes_rules.md`` section 2.4 and the reference's 1.0 code, with a bit-exact port of
``java.util.Random``: the same seed gives the same map as the Java framework, so the paper's 25
tournament levels (``tournament.json``) are reproduced exactly. The generator's quirks are kept
on purpose (they shape every map): the smoothing marks are never cleared between passes, coasts
are eroded (land next to deep water becomes shallow water), villages are placed in index order,
and the ruins' spacing step marks the ring around the cell whose *index* equals the ruin's mark.
Two deviations, both where the Java generator breaks: where the Java loop placing ruins could
never finish (every candidate cell is shallow water or deep water with the water quota used up)
we stop placing ruins; and where Imperius' fruits or Bardur's animals would be written over a
neighbouring capital (capitals are side by side only on boards smaller than 10, where the Java
generator then loses a tribe or fails to parse its own map) the draw is taken again.

Level files (``.csv``) hold one line per board row, comma-separated tiles ``T:R`` (terrain
character, optional resource character); a city tile ``c:K`` is the capital of tribe key ``K``
(0 Xin-Xi, 1 Imperius, 2 Bardur, 3 Oumaji). Tribes take their turns in the order their capitals
appear, row by row (the reference's loader).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from stratagem.envs.tribes import constants as C

__all__ = [
    "BUNDLED_LEVELS",
    "LAND_RATIO_RANGE",
    "MAP_SIZE_RANGE",
    "JavaRandom",
    "Level",
    "LevelError",
    "generate_level",
    "load_level",
    "parse_level",
    "tournament_seeds",
]


class LevelError(ValueError):
    """A level file, level name or generator configuration that cannot make a game."""


#: Generated map sides the generator accepts (the ``map_size`` option), inclusive.
MAP_SIZE_RANGE = (6, 32)
#: Initial land ratios the generator accepts (the ``initial_land`` option), inclusive: the
#: fraction of tiles seeded as land before smoothing, kept away from all-water and all-land.
LAND_RATIO_RANGE = (0.05, 0.95)


@dataclass(frozen=True)
class Level:
    """A board before play starts.

    Attributes:
        size: Side of the square board.
        terrain: Terrain per tile (row-major, ``row * size + col``).
        resource: Resource per tile (``-1`` none).
        capitals: ``(tile, tribe type)`` per tribe, in turn order.
        name: Where the level came from (file name or ``seed:<n>``).
    """

    size: int
    terrain: tuple[int, ...]
    resource: tuple[int, ...]
    capitals: tuple[tuple[int, int], ...]
    name: str = ""

    def to_csv(self) -> str:
        """The level in the reference's file format."""
        lines = []
        tribe_at = {tile: tribe for tile, tribe in self.capitals}
        for r in range(self.size):
            row = []
            for c in range(self.size):
                i = r * self.size + c
                t = self.terrain[i]
                if i in tribe_at:
                    row.append(f"c:{tribe_at[i]}")
                else:
                    res = self.resource[i]
                    row.append(
                        C.TERRAIN_CHARS[t] + ":" + (C.RESOURCE_CHARS[res] if res >= 0 else "")
                    )
            lines.append(",".join(row))
        return "\n".join(lines)


# ------------------------------------------------------------------------------------ java random


class JavaRandom:
    """``java.util.Random``: the 48-bit linear congruential generator, bit for bit.

    Only what the level generator needs: the seed scrambling, ``next(bits)``, ``nextDouble`` and
    ``nextInt(bound)``.
    """

    _MULT = 0x5DEECE66D
    _MASK = (1 << 48) - 1

    __slots__ = ("_seed",)

    def __init__(self, seed: int) -> None:
        self._seed = (int(seed) ^ self._MULT) & self._MASK

    def next_bits(self, bits: int) -> int:
        """Java's ``next(bits)`` (as a signed 32-bit int)."""
        self._seed = (self._seed * self._MULT + 0xB) & self._MASK
        value = self._seed >> (48 - bits)
        if value >= 1 << 31:
            value -= 1 << 32
        return value

    def next_double(self) -> float:
        """Java's ``nextDouble()``: 53 random bits in [0, 1)."""
        return ((self.next_bits(26) << 27) + self.next_bits(27)) * (1.0 / (1 << 53))

    def next_int(self, bound: int) -> int:
        """Java's ``nextInt(bound)`` for a positive bound."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        if bound & -bound == bound:
            return (bound * self.next_bits(31)) >> 31
        while True:
            bits = self.next_bits(31)
            val = bits % bound
            if bits - val + (bound - 1) < 1 << 31:
                return val


# ------------------------------------------------------------------------------------ data files


_DATA = Path(__file__).resolve().parent / "data"


def _data_text(*parts: str) -> str:
    return _DATA.joinpath(*parts).read_text()


_PROBS: dict[str, dict[str, float]] | None = None


def terrain_probabilities() -> dict[str, dict[str, float]]:
    """``terrainProbs.json``: the base probability and per-tribe multiplier of each feature."""
    global _PROBS
    if _PROBS is None:
        _PROBS = json.loads(_data_text("terrainProbs.json"))
    return _PROBS


def tournament_seeds() -> tuple[int, ...]:
    """The 25 level seeds of the paper's tournament (``tournament.json``)."""
    data = json.loads(_data_text("tournament.json"))
    return tuple(int(s) for s in data["Level Seeds"])


#: Levels shipped with the package (the reference's ``levels/`` folder), by name.
BUNDLED_LEVELS = (
    "BalancedLevel4p",
    "MinimalLevel",
    "MinimalLevel2",
    "MinimalLevel_water",
    "MovementPlayground",
    "SampleLevel",
    "SampleLevel2p",
    "SampleLevel4p_2",
    "test",
    "test-edit",
    "test2",
)

# ------------------------------------------------------------------------------------ parsing


def parse_level(text: str, name: str = "level") -> Level:
    """Read a level in the reference's CSV format.

    Raises:
        LevelError: For a non-square board, an unknown terrain or resource character, a city
            without a valid tribe key, a tribe with two capitals, or fewer than two tribes.
    """
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        raise LevelError(f"tribes level {name!r} is empty")
    size = len(lines)
    terrain: list[int] = []
    resource: list[int] = []
    capitals: list[tuple[int, int]] = []
    for r, line in enumerate(lines):
        cells = line.split(",")
        if cells and cells[-1].strip() == "":
            cells = cells[:-1]  # a trailing comma (several reference levels have one)
        if len(cells) != size:
            raise LevelError(
                f"tribes level {name!r}: row {r} has {len(cells)} tiles, expected {size} "
                "(levels are square: one line per row)"
            )
        for c, cell in enumerate(cells):
            t_char, _, r_char = cell.partition(":")
            if len(t_char) != 1 or t_char not in C.TERRAIN_OF_CHAR or t_char == " ":
                raise LevelError(f"tribes level {name!r}: unknown terrain {t_char!r} at ({r},{c})")
            t = C.TERRAIN_OF_CHAR[t_char]
            res = -1
            if t == C.CITY:
                if not r_char.isdigit() or int(r_char) >= len(C.TRIBES):
                    raise LevelError(
                        f"tribes level {name!r}: city at ({r},{c}) needs a tribe key 0..3, "
                        f"got {r_char!r}"
                    )
                tribe = int(r_char)
                if any(tr == tribe for _, tr in capitals):
                    raise LevelError(
                        f"tribes level {name!r}: tribe {C.TRIBES[tribe].name} has two capitals"
                    )
                capitals.append((r * size + c, tribe))
            elif r_char:
                if r_char not in C.RESOURCE_OF_CHAR:
                    raise LevelError(
                        f"tribes level {name!r}: unknown resource {r_char!r} at ({r},{c})"
                    )
                res = C.RESOURCE_OF_CHAR[r_char]
            terrain.append(t)
            resource.append(res)
    if len(capitals) < 2:
        raise LevelError(f"tribes level {name!r} has {len(capitals)} capital(s); at least 2 needed")
    if len(capitals) > 4:
        raise LevelError(f"tribes level {name!r} has {len(capitals)} capitals; at most 4 tribes")
    return Level(size, tuple(terrain), tuple(resource), tuple(capitals), name)


def load_level(spec: str) -> Level:
    """A bundled level by name (``"SampleLevel2p"``) or a level file by path.

    Raises:
        LevelError: If the name is unknown or the file is malformed.
    """
    if spec in BUNDLED_LEVELS:
        return parse_level(_data_text("levels", spec + ".csv"), spec)
    path = Path(spec)
    if path.suffix.lower() == ".csv" and path.is_file():
        return parse_level(path.read_text(), str(path))
    raise LevelError(
        f"unknown tribes level {spec!r}: give a bundled level ({', '.join(BUNDLED_LEVELS)}) "
        "or the path of a .csv level file"
    )


# ------------------------------------------------------------------------------------ generator


def _jdiv(a: int, b: int) -> int:
    """Java integer division (truncates towards zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


class _Generator:
    """One run of the reference's generator on a ``size × size`` board (see module docstring)."""

    def __init__(self, seed: int, size: int, tribes: Sequence[int], initial_land: float) -> None:
        self.rnd = JavaRandom(seed)
        self.size = size
        self.tribes = list(tribes)
        self.initial_land = initial_land
        self.land_coefficient = (0.5 + 4) / 9  # relief 4
        self.smoothing = 3
        n = size * size
        self.terrain = ["d"] * n
        self.resource = [""] * n
        self.probs = terrain_probabilities()

    # --- helpers (the reference's geometry, clipping included)
    def random_int(self, lo: int, hi: int) -> int:
        return math.floor(lo + self.rnd.next_double() * (hi - lo))

    def circle(self, center: int, radius: int) -> list[int]:
        size = self.size
        row = _jdiv(center, size)
        column = center - row * size  # Java's remainder keeps the sign
        out = []
        i = row - radius
        if 0 <= i < size:
            for j in range(column - radius, column + radius):
                if 0 <= j < size:
                    out.append(i * size + j)
        i = row + radius
        if 0 <= i < size:
            for j in range(column + radius, column - radius, -1):
                if 0 <= j < size:
                    out.append(i * size + j)
        j = column - radius
        if 0 <= j < size:
            for i in range(row + radius, row - radius, -1):
                if 0 <= i < size:
                    out.append(i * size + j)
        j = column + radius
        if 0 <= j < size:
            for i in range(row - radius, row + radius):
                if 0 <= i < size:
                    out.append(i * size + j)
        return out

    def disk(self, center: int, radius: int) -> list[int]:
        out = []
        for r in range(1, radius + 1):
            out.extend(self.circle(center, r))
        out.append(center)
        return out

    def cross(self, center: int) -> list[int]:
        size = self.size
        row, column = divmod(center, size)
        out = []
        if column > 0:
            out.append(center - 1)
        if column < size - 1:
            out.append(center + 1)
        if row > 0:
            out.append(center - size)
        if row < size - 1:
            out.append(center + size)
        return out

    def distance(self, a: int, b: int) -> int:
        ay, ax = divmod(a, self.size)
        by, bx = divmod(b, self.size)
        return max(abs(ax - bx), abs(ay - by))

    def prob(self, feature: str, owner: int) -> float:
        table = self.probs[feature]
        mult = 1.0 if owner < 0 else float(table[C.TRIBE_JSON_KEYS[owner]])
        return float(table["BASE"]) * mult

    def proc(self, marks: list[int], cell: int, probability: float) -> bool:
        mark = marks[cell]
        if mark == 2:
            return self.rnd.next_double() < probability
        if mark == 1:
            return self.rnd.next_double() < probability * (1 / 3.0)
        return False

    # --- the steps
    def generate(self) -> Level:
        size, n = self.size, self.size * self.size
        terrain, resource = self.terrain, self.resource
        # 1. land seeding
        i = 0
        while i < n * self.initial_land:
            index = self.random_int(0, n)
            if terrain[index] == "d":
                i += 1
                terrain[index] = "."
        # 2. smoothing (the marks accumulate over the passes)
        to_be_ground: set[int] = set()
        for _ in range(self.smoothing):
            for cell in range(n):
                disk = self.disk(cell, 1)
                water = sum(1 for c in disk if terrain[c] == "d")
                if water / len(disk) <= self.land_coefficient:
                    to_be_ground.add(cell)
            for cell in range(n):
                terrain[cell] = "." if cell in to_be_ground else "d"
        # 3. capitals, as far from each other as possible
        candidates = [
            r * size + c
            for r in range(2, size - 2)
            for c in range(2, size - 2)
            if terrain[r * size + c] == "."
        ]
        order = _java_hashmap_order(candidates)
        capitals: list[int] = []
        for _ in self.tribes:
            values = {}
            for cell in order:
                v = size
                for cap in capitals:
                    v = min(v, self.distance(cell, cap))
                values[cell] = v
            best = max(values.values()) if values else 0
            count = sum(1 for cell in order if values[cell] == best)
            pick = self.random_int(0, count)
            for cell in order:
                if values[cell] == best:
                    if pick == 0:
                        capitals.append(cell)
                    pick -= 1
        if len(capitals) != len(self.tribes) or len(set(capitals)) != len(capitals):
            raise LevelError(
                f"tribes level generator: a {size}x{size} board with land ratio "
                f"{self.initial_land} has room for {len(set(capitals))} capital(s), "
                f"{len(self.tribes)} tribes need one each (try another seed or a larger map)"
            )
        for k, cap in enumerate(capitals):
            terrain[cap] = "c"
            resource[cap] = str(self.tribes[k])
        # 4. biomes: round-robin flood fill from the capitals
        done = set(capitals)
        done_count = len(capitals)
        active = [[cap] for cap in capitals]
        owner = [-1] * n
        while done_count != n:
            for k, tribe in enumerate(self.tribes):
                act = active[k]
                if not act:
                    continue
                rand_number = self.random_int(0, len(act))
                rand_cell = act[rand_number]
                neighbours = self.circle(rand_cell, 1)
                valid = [c for c in neighbours if c not in done and terrain[c] != "d"]
                if not valid:
                    valid = [c for c in neighbours if c not in done]
                if valid:
                    new_cell = valid[self.random_int(0, len(valid))]
                    owner[new_cell] = tribe
                    act.append(new_cell)
                    done.add(new_cell)
                    done_count += 1
                else:
                    del act[rand_number]
            if not any(active) and done_count != n:  # pragma: no cover - cannot happen
                raise LevelError("tribes level generator: biome flood fill got stuck")
        # 5. forests and mountains
        for cell in range(n):
            if terrain[cell] == ".":
                u = self.rnd.next_double()
                if u < self.prob("FOREST", owner[cell]):
                    terrain[cell] = "f"
                elif u > 1 - self.prob("MOUNTAIN", owner[cell]):
                    terrain[cell] = "m"
        # 6. village map
        marks = [0] * n
        for cell in range(n):
            row, column = divmod(cell, size)
            if terrain[cell] in ("d", "m"):
                marks[cell] = -1
            elif row == 0 or row == size - 1 or column == 0 or column == size - 1:
                marks[cell] = -1
        # 7. shallow water: the first cross neighbour of deep water that is land erodes
        for cell in range(n):
            if terrain[cell] == "d":
                for nb in self.cross(cell):
                    if terrain[nb] in (".", "f", "m"):
                        terrain[nb] = "s"
                        break

        # 8-9. capital and village marks
        def mark(center: int) -> None:
            marks[center] = 3
            for c in self.circle(center, 1):
                marks[c] = max(marks[c], 2)
            for c in self.circle(center, 2):
                marks[c] = max(marks[c], 1)

        for cap in capitals:
            mark(cap)
        while 0 in marks:
            mark(marks.index(0))
        # 10. resources and villages
        for cell in range(n):
            t = terrain[cell]
            own = owner[cell]
            if t == ".":
                fruit = self.prob("FRUIT", own)
                crop = self.prob("CROPS", own)
                if marks[cell] == 3:
                    terrain[cell] = "v"
                elif self.proc(marks, cell, fruit * (1 - crop / 2)):
                    resource[cell] = "f"
                elif self.proc(marks, cell, crop * (1 - fruit / 2)):
                    resource[cell] = "c"
            elif t == "f":
                if marks[cell] == 3:
                    terrain[cell] = "v"
                    resource[cell] = ""
                elif self.proc(marks, cell, self.prob("ANIMAL", own)):
                    resource[cell] = "a"
            elif t == "s":
                if self.proc(marks, cell, self.prob("FISH", own)):
                    resource[cell] = "h"
            elif t == "d":
                if self.proc(marks, cell, self.prob("WHALES", own)):
                    resource[cell] = "w"
            elif t == "m":
                if self.proc(marks, cell, self.prob("ORE", own)):
                    resource[cell] = "o"
        # 11. ruins
        ruins_number = _java_round(n / 40.0)
        water_ruins_number = _java_round(ruins_number / 3.0)
        ruins_count = water_count = 0
        while ruins_count < ruins_number:
            cands = [i for i, m in enumerate(marks) if m in (0, 1, -1)]
            if not cands or not any(
                terrain[c] != "s" and (water_count < water_ruins_number or terrain[c] != "d")
                for c in cands
            ):
                break  # the Java loop would never end here
            ruin = cands[self.random_int(0, len(cands))]
            if terrain[ruin] != "s" and (water_count < water_ruins_number or terrain[ruin] != "d"):
                resource[ruin] = "r"
                if terrain[ruin] == "d":
                    water_count += 1
                for c in self.circle(marks[ruin], 1):  # the reference's index-for-mark slip
                    marks[c] = max(marks[c], 2)
                ruins_count += 1
        # 12. Imperius gets two fruits, Bardur two animals next to the capital
        for cap in capitals:
            tribe = int(resource[cap])
            if tribe == C.IMPERIUS:
                self.post_generate("f", ".", 2, cap)
            elif tribe == C.BARDUR:
                self.post_generate("a", "f", 2, cap)
        return self.to_level(capitals)

    def post_generate(self, res: str, ter: str, quantity: int, capital: int) -> None:
        terrain, resource = self.terrain, self.resource

        def count() -> int:
            return sum(1 for c in self.circle(capital, 1) if resource[c][:1] == res)

        while count() < quantity:
            pos = self.random_int(0, 8)
            cell = self.circle(capital, 1)[pos]
            if terrain[cell] == "c":
                # Another capital next to this one (only small boards place capitals side by
                # side): the reference overwrites it and loses that tribe; we draw again.
                continue
            terrain[cell] = ter
            resource[cell] = res
            for nb in self.cross(cell):
                if terrain[nb] == "d":
                    terrain[nb] = "s"

    def to_level(self, capitals: list[int]) -> Level:
        terrain = tuple(C.TERRAIN_OF_CHAR[t] for t in self.terrain)
        resource = []
        cap_set = set(capitals)
        for i, r in enumerate(self.resource):
            if i in cap_set or not r:
                resource.append(-1)
            else:
                resource.append(C.RESOURCE_OF_CHAR[r])
        caps = tuple((cap, int(self.resource[cap])) for cap in capitals)
        # turn order is the reading order of the capitals (the reference's loader)
        caps = tuple(sorted(caps))
        return Level(self.size, terrain, tuple(resource), caps)


def _java_round(x: float) -> int:
    """Java's ``Math.round`` (halves up)."""
    return int(x + 0.5) if x >= 0 else -int(-x + 0.5)


def _java_hashmap_order(keys: Sequence[int]) -> list[int]:
    """Iteration order of a ``java.util.HashMap<Integer, ?>`` filled with ``keys`` ascending.

    Small integers hash to themselves; the table doubles from 16 buckets while the entries
    exceed three quarters of it; entries iterate by bucket (``key mod capacity``) and, within a
    bucket, in insertion order.
    """
    capacity = 16
    while len(keys) > capacity * 0.75:
        capacity *= 2
    buckets: list[list[int]] = [[] for _ in range(capacity)]
    for k in keys:
        h = k ^ (k >> 16)
        buckets[h & (capacity - 1)].append(k)
    return [k for b in buckets for k in b]


def generate_level(
    seed: int, tribes: Sequence[int], size: int | None = None, initial_land: float = 0.5
) -> Level:
    """Generate a level with the reference's generator.

    Args:
        seed: The level seed (a Java ``long``; the paper's seeds are in :func:`tournament_seeds`).
        tribes: Tribe types (``constants.XIN_XI`` ...), 2 to 4 of them, all different.
        size: Board side; default 11, 14 or 16 for 2, 3 or 4 tribes.
        initial_land: Fraction of the board seeded as land before smoothing (0.5 in the paper).

    Raises:
        LevelError: For an impossible configuration (bad tribes, board too small, no room for
            the capitals).
    """
    tribes = [int(t) for t in tribes]
    if not 2 <= len(tribes) <= 4:
        raise LevelError(f"tribes level generator: 2 to 4 tribes, got {len(tribes)}")
    if len(set(tribes)) != len(tribes) or not all(0 <= t < len(C.TRIBES) for t in tribes):
        raise LevelError(f"tribes level generator: tribes must be distinct keys 0..3, got {tribes}")
    if size is None:
        size = C.DEFAULT_MAP_SIZE[len(tribes)]
    low, high = MAP_SIZE_RANGE
    if not isinstance(size, int) or isinstance(size, bool) or not low <= size <= high:
        raise LevelError(
            f"tribes level generator: map size must be an integer {low}..{high}, got {size!r}"
        )
    low_land, high_land = LAND_RATIO_RANGE
    if not low_land <= float(initial_land) <= high_land:
        raise LevelError(
            f"tribes level generator: initial land ratio must be in [{low_land}, {high_land}], "
            f"got {initial_land}"
        )
    level = _Generator(seed, size, tribes, float(initial_land)).generate()
    return Level(level.size, level.terrain, level.resource, level.capitals, f"seed:{seed}")
