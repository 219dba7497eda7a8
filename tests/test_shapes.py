"""The shape of the JSON files, checked before labels and rules: known keys at every level (with
the nearest known key), JSON types, notes; and the JSON Schemas published in docs/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from cli_run import example, forcing, one_error_line, run
from conftest import EXAMPLES, ROOT

from analyzer.core.errors import PositionError
from analyzer.formats.position import load_position
from analyzer.analysis.puzzles import load_puzzle
from analyzer.formats.shapes import KINDS, json_schema, schema_text
from cli.engine import answer

PUZZLES = sorted((ROOT / "examples" / "puzzles").glob("*.json"))
POSITIONS = [p for p in sorted(EXAMPLES.glob("*.json")) if json.loads(p.read_text()).get("type") != "melds"]
MELD_FILES = [p for p in sorted(EXAMPLES.glob("*.json")) if json.loads(p.read_text()).get("type") == "melds"]
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.jsonl"))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(toAct=d.pop("to_act")), "unknown key 'toAct'; did you mean 'to_act'?"),
        (lambda d: d["centre"].update(passed=d["centre"].pop("declined")),
         "unknown key 'passed' in centre; did you mean 'declined'?"),
        (lambda d: d["players"][0].update(hnd=d["players"][0].pop("hand")),
         "unknown key 'hnd' in players[0]; did you mean 'hand'?"),
        (lambda d: d.update(Variant=d.pop("variant")), "unknown key 'Variant'; did you mean 'variant'?"),
        (lambda d: d.update(zzz=1), "unknown key 'zzz' (known: centre, dead, dealer"),
    ],
    ids=["toAct", "passed", "hnd", "Variant", "zzz"],
)
def test_unknown_keys_are_refused_with_the_nearest_known_key(change: Any, message: str) -> None:
    # A misspelt key is not silently ignored, which would analyse a different position.
    data = forcing()
    change(data)
    with pytest.raises(PositionError) as info:
        load_position(data)
    assert str(info.value).startswith(message)
    code, out, err = run("analyze", "-", input=json.dumps(data))
    assert code == 1 and one_error_line(err) and message in err and out == ""


def test_notes_have_documented_places() -> None:
    data = forcing()
    data["description"] = "a note"
    data["expected"] = {"anything": [1, 2]}
    data["rule"] = "R14"
    data["x-source"] = "my club, 1999"
    data["players"][0]["x-who"] = "grandmother"
    data["centre"]["x-when"] = "round 3"
    assert load_position(data) == load_position(forcing())


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"variant": "megajogos", "players": 3}, "players must be a list, got 3"),
        ({"variant": "megajogos", "players": [{"hand": 8, "layout": True}, {}, {}]},
         "players[0].layout must be a list, got true"),
        ({"players": [{"hand": True}, {}]}, "players[0].hand must be a list of cards or"),
        ({"players": [{"hand": ["AS", 3]}, {}]}, "players[0].hand[1] must be a card"),
        ({"players": [], "dealer": "1"}, 'dealer must be a whole number, got "1"'),
        ({"players": [], "centre": {"card": "5C"}}, "missing key 'source' in centre"),
        ([1, 2], "a position must be a JSON object"),
        ({"players": [], "stock": True}, "stock must be a list of cards or"),
        # null only where the format says so (centre): an optional key is left out, not null.
        ({"players": [], "labels": None}, "labels must not be null"),
        ({"players": [], "dealer": None}, "dealer must not be null"),
        ({"players": [], "stock": None}, "stock must not be null"),
        ({"players": [{"hand": [], "gave": None}]}, "players[0].gave must not be null"),
    ],
)
def test_shape_is_checked_before_labels_and_rules(data: Any, message: str) -> None:
    # {"variant": "megajogos", "players": 3} is refused by shape, before the label check.
    with pytest.raises(PositionError) as info:
        load_position(data)
    assert message in str(info.value)
    for command in ("analyze", "hint", "why", "solve", "tree"):
        extra = ["pass"] if command == "why" else []
        code, out, err = run(command, "-", *extra, input=json.dumps(data))
        assert code == 1 and one_error_line(err) and message in err, (command, err)
        assert "Traceback" not in out


def test_messages_quote_json_values_not_python() -> None:
    data = forcing()
    data["players"][1]["hand"] = None
    with pytest.raises(PositionError) as info:
        load_position(data)
    assert "must not be null" in str(info.value) and "None" not in str(info.value)
    data["players"][1]["hand"] = True
    with pytest.raises(PositionError) as info:
        load_position(data)
    assert "got true" in str(info.value) and "True" not in str(info.value)


def test_puzzles_refuse_unknown_keys() -> None:
    data = json.loads(PUZZLES[0].read_text())
    data["questoin"] = data.pop("question")
    with pytest.raises(PositionError, match="unknown key 'questoin'; did you mean 'question'"):
        load_puzzle(data)
    data = json.loads(PUZZLES[0].read_text())
    data["position"]["players"][0]["layuot"] = data["position"]["players"][0].pop("layout")
    with pytest.raises(PositionError, match=r"in position.players\[0\]; did you mean 'layout'"):
        load_puzzle(data)


def test_meld_query_files_refuse_unknown_keys(tmp_path: Path) -> None:
    data = json.loads(MELD_FILES[0].read_text())
    data["queries"][0]["expect"] = data["queries"][0].pop("expected")
    path = tmp_path / "q.json"
    path.write_text(json.dumps(data))
    code, _, err = run("melds", "--file", str(path))
    assert code == 1 and "unknown key 'expect' in queries[0]; did you mean 'expected'" in err


# --- analyze on a meld query file, and melds --file -----------------------------------------------


@pytest.mark.parametrize("path", MELD_FILES, ids=lambda p: p.name)
def test_meld_query_files_are_answered_by_melds(path: Path) -> None:
    # analyze says "see 'conquian melds --file'", and melds reads the file.
    code, _, err = run("analyze", str(path))
    assert code == 1 and "conquian melds --file" in err
    code, out, err = run("melds", "--file", str(path), "--json")
    data = json.loads(out)
    assert code == 0, err
    assert data["wrong"] == 0 and all(q["correct"] for q in data["queries"])


def test_melds_file_reports_a_wrong_expected_answer(tmp_path: Path) -> None:
    data = json.loads(MELD_FILES[0].read_text())
    data["queries"][0]["expected"]["is_meld"] = not data["queries"][0]["expected"]["is_meld"]
    path = tmp_path / "q.json"
    path.write_text(json.dumps(data))
    code, out, _ = run("melds", "--file", str(path))
    assert code == 1 and "WRONG" in out and "True" not in out and "False" not in out


# --- published JSON Schemas ------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(KINDS))
def test_published_schema_is_the_generated_one(kind: str) -> None:
    published = ROOT / "docs" / f"{kind}.schema.json"
    assert published.read_text(encoding="utf-8") == schema_text(kind), (
        "regenerate with: python -c \"from analyzer.formats.shapes import write_schemas; "
        "write_schemas('docs')\""
    )


def _validator(kind: str) -> jsonschema.Draft202012Validator:
    schema = json_schema(kind)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_every_example_file_fits_its_published_schema() -> None:
    position, puzzle, record, melds = (_validator(k) for k in ("position", "puzzle", "record", "melds"))
    for path in POSITIONS:
        position.validate(json.loads(path.read_text()))
    for path in PUZZLES:
        puzzle.validate(json.loads(path.read_text()))
    for path in MELD_FILES:
        melds.validate(json.loads(path.read_text()))
    for path in GOLDEN:
        for line in path.read_text().splitlines():
            record.validate(json.loads(line))


def test_the_schema_refuses_what_loading_refuses() -> None:
    position = _validator("position")
    data = forcing()
    data["toAct"] = data.pop("to_act")
    assert not position.is_valid(data)
    data = forcing()
    data["x-note"] = "fine"
    assert position.is_valid(data) and position.is_valid(example("forcing.json"))
    # The schemas refuse what the commands refuse: a meld query file without queries and a
    # puzzle title with a control character.
    melds = _validator("melds")
    assert melds.is_valid(json.loads(MELD_FILES[0].read_text()))
    assert not melds.is_valid({"type": "melds", "queries": []})
    puzzle = _validator("puzzle")
    data = json.loads(PUZZLES[0].read_text())
    assert puzzle.is_valid({**data, "title": "Player 0 to win, é"})
    assert not puzzle.is_valid({**data, "title": "T\u001b[2J"})


READERS: list[tuple[str, list[str], str]] = [
    ("analyze", ["analyze", "-"], "position"),
    ("hint", ["hint", "-", "--static"], "position"),
    ("why", ["why", "-", "pass"], "position"),
    ("solve", ["solve", "-"], "position"),
    ("tree", ["tree", "-", "--depth", "1"], "position"),
    ("puzzle", ["puzzle", "-"], "puzzle"),
    ("replay", ["replay", "-"], "record"),
    ("review", ["review", "-", "--samples", "1"], "record"),
    ("show", ["show", "-"], "position"),
    ("notation", ["notation", "-"], "position"),
    ("melds --file", ["melds", "--file", "-"], "melds"),
]  # fmt: skip


def _misspelt(kind: str) -> tuple[str, str]:
    """A file of ``kind`` with one key misspelt, and the message naming it."""
    if kind == "position":
        data = forcing()
        data["toAct"] = data.pop("to_act")
        return json.dumps(data), "unknown key 'toAct'; did you mean 'to_act'?"
    if kind == "puzzle":
        data = json.loads(PUZZLES[0].read_text())
        data["position"]["centre"]["passed"] = data["position"]["centre"].pop("declined")
        return json.dumps(data), "unknown key 'passed' in position.centre; did you mean 'declined'?"
    if kind == "record":
        lines = GOLDEN[0].read_text().splitlines()
        entry = json.loads(lines[1])
        entry["mvoe"] = entry.pop("move")
        return "\n".join([lines[0], json.dumps(entry), *lines[2:]]), "did you mean 'move'?"
    data = json.loads(MELD_FILES[0].read_text())
    data["querys"] = data.pop("queries")
    return json.dumps(data), "unknown key 'querys'; did you mean 'queries'?"


@pytest.mark.parametrize(("name", "args", "kind"), READERS, ids=[r[0] for r in READERS])
def test_every_command_refuses_unknown_keys(name: str, args: list[str], kind: str) -> None:
    text, message = _misspelt(kind)
    code, _, err = run(*args, input=text)
    assert code == 1 and one_error_line(err) and message in err, err


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('{"type": "melds", "queries": [{"cards": "AS 2S 3S"}, {"cards": "AS 2S 3S", "variant": "foo"}]}',
         "queries[1].variant: unknown variant: 'foo'"),
        ('{"type": "melds", "variant": "foo", "queries": [{"cards": "AS 2S 3S"}]}', "variant: unknown variant: 'foo'"),
    ],
)
def test_an_unknown_variant_in_a_meld_query_file_is_named_where_it_is(text: str, needle: str) -> None:
    # "unknown variant: 'foo'" says which query.
    code, out, err = run("melds", "--file", "-", input=text)
    assert code == 1 and one_error_line(err) and f"error: {needle}" in err and out == ""


def test_a_meld_query_file_without_queries_is_refused() -> None:
    code, out, err = run("melds", "--file", "-", input='{"type": "melds", "queries": []}')
    assert code == 1 and one_error_line(err) and "no queries" in err and out == ""
    code, _, err = run("melds", "AS", "--file", "-", input="{}")
    assert code == 2 and "not both" in err


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        ({"stok": 3}, "unknown key 'stok' beside 'position': the keys of a position go inside it; did you mean 'position.stock'?"),
        ({"variant": "megajogos"}, "unknown key 'variant' beside 'position'"),
        # A history key beside 'position' is pointed inside it, not given the wrapper's keys.
        ({"paid": ["KH"]}, "unknown key 'paid' beside 'position': the keys of a position go inside it; did you mean 'position.players[i].paid'?"),
        ({"notaton": "x"}, "unknown key 'notaton'; did you mean 'notation'?"),
        ({"zzz": 1}, "unknown key 'zzz' (known: description, notation, position"),
        ({"notation": 5}, "notation must be a text, got 5"),
        # One unknown word is an unknown variant, not "missing field 'labels'".
        ({"notation": "garbage"}, "notation: notation field 'variant' at column 1: unknown variant 'garbage'"),
    ],
)
def test_a_wrapper_object_refuses_unknown_keys(extra: dict[str, Any], needle: str) -> None:
    # {"position": {...}, "variant": "megajogos", "stok": 3} is not read as the position alone
    # with the other keys silently dropped.
    wrapped = {"position": forcing(), **extra}
    code, _, err = run("analyze", "-", input=json.dumps(wrapped))
    assert code == 1 and one_error_line(err) and needle in err, err
    reply, _ = answer(json.dumps({"id": 1, "cmd": "analyze", "position": wrapped}))
    assert reply["ok"] is False and reply["field"] == "position" and needle in reply["error"]


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (lambda p: p.update(to_atc=p.pop("to_act")), "unknown key 'to_atc' in position; did you mean 'to_act'?"),
        (lambda p: p["players"][0].update(hnd=p["players"][0].pop("hand")), "unknown key 'hnd' in position.players[0]; did you mean 'hand'?"),
        (lambda p: p.update(dealer="1"), "position.dealer"),
    ],
)
def test_a_mistake_inside_a_wrapped_position_names_its_path(change: Any, needle: str) -> None:
    # A misspelt key inside a wrapper's position is named with its path, 'position.'.
    position = forcing()
    change(position)
    wrapped = {"position": position, "description": "d"}
    code, _, err = run("analyze", "-", input=json.dumps(wrapped))
    assert code == 1 and one_error_line(err) and needle in err, err
    reply, _ = answer(json.dumps({"id": 1, "cmd": "analyze", "position": wrapped}))
    assert reply["ok"] is False and needle in reply["error"]


def test_wrapped_positions_that_are_right_are_read(tmp_path: Path) -> None:
    code, out, _ = run("notation", str(EXAMPLES / "forcing.json"), "--json")
    assert code == 0
    wrapped = json.loads(out)  # notation --json: {"notation": ..., "position": {...}}
    for data in (wrapped, {"position": forcing(), "x-note": 1, "description": "d"}):
        assert run("analyze", "-", input=json.dumps(data))[0] == 0
        reply, _ = answer(json.dumps({"id": 1, "cmd": "analyze", "position": data}))
        assert reply["ok"], reply
    puzzle = ROOT / "examples" / "puzzles" / "classic-win-1.json"
    assert run("analyze", str(puzzle))[0] == 0  # a puzzle file is read from its position
    bad = json.loads(puzzle.read_text())
    bad["titel"] = "x"
    path = tmp_path / "p.json"
    path.write_text(json.dumps(bad))
    code, _, err = run("analyze", str(path))
    assert code == 1 and "unknown key 'titel'; did you mean 'title'?" in err


def test_null_is_accepted_where_the_format_says_so() -> None:
    # centre is "object or null"; notes take any value.
    data = {**forcing(), "description": None, "rule": None}
    assert load_position(data).centre is not None
    data = {"players": [{"hand": 10}, {"hand": 10}], "stock": 20, "centre": None}
    assert load_position(data).centre is None


@pytest.mark.parametrize(
    ("key", "where"),
    [("paid", "players[i].paid"), ("gave", "players[i].gave"), ("hand", "players[i].hand"),
     ("card", "centre.card"), ("Declined", "centre.declined")],
)
def test_a_key_given_one_level_too_high_is_pointed_down(key: str, where: str) -> None:
    # A top-level "paid" is pointed one level down, not given the list of top-level keys.
    data = forcing()
    data[key] = ["KH"]
    with pytest.raises(PositionError) as info:
        load_position(data)
    assert str(info.value) == f"unknown key {key!r}; did you mean {where!r} (it belongs one level down)?"
    # A key that is nowhere keeps the list of the keys known where it stands.
    data = forcing()
    data["players"][0]["declined"] = [0]
    with pytest.raises(PositionError, match=r"unknown key 'declined' in players\[0\] \(known: gave, hand"):
        load_position(data)
