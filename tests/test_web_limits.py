"""The board's server under requests that cost much (docs/web.md, "Searches, quick requests and
limits"): a position with custom rules the rules allow (two players, ``hand_size`` 19, R8, R15)
has tens of thousands of legal moves; its ``moves`` answer lists the first ones and the total,
its static hint is refused before any ranking, a flood of such requests is bounded (503 with
Retry-After beyond the queue) while the cheap requests and the page stay answered, a quick
request past its cap is stopped (504), and connections that send no whole head are closed."""

from __future__ import annotations

import json
import select
import socket
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from web_support import FORCING, need_web, served

need_web()

from analyzer.formats.notation import parse_notation  # noqa: E402
from analyzer.service.requests import answer  # noqa: E402
from web.app import request_kind  # noqa: E402
from web.quick import MAX_MOVES, MAX_RANKED  # noqa: E402

BIG = (
    "classic french 0 0 3S,4S,5S,6S,7S,3H,4H,5H,6H,7H,3D,4D,5D,6D,7D,3C,4C,6C,7C/19 "
    "5C:turned:1:1 - 1 rules:hand_size=19"
)
"""Player 0 offered 5C with 19 cards of sets and runs (hand_size 19, two players: R8 leaves one
card in the stock): his takes (R13) number tens of thousands."""

MIDDLE = (
    "classic french 0 0 AH,AD,2D,3H,4H,4D,4C,5S,6S,6H,6C,7D,7C,JD,JC,QH,QD,QC,KC/"
    "2H,6D,7H,JH,KH,KD[AC,2C,3C][AS,2S,3S,4S][5H,5D,5C][7S,JS,QS] 3D:paid:1:- - KS "
    "rules:hand_size=19"
)
"""A dealt hand_size 19 position (``deal --rules hand_size=19 --seed 1 --after 1``) with between
:data:`MAX_MOVES` and :data:`MAX_RANKED` legal moves."""


def legal_texts(notation: str) -> list[str]:
    state = parse_notation(notation)
    return [m.text(state.rules.labels) for m in state.legal_moves()]


def ask(base: str, request: dict[str, Any] | bytes, timeout: float = 300) -> tuple[int, Any, dict[str, str]]:
    """(status, JSON answer, headers) of one POST /api."""
    body = request if isinstance(request, bytes) else json.dumps(request).encode()
    req = urllib.request.Request(base + "/api", data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            status, text, headers = response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        status, text, headers = error.code, error.read(), error.headers
    return status, json.loads(text), {k.lower(): v for k, v in headers.items()}


@pytest.fixture(scope="module")
def base() -> Any:
    with served(workers=1, queue=1, time_cap=60) as (url, app):
        yield url, app


def test_the_positions_have_as_many_moves_as_the_tests_need() -> None:
    assert len(legal_texts(BIG)) > MAX_RANKED
    assert MAX_MOVES < len(legal_texts(MIDDLE)) <= MAX_RANKED


def test_moves_of_a_huge_position_lists_the_first_ones_and_the_total(base: Any) -> None:
    url, _ = base
    status, data, _ = ask(url, {"id": "big", "cmd": "moves", "position": BIG})
    assert status == 200 and data["ok"] and data["id"] == "big", data
    result = data["result"]
    every = legal_texts(BIG)
    assert result["truncated"] is True and result["total"] == len(every)
    assert [m["text"] for m in result["moves"]] == every[:MAX_MOVES]  # the engine's order
    assert result["to_act"] == 0 and result["phase"] == "offer"
    assert parse_notation(result["notation"]) == parse_notation(BIG)
    # Each listed move's position after it, as the engine lists it.
    first = result["moves"][0]
    state = parse_notation(BIG)
    assert parse_notation(first["after"]) == state.apply(state.legal_moves()[0])


def test_a_short_move_list_is_the_engines_answer_untouched(base: Any) -> None:
    url, _ = base
    request = {"id": 1, "cmd": "moves", "position": FORCING}
    status, data, _ = ask(url, request)
    assert status == 200 and data == json.loads(json.dumps(answer(json.dumps(request))[0]))
    assert "truncated" not in data["result"] and "total" not in data["result"]


def test_a_static_hint_of_a_huge_position_is_refused_before_any_ranking(base: Any) -> None:
    url, _ = base
    status, data, _ = ask(url, {"id": "s", "cmd": "hint", "position": BIG, "static": True})
    assert status == 400 and data["ok"] is False and data["field"] == "position" and data["id"] == "s"
    assert f"{len(legal_texts(BIG)):,} legal moves" in data["error"]
    assert f"at most {MAX_RANKED:,}" in data["error"]


def test_a_static_hint_of_many_moves_is_cut_with_the_total(base: Any) -> None:
    url, _ = base
    status, data, _ = ask(url, {"id": "m", "cmd": "hint", "position": MIDDLE, "static": True})
    assert status == 200 and data["ok"], data
    result = data["result"]
    assert result["truncated"] is True and result["total"] == len(legal_texts(MIDDLE))
    assert len(result["moves"]) == MAX_MOVES
    assert {m["move"] for m in result["moves"]} <= set(legal_texts(MIDDLE))


def test_the_cut_answer_is_built_as_the_engine_builds_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the cap at one move, FORCING's answer is the engine's with its first move only."""
    import web.quick

    monkeypatch.setattr(web.quick, "MAX_MOVES", 1)
    line = json.dumps({"id": 7, "cmd": "moves", "position": FORCING, "labels": "spanish"})
    cut = web.quick.quick_answer(line)
    whole, _ = answer(line)
    assert cut == {
        **whole,
        "result": {**whole["result"], "moves": whole["result"]["moves"][:1], "truncated": True, "total": 2},
    }


@pytest.mark.parametrize(
    "extra",
    [{"labels": "klingon"}, {"top": 3}, {"id": None}, {"id": True}],
    ids=["labels", "unknown-field", "null-id", "bool-id"],
)
def test_a_bad_request_about_a_huge_position_gets_the_engines_own_error(extra: dict[str, Any]) -> None:
    from web.quick import quick_answer

    line = json.dumps({"id": 1, "cmd": "moves", "position": BIG, **extra})
    reply = quick_answer(line)
    assert reply == answer(line)[0] and reply["ok"] is False


def test_where_each_request_is_answered() -> None:
    assert request_kind({"cmd": "variants"}) == "cheap" and request_kind({"cmd": "examples"}) == "cheap"
    assert request_kind({"action": "query_version"}) == "cheap" and request_kind(None) == "cheap"
    assert request_kind({"cmd": "no such"}) == "cheap" and request_kind({"cmd": 3}) == "cheap"
    for cmd in ("moves", "analyze", "notation", "melds", "deal", "record", "puzzle", "standing"):
        assert request_kind({"cmd": cmd}) == "quick", cmd
    assert request_kind({"cmd": "hint", "static": True}) == "quick"
    assert request_kind({"cmd": "play", "bots": "greedy"}) == "quick"
    assert request_kind({"cmd": "hint"}) == "search" and request_kind({"cmd": "review"}) == "search"


FLOOD = 20


def test_a_flood_of_heavy_quick_requests_is_bounded_and_cheap_ones_stay_answered(base: Any) -> None:
    url, app = base
    results: list[tuple[int, Any, dict[str, str]]] = []

    def heavy(k: int) -> None:
        results.append(ask(url, {"id": f"h{k}", "cmd": "moves", "position": BIG}))

    threads = [threading.Thread(target=heavy, args=(k,)) for k in range(FLOOD)]
    for thread in threads:
        thread.start()
    time.sleep(0.3)
    variants = ask(url, {"id": "v", "cmd": "variants"})
    with urllib.request.urlopen(url + "/static/api.js", timeout=60) as static:
        static_status = static.status
    in_flight = sum(thread.is_alive() for thread in threads)
    for thread in threads:
        thread.join(timeout=600)
    status, data, _ = variants
    assert status == 200 and data["ok"] and data["id"] == "v" and static_status == 200
    assert in_flight > 0  # answered while heavy requests were still running or waiting
    statuses = sorted(r[0] for r in results)
    assert len(statuses) == FLOOD and set(statuses) <= {200, 503}, statuses
    assert 503 in statuses and statuses.count(200) >= 1
    assert statuses.count(200) <= FLOOD - 1
    for status, data, headers in results:
        if status == 503:
            assert headers.get("retry-after") == "2" and data["ok"] is False
            assert "busy" in data["error"] and data["id"].startswith("h")
        else:
            assert data["result"]["truncated"] is True
    assert app.quick_pool.pending == 0  # nothing left running once every client has its answer


def test_a_quick_request_past_its_cap_is_stopped_with_504() -> None:
    with served(workers=1, queue=1, time_cap=60, quick_workers=1, quick_cap=0.1) as (url, app):
        pid = app.quick_pool._all[0].process.pid
        status, data, headers = ask(url, {"id": "slow", "cmd": "moves", "position": BIG})
        assert status == 504 and data["ok"] is False and data["id"] == "slow", data
        assert "cap of 0.1 s" in data["error"] and data["field"] is None
        # Its process was stopped and another took its place: the next request is answered.
        status, data, _ = ask(url, {"id": 2, "cmd": "moves", "position": FORCING})
        assert status == 200 and data["ok"]
        assert app.quick_pool._all[0].process.pid != pid


def _read_all(sock: socket.socket, seconds: float) -> bytes:
    sock.settimeout(seconds)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except TimeoutError:
        data += b"<still open>"
    return data


def test_a_connection_that_sends_nothing_is_closed(base: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import web.server

    monkeypatch.setattr(web.server, "HEAD_TIMEOUT", 1.0)
    url, _ = base
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        assert _read_all(sock, 30) == b""  # closed by the server, nothing said


def test_a_head_sent_a_byte_at_a_time_is_cut_off_with_408(base: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import web.server

    monkeypatch.setattr(web.server, "HEAD_TIMEOUT", 1.0)
    url, _ = base
    port = int(url.rsplit(":", 1)[1])
    head = f"POST /api HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: {'a' * 200}\r\n\r\n".encode()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        answered = b""
        for byte in head[:-4]:  # never the end of the head
            readable, _, _ = select.select([sock], [], [], 0.1)
            if readable:
                answered = _read_all(sock, 30)
                break
            sock.sendall(bytes([byte]))
        assert answered.startswith(b"HTTP/1.1 408"), answered[:200]
        assert b"text/plain" in answered and answered.endswith(b"within 1 s")


def test_a_head_over_the_limit_is_refused_even_when_it_comes_whole(base: Any) -> None:
    from web.server import MAX_HEAD

    url, _ = base
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Big: {'a' * MAX_HEAD}\r\n\r\n".encode())
        reply = _read_all(sock, 10)
    assert reply.startswith(b"HTTP/1.1 431"), reply[:200]
    assert b'"ok":false' in reply.replace(b" ", b"")


@pytest.mark.parametrize(
    "raw",
    [
        "GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-A: a\x00b\r\n\r\n",
        "POST /api HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\nzz\r\n{{}}\r\n0\r\n\r\n",
        "POST /api HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        "Content-Length: -1\r\n\r\n{{}}",
    ],
    ids=["nul-in-header", "bad-chunk-size", "negative-length"],
)
def test_malformed_http_is_answered_by_uvicorn_in_plain_text(base: Any, raw: str) -> None:
    """As docs/web.md says: uvicorn answers these itself, before the app (not JSON)."""
    url, _ = base
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(raw.format(port=port).encode("latin-1"))
        reply = _read_all(sock, 10)
    assert reply.startswith(b"HTTP/1.1 400") and b"text/plain" in reply, reply[:200]
    assert b"Invalid HTTP request received." in reply
