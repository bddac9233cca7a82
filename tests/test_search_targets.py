"""Gumbel search, value targets of cut games, forced moves, buffers and shipped networks."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import tiny_games  # noqa: E402,F401  (registers tictactoe_test)
from training_helpers import quiet_az_config  # noqa: E402

from stratagem.envs import make_game  # noqa: E402
from stratagem.training import alphazero  # noqa: E402
from stratagem.training.agents import AlphaZeroAgent  # noqa: E402
from stratagem.training.config import AlphaZeroConfig  # noqa: E402
from stratagem.training.networks import build_network, frozen_for_inference  # noqa: E402
from stratagem.training.puct import (  # noqa: E402
    Node,
    considered_visit_sequence,
    gumbel_search,
)
from stratagem.training.targets import fit_scale, truncation_scorer  # noqa: E402


def uniform_evaluator(observations, legal):
    """Uniform priors and zero values: the search alone must find what matters."""
    return [np.full(len(a), 1.0 / len(a)) for a in legal], np.zeros((len(legal), 2))


def ttt_state(board: str):
    """A tic-tac-toe position from 9 characters (x = player 0, o = player 1, . empty)."""
    game = make_game("tictactoe_test")
    state = game.new_initial_state()
    xs = [i for i, c in enumerate(board) if c == "x"]
    os_ = [i for i, c in enumerate(board) if c == "o"]
    for i in range(max(len(xs), len(os_))):
        if i < len(xs):
            state.apply(xs[i])
        if i < len(os_):
            state.apply(os_[i])
    return state


def test_sequential_halving_schedule_visits_the_considered_actions_evenly():
    seq = considered_visit_sequence(4, 8)
    assert seq == (0, 0, 0, 0, 1, 1, 2, 2)  # 4 actions once, then the best 2 twice more
    assert considered_visit_sequence(1, 5) == (0, 1, 2, 3, 4)
    long = considered_visit_sequence(16, 200)
    assert len(long) == 200 and long[:16] == (0,) * 16
    assert max(long) > 16  # the last survivors get most of the budget


@pytest.mark.parametrize("simulations", [4, 9, 32])
def test_gumbel_search_finds_the_winning_move_with_few_simulations(simulations):
    state = ttt_state("xx.oo....")  # x to move wins at cell 2
    root = Node(state)
    results, evaluated = gumbel_search(
        [root], uniform_evaluator, simulations, 2, rng=np.random.default_rng(0)
    )
    assert evaluated >= 1
    result = results[0]
    assert result is not None
    assert int(root.actions[result.action_index]) == 2
    # the improved policy puts the most weight on the win even though the prior is uniform
    assert int(np.argmax(result.policy)) == int(np.flatnonzero(root.actions == 2)[0])
    assert result.policy.sum() == pytest.approx(1.0)


def test_gumbel_search_evaluates_each_round_of_sequential_halving_in_one_batch():
    """A round visits each surviving candidate once, in disjoint subtrees: one evaluator call.

    Tic-tac-toe's empty board, 8 of 9 actions considered, 16 simulations: rounds of 8, 4, 2
    and 2 leaves after the root's own evaluation (no leaf this shallow ends the game).
    """
    sizes: list[int] = []

    def recording(observations, legal):
        sizes.append(len(legal))
        return uniform_evaluator(observations, legal)

    root = Node(ttt_state(""))
    _, evaluated = gumbel_search(
        [root], recording, 16, 2, rng=np.random.default_rng(1), max_considered=8
    )
    assert sizes == [1, 8, 4, 2, 2]
    assert evaluated == 17 and root.visits.sum() == 16
    assert sorted(root.visits.tolist(), reverse=True)[:4] == [4, 4, 2, 2]


def test_gumbel_search_without_noise_is_deterministic_and_batches_roots():
    roots = [Node(ttt_state("xx.oo....")), Node(ttt_state("x...o....")), Node(ttt_state(""))]
    a, _ = gumbel_search(roots, uniform_evaluator, 8, 2, rng=None)
    roots2 = [Node(ttt_state("xx.oo....")), Node(ttt_state("x...o....")), Node(ttt_state(""))]
    b, _ = gumbel_search(roots2, uniform_evaluator, 8, 2, rng=None)
    assert [r.action_index for r in a] == [r.action_index for r in b]
    for root in roots:
        assert root.visits.sum() == 8  # every tree got its simulations in the shared batches


def test_gumbel_agent_takes_a_win_and_plays_forced_moves_without_search():
    game = make_game("tictactoe_test")
    net = build_network(game.spec, "tiny", global_pooling=True, symmetric_value=True)
    agent = AlphaZeroAgent.from_network(
        game, net, torch.device("cpu"), simulations=8, algorithm="gumbel"
    )
    rng = np.random.default_rng(0)
    assert agent.act(ttt_state("xx.oo...."), rng=rng) == 2  # an untrained net, the search wins
    calls = []
    agent._evaluate = lambda *a: calls.append(a)  # a forced move never reaches the network
    assert agent.act(ttt_state("xoxxoo.xo"), rng=rng) == 6
    assert not calls


def test_symmetric_value_head_is_zero_sum_and_pooled_net_plays_any_board_size():
    game = make_game("kill_the_king", map="kwah:1")
    net = build_network(game.spec, "tiny", global_pooling=True, symmetric_value=True)
    obs = torch.from_numpy(game.new_initial_state(0).observation(0)[None])
    logits, values = net(obs)
    assert logits.shape == (1, game.spec.action_size)
    assert torch.allclose(values[:, 0], -values[:, 1])
    # the same weights load for another board of the game (no weight depends on H × W)
    other = make_game("kill_the_king")  # the default board has another size
    assert other.spec.observation_shape != game.spec.observation_shape
    net2 = build_network(other.spec, "tiny", global_pooling=True, symmetric_value=True)
    net2.load_state_dict(net.state_dict())
    logits2, _ = net2(torch.from_numpy(other.new_initial_state(0).observation(0)[None]))
    assert logits2.shape == (1, other.spec.action_size)


@pytest.mark.parametrize(
    ("game_name", "pooling"),
    [("push_them_all", True), ("push_them_all", False), ("tictactoe_test", False)],
)
def test_frozen_inference_copy_matches_the_network_at_every_batch_size(game_name, pooling):
    game = make_game(game_name)
    net = build_network(game.spec, "tiny", global_pooling=pooling, symmetric_value=pooling)
    for p in net.parameters():  # batch norms with non-trivial statistics, as after training
        torch.nn.init.normal_(p, std=0.3)
    net.train()
    with torch.no_grad():
        net(torch.randn(8, *game.spec.observation_shape))  # moves the running statistics
    frozen = frozen_for_inference(net)
    assert net.training, "the caller's network keeps its mode"
    net.eval()
    for batch in (1, 5):
        obs = torch.randn(batch, *game.spec.observation_shape)
        with torch.no_grad():
            want, got = net(obs), frozen(obs)
        for w, g in zip(want, got, strict=True):
            assert w.shape == g.shape
            assert torch.allclose(w, g, atol=1e-4), (w - g).abs().max()


def test_fit_scale_recovers_a_known_scale():
    rng = np.random.default_rng(0)
    x = rng.normal(scale=0.05, size=4000)
    y = np.where(rng.random(4000) < (1 + np.tanh(20 * x)) / 2, 1.0, -1.0)
    assert fit_scale(x, y) == pytest.approx(20, rel=0.25)
    assert fit_scale(np.zeros(5), np.ones(5)) == 1.0


def test_truncation_values():
    game = make_game("push_them_all", map="pta")
    state = game.new_initial_state(0)
    assert truncation_scorer(game, "none")(state) is None
    assert np.array_equal(truncation_scorer(game, "draw")(state), np.zeros(2))
    calibrated = truncation_scorer(game, "calibrated", scale=5.0)(state)
    assert calibrated.shape == (2,) and abs(calibrated.sum()) < 1e-9
    playout = truncation_scorer(game, "playout")(state)
    assert sorted(playout.tolist()) in ([-1.0, 1.0], [0.0, 0.0])
    assert not state.is_terminal()  # the playout ran on a copy


def cfg(tmp_path, **overrides) -> AlphaZeroConfig:
    one_iteration = dict(
        iterations=1,
        games_per_iteration=4,
        parallel_games=2,
        simulations=4,
        train_steps=2,
        batch_size=8,
    )
    return quiet_az_config(tmp_path, **{**one_iteration, **overrides})


def test_self_play_skips_forced_moves_and_reports_diagnostics(tmp_path):
    game = make_game("tictactoe_test")
    config = cfg(tmp_path, games_per_iteration=30, simulations=2, temperature_moves=9)
    net = alphazero.network_from_config(game.spec, dataclasses.asdict(config))
    buffer = alphazero.ReplayBuffer(1000, game.spec.observation_shape, 2)
    metrics = alphazero.self_play(
        game, net, config, torch.device("cpu"), np.random.default_rng(0), buffer
    )
    assert metrics["selfplay/games"] == 30
    assert all(len(buffer.actions[i]) > 1 for i in range(buffer.size))  # no forced move stored
    for key in (
        "selfplay/decided_share",
        "selfplay/game_length",
        "selfplay/kl_target_prior",
        "selfplay/value_output_0",
        "selfplay/forced_share",
    ):
        assert key in metrics
    assert metrics["selfplay/forced_share"] > 0  # the last empty cell is a forced move
    assert metrics["selfplay/value_output_0"] == pytest.approx(-metrics["selfplay/value_output_1"])


def _pta_self_play(tmp_path, **fields):
    """One self-play phase of Push Them All on the pta maps, with an untrained network."""
    game = make_game("push_them_all", map="pta")
    config = cfg(tmp_path, game="push_them_all", game_config={"map": "pta"}, **fields)
    net = alphazero.network_from_config(game.spec, dataclasses.asdict(config))
    buffer = alphazero.ReplayBuffer(1000, game.spec.observation_shape, 2)
    metrics = alphazero.self_play(
        game, net, config, torch.device("cpu"), np.random.default_rng(0), buffer
    )
    return buffer, metrics


def test_cut_games_without_value_target_train_the_policy_only(tmp_path):
    buffer, metrics = _pta_self_play(tmp_path, cut_rounds=2, truncation_value="none")
    assert metrics["selfplay/cut_share"] == 1.0
    assert metrics["selfplay/game_rounds"] == 3  # cut once the round counter passed 2
    assert buffer.size > 0 and not buffer.has_value[: buffer.size].any()


def _curriculum_self_play(tmp_path, **extra):
    """One self-play phase of Push Them All in which random plays a seat of every game."""
    return _pta_self_play(
        tmp_path,
        cut_rounds=3,
        truncation_value="draw",
        opponent_share=1.0,
        selfplay_opponent="random",
        **extra,
    )


def test_opponent_share_stores_only_the_networks_positions(tmp_path):
    buffer, metrics = _curriculum_self_play(tmp_path)
    assert buffer.size == metrics["selfplay/positions"] > 0  # the searched decisions only
    assert 0.2 < metrics["selfplay/opponent_share"] < 0.8  # the opponent played its seat


def test_imitate_opponent_stores_the_baselines_decisions_too(tmp_path):
    buffer, metrics = _curriculum_self_play(tmp_path, imitate_opponent=True)
    imitated = [
        i
        for i in range(buffer.size)
        if np.count_nonzero(buffer.policies[i]) == 1 and buffer.policies[i].max() == 1.0
    ]
    # the opponent's unforced decisions, one-hot on the action it played, beside the network's
    assert buffer.size > metrics["selfplay/positions"] and len(imitated) > 0
    assert metrics["selfplay/stored_positions"] == buffer.size
    assert buffer.size == metrics["selfplay/positions"] + round(
        metrics["selfplay/imitated_share"] * buffer.size
    )
    assert all(len(buffer.actions[i]) > 1 for i in imitated)  # no forced move stored
    with pytest.raises(ValueError, match="imitate_opponent needs opponent_share"):
        cfg(tmp_path, imitate_opponent=True).validate()


def test_demonstration_games_store_every_unforced_decision_of_the_baseline(tmp_path):
    buffer, metrics = _pta_self_play(
        tmp_path,
        cut_rounds=3,
        truncation_value="draw",
        demonstration_share=1.0,
        selfplay_opponent="random",
    )
    # the baseline played both seats of every game: nothing was searched, all is imitated
    assert metrics["selfplay/positions"] == 0 and metrics["selfplay/opponent_share"] == 1.0
    assert buffer.size > 0 and metrics["selfplay/imitated_share"] == 1.0
    assert metrics["selfplay/stored_positions"] == buffer.size  # the log says what was stored
    for i in range(buffer.size):
        assert len(buffer.actions[i]) > 1  # forced moves are not stored
        assert np.count_nonzero(buffer.policies[i]) == 1 and buffer.policies[i].max() == 1.0
    assert buffer.has_value[: buffer.size].all()


def test_demonstration_share_draws_whole_games_and_is_checked(tmp_path):
    config = cfg(
        tmp_path, demonstration_share=0.25, opponent_share=0.25, selfplay_opponent="random"
    )
    config.validate()
    rng = np.random.default_rng(0)
    seats = [config.draw_opponent_seats(rng, 2) for _ in range(4000)]
    assert abs(sum(s == frozenset({0, 1}) for s in seats) / 4000 - 0.25) < 0.03
    assert abs(sum(len(s) == 1 for s in seats) / 4000 - 0.25) < 0.03
    # without demonstrations the generator is used as before they existed
    plain = cfg(tmp_path, opponent_share=0.5)
    a, b = np.random.default_rng(3), np.random.default_rng(3)
    for _ in range(50):
        old = frozenset({int(b.integers(2))}) if b.random() < 0.5 else frozenset()
        assert plain.draw_opponent_seats(a, 2) == old
    with pytest.raises(ValueError, match="demonstration_share must be in"):
        cfg(tmp_path, demonstration_share=1.5, selfplay_opponent="random").validate()
    with pytest.raises(ValueError, match="opponent_share \\+ demonstration_share"):
        cfg(tmp_path, demonstration_share=0.6, opponent_share=0.6).validate()


def test_buffer_round_trip(tmp_path):
    buffer = alphazero.ReplayBuffer(5, (2, 2, 1), 2)
    for i in range(7):
        value = None if i % 3 == 0 else np.array([1.0, -1.0])
        buffer.add(np.full((2, 2, 1), i), np.arange(i % 4 + 1), np.ones(i % 4 + 1), value)
    buffer.save(tmp_path / "b.npz")
    other = alphazero.ReplayBuffer(5, (2, 2, 1), 2)
    other.load(tmp_path / "b.npz")
    assert (other.size, other.next) == (buffer.size, buffer.next)
    assert np.array_equal(other.obs, buffer.obs)
    assert np.array_equal(other.has_value, buffer.has_value)
    for a, b in zip(other.actions, buffer.actions, strict=True):
        assert np.array_equal(a, b)
    with pytest.raises(ValueError, match="holds 5 positions"):
        alphazero.ReplayBuffer(6, (2, 2, 1), 2).load(tmp_path / "b.npz")


def test_checkpoints_load_without_pickled_code(tmp_path):
    alphazero.train(cfg(tmp_path))
    data = torch.load(tmp_path / "checkpoint.pt", weights_only=True)
    assert data["kind"] == "stratagem-alphazero"
    assert (tmp_path / data["buffer_file"]).exists()
    assert len(list(tmp_path.glob("buffer-*.npz"))) == 1  # the previous buffer file is removed

    class Evil:
        def __reduce__(self):
            return (print, ("pwned",))

    torch.save({"kind": "stratagem-alphazero", "x": Evil()}, tmp_path / "evil.pt")
    with pytest.raises(ValueError, match="safely"):
        alphazero.load_checkpoint(tmp_path / "evil.pt")


def test_pretrained_names_the_games_that_ship_a_network():
    from stratagem.baselines import make_agent

    game = make_game("tictactoe_test")
    with pytest.raises(ValueError, match="no pretrained network ships for tictactoe_test"):
        AlphaZeroAgent(game, checkpoint="pretrained")
    with pytest.raises(ValueError, match="no pretrained network ships for cotg_combat"):
        make_agent("alphazero:checkpoint=pretrained", make_game("cotg_combat"))


def _pretrained_plays_ten_legal_moves(game) -> None:
    """The game's shipped network, as an agent, makes 10 legal moves from seed 0."""
    from stratagem.baselines import make_agent

    agent = make_agent("alphazero:checkpoint=pretrained,simulations=4,threads=1", game)
    state = game.new_initial_state(0)
    rng = np.random.default_rng(0)
    for _ in range(10):
        action = agent.act(state.clone(), rng=rng)
        assert state.legal_action_mask()[action]
        state.apply(action)


@pytest.mark.parametrize(
    ("game", "boards", "env_id", "env_options"),
    [
        # one network for every board of the game
        ("push_them_all", ({"map": "pta"}, {}), "stratagem/PushThemAll-v0", {}),
        # trained on the small maps; global pooling lets the same network play kwah and default
        (
            "kill_the_king",
            ({"map": "small"}, {"map": "kwah:3"}, {}),
            "stratagem/KillTheKing-v0",
            {"map": "small"},
        ),
        # trained on the default board; the paper's maps and the research variant share its shapes
        (
            "two_kingdoms",
            ({}, {"map": "tk:7"}, {"research": True}),
            "stratagem/TwoKingdoms-v0",
            {},
        ),
    ],
)
def test_pretrained_plays_every_board_as_agent_and_gymnasium_opponent(
    game, boards, env_id, env_options
):
    import gymnasium as gym

    for config in boards:
        _pretrained_plays_ten_legal_moves(make_game(game, **config))
    env = gym.make(env_id, **env_options, opponent="alphazero:checkpoint=pretrained,simulations=2")
    obs, info = env.reset(seed=0)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))


def _same_weights(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("accepted", [True, False])
def test_gating_self_play_uses_the_best_network_until_a_trained_one_beats_it(
    tmp_path, monkeypatch, accepted
):
    seen: list[dict] = []
    real_self_play, real_gate = alphazero.self_play, alphazero._gate

    def recording_self_play(game, net, *args, **kwargs):
        seen.append(alphazero._weights(net))
        return real_self_play(game, net, *args, **kwargs)

    def fixed_gate(*args, **kwargs):
        result = real_gate(*args, **kwargs)  # the match is played; the verdict is forced
        assert 0.0 <= result["eval/gate/score"] <= 1.0
        return {**result, "eval/gate/accepted": float(accepted)}

    monkeypatch.setattr(alphazero, "self_play", recording_self_play)
    monkeypatch.setattr(alphazero, "_gate", fixed_gate)
    metrics = alphazero.train(cfg(tmp_path, iterations=2, gate_score=0.55, gate_games=2))
    assert metrics["eval/gate/accepted"] == float(accepted)
    data = torch.load(tmp_path / "checkpoint.pt", weights_only=True)
    assert _same_weights(data["best_network"], data["network"]) == accepted
    # iteration 2 played with the network trained in iteration 1, or still the initial one
    assert _same_weights(seen[1], seen[0]) != accepted
    # resume keeps the best network: a third iteration self-plays with it
    seen.clear()
    alphazero.train(cfg(tmp_path, iterations=3, gate_score=0.55, gate_games=2))
    assert _same_weights(seen[0], data["best_network"])


def test_gate_score_is_validated(tmp_path):
    with pytest.raises(ValueError, match="gate_score"):
        cfg(tmp_path, gate_score=1.5).validate()
    with pytest.raises(ValueError, match="gate_games"):
        cfg(tmp_path, gate_score=0.5, gate_games=0).validate()


@pytest.mark.parametrize(
    ("algorithm", "temperature_moves", "expected"),
    [("gumbel", None, None), ("puct", None, 30), ("gumbel", 5, 5), ("puct", 0, 0)],
)
def test_exploration_moves_default_to_every_decision_for_gumbel(
    tmp_path, algorithm, temperature_moves, expected
):
    config = cfg(tmp_path, algorithm=algorithm, temperature_moves=temperature_moves)
    assert config.exploration_moves() == expected


def test_gumbel_self_play_adds_noise_at_every_decision_by_default(tmp_path, monkeypatch):
    from stratagem.training import actors

    seen: list[bool] = []
    real = actors.gumbel_search

    def recording(roots, *args, noise, **kwargs):
        seen.extend(noise)
        return real(roots, *args, noise=noise, **kwargs)

    monkeypatch.setattr(actors, "gumbel_search", recording)
    game = make_game("tictactoe_test")
    net = build_network(game.spec, "tiny", global_pooling=True, symmetric_value=True)
    buffer = alphazero.ReplayBuffer(1000, game.spec.observation_shape, game.spec.num_players)
    device = torch.device("cpu")
    rng = np.random.default_rng(0)
    alphazero.self_play(game, net, cfg(tmp_path), device, rng, buffer)
    assert seen and all(seen)  # tic-tac-toe games run past no cut-off: noise everywhere
    seen.clear()
    alphazero.self_play(game, net, cfg(tmp_path, temperature_moves=1), device, rng, buffer)
    assert seen[0] and not all(seen)  # the first decision of each game only


def test_network_matches_explore_so_that_their_games_differ():
    game = make_game("push_them_all", map="pta")
    torch.manual_seed(0)
    net = build_network(game.spec, "tiny", global_pooling=True, symmetric_value=True)
    config = AlphaZeroConfig(game="push_them_all", game_config={"map": "pta"}, eval_simulations=4)
    device = torch.device("cpu")
    for explore, distinct in ((False, 1), (True, 3)):
        agent = alphazero._network_agent(game, net, config, device, explore=explore)
        openings = set()
        for seed in range(3):
            state, rng = game.new_initial_state(seed), np.random.default_rng(seed)
            moves = []
            for _ in range(6):
                moves.append(agent.act(state, rng=rng))
                state.apply(moves[-1])
            openings.add(tuple(moves))
        assert len(openings) == distinct


def test_evaluation_games_are_kept_and_replay_exactly(tmp_path, capsys):
    from stratagem.cli import main

    alphazero.train(
        cfg(tmp_path, eval_every=1, eval_games=2, eval_opponents=["random"], eval_simulations=2)
    )
    path = tmp_path / "eval-00001.jsonl"
    lines = path.read_text().splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert first["opponent"] == "random" and first["iteration"] == 1
    assert "trained network" in first["names"] and first["actions"]
    assert main(["replay", "tictactoe_test", str(path)]) == 0
    assert "2/2 games replayed exactly" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("eval_simulations", 0, "eval_simulations must be >= 1"),
        ("lr", 0.0, "lr must be > 0"),
        ("lr", float("nan"), "lr must be > 0"),
        ("c_puct", -5.0, "c_puct must be > 0"),
        ("dirichlet_alpha", -1.0, "dirichlet_alpha must be > 0"),
        ("dirichlet_epsilon", 2.0, "dirichlet_epsilon must be in"),
        ("value_weight", -1.0, "value_weight must be >= 0"),
        ("weight_decay", -1e-4, "weight_decay must be >= 0"),
        ("seed", -1, "seed must be an integer >= 0"),
        ("selfplay_opponent", "nobody", "unknown agent 'nobody'"),
    ],
)
def test_every_numeric_option_is_checked_before_any_work(tmp_path, field, value, message):
    """These ran silently or failed only after an iteration (``--eval-simulations 0``)."""
    with pytest.raises(ValueError, match=message):
        cfg(tmp_path, **{field: value}).validate()
