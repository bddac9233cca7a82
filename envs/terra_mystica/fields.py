"""Offsets of the per-player integer record a state keeps for every player.

A state stores each player's resources and tracks in one flat Python list of ints, so that
cloning a player is one list copy. The offsets below name its fields; every rules module indexes
the record through them.
"""

from __future__ import annotations

__all__ = ["PLAYER_FIELDS", "PLAYER_SIZE"]

C = 0  # coins
W = 1  # workers
P = 2  # priests in hand
P1 = 3  # power bowl I
P2 = 4  # power bowl II
P3 = 5  # power bowl III
VP = 6  # victory points
CULT = 7  # 7..10: Fire, Water, Earth, Air positions
KEY = 11  # unspent town keys
SHIP = 12  # shipping level
DIG = 13  # digging level
TELE = 14  # tunnel/carpet cost level (0, or 1 after the stronghold)
CARPET = 15  # Fakirs carpet range (1..4)
NB = 15  # NB + kind (1..5): number of D, TP, TE, SH, SA on the board (16..20)
BRIDGES = 21  # bridges placed
BON = 22  # held bonus tile (0..9) or -1
FAVS = 23  # bit mask of held favor tiles
TOWN_SIZE = 24  # power a town needs (7, 6 with FAV5)
MAXP = 25  # priests that may be in hand: 7 minus priests on cult spaces
CULTP = 26  # priests placed on cult order spaces
PASSED = 27  # 1 once passed this round
BON_USED = 28  # bonus tile action used this round
FAV6_USED = 29  # FAV6 action used this round
SH_USED = 30  # stronghold (faction) action used this round
BLOCKED = 31  # cult tracks stuck at 9 for want of a key this turn (bit mask)
TW = 32  # 32..39: town tiles held, by kind
PLAYER_SIZE = 40

PLAYER_FIELDS = {
    "C": C,
    "W": W,
    "P": P,
    "P1": P1,
    "P2": P2,
    "P3": P3,
    "VP": VP,
    "FIRE": CULT,
    "WATER": CULT + 1,
    "EARTH": CULT + 2,
    "AIR": CULT + 3,
    "KEY": KEY,
    "SHIP": SHIP,
    "DIG": DIG,
    "TELE": TELE,
    "CARPET": CARPET,
    "D": NB + 1,
    "TP": NB + 2,
    "TE": NB + 3,
    "SH": NB + 4,
    "SA": NB + 5,
    "BRIDGES": BRIDGES,
    "BON": BON,
    "FAVS": FAVS,
    "TOWN_SIZE": TOWN_SIZE,
    "MAXP": MAXP,
    "CULTP": CULTP,
    "PASSED": PASSED,
    "BON_USED": BON_USED,
    "FAV6_USED": FAV6_USED,
    "SH_USED": SH_USED,
    "BLOCKED": BLOCKED,
    **{f"TW{i + 1}": TW + i for i in range(8)},
}
