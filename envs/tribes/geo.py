"""Board geometry: tiles, neighbours, distances and move offsets of one board size.

Shared by every state of one board size, so that a clone copies none of it: the squares of
radius 1 to 3 are built with it, larger squares, distance rows and move targets on first use,
and none changes once built. The full-observability visibility (:func:`_all_visible`) is shared
the same way.
"""

from __future__ import annotations

from stratagem.envs.tribes import actions as A


class Geo:
    """Board geometry shared by every state of one board size (never mutated).

    Attributes:
        size: Board side.
        n: Number of tiles.
        rc: ``(row, col)`` of each tile.
        nb1: The 8 neighbours of each tile, in the reference's order.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.n = size * size
        self.rc = tuple(divmod(t, size) for t in range(self.n))
        self._squares: dict[int, tuple[tuple[int, ...], ...]] = {}
        self._squares_nc: dict[int, tuple[tuple[int, ...], ...]] = {}
        for r in (1, 2, 3):
            self._build(r)
        self.nb1 = self._squares_nc[1]
        self._dist_rows: list[bytes | None] = [None] * self.n
        self._move_actions: list[dict[int, int] | None] = [None] * self.n

    def _build(self, radius: int) -> None:
        size = self.size
        nc = []
        full = []
        for t in range(self.n):
            r0, c0 = self.rc[t]
            tiles = tuple(
                r * size + c
                for r in range(r0 - radius, r0 + radius + 1)
                for c in range(c0 - radius, c0 + radius + 1)
                if (r, c) != (r0, c0) and 0 <= r < size and 0 <= c < size
            )
            nc.append(tiles)
            full.append((*tiles, t))
        self._squares_nc[radius] = tuple(nc)
        self._squares[radius] = tuple(full)

    def square(self, center: int, radius: int) -> tuple[int, ...]:
        """Tiles within Chebyshev ``radius`` of ``center``, the centre last."""
        if radius not in self._squares:
            self._build(radius)
        return self._squares[radius][center]

    def square_nc(self, center: int, radius: int) -> tuple[int, ...]:
        """Tiles within Chebyshev ``radius`` of ``center``, the centre left out."""
        if radius not in self._squares_nc:
            self._build(radius)
        return self._squares_nc[radius][center]

    def dist_row(self, center: int) -> bytes:
        """Chebyshev distance from ``center`` to every tile (built on first use)."""
        row = self._dist_rows[center]
        if row is None:
            r0, c0 = self.rc[center]
            row = self._dist_rows[center] = bytes(max(abs(r - r0), abs(c - c0)) for r, c in self.rc)
        return row

    def move_actions(self, center: int) -> dict[int, int]:
        """Target tile -> move action from ``center``, for every target within move reach."""
        table = self._move_actions[center]
        if table is None:
            r0, c0 = self.rc[center]
            size, n = self.size, self.n
            table = self._move_actions[center] = {
                r * size + c: plane * n + center
                for (dr, dc), plane in A.MOVE_PLANE.items()
                if 0 <= (r := r0 + dr) < size and 0 <= (c := c0 + dc) < size
            }
        return table

    def dist(self, a: int, b: int) -> int:
        """Chebyshev distance between two tiles."""
        ra, ca = self.rc[a]
        rb, cb = self.rc[b]
        return max(abs(ra - rb), abs(ca - cb))


_ALL_VISIBLE: dict[int, tuple[int, ...]] = {}


def _all_visible(n: int) -> tuple[int, ...]:
    """The shared, immutable visibility of full observability (never written to)."""
    vis = _ALL_VISIBLE.get(n)
    if vis is None:
        vis = _ALL_VISIBLE[n] = (1,) * n
    return vis
