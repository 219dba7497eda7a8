"""The board's server under a flood of costly quick requests: how long ``variants`` waits.

    python3 bench/web_flood.py [--heavy 20] [--workers 2]

Serves the board on the loopback (a free port, as ``conquian serve`` does), sends ``--heavy``
``moves`` requests at once for a position with custom rules the rules allow (two players,
``hand_size`` 19: 88,036 legal moves), then, half a second later, one ``variants`` request, and
prints how long ``variants`` took, the heavy requests' statuses, answer sizes and times, and the
time until the last heavy one was answered (docs/web.md, "Searches, quick requests and limits").
Needs the web extra.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.benchargs import whole

BIG = (
    "classic french 0 0 3S,4S,5S,6S,7S,3H,4H,5H,6H,7H,3D,4D,5D,6D,7D,3C,4C,6C,7C/19 "
    "5C:turned:1:1 - 1 rules:hand_size=19"
)


def ask(base: str, request: dict[str, Any]) -> tuple[int, int, float]:
    """(status, bytes of the answer, seconds) of one POST /api."""
    body = json.dumps(request).encode()
    req = urllib.request.Request(base + "/api", data=body, headers={"Content-Type": "application/json"})
    begin = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=900) as response:
            status, data = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, data = error.code, error.read()
    return status, len(data), time.perf_counter() - begin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heavy", type=whole(1), default=20, help="moves requests sent at once")
    parser.add_argument("--workers", type=whole(1), default=2, help="search processes")
    args = parser.parse_args()
    import uvicorn

    from web.app import create_app, server_options

    app = create_app(workers=args.workers)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", **server_options())
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    try:
        ask(base, {"id": "warm", "cmd": "moves", "position": BIG})
        results: list[tuple[int, int, float]] = []
        heavy = [
            threading.Thread(target=lambda k=k: results.append(ask(base, {"id": k, "cmd": "moves", "position": BIG})))
            for k in range(args.heavy)
        ]
        begin = time.perf_counter()
        for worker in heavy:
            worker.start()
        time.sleep(0.5)
        status, _, waited = ask(base, {"id": "v", "cmd": "variants"})
        for worker in heavy:
            worker.join()
        total = time.perf_counter() - begin
    finally:
        server.should_exit = True
        thread.join(timeout=60)
    print(f"variants, sent 0.5 s into the flood: {status} after {waited:.3f} s")
    statuses = Counter(r[0] for r in results)
    print(f"{args.heavy} heavy moves requests: " + ", ".join(f"{n} x {s}" for s, n in sorted(statuses.items())))
    for code in sorted(statuses):
        sizes = [r[1] for r in results if r[0] == code]
        times = sorted(r[2] for r in results if r[0] == code)
        print(f"  {code}: answers of {max(sizes):,} bytes at most, {times[0]:.1f} to {times[-1]:.1f} s")
    print(f"the last heavy request answered after {total:.1f} s")


if __name__ == "__main__":
    main()
