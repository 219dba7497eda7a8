"""``conquian serve``: the web analysis board (``docs/web.md``), served by uvicorn."""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import logging
import os
import re
import signal
import socket
import sys
import threading
import webbrowser
from collections.abc import Iterator
from typing import Annotated, Any

import typer

from analyzer.core.rules import PRESETS
from cli.boundary import domain, usage
from cli.console import out
from cli.inputs import rules_of
from cli.options import PlayersOpt

__all__ = ["serve"]

EXTRA = 'pip install -e ".[web]"'
"""How to install what ``conquian serve`` needs."""


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


_HOST_NAME = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?")


def _address(host: str) -> str | None:
    """The address to bind for ``--host`` (an IP address, brackets dropped, or a host name), or
    ``None`` when it is neither (``'bad host'``, ``'127.0.0.1:80'``, ``'http://x'``)."""
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        return str(ipaddress.ip_address(bare))
    except ValueError:
        pass
    if bare == host and _HOST_NAME.fullmatch(host):
        return host
    return None


def _reason(exc: OSError) -> str:
    """Why an address could not be listened on, in words."""
    if isinstance(exc, socket.gaierror):
        return "no such host name"
    if exc.errno == errno.EADDRINUSE:
        return "the port is in use (another server?)"
    if exc.errno == errno.EADDRNOTAVAIL:
        return "not an address of this machine"
    if exc.errno == errno.EACCES:
        return "permission denied (ports below 1024 need privileges)"
    text = str(exc.strerror or exc)
    return text.rsplit("): ", 1)[-1].lower()  # asyncio's 'error while ... on address (...): x'


def _probe(host: str, port: int) -> None:
    """Stop with one line (exit 1) when ``host:port`` cannot be listened on: bound and closed
    again before anything starts, as the server will bind it (SO_REUSEADDR, every address of
    the name)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        for family, kind, proto, _, address in found:
            with socket.socket(family, kind, proto) as probe:
                if os.name == "posix":  # as asyncio binds it
                    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                probe.bind(address)
    except OSError as exc:
        domain(f"could not listen on {host}:{port}: {_reason(exc)}")


class _BindError(logging.Filter):
    """Keeps uvicorn's own line about an address it could not bind (``ERROR: [Errno 98] ...``)
    off the terminal: the command says it once, in its own words."""

    def __init__(self) -> None:
        super().__init__()
        self.reason: str | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, OSError):
            self.reason = _reason(record.msg)
            return False
        return True


def serve(
    host: Annotated[
        str,
        typer.Option(
            "--host",
            metavar="ADDRESS",
            help="Address to listen on; another than the loopback needs --allow-remote.",
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, metavar="N", help="Port (0: any free one).")
    ] = 8765,
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the board in the default web browser.")
    ] = False,
    allow_remote: Annotated[
        bool,
        typer.Option(
            "--allow-remote",
            help="Allow --host to be an address other machines reach: anyone who reaches it "
            "can use the board (and its CPU).",
        ),
    ] = False,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-host",
            metavar="NAME",
            help="Another name the Host header may give (the server's DNS name); repeatable.",
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", min=1, max=64, metavar="N", help="Search processes.")
    ] = 2,
    time_cap: Annotated[
        float,
        typer.Option(
            "--time-cap", min=1.0, metavar="SECONDS", help="Longest one search may run."
        ),
    ] = 120.0,
    memory_cap: Annotated[
        int,
        typer.Option(
            "--memory-cap",
            min=512,
            max=1024 * 1024,
            metavar="MB",
            help="Memory ceiling of each search process, in MB of address space (quick-request "
            "processes: 1024 or this if lower); a search past it gets 503 and its process is "
            "replaced.",
        ),
    ] = 2048,  # web.app.MEMORY_CAP (web is imported only once the extra is known installed)
    variant: Annotated[
        str | None,
        typer.Option(
            "--variant",
            "-v",
            metavar="NAME",
            help=f"The board's default variant, for its deals and games (the page opens on a "
            f"deal of it): {', '.join(PRESETS)}.",
        ),
    ] = None,
    players: PlayersOpt = None,
) -> None:
    """Serve the web analysis board (board, hints, play against bots, review, puzzles) and print
    its URL; Ctrl-C (or SIGTERM) stops it at once, answering the searches still running 503,
    exit 0. Needs the package's web extra (docs/web.md).

    --variant and --players set the board's default variant and player count (R8), as for
    'conquian deal'."""
    # Checked as 'conquian deal' checks them: an unknown variant, or a count it does not allow,
    # is a usage error (exit 2) before anything starts.
    rules = rules_of(variant or "classic", players)
    try:
        import uvicorn

        from web.app import LOOPBACK, BoardServer, create_app, server_options
    except ImportError as exc:
        domain(f"conquian serve needs the web extra ({exc.name} is missing): {EXTRA}")
    # --host checked before anything is said about it: its form (exit 2), whether it may be
    # reached from elsewhere (exit 2), whether it can be listened on (exit 1); then the warning.
    address = _address(host)
    if address is None:
        usage(f"--host: not an IP address or a host name (got {host[:80]!r})")
    host = address
    if not _loopback(host) and not allow_remote:
        usage(
            f"--host {host} lets other machines reach the board: add --allow-remote to mean it "
            "(the default, 127.0.0.1, is this machine only)"
        )
    _probe(host, port)
    # The names the Host header may give: the loopback names, the address served (in the form a
    # browser writes it: [::2] for an IPv6 address) and the names asked for.
    shown = f"[{host}]" if ":" in host else host
    hosts = [*LOOPBACK, shown.lower(), *(allowed_host or [])]
    if not _loopback(host):
        print(
            f"conquian serve: warning: listening on {host}: anyone who reaches this address can "
            "use the board",
            file=sys.stderr,
        )
    app = create_app(
        hosts=hosts,
        workers=workers,
        time_cap=time_cap,
        memory_cap=memory_cap,
        variant=rules.name if variant is not None else None,
        players=players,
    )
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", lifespan="on", **server_options()
    )
    server = _server(config, BoardServer)
    quiet = _BindError()
    uvicorn_log = logging.getLogger("uvicorn.error")

    def started() -> None:
        bound = _bound_port(server) or port
        url = f"http://{shown}:{bound}/"
        out.print(f"conquian board: {url} (Ctrl-C stops it)", markup=False, soft_wrap=True)
        sys.stdout.flush()
        if open_browser:
            webbrowser.open(url)

    server.on_started = started
    uvicorn_log.addFilter(quiet)
    try:
        server.run()
    except SystemExit:
        server.started = False
    finally:
        uvicorn_log.removeFilter(quiet)
    if not server.started:
        # Taken between the check above and the server's own bind (or refused then).
        domain(f"could not listen on {host}:{port}: {quiet.reason or 'the server did not start'}")
    print("conquian board: stopped", file=sys.stderr)


def _bound_port(server: Any) -> int | None:
    for listener in getattr(server, "servers", []):
        for sock in getattr(listener, "sockets", []):
            return int(sock.getsockname()[1])
    return None


def _server(config: Any, base: Any) -> Any:
    """The board's server (``base``, :class:`web.server.BoardServer`), stopped at once by Ctrl-C
    or SIGTERM with exit 0 (uvicorn would re-raise the signal once stopped); calls its
    ``on_started`` once it listens."""

    class Server(base):  # type: ignore[misc]
        on_started: Any = None

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            if threading.current_thread() is not threading.main_thread():
                yield
                return
            handled = (signal.SIGINT, signal.SIGTERM)
            previous = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
            try:
                yield
            finally:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started and self.on_started is not None and not self.should_exit:
                self.on_started()

    return Server(config)
