"""PUCT tree search with per-player value backup and batched leaf evaluation.

The search is written for many trees at once: :func:`run_simulations` walks every tree down to a
leaf, evaluates all the leaves in **one** call of the evaluator (one batch on the device), then
expands and backs up each. Self-play runs dozens of games this way, which is what makes a GPU
pay; a single agent is the batch-of-one case.

Values are vectors with one entry per seat. A node's statistics ``W[a]`` sum the value vectors
backed up through edge ``a``; selection reads the entry of the node's mover. There is no sign
flip per ply, so turns of several actions by the same player and games of more than two players
back up correctly.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from stratagem.envs.core import State

__all__ = ["BatchEvaluator", "Node", "add_root_noise", "run_simulations", "visit_policy"]

#: ``(observations (B, H, W, C), legal-action lists) -> (priors per leaf, values (B, players))``:
#: priors are probabilities over each leaf's legal actions; values are relative to the mover.
BatchEvaluator = Callable[[np.ndarray, Sequence[np.ndarray]], tuple[list[np.ndarray], np.ndarray]]


class Node:
    """One state of a search tree.

    Attributes:
        state: The position (owned by the node).
        player: The player to move (meaningless at a terminal node).
        terminal: True at the end of the game.
        actions: Legal actions (expanded nodes only).
        prior: Prior probability of each legal action.
        visits: Visit count of each edge.
        value_sum: ``(len(actions), num_players)`` sums of backed-up value vectors.
        children: Child node of each edge, created on first visit.
    """

    __slots__ = (
        "actions",
        "children",
        "player",
        "prior",
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
        self.visits: np.ndarray | None = None
        self.value_sum: np.ndarray | None = None
        self.children: list[Node | None] = []

    @property
    def expanded(self) -> bool:
        """True once the evaluator has given this node its priors."""
        return self.actions is not None

    def expand(self, actions: np.ndarray, prior: np.ndarray, num_players: int) -> None:
        """Attach the legal actions and their priors."""
        self.actions = actions
        self.prior = prior.astype(np.float64)
        self.visits = np.zeros(len(actions), dtype=np.int64)
        self.value_sum = np.zeros((len(actions), num_players), dtype=np.float64)
        self.children = [None] * len(actions)

    def select(self, c_puct: float) -> int:
        """Edge maximising ``Q + c · P · sqrt(N) / (1 + n)`` for the node's mover."""
        assert self.visits is not None and self.value_sum is not None and self.prior is not None
        n = self.visits
        q = np.divide(
            self.value_sum[:, self.player], n, out=np.zeros(len(n), dtype=np.float64), where=n > 0
        )
        u = c_puct * self.prior * math.sqrt(n.sum() + 1) / (1.0 + n)
        return int(np.argmax(q + u))


def add_root_noise(node: Node, alpha: float, epsilon: float, rng: np.random.Generator) -> None:
    """Mix Dirichlet noise into the root priors (exploration during self-play)."""
    if node.prior is None or epsilon <= 0 or len(node.prior) == 0:
        return
    noise = rng.dirichlet([alpha] * len(node.prior))
    node.prior = (1 - epsilon) * node.prior + epsilon * noise


def _absolute(relative: np.ndarray, mover: int) -> np.ndarray:
    """Rotate values relative to the mover into seat order."""
    return np.roll(relative, mover)


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
    evaluated = 0
    leaf_value: dict[int, np.ndarray] = {}  # seat-order values of freshly evaluated leaves
    pending = [r for r in roots if not r.expanded and not r.terminal]
    if pending:
        evaluated += _evaluate_and_expand(pending, evaluate, num_players, leaf_value)
    for _ in range(simulations):
        paths: list[list[tuple[Node, int]]] = []
        leaves: list[Node] = []
        for root in roots:
            if root.terminal:
                continue
            node, path = root, []
            while True:
                a = node.select(c_puct)
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
            paths.append(path)
            leaves.append(child)
        to_eval = [leaf for leaf in leaves if not leaf.terminal and not leaf.expanded]
        if to_eval:
            evaluated += _evaluate_and_expand(to_eval, evaluate, num_players, leaf_value)
        for path, leaf in zip(paths, leaves, strict=True):
            value = leaf.state.returns() if leaf.terminal else leaf_value[id(leaf)]
            for node, a in path:
                assert node.visits is not None and node.value_sum is not None
                node.visits[a] += 1
                node.value_sum[a] += value
        leaf_value.clear()
    return evaluated


def _evaluate_and_expand(
    nodes: Sequence[Node],
    evaluate: BatchEvaluator,
    num_players: int,
    leaf_value: dict[int, np.ndarray],
) -> int:
    observations = np.stack([n.state.observation(n.player) for n in nodes])
    legal = [n.state.legal_actions() for n in nodes]
    priors, values = evaluate(observations, legal)
    for node, actions, prior, value in zip(nodes, legal, priors, values, strict=True):
        node.expand(actions, prior, num_players)
        leaf_value[id(node)] = _absolute(np.asarray(value, dtype=np.float64), node.player)
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
