"""AlphaZero self-play on a Ray cluster: ``stratagem train alphazero ... --backend ray``.

Only the self-play phase moves. The learner, the replay buffer, the evaluations and the
checkpoints are those of :func:`stratagem.training.alphazero.train`, in the process that runs
it; each iteration hands the network's weights to the cluster, which plays
``games_per_iteration`` games with the same per-game code as the local actors
(:class:`~stratagem.training.actors.GamePlayer` and the trees of :mod:`.puct`) and sends back
the stored decisions, which enter the buffer in the order of the games' indices.

**Actors.** ``actors`` Ray actors of one CPU each, spread over the nodes. The games of a phase
are cut into chunks of twice an actor's parallel games (``parallel_games / actors``), each with
a generator seed of its own drawn from the run's generator; actors take chunks as they free up,
so a fast node plays more of them. A chunk's games depend only on its games' seeds, its own
seed and the network, never on which actor plays it.

**Leaves.** ``ray_inference``: ``server`` puts one inference actor on the cluster's GPU (on a
CPU when there is none) that batches the leaves of all actors as they arrive (it waits
:data:`SERVER_WAIT_S` at most for every actor's request) and answers each with its rows of
logits and values; ``local`` gives every actor its own copy of the network on its CPU, which
costs no round trips and plays the same games for the same seed (a batch's outputs depend on the
rows around it, so the server's timing-dependent batches make it reproducible only in
distribution); ``auto`` picks ``server`` when the cluster has a GPU. The weights travel once per
iteration through Ray's object store, and an actor loads them when the phase's version changes.

**Failures.** A killed actor (or a lost node) loses only the chunks it was playing: Ray starts a
replacement (``max_restarts=-1``) and runs those chunks again on it, from their seeds, so the
phase stores the games it would have stored. Ray tries a chunk :data:`MAX_CHUNK_TRIES` times;
past that (and when the inference server was lost) this process resubmits it, with a warning,
as often again before it gives up. A dead inference server is restarted the same way and
reloads the weights on the next request. An exception in the game code is no accident to
retry: it ends the run as :class:`~stratagem.training.actors.ActorError`, with the actor's
traceback.

**CPU time.** Each chunk reports the CPU time its actor spent (and the server its own), added to
:func:`~stratagem.training.actors.cpu_seconds`, so ``cpu_seconds`` in logs and checkpoints counts
the cluster's work too.

Ray is imported only here and only when ``backend = "ray"``; torch only in the processes that
run the network.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from stratagem.envs.core import Game, GameSpec
from stratagem.training.actors import (
    ActorError,
    Diagnostics,
    FinishedGame,
    GamePlayer,
    add_remote_cpu,
    legal_softmax,
    softmax_evaluator,
)
from stratagem.training.config import AlphaZeroConfig

__all__ = ["MAX_CHUNK_TRIES", "SERVER_WAIT_S", "RaySelfPlay"]

log = logging.getLogger(__name__)

#: Times one chunk of games is started before a run gives up on it (lost actors or nodes).
MAX_CHUNK_TRIES = 4

#: Longest wait of the inference server for the other actors' leaves before it evaluates the
#: ones it has (seconds).
SERVER_WAIT_S = 0.002

#: Chunks queued on one actor: the next starts while the driver handles the last one's result.
_IN_FLIGHT = 2


@dataclasses.dataclass(frozen=True)
class _Chunk:
    """Games played together by one actor: (index, seed) pairs and the generator's seed."""

    number: int
    games: list[tuple[int, int]]
    seed: int
    truncation_scale: float


def _network(spec: GameSpec, config: AlphaZeroConfig, device: Any) -> Any:
    """The run's network (weights to be loaded) on ``device``, and its raw forward function."""
    from stratagem.training.alphazero import network_forward, network_from_config

    net = network_from_config(spec, dataclasses.asdict(config)).to(device)
    return net, network_forward(net, device, graphs=config.cuda_graphs)


class _InferenceServer:
    """The leaves of every actor, batched and evaluated on one device (a GPU when it has one).

    An asyncio actor: requests queue while a forward pass runs (in a worker thread), and the
    next pass takes every request waiting, up to one per actor, after at most ``max_wait``.
    """

    def __init__(
        self, spec: GameSpec, config: AlphaZeroConfig, expected: int, max_wait: float
    ) -> None:
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        if device.type == "cpu":
            torch.set_num_threads(config.threads or 1)
        self.net, self.forward = _network(spec, config, device)
        self.device = str(device)
        self.expected, self.max_wait = max(1, expected), max_wait
        self.version: int | None = None
        self.queue: list[tuple[np.ndarray, asyncio.Future]] = []
        self.flusher: asyncio.Task | None = None
        self.executor = ThreadPoolExecutor(1)
        self.load_lock: asyncio.Lock | None = None
        self.full: asyncio.Event | None = None

    def where(self) -> str:
        """The device the network runs on (for the run's log)."""
        return self.device

    def cpu_seconds(self) -> float:
        """CPU time of this process so far."""
        return time.process_time()

    async def evaluate(
        self, version: int, weights: list[Any], observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Logits and values of ``observations`` by the network of ``version``."""
        if self.load_lock is None:
            self.load_lock, self.full = asyncio.Lock(), asyncio.Event()
        assert self.full is not None
        if version != self.version:
            async with self.load_lock:
                if version != self.version:  # a new phase, or a restarted server
                    self.net.load_state_dict(await weights[0])
                    self.version = version
        future = asyncio.get_running_loop().create_future()
        self.queue.append((observations, future))
        if len(self.queue) >= self.expected:
            self.full.set()
        if self.flusher is None or self.flusher.done():
            self.flusher = asyncio.ensure_future(self._flush())
        return await future

    async def _flush(self) -> None:
        assert self.full is not None
        loop = asyncio.get_running_loop()
        while self.queue:
            if len(self.queue) < self.expected:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self.full.wait(), self.max_wait)
            self.full.clear()
            batch, self.queue = self.queue, []
            try:
                observations = np.concatenate([obs for obs, _ in batch])
                logits, values = await loop.run_in_executor(
                    self.executor, self.forward, observations
                )
            except Exception as exc:  # every waiting actor gets the error
                for _, future in batch:
                    future.set_exception(exc)
                continue
            start = 0
            for obs, future in batch:
                k = len(obs)
                future.set_result((logits[start : start + k], values[start : start + k]))
                start += k


class _ServerEvaluator:
    """An actor's :data:`~stratagem.training.puct.BatchEvaluator` that asks the server."""

    def __init__(self, ray: Any, server: Any, version: int, weights: list[Any]) -> None:
        self.ray, self.server, self.version, self.weights = ray, server, version, weights

    def __call__(
        self, observations: np.ndarray, legal: Sequence[np.ndarray]
    ) -> tuple[list[np.ndarray], np.ndarray]:
        logits, values = self.ray.get(
            self.server.evaluate.remote(self.version, self.weights, observations)
        )
        return legal_softmax(logits, legal), np.array(values)


class _SelfPlayActor:
    """One CPU of the cluster playing chunks of self-play games."""

    def __init__(
        self, spec: GameSpec, config: AlphaZeroConfig, parallel: int, server: Any | None
    ) -> None:
        self.config, self.parallel, self.server = config, parallel, server
        self.game: Game | None = None
        self.version: int | None = None
        self.net: Any = None
        self.forward: Any = None
        if server is None:  # torch and the network now, not in the first phase's time
            import torch

            torch.set_num_threads(1)  # one CPU per actor
            self.net, self.forward = _network(spec, config, torch.device("cpu"))

    def ready(self) -> tuple[str, int]:
        """Node address and process id: the actor is up."""
        import ray

        return ray.util.get_node_ip_address(), os.getpid()

    def _evaluator(self, version: int, weights: list[Any]) -> Callable:
        import ray

        if self.server is not None:
            return _ServerEvaluator(ray, self.server, version, weights)
        if version != self.version:
            self.net.load_state_dict(ray.get(weights[0]))
            self.version = version
        return softmax_evaluator(self.forward)

    def play(
        self, chunk: _Chunk, version: int, weights: list[Any], game: list[Any]
    ) -> tuple[list[FinishedGame], Diagnostics, float]:
        """Play a chunk with the network of ``version``: its games, diagnostics and CPU time.

        ``weights`` and ``game`` each hold one object-store reference, fetched when new (a
        reference inside a list reaches the method unresolved, so each is fetched once).
        """
        import ray

        start = time.process_time()
        if self.game is None:
            self.game = ray.get(game[0])
        finished: list[FinishedGame] = []
        player = GamePlayer(
            self.game,
            self.config,
            np.random.default_rng(chunk.seed),
            self._evaluator(version, weights),
            parallel=self.parallel,
            truncation_scale=chunk.truncation_scale,
            on_finish=lambda done: finished.append(done.compact()),
        )
        player.play(chunk.games)
        return finished, player.diag, time.process_time() - start


class RaySelfPlay:
    """The Ray actors of one training run: a context manager around every self-play phase.

    Args:
        game: The game (sent once to the cluster's object store).
        config: The run's configuration (``actors``, ``ray_address``, ``ray_inference``, ...).

    Use ``with RaySelfPlay(game, config) as pool:`` and :meth:`play` once per iteration; leaving
    the block ends the actors and the Ray connection opened for the run (a Ray instance started
    for it is stopped).
    """

    def __init__(self, game: Game, config: AlphaZeroConfig) -> None:
        self.game, self.config = game, config
        self.parallel = max(1, config.parallel_games // config.actors)
        self.chunk_size = 2 * self.parallel
        self.version = 0
        self.inference = config.ray_inference
        self._stack = contextlib.ExitStack()
        self._ray: Any = None
        self._actors: list[Any] = []
        self._server: Any = None
        self._game_ref: Any = None

    def __enter__(self) -> RaySelfPlay:
        from stratagem.baselines.ray_backend import ray_session

        try:
            self._start(ray_session)
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self, ray_session: Any) -> None:
        config = self.config
        cpus_here = max(config.actors, os.cpu_count() or 1)
        ray = self._ray = self._stack.enter_context(
            ray_session(config.ray_address, num_cpus=cpus_here)
        )
        resources = ray.cluster_resources()
        cpus, gpus = int(resources.get("CPU", 0)), int(resources.get("GPU", 0))
        if config.actors > cpus:
            raise ValueError(
                f"{config.actors} self-play actors need {config.actors} CPUs; the Ray cluster "
                f"has {cpus}: use --actors {max(cpus, 1)} or fewer, or add nodes"
            )
        if self.inference == "auto":
            self.inference = "server" if gpus >= 1 else "local"
        # Constructors get only small values (a restarted actor is built from the same
        # arguments); the game goes once into the object store and each actor fetches it on its
        # first chunk (up to a megabyte for the Stratega games).
        self._game_ref = ray.put(self.game)
        spec = self.game.spec
        if self.inference == "server":
            # No CPU reserved: its work is on the GPU (or it waits for leaves), and the actors
            # should have every CPU of a small cluster.
            self._server = (
                ray.remote(_InferenceServer)
                .options(num_cpus=0, num_gpus=1 if gpus >= 1 else 0, max_restarts=-1)
                .remote(spec, config, config.actors, SERVER_WAIT_S)
            )
        # A lost actor is restarted, and the chunks it had are run again on the new one (Ray
        # waits for the restart; a chunk is a pure function of its seeds and the weights).
        actor = ray.remote(_SelfPlayActor).options(
            num_cpus=1,
            max_restarts=-1,
            max_task_retries=MAX_CHUNK_TRIES - 1,
            scheduling_strategy="SPREAD",
        )
        self._actors = [
            actor.remote(spec, config, self.parallel, self._server) for _ in range(config.actors)
        ]
        try:
            places = ray.get([a.ready.remote() for a in self._actors])
        except ray.exceptions.RayActorError as exc:  # e.g. a node without torch
            raise ActorError(
                f"a self-play actor could not start on the Ray cluster: {exc}"
            ) from exc
        nodes = len({ip for ip, _ in places})
        where = "each actor's CPU"
        if self._server is not None:
            where = f"an inference actor on {ray.get(self._server.where.remote())}"
        log.info(
            "self-play on Ray: %d actors on %d node(s), leaves evaluated on %s",
            len(self._actors),
            nodes,
            where,
        )

    def close(self) -> None:
        """End the actors and the Ray connection opened for the run."""
        if self._ray is not None:
            for handle in [*self._actors, self._server]:
                if handle is not None:
                    with contextlib.suppress(Exception):
                        self._ray.kill(handle)
        self._actors, self._server, self._game_ref = [], None, None
        self._stack.close()
        self._ray = None

    def actor_pids(self) -> list[int]:
        """Process ids of the actors (tests kill one)."""
        return [pid for _, pid in self._ray.get([a.ready.remote() for a in self._actors])]

    def play(
        self,
        net: Any,
        seeds: Sequence[int],
        rng: np.random.Generator,
        *,
        truncation_scale: float = 1.0,
        on_game: Callable[[], None] | None = None,
    ) -> tuple[list[FinishedGame], Diagnostics]:
        """Play the games ``seeds`` with ``net``'s weights on the cluster.

        Args:
            net: The network self-play uses (its weights are sent, not the module).
            seeds: One seed per game.
            rng: The run's generator: draws one seed per chunk.
            truncation_scale: Scale of the ``calibrated`` value of a cut game.
            on_game: Called once per finished game (a progress bar).

        Returns:
            The finished games sorted by index, and the chunks' diagnostics summed.

        Raises:
            ActorError: The game code failed in an actor (with its traceback), or a chunk was
                lost :data:`MAX_CHUNK_TRIES` times.
        """
        ray = self._ray
        games = [(i, int(s)) for i, s in enumerate(seeds)]
        starts = range(0, len(games), self.chunk_size)
        chunk_seeds = [int(s) for s in rng.integers(2**31, size=len(starts))]
        chunks = [
            _Chunk(n, games[i : i + self.chunk_size], chunk_seeds[n], truncation_scale)
            for n, i in enumerate(starts)
        ]
        self.version += 1
        weights = [ray.put({k: v.detach().cpu() for k, v in net.state_dict().items()})]
        server_cpu = self._server_cpu()
        todo: deque[_Chunk] = deque(chunks)
        in_flight: dict[Any, tuple[int, _Chunk]] = {}
        load = [0] * len(self._actors)
        tries = [0] * len(chunks)
        results: dict[int, tuple[list[FinishedGame], Diagnostics]] = {}
        while todo or in_flight:
            for a, handle in enumerate(self._actors):
                while todo and load[a] < _IN_FLIGHT:
                    chunk = todo.popleft()
                    tries[chunk.number] += 1
                    call = handle.play.remote(chunk, self.version, weights, [self._game_ref])
                    in_flight[call] = (a, chunk)
                    load[a] += 1
            ready, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in ready:
                a, chunk = in_flight.pop(ref)
                load[a] -= 1
                try:
                    finished, diag, cpu = ray.get(ref)
                except Exception as exc:
                    if not _lost(ray, exc):
                        raise ActorError(f"self-play actor {a} failed:\n{exc}") from exc
                    # the actor's own retries are spent (or the server was lost): try again,
                    # a bounded number of times
                    if tries[chunk.number] >= MAX_CHUNK_TRIES:
                        raise ActorError(
                            f"self-play chunk {chunk.number} ({len(chunk.games)} games) was lost "
                            f"{tries[chunk.number]} times: {exc}"
                        ) from exc
                    log.warning(
                        "self-play chunk %d was lost (%s); its %d games are played again",
                        chunk.number,
                        type(exc).__name__,
                        len(chunk.games),
                    )
                    time.sleep(1.0)  # a restarting actor or server
                    todo.appendleft(chunk)
                    continue
                results[chunk.number] = (finished, diag)
                add_remote_cpu(cpu)
                if on_game is not None:
                    for _ in finished:
                        on_game()
        after = self._server_cpu()
        if server_cpu is not None and after is not None:
            add_remote_cpu(after - server_cpu)  # negative (a restarted server): counted as 0
        total = Diagnostics(self.game.spec.num_players)
        finished_games: list[FinishedGame] = []
        for number in range(len(chunks)):
            finished, diag = results[number]
            finished_games.extend(finished)
            total.merge(diag)
        return sorted(finished_games, key=lambda done: done.index), total

    def _server_cpu(self) -> float | None:
        if self._server is None:
            return None
        try:
            return float(self._ray.get(self._server.cpu_seconds.remote()))
        except Exception:  # a server that is restarting: this phase's time is not counted
            return None


def _lost(ray: Any, exc: BaseException) -> bool:
    """Whether ``exc`` means a process or node was lost (retry) rather than a bug (raise)."""
    lost = (
        ray.exceptions.RayActorError,
        ray.exceptions.WorkerCrashedError,
        ray.exceptions.NodeDiedError,
        ray.exceptions.ObjectLostError,
        ray.exceptions.OutOfMemoryError,
    )
    if isinstance(exc, lost):
        return True
    cause = getattr(exc, "cause", None) if isinstance(exc, ray.exceptions.RayTaskError) else None
    return isinstance(cause, lost)  # the actor's call to a lost inference server
