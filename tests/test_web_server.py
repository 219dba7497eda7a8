"""The board's server under a client's mistakes and a machine's accidents: every request answered
as JSON (a 4xx for the client's doing, never a 500 or a logged traceback), JSON bodies only and
from the board's own origin, the Host header parsed strictly, dead search processes noticed and
replaced, every stream ended by exactly one final event, slow bodies timed out, Ctrl-C quiet."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import subprocess
import threading
import time
import urllib.request
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


def _serve(*args: str) -> tuple[subprocess.Popen[str], str]:
    from cli_run import CONQUIAN

    proc = subprocess.Popen(
        [*CONQUIAN, "serve", "--port", "0", "--workers", "2", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
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
