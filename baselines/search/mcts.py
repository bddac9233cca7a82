"""Monte Carlo Tree Search (UCT) over the flat action space, as in the Tribes and Stratega papers.

One iteration descends the tree with UCB1 from the root while nodes are fully expanded, adds one
new child (a random untried action, so expansion order is random), optionally plays a random
rollout, scores the reached state with the evaluator and adds the values to every node of the
path. The recommendation is the most visited root child (ties: best mean).

Values are backed up **per player**: every node keeps one value sum per player, and a node
chooses among its children with the value of the player to move there. Nothing is negated per
ply, so multi-action turns (the same player deciding many times in a row) and games with more
than two players back up correctly.

In a deterministic setting nodes keep a copy of their state (closed-loop search, as both
reference implementations do): selection costs no forward-model call, and each iteration costs
one call for the expansion plus the rollout. The depth limit ``rollout_length`` counts actions
from the root and bounds both the tree and the rollouts: Tribes' ``ROLLOUT_LENGTH`` and
Stratega's ``RolloutLength``.

Closed loop or open loop (``open_loop``): a stored state is one sample of whatever chance lay on
the path to it (random opponent moves, dice), and every later visit reuses that sample, so one
lucky sample (the random opponent did not take the free kill) can make a branch look safe for
the rest of the search. That is what both reference implementations do. The open-loop variant
stores only statistics per action sequence and replays the path from the root in every
iteration (every replayed ``apply`` is a counted call), so each visit draws chance afresh; the
actions of a node are those legal in the current sample. It is the default whenever chance is
involved.

One loop for the closed-loop family: MCTS, MCTS_u (:mod:`.mcts_u`) and the SCSA paper's state
abstraction planners (:mod:`.abstraction`) all run :meth:`MCTSAgent._search`. As OpenSpiel's
MCTS takes an ``Evaluator``, the loop takes its evaluation step as a :class:`LeafEvaluator`
(default :class:`RolloutEvaluator`: optional random rollout, then the ``evaluator`` heuristic),
and a variant's other departures as :class:`TreeHooks` (selection, after-expansion and
after-backup bookkeeping, a per-iteration schedule, extra statistics). The open-loop search
stays a loop of its own: it keeps no states, replays the path from the root on a fresh sample
each iteration and reads the actions off that sample, so nearly every step differs. The UCT
searches over whole turns (CotG's script space, Prismata's HPS) share
:func:`~stratagem.baselines.search.turn_uct.run_turn_uct` instead: their edges are turns,
generated lazily, and their values, budgets and stopping rules are their papers' own.

Opponents (``opponent``):

* ``"tree"``: opponents' decisions are tree nodes too, each player maximising its own value
  (Tribes' MCTS has opponent nodes; with per-player values this is max^n).
* ``"random"``: after an action that hands the turn over, the other players act uniformly at
  random until the root player decides again, all inside the same edge (Stratega's MCTS agents
  with their RandomActionScript opponent model). Every such action is a counted call.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from stratagem.baselines.search.common import SearchAgent, SearchStats, shuffle
from stratagem.baselines.search.config import OPPONENT_MODELS, SearchConfig
from stratagem.baselines.search.turn_uct import run_turn_uct
from stratagem.envs.core import Game, State

__all__ = [
    "OPPONENT_MODELS",
    "LeafEvaluator",
    "MCTSAgent",
    "Node",
    "RolloutEvaluator",
    "TreeHooks",
    "backup",
]

#: ``rollout(state, steps, prng, depth)``: play at most ``steps`` actions in place from a state
#: ``depth`` actions below the root, spending the planner's budget.
RolloutFn = Callable[[State, int, random.Random, int], Any]


class Node:
    """One tree node: a state copy, its children and per-player value sums.

    Attributes:
        state: The position (owned by the node, never advanced).
        player: Player to move at ``state``.
        depth: Actions from the root.
        terminal: Whether ``state`` is terminal.
        children: Expanded children, parallel to ``actions``.
        actions: The action leading to each child.
        untried: Actions not expanded yet (``None`` until first needed).
        n: Visit count.
        w: Sum of backed-up values, one per player.
        qp: ``w[parent.player] * (1 / n)``, the mean value for the player who chooses this node,
            kept up to date by :class:`MCTSAgent`'s backup: selection reads many more children
            than a backup writes, so it reads one scalar and does no division (:attr:`q` gives
            every player's mean).
        isq: ``sqrt(1 / n)``, kept for the same reason.
        cursor: Planner-specific bookkeeping (MCTS_u: rank of the unit that decides here).
    """

    __slots__ = (
        "actions",
        "children",
        "cursor",
        "depth",
        "isq",
        "n",
        "player",
        "qp",
        "state",
        "terminal",
        "untried",
        "w",
    )

    def __init__(self, state: State, depth: int, num_players: int) -> None:
        self.state = state
        self.player = state.current_player
        self.depth = depth
        self.terminal = state.is_terminal()
        self.children: list[Node] = []
        self.actions: list[int] = []
        self.untried: list[int] | None = None
        self.n = 0
        self.w = [0.0] * num_players
        self.qp = 0.0
        self.isq = 0.0
        self.cursor: object = None

    @property
    def q(self) -> list[float]:
        """Mean values per player, ``w * (1 / n)`` (0 before any visit), as :attr:`qp` holds.

        Worked out on demand: the search reads only the chooser's mean (:attr:`qp`), and a list
        of every player's, kept up to date, cost its backup a store per player and node.
        """
        inv = 1.0 / self.n if self.n else 0.0
        return [w * inv for w in self.w]

    def mean(self, player: int) -> float:
        """Average backed-up value for ``player`` (0 before any visit)."""
        return self.w[player] / self.n if self.n else 0.0


class _OpenNode:
    """Open-loop node: statistics of an action sequence, children by action."""

    __slots__ = ("children", "depth", "isq", "n", "q", "w")

    def __init__(self, depth: int, num_players: int) -> None:
        self.depth = depth
        self.children: dict[int, _OpenNode] = {}
        self.n = 0
        self.w = [0.0] * num_players
        self.q = [0.0] * num_players
        self.isq = 0.0


class _OpenStep:
    """Where an open-loop descent stands: the statistics node and the simulation there.

    ``avail`` are the actions the planner may take there and ``cursor`` its bookkeeping
    (:meth:`MCTSAgent._open_settle`); ``terminal`` ends the descent (no action, the horizon, or
    the budget spent), as :func:`~stratagem.baselines.search.turn_uct.run_turn_uct` reads it.
    """

    __slots__ = ("avail", "cursor", "node", "sim", "terminal")

    def __init__(
        self, node: _OpenNode, sim: State, avail: list[int], cursor: object, terminal: bool
    ) -> None:
        self.node = node
        self.sim = sim
        self.avail = avail
        self.cursor = cursor
        self.terminal = terminal


def backup(path: Sequence[_OpenNode], values: Sequence[float], players: range) -> None:
    """Add one evaluation to every node of ``path``: visits, per-player sums and means, 1/√n.

    The backup of the open-loop search, whose nodes keep every player's mean. The closed loop
    keeps only the chooser's mean (:attr:`Node.qp`) and backs up in :meth:`MCTSAgent._search`,
    with the same arithmetic (``w * (1 / n)`` and ``sqrt(1 / n)``).
    """
    sqrt = math.sqrt
    for n in path:
        n.n += 1
        w = n.w
        q = n.q
        inv = 1.0 / n.n
        for i in players:
            w[i] += values[i]
            q[i] = w[i] * inv
        n.isq = sqrt(inv)


class LeafEvaluator(Protocol):
    """The evaluation step of the closed-loop tree search, as OpenSpiel's MCTS ``Evaluator``.

    OpenSpiel's MCTS takes an evaluator whose ``evaluate(state)`` scores a leaf for every
    player, so that one search loop serves random rollouts, heuristics and networks alike. Here
    the leaf is handed over as its :class:`Node`, because the papers' rollouts are depth-limited
    *from the root* (``node.depth``) and the node already knows whether it is terminal. There
    is no ``prior``: these planners expand untried actions in uniformly random order (their
    papers' UCT), which is a uniform prior that needs no call.
    """

    def evaluate(self, node: Node, prng: random.Random) -> list[float]:
        """Values of the leaf ``node`` per player; may spend forward-model calls.

        Args:
            node: The leaf (its state must not be advanced).
            prng: The search's random source, drawn in the search's order.

        Returns:
            One value per player.
        """
        ...


class RolloutEvaluator:
    """The default evaluation: an optional random rollout to the depth limit, then the heuristic.

    The state heuristic is the planner's ``evaluator`` option (a
    :class:`~stratagem.baselines.agent.Evaluator`); this class only decides *which* state it
    scores: the leaf itself, or the end of a rollout played from a copy of it while the leaf is
    not terminal, is above the depth limit ``rollout_length`` and budget is left.

    Args:
        agent: The searching planner: its budget, depth limit and heuristic.
        rollout: How to play the rollout (:data:`RolloutFn`); ``None`` scores the leaf itself
            (the Tribes paper's MCTS).
    """

    __slots__ = ("_agent", "_horizon", "_rollout", "heuristic", "plain")

    def __init__(self, agent: SearchAgent, rollout: RolloutFn | None) -> None:
        self._agent = agent
        self._horizon = agent.rollout_length
        self._rollout = rollout
        values = agent._values
        if agent._evaluate_list is not None and type(agent)._values is SearchAgent._values:
            values = agent._evaluate_list  # what _values would call, one call less
        #: The state heuristic, per player.
        self.heuristic: Callable[[State], list[float]] = values
        #: True when every evaluation is ``heuristic(node.state)`` (no rollouts).
        self.plain = rollout is None

    def evaluate(self, node: Node, prng: random.Random) -> list[float]:
        """Heuristic values of a rollout's end, or of the leaf when no rollout is played."""
        rollout = self._rollout
        depth = node.depth
        if rollout is not None and not node.terminal and depth < self._horizon:
            agent = self._agent
            if agent._calls < agent._limit:
                sim = node.state.clone()
                rollout(sim, self._horizon - depth, prng, depth)
                return self.heuristic(sim)
        return self.heuristic(node.state)


@dataclass(frozen=True, slots=True)
class TreeHooks:
    """How one search of a closed-loop UCT variant departs from plain UCT (all optional).

    :meth:`MCTSAgent._search` runs the one select/expand/evaluate/backup loop of the MCTS
    family; a variant (the SCSA paper's state abstractions) changes it only at these points,
    so the budget, free-iteration and statistics logic exist once. ``None`` keeps the plain
    step, which the loop inlines: plain MCTS pays nothing for the hooks it does not use.

    Attributes:
        select: ``select(node) -> child`` replaces UCB1 at a fully expanded node with children.
        expanded: ``expanded(parent, action, child)`` after a child was added to the tree.
        backed_up: ``backed_up(path, values)`` after the values were added along ``path``.
        iteration_done: ``iteration_done(iterations, deepest, prng)`` at the end of every
            iteration that did not end the search (batch schedules).
        finish: Called once after the last iteration; returns figures for
            ``SearchStats.extra`` (put before the root statistics) and may drop per-search data.
        depth_limited: False lets the tree grow below ``rollout_length`` (the reference's
            UnitMCTS); rollouts stop there either way.
    """

    select: Callable[[Node], Node] | None = None
    expanded: Callable[[Node, int, Node], None] | None = None
    backed_up: Callable[[list[Node], list[float]], None] | None = None
    iteration_done: Callable[[int, int, random.Random], None] | None = None
    finish: Callable[[], dict[str, Any]] | None = None
    depth_limited: bool = True


_PLAIN = TreeHooks()
#: Depth "limit" of a tree without one.
_NO_LIMIT = 1 << 62

#: By visit count ``n`` (index 0 unused): ``1 / n``, ``sqrt(1 / n)`` and ``sqrt(log(n))``, the
#: per-visit arithmetic of the backup and of UCB1. The closed loop runs once per forward-model
#: call and does this arithmetic on every node of the path, so it reads the floats from these
#: tables (computed by the same expressions, hence the same floats) instead of calling
#: ``sqrt`` and ``log``. They only grow (:func:`_visit_tables`), shared by every search.
_INV: list[float] = [0.0]
_ISQ: list[float] = [0.0]
_SQRT_LOG: list[float] = [0.0]
_VISIT_LOCK = threading.Lock()


def _visit_tables(most: int) -> int:
    """Grow the visit-count tables to cover counts up to at least ``most``; returns their top.

    Tables only grow, under a lock, so a search in another thread always finds the entries it
    checked for.
    """
    with _VISIT_LOCK:
        top = len(_INV) - 1
        if top < most:
            counts = range(top + 1, max(most, 2 * top, 1024) + 1)
            sqrt, log = math.sqrt, math.log
            inverses = [1.0 / n for n in counts]
            _INV.extend(inverses)
            _ISQ.extend([sqrt(inv) for inv in inverses])
            _SQRT_LOG.extend([sqrt(log(n)) for n in counts])
            top = counts[-1]
        return top


class MCTSAgent(SearchAgent):
    """UCT with per-player backup, a forward-model-call budget and the papers' options.

    Defaults are the Tribes paper's (section 4.1): budget 2000, ``c = √2``, no rollouts (the
    expanded node is evaluated directly), depth 20, values normalised by the bounds seen so far.
    Stratega's Kill The King agent is ``budget=5000`` (SCSA paper: 10000), ``c=0.1`` to ``1``,
    ``rollout_length=10``, ``rollouts=true``, ``normalize=false``, ``opponent=random``.

    Options (fields of :class:`~stratagem.baselines.search.config.SearchConfig`, given as
    keywords or as ``config``):

    * ``budget``, ``time_limit``, ``iterations``: forward-model calls, seconds and iterations
      per decision (at least one must be set).
    * ``evaluator``: state evaluator (default: the game's own heuristic).
    * ``c``: UCB1 exploration constant.
    * ``rollout_length``: depth limit from the root, for the tree and the rollouts.
    * ``rollouts``: play random rollouts to the depth limit; false evaluates the expanded node.
    * ``normalize``: scale values to [0, 1] with the min/max seen in this search before UCB1
      (Tribes), which makes ``c`` independent of the evaluator's scale.
    * ``opponent``: ``"tree"`` or ``"random"`` (see the module docstring).
    * ``open_loop``: re-simulate the path from the root in every iteration instead of storing
      states in nodes; default: when chance is involved (random opponents or a stochastic
      game). Stratega's agents are closed-loop even with random opponents.
    * ``exclude_kinds``: action kinds never played.
    * ``prioritize_root``: Tribes' root prioritisation (needs ``state.action_group``).
    * ``force_end_turn``: only END_TURN is expanded at depths that are multiples of this, and
      rollouts end the turn there too (0: never).

    Args:
        game: The game the agent plays.
        config: The whole configuration, instead of keywords.
        **options: Configuration fields over :attr:`defaults`.
    """

    name = "mcts"
    pauses_gc = True  # the tree has no cycles: see gc_paused
    options = SearchAgent.options | {
        "iterations",
        "c",
        "rollout_length",
        "rollouts",
        "normalize",
        "opponent",
        "open_loop",
    }

    def __init__(self, game: Game, config: SearchConfig | None = None, **options: Any) -> None:
        super().__init__(game, config, **options)
        config = self.config
        self.c = config.c
        self.rollouts = config.rollouts
        self.normalize = config.normalize
        self.opponent = config.opponent
        self.open_loop = (
            (config.opponent == "random" or not game.spec.deterministic)
            if config.open_loop is None
            else config.open_loop
        )
        self._me = 0

    # ------------------------------------------------------------------ tree policy hooks
    def _new_child(self, parent: Node, state: State, prng: random.Random) -> Node:
        """Wrap the state reached from ``parent`` (opponent moves played in ``random`` mode)."""
        if self.opponent == "random":
            self._play_opponents(state, self._me, prng)
        return Node(state, parent.depth + 1, self.num_players)

    def _untried(self, node: Node, prng: random.Random) -> list[int]:
        """Actions to expand at ``node``, in random order (popped from the end)."""
        legal = self._legal(node.state)
        if self.force_end_turn and node.depth % self.force_end_turn == 0 and self.end_turn in legal:
            return [self.end_turn]  # type: ignore[list-item]
        shuffle(legal, prng)
        return legal

    def _make_root(self, state: State, actions: list[int], prng: random.Random) -> Node:
        root = Node(state, 0, self.num_players)
        root.untried = list(actions)
        shuffle(root.untried, prng)
        return root

    def _tree_hooks(self, root: Node, state: State, prng: random.Random) -> TreeHooks:
        """This search's departures from plain UCT, set up once ``root`` exists (none here)."""
        return _PLAIN

    def _leaf_evaluator(self) -> LeafEvaluator:
        """The evaluation step of this search: rollouts (if on), then the heuristic."""
        return RolloutEvaluator(self, self._rollout if self.rollouts else None)

    # ------------------------------------------------------------------ search
    def _search(
        self, state: State, actions: list[int], prng: random.Random, stats: SearchStats
    ) -> int:
        """The one closed-loop select/expand/evaluate/backup loop of the MCTS family.

        MCTS, MCTS_u and the SCSA paper's abstraction planners all run this loop; they differ
        in their tree-policy hooks (:meth:`_new_child`, :meth:`_untried`, :meth:`_make_root`),
        their per-search :class:`TreeHooks` and their :class:`LeafEvaluator`.
        """
        if self.open_loop:
            return self._search_open(state, actions, prng, stats)
        self._me = me = state.current_player
        root = self._make_root(state, actions, prng)
        hooks = self._tree_hooks(root, state, prng)
        leaf = self._leaf_evaluator()
        evaluate = leaf.evaluate
        # Without rollouts the default evaluation is the heuristic of the leaf's own state; the
        # loop calls it directly, as the evaluator's call would cost plain MCTS ~3% of its speed.
        heuristic = leaf.heuristic if type(leaf) is RolloutEvaluator and leaf.plain else None
        horizon = self.rollout_length if hooks.depth_limited else _NO_LIMIT
        select = hooks.select
        expanded = hooks.expanded
        backed_up = hooks.backed_up
        iteration_done = hooks.iteration_done
        c = self.c
        normalize = self.normalize
        inf = math.inf
        lo, hi = inf, -inf
        num_players = self.num_players
        players = range(num_players)
        two_players = num_players == 2
        iterations = 0
        # No node has more visits than the root, which has iterations + 1 after a backup.
        invs, isqs, sqrt_logs = _INV, _ISQ, _SQRT_LOG
        covered = _visit_tables(2)
        # An iteration that makes no call (it ends on a terminal or depth-limited node already in
        # the tree) is free; once the tree has converged on such nodes nearly every iteration is,
        # so free iterations are capped at the budget too (at most 2x budget iterations).
        free = 0
        free_cap = self.budget if self.budget is not None else 1 << 62
        nodes = 1
        deepest = 0
        max_iter = self.iterations if self.iterations is not None else 1 << 62
        # The loop below runs once per forward-model call, so everything it reaches through
        # ``self`` is looked up once here; hooks that subclasses override (MCTS_u) stay calls.
        limit = self._limit
        timed = self.time_limit is not None
        out_of_time = self._out_of_time
        apply = self._apply
        untried_of = self._untried
        # Plain MCTS's untried actions are the legal list, shuffled: listed here, without the
        # two hook calls, when no option or subclass changes that.
        plain_untried = (
            type(self)._untried is MCTSAgent._untried
            and type(self)._legal is SearchAgent._legal
            and not self.exclude_kinds
            and not self.force_end_turn
        )
        legal_raw = self._legal_raw
        plain_child = (
            self.opponent == "tree" and type(self)._new_child is MCTSAgent._new_child
        )  # the child is just a Node: built here, without the hook's call
        new_child = self._new_child
        while self._calls < limit and iterations < max_iter and not (timed and out_of_time()):
            if iterations >= covered:
                covered = _visit_tables(iterations + 1)
            before = self._calls
            node = root
            path = [root]
            # selection and expansion
            while not node.terminal and node.depth < horizon:
                untried = node.untried
                if untried is None:
                    if plain_untried:
                        untried = node.untried = legal_raw(node.state)
                        shuffle(untried, prng)
                    else:
                        untried = node.untried = untried_of(node, prng)
                if untried:
                    action = untried.pop()
                    child_state = node.state.clone()
                    self._calls += 1
                    apply(child_state, action)
                    if plain_child:
                        child = Node(child_state, node.depth + 1, num_players)
                    else:
                        child = new_child(node, child_state, prng)
                    node.children.append(child)
                    node.actions.append(action)
                    nodes += 1
                    if expanded is not None:
                        expanded(node, action, child)
                    path.append(child)
                    node = child
                    break
                children = node.children
                if not children:
                    break
                if select is not None:
                    node = select(node)
                    path.append(node)
                    continue
                # UCB1: q + c * sqrt(ln N / n). Normalising q to (q - lo) / span does not change
                # the argmax of q + (c * span) * sqrt(ln N) / sqrt(n), which needs no division.
                p = node.player
                explore = c * sqrt_logs[node.n]  # c * sqrt(log(n))
                if normalize:
                    if hi > lo:
                        explore *= hi - lo
                    else:  # every value seen is equal: pure exploration
                        p, explore = -1, 1.0
                best, best_u = children[0], -inf
                if p < 0:
                    for ch in children:
                        if ch.isq > best_u:
                            best, best_u = ch, ch.isq
                else:  # ch.qp is ch.q[p]: the backup keeps it for the parent's player
                    for ch in children:
                        u = ch.qp + explore * ch.isq
                        if u > best_u:
                            best, best_u = ch, u
                node = best
                path.append(node)
            if node.depth > deepest:
                deepest = node.depth
            # evaluation (rollout and heuristic)
            values = heuristic(node.state) if heuristic is not None else evaluate(node, prng)
            # backup: visits, value sums, the chooser's mean and sqrt(1 / n) of every path node
            # (``chooser`` is the player of the previous node: at the root, -1 reads the last
            # player's mean, which nothing uses)
            chooser = -1
            if two_players:  # unrolled: the hot path of the two-player games
                v0, v1 = values
                if normalize:
                    vmin, vmax = (v1, v0) if v1 < v0 else (v0, v1)
                    if vmin < lo:
                        lo = vmin
                    if vmax > hi:
                        hi = vmax
                for n in path:
                    k = n.n + 1
                    n.n = k
                    w = n.w
                    w[0] += v0
                    w[1] += v1
                    n.qp = w[chooser] * invs[k]
                    n.isq = isqs[k]
                    chooser = n.player
            else:
                if normalize:
                    vmin, vmax = min(values), max(values)
                    if vmin < lo:
                        lo = vmin
                    if vmax > hi:
                        hi = vmax
                for n in path:
                    k = n.n + 1
                    n.n = k
                    w = n.w
                    for i in players:
                        w[i] += values[i]
                    n.qp = w[chooser] * invs[k]
                    n.isq = isqs[k]
                    chooser = n.player
            if backed_up is not None:
                backed_up(path, values)
            iterations += 1
            if self._calls == before:
                free += 1
                if free >= free_cap:
                    break
            if iteration_done is not None:
                iteration_done(iterations, deepest, prng)
        stats.iterations = iterations
        stats.extra.update(nodes=nodes, depth=deepest)
        if hooks.finish is not None:
            stats.extra.update(hooks.finish())
        pairs = zip(root.actions, root.children, strict=True)
        stats.extra["root"] = {a: (ch.n, [ch.mean(i) for i in players]) for a, ch in pairs}
        return self._recommend(root, me, actions, prng)

    # ------------------------------------------------------------------ open loop
    def _root_cursor_value(self) -> object:
        """Planner bookkeeping of the root (MCTS_u: the deciding unit's rank)."""
        return None

    def _open_settle(
        self, state: State, cursor: object, depth: int, prng: random.Random
    ) -> tuple[list[int], object]:
        """Finish a transition of the open-loop descent and list the next node's actions.

        Random opponents play their turn first. Returns the actions available at the reached
        node and the planner's bookkeeping for it (none for flat MCTS).
        """
        if self.opponent == "random" and state.current_player != self._me:
            self._play_opponents(state, self._me, prng)
            if state.current_player != self._me:
                return [], None
        if state.is_terminal():
            return [], None
        legal = self._legal(state)
        if self.force_end_turn and depth % self.force_end_turn == 0 and self.end_turn in legal:
            return [self.end_turn], None  # type: ignore[list-item]
        return legal, None

    def _search_open(
        self, state: State, actions: list[int], prng: random.Random, stats: SearchStats
    ) -> int:
        """Open-loop UCT: nodes hold statistics only; every iteration replays from the root.

        Runs on :func:`~stratagem.baselines.search.turn_uct.run_turn_uct`, the loop of the
        turn-level searches: a step of the descent is an :class:`_OpenStep` (the statistics
        node and the simulation that reached it), and a step from the root starts the
        iteration's simulation from a fresh clone of ``state``.
        """
        self._me = me = state.current_player
        num_players = self.num_players
        horizon = self.rollout_length
        c = self.c
        normalize = self.normalize
        rand = prng.random
        log, sqrt = math.log, math.sqrt
        bounds = [math.inf, -math.inf]  # lowest and highest value seen (``normalize``)
        players = range(num_players)
        max_iter = self.iterations if self.iterations is not None else 1 << 62
        nodes = 1
        root = _OpenStep(
            _OpenNode(0, num_players),
            state,
            list(actions),
            self._root_cursor_value(),
            not actions or horizon <= 0,
        )

        step_sim, settle = self._step, self._open_settle

        def advance(step: _OpenStep, child: _OpenNode, action: int) -> _OpenStep:
            sim = state.clone() if step is root else step.sim
            step_sim(sim, action)
            depth = child.depth
            avail, cursor = settle(sim, step.cursor, depth, prng)
            return _OpenStep(
                child,
                sim,
                avail,
                cursor,
                not avail or depth >= horizon or self._calls >= self._limit,
            )

        def expand(step: _OpenStep) -> _OpenStep | None:
            nonlocal nodes
            children = step.node.children
            untried = [a for a in step.avail if a not in children]
            if not untried:
                return None
            action = untried[int(rand() * len(untried))]
            child = children[action] = _OpenNode(step.node.depth + 1, num_players)
            nodes += 1
            return advance(step, child, action)

        def select(step: _OpenStep) -> _OpenStep:
            node, avail = step.node, step.avail
            children = node.children
            p = step.sim.current_player
            explore = c * sqrt(log(node.n))
            if normalize:
                lo, hi = bounds
                if hi > lo:
                    explore *= hi - lo
                else:
                    p, explore = -1, 1.0
            action, best_u = avail[0], -math.inf
            for a in avail:
                ch = children[a]
                u = ch.isq if p < 0 else ch.q[p] + explore * ch.isq
                if u > best_u:
                    action, best_u = a, u
            return advance(step, children[action], action)

        def evaluate(step: _OpenStep) -> Sequence[float]:
            sim = state.clone() if step is root else step.sim
            depth = step.node.depth
            if (
                self.rollouts
                and not sim.is_terminal()
                and depth < horizon
                and self._calls < self._limit
            ):
                self._rollout(sim, horizon - depth, prng, depth)
            values = self._values(sim)
            if normalize:
                vmin, vmax = min(values), max(values)
                if vmin < bounds[0]:
                    bounds[0] = vmin
                if vmax > bounds[1]:
                    bounds[1] = vmax
            return values

        def back(path: list[_OpenStep], values: Sequence[float]) -> None:
            backup([step.node for step in path], values, players)

        def done(iterations: int) -> bool:
            return not (
                self._calls < self._limit and iterations < max_iter and not self._out_of_time()
            )

        iterations = deepest = 0
        if not done(0):
            iterations, deepest = run_turn_uct(
                root, expand=expand, select=select, evaluate=evaluate, backup=back, done=done
            )
        stats.iterations = iterations
        stats.extra.update(nodes=nodes, depth=deepest)
        children = root.node.children
        stats.extra["root"] = {a: (ch.n, [ch.q[i] for i in players]) for a, ch in children.items()}
        if not children:
            return actions[prng.randrange(len(actions))]
        return max(children, key=lambda a: (children[a].n, children[a].q[me]))

    def _recommend(self, root: Node, me: int, actions: list[int], prng: random.Random) -> int:
        """Most visited root child, ties broken by the best mean value for ``me``."""
        if not root.children:
            return actions[prng.randrange(len(actions))]
        best = max(
            range(len(root.children)), key=lambda k: (root.children[k].n, root.children[k].mean(me))
        )
        return root.actions[best]
