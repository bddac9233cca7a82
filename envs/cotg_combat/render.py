"""CotG combat rendering: a text board (``ansi``) and a picture of the hex battlefield.

Rendering reads the state through its public queries only, so the forward model stays lean.

Text: one line per row ``r``, indented by ``r`` characters so that the parallelogram of pointy-top
hexes reads as on screen; ``D``/``B`` are player 0's Destroyers/Battleships, ``d``/``b``
player 1's, ``.`` an empty hex; then a status line and every unit with its slot, hex, hit points,
power and whether it attacked.

Picture: see :func:`render_rgb`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from stratagem.envs.cotg_combat.rules import CotgCombatState

__all__ = ["render_rgb", "render_text"]

_SYMBOLS = (("D", "B"), ("d", "b"))
_NAMES = ("Destroyer", "Battleship")
_PLAYER_RGB = np.array([[220, 50, 40], [40, 90, 230]], dtype=np.uint8)
_COLOUR_NAMES = ("red", "blue")
_HEX = (44, 50, 78)
_EDGE = (86, 94, 135)
_SPACE = (12, 12, 22)
_SQRT3 = 3**0.5


def _status(state: CotgCombatState) -> str:
    """Round and player to move, or how the battle ended; the same in the text and the picture.

    Rounds count as the ``max_rounds`` option does (``round 1/50`` on the first move, ``draw
    after 50 rounds``), not by the player-turn counter the rules keep.
    """
    rounds = state.rounds_played()
    if state.winner is None:
        return f"round {rounds}/{state.game.max_rounds}, player {state.current_player} to move"
    if state.winner < 0:
        limit = " (round limit)" if state.turn >= state.game.turn_limit else ""
        return f"draw after {rounds} rounds{limit}"
    return f"round {rounds}: player {state.winner} wins (enemy destroyed)"


def render_text(state: CotgCombatState) -> str:
    """The board, a status line and the unit list (see the module docstring)."""
    game = state.game
    w, h = game.width, game.height
    rows = [["."] * w for _ in range(h)]
    for u in state.units():
        rows[u.r][u.q] = _SYMBOLS[u.owner][u.type]
    lines = [f"{r:>3} " + " " * r + " ".join(row) for r, row in enumerate(rows)]
    hp0, hp1 = state.hp_totals()
    lines.append(f"{_status(state)}; hp {hp0} v {hp1}")
    for p in (0, 1):
        units = ", ".join(
            f"{u.slot}:{_SYMBOLS[p][u.type]}({u.q},{u.r}) hp {u.hp} pw {u.power}"
            + (" attacked" if u.attacked else "")
            for u in state.units(p)
        )
        lines.append(f"player {p}: {units or 'none'}")
    return "\n".join(lines)


def _hex_size(width: int, height: int) -> float:
    """Hex radius in pixels: the board about 780 pixels wide, wider for big boards (15..30)."""
    return max(15.0, min(30.0, 780 / (_SQRT3 * (width + (height - 1) / 2 + 0.5))))


def render_rgb(state: CotgCombatState) -> np.ndarray:
    """The picture of the battle (at least 800 pixels wide).

    Pointy-top hexes in the game's parallelogram (centre of ``(q, r)`` at
    ``x = s√3 (q + r/2)``, ``y = 1.5 s r``), row numbers ``r`` on the left and column numbers
    ``q`` along the top. Player 0 is red, player 1 blue; a Battleship is a disc, a Destroyer a
    diamond, each labelled with its type letter and slot (the number the action names use),
    with a hit-point bar under it; a unit that has attacked this turn is faded. Under the
    board each side's units and hit points; a legend at the bottom.
    """
    from stratagem.envs import picture as pic

    game = state.game
    w, h = game.width, game.height
    s = _hex_size(w, h)
    axis = 26
    board_w = s * _SQRT3 * (w + (h - 1) / 2)
    board_h = s * 1.5 * (h - 1) + 2 * s
    width = int(max(pic.MIN_WIDTH, board_w + 2 * axis + 20))
    left = (width - board_w) / 2 + s * _SQRT3 / 2
    top = pic.HEADER_HEIGHT + axis + s
    probe = pic.Canvas(width, 1)
    lines = []
    for p in (0, 1):
        units = state.units(p)
        parts = ", ".join(
            f"{_SYMBOLS[0][u.type]}{u.slot} {u.hp}hp"
            + (f" pw {u.power}" if p == state.current_player and u.power else "")
            + (" attacked" if u.attacked else "")
            for u in units
        )
        hp = sum(u.hp for u in units)
        lines.append(
            probe.wrap(
                f"player {p} ({_COLOUR_NAMES[p]}): {len(units)} units, {hp} hp: {parts or '-'}",
                width - 50,
                14,
            )
        )
    legend = [
        (pic.hex_icon(_HEX), "hex"),
        (pic.shape_icon("diamond", (120, 120, 120), "D"), "Destroyer (D + slot)"),
        (pic.shape_icon("disc", (120, 120, 120), "B"), "Battleship (B + slot)"),
        (pic.swatch_icon(pic.rgb(_PLAYER_RGB[0])), "player 0 (red)"),
        (pic.swatch_icon(pic.rgb(_PLAYER_RGB[1])), "player 1 (blue)"),
        (pic.line_icon((60, 200, 60)), "hit points"),
        (pic.text_icon("pw"), "movement left"),
        (pic.shape_icon("disc", _faded(0), outline=(110, 110, 110)), "faded: has attacked"),
    ]
    panel_top = int(top + board_h - s + 10)
    legend_top = panel_top + pic.panel_height(lines) + 6
    height = probe.legend(legend_top, legend, dry_run=True) + 4
    c = pic.Canvas(width, height)
    hp0, hp1 = state.hp_totals()
    c.header("CotG Combat", f"{_status(state)}; hp {hp0} v {hp1}")

    def centre(q: int, r: int) -> tuple[float, float]:
        return left + s * _SQRT3 * (q + r / 2), top + 1.5 * s * r

    c.rect((0, pic.HEADER_HEIGHT, width - 1, panel_top - 4), fill=_SPACE)
    label = 10 if s < 14 else 12
    for r in range(h):
        for q in range(w):
            x, y = centre(q, r)
            c.polygon(pic.hex_corners(x, y, s), _HEX, _EDGE)
        x, y = centre(0, r)
        c.text((x - s, y), str(r), size=label, fill=(170, 175, 200), anchor="rm")
    for q in range(w):
        x, y = centre(q, 0)
        c.text((x, y - s - 2), str(q), size=label, fill=(170, 175, 200), anchor="md")
    for u in state.units():
        x, y = centre(u.q, u.r)
        y -= s * 0.1
        colour = _faded(u.owner) if u.attacked else pic.rgb(_PLAYER_RGB[u.owner])
        shape = "disc" if u.type == 1 else "diamond"
        c.shape(shape, x, y, s * 0.74, colour, outline=(255, 255, 255) if not u.attacked else None)
        c.text(
            (x, y + 1),
            f"{_SYMBOLS[0][u.type]}{u.slot}",
            size=max(8, int(s * 0.62)),
            fill=(255, 255, 255),
            anchor="mm",
            outline=(0, 0, 0),
        )
        frac = u.hp / game.max_hp[u.type]
        c.bar((x - s * 0.6, y + s * 0.7, x + s * 0.6, y + s * 0.7 + max(2, s * 0.14)), frac)
    c.player_panel(panel_top + 6, lines, [pic.rgb(_PLAYER_RGB[p]) for p in range(len(lines))])
    c.legend(legend_top, legend)
    return c.to_array()


def _faded(player: int) -> tuple[int, int, int]:
    """A player's colour washed out (a unit that has attacked)."""
    from stratagem.envs.picture import blend, rgb

    return blend(rgb(_PLAYER_RGB[player]), (170, 170, 170), 0.55)
