"""Shared drawing for the games' pictures (``rgb_array`` frames), built on Pillow.

Every game draws its frame the same way, so that a person who has learnt to read one picture
can read them all:

* a dark **header** bar: the game's name and where the game stands (round, player to move, or
  the result);
* the **board** and, beside or under it, a **panel** of each player's figures;
* a **legend** strip at the bottom naming every colour and shape used.

Pictures are at least :data:`MIN_WIDTH` pixels wide so that the text can be read at 100 %.
Pillow's bundled scalable font (``ImageFont.load_default(size)``) is used, so nothing depends on
the fonts of the machine and the same state gives the same picture everywhere. Shapes are filled
without anti-aliasing, so a colour named in the legend appears in the picture exactly.

Rendering stays out of the rules: a game's ``render`` module imports this one lazily, and the
rules never import either.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

__all__ = [
    "BACKGROUND",
    "HEADER_HEIGHT",
    "MIN_WIDTH",
    "MUTED",
    "PANEL",
    "TEXT",
    "TO_MOVE",
    "Canvas",
    "Icon",
    "blend",
    "disc_icon",
    "font",
    "hex_corners",
    "hex_icon",
    "line_icon",
    "rgb",
    "shape_icon",
    "shape_points",
    "swatch_icon",
    "text_icon",
]

#: Smallest picture width: text at the sizes used here is readable at 100 % zoom.
MIN_WIDTH = 800
#: Height of the header bar.
HEADER_HEIGHT = 38
#: Colours of the page, the panels, the header and the text.
BACKGROUND = (246, 244, 239)
PANEL = (232, 229, 221)
HEADER = (38, 42, 52)
TEXT = (25, 25, 30)
MUTED = (95, 95, 105)
#: Colour of the "to move" sign.
TO_MOVE = (200, 30, 30)
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)

Colour = tuple[int, int, int]
#: A legend icon: draws itself into the box ``(x0, y0, x1, y1)``.
Icon = Callable[["Canvas", tuple[int, int, int, int]], None]


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at ``size`` pixels (cached: loading costs more than drawing)."""
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1 has only the fixed bitmap font
        return ImageFont.load_default()


def blend(colour: Sequence[int], other: Sequence[int], t: float) -> Colour:
    """``colour`` moved a fraction ``t`` towards ``other`` (0: unchanged, 1: ``other``)."""
    return tuple(round(a + (b - a) * t) for a, b in zip(colour, other, strict=True))  # type: ignore[return-value]


def rgb(colour: Any) -> Colour:
    """A plain ``(r, g, b)`` tuple of ints from a list, tuple or numpy row."""
    return (int(colour[0]), int(colour[1]), int(colour[2]))


def hex_corners(
    cx: float, cy: float, radius: float, pointy: bool = True
) -> list[tuple[float, float]]:
    """The six corners of a regular hexagon centred on ``(cx, cy)``.

    Args:
        cx: Centre x.
        cy: Centre y.
        radius: Centre-to-corner distance.
        pointy: A corner at the top (pointy-top), else a flat top.
    """
    start = -90 if pointy else 0
    return [
        (
            cx + radius * math.cos(math.radians(start + 60 * k)),
            cy + radius * math.sin(math.radians(start + 60 * k)),
        )
        for k in range(6)
    ]


def shape_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Polygon of a named unit shape of half-size ``r`` centred on ``(cx, cy)``.

    Shapes: ``square``, ``diamond``, ``triangle`` (pointing up), ``down`` and ``right``
    (triangles pointing down and right), ``hexagon``, ``octagon``, ``house`` (a pentagon with a
    roof), ``shield``, ``cross``, ``star`` and ``disc`` (a 20-gon).

    Raises:
        ValueError: For an unknown shape name.
    """
    if shape == "square":
        return [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)]
    if shape == "diamond":
        return [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    if shape == "triangle":
        return [(cx, cy - r), (cx + r, cy + 0.8 * r), (cx - r, cy + 0.8 * r)]
    if shape == "down":
        return [(cx - r, cy - 0.8 * r), (cx + r, cy - 0.8 * r), (cx, cy + r)]
    if shape == "right":
        return [(cx - 0.8 * r, cy - r), (cx + r, cy), (cx - 0.8 * r, cy + r)]
    if shape == "hexagon":
        return hex_corners(cx, cy, r, pointy=False)
    if shape in ("octagon", "disc"):
        k = 8 if shape == "octagon" else 20
        off = math.pi / k if shape == "octagon" else 0.0
        return [
            (
                cx + r * math.cos(off + 2 * math.pi * i / k),
                cy + r * math.sin(off + 2 * math.pi * i / k),
            )
            for i in range(k)
        ]
    if shape == "house":
        return [
            (cx, cy - r),
            (cx + r, cy - 0.2 * r),
            (cx + r, cy + r),
            (cx - r, cy + r),
            (cx - r, cy - 0.2 * r),
        ]
    if shape == "shield":
        return [
            (cx - r, cy - r),
            (cx + r, cy - r),
            (cx + r, cy + 0.1 * r),
            (cx, cy + r),
            (cx - r, cy + 0.1 * r),
        ]
    if shape == "cross":
        a = r / 3
        return [
            (cx - a, cy - r),
            (cx + a, cy - r),
            (cx + a, cy - a),
            (cx + r, cy - a),
            (cx + r, cy + a),
            (cx + a, cy + a),
            (cx + a, cy + r),
            (cx - a, cy + r),
            (cx - a, cy + a),
            (cx - r, cy + a),
            (cx - r, cy - a),
            (cx - a, cy - a),
        ]
    if shape == "star":
        pts = []
        for i in range(10):
            rad = r if i % 2 == 0 else r * 0.45
            ang = -math.pi / 2 + math.pi * i / 5
            pts.append((cx + rad * math.cos(ang), cy + rad * math.sin(ang)))
        return pts
    raise ValueError(f"unknown shape {shape!r}")


#: Height of a line of a player panel, and the gap after each player's lines.
PANEL_LINE, PANEL_GAP = 19, 6


def panel_height(blocks: Sequence[Sequence[str]]) -> int:
    """Height of :meth:`Canvas.player_panel` for these lines."""
    return sum(len(block) * PANEL_LINE + PANEL_GAP for block in blocks)


class Canvas:
    """A Pillow RGB image with the drawing helpers every game uses.

    Attributes:
        image: The Pillow image.
        draw: Its ``ImageDraw`` (shapes without anti-aliasing, text anti-aliased).
        width: Width in pixels.
        height: Height in pixels.
    """

    def __init__(self, width: int, height: int, background: Colour = BACKGROUND) -> None:
        self.width = int(width)
        self.height = int(height)
        self.image = Image.new("RGB", (self.width, self.height), background)
        self.draw = ImageDraw.Draw(self.image)

    # ------------------------------------------------------------------ text
    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int = 14,
        fill: Sequence[int] = TEXT,
        anchor: str = "la",
        outline: Sequence[int] | None = None,
    ) -> float:
        """Write ``text`` at ``xy`` (Pillow anchor, default left/ascender); returns its width.

        With ``outline``, a one-pixel halo in that colour keeps the text readable on any fill.
        """
        f = font(size)
        kwargs: dict[str, Any] = {}
        if outline is not None:
            kwargs = {"stroke_width": max(1, size // 9), "stroke_fill": rgb(outline)}
        self.draw.text(xy, text, font=f, fill=rgb(fill), anchor=anchor, **kwargs)
        return self.text_width(text, size)

    @staticmethod
    def text_width(text: str, size: int = 14) -> float:
        """Width in pixels of ``text`` at ``size``."""
        return font(size).getlength(text)

    def fit(self, text: str, width: float, size: int = 14) -> str:
        """``text`` cut with an ellipsis so that it fits in ``width`` pixels."""
        if self.text_width(text, size) <= width:
            return text
        while text and self.text_width(text + "…", size) > width:
            text = text[:-1]
        return text + "…"

    def wrap(self, text: str, width: float, size: int = 14) -> list[str]:
        """``text`` broken at spaces into lines no wider than ``width`` pixels."""
        lines: list[str] = []
        line = ""
        for word in text.split(" "):
            trial = f"{line} {word}" if line else word
            if line and self.text_width(trial, size) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        if line:
            lines.append(line)
        return lines

    # ------------------------------------------------------------------ shapes
    def rect(
        self,
        box: Sequence[float],
        fill: Sequence[int] | None = None,
        outline: Sequence[int] | None = None,
        width: int = 1,
    ) -> None:
        """A rectangle ``(x0, y0, x1, y1)`` (inclusive corners)."""
        self.draw.rectangle(
            tuple(box),
            fill=None if fill is None else rgb(fill),
            outline=None if outline is None else rgb(outline),
            width=width,
        )

    def polygon(
        self,
        points: Sequence[tuple[float, float]],
        fill: Sequence[int] | None = None,
        outline: Sequence[int] | None = None,
        width: int = 1,
    ) -> None:
        """A filled polygon with an optional outline of ``width`` pixels."""
        self.draw.polygon(
            list(points),
            fill=None if fill is None else rgb(fill),
            outline=None if outline is None else rgb(outline),
            width=width,
        )

    def shape(
        self,
        shape: str,
        cx: float,
        cy: float,
        r: float,
        fill: Sequence[int],
        outline: Sequence[int] | None = BLACK,
        width: int = 1,
    ) -> None:
        """A named shape (see :func:`shape_points`); ``disc`` is drawn as an ellipse."""
        if shape == "disc":
            self.draw.ellipse(
                (cx - r, cy - r, cx + r, cy + r),
                fill=rgb(fill),
                outline=None if outline is None else rgb(outline),
                width=width,
            )
            return
        self.polygon(shape_points(shape, cx, cy, r), fill, outline, width)

    def to_move_marker(self, x: float, y: float) -> float:
        """A red arrow and the words "to move" from ``(x, y)`` (left, middle); returns the end x.

        Games mark the player to move with this small sign rather than by restyling a whole
        panel, so that consecutive pictures differ in few pixels (the viewer stores changes).
        """
        self.shape("right", x + 6, y, 6, TO_MOVE, outline=None)
        return x + 16 + self.text((x + 16, y), "to move", size=13, fill=TO_MOVE, anchor="lm")

    def line(
        self, points: Sequence[tuple[float, float]], fill: Sequence[int], width: int = 1
    ) -> None:
        """A polyline."""
        self.draw.line(list(points), fill=rgb(fill), width=width)

    def bar(
        self,
        box: Sequence[float],
        fraction: float,
        fill: Sequence[int] = (50, 190, 60),
        empty: Sequence[int] = (45, 45, 45),
    ) -> None:
        """A gauge ``fraction`` (0..1) full: ``fill`` on ``empty``, left to right."""
        x0, y0, x1, y1 = box
        self.rect((x0, y0, x1, y1), fill=empty)
        frac = min(1.0, max(0.0, float(fraction)))
        if frac > 0:
            self.rect((x0, y0, x0 + max(1.0, (x1 - x0) * frac), y1), fill=fill)

    # ------------------------------------------------------------------ layout pieces
    def header(self, title: str, status: str, height: int = HEADER_HEIGHT) -> int:
        """The dark top bar: ``title`` on the left, ``status`` on the right; returns its height."""
        self.rect((0, 0, self.width - 1, height - 1), fill=HEADER)
        w = self.text((12, height / 2), title, size=19, fill=WHITE, anchor="lm")
        room = self.width - w - 40
        self.text(
            (self.width - 12, height / 2),
            self.fit(status, room, 15),
            size=15,
            fill=(235, 235, 200),
            anchor="rm",
        )
        return height

    def legend(
        self,
        top: int,
        entries: Sequence[tuple[Icon, str]],
        *,
        size: int = 13,
        title: str = "Legend",
        left: int = 10,
        right: int | None = None,
        dry_run: bool = False,
    ) -> int:
        """Flow ``entries`` (icon, label) from left to right under a title; returns the bottom y.

        With ``dry_run``, nothing is drawn: the returned bottom tells how tall the legend is, so
        a game can size its canvas before drawing.
        """
        right = self.width - 10 if right is None else right
        icon = size + 3
        line_h = size + 9
        x, y = left, top + 4
        if not dry_run:
            self.text((x, y + line_h / 2), f"{title}:", size=size, fill=MUTED, anchor="lm")
        x += self.text_width(f"{title}:", size) + 10
        for draw_icon, label in entries:
            w = icon + 5 + self.text_width(label, size) + 16
            if x + w > right and x > left + 80:
                x, y = left + 12, y + line_h
            if not dry_run:
                box = (
                    int(x),
                    int(y + (line_h - icon) / 2),
                    int(x + icon),
                    int(y + (line_h + icon) / 2),
                )
                draw_icon(self, box)
                self.text((x + icon + 5, y + line_h / 2), label, size=size, anchor="lm")
            x += w
        return int(y + line_h + 4)

    def player_panel(
        self, y: float, blocks: Sequence[Sequence[str]], colours: Sequence[Colour]
    ) -> float:
        """Each player's lines under a disc of its colour, from ``y``; returns the y below.

        :func:`panel_height` says how tall this is, so pictures can size themselves first.
        """
        for colour, block in zip(colours, blocks, strict=True):
            self.shape("disc", 18, y + 9, 6, colour)
            for line in block:
                self.text((30, y), line, size=14)
                y += PANEL_LINE
            y += PANEL_GAP
        return y

    def to_array(self) -> np.ndarray:
        """The picture as an ``H × W × 3`` uint8 array."""
        return np.asarray(self.image, dtype=np.uint8).copy()


# ---------------------------------------------------------------------- legend icons
def swatch_icon(colour: Sequence[int], outline: Sequence[int] = (90, 90, 90)) -> Icon:
    """A filled square of ``colour``."""

    def draw(c: Canvas, box: tuple[int, int, int, int]) -> None:
        c.rect(box, fill=colour, outline=outline)

    return draw


def hex_icon(colour: Sequence[int], outline: Sequence[int] = (90, 90, 90)) -> Icon:
    """A filled pointy-top hexagon of ``colour``."""

    def draw(c: Canvas, box: tuple[int, int, int, int]) -> None:
        x0, y0, x1, y1 = box
        c.polygon(hex_corners((x0 + x1) / 2, (y0 + y1) / 2, (y1 - y0) / 2 + 1), colour, outline)

    return draw


def shape_icon(
    shape: str,
    colour: Sequence[int],
    letter: str = "",
    outline: Sequence[int] = BLACK,
    letter_fill: Sequence[int] = WHITE,
) -> Icon:
    """A named shape (see :func:`shape_points`) in ``colour``, optionally with a letter on it."""

    def draw(c: Canvas, box: tuple[int, int, int, int]) -> None:
        x0, y0, x1, y1 = box
        r = (y1 - y0) / 2
        c.shape(shape, (x0 + x1) / 2, (y0 + y1) / 2, r, colour, outline)
        if letter:
            c.text(
                ((x0 + x1) / 2, (y0 + y1) / 2 + 1),
                letter,
                size=max(8, int(r * 1.3)),
                fill=letter_fill,
                anchor="mm",
            )

    return draw


def disc_icon(colour: Sequence[int], outline: Sequence[int] = BLACK) -> Icon:
    """A filled circle of ``colour``."""
    return shape_icon("disc", colour, outline=outline)


def line_icon(colour: Sequence[int], width: int = 4) -> Icon:
    """A thick horizontal line of ``colour`` (bars, bridges, borders)."""

    def draw(c: Canvas, box: tuple[int, int, int, int]) -> None:
        x0, y0, x1, y1 = box
        ym = (y0 + y1) // 2
        c.rect((x0, ym - width // 2, x1, ym + (width - 1) // 2), fill=colour)

    return draw


def text_icon(text: str, fill: Sequence[int] = TEXT) -> Icon:
    """A short text in place of an icon (``3/5`` for a count, ``▲`` for a mark)."""

    def draw(c: Canvas, box: tuple[int, int, int, int]) -> None:
        x0, y0, x1, y1 = box
        c.text(((x0 + x1) / 2, (y0 + y1) / 2), text, size=y1 - y0, fill=fill, anchor="mm")

    return draw
