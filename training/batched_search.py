"""Gumbel AlphaZero search over a batched game: every tree of the batch advanced together.

:mod:`stratagem.training.puct` searches Python trees of scalar states and batches only the
network calls. Here the trees themselves are tensors, as in DeepMind's mctx: ``B`` trees of
``simulations + 1`` nodes each, one node added per tree and simulation, every step (selection,
expansion through :meth:`~stratagem.envs.batched.core.BatchedGame.step`, evaluation, backup) one
tensor operation over the whole batch, on CPU or CUDA. There is no Python loop over games or
nodes; the loops are over simulations and tree depth.

The rules are those of :func:`stratagem.training.puct.gumbel_search` (Danihelka et al., ICLR
2022): Gumbel-top-k at the root with sequential halving, the deterministic interior rule
``argmax π'(a) − n(a) / (1 + N)``, completed Q-values mixed with ``v_mix`` and rescaled within the
node, and the improved policy ``softmax(logits + σ(completed Q))`` as the policy target. Values
are vectors with one entry per seat (turns of several actions by one player back up correctly).

Actions are searched in the game's *candidate* space (:meth:`BatchedGame.legal_candidates`,
``K`` slots per position, far fewer than the flat action space), so a node costs ``O(K)``
memory; the results are given in the flat action space.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import torch

from stratagem.envs.batched.core import BatchedGame, BatchedState
from stratagem.training.cuda_graphs import CudaGraphForward
from stratagem.training.puct import considered_visit_sequence

__all__ = ["BatchedEvaluator", "BatchedSearchResult", "batched_gumbel_search", "network_evaluator"]

#: ``observations (n, H, W, C) -> (logits (n, A), values (n, players))``, values relative to the
#: player to move (entry 0 is the mover's, entry 1 the next seat's, ...), as the network gives.
BatchedEvaluator = Callable[[torch.Tensor], tuple[torch.Tensor, torch.Tensor]]

_LOW = -1e9  # the logit of an illegal slot (finite, so that arithmetic never makes NaN)


@dataclasses.dataclass
class BatchedSearchResult:
    """What the search decided at each root.

    Attributes:
        actions: ``(B,)`` the flat action to play (0 where the root is finished).
        policy: ``(B, A)`` the improved policy over the flat action space (the policy target;
            zero where the root is finished).
        prior: ``(B, A)`` the evaluator's policy at the root (zero where finished).
        root_value: ``(B, players)`` the evaluator's value of each root, in seat order.
        evaluations: Positions the evaluator saw (roots included).
    """

    actions: torch.Tensor
    policy: torch.Tensor
    prior: torch.Tensor
    root_value: torch.Tensor
    evaluations: int


def network_evaluator(
    net: torch.nn.Module, device: torch.device | str, *, graphs: bool = False
) -> BatchedEvaluator:
    """Wrap a policy-value network as a :data:`BatchedEvaluator` (bfloat16 autocast on CUDA).

    With ``graphs`` on CUDA the forward passes are replayed from CUDA graphs
    (:class:`~stratagem.training.cuda_graphs.CudaGraphForward`); ignored on the CPU.
    """
    device = torch.device(device)
    use_amp = device.type == "cuda"
    graphed = CudaGraphForward(net, device) if graphs and use_amp else None

    @torch.no_grad()
    def evaluate(observations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        net.eval()
        if graphed is not None:
            return graphed(observations)
        with torch.autocast(device_type="cuda", dtype=torch.bfloat16, enabled=use_amp):
            logits, values = net(observations.to(device))
        return logits.float(), values.float()

    return evaluate


class _Trees:
    """``B`` trees of ``N`` nodes in tensors.

    Node 0 is the root and node ``s + 1`` the one added by simulation ``s`` (unused in the trees
    whose simulation ended at a finished position).
    """

    def __init__(self, game: BatchedGame[Any], root: BatchedState, nodes: int) -> None:
        self.game = game
        b, d = root.batch_size, root.device
        self.batch, self.nodes = b, nodes
        self.rows = torch.arange(b, device=d)
        # node states, node-major: node n of tree b is row n * B + b
        self.states = root.map(lambda t: t.new_zeros((nodes * b, *t.shape[1:])))
        k = game.legal_candidates(root)[0].shape[1]
        p = game.num_players
        self.ids = torch.zeros(b, nodes, k, dtype=torch.int64, device=d)
        self.legal = torch.zeros(b, nodes, k, dtype=torch.bool, device=d)
        self.logits = torch.full((b, nodes, k), _LOW, device=d)
        self.children = torch.full((b, nodes, k), -1, dtype=torch.int64, device=d)
        self.parent = torch.full((b, nodes), -1, dtype=torch.int64, device=d)
        self.mover = torch.zeros(b, nodes, dtype=torch.int64, device=d)
        self.terminal = torch.zeros(b, nodes, dtype=torch.bool, device=d)
        self.raw_value = torch.zeros(b, nodes, p, device=d)
        self.value_sum = torch.zeros(b, nodes, p, device=d)
        self.visits = torch.zeros(b, nodes, device=d)

    def write(
        self,
        n: int,
        state: BatchedState,
        where: torch.Tensor,
        evaluate: BatchedEvaluator,
    ) -> tuple[torch.Tensor, int]:
        """Store ``state`` as node ``n`` of the trees where ``where`` and evaluate it there.

        Returns:
            The ``(B, players)`` value of the new nodes in seat order (terminal: the returns)
            and the number of positions evaluated.
        """
        game, b = self.game, self.batch
        rows = slice(n * b, (n + 1) * b)
        for f in dataclasses.fields(state):
            getattr(self.states, f.name)[rows] = getattr(state, f.name)
        terminal = game.terminated(state)
        mover = game.current_player(state)
        ids, legal = game.legal_candidates(state)
        value = game.returns(state)
        need = where & ~terminal
        count = int(need.sum())
        if count:
            index = torch.nonzero(need, as_tuple=True)[0]
            logits, relative = evaluate(game.observation(state.take(index)))
            seats = torch.arange(game.num_players, device=value.device)
            order = (seats[None, :] - mover[index, None]) % game.num_players
            value[index] = relative.gather(1, order)
            prior = logits.gather(1, ids[index])
            prior = torch.where(legal[index], prior, _LOW)
            self.logits[index, n] = torch.log_softmax(prior, dim=1).clamp(min=_LOW)
        self.ids[:, n] = ids
        self.legal[:, n] = legal & where[:, None]
        self.mover[:, n] = mover
        self.terminal[:, n] = terminal
        self.raw_value[:, n] = value
        return value, count

    def edges(self, node: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """At ``node`` (one per tree): logits, legal, child visits and the mover's child Q."""
        rows = self.rows
        children = self.children[rows, node]
        child = children.clamp(min=0)
        visited = children >= 0
        visits = torch.where(visited, self.visits[rows[:, None], child], 0.0)
        mover = self.mover[rows, node]
        sums = self.value_sum[rows[:, None], child, mover[:, None]]
        q = torch.where(visits > 0, sums / visits.clamp(min=1.0), 0.0)
        raw = self.raw_value[rows, node, mover]
        return self.logits[rows, node], self.legal[rows, node], visits, q, raw


def _sigma(
    logits: torch.Tensor,
    legal: torch.Tensor,
    visits: torch.Tensor,
    q: torch.Tensor,
    raw: torch.Tensor,
    value_scale: float,
    maxvisit_init: float,
) -> torch.Tensor:
    """``σ(completed Q)`` (mctx's ``qtransform_completed_by_mix_value``, as in puct.py)."""
    prior = torch.softmax(logits, dim=1)
    visited = visits > 0
    total = visits.sum(dim=1)
    weights = torch.where(visited, prior.clamp(min=1e-30), 0.0)
    weighted = (weights * q).sum(dim=1) / weights.sum(dim=1).clamp(min=1e-30)
    mixed = (raw + total * weighted) / (total + 1)
    completed = torch.where(visited, q, mixed[:, None])
    low = torch.where(legal, completed, float("inf")).min(dim=1, keepdim=True).values
    high = torch.where(legal, completed, float("-inf")).max(dim=1, keepdim=True).values
    completed = (completed - low) / (high - low).clamp(min=1e-8)
    return (maxvisit_init + visits.max(dim=1, keepdim=True).values) * value_scale * completed


def _schedule(max_considered: int, simulations: int, device: torch.device) -> torch.Tensor:
    """``(max_considered + 1, simulations)``: sequential halving's visit target per count."""
    table = [
        considered_visit_sequence(c, simulations) if simulations else ()
        for c in range(max_considered + 1)
    ]
    return torch.tensor(table, dtype=torch.float32, device=device).reshape(
        max_considered + 1, simulations
    )


def batched_gumbel_search(
    game: BatchedGame[Any],
    root: BatchedState,
    evaluate: BatchedEvaluator,
    simulations: int,
    *,
    generator: torch.Generator | None = None,
    noise: torch.Tensor | None = None,
    max_considered: int = 16,
    value_scale: float = 0.1,
    maxvisit_init: float = 50.0,
) -> BatchedSearchResult:
    """Gumbel AlphaZero search from every position of ``root`` (see the module docstring).

    Args:
        game: The batched game.
        root: The positions to search from (finished ones get action 0 and a zero policy).
        evaluate: The evaluator (:func:`network_evaluator`).
        simulations: Simulations per root (at least 1).
        generator: Draws the Gumbel noise; ``None`` searches without noise (evaluation play).
        noise: Optional ``(B,)`` bool, the roots that get noise when ``generator`` is given
            (self-play turns it off after the opening).
        max_considered: Root actions sampled without replacement (``m`` of the paper).
        value_scale: ``c_scale`` of σ.
        maxvisit_init: ``c_visit`` of σ.
    """
    if simulations < 1:
        raise ValueError(f"simulations must be at least 1, got {simulations}")
    if max_considered < 1:
        raise ValueError(f"max_considered must be at least 1, got {max_considered}")
    b, device = root.batch_size, root.device
    trees = _Trees(game, root, simulations + 1)
    live = ~game.terminated(root)
    root_value, evaluations = trees.write(0, root, live, evaluate)
    rows, zero = trees.rows, torch.zeros(b, dtype=torch.int64, device=device)
    legal0 = trees.legal[:, 0]
    k = legal0.shape[1]
    if generator is not None:
        u = torch.rand(b, k, generator=generator, device=device).clamp(min=1e-20, max=1 - 1e-7)
        gumbel = -torch.log(-torch.log(u))
        if noise is not None:
            gumbel = torch.where(noise.to(device)[:, None], gumbel, 0.0)
    else:
        gumbel = torch.zeros(b, k, device=device)
    considered = legal0.sum(dim=1).clamp(max=max_considered)
    table = _schedule(max_considered, simulations, device)
    # a round of sequential halving ranks its candidates once, at its start (as the scalar
    # search does, which evaluates a round's leaves in one batch)
    round_start = torch.ones_like(table, dtype=torch.bool)
    round_start[:, 1:] = table[:, 1:] != table[:, :-1]
    ranked = torch.zeros(b, k, device=device)

    def sigma_at(node: torch.Tensor) -> tuple[torch.Tensor, ...]:
        logits, legal, visits, q, raw = trees.edges(node)
        sigma = _sigma(logits, legal, visits, q, raw, value_scale, maxvisit_init)
        return logits, legal, visits, sigma

    for sim in range(simulations):
        # selection: descend until an unexpanded edge or a finished position
        node, going = zero.clone(), live.clone()
        parent, slot = zero.clone(), zero.clone()
        leaf = zero.clone()
        new = torch.zeros(b, dtype=torch.bool, device=device)
        depth = 0
        while bool(going.any()):
            logits, legal, visits, sigma = sigma_at(node)
            if depth == 0:
                target = table[considered, sim]
                start = round_start[considered, sim]
                ranked = torch.where(start[:, None], gumbel + logits + sigma, ranked)
                score = ranked
                allowed = legal & (visits == target[:, None])
                allowed = torch.where(allowed.any(dim=1, keepdim=True), allowed, legal)
            else:
                improved = torch.softmax(logits + sigma, dim=1)
                score = improved - visits / (1.0 + visits.sum(dim=1, keepdim=True))
                allowed = legal
            a = torch.where(allowed, score, float("-inf")).argmax(dim=1)
            child = trees.children[rows, node, a]
            expand = going & (child < 0)
            parent = torch.where(expand, node, parent)
            slot = torch.where(expand, a, slot)
            new |= expand
            stop = going & (child >= 0) & trees.terminal[rows, child.clamp(min=0)]
            leaf = torch.where(stop, child, leaf)
            going = going & ~expand & ~stop
            node = torch.where(going, child, node)
            depth += 1
        # expansion: one new node per tree that reached an unexpanded edge
        n = sim + 1
        flat = parent * b + rows
        before = trees.states.take(flat)
        actions = trees.ids[rows, parent, slot]
        after = game.step(before, actions, active=new, validate=False)
        value, count = trees.write(n, after, new, evaluate)
        evaluations += count
        trees.parent[:, n] = torch.where(new, parent, -1)
        trees.children[rows, parent, slot] = torch.where(new, n, trees.children[rows, parent, slot])
        leaf = torch.where(new, n, leaf)
        value = torch.where(new[:, None], value, trees.raw_value[rows, leaf])
        # backup: every node on the path from the leaf to the root
        node, climbing = leaf, live.clone()
        while bool(climbing.any()):
            add = climbing.to(torch.float32)
            trees.visits[rows, node] += add
            trees.value_sum[rows, node] += value * add[:, None]
            above = trees.parent[rows, node]
            climbing = climbing & (node != 0) & (above >= 0)
            node = torch.where(climbing, above, node)
    logits, legal, visits, sigma = sigma_at(zero)
    most = torch.where(legal, visits, -1.0).max(dim=1, keepdim=True).values
    survivors = legal & (visits == most)
    score = torch.where(survivors, gumbel + logits + sigma, float("-inf"))
    pick = score.argmax(dim=1)
    actions = torch.where(live, trees.ids[rows, 0, pick], 0)
    improved = torch.softmax(torch.where(legal, logits + sigma, float("-inf")), dim=1)
    improved = torch.where(live[:, None], improved.nan_to_num(0.0), 0.0)
    policy = torch.zeros(b, game.num_actions, device=device)
    policy.scatter_add_(1, trees.ids[:, 0], torch.where(legal, improved, 0.0))
    prior = torch.zeros(b, game.num_actions, device=device)
    prior.scatter_add_(1, trees.ids[:, 0], torch.where(legal, torch.softmax(logits, dim=1), 0.0))
    return BatchedSearchResult(actions, policy, prior, root_value, evaluations)
