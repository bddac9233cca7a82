"""CotG combat agents: the four scripts, Portfolio Greedy Search, MCTS and MCTS-HP in script space.

Registered agent names (``make_agent(name, game)``; parameters as ``name:key=value,...``):

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

Importing this package registers them, and the hit-point evaluator as the game's default
evaluator for the generic planners.
"""

from stratagem.baselines.agent import agent_names, register_agent
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


def _register() -> None:
    """Register the agents and the evaluator (idempotent, so reloading is harmless)."""
    from stratagem.baselines.evaluators import register_evaluator

    known = agent_names()
    entries = (
        ("cotg_attack_closest", AttackClosestAgent, "CotG: Attack-Closest script for every unit"),
        ("cotg_attack_value", AttackValueAgent, "CotG: Attack-Value script for every unit"),
        ("cotg_nokav", NokavAgent, "CotG: NOKAV script for every unit (the game's AI)"),
        ("cotg_kiter", KiterAgent, "CotG: Kiter script for every unit"),
        ("cotg_script", ScriptAgent, "CotG: one script for every unit (script=name)"),
        ("cotg_pgs", PGSAgent, "CotG: Portfolio Greedy Search PGS I R (Churchill & Buro)"),
        ("cotg_mcts", ScriptMCTSAgent, "CotG: MCTS in script space (Smejkal & Gemrot)"),
        (
            "cotg_mcts_hp",
            lambda game, **kw: ScriptMCTSAgent(game, hp=True, **kw),
            "CotG: MCTS-HP, hit-point playout values (Smejkal & Gemrot)",
        ),
    )
    for name, factory, description in entries:
        if name not in known:
            register_agent(name, factory, description)
    register_evaluator("cotg_combat", "stratagem.baselines.cotg_combat.evaluator:CotgHPEvaluator")


_register()
