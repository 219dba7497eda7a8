"""Regression tests for bad input found by a fresh user: one line, the right exit code, no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT
from typer.testing import CliRunner

from analyzer.errors import PositionError
from analyzer.position import load_position
from analyzer.records import RecordError, replay_lines
from cli.main import app, main

runner = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def forcing() -> dict:
    return json.loads((EXAMPLES / "forcing.json").read_text())


def test_deeply_nested_json_is_one_line() -> None:
    deep = "[" * 3000 + "]" * 3000
    for command in ("hint", "analyze", "replay"):
        code, out, err = run(command, "-", input=deep)
        assert code == 1 and "Traceback" not in out + err
        assert len(err.strip().splitlines()) == 1


def test_markup_in_a_path_is_printed_as_is(tmp_path: Path) -> None:
    folder = tmp_path / "["
    folder.mkdir()
    path = folder / "]x [draft].json"
    path.write_text((EXAMPLES / "forcing.json").read_text())
    code, out, _ = run("analyze", str(path))
    assert code == 0 and "[/]x [draft].json" in out.replace("\n", "")


def test_directory_and_binary_inputs(tmp_path: Path) -> None:
    code, _, err = run("hint", str(tmp_path))
    assert code == 2 and "is a directory" in err
    binary = tmp_path / "b.json"
    binary.write_bytes(b"\xff\xfe\x00")
    for command in ("hint", "analyze", "replay"):
        code, _, err = run(command, str(binary))
        assert code == 1 and "not UTF-8" in err


def test_position_labels_must_be_known_and_not_mixed() -> None:
    data = forcing()
    data["labels"] = "german"
    with pytest.raises(PositionError, match="labels"):
        load_position(data)
    mixed = {
        "variant": "megajogos",
        "dealer": 2,
        "players": [{"hand": ["AS", "2S", "3S", "4S"], "layout": [["5C", "6C", "7C", "JC"]]},
                    {"hand": 8, "layout": []}, {"hand": 8, "layout": []}],
        "stock": 16,
        "centre": None,
    }
    with pytest.raises(PositionError, match="ambiguous card: '5C'"):
        load_position(mixed)


def test_exchange_choice_must_be_in_the_hand() -> None:
    data = {
        "variant": "megajogos",
        "dealer": 2,
        "players": [{"hand": ["1e", "2e", "3e", "4e", "5e", "6e", "7e", "10e"], "layout": []},
                    {"hand": ["1o", "2o", "3o", "4o", "5o", "6o", "7o", "10o"], "layout": []},
                    {"hand": 8, "layout": []}],
        "stock": 16,
        "exchange": {"chosen": ["1o", None, None]},
    }
    with pytest.raises(PositionError, match="not in his hand"):
        load_position(data)
    data["exchange"] = None
    data["players"][0]["gave"] = "1e"
    data["stock"] = 15
    data["centre"] = {"card": "11b", "kind": "turned", "source": 0, "declined": []}
    with pytest.raises(PositionError, match="still in his hand"):
        load_position(data)


def test_replay_checks_header_numbers_and_result() -> None:
    lines = (ROOT / "tests" / "golden" / "classic-1.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    for change, needle in (({"version": 2}, "version"), ({"variant": "megajogos"}, "variant")):
        bad = [json.dumps({**header, **change}), *lines[1:]]
        with pytest.raises(RecordError, match=needle):
            replay_lines(bad)
    jumped = list(lines)
    entry = json.loads(jumped[2])
    entry["n"] = 7
    jumped[2] = json.dumps(entry)
    with pytest.raises(RecordError, match="move number 7 should be 2"):
        replay_lines(jumped)
    result = json.loads(lines[-1])
    result["moves"] = 5
    with pytest.raises(RecordError, match="says 5 moves"):
        replay_lines([*lines[:-1], json.dumps(result)])


def test_json_errors_for_validating_commands(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    data = forcing()
    data["stock"] = 19
    path.write_text(json.dumps(data))
    code, out, _ = run("analyze", str(path), "--json")
    assert code == 1 and json.loads(out)["valid"] is False and "41" in json.loads(out)["error"]
    # The flag does not leak into the next command.
    code, out, _ = run("hint", str(path), "--static")
    assert code == 1 and out == ""


def test_records_directory_rules(tmp_path: Path) -> None:
    code, _, err = run("simulate", "--games", "1", "--records", "")
    assert code == 2 and "--records" in err
    target = tmp_path / "recs"
    assert run("simulate", "--games", "2", "--records", str(target))[0] == 0
    before = (target / "game-000000.jsonl").read_text()
    code, _, err = run("simulate", "--games", "2", "--records", str(target), "--seed", "5")
    assert code == 2 and "already holds" in err
    assert (target / "game-000000.jsonl").read_text() == before


def test_play_record_checked_before_playing(tmp_path: Path) -> None:
    code, out, err = run("play", "--record", str(tmp_path), input="1\n")
    assert code == 2 and "is a directory" in err and "your move" not in out
    code, _, err = run("play", "--record", str(tmp_path / "no" / "x.jsonl"))
    assert code == 2 and "no directory" in err


def test_play_records_seed_and_players(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    code, _, _ = run("play", "--seed", "2", "--record", str(path), input="1\n" * 300)
    header = json.loads(path.read_text().splitlines()[0])
    assert code == 0 and header["seed"] == 2 and header["players"] == ["human", "greedy"]


def test_play_hides_the_exchange() -> None:
    code, out, _ = run("play", "--variant", "megajogos", "--seed", "5", "--seat", "2", input="1\nquit\n")
    assert "(greedy): give" not in out  # the bots' passes stay face down (R9)
    assert "has chosen a card to pass" in out


def test_simulate_default_bots_fit_the_variant() -> None:
    code, out, _ = run("simulate", "--variant", "megajogos", "--games", "2", "--json")
    assert code == 0 and json.loads(out)["bots"] == ["greedy", "random", "random"]


def test_melds_empty_and_mixed() -> None:
    code, _, err = run("melds", "")
    assert code == 2 and "no cards" in err
    code, _, err = run("melds", "JC QC KC 7H 7S 7D", "--variant", "megajogos", "--must", "7C")
    assert code == 2 and "ambiguous card: '7C'" in err


def test_long_move_text_is_clipped() -> None:
    from analyzer.errors import IllegalMoveError
    from analyzer.moves import parse_move

    with pytest.raises(IllegalMoveError) as info:
        parse_move("take [" + "AS " * 50_000 + "] out")
    assert len(str(info.value)) < 300


def test_hint_top_applies_to_json_and_scores_are_floats() -> None:
    code, out, _ = run("hint", str(EXAMPLES / "example4-rearrangement.json"), "--static", "--top", "1", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["moves"]) == 1
    code, out, _ = run("hint", str(EXAMPLES / "example6-going-out.json"), "--static", "--json")
    assert all(isinstance(m["score"], float) for m in json.loads(out)["moves"])


def test_usage_errors_are_one_line_through_the_console_entry_point() -> None:
    for args in (["melds"], ["simulate", "--games", "0"], ["nocmd"], ["melds", "AS", "--bogus"]):
        proc = subprocess.run(
            [sys.executable, "-c", "import sys; from cli.main import main; sys.exit(main())", *args],
            capture_output=True, text=True, timeout=120,
        )
        assert proc.returncode == 2, (args, proc.stderr)
        assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert main(["variants", "--json"]) == 0
