"""Terra Mystica agents: a heuristic evaluator for the planners and a greedy rule-based agent.

The evaluator scores a position for each player as its VP plus an estimate of what the rest of
the game will add: resources at hand (worth more early, their end-game conversion value late),
the income still to come from buildings, favors and the bonus tile, the cult tracks (share of
the 8/4/2 majorities, weighted by how far the game is), the network (share of 18/12/6), town
keys, shipping and digging levels, and a fixed worth of the stronghold's ability. A player's
value is its score minus the best opponent's, so that planners maximising it play to win.

The rule-based agent is greedy: every decision of its own turn picks the option whose position,
once the turn's forced follow-ups are resolved the same way, the evaluator likes best. It knows
a few rules of thumb the evaluator cannot see in one step: it opens on home hexes with room to
grow, it only transforms hexes to its own terrain, it converts resources only to afford the
action it picked, it accepts cheap power and declines dear power late in the game, and it passes
when no action improves its position.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stratagem.baselines.agent import BaseAgent
from stratagem.envs.core import Game, State
from stratagem.envs.terra_mystica import actions as A
from stratagem.envs.terra_mystica.factions import (
    AUREN,
    CHAOSMAGICIANS,
    DARKLINGS,
    ENGINEERS,
    FAKIRS,
    GIANTS,
    HALFLINGS,
    MERMAIDS,
    NOMADS,
    SWARMLINGS,
    WITCHES,
)
from stratagem.envs.terra_mystica.fields import (
    CULT,
    DIG,
    KEY,
    NB,
    P1,
    P2,
    P3,
    PASSED,
    SHIP,
    VP,
    C,
    P,
    W,
)
from stratagem.envs.terra_mystica.map import (
    HEX_MASK,
    LAND_ADJ_MASK,
    LAND_CELLS,
    NUM_CELLS,
    SHIP_MASK,
)
from stratagem.envs.terra_mystica.rules import (
    ACTION,
    LEECH,
    OVER,
    SETUP_BONUS,
    SETUP_DWELLING,
    TerraMysticaState,
)
from stratagem.envs.terra_mystica.scoring import (
    CULT_POINTS,
    NETWORK_POINTS,
    income_parts,
    network_size,
    rank_points,
)

__all__ = ["TerraMysticaEvaluator", "TerraMysticaRuleBasedAgent"]

_PASSES = frozenset(range(A.A_PASS, A.A_PASS + 9)) | {A.X_PASS_BON10, A.X_PASS_NONE}
_FREE = frozenset(range(A.X_BURN, A.X_WP)) | frozenset(range(A.X_CONNECT, A.ACTION_SIZE))
_SH_WORTH = {
    HALFLINGS: 4.0,
    ENGINEERS: 3.0,
    NOMADS: 5.0,
    WITCHES: 5.0,
    SWARMLINGS: 5.0,
    GIANTS: 5.0,
    AUREN: 5.0,
    CHAOSMAGICIANS: 6.0,
    DARKLINGS: 3.0,
    MERMAIDS: 3.0,
    FAKIRS: 3.0,
}


class TerraMysticaEvaluator:
    """VP plus an estimate of the rest of the game, per player, relative to the best opponent.

    Args:
        game: The game (unused; kept for the evaluator protocol).
        relative: Return each player's score minus the best opponent's (default); False returns
            the raw scores.
    """

    #: Default weights (see the module docstring); each can be overridden by keyword.
    WEIGHTS = {
        "coin": 0.35,
        "coin_late": 0.3,
        "worker": 1.0,
        "worker_late": 0.4,
        "priest": 1.3,
        "priest_late": 0.4,
        "power3": 0.45,
        "power2": 0.15,
        "token": 0.35,
        "income_coin": 0.35,
        "income_worker": 1.0,
        "income_priest": 1.3,
        "income_power": 0.3,
        "cult_step": 0.25,
        "majority_early": 0.3,
        "key": 1.5,
        "ship": 1.5,
        "dig": 2.0,
        "dwelling": 0.5,
        "stronghold": 1.0,
        "sanctuary": 2.0,
        "passed_hand": 0.7,
    }

    def __init__(
        self, game: Game | None = None, *, relative: bool = True, **weights: float
    ) -> None:
        unknown = sorted(set(weights) - set(self.WEIGHTS))
        if unknown:
            raise ValueError(f"TerraMysticaEvaluator: unknown weight(s) {', '.join(unknown)}")
        self.relative = relative
        self.w = {**self.WEIGHTS, **weights}

    def scores(self, st: TerraMysticaState) -> list[float]:
        """Absolute score estimate of every player."""
        n = st.n
        if st.phase == OVER:
            return [float(d[VP]) for d in st.pd]
        w = self.w
        r = max(st.round, 1)
        setup = st.phase in (SETUP_DWELLING, SETUP_BONUS)
        incomes_left = 6 if setup else 6 - r
        late = 0.0 if setup else r / 6.0
        early = 1.0 - late
        cult_share = [rank_points([d[CULT + t] for d in st.pd], CULT_POINTS) for t in range(4)]
        net_share = rank_points([network_size(st, p) for p in range(n)], NETWORK_POINTS)
        share = w["majority_early"] + (1 - w["majority_early"]) * late
        w_c = w["coin"] * early + w["coin_late"] * late
        w_w = w["worker"] * early + w["worker_late"] * late
        w_p = w["priest"] * early + w["priest_late"] * late
        out = []
        for p in range(n):
            d = st.pd[p]
            v = float(d[VP])
            hand = w_c * d[C] + w_w * d[W] + w_p * d[P] + w["power3"] * d[P3]
            if d[PASSED] and st.phase != OVER and not setup and r < 6:
                hand *= w["passed_hand"]  # a passed player's resources wait a round
            v += hand + w["power2"] * d[P2]
            v += w["token"] * early * (d[P1] + d[P2] + d[P3])
            inc = [0, 0, 0, 0]
            for part in income_parts(st, p):
                for k in range(4):
                    inc[k] += part[k]
            v += incomes_left * (
                w["income_coin"] * inc[0]
                + w["income_worker"] * inc[1]
                + w["income_priest"] * inc[2]
                + w["income_power"] * inc[3]
            )
            for t in range(4):
                v += share * cult_share[t][p] + w["cult_step"] * d[CULT + t]
            v += share * net_share[p]
            v += w["key"] * d[KEY] + (w["ship"] * d[SHIP] + w["dig"] * d[DIG]) * early
            v += w["dwelling"] * d[NB + 1]
            if d[NB + 4]:
                v += w["stronghold"] * _SH_WORTH.get(st.fac[p], 3.0) * early
            if d[NB + 5]:
                v += w["sanctuary"] * early
            out.append(v)
        return out

    def evaluate(self, state: State) -> np.ndarray:
        """Score minus the best opponent's score, per player (terminal: VP margin x 10)."""
        st = state  # type: ignore[assignment]
        s = self.scores(st)  # type: ignore[arg-type]
        if not self.relative:
            return np.asarray(s, dtype=np.float64)
        out = np.empty(len(s), dtype=np.float64)
        for p, v in enumerate(s):
            best = max(x for q, x in enumerate(s) if q != p)
            out[p] = v - best
        if st.is_terminal():
            out *= 10.0
        return out


class TerraMysticaRuleBasedAgent(BaseAgent):
    """Greedy player: best evaluated option at every decision, with Terra Mystica know-how.

    Args:
        game: The game.
        evaluator: Position evaluator (default :class:`TerraMysticaEvaluator` with raw scores).
        late_leech: From this round on, power offers costing VP are declined.
        max_leech: Largest offer accepted before ``late_leech``.
        conversions: Consider converting resources to afford an action.
        pass_margin: Pass only when passing is valued this much above the best action.
        weights: Overrides of :attr:`TerraMysticaEvaluator.WEIGHTS`.
    """

    name = "rule_based"

    def __init__(
        self,
        game: Game,
        *,
        evaluator: Any = None,
        late_leech: int = 6,
        max_leech: int = 4,
        conversions: bool = True,
        pass_margin: float = 1.0,
        **weights: float,
    ) -> None:
        if game.spec.name != "terra_mystica":
            raise ValueError(f"rule_based (terra_mystica) cannot play {game.spec.name}")
        for key, value in (("late_leech", late_leech), ("max_leech", max_leech)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"rule_based: {key} must be a positive integer, got {value!r}")
        if not isinstance(conversions, bool):
            raise ValueError(f"rule_based: conversions must be true or false, got {conversions!r}")
        self.game = game
        self.evaluator = evaluator or TerraMysticaEvaluator(game, relative=False, **weights)
        self.pass_margin = float(pass_margin)
        self.late_leech = late_leech
        self.max_leech = max_leech
        self.conversions = conversions
        self._plan: list[int] = []
        self._plan_key: tuple | None = None

    def reset(self) -> None:
        """Forget the conversion plan of the previous game."""
        self._plan = []
        self._plan_key = None

    def __repr__(self) -> str:
        return (
            f"TerraMysticaRuleBasedAgent(late_leech={self.late_leech}, "
            f"max_leech={self.max_leech}, conversions={self.conversions})"
        )

    # ---------------------------------------------------------------- decisions
    def act(self, state: State, *, rng: np.random.Generator) -> int:
        """Choose an action for the player to move."""
        st: TerraMysticaState = state  # type: ignore[assignment]
        legal = st.legal_action_list()
        if not legal:
            raise ValueError("rule_based: no legal action (the game is over)")
        if len(legal) == 1:
            return legal[0]
        key = (st.round, st.current_player, st.phase, tuple(st.pd[st.current_player]))
        if self._plan and self._plan_key is not None and self._plan_key[:3] == key[:3]:
            a = self._plan.pop(0)
            if a in legal:
                self._plan_key = key
                return a
        self._plan = []
        if st.phase == SETUP_DWELLING:
            return self._setup_dwelling(st, legal)
        if st.phase == SETUP_BONUS:
            return self._best(st, legal)
        if st.phase == LEECH:
            return self._leech(st)
        decision = st.decision()
        if st.phase == ACTION and decision == "main action":
            return self._main(st, legal, key)
        if st.phase == ACTION and decision == "end of turn":
            builds = [a for a in legal if a < A.NUM_BOARD]
            return self._best(st, [*builds, A.X_END]) if builds else A.X_END
        # sub-decisions and out-of-turn choices: greedy, never converting on the side
        options = [a for a in legal if a not in _FREE] or legal
        return self._best(st, options)

    def _value(self, st: TerraMysticaState, p: int) -> float:
        return float(self.evaluator.scores(st)[p])

    def _best(self, st: TerraMysticaState, options: list[int]) -> int:
        p = st.current_player
        best, best_v = options[0], -1e18
        for a in sorted(options):
            c = st.clone()
            c.apply(a)
            self._finish(c, p)
            v = self._value(c, p)
            if v > best_v:
                best, best_v = a, v
        return best

    def _finish(self, st: TerraMysticaState, p: int, depth: int = 0) -> None:
        """Resolve the forced follow-ups of ``p``'s action greedily (tiles, spades, steps)."""
        while depth < 12 and st.phase == ACTION and st.current_player == p:
            decision = st.decision()
            if decision in ("main action", "end of turn"):
                return
            legal = [a for a in st.legal_action_list() if a not in _FREE]
            if not legal:
                return
            best, best_v = legal[0], -1e18
            if len(legal) > 1:
                for a in legal:
                    c = st.clone()
                    c.apply(a)
                    v = self._value(c, p)
                    if v > best_v:
                        best, best_v = a, v
            st.apply(best)
            depth += 1

    def _leech(self, st: TerraMysticaState) -> int:
        q, _, amount = st.leech_offer()
        d = st.pd[q]
        n = min(amount, d[VP] + 1, 2 * d[P1] + d[P2])
        if n <= 1:
            return A.X_ACCEPT
        if st.round >= self.late_leech or n > self.max_leech:
            return A.X_DECLINE
        return A.X_ACCEPT

    def _setup_dwelling(self, st: TerraMysticaState, legal: list[int]) -> int:
        """Home hexes with room to grow: own terrain near, rivers for shipping, no crowding."""
        p = st.current_player
        home = st.F[p].home
        occupied = 0
        for m in st.mine:
            occupied |= m
        mine = st.mine[p]
        best, best_v = legal[0], -1e18
        for a in legal:
            cell = a % NUM_CELLS
            near = LAND_ADJ_MASK[cell]
            ring = HEX_MASK[2][cell] & ~near
            v = 0.0
            for x in LAND_CELLS:
                bit = 1 << x
                if occupied & bit:
                    if near & bit:
                        v += 1.2 if not mine & bit else -3.0  # neighbours give power
                    continue
                if near & bit:
                    v += 2.0 if st.terrain[x] == home else 0.5
                elif ring & bit and st.terrain[x] == home:
                    v += 0.8
            v += 0.6 * bin(SHIP_MASK[1][cell]).count("1") / 4
            if mine and (HEX_MASK[3][cell] & mine):
                v += 1.5  # keep the two dwellings close enough to join later
            if v > best_v:
                best, best_v = a, v
        return best

    # ---------------------------------------------------------------- main action
    def _candidates(self, st: TerraMysticaState, legal: list[int]) -> list[int]:
        p = st.current_player
        home = st.F[p].home
        out = []
        for a in legal:
            if a in _FREE or a == A.X_DIG1:
                continue
            if a < A.NUM_BOARD:
                k = a // NUM_CELLS
                if k < 7 and k != home:
                    continue  # transforming to someone else's terrain: never
                if k < 7 and k == home:
                    continue  # transform-and-build is listed separately
            out.append(a)
        return out

    def _bundles(self, st: TerraMysticaState) -> list[list[int]]:
        """Conversions that may unlock an action: burns, power to workers, priests to workers."""
        p = st.current_player
        d = st.pd[p]
        out: list[list[int]] = [[]]
        if not self.conversions:
            return out
        for k in range(1, min(d[P2] // 2, 4) + 1):
            out.append([A.X_BURN] * k)
        if d[P3] >= 3:
            out.append([A.X_CONV + 1])
        if d[P3] >= 6:
            out.append([A.X_CONV + 1] * 2)
        if d[P] >= 1:
            out.append([A.X_CONV + 3])
        if d[P3] >= 1:
            out.append([A.X_CONV] * min(d[P3], 3))
        if d[P2] >= 2 and d[P3] + 1 >= 3:
            out.append([A.X_BURN, A.X_CONV + 1])
        return out

    def _main(self, st: TerraMysticaState, legal: list[int], key: tuple) -> int:
        p = st.current_player
        best_plan: list[int] = []
        best_v = -1e18
        pass_plan: list[int] = []
        pass_v = -1e18
        seen: set[int] = set()
        for bundle in self._bundles(st):
            s0 = st.clone()
            try:
                for a in bundle:
                    s0.apply(a)
            except ValueError:
                continue
            for a in self._candidates(s0, s0.legal_action_list()):
                if bundle and a in seen:
                    continue  # already affordable without converting
                if not bundle:
                    seen.add(a)
                c = s0.clone()
                c.apply(a)
                self._finish(c, p)
                v = self._value(c, p)
                if a in _PASSES:
                    if v > pass_v:
                        pass_plan, pass_v = [*bundle, a], v
                elif v > best_v:
                    best_plan, best_v = [*bundle, a], v
        if not best_plan or (pass_plan and pass_v > best_v + self.pass_margin):
            plan = pass_plan or best_plan
        else:
            plan = best_plan
        self._plan = plan[1:]
        self._plan_key = key
        return plan[0]
