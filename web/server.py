"""How uvicorn serves the board (``conquian serve``, ``docs/web.md``): HTTP/1.1 through h11, with
deadlines for connections that hold the server without asking anything of it.

uvicorn closes a kept-alive connection :data:`KEEP_ALIVE` seconds after its last answer, but has
no deadline of its own for a request's head: a connection that sends nothing, or its headers a
byte at a time, would stay open for ever.  :class:`BoardProtocol` closes it when no whole head
has arrived :data:`HEAD_TIMEOUT` seconds after the connection opened or its last answer was
sent (with a plain-text 408 when part of a head had come).  The body has its own deadline in
the app (``web.app.BODY_TIMEOUT``).  Malformed HTTP (a NUL in a header, a bad chunk size,
``Content-Length: -1``, a head over :data:`MAX_HEAD` bytes) is answered by uvicorn itself, in
plain text, before the app sees it.

:class:`BoardServer` stops the board at once when told to exit (Ctrl-C, SIGTERM): uvicorn alone
would first wait for every open connection, a search's up to its time cap, and a second Ctrl-C
would cancel them with a traceback each.  It closes the listening sockets and stops the app
(``web.app.BoardApp.stop``: searches stopped and answered 503, worker processes killed) before
uvicorn waits for the connections, which then end at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = [
    "HEAD_TIMEOUT",
    "KEEP_ALIVE",
    "MAX_HEAD",
    "SHUTDOWN_TIMEOUT",
    "BoardProtocol",
    "BoardServer",
    "server_options",
]

HEAD_TIMEOUT = 10.0
"""Seconds a connection may take to send a whole request head, from its opening or from the
last answer on it; then it is closed."""

KEEP_ALIVE = 5
"""Seconds an idle kept-alive connection stays open after an answer (uvicorn's
``timeout_keep_alive``)."""

MAX_HEAD = 16 * 1024
"""Most bytes of a request's head (h11's ``max_incomplete_event_size``); a longer one gets
uvicorn's plain-text 400."""

LOG = logging.getLogger("conquian.serve")

SHUTDOWN_TIMEOUT = 5.0
"""Most seconds :class:`BoardServer` waits, once the app is stopped, for the open connections to
end (uvicorn's ``timeout_graceful_shutdown``); then uvicorn cancels what is left."""

_TIMED_OUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s"
)


class BoardProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for the request head (:data:`HEAD_TIMEOUT`): armed
    when the connection opens and when an answer on it is complete, cancelled when a whole head
    has arrived (the app then answers, and times the body itself).  Data arriving does not
    push it back, so a head sent a byte at a time is cut off too."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._arm_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._answering():
            self._disarm_head()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._answering():  # a pipelined request, begun at once
            self._disarm_head()
        else:
            self._disarm_head()
            self._arm_head()

    def _answering(self) -> bool:
        cycle: Any = self.cycle
        return cycle is not None and not cycle.response_complete

    def _arm_head(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self._head_timed_out)

    def _disarm_head(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self._answering() or self.transport.is_closing():
            return
        partial, _ = self.conn.trailing_data
        if partial:
            text = f"the request head did not arrive within {HEAD_TIMEOUT:g} s".encode()
            self.transport.write(_TIMED_OUT % (len(text), text))
        if self.conn.our_state is not h11.ERROR:
            with contextlib.suppress(h11.LocalProtocolError):
                self.conn.send(h11.ConnectionClosed())
        self.transport.close()


def server_options() -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.Config`` that set the board's HTTP limits:
    :class:`BoardProtocol`, :data:`KEEP_ALIVE` and :data:`MAX_HEAD`."""
    return {
        "http": BoardProtocol,
        "timeout_keep_alive": KEEP_ALIVE,
        "h11_max_incomplete_event_size": MAX_HEAD,
    }


class BoardServer(uvicorn.Server):
    """uvicorn's server that stops its app at once when told to exit: on the signal (Ctrl-C,
    SIGTERM) the app's ``stop()`` is started, and :meth:`shutdown` closes the listening sockets
    and waits for it before uvicorn waits (at most :data:`SHUTDOWN_TIMEOUT` seconds) for the open
    connections.  A second signal changes nothing (the first already stops everything within
    seconds).  An app without ``stop`` is served as uvicorn serves it."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        if config.timeout_graceful_shutdown is None:
            config.timeout_graceful_shutdown = int(SHUTDOWN_TIMEOUT)
        self._stopping: asyncio.Task[None] | None = None

    def _app_stop(self) -> Callable[[], Awaitable[None]] | None:
        stop = getattr(self.config.app, "stop", None)
        return stop if callable(stop) else None

    def _stop_app(self) -> asyncio.Task[None] | None:
        """The task stopping the app (started on the first call), or ``None`` without one."""
        stop = self._app_stop()
        if stop is None:
            return None
        if self._stopping is None:

            async def run() -> None:
                try:
                    await stop()
                except Exception:
                    LOG.exception("stopping the board failed")

            self._stopping = asyncio.ensure_future(run())
        return self._stopping

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.should_exit and self._app_stop() is not None:
            # Already stopping, at once: uvicorn's second-signal "force exit" would only skip
            # the app's shutdown and print the tracebacks of the tasks it then cancels.
            return
        super().handle_exit(sig, frame)
        # Started now, not at the next tick of uvicorn's loop: a signal during the start-up
        # (workers still importing the engine) stops it too.
        with contextlib.suppress(RuntimeError):  # no loop running in this thread
            asyncio.get_running_loop().call_soon_threadsafe(self._stop_app)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in getattr(self, "servers", []):
            server.close()  # no new connection while the app stops
        stopping = self._stop_app()
        if stopping is not None:
            await asyncio.shield(stopping)
        await super().shutdown(sockets)
