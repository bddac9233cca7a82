"""A state's JSON: writing it, and reading it back with every field's type checked.

:class:`StateJson` is a mixin of :class:`~stratagem.envs.tribes.rules.TribesState`. Reading
checks the types and lengths of the fields here and the invariants of play in
:func:`~stratagem.envs.tribes.validate.check_state`, because a state's JSON is untrusted input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from stratagem.envs.state_json import InvalidStateError, rng_from_state, rng_state
from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes.geo import _all_visible
from stratagem.envs.tribes.validate import check_state

if TYPE_CHECKING:
    from stratagem.envs.tribes.rules import TribesGame, TribesState

__all__ = ["StateJson"]


def _bad(msg: str) -> InvalidStateError:
    return InvalidStateError(f"tribes: malformed state JSON: {msg}")


def _int_list(value: Any, length: int | None, what: str) -> list[int]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise _bad(f"{what} must be a list of {length if length is not None else ''} integers")
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int):
            raise _bad(f"{what} must hold integers, got {v!r}")
    return list(value)


class StateJson:
    """The state as a JSON-ready dict and back (a mixin of ``TribesState``)."""

    __slots__ = ()
    game: TribesGame

    def _to_dict(self) -> dict[str, Any]:
        return {
            "tick": self.tick,
            "current_player": self.current_player,
            "game_over": self.game_over,
            "native": self.native,
            "ranking": None if self.ranking is None else list(self.ranking),
            "tribe_type": list(self.tribe_type),
            "terrain": self.terrain,
            "resource": self.resource,
            "building": self.building,
            "unit_at": self.unit_at,
            "tile_city": self.tile_city,
            "network": self.network,
            "temples": sorted([t, lv, turns] for t, (lv, turns) in self.temples.items()),
            "units": [[k, *v] for k, v in sorted(self.units.items())],
            "cities": [[k, *v] for k, v in sorted(self.cities.items())],
            "stars": self.stars,
            "score": self.score,
            "techs": self.techs,
            "kills": self.kills,
            "pacifist": self.pacifist,
            "result": self.result,
            "capital": self.capital,
            "tcities": self.tcities,
            "extra": self.extra,
            "connected": self.connected,
            "monuments": self.monuments,
            "met": self.met,
            "vis": ["".join(map(str, v)) for v in self.vis] if self.game.partial else None,
            "next_id": self.next_id,
            "rng": rng_state(self._rng),
        }

    @classmethod
    def _from_dict(cls, game: TribesGame, data: Mapping[str, Any]) -> TribesState:
        s = cls._empty(game)
        n = game.geo.n
        tribe_type = _int_list(data["tribe_type"], None, "tribe_type")
        nt = len(tribe_type)
        if nt != game.num_players or not all(0 <= t < len(C.TRIBES) for t in tribe_type):
            raise _bad(f"tribe_type must list {game.num_players} tribe keys")
        s.num_tribes = nt
        s.tribe_type = tuple(tribe_type)
        for key, lo, hi in (
            ("terrain", 0, 7),
            ("resource", -1, 7),
            ("building", -1, C.NUM_BUILDINGS - 1),
            ("unit_at", 0, None),
            ("tile_city", 0, None),
            ("network", 0, 1),
        ):
            values = _int_list(data[key], n, key)
            if any(v < lo or (hi is not None and v > hi) for v in values):
                raise _bad(f"{key} has a value outside {lo}..{hi}")
            setattr(s, key, values)
        for key in ("temples", "units", "cities"):
            if not isinstance(data[key], list):
                raise _bad(f"{key} must be a list")
        s.temples = {}
        for item in data["temples"]:
            t, lv, turns = _int_list(item, 3, "temple")
            s.temples[t] = (lv, turns)
        s.units = {}
        for item in data["units"]:
            values = _int_list(item, 11, "unit")
            s.units[values[0]] = values[1:]
        s.cities = {}
        for item in data["cities"]:
            if not isinstance(item, list) or len(item) != 12:
                raise _bad("a city must be a list of 12 fields")
            values = list(item)
            values[10] = _int_list(values[10], None, "city units")
            for i, v in enumerate(values):
                if i != 10 and (isinstance(v, bool) or not isinstance(v, int)):
                    raise _bad(f"city field {i} must be an integer")
            s.cities[values[0]] = values[1:]
        for key in ("stars", "score", "techs", "kills", "pacifist", "result", "capital", "met"):
            setattr(s, key, _int_list(data[key], nt, key))
        for key in ("tcities", "extra", "connected", "monuments"):
            value = data[key]
            if not isinstance(value, list) or len(value) != nt:
                raise _bad(f"{key} must hold one list per tribe")
            setattr(s, key, [_int_list(v, None, key) for v in value])
        if game.partial:
            vis = data["vis"]
            if not isinstance(vis, list) or len(vis) != nt:
                raise _bad("vis must hold one string per tribe")
            s.vis = []
            for v in vis:
                if not isinstance(v, str) or len(v) != n or set(v) - {"0", "1"}:
                    raise _bad("vis strings must be 0/1 per tile")
                s.vis.append([int(ch) for ch in v])
        else:
            s.vis = [_all_visible(n)] * nt
        for key in ("tick", "current_player", "next_id"):
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise _bad(f"{key} must be a non-negative integer")
            setattr(s, key, value)
        if s.current_player >= nt:
            raise _bad("current_player out of range")
        for key in ("game_over", "native"):
            if not isinstance(data[key], bool):
                raise _bad(f"{key} must be true or false")
            setattr(s, key, data[key])
        s.ranking = None if data["ranking"] is None else tuple(_int_list(data["ranking"], nt, "r"))
        if data["rng"] is None:
            raise _bad("rng must hold the state of the game's random generator")
        s._rng = rng_from_state(data["rng"], "rng", game.spec.name)
        check_state(s)
        return s
