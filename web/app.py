"""The web analysis board's ASGI app (Starlette): the page, its static files, and ``POST /api``,
which hands each request to the engine's request handler (:func:`cli.engine.answer`), so that
``conquian engine``, the HTTP API and the page answer alike (``docs/web.md``).

Searches (``hint``, ``solve``, ``why``, ``review``, ``play`` against a searching bot) run in a
bounded pool of processes (:class:`web.pool.SearchPool`); the rest run in a few threads of the
server.  Every response carries a Content-Security-Policy without inline script; the ``Host``
header is checked against the names the server answers to (DNS rebinding).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cli.engine import answer
from web.pool import PoolFull, SearchPool, TimeCapExceeded

__all__ = ["CSP", "LOOPBACK", "MAX_BODY", "BoardApp", "create_app", "is_search"]

MAX_BODY = 1024 * 1024
"""Most bytes of one request body (1 MB); a longer one gets 413."""

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
    if cmd == "hint":
        return request.get("static") is not True
    if cmd == "play":
        bots = request.get("bots", "greedy")
        names = bots.split(",") if isinstance(bots, str) else bots
        if not isinstance(names, list):
            return False
        return any(str(n).split(":")[0].strip().lower() not in _QUICK_BOTS for n in names)
    return cmd in _SEARCHES


def _error(message: str, status: int, field: str | None = None, **headers: str) -> JSONResponse:
    return JSONResponse(
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
    return json.dumps(data, ensure_ascii=False, allow_nan=False)


def _host_name(host: str) -> str:
    """The name in a ``Host`` header, without its port (``[::1]:8765`` -> ``[::1]``)."""
    if host.startswith("["):
        return host.split("]", 1)[0] + "]"
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class BoardApp:
    """The board's ASGI app: checks the ``Host`` header, adds the security headers to every
    response, and holds the search ``pool``."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str], pool: SearchPool) -> None:
        self.app = app
        self.hosts = {h.lower() for h in hosts}
        self.pool = pool

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = ""
        for key, value in scope["headers"]:
            if key == b"host":
                host = value.decode("latin-1").lower()
        name = _host_name(host)
        if name not in self.hosts:
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


def create_app(
    *,
    hosts: Iterable[str] = LOOPBACK,
    workers: int = 2,
    queue: int = 4,
    time_cap: float = 120.0,
    quick_threads: int = 4,
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
        Threads answering the quick requests.
    """
    pool = SearchPool(workers=workers, queue=queue, time_cap=time_cap)
    limiter = anyio.CapacityLimiter(quick_threads)

    async def quick(text: str) -> dict[str, Any]:
        reply, _ = await anyio.to_thread.run_sync(lambda: answer(text), limiter=limiter)
        return reply

    async def read(request: Request) -> tuple[str, bool] | JSONResponse:
        try:
            raw = await _body(request)
        except _BodyTooLarge:
            return _error("the request body is over 1 MB", 413)
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
        return text, is_search(parsed)

    async def api(request: Request) -> Response:
        got = await read(request)
        if isinstance(got, JSONResponse):
            return got
        text, search = got
        if not search:
            reply = await quick(text)
            return JSONResponse(reply, status_code=_status(reply))
        task = asyncio.ensure_future(pool.run(text))
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=0.25)
                if done:
                    break
                if await request.is_disconnected():
                    task.cancel()  # the client went away: its worker is stopped
                    with contextlib.suppress(BaseException):
                        await task
                    return Response(status_code=499)
            reply = task.result()
        except PoolFull:
            return _error(
                "the server is busy: every search process is in use and the queue is full; "
                "try again shortly",
                503,
                **{"Retry-After": _RETRY_AFTER},
            )
        except TimeCapExceeded as exc:
            return _error(str(exc), 504, "time_limit")
        finally:
            if not task.done():
                task.cancel()
        return JSONResponse(reply, status_code=_status(reply))

    async def stream(request: Request) -> Response:
        got = await read(request)
        if isinstance(got, JSONResponse):
            return got
        text, search = got
        if search and pool.pending >= pool.capacity:
            return _error(
                "the server is busy: every search process is in use and the queue is full; "
                "try again shortly",
                503,
                **{"Retry-After": _RETRY_AFTER},
            )
        return StreamingResponse(
            _events(text, search),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    async def _events(text: str, search: bool) -> AsyncIterator[str]:
        inbox: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()

        def progress(data: dict[str, Any]) -> None:
            inbox.put_nowait(("progress", data))

        def early(data: dict[str, Any]) -> None:
            inbox.put_nowait(("early", data))

        job = pool.run(text, on_progress=progress, on_early=early) if search else quick(text)
        task = asyncio.ensure_future(job)
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
            try:
                reply = task.result()
                status = _status(reply)
            except PoolFull:
                reply, status = {"id": None, "ok": False, "error": "the server is busy", "field": None}, 503
            except TimeCapExceeded as exc:
                reply = {"id": None, "ok": False, "error": str(exc), "field": "time_limit"}
                status = 504
            yield f"event: answer\ndata: {_dumps({**reply, 'status': status})}\n\n"
        finally:
            if not task.done():
                task.cancel()  # the client closed the stream: its worker is stopped
                with contextlib.suppress(BaseException):
                    await task

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def not_allowed(request: Request) -> Response:
        return _error("POST one JSON request to /api (docs/web.md)", 405, Allow="POST")

    async def failure(request: Request, exc: Exception) -> Response:
        return _error(f"internal error: {type(exc).__name__}", 500)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await pool.start()
        # The first CP-SAT solve of a process pays its set-up (about a second): paid here.
        await quick('{"id": 0, "cmd": "melds", "cards": "5H 6H 7H JS"}')
        try:
            yield
        finally:
            await pool.close()

    app = Starlette(
        routes=[
            Route("/", index, methods=["GET", "HEAD"]),
            Route("/api", api, methods=["POST"]),
            Route("/api", not_allowed, methods=["GET", "PUT", "DELETE", "PATCH"]),
            Route("/api/stream", stream, methods=["POST"]),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
        exception_handlers={Exception: failure},
    )
    return BoardApp(app, hosts, pool)
