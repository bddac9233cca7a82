"""AlphaZero-style self-play for any registered game, in one readable file.

``stratagem train alphazero <game> --preset tiny`` or ``train(AlphaZeroConfig(...))``.

One iteration:

1. **Self-play.** ``parallel_games`` games run together; every simulation step walks each tree
   to a leaf and evaluates all the leaves in one batch on the device (:mod:`.puct`). Gumbel
   search (the default) plays the action its sequential halving picks, with Gumbel noise at
   every decision unless ``temperature_moves`` stops it earlier; PUCT samples from the visit
   counts for the first ``temperature_moves`` decisions (30) and mixes Dirichlet noise into
   every root. Each decision stores the mover's
   observation, its legal actions, the policy target and, once the game ends, the outcome
   for every player (relative to the mover). With ``actors = N > 1``, N processes play the games
   and run the trees while this process evaluates their leaves in shared batches
   (:mod:`.actors`); with ``backend = "ray"``, Ray actors on a cluster play them
   (:mod:`.ray_actors`).
2. **Training.** ``train_steps`` minibatches from the replay buffer: policy cross-entropy over
   the legal actions + value mean squared error, AdamW weight decay; mixed precision on CUDA.
3. **Evaluation** every ``eval_every`` iterations against the baselines (``eval_opponents``) and
   the previous network, with sides switched. ``best.pt`` keeps the network with the best mean
   score against the baselines so far (early stopping, as Stable-Baselines3's ``EvalCallback``
   keeps ``best_model``): self-play scores swing from one iteration to the next on long games.
4. **Checkpoint** (temp file + rename, so a crash never leaves half a file): network, optimiser,
   replay buffer, iteration, phase and every random generator. A checkpoint is also written
   after the self-play phase, so a run killed at any moment loses no finished game, and a
   resumed run continues exactly as the uninterrupted one would.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.nn import functional as F

from stratagem.envs.core import Game
from stratagem.envs.registry import make_game
from stratagem.training.actors import (
    FinishedGame,
    Forward,
    GamePlayer,
    cpu_seconds,
    run_actors,
    softmax_evaluator,
)
from stratagem.training.batched_selfplay import BatchedGamePlayer
from stratagem.training.common import (
    ProgressBar,
    TensorBoardLogger,
    atomic_torch_save,
    atomic_write,
    evaluate_agent,
    finished_run_message,
    resolve_device,
    write_game_records,
)
from stratagem.training.config import AlphaZeroConfig
from stratagem.training.cuda_graphs import CudaGraphForward
from stratagem.training.networks import PolicyValueNet, build_network, frozen_for_inference
from stratagem.training.puct import BatchEvaluator
from stratagem.training.targets import calibrate_heuristic

log = logging.getLogger(__name__)

__all__ = [
    "AlphaZeroConfig",
    "ReplayBuffer",
    "completed_run",
    "load_checkpoint",
    "make_batch_evaluator",
    "train",
]


class ReplayBuffer:
    """Ring buffer of self-play positions with sparse policy targets.

    Observations are kept as float16 (they are 0/1 planes and fractions) and policy targets as
    (legal actions, probabilities) pairs, so that games with tens of thousands of actions fit.
    ``has_value`` is False for the positions of cut games whose value is unknown
    (``truncation_value = "none"``): they train the policy only.
    """

    def __init__(self, capacity: int, obs_shape: Sequence[int], num_players: int) -> None:
        self.capacity = capacity
        self.obs = np.zeros((capacity, *obs_shape), dtype=np.float16)
        self.values = np.zeros((capacity, num_players), dtype=np.float32)
        self.has_value = np.zeros(capacity, dtype=bool)
        self.actions: list[np.ndarray | None] = [None] * capacity
        self.policies: list[np.ndarray | None] = [None] * capacity
        self.size = 0
        self.next = 0

    def add(
        self, obs: np.ndarray, actions: np.ndarray, policy: np.ndarray, value: np.ndarray | None
    ) -> None:
        """Store one position (``value`` ``None``: no value target)."""
        i = self.next
        self.obs[i] = obs
        self.actions[i] = actions.astype(np.int32)
        self.policies[i] = policy.astype(np.float32)
        self.has_value[i] = value is not None
        self.values[i] = 0.0 if value is None else value
        self.next = (i + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(
        self, batch: int, rng: np.random.Generator, action_size: int
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """A minibatch: observations, dense policy targets, legal masks, values, value masks."""
        idx = rng.integers(self.size, size=batch)
        policy = np.zeros((batch, action_size), dtype=np.float32)
        mask = np.zeros((batch, action_size), dtype=bool)
        for row, i in enumerate(idx):
            policy[row, self.actions[i]] = self.policies[i]
            mask[row, self.actions[i]] = True
        return (
            self.obs[idx].astype(np.float32),
            policy,
            mask,
            self.values[idx],
            self.has_value[idx].astype(np.float32),
        )

    def save(self, path: Path) -> None:
        """Write the buffer as a pickle-free ``.npz`` (temp file + rename)."""
        n = self.size
        lengths = np.asarray([len(a) for a in self.actions[:n]], dtype=np.int64)  # type: ignore[arg-type]
        data = {
            "capacity": np.asarray(self.capacity),
            "next": np.asarray(self.next),
            "obs": self.obs[:n],
            "values": self.values[:n],
            "has_value": self.has_value[:n],
            "lengths": lengths,
            "actions": np.concatenate(self.actions[:n]) if n else np.zeros(0, np.int32),  # type: ignore[arg-type]
            "policies": np.concatenate(self.policies[:n]) if n else np.zeros(0, np.float32),  # type: ignore[arg-type]
        }
        atomic_write(path, lambda fh: np.savez(fh, **data))

    def load(self, path: Path) -> None:
        """Restore from :meth:`save` (raises ``ValueError`` for a file that does not fit)."""
        try:
            with np.load(path, allow_pickle=False) as data:
                capacity, nxt = int(data["capacity"]), int(data["next"])
                obs, values, has_value = data["obs"], data["values"], data["has_value"]
                lengths, actions, policies = data["lengths"], data["actions"], data["policies"]
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"{path} is not a replay buffer of this run ({exc})") from exc
        if capacity != self.capacity:
            raise ValueError(
                f"checkpoint replay buffer holds {capacity} positions, "
                f"the config asks for {self.capacity}"
            )
        n = len(obs)
        fits = obs.shape[1:] == self.obs.shape[1:] and n <= capacity
        if not fits or int(lengths.sum()) != len(actions):
            raise ValueError(f"{path} does not match this run's replay buffer")
        self.size, self.next = n, nxt
        self.obs[:n], self.values[:n], self.has_value[:n] = obs, values, has_value
        bounds = np.concatenate([[0], np.cumsum(lengths)])
        for i in range(n):
            self.actions[i] = actions[bounds[i] : bounds[i + 1]]
            self.policies[i] = policies[bounds[i] : bounds[i + 1]]


def network_forward(
    net: PolicyValueNet, device: torch.device, *, frozen: bool = False, graphs: bool = False
) -> Forward:
    """Wrap ``net`` as ``observations -> (logits, values)`` numpy arrays (one forward).

    Args:
        net: The network; put in eval mode at the first call after training switched it.
        device: Where it runs (bfloat16 autocast on CUDA).
        frozen: On the CPU, run a frozen copy (:func:`frozen_for_inference`): faster for the
            small batches of an agent's search, but it keeps the weights of this moment, so
            only for a network that no longer trains.
        graphs: On CUDA, replay the forward pass from CUDA graphs (:mod:`.cuda_graphs`);
            ignored on the CPU.
    """
    use_amp = device.type == "cuda"
    model: Any = frozen_for_inference(net) if frozen and device.type == "cpu" else net
    graphed = CudaGraphForward(net, device) if graphs and use_amp else None

    @torch.no_grad()
    def forward(observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if net.training:  # train_network switches it; eval() every call costs a tree walk
            net.eval()
        obs = torch.from_numpy(np.ascontiguousarray(observations, dtype=np.float32))
        if graphed is not None:
            logits, values = graphed(obs)
        else:
            with torch.autocast(device_type="cuda", dtype=torch.bfloat16, enabled=use_amp):
                logits, values = model(obs.to(device))
        return logits.float().cpu().numpy(), values.float().cpu().numpy()

    return forward


def make_batch_evaluator(
    net: PolicyValueNet, device: torch.device, *, frozen: bool = False, graphs: bool = False
) -> BatchEvaluator:
    """Wrap ``net`` as a :data:`~stratagem.training.puct.BatchEvaluator` (one forward per batch).

    ``frozen`` and ``graphs`` as in :func:`network_forward`.
    """
    return softmax_evaluator(network_forward(net, device, frozen=frozen, graphs=graphs))


def _store(buffer: ReplayBuffer, done: FinishedGame, targets: list[float]) -> int:
    """Add a finished game's decisions to ``buffer`` and its value targets to ``targets``.

    Returns:
        How many positions entered the buffer (searched ones, and the baseline's stored by
        ``imitate_opponent`` or ``demonstration_share``).
    """
    for obs, actions, pol, value in done.positions:
        buffer.add(obs, actions, pol, value)
        if value is not None:
            targets.append(float(value[0]))
    return len(done.positions)


def uses_batched_selfplay(config: AlphaZeroConfig, device: torch.device) -> bool:
    """Whether self-play runs on the batched game (``selfplay_engine``; ``auto``: on CUDA)."""
    if config.selfplay_engine == "scalar":
        return False
    if config.selfplay_engine == "batched":
        return True
    return device.type == "cuda" and config.batched_unavailable() is None


def self_play(
    game: Game,
    net: PolicyValueNet,
    config: AlphaZeroConfig,
    device: torch.device,
    rng: np.random.Generator,
    buffer: ReplayBuffer,
    bar: ProgressBar | None = None,
    *,
    truncation_scale: float = 1.0,
    ray_pool: Any = None,
) -> dict[str, Any]:
    """Play ``games_per_iteration`` games into ``buffer``; returns throughput and diagnostics.

    With ``actors = 1`` the games run here, ``parallel_games`` at a time, their leaves evaluated
    in one batch (:class:`~stratagem.training.actors.GamePlayer`), and enter the buffer as they
    end. With more, actor processes play them and this process evaluates their leaves
    (:func:`~stratagem.training.actors.run_actors`); the games enter the buffer in the order of
    their index, so that a run and its resumed copy store the same buffer. ``ray_pool`` (a
    :class:`~stratagem.training.ray_actors.RaySelfPlay`): Ray actors play them, stored likewise.
    """
    targets: list[float] = []
    stored = 0

    def store_game(done: FinishedGame) -> None:
        nonlocal stored
        stored += _store(buffer, done, targets)

    seeds = [int(s) for s in rng.integers(2**31, size=config.games_per_iteration)]
    cpu_start, start = cpu_seconds(), time.perf_counter()
    if ray_pool is not None:
        finished, diag = ray_pool.play(
            net,
            seeds,
            rng,
            truncation_scale=truncation_scale,
            on_game=None if bar is None else bar.update,
        )
        for done in finished:
            store_game(done)
    elif config.actors == 1:

        def store(done: FinishedGame) -> None:
            store_game(done)
            if bar is not None:
                bar.update(1)

        player: GamePlayer | BatchedGamePlayer
        if uses_batched_selfplay(config, device):
            player = BatchedGamePlayer(
                game,
                config,
                rng,
                net,
                device,
                parallel=config.parallel_games,
                truncation_scale=truncation_scale,
                on_finish=store,
            )
        else:
            player = GamePlayer(
                game,
                config,
                rng,
                make_batch_evaluator(net, device, graphs=config.cuda_graphs),
                parallel=config.parallel_games,
                truncation_scale=truncation_scale,
                on_finish=store,
            )
        player.play(list(enumerate(seeds)))
        diag = player.diag
    else:
        actor_seeds = [int(s) for s in rng.integers(2**31, size=config.actors)]
        finished, diag = run_actors(
            game,
            config,
            seeds,
            actor_seeds,
            network_forward(net, device, graphs=config.cuda_graphs),
            truncation_scale=truncation_scale,
            on_game=None if bar is None else bar.update,
        )
        for done in finished:
            store_game(done)
    seconds = time.perf_counter() - start
    cpu = cpu_seconds() - cpu_start
    diag.targets = targets
    metrics: dict[str, Any] = {
        "selfplay/positions_per_s": diag.positions / seconds,
        "selfplay/positions_per_cpu_s": diag.positions / max(cpu, 1e-9),
        "selfplay/leaf_evals_per_s": diag.evaluated / seconds,
        "selfplay/games": float(diag.games),
        "selfplay/positions": float(diag.positions),
        "selfplay/stored_positions": float(stored),
        "selfplay/seconds": seconds,
        "selfplay/cpu_seconds": cpu,
    }
    metrics.update(diag.metrics())
    metrics["histogram/value_targets"] = np.asarray(targets, dtype=np.float32)
    return metrics


def train_network(
    net: PolicyValueNet,
    optimizer: torch.optim.Optimizer,
    buffer: ReplayBuffer,
    config: AlphaZeroConfig,
    action_size: int,
    device: torch.device,
    rng: np.random.Generator,
) -> dict[str, float]:
    """``train_steps`` minibatches; returns mean losses and steps/s.

    The value loss is the squared error over the positions that have a value target.
    """
    net.train()
    use_amp = device.type == "cuda"
    totals = {"policy": 0.0, "value": 0.0}
    start = time.perf_counter()
    steps = config.train_steps if buffer.size >= 1 else 0
    for _ in range(steps):
        obs, policy, mask, value, has_value = (
            torch.from_numpy(x).to(device)
            for x in buffer.sample(config.batch_size, rng, action_size)
        )
        with torch.autocast(device_type="cuda", dtype=torch.bfloat16, enabled=use_amp):
            logits, pred = net(obs)
        logits = logits.float().masked_fill(~mask, -1e9)
        policy_loss = -(policy * F.log_softmax(logits, dim=1)).sum(dim=1).mean()
        squared = ((pred.float() - value) ** 2).mean(dim=1)
        value_loss = (squared * has_value).sum() / has_value.sum().clamp(min=1.0)
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
    """Load a checkpoint written by :func:`train`.

    Checkpoints hold tensors and plain Python values only and are read with
    ``torch.load(weights_only=True)``: a crafted file cannot run code. (The replay buffer lives
    beside it in a pickle-free ``.npz``.)

    Raises:
        ValueError: If ``path`` is missing or is not such a checkpoint. For a file torch cannot
            read, the message is ours (torch's own text asks users to file an issue with
            torch) and torch's error is kept as the cause.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no checkpoint at {path}")
    try:
        data = torch.load(path, map_location=device, weights_only=True)
    except Exception as exc:  # torch raises many kinds for a file that is not a checkpoint
        raise ValueError(
            f"{path} is not a stratagem AlphaZero checkpoint: torch cannot read it safely as a "
            "file of tensors and plain values (another kind of file, a damaged one, or one "
            "holding Python objects, which could run code when loaded)"
        ) from exc
    if not isinstance(data, dict) or data.get("kind") != "stratagem-alphazero":
        raise ValueError(f"{path} is not a stratagem AlphaZero checkpoint")
    return data


def network_from_config(spec: Any, cfg: dict[str, Any]) -> PolicyValueNet:
    """The network a checkpoint's config describes (architecture options absent: off)."""
    return build_network(
        spec,
        cfg["preset"],
        cfg.get("blocks"),
        cfg.get("filters"),
        global_pooling=bool(cfg.get("global_pooling", False)),
        symmetric_value=bool(cfg.get("symmetric_value", False)),
    )


_ARCHITECTURE = ("preset", "blocks", "filters", "global_pooling", "symmetric_value")


def _architecture(cfg: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(cfg.get(k) for k in _ARCHITECTURE)


def load_network(
    source: str, game: Game, *, what: str = "checkpoint", option: str = "checkpoint=PATH"
) -> tuple[dict, PolicyValueNet]:
    """A network file's contents and its network, built and loaded for ``game``'s board.

    Args:
        source: A file written by :func:`train` (``final.pt``, ``best.pt``, ``checkpoint.pt``)
            or ``pretrained``, the network shipped for ``game``.
        game: The game (and board) the network is to play.
        what: How error messages name the file's role (``checkpoint``, ``init_network``).
        option: How the user gives a file instead of ``pretrained`` (``checkpoint=PATH``,
            ``--init-network PATH``), for the advice when no network ships for the game.

    Raises:
        ValueError: Naming the file and what differs: another game, or shapes that do not fit
            this board (a network without global pooling trained on another board size).
    """
    if source == "pretrained":
        from stratagem.training.pretrained import pretrained_path

        source = str(pretrained_path(game, option=option))
    data = load_checkpoint(source, device="cpu")
    if data["game"] != game.spec.name:
        raise ValueError(
            f"{what} {source} was trained on {data['game']} {data['game_config']}, "
            f"not {game.spec.name}"
        )
    net = network_from_config(game.spec, data["config"])
    try:  # another configuration of the same game is fine when the shapes agree (map=kwah:3
        net.load_state_dict(data["network"])  # for a network trained on map=kwah)
    except RuntimeError as exc:
        raise ValueError(
            f"{what} {source} was trained on {data['game']} {data['game_config']}, "
            f"whose observation or action shapes differ from {dict(game.spec.config)}"
        ) from exc
    return data, net


def _init_weights(source: str, game: Game, config_dict: dict[str, Any]) -> dict[str, Any]:
    """The weights of ``init_network``, checked against this run's game and architecture."""
    data, _ = load_network(source, game, what="init_network", option="--init-network PATH")
    if _architecture(data["config"]) != _architecture(config_dict):
        theirs = {k: data["config"].get(k) for k in _ARCHITECTURE}
        raise ValueError(
            f"init_network {source} holds a network of another architecture ({theirs}); "
            "give this run the same --preset/--blocks/--filters and pooling options"
        )
    return data["network"]


def completed_run(config: AlphaZeroConfig) -> str | None:
    """Why resuming ``config`` would train nothing, or ``None`` when it has work to do.

    A run whose checkpoint in ``out_dir`` has done ``config.iterations`` already would be
    resumed, find no iteration left and return no metrics: the command line says so instead
    (how many iterations are done, where the network is, how to go on). A checkpoint of
    another game or configuration is not a finished run of this one: :func:`train` refuses it.
    """
    out = Path(config.out_dir)
    ckpt_path = out / "checkpoint.pt"
    # no final.pt: stopped after its last iteration but before writing it; resuming writes it
    if not config.resume or not ckpt_path.is_file() or not (out / "final.pt").is_file():
        return None
    data = load_checkpoint(ckpt_path)
    full_game_config = dict(make_game(config.game, **config.game_config).spec.config)
    if data["game"] != config.game or data["game_config"] != full_game_config:
        return None
    done = int(data["iteration"])
    if done < config.iterations or data.get("phase") != "selfplay":
        return None
    return finished_run_message(
        out, config.game, done, config.iterations, "iterations", "--iterations", "final.pt"
    )


def train(config: AlphaZeroConfig) -> dict[str, Any]:
    """Run (or resume) AlphaZero training; returns the last iteration's metrics.

    With ``backend = "ray"`` the self-play actors live on a Ray cluster for the whole run
    (:class:`~stratagem.training.ray_actors.RaySelfPlay`) and end with it, however it ends.

    Raises:
        ValueError: For a bad configuration or a checkpoint of another game/configuration,
            before any work starts.
    """
    config.validate()
    if config.backend == "ray":
        from stratagem.training.ray_actors import RaySelfPlay

        with RaySelfPlay(make_game(config.game, **config.game_config), config) as pool:
            return _train(config, pool)
    return _train(config, None)


def _train(config: AlphaZeroConfig, ray_pool: Any) -> dict[str, Any]:
    """:func:`train` after the configuration is checked; ``ray_pool`` plays self-play on Ray."""
    device = resolve_device(config.device)
    game = make_game(config.game, **config.game_config)
    spec = game.spec
    full_game_config = dict(spec.config)  # every option, defaults included
    out = Path(config.out_dir)
    ckpt_path = out / "checkpoint.pt"
    if config.threads is not None:
        torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    random.seed(config.seed)
    rng = np.random.default_rng(config.seed)
    config_dict = dataclasses.asdict(config)
    net = network_from_config(spec, config_dict).to(device)
    optimizer = torch.optim.AdamW(net.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    buffer = ReplayBuffer(config.replay_size, spec.observation_shape, spec.num_players)
    iteration, phase = 0, "selfplay"
    previous: dict[str, Any] | None = None
    # the network self-play uses when gating (None: the trained one); starts as the initial one
    resuming = config.resume and ckpt_path.exists()
    if config.init_network is not None and not resuming:
        # checked before out_dir is made: a bad file leaves no empty run folder behind
        net.load_state_dict(_init_weights(config.init_network, game, config_dict))
    out.mkdir(parents=True, exist_ok=True)
    best: dict[str, Any] | None = _weights(net) if config.gate_score is not None else None
    calibration: dict[str, float] | None = None
    buffer_file: str | None = None
    cpu_total = 0.0
    selfplay_metrics: dict[str, float] = {}
    best_eval: dict[str, float] | None = None  # mean score and iteration of best.pt
    if resuming:
        data = load_checkpoint(ckpt_path, device="cpu")
        if data["game"] != config.game or data["game_config"] != full_game_config:
            raise ValueError(
                f"{ckpt_path} is a checkpoint of {data['game']} "
                f"{data['game_config']}, not {config.game} {full_game_config}"
            )
        if _architecture(data["config"]) != _architecture(config_dict):
            theirs, ours = _architecture(data["config"]), _architecture(config_dict)
            differs = ", ".join(
                f"{k} {theirs[i]!r} there, {ours[i]!r} here"
                for i, k in enumerate(_ARCHITECTURE)
                if theirs[i] != ours[i]
            )
            raise ValueError(
                f"{ckpt_path} holds a network of another architecture ({differs}); resume it "
                "with the options it was started with (its config.toml: --config), or start a "
                "new run with another --out-dir or --no-resume"
            )
        net.load_state_dict(data["network"])
        optimizer.load_state_dict(data["optimizer"])
        buffer_file = data.get("buffer_file")
        if buffer_file:
            buffer.load(out / buffer_file)
        iteration, phase = data["iteration"], data["phase"]
        previous = data.get("previous_network")
        if config.gate_score is not None:
            best = data.get("best_network") or _weights(net)
        calibration = data.get("calibration")
        cpu_total = float(data.get("cpu_seconds", 0.0))
        # a run stopped between self-play and training logs that self-play's figures on resume
        selfplay_metrics = dict(data.get("selfplay_metrics") or {})
        best_eval = data.get("best_eval")
        _rng_restore(rng, data["rng"])
    (out / "config.toml").write_text(config_to_toml(config))
    logger = TensorBoardLogger(out if config.tensorboard else None)
    cuts = config.max_moves is not None or config.cut_rounds is not None
    if config.truncation_value == "calibrated" and cuts and calibration is None:
        calibration = calibrate_heuristic(game, config.calibration_games, config.seed)
        log.info("calibrated the heuristic on %d games: %s", config.calibration_games, calibration)
    scale = calibration["scale"] if calibration else 1.0
    cpu_mark = cpu_seconds()  # actor processes included (they are joined every phase)

    def save_network(path: Path, **extra: Any) -> None:
        """A network file that ``alphazero:checkpoint=`` loads (final.pt, best.pt).

        ``extra`` adds or overrides fields: the checkpoint's phase and training state.
        """
        atomic_torch_save(
            {
                "kind": "stratagem-alphazero",
                "game": config.game,
                "game_config": full_game_config,
                "config": config_dict,
                "network": net.state_dict(),
                "iteration": iteration,
                "cpu_seconds": cpu_total,
                "phase": "done",
                **extra,
            },
            path,
        )

    def save(next_phase: str) -> None:
        nonlocal buffer_file, cpu_mark, cpu_total
        old = buffer_file
        if next_phase == "train":  # the buffer changes in self-play only: write it once then
            buffer_file = f"buffer-{iteration:05d}.npz"
            buffer.save(out / buffer_file)
        now = cpu_seconds()
        cpu_total += now - cpu_mark
        cpu_mark = now
        save_network(  # the network file plus what resuming needs
            ckpt_path,
            phase=next_phase,
            optimizer=optimizer.state_dict(),
            buffer_file=buffer_file,
            previous_network=previous,
            best_network=best,
            calibration=calibration,
            selfplay_metrics=selfplay_metrics if next_phase == "train" else {},
            best_eval=best_eval,
            rng=_rng_snapshot(rng),
        )
        if old and old != buffer_file and (out / old).exists():
            (out / old).unlink()

    metrics: dict[str, Any] = dict(selfplay_metrics)
    while iteration < config.iterations:
        if phase == "selfplay":
            with ProgressBar(
                config.games_per_iteration, f"iter {iteration + 1} self-play", config.progress
            ) as bar:
                player = net if best is None else _network_with(game, config, device, best)
                metrics = self_play(
                    game,
                    player,
                    config,
                    device,
                    rng,
                    buffer,
                    bar,
                    truncation_scale=scale,
                    ray_pool=ray_pool,
                )
            selfplay_metrics = {k: v for k, v in metrics.items() if isinstance(v, (int, float))}
            phase = "train"
            save("train")
        metrics.update(train_network(net, optimizer, buffer, config, spec.action_size, device, rng))
        iteration += 1
        if best is not None:  # gating is on
            gate = _gate(game, net, config, device, rng, best)
            metrics.update(gate)
            if gate["eval/gate/accepted"]:
                best = _weights(net)
        if config.eval_every and iteration % config.eval_every == 0 and config.eval_games:
            games: list[dict[str, Any]] = []
            metrics.update(_evaluate(game, net, config, device, rng, previous, games))
            previous = _weights(net)
            write_game_records(out / f"eval-{iteration:05d}.jsonl", games, iteration=iteration)
            scores = [
                metrics[f"eval/{o}/score"]
                for o in config.evaluation_ladder()
                if o != "previous" and f"eval/{o}/score" in metrics
            ]
            if scores and (best_eval is None or float(np.mean(scores)) > best_eval["score"]):
                best_eval = {"score": float(np.mean(scores)), "iteration": float(iteration)}
                save_network(out / "best.pt", eval_score=best_eval["score"])
            if best_eval is not None:
                metrics["eval/best_score"] = best_eval["score"]
                metrics["eval/best_iteration"] = best_eval["iteration"]
        metrics["iteration"] = iteration
        phase = "selfplay"
        save("selfplay")
        metrics["cpu_seconds"] = cpu_total
        logger.log(metrics, iteration)
        # one line per iteration even without progress bars: the log of a long background run
        shown = {
            k.split("/", 1)[-1]: round(v, 3)
            for k, v in metrics.items()
            if isinstance(v, float) and not k.endswith("_rate")
        }
        log.info("iteration %d/%d: %s", iteration, config.iterations, shown)
    save_network(out / "final.pt")
    logger.close()
    return {k: v for k, v in metrics.items() if not k.startswith("histogram/")}


def _weights(net: PolicyValueNet) -> dict[str, Any]:
    """A CPU copy of the network's weights (kept in checkpoints as plain tensors)."""
    return {k: v.detach().cpu().clone() for k, v in net.state_dict().items()}


def _network_with(
    game: Game, config: AlphaZeroConfig, device: torch.device, weights: dict[str, Any]
) -> PolicyValueNet:
    """A network of the run's architecture holding ``weights``, on ``device``."""
    other = network_from_config(game.spec, dataclasses.asdict(config)).to(device)
    other.load_state_dict(weights)
    return other


def _network_agent(
    game: Game,
    net: PolicyValueNet,
    config: AlphaZeroConfig,
    device: torch.device,
    *,
    explore: bool = False,
) -> Any:
    """The search agent of evaluations and gate matches: ``eval_simulations``.

    ``explore``: with self-play's noise; without it two networks play the same two games.
    """
    from stratagem.training.agents import AlphaZeroAgent

    return AlphaZeroAgent.from_network(
        game,
        net,
        device,
        simulations=config.eval_simulations,
        c_puct=config.c_puct,
        algorithm=config.algorithm,
        max_considered=config.max_considered,
        explore=explore,
    )


def _gate(
    game: Game,
    net: PolicyValueNet,
    config: AlphaZeroConfig,
    device: torch.device,
    rng: np.random.Generator,
    best: dict[str, Any],
) -> dict[str, float]:
    """The trained network against the best one: its score, standard error and the verdict."""
    assert config.gate_score is not None
    champion = _network_agent(
        game, _network_with(game, config, device, best), config, device, explore=True
    )
    challenger = _network_agent(game, net, config, device, explore=True)
    seed = int(rng.integers(2**31))
    score = evaluate_agent(game, challenger, champion, config.gate_games, seed)
    return {
        "eval/gate/score": score["score"],
        "eval/gate/se": score["se"],
        "eval/gate/accepted": float(score["score"] >= config.gate_score),
    }


def _evaluate(
    game: Game,
    net: PolicyValueNet,
    config: AlphaZeroConfig,
    device: torch.device,
    rng: np.random.Generator,
    previous: dict[str, Any] | None,
    records: list[dict[str, Any]] | None = None,
) -> dict[str, float]:
    """The evaluation ladder: score (draws half) and its standard error against each opponent.

    ``records`` receives every game played, labelled with its opponent (see
    :func:`~stratagem.training.common.evaluate_agent`).
    """
    agent = _network_agent(game, net, config, device)
    results: dict[str, float] = {}
    seed = int(rng.integers(2**31))
    for opponent in config.evaluation_ladder():
        me: Any = agent
        if opponent == "previous":
            if previous is None:
                continue
            # network against network: both explore, else they repeat the same two games
            me = _network_agent(game, net, config, device, explore=True)
            old = _network_with(game, config, device, previous)
            opp: Any = _network_agent(game, old, config, device, explore=True)
        else:
            opp = opponent
        games: list[dict[str, Any]] = []
        score = evaluate_agent(game, me, opp, config.eval_games, seed, records=games)
        if records is not None:
            records.extend({**r, "opponent": opponent} for r in games)
        results[f"eval/{opponent}/score"] = score["score"]
        results[f"eval/{opponent}/se"] = score["se"]
        results[f"eval/{opponent}/win_rate"] = score["win_rate"]
        results[f"eval/{opponent}/loss_rate"] = score["loss_rate"]
    return results


def config_to_toml(config: Any) -> str:
    """Write a config dataclass as TOML (``None`` fields are left out)."""
    from stratagem.training.common import to_toml

    return to_toml(dataclasses.asdict(config))
