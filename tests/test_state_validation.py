"""Saved states are untrusted input: corrupted JSON is refused, or it plays on correctly.

For every game, states from random games are written with ``to_json``, corrupted (types
swapped, numbers pushed out of range, keys removed or added, lists shortened, lengthened or
reordered) and read back with ``state_from_json``. Each corrupted text must either be refused
with :class:`InvalidStateError`, or give a state that works: its legal actions can be listed, a
few random legal moves play without error, and every observation stays finite and inside the
spec's declared bounds. The default run is short; ``-m slow`` runs the long one.

Also here: the generic checks of :func:`stratagem.envs.core.load_state_json` (deep nesting, NaN,
non-object JSON), ``current_player`` as a float, generator fields, and what
:func:`stratagem.envs.registry.state_from_json` trusts (no file paths from untrusted JSON).
"""

from __future__ import annotations

import copy
import json
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

from stratagem.envs import make_game
from stratagem.envs.core import MAX_JSON_DEPTH, Game, InvalidStateError, State
from stratagem.envs.registry import state_from_json
from stratagem.envs.testing import random_trajectory, replay

#: Configurations fuzzed per game: the defaults and a variant that adds state (fog, players).
FUZZ_CONFIGS: dict[str, tuple[dict[str, Any], ...]] = {
    "kill_the_king": ({}, {"map": "kwah:3", "max_rounds": 30}),
    "push_them_all": ({}, {"map": "pta:2", "max_rounds": 30}),
    "two_kingdoms": ({}, {"research": True, "max_rounds": 40}),
    "cotg_combat": ({}, {"units": 8, "battleships": 3, "max_rounds": 20}),
    "prismata": ({}, {"cards": "base", "max_rounds": 30}),
    "terra_mystica": ({}, {"num_players": 3}),
    "tribes": (
        {"map_size": 8, "max_rounds": 12},
        {"num_players": 3, "observability": "partial", "max_rounds": 8},
    ),
}

#: Seconds a corrupted state may take to be read and played on (a loop that never ends fails).
TIME_LIMIT = 20.0


class Hang(Exception):
    """A corrupted state took longer than :data:`TIME_LIMIT` to read or play."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the block after ``seconds`` (POSIX timers; no limit elsewhere)."""
    if sys.platform == "win32" or not hasattr(signal, "setitimer"):
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise Hang(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ----------------------------------------------------------------------------- corruption


def _paths(node: Any, rng: np.random.Generator) -> list[Any]:
    """A random path from ``node`` down: at each level stop, or go into a random child."""
    path: list[Any] = []
    while isinstance(node, (dict, list)) and len(node) and (not path or rng.random() < 0.6):
        key = rng.choice(sorted(node)) if isinstance(node, dict) else int(rng.integers(len(node)))
        path.append(str(key) if isinstance(node, dict) else key)
        node = node[path[-1]]
    return path


def _number_variants(value: int | float) -> list[Any]:
    v = int(value)
    return [v + 1, v - 1, -1, -v - 1, v * 1000 + 7, 10**9, -(10**9), 2**63, 10**30, v + 0.5]


def _replacements(value: Any) -> list[Any]:
    """Values to put in place of ``value``: other types, out-of-range numbers, other shapes."""
    out: list[Any] = [None, True, False, "x", [], {}, [value], {"k": value}, 0.0]
    if isinstance(value, bool):
        out += [0, 1, "true"]
    elif isinstance(value, int):
        out += [*_number_variants(value), float(value), str(value)]
    elif isinstance(value, float):
        out += [int(value), -1.0, 1e9, -1e9]
    elif isinstance(value, str):
        out += ["", value[:-1], value + "1", value * 3, 0, 1]
    elif isinstance(value, list):
        if value:
            out += [value[:-1], value + value[-1:], value[1:] + value[:1], value[::-1]]
            out += [[value[0]] * len(value), [0] * len(value), [-1] * len(value)]
        out += [[0], [None]]
    return out


def corrupt(data: dict[str, Any], rng: np.random.Generator) -> tuple[str, dict[str, Any]]:
    """One random corruption of a state's JSON object: ``(description, corrupted copy)``."""
    data = copy.deepcopy(data)
    state = data["state"]
    path = _paths(state, rng)
    parent: Any = state
    for key in path[:-1]:
        parent = parent[key]
    where = "state" + "".join(f"[{k!r}]" for k in path)
    kind = rng.random()
    if not path:
        key = "zzz_extra"
        state[key] = 0
        return f"add {key} to state", data
    key = path[-1]
    if kind < 0.1 and isinstance(parent, dict):
        del parent[key]
        return f"delete {where}", data
    if kind < 0.15 and isinstance(parent, dict):
        parent["zzz_extra"] = parent[key]
        return f"add a key next to {where}", data
    if kind < 0.25 and isinstance(parent, list):
        if rng.random() < 0.5:
            del parent[key]
            return f"drop {where}", data
        parent.insert(key, copy.deepcopy(parent[key]))
        return f"duplicate {where}", data
    if kind < 0.3 and isinstance(parent, list) and len(parent) > 1:
        other = int(rng.integers(len(parent)))
        parent[key], parent[other] = parent[other], parent[key]
        return f"swap {where} with item {other}", data
    options = _replacements(parent[key])
    new = options[int(rng.integers(len(options)))]
    parent[key] = new
    return f"set {where} = {json.dumps(new)[:40]}", data


# ----------------------------------------------------------------------------- checks


def sample_states(game: Game, seeds: range, points: int) -> list[str]:
    """JSON of states along random games (start, middle, end), and agents' views of them."""
    texts = []
    for seed in seeds:
        _, actions = random_trajectory(game, seed, max_steps=3000)
        for k in np.linspace(0, len(actions), points, dtype=int):
            state = replay(game, seed, actions[:k])
            texts.append(state.to_json())
            if not game.spec.perfect_information and not state.is_terminal():
                texts.append(state.observed_by(state.current_player).to_json())
    return texts


def check_usable(game: Game, state: State, rng: np.random.Generator, moves: int = 4) -> None:
    """An accepted state works: legal actions, a few moves, observations inside the bounds."""
    spec = game.spec
    low, high = spec.observation_bounds
    for step in range(moves + 1):
        for player in range(spec.num_players):
            obs = state.observation(player)
            assert obs.shape == spec.observation_shape and obs.dtype == np.float32
            assert np.all(np.isfinite(obs)), f"non-finite observation for player {player}"
            bad = np.argwhere((obs < low) | (obs > high))
            assert not len(bad), (
                f"observation of player {player} outside [{low}, {high}] at step {step}: "
                f"{obs[tuple(bad[0])]} in plane "
                f"{spec.observation_planes[bad[0][-1]] if spec.observation_planes else bad[0]}"
            )
        returns = state.returns()
        assert returns.shape == (spec.num_players,) and np.all(np.isfinite(returns))
        if state.is_terminal():
            assert not state.legal_action_mask().any()
            return
        legal = state.legal_action_list()
        assert legal, "a state that is not over has no legal action"
        state.apply(int(legal[int(rng.integers(len(legal)))]))
        assert 0 <= state.current_player < spec.num_players
    state.clone().to_json()


def fuzz(
    name: str, config: dict[str, Any], cases: int, seed: int, seeds: int = 2
) -> tuple[list[str], int]:
    """Corrupt ``cases`` states of ``name``: the failures, described, and how many were accepted.

    An empty list of failures is a pass.
    """
    game = make_game(name, **config)
    texts = sample_states(game, range(seed, seed + seeds), points=4)
    rng = np.random.default_rng(seed)
    failures: list[str] = []
    accepted = 0
    for case in range(cases):
        data = json.loads(texts[case % len(texts)])
        what, data = corrupt(data, rng)
        if rng.random() < 0.25:  # two faults at once get past checks that look at one field
            more, data = corrupt(data, rng)
            what = f"{what}; {more}"
        text = json.dumps(data)
        try:
            with time_limit(TIME_LIMIT):
                try:
                    state = game.state_from_json(text)
                except InvalidStateError:
                    continue
                accepted += 1
                check_usable(game, state, np.random.default_rng(case))
        except (Exception, Hang) as exc:  # every escape is a finding
            failures.append(f"{name}{config} case {case}: {what}: {type(exc).__name__}: {exc}")
    return failures, accepted


def _report(failures: list[str]) -> str:
    return f"{len(failures)} corrupted states escaped:\n" + "\n".join(failures[:15])


CASES = [
    pytest.param(name, config, id=f"{name}-{k}")
    for name, configs in FUZZ_CONFIGS.items()
    for k, config in enumerate(configs)
]


@pytest.mark.parametrize(("name", "config"), CASES)
def test_corrupted_states_are_refused_or_play_on(name: str, config: dict[str, Any]) -> None:
    failures, _ = fuzz(name, config, cases=1500, seed=1)
    assert not failures, _report(failures)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "config"), CASES)
def test_corrupted_states_are_refused_or_play_on_long(name: str, config: dict[str, Any]) -> None:
    failures, _ = fuzz(name, config, cases=20_000, seed=100, seeds=6)
    assert not failures, _report(failures)


# ----------------------------------------------------------------------------- regressions


def _state_json(name: str, config: dict[str, Any] | None = None, steps: int = 30) -> str:
    game = make_game(name, **(config or {}))
    state, _ = random_trajectory(game, 3, max_steps=steps)
    return state.to_json()


def _edited(text: str, edit: Callable[[dict[str, Any]], None]) -> str:
    data = json.loads(text)
    edit(data["state"])
    return json.dumps(data)


@pytest.mark.parametrize("name", sorted(FUZZ_CONFIGS))
def test_a_float_seat_is_refused_by_every_game(name: str) -> None:
    text = _state_json(name)
    for bad in (0.0, 1.0, True, "0", None, -1, 99):
        edited = _edited(text, lambda s, bad=bad: s.__setitem__("current_player", bad))
        with pytest.raises(InvalidStateError, match="current_player"):
            make_game(name).state_from_json(edited)


@pytest.mark.parametrize("name", sorted(FUZZ_CONFIGS))
def test_unknown_and_missing_fields_are_named(name: str) -> None:
    text = _state_json(name)
    game = make_game(name)
    with pytest.raises(InvalidStateError, match="zzz"):
        game.state_from_json(_edited(text, lambda s: s.__setitem__("zzz", 1)))
    key = sorted(json.loads(text)["state"])[0]
    with pytest.raises(InvalidStateError, match=key):
        game.state_from_json(_edited(text, lambda s: s.pop(key)))


def test_deep_nesting_is_an_invalid_state_not_a_recursion_error() -> None:
    text = _state_json("kill_the_king")
    envelope = json.loads(text)
    for depth in (MAX_JSON_DEPTH + 5, 100_000):
        deep = "[" * depth + "]" * depth
        bad = text.replace(json.dumps(envelope["state"]["hp"], separators=(",", ":")), deep, 1)
        assert bad != text
        with pytest.raises(InvalidStateError, match="nested deeper"):
            make_game("kill_the_king").state_from_json(bad)
        with pytest.raises(InvalidStateError, match="nested deeper"):
            state_from_json(bad)
    with pytest.raises(InvalidStateError, match="nested deeper"):
        state_from_json("[" * 100_000 + "]" * 100_000)


def test_non_json_numbers_and_non_objects_are_refused() -> None:
    game = make_game("kill_the_king")
    text = _state_json("kill_the_king")
    for bad in (
        text.replace('"tick":', '"tick":NaN,"x":', 1),
        text.replace('"tick":', '"tick":Infinity,"x":', 1),
        "[]",
        "3",
        b"\xff\xfe",
        None,
        "1" * 5000,
    ):
        with pytest.raises(InvalidStateError):
            game.state_from_json(bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidStateError):
            state_from_json(bad)  # type: ignore[arg-type]


def test_tribes_city_border_radius_is_checked() -> None:
    """A radius of 10⁹ was accepted and the next ``apply`` built a 10¹⁸-tile square."""
    text = _state_json("tribes", {"map_size": 8}, steps=10)
    game = make_game("tribes", map_size=8)
    for bad in (10**9, 0, 3, -1):

        def edit(s: dict[str, Any], bad: int = bad) -> None:
            # a city is [id, tile, tribe, level, pop, need, capital, prod, walls, radius, ...]
            s["cities"][0][9] = bad

        with pytest.raises(InvalidStateError, match="territory radius"):
            game.state_from_json(_edited(text, edit))


def test_tribes_generator_fields_are_checked() -> None:
    """Corrupted generator states escaped as AttributeError or OverflowError."""
    text = _state_json("tribes", {"map_size": 8}, steps=10)
    game = make_game("tribes", map_size=8)
    edits: list[Callable[[dict[str, Any]], None]] = [
        lambda s: s.__setitem__("rng", None),
        lambda s: s.__setitem__("rng", "PCG64"),
        lambda s: s.__setitem__("rng", []),
        lambda s: s["rng"].__setitem__("bit_generator", "Generator"),
        lambda s: s["rng"].__setitem__("bit_generator", "MT19937"),
        lambda s: s["rng"].__setitem__("bit_generator", 5),
        lambda s: s["rng"]["state"].__setitem__("state", -1),
        lambda s: s["rng"]["state"].__setitem__("state", 2**200),
        lambda s: s["rng"]["state"].__setitem__("inc", 2.5),
        lambda s: s["rng"]["state"].__setitem__("inc", 4),
        lambda s: s["rng"].__setitem__("state", None),
        lambda s: s["rng"].__setitem__("has_uint32", 7),
        lambda s: s["rng"].__setitem__("uinteger", -(2**70)),
        lambda s: s["rng"].pop("uinteger"),
        lambda s: s["rng"].__setitem__("extra", 1),
    ]
    for edit in edits:
        with pytest.raises(InvalidStateError, match="rng"):
            game.state_from_json(_edited(text, edit))


def test_terra_mystica_corruptions_that_used_to_pass() -> None:
    """Each of these was accepted and then crashed or left the observation's bounds."""
    game = make_game("terra_mystica")
    text = _state_json("terra_mystica", steps=60)
    edits: dict[str, Callable[[dict[str, Any]], None]] = {
        "pd": lambda s: s["pd"][1].__setitem__(6, 10**9),  # VP
        "score_tiles": lambda s: s["score_tiles"].__setitem__(4, -(10**9)),
        "mriv": lambda s: s.__setitem__("mriv", -1),
        "phase|inc_queue": lambda s: s.__setitem__("phase", 5),  # disagrees with the queue
        "cult_spaces": lambda s: s["cult_spaces"].__setitem__(6, 10**30),
        "fav_supply": lambda s: s["fav_supply"].__setitem__(6, 2**63),
        "bon_supply": lambda s: s["bon_supply"].__setitem__(8, -1),
        "cpend": lambda s: s.__setitem__("cpend", -1),
        "act": lambda s: s.__setitem__("act", -7),
        "bmask": lambda s: s.__setitem__("bmask", -1),
        "inc_spades": lambda s: s["inc_spades"].__setitem__(0, -1),
        "ctx": lambda s: s["ctx"].__setitem__(11, -1),
    }
    for field, edit in edits.items():
        with pytest.raises(InvalidStateError, match=field):
            game.state_from_json(_edited(text, edit))


# ----------------------------------------------------------------------------- trust


@contextmanager
def no_access_to(path: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Record (and fail) every open or existence check of ``path``."""
    import builtins
    import os.path
    import pathlib

    touched: list[str] = []
    real_open, real_exists, real_isfile = builtins.open, os.path.exists, os.path.isfile
    real_is_file = pathlib.Path.is_file

    def guard(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(target: Any, *args: Any, **kwargs: Any) -> Any:
            if str(path) in str(target):
                touched.append(f"{name}({target})")
            return real(target, *args, **kwargs)

        return wrapper

    with monkeypatch.context() as m:
        m.setattr(builtins, "open", guard("open", real_open))
        m.setattr(os.path, "exists", guard("exists", real_exists))
        m.setattr(os.path, "isfile", guard("isfile", real_isfile))
        m.setattr(pathlib.Path, "is_file", guard("Path.is_file", real_is_file))
        yield touched


def test_untrusted_state_json_opens_no_map_file(tmp_path: Any, monkeypatch: Any) -> None:
    layout = make_game("kill_the_king", map="kwah:3").boards[0]
    rows = [[".", "W", "M", "F"][t] for t in layout.terrain]
    grid = [rows[y * layout.width : (y + 1) * layout.width] for y in range(layout.height)]
    for utype, owner, x, y in layout.units:
        grid[y][x] = "kwah"[utype] + str(owner)
    map_file = tmp_path / "board.yaml"
    body = "\n".join("      " + " ".join(row) for row in grid)
    map_file.write_text("Board:\n  Layout: |-\n" + body + "\n")
    game = make_game("kill_the_king", map=str(map_file))
    text = game.new_initial_state(0).to_json()
    with no_access_to(str(map_file), monkeypatch) as touched:
        with pytest.raises(InvalidStateError, match="file path"):
            state_from_json(text)
    assert touched == []
    assert state_from_json(text, trusted=True).to_json() == text
    assert game.state_from_json(text).to_json() == text  # the caller chose the game: fine
    for spec in ("kwah:3", "default"):  # packaged maps and inline layouts need no trust
        named = make_game("kill_the_king", map=spec).new_initial_state(0).to_json()
        assert state_from_json(named).to_json() == named


def test_untrusted_tribes_json_opens_no_level_file(tmp_path: Any, monkeypatch: Any) -> None:
    level_file = tmp_path / "level.csv"
    level_file.write_text(make_game("tribes", map="SampleLevel2p").level_for_seed(0).to_csv())
    text = make_game("tribes", map=str(level_file)).new_initial_state(0).to_json()
    with no_access_to(str(level_file), monkeypatch) as touched:
        with pytest.raises(InvalidStateError, match="file path"):
            state_from_json(text)
    assert touched == []
    assert state_from_json(text, trusted=True).to_json() == text
    bundled = make_game("tribes", map="SampleLevel2p").new_initial_state(0).to_json()
    assert state_from_json(bundled).to_json() == bundled


def test_bad_configuration_in_state_json_is_an_invalid_state() -> None:
    text = _state_json("kill_the_king")
    for config in ({"colour": 1}, {"max_rounds": "ten"}, {"map": 5}, {"round_limit": 100}):
        data = json.loads(text)
        data["config"] = config
        with pytest.raises(InvalidStateError):
            state_from_json(json.dumps(data))
    data = json.loads(text)
    data["game"] = "chess"
    with pytest.raises(InvalidStateError, match="chess"):
        state_from_json(json.dumps(data))
