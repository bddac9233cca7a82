"""Kill The King boards: the original Stratega ASCII layouts and their loader.

A layout is whitespace-separated tokens, one row per line, ``y = 0`` first. A token is a tile
symbol (``.`` Plain, ``W`` Water, ``M`` Mountain, ``F`` Forest) or a unit symbol with its owner
digit (``k0`` is player 0's King); a unit stands on Plain, as in Stratega. Units are numbered in
reading order (row by row, left to right), which is the order the reference engine creates them
in and the order the rule-based agent walks its units.

Map names accepted by :func:`load_maps`:

* ``"default"``: the 32×17 board of ``KillTheKing.yaml``;
* ``"kwah:N"``: map ``N`` (1–50) of ``KtKMaps_kwah.yaml`` (King, Warrior, Archer, Healer a side);
* ``"kwah"``: all 50 kwah maps (all 30×21); the seed of each game picks one;
* a path to a YAML file, either a Stratega game file (``Board: Layout:``) or a maps file
  (``Maps: {name: layout}``), optionally suffixed ``:Name`` to pick one map of a maps file;
* an inline layout (any text containing a newline), handy for scenarios and tests.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import yaml

__all__ = ["TILE_SYMBOLS", "UNIT_SYMBOLS", "Board", "MapError", "load_maps", "parse_layout"]

#: Tile symbol -> (tile id, walkable). Ids index the terrain observation planes.
TILE_SYMBOLS: dict[str, tuple[int, bool]] = {
    ".": (0, True),
    "W": (1, False),
    "M": (2, False),
    "F": (3, True),
}
TILE_NAMES = ("plain", "water", "mountain", "forest")
#: Unit symbol -> unit type id (see ``rules.UNIT_NAMES``).
UNIT_SYMBOLS: dict[str, int] = {"k": 0, "w": 1, "a": 2, "h": 3}
NUM_PLAYERS = 2


class MapError(ValueError):
    """A map name, file or layout that cannot be used; the message says what is wrong."""


@dataclass(frozen=True)
class Board:
    """A parsed layout: static terrain plus the initial units.

    Attributes:
        name: Where the board came from (``"default"``, ``"kwah:17"``, a path).
        width: Number of columns.
        height: Number of rows.
        terrain: Tile id per cell, row-major (``y * width + x``).
        units: Initial units in reading order as ``(type, owner, x, y)``.
    """

    name: str
    width: int
    height: int
    terrain: tuple[int, ...]
    units: tuple[tuple[int, int, int, int], ...]


def parse_layout(text: str, name: str = "<inline>") -> Board:
    """Parse one ASCII layout.

    Raises:
        MapError: On ragged rows, unknown tokens, owners other than 0 and 1, or a player without
            a King (the game would be over before it starts).
    """
    if not isinstance(text, str):
        raise MapError(f"map {name}: layout must be a string, got {type(text).__name__}")
    rows = [line.split() for line in text.strip("\n").splitlines() if line.strip()]
    if not rows:
        raise MapError(f"map {name}: layout is empty")
    width = len(rows[0])
    terrain: list[int] = []
    units: list[tuple[int, int, int, int]] = []
    for y, row in enumerate(rows):
        if len(row) != width:
            raise MapError(f"map {name}: row {y} has {len(row)} tiles, expected {width} like row 0")
        for x, token in enumerate(row):
            if token in TILE_SYMBOLS:
                terrain.append(TILE_SYMBOLS[token][0])
                continue
            if len(token) == 2 and token[0] in UNIT_SYMBOLS and token[1].isdigit():
                owner = int(token[1])
                if owner >= NUM_PLAYERS:
                    raise MapError(
                        f"map {name}: unit {token!r} at ({x},{y}) belongs to player {owner}, "
                        f"but Kill The King has players 0 and 1"
                    )
                units.append((UNIT_SYMBOLS[token[0]], owner, x, y))
                terrain.append(TILE_SYMBOLS["."][0])
                continue
            raise MapError(
                f"map {name}: unknown token {token!r} at ({x},{y}); tiles are "
                f"{' '.join(TILE_SYMBOLS)} and units are k/w/a/h followed by the owner 0 or 1"
            )
    for player in range(NUM_PLAYERS):
        if not any(t == UNIT_SYMBOLS["k"] and o == player for t, o, _, _ in units):
            raise MapError(f"map {name}: player {player} has no King (k{player})")
    return Board(name, width, len(rows), tuple(terrain), tuple(units))


def load_maps(spec: str) -> tuple[Board, ...]:
    """Resolve a map name (see the module docstring) to one or more boards of equal size.

    Raises:
        MapError: For an unknown name, a missing or malformed file, or boards of unequal size.
    """
    if not isinstance(spec, str) or not spec:
        raise MapError(f"map must be a non-empty string, got {spec!r}")
    if "\n" in spec:
        return (parse_layout(spec),)
    return _load_named(spec)


@lru_cache(maxsize=64)
def _load_named(spec: str) -> tuple[Board, ...]:
    if spec == "default":
        doc = _read_packaged("KillTheKing.yaml")
        return (_board_from_game_yaml(doc, "default"),)
    if spec == "kwah" or spec.startswith("kwah:"):
        maps = _maps_from_yaml(_read_packaged("KtKMaps_kwah.yaml"), "kwah")
        if spec == "kwah":
            return tuple(parse_layout(text, f"kwah:{key[3:]}") for key, text in maps.items())
        number = spec[5:]
        key = f"Map{number}"
        if key not in maps:
            raise MapError(f"unknown map {spec!r}: kwah maps are kwah:1 .. kwah:{len(maps)}")
        return (parse_layout(maps[key], spec),)
    path, _, pick = spec, "", ""
    if not os.path.exists(path) and ":" in spec:
        path, _, pick = spec.rpartition(":")
    if not os.path.isfile(path):
        raise MapError(
            f"unknown map {spec!r}: expected 'default', 'kwah', 'kwah:N' (1-50), a YAML file "
            f"path (optionally 'path:MapName'), or an inline layout"
        )
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    doc = _parse_yaml(text, path)
    if isinstance(doc, dict) and "Maps" in doc:
        maps = _maps_from_yaml(doc, path)
        if pick:
            if pick not in maps:
                raise MapError(f"map file {path} has no map {pick!r}; it has {', '.join(maps)}")
            return (parse_layout(maps[pick], spec),)
        boards = tuple(parse_layout(t, f"{path}:{k}") for k, t in maps.items())
        sizes = {(b.width, b.height) for b in boards}
        if len(sizes) != 1:
            raise MapError(f"map file {path}: maps differ in size {sorted(sizes)}; pick one")
        return boards
    if pick:
        raise MapError(f"map file {path} is a game file with one board; ':{pick}' names nothing")
    return (_board_from_game_yaml(doc, path),)


def _read_packaged(filename: str) -> object:
    text = (
        resources.files("stratagem.envs.kill_the_king")
        .joinpath("data", filename)
        .read_text(encoding="utf-8")
    )
    return _parse_yaml(text, filename)


def _parse_yaml(text: str, where: str) -> object:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise MapError(f"map file {where} is not valid YAML: {exc}") from exc


def _maps_from_yaml(doc: object, where: str) -> dict[str, str]:
    maps = doc.get("Maps") if isinstance(doc, dict) else None
    if not isinstance(maps, dict) or not maps:
        raise MapError(f"map file {where}: 'Maps' must be a mapping of names to layouts")
    for key, value in maps.items():
        if not isinstance(value, str):
            raise MapError(f"map file {where}: map {key!r} is not a layout string")
    return {str(k): v for k, v in maps.items()}


def _board_from_game_yaml(doc: object, where: str) -> Board:
    board = doc.get("Board") if isinstance(doc, dict) else None
    layout = board.get("Layout") if isinstance(board, dict) else None
    if not isinstance(layout, str):
        raise MapError(f"map file {where}: expected 'Board: Layout: |' or 'Maps:' with layouts")
    return parse_layout(layout, where)
