"""Power bowls: gaining, spending, burning, leeching, and the free conversions.

Source: ``specs/terra_mystica_rules.md`` section 5 and the engine (``resources.pm``
``gain_power``, ``commands.pm`` ``command_leech``, ``command_convert``). Every function works on
one player's integer record (see :mod:`stratagem.envs.terra_mystica.fields`).
"""

from __future__ import annotations

from stratagem.envs.terra_mystica.fields import MAXP, P1, P2, P3, VP, P

__all__ = [
    "POWER_ACTION_COST",
    "burn",
    "gain_power",
    "gain_priests",
    "leech_amount",
    "power_capacity",
    "spend_power",
]

#: Power tokens spent (bowl III to I) on the six power actions, ACT1 (bridge) to ACT6 (2 spades).
POWER_ACTION_COST = (3, 3, 4, 4, 4, 6)


def gain_power(d: list[int], n: int) -> int:
    """Move ``n`` tokens forward (I to II first, then II to III); returns the power gained.

    Tokens moved from I to II may move on to III in the same gain, as the engine moves them
    one at a time.
    """
    a = d[P1] if d[P1] < n else n
    d[P1] -= a
    d[P2] += a
    rest = n - a
    b = d[P2] if d[P2] < rest else rest
    d[P2] -= b
    d[P3] += b
    return a + b


def power_capacity(d: list[int]) -> int:
    """How much power the bowls can still absorb (``2 * I + II``)."""
    return 2 * d[P1] + d[P2]


def spend_power(d: list[int], n: int) -> None:
    """Spend ``n`` power from bowl III (the caller checked ``d[P3] >= n``)."""
    d[P3] -= n
    d[P1] += n


def burn(d: list[int], n: int) -> None:
    """Burn ``n``: remove ``n`` tokens from bowl II and move ``n`` more from II to III."""
    d[P2] -= 2 * n
    d[P3] += n


def gain_priests(d: list[int], n: int) -> None:
    """Gain priests, capped by the priests not yet placed on cult spaces (7 in all)."""
    d[P] = min(d[P] + n, d[MAXP])


def leech_amount(d: list[int], offered: int) -> int:
    """Power a player would actually receive from an offer now (0: nothing to decide).

    The offer is capped by what the bowls absorb and by ``VP + 1`` (accepting ``n`` costs
    ``n - 1`` VP, and VP never goes negative).
    """
    n = offered
    if n > d[VP] + 1:
        n = d[VP] + 1
    cap = 2 * d[P1] + d[P2]
    return n if n < cap else cap
