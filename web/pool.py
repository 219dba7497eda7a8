"""A bounded pool of search processes for the web board: each long request (hint, solve,
review, ...) is answered by :func:`analyzer.service.requests.answer` in a worker process, so that the
server's own process stays free for the page and the quick requests.

The board has two such pools: one for the searches, one for the quick requests (``moves``,
``analyze``, a static hint, ...; ``quick=True``), so that neither waits behind the other and a
quick request that takes long can be stopped too.  A worker is killed (and a new one started)
when its request is cancelled, runs over the time cap, or has answered ``max_jobs`` requests
(memory stays bounded).  The standard library's ``ProcessPoolExecutor`` cannot stop one running
job, hence these plain processes and pipes.

Each worker has a memory ceiling (``memory_cap`` MB of address space, ``RLIMIT_AS``, set in the
worker before it imports the engine).  A request that passes it ends one of two ways: Python
raises ``MemoryError`` (the worker reports it and exits), or the native core (Rust) or CP-SAT
(C++) cannot allocate and aborts the worker, saying so on its stderr, which the worker writes to
a file the pool reads.  Either way the request gets :class:`MemoryCapExceeded` and the worker is
replaced.  A worker dies with the server (``PR_SET_PDEATHSIG`` on Linux), and :meth:`SearchPool.stop`
ends every request at once (the server is stopping: :class:`PoolStopped`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import logging
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, NoReturn

__all__ = [
    "MemoryCapExceeded",
    "PoolFull",
    "PoolStopped",
    "SearchPool",
    "TimeCapExceeded",
    "WorkerDied",
]


STARTUP = 300.0
"""Most seconds a new search process may take to import the engine."""

STOP_JOIN = 5.0
"""Most seconds :meth:`SearchPool.stop` waits for its killed workers to end."""

LOG = logging.getLogger("conquian.serve")


class PoolFull(Exception):
    """Every worker is busy and the queue is full: the request is refused (HTTP 503)."""


class PoolStopped(PoolFull):
    """The server is stopping: the request was stopped (its worker killed) or refused before it
    started (HTTP 503)."""


class WorkerDied(Exception):
    """The process answering a request ended before its answer (killed, or out of memory); the
    request may be sent again (503 with Retry-After)."""


class MemoryCapExceeded(WorkerDied):
    """The request needed more memory than its worker's ceiling (``memory_cap``); the worker
    was replaced.  The same request would fail again (HTTP 503 without Retry-After).  ``quick``:
    a quick request, not a search."""

    def __init__(self, message: str, quick: bool = False) -> None:
        super().__init__(message)
        self.quick = quick


class TimeCapExceeded(Exception):
    """A request ran over the pool's time cap; its worker was stopped.  ``quick``: a quick
    request (no ``time_limit`` field of its own), not a search."""

    def __init__(self, message: str, quick: bool = False) -> None:
        super().__init__(message)
        self.quick = quick


MEMORY_EXIT = 86
"""Exit status of a worker that ran out of memory under its ceiling (Python's ``MemoryError``)."""

_MEMORY_SIGNS = ("memory allocation of", "bad_alloc", "MemoryError", "Cannot allocate memory")
"""What a worker's stderr says when an allocation failed: Rust's allocation-failure abort
("memory allocation of N bytes failed"), C++'s ``std::bad_alloc``, Python's ``MemoryError``."""


def _limit_memory(megabytes: int | None) -> None:
    """Cap this process's address space at ``megabytes`` MB (``RLIMIT_AS``; never above the hard
    limit it already has); nothing where the platform has no such limit."""
    if megabytes is None:
        return
    try:
        import resource
    except ImportError:  # not POSIX
        return
    cap = megabytes * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    """Linux: have the kernel kill this process when the server that started it ends, however
    it ends (SIGKILL included), so that no search outlives it; exit at once when it has already
    ended."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)


def _out_of_memory(reply: dict[str, Any]) -> bool:
    """True when ``reply`` is the engine's answer to a ``MemoryError`` (the request layer answers
    any exception as ``internal error: <name>: ...``)."""
    return reply.get("ok") is False and str(reply.get("error", "")).startswith("internal error: MemoryError")


def _work(
    conn: Connection,
    quick: bool = False,
    memory_cap: int | None = None,
    stderr: Connection | None = None,
    parent: int | None = None,
) -> None:
    """The worker process: answer each request line received, sending progress on the way.
    A search worker runs at a lower priority than the server, so that quick requests stay
    quick; a ``quick`` one answers with :func:`web.quick.quick_answer` (the board's limits) and
    pays the CP-SAT set-up before it says it is ready.  ``memory_cap``: its ceiling in MB
    (``RLIMIT_AS``); ``stderr``: where its standard error goes (a file the pool reads when the
    worker dies); ``parent``: the server's process id (the worker dies with it)."""
    if parent is not None:
        _die_with_parent(parent)
    if stderr is not None:
        os.dup2(stderr.fileno(), 2)
        stderr.close()
    _limit_memory(memory_cap)
    if not quick:
        with contextlib.suppress(OSError, AttributeError):
            os.nice(5)
    # Ctrl-C at the terminal reaches the whole process group: the server stops its workers
    # itself, so a worker ignores it (no traceback of its own).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _serve_requests(conn, quick)
    except MemoryError:
        # Past the ceiling: say so (the pool answers 503 naming it) and make way for a new worker.
        with contextlib.suppress(Exception):
            conn.send(("memory", None))
        os._exit(MEMORY_EXIT)


def _serve_requests(conn: Connection, quick: bool) -> None:
    """Answer the requests ``conn`` brings until it closes or brings ``None``.

    Raises
    ------
    MemoryError
        When a request (or the engine's import) needed more memory than the ceiling allows.
    """
    from analyzer.service.requests import answer
    from web.quick import WARM, answer_capped, quick_answer

    if quick:
        quick_answer(WARM)
    conn.send(("ready", None))

    sent = [0.0]

    def progress(done: int, planned: int) -> None:
        # At most PROGRESS_HZ reports a second (and the last one): a fast search reports far
        # more often than a board can draw, and the server must not spend its loop reading them.
        now = time.monotonic()
        if done < planned and now - sent[0] < 1.0 / PROGRESS_HZ:
            return
        sent[0] = now
        conn.send(("progress", {"done": done, "planned": planned}))

    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        line, early = job
        if quick:
            reply = quick_answer(line)
        else:
            first = _early_hint(line) if early else None
            if first is not None:
                partial, _ = answer(first)
                if _out_of_memory(partial):
                    raise MemoryError
                if partial.get("ok"):
                    conn.send(("partial", partial))
            reply = answer_capped(line, progress)
        if _out_of_memory(reply):
            raise MemoryError
        conn.send(("answer", reply))


PROGRESS_HZ = 10
"""Most progress reports a worker sends per second."""

EARLY_SECONDS = 0.5
"""Seconds of sampling of the early answer a streamed hint sends first."""


def _early_hint(line: str) -> str | None:
    """The request ``line`` with a short time limit, when it is a sampling ``hint`` (not
    ``static``, not ``exact``): its early answer comes within :data:`EARLY_SECONDS` (the same
    seed, so the same first deals)."""
    try:
        request = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(request, dict) or request.get("cmd") != "hint" or request.get("static") is True:
        return None
    if request.get("exact") is True:
        return None  # the endgame's equilibrium takes no time limit: one answer, not two solves
    limit = request.get("time_limit", 2.0)
    if not isinstance(limit, int | float) or isinstance(limit, bool) or not limit > EARLY_SECONDS:
        return None
    return json.dumps({**request, "time_limit": min(EARLY_SECONDS, limit / 4)})


async def _next(inbox: asyncio.Queue[tuple[str, Any]], seconds: float) -> tuple[str, Any]:
    """The next message in ``inbox``, waiting at most ``seconds``.

    Raises
    ------
    TimeoutError
        If none came in time.
    asyncio.CancelledError
        If the caller is cancelled, even in the instant a message arrives: Python 3.11's
        ``asyncio.wait_for`` returns the message then and loses the cancel, so a search whose
        client went away ran on to the time cap.
    """
    async with asyncio.timeout(seconds):
        return await inbox.get()


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    stderr: Any = None  # the file its standard error goes to (unlinked), or None
    jobs: int = 0
    ready: bool = False

    def last_words(self) -> str:
        """What the worker wrote to its standard error (the first 16 kB), '' when nothing."""
        if self.stderr is None:
            return ""
        with contextlib.suppress(OSError, ValueError):
            return os.pread(self.stderr.fileno(), 16384, 0).decode("utf-8", "replace")
        return ""


@dataclass
class SearchPool:
    """Worker processes answering engine requests, at most ``workers`` at a time with at
    most ``queue`` more waiting; each request stopped after ``time_cap`` seconds, each worker
    limited to ``memory_cap`` MB of address space (``None``: no ceiling).  ``quick``: the pool
    of quick requests (:func:`web.quick.quick_answer`, at the server's priority)."""

    workers: int = 2
    queue: int = 4
    time_cap: float = 120.0
    max_jobs: int = 100
    quick: bool = False
    memory_cap: int | None = None
    _idle: asyncio.Queue[_Worker | None] | None = field(default=None, init=False, repr=False)
    _all: list[_Worker] = field(default_factory=list, init=False, repr=False)
    _inboxes: set[asyncio.Queue[tuple[str, Any]]] = field(default_factory=set, init=False, repr=False)
    _pending: int = field(default=0, init=False)
    _closed: bool = field(default=False, init=False)

    @property
    def pending(self) -> int:
        """Requests running or waiting."""
        return self._pending

    @property
    def capacity(self) -> int:
        """Most requests running or waiting at once."""
        return self.workers + self.queue

    @property
    def _what(self) -> str:
        return "quick-request" if self.quick else "search"

    @property
    def busy(self) -> str:
        """What a request refused because the pool is full is told (HTTP 503)."""
        if self.quick:
            return (
                f"the server is busy: {self.capacity} quick requests are running or waiting "
                f"(moves, analyze, a static hint, ...); try again shortly"
            )
        return (
            "the server is busy: every search process is in use and the queue is full; "
            "try again shortly"
        )

    @property
    def stopped(self) -> str:
        """What a request stopped or refused because the server is stopping is told (503)."""
        return f"the server is stopping: the {self._what} was stopped; try again once it runs again"

    def _memory_message(self) -> str:
        if self.quick:
            return (
                f"the request needed more memory than the server's ceiling of {self.memory_cap} MB "
                "per quick-request process (docs/web.md); its process was replaced"
            )
        return (
            f"the search needed more memory than the server's ceiling of {self.memory_cap} MB per "
            "search process (--memory-cap); its process was replaced: ask for a smaller search "
            "(fewer samples, a smaller budget)"
        )

    def _spawn(self) -> _Worker:
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        # The worker's standard error goes to an unlinked temporary file: what an aborting
        # native core says ("memory allocation of N bytes failed", a backtrace) is read by the
        # pool, not printed on the server's terminal.
        errors = tempfile.TemporaryFile(prefix="conquian-worker-")  # noqa: SIM115 (closed in _kill)
        errors_for_child = Connection(os.dup(errors.fileno()), readable=False)
        process = context.Process(
            target=_work,
            args=(child, self.quick, self.memory_cap, errors_for_child, os.getpid()),
            daemon=True,
            name="conquian-quick" if self.quick else "conquian-search",
        )
        # Ctrl-C at the terminal reaches the whole process group, a worker still starting too:
        # it starts with SIGINT ignored (kept across exec), so that it prints no traceback.
        main = threading.current_thread() is threading.main_thread()
        before = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            process.start()
        finally:
            if main:
                signal.signal(signal.SIGINT, signal.SIG_DFL if before is None else before)
            errors_for_child.close()
        child.close()
        worker = _Worker(process, parent, errors)
        self._all.append(worker)
        return worker

    async def start(self) -> None:
        """Start the workers (each imports the engine, about a second, in the background)."""
        self._idle = asyncio.Queue()
        for _ in range(self.workers):
            self._idle.put_nowait(self._spawn())

    async def ready(self) -> None:
        """Wait until every worker has started (imported the engine; a quick one has paid the
        CP-SAT set-up too), at most :data:`STARTUP` seconds each, or until the pool is stopped."""
        for worker in list(self._all):
            deadline = time.monotonic() + STARTUP
            while not worker.ready and not self._closed and time.monotonic() < deadline:
                with contextlib.suppress(EOFError, OSError, ValueError):
                    if await asyncio.to_thread(worker.conn.poll, 0.25):
                        kind, _ = worker.conn.recv()
                        worker.ready = kind == "ready"
                        break
                if not worker.process.is_alive():
                    break

    def _kill(self, worker: _Worker, join: float = 2.0) -> None:
        """Kill ``worker`` (SIGKILL), close its pipe and its stderr file, wait up to ``join``
        seconds for it to end, and drop it from the pool."""
        with contextlib.suppress(Exception):
            worker.process.kill()
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(worker.conn.fileno())
        with contextlib.suppress(Exception):
            worker.conn.close()
        with contextlib.suppress(Exception):
            worker.stderr.close()
        if join:
            with contextlib.suppress(Exception):
                worker.process.join(timeout=join)
        if worker in self._all:
            self._all.remove(worker)

    def _release(self, worker: _Worker, healthy: bool) -> None:
        assert self._idle is not None
        if healthy and not self._closed and worker.jobs < self.max_jobs and worker.process.is_alive():
            self._idle.put_nowait(worker)
            return
        self._kill(worker)
        if not self._closed:
            self._idle.put_nowait(self._spawn())

    async def run(
        self,
        line: str,
        on_progress: Callable[[dict[str, Any]], None] | None = None,
        on_early: Callable[[dict[str, Any]], None] | None = None,
    ) -> dict[str, Any]:
        """The engine's answer to ``line``, computed in a worker; ``on_progress`` gets its
        progress (``{"done", "planned"}``), and ``on_early``, when given, the early answer of a
        sampling ``hint`` (:data:`EARLY_SECONDS` of sampling) before the full one.

        Raises
        ------
        PoolFull
            If ``capacity`` requests are already running or waiting.
        TimeCapExceeded
            If the answer took more than ``time_cap`` seconds (the worker is stopped).
        WorkerDied
            If the worker process ended before answering (it is replaced).
        asyncio.CancelledError
            If the caller is cancelled (the client went away): the worker is stopped.
        """
        if self._closed:
            raise PoolStopped(self.stopped)
        if self._idle is None:
            raise PoolFull(f"the server's {self._what} processes are not running; try again shortly")
        if self._pending >= self.capacity:
            raise PoolFull(self.busy)
        self._pending += 1
        try:
            worker = await self._idle.get()
            if worker is None or self._closed:  # the pool was stopped while this request waited
                self._idle.put_nowait(None)  # for the next request waiting
                raise PoolStopped(self.stopped)
            if not worker.process.is_alive():
                # Died while idle (killed, out of memory): replaced before it is given work.
                self._kill(worker)
                worker = self._spawn()
            healthy = False
            try:
                reply = await self._ask(worker, line, on_progress, on_early)
                healthy = True
                return reply
            except (WorkerDied, TimeCapExceeded):
                if self._closed:  # its worker was killed because the server is stopping
                    raise PoolStopped(self.stopped) from None
                raise
            finally:
                self._release(worker, healthy)
        finally:
            self._pending -= 1

    async def _ask(
        self,
        worker: _Worker,
        line: str,
        on_progress: Callable[[dict[str, Any]], None] | None,
        on_early: Callable[[dict[str, Any]], None] | None,
    ) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        inbox: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        conn = worker.conn

        def readable() -> None:
            try:
                # A bounded batch per call: the loop must get back to the other requests even
                # when a worker writes faster than this reads.
                for _ in range(64):
                    if not conn.poll():
                        break
                    inbox.put_nowait(conn.recv())
            except (EOFError, OSError):
                inbox.put_nowait(("died", None))
                loop.remove_reader(conn.fileno())

        worker.jobs += 1
        loop.add_reader(conn.fileno(), readable)
        self._inboxes.add(inbox)
        try:
            if not worker.ready:  # its start (importing the engine) is not the search's time
                kind, _ = await _next(inbox, STARTUP)
                if kind != "ready":
                    await self._raise_ended(kind, worker, "before it was ready")
                worker.ready = True
            try:
                await asyncio.to_thread(conn.send, (line, on_early is not None))  # up to 1 MB
            except (OSError, EOFError, ValueError):
                raise WorkerDied(f"the {self._what} process ended before it got the request") from None
            deadline = time.monotonic() + self.time_cap
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeCapExceeded(
                        f"the request ran over the server's cap of {self.time_cap:g} s for a quick "
                        "request (docs/web.md)"
                        if self.quick
                        else f"the search ran over the server's cap of {self.time_cap:g} s (--time-cap)",
                        self.quick,
                    )
                try:
                    kind, data = await _next(inbox, left)
                except TimeoutError:
                    continue
                if kind == "answer":
                    reply: dict[str, Any] = data
                    return reply
                if kind == "progress" and on_progress is not None:
                    on_progress(data)
                if kind == "partial" and on_early is not None:
                    on_early(data)
                if kind in ("died", "memory", "stopped"):
                    await self._raise_ended(kind, worker, "before it answered")
        finally:
            self._inboxes.discard(inbox)
            with contextlib.suppress(Exception):
                loop.remove_reader(conn.fileno())

    async def _raise_ended(self, kind: str, worker: _Worker, when: str) -> NoReturn:
        """Raise what ended ``worker``'s request: the pool stopped (:class:`PoolStopped`), the
        memory ceiling (:class:`MemoryCapExceeded`: the worker said so, or its stderr says an
        allocation failed), or any other end of the worker (:class:`WorkerDied`, its stderr's
        first line logged)."""
        if kind == "stopped" or self._closed:
            raise PoolStopped(self.stopped)
        if kind != "memory":
            with contextlib.suppress(Exception):
                await asyncio.to_thread(worker.process.join, 1)  # what it says is written by then
            said = worker.last_words()
            failed = any(sign in said for sign in _MEMORY_SIGNS) or worker.process.exitcode == MEMORY_EXIT
            if failed and self.memory_cap is not None:
                kind = "memory"
            elif said.strip():
                LOG.warning("a %s process ended: %s", self._what, said.strip().splitlines()[0][:200])
        if kind == "memory" and self.memory_cap is not None:
            LOG.warning("a %s process reached its memory ceiling of %s MB", self._what, self.memory_cap)
            raise MemoryCapExceeded(self._memory_message(), self.quick)
        if kind == "memory":  # the machine's memory, not a ceiling of the pool's
            raise WorkerDied(f"the {self._what} process ran out of memory {when}")
        raise WorkerDied(f"the {self._what} process ended {when}")

    async def stop(self) -> None:
        """Stop at once (the server is stopping): every request running or waiting raises
        :class:`PoolStopped`, every worker is killed and none is started again.  Waits at most
        :data:`STOP_JOIN` seconds for the workers to end."""
        self._closed = True
        for inbox in list(self._inboxes):
            inbox.put_nowait(("stopped", None))
        if self._idle is not None:
            self._idle.put_nowait(None)  # each request waiting for a worker passes it on
        workers = list(self._all)
        for worker in workers:
            self._kill(worker, join=0)
        deadline = time.monotonic() + STOP_JOIN

        def join() -> None:
            for worker in workers:
                with contextlib.suppress(Exception):
                    worker.process.join(timeout=max(0.0, deadline - time.monotonic()))

        await asyncio.to_thread(join)

    async def close(self) -> None:
        """Stop every worker (as :meth:`stop`)."""
        await self.stop()
