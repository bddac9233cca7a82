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


def register_game() -> None:
    """Add Kill The King to the game registry (called by :mod:`stratagem.envs`)."""
    from stratagem.envs.registry import register

    register(
        "kill_the_king",
        KillTheKingGame,
        description="Kill The King (Stratega): 2 players, kill the enemy King; 99-round draw",
        env_id="stratagem/KillTheKing-v0",
        test_configs=(
            {},
            {"map": "kwah:1"},
            {"map": "kwah:17"},
            {"map": "kwah:42"},
            {"map": "kwah"},
            {"map": "small:7"},
            {"map": "small"},
        ),
        rule_based_agent="stratagem.baselines.kill_the_king:KillTheKingRuleBasedAgent",
        evaluator="stratagem.baselines.kill_the_king:KillTheKingEvaluator",
        batched="stratagem.envs.batched.kill_the_king:BatchedKillTheKing",
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
    "register_game",
]
