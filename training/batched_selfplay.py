"""AlphaZero self-play on a batched game: the games, the trees and the network all in tensors.

:class:`~stratagem.training.actors.GamePlayer` plays scalar games and searches Python trees,
batching only the network's leaves. :class:`BatchedGamePlayer` plays the same self-play (Gumbel
search, forced moves applied without search, the curriculum opponent and its imitation, cut
games valued by the run's truncation rule, continuous refill) on a
:class:`~stratagem.envs.batched.core.BatchedGame` with
:func:`~stratagem.training.batched_search.batched_gumbel_search`, so that on a GPU the game
rules, the trees and the network run on the device. It stores the same kind of decisions
(observation, legal actions, policy target, value target) into the same replay buffer.

What stays in Python is per decision batch, not per game and node: converting the stored
positions to numpy, and the moves of a scalar curriculum opponent (which is a Python agent).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from stratagem.baselines.agent import make_agent
from stratagem.envs.batched.core import batched_game
from stratagem.envs.core import Game
from stratagem.training.actors import (
    Diagnostics,
    FinishedGame,
    end_turn_action,
    finished_game,
    imitate,
)
from stratagem.training.batched_search import batched_gumbel_search, network_evaluator
from stratagem.training.config import AlphaZeroConfig
from stratagem.training.targets import truncation_scorer

__all__ = ["BatchedGamePlayer"]


@dataclass
class _Slot:
    """The game played in one row of the batch."""

    index: int
    opponent_seats: frozenset[int]
    history: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = field(default_factory=list)
    moves: int = 0


class BatchedGamePlayer:
    """Plays self-play games ``parallel`` at a time on the batched version of ``game``.

    Args:
        game: The scalar game (it must have a batched version).
        config: The run's configuration (``algorithm`` must be ``gumbel``).
        rng: Draws the curriculum seats, the opponent's moves and the search noise's seed.
        net: The policy-value network (on ``device``).
        device: Where the games, trees and network run.
        parallel: Games played together (the batch).
        truncation_scale: Scale of the ``calibrated`` value of a cut game.
        on_finish: Receives every finished game as it ends.
    """

    def __init__(
        self,
        game: Game,
        config: AlphaZeroConfig,
        rng: np.random.Generator,
        net: torch.nn.Module,
        device: torch.device,
        *,
        parallel: int,
        truncation_scale: float,
        on_finish: Callable[[FinishedGame], None],
    ) -> None:
        if config.algorithm != "gumbel":
            raise ValueError("batched self-play runs the Gumbel search (algorithm 'gumbel')")
        self.game, self.config, self.rng = game, config, rng
        self.batched = batched_game(game, device)
        self.evaluate = network_evaluator(net, device, graphs=config.cuda_graphs)
        self.generator = torch.Generator(device=device).manual_seed(int(rng.integers(2**62)))
        self.parallel = parallel
        self.on_finish = on_finish
        self.cap = config.max_moves or game.spec.max_game_length
        self.truncated = truncation_scorer(game, config.truncation_value, scale=truncation_scale)
        self.opponent = (
            make_agent(config.selfplay_opponent, game) if config.uses_opponent() else None
        )
        self.end_turn = end_turn_action(game)
        self.diag = Diagnostics(game.spec.num_players)

    def play(self, games: Sequence[tuple[int, int]]) -> None:
        """Play the games given as (index, seed) pairs, started in that order."""
        to_start = list(games)
        if not to_start:
            return
        first = to_start[: self.parallel]
        del to_start[: len(first)]
        slots: list[_Slot | None] = [self._slot(index) for index, _ in first]
        state = self.batched.init([seed for _, seed in first])
        while True:
            state = self._advance(state, slots, to_start)
            live = [i for i, s in enumerate(slots) if s is not None]
            if not live:
                return
            state = self._search_and_move(state, slots, live)

    # ----------------------------------------------------------------- game bookkeeping
    def _slot(self, index: int) -> _Slot:
        seats = self.config.draw_opponent_seats(self.rng, self.game.spec.num_players)
        return _Slot(index, seats)

    def _over(self, state: Any, slots: list[_Slot | None]) -> list[int]:
        """Rows whose game has ended or is cut."""
        done = self.batched.terminated(state)
        rounds = self.batched.round_number(state)
        if self.config.cut_rounds is not None and rounds is not None:
            done = done | (rounds > self.config.cut_rounds)
        flags = done.tolist()
        return [
            i for i, s in enumerate(slots) if s is not None and (flags[i] or s.moves >= self.cap)
        ]

    def _finish(self, state: Any, i: int, slot: _Slot) -> None:
        scalar = self.batched.to_scalar(state, i)
        self.on_finish(
            finished_game(slot.index, slot.history, scalar, slot.moves, self.truncated, self.diag)
        )

    def _advance(self, state: Any, slots: list[_Slot | None], to_start: list) -> Any:
        """Finish and replace ended games; play forced and opponent moves until a search."""
        batched, diag = self.batched, self.diag
        while True:
            over = self._over(state, slots)
            if over:
                seeds, fresh = [], []
                for i in over:
                    slot = slots[i]
                    assert slot is not None
                    self._finish(state, i, slot)
                    slots[i] = None
                    if to_start:
                        index, seed = to_start.pop(0)
                        slots[i] = self._slot(index)
                        seeds.append(seed)
                        fresh.append(i)
                if fresh:
                    done = torch.zeros(state.batch_size, dtype=torch.bool, device=state.device)
                    done[fresh] = True
                    state = batched.reset_where(state, done, seeds)
                continue
            ids, legal = batched.legal_candidates(state)
            counts = legal.sum(dim=1).tolist()
            movers = batched.current_player(state).tolist()
            forced_pick = ids.gather(1, legal.to(torch.int8).argmax(dim=1, keepdim=True))
            actions = forced_pick.squeeze(1).tolist()
            moving = [False] * len(slots)
            for i, slot in enumerate(slots):
                if slot is None:
                    continue
                if movers[i] in slot.opponent_seats:
                    actions[i] = self._opponent_move(state, i, slot)
                    moving[i] = True
                elif counts[i] == 1:
                    diag.forced += 1
                    moving[i] = True
            if not any(moving):
                return state
            for i, m in enumerate(moving):
                if m:
                    slots[i].moves += 1  # type: ignore[union-attr]
            active = torch.tensor(moving, device=state.device)
            state = batched.step(state, torch.tensor(actions), active=active)

    def _opponent_move(self, state: Any, i: int, slot: _Slot) -> int:
        scalar = self.batched.to_scalar(state, i)
        mover = scalar.current_player
        assert self.opponent is not None
        action = int(self.opponent.act(scalar.observed_by(mover), rng=self.rng))
        self.diag.opponent_moves += 1
        demonstration = len(slot.opponent_seats) == self.game.spec.num_players
        if self.config.imitate_opponent or demonstration:
            imitate(slot.history, scalar, action, self.diag)
        return action

    # ----------------------------------------------------------------- search
    def _search_and_move(self, state: Any, slots: list[_Slot | None], live: list[int]) -> Any:
        """Search every live game's position together, store the decisions and play them."""
        batched, config, diag = self.batched, self.config, self.diag
        explore = config.exploration_moves()
        index = torch.tensor(live, device=state.device)
        roots = state.take(index)
        noise = [explore is None or slots[i].moves < explore for i in live]  # type: ignore[union-attr]
        result = batched_gumbel_search(
            batched,
            roots,
            self.evaluate,
            config.simulations,
            generator=self.generator,
            noise=torch.tensor(noise, device=state.device),
            max_considered=config.max_considered,
        )
        diag.evaluated += result.evaluations
        movers = batched.current_player(roots)
        observations = batched.observation(roots).cpu().numpy()
        masks = batched.legal_mask(roots).cpu().numpy()
        policies = result.policy.cpu().numpy()
        priors = result.prior.cpu().numpy()
        seats = np.arange(batched.num_players)
        values = result.root_value.cpu().numpy()
        for j, i in enumerate(live):
            slot = slots[i]
            assert slot is not None
            mover = int(movers[j])
            legal = np.flatnonzero(masks[j])
            policy = policies[j, legal]
            policy = policy / policy.sum()
            slot.history.append((observations[j], legal, policy, mover))
            slot.moves += 1
            diag.searched += 1
            diag.positions += 1
            prior = np.maximum(priors[j, legal], 1e-12)
            nz = policy > 0
            diag.kl.append(float(np.sum(policy[nz] * np.log(policy[nz] / prior[nz]))))
            if self.end_turn is not None:
                diag.end_turn.append(float(policies[j, self.end_turn]))
            diag.value_sum += values[j, (seats + mover) % batched.num_players]
            diag.value_count += 1
        actions = torch.zeros(state.batch_size, dtype=torch.int64, device=state.device)
        actions[index] = result.actions
        active = torch.zeros(state.batch_size, dtype=torch.bool, device=state.device)
        active[index] = True
        return batched.step(state, actions, active=active, validate=False)
