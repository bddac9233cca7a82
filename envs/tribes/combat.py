"""The combat formula of the reference (``AttackCommand``; ``specs/tribes_rules.md`` section 6).

::

    attack  = ATK_a × HP_a / maxHP_a
    defence = DEF_d × HP_d / maxHP_d × bonus
    damage      = round_half_up(attack  / (attack + defence) × ATK_a × 4.5)
    retaliation = round_half_up(defence / (attack + defence) × DEF_d × 4.5)

In release 1.0 the only defence bonus is the city one: a unit standing on a city centre of its
own tribe defends ×4 behind walls, ×1.5 without (any unit type). Java's ``Math.round`` rounds
halves up; Python's ``round`` would round them to even, so it is not used here.
"""

from __future__ import annotations

import math

from stratagem.envs.tribes import constants as C

__all__ = ["attack_results", "round_half_up"]


def round_half_up(x: float) -> int:
    """Java's ``Math.round``: ``floor(x + 0.5)``."""
    return math.floor(x + 0.5)


def attack_results(
    atk: int,
    hp_a: int,
    max_a: int,
    defence: int,
    hp_d: int,
    max_d: int,
    bonus: float = 1.0,
) -> tuple[int, int]:
    """Damage dealt to the defender and retaliation dealt back (if the defender survives).

    Args:
        atk: Attacker's attack.
        hp_a: Attacker's health.
        max_a: Attacker's maximum health.
        defence: Defender's defence.
        hp_d: Defender's health.
        max_d: Defender's maximum health.
        bonus: Defence multiplier (1, 1.5 in a city, 4 behind walls).

    Returns:
        ``(damage, retaliation)``.
    """
    attack_force = atk * (hp_a / max_a)
    defence_force = defence * (hp_d / max_d) * bonus
    total = attack_force + defence_force
    if total <= 0:  # a 0-defence unit attacked by a 0-attack unit: nothing happens
        return 0, 0
    damage = round_half_up(attack_force / total * atk * C.ATTACK_MODIFIER)
    retaliation = round_half_up(defence_force / total * defence * C.ATTACK_MODIFIER)
    return damage, retaliation
