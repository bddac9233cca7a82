"""Prismata rendering: a text table of both sides (``ansi``) and a picture of them (``rgb_array``).

Rendering is kept apart from the rules so that the forward model stays lean; both functions only
read the state through its public queries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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


def _status(state: PrismataState, colours: bool) -> str:
    """The status line of both renderings: whose turn and which phase, or how the game ended.

    Written once so that the text and the picture always tell the same thing; ``colours`` adds
    the player's colour in the picture (``player 0 (red)``), where the sides are told apart by it.
    Rounds count as the ``max_rounds`` option does (``round 1/100`` on the first move), not by
    the player-turn counter the rules keep.
    """
    from stratagem.envs.prismata.rules import PHASE_NAMES

    def player(p: int) -> str:
        return f"player {p} ({_PLAYER_NAMES[p]})" if colours else f"player {p}"

    rounds = state.rounds_played()
    if state.winner is None:
        status = (
            f"round {rounds}/{state.game.max_rounds}: {player(state.current_player)}, "
            f"{PHASE_NAMES[state.phase]} phase"
        )
        if state.pending >= 0:
            status += f", unit #{state.pending} waits for a target"
        return status
    if state.winner < 0:
        return f"draw after {rounds} rounds (round limit)"
    return f"round {rounds}: {player(state.winner)} wins"


def render_text(state: PrismataState) -> str:
    """Turn and phase, then per player its resources, its units and the supply left."""
    lines = [
        _status(state, colours=False),
        "cards: " + ", ".join(CARDS[t].name for t in state.cards),
    ]
    for p in (0, 1):
        lines.append(
            f"player {p}: {format_resources(state.resources(p))}; defense {state.total_defense(p)}"
        )
        for unit in state.units(p):
            lines.append("  " + _unit_text(unit))
    return "\n".join(lines)


_PLAYER_RGB = ((215, 50, 50), (45, 95, 220))
_PLAYER_NAMES = ("red", "blue")
#: Colour and name of each resource, in ``resources()`` order.
_RESOURCE = (
    ((235, 190, 40), "gold"),
    ((160, 150, 235), "energy"),
    ((60, 130, 230), "blue"),
    ((215, 60, 70), "red"),
    ((70, 175, 80), "green"),
    ((240, 120, 40), "attack"),
)
_USED = (120, 120, 120)
_CAN_BUY = (40, 170, 60)
_FROZEN = (170, 225, 245)
_CHIP_W, _CHIP_H = 46, 34
_PER_ROW = 5
_BOX_W = _PER_ROW * (_CHIP_W + 3) + 11
_COLUMNS = 4
_WIDTH = _COLUMNS * (_BOX_W + 8) + 20
_MIN_SIDE = 36 + 2 * (24 + 2 * (_CHIP_H + 3) + 4 + 6)


def _card_colour(card: int) -> tuple[int, int, int]:
    """A card's colour from what it produces: gold, attack, green, blue, red, energy, grey."""
    c = CARDS[card]
    gain = [0] * 6
    for script in (c.start, c.ability):
        if script is not None:
            gain = [g + h for g, h in zip(gain, script.gain, strict=True)]
    if gain[0]:
        return _RESOURCE[0][0]
    if gain[5] or c.target is not None:
        return _RESOURCE[5][0]
    for k in (4, 2, 3, 1):
        if gain[k]:
            return _RESOURCE[k][0]
    return (175, 175, 175) if c.blocker else (150, 140, 130)


def _chip_colour(u: UnitView) -> tuple[int, int, int]:
    """Fill of a unit chip: its card's colour, grey once used, ice blue when frozen."""
    from stratagem.envs.picture import blend

    if u.chill and u.chill >= u.hp:
        return _FROZEN
    if u.status == "used":
        return _USED
    colour = _card_colour(u.card)
    if u.build or u.delay:
        return blend(colour, (245, 244, 240), 0.65)
    return colour


def _layout(groups: int) -> int:
    """Rows of card boxes needed for ``groups`` cards."""
    return -(-groups // _COLUMNS) if groups else 1


def _box_height(n: int) -> int:
    return 24 + max(1, -(-n // _PER_ROW)) * (_CHIP_H + 3) + 4


def _side_height(state: PrismataState, p: int) -> tuple[int, list[list[UnitView]]]:
    """Height of a player's area and its units grouped by card (first arrival order)."""
    groups: dict[int, list[UnitView]] = {}
    for u in state.units(p):
        groups.setdefault(u.card, []).append(u)
    ordered = list(groups.values())
    height = 32
    for r in range(_layout(len(ordered))):
        row = ordered[r * _COLUMNS : (r + 1) * _COLUMNS]
        height += max((_box_height(len(g)) for g in row), default=30) + 6
    # a side keeps at least the room of two rows of two-row boxes, so that the picture keeps
    # its layout through most of a game (the viewer then stores only what changed)
    return max(height + 4, _MIN_SIDE), ordered


def render_rgb(state: PrismataState) -> np.ndarray:
    """Both sides, card by card, and the buy row (about 1,000 pixels wide).

    Player 1's side is on top, player 0's below, each headed by its resources, attack and
    defense. A side shows one box per card it owns (``Drone x6``), holding one chip per unit:
    the card's colour (by what it produces) when it can act, grey once used this turn, pale while
    under construction (``b2``: turns left) or inactive (``d1``), ice blue when frozen; a thick
    black frame marks a unit that can block now; the chip shows the unit's slot (``#3``, the
    number the actions use) and its health. The buy row lists every card of the game with its
    cost and the copies each player may still buy, with a green dot where the player to move can
    buy it now.
    """
    from stratagem.envs import picture as pic

    buy = list(state.cards)
    buy_rows = -(-len(buy) // 5)
    h1, groups1 = _side_height(state, 1)
    h0, groups0 = _side_height(state, 0)
    legend = [
        (pic.swatch_icon(_RESOURCE[k][0]), f"{_RESOURCE[k][1]} ({'gEBRGA'[k]})") for k in range(6)
    ]
    legend += [
        (pic.swatch_icon(pic.blend(_RESOURCE[0][0], (245, 244, 240), 0.65)), "building / inactive"),
        (pic.swatch_icon(_USED), "used this turn"),
        (pic.swatch_icon(_FROZEN), "frozen"),
        (pic.swatch_icon((245, 244, 240), outline=(0, 0, 0)), "thick frame: can block"),
        (pic.disc_icon(_CAN_BUY, outline=_CAN_BUY), "green dot: can buy now"),
    ]
    top = pic.HEADER_HEIGHT + 6
    buy_top = top + h1 + h0 + 8
    legend_top = buy_top + 24 + buy_rows * 38 + 6
    probe = pic.Canvas(_WIDTH, 1)
    height = probe.legend(legend_top, legend, dry_run=True) + 4
    c = pic.Canvas(_WIDTH, height)
    c.header("Prismata", _status(state, colours=True))
    y = top
    for p, groups, h in ((1, groups1, h1), (0, groups0, h0)):
        _draw_side(c, state, p, groups, y, h)
        y += h + 4
    # buy row
    c.text(
        (12, buy_top + 4),
        "Buy row: card, cost, copies left for player 0 / player 1",
        size=14,
        fill=pic.MUTED,
    )
    bw = (_WIDTH - 20) // 5
    for i, card in enumerate(buy):
        r, col = divmod(i, 5)
        x0 = 10 + col * bw
        y0 = buy_top + 24 + r * 38
        can = state.winner is None and state.phase == 0 and state.can_buy(card)
        c.rect((x0, y0, x0 + bw - 6, y0 + 34), fill=(255, 255, 255), outline=(180, 180, 180))
        if can:
            c.shape("disc", x0 + bw - 16, y0 + 10, 6, _CAN_BUY, outline=None)
        c.rect((x0 + 3, y0 + 3, x0 + 9, y0 + 31), fill=_card_colour(card))
        c.text((x0 + 14, y0 + 3), c.fit(CARDS[card].name, bw - 30, 13), size=13)
        cost = format_resources(CARDS[card].cost)
        left = f"{state.supply_left(0, card)}/{state.supply_left(1, card)}"
        c.text((x0 + 14, y0 + 18), cost, size=11, fill=pic.MUTED)
        c.text((x0 + bw - 12, y0 + 18), left, size=11, fill=pic.MUTED, anchor="ra")
    c.legend(legend_top, legend)
    return c.to_array()


def _draw_side(
    c: Any, state: PrismataState, p: int, groups: list[list[UnitView]], top: int, height: int
) -> None:
    """One player's area: header line with resources, then a box per card with unit chips."""
    from stratagem.envs import picture as pic

    to_move = state.winner is None and state.current_player == p
    c.rect((6, top, _WIDTH - 7, top + height - 1), fill=pic.PANEL, outline=(200, 196, 188))
    c.shape("disc", 22, top + 15, 7, _PLAYER_RGB[p])
    x = 36 + c.text((36, top + 15), f"player {p} ({_PLAYER_NAMES[p]})", size=15, anchor="lm")
    if to_move:
        c.to_move_marker(x + 8, top + 15)
    x += 90
    res = state.resources(p)
    for k, (colour, name) in enumerate(_RESOURCE):
        text = f"{res[k]} {name}"
        w = c.text_width(text, 13) + 12
        c.rect(
            (x, top + 6, x + w, top + 24),
            fill=pic.blend(colour, (255, 255, 255), 0.55),
            outline=colour,
        )
        c.text((x + 6, top + 15), text, size=13, anchor="lm")
        x += w + 6
    c.text(
        (x + 6, top + 15),
        f"defense {state.total_defense(p)}, units {len(state.units(p))}",
        size=13,
        anchor="lm",
    )
    y = top + 32
    for r in range(_layout(len(groups))):
        row = groups[r * _COLUMNS : (r + 1) * _COLUMNS]
        row_h = max((_box_height(len(g)) for g in row), default=30)
        if not row:
            c.text((16, y + 8), "no units", size=13, fill=pic.MUTED)
        for k, units in enumerate(row):
            x0 = 14 + k * (_BOX_W + 8)
            card = units[0].card
            c.rect(
                (x0, y, x0 + _BOX_W, y + _box_height(len(units)) - 1),
                fill=(252, 251, 248),
                outline=(190, 186, 178),
            )
            c.rect((x0, y, x0 + 6, y + _box_height(len(units)) - 1), fill=_card_colour(card))
            c.text(
                (x0 + 12, y + 4),
                c.fit(f"{CARDS[card].name} x{len(units)}", _BOX_W - 16, 14),
                size=14,
            )
            for i, u in enumerate(units):
                rr, cc = divmod(i, _PER_ROW)
                cx = x0 + 10 + cc * (_CHIP_W + 3)
                cy = y + 24 + rr * (_CHIP_H + 3)
                blocker = u.can_block
                c.rect(
                    (cx, cy, cx + _CHIP_W - 1, cy + _CHIP_H - 1),
                    fill=_chip_colour(u),
                    outline=(0, 0, 0) if blocker else (150, 150, 150),
                    width=3 if blocker else 1,
                )
                c.text((cx + 5, cy + 4), f"#{u.slot}", size=10, fill=(20, 20, 20))
                tag = f"b{u.build}" if u.build else (f"d{u.delay}" if u.delay else "")
                if tag:
                    c.text((cx + _CHIP_W - 5, cy + 4), tag, size=10, fill=(20, 20, 20), anchor="ra")
                c.text(
                    (cx + _CHIP_W / 2, cy + _CHIP_H - 4),
                    f"{u.hp}hp",
                    size=13,
                    fill=(0, 0, 0),
                    anchor="md",
                )
        y += row_h + 6
