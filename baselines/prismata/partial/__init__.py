"""Prismata's partial players: scripts that play one phase of a turn.

Source: ``specs/prismata_rules.md`` section 8.1 and davechurchill/PrismataAI (the
``PartialPlayer_*`` classes, ``AITools``, ``AvoidBreachBuyIterator``, ``AttackDamageScenario``);
the behaviour of each is paraphrased in its docstring. A partial player acts on a
:class:`~stratagem.baselines.prismata.turn.Turn`; four of them, one per phase (defense, ability,
buy, breach), make a whole turn (:mod:`stratagem.baselines.prismata.portfolio`).

Phase ends: our environment ends the defense and breach phases by itself, so defense and breach
partial players only assign blockers and breach targets; the action phase is ended by whoever
plays the turn after the buy partial player.

One module per phase, so that a phase's players read side by side:
:mod:`.common` (phases, card facts, buy limits, card filters, :class:`PartialPlayer`,
:class:`Combination`), :mod:`.defense`, :mod:`.ability` (rule clicks), :mod:`.lookahead` (clicks
and blockers weighed against the enemy's next turn), :mod:`.buy` and :mod:`.breach`;
:mod:`.prediction` holds the enemy prediction and loss estimates that the look-ahead and buy
players share. Every name is importable from this package, as it was from the single module.
"""

from stratagem.baselines.prismata.partial.ability import (
    AbilityDefault,
    AbilityRandom,
    ActivateUtility,
    AttackDefault,
    AvoidEconomyWaste,
    ChillGreedy,
    DontAttack,
    EconomyDefault,
    FrontlineGreedy,
    SnipeGreedy,
)
from stratagem.baselines.prismata.partial.breach import BreachDefault, BreachGreedy, BreachRandom
from stratagem.baselines.prismata.partial.buy import (
    BuyAvoidBreach,
    BuyDefault,
    BuyEngineer,
    BuyGreedy,
    BuyNothing,
    BuyOpeningBook,
    BuyRandom,
    BuySequence,
    BuyTechElyot,
    enemy_chill_potential,
    purchase_out_of_sync,
)
from stratagem.baselines.prismata.partial.common import (
    ABILITY,
    ABILITY_COST,
    BREACH_PHASE,
    BUY,
    CREATED_INCOME,
    CREATES_OWN_PROMPT,
    DEFENSE_PHASE,
    DRONE_SAC,
    ECON,
    NO_FILTER,
    PHASES,
    PROMPT,
    START_INCOME,
    BuyLimits,
    CardFilter,
    Combination,
    FilteredPlayer,
    PartialPlayer,
)
from stratagem.baselines.prismata.partial.defense import (
    DefenseDefault,
    DefenseGreedy,
    DefenseRandom,
    DefenseSolver,
)
from stratagem.baselines.prismata.partial.lookahead import (
    AvoidAttackWaste,
    AvoidBreachSolver,
    ChillSolver,
    UntapAvoidBreach,
)
from stratagem.baselines.prismata.partial.prediction import (
    AttackDamageScenario,
    breach_loss,
    predict_enemy_next_turn,
    wipeout_loss,
)

__all__ = [
    "ABILITY",
    "ABILITY_COST",
    "BREACH_PHASE",
    "BUY",
    "CREATED_INCOME",
    "CREATES_OWN_PROMPT",
    "DEFENSE_PHASE",
    "DRONE_SAC",
    "ECON",
    "NO_FILTER",
    "PHASES",
    "PROMPT",
    "START_INCOME",
    "AbilityDefault",
    "AbilityRandom",
    "ActivateUtility",
    "AttackDamageScenario",
    "AttackDefault",
    "AvoidAttackWaste",
    "AvoidBreachSolver",
    "AvoidEconomyWaste",
    "BreachDefault",
    "BreachGreedy",
    "BreachRandom",
    "BuyAvoidBreach",
    "BuyDefault",
    "BuyEngineer",
    "BuyGreedy",
    "BuyLimits",
    "BuyNothing",
    "BuyOpeningBook",
    "BuyRandom",
    "BuySequence",
    "BuyTechElyot",
    "CardFilter",
    "ChillGreedy",
    "ChillSolver",
    "Combination",
    "DefenseDefault",
    "DefenseGreedy",
    "DefenseRandom",
    "DefenseSolver",
    "DontAttack",
    "EconomyDefault",
    "FilteredPlayer",
    "FrontlineGreedy",
    "PartialPlayer",
    "SnipeGreedy",
    "UntapAvoidBreach",
    "breach_loss",
    "enemy_chill_potential",
    "predict_enemy_next_turn",
    "purchase_out_of_sync",
    "wipeout_loss",
]
