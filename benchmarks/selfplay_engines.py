"""Self-play positions per CPU-second: the scalar engine against the batched one, alternately.

Both engines play the same games (the same seeds and the same untrained tiny network, Gumbel
search) of Push Them All on the SCSA maps, ``--parallel`` at a time, one torch thread, timed in
CPU time, alternating engines for ``--rounds`` rounds so that the machine's load falls on both
alike. Games are cut after 40 rounds (value target ``draw``) so that a run takes seconds.

Usage::

    nice -n 10 python3 benchmarks/selfplay_engines.py --parallel 64 --games 64 --rounds 2
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from stratagem.envs.registry import make_game
from stratagem.training.actors import GamePlayer
from stratagem.training.alphazero import make_batch_evaluator
from stratagem.training.batched_selfplay import BatchedGamePlayer
from stratagem.training.config import AlphaZeroConfig
from stratagem.training.networks import build_network


def main() -> None:
    """Parse the options, play the rounds and print one line per engine and round."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parallel", type=int, default=64, help="games played together")
    parser.add_argument("--games", type=int, default=64, help="games per engine and round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=16)
    args = parser.parse_args()
    torch.set_num_threads(1)
    game_config = {"map": "pta"}
    game = make_game("push_them_all", **game_config)
    torch.manual_seed(0)
    net = build_network(game.spec, "tiny", global_pooling=True, symmetric_value=True)
    config = AlphaZeroConfig(
        game="push_them_all",
        game_config=game_config,
        simulations=args.simulations,
        cut_rounds=40,
        truncation_value="draw",
    )
    device = torch.device("cpu")
    for round_ in range(args.rounds):
        for name in ("scalar", "batched"):
            common = {
                "parallel": args.parallel,
                "truncation_scale": 1.0,
                "on_finish": lambda _done: None,
            }
            rng = np.random.default_rng(round_)
            player: GamePlayer | BatchedGamePlayer
            if name == "scalar":
                player = GamePlayer(game, config, rng, make_batch_evaluator(net, device), **common)
            else:
                player = BatchedGamePlayer(game, config, rng, net, device, **common)
            start = time.process_time()
            player.play([(i, 1000 * round_ + i) for i in range(args.games)])
            cpu = time.process_time() - start
            diag = player.diag
            print(
                f"round {round_} {name:8s} positions {diag.positions:6d}  CPU {cpu:6.1f} s  "
                f"{diag.positions / cpu:7.1f} positions/CPU-s  "
                f"{diag.evaluated / cpu:7.0f} leaf evaluations/CPU-s",
                flush=True,
            )


if __name__ == "__main__":
    main()
