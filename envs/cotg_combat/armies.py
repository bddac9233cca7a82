"""Armies of a CotG battle: generated as in the paper, or given explicitly.

**Generated** (Šmejkal & Gemrot 2018, "Experiments"; spec section 9): "for each army, a center
point was chosen randomly and around this point units were randomly distributed", with "different
ratios" of Battleships and Destroyers. Our choices where the paper gives no number (⚑ in the
spec): army 1's centre is a uniformly random hex of the left half of the board (``q < W / 2``),
army 2's of the right half; each army's ``N`` units stand on distinct hexes drawn uniformly within
radius ``ceil(sqrt(N)) + 1`` of its centre; both armies have the same composition, the first
``B`` slots being Battleships. ``B`` is given, or drawn per battle as ``round(ρ N)`` (half up) with
``ρ`` uniform in {0.25, 0.5, 0.75}. ``placement="mirror"`` makes army 2 the point mirror of army 1
through the board centre (the spec's fully symmetric variant).

**Explicit**, either as a board drawn in text (rows top to bottom, one token per hex: ``.``
empty, ``D``/``B`` a Destroyer/Battleship of player 0, ``d``/``b`` of player 1; indentation is
ignored, so rows may be shifted to draw the parallelogram)::

    . . . . .
     . D . b .
      . . . . .

or as a one-line unit list, player 0's units, a ``|``, then player 1's:
``"D(2,3) B(4,5) | D(10,3) B(11,5)"``. In both forms a player's slot order is the order in which
its units appear (reading order for a board).
"""

from __future__ import annotations

import math
import re

import numpy as np

from stratagem.envs.cotg_combat.hexgrid import HexGrid

__all__ = [
    "PLACEMENTS",
    "ArmyError",
    "battleship_count",
    "generate_armies",
    "parse_armies",
]

PLACEMENTS = ("random", "mirror")
#: Battleship ratios drawn per battle when the number of Battleships is not given.
RATIOS = (0.25, 0.5, 0.75)
_TYPE_OF = {"D": 0, "B": 1}
_UNIT = re.compile(r"^([DB])\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)$", re.IGNORECASE)

#: One player's army: ``(unit type, q, r)`` per slot.
Army = list[tuple[int, int, int]]


class ArmyError(ValueError):
    """A malformed army description, or armies that do not fit the board."""


def army_radius(n: int) -> int:
    """Radius of the disc an army of ``n`` units is spread over: ``ceil(sqrt(n)) + 1``."""
    return math.ceil(math.sqrt(n)) + 1


def battleship_count(n: int, battleships: int | None, rng: np.random.Generator) -> int:
    """Battleships per army: ``battleships`` if given, else ``round(ρ n)`` for a random ratio."""
    if battleships is not None:
        return battleships
    ratio = RATIOS[int(rng.integers(len(RATIOS)))]
    return math.floor(ratio * n + 0.5)


def generate_armies(
    rng: np.random.Generator,
    grid: HexGrid,
    n: int,
    battleships: int | None,
    placement: str,
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Draw both armies of an ``n``-vs-``n`` battle.

    Returns:
        Per player, ``(unit type, cell)`` per slot.

    Raises:
        ArmyError: If no placement fits the board after many tries.
    """
    nb = battleship_count(n, battleships, rng)
    types = [1 if k < nb else 0 for k in range(n)]
    radius = army_radius(n)
    half = grid.width // 2
    left = [c for c in range(grid.size) if grid.q[c] < max(half, 1)]
    right = [c for c in range(grid.size) if grid.q[c] >= half] or left
    for _ in range(1000):
        centre = left[int(rng.integers(len(left)))]
        area = grid.disc(centre, radius)
        if len(area) < n:
            continue
        first = [area[i] for i in rng.choice(len(area), n, replace=False)]
        if placement == "mirror":
            second = [grid.size - 1 - c for c in first]  # (W-1-q, H-1-r)
            if set(second) & set(first):
                continue
        else:
            centre = right[int(rng.integers(len(right)))]
            taken = set(first)
            area = [c for c in grid.disc(centre, radius) if c not in taken]
            if len(area) < n:
                continue
            second = [area[i] for i in rng.choice(len(area), n, replace=False)]
        return list(zip(types, first, strict=True)), list(zip(types, second, strict=True))
    raise ArmyError(
        f"cannot place two armies of {n} units within radius {radius} on a "
        f"{grid.width}x{grid.height} board; use a larger board"
    )


def parse_armies(text: str) -> tuple[int | None, int | None, tuple[Army, Army]]:
    """Parse an explicit army description (board drawing or unit list, see the module doc).

    Returns:
        ``(width, height, (army0, army1))``; width and height are the board's for a drawing and
        ``None`` for a unit list.

    Raises:
        ArmyError: Naming what is malformed.
    """
    if not isinstance(text, str) or not text.strip():
        raise ArmyError(f"armies must be a non-empty string, got {text!r}")
    if "\n" in text.strip():
        return _parse_board(text)
    return None, None, _parse_list(text)


def _parse_board(text: str) -> tuple[int, int, tuple[Army, Army]]:
    rows = [line.split() for line in text.strip("\n").splitlines() if line.strip()]
    width = len(rows[0])
    armies: tuple[Army, Army] = ([], [])
    for r, row in enumerate(rows):
        if len(row) != width:
            raise ArmyError(
                f"armies board row {r} has {len(row)} hexes, row 0 has {width}: rows must "
                f"be equally long"
            )
        for q, token in enumerate(row):
            if token == ".":
                continue
            if token not in ("D", "B", "d", "b"):
                raise ArmyError(
                    f"armies board: unknown token {token!r} at ({q},{r}); use '.', 'D', 'B' "
                    f"(player 0) or 'd', 'b' (player 1)"
                )
            armies[0 if token.isupper() else 1].append((_TYPE_OF[token.upper()], q, r))
    return width, len(rows), armies


def _parse_list(text: str) -> tuple[Army, Army]:
    parts = text.split("|")
    if len(parts) != 2:
        raise ArmyError(
            f"armies {text!r}: expected player 0's units, '|', player 1's units, e.g. "
            f"'D(2,3) B(4,5) | D(10,3) B(11,5)'"
        )
    armies: tuple[Army, Army] = ([], [])
    for p, part in enumerate(parts):
        for token in re.findall(r"[^\s()]+\([^)]*\)|\S+", part):
            match = _UNIT.match(token)
            if not match:
                raise ArmyError(
                    f"armies {text!r}: cannot read unit {token!r}; write e.g. 'D(2,3)' or 'B(4,5)'"
                )
            kind, q, r = match.groups()
            armies[p].append((_TYPE_OF[kind.upper()], int(q), int(r)))
    return armies
