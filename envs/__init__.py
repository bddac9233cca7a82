"""stratagem games: the forward-model contract, the registry and one subpackage per game.

Importing this package registers the built-in games. Use :func:`make_game` to build one by
name, or the PettingZoo entry modules (``stratagem.envs.kill_the_king_v0``).
"""

from stratagem.envs.core import (
    ActionTypeError,
    Game,
    GameSpec,
    IllegalActionError,
    InvalidStateError,
    SpatialActionLayout,
    State,
)
from stratagem.envs.registry import (
    UnknownGameError,
    UnknownOptionError,
    game_entry,
    list_games,
    make_game,
    register,
    state_from_json,
)

__all__ = [
    "ActionTypeError",
    "Game",
    "GameSpec",
    "IllegalActionError",
    "InvalidStateError",
    "SpatialActionLayout",
    "State",
    "UnknownGameError",
    "UnknownOptionError",
    "game_entry",
    "list_games",
    "make_game",
    "register",
    "state_from_json",
]


def _register_builtin_games() -> None:
    """Register every game package of this folder that defines ``register_game()``.

    Each game registers itself from its own package, so adding a game touches no shared file.
    """
    import importlib
    import pkgutil

    for module in pkgutil.iter_modules(__path__):
        # ``batched`` holds the torch versions of games, not a game: importing it would make
        # ``import stratagem`` need torch
        if module.ispkg and module.name != "batched":
            package = importlib.import_module(f"{__name__}.{module.name}")
            register_game = getattr(package, "register_game", None)
            if register_game is not None:
                register_game()


_register_builtin_games()
