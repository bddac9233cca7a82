"""Push Them All over batches of positions: the rules of ``envs/push_them_all/rules.py`` in tensors.

Same actions, observation planes, outcomes and unit order as the scalar game (the differential
tests compare them at every step). The per-unit state is ``pos``, ``mp`` and ``last (B, U, 4)``
(the round each push type was last used); a unit standing on a hole is removed at once.

The code is laid out for speed on one CPU thread, where a step of a batch of a thousand games
costs a few dozen tensor operations of a few microseconds each, so the *number* of operations
decides the speed, not their size:

* **Lookups only through** ``index_select``, ``gather`` **and** ``scatter`` **on flat tensors**
  (``row · width + column``). Advanced indexing (``t[a, b]``) splits even small lookups over
  the CPU threads and on a busy machine cost hundreds of times more.
* **Batch last inside.** The per-unit work is done on ``(…, B)`` tensors (units and sides in
  front, games last), so that broadcasting runs along the long contiguous batch dimension.
* **A unit's options are one number.** What a unit of the player to move can do depends only
  on whether it may still step (alive, a movement point left), which push types are ready and,
  per side, whether the neighbour is free, blocked or an enemy. :meth:`BatchedPushThemAll._codes`
  packs these into one code per unit (``2 · 16 · 3⁴`` values), and tables built in ``__init__``
  give each code's number of legal actions and its ``i``-th legal action. :meth:`sample_legal`
  then draws an exactly uniform legal action per game by counting, with no ``(B, K)`` tensor,
  and :meth:`legal_candidates` expands the codes through one lookup.
* **Every action moves at most one unit** (a Move the mover, a Push the pushed unit when its
  landing cell is on the board, walkable and free). Per board and action, tables give the cell
  the moving unit leaves, the cell it reaches, whether it can land there at all and whether it
  falls into a hole; :meth:`BatchedPushThemAll._step` reads them once and applies every game's
  action with a handful of scatters.
* **Small copies.** A step copies every changed field whole (batches are immutable); ``occ``
  is therefore kept in the smallest integer type that holds the unit ids
  (:attr:`BatchedPushThemAll.occ_dtype`, int8 on every shipped map), still -1 where empty.
"""

from __future__ import annotations

import dataclasses
import itertools

import torch

from stratagem.envs.batched.stratega import (
    PLAYING,
    StrategaBatch,
    StrategaBatchedGame,
    smallest_int,
)
from stratagem.envs.core import Game
from stratagem.envs.push_them_all import actions as A
from stratagem.envs.push_them_all.maps import HOLE
from stratagem.envs.push_them_all.rules import MAX_MP, NUM_PUSHES, WARRIOR

__all__ = ["BatchedPushThemAll", "PushThemAllBatch"]

#: Action planes per unit: 4 moves, 16 pushes (type × side), Empty.
_PLANES = A.NUM_PLANES
_SIDES = len(A.MOVE_OFFSETS)
#: What a unit finds on each side: nothing it can use, a free walkable cell, an enemy.
_BLOCKED, _FREE, _ENEMY = range(3)
#: Unit codes: ``step + 2 · ready + 32 · sides`` (see :meth:`BatchedPushThemAll._codes`).
_READY_WEIGHT = 2
_SIDE_WEIGHT = 2 * 2**NUM_PUSHES
#: The side part of a removed unit's code (one past the 3^4 real ones): no legal action.
_REMOVED = _SIDE_WEIGHT * 3**_SIDES
_CODES = _REMOVED + _SIDE_WEIGHT
#: Columns of the integer action table (see :meth:`BatchedPushThemAll._action_tables`).
_COLUMNS = ("cell", "src", "dst", "delta", "spend", "kind", "push", "end")
_CELL, _SRC, _DST, _DELTA, _SPEND, _KIND, _PUSH, _END = range(len(_COLUMNS))


@dataclasses.dataclass(frozen=True)
class PushThemAllBatch(StrategaBatch):
    """A batch of Push Them All positions (see :class:`StrategaBatch` for the shared fields).

    Attributes:
        last: ``(B, U, 4)`` the round in which each push type was last used (0: never).
    """

    last: torch.Tensor


class BatchedPushThemAll(StrategaBatchedGame[PushThemAllBatch]):
    """Push Them All's rules over a batch (see the module docstring).

    Args:
        game: A :class:`~stratagem.envs.push_them_all.PushThemAllGame` (its map set and round
            limit are used).
        device: Where the tensors live.
        compile: Run the rules through ``torch.compile`` (see
            :meth:`~stratagem.envs.batched.core.BatchedGame.compile_rules`).

    Attributes:
        per_player: ``P``, the most units a player has on any board of the game.
        candidates: ``K = 21 · P + 1``, the width of :meth:`legal_candidates`.
        occ_dtype: The integer type of ``occ`` (the smallest that holds the unit ids; -1 still
            marks an empty cell).
    """

    unit_fields = {"mp": 1, "last": NUM_PUSHES}
    batch_type = PushThemAllBatch

    def __init__(
        self, game: Game, device: torch.device | str = "cpu", *, compile: bool = False
    ) -> None:
        if game.spec.name != "push_them_all":
            raise ValueError(f"BatchedPushThemAll needs a push_them_all game, got {game.spec.name}")
        super().__init__(game, device, compile=compile)
        statics = game._statics  # type: ignore[attr-defined]
        self.hole = self._tensor(
            torch.tensor([[t == HOLE for t in s.board.terrain] for s in statics])
        )
        # a step copies pos, mp and last whole: they are kept in the smallest types that hold
        # their values (cells, movement points up to MAX_MP, rounds up to the round limit)
        self.field_dtypes = {
            "pos": smallest_int(self.cells),
            "mp": smallest_int(MAX_MP),
            "last": smallest_int(self.round_limit),
        }
        self.refill = torch.where(self.present, MAX_MP, 0).to(self.field_dtypes["mp"])
        self._refill_or_0 = torch.stack([torch.zeros_like(self.refill), self.refill], 1).view(
            -1, self.units
        )
        self._units_of_player()
        self._code_tables()
        self._neighbour_tables()
        self._action_tables()
        # per (board, unit): its side's unit slots (padded with itself), the other side
        owner = self.owner.tolist()
        sides = []
        for b, u in itertools.product(range(len(owner)), range(self.units)):
            same = [j for j in range(self.units) if owner[b][j] == owner[b][u]]
            sides.append(same + [u] * (self.units - len(same)))
        self._side_slots = torch.tensor(sides, device=self.device)
        self._other_owner = (1 - self.owner).reshape(-1).contiguous()
        # ``occ`` holds unit ids and -1 in the smallest integer type that fits: every step
        # copies it whole, and at int64 that copy was the largest single cost of a step.
        self.occ_dtype = smallest_int(self.units)
        # per batch size: the flat offsets of each game's row in occ and pos
        self._rows: dict[int, tuple[torch.Tensor, torch.Tensor]] = {}

    # ----------------------------------------------------------------- tables (built once)
    def _units_of_player(self) -> None:
        """Per board and player (key ``2 · board + player``) the player's unit slots.

        Stored ``(P, 2 · boards)`` so that one ``index_select`` gives the ``(P, B)`` slots of a
        batch with the games last. A player with fewer than ``P`` units is padded with slot 0
        and the padding masked (``_slot_ok``); a Ghost's pushes are masked (``_warrior``); both
        masks are only applied when some board needs them.
        """
        owner, present = self.owner.tolist(), self.present.tolist()
        utype = self.utype.tolist()
        rows = [
            [j for j in range(self.units) if present[b][j] and owner[b][j] == player]
            for b in range(len(owner))
            for player in range(2)
        ]
        self.per_player = max(len(r) for r in rows)
        self.candidates = _PLANES * self.per_player + 1
        padded = [r + [0] * (self.per_player - len(r)) for r in rows]
        self._slots = torch.tensor(padded, device=self.device).t().contiguous()
        ok = [[i < len(r) for i in range(self.per_player)] for r in rows]
        warrior = [
            [i < len(r) and utype[k // 2][r[i]] == WARRIOR for i in range(self.per_player)]
            for k, r in enumerate(rows)
        ]
        self._slot_ok = (
            None if all(map(all, ok)) else torch.tensor(ok, device=self.device).t().contiguous()
        )
        self._warrior = (
            None
            if all(map(all, warrior))
            else torch.tensor(warrior, device=self.device).t().contiguous()
        )

    def _code_tables(self) -> None:
        """Per unit code: its number of legal actions, the ``i``-th of them, the legal planes.

        A code is ``step + 2 · ready + 32 · Σ_s side_s · 3^s``: ``step`` (0/1) whether the unit
        has a movement point, ``ready`` the bit set of its ready push types and ``side_s`` what
        is on side ``s`` (:data:`_BLOCKED`, :data:`_FREE`, :data:`_ENEMY`); a removed unit's
        side part is :data:`_REMOVED` instead. Its legal planes are the moves to free sides and
        Empty when it may step, and every ready push type against every enemy side.
        """
        count = []
        pick = []
        legal = []
        for code in range(_CODES):
            step = code & 1
            ready = (code >> 1) & (2**NUM_PUSHES - 1)
            sides = code // _SIDE_WEIGHT
            what = [(sides // 3**s) % 3 for s in range(_SIDES)]
            planes = []
            if step and code < _REMOVED:  # a removed unit's sides are all blocked too
                planes += [A.MOVE_PLANE0 + s for s in range(_SIDES) if what[s] == _FREE]
                planes.append(A.EMPTY_PLANE)
            planes += [
                A.push_plane(k, s)
                for k in range(NUM_PUSHES)
                if ready >> k & 1
                for s in range(_SIDES)
                if what[s] == _ENEMY
            ]
            count.append(len(planes))
            pick.append([p * self.cells for p in planes] + [0] * (_PLANES - len(planes)))
            legal.append([p in planes for p in range(_PLANES)])
        self._code_count = torch.tensor(count, device=self.device)
        self._code_pick = torch.tensor(pick, device=self.device).reshape(-1).contiguous()
        self._code_legal = torch.tensor(legal, device=self.device)
        self._plane_ids = torch.arange(_PLANES, device=self.device) * self.cells
        kinds = torch.arange(NUM_PUSHES, device=self.device)
        self._ready_weight = (_READY_WEIGHT * 2**kinds).view(-1, 1, 1)
        self._push_kinds = kinds.view(-1, 1)

    def _neighbour_tables(self) -> None:
        """What a unit on a cell finds on each side, as lookups into :meth:`_side_class`.

        Two ``(2 · boards · (cells + 1), 4)`` tables, one row per key ``2 · board + player``
        and cell ``pos + 1`` (row 0 of a key is a removed unit), one column per side: the
        neighbour cell (0 where the side is not usable: off the board or not walkable; the
        class table then ignores what stands there) and the static part of the class lookup,
        ``key · 12 · (U + 1) + (3 · s + usable) · (U + 1) + 1`` with ``usable`` 0 (no), 1 (yes)
        or 2 (the unit was removed). The class table, indexed by that plus the occupant, holds
        ``32 · class · 3^s``, so that a unit's four entries sum to the side part of its code;
        a removed unit's sum to ``32 · 81``, a code with no legal action.
        """
        boards, cells, units = len(self.walkable), self.cells, self.units
        walkable = self.walkable.tolist()
        offsets = self.neighbours(A.MOVE_OFFSETS).tolist()  # (cells + 1, 4), -1 off the board
        span = units + 1
        self._key_span = _SIDES * 3 * span
        cell = []
        static = []
        for key in range(2 * boards):
            b = key // 2
            for p in range(-1, cells):
                crow, srow = [], []
                for s in range(_SIDES):
                    q = offsets[p][s] if p >= 0 else -1
                    usable = 2 if p < 0 else int(q >= 0 and walkable[b][q])
                    crow.append(q if usable == 1 else 0)
                    srow.append(key * self._key_span + (s * 3 + usable) * span + 1)
                cell.append(crow)
                static.append(srow)
        self._nb_cell = torch.tensor(cell, device=self.device)
        self._nb_static = torch.tensor(static, device=self.device)
        owner = self.owner.tolist()
        classes = []
        for b, player in itertools.product(range(boards), range(2)):
            for s in range(_SIDES):
                for usable in range(3):
                    for occupant in range(-1, units):
                        if usable == 2:
                            classes.append(_REMOVED if s == 0 else 0)
                            continue
                        if not usable:
                            what = _BLOCKED
                        elif occupant < 0:
                            what = _FREE
                        else:
                            what = _BLOCKED if owner[b][occupant] == player else _ENEMY
                        classes.append(_SIDE_WEIGHT * what * 3**s)
        self._side_class = torch.tensor(classes, device=self.device)

    def _action_tables(self) -> None:
        """Per board and action (and one no-op after EndTurn): what the action changes.

        Flat, indexed ``board · (A + 1) + action``; action ``A`` is the no-op that games which
        do not move play. Tables: the acting cell, the cell the relocated unit leaves (the
        mover's, or the pushed unit's), the cell it lands on, whether it can land there at all
        (a move always; a push when the landing cell is on the board and walkable: whether it
        is free is read from the position), whether it then stays (not a hole), the change of
        its ``pos``, the movement point spent, the push type and whether the action pushes, and
        whether it ends the turn.
        """
        boards, cells, na = len(self.walkable), self.cells, self.num_actions
        step_to = self.neighbours(A.MOVE_OFFSETS).tolist()
        push_to = self.neighbours(A.PUSH_OFFSETS).tolist()
        walkable, hole = self.walkable.tolist(), self.hole.tolist()
        names = ("cell", "src", "dst", "lands", "stays", "delta", "spend", "kind", "push", "end")
        table: dict[str, list[int]] = {n: [] for n in names}
        for b in range(boards):
            for action in range(na + 1):
                row = dict.fromkeys(names, 0)
                if action == na - 1:
                    row["end"] = 1
                elif action < na - 1:
                    plane, p = divmod(action, cells)
                    row["cell"] = row["src"] = p
                    kind, k, _, _ = A.PLANE_KIND[plane]
                    if kind == "move":
                        q = step_to[p][plane - A.MOVE_PLANE0]
                        row.update(spend=1, lands=int(q >= 0), dst=max(q, 0))
                    elif kind == "empty":
                        row["spend"] = 1
                    else:
                        q = step_to[p][(plane - A.PUSH_PLANE0) % _SIDES]
                        d = push_to[q][k] if q >= 0 else -1
                        lands = d >= 0 and walkable[b][d]
                        row.update(src=max(q, 0), kind=k, push=1, lands=int(lands))
                        row["dst"] = d if lands else 0
                    if row["lands"]:
                        falls = hole[b][row["dst"]]
                        row["stays"] = int(not falls)
                        row["delta"] = (-1 if falls else row["dst"]) - row["src"]
                for n in names:
                    table[n].append(row[n])
        table["spend"] = [-v for v in table["spend"]]
        self._act = (
            torch.tensor([table[n] for n in _COLUMNS], dtype=torch.int64, device=self.device)
            .t()
            .contiguous()
        )
        self._act_lands = torch.tensor(table["lands"], dtype=torch.bool, device=self.device)
        self._act_stays = torch.tensor(table["stays"], dtype=torch.bool, device=self.device)

    def _row_offsets(self, count: int) -> tuple[torch.Tensor, torch.Tensor]:
        """Flat offsets of each game's row: ``occ`` (``(B, 4)``, per side) and ``pos``."""
        # (a compiled step builds them in its graph, where they cost nothing: the dict of
        # cached ones would be a guard that recompiles the step)
        rows = None if torch.compiler.is_compiling() else self._rows.get(count)
        if rows is None:
            b = torch.arange(count, device=self.device)
            occ = (b * self.cells)[:, None].expand(-1, _SIDES).contiguous()
            rows = (occ, b * self.units)
            if not torch.compiler.is_compiling():
                self._rows[count] = rows
        return rows

    # ----------------------------------------------------------------- creating batches
    def init_boards(self, boards: torch.Tensor) -> PushThemAllBatch:
        """Fresh positions on ``boards``."""
        boards = boards.to(self.device, torch.int64)
        count = len(boards)
        return PushThemAllBatch(
            **self._new_batch(
                boards,
                mp=self.refill.index_select(0, boards),
                last=torch.zeros(
                    count,
                    self.units,
                    NUM_PUSHES,
                    dtype=self.field_dtypes["last"],
                    device=self.device,
                ),
            )
        )

    # ----------------------------------------------------------------- legal actions
    def _codes(self, state: PushThemAllBatch) -> tuple[torch.Tensor, torch.Tensor]:
        """The code of each of the player to move's units (see :meth:`_code_tables`).

        Returns:
            ``(codes, pos)``, both ``(P, B)``: per unit slot of the player to move (slot order)
            its code and its cell (-1 once removed). Finished games are not masked.
        """
        count, p = state.batch_size, self.per_player
        row_occ, row_unit = self._row_offsets(count)
        key = state.board * 2 + state.player
        flat = self._slots.index_select(1, key).add_(row_unit).view(-1)  # (P · B) units
        pos = state.pos.reshape(-1).index_select(0, flat)
        mp = state.mp.reshape(-1).index_select(0, flat)
        # ready push types (last used before this round), as the bits of the code
        last_at = (flat * NUM_PUSHES + self._push_kinds).view(-1)  # (4, P · B)
        last = state.last.reshape(-1).index_select(0, last_at).view(NUM_PUSHES, p, count)
        ready = ((last < state.tick) * self._ready_weight).sum(0)
        if self._warrior is not None:
            ready = ready * self._warrior.index_select(1, key)
        # each side's class: a table lookup on the neighbour cell and its occupant
        at = pos.view(p, count).add(key * (self.cells + 1) + 1).view(-1)
        near = self._nb_cell.index_select(0, at).view(p, count, _SIDES).add_(row_occ)
        occupant = state.occ.reshape(-1).index_select(0, near.view(-1))
        lookup = self._nb_static.index_select(0, at).view(-1).add_(occupant)
        sides = self._side_class.index_select(0, lookup).view(p, count, _SIDES).sum(2)
        # a removed unit's code has no legal action whatever its movement points
        step = mp if MAX_MP == 1 else mp.clamp(max=1)
        codes = sides.add_(ready).add_(step.view(p, count))
        if self._slot_ok is not None:
            codes = codes * self._slot_ok.index_select(1, key)
        return codes, pos.view(p, count)

    #: One uniform number per game: :meth:`_sample` draws by counting.
    sample_draws = 1

    def _sample(self, state: PushThemAllBatch, u: torch.Tensor) -> torch.Tensor:
        """A uniformly random legal action per game from one uniform ``u`` (``(B, 1)``).

        :meth:`~stratagem.envs.batched.core.BatchedGame.sample_legal` calls this: the same
        distribution (uniform over the legal actions :meth:`legal_candidates` lists; not the
        same random stream), computed by counting instead of over ``(B, K)`` candidates, which
        cost several times more: with ``n`` legal actions (the units' counts and EndTurn) it
        takes ``r = ⌊u · n⌋`` per game and returns the ``r``-th, found unit by unit.
        """
        codes, pos = self._codes(state)
        per_unit = self._code_count.index_select(0, codes.view(-1)).view(codes.shape)
        unit, i, slot = self._count_draw(per_unit, u)
        at = codes.gather(0, slot).squeeze(0) * _PLANES + i
        action = self._code_pick.index_select(0, at).add_(pos.gather(0, slot).squeeze(0))
        return self._drawn(state, unit, action)

    def legal_candidates(self, state: PushThemAllBatch) -> tuple[torch.Tensor, torch.Tensor]:
        """Per unit slot of the player to move its 21 planes, then EndTurn: ``(B, K)``.

        ``K = 21 · P + 1`` (:attr:`candidates`). An illegal candidate still holds a valid action
        index (its plane on its unit's cell, or on cell 0 for a removed unit), so that callers
        may gather with the ids unmasked; only the legal ones are distinct actions.
        """
        count, p = state.batch_size, self.per_player
        codes, pos = self._codes(state)
        playing = state.winner == PLAYING
        ok = torch.empty(count, self.candidates, dtype=torch.bool, device=self.device)
        ids = torch.empty(count, self.candidates, dtype=torch.int64, device=self.device)
        legal = self._code_legal.index_select(0, codes.t().reshape(-1)).view(count, p, _PLANES)
        torch.logical_and(
            legal, playing[:, None, None], out=ok[:, : p * _PLANES].view(count, p, _PLANES)
        )
        ok[:, -1] = playing
        torch.add(
            self._plane_ids,
            pos.t().clamp(min=0)[:, :, None],
            out=ids[:, : p * _PLANES].view(count, p, _PLANES),
        )
        ids[:, -1] = self.num_actions - 1
        return ids, ok

    # ----------------------------------------------------------------- the rules
    def _step(
        self, state: PushThemAllBatch, actions: torch.Tensor, moving: torch.Tensor
    ) -> PushThemAllBatch:
        board = state.board
        at = torch.where(moving, actions, self.num_actions).add_(board * (self.num_actions + 1))
        row = self._act.index_select(0, at)  # (B, columns) of the action tables
        src, dst = row[:, _SRC, None], row[:, _DST, None]
        occ = state.occ.clone()
        acting = occ.gather(1, row[:, _CELL, None]).long().clamp_(min=0)
        who = occ.gather(1, src)
        there = occ.gather(1, dst)
        free = there < 0
        lands = free & self._act_lands.index_select(0, at)[:, None]
        stays = free & self._act_stays.index_select(0, at)[:, None]
        # the relocation: the unit leaves src and, unless it fell, enters dst
        occ.scatter_(1, src, torch.where(lands, -1, who))
        occ.scatter_(1, dst, torch.where(stays, who, there))
        who = who.long().clamp_(min=0)
        pos = state.pos.clone()
        pos.scatter_add_(1, who, (row[:, _DELTA, None] * lands).to(pos.dtype))
        # EndTurn: the turn passes, a new round refills the movement points
        end = row[:, _END]
        player = state.player ^ end
        new_round = end > player  # the turn passed to player 0
        tick = state.tick + new_round
        # (mp never exceeds the refill: the maximum with the refill or with 0 is the where)
        mp = torch.maximum(state.mp, self._refill_or_0.index_select(0, board * 2 + new_round))
        # Move and Empty spend the movement point; a push marks its type used this round
        mp.scatter_add_(1, acting, row[:, _SPEND, None].to(mp.dtype))
        last = state.last.clone()
        slot = (acting * NUM_PUSHES).add_(row[:, _KIND, None])
        used = (state.tick[:, None] * row[:, _PUSH, None]).to(last.dtype)
        last.view(len(board), -1).scatter_reduce_(1, slot, used, "amax")  # last <= tick
        # a fall can only empty the faller's side; the round limit draws
        winner = torch.where(new_round & (tick >= self.round_limit), -1, state.winner)
        # (for every game, not only those where a unit fell: no data-dependent branch, so
        # that the step compiles to one graph; the lookups are (B,) and (B, U) wide)
        fell = (lands & ~stays).squeeze(1)
        # per (board, unit): the slots of the unit's side, and the winner if none is left
        unit = board * self.units + who.squeeze(1)
        side = self._side_slots.index_select(0, unit)
        left = pos.gather(1, side).amax(1) >= 0
        lost = torch.where(left, PLAYING, self._other_owner.index_select(0, unit))
        winner = torch.where(fell, lost, winner)
        return state.replace(
            occ=occ, pos=pos, mp=mp, last=last, winner=winner, player=player, tick=tick
        )

    # ----------------------------------------------------------------- observation
    def observation(
        self, state: PushThemAllBatch, player: torch.Tensor | int | None = None
    ) -> torch.Tensor:
        """``(B, H, W, 16)``: the scalar ``observation`` planes (``OBSERVATION_PLANES``)."""
        observer = self._observer(state, player)
        board = state.board
        utype = self.utype.index_select(0, board)
        enemy = self.owner.index_select(0, board) != observer[:, None]
        kind = utype + 2 * enemy.to(torch.int64)  # own warrior, own ghost, enemy warrior, ghost
        ready = (state.tick[:, None, None] - state.last) >= 1
        features = torch.cat(
            [
                torch.nn.functional.one_hot(kind, 4).to(torch.float32),
                (state.mp >= 1).to(torch.float32)[..., None],
                (ready & (utype == WARRIOR)[..., None]).to(torch.float32),
            ],
            dim=2,
        )
        return self._observation_planes(state, observer, features)
