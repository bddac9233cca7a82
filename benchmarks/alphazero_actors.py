"""Self-play throughput of AlphaZero with 1 and N actor processes, measured alternately.

One self-play phase per setting and round, the settings alternating so that other load on the
machine falls on all of them alike:

    nice -n 5 python3 benchmarks/alphazero_actors.py push_them_all -c map=pta \\
        --simulations 16 --parallel-games 32 --games 32 --actors 1,2 --rounds 3

Prints positions per CPU-second (this process and its joined actors, from ``getrusage``) and per
wall-second for each phase, the medians per setting and the load average, and writes JSON.
``parallel_games`` is the total: with N actors each plays parallel_games / N games at a time.
``N:G`` runs N actors in G batching groups (``2:2``: each actor's leaves a batch of their own; the
default is one group, every actor's leaves in one batch). On CUDA, ``--cuda-graphs off,on``
alternates every setting without and with the server's forward passes replayed from CUDA graphs
(reported as ``N+graphs``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics


def main() -> None:
    # heavy imports here, not at the top: actor processes re-import this file (spawn)
    import dataclasses

    import numpy as np
    import torch

    from stratagem.envs.cli_options import parse_config
    from stratagem.envs.registry import make_game
    from stratagem.training import actors as actors_module
    from stratagem.training.alphazero import ReplayBuffer, network_from_config, self_play
    from stratagem.training.config import AlphaZeroConfig

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("-c", "--config", action="append")
    parser.add_argument("--preset", default="tiny")
    parser.add_argument("--simulations", type=int, default=16)
    parser.add_argument("--parallel-games", type=int, default=32)
    parser.add_argument("--games", type=int, default=32, help="games per phase")
    parser.add_argument("--actors", default="1,2", help="settings: N or N:GROUPS, comma-separated")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--max-moves",
        type=int,
        default=None,
        help="cut each game after this many decisions: a steady-state rate without the tail of "
        "a phase where the last games run alone",
    )
    parser.add_argument("--threads", type=int, default=1, help="torch threads of the server")
    parser.add_argument("--device", default="cpu")
    parser.add_argument(
        "--cuda-graphs", default="off", help="off, on or off,on (alternated; CUDA only)"
    )
    parser.add_argument("--out", default="bench_alphazero_actors.json")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    config = AlphaZeroConfig(
        game=args.game,
        game_config=parse_config(args.config),
        preset=args.preset,
        simulations=args.simulations,
        parallel_games=args.parallel_games,
        games_per_iteration=args.games,
        max_moves=args.max_moves,
        device=args.device,
        progress=False,
        tensorboard=False,
    )
    config.validate()
    game = make_game(config.game, **config.game_config)
    torch.manual_seed(0)
    device = torch.device(args.device)
    net = network_from_config(game.spec, dataclasses.asdict(config)).to(device)
    modes = args.cuda_graphs.split(",")
    if not set(modes) <= {"off", "on"}:
        parser.error(f"--cuda-graphs takes off, on or off,on, got {args.cuda_graphs!r}")
    settings = [
        actors + ("+graphs" if mode == "on" else "")
        for actors in args.actors.split(",")
        for mode in modes
    ]
    default_groups = actors_module.DEFAULT_GROUPS
    runs: list[dict] = []
    for round_ in range(args.rounds):
        for setting in settings:
            actors, _, graphs = setting.partition("+")
            count, _, groups = actors.partition(":")
            actors_module.DEFAULT_GROUPS = int(groups) if groups else default_groups
            run_config = dataclasses.replace(config, actors=int(count), cuda_graphs=bool(graphs))
            buffer = ReplayBuffer(100_000, game.spec.observation_shape, game.spec.num_players)
            rng = np.random.default_rng(round_)
            load_before = os.getloadavg()[0]
            m = self_play(game, net, run_config, device, rng, buffer)
            run = {
                "setting": setting,
                "round": round_,
                "positions": m["selfplay/positions"],
                "seconds": m["selfplay/seconds"],
                "cpu_seconds": m["selfplay/cpu_seconds"],
                "positions_per_cpu_s": m["selfplay/positions_per_cpu_s"],
                "positions_per_s": m["selfplay/positions_per_s"],
                "leaf_evals_per_s": m["selfplay/leaf_evals_per_s"],
                "load_1min": [load_before, os.getloadavg()[0]],
            }
            runs.append(run)
            print(
                f"round {round_} actors {setting:>10}: {run['positions']:6.0f} positions "
                f"in {run['seconds']:6.1f} s wall, {run['cpu_seconds']:6.1f} s CPU: "
                f"{run['positions_per_cpu_s']:6.1f} /CPU-s, {run['positions_per_s']:6.1f} /s, "
                f"load {load_before:.2f} -> {run['load_1min'][1]:.2f}",
                flush=True,
            )
    print(f"medians ({args.rounds} rounds), load average now {os.getloadavg()}:")
    summary = {}
    for setting in settings:
        mine = [r for r in runs if r["setting"] == setting]
        summary[setting] = {
            key: statistics.median(r[key] for r in mine)
            for key in ("positions_per_cpu_s", "positions_per_s", "leaf_evals_per_s")
        }
        s = summary[setting]
        print(
            f"  actors {setting:>10}: {s['positions_per_cpu_s']:6.1f} positions/CPU-s, "
            f"{s['positions_per_s']:6.1f} positions/s, {s['leaf_evals_per_s']:7.0f} leaf evals/s"
        )
    result = {
        "game": game.spec.name,
        "config": dict(game.spec.config),
        "preset": args.preset,
        "simulations": args.simulations,
        "parallel_games": args.parallel_games,
        "games": args.games,
        "threads": args.threads,
        "max_moves": args.max_moves,
        "device": args.device,
        "cpu_count": os.cpu_count(),
        "runs": runs,
        "summary": summary,
    }
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(result, fh, indent=2)


if __name__ == "__main__":
    main()
