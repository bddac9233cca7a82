"""Tribes' flat action layout: ``322 planes × H × W`` tiles, then 25 global actions.

Every action of the reference's catalogue (``specs/tribes_rules.md`` section 16) has one index.
Spatial actions follow the AlphaZero convention (``SpatialActionLayout``): the plane says what is
done, the tile says where. Unit actions are located at the acting unit's tile, with their target
as an offset (reach is bounded: a move goes at most 7 tiles, a Knight on roads, whose road steps
cost half a move and may go on while the spent movement rounds down to at most 3; an attack at
most 3 tiles, a Catapult); a city's own actions (level-up, spawn) at the city centre; actions on a
city's territory (build, harvest, forest actions, destroy) at the target tile, whose owning city is
unique; roads at the road's tile. Offsets are ``(drow, dcol)`` (rows grow downwards).

=========  ========================  =======================================================
planes     name                      meaning
=========  ========================  =======================================================
0-223      ``move(dr,dc)``           move the unit here to offset ``(dr, dc)``,
                                     ``max(|dr|,|dc|) <= 7`` (reading order, centre left out)
224-271    ``attack(dr,dc)``         attack the unit at that offset (Chebyshev range 3)
272-279    ``convert(dr,dc)``        Mind Bender converts the unit at that offset (range 1)
280-286    ``capture`` ``examine``   the unit here captures the village/city it stands on,
           ``disband`` ``heal``      examines ruins, disbands, heals its neighbours (Mind
           ``veteran`` ``recover``   Bender), becomes a veteran, recovers, or is upgraded
           ``upgrade``               (Boat to Ship, Ship to Battleship)
287-288    ``level_up_a/b``          the city here takes the first/second level-up bonus of
                                     its level (workshop/explorer, walls/resources, growth/
                                     border growth, park/super unit)
289-296    ``spawn_<unit>``          the city here trains a unit (8 trainable types)
297-315    ``build_<building>``      the city owning this tile builds there (19 buildings)
316        ``harvest``               gather the resource of this tile (fish, fruit, animal,
                                     whales)
317-320    ``clear_forest``          forest actions and destroy on this tile
           ``burn_forest``
           ``grow_forest``
           ``destroy``
321        ``build_road``            the tribe builds a road on this tile
=========  ========================  =======================================================

Global actions from ``322·H·W``: ``research_<tech>`` for the 24 technologies in the
reference's order, then ``end_turn``. The size is ``322·size² + 25`` (38,987 on 11×11).

Readable names are exact inverses of each other through :func:`action_to_string` and
:func:`string_to_action`: ``move (3,4)->(4,6)``, ``attack (3,4)->(3,6)``, ``capture (3,4)``,
``level_up_a (2,2)``, ``spawn_rider (2,2)``, ``build_farm (1,3)``, ``build_road (5,5)``,
``research_climbing``, ``end_turn`` (coordinates are ``(row,col)``).
"""

from __future__ import annotations

import re

from stratagem.envs.core import SpatialActionLayout
from stratagem.envs.tribes import constants as C

__all__ = [
    "ATTACK_OFFSETS",
    "MOVE_OFFSETS",
    "NUM_PLANES",
    "PLANE_NAMES",
    "action_to_string",
    "make_layout",
    "string_to_action",
]

MOVE_RADIUS = 7
ATTACK_RADIUS = 3


def _offsets(radius: int) -> tuple[tuple[int, int], ...]:
    return tuple(
        (dr, dc)
        for dr in range(-radius, radius + 1)
        for dc in range(-radius, radius + 1)
        if (dr, dc) != (0, 0)
    )


MOVE_OFFSETS = _offsets(MOVE_RADIUS)
ATTACK_OFFSETS = _offsets(ATTACK_RADIUS)
CONVERT_OFFSETS = _offsets(1)

MOVE0 = 0
ATTACK0 = MOVE0 + len(MOVE_OFFSETS)
CONVERT0 = ATTACK0 + len(ATTACK_OFFSETS)
CAPTURE = CONVERT0 + len(CONVERT_OFFSETS)
EXAMINE = CAPTURE + 1
DISBAND = CAPTURE + 2
HEAL = CAPTURE + 3
VETERAN = CAPTURE + 4
RECOVER = CAPTURE + 5
UPGRADE = CAPTURE + 6
LEVEL_UP0 = UPGRADE + 1
SPAWN0 = LEVEL_UP0 + 2
BUILD0 = SPAWN0 + len(C.SPAWNABLE)
HARVEST = BUILD0 + C.NUM_BUILDINGS
CLEAR_FOREST = HARVEST + 1
BURN_FOREST = HARVEST + 2
GROW_FOREST = HARVEST + 3
DESTROY = HARVEST + 4
BUILD_ROAD = DESTROY + 1
NUM_PLANES = BUILD_ROAD + 1

GLOBAL_NAMES: tuple[str, ...] = (*(f"research_{t.name}" for t in C.TECHS), "end_turn")
RESEARCH0 = 0  # index among the globals
END_TURN_GLOBAL = len(C.TECHS)

#: Offset -> plane.
MOVE_PLANE = {off: MOVE0 + i for i, off in enumerate(MOVE_OFFSETS)}
ATTACK_PLANE = {off: ATTACK0 + i for i, off in enumerate(ATTACK_OFFSETS)}
CONVERT_PLANE = {off: CONVERT0 + i for i, off in enumerate(CONVERT_OFFSETS)}
#: Unit type -> spawn plane.
SPAWN_PLANE = {t: SPAWN0 + i for i, t in enumerate(C.SPAWNABLE)}

_SINGLE = ("capture", "examine", "disband", "heal", "veteran", "recover", "upgrade")
_TILE = ("harvest", "clear_forest", "burn_forest", "grow_forest", "destroy", "build_road")

PLANE_NAMES: tuple[str, ...] = (
    tuple(f"move({dr:+d},{dc:+d})" for dr, dc in MOVE_OFFSETS)
    + tuple(f"attack({dr:+d},{dc:+d})" for dr, dc in ATTACK_OFFSETS)
    + tuple(f"convert({dr:+d},{dc:+d})" for dr, dc in CONVERT_OFFSETS)
    + _SINGLE
    + ("level_up_a", "level_up_b")
    + tuple(f"spawn_{C.UNIT_NAMES[t]}" for t in C.SPAWNABLE)
    + tuple(f"build_{b}" for b in C.BUILDING_NAMES)
    + _TILE
)
assert len(PLANE_NAMES) == NUM_PLANES

#: Plane -> (kind, drow, dcol, parameter): parameter is the unit type, building or choice.
PLANE_INFO: tuple[tuple[str, int, int, int], ...] = (
    tuple(("move", dr, dc, -1) for dr, dc in MOVE_OFFSETS)
    + tuple(("attack", dr, dc, -1) for dr, dc in ATTACK_OFFSETS)
    + tuple(("convert", dr, dc, -1) for dr, dc in CONVERT_OFFSETS)
    + tuple((k, 0, 0, -1) for k in _SINGLE)
    + (("level_up", 0, 0, 0), ("level_up", 0, 0, 1))
    + tuple(("spawn", 0, 0, t) for t in C.SPAWNABLE)
    + tuple(("build", 0, 0, b) for b in range(C.NUM_BUILDINGS))
    + tuple((k, 0, 0, -1) for k in _TILE)
)

#: Action kind per plane, as planners name kinds (``exclude_kinds="disband|destroy"``).
PLANE_KIND: tuple[str, ...] = tuple(info[0] for info in PLANE_INFO)
UNIT_PLANES = frozenset(range(MOVE0, UPGRADE + 1))
CITY_PLANES = frozenset(range(LEVEL_UP0, DESTROY + 1))


def make_layout(size: int) -> SpatialActionLayout:
    """The layout of a ``size × size`` board."""
    return SpatialActionLayout(
        height=size, width=size, planes=PLANE_NAMES, global_actions=GLOBAL_NAMES
    )


def action_to_string(layout: SpatialActionLayout, action: int) -> str:
    """Readable name of ``action`` (see the module docstring)."""
    plane, col, row = layout.decode(action)
    if plane is None:
        return GLOBAL_NAMES[col]
    kind, dr, dc, _ = PLANE_INFO[plane]
    if kind in ("move", "attack", "convert"):
        return f"{kind} ({row},{col})->({row + dr},{col + dc})"
    return f"{PLANE_NAMES[plane]} ({row},{col})"


_GLOBAL_INDEX = {name: i for i, name in enumerate(GLOBAL_NAMES)}
_PLANE_INDEX = {name: i for i, name in enumerate(PLANE_NAMES)}
_TARGETED = re.compile(r"^(move|attack|convert) \((-?\d+),(-?\d+)\)->\((-?\d+),(-?\d+)\)$")
_LOCATED = re.compile(r"^([a-z_]+) \((\d+),(\d+)\)$")


def string_to_action(layout: SpatialActionLayout, text: str) -> int:
    """Parse a name written by :func:`action_to_string`.

    Raises:
        ValueError: If ``text`` names no action of this layout.
    """
    if not isinstance(text, str):
        raise ValueError(f"tribes: action name must be a string, got {text!r}")
    text = text.strip()
    if text in _GLOBAL_INDEX:
        return layout.encode_global(_GLOBAL_INDEX[text])
    m = _TARGETED.match(text)
    if m:
        kind = m.group(1)
        row, col, trow, tcol = (int(m.group(i)) for i in range(2, 6))
        table = {"move": MOVE_PLANE, "attack": ATTACK_PLANE, "convert": CONVERT_PLANE}[kind]
        plane = table.get((trow - row, tcol - col))
        if plane is None:
            raise ValueError(f"tribes: {text!r}: a {kind} cannot reach that offset")
        return layout.encode(plane, col, row)
    m = _LOCATED.match(text)
    if m and m.group(1) in _PLANE_INDEX:
        return layout.encode(_PLANE_INDEX[m.group(1)], int(m.group(3)), int(m.group(2)))
    raise ValueError(f"tribes: unknown action {text!r}")
