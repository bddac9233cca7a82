"""BatchedVectorEnv: Gymnasium's vector API over a batched game, learner against an opponent."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from gymnasium.utils import env_checker  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

import stratagem  # noqa: E402, F401  (registers the Gymnasium ids)
from stratagem.envs.batched.core import compile_unavailable  # noqa: E402
from stratagem.envs.core import ActionTypeError, Game, IllegalActionError  # noqa: E402
from stratagem.envs.registry import (  # noqa: E402
    batched_game_names,
    game_entry,
    list_games,
    make_game,
)
from stratagem.wrappers.batched_vector import BatchedVectorEnv, Opponent  # noqa: E402
from stratagem.wrappers.gym_env import SingleAgentEnv  # noqa: E402

#: Player 0's warrior next to player 1's, a hole behind each: the first push wins.
DUEL = "H w0 w1 H\n. . . ."
#: The winning push of each seat on DUEL (the push types are the reference's).
WINS = ("push_up (1,0)->(2,0)", "push_down (2,0)->(1,0)")
PTA = {"map": "pta", "max_rounds": 29}

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _passive(game: Game) -> Opponent:
    """An opponent that always ends its turn."""
    end = game.end_turn_action

    def act(observations: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
        assert observations.dtype == torch.float32 and masks.dtype == torch.bool
        return torch.full((len(observations),), end)

    return act


def _pusher(game: Game, seat: int, wait: int = 0) -> Opponent:
    """An opponent that plays ``seat``'s winning push on DUEL (after ``wait`` end turns)."""
    push = game.string_to_action(WINS[seat])
    calls: list[int] = []

    def act(observations: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
        calls.append(len(observations))
        if len(calls) <= wait:
            return torch.full((len(observations),), game.end_turn_action)
        assert masks[:, push].all()
        return torch.full((len(observations),), push)

    return act


def _masked_sample(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def test_spaces_and_metadata_follow_gymnasium() -> None:
    envs = BatchedVectorEnv("push_them_all", 5, **PTA)
    spec = envs.game.spec
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert envs.single_observation_space == SingleAgentEnv("push_them_all", **PTA).observation_space
    assert envs.single_observation_space.shape == spec.observation_shape
    assert envs.single_action_space == gym.spaces.Discrete(spec.action_size)
    assert envs.observation_space == batch_space(envs.single_observation_space, 5)
    assert envs.action_space == batch_space(envs.single_action_space, 5)
    assert envs.num_envs == 5 and envs.action_masks().all()  # before reset: all allowed


def test_gymnasium_env_checker_reset_checks_pass() -> None:
    """Gymnasium 1.x has no vector-env checker; its single-env reset checks apply as they are.

    Its step checks sample unmasked actions, which this env refuses (IllegalActionError), so
    their properties (determinism, fresh arrays) are checked in the tests below with masks.
    """
    envs = BatchedVectorEnv("push_them_all", 3, **PTA)
    env_checker.check_reset_seed_determinism(envs)
    env_checker.check_reset_return_type(envs)
    env_checker.check_reset_options(envs)


def test_reset_and_step_shapes_dtypes_and_masks() -> None:
    envs = BatchedVectorEnv("push_them_all", 6, **PTA)
    obs, info = envs.reset(seed=0)
    assert obs.shape == (6, *envs.single_observation_space.shape) and obs.dtype == np.float32
    assert envs.observation_space.contains(obs)
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (6, 2185)
    assert info["_action_mask"].all() and info["seat"].dtype == np.int64
    assert np.array_equal(info["action_mask"], envs.action_masks())
    assert np.array_equal(info["action_mask"], envs.batched.legal_mask(envs.state).numpy())
    # the learner is to move in every game, and sees the game from its seat
    assert np.array_equal(envs.batched.current_player(envs.state).numpy(), info["seat"])
    assert np.array_equal(obs, envs.batched.observation(envs.state, envs.seat).numpy())
    actions = _masked_sample(np.random.default_rng(0), info["action_mask"])
    assert envs.action_space.contains(actions)
    obs, rewards, terminations, truncations, info = envs.step(actions)
    assert obs.shape == (6, 8, 13, 16) and obs.dtype == np.float32
    assert rewards.shape == (6,) and rewards.dtype == np.float64
    assert terminations.dtype == np.bool_ and truncations.dtype == np.bool_
    assert not truncations.any()


def test_as_tensors_returns_tensors_on_the_device() -> None:
    envs = BatchedVectorEnv("push_them_all", 4, as_tensors=True, **PTA)
    obs, info = envs.reset(seed=1)
    assert isinstance(obs, torch.Tensor) and obs.dtype == torch.float32
    assert info["action_mask"].dtype == torch.int8 and info["seat"].dtype == torch.int64
    generator = torch.Generator().manual_seed(0)
    for _ in range(20):
        actions = torch.multinomial(info["action_mask"].float(), 1, generator=generator)[:, 0]
        obs, rewards, terminations, truncations, info = envs.step(actions)
    assert rewards.dtype == torch.float32 and terminations.dtype == torch.bool
    assert obs.device == rewards.device == torch.device("cpu")
    assert isinstance(envs.action_masks(), np.ndarray)  # sb3-contrib reads numpy


@pytest.mark.skipif(compile_unavailable("cpu") is not None, reason=str(compile_unavailable("cpu")))
def test_compiled_rules_give_the_same_episodes() -> None:
    """compile=True changes the speed only: same observations, rewards and ends."""
    runs = []
    for compile in (False, True):
        envs = BatchedVectorEnv("push_them_all", 8, compile=compile, **PTA)
        assert envs.batched.compiled is compile
        obs, info = envs.reset(seed=3)
        rng = np.random.default_rng(0)
        trace = [obs]
        for _ in range(60):
            obs, rewards, terminations, _, info = envs.step(
                _masked_sample(rng, info["action_mask"])
            )
            trace += [obs, rewards, terminations]
        runs.append(trace)
    assert all(np.array_equal(a, b) for a, b in zip(*runs, strict=True))


@pytest.mark.parametrize("seat", [0, 1])
def test_the_reward_is_the_learners_return(seat: int) -> None:
    """On DUEL the side that pushes first wins: +1 for the learner's push, -1 for the other's."""
    game = make_game("push_them_all", map=DUEL)
    win = game.string_to_action(WINS[seat])
    end = game.end_turn_action
    envs = BatchedVectorEnv("push_them_all", 2, opponent=_passive(game), seat=seat, map=DUEL)
    obs, info = envs.reset(seed=0)
    _, rewards, terminations, _, _ = envs.step(np.array([win, win]))
    assert rewards.tolist() == [1.0, 1.0] and terminations.all()
    # the opponent (which moves first when the learner is seat 1) waits for one turn, then wins
    opponent = _pusher(game, 1 - seat, wait=seat)
    envs = BatchedVectorEnv("push_them_all", 2, opponent=opponent, seat=seat, map=DUEL)
    envs.reset(seed=0)
    _, rewards, terminations, _, _ = envs.step(np.array([end, win]))
    assert rewards.tolist() == [-1.0, 1.0] and terminations.all()


def test_games_that_end_before_the_learners_first_move_are_replaced() -> None:
    """A random first player sometimes wins DUEL at once: the learner only sees live games."""
    envs = BatchedVectorEnv("push_them_all", 16, seat=1, map=DUEL)
    envs.reset(seed=0)
    restarted = np.ones(16, bool)  # all by the reset, then those that ended a step before
    end = np.full(16, envs.game.end_turn_action)
    ended = np.zeros(16, bool)
    for _ in range(6):
        assert (envs.batched.current_player(envs.state).numpy()[restarted] == 1).all()
        assert not envs.batched.terminated(envs.state).numpy()[restarted].any()
        _, rewards, terminations, _, _ = envs.step(end)
        assert not terminations[ended].any()  # reset by this step
        assert (np.abs(rewards[terminations]) == 1).all()  # the opponent pushed, or fell
        restarted, ended = ended, terminations
    game = make_game("push_them_all", map=DUEL)
    envs = BatchedVectorEnv("push_them_all", 2, opponent=_pusher(game, 0), seat=1, map=DUEL)
    with pytest.raises(RuntimeError, match="ended before the learner's first decision"):
        envs.reset(seed=0)


def test_next_step_autoreset_ignores_the_action_and_starts_a_new_game() -> None:
    game = make_game("push_them_all", map=DUEL)
    win = game.string_to_action(WINS[0])
    down = game.string_to_action("move (1,0)->(1,1)")
    empty = game.string_to_action("empty (1,0)")
    envs = BatchedVectorEnv("push_them_all", 3, opponent=_passive(game), seat=0, map=DUEL)
    first, first_info = envs.reset(seed=0)
    obs, rewards, terminations, _, info = envs.step(np.array([win, down, empty]))
    assert terminations.tolist() == [True, False, False] and rewards.tolist() == [1.0, 0.0, 0.0]
    # the terminal observation is returned; its mask allows every action (it is ignored)
    final = game.new_initial_state(0)
    final.apply(win)
    assert np.array_equal(obs[0], final.observation(0))
    assert info["action_mask"][0].all() and envs.action_masks()[0].all()
    assert 0 < info["action_mask"][1].sum() < game.spec.action_size
    # the next step resets sub-env 0 whatever its action (an out-of-range one too)
    end = game.end_turn_action
    obs, rewards, terminations, _, info = envs.step(np.array([10**6, end, end]))
    assert not terminations.any() and rewards.tolist() == [0.0, 0.0, 0.0]
    assert np.array_equal(obs[0], first[0])  # a new DUEL game, seen by seat 0
    assert np.array_equal(info["action_mask"][0], first_info["action_mask"][0])
    # then it plays on as a live game
    obs, rewards, terminations, _, info = envs.step(np.array([win, end, end]))
    assert terminations.tolist() == [True, False, False] and rewards[0] == 1.0


def _first_legal(observations: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    return masks.to(torch.int8).argmax(dim=1)


def test_same_step_autoreset_gives_next_steps_episodes_without_the_restart_steps() -> None:
    """With deterministic players, SAME_STEP's trajectory is NEXT_STEP's minus its restart steps.

    The game seeds come from the same stream in the same order; NEXT_STEP's terminal
    observation is SAME_STEP's ``final_obs``, and NEXT_STEP's restart observation is the one
    SAME_STEP returns with the ending step.
    """
    config = {"map": "pta", "max_rounds": 3}
    runs = {}
    for mode in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
        envs = BatchedVectorEnv(
            "push_them_all", 1, opponent=_first_legal, seat=1, autoreset_mode=mode, **config
        )
        assert envs.metadata["autoreset_mode"] == mode
        obs, info = envs.reset(seed=3)
        rows = [("reset", obs[0], info["action_mask"][0])]
        while sum(row[0] == "end" for row in rows) < 4:
            obs, rewards, terminations, truncations, info = envs.step(
                np.flatnonzero(info["action_mask"][0])[:1]
            )
            assert not truncations[0]
            if terminations[0]:
                if mode == AutoresetMode.SAME_STEP:
                    assert info["_final_obs"].tolist() == [True]
                    assert info["final_info"]["action_mask"][0].all()  # the terminal mask
                    assert info["final_info"]["seat"][0] == 1
                    rows.append(("end", info["final_obs"][0], float(rewards[0])))
                    rows.append(("reset", obs[0], info["action_mask"][0]))
                else:
                    rows.append(("end", obs[0], float(rewards[0])))
                    obs, rewards, terminations, _, info = envs.step(np.array([0]))
                    assert rewards[0] == 0.0 and not terminations[0]
                    rows.append(("reset", obs[0], info["action_mask"][0]))
            else:
                assert "final_obs" not in info
                rows.append(("step", obs[0], float(rewards[0])))
        runs[mode] = rows
    next_step, same_step = runs[AutoresetMode.NEXT_STEP], runs[AutoresetMode.SAME_STEP]
    assert [row[0] for row in next_step] == [row[0] for row in same_step]
    for a, b in zip(next_step, same_step, strict=True):
        assert np.array_equal(a[1], b[1]) and np.array_equal(a[2], b[2])


def test_same_step_autoreset_in_a_batch_and_with_tensors() -> None:
    config = {**PTA, "max_rounds": 4}
    for as_tensors in (False, True):
        envs = BatchedVectorEnv(
            "push_them_all", 6, autoreset_mode="SameStep", as_tensors=as_tensors, **config
        )
        if not as_tensors:  # Gymnasium's wrapper reads the mode and counts each episode once
            envs = gym.wrappers.vector.RecordEpisodeStatistics(envs)
        obs, info = envs.reset(seed=0)
        rng, ended = np.random.default_rng(0), 0
        for _ in range(80):
            masks = np.asarray(info["action_mask"].cpu() if as_tensors else info["action_mask"])
            inner = envs.unwrapped
            assert masks.any(axis=1).all() and not inner._autoreset.any()
            # every returned position is live: its mask is the learner's legal actions
            legal = inner.batched.legal_mask(inner.state).cpu().numpy()
            assert np.array_equal(masks.astype(bool), legal)
            obs, rewards, terminations, _, info = envs.step(_masked_sample(rng, masks))
            terminations = np.asarray(terminations.cpu() if as_tensors else terminations)
            if terminations.any():
                ended += int(terminations.sum())
                flags = info["_final_obs"]
                flags = np.asarray(flags.cpu() if as_tensors else flags)
                assert flags.tolist() == terminations.tolist()
                if as_tensors:
                    assert info["final_obs"].shape == obs.shape
                else:
                    assert [o is not None for o in info["final_obs"]] == flags.tolist()
                    assert info["_episode"].tolist() == terminations.tolist()
            else:
                assert "final_obs" not in info
        assert ended > 6


def test_disabled_autoreset_needs_a_partial_reset() -> None:
    game = make_game("push_them_all", map=DUEL)
    win = game.string_to_action(WINS[0])
    end = game.end_turn_action
    envs = BatchedVectorEnv(
        "push_them_all", 2, opponent=_passive(game), seat=0, autoreset_mode="Disabled", map=DUEL
    )
    first, _ = envs.reset(seed=0)
    obs, rewards, terminations, _, info = envs.step(np.array([win, end]))
    assert terminations.tolist() == [True, False] and "final_obs" not in info
    state = envs.state
    with pytest.raises(RuntimeError, match=r"sub-environment\(s\) \[0\] ended .* DISABLED"):
        envs.step(np.array([end, end]))
    assert envs.state is state
    again, info = envs.reset(options={"reset_mask": np.array([True, False])})
    assert np.array_equal(again[0], first[0])
    obs, rewards, terminations, _, info = envs.step(np.array([win, end]))
    assert terminations.tolist() == [True, False]


def test_gymnasium_episode_statistics_wrapper_counts_the_episodes() -> None:
    """Gymnasium's own NEXT_STEP-aware wrapper sees every episode end once."""
    envs = gym.wrappers.vector.RecordEpisodeStatistics(
        BatchedVectorEnv("push_them_all", 8, **{**PTA, "max_rounds": 5})
    )
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(150):
        obs, rewards, terminations, truncations, info = envs.step(
            _masked_sample(rng, info["action_mask"])
        )
        ended += int(terminations.sum())
        if terminations.any():
            assert info["_episode"].tolist() == terminations.tolist()
    assert ended > 8 and len(envs.return_queue) == min(ended, 100)


def test_random_masked_loop_and_seeded_determinism() -> None:
    """Hundreds of masked random steps run; the same seeds replay the same transitions."""
    runs = []
    for _ in range(2):
        envs = BatchedVectorEnv("push_them_all", 8, **PTA)
        obs, info = envs.reset(seed=11)
        rng = np.random.default_rng(3)
        trace, seats = [obs], [info["seat"]]
        episodes = 0
        for _ in range(150):
            masks = info["action_mask"]
            assert masks.any(axis=1).all()
            obs, rewards, terminations, truncations, info = envs.step(_masked_sample(rng, masks))
            assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
            assert not rewards[~terminations].any()
            episodes += int(terminations.sum())
            assert not trace or not np.shares_memory(obs, trace[-1])  # fresh arrays
            trace.append(obs)
            seats.append(info["seat"])
        runs.append((np.stack(trace), np.stack(seats), episodes))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])
    assert runs[0][2] > 8 and len(np.unique(runs[0][1])) == 2  # both seats were drawn
    again, _ = envs.reset(seed=11)
    assert np.array_equal(again, runs[0][0][0])
    other, _ = envs.reset(seed=12)
    assert not np.array_equal(other, again)


def test_a_fixed_first_seat_matches_single_agent_env() -> None:
    """Same seed, seat 0: the first position and the moves before the first end turn agree."""
    scalar = SingleAgentEnv("push_them_all", seat=0, **PTA)
    envs = BatchedVectorEnv("push_them_all", 1, seat=0, **PTA)
    for seed in range(3):
        obs, info = scalar.reset(seed=seed)
        vobs, vinfo = envs.reset(seed=seed)
        assert np.array_equal(vobs[0], obs) and np.array_equal(
            vinfo["action_mask"][0], info["action_mask"]
        )
        for _ in range(3):
            legal = np.flatnonzero(info["action_mask"][:-1])  # not the end turn
            obs, *_, info = scalar.step(int(legal[0]))
            vobs, *_, vinfo = envs.step(legal[:1])
            assert np.array_equal(vobs[0], obs)
            assert np.array_equal(vinfo["action_mask"][0], info["action_mask"])


def test_a_random_seat_is_drawn_as_single_agent_env_draws_it() -> None:
    """One sub-environment and a seed: the same game and seat as SingleAgentEnv's."""
    scalar = SingleAgentEnv("push_them_all", **PTA)
    envs = BatchedVectorEnv("push_them_all", 1, **PTA)
    seats = set()
    for seed in range(6):
        _, info = scalar.reset(seed=seed)
        _, vinfo = envs.reset(seed=seed)
        assert vinfo["seat"][0] == info["seat"] == scalar.seat
        assert int(envs.state.board[0]) == scalar.game_state.board_index
        seats.add(info["seat"])
    assert seats == {0, 1}


@pytest.mark.parametrize("name", batched_game_names())
def test_every_batched_game_runs_with_its_default_configuration(name: str) -> None:
    envs = gym.make_vec(game_entry(name).env_id, num_envs=4)
    assert isinstance(envs, BatchedVectorEnv)
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(40):
        assert info["action_mask"].any(axis=1).all()
        obs, rewards, terminations, _, info = envs.step(_masked_sample(rng, info["action_mask"]))
        assert envs.observation_space.contains(obs)
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}


def test_partial_reset_with_a_reset_mask() -> None:
    envs = BatchedVectorEnv("push_them_all", 4, seat=0, **PTA)
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    obs, *_ = envs.step(_masked_sample(rng, info["action_mask"]))
    again, info = envs.reset(options={"reset_mask": np.array([True, False, True, False])})
    assert np.array_equal(again[[1, 3]], obs[[1, 3]])
    assert not np.array_equal(again[0], obs[0]) or not np.array_equal(again[2], obs[2])
    with pytest.raises(ValueError, match="unknown reset option"):
        envs.reset(options={"mask": None})
    with pytest.raises(ValueError, match="shape"):
        envs.reset(options={"reset_mask": np.ones(3, bool)})


def test_bad_arguments_raise_clear_errors() -> None:
    with pytest.raises(TypeError, match="unknown option"):
        BatchedVectorEnv("push_them_all", 2, frameskip=4)
    with pytest.raises(TypeError, match="unknown option"):
        BatchedVectorEnv("push_them_all", 2, illegal_action="lose")
    with pytest.raises(ValueError, match="num_envs must be a positive integer"):
        BatchedVectorEnv("push_them_all", 0)
    for seat in (2, 1.0, True):
        with pytest.raises(ValueError, match="seat must be 0..1 or 'random'"):
            BatchedVectorEnv("push_them_all", 2, seat=seat)
    with pytest.raises(ValueError, match="opponent must be 'random' or a callable"):
        BatchedVectorEnv("push_them_all", 2, opponent="rule_based")
    with pytest.raises(ValueError, match="bad device"):
        BatchedVectorEnv("push_them_all", 2, device="gpu0")
    with pytest.raises(ValueError, match="as_tensors"):
        BatchedVectorEnv("push_them_all", 2, as_tensors="yes")
    with pytest.raises(ValueError, match="compile must be True or False"):
        BatchedVectorEnv("push_them_all", 2, compile="yes")
    with pytest.raises(ValueError, match="no batched version"):
        BatchedVectorEnv("tribes", 2)
    with pytest.raises(ValueError, match="autoreset_mode must be an AutoresetMode or one of"):
        BatchedVectorEnv("push_them_all", 2, autoreset_mode="same_step")
    with pytest.raises(ValueError, match="renders nothing"):
        BatchedVectorEnv("push_them_all", 2, render_mode="human")
    envs = BatchedVectorEnv("push_them_all", 2, seat=0, map=DUEL)
    with pytest.raises(RuntimeError, match="before reset"):
        envs.step(np.array([0, 0]))
    with pytest.raises(TypeError, match="seed must be an integer"):
        envs.reset(seed=1.5)
    obs, info = envs.reset(seed=0)
    state = envs.state
    with pytest.raises(ActionTypeError, match="integers"):
        envs.step(np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match="one per sub-environment"):
        envs.step(np.array([0, 0, 0]))
    end = envs.game.end_turn_action
    with pytest.raises(IllegalActionError, match=r"illegal action 0 .* in sub-environment 1"):
        envs.step(np.array([end, 0]))
    with pytest.raises(IllegalActionError, match="outside the action space"):
        envs.step(np.array([end, -1]))
    assert envs.state is state  # nothing was played


def test_opponent_errors_name_the_opponent() -> None:
    envs = BatchedVectorEnv(
        "push_them_all", 2, seat=1, opponent=lambda o, m: torch.zeros(len(o), dtype=torch.int64)
    )
    with pytest.raises(IllegalActionError, match="the opponent played"):
        envs.reset(seed=0)
    envs = BatchedVectorEnv("push_them_all", 2, seat=1, opponent=lambda o, m: [0.5] * len(o))
    with pytest.raises(ActionTypeError, match="opponent must return integer actions"):
        envs.reset(seed=0)
    envs = BatchedVectorEnv("push_them_all", 2, seat=1, opponent=lambda o, m: np.zeros(5, int))
    with pytest.raises(ValueError, match="asked for 2 actions"):
        envs.reset(seed=0)


def test_a_policy_network_as_the_opponent() -> None:
    """The documented wrapping of a torch network: a masked argmax over its logits."""
    spec = make_game("push_them_all", **PTA).spec
    torch.manual_seed(0)
    net = torch.nn.Sequential(
        torch.nn.Flatten(), torch.nn.Linear(int(np.prod(spec.observation_shape)), spec.action_size)
    )

    def act(observations: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
        logits = net(observations)
        return logits.masked_fill(~masks, float("-inf")).argmax(dim=1)

    envs = BatchedVectorEnv("push_them_all", 4, opponent=act, seat=1, **PTA)
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(30):
        obs, rewards, terminations, _, info = envs.step(_masked_sample(rng, info["action_mask"]))
    assert (info["seat"] == 1).all()


def test_make_vec_builds_the_batched_env_for_batched_games() -> None:
    envs = gym.make_vec("stratagem/PushThemAll-v0", num_envs=3, map="pta")
    assert isinstance(envs, BatchedVectorEnv) and envs.num_envs == 3
    assert envs.spec is not None and envs.spec.id == "stratagem/PushThemAll-v0"
    same = gym.make_vec("stratagem/PushThemAll-v0", 2, autoreset_mode=AutoresetMode.SAME_STEP)
    assert same.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    sync = gym.make_vec("stratagem/PushThemAll-v0", num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, gym.vector.SyncVectorEnv)
    sync.close()
    for name in list_games():
        entry = game_entry(name)
        spec = gym.spec(entry.env_id)
        assert (spec.vector_entry_point is not None) == (entry.batched is not None), name
    assert gym.spec("stratagem/Tribes-v0").vector_entry_point is None


@pytest.mark.gpu
def test_cuda_matches_cpu() -> None:
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA device")
    cpu = BatchedVectorEnv(
        "push_them_all", 64, opponent=_passive(make_game("push_them_all")), **PTA
    )
    gpu = BatchedVectorEnv(
        "push_them_all", 64, opponent=_passive(make_game("push_them_all")), device="cuda", **PTA
    )
    a, info = cpu.reset(seed=0)
    b, _ = gpu.reset(seed=0)
    assert np.array_equal(a, b)
    rng = np.random.default_rng(0)
    for _ in range(100):
        actions = _masked_sample(rng, info["action_mask"])
        a, ra, ta, _, info = cpu.step(actions)
        b, rb, tb, _, _ = gpu.step(actions)
        assert np.array_equal(a, b) and np.array_equal(ra, rb) and np.array_equal(ta, tb)
