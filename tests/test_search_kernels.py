"""The compiled per-node rules of the tree search against their numpy definitions.

The numpy functions of ``search_reference.py`` are the rules as mctx states them (and as
``training/puct.py`` wrote them before they were compiled); the kernels must choose the same
edges and give the same completed Q-values to rounding, on random nodes of every shape the
search meets: no visits, some, all, ties, one legal action, several players, any mover.
"""

from __future__ import annotations

import numpy as np
import pytest
from search_reference import TINY, numpy_completed_q, numpy_interior, numpy_puct

from stratagem.training import search_kernels as kernels
from stratagem.training.puct import Node


def random_node(rng: np.random.Generator) -> tuple:
    """A node's arrays: some edges visited, values in [-1, 1] per visit, a random mover."""
    k = int(rng.integers(1, 80))
    players = int(rng.integers(2, 5))
    prior = rng.dirichlet(np.full(k, rng.choice([0.1, 1.0])))
    if rng.random() < 0.2:
        prior[rng.integers(k)] = 0.0  # a prior of exactly 0 (floored in the weights)
    visits = np.zeros(k, dtype=np.int64)
    seen = rng.random(k) < rng.random()
    visits[seen] = rng.integers(1, 20, int(seen.sum()))
    value_sum = (rng.uniform(-1, 1, (k, players)) * visits[:, None]).astype(np.float64)
    if rng.random() < 0.2:
        value_sum[:] = 0.0  # every visited edge equal: the scale's floor
    logits = np.log(np.maximum(prior, TINY))
    player = int(rng.integers(players))
    raw = float(rng.uniform(-1, 1))
    return logits, prior, visits, value_sum, player, raw


@pytest.mark.parametrize("seed", range(40))
def test_kernels_match_the_numpy_rules(seed):
    rng = np.random.default_rng(seed)
    for _ in range(25):
        logits, prior, visits, value_sum, player, raw = random_node(rng)
        for scale, init in ((0.1, 50.0), (1.0, 0.0)):
            want = numpy_completed_q(prior, visits, value_sum, player, raw, scale, init)
            got = kernels.completed_q(prior, visits, value_sum, player, raw, scale, init)
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
            args = (logits, prior, visits, value_sum, player, raw, scale, init)
            assert kernels.gumbel_interior(*args) == numpy_interior(*args)
        for c in (0.5, 1.25, 4.0):
            args = (prior, visits, value_sum, player, c)
            assert kernels.puct_select(*args) == numpy_puct(*args)


def test_ties_go_to_the_lowest_index_as_numpy_argmax():
    prior = np.full(5, 0.2)
    visits = np.zeros(5, dtype=np.int64)
    value_sum = np.zeros((5, 2))
    logits = np.log(prior)
    assert kernels.puct_select(prior, visits, value_sum, 0, 1.0) == 0
    assert kernels.gumbel_interior(logits, prior, visits, value_sum, 1, 0.0, 0.1, 50.0) == 0
    visits[0] = 1
    assert kernels.gumbel_interior(logits, prior, visits, value_sum, 1, 0.0, 0.1, 50.0) == 1


class _Position:
    current_player = 1

    def is_terminal(self) -> bool:
        return False


def test_node_methods_read_the_movers_column():
    node = Node(_Position())  # type: ignore[arg-type]
    node.expand(np.arange(3), np.array([0.5, 0.3, 0.2]), 2, np.array([0.4, -0.4]))
    node.visits[:] = (2, 1, 0)
    node.value_sum[:] = ((2.0, -2.0), (-1.0, 1.0), (0.0, 0.0))  # seat 1 prefers edge 1
    assert node.select(0.0) == 1
    args = (node.prior, node.visits, node.value_sum, 1, -0.4, 0.1, 50.0)
    np.testing.assert_allclose(node.completed_q(0.1, 50.0), numpy_completed_q(*args))
    assert node.select_gumbel_interior(0.1, 50.0) == numpy_interior(node.logits, *args)
