"""``conquian record`` (a game entered from one player's view, or a record printed from one
player's view), ``review --view``, and the engine's ``record`` and ``review`` with ``view``."""

from __future__ import annotations

import json
from pathlib import Path

from cli_run import run
from conftest import ROOT

from analyzer.formats.records import replay_file, view_lines
from cli.engine import answer as _answer

FULL = ROOT / "examples" / "records" / "classic-hint-vs-greedy.jsonl"
VIEW = ROOT / "examples" / "records" / "classic-view.jsonl"
MEGA = ROOT / "examples" / "records" / "megajogos-view.jsonl"


def answer(request: dict[str, object]) -> dict[str, object]:
    return _answer(json.dumps(request))[0]  # type: ignore[no-any-return]


def _moves(path: Path) -> list[str]:
    return [json.loads(line)["move"] for line in path.read_text().splitlines()[1:] if '"move"' in line]


def test_record_prints_a_full_record_from_each_players_view() -> None:
    for viewer in (0, 1):
        code, out, err = run("record", str(FULL), "--view", str(viewer))
        assert code == 0, err
        assert out.splitlines() == view_lines(replay_file(FULL), viewer)
    code, out, _ = run("record", str(FULL), "--view", "1", "--json")
    assert code == 0 and [json.dumps(x) for x in json.loads(out)] == [
        json.dumps(json.loads(line)) for line in VIEW.read_text().splitlines()
    ]
    # The bundled view record is exactly that conversion.
    assert VIEW.read_text().splitlines() == view_lines(replay_file(FULL), 1)


def test_record_refuses_what_it_cannot_do_with_one_line() -> None:
    cases = [
        (["record", str(FULL)], 2, "give --view P"),
        (["record", str(FULL), "--view", "2"], 2, "--view 2: no such player; this classic game has 2 players, 0 to 1"),
        (["record", str(VIEW), "--view", "0"], 2, "player 1's view; it hides player 0's hand"),
        (["record", "--resume", str(FULL)], 2, "knows every card: --resume goes on with a record from one"),
        (["record", "--resume", str(VIEW), "--hand", "AS"], 2, "--hand: --resume goes on with the record's own deal"),
        (["record", str(FULL), "--view", "0", "--hand", "AS"], 2, "--hand is for entering a game"),
        (["record", "--hand", "AS 2S"], 2, "give --out FILE"),
    ]
    for args, code, needle in cases:
        got, out, err = run(*args)
        assert got == code, (args, out, err)
        assert needle in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def _entered(tmp_path: Path, source: Path, extra: list[str], answers: list[str]) -> tuple[int, str, str, Path]:
    header = json.loads(source.read_text().splitlines()[0])
    start = header["start"]
    viewer = header["view"]
    target = tmp_path / "entered.jsonl"
    hand = " ".join(start["players"][viewer]["hand"])
    args = ["record", "--view", str(viewer), "--variant", header["variant"], "--hand", hand,
            "--dealer", str(start["dealer"]), "--out", str(target), *extra]  # fmt: skip
    code, out, err = run(*args, input="\n".join(answers) + "\n")
    return code, out, err, target


def test_a_game_entered_at_the_prompt_is_the_view_record_and_reviews_the_same(tmp_path: Path) -> None:
    for source in (VIEW, MEGA):
        code, out, err, target = _entered(tmp_path, source, ["--force"], _moves(source))
        assert code == 0, err
        assert "Record saved to" in out
        ours = target.read_text().splitlines()
        theirs = source.read_text().splitlines()
        assert ours[1:] == theirs[1:]
        assert json.loads(ours[0])["start"] == json.loads(theirs[0])["start"]
        # Reviewed from the entered file and from the full record with --view: the same marks.
        _, a, _ = run("review", str(target), "--json", "--samples", "6")
        _, b, _ = run("review", str(source), "--json", "--samples", "6")
        assert json.loads(a)["moves"] == json.loads(b)["moves"]
        assert json.loads(a)["view"] == json.loads(theirs[0])["view"]
    _, c, _ = run("review", str(FULL), "--json", "--samples", "6", "--view", "1")
    _, d, _ = run("review", str(VIEW), "--json", "--samples", "6")
    assert json.loads(c)["moves"] == json.loads(d)["moves"] and json.loads(c)["moves"]


def test_the_prompt_refuses_a_card_seen_twice_takes_back_and_ends(tmp_path: Path) -> None:
    moves = _moves(VIEW)
    mine = json.loads(VIEW.read_text().splitlines()[0])["start"]["players"][1]["hand"][0]
    answers = [f"turn {mine}", "moves", moves[0], "undo", moves[0], "show", "help", "end"]
    code, out, err, target = _entered(tmp_path, VIEW, [], answers)
    assert code == 0, err
    assert f"Not accepted: {mine} cannot be turned: it is in your hand (player 1) (R1" in out
    assert "turn CARD: any of the" in out
    assert f"Took back move 1: {moves[0]}." in out
    assert "'undo' takes the last move back" in out
    replay = replay_file(target)  # what was entered, checked: one move, not finished
    assert len(replay.moves) == 1 and not replay.finished and replay.view == 1


def test_the_input_ending_early_keeps_the_record_and_exits_1(tmp_path: Path) -> None:
    code, _, err, target = _entered(tmp_path, VIEW, [], _moves(VIEW)[:5])
    assert code == 1 and "the input ended before the deal did, after 5 moves" in err
    assert len(replay_file(target).moves) == 5


def test_the_engine_builds_and_reviews_a_view_record() -> None:
    lines = VIEW.read_text().splitlines()
    header = json.loads(lines[0])
    moves = _moves(VIEW)
    got = answer({"id": 1, "cmd": "record", "position": header["start"], "view": 1, "moves": moves})
    assert got["ok"], got
    assert got["result"]["record"].splitlines()[1:] == lines[1:]
    assert len(got["result"]["plies"]) == len(moves) and got["result"]["over"]
    bad = [*moves[:2], "take [JS JH JC] pay 4S"]
    got = answer({"id": 2, "cmd": "record", "position": header["start"], "view": 1, "moves": bad})
    assert not got["ok"] and got["field"] == "moves" and "move 3" in got["error"]
    full = FULL.read_text()
    a = answer({"id": 3, "cmd": "review", "record": full, "view": 1, "samples": 4})
    b = answer({"id": 4, "cmd": "review", "record": VIEW.read_text(), "samples": 4})
    assert a["ok"] and b["ok"] and a["result"]["moves"] == b["result"]["moves"]
    assert all(m["player"] == 1 for m in a["result"]["moves"]) and a["result"]["view"] == 1
    c = answer({"id": 5, "cmd": "review", "record": full, "view": 4})
    assert not c["ok"] and c["field"] == "view"


def test_a_game_stopped_with_end_is_resumed_where_it_stopped(tmp_path: Path) -> None:
    moves = _moves(VIEW)
    code, out, err, target = _entered(tmp_path, VIEW, [], [*moves[:9], "end"])
    assert code == 0, err
    code, out, err = run("record", "--resume", str(target), input="\n".join(moves[9:]) + "\n")
    assert code == 0, err
    assert "going on after move 9" in out
    assert target.read_text().splitlines()[1:] == VIEW.read_text().splitlines()[1:]
    # A finished deal resumed: the last move can still be taken back (the deal's end shown).
    code, out, err = run("record", "--resume", str(target), input="undo\nend\n")
    assert code == 0 and "The deal is over" in out and f"Took back move {len(moves)}" in out, err
    assert len(replay_file(target).moves) == len(moves) - 1


def test_the_prompt_asks_again_for_a_hand_and_words_at_a_turn(tmp_path: Path) -> None:
    header = json.loads(VIEW.read_text().splitlines()[0])
    hand = " ".join(header["start"]["players"][1]["hand"])
    target = tmp_path / "h.jsonl"
    answers = ["AS 2C", "AS ZZ", hand, "pass", "give AS", "end"]
    code, out, err = run("record", "--view", "1", "--dealer", "1", "--out", str(target), input="\n".join(answers) + "\n")
    assert code == 0, err
    assert "A hand in classic has 10 cards (R8); that is 2 cards" in out
    assert "Not a hand:" in out
    # A word alone at a turn is a move, not a card: the rule that forbids it is told (R10).
    assert "no card is offered: player 0 turns the next stock card first (R10)" in out
    assert "player None" not in out and "illegal move 'give AS'" in out


def test_converting_says_how_many_moves(tmp_path: Path) -> None:
    target = tmp_path / "v0.jsonl"
    code, out, err = run("record", str(FULL), "--view", "0", "--out", str(target))
    moves = len(_moves(FULL))
    assert code == 0 and f"Player 0's view of {moves} moves written" in out, err
    assert len(replay_file(target).moves) == moves


def test_the_engine_reads_a_records_text_as_replay_does() -> None:
    got = answer({"id": 1, "cmd": "record", "text": VIEW.read_text()})
    assert got["ok"], got
    result = got["result"]
    assert result["view"] == 1 and result["texts"] == _moves(VIEW) and result["deals"] == 1
    assert result["record"].splitlines()[1:] == VIEW.read_text().splitlines()[1:]
    assert len(result["plies"]) == len(_moves(VIEW))
    lines = VIEW.read_text().splitlines()
    wrong = json.loads(lines[3])
    wrong["player"] = 1 - wrong["player"] if wrong["player"] is not None else 0
    bad = answer({"id": 2, "cmd": "record", "text": "\n".join([*lines[:3], json.dumps(wrong), *lines[4:]])})
    assert not bad["ok"] and bad["field"] == "text" and "line 4 (move 3)" in bad["error"]
    mixed = answer({"id": 3, "cmd": "record", "text": VIEW.read_text(), "moves": []})
    assert not mixed["ok"] and mixed["field"] == "moves"
    deal = answer({"id": 4, "cmd": "record", "text": VIEW.read_text(), "deal": 2})
    assert not deal["ok"] and deal["field"] == "deal"


def test_a_records_json_array_reads_back_and_other_files_are_named(tmp_path: Path) -> None:
    code, out, _ = run("record", str(FULL), "--view", "1", "--json")
    array = tmp_path / "v1.json"
    array.write_text(out)
    code, out, err = run("replay", str(array))
    assert code == 0 and "Valid record from player 1's view" in out, err
    code, _, err = run("replay", str(ROOT / "examples" / "positions" / "example1-runs.json"))
    assert code == 1 and "a meld query file, not a game record" in err
    line = tmp_path / "n.txt"
    line.write_text(run("notation", str(ROOT / "examples" / "positions" / "forcing.json"))[1])
    code, _, err = run("replay", str(line))
    assert code == 1 and "one-line notation, not a game record" in err


def test_no_message_places_a_card_the_viewer_has_not_seen(tmp_path: Path) -> None:
    # The viewer's own take with cards he does not hold: "not yours", never where they are.
    answers = "turn 4H\npass\ntake [2H 3H 4H 5H 6H 7H] pay AS\nend\n"
    code, out, err = run("record", "--view", "1", "--dealer", "1", "--hand", "AS 2C 4D 5H 6H 7H JH JC QC KH",
                         "--out", str(tmp_path / "r.jsonl"), input=answers)  # fmt: skip
    assert code == 0, err
    flat = " ".join(out.split())
    assert "2H is not yours" in flat and "3H is not yours" in flat, flat
    assert "in player 0's hand" not in flat


def test_the_plot_of_a_view_review_is_his_alone(tmp_path: Path) -> None:
    target = tmp_path / "plot.svg"
    code, _, err = run("review", str(VIEW), "--samples", "4", "--svg", str(target))
    assert code == 0, err
    text = target.read_text()
    assert "player-1" in text and "legend player-0" not in text
