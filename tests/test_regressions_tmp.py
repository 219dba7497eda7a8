"""Regression tests for the second fresh-user round."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import EXAMPLES, ROOT
from typer.testing import CliRunner

from analyzer import parse_move
from analyzer.advisor import advise, candidate_moves
from analyzer.position import load_position, read_position
from analyzer.why import explain
from cli.main import app

runner = CliRunner()
PUZZLES = ROOT / "examples" / "puzzles"


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_jobs_are_capped() -> None:
    code, out, _ = run("simulate", "--games", "2", "--jobs", "64", "--json")
    assert code == 0 and json.loads(out)["games"] == 2
    code, _, err = run("simulate", "--games", "2", "--jobs", "100000")
    assert code == 2 and "--jobs" in err


def test_outputs_never_overwrite_without_force(tmp_path: Path) -> None:
    position = tmp_path / "p.json"
    position.write_text((EXAMPLES / "example4-rearrangement.json").read_text())
    code, _, err = run("tree", str(position), "--depth", "1", "--export", str(position))
    assert code == 2 and "overwrite the input" in err
    target = tmp_path / "t.json"
    target.write_text("keep me")
    code, _, err = run("tree", str(position), "--depth", "1", "--no-values", "--export", str(target))
    assert code == 2 and "--force" in err and target.read_text() == "keep me"
    code, _, _ = run("tree", str(position), "--depth", "1", "--no-values", "--export", str(target), "--force")
    assert code == 0 and "nodes" in target.read_text()
    code, _, err = run("tree", str(position), "--export", str(tmp_path / "no" / "t.json"))
    assert code == 2 and "no directory" in err
    code, _, err = run("play", "--record", str(position), input="quit\n")
    assert code == 2 and "--force" in err and "players" in position.read_text()


def test_puzzle_answers_compare_as_moves_and_cards(tmp_path: Path) -> None:
    data = json.loads((PUZZLES / "classic-win-2.json").read_text())
    move = data["answer"]["moves"][0]
    # Same move, melds and cards reordered, lower case, extra spaces.
    verb, rest = move.split(" ", 1)
    melds = rest.split("] pay ")[0].strip("[").split("] [")
    pay = move.split(" pay ")[1]
    shuffled = "take  " + " ".join("[" + " ".join(reversed(m.split())).lower() + "]" for m in reversed(melds)) + f" pay {pay.lower()}"
    data["answer"]["moves"] = [shuffled]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    code, out, _ = run("puzzle", str(path), "--json")
    assert code == 0 and json.loads(out)["correct"] is True


def test_puzzle_not_judged_without_proof_and_bad_answers(tmp_path: Path) -> None:
    code, out, _ = run("puzzle", str(PUZZLES / "classic-win-2.json"), "--budget", "1")
    assert code == 1 and "not checked" in out and "WRONG" not in out
    data = json.loads((PUZZLES / "classic-best-pay-1.json").read_text())
    path = tmp_path / "p.json"
    for answer, needle in (({}, "answer"), ({"foo": 1}, "'foo'"), ({"pays": ["ZZ"]}, "ZZ")):
        path.write_text(json.dumps({**data, "answer": answer}))
        code, _, err = run("puzzle", str(path))
        assert code == 1 and needle in err, err
    path.write_text(json.dumps({**data, "answer": {"pays": data["answer"]["pays"] * 2}}))
    assert run("puzzle", str(path))[0] == 0
    code, _, err = run("puzzle", str(tmp_path))
    assert code == 2 and "directory" in err


def test_exchange_positions_follow_turn_order() -> None:
    base = {
        "variant": "megajogos", "dealer": 2, "stock": 16,
        "players": [{"hand": ["1e", "2e", "3e", "4e", "5e", "6e", "7e", "10e"], "layout": []},
                    {"hand": ["1o", "2o", "3o", "4o", "5o", "6o", "7o", "10o"], "layout": []},
                    {"hand": ["1c", "2c", "3c", "4c", "5c", "6c", "7c", "10c"], "layout": []}],
    }
    assert load_position({**base, "exchange": {"chosen": ["2e", None, None]}}).to_act == 1
    for chosen, needle in (([None, None, "1c"], "player 0 has not chosen"), (["2e", "2o", "1c"], "already done")):
        code, _, err = run("analyze", "-", input=json.dumps({**base, "exchange": {"chosen": chosen}}))
        assert code == 1 and needle in err


def test_why_bare_take_turn_and_forced_out() -> None:
    state = read_position(EXAMPLES / "example4-rearrangement.json")
    result = explain(state, "take")
    assert result.legal and "5H can be taken" in result.facts[0]
    forced = read_position(EXAMPLES / "forcing.json").apply(parse_move("force 0"))
    facts = explain(forced, "lay [AC 2C 3C 4C 5C] [4S 5S 6S 7S] out").facts
    assert len(facts) == 1 and "R14" in facts[0]
    dead = read_position(EXAMPLES / "forcing.json").apply(parse_move("pass"))
    facts = explain(dead, "turn 5C").facts
    assert any("dead card" in f for f in facts)


def test_going_out_ranks_first_and_all_lay_ins_are_candidates() -> None:
    state = read_position(EXAMPLES / "example3-megajogos-nine-card-run.json")
    best = advise(state, samples=4).estimates[0]
    assert best.move.text(state.rules.labels).endswith(" out")
    assert any("goes out" in r for r in best.reasons) and best.static_score > 1000
    forced = read_position(EXAMPLES / "forcing.json").apply(parse_move("force 0"))
    assert len(candidate_moves(forced)) == 2


def test_solve_reports_estimate_and_why_it_stopped() -> None:
    data = json.loads((PUZZLES / "classic-win-2.json").read_text())["position"]
    code, out, _ = run("solve", "-", "--budget", "5", input=json.dumps(data))
    assert code == 0 and "heuristic estimate" in out and "position budget spent" in out
    code, out, _ = run("solve", "-", "--budget", "5", "--json", input=json.dumps(data))
    assert json.loads(out)["stopped_by"] == "positions"


def test_replay_checks_returns_stock_order_and_version() -> None:
    from analyzer.records import RecordError, replay_lines

    lines = (ROOT / "tests" / "golden" / "classic-2.jsonl").read_text().splitlines()
    result = json.loads(lines[-1])
    result["result"]["returns"] = [5, 5]
    try:
        replay_lines([*lines[:-1], json.dumps(result)])
        raise AssertionError("accepted wrong returns")
    except RecordError as exc:
        assert "returns" in str(exc)
    header = json.loads(lines[0])
    for change, needle in (({"version": "1"}, "the number 1"),):
        try:
            replay_lines([json.dumps({**header, **change}), *lines[1:]])
            raise AssertionError("accepted")
        except RecordError as exc:
            assert needle in str(exc)
    header["start"]["stock"] = len(header["start"]["stock"])
    try:
        replay_lines([json.dumps(header), *lines[1:]])
        raise AssertionError("accepted a stock count")
    except RecordError as exc:
        assert "stock cards in order" in str(exc)


def test_files_with_bom_empty_names_and_version(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + (EXAMPLES / "forcing.json").read_bytes())
    assert run("analyze", str(path))[0] == 0
    code, _, err = run("hint", "")
    assert code == 2 and "empty" in err
    code, out, _ = run("--version")
    assert code == 0 and out.startswith("conquian ")


def test_play_shows_turned_cards() -> None:
    code, out, _ = run("play", "--seed", "3", input="quit\n")
    assert code == 0 and " turns " in out


def test_third_round_regressions(tmp_path: Path) -> None:
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from cli.main import main; sys.exit(main())", "variants"],
        stdout=open("/dev/full", "w"), stderr=subprocess.PIPE, text=True, timeout=120,
    )
    assert proc.returncode == 1 and "cannot write the output" in proc.stderr
    assert "Traceback" not in proc.stderr
    # An unproven search names no winner.
    code, out, _ = run("solve", str(EXAMPLES / "example6-forced-out.json"), "--budget", "300", "--json")
    data = json.loads(out)
    assert code == 0 and data["proven"] is False and data["winner"] is None
    # --open with a stock count samples the stock order only.
    code, out, _ = run("hint", str(EXAMPLES / "forcing.json"), "--open", "--samples", "3", "--json")
    assert code == 0 and json.loads(out)["samples"] == 3
    # A puzzle that cannot be proven exits 1 even without a stored answer.
    data = json.loads((PUZZLES / "classic-win-4.json").read_text())
    del data["answer"]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    assert run("puzzle", str(path), "--budget", "1")[0] == 1
    # play keeps the case of its error messages.
    code, out, _ = run("play", "--seed", "3", input="take [9z] out\nquit\n")
    assert "'9z'" in out and "French" in out
