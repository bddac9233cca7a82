"""The replay driver: a parsed ledger played through our engine, row by row.

:class:`_Driver` lets our engine decide who moves next and takes each faction's next ledger
commands for it: the turns (with :class:`~stratagem.envs.terra_mystica.replay_commands.\
LedgerCommands` translating each command), the leech answers wherever the ledger writes them
(postponing and resuming the Cultists' offers), the Cultists' cult steps, the ``-TRACK``
declines of a town's step to 10, and the players who drop out. It follows the engine's trace to
tick off the engine-written rows and compares every faction row whose commands have all run
with our state (see :mod:`~stratagem.envs.terra_mystica.replay` for the orders it reconciles).
Held apart from the entry module, which keeps the public functions and the result type.
"""

from __future__ import annotations

import re

from stratagem.envs.core import IllegalActionError
from stratagem.envs.terra_mystica import actions as A
from stratagem.envs.terra_mystica.fields import P1, P2, P3, VP, C, P, W
from stratagem.envs.terra_mystica.ledger import (
    _ENGINE_ROWS,
    _VP_ROW,
    Ledger,
    LedgerRow,
    ReplayError,
    _error,
    _is_cult_gain,
    _is_engine_row,
    _is_leech,
    _is_noop,
)
from stratagem.envs.terra_mystica.power import leech_amount
from stratagem.envs.terra_mystica.replay_commands import LedgerCommands
from stratagem.envs.terra_mystica.rules import (
    ACTION,
    CULTIST,
    INCOME_SPADES,
    LEECH,
    OVER,
    SETUP_BONUS,
    SETUP_DWELLING,
    X_ACTIONS,
    X_TCULT,
    X_WP,
    TerraMysticaGame,
    TerraMysticaState,
)
from stratagem.envs.terra_mystica.rules import X_CULT as X_CULT_CHOICES
from stratagem.envs.terra_mystica.tiles import CULT_NAMES

__all__ = ["_Driver"]


class _Driver(LedgerCommands):
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
