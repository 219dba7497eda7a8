"""Helpers for the web board's tests: the app served by uvicorn on the loopback, in a thread."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tests" / "artifacts"
EXTRA = 'the web test libraries (the webtest extra: starlette, uvicorn, httpx) are not all installed: pip install -e ".[webtest]"'

FORCING = (
    "classic french 1 1 KS,KH[AC,2C,3C,4C][4S,5S,6S,7S]/AH,2H,2D,3S,3D,5D,6H,JD,QH,QD "
    "5C:turned:0:0 7D 18"
)
"""RULES.md worked example 5 (forcing, R14) in notation."""


def need_web() -> None:
    """Skip the calling module when the web extra (starlette, uvicorn, httpx) is missing."""
    for name in ("starlette", "uvicorn", "httpx"):
        pytest.importorskip(name, reason=EXTRA)


def example(name: str) -> dict[str, Any]:
    """A bundled position file's data."""
    data: dict[str, Any] = json.loads((ROOT / "examples" / "positions" / f"{name}.json").read_text())
    return data


@contextmanager
def served(**options: Any) -> Iterator[tuple[str, Any]]:
    """The board served on 127.0.0.1 (a free port) in a thread: (base URL, the app)."""
    import uvicorn

    from web.app import create_app, server_options

    app = create_app(**options)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", **server_options()
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the board's server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(timeout=30)

