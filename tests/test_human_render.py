"""``render_mode="human"``: the picture in a matplotlib window, tested without a display.

Most tests run human mode inside :func:`stratagem.envs.window.offscreen` (the window drawn on an
``Agg`` canvas, its frames handed back). One test drives the on-screen path on pyplot's ``Agg``
backend, with the one method that reaches the screen replaced, so that it also runs on CI.
"""

from __future__ import annotations

import sys

import gymnasium as gym
import numpy as np
import pytest
import tiny_games  # noqa: F401  (registers tictactoe_test, a game without pictures)

import stratagem.wrappers  # noqa: F401  (registers the Gymnasium ids)
from stratagem.envs import kill_the_king_v0, window
from stratagem.envs.window import DisplayError, PictureWindow, offscreen
from stratagem.wrappers.gym_env import SingleAgentEnv

plt = pytest.importorskip("matplotlib.pyplot", reason="human mode draws with matplotlib")

MAP = "k0 w0 . .\n. . . .\n. . w1 k1"


@pytest.fixture
def agg():
    """pyplot on Agg (no display), every figure closed afterwards."""
    previous = plt.get_backend()
    plt.switch_backend("Agg")
    yield
    plt.close("all")
    plt.switch_backend(previous)


def test_metadata_lists_human_with_a_frame_rate():
    env = gym.make("stratagem/KillTheKing-v0", map=MAP)
    assert "human" in env.metadata["render_modes"] and env.metadata["render_fps"] > 0
    aec = kill_the_king_v0.env(map=MAP)
    assert "human" in aec.metadata["render_modes"] and aec.metadata["render_fps"] > 0


def test_gymnasium_human_mode_shows_every_reset_and_step():
    with offscreen() as frames:
        env = gym.make("stratagem/KillTheKing-v0", render_mode="human", map=MAP, seat=0)
        env.reset(seed=3)
        assert len(frames) == 1, "reset shows the first picture"
        # the window shows the picture at its true size, pixel for pixel
        assert np.array_equal(frames[0], env.unwrapped.game_state.render_rgb())
        rng = np.random.default_rng(0)
        steps = 0
        while steps < 6:
            mask = env.unwrapped.action_masks()
            _, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
            if terminated:
                break
        assert len(frames) == 1 + steps
        assert any(not np.array_equal(frames[0], f) for f in frames[1:]), "never changed"
        assert np.array_equal(frames[-1], env.unwrapped.game_state.render_rgb())
        assert env.render() is None  # human mode shows, and returns nothing
        assert len(frames) == 2 + steps
        env.close()
    assert plt.get_fignums() == []  # off-screen windows never touch pyplot


def test_pettingzoo_human_mode_shows_every_reset_and_step():
    with offscreen() as frames:
        env = kill_the_king_v0.env(render_mode="human", map=MAP)
        env.reset(seed=1)
        for _ in range(3):
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(np.flatnonzero(mask)[0]))
        env.close()
    assert len(frames) == 4
    assert np.array_equal(frames[-1], env.unwrapped.game_state.render_rgb())


def test_gymnasium_check_env_passes_every_render_mode():
    from gymnasium.utils.env_checker import check_env

    env = gym.make("stratagem/PushThemAll-v0", seat=0).unwrapped
    with offscreen() as frames:
        check_env(env, skip_render_check=False)  # makes and resets a "human" env too
    assert frames


def test_on_screen_window_opens_once_reopens_when_closed_and_closes(agg, monkeypatch):
    """The pyplot path, with Agg standing in for a GUI backend and the screen calls recorded."""
    monkeypatch.setattr(window, "NON_INTERACTIVE_BACKENDS", frozenset())
    shown: list[tuple[bool, np.ndarray]] = []

    def present(self: PictureWindow, opened: bool) -> None:
        self.figure.canvas.draw()
        shown.append((opened, np.asarray(self.figure.canvas.buffer_rgba())[..., :3].copy()))

    monkeypatch.setattr(PictureWindow, "_present", present)
    env = kill_the_king_v0.raw_env(render_mode="human", map=MAP)
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert [opened for opened, _ in shown] == [True, False], "one window, reused"
    assert np.array_equal(shown[-1][1], env.game_state.render_rgb())
    assert plt.get_fignums() == [env._window.figure.number]
    plt.close("all")  # the user closes the window
    env.render()
    assert [opened for opened, _ in shown] == [True, False, True]
    env.close()
    assert plt.get_fignums() == []


def test_game_without_pictures_prints_its_board(capsys):
    env = SingleAgentEnv("tictactoe_test", render_mode="human", seat=0)
    env.reset(seed=0)
    env.step(4)
    out = capsys.readouterr().out
    assert out.count("\n") >= 6 and "X" in out  # the board, at reset and after the step


def test_no_display_fails_clearly(agg):
    with pytest.raises(DisplayError, match="(?i)needs a display.*'agg'.*rgb_array"):
        gym.make("stratagem/KillTheKing-v0", render_mode="human", map=MAP)
    with pytest.raises(DisplayError, match="needs a display"):
        kill_the_king_v0.env(render_mode="human", map=MAP)


def test_offscreen_variable_lets_checkers_make_human_envs_without_a_display(agg, monkeypatch):
    """``STRATAGEM_OFFSCREEN=1``: what a library's checker or a worker process can set."""
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import render_test

    with pytest.raises(DisplayError, match="STRATAGEM_OFFSCREEN=1"):
        gym.make("stratagem/KillTheKing-v0", render_mode="human", map=MAP)
    monkeypatch.setenv("STRATAGEM_OFFSCREEN", "1")
    check_env(gym.make("stratagem/PushThemAll-v0", seat=0).unwrapped, skip_render_check=False)
    render_test(lambda render_mode=None: kill_the_king_v0.env(render_mode=render_mode, map=MAP))
    env = gym.make("stratagem/KillTheKing-v0", render_mode="human", map=MAP)
    env.reset(seed=0)
    assert env.render() is None and plt.get_fignums() == []  # nothing reached pyplot
    env.close()
    monkeypatch.setenv("STRATAGEM_OFFSCREEN", "0")  # "0" (and "") mean unset
    with pytest.raises(DisplayError, match="needs a display"):
        kill_the_king_v0.env(render_mode="human", map=MAP)


def test_missing_matplotlib_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    with pytest.raises(DisplayError, match=r"pip install 'stratagem\[plot\]'"):
        SingleAgentEnv("kill_the_king", render_mode="human", map=MAP)


def test_window_rejects_a_bad_frame_rate():
    with pytest.raises(ValueError, match="fps must be positive"):
        PictureWindow("x", 0)
