"""Prismata: the card-based strategy game of the HPS paper (Churchill and Buro, AIIDE 2015).

Public names: :class:`PrismataGame`, :class:`PrismataState`, the card table (:data:`CARDS`,
:func:`card_by_name`) and the phase constants. The rules core (``rules.py`` and the modules it
composes: ``data.py``, ``cardset.py``, ``economy.py``, ``phases.py``, ``positions.py``; with
``cards.py`` and ``actions.py``) imports nothing from gymnasium, pettingzoo or torch.
"""

from stratagem.envs.prismata.actions import KINDS, ActionLayout
from stratagem.envs.prismata.cards import (
    BASE_SET,
    CARDS,
    NUM_CARDS,
    POOL,
    Card,
    CardSetError,
    card_by_name,
    format_resources,
    parse_resources,
)
from stratagem.envs.prismata.rules import (
    ACTION,
    BREACH,
    DEFENSE,
    PHASE_NAMES,
    PrismataGame,
    PrismataState,
    UnitView,
)


def register_game() -> None:
    """Add Prismata to the game registry (called by :mod:`stratagem.envs`)."""
    from stratagem.envs.registry import register

    register(
        "prismata",
        PrismataGame,
        description="Prismata (HPS paper): 2 players, base set + 8 random cards; 100-round draw",
        env_id="stratagem/Prismata-v0",
        test_configs=(
            {},
            {"cards": "base", "max_rounds": 30},
            {"cards": "random:5", "max_rounds": 40, "max_units": 64},
            {
                "cards": "Apollo,Shiver Yeti,Wild Drone,Polywall,Deadeye Operative,"
                "Kinetic Driver,Iso Kronus,Corpus",
                "max_rounds": 40,
            },
        ),
        rule_based_agent="stratagem.baselines.prismata:PrismataRuleBasedAgent",
        evaluator="stratagem.baselines.prismata.evaluator:PrismataEvaluator",
        agents="stratagem.baselines.prismata:AGENTS",
    )


__all__ = [
    "ACTION",
    "BASE_SET",
    "BREACH",
    "CARDS",
    "DEFENSE",
    "KINDS",
    "NUM_CARDS",
    "PHASE_NAMES",
    "POOL",
    "ActionLayout",
    "Card",
    "CardSetError",
    "PrismataGame",
    "PrismataState",
    "UnitView",
    "card_by_name",
    "format_resources",
    "parse_resources",
    "register_game",
]
