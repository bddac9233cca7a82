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
* ``"small:N"``: map ``N`` (1–24) of ``KtKMaps_small.yaml``, our own set of small boards (not
  from Stratega): 12×12, point-symmetric, King plus 3–4 units a side, Kings 7 to 9 moves apart,
  so that games end decided far more often than on the kwah maps;
* ``"small"``: all 24 small maps (all 12×12); the seed of each game picks one;
* a path to a YAML file, either a Stratega game file (``Board: Layout:``) or a maps file
  (``Maps: {name: layout}``), optionally suffixed ``:Name`` to pick one map of a maps file;
* an inline layout (any text containing a newline), handy for scenarios and tests.

Parsing and the name resolution are the engine facts shared by every Stratega game
(:mod:`stratagem.envs.stratega_maps`); this module supplies Kill The King's symbols and its
check that both players start with a King.
"""

from __future__ import annotations

from stratagem.envs.stratega_maps import (
    COMMON_TILE_NAMES,
    COMMON_TILE_SYMBOLS,
    Board,
    MapError,
    MapSource,
    map_loader,
    require_each_player,
)
from stratagem.envs.stratega_maps import parse_layout as _parse_stratega

__all__ = ["TILE_SYMBOLS", "UNIT_SYMBOLS", "Board", "MapError", "load_maps", "parse_layout"]

#: Tile symbol -> (tile id, walkable). Ids index the terrain observation planes.
TILE_SYMBOLS: dict[str, tuple[int, bool]] = dict(COMMON_TILE_SYMBOLS)
TILE_NAMES = COMMON_TILE_NAMES
#: Unit symbol -> unit type id (see ``rules.UNIT_NAMES``).
UNIT_SYMBOLS: dict[str, int] = {"k": 0, "w": 1, "a": 2, "h": 3}
NUM_PLAYERS = 2

_PACKAGE = "stratagem.envs.kill_the_king"
SOURCES = {
    "default": MapSource(_PACKAGE, "KillTheKing.yaml", "game", "the KillTheKing.yaml board"),
    "kwah": MapSource(_PACKAGE, "KtKMaps_kwah.yaml", "maps", "the 50 kwah maps"),
    "small": MapSource(_PACKAGE, "KtKMaps_small.yaml", "maps", "the 24 small 12x12 maps"),
}


def parse_layout(text: str, name: str = "<inline>") -> Board:
    """Parse one ASCII layout.

    Raises:
        MapError: On ragged rows, unknown tokens, owners other than 0 and 1, or a player without
            a King (the game would be over before it starts).
    """
    board = _parse_stratega(
        text,
        name,
        game="kill_the_king",
        tiles={s: t for s, (t, _) in TILE_SYMBOLS.items()},
        units=UNIT_SYMBOLS,
        num_players=NUM_PLAYERS,
    )
    require_each_player(
        board,
        name,
        game="kill_the_king",
        num_players=NUM_PLAYERS,
        unit_type=UNIT_SYMBOLS["k"],
        what="King (k{player})",
    )
    return board


load_maps = map_loader(game="kill_the_king", sources=SOURCES, parse=parse_layout)
