"""Batched Kill The King is bit-identical to the scalar rules (differential tests) and safe."""

from __future__ import annotations

from collections import Counter

import pytest

torch = pytest.importorskip("torch")

from stratagem.envs.batched import batched_game, sample_legal  # noqa: E402
from stratagem.envs.batched.core import compile_unavailable  # noqa: E402
from stratagem.envs.batched.kill_the_king import BatchedKillTheKing  # noqa: E402
from stratagem.envs.batched.testing import check_against_scalar  # noqa: E402
from stratagem.envs.kill_the_king import actions as A  # noqa: E402
from stratagem.envs.registry import make_game  # noqa: E402

# tiny tensors: a second thread only adds waiting (milliseconds per op on a busy machine)
pytestmark = pytest.mark.usefixtures("one_torch_thread")

#: Sides of unequal size and two Kings on one side (the sampler counts every unit of the side
#: to move, the outcome every King of each side).
UNEVEN = ". k0 w0 a1 k0 .\n. h0 . . k1 .\n. . a0 . h1 .\n. . . . . .\n"


def _replay(batched: BatchedKillTheKing, seeds: list[int], steps: int, action_seed: int) -> Counter:
    """What the random games of ``check_against_scalar`` did: counts of the events that matter.

    The differential run draws its actions from a generator seeded with ``action_seed`` and
    nothing else, so replaying the batched side alone repeats its games exactly; counting here
    shows that the comparison covered attacks, heals, kills and won games, not only walks.
    """
    state = batched.init(seeds)
    generator = torch.Generator().manual_seed(action_seed)
    cells = batched.cells
    seen: Counter = Counter()
    for _ in range(steps):
        if bool(batched.terminated(state).all()):
            break
        actions = sample_legal(batched, state, generator)
        live = ~batched.terminated(state)
        plane = torch.where(actions == batched.num_actions - 1, -1, actions // cells)[live]
        seen["attack"] += int(((plane >= A.ATTACK_PLANE0) & (plane < A.HEAL_PLANE0)).sum())
        seen["heal"] += int(((plane >= A.HEAL_PLANE0) & (plane < A.EMPTY_PLANE)).sum())
        after = batched.step(state, actions, validate=False)
        seen["kill"] += int(((state.pos >= 0) & (after.pos < 0)).sum())
        healed = (after.hp > state.hp) & (state.pos >= 0)
        seen["healed"] += int(healed.sum())
        state = after
    seen["decided"] = int((state.winner >= 0).sum())
    seen["drawn"] = int((state.winner == -1).sum())
    return seen


@pytest.mark.parametrize(
    ("config", "games", "steps"),
    [
        ({"map": "small", "max_rounds": 40}, 64, 4000),  # short games on small boards: decided
        ({"map": "default", "max_rounds": 9}, 16, 600),  # drawn at the round limit
        ({"map": "kwah"}, 24, 600),  # the paper's 50 maps, mixed in one batch
    ],
)
def test_random_games_match_the_scalar_rules(config: dict, games: int, steps: int) -> None:
    """States, masks, observations and returns agree at every step of random games."""
    game = make_game("kill_the_king", **config)
    batched = batched_game(game)
    seeds = list(range(games))
    report = check_against_scalar(game, batched, seeds, steps)
    assert report.steps > games * 20
    if config["map"] == "kwah":
        assert len({int(b) for b in batched.init(seeds).board}) > 8  # boards are mixed
    if config.get("max_rounds", 99) <= 40:
        assert report.finished == games
    if config["map"] == "small":
        seen = _replay(batched, seeds, steps, action_seed=0)
        assert seen["attack"] > 100 and seen["heal"] > 20 and seen["healed"] > 5
        assert seen["kill"] > 20 and seen["decided"] >= games // 4


@pytest.mark.slow
def test_thousands_of_random_games_match_the_scalar_rules() -> None:
    """The long differential run: 2,048 games of the small maps played to their end."""
    game = make_game("kill_the_king", map="small", max_rounds=60)
    batched = batched_game(game)
    total = decided = 0
    for chunk in range(8):
        seeds = list(range(chunk * 256, (chunk + 1) * 256))
        report = check_against_scalar(
            game, batched, seeds, 20_000, action_seed=chunk, compare_every=5
        )
        assert report.finished == len(seeds)
        total += report.games
        decided += _replay(batched, seeds, 20_000, action_seed=chunk)["decided"]
    assert total == 2048
    assert decided > 500


@pytest.mark.slow
def test_kwah_games_to_the_round_limit_match_the_scalar_rules() -> None:
    """256 games of the 50 kwah maps played to their end at the reference's round limit."""
    game = make_game("kill_the_king", map="kwah")
    report = check_against_scalar(
        game, batched_game(game), list(range(256)), 50_000, action_seed=3, compare_every=10
    )
    assert report.finished == 256


def test_scalar_states_convert_both_ways() -> None:
    """from_scalar(to_scalar) gives the same batch; boards follow the scalar seeds."""
    game = make_game("kill_the_king", map="small")
    batched = batched_game(game)
    state = batched.init(list(range(10)))
    for _ in range(300):
        state = batched.step(state, sample_legal(batched, state))
    assert bool((state.hp < batched.full_hp[state.board]).any())  # some damage to carry over
    scalars = [batched.to_scalar(state, i) for i in range(10)]
    again = batched.from_scalar(scalars)
    for i in range(10):
        assert batched.to_scalar(again, i) == scalars[i]
    for name in ("pos", "hp", "mp", "last", "tick", "player", "winner", "board"):
        assert torch.equal(getattr(again, name), getattr(state, name)), name
    fresh = batched.init([5, 6])
    assert [int(b) for b in fresh.board] == [
        game.new_initial_state(5).board_index,
        game.new_initial_state(6).board_index,
    ]
    with pytest.raises(ValueError, match="same object"):
        batched.from_scalar([make_game("kill_the_king", map="small").new_initial_state(0)])


def test_finished_and_inactive_games_do_not_move() -> None:
    """step ignores finished games and, with ``active``, the games left out."""
    game = make_game("kill_the_king", max_rounds=1)
    batched = batched_game(game)
    state = batched.init([0, 1, 2])
    end = torch.full((3,), game.end_turn_action)
    after = batched.step(state, end, active=torch.tensor([True, False, True]))
    assert after.player.tolist() == [1, 0, 1]
    done = batched.step(after, end, active=torch.tensor([True, False, True]))
    assert batched.terminated(done).tolist() == [True, False, True]
    assert batched.returns(done).tolist() == [[0.0, 0.0]] * 3
    again = batched.step(done, torch.zeros(3, dtype=torch.int64), validate=False)
    for name in ("tick", "winner", "hp", "mp", "pos", "last"):
        assert torch.equal(getattr(again, name)[[0, 2]], getattr(done, name)[[0, 2]]), name
    assert not batched.legal_mask(done)[0].any()
    ids, ok = batched.legal_candidates(done)
    assert not ok[0].any() and ok[1].any() and ids.shape == (3, batched.candidates)


def test_a_king_kill_ends_the_game() -> None:
    """An Archer's last arrow at a weakened King wins at once; healing is clamped at the max."""
    layout = ". . . . .\n. k0 . a1 .\n. h0 . . k1\n"
    game = make_game("kill_the_king", map=layout)
    batched = batched_game(game)
    assert isinstance(batched, BatchedKillTheKing)
    scalar = game.new_initial_state()
    king0, archer1 = (1 * 5 + 1), (1 * 5 + 3)
    hp = scalar._to_dict()["hp"]
    hp[0] = 50  # king 0 at a quarter of its health
    data = {**scalar._to_dict(), "hp": hp, "current_player": 1}
    scalar = game._state_from_dict(data)
    state = batched.from_scalar([scalar])
    shot = A.ATTACK_PLANE_OF[(-2, 0)] * batched.cells + archer1
    assert bool(batched.legal_mask(state)[0, shot])
    won = batched.step(state, torch.tensor([shot]))
    scalar.apply(shot)
    assert batched.to_scalar(won, 0) == scalar
    assert won.winner.tolist() == [1] and batched.returns(won).tolist() == [[-1.0, 1.0]]
    assert won.pos[0, 0] == -1 and won.hp[0, 0] == 0
    assert batched.occupancy(won)[0, king0] == -1
    # player 0's healer heals its king by 50, once per round
    healing = game._state_from_dict(data | {"current_player": 0})
    state = batched.from_scalar([healing])
    heal = A.HEAL_PLANE_OF[(0, -1)] * batched.cells + (2 * 5 + 1)
    healed = batched.step(state, torch.tensor([heal]))
    healing.apply(heal)
    assert batched.to_scalar(healed, 0) == healing and healed.hp[0, 0] == 100
    assert not bool(batched.legal_mask(healed)[0, heal])  # once per round


def test_uneven_sides_match_the_scalar_rules() -> None:
    """A board whose sides differ in size and King count plays as the scalar rules."""
    game = make_game("kill_the_king", map=UNEVEN, max_rounds=30)
    batched = batched_game(game)
    assert isinstance(batched, BatchedKillTheKing)
    assert int(batched.is_king.sum()) == 3 and int((batched.owner == 0).sum()) == 5
    report = check_against_scalar(game, batched, list(range(48)), 3000)
    assert report.finished == 48


def _random_positions(batched: BatchedKillTheKing, games: int, steps: int, seed: int) -> list:
    """Batches of positions along random games (finished games included)."""
    generator = torch.Generator().manual_seed(seed)
    state = batched.init(list(range(games)))
    out = []
    for _ in range(steps):
        out.append(state)
        state = batched.step(state, sample_legal(batched, state, generator), validate=False)
    return out


@pytest.mark.parametrize(
    "config",
    [{"map": "kwah"}, {"map": "small", "max_rounds": 40}, {"map": "default"}, {"map": UNEVEN}],
)
def test_the_sampler_counts_and_enumerates_exactly_the_legal_actions(config: dict) -> None:
    """The counting sampler's legal actions are ``legal_mask``'s, each reached by 1/n of u.

    Its count equals ``legal_mask(state).sum(1)`` (0 once finished) in thousands of random
    positions, and ``u = (r + ½) / n`` for ``r = 0 … n - 1`` gives every legal action exactly
    once: the draw ``⌊u · n⌋`` is uniform over ``0 … n - 1``, so the action is uniform over
    the legal ones, exactly (up to the 2^-24 grid of a float32 ``u``).
    """
    batched = batched_game(make_game("kill_the_king", **config))
    assert batched.sample_draws == 1
    positions = _random_positions(batched, 64, 200, seed=7)
    for t, state in enumerate(positions):
        mask = batched.legal_mask(state)
        assert torch.equal(batched.legal_count(state), mask.sum(1)), f"step {t}"
    for state in positions[::25]:
        mask = batched.legal_mask(state)
        n = mask.sum(1)
        width = int(n.max())
        games = torch.arange(state.batch_size).repeat_interleave(width)
        r = torch.arange(width).repeat(state.batch_size)
        u = ((r + 0.5) / n[games].clamp(min=1)).to(torch.float32)[:, None]
        drawn = batched._sample(state.take(games), u).view(state.batch_size, width)
        for b in range(state.batch_size):
            got = sorted(drawn[b, : int(n[b])].tolist())
            assert got == torch.nonzero(mask[b]).squeeze(1).tolist(), f"game {b}"
        assert drawn[n == 0, 0].eq(0).all()  # finished games draw 0


def test_sample_legal_is_uniform() -> None:
    """Chi-square: many draws of ``sample_legal`` on fixed positions hit each legal action
    about equally often (the statistic's Wilson-Hilferty z-score stays below 4.5)."""
    batched = batched_game(make_game("kill_the_king", map="kwah"))
    state = _random_positions(batched, 4, 40, seed=3)[-1]
    generator = torch.Generator().manual_seed(11)
    mask = batched.legal_mask(state)
    for b in range(state.batch_size):
        legal = torch.nonzero(mask[b]).squeeze(1)
        k = len(legal)
        assert k > 10  # a mid-game position with a real choice
        one = state.take(torch.full((200 * k,), b))
        counts = torch.bincount(batched.sample_legal(one, generator), minlength=mask.shape[1])
        assert counts[~mask[b]].sum() == 0
        expected = 200.0
        chi2 = float(((counts[legal] - expected) ** 2 / expected).sum())
        df = k - 1
        z = ((chi2 / df) ** (1 / 3) - (1 - 2 / (9 * df))) / (2 / (9 * df)) ** 0.5
        assert z < 4.5, f"game {b}: chi2 {chi2:.1f} with {df} degrees of freedom"


@pytest.mark.skipif(compile_unavailable("cpu") is not None, reason=str(compile_unavailable("cpu")))
def test_compiled_rules_match_the_uncompiled_ones() -> None:
    """compile=True: one graph each for the step and the sampler, and the same games."""
    from torch._dynamo.utils import counters

    game = make_game("kill_the_king", map="small", max_rounds=40)
    plain, compiled = batched_game(game), batched_game(game, compile=True)
    graphs = counters["stats"]["unique_graphs"]
    seeds = list(range(32))
    state, again = plain.init(seeds), compiled.init(seeds)
    draws, redraws = torch.Generator().manual_seed(5), torch.Generator().manual_seed(5)
    for t in range(300):
        actions = plain.sample_legal(state, draws)
        assert torch.equal(compiled.sample_legal(again, redraws), actions), f"step {t}"
        state = plain.step(state, actions, validate=False)
        again = compiled.step(again, actions, validate=False)
        for name in ("pos", "hp", "mp", "last", "tick", "player", "winner"):
            assert torch.equal(getattr(again, name), getattr(state, name)), f"step {t}: {name}"
    assert bool(plain.terminated(state).any())  # finished games were stepped too
    assert counters["stats"]["unique_graphs"] - graphs == 2  # no recompilation
    assert not counters["graph_break"]
