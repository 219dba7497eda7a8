"""The web board's HTTP API (docs/web.md) with Starlette's test client: every engine command
answered as ``conquian engine`` answers it, every kind of bad request refused with a 4xx and a
JSON error naming the field, searches in the bounded pool (503 when full, 504 past the cap)."""

from __future__ import annotations

import filecmp
import itertools
import json
import re
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from web_support import FORCING, ROOT, example, need_web

need_web()

with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 and warns with httpx; both work
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cli.engine import answer  # noqa: E402
from web.app import CSP, LOOPBACK, MAX_BODY, create_app, is_search  # noqa: E402

STATIC = ROOT / "web" / "static"
MISSED = (ROOT / "examples" / "records" / "classic-missed-win.jsonl").read_text()


@pytest.fixture(scope="module")
def client() -> Any:
    app = create_app(hosts=["testserver", *LOOPBACK], workers=2, queue=2, time_cap=60)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def post(client: Any, request: dict[str, Any] | str | bytes, path: str = "/api") -> Any:
    body = request if isinstance(request, (str, bytes)) else json.dumps(request)
    return client.post(path, content=body, headers={"Content-Type": "application/json"})


# ------------------------------------------------------------------ the page
def test_page_is_served_with_a_csp_without_inline_script(client: Any) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    csp = page.headers["content-security-policy"]
    assert csp == CSP and "script-src 'self'" in csp and "unsafe" not in csp
    assert page.headers["x-content-type-options"] == "nosniff"
    html = page.text
    scripts = re.findall(r"<script\b[^>]*>", html)
    assert scripts and all("src=" in tag for tag in scripts)  # no inline script
    assert not re.search(r"\son[a-z]+\s*=", html)  # no inline event handler
    js = client.get("/static/main.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]


def test_static_files_need_no_network() -> None:
    names = sorted(p.name for p in STATIC.iterdir())
    assert {"index.html", "main.js", "api.js", "board.js", "cards.js", "style.css"} <= set(names)
    for path in STATIC.iterdir():
        text = path.read_text(encoding="utf-8")
        urls = set(re.findall(r"https?://[^\s\"'`)]+", text)) - {"http://www.w3.org/2000/svg"}
        assert not urls, f"{path.name} reaches out to {urls}"
        for target in re.findall(r"""\bfrom\s+["']([^"']+)["']""", text):
            assert target.startswith("./"), f"{path.name} imports {target}"


def test_the_page_modules_import_no_circle_and_no_other_tab() -> None:
    """docs/architecture.md: the tabs import shared.js and analysis.js, never another tab; only
    main.js imports the tabs; every import names a module that is there."""
    import networkx as nx

    tabs = {"analysis.js", "setup-tab.js", "play.js", "review.js", "puzzles.js"}
    graph = nx.DiGraph()
    for path in STATIC.glob("*.js"):
        graph.add_node(path.name)
        for target in re.findall(r"""\bfrom\s+["']\./([^"']+)["']""", path.read_text(encoding="utf-8")):
            assert (STATIC / target).is_file(), f"{path.name} imports {target}: no such module"
            graph.add_edge(path.name, target)
    assert nx.is_directed_acyclic_graph(graph), list(nx.simple_cycles(graph))
    assert tabs <= set(graph) and set(graph.successors("main.js")) >= tabs
    for name in graph:
        if name != "main.js":
            assert set(graph.successors(name)) & tabs <= {"analysis.js"} - {name}, name


def test_the_page_writes_no_variant_player_count_or_hand_size_of_its_own() -> None:
    """The variants, their player counts, hand sizes, exchanges and stake rules come from the
    server's variants answer (docs/web.md): no preset but the position format's default
    (classic, for a position without a variant) is named in the page's code."""
    from analyzer.core.rules import PRESETS

    html = (STATIC / "index.html").read_text(encoding="utf-8")
    for name in PRESETS:
        assert not re.search(rf"<option[^>]*>\s*{name}\b", html), name
        assert f'value="{name}"' not in html, name
    for path in STATIC.glob("*.js"):
        code = "\n".join(line.split("//", 1)[0] for line in path.read_text(encoding="utf-8").splitlines())
        for name in PRESETS:
            if name != "classic":
                assert not re.search(rf"[\"'`]{name}[\"'`]", code), (path.name, name)
        assert not re.search(r"\b(HAND_SIZE|PLAYERS)\s*=", code), path.name
        assert not re.search(r"stake\s*\*|\*\s*stake|scores\[[^\]]*\]\s*[-+]=", code), path.name  # no stake arithmetic


def test_the_page_carries_the_boards_default_variant_and_player_count() -> None:
    """conquian serve --variant V --players N reaches the page in its meta tags; not given,
    they are empty; a variant or a count the variant does not allow is refused (R8)."""
    from web.app import page

    def metas(text: str) -> dict[str, str]:
        return dict(re.findall(r'<meta name="conquian-(variant|players)" content="([^"]*)">', text))

    app = create_app(hosts=["testserver"], workers=1, queue=1, variant="MegaJogos", players=4)
    with TestClient(app) as c:
        got = c.get("/")
        assert got.status_code == 200 and metas(got.text) == {"variant": "megajogos", "players": "4"}
        head = c.head("/")
        assert head.status_code == 200 and head.content == b""
        assert head.headers["content-length"] == got.headers["content-length"]
    assert metas(page()) == {"variant": "", "players": ""}
    assert metas(page("mexican")) == {"variant": "mexican", "players": ""}
    for variant, players, text in [("nope", None, "unknown variant"), ("classic", 3, "not 3 (R8)"),
                                   (None, 4, "classic is played by 2"), ("mexican", 4, "2 or 3")]:  # fmt: skip
        with pytest.raises(ValueError, match=re.escape(text)):
            create_app(variant=variant, players=players)


def test_bundled_examples_are_the_repository_examples() -> None:
    bundled = ROOT / "cli" / "data" / "examples"
    for kind in ("positions", "records", "puzzles"):
        ours = sorted(p.name for p in (bundled / kind).iterdir())
        theirs = sorted(p.name for p in (ROOT / "examples" / kind).iterdir() if p.suffix in (".json", ".jsonl"))
        assert ours == theirs, kind
        for name in ours:
            assert filecmp.cmp(bundled / kind / name, ROOT / "examples" / kind / name, shallow=False), name


# ------------------------------------------------------------- every command
QUICK = [
    {"id": 1, "cmd": "analyze", "position": FORCING},
    {"id": "m", "cmd": "melds", "cards": "5H 6H 7H JH JS JD KC", "must": "5H 6H 7H JH"},
    {"id": 3, "cmd": "hint", "position": FORCING, "static": True},
    {"id": 4, "cmd": "notation", "position": example("forcing")},
    {"id": 5, "cmd": "moves", "position": FORCING},
    {"id": 6, "cmd": "deal", "variant": "megajogos", "seed": 4, "after": 5, "seat": 2},
    {"id": 7, "cmd": "examples"},
    {"id": 8, "cmd": "puzzle", "name": "classic-win-1"},
    {"id": 9, "cmd": "play", "position": FORCING, "move": "force 0"},
    {"id": 10, "action": "query_version"},
    {"id": 11, "cmd": "variants"},
    {"id": 12, "cmd": "standing", "players": 4, "dealer": 3, "stakes": "tableau", "winners": [None, 2, None]},
    {"id": 13, "cmd": "deal", "variant": "megajogos", "players": 4, "seed": 2, "seat": 0, "dealer": 1},
]


@pytest.mark.parametrize("request_", QUICK, ids=lambda r: r.get("cmd") or r.get("action"))
def test_quick_commands_answer_as_the_engine(client: Any, request_: dict[str, Any]) -> None:
    line = json.dumps(request_)
    response = post(client, line)
    assert response.status_code == 200, response.text
    assert response.json() == json.loads(json.dumps(answer(line)[0]))
    assert response.json()["ok"] is True and response.json()["id"] == request_["id"]


def test_moves_list_every_legal_move_with_its_parts(client: Any) -> None:
    result = post(client, {"id": 1, "cmd": "moves", "position": FORCING}).json()["result"]
    assert result["to_act"] == 1 and result["phase"] == "offer"
    assert [m["text"] for m in result["moves"]] == ["force 0", "pass"]
    force = result["moves"][0]
    assert force["kind"] == "force" and force["player"] == 0
    after = post(client, {"id": 2, "cmd": "analyze", "position": force["after"]}).json()
    assert after["result"]["phase"] == "forced"  # R14: player 0 must lay 5C in and pay
    laid = post(client, {"id": 3, "cmd": "moves", "position": force["after"]}).json()["result"]
    assert {m["kind"] for m in laid["moves"]} == {"lay"}
    assert {m["pay"] for m in laid["moves"]} == {"KS", "KH"}


def test_search_commands(client: Any) -> None:
    hint = post(client, {"id": 1, "cmd": "hint", "position": FORCING, "samples": 2, "seed": 3})
    assert hint.status_code == 200
    assert {m["move"] for m in hint.json()["result"]["moves"]} == {"force 0", "pass"}
    assert hint.json()["result"]["samples"] == 2
    out = example("example6-going-out")
    best = post(client, {"id": 2, "cmd": "hint", "position": out, "samples": 2}).json()
    assert best["result"]["moves"][0]["move"].endswith(" out")  # R15
    why = post(client, {"id": 3, "cmd": "why", "position": FORCING, "move": "take [5C 6C 7C] pay 2H"})
    assert why.status_code == 200 and why.json()["result"]["legal"] is False
    puzzle = json.loads((ROOT / "examples" / "puzzles" / "classic-win-1.json").read_text())
    solved = post(client, {"id": 4, "cmd": "solve", "position": puzzle["position"], "time_limit": 30})
    assert solved.status_code == 200 and solved.json()["result"]["values"][0] == 1.0
    review = post(client, {"id": 5, "cmd": "review", "record": MISSED, "samples": 4})
    assert review.status_code == 200, review.text
    result = review.json()["result"]
    marked = {m["ply"]: m for m in result["moves"]}
    assert marked[7]["label"] == "blunder" and marked[7]["move"] == "pass"
    assert marked[7]["best"].startswith("take") and marked[7]["best"].endswith(" out")
    assert len(result["plies"]) == 13 and result["plies"][6]["move"] == "pass"


def test_play_a_deal_against_greedy_to_its_end_and_record_it(client: Any) -> None:
    dealt = post(client, {"id": 0, "cmd": "deal", "seed": 1, "seat": 0}).json()["result"]
    assert dealt["position"]["players"][1]["hand"] and isinstance(dealt["view_position"]["players"][1]["hand"], int)
    start, position, history = dealt["notation"], dealt["notation"], []
    request: dict[str, Any] = {"id": 1, "cmd": "play", "position": position, "seat": 0, "bots": "greedy"}
    for turn in range(200):
        reply = post(client, request)
        assert reply.status_code == 200, reply.text
        result = reply.json()["result"]
        history += [p["move"] for p in result["played"]]
        if result["over"]:
            break
        assert result["to_act"] == 0 and len(result["moves"]) >= 2  # single moves are played
        request = {**request, "id": turn + 2, "position": result["notation"], "move": result["moves"][0]["text"]}
    else:
        pytest.fail("the deal did not end in 200 requests")
    record = post(client, {"id": "r", "cmd": "record", "position": start, "moves": history,
                           "players": ["human", "greedy"]})  # fmt: skip
    lines = record.json()["result"]["record"].splitlines()
    assert json.loads(lines[-1])["result"]["winner"] == result["winner"]
    assert len(lines) == len(history) + 2
    # Its plies: each move with the positions before and after it, one after the other.
    plies = record.json()["result"]["plies"]
    assert [p["move"] for p in plies] == history and plies[0]["before"] == start
    assert all(a["after"] == b["before"] for a, b in itertools.pairwise(plies))
    assert plies[-1]["after"] == record.json()["result"]["notation"]


def test_puzzle_checks_a_move_and_hides_the_answer(client: Any) -> None:
    name = "classic-best-pay-1"
    shown = post(client, {"id": 1, "cmd": "puzzle", "name": name}).json()["result"]
    assert "answer" not in shown and shown["kind"] == "best_pay"
    takes = [m["text"] for m in shown["moves"] if m["kind"] == "take"]
    good = next(t for t in takes if t.endswith("pay 4S"))
    bad = next(t for t in takes if not t.endswith(("pay 4S", "pay 6C")))
    assert post(client, {"id": 2, "cmd": "puzzle", "name": name, "move": good}).json()["result"]["check"]["correct"] is True
    checked = post(client, {"id": 3, "cmd": "puzzle", "name": name, "move": bad}).json()["result"]
    assert checked["check"]["correct"] is False and "answer" not in checked
    revealed = post(client, {"id": 4, "cmd": "puzzle", "name": name, "reveal": True}).json()["result"]
    assert revealed["answer"] == {"pays": ["4S", "6C"]}


# ------------------------------------------------------------ bad requests
BAD = [
    ("not json", b"{oops", 400, None, "not valid JSON"),
    ("not utf-8", b'{"id": 1, "cmd": "analyze", "position": "\xff"}', 400, None, "not UTF-8"),
    ("empty", b"  ", 400, None, "empty"),
    ("unknown command", {"id": 1, "cmd": "fly"}, 400, "cmd", "unknown command"),
    ("no id", {"cmd": "analyze", "position": FORCING}, 400, "id", "'id'"),
    ("invalid position", {"id": 1, "cmd": "analyze", "position": example("example7-impossible-take")},
     400, "position", "(R7)"),
    ("bad notation", {"id": 1, "cmd": "notation", "position": "classic french 1 1 KS,KH/AH 5C:thrown:0:0"},
     400, "position", "column"),
    ("file name", {"id": 1, "cmd": "analyze", "position": "/etc/passwd"}, 400, "position", "does not read files"),
    ("unknown field", {"id": 1, "cmd": "analyze", "position": FORCING, "sample": 3}, 400, "sample", "unknown field"),
    ("wrong type", {"id": 1, "cmd": "hint", "position": FORCING, "samples": "eight"}, 400, "samples", "whole number"),
    ("illegal move", {"id": 1, "cmd": "play", "position": FORCING, "move": "take [5C 6C 7C] pay 2H"},
     400, "move", "illegal move"),
    ("a bot's move", {"id": 1, "cmd": "play", "position": FORCING, "move": "pass", "seat": 0}, 400, "move", "bot"),
    ("unknown bot", {"id": 1, "cmd": "play", "position": FORCING, "seat": 0, "bots": "wizard"}, 400, "bots", "wizard"),
    ("deal too far", {"id": 1, "cmd": "deal", "after": 500}, 400, "after", "from 0 to 400"),
    ("no such puzzle", {"id": 1, "cmd": "puzzle", "name": "../../etc/passwd"}, 400, "name", "no bundled puzzle"),
    ("not a record", {"id": 1, "cmd": "review", "record": '{"a": 1}'}, 400, "record", "record"),
    ("record move", {"id": 1, "cmd": "record", "position": FORCING, "moves": ["pass", "fly"]}, 400, "moves", "move 2"),
    ("players of classic", {"id": 1, "cmd": "deal", "variant": "classic", "players": 3}, 400, "players", "(R8)"),
    ("five players", {"id": 1, "cmd": "deal", "variant": "megajogos", "players": 5}, 400, "players", "from 2 to 4"),
    ("unknown stakes", {"id": 1, "cmd": "standing", "stakes": "double"}, 400, "stakes", "unknown stake rule"),
    ("winner not a seat", {"id": 1, "cmd": "standing", "players": 3, "winners": [0, 3]}, 400, "winners", "seat"),
    # A misspelt variant, in a request field, a position's data or its notation: the nearest preset.
    ("misspelt variant", {"id": 1, "cmd": "deal", "variant": "mexcan"}, 400, "variant", "did you mean 'mexican'?"),
    ("misspelt position variant", {"id": 1, "cmd": "analyze", "position": {**example("forcing"), "variant": "clasic"}},
     400, "position", "did you mean 'classic'?"),
    ("misspelt notation variant", {"id": 1, "cmd": "analyze", "position": FORCING.replace("classic", "clasic", 1)},
     400, "position", "did you mean 'classic'?"),
    # A number too large for a double (read as an infinity) is named with its key, as written.
    ("position number past a double", '{"id": 1, "cmd": "hint", "position": '
     + json.dumps(example("forcing")).replace('"stock": 18', '"stock": 1e400', 1) + "}",
     400, "position", "position: stock must be a list of cards or the number of stock cards (0 to 40), got 1e400"),
    ("samples past a double", '{"id": 1, "cmd": "hint", "samples": 1e400, "position": ' + json.dumps(FORCING) + "}",
     400, "samples", "'samples' must be a whole number, got 1e400"),
]


@pytest.mark.parametrize(("body", "status", "field", "text"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_requests_get_a_4xx_naming_the_field(
    client: Any, body: Any, status: int, field: str | None, text: str
) -> None:
    response = post(client, body)
    assert response.status_code == status, response.text
    data = response.json()
    assert data["ok"] is False and data["field"] == field and text in data["error"], data
    assert "Traceback" not in response.text
    alive = post(client, {"id": 1, "cmd": "analyze", "position": FORCING})
    assert alive.status_code == 200  # the server goes on


def test_a_body_over_one_megabyte_is_refused_with_413(client: Any) -> None:
    big = json.dumps({"id": 1, "cmd": "analyze", "position": "x" * MAX_BODY})
    response = post(client, big)
    assert response.status_code == 413 and response.json()["ok"] is False
    assert "1 MB" in response.json()["error"]
    assert post(client, {"id": 2, "cmd": "analyze", "position": FORCING}).status_code == 200


def test_host_header_is_checked(client: Any) -> None:
    refused = client.post("/api", content=b"{}", headers={"Host": "attacker.example:8765"})
    assert refused.status_code == 400 and refused.json()["field"] == "host"
    assert "DNS rebinding" in refused.json()["error"]
    for host in ("127.0.0.1:8765", "localhost", "[::1]:8765"):
        page = client.get("/", headers={"Host": host})
        assert page.status_code == 200, host


def test_only_post_reaches_the_api(client: Any) -> None:
    response = client.get("/api")
    assert response.status_code == 405 and response.json()["ok"] is False
    assert client.get("/static/../../pyproject.toml").status_code == 404
    # Every other method, OPTIONS included, on both paths: a JSON 405 naming POST.
    for method in ("OPTIONS", "GET", "PUT", "DELETE", "PATCH", "TRACE"):
        for path in ("/api", "/api/stream"):
            response = client.request(method, path)
            assert response.status_code == 405, (method, path, response.text)
            assert response.headers["content-type"] == "application/json", (method, path)
            assert response.headers["allow"] == "POST"
            data = response.json()
            assert data["ok"] is False and data["id"] is None and "POST" in data["error"], data
    head = client.head("/api")
    assert head.status_code == 405 and head.headers["allow"] == "POST"


@pytest.mark.parametrize("path", ["/api/nope", "/api/", "/api/stream/more", "/api/hint"])
def test_an_unknown_path_under_the_api_is_a_json_404(client: Any, path: str) -> None:
    for response in (post(client, {"id": 1, "cmd": "analyze", "position": FORCING}, path), client.get(path)):
        assert response.status_code == 404, response.text
        assert response.headers["content-type"] == "application/json"
        data = response.json()
        assert data["ok"] is False and data["field"] is None
        assert "no such API path" in data["error"] and repr(path) in data["error"], data


# ------------------------------------------------------------- streaming
def events(text: str) -> list[tuple[str, Any]]:
    found = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        found.append((lines["event"], json.loads(lines["data"])))
    return found


def test_stream_sends_progress_then_the_answer(client: Any) -> None:
    request = {"id": "s", "cmd": "hint", "position": FORCING, "samples": 4, "time_limit": 60}
    response = post(client, request, "/api/stream")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
    got = events(response.text)
    kinds = [k for k, _ in got]
    assert kinds[-1] == "answer" and kinds.count("answer") == 1 and "progress" in kinds
    assert kinds[0] == "early" and kinds.count("early") == 1  # half a second of sampling first
    early = got[0][1]
    assert early["ok"] is True and 1 <= early["result"]["samples"] <= 4
    assert {m["move"] for m in early["result"]["moves"]} == {"force 0", "pass"}
    progress = [d for k, d in got if k == "progress"]
    assert progress[-1]["planned"] == 4 and all(0 < d["done"] <= 4 for d in progress)
    final = got[-1][1]
    assert final["ok"] is True and final["status"] == 200 and final["result"]["samples"] == 4
    bad = events(post(client, {"id": 1, "cmd": "analyze", "position": "classic"}, "/api/stream").text)
    assert bad == [("answer", {**bad[0][1], "ok": False, "status": 400, "field": "position"})]


def test_is_search_sends_searches_to_the_pool() -> None:
    assert is_search({"cmd": "hint"}) and not is_search({"cmd": "hint", "static": True})
    assert is_search({"cmd": "review"}) and is_search({"cmd": "solve"}) and is_search({"cmd": "why"})
    assert not is_search({"cmd": "play", "bots": "greedy"}) and is_search({"cmd": "play", "bots": ["hint"]})
    assert not is_search({"cmd": "analyze"}) and not is_search([1]) and not is_search(None)


# ----------------------------------------------------- a pool that is full
LONG = (
    '{"id": "long", "cmd": "hint", "position": ' + json.dumps(FORCING)
    + ', "samples": 100000, "time_limit": 1e400}'  # 1e400: no time limit, as --time-limit inf
)  # fmt: skip


def test_full_pool_gives_503_and_the_time_cap_stops_a_search() -> None:
    app = create_app(hosts=["testserver"], workers=1, queue=0, time_cap=4)
    with TestClient(app, raise_server_exceptions=False) as client:
        warm = post(client, {"id": 0, "cmd": "hint", "position": FORCING, "samples": 1})
        assert warm.status_code == 200
        first_pid = app.pool._all[0].process.pid
        results: dict[str, Any] = {}
        runner = threading.Thread(target=lambda: results.setdefault("long", post(client, LONG)))
        runner.start()
        deadline = time.monotonic() + 10
        while app.pool.pending < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        busy = post(client, {"id": 1, "cmd": "hint", "position": FORCING, "samples": 1})
        assert busy.status_code == 503 and busy.headers["retry-after"] == "2"
        assert busy.json()["ok"] is False and "busy" in busy.json()["error"]
        assert busy.json()["id"] == 1  # echoed, as every other answer echoes it
        streamed = post(client, {"id": "s1", "cmd": "hint", "position": FORCING, "samples": 1}, "/api/stream")
        assert streamed.status_code == 503 and streamed.headers["retry-after"] == "2"
        assert streamed.json()["id"] == "s1" and "busy" in streamed.json()["error"]
        begin = time.monotonic()
        quick = post(client, {"id": 2, "cmd": "analyze", "position": FORCING})
        assert quick.status_code == 200 and time.monotonic() - begin < 1.0
        runner.join(timeout=30)
        capped = results["long"]
        assert capped.status_code == 504 and capped.json()["field"] == "time_limit"
        assert capped.json()["id"] == "long"
        assert "cap of 4 s" in capped.json()["error"]
        again = post(client, {"id": 3, "cmd": "hint", "position": FORCING, "samples": 1})
        assert again.status_code == 200  # a new process took the stopped one's place
        assert app.pool._all[0].process.pid != first_pid


def test_workers_are_replaced_after_their_share_of_jobs() -> None:
    app = create_app(hosts=["testserver"], workers=1, queue=1)
    app.pool.max_jobs = 2
    with TestClient(app) as client:
        pids = []
        for k in range(3):
            reply = post(client, {"id": k, "cmd": "hint", "position": FORCING, "samples": 1})
            assert reply.status_code == 200
            pids.append(app.pool._all[0].process.pid)
        assert pids[0] != pids[1] == pids[2]  # replaced once it has answered 2


def test_serve_without_the_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    from cli_run import run

    real = builtins.__import__

    def refuse(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "uvicorn":
            raise ImportError("No module named 'uvicorn'", name="uvicorn")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse)
    code, _, err = run("serve")
    assert code == 1 and 'pip install -e ".[web]"' in err and "uvicorn" in err


def test_serve_refuses_a_remote_address_without_the_flag() -> None:
    from cli_run import run

    code, _, err = run("serve", "--host", "0.0.0.0")
    assert code == 2 and "--allow-remote" in err


def test_docs_list_every_command() -> None:
    from cli.engine import COMMANDS

    engine_doc = (ROOT / "docs" / "engine.md").read_text()
    web_doc = (ROOT / "docs" / "web.md").read_text()
    for cmd in COMMANDS:
        assert f"| `{cmd}` |" in engine_doc, cmd
    for path in ("POST /api", "/api/stream", "503", "413", "Retry-After", "data-card", "data-zone"):
        assert path in web_doc, path
    assert Path(ROOT / "docs" / "web.md").stat().st_size > 2000


def test_the_play_tab_offers_only_the_bots_that_can_play_here() -> None:
    # Without OpenSpiel the ismcts bot cannot play, so it is not offered (a new process: the
    # list is found once per process).
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['pyspiel'] = None; sys.modules['open_spiel'] = None; "
        "from cli.board import examples_data; print(examples_data(None)['bots'])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "['greedy', 'hint']", out.stderr
    from cli.board import examples_data
    from analyzer.bots.registry import installed_bot

    bots = examples_data(None)["bots"]
    assert bots[:2] == ["greedy", "hint"] and ("ismcts" in bots) == installed_bot("ismcts")


def test_why_from_the_players_view_gives_the_hints_figures_where_every_card_is_known() -> None:
    # A position with every card known: why is exact by default, but with view it evaluates the
    # move as the hint does, from the acting player's view, on the hint's sampled deals.
    from analyzer.core.dealing import deal
    from analyzer.core.state import dump_position
    from analyzer.service.requests import answer

    import random as _random

    rng = _random.Random(3)
    state = deal("classic", rng)
    while state.is_chance_node() or len(state.legal_moves()) < 2:
        state = state.apply(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_moves()[0])
    position = dump_position(state)
    hint, _ = answer(json.dumps({"id": 1, "cmd": "hint", "position": position, "seed": 0}))
    assert hint["ok"], hint
    row = hint["result"]["moves"][-1]
    why, _ = answer(json.dumps({"id": 2, "cmd": "why", "position": position, "move": row["move"],
                                "seed": 0, "view": True}))  # fmt: skip
    assert why["ok"], why
    comparison = why["result"]["comparison"]
    assert "exact" not in comparison or not comparison["exact"]
    assert comparison["win"] == pytest.approx(row["win"])
    exact, _ = answer(json.dumps({"id": 3, "cmd": "why", "position": position, "move": row["move"]}))
    assert exact["ok"] and exact["result"]["comparison"].get("exact") is True


def test_a_view_record_says_what_can_be_entered_next(client: Any) -> None:
    """The record request with 'view' answers 'next' (docs/engine.md): at a turn the cards that
    can come (R10), at the viewer's decision his legal moves, for another player the kinds of
    move left to him, whom he may force (R14) and the cards his move may show, the viewer's pass
    known in the next player's hand (R9); at the end of the deal null."""
    from analyzer.core.cards import Labels
    from analyzer.core.seen import parse_seen_move

    def entered(name: str, count: int) -> dict[str, Any]:
        lines = [json.loads(line) for line in (ROOT / "examples" / "records" / f"{name}.jsonl").read_text().splitlines()]
        header = lines[0]
        own = Labels(header["start"].get("labels", "french"))
        moves = [parse_seen_move(m["move"], own).text(Labels.FRENCH) for m in lines[1:] if "move" in m]
        request = {"id": 1, "cmd": "record", "position": header["start"], "view": header["view"],
                   "moves": moves[:count], "labels": "french"}  # fmt: skip
        reply = post(client, request)
        assert reply.status_code == 200, reply.text
        result: dict[str, Any] = reply.json()["result"]
        return result

    turn = entered("classic-view", 0)["next"]
    assert turn["player"] is None and turn["kinds"] == ["turn"]
    assert "JS" in turn["cards"] and "KS" not in turn["cards"]  # KS is in the viewer's hand (R1)
    mine = entered("classic-view", 1)["next"]
    assert mine["player"] == 1 and [m["text"] for m in mine["moves"]] == ["pass"]
    other = entered("classic-view", 4)["next"]  # player 0 offered 6H, which he takes
    assert other["player"] == 0 and other["kinds"] == ["pass", "take"] and other["forces"] == []
    assert other["hand"] == 10 and "6H" not in other["cards"] and "5S" in other["cards"]
    assert entered("classic-view", 63)["next"] is None  # the deal is over
    gives = [entered("megajogos-view", k)["next"] for k in (0, 1)]
    assert [g["give"] for g in gives] == ["?", "card"]  # player 2 passes to the viewer (R9)
    forcing = entered("megajogos-view", 55)["next"]
    assert forcing["forces"] == [0] and "force" in forcing["kinds"]
    # 4c (4H), the viewer's pass, is known in player 1's hand: his to show, nobody else's.
    assert entered("megajogos-view", 10)["next"]["known"] == ["4H"]
    assert "4H" not in entered("megajogos-view", 11)["next"]["cards"]
