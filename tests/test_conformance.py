"""The shared conformance suite over every registered game and configuration."""

from __future__ import annotations

import pytest

from stratagem.envs import game_entry, list_games, make_game
from stratagem.envs import testing as conf

CASES = [
    pytest.param(
        (name, dict(cfg)), id=f"{name}-{'-'.join(f'{k}={v}' for k, v in cfg.items()) or 'default'}"
    )
    for name in list_games()
    for cfg in game_entry(name).test_configs
]


@pytest.fixture(scope="module", params=CASES)
def case(request):
    name, cfg = request.param
    return name, cfg, make_game(name, **cfg)


def test_spec(case):
    conf.check_spec(case[2])


def test_random_playouts(case):
    conf.check_random_playouts(case[2], num_games=2)


def test_clone_independence(case):
    conf.check_clone_independence(case[2])


def test_determinism(case):
    conf.check_determinism(case[2])


def test_json_round_trip(case):
    conf.check_json_round_trip(case[2])


def test_mask_apply_agreement(case):
    conf.check_mask_apply_agreement(case[2])


def test_malformed_input(case):
    conf.check_malformed_input(case[2])


def test_action_names(case):
    conf.check_action_names(case[2])


def test_observations(case):
    conf.check_observations_hide_nothing_extra(case[2])


def test_pettingzoo(case):
    conf.check_aec(case[0], case[1])


def test_gymnasium(case):
    conf.check_gymnasium(case[0], case[1])
