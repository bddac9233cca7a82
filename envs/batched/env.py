"""A stateful batch of games that restarts each game as soon as it ends.

:class:`~stratagem.envs.batched.core.BatchedGame` is functional: it returns new batches and
leaves finished games as they ended, which is what a tree search wants. Self-play and data
collection want the opposite: a fixed number of games always in play, each replaced by a new
one the moment it ends, so that every :meth:`BatchedEnv.step` moves ``B`` live games. That is
:class:`BatchedEnv`: it holds the batch, and its :meth:`~BatchedEnv.step` plays one action per
game (whoever is to move in it: both seats are driven through the same call, which makes it a
two-seat self-play interface), reports the games that ended with their returns and terminal
positions, and restarts them from seeds drawn from its own generator, so that a run is
reproducible from ``seed`` and the actions.

The step has no Python loop over games: the rules, the returns and the replacement of the
finished games are tensor operations (the new games' initial positions are built by
:meth:`~stratagem.envs.batched.core.BatchedGame.init`), and it runs on whatever device the
batched game lives on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Generic

import numpy as np
import torch

from stratagem.envs.batched.core import BatchedGame, S

__all__ = ["BatchedEnv", "BatchedStepResult"]

#: Game seeds are drawn below this bound (the range ``SingleAgentEnv`` draws from).
SEED_BOUND = 2**31


@dataclasses.dataclass(frozen=True)
class BatchedStepResult(Generic[S]):
    """What one :meth:`BatchedEnv.step` did to the batch.

    Attributes:
        returns: ``(B, num_players)`` float32: the final returns of the games that ended in
            this step, 0 for every other game.
        terminated: ``(B,)`` bool: the game ended in this step (and has since been replaced by
            a new one in :attr:`BatchedEnv.state`).
        final_state: The batch after the actions and before the replacement: the terminal
            positions of the games that ended (the others are the same as in the new state).
    """

    returns: torch.Tensor
    terminated: torch.Tensor
    final_state: S


class BatchedEnv(Generic[S]):
    """``B`` games of one batched game, each restarted automatically when it ends.

    Args:
        game: The batched game (its device is the batch's).
        batch_size: ``B``, the number of games played side by side.
        seed: Seed of the generator that draws every game's initial-state seed (the first
            ``B`` at :meth:`reset`, then one per finished game, in batch order).

    Attributes:
        game: The batched game.
        batch_size: ``B``.
        episodes_finished: Games that ended since the last :meth:`reset`.
        steps: Calls of :meth:`step` since the last :meth:`reset` (each moves up to ``B``
            games).

    Raises:
        ValueError: If ``batch_size`` is not a positive integer or ``seed`` not an integer.

    Example:
        >>> env = BatchedEnv(batched_game(make_game("push_them_all", map="pta")), 64, seed=0)
        >>> result = env.step(sample_legal(env.game, env.state))
    """

    def __init__(self, game: BatchedGame[S], batch_size: int, seed: int = 0) -> None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)):
            raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
        if batch_size < 1:
            raise ValueError(f"batch_size must be a positive integer, got {batch_size}")
        self.game = game
        self.batch_size = int(batch_size)
        self.episodes_finished = 0
        self.steps = 0
        self._rng = _generator(seed)
        self._state: S = self.reset(seed)

    # ----------------------------------------------------------------- state
    def reset(self, seed: int | None = None) -> S:
        """Start ``B`` new games and zero the counters.

        Args:
            seed: Reseed the generator first (``None``: go on with its current stream, so
                successive resets give new games).

        Returns:
            The new batch (also :attr:`state`).
        """
        if seed is not None:
            self._rng = _generator(seed)
        self._state = self.game.init(self._draw_seeds(self.batch_size))
        self.episodes_finished = 0
        self.steps = 0
        return self._state

    @property
    def state(self) -> S:
        """The current batch (every game in it is live)."""
        return self._state

    @property
    def device(self) -> torch.device:
        """The device of the batch's tensors."""
        return self.game.device

    @property
    def current_player(self) -> torch.Tensor:
        """``(B,)`` int64: the player to move in each game."""
        return self.game.current_player(self._state)

    @property
    def legal_mask(self) -> torch.Tensor:
        """``(B, num_actions)`` bool: the legal actions of the player to move in each game."""
        return self.game.legal_mask(self._state)

    def observation(self, player: torch.Tensor | int | None = None) -> torch.Tensor:
        """``(B, H, W, C)`` float32 observation planes.

        Args:
            player: The observing seat: an int for all games, a ``(B,)`` tensor, or ``None``
                (the default) for the player to move in each game.
        """
        return self.game.observation(self._state, player)

    # ----------------------------------------------------------------- playing
    def step(
        self,
        actions: torch.Tensor | Sequence[int] | np.ndarray,
        active: torch.Tensor | None = None,
        *,
        validate: bool = True,
    ) -> BatchedStepResult[S]:
        """Play one action per game, then replace the games that ended by new ones.

        Args:
            actions: ``(B,)`` integer actions, each for the player to move in its game.
            active: Optional ``(B,)`` bool mask of the games that move; the others are left
                untouched (their actions are ignored), so different callers (two networks, a
                learner and an opponent) can each move in their own games.
            validate: Check that every moving game's action is legal; ``False`` saves the mask
                computation for callers that only pick legal actions.

        Returns:
            The returns and terminal positions of the games that ended in this step.

        Raises:
            ActionTypeError: If ``actions`` is not a tensor or array of integers of shape (B,).
            IllegalActionError: With ``validate``, for an illegal action of a moving game (the
                batch is left unchanged).
        """
        final = self.game.step(self._state, actions, active=active, validate=validate)
        terminated = self.game.terminated(final)
        returns = torch.where(terminated[:, None], self.game.returns(final), 0.0)
        finished = int(terminated.sum())  # one device sync: the number of new seeds to draw
        self.steps += 1
        if finished:
            self.episodes_finished += finished
            self._state = self.game.reset_where(final, terminated, self._draw_seeds(finished))
        else:
            self._state = final
        return BatchedStepResult(returns=returns, terminated=terminated, final_state=final)

    def _draw_seeds(self, count: int) -> list[int]:
        return self._rng.integers(SEED_BOUND, size=count).tolist()


def _generator(seed: Any) -> np.random.Generator:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    return np.random.default_rng(int(seed))
