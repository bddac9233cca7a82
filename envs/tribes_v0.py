"""PettingZoo entry module for Tribes: ``env()`` (wrapped) and ``raw_env()``.

Example: ``env = tribes_v0.env(num_players=2, mode="capitals")``, then the agent loop shown in
:mod:`stratagem.envs.aec`.
"""

from stratagem.envs.aec import make_env_functions

__all__ = ["env", "raw_env"]

GAME = "tribes"

env, raw_env = make_env_functions(GAME)
