"""Two Kingdoms (Stratega): mine gold, raise Warriors and kill the enemy King before round 100.

Public names: :class:`TwoKingdomsGame`, :class:`TwoKingdomsState`, the entity constants and the
map loader. The rules core (``rules.py``) imports nothing from gymnasium, pettingzoo or torch.
"""

from stratagem.envs.two_kingdoms.maps import Board, MapError, load_maps
from stratagem.envs.two_kingdoms.rules import (
    CITY,
    GOLD_VEIN,
    KING,
    OBSERVATION_PLANES,
    UNIT_NAMES,
    WARRIOR,
    WORKER,
    TwoKingdomsGame,
    TwoKingdomsState,
    UnitView,
)


def register_game() -> None:
    """Add Two Kingdoms to the game registry (called by :mod:`stratagem.envs`)."""
    from stratagem.envs.registry import register

    register(
        "two_kingdoms",
        TwoKingdomsGame,
        description="Two Kingdoms (Stratega): 2 players, mine gold, spawn, kill the enemy King",
        env_id="stratagem/TwoKingdoms-v0",
        test_configs=({}, {"research": True}, {"map": "tk:5", "max_rounds": 24}),
        rule_based_agent="stratagem.baselines.two_kingdoms:TwoKingdomsRuleBasedAgent",
        evaluator="stratagem.baselines.two_kingdoms:TwoKingdomsEvaluator",
    )


__all__ = [
    "CITY",
    "GOLD_VEIN",
    "KING",
    "OBSERVATION_PLANES",
    "UNIT_NAMES",
    "WARRIOR",
    "WORKER",
    "Board",
    "MapError",
    "TwoKingdomsGame",
    "TwoKingdomsState",
    "UnitView",
    "load_maps",
    "register_game",
]
