"""Tournament games as Ray tasks: ``stratagem tournament ... --backend ray``.

The tournament runner (:func:`stratagem.baselines.tournament.run_tournament`) stays the one
runner: it builds the games, reads and appends the JSON Lines file, shows the progress bar and
prints the tables. This module only replaces its process pool: :func:`play_on_ray` submits each
game (:func:`~stratagem.baselines.tournament.play_task`, the function the local workers run) as a
Ray task and yields the records as games finish, so the results file fills, and a rerun resumes,
exactly as with ``--workers``; the same seeds give the same records.

* **Where.** ``address`` (``--ray-address``), else the ``RAY_ADDRESS`` variable, else a Ray
  instance started on this machine for the tournament and stopped after it. A program that has
  already called ``ray.init`` keeps its own connection, which is left open.
* **Lost workers.** A worker that dies mid-game (killed, out of memory, its node gone) loses
  only that game: Ray runs the task again (``max_retries``) and, since a game depends on nothing
  but its task, the retry plays the same game. Only this process writes the file, once per
  game key, so nothing is lost or written twice. An agent that raises is not retried: its
  error ends the tournament as it does locally.
* **Flow.** At most ``window`` games are in flight (twice the cluster's CPUs by default), so a
  tournament of a hundred thousand games holds a few hundred tasks at a time and still plays
  them in the runner's game-major order. Interrupting the tournament cancels the games in flight.

Ray is imported only when this backend is chosen; without it the error names the extra to
install (``pip install 'stratagem[distributed]'``). Every node needs the same stratagem
installed (a record whose rules version differs from this process's game is refused).
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
from collections import deque
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any

from stratagem.baselines.tournament import Task, play_task

__all__ = [
    "RAY_EXTRA",
    "MissingExtraError",
    "check_reachable",
    "import_ray",
    "play_on_ray",
    "ray_session",
]

_log = logging.getLogger(__name__)

#: What to install for the Ray backends.
RAY_EXTRA = "pip install 'stratagem[distributed]'"

#: Times Ray reruns a game whose worker died before giving up on the tournament.
MAX_RETRIES = 3


class MissingExtraError(ImportError, ValueError):
    """Ray is not installed. An ``ImportError`` for programs, a ``ValueError`` for the CLI.

    The command line shows a ``ValueError`` as one line naming the problem, which is what a user
    who asked for ``--backend ray`` without the extra needs to read.
    """


def import_ray() -> ModuleType:
    """Import Ray, or raise :class:`MissingExtraError` saying which extra to install."""
    try:
        import ray
    except ImportError as exc:
        raise MissingExtraError(
            f"--backend ray needs Ray, which is not installed: {RAY_EXTRA} ({exc})"
        ) from exc
    return ray


@contextlib.contextmanager
def ray_session(address: str | None = None, *, num_cpus: int | None = None) -> Iterator[Any]:
    """Connect to a Ray cluster for the duration of a ``with`` block and yield ``ray``.

    Args:
        address: Cluster address (``ray start --head`` prints it); ``None``: the
            ``RAY_ADDRESS`` variable, else a new Ray instance on this machine.
        num_cpus: CPUs of the instance started on this machine (``None``: all of them); not
            used when joining a cluster, whose nodes say what they have.

    An existing connection (``ray.init`` called by the program) is used as it is and left
    open; a connection opened here is closed at the end, and an instance started here stopped.

    Raises:
        MissingExtraError: If Ray is not installed.
        ConnectionError: If nothing answers at ``address`` (Ray itself would wait for minutes,
            printing only its own timeout warnings).
    """
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address:
        check_reachable(address)
        ray.init(address=address, logging_level=logging.WARNING)
        _log.info("joined the Ray cluster at %s", address)
    else:
        # "local": a fresh instance even if a `ray start --head` runs here (that needs an
        # address, so that nothing joins a cluster by accident); no dashboard, a faster start.
        ray.init(
            address="local",
            num_cpus=num_cpus,
            include_dashboard=False,
            logging_level=logging.WARNING,
        )
    try:
        yield ray
    finally:
        ray.shutdown()


def check_reachable(address: str, *, timeout: float = 5.0) -> None:
    """Fail at once when no server listens at a Ray address's ``host:port``.

    ``auto``, ``local`` and addresses without a port are left to Ray, which resolves them.

    Raises:
        ConnectionError: Naming the address, the cause and how to start a cluster.
    """
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise ConnectionError(
            f"no Ray cluster answers at {address} ({exc.strerror or exc}); start one with "
            "'ray start --head' and pass the address it prints, or leave --ray-address out to "
            "start Ray on this machine"
        ) from None


def play_on_ray(
    tasks: Sequence[Task],
    *,
    address: str | None = None,
    num_cpus: int | None = None,
    window: int | None = None,
    max_retries: int = MAX_RETRIES,
    rules_versions: dict[str, int] | None = None,
) -> Iterator[dict[str, Any]]:
    """Play ``tasks`` as Ray tasks and yield each game's record as it finishes.

    Args:
        tasks: The games (from :func:`~stratagem.baselines.tournament.make_tasks`).
        address: Cluster address (see :func:`ray_session`).
        num_cpus: CPUs of a Ray instance started here.
        window: Most games in flight; ``None``: twice the cluster's CPUs (at least 4).
        max_retries: Reruns of a game whose worker or node died.
        rules_versions: Game name -> rules version of this process; a record played under
            another version (a node with another stratagem) is refused.

    Yields:
        Records as :func:`~stratagem.baselines.tournament.play_task` returns them, each game
        once, in the order the games finish.

    Raises:
        RuntimeError: An agent failed (the message is the local run's), a game's worker died
            more than ``max_retries`` times, or a node runs another rules version.
        MissingExtraError: If Ray is not installed.
    """
    if not tasks:
        return
    with ray_session(address, num_cpus=num_cpus) as ray:
        remote = ray.remote(play_task).options(
            num_cpus=1, max_retries=max_retries, retry_exceptions=False, name="play_task"
        )
        if window is None:
            window = max(4, 2 * int(ray.cluster_resources().get("CPU", 1)))
        todo = deque(tasks)
        pending: dict[Any, Task] = {}
        seen: set[str] = set()
        try:
            while todo or pending:
                while todo and len(pending) < window:
                    task = todo.popleft()
                    pending[remote.remote(task)] = task
                ready, _ = ray.wait(list(pending), num_returns=1)
                ready, _ = ray.wait(list(pending), num_returns=len(pending), timeout=0)
                for ref in ready:
                    task = pending.pop(ref)
                    record = _result(ray, ref, task, max_retries)
                    _check_version(record, rules_versions)
                    if record["key"] in seen:  # cannot happen: one object per task
                        _log.warning("game %s arrived twice; kept once", record["key"])
                        continue
                    seen.add(record["key"])
                    yield record
        finally:
            for ref in pending:  # interrupted or failed: stop the games in flight
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)


def _result(ray: Any, ref: Any, task: Task, max_retries: int) -> dict[str, Any]:
    """The record of a finished task, or the error a local run would raise."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = getattr(exc, "cause", None)
        if isinstance(cause, RuntimeError):  # play_task's message naming agent, game and seed
            raise RuntimeError(str(cause)) from exc
        raise RuntimeError(
            f"{task.game} game {task.index} of {task.row} vs {task.col} failed on the Ray "
            f"cluster: {cause!r}"
        ) from exc
    except ray.exceptions.RayError as exc:  # worker or node lost, more often than retried
        raise RuntimeError(
            f"{task.game} game {task.index} of {task.row} vs {task.col} was lost "
            f"{max_retries + 1} times on the Ray cluster ({type(exc).__name__}): {exc}"
        ) from exc


def _check_version(record: dict[str, Any], versions: dict[str, int] | None) -> None:
    """Refuse a record played under rules other than this process's (a stale node)."""
    if not versions or record["game"] not in versions:
        return
    mine = versions[record["game"]]
    if record.get("rules_version") != mine:
        raise RuntimeError(
            f"a Ray worker played {record['game']} under rules version "
            f"{record.get('rules_version')}, this process has {mine}: install the same "
            "stratagem on every node"
        )
