"""AlphaZero-style self-play for any registered game, in one readable file.

``stratagem train alphazero <game> --preset tiny`` or ``train(AlphaZeroConfig(...))``.

One iteration:

1. **Self-play.** ``parallel_games`` games run together; every simulation step walks each tree
   to a leaf and evaluates all the leaves in one batch on the device (:mod:`.puct`). Moves are
   sampled from the visit counts for the first ``temperature_moves`` decisions of a game, then
   played greedily; Dirichlet noise is mixed into every root. Each decision stores the mover's
   observation, its legal actions, the visit distribution and, once the game ends, the outcome
   for every player (relative to the mover).
2. **Training.** ``train_steps`` minibatches from the replay buffer: policy cross-entropy over
   the legal actions + value mean squared error, AdamW weight decay; mixed precision on CUDA.
3. **Evaluation** every ``eval_every`` iterations against the baselines (``eval_opponents``) and
   the previous network, with sides switched.
4. **Checkpoint** (temp file + rename, so a crash never leaves half a file): network, optimiser,
   replay buffer, iteration, phase and every random generator. A checkpoint is also written
   after the self-play phase, so a run killed at any moment loses no finished game, and a
   resumed run continues exactly as the uninterrupted one would.
"""

from __future__ import annotations

import dataclasses
import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.nn import functional as F

from stratagem.envs.core import Game
from stratagem.envs.registry import make_game
from stratagem.training.common import (
    ProgressBar,
    TensorBoardLogger,
    atomic_torch_save,
    evaluate_agent,
    resolve_device,
)
from stratagem.training.config import AlphaZeroConfig
from stratagem.training.networks import PolicyValueNet, build_network
from stratagem.training.puct import Node, add_root_noise, run_simulations, visit_policy

__all__ = ["AlphaZeroConfig", "ReplayBuffer", "load_checkpoint", "make_batch_evaluator", "train"]


class ReplayBuffer:
    """Ring buffer of self-play positions with sparse policy targets.

    Observations are kept as float16 (they are 0/1 planes and fractions) and policy targets as
    (legal actions, probabilities) pairs, so that games with tens of thousands of actions fit.
    """

    def __init__(self, capacity: int, obs_shape: Sequence[int], num_players: int) -> None:
        self.capacity = capacity
        self.obs = np.zeros((capacity, *obs_shape), dtype=np.float16)
        self.values = np.zeros((capacity, num_players), dtype=np.float32)
        self.actions: list[np.ndarray | None] = [None] * capacity
        self.policies: list[np.ndarray | None] = [None] * capacity
        self.size = 0
        self.next = 0

    def add(
        self, obs: np.ndarray, actions: np.ndarray, policy: np.ndarray, value: np.ndarray
    ) -> None:
        """Store one position."""
        i = self.next
        self.obs[i] = obs
        self.actions[i] = actions.astype(np.int32)
        self.policies[i] = policy.astype(np.float32)
        self.values[i] = value
        self.next = (i + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(
        self, batch: int, rng: np.random.Generator, action_size: int
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """A minibatch: observations, dense policy targets, legal masks, value targets."""
        idx = rng.integers(self.size, size=batch)
        policy = np.zeros((batch, action_size), dtype=np.float32)
        mask = np.zeros((batch, action_size), dtype=bool)
        for row, i in enumerate(idx):
            policy[row, self.actions[i]] = self.policies[i]
            mask[row, self.actions[i]] = True
        return self.obs[idx].astype(np.float32), policy, mask, self.values[idx]

    def state_dict(self) -> dict[str, Any]:
        """Everything needed to restore the buffer exactly."""
        n = self.size
        return {
            "capacity": self.capacity,
            "size": n,
            "next": self.next,
            "obs": self.obs[:n].copy(),
            "values": self.values[:n].copy(),
            "actions": self.actions[:n],
            "policies": self.policies[:n],
        }

    def load_state_dict(self, data: dict[str, Any]) -> None:
        """Restore from :meth:`state_dict`."""
        if data["capacity"] != self.capacity:
            raise ValueError(
                f"checkpoint replay buffer holds {data['capacity']} positions, "
                f"the config asks for {self.capacity}"
            )
        n = data["size"]
        self.size, self.next = n, data["next"]
        self.obs[:n] = data["obs"]
        self.values[:n] = data["values"]
        self.actions[:n] = data["actions"]
        self.policies[:n] = data["policies"]


def make_batch_evaluator(net: PolicyValueNet, device: torch.device):
    """Wrap ``net`` as a :data:`~stratagem.training.puct.BatchEvaluator` (one forward per batch)."""
    use_amp = device.type == "cuda"

    @torch.no_grad()
    def evaluate(
        observations: np.ndarray, legal: Sequence[np.ndarray]
    ) -> tuple[list[np.ndarray], np.ndarray]:
        net.eval()
        obs = torch.from_numpy(np.ascontiguousarray(observations, dtype=np.float32)).to(device)
        with torch.autocast(device_type="cuda", dtype=torch.bfloat16, enabled=use_amp):
            logits, values = net(obs)
        logits = logits.float().cpu().numpy()
        values = values.float().cpu().numpy()
        priors = []
        for row, actions in zip(logits, legal, strict=True):
            z = row[actions]
            z = np.exp(z - z.max())
            priors.append(z / z.sum())
        return priors, values

    return evaluate


@dataclass
class _Game:
    """One self-play game in progress."""

    seed: int
    root: Node
    history: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = field(default_factory=list)
    moves: int = 0


def self_play(
    game: Game,
    net: PolicyValueNet,
    config: AlphaZeroConfig,
    device: torch.device,
    rng: np.random.Generator,
    buffer: ReplayBuffer,
    bar: ProgressBar | None = None,
) -> dict[str, float]:
    """Play ``games_per_iteration`` games into ``buffer``; returns throughput figures."""
    evaluate = make_batch_evaluator(net, device)
    n = game.spec.num_players
    cap = config.max_moves or game.spec.max_game_length
    truncated = _truncation_scorer(game, config.truncation_value)
    to_start = [int(s) for s in rng.integers(2**31, size=config.games_per_iteration)]
    active: list[_Game] = []
    positions = evaluated = finished = 0
    start = time.perf_counter()
    while to_start or active:
        while to_start and len(active) < config.parallel_games:
            seed = to_start.pop(0)
            active.append(_Game(seed, Node(game.new_initial_state(seed))))
        roots = [g.root for g in active]
        evaluated += run_simulations(roots, evaluate, 0, config.c_puct, n)  # expand new roots
        for g in active:
            add_root_noise(g.root, config.dirichlet_alpha, config.dirichlet_epsilon, rng)
        evaluated += run_simulations(roots, evaluate, config.simulations, config.c_puct, n)
        still = []
        for g in active:
            root = g.root
            temperature = 1.0 if g.moves < config.temperature_moves else 0.0
            policy = visit_policy(root, 1.0)
            choice = visit_policy(root, temperature)
            assert root.actions is not None
            g.history.append(
                (root.state.observation(root.player), root.actions, policy, root.player)
            )
            a = int(rng.choice(len(choice), p=choice))
            child = root.children[a]
            if child is None:
                state = root.state.clone()
                state.apply(int(root.actions[a]))
                child = Node(state)
            g.root = child
            g.moves += 1
            positions += 1
            if child.terminal or g.moves >= cap:
                outcome = child.state.returns() if child.terminal else truncated(child.state)
                for obs, actions, pol, player in g.history:
                    buffer.add(obs, actions, pol, np.roll(outcome, -player))
                finished += 1
                if bar is not None:
                    bar.update(1)
            else:
                still.append(g)
        active = still
    seconds = time.perf_counter() - start
    return {
        "selfplay/positions_per_s": positions / seconds,
        "selfplay/leaf_evals_per_s": evaluated / seconds,
        "selfplay/games": float(finished),
        "selfplay/positions": float(positions),
        "selfplay/seconds": seconds,
    }


def _truncation_scorer(game: Game, mode: str):
    """Value vector for a self-play game cut short: a draw, or the centred heuristic value."""
    n = game.spec.num_players
    if mode == "draw":
        return lambda state: np.zeros(n)
    from stratagem.baselines.evaluators import default_evaluator

    evaluator = default_evaluator(game)

    def score(state: Any) -> np.ndarray:
        values = np.asarray(evaluator.evaluate(state), dtype=np.float64)
        return np.clip(values - values.mean(), -1.0, 1.0)

    return score


def train_network(
    net: PolicyValueNet,
    optimizer: torch.optim.Optimizer,
    buffer: ReplayBuffer,
    config: AlphaZeroConfig,
    action_size: int,
    device: torch.device,
    rng: np.random.Generator,
) -> dict[str, float]:
    """``train_steps`` minibatches; returns mean losses and steps/s."""
    net.train()
    use_amp = device.type == "cuda"
    totals = {"policy": 0.0, "value": 0.0}
    start = time.perf_counter()
    steps = config.train_steps if buffer.size >= 1 else 0
    for _ in range(steps):
        obs, policy, mask, value = (
            torch.from_numpy(x).to(device)
            for x in buffer.sample(config.batch_size, rng, action_size)
        )
        with torch.autocast(device_type="cuda", dtype=torch.bfloat16, enabled=use_amp):
            logits, pred = net(obs)
        logits = logits.float().masked_fill(~mask, -1e9)
        policy_loss = -(policy * F.log_softmax(logits, dim=1)).sum(dim=1).mean()
        value_loss = F.mse_loss(pred.float(), value)
        loss = policy_loss + config.value_weight * value_loss
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        totals["policy"] += float(policy_loss.detach())
        totals["value"] += float(value_loss.detach())
    seconds = time.perf_counter() - start
    return {
        "loss/policy": totals["policy"] / max(steps, 1),
        "loss/value": totals["value"] / max(steps, 1),
        "train/steps_per_s": steps / seconds if seconds > 0 else 0.0,
    }


def _rng_snapshot(rng: np.random.Generator) -> dict[str, Any]:
    return {
        "numpy": rng.bit_generator.state,
        "torch": torch.get_rng_state(),
        "python": random.getstate(),
    }


def _rng_restore(rng: np.random.Generator, data: dict[str, Any]) -> None:
    rng.bit_generator.state = data["numpy"]
    torch.set_rng_state(data["torch"])
    random.setstate(data["python"])


def load_checkpoint(path: str | os.PathLike, device: str = "cpu") -> dict[str, Any]:
    """Load a checkpoint written by :func:`train` (raises ``ValueError`` if it is not one)."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no checkpoint at {path}")
    try:
        data = torch.load(path, map_location=device, weights_only=False)
    except Exception as exc:  # torch raises many kinds for a file that is not a checkpoint
        raise ValueError(f"{path} is not a stratagem AlphaZero checkpoint ({exc})") from exc
    if not isinstance(data, dict) or data.get("kind") != "stratagem-alphazero":
        raise ValueError(f"{path} is not a stratagem AlphaZero checkpoint")
    return data


def train(config: AlphaZeroConfig) -> dict[str, Any]:
    """Run (or resume) AlphaZero training; returns the last iteration's metrics.

    Raises:
        ValueError: For a bad configuration or a checkpoint of another game/configuration,
            before any work starts.
    """
    config.validate()
    device = resolve_device(config.device)
    game = make_game(config.game, **config.game_config)
    spec = game.spec
    full_game_config = dict(spec.config)  # every option, defaults included
    out = Path(config.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    ckpt_path = out / "checkpoint.pt"
    if config.threads is not None:
        torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    random.seed(config.seed)
    rng = np.random.default_rng(config.seed)
    net = build_network(spec, config.preset, config.blocks, config.filters).to(device)
    optimizer = torch.optim.AdamW(net.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    buffer = ReplayBuffer(config.replay_size, spec.observation_shape, spec.num_players)
    iteration, phase = 0, "selfplay"
    previous: dict[str, Any] | None = None
    if config.resume and ckpt_path.exists():
        data = load_checkpoint(ckpt_path, device="cpu")
        if data["game"] != config.game or data["game_config"] != full_game_config:
            raise ValueError(
                f"{ckpt_path} is a checkpoint of {data['game']} "
                f"{data['game_config']}, not {config.game} {full_game_config}"
            )
        if (data["config"]["preset"], data["config"]["blocks"], data["config"]["filters"]) != (
            config.preset,
            config.blocks,
            config.filters,
        ):
            raise ValueError(f"{ckpt_path} holds a network of another size")
        net.load_state_dict(data["network"])
        optimizer.load_state_dict(data["optimizer"])
        buffer.load_state_dict(data["buffer"])
        iteration, phase = data["iteration"], data["phase"]
        previous = data.get("previous_network")
        _rng_restore(rng, data["rng"])
    (out / "config.toml").write_text(config_to_toml(config))
    logger = TensorBoardLogger(out if config.tensorboard else None)

    def save(next_phase: str) -> None:
        atomic_torch_save(
            {
                "kind": "stratagem-alphazero",
                "game": config.game,
                "game_config": full_game_config,
                "config": dataclasses.asdict(config),
                "network": net.state_dict(),
                "optimizer": optimizer.state_dict(),
                "buffer": buffer.state_dict(),
                "iteration": iteration,
                "phase": next_phase,
                "previous_network": previous,
                "rng": _rng_snapshot(rng),
            },
            ckpt_path,
        )

    metrics: dict[str, Any] = {}
    while iteration < config.iterations:
        if phase == "selfplay":
            with ProgressBar(
                config.games_per_iteration, f"iter {iteration + 1} self-play", config.progress
            ) as bar:
                metrics = self_play(game, net, config, device, rng, buffer, bar)
            phase = "train"
            save("train")
        metrics.update(train_network(net, optimizer, buffer, config, spec.action_size, device, rng))
        iteration += 1
        if config.eval_every and iteration % config.eval_every == 0 and config.eval_games:
            metrics.update(_evaluate(game, net, config, device, rng, previous))
            previous = {k: v.detach().cpu().clone() for k, v in net.state_dict().items()}
        metrics["iteration"] = iteration
        logger.log(metrics, iteration)
        phase = "selfplay"
        save("selfplay")
        # one line per iteration even without progress bars: the log of a long background run
        shown = {k: round(v, 3) for k, v in metrics.items() if isinstance(v, float)}
        print(f"iteration {iteration}/{config.iterations}: {shown}", flush=True)
    atomic_torch_save(
        {
            "kind": "stratagem-alphazero",
            "game": config.game,
            "game_config": full_game_config,
            "config": dataclasses.asdict(config),
            "network": net.state_dict(),
            "iteration": iteration,
            "phase": "done",
        },
        out / "final.pt",
    )
    logger.close()
    return metrics


def _evaluate(
    game: Game,
    net: PolicyValueNet,
    config: AlphaZeroConfig,
    device: torch.device,
    rng: np.random.Generator,
    previous: dict[str, Any] | None,
) -> dict[str, float]:
    from stratagem.training.agents import AlphaZeroAgent

    agent = AlphaZeroAgent.from_network(
        game, net, device, simulations=config.eval_simulations, c_puct=config.c_puct
    )
    results: dict[str, float] = {}
    seed = int(rng.integers(2**31))
    for opponent in config.eval_opponents:
        if opponent == "previous":
            if previous is None:
                continue
            old = build_network(game.spec, config.preset, config.blocks, config.filters).to(device)
            old.load_state_dict(previous)
            opp: Any = AlphaZeroAgent.from_network(
                game, old, device, simulations=config.eval_simulations, c_puct=config.c_puct
            )
        else:
            opp = opponent
        score = evaluate_agent(game, agent, opp, config.eval_games, seed)
        results[f"eval/{opponent}/win_rate"] = score["win_rate"]
        results[f"eval/{opponent}/loss_rate"] = score["loss_rate"]
    return results


def config_to_toml(config: Any) -> str:
    """Write a config dataclass as TOML (``None`` fields are left out)."""
    from stratagem.training.common import to_toml

    return to_toml(dataclasses.asdict(config))
