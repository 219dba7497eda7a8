"""The HTTP API's number fields past their ranges and its 'labels' field (docs/engine.md, "Limits
of the number fields"): a JSON 400 naming the field and the value, on either core, never a 500
(the native core cannot take a whole number of 2**63 or more) nor a search the Python core would
run with it."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from web_support import FORCING, ROOT, example, need_web

need_web()

with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 and warns with httpx; both work
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from analyzer.core import native  # noqa: E402
from analyzer.search.limits import MAX_POSITIONS  # noqa: E402
from web.app import LOOPBACK, create_app  # noqa: E402

PAST = 2**63
RECORD = (ROOT / "examples" / "records" / "classic-hint-vs-greedy.jsonl").read_text()
PUZZLE = json.loads((ROOT / "examples" / "puzzles" / "classic-win-1.json").read_text())["position"]


@pytest.fixture(scope="module", params=["python", "native"])
def client(request: pytest.FixtureRequest) -> Iterator[Any]:
    """The board's app on one core: the server's own threads and its worker processes (which
    read the core from the environment) alike."""
    core = request.param
    if core == "native" and not native.native_available():
        pytest.skip("the native core is not built (install with cargo on the PATH; .ci/run builds it)")
    with pytest.MonkeyPatch.context() as patch, native.use_core(core):
        patch.setenv(native.CORE_ENV, core)
        app = create_app(hosts=["testserver", *LOOPBACK], workers=1, queue=2, time_cap=60)
        with TestClient(app, raise_server_exceptions=False) as c:
            yield c


def post(client: Any, request: dict[str, Any]) -> Any:
    return client.post("/api", content=json.dumps({"id": 1, **request}), headers={"Content-Type": "application/json"})


@pytest.mark.parametrize(
    "request_",
    [
        {"cmd": "solve", "position": example("example6-going-out"), "budget": PAST},
        {"cmd": "solve", "position": example("example6-going-out"), "prove": PAST},
        {"cmd": "solve", "position": PUZZLE, "budget": PAST},
        {"cmd": "hint", "position": FORCING, "budget": PAST},
        {"cmd": "hint", "position": FORCING, "samples": PAST},
        {"cmd": "hint", "position": FORCING, "seed": PAST, "samples": 1},
        {"cmd": "review", "record": RECORD, "budget": PAST, "samples": 1},
        {"cmd": "deal", "seed": PAST},
    ],
    ids=lambda r: f"{r['cmd']}-{next(k for k, v in r.items() if v == PAST)}",
)
def test_a_number_past_its_range_is_a_400_on_either_core(client: Any, request_: dict[str, Any]) -> None:
    field = next(key for key, value in request_.items() if value == PAST)
    response = post(client, request_)
    assert response.status_code == 400, response.text
    reply = response.json()
    assert reply["ok"] is False and reply["field"] == field
    assert reply["error"].startswith(f"'{field}' must be from ") and reply["error"].endswith(f", got {PAST}")


def test_a_bot_option_past_its_range_is_a_400(client: Any) -> None:
    # Player 1 to act: the bot at seat 1 would search with the option at once.
    request = {"cmd": "play", "position": FORCING, "seat": 0, "bots": f"hint:node_budget={PAST}"}
    response = post(client, request)
    assert response.status_code == 400, response.text
    reply = response.json()
    assert reply["field"] == "bots" and f"node_budget={PAST} must be at most {MAX_POSITIONS}" in reply["error"]


def test_the_largest_budget_is_answered(client: Any) -> None:
    response = post(client, {"cmd": "solve", "position": PUZZLE, "budget": MAX_POSITIONS})
    assert response.status_code == 200 and response.json()["result"]["proven"] is True, response.text


BAD_LABELS = ["klingon", "", " french", "frenchh", "espanol", 5, 0, True, [], ["french"], {"labels": "french"}, 1.5]


@pytest.mark.parametrize("cmd", ["variants", "standing"])
@pytest.mark.parametrize("labels", BAD_LABELS, ids=[json.dumps(v) for v in BAD_LABELS])
def test_bad_labels_are_a_400_on_every_command(client: Any, cmd: str, labels: Any) -> None:
    # As every other command refuses them (analyze, deal, examples, ...): naming the value.
    response = post(client, {"cmd": cmd, "labels": labels})
    assert response.status_code == 400, response.text
    reply = response.json()
    assert reply["ok"] is False and reply["field"] == "labels"
    assert reply["error"].startswith("'labels' must be \"french\" or \"spanish\", got ")
    shown = repr(labels) if isinstance(labels, str) else json.dumps(labels)
    assert reply["error"].endswith(f"got {shown}"), reply["error"]
    same = post(client, {"cmd": "examples", "labels": labels})
    assert same.status_code == 400 and same.json()["error"] == reply["error"]


@pytest.mark.parametrize("cmd", ["variants", "standing"])
@pytest.mark.parametrize("labels", ["french", "spanish", "Spanish", None])
def test_good_labels_are_taken_where_no_card_is_shown(client: Any, cmd: str, labels: Any) -> None:
    assert post(client, {"cmd": cmd, "labels": labels}).status_code == 200
