"""Tribes compiled with numba: legal lists, actions and whole random games in machine code.

A second implementation of the rules of :mod:`stratagem.envs.tribes` (issue 18), for the hot
loops of random playouts. The readable Python rules stay the one definition:
``tests/test_tribes_compiled.py`` checks, at every decision of random games, that both give the
same position (:func:`encode` of the Python state equals the compiled buffer, and
:func:`decode` of the buffer equals the state), the same legal
action list and the same returns; the compiled engine draws from the same numpy generator
(:mod:`.rng`), so games that draw (ruins, explorers, captures, the final tie-break) stay
identical.

Supported: full observability (the paper's), every mode, 2-4 tribes, every tribe and level.
Partial observability is refused (``ValueError``) at the boundary.

Needs numba (``pip install "stratagem[fast]"``); importing :mod:`stratagem.envs.tribes` never
imports it. Functions are compiled on first use and cached on disk (``NUMBA_CACHE_DIR``).

Example::

    from stratagem.envs import make_game
    from stratagem.envs.tribes.compiled import play_random_games

    results = play_random_games(make_game("tribes"), 100, seed=0)
    print(results.returns.mean(axis=0))
"""

from __future__ import annotations

try:
    import numba  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise ImportError(
        'stratagem.envs.tribes.compiled needs numba: pip install "stratagem[fast]"'
    ) from exc

from stratagem.envs.compiled_common import drop_stale_code
from stratagem.envs.tribes.compiled import api as _api
from stratagem.envs.tribes.compiled import capture as _capture
from stratagem.envs.tribes.compiled import cities as _cities
from stratagem.envs.tribes.compiled import engine as _engine
from stratagem.envs.tribes.compiled import legal as _legal
from stratagem.envs.tribes.compiled import movement as _movement
from stratagem.envs.tribes.compiled import network as _network
from stratagem.envs.tribes.compiled import play as _play
from stratagem.envs.tribes.compiled import units as _units
from stratagem.envs.tribes.compiled.api import *  # noqa: F403 (the boundary's public names)
from stratagem.envs.tribes.compiled.tables import SOURCE_DIGEST as _DIGEST

drop_stale_code(
    (_engine, _units, _network, _cities, _capture, _movement, _legal, _play),
    _DIGEST,
    __name__,
)

__all__ = list(_api.__all__)
