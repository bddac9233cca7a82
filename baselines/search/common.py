"""What every statistical forward planner shares: budgets, hooks, rollouts and statistics.

The planners of the papers (OSLA, MC, MCTS, RHEA and MCTS_u) differ in how they spend their
budget, not in how they talk to the game, so that part lives here once:

* **Budget.** Every ``apply`` a planner makes is one forward-model call, as the papers count;
  a decision never makes more than ``budget`` of them. An optional ``time_limit`` (seconds)
  stops the search earlier; it is checked between iterations, so it makes results depend on
  the machine and is off by default.
* **Speed.** Inner loops use the state's ``legal_action_list()`` (a plain list) when the game
  has one, unbound methods looked up once per decision, and Python's ``random.Random`` seeded
  from the ``numpy`` generator handed to ``act()``: numpy calls on single numbers cost
  microseconds, which would dominate a rollout step. Random steps (rollouts, random
  opponents) draw with the state's ``sample_legal_action`` where the game overrides it (it
  then draws without listing every action); otherwise they pick from the list with the same
  single draw as that method's default, so games without an override play exactly as before.
  Leaves are scored through the evaluator's ``evaluate_list(state)`` where it has one (the same
  values as a list of floats, without building an array per call).
* **Hooks a game can opt into** (the Tribes paper's options): ``state.action_group(action)``
  for root prioritisation, ``state.action_kind(action)`` for excluding action kinds (without it
  the kind is the first word of ``game.action_to_string``), and an end-turn action (``game.
  end_turn_action`` or the global action named ``end_turn``) for forcing an end of turn every
  X steps. A planner asked for an option the game lacks raises an error naming the game.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from stratagem.baselines.agent import (
    BaseAgent,
    EvaluatorFastValues,
    EvaluatorRoot,
)
from stratagem.baselines.evaluators import make_evaluator
from stratagem.baselines.search.config import SearchConfig, configure
from stratagem.envs.core import ActionGroups, ActionKinds, Game, State, optional_hook

__all__ = ["SearchAgent", "SearchStats", "end_turn_action", "gc_paused", "shuffle"]

LegalFn = Callable[[State], list[int]]
ApplyFn = Callable[[State, int], None]
SampleFn = Callable[[State, random.Random], int]


def shuffle(items: list[Any], prng: random.Random) -> None:
    """Shuffle ``items`` in place exactly as ``prng.shuffle(items)`` does, at under half the cost.

    MCTS shuffles the legal actions of every node it expands, and ``random.Random.shuffle``
    spends most of its time in two Python-level calls per item (``_randbelow`` and
    ``getrandbits``). This is the same Fisher-Yates pass with the same rejection draws inlined,
    so it gives the same permutation and leaves ``prng`` in the same state (a test checks it
    against ``random.Random.shuffle``), which keeps every planner's choices for a seed. The
    pass's ``(i, i + 1, bit length)`` steps are looked up per list length (:data:`_SWAPS`).
    """
    steps = _SWAPS.get(len(items))
    if steps is None:
        steps = _swaps(len(items))
    getrandbits = prng.getrandbits
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


#: The steps of :func:`shuffle`'s pass by list length: ``(i, n, k)`` for ``i`` from the last
#: index down to 1, where ``j`` is drawn below ``n = i + 1`` with ``k = n.bit_length()`` bits.
_SWAPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _swaps(length: int) -> tuple[tuple[int, int, int], ...]:
    """Build :data:`_SWAPS` for ``length``."""
    steps = tuple((i, i + 1, (i + 1).bit_length()) for i in range(length - 1, 0, -1))
    _SWAPS[length] = steps
    return steps


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector (process-wide) while a search tree grows.

    A tree search keeps every node, and in closed loop its state, alive until the decision
    ends: tens of thousands of new container objects that all survive, so the collector, run
    every 700 net allocations, keeps scanning them and moving them to older generations, where
    later runs scan them again. That was a fifth of MCTS's time on Kill The King, and it finds
    nothing: the tree has no reference cycles (nodes point only to their children), and
    reference counting frees it when the search returns. The collector is re-enabled on the way
    out only when it was enabled on the way in, so a caller that disabled it keeps it disabled,
    and a search running while another thread's search has paused it leaves it to that one.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@dataclass
class SearchStats:
    """What the last decision of a planner cost and found (read by ``stratagem bench``).

    Attributes:
        iterations: Search iterations (MCTS/MC iterations, RHEA individuals evaluated, OSLA
            actions evaluated).
        fm_calls: Forward-model calls (``apply``) made by the search.
        seconds: Wall time of the decision.
        searched: False when the decision needed no search (a single legal action).
        extra: Planner-specific figures (tree size and depth, root children statistics, ...).
    """

    iterations: int = 0
    fm_calls: int = 0
    seconds: float = 0.0
    searched: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


def end_turn_action(game: Game) -> int | None:
    """The game's end-turn action, or ``None`` when it has none.

    Looked up as ``game.end_turn_action``, then as the global action named ``end_turn`` of the
    spatial action layout.
    """
    value = getattr(game, "end_turn_action", None)
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    layout = game.spec.action_layout
    if layout is not None and "end_turn" in layout.global_actions:
        return layout.encode_global(layout.global_actions.index("end_turn"))
    return None


class SearchAgent(BaseAgent):
    """Base class of the planners: budget bookkeeping, hooks, rollouts and statistics.

    Subclasses implement :meth:`_search`, which receives the root state and its candidate
    actions and returns the chosen action, spending forward-model calls only through
    :meth:`_step` and :meth:`_rollout` (or by adding to ``self._calls`` themselves).

    A planner is configured by one :class:`~stratagem.baselines.search.config.SearchConfig`:
    given whole as ``config``, or built from keywords on top of the planner's :attr:`defaults`.
    Each planner takes the fields named in its :attr:`options` (another keyword is a
    ``TypeError`` naming it, as a Python signature would raise); the fields mean:

    * ``budget``: forward-model calls per decision; ``None`` for no call limit (then
      ``time_limit`` or an iteration limit must bound the search).
    * ``time_limit``: optional wall-clock limit per decision, in seconds.
    * ``evaluator``: heuristic evaluator; ``None``/``"default"`` uses the game's own one
      (:func:`stratagem.baselines.evaluators.default_evaluator`).
    * ``exclude_kinds``: action kinds the planner never plays (Tribes excludes ``disband`` and
      ``destroy``); a sequence or a ``|``-separated string.
    * ``prioritize_root``: Tribes' root prioritisation: each decision draws one action group
      (``state.action_group``) uniformly and searches only its actions at the root.
    * ``force_end_turn``: when > 0, the planner's simulations end the turn every this many
      steps (Tribes' ``FORCE_TURN_END``); 0 disables it, as in the paper's final runs.

    Args:
        game: The game the agent plays.
        config: The whole configuration; keywords may not be given with it.
        **options: Fields of the configuration, over :attr:`defaults`.

    Raises:
        TypeError: For a keyword the planner does not take.
        ValueError: For a bad value, naming the option, or when nothing bounds the search.
    """

    name = "search"
    #: The :class:`SearchConfig` fields this planner takes as keywords.
    options: ClassVar[frozenset[str]] = frozenset(
        ("budget", "time_limit", "evaluator", "exclude_kinds", "prioritize_root", "force_end_turn")
    )
    #: This planner's defaults (the papers' settings); fields outside :attr:`options` stay so.
    defaults: ClassVar[SearchConfig] = SearchConfig()
    #: Whether the search ends by itself without a budget, time or iteration limit (OSLA).
    unbounded_ok: ClassVar[bool] = False
    #: Whether :meth:`_search` runs with the cyclic garbage collector paused (:func:`gc_paused`):
    #: for searches that keep a growing tree alive until they return, and free it then.
    pauses_gc: ClassVar[bool] = False

    def __init__(self, game: Game, config: SearchConfig | None = None, **options: Any) -> None:
        config = self._configure(config, options)
        self.config = config
        budget, force_end_turn = config.budget, config.force_end_turn
        self.game = game
        self.budget = budget
        self.time_limit = config.time_limit
        self.iterations = config.iterations
        self.rollout_length = config.rollout_length
        self.evaluator = make_evaluator(config.evaluator, game)
        self.exclude_kinds: frozenset[str] = config.exclude_kinds  # type: ignore[assignment]
        self.prioritize_root = config.prioritize_root
        self.force_end_turn = force_end_turn
        self.end_turn = end_turn_action(game)
        if force_end_turn and self.end_turn is None:
            raise ValueError(
                f"{self.name}: force_end_turn needs an end-turn action, and "
                f"{game.spec.name} has none"
            )
        self.num_players = game.spec.num_players
        self.last_stats = SearchStats()
        self._kind_cache: dict[int, str] = {}
        self._calls = 0
        self._limit = 0
        self._deadline = float("inf")
        self._set_root = optional_hook(self.evaluator, EvaluatorRoot.set_root)
        self._evaluate_list: Callable[[State], list[float]] | None = optional_hook(
            self.evaluator, EvaluatorFastValues.evaluate_list
        )

    def _configure(self, config: SearchConfig | None, options: dict[str, Any]) -> SearchConfig:
        """The planner's configuration: ``config``, or its defaults with ``options`` applied.

        See :func:`~stratagem.baselines.search.config.configure`.

        Raises:
            TypeError: For a keyword this planner does not take (as a Python signature would),
                or for keywords given together with a ``config``.
            ValueError: For a bad value (naming it), or a ``config`` that sets an option this
                planner does not take.
        """
        return configure(
            type(self),
            self.name,
            self.options,
            self.defaults,
            config,
            options,
            unbounded_ok=self.unbounded_ok,
        )

    # ------------------------------------------------------------------ public
    def act(self, state: State, *, rng: np.random.Generator) -> int:
        """Search from ``state`` within the budget and return the chosen action.

        The same ``rng`` state gives the same action (with no ``time_limit``).

        Raises:
            ValueError: At a terminal state, or when the game lacks a hook the agent's options
                need.
        """
        if state.is_terminal():
            raise ValueError(
                f"{self.name}: cannot act in a terminal state of {self.game.spec.name}"
            )
        start = time.perf_counter()
        self._bind(state)
        self._calls = 0
        self._limit = self.budget if self.budget is not None else 1 << 62
        self._deadline = start + self.time_limit if self.time_limit is not None else float("inf")
        legal = self._legal(state)
        if not legal:
            raise ValueError(
                f"{self.name}: no legal action in a non-terminal state of {self.game.spec.name}"
            )
        prng = random.Random(int(rng.integers(1 << 63)))
        if self._set_root is not None:
            self._set_root(state)
        stats = SearchStats()
        self.last_stats = stats
        actions = self._root_actions(state, legal, prng)
        if len(actions) == 1 and not self._always_search():
            action = actions[0]
        else:
            # _search's frame, and with it the tree, is gone before the collector is back on.
            with gc_paused() if self.pauses_gc else nullcontext():
                action = self._search(state, actions, prng, stats)
            stats.searched = True
        stats.fm_calls = self._calls
        stats.seconds = time.perf_counter() - start
        return int(action)

    def reset(self) -> None:
        """Forget everything about the previous game (planners with memory override this)."""
        self.last_stats = SearchStats()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(budget={self.budget}, time_limit={self.time_limit})"

    # ------------------------------------------------------------------ for subclasses
    def _search(
        self, state: State, actions: list[int], prng: random.Random, stats: SearchStats
    ) -> int:
        """Choose among ``actions`` at ``state``; fill ``stats.iterations`` and ``extra``."""
        raise NotImplementedError

    def _always_search(self) -> bool:
        """True for planners that must search even with one root action (memory, tests)."""
        return False

    def _bind(self, state: State) -> None:
        """Look up the fast paths of this state's class once per decision."""
        cls = type(state)
        self._legal_raw: LegalFn = cls.legal_action_list
        self._apply: ApplyFn = cls.apply
        self._kind_fn = optional_hook(state, ActionKinds.action_kind)
        # A game's own sampler (it draws without listing); None keeps the list and its draw.
        sample = cls.sample_legal_action
        self._sample: SampleFn | None = sample if sample is not State.sample_legal_action else None

    def _legal(self, state: State) -> list[int]:
        """Legal actions the planner may play (excluded kinds removed unless nothing is left)."""
        legal = self._legal_raw(state)
        if self.exclude_kinds and legal:
            kept = [a for a in legal if self._kind(state, a) not in self.exclude_kinds]
            return kept or legal
        return legal

    def _kind(self, state: State, action: int) -> str:
        """Kind of ``action``: ``state.action_kind`` if present, else its name's first word."""
        if self._kind_fn is not None:
            return state.action_kind(action)  # type: ignore[attr-defined]  # ActionKinds
        kind = self._kind_cache.get(action)
        if kind is None:
            kind = self.game.action_to_string(action).split(maxsplit=1)[0]
            self._kind_cache[action] = kind
        return kind

    def _root_actions(self, state: State, legal: list[int], prng: random.Random) -> list[int]:
        """Candidate actions at the root: all legal ones, or one random group (Tribes)."""
        if not self.prioritize_root:
            return legal
        group_of = optional_hook(state, ActionGroups.action_group)
        if group_of is None:
            raise ValueError(
                f"{self.name}: prioritize_root needs state.action_group(action), which "
                f"{self.game.spec.name} does not provide"
            )
        groups: dict[Any, list[int]] = {}
        for a in legal:
            groups.setdefault(group_of(a), []).append(a)
        keys = sorted(groups, key=repr)
        return groups[keys[prng.randrange(len(keys))]]

    def _left(self) -> int:
        """Forward-model calls left in this decision."""
        return self._limit - self._calls

    def _out_of_time(self) -> bool:
        return time.perf_counter() >= self._deadline

    def _step(self, state: State, action: int) -> None:
        """One counted forward-model call."""
        self._calls += 1
        self._apply(state, action)

    def _choose_random(self, state: State, prng: random.Random, depth: int) -> int:
        """The default policy: uniform over the playable actions, with forced end turns."""
        legal = self._legal(state)
        if (
            self.force_end_turn
            and depth > 0
            and depth % self.force_end_turn == 0
            and self.end_turn in legal
        ):
            return self.end_turn  # type: ignore[return-value]
        return legal[int(prng.random() * len(legal))]

    def _rollout(self, state: State, steps: int, prng: random.Random, depth: int = 0) -> int:
        """Play up to ``steps`` uniformly random actions in place, within the budget.

        Args:
            state: Advanced in place.
            steps: Most actions to play.
            prng: Random source.
            depth: Depth of ``state`` from the root, for ``force_end_turn``.

        Returns:
            The number of actions played (each one forward-model call).
        """
        n = min(steps, self._limit - self._calls)
        if n <= 0:
            return 0
        apply = self._apply
        rnd = prng.random
        done = 0
        if not self.exclude_kinds and not self.force_end_turn:
            sample = self._sample
            if sample is not None:
                while done < n and not state.is_terminal():
                    apply(state, sample(state, prng))
                    done += 1
            else:
                legal_fn = self._legal_raw
                while done < n and not state.is_terminal():
                    legal = legal_fn(state)
                    apply(state, legal[int(rnd() * len(legal))])
                    done += 1
        else:
            while done < n and not state.is_terminal():
                apply(state, self._choose_random(state, prng, depth + done))
                done += 1
        self._calls += done
        return done

    def _play_opponents(self, state: State, player: int, prng: random.Random) -> None:
        """Let the other players act uniformly at random until ``player`` decides again.

        This is Stratega's opponent model inside its MCTS agents (RandomActionScript); every
        opponent action is a counted forward-model call.
        """
        legal_fn = self._legal_raw if not self.exclude_kinds else self._legal
        sample = self._sample if not self.exclude_kinds else None
        apply = self._apply
        rnd = prng.random
        while (
            state.current_player != player and self._calls < self._limit and not state.is_terminal()
        ):
            if sample is not None:
                apply(state, sample(state, prng))
            else:
                legal = legal_fn(state)
                apply(state, legal[int(rnd() * len(legal))])
            self._calls += 1

    def _outcome_bonus(self, state: State, player: int, unused: int) -> float:
        """Tie-break for plans that end the game: win sooner, lose later.

        A millionth per unused step, signed by ``player``'s outcome, so that of two plans the
        evaluator scores the same (every win is worth the same) the shorter win is preferred.
        """
        if not state.is_terminal() or unused <= 0:
            return 0.0
        returns = [float(r) for r in state.returns()]
        others = max((r for p, r in enumerate(returns) if p != player), default=0.0)
        outcome = (returns[player] > others) - (returns[player] < others)
        return outcome * 1e-6 * unused

    def _values(self, state: State) -> list[float]:
        """Evaluator values of ``state`` per player, as a plain list.

        An evaluator may offer ``evaluate_list(state)``, the same values as a list of Python
        floats: planners call this once per forward-model call or so, and a small array costs
        more to build and convert back than a cheap heuristic's arithmetic.
        """
        fast = self._evaluate_list
        if fast is not None:
            return fast(state)
        values = self.evaluator.evaluate(state)
        if type(values) is np.ndarray and values.dtype == np.float64:  # no conversion to make
            return values.tolist()
        return np.asarray(values, dtype=np.float64).tolist()
