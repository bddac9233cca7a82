"""Trained networks as agents, usable wherever agents are named.

``alphazero:checkpoint=path,simulations=64`` (or ``checkpoint=pretrained``, the network shipped for
the game) and ``ppo:model=path`` work in tournaments,
``stratagem play`` and the opponent slot of the Gymnasium view.
"""

from __future__ import annotations

import numpy as np
import torch

from stratagem.baselines.agent import BaseAgent
from stratagem.envs.core import Game, State
from stratagem.training.networks import PolicyValueNet
from stratagem.training.puct import Node, gumbel_search, run_simulations, visit_policy

__all__ = ["AlphaZeroAgent", "PPOAgent"]


class AlphaZeroAgent(BaseAgent):
    """Tree search guided by a trained network.

    With ``algorithm="gumbel"`` it plays the action sequential halving leaves (no noise); with
    ``puct`` the most visited one.

    Args:
        game: The game it plays (must match the checkpoint's game and configuration).
        checkpoint: Path of a ``checkpoint.pt`` or ``final.pt`` written by AlphaZero training,
            or ``pretrained``: the network shipped with the package for this game and board.
        simulations: Simulations per decision.
        c_puct: Exploration constant of PUCT.
        algorithm: ``gumbel`` or ``puct``; default: the one the network was trained with.
        max_considered: Gumbel's root actions considered.
        device: ``auto``, ``cpu`` or ``cuda``.
        threads: CPU threads for torch in this process (``None``: leave torch's setting). One
            thread is fastest for the small networks, and torch's default of one per core is
            10 times slower on a busy machine.
    """

    name = "alphazero"

    def __init__(
        self,
        game: Game,
        *,
        checkpoint: str,
        simulations: int = 32,
        c_puct: float = 1.5,
        algorithm: str | None = None,
        max_considered: int = 16,
        device: str = "cpu",
        threads: int | None = None,
    ) -> None:
        from stratagem.training.alphazero import load_network
        from stratagem.training.common import resolve_device

        dev = resolve_device(device)
        if threads is not None:
            if threads < 1:
                raise ValueError(f"threads must be >= 1, got {threads}")
            torch.set_num_threads(threads)
        data, net = load_network(checkpoint, game)
        cfg = data["config"]
        if algorithm is None:
            algorithm = cfg.get("algorithm", "puct")
        # a loaded network never trains again: its frozen copy evaluates faster on the CPU
        self._setup(
            game, net.to(dev), dev, simulations, c_puct, algorithm, max_considered, frozen=True
        )

    @classmethod
    def from_network(
        cls,
        game: Game,
        net: PolicyValueNet,
        device: torch.device,
        *,
        simulations: int,
        c_puct: float = 1.5,
        algorithm: str = "puct",
        max_considered: int = 16,
        explore: bool = False,
    ) -> AlphaZeroAgent:
        """Wrap a network in memory (evaluation during training).

        ``explore`` plays as self-play does (Gumbel noise at the root; PUCT: moves sampled
        from the visit counts): two noiseless networks would play the same two games over and
        over, so matches between networks (the training's gate) explore.
        """
        agent = cls.__new__(cls)
        agent._setup(game, net, device, simulations, c_puct, algorithm, max_considered)
        agent.explore = explore
        return agent

    def _setup(
        self,
        game: Game,
        net: PolicyValueNet,
        device: torch.device,
        simulations: int,
        c_puct: float,
        algorithm: str,
        max_considered: int,
        *,
        frozen: bool = False,
    ) -> None:
        from stratagem.training.alphazero import make_batch_evaluator

        if simulations < 1:
            raise ValueError(f"simulations must be >= 1, got {simulations}")
        if algorithm not in ("gumbel", "puct"):
            raise ValueError(f"algorithm must be 'gumbel' or 'puct', got {algorithm!r}")
        if max_considered < 1:
            raise ValueError(f"max_considered must be >= 1, got {max_considered}")
        self.game = game
        self.simulations = simulations
        self.c_puct = c_puct
        self.algorithm = algorithm
        self.max_considered = max_considered
        self.explore = False
        self._evaluate = make_batch_evaluator(net, device, frozen=frozen)

    def act(self, state: State, *, rng: np.random.Generator) -> int:
        """The searched action (a forced move is played without search)."""
        legal = state.legal_action_list()
        if len(legal) == 1:
            return int(legal[0])
        root = Node(state.clone())
        n = self.game.spec.num_players
        if self.algorithm == "gumbel":
            results, _ = gumbel_search(
                [root],
                self._evaluate,
                self.simulations,
                n,
                rng=rng if self.explore else None,
                noise=[self.explore],
                max_considered=self.max_considered,
            )
            assert root.actions is not None and results[0] is not None
            return int(root.actions[results[0].action_index])
        run_simulations([root], self._evaluate, self.simulations, self.c_puct, n)
        assert root.actions is not None
        policy = visit_policy(root, 1.0 if self.explore else 0.0)
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
