"""Children of the Galaxy combat: two fleets of Destroyers and Battleships on a hex board.

Public names: :class:`CotgCombatGame`, :class:`CotgCombatState`, the unit constants, the hex
geometry and the army helpers. The rules core imports nothing from gymnasium, pettingzoo or
torch.
"""

from stratagem.envs.cotg_combat.actions import END_TURN, ActionLayout
from stratagem.envs.cotg_combat.armies import ArmyError, generate_armies, parse_armies
from stratagem.envs.cotg_combat.hexgrid import DIRECTIONS, HexGrid, hex_distance, move_offsets
from stratagem.envs.cotg_combat.rules import (
    BATTLESHIP,
    DEFAULT_UNIT_STATS,
    DESTROYER,
    OBSERVATION_PLANES,
    UNIT_NAMES,
    CotgCombatGame,
    CotgCombatState,
    UnitStats,
    UnitView,
    auto_board_size,
)


def register_game() -> None:
    """Add CotG combat to the game registry (called by :mod:`stratagem.envs`)."""
    from stratagem.envs.registry import register

    register(
        "cotg_combat",
        CotgCombatGame,
        description=(
            "Children of the Galaxy combat: 2 players, Destroyers and Battleships on a hex "
            "board, 1v1 to 32v32, eliminate the enemy fleet"
        ),
        env_id="stratagem/CotgCombat-v0",
        test_configs=(
            {},
            {"units": 3, "placement": "mirror", "battleships": 1},
            {"armies": "D(2,2) | B(5,5)", "width": 8, "height": 8},
            {"units": 16, "max_rounds": 6},
            {"units": 32, "max_rounds": 2},
        ),
        rule_based_agent="stratagem.baselines.cotg_combat.scripts:NokavAgent",
        evaluator="stratagem.baselines.cotg_combat.evaluator:CotgHPEvaluator",
        agents="stratagem.baselines.cotg_combat:AGENTS",
    )


__all__ = [
    "BATTLESHIP",
    "DEFAULT_UNIT_STATS",
    "DESTROYER",
    "DIRECTIONS",
    "END_TURN",
    "OBSERVATION_PLANES",
    "UNIT_NAMES",
    "ActionLayout",
    "ArmyError",
    "CotgCombatGame",
    "CotgCombatState",
    "HexGrid",
    "UnitStats",
    "UnitView",
    "auto_board_size",
    "generate_armies",
    "hex_distance",
    "move_offsets",
    "parse_armies",
    "register_game",
]
