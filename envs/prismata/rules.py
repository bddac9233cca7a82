"""Prismata rules: the forward model.

Source: ``specs/prismata_rules.md`` sections 1-7, written from davechurchill/PrismataAI
(``GameState``, ``Card``, ``CardType``); where the spec was unclear the reference's engine
decided. The facts that decide play:

* Two players; player 0 starts with 6 Drones and 2 Engineers, player 1 with 7 Drones and 2
  Engineers; no resources. Each buyable card has a supply per player (legendary 1, rare 4,
  normal 10, trinket 20).
* A player-turn is: **defense** (only when the opponent ended its turn with attack: assign
  blockers one by one until the incoming attack is absorbed), **start of turn** (automatic:
  energy, blue, red and attack are emptied, gold and green carry over; each unit ticks its
  lifespan, delay and construction, regains health, becomes clickable, loses its chill; then
  the start-of-turn scripts of built, active units run), **action** (any sequence of clicks,
  purchases, targeted clicks and frontline attacks, closed by ``end_phase``), and **breach**
  when the attack is at least the enemy's total available defense (every enemy blocker dies
  and the attacker spends the rest on enemy units of its choice).
* Blocking with ``h`` health against ``a`` incoming attack removes ``min(a, h)`` from the attack;
  the blocker dies when ``a >= h``; a *fragile* survivor keeps the damage, any other survivor
  stays at full health. Breaching a non-fragile unit needs attack at least its health; units
  under construction can only be breached once every enemy unit is under construction.
* Chill: a chilled unit with chill >= health is frozen and cannot block; frozen units cannot be
  breached until a non-frontline unit has been breached or blocked (see "our choices" below).
* A player **loses when it owns no unit** at the end of a turn (the check is made then only);
  the game is a **draw** after ``max_rounds`` (100) rounds, a round being a turn of each
  player: the reference's limit of 200 player-turns.

Our choices, where the reference's engine has machinery that an environment should not have:

* The reference's undo actions (undo click, sell, undo chill, undo breach) are not actions
  here; neither are its automatic phases: the defense phase ends by itself once the attack is
  absorbed, the breach phase once nothing more can be breached, and the confirm phase is part
  of ending a turn. Every decision of ``current_player`` is therefore a real choice.
* A targeted click (snipe, chill) is two decisions, ``use`` then ``target``, and ``use`` is
  legal only when a legal target exists (the reference lets a player click and cancel).
* When the only enemy units left in a breach are frozen, the reference's player must undo a
  chill; here the frozen units become breachable instead.
* Each player has ``max_units`` unit slots (100 by default, far above what games reach). A
  purchase needs a free slot; units a script would create beyond the limit are not created.
* The engine does not generate purchases of Forcefield for its own AI; here they are legal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from stratagem.envs.core import Game, GameSpec, InvalidStateError, TwoPlayerState
from stratagem.envs.prismata.actions import ActionLayout
from stratagem.envs.prismata.cards import (
    BASE_SET,
    CARDS,
    NUM_CARDS,
    POOL,
    RESOURCE_NAMES,
    CardSetError,
    card_by_name,
    format_resources,
    needs_closure,
    parse_resources,
)

__all__ = [
    "ACTION",
    "BREACH",
    "DEFENSE",
    "PHASE_NAMES",
    "PrismataGame",
    "PrismataState",
    "UnitView",
]

GAME_NAME = "prismata"
RULES_VERSION = 0  # the v0 of stratagem/<Game>-v0 and <game>_v0: bump them together
NUM_PLAYERS = 2

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

#: Default number of random cards added to the base set (the paper's tournaments use 8).
DEFAULT_CARDS = "random:8"


class _Script:
    """A card script compiled into plain tuples for the hot loops."""

    __slots__ = (
        "cost",
        "create",
        "delay",
        "destroy",
        "gain",
        "give",
        "hp_cost",
        "resonate",
        "sac",
        "selfsac",
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
_DRONE = card_by_name("Drone").index
_ENGINEER = card_by_name("Engineer").index


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


class _CardSet:
    """The cards of one game: buyable types and every type that can appear (shared)."""

    __slots__ = ("buy_pos", "buyable", "in_game", "present", "types")

    def __init__(self, types: Sequence[int]) -> None:
        self.types = tuple(sorted(set(types)))
        self.buy_pos = {t: i for i, t in enumerate(self.types)}
        self.present = needs_closure(self.types + BASE_SET)
        buyable = [False] * NUM_CARDS
        for t in self.types:
            buyable[t] = True
        self.buyable = tuple(buyable)
        in_game = [False] * NUM_CARDS
        for t in self.present:
            in_game[t] = True
        self.in_game = tuple(in_game)


def parse_card_set(cards: str) -> tuple[str, int, tuple[int, ...]]:
    """Interpret the ``cards`` option.

    Returns ``("random", n, ())`` for ``"random:N"`` and ``"base"`` (n = 0), or
    ``("fixed", 0, indices)`` for a comma-separated list of card names (added to the base set).

    Raises:
        CardSetError: For a malformed option or an unknown card.
    """
    if not isinstance(cards, str) or not cards.strip():
        raise CardSetError(
            f"prismata: cards must be 'base', 'random:N' or a comma-separated list of card "
            f"names, got {cards!r}"
        )
    text = cards.strip()
    if text == "base":
        return "random", 0, ()
    if text.startswith("random:"):
        count = text[len("random:") :].strip()
        if not count.isdigit() or not 0 <= int(count) <= len(POOL):
            raise CardSetError(
                f"prismata: cards={cards!r}: the number of random cards must be an integer "
                f"0..{len(POOL)}"
            )
        return "random", int(count), ()
    indices = []
    for name in text.split(","):
        name = name.strip()
        if not name:
            raise CardSetError(f"prismata: cards={cards!r} has an empty card name")
        index = card_by_name(name).index
        if C_SUPPLY[index] == 0:  # pragma: no cover - every loadable card is buyable
            raise CardSetError(f"prismata: card {name!r} cannot be bought")
        if index in BASE_SET:
            raise CardSetError(f"prismata: {name!r} is in the base set already")
        if index in indices:
            raise CardSetError(f"prismata: card {name!r} is listed twice in cards={cards!r}")
        indices.append(index)
    return "fixed", 0, tuple(indices)


class PrismataGame(Game):
    """Prismata with the base set plus random or given cards.

    Args:
        cards: ``"random:N"`` (N cards drawn uniformly without replacement from the 93-card
            pool by the seed of :meth:`new_initial_state`; the default is 8), ``"base"`` (base
            set only) or a comma-separated list of card names added to the base set
            (``"Apollo,Wild Drone"``; UI or engine names).
        max_rounds: Rounds played at most (a round is a turn of each player); the game is a
            draw after them (100: the reference's 200 player-turns).
        max_units: Unit slots per player; sets the size of the action and observation spaces.

    Raises:
        CardSetError: For a malformed ``cards`` option or an unknown card name.
        ValueError: For a bad ``max_rounds`` or ``max_units``.
    """

    def __init__(
        self, *, cards: str = DEFAULT_CARDS, max_rounds: int = 100, max_units: int = 100
    ) -> None:
        for name, value, low in (("max_rounds", max_rounds, 1), ("max_units", max_units, 16)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"prismata: {name} must be an integer >= {low}, got {value!r}")
        if max_units > 1000:
            raise ValueError(f"prismata: max_units must be at most 1000, got {max_units}")
        self.mode, self.random_count, fixed = parse_card_set(cards)
        #: The draw limit of the player-turn counter (``turn``): two player-turns a round.
        self.turn_limit = 2 * max_rounds
        self.max_units = max_units
        self.layout = ActionLayout(max_units)
        self._sets: dict[tuple[int, ...], _CardSet] = {}
        self._fixed = self.card_set(BASE_SET + fixed) if self.mode == "fixed" else None
        if self.mode == "random" and self.random_count == 0:
            self._fixed = self.card_set(BASE_SET)
        # Decisions per turn are bounded: a click and a target per unit, one purchase per copy
        # of supply, and each block, frontline attack or breach kills a unit or ends the attack.
        per_turn = 5 * max_units + sum(C_SUPPLY) + 4
        from stratagem.envs.prismata.observation import observation_channels

        channels = observation_channels()
        self.spec = GameSpec(
            name=GAME_NAME,
            version=RULES_VERSION,
            num_players=NUM_PLAYERS,
            action_size=self.layout.size,
            observation_shape=(2, max_units + NUM_CARDS, len(channels)),
            max_game_length=self.turn_limit * per_turn,
            reward_range=(-1.0, 1.0),
            deterministic=True,
            perfect_information=True,
            zero_sum=True,
            action_layout=None,
            observation_planes=channels,
            observation_bounds=(0.0, 1.0),
            config={"cards": cards, "max_rounds": max_rounds, "max_units": max_units},
        )

    # ------------------------------------------------------------------ card sets
    def card_set(self, types: Sequence[int]) -> _CardSet:
        """The shared :class:`_CardSet` of these buyable types (cached)."""
        key = tuple(sorted(set(types)))
        found = self._sets.get(key)
        if found is None:
            found = self._sets[key] = _CardSet(key)
        return found

    def draw_cards(self, seed: int | None) -> tuple[int, ...]:
        """The buyable cards of the game started with ``seed`` (library indices, sorted)."""
        if self._fixed is not None:
            return self._fixed.types
        rng = np.random.default_rng(seed)
        drawn = rng.choice(len(POOL), size=self.random_count, replace=False)
        return tuple(sorted(BASE_SET + tuple(POOL[int(i)] for i in drawn)))

    @property
    def end_turn_action(self) -> int:
        """Index of ``end_phase``, the action that closes a player's action phase."""
        return self.layout.end

    # ------------------------------------------------------------------ contract
    def new_initial_state(self, seed: int | None = None) -> PrismataState:
        """The starting position (the seed draws the random cards; play is deterministic)."""
        return self.initial_state_with_cards(self.draw_cards(seed))

    def initial_state_with_cards(self, types: Sequence[int]) -> PrismataState:
        """The starting position with these buyable cards (library indices, base set included).

        Raises:
            CardSetError: If a base-set card is missing or an index is not a card.
        """
        types = tuple(int(t) for t in types)
        for t in types:
            if not 0 <= t < NUM_CARDS:
                raise CardSetError(f"prismata: card index {t} out of range 0..{NUM_CARDS - 1}")
        missing = [CARDS[t].name for t in BASE_SET if t not in types]
        if missing:
            raise CardSetError(f"prismata: the card set lacks base-set cards {missing}")
        cs = self.card_set(types)
        state = PrismataState.__new__(PrismataState)
        state.game = self
        state._cs = cs
        state.u = [[], []]
        state.live = [[], []]
        state.res = [0] * 12
        state.supply = [[C_SUPPLY[t] for t in cs.types], [C_SUPPLY[t] for t in cs.types]]
        state.phase = ACTION
        state.current_player = 0
        state.turn = 0
        state.pending = -1
        state.breach_frozen = False
        state.winner = None
        for player, drones in ((0, 6), (1, 7)):
            for _ in range(drones):
                state._add_unit(player, _DRONE, 0, 0, 0, True)
            for _ in range(2):
                state._add_unit(player, _ENGINEER, 0, 0, 0, True)
        state._begin_turn(0)
        return state

    def position(
        self,
        units: Sequence[Sequence[str]] = ((), ()),
        *,
        resources: Sequence[str] = ("", ""),
        player: int = 0,
        phase: str = "action",
        cards: Sequence[str] | None = None,
        turn: int = 0,
    ) -> PrismataState:
        """A hand-made position, for scenarios, tests and puzzles.

        Args:
            units: Per player, unit specs in arrival order (slots 0, 1, ...): a card name,
                optionally ``*n`` for ``n`` copies, then ``:`` and comma-separated settings
                ``hp=``, ``chill=``, ``build=``, ``delay=``, ``life=``, ``charges=`` and a
                status ``ready``, ``used`` or ``inert`` (default: ready when the unit is
                clickable, built and active). Example: ``"Drone*3:used"``,
                ``"Gauss Cannon:hp=2"``.
            resources: Per player, a resource string (``"8g 1E"``; attack included, so the
                incoming attack of a defense phase is the opponent's ``A``).
            player: The player to move.
            phase: ``"action"``, ``"defense"`` or ``"breach"``.
            cards: Names of the buyable non-base cards (default: this configuration's cards
                when it has a fixed set, plus the non-base cards of ``units``).
            turn: Player-turns already played.

        Raises:
            CardSetError: For an unknown card.
            ValueError: For a malformed unit spec, resource string, phase or player.
        """
        if player not in (0, 1):
            raise ValueError(f"prismata: player must be 0 or 1, got {player!r}")
        if phase not in PHASE_NAMES:
            raise ValueError(f"prismata: phase must be one of {PHASE_NAMES}, got {phase!r}")
        if len(units) != 2 or len(resources) != 2:
            raise ValueError("prismata: units and resources need one entry per player")
        parsed = [[_parse_unit_spec(spec) for spec in side] for side in units]
        if cards is None:
            extra = {c for side in parsed for c, *_ in side if c not in BASE_SET}
            if self._fixed is not None:
                extra |= set(self._fixed.types) - set(BASE_SET)
        else:
            extra = {card_by_name(n).index for n in cards} - set(BASE_SET)
        state = self.initial_state_with_cards(BASE_SET + tuple(sorted(extra)))
        state.u = [[], []]
        state.live = [[], []]
        for p in (0, 1):
            for card, count, settings in parsed[p]:
                for _ in range(count):
                    slot = state._add_unit(p, card, 0, 0, 0)
                    if slot < 0:
                        raise ValueError(f"prismata: more than max_units={self.max_units} units")
                    b = slot * K
                    u = state.u[p]
                    for field_index, value in settings.items():
                        u[b + field_index] = value
                    if STATUS not in settings:
                        active = u[b + BUILD] == 0 and u[b + DELAY] == 0
                        u[b + STATUS] = READY if active and C_CLICK[card] else INERT
            state.res[6 * p : 6 * p + 6] = list(parse_resources(resources[p]))
        state.current_player = player
        state.phase = PHASE_NAMES.index(phase)
        state.turn = turn
        state.pending = -1
        state.breach_frozen = False
        state.winner = None
        return state

    def action_to_string(self, action: int) -> str:
        """Readable name of ``action`` (``buy Drone``, ``use #3``, ``end_phase``, ...)."""
        return self.layout.to_string(int(action))

    def string_to_action(self, text: str) -> int:
        """Parse a name written by :meth:`action_to_string`."""
        return self.layout.from_string(text)

    def _state_from_dict(self, data: Mapping[str, Any]) -> PrismataState:
        return _state_from_dict(self, data)


class PrismataState(TwoPlayerState):
    """A Prismata position. Create it with :meth:`PrismataGame.new_initial_state`.

    Attributes:
        u: Per player, a flat list of ``K`` integers per unit slot (type, health, chill,
            construction, delay, lifespan, charges, status); type -1 marks a free slot.
        live: Per player, the slots of its living units in the order they arrived.
        res: Resources, ``res[6 * player + r]`` in the order gold, energy, blue, red, green,
            attack.
        supply: Per player, copies left of each buyable card (in :attr:`cards` order).
        phase: ``ACTION``, ``DEFENSE`` or ``BREACH``.
        turn: Player-turns completed.
        pending: Slot of the unit whose targeted click waits for a target, else -1.
        breach_frozen: Frozen units may be breached this turn.
        winner: ``None`` while playing, ``-1`` for a draw, else the winning player.
    """

    game: PrismataGame
    render_module = "stratagem.envs.prismata.render"
    __slots__ = (
        "_cs",
        "breach_frozen",
        "current_player",
        "game",
        "live",
        "pending",
        "phase",
        "res",
        "supply",
        "turn",
        "u",
        "winner",
    )

    # ------------------------------------------------------------------ contract
    def clone(self) -> PrismataState:
        """Copy the handful of small lists; the card set is shared."""
        c = PrismataState.__new__(PrismataState)
        c.game = self.game
        c._cs = self._cs
        u, live, supply = self.u, self.live, self.supply
        c.u = [u[0][:], u[1][:]]
        c.live = [live[0][:], live[1][:]]
        c.res = self.res[:]
        c.supply = [supply[0][:], supply[1][:]]
        c.phase = self.phase
        c.current_player = self.current_player
        c.turn = self.turn
        c.pending = self.pending
        c.breach_frozen = self.breach_frozen
        c.winner = self.winner
        return c

    def legal_action_list(self) -> list[int]:
        """Legal actions as a Python list (ascending); the fast path for planners."""
        if self.winner is not None:
            return []
        lay = self.game.layout
        p = self.current_player
        if self.phase == DEFENSE:
            u = self.u[p]
            b0 = lay.block0
            out = [b0 + s for s in self.live[p] if _can_block(u, s * K)]
            out.sort()
            return out
        if self.phase == BREACH:
            out = [lay.breach0 + s for s in self._breach_targets()]
            out.sort()
            return out
        if self.pending >= 0:
            t0 = lay.target0
            out = [t0 + s for s in self._targets_for(self.pending)]
            out.sort()
            return out
        out = [t for t in self._cs.types if self.can_buy(t)]
        use0 = lay.use0
        for s in sorted(self.live[p]):
            if self._can_use(p, s):
                out.append(use0 + s)
        attack = self.res[6 * p + ATTACK]
        if attack > 0:
            e = 1 - p
            ue = self.u[e]
            f0 = lay.front0
            for s in sorted(self.live[e]):
                b = s * K
                t = ue[b]
                if C_FRONT[t] and ue[b + BUILD] == 0 and (C_FRAGILE[t] or attack >= ue[b + HP]):
                    out.append(f0 + s)
        out.append(lay.end)
        return out

    def apply(self, action: int) -> None:
        """Advance by one decision; illegal actions raise and change nothing."""
        if type(action) is not int:
            action = self.check_action_index(action)
        if self.winner is not None:
            raise self.illegal(action, "the game is over")
        lay = self.game.layout
        if not 0 <= action < lay.size:
            raise self.illegal(action, f"outside the action space 0..{lay.size - 1}")
        p = self.current_player
        phase = self.phase
        if action < NUM_CARDS:
            if phase != ACTION or self.pending >= 0:
                raise self.illegal(action, self._phase_reason("buy"))
            if not self.can_buy(action):
                raise self.illegal(action, self._buy_reason(action))
            self._buy(p, action)
            return
        if action == lay.end:
            if phase != ACTION or self.pending >= 0:
                raise self.illegal(action, self._phase_reason("end the action phase"))
            self._end_action_phase()
            return
        kind, slot = divmod(action - NUM_CARDS, lay.max_units)
        if kind == 0:  # use
            if phase != ACTION or self.pending >= 0:
                raise self.illegal(action, self._phase_reason("click a unit"))
            if slot >= len(self.u[p]) // K or not self._can_use(p, slot):
                raise self.illegal(action, f"own unit #{slot} cannot be clicked now")
            if C_TARGET[self.u[p][slot * K]] is not None:
                self.pending = slot
            else:
                self._use_ability(p, slot)
            return
        if kind == 1:  # block
            if phase != DEFENSE:
                raise self.illegal(action, self._phase_reason("block"))
            u = self.u[p]
            if slot >= len(u) // K or not _can_block(u, slot * K):
                raise self.illegal(action, f"own unit #{slot} cannot block")
            self._block(p, slot)
            if self.res[6 * (1 - p) + ATTACK] == 0:
                self._begin_turn(p)
            return
        if kind == 2:  # target
            if phase != ACTION or self.pending < 0:
                raise self.illegal(action, "no targeted click is waiting for a target")
            if slot not in self._targets_for(self.pending):
                raise self.illegal(action, f"enemy unit #{slot} is not a legal target")
            self._fire_target(p, self.pending, slot)
            return
        if kind == 3:  # frontline
            if phase != ACTION or self.pending >= 0:
                raise self.illegal(action, self._phase_reason("attack a frontline unit"))
            if not self._can_frontline(p, slot):
                raise self.illegal(action, f"enemy unit #{slot} cannot be attacked directly")
            self._block(1 - p, slot)
            return
        # breach
        if phase != BREACH:
            raise self.illegal(action, self._phase_reason("breach"))
        if slot not in self._breach_targets():
            raise self.illegal(action, f"enemy unit #{slot} cannot be breached now")
        self._breach(p, slot)

    def observation(self, player: int) -> np.ndarray:
        """``2 × (max_units + 104) × C`` planes relative to ``player`` (see ``observation.py``)."""
        from stratagem.envs.prismata.observation import encode

        if player not in (0, 1):
            raise ValueError(f"prismata: player must be 0 or 1, got {player!r}")
        return encode(self, player)

    def _to_dict(self) -> dict[str, Any]:
        return {
            "cards": [CARDS[t].name for t in self._cs.types],
            "units": [self.u[0], self.u[1]],
            "live": [self.live[0], self.live[1]],
            "resources": self.res,
            "supply": [self.supply[0], self.supply[1]],
            "phase": PHASE_NAMES[self.phase],
            "current_player": self.current_player,
            "turn": self.turn,
            "pending": self.pending,
            "breach_frozen": self.breach_frozen,
            "winner": self.winner,
        }

    def end_statistics(self) -> dict[str, Any]:
        """End-of-game figures for tournament tables: turns played and units left per player."""
        return {
            "turns": float(self.turn),
            "units_left": [float(len(self.live[p])) for p in (0, 1)],
            "turn_limit": float(self.winner == -1),
        }

    # ------------------------------------------------------------------ queries
    @property
    def cards(self) -> tuple[int, ...]:
        """Library indices of the buyable cards of this game, ascending."""
        return self._cs.types

    @property
    def cards_present(self) -> tuple[int, ...]:
        """Library indices of every card that can appear (buyable ones and what they create)."""
        return self._cs.present

    def supply_left(self, player: int, card: int) -> int:
        """Copies of ``card`` that ``player`` may still buy (0 for cards not in the game)."""
        pos = self._cs.buy_pos.get(card)
        return 0 if pos is None else self.supply[player][pos]

    def resources(self, player: int) -> tuple[int, int, int, int, int, int]:
        """``player``'s (gold, energy, blue, red, green, attack)."""
        return tuple(self.res[6 * player : 6 * player + 6])  # type: ignore[return-value]

    def attack(self, player: int) -> int:
        """``player``'s attack: made this turn, or incoming for the defender."""
        return self.res[6 * player + ATTACK]

    def unit(self, player: int, slot: int) -> UnitView:
        """Snapshot of ``player``'s unit in ``slot``.

        Raises:
            KeyError: If the slot holds no living unit.
        """
        u = self.u[player]
        b = slot * K
        if not 0 <= slot < len(u) // K or u[b] < 0:
            raise KeyError(f"player {player} has no unit in slot {slot}")
        t = u[b]
        return UnitView(
            slot,
            player,
            t,
            CARDS[t].name,
            u[b + HP],
            u[b + CHILL],
            u[b + BUILD],
            u[b + DELAY],
            u[b + LIFE],
            u[b + CHARGES],
            STATUS_NAMES[u[b + STATUS]],
            _can_block(u, b),
        )

    def units(self, player: int) -> list[UnitView]:
        """``player``'s living units in arrival order."""
        return [self.unit(player, s) for s in self.live[player]]

    def count(self, player: int, card: int, *, active: bool = False) -> int:
        """Living units of ``card`` owned by ``player``; only built, active ones if ``active``."""
        u = self.u[player]
        n = 0
        for s in self.live[player]:
            b = s * K
            if u[b] == card and (not active or (u[b + BUILD] == 0 and u[b + DELAY] == 0)):
                n += 1
        return n

    def can_block(self, player: int, slot: int) -> bool:
        """The unit could be assigned as a blocker now (alive, built, active, not frozen)."""
        u = self.u[player]
        return 0 <= slot < len(u) // K and u[slot * K] >= 0 and _can_block(u, slot * K)

    def total_defense(self, player: int) -> int:
        """Sum of the health of ``player``'s units that can block now."""
        u = self.u[player]
        return sum(u[s * K + HP] for s in self.live[player] if _can_block(u, s * K))

    def can_use(self, player: int, slot: int) -> bool:
        """``player`` could click the unit now (ignores whose turn and which phase it is)."""
        u = self.u[player]
        if not 0 <= slot < len(u) // K or u[slot * K] < 0:
            return False
        return self._can_use(player, slot)

    def can_buy(self, card: int) -> bool:
        """The player to move could buy one ``card`` now (resources, supply, sacrifices)."""
        p = self.current_player
        pos = self._cs.buy_pos.get(card)
        if pos is None or self.supply[p][pos] <= 0:
            return False
        res = self.res
        o = 6 * p
        cost = C_COST[card]
        if (
            res[o] < cost[0]
            or res[o + 1] < cost[1]
            or res[o + 2] < cost[2]
            or res[o + 3] < cost[3]
            or res[o + 4] < cost[4]
            or res[o + 5] < cost[5]
        ):
            return False
        for sac_type, n in C_BUY_SAC[card]:
            if self._saccable(p, sac_type) < n:
                return False
        return len(self.live[p]) < self.game.max_units

    def targets(self) -> list[int]:
        """Enemy slots the pending targeted click may name (empty when none is pending)."""
        return [] if self.pending < 0 else self._targets_for(self.pending)

    def breach_targets(self) -> list[int]:
        """Enemy slots that may be breached now (breach phase)."""
        return self._breach_targets() if self.phase == BREACH else []

    # ------------------------------------------------------------------ rule internals
    def _phase_reason(self, what: str) -> str:
        if self.pending >= 0:
            return f"cannot {what}: a targeted click of unit #{self.pending} waits for a target"
        return f"cannot {what} in the {PHASE_NAMES[self.phase]} phase"

    def _buy_reason(self, card: int) -> str:
        name = CARDS[card].name
        p = self.current_player
        pos = self._cs.buy_pos.get(card)
        if pos is None:
            return f"{name} is not in this game's card set"
        if self.supply[p][pos] <= 0:
            return f"no {name} left in supply"
        have = self.res[6 * p : 6 * p + 6]
        if any(h < c for h, c in zip(have, C_COST[card], strict=True)):
            return (
                f"{name} costs {format_resources(C_COST[card])}, "
                f"player has {format_resources(have)}"
            )
        if len(self.live[p]) >= self.game.max_units:
            return f"no free unit slot (max_units={self.game.max_units})"
        return f"{name} needs sacrifices the player cannot make"

    def _saccable(self, p: int, card: int) -> int:
        """Units of ``card`` that may be sacrificed: built, active, and clicked if clickable."""
        u = self.u[p]
        n = 0
        has_ability = C_HAS_ABILITY[card]
        for s in self.live[p]:
            b = s * K
            if (
                u[b] == card
                and u[b + BUILD] == 0
                and u[b + DELAY] == 0
                and (not has_ability or u[b + STATUS] == USED)
            ):
                n += 1
        return n

    def _can_run(self, p: int, script: _Script) -> bool:
        """Cost, sacrifices and destroy targets of a click script are available."""
        if script.cost is not None:
            o = 6 * p
            res = self.res
            cost = script.cost
            for r in range(6):
                if res[o + r] < cost[r]:
                    return False
        for sac_type, n in script.sac:
            if self._saccable(p, sac_type) < n:
                return False
        for card, n, not_blocking in script.destroy:
            e = 1 - p
            ue = self.u[e]
            found = 0
            for s in self.live[e]:
                b = s * K
                if (
                    ue[b] == card
                    and ue[b + BUILD] == 0
                    and (not not_blocking or not _can_block(ue, b))
                ):
                    found += 1
            if found < n:
                return False
        return True

    def _can_use(self, p: int, s: int) -> bool:
        u = self.u[p]
        b = s * K
        t = u[b]
        if t < 0 or not C_CLICK[t] or u[b + STATUS] != READY or u[b + BUILD] or u[b + DELAY]:
            return False
        if C_CHARGES[t] > 0 and u[b + CHARGES] < 1:
            return False
        script = C_ABILITY[t]
        if script is not None:
            if u[b + HP] < script.hp_cost:
                return False
            if not self._can_run(p, script):
                return False
        if C_TARGET[t] is not None:
            return bool(self._targets_for(s, p))
        return True

    def _targets_for(self, s: int, p: int | None = None) -> list[int]:
        """Enemy slots that unit ``s`` of ``p`` (default: the mover) may snipe or chill."""
        if p is None:
            p = self.current_player
        snipe, _amount, hp_at_most, tech = C_TARGET[self.u[p][s * K]]
        e = 1 - p
        ue = self.u[e]
        out = []
        for t in self.live[e]:
            b = t * K
            if ue[b + BUILD]:
                continue
            if snipe:
                if hp_at_most >= 0 and ue[b + HP] > hp_at_most:
                    continue
                if tech and not C_TECH[ue[b]]:
                    continue
                out.append(t)
            elif _can_block(ue, b) and ue[b + CHILL] < ue[b + HP]:
                out.append(t)
        return out

    def _can_frontline(self, p: int, s: int) -> bool:
        attack = self.res[6 * p + ATTACK]
        ue = self.u[1 - p]
        if attack <= 0 or not 0 <= s < len(ue) // K:
            return False
        b = s * K
        t = ue[b]
        return (
            t >= 0 and C_FRONT[t] and ue[b + BUILD] == 0 and (C_FRAGILE[t] or attack >= ue[b + HP])
        )

    def _breach_targets(self) -> list[int]:
        p = self.current_player
        attack = self.res[6 * p + ATTACK]
        e = 1 - p
        ue = self.u[e]
        live = self.live[e]
        if attack <= 0 or not live:
            return []
        # overkill: every enemy unit is under construction
        if all(ue[s * K + BUILD] > 0 for s in live):
            return [s for s in live if C_FRAGILE[ue[s * K]] or attack >= ue[s * K + HP]]
        out = []
        frozen_blocked = []
        for s in live:
            b = s * K
            if ue[b + BUILD]:
                continue
            if not C_FRAGILE[ue[b]] and attack < ue[b + HP]:
                continue
            if ue[b + CHILL] >= ue[b + HP] and not self.breach_frozen:
                frozen_blocked.append(s)
                continue
            out.append(s)
        if not out:
            # The reference's player would have to undo a chill here; frozen units become
            # breachable instead (see the module docstring).
            return frozen_blocked
        return out

    def _add_unit(
        self, p: int, card: int, build: int, delay: int, lifespan: int, manual: bool = False
    ) -> int:
        """Put a new unit of ``card`` in ``p``'s lowest free slot; -1 when there is none."""
        u = self.u[p]
        live = self.live[p]
        if len(live) >= self.game.max_units:
            return -1
        n = len(u) // K
        if len(live) == n:
            slot = n
            u.extend((-1, 0, 0, 0, 0, 0, 0, 0))
        else:
            slot = 0
            while u[slot * K] >= 0:
                slot += 1
        b = slot * K
        u[b] = card
        u[b + HP] = C_HP[card]
        u[b + CHILL] = 0
        u[b + BUILD] = build
        u[b + DELAY] = delay
        u[b + LIFE] = lifespan if lifespan else C_LIFE[card]
        u[b + CHARGES] = C_CHARGES[card]
        u[b + STATUS] = READY if manual and C_CLICK[card] else INERT
        live.append(slot)
        return slot

    def _kill(self, p: int, s: int) -> None:
        self.u[p][s * K] = -1
        self.live[p].remove(s)

    def _run(self, p: int, s: int, script: _Script, kind: int) -> None:
        """Run a script of unit ``s`` of ``p``; kind 0 purchase, 1 ability, 2 start of turn.

        Mirrors the reference's order: pay, sacrifice, receive, resonate, create, destroy, then
        (abilities) spend the click, then sacrifice the unit if the script says so or it died.
        """
        res = self.res
        o = 6 * p
        e = 1 - p
        if script.cost is not None:
            for r, c in enumerate(script.cost):
                res[o + r] -= c
        for sac_type, n in script.sac:
            self._sacrifice(p, sac_type, n)
        if script.gain is not None:
            for r, c in enumerate(script.gain):
                res[o + r] += c
        if script.give is not None:
            oe = 6 * e
            for r, c in enumerate(script.give):
                res[oe + r] += c
        if script.resonate is not None:
            card, gain = script.resonate
            n = self.count(p, card, active=True)
            for r, c in enumerate(gain):
                res[o + r] += c * n
        for card, count, delay, lifespan, enemy in script.create:
            owner = e if enemy else p
            for _ in range(count):
                if kind == 0:
                    self._add_unit(owner, card, delay, 0, lifespan)
                else:
                    self._add_unit(owner, card, 0, delay, lifespan)
        for card, count, not_blocking in script.destroy:
            victims = self._destroy_candidates(e, card, not_blocking)
            for victim in victims[:count]:
                self._kill(e, victim)
        u = self.u[p]
        b = s * K
        dead = False
        if kind == 1:
            t = u[b]
            if C_CHARGES[t] > 0:
                u[b + CHARGES] -= 1
            u[b + HP] -= script.hp_cost
            dead = u[b + HP] <= 0
            u[b + STATUS] = USED
            u[b + DELAY] = script.delay
        if script.selfsac or dead:
            self._kill(p, s)

    def _sacrifice(self, p: int, card: int, n: int) -> None:
        """Sacrifice the ``n`` lowest-slot eligible units of ``card`` (the reference's choice)."""
        u = self.u[p]
        has_ability = C_HAS_ABILITY[card]
        chosen = sorted(
            s
            for s in self.live[p]
            if u[s * K] == card
            and u[s * K + BUILD] == 0
            and u[s * K + DELAY] == 0
            and (not has_ability or u[s * K + STATUS] == USED)
        )[:n]
        for s in chosen:
            self._kill(p, s)

    def _destroy_candidates(self, e: int, card: int, not_blocking: bool) -> list[int]:
        """Enemy units a destroy effect may take, best first in the reference's order.

        The order: blockers first, then least delay, longest lifespan, most charges, most
        health, least chill, lowest slot.
        """
        ue = self.u[e]
        cands = []
        for s in self.live[e]:
            b = s * K
            if ue[b] != card or ue[b + BUILD]:
                continue
            blocks = _can_block(ue, b)
            if not_blocking and blocks:
                continue
            cands.append(
                (
                    -int(blocks),
                    ue[b + DELAY],
                    -ue[b + LIFE],
                    -ue[b + CHARGES],
                    -ue[b + HP],
                    ue[b + CHILL],
                    s,
                )
            )
        cands.sort()
        return [c[-1] for c in cands]

    def _buy(self, p: int, card: int) -> None:
        o = 6 * p
        res = self.res
        for r, c in enumerate(C_COST[card]):
            res[o + r] -= c
        self.supply[p][self._cs.buy_pos[card]] -= 1
        slot = self._add_unit(p, card, C_BUILD[card], 0, 0)
        for sac_type, n in C_BUY_SAC[card]:
            self._sacrifice(p, sac_type, n)
        script = C_ON_BUY[card]
        if script is not None:
            self._run(p, slot, script, 0)
        if C_SPELL[card] and self.u[p][slot * K] == card and slot in self.live[p]:
            self._kill(p, slot)

    def _use_ability(self, p: int, s: int) -> None:
        script = C_ABILITY[self.u[p][s * K]]
        if script is None:  # a targeted click without an ability script spends the click only
            self._spend_click(p, s)
        else:
            self._run(p, s, script, 1)

    def _spend_click(self, p: int, s: int) -> None:
        u = self.u[p]
        b = s * K
        if C_CHARGES[u[b]] > 0:
            u[b + CHARGES] -= 1
        u[b + STATUS] = USED

    def _fire_target(self, p: int, s: int, target: int) -> None:
        snipe, amount, _, _ = C_TARGET[self.u[p][s * K]]
        e = 1 - p
        if snipe:
            self._kill(e, target)
        else:
            self.u[e][target * K + CHILL] += amount
        self.pending = -1
        self._use_ability(p, s)

    def _block(self, p: int, s: int) -> None:
        """Unit ``s`` of ``p`` absorbs the enemy's attack (blocking or a frontline attack)."""
        e = 1 - p
        u = self.u[p]
        b = s * K
        attack = self.res[6 * e + ATTACK]
        hp = u[b + HP]
        damage = attack if attack < hp else hp
        if damage >= hp:
            self._kill(p, s)
        elif C_FRAGILE[u[b]]:
            u[b + HP] = hp - damage
        self.res[6 * e + ATTACK] = attack - damage

    def _breach(self, p: int, s: int) -> None:
        e = 1 - p
        ue = self.u[e]
        b = s * K
        t = ue[b]
        attack = self.res[6 * p + ATTACK]
        hp = ue[b + HP]
        damage = attack if attack < hp else hp
        if damage >= hp:
            self._kill(e, s)
        elif C_FRAGILE[t]:
            ue[b + HP] = hp - damage
        self.res[6 * p + ATTACK] = attack - damage
        if not C_FRONT[t]:
            self.breach_frozen = True
        if not self._breach_targets():
            self._end_turn()

    def _end_action_phase(self) -> None:
        p = self.current_player
        e = 1 - p
        attack = self.res[6 * p + ATTACK]
        if attack > 0 and self.live[e] and attack >= self.total_defense(e):
            # wipeout: every enemy blocker dies, then the breach phase
            ue = self.u[e]
            for s in list(self.live[e]):
                if _can_block(ue, s * K):
                    self._block(e, s)
                    self.breach_frozen = True
            self.phase = BREACH
            if self._breach_targets():
                return
        self._end_turn()

    def _end_turn(self) -> None:
        """The reference's end of breach and confirm: count the turn, check the end, hand over."""
        p = self.current_player
        e = 1 - p
        res = self.res
        self.pending = -1
        if self.phase == BREACH:
            res[6 * p + ATTACK] = 0
        self.turn += 1
        if not self.live[0] or not self.live[1]:
            self.winner = 1 if not self.live[0] else 0
            res[6 * p + ATTACK] = 0
            return
        if self.turn >= self.game.turn_limit:
            self.winner = -1
            return
        self.current_player = e
        if res[6 * p + ATTACK] > 0:
            self.phase = DEFENSE
        else:
            self._begin_turn(e)

    def _begin_turn(self, p: int) -> None:
        """The reference's start of turn (Swoosh), then the action phase."""
        res = self.res
        o = 6 * p
        res[o + ENERGY] = res[o + BLUE] = res[o + RED] = res[o + ATTACK] = 0
        self.breach_frozen = False
        self.phase = ACTION
        self.current_player = p
        u = self.u[p]
        snapshot = list(self.live[p])
        for s in snapshot:
            b = s * K
            t = u[b]
            if u[b + BUILD] == 0 and u[b + DELAY] == 0 and u[b + LIFE] > 0:
                u[b + LIFE] -= 1
                if u[b + LIFE] == 0:
                    self._kill(p, s)
                    continue
            if u[b + BUILD] == 0 and u[b + DELAY] > 0:
                u[b + DELAY] -= 1
            if u[b + DELAY] > 0:
                u[b + STATUS] = INERT
            if u[b + BUILD] > 0:
                u[b + BUILD] -= 1
            if u[b + BUILD] == 0 and u[b + DELAY] == 0:
                gain = C_HP_GAIN[t]
                if gain:
                    u[b + HP] = min(u[b + HP] + gain, C_HP_CAP[t])
                u[b + STATUS] = READY if C_CLICK[t] else INERT
                u[b + CHILL] = 0
        # Units that died above freed their slots; a unit created below may take one, and must
        # not run its script this turn, hence the second snapshot.
        for s in [s for s in snapshot if u[s * K] >= 0]:
            b = s * K
            t = u[b]
            script = C_START[t]
            if script is not None and u[b + BUILD] == 0 and u[b + DELAY] == 0:
                self._run(p, s, script, 2)
                if u[b] >= 0:
                    u[b + DELAY] = script.delay


_SETTINGS = {
    "hp": HP,
    "chill": CHILL,
    "build": BUILD,
    "delay": DELAY,
    "life": LIFE,
    "charges": CHARGES,
}


def _parse_unit_spec(spec: str) -> tuple[int, int, dict[int, int]]:
    """``"Drone*3:used,hp=1"`` -> (card index, count, {field: value})."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"prismata: unit spec must be a non-empty string, got {spec!r}")
    head, _, rest = spec.partition(":")
    name, star, count_text = head.partition("*")
    count = 1
    if star:
        if not count_text.strip().isdigit() or int(count_text) < 1:
            raise ValueError(f"prismata: unit spec {spec!r}: '*' needs a positive count")
        count = int(count_text)
    card = card_by_name(name.strip()).index
    settings: dict[int, int] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        if item in STATUS_NAMES:
            settings[STATUS] = STATUS_NAMES.index(item)
            continue
        key, eq, value = item.partition("=")
        if not eq or key.strip() not in _SETTINGS or not value.strip().isdigit():
            raise ValueError(
                f"prismata: unit spec {spec!r}: bad setting {item!r}; use hp=, chill=, build=, "
                f"delay=, life=, charges= with a number, or ready/used/inert"
            )
        settings[_SETTINGS[key.strip()]] = int(value)
    if settings.get(HP, 1) <= 0:
        raise ValueError(f"prismata: unit spec {spec!r}: health must be positive")
    return card, count, settings


def _can_block(u: list[int], b: int) -> bool:
    """The unit at offset ``b`` of a player's unit list can block now.

    It must be alive, built, active and not frozen, and its card must block in its current click
    status (most clickable blockers stop blocking once clicked).
    """
    t = u[b]
    if t < 0 or u[b + BUILD] or u[b + DELAY] or u[b + CHILL] >= u[b + HP]:
        return False
    return C_BLOCK_USED[t] if u[b + STATUS] == USED else C_BLOCK[t]


#: Largest chill, build time, delay or lifespan a saved unit may hold: far above any card's
#: (they are at most a few turns), low enough to stay exact in the float32 observation.
_MAX_COUNTER = 1000
#: Largest amount of one resource a saved state may hold (a game gathers a few hundred).
_MAX_RESOURCE = 1_000_000


def _state_from_dict(game: PrismataGame, data: Mapping[str, Any]) -> PrismataState:
    """Rebuild and validate a state written by :meth:`PrismataState._to_dict`."""

    def bad(message: str) -> InvalidStateError:
        return InvalidStateError(f"prismata: {message}")

    def int_list(value: Any, name: str, length: int | None = None) -> list[int]:
        if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            raise bad(f"'{name}' must be a list of integers")
        if length is not None and len(value) != length:
            raise bad(f"'{name}' must have {length} entries, got {len(value)}")
        return list(value)

    names = data["cards"]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise bad("'cards' must be a list of card names")
    try:
        types = tuple(card_by_name(n).index for n in names)
    except CardSetError as exc:
        raise bad(str(exc)) from None
    if game.mode == "fixed" or game.random_count == 0:
        if tuple(sorted(types)) != game._fixed.types:  # type: ignore[union-attr]
            raise bad(f"card set {names} is not this configuration's card set")
    elif len(types) != len(BASE_SET) + game.random_count or not set(BASE_SET) <= set(types):
        raise bad(f"card set {names} is not the base set plus {game.random_count} pool cards")
    try:
        state = game.initial_state_with_cards(types)
    except CardSetError as exc:
        raise bad(str(exc)) from None
    cs = state._cs
    units = data["units"]
    live = data["live"]
    if (
        not isinstance(units, list)
        or len(units) != 2
        or not isinstance(live, list)
        or len(live) != 2
    ):
        raise bad("'units' and 'live' must hold one list per player")
    state.u = [int_list(units[p], f"units[{p}]") for p in (0, 1)]
    state.live = [int_list(live[p], f"live[{p}]") for p in (0, 1)]
    for p in (0, 1):
        u = state.u[p]
        if len(u) % K or len(u) // K > game.max_units:
            raise bad(f"units[{p}] must hold {K} integers per slot, at most {game.max_units}")
        slots = [s for s in range(len(u) // K) if u[s * K] >= 0]
        if sorted(state.live[p]) != slots:
            raise bad(f"live[{p}] does not list exactly the occupied slots of units[{p}]")
        for s in slots:
            b = s * K
            t = u[b]
            if t >= NUM_CARDS or not cs.in_game[t]:
                raise bad(f"player {p} slot {s}: card {t} is not in this game")
            if u[b + HP] <= 0 or min(u[b + 1 : b + K]) < 0 or u[b + STATUS] > USED:
                raise bad(f"player {p} slot {s}: negative or impossible unit values")
            if u[b + HP] > C_HP[t] or u[b + CHARGES] > C_CHARGES[t]:
                raise bad(f"player {p} slot {s}: more health or charges than a {CARDS[t].name}")
            if max(u[b + CHILL], u[b + BUILD], u[b + DELAY], u[b + LIFE]) > _MAX_COUNTER:
                raise bad(
                    f"player {p} slot {s}: chill, build, delay or lifespan over {_MAX_COUNTER}"
                )
        for s in range(len(u) // K):
            if u[s * K] < -1:
                raise bad(f"player {p} slot {s}: bad card {u[s * K]}")
            if max(map(abs, u[s * K + 1 : s * K + K])) > _MAX_COUNTER:
                raise bad(f"player {p} slot {s}: unit values over {_MAX_COUNTER}")
    state.res = int_list(data["resources"], "resources", 12)
    if min(state.res) < 0 or max(state.res) > _MAX_RESOURCE:
        raise bad(f"resources must be in 0..{_MAX_RESOURCE}")
    supply = data["supply"]
    if not isinstance(supply, list) or len(supply) != 2:
        raise bad("'supply' must hold one list per player")
    state.supply = [int_list(supply[p], f"supply[{p}]", len(cs.types)) for p in (0, 1)]
    for p in (0, 1):
        for pos, t in enumerate(cs.types):
            if not 0 <= state.supply[p][pos] <= C_SUPPLY[t]:
                raise bad(f"supply of {CARDS[t].name} for player {p} out of range")
    phase = data["phase"]
    if phase not in PHASE_NAMES:
        raise bad(f"phase {phase!r} is not one of {PHASE_NAMES}")
    state.phase = PHASE_NAMES.index(phase)
    player, turn, pending = data["current_player"], data["turn"], data["pending"]
    if player not in (0, 1):
        raise bad(f"current_player {player!r} is not 0 or 1")
    if type(turn) is not int or not 0 <= turn <= game.turn_limit:
        raise bad(f"turn {turn!r} outside 0..{game.turn_limit}")
    state.current_player, state.turn = player, turn
    if not isinstance(pending, int) or isinstance(pending, bool):
        raise bad(f"pending {pending!r} is not an integer")
    if pending >= 0 and (
        state.phase != ACTION
        or pending not in state.live[player]
        or C_TARGET[state.u[player][pending * K]] is None
    ):
        raise bad(f"pending {pending} is not a living targeting unit of the player to move")
    state.pending = pending
    frozen = data["breach_frozen"]
    if not isinstance(frozen, bool):
        raise bad("breach_frozen must be true or false")
    state.breach_frozen = frozen
    winner = data["winner"]
    if winner not in (None, -1, 0, 1) or isinstance(winner, bool):
        raise bad(f"winner {winner!r} is not null, -1, 0 or 1")
    state.winner = winner
    if winner is None and turn >= game.turn_limit:
        raise bad(f"turn {turn} reached the turn limit but the game has no result")
    if winner is not None and turn < game.turn_limit and state.live[0] and state.live[1]:
        raise bad(f"winner {winner!r} but both players still have units")
    if winner is None and state.phase == DEFENSE and state.res[6 * (1 - player) + ATTACK] <= 0:
        raise bad("defense phase without incoming attack")
    return state


def resources_from_text(text: str) -> tuple[int, int, int, int, int, int]:
    """Parse a resource string (``"8g 1E"``); re-exported for scenario builders."""
    return parse_resources(text)


__all__ += ["RESOURCE_NAMES", "resources_from_text"]
