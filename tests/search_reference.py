"""The tree search's per-node rules in numpy, as mctx states them: the compiled kernels' reference.

``training/puct.py`` computed them this way before ``training/search_kernels.py`` compiled them;
``tests/test_search_kernels.py`` checks the kernels against these functions, and
``benchmarks/search_rules_speed.py`` times the two side by side.
"""

from __future__ import annotations

import math

import numpy as np

TINY = 1e-30


def numpy_q(visits: np.ndarray, value_sum: np.ndarray, player: int) -> np.ndarray:
    out = np.zeros(len(visits))
    return np.divide(value_sum[:, player], visits, out=out, where=visits > 0)


def numpy_completed_q(prior, visits, value_sum, player, raw, value_scale, maxvisit_init):
    q = numpy_q(visits, value_sum, player)
    visited = visits > 0
    total = int(visits.sum())
    if total:
        weights = np.maximum(prior[visited], TINY)
        mixed = (raw + total * float(weights @ q[visited]) / float(weights.sum())) / (total + 1)
    else:
        mixed = raw
    completed = np.where(visited, q, mixed)
    low, high = completed.min(), completed.max()
    completed = (completed - low) / max(high - low, 1e-8)
    return (maxvisit_init + float(visits.max())) * value_scale * completed


def numpy_interior(logits, prior, visits, value_sum, player, raw, value_scale, maxvisit_init):
    z = logits + numpy_completed_q(
        prior, visits, value_sum, player, raw, value_scale, maxvisit_init
    )
    z = np.exp(z - z.max())
    return int(np.argmax(z / z.sum() - visits / (1.0 + visits.sum())))


def numpy_puct(prior, visits, value_sum, player, c_puct):
    u = c_puct * prior * math.sqrt(visits.sum() + 1) / (1.0 + visits)
    return int(np.argmax(numpy_q(visits, value_sum, player) + u))
