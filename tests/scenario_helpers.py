"""Helpers of the rules tests that play scripted scenarios by readable action names.

The Stratega and CotG rules tests drive a state by the names of ``Game.string_to_action`` and
check what is offered by ``Game.action_to_string``; these helpers are the same in each of them,
so they live here once. Each test file keeps its own ``new_state`` (the game class and map
option differ).
"""

from __future__ import annotations

from typing import Any

import pytest

from stratagem.envs.core import IllegalActionError

__all__ = ["act", "assert_illegal", "legal_names"]


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
