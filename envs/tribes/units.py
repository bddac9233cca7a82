"""Units: bookkeeping, vision, combat and every unit action of the reference's 1.0 rules.

The functions take the state (``rules.TribesState``) and read or change its plain lists. A
unit is a small list indexed by the ``U_*`` constants below. Facts come from
``specs/tribes_rules.md`` sections 4-6, 10-13 and the reference's ``Unit``, ``Board`` and
unit-action classes. Where a unit may go is searched in
:mod:`~stratagem.envs.tribes.movement`; which unit actions are legal is listed in
:mod:`~stratagem.envs.tribes.legal`.

Decisions where the reference misbehaves (each listed on the docs page):

* A pushed water unit moves to an empty water tile (the reference "pushes" it without moving it,
  leaving two units on one tile); with no such tile it dies.
* The Battleship found in ruins carries a Warrior with the Warrior's health (the reference
  gives it -1 health, so it dies to any attack).
* Meeting a tribe never meets oneself, and a revealed unit's tribe meets the revealer when it
  sees that tile too (the reference adds the revealer to its own list instead).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stratagem.envs.tribes import combat
from stratagem.envs.tribes import constants as C

if TYPE_CHECKING:
    from stratagem.envs.tribes.rules import TribesState

U_TYPE, U_TRIBE, U_POS, U_HP, U_MAXHP, U_KILLS, U_VET, U_CITY, U_STATUS, U_BASE = range(10)

_TECH_CLIMBING = 1 << C.CLIMBING
_TECH_SAILING = 1 << C.SAILING
_TECH_NAVIGATION = 1 << C.NAVIGATION
_TECH_FREE_SPIRIT = 1 << C.FREE_SPIRIT
_LAND_TERRAIN = frozenset((C.CITY, C.PLAIN, C.FOREST, C.VILLAGE, C.MOUNTAIN))
_END_MOVE_TERRAIN = frozenset((C.FOREST, C.MOUNTAIN))
_AFTER_MOVE = C.AFTER_MOVE
_AFTER_ATTACK = C.AFTER_ATTACK
_MOV = tuple(u.movement for u in C.UNITS)
_RANGE = tuple(u.range for u in C.UNITS)
_ATK = tuple(u.attack for u in C.UNITS)
_DEF = tuple(u.defence for u in C.UNITS)
_POINTS = tuple(u.points for u in C.UNITS)
_COST = tuple(u.cost for u in C.UNITS)
#: Push offsets (drow, dcol) in the reference's order.
_PUSH = ((0, 1), (-1, 0), (0, -1), (1, 0), (-1, 1), (-1, -1), (1, -1), (1, 1))


def new_unit(
    utype: int,
    tribe: int,
    pos: int,
    city: int,
    hp: int | None = None,
    max_hp: int | None = None,
    kills: int = 0,
    veteran: bool = False,
    status: int = C.FINISHED,
    base: int = -1,
) -> list[int]:
    """A unit record; new units start FINISHED (they act from their tribe's next turn)."""
    if max_hp is None:
        max_hp = C.UNITS[utype].max_hp
    if hp is None:
        hp = max_hp
    return [utype, tribe, pos, hp, max_hp, kills, int(veteran), city, status, base]


# ------------------------------------------------------------------------------------ bookkeeping


def add_unit(s: TribesState, unit: list[int]) -> int:
    """Place ``unit`` on the board and in its city (or the tribe's extra units); return its id.

    A unit whose city has no room left becomes an extra unit of its tribe (the reference leaves
    it in no list at all, frozen on its tile).
    """
    uid = s.next_id
    s.next_id += 1
    s.units[uid] = unit
    s.unit_at[unit[U_POS]] = uid
    cid = unit[U_CITY]
    if cid:
        city = s.cities[cid]
        if len(city[9]) < city[2] + 1:  # C_UNITS, C_LEVEL
            city[9].append(uid)
            return uid
        unit[U_CITY] = 0
    s.extra[unit[U_TRIBE]].append(uid)
    return uid


def detach_unit(s: TribesState, uid: int) -> None:
    """Take a unit out of its city's list or its tribe's extra units."""
    unit = s.units[uid]
    cid = unit[U_CITY]
    city = s.cities.get(cid) if cid else None
    if city is not None and uid in city[9]:
        city[9].remove(uid)
    else:
        extra = s.extra[unit[U_TRIBE]]
        if uid in extra:
            extra.remove(uid)


def remove_unit(s: TribesState, uid: int) -> None:
    """Remove a unit from the board, its lists and the actor table (no score change)."""
    unit = s.units[uid]
    if s.unit_at[unit[U_POS]] == uid:
        s.unit_at[unit[U_POS]] = 0
    detach_unit(s, uid)
    del s.units[uid]


def kill_unit(s: TribesState, uid: int) -> None:
    """A unit dies: removed, and its tribe loses the unit's score points."""
    unit = s.units[uid]
    s.score[unit[U_TRIBE]] -= _POINTS[unit[U_TYPE]]
    remove_unit(s, uid)


def tribe_units(s: TribesState, tribe: int) -> list[int]:
    """Ids of a tribe's units: those of each city in city order, then the extra units."""
    out: list[int] = []
    cities = s.cities
    for cid in s.tcities[tribe]:
        out.extend(cities[cid][9])
    out.extend(s.extra[tribe])
    return out


def traversable(s: TribesState, tile: int, tribe: int) -> bool:
    """Terrain and technology allow ``tribe`` on ``tile`` (mountain, shallow, deep water)."""
    ter = s.terrain[tile]
    techs = s.techs[tribe]
    if ter == C.MOUNTAIN:
        return bool(techs & _TECH_CLIMBING)
    if ter == C.SHALLOW_WATER:
        return bool(techs & _TECH_SAILING)
    if ter == C.DEEP_WATER:
        return bool(techs & _TECH_NAVIGATION)
    return True


def is_road(s: TribesState, tile: int) -> bool:
    """A trade-network flag on a tile that is not water and not a city centre."""
    ter = s.terrain[tile]
    return (
        bool(s.network[tile]) and ter != C.SHALLOW_WATER and ter != C.DEEP_WATER and ter != C.CITY
    )


# ------------------------------------------------------------------------------------ vision


def clear_view(s: TribesState, tribe: int, center: int, radius: int) -> None:
    """``tribe`` sees the square of ``radius`` around ``center``: +5 score per new tile.

    Units and cities in that square make their tribes meet ``tribe``. With full observability
    every tile is already seen; only the meetings remain (skipped once everyone has met).
    """
    geo = s.geo
    tiles = geo.square(center, radius)
    n_tribes = s.num_tribes
    vis = s.vis[tribe]
    update_network = False
    if s.game.partial:
        for tile in tiles:
            if not vis[tile]:
                vis[tile] = 1
                s.score[tribe] += C.CLEAR_VIEW_POINTS
                ter = s.terrain[tile]
                if ter == C.SHALLOW_WATER or ter == C.DEEP_WATER or is_road(s, tile):
                    update_network = True
    all_met = (1 << n_tribes) - 1
    if s.met[tribe] | (1 << tribe) != all_met:
        unit_at, tile_city, units = s.unit_at, s.tile_city, s.units
        for tile in tiles:
            uid = unit_at[tile]
            if uid:
                other = units[uid][U_TRIBE]
                if other != tribe:
                    meet(s, tribe, other)
                    if s.vis[other][tile]:
                        meet(s, other, tribe)
            cid = tile_city[tile]
            if cid:
                city = s.cities.get(cid)
                if city is not None and city[1] != tribe:
                    other = city[1]
                    meet(s, tribe, other)
                    if s.vis[other][tile]:
                        meet(s, other, tribe)
    if s.game.partial:
        mon = s.monuments[tribe]
        if mon[C.EYE_OF_GOD - C.ALTAR_OF_PEACE] == C.MONUMENT_UNAVAILABLE and all(vis):
            mon[C.EYE_OF_GOD - C.ALTAR_OF_PEACE] = C.MONUMENT_AVAILABLE
        if update_network:
            from stratagem.envs.tribes.cities import update_network_tribe

            update_network_tribe(s, tribe)


def meet(s: TribesState, tribe: int, other: int) -> None:
    """``tribe`` meets ``other``; with partial observability it learns one of its techs."""
    if other == tribe or s.met[tribe] >> other & 1:
        return
    s.met[tribe] |= 1 << other
    if s.game.partial:
        mine, theirs = s.techs[tribe], s.techs[other]
        options = [t for t in range(C.NUM_TECHS) if theirs >> t & 1 and not mine >> t & 1]
        if options:
            tech = options[s.randint(len(options))]
            if _parent_ok(mine, tech):  # the reference's doResearch needs the parent
                from stratagem.envs.tribes.cities import research

                research(s, tribe, tech, cost=0)


def _parent_ok(techs: int, tech: int) -> bool:
    parent = C.TECHS[tech].parent
    return parent < 0 or bool(techs >> parent & 1)


def move_unit_to(s: TribesState, uid: int, dest: int) -> None:
    """Move a unit on the board and clear its vision (radius 2 on a mountain or Battleship)."""
    unit = s.units[uid]
    s.unit_at[unit[U_POS]] = 0
    s.unit_at[dest] = uid
    unit[U_POS] = dest
    radius = 2 if s.terrain[dest] == C.MOUNTAIN or unit[U_TYPE] == C.BATTLESHIP else 1
    clear_view(s, unit[U_TRIBE], dest, radius)


def launch_explorer(s: TribesState, start: int, tribe: int) -> None:
    """The explorer: 15 random steps onto traversable neighbours, clearing vision around each."""
    geo = s.geo
    pos = start
    for _ in range(C.EXPLORER_STEPS):
        for _ in range(C.EXPLORER_STEPS * 3):
            neighbours = geo.nb1[pos]
            nxt = neighbours[s.randint(len(neighbours))]
            if traversable(s, nxt, tribe):
                pos = nxt
                clear_view(s, tribe, pos, 1)
                break


# ------------------------------------------------------------------------------------ transforms


def embark(s: TribesState, uid: int, dest: int) -> int:
    """Replace a land unit by a Boat at ``dest`` that carries it (new id, FINISHED)."""
    return _transform(s, uid, dest, C.BOAT, s.units[uid][U_TYPE])


def disembark(s: TribesState, uid: int, dest: int) -> int:
    """Replace a water unit by the land unit it carries, at ``dest`` (new id, FINISHED)."""
    base = s.units[uid][U_BASE]
    return _transform(s, uid, dest, base if base >= 0 else C.WARRIOR, -1)


def _transform(s: TribesState, uid: int, dest: int, utype: int, base: int) -> int:
    """Replace a unit by one of ``utype`` at ``dest`` (new id, FINISHED), carrying ``base``.

    Embarking and disembarking change the unit's type, not the unit: it keeps its tribe, city,
    health, kills and veteran status, so the two moves are one operation with two types.
    """
    unit = s.units[uid]
    remove_unit(s, uid)
    new = new_unit(
        utype,
        unit[U_TRIBE],
        dest,
        unit[U_CITY],
        hp=unit[U_HP],
        max_hp=unit[U_MAXHP],
        kills=unit[U_KILLS],
        veteran=bool(unit[U_VET]),
        base=base,
    )
    return add_unit(s, new)


def try_push(s: TribesState, uid: int, dest: int) -> bool:
    """Move a unit into ``dest`` after a kill or a push, if the rules allow; True if it went.

    Mountains need Climbing; a land unit enters water only onto a port of its own tribe's city
    (embarking); a water unit only onto empty water.
    """
    if s.unit_at[dest]:
        return False
    unit = s.units[uid]
    tribe = unit[U_TRIBE]
    ter = s.terrain[dest]
    water_unit = unit[U_TYPE] in C.WATER_UNITS
    if ter == C.MOUNTAIN:
        if water_unit or not s.techs[tribe] & _TECH_CLIMBING:
            return False
        move_unit_to(s, uid, dest)
        return True
    if ter == C.SHALLOW_WATER or ter == C.DEEP_WATER:
        if water_unit:
            move_unit_to(s, uid, dest)
            return True
        if s.building[dest] == C.PORT:
            cid = s.tile_city[dest]
            city = s.cities.get(cid) if cid else None
            if city is not None and city[1] == tribe:
                embark(s, uid, dest)
                return True
        return False
    if water_unit:
        return False
    move_unit_to(s, uid, dest)
    return True


def push_unit(s: TribesState, uid: int) -> int:
    """Push a unit off its tile (reference order of directions); it dies if it cannot go.

    Returns:
        The pushed unit's id (a new one if it embarked), 0 if it died. A unit that moved is
        PUSHED (its next turn starts as if it had moved); a Boat it embarked into is new and
        FINISHED, as in the reference.
    """
    geo = s.geo
    unit = s.units[uid]
    row, col = geo.rc[unit[U_POS]]
    size = geo.size
    for dr, dc in _PUSH:
        r, c = row + dr, col + dc
        if 0 <= r < size and 0 <= c < size and try_push(s, uid, r * size + c):
            moved = s.unit_at[r * size + c]
            if moved == uid:
                unit[U_STATUS] = C.PUSHED
            return moved
    kill_unit(s, uid)
    return 0


# ------------------------------------------------------------------------------------ actions


def can_move(unit: list[int]) -> bool:
    """The unit's status allows a move."""
    return _AFTER_MOVE[unit[U_TYPE]][unit[U_STATUS]] >= 0


def can_attack(unit: list[int]) -> bool:
    """The unit's status allows an attack (also: convert, heal)."""
    return _AFTER_ATTACK[unit[U_TYPE]][unit[U_STATUS]] >= 0


def do_move(s: TribesState, uid: int, dest: int) -> None:
    """MOVE: go to ``dest``; landing on a port embarks, a water unit reaching land disembarks."""
    unit = s.units[uid]
    unit[U_STATUS] = _AFTER_MOVE[unit[U_TYPE]][unit[U_STATUS]]
    move_unit_to(s, uid, dest)
    ter = s.terrain[dest]
    if unit[U_TYPE] in C.WATER_UNITS:
        if ter != C.SHALLOW_WATER and ter != C.DEEP_WATER:
            disembark(s, uid, dest)
    elif s.building[dest] == C.PORT:
        embark(s, uid, dest)


def defence_bonus(s: TribesState, target: list[int]) -> float:
    """×4 behind walls, ×1.5 without, on a city centre of the target's own tribe; else ×1."""
    pos = target[U_POS]
    if s.terrain[pos] != C.CITY:
        return 1.0
    cid = s.tile_city[pos]
    city = s.cities.get(cid) if cid else None
    if city is None or city[1] != target[U_TRIBE]:
        return 1.0
    return C.DEFENCE_IN_WALLS if city[7] else C.DEFENCE_BONUS


def attack_preview(s: TribesState, uid: int, tid: int) -> tuple[int, int]:
    """``(damage, retaliation)`` if unit ``uid`` attacked unit ``tid`` now."""
    a, d = s.units[uid], s.units[tid]
    return combat.attack_results(
        _ATK[a[U_TYPE]],
        a[U_HP],
        a[U_MAXHP],
        _DEF[d[U_TYPE]],
        d[U_HP],
        d[U_MAXHP],
        defence_bonus(s, d),
    )


def add_kill(s: TribesState, uid: int) -> None:
    """A unit and its tribe score a kill (a Knight's kill lets it attack again)."""
    unit = s.units[uid]
    unit[U_KILLS] += 1
    if unit[U_TYPE] == C.KNIGHT:
        unit[U_STATUS] = C.ATTACKED
    tribe = unit[U_TRIBE]
    s.kills[tribe] += 1
    mon = s.monuments[tribe]
    k = C.GATE_OF_POWER - C.ALTAR_OF_PEACE
    if s.kills[tribe] >= C.GATE_OF_POWER_KILLS and mon[k] == C.MONUMENT_UNAVAILABLE:
        mon[k] = C.MONUMENT_AVAILABLE


def do_attack(s: TribesState, uid: int, tid: int) -> None:
    """ATTACK: damage, kill (melee units step in) or retaliation (if in the target's range)."""
    attacker, target = s.units[uid], s.units[tid]
    attacker[U_STATUS] = _AFTER_ATTACK[attacker[U_TYPE]][attacker[U_STATUS]]
    s.pacifist[attacker[U_TRIBE]] = 0
    damage, retaliation = attack_preview(s, uid, tid)
    if target[U_HP] <= damage:
        add_kill(s, uid)
        dest = target[U_POS]
        kill_unit(s, tid)
        if attacker[U_TYPE] in C.MELEE:
            try_push(s, uid, dest)
    else:
        target[U_HP] -= damage
        if s.geo.dist(attacker[U_POS], target[U_POS]) <= _RANGE[target[U_TYPE]]:
            attacker[U_HP] -= retaliation
            if attacker[U_HP] <= 0:
                add_kill(s, tid)
                kill_unit(s, uid)


def do_convert(s: TribesState, uid: int, tid: int) -> None:
    """CONVERT: the target joins the Mind Bender's tribe as an extra unit, FINISHED."""
    bender, target = s.units[uid], s.units[tid]
    detach_unit(s, tid)
    target[U_TRIBE] = bender[U_TRIBE]
    target[U_CITY] = 0
    s.extra[bender[U_TRIBE]].append(tid)
    bender[U_STATUS] = _AFTER_ATTACK[bender[U_TYPE]][bender[U_STATUS]]
    target[U_STATUS] = C.FINISHED


def do_disband(s: TribesState, uid: int) -> None:
    """DISBAND: half the unit's cost back (rounded down), its score points lost."""
    unit = s.units[uid]
    from stratagem.envs.tribes.cities import add_stars

    add_stars(s, unit[U_TRIBE], _COST[unit[U_TYPE]] // 2)
    kill_unit(s, uid)


def heal_targets(s: TribesState, uid: int) -> list[int]:
    """Friendly wounded units next to a Mind Bender."""
    unit = s.units[uid]
    tribe = unit[U_TRIBE]
    out = []
    for tile in s.geo.nb1[unit[U_POS]]:
        other = s.unit_at[tile]
        if other:
            o = s.units[other]
            if o[U_TRIBE] == tribe and o[U_HP] < o[U_MAXHP]:
                out.append(other)
    return out


def do_heal(s: TribesState, uid: int) -> None:
    """HEAL_OTHERS: +4 health (capped) to every wounded friendly neighbour."""
    for other in heal_targets(s, uid):
        o = s.units[other]
        o[U_HP] = min(o[U_HP] + C.MINDBENDER_HEAL, o[U_MAXHP])
    unit = s.units[uid]
    unit[U_STATUS] = _AFTER_ATTACK[unit[U_TYPE]][unit[U_STATUS]]


def do_make_veteran(s: TribesState, uid: int) -> None:
    """MAKE_VETERAN: +5 maximum health, fully healed; the status is kept."""
    unit = s.units[uid]
    unit[U_VET] = 1
    unit[U_MAXHP] += C.VETERAN_PLUS_HP
    unit[U_HP] = unit[U_MAXHP]


def can_recover(unit: list[int]) -> bool:
    """FRESH and wounded."""
    return unit[U_STATUS] == C.FRESH and 0 < unit[U_HP] < unit[U_MAXHP]


def do_recover(s: TribesState, uid: int) -> None:
    """RECOVER: +2 health, +2 more inside the tribe's own borders; the unit is FINISHED."""
    unit = s.units[uid]
    add = C.RECOVER_PLUS_HP
    cid = s.tile_city[unit[U_POS]]
    if cid:
        city = s.cities.get(cid)
        if city is not None and city[1] == unit[U_TRIBE]:
            add += C.RECOVER_IN_BORDERS_PLUS_HP
    unit[U_HP] = min(unit[U_HP] + add, unit[U_MAXHP])
    unit[U_STATUS] = C.FINISHED


def can_upgrade(s: TribesState, unit: list[int]) -> bool:
    """Boat to Ship (Sailing, 5 stars) or Ship to Battleship (Navigation, 15 stars)."""
    utype = unit[U_TYPE]
    tribe = unit[U_TRIBE]
    if utype == C.BOAT:
        return bool(s.techs[tribe] & _TECH_SAILING) and s.stars[tribe] >= _COST[C.SHIP]
    if utype == C.SHIP:
        return bool(s.techs[tribe] & _TECH_NAVIGATION) and s.stars[tribe] >= _COST[C.BATTLESHIP]
    return False


def do_upgrade(s: TribesState, uid: int) -> None:
    """UPGRADE: a new Ship/Battleship (new id) with the same health, kills, status and cargo."""
    unit = s.units[uid]
    nxt = C.SHIP if unit[U_TYPE] == C.BOAT else C.BATTLESHIP
    s.stars[unit[U_TRIBE]] -= _COST[nxt]
    remove_unit(s, uid)
    up = new_unit(
        nxt,
        unit[U_TRIBE],
        unit[U_POS],
        unit[U_CITY],
        hp=unit[U_HP],
        max_hp=unit[U_MAXHP],
        kills=unit[U_KILLS],
        veteran=bool(unit[U_VET]),
        status=unit[U_STATUS],
        base=unit[U_BASE],
    )
    add_unit(s, up)


def can_disband(s: TribesState, unit: list[int]) -> bool:
    """FRESH and the tribe knows Free Spirit."""
    return unit[U_STATUS] == C.FRESH and bool(s.techs[unit[U_TRIBE]] & _TECH_FREE_SPIRIT)


def do_examine(s: TribesState, uid: int) -> int:
    """EXAMINE ruins: one of five bonuses drawn uniformly; returns the bonus drawn."""
    from stratagem.envs.tribes import cities as CT
    from stratagem.envs.tribes import techtree

    s._own_board()
    unit = s.units[uid]
    tribe = unit[U_TRIBE]
    pos = unit[U_POS]
    handler = s.capital[tribe] if CT.controls_capital(s, tribe) else s.tcities[tribe][0]
    all_tech = techtree.everything_researched(s.techs[tribe])
    bonus = s.randint(5)
    while all_tech and bonus == C.EX_RESEARCH:
        bonus = s.randint(5)
    if bonus == C.EX_SUPERUNIT:
        if s.terrain[pos] in C.WATER:
            giant = new_unit(
                C.BATTLESHIP,
                tribe,
                pos,
                0,
                hp=C.UNITS[C.WARRIOR].max_hp,
                max_hp=C.UNITS[C.WARRIOR].max_hp,
                base=C.WARRIOR,
            )
        else:
            giant = new_unit(C.SUPERUNIT, tribe, pos, 0)
        pushed = push_unit(s, uid)
        if pushed:
            s.units[pushed][U_STATUS] = C.FINISHED  # the reference finishes the examiner last
        add_unit(s, giant)
        s.resource[pos] = C.NO_RESOURCE
        return bonus
    if bonus == C.EX_RESEARCH:
        options = techtree.researchable_list(s.techs[tribe])
        if options:
            CT.research(s, tribe, options[s.randint(len(options))], cost=0)
    elif bonus == C.EX_POP_GROWTH:
        CT.add_population(s, handler, C.EXAMINE_POP_GROWTH)
    elif bonus == C.EX_EXPLORER:
        launch_explorer(s, pos, tribe)
    else:
        CT.add_stars(s, tribe, C.EXAMINE_RESOURCES)
    s.resource[pos] = C.NO_RESOURCE
    unit[U_STATUS] = C.FINISHED
    return bonus
