"""Statistical forward planners over the forward-model contract: OSLA, MC, MCTS, MCTS_u, RHEA.

Every planner works on every game through :class:`~stratagem.envs.core.State` alone, spends a
budget of forward-model calls (``apply``) per decision as the papers count it, backs values up
per player, and is reproducible given the generator passed to ``act()``. They are registered as
agents (``make_agent("mcts:budget=2000,c=1.414", game)``), together with the papers' presets of
``presets.toml`` (``tribes_mcts``, ``scsa_ktk_mcts_u``, ...).
"""

from stratagem.baselines.agent import register_agent
from stratagem.baselines.search.common import SearchAgent, SearchStats, end_turn_action
from stratagem.baselines.search.config import SearchConfig
from stratagem.baselines.search.mc import MCAgent
from stratagem.baselines.search.mcts import MCTSAgent, Node
from stratagem.baselines.search.mcts_u import MCTSUnitAgent
from stratagem.baselines.search.osla import OSLAAgent
from stratagem.baselines.search.presets import (
    PACKAGED_PRESETS,
    load_agent_file,
    register_presets,
    spec_string,
)
from stratagem.baselines.search.rhea import RHEAAgent

__all__ = [
    "PACKAGED_PRESETS",
    "MCAgent",
    "MCTSAgent",
    "MCTSUnitAgent",
    "Node",
    "OSLAAgent",
    "RHEAAgent",
    "SearchAgent",
    "SearchConfig",
    "SearchStats",
    "end_turn_action",
    "load_agent_file",
    "spec_string",
]

register_agent("osla", OSLAAgent, "one-step look-ahead over the evaluator (Tribes paper)")
register_agent("mc", MCAgent, "flat Monte Carlo with random rollouts (Tribes paper)")
register_agent("mcts", MCTSAgent, "UCT over the flat action space, per-player backup")
register_agent("mcts_u", MCTSUnitAgent, "MCTS with unit ordering (Stratega papers)")
register_agent("rhea", RHEAAgent, "rolling horizon evolution; population 1 = hill climber")
register_presets()

# The SCSA paper planners (RG/Elastic MCTS_u, SCSA) register themselves on import.
from stratagem.baselines.search import abstraction  # noqa: E402,F401
