"""Self-play positions per CPU-second: the scalar engine against the batched one, alternately.

Both engines play the same games (the same seeds and the same untrained tiny network, Gumbel
search) of Push Them All on the SCSA maps, ``--parallel`` at a time, one torch thread, timed in
CPU time, alternating engines for ``--rounds`` rounds so that the machine's load falls on both
alike. Games are cut after 40 rounds (value target ``draw``) so that a run takes seconds.

On CUDA (``--device cuda``) the batched engine plays with the games, trees and network on the
GPU and is timed in wall time (after ``torch.cuda.synchronize``); the scalar engine, whose games
and trees live in Python, is left out unless asked for (``--engines scalar,batched``: its network
then runs on the GPU too).

Usage::

    nice -n 10 python3 benchmarks/selfplay_engines.py --parallel 64 --games 64 --rounds 2
    python3 benchmarks/selfplay_engines.py --device cuda --engines batched --parallel 4096 \
        --games 4096 --simulations 32 --network small
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
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--engines", default=None, help="scalar,batched (CUDA: batched only)")
    parser.add_argument("--network", default="tiny", help="network preset")
    parser.add_argument(
        "--cuda-graphs", action="store_true", help="replay the forward passes from CUDA graphs"
    )
    args = parser.parse_args()
    engines = (args.engines or ("batched" if args.device == "cuda" else "scalar,batched")).split(
        ","
    )
    if not set(engines) <= {"scalar", "batched"}:
        parser.error(f"--engines takes scalar and batched, got {args.engines!r}")
    torch.set_num_threads(1)
    game_config = {"map": "pta"}
    game = make_game("push_them_all", **game_config)
    torch.manual_seed(0)
    device = torch.device(args.device)
    net = build_network(game.spec, args.network, global_pooling=True, symmetric_value=True)
    net = net.to(device)
    config = AlphaZeroConfig(
        game="push_them_all",
        game_config=game_config,
        simulations=args.simulations,
        cut_rounds=40,
        truncation_value="draw",
        cuda_graphs=args.cuda_graphs,
    )
    clock = time.process_time
    if device.type == "cuda":

        def clock() -> float:
            torch.cuda.synchronize(device)
            return time.perf_counter()

    for round_ in range(args.rounds):
        for name in engines:
            common = {
                "parallel": args.parallel,
                "truncation_scale": 1.0,
                "on_finish": lambda _done: None,
            }
            rng = np.random.default_rng(round_)
            player: GamePlayer | BatchedGamePlayer
            if name == "scalar":
                evaluate = make_batch_evaluator(net, device, graphs=args.cuda_graphs)
                player = GamePlayer(game, config, rng, evaluate, **common)
            else:
                player = BatchedGamePlayer(game, config, rng, net, device, **common)
            start = clock()
            player.play([(i, 1000 * round_ + i) for i in range(args.games)])
            used = clock() - start
            diag = player.diag
            unit = "CPU-s" if device.type == "cpu" else "s"
            print(
                f"round {round_} {name:8s} positions {diag.positions:6d}  {unit} {used:6.1f}  "
                f"{diag.positions / used:7.1f} positions/{unit}  "
                f"{diag.evaluated / used:7.0f} leaf evaluations/{unit}",
                flush=True,
            )


if __name__ == "__main__":
    main()
