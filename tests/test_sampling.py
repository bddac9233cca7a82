"""Sampling without listing (issue 18): ``State.sample_legal_action`` and what builds on it.

A game may override the contract's uniform pick from the legal list with a sampler that draws
without listing (Kill The King does, by rejection); whatever it does, every legal action must
come out with probability ``1 / n``. A chi-square test over many seeded draws in several states
of every Stratega game checks that, with both kinds of generator; the other tests pin down the
default's draws (games without a sampler play as before), determinism, and the search
optimisations of the same issue that must not change what the planners compute.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from stratagem.baselines.kill_the_king import (
    KillTheKingEvaluator,
    aim_to_king_list,
    aim_to_king_values,
)
from stratagem.baselines.search import MCTSAgent, MCTSUnitAgent, Node
from stratagem.baselines.search.common import shuffle
from stratagem.baselines.simple import RandomAgent
from stratagem.envs.core import State
from stratagem.envs.kill_the_king.rules import KING
from stratagem.envs.registry import make_game

#: Game configurations whose sampler is tested (the Stratega games, several boards).
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("kill_the_king", {}),
    ("kill_the_king", {"map": "kwah:17"}),
    ("kill_the_king", {"map": "small:7"}),
    ("push_them_all", {}),
    ("two_kingdoms", {}),
]


def chi2_critical(df: int, z: float = 3.719) -> float:
    """Upper chi-square quantile for ``df`` degrees of freedom at p = 1e-4 (Wilson-Hilferty)."""
    h = 2.0 / (9.0 * df)
    return df * (1.0 - h + z * math.sqrt(h)) ** 3


def varied_states(game_name: str, config: dict[str, Any], count: int = 5) -> list[State]:
    """Positions of seeded random games with different numbers of legal actions.

    They include the start of a turn (many actions) and the end of one (after the units have
    moved: few legal actions among many candidates, where a rejection sampler gives up and
    falls back to the list).
    """
    game = make_game(game_name, **config)
    prng = random.Random(7)
    found: dict[int, State] = {}
    seed = 0
    while len(found) < 4 * count and seed < 40:
        state = game.new_initial_state(seed)
        seed += 1
        while not state.is_terminal():
            legal = state.legal_action_list()
            found.setdefault(len(legal), state.clone())
            state.apply(legal[int(prng.random() * len(legal))])
    sizes = sorted(k for k in found if k > 1)
    picks = [sizes[round(i * (len(sizes) - 1) / (count - 1))] for i in range(count)]
    return [found[k] for k in dict.fromkeys(picks)]


@pytest.mark.parametrize(("game_name", "config"), CONFIGS)
@pytest.mark.parametrize("kind", ["python", "numpy"])
def test_sampling_is_uniform_over_the_legal_actions(
    game_name: str, config: dict[str, Any], kind: str
) -> None:
    """Chi-square over 60 draws per legal action in states with few to many legal actions."""
    for i, state in enumerate(varied_states(game_name, config)):
        legal = sorted(state.legal_action_list())
        before = state.to_json()
        rng: Any = random.Random(i) if kind == "python" else np.random.default_rng(i)
        draws = 60 * len(legal)
        counts = Counter(state.sample_legal_action(rng) for _ in range(draws))
        assert state.to_json() == before, "sampling changed the state"
        assert set(counts) <= set(legal), f"illegal draws {set(counts) - set(legal)}"
        expected = draws / len(legal)
        chi2 = sum((counts[a] - expected) ** 2 / expected for a in legal)
        assert chi2 < chi2_critical(len(legal) - 1), (
            f"{game_name} {config}: {len(legal)} legal actions, chi2 {chi2:.1f}, "
            f"counts {sorted(counts.values())}"
        )


@pytest.mark.parametrize(("game_name", "config"), CONFIGS)
def test_sampling_is_deterministic(game_name: str, config: dict[str, Any]) -> None:
    """Same seed, same draws; the returned actions are Python ints."""
    for state in varied_states(game_name, config, count=3):
        a = [state.sample_legal_action(random.Random(5)) for _ in range(3)]
        first = [state.clone().sample_legal_action(random.Random(5)) for _ in range(3)]
        assert a == first and all(type(x) is int for x in a)
        rng1, rng2 = np.random.default_rng(3), np.random.default_rng(3)
        assert [state.sample_legal_action(rng1) for _ in range(20)] == [
            state.sample_legal_action(rng2) for _ in range(20)
        ]


@pytest.mark.parametrize("game_name", ["push_them_all", "two_kingdoms", "cotg_combat"])
def test_default_draws_as_before(game_name: str) -> None:
    """Without an override, the contract's draw is the random agent's and the planners' pick.

    So the moves of random agents and rollouts stay the same for every seed in those games.
    """
    assert type(make_game(game_name).new_initial_state(0)).sample_legal_action is (
        State.sample_legal_action
    )
    for i, state in enumerate(varied_states(game_name, {}, count=3)):
        rng, copy = np.random.default_rng(i), np.random.default_rng(i)
        legal = state.legal_actions()
        assert state.sample_legal_action(rng) == int(legal[copy.integers(len(legal))])
        prng, pcopy = random.Random(i), random.Random(i)
        listed = state.legal_action_list()
        assert state.sample_legal_action(prng) == listed[int(pcopy.random() * len(listed))]
        assert prng.random() == pcopy.random()


def test_sampling_at_a_terminal_state_is_an_error() -> None:
    game = make_game("kill_the_king", map="small:7", max_rounds=1)
    for name in ("kill_the_king", "push_them_all"):
        state = (game if name == "kill_the_king" else make_game(name)).new_initial_state(0)
        while not state.is_terminal():
            state.apply(state.legal_action_list()[-1])  # EndTurn until the round limit
        with pytest.raises(ValueError, match="no legal action"):
            state.sample_legal_action(random.Random(0))


def test_random_agent_uses_the_sampler() -> None:
    """The random agent plays legal actions, reproducibly, through ``sample_legal_action``."""
    game = make_game("kill_the_king", map="small:7")
    agent = RandomAgent(game)
    for state in varied_states("kill_the_king", {"map": "small:7"}, count=3):
        picks = [agent.act(state, rng=np.random.default_rng(s)) for s in range(10)]
        again = [state.sample_legal_action(np.random.default_rng(s)) for s in range(10)]
        assert picks == again and set(picks) <= set(state.legal_action_list())


def test_planners_sample_only_where_the_game_overrides() -> None:
    """Rollouts use a game's own sampler; without one they keep the list and its single draw."""
    for name, overrides in (("kill_the_king", True), ("push_them_all", False)):
        game = make_game(name)
        agent = MCTSAgent(game, budget=50, rollouts=True)
        agent.act(game.new_initial_state(0), rng=np.random.default_rng(0))
        assert (agent._sample is not None) == overrides


def test_shuffle_matches_random_shuffle() -> None:
    """Same permutation and same generator state as ``random.Random.shuffle``."""
    for length in range(0, 70):
        for seed in range(8):
            a, b = list(range(length)), list(range(length))
            r1, r2 = random.Random(seed), random.Random(seed)
            r1.shuffle(a)
            shuffle(b, r2)
            assert a == b
            assert r1.getstate() == r2.getstate()


def _aim_to_king_reference(state: Any) -> list[float]:
    """The AimToKing formula written plainly over ``units()`` (the pre-optimisation code)."""
    if state.is_terminal():
        return [2.0 if state.winner == p else -2.0 for p in (0, 1)]
    kings = [(-1, -1, 200.0), (-1, -1, 200.0)]
    count = [0, 0]
    units = state.units()
    for u in units:
        count[u.owner] += 1
        if u.type == KING:
            kings[u.owner] = (u.x, u.y, float(u.health))
    out = []
    for p in (0, 1):
        kx, ky, khp = kings[1 - p]
        total = sum(abs(u.x - kx) + abs(u.y - ky) for u in units if u.owner == p)
        mine, enemy = count[p], count[1 - p]
        mean = total / mine if mine else 0.0
        score = (1.0 - mean / 400.0) + (1.0 - khp / 400.0)
        score += mine / 20.0 - enemy / 20.0
        out.append((score + 2.0) / 4.0)
    return out


def test_aim_to_king_fast_path_gives_the_same_floats() -> None:
    """The column-reading evaluator equals the plain formula bit for bit, as list and array."""
    evaluator = KillTheKingEvaluator()
    for config in ({}, {"map": "small:7"}):
        game = make_game("kill_the_king", **config)
        prng = random.Random(2)
        for seed in range(3):
            state = game.new_initial_state(seed)
            while True:
                expected = _aim_to_king_reference(state)
                assert aim_to_king_list(state) == expected
                assert evaluator.evaluate_list(state) == expected
                array = aim_to_king_values(state)
                assert array.dtype == np.float64 and array.tolist() == expected
                if state.is_terminal():
                    break
                state.apply(state.sample_legal_action(prng))


class _KeepRoot(MCTSAgent):
    """MCTS that keeps its last root, to inspect the tree."""

    root: Node

    def _make_root(self, state: State, actions: list[int], prng: random.Random) -> Node:
        self.root = super()._make_root(state, actions, prng)
        return self.root


@pytest.mark.parametrize("params", [{}, {"normalize": False, "c": 0.5}, {"rollouts": True}])
def test_mcts_tree_statistics_stay_consistent(params: dict[str, Any]) -> None:
    """Every node's cached means are its sums over its visits, ``qp`` its chooser's mean."""
    game = make_game("kill_the_king", map="small:7")
    agent = _KeepRoot(game, budget=300, **params)
    state = varied_states("kill_the_king", {"map": "small:7"}, count=3)[-1]
    agent.act(state.clone(), rng=np.random.default_rng(0))
    stack = [agent.root]
    seen = 0
    while stack:
        node = stack.pop()
        seen += 1
        assert node.n >= sum(ch.n for ch in node.children)
        for ch in node.children:
            assert ch.n >= 1
            assert ch.q == [w * (1.0 / ch.n) for w in ch.w]
            assert ch.qp == ch.q[node.player]
            assert ch.isq == math.sqrt(1.0 / ch.n)
            stack.append(ch)
    assert seen == agent.last_stats.extra["nodes"]


def test_mcts_u_still_searches_with_the_sampler() -> None:
    """MCTS_u's rollouts and random opponents go through the sampler and stay in budget."""
    game = make_game("kill_the_king", map="small:7")
    agent = MCTSUnitAgent(game, budget=400, open_loop=False)
    state = game.new_initial_state(0)
    action = agent.act(state.clone(), rng=np.random.default_rng(1))
    assert action in state.legal_action_list()
    assert 0 < agent.last_stats.fm_calls <= 400
