"""The Tribes facts the compiled engine reads, as numpy arrays built from ``constants``.

Nothing is retyped: every table is computed from :mod:`stratagem.envs.tribes.constants` (and
the action layout of :mod:`stratagem.envs.tribes.actions`), so the compiled rules cannot drift
from the readable ones' numbers. numba freezes these module globals into the machine code; the
digest of the sources (:data:`SOURCE_DIGEST`) finds stale cached code.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from stratagem.envs import compiled_common
from stratagem.envs.tribes import actions as A
from stratagem.envs.tribes import constants as C


def _arr(values: object) -> np.ndarray:
    return np.array(values, dtype=np.int64)


U_COST = _arr([u.cost for u in C.UNITS])
U_ATK = _arr([u.attack for u in C.UNITS])
U_DEF = _arr([u.defence for u in C.UNITS])
U_MOV = _arr([u.movement for u in C.UNITS])
U_RANGE = _arr([u.range for u in C.UNITS])
U_MAXHP = _arr([u.max_hp for u in C.UNITS])
U_POINTS = _arr([u.points for u in C.UNITS])
U_TECH = _arr([u.tech for u in C.UNITS])
U_WATER = _arr([int(t in C.WATER_UNITS) for t in range(C.NUM_UNIT_TYPES)])
U_MELEE = _arr([int(t in C.MELEE) for t in range(C.NUM_UNIT_TYPES)])
AFTER_MOVE = _arr(C.AFTER_MOVE)
AFTER_ATTACK = _arr(C.AFTER_ATTACK)
SPAWNABLE = _arr(C.SPAWNABLE)
B_COST = _arr([b.cost for b in C.BUILDINGS])
B_BONUS = _arr([b.bonus for b in C.BUILDINGS])
B_TECH = _arr([b.tech for b in C.BUILDINGS])
B_RES = _arr([b.resource for b in C.BUILDINGS])
B_ADJ = _arr([b.adjacent for b in C.BUILDINGS])
B_UNIQUE = _arr([int(b.unique) for b in C.BUILDINGS])
B_TERRAIN = _arr([[int(t in b.terrains) for t in range(8)] for b in C.BUILDINGS])
B_MATCH = _arr([C.MATCHING.get(b, -1) for b in range(C.NUM_BUILDINGS)])
B_BASE = _arr([int(b in C.BASE_BUILDINGS) for b in range(C.NUM_BUILDINGS)])
B_TEMPLE = _arr([int(b in C.TEMPLES) for b in range(C.NUM_BUILDINGS)])
TEMPLE_POINTS = _arr(C.TEMPLE_POINTS)
TEMPLE_CUM = _arr([sum(C.TEMPLE_POINTS[:k]) for k in range(6)])
TECH_TIER = _arr([t.tier for t in C.TECHS])
TECH_PARENT = _arr([t.parent for t in C.TECHS])
HARVEST_COST = _arr([C.HARVEST_COST.get(r, -1) for r in range(8)])
HARVEST_BONUS = _arr([C.HARVEST_BONUS.get(r, 0) for r in range(8)])
HARVEST_TECH = _arr([C.HARVEST_TECH.get(r, -1) for r in range(8)])
LU_CHOICES = _arr([C.level_up_choices(lv) for lv in range(5)])
LU_LEVEL = _arr(C.LEVEL_UP_LEVEL)
LU_POINTS = _arr(C.LEVEL_UP_POINTS)
TRIBE_SCORE = _arr([t.initial_score for t in C.TRIBES])
#: Action planes.
MOVE0, ATTACK0, CONVERT0, CAPTURE, EXAMINE = A.MOVE0, A.ATTACK0, A.CONVERT0, A.CAPTURE, A.EXAMINE
DISBAND, HEAL, VETERAN, RECOVER, UPGRADE = A.DISBAND, A.HEAL, A.VETERAN, A.RECOVER, A.UPGRADE
LEVEL_UP0, SPAWN0, BUILD0, HARVEST = A.LEVEL_UP0, A.SPAWN0, A.BUILD0, A.HARVEST
CLEAR_FOREST, BURN_FOREST, GROW_FOREST = A.CLEAR_FOREST, A.BURN_FOREST, A.GROW_FOREST
DESTROY, BUILD_ROAD, NUM_PLANES = A.DESTROY, A.BUILD_ROAD, A.NUM_PLANES
#: Plane -> (kind code, drow, dcol, parameter); kinds: 0 move, 1 attack, 2 convert, 3 other.
PLANE_DR = _arr([info[1] for info in A.PLANE_INFO])
PLANE_DC = _arr([info[2] for info in A.PLANE_INFO])
PLANE_PARAM = _arr([info[3] for info in A.PLANE_INFO])
#: (dr + 7) * 15 + (dc + 7) -> move plane; (dr + 3) * 7 + (dc + 3) -> attack plane.
MOVE_PLANE = _arr([A.MOVE_PLANE.get((i // 15 - 7, i % 15 - 7), -1) for i in range(225)])
ATTACK_PLANE = _arr([A.ATTACK_PLANE.get((i // 7 - 3, i % 7 - 3), -1) for i in range(49)])
CONVERT_PLANE = _arr([A.CONVERT_PLANE.get((i // 3 - 1, i % 3 - 1), -1) for i in range(9)])


def _files() -> list[Path]:
    here = Path(__file__).resolve().parent
    names = (
        "tables",
        "layout",
        "rng",
        "engine",
        "units",
        "cities",
        "network",
        "capture",
        "movement",
        "legal",
        "play",
    )
    return [here / f"{m}.py" for m in names] + [Path(C.__file__), Path(A.__file__)]


#: The digest of the current sources.
SOURCE_DIGEST = compiled_common.source_digest(_files())
