"""Helpers of the rules tests that play scripted scenarios by readable action names.

The Stratega and CotG rules tests drive a state by the names of ``Game.string_to_action`` and
check what is offered by ``Game.action_to_string``; these helpers are the same in each of them,
so they live here once. Each test file keeps its own ``new_state`` (the game class and map
option differ).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from stratagem.envs.core import IllegalActionError

__all__ = ["act", "assert_illegal", "legal_names", "statuses_to_the_end"]


def act(state: Any, *names: str) -> None:
    """Apply actions given by their readable names, in order."""
    for name in names:
        state.apply(state.game.string_to_action(name))


def assert_illegal(state: Any, name: str) -> None:
    """The named action raises, leaves the state as it was and is not offered."""
    action = state.game.string_to_action(name)
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply(action)
    assert state.to_json() == before
    assert action not in state.legal_action_list()


def legal_names(state: Any, prefix: str = "") -> set[str]:
    """Readable names of the legal actions that start with ``prefix``."""
    names = {state.game.action_to_string(a) for a in state.legal_action_list()}
    return {n for n in names if n.startswith(prefix)}


#: The status line of a text rendering: the round in progress or how the game ended.
_STATUS = re.compile(r"(round \d+\b|draw after \d+ rounds|game over after \d+ rounds)")


def statuses_to_the_end(state: Any) -> list[str]:
    """End every turn until the game is over; the status lines shown on the way, repeats dropped.

    Every game's text rendering has one status line, starting with the round in progress
    (``round 1/2, ...``) or the result (``draw after 2 rounds ...``); this collects them so a
    test can check how rounds are counted against ``max_rounds``.
    """

    def status() -> str:
        return next(line for line in str(state).splitlines() if _STATUS.match(line))

    seen = [status()]
    while not state.is_terminal():
        state.apply(state.game.end_turn_action)
        if status() != seen[-1]:
            seen.append(status())
    return seen
