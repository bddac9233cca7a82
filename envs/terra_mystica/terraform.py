"""Terraforming: how many spades turn one terrain into another.

The wheel is Plains, Swamp, Lakes, Forest, Mountains, Wasteland, Desert (and back). The short
way round costs 0..3 spades, but the online engine (jsnell/terra-mystica ``map.pm``,
``transform_cost``) adds two rules the printed game leaves implicit, and the game logs follow
them:

* transforming between two terrains that are not the faction's home terrain never passes over
  the home terrain: when the home terrain lies on the short way, the long way (``7 - d``) is
  charged;
* transforming to or from the home terrain takes the long way only when the player holds exactly
  ``7 - d`` spades (the engine's reading of "use all the spades you dug").

Giants pay exactly 2 spades for any transformation, which always ends on their home terrain.
"""

from __future__ import annotations

__all__ = ["COST", "spade_cost", "wheel_diff"]


def wheel_diff(a: int, b: int) -> int:
    """Signed steps from terrain ``a`` to ``b`` the short way (-3..3)."""
    d = (b - a) % 7
    return d - 7 if d > 3 else d


def spade_cost(current: int, target: int, home: int, giants: bool = False, held: int = 0) -> int:
    """Spades the engine charges to turn ``current`` into ``target``.

    Args:
        current: Terrain of the hex now (0..6).
        target: Wanted terrain (0..6).
        home: The transforming faction's home terrain.
        giants: True for the Giants (every transformation costs 2).
        held: Spades the player holds at that moment (only matters for the long-way rule).
    """
    if current == target:
        return 0
    if giants:
        return 2
    diff = wheel_diff(current, target)
    d = abs(diff)
    if target == home or current == home:
        if held and held == 7 - d:
            return 7 - d
        return d
    home_diff = wheel_diff(current, home)
    if (home_diff < 0) != (diff < 0) or abs(home_diff) > d:
        return d
    return 7 - d


#: ``COST[home][current][target]`` for a player holding no spades (the usual case).
COST: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(spade_cost(cur, tgt, home) for tgt in range(7)) for cur in range(7))
    for home in range(7)
)
