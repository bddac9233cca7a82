"""The tree search's per-node rules compiled (``training/search_kernels.py``) against numpy.

Two figures, each with the numpy rules (``tests/search_reference.py``, the code the kernels
replaced) and the compiled ones swapped into :class:`~stratagem.training.puct.Node` in turn, in
one process, one torch thread, CPU time, alternated for ``--rounds`` rounds (medians):

* **ms per decision** of the shipped agent (``alphazero:checkpoint=pretrained``) with
  ``--simulations`` on the same positions, and whether both rule sets chose the same actions;
* **leaf evaluations per CPU-second of self-play with a free network** (zero logits and
  values): the CPU an actor spends per leaf besides the network, which bounds what actors can
  feed a GPU (issue 13's target counts leaf evaluations/s across actors).

Usage::

    nice -n 10 python3 benchmarks/search_rules_speed.py two_kingdoms --simulations 64
    nice -n 10 python3 benchmarks/search_rules_speed.py push_them_all -c map=pta --simulations 128
    nice -n 10 python3 benchmarks/search_rules_speed.py kill_the_king -c map=kwah --simulations 96
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from agent_speed import positions  # benchmarks/ is on the path when run
from search_reference import numpy_completed_q, numpy_interior, numpy_puct

from stratagem.baselines.agent import make_agent
from stratagem.envs.cli_options import parse_config
from stratagem.envs.registry import make_game
from stratagem.training import puct
from stratagem.training.actors import GamePlayer, softmax_evaluator
from stratagem.training.config import AlphaZeroConfig

Node = puct.Node
COMPILED = (Node.completed_q, Node.select_gumbel_interior, Node.select)


def _numpy_completed_q(self: Node, value_scale: float, maxvisit_init: float) -> np.ndarray:
    return numpy_completed_q(*self._rule_arrays(), value_scale, maxvisit_init)


def _numpy_interior(self: Node, value_scale: float, maxvisit_init: float) -> int:
    return numpy_interior(self.logits, *self._rule_arrays(), value_scale, maxvisit_init)


def _numpy_select(self: Node, c_puct: float) -> int:
    return numpy_puct(self.prior, self.visits, self.value_sum, self.player, c_puct)


NUMPY = (_numpy_completed_q, _numpy_interior, _numpy_select)


def use(rules: tuple[Callable, ...]) -> None:
    """Swap a rule set into :class:`Node`."""
    Node.completed_q, Node.select_gumbel_interior, Node.select = rules  # type: ignore[method-assign]


def main() -> None:
    """Parse the options, alternate the two rule sets and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("-c", "--config", action="append", default=[], help="KEY=VALUE")
    parser.add_argument("--simulations", type=int, default=64)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--games", type=int, default=16, help="free-network self-play games")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    game = make_game(args.game, **parse_config(args.config))
    agent = make_agent(
        f"alphazero:checkpoint=pretrained,simulations={args.simulations},threads=1", game
    )
    states = positions(game.new_initial_state(0), args.positions, 1)
    actions, players = game.spec.action_size, game.spec.num_players

    def free(observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rows = len(observations)
        return np.zeros((rows, actions), np.float32), np.zeros((rows, players), np.float32)

    config = AlphaZeroConfig(simulations=32, parallel_games=32, max_moves=100)

    def decide() -> tuple[float, list[int]]:
        start = time.process_time()
        chosen = [int(agent.act(s, rng=np.random.default_rng(0))) for s in states]
        return 1000 * (time.process_time() - start) / len(states), chosen

    def self_play() -> float:
        player = GamePlayer(
            game,
            config,
            np.random.default_rng(0),
            softmax_evaluator(free),
            parallel=32,
            truncation_scale=1.0,
            on_finish=lambda _done: None,
        )
        start = time.process_time()
        player.play([(i, i) for i in range(args.games)])
        return player.diag.evaluated / (time.process_time() - start)

    decide()  # warm-up: the network, the kernels' compilation or cache
    ms: dict[str, list[float]] = {"numpy": [], "compiled": []}
    leaves: dict[str, list[float]] = {"numpy": [], "compiled": []}
    agree = []
    for _ in range(args.rounds):
        chosen = {}
        for name, rules in (("numpy", NUMPY), ("compiled", COMPILED)):
            use(rules)
            took, chosen[name] = decide()
            ms[name].append(took)
            leaves[name].append(self_play())
        agree.append(np.mean(np.array(chosen["numpy"]) == np.array(chosen["compiled"])))
    use(COMPILED)
    old, new = statistics.median(ms["numpy"]), statistics.median(ms["compiled"])
    print(
        f"{args.game} {' '.join(args.config)} {args.simulations} simulations: "
        f"ms per decision numpy {old:.1f}, compiled {new:.1f} ({old / new:.2f}x), "
        f"same actions {np.mean(agree):.0%}"
    )
    old, new = statistics.median(leaves["numpy"]), statistics.median(leaves["compiled"])
    print(
        f"free-network self-play, leaf evaluations per CPU-second: numpy {old:,.0f}, "
        f"compiled {new:,.0f} ({new / old:.2f}x)"
    )


if __name__ == "__main__":
    main()
