"""Checks of a Terra Mystica state read from JSON: types, ranges and the invariants of play.

A state's JSON is untrusted input. The rules trust their state completely (the hot paths index
tables with its numbers and never re-check what an earlier action established), so a state
read back must be one that play could have produced, or at least one the rules handle:
:func:`check_state` refuses anything else with an :class:`InvalidStateError` naming the field.

Three kinds of checks, all cheap next to reading the JSON:

* **Types and ranges** of every field: the map's cells, the tiles of this configuration, a
  player's record field by field (the caps on coins, workers and VP are far above any real game
  and keep the observation, which shows raw counts, inside its declared bound of 1000).
* **Conservation**: what the supplies and the players hold adds up to the game's stock (bonus,
  favor and town tiles, buildings per kind, bridges, priests on the order spaces, power
  tokens), and the derived fields agree with what they are derived from (building masks,
  bridge mask, building counts, town size, town keys against the tracks at 10).
* **Phase**: who decides and what the turn context may hold in each phase (the setup queue is
  a suffix of the snake order, leech offers wait only around a turn, the turn context is reset
  outside a turn, the final scores exist only at the end).

Every check here was run on every state of the replayed real games and of random games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from stratagem.envs.state_json import InvalidStateError
from stratagem.envs.terra_mystica.context import RESET_CTX
from stratagem.envs.terra_mystica.factions import (
    BUILDING_STOCK,
    CULTISTS,
    FACTIONS,
    FAKIRS,
    MERMAIDS,
)
from stratagem.envs.terra_mystica.fields import (
    BLOCKED,
    BON,
    BON_USED,
    BRIDGES,
    CARPET,
    CULT,
    CULTP,
    DIG,
    FAV6_USED,
    FAVS,
    KEY,
    MAXP,
    NB,
    P1,
    P2,
    P3,
    PASSED,
    SH_USED,
    SHIP,
    TELE,
    TOWN_SIZE,
    TW,
    VP,
    C,
    P,
    W,
)
from stratagem.envs.terra_mystica.map import (
    NUM_CELLS,
    RIVER_CELLS,
    TERRAIN0,
)
from stratagem.envs.terra_mystica.power import leech_amount
from stratagem.envs.terra_mystica.tiles import FAVORS, TOWNS

if TYPE_CHECKING:
    from stratagem.envs.terra_mystica.rules import TerraMysticaState

__all__ = ["MAX_COUNT", "check_state"]

#: Cap on coins, workers and VP in a saved state: real games stay under 300; the observation
#: shows them raw and declares 1000 as its bound, which play from 500 does not reach.
MAX_COUNT = 500
#: Cap on the small per-turn counters (spades held, tiles or cult steps owed, leech power).
MAX_SMALL = 30
_LAND = frozenset(c for c in range(NUM_CELLS) if 0 <= TERRAIN0[c] <= 6)
_RIVER_MASK = sum(1 << r for r in RIVER_CELLS)


def _bad(field: str, problem: str) -> InvalidStateError:
    return InvalidStateError(f"terra_mystica: state field {field} {problem}")


def _range(value: int, lo: int, hi: int, field: str) -> None:
    if not lo <= value <= hi:
        raise _bad(field, f"must be in {lo}..{hi}, got {value}")


def _check_offer(offer: Sequence[int], n: int, lo: int, hi: int, field: str) -> None:
    """Check one power offer ``(to, from, amount, build id)``: pending and postponed alike."""
    q, frm, amount, lid = offer
    _range(q, 0, n - 1, f"{field}[0]")
    _range(frm, 0, n - 1, f"{field}[1]")
    if q == frm:
        raise _bad(field, "offers a player its own power")
    _range(amount, 1, MAX_SMALL, f"{field}[2]")
    _range(lid, lo, hi, f"{field}[3]")


def check_state(st: TerraMysticaState) -> None:
    """Refuse a state that play could not have produced (see the module docstring).

    The field types (lists of ints of the right lengths) were checked by the caller.

    Raises:
        InvalidStateError: Naming the first field found wrong.
    """
    _check_setup(st)
    _check_board(st)
    _check_players(st)
    _check_supplies(st)
    _check_flow(st)


def _check_setup(st: TerraMysticaState) -> None:
    """Factions, round scoring tiles and bonus tiles in play: this configuration's."""
    g = st.game
    n = st.n
    for p, f in enumerate(st.fac):
        _range(f, 0, len(FACTIONS) - 1, f"fac[{p}]")
    if len({FACTIONS[f].home for f in st.fac}) != n:
        raise _bad("fac", "must give every seat a faction of its own home terrain")
    if g.fixed_factions is not None and tuple(st.fac) != g.fixed_factions:
        raise _bad("fac", f"must be this configuration's factions {list(g.fixed_factions)}")
    tiles = st.score_tiles
    if len(set(tiles)) != 6 or not set(tiles) <= set(g.score_pool):
        raise _bad("score_tiles", f"must be 6 different tiles of {list(g.score_pool)}")
    if g.fixed_scoring is not None and tuple(tiles) != g.fixed_scoring:
        raise _bad("score_tiles", "must be this configuration's scoring tiles")
    if g.fixed_scoring is None and 0 in tiles[4:]:
        raise _bad("score_tiles", "may not hold SCORE1 in rounds 5 and 6")
    bon = st.bon_game
    if any(b not in (0, 1) for b in bon) or sum(bon) != n + 3:
        raise _bad("bon_game", f"must mark {n + 3} bonus tiles with 1, the others 0")
    if any(bon[i] for i in range(10) if i not in g.bonus_pool):
        raise _bad("bon_game", "marks a bonus tile this configuration does not use")
    if g.fixed_bonus is not None and [i for i in range(10) if bon[i]] != list(g.fixed_bonus):
        raise _bad("bon_game", "must be this configuration's bonus tiles")


def _check_board(st: TerraMysticaState) -> None:
    """Terrain, buildings, owners, towns, bridges and the masks derived from them."""
    n = st.n
    for c in range(NUM_CELLS):
        land = c in _LAND
        t, b, o, town = st.terrain[c], st.bld[c], st.own[c], st.town[c]
        if land:
            _range(t, 0, 6, f"terrain[{c}]")
        elif t != TERRAIN0[c]:
            raise _bad(f"terrain[{c}]", f"is a river or off the map: must stay {TERRAIN0[c]}")
        _range(b, 0, 5 if land else 0, f"bld[{c}]")
        _range(o, -1, n - 1, f"own[{c}]")
        if (o >= 0) != (b > 0):
            raise _bad(f"own[{c}]", "must name an owner exactly where a building stands")
        _range(town, 0, 1 if b else 0, f"town[{c}]")
    for p in range(n):
        mask = sum(1 << c for c in range(NUM_CELLS) if st.own[c] == p and st.bld[c])
        if st.mine[p] != mask:
            raise _bad(f"mine[{p}]", "must be the mask of that player's buildings")
        d = st.pd[p]
        for kind in range(1, 6):
            count = sum(1 for c in range(NUM_CELLS) if st.own[c] == p and st.bld[c] == kind)
            if count > BUILDING_STOCK[kind]:
                raise _bad("bld", f"gives player {p} more buildings of kind {kind} than exist")
            if d[NB + kind] != count:
                raise _bad(f"pd[{p}][{NB + kind}]", f"must count the {count} buildings")
    bmask = 0
    for s, owner in enumerate(st.bown):
        _range(owner, -1, n - 1, f"bown[{s}]")
        if owner >= 0:
            bmask |= 1 << s
    if st.bmask != bmask:
        raise _bad("bmask", "must be the mask of the bridge slots that have an owner")
    for p in range(n):
        count = sum(1 for owner in st.bown if owner == p)
        if st.pd[p][BRIDGES] != count or count > 3:
            raise _bad(f"pd[{p}][{BRIDGES}]", "must count the player's bridges (3 at most)")
    if st.mriv < 0 or st.mriv & ~_RIVER_MASK:
        raise _bad("mriv", "must be a mask of river cells")
    if st.mriv and MERMAIDS not in st.fac:
        raise _bad("mriv", "marks rivers connected by the Mermaids, who are not in the game")


def _check_players(st: TerraMysticaState) -> None:
    """Each player's record, field by field, and what the tracks imply."""
    n = st.n
    at_ten = [0] * 4
    for p in range(n):
        d = st.pd[p]
        f = FACTIONS[st.fac[p]]
        key = f"pd[{p}]"
        for i, name in ((C, "coins"), (W, "workers"), (VP, "VP")):
            _range(d[i], 0, MAX_COUNT, f"{key}[{i}] ({name})")
        _range(d[P], 0, d[MAXP], f"{key}[{P}] (priests, at most the limit)")
        for i in (P1, P2, P3):
            _range(d[i], 0, MAX_SMALL, f"{key}[{i}] (power bowl)")
        start = f.start[3] + f.start[4]
        if d[P1] + d[P2] + d[P3] > start:
            raise _bad(key, f"holds more than the faction's {start} power tokens")
        for track in range(4):
            _range(d[CULT + track], 0, 10, f"{key}[{CULT + track}] (cult track)")
            if d[CULT + track] == 10:
                at_ten[track] += 1
        keys = sum(TOWNS[i].keys * d[TW + i] for i in range(8))
        tens = sum(1 for track in range(4) if d[CULT + track] == 10)
        if d[KEY] < 0 or d[KEY] + tens != keys:
            raise _bad(f"{key}[{KEY}]", "town keys and tracks at 10 must add up to the keys won")
        _range(d[SHIP], 0, f.ship_max, f"{key}[{SHIP}] (shipping)")
        _range(d[DIG], 0, f.dig_max, f"{key}[{DIG}] (digging)")
        _range(d[TELE], 0, 1, f"{key}[{TELE}] (tunnelling/carpet level)")
        _range(d[CARPET], 1, 4 if st.fac[p] == FAKIRS else 1, f"{key}[{CARPET}] (carpet)")
        _range(d[BON], -1, 9, f"{key}[{BON}] (bonus tile)")
        _range(d[FAVS], 0, (1 << 12) - 1, f"{key}[{FAVS}] (favor tiles)")
        if d[TOWN_SIZE] != (6 if d[FAVS] >> 4 & 1 else 7):
            raise _bad(f"{key}[{TOWN_SIZE}]", "must be 6 with FAV5, else 7")
        spaces = sum(1 for q in st.cult_spaces if q == p)
        if d[CULTP] != spaces or d[MAXP] != 7 - spaces:
            raise _bad(f"{key}[{CULTP}]", "must count the priests on cult spaces (limit 7 - it)")
        for i in (PASSED, BON_USED, FAV6_USED, SH_USED):
            _range(d[i], 0, 1, f"{key}[{i}]")
        _range(d[BLOCKED], 0, 15, f"{key}[{BLOCKED}] (blocked tracks)")
        for track in range(4):
            if d[BLOCKED] >> track & 1 and d[CULT + track] != 9:
                raise _bad(f"{key}[{BLOCKED}]", "marks a track not stuck at 9")
        for i in range(8):
            _range(d[TW + i], 0, TOWNS[i].copies, f"{key}[{TW + i}] (town tiles)")
    if any(k > 1 for k in at_ten):
        raise _bad("pd", "puts two players at 10 on one cult track")


def _check_supplies(st: TerraMysticaState) -> None:
    """Tiles and spaces: supply plus holdings equal the stock."""
    g = st.game
    n = st.n
    held = [st.pd[p][BON] for p in range(n) if st.pd[p][BON] >= 0]
    if len(set(held)) != len(held):
        raise _bad("pd", "gives one bonus tile to two players")
    for i in range(10):
        _range(st.bon_supply[i], 0, 1, f"bon_supply[{i}]")
        if st.bon_game[i] != st.bon_supply[i] + held.count(i):
            raise _bad(f"bon_supply[{i}]", "and the players' bonus tiles must be the game's")
        _range(st.bon_coins[i], 0, 6 if st.bon_supply[i] else 0, f"bon_coins[{i}]")
    for i, tile in enumerate(FAVORS):
        owners = sum(1 for p in range(n) if st.pd[p][FAVS] >> i & 1)
        if st.fav_supply[i] < 0 or st.fav_supply[i] + owners != tile.copies:
            raise _bad(f"fav_supply[{i}]", f"and the players' FAV{i + 1} must be {tile.copies}")
    for i in range(8):
        owned = sum(st.pd[p][TW + i] for p in range(n))
        if st.tw_supply[i] < 0 or st.tw_supply[i] + owned != g.town_supply[i]:
            raise _bad(f"tw_supply[{i}]", f"and the players' TW{i + 1} must be {g.town_supply[i]}")
    for s, q in enumerate(st.cult_spaces):
        _range(q, -1, n - 1, f"cult_spaces[{s}]")
    _range(st.act_used, 0, 63, "act_used")


def _check_flow(st: TerraMysticaState) -> None:
    """Phase, the player to decide, queues and the turn context."""
    from stratagem.envs.terra_mystica import rules as R

    n = st.n
    phase = st.phase
    _range(phase, 0, R.OVER, "phase")
    _range(st.round, 0, 6, "round")
    setup = phase in (R.SETUP_DWELLING, R.SETUP_BONUS)
    if (st.round == 0) != setup:
        raise _bad("round", "must be 0 exactly during the setup phases")
    if sorted(st.order) != list(range(n)):
        raise _bad("order", "must be a permutation of the seats")
    if len(set(st.pass_order)) != len(st.pass_order):
        raise _bad("pass_order", "lists a player twice")
    for q in st.pass_order:
        _range(q, 0, n - 1, "pass_order")
        if not st.pd[q][PASSED]:
            raise _bad("pass_order", f"lists player {q}, who has not passed")
    # the setup queue is what is left of the snake order
    full = R._setup_order(list(st.fac))
    queue = tuple(tuple(x) for x in st.setup_queue)
    if queue != full[len(full) - len(queue) :]:
        raise _bad("setup_queue", "must be the rest of the setup order")
    if setup != bool(queue):
        raise _bad("setup_queue", "must be non-empty exactly during the setup phases")
    if queue and (queue[0][1] != (phase == R.SETUP_BONUS) or queue[0][0] != st.current_player):
        raise _bad("setup_queue", "must start with the decision being taken")
    # who acts
    if setup or phase == R.OVER:
        if st.act != -1:
            raise _bad("act", "must be -1 outside the rounds")
    else:
        _range(st.act, 0, n - 1, "act")
    # leech offers
    _range(st.lid, 0, 10**6, "lid")
    last = 0
    for k, offer in enumerate(st.leech):
        _check_offer(offer, n, max(1, last), st.lid, f"leech[{k}]")  # in the order made
        last = offer[3]
    if st.leech and phase not in (R.ACTION, R.LEECH, R.CULTIST):
        raise _bad("leech", "holds offers outside a turn")
    # offers a replay postponed, and the answers so far of their builds
    for k, offer in enumerate(st.late):
        _check_offer(offer, n, 1, st.lid, f"late[{k}]")
    if st.late and phase not in (R.ACTION, R.LEECH, R.CULTIST):
        raise _bad("late", "holds postponed offers outside the rounds' turns")
    waiting = {o[3] for o in st.late} | {o[3] for o in st.leech}
    seen: set[int] = set()
    for k, (lid, acc, dec) in enumerate(st.lstats):
        if lid in seen or lid not in waiting:
            raise _bad(f"lstats[{k}]", "must be the one record of a build with offers waiting")
        seen.add(lid)
        _range(acc, 0, 1, f"lstats[{k}][1]")
        _range(dec, 0, 1, f"lstats[{k}][2]")
    lst, acc, dec = st.lstat
    _range(lst, 0, st.lid, "lstat[0]")
    _range(acc, 0, 1, "lstat[1]")
    _range(dec, 0, 1, "lstat[2]")
    _range(st.cpend, 0, n if CULTISTS in st.fac else 0, "cpend")
    # income spades
    for p in range(n):
        _range(st.inc_spades[p], 0, MAX_SMALL, f"inc_spades[{p}]")
    queue_i = st.inc_queue
    if len(set(queue_i)) != len(queue_i) or any(not 0 <= q < n for q in queue_i):
        raise _bad("inc_queue", "must list distinct seats")
    for p in range(n):
        if (p in queue_i) != (st.inc_spades[p] > 0):
            raise _bad("inc_spades", "must be positive exactly for the players queued")
    if (phase == R.INCOME_SPADES) != bool(queue_i):
        raise _bad("inc_queue", "must be non-empty exactly while cult-reward spades are placed")
    if queue_i and queue_i[0] != st.act:
        raise _bad("inc_queue", "must start with the player placing spades")
    # the player to decide
    player = st.current_player
    if phase == R.LEECH:
        if not st.leech:
            raise _bad("leech", "must hold the offer being decided")
        q, _, amount, _ = st.leech[0]
        if player != q or leech_amount(st.pd[q], amount) <= 0:
            raise _bad("current_player", "must be the receiver of a power offer it can take")
    elif phase == R.CULTIST:
        if not st.cpend or CULTISTS not in st.fac or player != st.fac.index(CULTISTS):
            raise _bad("current_player", "must be the Cultists with a cult step to place")
    elif phase in (R.ACTION, R.INCOME_SPADES):
        if player != st.act:
            raise _bad("current_player", "must be the player whose turn it is")
    elif phase == R.OVER and player != 0:
        raise _bad("current_player", "must be 0 once the game is over")
    if bool(st.cpend) != (phase == R.CULTIST):
        raise _bad("cpend", "must be positive exactly while the Cultists place a step")
    # turn context
    _check_ctx(st, R)
    final = st.final
    if (final is not None) != (phase == R.OVER):
        raise _bad("final", "must be given exactly once the game is over")
    if final is not None and list(final) != [d[VP] for d in st.pd]:
        raise _bad("final", "must be the players' VP")


def _check_ctx(st: TerraMysticaState, R: Any) -> None:
    """The active player's turn context: reset outside a turn, each counter in its range."""
    x = st.ctx
    reset = list(RESET_CTX)
    in_turn = st.phase in (R.ACTION, R.INCOME_SPADES)
    if not in_turn:
        if list(x) != reset:
            raise _bad("ctx", "must be the reset turn context outside a turn")
        if st.build_locs:
            raise _bad("build_locs", "must be empty outside a turn")
        if any(d[BLOCKED] for d in st.pd):
            raise _bad("pd", "marks blocked cult tracks outside a turn")
        return
    bounds = {
        R.X_ACTIONS: (0, 2),
        R.X_SPADES: (0, MAX_SMALL),
        R.X_TF: (-1, MAX_SMALL),
        R.X_TELE: (-1, NUM_CELLS - 1),
        R.X_FAV: (0, MAX_SMALL),
        R.X_TW: (0, MAX_SMALL),
        R.X_CULT: (0, MAX_SMALL),
        R.X_CSTEPS: (0, 3),
        R.X_TCULT: (0, 15),
        R.X_TSTEPS: (0, 2),
    }
    for i in range(R.CTX_SIZE):
        lo, hi = bounds.get(i, (0, 1))
        _range(x[i], lo, hi, f"ctx[{i}]")
    if x[R.X_TELE] >= 0 and x[R.X_TELE] not in _LAND:
        raise _bad(f"ctx[{R.X_TELE}]", "must be a land hex reached by tunnel or carpet")
    if bool(x[R.X_TCULT]) != bool(x[R.X_TSTEPS]):
        raise _bad(f"ctx[{R.X_TCULT}]", "town cult steps need their number of steps and back")
    for track in range(4):
        pos = st.pd[st.act][CULT + track]
        if x[R.X_TCULT] >> track & 1 and not pos < 10 <= pos + x[R.X_TSTEPS]:
            raise _bad(f"ctx[{R.X_TCULT}]", f"marks track {track}, not taken to 10 by the steps")
    if x[R.X_INCOME] != (st.phase == R.INCOME_SPADES):
        raise _bad(f"ctx[{R.X_INCOME}]", "must be 1 exactly while cult-reward spades are placed")
    if len(set(st.build_locs)) != len(st.build_locs) or len(st.build_locs) > 3:
        raise _bad("build_locs", "must list at most 3 different hexes")
    for cell in st.build_locs:
        if cell not in _LAND:
            raise _bad("build_locs", f"lists {cell}, which is not a land hex")
    for p, d in enumerate(st.pd):
        if d[BLOCKED] and p != st.act:
            raise _bad(f"pd[{p}][{BLOCKED}]", "marks blocked tracks of a player not in turn")
