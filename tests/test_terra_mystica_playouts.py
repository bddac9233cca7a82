"""Terra Mystica: long random games (rarely passing) keep every invariant of the contract.

The conformance suite plays uniformly random games, which pass early and end quickly; these
playouts avoid passing so that spades, towns, favors, leech and cult rewards all occur.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from stratagem.envs import IllegalActionError, make_game
from stratagem.envs.terra_mystica import actions as A

PASSES = set(range(A.A_PASS, A.A_PASS + 9)) | {A.X_PASS_BON10, A.X_PASS_NONE}

CONFIGS = [
    {},
    {"factions": "darklings,giants"},
    {"factions": "chaosmagicians,mermaids", "turn_order": "variable"},
    {"num_players": 3, "factions": "cultists,witches,dwarves"},
    {"num_players": 4, "factions": "alchemists,auren,fakirs,swarmlings", "mini_expansion": True},
    {"num_players": 5, "factions": "random", "shipping_bonus": True, "temple_scoring_tile": True},
]


def _play(cfg: dict, seed: int, checks: bool) -> tuple[object, int]:
    game = make_game("terra_mystica", **cfg)
    rng = np.random.default_rng(seed)
    st = game.new_initial_state(seed)
    steps = 0
    while not st.is_terminal():
        legal = st.legal_action_list()
        assert legal, f"{cfg} seed {seed}: no legal action in a live state"
        if checks and steps % 37 == 0:
            mask = st.legal_action_mask()
            assert set(np.flatnonzero(mask)) == set(legal)
            before = st.to_json()
            for a in rng.choice(np.flatnonzero(~mask), 15, replace=False):
                with pytest.raises(IllegalActionError):
                    st.apply(int(a))
            assert st.to_json() == before
            restored = game.state_from_json(before)
            assert restored.to_json() == before
            assert sorted(restored.legal_action_list()) == sorted(legal)
            json.loads(before)
            for p in range(game.spec.num_players):
                obs = st.observation(p)
                assert obs.shape == game.spec.observation_shape
                assert obs.min() >= 0 and obs.max() <= 1000
        others = [a for a in legal if a not in PASSES]
        if others and rng.random() > 0.03:
            a = others[rng.integers(len(others))]
        else:
            a = legal[rng.integers(len(legal))]
        st.apply(a)
        steps += 1
        assert steps < game.spec.max_game_length
    return st, steps


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_long_random_games_end_with_all_invariants(cfg):
    st, steps = _play(cfg, seed=3, checks=True)
    assert st.is_terminal() and steps > 100
    r = st.returns()
    assert abs(r.sum()) < 1e-9 and r.min() >= -1 and r.max() <= 1
    assert not st.legal_action_list()


def test_more_seeds_never_reach_a_dead_end():
    lengths = []
    for seed in range(12):
        _, steps = _play(CONFIGS[seed % len(CONFIGS)], seed=100 + seed, checks=False)
        lengths.append(steps)
    assert min(lengths) > 100
