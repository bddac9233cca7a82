"""stratagem: turn-based strategy games for AI research.

Areas (each a subpackage mapped from a top-level folder of the repository):

* :mod:`stratagem.envs`: the forward-model contract, the game registry and the games;
* :mod:`stratagem.wrappers`: the Gymnasium single-agent view and other wrappers;
* :mod:`stratagem.baselines`: agents (random, rule-based, search planners) and tournaments;
* :mod:`stratagem.training`: AlphaZero-style self-play and masked PPO.

Importing :mod:`stratagem` registers the Gymnasium ids (``stratagem/KillTheKing-v0``, ...), so
``import stratagem; gym.make("stratagem/KillTheKing-v0")`` works, and names the trained-network
agents of :mod:`stratagem.training` (``alphazero``, ``ppo``) to the agent registry. This package
is the top layer, the only one that may know every area, and Python runs it before any of its
submodules: whatever a process imports first, both are in place.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("stratagem")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0+unknown"


def _register_gymnasium() -> None:
    from stratagem.wrappers.gym_env import register_gymnasium_envs

    register_gymnasium_envs()


def _name_training_agents() -> None:
    """Name training's agent table; it is imported (without torch) when agents are first named."""
    from stratagem.baselines.agent import register_agent_table

    register_agent_table("stratagem.training:AGENTS")


_register_gymnasium()
_name_training_agents()
