"""The differential check of a batched game against its scalar rules.

:func:`check_against_scalar` plays random games in both (the same seeds, the same actions) and
compares, at every step and for every game of the batch, the state (through
:meth:`~stratagem.envs.batched.core.BatchedGame.to_scalar`), the legal-action mask, both players'
observations and the returns. A batched game is correct when this passes for thousands of games;
the tests run it briefly in the default suite and long as a ``slow`` test.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from stratagem.envs.batched.core import BatchedGame, sample_legal
from stratagem.envs.core import Game

__all__ = ["DifferentialReport", "check_against_scalar"]


@dataclass
class DifferentialReport:
    """What a differential run covered.

    Attributes:
        games: Games played to their end or to the step limit.
        steps: Actions applied (in live games) and compared.
        finished: Games that ended (won, lost or drawn) within the run.
    """

    games: int
    steps: int
    finished: int


def check_against_scalar(
    game: Game,
    batched: BatchedGame,
    seeds: list[int],
    max_steps: int,
    *,
    action_seed: int = 0,
    compare_every: int = 1,
) -> DifferentialReport:
    """Play ``len(seeds)`` random games in ``batched`` and in ``game`` and compare them.

    Actions are drawn by the batched side (:func:`sample_legal`) and applied to both, so the
    scalar side also checks that every batched-legal action is legal for the scalar rules.

    Args:
        game: The scalar game.
        batched: Its batched version.
        seeds: One initial-state seed per game.
        max_steps: Batch steps at most (the run stops earlier once every game has ended).
        action_seed: Seed of the action draws.
        compare_every: Compare observations every this many steps (states, masks and returns
            are compared at every step).

    Raises:
        AssertionError: At the first difference, naming the step, the game and what differs.
    """
    state = batched.init(seeds)
    scalars = [game.new_initial_state(s) for s in seeds]
    generator = torch.Generator(device=batched.device).manual_seed(action_seed)
    steps = 0
    for t in range(max_steps + 1):
        _compare(batched, state, scalars, t, observations=t % compare_every == 0)
        if all(s.is_terminal() for s in scalars) or t == max_steps:
            break
        actions = sample_legal(batched, state, generator)
        chosen = actions.tolist()
        for s, a in zip(scalars, chosen, strict=True):
            if not s.is_terminal():
                s.apply(a)
                steps += 1
        state = batched.step(state, actions, validate=t % 7 == 0)
    finished = sum(s.is_terminal() for s in scalars)
    return DifferentialReport(games=len(seeds), steps=steps, finished=finished)


def _compare(
    batched: BatchedGame, state: object, scalars: list, t: int, *, observations: bool
) -> None:
    mask = batched.legal_mask(state).cpu().numpy()
    returns = batched.returns(state).cpu().numpy()
    terminated = batched.terminated(state).cpu().numpy()
    obs = (
        [batched.observation(state, p).cpu().numpy() for p in range(batched.num_players)]
        if observations
        else None
    )
    for i, s in enumerate(scalars):
        where = f"step {t}, game {i}"
        converted = batched.to_scalar(state, i)
        assert converted == s, f"{where}: state differs:\n{converted.to_json()}\n{s.to_json()}"
        expected = s.legal_action_mask()
        if not np.array_equal(mask[i], expected):
            diff = np.flatnonzero(mask[i] != expected)[:5].tolist()
            raise AssertionError(f"{where}: legal masks differ at actions {diff}")
        assert bool(terminated[i]) == s.is_terminal(), f"{where}: terminal flags differ"
        assert np.array_equal(returns[i], s.returns().astype(np.float32)), f"{where}: returns"
        if obs is not None:
            for p in range(batched.num_players):
                expected_obs = s.observation(p)
                if not np.array_equal(obs[p][i], expected_obs):
                    cell = np.argwhere(obs[p][i] != expected_obs)[0].tolist()
                    raise AssertionError(
                        f"{where}: observation of player {p} differs at (y, x, plane) {cell}"
                    )
