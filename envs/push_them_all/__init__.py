"""Push Them All (Stratega): push every enemy unit into a hole before round 200.

Public names: :class:`PushThemAllGame`, :class:`PushThemAllState`, the unit constants and the
map loader. The rules core (``rules.py``) imports nothing from gymnasium, pettingzoo or torch.
"""

from stratagem.envs.push_them_all.maps import Board, MapError, load_maps
from stratagem.envs.push_them_all.rules import (
    GHOST,
    OBSERVATION_PLANES,
    UNIT_NAMES,
    WARRIOR,
    PushThemAllGame,
    PushThemAllState,
    UnitView,
)


def register_game() -> None:
    """Add Push Them All to the game registry (called by :mod:`stratagem.envs`)."""
    from stratagem.envs.registry import register

    register(
        "push_them_all",
        PushThemAllGame,
        description="Push Them All (Stratega): 2 players, push the enemy into holes; 199 rounds",
        env_id="stratagem/PushThemAll-v0",
        test_configs=({}, {"map": "pta"}, {"map": "pta:7", "max_rounds": 29}),
        rule_based_agent="stratagem.baselines.push_them_all:PushThemAllRuleBasedAgent",
        evaluator="stratagem.baselines.push_them_all:PushThemAllEvaluator",
        batched="stratagem.envs.batched.push_them_all:BatchedPushThemAll",
    )


__all__ = [
    "GHOST",
    "OBSERVATION_PLANES",
    "UNIT_NAMES",
    "WARRIOR",
    "Board",
    "MapError",
    "PushThemAllGame",
    "PushThemAllState",
    "UnitView",
    "load_maps",
    "register_game",
]
