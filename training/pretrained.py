"""Networks trained by stratagem and shipped with the package: ``checkpoint=pretrained``.

``alphazero:checkpoint=pretrained`` plays the network shipped for the game being played (Push
Them All, Kill The King and Two Kingdoms). Each file is a checkpoint (``best.pt`` or
``final.pt``) of a training run on docs/results/training.md, which gives the command that made
it, stored as ``pretrained_nets/<game>[-<variant>].pt``. Networks with
global pooling and a spatial policy head have no weight tied to the board's size, so one file
plays every board of its game; when a game ships several, the first that fits the board is used.
"""

from __future__ import annotations

from pathlib import Path

from stratagem.envs.core import Game

__all__ = ["PRETRAINED_DIR", "pretrained_path", "shipped_games"]

#: Folder of the shipped networks (package data).
PRETRAINED_DIR = Path(__file__).parent / "pretrained_nets"


def shipped_games() -> list[str]:
    """Names of the games a network ships for."""
    return sorted({p.stem.split("-")[0] for p in PRETRAINED_DIR.glob("*.pt")})


def pretrained_path(game: Game, *, option: str = "checkpoint=PATH") -> Path:
    """The shipped network that plays ``game`` (its board and configuration).

    Args:
        game: The game and board to play.
        option: How the caller's user names a file instead (``checkpoint=PATH`` in an agent
            spec, ``--init-network PATH`` for training), for the error's advice.

    Raises:
        ValueError: Naming the games that have one, when none ships for this game or none of
            this game's fits the configuration's observation and action shapes.
    """
    from stratagem.training.alphazero import load_checkpoint, network_from_config

    name = game.spec.name
    candidates = sorted(PRETRAINED_DIR.glob(f"{name}.pt")) + sorted(
        PRETRAINED_DIR.glob(f"{name}-*.pt")
    )
    if not candidates:
        shipped = ", ".join(shipped_games()) or "none"
        raise ValueError(
            f"no pretrained network ships for {name}; games with one: {shipped} "
            f"(train one with 'stratagem train alphazero' and pass {option})"
        )
    for path in candidates:
        data = load_checkpoint(path)
        if data["game"] != name:
            continue
        net = network_from_config(game.spec, data["config"])
        try:
            net.load_state_dict(data["network"])
        except RuntimeError:
            continue
        return path
    raise ValueError(
        f"the pretrained networks of {name} ({', '.join(p.name for p in candidates)}) do not fit "
        f"the configuration {dict(game.spec.config)} (observation or action shapes differ)"
    )
