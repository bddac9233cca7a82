"""Two Kingdoms entities: their types, numbers and the snapshot agents read.

The entity types and the rules' numbers (health, damage, costs, resource caps, research) are
shared by the forward model (:mod:`~stratagem.envs.two_kingdoms.rules`, which re-exports
them), its queries (:mod:`~stratagem.envs.two_kingdoms.queries`) and the renderer, so they
live below all of them.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = [
    "CITY",
    "CITY_PROD_PER_ROUND",
    "DAMAGE",
    "GOLD_MAX",
    "GOLD_VEIN",
    "KING",
    "MAX_HEALTH",
    "MAX_MP",
    "MINE_GOLD",
    "MINE_SELF_DAMAGE",
    "PROD_MAX",
    "PROD_START",
    "RESEARCHED",
    "RESEARCH_COST_PROD",
    "RESEARCH_SCORE",
    "RESEARCH_TIME",
    "SCORE_MAX",
    "SPAWN_SCORE",
    "UNIT_NAMES",
    "VEIN_GOLD",
    "WARRIOR",
    "WARRIOR_COST_GOLD",
    "WORKER",
    "WORKER_COST_PROD",
    "UnitView",
]

CITY, KING, WARRIOR, WORKER, GOLD_VEIN = 0, 1, 2, 3, 4
UNIT_NAMES = ("city", "king", "warrior", "worker", "gold_vein")
#: Starting and maximum health per type (a gold vein has none).
MAX_HEALTH = (200, 200, 100, 30, 0)
#: Attack damage (WeaponStrength) of the types that have an Attack action.
DAMAGE = (0, 50, 70, 0, 0)
#: Movement points refilled every round.
MAX_MP = 1
VEIN_GOLD = 120
MINE_GOLD = 40
MINE_SELF_DAMAGE = 12
WORKER_COST_PROD = 50
WARRIOR_COST_GOLD = 40
SPAWN_SCORE = 2
GOLD_MAX, PROD_START, PROD_MAX, SCORE_MAX = 1000, 50, 100, 1000
CITY_PROD_PER_ROUND = 1
RESEARCH_COST_PROD = 2
RESEARCH_TIME = 1
RESEARCH_SCORE = 10
#: ``_mining`` value of a player who has researched Mining (0: not started; t > 0: started in
#: round t).
RESEARCHED = -1


class UnitView(NamedTuple):
    """Read-only snapshot of one entity, for agents and heuristics.

    Attributes:
        id: Stable entity id (reading order of the layout, then spawn order).
        type: ``CITY``, ``KING``, ``WARRIOR``, ``WORKER`` or ``GOLD_VEIN``.
        owner: Player 0 or 1, or -1 for a (neutral) gold vein.
        x: Column (-1 once removed).
        y: Row (-1 once removed).
        health: Current health (0 for a gold vein).
        gold: Gold left in a gold vein (0 for every other type).
        movement_points: Movement points left this round.
        can_act: True when its Attack or Mine is off cooldown (False for types without one).
    """

    id: int
    type: int
    owner: int
    x: int
    y: int
    health: int
    gold: int
    movement_points: int
    can_act: bool
