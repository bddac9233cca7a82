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
import logging
import os
import random
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.nn import functional as F

from stratagem.baselines.agent import make_agent
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
from stratagem.training.puct import (
    Node,
    add_root_noise,
    gumbel_search,
    run_simulations,
    visit_policy,
)
from stratagem.training.targets import calibrate_heuristic, truncation_scorer

log = logging.getLogger(__name__)

__all__ = ["AlphaZeroConfig", "ReplayBuffer", "load_checkpoint", "make_batch_evaluator", "train"]


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
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                np.savez(fh, **data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise

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
    """One self-play game in progress.

    ``opponent_seat`` is the seat played by ``selfplay_opponent`` (``None``: pure self-play);
    ``history`` holds the network's stored decisions: (observation, legal actions, policy
    target, mover).
    """

    seed: int
    root: Node
    opponent_seat: int | None = None
    history: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = field(default_factory=list)
    moves: int = 0


class _Diagnostics:
    """Running figures of one self-play phase: what the log line and TensorBoard show."""

    def __init__(self, num_players: int) -> None:
        self.games = self.decided = self.cut = 0
        self.lengths: list[int] = []
        self.rounds: list[int] = []
        self.end_turn: list[float] = []
        self.kl: list[float] = []
        self.value_sum = np.zeros(num_players)
        self.value_count = 0
        self.targets: list[float] = []
        self.forced = self.searched = self.opponent_moves = 0

    def metrics(self) -> dict[str, float]:
        def mean(xs: list[float] | list[int]) -> float:
            return float(np.mean(xs)) if xs else 0.0

        out = {
            "selfplay/decided_share": self.decided / max(self.games, 1),
            "selfplay/cut_share": self.cut / max(self.games, 1),
            "selfplay/game_length": mean(self.lengths),
            "selfplay/kl_target_prior": mean(self.kl),
            "selfplay/forced_share": self.forced
            / max(self.forced + self.searched + self.opponent_moves, 1),
            "selfplay/opponent_share": self.opponent_moves
            / max(self.forced + self.searched + self.opponent_moves, 1),
        }
        if self.rounds:
            out["selfplay/game_rounds"] = mean(self.rounds)
        if self.end_turn:
            out["selfplay/end_turn_target"] = mean(self.end_turn)
        for i, v in enumerate(self.value_sum / max(self.value_count, 1)):
            out[f"selfplay/value_output_{i}"] = float(v)
        if self.targets:
            t = np.asarray(self.targets)
            out["selfplay/value_target_abs"] = float(np.abs(t).mean())
            out["selfplay/value_target_std"] = float(t.std())
        return out


def _end_turn_action(game: Game) -> int | None:
    """The flat index of the game's end-turn action, if its layout names one."""
    layout = game.spec.action_layout
    if layout is None:
        return None
    for i, name in enumerate(layout.global_actions):
        if name.replace(" ", "_").lower() == "end_turn":
            return layout.encode_global(i)
    return None


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
) -> dict[str, Any]:
    """Play ``games_per_iteration`` games into ``buffer``; returns throughput and diagnostics.

    Games run ``parallel_games`` at a time and a finished game is replaced at once, so the
    evaluation batch stays full. Decisions with one legal action and the moves of the
    curriculum opponent are applied without search and not stored.
    """
    evaluate = make_batch_evaluator(net, device)
    n = game.spec.num_players
    cap = config.max_moves or game.spec.max_game_length
    truncated = truncation_scorer(game, config.truncation_value, scale=truncation_scale)
    opponent = make_agent(config.selfplay_opponent, game) if config.opponent_share > 0 else None
    end_turn = _end_turn_action(game)
    diag = _Diagnostics(n)
    targets: list[float] = []
    to_start = [int(s) for s in rng.integers(2**31, size=config.games_per_iteration)]
    active: list[_Game] = []
    positions = evaluated = 0
    start = time.perf_counter()

    def is_cut(g: _Game) -> bool:
        if g.moves >= cap:
            return True
        if config.cut_rounds is not None:
            rounds = g.root.state.round_number()
            return rounds is not None and rounds > config.cut_rounds
        return False

    def finish(g: _Game) -> None:
        state = g.root.state
        cut = not g.root.terminal
        outcome = truncated(state) if cut else np.asarray(state.returns(), dtype=np.float64)
        for obs, actions, pol, player in g.history:
            value = None if outcome is None else np.roll(outcome, -player)
            buffer.add(obs, actions, pol, value)
            if value is not None:
                targets.append(float(value[0]))
        diag.games += 1
        diag.cut += int(cut)
        returns = state.returns()
        diag.decided += int(not cut and float(np.max(returns)) > float(np.min(returns)))
        diag.lengths.append(g.moves)
        rounds = state.round_number()
        if rounds is not None:
            diag.rounds.append(rounds)
        if bar is not None:
            bar.update(1)

    def advance(g: _Game) -> bool:
        """Play forced and opponent moves; False once the game is over (or cut)."""
        while not g.root.terminal and not is_cut(g):
            state = g.root.state
            if opponent is not None and state.current_player == g.opponent_seat:
                action = opponent.act(state.observed_by(state.current_player), rng=rng)
                diag.opponent_moves += 1
            else:
                legal = state.legal_action_list()
                if len(legal) != 1:
                    return True
                action = legal[0]
                diag.forced += 1
            state = state.clone()
            state.apply(int(action))
            g.root = Node(state)
            g.moves += 1
        finish(g)
        return False

    while to_start or active:
        while True:  # refill, and play up to the next searched decision of every game
            while to_start and len(active) < config.parallel_games:
                seed = to_start.pop(0)
                seat = None
                if opponent is not None and rng.random() < config.opponent_share:
                    seat = int(rng.integers(n))
                active.append(_Game(seed, Node(game.new_initial_state(seed)), seat))
            before = len(active)
            active = [g for g in active if advance(g)]
            if len(active) == before or not to_start:
                break
        if not active:
            break
        roots = [g.root for g in active]
        if config.algorithm == "gumbel":
            results, count = gumbel_search(
                roots,
                evaluate,
                config.simulations,
                n,
                rng=rng,
                noise=[g.moves < config.temperature_moves for g in active],
                max_considered=config.max_considered,
            )
            evaluated += count
            priors = [r.prior.copy() for r in roots]  # type: ignore[union-attr]
        else:
            evaluated += run_simulations(roots, evaluate, 0, config.c_puct, n)  # expand roots
            priors = [r.prior.copy() for r in roots]  # type: ignore[union-attr]
            for g in active:
                add_root_noise(g.root, config.dirichlet_alpha, config.dirichlet_epsilon, rng)
            evaluated += run_simulations(roots, evaluate, config.simulations, config.c_puct, n)
        still = []
        for i, g in enumerate(active):
            root = g.root
            assert root.actions is not None and root.raw_value is not None
            if config.algorithm == "gumbel":
                result = results[i]
                assert result is not None
                policy, a = result.policy, result.action_index
            else:
                temperature = 1.0 if g.moves < config.temperature_moves else 0.0
                policy = visit_policy(root, 1.0)
                choice = visit_policy(root, temperature)
                a = int(rng.choice(len(choice), p=choice))
            g.history.append(
                (root.state.observation(root.player), root.actions, policy, root.player)
            )
            diag.searched += 1
            prior = np.maximum(priors[i], 1e-12)
            nz = policy > 0
            diag.kl.append(float(np.sum(policy[nz] * np.log(policy[nz] / prior[nz]))))
            if end_turn is not None:
                hit = np.flatnonzero(root.actions == end_turn)
                diag.end_turn.append(float(policy[hit[0]]) if len(hit) else 0.0)
            diag.value_sum += np.roll(root.raw_value, -root.player)
            diag.value_count += 1
            child = root.children[a]
            if child is None or config.algorithm == "gumbel":
                # Gumbel's schedule assumes a root without visits: keep only the expansion
                state = root.state.clone() if child is None else child.state
                if child is None:
                    state.apply(int(root.actions[a]))
                fresh = Node(state)
                if child is not None and child.expanded:
                    assert child.actions is not None and child.prior is not None
                    assert child.raw_value is not None
                    fresh.expand(child.actions, child.prior, n, child.raw_value)
                child = fresh
            g.root = child
            g.moves += 1
            positions += 1
            if child.terminal or is_cut(g):
                finish(g)
            else:
                still.append(g)
        active = still
    seconds = time.perf_counter() - start
    diag.targets = targets
    metrics: dict[str, Any] = {
        "selfplay/positions_per_s": positions / seconds,
        "selfplay/leaf_evals_per_s": evaluated / seconds,
        "selfplay/games": float(diag.games),
        "selfplay/positions": float(positions),
        "selfplay/seconds": seconds,
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
    """Load a checkpoint written by :func:`train` (raises ``ValueError`` if it is not one).

    Checkpoints hold tensors and plain Python values only and are read with
    ``torch.load(weights_only=True)``: a crafted file cannot run code. (The replay buffer lives
    beside it in a pickle-free ``.npz``.)
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no checkpoint at {path}")
    try:
        data = torch.load(path, map_location=device, weights_only=True)
    except Exception as exc:  # torch raises many kinds for a file that is not a checkpoint
        raise ValueError(
            f"{path} is not a stratagem AlphaZero checkpoint this version can read safely ({exc})"
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


def _architecture(cfg: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(
        cfg.get(k) for k in ("preset", "blocks", "filters", "global_pooling", "symmetric_value")
    )


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
    config_dict = dataclasses.asdict(config)
    net = network_from_config(spec, config_dict).to(device)
    optimizer = torch.optim.AdamW(net.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    buffer = ReplayBuffer(config.replay_size, spec.observation_shape, spec.num_players)
    iteration, phase = 0, "selfplay"
    previous: dict[str, Any] | None = None
    calibration: dict[str, float] | None = None
    buffer_file: str | None = None
    cpu_total = 0.0
    if config.resume and ckpt_path.exists():
        data = load_checkpoint(ckpt_path, device="cpu")
        if data["game"] != config.game or data["game_config"] != full_game_config:
            raise ValueError(
                f"{ckpt_path} is a checkpoint of {data['game']} "
                f"{data['game_config']}, not {config.game} {full_game_config}"
            )
        if _architecture(data["config"]) != _architecture(config_dict):
            raise ValueError(f"{ckpt_path} holds a network of another architecture or size")
        net.load_state_dict(data["network"])
        optimizer.load_state_dict(data["optimizer"])
        buffer_file = data.get("buffer_file")
        if buffer_file:
            buffer.load(out / buffer_file)
        iteration, phase = data["iteration"], data["phase"]
        previous = data.get("previous_network")
        calibration = data.get("calibration")
        cpu_total = float(data.get("cpu_seconds", 0.0))
        _rng_restore(rng, data["rng"])
    (out / "config.toml").write_text(config_to_toml(config))
    logger = TensorBoardLogger(out if config.tensorboard else None)
    cuts = config.max_moves is not None or config.cut_rounds is not None
    if config.truncation_value == "calibrated" and cuts and calibration is None:
        calibration = calibrate_heuristic(game, config.calibration_games, config.seed)
        log.info("calibrated the heuristic on %d games: %s", config.calibration_games, calibration)
    scale = calibration["scale"] if calibration else 1.0
    cpu_mark = time.process_time()

    def save(next_phase: str) -> None:
        nonlocal buffer_file, cpu_mark, cpu_total
        old = buffer_file
        if next_phase == "train":  # the buffer changes in self-play only: write it once then
            buffer_file = f"buffer-{iteration:05d}.npz"
            buffer.save(out / buffer_file)
        now = time.process_time()
        cpu_total += now - cpu_mark
        cpu_mark = now
        atomic_torch_save(
            {
                "kind": "stratagem-alphazero",
                "game": config.game,
                "game_config": full_game_config,
                "config": config_dict,
                "network": net.state_dict(),
                "optimizer": optimizer.state_dict(),
                "buffer_file": buffer_file,
                "iteration": iteration,
                "phase": next_phase,
                "previous_network": previous,
                "calibration": calibration,
                "cpu_seconds": cpu_total,
                "rng": _rng_snapshot(rng),
            },
            ckpt_path,
        )
        if old and old != buffer_file and (out / old).exists():
            (out / old).unlink()

    metrics: dict[str, Any] = {}
    while iteration < config.iterations:
        if phase == "selfplay":
            with ProgressBar(
                config.games_per_iteration, f"iter {iteration + 1} self-play", config.progress
            ) as bar:
                metrics = self_play(
                    game, net, config, device, rng, buffer, bar, truncation_scale=scale
                )
            phase = "train"
            save("train")
        metrics.update(train_network(net, optimizer, buffer, config, spec.action_size, device, rng))
        iteration += 1
        if config.eval_every and iteration % config.eval_every == 0 and config.eval_games:
            metrics.update(_evaluate(game, net, config, device, rng, previous))
            previous = {k: v.detach().cpu().clone() for k, v in net.state_dict().items()}
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
        },
        out / "final.pt",
    )
    logger.close()
    return {k: v for k, v in metrics.items() if not k.startswith("histogram/")}


def _evaluate(
    game: Game,
    net: PolicyValueNet,
    config: AlphaZeroConfig,
    device: torch.device,
    rng: np.random.Generator,
    previous: dict[str, Any] | None,
) -> dict[str, float]:
    """The evaluation ladder: score (draws half) and its standard error against each opponent."""
    from stratagem.training.agents import AlphaZeroAgent

    def agent_of(network: PolicyValueNet) -> AlphaZeroAgent:
        return AlphaZeroAgent.from_network(
            game,
            network,
            device,
            simulations=config.eval_simulations,
            c_puct=config.c_puct,
            algorithm=config.algorithm,
            max_considered=config.max_considered,
        )

    agent = agent_of(net)
    results: dict[str, float] = {}
    seed = int(rng.integers(2**31))
    for opponent in config.evaluation_ladder():
        if opponent == "previous":
            if previous is None:
                continue
            old = network_from_config(game.spec, dataclasses.asdict(config)).to(device)
            old.load_state_dict(previous)
            opp: Any = agent_of(old)
        else:
            opp = opponent
        score = evaluate_agent(game, agent, opp, config.eval_games, seed)
        results[f"eval/{opponent}/score"] = score["score"]
        results[f"eval/{opponent}/se"] = score["se"]
        results[f"eval/{opponent}/win_rate"] = score["win_rate"]
        results[f"eval/{opponent}/loss_rate"] = score["loss_rate"]
    return results


def config_to_toml(config: Any) -> str:
    """Write a config dataclass as TOML (``None`` fields are left out)."""
    from stratagem.training.common import to_toml

    return to_toml(dataclasses.asdict(config))
