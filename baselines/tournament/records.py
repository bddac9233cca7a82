"""The results file: checking game records, reading JSON Lines, appending one record.

A tournament's results are a JSON Lines file appended game by game; :func:`record_problem`
says what makes a line unusable, :func:`read_results` loads the valid records (warning about
the others, whose games a resumed run plays again) and ``_append`` adds one record safely
after a torn line.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["read_results", "record_problem"]

#: The logger of the tournament package (not of this module), as before the split: programs and
#: tests that filter or silence ``stratagem.baselines.tournament`` keep doing so.
_log = logging.getLogger("stratagem.baselines.tournament")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_list_of(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, list) and all(check(v) for v in value)


def _is_stat(value: Any) -> bool:
    return _is_number(value) or _is_list_of(_is_number)(value)


#: Fields of a game record (:func:`play_task`) with their type checks and what they must be.
#: The first group is in every record ever written; the second came later (rules version,
#: agent seeds, actions, then the search and turn figures) and may be missing from old records,
#: which then only cannot be replayed (or lack those columns).
_RECORD_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "key": (lambda v: isinstance(v, str) and bool(v), "a non-empty string"),
    "game": (lambda v: isinstance(v, str), "a string"),
    "config": (lambda v: isinstance(v, dict), "an object"),
    "row": (lambda v: isinstance(v, str), "a string"),
    "col": (lambda v: isinstance(v, str), "a string"),
    "index": (_is_int, "an integer"),
    "level": (_is_int, "an integer"),
    "seed": (_is_int, "an integer"),
    "names": (_is_list_of(lambda v: isinstance(v, str)), "a list of strings"),
    "specs": (_is_list_of(lambda v: isinstance(v, str)), "a list of strings"),
    "returns": (_is_list_of(_is_number), "a list of numbers"),
    "scores": (_is_list_of(_is_number), "a list of numbers"),
    "truncated": (lambda v: isinstance(v, bool), "true or false"),
    "decisions": (_is_list_of(_is_int), "a list of integers"),
    "agent_seconds": (_is_list_of(_is_number), "a list of numbers"),
    "fm_calls": (_is_list_of(_is_int), "a list of integers"),
    "seconds": (_is_number, "a number"),
    "stats": (
        lambda v: isinstance(v, dict) and all(_is_stat(x) for x in v.values()),
        "an object of numbers or lists of numbers",
    ),
}
_LATER_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "rules_version": (_is_int, "an integer"),
    "agent_seeds": (_is_list_of(_is_int), "a list of integers"),
    "actions": (_is_list_of(_is_int), "a list of integers"),
    "searches": (_is_list_of(_is_int), "a list of integers"),
    "search_iterations": (_is_list_of(_is_int), "a list of integers"),
    "turns": (_is_list_of(_is_int), "a list of integers"),
    "max_turn_seconds": (_is_list_of(_is_number), "a list of numbers"),
    "max_turn_cpu_seconds": (_is_list_of(_is_number), "a list of numbers"),
}
#: Fields with one entry per seat (the later ones when present).
_PER_SEAT = ("names", "specs", "returns", "scores", "decisions", "agent_seconds", "fm_calls")
_LATER_PER_SEAT = (
    "agent_seeds",
    "searches",
    "search_iterations",
    "turns",
    "max_turn_seconds",
    "max_turn_cpu_seconds",
)


def record_problem(record: Any) -> str | None:
    """What makes ``record`` unusable as a tournament game record, or ``None`` if nothing.

    A record must be a JSON object with every field :func:`play_task` has always written, of
    the right type, and one entry per seat in the per-seat lists; the fields added later
    (``rules_version``, ``agent_seeds``, ``actions``, the search and turn figures) are checked
    only when present. The tables
    and a resumed run rely on all of it, so a record that passes cannot break them.
    """
    if not isinstance(record, dict):
        return f"not a JSON object but {type(record).__name__}"
    missing = [name for name in _RECORD_FIELDS if name not in record]
    if missing:
        return f"lacks field(s) {', '.join(missing)}"
    for name, (check, wanted) in {**_RECORD_FIELDS, **_LATER_FIELDS}.items():
        if name in record and not check(record[name]):
            return f"field {name!r} must be {wanted}, got {record[name]!r:.60}"
    seats = len(record["names"])
    per_seat = _PER_SEAT + tuple(name for name in _LATER_PER_SEAT if name in record)
    uneven = [name for name in per_seat if len(record[name]) != seats]
    if seats == 0 or uneven:
        return f"per-seat field(s) {', '.join(uneven or ['names'])} do not have one entry per seat"
    return None


def read_results(path: str | Path) -> list[dict[str, Any]]:
    """The valid game records of a JSON Lines results file, in file order.

    A line that is not JSON (a torn last line of a killed run, an edit) or not a complete
    record (see :func:`record_problem`) is skipped, and logged as a warning with its line
    number (the command line shows it on stderr); a resumed tournament plays its game again.
    """
    path = Path(path)
    if not path.exists():
        return []
    records = []
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            try:
                record = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError as exc:
                problem: str | None = f"not UTF-8 text ({exc.reason} at byte {exc.start + 1})"
            except json.JSONDecodeError as exc:
                problem = f"not valid JSON ({exc.msg} at column {exc.colno})"
            else:
                problem = record_problem(record)
            if problem is not None:
                _log.warning("%s:%d: skipped, %s", path, number, problem)
                continue
            records.append(record)
    return records


def _append(path: Path, record: Mapping[str, Any]) -> None:
    """Append one record, starting a new line if a killed run left a torn one."""
    with path.open("a+b") as fh:
        fh.seek(0, os.SEEK_END)
        if fh.tell():
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                fh.write(b"\n")
        fh.write(json.dumps(record, separators=(",", ":")).encode() + b"\n")
        fh.flush()
