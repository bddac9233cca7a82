"""Two Kingdoms (Stratega) rules: the forward model.

Source: ``specs/stratega_rules.md`` sections 0 and 3, from GAIGResearch/Stratega branch
``scsa_tk`` (the game section shared by its 23 ``tk_*.yaml`` files, and the TBS forward model).
The facts that decide play:

* Two players; player 0 moves first. A turn is any number of single-entity actions, in any
  order and interleaved, closed by EndTurn (always legal; there is no automatic end).
* The round counter (Stratega's tick) starts at 1 and grows when the turn passes back to
  player 0. Then (the OnTick triggers, in the file's order) every player who owns a City gains
  1 Prod (at most 100), and every entity's movement point is refilled. The game is a draw as
  soon as the counter reaches the reference's limit, 100: after ``max_rounds`` (99) rounds.
* Players hold Gold (0..1000, starts at 0), Prod (0..100, starts at 50) and Score (0..1000).
* City (200 health): Spawn, **cooldown 0**, a Worker for 50 Prod or a Warrior for 40 Gold onto
  any walkable, empty one of its 8 neighbour tiles (Score +2); and Empty. It cannot move or
  attack.
* King (200 health, damage 50) and Warrior (100 health, damage 70): Move to one of the 8
  neighbours (walkable and empty), Attack an enemy entity (City, King, Warrior or Worker) within
  Euclidean range 1.5 (the 8 neighbours), Empty. Worker (30 health): Move, Mine, Empty.
* Move and Empty need the entity's single movement point (Move sets it to 0, Empty spends it);
  Attack and Mine have cooldown 1 (once per round). So a unit moves (or waits) once and attacks
  (or mines) once per round, in either order. A spawned unit may act in the turn it appears.
* Mine: a gold vein orthogonally adjacent to the Worker with at least 40 Gold gives 40 Gold to
  the Worker's player (and counts it as mined by that player), and the Worker loses 12 health:
  a Worker (30 health) dies on its third mine. Each vein starts with 120 Gold.
* Attack removes health; an entity at 0 health or less is removed. A player without a King has
  lost and the other player wins at once. Losing the City is not fatal (it only stops spawning
  and Prod income).

**Research** (option ``research``, off by default). In the reference ``tk_*`` files research is
inert: no entity has a Research action, so Workers need no technology. The paper (section III)
describes a variant where Mining must be researched before Workers can be spawned and research
takes one round; ``research=True`` plays that variant: the City gains ``research_mining``
(needs its movement point and 2 Prod, paid at the start; Mining costs Prod 2 in the file's tech
tree), which completes when the round ends, giving Score +10 and taking the City's movement
point of the next round (the reference's OnComplete effects, run after the OnTick refill).
A City destroyed while researching loses the research, as a continuous action dies with its
entity.

Entities keep the reference's creation order: the layout's reading order, then spawned units in
the order they appear. A removed entity keeps its slot with position -1, so ids are stable for
the whole game. Unreachable content of the file (Barracks, Archers, Catapults, the other
technologies, Armor and Morale parameters) is left out.

This module holds the game and the forward model; the entity types and the rules' numbers are in
:mod:`~stratagem.envs.two_kingdoms.entities` (re-exported here) and the read-only queries of a
position in the :class:`~stratagem.envs.two_kingdoms.queries.TwoKingdomsQueries` mixin.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from stratagem.envs.core import GameSpec, InvalidStateError
from stratagem.envs.stratega_maps import refuse_untrusted_file
from stratagem.envs.stratega_state import (
    BoardFacts,
    StrategaGame,
    StrategaState,
    board_index_of,
    check_max_rounds,
    clock_of,
    int_list_of,
    outcome_of,
)
from stratagem.envs.two_kingdoms import actions as A
from stratagem.envs.two_kingdoms.entities import (
    CITY,
    CITY_PROD_PER_ROUND,
    DAMAGE,
    GOLD_MAX,
    GOLD_VEIN,
    KING,
    MAX_HEALTH,
    MAX_MP,
    MINE_GOLD,
    MINE_SELF_DAMAGE,
    PROD_MAX,
    PROD_START,
    RESEARCH_COST_PROD,
    RESEARCH_SCORE,
    RESEARCH_TIME,
    RESEARCHED,
    SCORE_MAX,
    SPAWN_SCORE,
    UNIT_NAMES,
    VEIN_GOLD,
    WARRIOR,
    WARRIOR_COST_GOLD,
    WORKER,
    WORKER_COST_PROD,
    UnitView,
)
from stratagem.envs.two_kingdoms.maps import SOURCES as MAP_SOURCES
from stratagem.envs.two_kingdoms.maps import TILE_NAMES, TILE_SYMBOLS, Board, load_maps
from stratagem.envs.two_kingdoms.queries import TwoKingdomsQueries

__all__ = [
    "CITY",
    "GOLD_VEIN",
    "KING",
    "OBSERVATION_PLANES",
    "UNIT_NAMES",
    "WARRIOR",
    "WORKER",
    "TwoKingdomsGame",
    "TwoKingdomsState",
    "UnitView",
]

GAME_NAME = "two_kingdoms"
RULES_VERSION = 0  # the v0 of stratagem/<Game>-v0 and <game>_v0: bump them together
NUM_PLAYERS = 2

#: Observation channels (H × W × C), relative to the observing player.
OBSERVATION_PLANES: tuple[str, ...] = (
    tuple(f"terrain_{n}" for n in TILE_NAMES)
    + tuple(f"own_{n}" for n in UNIT_NAMES[:4])
    + tuple(f"enemy_{n}" for n in UNIT_NAMES[:4])
    + (
        "gold_vein",
        "health_fraction",
        "vein_gold",
        "can_move",
        "can_act",
        "own_gold",
        "own_prod",
        "enemy_gold",
        "enemy_prod",
        "own_mining",
        "enemy_mining",
        "round_progress",
        "to_move",
    )
)
_OWN = len(TILE_NAMES)
_ENEMY = _OWN + 4
_VEIN = _ENEMY + 4
_HEALTH, _VEIN_GOLD, _CAN_MOVE, _CAN_ACT = _VEIN + 1, _VEIN + 2, _VEIN + 3, _VEIN + 4
_GLOBAL = _VEIN + 5


class _Static(BoardFacts):
    """Per-board facts shared by every state on that board (never mutated)."""

    __slots__ = (
        "attack_cells",
        "mine_cells",
        "move_targets",
        "spawn_targets",
    )

    def __init__(self, board: Board) -> None:
        super().__init__(board, TILE_SYMBOLS, len(TILE_NAMES), A.NUM_PLANES)
        # Per cell: ((action, target cell), ...); moves and spawns onto walkable cells only.
        nb = A.NEIGHBOURS
        self.move_targets = self.step_targets(nb, A.MOVE_PLANE0)
        self.attack_cells = self.step_targets(nb, A.ATTACK_PLANE0, walkable_only=False)
        self.mine_cells = self.step_targets(A.SIDE_OFFSETS, A.MINE_PLANE0, walkable_only=False)
        # Per cell: (worker spawns, warrior spawns), in the order of ``A.SPAWN_KINDS``.
        worker, warrior = (
            self.step_targets(nb, A.SPAWN_PLANE0 + k * len(nb)) for k in range(len(A.SPAWN_KINDS))
        )
        self.spawn_targets = tuple(zip(worker, warrior, strict=True))
        self.immobile = frozenset(i for i, (t, _, _, _) in enumerate(board.units) if t == CITY)


class TwoKingdomsGame(StrategaGame):
    """Two Kingdoms on one board, or on a set of equal-sized boards chosen by seed.

    Args:
        map: ``"default"`` (the 11×11 board of the ``tk_*.yaml`` files), ``"tk"`` / ``"tk:N"``
            (the 50 experiment maps), ``"ntbea"`` / ``"ntbea:N"`` (the tuning maps), a YAML
            path (``path`` or ``path:MapName``) or an inline layout.
        max_rounds: Rounds played at most (a round is a turn of each player); the game is a
            draw after them (99: the reference's round counter starts at 1 and its draw
            limit is 100).
        research: Play the paper's variant in which the City must research Mining before it can
            spawn Workers (see the module docstring); off as in the reference files.

    Raises:
        MapError: For an unknown or malformed map.
        ValueError: For a bad ``max_rounds`` or ``research``.
    """

    def __init__(
        self, *, map: str = "default", max_rounds: int = 99, research: bool = False
    ) -> None:
        check_max_rounds(GAME_NAME, max_rounds)
        if not isinstance(research, bool):
            raise ValueError(f"two_kingdoms: research must be true or false, got {research!r}")
        refuse_untrusted_file(map, game="two_kingdoms", sources=MAP_SOURCES)
        self.boards = load_maps(map)
        #: The round counter's draw value (the counter starts at 1): ``max_rounds + 1``.
        self.round_limit = max_rounds + 1
        self.research = research
        self._statics = [_Static(b) for b in self.boards]
        width, height = self.boards[0].width, self.boards[0].height
        self.layout = A.make_layout(width, height)
        self.spec = GameSpec(
            name=GAME_NAME,
            version=RULES_VERSION,
            num_players=NUM_PLAYERS,
            action_size=self.layout.size,
            observation_shape=(height, width, len(OBSERVATION_PLANES)),
            max_game_length=max(self._max_length(b) for b in self.boards),
            reward_range=(-1.0, 1.0),
            deterministic=True,
            perfect_information=True,
            zero_sum=True,
            action_layout=self.layout,
            observation_planes=OBSERVATION_PLANES,
            config={"map": map, "max_rounds": max_rounds, "research": research},
        )

    def _max_length(self, board: Board) -> int:
        """An upper bound on the decisions of a game on ``board``.

        Spawns are bounded by resources: all the gold of the veins buys at most ``gold / 40``
        Warriors in all, and a player's Prod (50 plus at most 1 a round) at most
        ``(50 + rounds) / 50`` Workers. Per round a player then takes at most two actions per
        unit, the City's Empty and research, and EndTurn.
        """
        rounds = self.round_limit - 1
        warriors = sum(VEIN_GOLD for t, _, _, _ in board.units if t == GOLD_VEIN) // MINE_GOLD
        workers = (PROD_START + rounds * CITY_PROD_PER_ROUND) // WORKER_COST_PROD + 1
        total = 0
        for p in range(NUM_PLAYERS):
            units = sum(1 for _, o, _, _ in board.units if o == p) + warriors + workers
            total += rounds * (2 * units + 3) + warriors + workers
        return total

    def new_initial_state(self, seed: int | None = None) -> TwoKingdomsState:
        """Initial position; with several boards the seed picks one (uniformly)."""
        return self._fresh(self._board_index(seed))

    def _fresh(self, index: int) -> TwoKingdomsState:
        static = self._statics[index]
        units = static.board.units
        state = TwoKingdomsState.__new__(TwoKingdomsState)
        state.game = self
        state.board_index = index
        state._s = static
        state._type = [t for t, _, _, _ in units]
        state._owner = [o for _, o, _, _ in units]
        state._pos = [y * static.width + x for _, _, x, y in units]
        state._hp = [VEIN_GOLD if t == GOLD_VEIN else MAX_HEALTH[t] for t, _, _, _ in units]
        state._mp = [MAX_MP] * len(units)
        state._last = [0] * len(units)
        state._occ = {p: i for i, p in enumerate(state._pos)}
        state._gold = [0] * NUM_PLAYERS
        state._prod = [PROD_START] * NUM_PLAYERS
        state._score = [0] * NUM_PLAYERS
        state._mined = [0] * NUM_PLAYERS
        state._mining = [0] * NUM_PLAYERS
        state.tick = 1
        state.current_player = 0
        state.winner = None
        return state

    def action_to_string(self, action: int) -> str:
        """Readable name of ``action``, e.g. ``spawn_warrior (2,9)->(1,9)``."""
        return A.action_to_string(self.layout, int(action))

    def string_to_action(self, text: str) -> int:
        """Parse an action name written by :meth:`action_to_string`."""
        return A.string_to_action(self.layout, text)

    def _state_from_dict(self, data: Mapping[str, Any]) -> TwoKingdomsState:
        state = self._fresh(board_index_of(GAME_NAME, data, len(self.boards)))
        static = state._s
        initial = static.board.units

        def int_list(key: str, size: int | None) -> list[int]:
            return int_list_of(GAME_NAME, data, key, size)

        types = int_list("type", None)
        n = len(types)
        if n < len(initial):
            raise InvalidStateError("two_kingdoms: fewer entities than the board starts with")
        owner, pos, hp = int_list("owner", n), int_list("pos", n), int_list("hp", n)
        mp, last = int_list("mp", n), int_list("last", n)
        gold, prod = int_list("gold", NUM_PLAYERS), int_list("prod", NUM_PLAYERS)
        score, mined = int_list("score", NUM_PLAYERS), int_list("mined", NUM_PLAYERS)
        mining = int_list("mining", NUM_PLAYERS)
        tick, player, winner = clock_of(GAME_NAME, data, self.round_limit)
        for p in range(NUM_PLAYERS):
            if not (0 <= gold[p] <= GOLD_MAX and 0 <= prod[p] <= PROD_MAX):
                raise InvalidStateError(f"two_kingdoms: player {p} gold or prod out of range")
            if not (0 <= score[p] <= SCORE_MAX and 0 <= mined[p] <= GOLD_MAX):
                raise InvalidStateError(f"two_kingdoms: player {p} score or mined out of range")
            started = mining[p]
            if not (started in (0, RESEARCHED) or (self.research and 1 <= started <= tick)):
                raise InvalidStateError(f"two_kingdoms: player {p} research state {started!r}")
            if started == RESEARCHED and not self.research:
                raise InvalidStateError("two_kingdoms: Mining researched without the option")
        occ: dict[int, int] = {}
        for u in range(n):
            t, o = types[u], owner[u]
            if u < len(initial):
                if (t, o) != initial[u][:2]:
                    raise InvalidStateError(
                        f"two_kingdoms: entity {u} is not the board's {UNIT_NAMES[initial[u][0]]}"
                    )
            elif t not in (WORKER, WARRIOR) or o not in (0, 1):
                raise InvalidStateError(f"two_kingdoms: entity {u} cannot have been spawned")
            if not 0 <= mp[u] <= MAX_MP or not 0 <= last[u] <= tick:
                raise InvalidStateError(f"two_kingdoms: entity {u} action state out of range")
            if pos[u] == -1:
                if t == GOLD_VEIN:
                    raise InvalidStateError(f"two_kingdoms: gold vein {u} cannot be removed")
                continue
            p = pos[u]
            if not 0 <= p < static.hw or not static.walkable[p]:
                raise InvalidStateError(
                    f"two_kingdoms: entity {u} stands on cell {p}, off the board or not walkable"
                )
            if p in occ:
                raise InvalidStateError(f"two_kingdoms: entities {occ[p]} and {u} share cell {p}")
            top = VEIN_GOLD if t == GOLD_VEIN else MAX_HEALTH[t]
            if not (0 <= hp[u] <= top if t == GOLD_VEIN else 0 < hp[u] <= top):
                raise InvalidStateError(f"two_kingdoms: entity {u} health/gold {hp[u]} invalid")
            occ[p] = u
        state._type, state._owner, state._pos, state._hp = types, owner, pos, hp
        state._mp, state._last, state._occ = mp, last, occ
        state._gold, state._prod, state._score, state._mined = gold, prod, score, mined
        state._mining = mining
        state.tick, state.current_player, state.winner = tick, player, winner
        state._check_winner(winner)
        return state


class TwoKingdomsState(TwoKingdomsQueries, StrategaState[UnitView]):
    """A Two Kingdoms position. Create it with :meth:`TwoKingdomsGame.new_initial_state`.

    Attributes:
        tick: The round counter (starts at 1).
        winner: ``None`` while playing, ``-1`` for a draw, else the winning player.
        board_index: Which of the game's boards this state is played on.
    """

    game: TwoKingdomsGame
    render_module = "stratagem.envs.two_kingdoms.render"
    _PLANE_KIND = A.PLANE_KIND
    _NOUN = "entity"
    __slots__ = (
        "_gold",
        "_hp",
        "_last",
        "_mined",
        "_mining",
        "_mp",
        "_occ",
        "_owner",
        "_pos",
        "_prod",
        "_s",
        "_score",
        "_type",
        "board_index",
        "current_player",
        "game",
        "tick",
        "winner",
    )

    # ----------------------------------------------------------------- contract
    def clone(self) -> TwoKingdomsState:
        """Copy the small mutable lists; board facts are shared."""
        c = TwoKingdomsState.__new__(TwoKingdomsState)
        c.game = self.game
        c.board_index = self.board_index
        c._s = self._s
        c._type = self._type[:]
        c._owner = self._owner[:]
        c._pos = self._pos[:]
        c._hp = self._hp[:]
        c._mp = self._mp[:]
        c._last = self._last[:]
        c._occ = self._occ.copy()
        c._gold = self._gold[:]
        c._prod = self._prod[:]
        c._score = self._score[:]
        c._mined = self._mined[:]
        c._mining = self._mining[:]
        c.tick = self.tick
        c.current_player = self.current_player
        c.winner = self.winner
        return c

    def legal_action_list(self) -> list[int]:
        """Legal actions as a Python list (unsorted; EndTurn last); the fast path for planners."""
        if self.winner is not None:
            return []
        s = self._s
        me = self.current_player
        pos, occ, owner, types = self._pos, self._occ, self._owner, self._type
        tick = self.tick
        hw = s.hw
        out: list[int] = []
        for u, o in enumerate(owner):
            if o != me:
                continue
            p = pos[u]
            if p < 0:
                continue
            t = types[u]
            if t == CITY:
                spawns = s.spawn_targets[p]
                if self._prod[me] >= WORKER_COST_PROD and (
                    not self.game.research or self._mining[me] == RESEARCHED
                ):
                    for action, q in spawns[0]:
                        if q not in occ:
                            out.append(action)
                if self._gold[me] >= WARRIOR_COST_GOLD:
                    for action, q in spawns[1]:
                        if q not in occ:
                            out.append(action)
                if self._mp[u] >= 1:
                    out.append(A.EMPTY_PLANE * hw + p)
                    if (
                        self.game.research
                        and self._mining[me] == 0
                        and self._prod[me] >= RESEARCH_COST_PROD
                    ):
                        out.append(A.RESEARCH_PLANE * hw + p)
                continue
            if self._mp[u] >= 1:
                for action, q in s.move_targets[p]:
                    if q not in occ:
                        out.append(action)
                out.append(A.EMPTY_PLANE * hw + p)
            if tick - self._last[u] < 1:
                continue
            if t == WORKER:
                for action, q in s.mine_cells[p]:
                    v = occ.get(q)
                    if v is not None and types[v] == GOLD_VEIN and self._hp[v] >= MINE_GOLD:
                        out.append(action)
            else:  # King or Warrior
                for action, q in s.attack_cells[p]:
                    v = occ.get(q)
                    if v is not None and owner[v] != me and types[v] != GOLD_VEIN:
                        out.append(action)
        out.append(s.end_turn)
        return out

    def _act(self, action: int, kind: str, u: int, p: int, k: int, dx: int, dy: int) -> None:
        """Spawn, research, mine or attack (:meth:`StrategaState.apply` plays Move and Empty).

        A City's Move comes here too (Cities are the board facts' ``immobile``): it is refused.
        """
        me = self.current_player
        t = self._type[u]
        name = UNIT_NAMES[t]
        if kind == "move":
            raise self.illegal(action, "a city cannot move")
        if kind == "spawn":
            self._spawn(action, u, p, k, dx, dy)
            return
        if kind == "research":
            if t != CITY or not self.game.research:
                raise self.illegal(action, "only a city researches, with the research option on")
            if self._mp[u] < 1:
                raise self.illegal(action, "the city has no movement point left this round")
            if self._mining[me] != 0:
                raise self.illegal(action, "Mining is already researched or being researched")
            if self._prod[me] < RESEARCH_COST_PROD:
                raise self.illegal(action, f"research costs {RESEARCH_COST_PROD} Prod")
            self._prod[me] -= RESEARCH_COST_PROD
            self._mining[me] = self.tick
            return
        if self.tick - self._last[u] < 1:
            raise self.illegal(action, f"the {name} already attacked or mined this round")
        q = self._target(p, dx, dy)
        v = self._occ.get(q, -1) if q >= 0 else -1
        if kind == "mine":
            if t != WORKER:
                raise self.illegal(action, f"a {name} cannot mine")
            if v < 0 or self._type[v] != GOLD_VEIN or self._hp[v] < MINE_GOLD:
                raise self.illegal(action, f"no gold vein with {MINE_GOLD} gold there")
            self._last[u] = self.tick
            self._hp[v] -= MINE_GOLD
            self._gold[me] = min(GOLD_MAX, self._gold[me] + MINE_GOLD)
            self._mined[me] = min(GOLD_MAX, self._mined[me] + MINE_GOLD)
            self._damage(u, MINE_SELF_DAMAGE)
            return
        # attack
        if t not in (KING, WARRIOR):
            raise self.illegal(action, f"a {name} cannot attack")
        if v < 0 or self._owner[v] == me or self._type[v] == GOLD_VEIN:
            raise self.illegal(action, "there is no enemy entity at the target")
        self._last[u] = self.tick
        self._damage(v, DAMAGE[t])

    def observation(self, player: int) -> np.ndarray:
        """``H × W × 25`` planes relative to ``player`` (see ``OBSERVATION_PLANES``)."""
        if player not in (0, 1):
            raise ValueError(f"two_kingdoms: player must be 0 or 1, got {player!r}")
        s = self._s
        obs = np.zeros(self.game.spec.observation_shape, dtype=np.float32)
        obs[:, :, :_OWN] = s.terrain_planes
        width = s.width
        for u, p in enumerate(self._pos):
            if p < 0:
                continue
            y, x = divmod(p, width)
            t = self._type[u]
            cell = obs[y, x]
            if t == GOLD_VEIN:
                cell[_VEIN] = 1.0
                cell[_VEIN_GOLD] = self._hp[u] / VEIN_GOLD
                continue
            cell[(_OWN if self._owner[u] == player else _ENEMY) + t] = 1.0
            cell[_HEALTH] = self._hp[u] / MAX_HEALTH[t]
            cell[_CAN_MOVE] = float(self._mp[u] >= 1)
            cell[_CAN_ACT] = float(t in (KING, WARRIOR, WORKER) and self.tick - self._last[u] >= 1)
        other = 1 - player
        scalars = (
            self._gold[player] / GOLD_MAX,
            self._prod[player] / PROD_MAX,
            self._gold[other] / GOLD_MAX,
            self._prod[other] / PROD_MAX,
            float(self._mining[player] == RESEARCHED),
            float(self._mining[other] == RESEARCHED),
            min(1.0, self.tick / self.game.round_limit),
            float(self.current_player == player and self.winner is None),
        )
        for i, value in enumerate(scalars):
            obs[:, :, _GLOBAL + i] = value
        return obs

    def _to_dict(self) -> dict[str, Any]:
        return {
            "board_index": self.board_index,
            "tick": self.tick,
            "current_player": self.current_player,
            "winner": self.winner,
            "type": self._type,
            "owner": self._owner,
            "pos": self._pos,
            "hp": self._hp,
            "mp": self._mp,
            "last": self._last,
            "gold": self._gold,
            "prod": self._prod,
            "score": self._score,
            "mined": self._mined,
            "mining": self._mining,
        }

    # ----------------------------------------------------------------- internals

    def _spawn(self, action: int, u: int, p: int, k: int, dx: int, dy: int) -> None:
        me = self.current_player
        if self._type[u] != CITY:
            raise self.illegal(action, f"a {UNIT_NAMES[self._type[u]]} cannot spawn")
        if k == 0:
            if self.game.research and self._mining[me] != RESEARCHED:
                raise self.illegal(action, "Workers need Mining to be researched first")
            if self._prod[me] < WORKER_COST_PROD:
                raise self.illegal(action, f"a Worker costs {WORKER_COST_PROD} Prod")
        elif self._gold[me] < WARRIOR_COST_GOLD:
            raise self.illegal(action, f"a Warrior costs {WARRIOR_COST_GOLD} Gold")
        q = self._target(p, dx, dy)
        if q < 0 or not self._s.walkable[q] or q in self._occ:
            raise self.illegal(action, "the spawn tile is off the board, not walkable or occupied")
        t = WORKER if k == 0 else WARRIOR
        if t == WORKER:
            self._prod[me] -= WORKER_COST_PROD
        else:
            self._gold[me] -= WARRIOR_COST_GOLD
        self._score[me] = min(SCORE_MAX, self._score[me] + SPAWN_SCORE)
        self._occ[q] = len(self._type)
        self._type.append(t)
        self._owner.append(me)
        self._pos.append(q)
        self._hp.append(MAX_HEALTH[t])
        self._mp.append(MAX_MP)
        self._last.append(0)

    def _damage(self, v: int, amount: int) -> None:
        """Remove ``amount`` health from entity ``v``; at 0 or less it is removed."""
        hp = self._hp[v] - amount
        if hp > 0:
            self._hp[v] = hp
            return
        self._hp[v] = 0
        del self._occ[self._pos[v]]
        self._pos[v] = -1
        t = self._type[v]
        if t == KING:
            self.winner = self._outcome()
        elif t == CITY and self._mining[self._owner[v]] > 0:
            self._mining[self._owner[v]] = 0  # the research dies with its City

    def _end_turn(self) -> None:
        self.current_player = 1 - self.current_player
        if self.current_player == 0:
            self.tick += 1
            types, owner, pos = self._type, self._owner, self._pos
            for u, t in enumerate(types):
                if t == CITY and pos[u] >= 0:
                    o = owner[u]
                    self._prod[o] = min(PROD_MAX, self._prod[o] + CITY_PROD_PER_ROUND)
            self._mp = [MAX_MP] * len(types)
            if self.game.research:
                self._advance_research()
        if self.tick >= self.game.round_limit:
            self.winner = -1

    def _advance_research(self) -> None:
        for p in range(NUM_PLAYERS):
            started = self._mining[p]
            if started > 0 and self.tick - started >= RESEARCH_TIME:
                self._mining[p] = RESEARCHED
                self._score[p] = min(SCORE_MAX, self._score[p] + RESEARCH_SCORE)
                for u, t in enumerate(self._type):
                    if t == CITY and self._owner[u] == p and self._pos[u] >= 0:
                        self._mp[u] = max(0, self._mp[u] - 1)
                        break

    def _outcome(self) -> int | None:
        """Winner implied by the position: a side without a King loses; the limit draws."""
        if self.tick >= self.game.round_limit:
            return -1
        alive = [False, False]
        for u, t in enumerate(self._type):
            if t == KING and self._pos[u] >= 0:
                alive[self._owner[u]] = True
        return outcome_of(alive)
