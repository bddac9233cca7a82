"""Children of the Galaxy unit types: their names, attributes and configuration checks.

The two unit types and their attributes (spec section 2) are what a scenario configures
(``unit_stats`` overrides, the board size picked from the army size), apart from the forward
model that plays them, so they live below :mod:`~stratagem.envs.cotg_combat.rules`, which
re-exports the public names. ``_check_int`` is the one integer check of every configuration
option, here with the unit attributes that use it most.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

__all__ = [
    "BATTLESHIP",
    "DEFAULT_UNIT_STATS",
    "DESTROYER",
    "UNIT_NAMES",
    "UNIT_SYMBOLS",
    "UnitStats",
    "auto_board_size",
]

DESTROYER, BATTLESHIP = 0, 1
UNIT_NAMES = ("destroyer", "battleship")
UNIT_SYMBOLS = ("D", "B")


@dataclass(frozen=True)
class UnitStats:
    """One unit type's attributes (spec section 2).

    Attributes:
        hp: Starting and maximum hit points.
        strength: Damage of one attack before the target's shield.
        shield: Flat reduction of every hit taken (a hit always does at least 1).
        range: Attack reach in hexes.
        power: Hexes of movement per turn.
    """

    hp: int
    strength: int
    shield: int
    range: int
    power: int


#: ⚑ The spec's numbers: the paper only says Destroyers hit hard at short range with low HP and
#: Battleships have medium range, lower damage, high HP and shields.
DEFAULT_UNIT_STATS: dict[str, UnitStats] = {
    "destroyer": UnitStats(hp=12, strength=6, shield=0, range=1, power=4),
    "battleship": UnitStats(hp=24, strength=4, shield=2, range=3, power=3),
}


def auto_board_size(units: int) -> int:
    """Board side used when none is given: 16 up to 9 units a side, 24 up to 16, else 32.

    The spec's default board is 24 × 24 and it suggests 16 × 16 for 5v5–9v9 and 32 × 32 for
    32v32, so that armies meet within a few turns at every scale.
    """
    if units <= 9:
        return 16
    if units <= 16:
        return 24
    return 32


def _check_int(name: str, value: Any, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"cotg_combat: {name} must be an integer, got {value!r}")
    value = int(value)
    if value < low or (high is not None and value > high):
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise ValueError(f"cotg_combat: {name} must be {bound}, got {value}")
    return value


def _unit_stats(overrides: Mapping[str, Any] | None) -> tuple[UnitStats, ...]:
    """The stats of both unit types with ``overrides`` (``{"destroyer": {"hp": 10}}``) applied."""
    stats = {name: asdict(s) for name, s in DEFAULT_UNIT_STATS.items()}
    if overrides is not None:
        if not isinstance(overrides, Mapping):
            raise ValueError(
                f"cotg_combat: unit_stats must be a mapping such as "
                f'{{"destroyer": {{"hp": 10}}}}, got {overrides!r}'
            )
        for name, fields in overrides.items():
            if name not in stats:
                raise ValueError(
                    f"cotg_combat: unit_stats names unknown unit type {name!r}; "
                    f"types: {', '.join(UNIT_NAMES)}"
                )
            if not isinstance(fields, Mapping):
                raise ValueError(f"cotg_combat: unit_stats[{name!r}] must be a mapping")
            for key, value in fields.items():
                if key not in stats[name]:
                    raise ValueError(
                        f"cotg_combat: unit_stats[{name!r}] has unknown attribute {key!r}; "
                        f"attributes: {', '.join(stats[name])}"
                    )
                stats[name][key] = value
    out = []
    for name in UNIT_NAMES:
        s = stats[name]
        out.append(
            UnitStats(
                hp=_check_int(f"{name} hp", s["hp"], 1),
                strength=_check_int(f"{name} strength", s["strength"], 0),
                shield=_check_int(f"{name} shield", s["shield"], 0),
                range=_check_int(f"{name} range", s["range"], 1),
                power=_check_int(f"{name} power", s["power"], 1, 8),
            )
        )
    return tuple(out)
