"""Tribes knowledge: the paper's rule-based agent and its state evaluation (DIFF heuristic).

Both follow GAIGResearch/Tribes release 1.0 (the paper's code; ``specs/tribes_rules.md`` section
18): ``players/SimpleAgent.java`` (section 3.3 of the paper, "Rule Based") and
``players/heuristics/TribesDiffHeuristic.java`` (the 7 features with weights
``{5, 4, 0.1, 4, 2, 3, 2}``). They are re-implemented from the facts of those files. Where the
compiled reference does something other than what its comments say, the compiled behaviour is
kept and the function's docstring says so.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stratagem.baselines.agent import BaseAgent
from stratagem.envs.core import Game, State
from stratagem.envs.tribes import actions as A
from stratagem.envs.tribes import cities as CT
from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes.rules import TribesState

__all__ = [
    "DIFF_WEIGHTS",
    "TribesDiffEvaluator",
    "TribesRuleBasedAgent",
    "diff_features",
    "score_action",
]

_ATK = tuple(u.attack for u in C.UNITS)
_DEF = tuple(u.defence for u in C.UNITS)
_RANGE = tuple(u.range for u in C.UNITS)

# ------------------------------------------------------------------------------------ DIFF

#: Weights of production, technologies, score, cities, units, kills and city levels.
DIFF_WEIGHTS = (5.0, 4.0, 0.1, 4.0, 2.0, 3.0, 2.0)


def diff_features(state: TribesState) -> np.ndarray:
    """Per tribe: the 7 weighted features, then connected cities and seen tiles.

    Returns:
        ``float64[num_tribes, 9]``: production, technologies, score, cities, units, kills, sum
        of city levels, cities connected to the capital, tiles seen.
    """
    return np.asarray(_features(state), dtype=np.float64)


def _features(state: TribesState) -> list[list[float]]:
    cities = state.cities
    production = CT.production
    rows = []
    for t in range(state.num_tribes):
        tc = state.tcities[t]
        prod = 0
        levels = 0
        units = len(state.extra[t])
        for c in tc:
            city = cities[c]
            prod += production(city)
            levels += city[2]
            units += len(city[9])
        rows.append(
            [
                prod,
                state.num_techs(t),
                state.score[t],
                len(tc),
                units,
                state.kills[t],
                levels,
                len(state.connected[t]),
                sum(state.vis[t]),
            ]
        )
    return rows


class TribesDiffEvaluator:
    """The paper's state evaluation (section 3.3): progress relative to the decision's root.

    For each tribe ``i`` the change ``Δ_i`` of the 7 features between the root state (set by
    :meth:`set_root` when a decision starts) and the evaluated state is weighted by
    :data:`DIFF_WEIGHTS`. The value of tribe ``p`` is ``Δ_p - mean_{j≠p} Δ_j`` plus the change
    of its cities connected to the capital and of the tiles it has seen. The reference counts
    the seen tiles of the tribe to move in the evaluated state instead of ``p``'s; with full
    observability both changes are 0. Without a root the features are taken from zero.

    Args:
        game: The game (for the number of players).
        terminal_bonus: Added to the winner's value and taken from the others' at the end of
            the game. The paper's heuristic has none (0, the default).
    """

    def __init__(self, game: Game | None = None, terminal_bonus: float = 0.0) -> None:
        self.terminal_bonus = float(terminal_bonus)
        self._root: list[list[float]] | None = None

    def set_root(self, state: State) -> None:
        """Remember the features of the state a decision starts from."""
        self._root = _features(state)  # type: ignore[arg-type]

    def evaluate(self, state: State) -> np.ndarray:
        """Value per tribe (larger is better for that tribe)."""
        feats = _features(state)  # type: ignore[arg-type]
        root = self._root
        w = DIFF_WEIGHTS
        nt = len(feats)
        progress = []
        extra = []
        for t in range(nt):
            f = feats[t]
            if root is not None and len(root) == nt:
                f = [a - b for a, b in zip(f, root[t], strict=True)]
            progress.append(sum(wi * fi for wi, fi in zip(w, f)))  # noqa: B905 (7 of 9)
            extra.append(f[7] + f[8])
        total = sum(progress)
        values = np.array(
            [progress[t] - (total - progress[t]) / max(1, nt - 1) + extra[t] for t in range(nt)],
            dtype=np.float64,
        )
        if self.terminal_bonus and state.is_terminal():
            values = values + self.terminal_bonus * np.asarray(state.returns())
        return values

    def __repr__(self) -> str:
        return f"TribesDiffEvaluator(terminal_bonus={self.terminal_bonus})"


# ------------------------------------------------------------------------------------ rule-based


def _dist(state: TribesState, a: int, b: int) -> int:
    return state.geo.dist(a, b)


class _Context:
    """What the rule-based agent computes once per decision (the reference recomputes it)."""

    def __init__(self, state: TribesState) -> None:
        self.state = state
        self.tribe = t = state.current_player
        vis = state.vis[t]
        # enemies the tribe sees, in the reference's scan order (row by row)
        self.enemies = sorted(
            (u[2], uid) for uid, u in state.units.items() if u[1] != t and vis[u[2]]
        )
        self.production = state.production(t)
        self.stars = state.stars[t]


def _eval_move(ctx: _Context, uid: int, dest: int) -> int:
    """The reference's ``evalMove``.

    The first seen enemy (row by row) that the unit could beat and gets closer to gives 3, or
    that is stronger, has the unit in range, and it moves away from gives 4; then an enemy city
    tile or a village within the unit's attack range that it approaches gives 4 or 5. The
    reference's "explore next to fog" test checks for a *seen* neighbour, so any other move
    scores 3 (kept as compiled).
    """
    s = ctx.state
    unit = s.units[uid]
    cur = unit[2]
    atk = _ATK[unit[0]]
    for epos, eid in ctx.enemies:
        enemy = s.units[eid]
        in_range = _dist(s, cur, epos) <= _RANGE[enemy[0]]
        if _DEF[enemy[0]] < atk and unit[3] >= enemy[3]:
            if _dist(s, dest, epos) < _dist(s, cur, epos):
                return 3
        elif _dist(s, dest, epos) > _dist(s, cur, epos) and in_range:
            return 4
    vis = s.vis[ctx.tribe]
    for tile in s.geo.square_nc(cur, _RANGE[unit[0]]):
        if not vis[tile]:
            continue
        cid = s.tile_city[tile]
        city = s.cities.get(cid) if cid else None
        if city is not None and city[1] != ctx.tribe:
            cpos = city[0]
            if _dist(s, dest, cpos) < _dist(s, cur, cpos):
                return 4
        if s.terrain[tile] == C.VILLAGE and _dist(s, dest, tile) < _dist(s, cur, tile):
            return 5
    for tile in s.geo.nb1[dest]:
        if vis[tile]:
            return 3
    return 0


def _eval_attack(ctx: _Context, uid: int, tid: int) -> int:
    """The reference's ``evalAttack``: melee by health and attack/defence, ranged by retaliation."""
    s = ctx.state
    a, d = s.units[uid], s.units[tid]
    dist = _dist(s, a[2], d[2])
    if a[0] not in C.RANGED:
        if a[3] >= d[3]:
            return 5 if _ATK[a[0]] > _DEF[d[0]] else 1
        return 1 if _ATK[a[0]] > _DEF[d[0]] else 0
    in_enemy_range = dist <= _RANGE[d[0]]
    enemy_in_range = dist <= _RANGE[a[0]]
    if in_enemy_range and _ATK[d[0]] > _DEF[a[0]]:
        return 0
    if enemy_in_range and not in_enemy_range:
        return 5
    if _DEF[d[0]] < _ATK[a[0]] and a[3] >= d[3]:
        return 4
    return 0


def _eval_recover(ctx: _Context, uid: int) -> int:
    """3 (or 1 against a healthier enemy) when in a seen enemy's range, else 4."""
    s = ctx.state
    unit = s.units[uid]
    for epos, eid in ctx.enemies:
        enemy = s.units[eid]
        if _dist(s, unit[2], epos) <= _RANGE[enemy[0]]:
            return 3 if enemy[3] < unit[3] else 1
    return 4


def _eval_heal(ctx: _Context, uid: int) -> int:
    """One point per (wounded target, stronger enemy near the healer) pair, at most 5."""
    from stratagem.envs.tribes.units import heal_targets

    s = ctx.state
    healer = s.units[uid]
    score = 0
    for tid in heal_targets(s, uid):
        target = s.units[tid]
        if target[3] < target[4]:
            for tile in s.geo.square_nc(healer[2], _RANGE[target[0]]):
                other = s.unit_at[tile]
                if other:
                    e = s.units[other]
                    if e[1] != target[1] and e[3] > target[3]:
                        score += 1
    return min(score, 5)


_CONVERT_SCORE = {
    C.BATTLESHIP: 5,
    C.SUPERUNIT: 5,
    C.SWORDSMAN: 5,
    C.KNIGHT: 5,
    C.CATAPULT: 5,
    C.MIND_BENDER: 4,
    C.BOAT: 4,
    C.SHIP: 4,
    C.WARRIOR: 4,
}
_RESEARCH_SCORE = {
    C.ORGANIZATION: 5,
    C.CLIMBING: 5,
    C.MINING: 5,
    C.FISHING: 5,
    C.HUNTING: 5,
    C.WHALING: 5,
    C.FARMING: 4,
    C.AQUATISM: 4,
    C.RIDING: 4,
    C.FORESTRY: 4,
    C.ARCHERY: 4,
    C.SAILING: 4,
    C.SHIELDS: 4,
    C.CHIVALRY: 4,
}
_LEVEL_UP_FIVE = frozenset((C.LU_BORDER_GROWTH, C.LU_WORKSHOP, C.LU_RESOURCES, C.LU_SUPERUNIT))


def _needed_to_level_up(city: list) -> int:
    """The reference's ``neededToLevelUp``: ``level + 1 - production`` (sic)."""
    return city[CT.C_LEVEL] + 1 - CT.production(city)


def _eval_spawn(ctx: _Context, cid: int, utype: int) -> int:
    s = ctx.state
    vis = s.vis[ctx.tribe]
    enemies = 0
    for tile in CT.city_tiles(s, cid):
        uid = s.unit_at[tile]
        if vis[tile] and uid and s.units[uid][1] != ctx.tribe:
            enemies += 1
    threatened = enemies > 0
    if utype in (C.RIDER, C.ARCHER, C.CATAPULT):
        return 0 if threatened else 3
    if utype in (C.SWORDSMAN, C.KNIGHT):
        return 4 if threatened else 3
    if utype == C.MIND_BENDER:
        return 0 if threatened else 2
    if utype == C.DEFENDER:
        return 5 if threatened else 3
    return 3  # warrior


def _eval_build(ctx: _Context, cid: int, btype: int) -> int:
    """The reference's ``evalBuild`` as compiled: its switch falls through every case.

    The comments meant 4, 3 and 5 for groups of buildings, but without ``break`` every type but
    the Forest Temple ends with 1 (the Forest Temple with 0). Fewer than 8 stars gives 0.
    """
    if ctx.stars < 8:
        return 0
    base = 0 if btype == C.FOREST_TEMPLE else 1
    city = ctx.state.cities[cid]
    return min(5, max(0, base + 5 - _needed_to_level_up(city)))


def _eval_road(ctx: _Context, tile: int) -> int:
    """Roads next to an own city centre (with production > 5 and stars > 4) or a road."""
    s = ctx.state
    rich = ctx.production > 5 and ctx.stars > 4
    from stratagem.envs.tribes.units import is_road

    for nb in s.geo.nb1[tile]:
        cid = s.tile_city[nb]
        city = s.cities.get(cid) if cid else None
        if city is not None and city[1] == ctx.tribe:
            if nb == city[0]:
                if rich:
                    return 3
            elif is_road(s, nb):
                return 3
        elif is_road(s, nb):
            return 4 if rich else 3
    return 0


def _eval_grow(ctx: _Context, cid: int) -> int:
    s = ctx.state
    forests = huts = 0
    for tile in CT.city_tiles(s, cid):
        if s.terrain[tile] == C.FOREST:
            forests += 1
        if s.building[tile] == C.LUMBER_HUT:
            huts += 1
    return 4 if forests < 2 and huts < 2 else 2


def _eval_burn(ctx: _Context, cid: int) -> int:
    if ctx.stars <= 5:
        return 0
    s = ctx.state
    farms = sum(1 for tile in CT.city_buildings(s, cid) if s.building[tile] == C.FARM)
    return min(5, 1 + (farms if farms < 2 else 0))


def score_action(ctx: _Context, action: int) -> int:
    """The rule-based agent's priority of one legal action (-2 to 5)."""
    s = ctx.state
    n = s.geo.n
    plane, tile = divmod(action, n)
    if plane >= A.NUM_PLANES:
        if action == s.game.end_turn_action:
            return -1
        return _RESEARCH_SCORE.get(action - A.NUM_PLANES * n, 3)
    kind, dr, dc, param = A.PLANE_INFO[plane]
    if plane <= A.UPGRADE:
        uid = s.unit_at[tile]
        if kind in ("move", "attack", "convert"):
            row, col = s.geo.rc[tile]
            target = (row + dr) * s.geo.size + (col + dc)
            if kind == "move":
                return _eval_move(ctx, uid, target)
            if kind == "attack":
                return _eval_attack(ctx, uid, s.unit_at[target])
            return _CONVERT_SCORE.get(s.units[s.unit_at[target]][0], 0)
        if kind in ("capture", "examine", "veteran"):
            return 5
        if kind == "disband":
            return -2
        if kind == "recover":
            return _eval_recover(ctx, uid)
        if kind == "heal":
            return _eval_heal(ctx, uid)
        # upgrade: the reference tests for a Battleship, which is never upgraded
        return 3 if ctx.production > 3 and ctx.stars > 6 else 0
    if kind == "build_road":
        return _eval_road(ctx, tile)
    cid = s.tile_city[tile]
    if kind == "level_up":
        bonus = C.level_up_choices(s.cities[cid][CT.C_LEVEL])[param]
        return 5 if bonus in _LEVEL_UP_FIVE else 0
    if kind == "spawn":
        return _eval_spawn(ctx, cid, param)
    if kind == "build":
        return _eval_build(ctx, cid, param)
    if kind == "harvest":
        return min(5, max(0, 5 - _needed_to_level_up(s.cities[cid])))
    if kind == "clear_forest":
        return 3 if ctx.stars == 0 else 0
    if kind == "burn_forest":
        return _eval_burn(ctx, cid)
    if kind == "grow_forest":
        return _eval_grow(ctx, cid)
    return -2  # destroy


class TribesRuleBasedAgent(BaseAgent):
    """The paper's rule-based agent (section 3.3; the reference's ``SimpleAgent``).

    Every legal action gets a priority from 0 to 5 (Disband and Destroy -2, End Turn -1), and
    one of the best is played, ties broken uniformly at random. It ends its turn only when
    nothing but Disband or Destroy is left, like the reference.
    """

    name = "tribes_rule_based"

    def __init__(self, game: Game | None = None, **params: Any) -> None:
        if params:
            raise TypeError(f"unexpected parameter(s) {', '.join(sorted(params))}")
        self.game = game

    def scores(self, state: TribesState) -> dict[int, int]:
        """Priority of every legal action (for inspection and tests)."""
        ctx = _Context(state)
        return {a: score_action(ctx, a) for a in state.legal_action_list()}

    def act(self, state: State, *, rng: np.random.Generator) -> int:
        """One of the best-scored legal actions, uniformly at random."""
        if not isinstance(state, TribesState):
            raise ValueError("the Tribes rule-based agent plays Tribes states only")
        if state.is_terminal():
            raise ValueError("the Tribes rule-based agent cannot act in a finished game")
        scored = self.scores(state)
        best = max(scored.values())
        choices = [a for a, v in scored.items() if v == best]
        return int(choices[int(rng.integers(len(choices)))])

    def __repr__(self) -> str:
        return "TribesRuleBasedAgent()"
