"""Terra Mystica (base game): the AlphaTM paper's 9 × 26 × 206 encoding and 2,143-action layout.

Public names: :class:`TerraMysticaGame`, :class:`TerraMysticaState`, the map, faction and tile
tables, and the replay of the online game's ledgers (:mod:`.replay`). The rules core imports
nothing from gymnasium, pettingzoo or torch.
"""

from stratagem.envs.terra_mystica.actions import ACTION_SIZE, PAPER_SIZE, board_action
from stratagem.envs.terra_mystica.factions import FACTION_NAMES, FACTIONS, Faction, faction_id
from stratagem.envs.terra_mystica.map import CELL_OF, TERRAIN_NAMES, cell_name, parse_cell
from stratagem.envs.terra_mystica.rules import PHASE_NAMES, TerraMysticaGame, TerraMysticaState


def register_game() -> None:
    """Add Terra Mystica to the game registry (called by :mod:`stratagem.envs`)."""
    from stratagem.envs.registry import register

    register(
        "terra_mystica",
        TerraMysticaGame,
        description="Terra Mystica base game (2-5 players, 14 factions); AlphaTM encoding",
        env_id="stratagem/TerraMystica-v0",
        test_configs=(
            {},
            {"num_players": 3, "factions": "random"},
            {
                "num_players": 4,
                "factions": "darklings,giants,dwarves,witches",
                "turn_order": "variable",
                "mini_expansion": True,
                "shipping_bonus": True,
                "temple_scoring_tile": True,
            },
            {"num_players": 5, "factions": "random"},
            {"factions": "alchemists,auren"},
            {"factions": "chaosmagicians,mermaids"},
        ),
        rule_based_agent="stratagem.baselines.terra_mystica:TerraMysticaRuleBasedAgent",
        evaluator="stratagem.baselines.terra_mystica:TerraMysticaEvaluator",
    )


__all__ = [
    "ACTION_SIZE",
    "CELL_OF",
    "FACTIONS",
    "FACTION_NAMES",
    "PAPER_SIZE",
    "PHASE_NAMES",
    "TERRAIN_NAMES",
    "Faction",
    "TerraMysticaGame",
    "TerraMysticaState",
    "board_action",
    "cell_name",
    "faction_id",
    "parse_cell",
    "register_game",
]
