"""Tribes rendering: a text map (``ansi``) and a picture of it (``rgb_array``).

Kept apart from the rules so the forward model stays lean; both functions only read the state.

Text map: one cell of four characters per tile, ``TRUO``: terrain (``.`` plain, ``s`` shallow,
``d`` deep water, ``m`` mountain, ``v`` village, ``C`` city, ``f`` forest, ``?`` fog), resource
or building (resource letters as in level files, building as a digit/letter code listed under the
map), unit letter (``w`` warrior, ``r`` rider, ``D`` defender, ``S`` swordsman, ``a`` archer,
``c`` catapult, ``k`` knight, ``m`` mind bender, ``b`` boat, ``s`` ship, ``B`` battleship, ``G``
giant) and its tribe's seat. Under the map: the round and each tribe's stars, score, cities,
technologies and units.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from stratagem.envs.tribes import cities as CT
from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes import techtree

if TYPE_CHECKING:
    from stratagem.envs.tribes.rules import TribesState

__all__ = ["render_rgb", "render_text"]

_TERRAIN_CHAR = (".", "s", "d", "m", "v", "C", "f", "?")
_UNIT_CHAR = ("w", "r", "D", "S", "a", "c", "k", "m", "b", "s", "B", "G")
_BUILDING_CHAR = "PMFfWHLSTtgmAEYOBKZ"

#: Tribe colours of the reference (Xin-Xi red, Imperius blue, Bardur grey, Oumaji yellow).
_TRIBE_RGB = np.array([[251, 2, 7], [0, 0, 255], [76, 76, 76], [255, 255, 10]], dtype=np.uint8)


def _status(state: TribesState) -> str:
    """Round and tribe to move, or the final ranking; the same in the text and the picture.

    Rounds count as the ``max_rounds`` option does (``round 1/51`` on the first move), not by
    the turn counter the rules keep (``tick``, from 0).
    """
    rounds = state.rounds_played()
    if state.game_over:
        ranking = ", ".join(C.TRIBES[state.tribe_type[t]].name for t in state.ranking or ())
        return f"game over after {rounds} rounds; ranking {ranking}"
    return (
        f"round {rounds}/{state.game.max_rounds}, "
        f"{C.TRIBES[state.tribe_type[state.current_player]].name} "
        f"(seat {state.current_player}) to move"
    )


def render_text(state: TribesState) -> str:
    """The map, then one status line per tribe."""
    geo = state.geo
    size = geo.size
    lines = ["    " + "".join(f"{c:<4}" for c in range(size))]
    for r in range(size):
        cells = []
        for c in range(size):
            t = r * size + c
            ter = state.terrain[t]
            b = state.building[t]
            res = state.resource[t]
            mid = _BUILDING_CHAR[b] if b >= 0 else C.RESOURCE_CHARS.get(res, " ")
            uid = state.unit_at[t]
            if uid:
                unit = state.units[uid]
                tail = _UNIT_CHAR[unit[0]] + str(unit[1])
            elif ter == C.CITY and state.tile_city[t]:
                tail = " " + str(CT.city_tribe(state, state.tile_city[t])).replace("-1", "?")
            else:
                tail = "  "
            cells.append(_TERRAIN_CHAR[ter] + mid + tail)
        lines.append(f"{r:>3} " + "".join(cells))
    lines.append(_status(state))
    for t in range(state.num_tribes):
        units = state.tribe_units(t)
        lines.append(
            f"seat {t} {C.TRIBES[state.tribe_type[t]].name}: stars {state.stars[t]}, "
            f"score {state.score[t]}, cities {len(state.tcities[t])}, "
            f"production {CT.tribe_production(state, t)}, "
            f"techs {techtree.num_researched(state.techs[t])}, units {len(units)}"
            + (", OUT" if state.result[t] == C.LOSS and not state.game_over else "")
        )
    legend = zip(_BUILDING_CHAR, C.BUILDING_NAMES, strict=True)
    lines.append("buildings: " + " ".join(f"{ch}={name}" for ch, name in legend))
    return "\n".join(lines)


_TERRAIN_COLOURS = (
    (178, 205, 120),  # plain
    (120, 185, 230),  # shallow water
    (45, 90, 170),  # deep water
    (140, 128, 118),  # mountain
    (178, 205, 120),  # village (on a plain)
    (178, 205, 120),  # city (on a plain)
    (70, 135, 70),  # forest
    (40, 40, 46),  # fog
)
_RESOURCE_COLOURS = {
    C.FISH: (40, 200, 220),
    C.FRUIT: (235, 90, 170),
    C.ANIMAL: (170, 110, 60),
    C.WHALES: (20, 60, 120),
    C.ORE: (200, 200, 210),
    C.CROPS: (240, 210, 60),
    C.RUINS: (130, 80, 170),
}
_UNIT_LETTERS = ("W", "R", "D", "S", "A", "C", "K", "M", "b", "s", "B", "G")
_ROAD = (160, 120, 80)
_PANEL_W = 300


def _tribe_colour(state: TribesState, tribe: int) -> tuple[int, int, int]:
    c = _TRIBE_RGB[state.tribe_type[tribe]]
    return (int(c[0]), int(c[1]), int(c[2]))


def _ink(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = colour
    return (0, 0, 0) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (255, 255, 255)


def render_rgb(state: TribesState, observer: int | None = None) -> np.ndarray:
    """The picture of the position (at least 800 pixels wide).

    The map with row numbers on the left and column numbers on top (action names read
    ``(row,col)``): terrain colours (mountains with a peak, forests with trees), resources as
    small lettered dots (``h`` fish, ``f`` fruit, ``a`` animal, ``w`` whales, ``o`` ore, ``c``
    crops, ``r`` ruins), buildings as brown lettered squares (codes under the map), roads as
    brown lines, villages as grey huts, cities as houses in their tribe's colour with their level
    (a star on a capital), territory as a border in the owner's colour, and units as discs in
    their tribe's colour with the type's letter and a health bar (faded once finished for the
    turn, a gold ring for veterans). With partial observability the tiles the player to move
    has not seen are darkened; with ``observer`` (or on a copy made by ``observed_by``) the
    picture shows only what that tribe knows, unseen tiles as fog. The panel lists each tribe's
    stars, production, score, cities, technologies and units; a legend closes the picture.

    Args:
        state: The position.
        observer: Draw the position as this seat sees it (fog of war), or everything.
    """
    from stratagem.envs import picture as pic
    from stratagem.envs.tribes import units as UN

    if observer is not None:
        state = state.observed_by(observer)
    geo = state.geo
    size = geo.size
    cell = max(28, min(64, -(-740 // size)))
    axis = 24
    board = size * cell
    width = max(pic.MIN_WIDTH, axis + board + 16 + _PANEL_W)
    left, top = axis + 6, pic.HEADER_HEIGHT + axis
    partial = state.game.partial
    if observer is not None:
        seer = observer
    elif state.native:
        seer = state.current_player
    else:  # an agent's copy: only its own tribe's technologies are kept (never none)
        own = [t for t in range(state.num_tribes) if state.techs[t]]
        seer = own[0] if len(own) == 1 else state.current_player
    unseen = [not v for v in state.vis[seer]] if partial and state.native else [False] * geo.n
    legend = [
        (pic.swatch_icon(_TERRAIN_COLOURS[k]), name)
        for k, name in (
            (0, "plain"),
            (1, "shallow water"),
            (2, "deep water"),
            (3, "mountain"),
            (6, "forest"),
            (7, "fog"),
        )
    ]
    legend.append((pic.shape_icon("house", (230, 230, 230), "2"), "city (level), star: capital"))
    legend.append((pic.shape_icon("house", (150, 150, 150), outline=(60, 60, 60)), "village"))
    for res, colour in _RESOURCE_COLOURS.items():
        legend.append(
            (
                pic.shape_icon("disc", colour, C.RESOURCE_CHARS[res], letter_fill=_ink(colour)),
                C.RESOURCE_NAMES[res],
            )
        )
    legend.append((pic.line_icon(_ROAD, 4), "road"))
    legend.append((pic.swatch_icon((245, 244, 240), outline=(0, 0, 0)), "border: territory"))
    for t, letter in enumerate(_UNIT_LETTERS):
        legend.append(
            (pic.shape_icon("disc", (120, 120, 120), letter), C.UNIT_NAMES[t].replace("_", " "))
        )
    legend.append((pic.line_icon((50, 200, 60)), "health"))
    legend.append(
        (pic.shape_icon("disc", (200, 200, 200), outline=(250, 200, 20)), "gold ring: veteran")
    )
    legend.append(
        (
            pic.shape_icon(
                "disc", pic.blend((251, 2, 7), (200, 200, 200), 0.6), outline=(120, 120, 120)
            ),
            "faded: finished",
        )
    )
    if partial and state.native:
        legend.append(
            (
                pic.swatch_icon(pic.blend((178, 205, 120), (0, 0, 0), 0.55)),
                f"dark: unseen by seat {seer}",
            )
        )
    build_key = "buildings: " + " ".join(
        f"{ch}={name.replace('_', ' ')}"
        for ch, name in zip(_BUILDING_CHAR, C.BUILDING_NAMES, strict=True)
    )
    probe = pic.Canvas(width, 1)
    key_lines = probe.wrap(build_key, width - 20, 12)
    key_top = top + board + 8
    legend_top = key_top + 16 * len(key_lines) + 2
    height = max(probe.legend(legend_top, legend, dry_run=True) + 4, top + 560)
    c = pic.Canvas(width, height)
    status = _status(state)
    title = "Tribes" + ("" if state.native else f" (as seat {seer} sees it)")
    c.header(title, status)
    label = 10 if cell < 36 else 12
    for k in range(size):
        c.text(
            (left + k * cell + cell / 2, top - 4), str(k), size=label, fill=pic.MUTED, anchor="md"
        )
        c.text(
            (left - 5, top + k * cell + cell / 2), str(k), size=label, fill=pic.MUTED, anchor="rm"
        )
    owner_of = [
        CT.city_tribe(state, state.tile_city[t]) if state.tile_city[t] else -1 for t in range(geo.n)
    ]
    for t in range(geo.n):
        r, col = geo.rc[t]
        x0, y0 = left + col * cell, top + r * cell
        ter = state.terrain[t]
        fill = _TERRAIN_COLOURS[ter]
        c.rect(
            (x0, y0, x0 + cell - 1, y0 + cell - 1),
            fill=fill,
            outline=pic.blend(fill, (0, 0, 0), 0.15),
        )
        cx, cy = x0 + cell / 2, y0 + cell / 2
        if ter == C.MOUNTAIN:
            c.polygon(
                [
                    (x0 + cell * 0.15, y0 + cell * 0.8),
                    (cx, y0 + cell * 0.22),
                    (x0 + cell * 0.85, y0 + cell * 0.8),
                ],
                (110, 100, 92),
                (80, 72, 66),
            )
        elif ter == C.FOREST:
            for dx, dy in ((-0.2, 0.05), (0.18, -0.12), (0.12, 0.22)):
                tx, ty = cx + dx * cell, cy + dy * cell
                c.polygon(
                    [
                        (tx - cell * 0.11, ty + cell * 0.12),
                        (tx, ty - cell * 0.14),
                        (tx + cell * 0.11, ty + cell * 0.12),
                    ],
                    (35, 95, 40),
                )
        elif ter == C.FOG:
            c.text((cx, cy), "?", size=int(cell * 0.4), fill=(90, 90, 100), anchor="mm")
    # roads under everything that stands on a tile
    for t in range(geo.n):
        if not state.network[t] or state.terrain[t] in (C.SHALLOW_WATER, C.DEEP_WATER):
            continue
        r, col = geo.rc[t]
        cx, cy = left + col * cell + cell / 2, top + r * cell + cell / 2
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            rr, cc = r + dr, col + dc
            if 0 <= rr < size and 0 <= cc < size:
                u = rr * size + cc
                if state.network[u] or state.terrain[u] == C.CITY:
                    c.line([(cx, cy), (cx + dc * cell, cy + dr * cell)], _ROAD, max(2, cell // 20))
        c.shape("disc", cx, cy, max(2, cell // 14), _ROAD, outline=None)
    # territory borders
    bw = max(2, cell // 14)
    for t in range(geo.n):
        o = owner_of[t]
        if o < 0:
            continue
        r, col = geo.rc[t]
        x0, y0 = left + col * cell, top + r * cell
        colour = _tribe_colour(state, o)
        for dr, dc, box in (
            (-1, 0, (x0, y0, x0 + cell - 1, y0 + bw - 1)),
            (1, 0, (x0, y0 + cell - bw, x0 + cell - 1, y0 + cell - 1)),
            (0, -1, (x0, y0, x0 + bw - 1, y0 + cell - 1)),
            (0, 1, (x0 + cell - bw, y0, x0 + cell - 1, y0 + cell - 1)),
        ):
            rr, cc = r + dr, col + dc
            inside = 0 <= rr < size and 0 <= cc < size
            if not inside or owner_of[rr * size + cc] != o:
                c.rect(box, fill=colour)
    # villages, cities, resources, buildings
    for t in range(geo.n):
        r, col = geo.rc[t]
        x0, y0 = left + col * cell, top + r * cell
        cx, cy = x0 + cell / 2, y0 + cell / 2
        ter = state.terrain[t]
        if ter == C.VILLAGE:
            c.shape("house", cx, cy, cell * 0.28, (150, 150, 150), outline=(60, 60, 60))
        elif ter == C.CITY:
            cid = state.tile_city[t]
            city = state.cities.get(cid) if cid else None
            colour = _tribe_colour(state, city[CT.C_TRIBE]) if city else (150, 150, 150)
            if state.unit_at[t]:  # leave the top right corner to the unit
                cx, cy = x0 + cell * 0.3, y0 + cell * 0.66
            c.shape(
                "house",
                cx,
                cy - cell * 0.04,
                cell * 0.26 if state.unit_at[t] else cell * 0.36,
                colour,
                outline=(0, 0, 0),
                width=2,
            )
            if city:
                c.text(
                    (cx, cy + cell * 0.06),
                    str(city[CT.C_LEVEL]),
                    size=max(10, int(cell * 0.34)),
                    fill=_ink(colour),
                    anchor="mm",
                )
                if city[CT.C_CAPITAL]:
                    c.shape(
                        "star",
                        x0 + cell * 0.2,
                        y0 + cell * 0.2,
                        cell * 0.15,
                        (250, 200, 20),
                        outline=(0, 0, 0),
                    )
        res = state.resource[t]
        if res >= 0 and state.building[t] < 0:
            colour = _RESOURCE_COLOURS.get(res, (255, 255, 255))
            c.shape(
                "disc",
                x0 + cell * 0.24,
                y0 + cell * 0.76,
                cell * 0.15,
                colour,
                outline=(30, 30, 30),
            )
            c.text(
                (x0 + cell * 0.24, y0 + cell * 0.77),
                C.RESOURCE_CHARS.get(res, "?"),
                size=max(8, int(cell * 0.2)),
                fill=_ink(colour),
                anchor="mm",
            )
        b = state.building[t]
        if b >= 0:
            bx, by = x0 + cell * 0.24, y0 + cell * 0.76
            c.rect(
                (bx - cell * 0.16, by - cell * 0.16, bx + cell * 0.16, by + cell * 0.16),
                fill=(120, 75, 35),
                outline=(40, 25, 10),
            )
            c.text(
                (bx, by + 1),
                _BUILDING_CHAR[b],
                size=max(8, int(cell * 0.22)),
                fill=(255, 255, 255),
                anchor="mm",
            )
    # units
    for uid, unit in state.units.items():
        t = unit[UN.U_POS]
        if state.unit_at[t] != uid:
            continue
        r, col = geo.rc[t]
        x0, y0 = left + col * cell, top + r * cell
        cx, cy = x0 + cell * 0.66, y0 + cell * 0.33
        colour = _tribe_colour(state, unit[UN.U_TRIBE])
        finished = unit[UN.U_STATUS] == C.FINISHED
        fill = pic.blend(colour, (200, 200, 200), 0.6) if finished else colour
        ring = (
            (250, 200, 20)
            if unit[UN.U_VET]
            else ((255, 255, 255) if not finished else (120, 120, 120))
        )
        rad = cell * 0.24
        c.shape("disc", cx, cy, rad + 2, ring, outline=None)
        c.shape("disc", cx, cy, rad, fill, outline=(0, 0, 0))
        c.text(
            (cx, cy + 1),
            _UNIT_LETTERS[unit[UN.U_TYPE]],
            size=max(9, int(cell * 0.3)),
            fill=_ink(fill),
            anchor="mm",
        )
        max_hp = max(1, unit[UN.U_MAXHP])
        c.bar(
            (cx - rad, cy + rad + 4, cx + rad, cy + rad + 4 + max(2, cell // 12)),
            unit[UN.U_HP] / max_hp,
        )
    # what the player to move has not seen: darkened (55 % black over the tile)
    if any(unseen):
        from PIL import Image, ImageDraw

        mask = Image.new("L", c.image.size, 0)
        shade = ImageDraw.Draw(mask)
        for t in range(geo.n):
            if unseen[t]:
                r, col = geo.rc[t]
                x0, y0 = left + col * cell, top + r * cell
                shade.rectangle((x0, y0, x0 + cell - 1, y0 + cell - 1), fill=140)
        c.image.paste(Image.new("RGB", c.image.size, (0, 0, 0)), (0, 0), mask)
    # panel
    px = left + board + 16
    y = top
    c.text((px, y), "Tribes", size=15, fill=pic.MUTED)
    y += 22
    for tr in range(state.num_tribes):
        colour = _tribe_colour(state, tr)
        known = state.native or tr == seer
        techs = techtree.num_researched(state.techs[tr]) if known else "?"
        to_move = not state.game_over and state.current_player == tr
        lines = [
            f"stars {state.stars[tr]}  ({CT.tribe_production(state, tr):+d}/turn)"
            if known
            else "stars ?",
            f"score {state.score[tr]}",
            f"cities {len(state.tcities[tr])}, techs {techs}",
            f"units {len(state.tribe_units(tr))}"
            + (", OUT" if state.result[tr] == C.LOSS and not state.game_over else ""),
        ]
        box_h = 26 + 18 * len(lines)
        c.rect((px, y, width - 10, y + box_h), fill=pic.PANEL, outline=(205, 200, 190))
        c.rect((px + 1, y + 1, px + 12, y + box_h - 1), fill=colour)
        end = c.text((px + 20, y + 5), f"seat {tr}: {C.TRIBES[state.tribe_type[tr]].name}", size=15)
        if to_move:
            c.to_move_marker(px + 28 + end, y + 14)
        for i, line in enumerate(lines):
            c.text((px + 20, y + 26 + 18 * i), line, size=13)
        y += box_h + 8
    for i, line in enumerate(key_lines):
        c.text((10, key_top + 16 * i), line, size=12, fill=pic.MUTED)
    c.legend(legend_top, legend)
    return c.to_array()
