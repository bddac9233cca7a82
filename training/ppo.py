"""Masked PPO with a self-play opponent pool, in one readable file.

``stratagem train ppo <game>`` or ``train(PPOConfig(...))``: sb3-contrib's ``MaskablePPO`` on the
Gymnasium single-agent view (:class:`stratagem.wrappers.gym_env.SingleAgentEnv`). The opponent
plays *inside* the environment, so every transition is seen from the learner's side only. At
every episode the opponent is drawn from a pool: the baselines named in ``opponents`` and the
``pool_size`` most recent snapshots of the learner itself (saved every ``snapshot_every`` steps).
Illegal actions are masked both in training and at prediction time.

Outputs in ``out_dir``: ``model.zip`` (final policy, usable as ``ppo:model=<out_dir>/model.zip``),
``checkpoint.zip`` + ``checkpoint.json`` (resume point, written atomically), ``pool/`` (the
snapshots), ``config.toml`` and TensorBoard logs.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from stable_baselines3.common.logger import Logger
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from stratagem.baselines.agent import BaseAgent, make_agent
from stratagem.envs.core import Game, State
from stratagem.envs.registry import make_game
from stratagem.training.common import (
    atomic_write,
    evaluate_agent,
    finished_run_message,
    resolve_device,
    to_toml,
    write_game_records,
)
from stratagem.training.config import PPOConfig

log = logging.getLogger(__name__)

__all__ = ["BoardExtractor", "OpponentPool", "PPOConfig", "completed_run", "train"]


class BoardExtractor(BaseFeaturesExtractor):
    """Two 3×3 convolutions over the ``H × W × C`` planes, then a linear layer.

    Args:
        observation_space: The game's observation box.
        features: Output width.
        filters: Channels of both convolutions.
    """

    def __init__(
        self, observation_space: gym.spaces.Box, features: int = 256, filters: int = 32
    ) -> None:
        super().__init__(observation_space, features)
        height, width, channels = observation_space.shape
        self.cnn = nn.Sequential(
            nn.Conv2d(channels, filters, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(filters, filters, 3, padding=1),
            nn.ReLU(),
            nn.Flatten(),
        )
        self.linear = nn.Sequential(nn.Linear(filters * height * width, features), nn.ReLU())

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        """Features of a batch of ``(B, H, W, C)`` observations."""
        return self.linear(self.cnn(obs.permute(0, 3, 1, 2)))


class OpponentPool(BaseAgent):
    """The in-environment opponent: a fresh draw from baselines and learner snapshots per game.

    Snapshots are read from ``pool_dir`` at every draw, so environments in other processes see
    new snapshots as soon as the trainer writes them; loaded models are cached.
    """

    name = "pool"

    def __init__(
        self, game: Game, opponents: list[str], pool_dir: str, pool_size: int, seed: int
    ) -> None:
        self.game = game
        self.baselines = [make_agent(spec, game) for spec in opponents]
        self.pool_dir = Path(pool_dir)
        self.pool_size = pool_size
        self.rng = np.random.default_rng(seed)
        self._cache: dict[str, Any] = {}
        self.current: Any = self.baselines[0] if self.baselines else None

    def reset(self) -> None:
        """Draw the opponent of the next game."""
        snapshots = (
            sorted(self.pool_dir.glob("snapshot_*.zip"))[-self.pool_size :]
            if self.pool_size
            else []
        )
        choices: list[Any] = list(self.baselines) + [str(p) for p in snapshots]
        pick = choices[int(self.rng.integers(len(choices)))]
        if isinstance(pick, str):
            if pick not in self._cache:
                from stratagem.training.agents import PPOAgent

                try:
                    self._cache[pick] = PPOAgent(self.game, model=pick, deterministic=False)
                except Exception as exc:  # a snapshot torn by an older version: skip it
                    log.warning("skipping unreadable opponent snapshot %s (%s)", pick, exc)
                    self._cache[pick] = self.baselines[0] if self.baselines else None
            pick = self._cache[pick]
            if pick is None:  # nothing else to play: the pool is only unreadable snapshots
                raise ValueError(f"no readable opponent in {self.pool_dir}")
        self.current = pick
        self.current.reset()

    def act(self, state: State, *, rng: np.random.Generator) -> int:
        """The drawn opponent's action."""
        return self.current.act(state, rng=rng)


def _make_env(config: PPOConfig, rank: int, pool_dir: str, shaping_scale: float) -> Any:
    def thunk() -> gym.Env:
        from sb3_contrib.common.wrappers import ActionMasker
        from stable_baselines3.common.monitor import Monitor

        from stratagem.wrappers.gym_env import SingleAgentEnv

        if config.threads is not None:  # snapshot opponents run torch in this process
            torch.set_num_threads(config.threads)
        game = make_game(config.game, **config.game_config)
        pool = OpponentPool(
            game, config.opponents, pool_dir, config.pool_size, seed=config.seed * 1000 + rank
        )
        seat: Any = config.seat if config.seat == "random" else int(config.seat)
        env: gym.Env = SingleAgentEnv(config.game, opponent=pool, seat=seat, **config.game_config)
        # episode outcome and length in the logs (rollout/ep_rew_mean): the game's reward, seen
        # before any shaping is added
        env = Monitor(env)
        if config.shaping:
            from stratagem.baselines.evaluators import make_evaluator
            from stratagem.training.targets import CalibratedEvaluator
            from stratagem.wrappers.shaping import PotentialShaping

            potential = CalibratedEvaluator(
                make_evaluator(config.shaping_evaluator, game), shaping_scale
            )
            env = PotentialShaping(
                env, weight=config.shaping, gamma=config.gamma, evaluator=potential
            )
        env.reset(seed=config.seed * 1000 + rank)
        return ActionMasker(env, lambda e: e.unwrapped.action_masks().astype(bool))

    return thunk


def _atomic_save(model: Any, path: Path) -> None:
    """Save ``model`` to ``path`` through a temporary file: a kill never leaves a torn zip."""
    atomic_write(path, model.save)


def _atomic_model_save(model: Any, path: Path, meta: dict[str, Any]) -> None:
    _atomic_save(model, path)
    atomic_write(path.with_suffix(".json"), lambda fh: fh.write(json.dumps(meta).encode()))


def completed_run(config: PPOConfig) -> str | None:
    """Why resuming ``config`` would train nothing, or ``None`` when it has work to do.

    A run whose checkpoint in ``out_dir`` has ``config.total_timesteps`` already would be
    resumed only to evaluate its model again: the command line says that the run is finished
    instead (how many timesteps, where the model and its results are, how to go on). A
    checkpoint of another game or configuration is not a finished run of this one:
    :func:`train` refuses it.
    """
    out = Path(config.out_dir)
    meta_path = out / "checkpoint.json"
    if not config.resume or not (out / "checkpoint.zip").is_file() or not meta_path.is_file():
        return None
    if not (out / "model.zip").is_file() or not (out / "results.json").is_file():
        return None  # stopped before its final model and evaluation: resuming writes them
    meta = json.loads(meta_path.read_text())
    full_game_config = dict(make_game(config.game, **config.game_config).spec.config)
    if meta.get("game") != config.game or meta.get("game_config") != full_game_config:
        return None
    done = int(meta.get("timesteps", 0))
    if done < config.total_timesteps:
        return None
    return (
        finished_run_message(
            out,
            config.game,
            done,
            config.total_timesteps,
            "timesteps",
            "--total-timesteps",
            "model.zip",
        )
        + f" Its evaluation is in {out / 'results.json'}."
    )


def train(config: PPOConfig) -> dict[str, Any]:
    """Train (or resume) masked PPO with self-play; returns evaluation results and throughput.

    Raises:
        ValueError: For a bad configuration or a checkpoint of another game, before any work.
    """
    config.validate()
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from stratagem.training.agents import PPOAgent

    device = resolve_device(config.device)
    if config.threads is not None:
        torch.set_num_threads(config.threads)
    out = Path(config.out_dir)
    game = make_game(config.game, **config.game_config)
    full_game_config = dict(game.spec.config)  # every option, defaults included
    ckpt = out / "checkpoint.zip"
    resuming = config.resume and ckpt.exists()
    if resuming:
        meta = json.loads(ckpt.with_suffix(".json").read_text())
        if meta["game"] != config.game or meta["game_config"] != full_game_config:
            raise ValueError(
                f"{ckpt} is a checkpoint of {meta['game']} {meta['game_config']}, "
                f"not {config.game} {full_game_config}"
            )
    pool_dir = out / "pool"
    pool_dir.mkdir(parents=True, exist_ok=True)
    (out / "config.toml").write_text(to_toml(asdict(config)))
    scale = 1.0
    if config.shaping:
        from stratagem.training.targets import calibrate_heuristic

        calibration = calibrate_heuristic(
            game, config.calibration_games, config.seed, evaluator=config.shaping_evaluator
        )
        scale = calibration["scale"]
        log.info(
            "shaping potential calibrated on %d games: %s", config.calibration_games, calibration
        )
    env_fns = [_make_env(config, rank, str(pool_dir), scale) for rank in range(config.n_envs)]
    vec = SubprocVecEnv(env_fns) if config.vec_env == "subproc" else DummyVecEnv(env_fns)
    log_dir = str(out) if config.tensorboard else None
    if resuming:
        model = MaskablePPO.load(str(ckpt), env=vec, device=device, tensorboard_log=log_dir)
    else:
        model = MaskablePPO(
            "MlpPolicy",
            vec,
            n_steps=config.n_steps,
            batch_size=config.batch_size,
            n_epochs=config.n_epochs,
            learning_rate=config.learning_rate,
            gamma=config.gamma,
            gae_lambda=config.gae_lambda,
            ent_coef=config.ent_coef,
            clip_range=config.clip_range,
            policy_kwargs={
                "features_extractor_class": BoardExtractor,
                "features_extractor_kwargs": {
                    "features": config.features,
                    "filters": config.filters,
                },
                "net_arch": [],
            },
            seed=config.seed,
            device=device,
            tensorboard_log=log_dir,
            verbose=0,
        )
    if log_dir is None:
        # Without a log folder SB3 makes an empty SB3-<date> folder in the system's temporary
        # folder at every learn(); a logger of our own writes nothing and makes none.
        model.set_logger(Logger(folder=None, output_formats=[]))

    class Snapshots(BaseCallback):
        """Every ``snapshot_every`` steps: a pool snapshot and a resumable checkpoint."""

        def __init__(self) -> None:
            super().__init__()
            self.next = (model.num_timesteps // config.snapshot_every + 1) * config.snapshot_every

        def _on_rollout_end(self) -> None:
            # one line per rollout even without a progress bar: the log of a background run
            infos = list(self.model.ep_info_buffer or [])
            episodes = (
                "episode reward {:.3f}, length {:.1f}".format(
                    float(np.mean([i["r"] for i in infos])),
                    float(np.mean([i["l"] for i in infos])),
                )
                if infos
                else "no episode ended yet"  # not "nan": nothing went wrong
            )
            elapsed = time.perf_counter() - start
            log.info(
                "ppo %d/%d steps: %s, %.1f steps/s",
                self.num_timesteps,
                config.total_timesteps,
                episodes,
                (self.num_timesteps - done_before) / max(elapsed, 1e-9),
            )

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next:
                self.next += config.snapshot_every
                if config.pool_size:
                    name = f"snapshot_{self.num_timesteps:010d}.zip"
                    _atomic_save(self.model, pool_dir / name)
                _atomic_model_save(
                    self.model,
                    ckpt,
                    {
                        "game": config.game,
                        "game_config": full_game_config,
                        "timesteps": self.num_timesteps,
                    },
                )
            return True

    remaining = max(0, config.total_timesteps - model.num_timesteps)
    start, done_before = time.perf_counter(), model.num_timesteps
    if remaining:
        model.learn(
            remaining,
            callback=Snapshots(),
            reset_num_timesteps=False,
            progress_bar=config.progress,
            tb_log_name="ppo",
        )
    seconds = time.perf_counter() - start
    _atomic_model_save(
        model,
        ckpt,
        {"game": config.game, "game_config": full_game_config, "timesteps": model.num_timesteps},
    )
    model.save(str(out / "model"))
    vec.close()
    results: dict[str, Any] = {
        "timesteps": model.num_timesteps,
        "steps_per_s": (model.num_timesteps - done_before) / seconds if seconds > 0 else 0.0,
    }
    agent = PPOAgent(game, model=str(out / "model.zip"), device="cpu")
    games: list[dict[str, Any]] = []
    for spec in config.eval_opponents if config.eval_games else []:
        mine: list[dict[str, Any]] = []
        score = evaluate_agent(
            game, agent, spec, config.eval_games, seed=config.seed + 7919, records=mine
        )
        games.extend({**r, "opponent": spec} for r in mine)
        results[f"eval/{spec}/score"] = score["score"]
        results[f"eval/{spec}/se"] = score["se"]
        results[f"eval/{spec}/win_rate"] = score["win_rate"]
        results[f"eval/{spec}/loss_rate"] = score["loss_rate"]
    if games:  # the evaluation's games, for stratagem replay/view
        write_game_records(out / "eval.jsonl", games, timesteps=model.num_timesteps)
    (out / "results.json").write_text(json.dumps(results, indent=2))
    return results
