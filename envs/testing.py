"""The conformance suite every registered game and configuration must pass.

It ships in the package (as PettingZoo ships ``pettingzoo.test``) so that anyone adding a game
runs the same checks we do::

    from stratagem.envs.testing import check_all
    check_all("kill_the_king", {"map": "kwah:3"})

Each ``check_*`` function raises ``AssertionError`` with a message naming the game, the
configuration and what broke. The suite covers: the spec's consistency, random playouts to the
end with invariants at every step, clone independence, determinism under seeds, JSON round trips
mid-game, agreement of the mask with :meth:`State.apply` (every masked action applies, every
unmasked one raises :class:`IllegalActionError` and changes nothing), rejection of malformed
input, the partial-observability contract, PettingZoo's ``api_test``/``seed_test`` and
Gymnasium's ``check_env``.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

import numpy as np

from stratagem.envs.core import Game, IllegalActionError, InvalidStateError, State
from stratagem.envs.registry import game_entry, make_game

__all__ = [
    "check_action_names",
    "check_aec",
    "check_all",
    "check_clone_independence",
    "check_determinism",
    "check_gymnasium",
    "check_json_round_trip",
    "check_malformed_input",
    "check_mask_apply_agreement",
    "check_observations_hide_nothing_extra",
    "check_random_playouts",
    "check_spec",
    "random_trajectory",
]


def _where(game: Game) -> str:
    return f"{game.spec.name}{dict(game.spec.config)}"


def random_trajectory(
    game: Game, seed: int, max_steps: int | None = None
) -> tuple[State, list[int]]:
    """Play uniformly random legal actions from ``new_initial_state(seed)``.

    Returns the final state and the actions taken (the game's end or ``max_steps``).
    """
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    actions: list[int] = []
    limit = game.spec.max_game_length if max_steps is None else max_steps
    while not state.is_terminal() and len(actions) < limit:
        legal = state.legal_actions()
        action = int(legal[rng.integers(len(legal))])
        state.apply(action)
        actions.append(action)
    return state, actions


def replay(game: Game, seed: int, actions: list[int]) -> State:
    """The state reached by ``actions`` from ``new_initial_state(seed)``."""
    state = game.new_initial_state(seed)
    for action in actions:
        state.apply(action)
    return state


def check_spec(game: Game) -> None:
    """The spec agrees with what states produce."""
    spec, where = game.spec, _where(game)
    assert spec.num_players >= 1, f"{where}: num_players must be positive"
    assert len(spec.observation_shape) == 3, f"{where}: observation must be H x W x C"
    if spec.observation_planes:
        assert len(spec.observation_planes) == spec.observation_shape[-1], (
            f"{where}: {len(spec.observation_planes)} plane names for "
            f"{spec.observation_shape[-1]} channels"
        )
    if spec.action_layout is not None:
        assert spec.action_layout.size == spec.action_size, f"{where}: layout size != action_size"
    assert spec.max_game_length > 0, f"{where}: max_game_length must be positive"
    state = game.new_initial_state(0)
    assert 0 <= state.current_player < spec.num_players, f"{where}: bad current_player"
    assert not state.is_terminal(), f"{where}: initial state is terminal"


def _check_step_invariants(game: Game, state: State, where: str) -> None:
    spec = game.spec
    mask = state.legal_action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (spec.action_size,), (
        f"{where}: mask must be bool[{spec.action_size}], got {mask.dtype}{mask.shape}"
    )
    legal = state.legal_actions()
    assert np.array_equal(legal, np.flatnonzero(mask)), f"{where}: legal_actions != mask indices"
    low, high = spec.observation_bounds
    for player in range(spec.num_players):
        obs = state.observation(player)
        assert obs.dtype == np.float32 and obs.shape == spec.observation_shape, (
            f"{where}: observation must be float32{spec.observation_shape}, "
            f"got {obs.dtype}{obs.shape}"
        )
        assert np.all(obs >= low) and np.all(obs <= high), (
            f"{where}: observation outside its bounds [{low}, {high}]"
        )
    if state.is_terminal():
        assert not mask.any(), f"{where}: terminal state has legal actions"
        returns = state.returns()
        assert returns.shape == (spec.num_players,), f"{where}: returns shape {returns.shape}"
        assert np.all(returns >= spec.reward_range[0]) and np.all(returns <= spec.reward_range[1])
        if spec.zero_sum:
            assert abs(float(returns.sum())) < 1e-9, f"{where}: zero-sum returns sum to nonzero"
    else:
        assert mask.any(), f"{where}: non-terminal state without legal actions"
        assert 0 <= state.current_player < spec.num_players, f"{where}: bad current_player"
        assert not np.any(state.returns()), f"{where}: returns nonzero before the end"


def check_random_playouts(game: Game, num_games: int = 2, seed: int = 0) -> list[int]:
    """Random games end within ``max_game_length`` with every invariant holding at every step.

    Returns the length of each game.
    """
    lengths = []
    for g in range(num_games):
        rng = np.random.default_rng(seed + g)
        state = game.new_initial_state(seed + g)
        steps = 0
        where = f"{_where(game)} game seed {seed + g}"
        while True:
            _check_step_invariants(game, state, f"{where} step {steps}")
            if state.is_terminal():
                break
            assert steps < game.spec.max_game_length, (
                f"{where}: game did not end within max_game_length={game.spec.max_game_length}"
            )
            legal = state.legal_actions()
            state.apply(int(legal[rng.integers(len(legal))]))
            steps += 1
        lengths.append(steps)
    return lengths


def check_clone_independence(game: Game, seed: int = 0, points: int = 4) -> None:
    """Playing a clone to the end never changes the original, and vice versa."""
    _, actions = random_trajectory(game, seed)
    where = _where(game)
    for k in np.linspace(0, len(actions), points, dtype=int):
        original = replay(game, seed, actions[:k])
        before = original.to_json()
        copy = original.clone()
        assert copy.to_json() == before, f"{where}: clone differs from its original at step {k}"
        rng = np.random.default_rng(k)
        while not copy.is_terminal():
            legal = copy.legal_actions()
            copy.apply(int(legal[rng.integers(len(legal))]))
        assert original.to_json() == before, f"{where}: playing a clone changed the original"
        # and the other way round: the original moving does not drag a fresh clone along
        copy = original.clone()
        snapshot = copy.to_json()
        if not original.is_terminal():
            original.apply(int(original.legal_actions()[0]))
            assert copy.to_json() == snapshot, f"{where}: playing the original changed a clone"


def check_determinism(game: Game, seed: int = 0) -> None:
    """Same seed and same actions give the same game; random generators are part of the state."""
    where = _where(game)
    a = game.new_initial_state(seed)
    b = game.new_initial_state(seed)
    assert a.to_json() == b.to_json(), f"{where}: two initial states of one seed differ"
    final, actions = random_trajectory(game, seed)
    again = replay(game, seed, actions)
    assert again.to_json() == final.to_json(), f"{where}: replaying the actions diverged"
    # a clone taken mid-game continues exactly like the original (chance included)
    mid = replay(game, seed, actions[: len(actions) // 2])
    twin = mid.clone()
    for action in actions[len(actions) // 2 :]:
        mid.apply(action)
        twin.apply(action)
    assert mid.to_json() == twin.to_json(), f"{where}: a clone diverged from its original"


def check_json_round_trip(game: Game, seed: int = 0, points: int = 5) -> None:
    """``state_from_json(to_json())`` restores the state exactly, at the start, mid-game, end."""
    from stratagem.envs.registry import state_from_json

    where = _where(game)
    _, actions = random_trajectory(game, seed)
    for k in np.linspace(0, len(actions), points, dtype=int):
        state = replay(game, seed, actions[:k])
        text = state.to_json()
        json.loads(text)  # plain JSON
        # trusted: the configuration under test is the caller's (it may name a map file)
        for restored in (game.state_from_json(text), state_from_json(text, trusted=True)):
            assert restored.to_json() == text, f"{where}: JSON round trip changed the state"
            assert restored.current_player == state.current_player
            assert np.array_equal(restored.legal_action_mask(), state.legal_action_mask())
            for player in range(game.spec.num_players):
                assert np.array_equal(restored.observation(player), state.observation(player))
            # continuing from the restored state gives the same game
            for action in actions[k : k + 20]:
                restored.apply(action)
            assert restored.to_json() == replay(game, seed, actions[: k + 20]).to_json(), (
                f"{where}: a restored state played on differently"
            )


def check_mask_apply_agreement(
    game: Game, seed: int = 0, points: int = 3, max_unmasked: int | None = None
) -> None:
    """Every masked action applies; every unmasked one raises and leaves the state unchanged.

    Args:
        game: The game under test.
        seed: Seed of the random game that provides the states.
        points: Number of states checked along that game.
        max_unmasked: Check at most this many unmasked actions per state (all when ``None``).
    """
    where = _where(game)
    _, actions = random_trajectory(game, seed)
    rng = np.random.default_rng(seed)
    for k in np.linspace(0, max(0, len(actions) - 1), points, dtype=int):
        state = replay(game, seed, actions[:k])
        before = state.to_json()
        mask = state.legal_action_mask()
        for action in np.flatnonzero(mask):
            copy = state.clone()
            copy.apply(int(action))  # must not raise
        illegal = np.flatnonzero(~mask)
        if max_unmasked is not None and len(illegal) > max_unmasked:
            illegal = rng.choice(illegal, max_unmasked, replace=False)
        for action in illegal:
            try:
                state.apply(int(action))
            except IllegalActionError:
                pass
            else:
                raise AssertionError(
                    f"{where}: unmasked action {action} "
                    f"({game.action_to_string(int(action))}) was applied"
                )
        assert state.to_json() == before, f"{where}: a rejected action changed the state"


def _expect_error(call: Callable[[], object], error: type[Exception], what: str) -> None:
    """Assert that ``call()`` raises ``error``; ``what`` names the call in the failure."""
    try:
        call()
    except error:
        return
    raise AssertionError(f"{what} did not raise {error.__name__}")


def check_malformed_input(game: Game) -> None:
    """Bad seeds, actions and JSON get the contract's errors, never a corrupted state."""
    where = _where(game)
    for seed, error in ((-1, ValueError), (1.5, TypeError), ("0", TypeError), (True, TypeError)):
        call = partial(game.new_initial_state, seed)
        _expect_error(call, error, f"{where}: new_initial_state({seed!r})")
    state = game.new_initial_state(0)
    for seat in (-1, game.spec.num_players, "0"):
        _expect_error(
            partial(state.observed_by, seat), ValueError, f"{where}: observed_by({seat!r})"
        )
    before = state.to_json()
    for bad in (-1, game.spec.action_size, 1.5, "0", None, True):
        _expect_error(partial(state.apply, bad), IllegalActionError, f"{where}: apply({bad!r})")
    assert state.to_json() == before, f"{where}: a bad action changed the state"
    assert isinstance(IllegalActionError("x"), ValueError)
    other_game = json.loads(before)
    other_game["game"] = "other_game"
    for bad_text in ("", "{", "[]", '{"game": "nope"}', json.dumps(other_game)):
        call = partial(game.state_from_json, bad_text)
        _expect_error(call, InvalidStateError, f"{where}: state_from_json({bad_text[:40]!r})")
    data = json.loads(before)
    data["state"] = {}
    call = partial(game.state_from_json, json.dumps(data))
    _expect_error(call, InvalidStateError, f"{where}: state_from_json of an empty state")
    for name in game.spec.action_layout.global_actions if game.spec.action_layout else ():
        assert game.string_to_action(name) >= 0
    try:
        game.string_to_action("definitely not an action")
    except ValueError:
        pass
    else:
        raise AssertionError(f"{where}: string_to_action accepted nonsense")


def check_action_names(game: Game, limit: int = 50_000) -> None:
    """``string_to_action`` inverts ``action_to_string`` for every index (up to ``limit``)."""
    where = _where(game)
    for action in range(min(game.spec.action_size, limit)):
        name = game.action_to_string(action)
        assert game.string_to_action(name) == action, f"{where}: {name!r} does not round-trip"


def check_observations_hide_nothing_extra(game: Game, seed: int = 0) -> None:
    """What a player observes equals what it observes in its own ``observed_by`` view.

    For perfect-information games ``observed_by`` must equal a clone; for hidden-information
    games the observation must not change when the hidden part is re-drawn.
    """
    where = _where(game)
    _, actions = random_trajectory(game, seed, max_steps=200)
    state = replay(game, seed, actions[: len(actions) // 2])
    for player in range(game.spec.num_players):
        view = state.observed_by(player)
        assert np.array_equal(view.observation(player), state.observation(player)), (
            f"{where}: player {player}'s observation changes in its own observed_by view"
        )
        if game.spec.perfect_information:
            assert view.to_json() == state.to_json(), f"{where}: observed_by hid information"


def check_aec(name: str, config: Mapping[str, Any], num_cycles: int = 300) -> None:
    """PettingZoo's ``api_test``, ``seed_test`` and ``state_test``, and the AEC conventions."""
    from pettingzoo.test import api_test, seed_test, state_test
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    from stratagem.envs.aec import StratagemAECEnv, wrap_aec

    def make_env() -> Any:
        return wrap_aec(StratagemAECEnv(name, **config))

    api_test(make_env(), num_cycles=num_cycles)
    seed_test(make_env, num_cycles=min(num_cycles, 100))
    # the global state (state(), state_space) through the AEC and the parallel API
    state_test(make_env(), turn_based_aec_to_parallel(make_env()), num_cycles=5)
    # mask in observe() == mask in infos, and the mover stays selected during its turn
    env = make_env()
    env.reset(seed=1)
    state = env.unwrapped.game_state
    rng = np.random.default_rng(1)
    for agent in env.agent_iter(max_iter=2000):
        obs, _, term, trunc, info = env.last()
        assert np.array_equal(obs["action_mask"], info["action_mask"]), f"{name}: mask mismatch"
        assert obs["action_mask"].dtype == np.int8
        if term or trunc:
            env.step(None)
            continue
        assert agent == f"player_{state.current_player}", f"{name}: wrong agent selected"
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        state = env.unwrapped.game_state


def check_gymnasium(name: str, config: Mapping[str, Any]) -> None:
    """Gymnasium's ``check_env`` on the single-agent view, seats 0 and 1, and a masked episode.

    The view (``stratagem.wrappers``) is a layer above this one, so it is reached only through
    Gymnasium's registry, by the game's id: the ``stratagem`` package registers the ids, and
    Python runs it before any of its submodules, this one included.

    Raises:
        AssertionError: If the id is not registered with Gymnasium or a check fails.
    """
    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env

    from stratagem.envs.window import offscreen

    env_id = game_entry(name).env_id
    assert env_id in gym.registry, (
        f"{name}: Gymnasium id {env_id!r} is not registered; a game registered after "
        f"stratagem was imported needs stratagem.wrappers.register_gymnasium_envs() first"
    )
    for seat in range(make_game(name, **config).spec.num_players):
        env = gym.make(env_id, opponent="random", seat=seat, **config).unwrapped
        # check_env makes the env in every render mode, "human" too: draw it off-screen (it
        # needs matplotlib, the plot extra; without it the render modes are not checked)
        with offscreen():
            check_env(env, skip_render_check=importlib.util.find_spec("matplotlib") is None)
        obs, info = env.reset(seed=seat)
        rng = np.random.default_rng(seat)
        done = False
        while not done:
            mask = env.action_masks()
            assert np.array_equal(mask, info["action_mask"]), f"{name}: action_masks != info"
            assert mask.any(), f"{name}: learner to move without legal actions"
            obs, reward, terminated, truncated, info = env.step(
                int(rng.choice(np.flatnonzero(mask)))
            )
            assert env.observation_space.contains(obs)
            done = terminated or truncated
        low, high = env.game.spec.reward_range
        assert low <= reward <= high, f"{name}: final reward {reward} outside {low}..{high}"


def check_all(name: str, config: Mapping[str, Any] | None = None, *, quick: bool = False) -> None:
    """Run every check on one game configuration (``quick`` samples fewer illegal actions)."""
    config = dict(config or {})
    game = make_game(name, **config)
    check_spec(game)
    check_random_playouts(game)
    check_clone_independence(game)
    check_determinism(game)
    check_json_round_trip(game)
    check_mask_apply_agreement(game, max_unmasked=2000 if quick else None)
    check_malformed_input(game)
    check_observations_hide_nothing_extra(game)
    check_aec(name, config)
    check_gymnasium(name, config)
