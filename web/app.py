"""The web analysis board's ASGI app (Starlette): the page, its static files, and ``POST /api``,
which hands each request to the library's request layer (:func:`analyzer.service.requests.answer`), so that
``conquian engine``, the HTTP API and the page answer alike (``docs/web.md``).

Searches (``hint``, ``solve``, ``why``, ``review``, ``play`` against a searching bot) run in a
bounded pool of processes (:class:`web.pool.SearchPool`), the quick requests (``moves``,
``analyze``, a static hint, ...) in a second, smaller one with a shorter time cap, within the
limits of :mod:`web.quick`; only the cheap ones (``variants``, ``examples``, a request refused
before any work) run in a few threads of the server, at most :data:`CHEAP_QUEUE` waiting, so that
no flood of heavy requests keeps them waiting.  uvicorn closes idle and trickling connections
(:mod:`web.server`).  Every response carries a Content-Security-Policy without inline script;
the ``Host`` header is parsed strictly and checked against the names the server answers to (DNS
rebinding); a ``POST`` must be ``application/json`` (415 otherwise) and come from the board's own
origin (403 for another ``Origin`` or ``Sec-Fetch-Site: cross-site``).  Every answer is JSON, a
client's mistake a 4xx, and none is logged as a traceback: a body that does not arrive within
:data:`BODY_TIMEOUT` gets 408, a client that goes away is one log line.  Each worker process has
a memory ceiling (:data:`MEMORY_CAP`, :data:`QUICK_MEMORY_CAP`; a request past it gets 503), and
:meth:`BoardApp.stop` (the server stopping: Ctrl-C, SIGTERM) ends every request at once with a
503 (a stream's final ``error`` event) and kills the pools' processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import math
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from analyzer.core.rules import get_rules
from analyzer.service.requests import answer
from web.pool import MemoryCapExceeded, PoolFull, SearchPool, TimeCapExceeded, WorkerDied
from web.quick import is_cheap
from web.server import MAX_HEAD, BoardServer, server_options

__all__ = [
    "BODY_TIMEOUT",
    "CHEAP_QUEUE",
    "CSP",
    "LOOPBACK",
    "MAX_BODY",
    "MEMORY_CAP",
    "QUICK_CAP",
    "QUICK_MEMORY_CAP",
    "STOP_GRACE",
    "BoardApp",
    "BoardServer",
    "create_app",
    "host_name",
    "is_search",
    "page",
    "request_kind",
    "server_options",
]

MAX_BODY = 1024 * 1024
"""Most bytes of one request body (1 MB); a longer one gets 413."""

BODY_TIMEOUT = 10.0
"""Seconds a request body may take to arrive in full; a slower one gets 408."""

QUICK_CAP = 10.0
"""Seconds a quick request (``moves``, ``analyze``, a static hint, ...) may run by default before
its process is stopped (504); searches have ``--time-cap``."""

CHEAP_QUEUE = 32
"""Most cheap requests (:func:`web.quick.is_cheap`) waiting for a thread of the server beyond
those running; one more gets 503."""

QUICK_JOBS = 1000
"""Quick requests one process answers before it is replaced (memory stays bounded)."""

MEMORY_CAP = 2048
"""Default memory ceiling of a search process, in MB of address space (``conquian serve
--memory-cap``): the heaviest searches of the presets measured use about 340 MB, the engine and
its libraries about 170 MB of it."""

QUICK_MEMORY_CAP = 1024
"""Memory ceiling of a quick-request process, in MB (or the search processes' ceiling if
lower): a ``moves`` answer for 88,036 legal moves uses about 310 MB, CP-SAT included."""

STOP_GRACE = 1.0
"""Seconds :meth:`BoardApp.stop` lets the requests it stopped write their 503 before it cancels
the handlers still running (a body still arriving, say) and answers them 503 itself."""

STOPPING = "the server is stopping; try again once it runs again"
"""What a request the server could not answer because it is stopping is told (503)."""

LOG = logging.getLogger("conquian.serve")

LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
"""Host names a server bound to the loopback answers to."""

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'none'"
)
"""The page's Content-Security-Policy: scripts only from the server's own files."""

STATIC = Path(__file__).parent / "static"

_QUICK_BOTS = ("greedy", "random")
_SEARCHES = frozenset({"hint", "solve", "why", "review"})
_RETRY_AFTER = "2"


def is_search(request: Any) -> bool:
    """True when the engine request (parsed JSON) is a search, answered in the pool: ``hint``
    (not ``static``), ``solve``, ``why``, ``review``, or ``play`` with a bot other than greedy
    or random."""
    if not isinstance(request, dict):
        return False
    cmd = request.get("cmd")
    if not isinstance(cmd, str):
        return False  # the engine answers what is wrong with it
    if cmd == "hint":
        return request.get("static") is not True
    if cmd == "play":
        bots = request.get("bots", "greedy")
        names = bots.split(",") if isinstance(bots, str) else bots
        if not isinstance(names, list):
            return False
        return any(str(n).split(":")[0].strip().lower() not in _QUICK_BOTS for n in names)
    return cmd in _SEARCHES


def request_kind(request: Any) -> str:
    """Where the parsed engine request is answered: ``"search"`` (the search pool,
    :func:`is_search`), ``"cheap"`` (a thread of the server, :func:`web.quick.is_cheap`) or
    ``"quick"`` (the pool of quick requests)."""
    if is_search(request):
        return "search"
    return "cheap" if is_cheap(request) else "quick"


class _Json(JSONResponse):
    """JSON with every character outside ASCII escaped: a lone surrogate from the request (an
    ``id`` of ``"\\ud800"``) is answered as the same escape, never an encoding error."""

    def render(self, content: Any) -> bytes:
        return _dumps(content).encode("ascii")


def _error(message: str, status: int, field: str | None = None, **headers: str) -> JSONResponse:
    return _Json(
        {"id": None, "ok": False, "error": message, "field": field},
        status_code=status,
        headers=headers or None,
    )


class _BodyTooLarge(Exception):
    pass


async def _body(request: Request) -> bytes:
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        raise _BodyTooLarge
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise _BodyTooLarge
        chunks.append(chunk)
    return b"".join(chunks)


def _status(reply: dict[str, Any]) -> int:
    if reply.get("ok"):
        return 200
    if str(reply.get("error", "")).startswith("internal error"):
        return 500
    return 400


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=True, allow_nan=False)


_HOST = re.compile(r"(?P<name>\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9.-]*[a-z0-9])?)(:(?P<port>[0-9]{1,5}))?")


def host_name(host: str) -> str | None:
    """The name of a ``Host`` header without its port (``[::1]:8765`` -> ``[::1]``), or ``None``
    when the header is not exactly a host name or bracketed IPv6 address with an optional port
    (``127.0.0.1:80@evil.example``, ``[::1]evil.example`` and a bare ``::1`` are not)."""
    found = _HOST.fullmatch(host.strip().lower())
    if found is None:
        return None
    port = found.group("port")
    if port is not None and not 0 < int(port) < 65536:
        return None
    return found.group("name")


def _request_id(request: Any) -> Any:
    """The ``id`` of a parsed request, echoed by the answers the server gives itself (503, 504)
    as the engine echoes it: a string or a finite number, else ``None``."""
    if not isinstance(request, dict):
        return None
    value = request.get("id")
    if isinstance(value, str) or (isinstance(value, int | float) and not isinstance(value, bool)):
        return value if not isinstance(value, float) or math.isfinite(value) else None
    return None


def _failure_parts(
    exc: Exception, request_id: Any = None
) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The body, status and headers of a request a pool (or the server's threads) could not
    answer: busy (503), past the time cap (504), its process lost (503)."""
    if isinstance(exc, TimeCapExceeded):
        field = None if exc.quick else "time_limit"
        return {"id": request_id, "ok": False, "error": str(exc), "field": field}, 504, {}
    if isinstance(exc, MemoryCapExceeded):  # the same request would fail again: no Retry-After
        return {"id": request_id, "ok": False, "error": str(exc), "field": None}, 503, {}
    message = str(exc) if isinstance(exc, PoolFull) else f"{exc}; try again"
    return (
        {"id": request_id, "ok": False, "error": message, "field": None},
        503,
        {"Retry-After": _RETRY_AFTER},
    )


def _failure(exc: Exception, request_id: Any = None) -> Response:
    body, status, headers = _failure_parts(exc, request_id)
    return _Json(body, status_code=status, headers=headers or None)


def _refused(request: Request) -> Response | None:
    """415 for a body that is not said to be JSON, 403 for a request from another site (a page
    elsewhere must not make the browser run searches here); ``None`` when it may be read."""
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind != "application/json":
        return _error(
            f"the request must be JSON: Content-Type: application/json, not {kind[:40] or 'none'!r}",
            415,
        )
    if request.headers.get("sec-fetch-site", "").lower() == "cross-site":
        return _error("requests from another site are refused (Sec-Fetch-Site: cross-site)", 403)
    origin = request.headers.get("origin")
    if origin is not None:
        host = request.headers.get("host", "")
        if origin.lower() not in (f"http://{host.lower()}", f"https://{host.lower()}"):
            return _error(f"requests from another origin are refused ({origin[:60]!r})", 403)
    return None


class _AnyMethod:
    """An endpoint that every HTTP method reaches (Starlette routes a class as plain ASGI, with
    no method check of its own), so that the endpoint answers each one in JSON, not Starlette's
    plain-text 405."""

    def __init__(self, endpoint: Callable[[Request], Awaitable[Response]]) -> None:
        self.endpoint = endpoint

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = await self.endpoint(Request(scope, receive, send))
        await response(scope, receive, send)


class _Sent:
    """What a handler has sent of its response so far."""

    def __init__(self) -> None:
        self.started = False
        self.ended = False
        self.stream = False


class BoardApp:
    """The board's ASGI app: checks the ``Host`` header, adds the security headers to every
    response, and holds the search ``pool`` and the ``quick_pool`` of quick requests;
    :meth:`stop` ends every request at once when the server stops."""

    def __init__(
        self,
        app: ASGIApp,
        hosts: Iterable[str],
        pool: SearchPool,
        quick_pool: SearchPool | None = None,
    ) -> None:
        self.app = app
        self.hosts = {h.lower() for h in hosts}
        self.pool = pool
        self.quick_pool = quick_pool
        self.stopping = False
        self._handlers: set[asyncio.Task[Any]] = set()
        self._stopped: asyncio.Future[None] | None = None

    async def stop(self) -> None:
        """Stop every request at once (the server is stopping: Ctrl-C, SIGTERM): the pools are
        stopped (:meth:`web.pool.SearchPool.stop`: their processes killed, each running or waiting
        search answered 503, a stream with a final ``error`` event of status 503); a handler still
        running :data:`STOP_GRACE` seconds later is cancelled and answered 503 here.  Safe to call
        more than once: a second call waits for the first."""
        if self._stopped is not None:
            await asyncio.shield(self._stopped)
            return
        self._stopped = asyncio.get_running_loop().create_future()
        self.stopping = True
        try:
            pools = [p for p in (self.pool, self.quick_pool) if p is not None]
            await asyncio.gather(*(p.stop() for p in pools))
            handlers = set(self._handlers)
            if handlers:
                _, late = await asyncio.wait(handlers, timeout=STOP_GRACE)
                for task in late:
                    task.cancel(STOPPING)
                if late:
                    await asyncio.wait(late, timeout=STOP_GRACE)
        finally:
            self._stopped.set_result(None)

    async def _stopped_answer(self, sent: _Sent, send: Send) -> None:
        """End a response cancelled by :meth:`stop`: a JSON 503 when nothing was sent yet, a
        final ``error`` event on a stream, else the end of the body."""
        with contextlib.suppress(Exception):
            if not sent.started:
                body = _dumps({"id": None, "ok": False, "error": STOPPING, "field": None}).encode()
                await send({
                    "type": "http.response.start", "status": 503,
                    "headers": [(b"content-type", b"application/json"), (b"retry-after", _RETRY_AFTER.encode()),
                                (b"content-length", str(len(body)).encode())],
                })  # fmt: skip
                await send({"type": "http.response.body", "body": body})
            elif not sent.ended:
                tail = b""
                if sent.stream:
                    data = {"id": None, "ok": False, "error": STOPPING, "field": None, "status": 503}
                    tail = f"event: error\ndata: {_dumps(data)}\n\n".encode()
                await send({"type": "http.response.body", "body": tail})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        task = asyncio.current_task()
        if task is None:
            await self._answer(scope, receive, send)
            return
        sent = _Sent()
        secured = self._secure(send)

        async def tracked(message: Message) -> None:
            if message["type"] == "http.response.start":
                sent.started = True
                for key, value in message.get("headers", []):
                    if key.lower() == b"content-type" and value.startswith(b"text/event-stream"):
                        sent.stream = True
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                sent.ended = True
            await send(message)

        self._handlers.add(task)
        try:
            await self._answer(scope, receive, tracked)
        except asyncio.CancelledError:
            if not self.stopping:
                raise
            await self._stopped_answer(sent, secured)
        finally:
            self._handlers.discard(task)

    async def _answer(self, scope: Scope, receive: Receive, send: Send) -> None:
        host = ""
        size = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
        for key, value in scope["headers"]:
            size += len(key) + len(value) + 4
            if key == b"host":
                host = value.decode("latin-1").lower()
        if size > MAX_HEAD:
            # h11 counts only a head that arrives in pieces; one that came whole is counted here.
            response = _error(f"the request's head is over {MAX_HEAD // 1024} kB", 431)
            await response(scope, receive, self._secure(send))
            return
        name = host_name(host)
        if name is None or name not in self.hosts:
            response = _error(
                f"the Host header {host[:60]!r} is not one this server answers to "
                "(DNS rebinding check)",
                400,
                "host",
            )
            await response(scope, receive, self._secure(send))
            return
        await self.app(scope, receive, self._secure(send))

    @staticmethod
    def _secure(send: Send) -> Send:
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"content-security-policy", CSP.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        return wrapped


def page(variant: str | None = None, players: int | None = None) -> str:
    """The board's page (``index.html``) with the board's default ``variant`` and ``players``
    in its ``conquian-variant`` and ``conquian-players`` meta tags (empty: not given; the page
    then starts with the first preset at its own count).

    Raises
    ------
    ValueError
        If ``variant`` is not a preset or ``players`` a count it allows (R8).
    """
    rules = get_rules(variant or "classic")  # UnknownVariantError is a ValueError
    if players is not None:
        rules = rules.with_players(players)
    text = (STATIC / "index.html").read_text(encoding="utf-8")
    for name, value in (("variant", rules.name if variant else ""), ("players", players or "")):
        tag = f'<meta name="conquian-{name}" content="">'
        if tag not in text:
            raise ValueError(f"the page has no {tag}")
        text = text.replace(tag, f'<meta name="conquian-{name}" content="{html.escape(str(value))}">')
    return text


def create_app(
    *,
    hosts: Iterable[str] = LOOPBACK,
    workers: int = 2,
    queue: int = 4,
    time_cap: float = 120.0,
    quick_threads: int = 4,
    quick_workers: int = 2,
    quick_queue: int = 6,
    quick_cap: float = QUICK_CAP,
    memory_cap: int | None = MEMORY_CAP,
    quick_memory_cap: int | None = QUICK_MEMORY_CAP,
    variant: str | None = None,
    players: int | None = None,
) -> BoardApp:
    """The board's ASGI app.

    Parameters
    ----------
    hosts : iterable of str
        Host names (without port) the ``Host`` header may name; others get 400.
    workers, queue : int
        Search processes, and searches waiting for one beyond them (then 503).
    time_cap : float
        Seconds one search may run before its process is stopped (504).
    quick_threads : int
        Threads of the server answering the cheap requests (:func:`web.quick.is_cheap`), with
        at most :data:`CHEAP_QUEUE` more waiting (then 503).
    quick_workers, quick_queue : int
        Processes answering the quick requests (``moves``, ``analyze``, a static hint, ...),
        and quick requests waiting for one beyond them (then 503 with ``Retry-After``).
    quick_cap : float
        Seconds one quick request may run before its process is stopped (504); at most
        ``time_cap``.
    memory_cap, quick_memory_cap : int or None
        The memory ceiling of each search process and of each quick-request process (at most
        ``memory_cap``), in MB of address space (``RLIMIT_AS``): a request past it gets 503 and
        its process is replaced.  ``None``: no ceiling.
    variant, players : str or None, int or None
        The board's default variant and player count (``conquian serve --variant --players``):
        the page's deal and play controls start with them and it opens on a deal of them.
        ``None``: not given (the first preset, at its own count).

    Raises
    ------
    ValueError
        If ``variant`` is not a preset or ``players`` a count it allows (R8).
    """
    page(variant, players)  # checked before anything starts
    pool = SearchPool(workers=workers, queue=queue, time_cap=time_cap, memory_cap=memory_cap)
    caps = [cap for cap in (memory_cap, quick_memory_cap) if cap is not None]
    quick_pool = SearchPool(
        workers=quick_workers,
        queue=quick_queue,
        time_cap=min(quick_cap, time_cap),
        max_jobs=QUICK_JOBS,
        quick=True,
        memory_cap=min(caps) if caps else None,
    )
    pools = {"search": pool, "quick": quick_pool}
    limiter = anyio.CapacityLimiter(quick_threads)
    cheap_pending = [0]

    async def cheap(text: str) -> dict[str, Any]:
        if cheap_pending[0] >= quick_threads + CHEAP_QUEUE:
            raise PoolFull(
                f"the server is busy: {cheap_pending[0]} requests are waiting for it; try again shortly"
            )
        cheap_pending[0] += 1
        try:
            reply, _ = await anyio.to_thread.run_sync(lambda: answer(text), limiter=limiter)
        finally:
            cheap_pending[0] -= 1
        return reply

    def job(
        text: str,
        kind: str,
        on_progress: Callable[[dict[str, Any]], None] | None = None,
        on_early: Callable[[dict[str, Any]], None] | None = None,
    ) -> Awaitable[dict[str, Any]]:
        """The answer to ``text`` where its ``kind`` (:func:`request_kind`) is answered."""
        if kind == "cheap":
            return cheap(text)
        if kind == "quick":
            return quick_pool.run(text)
        return pool.run(text, on_progress=on_progress, on_early=on_early)

    async def read(request: Request) -> tuple[str, str, Any] | Response:
        refused = _refused(request)
        if refused is not None:
            return refused
        try:
            async with asyncio.timeout(BODY_TIMEOUT):
                raw = await _body(request)
        except _BodyTooLarge:
            return _error("the request body is over 1 MB", 413)
        except TimeoutError:
            return _error(f"the request body did not arrive within {BODY_TIMEOUT:g} s", 408)
        except ClientDisconnect:
            LOG.info("a client went away while sending its request")
            return Response(status_code=499)
        try:
            text = raw.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            return _error("the request is not UTF-8 text", 400)
        if not text.strip():
            return _error("the request is empty: one JSON object with 'id' and 'cmd'", 400)
        try:
            parsed = json.loads(text)
        except (ValueError, RecursionError):
            parsed = None  # the engine says what is wrong
        return text, request_kind(parsed), _request_id(parsed)

    async def api(request: Request) -> Response:
        got = await read(request)
        if isinstance(got, Response):
            return got
        text, kind, request_id = got
        task = asyncio.ensure_future(job(text, kind))
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=0.25)
                if done:
                    break
                if await request.is_disconnected():
                    task.cancel()  # the client went away: its worker is stopped
                    with contextlib.suppress(BaseException):
                        await task
                    what = "search" if kind == "search" else "request"
                    LOG.info("a client went away during its %s: the %s was stopped", what, what)
                    return Response(status_code=499)
            reply = task.result()
        except (PoolFull, TimeCapExceeded, WorkerDied) as exc:
            return _failure(exc, request_id)
        finally:
            if not task.done():
                task.cancel()
        return _Json(reply, status_code=_status(reply))

    async def stream(request: Request) -> Response:
        got = await read(request)
        if isinstance(got, Response):
            return got
        text, kind, request_id = got
        full = pools.get(kind)
        if full is not None and full.pending >= full.capacity:
            return _failure(PoolFull(full.busy), request_id)
        return StreamingResponse(
            _events(text, kind, request_id),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    async def _events(text: str, kind: str, request_id: Any) -> AsyncIterator[str]:
        inbox: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()

        def progress(data: dict[str, Any]) -> None:
            inbox.put_nowait(("progress", data))

        def early(data: dict[str, Any]) -> None:
            inbox.put_nowait(("early", data))

        task = asyncio.ensure_future(job(text, kind, progress, early))
        getter: asyncio.Future[tuple[str, dict[str, Any]]] | None = None
        try:
            while True:
                getter = asyncio.ensure_future(inbox.get())
                done, _ = await asyncio.wait({task, getter}, return_when=asyncio.FIRST_COMPLETED)
                if getter in done:
                    kind, data = getter.result()
                    yield f"event: {kind}\ndata: {_dumps(data)}\n\n"
                else:
                    getter.cancel()
                if task in done:
                    break
            # Exactly one final event: the engine's answer, or the server's error with its status.
            try:
                reply = task.result()
            except (PoolFull, TimeCapExceeded, WorkerDied) as exc:
                body, status, _ = _failure_parts(exc, request_id)
                yield f"event: error\ndata: {_dumps({**body, 'status': status})}\n\n"
                return
            yield f"event: answer\ndata: {_dumps({**reply, 'status': _status(reply)})}\n\n"
        finally:
            if getter is not None and not getter.done():
                getter.cancel()
            if not task.done():
                task.cancel()  # the client closed the stream: its worker is stopped
                with contextlib.suppress(BaseException):
                    await task
                LOG.info("a client closed its stream: the search was stopped")

    async def index(request: Request) -> Response:
        text = await anyio.to_thread.run_sync(page, variant, players)
        response = HTMLResponse(text, headers={"Cache-Control": "no-store"})
        if request.method == "HEAD":
            response.body = b""  # its headers (the length included) are the GET's
        return response

    def only_post(endpoint: Any, path: str) -> _AnyMethod:
        """``endpoint`` for POST; any other method (OPTIONS, GET, ...) is a JSON 405 naming
        the one method allowed."""

        async def route(request: Request) -> Response:
            if request.method == "POST":
                response: Response = await endpoint(request)
                return response
            return _error(
                f"{request.method[:20]} is not answered here: POST one JSON request to {path} "
                "(docs/web.md)",
                405,
                Allow="POST",
            )

        return _AnyMethod(route)

    async def not_found(request: Request) -> Response:
        return _error(
            f"no such API path: {request.url.path[:80]!r}; POST one JSON request to /api, or to "
            "/api/stream for progress (docs/web.md)",
            404,
        )

    async def failure(request: Request, exc: Exception) -> Response:
        LOG.error("internal error answering a request", exc_info=exc)
        return _error(f"internal error: {type(exc).__name__}", 500)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await pool.start()
        await quick_pool.start()
        await quick_pool.ready()  # the page's first requests are quick ones
        try:
            yield
        finally:
            await quick_pool.close()
            await pool.close()

    app = Starlette(
        routes=[
            Route("/", index, methods=["GET", "HEAD"]),
            # Every method reaches these: all but POST get a JSON 405.
            Route("/api", only_post(api, "/api")),
            Route("/api/stream", only_post(stream, "/api/stream")),
            Route("/api/{rest:path}", _AnyMethod(not_found)),  # any other path under /api
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
        exception_handlers={Exception: failure},
    )
    return BoardApp(app, hosts, pool, quick_pool)
