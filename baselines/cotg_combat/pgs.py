"""Portfolio Greedy Search (PGS I R) for CotG combat (Churchill & Buro 2013, as in SparCraft).

Facts taken from SparCraft's ``PortfolioGreedySearch.cpp`` (davechurchill/SparCraft) and the spec
(section 7); the CotG paper adds a time limit per improvement (500 ms in its experiments) and
playout caching:

1. **Seed**, for each player: every script of the portfolio is tried as the script of *all* the
   player's units while every enemy unit plays the enemy script (NOKAV); the best by playout
   value becomes the player's initial assignment (the first script wins ties).
2. **Improve(player)**, ``I`` times: for each unit of the player in slot order, every script of
   the portfolio is tried for that unit alone (the others keep their current scripts) and the
   best kept. The time limit is checked before each unit and covers one Improve call.
3. Improve(self), then ``R`` times: Improve(enemy), Improve(self).
4. The move: this turn's actions of the final assignment for our units.

A playout plays both sides with their assigned scripts for ``playout_turns`` player-turns (or to
the end) from the root and is scored with LTD2 (``Σ sqrt(hp) · strength`` of our living units
minus the enemy's, ±100,000 for an elimination) from the improving player's side. Scripts are
deterministic, so a playout is a function of the assignment: with ``cache`` every assignment is
played once per decision (the paper's playout caching).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from stratagem.baselines.cotg_combat.scripts import (
    SCRIPT_NAMES,
    SCRIPTS,
    Script,
    TurnPlanAgent,
    play_turn,
    resolve_portfolio,
)
from stratagem.baselines.search.config import SearchConfig, check_flag, check_int, configure
from stratagem.envs.core import Game
from stratagem.envs.cotg_combat.rules import CotgCombatState

__all__ = ["PGSAgent", "ltd2_score"]

_WIN_BONUS = 100_000.0
_FNS: tuple[Script, ...] = tuple(SCRIPTS[n] for n in SCRIPT_NAMES)


def ltd2_score(state: CotgCombatState) -> float:
    """LTD2 of player 0 minus LTD2 of player 1, with ±100,000 when a side is eliminated.

    ``LTD2(p) = Σ_{living units of p} sqrt(hp) · strength`` (SparCraft; shields ignored).
    """
    g = state.game
    u_n = g.units
    hp, types, strength = state.hit_points, state.types, g.strength
    score = 0.0
    for u in range(2 * u_n):
        h = hp[u]
        if h > 0:
            value = math.sqrt(h) * strength[types[u]]
            score += value if u < u_n else -value
    if state.winner == 0:
        score += _WIN_BONUS
    elif state.winner == 1:
        score -= _WIN_BONUS
    return score


class PGSAgent(TurnPlanAgent):
    """PGS I R over a script portfolio, deciding one whole turn per search.

    Options shared with the other planners (fields of
    :class:`~stratagem.baselines.search.config.SearchConfig`, given as keywords or as
    ``config``): ``time_limit`` (seconds per Improve call, the paper: 0.5; ``None`` for no
    limit) and ``budget`` (forward-model calls per decision, the search stops improving once
    spent; ``None`` for no limit). The search ends by itself, so neither is required.

    Args:
        game: A CotG combat game.
        config: The whole shared configuration, instead of its keywords.
        iterations: Improvement iterations ``I`` per Improve call.
        responses: Responses ``R``.
        portfolio: Script names (a sequence or ``"nokav|kiter"``); SparCraft's and the paper's
            portfolio is NOKAV and Kiter, in that order.
        enemy_script: The enemy's script while seeding (SparCraft: NOKDPS).
        playout_turns: Player-turns per playout (the spec's 20); ``None`` plays to the end.
        cache: Play each script assignment once per decision (the paper's playout caching).
        clock: ``"cpu"`` or ``"wall"`` time for ``time_limit``.
        **options: ``time_limit`` and ``budget``, over :attr:`defaults`.

    Raises:
        TypeError: For a keyword the planner does not take.
        ValueError: For a bad value, naming the option.
    """

    name = "cotg_pgs"
    #: The :class:`SearchConfig` fields this planner takes as keywords.
    options: ClassVar[frozenset[str]] = frozenset(("budget", "time_limit"))
    #: Its defaults: the paper's 0.5 s per Improve call, no call budget.
    defaults: ClassVar[SearchConfig] = SearchConfig(budget=None, time_limit=0.5)

    def __init__(
        self,
        game: Game,
        config: SearchConfig | None = None,
        *,
        iterations: int = 1,
        responses: int = 0,
        portfolio: Sequence[str] | str = ("nokav", "kiter"),
        enemy_script: str = "nokav",
        playout_turns: int | None = 20,
        cache: bool = True,
        clock: str = "cpu",
        **options: Any,
    ) -> None:
        super().__init__(game, clock=clock)
        who = type(self).name
        config = configure(
            type(self),
            who,
            self.options,
            self.defaults,
            config,
            options,
            unbounded_ok=True,
        )
        check_int(who, "iterations", iterations, 1)
        check_int(who, "responses", responses, 0)
        if enemy_script not in SCRIPTS:
            raise ValueError(
                f"{who}: unknown enemy_script {enemy_script!r}; scripts: {', '.join(SCRIPT_NAMES)}"
            )
        check_int(who, "playout_turns", playout_turns, 1, optional=True)
        check_flag(who, "cache", cache)
        self.config = config
        self.iterations = iterations
        self.responses = responses
        self.portfolio = resolve_portfolio(portfolio)
        self._port = tuple(SCRIPT_NAMES.index(n) for n in self.portfolio)
        self.enemy_script = enemy_script
        self.time_limit = config.time_limit
        self.budget = config.budget
        self.playout_turns = playout_turns
        self.cache = cache
        self.name = f"cotg_pgs_{iterations}_{responses}"
        self._table: dict[tuple[int, ...], float] = {}
        self._calls = 0
        self._playouts = 0
        self._hits = 0

    def __repr__(self) -> str:
        return (
            f"PGSAgent(iterations={self.iterations}, responses={self.responses}, "
            f"portfolio={self.portfolio}, time_limit={self.time_limit}, budget={self.budget})"
        )

    # ------------------------------------------------------------------ search
    def choose_scripts(self, state: CotgCombatState, rng: np.random.Generator) -> list[Script]:
        """Seed both players, improve, respond, and return our units' scripts."""
        self._table = {}
        self._calls = self._playouts = self._hits = 0
        me = state.current_player
        enemy = 1 - me
        u_n = self.game.units  # type: ignore[attr-defined]
        enemy_default = SCRIPT_NAMES.index(self.enemy_script)
        assignment = [0] * (2 * u_n)
        seeds = {}
        for player in (me, enemy):
            best, best_score = self._port[0], -math.inf
            for s in self._port:
                trial = [enemy_default] * (2 * u_n)
                trial[player * u_n : (player + 1) * u_n] = [s] * u_n
                score = self._value(state, trial, player)
                if score > best_score:
                    best, best_score = s, score
            seeds[player] = best
        for player in (me, enemy):
            assignment[player * u_n : (player + 1) * u_n] = [seeds[player]] * u_n
        improves = 1
        self._improve(state, assignment, me)
        for _ in range(self.responses):
            self._improve(state, assignment, enemy)
            self._improve(state, assignment, me)
            improves += 2
        self.last_stats = {
            "playouts": self._playouts,
            "cache_hits": self._hits,
            "fm_calls": self._calls,
            "improves": improves,
            "seed": SCRIPT_NAMES[seeds[me]],
        }
        return [_FNS[assignment[me * u_n + k]] for k in range(u_n)]

    def _improve(self, state: CotgCombatState, assignment: list[int], player: int) -> None:
        """One Improve call: ``I`` greedy passes over the player's units within the time limit."""
        u_n = self.game.units  # type: ignore[attr-defined]
        start = self._now()
        alive = [player * u_n + k for k in range(u_n) if state.positions[player * u_n + k] >= 0]
        for _ in range(self.iterations):
            for u in alive:
                if self.time_limit is not None and self._now() - start > self.time_limit:
                    return
                if self.budget is not None and self._calls >= self.budget:
                    return
                best, best_score = assignment[u], -math.inf
                for s in self._port:
                    assignment[u] = s
                    score = self._value(state, assignment, player)
                    if score > best_score:
                        best, best_score = s, score
                assignment[u] = best

    def _value(self, state: CotgCombatState, assignment: list[int], player: int) -> float:
        """Playout value of an assignment from ``player``'s side (cached per decision)."""
        key = tuple(assignment)
        score = self._table.get(key) if self.cache else None
        if score is None:
            score = self._playout(state, assignment)
            if self.cache:
                self._table[key] = score
        else:
            self._hits += 1
        return score if player == 0 else -score

    def _playout(self, state: CotgCombatState, assignment: list[int]) -> float:
        """Both sides follow their assigned scripts; LTD2 score from player 0's side."""
        self._playouts += 1
        u_n = self.game.units  # type: ignore[attr-defined]
        sim = state.clone()
        scripts = [[_FNS[assignment[p * u_n + k]] for k in range(u_n)] for p in (0, 1)]
        turns = 0
        limit = self.playout_turns
        while sim.winner is None and (limit is None or turns < limit):
            self._calls += play_turn(sim, scripts[sim.current_player])
            turns += 1
        return ltd2_score(sim)
