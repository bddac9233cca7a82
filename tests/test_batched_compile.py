"""Compiled batched rules (``compile=True``) and ``step_random`` give the uncompiled results."""

from __future__ import annotations

import shutil

import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.usefixtures("one_torch_thread")

from stratagem.envs.batched import batched_game, sample_legal  # noqa: E402
from stratagem.envs.batched.core import compile_unavailable  # noqa: E402
from stratagem.envs.batched.testing import check_against_scalar  # noqa: E402
from stratagem.envs.registry import batched_game_names, make_game  # noqa: E402

CONFIGS = {"push_them_all": {"map": "pta"}, "kill_the_king": {"map": "kwah"}}

needs_compiler = pytest.mark.skipif(
    compile_unavailable("cpu") is not None, reason=str(compile_unavailable("cpu"))
)


def _same(a: object, b: object) -> bool:
    return all(torch.equal(getattr(a, f), getattr(b, f)) for f in a.__dataclass_fields__)


@pytest.mark.parametrize("name", batched_game_names())
def test_step_random_is_sample_legal_then_step(name: str) -> None:
    """The fused call draws the same actions from the same generator and plays them."""
    batched = batched_game(make_game(name, **CONFIGS[name]))
    one = two = batched.init(list(range(12)))
    g1 = torch.Generator().manual_seed(3)
    g2 = torch.Generator().manual_seed(3)
    for _ in range(150):
        actions = sample_legal(batched, one, g1)
        one = batched.step(one, actions, validate=True)  # the drawn actions are legal
        two, drawn = batched.step_random(two, g2)
        assert torch.equal(drawn, actions)
        assert _same(one, two)


@needs_compiler
def test_compiled_push_them_all_matches_the_scalar_rules() -> None:
    """The compiled rules pass the differential test (states, masks, returns every step)."""
    game = make_game("push_them_all", map="pta", max_rounds=29)
    batched = batched_game(game, compile=True)
    assert batched.compiled
    report = check_against_scalar(game, batched, list(range(16)), 1500, compare_every=10)
    assert report.finished == 16


@needs_compiler
@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=[] if n == "push_them_all" else pytest.mark.slow) for n in CONFIGS],
)
def test_compiled_step_random_matches_uncompiled(name: str) -> None:
    """Compiled and uncompiled ``step_random`` give the same actions and positions."""
    game = make_game(name, **CONFIGS[name])
    eager, compiled = batched_game(game), batched_game(game, compile=True)
    one = two = eager.init(list(range(32)))
    g1 = torch.Generator().manual_seed(5)
    g2 = torch.Generator().manual_seed(5)
    for _ in range(200):
        one, a1 = eager.step_random(one, g1)
        two, a2 = compiled.step_random(two, g2)
        assert torch.equal(a1, a2) and _same(one, two)


@pytest.mark.slow
@needs_compiler
def test_compiled_kill_the_king_matches_the_scalar_rules() -> None:
    """The compiled Kill The King rules pass the differential test."""
    game = make_game("kill_the_king", map="small", max_rounds=40)
    report = check_against_scalar(
        game, batched_game(game, compile=True), list(range(16)), 3000, compare_every=10
    )
    assert report.steps > 16 * 20


def test_compile_without_a_cpp_compiler_says_what_to_install(monkeypatch) -> None:
    """On the CPU, compile=True names the missing compiler instead of failing at a step."""
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match="C\\+\\+ compiler"):
        batched_game(make_game("push_them_all", map="pta"), compile=True)


@needs_compiler
def test_many_batch_sizes_and_games_each_compile_once() -> None:
    """More (game, batch size) pairs than torch's recompile limit of 8 all run compiled."""
    games = [batched_game(make_game("push_them_all", map="pta"), compile=True) for _ in range(2)]
    generator = torch.Generator().manual_seed(0)
    for batched in games:
        for size in range(1, 6):
            state, actions = batched.step_random(batched.init(range(size)), generator)
            assert actions.shape == (size,)
        assert len(batched._random_rules.by_size) == 5


def test_compile_without_python_headers_says_what_to_install(monkeypatch, tmp_path) -> None:
    """Inductor's C++ includes Python.h: a missing header is named before any step."""
    import sysconfig

    monkeypatch.setattr(sysconfig, "get_paths", lambda: {"include": str(tmp_path)})
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/g++")
    with pytest.raises(RuntimeError, match="Python.h"):
        batched_game(make_game("push_them_all", map="pta"), compile=True)


@pytest.mark.parametrize("name", batched_game_names())
def test_the_default_candidate_sampler_draws_legal_actions(name: str) -> None:
    """The contract's sampler (for games without their own) draws only legal actions, and all
    of them over many draws."""
    from stratagem.envs.batched.core import BatchedGame

    batched = batched_game(make_game(name, **CONFIGS[name]))
    state = batched.init([0])
    for _ in range(30):
        state, _ = batched.step_random(state, torch.Generator().manual_seed(1))
    mask = batched.legal_mask(state)[0]
    many = state.take(torch.zeros(400, dtype=torch.int64))
    u = torch.rand(400, batched.candidates, generator=torch.Generator().manual_seed(2))
    drawn = BatchedGame._sample(batched, many, u)
    assert mask[drawn].all()
    assert set(drawn.tolist()) == set(torch.nonzero(mask).squeeze(1).tolist())
