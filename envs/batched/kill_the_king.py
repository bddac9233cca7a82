"""Kill The King over batches of positions: the rules of ``envs/kill_the_king/rules.py`` in tensors.

Same actions, observation planes, outcomes and unit order as the scalar game (the differential
tests compare them at every step). The per-unit state is ``pos``, ``hp``, ``mp`` and ``last``
(the round of the unit's last Attack or Heal); a unit at 0 health or less is removed at once
(position -1, health 0), and a side whose King is removed has lost.

Laid out for speed on one CPU thread as Push Them All is (see its module docstring: the number
of tensor operations, not their size, sets the speed of a step of a thousand games):

* **A step is one table row.** Every action of a unit touches at most two units: a Move
  relocates the acting unit, an Attack or a Heal changes the health of its target (and an Attack
  may remove it). Its acting cell, target cell, movement point spent, cooldown and ``pos``
  changes depend on the action alone, so :meth:`BatchedKillTheKing._step` reads one row of a
  per-action table and applies every game's action with a handful of gathers and scatters.
* **Random play counts instead of listing.** :meth:`BatchedKillTheKing._sample` draws an exactly
  uniform legal action from one uniform number per game with no ``(B, K)`` candidates: each unit
  of the player to move counts its steps (its free walkable neighbours, packed into an 8-bit
  code, and Empty) and the units in its reach (one table lookup per pair of units, on the
  difference of their cells), and the ``⌊u · n⌋``-th legal action is found by counting.
* **Small copies.** ``occ`` is kept in the smallest integer type that holds the unit ids (int8
  on every shipped map): a step copies it whole, and at int64 that copy cost more than the rest.
* **One graph.** No data-dependent Python branch, so that ``compile=True`` compiles the step
  and the sampler to one graph each.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import NamedTuple

import torch

from stratagem.envs.batched.stratega import (
    PLAYING,
    StrategaBatch,
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
#: Columns of the integer action table and of its flags (see ``_action_tables``).
_COLUMNS = ("cell", "target", "spend", "acts", "move_delta", "death_delta", "end")
_CELL, _TARGET, _SPEND, _ACTS, _MOVE_DELTA, _DEATH_DELTA, _END_COLUMN = range(len(_COLUMNS))
_F_MOVE, _F_ATTACK = range(2)
#: The move code of a unit: its 8 free flags (bytes of one int64) modulo this, where byte ``s``
#: keeps the bit ``_BYTE_BIT[s]`` (``256^s = 2^(8s mod 9)`` modulo ``2^9 - 1``), all distinct.
_BYTE_MODULUS = 2**9 - 1
#: The most steps a unit has: its 8 moves and Empty (the row width of ``_move_pick``).
_STEPS = len(A.MOVE_OFFSETS) + 1
_BYTE_BIT = [2 ** (8 * (s if sys.byteorder == "little" else 7 - s) % 9) for s in range(8)]


class _UnitActions(NamedTuple):
    """Per unit slot of the player to move (``(P, B)``, games last; ``reach`` ``(P, U, B)``).

    Attributes:
        pos: The unit's cell (-1 once removed).
        code: The bit set of its free walkable neighbours (0 when it may not step).
        steps: How many steps it has: its free moves and Empty (0 when it may not step).
        reach: Per unit of the position, ``plane · cells`` of the Attack or Heal on it, -1
            where it is not a legal target (out of reach, own side, removed, or not ready).
    """

    pos: torch.Tensor
    code: torch.Tensor
    steps: torch.Tensor
    reach: torch.Tensor


@dataclasses.dataclass(frozen=True)
class KillTheKingBatch(StrategaBatch):
    """A batch of Kill The King positions (see :class:`StrategaBatch` for the shared fields).

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
        per_player: ``P``, the most units a player has on any board of the game.
        occ_dtype: The integer type of ``occ`` (the smallest that holds the unit ids; -1 still
            marks an empty cell).
    """

    unit_fields = {"hp": 1, "mp": 1, "last": 1}
    batch_type = KillTheKingBatch

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
        Heal's target, Empty's own cell), the movement point spent, whether it starts the
        cooldown (Attack, Heal), the change of the mover's ``pos`` and of a killed target's,
        and EndTurn; flags: Move, Attack. Per board and unit: the health change its Attack or
        Heal makes, its maximum health and whether it is a King; per board each side's King
        slots, for the outcome.
        """
        cells, na = self.cells, self.num_actions
        plane_to = self.plane_to.tolist()
        ints, flags = [], []
        for action in range(na + 1):
            row = [0] * len(_COLUMNS)
            move = attack = False
            if action == na - 1:
                row[_END_COLUMN] = 1
            elif action < na - 1:
                plane, p = divmod(action, cells)
                kind = A.PLANE_KIND[plane][0]
                q = max(plane_to[p][plane], 0)  # -1 off the board: never legal
                row[_CELL], row[_TARGET] = p, q
                row[_SPEND] = -int(kind in ("move", "empty"))
                row[_ACTS] = int(kind in ("attack", "heal"))
                move, attack = kind == "move", kind == "attack"
                row[_MOVE_DELTA] = q - p if move else 0
                row[_DEATH_DELTA] = -1 - q if attack else 0
            ints.append(row)
            flags.append([move, attack])
        self._act = torch.tensor(ints, device=self.device)
        self._act_flag = torch.tensor(flags, device=self.device)
        utype = self.utype.reshape(-1)
        effect = torch.where(utype == HEALER, self.heal[utype], -self.damage[utype])
        self._effect = torch.where(self.present.reshape(-1), effect, 0)
        self._max_hp_of = self.full_hp.reshape(-1).contiguous()
        self._is_king_of = self.is_king.reshape(-1).contiguous()
        self._refill_or_0 = torch.stack([torch.zeros_like(self.refill), self.refill], 1).view(
            -1, self.units
        )
        kings = [
            [[j for j in range(self.units) if k[j] and o[j] == side] for side in range(2)]
            for k, o in zip(self.is_king.tolist(), self.owner.tolist(), strict=True)
        ]
        width = max(1, max(len(s) for b in kings for s in b))
        self._kings = torch.tensor(
            [[(s + [0] * width)[:width] for s in b] for b in kings], device=self.device
        ).view(len(kings), -1)
        ok = [[i < len(s) for s in b for i in range(width)] for b in kings]
        self._kings_ok = None if all(map(all, ok)) else torch.tensor(ok, device=self.device)
        # per (side 0 has a King) + 2 · (side 1 has one): the winner
        self._outcome_of = torch.tensor([-1, 0, 1, PLAYING], device=self.device)
        # occ holds unit ids and -1 in the smallest integer type that fits: a step copies it
        self.occ_dtype = smallest_int(self.units)

    def _sampling_tables(self) -> None:
        """The tables of :meth:`_unit_actions`, which counts each unit's legal actions directly.

        * ``_slots`` ``(P, 2 · boards)``: per key ``2 · board + player`` the player's unit
          slots (games last once selected), padded with a slot that never holds a unit when
          the board has one (else with slot 0, and ``_slot_ok`` masks it).
        * ``_nb_cell`` ``(cells + 1, 8)``: per cell ``pos + 1`` (row 0: a removed unit) its 8
          neighbour cells (0 off the board); ``_nb_usable`` per board, cell and whether the
          unit may step: the bit set of the neighbours it could step to if they were free (on
          the board and walkable; none when it may not step).
        * ``_step_count`` per move code and step flag: the unit's steps (its free moves and
          Empty); ``_move_pick`` per code the ``i``-th of ``[free moves…, Empty]`` as
          ``plane · cells``.
        * ``_z`` ``(cells + 1)``: each cell as ``y · S + x`` with ``S = W + 3``, so that the
          difference of two cells within reach (``|dx|, |dy| ≤ 2``) names the offset exactly
          and any farther difference names none; row 0 (removed) is far below every cell.
        * ``_pair_base`` ``(2 · boards, P · U)`` and ``_pair_table``: the difference, clamped to
          ``±R`` and added to the base of the pair (acting slot, target unit), reads in the
          table ``plane · cells`` of the Attack or Heal of that offset, or -1 where the pair
          cannot act (a target of the own side for an attacker, padding) or is out of reach.
        """
        boards, cells, units = len(self.owner), self.cells, self.units
        owner, present = self.owner.tolist(), self.present.tolist()
        utype = self.utype.tolist()
        rows = [
            [j for j in range(units) if present[b][j] and owner[b][j] == player]
            for b in range(boards)
            for player in range(2)
        ]
        self.per_player = max(len(r) for r in rows)
        padded, ok = [], []
        for k, r in enumerate(rows):
            spare = [j for j in range(units) if not present[k // 2][j]]
            padded.append(r + [spare[0] if spare else 0] * (self.per_player - len(r)))
            ok.append([i < len(r) or bool(spare) for i in range(self.per_player)])
        self._slots = torch.tensor(padded, device=self.device).t().contiguous()
        self._slot_ok = (
            None if all(map(all, ok)) else torch.tensor(ok, device=self.device).t().contiguous()
        )
        # moves: the neighbour cells, the usable ones as bits, the free moves of each bit set
        moves = len(A.MOVE_OFFSETS)
        step_to = self.neighbours(A.MOVE_OFFSETS).tolist()
        self._nb_cell = torch.tensor(
            [[0] * moves] + [[max(q, 0) for q in step_to[p]] for p in range(cells)],
            device=self.device,
        )
        usable = []
        for walkable in self.walkable.tolist():
            usable += [0, 0]  # a removed unit
            for p in range(cells):
                bits = sum(_BYTE_BIT[s] for s, q in enumerate(step_to[p]) if q >= 0 and walkable[q])
                usable += [0, bits]
        self._nb_usable = torch.tensor(usable, device=self.device)
        count, pick = [], []
        for code in range(_BYTE_MODULUS + 1):
            planes = [A.MOVE_PLANE0 + s for s in range(moves) if code & _BYTE_BIT[s]]
            count += [0, len(planes) + 1]
            pick += [q * cells for q in [*planes, A.EMPTY_PLANE]]
            pick += [0] * (moves - len(planes))
        self._step_count = torch.tensor(count, device=self.device)
        self._move_pick = torch.tensor(pick, device=self.device)
        # attacks and heals: one lookup per pair of (acting slot, target unit)
        span = self.width + 3
        # (far from every cell: a removed unit's z, below, and an acting unit's that is not
        # ready, above, differ from any other z by more than the reach)
        self._far = 4 * (cells + 1) * span
        z = [-self._far] + [(p // self.width) * span + p % self.width for p in range(cells)]
        self._z = torch.tensor(z, device=self.device)
        self._reach = reach = 2 * span + 3
        table = []
        for t, stats in [*enumerate(UNIT_STATS), (-1, None)]:  # the last: never legal
            for d in range(-reach, reach + 1):
                dy = (d + 2) // span  # exact for |dx| <= 2 (span > 4)
                dx = d - dy * span
                plane = -1
                if stats is not None and abs(dx) <= 2 and abs(dy) <= 2:
                    if t == HEALER and dx * dx + dy * dy <= stats.heal_range**2:
                        plane = A.HEAL_PLANE_OF[(dx, dy)]
                    elif t != HEALER and 0 < dx * dx + dy * dy <= stats.attack_range**2:
                        plane = A.ATTACK_PLANE_OF[(dx, dy)]
                table.append(plane * cells if plane >= 0 else -1)
        self._pair_table = torch.tensor(table, device=self.device)
        base = []
        for k, r in enumerate(rows):
            b, player = divmod(k, 2)
            row = []
            for i in range(self.per_player):
                for v in range(units):
                    c = len(UNIT_STATS)  # never
                    if i < len(r) and present[b][v]:
                        t = utype[b][r[i]]
                        if t == HEALER or owner[b][v] != player:
                            c = t
                    row.append(c * (2 * reach + 1) + reach)
            base.append(row)
        self._pair_base = torch.tensor(base, device=self.device)

    # ----------------------------------------------------------------- legal actions
    #: One uniform number per game: :meth:`_sample` draws by counting.
    sample_draws = 1

    def _unit_actions(self, state: KillTheKingBatch) -> _UnitActions:
        """What each unit of the player to move can do, counted without listing candidates.

        Per unit slot (``(P, B)``, games last): a unit may step when it is alive with a
        movement point (its free walkable neighbours and Empty), and act when it is alive and
        off cooldown (every unit its type reaches: enemies for an attacker, any unit for a
        Healer, itself included). The acting reach is one lookup per pair (slot, unit) in
        :attr:`_pair_table` instead of one per candidate offset (see
        :meth:`_sampling_tables`). Finished games are not masked.
        """
        count, p, units, cells = state.batch_size, self.per_player, self.units, self.cells
        key = state.board * 2 + state.player
        rows = torch.arange(count, device=self.device)
        flat = self._slots.index_select(1, key).add_(rows * units).view(-1)  # (P · B) units
        pos = state.pos.reshape(-1).index_select(0, flat).view(p, count)
        alive = pos >= 0
        if self._slot_ok is not None:
            alive = alive & self._slot_ok.index_select(1, key)
        step = alive & (state.mp.reshape(-1).index_select(0, flat).view(p, count) >= 1)
        last = state.last.reshape(-1).index_select(0, flat).view(p, count)
        ready = alive & (last < state.tick)
        # the free neighbours, as the bits of a move code
        # (the 8 free flags of a unit are the bytes of one int64, and its remainder modulo
        # 511 = 2^9 - 1 keeps one distinct bit of each: 256^i = 2^(8i mod 9) there)
        at = (pos + 1).view(-1)
        near = self._nb_cell.index_select(0, at).view(p, count, 8).add_((rows * cells)[:, None])
        free = state.occ.reshape(-1).index_select(0, near.view(-1)) < 0
        usable_at = (pos + 1).add_(state.board * (cells + 1)).mul_(2).add_(step)
        usable = self._nb_usable.index_select(0, usable_at.view(-1)).view(p, count)
        code = free.view(torch.int64).view(p, count).remainder(_BYTE_MODULUS).bitwise_and_(usable)
        steps = self._step_count.index_select(0, (code * 2 + step).view(-1)).view(p, count)
        # the units in reach of each ready unit: one table lookup per pair
        z_all = self._z.index_select(0, (state.pos.t() + 1).reshape(-1)).view(1, units, count)
        z_me = torch.where(ready, self._z.index_select(0, at).view(p, count), self._far)
        diff = (z_all - z_me[:, None]).clamp_(-self._reach, self._reach)
        base = self._pair_base.index_select(0, key).t().view(p, units, count)
        reach = self._pair_table.index_select(0, diff.add_(base).view(-1)).view(p, units, count)
        return _UnitActions(pos, code, steps, reach)

    def legal_count(self, state: KillTheKingBatch) -> torch.Tensor:
        """``(B,)`` the number of legal actions of each position (0 once finished).

        ``legal_mask(state).sum(1)``, from the per-unit counts of :meth:`_unit_actions`.
        """
        units = self._unit_actions(state)
        n = units.steps.sum(0) + (units.reach >= 0).sum((0, 1)) + 1
        return torch.where(state.winner == PLAYING, n, 0)

    def _sample(self, state: KillTheKingBatch, u: torch.Tensor) -> torch.Tensor:
        """A uniformly random legal action per game from one uniform ``u`` (``(B, 1)``).

        The same distribution as the default sampler (uniform over the legal actions of
        :meth:`legal_candidates`; not the same random stream) without its ``(B, K)``
        candidates, which cost several times more: with ``n`` legal actions in all (the units'
        counts of :meth:`_unit_actions` and EndTurn) it takes ``r = ⌊u · n⌋`` and returns the
        ``r``-th, found unit by unit, then within the unit (its steps first, in plane order,
        then the units in its reach, in slot order).
        """
        units = self.units
        pos, code, steps, reach = self._unit_actions(state)
        hit = reach >= 0
        unit, i, slot = self._count_draw(steps + hit.sum(1), u)
        own_steps = steps.gather(0, slot).squeeze(0)
        moved = self._move_pick.index_select(
            0, code.gather(0, slot).squeeze(0) * _STEPS + i.clamp(max=_STEPS - 1)
        )
        # else the (i - own_steps)-th unit in the chosen unit's reach
        wide = slot[:, None].expand(1, units, -1)
        seen = hit.gather(0, wide).squeeze(0).cumsum(0)
        target = (seen <= i - own_steps).sum(0).clamp_(max=units - 1)
        acted = reach.gather(0, wide).squeeze(0).gather(0, target[None]).squeeze(0)
        action = torch.where(i < own_steps, moved, acted).add_(pos.gather(0, slot).squeeze(0))
        return self._drawn(state, unit, action)

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
        there = state.occ.gather(1, target0).long()
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
        """The rules: one row of the action table per game, then a few gathers and scatters.

        Games that do not move read the no-op row, which writes every touched entry back
        unchanged, so that no step needs a data-dependent branch (see the module docstring).
        """
        count = state.batch_size
        at = torch.where(moving, actions, self.num_actions)  # the no-op row where not moving
        row = self._act.index_select(0, at)  # (B, columns) of the action table
        flag = self._act_flag.index_select(0, at)
        cell, target = row[:, _CELL, None], row[:, _TARGET, None]
        is_move, is_attack = flag[:, _F_MOVE, None], flag[:, _F_ATTACK, None]
        occ = state.occ.clone()
        here = occ.gather(1, cell)  # the acting unit (-1 only in rows that change nothing)
        there = occ.gather(1, target)  # the Attack's or Heal's target (-1 for a Move)
        u = here.long().clamp_(min=0)
        v = there.long().clamp_(min=0)
        unit_row = (state.board * self.units)[:, None]
        # the target's health: damage or heal, clamped at its maximum; removed at 0 or less
        # (rows that act on nobody write the health of unit v back unchanged)
        hp = state.hp.clone()
        effect = self._effect.index_select(0, (unit_row + u).view(-1)).view(count, 1)
        hp_v = hp.gather(1, v).add_(effect * row[:, _ACTS, None])
        hp_v = torch.minimum(
            hp_v, self._max_hp_of.index_select(0, (unit_row + v).view(-1))[:, None]
        )
        hp.scatter_(1, v, hp_v.clamp(min=0))
        dies = is_attack & (hp_v <= 0)
        # at most one unit leaves a cell (the mover or the dead) and one enters (the mover)
        occ.scatter_(1, cell, torch.where(is_move, -1, here))
        occ.scatter_(1, target, torch.where(is_move, here, torch.where(dies, -1, there)))
        pos = state.pos.clone()
        moved = row[:, _MOVE_DELTA, None] + dies * row[:, _DEATH_DELTA, None]
        pos.scatter_add_(1, torch.where(dies, v, u), moved)
        # Move and Empty spend the movement point; Attack and Heal start the cooldown
        last = state.last.clone()
        last.scatter_reduce_(1, u, state.tick[:, None] * row[:, _ACTS, None], "amax")
        # EndTurn: the turn passes, a new round refills the movement points
        end = row[:, _END_COLUMN]
        player = state.player ^ end
        new_round = end > player  # the turn passed to player 0
        tick = state.tick + new_round
        # (mp never exceeds the refill: the maximum with the refill or with 0 is the where)
        mp = torch.maximum(state.mp, self._refill_or_0.index_select(0, state.board * 2 + new_round))
        mp.scatter_add_(1, u, row[:, _SPEND, None])
        # a King's death decides (each side's Kings read from pos); the round limit draws
        king = self._is_king_of.index_select(0, (unit_row + v).view(-1))
        regicide = dies.squeeze(1) & king
        winner = torch.where(regicide, self._outcome(state.board, pos), state.winner)
        winner = torch.where(new_round & (tick >= self.round_limit), -1, winner)
        return state.replace(
            occ=occ, pos=pos, hp=hp, mp=mp, last=last, winner=winner, player=player, tick=tick
        )

    def _outcome(self, board: torch.Tensor, pos: torch.Tensor) -> torch.Tensor:
        """The winner after a King fell: a side without a King loses (both: a draw)."""
        kings = self._kings.index_select(0, board)  # (B, 2 · Kmax)
        alive = pos.gather(1, kings) >= 0
        if self._kings_ok is not None:
            alive = alive & self._kings_ok.index_select(0, board)
        left = alive.view(len(board), 2, -1).any(2)
        return self._outcome_of.index_select(0, left[:, 0] + 2 * left[:, 1])

    # ----------------------------------------------------------------- observation
    def observation(
        self, state: KillTheKingBatch, player: torch.Tensor | int | None = None
    ) -> torch.Tensor:
        """``(B, H, W, 17)``: the scalar ``observation`` planes (``OBSERVATION_PLANES``)."""
        observer = self._observer(state, player)
        count = state.batch_size
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
        planes = torch.cat(
            [
                _take(self.terrain, board),
                self._paint_units(state, features),
                self._globals(state, observer)[:, None, :].expand(-1, self.cells, -1),
            ],
            dim=2,
        )
        return planes.view(count, self.height, self.width, -1)


def _take(table: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """``table[index]`` for an index tensor of any shape, through ``index_select``.

    Advanced indexing (``aten::index``) splits even small lookups over the CPU threads, and on a
    busy machine waiting for a second thread cost milliseconds per call (hundreds of times the
    lookup); ``index_select`` and ``gather`` stay on one thread at these sizes.
    """
    picked = table.index_select(0, index.reshape(-1))
    return picked.view(*index.shape, *table.shape[1:])
