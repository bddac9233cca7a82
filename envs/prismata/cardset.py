"""Card sets: the ``cards`` option and the buyable and present cards of one game.

A game's card set is shared by every state of the game (a state holds a reference, never a
copy), so it is built once per set of buyable types and cached by the game.
"""

from __future__ import annotations

from collections.abc import Sequence

from stratagem.envs.prismata.cards import (
    BASE_SET,
    NUM_CARDS,
    POOL,
    CardSetError,
    card_by_name,
    needs_closure,
)
from stratagem.envs.prismata.data import C_BUY_SAC, C_COST, C_SUPPLY


class _CardSet:
    """The cards of one game: buyable types and every type that can appear (shared).

    ``buy_rows`` holds, per buyable type in :attr:`types` order, what a purchase needs:
    ``(card, supply position, non-zero (resource, amount) costs, sacrifices)``, so that listing
    the affordable cards is one loop over plain tuples.
    """

    __slots__ = ("buy_pos", "buy_rows", "buyable", "in_game", "present", "types")

    def __init__(self, types: Sequence[int]) -> None:
        self.types = tuple(sorted(set(types)))
        self.buy_pos = {t: i for i, t in enumerate(self.types)}
        self.buy_rows = tuple(
            (t, i, tuple((r, c) for r, c in enumerate(C_COST[t]) if c), C_BUY_SAC[t])
            for i, t in enumerate(self.types)
        )
        self.present = needs_closure(self.types + BASE_SET)
        buyable = [False] * NUM_CARDS
        for t in self.types:
            buyable[t] = True
        self.buyable = tuple(buyable)
        in_game = [False] * NUM_CARDS
        for t in self.present:
            in_game[t] = True
        self.in_game = tuple(in_game)


def parse_card_set(cards: str) -> tuple[str, int, tuple[int, ...]]:
    """Interpret the ``cards`` option.

    Returns ``("random", n, ())`` for ``"random:N"`` and ``"base"`` (n = 0), or
    ``("fixed", 0, indices)`` for a comma-separated list of card names (added to the base set).

    Raises:
        CardSetError: For a malformed option or an unknown card.
    """
    if not isinstance(cards, str) or not cards.strip():
        raise CardSetError(
            f"prismata: cards must be 'base', 'random:N' or a comma-separated list of card "
            f"names, got {cards!r}"
        )
    text = cards.strip()
    if text == "base":
        return "random", 0, ()
    if text.startswith("random:"):
        count = text[len("random:") :].strip()
        if not count.isdigit() or not 0 <= int(count) <= len(POOL):
            raise CardSetError(
                f"prismata: cards={cards!r}: the number of random cards must be an integer "
                f"0..{len(POOL)}"
            )
        return "random", int(count), ()
    indices = []
    for name in text.split(","):
        name = name.strip()
        if not name:
            raise CardSetError(f"prismata: cards={cards!r} has an empty card name")
        index = card_by_name(name).index
        if C_SUPPLY[index] == 0:  # pragma: no cover - every loadable card is buyable
            raise CardSetError(f"prismata: card {name!r} cannot be bought")
        if index in BASE_SET:
            raise CardSetError(f"prismata: {name!r} is in the base set already")
        if index in indices:
            raise CardSetError(f"prismata: card {name!r} is listed twice in cards={cards!r}")
        indices.append(index)
    return "fixed", 0, tuple(indices)
