"""Terra Mystica rendering: a text view (``ansi``) and a picture (``rgb_array``).

The text view prints the hex map in the printed layout (odd rows shifted), each hex as its
terrain letter with the building and owner seat (``D0``, ``TP1``), then the cult board, the
supplies and every player's resources. The picture (:func:`render_rgb`) draws the hex map with
terrains, rivers, bridges and buildings in the owner's colour, the scoring tiles, the four cult
tracks, and a row per player with VP, resources, power bowls and tiles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from stratagem.envs.terra_mystica.factions import BUILDING_NAMES
from stratagem.envs.terra_mystica.fields import (
    BON,
    CULT,
    DIG,
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
    TERRAIN_NAMES,
    cell_name,
)
from stratagem.envs.terra_mystica.tiles import BONUS_NAMES, SCORING_NAMES

if TYPE_CHECKING:
    from stratagem.envs.terra_mystica.rules import TerraMysticaState

__all__ = ["render_rgb", "render_text"]


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


# ---------------------------------------------------------------------------------- picture
#: Printed colours of the terrains (plains, swamp, lakes, forest, mountains, wasteland, desert),
#: then the river. A faction's colour is its home terrain's.
_TERRAIN_COLOURS = (
    (165, 115, 65),
    (60, 60, 62),
    (70, 135, 225),
    (45, 140, 65),
    (155, 155, 160),
    (205, 60, 50),
    (238, 212, 95),
    (185, 222, 245),
)
_CULT_COLOURS = ((215, 60, 45), (60, 120, 220), (150, 100, 55), (225, 225, 230))
_GOLD = (250, 200, 20)
_HEX = 30  # hex radius in pixels
_MAP_W = int(3**0.5 * _HEX * (COLS + 0.5)) + 50
_MAP_H = int(1.5 * _HEX * (ROWS - 1) + 2 * _HEX) + 40
_PANEL_W = 420
_WIDTH = _MAP_W + _PANEL_W
_BUILDING_SHAPES = ("", "house", "square", "disc", "shield", "star")
_BUILDING_SIZES = (0.0, 0.4, 0.46, 0.46, 0.52, 0.58)
_BUILDING_LONG = ("", "dwelling", "trading post", "temple", "stronghold", "sanctuary")


def _ink(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever reads on ``colour``."""
    r, g, b = colour
    return (0, 0, 0) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (255, 255, 255)


def _faction_colour(st: TerraMysticaState, p: int) -> tuple[int, int, int]:
    """A seat's colour: its faction's home terrain."""
    from stratagem.envs.terra_mystica.factions import FACTIONS

    return _TERRAIN_COLOURS[FACTIONS[st.fac[p]].home]


def _hex_centre(cell: int) -> tuple[float, float]:
    r, c = divmod(cell, COLS)
    w = 3**0.5 * _HEX
    return 34 + w * (c + 0.5 + (0.5 if r % 2 else 0.0)), 26 + pic_header() + _HEX + 1.5 * _HEX * r


def pic_header() -> int:
    """Height of the picture's header bar."""
    from stratagem.envs.picture import HEADER_HEIGHT

    return HEADER_HEIGHT


def _scoring_text(t: int) -> str:
    """``D 2vp; 4 WATER: 1 P`` for a round scoring tile."""
    from stratagem.envs.terra_mystica.tiles import CULT_NAMES, SCORING

    tile = SCORING[t]
    what = "town" if tile.kind == "town" else ("spade" if tile.kind == "spade" else tile.kind)
    if tile.cult < 0:
        reward = f"{tile.amount} {tile.reward} per priest on cults"
    else:
        reward = f"{tile.req} {CULT_NAMES[tile.cult].lower()}: {tile.amount} {tile.reward}"
    return f"{what} {tile.vp}vp; {reward}"


def render_rgb(st: TerraMysticaState) -> np.ndarray:
    """The picture of the position (about 1,240 pixels wide).

    Left, the hex map: each hex in its terrain's colour with its name (``E7``), rivers pale
    blue, buildings in their owner's faction colour (a faction's colour is its home terrain's;
    dwelling: house, trading post: square, temple: disc, stronghold: shield, sanctuary: star,
    each with its letters), a gold frame around hexes of a founded town, and bridges as thick
    bars in the owner's colour across the river. Right, the round and its scoring tiles, the four
    cult tracks (0..10, each player's marker with its seat number, priests on the order spaces
    at the top), the bonus tiles left and the power actions taken. Below, one row per player:
    VP, coins, workers, priests, the three power bowls, shipping, digging, keys, buildings on
    the board, bonus tile, favors and towns. A legend closes the picture.
    """
    from stratagem.envs import picture as pic
    from stratagem.envs.terra_mystica.rules import PHASE_NAMES

    n = st.n
    top = pic.HEADER_HEIGHT
    rows_top = top + max(_MAP_H, 470) + 4
    row_h = 50
    legend = [(pic.hex_icon(_TERRAIN_COLOURS[k]), name) for k, name in enumerate(TERRAIN_NAMES)]
    legend.append((pic.hex_icon(_TERRAIN_COLOURS[7]), "river"))
    for k in range(1, 6):
        legend.append(
            (
                pic.shape_icon(_BUILDING_SHAPES[k], (230, 230, 230), outline=(0, 0, 0)),
                f"{BUILDING_NAMES[k]} {_BUILDING_LONG[k]}",
            )
        )
    legend += [
        (pic.hex_icon((255, 255, 255), outline=_GOLD), "gold frame: town"),
        (pic.line_icon((60, 60, 60), 6), "bridge"),
        (pic.disc_icon((200, 160, 225), (90, 50, 120)), "power bowls I, II, III"),
    ]
    legend_top = rows_top + n * row_h + 4
    probe = pic.Canvas(_WIDTH, 1)
    height = probe.legend(legend_top, legend, dry_run=True) + 4
    c = pic.Canvas(_WIDTH, height)
    if st.is_terminal():
        status = "game over: final VP " + ", ".join(
            f"{st.faction_name(p)} {v}" for p, v in enumerate(st.vp())
        )
    else:
        p = st.current_player
        status = f"player {p} ({st.faction_name(p)}) to decide: {st.decision()}"
        offer = st.leech_offer()
        if offer is not None:
            status += f" ({offer[2]} power from {st.faction_name(offer[1])})"
        elif st.phase != 2:
            status += f" [{PHASE_NAMES[st.phase]}]"
    rnd = "setup" if st.round == 0 else f"round {st.round}/6"
    c.header(f"Terra Mystica, {rnd}", status)
    _draw_map(c, st)
    _draw_panel(c, st, _MAP_W, top + 8)
    for p in range(n):
        _draw_player(c, st, p, rows_top + p * row_h, row_h - 4)
    c.legend(legend_top, legend)
    return c.to_array()


def _draw_map(c: Any, st: TerraMysticaState) -> None:
    """The hexes, names, buildings, towns and bridges."""
    from stratagem.envs import picture as pic

    for cell in range(NUM_CELLS):
        if not NAMES[cell]:
            continue
        x, y = _hex_centre(cell)
        t = st.terrain[cell]
        colour = _TERRAIN_COLOURS[t]
        c.polygon(
            pic.hex_corners(x, y, _HEX), colour, (250, 250, 250) if t == RIVER else (40, 40, 40)
        )
        if t != RIVER:
            c.text((x, y - _HEX * 0.7), cell_name(cell), size=10, fill=_ink(colour), anchor="mm")
    for s, (a, b) in enumerate(BRIDGE_SLOTS):
        if not st.bmask >> s & 1:
            continue
        (xa, ya), (xb, yb) = _hex_centre(a), _hex_centre(b)
        # from edge to edge of the two land hexes
        k = 0.55 * _HEX / max(1.0, ((xb - xa) ** 2 + (yb - ya) ** 2) ** 0.5)
        p0 = (xa + (xb - xa) * k, ya + (yb - ya) * k)
        p1 = (xb - (xb - xa) * k, yb - (yb - ya) * k)
        c.line([p0, p1], (0, 0, 0), 11)
        c.line([p0, p1], _faction_colour(st, st.bown[s]), 7)
    for cell in range(NUM_CELLS):
        if not NAMES[cell] or st.terrain[cell] == RIVER:
            continue
        x, y = _hex_centre(cell)
        if st.town[cell]:
            c.polygon(pic.hex_corners(x, y, _HEX - 2), None, _GOLD, width=4)
        b = st.bld[cell]
        if b:
            owner = _faction_colour(st, st.own[cell])
            size = _BUILDING_SIZES[b] * _HEX
            cy = y + 0.2 * _HEX
            # a white halo, a black rim, then the owner's colour: visible on any terrain
            c.shape(_BUILDING_SHAPES[b], x, cy, size + 5, (255, 255, 255), outline=None)
            c.shape(_BUILDING_SHAPES[b], x, cy, size + 2, (0, 0, 0), outline=None)
            c.shape(_BUILDING_SHAPES[b], x, cy, size, owner, outline=None)
            c.text(
                (x, cy + (0.12 * _HEX if b == 1 else 1)),
                BUILDING_NAMES[b],
                size=11,
                fill=_ink(owner),
                anchor="mm",
            )


def _draw_panel(c: Any, st: TerraMysticaState, x0: int, y0: int) -> None:
    """Round, scoring tiles, cult tracks, bonus tiles and power actions."""
    from stratagem.envs import picture as pic
    from stratagem.envs.terra_mystica.tiles import CULT_NAMES

    w = _PANEL_W - 14
    c.rect((x0, y0, x0 + w, y0 + 462), fill=pic.PANEL)
    y = y0 + 6
    c.text((x0 + 8, y), "Scoring tiles (round: what scores; cult reward)", size=13, fill=pic.MUTED)
    y += 18
    for i, t in enumerate(st.score_tiles):
        current = st.round == i + 1
        text = f"{i + 1}. {SCORING_NAMES[t]}: {_scoring_text(t)}"
        if current:
            c.rect((x0 + 4, y - 1, x0 + w - 4, y + 15), fill=(255, 244, 190))
        c.text((x0 + 8, y), c.fit(text, w - 16, 12), size=12)
        y += 16
    y += 6
    # cult tracks
    c.text(
        (x0 + 8, y),
        "Cult tracks (seat markers; priests on the order spaces)",
        size=13,
        fill=pic.MUTED,
    )
    y += 18
    col_w = (w - 40) / 4
    step = 19
    base = y + 22 + 11 * step
    for k in range(4):
        cx0 = x0 + 30 + k * col_w
        colour = _CULT_COLOURS[k]
        c.rect((cx0, y, cx0 + col_w - 6, y + 18), fill=colour)
        c.text(
            (cx0 + (col_w - 6) / 2, y + 9),
            CULT_NAMES[k].lower(),
            size=12,
            fill=_ink(colour),
            anchor="mm",
        )
        # order spaces (priests): 4 slots
        for j in range(4):
            owner = st.cult_spaces[4 * k + j]
            sx = cx0 + 4 + j * (col_w - 12) / 4
            box = (sx, y + 20, sx + (col_w - 12) / 4 - 3, y + 20 + 14)
            if owner >= 0:
                c.rect(box, fill=_faction_colour(st, owner), outline=(0, 0, 0))
            else:
                c.rect(box, fill=(250, 250, 250), outline=(170, 170, 170))
        for pos in range(11):
            ty = base - pos * step
            c.rect(
                (cx0, ty - step + 2, cx0 + col_w - 6, ty),
                fill=pic.blend(colour, (255, 255, 255), 0.75),
                outline=pic.blend(colour, (255, 255, 255), 0.4),
            )
        for p in range(st.n):
            pos = st.pd[p][CULT + k]
            ty = base - pos * step - (step - 2) / 2
            mx = cx0 + 9 + p * min(16, (col_w - 18) / max(1, st.n - 1) if st.n > 1 else 0)
            fc = _faction_colour(st, p)
            c.shape("disc", mx, ty, 7, fc, outline=(0, 0, 0))
            c.text((mx, ty + 1), str(p), size=10, fill=_ink(fc), anchor="mm")
    for pos in range(11):
        ty = base - pos * step
        c.text((x0 + 22, ty - (step - 2) / 2), str(pos), size=11, fill=pic.MUTED, anchor="rm")
    y = base + 10
    bon = " ".join(
        f"{BONUS_NAMES[i]}" + (f"+{st.bon_coins[i]}c" if st.bon_coins[i] else "")
        for i in range(len(st.bon_supply))
        if st.bon_supply[i]
    )
    for line in c.wrap(f"Bonus tiles left: {bon or '-'}", w - 16, 12):
        c.text((x0 + 8, y), line, size=12)
        y += 16
    used = " ".join(f"ACT{i + 1}" for i in range(6) if st.act_used >> i & 1) or "none"
    c.text((x0 + 8, y), f"Power actions taken this round: {used}", size=12)


def _draw_player(c: Any, st: TerraMysticaState, p: int, y: int, h: int) -> None:
    """One player's row: faction, VP, resources, power bowls, tracks and tiles."""
    from stratagem.envs import picture as pic
    from stratagem.envs.terra_mystica.factions import BUILDING_STOCK, FACTIONS

    d = st.pd[p]
    colour = _faction_colour(st, p)
    to_move = not st.is_terminal() and st.current_player == p
    c.rect((8, y, _WIDTH - 9, y + h), fill=pic.PANEL, outline=(205, 200, 190))
    c.rect((9, y + 1, 22, y + h - 1), fill=colour)
    c.text((16, y + h / 2), str(p), size=13, fill=_ink(colour), anchor="mm")
    c.text((30, y + 4), FACTIONS[st.fac[p]].display, size=15)
    c.text((30, y + 25), f"{d[VP]} VP", size=17)
    if to_move:
        c.to_move_marker(100, y + 33)
    elif d[PASSED]:
        c.text((100, y + 28), "passed", size=13, fill=pic.MUTED)
    x = 190
    for label, value, fill in (
        ("coins", d[C], (245, 205, 60)),
        ("workers", d[W], (200, 170, 130)),
        ("priests", d[P], (205, 205, 215)),
    ):
        c.rect((x, y + 24, x + 24, y + 44), fill=fill, outline=(90, 90, 90))
        c.text((x + 12, y + 34), str(value), size=13, anchor="mm")
        c.text((x + 12, y + 5), label[0].upper(), size=12, fill=pic.MUTED, anchor="ma")
        x += 30
    x += 8
    c.text((x, y + 5), "power I / II / III", size=12, fill=pic.MUTED)
    for k, value in enumerate((d[P1], d[P2], d[P3])):
        fill = pic.blend((150, 60, 200), (255, 255, 255), 0.7 - 0.3 * k)
        c.shape("disc", x + 14 + k * 34, y + 34, 11, fill, outline=(90, 50, 120))
        c.text((x + 14 + k * 34, y + 35), str(value), size=12, anchor="mm")
    x += 112
    bon = BONUS_NAMES[d[BON]] if d[BON] >= 0 else "-"
    favs = " ".join(f"FAV{i + 1}" for i in range(12) if d[FAVS] >> i & 1) or "-"
    towns = (
        " ".join(
            f"TW{i + 1}" + (f"x{d[TW + i]}" if d[TW + i] > 1 else "") for i in range(8) if d[TW + i]
        )
        or "-"
    )
    builds = "  ".join(f"{BUILDING_NAMES[k]} {d[NB + k]}/{BUILDING_STOCK[k]}" for k in range(1, 6))
    c.text(
        (x, y + 5), f"on board: {builds}   ship {d[SHIP]}   dig {d[DIG]}   keys {d[KEY]}", size=13
    )
    c.text(
        (x, y + 26),
        c.fit(f"bonus {bon}   favors {favs}   towns {towns}", _WIDTH - x - 16, 13),
        size=13,
    )
