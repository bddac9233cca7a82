"""Push Them All over batches of positions: the rules of ``envs/push_them_all/rules.py`` in tensors.

Same actions, observation planes, outcomes and unit order as the scalar game (the differential
tests compare them at every step). The per-unit state is ``pos``, ``mp`` and ``last (B, U, 4)``
(the round each push type was last used); a unit standing on a hole is removed at once.

Every action moves at most one unit: a Move moves the acting unit, a Push the pushed one (when
its landing cell is on the board, walkable and empty). :meth:`BatchedPushThemAll._step` therefore
computes one ``(who, from, to)`` relocation per game and applies all of them with three scatters.
"""

from __future__ import annotations

import dataclasses

import torch

from stratagem.envs.batched.stratega import PLAYING, StrategaBatch, StrategaBatchedGame
from stratagem.envs.core import Game
from stratagem.envs.push_them_all import actions as A
from stratagem.envs.push_them_all.maps import HOLE
from stratagem.envs.push_them_all.rules import MAX_MP, NUM_PUSHES, WARRIOR

__all__ = ["BatchedPushThemAll", "PushThemAllBatch"]

#: Action planes per unit: 4 moves, 16 pushes (type × side), Empty.
_PLANES = A.NUM_PLANES
_MOVES = len(A.MOVE_OFFSETS)


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
    """

    unit_fields = {"mp": 1, "last": NUM_PUSHES}
    batch_type = PushThemAllBatch

    def __init__(self, game: Game, device: torch.device | str = "cpu") -> None:
        if game.spec.name != "push_them_all":
            raise ValueError(f"BatchedPushThemAll needs a push_them_all game, got {game.spec.name}")
        super().__init__(game, device)
        statics = game._statics  # type: ignore[attr-defined]
        self.hole = self._tensor(
            torch.tensor([[t == HOLE for t in s.board.terrain] for s in statics])
        )
        self.step_to = self.neighbours(A.MOVE_OFFSETS)  # moves and push sides (same order)
        self.push_to = self.neighbours(A.PUSH_OFFSETS)  # where push type k sends a unit
        self.refill = torch.where(self.present, MAX_MP, 0)
        cells = self.cells
        self._move_base = torch.arange(_MOVES, device=self.device) * cells
        self._push_base = (
            torch.tensor(
                [[A.push_plane(k, s) for s in range(_MOVES)] for k in range(NUM_PUSHES)],
                device=self.device,
            )
            * cells
        )
        self._empty_base = A.EMPTY_PLANE * cells
        self._push_kind = torch.arange(NUM_PUSHES, device=self.device)

    def init_boards(self, boards: torch.Tensor) -> PushThemAllBatch:
        """Fresh positions on ``boards``."""
        boards = boards.to(self.device, torch.int64)
        count = len(boards)
        return PushThemAllBatch(
            **self._new_batch(
                boards,
                mp=self.refill[boards].clone(),
                last=torch.zeros(
                    count, self.units, NUM_PUSHES, dtype=torch.int64, device=self.device
                ),
            )
        )

    # ----------------------------------------------------------------- legal actions
    def legal_candidates(self, state: PushThemAllBatch) -> tuple[torch.Tensor, torch.Tensor]:
        """Per unit its 4 moves, 16 pushes and Empty, then EndTurn: ``K = 21·U + 1``."""
        count = state.batch_size
        board, pos = state.board, state.pos
        playing = state.winner == PLAYING
        owner = self.owner[board]
        mine = (owner == state.player[:, None]) & (pos >= 0) & playing[:, None]
        has_mp = mine & (state.mp >= 1)
        # moves: the neighbour is on the board, walkable and empty
        near = self.step_to[pos]  # (B, U, 4); pos -1 reads the all -1 last row
        near0 = near.clamp(min=0)
        walk = self.walkable[board[:, None, None], near0]
        there = state.occ.gather(1, near0.view(count, -1)).view(count, self.units, _MOVES)
        move_ok = has_mp[..., None] & (near >= 0) & walk & (there < 0)
        move_ids = self._move_base + pos[..., None]
        # pushes: a warrior's ready push type against an enemy on a side
        warrior = mine & (self.utype[board] == WARRIOR)
        ready = (state.tick[:, None, None] - state.last) >= 1  # (B, U, 4 types)
        enemy_owner = owner.gather(1, there.clamp(min=0).view(count, -1)).view(there.shape)
        enemy = (near >= 0) & (there >= 0) & (enemy_owner != state.player[:, None, None])
        push_ok = warrior[..., None, None] & ready[..., :, None] & enemy[..., None, :]
        push_ids = self._push_base + pos[..., None, None]  # (B, U, 4 types, 4 sides)
        empty_ids = self._empty_base + pos
        ids = torch.cat(
            [
                move_ids.view(count, -1),
                push_ids.view(count, -1),
                empty_ids,
                torch.full((count, 1), self.num_actions - 1, device=self.device),
            ],
            dim=1,
        )
        ok = torch.cat(
            [move_ok.view(count, -1), push_ok.view(count, -1), has_mp, playing[:, None]], dim=1
        )
        return torch.where(ok, ids, 0), ok

    def legal_mask(self, state: PushThemAllBatch) -> torch.Tensor:
        """``(B, A)`` bool legal-action mask."""
        ids, ok = self.legal_candidates(state)
        mask = torch.zeros(
            state.batch_size, self.num_actions + 1, dtype=torch.bool, device=self.device
        )
        mask.scatter_(1, torch.where(ok, ids, self.num_actions), True)
        return mask[:, : self.num_actions]

    # ----------------------------------------------------------------- the rules
    def _step(
        self, state: PushThemAllBatch, actions: torch.Tensor, moving: torch.Tensor
    ) -> PushThemAllBatch:
        count, cells, units = state.batch_size, self.cells, self.units
        rows = torch.arange(count, device=self.device)
        board, occ = state.board, state.occ
        end = moving & (actions == self.num_actions - 1)
        acts = moving & ~end
        action = torch.where(acts, actions, 0)
        plane, p = action // cells, action % cells
        u = occ[rows, p].clamp(min=0)
        is_move = acts & (plane < _MOVES)
        is_empty = acts & (plane == A.EMPTY_PLANE)
        is_push = acts & ~is_move & ~is_empty
        # the movement point (Move and Empty)
        spend = (is_move | is_empty).to(torch.int64)
        mp = state.mp.scatter_add(1, u[:, None], -spend[:, None])
        # a push: mark its type used this round, find the pushed unit and where it lands
        kind = ((plane - A.PUSH_PLANE0) // _MOVES).clamp(0, NUM_PUSHES - 1)
        side = ((plane - A.PUSH_PLANE0) % _MOVES).clamp(0, _MOVES - 1)
        last = state.last.view(count, -1)
        slot = torch.where(is_push, u * NUM_PUSHES + kind, units * NUM_PUSHES)
        last = torch.cat([last, last[:, :1]], dim=1).scatter(1, slot[:, None], state.tick[:, None])
        last = last[:, : units * NUM_PUSHES].view(count, units, NUM_PUSHES)
        target = self.step_to[p, torch.where(is_push, side, plane.clamp(max=_MOVES - 1))]
        target0 = target.clamp(min=0)
        pushed = occ[rows, target0].clamp(min=0)
        land = self.push_to[target0, kind]
        land0 = land.clamp(min=0)
        lands = (land >= 0) & self.walkable[board, land0] & (occ[rows, land0] < 0)
        # one relocation per game: (who, from, to), then the hole
        relocate = is_move | (is_push & lands)
        who = torch.where(is_move, u, pushed)
        src = torch.where(is_move, p, target0)
        dst = torch.where(is_move, target0, land0)
        falls = relocate & self.hole[board, dst]
        occ = torch.cat([occ, occ[:, :1]], dim=1)
        occ = occ.scatter(1, torch.where(relocate, src, cells)[:, None], -1)
        occ = occ.scatter(1, torch.where(relocate & ~falls, dst, cells)[:, None], who[:, None])
        pos = torch.cat([state.pos, state.pos[:, :1]], dim=1)
        pos = pos.scatter(
            1, torch.where(relocate, who, units)[:, None], torch.where(falls, -1, dst)[:, None]
        )[:, :units]
        winner = torch.where(falls, self._outcome(board, pos), state.winner)
        moved = state.replace(
            occ=occ[:, :cells].contiguous(), pos=pos.contiguous(), mp=mp, last=last, winner=winner
        )
        return moved.replace(**self.end_turn(moved, end, self.refill[board]))

    def _outcome(self, board: torch.Tensor, pos: torch.Tensor) -> torch.Tensor:
        """The winner after a unit fell: a side without units loses (both: a draw)."""
        alive = pos >= 0
        owner = self.owner[board]
        left0 = (alive & (owner == 0)).any(dim=1)
        left1 = (alive & (owner == 1)).any(dim=1)
        return torch.where(
            left0 & left1,
            PLAYING,
            torch.where(left0, 0, torch.where(left1, 1, -1)),
        )

    # ----------------------------------------------------------------- observation
    def observation(
        self, state: PushThemAllBatch, player: torch.Tensor | int | None = None
    ) -> torch.Tensor:
        """``(B, H, W, 16)``: the scalar ``observation`` planes (``OBSERVATION_PLANES``)."""
        observer = self._observer(state, player)
        count = state.batch_size
        board = state.board
        utype = self.utype[board]
        enemy = self.owner[board] != observer[:, None]
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
        planes = torch.cat(
            [
                self.terrain[board],
                self._paint_units(state, features),
                self._globals(state, observer)[:, None, :].expand(-1, self.cells, -1),
            ],
            dim=2,
        )
        return planes.view(count, self.height, self.width, -1)
