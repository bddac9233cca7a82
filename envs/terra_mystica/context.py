"""Who decides what: the phases, and the turn context of the player to move.

Every part of the forward model (the mixins composed by
:class:`~stratagem.envs.terra_mystica.rules.TerraMysticaState`) reads these indices, so they
live below all of them, with ``_put``, the one way the state's shared tuples change;
:mod:`~stratagem.envs.terra_mystica.rules` re-exports the constants.
"""

from __future__ import annotations

__all__ = [
    "ACTION",
    "CTX_SIZE",
    "CULTIST",
    "INCOME_SPADES",
    "LEECH",
    "OVER",
    "PHASE_NAMES",
    "RESET_CTX",
    "SETUP_BONUS",
    "SETUP_DWELLING",
    "X_ACTIONS",
    "X_BRIDGE",
    "X_BUILD",
    "X_CSTEPS",
    "X_CULT",
    "X_DIG",
    "X_FAV",
    "X_FREE_D",
    "X_FREE_TF",
    "X_FREE_TP",
    "X_HOME",
    "X_INCOME",
    "X_NODECL",
    "X_SPADES",
    "X_TCULT",
    "X_TELE",
    "X_TF",
    "X_TSTEPS",
    "X_TW",
    "X_WP",
]

# Phases: who decides what.
SETUP_DWELLING, SETUP_BONUS, ACTION, LEECH, CULTIST, INCOME_SPADES, OVER = range(7)
PHASE_NAMES = (
    "setup dwelling",
    "setup bonus",
    "action",
    "leech",
    "cultist step",
    "income spades",
    "over",
)

# Turn context of the active player (``TerraMysticaState.ctx``).
X_ACTIONS = 0  # main actions left this turn
X_SPADES = 1  # spades held
X_TF = 2  # terraforms still allowed with them (-1: any number, cult-reward spades)
X_BUILD = 3  # 1 if a dwelling may still be built on a hex terraformed this action
X_DIG = 4  # 1 if missing spades may be bought with workers in this action
X_HOME = 5  # 1 if further terraforms must be to the home terrain
X_TELE = 6  # hex reached by tunnel/carpet this turn, or -1
X_FREE_TF = 7  # Nomads' sandstorm to place
X_FREE_D = 8  # Witches' free dwelling to place
X_FREE_TP = 9  # Swarmlings' free trading post to place
X_FAV = 10  # favor tiles to choose
X_TW = 11  # town tiles to choose
X_CULT = 12  # cult-track choices to make
X_CSTEPS = 13  # steps per cult choice (2 for Auren's ACTA)
X_BRIDGE = 14  # bridge to place
X_WP = 15  # Darklings' stronghold conversion pending
X_INCOME = 16  # 1 while placing cult-reward spades (passed: no BON4, no teleport, no build)
X_NODECL = 17  # 1 when the held spades were dug: they may not be thrown away
X_TCULT = 18  # tracks a town tile's cult steps would take to 10 and the player still decides
X_TSTEPS = 19  # the steps that town tile gives on every track (TW5: 1, TW6: 2)
CTX_SIZE = 20
# The turn context outside a turn: every counter 0, no hex reached by tunnel or carpet. A new
# turn, the end of one and the start of cult-reward spades all begin from it, and the checks of
# a loaded state compare against it, so it is written once here.
RESET_CTX: tuple[int, ...] = tuple(-1 if i == X_TELE else 0 for i in range(CTX_SIZE))


def _put(t: tuple, i: int, v: int) -> tuple:
    """``t`` with entry ``i`` replaced (containers that rarely change are shared tuples)."""
    return (*t[:i], v, *t[i + 1 :])
