"""JSON in and out: every output is valid JSON (no NaN or Infinity, text the output cannot encode
escaped), and JSON input with one key twice is refused wherever JSON is read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_run import forcing, one_error_line, run, run_process
from conftest import EXAMPLES, ROOT

from analyzer.core.errors import PositionError
from analyzer.formats.position import parse_json
from analyzer.formats.records import RecordError, replay_lines
from cli.engine import answer

GOLDEN = ROOT / "tests" / "golden" / "classic-1.jsonl"


def strict_json(text: str) -> Any:
    """Parse ``text`` as JSON as a strict reader does: NaN and Infinity are not JSON."""

    def refuse(constant: str) -> Any:
        raise AssertionError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def engine_lines(*requests: str) -> list[Any]:
    proc = run_process("engine", input="".join(r + "\n" for r in requests))
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return [strict_json(line) for line in proc.stdout.splitlines()]


# ------------------------------------------------------------------------ lone surrogates
def test_the_engine_escapes_a_lone_surrogate_and_goes_on() -> None:
    position = json.dumps(forcing())
    answers = engine_lines(
        '{"id": "\\ud800", "cmd": "analyze", "position": ' + position + "}",
        '{"id": 2, "cmd": "analyze", "position": {"to_act\\ud800": 1}}',
        '{"id": 3, "cmd": "analyze", "position": ' + position + "}",
    )
    assert [a["id"] for a in answers] == ["\ud800", 2, 3]
    assert answers[0]["ok"] and not answers[1]["ok"] and answers[2]["ok"]
    assert "unknown key 'to_act\\ud800'" in answers[1]["error"]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('{"variant": "classic", "to_act\\ud800": 1, "players": []}', "unknown key 'to_act\\ud800'"),
        ('{"variant": "classic", "labels": "french\\ud800", "players": []}', "labels must be"),
    ],
)
def test_analyze_json_escapes_a_lone_surrogate(tmp_path: Path, text: str, needle: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(text)
    proc = run_process("analyze", str(path), "--json")
    assert proc.returncode == 1 and one_error_line(proc.stderr), proc.stderr
    data = strict_json(proc.stdout)
    assert data["valid"] is False and needle in data["error"].replace("\ud800", "\\ud800")
    proc = run_process("analyze", str(path))  # the text mode: the message escaped
    assert proc.returncode == 1 and one_error_line(proc.stderr) and "\\ud800" in proc.stderr


def test_replay_json_escapes_a_lone_surrogate(tmp_path: Path) -> None:
    lines = GOLDEN.read_text().splitlines()
    for key, value in (("move", "pass\ud800"), ("player\ud800", 1), ("player", "\ud800")):
        move = json.loads(lines[2])
        move[key] = value
        path = tmp_path / "r.jsonl"
        path.write_text("\n".join([lines[0], lines[1], json.dumps(move)]) + "\n")
        proc = run_process("replay", str(path), "--json")
        assert proc.returncode == 1 and one_error_line(proc.stderr), proc.stderr
        data = strict_json(proc.stdout)
        assert data["valid"] is False and data["error"].startswith("line 3")


def test_a_puzzle_title_with_a_lone_surrogate_is_printed_escaped(tmp_path: Path) -> None:
    puzzle = json.loads((EXAMPLES.parent / "puzzles" / "classic-win-1.json").read_text())
    puzzle["title"] = "odd \ud800 title"
    path = tmp_path / "p.json"
    path.write_text(json.dumps(puzzle))
    svg = tmp_path / "p.svg"
    proc = run_process("puzzle", str(path), "--svg", str(svg))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    proc = run_process("puzzle", str(path), "--json")
    assert proc.returncode == 0 and strict_json(proc.stdout)["title"] == "odd \ud800 title"


# ------------------------------------------------------------------- NaN and Infinity
@pytest.mark.parametrize("request_id", ["1e400", "-1e400", "NaN", "Infinity", "-Infinity"])
def test_an_id_json_cannot_echo_is_refused(request_id: str) -> None:
    line = '{"id": ' + request_id + ', "cmd": "analyze", "position": ' + json.dumps(forcing()) + "}"
    reply, stop = answer(line)
    assert not stop and reply["ok"] is False and reply["field"] == "id" and reply["id"] is None
    assert "finite number" in reply["error"]
    answers = engine_lines(line, '{"id": 2, "action": "query_version"}')
    assert answers[0]["field"] == "id" and answers[1]["ok"]


def test_emit_never_writes_nan() -> None:
    from cli.console import json_out

    with pytest.raises(Exception, match="JSON cannot carry"):
        json_out({"x": float("nan")})
    assert json_out({"x": "\ud800"}, indent=None) in ('{"x": "\\ud800"}', '{"x": "\ud800"}')


# ----------------------------------------------------------------------- duplicate keys
def test_duplicate_keys_are_refused_in_position_files_and_stdin(tmp_path: Path) -> None:
    text = json.dumps(forcing())
    doubled = text.replace('"dealer": 1', '"dealer": 0, "dealer": 1', 1)
    assert doubled != text
    path = tmp_path / "p.json"
    path.write_text(doubled)
    for args, stdin in (((str(path),), None), (("-",), doubled)):
        code, _, err = run("analyze", *args, input=stdin)
        assert code == 1 and one_error_line(err) and "'dealer' appears twice" in err, err
    nested = text.replace('"kind": "turned"', '"kind": "paid", "kind": "turned"', 1)
    with pytest.raises(PositionError, match="'kind' appears twice"):
        parse_json(nested, "x")


def test_duplicate_keys_are_refused_in_engine_requests() -> None:
    reply, _ = answer('{"id": 1, "id": 2, "cmd": "analyze"}')
    assert reply["ok"] is False and "'id' appears twice" in reply["error"]
    position = json.dumps(forcing()).replace('"to_act": 1', '"to_act": 1, "to_act": 0', 1)
    reply, _ = answer('{"id": 1, "cmd": "analyze", "position": ' + position + "}")
    assert reply["ok"] is False and "'to_act' appears twice" in reply["error"]


def test_duplicate_keys_are_refused_in_records_meld_files_and_puzzles(tmp_path: Path) -> None:
    lines = GOLDEN.read_text().splitlines()
    lines[1] = lines[1].replace('"move"', '"move": "pass", "move"', 1)
    with pytest.raises(RecordError, match="line 2: the key 'move' appears twice"):
        replay_lines(lines)
    melds = tmp_path / "m.json"
    melds.write_text('{"type": "melds", "queries": [{"cards": "AS 2S 3S", "cards": "KS"}]}')
    code, _, err = run("melds", "--file", str(melds))
    assert code == 1 and one_error_line(err) and "'cards' appears twice" in err
    puzzle = (EXAMPLES.parent / "puzzles" / "classic-win-1.json").read_text()
    path = tmp_path / "pz.json"
    path.write_text(puzzle.replace('"title"', '"title": "x", "title"', 1))
    code, _, err = run("puzzle", str(path))
    assert code == 1 and one_error_line(err) and "'title' appears twice" in err


def test_a_cut_json_text_says_where_once(tmp_path: Path) -> None:
    # The place is said once, not "Unterminated string starting at at line 1 column 17".
    position = tmp_path / "cut.json"
    position.write_text('{"variant": "cl')
    code, _, err = run("analyze", str(position))
    assert code == 1 and "Unterminated string starting at line 1 column 13" in err
    assert " at at " not in err


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_in_a_position_file_are_not_json(constant: str, tmp_path: Path) -> None:
    # '"x-a": NaN' and '"stock": NaN' are "not valid JSON", as the README says of such a file
    # (not read, nor "got NaN").
    for text in ('{"x-a": ' + constant + ", " + json.dumps(forcing())[1:],
                 json.dumps(forcing()).replace('"dealer": 1', '"dealer": ' + constant, 1)):  # fmt: skip
        assert constant in text
        path = tmp_path / "p.json"
        path.write_text(text)
        code, _, err = run("analyze", str(path))
        assert code == 1 and one_error_line(err) and "p.json' is not valid JSON" in err, err
        assert f"{constant.lstrip('-')} is not a JSON number" in err
        with pytest.raises(PositionError, match="standard JSON has no NaN or Infinity"):
            parse_json(text, "x")


# Each numeric field of a position as json.dumps writes it in forcing(), with the path its error
# names; the value is put where the number was.
NUMERIC_FIELDS = [
    ("dealer", '"dealer": 1', '"dealer": {}'),
    ("to_act", '"to_act": 1', '"to_act": {}'),
    ("stock", '"stock": 18', '"stock": {}'),
    ("centre.source", '"source": 0', '"source": {}'),
    ("centre.declined[0]", '"declined": [0]', '"declined": [{}]'),
    ("players[0].hand", '"hand": ["KH", "KS"]', '"hand": {}'),
    ("rules.max_run", '"variant": "classic"', '"variant": "classic", "rules": {{"max_run": {}}}'),
    ("rules.hand_size", '"variant": "classic"', '"variant": "classic", "rules": {{"hand_size": {}}}'),
    ("rules.players", '"variant": "classic"', '"variant": "classic", "rules": {{"players": {}}}'),
]


def with_number(field: str, number: str) -> str:
    """forcing() as JSON text with ``number``, as written, in ``field`` (:data:`NUMERIC_FIELDS`)."""
    _, old, new = next(f for f in NUMERIC_FIELDS if f[0] == field)
    text = json.dumps(forcing())
    assert text.count(old) == 1, old
    return text.replace(old, new.format(number))


@pytest.mark.parametrize("field", [f[0] for f in NUMERIC_FIELDS])
@pytest.mark.parametrize("number", ["1e400", "-1e400", "1" + "0" * 400 + ".5"])
def test_a_number_too_large_for_a_double_is_named_as_written_with_its_key(
    field: str, number: str, tmp_path: Path
) -> None:
    # 1e400 reads as an infinity: the message names the key and the text written, not
    # "Infinity", which the file does not hold (and standard JSON does not have).
    text = with_number(field, number)
    path = tmp_path / "p.json"
    path.write_text(text)
    for args, stdin in ((("hint", str(path), "--static"), None), (("solve", "-"), text)):
        code, out, err = run(*args, input=stdin)
        assert code == 1 and out == "" and one_error_line(err), err
        assert f"error: {field} must be " in err and f"got {number[:30]}" in err, err
        assert "Infinity" not in err and "inf" not in err.split("got ")[-1], err
    reply, _ = answer(json.dumps({"id": 1, "cmd": "hint", "static": True})[:-1] + ', "position": ' + text + "}")
    assert reply["ok"] is False and reply["field"] == "position", reply
    assert f"position: {field} must be " in reply["error"] and f"got {number[:30]}" in reply["error"]


def test_an_engine_field_too_large_for_a_double_is_named_as_written() -> None:
    position = json.dumps(forcing())
    for key, written in (("samples", "1e400"), ("seed", "-1e400"), ("time_limit", "-1e400")):
        reply, _ = answer('{"id": 1, "cmd": "hint", "position": ' + position + f', "{key}": {written}}}')
        assert reply["ok"] is False and reply["field"] == key, reply
        assert reply["error"].startswith(f"'{key}' must be ") and reply["error"].endswith(f"got {written}")


def test_json_nested_too_deeply_is_named_as_such_not_as_invalid(tmp_path: Path) -> None:
    # Valid JSON nested ~1,000 deep is too deep to read, not "not valid JSON".
    deep = "[" * 5000 + "]" * 5000
    position = tmp_path / "deep.json"
    position.write_text('{"variant": "classic", "x-note": ' + deep + "}")
    code, out, err = run("show", str(position))
    assert code == 1 and out == "" and one_error_line(err)
    assert "nested too deeply to read" in err and "not valid JSON" not in err and "deep.json" in err
    with pytest.raises(PositionError, match="nested too deeply") as caught:
        parse_json(position.read_text(), "deep.json")
    assert "not valid JSON" not in str(caught.value)
    record = tmp_path / "deep.jsonl"
    record.write_text(deep + "\n")
    code, out, err = run("replay", str(record))
    assert code == 1 and one_error_line(err) and "line 1: nested too deeply" in err
    assert "not valid JSON" not in err
