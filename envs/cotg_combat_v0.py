"""PettingZoo entry module for CotG combat: ``env()`` (wrapped) and ``raw_env()``.

Example: ``env = cotg_combat_v0.env(units=9)``, then the agent loop shown in
:mod:`stratagem.envs.aec`.
"""

from stratagem.envs.aec import make_env_functions

__all__ = ["env", "raw_env"]

GAME = "cotg_combat"

env, raw_env = make_env_functions(GAME)
