"""stratagem: turn-based strategy games for AI research.

Areas (each a subpackage mapped from a top-level folder of the repository):

* :mod:`stratagem.envs`: the forward-model contract, the game registry and the games;
* :mod:`stratagem.wrappers`: the Gymnasium single-agent view and other wrappers;
* :mod:`stratagem.baselines`: agents (random, rule-based, search planners) and tournaments;
* :mod:`stratagem.training`: AlphaZero-style self-play and masked PPO.

Importing :mod:`stratagem` registers the Gymnasium ids (``stratagem/KillTheKing-v0``, ...), so
``import stratagem; gym.make("stratagem/KillTheKing-v0")`` works.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("stratagem")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0+unknown"


def _register_gymnasium() -> None:
    from stratagem.wrappers.gym_env import register_gymnasium_envs

    register_gymnasium_envs()


_register_gymnasium()
