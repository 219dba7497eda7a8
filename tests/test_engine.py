"""conquian engine (docs/engine.md): JSON lines in, one answer line per request, in order, each
with the request's id; bad requests answered and the engine goes on; end of input exits 0."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from cli_run import example, forcing, run
from conftest import EXAMPLES, ROOT

from cli.engine import answer

FORCING = "classic french 1 1 KS,KH[AC,2C,3C,4C][4S,5S,6S,7S]/AH,2H,2D,3S,3D,5D,6H,JD,QH,QD 5C:turned:0:0 7D 18"
PUZZLE = json.loads((ROOT / "examples" / "puzzles" / "classic-win-1.json").read_text())["position"]


def engine_process() -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", "import sys; from cli.main import main; sys.exit(main())", "engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        bufsize=1,
    )


def cli_json(*args: str) -> Any:
    code, out, err = run(*args, "--json")
    assert code == 0, err
    return json.loads(out)


def test_the_engine_as_a_subprocess_answers_in_order() -> None:
    requests: list[Any] = [
        {"id": 1, "cmd": "analyze", "position": forcing()},
        "this is not json",
        {"id": "two", "cmd": "notation", "position": forcing()},
        {"id": 3, "cmd": "fly"},
        {"id": 4, "cmd": "melds", "cards": "5H 6H 7H JH JS JD KC", "must": "5H 6H 7H JH"},
        {"id": 5, "cmd": "analyze", "position": FORCING.replace(" 18", " 19")},
        {"id": 6, "cmd": "hint", "position": FORCING, "static": True},
        {"id": 7, "cmd": "solve", "position": PUZZLE},
        {"id": 8, "cmd": "solve", "position": PUZZLE, "all_moves": True},
        {"id": 9, "cmd": "why", "position": FORCING, "move": "take [5C 6C 7C] pay KS"},
        {"id": 10, "cmd": "hint", "position": FORCING, "samples": 2, "seed": 3, "time_limit": 30},
        {"id": 11, "action": "query_version"},
    ]
    proc = engine_process()
    assert proc.stdin is not None and proc.stdout is not None
    answers = []
    # One request at a time, as a GUI does: each answer arrives before the next request is sent.
    for request in requests:
        line = request if isinstance(request, str) else json.dumps(request)
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        answers.append(json.loads(proc.stdout.readline()))
    proc.stdin.write("\n")  # a blank line is no request
    proc.stdin.close()
    rest = proc.stdout.read()
    assert proc.wait(timeout=120) == 0 and rest == ""
    assert proc.stderr is not None and proc.stderr.read() == ""
    ids = [None if isinstance(r, str) else r["id"] for r in requests]
    assert [a["id"] for a in answers] == ids
    assert [a["ok"] for a in answers] == [True, False, True, False, True, False, True, True, True,
                                          True, True, True]  # fmt: skip
    by_id = {a["id"]: a for a in answers if a["id"] is not None}
    position = str(EXAMPLES / "forcing.json")
    assert by_id[1]["result"] == cli_json("analyze", position)
    assert by_id["two"]["result"] == cli_json("notation", position)
    assert by_id["two"]["result"]["notation"] == FORCING
    assert by_id[3]["field"] == "cmd" and "unknown command" in by_id[3]["error"]
    assert by_id[4]["result"] == cli_json("melds", "5H", "6H", "7H", "JH", "JS", "JD", "KC",
                                          "--must", "5H 6H 7H JH")  # fmt: skip
    assert by_id[5]["field"] == "position" and "add up to 41" in by_id[5]["error"]
    assert by_id[6]["result"] == cli_json("hint", position, "--static")
    solved = by_id[7]["result"]
    assert solved["proven"] and solved["winner"] == 0
    values = [m["values"][0] for m in by_id[8]["result"]["moves"]]
    assert values == sorted(values, reverse=True) and values[0] == solved["values"][0]
    assert by_id[9]["result"]["legal"] is False and by_id[9]["result"]["facts"]
    hint = by_id[10]["result"]
    assert hint["samples"] == 2 and {m["move"] for m in hint["moves"]} == {"force 0", "pass"}
    assert hint["moves"] == cli_json("hint", position, "--samples", "2", "--seed", "3",
                                     "--time-limit", "30")["moves"]  # fmt: skip
    assert by_id[11]["result"]["commands"] == ["analyze", "melds", "hint", "solve", "why",
                                               "notation", "deal", "moves", "play", "record",
                                               "review", "examples", "variants", "standing",
                                               "puzzle"]  # fmt: skip


def test_solve_all_moves_through_the_engine_equals_the_command(tmp_path: Any) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(PUZZLE))
    got, _ = answer(json.dumps({"id": 1, "cmd": "solve", "position": PUZZLE, "all_moves": True}))
    expected = cli_json("solve", str(path), "--all-moves")
    for data in (got["result"], expected):
        data.pop("seconds")
    assert got["result"] == expected


@pytest.mark.parametrize(
    ("line", "field", "needle"),
    [
        ("[1, 2]", None, "JSON object"),
        ('{"cmd": "analyze"}', "id", "needs an 'id'"),
        ('{"id": true, "cmd": "analyze"}', "id", "'id' must be a string or a number, not true or false"),
        ('{"id": [1], "cmd": "analyze"}', "id", "not a list"),
        ('{"id": 1}', "cmd", "'cmd' is missing"),
        ('{"id": 1, "cmd": "analyze"}', "position", "'position' is missing"),
        ('{"id": 1, "cmd": "analyze", "position": "classic french 1 1 KS,KH/AH 5C:thrown:0:0"}',
         "position", "notation field 'centre' at column 32"),
        ('{"id": 1, "cmd": "analyze", "position": {"variant": "classic", "toAct": 1}}',
         "position", "did you mean 'to_act'"),
        ('{"id": 1, "cmd": "analyze", "position": 7}', "position", "position"),
        ('{"id": 1, "cmd": "notation", "position": "/tmp/ok.json"}', "position",
         "'/tmp/ok.json' looks like a file name: the engine does not read files"),
        # One word that is not a variant is not a position, not "missing field 'labels'".
        ('{"id": 1, "cmd": "analyze", "position": "garbage"}', "position",
         "position 'garbage' is not a position: give the position data (a JSON object) or the notation"),
        ('{"id": 1, "cmd": "analyze", "position": "/etc/passwd"}', "position", "looks like a file name"),
        ('{"id": 1, "cmd": "analyze", "position": "classic"}', "position", "missing field 'labels'"),
        ('{"id": 1, "cmd": "analyze", "position": "x", "samples": 3}', "samples", "unknown field"),
        ('{"id": 1, "cmd": "hint", "position": "x", "samples": "8"}', "samples", "whole number"),
        ('{"id": 1, "cmd": "hint", "position": "x", "samples": 0}', "samples", "from 1"),
        ('{"id": 1, "cmd": "hint", "position": "x", "time_limit": NaN}', "time_limit", "number"),
        ('{"id": 1, "cmd": "hint", "position": "x", "static": 1}', "static", "true or false"),
        ('{"id": 1, "cmd": "solve", "position": "x", "mode": "best"}', "mode", "auto, maxn"),
        ('{"id": 1, "cmd": "melds", "cards": "AS 2S 9S"}', "cards", "'9S'"),
        ('{"id": 1, "cmd": "melds", "cards": "AS 2S", "must": "3S"}', "must", "not among"),
        ('{"id": 1, "cmd": "melds", "cards": "AS", "variant": "gin"}', "variant", "unknown variant"),
        ('{"id": 1, "cmd": "melds", "cards": 5}', "cards", "cards as text"),
        ('{"id": 1, "cmd": "analyze", "position": "x", "labels": "klingon"}', "labels", "french"),
        ('{"id": 1, "action": "dance"}', "action", "unknown action"),
        ("[" * 5000 + "]" * 5000, None, "the request is nested too deeply to read"),
        # A whole number past Python's digit limit: said so, not "not valid JSON ... 5000 di".
        ('{"id": 1, "cmd": "analyze", "position": ' + "9" * 5000 + "}", None,
         "a number has too many digits (5000; Python reads whole numbers of at most 4300 digits: "
         "its int max str digits limit)"),
        ('{"id": 1, "cmd": "hint", "position": "x", "time_limit": -1e400}', "time_limit",
         "at least 0.05 (1e400: no limit), got -1e400"),  # the text written, not -Infinity
        ('{"id": 1, "cmd": "hint", "position": "x", "samples": 100001}', "samples",
         "from 1 to 100000"),
        # Problems about an option name the request field, not the command-line option.
        ('{"id": 1, "cmd": "melds", "cards": "5C 6C 7C", "variant": "megajogos"}', "labels",
         '("labels": "french" or "spanish" in the request)'),
    ],
)
def test_bad_requests_get_an_error_answer(line: str, field: str | None, needle: str) -> None:
    # 'x' positions are never read: the request's own fields are checked first where they can be.
    line = line.replace('"position": "x"', json.dumps({"position": forcing()})[1:-1])
    reply, stop = answer(line)
    assert not stop and reply["ok"] is False
    assert reply["field"] == field and needle in reply["error"], reply
    assert set(reply) == {"id", "ok", "error", "field"}
    assert "\n" not in reply["error"]
    assert not reply["error"].endswith(" di")


def test_a_number_too_long_keeps_the_id_of_its_request() -> None:
    # The answer echoes the id, so that a client can match it.
    long = "9" * 5000
    for line, expected in (
        ('{"id": 7, "cmd": "hint", "seed": ' + long + "}", 7),
        ('{"id": "a", "x": [' + long + "]}", "a"),
        ('{"id": ' + long + ', "cmd": "hint"}', None),  # the id itself cannot be echoed
    ):
        reply, stop = answer(line)
        assert not stop and reply["ok"] is False and reply["id"] == expected
        assert "a number has too many digits" in reply["error"]


def test_open_on_a_hidden_hand_names_the_field_open() -> None:
    hidden = example("forcing.json")
    hidden["players"][0]["hand"] = 2  # player 0's hand hidden (2 cards); player 1 to act
    reply, _ = answer(json.dumps({"id": 4, "cmd": "hint", "position": hidden, "open": True}))
    assert reply["ok"] is False and reply["field"] == "open"
    assert reply["error"].startswith("'open' needs every hand known") and "--open" not in reply["error"]
    code, _, err = run("hint", "-", "--open", input=json.dumps(hidden))  # the command line's words
    assert code == 1 and "--open needs every hand known" in err


def test_an_infinite_time_limit_is_no_limit() -> None:
    # As --time-limit inf on the command line (not refused as "at least 0.05, got inf").
    for cmd in ("hint", "why"):
        request = {"id": 1, "cmd": cmd, "position": FORCING, "samples": 2}
        line = json.dumps(request)[:-1] + ', "time_limit": 1e400}'
        if cmd == "why":
            line = line[:-1] + ', "move": "pass"}'
        reply, _ = answer(line)
        assert reply["ok"] is True, reply


def test_why_and_hint_problems_name_the_field() -> None:
    reply, _ = answer(json.dumps({"id": 1, "cmd": "why", "position": FORCING, "move": "dance"}))
    assert reply["field"] == "move" and "not a move" in reply["error"]
    hidden = example("forcing.json")
    hidden["players"][0]["hand"] = 2  # player 0's hand hidden: nothing to solve
    reply, _ = answer(json.dumps({"id": 2, "cmd": "solve", "position": hidden}))
    assert reply["ok"] is False and "hidden" in reply["error"]
    # A position that reads but cannot be answered names its field.
    assert reply["field"] == "position"
    actor = example("forcing.json")
    me = actor["to_act"]
    actor["players"][me]["hand"] = len(actor["players"][me]["hand"])  # the hand of the one to act
    reply, _ = answer(json.dumps({"id": 3, "cmd": "hint", "position": actor}))
    assert reply["field"] == "position" and "hidden" in reply["error"]
    reply, _ = answer(json.dumps({"id": 4, "cmd": "hint", "position": "not json or notation"}))
    assert reply["ok"] is False and reply["field"] == "position"


def test_labels_per_request_and_by_default() -> None:
    request = {"id": 1, "cmd": "analyze", "position": FORCING, "labels": "spanish"}
    reply, _ = answer(json.dumps(request))
    assert reply["result"]["players"][0]["outs"] == ["12o", "12b"]
    reply, _ = answer(json.dumps({**request, "labels": None}), labels=None)
    assert reply["result"]["players"][0]["outs"] == ["KD", "KC"]
    reply, _ = answer(json.dumps({"id": 1, "cmd": "analyze", "position": FORCING}),
                      labels=__import__("analyzer").Labels.SPANISH)  # fmt: skip
    assert reply["result"]["players"][0]["outs"] == ["12o", "12b"]


def test_quit_and_end_of_input_exit_0_through_the_cli() -> None:
    lines = "\n".join(
        [json.dumps({"id": 1, "action": "quit"}), json.dumps({"id": 2, "cmd": "analyze"})]
    )
    code, out, err = run("engine", input=lines + "\n")
    assert code == 0 and err == ""
    assert [json.loads(x)["id"] for x in out.splitlines()] == [1]
    code, out, _ = run("engine", input="")
    assert code == 0 and out == ""


def test_a_line_that_is_not_utf8_is_answered() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from cli.main import main; sys.exit(main())", "engine"],
        input=b"\xff\xfe\n" + json.dumps({"id": 1, "cmd": "notation", "position": FORCING}).encode()
        + b"\n",
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode == 0
    first, second = (json.loads(x) for x in proc.stdout.decode().splitlines())
    assert first["ok"] is False and "UTF-8" in first["error"]
    assert second["ok"] is True and second["result"]["notation"] == FORCING


def test_a_request_line_past_the_size_cap_is_answered_without_reading_it_whole(monkeypatch) -> None:
    # An endless line must not grow the engine to gigabytes and a MemoryError traceback. The
    # cap is cli.inputs.MAX_INPUT (32 MB); a small one here.
    import io

    import cli.engine as engine_module

    second = "\ufeff".encode() + json.dumps({"id": 2, "cmd": "notation", "position": FORCING}).encode()
    monkeypatch.setattr(engine_module, "MAX_INPUT", len(second) + 8)
    first = b'{"id": 1, "cmd": "melds", "cards": "' + b"5H " * len(second) + b'"}'

    class Stream:
        buffer = io.BytesIO(first + b"\n" + second + b"\n")

    out: list[str] = []
    assert engine_module.serve(Stream(), out.append) == 0
    one, two = (json.loads(x) for x in out)
    assert one["ok"] is False and "longer than" in one["error"]
    # The next line is read as usual, its byte-order mark dropped.
    assert two["ok"] is True and two["id"] == 2


@pytest.mark.parametrize(
    ("line", "echoed"),
    [
        ('{"id": 2, "cmd": "melds", "cards": "5H", "cards": "AS"}', 2),
        ('{"id": "a", "cmd": "melds", "x": {"id": 9, "b": 1, "b": 2}}', "a"),
        ('{"id": 2, "id": 3, "cmd": "melds"}', None),
        ('{"cmd": "melds", "a": 1, "a": 2}', None),
        ('{"id": true, "a": 1, "a": 2}', None),
    ],
)
def test_a_key_given_twice_still_echoes_a_readable_id(line: str, echoed: object) -> None:
    # The answer to a request with a key given twice echoes the id, not "id": null.
    got, _ = answer(line)
    assert got["ok"] is False and "appears twice in one object" in got["error"]
    assert got["id"] == echoed


def test_open_with_the_stock_given_notes_samples_and_seed_as_the_command_does() -> None:
    # 'hint --open --samples 4' on a whole deal notes that --samples has no effect, and so does
    # {"open": true, "samples": 4} in the engine: answered, with the note (issue 32 item 5).
    from analyzer.core.dealing import deal
    from analyzer.core.plain import dump_position

    state = deal("megajogos", 1)
    for _ in range(10):
        state = state.apply(state.legal_moves()[0])
    position = dump_position(state)
    assert isinstance(position["stock"], list)
    for key, value in (("samples", 4), ("seed", 4)):
        reply, _ = answer(json.dumps({"id": 1, "cmd": "hint", "position": position, "open": True, key: value}))
        assert reply["ok"] is True
        notes = reply["result"]["notes"]
        assert len(notes) == 1 and f"'{key}'" in notes[0] and "nothing is sampled" in notes[0]
        code, out, err = run("hint", "-", "--open", f"--{key}", str(value), input=json.dumps(position))
        assert code == 0 and out and err.startswith("Note: ") and "nothing is sampled" in err
    reply, _ = answer(json.dumps({"id": 2, "cmd": "hint", "position": position, "static": True, "open": True}))
    assert reply["ok"] is True


def test_the_command_and_the_engine_check_a_hint_the_same_way() -> None:
    # One validation (analyzer.service.hints.HintOptions): the same findings, each front end's words.
    from cli_run import run

    from analyzer.service.hints import HintOptions
    from web_support import FORCING

    position = FORCING
    reply = answer(json.dumps({"id": 1, "cmd": "hint", "position": position, "static": True, "seed": 3}))[0]
    code, _, err = run("hint", position, "--static", "--seed", "3")
    assert reply["ok"] and reply["result"]["notes"] == [
        "'seed' has no effect with \"static\": true (a one-move evaluation, without sampling)"
    ]
    assert code == 0 and "--seed has no effect with it" in " ".join(err.split())
    assert HintOptions(static=True, given=frozenset({"seed"})).unread() == ("seed",)
    # --budget where v3 searches: refused by both, naming the option.
    dealt = answer(json.dumps({"id": 2, "cmd": "deal", "variant": "megajogos", "seed": 1, "after": 4}))[0]
    mega = dealt["result"]["notation"]
    reply = answer(json.dumps({"id": 3, "cmd": "hint", "position": mega, "budget": 500}))[0]
    code, _, err = run("hint", mega, "--budget", "500")
    assert not reply["ok"] and reply["field"] == "budget" and "counts the positions of engines v2 and v1" in reply["error"]
    assert code == 2 and "--budget counts the positions of engines v2 and v1" in err
