"""The network's forward pass replayed from CUDA graphs (training/cuda_graphs.py).

On the CPU only the bucket rule, the refusal of a CPU device and the option's pass-through are
checked (``graphs`` is ignored there); the replay itself runs under ``-m gpu``.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from stratagem.envs.registry import make_game
from stratagem.training.alphazero import network_forward
from stratagem.training.batched_search import network_evaluator
from stratagem.training.config import AlphaZeroConfig
from stratagem.training.cuda_graphs import CudaGraphForward, bucket_rows
from stratagem.training.networks import build_network


def _net(device: str = "cpu") -> torch.nn.Module:
    torch.manual_seed(0)
    game = make_game("push_them_all", map="pta")
    net = build_network(game.spec, "tiny", global_pooling=True, symmetric_value=True)
    return net.to(device).eval()


def _observations(n: int) -> np.ndarray:
    game = make_game("push_them_all", map="pta")
    rng = np.random.default_rng(0)
    obs, state = [], game.new_initial_state(0)
    while len(obs) < n:
        if state.is_terminal():
            state = game.new_initial_state(len(obs))
        obs.append(state.observation(state.current_player))
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(len(legal))]))
    return np.stack(obs).astype(np.float32)


def test_bucket_rows() -> None:
    assert [bucket_rows(n, 64) for n in (1, 8, 9, 16, 17, 64, 65, 1000)] == [
        8, 8, 16, 16, 32, 64, 64, 64
    ]  # fmt: skip
    with pytest.raises(ValueError, match="at least one position"):
        bucket_rows(0, 64)


def test_refuses_cpu_and_bad_sizes() -> None:
    with pytest.raises(ValueError, match="CUDA graphs need a CUDA device"):
        CudaGraphForward(_net(), "cpu")
    with pytest.raises(ValueError, match="power of two"):
        CudaGraphForward(_net(), "cuda", max_rows=100)


def test_option_is_ignored_on_the_cpu() -> None:
    """``graphs=True`` on the CPU gives the eager outputs bit for bit (the option is CUDA's)."""
    net, obs = _net(), _observations(20)
    eager = network_forward(net, torch.device("cpu"))(obs)
    graphed = network_forward(net, torch.device("cpu"), graphs=True)(obs)
    for a, b in zip(eager, graphed, strict=True):
        np.testing.assert_array_equal(a, b)
    batched = network_evaluator(net, "cpu", graphs=True)(torch.from_numpy(obs))
    np.testing.assert_array_equal(batched[0].numpy(), eager[0])
    assert AlphaZeroConfig(game="push_them_all", cuda_graphs=True).cuda_graphs


@pytest.mark.gpu
def test_replay_matches_the_eager_network_and_follows_training() -> None:
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA device")
    net, device = _net("cuda"), torch.device("cuda")
    obs = torch.from_numpy(_observations(300))
    graphed = CudaGraphForward(net, device, max_rows=128)
    eager = network_evaluator(net, device)
    for n in (1, 7, 8, 100, 128, 300):  # 300: three parts of at most 128 rows
        got, want = graphed(obs[:n]), eager(obs[:n])
        for a, b in zip(got, want, strict=True):
            assert a.shape == b.shape and a.dtype == torch.float32
            torch.testing.assert_close(a, b, atol=2e-2, rtol=2e-2)
    first = graphed(obs[:5])[0]
    assert not torch.equal(first, graphed(obs[5:10])[0])  # outputs are fresh per call
    # an optimiser step changes the weights in place: the graphs see them
    optimiser = torch.optim.SGD(net.parameters(), lr=0.5)
    net.train()
    logits, values = net(obs[:16].to(device))
    (logits.square().mean() + values.square().mean()).backward()
    optimiser.step()
    net.eval()
    torch.testing.assert_close(graphed(obs[:5])[0], eager(obs[:5])[0], atol=2e-2, rtol=2e-2)
    assert not torch.allclose(graphed(obs[:5])[0], first)
    # parameters replaced (not updated in place): recorded afresh
    with torch.no_grad():
        for p in net.parameters():
            p.data = p.data.clone() * 0.5
    torch.testing.assert_close(graphed(obs[:5])[0], eager(obs[:5])[0], atol=2e-2, rtol=2e-2)
    assert graphed(obs[:0])[0].shape == (0, first.shape[1])
