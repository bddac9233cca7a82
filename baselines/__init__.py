"""stratagem agents: the ``Agent`` protocol, simple agents, rule-based agents and planners.

Build any agent by name with :func:`make_agent` (``"random"``, ``"end_turn"``, ``"rule_based"``).
"""

from stratagem.baselines.agent import (
    Agent,
    BaseAgent,
    Evaluator,
    agent_names,
    make_agent,
    parse_agent_spec,
    register_agent,
)
from stratagem.baselines.simple import EndTurnAgent, RandomAgent

__all__ = [
    "Agent",
    "BaseAgent",
    "Evaluator",
    "EndTurnAgent",
    "RandomAgent",
    "agent_names",
    "make_agent",
    "parse_agent_spec",
    "register_agent",
]
