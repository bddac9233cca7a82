"""Replays of real Terra Mystica games: the online engine's ledgers through our engine.

A ledger (a ``.txt`` file, spec section 13) lists the game options, the round and bonus
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

The replay is split along its concepts: :mod:`~stratagem.envs.terra_mystica.ledger` reads a
ledger (and holds :class:`ReplayError`), :mod:`~stratagem.envs.terra_mystica.replay_commands`
turns one ledger command into our actions, :mod:`~stratagem.envs.terra_mystica.replay_driver`
plays the rows through our engine; this module keeps the entry points and the result, and every
public name is still imported from here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from stratagem.envs.terra_mystica.ledger import (
    KNOWN_OPTIONS,
    Ledger,
    LedgerRow,
    ReplayError,
    parse_ledger,
)
from stratagem.envs.terra_mystica.replay_driver import _Driver
from stratagem.envs.terra_mystica.rules import TerraMysticaState

__all__ = [
    "Ledger",
    "LedgerRow",
    "ReplayError",
    "ReplayResult",
    "parse_ledger",
    "replay_file",
    "replay_ledger",
]
# Imported from here as before the replay was split: the options a ledger may set.
__all__ += ["KNOWN_OPTIONS"]


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
