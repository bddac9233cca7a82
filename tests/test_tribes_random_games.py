"""Tribes: many random games finish without an error and keep the state's invariants."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.envs.registry import make_game
from stratagem.envs.tribes import cities as CT
from stratagem.envs.tribes import units as UN

CONFIGS = (
    {},
    {"num_players": 3, "mode": "score"},
    {"num_players": 4, "observability": "partial"},
    {"map": "SampleLevel2p", "observability": "partial", "mode": "score"},
    {"map": "paper"},
)


def check_invariants(s) -> None:
    """Board and lists agree: every unit is on its tile and in exactly one list of its tribe."""
    listed = {}
    for t in range(s.num_tribes):
        for cid in s.tcities[t]:
            city = s.cities[cid]
            assert city[CT.C_TRIBE] == t
            assert len(city[CT.C_UNITS]) <= city[CT.C_LEVEL] + 1
            for uid in city[CT.C_UNITS]:
                assert uid not in listed
                listed[uid] = t
                assert s.units[uid][UN.U_CITY] == cid
        for uid in s.extra[t]:
            assert uid not in listed
            listed[uid] = t
            assert s.units[uid][UN.U_CITY] == 0
    assert set(listed) == set(s.units)
    for uid, unit in s.units.items():
        assert s.unit_at[unit[UN.U_POS]] == uid
        assert listed[uid] == unit[UN.U_TRIBE]
        assert 0 < unit[UN.U_HP] <= unit[UN.U_MAXHP]
    assert sum(1 for u in s.unit_at if u) == len(s.units)


def play_random(game, seed: int, rng: np.random.Generator, check_every: int = 0) -> int:
    s = game.new_initial_state(seed)
    steps = 0
    while not s.is_terminal():
        legal = s.legal_action_list()
        s.apply(legal[int(rng.integers(len(legal)))])
        steps += 1
        if check_every and steps % check_every == 0:
            check_invariants(s)
    check_invariants(s)
    assert abs(float(s.returns().sum())) < 1e-9 and s.returns().max() == 1.0
    return steps


def test_random_games_keep_invariants():
    rng = np.random.default_rng(0)
    for k, cfg in enumerate(CONFIGS):
        play_random(make_game("tribes", max_turns=8, **cfg), k, rng, check_every=5)


@pytest.mark.slow
def test_a_thousand_random_games_in_a_row():
    rng = np.random.default_rng(1)
    games = [make_game("tribes", **cfg) for cfg in CONFIGS]
    for k in range(1000):
        play_random(games[k % len(games)], k, rng, check_every=0)
