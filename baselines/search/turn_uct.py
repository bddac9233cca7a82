"""The one UCT loop of the turn-level searches (CotG scripts, Prismata HPS) and the open loop.

Two planners search over whole turns rather than single actions: MCTS and MCTS-HP in script
space (:mod:`stratagem.baselines.cotg_combat.mcts_script`, an edge is a vector of scripts) and
Prismata's HPS UCT (:class:`stratagem.baselines.prismata.search.UCTPlayer`, an edge is a
portfolio turn). Both run the same iteration: descend from the root, adding the first child
the node can still generate or else choosing a child by UCB1, until a new child or a terminal
node is reached; evaluate that leaf; back the outcome up along the path. They differ in each of
those steps (lazily generated children, the value each node keeps, the playout, the stopping
rule), so :func:`run_turn_uct` takes the steps as functions and owns only their order, as
OpenSpiel's MCTS takes an ``Evaluator``.

The open-loop search of the flat-action planners
(:meth:`stratagem.baselines.search.mcts.MCTSAgent._search_open`, the default where the game has
chance, as Tribes) runs on this loop too: its node is a step of the replayed descent (the
statistics node and the simulation that reached it). The calls cost it 2-6% of its speed
(measured against its former inlined loop, same moves and statistics).

The closed-loop flat-action search (MCTS, MCTS_u, the SCSA abstraction planners) keeps its own
loop, :meth:`stratagem.baselines.search.mcts.MCTSAgent._search`: it runs once per forward-model
call on the suite's deterministic games, so its selection and backup are inlined there, and a
call per step (as here) would slow it. Here an iteration plays whole turns and a playout, and
the calls cost nothing measurable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

__all__ = ["TurnNode", "run_turn_uct"]


class TurnNode(Protocol):
    """What the loop reads of a node: whether the game has ended there."""

    terminal: bool


NodeT = TypeVar("NodeT", bound=TurnNode)
OutcomeT = TypeVar("OutcomeT")


def run_turn_uct(
    root: NodeT,
    *,
    expand: Callable[[NodeT], NodeT | None],
    select: Callable[[NodeT], NodeT],
    evaluate: Callable[[NodeT], OutcomeT],
    backup: Callable[[list[NodeT], OutcomeT], None],
    done: Callable[[int], bool],
) -> tuple[int, int]:
    """Run UCT iterations from ``root`` until ``done`` says stop (after at least one).

    Each step is called in the same order as the searches' own loops called them, so their
    random draws (children generated lazily, playouts) happen in the same order too.

    Args:
        root: The root node (its statistics are updated in place).
        expand: Adds the node's next child and returns it, or ``None`` when it has no more.
        select: The child to descend to at a node that has no more children to add (UCB1).
        evaluate: The outcome of a leaf: a new child or a terminal node already in the tree.
        backup: Adds the outcome to every node of the path (root first).
        done: Whether to stop after this many iterations (budgets, time, iteration caps).

    Returns:
        The number of iterations and the depth (in turns) of the deepest leaf evaluated.
    """
    iterations = 0
    deepest = 0
    while True:
        node = root
        path = [root]
        while not node.terminal:
            child = expand(node)
            if child is not None:
                path.append(child)
                node = child
                break
            node = select(node)
            path.append(node)
        if len(path) - 1 > deepest:
            deepest = len(path) - 1
        backup(path, evaluate(node))
        iterations += 1
        if done(iterations):
            return iterations, deepest
