"""PettingZoo entry module for Two Kingdoms: ``env()`` (wrapped) and ``raw_env()``.

Example: ``env = two_kingdoms_v0.env(research=True)``, then the agent loop shown in
:mod:`stratagem.envs.aec`.
"""

from stratagem.envs.aec import make_env_functions

__all__ = ["env", "raw_env"]

GAME = "two_kingdoms"

env, raw_env = make_env_functions(GAME)
