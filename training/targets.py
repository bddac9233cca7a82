"""What a self-play game cut before its end is worth: the value targets of long games.

Long games (Kill The King on the kwah maps: ~800 decisions, 62% random draws) must be cut to
train in reasonable time, and the value a cut game is given decides what the value head learns.
The game's heuristic centred across players carries almost no signal on a ±1 scale (a standard
deviation of 0.012 in Kill The King), so a network trained on it learns "0 everywhere" and a
draw costs nothing. The choices (``AlphaZeroConfig.truncation_value``):

* ``none``: the cut game's positions train the policy only (no value target);
* ``calibrated``: ``tanh(k · (h − mean h))`` with the heuristic ``h`` and a scale ``k`` fitted to
  the outcomes of finished games (least squares against the final returns), so that the value
  reads as an expected outcome on the scale of a real win;
* ``playout``: the rule-based agent plays every seat from the cut to the game's end;
* ``evaluator``: the centred heuristic unscaled; ``draw``: zeros (the former behaviours).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from stratagem.envs.core import Game, State

__all__ = [
    "CalibratedEvaluator",
    "TruncationScorer",
    "calibrate_heuristic",
    "fit_scale",
    "truncation_scorer",
]

#: ``state -> value vector in seat order``, or ``None`` when the cut game has no value target.
TruncationScorer = Callable[[State], "np.ndarray | None"]


def _centred(evaluator, state: State) -> np.ndarray:
    values = np.asarray(evaluator.evaluate(state), dtype=np.float64)
    return values - values.mean()


class CalibratedEvaluator:
    """A heuristic on the outcome's scale: ``tanh(k · (h − mean h))`` per player.

    PPO's shaping potential uses it, so that the shaping terms are commensurate with the ±1
    reward of a win (the raw heuristic of Kill The King moves by ~0.01 in a game, 60 times less
    than the entropy bonus).

    Args:
        evaluator: The game's heuristic (any object with ``evaluate(state)``).
        scale: ``k``, from :func:`calibrate_heuristic`.
    """

    def __init__(self, evaluator, scale: float) -> None:
        self.evaluator = evaluator
        self.scale = float(scale)

    def evaluate(self, state: State) -> np.ndarray:
        """Calibrated values of every player (their sum is 0)."""
        return np.tanh(self.scale * _centred(self.evaluator, state))


def fit_scale(x: np.ndarray, y: np.ndarray) -> float:
    """Scale ``k`` minimising ``Σ (tanh(k·x) − y)²`` (a search over k on a log grid, refined).

    Returns 1.0 when ``x`` carries nothing to fit (all zero).
    """
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if x.size == 0 or not np.any(x):
        return 1.0

    def loss(k: float) -> float:
        return float(np.mean((np.tanh(k * x) - y) ** 2))

    grid = np.logspace(-3, 5, 161)
    best = float(grid[int(np.argmin([loss(k) for k in grid]))])
    for _ in range(3):  # refine around the best grid point
        fine = np.linspace(best / 1.2, best * 1.2, 41)
        best = float(fine[int(np.argmin([loss(k) for k in fine]))])
    return best


def calibrate_heuristic(
    game: Game,
    games: int,
    seed: int,
    *,
    agents: tuple[str, str] = ("rule_based", "random"),
    evaluator: object = "default",
) -> dict[str, float]:
    """Fit the heuristic's scale to the outcomes of ``games`` finished games.

    The games are the rule-based agent against random, seats alternating, played to the game's
    own end, so that most are decided; every fourth position of each contributes the centred
    heuristic of every seat and that seat's final return.

    Returns:
        ``scale`` (the fitted k), ``mse`` (its mean squared error), ``baseline_mse`` (that of
        predicting 0), ``positions`` and ``decided`` (share of the games that had a winner).
    """
    from stratagem.baselines.agent import make_agent
    from stratagem.baselines.evaluators import make_evaluator
    from stratagem.envs.registry import game_entry

    evaluator = make_evaluator(evaluator, game)
    if game_entry(game.spec.name).rule_based_agent is None:
        agents = tuple("random" if spec == "rule_based" else spec for spec in agents)
    players = [make_agent(spec, game) for spec in agents]
    n = game.spec.num_players
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    decided = 0
    rng = np.random.default_rng(seed)
    for g in range(games):
        state = game.new_initial_state(seed + g)
        seats = [players[(seat + g) % len(players)] for seat in range(n)]
        features: list[np.ndarray] = []
        step = 0
        while not state.is_terminal():
            if step % 4 == 0:
                features.append(_centred(evaluator, state))
            mover = state.current_player
            state.apply(seats[mover].act(state.observed_by(mover), rng=rng))
            step += 1
        returns = np.asarray(state.returns(), dtype=np.float64)
        decided += int(returns.max() > returns.min())
        xs.extend(features)
        ys.extend([returns] * len(features))
    x = np.concatenate(xs) if xs else np.zeros(0)
    y = np.concatenate(ys) if ys else np.zeros(0)
    scale = fit_scale(x, y)
    return {
        "scale": scale,
        "mse": float(np.mean((np.tanh(scale * x) - y) ** 2)) if x.size else 0.0,
        "baseline_mse": float(np.mean(y**2)) if y.size else 0.0,
        "positions": float(x.size // max(n, 1)),
        "decided": decided / max(games, 1),
    }


def truncation_scorer(game: Game, mode: str, *, scale: float = 1.0) -> TruncationScorer:
    """The value of a cut self-play game under ``mode`` (see the module docstring).

    Args:
        game: The game.
        mode: ``none``, ``calibrated``, ``playout``, ``evaluator`` or ``draw``.
        scale: The fitted scale of ``calibrated``.
    """
    n = game.spec.num_players
    if mode == "draw":
        return lambda state: np.zeros(n)
    if mode == "none":
        return lambda state: None
    if mode == "playout":
        from stratagem.baselines.agent import make_agent

        agent = make_agent("rule_based", game)

        def playout(state: State) -> np.ndarray:
            state = state.clone()
            rng = np.random.default_rng(0)
            while not state.is_terminal():
                mover = state.current_player
                state.apply(agent.act(state.observed_by(mover), rng=rng))
            return np.asarray(state.returns(), dtype=np.float64)

        return playout
    from stratagem.baselines.evaluators import default_evaluator

    evaluator = default_evaluator(game)
    if mode == "evaluator":
        return lambda state: np.clip(_centred(evaluator, state), -1.0, 1.0)
    if mode == "calibrated":
        return lambda state: np.tanh(scale * _centred(evaluator, state))
    raise ValueError(f"unknown truncation value {mode!r}")
