"""Kill The King (Stratega) rules: the forward model.

Source: ``specs/stratega_rules.md`` sections 0 and 1, from GAIGResearch/Stratega branch
``scsa_ktkpta`` (``KillTheKing.yaml`` and the TBS forward model). The facts that decide play:

* Two players; player 0 moves first. A turn is any number of single-unit actions, in any unit
  order and interleaved, closed by EndTurn (always legal; there is no automatic end).
* The round counter (Stratega's tick) starts at 1 and grows when the turn passes back to
  player 0; then every unit's movement points are refilled to 1. The game is a draw as soon as
  the counter reaches the reference's limit, 100: after ``max_rounds`` (99) rounds.
* Move: to one of the 8 neighbours, walkable (Plain or Forest) and empty; costs the unit's single
  movement point. Empty: spends the movement point without moving.
* Attack (King, Warrior, Archer): an enemy within Euclidean range 1, 1.5 or 2; damage 50, 70 or
  50; a unit at 0 health or less is removed. Heal (Healer): any unit within range 2, enemies and
  itself included, +50 health clamped at that unit's maximum. Attack and Heal have cooldown 1:
  once per round per unit. Move/Empty and Attack/Heal may come in either order.
* A player without a King has lost; the other player wins at once.

Units keep the reference's creation order (reading order of the layout); a dead unit keeps its
slot with position -1, so unit ids are stable for the whole game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from stratagem.envs.core import GameSpec, InvalidStateError, RandomSource
from stratagem.envs.kill_the_king import actions as A
from stratagem.envs.kill_the_king.maps import SOURCES as MAP_SOURCES
from stratagem.envs.kill_the_king.maps import TILE_NAMES, TILE_SYMBOLS, Board, load_maps
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

__all__ = [
    "KING",
    "UNIT_NAMES",
    "UNIT_STATS",
    "KillTheKingGame",
    "KillTheKingState",
    "UnitColumns",
    "UnitStats",
    "UnitView",
]

GAME_NAME = "kill_the_king"
RULES_VERSION = 0  # the v0 of stratagem/<Game>-v0 and <game>_v0: bump them together
NUM_PLAYERS = 2

KING, WARRIOR, ARCHER, HEALER = 0, 1, 2, 3
UNIT_NAMES = ("king", "warrior", "archer", "healer")
UNIT_SYMBOLS = ("k", "w", "a", "h")


@dataclass(frozen=True)
class UnitStats:
    """One unit type's parameters from ``KillTheKing.yaml``.

    Attributes:
        max_health: Starting and maximum health.
        attack_range: Euclidean attack reach (0 when the unit cannot attack).
        attack_damage: Health removed per attack.
        heal_range: Euclidean heal reach (0 when the unit cannot heal).
        heal_amount: Health restored per heal, clamped at the target's maximum.
        movement_points: Movement points refilled every round.
    """

    max_health: int
    attack_range: float = 0.0
    attack_damage: int = 0
    heal_range: float = 0.0
    heal_amount: int = 0
    movement_points: int = 1


UNIT_STATS: tuple[UnitStats, ...] = (
    UnitStats(max_health=200, attack_range=1.0, attack_damage=50),  # King
    UnitStats(max_health=100, attack_range=1.5, attack_damage=70),  # Warrior
    UnitStats(max_health=100, attack_range=2.0, attack_damage=50),  # Archer
    UnitStats(max_health=50, heal_range=2.0, heal_amount=50),  # Healer
)
_MAX_HP = tuple(s.max_health for s in UNIT_STATS)
_ATTACK_R2 = tuple(s.attack_range**2 for s in UNIT_STATS)
_HEAL_R2 = tuple(s.heal_range**2 for s in UNIT_STATS)
_DAMAGE = tuple(s.attack_damage for s in UNIT_STATS)
_HEAL = tuple(s.heal_amount for s in UNIT_STATS)
_MAX_MP = tuple(s.movement_points for s in UNIT_STATS)

#: Observation channels (H × W × C), relative to the observing player.
OBSERVATION_PLANES: tuple[str, ...] = (
    tuple(f"terrain_{n}" for n in TILE_NAMES)
    + tuple(f"own_{n}" for n in UNIT_NAMES)
    + tuple(f"enemy_{n}" for n in UNIT_NAMES)
    + ("health_fraction", "can_move", "can_act", "round_progress", "to_move")
)


class UnitView(NamedTuple):
    """Read-only snapshot of one unit, for agents and heuristics.

    Attributes:
        id: Stable unit id (reading order of the layout).
        type: ``KING``, ``WARRIOR``, ``ARCHER`` or ``HEALER``.
        owner: Player 0 or 1.
        x: Column.
        y: Row.
        health: Current health.
        movement_points: Movement points left this round.
        can_act: True when its Attack or Heal is off cooldown.
    """

    id: int
    type: int
    owner: int
    x: int
    y: int
    health: int
    movement_points: int
    can_act: bool


#: ``actions.PLANE_KIND`` in the ``(kind, index, dx, dy)`` form :meth:`StrategaState.apply` reads.
_PLANE_KIND = tuple((kind, -1, dx, dy) for kind, dx, dy in A.PLANE_KIND)

#: Kinds of the candidate actions :meth:`KillTheKingState.sample_legal_action` draws from.
_SLOT_END, _SLOT_MOVE, _SLOT_EMPTY, _SLOT_ATTACK, _SLOT_HEAL = range(5)
#: Candidates drawn before :meth:`KillTheKingState.sample_legal_action` lists the legal actions
#: instead: a try costs a few percent of a listing; 24 gave the fastest random games on the
#: default and the kwah boards (measured from 2 to 64).
_SAMPLE_TRIES = 24


class UnitColumns(NamedTuple):
    """Every unit of a position as columns indexed by unit id (``state.unit_columns()``).

    Attributes:
        cell: Cell ``y * width + x`` of each unit, ``-1`` once it is dead.
        health: Health of each unit (0 once dead).
        owner: Player owning each unit.
        type: ``KING``, ``WARRIOR``, ``ARCHER`` or ``HEALER`` per unit.
        width: Board width, to turn a cell into ``divmod(cell, width) == (y, x)``.
    """

    cell: Sequence[int]
    health: Sequence[int]
    owner: Sequence[int]
    type: Sequence[int]
    width: int


class _Static(BoardFacts):
    """Per-board facts shared by every state on that board (never mutated)."""

    __slots__ = (
        "move_targets",
        "owner",
        "sampling",
        "units_of",
        "utype",
    )

    def __init__(self, board: Board) -> None:
        super().__init__(board, TILE_SYMBOLS, len(TILE_NAMES), A.NUM_PLANES)
        # For each cell: ((action, destination), ...) over in-board walkable neighbours.
        self.move_targets = self.step_targets(A.MOVE_OFFSETS, A.MOVE_PLANE0)
        self.utype = tuple(u[0] for u in board.units)
        self.owner = tuple(u[1] for u in board.units)
        self.units_of = tuple(
            tuple(i for i, o in enumerate(self.owner) if o == p) for p in range(NUM_PLAYERS)
        )
        self.sampling: SamplingTables | None = None  # built on the first draw

    def sampling_tables(self) -> SamplingTables:
        """The tables of :meth:`KillTheKingState.sample_legal_action`, built on first use.

        Building them takes longer than the rest of the board facts, and most games (those of
        trained networks and rule-based agents) never sample, so they wait for the first draw.
        """
        if self.sampling is None:
            self.sampling = _sampling_tables(self)
        return self.sampling


#: What :meth:`KillTheKingState.sample_legal_action` reads: per player the candidate actions
#: ``(kind, unit, offset index, plane)``, then per cell the target of each move, attack and heal
#: offset (``-1`` off the board, and for moves also on a tile that is not walkable).
SamplingTables = tuple[
    tuple[tuple[tuple[int, int, int, int], ...], ...],
    tuple[tuple[int, ...], ...],
    tuple[tuple[int, ...], ...],
    tuple[tuple[int, ...], ...],
]


def _sampling_tables(s: _Static) -> SamplingTables:
    """Build :data:`SamplingTables` for one board.

    The candidates of a player are every action its units could ever take (each unit's 8 moves,
    Empty, and the attack or heal offsets its type reaches) and EndTurn: a fixed superset of the
    legal actions of any position, each legal action exactly once.
    """
    w, h = s.width, s.board.height
    # numpy over every cell and offset at once: a loop in Python took milliseconds per board,
    # which a set of 50 boards (kwah) pays in every process that samples on all of them.
    ys, xs = np.divmod(np.arange(s.hw), w)
    walkable = np.asarray(s.walkable, dtype=bool)

    def dest(offsets: Sequence[tuple[int, int]], walk: bool) -> tuple[tuple[int, ...], ...]:
        off = np.asarray(offsets)
        nx, ny = xs[:, None] + off[:, 0], ys[:, None] + off[:, 1]
        ok = (nx >= 0) & (nx < w) & (ny >= 0) & (ny < h)
        cells = np.where(ok, ny * w + nx, -1)
        if walk:
            cells = np.where(ok & walkable[np.maximum(cells, 0)], cells, -1)
        return tuple(map(tuple, cells.tolist()))

    slots = []
    for player in range(NUM_PLAYERS):
        row = [(_SLOT_END, -1, 0, 0)]
        for u in s.units_of[player]:
            t = s.utype[u]
            row += [(_SLOT_MOVE, u, i, A.MOVE_PLANE0 + i) for i in range(len(A.MOVE_OFFSETS))]
            row.append((_SLOT_EMPTY, u, 0, A.EMPTY_PLANE))
            if t == HEALER:
                row += [
                    (_SLOT_HEAL, u, i, A.HEAL_PLANE0 + i)
                    for i, (dx, dy) in enumerate(A.HEAL_OFFSETS)
                    if dx * dx + dy * dy <= _HEAL_R2[t]
                ]
            else:
                row += [
                    (_SLOT_ATTACK, u, i, A.ATTACK_PLANE0 + i)
                    for i, (dx, dy) in enumerate(A.ATTACK_OFFSETS)
                    if dx * dx + dy * dy <= _ATTACK_R2[t]
                ]
        slots.append(tuple(row))
    return (
        tuple(slots),
        dest(A.MOVE_OFFSETS, True),
        dest(A.ATTACK_OFFSETS, False),
        dest(A.HEAL_OFFSETS, False),
    )


@lru_cache(maxsize=256)
def _static_for(board: Board) -> _Static:
    """Board facts are built once per board and shared by every game and state using it."""
    return _Static(board)


class KillTheKingGame(StrategaGame):
    """Kill The King on one board, or on a set of equal-sized boards chosen by seed.

    Args:
        map: ``"default"`` (32×17), ``"kwah:N"`` (N in 1..50), ``"kwah"`` (one of the 50 kwah
            maps per seed), a YAML path (``path`` or ``path:MapName``) or an inline layout.
        max_rounds: Rounds played at most (a round is a turn of each player); the game is a
            draw after them (99: the reference's round counter starts at 1 and its draw
            limit is 100).

    Raises:
        MapError: For an unknown or malformed map.
        ValueError: For a bad ``max_rounds``.
    """

    def __init__(self, *, map: str = "default", max_rounds: int = 99) -> None:
        check_max_rounds(GAME_NAME, max_rounds)
        refuse_untrusted_file(map, game="kill_the_king", sources=MAP_SOURCES)
        self.boards = load_maps(map)
        if len({(b.width, b.height) for b in self.boards}) != 1:
            raise ValueError(f"kill_the_king: maps of {map!r} differ in size")
        #: The round counter's draw value (the counter starts at 1): ``max_rounds + 1``.
        self.round_limit = max_rounds + 1
        self._statics = [_static_for(b) for b in self.boards]
        width, height = self.boards[0].width, self.boards[0].height
        self.layout = A.make_layout(width, height)
        per_round = max(
            sum(2 * len(s.units_of[p]) + 1 for p in range(NUM_PLAYERS)) for s in self._statics
        )
        self.spec = GameSpec(
            name=GAME_NAME,
            version=RULES_VERSION,
            num_players=NUM_PLAYERS,
            action_size=self.layout.size,
            observation_shape=(height, width, len(OBSERVATION_PLANES)),
            max_game_length=max_rounds * per_round,
            reward_range=(-1.0, 1.0),
            deterministic=True,
            perfect_information=True,
            zero_sum=True,
            action_layout=self.layout,
            observation_planes=OBSERVATION_PLANES,
            config={"map": map, "max_rounds": max_rounds},
        )

    def new_initial_state(self, seed: int | None = None) -> KillTheKingState:
        """Initial position; with several boards the seed picks one (uniformly)."""
        index = self._board_index(seed)
        static = self._statics[index]
        units = static.board.units
        state = KillTheKingState.__new__(KillTheKingState)
        state.game = self
        state.board_index = index
        state._s = static
        state._owner = static.owner
        state._pos = [y * static.width + x for _, _, x, y in units]
        state._hp = [_MAX_HP[t] for t, _, _, _ in units]
        state._mp = [_MAX_MP[t] for t, _, _, _ in units]
        state._last = [0] * len(units)
        state._occ = {p: i for i, p in enumerate(state._pos)}
        state.tick = 1
        state.current_player = 0
        state.winner = None
        return state

    def action_to_string(self, action: int) -> str:
        """Readable name of ``action``, e.g. ``attack (3,4)->(3,6)``."""
        return A.action_to_string(self.layout, int(action))

    def string_to_action(self, text: str) -> int:
        """Parse an action name written by :meth:`action_to_string`."""
        return A.string_to_action(self.layout, text)

    def _state_from_dict(self, data: Mapping[str, Any]) -> KillTheKingState:
        index = board_index_of(GAME_NAME, data, len(self.boards))
        state = self.new_initial_state()
        static = self._statics[index]
        n = len(static.utype)
        fields = {key: int_list_of(GAME_NAME, data, key, n) for key in ("pos", "hp", "mp", "last")}
        tick, player, winner = clock_of(GAME_NAME, data, self.round_limit)
        occ: dict[int, int] = {}
        for u, p in enumerate(fields["pos"]):
            t = static.utype[u]
            if p == -1:
                continue
            if not 0 <= p < static.hw or not static.walkable[p]:
                raise InvalidStateError(
                    f"kill_the_king: unit {u} stands on cell {p}, "
                    f"which is off the board or not walkable"
                )
            if p in occ:
                raise InvalidStateError(f"kill_the_king: units {occ[p]} and {u} share cell {p}")
            if not 0 < fields["hp"][u] <= _MAX_HP[t]:
                raise InvalidStateError(
                    f"kill_the_king: unit {u} health {fields['hp'][u]} outside 1..{_MAX_HP[t]}"
                )
            if not 0 <= fields["mp"][u] <= _MAX_MP[t]:
                raise InvalidStateError(f"kill_the_king: unit {u} movement points out of range")
            if not 0 <= fields["last"][u] <= tick:
                raise InvalidStateError(f"kill_the_king: unit {u} last action tick out of range")
            occ[p] = u
        state.board_index = index
        state._s = static
        state._owner = static.owner
        state._pos, state._hp, state._mp, state._last = (
            fields["pos"],
            fields["hp"],
            fields["mp"],
            fields["last"],
        )
        state._occ = occ
        state.tick, state.current_player, state.winner = tick, player, winner
        state._check_winner(winner)
        return state


class KillTheKingState(StrategaState[UnitView]):
    """A Kill The King position. Create it with :meth:`KillTheKingGame.new_initial_state`.

    Attributes:
        tick: The round counter (starts at 1).
        winner: ``None`` while playing, ``-1`` for a draw, else the winning player.
        board_index: Which of the game's boards this state is played on.
    """

    game: KillTheKingGame
    render_module = "stratagem.envs.kill_the_king.render"
    _PLANE_KIND = _PLANE_KIND
    __slots__ = (
        "_hp",
        "_last",
        "_mp",
        "_occ",
        "_owner",
        "_pos",
        "_s",
        "board_index",
        "current_player",
        "game",
        "tick",
        "winner",
    )

    # ----------------------------------------------------------------- contract
    def clone(self) -> KillTheKingState:
        """Copy the five small mutable containers; board facts (and owners) are shared."""
        c = KillTheKingState.__new__(KillTheKingState)
        c.game = self.game
        c.board_index = self.board_index
        c._s = self._s
        c._owner = self._owner
        c._pos = self._pos[:]
        c._hp = self._hp[:]
        c._mp = self._mp[:]
        c._last = self._last[:]
        c._occ = self._occ.copy()
        c.tick = self.tick
        c.current_player = self.current_player
        c.winner = self.winner
        return c

    def legal_action_list(self) -> list[int]:
        """Legal actions as a Python list (unsorted; EndTurn last); the fast path for planners."""
        if self.winner is not None:
            return []
        s = self._s
        pos, occ, hw = self._pos, self._occ, s.hw
        mp, last = self._mp, self._last
        width = s.width
        empty = A.EMPTY_PLANE * hw
        out: list[int] = []
        ready = self.tick  # an action is off cooldown when tick - last >= 1
        # (row, column) of every living enemy, worked out once for all attackers (on the first
        # need): this loop is most of what a random step or a tree expansion costs.
        enemies: list[tuple[int, int]] | None = None
        for u in s.units_of[self.current_player]:
            p = pos[u]
            if p < 0:
                continue
            if mp[u] >= 1:
                for action, q in s.move_targets[p]:
                    if q not in occ:
                        out.append(action)
                out.append(empty + p)
            if ready - last[u] >= 1:
                t = s.utype[u]
                y, x = divmod(p, width)
                if t == HEALER:
                    r2 = _HEAL_R2[t]
                    for q in occ:
                        ty, tx = divmod(q, width)
                        dx, dy = tx - x, ty - y
                        if dx * dx + dy * dy <= r2:
                            out.append(A.HEAL_PLANE_OF[(dx, dy)] * hw + p)
                else:
                    if enemies is None:
                        enemies = [
                            divmod(pos[e], width)
                            for e in s.units_of[1 - self.current_player]
                            if pos[e] >= 0
                        ]
                    r2 = _ATTACK_R2[t]
                    for ty, tx in enemies:
                        dx, dy = tx - x, ty - y
                        if dx * dx + dy * dy <= r2:
                            out.append(A.ATTACK_PLANE_OF[(dx, dy)] * hw + p)
        out.append(s.end_turn)
        return out

    def sample_legal_action(self, rng: RandomSource) -> int:
        """A uniformly random legal action, mostly without listing them (rejection sampling).

        Listing costs a pass over every unit's neighbours and every enemy for every attacker,
        and a random step needs one action. This draws uniformly from a fixed superset of the
        player's legal actions (every unit's 8 moves, Empty and the attack or heal offsets its
        type reaches, and EndTurn: :func:`_sampling_tables`) and accepts the first candidate
        legal here, which a few table lookups decide. Accepted candidates are uniform over the
        legal actions (each is one slot); after ``_SAMPLE_TRIES`` rejections (a turn whose
        units have all moved) the pick falls back to a uniform one from
        :meth:`legal_action_list`, so the result stays exactly uniform.
        """
        if self.winner is not None:
            raise self._nothing_to_sample()
        s = self._s
        me = self.current_player
        by_player, move_dest, attack_dest, heal_dest = s.sampling or s.sampling_tables()
        slots = by_player[me]
        n = len(slots)
        rand = rng.random
        pos, occ, hw = self._pos, self._occ, s.hw
        for _ in range(_SAMPLE_TRIES):
            kind, u, i, plane = slots[int(rand() * n)]
            if kind == _SLOT_END:
                return s.end_turn
            p = pos[u]
            if p < 0:
                continue
            if kind <= _SLOT_EMPTY:  # move or empty: the movement point
                if self._mp[u] >= 1 and (
                    kind == _SLOT_EMPTY or ((q := move_dest[p][i]) >= 0 and q not in occ)
                ):
                    return plane * hw + p
            elif self.tick - self._last[u] >= 1:  # attack or heal: off cooldown
                if kind == _SLOT_ATTACK:
                    v = occ.get(attack_dest[p][i])
                    if v is not None and s.owner[v] != me:
                        return plane * hw + p
                elif heal_dest[p][i] in occ:
                    return plane * hw + p
        legal = self.legal_action_list()
        return legal[int(rand() * len(legal))]

    def _act(self, action: int, kind: str, u: int, p: int, k: int, dx: int, dy: int) -> None:
        """Attack or Heal (Move, Empty and the checks are :meth:`StrategaState.apply`)."""
        s = self._s
        t = s.utype[u]
        if self.tick - self._last[u] < 1:
            raise self.illegal(action, "the unit already attacked or healed this round")
        q = self._target(p, dx, dy)
        v = self._occ.get(q, -1) if q >= 0 else -1
        if kind == "attack":
            if t == HEALER:
                raise self.illegal(action, "a healer cannot attack")
            if _ATTACK_R2[t] < dx * dx + dy * dy:
                raise self.illegal(action, f"a {UNIT_NAMES[t]} cannot attack that far")
            if v < 0 or s.owner[v] == self.current_player:
                raise self.illegal(action, "there is no enemy unit at the target")
            self._last[u] = self.tick
            hp = self._hp[v] - _DAMAGE[t]
            if hp <= 0:
                del self._occ[q]
                self._pos[v] = -1
                self._hp[v] = 0
                if s.utype[v] == KING:
                    self.winner = self._outcome()
            else:
                self._hp[v] = min(hp, _MAX_HP[s.utype[v]])
            return
        # heal
        if t != HEALER:
            raise self.illegal(action, f"a {UNIT_NAMES[t]} cannot heal")
        if _HEAL_R2[t] < dx * dx + dy * dy:
            raise self.illegal(action, "the target is out of heal range")
        if v < 0:
            raise self.illegal(action, "there is no unit at the target")
        self._last[u] = self.tick
        self._hp[v] = min(self._hp[v] + _HEAL[t], _MAX_HP[s.utype[v]])

    def observation(self, player: int) -> np.ndarray:
        """``H × W × 17`` planes relative to ``player`` (see ``OBSERVATION_PLANES``)."""
        if player not in (0, 1):
            raise ValueError(f"kill_the_king: player must be 0 or 1, got {player!r}")
        s = self._s
        obs = np.zeros(self.game.spec.observation_shape, dtype=np.float32)
        obs[:, :, :4] = s.terrain_planes
        base = len(TILE_NAMES)
        width = s.width
        for u, p in enumerate(self._pos):
            if p < 0:
                continue
            y, x = divmod(p, width)
            t = s.utype[u]
            cell = obs[y, x]
            cell[base + t + (0 if s.owner[u] == player else 4)] = 1.0
            cell[base + 8] = self._hp[u] / _MAX_HP[t]
            cell[base + 9] = float(self._mp[u] >= 1)
            cell[base + 10] = float(self.tick - self._last[u] >= 1)
        obs[:, :, base + 11] = min(1.0, self.tick / self.game.round_limit)
        obs[:, :, base + 12] = float(self.current_player == player and self.winner is None)
        return obs

    def _to_dict(self) -> dict[str, Any]:
        return {
            "board_index": self.board_index,
            "tick": self.tick,
            "current_player": self.current_player,
            "winner": self.winner,
            "pos": self._pos,
            "hp": self._hp,
            "mp": self._mp,
            "last": self._last,
        }

    # ----------------------------------------------------------------- queries for agents

    def unit(self, uid: int) -> UnitView:
        """Snapshot of unit ``uid`` (dead units have ``x = y = -1`` and health 0)."""
        s = self._s
        p = self._pos[uid]
        y, x = divmod(p, s.width) if p >= 0 else (-1, -1)
        return UnitView(
            uid,
            s.utype[uid],
            s.owner[uid],
            x,
            y,
            self._hp[uid],
            self._mp[uid],
            self.tick - self._last[uid] >= 1,
        )

    def units(self, player: int | None = None) -> list[UnitView]:
        """Living units in creation order, of one player or of both."""
        ids: Sequence[int] = range(len(self._pos)) if player is None else self._s.units_of[player]
        return [self.unit(u) for u in ids if self._pos[u] >= 0]

    def unit_columns(self) -> UnitColumns:
        """Every unit's cell, health, owner and type as columns, without building snapshots.

        Heuristics called at every leaf of a search (the AimToKing evaluator) read the units
        thousands of times per decision, and a :class:`UnitView` per unit costs more than the
        arithmetic they do with it. The lists are the state's own: read them, never modify them.
        """
        s = self._s
        return UnitColumns(self._pos, self._hp, s.owner, s.utype, s.width)

    def end_statistics(self) -> dict[str, Any]:
        """Rounds played, and per player: units left and the King's health (0 once killed).

        Rounds count as ``max_rounds`` does (:meth:`rounds_played`): a drawn game reports
        ``max_rounds``, not the tick, which ends one past it.
        """
        units = [self.units(p) for p in (0, 1)]
        return {
            "rounds": float(self.rounds_played()),
            "units_left": [float(len(u)) for u in units],
            "king_health": [float(sum(x.health for x in u if x.type == 0)) for u in units],
        }

    # ----------------------------------------------------------------- internals

    def _end_turn(self) -> None:
        self.current_player = 1 - self.current_player
        if self.current_player == 0:
            self.tick += 1
            self._mp = [_MAX_MP[t] for t in self._s.utype]
        if self.tick >= self.game.round_limit:
            self.winner = -1

    def _outcome(self) -> int | None:
        """Winner implied by the position: a side without a King loses; the limit draws."""
        if self.tick >= self.game.round_limit:
            return -1
        s = self._s
        return outcome_of(
            [
                any(self._pos[u] >= 0 and s.utype[u] == KING for u in s.units_of[p])
                for p in range(NUM_PLAYERS)
            ]
        )
