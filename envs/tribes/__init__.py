"""Tribes (GAIGResearch): The Battle of Polytopia as a forward model, release 1.0 rules.

Public names: :class:`TribesGame`, :class:`TribesState`, the level tools (:func:`generate_level`,
:func:`load_level`, :func:`parse_level`, :class:`Level`) and the constants module ``C``. The rules
core imports nothing from gymnasium, pettingzoo or torch. See ``docs/games/tribes.md``.
"""

from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes.levelgen import (
    BUNDLED_LEVELS,
    JavaRandom,
    Level,
    LevelError,
    generate_level,
    load_level,
    parse_level,
    tournament_seeds,
)
from stratagem.envs.tribes.observation import OBSERVATION_PLANES
from stratagem.envs.tribes.rules import TribesGame, TribesState


def register_game() -> None:
    """Add Tribes to the game registry (called by :mod:`stratagem.envs`)."""
    from stratagem.envs.registry import register

    register(
        "tribes",
        TribesGame,
        description="Tribes (Battle of Polytopia): 2-4 tribes, tech tree, cities; "
        "Capitals (51 rounds: turns 0-50) or Score (31 rounds)",
        env_id="stratagem/Tribes-v0",
        test_configs=(
            # full-length games: the default, and the smallest boards (capitals side by side)
            {},
            {"map_size": 8, "num_players": 3},
            {"map_size": 6, "num_players": 4, "observability": "partial", "mode": "score"},
            {"max_rounds": 6},
            {"num_players": 3, "mode": "score", "max_rounds": 4},
            {"num_players": 4, "observability": "partial", "max_rounds": 3},
            {"map": "SampleLevel2p", "mode": "score", "observability": "partial", "max_rounds": 5},
            {"map": "MinimalLevel2", "max_rounds": 7},
            {"observability": "partial", "mode": "score", "max_rounds": 5},
            {"num_players": 3, "observability": "partial", "max_rounds": 4},
            {"num_players": 4, "mode": "score", "max_rounds": 3},
        ),
        rule_based_agent="stratagem.baselines.tribes:TribesRuleBasedAgent",
        evaluator="stratagem.baselines.tribes:TribesDiffEvaluator",
    )


__all__ = [
    "BUNDLED_LEVELS",
    "OBSERVATION_PLANES",
    "C",
    "JavaRandom",
    "Level",
    "LevelError",
    "TribesGame",
    "TribesState",
    "generate_level",
    "load_level",
    "parse_level",
    "register_game",
    "tournament_seeds",
]
