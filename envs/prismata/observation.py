"""Prismata observation tensor: ``2 × (U + 104) × C`` float32, relative to the observer.

Prismata has no board, so the tensor is a table. Row 0 is the observer's side, row 1 the
opponent's. Columns ``0 .. U-1`` are the unit slots of that side (``U = max_units``, the slots
of the action layout), columns ``U .. U+103`` are the 104 library cards (for supply and counts).
Channels come in three blocks; each is zero where it does not apply:

=========================  ===============  ================================================
channels                   columns          value
=========================  ===============  ================================================
``unit_<card>`` (104)      unit slots       one-hot card type of the unit in the slot
``hp``                     unit slots       health / 20 (clipped at 1)
``chill``                  unit slots       chill / 20 (clipped)
``frozen``                 unit slots       1 when chill >= health (cannot block)
``building``               unit slots       construction turns left / 4 (clipped)
``delay``                  unit slots       inactive turns left / 4 (clipped)
``lifespan``               unit slots       turns left to live / 10 (clipped; 0: unlimited)
``charges``                unit slots       ability uses left / 4 (clipped)
``ready``                  unit slots       1 when it may be clicked this turn
``used``                   unit slots       1 when it was clicked this turn
``can_block``              unit slots       1 when it could block now
``pending``                unit slots       1 for the unit whose targeted click waits
``card_buyable``           card columns     1 when the card is in this game's buy list
``card_in_game``           card columns     1 when units of the card can appear in this game
``card_supply``            card columns     copies left in the side's supply / 20
``card_owned``             card columns     living units of the card / 20 (clipped)
``gold`` … ``attack``      every column     the side's resources: gold / 50, energy / 20,
                                            blue / 20, red / 20, green / 20, attack / 50
``defense``                every column     the side's total available defense / 50
``to_move``                every column     1 when the side is the player to move
``first_player``           every column     1 for player 0 (who started the game)
``phase_action`` …         every column     one-hot phase (action, defense, breach)
``targeting``              every column     1 while a targeted click waits for a target
``breach_frozen``          every column     1 when frozen units may be breached
``turn_progress``          every column     turns played / turn limit
=========================  ===============  ================================================

Every value lies in [0, 1]. The game has perfect information: both sides are fully visible.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from stratagem.envs.prismata.cards import CARDS, NUM_CARDS

if TYPE_CHECKING:
    from stratagem.envs.prismata.rules import PrismataState

__all__ = ["UNIT_FEATURES", "encode", "observation_channels"]

UNIT_FEATURES = (
    "hp",
    "chill",
    "frozen",
    "building",
    "delay",
    "lifespan",
    "charges",
    "ready",
    "used",
    "can_block",
    "pending",
)
CARD_FEATURES = ("card_buyable", "card_in_game", "card_supply", "card_owned")
GLOBAL_FEATURES = (
    "gold",
    "energy",
    "blue",
    "red",
    "green",
    "attack",
    "defense",
    "to_move",
    "first_player",
    "phase_action",
    "phase_defense",
    "phase_breach",
    "targeting",
    "breach_frozen",
    "turn_progress",
)

_U0 = NUM_CARDS
_C0 = _U0 + len(UNIT_FEATURES)
_G0 = _C0 + len(CARD_FEATURES)
_RES_SCALE = np.array([50.0, 20.0, 20.0, 20.0, 20.0, 50.0], dtype=np.float32)


def observation_channels() -> tuple[str, ...]:
    """Names of the channels, in order."""
    return tuple(f"unit_{c.name}" for c in CARDS) + UNIT_FEATURES + CARD_FEATURES + GLOBAL_FEATURES


def _tables() -> tuple[np.ndarray, ...]:
    from stratagem.envs.prismata import data as R

    return (
        np.array(R.C_BLOCK, dtype=bool),
        np.array(R.C_BLOCK_USED, dtype=bool),
        np.array(R.C_SUPPLY, dtype=np.float32),
    )


_CACHE: dict[str, tuple[np.ndarray, ...]] = {}


def encode(state: PrismataState, player: int) -> np.ndarray:
    """The observation of ``state`` for ``player`` (see the module docstring)."""
    from stratagem.envs.prismata import data as R

    if "t" not in _CACHE:
        _CACHE["t"] = _tables()
    block, block_used, _ = _CACHE["t"]
    game = state.game
    U = game.max_units
    obs = np.zeros(game.spec.observation_shape, dtype=np.float32)
    cs = state._cs
    buyable = np.zeros(NUM_CARDS, dtype=np.float32)
    buyable[list(cs.types)] = 1.0
    in_game = np.zeros(NUM_CARDS, dtype=np.float32)
    in_game[list(cs.present)] = 1.0
    phase = state.phase if state.winner is None else -1
    for row in (0, 1):
        side = player if row == 0 else 1 - player
        view = obs[row]
        flat = state.u[side]
        if flat:
            arr = np.asarray(flat, dtype=np.int64).reshape(-1, R.K)
            slots = np.flatnonzero(arr[:, R.TYPE] >= 0)
            a = arr[slots]
            types = a[:, R.TYPE]
            hp = a[:, R.HP]
            chill = a[:, R.CHILL]
            build = a[:, R.BUILD]
            delay = a[:, R.DELAY]
            status = a[:, R.STATUS]
            view[slots, types] = 1.0
            view[slots, _U0 + 0] = np.minimum(hp / 20.0, 1.0)
            view[slots, _U0 + 1] = np.minimum(chill / 20.0, 1.0)
            frozen = chill >= hp
            view[slots, _U0 + 2] = frozen
            view[slots, _U0 + 3] = np.minimum(build / 4.0, 1.0)
            view[slots, _U0 + 4] = np.minimum(delay / 4.0, 1.0)
            view[slots, _U0 + 5] = np.minimum(a[:, R.LIFE] / 10.0, 1.0)
            view[slots, _U0 + 6] = np.minimum(a[:, R.CHARGES] / 4.0, 1.0)
            view[slots, _U0 + 7] = status == R.READY
            view[slots, _U0 + 8] = status == R.USED
            blocks = np.where(status == R.USED, block_used[types], block[types])
            view[slots, _U0 + 9] = blocks & (build == 0) & (delay == 0) & ~frozen
            owned = np.bincount(types, minlength=NUM_CARDS)
            view[U:, _C0 + 3] = np.minimum(owned / 20.0, 1.0)
        if state.pending >= 0 and side == state.current_player:
            view[state.pending, _U0 + 10] = 1.0
        view[U:, _C0 + 0] = buyable
        view[U:, _C0 + 1] = in_game
        supply = view[U:, _C0 + 2]
        for pos, t in enumerate(cs.types):
            supply[t] = state.supply[side][pos] / 20.0
        res = np.asarray(state.res[6 * side : 6 * side + 6], dtype=np.float32)
        view[:, _G0 : _G0 + 6] = np.minimum(res / _RES_SCALE, 1.0)
        view[:, _G0 + 6] = min(state.total_defense(side) / 50.0, 1.0)
        view[:, _G0 + 7] = float(state.winner is None and side == state.current_player)
        view[:, _G0 + 8] = float(side == 0)
        if phase >= 0:
            view[:, _G0 + 9 + phase] = 1.0
        view[:, _G0 + 12] = float(state.pending >= 0)
        view[:, _G0 + 13] = float(state.breach_frozen)
        view[:, _G0 + 14] = min(state.turn / game.turn_limit, 1.0)
    return obs
