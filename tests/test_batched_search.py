"""The batched Gumbel search decides as the scalar one (training/puct.py) on the same trees."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.usefixtures("one_torch_thread")

from stratagem.envs.batched import batched_game, sample_legal  # noqa: E402
from stratagem.envs.registry import make_game  # noqa: E402
from stratagem.training import puct  # noqa: E402
from stratagem.training.batched_search import (  # noqa: E402
    batched_gumbel_search,
    network_evaluator,
)
from stratagem.training.networks import build_network  # noqa: E402


class _LinearEvaluator:
    """A fixed random linear policy-value function of the observation, in float64.

    It is the same function for both searches, and its logits are almost surely free of ties,
    so two correct implementations of the same search build the same trees.
    """

    def __init__(self, obs_size: int, actions: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.features = rng.normal(size=(obs_size, 16))  # low rank: cheap, still tie-free
        self.policy = rng.normal(size=(16, actions)) * 0.3
        self.value = rng.normal(size=(16, 2)) * 0.05

    def __call__(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = obs.reshape(len(obs), -1).astype(np.float64) @ self.features
        return x @ self.policy, np.tanh(x @ self.value)

    def scalar(self, obs: np.ndarray, legal: list) -> tuple[list, np.ndarray]:
        logits, values = self(obs)
        priors = []
        for actions, row in zip(legal, logits, strict=True):
            z = np.exp(row[actions] - row[actions].max())
            priors.append(z / z.sum())
        return priors, values

    def batched(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        logits, values = self(obs.cpu().numpy())
        return torch.from_numpy(logits).float(), torch.from_numpy(values).float()


@pytest.mark.parametrize(
    ("config", "plies", "simulations", "considered"),
    [({"map": "pta"}, 37, 24, 8), ({"map": "pta", "max_rounds": 3}, 20, 40, 16)],
)
def test_same_decisions_and_policy_targets_as_the_scalar_search(
    config: dict, plies: int, simulations: int, considered: int
) -> None:
    """Actions, improved policies and evaluation counts agree with puct.gumbel_search."""
    game = make_game("push_them_all", **config)
    batched = batched_game(game)
    state = batched.init(list(range(12)))
    generator = torch.Generator().manual_seed(1)
    for _ in range(plies):
        state = batched.step(state, sample_legal(batched, state, generator))
    evaluator = _LinearEvaluator(
        int(np.prod(game.spec.observation_shape)), game.spec.action_size, 0
    )
    result = batched_gumbel_search(
        batched, state, evaluator.batched, simulations, max_considered=considered
    )
    roots = [puct.Node(batched.to_scalar(state, i)) for i in range(12)]
    expected, evaluations = puct.gumbel_search(
        roots, evaluator.scalar, simulations, 2, rng=None, max_considered=considered
    )
    assert result.evaluations == evaluations
    for i, (root, out) in enumerate(zip(roots, expected, strict=True)):
        if out is None:
            assert int(result.actions[i]) == 0 and float(result.policy[i].sum()) == 0.0
            continue
        policy = np.zeros(game.spec.action_size)
        policy[root.actions] = out.policy
        assert int(result.actions[i]) == int(root.actions[out.action_index]), f"root {i}"
        np.testing.assert_allclose(result.policy[i].numpy(), policy, atol=1e-5)


def _one_push_from_winning(game: object) -> list:
    """Positions where player 0 has one warrior next to player 1's last unit, which a push
    sends into a hole (every hole and push direction of the first SCSA board that allows it)."""
    from stratagem.envs.push_them_all import actions as A

    base = game.new_initial_state(0)
    data = base._to_dict()
    width, height = base.width, base.height
    cells = {(x, y) for x in range(width) for y in range(height)}
    warrior = next(u.id for u in base.units(0) if u.type == 0)
    enemy = base.units(1)[0].id
    found = []
    for hx, hy in base.holes:
        for dx, dy in A.PUSH_OFFSETS:
            ex, ey = hx - dx, hy - dy
            if (ex, ey) not in cells or not base.walkable(ex, ey) or base.is_hole(ex, ey):
                continue
            for sx, sy in A.SIDE_OFFSETS:
                wx, wy = ex - sx, ey - sy
                if (wx, wy) not in cells or not base.walkable(wx, wy) or base.is_hole(wx, wy):
                    continue
                pos = [-1] * len(data["pos"])
                pos[warrior], pos[enemy] = wy * width + wx, ey * width + ex
                found.append(game._state_from_dict({**data, "pos": pos}))
    return found


def test_finds_the_winning_push_with_an_uninformed_network() -> None:
    """Player 1's last unit stands next to a hole: the search plays a push that wins at once."""
    game = make_game("push_them_all", map="pta:1")
    batched = batched_game(game)
    scalars = _one_push_from_winning(game)
    assert len(scalars) >= 4
    zero = torch.zeros(1)

    def uninformed(obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return zero.new_zeros(len(obs), game.spec.action_size), zero.new_zeros(len(obs), 2)

    result = batched_gumbel_search(
        batched, batched.from_scalar(scalars), uninformed, 64, max_considered=32
    )
    for scalar, action in zip(scalars, result.actions.tolist(), strict=True):
        scalar.apply(action)
        assert scalar.winner == 0, game.action_to_string(action)


def test_noise_policy_and_network_evaluator() -> None:
    """With noise the actions stay legal and the policies are distributions over legal actions."""
    game = make_game("push_them_all", map="pta")
    batched = batched_game(game)
    state = batched.init(list(range(8)))
    net = build_network(game.spec, "tiny")
    result = batched_gumbel_search(
        batched,
        state,
        network_evaluator(net, "cpu"),
        8,
        generator=torch.Generator().manual_seed(3),
        noise=torch.tensor([True, False] * 4),
    )
    mask = batched.legal_mask(state)
    assert mask.gather(1, result.actions[:, None]).all()
    np.testing.assert_allclose(result.policy.sum(dim=1).numpy(), 1.0, atol=1e-5)
    assert float(result.policy[~mask].abs().sum()) == 0.0
    with pytest.raises(ValueError, match="simulations"):
        batched_gumbel_search(batched, state, network_evaluator(net, "cpu"), 0)
