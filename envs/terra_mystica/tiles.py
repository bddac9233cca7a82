"""Bonus, favor, town and round-scoring tiles.

Source: ``specs/terra_mystica_rules.md`` section 7, checked against the engine's tile table
(jsnell/terra-mystica ``src/Game/Constants.pm``). Tiles are numbered from 0 in code (``BON1`` is
bonus tile 0) and named as in the game logs.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = [
    "BONUS",
    "BONUS_NAMES",
    "FAVORS",
    "FAVOR_NAMES",
    "SCORING",
    "SCORING_NAMES",
    "TOWNS",
    "TOWN_NAMES",
    "BonusTile",
    "FavorTile",
    "ScoringTile",
    "TownTile",
]

FIRE, WATER, EARTH, AIR = range(4)
CULT_NAMES = ("FIRE", "WATER", "EARTH", "AIR")


class BonusTile(NamedTuple):
    """A bonus tile: income (C, W, P, PW) while held, pass VP and special abilities.

    Attributes:
        income: Coins, workers, priests, power gained in the income phase.
        pass_kind: What the pass VP count (``"D"``, ``"TP"``, ``"SHSA"``, ``"ship"``) or ``""``.
        pass_vp: VP per counted item when passing.
        action: ``"spade"``, ``"cult"`` or ``""``: the tile's once-per-round action.
        ship: Extra shipping range while held.
    """

    income: tuple[int, int, int, int]
    pass_kind: str = ""
    pass_vp: int = 0
    action: str = ""
    ship: int = 0


BONUS: tuple[BonusTile, ...] = (
    BonusTile((2, 0, 0, 0), action="spade"),
    BonusTile((4, 0, 0, 0), action="cult"),
    BonusTile((6, 0, 0, 0)),
    BonusTile((0, 0, 0, 3), ship=1),
    BonusTile((0, 1, 0, 3)),
    BonusTile((0, 2, 0, 0), "SHSA", 4),
    BonusTile((0, 1, 0, 0), "TP", 2),
    BonusTile((0, 0, 1, 0)),
    BonusTile((2, 0, 0, 0), "D", 1),
    BonusTile((0, 0, 0, 3), "ship", 3),  # BON10, option shipping-bonus
)
BONUS_NAMES = tuple(f"BON{i + 1}" for i in range(len(BONUS)))


class FavorTile(NamedTuple):
    """A favor tile.

    Attributes:
        cult: Cult track advanced when taken.
        steps: Steps on that track.
        copies: Copies in the supply.
        income: Coins, workers, priests, power income.
    """

    cult: int
    steps: int
    copies: int
    income: tuple[int, int, int, int] = (0, 0, 0, 0)


FAVORS: tuple[FavorTile, ...] = (
    FavorTile(FIRE, 3, 1),
    FavorTile(WATER, 3, 1),
    FavorTile(EARTH, 3, 1),
    FavorTile(AIR, 3, 1),
    FavorTile(FIRE, 2, 3),  # FAV5: towns need 6 power
    FavorTile(WATER, 2, 3),  # FAV6: cult-step action
    FavorTile(EARTH, 2, 3, (0, 1, 0, 1)),
    FavorTile(AIR, 2, 3, (0, 0, 0, 4)),
    FavorTile(FIRE, 1, 3, (3, 0, 0, 0)),
    FavorTile(WATER, 1, 3),  # FAV10: +3 VP per trading post built
    FavorTile(EARTH, 1, 3),  # FAV11: +2 VP per dwelling built
    FavorTile(AIR, 1, 3),  # FAV12: pass VP by trading posts
)
FAVOR_NAMES = tuple(f"FAV{i + 1}" for i in range(len(FAVORS)))
FAV12_PASS_VP = (0, 2, 3, 3, 4)


class TownTile(NamedTuple):
    """A town tile: keys and rewards.

    Attributes:
        vp: Victory points.
        coins, workers, priests, power: Resources.
        cult_steps: Steps on every cult track.
        keys: Town keys (2 for TW6).
        ship: Shipping level (Fakirs: carpet range) gained (TW7).
        copies: Copies in the supply.
    """

    vp: int
    coins: int = 0
    workers: int = 0
    priests: int = 0
    power: int = 0
    cult_steps: int = 0
    keys: int = 1
    ship: int = 0
    copies: int = 2


TOWNS: tuple[TownTile, ...] = (
    TownTile(5, coins=6),
    TownTile(7, workers=2),
    TownTile(9, priests=1),
    TownTile(6, power=8),
    TownTile(8, cult_steps=1),
    TownTile(2, cult_steps=2, keys=2, copies=1),  # TW6..TW8: option mini-expansion-1
    TownTile(4, ship=1),
    TownTile(11, copies=1),
)
TOWN_NAMES = tuple(f"TW{i + 1}" for i in range(len(TOWNS)))


class ScoringTile(NamedTuple):
    """A round scoring tile.

    Attributes:
        kind: What earns VP during the round (``"spade"``, ``"town"``, ``"D"``, ``"TP"``,
            ``"TE"``, ``"SHSA"``).
        vp: VP per item.
        cult: Cult track of the end-of-round reward (-1: priests on cult spaces, SCORE9).
        req: Track steps per reward.
        reward: ``"C"``, ``"W"``, ``"P"``, ``"PW"`` or ``"spade"``.
        amount: Reward per multiple.
    """

    kind: str
    vp: int
    cult: int
    req: int
    reward: str
    amount: int


SCORING: tuple[ScoringTile, ...] = (
    ScoringTile("spade", 2, EARTH, 1, "C", 1),
    ScoringTile("town", 5, EARTH, 4, "spade", 1),
    ScoringTile("D", 2, WATER, 4, "P", 1),
    ScoringTile("SHSA", 5, FIRE, 2, "W", 1),
    ScoringTile("D", 2, FIRE, 4, "PW", 4),
    ScoringTile("TP", 3, WATER, 4, "spade", 1),
    ScoringTile("SHSA", 5, AIR, 2, "W", 1),
    ScoringTile("TP", 3, AIR, 4, "spade", 1),
    ScoringTile("TE", 4, -1, 1, "C", 2),  # SCORE9, option temple-scoring-tile
)
SCORING_NAMES = tuple(f"SCORE{i + 1}" for i in range(len(SCORING)))
