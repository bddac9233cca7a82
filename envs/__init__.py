"""stratagem games: the forward-model contract, the registry and one subpackage per game.

Importing this package registers the built-in games. Use :func:`make_game` to build one by
name, or the PettingZoo entry modules (``stratagem.envs.kill_the_king_v0``).
"""

from stratagem.envs.core import (
    Game,
    GameSpec,
    IllegalActionError,
    InvalidStateError,
    SpatialActionLayout,
    State,
)
from stratagem.envs.registry import (
    UnknownGameError,
    game_entry,
    list_games,
    make_game,
    register,
    state_from_json,
)

__all__ = [
    "Game",
    "GameSpec",
    "IllegalActionError",
    "InvalidStateError",
    "SpatialActionLayout",
    "State",
    "UnknownGameError",
    "game_entry",
    "list_games",
    "make_game",
    "register",
    "state_from_json",
]


def _register_builtin_games() -> None:
    """Register every game shipped with stratagem (imported lazily by each factory)."""

    def kill_the_king(*, map: str = "default", round_limit: int = 100) -> Game:
        from stratagem.envs.kill_the_king import KillTheKingGame

        return KillTheKingGame(map=map, round_limit=round_limit)

    register(
        "kill_the_king",
        kill_the_king,
        description="Kill The King (Stratega): 2 players, kill the enemy King; 100-round draw",
        env_id="stratagem/KillTheKing-v0",
        test_configs=(
            {},
            {"map": "kwah:1"},
            {"map": "kwah:17"},
            {"map": "kwah:42"},
            {"map": "kwah"},
        ),
        rule_based_agent="stratagem.baselines.kill_the_king:KillTheKingRuleBasedAgent",
    )


_register_builtin_games()
