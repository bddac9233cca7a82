"""Write the untrained network of a training configuration: the control of a learning claim.

    python3 benchmarks/training/untrained_checkpoint.py push_them_all -c map=pta \
        --out runs/untrained_pta.pt

The file is a checkpoint like ``final.pt`` (same architecture options as ``stratagem train
alphazero`` would use with these flags) holding the network as initialised with ``--seed``, so
``alphazero:checkpoint=runs/untrained_pta.pt`` plays the same search with no training.
"""

from __future__ import annotations

import argparse
import dataclasses

import torch

from stratagem.envs import make_game
from stratagem.envs.cli_options import parse_config
from stratagem.training.alphazero import network_from_config
from stratagem.training.config import AlphaZeroConfig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("-c", "--game-option", action="append", metavar="KEY=VALUE")
    parser.add_argument("--preset", default="tiny")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    config = AlphaZeroConfig(
        game=args.game, game_config=parse_config(args.game_option), preset=args.preset
    )
    game = make_game(config.game, **config.game_config)
    torch.manual_seed(args.seed)
    net = network_from_config(game.spec, dataclasses.asdict(config))
    torch.save(
        {
            "kind": "stratagem-alphazero",
            "game": config.game,
            "game_config": dict(game.spec.config),
            "config": dataclasses.asdict(config),
            "network": net.state_dict(),
            "iteration": 0,
            "phase": "done",
        },
        args.out,
    )


if __name__ == "__main__":
    main()
