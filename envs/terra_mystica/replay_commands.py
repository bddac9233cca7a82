"""One ledger command into our engine's actions: the replay's command translation.

:class:`LedgerCommands` is a mixin of the replay driver
(:class:`~stratagem.envs.terra_mystica.replay_driver._Driver`). ``_command`` turns one command
of a ledger row (``build E7``, ``upgrade F3 to TP``, ``convert 3PW to 1W``, ``+FAV11``, ...)
into the actions of :mod:`~stratagem.envs.terra_mystica.actions` and plays them through the
driver's ``_apply``, checking every name and number first; ``_starts_action`` and
``_is_subaction`` tell the driver's turn loop where one of the player's actions begins. Held
apart from the driver, which decides *when* a command is played, because this is the part that
knows the online engine's command vocabulary.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from stratagem.envs.terra_mystica import actions as A
from stratagem.envs.terra_mystica.context import ACTION, X_CSTEPS
from stratagem.envs.terra_mystica.fields import PASSED
from stratagem.envs.terra_mystica.ledger import LedgerRow, ReplayError, _error
from stratagem.envs.terra_mystica.map import (
    BRIDGE_SLOT_OF,
    COLOR_NAMES,
    RIVER_CELLS,
    parse_cell,
)
from stratagem.envs.terra_mystica.tiles import BONUS_NAMES, CULT_NAMES, FAVORS, TOWNS

if TYPE_CHECKING:
    from stratagem.envs.terra_mystica.rules import TerraMysticaState

__all__ = ["LedgerCommands"]

_COLOR_TERRAIN = {name: i for i, name in enumerate(COLOR_NAMES)}
_COLOR_TERRAIN["grey"] = _COLOR_TERRAIN["gray"]
_UPGRADE_K = {"TP": A.K_TP, "SH": A.K_SH, "TE": A.K_TE, "SA": A.K_SA}
_BUILDING_ALIAS = {
    "DWELLING": "D",
    "TRADING POST": "TP",
    "TEMPLE": "TE",
    "STRONGHOLD": "SH",
    "SANCTUARY": "SA",
}
_RIVER_INDEX = {cell: i for i, cell in enumerate(RIVER_CELLS)}
# ``dig N`` and ``burn N``: the ledger writes N plays of one action as one command.
_REPEATED = {"dig": A.X_DIG1, "burn": A.X_BURN}
# The ledger names a resource in full or by its letter(s).
_RESOURCE_ALIAS = {"PRIEST": "P", "WORKER": "W", "COIN": "C", "POWER": "PW"}


class LedgerCommands:
    """Ledger commands played as actions (a mixin of the replay driver)."""

    state: TerraMysticaState
    declines: dict[str, list[tuple[int, LedgerRow, str]]]

    def _starts_action(self, cmd: str) -> bool:
        return bool(
            re.match(
                r"^(build|upgrade|send|action|advance|pass|dig|transform)\b", cmd, re.IGNORECASE
            )
        )

    def _is_subaction(self, cmd: str) -> bool:
        """A build that completes the previous terraform action."""
        st = self.state
        m = re.match(r"^build (\w+)$", cmd, re.IGNORECASE)
        if not m:
            return False
        try:
            cell = parse_cell(m.group(1))
        except ValueError:
            return False  # no hex: the command itself fails, naming its line
        return bool(st.ctx[3]) and cell in st.build_locs

    def _command(self, row: LedgerRow, cmd: str, i: int, j: int) -> bool:
        """Apply one ledger command; returns True when it is fully consumed.

        Every name and number of the command is checked before it becomes an action: a tile
        or hex out of range must fail naming the line, not turn into a neighbouring action.
        """
        st = self.state
        p = st.current_player
        home = st.F[p].home
        low = cmd.lower()

        def bad(what: str) -> ReplayError:
            return ReplayError(
                f"ledger line {row.line} ({row.faction}: '{cmd}'): {what}", line=row.line
            )

        def cell_of(name: str) -> int:
            try:
                return parse_cell(name)
            except ValueError:
                raise bad(f"no hex {name.upper()!r} on the map") from None

        def cult_of(name: str) -> int:
            if name.upper() not in CULT_NAMES:
                raise bad(f"no cult track {name!r}")
            return CULT_NAMES.index(name.upper())

        def tile_number(text: str, kind: str, count: int) -> int:
            k = int(text)
            if not 1 <= k <= count:
                raise bad(f"no tile {kind}{k} ({kind}1 to {kind}{count})")
            return k

        m = re.match(r"^build (\w+)$", low)
        if m:
            cell = cell_of(m.group(1))
            self._apply(A.board_action(cell, A.K_BUILD + home), row, cmd)
            return True
        m = re.match(r"^upgrade (\w+) to ([\w ]+)$", low)
        if m:
            cell = cell_of(m.group(1))
            kind = m.group(2).upper()
            kind = _BUILDING_ALIAS.get(kind, kind)
            if kind not in _UPGRADE_K:
                raise _error(row.line, f"unknown building {m.group(2)!r}")
            self._apply(A.board_action(cell, _UPGRADE_K[kind]), row, cmd)
            return True
        m = re.match(r"^transform (\w+)(?: to (\w+))?$", low)
        if m:
            cell = cell_of(m.group(1))
            color = m.group(2) or COLOR_NAMES[home]
            if color not in _COLOR_TERRAIN:
                raise _error(row.line, f"unknown colour {color!r}")
            self._apply(A.board_action(cell, _COLOR_TERRAIN[color]), row, cmd)
            return True
        m = re.match(r"^(dig|burn) (\d+)$", low)
        if m:
            for _ in range(int(m.group(2))):
                self._apply(_REPEATED[m.group(1)], row, cmd)
            return True
        m = re.match(r"^send (?:p|priest) to (\w+)(?: for (\d+))?$", low)
        if m:
            track = cult_of(m.group(1))
            if m.group(2):
                if m.group(2) not in ("1", "2", "3"):
                    raise bad(f"a priest goes to a space for 3, 2 or 1 steps, not {m.group(2)}")
                j3 = {"3": 0, "2": 1, "1": 2}[m.group(2)]
            else:
                spaces = st.cult_spaces[4 * track : 4 * track + 4]
                j3 = 0 if spaces[0] < 0 else (1 if min(spaces[1:]) < 0 else 2)
            self._apply(A.A_PRIEST + 3 * track + j3, row, cmd)
            return True
        m = re.match(r"^convert (\d*)\s*(\w+) to (\d*)\s*(\w+)$", low)
        if m:
            a = int(m.group(1) or 1)
            src = m.group(2).upper()
            b = int(m.group(3) or 1)
            dst = m.group(4).upper()
            src = _RESOURCE_ALIAS.get(src, src)
            dst = _RESOURCE_ALIAS.get(dst, dst)
            if src == "W" and dst == "P":
                if b > 3:
                    raise bad("workers convert to at most 3 priests at a time")
                self._apply(A.X_WP + b, row, cmd)
                return True
            rates = {
                ("PW", "C"): (1, 0),
                ("PW", "W"): (3, 1),
                ("PW", "P"): (5, 2),
                ("P", "W"): (1, 3),
                ("P", "C"): (1, 4),
                ("W", "C"): (1, 5),
                ("VP", "C"): (1, 7),
            }
            if (src, dst) == ("C", "VP"):
                rate = 2 if st.faction_name(p) == "alchemists" else 3
                index = 6
            elif (src, dst) in rates:
                rate, index = rates[(src, dst)]
            else:
                raise _error(row.line, f"unknown conversion '{cmd}'")
            if a != rate * b:
                raise _error(row.line, f"'{cmd}' does not match rate {rate}")
            for _ in range(b):
                self._apply(A.X_CONV + index, row, cmd)
            return True
        m = re.match(r"^action (\w+)$", low)
        if m:
            name = m.group(1).upper()
            if re.match(r"^ACT[1-6]$", name):
                action = A.A_POWER + int(name[3]) - 1
            elif name == "BON1":
                action = A.A_BON1
            elif name in ("BON2", "FAV6"):
                action = A.A_CULTACT
            elif name in ("ACTA", "ACTC", "ACTE", "ACTG", "ACTN", "ACTS", "ACTW"):
                action = A.A_FACTION
            else:
                raise _error(row.line, f"unknown action {name}")
            self._apply(action, row, cmd)
            return True
        m = re.match(r"^bridge (\w+):(\w+)$", low)
        if m:
            a, b = cell_of(m.group(1)), cell_of(m.group(2))
            if (a, b) not in BRIDGE_SLOT_OF:
                raise _error(row.line, f"no bridge slot {m.group(0)}")
            self._apply(A.X_BRIDGE + BRIDGE_SLOT_OF[(a, b)], row, cmd)
            return True
        m = re.match(r"^advance (ship|shipping|dig|digging)$", low)
        if m:
            self._apply(A.A_SHIP if m.group(1).startswith("ship") else A.A_DIG, row, cmd)
            return True
        m = re.match(r"^pass(?: bon(\d+))?$", low)
        if m:
            if m.group(1) is None:
                action = A.X_PASS_NONE
            else:
                k = tile_number(m.group(1), "BON", len(BONUS_NAMES))
                action = A.A_PASS + k - 1 if k <= 9 else A.X_PASS_BON10
            if st.phase == ACTION:
                last = all(st.pd[q][PASSED] for q in range(st.n) if q != p)
                self._resume_due(round_ends=last)
            self._apply(action, row, cmd)
            return True
        m = re.match(r"^\+(\d*)fav(\d+)$", low)
        if m:
            k = tile_number(m.group(2), "FAV", len(FAVORS))
            for _ in range(int(m.group(1) or 1)):
                self._apply(A.X_FAV + k - 1, row, cmd)
            return True
        m = re.match(r"^\+(\d*)tw(\d+)$", low)
        if m:
            k = tile_number(m.group(2), "TW", len(TOWNS)) - 1
            action = A.A_TOWN + k if k < 5 else A.X_TOWN + k - 5
            for _ in range(int(m.group(1) or 1)):
                self._apply(action, row, cmd)
            if TOWNS[k].cult_steps:
                self._unused_declines(row.faction)
            return True
        m = re.match(r"^\+(\d*)(fire|water|earth|air)$", low)
        if m:
            count = int(m.group(1) or 1)
            track = cult_of(m.group(2))
            if st.ctx[X_CSTEPS] == 2 and count == 2:
                count = 1
            for _ in range(count):
                self._apply(A.X_CULT + track, row, cmd)
            return True
        m = re.match(r"^connect (r\d+)$", low)
        if m:
            river = cell_of(m.group(1))
            if river not in _RIVER_INDEX:
                raise bad(f"{m.group(1)} is not a river hex")
            self._apply(A.X_CONNECT + _RIVER_INDEX[river], row, cmd)
            return True
        if low == "-spade":
            self._apply(A.X_DISCARD, row, cmd)
            return True
        m = re.match(r"^-(\d*)(fire|water|earth|air)$", low)
        if m:
            # lowering a track before a town tile (engine's TW5 work-around): its step to 10
            # is declined when the tile comes (see _town_tops)
            self.declines[row.faction].append((cult_of(m.group(2)), row, cmd))
            return True
        raise _error(row.line, f"cannot translate command '{cmd}'")
