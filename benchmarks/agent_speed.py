"""Time per decision of an ``alphazero:checkpoint=...`` agent: frozen inference copy vs eager.

The planner tournaments of docs/results/training.md hold the trained agent to no more time per
decision than the planner, so the agent's speed decides how many simulations it may use. This
plays the same positions with the agent as shipped (a frozen TorchScript copy of the network,
``networks.frozen_for_inference``) and with the eager network, alternating the two in rounds,
one torch thread, CPU time, and checks that both choose the same actions:

    python3 benchmarks/agent_speed.py push_them_all -c map=pta \
        --checkpoint pretrained --simulations 128 --positions 20 --rounds 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np
import torch

from stratagem.baselines.agent import make_agent
from stratagem.envs.cli_options import parse_config
from stratagem.envs.core import State
from stratagem.envs.registry import make_game
from stratagem.training.agents import AlphaZeroAgent
from stratagem.training.alphazero import load_network, make_batch_evaluator


def positions(game_state: State, count: int, seed: int) -> list[State]:
    """``count`` positions with a choice, from random games started at ``game_state``."""
    rng = random.Random(seed)
    state, found = game_state.clone(), []
    while len(found) < count:
        if state.is_terminal():
            state = game_state.clone()
        legal = state.legal_action_list()
        if len(legal) > 1:
            found.append(state.clone())
        state.apply(rng.choice(legal))
    return found


def timed(agent: AlphaZeroAgent, states: list[State]) -> tuple[float, list[int]]:
    """CPU milliseconds per decision and the actions chosen."""
    start = time.process_time()
    actions = [agent.act(s, rng=np.random.default_rng(0)) for s in states]
    return 1000 * (time.process_time() - start) / len(states), actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("-c", "--config", action="append")
    parser.add_argument("--checkpoint", default="pretrained")
    parser.add_argument("--simulations", type=int, default=128)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    game = make_game(args.game, **parse_config(args.config or []))
    spec = f"alphazero:checkpoint={args.checkpoint},simulations={args.simulations}"
    frozen = make_agent(spec, game)
    assert isinstance(frozen, AlphaZeroAgent)
    eager = make_agent(spec, game)
    assert isinstance(eager, AlphaZeroAgent)
    _, net = load_network(args.checkpoint, game)
    eager._evaluate = make_batch_evaluator(net, torch.device("cpu"))
    states = positions(game.new_initial_state(args.seed), args.positions, args.seed)
    times: dict[str, list[float]] = {"frozen": [], "eager": []}
    chosen: dict[str, list[int]] = {}
    for _ in range(args.rounds):
        for name, agent in (("eager", eager), ("frozen", frozen)):
            ms, chosen[name] = timed(agent, states)
            times[name].append(ms)
    same = sum(a == b for a, b in zip(chosen["eager"], chosen["frozen"], strict=True))
    for name, values in times.items():
        print(
            f"{name:>6}: {statistics.median(values):7.1f} ms per decision (rounds: "
            f"{', '.join(f'{v:.1f}' for v in values)})"
        )
    ratios = [e / f for e, f in zip(times["eager"], times["frozen"], strict=True)]
    print(
        f"eager / frozen: {statistics.median(ratios):.2f}x (median of per-round ratios); "
        f"same action in {same} of {len(states)} positions"
    )


if __name__ == "__main__":
    main()
