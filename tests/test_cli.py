"""The conquian CLI through typer's CliRunner: exit codes, one-line errors and JSON keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import EXAMPLES
from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_hint_default_position_human() -> None:
    code, out, _ = run("hint", "--samples", "6")
    assert code == 0
    assert "sampled deals" in out and "Best move: " in out


def test_hint_sampled_json_keys_and_seed() -> None:
    code, out, _ = run("hint", "--json", "--samples", "8", "--seed", "3", "--time-limit", "30")
    data = json.loads(out)
    assert code == 0 and data["to_act"] == 1 and data["evaluation"] == "sampled" and data["samples"] == 8
    assert {m["move"] for m in data["moves"]} == {"force 0", "pass"}
    for move in data["moves"]:
        assert set(move) >= {"move", "score", "reasons", "win", "draw", "loss", "ci95"}
        assert abs(move["win"] + move["draw"] + move["loss"] - 1) < 1e-6
        low, high = move["ci95"]
        assert 0 <= low <= high <= 1
    scores = [m["score"] for m in data["moves"]]
    assert scores == sorted(scores, reverse=True)
    again = json.loads(run("hint", "--json", "--samples", "8", "--seed", "3", "--time-limit", "30")[1])
    assert [(m["move"], m["win"]) for m in again["moves"]] == [(m["move"], m["win"]) for m in data["moves"]]


def test_hint_static_json_keys() -> None:
    code, out, _ = run("hint", "--static", "--json")
    data = json.loads(out)
    assert code == 0 and data["to_act"] == 1
    assert [m["move"] for m in data["moves"]] == ["force 0", "pass"]
    for move in data["moves"]:
        assert set(move) >= {"move", "score", "reasons"}
        assert isinstance(move["score"], (int, float)) and move["reasons"]
    assert data["moves"][0]["score"] > data["moves"][1]["score"]


def test_hint_reads_stdin() -> None:
    text = (EXAMPLES / "example6-going-out.json").read_text()
    code, out, _ = run("hint", "-", "--json", "--samples", "4", input=text)
    assert code == 0 and json.loads(out)["moves"][0]["move"].endswith("out")
    assert json.loads(out)["moves"][0]["win"] == 1.0


def test_melds_json() -> None:
    code, out, _ = run("melds", "5H", "6H", "7H", "JH", "JS", "JD", "KC", "--must", "5H 6H 7H JH", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["feasible"] is True and data["melded"] == 6
    assert sorted(map(sorted, data["melds"])) == [["5H", "6H", "7H"], ["JD", "JH", "JS"]]
    assert data["unmelded"] == ["KC"]


def test_melds_infeasible_is_a_result() -> None:
    code, out, _ = run("melds", "QC", "KC", "AC", "--must", "QC KC AC", "--json")
    data = json.loads(out)
    assert code == 0 and data["feasible"] is False and data["melds"] == []


def test_melds_spanish_and_variant() -> None:
    code, out, _ = run("melds", "10o 11o 12o 1c", "--variant", "megajogos", "--json")
    data = json.loads(out)
    assert code == 0 and data["melds"] == [["10o", "11o", "12o"]] and data["unmelded"] == ["1c"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("melds", "AS", "2S", "9S"), "'9S'"),
        (("melds", "AS", "AS", "2S"), "duplicate card: 'AS'"),
        (("melds", "AS", "--variant", "gin"), "unknown variant: 'gin'"),
        (("melds", "AS", "2S", "3S", "--must", "4S"), "4S"),
        (("hint", "no-such-file.json"), "no such position file"),
    ],
)
def test_usage_errors_exit_2_with_one_line(args: tuple[str, ...], needle: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert needle in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err + out


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("{not json", "not valid JSON"),
        ('{"variant": "classic", "players": []}', "must list 2 players"),
        ((EXAMPLES / "example7-impossible-take.json").read_text(), "R7"),
        ((EXAMPLES / "forcing.json").read_text().replace('"stock": 18', '"stock": 19'), "add up to 41"),
        ((EXAMPLES / "forcing.json").read_text().replace('"7D"', '"KH"'), "duplicate card: 'KH'"),
    ],
)
def test_domain_errors_exit_1_with_one_line(tmp_path: Path, text: str, needle: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(text)
    for command in ("hint", "analyze"):
        code, out, err = run(command, str(path))
        assert code == 1, (command, err)
        assert needle in err and len(err.strip().splitlines()) == 1
        assert "Traceback" not in err + out
    assert path.read_text() == text  # nothing the user had is changed


def test_analyze_json() -> None:
    code, out, _ = run("analyze", str(EXAMPLES / "forcing.json"), "--json")
    data = json.loads(out)
    assert code == 0 and data["valid"] is True
    p0, p1 = data["players"]
    assert p0["melded"] == 8 and sorted(p0["outs"]) == ["KC", "KD"]
    # The centre card 5C counts; 3S, in player 1's hand, can never be forced on player 0 (R11, R14).
    assert sorted(p0["forceable"]) == ["5C", "JS"]
    assert p1["melded"] == 0 and p1["outs"] == [] and p1["forceable"] == []


def test_analyze_hidden_hand_has_null_outs(tmp_path: Path) -> None:
    data = json.loads((EXAMPLES / "forcing.json").read_text())
    data["players"][1]["hand"] = 10
    path = tmp_path / "hidden.json"
    path.write_text(json.dumps(data))
    code, out, _ = run("analyze", str(path), "--json")
    assert code == 0 and json.loads(out)["players"][1]["outs"] is None
    # A hint needs the hand of the player to act.
    code, _, err = run("hint", str(path))
    assert code == 1 and "hidden" in err


def test_variants_json() -> None:
    code, out, _ = run("variants", "--json")
    names = {v["name"]: v for v in json.loads(out)["variants"]}
    assert code == 0 and set(names) == {"classic", "megajogos"}
    assert names["classic"]["target"] == 11 and names["megajogos"]["target"] == 9
    assert names["megajogos"]["force_when"] == "any_offer"


def test_simulate_json(tmp_path: Path) -> None:
    code, out, _ = run(
        "simulate", "--games", "6", "--bots", "greedy,random", "--seed", "2", "--json",
        "--records", str(tmp_path / "recs"),
    )
    data = json.loads(out)
    assert code == 0 and data["games"] == 6 and len(data["wins"]) == 2
    assert sum(data["wins"]) + data["draws"] == 6
    files = sorted((tmp_path / "recs").glob("*.jsonl"))
    assert len(files) == 6
    code, out, _ = run("replay", str(files[0]), "--json")
    assert code == 0 and json.loads(out)["finished"] is True


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("simulate", "--bots", "greedy,deepblue"), "unknown bot: 'deepblue'"),
        (("simulate", "--bots", "greedy,random,random"), "2 seats"),
        (("simulate", "--variant", "poker"), "unknown variant"),
        (("replay", "missing.jsonl"), "no such record file"),
        (("play", "--seat", "5"), "--seat"),
    ],
)
def test_more_usage_errors(args: tuple[str, ...], needle: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and needle in err and "Traceback" not in out + err


def test_replay_reports_illegal_move(tmp_path: Path) -> None:
    from conftest import ROOT

    lines = (ROOT / "tests" / "golden" / "classic-1.jsonl").read_text().splitlines()
    entry = json.loads(lines[4])
    entry["move"] = "take [AS 2S 3S] out"
    lines[4] = json.dumps(entry)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines))
    code, _, err = run("replay", str(path))
    assert code == 1 and "line 5 (move 4)" in err and "take [AS 2S 3S] out" in err


def test_play_refuses_bad_moves_and_prompts_again() -> None:
    code, out, _ = run("play", "--seed", "4", input="foo\n999\ntake [AS 2S 3S] out\nhint\nquit\n")
    assert "Not a move" in out or "not a move" in out
    assert "No move number 999" in out and "Illegal here" in out
    assert out.count("your move>") >= 5 and "Game abandoned" in out
    assert code == 0  # quitting is the player's choice, not an error


def test_play_to_the_end_with_record(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    code, out, _ = run("play", "--seed", "4", "--record", str(path), input="1\n" * 200)
    assert code == 0 and ("draw" in out or "won" in out)
    code, out, _ = run("replay", str(path), "--json")
    assert code == 0 and json.loads(out)["finished"] is True


def test_solve_json_keys() -> None:
    from conftest import ROOT

    data = json.loads((ROOT / "examples" / "puzzles" / "classic-win-1.json").read_text())["position"]
    code, out, _ = run("solve", "-", "--json", input=json.dumps(data))
    result = json.loads(out)
    assert code == 0 and set(result) >= {"winner", "proven", "pv", "nodes"}
    assert result["proven"] is True and isinstance(result["pv"], list) and result["nodes"] > 0


def test_solve_unknown_stock_order_gives_probabilities() -> None:
    code, out, _ = run("solve", str(EXAMPLES / "example6-forced-out.json"), "--json", "--budget", "2000")
    result = json.loads(out)
    assert code == 0 and result["proven"] is False
    probs = result["probabilities"]
    assert set(probs) == {"0", "1", "draw"} and abs(sum(probs.values()) - 1) < 1e-9


def test_solve_needs_every_hand(tmp_path: Path) -> None:
    data = json.loads((EXAMPLES / "forcing.json").read_text())
    data["players"][0]["hand"] = 2
    path = tmp_path / "hidden.json"
    path.write_text(json.dumps(data))
    code, _, err = run("solve", str(path))
    assert code == 1 and "hidden" in err


def test_tree_export_and_bad_format(tmp_path: Path) -> None:
    out_file = tmp_path / "t.graphml"
    code, out, _ = run("tree", str(EXAMPLES / "example4-rearrangement.json"), "--depth", "2",
                       "--no-values", "--export", str(out_file), "--json")
    data = json.loads(out)
    assert code == 0 and out_file.exists() and data["nodes"] > 1 and data["export"]["format"] == "graphml"
    code, _, err = run("tree", str(EXAMPLES / "forcing.json"), "--export", str(tmp_path / "t.png"))
    assert code == 2 and ".graphml" in err


def test_puzzle_command(tmp_path: Path) -> None:
    from conftest import ROOT

    path = ROOT / "examples" / "puzzles" / "classic-best-pay-1.json"
    code, out, _ = run("puzzle", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["correct"] is True and data["answer"]["proven"] is True
    wrong = json.loads(path.read_text())
    wrong["answer"]["pays"] = ["KS"]
    bad = tmp_path / "wrong.json"
    bad.write_text(json.dumps(wrong))
    code, out, _ = run("puzzle", str(bad))
    assert code == 1 and "WRONG" in out


def test_why_command() -> None:
    code, out, _ = run("why", str(EXAMPLES / "forcing.json"), "take", "--json")
    data = json.loads(out)
    assert code == 0 and data["legal"] is False and "5C must be melded (R13)" in data["facts"]
    code, out, _ = run("why", str(EXAMPLES / "forcing.json"), "force 0", "--json", "--samples", "4")
    data = json.loads(out)
    assert code == 0 and data["legal"] is True and data["comparison"]["of"] == 2
    code, _, err = run("why", str(EXAMPLES / "forcing.json"), "dance")
    assert code == 2 and "not a move" in err
