"""Kill The King over batches of positions: the rules of ``envs/kill_the_king/rules.py`` in tensors.

Same actions, observation planes, outcomes and unit order as the scalar game (the differential
tests compare them at every step). The per-unit state is ``pos``, ``hp``, ``mp`` and ``last``
(the round of the unit's last Attack or Heal); a unit at 0 health or less is removed at once
(position -1, health 0), and a side whose King is removed has lost.

Laid out for speed on one CPU thread as Push Them All is (see its module docstring: the number
of tensor operations, not their size, sets the speed of a step of a thousand games), and for
inductor (``compile=True``), whose generated loops are fast on dense element-wise work and slow on
chains of dependent lookups:

* **No occupancy grid.** A game has a handful of units, so the rules find the unit on a cell by
  comparing ``pos`` and keep no ``occ`` (:meth:`BatchedKillTheKing.occupancy` builds it on
  demand): a step copied that ``(B, H·W)`` grid whole, about as much as everything else.
* **A step is one table row.** Every action touches at most two units: a Move relocates the
  acting unit, an Attack or a Heal changes the health of its target (and an Attack may remove
  it). Its acting cell, target cell and kind depend on the action alone, so
  :meth:`BatchedKillTheKing._step` reads one row of a per-action table and rewrites each
  per-unit field with ``where`` over ``(B, U)``, without gathers or scatters.
* **Random play counts bits instead of listing.** What a unit can do is one *window word*: a bit
  per offset ``|dx|, |dy| ≤ 2`` around it (its free neighbours, the units in its reach) and one
  for Empty. :meth:`BatchedKillTheKing._sample` builds the words from the pairs of units of each
  game with dense arithmetic, counts their bits, and draws an exactly uniform legal action
  from one uniform number per game as the ``i``-th set bit of the ``⌊u · n⌋``-th action's
  unit, with no ``(B, K)`` candidates.
* **One graph.** No data-dependent Python branch, so that ``compile=True`` compiles the step
  and the sampler to one graph each. A few helpers take another formulation of the same
  result compiled than eager (``torch.compiler.is_compiling()``): what fuses into inductor's
  loops is not what costs the fewest eager operations.
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import NamedTuple

import torch

from stratagem.envs.batched.stratega import (
    PLAYING,
    StrategaBatchBase,
    StrategaBatchedGame,
    smallest_int,
)
from stratagem.envs.core import Game
from stratagem.envs.kill_the_king import actions as A
from stratagem.envs.kill_the_king.rules import HEALER, KING, UNIT_NAMES, UNIT_STATS

__all__ = ["BatchedKillTheKing", "KillTheKingBatch"]

#: Kind of each candidate (and of each action plane): the legality test it needs; ``_NONE``
#: pads the candidate tables and is never legal.
_MOVE, _EMPTY, _ATTACK, _HEAL_KIND, _END, _NONE = range(6)
#: Columns of the action table (see ``_action_tables``).
_COLUMNS = ("cell", "target", "end")
_CELL, _TARGET, _END_COLUMN = range(len(_COLUMNS))
#: Columns of its flags, and of the per-unit table (see ``_action_tables``).
_FLAGS = ("spends", "acts", "moves", "attacks")
_SPENDS, _ACTS, _MOVES, _ATTACKS = range(len(_FLAGS))
_UNIT_COLUMNS = ("effect", "full_hp", "refill", "king_side")
_EFFECT, _FULL_HP, _REFILL, _KING_SIDE = range(len(_UNIT_COLUMNS))
#: The cell of the action table's rows that name no unit (EndTurn, the no-op): no unit is there.
_NOWHERE = -2
#: The window of a unit: one bit per offset ``(dx, dy)``, ``|dx|, |dy| ≤ 2`` (its reach), in
#: rows of ``_SIDE``; the bit of ``(0, 0)``; Empty's bit after the window's 25, and its word.
_SIDE = 5
_CENTRE = 2 * _SIDE + 2
_WINDOW_BITS = _SIDE * _SIDE
_WINDOW_MASK = (1 << _WINDOW_BITS) - 1
_EMPTY_WORD = 1 << _WINDOW_BITS
#: Compiled pair words: the bit of a pair out of each other's window (masked off after the sum
#: over the units), and a removed unit's column and row (far from any cell).
_OUT_BIT = _WINDOW_BITS + 2
_FAR = 1 << 20
#: ``pos // W`` is ``(pos · ⌈2^s / W⌉) >> s`` on boards of fewer than about ``2^s / W`` cells.
_ROW_SHIFT = 20


def _window_bit(dx: int, dy: int) -> int:
    """The window bit of offset ``(dx, dy)`` (see :meth:`BatchedKillTheKing._sampling_tables`)."""
    return (dy + 2) * _SIDE + dx + 2


def _window_mask(offsets: tuple[tuple[int, int], ...], reach: float) -> int:
    """The window bits of the ``offsets`` within Euclidean distance ``reach``."""
    return sum(1 << _window_bit(dx, dy) for dx, dy in offsets if dx * dx + dy * dy <= reach**2)


def _materialized(tensor: torch.Tensor) -> torch.Tensor:
    """``tensor`` as a contiguous tensor that a compiled graph computes once, in memory.

    Inductor recomputes a cheap expression inside every loop that reads it (inlining), and
    orders a loop after the memory layout of what it reads: the units' fields of a batch are
    ``(B, U)``, so a loop over pairs of units would run along the 8 units of a game. Read
    through ``as_strided``, the expression is stored once as the contiguous ``(U, B)`` it is,
    and the loops that read it run along the games.
    """
    tensor = tensor.contiguous()
    return tensor.as_strided(tensor.shape, tensor.stride())


def _select_one(one_hot: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    """``(B,)`` each row's value at the True entry of ``one_hot`` (both ``(B, U)``; 0 if none).

    Eager, ``(values · one_hot).sum(1)``. Compiled, the entry's column bit by bit, as ``any``
    over the columns whose index has that bit, then one ``gather``: ``any`` over a row of a few
    units stays in vector registers, where an integer ``sum`` over it went through memory and
    cost half a step.
    """
    if not torch.compiler.is_compiling():
        return (values * one_hot).sum(1)
    column = torch.arange(one_hot.shape[1], device=one_hot.device)
    index = torch.zeros(one_hot.shape[0], dtype=torch.int64, device=one_hot.device)
    for b in range(max(one_hot.shape[1] - 1, 1).bit_length()):
        index = index | ((one_hot & ((column >> b) & 1).bool()).any(1).long() << b)
    picked = values.gather(1, index[:, None]).squeeze(1)
    return torch.where(one_hot.any(1), picked, 0)


def _nth_bit(word: torch.Tensor, i: torch.Tensor, window: torch.Tensor) -> torch.Tensor:
    """``(B,)`` the position of the ``i``-th (from 0) set bit of each word (of ``window`` bits).

    That is the largest ``b`` with at most ``i`` set bits below it: compiled, found by
    bisection on the prefix counts (element-wise operations that fuse); eager, by one cumulative
    sum over the bits (fewer, larger operations).
    """
    if torch.compiler.is_compiling():
        bit = torch.zeros_like(word)
        for step in (16, 8, 4, 2, 1):
            wider = bit + step
            below = _popcount(word & (torch.bitwise_left_shift(1, wider) - 1))
            bit = torch.where(below <= i, wider, bit)
        return bit
    seen = torch.bitwise_right_shift(word[:, None], window).bitwise_and_(1).cumsum(1)
    return (seen <= i[:, None]).sum(1)


def _popcount(word: torch.Tensor) -> torch.Tensor:
    """The number of set bits of each (non-negative, below ``2^32``) integer, in a few ops.

    (torch has no popcount; the classic bit-slicing sum vectorises where a table lookup is a
    gather per element.)
    """
    word = word - (torch.bitwise_right_shift(word, 1) & 0x55555555)
    word = (word & 0x33333333) + (torch.bitwise_right_shift(word, 2) & 0x33333333)
    word = (word + torch.bitwise_right_shift(word, 4)) & 0x0F0F0F0F
    return torch.bitwise_right_shift(word * 0x01010101, 24) & 0xFF


class _UnitActions(NamedTuple):
    """Per unit (``(U, B)``, games last) what it can do if its side is to move (else nothing).

    Attributes:
        pos: The unit's cell (-1 once removed).
        options: Its legal actions as a window word (see
            :meth:`BatchedKillTheKing._sampling_tables`): the bits of its free usable
            neighbours and Empty when it may step, of the units in its reach when it may act.
        free: The window bits of its free usable neighbours (whether or not it may step).
        heals: Whether it is a Healer (its acting bits are Heals, else Attacks).
    """

    pos: torch.Tensor
    options: torch.Tensor
    free: torch.Tensor
    heals: torch.Tensor


@dataclasses.dataclass(frozen=True)
class KillTheKingBatch(StrategaBatchBase):
    """A batch of Kill The King positions (see :class:`StrategaBatchBase` for the shared fields).

    No ``occ``: the rules find units by comparing ``pos`` (:meth:`BatchedKillTheKing.occupancy`
    gives the grid).

    Attributes:
        hp: ``(B, U)`` each unit's health (0 once removed, and in padding slots).
        last: ``(B, U)`` the round of each unit's last Attack or Heal (0: never).
    """

    hp: torch.Tensor
    last: torch.Tensor


class BatchedKillTheKing(StrategaBatchedGame[KillTheKingBatch]):
    """Kill The King's rules over a batch (see the module docstring).

    Args:
        game: A :class:`~stratagem.envs.kill_the_king.KillTheKingGame` (its map set and round
            limit are used).
        device: Where the tensors live.
        compile: Run the rules through ``torch.compile`` (see
            :meth:`~stratagem.envs.batched.core.BatchedGame.compile_rules`).

    Attributes:
        candidates: ``K``, the width of :meth:`legal_candidates` (the most candidates a player
            has on any board of the game, EndTurn included).
        occ_dtype: The integer type of :meth:`occupancy` (the smallest that holds the unit
            ids; -1 marks an empty cell).
    """

    unit_fields = {"hp": 1, "mp": 1, "last": 1}
    batch_type = KillTheKingBatch
    keeps_occupancy = False

    def __init__(
        self, game: Game, device: torch.device | str = "cpu", *, compile: bool = False
    ) -> None:
        if game.spec.name != "kill_the_king":
            raise ValueError(f"BatchedKillTheKing needs a kill_the_king game, got {game.spec.name}")
        super().__init__(game, device, compile=compile)
        # every plane's offset, so that one table gives any action's destination or target
        plane_offsets = list(A.MOVE_OFFSETS) + list(A.ATTACK_OFFSETS) + list(A.HEAL_OFFSETS)
        plane_offsets.append((0, 0))  # Empty: the unit's own cell
        self.plane_to = self.neighbours(plane_offsets)  # (cells + 1, planes)
        self._planes = len(plane_offsets)
        self._plane_to_flat = self.plane_to.reshape(-1)
        self._walkable_flat = self.walkable.reshape(-1)
        kinds = (
            [_MOVE] * len(A.MOVE_OFFSETS)
            + [_ATTACK] * len(A.ATTACK_OFFSETS)
            + [_HEAL_KIND] * len(A.HEAL_OFFSETS)
            + [_EMPTY]
        )
        self.plane_kind = torch.tensor(kinds, device=self.device)
        self.candidates = self._candidate_tables()
        # per unit type stats, indexed by self.utype
        self.max_hp = torch.tensor([s.max_health for s in UNIT_STATS], device=self.device)
        self.max_hp64 = self.max_hp.to(torch.float64)
        self.damage = torch.tensor([s.attack_damage for s in UNIT_STATS], device=self.device)
        self.heal = torch.tensor([s.heal_amount for s in UNIT_STATS], device=self.device)
        max_mp = torch.tensor([s.movement_points for s in UNIT_STATS], device=self.device)
        self.refill = torch.where(self.present, max_mp[self.utype], 0)
        self.full_hp = torch.where(self.present, self.max_hp[self.utype], 0)
        self.is_king = self.present & (self.utype == KING)
        self._sampling_tables()
        self._action_tables()
        self.occ_dtype = smallest_int(self.units)

    def occupancy(self, state: KillTheKingBatch) -> torch.Tensor:
        """``(B, H·W)`` the unit on each cell, -1 where empty (in :attr:`occ_dtype`)."""
        return self._occupancy(state.pos)

    def init_boards(self, boards: torch.Tensor) -> KillTheKingBatch:
        """Fresh positions on ``boards``."""
        boards = boards.to(self.device, torch.int64)
        count = len(boards)
        return KillTheKingBatch(
            **self._new_batch(
                boards,
                mp=_take(self.refill, boards),
                hp=_take(self.full_hp, boards),
                last=torch.zeros(count, self.units, dtype=torch.int64, device=self.device),
            )
        )

    def _candidate_tables(self) -> int:
        """Build the candidate tables of :meth:`legal_candidates`; returns their width ``K``.

        Per board and player (row ``2 · board + player``): for each of the player's units in
        slot order its 8 moves, Empty and the attack or heal offsets its type reaches (4 for a
        King, 8 for a Warrior, 12 for an Archer, 13 heals for a Healer), then EndTurn; padded
        with never-legal entries to one width. Only the player to move can act, so listing the
        other side's units too would double the work of every draw for nothing.
        """
        per_type = []
        for t, stats in enumerate(UNIT_STATS):
            row = [(A.MOVE_PLANE0 + i, _MOVE) for i in range(len(A.MOVE_OFFSETS))]
            row.append((A.EMPTY_PLANE, _EMPTY))
            if t == HEALER:
                offsets, plane0, kind = A.HEAL_OFFSETS, A.HEAL_PLANE0, _HEAL_KIND
                r2 = stats.heal_range**2
            else:
                offsets, plane0, kind = A.ATTACK_OFFSETS, A.ATTACK_PLANE0, _ATTACK
                r2 = stats.attack_range**2
            row += [
                (plane0 + i, kind) for i, (dx, dy) in enumerate(offsets) if dx * dx + dy * dy <= r2
            ]
            per_type.append(row)
        utype, owner = self.utype.tolist(), self.owner.tolist()
        present = self.present.tolist()
        rows = []
        for b in range(len(utype)):
            for player in range(2):
                row = [
                    (j, plane, kind)
                    for j in range(self.units)
                    if present[b][j] and owner[b][j] == player
                    for plane, kind in per_type[utype[b][j]]
                ]
                rows.append([*row, (0, A.EMPTY_PLANE, _END)])
        width = max(len(r) for r in rows)
        table = torch.tensor(
            [r + [(0, A.EMPTY_PLANE, _NONE)] * (width - len(r)) for r in rows], device=self.device
        )
        self.cand_unit, self.cand_plane, self.cand_kind = (c.contiguous() for c in table.unbind(2))
        return width

    def _action_tables(self) -> None:
        """Per action (and one no-op row after EndTurn) what :meth:`_step` changes.

        An action's effects depend on the board only through its units, so one table serves
        every board: the acting cell, the target cell (a Move's destination, an Attack's or a
        Heal's target, Empty's own cell), whether it spends the movement point (Move, Empty),
        acts (Attack, Heal: starts the cooldown, changes the target's health), moves, attacks,
        and ends the turn. EndTurn and the no-op name cell -2, on which no unit stands. Per
        board and unit (``(boards, U)``): the health change its Attack or Heal makes, its
        maximum health, and its King side (1 + owner for a King, 0 for any other unit).
        """
        cells, na = self.cells, self.num_actions
        plane_to = self.plane_to.tolist()
        rows = []
        flags = []
        for action in range(na + 1):
            row = [_NOWHERE, _NOWHERE, int(action == na - 1)]
            kind = "none"
            if action < na - 1:
                plane, p = divmod(action, cells)
                kind = A.PLANE_KIND[plane][0]
                q = plane_to[p][plane]
                row[_CELL], row[_TARGET] = p, q if q >= 0 else _NOWHERE  # off the board: illegal
            rows.append(row)
            spends, acts = kind in ("move", "empty"), kind in ("attack", "heal")
            flags.append([spends, acts, kind == "move", kind == "attack"])
        self._act = torch.tensor(rows, device=self.device)
        self._act_flags = torch.tensor(flags, device=self.device)
        effect = torch.where(self.utype == HEALER, self.heal[self.utype], -self.damage[self.utype])
        king_side = torch.where(self.is_king, self.owner + 1, 0)
        columns = [torch.where(self.present, effect, 0), self.full_hp, self.refill, king_side]
        self._unit_tables = [c.contiguous() for c in columns]  # (boards, U) each
        # per (side 0 has a King) + 2 · (side 1 has one): the winner
        self._outcome_of = torch.tensor([-1, 0, 1, PLAYING], device=self.device)

    def _sampling_tables(self) -> None:
        """The tables of :meth:`_unit_actions`, which counts each unit's legal actions directly.

        Every offset ``(dx, dy)`` with ``|dx|, |dy| ≤ 2`` (all a unit can reach) has one bit of
        a *window* word, ``5 · (dy + 2) + dx + 2`` (:func:`_window_bit`); bit 25 is Empty. So a
        unit's options are bit sets: the free cells around it, the units in its reach, Empty.

        * ``_usable`` ``(boards · (cells + 1))``: per board and cell ``pos + 1`` (0: a removed
          unit) the window bits of the neighbours a unit there could step to if they were free
          (on the board and walkable).
        * ``_reach_enemy_t``, ``_reach_friend_t`` ``(U, boards)`` (units first, as
          ``_owner_t``): per unit the window bits of the offsets at which it may act on an
          enemy and on a unit of its own side (an attacker's attack offsets and none; a
          Healer's heal offsets, its own cell included, twice).
        * ``_plane_cells`` ``(3 · 26)``: per kind (Move, Attack, Heal) and window bit the
          action plane times ``cells`` (Empty at bit 25 in every row), so that the drawn bit
          and the unit's cell give the action.
        * Eager pair words (:meth:`_pair_words`): ``_z`` per cell ``pos + 1`` and
          ``_pair_word`` per difference of two ``z`` (plus ``_z_far``); compiled: ``_row_mul``.
        """
        cells = self.cells
        step_to = self.neighbours(A.MOVE_OFFSETS).tolist()
        usable = []
        for walkable in self.walkable.tolist():
            usable.append(0)  # a removed unit
            for p in range(cells):
                usable.append(
                    sum(
                        1 << _window_bit(dx, dy)
                        for (dx, dy), q in zip(A.MOVE_OFFSETS, step_to[p], strict=True)
                        if q >= 0 and walkable[q]
                    )
                )
        self._usable = torch.tensor(usable, device=self.device)
        masks = []
        for t, stats in enumerate(UNIT_STATS):
            if t == HEALER:
                heal = _window_mask(A.HEAL_OFFSETS, stats.heal_range)
                masks.append((heal, heal))
            else:
                masks.append((_window_mask(A.ATTACK_OFFSETS, stats.attack_range), 0))
        utype, present = self.utype.tolist(), self.present.tolist()
        for which, name in enumerate(("_reach_enemy_t", "_reach_friend_t")):
            table = [
                [masks[t][which] if ok else 0 for t, ok in zip(ts, oks, strict=True)]
                for ts, oks in zip(utype, present, strict=True)
            ]
            setattr(self, name, torch.tensor(table, device=self.device).t().contiguous())
        planes = [[A.EMPTY_PLANE] * (_WINDOW_BITS + 1) for _ in range(3)]
        for row, plane_of in enumerate((A.MOVE_PLANE_OF, A.ATTACK_PLANE_OF, A.HEAL_PLANE_OF)):
            for (dx, dy), plane in plane_of.items():
                planes[row][_window_bit(dx, dy)] = plane
        self._plane_cells = torch.tensor(planes, device=self.device).view(-1) * cells
        self._window = torch.arange(_WINDOW_BITS + 1, device=self.device)
        self._owner_t = self.owner.t().contiguous()
        # pairs of units: each cell as z = y · S + x with S = W + 2, so that the difference of
        # two cells names the offset (dx, dy) exactly when |dx|, |dy| <= 2 and no such offset
        # otherwise; a removed unit's z is out of every cell's window, and the table of words
        # covers every difference, offset by that far z
        span = self.width + 2
        z = [(p // self.width) * span + p % self.width for p in range(cells)]
        self._z_far = far = max(z) + 2 * span + 3
        self._z = torch.tensor([far, *z], device=self.device)
        words = [0] * (2 * far + 1)
        for dy, dx in itertools.product(range(-2, 3), repeat=2):
            words[far + dy * span + dx] = 1 << _window_bit(dx, dy)
        self._pair_word = torch.tensor(words, device=self.device)
        # compiled: pos // W as a multiplication and a shift (exact on the board; vectorises)
        self._row_mul = -(-(1 << _ROW_SHIFT) // self.width)
        rows = (torch.arange(-1, cells) * self._row_mul) >> _ROW_SHIFT
        if not torch.equal(rows, torch.arange(-1, cells).div(self.width, rounding_mode="floor")):
            raise ValueError(f"kill_the_king: a board of {cells} cells is too large")

    # ----------------------------------------------------------------- legal actions
    #: One uniform number per game: :meth:`_sample` draws by counting.
    sample_draws = 1

    def _unit_actions(self, state: KillTheKingBatch) -> _UnitActions:
        """What each unit can do if its side is to move, counted without listing candidates.

        Per unit (``(U, B)``, games last): a unit of the player to move may step when it is
        alive with a movement point (to its free usable neighbours, and Empty) and act when it
        is alive and off cooldown (on every unit in its reach: enemies for an attacker, any unit
        for a Healer, itself included). Its options are one window word (see
        :meth:`_sampling_tables`), built from the window words of the ``U × U`` pairs of units
        of each game (:meth:`_pair_words`) with element-wise operations, which inductor runs
        along the games: the pairs replace the lookup chains (slot, cell, neighbour, occupant)
        that dominated a compiled step. The other side's units have none. Finished games are
        not masked.
        """
        board, pos = state.board, _materialized(state.pos.t())  # units first: (U, B)
        alive = pos >= 0
        owner = _materialized(self._owner_t.index_select(1, board))
        mine = owner == state.player
        enemy = owner == 1 - state.player
        pair = self._pair_words(pos)
        # (the units stand on distinct cells: the sums are bit sets)
        around = pair.sum(1) & _WINDOW_MASK
        enemies = torch.where(enemy[None], pair, 0).sum(1) & _WINDOW_MASK
        step = mine & alive & (state.mp.t() >= 1)
        ready = mine & alive & (state.last.t() < state.tick)
        free = _take(self._usable, board * (self.cells + 1) + pos + 1) & ~around
        reach_friend = self._reach_friend_t.index_select(1, board)
        reach = (enemies & self._reach_enemy_t.index_select(1, board)) | (
            (around - enemies) & reach_friend
        )
        options = torch.where(step, free | _EMPTY_WORD, 0) | torch.where(ready, reach, 0)
        return _UnitActions(pos, options, free, reach_friend != 0)

    def _pair_words(self, pos: torch.Tensor) -> torch.Tensor:
        """``(i, j, B)`` per pair of units the window bit of ``j``'s offset from ``i``.

        From ``pos`` ``(U, B)``; none when ``j`` is removed or out of ``i``'s window (a removed
        ``i``'s words do not matter), and bits above the window only (callers mask them off).
        Eager, one lookup on the difference of their ``z`` (see :meth:`_sampling_tables`): the
        fewest operations. Compiled, arithmetic on their rows and columns, which inductor
        vectorises along the games where each lookup is a load per pair.
        """
        if not torch.compiler.is_compiling():
            z = _take(self._z, pos + 1)
            return _take(self._pair_word, (z + self._z_far)[None, :, :] - z[:, None, :])
        y = torch.bitwise_right_shift(pos * self._row_mul, _ROW_SHIFT)  # pos // W
        # per unit, once (a removed unit far from every cell): its column, row and y · 5 + x,
        # so that a pair costs a few vector operations
        x = _materialized(torch.where(pos >= 0, pos - y * self.width, -_FAR))
        y = _materialized(torch.where(pos >= 0, y, -_FAR))
        w = _materialized(y * _SIDE + x)
        near = ((x[None] - x[:, None]).abs() <= 2) & ((y[None] - y[:, None]).abs() <= 2)
        bit = torch.where(near, w[None] - w[:, None] + _CENTRE, _OUT_BIT)
        return torch.bitwise_left_shift(1, bit)

    def legal_count(self, state: KillTheKingBatch) -> torch.Tensor:
        """``(B,)`` the number of legal actions of each position (0 once finished).

        ``legal_mask(state).sum(1)``, from the per-unit options of :meth:`_unit_actions`.
        """
        n = _popcount(self._unit_actions(state).options).sum(0) + 1
        return torch.where(state.winner == PLAYING, n, 0)

    def _sample(self, state: KillTheKingBatch, u: torch.Tensor) -> torch.Tensor:
        """A uniformly random legal action per game from one uniform ``u`` (``(B, 1)``).

        The same distribution as the default sampler (uniform over the legal actions of
        :meth:`legal_candidates`; not the same random stream) without its ``(B, K)``
        candidates, which cost several times more: with ``n`` legal actions in all (the set
        bits of the units' options of :meth:`_unit_actions`, and EndTurn) it takes
        ``r = ⌊u · n⌋`` and returns the ``r``-th, found unit by unit (in unit order), then as
        the ``i``-th set bit of that unit's options.
        """
        units = self.units
        pos, options, free, heals = self._unit_actions(state)
        unit, i, k = self._count_draw(_popcount(options), u)
        word = options.gather(0, k).squeeze(0)
        bit = _nth_bit(word, i, self._window).clamp_(max=_WINDOW_BITS)  # (EndTurn: past the last)
        moves = torch.bitwise_right_shift(free.gather(0, k).squeeze(0), bit).bitwise_and_(1)
        kind = torch.where(moves == 1, 0, 1 + heals.gather(0, k).squeeze(0).long())
        action = self._plane_cells.index_select(0, kind * (_WINDOW_BITS + 1) + bit)
        action = action + pos.gather(0, k).squeeze(0)
        action = torch.where(unit == units, self.num_actions - 1, action)
        # (stored once: the step reads it in several places, which compiled would each redo it)
        return _materialized(torch.where(state.winner == PLAYING, action, 0))

    def legal_candidates(self, state: KillTheKingBatch) -> tuple[torch.Tensor, torch.Tensor]:
        """The player to move's candidates (see :meth:`_candidate_tables`): ``(B, K)``.

        Every candidate is tested with the same few gathers whatever its kind; the kind then
        picks which tests count (a free walkable cell for a Move, an enemy for an Attack, any
        unit for a Heal).
        """
        board, player = state.board, state.player
        playing = (state.winner == PLAYING)[:, None]
        key = board * 2 + player
        unit = _take(self.cand_unit, key)  # (B, K)
        plane = _take(self.cand_plane, key)
        kind = _take(self.cand_kind, key)
        pos = state.pos.gather(1, unit)
        has_mp = state.mp.gather(1, unit) >= 1
        ready = (state.tick[:, None] - state.last.gather(1, unit)) >= 1
        # a removed unit (pos -1) reads the all -1 last row of plane_to
        row = torch.where(pos >= 0, pos, self.cells)
        target = _take(self._plane_to_flat, row * self._planes + plane)
        target0 = target.clamp(min=0)
        there = self.occupancy(state).gather(1, target0).long()
        walk = _take(self._walkable_flat, board[:, None] * self.cells + target0)
        there_owner = _take(self.owner, board).gather(1, there.clamp(min=0))
        on = target >= 0
        occupied = on & (there >= 0)
        move_ok = (kind == _MOVE) & on & walk & (there < 0)
        step_ok = has_mp & (move_ok | (kind == _EMPTY))
        attack_ok = (kind == _ATTACK) & occupied & (there_owner != player[:, None])
        act_ok = ready & (attack_ok | ((kind == _HEAL_KIND) & occupied))
        end = kind == _END
        ok = playing & (((pos >= 0) & (step_ok | act_ok)) | end)
        ids = torch.where(end, self.num_actions - 1, plane * self.cells + pos)
        return torch.where(ok, ids, 0), ok

    # ----------------------------------------------------------------- the rules
    def _step(
        self, state: KillTheKingBatch, actions: torch.Tensor, moving: torch.Tensor
    ) -> KillTheKingBatch:
        """The rules: one row of the action table per game, then element-wise updates.

        The acting unit is the one on the row's cell and the target the one on its target cell,
        found by comparing ``pos`` (a game has a handful of units): every per-unit field is then
        rewritten with ``where`` in one pass over ``(B, U)``, without gathers or scatters. Games
        that do not move read the no-op row, which names no unit and changes nothing, so that no
        step needs a data-dependent branch (see the module docstring).
        """
        at = torch.where(moving, actions, self.num_actions)  # the no-op row where not moving
        row = _materialized(self._act.index_select(0, at))  # (B, columns) of the action table
        cell, target, end = row.unbind(1)
        spends, acts, moves, attacks = _materialized(self._act_flags.index_select(0, at)).unbind(1)
        per_unit = [_take(table, state.board) for table in self._unit_tables]  # (B, U) each
        pos = state.pos
        acting = pos == cell[:, None]  # (B, U): the acting unit, if any
        acted_on = (pos == target[:, None]) & acts[:, None]
        # the target's health: damage or heal, clamped at its maximum; removed at 0 or less
        effect = _select_one(acting, per_unit[_EFFECT])[:, None]
        health = torch.minimum(state.hp + effect, per_unit[_FULL_HP]).clamp_(min=0)
        hp = torch.where(acted_on, health, state.hp)
        dies = acted_on & (health == 0) & attacks[:, None]
        pos = torch.where(acting & moves[:, None], target[:, None], torch.where(dies, -1, pos))
        # Move and Empty spend the movement point; Attack and Heal start the cooldown
        last = torch.where(acting & acts[:, None], state.tick[:, None], state.last)
        # EndTurn: the turn passes, a new round refills the movement points
        player = state.player ^ end
        new_round = end > player  # the turn passed to player 0
        tick = state.tick + new_round
        mp = torch.where(new_round[:, None], per_unit[_REFILL], state.mp)
        mp = mp - (acting & spends[:, None]).long()
        # a King's death decides (each side's Kings read from pos); the round limit draws
        king_side = per_unit[_KING_SIDE]
        regicide = (dies & (king_side > 0)).any(1)
        kings = torch.where(pos >= 0, king_side, 0)
        left = (kings == 1).any(1).long() + 2 * (kings == 2).any(1).long()
        outcome = self._outcome_of.index_select(0, left)
        winner = torch.where(regicide, outcome, state.winner)
        winner = torch.where(new_round & (tick >= self.round_limit), -1, winner)
        return state.replace(
            pos=pos, hp=hp, mp=mp, last=last, winner=winner, player=player, tick=tick
        )

    # ----------------------------------------------------------------- observation
    def observation(
        self, state: KillTheKingBatch, player: torch.Tensor | int | None = None
    ) -> torch.Tensor:
        """``(B, H, W, 17)``: the scalar ``observation`` planes (``OBSERVATION_PLANES``)."""
        observer = self._observer(state, player)
        board = state.board
        utype = _take(self.utype, board)
        enemy = _take(self.owner, board) != observer[:, None]
        kind = utype + len(UNIT_NAMES) * enemy.to(torch.int64)
        # the scalar divides Python ints (float64) and stores the quotient in float32
        health = (state.hp.to(torch.float64) / _take(self.max_hp64, utype)).to(torch.float32)
        ready = (state.tick[:, None] - state.last) >= 1
        features = torch.cat(
            [
                torch.nn.functional.one_hot(kind, 2 * len(UNIT_NAMES)).to(torch.float32),
                health[..., None],
                (state.mp >= 1).to(torch.float32)[..., None],
                ready.to(torch.float32)[..., None],
            ],
            dim=2,
        )
        return self._observation_planes(state, observer, features)


def _take(table: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """``table[index]`` for an index tensor of any shape, through ``index_select``.

    Advanced indexing (``aten::index``) splits even small lookups over the CPU threads, and on a
    busy machine waiting for a second thread cost milliseconds per call (hundreds of times the
    lookup); ``index_select`` and ``gather`` stay on one thread at these sizes.
    """
    picked = table.index_select(0, index.reshape(-1))
    return picked.view(*index.shape, *table.shape[1:])
