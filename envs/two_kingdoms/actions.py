"""Two Kingdoms' flat action layout: ``38 planes × H × W`` source tiles, then EndTurn.

The source tile is the acting entity's position; the plane says what it does:

======  ==============================  =================================================
planes  name                            meaning
======  ==============================  =================================================
0–7     ``move_N`` … ``move_NW``          step to that neighbour (N is ``y - 1``),
                                          diagonals allowed (King, Warrior, Worker)
8–15    ``attack(+dx,+dy)``              attack the enemy entity at that neighbour offset
                                          (King and Warrior, range 1.5)
16–19   ``mine_N`` ``mine_E`` ``mine_S``  mine the gold vein on that orthogonal side
        ``mine_W``                       (Worker)
20–27   ``spawn_worker(+dx,+dy)``        City: spawn a Worker on that neighbour tile
28–35   ``spawn_warrior(+dx,+dy)``       City: spawn a Warrior on that neighbour tile
36      ``empty``                        spend the movement point without acting
37      ``research_mining``              City: start researching Mining (only with the
                                          ``research`` option)
======  ==============================  =================================================

Global action ``38·H·W``: ``end_turn``. The eight neighbour offsets of every plane group are in
compass order N, NE, E, SE, S, SW, W, NW.

Readable names, exact inverses of each other through :func:`action_to_string` and
:func:`string_to_action`: ``move (3,4)->(4,3)``, ``attack (3,4)->(3,5)``, ``mine (3,4)->(3,3)``,
``spawn_worker (2,9)->(3,8)``, ``spawn_warrior (2,9)->(1,9)``, ``empty (3,4)``,
``research_mining (2,9)``, ``end_turn``.
"""

from __future__ import annotations

from stratagem.envs import stratega_actions as sa
from stratagem.envs.core import SpatialActionLayout

__all__ = [
    "ATTACK_PLANE0",
    "EMPTY_PLANE",
    "MINE_PLANE0",
    "MOVE_OFFSETS",
    "NEIGHBOURS",
    "NUM_PLANES",
    "PLANE_KIND",
    "RESEARCH_PLANE",
    "SIDE_OFFSETS",
    "SPAWN_KINDS",
    "SPAWN_PLANE0",
    "action_to_string",
    "make_layout",
    "string_to_action",
]

#: Compass steps; y grows downwards, so N is (0, -1).
COMPASS = sa.COMPASS
NEIGHBOURS = sa.NEIGHBOURS
MOVE_OFFSETS = NEIGHBOURS
SIDE_NAMES = sa.SIDES
SIDE_OFFSETS = sa.SIDE_OFFSETS
#: Entity types a City can spawn, in plane order (names as in the action strings).
SPAWN_KINDS = ("worker", "warrior")

MOVE_PLANE0 = 0
ATTACK_PLANE0 = MOVE_PLANE0 + len(NEIGHBOURS)
MINE_PLANE0 = ATTACK_PLANE0 + len(NEIGHBOURS)
SPAWN_PLANE0 = MINE_PLANE0 + len(SIDE_OFFSETS)
EMPTY_PLANE = SPAWN_PLANE0 + len(SPAWN_KINDS) * len(NEIGHBOURS)
RESEARCH_PLANE = EMPTY_PLANE + 1
NUM_PLANES = RESEARCH_PLANE + 1

PLANE_NAMES: tuple[str, ...] = (
    tuple(f"move_{n}" for n in COMPASS)
    + tuple(f"attack({dx:+d},{dy:+d})" for dx, dy in NEIGHBOURS)
    + tuple(f"mine_{n}" for n in SIDE_NAMES)
    + tuple(f"spawn_{k}({dx:+d},{dy:+d})" for k in SPAWN_KINDS for dx, dy in NEIGHBOURS)
    + ("empty", "research_mining")
)

#: Per plane: (kind, spawn kind index or -1, dx, dy); kind is one of "move", "attack", "mine",
#: "spawn", "empty", "research".
PLANE_KIND: tuple[tuple[str, int, int, int], ...] = (
    tuple(("move", -1, dx, dy) for dx, dy in NEIGHBOURS)
    + tuple(("attack", -1, dx, dy) for dx, dy in NEIGHBOURS)
    + tuple(("mine", -1, dx, dy) for dx, dy in SIDE_OFFSETS)
    + tuple(("spawn", k, dx, dy) for k in range(len(SPAWN_KINDS)) for dx, dy in NEIGHBOURS)
    + (("empty", -1, 0, 0), ("research", -1, 0, 0))
)
_NEIGHBOUR_INDEX = {off: i for i, off in enumerate(NEIGHBOURS)}
_SIDE_INDEX = {off: i for i, off in enumerate(SIDE_OFFSETS)}
_WORDS = ("move", "attack", "mine", "spawn_worker", "spawn_warrior", "empty", "research_mining")


def make_layout(width: int, height: int) -> SpatialActionLayout:
    """The action layout of a ``width × height`` board."""
    return sa.make_layout(width, height, PLANE_NAMES)


_PLANE_WORDS = sa.plane_words(
    tuple(
        (
            f"spawn_{SPAWN_KINDS[spawn]}"
            if kind == "spawn"
            else ("research_mining" if kind == "research" else kind),
            dx,
            dy,
        )
        for kind, spawn, dx, dy in PLANE_KIND
    ),
    targetless=("empty", "research_mining"),
)


def action_to_string(layout: SpatialActionLayout, action: int) -> str:
    """Readable name of ``action`` (see the module docstring)."""
    return sa.tile_action_to_string(layout, action, _PLANE_WORDS)


_PATTERN = sa.tile_action_pattern(_WORDS)
_EXAMPLES = (
    "'move (3,4)->(4,3)', 'attack (3,4)->(3,5)', 'mine (3,4)->(3,3)', "
    "'spawn_warrior (2,9)->(1,9)', 'empty (3,4)', 'research_mining (2,9)' or 'end_turn'"
)


def string_to_action(layout: SpatialActionLayout, text: str) -> int:
    """Parse a name written by :func:`action_to_string`.

    Raises:
        ValueError: If the text is malformed, the tile lies off the board, or the target offset
            is not one the action kind can reach.
    """
    return sa.string_to_tile_action(
        layout, text, _PATTERN, _EXAMPLES, _plane, targetless=("empty", "research_mining")
    )


def _plane(text: str, word: str, offset: tuple[int, int] | None) -> int:
    if offset is None:
        return EMPTY_PLANE if word == "empty" else RESEARCH_PLANE
    if word == "mine":
        if offset not in _SIDE_INDEX:
            raise ValueError(f"action {text!r}: a worker mines an orthogonal neighbour")
        return MINE_PLANE0 + _SIDE_INDEX[offset]
    if offset not in _NEIGHBOUR_INDEX:
        raise ValueError(f"action {text!r}: the target must be one of the 8 neighbours")
    index = _NEIGHBOUR_INDEX[offset]
    if word == "move":
        return MOVE_PLANE0 + index
    if word == "attack":
        return ATTACK_PLANE0 + index
    spawn = SPAWN_KINDS.index(word.removeprefix("spawn_"))
    return SPAWN_PLANE0 + spawn * len(NEIGHBOURS) + index
