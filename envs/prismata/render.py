"""Prismata rendering: a text table of both sides (``ansi``) and a picture of them (``rgb_array``).

Rendering is kept apart from the rules so that the forward model stays lean; both functions only
read the state through its public queries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from stratagem.envs.prismata.cards import CARDS, format_resources

if TYPE_CHECKING:
    from stratagem.envs.prismata.rules import PrismataState, UnitView

__all__ = ["render_rgb", "render_text"]


def _unit_text(u: UnitView) -> str:
    flags = []
    if u.build:
        flags.append(f"build {u.build}")
    if u.delay:
        flags.append(f"delay {u.delay}")
    if u.lifespan:
        flags.append(f"life {u.lifespan}")
    if CARDS[u.card].charges:
        flags.append(f"charges {u.charges}")
    if u.chill:
        flags.append(f"chill {u.chill}")
    if u.status != "inert":
        flags.append(u.status)
    if u.can_block:
        flags.append("blocker")
    extra = f" ({', '.join(flags)})" if flags else ""
    return f"#{u.slot} {u.name} {u.hp}hp{extra}"


def render_text(state: PrismataState) -> str:
    """Turn and phase, then per player its resources, its units and the supply left."""
    from stratagem.envs.prismata.rules import PHASE_NAMES

    if state.winner is None:
        status = (
            f"turn {state.turn + 1}/{state.game.turn_limit}: player {state.current_player}, "
            f"{PHASE_NAMES[state.phase]} phase"
        )
        if state.pending >= 0:
            status += f", unit #{state.pending} waits for a target"
    elif state.winner < 0:
        status = f"after {state.turn} turns: draw (turn limit)"
    else:
        status = f"after {state.turn} turns: player {state.winner} wins"
    lines = [status, "cards: " + ", ".join(CARDS[t].name for t in state.cards)]
    for p in (0, 1):
        lines.append(
            f"player {p}: {format_resources(state.resources(p))}; defense {state.total_defense(p)}"
        )
        for unit in state.units(p):
            lines.append("  " + _unit_text(unit))
    return "\n".join(lines)


_PLAYER_RGB = np.array([[220, 60, 60], [60, 100, 230]], dtype=np.uint8)
_BACKGROUND = np.array([30, 30, 36], dtype=np.uint8)


def _card_colour(card: int) -> np.ndarray:
    """A stable colour per card, from its production (gold, green, blue, red, attack)."""
    c = CARDS[card]
    gain = [0] * 6
    for script in (c.start, c.ability):
        if script is not None:
            gain = [g + h for g, h in zip(gain, script.gain, strict=True)]
    rgb = np.array([120.0, 120.0, 120.0])
    if gain[0]:
        rgb = np.array([230.0, 200.0, 60.0])
    elif gain[5] or c.target is not None:
        rgb = np.array([230.0, 90.0, 50.0])
    elif gain[4]:
        rgb = np.array([70.0, 190.0, 80.0])
    elif gain[2]:
        rgb = np.array([70.0, 130.0, 230.0])
    elif gain[3]:
        rgb = np.array([200.0, 60.0, 90.0])
    elif gain[1]:
        rgb = np.array([160.0, 160.0, 220.0])
    elif c.blocker:
        rgb = np.array([170.0, 170.0, 170.0])
    shade = 0.75 + 0.25 * ((card * 37) % 11) / 10.0
    return np.clip(rgb * shade, 0, 255).astype(np.uint8)


def render_rgb(state: PrismataState, cell: int = 16, per_row: int = 20) -> np.ndarray:
    """Both boards as a picture: player 1's units on top, player 0's below.

    Each unit is a tile coloured by what its card produces (gold yellow, attack orange, green,
    blue, red, energy lilac, plain blockers grey) with a frame in the owner's colour that is
    bright when the unit can block, a health bar at the bottom, a dark top band while it is
    under construction or inactive, and a white corner once clicked this turn.
    """
    if cell < 8:
        raise ValueError(f"cell size must be at least 8 pixels, got {cell}")
    rows_per_side = max(1, -(-state.game.max_units // per_row))
    height = (2 * rows_per_side + 1) * cell
    img = np.empty((height, per_row * cell, 3), dtype=np.uint8)
    img[:] = _BACKGROUND
    mid = rows_per_side * cell
    img[mid + cell // 2 - 1 : mid + cell // 2 + 1, :] = (90, 90, 90)
    for p in (0, 1):
        top0 = (rows_per_side + 1) * cell if p == 0 else 0
        for i, u in enumerate(state.units(p)):
            r, c = divmod(i, per_row)
            y, x = top0 + r * cell, c * cell
            tile = img[y : y + cell, x : x + cell]
            frame = _PLAYER_RGB[p] if u.can_block else _PLAYER_RGB[p] // 2
            tile[:] = frame
            tile[1:-1, 1:-1] = _card_colour(u.card)
            if u.build or u.delay:
                tile[1 : cell // 3, 1:-1] = (50, 50, 50)
            if u.status == "used":
                tile[1:4, -4:-1] = (255, 255, 255)
            max_hp = max(CARDS[u.card].max_health, u.hp, 1)
            bar = max(1, round((cell - 2) * u.hp / max_hp))
            tile[-3:-1, 1:-1] = (20, 20, 20)
            tile[-3:-1, 1 : 1 + bar] = (40, 220, 40)
    return img
