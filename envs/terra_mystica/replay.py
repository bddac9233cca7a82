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
before the receiver's next action). The answer's timing matters to the builder only when it is
the Cultists, whose reward (a cult step, or 1 power when all decline) comes with the last
answer: an offer of theirs that the ledger answers after their next action is postponed
(:meth:`TerraMysticaState.postpone_leech`) and brought back to be decided right after the turn
the ledger answers it in. Two more orders of the online engine are followed the same way: a cult
step owed by an action but written after the player's next action (the last player in a round
may pass first) is played in the action's turn, and ``-TRACK`` before a town tile declines that
track's step to 10 when our engine asks. Every problem, from a malformed or unknown line to a
command our engine rejects or a resource mismatch, raises :class:`ReplayError` naming the file
(when there is one), the ledger line and the reason.
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
from stratagem.envs.terra_mystica.fields import P1, P2, P3, PASSED, VP, C, P, W
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
    X_TCULT,
    X_WP,
    TerraMysticaGame,
    TerraMysticaState,
)
from stratagem.envs.terra_mystica.rules import X_CULT as X_CULT_CHOICES
from stratagem.envs.terra_mystica.tiles import BONUS_NAMES, CULT_NAMES, FAVORS, SCORING_NAMES, TOWNS

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
#: Options of the online game that a ledger may set: those our engine plays (see
#: :meth:`Ledger.config`) and those that change nothing our engine models (notifications,
#: seating, the online engine's input checks, which the strict ledgers already obey).
KNOWN_OPTIONS: frozenset[str] = frozenset(
    {
        "errata-cultist-power",
        "mini-expansion-1",
        "shipping-bonus",
        "temple-scoring-tile",
        "variable-turn-order",
        "strict-leech",
        "strict-darkling-sh",
        "strict-chaosmagician-sh",
        "email-notify",
        "maintain-player-order",
    }
)


class ReplayError(ValueError):
    """A ledger command our engine rejects, a malformed ledger, or a resource mismatch.

    A message about a ledger starts with ``ledger line N`` and, once the ledger's file is
    known, with the file's name, so that a batch of replays says where each one went wrong.

    Attributes:
        message: The error without the file name.
        line: The 1-based ledger line the error is about (``None`` only for problems outside
            the ledger, such as an unreadable manifest).
        path: The file the ledger was read from, when it was read from one.
    """

    def __init__(self, message: str, *, line: int | None = None, path: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.path = path

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


def _error(line: int, message: str) -> ReplayError:
    """A :class:`ReplayError` about ledger line ``line``."""
    return ReplayError(f"ledger line {line}: {message}", line=line)


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
    #: (line, faction) of every ``FACTION dropped from the game`` comment, in ledger order.
    drops: list[tuple[int, str]] = field(default_factory=list)
    #: Number of lines in the file (where "missing" errors point).
    last_line: int = 0

    @property
    def dropped(self) -> bool:
        """Whether a player dropped out of this game."""
        return bool(self.drops)

    @property
    def dropped_line(self) -> int:
        """Line of the first ``dropped from the game`` comment (0: none)."""
        return self.drops[0][0] if self.drops else 0

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
        raise _error(line, f"malformed resource fields ({exc})") from exc
    if len(pw) != 3 or len(cult) != 4:
        raise _error(line, "malformed power or cult field")
    return vp, c, w, p, pw, cult


def parse_ledger(text: str) -> Ledger:
    """Parse the online engine's ledger notation.

    Comment lines other than the options, round tiles, removed bonus tiles and drop-outs are
    skipped (player names, round headers, ...); a line that starts like one of those four but
    does not read as one is an error, so that a corrupted header is not silently ignored.

    Raises:
        ReplayError: For a malformed line, an unknown option, a repeated round tile, removed
            tile or setup row, or a ledger without scoring tiles or factions; it names the line
            (for something missing, the ledger's last line).
    """
    options: set[str] = set()
    scoring: dict[int, str] = {}
    removed: list[str] = []
    factions: list[str] = []
    rows: list[LedgerRow] = []
    drops: list[tuple[int, str]] = []
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if "\t" not in line:
            s = line.strip()
            if re.match(r"^option\b", s, re.IGNORECASE):
                m = re.match(r"^option (\S+)$", s, re.IGNORECASE)
                name = m.group(1).lower() if m else ""
                if name not in KNOWN_OPTIONS:
                    raise _error(
                        number,
                        f"unknown option {s[6:].strip()!r}; known options: "
                        f"{', '.join(sorted(KNOWN_OPTIONS))}",
                    )
                options.add(name)
                continue
            if re.match(r"^Round \S+ scoring\b", s, re.IGNORECASE):
                m = re.match(r"^Round ([1-6]) scoring: (SCORE\d+)\b", s, re.IGNORECASE)
                if not m or m.group(2).upper() not in SCORING_NAMES:
                    raise _error(
                        number, f"cannot read {s!r} (expected 'Round N scoring: SCOREk', N 1 to 6)"
                    )
                round_ = int(m.group(1))
                if round_ in scoring:
                    raise _error(number, f"a second scoring tile for round {round_}")
                scoring[round_] = m.group(2).upper()
                continue
            if re.match(r"^Removing tile\b", s, re.IGNORECASE):
                m = re.match(r"^Removing tile (BON\d+)$", s, re.IGNORECASE)
                if not m or m.group(1).upper() not in BONUS_NAMES:
                    raise _error(number, f"cannot read {s!r} (expected 'Removing tile BONk')")
                if m.group(1).upper() in removed:
                    raise _error(number, f"{m.group(1).upper()} is removed twice")
                removed.append(m.group(1).upper())
                continue
            if "dropped from the game" in s:
                m = re.match(r"^(\w+) dropped from the game$", s, re.IGNORECASE)
                gone = [f for _, f in drops]
                if not m or m.group(1).lower() not in factions or m.group(1).lower() in gone:
                    raise _error(
                        number, f"cannot read {s!r} (expected 'FACTION dropped from the game')"
                    )
                drops.append((number, m.group(1).lower()))
            continue
        fields = line.split("\t")
        if len(fields) != 15:
            raise _error(number, f"expected 15 TAB fields, got {len(fields)}")
        faction = fields[0].strip().lower()
        if faction not in FACTION_NAMES:
            raise _error(number, f"unknown faction {fields[0]!r}")
        cmd = fields[14].strip()
        if cmd.lower() == "setup":
            if faction in factions:
                raise _error(number, f"a second setup row for {faction}")
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
    last = max(len(lines), 1)
    missing = [str(r) for r in range(1, 7) if r not in scoring]
    if missing:
        raise _error(
            last, f"end of the ledger, and no 'Round N scoring' line for round {', '.join(missing)}"
        )
    if not factions:
        raise _error(last, "end of the ledger, and no 'setup' rows (no factions)")
    return Ledger(
        options,
        [scoring[r] for r in range(1, 7)],
        removed,
        factions,
        rows,
        drops=drops,
        last_line=last,
    )


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
        vp_lines: Line of each faction's last row (its final VP).
    """

    final_vp: dict[str, int]
    ledger_vp: dict[str, int]
    rows_checked: int
    rows_total: int
    actions: int
    state: TerraMysticaState
    vp_lines: dict[str, int] = field(default_factory=dict)

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
        try:
            self.game = TerraMysticaGame(**ledger.config())
        except ValueError as exc:  # e.g. a missing 'Removing tile' line: too many bonus tiles
            raise _error(
                ledger.rows[0].line,
                f"the game set up by the header and the setup rows is not valid ({exc})",
            ) from exc
        self.state = self.game.new_initial_state(0)
        self.state._trace = self._on_trace
        self.seat = {f: i for i, f in enumerate(ledger.factions)}
        self.actions = 0
        self.checked = 0
        # per faction: indices of its rows, in ledger order
        self.rows_of: dict[str, list[int]] = {f: [] for f in ledger.factions}
        for i, row in enumerate(ledger.rows):
            if row.faction not in self.rows_of:
                raise _error(row.line, f"{row.faction} has no setup row")
            self.rows_of[row.faction].append(i)
        self.max_row_applied: dict[str, int] = {f: -1 for f in ledger.factions}
        # '-TRACK' commands waiting for the town tile whose step to 10 they decline
        self.declines: dict[str, list[tuple[int, LedgerRow, str]]] = {
            f: [] for f in ledger.factions
        }
        # the ledger answer (row, command) of every offer postponed in the state, in its order
        self.late_rows: list[tuple[int, int]] = []
        # postponed offers brought back to be decided, and the answers kept for them
        self.resumed: dict[tuple[int, ...], tuple[int, int]] = {}
        self.reserved: set[tuple[int, int]] = set()
        # players who leave the game: the line that says so, and those gone already
        self.drop_at = {f: line for line, f in ledger.drops}
        self.gone: set[str] = set()

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
                f"resources differ: {diff}",
                line=row.line,
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
            self._unused_declines(faction)
            for i in self.rows_of[faction]:
                if not self.ledger.rows[i].checked:
                    self._maybe_check(i)
            return
        if key == "nothing to leech":
            _, frm, amount, _ = st.leech[0]
            if st.leech[0] in self.resumed:
                i, j = self.resumed.pop(st.leech[0])
                self.reserved.discard((i, j))
                found = (i, j)
            else:
                found = self._find_leech(faction, self.ledger.factions[frm], (amount, 0))
            if found is not None:
                self._consume(found[0], found[1])
                self._maybe_check(found[0])
            return
        if key not in _ENGINE_ROWS and not _VP_ROW.match(what):
            return
        if faction in self.gone:
            return  # the online engine writes a player who left without its commands
        for i in self.rows_of[faction]:
            row = self.ledger.rows[i]
            j = next((k for k, done in enumerate(row.done) if not done), None)
            if j is not None and row.commands[j].lower() == key:
                self._consume(i, j)
                self._maybe_check(i)
                return
        if self.strict:
            raise _error(
                self._next_line(faction),
                f"our engine writes '{what}' for {faction} before this row (its next one); "
                "the ledger has no such row",
            )

    # ----------------------------------------------------------------- command queue
    def _pending(self, faction: str):
        """(row index, command index, command) of the faction's unconsumed commands."""
        for i in self.rows_of[faction]:
            row = self.ledger.rows[i]
            for j, cmd in enumerate(row.commands):
                if not row.done[j]:
                    yield i, j, cmd

    def _next_line(self, faction: str) -> int:
        """Line of the faction's first row with a command still to play, else its last row.

        That is where the ledger and our engine part when the engine wants something of the
        faction that the ledger does not have.
        """
        for i in self.rows_of[faction]:
            if not all(self.ledger.rows[i].done):
                return self.ledger.rows[i].line
        rows = self.rows_of[faction]
        return self.ledger.rows[rows[-1]].line if rows else self.ledger.last_line

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
                f"{A.action_to_string(action)!r}: {exc}",
                line=row.line,
            ) from exc
        self.actions += 1
        self._town_tops()

    def _unused_declines(self, faction: str) -> None:
        """Refuse a ``-TRACK`` left over once the town tile it was for has been taken."""
        if self.declines[faction]:
            _, row, cmd = self.declines[faction][0]
            raise ReplayError(
                f"ledger line {row.line} ({faction}: '{cmd}'): no town tile took this track "
                "to 10; our engine declines only a town's step to the top",
                line=row.line,
            )

    def _town_tops(self) -> None:
        """Decide a town tile's steps to 10: declined where the ledger said ``-TRACK`` before.

        The online engine takes the key for the tracks in an arbitrary order; a player who
        wants another track at the top lowers the first one beforehand (``-WATER. +TW5``).
        """
        st = self.state
        while st.phase == ACTION and st.ctx[X_TCULT]:
            mask = st.ctx[X_TCULT]
            track = (mask & -mask).bit_length() - 1
            declines = self.declines[self.ledger.factions[st.current_player]]
            k = next((k for k, d in enumerate(declines) if d[0] == track), None)
            action = A.X_CULT + track if k is None else A.X_DISCARD
            if k is not None:
                del declines[k]
            st.apply(action)
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
                faction = self.ledger.factions[st.current_player]
                raise _error(
                    self._next_line(faction),
                    f"the replay does not terminate ({faction} to move, {st.decision()})",
                )
            ph = st.phase
            faction = self.ledger.factions[st.current_player]
            if ph == LEECH:
                self._leech(faction)
            elif ph == CULTIST:
                self._cultist(faction)
            elif ph == INCOME_SPADES:
                self._turn(faction, income=True)
            elif ph == ACTION and self._leaves(faction):
                self.gone.add(faction)  # before: the drop may end the round
                st.drop_player()
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
            raise _error(line, f"command '{cmd}' was never played")

    def _find_leech(self, faction: str, builder: str, amounts: tuple[int, ...]):
        """The receiver's ledger decision on an offer: (row, command index, command, accept).

        ``None`` when the receiver took an action first (the engine's implicit decline).
        """
        for i, j, cmd in self._pending(faction):
            if (i, j) in self.reserved:
                continue  # the answer of a postponed offer
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
        offer = st.leech[0]
        if offer in self.resumed:
            i, j = self.resumed.pop(offer)
            self.reserved.discard((i, j))
            cmd = self.ledger.rows[i].commands[j]
            accept = cmd.lower().startswith("leech")
        else:
            actual = leech_amount(st.pd[q], amount)
            builder = self.ledger.factions[frm]
            found = self._find_leech(faction, builder, (amount, actual))
            if found is None:
                self.state.apply(A.X_DECLINE)  # the receiver acted first: implicit decline
                self.actions += 1
                return
            i, j, cmd, accept = found
            if builder == "cultists" and self._acts_before(i, builder):
                # answered after the Cultists' next action: what it gives them comes then
                st.postpone_leech()
                self.late_rows.append((i, j))
                self.reserved.add((i, j))
                return
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

    def _acts_before(self, index: int, faction: str | None = None) -> bool:
        """Whether a command of ``faction`` (any faction: None) before ledger row ``index`` waits.

        Only the players' own actions count: leech answers, cult steps, engine rows and
        no-ops come where our engine asks for them.
        """
        for i in range(index):
            row = self.ledger.rows[i]
            if faction is not None and row.faction != faction:
                continue
            for j, cmd in enumerate(row.commands):
                if row.done[j] or (i, j) in self.reserved:
                    continue
                if _is_leech(cmd) or _is_engine_row(cmd) or _is_noop(cmd) or _is_cult_gain(cmd):
                    continue
                return True
        return False

    def _resume_due(self, round_ends: bool) -> None:
        """Bring back the postponed offers the ledger answers right after the current turn.

        That is when every player's own action before the answer's row has been played, or
        at the round's end at the latest.
        """
        st = self.state
        for k in reversed(range(len(self.late_rows))):
            i, j = self.late_rows[k]
            if round_ends or not self._acts_before(i):
                offer = st.late[k]
                st.resume_leech(k)
                del self.late_rows[k]
                self.resumed[offer] = (i, j)

    def _owed_cult_step(self, faction: str) -> tuple[int, int, str] | None:
        """The faction's next ``+TRACK``, owed by an action and written after other commands.

        The online engine lets the last player still in the round choose a favor's or a
        bonus tile's cult step after its next action, even after passing (``Action FAV6``,
        ``Pass BON7``, ``+AIR``); our engine asks for it within the action's turn.
        """
        for i, j, cmd in self._pending(faction):
            if _is_cult_gain(cmd):
                return i, j, cmd
            if _is_engine_row(cmd):
                return None  # not past the end of the round
        return None

    def _leaves(self, faction: str) -> bool:
        """Whether the faction, to move, has left the game.

        It has when no command of its own is left before the ledger's ``X dropped from the game``.
        """
        line = self.drop_at.get(faction)
        if line is None or faction in self.gone:
            return False
        for i, _, cmd in self._pending(faction):
            if _is_engine_row(cmd) or _is_leech(cmd) or _is_noop(cmd):
                continue
            return self.ledger.rows[i].line > line
        return True

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
        raise _error(
            self._next_line(faction),
            f"our engine asks {faction} for a cult step; the ledger has none left",
        )

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
                raise _error(row.line, f"{row.faction} acts, but our engine has {faction} to move")
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
                raise _error(
                    self._next_line(faction),
                    f"the ledger has no more commands of {faction}, but our engine expects "
                    f"a decision ({st.decision()})",
                )
            i, j, cmd = item
            if (
                st.phase == ACTION
                and st.ctx[X_CULT_CHOICES]
                and not st.ctx[X_TCULT]
                and self._starts_action(cmd)
            ):
                # no next action while a cult step is owed: its choice is written later
                i, j, cmd = self._owed_cult_step(faction) or item
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
        self._resume_due(round_ends=False)
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
        m = re.match(r"^dig (\d+)$", low)
        if m:
            for _ in range(int(m.group(1))):
                self._apply(A.X_DIG1, row, cmd)
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
            src = {"PRIEST": "P", "WORKER": "W", "COIN": "C", "POWER": "PW"}.get(src, src)
            dst = {"PRIEST": "P", "WORKER": "W", "COIN": "C", "POWER": "PW"}.get(dst, dst)
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


def replay_ledger(
    text: str, *, strict: bool = True, source: str | Path | None = None
) -> ReplayResult:
    """Replay a ledger through our engine, checking resources row by row.

    Args:
        text: The ledger file's contents.
        strict: Also fail on engine rows our engine does not write and on unplayed commands.
        source: Where the text comes from (a file name), put in front of every error message.

    Raises:
        ReplayError: For a malformed ledger, at the first command our engine rejects or at the
            first resource mismatch, naming ``source`` and the ledger line.
    """
    try:
        ledger = parse_ledger(text)
        driver = _Driver(ledger, strict)
        driver.run()
    except ReplayError as exc:
        if source is not None and exc.path is None:
            exc.path = str(source)
        raise
    st = driver.state
    final = {f: st.final[i] for i, f in enumerate(ledger.factions)}
    vp_lines = {row.faction: row.line for row in ledger.rows}  # each faction's last row
    return ReplayResult(
        final_vp=final,
        ledger_vp=ledger.final_vp(),
        rows_checked=driver.checked,
        rows_total=len(ledger.rows),
        actions=driver.actions,
        state=st,
        vp_lines=vp_lines,
    )


def _manifest_vp(manifest: Path, log_file: str) -> dict[str, int] | None:
    """The manifest's final VP of the game in ``log_file`` (None if it does not list it).

    Raises:
        ReplayError: If the manifest is not JSON or its entry for the game is malformed,
            naming the manifest (and, for a JSON error, its line).
        OSError: If the manifest cannot be read.
    """
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ReplayError(
            f"line {exc.lineno}: the manifest is not valid JSON ({exc.msg})",
            line=exc.lineno,
            path=str(manifest),
        ) from exc
    except UnicodeDecodeError as exc:
        raise ReplayError(f"the manifest is not UTF-8 text ({exc})", path=str(manifest)) from exc
    games = data.get("games", []) if isinstance(data, dict) else None
    if not isinstance(games, list):
        raise ReplayError("the manifest has no 'games' list", path=str(manifest))
    for game in games:
        if isinstance(game, dict) and game.get("log_file") == log_file:
            vp = game.get("expected_total_vp")
            if not isinstance(vp, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in vp.values()
            ):
                raise ReplayError(
                    f"the entry of {log_file} has no 'expected_total_vp' of faction -> VP",
                    path=str(manifest),
                )
            return {str(k).lower(): v for k, v in vp.items()}
    return None


def replay_file(path: str | Path, manifest: str | Path | None = None) -> ReplayResult:
    """Replay a ledger file; with a manifest, also check the site's final VP.

    Every :class:`ReplayError` names the file and the ledger line (the final VP: the line of
    the first differing faction's last row).

    Raises:
        ReplayError: As :func:`replay_ledger`, for a file that is not UTF-8 text, when the final
            VP differ from the ledger's or the manifest's, or for a malformed manifest.
        OSError: If the ledger or the manifest cannot be read.
    """
    path = Path(path)
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ReplayError(
            f"ledger line {line}: not UTF-8 text ({exc.reason})", line=line, path=str(path)
        ) from exc
    result = replay_ledger(text, source=path)
    checks = [(result.ledger_vp, "the ledger's")]
    if manifest is not None:
        expected = _manifest_vp(Path(manifest), path.name)
        if expected is not None:
            checks.insert(0, (expected, f"the manifest's ({manifest})"))
    for expected, whose in checks:
        if expected != result.final_vp:
            differing = [f for f in result.final_vp if expected.get(f) != result.final_vp[f]]
            line = result.vp_lines.get(differing[0], 0) if differing else 0
            line = line or max(result.vp_lines.values(), default=1)
            raise ReplayError(
                f"ledger line {line}: final VP {result.final_vp} differ from {whose} {expected}",
                line=line,
                path=str(path),
            )
    return result
