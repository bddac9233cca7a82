"""Push Them All's flat action layout: ``21 planes × H × W`` source tiles, then EndTurn.

The source tile is the acting unit's position; the plane says what it does:

======  ===============================  ==================================================
planes  name                             meaning
======  ===============================  ==================================================
0–3     ``move_N`` ``move_E`` ``move_S``  step to that orthogonal neighbour (N is ``y - 1``)
        ``move_W``
4–19    ``<push>@<side>``                push the enemy standing on the ``side`` neighbour
                                         (N, E, S, W) with push type ``<push>``
20      ``empty``                        spend the movement point without moving
======  ===============================  ==================================================

Global action ``21·H·W``: ``end_turn``.

**Push naming.** The four push types keep the reference's names, in the reference's action
order (``PushDown, PushUp, PushLeft, PushRight``), and each moves its target one tile in a
**fixed** direction whatever side the pusher stands on. The names do not match the displacement
(y grows downwards):

=============  ==============  =====================
push type      displacement    compass direction
=============  ==============  =====================
``push_down``  ``(-1, 0)``     west
``push_up``    ``(+1, 0)``     east
``push_left``  ``(0, +1)``     south
``push_right`` ``(0, -1)``     north
=============  ==============  =====================

Plane ``4 + 4·k + s`` is push type ``k`` against the neighbour on side ``s``.

Readable names, exact inverses of each other through :func:`action_to_string` and
:func:`string_to_action`: ``move (3,4)->(3,3)``, ``push_up (3,4)->(3,5)`` (the second tile is the
pushed unit's), ``empty (3,4)``, ``end_turn``.
"""

from __future__ import annotations

from stratagem.envs import stratega_actions as sa
from stratagem.envs.core import SpatialActionLayout

__all__ = [
    "EMPTY_PLANE",
    "MOVE_OFFSETS",
    "NUM_PLANES",
    "PLANE_KIND",
    "PUSH_NAMES",
    "PUSH_OFFSETS",
    "PUSH_PLANE0",
    "SIDE_OFFSETS",
    "action_to_string",
    "make_layout",
    "push_plane",
    "string_to_action",
]

#: Orthogonal steps in plane order; y grows downwards, so N is (0, -1).
MOVE_NAMES = sa.SIDES
MOVE_OFFSETS = sa.SIDE_OFFSETS
#: The side of the pushed unit, relative to the pusher (same order as the moves).
SIDE_NAMES = MOVE_NAMES
SIDE_OFFSETS = MOVE_OFFSETS
#: Push types in the reference's action order, with their fixed displacement of the target.
PUSH_NAMES = ("push_down", "push_up", "push_left", "push_right")
PUSH_OFFSETS: tuple[tuple[int, int], ...] = ((-1, 0), (1, 0), (0, 1), (0, -1))

MOVE_PLANE0 = 0
PUSH_PLANE0 = MOVE_PLANE0 + len(MOVE_OFFSETS)
EMPTY_PLANE = PUSH_PLANE0 + len(PUSH_NAMES) * len(SIDE_OFFSETS)
NUM_PLANES = EMPTY_PLANE + 1

PLANE_NAMES: tuple[str, ...] = (
    tuple(f"move_{n}" for n in MOVE_NAMES)
    + tuple(f"{p}@{s}" for p in PUSH_NAMES for s in SIDE_NAMES)
    + ("empty",)
)

#: Per plane: (kind, push type or -1, dx, dy). ``kind`` is "move", "push" or "empty"; for a
#: push, ``(dx, dy)`` is the offset of the pushed unit from the pusher.
PLANE_KIND: tuple[tuple[str, int, int, int], ...] = (
    tuple(("move", -1, dx, dy) for dx, dy in MOVE_OFFSETS)
    + tuple(("push", k, dx, dy) for k in range(len(PUSH_NAMES)) for dx, dy in SIDE_OFFSETS)
    + (("empty", -1, 0, 0),)
)
MOVE_PLANE_OF = {off: MOVE_PLANE0 + i for i, off in enumerate(MOVE_OFFSETS)}
SIDE_INDEX = {off: i for i, off in enumerate(SIDE_OFFSETS)}


def push_plane(push_type: int, side: int) -> int:
    """Plane of push type ``push_type`` against the neighbour on side ``side``."""
    return PUSH_PLANE0 + push_type * len(SIDE_OFFSETS) + side


def make_layout(width: int, height: int) -> SpatialActionLayout:
    """The action layout of a ``width × height`` board."""
    return sa.make_layout(width, height, PLANE_NAMES)


_PLANE_WORDS = sa.plane_words(
    tuple(
        (PUSH_NAMES[push] if kind == "push" else kind, dx, dy) for kind, push, dx, dy in PLANE_KIND
    )
)


def action_to_string(layout: SpatialActionLayout, action: int) -> str:
    """Readable name of ``action`` (see the module docstring)."""
    return sa.tile_action_to_string(layout, action, _PLANE_WORDS)


_PATTERN = sa.tile_action_pattern(("move", "empty", *PUSH_NAMES))
_EXAMPLES = "'move (3,4)->(3,3)', 'push_up (3,4)->(3,5)', 'empty (3,4)' or 'end_turn'"


def string_to_action(layout: SpatialActionLayout, text: str) -> int:
    """Parse a name written by :func:`action_to_string`.

    Raises:
        ValueError: If the text is malformed, the tile lies off the board, or the target is not
            an orthogonal neighbour.
    """
    return sa.string_to_tile_action(layout, text, _PATTERN, _EXAMPLES, _plane)


def _plane(text: str, kind: str, offset: tuple[int, int] | None) -> int:
    if offset is None:
        return EMPTY_PLANE
    if offset not in SIDE_INDEX:
        raise ValueError(f"action {text!r}: the target must be an orthogonal neighbour")
    if kind == "move":
        return MOVE_PLANE_OF[offset]
    return push_plane(PUSH_NAMES.index(kind), SIDE_INDEX[offset])
