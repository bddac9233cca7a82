"""Positions from text and JSON: hand-made unit specs and the validated reading of saves.

:meth:`PrismataGame.position <stratagem.envs.prismata.rules.PrismataGame.position>` parses its
unit specs here, and :func:`_state_from_dict` rebuilds a saved state, checking every field
(a state read from JSON must be one the rules could have reached, or fail with
:class:`~stratagem.envs.state_json.InvalidStateError`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from stratagem.envs.prismata.cards import BASE_SET, CARDS, NUM_CARDS, CardSetError, card_by_name
from stratagem.envs.prismata.data import (
    ACTION,
    ATTACK,
    BUILD,
    C_CHARGES,
    C_HP,
    C_HP_CAP,
    C_SUPPLY,
    C_TARGET,
    CHARGES,
    CHILL,
    DEFENSE,
    DELAY,
    HP,
    LIFE,
    PHASE_NAMES,
    STATUS,
    STATUS_NAMES,
    USED,
    K,
)
from stratagem.envs.state_json import InvalidStateError

if TYPE_CHECKING:
    from stratagem.envs.prismata.rules import PrismataGame, PrismataState

_SETTINGS = {
    "hp": HP,
    "chill": CHILL,
    "build": BUILD,
    "delay": DELAY,
    "life": LIFE,
    "charges": CHARGES,
}


def _parse_unit_spec(spec: str) -> tuple[int, int, dict[int, int]]:
    """``"Drone*3:used,hp=1"`` -> (card index, count, {field: value})."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"prismata: unit spec must be a non-empty string, got {spec!r}")
    head, _, rest = spec.partition(":")
    name, star, count_text = head.partition("*")
    count = 1
    if star:
        if not count_text.strip().isdigit() or int(count_text) < 1:
            raise ValueError(f"prismata: unit spec {spec!r}: '*' needs a positive count")
        count = int(count_text)
    card = card_by_name(name.strip()).index
    settings: dict[int, int] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        if item in STATUS_NAMES:
            settings[STATUS] = STATUS_NAMES.index(item)
            continue
        key, eq, value = item.partition("=")
        if not eq or key.strip() not in _SETTINGS or not value.strip().isdigit():
            raise ValueError(
                f"prismata: unit spec {spec!r}: bad setting {item!r}; use hp=, chill=, build=, "
                f"delay=, life=, charges= with a number, or ready/used/inert"
            )
        settings[_SETTINGS[key.strip()]] = int(value)
    if settings.get(HP, 1) <= 0:
        raise ValueError(f"prismata: unit spec {spec!r}: health must be positive")
    return card, count, settings


#: Largest chill, build time, delay or lifespan a saved unit may hold: far above any card's
#: (they are at most a few turns), low enough to stay exact in the float32 observation.
_MAX_COUNTER = 1000
#: Largest amount of one resource a saved state may hold (a game gathers a few hundred).
_MAX_RESOURCE = 1_000_000


def _state_from_dict(game: PrismataGame, data: Mapping[str, Any]) -> PrismataState:
    """Rebuild and validate a state written by :meth:`PrismataState._to_dict`."""

    def bad(message: str) -> InvalidStateError:
        return InvalidStateError(f"prismata: {message}")

    def int_list(value: Any, name: str, length: int | None = None) -> list[int]:
        if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            raise bad(f"'{name}' must be a list of integers")
        if length is not None and len(value) != length:
            raise bad(f"'{name}' must have {length} entries, got {len(value)}")
        return list(value)

    names = data["cards"]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise bad("'cards' must be a list of card names")
    try:
        types = tuple(card_by_name(n).index for n in names)
    except CardSetError as exc:
        raise bad(str(exc)) from None
    if game.mode == "fixed" or game.random_count == 0:
        if tuple(sorted(types)) != game._fixed.types:  # type: ignore[union-attr]
            raise bad(f"card set {names} is not this configuration's card set")
    elif len(types) != len(BASE_SET) + game.random_count or not set(BASE_SET) <= set(types):
        raise bad(f"card set {names} is not the base set plus {game.random_count} pool cards")
    try:
        state = game.initial_state_with_cards(types)
    except CardSetError as exc:
        raise bad(str(exc)) from None
    cs = state._cs
    units = data["units"]
    live = data["live"]
    if (
        not isinstance(units, list)
        or len(units) != 2
        or not isinstance(live, list)
        or len(live) != 2
    ):
        raise bad("'units' and 'live' must hold one list per player")
    state.u = [int_list(units[p], f"units[{p}]") for p in (0, 1)]
    state.live = [int_list(live[p], f"live[{p}]") for p in (0, 1)]
    for p in (0, 1):
        u = state.u[p]
        if len(u) % K or len(u) // K > game.max_units:
            raise bad(f"units[{p}] must hold {K} integers per slot, at most {game.max_units}")
        slots = [s for s in range(len(u) // K) if u[s * K] >= 0]
        if sorted(state.live[p]) != slots:
            raise bad(f"live[{p}] does not list exactly the occupied slots of units[{p}]")
        for s in slots:
            b = s * K
            t = u[b]
            if t >= NUM_CARDS or not cs.in_game[t]:
                raise bad(f"player {p} slot {s}: card {t} is not in this game")
            if u[b + HP] <= 0 or min(u[b + 1 : b + K]) < 0 or u[b + STATUS] > USED:
                raise bad(f"player {p} slot {s}: negative or impossible unit values")
            # regained health may pass the starting health up to its cap (Xaetron: 4, then 12)
            if u[b + HP] > max(C_HP[t], C_HP_CAP[t]) or u[b + CHARGES] > C_CHARGES[t]:
                raise bad(f"player {p} slot {s}: more health or charges than a {CARDS[t].name}")
            if max(u[b + CHILL], u[b + BUILD], u[b + DELAY], u[b + LIFE]) > _MAX_COUNTER:
                raise bad(
                    f"player {p} slot {s}: chill, build, delay or lifespan over {_MAX_COUNTER}"
                )
        for s in range(len(u) // K):
            if u[s * K] < -1:
                raise bad(f"player {p} slot {s}: bad card {u[s * K]}")
            if max(map(abs, u[s * K + 1 : s * K + K])) > _MAX_COUNTER:
                raise bad(f"player {p} slot {s}: unit values over {_MAX_COUNTER}")
    state.res = int_list(data["resources"], "resources", 12)
    if min(state.res) < 0 or max(state.res) > _MAX_RESOURCE:
        raise bad(f"resources must be in 0..{_MAX_RESOURCE}")
    supply = data["supply"]
    if not isinstance(supply, list) or len(supply) != 2:
        raise bad("'supply' must hold one list per player")
    state.supply = [int_list(supply[p], f"supply[{p}]", len(cs.types)) for p in (0, 1)]
    for p in (0, 1):
        for pos, t in enumerate(cs.types):
            if not 0 <= state.supply[p][pos] <= C_SUPPLY[t]:
                raise bad(f"supply of {CARDS[t].name} for player {p} out of range")
    phase = data["phase"]
    if phase not in PHASE_NAMES:
        raise bad(f"phase {phase!r} is not one of {PHASE_NAMES}")
    state.phase = PHASE_NAMES.index(phase)
    player, turn, pending = data["current_player"], data["turn"], data["pending"]
    if player not in (0, 1):
        raise bad(f"current_player {player!r} is not 0 or 1")
    if type(turn) is not int or not 0 <= turn <= game.turn_limit:
        raise bad(f"turn {turn!r} outside 0..{game.turn_limit}")
    state.current_player, state.turn = player, turn
    if not isinstance(pending, int) or isinstance(pending, bool):
        raise bad(f"pending {pending!r} is not an integer")
    if pending >= 0 and (
        state.phase != ACTION
        or pending not in state.live[player]
        or C_TARGET[state.u[player][pending * K]] is None
    ):
        raise bad(f"pending {pending} is not a living targeting unit of the player to move")
    state.pending = pending
    frozen = data["breach_frozen"]
    if not isinstance(frozen, bool):
        raise bad("breach_frozen must be true or false")
    state.breach_frozen = frozen
    winner = data["winner"]
    if winner not in (None, -1, 0, 1) or isinstance(winner, bool):
        raise bad(f"winner {winner!r} is not null, -1, 0 or 1")
    state.winner = winner
    if winner is None and turn >= game.turn_limit:
        raise bad(f"turn {turn} reached the turn limit but the game has no result")
    if winner is not None and turn < game.turn_limit and state.live[0] and state.live[1]:
        raise bad(f"winner {winner!r} but both players still have units")
    if winner is None and state.phase == DEFENSE and state.res[6 * (1 - player) + ATTACK] <= 0:
        raise bad("defense phase without incoming attack")
    return state
