"""The vectorised board picks are NumPy's ``default_rng(seed).integers(count)``, seed by seed."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.envs.batched.seeding import BoardPicker, board_picks


def _numpy(seeds: list[int], count: int) -> list[int]:
    return [int(np.random.default_rng(s).integers(count)) for s in seeds]


@pytest.mark.parametrize("count", [1, 2, 3, 7, 50, 1000, 2**31 + 1, 2**32 - 1])
def test_board_picks_equal_numpy(count: int) -> None:
    """Consecutive, random, edge and out-of-range (NumPy fallback) seeds, many counts."""
    rng = np.random.default_rng(count)
    seeds = (
        list(range(2000))
        + [int(s) for s in rng.integers(0, 2**32, 2000)]
        + [2**32 - 1, 2**32, 2**40 + 5, 2**63 + 1]
    )
    assert board_picks(seeds, count).tolist() == _numpy(seeds, count)


def test_lemire_rejections_fall_back_to_numpy() -> None:
    """With a count near 2^32, about half of the first draws are rejected and redrawn."""
    count = 3 * 2**30
    seeds = list(range(300))
    assert board_picks(seeds, count).tolist() == _numpy(seeds, count)


def test_board_picker_memoises_blocks_and_draws_scattered_seeds_alone() -> None:
    """Resets from a counter reuse computed blocks; scattered seeds go to NumPy one by one."""
    picker = BoardPicker(50)
    for first in range(0, 3000, 27):
        seeds = list(range(first, first + 27))
        assert picker(seeds).tolist() == _numpy(seeds, 50)
    assert 0 < len(picker._blocks) <= BoardPicker.KEEP
    scattered = [int(s) for s in np.random.default_rng(1).integers(0, 2**40, 50)]
    assert picker(scattered).tolist() == _numpy(scattered, 50)
    assert picker([]).tolist() == []
