"""Cult tracks: steps, power rewards, town keys for the top space, and priest order spaces.

Source: ``specs/terra_mystica_rules.md`` section 6 and the engine (``resources.pm``
``maybe_gain_power_from_cult`` and ``adjust_resource``; ``cults.pm``; ``commands.pm``
``command_send``). Facts that decide play:

* Positions 0..10; passing 3, 5, 7 gives 1, 2, 2 power; reaching 10 spends a town key and gives
  3 power, and then no other player may go beyond 9 on that track.
* Without a key a marker stops at 9 and the track is remembered as *blocked* for the rest of the
  turn: a key gained later in the same turn (a town) immediately moves it to 10 (engine rule).
* Each track has four order spaces: one worth 3 steps, three worth 2; a priest placed there stays
  (the player's priest limit of 7 shrinks by one). Sending a priest "for 1" returns it.
"""

from __future__ import annotations

from stratagem.envs.terra_mystica.fields import BLOCKED, CULT, KEY
from stratagem.envs.terra_mystica.power import gain_power

__all__ = ["ORDER_SPACE_STEPS", "advance_cult", "gain_keys"]

#: Steps of the four order spaces of every track, filled in this order.
ORDER_SPACE_STEPS = (3, 2, 2, 2)


def advance_cult(pd: list[list[int]], p: int, track: int, steps: int) -> None:
    """Move player ``p`` up ``steps`` on ``track`` with every consequence of the engine."""
    d = pd[p]
    idx = CULT + track
    old = d[idx]
    cap = 10
    for q, e in enumerate(pd):
        if q != p and e[idx] == 10:
            cap = 9
            break
    new = old + steps
    if new > cap:
        new = cap
    if new <= old:
        return
    d[idx] = new
    gain = 0
    if old <= 2 < new:
        gain += 1
    if old <= 4 < new:
        gain += 2
    if old <= 6 < new:
        gain += 2
    if gain:
        gain_power(d, gain)
    if old <= 9 < new:
        if d[KEY] < 1:
            d[idx] = 9
            d[BLOCKED] |= 1 << track
            return
        d[KEY] -= 1
        gain_power(d, 3)


def gain_keys(pd: list[list[int]], p: int, n: int) -> None:
    """Gain town keys; tracks blocked at 9 this turn then move to 10 if there are keys enough."""
    d = pd[p]
    d[KEY] += n
    blocked = d[BLOCKED]
    if blocked and d[KEY] >= bin(blocked).count("1"):
        d[BLOCKED] = 0
        for track in range(4):
            if blocked >> track & 1:
                advance_cult(pd, p, track, 1)
