"""Kill The King's flat action layout: ``34 planes × H × W`` source tiles, then EndTurn.

The source tile is the acting unit's position; the plane says what it does:

======  =====================  ====================================================
planes  name                   meaning
======  =====================  ====================================================
0–7     ``move_N`` … ``move_NW``  step to the neighbour in that compass direction
                                  (N is ``y - 1``); diagonals allowed
8–19    ``attack(+dx,+dy)``     attack the enemy at offset ``(dx, dy)``; the 12
                                  offsets with ``dx² + dy² ≤ 4`` (range 2, Archer)
20–32   ``heal(+dx,+dy)``       heal the unit at offset ``(dx, dy)``; the same 12
                                  offsets plus ``(0, 0)`` (a Healer may heal itself)
33      ``empty``               spend the movement point without moving
======  =====================  ====================================================

Global action ``34·H·W``: ``end_turn``.

Readable names, exact inverses of each other through :func:`action_to_string` and
:func:`string_to_action`: ``move (3,4)->(4,3)``, ``attack (3,4)->(3,6)``,
``heal (3,4)->(3,4)``, ``empty (3,4)``, ``end_turn``.
"""

from __future__ import annotations

from stratagem.envs import stratega_actions as sa
from stratagem.envs.core import SpatialActionLayout

__all__ = [
    "ATTACK_OFFSETS",
    "ATTACK_PLANE0",
    "EMPTY_PLANE",
    "HEAL_OFFSETS",
    "HEAL_PLANE0",
    "MOVE_OFFSETS",
    "NUM_PLANES",
    "action_to_string",
    "make_layout",
    "string_to_action",
]

#: Compass steps in plane order; y grows downwards, so N is (0, -1).
MOVE_NAMES = sa.COMPASS
MOVE_OFFSETS = sa.NEIGHBOURS
#: Every offset within Euclidean range 2 except the source itself, in reading order.
ATTACK_OFFSETS: tuple[tuple[int, int], ...] = tuple(
    (dx, dy) for dy in range(-2, 3) for dx in range(-2, 3) if 0 < dx * dx + dy * dy <= 4
)
#: Heal may also target the healer's own tile.
HEAL_OFFSETS: tuple[tuple[int, int], ...] = tuple(
    (dx, dy) for dy in range(-2, 3) for dx in range(-2, 3) if dx * dx + dy * dy <= 4
)

MOVE_PLANE0 = 0
ATTACK_PLANE0 = MOVE_PLANE0 + len(MOVE_OFFSETS)
HEAL_PLANE0 = ATTACK_PLANE0 + len(ATTACK_OFFSETS)
EMPTY_PLANE = HEAL_PLANE0 + len(HEAL_OFFSETS)
NUM_PLANES = EMPTY_PLANE + 1

PLANE_NAMES: tuple[str, ...] = (
    tuple(f"move_{n}" for n in MOVE_NAMES)
    + tuple(f"attack({dx:+d},{dy:+d})" for dx, dy in ATTACK_OFFSETS)
    + tuple(f"heal({dx:+d},{dy:+d})" for dx, dy in HEAL_OFFSETS)
    + ("empty",)
)

ATTACK_PLANE_OF = {off: ATTACK_PLANE0 + i for i, off in enumerate(ATTACK_OFFSETS)}
HEAL_PLANE_OF = {off: HEAL_PLANE0 + i for i, off in enumerate(HEAL_OFFSETS)}
MOVE_PLANE_OF = {off: MOVE_PLANE0 + i for i, off in enumerate(MOVE_OFFSETS)}

#: Per plane: (kind, dx, dy) with kind one of "move", "attack", "heal", "empty".
PLANE_KIND: tuple[tuple[str, int, int], ...] = (
    tuple(("move", dx, dy) for dx, dy in MOVE_OFFSETS)
    + tuple(("attack", dx, dy) for dx, dy in ATTACK_OFFSETS)
    + tuple(("heal", dx, dy) for dx, dy in HEAL_OFFSETS)
    + (("empty", 0, 0),)
)


def make_layout(width: int, height: int) -> SpatialActionLayout:
    """The action layout of a ``width × height`` board."""
    return sa.make_layout(width, height, PLANE_NAMES)


_PLANE_WORDS = sa.plane_words(PLANE_KIND)


def action_to_string(layout: SpatialActionLayout, action: int) -> str:
    """Readable name of ``action`` (see the module docstring)."""
    return sa.tile_action_to_string(layout, action, _PLANE_WORDS)


_PATTERN = sa.tile_action_pattern(("move", "attack", "heal", "empty"))
_EXAMPLES = (
    "'move (3,4)->(4,4)', 'attack (3,4)->(3,6)', 'heal (3,4)->(3,4)', 'empty (3,4)' or 'end_turn'"
)
_PLANE_OF = {"move": MOVE_PLANE_OF, "attack": ATTACK_PLANE_OF, "heal": HEAL_PLANE_OF}


def string_to_action(layout: SpatialActionLayout, text: str) -> int:
    """Parse a name written by :func:`action_to_string`.

    Raises:
        ValueError: If the text is malformed, the tile lies off the board, or the target offset
            is not one the action kind can reach.
    """
    return sa.string_to_tile_action(layout, text, _PATTERN, _EXAMPLES, _plane)


def _plane(text: str, kind: str, offset: tuple[int, int] | None) -> int:
    if offset is None:
        return EMPTY_PLANE
    table = _PLANE_OF[kind]
    if offset not in table:
        raise ValueError(f"action {text!r}: a {kind} cannot reach offset {offset}")
    return table[offset]
