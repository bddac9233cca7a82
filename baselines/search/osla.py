"""One-step look-ahead (OSLA), the simplest planner of the Tribes paper (section 3.3).

Each candidate action is applied once to a copy of the state and the resulting state is scored
by the evaluator for the acting player; the best action is played, ties broken uniformly at
random. Tribes' OSLA leaves END_TURN out unless nothing else is legal (a heuristic rarely sees
any gain in ending a turn, so ending it would otherwise win every tie); ``end_turn_last`` keeps
that behaviour.
"""

from __future__ import annotations

import random
from typing import Any

from stratagem.baselines.search.common import SearchAgent, SearchStats
from stratagem.baselines.search.config import SearchConfig
from stratagem.envs.core import Game, State

__all__ = ["OSLAAgent"]


class OSLAAgent(SearchAgent):
    """One-step look-ahead: evaluate the state after every action, play the best.

    Options (:class:`~stratagem.baselines.search.config.SearchConfig`): ``budget`` (Tribes:
    2000; with fewer calls than actions, a random subset of the actions is evaluated),
    ``time_limit``, ``evaluator``, ``exclude_kinds`` and ``prioritize_root`` (evaluate only one
    random action group).

    Args:
        game: The game the agent plays.
        config: The whole configuration, instead of keywords.
        end_turn_last: Consider ending the turn only when no other action is legal (Tribes).
        **options: Configuration fields over the defaults.
    """

    name = "osla"
    options = frozenset(("budget", "time_limit", "evaluator", "exclude_kinds", "prioritize_root"))
    unbounded_ok = True  # one evaluation per action at most

    def __init__(
        self,
        game: Game,
        config: SearchConfig | None = None,
        *,
        end_turn_last: bool = True,
        **options: Any,
    ) -> None:
        super().__init__(game, config, **options)
        self.end_turn_last = bool(end_turn_last)

    def _root_actions(self, state: State, legal: list[int], prng: random.Random) -> list[int]:
        actions = super()._root_actions(state, legal, prng)
        if self.end_turn_last and self.end_turn is not None:
            others = [a for a in actions if a != self.end_turn]
            if others:
                return others
        return actions

    def _search(
        self, state: State, actions: list[int], prng: random.Random, stats: SearchStats
    ) -> int:
        player = state.current_player
        order = list(actions)
        prng.shuffle(order)  # a random order makes the strict '>' below a random tie-break
        best_action, best_value = order[0], float("-inf")
        for action in order:
            if self._left() <= 0 or self._out_of_time():
                break
            child = state.clone()
            self._step(child, action)
            value = self._values(child)[player]
            stats.iterations += 1
            if value > best_value:
                best_action, best_value = action, value
        stats.extra["best_value"] = best_value
        return best_action
