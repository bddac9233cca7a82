"""Reading, writing and checking saved states (a state's JSON).

Saved positions arrive from users' files and from the viewer, so a state's JSON is untrusted
input: it is parsed and checked here before anything walks it. This module holds what every game
shares for that: :class:`InvalidStateError`; :func:`load_state_json`, which parses the text and
refuses what no state contains (invalid JSON, ``NaN``, nesting deeper than
:data:`MAX_JSON_DEPTH`); the ``expect_*`` field checks, which name the bad field; the generator
helpers (:func:`rng_state`, :func:`rng_from_state`, :func:`clone_rng`) that write and rebuild a
state's random stream; and :func:`untrusted_config` / :func:`refuse_file_option`, which stop a
state's JSON from opening a file of its choosing.

:mod:`stratagem.envs.core` builds ``Game.state_from_json`` and ``State.to_json`` on these and
re-exports the public names, so ``from stratagem.envs.core import load_state_json`` keeps working.
The checks every rebuilt state must pass (seat, result, exact round trip: ``_check_restored``)
stay in core beside ``Game.state_from_json``: they use the :class:`~stratagem.envs.core.State`
API and :class:`~stratagem.envs.core.TwoPlayerState`, not the JSON text. Each game's own reader
and writer is its ``state_json``/``validate`` module (``stratagem.envs.tribes.state_json``, ...).
This module imports only the standard library and numpy (never :mod:`stratagem.envs.core`), so
the two cannot import each other in a cycle; like the rest of the rules cores it imports no
gymnasium, pettingzoo or torch.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import numpy as np

__all__ = [
    "MAX_JSON_DEPTH",
    "InvalidStateError",
    "clone_rng",
    "expect_bool",
    "expect_int",
    "expect_int_list",
    "expect_list",
    "load_state_json",
    "refuse_file_option",
    "rng_from_state",
    "rng_state",
    "untrusted_config",
]


class InvalidStateError(ValueError):
    """Raised when a serialized state (JSON) is malformed or belongs to another game."""


#: Deepest nesting of lists and objects a state's JSON may have (real states use at most 5);
#: deeper text is refused before anything walks it, so no reader can hit the recursion limit.
MAX_JSON_DEPTH = 32

_UNTRUSTED: ContextVar[bool] = ContextVar("stratagem_untrusted_config", default=False)


@contextmanager
def untrusted_config() -> Iterator[None]:
    """Build games from configuration read from untrusted input inside this block.

    Inside it, :func:`refuse_file_option` raises: a game option naming a file (a map path) is
    refused, so that loading a state's JSON never opens a file the JSON chose. Registered map
    names and inline layouts stay allowed: they read only the package's own data.
    """
    token = _UNTRUSTED.set(True)
    try:
        yield
    finally:
        _UNTRUSTED.reset(token)


def refuse_file_option(game: str, option: str, value: str) -> None:
    """Raise :class:`InvalidStateError` if ``value`` (a file path) comes from untrusted input.

    Games call it before opening a file named by an option, so the refusal happens before any
    file system access (not even an existence check).
    """
    if _UNTRUSTED.get():
        raise InvalidStateError(
            f"{game}: {option} {value!r} is a file path, and a state's JSON is untrusted: "
            "state_from_json(text) opens no file. Pass trusted=True for JSON you wrote "
            "yourself, or build the game and call game.state_from_json(text)"
        )


def load_state_json(text: Any, where: str) -> dict[str, Any]:
    """Parse a state's JSON text into its top-level object, refusing what no state contains.

    Refused, as :class:`InvalidStateError`: text that is not a ``str``/``bytes``, invalid JSON,
    ``NaN``/``Infinity`` (not JSON, though Python writes them), numbers Python will not convert,
    nesting deeper than :data:`MAX_JSON_DEPTH`, and a top level that is not an object.
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise InvalidStateError(f"{where}: state JSON must be text, got {type(text).__name__}")

    def no_constant(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON number")

    try:
        data = json.loads(text, parse_constant=no_constant)
    except RecursionError:
        raise InvalidStateError(
            f"{where}: state JSON is nested deeper than {MAX_JSON_DEPTH} levels"
        ) from None
    except (ValueError, TypeError, UnicodeDecodeError) as exc:  # JSONDecodeError is a ValueError
        raise InvalidStateError(f"{where}: state is not valid JSON: {exc}") from exc
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (list, dict)):
            if depth > MAX_JSON_DEPTH:
                raise InvalidStateError(
                    f"{where}: state JSON is nested deeper than {MAX_JSON_DEPTH} levels"
                )
            items = value.values() if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items)
        elif isinstance(value, float) and not np.isfinite(value):
            raise InvalidStateError(f"{where}: state JSON holds a non-finite number")
    if not isinstance(data, dict):
        raise InvalidStateError(f"{where}: state JSON must be an object")
    return data


def _brief(value: Any, limit: int = 60) -> str:
    """``repr`` of a value read from JSON, cut short for error messages."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def expect_int(
    value: Any, field: str, lo: int | None = None, hi: int | None = None, *, game: str
) -> int:
    """``value`` if it is a JSON integer (not a bool, not a float) within ``lo..hi``.

    Raises:
        InvalidStateError: Naming ``field`` and what was found.
    """
    if type(value) is not int or (lo is not None and value < lo) or (hi is not None and value > hi):
        if lo is not None and hi is not None:
            want = f"an integer in {lo}..{hi}"
        elif lo is not None:
            want = f"an integer >= {lo}"
        elif hi is not None:
            want = f"an integer <= {hi}"
        else:
            want = "an integer"
        raise InvalidStateError(f"{game}: state field {field} must be {want}, got {_brief(value)}")
    return value


def expect_bool(value: Any, field: str, *, game: str) -> bool:
    """``value`` if it is ``true`` or ``false``, else :class:`InvalidStateError`."""
    if type(value) is not bool:
        raise InvalidStateError(
            f"{game}: state field {field} must be true or false, got {_brief(value)}"
        )
    return value


def expect_list(value: Any, field: str, length: int | None = None, *, game: str) -> list[Any]:
    """``value`` if it is a JSON list (of ``length`` items when given)."""
    if not isinstance(value, list) or (length is not None and len(value) != length):
        want = "a list" if length is None else f"a list of {length} items"
        raise InvalidStateError(f"{game}: state field {field} must be {want}, got {_brief(value)}")
    return value


def expect_int_list(
    value: Any,
    field: str,
    length: int | None = None,
    lo: int | None = None,
    hi: int | None = None,
    *,
    game: str,
) -> list[int]:
    """A copy of ``value`` if it is a list (of ``length``) of integers within ``lo..hi``."""
    items = expect_list(value, field, length, game=game)
    for i, item in enumerate(items):
        expect_int(item, f"{field}[{i}]", lo, hi, game=game)
    return list(items)


def rng_state(rng: np.random.Generator | None) -> dict[str, Any] | None:
    """JSON-serializable state of a generator (``None`` passes through)."""
    return None if rng is None else rng.bit_generator.state


#: Bit generators a state's JSON may name: those whose state is plain integers (numpy's default
#: ``PCG64`` and its ``DXSM`` variant). Nothing else is looked up on the JSON's say.
_JSON_BIT_GENERATORS = {"PCG64": np.random.PCG64, "PCG64DXSM": np.random.PCG64DXSM}


def rng_from_state(
    data: Any, field: str = "rng", game: str = "state"
) -> np.random.Generator | None:
    """Rebuild a generator written by :func:`rng_state` (``None`` passes through).

    Raises:
        InvalidStateError: Naming ``field``, unless ``data`` is exactly a state that
            :func:`rng_state` writes: a known bit generator, integers in range, no other keys.
    """
    if data is None:
        return None
    if not isinstance(data, dict):
        raise InvalidStateError(f"{game}: state field {field} must be a generator state object")
    name = data.get("bit_generator")
    bit_gen_cls = _JSON_BIT_GENERATORS.get(name) if isinstance(name, str) else None
    if bit_gen_cls is None:
        raise InvalidStateError(
            f"{game}: state field {field}.bit_generator must be one of "
            f"{', '.join(_JSON_BIT_GENERATORS)}, got {_brief(name)}"
        )
    inner = data.get("state")
    if set(data) != {"bit_generator", "state", "has_uint32", "uinteger"} or not (
        isinstance(inner, dict) and set(inner) == {"state", "inc"}
    ):
        raise InvalidStateError(
            f"{game}: state field {field} must hold bit_generator, state {{state, inc}}, "
            "has_uint32 and uinteger"
        )
    expect_int(inner["state"], f"{field}.state.state", 0, (1 << 128) - 1, game=game)
    if expect_int(inner["inc"], f"{field}.state.inc", 0, (1 << 128) - 1, game=game) % 2 == 0:
        raise InvalidStateError(f"{game}: state field {field}.state.inc must be odd (PCG streams)")
    expect_int(data["has_uint32"], f"{field}.has_uint32", 0, 1, game=game)
    expect_int(data["uinteger"], f"{field}.uinteger", 0, (1 << 32) - 1, game=game)
    bit_gen = bit_gen_cls()
    try:
        bit_gen.state = dict(data)
    except (TypeError, ValueError, OverflowError) as exc:
        raise InvalidStateError(
            f"{game}: state field {field} is not a generator state: {exc}"
        ) from exc
    if bit_gen.state != data:
        raise InvalidStateError(
            f"{game}: state field {field} is not a state its generator can be in"
        )
    return np.random.Generator(bit_gen)


def clone_rng(rng: np.random.Generator | None) -> np.random.Generator | None:
    """Copy of a generator that continues the same stream independently."""
    if rng is None:
        return None
    bit_gen = type(rng.bit_generator)()
    bit_gen.state = rng.bit_generator.state
    return np.random.Generator(bit_gen)


def _jsonable(value: Any) -> Any:
    """Round-trip ``value`` through JSON so that tuples compare equal to lists."""
    return json.loads(json.dumps(value))
