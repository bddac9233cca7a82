"""Trained networks as agents, usable wherever agents are named.

``alphazero:checkpoint=path,simulations=200`` and ``ppo:model=path`` work in tournaments,
``stratagem play`` and the opponent slot of the Gymnasium view.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from stratagem.baselines.agent import BaseAgent
from stratagem.envs.core import Game, State
from stratagem.training.networks import PolicyValueNet, build_network
from stratagem.training.puct import Node, run_simulations, visit_policy

__all__ = ["AlphaZeroAgent", "PPOAgent"]


class AlphaZeroAgent(BaseAgent):
    """PUCT search guided by a trained network; plays the most visited action.

    Args:
        game: The game it plays (must match the checkpoint's game and configuration).
        checkpoint: Path of a ``checkpoint.pt`` or ``final.pt`` written by AlphaZero training.
        simulations: PUCT simulations per decision.
        c_puct: Exploration constant.
        device: ``auto``, ``cpu`` or ``cuda``.
    """

    name = "alphazero"

    def __init__(
        self,
        game: Game,
        *,
        checkpoint: str,
        simulations: int = 200,
        c_puct: float = 1.5,
        device: str = "cpu",
    ) -> None:
        from stratagem.training.alphazero import load_checkpoint
        from stratagem.training.common import resolve_device

        dev = resolve_device(device)
        data = load_checkpoint(checkpoint, device="cpu")
        if data["game"] != game.spec.name:
            raise ValueError(
                f"checkpoint {checkpoint} was trained on {data['game']} "
                f"{data['game_config']}, not {game.spec.name}"
            )
        cfg = data["config"]
        net = build_network(game.spec, cfg["preset"], cfg["blocks"], cfg["filters"])
        try:  # another configuration of the same game is fine when the shapes agree (map=kwah:3
            net.load_state_dict(data["network"])  # for a network trained on map=kwah)
        except RuntimeError as exc:
            raise ValueError(
                f"checkpoint {checkpoint} was trained on {data['game']} {data['game_config']}, "
                f"whose observation or action shapes differ from {_plain(game.spec.config)}"
            ) from exc
        self._setup(game, net.to(dev), dev, simulations, c_puct)

    @classmethod
    def from_network(
        cls,
        game: Game,
        net: PolicyValueNet,
        device: torch.device,
        *,
        simulations: int,
        c_puct: float,
    ) -> AlphaZeroAgent:
        """Wrap a network in memory (evaluation during training)."""
        agent = cls.__new__(cls)
        agent._setup(game, net, device, simulations, c_puct)
        return agent

    def _setup(
        self, game: Game, net: PolicyValueNet, device: torch.device, simulations: int, c_puct: float
    ) -> None:
        from stratagem.training.alphazero import make_batch_evaluator

        if simulations < 1:
            raise ValueError(f"simulations must be >= 1, got {simulations}")
        self.game = game
        self.simulations = simulations
        self.c_puct = c_puct
        self._evaluate = make_batch_evaluator(net, device)

    def act(self, state: State, *, rng: np.random.Generator) -> int:
        """Most visited root action after ``simulations`` simulations (ties: random)."""
        root = Node(state.clone())
        run_simulations(
            [root], self._evaluate, self.simulations, self.c_puct, self.game.spec.num_players
        )
        assert root.actions is not None
        policy = visit_policy(root, 0.0)
        return int(root.actions[int(rng.choice(len(policy), p=policy))])


class PPOAgent(BaseAgent):
    """A MaskablePPO policy trained by ``stratagem train ppo``.

    Args:
        game: The game it plays.
        model: Path of the saved ``.zip`` model.
        deterministic: Play the most probable legal action (else sample).
        device: ``auto``, ``cpu`` or ``cuda``.
    """

    name = "ppo"

    def __init__(
        self, game: Game, *, model: str, deterministic: bool = True, device: str = "cpu"
    ) -> None:
        from sb3_contrib import MaskablePPO

        from stratagem.training.common import resolve_device

        try:
            self.model = MaskablePPO.load(model, device=resolve_device(device))
        except FileNotFoundError:
            raise ValueError(f"no PPO model at {model}") from None
        expected = (game.spec.action_size,)
        if (
            self.model.action_space.n != game.spec.action_size
            or self.model.observation_space.shape != game.spec.observation_shape
        ):
            raise ValueError(
                f"PPO model {model} was trained on another game or configuration "
                f"(actions {self.model.action_space.n}, expected {expected[0]})"
            )
        self.game = game
        self.deterministic = deterministic

    def act(self, state: State, *, rng: np.random.Generator) -> int:
        """The policy's action for the mover's observation, illegal actions masked out."""
        obs = state.observation(state.current_player)
        mask = state.legal_action_mask()
        action, _ = self.model.predict(obs, action_masks=mask, deterministic=self.deterministic)
        return int(action)


def _plain(config: Any) -> dict[str, Any]:
    return dict(config)
