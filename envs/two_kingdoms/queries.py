"""Questions about a Two Kingdoms position that agents, heuristics and tables ask.

:class:`TwoKingdomsQueries` is a mixin of
:class:`~stratagem.envs.two_kingdoms.rules.TwoKingdomsState`: entity snapshots, the players'
resources and research, counts by type and the end-of-game facts of tournament tables. None
of them changes the state, so they stay apart from the forward model's ``apply``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from stratagem.envs.two_kingdoms.entities import (
    CITY,
    GOLD_VEIN,
    KING,
    RESEARCHED,
    UNIT_NAMES,
    WARRIOR,
    WORKER,
    UnitView,
)

if TYPE_CHECKING:
    from stratagem.envs.stratega_state import BoardFacts

__all__ = ["TwoKingdomsQueries"]


class TwoKingdomsQueries:
    """Read-only facts of a position (a mixin of ``TwoKingdomsState``)."""

    __slots__ = ()
    _s: BoardFacts
    _type: list[int]
    _owner: list[int]
    _pos: list[int]
    _hp: list[int]
    _mp: list[int]
    _last: list[int]
    _gold: list[int]
    _prod: list[int]
    _score: list[int]
    _mined: list[int]
    _mining: list[int]
    tick: int
    rounds_played: Callable[[], int]

    def unit(self, uid: int) -> UnitView:
        """Snapshot of entity ``uid`` (removed entities have ``x = y = -1``)."""
        p = self._pos[uid]
        y, x = divmod(p, self._s.width) if p >= 0 else (-1, -1)
        t = self._type[uid]
        vein = t == GOLD_VEIN
        return UnitView(
            uid,
            t,
            self._owner[uid],
            x,
            y,
            0 if vein else self._hp[uid],
            self._hp[uid] if vein else 0,
            self._mp[uid],
            t in (KING, WARRIOR, WORKER) and self.tick - self._last[uid] >= 1,
        )

    def units(self, player: int | None = None) -> list[UnitView]:
        """Living entities in creation order: of one player, or all (gold veins included)."""
        return [
            self.unit(u)
            for u, p in enumerate(self._pos)
            if p >= 0 and (player is None or self._owner[u] == player)
        ]

    @property
    def num_entities(self) -> int:
        """Entities created so far, removed ones included (the board's plus every spawn)."""
        return len(self._type)

    def veins(self) -> list[UnitView]:
        """The gold veins in creation order."""
        return [self.unit(u) for u, t in enumerate(self._type) if t == GOLD_VEIN]

    def city(self, player: int) -> UnitView | None:
        """``player``'s (first) living City, if any."""
        for u, t in enumerate(self._type):
            if t == CITY and self._owner[u] == player and self._pos[u] >= 0:
                return self.unit(u)
        return None

    def gold(self, player: int) -> int:
        """``player``'s Gold."""
        return self._gold[player]

    def prod(self, player: int) -> int:
        """``player``'s Prod."""
        return self._prod[player]

    def score(self, player: int) -> int:
        """``player``'s Score (+2 a spawn, +10 for Mining)."""
        return self._score[player]

    def mined(self, player: int) -> int:
        """Gold mined by ``player`` so far (the veins' RecordMinedGold counters)."""
        return self._mined[player]

    def mining_researched(self, player: int) -> bool:
        """True once ``player`` has researched Mining (only with the ``research`` option)."""
        return self._mining[player] == RESEARCHED

    def researching(self, player: int) -> bool:
        """True while ``player``'s Mining research is under way."""
        return self._mining[player] > 0

    def count(self, player: int, unit_type: int) -> int:
        """Number of living entities of ``unit_type`` owned by ``player``."""
        return sum(
            1
            for u, t in enumerate(self._type)
            if t == unit_type and self._owner[u] == player and self._pos[u] >= 0
        )

    def end_statistics(self) -> dict[str, Any]:
        """Rounds played, and per player: warriors and workers left, King's health, gold.

        Rounds count as ``max_rounds`` does (:meth:`rounds_played`): a drawn game reports
        ``max_rounds``, not the tick, which ends one past it.
        """
        units = [self.units(p) for p in (0, 1)]
        return {
            "rounds": float(self.rounds_played()),
            "warriors": [float(self.count(p, WARRIOR)) for p in (0, 1)],
            "workers": [float(self.count(p, WORKER)) for p in (0, 1)],
            "king_health": [float(sum(x.health for x in u if x.type == KING)) for u in units],
            "gold": [float(self.gold(p)) for p in (0, 1)],
        }

    def unit_type_name(self, uid: int) -> str:
        """Type name of entity ``uid`` (``"city"``, ``"king"``, ...)."""
        return UNIT_NAMES[self._type[uid]]
