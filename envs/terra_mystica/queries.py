"""Questions about a position that agents, replays and renderers ask.

:class:`StateQueries` is a mixin of
:class:`~stratagem.envs.terra_mystica.rules.TerraMysticaState`: seats and factions,
resources and VP, what the player to move is deciding, the leech offer being decided, and
the end-of-game facts of tournament tables. None of them changes the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stratagem.envs.terra_mystica.context import (
    ACTION,
    LEECH,
    PHASE_NAMES,
    X_ACTIONS,
    X_BRIDGE,
    X_CULT,
    X_FAV,
    X_FREE_D,
    X_FREE_TF,
    X_FREE_TP,
    X_SPADES,
    X_TCULT,
    X_TW,
    X_WP,
)
from stratagem.envs.terra_mystica.factions import FACTION_NAMES, faction_id
from stratagem.envs.terra_mystica.fields import CULT, NB, P1, P2, P3, VP, C, P, W
from stratagem.envs.terra_mystica.scoring import network_size
from stratagem.envs.terra_mystica.tiles import SCORING_NAMES

if TYPE_CHECKING:
    from stratagem.envs.terra_mystica.rules import TerraMysticaGame

__all__ = ["StateQueries"]


class StateQueries:
    """Read-only facts of a position (a mixin of ``TerraMysticaState``)."""

    __slots__ = ()
    game: TerraMysticaGame

    def faction_name(self, player: int) -> str:
        """Engine name of a seat's faction."""
        return FACTION_NAMES[self.fac[player]]

    def seat_of(self, faction: str) -> int:
        """Seat playing ``faction`` (engine name).

        Raises:
            ValueError: If that faction is not in the game.
        """
        fid = faction_id(faction)
        if fid not in self.fac:
            raise ValueError(f"terra_mystica: {faction} is not in this game")
        return self.fac.index(fid)

    def resources(self, player: int) -> dict[str, Any]:
        """A player's resources as the game logs show them."""
        d = self.pd[player]
        return {
            "VP": d[VP],
            "C": d[C],
            "W": d[W],
            "P": d[P],
            "PW": (d[P1], d[P2], d[P3]),
            "CULT": tuple(d[CULT : CULT + 4]),
        }

    def vp(self) -> list[int]:
        """Current VP of every player."""
        return [d[VP] for d in self.pd]

    def town_tiles_left(self) -> int:
        """Town tiles in the supply not already owed to a player."""
        return sum(self.tw_supply) - (self.ctx[X_TW] if self.phase == ACTION else 0)

    def leech_order(self, p: int) -> list[int]:
        """Other players in the engine's current order, starting after ``p``."""
        if self.game.turn_order == "variable":
            passed = set(self.pass_order)
            raw = [q for q in self.order if q not in passed] + list(self.pass_order)
        else:
            raw = list(range(self.n))
        i = raw.index(p)
        return raw[i + 1 :] + raw[:i]

    def decision(self) -> str:
        """What the player to move is deciding, in words."""
        if self.phase != ACTION:
            return PHASE_NAMES[self.phase]
        x = self.ctx
        if x[X_TCULT]:
            return "town cult step"
        if x[X_WP]:
            return "darklings conversion"
        if x[X_TW] or x[X_FAV]:
            return "tile choice"
        if x[X_CULT]:
            return "cult track"
        if x[X_BRIDGE]:
            return "bridge"
        if x[X_SPADES] or x[X_FREE_TF] or x[X_FREE_D] or x[X_FREE_TP]:
            return "spades"
        if x[X_ACTIONS]:
            return "main action"
        return "end of turn"

    def leech_offer(self) -> tuple[int, int, int] | None:
        """(receiver, builder, power offered) being decided, in the leech phase."""
        if self.phase != LEECH:
            return None
        q, frm, amount, _ = self.leech[0]
        return q, frm, amount

    def network_sizes(self) -> list[int]:
        """Largest connected network of every player (as final scoring counts it)."""
        return [network_size(self, p) for p in range(self.n)]

    def end_statistics(self) -> dict[str, Any]:
        """Per-player facts of a finished game, for tournament tables (VP, network, buildings)."""
        return {
            "vp": [float(d[VP]) for d in self.pd],
            "network": [float(x) for x in self.network_sizes()],
            "buildings": [float(sum(d[NB + 1 : NB + 6])) for d in self.pd],
        }

    def score_tile(self, round_: int | None = None) -> str:
        """Name of the scoring tile of a round (the current one by default)."""
        r = self.round if round_ is None else round_
        if not 1 <= r <= 6:
            raise ValueError(f"terra_mystica: round {r} has no scoring tile")
        return SCORING_NAMES[self.score_tiles[r - 1]]
