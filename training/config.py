"""Typed configurations of the training algorithms (no torch import, so the CLI stays light).

Each field carries its documentation in the string below it; ``stratagem train`` builds its
options from these fields, and configurations are saved and loaded as TOML.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from stratagem.baselines.agent import make_agent
from stratagem.envs.registry import batched_game_names, make_game

if TYPE_CHECKING:
    import numpy as np

__all__ = ["ALGORITHMS", "PRESET_NAMES", "AlphaZeroConfig", "PPOConfig"]

#: The tree searches of AlphaZero training and of the ``alphazero`` agent.
ALGORITHMS = ("gumbel", "puct")

#: What a cut self-play game is worth (see ``AlphaZeroConfig.truncation_value``).
TRUNCATION_VALUES = ("none", "calibrated", "playout", "evaluator", "draw")

#: Network presets of :mod:`stratagem.training.networks` (kept here to avoid importing torch).
PRESET_NAMES = ("tiny", "small", "default", "alphatm")

#: Where self-play runs (see ``AlphaZeroConfig.backend``).
BACKENDS = ("local", "ray")

#: Where Ray self-play actors have their leaves evaluated (``AlphaZeroConfig.ray_inference``).
RAY_INFERENCE = ("auto", "server", "local")
#: ``AlphaZeroConfig.selfplay_engine`` values.
SELFPLAY_ENGINES = ("auto", "scalar", "batched")


def _check_device(name: str) -> None:
    from stratagem.training.common import resolve_device

    resolve_device(name)


def _require_positive(config: object, *names: str) -> None:
    """Refuse a config whose counts ``names`` are below 1 (games, steps, sizes).

    Raises:
        ValueError: Naming the first such field and its value.
    """
    for name in names:
        if getattr(config, name) < 1:
            raise ValueError(f"{name} must be >= 1, got {getattr(config, name)}")


def _require_bounds(
    config: AlphaZeroConfig | PPOConfig,
    *,
    positive: tuple[str, ...] = (),
    non_negative: tuple[str, ...] = (),
    unit: tuple[str, ...] = (),
) -> None:
    """Refuse a config whose rates, weights or shares ``names`` are out of their range.

    ``positive`` must be > 0, ``non_negative`` >= 0 and ``unit`` in [0, 1]; a NaN fails every
    range (the comparisons are written so that it does), and so does a negative seed.

    Raises:
        ValueError: Naming the first such field and its value.
    """
    seed = config.seed
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be an integer >= 0, got {seed!r}")
    for names, ok, rule in (
        (positive, lambda v: v > 0, "> 0"),
        (non_negative, lambda v: v >= 0, ">= 0"),
        (unit, lambda v: 0.0 <= v <= 1.0, "in [0, 1]"),
    ):
        for name in names:
            if not ok(getattr(config, name)):
                raise ValueError(f"{name} must be {rule}, got {getattr(config, name)}")


@dataclass
class AlphaZeroConfig:
    """Configuration of an AlphaZero run (every field is a ``stratagem train`` option)."""

    game: str = "kill_the_king"
    """Registry name of the game to train on."""
    game_config: dict[str, Any] = field(default_factory=dict)
    """The game's configuration keywords (e.g. ``{"map": "kwah"}``)."""
    preset: str = "tiny"
    """Network size: ``tiny``, ``small``, ``default`` or ``alphatm`` (19 blocks × 256 filters)."""
    blocks: int | None = None
    """Override the preset's number of residual blocks."""
    filters: int | None = None
    """Override the preset's number of filters."""
    iterations: int = 20
    """Self-play + training iterations to run (a resumed run counts the finished ones)."""
    games_per_iteration: int = 32
    """Self-play games per iteration."""
    parallel_games: int = 16
    """Games played together; their leaves form one evaluation batch."""
    actors: int = 1
    """Self-play processes. 1: every game runs in this process. N > 1: N actor processes play a
    share of the games each (``parallel_games`` is split among them) and run their own trees,
    while this process owns the network and evaluates the leaves of all actors in one batch per
    simulation step. Actors buy wall-clock time where cores are idle or the network is on a GPU;
    they cost CPU (2 actors: 16% fewer positions per CPU-second than 1 on 2 busy cores, see
    ``benchmarks/alphazero_actors.py``). The same seed with the same number of actors plays the
    same games. With ``backend = "ray"``: the number of Ray actors, one CPU each."""
    backend: str = "local"
    """Where self-play runs: ``local`` (this process, or ``actors`` processes on this machine) or
    ``ray`` (``actors`` Ray actors on the CPUs of a Ray cluster; needs ``pip install
    'stratagem[distributed]'``, see docs/distributed.md). The learner, the replay buffer and the
    checkpoints stay in this process either way, and a killed actor is replaced by Ray."""
    ray_address: str | None = None
    """Ray cluster to join with ``backend = "ray"`` (``ray start --head`` prints it); ``None``:
    the ``RAY_ADDRESS`` variable, else a Ray instance started on this machine for the run."""
    ray_inference: str = "auto"
    """With ``backend = "ray"``, where the leaves are evaluated: ``server`` (one inference actor,
    on a GPU when the cluster has one, batches the leaves of all actors), ``local`` (every actor
    runs a copy of the network on its own CPU: no round trips, and the same seed plays the same
    games) or ``auto`` (``server`` when the cluster has a GPU, else ``local``)."""
    global_pooling: bool = True
    """KataGo-style global pooling in the tower and heads: every tile sees the whole board, and
    a network with a spatial policy head plays every board size of its game."""
    symmetric_value: bool = True
    """Two-player games: one value output ``v`` for the mover and ``−v`` for the other."""
    selfplay_engine: str = "auto"
    """How self-play runs its games and trees: ``scalar`` (Python trees over the game's forward
    model, the network's leaves batched), ``batched`` (the game's batched version on torch
    tensors and the tensor search of ``training/batched_search.py``: rules, trees and network
    on ``device``; games with a batched version, Gumbel search, one local actor) or ``auto``
    (``batched`` where it applies and ``device`` is CUDA, else ``scalar``)."""
    algorithm: str = "gumbel"
    """Search: ``gumbel`` (Gumbel AlphaZero: sequential halving at the root, improved-policy
    targets that improve on the prior even with few simulations) or ``puct`` (AlphaZero's PUCT
    with Dirichlet noise and visit-count targets)."""
    simulations: int = 32
    """Simulations per decision in self-play."""
    max_considered: int = 16
    """Gumbel: most root actions sampled (without replacement) for sequential halving."""
    c_puct: float = 1.5
    """Exploration constant of PUCT (``puct`` only)."""
    dirichlet_alpha: float = 0.3
    """Dirichlet noise concentration at the root (``puct`` only)."""
    dirichlet_epsilon: float = 0.25
    """Weight of the root noise (``puct`` only)."""
    temperature_moves: int | None = None
    """Decisions per game played with exploration (``puct``: sampled from the visit counts;
    ``gumbel``: Gumbel noise at the root); later decisions are played greedily. ``None``: 30
    for ``puct``; every decision for ``gumbel``, as in the Gumbel AlphaZero paper and mctx
    (its policy targets do not depend on the noise). Greedy Gumbel play after 30 decisions let
    an untrained network draw every game of Push Them All on one seed in two, so the first
    iterations had no value signal."""
    max_moves: int | None = None
    """Cap on decisions per self-play game; ``None`` = the game's own limit."""
    cut_rounds: int | None = None
    """Cut self-play games when the game's round counter passes this value (games with rounds:
    the Stratega games); unlike ``max_moves`` the cut is something the observation shows."""
    truncation_value: str = "calibrated"
    """Value target of a cut game: ``none`` (its positions train the policy only), ``calibrated``
    (the game's heuristic, centred across players and squashed by a scale fitted to the outcomes
    of finished games, so that it reads as an expected outcome), ``playout`` (the rule-based
    agent plays the game to its end), ``evaluator`` (the centred heuristic, unscaled) or ``draw``
    (0 for all)."""
    calibration_games: int = 40
    """``calibrated``: games of the rule-based agent (random where the game has none) against
    random, seats alternating, played to the end at the start of a run that cuts games
    (``max_moves`` or ``cut_rounds`` set), whose heuristic values and outcomes fit the scale."""
    opponent_share: float = 0.0
    """Share of self-play games in which one seat (drawn per game) is played by
    ``selfplay_opponent`` instead of the network; only the network's positions are stored. A
    curriculum for long games, where two beginners rarely finish."""
    selfplay_opponent: str = "rule_based"
    """Agent spec of the seat taken by ``opponent_share``."""
    imitate_opponent: bool = False
    """Also store the ``selfplay_opponent``'s decisions of those games (forced ones excepted),
    with its action as the policy target and the outcome from its side as the value target.
    Without it the stored positions of a game the network loses are all the loser's, which
    teaches the value head that the side to move is behind; with it both sides are stored, and
    the policy head starts from the baseline's play (as AlphaGo's started from human games)."""
    demonstration_share: float = 0.0
    """Share of self-play games that ``selfplay_opponent`` plays in every seat, each of its
    decisions stored (forced ones excepted) with its action as the policy target and the
    outcome from its side as the value target: expert iteration's apprentice data (Anthony et
    al., 2017). Where a planner is far ahead of the network, its own games show the policy the
    planner's tempo and the value head which positions win between strong players, which
    neither games against the network nor self-play of a slow network reach."""
    replay_size: int = 20_000
    """Positions kept in the replay buffer."""
    batch_size: int = 128
    """Training minibatch size (the paper's value)."""
    train_steps: int = 100
    """Minibatches per iteration."""
    lr: float = 1e-3
    """AdamW learning rate."""
    weight_decay: float = 1e-4
    """AdamW weight decay."""
    value_weight: float = 1.0
    """Weight of the value loss against the policy loss."""
    eval_every: int = 1
    """Evaluate every this many iterations (0 disables evaluation)."""
    eval_games: int = 10
    """Games per evaluation opponent (sides alternate)."""
    eval_opponents: list[str] | None = None
    """Agent specs to evaluate against; ``previous`` is the network of the last evaluation.
    ``None``: the ladder random, rule_based (when the game has one), mcts at 100 and at 1,000
    forward-model calls per decision."""
    eval_simulations: int = 32
    """Simulations per decision when evaluating (noise off)."""
    gate_score: float | None = None
    """Keep a *best* network for self-play (AlphaGo Zero's gating): after every iteration the
    trained network plays ``gate_games`` games against the best one (seats alternating,
    ``eval_simulations``, no noise) and replaces it only when it scores at least this (draws
    half; AlphaGo Zero used 0.55). Training always goes on from the trained network; only
    self-play is protected from an update that made play worse, e.g. a passive policy whose
    drawn games then teach nothing. ``None``: self-play uses the latest network."""
    gate_games: int = 20
    """Games of each gate match."""
    init_network: str | None = None
    """Network file whose weights start a new run (``final.pt``, ``best.pt``, a
    ``checkpoint.pt`` or ``pretrained``, the network shipped for this game): a curriculum
    across boards, e.g. Kill The King's ``small`` boards, where games end, then the kwah maps.
    It must hold this game and this run's architecture (preset, blocks, filters, pooling); the
    board may differ when the network has global pooling. Only the weights are taken (not the
    optimiser, buffer or iteration count), and a resumed run ignores it: its checkpoint wins."""
    seed: int = 0
    """Seed of every random choice of the run."""
    device: str = "auto"
    """``auto`` (CUDA when present), ``cpu`` or ``cuda``."""
    cuda_graphs: bool = False
    """On CUDA, replay self-play's forward passes from CUDA graphs, one per batch size rounded up
    to a power of two, so that a pass is one launch instead of one per module (the tiny
    network's passes are launch-bound there). Ignored on the CPU."""
    threads: int | None = None
    """CPU threads for torch (``None``: torch's default; 1 is fastest for small networks)."""
    out_dir: str = "runs/alphazero"
    """Folder of checkpoints, TensorBoard logs and the saved config."""
    resume: bool = True
    """Continue from ``out_dir/checkpoint.pt`` when it exists."""
    tensorboard: bool = True
    """Write TensorBoard logs to ``out_dir``."""
    progress: bool = True
    """Show progress bars."""

    def validate(self) -> None:
        """Reject bad values before any work starts.

        Raises:
            ValueError: Naming the bad field.
        """
        if self.preset not in PRESET_NAMES:
            raise ValueError(f"unknown preset {self.preset!r}; presets: {', '.join(PRESET_NAMES)}")
        _require_positive(
            self,
            "iterations",
            "gate_games",
            "games_per_iteration",
            "parallel_games",
            "actors",
            "simulations",
            "eval_simulations",
            "batch_size",
            "replay_size",
        )
        _require_bounds(
            self,
            positive=("lr", "c_puct", "dirichlet_alpha"),
            non_negative=("weight_decay", "value_weight"),
            unit=("dirichlet_epsilon", "opponent_share", "demonstration_share"),
        )
        if self.gate_score is not None and not 0.0 <= self.gate_score <= 1.0:
            raise ValueError(f"gate_score must be in [0, 1] or None, got {self.gate_score}")
        if self.temperature_moves is not None and self.temperature_moves < 0:
            raise ValueError(
                f"temperature_moves must be >= 0 or None, got {self.temperature_moves}"
            )
        for name in ("train_steps", "eval_every", "eval_games"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)}")
        if self.threads is not None and self.threads < 1:
            raise ValueError(f"threads must be >= 1 or None, got {self.threads}")
        if self.truncation_value not in TRUNCATION_VALUES:
            raise ValueError(
                f"truncation_value must be one of {', '.join(TRUNCATION_VALUES)}, "
                f"got {self.truncation_value!r}"
            )
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm must be 'gumbel' or 'puct', got {self.algorithm!r}")
        if self.selfplay_engine not in SELFPLAY_ENGINES:
            raise ValueError(
                f"selfplay_engine must be one of {', '.join(SELFPLAY_ENGINES)}, "
                f"got {self.selfplay_engine!r}"
            )
        if self.selfplay_engine == "batched":
            why = self.batched_unavailable()
            if why:
                raise ValueError(f"selfplay_engine 'batched' cannot run here: {why}")
        if self.max_considered < 1:
            raise ValueError(f"max_considered must be >= 1, got {self.max_considered}")
        for name in ("max_moves", "cut_rounds"):
            if getattr(self, name) is not None and getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1 or None, got {getattr(self, name)}")
        if self.imitate_opponent and self.opponent_share == 0:
            raise ValueError("imitate_opponent needs opponent_share > 0 (--opponent-share)")
        if self.opponent_share + self.demonstration_share > 1.0:
            raise ValueError(
                "opponent_share + demonstration_share must be at most 1, got "
                f"{self.opponent_share} + {self.demonstration_share}"
            )
        if self.calibration_games < 1 and self.truncation_value == "calibrated":
            raise ValueError("calibration_games must be >= 1 with truncation_value 'calibrated'")
        if self.backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {self.backend!r}")
        if self.ray_inference not in RAY_INFERENCE:
            raise ValueError(
                f"ray_inference must be one of {', '.join(RAY_INFERENCE)}, "
                f"got {self.ray_inference!r}"
            )
        if self.ray_address and self.backend != "ray":
            raise ValueError("ray_address needs backend 'ray' (--backend ray)")
        if self.backend == "ray":
            from stratagem.baselines.ray_backend import import_ray

            import_ray()  # without the extra: a ValueError naming it
        _check_device(self.device)
        game = make_game(self.game, **self.game_config)
        if self.cut_rounds is not None and game.new_initial_state(0).round_number() is None:
            raise ValueError(
                f"cut_rounds needs a game with a round counter; {self.game} has none "
                "(use max_moves)"
            )
        default_opponent = type(self).__dataclass_fields__["selfplay_opponent"].default
        if self.uses_opponent() or self.selfplay_opponent != default_opponent:
            make_agent(self.selfplay_opponent, game)  # a typo fails now, used or not
        for spec in self.evaluation_ladder():
            if spec != "previous":
                make_agent(spec, game)

    def uses_opponent(self) -> bool:
        """Whether some self-play games seat ``selfplay_opponent``."""
        return self.opponent_share > 0 or self.demonstration_share > 0

    def draw_opponent_seats(self, rng: np.random.Generator, num_players: int) -> frozenset[int]:
        """The seats ``selfplay_opponent`` plays in a new self-play game (empty: none).

        One draw decides the kind of game: a demonstration (every seat) with probability
        ``demonstration_share``, one seat drawn uniformly with ``opponent_share``, else pure
        self-play. Without demonstrations the generator is used as it was before they existed,
        so earlier runs replay exactly.
        """
        if not self.uses_opponent():
            return frozenset()
        draw = rng.random()
        if draw < self.demonstration_share:
            return frozenset(range(num_players))
        if draw < self.demonstration_share + self.opponent_share:
            return frozenset({int(rng.integers(num_players))})
        return frozenset()

    def batched_unavailable(self) -> str | None:
        """Why batched self-play cannot run this configuration (``None`` when it can)."""
        names = batched_game_names()
        if self.game not in names:
            return f"{self.game} has no batched version (batched games: {', '.join(names)})"
        if self.algorithm != "gumbel":
            return "it runs the Gumbel search only (algorithm 'gumbel')"
        if self.backend != "local" or self.actors != 1:
            return "it runs in this process (backend 'local', actors 1)"
        return None

    def exploration_moves(self) -> int | None:
        """Decisions per game played with exploration (``None``: every decision).

        ``temperature_moves`` when set, else the algorithm's default (see that field).
        """
        if self.temperature_moves is not None:
            return self.temperature_moves
        return 30 if self.algorithm == "puct" else None

    def evaluation_ladder(self) -> list[str]:
        """The opponents evaluated against: ``eval_opponents`` or the default ladder."""
        if self.eval_opponents is not None:
            return list(self.eval_opponents)
        from stratagem.envs.registry import game_entry

        ladder = ["random"]
        if game_entry(self.game).rule_based_agent is not None:
            ladder.append("rule_based")
        return [*ladder, "mcts:budget=100", "mcts:budget=1000"]


@dataclass
class PPOConfig:
    """Configuration of a masked-PPO self-play run (every field is a ``stratagem train`` option)."""

    game: str = "kill_the_king"
    """Registry name of the game."""
    game_config: dict[str, Any] = field(default_factory=dict)
    """The game's configuration keywords."""
    total_timesteps: int = 200_000
    """Learner decisions to train for (a resumed run counts those already done)."""
    n_envs: int = 4
    """Parallel environments."""
    vec_env: str = "subproc"
    """``subproc`` (one process per environment) or ``dummy`` (all in this process)."""
    n_steps: int = 256
    """Rollout length per environment between updates."""
    batch_size: int = 256
    """Minibatch size."""
    n_epochs: int = 4
    """Passes over each rollout."""
    learning_rate: float = 3e-4
    """Adam learning rate."""
    gamma: float = 0.99
    """Discount factor."""
    gae_lambda: float = 0.95
    """GAE parameter."""
    ent_coef: float = 0.01
    """Entropy bonus."""
    clip_range: float = 0.2
    """PPO clipping."""
    shaping: float = 0.0
    """Weight of potential-based reward shaping with the game's heuristic evaluator (0: the
    game's win/loss reward only). The potential is the heuristic calibrated to the outcome's
    scale (``tanh(k·(h − mean h))``, k fitted on ``calibration_games`` finished games), so a
    weight of 1 makes the shaping as large as a win. The term ``shaping·(γ·Φ(s′) − Φ(s))``
    leaves the optimal policy unchanged (Ng et al. 1999) and gives long games a signal before
    their end; see :mod:`stratagem.wrappers.shaping`."""
    calibration_games: int = 40
    """Games of the rule-based agent against random that fit the shaping potential's scale."""
    threads: int | None = 1
    """CPU threads for torch in the learner and in each environment process (1 is fastest for
    these small networks on a few cores; ``None``: torch's default, one per core)."""
    shaping_evaluator: str = "default"
    """Evaluator of the potential: ``default`` (the game's heuristic) or ``module:Class``."""
    features: int = 256
    """Width of the feature layer after the convolutions."""
    filters: int = 32
    """Channels of the two convolutions."""
    seat: str = "random"
    """The learner's seat: ``random`` (drawn every episode) or a seat number."""
    opponents: list[str] = field(default_factory=lambda: ["random"])
    """Baseline agent specs in the opponent pool."""
    pool_size: int = 5
    """Most recent learner snapshots kept in the pool (0: baselines only)."""
    snapshot_every: int = 20_000
    """Learner steps between snapshots (also the checkpoint interval)."""
    eval_games: int = 20
    """Games per evaluation opponent at the end of training (sides alternate)."""
    eval_opponents: list[str] = field(default_factory=lambda: ["random"])
    """Agent specs evaluated against at the end."""
    seed: int = 0
    """Seed of the run."""
    device: str = "auto"
    """``auto``, ``cpu`` or ``cuda``."""
    out_dir: str = "runs/ppo"
    """Folder of models, snapshots, checkpoints and logs."""
    resume: bool = True
    """Continue from ``out_dir/checkpoint.zip`` when it exists."""
    tensorboard: bool = True
    """Write TensorBoard logs."""
    progress: bool = True
    """Show a progress bar."""

    def validate(self) -> None:
        """Reject bad values before any work starts (raises ``ValueError``)."""
        _require_positive(
            self,
            "total_timesteps",
            "n_envs",
            "n_steps",
            "batch_size",
            "n_epochs",
            "features",
            "filters",
            "snapshot_every",
        )
        if self.vec_env not in ("subproc", "dummy"):
            raise ValueError(f"vec_env must be 'subproc' or 'dummy', got {self.vec_env!r}")
        if self.pool_size < 0 or self.eval_games < 0:
            raise ValueError("pool_size and eval_games must be >= 0")
        _require_bounds(
            self,
            positive=("learning_rate", "clip_range"),
            non_negative=("ent_coef", "shaping"),
            unit=("gamma", "gae_lambda"),
        )
        if self.threads is not None and self.threads < 1:
            raise ValueError(f"threads must be >= 1 or None, got {self.threads}")
        if self.shaping and self.calibration_games < 1:
            raise ValueError("calibration_games must be >= 1 when shaping is on")
        if not self.opponents and self.pool_size == 0:
            raise ValueError("the opponent pool is empty: name opponents or set pool_size > 0")
        game = make_game(self.game, **self.game_config)
        if self.seat != "random" and self.seat not in [
            str(i) for i in range(game.spec.num_players)
        ]:
            raise ValueError(f"seat must be 'random' or 0..{game.spec.num_players - 1}")
        for spec in self.opponents + self.eval_opponents:
            make_agent(spec, game)
        if self.shaping:
            from stratagem.baselines.evaluators import make_evaluator

            make_evaluator(self.shaping_evaluator, game)
        _check_device(self.device)
