"""The online engine's ledgers: their notation, parsed, and the error every replay raises.

A ledger (a ``.txt`` file, spec section 13) lists the game options, the round and bonus
tiles, then one row per faction turn with the row's resources *after* it and the commands typed.
:func:`parse_ledger` reads it into a :class:`Ledger` of :class:`LedgerRow` (the commands split
and kept in the online engine's order); the small classifiers here tell the replay driver
(:mod:`~stratagem.envs.terra_mystica.replay_driver`) which commands are engine rows, leech
answers, cult steps or no-ops. :class:`ReplayError` lives here because the parser is the first
to raise it; the driver, the command translation and :mod:`~stratagem.envs.terra_mystica.replay`
raise the same type. Held apart from the driver so that reading a ledger needs no engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from stratagem.envs.terra_mystica.factions import FACTION_NAMES
from stratagem.envs.terra_mystica.tiles import BONUS_NAMES, SCORING_NAMES

__all__ = [
    "KNOWN_OPTIONS",
    "Ledger",
    "LedgerRow",
    "ReplayError",
    "parse_ledger",
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


def _is_engine_row(cmd: str) -> bool:
    return cmd.lower() in _ENGINE_ROWS or bool(_VP_ROW.match(cmd))


def _is_leech(cmd: str) -> bool:
    return bool(re.match(r"^(leech|decline)\b", cmd, re.IGNORECASE))


def _is_cult_gain(cmd: str) -> bool:
    return bool(re.match(r"^\+(\d*)(fire|water|earth|air)$", cmd, re.IGNORECASE))


def _is_noop(cmd: str) -> bool:
    return cmd.lower() in ("wait", "done")
