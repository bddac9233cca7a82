"""The Prismata engine's fast paths agree with the plain computation they replace (issue 18).

``clone()`` shares the per-player lists until a side writes them (copy-on-write by reference
count), purchases are listed in one pass (:meth:`buyable_cards`), scripts that only gain
resources take a short path at the start of a turn and on a click, and agents compare positions
in place (:meth:`same_position`). Each test plays random games and checks the fast answer
against one computed from scratch: a state rebuilt from its saved dictionary (which shares
nothing), the per-card :meth:`can_buy`, the general script runner, and :meth:`position_key`.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from stratagem.envs.prismata import PrismataGame
from stratagem.envs.prismata.cards import NUM_CARDS
from stratagem.envs.prismata.data import ACTION, C_ABILITY, C_ON_BUY, C_START
from stratagem.envs.prismata.rules import PrismataState

#: Card sets of the random games: the base set (plain scripts only) and random sets whose
#: cards create, destroy, sacrifice and resonate.
CONFIGS = ("base", "random:8", "random:20")


def _games(n: int, max_rounds: int = 30) -> Iterator[tuple[PrismataGame, int]]:
    for cards in CONFIGS:
        game = PrismataGame(cards=cards, max_rounds=max_rounds)
        for seed in range(n):
            yield game, seed


def _fresh(state: PrismataState) -> PrismataState:
    """A copy rebuilt from the saved dictionary: it shares no list with ``state``."""
    return state.game._state_from_dict(copy.deepcopy(state._to_dict()))


def _random_action(state: PrismataState, rng: random.Random) -> int:
    legal = state.legal_action_list()
    return legal[rng.randrange(len(legal))]


def test_clones_share_nothing_that_either_side_writes() -> None:
    """Both branches of a clone play on as if each had its own copy of every list."""
    checked = 0
    for game, seed in _games(8):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            if rng.random() < 0.15:
                before = copy.deepcopy(state._to_dict())
                twin = state.clone()
                grandchild = twin.clone()
                references = [_fresh(state), _fresh(twin)]
                branches = [state, twin]
                for _ in range(rng.randrange(1, 12)):
                    for branch, reference in zip(branches, references, strict=True):
                        if branch.is_terminal():
                            continue
                        action = _random_action(branch, rng)
                        branch.apply(action)
                        reference.apply(action)
                        assert branch._to_dict() == reference._to_dict()
                        assert branch.legal_action_list() == reference.legal_action_list()
                        assert (branch.returns() == reference.returns()).all()
                # the clone of the clone was never written: it still holds the old position
                assert grandchild._to_dict() == before
                checked += 1
            else:
                state.apply(_random_action(state, rng))
    assert checked > 100


def test_a_saved_dictionary_keeps_its_position() -> None:
    """Lists handed out by ``_to_dict`` count as shared: a later action copies, never writes."""
    game = PrismataGame(cards="random:8", max_rounds=20)
    rng = random.Random(3)
    state = game.new_initial_state(3)
    while not state.is_terminal():
        saved = state._to_dict()
        frozen = copy.deepcopy(saved)
        state.apply(_random_action(state, rng))
        assert saved == frozen


def test_buyable_cards_and_legal_purchases_match_can_buy() -> None:
    """The one-pass purchase list is :meth:`can_buy` of each card, in card order."""
    for game, seed in _games(6):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            expected = [t for t in state.cards if state.can_buy(t)]
            assert state.buyable_cards() == expected
            legal = state.legal_action_list()
            assert [a for a in legal if a < NUM_CARDS] == (
                expected if state.phase == ACTION and state.pending < 0 else []
            )
            state.apply(legal[rng.randrange(len(legal))])


def test_same_position_is_position_key_equality() -> None:
    """:meth:`same_position` answers ``position_key() == other.position_key()``."""
    for game, seed in _games(4):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        previous = state.clone()
        while not state.is_terminal():
            twin = state.clone()
            assert state.same_position(twin)
            assert state.same_position(_fresh(state))
            assert state.same_position(previous) == (
                state.position_key() == previous.position_key()
            )
            previous = twin
            state.apply(_random_action(state, rng))
        assert not state.same_position(previous)


@contextmanager
def _general_scripts() -> Iterator[None]:
    """Every script marked not plain: the rules run each through the general path."""
    scripts = [s for s in (*C_START, *C_ABILITY, *C_ON_BUY) if s is not None]
    saved = [s.plain for s in scripts]
    for s in scripts:
        s.plain = False
    try:
        yield
    finally:
        for s, plain in zip(scripts, saved, strict=True):
            s.plain = plain


def _trace(game: PrismataGame, seed: int) -> list[object]:
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    trace: list[object] = []
    while not state.is_terminal():
        legal = state.legal_action_list()
        trace.append((legal, state._to_dict()))
        state.apply(legal[rng.randrange(len(legal))])
    trace.append((state._to_dict(), state.returns().tolist()))
    return trace


def test_plain_script_paths_match_the_general_runner() -> None:
    """Turn starts and clicks give the same positions with the gains-only shortcut off."""
    games = list(_games(5))
    with _general_scripts():
        general = [_trace(game, seed) for game, seed in games]
    fast = [_trace(game, seed) for game, seed in games]
    assert fast == general


def test_econ_clicks_are_plain() -> None:
    """EconomyDefault lists its econ units before clicking them: their clicks only gain."""
    from stratagem.baselines.prismata.partial.common import ECON

    econ = [t for t, flag in enumerate(ECON) if flag]
    assert econ
    assert all(C_ABILITY[t] is not None and C_ABILITY[t].plain for t in econ)


def test_always_copying_plays_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where reference counts cannot tell a second holder apart, every write copies first.

    ``_alone_counts`` returns ``(-1, -1)`` on such an interpreter; the games must not change.
    """
    from stratagem.envs.prismata import rules

    games = list(_games(3))
    shared = [_trace(game, seed) for game, seed in games]
    monkeypatch.setattr(rules, "_ALONE_ATTR", -1)
    monkeypatch.setattr(rules, "_ALONE_ITEM", -1)
    assert [_trace(game, seed) for game, seed in games] == shared


def test_a_second_holder_raises_the_count() -> None:
    """The copy-on-write rule rests on this: a clone's list counts more than a lone one."""
    from stratagem.envs.prismata import rules

    state = PrismataGame(cards="base").new_initial_state(0)
    alone = rules._refs(state.u[0])
    twin = state.clone()
    assert rules._refs(state.u[0]) > alone
    assert rules._refs(state.u[0]) > rules._ALONE_ITEM
    del twin
