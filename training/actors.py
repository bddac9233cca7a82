"""Self-play games, in this process or in actor processes that share one inference server.

:class:`GamePlayer` holds the per-game logic of AlphaZero self-play (forced moves, the curriculum
opponent, cuts by rounds or moves, the value of a cut game, policy targets, diagnostics). The
in-process self-play (``actors = 1``) runs it with the network's evaluator; :func:`run_actors`
runs it in ``actors`` processes whose evaluator ships each batch of leaves to this process, which
owns the network (on the device) and answers them. The tree code of :mod:`.puct` is the same in
both cases: it only sees a :data:`~stratagem.training.puct.BatchEvaluator`.

How leaves travel: every actor has three shared-memory arrays (observations in, logits and values
out) of ``rows`` = its parallel games, the most leaves one search step asks for. The actor writes
its leaves' observations there and sends ``("eval", k)`` on its pipe; the server runs the network
on the rows, writes the full logits and the values back and sends a one-byte answer; the actor
takes the softmax over each leaf's legal actions itself, so neither legal lists nor priors cross
the pipe. A round trip of 16 leaves costs 25 µs this way against 160 µs with the arrays pickled
through the pipe on Push Them All, 60 µs against 480 µs on Kill The King (0.7 MB of observations
in, 1.4 MB of logits out). Finished games (only the stored decisions) go through the pipe as
they end.

How batches form: the actors are dealt into ``groups`` (actor ``a`` in group ``a % groups``); the
server evaluates a group once every live member has a request waiting, all members' leaves in one
forward pass (in actor order), and serves groups first come, first served. The default, one
group, evaluates the leaves of all actors in one batch per simulation step, as large as the
in-process batch; two groups would pipeline (one group's batch on the device while the other
walks its trees) with half-size batches, which measured 13% fewer positions per CPU-second on 2
cores (``benchmarks/alphazero_actors.py``). A group in lockstep, rather than "whatever is
ready", keeps the batches, and so the network's outputs, independent of timing: on CPU a row's
outputs change in the last bits with the batch around it (measured on the tiny network), which
would make two runs with the same seed play different games.

Determinism: the main process draws the game seeds (as in-process self-play does) and one seed
per actor; actor ``a`` plays a contiguous share of the games with its own generator (Gumbel noise,
curriculum seats and moves), and the finished games are handed back sorted by their index. Same
seed and same number of actors: same games, same buffer.

Shutdown: actors end when their games are done; an exception in an actor is sent to the server
with its traceback and raised there as :class:`ActorError`; the server stops every actor (SIGTERM,
then SIGKILL) whatever ends its loop, KeyboardInterrupt included, and actors ignore SIGINT (the
server stops them) and end on their own when the server's end of the pipe closes.

This module imports no torch, so that actor processes start in a fraction of a second.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import pickle
import signal
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

import numpy as np

from stratagem.baselines.agent import make_agent
from stratagem.envs.core import Game, State
from stratagem.training.config import AlphaZeroConfig
from stratagem.training.puct import (
    BatchEvaluator,
    Node,
    add_root_noise,
    gumbel_search,
    run_simulations,
    visit_policy,
)
from stratagem.training.targets import truncation_scorer

__all__ = [
    "ActorError",
    "Diagnostics",
    "FinishedGame",
    "GamePlayer",
    "add_remote_cpu",
    "cpu_seconds",
    "legal_softmax",
    "run_actors",
    "softmax_evaluator",
]

#: ``observations -> (logits (B, action_size), values (B, players))``: the network, raw.
Forward = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]

#: Groups of actors the server batches separately by default (see the module docstring).
DEFAULT_GROUPS = 1


class ActorError(RuntimeError):
    """An actor process failed; the message carries its traceback."""


def legal_softmax(logits: np.ndarray, legal: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Priors over each row's legal actions: the softmax of the network's logits there."""
    priors = []
    for row, actions in zip(logits, legal, strict=True):
        z = row[actions]
        z = np.exp(z - z.max())
        priors.append(z / z.sum())
    return priors


def softmax_evaluator(forward: Forward) -> BatchEvaluator:
    """A :data:`~stratagem.training.puct.BatchEvaluator` from a network's raw forward function.

    The in-process loop and the Ray actors both turn ``forward(observations) -> (logits,
    values)`` into priors over the legal actions this way; one definition keeps their searches
    reading the same priors.
    """

    def evaluate(
        observations: np.ndarray, legal: Sequence[np.ndarray]
    ) -> tuple[list[np.ndarray], np.ndarray]:
        logits, values = forward(observations)
        return legal_softmax(logits, legal), values

    return evaluate


#: CPU seconds spent for this process by processes that are not its children (Ray actors on
#: a cluster), as they reported them; :func:`cpu_seconds` counts them in.
_REMOTE_CPU = [0.0]


def add_remote_cpu(seconds: float) -> None:
    """Count ``seconds`` of CPU time spent elsewhere for this process (a Ray actor's report).

    Ray actors are no children of this process, so :mod:`resource` cannot see them; without
    this, a run on a cluster would report its self-play as nearly free.
    """
    _REMOTE_CPU[0] += max(0.0, float(seconds))


def cpu_seconds() -> float:
    """CPU time of this process plus that of its finished (joined) child processes.

    Actors are joined at the end of every phase, so a difference of two readings around a phase
    counts its actors whole, interpreter start included (no children's time without
    :mod:`resource`, i.e. on Windows). Ray actors' time is added as they report it
    (:func:`add_remote_cpu`).
    """
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return time.process_time() + _REMOTE_CPU[0]
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime + _REMOTE_CPU[0]


@dataclass
class FinishedGame:
    """The stored decisions of one finished game, in play order.

    Each is (observation, legal actions, policy target, value target or ``None``); ``index`` is
    the game's place in the phase, by which the buffer receives the games of actors.
    """

    index: int
    positions: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]]

    def compact(self) -> FinishedGame:
        """The same game in the replay buffer's dtypes: half the bytes through the pipe.

        The buffer casts to these types anyway, so the stored bits do not change.
        """
        return FinishedGame(
            self.index,
            [
                (obs.astype(np.float16), actions.astype(np.int32), pol.astype(np.float32), value)
                for obs, actions, pol, value in self.positions
            ],
        )


@dataclass
class _Game:
    """One self-play game in progress.

    ``opponent_seats`` are the seats played by ``selfplay_opponent`` (empty: pure self-play;
    every seat: a demonstration game);
    ``history`` holds the network's stored decisions: (observation, legal actions, policy
    target, mover).
    """

    index: int
    seed: int
    root: Node
    opponent_seats: frozenset[int] = frozenset()
    history: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = field(default_factory=list)
    moves: int = 0


class Diagnostics:
    """Running figures of one self-play phase: what the log line and TensorBoard show."""

    _COUNTS = (
        "games",
        "decided",
        "cut",
        "forced",
        "searched",
        "opponent_moves",
        "imitated",
        "value_count",
        "positions",
        "evaluated",
    )
    _LISTS = ("lengths", "rounds", "end_turn", "kl")

    def __init__(self, num_players: int) -> None:
        self.games = self.decided = self.cut = 0
        self.lengths: list[int] = []
        self.rounds: list[int] = []
        self.end_turn: list[float] = []
        self.kl: list[float] = []
        self.value_sum = np.zeros(num_players)
        self.value_count = 0
        self.targets: list[float] = []
        self.forced = self.searched = self.opponent_moves = self.imitated = 0
        self.positions = self.evaluated = 0

    def merge(self, other: Diagnostics) -> None:
        """Add another process's figures (counts summed, samples appended)."""
        for name in self._COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in self._LISTS:
            getattr(self, name).extend(getattr(other, name))
        self.value_sum = self.value_sum + other.value_sum

    def metrics(self) -> dict[str, float]:
        """The diagnostics as ``selfplay/*`` scalars."""

        def mean(xs: list[float] | list[int]) -> float:
            return float(np.mean(xs)) if xs else 0.0

        moves = max(self.forced + self.searched + self.opponent_moves, 1)
        out = {
            "selfplay/decided_share": self.decided / max(self.games, 1),
            "selfplay/cut_share": self.cut / max(self.games, 1),
            "selfplay/game_length": mean(self.lengths),
            "selfplay/kl_target_prior": mean(self.kl),
            "selfplay/forced_share": self.forced / moves,
            "selfplay/opponent_share": self.opponent_moves / moves,
        }
        if self.imitated:  # stored decisions of the baseline (imitate_opponent)
            out["selfplay/imitated_share"] = self.imitated / max(self.imitated + self.searched, 1)
        if self.rounds:
            out["selfplay/game_rounds"] = mean(self.rounds)
        if self.end_turn:
            out["selfplay/end_turn_target"] = mean(self.end_turn)
        for i, v in enumerate(self.value_sum / max(self.value_count, 1)):
            out[f"selfplay/value_output_{i}"] = float(v)
        if self.targets:
            t = np.asarray(self.targets)
            out["selfplay/value_target_abs"] = float(np.abs(t).mean())
            out["selfplay/value_target_std"] = float(t.std())
        return out


def end_turn_action(game: Game) -> int | None:
    """The flat index of the game's end-turn action, if its layout names one."""
    layout = game.spec.action_layout
    if layout is None:
        return None
    for i, name in enumerate(layout.global_actions):
        if name.replace(" ", "_").lower() == "end_turn":
            return layout.encode_global(i)
    return None


def finished_game(
    index: int,
    history: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]],
    state: State,
    moves: int,
    truncated: Callable[[State], np.ndarray | None],
    diag: Diagnostics,
) -> FinishedGame:
    """A game that ended (or was cut) at ``state``: its stored decisions with value targets.

    Counts it in ``diag``. A cut game's value is ``truncated(state)`` (the run's rule), a
    finished one's its returns; each decision gets the value from its mover's side.
    """
    cut = not state.is_terminal()
    returns = np.asarray(state.returns(), dtype=np.float64)
    outcome = truncated(state) if cut else returns
    positions = [
        (obs, actions, pol, None if outcome is None else np.roll(outcome, -player))
        for obs, actions, pol, player in history
    ]
    diag.games += 1
    diag.cut += int(cut)
    diag.decided += int(not cut and float(returns.max()) > float(returns.min()))
    diag.lengths.append(moves)
    rounds = state.round_number()
    if rounds is not None:
        diag.rounds.append(rounds)
    return FinishedGame(index, positions)


def imitate(
    history: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]],
    state: State,
    action: int,
    diag: Diagnostics,
) -> None:
    """Store a baseline's decision with its action as the policy target (not if forced)."""
    legal = state.legal_actions()
    if len(legal) < 2:
        return
    policy = (legal == action).astype(np.float32)
    history.append((state.observation(state.current_player), legal, policy, state.current_player))
    diag.imitated += 1


class GamePlayer:
    """Plays self-play games ``parallel`` at a time with one evaluator and one generator.

    Written once for both kinds of self-play, so that an actor plays exactly the games the
    in-process loop would with the same evaluator outputs and generator. A finished game is
    replaced at once, so the evaluation batch stays full; decisions with one legal action and
    the curriculum opponent's moves are applied without search and not stored.

    Args:
        game: The game.
        config: The run's :class:`~stratagem.training.config.AlphaZeroConfig`.
        rng: Draws curriculum seats, the opponent's moves and the search noise.
        evaluate: The batched leaf evaluator.
        parallel: Games played together.
        truncation_scale: Scale of the ``calibrated`` value of a cut game.
        on_finish: Receives every finished game as it ends.
    """

    def __init__(
        self,
        game: Game,
        config: AlphaZeroConfig,
        rng: np.random.Generator,
        evaluate: BatchEvaluator,
        *,
        parallel: int,
        truncation_scale: float,
        on_finish: Callable[[FinishedGame], None],
    ) -> None:
        self.game, self.config, self.rng, self.evaluate = game, config, rng, evaluate
        self.parallel = parallel
        self.on_finish = on_finish
        self.num_players = game.spec.num_players
        self.cap = config.max_moves or game.spec.max_game_length
        self.truncated = truncation_scorer(game, config.truncation_value, scale=truncation_scale)
        self.opponent = (
            make_agent(config.selfplay_opponent, game) if config.uses_opponent() else None
        )
        self.end_turn = end_turn_action(game)
        self.diag = Diagnostics(self.num_players)

    def play(self, games: Sequence[tuple[int, int]]) -> None:
        """Play the games given as (index, seed) pairs, in that order of starting."""
        config, rng = self.config, self.rng
        to_start = list(games)
        active: list[_Game] = []
        while to_start or active:
            while True:  # refill, and play up to the next searched decision of every game
                while to_start and len(active) < self.parallel:
                    index, seed = to_start.pop(0)
                    seats = config.draw_opponent_seats(rng, self.num_players)
                    state = self.game.new_initial_state(seed)
                    active.append(_Game(index, seed, Node(state), seats))
                before = len(active)
                active = [g for g in active if self._advance(g)]
                if len(active) == before or not to_start:
                    break
            if not active:
                break
            active = self._search_and_move(active)

    def _is_cut(self, g: _Game) -> bool:
        if g.moves >= self.cap:
            return True
        if self.config.cut_rounds is not None:
            rounds = g.root.state.round_number()
            return rounds is not None and rounds > self.config.cut_rounds
        return False

    def _finish(self, g: _Game) -> None:
        self.on_finish(
            finished_game(g.index, g.history, g.root.state, g.moves, self.truncated, self.diag)
        )

    def _advance(self, g: _Game) -> bool:
        """Play forced and opponent moves; False once the game is over (or cut)."""
        while not g.root.terminal and not self._is_cut(g):
            state = g.root.state
            if self.opponent is not None and state.current_player in g.opponent_seats:
                mover = state.current_player
                action = self.opponent.act(state.observed_by(mover), rng=self.rng)
                self.diag.opponent_moves += 1
                if self.config.imitate_opponent or len(g.opponent_seats) == self.num_players:
                    self._imitate(g, state, int(action))
            else:
                legal = state.legal_action_list()
                if len(legal) != 1:
                    return True
                action = legal[0]
                self.diag.forced += 1
            state = state.clone()
            state.apply(int(action))
            g.root = Node(state)
            g.moves += 1
        self._finish(g)
        return False

    def _imitate(self, g: _Game, state: State, action: int) -> None:
        """Store the opponent's decision with its action as the policy target (not if forced)."""
        imitate(g.history, state, action, self.diag)

    def _search_and_move(self, active: list[_Game]) -> list[_Game]:
        """Search every game's position together, store the decisions and play them.

        Returns the games that go on.
        """
        config, rng, n, diag = self.config, self.rng, self.num_players, self.diag
        explore = config.exploration_moves()
        roots = [g.root for g in active]
        if config.algorithm == "gumbel":
            results, count = gumbel_search(
                roots,
                self.evaluate,
                config.simulations,
                n,
                rng=rng,
                noise=[explore is None or g.moves < explore for g in active],
                max_considered=config.max_considered,
            )
            diag.evaluated += count
            priors = [r.prior.copy() for r in roots]  # type: ignore[union-attr]
        else:
            diag.evaluated += run_simulations(roots, self.evaluate, 0, config.c_puct, n)
            priors = [r.prior.copy() for r in roots]  # type: ignore[union-attr]
            for g in active:
                add_root_noise(g.root, config.dirichlet_alpha, config.dirichlet_epsilon, rng)
            diag.evaluated += run_simulations(
                roots, self.evaluate, config.simulations, config.c_puct, n
            )
        still = []
        for i, g in enumerate(active):
            root = g.root
            assert root.actions is not None and root.raw_value is not None
            if config.algorithm == "gumbel":
                result = results[i]
                assert result is not None
                policy, a = result.policy, result.action_index
            else:
                temperature = 1.0 if explore is None or g.moves < explore else 0.0
                policy = visit_policy(root, 1.0)
                choice = visit_policy(root, temperature)
                a = int(rng.choice(len(choice), p=choice))
            g.history.append(
                (root.state.observation(root.player), root.actions, policy, root.player)
            )
            diag.searched += 1
            prior = np.maximum(priors[i], 1e-12)
            nz = policy > 0
            diag.kl.append(float(np.sum(policy[nz] * np.log(policy[nz] / prior[nz]))))
            if self.end_turn is not None:
                hit = np.flatnonzero(root.actions == self.end_turn)
                diag.end_turn.append(float(policy[hit[0]]) if len(hit) else 0.0)
            diag.value_sum += np.roll(root.raw_value, -root.player)
            diag.value_count += 1
            g.root = self._next_root(root, a, config.algorithm == "gumbel")
            g.moves += 1
            diag.positions += 1
            if g.root.terminal or self._is_cut(g):
                self._finish(g)
            else:
                still.append(g)
        return still

    def _next_root(self, root: Node, a: int, fresh_root: bool) -> Node:
        """The child played, as the next root.

        Gumbel's schedule assumes a root without visits: it keeps only the child's expansion.
        """
        child = root.children[a]
        if child is not None and not fresh_root:
            return child
        state = root.state.clone() if child is None else child.state
        if child is None:
            state.apply(int(root.actions[a]))  # type: ignore[index]
        fresh = Node(state)
        if child is not None and child.expanded:
            assert child.actions is not None and child.prior is not None
            assert child.raw_value is not None
            fresh.expand(child.actions, child.prior, self.num_players, child.raw_value)
        return fresh


# --- actor processes ------------------------------------------------------------------------


@dataclass
class _Job:
    """What one actor plays: (index, seed) of its games, its parallel games and its seed."""

    actor: int
    games: list[tuple[int, int]]
    parallel: int
    seed: int
    truncation_scale: float


class _Slots:
    """An actor's shared arrays: observations in, logits and values out, ``rows`` leaves each."""

    def __init__(self, raw: tuple[Any, Any, Any], rows: int, game: Game) -> None:
        spec = game.spec
        self.raw = raw
        self.obs = np.frombuffer(raw[0], dtype=np.float32).reshape(rows, *spec.observation_shape)
        self.logits = np.frombuffer(raw[1], dtype=np.float32).reshape(rows, spec.action_size)
        self.values = np.frombuffer(raw[2], dtype=np.float32).reshape(rows, spec.num_players)

    @classmethod
    def create(cls, ctx: Any, rows: int, game: Game) -> _Slots:
        spec = game.spec
        sizes = (
            rows * int(np.prod(spec.observation_shape)),
            rows * spec.action_size,
            rows * spec.num_players,
        )
        return cls(tuple(ctx.RawArray("f", size) for size in sizes), rows, game)  # type: ignore[arg-type]


class _RemoteEvaluator:
    """The actor's :data:`BatchEvaluator`: leaves to the server through the shared arrays.

    The slots hold one leaf per parallel game; a step of the Gumbel search can bring more (a
    round of sequential halving descends into every surviving candidate), which go to the
    server in slot-sized parts.
    """

    def __init__(self, conn: Connection, slots: _Slots) -> None:
        self.conn, self.slots = conn, slots

    def __call__(
        self, observations: np.ndarray, legal: Sequence[np.ndarray]
    ) -> tuple[list[np.ndarray], np.ndarray]:
        rows = len(self.slots.obs)
        priors: list[np.ndarray] = []
        values: list[np.ndarray] = []
        for start in range(0, len(observations), rows):
            k = min(rows, len(observations) - start)
            self.slots.obs[:k] = observations[start : start + k]
            self.conn.send(("eval", k))
            self.conn.recv_bytes()
            priors += legal_softmax(self.slots.logits[:k], legal[start : start + k])
            values.append(self.slots.values[:k].copy())
        return priors, np.concatenate(values)


def _share_game(ctx: Any, game: Game) -> Any:
    """``game`` pickled once into shared memory, for every actor to unpickle.

    Handing the game itself to ``Process`` pickles it into each actor's start-up pipe (0.2 to
    1.2 MB for the Stratega games), and the write blocks until that actor's interpreter is up to
    read it, so actors started one after another: 15 actors took 13.7 s of a 35 s phase on the
    16-core GPU machine. A shared buffer's handle is a few bytes, and the actors boot together.
    """
    blob = pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)
    shared = ctx.RawArray(ctypes.c_ubyte, len(blob))
    ctypes.memmove(shared, blob, len(blob))
    return shared


def _actor_main(
    conn: Connection, shared_game: Any, config: AlphaZeroConfig, job: _Job, raw: tuple
) -> None:
    """An actor process: play the job's games, send each finished game, then the diagnostics."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the server stops the actors
    try:
        game: Game = pickle.loads(memoryview(shared_game).cast("B"))
        slots = _Slots(raw, job.parallel, game)
        player = GamePlayer(
            game,
            config,
            np.random.default_rng(job.seed),
            _RemoteEvaluator(conn, slots),
            parallel=job.parallel,
            truncation_scale=job.truncation_scale,
            on_finish=lambda done: conn.send(("game", done.compact())),
        )
        player.play(job.games)
        conn.send(("done", player.diag))
    except (EOFError, BrokenPipeError, ConnectionResetError):
        pass  # the server is gone (it stopped or died): nothing to report to
    except BaseException:
        try:
            conn.send(("error", traceback.format_exc()))
        except OSError:
            pass
    finally:
        conn.close()


def _deal(count: int, parts: int) -> list[np.ndarray]:
    """``range(count)`` cut into ``parts`` contiguous shares (the first ones one longer)."""
    return np.array_split(np.arange(count), parts)


def run_actors(
    game: Game,
    config: AlphaZeroConfig,
    seeds: Sequence[int],
    actor_seeds: Sequence[int],
    forward: Forward,
    *,
    truncation_scale: float = 1.0,
    on_game: Callable[[], None] | None = None,
    groups: int | None = None,
) -> tuple[list[FinishedGame], Diagnostics]:
    """Play the games ``seeds`` in ``len(actor_seeds)`` actor processes; this process serves.

    Args:
        game: The game (pickled to every actor).
        config: The run's config; ``parallel_games`` is split among the actors.
        seeds: One seed per game; actor ``a`` plays the ``a``-th contiguous share.
        actor_seeds: One generator seed per actor.
        forward: The network, raw (run here, on the device).
        truncation_scale: Scale of the ``calibrated`` value of a cut game.
        on_game: Called once per finished game (a progress bar).
        groups: Groups of actors evaluated together (see the module docstring); ``None``:
            :data:`DEFAULT_GROUPS`, read at call time (the benchmark compares settings).

    Returns:
        The finished games sorted by index, and the actors' diagnostics summed.

    Raises:
        ActorError: An actor failed (its traceback is in the message) or died.
    """
    actors = len(actor_seeds)
    groups = min(groups or DEFAULT_GROUPS, actors)
    shares = _deal(len(seeds), actors)
    parallel = [max(1, len(p)) for p in _deal(config.parallel_games, actors)]
    jobs = [
        _Job(
            a,
            [(int(i), int(seeds[i])) for i in share],
            parallel[a],
            int(actor_seeds[a]),
            truncation_scale,
        )
        for a, share in enumerate(shares)
        if len(share)
    ]
    ctx = multiprocessing.get_context("spawn")
    procs: list[Any] = []
    conns: list[Connection] = []
    slots: list[_Slots] = []
    graceful = False
    shared_game = _share_game(ctx, game)
    try:
        for job in jobs:
            parent, child = ctx.Pipe()
            slots.append(_Slots.create(ctx, job.parallel, game))
            proc = ctx.Process(
                target=_actor_main,
                args=(child, shared_game, config, job, slots[-1].raw),
                name=f"stratagem-actor-{job.actor}",
                daemon=True,
            )
            proc.start()
            child.close()
            procs.append(proc)
            conns.append(parent)
        finished, diag = _serve(procs, conns, slots, forward, groups, on_game, game)
        graceful = True
    finally:
        _stop(procs, conns, graceful)
    return sorted(finished, key=lambda done: done.index), diag


def _serve(
    procs: list[Any],
    conns: list[Connection],
    slots: list[_Slots],
    forward: Forward,
    groups: int,
    on_game: Callable[[], None] | None,
    game: Game,
) -> tuple[list[FinishedGame], Diagnostics]:
    """The inference server's loop: read the actors' messages, evaluate complete groups."""
    live = set(range(len(procs)))
    pending: dict[int, int] = {}  # actor -> leaves waiting in its slots
    finished: list[FinishedGame] = []
    reports: dict[int, Diagnostics] = {}
    members = [[a for a in range(len(procs)) if a % groups == g] for g in range(groups)]
    by_sentinel = {p.sentinel: a for a, p in enumerate(procs)}
    by_conn = {id(c): a for a, c in enumerate(conns)}

    def failed(a: int, why: str) -> ActorError:
        return ActorError(f"self-play actor {a} ({procs[a].name}) {why}")

    def read(a: int) -> None:
        while a in live and conns[a].poll():
            try:
                kind, payload = conns[a].recv()
            except EOFError:
                procs[a].join(timeout=1.0)
                why = f"ended (exit code {procs[a].exitcode}) before finishing its games"
                raise failed(a, why) from None
            if kind == "eval":
                pending[a] = payload
            elif kind == "game":
                finished.append(payload)
                if on_game is not None:
                    on_game()
            elif kind == "done":
                reports[a] = payload
                live.discard(a)
            else:
                raise failed(a, f"failed:\n{payload}")

    while live:
        ready = wait([conns[a] for a in live] + [procs[a].sentinel for a in live])
        for obj in ready:
            a = by_sentinel[obj] if isinstance(obj, int) else by_conn[id(obj)]
            read(a)
            if isinstance(obj, int) and a in live:  # exited without a word: killed, crashed
                procs[a].join(timeout=1.0)
                why = f"ended (exit code {procs[a].exitcode}) before finishing its games"
                raise failed(a, why)
        for group in members:
            batch = [a for a in group if a in live]
            if batch and all(a in pending for a in batch):
                _evaluate_group(batch, pending, slots, conns, forward)
    diag = Diagnostics(game.spec.num_players)
    for a in sorted(reports):
        diag.merge(reports[a])
    return finished, diag


def _evaluate_group(
    batch: list[int],
    pending: dict[int, int],
    slots: list[_Slots],
    conns: list[Connection],
    forward: Forward,
) -> None:
    """One forward pass over the waiting leaves of ``batch`` (in actor order), answers sent."""
    parts = [slots[a].obs[: pending[a]] for a in batch]
    logits, values = forward(parts[0] if len(parts) == 1 else np.concatenate(parts))
    start = 0
    for a in batch:
        k = pending.pop(a)
        slots[a].logits[:k] = logits[start : start + k]
        slots[a].values[:k] = values[start : start + k]
        start += k
        conns[a].send_bytes(b"1")


def _stop(procs: list[Any], conns: list[Connection], graceful: bool) -> None:
    """Join the actors (a grace period when they finished), then SIGTERM, then SIGKILL."""
    for conn in conns:
        conn.close()  # an actor still waiting for an answer ends on EOF
    for proc in procs:
        proc.join(timeout=10.0 if graceful else 0.5)
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
            proc.join(timeout=5.0)
        if proc.is_alive():
            proc.kill()
            proc.join()
