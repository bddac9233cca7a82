"""Round-robin tournaments with the papers' protocol, and ``stratagem tournament``.

Protocol (Tribes paper section 4.1, SCSA paper section VI-B): every pairing of agents plays the
same games (the same levels or maps and the same seeds), in pairs with the seats switched, so
that an unbalanced level favours nobody. Game ``i`` of a pairing is the ``i // 2``-th level,
played with the row agent in seat 0 when ``i`` is even and in seat 1 when it is odd.

* Levels: with ``maps``, game pair ``p`` is played on ``maps[p % len(maps)]`` (the game's ``map``
  option); with ``levels = L``, the initial state's seed cycles over ``L`` values (the Tribes
  paper's 25 generated levels); with ``level_seeds``, over those seeds as given (the CotG
  paper's scenarios ``2018 + i``); otherwise each game pair has a level seed of its own. Agents'
  random generators are seeded per game pair and seat, identically for every pairing.
* Scores: 1 for the sole winner, ``1/m`` each for ``m`` players tied at the best return, 0
  otherwise (draws count half in two-player games). A win rate is the mean score; its standard
  error is the standard deviation of the scores over the square root of the number of games.
* Symmetric scoring (``symmetric=True``, the CotG paper's *sym-win*): the two games of a pair
  (one level, seats switched) are one battle, won by the agent that won more of them; a split
  pair (1:1, or two draws) goes to the agent with the larger sum of the ``tie_break`` end
  statistic over both games (the CotG paper: hit points left), and is halved when that is
  equal too. Win rates are then means over pairs.
* Results are appended to a JSON Lines file one game at a time, as games finish; rerunning the
  same command skips every game already in the file, so an interrupted tournament resumes where
  it stopped and loses no finished game. A line that is not a complete record (torn by a kill,
  edited, fields missing or of the wrong type) is reported with its line number and its game is
  played again.
* Games run in worker processes (``spawn``, so the same on every platform), with a progress bar.
  A worker ends as soon as the tournament process is gone, even after ``kill -9``. With
  ``backend="ray"`` they run as Ray tasks on a cluster instead (:mod:`.ray_backend`): the same
  per-game function, file, resume, progress bar and tables, and the same records.

The printed tables are the papers': the row-against-column win-rate matrix with standard
errors, each agent's overall record, and the game's end-of-game statistics (Kill The King:
rounds played, own units left, own King's health).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import math
import multiprocessing as mp
import multiprocessing.connection
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.baselines.agent import make_agent, parse_agent_spec
from stratagem.envs.core import Game, State
from stratagem.envs.registry import game_entry, make_game

__all__ = [
    "Task",
    "TournamentResult",
    "end_statistics",
    "expand_maps",
    "format_tables",
    "make_tasks",
    "pair_score",
    "play_task",
    "plot_heatmap",
    "read_results",
    "record_problem",
    "register",
    "run_tournament",
    "split_agent_list",
]

_log = logging.getLogger(__name__)


# ----------------------------------------------------------------------------- end statistics
def end_statistics(state: State) -> dict[str, Any]:
    """The game's end-of-game figures (:meth:`State.end_statistics`), as plain floats."""
    out: dict[str, Any] = {}
    for key, value in state.end_statistics().items():
        out[key] = [float(v) for v in value] if isinstance(value, (list, tuple)) else float(value)
    return out


# ----------------------------------------------------------------------------- tasks
@dataclass(frozen=True)
class Task:
    """One game of a tournament: everything a worker needs, and the key that identifies it.

    Attributes:
        key: Identity of the game in the results file (hash of the fields below).
        game: Registry name.
        config: Game configuration keywords for this game (map included).
        row: Name of the pairing's row agent.
        col: Name of the pairing's column agent.
        specs: Agent spec per seat.
        names: Agent name per seat.
        index: Game number within the pairing.
        level: Level number (which seed or map pair this game uses).
        game_seed: Seed of the initial state.
        agent_seeds: Seed of each seat's random generator.
    """

    key: str
    game: str
    config: Mapping[str, Any]
    row: str
    col: str
    specs: tuple[str, ...]
    names: tuple[str, ...]
    index: int
    level: int
    game_seed: int
    agent_seeds: tuple[int, ...]


def _seed(*words: int) -> int:
    """A 63-bit seed derived from integers (numpy's SeedSequence: well mixed, portable)."""
    state = np.random.SeedSequence(list(words)).generate_state(2, np.uint32)
    return int((int(state[0]) << 31) ^ int(state[1]))


_RANGE = re.compile(r"^(.*?)(\d+)-(\d+)$")


def expand_maps(items: Iterable[str]) -> list[str]:
    """Expand ``"kwah:1-50"`` to ``kwah:1 .. kwah:50``; items may also be comma-separated.

    Only a trailing ``A-B`` with ``A <= B`` after a ``:`` is a range, so paths stay intact.
    """
    out: list[str] = []
    for item in items:
        for part in filter(None, (p.strip() for p in item.split(","))):
            prefix, _, tail = part.rpartition(":")
            match = _RANGE.match(tail) if prefix else None
            if match and not match.group(1) and int(match.group(2)) <= int(match.group(3)):
                out.extend(
                    f"{prefix}:{k}" for k in range(int(match.group(2)), int(match.group(3)) + 1)
                )
            else:
                out.append(part)
    return out


def split_agent_list(text: str) -> list[str]:
    """Split ``"mcts:budget=2000,c=1.4,rule_based"`` into agent specs.

    A comma separates agents, except before a ``key=value`` item, which continues the previous
    spec's parameters (agent names never contain ``=``).
    """
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        head = part.split(":", 1)[0]
        if "=" in head and specs:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def make_tasks(
    game: str,
    agents: Mapping[str, str],
    *,
    games: int,
    against: Mapping[str, str] | None = None,
    config: Mapping[str, Any] | None = None,
    maps: Sequence[str] | None = None,
    levels: int | None = None,
    seed: int = 0,
    level_seeds: Sequence[int] | None = None,
) -> list[Task]:
    """The games of a round robin (or of a gauntlet against ``against``).

    Args:
        game: Registry name.
        agents: Name -> spec of the agents; each pair of them plays when ``against`` is None.
        games: Games per pairing (even numbers give every level with both seat orders).
        against: Name -> spec of fixed opponents: each agent plays each of them and nothing
            else (a gauntlet); they may also appear in ``agents``.
        config: Game configuration keywords.
        maps: Values of the game's ``map`` option, cycled over game pairs.
        levels: Number of distinct initial-state seeds, cycled over game pairs.
        seed: Base seed of the tournament.
        level_seeds: Initial-state seeds cycled over game pairs, used as they are (instead of
            seeds derived from ``seed``): a paper's fixed scenarios. Not with ``levels``.

    Raises:
        ValueError: For fewer than two agents, a bad count, maps for a game without a map, or
            level seeds that are not integers or come with ``levels``.
    """
    config = dict(config or {})
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games per pairing must be a positive integer, got {games!r}")
    if levels is not None and (
        isinstance(levels, bool) or not isinstance(levels, int) or levels < 1
    ):
        raise ValueError(f"levels must be a positive integer, got {levels!r}")
    if level_seeds is not None:
        level_seeds = list(level_seeds)
        if levels is not None:
            raise ValueError("give either levels or level seeds, not both")
        if not level_seeds or not all(
            isinstance(s, (int, np.integer)) and not isinstance(s, bool) and s >= 0
            for s in level_seeds
        ):
            raise ValueError(f"level seeds must be non-negative integers, got {level_seeds!r}")
        level_seeds = [int(s) for s in level_seeds]
    if maps:
        if "map" not in game_entry(game).defaults:
            raise ValueError(
                f"{game} has no 'map' option, so --maps does not apply; use --levels or --config"
            )
        if "map" in config:
            raise ValueError("give the map either with --maps or with --config map=..., not both")
    if against:
        pairings = [(a, b) for a in agents for b in against if a != b]
    else:
        names = list(agents)
        pairings = [
            (names[i], names[j]) for i in range(len(names)) for j in range(i + 1, len(names))
        ]
    if not pairings:
        raise ValueError("a tournament needs at least two different agents")
    specs = {**agents, **(against or {})}
    num_players = make_game(
        game, **({**config, "map": maps[0]} if maps else config)
    ).spec.num_players
    tasks = []
    # Game-major order (game 0 of every pairing, then game 1, ...): a run stopped early has
    # played every pairing about equally often.
    for index in range(games):
        for row, col in pairings:
            pair, swap = divmod(index, 2)
            if level_seeds:
                level = pair % len(level_seeds)
            else:
                level = pair % levels if levels else pair
            cfg = dict(config)
            if maps:
                cfg["map"] = maps[pair % len(maps)]
            # Seats alternate between the two agents; odd games start with the column agent.
            seat_names = tuple(row if (k + swap) % 2 == 0 else col for k in range(num_players))
            seat_specs = tuple(specs[n] for n in seat_names)
            words: list[Any] = [game, cfg, specs[row], specs[col], seed, levels, index]
            if level_seeds:  # (only then: the keys of every earlier tournament stay the same)
                words.append(level_seeds)
            ident = json.dumps(words, sort_keys=True, separators=(",", ":"))
            tasks.append(
                Task(
                    key=hashlib.sha1(ident.encode()).hexdigest()[:20],
                    game=game,
                    config=cfg,
                    row=row,
                    col=col,
                    specs=seat_specs,
                    names=seat_names,
                    index=index,
                    level=level,
                    game_seed=level_seeds[level] if level_seeds else _seed(seed, 0, level),
                    agent_seeds=tuple(_seed(seed, 1, pair, k) for k in range(num_players)),
                )
            )
    return tasks


# ----------------------------------------------------------------------------- playing
_GAMES: dict[str, Game] = {}


def _game_for(task: Task) -> Game:
    """Games are immutable: build each configuration once per process."""
    key = json.dumps([task.game, task.config], sort_keys=True)
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = make_game(task.game, **task.config)
    return game


def _scores(returns: Sequence[float]) -> list[float]:
    """1 to the sole best, ``1/m`` each to ``m`` tied best players, 0 to the others."""
    best = max(returns)
    tied = [r == best for r in returns]
    share = 1.0 / sum(tied)
    return [share if t else 0.0 for t in tied]


def play_task(task: Task) -> dict[str, Any]:
    """Play one tournament game and return its JSON record.

    Each seat's agent sees ``state.observed_by(seat)`` and its own seeded generator. A game that
    runs past the game's ``max_game_length`` decisions is stopped and scored as a draw.

    Per seat, the record counts the decisions, their time (``agent_seconds``, wall), the
    forward-model calls and, for agents whose ``last_stats`` says the decision ran a search,
    the searches and their iterations (``search_iterations``); and the seat's turns, a turn
    being a run of consecutive decisions of one seat, with the longest one in wall and in
    process CPU time (``max_turn_seconds``, ``max_turn_cpu_seconds``: the CotG paper's
    execution-time measure, which its time limits count in CPU time).

    The record keeps what replays the game exactly (``stratagem replay`` and ``stratagem
    view``): the game, its configuration, the initial state's seed, the rules version and every
    action in order (``actions``). Records written before ``actions`` existed still load; they
    only cannot be replayed.

    Raises:
        RuntimeError: If an agent fails; the message names the agent, game and seed.
    """
    game = _game_for(task)
    agents = [make_agent(spec, game) for spec in task.specs]
    for agent in agents:
        agent.reset()
    rngs = [np.random.default_rng(s) for s in task.agent_seeds]
    n = game.spec.num_players
    decisions, seconds, calls = [0] * n, [0.0] * n, [0] * n
    searches, iterations = [0] * n, [0] * n
    turns, max_turn, max_turn_cpu = [0] * n, [0.0] * n, [0.0] * n
    turn_wall = turn_cpu = 0.0
    last_seat = -1
    state = game.new_initial_state(seed=task.game_seed)
    start = time.perf_counter()
    truncated = False
    total = 0
    actions: list[int] = []  # the whole game, so that ``stratagem replay``/``view`` can redo it
    while not state.is_terminal():
        if total >= game.spec.max_game_length:
            truncated = True
            break
        seat = state.current_player
        if seat != last_seat:
            turns[seat] += 1
            turn_wall = turn_cpu = 0.0
            last_seat = seat
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            action = agents[seat].act(state.observed_by(seat), rng=rngs[seat])
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            seconds[seat] += wall
            state.apply(action)
            actions.append(int(action))
        except Exception as exc:
            raise RuntimeError(
                f"agent {task.names[seat]!r} (seat {seat}) failed in {task.game} game "
                f"{task.index} of {task.row} vs {task.col} (seed {task.game_seed}): {exc!r}"
            ) from exc
        decisions[seat] += 1
        turn_wall += wall
        turn_cpu += cpu
        max_turn[seat] = max(max_turn[seat], turn_wall)
        max_turn_cpu[seat] = max(max_turn_cpu[seat], turn_cpu)
        stats = getattr(agents[seat], "last_stats", None)
        calls[seat] += int(getattr(stats, "fm_calls", 0))
        if getattr(stats, "searched", False):
            searches[seat] += 1
            iterations[seat] += int(getattr(stats, "iterations", 0))
        total += 1
    returns = [0.0] * n if truncated else [float(r) for r in state.returns()]
    return {
        "key": task.key,
        "game": task.game,
        "config": dict(task.config),
        "row": task.row,
        "col": task.col,
        "index": task.index,
        "level": task.level,
        "seed": task.game_seed,
        "names": list(task.names),
        "specs": list(task.specs),
        "returns": returns,
        "scores": _scores(returns),
        "truncated": truncated,
        "decisions": decisions,
        "agent_seconds": seconds,
        "fm_calls": calls,
        "searches": searches,
        "search_iterations": iterations,
        "turns": turns,
        "max_turn_seconds": max_turn,
        "max_turn_cpu_seconds": max_turn_cpu,
        "seconds": time.perf_counter() - start,
        "stats": end_statistics(state),
        "rules_version": game.spec.version,
        "agent_seeds": list(task.agent_seeds),
        "actions": actions,
    }


# ----------------------------------------------------------------------------- results file
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


# ----------------------------------------------------------------------------- summary
@dataclass
class TournamentResult:
    """Finished games of a tournament, with the tables of the papers.

    Attributes:
        game: Registry name.
        agents: Agent names in table order.
        records: One record per finished game (see :func:`play_task`).
        pending: Games not played (interrupted run).
        symmetric: Score each pair of games (one level, seats switched) as one battle (see
            :func:`pair_score`) instead of each game.
        tie_break: Per-player end statistic that decides a split pair (symmetric scoring).
    """

    game: str
    agents: list[str]
    records: list[dict[str, Any]] = field(default_factory=list)
    pending: int = 0
    symmetric: bool = False
    tie_break: str | None = None

    def scores(self, row: str, col: str | None = None) -> list[float]:
        """Scores of ``row`` in its games, or its pairs when symmetric (against ``col`` only)."""
        if self.symmetric:
            return [
                score if a == row else 1.0 - score
                for a, b, score in self.battles()
                if (a == row and col in (None, b)) or (b == row and col in (None, a))
            ]
        out = []
        for rec in self.records:
            names = rec["names"]
            if (
                row not in names
                or (col is not None and col not in names)
                or (col is None and len(set(names)) < 2)
            ):
                continue
            if col is not None and col == row:
                continue
            seats = [k for k, name in enumerate(names) if name == row]
            out.append(sum(rec["scores"][k] for k in seats) / len(seats))
        return out

    def battles(self) -> list[tuple[str, str, float]]:
        """``(row agent, column agent, row agent's score)`` of every complete pair of games.

        A pair is games ``2p`` and ``2p + 1`` of a pairing: the same level with the seats
        switched. A pair with one game missing (an interrupted run) is left out.
        """
        pairs: dict[tuple[str, str, int], dict[int, dict[str, Any]]] = {}
        for rec in self.records:
            pair, second = divmod(rec["index"], 2)
            pairs.setdefault((rec["row"], rec["col"], pair), {})[second] = rec
        return [
            (row, col, pair_score(games[0], games[1], row, col, self.tie_break))
            for (row, col, _), games in pairs.items()
            if len(games) == 2
        ]

    def matrix(self) -> list[list[tuple[float, float, int] | None]]:
        """``[row][col]`` = (win rate, standard error, games or pairs) of row against col."""
        return [
            [None if r == c else _rate(self.scores(r, c)) for c in self.agents] for r in self.agents
        ]

    def table(self) -> str:
        """The printed tables (see :func:`format_tables`)."""
        return format_tables(self)


def pair_score(
    first: Mapping[str, Any],
    second: Mapping[str, Any],
    a: str,
    b: str,
    tie_break: str | None = None,
) -> float:
    """Agent ``a``'s score in the symmetric battle of two game records against agent ``b``.

    The CotG paper's sym-win: the agent that won more of the two games scores 1 and the other
    0; when they won equally many (1:1, or two draws) the agent whose seats have the larger sum
    of the per-player end statistic ``tie_break`` over both games scores 1 (the paper: hit
    points left); 0.5 each when that is equal too, or without a tie-break.

    Raises:
        ValueError: If a game is not between ``a`` and ``b`` or lacks the tie-break statistic.
    """
    wins = {a: 0, b: 0}
    totals = {a: 0.0, b: 0.0}
    for rec in (first, second):
        names = list(rec["names"])
        if sorted(names) != sorted([a, b]):
            raise ValueError(f"game {rec.get('key')} is {names}, not a game of {a} against {b}")
        for name in (a, b):
            seat = names.index(name)
            wins[name] += rec["scores"][seat] == 1.0
            if tie_break is not None:
                value = rec["stats"].get(tie_break)
                if not isinstance(value, list):
                    raise ValueError(
                        f"tie-break {tie_break!r} is not a per-player end statistic of game "
                        f"{rec.get('key')} (it has {', '.join(sorted(rec['stats'])) or 'none'})"
                    )
                totals[name] += float(value[seat])
    if wins[a] != wins[b]:
        return 1.0 if wins[a] > wins[b] else 0.0
    if totals[a] != totals[b]:
        return 1.0 if totals[a] > totals[b] else 0.0
    return 0.5


def _rate(scores: Sequence[float]) -> tuple[float, float, int] | None:
    if not scores:
        return None
    n = len(scores)
    mean = sum(scores) / n
    var = max(0.0, sum(s * s for s in scores) / n - mean * mean)
    return mean, math.sqrt(var / n), n


def _cell(rate: tuple[float, float, int] | None) -> str:
    if rate is None:
        return "-"
    return f"{100 * rate[0]:.1f} ({100 * rate[1]:.1f})"


def _agent_stats(result: TournamentResult, name: str) -> dict[str, Any]:
    """Per-agent aggregates: record (games, or pairs when symmetric), timing, end statistics."""
    scores = result.scores(name)
    wins = sum(s == 1.0 for s in scores)
    losses = sum(s == 0.0 for s in scores)
    draws = len(scores) - wins - losses
    decisions = 0
    seconds = 0.0
    calls = 0
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for rec in result.records:
        seats = [k for k, n in enumerate(rec["names"]) if n == name]
        if not seats or len(set(rec["names"])) < 2:
            continue
        for k in seats:
            decisions += rec["decisions"][k]
            seconds += rec["agent_seconds"][k]
            calls += rec["fm_calls"][k]
        for key, value in rec.get("stats", {}).items():
            v = (sum(value[k] for k in seats) / len(seats)) if isinstance(value, list) else value
            sums[key] = sums.get(key, 0.0) + float(v)
            counts[key] = counts.get(key, 0) + 1
        sums["decisions"] = sums.get("decisions", 0.0) + sum(rec["decisions"][k] for k in seats)
        counts["decisions"] = counts.get("decisions", 0) + 1
    return {
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "ms_per_decision": 1000 * seconds / decisions if decisions else float("nan"),
        "calls_per_decision": calls / decisions if decisions else float("nan"),
        "end": {k: sums[k] / counts[k] for k in sums},
    }


def _format_rows(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    )


def format_tables(result: TournamentResult) -> str:
    """The papers' tables as text.

    1. Win rate (%) of the row agent against the column agent, standard error in brackets,
       draws counted half, with the number of games per pairing (of pairs, when symmetric).
    2. Each agent's overall score with standard error, wins/draws/losses, time and forward-model
       calls per decision.
    3. Means of the game's end-of-game statistics over each agent's games (per-player figures
       are the agent's own).
    """
    names = result.agents
    out = []
    counts = sorted({r[2] for row in result.matrix() for r in row if r is not None})
    per = (", ".join(str(c) for c in counts) or "0") + " per pairing"
    unit = "games"
    if result.symmetric:
        unit = "pairs"
        per = per.replace(" per", " symmetric pairs per")
        if result.tie_break:
            per += f"; a split pair goes to the larger {result.tie_break}"
    out.append(
        f"{result.game}: {len(result.records)} games ({per})"
        + (f", {result.pending} not played" if result.pending else "")
    )
    out.append("Win rate % of row against column (standard error); draws count half")
    matrix = result.matrix()
    rows = [["", *names]]
    for name, cells in zip(names, matrix, strict=True):
        rows.append([name] + [_cell(c) for c in cells])
    out.append(_format_rows(rows))
    out.append("")
    stats = {n: _agent_stats(result, n) for n in names}
    rows = [
        [
            "agent",
            unit,
            "score % (se)",
            "wins",
            "draws",
            "losses",
            "ms/decision",
            "calls/decision",
        ]
    ]
    for name in names:
        rate = _rate(result.scores(name))
        s = stats[name]
        rows.append(
            [
                name,
                str(rate[2] if rate else 0),
                _cell(rate),
                str(s["wins"]),
                str(s["draws"]),
                str(s["losses"]),
                f"{s['ms_per_decision']:.1f}",
                f"{s['calls_per_decision']:.0f}",
            ]
        )
    out.append("Overall")
    out.append(_format_rows(rows))
    keys = sorted(
        {k for s in stats.values() for k in s["end"]}, key=lambda k: (k == "decisions", k)
    )
    if keys:
        out.append("")
        out.append("End of game (means over each agent's games; per-player figures are its own)")
        rows = [["agent", *keys]]
        for name in names:
            end = stats[name]["end"]
            rows.append([name] + [f"{end[k]:.1f}" if k in end else "-" for k in keys])
        out.append(_format_rows(rows))
    return "\n".join(out)


def plot_heatmap(result: TournamentResult, path: str | Path) -> None:
    """Write the win-rate matrix as a heat map PNG.

    Needs matplotlib (``pip install 'stratagem[plot]'``), imported only here so that the rest of
    the tournament code runs without it.

    Raises:
        RuntimeError: If matplotlib is not installed.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise RuntimeError("--plot needs matplotlib: pip install 'stratagem[plot]'") from exc
    names = result.agents
    matrix = result.matrix()
    data = np.array([[np.nan if c is None else 100 * c[0] for c in row] for row in matrix])
    size = 1.2 + 1.1 * len(names)
    fig, ax = plt.subplots(figsize=(size + 1.5, size))
    image = ax.imshow(data, cmap="RdYlGn", vmin=0, vmax=100)
    ax.set_xticks(range(len(names)), labels=names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), labels=names)
    for i, row in enumerate(matrix):
        for j, cell in enumerate(row):
            if cell is not None:
                ax.text(
                    j,
                    i,
                    f"{100 * cell[0]:.0f}\n±{100 * cell[1]:.0f}",
                    ha="center",
                    va="center",
                    fontsize=9,
                )
    ax.set_title(f"{result.game}: win rate % of row vs column")
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


# ----------------------------------------------------------------------------- running
def run_tournament(
    game: str,
    agents: Sequence[str] | Mapping[str, str],
    *,
    games: int = 20,
    against: Sequence[str] | Mapping[str, str] | None = None,
    config: Mapping[str, Any] | None = None,
    maps: Sequence[str] | None = None,
    levels: int | None = None,
    seed: int = 0,
    workers: int = 1,
    out: str | Path | None = None,
    progress: bool = False,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    backend: str = "local",
    ray_address: str | None = None,
    level_seeds: Sequence[int] | None = None,
    symmetric: bool = False,
    tie_break: str | None = None,
) -> TournamentResult:
    """Play (or resume) a tournament and return its results.

    Args:
        game: Registry name.
        agents: Agent specs (named by themselves) or a name -> spec mapping (presets).
        games: Games per pairing.
        against: Fixed opponents for a gauntlet instead of a round robin.
        config: Game configuration keywords.
        maps: Values of the game's ``map`` option to cycle over (``"kwah:1-50"`` expands).
        levels: Number of distinct level seeds to cycle over.
        seed: Base seed.
        workers: Worker processes; 1 plays in this process. With ``backend="ray"``: the CPUs
            of the Ray instance started on this machine when no cluster address is given.
        out: JSON Lines file; finished games in it are not replayed, new ones are appended.
        progress: Show a progress bar (tqdm) on stderr.
        on_result: Called with each new record as it arrives (after it is saved).
        backend: ``local`` (worker processes here) or ``ray`` (one Ray task per game, see
            :mod:`stratagem.baselines.ray_backend`; needs the ``distributed`` extra).
        ray_address: Ray cluster to run on with ``backend="ray"`` (``None``: the
            ``RAY_ADDRESS`` variable, else a Ray instance started here and stopped after).
        level_seeds: Initial-state seeds cycled over game pairs, as given (a paper's fixed
            scenarios); not with ``levels``.
        symmetric: Score pairs of games, not games (two-player games, an even ``games``):
            the CotG paper's symmetric battles, see :func:`pair_score`. Only the tables
            change; the games played and their records are the same.
        tie_break: Per-player end statistic (``State.end_statistics``) that decides a split
            pair, e.g. ``"hp"`` in CotG combat; needs ``symmetric``.

    Raises:
        ValueError: For unknown agents, games, options or backends, or a scoring the game
            cannot have (checked before any game starts); a
            :class:`~stratagem.baselines.ray_backend.MissingExtraError` (also an
            ``ImportError``) for ``backend="ray"`` without Ray installed.
        RuntimeError: An agent failed in a game (or, on Ray, a game was lost too often).
        KeyboardInterrupt: When interrupted; every finished game is already saved.
    """
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    if ray_address and backend != "ray":
        raise ValueError("a Ray address needs backend 'ray' (--backend ray)")
    if backend == "ray":
        from stratagem.baselines.ray_backend import import_ray

        import_ray()  # without the extra, say so before anything else
    named = _named(agents)
    opponents = _named(against) if against else None
    if maps:
        maps = expand_maps(maps)
    if tie_break is not None and not symmetric:
        raise ValueError("a tie-break decides split pairs: it needs symmetric scoring")
    if symmetric and games % 2:
        raise ValueError(f"symmetric scoring plays games in pairs: games must be even, not {games}")
    tasks = make_tasks(
        game,
        named,
        games=games,
        against=opponents,
        config=config,
        maps=maps,
        levels=levels,
        seed=seed,
        level_seeds=level_seeds,
    )
    probe = _game_for(tasks[0])
    if symmetric:
        _check_symmetric(probe, tie_break)
    for spec in {**named, **(opponents or {})}.values():
        make_agent(spec, probe)  # fail now, not in a worker an hour later
    order = list(named) + [n for n in (opponents or {}) if n not in named]
    result = TournamentResult(game=game, agents=order, symmetric=symmetric, tie_break=tie_break)
    wanted = {t.key for t in tasks}
    path = Path(out) if out is not None else None
    done: dict[str, dict[str, Any]] = {}
    if path is not None:
        for rec in read_results(path):
            if rec["key"] in wanted:
                done[rec["key"]] = rec
    result.records = list(done.values())
    todo = [t for t in tasks if t.key not in done]
    result.pending = len(todo)

    def accept(record: dict[str, Any]) -> None:
        if path is not None:
            _append(path, record)
        result.records.append(record)
        result.pending -= 1
        if on_result is not None:
            on_result(record)

    bar = _progress_bar(len(tasks), len(done), progress)
    try:
        if backend == "ray":
            from stratagem.baselines.ray_backend import play_on_ray

            for record in play_on_ray(
                todo,
                address=ray_address,
                num_cpus=max(1, workers),
                rules_versions={game: probe.spec.version},
            ):
                accept(record)
                bar.update(1)
        elif workers <= 1 or len(todo) <= 1:
            for task in todo:
                accept(play_task(task))
                bar.update(1)
        else:
            ctx = mp.get_context("spawn")
            # The workers get the read end; this process alone holds the write end, so its
            # death (even by SIGKILL) is an end of file for every worker (_exit_with_parent).
            parent_alive, alive_writer = ctx.Pipe(duplex=False)
            try:
                with ctx.Pool(
                    min(workers, len(todo)),
                    initializer=_exit_with_parent,
                    initargs=(parent_alive, os.getpid()),
                ) as pool:
                    try:
                        for record in pool.imap_unordered(play_task, todo, chunksize=1):
                            accept(record)
                            bar.update(1)
                    except BaseException:
                        pool.terminate()
                        raise
            finally:
                alive_writer.close()
                parent_alive.close()
    finally:
        bar.close()
    return result


def _check_symmetric(game: Game, tie_break: str | None) -> None:
    """Refuse symmetric scoring that ``game`` cannot have, before any game is played."""
    if game.spec.num_players != 2:
        raise ValueError(
            f"symmetric scoring pairs two seats; {game.spec.name} has {game.spec.num_players}"
        )
    if tie_break is None:
        return
    stats = end_statistics(game.new_initial_state(seed=0))
    if not isinstance(stats.get(tie_break), list):
        per_player = sorted(k for k, v in stats.items() if isinstance(v, list))
        raise ValueError(
            f"tie-break {tie_break!r} is not a per-player end statistic of {game.spec.name} "
            f"(it has {', '.join(per_player) or 'none'})"
        )


#: How often a worker also checks that its parent is still the tournament process (seconds).
_PARENT_POLL = 0.5


def _exit_with_parent(parent_alive: mp.connection.Connection, parent_pid: int) -> None:
    """Worker initializer: end this worker as soon as the tournament process is gone.

    A pool worker blocks in a game, not on the pool's queues, so after ``kill -9`` of the
    tournament nothing tells it to stop: it would play its game to the end for nothing. A
    daemon thread therefore waits on ``parent_alive``, the read end of a pipe whose only write
    end the tournament process holds: when that process dies, however it dies, the kernel
    closes the write end and the wait returns (end of file). As a second guard (a write end
    inherited by a ``fork`` elsewhere would keep the pipe open) the thread also notices that
    the worker was re-parented. Works wherever ``multiprocessing`` does (Linux, macOS, Windows),
    unlike ``prctl(PR_SET_PDEATHSIG)``, which is Linux only.
    """

    def watch() -> None:
        while True:
            try:
                gone = bool(mp.connection.wait([parent_alive], timeout=_PARENT_POLL))
            except OSError:
                gone = True
            if gone or os.getppid() != parent_pid:
                os._exit(1)  # the results have nowhere to go; nothing to clean up

    threading.Thread(target=watch, name="stratagem-parent-watch", daemon=True).start()


def _named(agents: Sequence[str] | Mapping[str, str] | None) -> dict[str, str]:
    """Name -> spec; a spec given alone is its own name."""
    if agents is None:
        return {}
    if isinstance(agents, Mapping):
        named = {str(k): str(v) for k, v in agents.items()}
    else:
        named = {}
        for spec in agents:
            if spec in named:
                raise ValueError(f"agent {spec!r} is listed twice")
            named[spec] = spec
    for name, spec in named.items():
        parse_agent_spec(spec)  # raises ValueError with the offending text
        if not name:
            raise ValueError(f"empty agent name for spec {spec!r}")
    return named


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(total: int, initial: int, enabled: bool) -> Any:
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(
        total=total,
        initial=initial,
        unit="game",
        desc="games",
        dynamic_ncols=True,
        mininterval=0.5 if sys.stderr.isatty() else 30.0,
        file=sys.stderr,
    )


# ----------------------------------------------------------------------------- CLI
def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``stratagem tournament``."""
    from stratagem.envs.cli_options import add_config_argument

    p = subparsers.add_parser(
        "tournament",
        help="round robin with side switching; prints win rates with standard errors",
        description=(
            "Play every pairing of the agents on the same levels and seeds with the seats "
            "switched, in parallel, and print the win-rate matrix (row vs column, standard "
            "errors, draws count half), overall records and end-of-game statistics. With "
            "--out, games are appended to a JSON Lines file as they finish and a rerun resumes."
        ),
    )
    p.add_argument("game", help="game name (see 'stratagem games')")
    p.add_argument(
        "--agents",
        "-a",
        required=True,
        action="append",
        help="comma-separated agent specs or preset names, e.g. "
        "'mcts:budget=2000,c=1.414,rule_based,random' (repeatable)",
    )
    p.add_argument(
        "--against",
        action="append",
        default=None,
        help="fixed opponents: each --agents entry plays only these (a gauntlet)",
    )
    p.add_argument(
        "--games",
        "-n",
        type=int,
        default=20,
        help="games per pairing, seats alternating (default 20)",
    )
    p.add_argument(
        "--maps",
        nargs="+",
        default=None,
        help="maps cycled over game pairs; 'kwah:1-50' is a range (game's map option)",
    )
    p.add_argument(
        "--levels",
        type=int,
        default=None,
        help="number of distinct level seeds cycled over game pairs",
    )
    p.add_argument(
        "--level-seeds",
        nargs="+",
        default=None,
        help="initial-state seeds cycled over game pairs, as given; '2018-2067' is a range",
    )
    p.add_argument(
        "--symmetric",
        action="store_true",
        help="score each pair of games (one level, seats switched) as one battle, won by the "
        "agent that won more of the two (the CotG paper's sym-win)",
    )
    p.add_argument(
        "--tie-break",
        default=None,
        metavar="STAT",
        help="per-player end statistic deciding a split pair with --symmetric (cotg_combat: hp)",
    )
    add_config_argument(p)
    p.add_argument(
        "--workers",
        "-w",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes (default: CPU count; 1 plays in this process); with --backend "
        "ray and no cluster address, the CPUs of the Ray instance started here",
    )
    p.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local: worker processes on this machine (default); ray: one Ray task per game on "
        "a Ray cluster (pip install 'stratagem[distributed]'; docs/distributed.md)",
    )
    p.add_argument(
        "--ray-address",
        default=None,
        help="Ray cluster to join with --backend ray (default: $RAY_ADDRESS, else a Ray "
        "instance started here for the tournament)",
    )
    p.add_argument(
        "--out",
        "-o",
        default=None,
        help="JSON Lines results file, appended game by game; reruns resume",
    )
    p.add_argument("--plot", default=None, help="write a win-rate heat map PNG (matplotlib)")
    p.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    p.add_argument(
        "--agent-file", default=None, help="TOML file of named agent presets usable in --agents"
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_tournament)


def _resolve(items: Sequence[str] | None, presets: Mapping[str, str]) -> dict[str, str]:
    named: dict[str, str] = {}
    for item in items or ():
        for spec in split_agent_list(item):
            name = spec
            head, _, rest = spec.partition(":")
            if head in presets:
                spec = presets[head] + (
                    "," + rest if rest and ":" in presets[head] else (":" + rest if rest else "")
                )
            if name in named:
                raise ValueError(f"agent {name!r} is listed twice")
            named[name] = spec
    return named


def _parse_seeds(items: Sequence[str] | None) -> list[int] | None:
    """``["2018-2020", "7,9"]`` -> ``[2018, 2019, 2020, 7, 9]``.

    Raises:
        ValueError: For an item that is neither an integer nor a range ``A-B`` with ``A <= B``.
    """
    if items is None:
        return None
    seeds: list[int] = []
    for item in items:
        for part in filter(None, (p.strip() for p in item.split(","))):
            match = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
            low = int(match.group(1)) if match else 0
            high = int(match.group(2) or low) if match else -1
            if high < low:
                raise ValueError(
                    f"level seed {part!r} is neither an integer nor a range like 2018-2067"
                )
            seeds.extend(range(low, high + 1))
    return seeds


def _cmd_tournament(args: argparse.Namespace) -> int:
    from stratagem.envs.cli_options import parse_config

    presets: dict[str, str] = {}
    if args.agent_file:
        from stratagem.baselines.search.presets import load_agent_file

        presets = load_agent_file(args.agent_file)
    agents = _resolve(args.agents, presets)
    against = _resolve(args.against, presets) if args.against else None
    if args.plot:  # fail before playing for an hour, not after
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise ValueError("--plot needs matplotlib: pip install 'stratagem[plot]'") from None
    try:
        result = run_tournament(
            args.game,
            agents,
            games=args.games,
            against=against,
            config=parse_config(args.config),
            maps=args.maps,
            levels=args.levels,
            seed=args.seed,
            workers=args.workers,
            out=args.out,
            progress=not args.no_progress,
            backend=args.backend,
            ray_address=args.ray_address,
            level_seeds=_parse_seeds(args.level_seeds),
            symmetric=args.symmetric,
            tie_break=args.tie_break,
        )
    except RuntimeError as exc:  # an agent failed inside a game: one clear line, not a trace
        raise ValueError(str(exc)) from exc
    except KeyboardInterrupt:
        if args.out:
            print(
                f"interrupted: finished games are in {args.out}; rerun the same command to resume",
                file=sys.stderr,
            )
        raise
    print(result.table())
    if args.out:
        print(f"\nresults: {args.out}")
    if args.plot:
        plot_heatmap(result, args.plot)
        print(f"heat map: {args.plot}")
    return 0
