"""State-abstraction MCTS_u planners of the SCSA paper: RG MCTS_u, Elastic MCTS_u and SCSA.

Source: ``papers/stratega_scsa.txt`` (Algorithms 1 and 2, section VI) and
``specs/stratega_rules.md`` sections 6.2-6.5, from GAIGResearch/Stratega branches
``scsa_ktkpta`` and ``scsa_tk`` (``UnitMCTSAgent.cpp``, ``UnitMCTSNode.cpp``).

All three extend MCTS with unit ordering (:class:`~stratagem.baselines.search.mcts_u.MCTSUnitAgent`:
one unit decides per tree level, the turn ends automatically once every unit is done, random
opponents) with a **state abstraction** that groups tree nodes of the same depth; the members of
a group share their visit count and value in the tree policy. The search runs the reference's
closed-loop UnitMCTS iteration (no depth limit on the tree; rollouts of random actions, the
opponent's random replies included, until ``rollout_length`` own actions from the root; every
``apply`` a counted forward-model call) in batches of ``batch_size`` iterations (B = 20); after
each batch ``ConstructAbstraction`` (Algorithm 2) visits the depths from the deepest but one up
to 1 and every node that has expanded children and is not grouped yet:

* ``abstraction="random"`` (**RG MCTS_u**): the node joins one of the ``n`` groups of its depth or
  starts a new one, uniformly over the ``n + 1`` choices.
* ``abstraction="elastic"`` (**Elastic MCTS_u**): the node joins a group when it is an approximate
  MDP homomorphism of the group's members (reward error ``ε_R <= eta_r`` and transition error
  ``ε_T <= eta_t``), else starts a new group. Early stop: after ``early_stop`` batches
  (``α_ES = early_stop × B`` iterations) every group is split back into its ground nodes, which
  carry on with their own statistics, and no abstraction is built again in that decision.
* ``abstraction="scsa"`` (**SCSA**): the same test, but a group that has reached ``size_limit``
  is never a candidate, and there is no early stop.
* ``abstraction="none"``: the same UnitMCTS loop without abstraction (Stratega's MCTS_u, for
  measuring the abstraction's overhead and as the control in the paper's tables).

The errors use what each node recorded when it expanded a child ``a`` (only with abstraction on,
as the reference): the reward ``R(s, a)``, the evaluator's value for the searching player of the
child's state (after the automatic end of turn and the opponents' replies), and the transition
``T(s, a)``, a key of the acting unit (type and tile). ``ε_R`` is the largest ``|R(s1,a) −
R(s2,a)|`` over the actions, an action only one node expanded counting ``|R|``; ``ε_T`` is the
largest per-action total variation between the two deterministic transitions: 0 when both nodes
expanded ``a`` and reached the same key, 2 otherwise. So ``eta_t >= 2`` ignores transitions and
``eta_t < 2`` asks for identical expanded actions with identical outcomes.

Group statistics: a new group starts from its first member's visit count and value; later
members do not add theirs; every backup through a grouped node adds to both the node and its
group. Selection uses the group's count and value for a grouped child and for a grouped parent's
exploration term (the reference's UCT: ``v/(n+ε) + c·√(ln(N+1)/(n+ε))`` with ``ε = 0.01`` and the
reference's multiplicative tie-breaking noise). The recommendation is the root child with the
most visits of its own (ties: best own mean), as the reference's final ``eliminateAbstraction``
leaves every child with its own statistics.

**Reference quirks** (``stratega_rules.md`` section 7), switched together by
``reference_quirks`` (default true, as the code the paper ran):

======================================  ==============================  =========================
quirk                                   ``reference_quirks=true``       ``false`` (the paper)
======================================  ==============================  =========================
1. transition key of an action          the acting unit *before* the    the acting unit in the
                                        action (same for all actions    child's state (``None``
                                        of a node)                      once it died)
2. reward error                         over the first node's actions   over both nodes' actions
                                        only                            (the union)
3. Elastic: which groups a node joins   every group with a matching     the first group whose
                                        member (its id: the last)       members all match
                                                                        (Algorithm 2)
4. SCSA size limit                      a group is skipped when it has  skipped when it has
                                        more than ``size_limit``        ``size_limit`` members
                                        members (so it can reach        (at most ``size_limit``)
                                        ``size_limit + 1``)
action identity across nodes            the action's index in the       the action's relative
                                        deciding unit's sorted action   kind and direction (its
                                        list (the reference's child     plane of the spatial
                                        index)                          layout)
SCSA membership test                    some member matches (the code)  every member matches
======================================  ==============================  =========================

Game hooks (all optional): ``state.action_unit(action)`` (required by MCTS_u),
``state.unit(uid)`` with ``type``, ``x`` and ``y`` for the transition key (else the unit id is
used), ``state.unit_type_name(uid)`` for ``skip_units`` (Two Kingdoms' City nodes are never
grouped, as in the reference), and ``evaluator.abstraction_ready(player)``: while it is false no
abstraction is built (Two Kingdoms' battle mode: the reference abstracts only once the agent owns
three Warriors).

Compression rate (the paper's Figure 6): after every batch the planner records the grouped
nodes divided by the groups (tree nodes per abstract node among the abstracted ones) and the
tree's nodes divided by its abstract nodes (groups plus ungrouped nodes), in
``last_stats.extra["compression"]`` as ``(iteration, grouped/groups, nodes/abstract)``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from stratagem.baselines.agent import (
    EvaluatorAbstractionGate,
    EvaluatorMemory,
    register_agent,
)
from stratagem.baselines.search.common import SearchStats
from stratagem.baselines.search.config import (
    SearchConfig,
    check_choice,
    check_flag,
    check_int,
    check_number,
    kind_names,
)
from stratagem.baselines.search.mcts import (
    LeafEvaluator,
    MCTSAgent,
    Node,
    RolloutEvaluator,
    TreeHooks,
)
from stratagem.baselines.search.mcts_u import MCTSUnitAgent
from stratagem.envs.core import Game, State, UnitTypeNames, UnitViews, optional_hook

__all__ = [
    "ABSTRACTIONS",
    "AbstractionMCTSAgent",
    "ElasticMCTSAgent",
    "RGMCTSAgent",
    "SCSAAgent",
]

ABSTRACTIONS = ("none", "random", "elastic", "scsa")
#: The reference's EPSILON of UnitMCTS (UCT denominators and tie-breaking noise).
EPSILON = 0.01
_TRANSITION_MISMATCH = 2.0


class _Group:
    """An abstract node: same-depth tree nodes sharing a visit count and values."""

    __slots__ = ("members", "n", "w")

    def __init__(self, first: Node) -> None:
        self.members = [first]
        self.n = first.n
        self.w = list(first.w)


class _Info:
    """What the abstraction needs to know about one tree node."""

    __slots__ = ("group", "keys", "next", "reward", "skip", "unit_key")

    def __init__(self) -> None:
        self.group: _Group | None = None
        self.keys: dict[int, object] = {}
        self.reward: dict[object, float] = {}
        self.next: dict[object, object] = {}
        self.skip = False
        self.unit_key: object = None


class AbstractionMCTSAgent(MCTSUnitAgent):
    """UnitMCTS with the SCSA paper's node grouping (see the module docstring).

    Defaults are the paper's SCSA for Kill The King (Table I): 10,000 forward-model calls,
    ``c = 0.1``, rollouts of 10, ``eta_r = 0.05``, ``eta_t = 1.0``, ``size_limit = 2``, B = 20.

    Options (:class:`~stratagem.baselines.search.config.SearchConfig`, as keywords or
    ``config``): ``budget``, ``time_limit``, ``iterations``, ``evaluator``, ``c`` (the paper's
    C, the reference's K), ``rollout_length`` (own actions from the root after which rollouts
    stop: the paper's K, the reference's RolloutLength) and ``exclude_kinds``. Rollouts, raw
    values, random opponents and closed loop are fixed, as in the reference.

    Args:
        game: The game the agent plays (its states must provide ``action_unit``).
        config: The whole configuration, instead of keywords.
        abstraction: ``"none"``, ``"random"`` (RG), ``"elastic"`` or ``"scsa"``.
        eta_r: Reward error threshold η_R (elastic, scsa).
        eta_t: Transition error threshold η_T (elastic, scsa).
        batch_size: Iterations per batch B; the abstraction is extended after every batch.
        early_stop: Batches after which every group is split for good (the paper's α_ES in
            units of B; random and elastic); 0 never splits. SCSA ignores it.
        size_limit: SCSA's SIZE_LIMIT (see the quirk table for its exact meaning).
        reference_quirks: Keep the reference code's behaviour (true) or play the paper's
            algorithm (false); see the module docstring.
        skip_units: Unit type names whose nodes are never grouped (``|``-separated).
        order: Unit order, ``"id"`` or ``"random"`` (see MCTS_u).
        **options: Configuration fields over :attr:`defaults`.

    Raises:
        ValueError: For an unknown abstraction or an out-of-range parameter.
    """

    name = "abs_mcts_u"
    default_abstraction = "scsa"
    options = frozenset(
        ("budget", "time_limit", "iterations", "evaluator", "c", "rollout_length", "exclude_kinds")
    )
    defaults = SearchConfig(
        budget=10000,
        c=0.1,
        rollout_length=10,
        rollouts=True,
        normalize=False,
        opponent="random",
        open_loop=False,
    )

    def __init__(
        self,
        game: Game,
        config: SearchConfig | None = None,
        *,
        abstraction: str | None = None,
        eta_r: float = 0.05,
        eta_t: float = 1.0,
        batch_size: int = 20,
        early_stop: int = 0,
        size_limit: int = 2,
        reference_quirks: bool = True,
        skip_units: str | Sequence[str] = "city|barracks",
        order: str = "id",
        **options: Any,
    ) -> None:
        super().__init__(game, config, order=order, **options)
        abstraction = self.default_abstraction if abstraction is None else abstraction
        who = self.name
        check_choice(who, "abstraction", abstraction, ABSTRACTIONS)
        check_number(who, "eta_r", eta_r)
        check_number(who, "eta_t", eta_t)
        check_int(who, "batch_size", batch_size, 1)
        check_int(who, "early_stop", early_stop, 0)
        check_int(who, "size_limit", size_limit, 0)
        check_flag(who, "reference_quirks", reference_quirks)
        skip = kind_names(skip_units)
        self.abstraction = abstraction
        self.eta_r = float(eta_r)
        self.eta_t = float(eta_t)
        self.batch_size = batch_size
        self.early_stop = early_stop if abstraction in ("random", "elastic") else 0
        self.size_limit = size_limit
        self.reference_quirks = reference_quirks
        self.skip_units = skip
        self._abs_info: dict[Node, _Info] = {}
        self._abs_layers: dict[int, list[Node]] = {}
        self._abs_groups: dict[int, list[_Group]] = {}
        # Per-search state of the abstraction, set by _tree_hooks.
        self._abs_active = False
        self._abs_batches = 0
        self._abs_compression: list[tuple[int, float, float]] = []
        self._abs_dropped_at: int | None = None

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(abstraction={self.abstraction!r}, budget={self.budget}, "
            f"c={self.c}, rollout_length={self.rollout_length}, eta_r={self.eta_r}, "
            f"eta_t={self.eta_t}, early_stop={self.early_stop}, size_limit={self.size_limit}, "
            f"reference_quirks={self.reference_quirks})"
        )

    def reset(self) -> None:
        """Forget the previous game (unit order, and the evaluator's game memory if any)."""
        super().reset()
        reset = optional_hook(self.evaluator, EvaluatorMemory.reset)
        if callable(reset):
            reset()

    # ------------------------------------------------------------------ search hooks
    def _search(
        self, state: State, actions: list[int], prng: random.Random, stats: SearchStats
    ) -> int:
        """MCTS's one closed-loop search; unlike MCTS_u the reference reports no unit rank."""
        return MCTSAgent._search(self, state, actions, prng, stats)

    def _tree_hooks(self, root: Node, state: State, prng: random.Random) -> TreeHooks:
        """The reference's UnitMCTS on the shared loop, with the abstraction's bookkeeping.

        The tree has no depth limit; selection is the reference's UCT on group statistics
        (:meth:`_selector`); every expansion is recorded (:meth:`_record`), every backup also
        feeds the groups, and every ``batch_size`` iterations the abstraction is extended
        (:meth:`_batch_done`), all only while the abstraction is active.
        """
        active = self.abstraction != "none"
        ready = optional_hook(self.evaluator, EvaluatorAbstractionGate.abstraction_ready)
        if active and ready is not None and not ready(self._me):
            active = False  # Two Kingdoms before battle mode: no abstraction at all
        self._abs_active = active
        self._abs_info = {}
        self._abs_layers = {}
        self._abs_groups = {}
        self._abs_batches = 0
        self._abs_compression = []
        self._abs_dropped_at = None
        if not active:  # it never turns on later: only the reference's UCT and statistics
            return TreeHooks(select=self._selector(prng), finish=self._finish, depth_limited=False)
        self._register(root, state)
        return TreeHooks(
            select=self._selector(prng),
            expanded=self._expanded,
            backed_up=self._backed_up,
            iteration_done=self._batch_done,
            finish=self._finish,
            depth_limited=False,
        )

    def _leaf_evaluator(self) -> LeafEvaluator:
        """Always a rollout (the reference's), then the heuristic."""
        return RolloutEvaluator(self, self._own_rollout)

    def _selector(self, prng: random.Random) -> Callable[[Node], Node]:
        """The reference's UCT over group statistics where a node is grouped.

        ``v/(n+ε) + c·√(ln(N+1)/(n+ε))`` with the reference's multiplicative tie-breaking
        noise: one draw of ``prng`` per child, in child order.
        """
        c = self.c
        log, sqrt = math.log, math.sqrt
        rand = prng.random
        info = self._abs_info
        neg_inf = -math.inf

        def select(node: Node) -> Node:
            active = self._abs_active
            children = node.children
            group = info[node].group if active else None
            parent_n = group.n if group is not None else node.n
            explore = c * sqrt(log(parent_n + 1))
            p = node.player
            best, best_u = children[0], neg_inf
            for ch in children:
                g = info[ch].group if active else None
                if g is not None:
                    n, w = g.n, g.w[p]
                else:
                    n, w = ch.n, ch.w[p]
                u = w / (n + EPSILON) + explore / sqrt(n + EPSILON)
                u = (u + EPSILON) * (1.0 + EPSILON * (rand() - 0.5))
                if u > best_u:
                    best, best_u = ch, u
            return best

        return select

    def _expanded(self, node: Node, action: int, child: Node) -> None:
        """Record the new expansion while the abstraction is active."""
        if self._abs_active:
            self._record(node, action, child, self._me)

    def _backed_up(self, path: list[Node], values: list[float]) -> None:
        """Add the values to the groups of the path's grouped nodes too."""
        if not self._abs_active:
            return
        info = self._abs_info
        players = range(self.num_players)
        for n in path:
            g = info[n].group
            if g is not None:
                g.n += 1
                gw = g.w
                for i in players:
                    gw[i] += values[i]

    def _batch_done(self, iterations: int, deepest: int, prng: random.Random) -> None:
        """After every batch: extend the abstraction, and split it for good at early stop."""
        if not self._abs_active or iterations % self.batch_size:
            return
        self._construct(deepest, prng)
        self._abs_batches += 1
        self._abs_compression.append((iterations, *self._compression()))
        if self.early_stop and self._abs_batches >= self.early_stop:
            self._split()
            self._abs_active = False
            self._abs_dropped_at = iterations

    def _finish(self) -> dict[str, Any]:
        """The abstraction's figures for ``SearchStats.extra``; the tree's records are dropped."""
        layers = self._abs_groups.values()
        extra = {
            "abstraction": self.abstraction,
            "batches": self._abs_batches,
            "groups": sum(len(layer) for layer in layers),
            "grouped_nodes": sum(len(g.members) for layer in layers for g in layer),
            "group_sizes": sorted(
                (len(g.members) for layer in layers for g in layer), reverse=True
            ),
            "compression": self._abs_compression,
            "abstraction_dropped_at": self._abs_dropped_at,
        }
        self._abs_info, self._abs_layers, self._abs_groups = {}, {}, {}
        return extra

    def _own_rollout(self, sim: State, steps: int, prng: random.Random, depth: int) -> None:
        """The reference's rollout: random own actions (EndTurn included) until the horizon.

        Plays at most ``steps`` own actions from ``depth``. After an own action that ends the
        turn the opponents reply at random; their actions are counted calls but not rollout
        depth, as in the reference's applyActionToGameState.
        """
        horizon = depth + steps
        me = self._me
        legal_fn = self._legal if self.exclude_kinds else self._legal_raw
        sample = None if self.exclude_kinds else self._sample
        rnd = prng.random
        while depth < horizon and self._calls < self._limit and not sim.is_terminal():
            if sample is not None:
                self._step(sim, sample(sim, prng))
            else:
                legal = legal_fn(sim)
                self._step(sim, legal[int(rnd() * len(legal))])
            if sim.current_player != me and not sim.is_terminal():
                self._play_opponents(sim, me, prng)
            depth += 1

    # ------------------------------------------------------------------ recording
    def _register(self, node: Node, state: State) -> None:
        """Create the abstraction record of a new node (its deciding unit and action keys)."""
        rec = _Info()
        self._abs_info[node] = rec
        self._abs_layers.setdefault(node.depth, []).append(node)
        acts = node.untried or []
        if not acts:
            return
        unit = state.action_unit(acts[0])  # type: ignore[attr-defined]
        rec.unit_key = _unit_key(state, unit)
        type_name = optional_hook(state, UnitTypeNames.unit_type_name)
        if unit is not None and type_name is not None and self.skip_units:
            rec.skip = type_name(unit) in self.skip_units
        if self.reference_quirks:
            rec.keys = {a: i for i, a in enumerate(sorted(acts))}
        else:
            layout = self.game.spec.action_layout
            cells = layout.height * layout.width if layout is not None else None
            rec.keys = {a: (a // cells if cells else a) for a in acts}

    def _record(self, node: Node, action: int, child: Node, me: int) -> None:
        """Store R(s, a) and T(s, a) of a fresh expansion and register the child."""
        self._register(child, child.state)
        rec = self._abs_info[node]
        key = rec.keys.get(action, action)
        rec.reward[key] = self._values(child.state)[me]
        if self.reference_quirks:
            rec.next[key] = rec.unit_key
        else:
            unit = node.state.action_unit(action)  # type: ignore[attr-defined]
            rec.next[key] = _unit_key(child.state, unit)

    # ------------------------------------------------------------------ Algorithm 2
    def _construct(self, deepest: int, prng: random.Random) -> None:
        """Extend the abstraction, from the deepest layer but one up to depth 1."""
        info = self._abs_info
        for depth in range(deepest - 1, 0, -1):
            layer = self._abs_layers.get(depth)
            if not layer:
                continue
            groups = self._abs_groups.setdefault(depth, [])
            for node in layer:
                rec = info[node]
                if rec.group is not None or not node.children or rec.skip:
                    continue
                if not groups:
                    self._new_group(groups, node, rec)
                    continue
                if self.abstraction == "random":
                    j = prng.randrange(len(groups) + 1)
                    if j == len(groups):
                        self._new_group(groups, node, rec)
                    else:
                        groups[j].members.append(node)
                        rec.group = groups[j]
                    continue
                joined = False
                for group in groups:
                    if self.abstraction == "scsa":
                        size = len(group.members)
                        if size > self.size_limit or (
                            not self.reference_quirks and size >= self.size_limit
                        ):
                            continue
                    if self._matches(rec, group):
                        group.members.append(node)
                        rec.group = group
                        joined = True
                        if not self.reference_quirks:
                            break
                if not joined:
                    self._new_group(groups, node, rec)

    @staticmethod
    def _new_group(groups: list[_Group], node: Node, rec: _Info) -> None:
        group = _Group(node)
        groups.append(group)
        rec.group = group

    def _matches(self, rec: _Info, group: _Group) -> bool:
        """Whether a node may join ``group``: some member (reference) or all (paper) match."""
        info = self._abs_info
        if self.reference_quirks:
            return any(self._homomorphic(rec, info[m]) for m in group.members)
        return all(self._homomorphic(rec, info[m]) for m in group.members)

    def _homomorphic(self, a: _Info, b: _Info) -> bool:
        """Approximate MDP homomorphism test between two nodes' recorded samples."""
        ra, rb = a.reward, b.reward
        err = 0.0
        for key, value in ra.items():
            other = rb.get(key)
            d = abs(value - other) if other is not None else abs(value)
            if d > err:
                err = d
        if not self.reference_quirks:
            for key, value in rb.items():
                if key not in ra and abs(value) > err:
                    err = abs(value)
        if err > self.eta_r:
            return False
        if self.eta_t >= _TRANSITION_MISMATCH:
            return True
        na, nb = a.next, b.next
        if na.keys() != nb.keys():
            return False
        return all(na[k] == nb[k] for k in na)

    def _split(self) -> None:
        """Early stop: every group back to its ground nodes (which kept their own statistics)."""
        for rec in self._abs_info.values():
            rec.group = None
        self._abs_groups = {}

    def _compression(self) -> tuple[float, float]:
        """(grouped nodes / groups, tree nodes / abstract nodes) of the current abstraction."""
        groups = sum(len(layer) for layer in self._abs_groups.values())
        grouped = sum(len(g.members) for layer in self._abs_groups.values() for g in layer)
        tree = sum(len(layer) for d, layer in self._abs_layers.items() if d > 0)
        abstract = groups + (tree - grouped)
        return (grouped / groups if groups else 1.0, tree / abstract if abstract else 1.0)


def _unit_key(state: State, unit: object) -> object:
    """The transition key of a unit: its type and tile, ``None`` once it is gone."""
    if unit is None:
        return None
    view_of = optional_hook(state, UnitViews.unit)
    if view_of is None:
        return unit
    view = view_of(unit)
    if getattr(view, "x", -1) < 0:  # views without a square tile (CotG's hexes) give no key
        return None
    return (getattr(view, "type", None), view.x, view.y)


class RGMCTSAgent(AbstractionMCTSAgent):
    """RG MCTS_u: random grouping with early stop.

    Defaults: paper Table I, Kill The King (C 0.1, K 10, α_ES 8 batches).
    """

    name = "rg_mcts_u"
    default_abstraction = "random"

    def __init__(self, game: Game, *, early_stop: int = 8, **kwargs: object) -> None:
        kwargs.setdefault("abstraction", "random")
        super().__init__(game, early_stop=early_stop, **kwargs)  # type: ignore[arg-type]


class ElasticMCTSAgent(AbstractionMCTSAgent):
    """Elastic MCTS_u: homomorphism grouping with early stop.

    Defaults: paper Table I, Kill The King (C 0.1, K 10, α_ES 10 batches, η_R 0.05, η_T 1.0).
    """

    name = "elastic_mcts_u"
    default_abstraction = "elastic"

    def __init__(self, game: Game, *, early_stop: int = 10, **kwargs: object) -> None:
        kwargs.setdefault("abstraction", "elastic")
        super().__init__(game, early_stop=early_stop, **kwargs)  # type: ignore[arg-type]


class SCSAAgent(AbstractionMCTSAgent):
    """SCSA: size-constrained homomorphism grouping, never abandoned.

    Defaults: paper Table I, Kill The King (C 0.1, K 10, η_R 0.05, η_T 1.0, SIZE_LIMIT 2).
    """

    name = "scsa"
    default_abstraction = "scsa"


def _register_agents() -> None:
    for name, cls, text in (
        ("abs_mcts_u", AbstractionMCTSAgent, "UnitMCTS with any SCSA-paper abstraction"),
        ("rg_mcts_u", RGMCTSAgent, "RG MCTS_u: random node grouping, early stop (SCSA paper)"),
        (
            "elastic_mcts_u",
            ElasticMCTSAgent,
            "Elastic MCTS_u: approximate-homomorphism grouping, early stop (SCSA paper)",
        ),
        ("scsa", SCSAAgent, "SCSA: size-constrained state abstraction MCTS_u (SCSA paper)"),
    ):
        register_agent(name, cls, text)


_register_agents()
