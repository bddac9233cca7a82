"""The games of a tournament: pairings, levels, seats and seeds.

:func:`make_tasks` turns agents and the protocol's options into :class:`Task` objects, one per
game, each with the key that identifies it in the results file; :func:`expand_maps` and
:func:`split_agent_list` read the command line's map ranges and agent lists. Everything that
decides which games are played and with which seeds lives here, so the same options give the
same games (and keys) wherever they are scheduled.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from stratagem.envs.registry import game_entry, make_game

__all__ = ["Task", "expand_maps", "make_tasks", "split_agent_list"]


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
        ValueError: For fewer than two agents, a bad count, a negative seed, maps for a game
            without a map, or level seeds that are not integers or come with ``levels``.
    """
    config = dict(config or {})
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games per pairing must be a positive integer, got {games!r}")
    if levels is not None and (
        isinstance(levels, bool) or not isinstance(levels, int) or levels < 1
    ):
        raise ValueError(f"levels must be a positive integer, got {levels!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        # numpy's SeedSequence, which derives every game's seeds, takes no negative numbers
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
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
