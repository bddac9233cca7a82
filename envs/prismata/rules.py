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

The code is split by concept: :mod:`~stratagem.envs.prismata.data` (phases, the unit record,
per-card constants), :mod:`~stratagem.envs.prismata.cardset` (card sets and the ``cards``
option), :mod:`~stratagem.envs.prismata.economy` (clicks and purchases),
:mod:`~stratagem.envs.prismata.phases` (targets, blocks, breach, turn ends),
:mod:`~stratagem.envs.prismata.queries` (the agents' public queries: per-unit facts, tallies,
click targets, position keys) and :mod:`~stratagem.envs.prismata.positions` (hand-made and saved
positions); this module holds
:class:`PrismataGame` and :class:`PrismataState`, which composes the rule mixins.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from stratagem.envs.core import Game, GameSpec, TwoPlayerState, check_seed
from stratagem.envs.prismata.actions import ActionLayout
from stratagem.envs.prismata.cards import (
    BASE_SET,
    CARDS,
    NUM_CARDS,
    POOL,
    RESOURCE_NAMES,
    CardSetError,
    card_by_name,
    parse_resources,
)
from stratagem.envs.prismata.cardset import _CardSet, parse_card_set
from stratagem.envs.prismata.data import (
    ACTION,
    ATTACK,
    BREACH,
    BUILD,
    C_ABILITY,
    C_CLICK,
    C_FRAGILE,
    C_FRONT,
    C_ON_BUY,
    C_SUPPLY,
    C_TARGET,
    CHARGES,
    CHILL,
    DEFENSE,
    DELAY,
    HP,
    INERT,
    LIFE,
    PHASE_NAMES,
    READY,
    STATUS,
    STATUS_NAMES,
    K,
    UnitView,
    _can_block,
)
from stratagem.envs.prismata.economy import EconomyRules
from stratagem.envs.prismata.phases import PhaseRules
from stratagem.envs.prismata.positions import _parse_unit_spec, _state_from_dict
from stratagem.envs.prismata.queries import StateQueries

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

#: Default number of random cards added to the base set (the paper's tournaments use 8).
DEFAULT_CARDS = "random:8"


class _Probe:
    __slots__ = ("field",)


def _alone_counts() -> tuple[int, int]:
    """What ``_refs`` says of a list held once, read as a slot and as a list item.

    Measured rather than assumed (2 on CPython 3.11: the holder and the call's argument), so
    that an interpreter that counts its temporaries differently still copies every shared list;
    where a second holder does not raise the count (an interpreter whose counts are not exact),
    ``(-1, -1)``: every list then counts as shared and is copied before it is written.
    """
    probe = _Probe()
    probe.field = []
    outer: list[list[int]] = [[]]
    alone = _refs(probe.field), _refs(outer[0])
    held_twice = probe.field, outer[0]  # a second holder of each list, as a clone would be
    shared = _refs(probe.field), _refs(outer[0])
    del held_twice
    if shared[0] <= alone[0] or shared[1] <= alone[1]:
        return -1, -1  # the counts do not tell a second holder apart: always copy
    return alone


#: CPython's reference count of an object (see :meth:`PrismataState._own`); where an
#: implementation has none, every list counts as shared and is copied before it is written.
_refs = getattr(sys, "getrefcount", lambda _obj: 1 << 30)
#: The counts of an unshared list read as an attribute and as an item of an outer list.
_ALONE_ATTR, _ALONE_ITEM = _alone_counts() if hasattr(sys, "getrefcount") else (0, 0)

_DRONE = card_by_name("Drone").index
_ENGINEER = card_by_name("Engineer").index


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
    def max_rounds(self) -> int:
        """Rounds played at most, the ``max_rounds`` option (half the player-turn limit)."""
        return self.turn_limit // 2

    @property
    def end_turn_action(self) -> int:
        """Index of ``end_phase``, the action that closes a player's action phase."""
        return self.layout.end

    # ------------------------------------------------------------------ contract
    def new_initial_state(self, seed: int | None = None) -> PrismataState:
        """The starting position (the seed draws the random cards; play is deterministic)."""
        return self.initial_state_with_cards(self.draw_cards(check_seed(seed, "prismata")))

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


class PrismataState(EconomyRules, PhaseRules, StateQueries, TwoPlayerState):
    """A Prismata position. Create it with :meth:`PrismataGame.new_initial_state`.

    ``u``, ``live``, ``res`` and ``supply`` are the rules' packed storage, read and written by
    the rules modules, observation and rendering only; agents ask the queries instead
    (:class:`~stratagem.envs.prismata.queries.StateQueries`, :meth:`unit`, :meth:`resources`,
    :meth:`can_use`, ...), which ``tests/test_prismata_encapsulation.py`` enforces for
    ``stratagem.baselines.prismata``.

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
        """A copy that shares the per-player lists until one side writes them.

        Both states hold the same unit, live, resource and supply lists; :meth:`apply` (and
        :meth:`take_back_click`) copies a list before writing it when another state still holds
        it (:meth:`_own`), so an unchanged list is never copied. Most clones are read and
        dropped (the agents' views), and a turn's clone writes one player's lists only.
        """
        c = PrismataState.__new__(PrismataState)
        c.game = self.game
        c._cs = self._cs
        u, live, supply = self.u, self.live, self.supply
        c.u = [u[0], u[1]]
        c.live = [live[0], live[1]]
        c.res = self.res
        c.supply = [supply[0], supply[1]]
        c.phase = self.phase
        c.current_player = self.current_player
        c.turn = self.turn
        c.pending = self.pending
        c.breach_frozen = self.breach_frozen
        c.winner = self.winner
        return c

    # Copy-on-write. A list is this state's alone when ``_refs`` counts no more references to
    # it than it does for a list held once (``_ALONE_ATTR``, ``_ALONE_ITEM``): a clone, a view or
    # a saved ``_to_dict`` holding it adds one, and makes the writer copy it first. A count can
    # only be too high (a list is then copied that need not be), never too low, so a shared
    # list is never written. The rules' helpers keep local references to these lists, so
    # ownership is taken once, when an action starts, never inside a helper.
    def _own(self, p: int) -> None:
        """Make the resources and ``p``'s unit and live lists this state's alone.

        Every action that writes a player's units also writes resources, hence one call.
        """
        if _refs(self.res) > _ALONE_ATTR:
            self.res = self.res[:]
        u = self.u
        if _refs(u[p]) > _ALONE_ITEM:
            u[p] = u[p][:]
        live = self.live
        if _refs(live[p]) > _ALONE_ITEM:
            live[p] = live[p][:]

    def _own_all(self) -> None:
        """Make every list a turn's end may write this state's alone (not the supply)."""
        self._own(0)
        self._own(1)

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
        out = self._affordable(p)
        use0 = lay.use0
        u = self.u[p]
        for s in sorted(self.live[p]):
            if u[s * K + STATUS] == READY and self._can_use(p, s):
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
            self._own(p)
            supply = self.supply
            if _refs(supply[p]) > _ALONE_ITEM:
                supply[p] = supply[p][:]
            script = C_ON_BUY[action]
            if script is not None and script.touches_enemy:
                self._own(1 - p)
            self._buy(p, action)
            return
        if action == lay.end:
            if phase != ACTION or self.pending >= 0:
                raise self.illegal(action, self._phase_reason("end the action phase"))
            self._own_all()
            self._end_action_phase()
            return
        kind, slot = divmod(action - NUM_CARDS, lay.max_units)
        if kind == 0:  # use
            if phase != ACTION or self.pending >= 0:
                raise self.illegal(action, self._phase_reason("click a unit"))
            if slot >= len(self.u[p]) // K or not self._can_use(p, slot):
                raise self.illegal(action, f"own unit #{slot} cannot be clicked now")
            t = self.u[p][slot * K]
            if C_TARGET[t] is not None:
                self.pending = slot
                return
            self._own(p)
            script = C_ABILITY[t]
            if script is not None and script.touches_enemy:
                self._own(1 - p)
            self._use_ability(p, slot)
            return
        if kind == 1:  # block
            if phase != DEFENSE:
                raise self.illegal(action, self._phase_reason("block"))
            if slot >= len(self.u[p]) // K or not _can_block(self.u[p], slot * K):
                raise self.illegal(action, f"own unit #{slot} cannot block")
            self._own_all()
            self._block(p, slot)
            if self.res[6 * (1 - p) + ATTACK] == 0:
                self._begin_turn(p)
            return
        if kind == 2:  # target
            if phase != ACTION or self.pending < 0:
                raise self.illegal(action, "no targeted click is waiting for a target")
            if slot not in self._targets_for(self.pending):
                raise self.illegal(action, f"enemy unit #{slot} is not a legal target")
            self._own_all()
            self._fire_target(p, self.pending, slot)
            return
        if kind == 3:  # frontline
            if phase != ACTION or self.pending >= 0:
                raise self.illegal(action, self._phase_reason("attack a frontline unit"))
            if not self._can_frontline(p, slot):
                raise self.illegal(action, f"enemy unit #{slot} cannot be attacked directly")
            self._own(1 - p)
            self._block(1 - p, slot)
            return
        # breach
        if phase != BREACH:
            raise self.illegal(action, self._phase_reason("breach"))
        if slot not in self._breach_targets():
            raise self.illegal(action, f"enemy unit #{slot} cannot be breached now")
        self._own_all()
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

    def rounds_played(self) -> int:
        """Rounds played so far, the one in progress included, at most ``max_rounds``.

        ``turn`` counts the player-turns completed (the game ends at the end of a turn, after
        the count), so the round in progress is ``turn // 2 + 1`` and a finished game has
        played ``(turn + 1) // 2`` rounds: exactly ``max_rounds`` when drawn at the limit.
        """
        if self.winner is None:
            return min(self.turn // 2 + 1, self.game.max_rounds)
        return (self.turn + 1) // 2

    def end_statistics(self) -> dict[str, Any]:
        """End-of-game figures for tournament tables.

        ``rounds`` played (as the ``max_rounds`` option counts them, :meth:`rounds_played`),
        ``turns`` (player-turns; benchmark scripts read it), units left per player, and
        ``draw``: 1 for a game drawn at the round limit (Prismata's only draw), else 0.
        """
        return {
            "rounds": float(self.rounds_played()),
            "turns": float(self.turn),
            "units_left": [float(len(self.live[p])) for p in (0, 1)],
            "draw": float(self.winner == -1),
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
        total = 0
        for s in self.live[player]:
            if _can_block(u, s * K):
                total += u[s * K + HP]
        return total

    def can_use(self, player: int, slot: int) -> bool:
        """``player`` could click the unit now (ignores whose turn and which phase it is)."""
        u = self.u[player]
        if not 0 <= slot < len(u) // K or u[slot * K] < 0:
            return False
        return self._can_use(player, slot)

    def can_buy(self, card: int) -> bool:
        """The player to move could buy one ``card`` now (resources, supply, sacrifices)."""
        pos = self._cs.buy_pos.get(card)
        if pos is None:
            return False
        return self._buyable(self.current_player, self._cs.buy_rows[pos])

    def buyable_cards(self) -> list[int]:
        """The cards the player to move could buy now, ascending: :meth:`can_buy` of each."""
        return self._affordable(self.current_player)

    def _buyable(self, p: int, row: tuple[int, int, Any, Any]) -> bool:
        """``p`` could buy the card of ``row`` (a :class:`_CardSet` ``buy_rows`` entry) now."""
        _, pos, cost, sacs = row
        if self.supply[p][pos] <= 0:
            return False
        res = self.res
        o = 6 * p
        for r, c in cost:
            if res[o + r] < c:
                return False
        for sac_type, n in sacs:
            if not self._can_sacrifice(p, sac_type, n):
                return False
        return len(self.live[p]) < self.game.max_units

    def _affordable(self, p: int) -> list[int]:
        """The cards ``p`` could buy now, in :attr:`cards` order (one pass for the list)."""
        if len(self.live[p]) >= self.game.max_units:
            return []
        res = self.res
        o = 6 * p
        supply = self.supply[p]
        out = []
        for t, pos, cost, sacs in self._cs.buy_rows:
            if supply[pos] <= 0:
                continue
            for r, c in cost:
                if res[o + r] < c:
                    break
            else:
                if sacs and not all(self._can_sacrifice(p, st, n) for st, n in sacs):
                    continue
                out.append(t)
        return out

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


def resources_from_text(text: str) -> tuple[int, int, int, int, int, int]:
    """Parse a resource string (``"8g 1E"``); re-exported for scenario builders."""
    return parse_resources(text)


__all__ += ["RESOURCE_NAMES", "resources_from_text"]
