"""Tribes' fixed facts: terrain, resources, units, buildings, technologies, tribes, level-ups.

Every number here is the reference's (GAIGResearch/Tribes release 1.0, ``core/TribesConfig.java``
and ``core/Types.java``; ``specs/tribes_rules.md`` sections 2-4, 7-9 and 19). Keys follow the
reference's enums so that level files and the agents' tables read the same.

The rules core keeps every value as a small integer in plain lists, so the tables below are
tuples indexed by those integers.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = [
    "BUILDINGS",
    "LEVEL_UP_CHOICES",
    "RESOURCE_CHARS",
    "TECHS",
    "TERRAIN_CHARS",
    "TRIBES",
    "UNITS",
    "BuildingType",
    "Tech",
    "TribeType",
    "UnitType",
]

# ------------------------------------------------------------------------------------ terrain
PLAIN, SHALLOW_WATER, DEEP_WATER, MOUNTAIN, VILLAGE, CITY, FOREST, FOG = range(8)
TERRAIN_NAMES = (
    "plain",
    "shallow_water",
    "deep_water",
    "mountain",
    "village",
    "city",
    "forest",
    "fog",
)
#: Level-file character of each terrain (the reference's ``TERRAIN.mapChar``).
TERRAIN_CHARS = (".", "s", "d", "m", "v", "c", "f", " ")
TERRAIN_OF_CHAR = {ch: i for i, ch in enumerate(TERRAIN_CHARS)}
WATER = frozenset((SHALLOW_WATER, DEEP_WATER))

# ------------------------------------------------------------------------------------ resources
NO_RESOURCE = -1
FISH, FRUIT, ANIMAL, WHALES, ORE, CROPS, RUINS = 0, 1, 2, 3, 5, 6, 7
RESOURCE_NAMES = {
    FISH: "fish",
    FRUIT: "fruit",
    ANIMAL: "animal",
    WHALES: "whales",
    ORE: "ore",
    CROPS: "crops",
    RUINS: "ruins",
}
RESOURCE_CHARS = {FISH: "h", FRUIT: "f", ANIMAL: "a", WHALES: "w", ORE: "o", CROPS: "c", RUINS: "r"}
RESOURCE_OF_CHAR = {ch: r for r, ch in RESOURCE_CHARS.items()}
#: Resource -> position in the observation's resource planes.
RESOURCE_INDEX = {r: i for i, r in enumerate(RESOURCE_NAMES)}

# ------------------------------------------------------------------------------------ technologies


class Tech(NamedTuple):
    """One technology: its tier (cost multiplier and score tier) and its parent (or -1)."""

    name: str
    tier: int
    parent: int


CLIMBING, FISHING, HUNTING, ORGANIZATION, RIDING = range(5)
ARCHERY, FARMING, FORESTRY, FREE_SPIRIT, MEDITATION = range(5, 10)
MINING, ROADS, SAILING, SHIELDS, WHALING = range(10, 15)
AQUATISM, CHIVALRY, CONSTRUCTION, MATHEMATICS, NAVIGATION = range(15, 20)
SMITHERY, SPIRITUALISM, TRADE, PHILOSOPHY = range(20, 24)
NUM_TECHS = 24

TECHS: tuple[Tech, ...] = (
    Tech("climbing", 1, -1),
    Tech("fishing", 1, -1),
    Tech("hunting", 1, -1),
    Tech("organization", 1, -1),
    Tech("riding", 1, -1),
    Tech("archery", 2, HUNTING),
    Tech("farming", 2, ORGANIZATION),
    Tech("forestry", 2, HUNTING),
    Tech("free_spirit", 2, RIDING),
    Tech("meditation", 2, CLIMBING),
    Tech("mining", 2, CLIMBING),
    Tech("roads", 2, RIDING),
    Tech("sailing", 2, FISHING),
    Tech("shields", 2, ORGANIZATION),
    Tech("whaling", 2, FISHING),
    Tech("aquatism", 3, WHALING),
    Tech("chivalry", 3, FREE_SPIRIT),
    Tech("construction", 3, FARMING),
    Tech("mathematics", 3, FORESTRY),
    Tech("navigation", 3, SAILING),
    Tech("smithery", 3, MINING),
    Tech("spiritualism", 3, ARCHERY),
    Tech("trade", 3, ROADS),
    Tech("philosophy", 3, MEDITATION),
)
TECH_NAMES = tuple(t.name for t in TECHS)
ALL_TECHS_MASK = (1 << NUM_TECHS) - 1
#: Researching one of these re-checks "everything researched" (reference TechnologyTree).
TECH_LEAVES = frozenset(
    (
        SHIELDS,
        AQUATISM,
        CHIVALRY,
        CONSTRUCTION,
        MATHEMATICS,
        NAVIGATION,
        SMITHERY,
        SPIRITUALISM,
        TRADE,
        PHILOSOPHY,
    )
)
TECH_BASE_COST = 4
TECH_DISCOUNT_VALUE = 0.2  # with PHILOSOPHY the cost is multiplied by this and truncated

# ------------------------------------------------------------------------------------ units

FRESH, MOVED, ATTACKED, MOVED_AND_ATTACKED, PUSHED, FINISHED = range(6)
STATUS_NAMES = ("fresh", "moved", "attacked", "moved_and_attacked", "pushed", "finished")


class UnitType(NamedTuple):
    """Stats of one unit type (``TribesConfig``); ``max_hp`` -1 for ships (carried unit's)."""

    name: str
    cost: int
    attack: int
    defence: int
    movement: int
    range: int
    max_hp: int
    points: int
    tech: int


WARRIOR, RIDER, DEFENDER, SWORDSMAN, ARCHER, CATAPULT = range(6)
KNIGHT, MIND_BENDER, BOAT, SHIP, BATTLESHIP, SUPERUNIT = range(6, 12)
NUM_UNIT_TYPES = 12

UNITS: tuple[UnitType, ...] = (
    UnitType("warrior", 2, 2, 2, 1, 1, 10, 10, -1),
    UnitType("rider", 3, 2, 1, 2, 1, 10, 15, RIDING),
    UnitType("defender", 3, 1, 3, 1, 1, 15, 15, SHIELDS),
    UnitType("swordsman", 5, 3, 3, 1, 1, 15, 25, SMITHERY),
    UnitType("archer", 3, 2, 1, 1, 2, 10, 15, ARCHERY),
    UnitType("catapult", 8, 4, 0, 1, 3, 10, 40, MATHEMATICS),
    UnitType("knight", 8, 4, 1, 3, 1, 15, 40, CHIVALRY),
    UnitType("mind_bender", 5, 0, 1, 1, 1, 10, 25, PHILOSOPHY),
    UnitType("boat", 0, 1, 1, 2, 2, -1, 0, SAILING),
    UnitType("ship", 5, 2, 2, 3, 2, -1, 0, SAILING),
    UnitType("battleship", 15, 4, 3, 3, 2, -1, 0, NAVIGATION),
    UnitType("superunit", 10, 5, 4, 1, 1, 40, 50, -1),
)
UNIT_NAMES = tuple(u.name for u in UNITS)
#: Types a city can train (the reference's ``spawnable()``), in key order.
SPAWNABLE = (WARRIOR, RIDER, DEFENDER, SWORDSMAN, ARCHER, CATAPULT, KNIGHT, MIND_BENDER)
WATER_UNITS = frozenset((BOAT, SHIP, BATTLESHIP))
#: Units that step into the tile of a unit they kill.
MELEE = frozenset((DEFENDER, SWORDSMAN, RIDER, WARRIOR, KNIGHT, SUPERUNIT))
#: The reference's "ranged" list (used by the rule-based agent only).
RANGED = frozenset((BOAT, SHIP, BATTLESHIP, ARCHER, CATAPULT))

ATTACK_MODIFIER = 4.5
DEFENCE_BONUS = 1.5
DEFENCE_IN_WALLS = 4.0
VETERAN_KILLS = 3
VETERAN_PLUS_HP = 5
RECOVER_PLUS_HP = 2
RECOVER_IN_BORDERS_PLUS_HP = 2
MINDBENDER_HEAL = 4
EXPLORER_STEPS = 15


def _status_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Per type and status: the status after a move and after an attack (-1: not allowed).

    This is the reference's ``Unit.canTransitionTo`` / ``transitionToStatus`` written out: the
    "move or attack" units (Mind Bender, Catapult, Defender), the dash units, the Rider's escape
    and the Knight's persist. The Super unit may move or attack from FRESH (and, as written in
    the reference, attack after a move, which never happens because moving finishes it). The
    Rider moves, attacks and moves again, or attacks and moves: never attack-move-move.
    """
    after_move = []
    after_attack = []
    for t in range(NUM_UNIT_TYPES):
        mv = [-1] * 6
        at = [-1] * 6
        if t in (MIND_BENDER, CATAPULT, DEFENDER):
            mv[FRESH] = FINISHED
            at[FRESH] = FINISHED
        elif t == SUPERUNIT:
            mv[FRESH] = FINISHED
            at[FRESH] = FINISHED
            at[MOVED] = FINISHED
        elif t == RIDER:
            # the reference's transitions are sequential ifs: ATTACKED -> MOVED_AND_ATTACKED
            # -> FINISHED happen in one move, so a Rider moves once after attacking (escape)
            mv[FRESH] = MOVED
            mv[ATTACKED] = FINISHED
            mv[MOVED_AND_ATTACKED] = FINISHED
            at[FRESH] = ATTACKED
            at[MOVED] = MOVED_AND_ATTACKED
        elif t == KNIGHT:
            mv[FRESH] = MOVED
            at[FRESH] = FINISHED
            at[MOVED] = FINISHED
            at[ATTACKED] = FINISHED
        else:  # dash: warrior, swordsman, archer, boat, ship, battleship
            mv[FRESH] = MOVED
            at[FRESH] = FINISHED
            at[MOVED] = FINISHED
        after_move.append(tuple(mv))
        after_attack.append(tuple(at))
    return tuple(after_move), tuple(after_attack)


AFTER_MOVE, AFTER_ATTACK = _status_tables()

# ------------------------------------------------------------------------------------ buildings


class BuildingType(NamedTuple):
    """One building: cost, technology (-1 none), terrains, resource and adjacency needs."""

    name: str
    cost: int
    bonus: int
    tech: int
    terrains: frozenset[int]
    resource: int
    adjacent: int
    unique: bool


PORT, MINE, FORGE, FARM, WINDMILL, CUSTOMS_HOUSE, LUMBER_HUT, SAWMILL = range(8)
TEMPLE, WATER_TEMPLE, FOREST_TEMPLE, MOUNTAIN_TEMPLE = range(8, 12)
ALTAR_OF_PEACE, EMPERORS_TOMB, EYE_OF_GOD, GATE_OF_POWER = range(12, 16)
GRAND_BAZAR, PARK_OF_FORTUNE, TOWER_OF_WISDOM = range(16, 19)
NUM_BUILDINGS = 19
NO_BUILDING = -1

_PLAIN = frozenset((PLAIN,))
_MONUMENT_GROUND = frozenset((SHALLOW_WATER, PLAIN))
BUILDINGS: tuple[BuildingType, ...] = (
    BuildingType("port", 10, 2, SAILING, frozenset((SHALLOW_WATER,)), -1, -1, False),
    BuildingType("mine", 5, 2, MINING, frozenset((MOUNTAIN,)), ORE, -1, False),
    BuildingType("forge", 5, 2, SMITHERY, _PLAIN, -1, MINE, True),
    BuildingType("farm", 5, 2, FARMING, _PLAIN, CROPS, -1, False),
    BuildingType("windmill", 5, 1, CONSTRUCTION, _PLAIN, -1, FARM, True),
    BuildingType("customs_house", 5, 2, TRADE, _PLAIN, -1, PORT, True),
    BuildingType("lumber_hut", 2, 1, FORESTRY, frozenset((FOREST,)), -1, -1, False),
    BuildingType("sawmill", 5, 1, MATHEMATICS, _PLAIN, -1, LUMBER_HUT, True),
    BuildingType("temple", 20, 1, FREE_SPIRIT, _PLAIN, -1, -1, False),
    BuildingType("water_temple", 20, 1, AQUATISM, frozenset(WATER), -1, -1, False),
    BuildingType("forest_temple", 15, 1, SPIRITUALISM, frozenset((FOREST,)), -1, -1, False),
    BuildingType("mountain_temple", 20, 1, MEDITATION, frozenset((MOUNTAIN,)), -1, -1, False),
    BuildingType("altar_of_peace", 0, 3, MEDITATION, _MONUMENT_GROUND, -1, -1, False),
    BuildingType("emperors_tomb", 0, 3, TRADE, _MONUMENT_GROUND, -1, -1, False),
    BuildingType("eye_of_god", 0, 3, NAVIGATION, _MONUMENT_GROUND, -1, -1, False),
    BuildingType("gate_of_power", 0, 3, -1, _MONUMENT_GROUND, -1, -1, False),
    BuildingType("grand_bazar", 0, 3, ROADS, _MONUMENT_GROUND, -1, -1, False),
    BuildingType("park_of_fortune", 0, 3, -1, _MONUMENT_GROUND, -1, -1, False),
    BuildingType("tower_of_wisdom", 0, 3, PHILOSOPHY, _MONUMENT_GROUND, -1, -1, False),
)
BUILDING_NAMES = tuple(b.name for b in BUILDINGS)
TEMPLES = frozenset((TEMPLE, WATER_TEMPLE, FOREST_TEMPLE, MOUNTAIN_TEMPLE))
MONUMENTS = tuple(range(ALTAR_OF_PEACE, TOWER_OF_WISDOM + 1))
BASE_BUILDINGS = frozenset((FARM, MINE, LUMBER_HUT))
#: Base/advanced pairs whose adjacency adds population (or production for port/customs house).
MATCHING = {
    PORT: CUSTOMS_HOUSE,
    FARM: WINDMILL,
    MINE: FORGE,
    LUMBER_HUT: SAWMILL,
    CUSTOMS_HOUSE: PORT,
    WINDMILL: FARM,
    FORGE: MINE,
    SAWMILL: LUMBER_HUT,
}
#: Monument status per tribe.
MONUMENT_UNAVAILABLE, MONUMENT_AVAILABLE, MONUMENT_BUILT = 0, 1, 2
MONUMENT_POINTS = 400
EMPERORS_TOMB_STARS = 100
GATE_OF_POWER_KILLS = 10
GRAND_BAZAR_CITIES = 5
ALTAR_OF_PEACE_TURNS = 5
TEMPLE_TURNS_TO_SCORE = 3
TEMPLE_POINTS = (100, 50, 50, 50, 150)
PORT_TRADE_DISTANCE = 4

# ------------------------------------------------------------------------------------ economy
INITIAL_STARS = 5
ROAD_COST = 2
CLEAR_FOREST_STARS = 2
GROW_FOREST_COST = 5
BURN_FOREST_COST = 5
CLEAR_VIEW_POINTS = 5
CITY_BORDER_POINTS = 20
POINTS_PER_POPULATION = 5
PROD_CAPITAL_BONUS = 1
FIRST_CITY_CLEAR_RANGE = 2
NEW_CITY_CLEAR_RANGE = 1
#: Harvest cost and effect per resource (population, except whales: stars).
HARVEST_COST = {FISH: 2, FRUIT: 2, ANIMAL: 2, WHALES: 0}
HARVEST_BONUS = {FISH: 1, FRUIT: 1, ANIMAL: 1, WHALES: 10}
HARVEST_TECH = {FISH: FISHING, FRUIT: ORGANIZATION, ANIMAL: HUNTING, WHALES: WHALING}

# ------------------------------------------------------------------------------------ level-ups
(
    LU_WORKSHOP,
    LU_EXPLORER,
    LU_CITY_WALL,
    LU_RESOURCES,
    LU_POP_GROWTH,
    LU_BORDER_GROWTH,
    LU_PARK,
    LU_SUPERUNIT,
) = range(8)
LEVEL_UP_NAMES = (
    "workshop",
    "explorer",
    "city_wall",
    "resources",
    "pop_growth",
    "border_growth",
    "park",
    "superunit",
)
#: The level a bonus is chosen at reaching (the reference's ``CITY_LEVEL_UP.level``).
LEVEL_UP_LEVEL = (2, 2, 3, 3, 4, 4, 5, 5)
#: Score of a level-up: ``50 - 5 * level`` (the reference's getLevelUpPoints).
LEVEL_UP_POINTS = tuple(50 - 5 * lv for lv in LEVEL_UP_LEVEL)
CITY_LEVEL_UP_WORKSHOP_PROD = 1
CITY_LEVEL_UP_RESOURCES = 5
CITY_LEVEL_UP_POP_GROWTH = 3
CITY_LEVEL_UP_PARK = 250
PARK_OF_FORTUNE_LEVEL = 5


def level_up_choices(level: int) -> tuple[int, int]:
    """The two bonuses offered to a city of ``level`` that levels up."""
    if level == 1:
        return (LU_WORKSHOP, LU_EXPLORER)
    if level == 2:
        return (LU_CITY_WALL, LU_RESOURCES)
    if level == 3:
        return (LU_POP_GROWTH, LU_BORDER_GROWTH)
    return (LU_PARK, LU_SUPERUNIT)


LEVEL_UP_CHOICES = {lv: level_up_choices(lv) for lv in (1, 2, 3, 4)}

# ------------------------------------------------------------------------------------ ruins
EX_SUPERUNIT, EX_RESEARCH, EX_POP_GROWTH, EX_EXPLORER, EX_RESOURCES = range(5)
EXAMINE_NAMES = ("superunit", "research", "pop_growth", "explorer", "resources")
EXAMINE_POP_GROWTH = 3
EXAMINE_RESOURCES = 10

# ------------------------------------------------------------------------------------ tribes


class TribeType(NamedTuple):
    """A tribe of release 1.0: starting technology, starting unit and starting score."""

    name: str
    key: str
    tech: int
    unit: int
    initial_score: int


XIN_XI, IMPERIUS, BARDUR, OUMAJI = range(4)
TRIBES: tuple[TribeType, ...] = (
    TribeType("Xin-Xi", "xin_xi", CLIMBING, WARRIOR, 515),
    TribeType("Imperius", "imperius", ORGANIZATION, WARRIOR, 515),
    TribeType("Bardur", "bardur", HUNTING, WARRIOR, 515),
    TribeType("Oumaji", "oumaji", RIDING, RIDER, 520),
)
TRIBE_KEYS = tuple(t.key for t in TRIBES)
#: Key of each tribe in ``terrainProbs.json``.
TRIBE_JSON_KEYS = ("XIN_XI", "IMPERIUS", "BARDUR", "OUMAJI")

# ------------------------------------------------------------------------------------ game
CAPITALS, SCORE = 0, 1
MODE_NAMES = ("capitals", "score")
MAX_TURNS = {CAPITALS: 50, SCORE: 30}
DEFAULT_MAP_SIZE = {2: 11, 3: 14, 4: 16}
INCOMPLETE, WIN, LOSS = 0, 1, 2
