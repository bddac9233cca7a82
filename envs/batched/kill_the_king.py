"""Kill The King over batches of positions: the rules of ``envs/kill_the_king/rules.py`` in tensors.

Same actions, observation planes, outcomes and unit order as the scalar game (the differential
tests compare them at every step). The per-unit state is ``pos``, ``hp``, ``mp`` and ``last``
(the round of the unit's last Attack or Heal); a unit at 0 health or less is removed at once
(position -1, health 0), and a side whose King is removed has lost.

Every action of a unit touches at most two units: a Move relocates the acting unit, an Attack
or a Heal changes the health of its target (and an Attack may remove it). Each action plane has
one offset (the move step, the attack or heal offset, ``(0, 0)`` for Empty), so the target cell
of any action is one lookup in a ``(cells + 1, planes)`` table, and :meth:`BatchedKillTheKing._step`
applies every game's action with a handful of scatters.
"""

from __future__ import annotations

import dataclasses

import torch

from stratagem.envs.batched.stratega import PLAYING, StrategaBatch, StrategaBatchedGame
from stratagem.envs.core import Game
from stratagem.envs.kill_the_king import actions as A
from stratagem.envs.kill_the_king.rules import HEALER, KING, UNIT_NAMES, UNIT_STATS

__all__ = ["BatchedKillTheKing", "KillTheKingBatch"]

#: Kind of each candidate (and of each action plane): the legality test it needs; ``_NONE``
#: pads the candidate tables and is never legal.
_MOVE, _EMPTY, _ATTACK, _HEAL_KIND, _END, _NONE = range(6)


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

    # ----------------------------------------------------------------- legal actions
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
        there = state.occ.gather(1, target0)
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
        cells = self.cells
        board, occ = state.board, state.occ
        end = moving & (actions == self.num_actions - 1)
        acts = moving & ~end
        action = torch.where(acts, actions, 0)
        plane, p = action // cells, action % cells
        kind = _take(self.plane_kind, plane)
        u = _at(occ, p).clamp(min=0)
        is_move = acts & (kind == _MOVE)
        is_attack = acts & (kind == _ATTACK)
        acted = acts & ((kind == _ATTACK) | (kind == _HEAL_KIND))
        target0 = _take(self._plane_to_flat, p * self._planes + plane).clamp(min=0)
        v = _at(occ, target0).clamp(min=0)
        # Move and Empty spend the movement point; Attack and Heal start the cooldown
        spend = (acts & ((kind == _MOVE) | (kind == _EMPTY))).to(torch.int64)
        mp = state.mp.scatter_add(1, u[:, None], -spend[:, None])
        last = _written(state.last, acted, u, state.tick)
        # the target's health: damage or heal, clamped at its maximum; removed at 0 or less
        utype = _take(self.utype, board)
        type_u, type_v = _at(utype, u), _at(utype, v)
        delta = torch.where(is_attack, -_take(self.damage, type_u), _take(self.heal, type_u))
        hp_v = torch.minimum(_at(state.hp, v) + delta, _take(self.max_hp, type_v))
        dies = is_attack & (hp_v <= 0)
        hp = _written(state.hp, acted, v, torch.where(dies, 0, hp_v))
        # at most one unit leaves a cell (the mover or the dead) and one enters (the mover)
        leaves = is_move | dies
        occ = _written(occ, leaves, torch.where(is_move, p, target0), torch.full_like(p, -1))
        _write_(occ, is_move, target0, u)
        who = torch.where(is_move, u, v)
        pos = _written(state.pos, leaves, who, torch.where(is_move, target0, -1))
        regicide = dies & (type_v == KING)
        winner = torch.where(regicide, self._outcome(board, pos), state.winner)
        moved = state.replace(occ=occ, pos=pos, hp=hp, mp=mp, last=last, winner=winner)
        return moved.replace(**self.end_turn(moved, end, _take(self.refill, board)))

    def _outcome(self, board: torch.Tensor, pos: torch.Tensor) -> torch.Tensor:
        """The winner after a King fell: a side without a King loses (both: a draw)."""
        alive = (pos >= 0) & _take(self.is_king, board)
        owner = _take(self.owner, board)
        left0 = (alive & (owner == 0)).any(dim=1)
        left1 = (alive & (owner == 1)).any(dim=1)
        return torch.where(
            left0 & left1,
            PLAYING,
            torch.where(left0, 0, torch.where(left1, 1, -1)),
        )

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


def _at(table: torch.Tensor, column: torch.Tensor) -> torch.Tensor:
    """``table[b, column[b]]`` for every row ``b`` of a ``(B, N)`` table."""
    return table.gather(1, column[:, None]).squeeze(1)


def _written(
    table: torch.Tensor, write: torch.Tensor, column: torch.Tensor, value: torch.Tensor
) -> torch.Tensor:
    """A copy of the ``(B, N)`` ``table`` with ``value[b]`` at ``column[b]`` where ``write[b]``."""
    out = table.clone()
    _write_(out, write, column, value)
    return out


def _write_(
    table: torch.Tensor, write: torch.Tensor, column: torch.Tensor, value: torch.Tensor
) -> None:
    """In place: ``table[b, column[b]] = value[b]`` where ``write[b]``, other rows unchanged.

    The rows that write nothing rewrite their own first entry, so that every game goes through
    one in-place scatter: no padding column to concatenate and slice off again, which copied
    the whole (large) occupancy table three more times per step.
    """
    column = torch.where(write, column, 0)
    value = torch.where(write, value, table[:, 0])
    table.scatter_(1, column[:, None], value[:, None])
