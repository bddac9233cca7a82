"""Differential run of Tribes against the Java reference (GAIGResearch/Tribes release 1.0).

Plays long random games in both engines on the same actions and reports, per game, the first
decision where they disagree: the legal actions (as sets of stratagem action names) or the state
(stars, scores, technologies, cities, units, board). Directions:

* ``java``: the reference's game loop draws every action uniformly from its own action list (the
  1.0 ``RandomAgent``'s rule; ``--prefer`` kinds first); stratagem replays the actions and must
  offer the same set at every decision.
* ``python``: stratagem draws uniformly from its legal actions; the reference replays them.
* ``independent``: no comparison; each engine plays its own random games (the reference's real
  ``Game.run`` loop with its ``RandomAgent``) and the branching factors are printed.

The documented deviations of ``docs/games/tribes.md`` are handled: the harness class fixes in
the reference what it can fix from outside (Altar of Peace, destroyed temples, a unit added to a
full city, the Tower of Wisdom after ruins) and flags the others; a divergence right after a
flagged deviation (or after a one-sided meeting, with partial observability) counts as
documented, and a legal-move difference that the reference's own search explains
(:func:`reference_reach`: its Dijkstra does not re-expand nodes) is counted and passed over.

Ruins are examined like any other action. Their outcome, the explorers' walks and the relocation
of units after a capture come from the game's random generator, so both engines get the same
generator: after the level is set up, the reference's ``GameState`` random generator is replaced
by ``java.util.Random(rng_seed)`` and stratagem's state draws from a bit-exact emulation of it
(:class:`stratagem.envs.tribes.JavaRandom`). Where both engines make the same draws in the same
order, every chance event agrees.

Forced decisions (only ``end_turn`` legal) are matched loosely: the reference asks its agent
even then, stratagem ends such a turn by itself when it happens after an action. The
statistics count non-forced decisions only.

Usage (after ``benchmarks/tribes_reference/build.sh /path/to/Tribes-1.0``)::

    python3 benchmarks/tribes_reference/compare.py --games 40 --direction java
    python3 benchmarks/tribes_reference/compare.py --games 20 --direction java --prefer examine
    python3 benchmarks/tribes_reference/compare.py --games 20 --direction python
    python3 benchmarks/tribes_reference/compare.py --games 20 --observability partial
    python3 benchmarks/tribes_reference/compare.py --games 100 --direction independent

Not part of the package: running it needs a Java runtime and a build of the reference. The
tests load it for the two helpers its fixtures depend on (:func:`unit_digest`,
:func:`with_java_rng`), which need neither.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.envs.tribes import JavaRandom, TribesGame, TribesState
from stratagem.envs.tribes import cities as CT
from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes.cities import C_BOUND, C_LEVEL, C_POP, C_POS, C_TRIBE, C_UNITS
from stratagem.envs.tribes.units import (
    U_HP,
    U_KILLS,
    U_MAXHP,
    U_POS,
    U_STATUS,
    U_TRIBE,
    U_TYPE,
    U_VET,
    is_road,
)

HERE = Path(__file__).resolve().parent
DEFAULT_BUILD = HERE / "build"

#: Game configurations cycled over by game index: tribes (Java enum names) and level seeds.
CONFIGS: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("XIN_XI,IMPERIUS", (1590191438878, 1590791907337, 1591330872230, 11, 12, 13, 14)),
    ("BARDUR,OUMAJI", (21, 22, 23, 24)),
    ("OUMAJI,XIN_XI", (31, 32, 33)),
    ("IMPERIUS,BARDUR,OUMAJI", (41, 42)),
    ("OUMAJI,BARDUR,IMPERIUS,XIN_XI", (999, 51)),
)


class JavaRng:
    """``java.util.Random`` behind the two methods a Tribes state draws with.

    ``integers(k)`` is ``nextInt(k)``; ``permutation(n)`` is the order that
    ``Collections.shuffle`` leaves ``0..n-1`` in, so that ``state.shuffled(items)`` shuffles
    like the reference shuffles the same list.
    """

    def __init__(self, seed: int) -> None:
        self._java = JavaRandom(seed)

    def integers(self, k: int) -> int:
        """Java's ``nextInt(k)``."""
        return self._java.next_int(int(k))

    def permutation(self, n: int) -> np.ndarray:
        """``Collections.shuffle(list(range(n)), rnd)``."""
        out = list(range(n))
        for i in range(n, 1, -1):
            j = self._java.next_int(i)
            out[i - 1], out[j] = out[j], out[i - 1]
        return np.asarray(out)


def with_java_rng(state: TribesState, seed: int) -> TribesState:
    """Make ``state`` draw its chance events from ``java.util.Random(seed)``."""
    state._rng = JavaRng(seed)  # type: ignore[assignment]
    state._rng_owned = True
    return state


def _rc(geo: Any, tile: int) -> str:
    row, col = geo.rc[tile]
    return f"({row},{col})"


def python_record(game: TribesGame, s: TribesState) -> dict[str, Any]:
    """The reference harness's record of a decision, computed from stratagem's state."""
    geo = s.geo
    legal = sorted(game.action_to_string(a) for a in s.legal_action_list())
    cities = []
    units = []
    for t in range(s.num_tribes):
        for cid in s.tcities[t]:
            c = s.cities[cid]
            cities.append(
                f"{_rc(geo, c[C_POS])} t{c[C_TRIBE]} L{c[C_LEVEL]} P{c[C_POP]} "
                f"prod{CT.production(c)} b{c[C_BOUND]} n{len(c[C_UNITS])}"
            )
    for u in s.units.values():
        units.append(
            f"{_rc(geo, u[U_POS])} {C.UNIT_NAMES[u[U_TYPE]]} t{u[U_TRIBE]} "
            f"hp{u[U_HP]}/{u[U_MAXHP]} k{u[U_KILLS]}{' vet' if u[U_VET] else ''} "
            f"{C.STATUS_NAMES[u[U_STATUS]]}"
        )
    board = []
    for tile in range(geo.n):
        res = s.resource[tile]
        bld = s.building[tile]
        board.append(
            C.TERRAIN_CHARS[s.terrain[tile]]
            + (C.RESOURCE_CHARS[res] if res != C.NO_RESOURCE else "_")
            + (f"{bld:02d}" if bld != C.NO_BUILDING else "__")
            + ("r" if is_road(s, tile) else "_")
        )
    return {
        "tick": s.tick,
        "active": s.current_player,
        "legal": legal,
        "stars": list(s.stars),
        "score": list(s.score),
        "techs": list(s.techs),
        "cities": sorted(cities),
        "units": sorted(units),
        "board": "".join(board),
    }


#: Marks the documented deviations whose effects last (see StratagemTrace.oneSidedMeeting).
TAINT = "taints the game"

# ------------------------------------------------------------------ the reference's search


class _JavaHeap:
    """``java.util.PriorityQueue`` of path nodes: a binary heap whose keys may change in place.

    The reference lowers the cost of a node already in its queue without re-inserting it, so
    the heap order it then polls in is the one this reproduces (``offer`` sifts up, ``poll``
    moves the last element to the root and sifts down; ties keep the heap's own order).
    """

    def __init__(self, cost: dict[int, float]) -> None:
        self.items: list[int] = []
        self.cost = cost

    def offer(self, node: int) -> None:
        q, cost = self.items, self.cost
        q.append(node)
        k = len(q) - 1
        while k > 0:
            parent = (k - 1) >> 1
            if cost[node] >= cost[q[parent]]:
                break
            q[k] = q[parent]
            k = parent
        q[k] = node

    def poll(self) -> int:
        q, cost = self.items, self.cost
        top = q[0]
        last = q.pop()
        if q:
            k, size, half = 0, len(q), len(q) >> 1
            while k < half:
                child = 2 * k + 1
                right = child + 1
                if right < size and cost[q[child]] > cost[q[right]]:
                    child = right
                if cost[last] <= cost[q[child]]:
                    break
                q[k] = q[child]
                k = child
            q[k] = last
        return top


def reference_reach(s: TribesState, uid: int) -> set[int]:
    """The tiles the reference's ``MoveFactory`` offers a unit: its search, reproduced.

    Same step costs as stratagem (``specs/tribes_rules.md`` section 5), but the reference's
    Dijkstra lowers the cost of a node it has already queued or expanded without expanding it
    again, so a tile reached cheaply late may not pass its saving on. stratagem runs a clean
    Dijkstra (the spec's advice); this lets the comparison tell that documented difference from
    any other.
    """
    unit = s.units[uid]
    tribe, utype, start = unit[U_TRIBE], unit[U_TYPE], unit[U_POS]
    mov = float(C.UNITS[utype].movement)
    water = utype in C.WATER_UNITS
    techs = s.techs[tribe]
    nb1 = s.geo.nb1

    def other(tile: int) -> bool:
        uid2 = s.unit_at[tile]
        return bool(uid2) and s.units[uid2][U_TRIBE] != tribe

    def road_or_city(tile: int) -> bool:
        return s.terrain[tile] == C.CITY or is_road(s, tile)

    def own_or_neutral(tile: int) -> bool:
        cid = s.tile_city[tile]
        return not cid or (cid in s.cities and s.cities[cid][C_TRIBE] == tribe)

    def neighbours(frm: int, cost_from: float) -> list[tuple[int, float]]:
        out: list[tuple[int, float]] = []
        if cost_from == mov:
            return out
        rest = mov - cost_from if cost_from < mov else mov
        on_road = road_or_city(frm) and own_or_neutral(frm)
        for tile in nb1[frm]:
            if other(tile):
                continue
            zoc = any(other(t2) for t2 in nb1[tile])
            if s.game.partial and not s.vis[tribe][tile]:
                continue
            ter = s.terrain[tile]
            if (
                (ter == C.MOUNTAIN and not techs >> C.CLIMBING & 1)
                or (ter == C.SHALLOW_WATER and not techs >> C.SAILING & 1)
                or (ter == C.DEEP_WATER and not techs >> C.NAVIGATION & 1)
            ):
                continue
            if utype == C.MIND_BENDER and ter == C.CITY:
                cid = s.tile_city[tile]
                if s.cities[cid][C_TRIBE] != tribe:
                    continue
            if water:
                step = 1.0 if ter in (C.SHALLOW_WATER, C.DEEP_WATER, C.FOG) else rest
            else:
                if ter in (C.SHALLOW_WATER, C.DEEP_WATER):
                    if s.building[tile] != C.PORT:
                        continue
                    step = rest
                elif ter in (C.FOREST, C.MOUNTAIN):
                    step = rest
                else:
                    step = 1.0
                if on_road and road_or_city(tile):
                    step = max(0.5, step / 2.0)
            if zoc:
                if cost_from + rest <= mov:
                    out.append((tile, rest))
            elif int(cost_from + step) <= mov:  # floor: costs are positive
                out.append((tile, step))
        return out

    cost = {start: 0.0}
    heap = _JavaHeap(cost)
    heap.offer(start)
    polled: set[int] = set()
    while heap.items:
        node = heap.poll()
        polled.add(node)
        for tile, step in neighbours(node, cost[node]):
            if tile not in cost:
                cost[tile] = step + cost[node]
                heap.offer(tile)
            elif step + cost[node] < cost[tile]:
                cost[tile] = step + cost[node]
    polled.discard(start)
    return {tile for tile in polled if not s.unit_at[tile]}


def dijkstra_explains(game: TribesGame, s: TribesState, ref_legal: Sequence[str]) -> bool:
    """Whether the reference's search alone explains how its legal moves differ from ours."""
    ours = {game.action_to_string(a) for a in s.legal_action_list()}
    theirs = set(ref_legal)
    differ = ours ^ theirs
    if not differ or any(not a.startswith("move ") for a in differ):
        return False
    geo = s.geo
    for uid, unit in s.units.items():
        if unit[U_TRIBE] != s.current_player:
            continue
        at = _rc(geo, unit[U_POS])
        mine = {a for a in ours if a.startswith(f"move {at}->")}
        if not mine and not any(a.startswith(f"move {at}->") for a in theirs):
            continue
        emulated = {f"move {at}->{_rc(geo, tile)}" for tile in reference_reach(s, uid)}
        if {a for a in theirs if a.startswith(f"move {at}->")} != emulated & (mine | theirs):
            return False
    return True


STATE_FIELDS = ("stars", "score", "techs", "cities", "units", "board")


def forced(record: dict[str, Any]) -> bool:
    """Only ``end_turn`` is legal."""
    return record["legal"] == ["end_turn"]


def compare_records(ref: dict[str, Any], ours: dict[str, Any]) -> list[str]:
    """What differs between the reference's record and ours (empty if nothing)."""
    out = []
    if (ref["tick"], ref["active"]) != (ours["tick"], ours["active"]):
        out.append(
            f"turn: reference tick {ref['tick']} tribe {ref['active']}, "
            f"ours tick {ours['tick']} tribe {ours['active']}"
        )
        return out
    rl, ol = set(ref["legal"]), set(ours["legal"])
    if rl != ol:
        out.append(
            f"legal: only in reference {sorted(rl - ol)}, only in stratagem {sorted(ol - rl)}"
        )
    for key in STATE_FIELDS:
        a, b = ref[key], ours[key]
        if a != b:
            if isinstance(a, list) and key in ("cities", "units"):
                out.append(
                    f"{key}: only in reference {sorted(set(a) - set(b))}, "
                    f"only in stratagem {sorted(set(b) - set(a))}"
                )
            elif key == "board":
                tiles = [
                    (k // 5, a[k : k + 5], b[k : k + 5])
                    for k in range(0, len(a), 5)
                    if a[k : k + 5] != b[k : k + 5]
                ]
                out.append(f"board (tile, reference, stratagem): {tiles[:8]}")
            else:
                out.append(f"{key}: reference {a}, stratagem {b}")
    return out


@dataclass
class GameResult:
    """One game of the differential run."""

    index: int
    tribes: str
    level_seed: int
    rng_seed: int
    mode: str = "CAPITALS"
    decisions: int = 0  # non-forced decisions compared
    divergence: str | None = None
    where: str = ""
    java_legal: list[int] = field(default_factory=list)  # unique names per non-forced decision
    java_raw: list[int] = field(default_factory=list)  # list size (duplicates included)
    py_legal: list[int] = field(default_factory=list)
    java_moves: list[int] = field(default_factory=list)
    py_moves: list[int] = field(default_factory=list)
    end: str = ""
    deviations: list[str] = field(default_factory=list)  # documented deviations met (reference)
    documented: bool = False  # the divergence follows the action of a documented deviation
    fixed: list[str] = field(default_factory=list)  # reference fixes the harness applied
    events: Counter = field(default_factory=Counter)  # ruins' bonuses, captures, attacks
    dijkstra: int = 0  # decisions whose legal moves differ only by the reference's search


#: Observability of the games: ``full`` (the paper's) or ``partial``; set by ``--observability``.
OBSERVABILITY = {"value": "full"}


def java_command(build: Path, ref: Path, args: Sequence[str]) -> list[str]:
    """The command line running the harness class of a build."""
    classes = "classes" if OBSERVABILITY["value"] == "full" else "classes-partial"
    classpath = os.pathsep.join([str(build / classes), str(ref / "lib" / "json.jar")])
    return ["java", "-cp", classpath, "core.game.StratagemTrace", *args]


def run_java(build: Path, ref: Path, args: Sequence[str]) -> None:
    """Run the harness in the reference's directory (its level generator reads data files)."""
    subprocess.run(java_command(build, ref, args), cwd=ref, check=True, capture_output=True)


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """The records of a trace file."""
    with path.open() as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _moves(names: Sequence[str]) -> int:
    return sum(1 for a in names if a.startswith("move "))


def new_game(tribes: str, level_seed: int, mode: str) -> tuple[TribesGame, TribesState]:
    """stratagem's game and initial state for a reference configuration."""
    keys = tribes.lower()
    game = TribesGame(
        map=f"seed:{level_seed}",
        tribes=keys,
        num_players=len(keys.split(",")),
        mode=mode.lower(),
        observability=OBSERVABILITY["value"],
    )
    return game, game.new_initial_state(0)


def _count_decision(res: GameResult, ref: dict[str, Any], ours: dict[str, Any]) -> None:
    """Tally a compared decision: branching factors of both engines and what it exercised.

    Both directions count the same figures for every non-forced decision they compare, so the
    statistics printed for ``java`` and ``python`` runs mean the same thing.
    """
    res.decisions += 1
    res.java_legal.append(len(ref["legal"]))
    res.java_raw.append(ref["n"])
    res.py_legal.append(len(ours["legal"]))
    res.java_moves.append(_moves(ref["legal"]))
    res.py_moves.append(_moves(ours["legal"]))
    if "examined" in ref:
        res.events["ruins: " + ref["examined"]] += 1
    kind = ref.get("action", "").split(" ")[0]
    if kind in ("capture", "attack", "convert", "upgrade", "disband", "destroy"):
        res.events[kind] += 1


def follow_java(res: GameResult, records: list[dict[str, Any]], mode: str) -> None:
    """stratagem replays the reference's actions; fills ``res``."""
    game, s = new_game(res.tribes, res.level_seed, mode)
    with_java_rng(s, res.rng_seed)
    end = records[-1]
    res.end = f"{end.get('end')} at tick {end.get('tick')}, results {end.get('results')}"
    if "deviation" in end:
        res.deviations.append(end["deviation"])
    res.fixed.extend(f for r in records for f in r.get("fixed", ()))
    tainted = False
    for k, ref in enumerate(records[:-1]):
        if "deviation" in ref:
            res.deviations.append(ref["deviation"])
            tainted = tainted or TAINT in ref["deviation"]
        if forced(ref):
            if not s.is_terminal() and (s.tick, s.current_player) == (ref["tick"], ref["active"]):
                ours = s.legal_action_list()
                if ours == [game.end_turn_action]:
                    s.apply(game.end_turn_action)
                    continue
                res.divergence = "reference: only end_turn; stratagem: " + str(
                    sorted(game.action_to_string(a) for a in ours)[:12]
                )
                res.where = f"reference decision {k} (tick {ref['tick']}, tribe {ref['active']})"
                return
            continue  # stratagem ended that turn by itself
        if s.is_terminal():
            res.divergence = "stratagem's game is over, the reference's goes on"
            res.where = f"reference decision {k} (tick {ref['tick']}, tribe {ref['active']})"
            return
        ours = python_record(game, s)
        _count_decision(res, ref, ours)
        diffs = compare_records(ref, ours)
        if _only_legal(diffs) and dijkstra_explains(game, s, ref["legal"]):
            res.dijkstra += 1
            diffs = []
        if diffs:
            res.divergence = "; ".join(diffs)
            res.documented = "deviation" in ref or tainted
            res.where = (
                f"decision {k} (tick {ref['tick']}, tribe {ref['active']}); previous actions "
                f"{[r.get('action') for r in records[max(0, k - 4) : k]]}"
            )
            return
        s.apply(game.string_to_action(ref["action"]))
    if not s.is_terminal():
        res.divergence = "the reference's game is over, stratagem's goes on"
        res.where = f"after {len(records) - 1} reference decisions (tick {s.tick})"


def drive_python(
    res: GameResult, agent_seed: int, mode: str, max_decisions: int
) -> tuple[list[dict[str, Any]], list[str]]:
    """stratagem plays uniformly random legal actions; returns its records and actions."""
    game, s = new_game(res.tribes, res.level_seed, mode)
    with_java_rng(s, res.rng_seed)
    rng = np.random.default_rng(agent_seed)
    records = []
    actions = []
    while not s.is_terminal() and len(records) < max_decisions:
        rec = python_record(game, s)
        legal = s.legal_action_list()
        action = legal[int(rng.integers(len(legal)))]
        rec["action"] = game.action_to_string(action)
        records.append(rec)
        if not forced(rec):
            actions.append(rec["action"])
        s.apply(action)
    return records, actions


def follow_python(
    res: GameResult, ours: list[dict[str, Any]], java: list[dict[str, Any]], truncated: bool
) -> None:
    """Compare the reference's replay of stratagem's actions, non-forced decision by decision."""
    end = java[-1]
    res.end = f"{end.get('end')} at tick {end.get('tick')}, results {end.get('results')}"
    res.deviations.extend(r["deviation"] for r in java if "deviation" in r)
    res.fixed.extend(f for r in java for f in r.get("fixed", ()))
    ref_list = []
    pending: str | None = None  # a deviation met on a forced decision: moved to the next one
    tainted = False
    refused = next((r for r in java if "missing" in r), None)
    for r in java[:-1]:
        if "missing" in r:
            break
        if "deviation" in r:
            pending = r["deviation"]
            tainted = tainted or TAINT in pending
        if not forced(r):
            if pending is not None:
                r = {**r, "deviation": pending}
                pending = None
            ref_list.append({**r, "tainted": tainted})
    our_list = [r for r in ours if not forced(r)]
    for k, (ref, mine) in enumerate(zip(ref_list, our_list, strict=False)):
        _count_decision(res, ref, mine)
        diffs = compare_records(ref, mine)
        if _only_legal(diffs):
            game, s = _state_at(res, ours, mine)
            if dijkstra_explains(game, s, ref["legal"]):
                res.dijkstra += 1
                diffs = []
        if diffs:
            res.divergence = "; ".join(diffs)
            res.documented = "deviation" in ref or ref["tainted"]
            res.where = (
                f"non-forced decision {k} (tick {ref['tick']}, tribe {ref['active']}); "
                f"previous actions {[r.get('action') for r in our_list[max(0, k - 4) : k]]}"
            )
            return
    if refused is not None:
        res.divergence = f"the reference refused {refused['missing']!r}"
        res.where = f"tick {refused['tick']}, tribe {refused['active']}"
        if len(our_list) > len(ref_list):
            game, s = _state_at(res, ours, our_list[len(ref_list)])
            if dijkstra_explains(game, s, refused["legal"]):
                res.documented = True
                res.divergence += " (a move only stratagem's clean Dijkstra finds)"
        return
    if len(ref_list) != len(our_list) and not truncated:
        res.divergence = (
            f"game lengths differ: reference {len(ref_list)}, stratagem {len(our_list)} "
            "non-forced decisions"
        )


def _only_legal(diffs: list[str]) -> bool:
    return len(diffs) == 1 and diffs[0].startswith("legal:")


def _state_at(
    res: GameResult, ours: list[dict[str, Any]], record: dict[str, Any]
) -> tuple[TribesGame, TribesState]:
    """stratagem's state at one of its records (replayed from the start)."""
    game, s = new_game(res.tribes, res.level_seed, res.mode)
    with_java_rng(s, res.rng_seed)
    for r in ours:
        if r is record:
            break
        s.apply(game.string_to_action(r["action"]))
    return game, s


def unit_digest(s: TribesState) -> int:
    """CRC-32 of the sorted units (position, type, tribe, health, status): the test fixtures'."""
    geo = s.geo
    rows = sorted(
        f"{geo.rc[u[U_POS]][0]},{geo.rc[u[U_POS]][1]} {C.UNIT_NAMES[u[U_TYPE]]} t{u[U_TRIBE]} "
        f"hp{u[U_HP]}/{u[U_MAXHP]} {C.STATUS_NAMES[u[U_STATUS]]}"
        for u in s.units.values()
    )
    return zlib.crc32(";".join(rows).encode())


def fixture(
    records: list[dict[str, Any]], tribes: str, level_seed: int, rng_seed: int, upto: int
) -> dict[str, Any]:
    """A compact trace for ``tests/test_tribes_reference.py`` from a reference game's records.

    stratagem replays the first ``upto`` reference decisions; every decision it presents is
    kept as ``[action, number of legal actions, CRC-32 of their sorted names, stars, scores,
    unit digest]``, with the ruins' bonuses the reference drew (``examined``: decision index to
    bonus).
    """
    game, s = new_game(tribes, level_seed, "CAPITALS")
    with_java_rng(s, rng_seed)
    decisions: list[list[Any]] = []
    examined: dict[int, str] = {}
    for ref in records[:upto]:
        if "examined" in ref:
            examined[len(decisions) - 1] = ref["examined"]
        if forced(ref) and (s.tick, s.current_player) != (ref["tick"], ref["active"]):
            continue
        names = sorted(game.action_to_string(a) for a in s.legal_action_list())
        assert names == ref["legal"], "replay the game with compare.py first: it diverges"
        crc = zlib.crc32(";".join(names).encode())
        decisions.append(
            [ref["action"], len(names), crc, list(s.stars), list(s.score), unit_digest(s)]
        )
        s.apply(game.string_to_action(ref["action"]))
    return {
        "tribes": tribes.lower(),
        "level_seed": level_seed,
        "rng_seed": rng_seed,
        "decisions": decisions,
        "examined": examined,
    }


def _mean(values: Sequence[int]) -> float:
    return float(np.mean(values)) if values else float("nan")


def summarize(results: list[GameResult], direction: str, seconds: float) -> str:
    """The report printed at the end of a run."""
    lines = [f"direction: {direction} drives; {len(results)} games in {seconds:.0f} s"]
    for r in results:
        status = (
            ("identical" + (f" but {r.dijkstra} Dijkstra-only" if r.dijkstra else ""))
            if r.divergence is None
            else "stops at a documented deviation"
            if r.documented
            else "DIVERGES"
        )
        lines.append(
            f"  game {r.index:2d} {r.tribes:30s} level {r.level_seed:>13d} rng {r.rng_seed:>3d}: "
            f"{r.decisions:4d} decisions {status}; {r.end}"
        )
        if r.deviations:
            lines.append(f"      documented deviations flagged: {r.deviations}")
        if r.divergence:
            lines.append(f"      at {r.where}")
            lines.append(f"      {r.divergence}")
    jl = [x for r in results for x in r.java_legal]
    jr = [x for r in results for x in r.java_raw]
    pl = [x for r in results for x in r.py_legal]
    jm = [x for r in results for x in r.java_moves]
    pm = [x for r in results for x in r.py_moves]
    diverged = sum(1 for r in results if r.divergence and not r.documented)
    documented = sum(1 for r in results if r.documented)
    lines.append(
        f"games {len(results)}, non-forced decisions compared {len(jl)}, "
        f"divergences {diverged}, games stopped at a documented deviation {documented}"
    )
    fixed = Counter(f for r in results for f in r.fixed)
    flagged = Counter(d.split(" (")[0] for r in results for d in r.deviations)
    events = Counter()
    for r in results:
        events.update(r.events)
    lines.append(f"exercised: {dict(sorted(events.items()))}")
    lines.append(f"reference fixes applied: {dict(fixed) or 'none'}")
    lines.append(
        "decisions whose legal moves differ only where the reference's Dijkstra does not "
        f"re-expand a node (documented): {sum(r.dijkstra for r in results)}"
    )
    lines.append(f"documented deviations flagged: {dict(flagged) or 'none'}")
    lines.append(
        f"legal actions per non-forced decision: reference {_mean(jl):.2f} "
        f"(list size with duplicates {_mean(jr):.2f}), stratagem {_mean(pl):.2f}; "
        f"moves: reference {_mean(jm):.2f}, stratagem {_mean(pm):.2f}"
    )
    return "\n".join(lines)


def python_loop_stats(tribes: str, level_seed: int, seed: int, mode: str) -> dict[str, int]:
    """stratagem's counterpart of ``StratagemLoopStats``: one uniformly random game."""
    game, _ = new_game(tribes, level_seed, mode)
    s = game.new_initial_state(seed)
    rng = np.random.default_rng([seed, 1])
    out = {"decisions": 0, "non_forced": 0, "actions": 0, "moves": 0}
    while not s.is_terminal():
        legal = s.legal_action_list()
        out["decisions"] += 1
        if len(legal) > 1:
            out["non_forced"] += 1
            out["actions"] += len(legal)
            out["moves"] += sum(1 for a in legal if s.action_kind(a) == "move")
        s.apply(legal[int(rng.integers(len(legal)))])
    return out


def independent(args: argparse.Namespace, ref: Path) -> str:
    """Each engine plays its own random games (the reference's real loop and RandomAgent)."""
    rows: list[tuple[str, str, dict[str, int]]] = []  # (engine, tribes, counts)
    for index, tribes, level_seed in configs(args.games, args.first):
        seed = 1000 + index
        if args.level is not None:
            tribes, level_seed = args.tribes, args.level
        cmd = java_command(
            args.build, ref, [str(level_seed), tribes, str(seed), str(seed), args.mode]
        )
        cmd[cmd.index("core.game.StratagemTrace")] = "core.game.StratagemLoopStats"
        done = subprocess.run(cmd, cwd=ref, check=True, capture_output=True, text=True)
        rows.append(("reference", tribes, json.loads(done.stdout.strip().splitlines()[-1])))
        rows.append(("stratagem", tribes, python_loop_stats(tribes, level_seed, seed, args.mode)))
        print(f"game {index} done", file=sys.stderr, flush=True)
    lines = [
        f"independent random games ({args.mode}, {args.observability} observability): "
        "legal actions per non-forced decision (pooled; mean of per-game means ± standard "
        "error), moves per non-forced decision, non-forced decisions per game"
    ]
    groups = sorted({tribes for _, tribes, _ in rows}, key=lambda x: (x.count(","), x))
    for group in [*groups, "all"]:
        for engine in ("reference", "stratagem"):
            games = [g for e, t, g in rows if e == engine and group in ("all", t)]
            per_game = np.array([g["actions"] / max(1, g["non_forced"]) for g in games])
            nf = sum(g["non_forced"] for g in games)
            se = per_game.std(ddof=1) / np.sqrt(len(games)) if len(games) > 1 else float("nan")
            lines.append(
                f"  {group:30s} {engine:9s} {len(games):3d} games: "
                f"{sum(g['actions'] for g in games) / nf:6.2f} ({per_game.mean():.2f} ± "
                f"{se:.2f}), moves {sum(g['moves'] for g in games) / nf:5.2f}, "
                f"{nf / len(games):4.0f} decisions"
            )
    return "\n".join(lines)


def configs(games: int, first: int) -> Iterator[tuple[int, str, int]]:
    """``(index, tribes, level seed)`` of the games, cycling over :data:`CONFIGS`."""
    for i in range(first, first + games):
        tribes, seeds = CONFIGS[i % len(CONFIGS)]
        yield i, tribes, seeds[(i // len(CONFIGS)) % len(seeds)]


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--first", type=int, default=0, help="index of the first game")
    p.add_argument(
        "--direction",
        choices=("java", "python", "independent"),
        default="java",
        help="who draws the actions; independent: each engine its own games (no comparison)",
    )
    p.add_argument("--level", type=int, default=None, help="independent: one level seed")
    p.add_argument("--tribes", default="XIN_XI,IMPERIUS", help="independent: with --level")
    p.add_argument("--mode", choices=("CAPITALS", "SCORE"), default="CAPITALS")
    p.add_argument("--observability", choices=("full", "partial"), default="full")
    p.add_argument("--build", type=Path, default=DEFAULT_BUILD, help="build.sh's output")
    p.add_argument("--max-decisions", type=int, default=100_000)
    p.add_argument("--keep", type=Path, default=None, help="keep the traces in this folder")
    p.add_argument(
        "--prefer",
        default="",
        help="java direction: comma-separated action-name prefixes the reference's agent plays "
        "whenever one is legal (e.g. examine,capture: more ruins and captures)",
    )
    args = p.parse_args(argv)
    ref = Path((args.build / "REFERENCE").read_text().strip())
    OBSERVABILITY["value"] = args.observability
    if args.direction == "independent":
        print(independent(args, ref))
        return 0
    results = []
    start = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for index, tribes, level_seed in configs(args.games, args.first):
            res = GameResult(index, tribes, level_seed, rng_seed=1000 + index, mode=args.mode)
            out = folder / f"game{index}_java.jsonl"
            common = [str(level_seed), tribes, str(res.rng_seed)]
            if args.direction == "java":
                run_java(
                    args.build,
                    ref,
                    [
                        *common,
                        str(index),
                        str(out),
                        "-",
                        str(args.max_decisions),
                        args.mode,
                        args.prefer,
                    ],
                )
                follow_java(res, list(read_jsonl(out)), args.mode)
            else:
                ours, actions = drive_python(res, index, args.mode, args.max_decisions)
                replay = folder / f"game{index}_actions.txt"
                replay.write_text("\n".join(actions) + "\n")
                with (folder / f"game{index}_python.jsonl").open("w") as fh:
                    for rec in ours:
                        fh.write(json.dumps(rec) + "\n")
                run_java(
                    args.build,
                    ref,
                    [*common, "0", str(out), str(replay), str(args.max_decisions), args.mode],
                )
                truncated = len(ours) >= args.max_decisions
                follow_python(res, ours, list(read_jsonl(out)), truncated)
            results.append(res)
            print(
                f"game {index}: {res.decisions} decisions, "
                f"{'identical' if res.divergence is None else 'diverges'}",
                file=sys.stderr,
                flush=True,
            )
    print(summarize(results, args.direction, time.time() - start))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
