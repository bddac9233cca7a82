"""PettingZoo entry module for Push Them All: ``env()`` (wrapped) and ``raw_env()``.

Example: ``env = push_them_all_v0.env(map="pta")``, then the agent loop shown in
:mod:`stratagem.envs.aec`.
"""

from stratagem.envs.aec import make_env_functions

__all__ = ["env", "raw_env"]

GAME = "push_them_all"

env, raw_env = make_env_functions(GAME)
