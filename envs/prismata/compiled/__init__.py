"""Prismata compiled with numba: whole random games in machine code (issue 18).

A second implementation of the rules of :mod:`stratagem.envs.prismata`, for the hot loops of
random playouts: ``play_random_games`` plays whole games of the Random bot (``prismata_random``)
or of uniformly random actions without a Python object per step. The readable Python rules stay
the one definition: ``tests/test_prismata_compiled.py`` checks, over thousands of random games of
every card of the pool, that both give the same states, legal action lists and returns at every
decision, and that the compiled Random bot takes the Python agent's actions given the same draws.

Positions are flat int64 arrays (:mod:`.layout`); the step-level functions (``encode``,
``decode``, ``legal_actions``, ``apply``, ``returns``) check their input, since compiled code
does not.

Needs numba (``pip install "stratagem[fast]"``); importing :mod:`stratagem.envs.prismata` never
imports it. Functions are compiled on first use and cached on disk (``NUMBA_CACHE_DIR``).

Example::

    from stratagem.envs import make_game
    from stratagem.envs.prismata.compiled import play_random_games

    results = play_random_games(make_game("prismata", cards="base"), 1000, seed=0)
    print(results.returns.mean(axis=0))
"""

from __future__ import annotations

try:
    import numba  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise ImportError(
        'stratagem.envs.prismata.compiled needs numba: pip install "stratagem[fast]"'
    ) from exc

from stratagem.envs.compiled_common import drop_stale_code
from stratagem.envs.prismata.compiled import actions as _actions
from stratagem.envs.prismata.compiled import api as _api
from stratagem.envs.prismata.compiled import bot as _bot
from stratagem.envs.prismata.compiled import engine as _engine
from stratagem.envs.prismata.compiled import phases as _phases
from stratagem.envs.prismata.compiled.api import *  # noqa: F403 (the boundary's public names)
from stratagem.envs.prismata.compiled.tables import SOURCE_DIGEST as _DIGEST

# numba's cache is keyed per file: drop machine code baked from older sources (see
# ``stratagem.envs.compiled_common``).
drop_stale_code((_engine, _phases, _actions, _bot), _DIGEST, __name__)

__all__ = list(_api.__all__)
