"""conquian review: labels by the documented thresholds, accuracy, worked example 6 (forced) as a
blunder, the JSON keys, the text table, the SVG plot and bad input."""

from __future__ import annotations

import doctest
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cli_run import one_error_line, run
from conftest import EXAMPLES, ROOT

import analyzer.analysis.review
from analyzer.core.cards import format_card, iter_mask
from analyzer.core.moves import Force, parse_move
from analyzer.core.plain import dump_position
from analyzer.formats.position import load_position
from analyzer.formats.sniff import read_position
from analyzer.formats.records import record_lines, replay_lines
from analyzer.analysis.review import (
    SCALE,
    SURE_THRESHOLDS,
    THRESHOLDS,
    Label,
    decisions,
    label_for,
    label_move,
    move_accuracy,
    review_game,
    review_record,
)
from analyzer.bots.simulate import play_game

FAST = ["--samples", "8", "--time-limit", "30"]


def test_doctests() -> None:
    assert doctest.testmod(analyzer.analysis.review).failed == 0


def test_label_enum_scale_and_thresholds_are_the_documented_ones() -> None:
    assert [str(label) for label in Label] == ["best", "good", "inaccuracy", "mistake", "blunder"]
    assert SCALE == (-1.0, 1.0)
    assert dict(THRESHOLDS) == {Label.BLUNDER: 0.3, Label.MISTAKE: 0.2, Label.INACCURACY: 0.1}
    cases = {0.0: "best", 1e-12: "best", 0.01: "good", 0.0999: "good", 0.1: "inaccuracy",
             0.1999: "inaccuracy", 0.2: "mistake", 0.2999: "mistake", 0.3: "blunder",
             2.0: "blunder"}  # fmt: skip
    for drop, label in cases.items():
        assert label_for(drop) == label, drop


def test_a_sure_result_at_stake_makes_the_label_worse_as_lichess_mates() -> None:
    assert dict(SURE_THRESHOLDS) == {Label.BLUNDER: -0.86, Label.MISTAKE: -0.95}
    # A sure loss created: by the best move's expected result.
    assert label_move(-0.72, -1.0, best_loss=0.86, played_loss=1.0) is Label.BLUNDER
    assert label_move(-0.9, -1.0, best_loss=0.95, played_loss=1.0) is Label.MISTAKE
    assert label_move(-0.97, -1.0, best_loss=0.985, played_loss=1.0) is Label.INACCURACY
    # Every move loses for sure: nothing to give up.
    assert label_move(-1.0, -1.0, best_loss=1.0, played_loss=1.0) is Label.BEST
    # A sure win missed: by the played move's expected result.
    assert label_move(1.0, 0.5, best_win=1.0, played_win=0.7) is Label.BLUNDER
    assert label_move(1.0, 0.96, best_win=1.0, played_win=0.98) is Label.INACCURACY
    # Otherwise the drop decides.
    assert label_move(0.2, 0.05, best_win=0.6, played_win=0.5) is Label.INACCURACY


def test_accuracy_is_100_for_no_drop_and_falls_to_0() -> None:
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=1e-3)
    assert move_accuracy(2.0) == 0.0
    values = [move_accuracy(d / 10) for d in range(21)]
    assert values == sorted(values, reverse=True)
    assert all(0.0 <= v <= 100.0 for v in values)
    assert move_accuracy(0.3) == pytest.approx(50.5, abs=0.1)  # lichess at 15 points of win%


def forced_out_record() -> list[str]:
    """Worked example 6 (forced) as a record: player 1 forces player 0, who goes out (R14, R15)."""
    state = read_position(EXAMPLES / "example6-forced-out.json")
    data = dump_position(state)
    rest = ((1 << 40) - 1) & ~state.known_mask()
    data["stock"] = [format_card(c) for c in iter_mask(rest)]  # any order: nobody turns
    start = load_position(data)
    force = parse_move("force 0")
    forced = start.apply(force)
    (lay_in,) = forced.legal_moves()
    return record_lines(start, [(1, force), (0, lay_in)], forced.apply(lay_in))


def test_handing_over_the_game_is_a_blunder_with_pass_best(tmp_path: Path) -> None:
    replay = replay_lines(forced_out_record())
    review = review_record(replay, samples=8, seed=0, time_limit=30)
    # The lay-in that goes out is the forced player's only choice: not a decision.
    (move,) = review.moves
    assert (move.ply, move.player, move.move) == (1, 1, Force(0))
    assert move.label is Label.BLUNDER and str(move.best) == "pass"
    assert move.win_played == 0.0 and move.expected_played == -1.0
    assert move.loss == pytest.approx(move.win_best) and move.expected_best > -0.86
    p0, p1 = review.summary
    assert p0.decisions == 0 and p0.accuracy is None
    assert p1.counts[Label.BLUNDER] == 1 and p1.accuracy == pytest.approx(move.accuracy)


def test_review_json_has_the_keys_of_the_issue(tmp_path: Path) -> None:
    path = tmp_path / "forced.jsonl"
    path.write_text("\n".join(forced_out_record()) + "\n")
    code, out, _ = run("review", str(path), "--json", *FAST)
    assert code == 0
    data = json.loads(out)
    assert set(data) >= {"moves", "summary"}
    (move,) = data["moves"]
    assert set(move) >= {"ply", "player", "move", "best", "win_best", "win_played", "loss", "label"}
    # Added keys, so that the label can be checked (the win chances alone do not decide it).
    assert set(move) - {"ply", "player", "move", "best", "win_best", "win_played", "loss", "label"} == {
        "expected_best", "expected_played", "drop"}  # fmt: skip
    assert move["drop"] == round(move["expected_best"] - move["expected_played"], 6) >= 0.3  # a blunder
    assert move["move"] == "force 0" and move["best"] == "pass" and move["label"] == "blunder"
    assert move["ply"] == 1 and move["player"] == 1 and move["win_played"] == 0.0
    assert len(data["summary"]) == 2
    for entry in data["summary"]:
        assert set(entry) == {"player", "accuracy", "best", "good", "inaccuracy", "mistake",
                              "blunder"}  # fmt: skip
    assert data["summary"][0]["accuracy"] is None and data["summary"][1]["blunder"] == 1
    assert data["settings"]["thresholds"] == {"blunder": 0.3, "mistake": 0.2, "inaccuracy": 0.1}


def test_review_text_table_marks_the_blunder(tmp_path: Path) -> None:
    path = tmp_path / "forced.jsonl"
    path.write_text("\n".join(forced_out_record()) + "\n")
    code, out, _ = run("review", str(path), *FAST)
    assert code == 0
    assert "force 0" in out and "??" in out and "blunder" in out and "pass" in out
    assert "accuracy" in out


def test_review_table_is_one_line_per_move_at_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    # Not moves wrapped over 6 lines nor "inaccu…": each decision on one line of at most 80
    # characters, its move in full, the best move found below the table.
    from cli_run import run_process

    monkeypatch.setenv("COLUMNS", "80")
    record = str(ROOT / "examples" / "records" / "classic-hint-vs-greedy.jsonl")
    args = ("review", record, "--samples", "2", "--seed", "1", "--time-limit", "1e400")
    done = run_process(*args)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines) and "\u2026" not in done.stdout
    data = json.loads(run_process(*args, "--json").stdout)
    for move in data["moves"]:
        (row,) = [line for line in lines if line.split()[:2] == [str(move["ply"]), str(move["player"])]]
        assert f" {move['move']} " in row and row.rstrip().endswith(move["label"] + {
            "best": "", "good": "", "inaccuracy": " ?!", "mistake": " ?", "blunder": " ??"}[move["label"]])
        if move["label"] != "best":
            assert f"  ply {move['ply']}: {move['best']} (wins " in done.stdout
    assert lines[0].split() == ["ply", "seat", "move", "win", "drop", "label"]


def test_review_table_wraps_a_long_move_only_past_its_column() -> None:
    from cli.review import table_lines

    replay = replay_lines((ROOT / "examples" / "records" / "classic-hint-vs-greedy.jsonl").read_text().splitlines())
    review = review_record(replay, samples=2, seed=1, time_limit=1e400)
    from cli.results import review_data

    data = review_data(review, replay.start.rules.labels)
    for width in (50, 80, 120):
        lines = table_lines(review, data, width)
        assert all(len(line) <= width for line in lines)
        start, end = lines[0].index("move"), lines[0].index(" win") - 1
        moves: list[str] = []
        for line in lines[1 : lines.index("Best move found where another was played:")]:
            if line[:3].strip():  # a decision's line; else its move goes on
                moves.append(line[start:end].strip())
            else:
                moves[-1] += " " + line.strip()
        assert moves == [m["move"] for m in data["moves"]]  # in full, never cut
        if width >= 80:  # one line each
            assert lines.index("Best move found where another was played:") == len(data["moves"]) + 1


def test_review_svg_plot_marks_blunders(tmp_path: Path) -> None:
    path = tmp_path / "forced.jsonl"
    path.write_text("\n".join(forced_out_record()) + "\n")
    picture = tmp_path / "plot.svg"
    code, out, err = run("review", str(path), "--svg", str(picture), *FAST)
    assert code == 0, err
    assert f"Wrote the win-chance plot to {picture}." in out.replace("\n", "")  # not "Written"
    root = ET.fromstring(picture.read_text())
    assert root.tag.endswith("svg")
    classes = [e.get("class", "") for e in root.iter()]
    assert any("blunder" in c for c in classes) and any("mark blunder" in c for c in classes)
    assert any(e.text == "??" for e in root.iter())
    # Output files: checked before the work, never replaced without --force.
    code, _, err = run("review", str(path), "--svg", str(picture), *FAST)
    assert code == 2 and "--force" in err and one_error_line(err)
    code, _, err = run("review", str(path), "--svg", "/proc/x.svg", *FAST)
    assert code == 2 and "cannot write into" in err


def test_a_seeded_game_is_reviewed_decision_by_decision(tmp_path: Path) -> None:
    game = play_game("classic", ["greedy", "random"], 7)
    lines = record_lines(game.start, game.moves[:30], seed=7)
    replay = replay_lines(lines)
    plies = decisions(replay.start, replay.moves)
    review = review_game(replay.start, replay.moves, samples=2, seed=1, time_limit=30)
    assert [m.ply for m in review.moves] == plies
    for m in review.moves:
        assert replay.moves[m.ply - 1] == m.move
        assert 0.0 <= m.win_played <= 1.0 and 0.0 <= m.win_best <= 1.0
        # The drop's label, or worse where a sure result was at stake (SURE_THRESHOLDS).
        order = list(Label)
        assert order.index(m.label) >= order.index(label_for(m.drop))
        assert m.choices >= 2
    for summary in review.summary:
        assert sum(summary.counts.values()) == summary.decisions
    again = review_game(replay.start, replay.moves, samples=2, seed=1, time_limit=30)
    assert [(m.label, m.win_played) for m in again.moves] == [
        (m.label, m.win_played) for m in review.moves
    ]
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code, out, _ = run("review", "-", "--json", "--samples", "2", "--time-limit", "30",
                       "--seed", "1", input=path.read_text())  # fmt: skip
    assert code == 0
    assert [m["ply"] for m in json.loads(out)["moves"]] == plies


def test_megajogos_review_with_exchange(tmp_path: Path) -> None:
    game = play_game("megajogos", ["greedy", "greedy", "greedy"], 3)
    lines = record_lines(game.start, game.moves[:8])
    replay = replay_lines(lines)
    # Engine v1 (melded-card lead at the leaves): the review does not depend on the fitted
    # evaluation data of megajogos.
    review = review_record(replay, samples=1, seed=0, time_limit=30, engine="v1")
    assert len(review.summary) == 3
    assert all(m.move.text().startswith("give") for m in review.moves[:3])


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ("not json\n", "not valid JSON"),
        ('{"format": "conquian-record"}\n', "missing key 'start'"),
        ('{"format": "x"}\n', "need format and start"),
    ],
)
def test_bad_records_are_one_line_exit_1(tmp_path: Path, content: str, needle: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    code, out, err = run("review", str(path))
    assert code == 1 and needle in err and one_error_line(err) and "Traceback" not in out


def test_an_illegal_move_in_the_record_is_named(tmp_path: Path) -> None:
    lines = forced_out_record()
    lines[1] = lines[1].replace("force 0", "take [AH 2H 3H] pay QC")
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines[:2]) + "\n")
    code, _, err = run("review", str(path))
    assert code == 1 and one_error_line(err) and "line 2 (move 1)" in err


def test_review_usage_errors() -> None:
    code, _, err = run("review", "no-such.jsonl")
    assert code == 2 and "no such record file" in err and one_error_line(err)
    code, _, err = run("review", "x.jsonl", "--samples", "0")
    assert code == 2 and "--samples" in err and one_error_line(err)


def test_review_without_a_time_limit_writes_json(tmp_path: Path) -> None:
    # '--time-limit 1e400 --json' writes the review: JSON cannot carry an infinity, so the
    # limit is null and the text says "no time limit".
    path = tmp_path / "forced.jsonl"
    path.write_text("\n".join(forced_out_record()) + "\n")
    code, out, err = run("review", str(path), "--json", "--samples", "2", "--time-limit", "1e400")
    assert code == 0, err
    settings = json.loads(out)["settings"]
    assert settings["time_limit"] is None and settings["engine"] == "v2" and settings["samples"] == 2
    code, out, err = run("review", str(path), "--samples", "2", "--time-limit", "inf")
    assert code == 0, err
    assert "no time limit" in out and "inf s" not in out and "2 sampled deals (engine v2)" in out


def test_a_move_labelled_best_is_shown_with_its_own_figures() -> None:
    # With v3 (which ranks by visits) a played move with the higher mean may be labelled best:
    # it is then shown with its own figures, not the first-ranked move's win chance.
    from analyzer.bots.simulate import game_seed

    game = play_game("megajogos", ["greedy", "random", "random"], game_seed(1, 0))  # simulate --seed 1
    replay = replay_lines(record_lines(game.start, game.moves[:16]))
    review = review_record(replay, samples=50, seed=0, time_limit=1e400)
    # Ply 15: v3's most visited move is another pay card; the played one has the higher mean.
    assert any(m.ply == 15 and m.label is Label.BEST for m in review.moves)
    for m in review.moves:
        if m.label is Label.BEST:
            assert m.best == m.move and m.win_best == m.win_played and m.expected_best == m.expected_played
        else:
            assert m.best != m.move and m.expected_best > m.expected_played


def test_the_first_moves_reason_says_when_the_second_has_the_higher_mean() -> None:
    # On v3's first move the second, X, may have the higher mean over fewer iterations: the
    # reason says so, not "the next best, X, wins 36%: -0.16 in expected result".
    from analyzer.analysis.advisor import advise
    from analyzer.bots.simulate import game_seed

    game = play_game("megajogos", ["greedy", "random", "random"], game_seed(1, 0))
    state = replay_lines(record_lines(game.start, game.moves[:14])).final
    advice = advise(state, samples=50, seed=15, time_limit=1e400)
    first, second = [e for e in advice.estimates if e.samples > 0][:2]
    assert second.expected > first.expected  # the case
    reason = next(r for r in first.reasons if second.move.text(state.rules.labels) in r)
    assert reason.startswith("the second, ") and "more in expected result, over fewer iterations" in reason


def test_a_record_without_moves_says_so(tmp_path: Path) -> None:
    # A record of its header alone does not say "every move was forced or a turn".
    path = tmp_path / "empty.jsonl"
    path.write_text(forced_out_record()[0] + "\n")
    code, out, _ = run("review", str(path), "--samples", "2")
    assert code == 0 and "No decisions to review: the record has no moves." in out
    assert "every move was forced" not in out


def test_an_empty_record_file_is_named(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    code, out, err = run("review", str(empty))
    assert code == 1 and out == "" and one_error_line(err), err
    assert f"{empty} is empty" in err
