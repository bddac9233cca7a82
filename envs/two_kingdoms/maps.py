"""Two Kingdoms boards: the reference's layout and its loader.

Tiles: ``.`` Plain, ``W`` Water, ``M`` Mountain, ``F`` Forest. Owned entities, followed by the
owner digit: ``c`` City (the paper's *castle*), ``k`` King, ``o`` Warrior, ``w`` Worker. Neutral
entity, written without a digit: ``g`` GoldVein. Parsing is the shared Stratega one
(:mod:`stratagem.envs.stratega_maps`); tokens are split on whitespace, so the irregular spacing of
the reference file's rows 2 and 8 (``k1 . F``) puts the Forest at x = 4, as the engine does.

Map names accepted by :func:`load_maps`:

* ``"default"``: the 11×11 board of the ``tk_*.yaml`` game files (a City and a King a side, two
  gold veins in the middle);
* ``"tk"``: the 50 maps of ``TwoKingdomsMaps.yaml`` (all 50 are that same board); ``"tk:N"``
  picks map N;
* ``"ntbea"``: the 10 maps of ``tk_ntbea_maps.yaml`` used for NTBEA tuning (the same board);
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

_PACKAGE = "stratagem.envs.two_kingdoms"
#: Tile symbol -> (tile id, walkable). Ids index the terrain observation planes.
TILE_SYMBOLS: dict[str, tuple[int, bool]] = dict(COMMON_TILE_SYMBOLS)
TILE_NAMES = COMMON_TILE_NAMES
#: Owned entity symbol -> entity type id (see ``rules.UNIT_NAMES``).
UNIT_SYMBOLS: dict[str, int] = {"c": 0, "k": 1, "o": 2, "w": 3}
#: Neutral entity symbol -> entity type id.
NEUTRAL_SYMBOLS: dict[str, int] = {"g": 4}
KING = 1
NUM_PLAYERS = 2

SOURCES = {
    "default": MapSource(_PACKAGE, "TwoKingdoms.yaml", "game", "the tk_*.yaml board"),
    "tk": MapSource(_PACKAGE, "TwoKingdomsMaps.yaml", "maps", "the SCSA experiment maps"),
    "ntbea": MapSource(_PACKAGE, "tk_ntbea_maps.yaml", "maps", "the NTBEA tuning maps"),
}


def parse(text: str, name: str = "<inline>") -> Board:
    """Parse one layout and check that both players have a King.

    Raises:
        MapError: On a malformed layout or a player without a King (who would have lost before
            the first move).
    """
    board = parse_layout(
        text,
        name,
        game="two_kingdoms",
        tiles={s: t for s, (t, _) in TILE_SYMBOLS.items()},
        units=UNIT_SYMBOLS,
        neutral=NEUTRAL_SYMBOLS,
        num_players=NUM_PLAYERS,
    )
    require_each_player(
        board,
        name,
        game="two_kingdoms",
        num_players=NUM_PLAYERS,
        unit_type=KING,
        what="King (k{player})",
    )
    return board


load_maps = map_loader(game="two_kingdoms", sources=SOURCES, parse=parse)
