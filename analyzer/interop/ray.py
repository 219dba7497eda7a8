"""The Ray backend of :func:`analyzer.bots.simulate.simulate` (``pip install 'conquian[ray]'``).

Deals are played as Ray tasks, a few consecutive games per task, and come
back in game order, so that a run gives the same games, game for game, as
the local backend: game ``i`` is dealt and played with
:func:`~analyzer.bots.simulate.game_seed` ``(seed, i)`` wherever it runs.

* With no address a local Ray runtime starts in this process (Ray's
  embedded default) and stops at the end; with an address (``"HOST:PORT"``
  or ``"auto"``) the run joins that cluster (started with
  ``ray start --head``) and ships this package's code to it; every node
  needs conquian's dependencies (``pip install 'conquian[ray]'``).  When a
  Ray token is at hand (``RAY_AUTH_TOKEN``, ``RAY_AUTH_TOKEN_PATH`` or
  ``~/.ray/auth_token``, which ``ray start`` writes) and ``RAY_AUTH_MODE``
  is not set, importing this module (before Ray) sets ``RAY_AUTH_MODE=token``:
  clusters started by recent Ray versions require token authentication.
* A few tasks per CPU are in flight at once.  On an interrupt (Ctrl-C) the
  games already yielded are kept by the caller; the tasks still running stop
  with the runtime, or with this driver's connection to a cluster (Ray drops
  the tasks of a driver that leaves; ``ray.cancel`` is not used, as it can
  race a finishing task and abort the driver).
"""

from __future__ import annotations

import logging
import os
import socket
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import analyzer
from analyzer.bots.game import play_game
from analyzer.bots.registry import BOTS, register_bot
from analyzer.core.errors import ConquianError
from analyzer.core.rules import Rules
from analyzer.interop import missing_extra


def _have_token() -> bool:
    """True when a Ray authentication token is at hand (Ray's token sources, in its order).

    Clusters started by ``ray start --head`` use token authentication by
    default in recent Ray versions; a driver joining them must use the token
    too (``RAY_AUTH_MODE=token``), which Ray reads from ``RAY_AUTH_TOKEN``,
    ``RAY_AUTH_TOKEN_PATH`` or ``~/.ray/auth_token``.
    """
    if os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH"):
        return True
    return (Path.home() / ".ray" / "auth_token").is_file()


if "RAY_AUTH_MODE" not in os.environ and "ray" not in sys.modules and _have_token():
    # Ray reads the mode when it is imported: set it first (see the module docstring).
    os.environ["RAY_AUTH_MODE"] = "token"

try:
    import ray
except ImportError as _exc:
    raise missing_extra("ray", "the Ray backend", _exc) from None

__all__ = ["Task", "connect", "play_chunk", "run"]

Task = tuple[str | Rules, tuple[str, ...], int, int, int | None]
"""One game to play: variant name, bot per seat, game seed, game index."""


def play_chunk(tasks: Sequence[Task], bots: Mapping[str, Any] | None = None) -> list[Any]:
    """Play consecutive games on a worker; their :class:`~analyzer.bots.simulate.GameResult`, in order.

    Parameters
    ----------
    tasks : sequence of Task
    bots : mapping, optional
        Bot name to factory, registered on the worker first
        (:func:`~analyzer.bots.registry.register_bot`), so that bots registered in the
        driver only (e.g. an ``IsmctsBot`` with another budget) play there too.
    """
    for name, factory in (bots or {}).items():
        register_bot(name, factory)
    return [play_game(*task) for task in tasks]


def connect(address: str | None = None, jobs: int = 1) -> bool:
    """Start a local Ray runtime (``address`` ``None``) or join a cluster; True if one was started.

    Nothing is done when Ray is already running in this process (an address
    is still checked).

    Parameters
    ----------
    address : str, optional
        ``"HOST:PORT"`` of a cluster's head node, or ``"auto"``.
    jobs : int
        CPUs of a local runtime (1: every CPU of this machine).

    Raises
    ------
    ConquianError
        If the cluster cannot be joined or the runtime cannot start; one line.
    """
    if address is not None:
        _probe(address)
    if ray.is_initialized():
        return False
    options: dict[str, Any] = {
        "include_dashboard": False,
        "logging_level": logging.ERROR,
        "log_to_driver": False,
        "configure_logging": True,
    }
    try:
        if address is None:
            ray.init(address="local", num_cpus=jobs if jobs > 1 else None, **options)
        else:
            ray.init(address=address, runtime_env={"py_modules": [analyzer]}, **options)
    except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ValueError...
        where = (
            "start a local Ray runtime"
            if address is None
            else f"join the Ray cluster at {address!r}"
        )
        message = " ".join(str(exc).split()) or type(exc).__name__
        if address is not None and os.environ.get("RAY_AUTH_MODE") != "token":
            message += (
                "; if the cluster uses token authentication, set RAY_AUTH_MODE=token and "
                "RAY_AUTH_TOKEN (or ~/.ray/auth_token)"
            )
        raise ConquianError(f"cannot {where}: {message[:400]}") from None
    return True


def _probe(address: str) -> None:
    """Fail fast, in one line, when nothing listens at ``address`` (Ray itself waits minutes).

    Raises
    ------
    ConquianError
        If ``address`` is not ``HOST:PORT`` (or ``auto``), or cannot be reached in 5 seconds.
    """
    if address.strip().lower() == "auto":
        return
    text = address.strip().split("://", 1)[-1]
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise ConquianError(f"a Ray address is HOST:PORT or auto, not {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as exc:
        raise ConquianError(
            f"cannot reach the Ray cluster at {address!r}: {exc.strerror or exc}"
        ) from None


def run(
    tasks: Callable[[int, int], list[Task]],
    games: int,
    *,
    jobs: int = 1,
    address: str | None = None,
) -> Iterator[Any]:
    """Play games ``0 .. games-1`` as Ray tasks and yield their results in game order.

    Parameters
    ----------
    tasks : callable
        ``tasks(start, stop)`` gives the :data:`Task` of games ``start .. stop-1``.
    games : int
        Number of games.
    jobs : int
        With more than 1: CPUs of a local runtime and the most tasks running
        at once; 1: every CPU of the runtime or cluster.
    address : str, optional
        A Ray cluster to join (see :func:`connect`).

    Yields
    ------
    GameResult

    Raises
    ------
    ConquianError
        If Ray cannot start or join, or a game fails on a worker (the
        worker's error, when it is one of conquian's).
    """
    started = connect(address, jobs)
    pending: dict[Any, int] = {}
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        workers = min(jobs, cpus) if jobs > 1 else cpus
        chunk = max(1, min(16, games // (workers * 8) or 1))
        remote = ray.remote(num_cpus=1, max_retries=0)(play_chunk)
        window = 2 * workers
        done: dict[int, list[Any]] = {}
        next_start = 0
        next_yield = 0
        while next_yield < games:
            while len(pending) < window and next_start < games:
                stop = min(games, next_start + chunk)
                batch_tasks = tasks(next_start, stop)
                pending[remote.remote(batch_tasks, _factories(batch_tasks))] = next_start
                next_start = stop
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                start = pending.pop(ref)
                done[start] = _get(ref)
            while next_yield in done:
                batch = done.pop(next_yield)
                next_yield += len(batch)
                yield from batch
    finally:
        if started:
            ray.shutdown()


def _factories(tasks: Sequence[Task]) -> dict[str, Any]:
    """The driver's factory of every bot the tasks name (sent along: Ray pickles them by value)."""
    names = {name for _, seats, *_ in tasks for name in seats}
    return {name: BOTS[name] for name in sorted(names) if name in BOTS}


def _get(ref: Any) -> list[Any]:
    """The result of a task; a worker's conquian error is raised as itself."""
    try:
        result: list[Any] = ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = getattr(exc, "cause", None)
        if isinstance(cause, ConquianError):
            raise cause from None
        text = " ".join(str(cause or exc).split())
        raise ConquianError(f"a game failed on a Ray worker: {text[:300]}") from None
    return result
