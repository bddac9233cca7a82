"""Running a tournament: :func:`run_tournament`, its worker pool, resume and progress bar.

:func:`run_tournament` checks the options, schedules the games (:mod:`.schedule`), skips those
already in the results file (:mod:`.records`), plays the rest in this process, in ``spawn``
worker processes that end with the tournament process, or on Ray, and collects the records
into a :class:`~.summary.TournamentResult`.
"""

from __future__ import annotations

import multiprocessing as mp
import multiprocessing.connection
import os
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from stratagem.baselines.agent import make_agent, parse_agent_spec
from stratagem.baselines.tournament.playing import end_statistics, game_of, play_task
from stratagem.baselines.tournament.records import _append, read_results
from stratagem.baselines.tournament.schedule import expand_maps, make_tasks
from stratagem.baselines.tournament.summary import TournamentResult
from stratagem.envs.core import Game

__all__ = ["run_tournament"]


def run_tournament(
    game: str,
    agents: Sequence[str] | Mapping[str, str],
    *,
    games: int = 20,
    against: Sequence[str] | Mapping[str, str] | None = None,
    config: Mapping[str, Any] | None = None,
    maps: Sequence[str] | None = None,
    levels: int | None = None,
    seed: int = 0,
    workers: int = 1,
    out: str | Path | None = None,
    progress: bool = False,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    backend: str = "local",
    ray_address: str | None = None,
    level_seeds: Sequence[int] | None = None,
    symmetric: bool = False,
    tie_break: str | None = None,
) -> TournamentResult:
    """Play (or resume) a tournament and return its results.

    Args:
        game: Registry name.
        agents: Agent specs (named by themselves) or a name -> spec mapping (presets).
        games: Games per pairing.
        against: Fixed opponents for a gauntlet instead of a round robin.
        config: Game configuration keywords.
        maps: Values of the game's ``map`` option to cycle over (``"kwah:1-50"`` expands).
        levels: Number of distinct level seeds to cycle over.
        seed: Base seed.
        workers: Worker processes; 1 plays in this process. With ``backend="ray"``: the CPUs
            of the Ray instance started on this machine when no cluster address is given.
        out: JSON Lines file; finished games in it are not replayed, new ones are appended.
        progress: Show a progress bar (tqdm) on stderr.
        on_result: Called with each new record as it arrives (after it is saved).
        backend: ``local`` (worker processes here) or ``ray`` (one Ray task per game, see
            :mod:`stratagem.baselines.ray_backend`; needs the ``distributed`` extra).
        ray_address: Ray cluster to run on with ``backend="ray"`` (``None``: the
            ``RAY_ADDRESS`` variable, else a Ray instance started here and stopped after).
        level_seeds: Initial-state seeds cycled over game pairs, as given (a paper's fixed
            scenarios); not with ``levels``.
        symmetric: Score pairs of games, not games (two-player games, an even ``games``):
            the CotG paper's symmetric battles, see :func:`pair_score`. Only the tables
            change; the games played and their records are the same.
        tie_break: Per-player end statistic (``State.end_statistics``) that decides a split
            pair, e.g. ``"hp"`` in CotG combat; needs ``symmetric``.

    Raises:
        ValueError: For unknown agents, games, options or backends, fewer than one worker, or
            a scoring the game cannot have (checked before any game starts); a
            :class:`~stratagem.baselines.ray_backend.MissingExtraError` (also an
            ``ImportError``) for ``backend="ray"`` without Ray installed.
        RuntimeError: An agent failed in a game (or, on Ray, a game was lost too often).
        KeyboardInterrupt: When interrupted; every finished game is already saved.
    """
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer (1 plays here), got {workers!r}")
    if ray_address and backend != "ray":
        raise ValueError("a Ray address needs backend 'ray' (--backend ray)")
    if backend == "ray":
        from stratagem.baselines.ray_backend import check_reachable, import_ray

        import_ray()  # without the extra, say so before anything else
        if ray_address:
            check_reachable(ray_address)
    named = _named(agents)
    opponents = _named(against) if against else None
    if maps:
        maps = expand_maps(maps)
    if tie_break is not None and not symmetric:
        raise ValueError("a tie-break decides split pairs: it needs symmetric scoring")
    if symmetric and games % 2:
        raise ValueError(f"symmetric scoring plays games in pairs: games must be even, not {games}")
    tasks = make_tasks(
        game,
        named,
        games=games,
        against=opponents,
        config=config,
        maps=maps,
        levels=levels,
        seed=seed,
        level_seeds=level_seeds,
    )
    probe = game_of(tasks[0].game, tasks[0].config)
    for name in dict.fromkeys(maps or ()):  # every map given, not only the first games' maps
        game_of(game, {**(config or {}), "map": name})
    if symmetric:
        _check_symmetric(probe, tie_break)
    for spec in {**named, **(opponents or {})}.values():
        make_agent(spec, probe)  # fail now, not in a worker an hour later
    order = list(named) + [n for n in (opponents or {}) if n not in named]
    result = TournamentResult(game=game, agents=order, symmetric=symmetric, tie_break=tie_break)
    wanted = {t.key for t in tasks}
    path = Path(out) if out is not None else None
    done: dict[str, dict[str, Any]] = {}
    if path is not None:
        for rec in read_results(path):
            if rec["key"] in wanted:
                done[rec["key"]] = rec
    result.records = list(done.values())
    todo = [t for t in tasks if t.key not in done]
    result.pending = len(todo)

    def accept(record: dict[str, Any]) -> None:
        if path is not None:
            _append(path, record)
        result.records.append(record)
        result.pending -= 1
        if on_result is not None:
            on_result(record)

    bar = _progress_bar(len(tasks), len(done), progress)
    try:
        if backend == "ray":
            from stratagem.baselines.ray_backend import play_on_ray

            for record in play_on_ray(
                todo,
                address=ray_address,
                num_cpus=workers,
                rules_versions={game: probe.spec.version},
            ):
                accept(record)
                bar.update(1)
        elif workers <= 1 or len(todo) <= 1:
            for task in todo:
                accept(play_task(task))
                bar.update(1)
        else:
            ctx = mp.get_context("spawn")
            # The workers get the read end; this process alone holds the write end, so its
            # death (even by SIGKILL) is an end of file for every worker (_exit_with_parent).
            parent_alive, alive_writer = ctx.Pipe(duplex=False)
            try:
                with ctx.Pool(
                    min(workers, len(todo)),
                    initializer=_exit_with_parent,
                    initargs=(parent_alive, os.getpid()),
                ) as pool:
                    try:
                        for record in pool.imap_unordered(play_task, todo, chunksize=1):
                            accept(record)
                            bar.update(1)
                    except BaseException:
                        pool.terminate()
                        raise
            finally:
                alive_writer.close()
                parent_alive.close()
    finally:
        bar.close()
    return result


def _check_symmetric(game: Game, tie_break: str | None) -> None:
    """Refuse symmetric scoring that ``game`` cannot have, before any game is played."""
    if game.spec.num_players != 2:
        raise ValueError(
            f"symmetric scoring pairs two seats; {game.spec.name} has {game.spec.num_players}"
        )
    if tie_break is None:
        return
    stats = end_statistics(game.new_initial_state(seed=0))
    if not isinstance(stats.get(tie_break), list):
        per_player = sorted(k for k, v in stats.items() if isinstance(v, list))
        raise ValueError(
            f"tie-break {tie_break!r} is not a per-player end statistic of {game.spec.name} "
            f"(it has {', '.join(per_player) or 'none'})"
        )


#: How often a worker also checks that its parent is still the tournament process (seconds).
_PARENT_POLL = 0.5


def _exit_with_parent(parent_alive: mp.connection.Connection, parent_pid: int) -> None:
    """Worker initializer: end this worker as soon as the tournament process is gone.

    A pool worker blocks in a game, not on the pool's queues, so after ``kill -9`` of the
    tournament nothing tells it to stop: it would play its game to the end for nothing. A
    daemon thread therefore waits on ``parent_alive``, the read end of a pipe whose only write
    end the tournament process holds: when that process dies, however it dies, the kernel
    closes the write end and the wait returns (end of file). As a second guard (a write end
    inherited by a ``fork`` elsewhere would keep the pipe open) the thread also notices that
    the worker was re-parented. Works wherever ``multiprocessing`` does (Linux, macOS, Windows),
    unlike ``prctl(PR_SET_PDEATHSIG)``, which is Linux only.
    """

    def watch() -> None:
        while True:
            try:
                gone = bool(mp.connection.wait([parent_alive], timeout=_PARENT_POLL))
            except OSError:
                gone = True
            if gone or os.getppid() != parent_pid:
                os._exit(1)  # the results have nowhere to go; nothing to clean up

    threading.Thread(target=watch, name="stratagem-parent-watch", daemon=True).start()


def _named(agents: Sequence[str] | Mapping[str, str] | None) -> dict[str, str]:
    """Name -> spec; a spec given alone is its own name."""
    if agents is None:
        return {}
    if isinstance(agents, Mapping):
        named = {str(k): str(v) for k, v in agents.items()}
    else:
        named = {}
        for spec in agents:
            if spec in named:
                raise ValueError(f"agent {spec!r} is listed twice")
            named[spec] = spec
    for name, spec in named.items():
        parse_agent_spec(spec)  # raises ValueError with the offending text
        if not name:
            raise ValueError(f"empty agent name for spec {spec!r}")
    return named


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(total: int, initial: int, enabled: bool) -> Any:
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(
        total=total,
        initial=initial,
        unit="game",
        desc="games",
        dynamic_ncols=True,
        mininterval=0.5 if sys.stderr.isatty() else 30.0,
        file=sys.stderr,
    )
