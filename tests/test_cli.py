"""The conquian CLI through typer's CliRunner: exit codes, one-line errors and JSON keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import one_error_line, run
from conftest import EXAMPLES, ROOT

from analyzer.formats.notation import format_notation
from analyzer.formats.sniff import read_position
from analyzer.core.dealing import view

PUZZLES = ROOT / "examples" / "puzzles"


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


def test_analyze_of_a_finished_deal_lists_no_outs(tmp_path: Path) -> None:
    # Once the deal is over (R15, R18) nothing is offered or forced: the table says so instead
    # of listing outs; the JSON keeps its keys.
    code, dealt, _ = run("deal", "--seed", "3", "--after", "32")
    assert code == 0
    path = tmp_path / "over.json"
    path.write_text(dealt)
    code, out, _ = run("analyze", str(path))
    assert code == 0 and "The deal is over" in out
    rows = [line for line in out.splitlines() if line.startswith("│")]
    assert len(rows) == 2 and all(row.count(" - ") == 2 for row in rows)
    code, out, _ = run("analyze", str(path), "--json")
    assert code == 0 and set(json.loads(out)["players"][0]) >= {"outs", "forceable"}
    # The JSON lists no outs or forceable cards where the table shows '-'.
    for text in (
        "classic french 1 0 -[AS,2S,3S,4S][5H,5D,5C][KS,KH,KD,KC]/AH,2H,2C,3H,3C,6C,7D,JD,QD,QC",
        "megajogos french 2 - KS,KH,QD[AS,2S,3S,4S,5S]/3[4D,5D,6D,7D,JD]/8 - "
        "6S,7S,JS,QS,AH,2H,3H,4H,5H,6H,7H,JH,QH,AD,2D,3D -",
    ):
        code, out, _ = run("analyze", text, "--json")
        data = json.loads(out)
        assert code == 0 and data["phase"] == "over"
        assert all(p["outs"] == [] and p["forceable"] == [] for p in data["players"]), data


def test_variants_json() -> None:
    code, out, _ = run("variants", "--json")
    names = {v["name"]: v for v in json.loads(out)["variants"]}
    assert code == 0 and set(names) == {
        "classic", "megajogos", "mexican", "mexican_9_10", "hoyle1897", "cooncan1913"
    }
    assert names["classic"]["target"] == 11 and names["megajogos"]["target"] == 9
    assert names["megajogos"]["force_when"] == "any_offer"
    # The Mexican presets as docs/RULES.md section 4 gives them (PM, WPes, DP).
    assert (names["mexican"]["hand_size"], names["mexican"]["player_counts"]) == (8, [2, 3])
    assert (names["mexican_9_10"]["target"], names["mexican_9_10"]["player_counts"]) == (10, [2, 3, 4])
    assert names["mexican_9_10"]["hand_melds"] and not names["mexican"]["hand_melds"]
    # Foster's games (R10a, R13a, R14a; the tableau, R21).
    hoyle, cooncan = names["hoyle1897"], names["cooncan1913"]
    assert (hoyle["rearrange"], hoyle["discard_force"], hoyle["upcard"]) == ("borrow", True, False)
    assert (cooncan["rearrange"], cooncan["discard_force"], cooncan["upcard"]) == ("own", True, True)
    assert hoyle["stakes"] == cooncan["stakes"] == "tableau"


def test_variants_table_fits_the_terminal_without_breaking_a_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cli_run import run_process

    monkeypatch.setenv("COLUMNS", "80")
    done = run_process("variants")
    out = done.stdout
    assert done.returncode == 0 and max(map(len, out.splitlines())) <= 80
    for value in ("double_after_draw", "fewest_in_hand", "mexican_9_10", "cooncan1913"):
        assert value in out


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


def test_simulate_first_continues_a_run(tmp_path: Path) -> None:
    common = ["--bots", "greedy,random", "--seed", "4", "--rotate", "--json"]
    code, out, _ = run("simulate", "--games", "5", *common, "--records", str(tmp_path / "all"))
    assert code == 0 and json.loads(out)["first"] == 0
    code, out, _ = run("simulate", "--games", "2", "--first", "3", *common, "--records", str(tmp_path / "tail"))
    assert code == 0 and json.loads(out)["first"] == 3 and json.loads(out)["games"] == 2
    tail = sorted(p.name for p in (tmp_path / "tail").glob("*.jsonl"))
    assert tail == ["game-000003.jsonl", "game-000004.jsonl"]
    for name in tail:  # the same deal, seats and moves as in the whole run
        assert (tmp_path / "tail" / name).read_text() == (tmp_path / "all" / name).read_text()
    # A stopped run continues into its own --records directory.
    part = tmp_path / "part"
    code, _, _ = run("simulate", "--games", "3", *common, "--records", str(part))
    assert code == 0
    code, out, _ = run("simulate", "--games", "2", "--first", "3", *common, "--records", str(part))
    assert code == 0 and json.loads(out)["first"] == 3
    for name in (p.name for p in (tmp_path / "all").glob("*.jsonl")):
        assert (part / name).read_text() == (tmp_path / "all" / name).read_text()
    before = {p.name: p.read_text() for p in part.iterdir()}
    code, _, err = run("simulate", "--games", "2", "--first", "4", *common, "--records", str(part))
    assert code == 2 and "already holds game-000004.jsonl" in err
    assert {p.name: p.read_text() for p in part.iterdir()} == before  # nothing overwritten
    code, _, err = run("simulate", "--games", "1", *common, "--records", str(part))
    assert code == 2 and "already holds game records" in err
    # Another run's games are not added to the directory.
    other = ["--bots", "greedy,random", "--seed", "5", "--rotate", "--json"]
    code, _, err = run("simulate", "--games", "1", "--first", "5", *other, "--records", str(part))
    assert code == 2 and "which is not game 0 of this run (classic, seed 5)" in err
    assert {p.name: p.read_text() for p in part.iterdir()} == before
    # A run's later games are not blamed for a file they would not write, and another
    # --bots or --rotate is not added to the directory.
    code, out, _ = run("simulate", "--games", "1", "--first", "7", *common, "--records", str(part))
    assert code == 0  # another part of the run, past the games it holds: game 7
    before = {p.name: p.read_text() for p in part.iterdir()}
    code, _, err = run("simulate", "--games", "1", "--first", "5", *common, "--records", str(part))
    assert code == 0, err  # game 5 between them; game 7 is not this run's to write
    code, _, err = run("simulate", "--games", "3", "--first", "6", *common, "--records", str(part))
    assert code == 2 and "already holds game-000007.jsonl, which this run would write (games 6 to 8)" in err
    for bots in (["--bots", "random,random", "--rotate"], ["--bots", "greedy,random"]):
        code, _, err = run("simulate", "--games", "1", "--first", "8", "--seed", "4", *bots, "--records", str(part))
        assert code == 2 and "but this run seats" in err and "continue a run with its own --bots" in err
    assert {p.name: p.read_text() for p in part.iterdir() if p.name in before} == before
    # A header with a misspelt key is named by its own error, not only "not game K of this run".
    bad = tmp_path / "bad"
    bad.mkdir()
    header, *rest = (part / "game-000000.jsonl").read_text().splitlines(keepends=True)
    (bad / "game-000000.jsonl").write_text(header.replace('"seed"', '"sed"') + "".join(rest))
    code, _, err = run("simulate", "--games", "1", "--first", "1", *common, "--records", str(bad))
    assert code == 2 and "which is not game 0 of this run (classic, seed 4) (unknown key 'sed'; did you mean 'seed'?)" in err
    (bad / "game-000000.jsonl").write_text("[1]\n")
    code, _, err = run("simulate", "--games", "1", "--first", "1", *common, "--records", str(bad))
    assert code == 2 and "(its first line is not a record header)" in err
    (bad / "game-000000.jsonl").unlink()
    (bad / "game-000000.jsonl").mkdir()
    code, _, err = run("simulate", "--games", "1", "--first", "1", *common, "--records", str(bad))
    assert code == 2 and "holds game-000000.jsonl, which is not game 0 of this run (classic, seed 4) (it is a directory)" in err
    code, out, _ = run("simulate", "--games", "1", "--first", "6", "--bots", "greedy,random")
    assert code == 0 and out.startswith("1 classic game, ") and "(game 6 of its series)" in out
    code, _, err = run("simulate", "--first", "-1")
    assert code == 2 and "--first" in err and "Traceback" not in err


def test_replay_reports_illegal_move(tmp_path: Path) -> None:
    lines = (ROOT / "tests" / "golden" / "classic-1.jsonl").read_text().splitlines()
    entry = json.loads(lines[4])
    entry["move"] = "take [AS 2S 3S] out"
    lines[4] = json.dumps(entry)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines))
    code, _, err = run("replay", str(path))
    assert code == 1 and "line 5 (move 4)" in err and "take [AS 2S 3S] out" in err


def test_solve_json_keys() -> None:
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


def test_solve_on_a_view_too_large_says_so_and_names_hint(tmp_path: Path) -> None:
    # Worked example 5 from player 1's view: its endgame has billions of deals (docs/solve.md).
    data = json.loads((EXAMPLES / "forcing.json").read_text())
    data["players"][0]["hand"] = 2
    path = tmp_path / "hidden.json"
    path.write_text(json.dumps(data))
    code, _, err = run("solve", str(path))
    assert code == 1 and "too many to solve exactly" in err and "conquian hint" in err
    # The hand of the player to act hidden: nothing to solve from his view.
    data["players"][0]["hand"] = ["KS", "KH"]
    data["players"][1]["hand"] = 10
    path.write_text(json.dumps(data))
    code, _, err = run("solve", str(path))
    assert code == 1 and "player 1's hand is hidden" in err


def test_tree_export_and_bad_format(tmp_path: Path) -> None:
    out_file = tmp_path / "t.graphml"
    code, out, _ = run("tree", str(EXAMPLES / "example4-rearrangement.json"), "--depth", "2",
                       "--no-values", "--export", str(out_file), "--json")
    data = json.loads(out)
    assert code == 0 and out_file.exists() and data["nodes"] > 1 and data["export"]["format"] == "graphml"
    code, _, err = run("tree", str(EXAMPLES / "forcing.json"), "--export", str(tmp_path / "t.png"))
    assert code == 2 and ".graphml" in err
    # A name that is only the ending is a file of that format.
    code, out, _ = run("tree", str(EXAMPLES / "forcing.json"), "--depth", "1", "--no-values",
                       "--export", str(tmp_path / ".json"), "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["export"]["format"] == "json"
    assert json.loads((tmp_path / ".json").read_text())["nodes"]


def test_why_command() -> None:
    code, out, _ = run("why", str(EXAMPLES / "forcing.json"), "take", "--json")
    data = json.loads(out)
    assert code == 0 and data["legal"] is False and "5C must be melded (R13)" in data["facts"]
    code, out, _ = run("why", str(EXAMPLES / "forcing.json"), "force 0", "--json", "--samples", "4")
    data = json.loads(out)
    assert code == 0 and data["legal"] is True and data["comparison"]["of"] == 2
    code, _, err = run("why", str(EXAMPLES / "forcing.json"), "dance")
    assert code == 2 and "not a move" in err


def test_why_a_force_of_a_player_the_variant_lacks_is_a_usage_error() -> None:
    # 'force 7' in classic names no one: one line, exit 2, as a malformed move; a force the
    # rules forbid (forcing oneself, R14) is still explained.
    for args in ((), ("--json",)):
        code, out, err = run("why", str(EXAMPLES / "forcing.json"), "force 7", *args)
        assert code == 2 and one_error_line(err) and out == "", err
        assert "'force 7' names player 7, and classic has players 0 to 1" in err
    code, out, _ = run("why", str(EXAMPLES / "forcing.json"), "force 1")
    assert code == 0 and "you cannot force yourself" in out and "(R14)" in out


@pytest.mark.parametrize(
    ("engine", "depth", "words"),
    [
        ("v3", 1.0, "a median of 1 move chosen in the tree per iteration"),
        ("v3", 2.0, "a median of 2 moves chosen"),
        ("v2", 1.2, "searched 1 offer ahead (median)"),
        ("v2", 0.0, "searched 0 offers ahead (median)"),
        ("v2", -1.0, "searched no offer ahead (median)"),
    ],
)
def test_hint_says_one_move_and_one_offer_in_the_singular(engine: str, depth: float, words: str) -> None:
    from types import SimpleNamespace

    from analyzer.core.rules import CLASSIC
    from analyzer.service.hint_text import search_text

    text = search_text(SimpleNamespace(engine=engine, depth=depth, unproven=0.5), CLASSIC)  # type: ignore[arg-type]
    assert words in text and "1 moves" not in text and "1 offers" not in text and "-1" not in text


def test_why_on_a_puzzle_is_exact_without_sampling() -> None:
    # Every card is known: the exact search of every move, the same for any seed or samples.
    path = str(ROOT / "examples" / "puzzles" / "classic-win-1.json")
    answers = [
        json.loads(run("why", path, "pass", "--seed", seed, "--samples", n, "--json")[1])["comparison"]
        for seed, n in (("0", "1"), ("7", "48"))
    ]
    assert answers[0] == answers[1]
    comp = answers[0]
    assert comp["exact"] is True and comp["samples"] == 1 and not comp["time_limited"]
    assert (comp["rank"], comp["of"], comp["expected"], comp["best_expected"]) == (3, 3, -1.0, 1.0)
    assert (comp["winner"], comp["best_winner"], comp["win"]) == (1, 0, 0.0)
    assert comp["best"] == "take [3H 4H 5H] [5D 6D 7D JD] [JS JH JC] pay 4S"
    code, out, _ = run("why", path, "pass")
    text = " ".join(out.split())
    assert code == 0 and "sampled" not in text
    assert "It ranks 3 of 3 (exact: every card is known): under best play player 1 wins;" in text
    code, out, _ = run("why", path, "take [3H 4H 5H] [5D 6D 7D] [JS JH JD JC] pay 4S")
    assert "It is a best move (exact: every card is known): under best play player 0 wins." in " ".join(out.split())


EXCHANGE = (
    "megajogos spanish 0 0 3e,3b,5c,6e,7b,10c,11c,11o/1c,2c,2o,4o,5o,6b,11e,12c/"
    "1o,3c,3o,6c,6o,7c,12o,12b - - 16 chosen:-,12c,1o"
)
"""An exchange (R9) with the stock order unknown: why samples it as hint does."""


def test_why_a_move_the_search_never_tried_says_so() -> None:
    # With 4 iterations 'give 3e' is never tried: why says so, not that it "wins 0% of 4
    # sampled deals" with the best "-1.00 more in expected result".
    code, out, _ = run("why", EXCHANGE, "give 3e", "--samples", "4", "--seed", "0", "--time-limit", "120", "--json")
    comp = json.loads(out)["comparison"]
    assert code == 0 and comp["move_samples"] == 0 and comp["samples"] == 4
    code, out, _ = run("why", EXCHANGE, "give 3e", "--samples", "4", "--seed", "0", "--time-limit", "120")
    text = " ".join(out.split())
    assert code == 0 and "It was not tried: the search spent its 4 sampled deals on other moves" in text
    assert "more in expected result" not in text
    code, out, _ = run("why", EXCHANGE, "give 3e", "--samples", "200", "--seed", "0", "--time-limit", "120", "--json")
    comp = json.loads(out)["comparison"]
    assert 0 < comp["move_samples"] < comp["samples"] == 200
    code, out, _ = run("why", EXCHANGE, "give 3e", "--samples", "200", "--seed", "0", "--time-limit", "120")
    assert f"the {comp['move_samples']} of 200 sampled deals that tried it" in " ".join(out.split())


def test_why_never_calls_a_worse_move_the_best() -> None:
    # v3 ranks by visits, so the first may have the lower mean over more iterations; why
    # must not say "the best, give 5c, wins 50% (-1.00 more in expected result)".
    import re

    code, out, _ = run("hint", EXCHANGE, "--samples", "9", "--seed", "0", "--time-limit", "120", "--json")
    moves = [m["move"] for m in json.loads(out)["moves"]]
    assert code == 0 and len(moves) == 8
    said = []
    for move in moves:
        code, out, _ = run("why", EXCHANGE, move, "--samples", "9", "--seed", "0", "--time-limit", "120")
        text = " ".join(out.split())
        assert code == 0 and not re.search(r"\(-[0-9.]+ more in expected result", text), text
        said.append(text)
    assert any("than the first" in t and "not reliable" in t for t in said)


def test_jobs_are_capped() -> None:
    code, out, _ = run("simulate", "--games", "2", "--jobs", "64", "--json")
    assert code == 0 and json.loads(out)["games"] == 2


def test_simulate_reports_a_bot_for_every_seat() -> None:
    code, out, _ = run("simulate", "--variant", "megajogos", "--games", "2", "--json")
    assert code == 0 and json.loads(out)["bots"] == ["greedy", "random", "random"]
    # One bot named for two seats is listed once per seat.
    code, out, _ = run("simulate", "--bots", "greedy", "--games", "2", "--json")
    assert code == 0 and json.loads(out)["bots"] == ["greedy", "greedy"]
    code, out, _ = run("simulate", "--bots", "greedy", "--games", "2")
    assert code == 0 and "bots by seat: greedy, greedy" in out


def test_hint_top_applies_to_json_and_scores_are_floats() -> None:
    code, out, _ = run("hint", str(EXAMPLES / "example4-rearrangement.json"), "--static", "--top", "1", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["moves"]) == 1
    code, out, _ = run("hint", str(EXAMPLES / "example6-going-out.json"), "--static", "--json")
    assert all(isinstance(m["score"], float) for m in json.loads(out)["moves"])


def test_hint_open_with_the_stock_known_is_exact() -> None:
    # One exact solve (--open) is marked exact, with no "100-100%" interval.
    position = json.loads((PUZZLES / "classic-win-1.json").read_text())["position"]
    code, out, _ = run("hint", "-", "--open", input=json.dumps(position))
    assert code == 0 and "exact" in out and "100-100%" not in out
    code, out, _ = run("hint", "-", "--open", "--json", input=json.dumps(position))
    assert code == 0 and json.loads(out)["exact"] is True
    # --open with a stock count samples the stock order only.
    code, out, _ = run("hint", str(EXAMPLES / "forcing.json"), "--open", "--samples", "3", "--time-limit", "60", "--json")
    assert code == 0 and json.loads(out)["samples"] == 3 and json.loads(out)["exact"] is False
    # With the stock order given nothing is sampled: --samples and --seed change nothing, so they
    # are taken with a one-line note, and the answer is the one without them.
    plain = run("hint", "-", "--open", "--json", input=json.dumps(position))
    for extra in (["--samples", "50"], ["--seed", "7"]):
        code, out, err = run("hint", "-", "--open", "--json", *extra, input=json.dumps(position))
        assert code == 0 and err.startswith("Note: ") and "nothing is sampled" in err and extra[0] in err
        given, without = json.loads(out), json.loads(plain[1])
        for data in (given, without):
            data.pop("seconds")
            data.pop("seed")
        assert given == without


def test_solve_reports_estimate_and_why_it_stopped() -> None:
    data = json.loads((PUZZLES / "classic-win-2.json").read_text())["position"]
    code, out, _ = run("solve", "-", "--budget", "5", input=json.dumps(data))
    assert code == 0 and "estimated results" in out and "position budget spent" in out
    code, out, _ = run("solve", "-", "--budget", "5", "--json", input=json.dumps(data))
    assert json.loads(out)["stopped_by"] == "positions"


def test_an_unproven_search_names_no_winner() -> None:
    code, out, _ = run("solve", str(EXAMPLES / "example6-forced-out.json"), "--budget", "300", "--json")
    data = json.loads(out)
    assert code == 0 and data["proven"] is False and data["winner"] is None


HIDDEN_TO_ACT = {**json.loads((EXAMPLES / "forcing.json").read_text())}
HIDDEN_TO_ACT["players"] = [HIDDEN_TO_ACT["players"][0], {"hand": 10, "layout": []}]


@pytest.mark.parametrize(
    "args",
    [
        ["hint"],
        ["hint", "--static"],
        ["why", "pass"],
        ["solve"],
        ["tree", "--depth", "1"],
    ],
    ids=lambda a: " ".join(a),
)
def test_every_command_refuses_what_it_cannot_do(args: list[str]) -> None:
    # A position whose player to act has a hidden hand is a clear error for every command,
    # tree --depth 1 included (not "Explored 1 positions" with exit 0).
    command, *rest = args
    code, out, err = run(command, "-", *rest, input=json.dumps(HIDDEN_TO_ACT))
    assert code == 1 and one_error_line(err) and "hidden" in err, err
    assert "Explored" not in out


def test_tree_with_nothing_to_expand_is_still_a_tree() -> None:
    code, out, _ = run("tree", "-", "--depth", "0", "--json", input=json.dumps(HIDDEN_TO_ACT))
    assert code == 0 and json.loads(out)["nodes"] == 1
    code, out, _ = run("tree", str(EXAMPLES / "example4-rearrangement.json"), "--depth", "1",
                       "--no-values")  # fmt: skip
    assert code == 0 and "Explored 14 positions and 13 moves" in out


def test_tree_refuses_values_it_cannot_give_and_marks_an_unproven_line(tmp_path: Path) -> None:
    # An explicit --values on a position with the stock order unknown is a usage error, not a
    # note with exit 0; an unproven principal variation is marked as such.
    forcing = str(EXAMPLES / "forcing.json")
    target = tmp_path / "t.json"
    target.write_text("{}")
    for option in (["--values"], ["--budget", "5"], ["--values", "--budget", "5"]):
        code, _, err = run("tree", forcing, "--depth", "1", *option, "--export", str(target), "--force")
        assert code == 2 and one_error_line(err) and "this position hides the stock order" in err, err
        assert target.read_text() == "{}"  # nothing written
        assert "'conquian solve' for chances" in err
    # A hidden hand is not sent to 'solve', which refuses one.
    hidden = format_notation(view(read_position(EXAMPLES / "forcing.json"), 0))
    code, _, err = run("tree", hidden, "--depth", "1", "--budget", "5")
    assert code == 2 and "hides a hand" in err and "'conquian hint'" in err and "solve" not in err
    code, out, err = run("tree", forcing, "--depth", "1", "--json")
    assert code == 0 and json.loads(out)["proven"] is None and "node values skipped" not in err
    code, _, err = run("tree", forcing, "--depth", "1")
    assert code == 0 and "Note: node values skipped" in err
    position = json.loads((PUZZLES / "classic-win-1.json").read_text())["position"]
    code, out, _ = run("tree", "-", "--depth", "1", "--budget", "1", input=json.dumps(position))
    assert code == 0 and "(not proven: the budget ran out" in out
    code, out, _ = run("tree", "-", "--depth", "1", "--json", input=json.dumps(position))
    assert code == 0 and json.loads(out)["proven"] is True


def test_tree_json_stores_node_values_as_numbers(tmp_path: Path) -> None:
    # The node-link JSON stores a node value as numbers, not the string "[1.0, -1.0]".
    position = json.loads((PUZZLES / "classic-win-1.json").read_text())["position"]
    target = tmp_path / "t.json"
    code, _, err = run("tree", "-", "--depth", "1", "--export", str(target), input=json.dumps(position))
    assert code == 0, err
    nodes = json.loads(target.read_text())["nodes"]
    assert nodes and all(
        isinstance(n["value"], list) and all(isinstance(v, float | int) for v in n["value"])
        for n in nodes
    )
    graphml = tmp_path / "t.graphml"
    assert run("tree", "-", "--depth", "1", "--export", str(graphml), input=json.dumps(position))[0] == 0
    assert "<graphml" in graphml.read_text()


def test_why_json_numbers_are_rounded_like_hint() -> None:
    # why --json rounds its numbers (no 0.028333333333333346).
    code, out, _ = run("why", str(EXAMPLES / "forcing.json"), "pass", "--json", "--samples", "6")
    comparison = json.loads(out)["comparison"]
    assert code == 0
    for key in ("win", "best_win", "expected", "best_expected"):
        assert round(comparison[key], 6) == comparison[key]
        assert len(repr(comparison[key])) <= 9



def test_why_reasons_read_as_sentences_with_one_hand_card(tmp_path: Path) -> None:
    # Not "melds only no hand card", "all 1 hand cards" or "3c not in your hand".
    path = tmp_path / "f4.json"
    code, _, err = run("deal", "--seed", "4", "--after", "40", "-o", str(path))
    assert code == 0, err
    code, out, _ = run("why", str(path), "take [6S 6D 6C] [AH AD AC] [3H 4H 5H 6H] out")
    text = " ".join(out.split())
    assert code == 0 and "is not legal here" in text
    assert "melds only no hand card" not in text and "all 1 hand cards" not in text
    assert "your move melds no card from your hand" in text
    assert "going out needs your hand card melded (R15)" in text


def test_rules_option_deals_plays_and_simulates_custom_rules(tmp_path: Path) -> None:
    # --rules NAME=VALUE,... changes options on top of the variant (RULES.md section 4): the deal
    # carries them in its 'rules', the upcard is turned (R10a), records replay under them.
    code, out, err = run("deal", "--variant", "megajogos", "--players", "4", "--seed", "2",
                         "--rules", "upcard=true,discard_force=true,rearrange=borrow")  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["rules"] == {"rearrange": "borrow", "upcard": True, "discard_force": True}
    assert data["centre"]["kind"] == "upcard" and data["centre"]["source"] == data["dealer"]
    assert len(data["players"]) == 4
    code, out, err = run("simulate", "--variant", "classic", "--rules", "discard_force=true,max_run=10",
                         "--games", "4", "--bots", "greedy,random", "--seed", "3", "--json",
                         "--records", str(tmp_path / "recs"))  # fmt: skip
    assert code == 0, err
    record = sorted((tmp_path / "recs").glob("*.jsonl"))[0]
    start = json.loads(record.read_text().splitlines()[0])["start"]
    assert start["rules"] == {"max_run": 10, "discard_force": True}
    code, out, err = run("replay", str(record), "--json")
    assert code == 0, err


@pytest.mark.parametrize(
    ("value", "needle"),
    [
        ("upcard=maybe", "--rules: upcard must be true or false, not 'maybe'"),
        ("upcard", "--rules: expected NAME=VALUE, got 'upcard'"),
        ("jokers=1", "--rules: unknown rule option 'jokers' (known: hand_size, max_run,"),
        ("players=3", "--rules: the player count is --players"),
        ("max_run=8,max_run=9", "--rules: 'max_run' given twice"),
        ("hand_size=20", "--rules: classic deals 2 x 20 = 40 cards"),
        ("rearrange=free", "--rules: rearrange='free' is not one of own, borrow"),
    ],
)
def test_rules_option_errors_are_usage_errors_on_one_line(value: str, needle: str) -> None:
    code, out, err = run("deal", "--rules", value)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, err


def test_the_hint_text_fits_80_columns_with_no_trailing_spaces(monkeypatch: pytest.MonkeyPatch) -> None:
    """The quick start's hint at 80 columns: every line fits and none ends in a space (its
    description and the numbered reasons are wrapped paragraphs)."""
    from cli_run import run_process

    monkeypatch.setenv("COLUMNS", "80")
    for args in ((), ("--static",)):
        done = run_process("hint", *args)
        lines = done.stdout.splitlines()
        assert done.returncode == 0 and len(lines) > 5 and max(map(len, lines)) <= 80
        assert [line for line in lines if line != line.rstrip()] == [], args


def test_long_plain_lines_wrap_without_trailing_spaces() -> None:
    """Plain text longer than the output's width (80 columns here) wraps between words with no
    trailing space, each wrapped line indented as its line began; lines that fit are as written
    (cli.console's out)."""
    import io

    from rich.console import Console

    from cli import console

    buffer = io.StringIO()
    shown = console._Console(file=buffer, width=40, highlight=False)
    long = "word " * 15 + "end"
    shown.print(long, markup=False)
    shown.print("  " + long)
    shown.print("short  line, spaces  kept", markup=False)
    lines = buffer.getvalue().splitlines()
    assert all(not line.endswith(" ") and len(line) <= 40 for line in lines), lines
    assert " ".join(" ".join(lines).split()) == " ".join((long + " " + long + " short line, spaces kept").split())
    indented = [line for line in lines if line.startswith("  ")]
    assert len(indented) >= 2  # the second text's wrapped lines keep its two-space indent
    assert lines[-1] == "short  line, spaces  kept"
    # Rich's own wrap, which the console replaces, leaves the space it broke at.
    plain = io.StringIO()
    Console(file=plain, width=40, highlight=False).print(long, markup=False)
    assert any(line.endswith(" ") for line in plain.getvalue().splitlines())
