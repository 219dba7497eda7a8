"""The board's server under a client's mistakes and a machine's accidents: every request answered
as JSON (a 4xx for the client's doing, never a 500 or a logged traceback), JSON bodies only and
from the board's own origin, the Host header parsed strictly, dead search processes noticed and
replaced, every stream ended by exactly one final event, slow bodies timed out, Ctrl-C quiet."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import socket
import subprocess
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from web_support import FORCING, need_web, served

need_web()

import httpx  # noqa: E402

from web.app import host_name  # noqa: E402

LONG = {"id": "long", "cmd": "hint", "position": FORCING, "samples": 100000, "time_limit": 1000}


def _post(base: str, body: Any, path: str = "/api", **headers: str) -> httpx.Response:
    content = body if isinstance(body, (str, bytes)) else json.dumps(body)
    heads = {"Content-Type": "application/json", **headers}
    return httpx.post(base + path, content=content, headers=heads, timeout=60)


def _events(text: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        out.append((lines["event"], json.loads(lines["data"])))
    return out


@pytest.fixture(scope="module")
def base() -> Any:
    with served(workers=1, queue=1, time_cap=60) as (url, app):
        yield url


@pytest.mark.parametrize("cmd", [["hint"], {}, 3, None, True, 1.5])
@pytest.mark.parametrize("path", ["/api", "/api/stream"])
def test_any_json_value_as_the_command_is_a_4xx_with_a_message(base: str, cmd: Any, path: str) -> None:
    reply = _post(base, {"id": 1, "cmd": cmd, "position": FORCING}, path)
    if path == "/api":
        assert 400 <= reply.status_code < 500
        data = reply.json()
    else:
        assert reply.status_code == 200
        ((kind, data),) = _events(reply.text)
        assert kind == "answer" and 400 <= data["status"] < 500
    assert data["ok"] is False and data["error"]


def _surrogate_bodies() -> list[str]:
    from web_support import ROOT

    record = (ROOT / "examples" / "records" / "classic-hint-vs-greedy.jsonl").read_text().splitlines()
    head = json.loads(record[0])
    head["players"] = ["\ud800", "greedy"]
    lines = [json.dumps(head), *record[1:]]
    return [
        '{"id": "\\ud800", "cmd": "analyze", "position": "' + FORCING + '"}',
        '{"id": 1, "cmd": "analyze", "\\ud800x": 1, "position": "' + FORCING + '"}',
        json.dumps({"id": 1, "cmd": "review", "record": lines, "samples": 2}),
    ]


@pytest.mark.parametrize("index", [0, 1, 2], ids=["id", "field-name", "record-players"])
@pytest.mark.parametrize("path", ["/api", "/api/stream"])
def test_a_lone_surrogate_is_escaped_not_an_encoding_error(base: str, index: int, path: str) -> None:
    reply = _post(base, _surrogate_bodies()[index], path)
    if path == "/api":
        status, data = reply.status_code, reply.json()
    else:
        assert reply.status_code == 200
        finals = [(kind, data) for kind, data in _events(reply.text) if kind in ("answer", "error")]
        assert len(finals) == 1
        status, data = finals[0][1]["status"], finals[0][1]
    assert status < 500, data
    assert reply.text.isascii()  # every character outside ASCII escaped, the surrogate too


@pytest.mark.parametrize("kind", [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_a_body_not_said_to_be_json_is_refused_with_415(base: str, kind: str | None) -> None:
    headers = {} if kind is None else {"Content-Type": kind}
    body = json.dumps({"id": 1, "cmd": "analyze", "position": FORCING})
    for path in ("/api", "/api/stream"):
        reply = httpx.post(base + path, content=body, headers=headers, timeout=30)
        assert reply.status_code == 415 and reply.json()["ok"] is False


def test_a_request_from_another_site_is_refused_with_403(base: str) -> None:
    request = {"id": 1, "cmd": "hint", "position": FORCING, "samples": 2}
    assert _post(base, request, Origin="http://evil.example").status_code == 403
    assert _post(base, request, "/api/stream", Origin="null").status_code == 403
    assert _post(base, request, **{"Sec-Fetch-Site": "cross-site"}).status_code == 403
    # The board's own page: its origin, or no Origin at all (curl, the tests).
    own = base  # http://127.0.0.1:PORT
    assert _post(base, request, Origin=own, **{"Sec-Fetch-Site": "same-origin"}).status_code == 200


@pytest.mark.parametrize(
    "header",
    ["127.0.0.1:{port}@evil.example", "[::1]evil.example", "::1", "evil.example", "127.0.0.1:{port}/x",
     "127.0.0.1 :{port}", "127.0.0.1:99999", ""],
)  # fmt: skip
def test_the_host_header_is_parsed_strictly(base: str, header: str) -> None:
    port = base.rsplit(":", 1)[1]
    host = header.format(port=port)
    reply = _post(base, {"id": 1, "cmd": "analyze", "position": FORCING}, Host=host) if host else None
    if reply is not None:
        assert reply.status_code == 400 and reply.json()["field"] == "host"
    assert host_name(host) is None or host_name(host) not in ("127.0.0.1", "localhost", "[::1]")


def test_host_names_with_and_without_a_port() -> None:
    assert host_name("127.0.0.1:8765") == "127.0.0.1"
    assert host_name("[::1]:8765") == "[::1]" and host_name("[::1]") == "[::1]"
    assert host_name("LocalHost") == "localhost"
    assert host_name("board.example:80") == "board.example"
    for bad in ("::1", "a b", "x:y", "127.0.0.1:", "[::1]x", "a@b", "127.0.0.1:0"):
        assert host_name(bad) is None, bad


def test_a_dead_idle_worker_is_replaced_before_it_is_used() -> None:
    with served(workers=1, queue=1, time_cap=60) as (url, app):
        assert _post(url, {"id": 0, "cmd": "hint", "position": FORCING, "samples": 1}).status_code == 200
        app.pool._all[0].process.kill()
        app.pool._all[0].process.join(timeout=10)
        for k in (1, 2):
            reply = _post(url, {"id": k, "cmd": "hint", "position": FORCING, "samples": 1})
            assert reply.status_code == 200 and reply.json()["ok"], reply.text


@pytest.mark.parametrize("path", ["/api", "/api/stream"])
def test_a_search_whose_worker_dies_answers_503_with_retry_after(path: str) -> None:
    with served(workers=1, queue=1, time_cap=60) as (url, app):
        assert _post(url, {"id": 0, "cmd": "hint", "position": FORCING, "samples": 1}).status_code == 200
        pid = app.pool._all[0].process.pid
        killer = threading.Timer(1.0, lambda: os.kill(pid, signal.SIGKILL))
        killer.start()
        reply = _post(url, LONG, path)
        killer.join()
        if path == "/api":
            assert reply.status_code == 503 and reply.headers["retry-after"]
            assert "ended" in reply.json()["error"] and reply.json()["id"] == "long"
        else:
            events = _events(reply.text)
            finals = [(kind, data) for kind, data in events if kind in ("answer", "error")]
            assert len(finals) == 1 and finals[0][0] == "error" and finals[0][1]["status"] == 503
            assert finals[0][1]["id"] == "long"  # the request's id, as every answer echoes it
        # The pool has a new worker: the next search is answered.
        assert _post(url, {"id": 1, "cmd": "hint", "position": FORCING, "samples": 1}).status_code == 200


def test_a_body_that_never_ends_gets_408(monkeypatch: pytest.MonkeyPatch) -> None:
    import web.app

    monkeypatch.setattr(web.app, "BODY_TIMEOUT", 1.0)
    with served(workers=1, queue=1, time_cap=60) as (url, _):
        port = int(url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            head = (
                f"POST /api HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                "Transfer-Encoding: chunked\r\n\r\n5\r\n{\"id\"\r\n"
            ).encode()
            sock.sendall(head)
            begin = time.monotonic()
            answer = sock.recv(4096).decode("latin-1")
            assert answer.startswith("HTTP/1.1 408") and time.monotonic() - begin < 20


def test_a_client_that_goes_away_is_one_log_line_not_a_traceback(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO), served(workers=1, queue=1, time_cap=60) as (url, app):
        port = int(url.rsplit(":", 1)[1])
        for path in ("/api", "/api/stream"):
            body = json.dumps(LONG).encode()
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            sock.sendall(
                f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n".encode() + body
            )
            deadline = time.monotonic() + 20
            while app.pool.pending < 1 and time.monotonic() < deadline:
                time.sleep(0.02)
            time.sleep(0.3)
            sock.close()
            # The search (minutes long) is stopped and its worker replaced: on a loaded machine
            # starting the new worker process can take tens of seconds.
            deadline = time.monotonic() + 90
            while app.pool.pending and time.monotonic() < deadline:
                time.sleep(0.05)
            assert app.pool.pending == 0
        # Half a body, then gone.
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        sock.sendall(
            f"POST /api HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            "Content-Length: 100\r\n\r\n{\"id\"".encode()
        )
        time.sleep(0.3)
        sock.close()
        time.sleep(0.5)
    tracebacks = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert tracebacks == []
    gone = [r for r in caplog.records if "went away" in r.getMessage() or "closed its stream" in r.getMessage()]
    assert gone and all("\n" not in r.getMessage() for r in gone)
    assert not any("Task was destroyed" in r.getMessage() for r in caplog.records)


def _serve(*args: str, core: str | None = None) -> tuple[subprocess.Popen[str], str]:
    from cli_run import CONQUIAN

    env = None if core is None else {**os.environ, "CONQUIAN_CORE": core}
    proc = subprocess.Popen(
        [*CONQUIAN, "serve", "--port", "0", "--workers", "2", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, env=env,
    )  # fmt: skip
    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(proc.stdout.readline() if proc.stdout else ""))
    reader.start()
    reader.join(timeout=90)
    assert line and line[0].startswith("conquian board: http://"), (line, proc.poll())
    return proc, line[0].split()[2]


def test_ctrl_c_at_the_terminal_stops_the_server_and_its_workers_with_one_line() -> None:
    proc, url = _serve()
    try:
        with urllib.request.urlopen(url, timeout=30) as page:
            assert page.status == 200
        # Ctrl-C reaches the whole process group: the server and its search processes.
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        assert "Traceback" not in err and "KeyboardInterrupt" not in err
        assert len(err.strip().splitlines()) <= 1, err
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def _children(pid: int) -> dict[int, str]:
    """The processes whose parent is ``pid`` (from /proc): {pid: command line}."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found[int(entry.name)] = command
    return found


def _running(pid: int, command: str) -> bool:
    """True while process ``pid`` (with this command line) runs: not gone, not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        same = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace") == command
    except OSError:
        return False
    return same and stat.rsplit(")", 1)[1].split()[0] != "Z"


def _ended(children: dict[int, str], within: float) -> list[int]:
    """The processes of ``children`` still running after waiting up to ``within`` seconds for
    them to end (each one left is killed, so that a failing test leaves none behind)."""
    deadline = time.monotonic() + within
    while any(_running(pid, cmd) for pid, cmd in children.items()) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid, cmd in children.items() if _running(pid, cmd)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return left


def _read_stream(url: str, body: dict[str, Any], events: list[tuple[str, dict[str, Any]]], first: threading.Event) -> None:
    """POST ``body`` to /api/stream, appending each event to ``events``; ``first`` is set at the first."""
    heads = {"Content-Type": "application/json"}
    with httpx.stream("POST", url + "api/stream", content=json.dumps(body), headers=heads, timeout=600) as reply:
        block: list[str] = []
        for line in reply.iter_lines():
            if line:
                block.append(line)
                continue
            fields = dict(part.split(": ", 1) for part in block if ": " in part)
            block = []
            if "event" in fields:
                events.append((fields["event"], json.loads(fields["data"])))
                first.set()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_one_signal_stops_the_searches_and_the_server_at_once(sig: int) -> None:
    """One Ctrl-C (at the terminal: the whole process group) or SIGTERM (the server alone) while
    a stream and a search run, two searches wait and a body is still arriving: each client gets
    a JSON 503 or a final 503 event, the server exits (0) without waiting for the searches (up
    to the 900 s cap each), no traceback, no process of its left.  Before, it waited for every
    search in turn."""
    proc, url = _serve("--time-cap", "900")
    clients: list[threading.Thread] = []
    try:
        events: list[tuple[str, dict[str, Any]]] = []
        first = threading.Event()
        stream = {**LONG, "id": "stream"}
        clients.append(threading.Thread(target=_read_stream, args=(url, stream, events, first), daemon=True))
        clients[0].start()
        assert first.wait(180), "the stream's search did not start"
        replies: dict[str, httpx.Response] = {}

        def ask(name: str) -> None:
            replies[name] = _post(url.rstrip("/"), {**LONG, "id": name})

        for name in ("running", "queued-1", "queued-2"):
            clients.append(threading.Thread(target=ask, args=(name,), daemon=True))
            clients[-1].start()
        # And a request whose body is still arriving (the server would wait 10 s for the rest).
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        trickle = socket.create_connection(("127.0.0.1", port), timeout=30)
        trickle.sendall(
            f"POST /api HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            'Content-Length: 100\r\n\r\n{"id"'.encode()
        )
        time.sleep(2)  # the requests have reached the server
        children = _children(proc.pid)
        assert len(children) >= 4, children  # two search and two quick-request processes at least
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)
        else:
            os.kill(proc.pid, sig)
        begin = time.monotonic()
        _, err = proc.communicate(timeout=30)
        print(f"stopped {time.monotonic() - begin:.2f} s after the signal")
        assert proc.returncode == 0, err
        assert "Traceback" not in err and "Error" not in err, err
        assert err.strip().splitlines() == ["conquian board: stopped"], err
        for client in clients:
            client.join(timeout=30)
        assert sorted(replies) == ["queued-1", "queued-2", "running"]
        for name, reply in replies.items():
            assert reply.status_code == 503 and reply.headers["content-type"] == "application/json", reply.text
            data = reply.json()
            assert data["id"] == name and data["ok"] is False and "stopping" in data["error"], data
        finals = [(kind, data) for kind, data in events if kind in ("answer", "error")]
        assert len(finals) == 1 and events[-1] == finals[0], events[-3:]
        kind, data = finals[0]
        assert kind == "error" and data["status"] == 503 and data["id"] == "stream", data
        head, _, body = trickle.recv(65536).decode("latin-1").partition("\r\n\r\n")
        assert head.startswith("HTTP/1.1 503") and "application/json" in head, head
        assert "stopping" in json.loads(body)["error"], body
        trickle.close()
        assert _ended(children, within=30) == []
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate(timeout=60)


BIG = (
    "classic french 0 0 3S,4S,5S,6S,7S,3H,4H,5H,6H,7H,3D,4D,5D,6D,7D,3C,4C,6C,7C/19 "
    "5C:turned:1:1 - 1 rules:hand_size=19"
)
"""Custom rules the rules allow (two players, hand_size 19, R8): 88,036 legal takes; a sampled
hint of it grew without bound (18 GB in 97 s with no ceiling) and is now refused before any deal."""


def _late_view() -> dict[str, Any]:
    """A classic view whose endgame's equilibrium, asked for with a budget of 10**9 positions,
    is built by the native core until it cannot allocate."""
    from analyzer.bots.deals import deal_position
    from analyzer.core.dealing import view
    from analyzer.core.plain import dump_position

    state, _ = deal_position("classic", seed=9, after=24)
    data: dict[str, Any] = dump_position(view(state, state.to_act))
    return data


@pytest.mark.parametrize("core", ["python", "native"])
def test_a_search_past_the_memory_ceiling_gets_503_naming_it_and_the_next_is_answered(core: str) -> None:
    """--memory-cap 512: a search that needs more ends with a JSON 503 naming the ceiling (no
    Retry-After: it would fail again), its process is replaced and the next search is answered;
    in Python (MemoryError) and in the native core (an allocation failure aborts the process)."""
    from analyzer.core import native

    if core == "native" and not native.native_available():
        pytest.skip("the native core is not built")
    proc, url = _serve("--workers", "1", "--memory-cap", "512", core=core)
    base = url.rstrip("/")
    small = {"cmd": "hint", "position": FORCING, "samples": 1}
    try:
        # The sampled hint that grew without bound is refused before any deal (too many moves).
        reply = _post(base, {"id": "big", "cmd": "hint", "position": BIG, "time_limit": 60})
        assert reply.status_code == 400 and "88,036 legal moves" in reply.text, reply.text
        view = {"id": "exact", "cmd": "solve", "position": _late_view(), "exact": True, "budget": 10**9}
        events = _events(_post(base, view, "/api/stream").text)
        kind, data = events[-1]
        assert kind == "error" and data["status"] == 503 and "ceiling of 512 MB" in data["error"], events[-1]
        assert "--memory-cap" in data["error"], data
        reply = _post(base, {"id": 2, **small})
        assert reply.status_code == 200 and reply.json()["ok"], reply.text
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0 and "Traceback" not in err and "memory allocation" not in err, err
        assert "a search process reached its memory ceiling of 512 MB" in err
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate(timeout=60)


def test_serve_refuses_a_memory_ceiling_too_small_for_the_engine() -> None:
    from cli_run import CONQUIAN

    done = subprocess.run(
        [*CONQUIAN, "serve", "--port", "0", "--memory-cap", "100"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2 and "--memory-cap" in done.stderr and "512" in done.stderr, done.stderr


def test_the_serve_commands_memory_ceiling_is_the_apps_default() -> None:
    import inspect

    from cli.serve import serve
    from web.app import MEMORY_CAP

    assert inspect.signature(serve).parameters["memory_cap"].default == MEMORY_CAP


def test_a_search_process_does_not_outlive_a_killed_server() -> None:
    """The server killed outright (SIGKILL: no clean-up of its own) in the middle of a search
    that sends no progress: its process ends with it (PR_SET_PDEATHSIG), not minutes later."""
    proc, url = _serve("--workers", "1")
    base = url.rstrip("/")
    try:
        assert _post(base, {"id": 0, "cmd": "hint", "position": FORCING, "samples": 1}).status_code == 200
        dealt = _post(base, {"id": 1, "cmd": "deal", "seed": 1}).json()["result"]["position"]
        slow = {"id": 2, "cmd": "play", "position": dealt, "seat": 0, "bots": ["hint:samples=100000:time_limit=1000"]}

        def ask() -> None:
            with contextlib.suppress(httpx.HTTPError):  # the server is killed before it answers
                _post(base, slow)

        threading.Thread(target=ask, daemon=True).start()
        time.sleep(3)
        children = _children(proc.pid)
        assert len(children) >= 3, children
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
        # A process left would also hold the server's stdout open: checked before reading it.
        assert _ended(children, within=30) == []
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate(timeout=60)


def test_a_loopback_address_is_served_without_allow_remote_and_answers_its_own_url() -> None:
    proc, url = _serve("--host", "127.0.0.2")
    try:
        assert url.startswith("http://127.0.0.2:")
        request = urllib.request.Request(
            url + "api", data=json.dumps({"id": 1, "cmd": "analyze", "position": FORCING}).encode(),
            headers={"Content-Type": "application/json"}, method="POST",
        )  # fmt: skip
        with urllib.request.urlopen(request, timeout=30) as reply:
            assert reply.status == 200 and json.loads(reply.read())["ok"]
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.communicate(timeout=60)


def test_serve_on_a_port_in_use_says_so_in_one_line_of_its_own() -> None:
    """uvicorn's own "ERROR: [Errno 98] ..." is not printed beside the command's line."""
    from cli_run import CONQUIAN, one_error_line

    # uvicorn's bind too (the port taken after the command's own check): still one line.
    late = [
        CONQUIAN[0], "-c",
        "import sys, cli.serve; cli.serve._probe = lambda host, port: None; "
        "from cli.main import main; sys.exit(main())",
    ]  # fmt: skip
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        for command in (CONQUIAN, late):
            done = subprocess.run(
                [*command, "serve", "--port", port, "--workers", "1"],
                capture_output=True, text=True, timeout=120,
            )  # fmt: skip
            assert done.returncode == 1 and one_error_line(done.stderr), done.stderr
            assert f"could not listen on 127.0.0.1:{port}: the port is in use" in done.stderr
            assert "ERROR" not in done.stderr and "Errno" not in done.stderr and done.stdout == ""


@pytest.mark.parametrize(
    ("host", "code", "needle"),
    [
        ("bad host", 2, "--host: not an IP address or a host name (got 'bad host')"),
        ("127.0.0.1:8765", 2, "not an IP address or a host name"),
        ("192.0.2.1", 1, "could not listen on 192.0.2.1:0: not an address of this machine"),
        ("nosuchhost.invalid", 1, "no such host name"),
    ],
)
def test_serve_checks_its_host_before_it_warns(host: str, code: int, needle: str) -> None:
    """A --host that cannot be served is one line, without the remote-access warning first."""
    from cli_run import one_error_line, run

    status, out, err = run("serve", "--host", host, "--allow-remote", "--port", "0")
    assert status == code and one_error_line(err) and needle in err, err
    assert "warning" not in err and out == ""


def test_serve_takes_the_boards_variant_and_player_count() -> None:
    """conquian serve --variant megajogos --players 4: the page it serves starts there."""
    proc, url = _serve("--variant", "megajogos", "--players", "4")
    try:
        with urllib.request.urlopen(url, timeout=30) as reply:
            page = reply.read().decode()
        assert '<meta name="conquian-variant" content="megajogos">' in page
        assert '<meta name="conquian-players" content="4">' in page
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.communicate(timeout=60)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--players", "3"], "--players: classic is played by 2 players, not 3 (R8)"),
        (["--variant", "nope"], "unknown variant: 'nope' (known: classic, cooncan1913, hoyle1897, megajogos, mexican, mexican_9_10)"),
        (["--variant", "mexican", "--players", "4"], "--players: mexican is played by 2 or 3 players, not 4 (R8)"),
        (["--variant", "megajogos", "--players", "5"], "--players"),
    ],
)
def test_serve_refuses_a_variant_or_player_count_as_deal_does(args: list[str], needle: str) -> None:
    """A usage error (exit 2), one line, before anything starts; 'conquian deal' says the same."""
    from cli_run import CONQUIAN, one_error_line

    done = subprocess.run(
        [*CONQUIAN, "serve", "--port", "0", "--workers", "1", *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2 and one_error_line(done.stderr) and needle in done.stderr, done.stderr
    assert done.stdout == ""
    dealt = subprocess.run([*CONQUIAN, "deal", *args], capture_output=True, text=True, timeout=120)
    assert dealt.returncode == 2 and dealt.stderr.split(" (see ")[0] == done.stderr.split(" (see ")[0]
