"""CotG combat agents: the four scripts, Portfolio Greedy Search, MCTS and MCTS-HP in script space.

Agent names (``make_agent(name, game)``; parameters as ``name:key=value,...``), from the table
:data:`AGENTS` that the game's registry entry names:

=========================  ===============================================================
``cotg_attack_closest``    Attack-Closest for every unit
``cotg_attack_value``      Attack-Value for every unit
``cotg_nokav``             NOKAV for every unit (also the game's ``rule_based`` agent)
``cotg_kiter``             Kiter for every unit
``cotg_script``            any script: ``cotg_script:script=kiter``
``cotg_pgs``               PGS I R: ``cotg_pgs:iterations=3,responses=3,time_limit=0.5``
``cotg_mcts``              MCTS in script space: ``cotg_mcts:time_limit=0.1``
``cotg_mcts_hp``           MCTS-HP: ``cotg_mcts_hp:time_limit=0.1``
=========================  ===============================================================

The registry entry also names the hit-point evaluator (:class:`CotgHPEvaluator`) as the game's
heuristic for the generic planners, so no import of this package is needed for either.
"""

from typing import Any

from stratagem.baselines.agent import Agent, AgentTable
from stratagem.baselines.cotg_combat.evaluator import CotgHPEvaluator
from stratagem.baselines.cotg_combat.mcts_script import ScriptMCTSAgent, hp_node_value
from stratagem.baselines.cotg_combat.pgs import PGSAgent, ltd2_score
from stratagem.baselines.cotg_combat.scripts import (
    SCRIPT_NAMES,
    SCRIPTS,
    AttackClosestAgent,
    AttackValueAgent,
    KiterAgent,
    NokavAgent,
    ScriptAgent,
    TurnContext,
    TurnPlanAgent,
    play_turn,
    resolve_portfolio,
)

__all__ = [
    "AGENTS",
    "SCRIPTS",
    "SCRIPT_NAMES",
    "AttackClosestAgent",
    "AttackValueAgent",
    "CotgHPEvaluator",
    "KiterAgent",
    "NokavAgent",
    "PGSAgent",
    "ScriptAgent",
    "ScriptMCTSAgent",
    "TurnContext",
    "TurnPlanAgent",
    "hp_node_value",
    "ltd2_score",
    "play_turn",
    "resolve_portfolio",
]


def _mcts_hp(game: Any, **params: Any) -> Agent:
    """MCTS-HP: :class:`ScriptMCTSAgent` with hit-point playout values."""
    return ScriptMCTSAgent(game, hp=True, **params)


#: The game's named agents, ``name -> (factory, description)``; the ``cotg_combat`` registry
#: entry names this table, and the agent registry loads it the first time agents are named.
AGENTS: AgentTable = {
    "cotg_attack_closest": (AttackClosestAgent, "CotG: Attack-Closest script for every unit"),
    "cotg_attack_value": (AttackValueAgent, "CotG: Attack-Value script for every unit"),
    "cotg_nokav": (NokavAgent, "CotG: NOKAV script for every unit (the game's AI)"),
    "cotg_kiter": (KiterAgent, "CotG: Kiter script for every unit"),
    "cotg_script": (ScriptAgent, "CotG: one script for every unit (script=name)"),
    "cotg_pgs": (PGSAgent, "CotG: Portfolio Greedy Search PGS I R (Churchill & Buro)"),
    "cotg_mcts": (ScriptMCTSAgent, "CotG: MCTS in script space (Smejkal & Gemrot)"),
    "cotg_mcts_hp": (_mcts_hp, "CotG: MCTS-HP, hit-point playout values (Smejkal & Gemrot)"),
}
