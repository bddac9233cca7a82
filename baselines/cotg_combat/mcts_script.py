"""MCTS in script space and MCTS-HP for CotG combat (Šmejkal & Gemrot 2018).

**MCTS in script space** (the paper's section of that name, after Justesen et al. 2014): a tree
node is the state at the start of a player's turn; an edge is a *vector of scripts*, one per
living unit of the player to move, and the child is the state after that player's whole turn
played with those scripts. A playout gives every unit of the player to move a uniformly random
script of the portfolio, turn after turn, until the battle ends (or ``playout_turns``). Selection
is UCB1 from the side of the player to move; the move is the most visited root child's vector.

Branching is ``|P|^n`` for ``n`` units, so a node offers (⚑ spec section 8) the uniform vectors
("all units use script s", in portfolio order) and then ``samples`` distinct random vectors; when
``|P|^n`` is at most that many, it offers every vector instead, in lexicographic order of the
portfolio. The paper's portfolio is Kiter and NOKAV and its move ordering tries "the assignments
involving the Kiter script first": with the default portfolio ``kiter|nokav`` the all-Kiter
vector is expanded first.

**MCTS-HP** (the paper's Listing 2) changes only simulation and backpropagation: the playout
returns ``Δ = hp(p1) - hp(p2)``, the hit points left on each side, and every node ``n`` on the
way back to the root adds ``Δ / hp_n(p)``, where ``p`` is player 0 when ``Δ > 0`` and player 1
otherwise and ``hp_n(p)`` is ``p``'s total hit points in that node's state. Hit points never
grow back, so the value lies in [−1, 1]; the same playout is a strong win seen from a node where
the winner had little left, and a weak one seen from where it had much more. Plain MCTS adds
+1 / −1 / 0 for a player-0 win / loss / draw.

Values are kept from player 0's side in [−1, 1]; UCB1 uses ``(1 ± Q) / 2`` in [0, 1] for the
player to move, with ``c = 1/√2`` (⚑ spec section 8).

The iteration is :func:`~stratagem.baselines.search.turn_uct.run_turn_uct`, the UCT loop this
search shares with Prismata's HPS UCT; this module supplies its steps (expansion, UCB1,
playout, the two backups and the limits).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from stratagem.baselines.cotg_combat.scripts import (
    SCRIPTS,
    Script,
    TurnPlanAgent,
    play_turn,
    resolve_portfolio,
)
from stratagem.baselines.search.config import SearchConfig, check_flag, check_int, configure
from stratagem.baselines.search.turn_uct import run_turn_uct
from stratagem.envs.core import Game
from stratagem.envs.cotg_combat.rules import CotgCombatState

__all__ = ["ScriptMCTSAgent", "hp_node_value"]


def hp_node_value(delta: float, hp: tuple[int, int]) -> float:
    """MCTS-HP's value of a playout ending with ``delta`` at a node with hit points ``hp``.

    ``delta / hp[0]`` when player 0 is ahead (``delta > 0``), else ``delta / hp[1]`` (0 for a
    tie); always in [−1, 1] because hit points never grow back.
    """
    if delta > 0:
        return delta / hp[0]
    if delta < 0:
        return delta / hp[1]
    return 0.0


class _Node:
    """A tree node: the state at the start of a turn, its children and statistics."""

    __slots__ = (
        "children",
        "hp",
        "n",
        "pending",
        "player",
        "random_left",
        "slots",
        "state",
        "terminal",
        "tried",
        "vectors",
        "w",
    )

    def __init__(self, state: CotgCombatState, portfolio: int, samples: int) -> None:
        self.state = state
        self.player = state.current_player
        self.hp = state.hp_totals()
        self.terminal = state.winner is not None
        self.children: list[_Node] = []
        self.vectors: list[tuple[int, ...]] = []
        self.n = 0
        self.w = 0.0
        u_n = state.game.units
        base = self.player * u_n
        self.slots = [k for k in range(u_n) if state.positions[base + k] >= 0]
        n = len(self.slots)
        self.tried: set[tuple[int, ...]] = set()
        if self.terminal:
            self.pending: list[tuple[int, ...]] = []
            self.random_left = 0
        elif portfolio**n <= portfolio + samples:
            self.pending = list(itertools.product(range(portfolio), repeat=n))
            self.random_left = 0
        else:
            self.pending = [(s,) * n for s in range(portfolio)]
            self.random_left = samples
        self.pending.reverse()  # popped from the end

    def next_vector(self, prng: random.Random, portfolio: int) -> tuple[int, ...] | None:
        """The next script vector to expand, or ``None`` when the node is fully expanded."""
        while self.pending:
            vec = self.pending.pop()
            if vec not in self.tried:
                self.tried.add(vec)
                return vec
        n = len(self.slots)
        while self.random_left > 0:
            self.random_left -= 1
            for _ in range(16):
                vec = tuple(prng.randrange(portfolio) for _ in range(n))
                if vec not in self.tried:
                    self.tried.add(vec)
                    return vec
        return None


class ScriptMCTSAgent(TurnPlanAgent):
    """MCTS (``hp=False``) or MCTS-HP (``hp=True``) in script space, one search per turn.

    Options shared with the other planners (fields of
    :class:`~stratagem.baselines.search.config.SearchConfig`, given as keywords or as
    ``config``; at least one of the first three must be set):

    * ``time_limit``: seconds per turn (the paper: 0.1, 0.5, 2.0); ``None`` for no limit.
    * ``budget``: forward-model calls per turn; ``None`` for no limit.
    * ``iterations``: iterations per turn; ``None`` for no limit.
    * ``c``: UCB1 exploration constant (values in [0, 1]; default ``1/√2``).

    Args:
        game: A CotG combat game.
        config: The whole shared configuration, instead of its keywords.
        hp: Use MCTS-HP's hit-point playout value and per-node mapping.
        portfolio: Script names; the paper's is Kiter and NOKAV (Kiter first: the move ordering).
        samples: Random script vectors a node offers beyond the uniform ones.
        playout_turns: Player-turns per playout; ``None`` plays to the end (the paper).
        clock: ``"cpu"`` or ``"wall"`` time for ``time_limit``.
        **options: The shared options above, over :attr:`defaults`.

    Raises:
        TypeError: For a keyword the planner does not take.
        ValueError: For a bad parameter, or when no limit at all is set.
    """

    name = "cotg_mcts"
    #: The :class:`SearchConfig` fields this planner takes as keywords.
    options: ClassVar[frozenset[str]] = frozenset(("budget", "time_limit", "iterations", "c"))
    #: Its defaults: 0.1 s per turn, no call budget or iteration cap, ``c = 1/√2``.
    defaults: ClassVar[SearchConfig] = SearchConfig(budget=None, time_limit=0.1, c=1 / math.sqrt(2))

    def __init__(
        self,
        game: Game,
        config: SearchConfig | None = None,
        *,
        hp: bool = False,
        portfolio: Sequence[str] | str = ("kiter", "nokav"),
        samples: int = 8,
        playout_turns: int | None = None,
        clock: str = "cpu",
        **options: Any,
    ) -> None:
        super().__init__(game, clock=clock)
        who = type(self).name
        config = configure(type(self), who, self.options, self.defaults, config, options)
        check_int(who, "playout_turns", playout_turns, 1, optional=True)
        check_int(who, "samples", samples, 0)
        check_flag(who, "hp", hp)
        self.config = config
        self.hp = hp
        self.time_limit = config.time_limit
        self.budget = config.budget
        self.iterations = config.iterations
        self.portfolio = resolve_portfolio(portfolio)
        self._fns: tuple[Script, ...] = tuple(SCRIPTS[n] for n in self.portfolio)
        self.samples = samples
        self.c = config.c
        self.playout_turns = playout_turns
        # Per-search state of the steps run by run_turn_uct, set by choose_scripts.
        self._prng = random.Random(0)
        self._calls = 0
        self._start = 0.0
        label = "cotg_mcts_hp" if hp else "cotg_mcts"
        self.name = label if self.time_limit is None else f"{label}_{round(self.time_limit * 1000)}"

    def __repr__(self) -> str:
        return (
            f"ScriptMCTSAgent(hp={self.hp}, time_limit={self.time_limit}, budget={self.budget}, "
            f"iterations={self.iterations}, portfolio={self.portfolio})"
        )

    # ------------------------------------------------------------------ search
    def choose_scripts(self, state: CotgCombatState, rng: np.random.Generator) -> list[Script]:
        """Search the script vectors of this turn and return the most visited one's scripts."""
        self._prng = random.Random(int(rng.integers(1 << 63)))
        root = _Node(state.clone(), len(self._fns), self.samples)
        self._calls = 0
        self._start = self._now()
        iterations, depth = run_turn_uct(
            root,
            expand=self._expand,
            select=self._select,
            evaluate=self._playout,
            backup=self._backup_hp if self.hp else self._backup_win,
            done=self._done,
        )
        best = max(
            range(len(root.children)),
            key=lambda i: (
                root.children[i].n,
                (root.children[i].w if root.player == 0 else -root.children[i].w)
                / root.children[i].n,
            ),
        )
        self.last_stats = {
            "iterations": iterations,
            "fm_calls": self._calls,
            "root_children": len(root.children),
            "depth": depth,
            "best_visits": root.children[best].n,
            "best_value": root.children[best].w / root.children[best].n,
        }
        return self._scripts(root, root.vectors[best])

    def _done(self, iterations: int) -> bool:
        """Whether a limit is reached (checked after each iteration: the first always runs)."""
        if self.iterations is not None and iterations >= self.iterations:
            return True
        if self.budget is not None and self._calls >= self.budget:
            return True
        return self.time_limit is not None and self._now() - self._start >= self.time_limit

    def _expand(self, node: _Node) -> _Node | None:
        """Play the node's next script vector into a new child (``None``: none left)."""
        k = len(self._fns)
        vec = node.next_vector(self._prng, k)
        if vec is None:
            return None
        child_state = node.state.clone()
        self._calls += play_turn(child_state, self._scripts(node, vec))
        child = _Node(child_state, k, self.samples)
        node.children.append(child)
        node.vectors.append(vec)
        return child

    def _playout(self, node: _Node) -> CotgCombatState:
        """The end of a playout from ``node``: uniformly random scripts for every unit."""
        sim = node.state.clone()
        turns = 0
        limit = self.playout_turns
        fns = self._fns
        k = len(fns)
        prng = self._prng
        while sim.winner is None and (limit is None or turns < limit):
            u_n = sim.game.units
            self._calls += play_turn(sim, [fns[prng.randrange(k)] for _ in range(u_n)])
            turns += 1
        return sim

    @staticmethod
    def _backup_win(path: list[_Node], sim: CotgCombatState) -> None:
        """Plain MCTS: +1 / −1 / 0 for a player-0 win / loss / draw, on every node."""
        value = 1.0 if sim.winner == 0 else -1.0 if sim.winner == 1 else 0.0
        for n in path:
            n.n += 1
            n.w += value

    @staticmethod
    def _backup_hp(path: list[_Node], sim: CotgCombatState) -> None:
        """MCTS-HP: the hit-point difference, scaled by each node's own hit points."""
        h0, h1 = sim.hp_totals()
        delta = h0 - h1
        for n in path:
            n.n += 1
            n.w += hp_node_value(delta, n.hp)

    def _scripts(self, node: _Node, vec: tuple[int, ...]) -> list[Script]:
        """Per-slot scripts of a node's script vector (dead slots get a placeholder)."""
        fns = self._fns
        scripts = [fns[0]] * node.state.game.units
        for slot, s in zip(node.slots, vec, strict=True):
            scripts[slot] = fns[s]
        return scripts

    def _select(self, node: _Node) -> _Node:
        """UCB1 child from the side of the player to move at ``node``."""
        sign = 1.0 if node.player == 0 else -1.0
        log_n = math.log(node.n)
        c = self.c
        best, best_score = node.children[0], -math.inf
        for child in node.children:
            score = (1.0 + sign * child.w / child.n) * 0.5 + c * math.sqrt(log_n / child.n)
            if score > best_score:
                best, best_score = child, score
        return best
