"""Push Them All (Stratega) rules: the forward model.

Source: ``specs/stratega_rules.md`` sections 0 and 2, from GAIGResearch/Stratega branch
``scsa_ktkpta`` (``PushThemAll.yaml``, ``Effect.cpp`` ``PushUp/Down/Left/Right::execute``,
``SamplingMethod.cpp`` and the TBS forward model). The facts that decide play:

* Two players; player 0 moves first. A turn is any number of single-unit actions, in any unit
  order and interleaved, closed by EndTurn (always legal; there is no automatic end).
* The round counter (Stratega's tick) starts at 1 and grows when the turn passes back to
  player 0; then every unit's movement point is refilled. The game is a draw as soon as the
  counter reaches the reference's limit, 200: after ``max_rounds`` (199) rounds.
* Move (Warrior and Ghost): to an orthogonal neighbour whose tile is walkable (Plain, Forest or
  **Hole**) and empty; costs the unit's single movement point. Empty spends the point.
* Push (Warrior only): four push types, each with its own cooldown of 1 (so a Warrior may use
  all four in one round), against an orthogonally adjacent enemy. Each type moves the target one
  tile in a fixed direction, whatever side the pusher is on (``actions.PUSH_OFFSETS``); when
  that tile is off the board, not walkable or occupied, nothing moves but the push is spent.
* After every action, a unit standing on a Hole is removed (the OnAdvance trigger): being pushed
  into a hole kills, and so does walking into one.
* A player without units (no Warrior and no Ghost) has lost; the other player wins at once.

Health, attack range and damage are declared in the reference file but no action reads them,
and the ``AttackBoostBuff`` is never applied; they are left out.

Units keep the reference's creation order (reading order of the layout); a removed unit keeps
its slot with position -1, so unit ids are stable for the whole game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from stratagem.envs.core import GameSpec, InvalidStateError
from stratagem.envs.push_them_all import actions as A
from stratagem.envs.push_them_all.maps import HOLE, TILE_NAMES, TILE_SYMBOLS, Board, load_maps
from stratagem.envs.push_them_all.maps import SOURCES as MAP_SOURCES
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
    "GHOST",
    "OBSERVATION_PLANES",
    "UNIT_NAMES",
    "WARRIOR",
    "PushThemAllGame",
    "PushThemAllState",
    "UnitView",
]

GAME_NAME = "push_them_all"
RULES_VERSION = 0  # the v0 of stratagem/<Game>-v0 and <game>_v0: bump them together
NUM_PLAYERS = 2
NUM_PUSHES = len(A.PUSH_NAMES)

WARRIOR, GHOST = 0, 1
UNIT_NAMES = ("warrior", "ghost")
UNIT_SYMBOLS = ("w", "g")
#: Movement points refilled every round (both types: 1).
MAX_MP = 1
#: Actions a unit can take in one round: its move (or Empty) and, for a Warrior, four pushes.
ACTIONS_PER_ROUND = (1 + NUM_PUSHES, 1)

#: Observation channels (H × W × C), relative to the observing player.
OBSERVATION_PLANES: tuple[str, ...] = (
    tuple(f"terrain_{n}" for n in TILE_NAMES)
    + tuple(f"own_{n}" for n in UNIT_NAMES)
    + tuple(f"enemy_{n}" for n in UNIT_NAMES)
    + ("can_move",)
    + tuple(f"{p}_ready" for p in A.PUSH_NAMES)
    + ("round_progress", "to_move")
)
_UNIT_BASE = len(TILE_NAMES)
_CAN_MOVE = _UNIT_BASE + 2 * len(UNIT_NAMES)
_PUSH_READY = _CAN_MOVE + 1
_ROUND = _PUSH_READY + NUM_PUSHES


class UnitView(NamedTuple):
    """Read-only snapshot of one unit, for agents and heuristics.

    Attributes:
        id: Stable unit id (reading order of the layout).
        type: ``WARRIOR`` or ``GHOST``.
        owner: Player 0 or 1.
        x: Column (-1 once removed).
        y: Row (-1 once removed).
        movement_points: Movement points left this round.
        push_ready: Per push type (``actions.PUSH_NAMES`` order), whether it is off cooldown;
            all False for a Ghost, which cannot push.
    """

    id: int
    type: int
    owner: int
    x: int
    y: int
    movement_points: int
    push_ready: tuple[bool, bool, bool, bool]


class _Static(BoardFacts):
    """Per-board facts shared by every state on that board (never mutated)."""

    __slots__ = (
        "holes",
        "move_targets",
        "owner",
        "push_dest",
        "sides",
        "units_of",
        "utype",
    )

    def __init__(self, board: Board) -> None:
        super().__init__(board, TILE_SYMBOLS, len(TILE_NAMES), A.NUM_PLANES)
        w, h = board.width, board.height
        self.hole = tuple(t == HOLE for t in board.terrain)
        # x-major, the order in which the reference's PusherAgent lists them (ties matter)
        self.holes = tuple((x, y) for x in range(w) for y in range(h) if self.hole[y * w + x])
        # Per cell: ((move action, destination), ...) over in-board walkable orthogonal neighbours.
        self.move_targets = self.step_targets(A.MOVE_OFFSETS, A.MOVE_PLANE0)
        # Per cell: ((side, neighbour cell), ...) over in-board orthogonal neighbours.
        sides = []
        # Per cell and push type: the cell a pushed unit lands on, or -1 off the board.
        dest = []
        for p in range(self.hw):
            y, x = divmod(p, w)
            srow = []
            for i, (dx, dy) in enumerate(A.MOVE_OFFSETS):
                nx, ny = x + dx, y + dy
                if 0 <= nx < w and 0 <= ny < h:
                    srow.append((i, ny * w + nx))
            sides.append(tuple(srow))
            drow = []
            for dx, dy in A.PUSH_OFFSETS:
                nx, ny = x + dx, y + dy
                drow.append(ny * w + nx if 0 <= nx < w and 0 <= ny < h else -1)
            dest.append(tuple(drow))
        self.sides = tuple(sides)
        self.push_dest = tuple(dest)
        self.utype = tuple(u[0] for u in board.units)
        self.owner = tuple(u[1] for u in board.units)
        self.units_of = tuple(
            tuple(i for i, o in enumerate(self.owner) if o == p) for p in range(NUM_PLAYERS)
        )


#: Action index offset of (push type, side) planes, precomputed: _PUSH_PLANE[k][s].
_PUSH_PLANE = tuple(tuple(A.push_plane(k, s) for s in range(4)) for k in range(NUM_PUSHES))


class PushThemAllGame(StrategaGame):
    """Push Them All on one board, or on a set of equal-sized boards chosen by seed.

    Args:
        map: ``"default"`` (the 13×8 board of ``PushThemAll.yaml``), ``"pta"`` / ``"pta:N"``
            (the SCSA experiment maps), ``"ntbea"`` / ``"ntbea:N"`` (the tuning maps), a YAML
            path (``path`` or ``path:MapName``) or an inline layout.
        max_rounds: Rounds played at most (a round is a turn of each player); the game is a
            draw after them (199: the reference's round counter starts at 1 and its draw
            limit is 200).

    Raises:
        MapError: For an unknown or malformed map.
        ValueError: For a bad ``max_rounds``.
    """

    def __init__(self, *, map: str = "default", max_rounds: int = 199) -> None:
        check_max_rounds(GAME_NAME, max_rounds)
        refuse_untrusted_file(map, game="push_them_all", sources=MAP_SOURCES)
        self.boards = load_maps(map)
        #: The round counter's draw value (the counter starts at 1): ``max_rounds + 1``.
        self.round_limit = max_rounds + 1
        self._statics = [_Static(b) for b in self.boards]
        width, height = self.boards[0].width, self.boards[0].height
        self.layout = A.make_layout(width, height)
        per_round = max(
            sum(
                sum(ACTIONS_PER_ROUND[s.utype[u]] for u in s.units_of[p]) + 1
                for p in range(NUM_PLAYERS)
            )
            for s in self._statics
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

    def new_initial_state(self, seed: int | None = None) -> PushThemAllState:
        """Initial position; with several boards the seed picks one (uniformly)."""
        return self._fresh(self._board_index(seed))

    def _fresh(self, index: int) -> PushThemAllState:
        static = self._statics[index]
        units = static.board.units
        state = PushThemAllState.__new__(PushThemAllState)
        state.game = self
        state.board_index = index
        state._s = static
        state._owner = static.owner
        state._pos = [y * static.width + x for _, _, x, y in units]
        state._mp = [MAX_MP] * len(units)
        state._last = [0] * (NUM_PUSHES * len(units))
        state._occ = {p: i for i, p in enumerate(state._pos)}
        state._alive = [len(static.units_of[p]) for p in range(NUM_PLAYERS)]
        state.tick = 1
        state.current_player = 0
        state.winner = None
        return state

    def action_to_string(self, action: int) -> str:
        """Readable name of ``action``, e.g. ``push_up (3,4)->(3,5)``."""
        return A.action_to_string(self.layout, int(action))

    def string_to_action(self, text: str) -> int:
        """Parse an action name written by :meth:`action_to_string`."""
        return A.string_to_action(self.layout, text)

    def _state_from_dict(self, data: Mapping[str, Any]) -> PushThemAllState:
        state = self._fresh(board_index_of(GAME_NAME, data, len(self.boards)))
        static = state._s
        n = len(static.utype)
        fields = {
            key: int_list_of(GAME_NAME, data, key, size)
            for key, size in (("pos", n), ("mp", n), ("last", NUM_PUSHES * n))
        }
        tick, player, winner = clock_of(GAME_NAME, data, self.round_limit)
        occ: dict[int, int] = {}
        for u, p in enumerate(fields["pos"]):
            if not 0 <= fields["mp"][u] <= MAX_MP:
                raise InvalidStateError(f"push_them_all: unit {u} movement points out of range")
            if not all(0 <= t <= tick for t in fields["last"][NUM_PUSHES * u : NUM_PUSHES * u + 4]):
                raise InvalidStateError(f"push_them_all: unit {u} push ticks out of range")
            if p == -1:
                continue
            if not 0 <= p < static.hw or not static.walkable[p] or static.hole[p]:
                raise InvalidStateError(
                    f"push_them_all: unit {u} stands on cell {p}, which is off the board, "
                    f"not walkable or a hole"
                )
            if p in occ:
                raise InvalidStateError(f"push_them_all: units {occ[p]} and {u} share cell {p}")
            occ[p] = u
        state._pos, state._mp, state._last = fields["pos"], fields["mp"], fields["last"]
        state._occ = occ
        state._alive = [
            sum(1 for u in static.units_of[p] if state._pos[u] >= 0) for p in range(NUM_PLAYERS)
        ]
        state.tick, state.current_player, state.winner = tick, player, winner
        state._check_winner(winner)
        return state


class PushThemAllState(StrategaState[UnitView]):
    """A Push Them All position. Create it with :meth:`PushThemAllGame.new_initial_state`.

    Attributes:
        tick: The round counter (starts at 1).
        winner: ``None`` while playing, ``-1`` for a draw, else the winning player.
        board_index: Which of the game's boards this state is played on.
    """

    game: PushThemAllGame
    render_module = "stratagem.envs.push_them_all.render"
    _PLANE_KIND = A.PLANE_KIND
    __slots__ = (
        "_alive",
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
    def clone(self) -> PushThemAllState:
        """Copy the few small mutable containers; board facts (and owners) are shared."""
        c = PushThemAllState.__new__(PushThemAllState)
        c.game = self.game
        c.board_index = self.board_index
        c._s = self._s
        c._owner = self._owner
        c._pos = self._pos[:]
        c._mp = self._mp[:]
        c._last = self._last[:]
        c._occ = self._occ.copy()
        c._alive = self._alive[:]
        c.tick = self.tick
        c.current_player = self.current_player
        c.winner = self.winner
        return c

    def legal_action_list(self) -> list[int]:
        """Legal actions as a Python list (unsorted; EndTurn last); the fast path for planners."""
        if self.winner is not None:
            return []
        s = self._s
        pos, occ, hw, last, owner = self._pos, self._occ, s.hw, self._last, s.owner
        me = self.current_player
        tick = self.tick
        out: list[int] = []
        for u in s.units_of[me]:
            p = pos[u]
            if p < 0:
                continue
            if self._mp[u] >= 1:
                for action, q in s.move_targets[p]:
                    if q not in occ:
                        out.append(action)
                out.append(A.EMPTY_PLANE * hw + p)
            if s.utype[u] != WARRIOR:
                continue
            b = NUM_PUSHES * u
            ready = [k for k in range(NUM_PUSHES) if tick - last[b + k] >= 1]
            if not ready:
                continue
            for side, q in s.sides[p]:
                v = occ.get(q)
                if v is not None and owner[v] != me:
                    for k in ready:
                        out.append(_PUSH_PLANE[k][side] * hw + p)
        out.append(s.end_turn)
        return out

    def observation(self, player: int) -> np.ndarray:
        """``H × W × 16`` planes relative to ``player`` (see ``OBSERVATION_PLANES``)."""
        if player not in (0, 1):
            raise ValueError(f"push_them_all: player must be 0 or 1, got {player!r}")
        s = self._s
        obs = np.zeros(self.game.spec.observation_shape, dtype=np.float32)
        obs[:, :, :_UNIT_BASE] = s.terrain_planes
        width = s.width
        for u, p in enumerate(self._pos):
            if p < 0:
                continue
            y, x = divmod(p, width)
            t = s.utype[u]
            cell = obs[y, x]
            cell[_UNIT_BASE + t + (0 if s.owner[u] == player else len(UNIT_NAMES))] = 1.0
            cell[_CAN_MOVE] = float(self._mp[u] >= 1)
            if t == WARRIOR:
                b = NUM_PUSHES * u
                for k in range(NUM_PUSHES):
                    cell[_PUSH_READY + k] = float(self.tick - self._last[b + k] >= 1)
        obs[:, :, _ROUND] = min(1.0, self.tick / self.game.round_limit)
        obs[:, :, _ROUND + 1] = float(self.current_player == player and self.winner is None)
        return obs

    def _to_dict(self) -> dict[str, Any]:
        return {
            "board_index": self.board_index,
            "tick": self.tick,
            "current_player": self.current_player,
            "winner": self.winner,
            "pos": self._pos,
            "mp": self._mp,
            "last": self._last,
        }

    # ----------------------------------------------------------------- queries for agents

    @property
    def holes(self) -> tuple[tuple[int, int], ...]:
        """Hole tiles ``(x, y)`` in x-major order (by column, then row), the reference's order."""
        return self._s.holes

    def is_hole(self, x: int, y: int) -> bool:
        """True when tile ``(x, y)`` is on the board and a Hole."""
        return (
            0 <= x < self._s.width and 0 <= y < self.height and self._s.hole[y * self._s.width + x]
        )

    def unit(self, uid: int) -> UnitView:
        """Snapshot of unit ``uid`` (removed units have ``x = y = -1``)."""
        s = self._s
        p = self._pos[uid]
        y, x = divmod(p, s.width) if p >= 0 else (-1, -1)
        b = NUM_PUSHES * uid
        warrior = s.utype[uid] == WARRIOR
        ready = tuple(warrior and self.tick - self._last[b + k] >= 1 for k in range(NUM_PUSHES))
        return UnitView(uid, s.utype[uid], s.owner[uid], x, y, self._mp[uid], ready)  # type: ignore[arg-type]

    def units(self, player: int | None = None) -> list[UnitView]:
        """Living units in creation order, of one player or of both."""
        ids: Sequence[int] = range(len(self._pos)) if player is None else self._s.units_of[player]
        return [self.unit(u) for u in ids if self._pos[u] >= 0]

    def unit_count(self, player: int) -> int:
        """Number of living units of ``player``."""
        return self._alive[player]

    def initial_unit_count(self, player: int) -> int:
        """Number of units ``player`` started with on this board."""
        return len(self._s.units_of[player])

    def end_statistics(self) -> dict[str, Any]:
        """Rounds played, and per player: units left and units pushed into holes by the enemy.

        Rounds count as ``max_rounds`` does (:meth:`rounds_played`): a drawn game reports
        ``max_rounds``, not the tick, which ends one past it.
        """
        left = [float(self.unit_count(p)) for p in (0, 1)]
        lost = [float(self.initial_unit_count(p)) - left[p] for p in (0, 1)]
        return {
            "rounds": float(self.rounds_played()),
            "units_left": left,
            "units_pushed": lost[::-1],
        }

    def unit_type_name(self, uid: int) -> str:
        """Type name of unit ``uid`` (``"warrior"`` or ``"ghost"``)."""
        return UNIT_NAMES[self._s.utype[uid]]

    # ----------------------------------------------------------------- internals

    def _act(self, action: int, kind: str, u: int, p: int, k: int, dx: int, dy: int) -> None:
        """Push (the only kind besides Move and Empty, which :meth:`StrategaState.apply` plays)."""
        s = self._s
        if s.utype[u] != WARRIOR:
            raise self.illegal(action, f"a {UNIT_NAMES[s.utype[u]]} cannot push")
        b = NUM_PUSHES * u + k
        if self.tick - self._last[b] < 1:
            raise self.illegal(
                action, f"{A.PUSH_NAMES[k]} was already used by this unit this round"
            )
        q = self._target(p, dx, dy)
        v = self._occ.get(q, -1) if q >= 0 else -1
        if v < 0 or s.owner[v] == self.current_player:
            raise self.illegal(action, "there is no enemy unit at the target")
        self._last[b] = self.tick
        d = s.push_dest[q][k]
        if d >= 0 and s.walkable[d] and d not in self._occ:
            self._place(v, q, d)

    def _place(self, u: int, p: int, q: int) -> None:
        """Move (push) unit ``u`` from ``p`` to ``q``; on a Hole it falls in (OnAdvance)."""
        del self._occ[p]
        if self._s.hole[q]:
            self._fall(u)
            return
        self._occ[q] = u
        self._pos[u] = q

    def _fall(self, u: int) -> None:
        """Remove unit ``u``, off its cell and on a Hole; its side loses with its last unit."""
        self._pos[u] = -1
        owner = self._s.owner[u]
        self._alive[owner] -= 1
        if self._alive[owner] == 0:
            self.winner = self._outcome()

    def _end_turn(self) -> None:
        self.current_player = 1 - self.current_player
        if self.current_player == 0:
            self.tick += 1
            self._mp = [MAX_MP] * len(self._mp)
        if self.tick >= self.game.round_limit:
            self.winner = -1

    def _outcome(self) -> int | None:
        """Winner implied by the position: a side without units loses; the limit draws."""
        if self.tick >= self.game.round_limit:
            return -1
        return outcome_of(self._alive)
