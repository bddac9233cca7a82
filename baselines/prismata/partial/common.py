"""What every partial player shares: phases, card facts, buy limits, filters, the base class.

The card facts are tuples indexed by library index, computed once from the card table, so that
the players' loops index a tuple instead of reading card scripts. :class:`Combination` is here
because it is no phase's player: bots chain partial players of any phase with it, and the enemy
prediction (:mod:`~stratagem.baselines.prismata.partial.prediction`) builds one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from stratagem.baselines.prismata import heuristics as H
from stratagem.baselines.prismata.turn import Turn
from stratagem.envs.prismata.cards import CARDS, NUM_CARDS, card_by_name
from stratagem.envs.prismata.data import (
    C_ABILITY,
    C_BLOCK,
    C_BUILD,
    C_HAS_ABILITY,
    C_HP,
    C_LIFE,
    C_START,
    C_TARGET,
)
from stratagem.envs.prismata.rules import PrismataState

DEFENSE_PHASE, ABILITY, BUY, BREACH_PHASE = range(4)
PHASES = ("defense", "ability", "buy", "breach")

_DRONE = card_by_name("Drone").index
_DOOMED_DRONE = card_by_name("Doomed Drone").index
_ENGINEER = card_by_name("Engineer").index
_WALL = card_by_name("Wall").index
_CONDUIT = card_by_name("Conduit").index
_BLASTFORGE = card_by_name("Blastforge").index
_ANIMUS = card_by_name("Animus").index
_APOLLO = card_by_name("Apollo").index

# ---------------------------------------------------------------------------------------------
# card facts used by several partial players


def _gain(script: object, r: int) -> int:
    return 0 if script is None or script.gain is None else script.gain[r]  # type: ignore[attr-defined]


ECON = tuple(CARDS[i].econ for i in range(NUM_CARDS))
PROMPT = tuple(CARDS[i].prompt for i in range(NUM_CARDS))
CREATES_OWN_PROMPT = tuple(
    any(
        not m.enemy and PROMPT[card_by_name(m.card).index]
        for m in (CARDS[i].on_buy.create if CARDS[i].on_buy else ())
    )
    for i in range(NUM_CARDS)
)
DRONE_SAC = tuple(
    sum(n for name, n in CARDS[i].buy_sac if name in ("Drone", "Doomed Drone"))
    for i in range(NUM_CARDS)
)
START_INCOME = tuple(
    (0,) * 6 if C_START[i] is None or C_START[i].gain is None else tuple(C_START[i].gain)
    for i in range(NUM_CARDS)
)
CREATED_INCOME = tuple(
    tuple(
        sum(
            START_INCOME[card_by_name(m.card).index][r] * m.count
            for m in (CARDS[i].on_buy.create if CARDS[i].on_buy else ())
            if not m.enemy
        )
        for r in range(6)
    )
    for i in range(NUM_CARDS)
)
ABILITY_COST = tuple(
    (0,) * 6 if C_ABILITY[i] is None or C_ABILITY[i].cost is None else tuple(C_ABILITY[i].cost)
    for i in range(NUM_CARDS)
)


def _is_chiller(card: int) -> bool:
    return C_TARGET[card] is not None and not C_TARGET[card][0]


def _is_sniper(card: int) -> bool:
    return C_TARGET[card] is not None and C_TARGET[card][0]


#: Per card: its click chills (targets an enemy blocker), for ``live_slots_where``.
IS_CHILLER = tuple(_is_chiller(i) for i in range(NUM_CARDS))
#: Per card: its click makes attack.
CLICK_ATTACKS = tuple(a > 0 for a in H.ABILITY_ATTACK)


# ---------------------------------------------------------------------------------------------
# buy limits and card filters


class BuyLimits:
    """At most so many units of a card type owned (the reference's ``BuyLimits``)."""

    def __init__(self, limits: Mapping[str, int] | None = None) -> None:
        self.limits: dict[int, int] = {}
        for name, n in (limits or {}).items():
            self.limits[card_by_name(name).index] = int(n)

    def merged(self, other: BuyLimits | None) -> BuyLimits:
        """These limits overridden by ``other``'s."""
        out = BuyLimits()
        out.limits = dict(self.limits)
        if other is not None:
            out.limits.update(other.limits)
        return out

    def allows(self, state: PrismataState, player: int, card: int) -> bool:
        """``player`` owns fewer of ``card`` than its limit (or it has none)."""
        limit = self.limits.get(card)
        return limit is None or state.count(player, card) < limit

    def get(self, card: int) -> int | None:
        """The limit of ``card``, if any."""
        return self.limits.get(card)


_OPS: dict[str, Callable[[float, float], bool]] = {
    "=": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
}

_PROPERTIES: dict[str, Callable[[int], float]] = {
    "lifespan": lambda t: C_LIFE[t],
    "constructionTime": lambda t: C_BUILD[t],
    "isBlocker": lambda t: C_BLOCK[t],
    "hasAbility": lambda t: C_HAS_ABILITY[t],
    "hasBeginTurnAbility": lambda t: H.HAS_START[t],
    "attackProduced": lambda t: H.ATTACK_OF[t],
    "startingHealth": lambda t: C_HP[t],
    "abilityAttack": lambda t: H.ABILITY_ATTACK[t],
    "beginTurnAttack": lambda t: H.START_ATTACK[t],
}


class CardFilter:
    """Card types a partial player leaves alone (the reference's ``CardFilter``).

    A card is filtered when it is named in ``cards``, when every test of one of the
    ``conditions`` groups holds for its type (``[property, op, value]``), or when every test of
    one of the ``state_conditions`` groups holds (``["cardName", "=", name]`` or
    ``[card, op, number or card]`` comparing how many the player owns).
    """

    def __init__(
        self,
        cards: Sequence[str] = (),
        conditions: Sequence[Sequence[Sequence[object]]] = (),
        state_conditions: Sequence[Sequence[Sequence[object]]] = (),
        allow_resonate: bool = False,
    ) -> None:
        self.static = [False] * NUM_CARDS
        for name in cards:
            self.static[card_by_name(name).index] = True
        for group in conditions:
            tests = []
            for prop, op, value in group:
                if prop not in _PROPERTIES or op not in _OPS:
                    raise ValueError(f"card filter: unknown condition {[prop, op, value]}")
                tests.append((_PROPERTIES[prop], _OPS[op], value))
            for t in range(NUM_CARDS):
                if all(op(get(t), value) for get, op, value in tests):
                    self.static[t] = True
        self.state_conditions = []
        for group in state_conditions:
            tests = []
            for lhs, op, rhs in group:
                if op not in _OPS:
                    raise ValueError(f"card filter: unknown operator {op!r}")
                if lhs == "cardName":
                    tests.append(("name", card_by_name(str(rhs)).index, _OPS[op]))
                else:
                    other = rhs if isinstance(rhs, int) else card_by_name(str(rhs)).index
                    tests.append(
                        (
                            "count",
                            (card_by_name(str(lhs)).index, other, isinstance(rhs, int)),
                            _OPS[op],
                        )
                    )
            self.state_conditions.append(tests)
        self.allow_resonate = allow_resonate

    def __contains__(self, card: int) -> bool:
        return self.static[card]

    def filtered(self, state: PrismataState, player: int, card: int) -> bool:
        """The filter excludes ``card`` for ``player`` in ``state``."""
        if self.static[card]:
            return True
        for tests in self.state_conditions:
            ok = True
            for kind, arg, op in tests:
                if kind == "name":
                    ok = op(card, arg)
                else:
                    lhs, rhs, is_number = arg
                    right = rhs if is_number else state.count(player, rhs)
                    ok = op(state.count(player, lhs), right)
                if not ok:
                    break
            if ok:
                return True
        return False


NO_FILTER = CardFilter()

# ---------------------------------------------------------------------------------------------
# partial player base


class PartialPlayer:
    """Plays one phase of a turn on a :class:`Turn`.

    Attributes:
        name: Configuration name.
        phase: ``DEFENSE_PHASE``, ``ABILITY``, ``BUY`` or ``BREACH_PHASE``.
        limits: Buy limits of this partial player (combinations pass theirs down).
    """

    phase = ABILITY

    def __init__(self, name: str = "", limits: BuyLimits | None = None) -> None:
        self.name = name or type(self).__name__
        self.limits = limits or BuyLimits()

    def set_limits(self, limits: BuyLimits) -> None:
        """Override this player's limits with ``limits`` (recursively for combinations)."""
        self.limits = self.limits.merged(limits)

    def play(self, turn: Turn) -> None:
        """Add this phase's actions to ``turn``."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class FilteredPlayer(PartialPlayer):
    """A partial player that leaves the cards of a :class:`CardFilter` alone.

    The configurations give a filter to the attack, utility and greedy buy players alike
    (``filter = "..."`` in ``bots.toml``), so the option is taken in one place.

    Attributes:
        filter: The cards it leaves alone (none by default).
    """

    def __init__(self, name: str = "", filter: CardFilter | None = None, **kw: object) -> None:
        super().__init__(name, **kw)  # type: ignore[arg-type]
        self.filter = filter or NO_FILTER


def _active(turn: Turn, phase: int) -> bool:
    s = turn.state
    return s.winner is None and s.current_player == turn.player and s.phase == phase


def play_first_legal(turn: Turn, phase: int) -> None:
    """Take the first legal action while ``phase`` of the turn lasts.

    The default blocker and breacher, and every defense player's safety net: the environment
    lists blocks and breaches in slot order, so this is the reference's "first unit" choice.
    """
    while _active(turn, phase):
        turn.do(turn.state.legal_action_list()[0])


def play_random_legal(turn: Turn, phase: int) -> None:
    """Take uniformly random legal actions (from ``turn.rng``) while ``phase`` of the turn lasts.

    The Random bot's defense and breach: one draw per action, so its games replay from a seed.
    """
    while _active(turn, phase):
        legal = turn.state.legal_action_list()
        turn.do(legal[int(turn.rng.integers(len(legal)))])


class Combination(PartialPlayer):
    """Run partial players one after the other (the reference's ``*_Combination``)."""

    def __init__(
        self, name: str, players: Sequence[PartialPlayer], phase: int | None = None, **kw: object
    ) -> None:
        super().__init__(name, **kw)  # type: ignore[arg-type]
        self.players = list(players)
        if phase is None:
            phase = self.players[0].phase if self.players else ABILITY
        self.phase = phase
        for pp in self.players:
            pp.set_limits(self.limits)

    def set_limits(self, limits: BuyLimits) -> None:
        """Override these limits, and those of every player combined."""
        super().set_limits(limits)
        for pp in self.players:
            pp.set_limits(limits)

    def play(self, turn: Turn) -> None:
        """Let each player play in turn while the action phase lasts."""
        for pp in self.players:
            if not turn.in_action:
                return
            pp.play(turn)
