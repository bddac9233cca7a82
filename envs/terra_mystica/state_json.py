"""A state's JSON: writing it, and reading it back with every field's type checked.

:class:`StateJson` is a mixin of
:class:`~stratagem.envs.terra_mystica.rules.TerraMysticaState`. Reading checks the types,
lengths and ranges of the fields here and the invariants of play in
:func:`~stratagem.envs.terra_mystica.validate.check_state`, because a state's JSON is
untrusted input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from stratagem.envs.state_json import InvalidStateError
from stratagem.envs.terra_mystica.context import CTX_SIZE, OVER
from stratagem.envs.terra_mystica.factions import FACTIONS
from stratagem.envs.terra_mystica.fields import PLAYER_SIZE
from stratagem.envs.terra_mystica.map import BRIDGE_SLOTS, NUM_CELLS
from stratagem.envs.terra_mystica.validate import check_state

if TYPE_CHECKING:
    from stratagem.envs.terra_mystica.rules import TerraMysticaGame, TerraMysticaState

__all__ = ["StateJson"]


class StateJson:
    """The state as a JSON-ready dict and back (a mixin of ``TerraMysticaState``)."""

    __slots__ = ()
    game: TerraMysticaGame

    _LIST_FIELDS = (
        "fac",
        "terrain",
        "bld",
        "own",
        "town",
        "mine",
        "bown",
        "score_tiles",
        "bon_game",
        "bon_supply",
        "bon_coins",
        "fav_supply",
        "tw_supply",
        "cult_spaces",
        "order",
        "pass_order",
        "lstat",
        "inc_queue",
        "inc_spades",
        "ctx",
        "build_locs",
    )
    _INT_FIELDS = ("bmask", "mriv", "act_used", "round", "lid", "cpend", "phase", "act")

    def _to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: list(getattr(self, k)) for k in self._LIST_FIELDS}
        out.update({k: getattr(self, k) for k in self._INT_FIELDS})
        out["pd"] = [list(d) for d in self.pd]
        out["leech"] = [list(o) for o in self.leech]
        out["late"] = [list(o) for o in self.late]
        out["lstats"] = [list(o) for o in self.lstats]
        out["setup_queue"] = [list(x) for x in self.setup_queue]
        out["current_player"] = self.current_player
        out["final"] = self.final
        if self.dropped:  # only a replay drops a player: other states keep their form
            out["dropped"] = list(self.dropped)
        return out

    @classmethod
    def _from_dict(cls, game: TerraMysticaGame, data: Mapping[str, Any]) -> TerraMysticaState:
        st = game.new_initial_state(0)
        n = game.num_players

        def ints(value: Any, name: str, length: int | None = None) -> list[int]:
            if not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value
            ):
                raise InvalidStateError(f"terra_mystica: '{name}' must be a list of integers")
            if length is not None and len(value) != length:
                raise InvalidStateError(
                    f"terra_mystica: '{name}' must have {length} entries, not {len(value)}"
                )
            return list(value)

        lengths = {
            "fac": n,
            "terrain": NUM_CELLS,
            "bld": NUM_CELLS,
            "own": NUM_CELLS,
            "town": NUM_CELLS,
            "mine": n,
            "bown": len(BRIDGE_SLOTS),
            "score_tiles": 6,
            "bon_game": 10,
            "bon_supply": 10,
            "bon_coins": 10,
            "fav_supply": 12,
            "tw_supply": 8,
            "cult_spaces": 16,
            "lstat": 3,
            "inc_spades": n,
            "ctx": CTX_SIZE,
        }
        for key in cls._LIST_FIELDS:
            value = ints(data[key], key, lengths.get(key))
            setattr(st, key, value if key == "ctx" else tuple(value))
        for key in cls._INT_FIELDS:
            value = data[key]
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidStateError(f"terra_mystica: '{key}' must be an integer")
            setattr(st, key, value)
        pd = data["pd"]
        if not isinstance(pd, list) or len(pd) != n:
            raise InvalidStateError(f"terra_mystica: 'pd' must hold {n} player records")
        st.pd = [ints(d, "pd", PLAYER_SIZE) for d in pd]
        for key in ("leech", "setup_queue"):
            if not isinstance(data[key], list):
                raise InvalidStateError(f"terra_mystica: '{key}' must be a list")
        st.leech = tuple(tuple(ints(o, "leech", 4)) for o in data["leech"])
        # absent from the states saved before a replay could postpone an offer
        for key in ("late", "lstats"):
            if not isinstance(data.get(key, []), list):
                raise InvalidStateError(f"terra_mystica: '{key}' must be a list")
        st.late = tuple(tuple(ints(o, "late", 4)) for o in data.get("late", []))
        st.lstats = tuple(tuple(ints(o, "lstats", 3)) for o in data.get("lstats", []))
        st.setup_queue = tuple(tuple(ints(x, "setup_queue", 2)) for x in data["setup_queue"])
        st.dropped = tuple(ints(data.get("dropped", []), "dropped"))
        if len(set(st.dropped)) != len(st.dropped) or any(not 0 <= q < n for q in st.dropped):
            raise InvalidStateError("terra_mystica: 'dropped' must list distinct seats")
        if not all(0 <= f < len(FACTIONS) for f in st.fac):
            raise InvalidStateError("terra_mystica: faction id out of range")
        if not 0 <= st.phase <= OVER:
            raise InvalidStateError(f"terra_mystica: phase {st.phase} out of range")
        if not 0 <= st.round <= 6:
            raise InvalidStateError(f"terra_mystica: round {st.round} out of range 0..6")
        if any(t not in (-1, *range(8)) for t in st.terrain):
            raise InvalidStateError("terra_mystica: terrain value out of range")
        if any(not 0 <= b <= 5 for b in st.bld) or any(not -1 <= o < n for o in st.own):
            raise InvalidStateError("terra_mystica: building or owner out of range")
        if sorted(st.order) != list(range(n)):
            raise InvalidStateError("terra_mystica: 'order' must be a permutation of the seats")
        player = data["current_player"]
        if type(player) is not int or not 0 <= player < n:
            raise InvalidStateError(f"terra_mystica: current_player {player!r} out of range")
        st.current_player = player
        final = data["final"]
        if final is not None:
            final = ints(final, "final", n)
        st.final = final
        st.F = [FACTIONS[i] for i in st.fac]
        st._legal = None
        st._trace = None
        for p in range(n):
            mask = sum(1 << c for c in range(NUM_CELLS) if st.own[c] == p and st.bld[c])
            if mask != st.mine[p]:
                raise InvalidStateError(f"terra_mystica: building mask of player {p} is wrong")
        check_state(st)
        return st
