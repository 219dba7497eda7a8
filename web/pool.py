"""A bounded pool of search processes for the web board: each long request (hint, solve,
review, ...) is answered by :func:`analyzer.service.requests.answer` in a worker process, so that the
server's own process stays free for the page and the quick requests.

The board has two such pools: one for the searches, one for the quick requests (``moves``,
``analyze``, a static hint, ...; ``quick=True``), so that neither waits behind the other and a
quick request that takes long can be stopped too.  A worker is killed (and a new one started)
when its request is cancelled, runs over the time cap, or has answered ``max_jobs`` requests
(memory stays bounded).  The standard library's ``ProcessPoolExecutor`` cannot stop one running
job, hence these plain processes and pipes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

__all__ = ["PoolFull", "SearchPool", "TimeCapExceeded", "WorkerDied"]


STARTUP = 300.0
"""Most seconds a new search process may take to import the engine."""


class PoolFull(Exception):
    """Every worker is busy and the queue is full: the request is refused (HTTP 503)."""


class WorkerDied(Exception):
    """The process answering a request ended before its answer (killed, or out of memory); the
    request may be sent again (503 with Retry-After)."""


class TimeCapExceeded(Exception):
    """A request ran over the pool's time cap; its worker was stopped.  ``quick``: a quick
    request (no ``time_limit`` field of its own), not a search."""

    def __init__(self, message: str, quick: bool = False) -> None:
        super().__init__(message)
        self.quick = quick


def _work(conn: Connection, quick: bool = False) -> None:
    """The worker process: answer each request line received, sending progress on the way.
    A search worker runs at a lower priority than the server, so that quick requests stay
    quick; a ``quick`` one answers with :func:`web.quick.quick_answer` (the board's limits) and
    pays the CP-SAT set-up before it says it is ready."""
    if not quick:
        with contextlib.suppress(OSError, AttributeError):
            os.nice(5)
    # Ctrl-C at the terminal reaches the whole process group: the server stops its workers
    # itself, so a worker ignores it (no traceback of its own).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
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
            conn.send(("answer", quick_answer(line)))
            continue
        first = _early_hint(line) if early else None
        if first is not None:
            reply, _ = answer(first)
            if reply.get("ok"):
                conn.send(("partial", reply))
        conn.send(("answer", answer_capped(line, progress)))


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


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    jobs: int = 0
    ready: bool = False


@dataclass
class SearchPool:
    """Worker processes answering engine requests, at most ``workers`` at a time with at
    most ``queue`` more waiting; each request stopped after ``time_cap`` seconds.  ``quick``:
    the pool of quick requests (:func:`web.quick.quick_answer`, at the server's priority)."""

    workers: int = 2
    queue: int = 4
    time_cap: float = 120.0
    max_jobs: int = 100
    quick: bool = False
    _idle: asyncio.Queue[_Worker] | None = field(default=None, init=False, repr=False)
    _all: list[_Worker] = field(default_factory=list, init=False, repr=False)
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

    def _spawn(self) -> _Worker:
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        process = context.Process(
            target=_work,
            args=(child, self.quick),
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
        child.close()
        worker = _Worker(process, parent)
        self._all.append(worker)
        return worker

    async def start(self) -> None:
        """Start the workers (each imports the engine, about a second, in the background)."""
        self._idle = asyncio.Queue()
        for _ in range(self.workers):
            self._idle.put_nowait(self._spawn())

    async def ready(self) -> None:
        """Wait until every worker has started (imported the engine; a quick one has paid the
        CP-SAT set-up too), at most :data:`STARTUP` seconds each."""
        for worker in list(self._all):
            if worker.ready:
                continue
            with contextlib.suppress(EOFError, OSError):
                if await asyncio.to_thread(worker.conn.poll, STARTUP):
                    kind, _ = worker.conn.recv()
                    worker.ready = kind == "ready"

    def _kill(self, worker: _Worker) -> None:
        with contextlib.suppress(Exception):
            worker.process.kill()
        with contextlib.suppress(Exception):
            worker.conn.close()
        with contextlib.suppress(Exception):
            worker.process.join(timeout=2)
        if worker in self._all:
            self._all.remove(worker)

    def _release(self, worker: _Worker, healthy: bool) -> None:
        assert self._idle is not None
        if healthy and worker.jobs < self.max_jobs and worker.process.is_alive():
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
        if self._idle is None or self._closed:
            raise PoolFull(f"the server's {self._what} processes are not running; try again shortly")
        if self._pending >= self.capacity:
            raise PoolFull(self.busy)
        self._pending += 1
        try:
            worker = await self._idle.get()
            if not worker.process.is_alive():
                # Died while idle (killed, out of memory): replaced before it is given work.
                self._kill(worker)
                worker = self._spawn()
            healthy = False
            try:
                reply = await self._ask(worker, line, on_progress, on_early)
                healthy = True
                return reply
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
        try:
            if not worker.ready:  # its start (importing the engine) is not the search's time
                kind, _ = await asyncio.wait_for(inbox.get(), timeout=STARTUP)
                if kind != "ready":
                    raise WorkerDied(f"the {self._what} process ended before it was ready")
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
                    kind, data = await asyncio.wait_for(inbox.get(), timeout=left)
                except TimeoutError:
                    continue
                if kind == "answer":
                    reply: dict[str, Any] = data
                    return reply
                if kind == "progress" and on_progress is not None:
                    on_progress(data)
                if kind == "partial" and on_early is not None:
                    on_early(data)
                if kind == "died":
                    raise WorkerDied(f"the {self._what} process ended before it answered")
        finally:
            with contextlib.suppress(Exception):
                loop.remove_reader(conn.fileno())

    async def close(self) -> None:
        """Stop every worker."""
        self._closed = True
        for worker in list(self._all):
            with contextlib.suppress(Exception):
                worker.conn.send(None)
            self._kill(worker)
