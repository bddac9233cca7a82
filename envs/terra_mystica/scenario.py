"""Hand-built Terra Mystica positions, for rules tests, puzzles and agent debugging.

:func:`position` skips the setup and puts chosen buildings, terrains, resources and tiles on
the board, then starts a turn of the chosen player in the action phase. Names are the game
logs' (``E7``, ``TP``, ``BON4``, ``FAV11``, ``FIRE``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from stratagem.envs.terra_mystica.factions import BUILDING_NAMES
from stratagem.envs.terra_mystica.fields import BON, FAVS, PASSED, PLAYER_FIELDS
from stratagem.envs.terra_mystica.map import TERRAIN_LETTERS, TERRAIN_NAMES, parse_cell
from stratagem.envs.terra_mystica.rules import TerraMysticaGame, TerraMysticaState
from stratagem.envs.terra_mystica.tiles import BONUS_NAMES, FAVOR_NAMES

__all__ = ["position"]


def _terrain(name: str) -> int:
    key = name.strip().lower()
    for i, (full, letter) in enumerate(zip(TERRAIN_NAMES, TERRAIN_LETTERS, strict=True)):
        if key in (full, letter.lower()):
            return i
    raise ValueError(f"terra_mystica: unknown terrain {name!r}")


def position(
    game: TerraMysticaGame,
    *,
    buildings: Mapping[str, tuple[int, str]] | None = None,
    terrain: Mapping[str, str] | None = None,
    resources: Mapping[int, Mapping[str, int]] | None = None,
    bonus: Mapping[int, str] | None = None,
    favors: Mapping[int, Sequence[str]] | None = None,
    passed: Sequence[int] = (),
    round: int = 1,
    to_move: int = 0,
    seed: int = 0,
) -> TerraMysticaState:
    """An action-phase position of ``game`` built by hand.

    Args:
        game: The game (factions, tiles and options come from it and ``seed``).
        buildings: Hex name -> (player, kind) with kind ``D``, ``TP``, ``TE``, ``SH`` or ``SA``;
            the hex is turned to the owner's home terrain. No setup dwellings are placed.
        terrain: Hex name -> terrain (``plains`` or ``P`` ...) for empty hexes.
        resources: Player -> {field: value}, fields as in ``fields.PLAYER_FIELDS`` (``C``,
            ``W``, ``P``, ``P1``, ``P2``, ``P3``, ``VP``, ``FIRE``, ``SHIP``, ``KEY`` ...).
        bonus: Player -> bonus tile held (taken out of the supply).
        favors: Player -> favor tiles held (their cult steps are not applied).
        passed: Players who already passed this round.
        round: Round number, 1..6.
        to_move: The player whose turn starts.
        seed: Seed of the initial state (tiles when the game draws them).

    Raises:
        ValueError: For an unknown hex, building, field or tile, or a bad round or player.
    """
    if not 1 <= round <= 6:
        raise ValueError(f"terra_mystica: round must be 1..6, got {round}")
    st = game.new_initial_state(seed)
    n = st.n
    if not 0 <= to_move < n:
        raise ValueError(f"terra_mystica: no player {to_move}")
    st.setup_queue = ()
    st.round = round
    terrain_list = list(st.terrain)
    for name, t in (terrain or {}).items():
        terrain_list[parse_cell(name)] = _terrain(t)
    for name, (player, _) in (buildings or {}).items():
        terrain_list[parse_cell(name)] = st.F[player].home
    st.terrain = tuple(terrain_list)
    for name, (player, kind) in (buildings or {}).items():
        cell = parse_cell(name)
        if kind not in BUILDING_NAMES[1:]:
            raise ValueError(f"terra_mystica: unknown building {kind!r}")
        if not 0 <= player < n:
            raise ValueError(f"terra_mystica: no player {player}")
        st._place_building(player, cell, BUILDING_NAMES.index(kind))
    for player, tile in (bonus or {}).items():
        i = BONUS_NAMES.index(tile.upper())
        if not st.bon_supply[i]:
            raise ValueError(f"terra_mystica: bonus tile {tile} is not in the supply")
        st.bon_supply = (*st.bon_supply[:i], 0, *st.bon_supply[i + 1 :])
        st.pd[player][BON] = i
    for player, tiles in (favors or {}).items():
        for tile in tiles:
            i = FAVOR_NAMES.index(tile.upper())
            supply = list(st.fav_supply)
            supply[i] -= 1
            st.fav_supply = tuple(supply)
            st.pd[player][FAVS] |= 1 << i
            if i == 4:
                st.pd[player][PLAYER_FIELDS["TOWN_SIZE"]] = 6
    for player, values in (resources or {}).items():
        for key, value in values.items():
            if key.upper() not in PLAYER_FIELDS:
                raise ValueError(f"terra_mystica: unknown player field {key!r}")
            st.pd[player][PLAYER_FIELDS[key.upper()]] = int(value)
    for player in passed:
        st.pd[player][PASSED] = 1
        st.pass_order = (*st.pass_order, player)
    st._start_turn(to_move)
    st._legal = None
    return st
