"""Leaf evaluation throughput of the AlphaZero network: one position at a time vs in batches.

Batched leaf evaluation is what makes self-play pay on a GPU; this measures it on any device:

    python3 benchmarks/alphazero_batching.py kill_the_king -c map=kwah --preset tiny --device auto

Prints positions/s for each batch size and the speed-up over batch 1, and writes JSON.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch

from stratagem.envs.cli_options import parse_config
from stratagem.envs.registry import make_game
from stratagem.training.alphazero import make_batch_evaluator
from stratagem.training.common import resolve_device
from stratagem.training.networks import build_network


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("-c", "--config", action="append")
    parser.add_argument("--preset", default="tiny")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--batches", default="1,4,16,64,256")
    parser.add_argument(
        "--plain",
        action="store_true",
        help="the network without global pooling and with one value per player (the trainer's "
        "configs turn both on)",
    )
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument(
        "--cuda-graphs",
        action="store_true",
        help="replay the forward passes from CUDA graphs (training.cuda_graphs; CUDA only)",
    )
    parser.add_argument("--out", default="bench_alphazero_batching.json")
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    game = make_game(args.game, **parse_config(args.config))
    device = resolve_device(args.device)
    pooled = not args.plain
    net = build_network(game.spec, args.preset, global_pooling=pooled, symmetric_value=pooled).to(
        device
    )
    batches = [int(b) for b in args.batches.split(",")]
    evaluate = make_batch_evaluator(net, device, graphs=args.cuda_graphs)
    # real positions from random play
    rng = np.random.default_rng(0)
    states, state = [], game.new_initial_state(0)
    while len(states) < min(max(batches), 1024):
        if state.is_terminal():
            state = game.new_initial_state(len(states))
        states.append(state.clone())
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(len(legal))]))
    obs = np.stack([s.observation(s.current_player) for s in states])
    legal = [s.legal_actions() for s in states]
    while len(legal) < max(batches):  # larger batches repeat the positions
        obs, legal = np.concatenate([obs, obs]), legal + legal
    results = {
        "game": game.spec.name,
        "config": dict(game.spec.config),
        "preset": args.preset,
        "global_pooling": pooled,
        "device": str(device),
        "cuda_graphs": args.cuda_graphs and device.type == "cuda",
        "device_name": torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu",
        "torch": torch.__version__,
        "positions_per_s": {},
    }
    for batch in batches:
        evaluate(obs[:batch], legal[:batch])  # warm-up
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            evaluate(obs[:batch], legal[:batch])
            done += batch
        if device.type == "cuda":
            torch.cuda.synchronize()
        results["positions_per_s"][batch] = done / (time.perf_counter() - start)
    base = results["positions_per_s"][min(results["positions_per_s"])]
    print(f"{game.spec.name} {dict(game.spec.config)} preset={args.preset} device={device}")
    for batch, rate in results["positions_per_s"].items():
        print(f"  batch {batch:>4}: {rate:10,.0f} positions/s  (x{rate / base:.1f})")
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(results, fh, indent=2)


if __name__ == "__main__":
    main()
