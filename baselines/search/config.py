"""The options every search planner shares, as one frozen dataclass, and their checks.

OSLA, MC, MCTS, MCTS_u, RHEA and the SCSA planners all take a forward-model budget, a time
limit, an evaluator, excluded action kinds and so on; each used to list, default and check
them itself. :class:`SearchConfig` holds them once with their validation, and each planner
says which of its fields it takes (``SearchAgent.options``) and with which defaults
(``SearchAgent.defaults``), so ``mcts:budget=2000`` and ``MCTSAgent(game, budget=2000)`` keep
working and a keyword a planner does not take is still a ``TypeError`` naming it.

The ``check_*`` functions are the one way a baseline checks a numeric or boolean option: each
error is a ``ValueError`` naming the planner, the option and the value, because options arrive
as text from specs and TOML files, where ``budget=true`` or ``c=-1`` is an easy slip and
Python's ``bool`` passes for an ``int``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from stratagem.baselines.agent import Evaluator, refuse_unknown_keywords

__all__ = [
    "OPPONENT_MODELS",
    "SearchConfig",
    "check_choice",
    "check_flag",
    "check_int",
    "check_number",
    "check_seconds",
    "configure",
    "kind_names",
]

#: How a tree search treats the other players (see :mod:`stratagem.baselines.search.mcts`).
OPPONENT_MODELS = ("tree", "random")


def check_int(who: str, name: str, value: Any, low: int, *, optional: bool = False) -> None:
    """Raise ``ValueError`` unless ``value`` is an integer >= ``low`` (or ``None`` if optional).

    ``bool`` is refused although Python counts it as an ``int``: ``budget=true`` is a slip.
    """
    if optional and value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        if optional:
            want = "a positive integer" if low == 1 else f"an integer >= {low}"
            raise ValueError(f"{who}: {name} must be {want} or None, got {value!r}")
        raise ValueError(f"{who}: {name} must be an integer >= {low}, got {value!r}")


def check_number(
    who: str,
    name: str,
    value: Any,
    low: float = 0.0,
    *,
    high: float | None = None,
    what: str = "a number",
) -> None:
    """Raise ``ValueError`` unless ``value`` is a real number in ``[low, high]`` (no ``bool``).

    Args:
        who: The planner, first word of the message.
        name: The option.
        value: What was given.
        low: Smallest value allowed.
        high: Largest value allowed, if any.
        what: How the message names the expected value (``"a probability"``).
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or value < low
        or (high is not None and value > high)
    ):
        want = f"{what} in [{low:g}, {high:g}]" if high is not None else f"{what} >= {low:g}"
        raise ValueError(f"{who}: {name} must be {want}, got {value!r}")


def check_seconds(who: str, name: str, value: Any) -> None:
    """Raise ``ValueError`` unless ``value`` is ``None`` or a positive number of seconds."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise ValueError(
            f"{who}: {name} must be a positive number of seconds or None, got {value!r}"
        )


def check_flag(who: str, name: str, value: Any, *, optional: bool = False) -> None:
    """Raise ``ValueError`` unless ``value`` is ``True`` or ``False`` (or ``None`` if optional)."""
    if optional and value is None:
        return
    if not isinstance(value, bool):
        want = "true, false or None" if optional else "true or false"
        raise ValueError(f"{who}: {name} must be {want}, got {value!r}")


def check_choice(who: str, name: str, value: Any, choices: Sequence[str]) -> None:
    """Raise ``ValueError`` unless ``value`` is one of ``choices``."""
    if value not in choices:
        raise ValueError(f"{who}: {name} must be one of {', '.join(choices)}, got {value!r}")


def kind_names(value: Sequence[str] | str | None) -> frozenset[str]:
    """Parse a set of names: a sequence, or a string separated by ``|`` (spec and CLI friendly)."""
    if value is None:
        return frozenset()
    if isinstance(value, str):
        return frozenset(v.strip() for v in value.split("|") if v.strip())
    return frozenset(str(v) for v in value)


@dataclass(frozen=True)
class SearchConfig:
    """Options shared by the search planners; checked when built, immutable afterwards.

    A planner takes only some of them (``SearchAgent.options``); the others keep their
    defaults and are not used by it.

    Attributes:
        planner: Name used in error messages (not an option).
        budget: Forward-model calls per decision; ``None`` for no call limit (then
            ``time_limit`` or ``iterations`` must bound the search).
        time_limit: Optional wall-clock limit per decision, in seconds.
        iterations: Optional cap on search iterations per decision (tree searches).
        evaluator: Heuristic evaluator; ``None``/``"default"`` uses the game's own one.
        exclude_kinds: Action kinds never played; a sequence or a ``|``-separated string,
            stored as a frozenset.
        prioritize_root: Tribes' root prioritisation (needs ``state.action_group``).
        force_end_turn: End the turn every this many simulated steps (0: never).
        rollout_length: Depth limit from the root (tree searches) or actions per rollout (MC).
        c: UCB1 exploration constant.
        rollouts: Play random rollouts to the depth limit; false evaluates the expanded node.
        normalize: Scale values by the bounds seen so far before UCB1.
        opponent: ``"tree"`` or ``"random"`` (see :mod:`stratagem.baselines.search.mcts`).
        open_loop: Re-simulate the path every iteration; ``None`` decides from the game.
    """

    planner: str = field(default="search", compare=False)
    budget: int | None = 2000
    time_limit: float | None = None
    iterations: int | None = None
    evaluator: Evaluator | str | None = None
    exclude_kinds: Sequence[str] | str | None = frozenset()
    prioritize_root: bool = False
    force_end_turn: int = 0
    rollout_length: int = 20
    c: float = math.sqrt(2.0)
    rollouts: bool = False
    normalize: bool = True
    opponent: str = "tree"
    open_loop: bool | None = None

    def __post_init__(self) -> None:
        who = self.planner
        check_int(who, "budget", self.budget, 1, optional=True)
        check_seconds(who, "time_limit", self.time_limit)
        if self.time_limit is not None:
            object.__setattr__(self, "time_limit", float(self.time_limit))
        check_int(who, "iterations", self.iterations, 1, optional=True)
        check_int(who, "force_end_turn", self.force_end_turn, 0)
        check_flag(who, "prioritize_root", self.prioritize_root)
        check_number(who, "c", self.c)
        object.__setattr__(self, "c", float(self.c))
        check_int(who, "rollout_length", self.rollout_length, 1)
        check_flag(who, "rollouts", self.rollouts)
        check_flag(who, "normalize", self.normalize)
        check_choice(who, "opponent", self.opponent, OPPONENT_MODELS)
        check_flag(who, "open_loop", self.open_loop, optional=True)
        object.__setattr__(self, "exclude_kinds", kind_names(self.exclude_kinds))

    def bounded(self) -> bool:
        """Whether something stops a search: a budget, a time limit or an iteration cap."""
        return self.budget is not None or self.time_limit is not None or self.iterations is not None


#: The configuration's own defaults: a config that leaves an option there did not set it.
_BASE = SearchConfig()


def configure(
    owner: type,
    planner: str,
    takes: frozenset[str],
    defaults: SearchConfig,
    config: SearchConfig | None,
    options: dict[str, Any],
    *,
    unbounded_ok: bool = False,
) -> SearchConfig:
    """A planner's configuration: ``config``, or its ``defaults`` with ``options`` applied.

    Every planner built on :class:`SearchConfig` (the generic ones of
    :class:`~stratagem.baselines.search.common.SearchAgent`, the CotG and Prismata searches)
    goes through this, so they all refuse the same things the same way.

    Args:
        owner: The planner's class: its name words ``TypeError`` messages as a Python
            signature would, and its constructors' keywords join ``takes`` in the list of what
            it accepts.
        planner: The planner's name, first word of ``ValueError`` messages.
        takes: The fields the planner takes as keywords.
        defaults: The planner's defaults; the fields outside ``takes`` stay as they are there.
        config: A whole configuration, instead of keywords.
        options: The keywords given.
        unbounded_ok: Whether the search ends by itself without a budget, time limit or
            iteration cap (else one of those in ``takes`` must be set).

    Raises:
        TypeError: For a keyword the planner does not take (as a Python signature would), or
            for keywords given together with a ``config``.
        ValueError: For a bad value (naming it), a ``config`` that sets an option the planner
            does not take, or nothing bounding the search.
    """
    refuse_unknown_keywords(owner, options, takes)
    if config is None:
        config = dataclasses.replace(defaults, planner=planner, **options)
    elif options:
        raise TypeError(
            f"{owner.__name__}(): give a SearchConfig or keywords, not both "
            f"({', '.join(sorted(options))})"
        )
    # Options the planner does not take are its own settings (SCSA always rolls out).
    fixed = {
        f.name: getattr(defaults, f.name)
        for f in dataclasses.fields(SearchConfig)
        if f.compare and f.name not in takes
    }
    for key, value in fixed.items():
        if getattr(config, key) not in (value, getattr(_BASE, key)):
            raise ValueError(f"{planner} does not take the option {key}")
    config = dataclasses.replace(config, planner=planner, **fixed)
    if not unbounded_ok and not config.bounded():
        limits = [k for k in ("budget", "time_limit", "iterations") if k in takes]
        raise ValueError(f"{planner}: give {', '.join(limits[:-1])} or {limits[-1]}")
    return config
