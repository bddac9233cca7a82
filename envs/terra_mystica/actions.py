"""Terra Mystica's flat action space: the AlphaTM paper's 2,143 actions, then the rest.

Indices ``0 .. 2142`` are the paper's layout (section 2.4, ``9 × 13 × 18 + 4 × 3 + 20 + 5``):

============  =====================================================================
indices       meaning
============  =====================================================================
0–2105        board actions, plane-major ``k × 9 × 13``: index ``117 k + 13 r + c`` for the
              hex at row ``r`` (A=0..I=8) and position ``c`` (0..12). Planes ``k`` 0–6:
              terraform to terrain ``k`` (Plains, Swamp, Lakes, Forest, Mountains,
              Wasteland, Desert) without building; 7–13: terraform to terrain ``k − 7`` and
              build a dwelling (legal only for the home terrain; on a hex that already is
              home terrain it is a plain build); 14: upgrade D→TP, 15: TP→SH, 16: TP→TE,
              17: TE→SA (the paper's order)
2106, 2107    advance shipping, advance digging
2108–2119     send a priest: ``2108 + 3 × cult + j``, cult Fire, Water, Earth, Air; ``j`` 0, 1,
              2 = the 3-step space, a 2-step space, 1 step (priest returned)
2120–2125     power actions ACT1–ACT6
2126–2128     special actions: BON1 spade; the cult-step action (BON2 if held and unused,
              else FAV6); the faction action (stronghold action, Engineers' bridge)
2129–2137     pass taking bonus tile BON1–BON9 (also the setup pick)
2138–2142     take town tile TW1–TW5
============  =====================================================================

Then the decisions the paper decided silently or did not model (``EXTRA_NAMES``): accept or
decline a leech offer, the 12 favor tiles, a cult track (BON2/FAV6/Auren/Cultists steps, and a
town tile's step to 10), town tiles TW6–TW8 (mini-expansion), pass taking BON10
(shipping-bonus), pass without a tile (round 6), the 29 bridge slots, burn and the free
conversions, the Darklings' stronghold conversion of 0–3 workers to priests, declining
(unusable spades thrown away, or a town tile's step to 10 left out: the track stays at 9),
buying one spade with workers ("dig 1", the online engine's ``dig``; terraforms also buy the
spades they miss by themselves), ending the turn, and the Mermaids' town across one of the 36
river hexes. The size is the same for every configuration: 2,247.
"""

from __future__ import annotations

import re

from stratagem.envs.core import SpatialActionLayout
from stratagem.envs.terra_mystica.map import (
    BRIDGE_SLOTS,
    COLS,
    NAMES,
    NUM_CELLS,
    RIVER_CELLS,
    TERRAIN_NAMES,
    cell_name,
)
from stratagem.envs.terra_mystica.tiles import CULT_NAMES

__all__ = [
    "ACTION_SIZE",
    "BOARD_PLANES",
    "PAPER_SIZE",
    "action_to_string",
    "make_layout",
    "string_to_action",
]

NUM_BOARD = 18 * NUM_CELLS  # 2106
BOARD_PLANES = (
    tuple(f"transform_{t}" for t in TERRAIN_NAMES)
    + tuple(f"build_on_{t}" for t in TERRAIN_NAMES)
    + ("upgrade_D_TP", "upgrade_TP_SH", "upgrade_TP_TE", "upgrade_TE_SA")
)
K_BUILD = 7
K_TP, K_SH, K_TE, K_SA = 14, 15, 16, 17
UPGRADE_OF_K = {K_TP: (1, 2), K_SH: (2, 4), K_TE: (2, 3), K_SA: (3, 5)}

A_SHIP = 2106
A_DIG = 2107
A_PRIEST = 2108  # + 3 * cult + j
A_POWER = 2120  # + i (ACT1..ACT6)
A_BON1 = 2126
A_CULTACT = 2127
A_FACTION = 2128
A_PASS = 2129  # + tile (BON1..BON9)
A_TOWN = 2138  # + tile (TW1..TW5)
PAPER_SIZE = 2143

X_ACCEPT = 2143
X_DECLINE = 2144
X_FAV = 2145  # + 12
X_CULT = 2157  # + 4
X_TOWN = 2161  # TW6..TW8
X_PASS_BON10 = 2164
X_PASS_NONE = 2165
X_BRIDGE = 2166  # + 29
X_BURN = 2195
X_CONV = 2196  # + 8
X_WP = 2204  # + k (0..3 workers to priests)
X_DISCARD = 2208  # decline: throw the spades held away, or a town's cult step to 10
X_DIG1 = 2209
X_END = 2210
X_CONNECT = 2211  # + river index (0..35)
ACTION_SIZE = X_CONNECT + len(RIVER_CELLS)  # 2246

CONVERSION_NAMES = (
    "convert 1PW to 1C",
    "convert 3PW to 1W",
    "convert 5PW to 1P",
    "convert 1P to 1W",
    "convert 1P to 1C",
    "convert 1W to 1C",
    "convert C to 1VP",
    "convert 1VP to 1C",
)
UPGRADE_NAMES = {K_TP: "TP", K_SH: "SH", K_TE: "TE", K_SA: "SA"}


def _cell_label(cell: int) -> str:
    if NAMES[cell]:
        return NAMES[cell]
    r, c = divmod(cell, COLS)
    return f"{'ABCDEFGHI'[r]}@{c}"


def _names() -> list[str]:
    names: list[str] = []
    for k in range(18):
        for cell in range(NUM_CELLS):
            label = _cell_label(cell)
            if k < 7:
                names.append(f"transform {label} to {TERRAIN_NAMES[k]}")
            elif k < 14:
                names.append(f"build {label} on {TERRAIN_NAMES[k - 7]}")
            else:
                names.append(f"upgrade {label} to {UPGRADE_NAMES[k]}")
    names += ["advance shipping", "advance digging"]
    for cult in CULT_NAMES:
        for steps in (3, 2, 1):
            names.append(f"send priest to {cult} for {steps}")
    names += [f"action ACT{i + 1}" for i in range(6)]
    names += ["action BON1", "action cult-step", "action faction"]
    names += [f"pass BON{i + 1}" for i in range(9)]
    names += [f"+TW{i + 1}" for i in range(5)]
    assert len(names) == PAPER_SIZE
    names += ["leech accept", "leech decline"]
    names += [f"+FAV{i + 1}" for i in range(12)]
    names += [f"+{cult}" for cult in CULT_NAMES]
    names += [f"+TW{i + 6}" for i in range(3)]
    names += ["pass BON10", "pass"]
    names += [f"bridge {cell_name(a)}:{cell_name(b)}" for a, b in BRIDGE_SLOTS]
    names += ["burn 1"]
    names += list(CONVERSION_NAMES)
    names += [f"darklings convert {k}W to {k}P" for k in range(4)]
    names += ["decline", "dig 1", "end turn"]
    names += [f"connect {cell_name(r)}" for r in RIVER_CELLS]
    assert len(names) == ACTION_SIZE
    return names


ACTION_NAMES: tuple[str, ...] = tuple(_names())
_ACTION_OF: dict[str, int] = {name: i for i, name in enumerate(ACTION_NAMES)}
_ACTION_OF_LOWER: dict[str, int] = {name.lower(): i for i, name in enumerate(ACTION_NAMES)}
#: Earlier names still read: ``decline`` was ``discard spades`` before it also declined a town's
#: cult step to 10.
_ACTION_OF_LOWER["discard spades"] = ACTION_NAMES.index("decline")
EXTRA_NAMES: tuple[str, ...] = ACTION_NAMES[PAPER_SIZE:]


def make_layout() -> SpatialActionLayout:
    """The layout: 18 board planes over the 9 × 13 hex grid, then the global actions."""
    return SpatialActionLayout(
        height=9, width=13, planes=BOARD_PLANES, global_actions=ACTION_NAMES[NUM_BOARD:]
    )


def board_action(cell: int, k: int) -> int:
    """Index of board action plane ``k`` on ``cell``."""
    return k * NUM_CELLS + cell


def action_to_string(action: int) -> str:
    """Readable name of an action index, e.g. ``build E7 on mountains``."""
    if not 0 <= action < ACTION_SIZE:
        raise ValueError(f"terra_mystica: action {action} out of range 0..{ACTION_SIZE - 1}")
    return ACTION_NAMES[action]


def string_to_action(text: str) -> int:
    """Index of an action name written by :func:`action_to_string` (spacing and case free).

    Raises:
        ValueError: If ``text`` names no action.
    """
    key = re.sub(r"\s+", " ", str(text).strip())
    if key in _ACTION_OF:
        return _ACTION_OF[key]
    if key.lower() in _ACTION_OF_LOWER:
        return _ACTION_OF_LOWER[key.lower()]
    raise ValueError(f"terra_mystica: unknown action {text!r}")
