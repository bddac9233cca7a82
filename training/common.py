"""Pieces shared by the training algorithms: devices, checkpoints, logging, configs, evaluation."""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
import types
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import tomli_w
import torch

from stratagem.envs import cli_options
from stratagem.envs.core import Game

__all__ = [
    "ProgressBar",
    "TensorBoardLogger",
    "atomic_torch_save",
    "atomic_write",
    "config_from_mapping",
    "evaluate_agent",
    "finished_run_message",
    "load_toml",
    "resolve_device",
    "to_toml",
]


def resolve_device(name: str) -> torch.device:
    """``auto`` → CUDA when available else CPU; ``cuda`` without a GPU is an error.

    Raises:
        ValueError: For an unknown device name or CUDA requested on a machine without it.
    """
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cpu":
        return torch.device("cpu")
    if name == "cuda" or name.startswith("cuda:"):
        if not torch.cuda.is_available():
            raise ValueError(
                f"device {name!r} asked for, but torch sees no CUDA GPU "
                f"(torch {torch.__version__}); use --device cpu or auto"
            )
        return torch.device(name)
    raise ValueError(f"unknown device {name!r}; use auto, cpu or cuda")


def atomic_write(path: str | os.PathLike, write: Callable[[BinaryIO], Any]) -> None:
    """Call ``write(file)`` on a temporary file in the same folder, then rename it to ``path``.

    A crash mid-write leaves the previous file intact: the rename is atomic. Every file a run
    keeps (checkpoints, replay buffers, PPO models and snapshots) is written through here.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_torch_save(obj: Any, path: str | os.PathLike) -> None:
    """``torch.save`` through :func:`atomic_write`."""
    atomic_write(path, lambda fh: torch.save(obj, fh))


class ProgressBar:
    """A tqdm bar that can be switched off (tests, logs); use as a context manager."""

    def __init__(self, total: int, desc: str, enabled: bool = True) -> None:
        self._bar = None
        if enabled:
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc=desc, leave=False)

    def update(self, n: int = 1) -> None:
        """Advance the bar."""
        if self._bar is not None:
            self._bar.update(n)

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.close()


class TensorBoardLogger:
    """Scalars to TensorBoard (``tensorboard --logdir <out_dir>``); a no-op without a folder."""

    def __init__(self, log_dir: str | os.PathLike | None) -> None:
        self._writer = None
        if log_dir is not None:
            from torch.utils.tensorboard import SummaryWriter

            self._writer = SummaryWriter(log_dir=str(log_dir))

    def log(self, metrics: Mapping[str, Any], step: int) -> None:
        """Write every float/int metric at ``step``, and arrays as histograms."""
        if self._writer is None:
            return
        for key, value in metrics.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                self._writer.add_scalar(key, value, step)
            elif isinstance(value, np.ndarray) and value.size:
                self._writer.add_histogram(key.removeprefix("histogram/"), value, step)
        self._writer.flush()

    def close(self) -> None:
        """Flush and close the log."""
        if self._writer is not None:
            self._writer.close()


def evaluate_agent(
    game: Game,
    agent: Any,
    opponent: Any,
    games: int,
    seed: int,
    records: list[dict[str, Any]] | None = None,
) -> dict[str, float]:
    """Play ``agent`` against ``opponent`` (agent or spec), alternating seats; rates for agent.

    Args:
        game: The game.
        agent: The agent evaluated (an object).
        opponent: Its opponent in every other seat (an agent or an agent spec).
        games: Games to play; game ``g`` puts the agent in seat ``g % players``.
        seed: Seed of the first game (game ``g`` uses ``seed + g``).
        records: When given, one record per game is appended (game, configuration, seed, seat
            names, returns, actions): what ``stratagem replay`` and ``stratagem view`` need to
            replay it exactly.

    Returns:
        ``win_rate``, ``draw_rate``, ``loss_rate``, ``score`` (draws count half), ``se`` (the
        standard error of the score) and ``games``.
    """
    from stratagem.baselines.agent import make_agent
    from stratagem.baselines.match import play_game

    opp = make_agent(opponent, game)
    opponent_name = opponent if isinstance(opponent, str) else getattr(opp, "name", "opponent")
    n = game.spec.num_players
    wins = draws = losses = 0
    for g in range(games):
        seat = g % n
        players = [opp] * n
        players[seat] = agent
        actions: list[int] = []
        state = play_game(game, players, seed=seed + g, verbose=False, actions=actions)
        returns = state.returns()
        if records is not None:
            records.append(
                {
                    "game": game.spec.name,
                    "config": dict(game.spec.config),
                    "seed": seed + g,
                    "names": ["trained network" if p is agent else opponent_name for p in players],
                    "returns": [float(r) for r in returns],
                    "truncated": False,
                    "rules_version": game.spec.version,
                    "actions": actions,
                }
            )
        mine, best_other = returns[seat], max(np.delete(returns, seat))
        if mine > best_other:
            wins += 1
        elif mine < best_other:
            losses += 1
        else:
            draws += 1
    total = max(games, 1)
    score = (wins + 0.5 * draws) / total
    variance = (wins + 0.25 * draws) / total - score**2
    return {
        "win_rate": wins / total,
        "draw_rate": draws / total,
        "loss_rate": losses / total,
        "score": score,
        "se": float(np.sqrt(max(variance, 0.0) / total)),
        "games": float(games),
    }


def finished_run_message(
    out: Path, game: str, done: int, wanted: int, unit: str, option: str, result: str
) -> str:
    """What to tell a user who resumes a run that has nothing left to do.

    Rerunning a finished training command resumes it, and a resumed run that is complete
    trains nothing; said this way the rerun is not mistaken for a run that silently did
    nothing, and the user learns where the results are and how to go on.

    Args:
        out: The run's folder.
        game: The game it trained on.
        done: Iterations or timesteps done.
        wanted: What the configuration asks for.
        unit: ``iterations`` or ``timesteps``.
        option: The command-line option that sets ``wanted`` (``--iterations``).
        result: The file holding the trained network (``final.pt``).
    """
    return (
        f"{out} already holds a finished {game} run ({unit} done: {done:,} of the {wanted:,} "
        f"asked for), so there is nothing to train. The trained network is {out / result} "
        f"(config.toml and the checkpoint beside it); raise {option} to train it further, or "
        "give another --out-dir (or --no-resume) to start a new run."
    )


def write_game_records(path: Path, games: list[dict[str, Any]], **fields: Any) -> None:
    """Write evaluation games (:func:`evaluate_agent`'s records) as JSON Lines, atomically.

    ``fields`` are added to every record (the iteration, say); ``stratagem replay`` and
    ``stratagem view`` read the file like a tournament's results.
    """
    text = "".join(json.dumps({**g, **fields}) + "\n" for g in games)
    atomic_write(path, lambda fh: fh.write(text.encode("utf-8")))


def to_toml(data: Mapping[str, Any]) -> str:
    """TOML text of a config dictionary (``None`` values are left out, TOML has no null)."""
    return tomli_w.dumps({k: v for k, v in data.items() if v is not None})


def load_toml(path: str | os.PathLike) -> dict[str, Any]:
    """Read a training config file, with a clear error for a missing or malformed one."""
    return cli_options.load_toml(path, "config file")


def config_from_mapping(cls: type, data: Mapping[str, Any]) -> Any:
    """Build config dataclass ``cls`` from a mapping, rejecting unknown keys and bad types."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise ValueError(
            f"unknown {cls.__name__} option(s): {', '.join(unknown)}; valid: {', '.join(fields)}"
        )
    hints = typing.get_type_hints(cls)
    values = {}
    for key, value in data.items():
        values[key] = _coerce(key, value, hints[key])
    return cls(**values)


def _coerce(key: str, value: Any, hint: Any) -> Any:
    """Check ``value`` against a simple type hint (int, float, str, bool, list, dict, Optional)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(hint)
        if value is None and type(None) in args:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _coerce(key, value, arg)
            except ValueError:
                continue
        raise ValueError(f"option {key}: {value!r} is not of type {hint}")
    base = origin or hint
    if base is bool:
        if isinstance(value, bool):
            return value
    elif base is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif base is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif base is str:
        if isinstance(value, str):
            return value
    elif base is list:
        if isinstance(value, (list, tuple)):
            return list(value)
        if isinstance(value, str):  # lists of agent specs: "mcts:budget=500,c=1,random"
            from stratagem.baselines.tournament import split_agent_list

            return split_agent_list(value)
    elif base is dict:
        if isinstance(value, Mapping):
            return dict(value)
    else:  # pragma: no cover - no other field types in our configs
        return value
    raise ValueError(f"option {key}: {value!r} is not of type {getattr(base, '__name__', base)}")
