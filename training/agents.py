"""Trained networks as agents, usable wherever agents are named.

``alphazero:checkpoint=path,simulations=64`` (or ``checkpoint=pretrained``, the network shipped for
the game) and ``ppo:model=path`` work in tournaments,
``stratagem play`` and the opponent slot of the Gymnasium view.
"""

from __future__ import annotations

import os

import numpy as np
import torch

from stratagem.baselines.agent import BaseAgent
from stratagem.baselines.search.config import check_choice, check_int, check_number
from stratagem.envs.core import Game, State
from stratagem.training.config import ALGORITHMS
from stratagem.training.networks import PolicyValueNet
from stratagem.training.puct import Node, gumbel_search, run_simulations, visit_policy

__all__ = ["AlphaZeroAgent", "PPOAgent"]


class AlphaZeroAgent(BaseAgent):
    """Tree search guided by a trained network.

    With ``algorithm="gumbel"`` it plays the action sequential halving leaves (no noise); with
    ``puct`` the most visited one.

    Parameters arrive as text from agent specs (``alphazero:simulations=abc``), so each is
    checked here, naming it, rather than failing in the middle of a game. A parameter of the
    other search (``c_puct`` with Gumbel, ``max_considered`` with PUCT) is refused: it would
    change nothing, and a silently ignored setting misleads an experiment.

    Args:
        game: The game it plays (must match the checkpoint's game and configuration).
        checkpoint: Path of a ``checkpoint.pt`` or ``final.pt`` written by AlphaZero training,
            or ``pretrained``: the network shipped with the package for this game and board.
        simulations: Simulations per decision.
        c_puct: Exploration constant of PUCT (``algorithm="puct"`` only; default 1.5).
        algorithm: ``gumbel`` or ``puct``; default: the one the network was trained with.
        max_considered: Gumbel's root actions considered (``algorithm="gumbel"`` only;
            default 16).
        device: ``auto``, ``cpu`` or ``cuda``.
        threads: CPU threads for torch in this process; ``None`` leaves torch's setting (one
            thread per core). The default is 1 because the networks are small and evaluated
            one position at a time: a second thread only adds synchronisation, and on a busy
            machine torch's one thread per core made a decision about 80 times slower
            (104 ms against 1.3 ms on two loaded cores). Torch's setting is per process, so
            this also applies to any other torch work in the process.
    """

    name = "alphazero"

    def __init__(
        self,
        game: Game,
        *,
        checkpoint: str | os.PathLike[str],
        simulations: int = 32,
        c_puct: float | None = None,
        algorithm: str | None = None,
        max_considered: int | None = None,
        device: str = "cpu",
        threads: int | None = 1,
    ) -> None:
        from stratagem.training.alphazero import load_network
        from stratagem.training.common import resolve_device

        who = self.name
        if not isinstance(checkpoint, (str, os.PathLike)):
            raise ValueError(
                f"{who}: checkpoint must be a file path or 'pretrained', got {checkpoint!r}"
            )
        check_int(who, "simulations", simulations, 1)
        if c_puct is not None:
            check_number(who, "c_puct", c_puct)
        if algorithm is not None:
            check_choice(who, "algorithm", algorithm, ALGORITHMS)
        check_int(who, "max_considered", max_considered, 1, optional=True)
        if not isinstance(device, str):
            raise ValueError(f"{who}: device must be auto, cpu or cuda, got {device!r}")
        check_int(who, "threads", threads, 1, optional=True)
        dev = resolve_device(device)
        data, net = load_network(str(checkpoint), game)
        if algorithm is None:
            algorithm = str(data["config"].get("algorithm", "puct"))
        for option, value, applies in (
            ("c_puct", c_puct, "puct"),
            ("max_considered", max_considered, "gumbel"),
        ):
            if value is not None and algorithm != applies:
                raise ValueError(
                    f"{who}: {option} applies to algorithm={applies} only, and this agent "
                    f"searches with {algorithm} (the network's own algorithm unless "
                    f"algorithm= is given); drop {option} or pass algorithm={applies}"
                )
        if threads is not None:
            torch.set_num_threads(threads)
        # a loaded network never trains again: its frozen copy evaluates faster on the CPU
        self._setup(
            game,
            net.to(dev),
            dev,
            simulations,
            1.5 if c_puct is None else float(c_puct),
            algorithm,
            16 if max_considered is None else max_considered,
            frozen=True,
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

        check_int(self.name, "simulations", simulations, 1)
        check_number(self.name, "c_puct", c_puct)
        check_choice(self.name, "algorithm", algorithm, ALGORITHMS)
        check_int(self.name, "max_considered", max_considered, 1)
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
        except Exception as exc:  # sb3 fails on a foreign file with assorted errors
            raise ValueError(
                f"{model} is not a PPO model saved by `stratagem train ppo` "
                f"({type(exc).__name__}: {exc})"
            ) from exc
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
