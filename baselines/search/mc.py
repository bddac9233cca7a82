"""Flat Monte Carlo search (MC) of the Tribes paper (section 3.3).

Every iteration plays one root action followed by uniformly random actions (all players) up to a
fixed length, and scores the final state with the evaluator for the root player; the root action
with the best average is played. Root actions are tried in turns over a shuffled order, so that
every action gets the same number of samples (the Java agent draws them uniformly at random,
which gives the same expectation with more variance). Rollouts that end the game early get a
tiny tie-break so that an immediate win beats a root action whose rollouts merely happened to win
later.
"""

from __future__ import annotations

import random

from stratagem.baselines.search.common import SearchAgent, SearchStats
from stratagem.envs.core import State

__all__ = ["MCAgent"]


class MCAgent(SearchAgent):
    """Flat Monte Carlo: random rollouts after each root action, best mean value wins.

    Options (:class:`~stratagem.baselines.search.config.SearchConfig`, given as keywords or
    as ``config``): ``budget`` (Tribes: 2000), ``time_limit``, ``evaluator``,
    ``rollout_length`` (actions per iteration, the root action included; Tribes: 20),
    ``exclude_kinds`` (Tribes: ``disband|destroy``), ``prioritize_root`` and
    ``force_end_turn`` (end the turn every this many rollout steps).
    """

    name = "mc"
    options = SearchAgent.options | {"rollout_length"}

    def _search(
        self, state: State, actions: list[int], prng: random.Random, stats: SearchStats
    ) -> int:
        player = state.current_player
        order = list(actions)
        prng.shuffle(order)
        totals = [0.0] * len(order)
        counts = [0] * len(order)
        i = 0
        while self._left() > 0 and not self._out_of_time():
            k = i % len(order)
            sim = state.clone()
            self._step(sim, order[k])
            steps = 1 + self._rollout(sim, self.rollout_length - 1, prng, depth=1)
            totals[k] += self._values(sim)[player] + self._outcome_bonus(
                sim, player, self.rollout_length - steps
            )
            counts[k] += 1
            i += 1
        stats.iterations = i
        means = [t / c if c else float("-inf") for t, c in zip(totals, counts, strict=True)]
        best = max(range(len(order)), key=means.__getitem__)  # shuffled order: random tie-break
        stats.extra["root"] = {order[k]: (counts[k], means[k]) for k in range(len(order))}
        return order[best]
