"""Replays of real Terra Mystica games: the online engine's ledgers through our engine.

A ledger (``tm_games/*.txt``, spec section 13) lists the game options, the round and bonus
tiles, then one row per faction turn with the row's resources *after* it and the commands typed
(``build E7``, ``upgrade F3 to TP. +FAV11``, ``Leech 2 from witches``, ...). :func:`replay_ledger`
turns every command into our actions and lets our engine play the game, checking:

* every faction row whose commands ran in the ledger's order (VP, coins, workers, priests, the
  three power bowls and the four cult positions after the row);
* every engine-written row our engine writes too (income, the Cultists' leech bonus, final cult
  and network scores, the final resource conversion);
* the final VP of every faction (against ``manifest.json`` when given).

Our engine decides leech offers right after the builder's turn, where the online engine let the
receiver decide later; the driver therefore takes each decision from the receiver's next leech
or decline command, wherever it is in the ledger (the strict-leech option guarantees it comes
before the receiver's next action). A command our engine rejects raises :class:`ReplayError`
naming the ledger line and the reason.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stratagem.envs.core import IllegalActionError
from stratagem.envs.terra_mystica import actions as A
from stratagem.envs.terra_mystica.factions import FACTION_NAMES
from stratagem.envs.terra_mystica.fields import P1, P2, P3, VP, C, P, W
from stratagem.envs.terra_mystica.map import (
    BRIDGE_SLOT_OF,
    COLOR_NAMES,
    RIVER_CELLS,
    parse_cell,
)
from stratagem.envs.terra_mystica.power import leech_amount
from stratagem.envs.terra_mystica.rules import (
    ACTION,
    CULTIST,
    INCOME_SPADES,
    LEECH,
    OVER,
    SETUP_BONUS,
    SETUP_DWELLING,
    X_ACTIONS,
    X_CSTEPS,
    X_WP,
    TerraMysticaGame,
    TerraMysticaState,
)
from stratagem.envs.terra_mystica.tiles import CULT_NAMES

__all__ = [
    "Ledger",
    "LedgerRow",
    "ReplayError",
    "ReplayResult",
    "parse_ledger",
    "replay_file",
    "replay_ledger",
]

_ENGINE_ROWS = (
    "setup",
    "cult_income_for_faction",
    "other_income_for_faction",
    "[opponent accepted power]",
    "[all opponents declined power]",
    "score_resources",
)
_VP_ROW = re.compile(r"^\+(\d+)vp for (\w+)$", re.IGNORECASE)
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


class ReplayError(ValueError):
    """A ledger command our engine rejects, a malformed ledger, or a resource mismatch."""


@dataclass
class LedgerRow:
    """One faction row of a ledger.

    Attributes:
        line: 1-based line number in the file.
        text: The line itself.
        faction: Engine faction name.
        values: Resources after the row: VP, C, W, P, (P1, P2, P3), (Fire, Water, Earth, Air).
        commands: The row's commands, in the order the engine executed them.
    """

    line: int
    text: str
    faction: str
    values: tuple
    commands: list[str]
    done: list[bool] = field(default_factory=list)
    checked: bool = False


@dataclass
class Ledger:
    """A parsed ledger: options, tiles, seat order and faction rows."""

    options: set[str]
    scoring: list[str]
    removed_bonus: list[str]
    factions: list[str]
    rows: list[LedgerRow]
    dropped: bool = False

    def config(self) -> dict[str, Any]:
        """Configuration keywords of :class:`TerraMysticaGame` that reproduce this game."""
        shipping = "shipping-bonus" in self.options
        pool = [f"BON{i}" for i in range(1, 11 if shipping else 10)]
        bonus = [b for b in pool if b not in self.removed_bonus]
        return {
            "num_players": len(self.factions),
            "factions": ",".join(self.factions),
            "scoring_tiles": ",".join(self.scoring),
            "bonus_tiles": ",".join(bonus),
            "turn_order": "variable" if "variable-turn-order" in self.options else "base",
            "mini_expansion": "mini-expansion-1" in self.options,
            "shipping_bonus": shipping,
            "temple_scoring_tile": "temple-scoring-tile" in self.options,
            "cultists_errata": "errata-cultist-power" in self.options,
        }

    def final_vp(self) -> dict[str, int]:
        """Final VP of every faction: the VP of its last row."""
        out: dict[str, int] = {}
        for row in self.rows:
            out[row.faction] = row.values[0]
        return out


def _split_commands(text: str) -> list[str]:
    """Split a command field into its commands.

    The ledger lists them in the order the engine executed them (the engine's input
    reorderings, such as leech decisions first, already happened), so they are kept as they are.
    """
    s = re.sub(r"\s+", " ", text).strip()
    parts = [p.strip() for p in s.split(".")]
    parts = [re.sub(r"(\W)\s(\w)", r"\1\2", p) for p in parts]
    return [re.sub(r"(\w)\s(\W)", r"\1\2", p) for p in parts if p]


def _values(fields: list[str], line: int) -> tuple:
    try:
        vp = int(fields[2].split()[0])
        c = int(fields[4].split()[0])
        w = int(fields[6].split()[0])
        p = int(fields[8].split()[0])
        pw = tuple(int(x) for x in fields[10].split()[0].split("/"))
        cult = tuple(int(x) for x in fields[12].split("/"))
    except (ValueError, IndexError) as exc:
        raise ReplayError(f"ledger line {line}: malformed resource fields ({exc})") from exc
    if len(pw) != 3 or len(cult) != 4:
        raise ReplayError(f"ledger line {line}: malformed power or cult field")
    return vp, c, w, p, pw, cult


def parse_ledger(text: str) -> Ledger:
    """Parse the online engine's ledger notation.

    Raises:
        ReplayError: For a malformed line, or a ledger without scoring tiles or factions.
    """
    options: set[str] = set()
    scoring: dict[int, str] = {}
    removed: list[str] = []
    factions: list[str] = []
    rows: list[LedgerRow] = []
    dropped = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\n")
        if not line.strip():
            continue
        if "\t" not in line:
            s = line.strip()
            m = re.match(r"^option (\S+)$", s)
            if m:
                options.add(m.group(1).lower())
                continue
            m = re.match(r"^Round (\d) scoring: (SCORE\d+)", s)
            if m:
                scoring[int(m.group(1))] = m.group(2).upper()
                continue
            m = re.match(r"^Removing tile (BON\d+)$", s)
            if m:
                removed.append(m.group(1).upper())
                continue
            if "dropped from the game" in s:
                dropped = True
            continue
        fields = line.split("\t")
        if len(fields) != 15:
            raise ReplayError(f"ledger line {number}: expected 15 TAB fields, got {len(fields)}")
        faction = fields[0].strip().lower()
        if faction not in FACTION_NAMES:
            raise ReplayError(f"ledger line {number}: unknown faction {fields[0]!r}")
        cmd = fields[14].strip()
        if cmd.lower() == "setup":
            factions.append(faction)
        commands = [cmd] if cmd.lower() in _ENGINE_ROWS or _VP_ROW.match(cmd) else []
        if not commands:
            commands = _split_commands(cmd)
        rows.append(
            LedgerRow(
                line=number,
                text=line,
                faction=faction,
                values=_values(fields, number),
                commands=commands,
                done=[_is_noop(c) for c in commands],
            )
        )
    if sorted(scoring) != [1, 2, 3, 4, 5, 6]:
        raise ReplayError("ledger: the six 'Round N scoring' lines are missing")
    if not factions:
        raise ReplayError("ledger: no 'setup' rows (no factions)")
    return Ledger(options, [scoring[r] for r in range(1, 7)], removed, factions, rows, dropped)


@dataclass
class ReplayResult:
    """Outcome of a replay.

    Attributes:
        final_vp: Our engine's final VP per faction.
        ledger_vp: The ledger's final VP per faction.
        rows_checked: Faction rows whose resources were compared (all equal, or an error).
        rows_total: Faction rows in the ledger.
        actions: Number of our engine's decisions played.
        state: The final state.
    """

    final_vp: dict[str, int]
    ledger_vp: dict[str, int]
    rows_checked: int
    rows_total: int
    actions: int
    state: TerraMysticaState

    @property
    def exact(self) -> bool:
        """True when every faction's final VP equals the ledger's."""
        return self.final_vp == self.ledger_vp


def _is_engine_row(cmd: str) -> bool:
    return cmd.lower() in _ENGINE_ROWS or bool(_VP_ROW.match(cmd))


def _is_leech(cmd: str) -> bool:
    return bool(re.match(r"^(leech|decline)\b", cmd, re.IGNORECASE))


def _is_cult_gain(cmd: str) -> bool:
    return bool(re.match(r"^\+(\d*)(fire|water|earth|air)$", cmd, re.IGNORECASE))


def _is_noop(cmd: str) -> bool:
    return cmd.lower() in ("wait", "done")


class _Driver:
    """Plays a ledger through our engine, the engine deciding who moves next."""

    def __init__(self, ledger: Ledger, strict: bool) -> None:
        self.ledger = ledger
        self.strict = strict
        self.game = TerraMysticaGame(**ledger.config())
        self.state = self.game.new_initial_state(0)
        self.state._trace = self._on_trace
        self.seat = {f: i for i, f in enumerate(ledger.factions)}
        self.actions = 0
        self.checked = 0
        # per faction: indices of its rows, in ledger order
        self.rows_of: dict[str, list[int]] = {f: [] for f in ledger.factions}
        for i, row in enumerate(ledger.rows):
            if row.faction not in self.rows_of:
                raise ReplayError(f"ledger line {row.line}: {row.faction} has no setup row")
            self.rows_of[row.faction].append(i)
        self.max_row_applied: dict[str, int] = {f: -1 for f in ledger.factions}

    # ----------------------------------------------------------------- checks
    def _compare(self, row: LedgerRow) -> None:
        st = self.state
        p = self.seat[row.faction]
        d = st.pd[p]
        ours = (d[VP], d[C], d[W], d[P], (d[P1], d[P2], d[P3]), tuple(st.pd[p][7:11]))
        if ours != row.values:
            names = ("VP", "C", "W", "P", "PW", "CULT")
            diff = ", ".join(
                f"{n} ledger {a} ours {b}"
                for n, a, b in zip(names, row.values, ours, strict=True)
                if a != b
            )
            raise ReplayError(
                f"ledger line {row.line} ({row.faction}: {'. '.join(row.commands)}): "
                f"resources differ: {diff}"
            )
        row.checked = True
        self.checked += 1

    def _maybe_check(self, index: int) -> None:
        row = self.ledger.rows[index]
        if row.checked or not all(row.done):
            return
        if all(_is_noop(c) for c in row.commands):
            return
        if self.max_row_applied[row.faction] > index:
            return  # a later row's command already ran: this row's snapshot is gone
        for i in self.rows_of[row.faction]:
            if i >= index:
                break
            if not all(self.ledger.rows[i].done):
                return  # an earlier row of this faction runs later in our engine
        self._compare(row)

    def _on_trace(self, st: TerraMysticaState, p: int, what: str) -> None:
        faction = self.ledger.factions[p]
        key = what.lower()
        if key == "turn over":
            for i in self.rows_of[faction]:
                if not self.ledger.rows[i].checked:
                    self._maybe_check(i)
            return
        if key == "nothing to leech":
            _, frm, amount, _ = st.leech[0]
            found = self._find_leech(faction, self.ledger.factions[frm], (amount, 0))
            if found is not None:
                self._consume(found[0], found[1])
                self._maybe_check(found[0])
            return
        if key not in _ENGINE_ROWS and not _VP_ROW.match(what):
            return
        for i in self.rows_of[faction]:
            row = self.ledger.rows[i]
            j = next((k for k, done in enumerate(row.done) if not done), None)
            if j is not None and row.commands[j].lower() == key:
                self._consume(i, j)
                self._maybe_check(i)
                return
        if self.strict:
            raise ReplayError(
                f"our engine wrote '{what}' for {faction}; the ledger has no such row"
            )

    # ----------------------------------------------------------------- command queue
    def _pending(self, faction: str):
        """(row index, command index, command) of the faction's unconsumed commands."""
        for i in self.rows_of[faction]:
            row = self.ledger.rows[i]
            for j, cmd in enumerate(row.commands):
                if not row.done[j]:
                    yield i, j, cmd

    def _consume(self, i: int, j: int) -> None:
        row = self.ledger.rows[i]
        row.done[j] = True
        if not _is_noop(row.commands[j]):
            self.max_row_applied[row.faction] = max(self.max_row_applied[row.faction], i)

    def _apply(self, action: int, row: LedgerRow, cmd: str) -> None:
        try:
            self.state.apply(action)
        except IllegalActionError as exc:
            raise ReplayError(
                f"ledger line {row.line} ({row.faction}: '{cmd}'): our engine rejects "
                f"{A.action_to_string(action)!r}: {exc}"
            ) from exc
        self.actions += 1

    def _first_global_action(self) -> tuple[int, str] | None:
        """Faction and row of the first unconsumed command that is a player's own action."""
        for i, row in enumerate(self.ledger.rows):
            for j, cmd in enumerate(row.commands):
                if row.done[j] or _is_engine_row(cmd) or _is_leech(cmd) or _is_noop(cmd):
                    continue
                if _is_cult_gain(cmd) and row.faction == "cultists":
                    continue
                return i, row.faction
        return None

    # ----------------------------------------------------------------- decisions
    def run(self) -> None:
        st = self.state
        # setup rows are checked against the initial state
        for f in self.ledger.factions:
            i = self.rows_of[f][0]
            row = self.ledger.rows[i]
            if row.commands == ["setup"]:
                row.done[0] = True
                self._compare(row)
        guard = 0
        while st.phase != OVER:
            guard += 1
            if guard > 100_000:
                raise ReplayError("replay does not terminate")
            ph = st.phase
            faction = self.ledger.factions[st.current_player]
            if ph == LEECH:
                self._leech(faction)
            elif ph == CULTIST:
                self._cultist(faction)
            elif ph == INCOME_SPADES:
                self._turn(faction, income=True)
            elif ph in (SETUP_DWELLING, SETUP_BONUS, ACTION):
                self._turn(faction, income=False)
        leftovers = [
            (row.line, row.commands[j])
            for row in self.ledger.rows
            for j in range(len(row.commands))
            if not row.done[j] and not _is_noop(row.commands[j])
        ]
        if leftovers and self.strict:
            line, cmd = leftovers[0]
            raise ReplayError(f"ledger line {line}: command '{cmd}' was never played")

    def _find_leech(self, faction: str, builder: str, amounts: tuple[int, ...]):
        """The receiver's ledger decision on an offer: (row, command index, command, accept).

        ``None`` when the receiver took an action first (the engine's implicit decline).
        """
        for i, j, cmd in self._pending(faction):
            m = re.match(r"^(leech|decline)(?: (\d+))?(?: from (\w+))?$", cmd, re.IGNORECASE)
            if m:
                who = (m.group(3) or "").lower()
                if who and who != builder:
                    continue
                if m.group(2) is not None and int(m.group(2)) not in amounts:
                    continue
                return i, j, cmd, m.group(1).lower() == "leech"
            if _is_cult_gain(cmd) or _is_noop(cmd) or _is_engine_row(cmd):
                continue
            if re.match(r"^burn \d+$", cmd, re.IGNORECASE):
                continue  # a burn may come before the decision (see _leech)
            return None
        return None

    def _leech(self, faction: str) -> None:
        st = self.state
        q, frm, amount = st.leech_offer()
        actual = leech_amount(st.pd[q], amount)
        found = self._find_leech(faction, self.ledger.factions[frm], (amount, actual))
        if found is None:
            self.state.apply(A.X_DECLINE)  # the receiver acted first: implicit decline
            self.actions += 1
            return
        i, j, cmd, accept = found
        row = self.ledger.rows[i]
        for k in range(j):
            m = re.match(r"^burn (\d+)$", row.commands[k], re.IGNORECASE)
            if not row.done[k] and m:
                # burnt before deciding (allowed in the receiver's own turn)
                for _ in range(int(m.group(1))):
                    self._apply(A.X_BURN, row, row.commands[k])
                self._consume(i, k)
        self._consume(i, j)
        self._apply(A.X_ACCEPT if accept else A.X_DECLINE, row, cmd)
        self._maybe_check(i)

    def _cultist(self, faction: str) -> None:
        for i, j, cmd in self._pending(faction):
            m = re.match(r"^\+(\d*)(fire|water|earth|air)$", cmd, re.IGNORECASE)
            if m:
                row = self.ledger.rows[i]
                count = int(m.group(1) or 1)
                track = CULT_NAMES.index(m.group(2).upper())
                if count > 1:
                    row.commands[j] = f"+{count - 1}{m.group(2)}"
                else:
                    self._consume(i, j)
                self._apply(A.X_CULT + track, row, cmd)
                self._maybe_check(i)
                return
        raise ReplayError(f"{faction}: our engine asks for a cult step; the ledger has none left")

    def _turn(self, faction: str, income: bool) -> None:
        """Play the active faction's commands until its turn (or spade placement) is over."""
        st = self.state
        p = st.current_player
        turn_row = None
        start_phase = st.phase
        if start_phase == ACTION and not income:
            first = self._first_global_action()
            if first is not None and first[1] != faction:
                row = self.ledger.rows[first[0]]
                raise ReplayError(
                    f"ledger line {row.line}: {row.faction} acts, but our engine has "
                    f"{faction} to move"
                )
        while True:
            if (
                st.phase == OVER
                or st.current_player != p
                or st.phase
                not in (
                    start_phase,
                    ACTION,
                )
            ):
                return
            if st.phase != start_phase:
                return
            item = None
            for i, j, cmd in self._pending(faction):
                if _is_engine_row(cmd) or _is_noop(cmd):
                    if _is_noop(cmd):
                        self._consume(i, j)
                        self._maybe_check(i)
                    continue
                if _is_leech(cmd):
                    continue
                if turn_row is not None and i != turn_row:
                    # the row is exhausted: end the turn if the engine allows it
                    if A.X_END in st.legal_action_list():
                        self._end_turn(faction)
                        return
                    if st.ctx[X_WP] and st.phase == ACTION:
                        self._apply(A.X_WP, self.ledger.rows[turn_row], "(no conversion)")
                        item = "again"
                        break
                item = (i, j, cmd)
                break
            if item == "again":
                continue
            if item is None:
                if st.phase == ACTION and A.X_END in st.legal_action_list():
                    self._end_turn(faction)
                    return
                if st.phase == ACTION and st.ctx[X_WP]:
                    self.state.apply(A.X_WP)
                    continue
                raise ReplayError(
                    f"{faction}: the ledger has no more commands but our engine expects "
                    f"a decision ({st.decision()})"
                )
            i, j, cmd = item
            row = self.ledger.rows[i]
            if turn_row is None:
                turn_row = i
            if (
                st.phase == ACTION
                and st.ctx[X_ACTIONS] == 0
                and A.X_END in st.legal_action_list()
                and self._starts_action(cmd)
                and not self._is_subaction(cmd)
            ):
                self._end_turn(faction)
                return
            self._consume(i, j)
            self._command(row, cmd, i, j)
            self._maybe_check(i)
            if income and st.phase != INCOME_SPADES:
                return
            if start_phase in (SETUP_DWELLING, SETUP_BONUS):
                return

    def _end_turn(self, faction: str) -> None:
        self.state.apply(A.X_END)
        self.actions += 1

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
        cell = parse_cell(m.group(1))
        return bool(st.ctx[3]) and cell in st.build_locs

    def _command(self, row: LedgerRow, cmd: str, i: int, j: int) -> bool:
        """Apply one ledger command; returns True when it is fully consumed."""
        st = self.state
        p = st.current_player
        home = st.F[p].home
        low = cmd.lower()
        m = re.match(r"^build (\w+)$", low)
        if m:
            cell = parse_cell(m.group(1))
            self._apply(A.board_action(cell, A.K_BUILD + home), row, cmd)
            return True
        m = re.match(r"^upgrade (\w+) to ([\w ]+)$", low)
        if m:
            cell = parse_cell(m.group(1))
            kind = m.group(2).upper()
            kind = _BUILDING_ALIAS.get(kind, kind)
            if kind not in _UPGRADE_K:
                raise ReplayError(f"ledger line {row.line}: unknown building {m.group(2)!r}")
            self._apply(A.board_action(cell, _UPGRADE_K[kind]), row, cmd)
            return True
        m = re.match(r"^transform (\w+)(?: to (\w+))?$", low)
        if m:
            cell = parse_cell(m.group(1))
            color = m.group(2) or COLOR_NAMES[home]
            if color not in _COLOR_TERRAIN:
                raise ReplayError(f"ledger line {row.line}: unknown colour {color!r}")
            self._apply(A.board_action(cell, _COLOR_TERRAIN[color]), row, cmd)
            return True
        m = re.match(r"^dig (\d+)$", low)
        if m:
            for _ in range(int(m.group(1))):
                self._apply(A.X_DIG1, row, cmd)
            return True
        m = re.match(r"^send (?:p|priest) to (\w+)(?: for (\d))?$", low)
        if m:
            track = CULT_NAMES.index(m.group(1).upper())
            if m.group(2):
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
            src = {"PRIEST": "P", "WORKER": "W", "COIN": "C", "POWER": "PW"}.get(src, src)
            dst = {"PRIEST": "P", "WORKER": "W", "COIN": "C", "POWER": "PW"}.get(dst, dst)
            if src == "W" and dst == "P":
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
                raise ReplayError(f"ledger line {row.line}: unknown conversion '{cmd}'")
            if a != rate * b:
                raise ReplayError(f"ledger line {row.line}: '{cmd}' does not match rate {rate}")
            for _ in range(b):
                self._apply(A.X_CONV + index, row, cmd)
            return True
        m = re.match(r"^burn (\d+)$", low)
        if m:
            for _ in range(int(m.group(1))):
                self._apply(A.X_BURN, row, cmd)
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
                raise ReplayError(f"ledger line {row.line}: unknown action {name}")
            self._apply(action, row, cmd)
            return True
        m = re.match(r"^bridge (\w+):(\w+)$", low)
        if m:
            a, b = parse_cell(m.group(1)), parse_cell(m.group(2))
            if (a, b) not in BRIDGE_SLOT_OF:
                raise ReplayError(f"ledger line {row.line}: no bridge slot {m.group(0)}")
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
                k = int(m.group(1))
                action = A.A_PASS + k - 1 if k <= 9 else A.X_PASS_BON10
            self._apply(action, row, cmd)
            return True
        m = re.match(r"^\+(\d*)fav(\d+)$", low)
        if m:
            for _ in range(int(m.group(1) or 1)):
                self._apply(A.X_FAV + int(m.group(2)) - 1, row, cmd)
            return True
        m = re.match(r"^\+(\d*)tw(\d+)$", low)
        if m:
            k = int(m.group(2)) - 1
            action = A.A_TOWN + k if k < 5 else A.X_TOWN + k - 5
            for _ in range(int(m.group(1) or 1)):
                self._apply(action, row, cmd)
            return True
        m = re.match(r"^\+(\d*)(fire|water|earth|air)$", low)
        if m:
            count = int(m.group(1) or 1)
            track = CULT_NAMES.index(m.group(2).upper())
            if st.ctx[X_CSTEPS] == 2 and count == 2:
                count = 1
            for _ in range(count):
                self._apply(A.X_CULT + track, row, cmd)
            return True
        m = re.match(r"^connect (r\d+)$", low)
        if m:
            river = parse_cell(m.group(1))
            self._apply(A.X_CONNECT + _RIVER_INDEX[river], row, cmd)
            return True
        if low == "-spade":
            self._apply(A.X_DISCARD, row, cmd)
            return True
        raise ReplayError(f"ledger line {row.line}: cannot translate command '{cmd}'")


def replay_ledger(text: str, *, strict: bool = True) -> ReplayResult:
    """Replay a ledger through our engine, checking resources row by row.

    Args:
        text: The ledger file's contents.
        strict: Also fail on engine rows our engine does not write and on unplayed commands.

    Raises:
        ReplayError: At the first command our engine rejects or the first resource mismatch,
            naming the ledger line.
    """
    ledger = parse_ledger(text)
    if ledger.dropped:
        raise ReplayError("ledger: a player dropped out of this game; it cannot be replayed")
    driver = _Driver(ledger, strict)
    driver.run()
    st = driver.state
    final = {f: st.final[i] for i, f in enumerate(ledger.factions)}
    return ReplayResult(
        final_vp=final,
        ledger_vp=ledger.final_vp(),
        rows_checked=driver.checked,
        rows_total=len(ledger.rows),
        actions=driver.actions,
        state=st,
    )


def replay_file(path: str | Path, manifest: str | Path | None = None) -> ReplayResult:
    """Replay a ledger file; with a manifest, also check the site's final VP.

    Raises:
        ReplayError: As :func:`replay_ledger`, or when the final VP differ from the manifest.
    """
    path = Path(path)
    result = replay_ledger(path.read_text())
    if manifest is not None:
        data = json.loads(Path(manifest).read_text())
        for game in data.get("games", []):
            if game.get("log_file") == path.name:
                expected = {k.lower(): v for k, v in game["expected_total_vp"].items()}
                if expected != result.final_vp:
                    raise ReplayError(
                        f"{path.name}: final VP {result.final_vp} differ from the manifest's "
                        f"{expected}"
                    )
    if not result.exact:
        raise ReplayError(
            f"{path.name}: final VP {result.final_vp} differ from the ledger's {result.ledger_vp}"
        )
    return result
