"""PettingZoo entry module for Prismata: ``env()`` (wrapped) and ``raw_env()``.

Example: ``env = prismata_v0.env(cards="random:8")``, then the agent loop shown in
:mod:`stratagem.envs.aec`.
"""

from stratagem.envs.aec import make_env_functions

__all__ = ["env", "raw_env"]

GAME = "prismata"

env, raw_env = make_env_functions(GAME)
