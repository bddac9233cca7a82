"""Legal actions: the sorted list a state keeps, from its cities, units and tribe.

:class:`LegalActions` is a mixin of :class:`~stratagem.envs.tribes.rules.TribesState` (the list
is computed once per position and cached on the state; :meth:`apply` looks actions up in it by
bisection), and :func:`unit_actions` lists one unit's actions. Cities list theirs in
:mod:`~stratagem.envs.tribes.cities`. The work a position shares with the next ones (move
searches, road targets, unit plans) is remembered in the board memo and the context of
:mod:`~stratagem.envs.tribes.memo`.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import compress
from operator import not_ as _not
from typing import TYPE_CHECKING

from stratagem.envs.tribes import actions as A
from stratagem.envs.tribes import cities as CT
from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes import techtree
from stratagem.envs.tribes.cities import C_NEED, C_POP, C_POS, C_TRIBE, C_UNITS
from stratagem.envs.tribes.geo import _all_visible
from stratagem.envs.tribes.memo import (
    MAX_ENTRIES,
    BoardMemo,
    Context,
    MoveTargets,
    UnitPlan,
    board_memo,
    context,
    move_entry,
    remember,
)
from stratagem.envs.tribes.movement import reachable
from stratagem.envs.tribes.units import (
    _AFTER_ATTACK,
    _AFTER_MOVE,
    _RANGE,
    _TECH_CLIMBING,
    _TECH_FREE_SPIRIT,
    _TECH_NAVIGATION,
    _TECH_SAILING,
    U_HP,
    U_KILLS,
    U_MAXHP,
    U_POS,
    U_STATUS,
    U_TRIBE,
    U_TYPE,
    U_VET,
    can_upgrade,
    heal_targets,
)

if TYPE_CHECKING:
    from stratagem.envs.tribes.rules import TribesGame, TribesState

__all__ = ["LegalActions", "unit_actions"]

#: ``(list, board memo, context)``: what ``apply`` keeps of a list for the next one.
LegalLink = tuple[list[int], BoardMemo, Context]

#: Terrains a road may be built on (plain, forest, village).
_ROADABLE = tuple(int(t in (C.PLAIN, C.FOREST, C.VILLAGE)) for t in range(8))


class LegalActions:
    """The state's legal action list and why an action is not in it (a mixin of ``TribesState``)."""

    __slots__ = ()
    game: TribesGame

    def _compute_legal(self, kept: tuple[BoardMemo, Context | None] | None = None) -> None:
        """Compute the legal action list (kept in ``_legal``, ascending).

        Args:
            kept: The board memo and context of the previous list, when the caller knows that
                the board, the enemies and the mover's visibility are as they were (``apply``
                after a move, research, spawn or a unit's own action with full observability:
                ``rules._KEEPS_CONTEXT``). They still hold, so their checks (a compare of the
                whole board, a walk over every unit) are skipped. A context of None: only the
                board is known unchanged (after the end of a turn), the context is looked up.
        """
        out: list[int] = []
        self._legal_link = None
        if not self.game_over:
            t = self.current_player
            n = self.geo.n
            cities = self.cities
            tcities = self.tcities[t]
            for cid in tcities:
                city = cities[cid]
                if city[C_POP] >= city[C_NEED]:
                    pos = city[C_POS]
                    out = [A.LEVEL_UP0 * n + pos, (A.LEVEL_UP0 + 1) * n + pos]
                    self._legal = out
                    return
            if kept is not None and kept[1] is not None:
                memo, ctx = kept
            else:
                memo = board_memo(self) if kept is None else kept[0]
                enemies = []
                for unit in self.units.values():
                    if unit[U_TRIBE] != t:
                        enemies.append(unit[U_POS])
                enemies.sort()
                vis = self.vis[t]
                vis_key = None if vis is _all_visible(n) else bytes(vis)
                ctx = context(memo, t, tuple(enemies), vis_key, n)
            city_actions = CT.city_actions
            for cid in tcities:
                city_actions(self, cid, out, n, A, memo)
            for cid in tcities:  # the tribe's units (``units.tribe_units``), inlined
                for uid in cities[cid][C_UNITS]:
                    unit_actions(self, uid, out, n, ctx, memo)
            for uid in self.extra[t]:
                unit_actions(self, uid, out, n, ctx, memo)
            self._tribe_actions(t, out, ctx, memo)
            out.sort()
            self._legal_link = (out, memo, ctx)  # for apply: see ``kept``
        self._legal = out  # ascending: apply looks actions up by bisection

    def _tribe_actions(self, t: int, out: list[int], ctx: Context, memo: BoardMemo) -> None:
        """Roads (remembered in the context and board memo), research and the end of turn."""
        n = self.geo.n
        stars = self.stars[t]
        techs = self.techs[t]
        if techs >> C.ROADS & 1 and stars >= C.ROAD_COST:
            roads = ctx.roads
            if roads is None:
                key = (t, ctx.vis_key)
                tiles = memo.roads.get(key)
                if tiles is None:
                    tiles = self._road_targets(t, key, memo)
                    remember(memo.roads, key, tiles)
                free = compress(tiles, map(_not, map(ctx.enemy.__getitem__, tiles)))
                roads = ctx.roads = tuple(map((A.BUILD_ROAD * n).__add__, free))
            out.extend(roads)
        prices, actions = techtree.research_options(techs, len(self.tcities[t]), A.NUM_PLANES * n)
        out.extend(actions[: bisect_right(prices, stars)])
        out.append(self.game.end_turn_action)

    def _road_targets(
        self, t: int, key: tuple[int, bytes | None], memo: BoardMemo
    ) -> tuple[int, ...]:
        """The tiles ``t`` may build a road on, enemies aside.

        Only the tiles that changed are rechecked when the previous board memo has them (a
        tile's verdict reads nothing but that tile).
        """
        ok = self._road_tile
        link = memo.parent
        previous = link[0].roads.get(key) if link is not None else None
        if previous is None:
            # every tile: ``_road_tile`` inlined, on the roadable tiles only (found in C)
            network, tile_city, cities, vis = self.network, self.tile_city, self.cities, self.vis[t]
            out = []
            for tile in compress(range(self.geo.n), map(_ROADABLE.__getitem__, self.terrain)):
                if network[tile]:
                    continue
                cid = tile_city[tile]
                if cid:
                    city = cities.get(cid)
                    if city is None or city[C_TRIBE] != t:
                        continue
                if vis[tile]:
                    out.append(tile)
            return tuple(out)
        changed = set(link[1])  # type: ignore[index]
        kept = [tile for tile in previous if tile not in changed]
        kept.extend(tile for tile in changed if ok(t, tile))
        return tuple(kept)

    def _road_tile(self, t: int, tile: int) -> bool:
        """Whether ``t`` may build a road on ``tile``, enemies aside.

        Roadable terrain off the network, in neutral or ``t``'s territory, seen by ``t``.
        """
        if self.network[tile] or not _ROADABLE[self.terrain[tile]]:
            return False
        cid = self.tile_city[tile]
        if cid:
            city = self.cities.get(cid)
            if city is None or city[C_TRIBE] != t:
                return False
        return bool(self.vis[t][tile])

    def _why_illegal(self, action: int) -> str:
        if self.game_over:
            return "the game is over"
        plane, col, row = self.game.layout.decode(action)
        if self._legal and len(self._legal) == 2 and self._legal[0] // self.geo.n == A.LEVEL_UP0:
            return "a city must choose its level-up bonus first"
        if plane is None:
            if action == self.game.end_turn_action:
                return "the turn cannot end now"
            return "the technology is researched, not researchable yet or too expensive"
        tile = row * self.geo.size + col
        if plane in A.UNIT_PLANES:
            uid = self.unit_at[tile]
            if not uid or self.units[uid][U_TRIBE] != self.current_player:
                return f"no unit of tribe {self.current_player} at ({row},{col})"
            unit = self.units[uid]
            return (
                f"the {C.UNIT_NAMES[unit[U_TYPE]]} at ({row},{col}) "
                f"({C.STATUS_NAMES[unit[U_STATUS]]}) cannot do that now"
            )
        if plane in A.CITY_PLANES:
            cid = self.tile_city[tile]
            if CT.city_tribe(self, cid) != self.current_player:
                return f"({row},{col}) is not a tile of a city of tribe {self.current_player}"
        return "not legal here (rules, technology, stars or terrain)"


def unit_actions(
    s: TribesState, uid: int, out: list[int], n: int, ctx: Context, memo: BoardMemo
) -> None:
    """Append the legal actions of unit ``uid`` (plane × tile indices) to ``out``.

    ``ctx`` and ``memo`` are the state's context (``memo.context``: the mover, its enemy tiles
    and visibility) and board memo. The context remembers each unit's plan (:func:`_unit_plan`)
    under everything the plan reads besides the board and the context: the unit's record, its
    tribe's technologies that a plan reads (:data:`_PLAN_TECHS`: a research of another one
    keeps the plans), stars (Boats and Ships upgrade with them) and whether it has cities.
    A unit of another tribe than the mover is planned without them (the context's visibility
    is the mover's).
    """
    unit = s.units[uid]
    utype = unit[U_TYPE]
    tribe = unit[U_TRIBE]
    if unit[U_STATUS] == C.FINISHED:  # most units, most of the time: only an upgrade is left
        if (utype == C.BOAT or utype == C.SHIP) and can_upgrade(s, unit):
            out.append(_P_UPGRADE * n + unit[U_POS])
        return
    if tribe == ctx.tribe:
        stars = s.stars[tribe] if utype == C.BOAT or utype == C.SHIP else 0
        key = (*unit, s.techs[tribe] & _PLAN_TECHS, stars, bool(s.tcities[tribe]))
        plans = ctx.units
        plan = plans.get(key)
        if plan is None:
            plan = _unit_plan(s, uid, n, ctx, memo)
            if len(plans) >= MAX_ENTRIES:  # ``memo.remember``, inlined
                plans.clear()
            plans[key] = plan
    else:
        plan = _unit_plan(s, uid, n, ctx, None)
    fixed, targets, heals = plan
    out.extend(fixed)
    if targets is not None:
        # the targets not occupied (by the mover's own units: enemies block the search)
        tiles, actions = targets
        out.extend(compress(actions, map(_not, map(s.unit_at.__getitem__, tiles))))
    if heals and heal_targets(s, uid):
        out.append(_P_HEAL * n + unit[U_POS])


def _unit_plan(s: TribesState, uid: int, n: int, ctx: Context, memo: BoardMemo | None) -> UnitPlan:
    """What a unit that has not finished may do, as long as only its tribe's other units move.

    Returns ``(actions, move targets or None, may heal)``. The move targets still need their
    occupied tiles removed, and a Mind Bender that may heal heals only if a wounded friend
    stands next to it; the caller checks both.
    """
    unit = s.units[uid]
    utype = unit[U_TYPE]
    tribe = unit[U_TRIBE]
    pos = unit[U_POS]
    status = unit[U_STATUS]
    out: list[int] = []
    if (utype == C.BOAT or utype == C.SHIP) and can_upgrade(s, unit):
        out.append(_P_UPGRADE * n + pos)
    attack_ok = _AFTER_ATTACK[utype][status] >= 0
    if attack_ok and ctx.enemies:
        out.extend(_attacks(s, pos, utype, tribe, ctx.enemies, ctx.enemy, n))
    if status == C.FRESH:
        ter = s.terrain[pos]
        if ter == C.VILLAGE:
            out.append(_P_CAPTURE * n + pos)
        elif ter == C.CITY:
            cid = s.tile_city[pos]
            city = s.cities.get(cid) if cid else None
            if city is not None and city[1] != tribe:
                out.append(_P_CAPTURE * n + pos)
        if s.techs[tribe] & _TECH_FREE_SPIRIT:
            out.append(_P_DISBAND * n + pos)
        if s.resource[pos] == C.RUINS and s.tcities[tribe]:
            out.append(_P_EXAMINE * n + pos)
    if unit[U_KILLS] >= C.VETERAN_KILLS and not unit[U_VET] and utype != C.SUPERUNIT:
        out.append(_P_VETERAN * n + pos)
    if status == C.FRESH and 0 < unit[U_HP] < unit[U_MAXHP]:
        out.append(_P_RECOVER * n + pos)
    targets = None
    if _AFTER_MOVE[utype][status] >= 0:
        if memo is not None:
            key = (pos, utype, s.techs[tribe] & _MOVE_TECHS)
            moves = ctx.moves
            targets = moves.get(key)
            if targets is None:
                targets = _move_targets(s, uid, n, ctx, memo)
                if len(moves) >= MAX_ENTRIES:  # ``memo.remember``, inlined
                    moves.clear()
                moves[key] = targets
        else:
            targets = _move_targets(s, uid, n, ctx, None)
    return tuple(out), targets, utype == C.MIND_BENDER and attack_ok


def _attacks(
    s: TribesState,
    pos: int,
    utype: int,
    tribe: int,
    enemies: tuple[int, ...],
    enemy: bytearray,
    n: int,
) -> tuple[int, ...]:
    """Attacks (converts for a Mind Bender) of a unit at ``pos`` on the enemies it sees."""
    geo = s.geo
    radius = 1 if utype == C.MIND_BENDER else _RANGE[utype]
    if min(map(geo.dist_row(pos).__getitem__, enemies), default=radius + 1) > radius:
        return ()  # no enemy in range (the usual case): no need to scan the tiles
    vis = s.vis[tribe]
    if utype == C.MIND_BENDER:
        plane_of = A.CONVERT_PLANE
        reach = geo.nb1[pos]
    else:
        plane_of = A.ATTACK_PLANE
        reach = geo.square_nc(pos, radius)
    rc = geo.rc
    r0, c0 = rc[pos]
    out = []
    for tile in reach:
        if enemy[tile] and vis[tile]:
            r1, c1 = rc[tile]
            out.append(plane_of[(r1 - r0, c1 - c0)] * n + pos)
    return tuple(out)


def _move_targets(
    s: TribesState, uid: int, n: int, ctx: Context, memo: BoardMemo | None
) -> MoveTargets:
    """The tiles the unit can reach, whether occupied or not, and the move actions there.

    Occupied tiles are kept because friendly units do not block the path (only enemies and
    their zones of control do), so the list stays right while the mover's own units move.
    With ``memo`` the search is remembered on the board with the enemy tiles near enough to
    matter (within the distance it read, ``movement.reachable``'s, which may be shorter than
    that of the tiles it reached), and reused in later contexts where those are the same (see
    ``memo``).
    """
    unit = s.units[uid]
    pos, utype, tribe = unit[U_POS], unit[U_TYPE], unit[U_TRIBE]
    geo = s.geo
    dist = geo.dist_row(pos)
    if memo is not None:
        key = (pos, utype, tribe, s.techs[tribe] & _MOVE_TECHS, ctx.vis_key)
        entry = move_entry(memo, key, dist)
        if entry is not None:
            radius = entry[0]
            if _within(ctx.enemies, dist, radius) == entry[1]:
                return entry[2]
    reached, radius = reachable(s, uid, ctx.zone(geo.nb1), ctx.enemy)
    tiles = tuple(reached)
    action = geo.move_actions(pos)
    found = (tiles, tuple(map(action.__getitem__, tiles)))
    if memo is not None:
        remember(memo.moves, key, (radius, _within(ctx.enemies, dist, radius), found))
    return found


def _within(tiles: tuple[int, ...], dist: bytes, radius: int) -> tuple[int, ...]:
    """The ``tiles`` at most ``radius`` away (``dist``: distances from the centre)."""
    return tuple(compress(tiles, map(radius.__ge__, map(dist.__getitem__, tiles))))


_MOVE_TECHS = _TECH_CLIMBING | _TECH_SAILING | _TECH_NAVIGATION
#: The technologies a unit's plan reads: movement (Climbing, Sailing, Navigation, which also
#: allow the upgrades) and Free Spirit (disband).
_PLAN_TECHS = _MOVE_TECHS | _TECH_FREE_SPIRIT
_P_UPGRADE, _P_CAPTURE, _P_DISBAND, _P_EXAMINE = A.UPGRADE, A.CAPTURE, A.DISBAND, A.EXAMINE
_P_HEAL, _P_VETERAN, _P_RECOVER = A.HEAL, A.VETERAN, A.RECOVER
