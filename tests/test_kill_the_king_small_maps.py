"""The ``small`` Kill The King map set (``KtKMaps_small.yaml``): shape, fairness, loading.

``small`` is our own set of boards (not from Stratega) for training curricula: equal-sized
12×12 boards, point-symmetric so that neither side is favoured by the terrain, with every unit
able to walk to the enemy King and the Kings close enough that the armies meet quickly.
"""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

from stratagem.baselines.agent import make_agent
from stratagem.envs import make_game
from stratagem.envs.kill_the_king import (
    HEALER,
    KING,
    Board,
    KillTheKingGame,
    MapError,
    load_maps,
)
from stratagem.envs.kill_the_king.maps import SOURCES, TILE_SYMBOLS, UNIT_SYMBOLS

BOARDS = load_maps("small")
WALKABLE = {tile for tile, walkable in TILE_SYMBOLS.values() if walkable}
NEIGHBOURS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def walk_distances(board: Board, start: tuple[int, int]) -> dict[tuple[int, int], int]:
    """Moves from ``start`` to every tile reachable over walkable tiles (8 neighbours, units
    ignored: they move out of the way)."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        x, y = queue.popleft()
        for dx, dy in NEIGHBOURS:
            nx, ny = x + dx, y + dy
            if (
                0 <= nx < board.width
                and 0 <= ny < board.height
                and (nx, ny) not in dist
                and board.terrain[ny * board.width + nx] in WALKABLE
            ):
                dist[(nx, ny)] = dist[(x, y)] + 1
                queue.append((nx, ny))
    return dist


def king_of(board: Board, player: int) -> tuple[int, int]:
    (king,) = [(x, y) for t, o, x, y in board.units if t == KING and o == player]
    return king


def test_source_is_registered():
    assert "small" in SOURCES
    assert SOURCES["small"].filename == "KtKMaps_small.yaml"


def test_at_least_20_maps_of_one_size_at_most_12_by_12():
    assert len(BOARDS) >= 20
    assert {(b.width, b.height) for b in BOARDS} == {(12, 12)}
    assert [b.name for b in BOARDS] == [f"small:{i}" for i in range(1, len(BOARDS) + 1)]


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.name)
def test_kill_the_king_tiles_and_units_only(board):
    assert set(board.terrain) <= {tile for tile, _ in TILE_SYMBOLS.values()}
    for player in (0, 1):
        army = sorted(t for t, o, _, _ in board.units if o == player)
        assert set(army) <= set(UNIT_SYMBOLS.values())
        assert army.count(KING) == 1
        assert army.count(HEALER) <= 1
        assert 3 <= len(army) - 1 <= 4, f"{board.name}: player {player} has {army}"
    for _, _, x, y in board.units:
        assert board.terrain[y * board.width + x] in WALKABLE


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.name)
def test_point_symmetric(board):
    w, h = board.width, board.height
    for y in range(h):
        for x in range(w):
            assert board.terrain[y * w + x] == board.terrain[(h - 1 - y) * w + (w - 1 - x)], (
                f"{board.name}: terrain at ({x},{y}) differs from its rotation"
            )
    rotated = {(t, 1 - o, w - 1 - x, h - 1 - y) for t, o, x, y in board.units}
    assert rotated == set(board.units)


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.name)
def test_every_unit_can_walk_to_the_enemy_king(board):
    kings = [king_of(board, p) for p in (0, 1)]
    for t, owner, x, y in board.units:
        reach = walk_distances(board, (x, y))
        assert kings[1 - owner] in reach, (
            f"{board.name}: unit {t} of player {owner} at ({x},{y}) cannot reach the enemy King"
        )


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.name)
def test_kings_start_close(board):
    king0, king1 = king_of(board, 0), king_of(board, 1)
    assert 7 <= walk_distances(board, king0)[king1] <= 10


def test_maps_differ():
    layouts = {(b.terrain, b.units) for b in BOARDS}
    assert len(layouts) == len(BOARDS)
    assert len({b.terrain for b in BOARDS}) == len(BOARDS)
    for tile in ("W", "M", "F"):
        assert sum(TILE_SYMBOLS[tile][0] in b.terrain for b in BOARDS) >= 5, tile


@pytest.mark.parametrize("n", [1, 7, len(BOARDS)])
def test_small_n_picks_map_n(n):
    game = KillTheKingGame(map=f"small:{n}")
    (board,) = game.boards
    assert board.name == f"small:{n}"
    assert (board.terrain, board.units) == (BOARDS[n - 1].terrain, BOARDS[n - 1].units)
    assert game.spec.observation_shape == (12, 12, 17)


@pytest.mark.parametrize("bad", ["small:0", f"small:{len(BOARDS) + 1}", "small:99", "small:x"])
def test_small_n_out_of_range_is_a_clear_map_error(bad):
    with pytest.raises(MapError, match=rf"unknown map '{bad}'.*small:1 \.\. small:{len(BOARDS)}"):
        KillTheKingGame(map=bad)


def test_small_draws_the_map_from_the_seed():
    game = KillTheKingGame(map="small")
    assert len(game.boards) == len(BOARDS)
    assert game.spec.observation_shape == (12, 12, 17)
    assert game.spec.action_size == KillTheKingGame(map="small:1").spec.action_size
    picks = [game.new_initial_state(seed=s).board_index for s in range(100)]
    assert len(set(picks)) >= len(BOARDS) // 2
    for seed in (0, 3, 12345):
        a, b = game.new_initial_state(seed=seed), game.new_initial_state(seed=seed)
        assert a.board_index == b.board_index
        np.testing.assert_array_equal(a.observation(0), b.observation(0))
    # The registry path resolves to the same boards.
    same = make_game("kill_the_king", map="small")
    assert same.new_initial_state(seed=7).board_index == game.new_initial_state(seed=7).board_index


def test_random_games_run_to_the_end():
    game = make_game("kill_the_king", map="small")
    agent = make_agent("random", game)
    outcomes = []
    for seed in range(6):
        state = game.new_initial_state(seed=seed)
        rng = np.random.default_rng(seed)
        steps = 0
        while not state.is_terminal():
            state.apply(agent.act(state, rng=rng))
            steps += 1
            assert steps <= game.spec.max_game_length
        returns = state.returns()
        assert returns.sum() == 0
        outcomes.append(state.winner)
    assert set(outcomes) <= {-1, 0, 1}
    # Measured with these seeds: most games end with a dead King, not at the round limit.
    assert sum(w in (0, 1) for w in outcomes) >= 3
