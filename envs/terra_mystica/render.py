"""Terra Mystica rendering: a text view (``ansi``) and a picture (``rgb_array``).

The text view prints the hex map in the printed layout (odd rows shifted), each hex as its
terrain letter with the building and owner seat (``D0``, ``TP1``), then the cult board, the
supplies and every player's resources. The picture draws the hex map with buildings in the
owner's colour, the four cult tracks and a resource bar per player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from stratagem.envs.terra_mystica.factions import BUILDING_NAMES
from stratagem.envs.terra_mystica.fields import (
    BON,
    CULT,
    FAVS,
    KEY,
    NB,
    P1,
    P2,
    P3,
    PASSED,
    SHIP,
    TW,
    VP,
    C,
    P,
    W,
)
from stratagem.envs.terra_mystica.map import (
    BRIDGE_SLOTS,
    COLS,
    NAMES,
    NUM_CELLS,
    RIVER,
    ROWS,
    TERRAIN_LETTERS,
    cell_name,
)
from stratagem.envs.terra_mystica.tiles import BONUS_NAMES, SCORING_NAMES

if TYPE_CHECKING:
    from stratagem.envs.terra_mystica.rules import TerraMysticaState

__all__ = ["render_rgb", "render_text"]

# terrain colours (plains, swamp, lakes, forest, mountains, wasteland, desert, river)
_TERRAIN_RGB = np.array(
    [
        [150, 100, 50],
        [60, 50, 50],
        [70, 130, 220],
        [40, 140, 60],
        [150, 150, 150],
        [200, 50, 40],
        [230, 210, 80],
        [170, 210, 240],
    ],
    dtype=np.uint8,
)
_SEAT_RGB = np.array(
    [[255, 255, 255], [0, 0, 0], [255, 0, 255], [0, 255, 255], [255, 140, 0]], dtype=np.uint8
)


def render_text(st: TerraMysticaState) -> str:
    """The map, cult tracks, supplies and players as text."""
    from stratagem.envs.terra_mystica.rules import PHASE_NAMES

    lines = []
    for r in range(ROWS):
        row = [" " * 3] if r % 2 else []
        for c in range(COLS):
            cell = COLS * r + c
            if not NAMES[cell]:
                continue
            t = st.terrain[cell]
            if t == RIVER:
                row.append("  ~   ")
                continue
            b = st.bld[cell]
            mark = f"{BUILDING_NAMES[b]}{st.own[cell]}" if b else ""
            row.append(f"{TERRAIN_LETTERS[t]}{mark:<4} ")
        lines.append(f"{'ABCDEFGHI'[r]} " + "".join(row))
    bridges = [
        f"{cell_name(a)}:{cell_name(b)}(p{st.bown[s]})"
        for s, (a, b) in enumerate(BRIDGE_SLOTS)
        if st.bmask >> s & 1
    ]
    if bridges:
        lines.append("bridges: " + " ".join(bridges))
    tiles = " ".join(SCORING_NAMES[t] for t in st.score_tiles)
    lines.append(f"round {st.round}/6  scoring: {tiles}")
    bon = " ".join(f"{BONUS_NAMES[i]}(+{st.bon_coins[i]}c)" for i in range(10) if st.bon_supply[i])
    lines.append(f"bonus supply: {bon}")
    used = " ".join(f"ACT{i + 1}" for i in range(6) if st.act_used >> i & 1) or "none"
    lines.append(f"power actions taken: {used}")
    for p in range(st.n):
        d = st.pd[p]
        favs = ",".join(f"FAV{i + 1}" for i in range(12) if d[FAVS] >> i & 1) or "-"
        towns = ",".join(f"TW{i + 1}x{d[TW + i]}" for i in range(8) if d[TW + i]) or "-"
        cults = "/".join(str(d[CULT + i]) for i in range(4))
        builds = " ".join(f"{BUILDING_NAMES[k]}{d[NB + k]}" for k in range(1, 6))
        lines.append(
            f"p{p} {st.faction_name(p):<14} VP {d[VP]:>3}  C {d[C]:>2} W {d[W]:>2} P {d[P]} "
            f"PW {d[P1]}/{d[P2]}/{d[P3]}  cults {cults}  ship {d[SHIP]}  keys {d[KEY]}  "
            f"{builds}  bonus {BONUS_NAMES[d[BON]] if d[BON] >= 0 else '-'}  favors {favs}  "
            f"towns {towns}{'  passed' if d[PASSED] else ''}"
        )
    if st.is_terminal():
        lines.append("game over: final VP " + ", ".join(str(v) for v in st.vp()))
    else:
        lines.append(
            f"player {st.current_player} ({st.faction_name(st.current_player)}) to decide: "
            f"{st.decision()} [{PHASE_NAMES[st.phase]}]"
        )
    return "\n".join(lines)


def render_rgb(st: TerraMysticaState, hex_px: int = 16) -> np.ndarray:
    """Picture: hex map (buildings as squares in the owner's colour), cult board, resources.

    Buildings grow with their kind (D smallest, SH/SA largest); a gold line marks a town.
    """
    h = hex_px
    map_w = 13 * h + h // 2 + 2
    map_h = ROWS * h
    cult_w = 4 * h
    height = map_h + (st.n + 1) * h
    img = np.full((height, map_w + cult_w, 3), 235, dtype=np.uint8)
    for cell in range(NUM_CELLS):
        if not NAMES[cell]:
            continue
        r, c = divmod(cell, COLS)
        x0 = c * h + (h // 2 if r % 2 else 0)
        y0 = r * h
        img[y0 + 1 : y0 + h - 1, x0 + 1 : x0 + h - 1] = _TERRAIN_RGB[st.terrain[cell]]
        b = st.bld[cell]
        if b:
            size = 2 + b * (h // 8)
            size = min(size, h - 4)
            cy, cx = y0 + h // 2, x0 + h // 2
            half = size // 2
            img[cy - half : cy + half, cx - half : cx + half] = _SEAT_RGB[st.own[cell] % 5]
            if st.town[cell]:
                img[y0 + 1 : y0 + 3, x0 + 1 : x0 + h - 1] = (255, 215, 0)
    # cult board: 4 columns of 11 cells, a marker per player
    cell_h = map_h // 11
    for track in range(4):
        x0 = map_w + track * h
        for pos in range(11):
            y = map_h - (pos + 1) * cell_h
            img[y + 1 : y + cell_h - 1, x0 + 1 : x0 + h - 1] = (200, 190, 170)
        for p in range(st.n):
            pos = st.pd[p][CULT + track]
            y = map_h - (pos + 1) * cell_h
            xs = x0 + 2 + (p % 3) * 4
            ys = y + 2 + (p // 3) * 4
            img[ys : ys + 3, xs : xs + 3] = _SEAT_RGB[p % 5]
    # resource bars: coins, workers, priests, power III, VP / 4 (one pixel per unit, max 40)
    for p in range(st.n):
        d = st.pd[p]
        y0 = map_h + (p + 1) * h
        img[y0 : y0 + h, 0 : h // 2] = _SEAT_RGB[p % 5]
        x = h
        for value, colour in (
            (d[C], (230, 180, 0)),
            (d[W], (120, 80, 40)),
            (d[P], (90, 90, 90)),
            (d[P3], (160, 0, 200)),
            (d[VP] // 4, (0, 120, 0)),
        ):
            length = max(0, min(int(value), 40))
            img[y0 + 2 : y0 + h - 2, x : x + length] = colour
            x += 44
    return img
