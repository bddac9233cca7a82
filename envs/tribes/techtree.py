"""The technology tree: 24 technologies in three tiers, kept as a bit mask per tribe.

A tribe's researched technologies are one ``int`` (bit ``k`` for technology ``k`` of
``constants.TECHS``), so copying a state copies nothing for them. Costs and rules are the
reference's (``Types.TECHNOLOGY.getCost``, ``TechnologyTree``; ``specs/tribes_rules.md``
section 9): ``4 + tier × cities``, and with Philosophy researched the cost is multiplied by 0.2
and truncated (the reference's 80 % discount, kept as written).
"""

from __future__ import annotations

from stratagem.envs.tribes import constants as C

__all__ = [
    "everything_researched",
    "num_researched",
    "research_cost",
    "researchable",
    "researchable_list",
]

_PARENT_BIT = tuple(0 if t.parent < 0 else 1 << t.parent for t in C.TECHS)
_TIER = tuple(t.tier for t in C.TECHS)
_PHILOSOPHY_BIT = 1 << C.PHILOSOPHY


def has(techs: int, tech: int) -> bool:
    """True if ``tech`` is in the mask ``techs``."""
    return bool(techs >> tech & 1)


def research_cost(tech: int, num_cities: int, techs: int) -> int:
    """Stars needed to research ``tech`` for a tribe with ``num_cities`` and mask ``techs``."""
    cost = C.TECH_BASE_COST + _TIER[tech] * num_cities
    if techs & _PHILOSOPHY_BIT:
        cost = int(cost * C.TECH_DISCOUNT_VALUE)
    return cost


def researchable(tech: int, techs: int) -> bool:
    """Not researched yet and its parent (if any) researched."""
    if techs >> tech & 1:
        return False
    parent = _PARENT_BIT[tech]
    return parent == 0 or bool(techs & parent)


def researchable_list(techs: int) -> list[int]:
    """Every researchable technology, in the reference's order."""
    return [t for t in range(C.NUM_TECHS) if researchable(t, techs)]


_RESEARCHABLE: dict[int, tuple[tuple[int, int], ...]] = {}


def researchable_tiers(techs: int) -> tuple[tuple[int, int], ...]:
    """``(tech, tier)`` of every researchable technology (cached per mask)."""
    out = _RESEARCHABLE.get(techs)
    if out is None:
        out = tuple((t, _TIER[t]) for t in range(C.NUM_TECHS) if researchable(t, techs))
        if len(_RESEARCHABLE) < 1 << 16:
            _RESEARCHABLE[techs] = out
    return out


_OPTIONS: dict[tuple[int, int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}


def research_options(
    techs: int, num_cities: int, base: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(prices, actions)`` of the researchable technologies, cheapest first (cached).

    The action of technology ``t`` is ``base + t``; a tribe may research those whose price it
    has in stars, a prefix of the list.
    """
    key = (techs, num_cities, base)
    out = _OPTIONS.get(key)
    if out is None:
        options = sorted(
            (research_cost(t, num_cities, techs), base + t) for t, _ in researchable_tiers(techs)
        )
        out = (tuple(p for p, _ in options), tuple(a for _, a in options))
        if len(_OPTIONS) < 1 << 16:
            _OPTIONS[key] = out
    return out


def num_researched(techs: int) -> int:
    """How many technologies are researched."""
    return bin(techs).count("1")


def everything_researched(techs: int) -> bool:
    """True when all 24 technologies are researched."""
    return techs & C.ALL_TECHS_MASK == C.ALL_TECHS_MASK
