"""Memoised pieces of the legal-action computation, keyed by the values they are computed from.

The legal actions are recomputed after every action, but one action changes few of their
inputs: a unit moving changes neither the board nor the other tribes' units, a road changes one
tile of the trade network. The costly pieces, the tiles a unit can reach (a search per unit)
and a city's building options, are therefore remembered here and reused while their inputs
are unchanged.

Why it is safe: nothing is invalidated by hand, so no rule can forget to invalidate. Each piece
is reused only when the values it was computed from are provably equal:

* The board (terrain, resources, buildings, territory, trade network, city owners) is compared
  in full with private copies held by the :class:`BoardMemo` at every computation. When it
  differs, a new memo is made; it may adopt a piece of its predecessor, lazily, only if no tile
  that changed lies within the piece's *reach*: the square of tiles that computing the piece
  can read (for a unit's move targets, the distance ``movement.reachable`` says its answer
  read; :data:`CITY_REACH` around a city).
* A unit's reachable tiles also depend on the enemy units near it (they block tiles and their
  zones of control end moves). The piece records the enemy tiles inside its reach and is used
  only if the enemy tiles inside that reach are the same now.
* Everything else a piece reads is part of its key (tile, unit type, tribe, technologies, star
  monuments, the mover's visibility with fog of war); the stars select among a city's
  options by price.

Entries are only ever added, never changed, so clones share one memo: what one state adds is
right for any other state whose inputs are equal. Nothing here is part of the game: equality
and JSON ignore it.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import compress, count
from operator import ne
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from stratagem.envs.tribes.rules import TribesState

#: Past this many entries a memo table is emptied (long searches visit many configurations).
MAX_ENTRIES = 1024
#: How far from its centre a city's actions read the board: its territory (radius 2 at most)
#: and the buildings next to it.
CITY_REACH = 3

#: ``(target tiles, move actions)``: where a unit can go (occupied or not) and how.
MoveTargets = tuple[tuple[int, ...], tuple[int, ...]]
#: ``(actions, move targets or None, may heal)``: what a unit may do (``units._unit_plan``).
UnitPlan = tuple[tuple[int, ...], MoveTargets | None, bool]
#: ``(radius, enemy tiles within it, targets)``: a unit's move targets on a board.
MoveEntry = tuple[int, tuple[int, ...], MoveTargets]
#: ``(prices, actions, spawn prices, spawn actions)`` of a city (``cities.city_options``).
CityEntry = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class BoardMemo:
    """Pieces valid for the board held here (private copies, never written to).

    Attributes:
        moves: ``(tile, unit type, tribe, movement techs, visibility)`` -> :data:`MoveEntry`.
        cities: ``(city, tile, level, tribe, techs, *monuments)`` -> :data:`CityEntry`.
        roads: ``(tribe, visibility)`` -> the tiles of the road actions before
            the enemy, technology and star checks.
        contexts: ``(mover, enemy tiles, visibility)`` -> :class:`Context`.
        parent: The memo this one replaced, with the tiles that changed since, for moves and
            for cities: ``(memo, tiles, tiles)``; None once adopted from or cut off.
    """

    __slots__ = (
        "building",
        "cities",
        "contexts",
        "moves",
        "network",
        "owners",
        "parent",
        "resource",
        "roads",
        "terrain",
        "tile_city",
    )

    def __init__(self, s: TribesState, owners: list[tuple[int, int]]) -> None:
        self.terrain = s.terrain[:]
        self.resource = s.resource[:]
        self.building = s.building[:]
        self.tile_city = s.tile_city[:]
        self.network = s.network[:]
        self.owners = owners
        self.moves: dict[tuple, MoveEntry] = {}
        self.cities: dict[tuple, CityEntry] = {}
        self.roads: dict[tuple, tuple[int, ...]] = {}
        self.contexts: dict[tuple, Context] = {}
        self.parent: tuple[BoardMemo, tuple[int, ...], tuple[int, ...]] | None = None

    def matches(self, s: TribesState, owners: list[tuple[int, int]]) -> bool:
        """True while the state's board equals the one this memo was filled from."""
        return (
            s.terrain == self.terrain
            and s.building == self.building
            and s.network == self.network
            and s.tile_city == self.tile_city
            and s.resource == self.resource
            and owners == self.owners
        )

    def changed_since(self, old: BoardMemo) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Tiles whose board differs from ``old``'s: those moves read, those cities read.

        Moves (and roads) read terrain, buildings, network, territory and the owner of the city
        of a tile; cities read terrain, resources, buildings and territory.
        """
        both: set[int] = set()
        for mine, theirs in (
            (self.terrain, old.terrain),
            (self.building, old.building),
            (self.tile_city, old.tile_city),
        ):
            if mine != theirs:
                both.update(_differing(mine, theirs))
        moves = set(both)
        cities = both
        if self.network != old.network:
            moves.update(_differing(self.network, old.network))
        if self.resource != old.resource:
            cities.update(_differing(self.resource, old.resource))
        if self.owners != old.owners:
            mine_o, theirs_o = dict(self.owners), dict(old.owners)
            moved = {c for c in mine_o.keys() | theirs_o.keys() if mine_o.get(c) != theirs_o.get(c)}
            moves.update(
                i
                for i, (a, b) in enumerate(zip(self.tile_city, old.tile_city, strict=True))
                if a in moved or b in moved
            )
        return tuple(moves), tuple(cities)


def _differing(a: list[int], b: list[int]) -> Iterator[int]:
    """Indices where two lists of the same length differ."""
    return compress(count(), map(ne, a, b))


class Context:
    """Pieces valid for one board, one mover, its enemies' tiles and its visibility.

    Within a context nothing a piece reads can differ, so its pieces need no checks: this is
    the fast path while the mover's own units move about.

    Attributes:
        tribe: The mover.
        enemies: Tiles holding a unit of another tribe, ascending.
        enemy: The same as a mask: per tile, 1 when a unit of another tribe stands on it.
        vis_key: The mover's visibility as bytes with fog of war, else None (all visible).
        zoc: Per tile, 1 when a unit of another tribe stands next to it (computed on first
            need, by :meth:`zone`).
        units: ``(*unit record, techs, stars or 0, has cities)`` -> the unit's
            :data:`UnitPlan`.
        moves: ``(tile, unit type, movement techs)`` -> :data:`MoveTargets`.
        roads: The road actions, once computed.
    """

    __slots__ = ("enemies", "enemy", "moves", "roads", "tribe", "units", "vis_key", "zoc")

    def __init__(self, tribe: int, enemies: tuple[int, ...], vis_key: bytes | None, n: int) -> None:
        self.tribe = tribe
        self.enemies = enemies
        self.vis_key = vis_key
        enemy = bytearray(n)
        for tile in enemies:
            enemy[tile] = 1
        self.enemy = enemy
        self.zoc: bytearray | None = None
        self.units: dict[tuple, UnitPlan] = {}
        self.moves: dict[tuple[int, int, int], MoveTargets] = {}
        self.roads: tuple[int, ...] | None = None

    def zone(self, nb1: tuple[tuple[int, ...], ...]) -> bytearray:
        """The zone of control: the tiles next to an enemy (``units.zone_of_control``)."""
        zoc = self.zoc
        if zoc is None:
            zoc = bytearray(len(self.enemy))
            for pos in self.enemies:
                for tile in nb1[pos]:
                    zoc[tile] = 1
            self.zoc = zoc
        return zoc


def context(
    memo: BoardMemo, tribe: int, enemies: tuple[int, ...], vis_key: bytes | None, n: int
) -> Context:
    """The board memo's context for this mover, enemy tiles and visibility (made on first use)."""
    key = (tribe, enemies, vis_key)
    ctx = memo.contexts.get(key)
    if ctx is None:
        ctx = Context(tribe, enemies, vis_key, n)
        remember(memo.contexts, key, ctx)
    return ctx


def board_memo(s: TribesState) -> BoardMemo:
    """The state's memo if its board is unchanged, else a new one linked to it (kept on ``s``)."""
    owners = [(cid, city[1]) for cid, city in s.cities.items()]
    memo = s._memo
    if memo is None:
        memo = s._memo = BoardMemo(s, owners)
    elif not memo.matches(s, owners):
        new = BoardMemo(s, owners)
        new.parent = (memo, *new.changed_since(memo))
        memo.parent = None  # keep one generation: older memos are freed
        memo = s._memo = new
    return memo


def move_entry(memo: BoardMemo, key: tuple, dist: bytes) -> MoveEntry | None:
    """The move entry of ``key`` (its tile's distances: ``dist``), adopted from the parent.

    The parent's entry holds if no tile that changed since lies within its radius. The caller
    still checks the enemy tiles.
    """
    entry = memo.moves.get(key)
    if entry is None:
        link = memo.parent
        if link is not None:
            entry = _adopt(memo.moves, link[0].moves, link[1], key, dist, -1)
    return entry


def city_entry(memo: BoardMemo, key: tuple, dist: bytes) -> CityEntry | None:
    """The city entry of ``key`` (its centre's distances: ``dist``), adopted from the parent."""
    entry = memo.cities.get(key)
    if entry is None:
        link = memo.parent
        if link is not None:
            entry = _adopt(memo.cities, link[0].cities, link[2], key, dist, CITY_REACH)
    return entry


_Entry = TypeVar("_Entry", MoveEntry, CityEntry)


def _adopt(
    table: dict[tuple, _Entry],
    parent: dict[tuple, _Entry],
    changed: tuple[int, ...],
    key: tuple,
    dist: bytes,
    radius: int,
) -> _Entry | None:
    """The parent table's entry of ``key``, stored in ``table``, if no ``changed`` tile is near.

    One rule for moves and cities: an entry read the board within ``radius`` of its centre
    (``dist``: the centre's distances; ``-1``: the entry's own radius, its first field), so it
    holds on the new board unless a tile that changed lies that close.
    """
    entry = parent.get(key)
    if entry is not None:
        if radius < 0:
            radius = entry[0]
        for tile in changed:
            if dist[tile] <= radius:
                return None
        remember(table, key, entry)
    return entry


def remember(table: dict, key: object, value: object) -> None:
    """Store an entry, emptying the table first when it has grown past :data:`MAX_ENTRIES`."""
    if len(table) >= MAX_ENTRIES:
        table.clear()
    table[key] = value
