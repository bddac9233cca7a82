"""stratagem agents: the ``Agent`` protocol, simple agents, rule-based agents and planners.

Build any agent by name with :func:`make_agent` (``"random"``, ``"end_turn"``, ``"rule_based"``,
``"osla"``, ``"mc"``, ``"mcts"``, ``"mcts_u"``, ``"rhea"`` and the papers' presets such as
``"scsa_ktk_mcts_u"``), e.g. ``make_agent("mcts:budget=2000,c=1.414", game)``, each game's
named agents (``cotg_pgs``, ``prismata_master``, ...; its registry entry names them) and the
trained networks (``alphazero``, ``ppo``).
"""

from stratagem.baselines.agent import (
    Agent,
    BaseAgent,
    Evaluator,
    agent_names,
    make_agent,
    parse_agent_spec,
    register_agent,
    register_agent_table,
)
from stratagem.baselines.evaluators import TerminalEvaluator, default_evaluator, make_evaluator
from stratagem.baselines.search import (
    MCAgent,
    MCTSAgent,
    MCTSUnitAgent,
    OSLAAgent,
    RHEAAgent,
    SearchAgent,
    SearchStats,
)
from stratagem.baselines.simple import EndTurnAgent, RandomAgent

__all__ = [
    "Agent",
    "BaseAgent",
    "EndTurnAgent",
    "Evaluator",
    "MCAgent",
    "MCTSAgent",
    "MCTSUnitAgent",
    "OSLAAgent",
    "RHEAAgent",
    "RandomAgent",
    "SearchAgent",
    "SearchStats",
    "TerminalEvaluator",
    "agent_names",
    "default_evaluator",
    "make_agent",
    "make_evaluator",
    "parse_agent_spec",
    "register_agent",
    "register_agent_table",
]
