# The card table keeps one card per line for reading; those lines are long by design.
# ruff: noqa: E501
"""Prismata's card library: our own table of the 104 cards the reference engine loads.

Source: ``specs/prismata_rules.md`` sections 2, 3 and 10, written from davechurchill/PrismataAI
(``cardLibrary.jso`` and ``CardTypeData``). The facts (costs, health, build times, scripts) are
the reference's; the table format and this code are ours. The original data file is licensed
CC BY-NC-SA 2.5 CA and is not shipped with stratagem.

Notation. A resource amount is written as count-letter tokens: ``g`` gold, ``E`` energy, ``B``
blue, ``R`` red, ``G`` green, ``A`` attack; ``"6g 1B"`` is six gold and one blue, ``"4G"`` four
green. Every card has a UI name (used everywhere in stratagem) and, where it differs, the
reference engine's internal name (``engine=``); lookups accept either, case-insensitively.

A card's behaviour is four optional scripts, as in the reference:

* ``start``: runs at the start of its owner's turn while the unit is built and not delayed
  (gain resources, create units, gain per active unit of a type (*resonate*), sacrifice
  itself, then go inactive for ``delay`` turns);
* ``ability``: the click, once per turn in the action phase; it may cost resources, the
  sacrifice of own units (``sac``) and health (``hp_cost``);
* ``on_buy``: runs when the card is bought (spells sacrifice themselves right after);
* ``target``: a click that then names an enemy unit: ``snipe`` destroys it (subject to a
  condition), ``chill`` adds chill to a blocker.

The reference's pool list names 94 cards, one of them ("Husk") by its UI name, which the engine
does not match, so 93 cards form the random pool besides the 11 of the base set. The engine's
internal card "House" (UI name Husk) is in the pool under its internal name, so Husk is drawable.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = [
    "BASE_SET",
    "CARDS",
    "CARD_INDEX",
    "NUM_CARDS",
    "POOL",
    "RESOURCE_NAMES",
    "Card",
    "CardSetError",
    "Create",
    "Destroy",
    "Script",
    "Target",
    "card_by_name",
    "format_resources",
    "parse_resources",
]

#: Resource order used in every resource tuple: gold, energy, blue, red, green, attack.
RESOURCE_NAMES = ("gold", "energy", "blue", "red", "green", "attack")
_LETTERS = "gEBRGA"
GOLD, ENERGY, BLUE, RED, GREEN, ATTACK = range(6)
ZERO = (0, 0, 0, 0, 0, 0)

_TOKEN = re.compile(r"^(\d+)([gEBRGA])$")


class CardSetError(ValueError):
    """An unknown card name or a malformed card set."""


def parse_resources(text: str) -> tuple[int, int, int, int, int, int]:
    """Parse ``"6g 1B"`` into ``(6, 0, 1, 0, 0, 0)``.

    Raises:
        ValueError: If a token is not a count followed by one of ``g E B R G A``.
    """
    amounts = [0] * 6
    for token in text.split():
        match = _TOKEN.match(token)
        if not match:
            raise ValueError(
                f"bad resource token {token!r} in {text!r}: write a count and one of "
                f"g (gold), E (energy), B (blue), R (red), G (green), A (attack), e.g. '6g 1B'"
            )
        amounts[_LETTERS.index(match.group(2))] += int(match.group(1))
    return tuple(amounts)  # type: ignore[return-value]


def format_resources(amounts: Sequence[int]) -> str:
    """Inverse of :func:`parse_resources` (``"0g"`` for nothing)."""
    parts = [f"{n}{_LETTERS[i]}" for i, n in enumerate(amounts) if n]
    return " ".join(parts) if parts else "0g"


@dataclass(frozen=True)
class Create:
    """Units a script creates.

    Attributes:
        card: Name of the created card.
        count: How many.
        delay: Turns before they act: units made by a purchase are under construction that
            long, units made by an ability or a start-of-turn script are delayed that long.
        lifespan: Lifespan of the created units (0: the card's own lifespan).
        enemy: True when the opponent receives them.
    """

    card: str
    count: int = 1
    delay: int = 1
    lifespan: int = 0
    enemy: bool = False


@dataclass(frozen=True)
class Destroy:
    """Enemy units a script destroys (the reference's only use: Deadeye Operative's ability).

    Attributes:
        card: Name of the card type destroyed.
        count: How many.
        not_blocking: Only units that cannot block right now qualify.
    """

    card: str
    count: int = 1
    not_blocking: bool = False


@dataclass(frozen=True)
class Target:
    """A targeted click: ``snipe`` destroys an enemy unit, ``chill`` adds chill to one.

    Attributes:
        kind: ``"snipe"`` or ``"chill"``.
        amount: Chill added (chill only).
        hp_at_most: Snipe condition: the target's health is at most this.
        tech: Snipe condition: the target is an Animus, Blastforge or Conduit.
    """

    kind: str
    amount: int = 0
    hp_at_most: int | None = None
    tech: bool = False


@dataclass(frozen=True)
class Script:
    """One script of a card (see the module docstring).

    Attributes:
        cost: Resources paid to run it (abilities).
        sac: ``(card, count)`` own units sacrificed to run it (abilities).
        hp_cost: Health the unit pays to run it (abilities).
        gain: Resources received by the owner.
        give: Resources received by the opponent.
        create: Units created.
        destroy: Enemy units destroyed.
        selfsac: The unit sacrifices itself after the script.
        delay: The unit is inactive for this many of its owner's turn starts afterwards.
        resonate: ``(card, amount)``: gain ``amount`` per active own unit of ``card`` (start).
    """

    cost: tuple[int, ...] | str = ZERO
    sac: tuple[tuple[str, int], ...] = ()
    hp_cost: int = 0
    gain: tuple[int, ...] | str = ZERO
    give: tuple[int, ...] | str = ZERO
    create: tuple[Create, ...] = ()
    destroy: tuple[Destroy, ...] = ()
    selfsac: bool = False
    delay: int = 0
    resonate: tuple[str, tuple[int, ...] | str] | None = None

    def __post_init__(self) -> None:
        for name in ("cost", "gain", "give"):
            value = getattr(self, name)
            if isinstance(value, str):
                object.__setattr__(self, name, parse_resources(value))
        if self.resonate is not None and isinstance(self.resonate[1], str):
            object.__setattr__(
                self, "resonate", (self.resonate[0], parse_resources(self.resonate[1]))
            )

    @property
    def has_effect(self) -> bool:
        """True when running the script does something (the reference's ``hasEffect``)."""
        return bool(
            any(self.gain)
            or any(self.give)
            or self.create
            or self.destroy
            or self.selfsac
            or self.resonate is not None
        )


@dataclass(frozen=True)
class Card:
    """One card type of the library.

    Attributes:
        name: UI name (``"Steelsplitter"``).
        engine: The reference engine's internal name (``"Treant"``).
        base: Member of the base set.
        supply: Copies each player may buy (legendary 1, rare 4, normal 10, trinket 20).
        cost: Purchase price.
        buy_sac: ``(card, count)`` own units sacrificed to buy it.
        hp: Starting health (toughness).
        hp_gain: Health regained at the start of its owner's turn.
        hp_max: Cap for ``hp_gain`` (0: the starting health).
        build: Build time: turns under construction after purchase (0: prompt).
        lifespan: Owner turns it lives once built (0: forever).
        charges: Ability uses (0: unlimited).
        blocker: Can block while its ability is unused.
        blocks_when_used: Can still block after its ability was used this turn.
        frontline: Can be attacked directly by the enemy in its action phase.
        fragile: Damage persists (health goes down); others are all-or-nothing.
        spell: Sacrifices itself when bought (after its purchase script).
        start: Start-of-turn script.
        ability: Click script.
        on_buy: Purchase script.
        target: Targeted click.
        index: Position in :data:`CARDS` (set by the table).
    """

    name: str
    engine: str = ""
    base: bool = False
    supply: int = 10
    cost: tuple[int, ...] | str = ZERO
    buy_sac: tuple[tuple[str, int], ...] = ()
    hp: int = 1
    hp_gain: int = 0
    hp_max: int = 0
    build: int = 1
    lifespan: int = 0
    charges: int = 0
    blocker: bool = False
    blocks_when_used: bool = False
    frontline: bool = False
    fragile: bool = False
    spell: bool = False
    start: Script | None = None
    ability: Script | None = None
    on_buy: Script | None = None
    target: Target | None = None
    index: int = field(default=-1, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.cost, str):
            object.__setattr__(self, "cost", parse_resources(self.cost))
        if not self.engine:
            object.__setattr__(self, "engine", self.name)

    @property
    def has_ability(self) -> bool:
        """The click script does something (the reference's ``hasAbility``)."""
        return self.ability is not None and self.ability.has_effect

    @property
    def clickable(self) -> bool:
        """The unit can be clicked in the action phase (an ability or a targeted click)."""
        return self.has_ability or self.target is not None

    @property
    def prompt(self) -> bool:
        """A blocker that can block the turn it is bought."""
        return self.blocker and self.build == 0

    @property
    def tech(self) -> bool:
        """Animus, Blastforge or Conduit (the targets of Kinetic Driver)."""
        return self.engine in ("Academy", "Brooder", "Conduit")

    @property
    def econ(self) -> bool:
        """A free click that only makes gold, like Drone (the reference's ``isEconCard``)."""
        a = self.ability
        return (
            self.has_ability
            and a is not None
            and a.gain[GOLD] > 0
            and not any(a.cost)
            and not a.sac
            and self.attack == 0
        )

    @property
    def attack(self) -> int:
        """Attack made per turn by its click and start scripts (without resonance)."""
        total = 0
        for script in (self.ability, self.start):
            if script is not None:
                total += script.gain[ATTACK]
        return total

    @property
    def max_health(self) -> int:
        """Cap of regained health."""
        return self.hp_max if self.hp_max > 0 else self.hp


def card(name: str, **kwargs: object) -> Card:
    """Table helper: a :class:`Card` with keyword facts."""
    return Card(name, **kwargs)  # type: ignore[arg-type]


# fmt: off
_TABLE: tuple[Card, ...] = (
    card("Drone", base=True, supply=20, cost="3g 1E", hp=1, blocker=True, ability=Script(gain="1g")),
    card("Engineer", base=True, supply=20, cost="2g", hp=1, blocker=True, start=Script(gain="1E")),
    card("Blastforge", engine="Brooder", base=True, supply=10, cost="5g", hp=3, start=Script(gain="1B")),
    card("Animus", engine="Academy", base=True, supply=10, cost="6g", hp=2, start=Script(gain="2R")),
    card("Conduit", base=True, supply=10, cost="4g", hp=3, fragile=True, start=Script(gain="1G")),
    card("Steelsplitter", engine="Treant", base=True, supply=10, cost="6g 1B", hp=3, blocker=True, ability=Script(gain="1A")),
    card("Wall", base=True, supply=10, cost="5g 1B", hp=3, build=0, blocker=True),
    card("Rhino", engine="Elephant", base=True, supply=10, cost="5g 1R", hp=2, build=0, charges=2, blocker=True, ability=Script(gain="1A")),
    card("Tarsier", engine="Tesla Tower", base=True, supply=10, cost="4g 1R", hp=1, build=2, start=Script(gain="1A")),
    card("Forcefield", engine="Blood Barrier", base=True, supply=20, cost="1g 1G", buy_sac=(("Drone", 1),), hp=2, build=0, blocker=True, fragile=True),
    card("Gauss Cannon", engine="Minicannon", base=True, supply=10, cost="6g 1G", hp=5, fragile=True, start=Script(gain="1A")),
    card("Doomed Drone", supply=10, cost="2g 1E", hp=1, lifespan=4, blocker=True, ability=Script(gain="1g")),
    card("Wild Drone", supply=10, cost="5g 2E", hp=3, frontline=True, start=Script(gain="2g")),
    card("Vivid Drone", supply=4, cost="4g 3E", buy_sac=(("Drone", 3),), hp=1, start=Script(gain="5g")),
    card("Auric Impulse", engine="Bond", supply=20, cost="3g 1E", hp=1, start=Script(gain="4g", selfsac=True)),
    card("Galvani Drone", supply=10, cost="1g 1E", hp=1, frontline=True, ability=Script(cost="1E", gain="1g")),
    card("Chrono Filter", engine="Electrophore", supply=1, cost="4g", hp=2, start=Script(gain="1B 1R", delay=2)),
    card("Centrifuge", supply=1, cost="12g 3E", hp=1, build=3, start=Script(gain="20g 2B 2R 2G", selfsac=True)),
    card("Savior", supply=1, cost="9g", hp=8, build=8, fragile=True, start=Script(gain="2A", resonate=("Drone", "1g")), ability=Script(sac=(("Drone", 1),), create=(Create("Plasmafier"),))),
    card("Barrier", engine="Sound Barrier", supply=20, cost="1g 1G", hp=1, build=0, lifespan=1, blocker=True),
    card("Trinity Drone", engine="Machine", supply=10, cost="2g 1G", buy_sac=(("Drone", 2),), hp=5, fragile=True, start=Script(gain="3g")),
    card("Thorium Dynamo", supply=4, cost="5g 1E", buy_sac=(("Drone", 3),), hp=10, build=2, fragile=True, start=Script(gain="5g 1G"), ability=Script(cost="3G", gain="3g")),
    card("Gauss Charge", engine="Flame Kin", supply=20, cost="1g 1G", hp=1, start=Script(gain="1A", selfsac=True)),
    card("Cryo Ray", engine="Distractorod", supply=10, cost="1g 1G", hp=3, fragile=True, ability=Script(hp_cost=1), target=Target("chill", 1)),
    card("Iso Kronus", engine="Cyclic Attacker", supply=10, cost="5g 1G", hp=5, build=2, fragile=True, start=Script(gain="2A", delay=2)),
    card("Xaetron", supply=1, cost="11g 5G", hp=4, hp_gain=4, hp_max=12, build=0, blocker=True, fragile=True, ability=Script(hp_cost=7, create=(Create("Gauss Charge", 5),))),
    card("Aegis", engine="Fragilewall", supply=10, cost="6g 3G", hp=5, build=0, blocker=True, fragile=True),
    card("Cluster Bolt", engine="Meteor Shower", supply=10, cost="4G", hp=1, build=0, spell=True, on_buy=Script(create=(Create("Gauss Charge", 4), Create("Gauss Charge", enemy=True),))),
    card("Plexo Cell", engine="Uberdefcell", supply=10, cost="2g 2G", buy_sac=(("Drone", 1),), hp=4, build=0, lifespan=1, blocker=True),
    card("Kinetic Driver", engine="Arsonist", supply=4, cost="5g 1G", hp=1, lifespan=6, start=Script(gain="1A"), ability=Script(cost="3g", selfsac=True), target=Target("snipe", tech=True)),
    card("Zemora Voidbringer", engine="NeoContraption", supply=1, cost="6g 2G", hp=20, build=6, fragile=True, ability=Script(cost="8G", gain="8g 8A")),
    card("Mahar Rectifier", engine="Viletrope", supply=10, cost="11g 2G", hp=5, hp_gain=2, blocker=True, fragile=True, ability=Script(gain="2A")),
    card("Resophore", engine="Butter on Blood", supply=1, cost="1g 1R 1G", hp=4, build=5, fragile=True, start=Script(resonate=("Forcefield", "1A"))),
    card("Venge Cannon", engine="Ion Cannon", supply=10, cost="1g 3G", buy_sac=(("Drone", 3),), hp=9, fragile=True, start=Script(gain="2A"), ability=Script(cost="4G", hp_cost=2, create=(Create("Gauss Charge", 3),))),
    card("Tantalum Ray", supply=10, cost="7g 2G", hp=9, fragile=True, start=Script(gain="1A"), ability=Script(hp_cost=2, create=(Create("Gauss Charge"),))),
    card("Asteri Cannon", engine="Giga Cannon", supply=4, cost="16g 4G", hp=16, fragile=True, start=Script(gain="3A"), ability=Script(hp_cost=5, create=(Create("Barrier", delay=0),))),
    card("Fission Turret", engine="Deconstructible Tower", supply=10, cost="4g 1G", hp=1, lifespan=5, start=Script(gain="1A"), ability=Script(cost="3E", gain="3G", selfsac=True)),
    card("Gauss Fabricator", engine="Fabricator", supply=1, cost="12g 4G", hp=10, lifespan=8, fragile=True, start=Script(create=(Create("Gauss Cannon"),))),
    card("Nivo Charge", engine="Volatile Blast", supply=10, cost="2g 1G", hp=1, lifespan=1, ability=Script(selfsac=True), target=Target("chill", 5)),
    card("Ebb Turbine", supply=10, cost="6g 1E 1B", hp=5, start=Script(gain="1g"), ability=Script(sac=(("Drone", 1),), gain="4g 1E")),
    card("Militia", supply=10, cost="6g 1B", hp=4, start=Script(gain="1A"), ability=Script(cost="1A", gain="1g")),
    card("Pixie", supply=20, cost="1g 1B", hp=1, ability=Script(gain="1A", selfsac=True)),
    card("Thermite Core", engine="Adrenaline Reactor", supply=4, cost="1g 1B", hp=1, lifespan=7, ability=Script(cost="1A", create=(Create("Pixie"),))),
    card("Shredder", engine="Panther", supply=10, cost="5g 1B", hp=4, blocker=True, frontline=True, ability=Script(gain="1A")),
    card("Polywall", supply=10, cost="10g 1B", hp=6, build=0, blocker=True, frontline=True),
    card("Energy Matrix", engine="Golem", supply=4, cost="8g 2B", hp=5, build=0, blocker=True),
    card("Grenade Mech", engine="Blade", supply=4, cost="10g 2B", hp=4, start=Script(gain="1A"), ability=Script(sac=(("Blastforge", 1),), create=(Create("Pixie", 3),)), on_buy=Script(create=(Create("Pixie", 3),))),
    card("Drake", supply=4, cost="12g 2B", hp=4, start=Script(gain="2A"), ability=Script(sac=(("Blastforge", 1),), gain="2A")),
    card("Odin", engine="Furion", supply=1, cost="19g 3B", hp=4, blocker=True, ability=Script(sac=(("Steelsplitter", 1),), gain="4A"), on_buy=Script(create=(Create("Steelsplitter", 3),))),
    card("Doomed Wall", engine="Doomwall", supply=10, cost="7g 1B", hp=4, build=0, lifespan=3, blocker=True),
    card("Defense Grid", supply=1, cost="16g 3B", hp=7, lifespan=7, blocker=True, start=Script(create=(Create("Drone"),))),
    card("Doomed Mech", supply=10, cost="8g 2B", hp=5, lifespan=5, blocker=True, ability=Script(gain="2A")),
    card("Apollo", engine="Flame Assassin", supply=1, cost="13g 3B", hp=4, build=2, target=Target("snipe", hp_at_most=3)),
    card("Deadeye Operative", engine="Nether Warrior", supply=4, cost="4g 2B", buy_sac=(("Steelsplitter", 1),), hp=4, start=Script(gain="2A"), ability=Script(cost="2A", destroy=(Destroy("Drone", not_blocking=True),))),
    card("Steelforge", engine="Conscription", supply=4, cost="4g", buy_sac=(("Blastforge", 1),), hp=4, start=Script(gain="2B"), ability=Script(cost="1g 2B", sac=(("Drone", 1),), create=(Create("Steelsplitter"),))),
    card("Lancetooth", supply=10, cost="8g 1B 1A", hp=4, build=2, blocker=True, ability=Script(gain="2A")),
    card("Auride Core", engine="Hate Reactor", supply=4, cost="1g 1B", hp=1, ability=Script(cost="1A", gain="2g")),
    card("Omega Splitter", engine="Supertreant", supply=4, cost="14g 3B", hp=6, blocker=True, ability=Script(gain="3A")),
    card("Immolite", engine="Cowardly Marine", supply=20, cost="3g 1R", hp=1, blocker=True, ability=Script(gain="1A", delay=2)),
    card("Blood Pact", engine="Unholy Barrier", supply=10, cost="3g 1R", hp=1, build=0, spell=True, on_buy=Script(create=(Create("Husk", 4, delay=0), Create("Tarsier", enemy=True),))),
    card("Frost Brooder", engine="Psychosis Cannon", supply=4, cost="5g 2R", hp=2, lifespan=6, start=Script(create=(Create("Frostbite", lifespan=3),))),
    card("Shadowfang", engine="Flame Warrior", supply=10, cost="7g 3R", hp=1, start=Script(gain="2A")),
    card("Cynestra", engine="Marauder", supply=4, cost="12g 1R 3G", hp=2, fragile=True, start=Script(gain="3A")),
    card("Ossified Drone", engine="Neo Overlord", supply=1, cost="2g 1R", buy_sac=(("Drone", 1),), hp=2, blocker=True, start=Script(gain="1g"), ability=Script(cost="1R", sac=(("Drone", 1),), create=(Create("Ossified Drone"),))),
    card("Grimbotch", engine="Doomed Infantry", supply=10, cost="4g 1R", hp=2, lifespan=4, blocker=True, ability=Script(gain="1A")),
    card("Electrovore", engine="Fickle Marine", supply=10, cost="4g 1R", hp=2, blocker=True, ability=Script(cost="1E", gain="1A")),
    card("Husk", engine="House", supply=20, cost="2g 1R", hp=1, build=0, blocker=True),
    card("Vai Mauronax", supply=1, cost="14g 1B 3R", hp=6, start=Script(gain="3A"), ability=Script(cost="1A"), target=Target("chill", 7)),
    card("Bloodrager", engine="Gnoll", supply=10, cost="7g 1R 3A", hp=2, start=Script(gain="2A")),
    card("Tatsu Nullifier", engine="Nightmare Cannon", supply=4, cost="12g 4R", hp=2, start=Script(gain="2A"), target=Target("chill", 5)),
    card("Shiver Yeti", engine="Jester", supply=10, cost="5g 1R", hp=2, build=0, blocker=True, target=Target("chill", 2)),
    card("Perforator", engine="Trickster", supply=10, cost="3g 1R", hp=2, blocker=True, ability=Script(cost="1R", gain="1A")),
    card("Frostbite", engine="Screech Blast", supply=20, cost="2g 1R", hp=1, build=2, ability=Script(selfsac=True), target=Target("chill", 3)),
    card("Nitrocybe", supply=20, cost="1g 1R", hp=1, build=2, blocker=True, ability=Script(gain="1A", selfsac=True)),
    card("Blood Phage", supply=4, cost="7g 1E 2R", hp=2, start=Script(gain="1g 1A"), ability=Script(cost="1R", gain="1g")),
    card("Amporilla", engine="Annihilator", supply=4, cost="12g 3R", hp=3, start=Script(resonate=("Tarsier", "1A"))),
    card("Lucina Spinos", engine="Angelic", supply=1, cost="17g 4R", hp=1, start=Script(gain="4A"), ability=Script(sac=(("Drone", 1),), create=(Create("Perforator"),))),
    card("Corpus", supply=4, cost="6g 3R", hp=2, build=0, charges=2, blocker=True, ability=Script(cost="4g 3R", create=(Create("Husk", 4, delay=0),)), on_buy=Script(create=(Create("Husk", 2, delay=0),))),
    card("Synthesizer", engine="Factory", supply=4, cost="6g 1B", hp=4, start=Script(gain="2G"), ability=Script(cost="3G", gain="2B")),
    card("Xeno Guardian", engine="Stone Guardian", supply=10, cost="4g 1B 1G", hp=4, build=2, blocker=True, start=Script(gain="1A")),
    card("Borehole Patroller", supply=10, cost="6g 1B 1G", hp=2, blocker=True, start=Script(gain="1A"), on_buy=Script(create=(Create("Pixie"),))),
    card("Chieftain", engine="Tank", supply=10, cost="8g 1B 2G", hp=7, lifespan=3, blocker=True, fragile=True, ability=Script(gain="2A")),
    card("Tesla Coil", supply=4, cost="12g 1B 2G", hp=3, fragile=True, ability=Script(sac=(("Engineer", 1),), gain="3A"), on_buy=Script(create=(Create("Engineer", 3),))),
    card("Plasmafier", engine="BFD", supply=4, cost="12g 1B 3G", hp=4, blocker=True, fragile=True, ability=Script(sac=(("Drone", 1),), gain="4A")),
    card("Antima Comet", supply=1, cost="3g 1B 1R 1G", hp=1, build=2, start=Script(selfsac=True, resonate=("Engineer", "1A"))),
    card("Thunderhead", supply=1, cost="15g 1B 5G", hp=10, lifespan=3, blocker=True, frontline=True, start=Script(gain="5A")),
    card("Redeemer", engine="Rukh", supply=4, cost="9g 1B 2G", hp=4, blocker=True, ability=Script(gain="3A"), on_buy=Script(create=(Create("Gauss Charge", 4, enemy=True),))),
    card("Ferritin Sac", supply=10, cost="1g 1R", hp=1, build=2, ability=Script(gain="1B", selfsac=True)),
    card("Flame Animus", engine="Piranha Academy", supply=4, cost="7g 1B", hp=2, start=Script(gain="1R 1A")),
    card("Infusion Grid", engine="Hotel", supply=10, cost="5g 1B", hp=4, blocker=True, ability=Script(cost="1R", create=(Create("Husk", 4, delay=0),), selfsac=True)),
    card("Iceblade Golem", engine="Minimarshal", supply=10, cost="7g 1B 1R", hp=6, frontline=True, start=Script(gain="1A"), target=Target("chill", 2)),
    card("Arka Sodara", engine="Roshan", supply=1, cost="7g 2B 1R 7A", hp=7, build=0, blocker=True, ability=Script(gain="4A")),
    card("Cauterizer", engine="Demolition Mech", supply=4, cost="11g 1B 2R", hp=3, blocker=True, ability=Script(cost="4E", gain="2A"), on_buy=Script(create=(Create("Engineer", 4),))),
    card("Hellhound", engine="Grenadier", supply=10, cost="5g 1B 1R", hp=1, start=Script(gain="1A"), on_buy=Script(create=(Create("Engineer"),))),
    card("Hannibull", engine="Statue", supply=4, cost="10g 1B 1R", hp=7, blocker=True, frontline=True, start=Script(gain="1A"), ability=Script(gain="1A")),
    card("Scorchilla", engine="Rocket Artillery", supply=10, cost="3g 1R 1G", hp=3, build=3, blocker=True, fragile=True, ability=Script(gain="3A", delay=3)),
    card("Feral Warden", engine="HPMan", supply=10, cost="5g 1R 1G", hp=3, build=0, blocker=True, fragile=True, ability=Script(gain="1A")),
    card("Gaussite Symbiote", engine="Gasplant", supply=4, cost="7g 2R", hp=2, start=Script(gain="1G 1A"), ability=Script(cost="3G", create=(Create("Gauss Charge", 5),), selfsac=True)),
    card("Protoplasm", engine="Pixieflower", supply=10, cost="7g 2R 2G", hp=4, build=0, blocker=True, fragile=True, ability=Script(gain="4A", selfsac=True)),
    card("Tia Thurnax", engine="Ephemeron", supply=1, cost="6g 1R 3G", buy_sac=(("Drone", 7),), hp=4, build=0, charges=3, blocker=True, fragile=True, ability=Script(gain="7A")),
    card("Endotherm Kit", engine="Disruption Kit", supply=1, cost="5g 1R 3G", hp=1, build=0, spell=True, on_buy=Script(create=(Create("Frostbite", 4, delay=4), Create("Cryo Ray", 4, delay=4),))),
    card("Sentinel", supply=10, cost="7g 1R 1G", hp=4, charges=3, blocker=True, fragile=True, ability=Script(gain="1A", create=(Create("Engineer"),))),
    card("Centurion", engine="Battalion", supply=1, cost="18g 2B 1R 2G", hp=6, build=0, blocker=True, start=Script(gain="2A")),
    card("The Wincer", engine="Beam of Wincing", supply=1, cost="8g 2B 1R 1G", hp=5, build=3, fragile=True, ability=Script(sac=(("Drone", 5),), gain="15A", delay=3)),
)
# fmt: on

#: Every card type, base set first then the random pool, in the reference's library order.
CARDS: tuple[Card, ...] = tuple(
    Card(**{**{f: getattr(c, f) for f in c.__dataclass_fields__}, "index": i})
    for i, c in enumerate(_TABLE)
)
NUM_CARDS = len(CARDS)

_BY_NAME: dict[str, int] = {}
for _c in CARDS:
    _BY_NAME[_c.name.lower()] = _c.index
    _BY_NAME.setdefault(_c.engine.lower(), _c.index)

#: Index of each card by UI name.
CARD_INDEX: dict[str, int] = {c.name: c.index for c in CARDS}

#: Library indices of the base set (11 cards).
BASE_SET: tuple[int, ...] = tuple(c.index for c in CARDS if c.base)
#: Library indices of the random pool (93 cards).
POOL: tuple[int, ...] = tuple(c.index for c in CARDS if not c.base)


def card_by_name(name: str) -> Card:
    """The card called ``name`` (UI or engine name, any case).

    Raises:
        CardSetError: For an unknown name; the message lists a few close names.
    """
    index = _BY_NAME.get(str(name).strip().lower())
    if index is None:
        import difflib

        close = difflib.get_close_matches(str(name), [c.name for c in CARDS], n=4)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise CardSetError(f"unknown Prismata card {name!r}{hint}")
    return CARDS[index]


def needs_closure(indices: Iterable[int]) -> tuple[int, ...]:
    """The cards that can appear in a game with these buyable cards (they create others)."""
    seen: list[int] = []
    stack = list(indices)
    while stack:
        i = stack.pop()
        if i in seen:
            continue
        seen.append(i)
        c = CARDS[i]
        for script in (c.start, c.ability, c.on_buy):
            if script is not None:
                for made in script.create:
                    stack.append(card_by_name(made.card).index)
    return tuple(sorted(seen))


def _check_table() -> None:
    """Every name a card mentions exists (run at import: a typo fails loudly)."""
    for c in CARDS:
        names = [n for n, _ in c.buy_sac]
        for script in (c.start, c.ability, c.on_buy):
            if script is None:
                continue
            names += [n for n, _ in script.sac]
            names += [m.card for m in script.create]
            names += [d.card for d in script.destroy]
            if script.resonate is not None:
                names.append(script.resonate[0])
        for n in names:
            card_by_name(n)
    if len(BASE_SET) != 11 or len(POOL) != 93:  # pragma: no cover - guards the table
        raise AssertionError(f"card table: {len(BASE_SET)} base cards, {len(POOL)} pool cards")


_check_table()
