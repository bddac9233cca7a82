"""Prismata AI: partial players, portfolios, Hierarchical Portfolio Search and the paper's bots.

Agents (``make_agent(spec, game)``), from the table :data:`AGENTS` that the game's registry
entry names, so they exist in every process without importing this package first:

======================  ==========================================================
``prismata_bot``        any configured player: ``prismata_bot:bot=Master``
``prismata_master``     UCT over the hard portfolio, 3000 ms (the paper's Master)
``prismata_expert``     2-ply Alpha-Beta over the same portfolio
``prismata_medium``     a random move of the hard portfolio
``prismata_easy``       a random move of the easy portfolio
``prismata_docile``     never attacks
``prismata_random``     random defense, purchases and breach
``prismata_playout``    the scripted playout player (also the game's ``rule_based``)
======================  ==========================================================

``rule_based:bot=NAME`` builds any configured bot too (the game registry names
:class:`PrismataRuleBasedAgent`). Search parameters override the configuration:
``prismata_master:time_limit_ms=500`` or ``rule_based:bot=UCT100,time_limit_ms=0,max_playouts=8``.
"""

from typing import Any

from stratagem.baselines.agent import Agent, AgentFactory, AgentTable
from stratagem.baselines.prismata.agent import PrismataBotAgent, PrismataRuleBasedAgent
from stratagem.baselines.prismata.config import BotConfig, default_config, load_config
from stratagem.baselines.prismata.portfolio import PartialSequence, Portfolio
from stratagem.baselines.prismata.search import (
    AlphaBetaPlayer,
    SearchStats,
    SequencePlayer,
    UCTPlayer,
    playout,
)
from stratagem.baselines.prismata.turn import Turn

__all__ = [
    "AGENTS",
    "AlphaBetaPlayer",
    "BotConfig",
    "PartialSequence",
    "Portfolio",
    "PrismataBotAgent",
    "PrismataRuleBasedAgent",
    "SearchStats",
    "SequencePlayer",
    "Turn",
    "UCTPlayer",
    "default_config",
    "load_config",
    "playout",
]

_BOTS = {
    "master": "Master",
    "expert": "Expert",
    "medium": "Medium",
    "easy": "Easy",
    "docile": "Docile",
    "random": "Random",
    "playout": "Playout",
}


def _bot_factory(bot: str) -> AgentFactory:
    """A factory building the configured bot ``bot`` (parameters override its configuration)."""

    def factory(game: Any, **params: Any) -> Agent:
        return PrismataBotAgent(game, bot=bot, **params)

    return factory


#: The game's named agents, ``name -> (factory, description)``; the ``prismata`` registry entry
#: names this table, and the agent registry loads it the first time agents are named.
AGENTS: AgentTable = {
    "prismata_bot": (PrismataBotAgent, "any Prismata bot of bots.toml: bot=NAME"),
    **{
        f"prismata_{key}": (
            _bot_factory(bot),
            f"Prismata {bot}: {default_config().description(bot)}",
        )
        for key, bot in _BOTS.items()
    },
}
