"""CotG combat's flat action layout (spec section 4): END_TURN, then one block per unit slot.

With ``U`` unit slots per side and ``M = 3 P (P + 1)`` move offsets (``P`` the largest power of
any unit type; ``M = 60`` for the default ``P = 4``), the ``1 + U (M + U)`` actions are:

=========================  ===========================================================
index                      action of the player to move
=========================  ===========================================================
``0``                      ``end_turn``
``1 + k (M + U) + m``      move own unit of slot ``k`` by the ``m``-th axial offset
                           (:func:`~stratagem.envs.cotg_combat.hexgrid.move_offsets`:
                           by distance, then ``dr``, then ``dq``)
``1 + k (M + U) + M + e``  own unit of slot ``k`` attacks the enemy unit of slot ``e``
=========================  ===========================================================

Slots are relative to the player to move (slot ``k`` is always one's own ``k``-th unit and
``e`` the opponent's ``e``-th), so an index means the same thing for both players. Slots are
stable over the battle: a destroyed unit's slot stays empty.

Readable names, exact inverses through :meth:`ActionLayout.to_string` and
:meth:`ActionLayout.from_string`: ``end_turn``, ``move 3 (+1,-2)`` (slot 3 moves by
``dq = +1, dr = -2``), ``attack 3 -> 4`` (slot 3 attacks enemy slot 4).
"""

from __future__ import annotations

import re

__all__ = ["END_TURN", "ActionLayout"]

END_TURN = 0

_MOVE = re.compile(r"^\s*move\s+(\d+)\s*\(\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*\)\s*$")
_ATTACK = re.compile(r"^\s*attack\s+(\d+)\s*->\s*(\d+)\s*$")


class ActionLayout:
    """Encoder/decoder of the flat action space for ``units`` slots and given move offsets.

    Attributes:
        units: Unit slots per side (``U``).
        offsets: The move offsets (``M`` of them).
        block: Actions per slot (``M + U``).
        size: Total number of actions.
    """

    __slots__ = ("block", "num_moves", "offset_index", "offsets", "size", "units")

    def __init__(self, units: int, offsets: tuple[tuple[int, int], ...]) -> None:
        self.units = units
        self.offsets = offsets
        self.num_moves = len(offsets)
        self.offset_index = {o: m for m, o in enumerate(offsets)}
        self.block = self.num_moves + units
        self.size = 1 + units * self.block

    def move(self, slot: int, m: int) -> int:
        """Index of "slot ``slot`` moves by offset ``m``"."""
        return 1 + slot * self.block + m

    def attack(self, slot: int, enemy: int) -> int:
        """Index of "slot ``slot`` attacks enemy slot ``enemy``"."""
        return 1 + slot * self.block + self.num_moves + enemy

    def decode(self, action: int) -> tuple[str, int, int]:
        """``("end_turn", -1, -1)``, ``("move", slot, m)`` or ``("attack", slot, enemy)``.

        Raises:
            ValueError: If ``action`` is outside the space.
        """
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} out of range 0..{self.size - 1}")
        if action == END_TURN:
            return "end_turn", -1, -1
        slot, rest = divmod(action - 1, self.block)
        if rest < self.num_moves:
            return "move", slot, rest
        return "attack", slot, rest - self.num_moves

    def to_string(self, action: int) -> str:
        """Readable name of ``action`` (see the module docstring)."""
        kind, slot, arg = self.decode(action)
        if kind == "end_turn":
            return "end_turn"
        if kind == "move":
            dq, dr = self.offsets[arg]
            return f"move {slot} ({dq:+d},{dr:+d})"
        return f"attack {slot} -> {arg}"

    def from_string(self, text: str) -> int:
        """Parse a name written by :meth:`to_string`.

        Raises:
            ValueError: If the text is malformed, a slot is out of range or the offset is not a
                move offset of this layout.
        """
        if not isinstance(text, str):
            raise ValueError(f"action name must be a string, got {text!r}")
        if text.strip() == "end_turn":
            return END_TURN
        match = _MOVE.match(text)
        if match:
            slot, dq, dr = (int(g) for g in match.groups())
            self._check_slot(text, slot)
            m = self.offset_index.get((dq, dr))
            if m is None:
                raise ValueError(
                    f"action {text!r}: ({dq:+d},{dr:+d}) is not a move offset (hex distance "
                    f"1..{max((abs(a) + abs(b) + abs(a + b)) // 2 for a, b in self.offsets)})"
                )
            return self.move(slot, m)
        match = _ATTACK.match(text)
        if match:
            slot, enemy = (int(g) for g in match.groups())
            self._check_slot(text, slot)
            self._check_slot(text, enemy)
            return self.attack(slot, enemy)
        raise ValueError(
            f"cannot parse action {text!r}; expected 'end_turn', 'move K (+dq,+dr)' or "
            f"'attack K -> E'"
        )

    def _check_slot(self, text: str, slot: int) -> None:
        if not 0 <= slot < self.units:
            raise ValueError(f"action {text!r}: slot {slot} outside 0..{self.units - 1}")
