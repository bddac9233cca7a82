"""The 14 base-game factions: start resources, building costs, income tracks and abilities.

Source: ``specs/terra_mystica_rules.md`` section 3, checked field by field against the online
engine's faction files (jsnell/terra-mystica ``src/Game/Factions/*.pm``), which decide where the
spec is silent. Faction ids are the alphabetical order of the engine names, which is also the
order of the 14 faction planes of the observation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "BUILDING_NAMES",
    "BUILDING_POWER",
    "FACTIONS",
    "FACTION_IDS",
    "FACTION_NAMES",
    "Faction",
    "faction_id",
]

#: Building kinds; index 0 means "no building".
BUILDING_NAMES = ("", "D", "TP", "TE", "SH", "SA")
D, TP, TE, SH, SA = 1, 2, 3, 4, 5
#: Power value of each building kind (leech, towns).
BUILDING_POWER = (0, 1, 2, 2, 3, 3)
#: Stock of each kind per player.
BUILDING_STOCK = (0, 8, 4, 3, 1, 1)

PLAINS, SWAMP, LAKES, FOREST, MOUNTAINS, WASTELAND, DESERT = range(7)


@dataclass(frozen=True)
class Faction:
    """One faction's fixed facts.

    Attributes:
        name: Engine name (``"halflings"``).
        display: Printed name.
        home: Home terrain (0..6, the paper's terrain order).
        start: Start coins, workers, priests, power bowl I and bowl II.
        cults: Start positions on Fire, Water, Earth, Air.
        costs: Workers and coins of D, TP, TE, SH, SA (index 1..5).
        d_workers: Worker income by number of dwellings on the board (0..8).
        tp_coins, tp_power: Coin and power income by number of trading posts (0..4).
        te_priests, te_power: Priest and power income by number of temples (0..3).
        sa_priests: Priest income by number of sanctuaries (0..1).
        sh_income: Coins, workers, priests, power income of the stronghold.
        ship_start, ship_max: Shipping level at the start and its maximum.
        ship_vp: VP for advancing shipping, indexed by the level before advancing.
        dig_max: Highest digging level (0: the track cannot be advanced).
        dig_workers: Workers per spade at each digging level.
        dig_advance: Workers, coins, priests to advance digging.
        teleport: ``"tunnel"`` (Dwarves), ``"carpet"`` (Fakirs) or ``""``.
        favors_per_temple: Favor tiles for each temple and for the sanctuary.
        sh_action: The stronghold's (or Engineers' bridge) special action, e.g. ``"ACTN"``.
    """

    name: str
    display: str
    home: int
    start: tuple[int, int, int, int, int]
    cults: tuple[int, int, int, int] = (0, 0, 0, 0)
    costs: tuple[tuple[int, int], ...] = ((0, 0), (1, 2), (2, 3), (2, 5), (4, 6), (4, 6))
    d_workers: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 8)
    tp_coins: tuple[int, ...] = (0, 2, 4, 6, 8)
    tp_power: tuple[int, ...] = (0, 1, 2, 4, 6)
    te_priests: tuple[int, ...] = (0, 1, 2, 3)
    te_power: tuple[int, ...] = (0, 0, 0, 0)
    sa_priests: tuple[int, ...] = (0, 1)
    sh_income: tuple[int, int, int, int] = (0, 0, 0, 2)
    ship_start: int = 0
    ship_max: int = 3
    ship_vp: tuple[int, ...] = (2, 3, 4)
    dig_max: int = 2
    dig_workers: tuple[int, ...] = (3, 2, 1)
    dig_advance: tuple[int, int, int] = (2, 5, 1)
    teleport: str = ""
    favors_per_temple: int = 1
    sh_action: str = ""
    extra: dict = field(default_factory=dict, compare=False)


def _cost(**over: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    base = {"D": (1, 2), "TP": (2, 3), "TE": (2, 5), "SH": (4, 6), "SA": (4, 6)}
    base.update(over)
    return ((0, 0), base["D"], base["TP"], base["TE"], base["SH"], base["SA"])


_FACTION_LIST = (
    Faction(
        "alchemists",
        "Alchemists",
        SWAMP,
        (15, 3, 0, 5, 7),
        (1, 1, 0, 0),
        costs=_cost(SA=(4, 6)),
        tp_coins=(0, 2, 4, 7, 11),
        tp_power=(0, 1, 2, 3, 4),
        sh_income=(6, 0, 0, 0),
    ),
    Faction(
        "auren",
        "Auren",
        FOREST,
        (15, 3, 0, 5, 7),
        (0, 1, 0, 1),
        costs=_cost(SA=(4, 8)),
        sh_action="ACTA",
    ),
    Faction(
        "chaosmagicians",
        "Chaos Magicians",
        WASTELAND,
        (15, 4, 0, 5, 7),
        (2, 0, 0, 0),
        costs=_cost(SH=(4, 4), SA=(4, 8)),
        sh_income=(0, 2, 0, 0),
        favors_per_temple=2,
        sh_action="ACTC",
    ),
    Faction(
        "cultists",
        "Cultists",
        PLAINS,
        (15, 3, 0, 5, 7),
        (1, 0, 1, 0),
        costs=_cost(SH=(4, 8), SA=(4, 8)),
    ),
    Faction(
        "darklings",
        "Darklings",
        SWAMP,
        (15, 1, 1, 5, 7),
        (0, 1, 1, 0),
        costs=_cost(SA=(4, 10)),
        sa_priests=(0, 2),
        dig_max=0,
        dig_workers=(0,),
        dig_advance=(0, 0, 0),
    ),
    Faction(
        "dwarves",
        "Dwarves",
        MOUNTAINS,
        (15, 3, 0, 5, 7),
        (0, 0, 2, 0),
        tp_coins=(0, 3, 5, 7, 10),
        ship_max=0,
        ship_vp=(),
        teleport="tunnel",
    ),
    Faction(
        "engineers",
        "Engineers",
        MOUNTAINS,
        (10, 2, 0, 3, 9),
        (0, 0, 0, 0),
        costs=_cost(D=(1, 1), TP=(1, 2), TE=(1, 4), SH=(3, 6), SA=(3, 6)),
        d_workers=(0, 1, 2, 2, 3, 4, 4, 5, 6),
        te_priests=(0, 1, 1, 2),
        te_power=(0, 0, 5, 5),
        sh_action="ACTE",
    ),
    Faction(
        "fakirs",
        "Fakirs",
        DESERT,
        (15, 3, 0, 7, 5),
        (1, 0, 0, 1),
        costs=_cost(SH=(4, 10)),
        sh_income=(0, 0, 1, 0),
        ship_max=0,
        ship_vp=(),
        dig_max=1,
        dig_workers=(3, 2),
        teleport="carpet",
    ),
    Faction(
        "giants",
        "Giants",
        WASTELAND,
        (15, 3, 0, 5, 7),
        (1, 0, 0, 1),
        sh_income=(0, 0, 0, 4),
        sh_action="ACTG",
    ),
    Faction(
        "halflings",
        "Halflings",
        PLAINS,
        (15, 3, 0, 3, 9),
        (0, 0, 1, 1),
        costs=_cost(SH=(4, 8)),
        dig_advance=(2, 1, 1),
    ),
    Faction(
        "mermaids",
        "Mermaids",
        LAKES,
        (15, 3, 0, 3, 9),
        (0, 2, 0, 0),
        costs=_cost(SA=(4, 8)),
        sh_income=(0, 0, 0, 4),
        ship_start=1,
        ship_max=5,
        ship_vp=(0, 2, 3, 4, 5),
    ),
    Faction(
        "nomads",
        "Nomads",
        DESERT,
        (15, 2, 0, 5, 7),
        (1, 0, 1, 0),
        costs=_cost(SH=(4, 8)),
        tp_coins=(0, 2, 4, 7, 11),
        tp_power=(0, 1, 2, 3, 4),
        sh_action="ACTN",
    ),
    Faction(
        "swarmlings",
        "Swarmlings",
        LAKES,
        (20, 8, 0, 3, 9),
        (1, 1, 1, 1),
        costs=_cost(D=(2, 3), TP=(3, 4), TE=(3, 6), SH=(5, 8), SA=(5, 8)),
        d_workers=(2, 3, 4, 5, 6, 7, 8, 9, 9),
        tp_coins=(0, 2, 4, 6, 9),
        tp_power=(0, 2, 4, 6, 8),
        sa_priests=(0, 2),
        sh_income=(0, 0, 0, 4),
        sh_action="ACTS",
    ),
    Faction(
        "witches",
        "Witches",
        FOREST,
        (15, 3, 0, 5, 7),
        (0, 0, 0, 2),
        sh_action="ACTW",
    ),
)

FACTIONS: tuple[Faction, ...] = _FACTION_LIST
FACTION_NAMES: tuple[str, ...] = tuple(f.name for f in FACTIONS)
FACTION_IDS: dict[str, int] = {name: i for i, name in enumerate(FACTION_NAMES)}
(
    ALCHEMISTS,
    AUREN,
    CHAOSMAGICIANS,
    CULTISTS,
    DARKLINGS,
    DWARVES,
    ENGINEERS,
    FAKIRS,
    GIANTS,
    HALFLINGS,
    MERMAIDS,
    NOMADS,
    SWARMLINGS,
    WITCHES,
) = range(14)


def faction_id(name: str) -> int:
    """Index of a faction by its engine name (case-insensitive).

    Raises:
        ValueError: For a name that is not one of the 14 base factions.
    """
    key = str(name).strip().lower().replace(" ", "").replace("_", "")
    if key not in FACTION_IDS:
        raise ValueError(
            f"terra_mystica: unknown faction {name!r}; base factions: {', '.join(FACTION_NAMES)}"
        )
    return FACTION_IDS[key]
