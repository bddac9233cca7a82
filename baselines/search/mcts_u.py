"""MCTS with unit ordering (MCTS_u) of the Stratega papers (``stratega_rules.md`` section 6.2).

Instead of branching over every unit's actions at once, each tree node decides for **one unit**:
units take turns in a fixed order, a unit keeps control while it still has actions (in Kill The
King: its move and its attack), then the next unit in the order decides. When every unit is done
the turn is ended automatically (there is no END_TURN edge), the opponents play (uniformly at
random by default, Stratega's opponent model) and the next node starts again with the first unit.
The tree is deeper but much narrower than the flat one.

The game tells the planner which unit an action belongs to through one optional method,
``state.action_unit(action) -> unit id | None`` (``None`` for actions of no unit, such as
END_TURN); unit ids must be hashable and, for ``order="id"``, comparable. The order is the unit id
order (Stratega's code: entity creation order) or, with ``order="random"``, a random order drawn
once per game (the paper's wording) with units seen later appended.

In the real game the agent returns one action per call. The unit to act is the first unit in the
order that still has actions, which equals Stratega's persistent unit pointer whenever a unit
that has run out of actions never regains one within a turn (true in Kill The King), and needs no
memory between calls.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from stratagem.baselines.search.common import SearchStats, shuffle
from stratagem.baselines.search.config import SearchConfig, check_choice
from stratagem.baselines.search.mcts import MCTSAgent, Node
from stratagem.envs.core import ActionUnits, Game, State, optional_hook

__all__ = ["MCTSUnitAgent"]

ORDERS = ("id", "random")
_PLAYER_LEVEL = (1, 0)  # rank of actions that belong to no unit: after every unit


class MCTSUnitAgent(MCTSAgent):
    """MCTS_u: one unit per tree level, in a fixed unit order.

    Defaults are Stratega's Kill The King configuration (section 6.1 of the spec): budget 5000
    (the SCSA paper uses 10000), ``c = 1``, rollouts of total length 10, raw (unnormalised)
    values, random opponents.

    Options: those of :class:`~stratagem.baselines.search.mcts.MCTSAgent` but
    ``prioritize_root`` (the unit order chooses the root actions); ``rollout_length`` counts
    unit decisions, ``opponent="tree"`` makes opponents unit-ordered tree nodes maximising their
    own value, and ``force_end_turn`` only acts in rollouts.

    Args:
        game: The game the agent plays; its states must provide ``action_unit(action)`` and the
            game an end-turn action.
        config: The whole configuration, instead of keywords.
        order: ``"id"`` (unit id order) or ``"random"`` (a random order fixed for the game).
        **options: Configuration fields over :attr:`defaults`.

    Raises:
        ValueError: When the game has no end-turn action, or (at the first decision) when its
            states lack ``action_unit``.
    """

    name = "mcts_u"
    options = MCTSAgent.options - {"prioritize_root"}
    defaults = SearchConfig(
        budget=5000, c=1.0, rollout_length=10, rollouts=True, normalize=False, opponent="random"
    )

    def __init__(
        self,
        game: Game,
        config: SearchConfig | None = None,
        *,
        order: str = "id",
        **options: Any,
    ) -> None:
        super().__init__(game, config, **options)
        if self.end_turn is None:
            raise ValueError(
                f"mcts_u: {game.spec.name} has no end-turn action, which unit "
                f"ordering needs to close a turn once every unit is done"
            )
        check_choice("mcts_u", "order", order, ORDERS)
        self.order = order
        self._ranks: dict[tuple[int, Hashable], tuple[int, object]] = {}
        self._root_cursor: object = None

    def reset(self) -> None:
        """Forget the unit order of the previous game."""
        super().reset()
        self._ranks.clear()

    # ------------------------------------------------------------------ unit bookkeeping
    def _rank(self, player: int, unit: Hashable | None) -> tuple[int, object]:
        """Position of ``unit`` in ``player``'s order; units first seen are appended."""
        if unit is None:
            return _PLAYER_LEVEL
        key = (player, unit)
        rank = self._ranks.get(key)
        if rank is None:
            rank = (0, unit) if self.order == "id" else (0, len(self._ranks))
            self._ranks[key] = rank
        return rank

    def _groups(self, state: State) -> dict[tuple[int, object], list[int]]:
        """The playable actions of ``state`` grouped by the rank of their unit (END_TURN out)."""
        player = state.current_player
        unit_of = state.action_unit  # type: ignore[attr-defined]
        ranks = self._ranks
        end = self.end_turn
        groups: dict[tuple[int, object], list[int]] = {}
        for a in self._legal(state):
            if a == end:
                continue
            u = unit_of(a)
            rank = _PLAYER_LEVEL if u is None else ranks.get((player, u))
            if rank is None:
                rank = self._rank(player, u)
            group = groups.get(rank)
            if group is None:
                groups[rank] = [a]
            else:
                group.append(a)
        return groups

    def _unit_actions(
        self, state: State, cursor: object, prng: random.Random
    ) -> tuple[list[int], object]:
        """The actions of the unit that decides at ``state``, closing finished turns on the way.

        Units ranked before ``cursor`` are done for this turn. When no unit is left the turn is
        ended (one counted call) and, with random opponents, the opponents play (counted calls);
        ``state`` is advanced in place. Returns the deciding unit's actions in random order and
        its rank, or ``([], None)`` at a terminal state or when the budget ran out on the way.
        """
        while True:
            if state.is_terminal():
                return [], None
            if self.opponent == "random" and state.current_player != self._me:
                self._play_opponents(state, self._me, prng)
                cursor = None
                if state.current_player != self._me and not state.is_terminal():
                    return [], None  # budget spent mid-turn: a leaf
                continue
            groups = self._groups(state)
            if cursor is not None:
                groups = {r: acts for r, acts in groups.items() if r >= cursor}  # type: ignore[operator]
            if groups:
                rank = min(groups)  # type: ignore[type-var]
                actions = groups[rank]
                shuffle(actions, prng)
                return actions, rank
            if self._calls >= self._limit or self.end_turn not in self._legal_raw(state):
                return [], None
            self._step(state, self.end_turn)  # type: ignore[arg-type]
            cursor = None

    def _resolve(self, node: Node, cursor: object, prng: random.Random) -> None:
        """Give ``node`` its deciding unit's actions (``untried``) and that unit's rank."""
        node.untried, node.cursor = self._unit_actions(node.state, cursor, prng)
        node.player = node.state.current_player
        node.terminal = node.state.is_terminal()

    def _open_settle(
        self, state: State, cursor: object, depth: int, prng: random.Random
    ) -> tuple[list[int], object]:
        return self._unit_actions(state, cursor, prng)

    # ------------------------------------------------------------------ MCTS hooks
    def _root_actions(self, state: State, legal: list[int], prng: random.Random) -> list[int]:
        if optional_hook(state, ActionUnits.action_unit) is None:
            raise ValueError(
                f"mcts_u needs state.action_unit(action) to know which unit an action moves, "
                f"and {self.game.spec.name} does not provide it; use mcts instead"
            )
        if self.order == "random":
            player = state.current_player
            fresh = sorted(
                {
                    u
                    for a in legal
                    if a != self.end_turn
                    and (u := state.action_unit(a)) is not None  # type: ignore[attr-defined]
                    and (player, u) not in self._ranks
                },
                key=repr,
            )
            prng.shuffle(fresh)
            for u in fresh:
                self._rank(player, u)
        groups = self._groups(state)
        if not groups:
            self._root_cursor = None
            return [self.end_turn] if self.end_turn in legal else legal  # type: ignore[list-item]
        self._root_cursor = min(groups)  # type: ignore[type-var]
        return groups[self._root_cursor]  # type: ignore[index]

    def _make_root(self, state: State, actions: list[int], prng: random.Random) -> Node:
        root = super()._make_root(state, actions, prng)
        root.cursor = self._root_cursor
        return root

    def _new_child(self, parent: Node, state: State, prng: random.Random) -> Node:
        child = Node(state, parent.depth + 1, self.num_players)
        # The cursor carries over within a turn; a new turn starts again with the first unit.
        same_turn = state.current_player == parent.player
        self._resolve(child, parent.cursor if same_turn else None, prng)
        return child

    def _untried(self, node: Node, prng: random.Random) -> list[int]:
        # Every node gets its actions in _resolve; this is only reached for an unresolved node.
        self._resolve(node, node.cursor, prng)
        return node.untried or []

    def _root_cursor_value(self) -> object:
        return self._root_cursor

    def _search(
        self, state: State, actions: list[int], prng: random.Random, stats: SearchStats
    ) -> int:
        action = super()._search(state, actions, prng, stats)
        stats.extra["unit_rank"] = self._root_cursor
        return action
