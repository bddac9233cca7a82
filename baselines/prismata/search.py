"""Hierarchical Portfolio Search: Alpha-Beta and UCT over portfolio turns, playout evaluation.

Source: the HPS paper (``papers/prismata_hps.txt``, Algorithm 1) and ``specs/prismata_rules.md``
sections 8.4-8.6 (davechurchill/PrismataAI ``StackAlphaBetaSearch``, ``UCTSearch``, ``Eval``).

* A search node is a position at the start of a player-turn; its children are the distinct
  whole turns of a :class:`~stratagem.baselines.prismata.portfolio.Portfolio` (the root may use
  a portfolio of its own), at most ``max_children`` of them, generated lazily.
* Leaves are valued by a symmetric playout: both sides play the same scripted player to the end
  of the game; the score is ``10000 - turns`` for a win of the searching player, ``-10000 +
  turns`` for a loss (fast wins and slow losses preferred) and 0 for a draw. UCT counts wins
  only (draw 1/2).
* Alpha-Beta deepens iteratively (depth in player-turns) until the time limit, the depth limit
  or an iteration that expands no new node; players need not alternate (the node's mover says
  who maximises). It returns the best root turn of the deepest completed iteration.
* UCT adds one child per visit, tries unvisited children first, then maximises
  ``winrate + C * sqrt(ln N / n)`` (``1 - winrate`` at the opponent's nodes), C = 2, and plays
  the most visited root turn.

Our additions, for a Python engine: a ``max_playouts`` budget (machine-independent, for
reproducible experiments) next to the reference's time limit, and per-decision statistics.

The searches take the options they share with the other planners as a
:class:`~stratagem.baselines.search.config.SearchConfig` (``time_limit`` in seconds, ``budget``
in playouts, UCT's ``iterations`` (traversals) and ``c``), built from the AI file's names
(``time_limit_ms``, ``max_playouts``, ``max_traversals``, ``c``) by
:meth:`~stratagem.baselines.prismata.config.BotConfig.player`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from stratagem.baselines.prismata import heuristics as H
from stratagem.baselines.prismata.portfolio import PartialSequence, Portfolio
from stratagem.baselines.prismata.turn import Turn
from stratagem.baselines.search.config import SearchConfig, check_choice, check_int, configure
from stratagem.baselines.search.turn_uct import run_turn_uct
from stratagem.envs.prismata.rules import PrismataState

__all__ = [
    "AlphaBetaPlayer",
    "SearchStats",
    "SequencePlayer",
    "TurnPlayer",
    "UCTPlayer",
    "playout",
]

WIN_SCORE = 10000.0


@dataclass
class SearchStats:
    """What the last decision cost and found.

    Attributes:
        playouts: Playout evaluations run.
        nodes: Search nodes expanded (Alpha-Beta) or traversals (UCT).
        depth: Deepest completed Alpha-Beta iteration.
        children: Candidate turns at the root.
        seconds: Wall time of the decision.
        extra: Search-specific figures.
    """

    playouts: int = 0
    nodes: int = 0
    depth: int = 0
    children: int = 0
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


class TurnPlayer:
    """Something that chooses a whole turn: the reference's ``Player``."""

    name = "player"
    last_stats: SearchStats | None = None

    def get_move(self, state: PrismataState, rng: np.random.Generator) -> list[int]:
        """The actions of the whole turn of ``state.current_player``."""
        raise NotImplementedError

    def plan_move(
        self, state: PrismataState, rng: np.random.Generator
    ) -> tuple[list[int], list[PrismataState] | None]:
        """:meth:`get_move`, with the position before each of its actions when known.

        The agent checks, decision by decision, that the game follows its plan. A player that
        built the move by applying each action to a copy of ``state`` returns the positions
        it passed (:attr:`Turn.positions <stratagem.baselines.prismata.turn.Turn.positions>`);
        ``None`` makes the agent replay the move to check it and find them.
        """
        return self.get_move(state, rng), None


class _ScriptedPlayer(TurnPlayer):
    """A player whose move is one turn built by partial players, without search.

    Its moves and plans are that turn's actions and positions, so the scripted players differ
    only in how they build the turn (:meth:`_turn`).
    """

    def _turn(self, state: PrismataState, rng: np.random.Generator, for_plan: bool) -> Turn:
        """The turn this player builds from ``state`` (``for_plan``: see :class:`Turn`)."""
        raise NotImplementedError

    def get_move(self, state: PrismataState, rng: np.random.Generator) -> list[int]:
        """The actions of the turn the partial players build."""
        return self._turn(state, rng, False).actions

    def plan_move(
        self, state: PrismataState, rng: np.random.Generator
    ) -> tuple[list[int], list[PrismataState] | None]:
        """The turn, built as a plan (see :meth:`TurnPlayer.plan_move`)."""
        turn = self._turn(state, rng, True)
        return turn.actions, turn.positions


class SequencePlayer(_ScriptedPlayer):
    """A fixed partial player per phase (Playout, Docile, Random bots)."""

    def __init__(self, sequence: PartialSequence, name: str = "") -> None:
        self.sequence = sequence
        self.name = name or sequence.name

    def _turn(self, state: PrismataState, rng: np.random.Generator, for_plan: bool) -> Turn:
        return self.sequence.play_turn(state, rng, for_plan=for_plan)

    def next_state(self, state: PrismataState, rng: np.random.Generator) -> PrismataState:
        """The state after this player's turn (the playout step)."""
        return self.sequence.play_turn(state, rng).state


class RandomPortfolioPlayer(_ScriptedPlayer):
    """One uniformly random partial player per phase from a portfolio (Medium, Easy bots)."""

    def __init__(self, portfolio: Portfolio, name: str = "") -> None:
        self.portfolio = portfolio
        self.name = name or f"random({portfolio.name})"

    def _turn(self, state: PrismataState, rng: np.random.Generator, for_plan: bool) -> Turn:
        return self.portfolio.random_turn(state, rng, for_plan=for_plan)


def playout(
    state: PrismataState, players: tuple[SequencePlayer, SequencePlayer], rng: np.random.Generator
) -> tuple[int | None, int]:
    """Play ``players`` (per seat) to the end; returns ``(winner or -1 for a draw, turns)``."""
    s = state
    turns = 0
    while s.winner is None:
        s = players[s.current_player].next_state(s, rng)
        turns += 1
    return s.winner, turns


class _Timeout(Exception):
    pass


class _Children:
    """Lazily generated children of one node: ``(move, state)`` pairs."""

    __slots__ = ("done", "items", "source")

    def __init__(self, source: Any) -> None:
        self.source = source
        self.items: list[tuple[list[int], PrismataState]] = []
        self.done = False

    def get(self, i: int) -> tuple[list[int], PrismataState] | None:
        while len(self.items) <= i and not self.done:
            try:
                self.items.append(next(self.source))
            except StopIteration:
                self.done = True
        return self.items[i] if i < len(self.items) else None


class _Budget:
    def __init__(self, time_limit: float | None, max_playouts: int | None) -> None:
        self.start = time.perf_counter()
        self.deadline = self.start + time_limit if time_limit is not None else None
        self.max_playouts = max_playouts
        self.playouts = 0

    def out(self) -> bool:
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            return True
        return self.max_playouts is not None and self.playouts >= self.max_playouts


class _Searcher(TurnPlayer):
    """What Alpha-Beta and UCT share: portfolios, evaluation, budget.

    Options shared with the other planners (fields of
    :class:`~stratagem.baselines.search.config.SearchConfig`, given as keywords or as
    ``config``; at least one of the two must be set): ``time_limit`` (wall-clock seconds per
    decision, ``None`` for none) and ``budget`` (playouts per decision, ``None`` for none).

    Args:
        root_portfolio: Portfolio of the root's turns.
        portfolio: Portfolio of the other nodes' turns.
        playout_player: Scripted player of the evaluation playouts (both sides).
        config: The whole shared configuration, instead of its keywords.
        evaluation: ``"playout"`` (the bots) or ``"willscore"`` (summed unit values).
        max_children: Most turns generated per node (0: all).
        name: The player's name (the bot's, in error messages too).
        **options: The shared options, over :attr:`defaults`.

    Raises:
        TypeError: For a keyword the search does not take.
        ValueError: For a bad value (naming the player, the option and the value).
    """

    #: The :class:`SearchConfig` fields this search takes as keywords.
    options: ClassVar[frozenset[str]] = frozenset(("budget", "time_limit"))
    #: Its defaults: one second per decision, no playout budget.
    defaults: ClassVar[SearchConfig] = SearchConfig(budget=None, time_limit=1.0)

    def __init__(
        self,
        root_portfolio: Portfolio,
        portfolio: Portfolio,
        playout_player: SequencePlayer | None,
        config: SearchConfig | None = None,
        *,
        evaluation: str = "playout",
        max_children: int = 40,
        name: str = "",
        **options: Any,
    ) -> None:
        self.name = name or type(self).__name__
        who = f"prismata {self.name}"
        config = configure(
            type(self),
            who,
            self.options,
            self.defaults,
            config,
            options,
            unbounded_ok=True,
        )
        check_choice(who, "evaluation", evaluation, ("playout", "willscore"))
        if evaluation == "playout" and playout_player is None:
            raise ValueError(f"{who}: playout evaluation needs a playout player")
        if config.time_limit is None and config.budget is None:
            raise ValueError(f"{who}: a search needs a time limit or a playout budget")
        check_int(who, "max_children", max_children, 0)
        self.config = config
        self.root_portfolio = root_portfolio
        self.portfolio = portfolio
        self.playout_player = playout_player
        self.evaluation = evaluation
        self.time_limit = config.time_limit
        self.budget = config.budget
        self.max_children = max_children

    @property
    def time_limit_ms(self) -> float:
        """The time limit in milliseconds, as the AI file gives it (0: none)."""
        return self.time_limit * 1000.0 if self.time_limit is not None else 0.0

    @property
    def max_playouts(self) -> int:
        """The playout budget, as the AI file gives it (0: none)."""
        return self.budget or 0

    def _children(self, state: PrismataState, root: bool, rng: np.random.Generator) -> _Children:
        portfolio = self.root_portfolio if root else self.portfolio
        source = portfolio.children(state, rng)
        if self.max_children:
            source = _limit(source, self.max_children)
        return _Children(source)

    def _playout(
        self, state: PrismataState, rng: np.random.Generator, budget: _Budget
    ) -> tuple[int | None, int]:
        budget.playouts += 1
        pp = self.playout_player
        return playout(state, (pp, pp), rng)  # type: ignore[arg-type]


def _limit(source: Any, n: int) -> Any:
    for i, item in enumerate(source):
        if i >= n:
            return
        yield item


class AlphaBetaPlayer(_Searcher):
    """HPS with Alpha-Beta and iterative deepening (Master/Hard and Expert bots).

    Args:
        *args: The portfolios, the playout player and ``config`` (see :class:`_Searcher`).
        max_depth: Deepest iteration, in player-turns (at most 50 are searched).
        **kwargs: ``evaluation``, ``max_children``, ``name``, and the shared options
            ``time_limit`` (seconds) and ``budget`` (playouts) (see :class:`_Searcher`).
    """

    def __init__(self, *args: Any, max_depth: int = 20, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        check_int(f"prismata {self.name}", "max_depth", max_depth, 1)
        self.max_depth = min(max_depth, 50)

    def get_move(self, state: PrismataState, rng: np.random.Generator) -> list[int]:
        """Iteratively deepened Alpha-Beta over portfolio turns; the best root turn."""
        budget = _Budget(self.time_limit, self.budget)
        stats = SearchStats()
        self._root_player = state.current_player
        self._rng = rng
        self._budget = budget
        self._stats = stats
        self._cache: dict[tuple[int, ...], _Children] = {}
        best_move: list[int] | None = None
        partial_best: list[int] | None = None
        previous_nodes = -1
        for depth in range(1, self.max_depth + 1):
            self._iteration = {"move": None, "value": -math.inf}
            before = stats.nodes
            try:
                self._search(state, 0, depth, -math.inf, math.inf, ())
            except _Timeout:
                partial_best = self._iteration["move"]
                break
            best_move = self._iteration["move"]
            stats.depth = depth
            expanded = stats.nodes - before
            if expanded == previous_nodes:
                break
            previous_nodes = expanded
            if budget.out():
                break
        root = self._cache.get(())
        stats.children = len(root.items) if root is not None else 0
        stats.seconds = time.perf_counter() - budget.start
        stats.playouts = budget.playouts
        self.last_stats = stats
        if best_move is None:
            best_move = partial_best
        if best_move is None:  # not even one child valued: the first root turn
            first = self._children_of(state, ())
            item = first.get(0)
            best_move = item[0] if item is not None else []
        self._cache = {}
        return best_move

    def _children_of(self, state: PrismataState, path: tuple[int, ...]) -> _Children:
        children = self._cache.get(path)
        if children is None:
            children = self._cache[path] = self._children(state, not path, self._rng)
        return children

    def _evaluate(self, state: PrismataState) -> float:
        if self.evaluation == "willscore":
            me = self._root_player
            if state.winner is not None:
                return (
                    0.0 if state.winner < 0 else (WIN_SCORE if state.winner == me else -WIN_SCORE)
                )
            return H.will_score_sum(state, me) - H.will_score_sum(state, 1 - me)
        winner, turns = self._playout(state, self._rng, self._budget)
        if winner is None or winner < 0:
            return 0.0
        return WIN_SCORE - turns if winner == self._root_player else -WIN_SCORE + turns

    def _search(
        self,
        state: PrismataState,
        depth: int,
        max_depth: int,
        alpha: float,
        beta: float,
        path: tuple[int, ...],
    ) -> float:
        if self._budget.out():
            raise _Timeout
        self._stats.nodes += 1
        if depth >= max_depth or state.winner is not None:
            return self._evaluate(state)
        children = self._children_of(state, path)
        maximise = state.current_player == self._root_player
        i = 0
        while True:
            item = children.get(i)
            if item is None:
                break
            move, child = item
            if depth == 0 and self._iteration["move"] is None:
                self._iteration["move"] = move
            value = self._search(child, depth + 1, max_depth, alpha, beta, (*path, i))
            if maximise and value > alpha:
                alpha = value
            elif not maximise and value < beta:
                beta = value
            if depth == 0 and value > self._iteration["value"]:
                self._iteration["move"] = move
                self._iteration["value"] = value
            if alpha >= beta:
                break
            i += 1
        return alpha if maximise else beta


class _Node:
    __slots__ = ("children", "move", "mover", "source", "state", "terminal", "visits", "wins")

    def __init__(self, state: PrismataState, mover: int, move: list[int]) -> None:
        self.state = state
        self.terminal = state.winner is not None
        self.mover = mover
        self.move = move
        self.children: list[_Node] = []
        self.source: _Children | None = None
        self.visits = 0
        self.wins = 0.0


class UCTPlayer(_Searcher):
    """HPS with UCT (the Master bot).

    Args:
        *args: The portfolios, the playout player and ``config`` (see :class:`_Searcher`).
        **kwargs: ``evaluation``, ``max_children``, ``name`` (see :class:`_Searcher`) and the
            shared options ``time_limit`` (seconds), ``budget`` (playouts), ``iterations``
            (most traversals per decision, the reference's 100000; ``None``: no cap) and ``c``
            (exploration constant, 2.0).
    """

    options = _Searcher.options | {"iterations", "c"}
    defaults = SearchConfig(budget=None, time_limit=1.0, iterations=100000, c=2.0)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_traversals = self.config.iterations
        self.c = self.config.c

    def get_move(self, state: PrismataState, rng: np.random.Generator) -> list[int]:
        """UCT over portfolio turns; the most visited root turn."""
        budget = _Budget(self.time_limit, self.budget)
        self._root_player = state.current_player
        self._rng = rng
        self._budget = budget
        self._root = root = _Node(state, -1, [])
        most = self.max_traversals if self.max_traversals is not None else 1 << 62

        def done(traversals: int) -> bool:
            # The traversal cap, the budget, or a root with a single turn: nothing to choose.
            return (
                traversals >= most or budget.out() or (len(root.children) == 1 and root.source.done)  # type: ignore[union-attr]
            )

        traversals, _ = run_turn_uct(
            root,
            expand=self._expand,
            select=self._select,
            evaluate=self._evaluate,
            backup=self._backup,
            done=done,
        )
        best = max(root.children, key=lambda n: n.visits) if root.children else None
        self.last_stats = SearchStats(
            playouts=budget.playouts,
            nodes=traversals,
            children=len(root.children),
            seconds=time.perf_counter() - budget.start,
            extra={"visits": [n.visits for n in root.children]},
        )
        return best.move if best is not None else []

    def _expand(self, node: _Node) -> _Node | None:
        """Add the node's next portfolio turn as a child (``None``: all generated)."""
        if node.source is None:
            node.source = self._children(node.state, node is self._root, self._rng)
        # The cap is checked before asking: asking the capped source once more would generate
        # (and draw random numbers for) a turn past the cap.
        if self.max_children and len(node.children) >= self.max_children:
            return None
        item = node.source.get(len(node.children))
        if item is None:
            return None
        child = _Node(item[1], node.state.current_player, item[0])
        node.children.append(child)
        return child

    def _evaluate(self, node: _Node) -> int | None:
        """The winner below a leaf: a playout from a new node, else the terminal state's winner.

        A new node is played out even when it is terminal (the playout ends at once but counts
        against the budget, as in the reference); the root is never played out.
        """
        if node.visits == 0 and node is not self._root:
            winner, _ = self._playout(node.state, self._rng, self._budget)
            return winner
        return node.state.winner

    def _backup(self, path: list[_Node], winner: int | None) -> None:
        """Count a win (1), draw (1/2) or loss (0) of the searching player on every node."""
        me = self._root_player
        for node in path:
            node.visits += 1
            if winner == me:
                node.wins += 1.0
            elif winner is None or winner < 0:
                node.wins += 0.5

    def _select(self, node: _Node) -> _Node:
        """UCB1 on win rates, from the mover's side; an unvisited child first (the reference)."""
        maximise = node.children[0].mover == self._root_player
        log_n = math.log(max(1, node.visits))
        best, best_value = node.children[0], -math.inf
        for child in node.children:
            if child.visits == 0:
                return child
            rate = child.wins / child.visits
            value = (rate if maximise else 1.0 - rate) + self.c * math.sqrt(log_n / child.visits)
            if value > best_value:
                best, best_value = child, value
        return best
