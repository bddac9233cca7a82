"""PettingZoo entry module for Terra Mystica: ``env()`` (wrapped) and ``raw_env()``.

Example: ``env = terra_mystica_v0.env(num_players=2)``, then the agent loop shown in
:mod:`stratagem.envs.aec`.
"""

from stratagem.envs.aec import make_env_functions

__all__ = ["env", "raw_env"]

GAME = "terra_mystica"

env, raw_env = make_env_functions(GAME)
