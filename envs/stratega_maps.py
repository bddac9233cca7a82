"""Stratega ASCII boards shared by the Stratega games (Push Them All, Two Kingdoms).

Every Stratega game describes its board the same way, which is an engine fact rather than a game
rule, so the parsing lives here once:

* a layout is whitespace-separated tokens, one row per line, ``y = 0`` first, ``x`` left to
  right (tokens are split on any whitespace, so irregular spacing in the reference files, such
  as the Two Kingdoms map's row 2, parses as the engine parses it);
* a token is a tile symbol, or an entity symbol followed by its one-digit owner (``k0``), or a
  neutral entity symbol with no digit (Two Kingdoms' gold vein ``g``); an entity stands on the
  game's default tile (Plain), as in Stratega;
* entities are numbered in reading order (row by row, left to right), the order in which the
  reference engine creates them and in which its agents walk them.

A game supplies its symbol tables to :func:`parse_layout` (and checks that every player starts
with what the game needs, :func:`require_each_player`) and names its packaged files to
:func:`map_loader`, whose loader resolves (through :func:`load_boards`) the map names every
Stratega game accepts: a packaged board name (``"default"``), a packaged maps file (``"pta"`` for
all its maps, ``"pta:N"`` for map N), a YAML path (a Stratega game file with ``Board: Layout:``
or a maps file with ``Maps:``, optionally ``path:MapName``), or an inline layout (any text with a
newline).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from stratagem.envs.state_json import refuse_file_option

__all__ = [
    "COMMON_TILE_NAMES",
    "COMMON_TILE_SYMBOLS",
    "NEUTRAL",
    "Board",
    "MapError",
    "MapSource",
    "load_boards",
    "map_loader",
    "parse_layout",
    "read_yaml",
    "require_each_player",
]

#: Owner of neutral entities (the reference's neutral player id is -1).
NEUTRAL = -1

#: The four tiles every Stratega game file declares alike (Plain, Water, Mountain, Forest):
#: symbol -> (tile id, walkable). The ids index the terrain observation planes and the colours
#: of :mod:`stratagem.envs.stratega_render`, so a game that adds a tile (Push Them All's Hole)
#: numbers it after these. Two Kingdoms' Mountain also blocks sight in the reference, which
#: matters only under fog of war, which no Stratega game here has.
COMMON_TILE_SYMBOLS: Mapping[str, tuple[int, bool]] = {
    ".": (0, True),
    "W": (1, False),
    "M": (2, False),
    "F": (3, True),
}
#: Names of the common tiles by id (observation plane names, picture legend).
COMMON_TILE_NAMES: tuple[str, ...] = ("plain", "water", "mountain", "forest")


class MapError(ValueError):
    """A map name, file or layout that cannot be used; the message says what is wrong."""


@dataclass(frozen=True)
class Board:
    """A parsed layout: static terrain plus the initial entities.

    Attributes:
        name: Where the board came from (``"default"``, ``"pta:3"``, a path).
        width: Number of columns.
        height: Number of rows.
        terrain: Tile id per cell, row-major (``y * width + x``).
        units: Initial entities in reading order as ``(type, owner, x, y)``; ``owner`` is
            :data:`NEUTRAL` for neutral entities.
    """

    name: str
    width: int
    height: int
    terrain: tuple[int, ...]
    units: tuple[tuple[int, int, int, int], ...]


def parse_layout(
    text: str,
    name: str,
    *,
    game: str,
    tiles: Mapping[str, int],
    units: Mapping[str, int],
    neutral: Mapping[str, int] | None = None,
    num_players: int = 2,
    default_tile: str = ".",
) -> Board:
    """Parse one ASCII layout with a game's symbol tables.

    Args:
        text: The layout.
        name: Where it came from, for error messages and :attr:`Board.name`.
        game: The game's name, for error messages.
        tiles: Tile symbol -> tile id.
        units: Owned entity symbol -> entity type id (written with an owner digit).
        neutral: Neutral entity symbol -> entity type id (written without a digit).
        num_players: Owners must lie in ``0 .. num_players - 1``.
        default_tile: The tile an entity stands on.

    Raises:
        MapError: On an empty layout, ragged rows, unknown tokens or owners out of range.
    """
    if not isinstance(text, str):
        raise MapError(f"{game} map {name}: layout must be a string, got {type(text).__name__}")
    neutral = neutral or {}
    rows = [line.split() for line in text.strip("\n").splitlines() if line.strip()]
    if not rows:
        raise MapError(f"{game} map {name}: layout is empty")
    width = len(rows[0])
    terrain: list[int] = []
    entities: list[tuple[int, int, int, int]] = []
    for y, row in enumerate(rows):
        if len(row) != width:
            raise MapError(
                f"{game} map {name}: row {y} has {len(row)} tiles, expected {width} like row 0"
            )
        for x, token in enumerate(row):
            if token in tiles:
                terrain.append(tiles[token])
                continue
            if token in neutral:
                entities.append((neutral[token], NEUTRAL, x, y))
                terrain.append(tiles[default_tile])
                continue
            if len(token) == 2 and token[0] in units and token[1].isdigit():
                owner = int(token[1])
                if owner >= num_players:
                    raise MapError(
                        f"{game} map {name}: entity {token!r} at ({x},{y}) belongs to player "
                        f"{owner}, but the game has players 0..{num_players - 1}"
                    )
                entities.append((units[token[0]], owner, x, y))
                terrain.append(tiles[default_tile])
                continue
            owned = "/".join(units)
            extra = f"; neutral entities are {'/'.join(neutral)}" if neutral else ""
            raise MapError(
                f"{game} map {name}: unknown token {token!r} at ({x},{y}); tiles are "
                f"{' '.join(tiles)}, entities are {owned} followed by the owner digit{extra}"
            )
    return Board(name, width, len(rows), tuple(terrain), tuple(entities))


def require_each_player(
    board: Board, name: str, *, game: str, num_players: int, unit_type: int | None, what: str
) -> None:
    """Refuse a board on which a player starts without a unit of ``unit_type``.

    Such a player would have lost before the first move, so the games refuse the board when it
    is read rather than start a finished game.

    Args:
        board: The parsed board.
        name: Where it came from, for the message.
        game: The game's name, for the message.
        num_players: Players ``0 .. num_players - 1`` are checked.
        unit_type: The entity type every player needs; ``None`` for any of its entities.
        what: What the player lacks, for the message; ``{player}`` is replaced by the player.

    Raises:
        MapError: Naming the first player without one.
    """
    for player in range(num_players):
        if not any(
            o == player and (unit_type is None or t == unit_type) for t, o, _, _ in board.units
        ):
            what_ = what.format(player=player)
            raise MapError(f"{game} map {name}: player {player} has no {what_}")


def read_yaml(text: str, where: str) -> object:
    """Parse YAML text, turning syntax errors into :class:`MapError`."""
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise MapError(f"map file {where} is not valid YAML: {exc}") from exc


def maps_of(doc: object, where: str) -> dict[str, str]:
    """The ``Maps:`` table of a Stratega maps file, name -> layout."""
    maps = doc.get("Maps") if isinstance(doc, dict) else None
    if not isinstance(maps, dict) or not maps:
        raise MapError(f"map file {where}: 'Maps' must be a mapping of names to layouts")
    for key, value in maps.items():
        if not isinstance(value, str):
            raise MapError(f"map file {where}: map {key!r} is not a layout string")
    return {str(k): v for k, v in maps.items()}


def board_layout_of(doc: object, where: str) -> str:
    """The ``Board: Layout:`` text of a Stratega game file."""
    board = doc.get("Board") if isinstance(doc, dict) else None
    layout = board.get("Layout") if isinstance(board, dict) else None
    if not isinstance(layout, str):
        raise MapError(f"map file {where}: expected 'Board: Layout: |' or 'Maps:' with layouts")
    return layout


@dataclass(frozen=True)
class MapSource:
    """A packaged board or maps file a game offers under a short name.

    Attributes:
        package: The package holding the file in its ``data/`` folder.
        filename: The YAML file name.
        kind: ``"game"`` (one board under ``Board: Layout:``) or ``"maps"`` (a ``Maps:`` table
            whose keys are ``Map1``, ``Map2``, ... and are selected as ``name:N``).
        description: One line for error messages and docs.
    """

    package: str
    filename: str
    kind: str
    description: str = ""


Parser = Callable[[str, str], Board]


def refuse_untrusted_file(spec: Any, *, game: str, sources: Mapping[str, MapSource]) -> None:
    """Refuse a map that names a file while the configuration is untrusted.

    Called by the games' constructors before they load a map (the loaders cache boards by
    name, so the check cannot live behind the cache). A packaged source (``"kwah:3"``) and an
    inline layout read no file the input chose; anything else is a path.

    Raises:
        InvalidStateError: Inside :func:`~stratagem.envs.state_json.untrusted_config` for a path.
    """
    if (
        isinstance(spec, str)
        and spec
        and "\n" not in spec
        and spec.partition(":")[0] not in sources
    ):
        refuse_file_option(game, "map", spec)


def _looks_like_a_path(name: str) -> bool:
    """True for a map name written as a file path: with a directory part or a YAML suffix."""
    return os.sep in name or "/" in name or name.lower().endswith((".yaml", ".yml"))


def load_boards(
    spec: str, *, game: str, sources: Mapping[str, MapSource], parse: Parser
) -> tuple[Board, ...]:
    """Resolve a map name to one or more boards of equal size.

    Args:
        spec: ``"<source>"`` or ``"<source>:N"`` for a packaged source, a YAML path (optionally
            ``path:MapName``), or an inline layout (text containing a newline).
        game: The game's name, for error messages.
        sources: The game's packaged boards by short name.
        parse: ``parse(layout, name) -> Board`` with the game's symbols and checks.

    Raises:
        MapError: For an unknown name, a missing or malformed file, or boards of unequal size.
    """
    if not isinstance(spec, str) or not spec:
        raise MapError(f"{game}: map must be a non-empty string, got {spec!r}")
    if "\n" in spec:
        return (parse(spec, "<inline>"),)
    head, sep, pick = spec.partition(":")
    if head in sources:
        source = sources[head]
        doc = _read_packaged(source)
        if source.kind == "game":
            if sep:
                raise MapError(f"{game}: map {head!r} is a single board; {spec!r} names nothing")
            return (parse(board_layout_of(doc, source.filename), head),)
        maps = maps_of(doc, source.filename)
        if not sep:
            return _equal_size(
                tuple(parse(text, f"{head}:{key[3:]}") for key, text in maps.items()), spec, game
            )
        key = f"Map{pick}"
        if key not in maps:
            raise MapError(
                f"{game}: unknown map {spec!r}; {head} maps are {head}:1 .. {head}:{len(maps)}"
            )
        return (parse(maps[key], spec),)
    path, pick = spec, ""
    if not os.path.exists(path) and ":" in spec:
        path, _, pick = spec.rpartition(":")
    if not os.path.isfile(path):
        if _looks_like_a_path(path):
            # The caller meant a file: say what is wrong with it, not that the name is unknown.
            what = "is a directory" if os.path.isdir(path) else "does not exist"
            raise MapError(f"{game}: map file {path!r} {what}")
        names = ", ".join(
            f"'{k}'" if s.kind == "game" else f"'{k}', '{k}:N'" for k, s in sources.items()
        )
        raise MapError(
            f"{game}: unknown map {spec!r}: expected {names}, a YAML file path (optionally "
            f"'path:MapName') or an inline layout"
        )
    with open(path, encoding="utf-8") as fh:
        doc = read_yaml(fh.read(), path)
    if isinstance(doc, dict) and "Maps" in doc:
        maps = maps_of(doc, path)
        if pick:
            if pick not in maps:
                raise MapError(f"map file {path} has no map {pick!r}; it has {', '.join(maps)}")
            return (parse(maps[pick], spec),)
        return _equal_size(tuple(parse(t, f"{path}:{k}") for k, t in maps.items()), spec, game)
    if pick:
        raise MapError(f"map file {path} is a game file with one board; ':{pick}' names nothing")
    return (parse(board_layout_of(doc, path), path),)


def map_loader(
    *, game: str, sources: Mapping[str, MapSource], parse: Parser
) -> Callable[[str], tuple[Board, ...]]:
    """A game's ``load_maps``: :func:`load_boards` for its sources and parser, cached by name.

    Boards are immutable, so every game made with one map name shares one parse (the kwah set
    is 50 boards). The name is checked before the cache, which needs a hashable key.

    Args:
        game: The game's name, for error messages.
        sources: The game's packaged boards by short name.
        parse: ``parse(layout, name) -> Board`` with the game's symbols and checks.
    """

    @lru_cache(maxsize=64)
    def load_named(spec: str) -> tuple[Board, ...]:
        return load_boards(spec, game=game, sources=sources, parse=parse)

    def load_maps(spec: str) -> tuple[Board, ...]:
        """Resolve a map name (see the module docstring) to one or more boards of equal size.

        Raises:
            MapError: For an unknown name, a missing or malformed file, or boards of unequal
                size.
        """
        if not isinstance(spec, str) or not spec:
            raise MapError(f"{game}: map must be a non-empty string, got {spec!r}")
        return load_named(spec)

    return load_maps


def _equal_size(boards: tuple[Board, ...], spec: str, game: str) -> tuple[Board, ...]:
    sizes = {(b.width, b.height) for b in boards}
    if len(sizes) != 1:
        raise MapError(f"{game}: maps of {spec!r} differ in size {sorted(sizes)}; pick one")
    return boards


def _read_packaged(source: MapSource) -> object:
    text = (
        resources.files(source.package)
        .joinpath("data")
        .joinpath(source.filename)
        .read_text(encoding="utf-8")
    )
    return read_yaml(text, source.filename)
