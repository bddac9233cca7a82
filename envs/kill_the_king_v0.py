"""PettingZoo entry module for Kill The King: ``env()`` (wrapped) and ``raw_env()``.

Example: ``env = kill_the_king_v0.env(map="kwah:3")``, then the agent loop shown in
:mod:`stratagem.envs.aec`.
"""

from stratagem.envs.aec import make_env_functions

__all__ = ["env", "raw_env"]

GAME = "kill_the_king"

env, raw_env = make_env_functions(GAME)
