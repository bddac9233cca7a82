"""The rules' shared data: phases, the unit record, resources and per-card constants.

Every other rules module indexes these, so they sit below all of them: a unit is ``K`` integers
in a flat per-player list (the ``TYPE`` ... ``STATUS`` offsets), and each card's facts are
compiled once from the card library into tuples indexed by library index (fast to index from
Python), its scripts into :class:`_Script` objects of plain tuples for the hot loops.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from stratagem.envs.prismata.cards import CARDS, card_by_name

if TYPE_CHECKING:
    from stratagem.envs.prismata.cardset import _CardSet
    from stratagem.envs.prismata.rules import PrismataGame

# Phases in which a decision is taken (the reference's Swoosh and Confirm are automatic).
ACTION, DEFENSE, BREACH = 0, 1, 2
PHASE_NAMES = ("action", "defense", "breach")

# Unit record: K integers per slot in a flat per-player list.
TYPE, HP, CHILL, BUILD, DELAY, LIFE, CHARGES, STATUS = range(8)
K = 8
# STATUS values: inert (no click this turn), ready (may click), used (clicked this turn).
INERT, READY, USED = 0, 1, 2
STATUS_NAMES = ("inert", "ready", "used")

GOLD, ENERGY, BLUE, RED, GREEN, ATTACK = range(6)


def _items(amounts: Any) -> tuple[tuple[int, int], ...]:
    """The non-zero ``(resource, amount)`` pairs of a resource tuple (``()`` for none)."""
    return () if amounts is None else tuple((r, c) for r, c in enumerate(amounts) if c)


class _Script:
    """A card script compiled into plain tuples for the hot loops.

    Besides the script's fields, the hot loops read ``cost_items``, ``gain_items`` and
    ``give_items`` (only the non-zero amounts: most scripts touch one resource), ``plain``
    (the script only gains resources, as every start and click script of the base set does:
    running it cannot touch a unit, so the rules take a shorter path) and ``touches_enemy``
    (it creates enemy units or destroys some: the enemy's unit lists are written).
    """

    __slots__ = (
        "cost",
        "cost_items",
        "create",
        "delay",
        "destroy",
        "gain",
        "gain_items",
        "give",
        "give_items",
        "hp_cost",
        "plain",
        "resonate",
        "sac",
        "selfsac",
        "touches_enemy",
    )

    def __init__(self, script: Any) -> None:
        self.cost = script.cost if any(script.cost) else None
        self.sac = tuple((card_by_name(n).index, k) for n, k in script.sac)
        self.hp_cost = script.hp_cost
        self.gain = script.gain if any(script.gain) else None
        self.give = script.give if any(script.give) else None
        self.create = tuple(
            (card_by_name(c.card).index, c.count, c.delay, c.lifespan, c.enemy)
            for c in script.create
        )
        self.destroy = tuple(
            (card_by_name(d.card).index, d.count, d.not_blocking) for d in script.destroy
        )
        self.selfsac = script.selfsac
        self.delay = script.delay
        self.resonate = (
            None
            if script.resonate is None
            else (card_by_name(script.resonate[0]).index, script.resonate[1])
        )
        self.cost_items = _items(self.cost)
        self.gain_items = _items(self.gain)
        self.give_items = _items(self.give)
        self.plain = not (
            self.cost
            or self.sac
            or self.give
            or self.create
            or self.destroy
            or self.selfsac
            or self.resonate
        )
        self.touches_enemy = bool(self.destroy) or any(c[4] for c in self.create)


def _compile(script: Any) -> _Script | None:
    return None if script is None else _Script(script)


# Per-card constants, indexed by library index (tuples: fast to index from Python).
C_HP = tuple(c.hp for c in CARDS)
C_BUILD = tuple(c.build for c in CARDS)
C_LIFE = tuple(c.lifespan for c in CARDS)
C_CHARGES = tuple(c.charges for c in CARDS)
C_BLOCK = tuple(c.blocker for c in CARDS)
C_BLOCK_USED = tuple(c.blocks_when_used for c in CARDS)
C_FRONT = tuple(c.frontline for c in CARDS)
C_FRAGILE = tuple(c.fragile for c in CARDS)
C_CLICK = tuple(c.clickable for c in CARDS)
#: The status an active unit takes at its owner's turn start: ready when clickable.
C_FRESH_STATUS = tuple(READY if c.clickable else INERT for c in CARDS)
C_HAS_ABILITY = tuple(c.has_ability for c in CARDS)
C_HP_GAIN = tuple(c.hp_gain for c in CARDS)
C_HP_CAP = tuple(c.max_health for c in CARDS)
C_COST = tuple(tuple(c.cost) for c in CARDS)
C_BUY_SAC = tuple(tuple((card_by_name(n).index, k) for n, k in c.buy_sac) for c in CARDS)
C_SUPPLY = tuple(c.supply for c in CARDS)
C_SPELL = tuple(c.spell for c in CARDS)
C_TECH = tuple(c.tech for c in CARDS)
C_START = tuple(_compile(c.start) for c in CARDS)
C_ABILITY = tuple(_compile(c.ability) for c in CARDS)
C_ON_BUY = tuple(_compile(c.on_buy) for c in CARDS)
# Targeted click: (is_snipe, chill amount, hp_at_most or -1, tech only) or None.
C_TARGET = tuple(
    None
    if c.target is None
    else (
        c.target.kind == "snipe",
        c.target.amount,
        -1 if c.target.hp_at_most is None else c.target.hp_at_most,
        c.target.tech,
    )
    for c in CARDS
)


class UnitView(NamedTuple):
    """Read-only snapshot of one unit, for agents, tests and rendering.

    Attributes:
        slot: The unit's slot (stable for its life).
        owner: Player 0 or 1.
        card: Library index of its card type.
        name: Card name.
        hp: Current health.
        chill: Chill on it (it is frozen when chill >= hp).
        build: Turns of construction left (0: built).
        delay: Turns it stays inactive (0: active).
        lifespan: Owner turns left to live (0: unlimited).
        charges: Ability uses left (meaningful for cards with charges).
        status: ``"inert"``, ``"ready"`` (may be clicked) or ``"used"`` (clicked this turn).
        can_block: True when it could be assigned as a blocker now.
    """

    slot: int
    owner: int
    card: int
    name: str
    hp: int
    chill: int
    build: int
    delay: int
    lifespan: int
    charges: int
    status: str
    can_block: bool


def _can_block(u: list[int], b: int) -> bool:
    """The unit at offset ``b`` of a player's unit list can block now.

    It must be alive, built, active and not frozen, and its card must block in its current click
    status (most clickable blockers stop blocking once clicked).
    """
    t = u[b]
    if t < 0 or u[b + BUILD] or u[b + DELAY] or u[b + CHILL] >= u[b + HP]:
        return False
    return C_BLOCK_USED[t] if u[b + STATUS] == USED else C_BLOCK[t]


class StateFields:
    """The fields of ``PrismataState`` that its rules mixins read and write, declared once.

    :class:`~stratagem.envs.prismata.economy.EconomyRules`,
    :class:`~stratagem.envs.prismata.phases.PhaseRules` and
    :class:`~stratagem.envs.prismata.queries.StateQueries` each work on the same packed storage;
    they derive from this class so that type checkers know its fields without each mixin
    listing them again. It adds no slot and no behaviour: ``PrismataState`` holds the fields.
    """

    __slots__ = ()
    game: PrismataGame
    _cs: _CardSet
    u: list[list[int]]
    live: list[list[int]]
    res: list[int]
    supply: list[list[int]]
    current_player: int
    phase: int
    turn: int
    pending: int
    breach_frozen: bool
    winner: int | None
