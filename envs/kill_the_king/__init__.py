"""Kill The King (Stratega): kill the enemy King before round 100.

Public names: :class:`KillTheKingGame`, :class:`KillTheKingState`, the unit constants and the
map loader. The rules core (``rules.py``) imports nothing from gymnasium, pettingzoo or torch.
"""

from stratagem.envs.kill_the_king.maps import Board, MapError, load_maps, parse_layout
from stratagem.envs.kill_the_king.rules import (
    ARCHER,
    HEALER,
    KING,
    OBSERVATION_PLANES,
    UNIT_NAMES,
    UNIT_STATS,
    WARRIOR,
    KillTheKingGame,
    KillTheKingState,
    UnitStats,
    UnitView,
)

__all__ = [
    "ARCHER",
    "HEALER",
    "KING",
    "OBSERVATION_PLANES",
    "UNIT_NAMES",
    "UNIT_STATS",
    "WARRIOR",
    "Board",
    "KillTheKingGame",
    "KillTheKingState",
    "MapError",
    "UnitStats",
    "UnitView",
    "load_maps",
    "parse_layout",
]
