"""Action layout pieces shared by the Stratega grid games.

Kill The King, Push Them All and Two Kingdoms lay their actions out as ``planes × H × W`` source
tiles followed by ``end_turn`` (:func:`make_layout`), over the same neighbour offsets, and name
them ``<word> (x,y)->(tx,ty)`` (an action on a target tile), ``<word> (x,y)`` (one without a
target) or ``end_turn``. :func:`tile_action_to_string` writes those names from a per-plane table
of words and offsets (:func:`plane_words`) and :func:`string_to_tile_action` parses them; the
game supplies its words and the plane each word and offset stand for.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from stratagem.envs.core import SpatialActionLayout

__all__ = [
    "COMPASS",
    "NEIGHBOURS",
    "SIDES",
    "SIDE_OFFSETS",
    "PlaneWord",
    "make_layout",
    "plane_words",
    "string_to_tile_action",
    "tile_action_pattern",
    "tile_action_to_string",
]

#: The eight neighbour steps in compass order; y grows downwards, so N is (0, -1).
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
NEIGHBOURS: tuple[tuple[int, int], ...] = (
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
)
#: The four orthogonal steps, in the same order.
SIDES = ("N", "E", "S", "W")
SIDE_OFFSETS: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))


def make_layout(width: int, height: int, planes: tuple[str, ...]) -> SpatialActionLayout:
    """The layout ``planes × height × width`` followed by the single global action ``end_turn``."""
    return SpatialActionLayout(height, width, planes, ("end_turn",))


#: A plane's readable name: its word and the target's offset from the source tile, ``None`` for
#: an action written without a target (``empty (x,y)``).
PlaneWord = tuple[str, tuple[int, int] | None]


def plane_words(
    kinds: Sequence[tuple[str, int, int]], targetless: Collection[str] = ("empty",)
) -> tuple[PlaneWord, ...]:
    """The :data:`PlaneWord` of every plane from its ``(word, dx, dy)``.

    Args:
        kinds: Per plane, the word of its name and its target offset.
        targetless: The words written without a target (their offset is ignored).
    """
    return tuple((w, None) if w in targetless else (w, (dx, dy)) for w, dx, dy in kinds)


def tile_action_to_string(
    layout: SpatialActionLayout, action: int, words: Sequence[PlaneWord]
) -> str:
    """Readable name of ``action``: ``<word> (x,y)->(tx,ty)``, ``<word> (x,y)`` or a global's.

    Args:
        layout: The game's action layout.
        action: The action index.
        words: The :data:`PlaneWord` of every plane (:func:`plane_words`).
    """
    plane, x, y = layout.decode(action)
    if plane is None:
        return layout.global_actions[x]
    word, offset = words[plane]
    if offset is None:
        return f"{word} ({x},{y})"
    return f"{word} ({x},{y})->({x + offset[0]},{y + offset[1]})"


def tile_action_pattern(words: Sequence[str]) -> re.Pattern[str]:
    """Regular expression of ``<word> (x,y)`` with an optional ``->(tx,ty)``, any of ``words``."""
    return re.compile(
        r"^\s*(" + "|".join(words) + r")\s*\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)"
        r"(?:\s*->\s*\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\))?\s*$"
    )


def string_to_tile_action(
    layout: SpatialActionLayout,
    text: str,
    pattern: re.Pattern[str],
    examples: str,
    plane_of: Callable[[str, str, tuple[int, int] | None], int],
    targetless: Collection[str] = ("empty",),
) -> int:
    """Parse ``end_turn`` or a tile action name matched by ``pattern``.

    Args:
        layout: The game's action layout.
        text: The name to parse.
        pattern: :func:`tile_action_pattern` of the game's words.
        examples: The accepted forms, quoted in the error for text that does not parse.
        plane_of: ``plane_of(text, word, offset)``, the plane of ``word`` towards the target
            offset (``None`` for a word of ``targetless``); raises ``ValueError`` for an offset
            the word cannot take.
        targetless: The words written without a target.

    Raises:
        ValueError: If the text is malformed, the tile lies off the board, a target is missing
            or extra, or ``plane_of`` rejects the offset.
    """
    if not isinstance(text, str):
        raise ValueError(f"action name must be a string, got {text!r}")
    if text.strip() == "end_turn":
        return layout.encode_global(0)
    match = pattern.match(text)
    if not match:
        raise ValueError(f"cannot parse action {text!r}; expected e.g. {examples}")
    word, xs, ys, txs, tys = match.groups()
    x, y = int(xs), int(ys)
    if not (0 <= x < layout.width and 0 <= y < layout.height):
        raise ValueError(
            f"action {text!r}: tile ({x},{y}) is off the {layout.width}x{layout.height} board"
        )
    if word in targetless:
        if txs is not None:
            raise ValueError(f"action {text!r}: '{word}' takes no target")
        return layout.encode(plane_of(text, word, None), x, y)
    if txs is None:
        raise ValueError(f"action {text!r}: '{word}' needs a target, e.g. '{word} (x,y)->(tx,ty)'")
    return layout.encode(plane_of(text, word, (int(txs) - x, int(tys) - y)), x, y)
