"""Prismata's flat action layout: buy a card type, then five blocks over unit slots, then end.

With ``L`` = 104 library cards (:data:`~stratagem.envs.prismata.cards.CARDS`) and ``U`` =
``max_units`` unit slots per player, the layout is:

=================  ===================  ==================================================
index              name                 meaning
=================  ===================  ==================================================
``i``              ``buy <Card>``       buy one card of library type ``i`` (action phase)
``L + s``          ``use #s``           click own unit in slot ``s`` (its ability, or the
                                         first half of a targeted click)
``L + U + s``      ``block #s``         assign own unit ``s`` as a blocker (defense phase)
``L + 2U + s``     ``target #s``        the enemy unit ``s`` is the target of the pending
                                         snipe or chill
``L + 3U + s``     ``frontline #s``     spend attack on the enemy frontline unit ``s``
``L + 4U + s``     ``breach #s``        breach the enemy unit ``s`` (breach phase)
``L + 5U``         ``end_phase``        end the action phase (the turn, or go to breach)
=================  ===================  ==================================================

Buy actions are over the whole library so that an index means the same card in every game;
only the cards of the game's set are ever legal. Slots are per player: a unit keeps its slot
for life, and the lowest free slot is reused for the next unit of that player.
"""

from __future__ import annotations

import re

from stratagem.envs.prismata.cards import CARDS, NUM_CARDS, CardSetError, card_by_name

__all__ = [
    "KINDS",
    "ActionLayout",
]

#: Unit-slot action kinds, in layout order after the buy block.
KINDS = ("use", "block", "target", "frontline", "breach")

_SLOT_PATTERN = re.compile(r"^\s*(use|block|target|frontline|breach)\s+#(\d+)\s*$")


class ActionLayout:
    """Index arithmetic of the layout for ``max_units`` slots per player.

    Attributes:
        max_units: Unit slots per player (``U``).
        use0: First ``use`` index (``L``).
        block0: First ``block`` index.
        target0: First ``target`` index.
        front0: First ``frontline`` index.
        breach0: First ``breach`` index.
        end: The ``end_phase`` index.
        size: Number of actions.
    """

    def __init__(self, max_units: int) -> None:
        self.max_units = max_units
        self.use0 = NUM_CARDS
        self.block0 = self.use0 + max_units
        self.target0 = self.block0 + max_units
        self.front0 = self.target0 + max_units
        self.breach0 = self.front0 + max_units
        self.end = self.breach0 + max_units
        self.size = self.end + 1

    def decode(self, action: int) -> tuple[str, int]:
        """Split an index into ``(kind, argument)``.

        The kind is ``buy`` (argument: card index), a slot kind (argument: slot) or
        ``end_phase`` (argument 0).

        Raises:
            ValueError: If ``action`` is outside the layout.
        """
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} out of range 0..{self.size - 1}")
        if action < NUM_CARDS:
            return "buy", action
        if action == self.end:
            return "end_phase", 0
        block, slot = divmod(action - NUM_CARDS, self.max_units)
        return KINDS[block], slot

    def encode(self, kind: str, argument: int = 0) -> int:
        """Inverse of :meth:`decode`.

        Raises:
            ValueError: For an unknown kind or an argument out of range.
        """
        if kind == "end_phase":
            return self.end
        if kind == "buy":
            if not 0 <= argument < NUM_CARDS:
                raise ValueError(f"card index {argument} out of range 0..{NUM_CARDS - 1}")
            return argument
        if kind not in KINDS:
            raise ValueError(
                f"unknown action kind {kind!r}; kinds: buy, {', '.join(KINDS)}, end_phase"
            )
        if not 0 <= argument < self.max_units:
            raise ValueError(f"unit slot {argument} out of range 0..{self.max_units - 1}")
        return NUM_CARDS + KINDS.index(kind) * self.max_units + argument

    def to_string(self, action: int) -> str:
        """Readable name: ``buy Drone``, ``use #3``, ``breach #0``, ``end_phase``."""
        kind, argument = self.decode(action)
        if kind == "buy":
            return f"buy {CARDS[argument].name}"
        if kind == "end_phase":
            return "end_phase"
        return f"{kind} #{argument}"

    def from_string(self, text: str) -> int:
        """Parse a name written by :meth:`to_string` (card names in any case, engine names too).

        Raises:
            ValueError: If the text names no action of this layout.
        """
        if not isinstance(text, str):
            raise ValueError(f"action name must be a string, got {text!r}")
        stripped = text.strip()
        if stripped == "end_phase":
            return self.end
        if stripped.startswith("buy "):
            try:
                return card_by_name(stripped[4:]).index
            except CardSetError as exc:
                raise ValueError(f"cannot parse action {text!r}: {exc}") from None
        match = _SLOT_PATTERN.match(stripped)
        if not match:
            raise ValueError(
                f"cannot parse action {text!r}; expected 'buy <card>', 'use #3', 'block #3', "
                f"'target #3', 'frontline #3', 'breach #3' or 'end_phase'"
            )
        return self.encode(match.group(1), int(match.group(2)))
