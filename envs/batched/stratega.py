"""What the batched Stratega grid games share: boards as tensors, turns, outcome, conversion.

Kill The King and Push Them All keep a position the same way (``envs/stratega_state.py``): units
in the reference's creation order with a cell (``-1`` once removed), the occupied cells, the
round counter, the player to move and the winner. Here each of those is a tensor with the batch
first: ``pos (B, U)``, ``tick``, ``player`` and ``winner`` ``(B,)``, and for the games that keep
it (:attr:`StrategaBatchedGame.keeps_occupancy`) ``occ (B, H·W)`` (unit id or -1). Boards of one
game may hold different numbers of units; the unit dimension ``U`` is the largest and the
missing units of a smaller board are padding (never placed, owner :data:`NO_OWNER`).

``winner`` is :data:`PLAYING` (-2) while the game runs, -1 for a draw, else the winning player:
the scalar ``winner`` with ``None`` written as -2.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np
import torch

from stratagem.envs.batched.core import BatchedGame, BatchedState
from stratagem.envs.core import Game, State

__all__ = [
    "NO_OWNER",
    "PLAYING",
    "StrategaBatch",
    "StrategaBatchBase",
    "StrategaBatchedGame",
    "smallest_int",
]

#: ``winner`` of a game still being played (the scalar ``None``).
PLAYING = -2
#: Owner of a padding unit slot (never equal to a player).
NO_OWNER = 2

B = TypeVar("B", bound="StrategaBatchBase")


@dataclasses.dataclass(frozen=True)
class StrategaBatchBase(BatchedState):
    """The fields every Stratega batch has (each game's batch adds its own).

    Attributes:
        board: ``(B,)`` index of the board in ``game.boards``.
        tick: ``(B,)`` the round counter (starts at 1).
        player: ``(B,)`` the player to move.
        winner: ``(B,)`` :data:`PLAYING`, -1 (draw) or the winner.
        pos: ``(B, U)`` each unit's cell ``y * W + x``, -1 once removed (and for padding).
        mp: ``(B, U)`` movement points left this round.
    """

    board: torch.Tensor
    tick: torch.Tensor
    player: torch.Tensor
    winner: torch.Tensor
    pos: torch.Tensor
    mp: torch.Tensor


@dataclasses.dataclass(frozen=True)
class StrategaBatch(StrategaBatchBase):
    """A Stratega batch that also keeps the unit on each cell (the games that look up cells).

    Attributes:
        occ: ``(B, H·W)`` the unit on each cell, -1 where empty.
    """

    occ: torch.Tensor


class StrategaBatchedGame(BatchedGame[B]):
    """Board tensors and the turn, outcome and conversion rules of the Stratega games.

    Subclasses set :attr:`unit_fields` (the per-unit lists of the scalar state's JSON besides
    ``pos``, with their batch field names and shapes) and implement the game's actions.

    Attributes:
        height, width, cells: Board size (``cells = height · width``).
        units: ``U``, the unit slots per position (the largest board's unit count).
        walkable: ``(boards, cells)`` bool.
        terrain: ``(boards, cells, tiles)`` float32 one-hot terrain (observation planes).
        utype: ``(boards, U)`` unit type (0 for padding).
        owner: ``(boards, U)`` unit owner (:data:`NO_OWNER` for padding).
        present: ``(boards, U)`` bool, the slot holds a unit of that board.
        start: ``(boards, U)`` initial cell of each unit (-1 for padding).
    """

    #: Scalar JSON key -> number of entries per unit (1 for a plain list, k for k per unit),
    #: besides ``pos``; the batch field has the same name. Padding slots hold 0 in them.
    unit_fields: dict[str, int] = {"mp": 1}
    #: The game's batch class.
    batch_type: type[B]
    #: ``P``, the most units a player has on any board (set by games that draw by counting).
    per_player: int
    #: Whether the batch has an ``occ (B, H·W)`` field (a :class:`StrategaBatch`), the unit on
    #: each cell: a game whose rules look up cells keeps it; one that finds units by comparing
    #: ``pos`` saves its copy at every step (a thousand games' ``occ`` is about a megabyte).
    keeps_occupancy: bool = True
    #: The integer type of ``occ`` (a game may take a smaller one: a step copies ``occ`` whole).
    occ_dtype: torch.dtype = torch.int64
    #: Integer types of per-unit fields (``pos`` included) other than int64 (a step copies
    #: every changed field whole, so a game keeps the large ones in the smallest type that
    #: holds their values).
    field_dtypes: dict[str, torch.dtype] = {}

    def __init__(
        self, game: Game, device: torch.device | str = "cpu", *, compile: bool = False
    ) -> None:
        super().__init__(game, device, compile=compile)
        statics = game._statics  # type: ignore[attr-defined]  (the scalar per-board facts)
        first = statics[0].board
        self.height, self.width = first.height, first.width
        self.cells = self.height * self.width
        self.units = max(len(s.board.units) for s in statics)
        self.round_limit = int(game.round_limit)  # type: ignore[attr-defined]
        n, u = len(statics), self.units
        utype = np.zeros((n, u), dtype=np.int64)
        owner = np.full((n, u), NO_OWNER, dtype=np.int64)
        start = np.full((n, u), -1, dtype=np.int64)
        for i, s in enumerate(statics):
            for j, (t, o, x, y) in enumerate(s.board.units):
                utype[i, j], owner[i, j], start[i, j] = t, o, y * self.width + x
        planes = np.stack([s.terrain_planes.reshape(self.cells, -1) for s in statics])
        walkable = np.array([s.walkable for s in statics], dtype=bool)
        self.walkable = self._tensor(walkable)
        self.terrain = self._tensor(planes)
        self.utype = self._tensor(utype)
        self.owner = self._tensor(owner)
        self.start = self._tensor(start)
        self.present = self.start >= 0
        self._arange_units = torch.arange(u, device=self.device)

    def _tensor(self, array: np.ndarray) -> torch.Tensor:
        return torch.as_tensor(array, device=self.device)

    def neighbours(self, offsets: Sequence[tuple[int, int]]) -> torch.Tensor:
        """``(cells + 1, len(offsets))``: the cell at each ``(dx, dy)`` from each cell, or -1.

        The extra last row (cell -1, a removed unit) has -1 everywhere, so ``pos`` can index it
        directly.
        """
        out = np.full((self.cells + 1, len(offsets)), -1, dtype=np.int64)
        for p in range(self.cells):
            y, x = divmod(p, self.width)
            for i, (dx, dy) in enumerate(offsets):
                nx, ny = x + dx, y + dy
                if 0 <= nx < self.width and 0 <= ny < self.height:
                    out[p, i] = ny * self.width + nx
        return self._tensor(out)

    # ----------------------------------------------------------------- shared rules
    def _new_batch(self, boards: torch.Tensor, **fields: torch.Tensor) -> dict[str, torch.Tensor]:
        """The shared fields of fresh positions on ``boards``."""
        boards = boards.to(self.device, torch.int64)
        count = len(boards)
        pos = self.start[boards].to(self.field_dtypes.get("pos", torch.int64))
        return {
            "board": boards,
            "tick": torch.ones(count, dtype=torch.int64, device=self.device),
            "player": torch.zeros(count, dtype=torch.int64, device=self.device),
            "winner": torch.full((count,), PLAYING, dtype=torch.int64, device=self.device),
            "pos": pos,
            **self._occupancy_field(pos),
            **fields,
        }

    def _occupancy_field(self, pos: torch.Tensor) -> dict[str, torch.Tensor]:
        """``{"occ": …}`` of units on ``pos`` for a game that keeps it, else nothing."""
        return {"occ": self._occupancy(pos)} if self.keeps_occupancy else {}

    def _occupancy(self, pos: torch.Tensor) -> torch.Tensor:
        """``occ`` of positions whose units stand on ``pos`` (in :attr:`occ_dtype`)."""
        count = pos.shape[0]
        occ = torch.full((count, self.cells + 1), -1, dtype=self.occ_dtype, device=self.device)
        slots = self._arange_units.to(self.occ_dtype).expand(count, -1)
        occ.scatter_(1, torch.where(pos >= 0, pos, self.cells).long(), slots)
        return occ[:, : self.cells].contiguous()

    def end_turn(
        self, state: B, ending: torch.Tensor, refill: torch.Tensor
    ) -> dict[str, torch.Tensor]:
        """Pass the turn where ``ending``: the round grows and ``mp`` is refilled at player 0.

        Args:
            state: The batch.
            ending: ``(B,)`` bool, the games whose player ends the turn.
            refill: ``(B, U)`` the movement points of a new round (0 in padding slots).

        Returns:
            The new ``player``, ``tick``, ``mp`` and ``winner`` (a draw at the round limit).
        """
        player = torch.where(ending, 1 - state.player, state.player)
        new_round = ending & (player == 0)
        tick = state.tick + new_round.to(torch.int64)
        mp = torch.where(new_round[:, None], refill, state.mp)
        winner = torch.where(ending & (tick >= self.round_limit), -1, state.winner)
        return {"player": player, "tick": tick, "mp": mp, "winner": winner}

    def _count_draw(
        self, per_unit: torch.Tensor, u: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """The ``⌊u · n⌋``-th of ``n`` legal actions, located by counting (the games' samplers).

        Args:
            per_unit: ``(P, B)`` the legal actions of each unit slot of the player to move (in
                slot order); EndTurn, always legal, comes after them.
            u: ``(B, 1)`` uniform numbers in ``[0, 1)``.

        Returns:
            ``(unit, i, slot)``: per game the slot of the drawn action's unit (``P`` for
            EndTurn), the action's index among that unit's, and the slot clamped to ``P - 1``
            as a ``(1, B)`` index for ``gather``.
        """
        if torch.compiler.is_compiling():
            # compiled, unit by unit: a few element-wise operations per unit that fuse into the
            # graph's loops, where a cumsum runs as a separate aten call
            n = per_unit.sum(0) + 1  # EndTurn
            r = (u.view(-1) * n).to(torch.int64)  # < n: u < 1 and n is far below 2^24
            unit, i, upto = torch.zeros_like(r), r, torch.zeros_like(r)
            for count in per_unit.unbind(0):
                upto = upto + count
                before = upto <= r  # the unit's actions all come before the r-th
                unit = unit + before
                i = i - torch.where(before, count, 0)
        else:  # eager, the fewest operations
            upto = per_unit.cumsum(0)  # (P, B) actions of the units up to each
            n = upto[-1] + 1  # EndTurn
            r = (u.view(-1) * n).to(torch.int64)
            before = upto <= r  # the units whose actions all come before the r-th
            unit = before.sum(0)  # P: EndTurn
            i = r - (before * per_unit).sum(0)
        return unit, i, unit.clamp(max=len(per_unit) - 1)[None]

    def _drawn(self, state: B, unit: torch.Tensor, action: torch.Tensor) -> torch.Tensor:
        """The sampler's result: EndTurn where ``unit`` is ``P``, 0 in finished games."""
        action = torch.where(unit == self.per_player, self.num_actions - 1, action)
        return torch.where(state.winner == PLAYING, action, 0)

    def current_player(self, state: B) -> torch.Tensor:
        """``(B,)`` the player to move."""
        return state.player

    def round_number(self, state: B) -> torch.Tensor:
        """``(B,)`` Stratega's tick (the scalar ``round_number()``)."""
        return state.tick

    def terminated(self, state: B) -> torch.Tensor:
        """``(B,)`` True once won, lost or drawn."""
        return state.winner != PLAYING

    def returns(self, state: B) -> torch.Tensor:
        """``(B, 2)`` +1 for the winner, -1 for the loser, 0 for draws and unfinished games."""
        seats = torch.arange(2, device=self.device)
        won = state.winner[:, None] == seats
        lost = (state.winner[:, None] >= 0) & ~won
        return won.to(torch.float32) - lost.to(torch.float32)

    def _observer(self, state: B, player: torch.Tensor | int | None) -> torch.Tensor:
        """``(B,)`` the observing seat (see :meth:`BatchedGame.observation`)."""
        if player is None:
            return state.player
        if isinstance(player, torch.Tensor):
            if player.shape != (state.batch_size,):
                raise ValueError(
                    f"{self.spec.name}: player must be an int or a tensor of shape "
                    f"({state.batch_size},), got shape {tuple(player.shape)}"
                )
            bad = (player < 0) | (player > 1)
            if bool(bad.any()):
                raise ValueError(f"{self.spec.name}: players must be 0 or 1")
            return player.to(self.device, torch.int64)
        if isinstance(player, bool) or player not in (0, 1):
            raise ValueError(f"{self.spec.name}: player must be 0 or 1, got {player!r}")
        return torch.full((state.batch_size,), int(player), dtype=torch.int64, device=self.device)

    def _observation_planes(
        self, state: B, observer: torch.Tensor, features: torch.Tensor
    ) -> torch.Tensor:
        """``(B, H, W, planes)``: terrain, the units' ``(B, U, F)`` features, the global planes.

        Every Stratega game's observation is laid out this way (terrain first, the round and
        the player to move last); a game only computes its own unit features.
        """
        planes = torch.cat(
            [
                self.terrain.index_select(0, state.board),
                self._paint_units(state, features),
                self._globals(state, observer)[:, None, :].expand(-1, self.cells, -1),
            ],
            dim=2,
        )
        return planes.view(state.batch_size, self.height, self.width, -1)

    def _globals(self, state: B, observer: torch.Tensor) -> torch.Tensor:
        """``(B, 2)``: the round progress and whether ``observer`` is to move (last planes)."""
        # in float64 then rounded once, as the scalar game computes it
        progress = torch.clamp(state.tick.to(torch.float64) / self.round_limit, max=1.0)
        to_move = (state.player == observer) & (state.winner == PLAYING)
        return torch.stack([progress.to(torch.float32), to_move.to(torch.float32)], dim=1)

    def _paint_units(self, state: B, features: torch.Tensor) -> torch.Tensor:
        """``(B, cells, F)``: each living unit's ``(B, U, F)`` features on its cell, 0 elsewhere."""
        count, _, width = features.shape
        out = torch.zeros(count, self.cells + 1, width, device=self.device)
        cell = torch.where(state.pos >= 0, state.pos, self.cells).long()
        out.scatter_(1, cell[:, :, None].expand(-1, -1, width), features)
        return out[:, : self.cells]

    # ----------------------------------------------------------------- scalar conversion
    def to_scalar(self, state: B, index: int) -> State:
        """Position ``index`` as a scalar state (through the scalar game's checked reader)."""
        if not 0 <= index < state.batch_size:
            raise IndexError(f"{self.spec.name}: game {index} of a batch of {state.batch_size}")
        board = int(state.board[index])
        n = int(self.present[board].sum())
        winner = int(state.winner[index])
        data: dict[str, Any] = {
            "board_index": board,
            "tick": int(state.tick[index]),
            "current_player": int(state.player[index]),
            "winner": None if winner == PLAYING else winner,
            "pos": state.pos[index, :n].tolist(),
        }
        for key in self.unit_fields:
            data[key] = getattr(state, key)[index, :n].reshape(-1).tolist()
        return self.game._state_from_dict(data)

    def from_scalar(self, states: Sequence[State]) -> B:
        """A batch of copies of scalar states of this game."""
        if not states:
            raise ValueError(f"{self.spec.name}: from_scalar needs at least one state")
        for s in states:
            if getattr(s, "game", None) is not self.game:
                raise ValueError(
                    f"{self.spec.name}: from_scalar takes states of the batched game's own "
                    f"scalar game (same object), got one of {getattr(s, 'game', None)!r}"
                )
        dicts = [s._to_dict() for s in states]
        boards = torch.tensor([d["board_index"] for d in dicts], device=self.device)
        fields = {}
        for key, per in {"pos": 1, **self.unit_fields}.items():
            rows = np.full((len(dicts), self.units * per), -1 if key == "pos" else 0, np.int64)
            for i, d in enumerate(dicts):
                rows[i, : len(d[key])] = d[key]
            shape = (len(dicts), self.units) + ((per,) if per > 1 else ())
            fields[key] = self._tensor(rows.reshape(shape)).to(
                self.field_dtypes.get(key, torch.int64)
            )
        winner = [PLAYING if d["winner"] is None else d["winner"] for d in dicts]
        return self.batch_type(
            board=boards,
            tick=torch.tensor([d["tick"] for d in dicts], device=self.device),
            player=torch.tensor([d["current_player"] for d in dicts], device=self.device),
            winner=torch.tensor(winner, device=self.device),
            **self._occupancy_field(fields["pos"]),
            **fields,
        )


def smallest_int(largest: int) -> torch.dtype:
    """The smallest signed integer type that holds ``-1 … largest``.

    A step copies every changed field of a batch whole, so the games keep the large ones
    (``occ``, per-unit fields) in the smallest type that holds their values.
    """
    return next(
        t
        for t in (torch.int8, torch.int16, torch.int32, torch.int64)
        if largest <= torch.iinfo(t).max
    )
