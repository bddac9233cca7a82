"""Tree search for AlphaZero: PUCT and Gumbel, per-player values, batched leaf evaluation.

The search is written for many trees at once: :func:`run_simulations` walks every tree down to a
leaf, evaluates all the leaves in **one** call of the evaluator (one batch on the device), then
expands and backs up each. Self-play runs dozens of games this way, which is what makes a GPU
pay; a single agent is the batch-of-one case.

Values are vectors with one entry per seat. A node's statistics ``W[a]`` sum the value vectors
backed up through edge ``a``; selection reads the entry of the node's mover. There is no sign
flip per ply, so turns of several actions by the same player and games of more than two players
back up correctly.

Two selection rules share that tree (``algorithm``):

* ``puct``: AlphaZero's ``Q + c · P · sqrt(N) / (1 + n)`` everywhere; the visit counts are the
  policy target and the most visited action is played.
* ``gumbel``: Gumbel AlphaZero (Danihelka et al., *Policy improvement by planning with Gumbel*,
  ICLR 2022; DeepMind's mctx is the reference). At the root, Gumbel-top-k sampling picks up to
  ``max_considered`` actions and sequential halving spreads the simulations over them; inside the
  tree, the deterministic rule ``argmax π'(a) − n(a) / (1 + N)`` with ``π' = softmax(logits +
  σ(completed Q))``. The policy target is ``softmax(logits + σ(completed Q))`` at the root, an
  improvement of the prior even with a handful of simulations (unvisited actions are completed
  with the mixed value ``v_mix``), and the action played is the one left by sequential halving.
  A round of sequential halving (one more visit for each surviving candidate) ranks its
  candidates once, at its start, and descends into each of them in the same step: their
  subtrees are disjoint, so the round's leaves go to the evaluator in one batch. A single agent
  thus makes one network call per round instead of one per simulation (15 instead of 64 with
  16 considered actions and 64 simulations). mctx re-ranks after every simulation; the two
  differ only where a visit changes the σ scale enough to reorder the round's remaining
  candidates.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from stratagem.envs.core import State
from stratagem.training import search_kernels as kernels

__all__ = [
    "BatchEvaluator",
    "Node",
    "SearchResult",
    "add_root_noise",
    "considered_visit_sequence",
    "gumbel_search",
    "round_ends",
    "run_simulations",
    "visit_policy",
]

#: ``(observations (B, H, W, C), legal-action lists) -> (priors per leaf, values (B, players))``:
#: priors are probabilities over each leaf's legal actions; values are relative to the mover.
BatchEvaluator = Callable[[np.ndarray, Sequence[np.ndarray]], tuple[list[np.ndarray], np.ndarray]]

#: Floor of a prior before its logarithm (a prior of exactly 0 must stay finite in logits).
_TINY = 1e-30


class Node:
    """One state of a search tree.

    Attributes:
        state: The position (owned by the node).
        player: The player to move (meaningless at a terminal node).
        terminal: True at the end of the game.
        actions: Legal actions (expanded nodes only).
        prior: Prior probability of each legal action.
        logits: ``log(prior)``: the logits the Gumbel rules add to (expanded nodes only).
        raw_value: The evaluator's value vector of this position, in seat order.
        visits: Visit count of each edge.
        value_sum: ``(len(actions), num_players)`` sums of backed-up value vectors.
        children: Child node of each edge, created on first visit.
    """

    __slots__ = (
        "actions",
        "children",
        "logits",
        "player",
        "prior",
        "raw_value",
        "state",
        "terminal",
        "value_sum",
        "visits",
    )

    def __init__(self, state: State) -> None:
        self.state = state
        self.player = state.current_player
        self.terminal = state.is_terminal()
        self.actions: np.ndarray | None = None
        self.prior: np.ndarray | None = None
        self.logits: np.ndarray | None = None
        self.raw_value: np.ndarray | None = None
        self.visits: np.ndarray | None = None
        self.value_sum: np.ndarray | None = None
        self.children: list[Node | None] = []

    @property
    def expanded(self) -> bool:
        """True once the evaluator has given this node its priors."""
        return self.actions is not None

    def expand(
        self, actions: np.ndarray, prior: np.ndarray, num_players: int, value: np.ndarray
    ) -> None:
        """Attach the legal actions, their priors and the evaluator's value (seat order)."""
        self.actions = actions
        self.prior = prior.astype(np.float64)
        self.logits = np.log(np.maximum(self.prior, _TINY))
        self.raw_value = value
        self.visits = np.zeros(len(actions), dtype=np.int64)
        self.value_sum = np.zeros((len(actions), num_players), dtype=np.float64)
        self.children = [None] * len(actions)

    def q(self) -> np.ndarray:
        """Mean backed-up value of each edge for the node's mover (0 where unvisited)."""
        assert self.visits is not None and self.value_sum is not None
        n = self.visits
        return np.divide(
            self.value_sum[:, self.player], n, out=np.zeros(len(n), dtype=np.float64), where=n > 0
        )

    def select(self, c_puct: float) -> int:
        """Edge maximising ``Q + c · P · sqrt(N) / (1 + n)`` for the node's mover."""
        assert self.visits is not None and self.prior is not None and self.value_sum is not None
        player, prior, visits, value_sum = self.player, self.prior, self.visits, self.value_sum
        return int(kernels.puct_select(prior, visits, value_sum, player, c_puct))

    def completed_q(self, value_scale: float, maxvisit_init: float) -> np.ndarray:
        """``σ(completed Q)`` of Gumbel AlphaZero for the node's mover.

        Unvisited edges take the mixed value ``v_mix`` (the evaluator's value blended with the
        prior-weighted Q of the visited edges), the completed values are rescaled to [0, 1]
        within the node, then scaled by ``(maxvisit_init + max n) · value_scale`` so that their
        weight against the logits grows with the search effort (mctx's
        ``qtransform_completed_by_mix_value``).
        """
        return kernels.completed_q(*self._rule_arrays(), value_scale, maxvisit_init)

    def select_gumbel_interior(self, value_scale: float, maxvisit_init: float) -> int:
        """Deterministic interior rule ``argmax π'(a) − n(a) / (1 + N)``."""
        assert self.logits is not None
        args = self._rule_arrays()
        return int(kernels.gumbel_interior(self.logits, *args, value_scale, maxvisit_init))

    def _rule_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, float]:
        """What the compiled Gumbel rules read: prior, visits, value sums, mover, raw value."""
        assert self.visits is not None and self.prior is not None
        assert self.raw_value is not None and self.value_sum is not None
        raw = float(self.raw_value[self.player])
        return self.prior, self.visits, self.value_sum, self.player, raw


def add_root_noise(node: Node, alpha: float, epsilon: float, rng: np.random.Generator) -> None:
    """Mix Dirichlet noise into the root priors (exploration of PUCT self-play)."""
    if node.prior is None or epsilon <= 0 or len(node.prior) == 0:
        return
    noise = rng.dirichlet([alpha] * len(node.prior))
    node.prior = (1 - epsilon) * node.prior + epsilon * noise
    node.logits = np.log(np.maximum(node.prior, _TINY))


def _absolute(relative: np.ndarray, mover: int) -> np.ndarray:
    """Rotate values relative to the mover into seat order (``np.roll``, without its overhead).

    Seat 0's values come back as they are: the caller hands in an array of its own.
    """
    if mover == 0:
        return relative
    return np.concatenate((relative[-mover:], relative[:-mover]))


#: ``(root, simulations done at this root) -> edges`` to search from the root now, each one
#: simulation (at least one edge, at most the simulations left); interior nodes use the other
#: rule. Several edges of one root descend into disjoint subtrees, so their leaves are evaluated
#: in the same batch without changing what any descent sees.
RootRule = Callable[[Node, int], list[int]]
InteriorRule = Callable[[Node], int]


def _simulate(
    roots: Sequence[Node],
    evaluate: BatchEvaluator,
    simulations: int,
    num_players: int,
    root_rule: RootRule,
    interior_rule: InteriorRule,
) -> int:
    """The shared tree core: descend, evaluate the leaves in one batch, expand, back up.

    Each step descends every unfinished tree once per edge its root rule returns, evaluates
    all the new leaves of all trees in one call, then backs them up; trees run until each has
    had ``simulations`` simulations.
    """
    evaluated = 0
    pending = [r for r in roots if not r.expanded and not r.terminal]
    if pending:
        evaluated += _evaluate_and_expand(pending, evaluate, num_players)
    done = [0] * len(roots)
    while True:
        paths: list[list[tuple[Node, int]]] = []
        leaves: list[Node] = []
        for i, root in enumerate(roots):
            if root.terminal or done[i] >= simulations:
                continue
            edges = root_rule(root, done[i])
            done[i] += len(edges)
            for a in edges:
                node, path = root, []
                while True:
                    path.append((node, a))
                    child = node.children[a]
                    if child is None:
                        state = node.state.clone()
                        assert node.actions is not None
                        state.apply(int(node.actions[a]))
                        child = Node(state)
                        node.children[a] = child
                        break
                    if child.terminal or not child.expanded:
                        break
                    node = child
                    a = interior_rule(node)
                paths.append(path)
                leaves.append(child)
        if not paths:
            return evaluated
        to_eval = [leaf for leaf in leaves if not leaf.terminal and not leaf.expanded]
        if to_eval:
            evaluated += _evaluate_and_expand(to_eval, evaluate, num_players)
        for path, leaf in zip(paths, leaves, strict=True):
            value = leaf.state.returns() if leaf.terminal else leaf.raw_value
            for node, a in path:
                assert node.visits is not None and node.value_sum is not None
                node.visits[a] += 1
                node.value_sum[a] += value


def run_simulations(
    roots: Sequence[Node],
    evaluate: BatchEvaluator,
    simulations: int,
    c_puct: float,
    num_players: int,
) -> int:
    """Run ``simulations`` PUCT simulations in every tree, leaves evaluated in batches.

    Roots that are not expanded yet are expanded first (one batched evaluation). Returns the
    number of leaf positions the evaluator saw (for throughput figures).
    """

    def root_rule(node: Node, _done: int) -> list[int]:
        return [node.select(c_puct)]

    def interior_rule(node: Node) -> int:
        return node.select(c_puct)

    return _simulate(roots, evaluate, simulations, num_players, root_rule, interior_rule)


def _evaluate_and_expand(nodes: Sequence[Node], evaluate: BatchEvaluator, num_players: int) -> int:
    observations = np.stack([n.state.observation(n.player) for n in nodes])
    legal = [n.state.legal_actions() for n in nodes]
    priors, values = evaluate(observations, legal)
    for node, actions, prior, value in zip(nodes, legal, priors, values, strict=True):
        node.expand(
            actions, prior, num_players, _absolute(np.array(value, dtype=np.float64), node.player)
        )
    return len(nodes)


def visit_policy(node: Node, temperature: float) -> np.ndarray:
    """Probabilities over the root's legal actions from visit counts (argmax at temperature 0)."""
    assert node.visits is not None
    visits = node.visits.astype(np.float64)
    if temperature <= 1e-6 or visits.sum() == 0:
        policy = np.zeros_like(visits)
        best = np.flatnonzero(visits == visits.max())
        policy[best] = 1.0 / len(best)
        return policy
    scaled = visits ** (1.0 / temperature)
    return scaled / scaled.sum()


@lru_cache(maxsize=256)
def considered_visit_sequence(num_considered: int, simulations: int) -> tuple[int, ...]:
    """Sequential halving's schedule: the visit count a root action must have to be searched.

    At simulation ``s`` the root may only visit a considered action whose visit count equals
    entry ``s``; with every action at 0 visits this first visits the top ``num_considered``
    actions by Gumbel + logits once each, then halves the set every phase (mctx's
    ``get_sequence_of_considered_visits``).
    """
    if num_considered <= 1:
        return tuple(range(simulations))
    log2max = math.ceil(math.log2(num_considered))
    sequence: list[int] = []
    visits = [0] * num_considered
    considered = num_considered
    while len(sequence) < simulations:
        extra = max(1, int(simulations / (log2max * considered)))
        for _ in range(extra):
            sequence.extend(visits[:considered])
            for i in range(considered):
                visits[i] += 1
        considered = max(2, considered // 2)
    return tuple(sequence[:simulations])


@lru_cache(maxsize=256)
def round_ends(num_considered: int, simulations: int) -> tuple[int, ...]:
    """Where each simulation's round of sequential halving ends (one past its last simulation).

    A round is a run of equal entries of :func:`considered_visit_sequence`: the simulations
    that give each surviving candidate one more visit. Consecutive rounds always differ (the
    visit count grows by one per round), so the runs are the rounds.
    """
    sequence = considered_visit_sequence(num_considered, simulations)
    ends = [0] * len(sequence)
    end = len(sequence)
    for s in range(len(sequence) - 1, -1, -1):
        if s + 1 < len(sequence) and sequence[s + 1] != sequence[s]:
            end = s + 1
        ends[s] = end
    return tuple(ends)


@dataclass
class SearchResult:
    """What one Gumbel search decided at its root.

    Attributes:
        action_index: Index into ``root.actions`` of the action to play.
        policy: The improved policy ``softmax(logits + σ(completed Q))`` over the root's legal
            actions: the policy target of Gumbel AlphaZero.
    """

    action_index: int
    policy: np.ndarray


def gumbel_search(
    roots: Sequence[Node],
    evaluate: BatchEvaluator,
    simulations: int,
    num_players: int,
    *,
    rng: np.random.Generator | None,
    noise: Sequence[bool] | None = None,
    max_considered: int = 16,
    value_scale: float = 0.1,
    maxvisit_init: float = 50.0,
) -> tuple[list[SearchResult | None], int]:
    """Gumbel AlphaZero search from every root together.

    Args:
        roots: Root nodes (expanded or not); terminal roots get ``None``.
        evaluate: The batched evaluator.
        simulations: Simulations per root.
        num_players: Seats of the game.
        rng: Draws the Gumbel noise; ``None`` plays without noise (evaluation: the action is
            then the best by logits + σ(completed Q) among the last halving's survivors).
        noise: Per root, whether to draw its noise (default: every root, when ``rng`` is
            given); self-play turns it off after the opening, as AlphaZero's temperature.
        max_considered: Most root actions sampled without replacement (``m`` of the paper).
        value_scale: ``c_scale`` of σ.
        maxvisit_init: ``c_visit`` of σ.

    Returns:
        One result per root and the number of leaf evaluations.
    """
    evaluated = 0
    pending = [r for r in roots if not r.expanded and not r.terminal]
    if pending:
        evaluated += _evaluate_and_expand(pending, evaluate, num_players)
    gumbel: dict[int, np.ndarray] = {}
    schedule: dict[int, tuple[int, ...]] = {}
    ends: dict[int, tuple[int, ...]] = {}
    for i, root in enumerate(roots):
        if root.terminal:
            continue
        assert root.actions is not None
        k = len(root.actions)
        noisy = rng is not None and (noise is None or noise[i])
        gumbel[id(root)] = rng.gumbel(size=k) if noisy else np.zeros(k)  # type: ignore[union-attr]
        schedule[id(root)] = considered_visit_sequence(min(max_considered, k), simulations)
        ends[id(root)] = round_ends(min(max_considered, k), simulations)

    def root_rule(node: Node, sim: int) -> list[int]:
        # one round of sequential halving: the candidates are ranked once, at its start
        assert node.visits is not None and node.logits is not None
        sequence = schedule[id(node)]
        target, end = sequence[sim], ends[id(node)][sim]
        candidates = np.flatnonzero(node.visits == target)
        if len(candidates) == 0:
            return [0]
        score = gumbel[id(node)] + node.logits + node.completed_q(value_scale, maxvisit_init)
        order = candidates[np.argsort(-score[candidates], kind="stable")]
        return [int(a) for a in order[: end - sim]]

    def interior_rule(node: Node) -> int:
        return node.select_gumbel_interior(value_scale, maxvisit_init)

    evaluated += _simulate(roots, evaluate, simulations, num_players, root_rule, interior_rule)
    results: list[SearchResult | None] = []
    for root in roots:
        if root.terminal:
            results.append(None)
            continue
        assert root.visits is not None and root.logits is not None
        sigma = root.completed_q(value_scale, maxvisit_init)
        survivors = root.visits == root.visits.max()
        score = gumbel[id(root)] + root.logits + sigma
        action = int(np.argmax(np.where(survivors, score, -np.inf)))
        z = root.logits + sigma
        z = np.exp(z - z.max())
        results.append(SearchResult(action, z / z.sum()))
    return results, evaluated
