"""Hex geometry of the CotG battlefield: axial coordinates on a W × H parallelogram.

A hex is ``(q, r)`` in axial coordinates (cube ``x = q, z = r, y = -q - r``) with
``0 <= q < W`` and ``0 <= r < H``; its flat index is ``r * W + q``. The distance between two hexes
is ``(|dq| + |dr| + |dq + dr|) / 2`` and the six neighbours are the offsets of
:data:`DIRECTIONS`. Everything a rules step or a script needs about the board (coordinates,
neighbour lists, the destination of every move offset from every hex) is computed once per board
size here and shared, read-only, by every state, so that a state holds only its units.
"""

from __future__ import annotations

from functools import cache, lru_cache

__all__ = [
    "DIRECTIONS",
    "HexGrid",
    "hex_distance",
    "move_offsets",
]

#: The six axial neighbour offsets, counter-clockwise from "east".
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def hex_distance(dq: int, dr: int) -> int:
    """Hex distance of the axial offset ``(dq, dr)``."""
    return (abs(dq) + abs(dr) + abs(dq + dr)) >> 1


@cache
def move_offsets(max_power: int) -> tuple[tuple[int, int], ...]:
    """Every axial offset with ``1 <= distance <= max_power``, in the action layout's order.

    The order is by distance, then ``dr``, then ``dq``: the ``m``-th move action of a unit moves
    it by ``move_offsets(P)[m]``. There are ``3 * P * (P + 1)`` of them (60 for ``P = 4``).
    """
    if max_power < 1:
        raise ValueError(f"max_power must be at least 1, got {max_power}")
    span = range(-max_power, max_power + 1)
    offsets = [(dq, dr) for dq in span for dr in span if 1 <= hex_distance(dq, dr) <= max_power]
    offsets.sort(key=lambda o: (hex_distance(*o), o[1], o[0]))
    return tuple(offsets)


class HexGrid:
    """Precomputed facts of one ``width × height`` board with moves of up to ``max_power`` hexes.

    Attributes:
        width: Number of columns (``q`` range).
        height: Number of rows (``r`` range).
        size: ``width * height``.
        max_power: Longest move offset of the action layout.
        offsets: :func:`move_offsets` of ``max_power``.
        q: Column of every flat cell index.
        r: Row of every flat cell index.
        neighbours: In-board neighbour cells of every cell.
        offset_dest: For every cell, the destination cell of each move offset (``-1`` when it
            leaves the board).
        dest_offset: For every cell, destination cell -> move offset index (the inverse).
    """

    __slots__ = (
        "_dist",
        "dest_offset",
        "height",
        "max_power",
        "neighbours",
        "offset_dest",
        "offsets",
        "q",
        "r",
        "size",
        "width",
    )

    def __init__(self, width: int, height: int, max_power: int) -> None:
        if width < 1 or height < 1:
            raise ValueError(f"board must be at least 1x1, got {width}x{height}")
        self.width = width
        self.height = height
        self.size = width * height
        self.max_power = max_power
        self.offsets = move_offsets(max_power)
        self.q = tuple(c % width for c in range(self.size))
        self.r = tuple(c // width for c in range(self.size))
        self.neighbours = tuple(
            tuple(
                (r + dr) * width + q + dq
                for dq, dr in DIRECTIONS
                if 0 <= q + dq < width and 0 <= r + dr < height
            )
            for r in range(height)
            for q in range(width)
        )
        dests = []
        inverse = []
        for c in range(self.size):
            q, r = self.q[c], self.r[c]
            row = tuple(
                (r + dr) * width + q + dq if 0 <= q + dq < width and 0 <= r + dr < height else -1
                for dq, dr in self.offsets
            )
            dests.append(row)
            inverse.append({d: m for m, d in enumerate(row) if d >= 0})
        self.offset_dest = tuple(dests)
        self.dest_offset = tuple(inverse)
        self._dist: list[list[int]] | None = None

    @property
    def dist(self) -> list[list[int]]:
        """Hex distance between every pair of cells, ``dist[a][b]`` (built on first use).

        A table lookup is several times faster than the formula in pure Python, and scripts
        measure distances in their innermost loops. It holds ``size²`` small integers (1M for a
        32 × 32 board, about 8 MB), shared by every state of the board size.
        """
        if self._dist is None:
            import numpy as np

            q = np.asarray(self.q, dtype=np.int64)
            r = np.asarray(self.r, dtype=np.int64)
            dq = q[:, None] - q[None, :]
            dr = r[:, None] - r[None, :]
            self._dist = ((np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) >> 1).tolist()
        return self._dist

    def cell(self, q: int, r: int) -> int:
        """Flat index of hex ``(q, r)``.

        Raises:
            ValueError: If the hex is off the board.
        """
        if not (0 <= q < self.width and 0 <= r < self.height):
            raise ValueError(f"hex ({q},{r}) is off the {self.width}x{self.height} board")
        return r * self.width + q

    def contains(self, q: int, r: int) -> bool:
        """True when hex ``(q, r)`` is on the board."""
        return 0 <= q < self.width and 0 <= r < self.height

    def distance(self, a: int, b: int) -> int:
        """Hex distance between cells ``a`` and ``b``."""
        dq = self.q[a] - self.q[b]
        dr = self.r[a] - self.r[b]
        return (abs(dq) + abs(dr) + abs(dq + dr)) >> 1

    def disc(self, centre: int, radius: int) -> list[int]:
        """Cells within ``radius`` of ``centre`` (in-board), ascending."""
        cq, cr = self.q[centre], self.r[centre]
        out = []
        for r in range(max(0, cr - radius), min(self.height, cr + radius + 1)):
            for q in range(max(0, cq - radius), min(self.width, cq + radius + 1)):
                if hex_distance(q - cq, r - cr) <= radius:
                    out.append(r * self.width + q)
        return out

    def reachable(self, start: int, power: int, occupied: object) -> dict[int, int]:
        """Cells reachable from ``start`` within ``power`` steps over cells not in ``occupied``.

        Args:
            start: The mover's cell (it may be in ``occupied``: the mover itself stands there).
            power: Most steps allowed.
            occupied: Container of blocked cells (``in`` is all that is used).

        Returns:
            Cell -> cost of the shortest free path (the start with cost 0).
        """
        cost = {start: 0}
        frontier = [start]
        nbrs = self.neighbours
        for step in range(1, power + 1):
            nxt = []
            for c in frontier:
                for n in nbrs[c]:
                    if n not in cost and n not in occupied:
                        cost[n] = step
                        nxt.append(n)
            if not nxt:
                break
            frontier = nxt
        return cost

    def path_cost(self, start: int, dest: int, power: int, occupied: object) -> int:
        """Cost of the shortest free path from ``start`` to ``dest``, or -1 beyond ``power``.

        The search stops as soon as ``dest`` is found, so a short move costs little.
        """
        if dest in occupied:
            return -1
        q, r = self.q, self.r
        dq, dr = q[dest] - q[start], r[dest] - r[start]
        if (abs(dq) + abs(dr) + abs(dq + dr)) >> 1 > power:
            return -1
        seen = {start}
        frontier = [start]
        nbrs = self.neighbours
        for step in range(1, power + 1):
            nxt = []
            for c in frontier:
                for n in nbrs[c]:
                    if n == dest:
                        return step
                    if n not in seen and n not in occupied:
                        seen.add(n)
                        nxt.append(n)
            if not nxt:
                return -1
            frontier = nxt
        return -1


@lru_cache(maxsize=32)
def shared_grid(width: int, height: int, max_power: int) -> HexGrid:
    """The :class:`HexGrid` of one board size, built once and shared by every game using it."""
    return HexGrid(width, height, max_power)
