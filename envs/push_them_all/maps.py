"""Push Them All boards: the reference's layouts and their loader.

Tiles: ``.`` Plain, ``W`` Water, ``M`` Mountain, ``F`` Forest, ``H`` Hole (walkable: a unit that
ends up on it falls in). Units: ``w`` Warrior (the paper's *pusher*) and ``g`` Ghost, followed by
the owner digit. Parsing is the shared Stratega one (:mod:`stratagem.envs.stratega_maps`).

Map names accepted by :func:`load_maps`:

* ``"default"``: the 13×8 board of ``PushThemAll.yaml`` (2 Warriors and a Ghost a side);
* ``"pta"``: the 50 maps of ``PTAMaps.yaml``, the SCSA experiments' maps (all 50 are the same
  13×8 board with 3 Warriors a side and no Ghost); ``"pta:N"`` picks map N;
* ``"ntbea"``: the 10 maps of ``pta_ntbea_map.yaml`` used for NTBEA tuning (the same board);
  ``"ntbea:N"`` picks map N;
* a YAML path (``path`` or ``path:MapName``) or an inline layout (text with a newline).
"""

from __future__ import annotations

from stratagem.envs.stratega_maps import (
    COMMON_TILE_NAMES,
    COMMON_TILE_SYMBOLS,
    Board,
    MapError,
    MapSource,
    map_loader,
    parse_layout,
    require_each_player,
)

__all__ = ["TILE_NAMES", "TILE_SYMBOLS", "UNIT_SYMBOLS", "Board", "MapError", "load_maps"]

_PACKAGE = "stratagem.envs.push_them_all"
#: Tile symbol -> (tile id, walkable). Ids index the terrain observation planes.
HOLE = len(COMMON_TILE_NAMES)  # the one tile Push Them All adds: walkable, and deadly
TILE_SYMBOLS: dict[str, tuple[int, bool]] = {**COMMON_TILE_SYMBOLS, "H": (HOLE, True)}
TILE_NAMES = (*COMMON_TILE_NAMES, "hole")
#: Unit symbol -> unit type id (see ``rules.UNIT_NAMES``).
UNIT_SYMBOLS: dict[str, int] = {"w": 0, "g": 1}
NUM_PLAYERS = 2

SOURCES = {
    "default": MapSource(_PACKAGE, "PushThemAll.yaml", "game", "the PushThemAll.yaml board"),
    "pta": MapSource(_PACKAGE, "PTAMaps.yaml", "maps", "the SCSA experiment maps"),
    "ntbea": MapSource(_PACKAGE, "pta_ntbea_map.yaml", "maps", "the NTBEA tuning maps"),
}


def parse(text: str, name: str = "<inline>") -> Board:
    """Parse one layout and check that both players have a unit.

    Raises:
        MapError: On a malformed layout or a player without units (who would have lost
            before the first move).
    """
    board = parse_layout(
        text,
        name,
        game="push_them_all",
        tiles={s: t for s, (t, _) in TILE_SYMBOLS.items()},
        units=UNIT_SYMBOLS,
        num_players=NUM_PLAYERS,
    )
    require_each_player(
        board, name, game="push_them_all", num_players=NUM_PLAYERS, unit_type=None, what="unit"
    )
    for _, _, x, y in board.units:
        if board.terrain[y * board.width + x] == HOLE:  # pragma: no cover (units stand on Plain)
            raise MapError(f"push_them_all map {name}: a unit starts in a hole at ({x},{y})")
    return board


load_maps = map_loader(game="push_them_all", sources=SOURCES, parse=parse)
