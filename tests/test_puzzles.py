"""Every puzzle in examples/puzzles/ is proven by the solver and matches its stored answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import one_error_line, run
from conftest import ROOT

from analyzer.core.errors import PositionError
from analyzer.analysis.puzzles import check_puzzle, load_puzzle, read_puzzle, solve_puzzle

# Every test here runs on both cores: the Python engine (the reference) and the native core.
pytestmark = pytest.mark.usefixtures("both_cores")

PUZZLE_DIR = ROOT / "examples" / "puzzles"
PUZZLES = sorted(PUZZLE_DIR.glob("*.json"))


def test_at_least_20_puzzles_for_both_presets() -> None:
    variants = [json.loads(p.read_text())["position"]["variant"] for p in PUZZLES]
    assert len(PUZZLES) >= 20
    assert variants.count("classic") >= 8 and variants.count("megajogos") >= 8
    kinds = {json.loads(p.read_text())["question"]["kind"] for p in PUZZLES}
    assert kinds == {"win", "best_pay", "go_out_within"}


@pytest.mark.parametrize("path", PUZZLES, ids=lambda p: p.name)
def test_puzzle_answer_is_proven(path: Path) -> None:
    puzzle = read_puzzle(path)
    found = solve_puzzle(puzzle)
    assert found["proven"]
    assert check_puzzle(puzzle, found) == []


def test_a_wrong_stored_answer_is_caught() -> None:
    data = json.loads(PUZZLES[0].read_text())
    key = next(iter(data["answer"]))
    value = data["answer"][key]
    data["answer"][key] = (not value) if isinstance(value, bool) else ["KS"]
    puzzle = load_puzzle(data)
    assert check_puzzle(puzzle, solve_puzzle(puzzle))


def test_a_wrong_list_answer_names_the_difference_in_full() -> None:
    # Not "expected [...long move…, found [...long move…", which hides the move that differs.
    data = json.loads((PUZZLES[0].parent / "classic-win-1.json").read_text())
    moves = data["answer"]["moves"]
    assert len(moves) >= 2
    data["answer"]["moves"] = [*moves[1:], "pass"]
    puzzle = load_puzzle(data)
    (problem,) = check_puzzle(puzzle, solve_puzzle(puzzle))
    assert problem == (
        f"moves: the stored answer lacks {json.dumps([moves[0]])}; "
        "it lists [\"pass\"], which the solver does not find"
    )


def test_an_illegal_stored_answer_is_called_illegal() -> None:
    # A stored move that cannot be played is called illegal, not "not found by the solver".
    data = json.loads((PUZZLES[0].parent / "classic-win-1.json").read_text())
    moves = data["answer"]["moves"]
    data["answer"]["moves"] = [*moves, "take [4H 5H 6H] pay 3H", "pass"]
    puzzle = load_puzzle(data)
    (problem,) = check_puzzle(puzzle, solve_puzzle(puzzle))
    assert problem == (
        'moves: it lists ["pass"], which the solver does not find; '
        'it lists ["take [4H 5H 6H] pay 3H"], illegal here'
    )


def test_a_stored_pay_card_no_move_pays_is_named() -> None:
    path = next(p for p in PUZZLES if "best-pay" in p.name and p.name.startswith("classic"))
    data = json.loads(path.read_text())
    puzzle = load_puzzle(data)
    found = solve_puzzle(puzzle)
    hand = set(data["position"]["players"][data["position"]["to_act"]]["hand"])
    foreign = next(c for c in data["position"]["dead"] if c not in hand)
    data["answer"]["pays"] = [*found["pays"], foreign]
    (problem,) = check_puzzle(load_puzzle(data), found)
    assert problem == f'pays: it lists ["{foreign}"], no legal move pays'


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"type": "position"}, "not a puzzle"),
        ({"question": {"kind": "mate"}}, "question.kind"),
        # The notation as the position is named as such, not only "must be a JSON object".
        ({"position": "classic french 1 1 KS/AH 5C:turned:0:0 - 18"}, "is the one-line notation; a puzzle holds"),
        ({"question": {"kind": "win", "player": 7}}, "player"),
        ({"question": {"kind": "go_out_within", "player": 0, "turns": 0}}, "turns"),
        # An escape sequence in the title would reach the terminal raw and make the --svg
        # picture malformed XML.
        ({"title": "T\u001b]0;x\u0007"}, r"'title' .*U\+001B, a control character"),
        ({"title": "a\nb"}, r"U\+000A, a control character"),
        # A right-to-left override would be printed as it comes.
        ({"title": "abc\u202edef"}, r"U\+202E, a bidirectional control character"),
        ({"title": "abc\u2067def"}, r"U\+2067, a bidirectional control character"),
        ({"title": "one\u2028two"}, r"U\+2028, a line or paragraph separator"),
    ],
)
def test_malformed_puzzles(change: dict[str, object], needle: str) -> None:
    data = json.loads(PUZZLES[0].read_text())
    data.update(change)
    with pytest.raises(PositionError, match=needle):
        load_puzzle(data)


def test_puzzle_needs_everything_known() -> None:
    data = json.loads(PUZZLES[0].read_text())
    data["position"]["stock"] = len(data["position"]["stock"])
    with pytest.raises(PositionError, match="stock order"):
        load_puzzle(data)


# --- conquian puzzle --------------------------------------------------------------------------


def test_puzzle_command(tmp_path: Path) -> None:
    path = PUZZLE_DIR / "classic-best-pay-1.json"
    code, out, _ = run("puzzle", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["correct"] is True and data["answer"]["proven"] is True
    wrong = json.loads(path.read_text())
    wrong["answer"]["pays"] = ["KS"]
    bad = tmp_path / "wrong.json"
    bad.write_text(json.dumps(wrong))
    code, out, _ = run("puzzle", str(bad))
    assert code == 1 and "WRONG" in out


def test_puzzle_answers_compare_as_moves_and_cards(tmp_path: Path) -> None:
    data = json.loads((PUZZLE_DIR / "classic-win-2.json").read_text())
    move = data["answer"]["moves"][0]
    # Same move, melds and cards reordered, lower case, extra spaces.
    _, rest = move.split(" ", 1)
    melds = rest.split("] pay ")[0].strip("[").split("] [")
    pay = move.split(" pay ")[1]
    shuffled = "take  " + " ".join(
        "[" + " ".join(reversed(m.split())).lower() + "]" for m in reversed(melds)
    ) + f" pay {pay.lower()}"
    data["answer"]["moves"] = [shuffled]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    code, out, _ = run("puzzle", str(path), "--json")
    assert code == 0 and json.loads(out)["correct"] is True


def test_puzzle_not_judged_without_proof_and_bad_answers(tmp_path: Path) -> None:
    code, out, _ = run("puzzle", str(PUZZLE_DIR / "classic-win-2.json"), "--budget", "1")
    assert code == 1 and "not checked" in out and "WRONG" not in out
    data = json.loads((PUZZLE_DIR / "classic-best-pay-1.json").read_text())
    path = tmp_path / "p.json"
    for answer, needle in (({}, "answer"), ({"foo": 1}, "'foo'"), ({"pays": ["ZZ"]}, "ZZ")):
        path.write_text(json.dumps({**data, "answer": answer}))
        code, _, err = run("puzzle", str(path))
        assert code == 1 and needle in err, err
    path.write_text(json.dumps({**data, "answer": {"pays": data["answer"]["pays"][::-1]}}))
    assert run("puzzle", str(path))[0] == 0  # a set: any order
    path.write_text(json.dumps({**data, "answer": {"pays": data["answer"]["pays"] * 2}}))
    code, _, err = run("puzzle", str(path))
    assert code == 1 and "twice" in err  # but each item once
    code, _, err = run("puzzle", str(tmp_path))
    assert code == 2 and "directory" in err


def test_a_puzzle_that_cannot_be_proven_exits_1(tmp_path: Path) -> None:
    data = json.loads((PUZZLE_DIR / "classic-win-4.json").read_text())
    del data["answer"]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    assert run("puzzle", str(path), "--budget", "1")[0] == 1


def test_puzzle_output_is_plain_words(tmp_path: Path) -> None:
    # Plain words, not Python ("moves: ['take …']", "wins: True").
    code, out, _ = run("puzzle", str(PUZZLE_DIR / "classic-win-1.json"))
    assert code == 0
    assert "wins: yes" in out or "wins: no" in out
    assert "['" not in out and "True" not in out and "False" not in out and "None" not in out
    wrong = json.loads((PUZZLE_DIR / "classic-win-1.json").read_text())
    wrong["answer"]["wins"] = not wrong["answer"]["wins"]
    path = tmp_path / "w.json"
    path.write_text(json.dumps(wrong))
    code, out, _ = run("puzzle", str(path))
    assert code == 1 and "expected" in out and "True" not in out and "False" not in out


def _best_pay() -> dict[str, object]:
    data: dict[str, object] = json.loads(
        (ROOT / "examples" / "puzzles" / "classic-best-pay-1.json").read_text()
    )
    return data


def test_a_question_key_of_another_kind_is_refused() -> None:
    # docs/puzzle-format.md: best_pay has no other keys, so "player" is refused.
    data = _best_pay()
    load_puzzle(data)
    data["question"] = {"kind": "best_pay", "player": 0}
    with pytest.raises(PositionError, match="'question' has 'player', not a key of a 'best_pay'"):
        load_puzzle(data)
    win = json.loads((ROOT / "examples" / "puzzles" / "classic-win-1.json").read_text())
    win["question"]["turns"] = 2
    with pytest.raises(PositionError, match="'turns', not a key of a 'win' question"):
        load_puzzle(win)


def test_a_card_twice_in_an_answer_is_refused_naming_it() -> None:
    data = _best_pay()
    data["answer"] = {"pays": ["4S", "4S", "6C"]}
    with pytest.raises(PositionError, match="lists the card '4S' twice"):
        load_puzzle(data)
    win = json.loads((ROOT / "examples" / "puzzles" / "classic-win-1.json").read_text())
    move = win["answer"]["moves"][0]
    win["answer"]["moves"] = [move, move]
    with pytest.raises(PositionError, match=r"lists the move .* twice"):
        load_puzzle(win)


def test_the_value_shown_names_whose_it_is(tmp_path: Path) -> None:
    # A question about player 1 does not print "wins: no" beside "value: +1.000" without
    # saying that the value is the player to act's (player 0's).
    data = json.loads((PUZZLE_DIR / "classic-win-1.json").read_text())
    to_act = data["position"]["to_act"]
    data["question"]["player"] = 1 - to_act
    data.pop("answer", None)
    path = tmp_path / "other.json"
    path.write_text(json.dumps(data))
    code, out, _ = run("puzzle", str(path))
    assert code == 0 and f"value for player {to_act} (to act):" in out
    code, out, _ = run("puzzle", str(path), "--json")
    assert code == 0 and "value" in json.loads(out)["answer"]  # the JSON key stays


def test_notes_are_kept_in_every_part_of_a_puzzle_the_question_too() -> None:
    # An 'x-' note is kept inside 'question' too.
    data = json.loads((PUZZLE_DIR / "classic-best-pay-1.json").read_text(encoding="utf-8"))
    data["question"]["x-why"] = "a note"
    data["answer"]["x-why"] = "a note"
    data["x-why"] = "a note"
    puzzle = load_puzzle(data)
    assert check_puzzle(puzzle, solve_puzzle(puzzle)) == []
    data["question"]["x_why"] = "not a note"
    with pytest.raises(PositionError, match="unknown key 'x_why' in question"):
        load_puzzle(data)


def test_an_empty_puzzle_or_meld_query_file_says_it_is_empty(tmp_path: Path) -> None:
    # "is empty", as for an empty position or record file, not "is not valid JSON: Expecting
    # value at line 1 column 1".
    empty = tmp_path / "empty.json"
    empty.write_text(" \n", encoding="utf-8")
    code, _, err = run("puzzle", str(empty))
    assert code == 1 and "empty.json' is empty: give a puzzle as JSON" in err
    code, _, err = run("melds", "-f", str(empty))
    assert code == 1 and "empty.json' is empty: give a meld query file as JSON" in err


# --- conquian puzzle --try ----------------------------------------------------------------------


@pytest.mark.parametrize("path", PUZZLES, ids=lambda p: p.name)
def test_a_tried_first_move_is_right_exactly_when_the_proven_answer_has_it(path: Path) -> None:
    from analyzer.analysis.puzzles import PuzzleTry

    puzzle = read_puzzle(path)
    trial = PuzzleTry(puzzle)
    if not trial.yours():
        pytest.skip("another seat moves first")
    labels = puzzle.state.rules.labels
    verdicts = {m.text(labels): trial.judge(m) for m in puzzle.state.legal_moves()}
    assert all(v.proven and v.why for v in verdicts.values())
    right = sorted(t for t, v in verdicts.items() if v.right)
    found = solve_puzzle(puzzle)
    if "pays" in found:
        pays = {t.rsplit(" ", 1)[-1] for t in right if " pay " in t}  # pass may be as good
        assert pays == set(found["pays"])
    else:
        assert right == found["moves"]


def test_puzzle_try_checks_each_move_and_hides_the_answer_until_asked() -> None:
    path = str(PUZZLE_DIR / "classic-win-1.json")
    code, out, err = run("puzzle", path, "--try", input="pass\nfoo\n?\n1\n1\n")
    assert code == 0, err
    before, *prompts = out.split("your move>")
    assert "Answer (" not in before and "wins: yes" not in before and len(prompts) == 5
    text = " ".join(out.split())
    assert "Wrong: after it player 1 wins under best play; another move does better here: player 0 wins. Try again" in text
    wrong = text.split("Wrong: ", 1)[1].split("your move>", 1)[0]
    assert "take" not in wrong  # the better move is not given away
    assert prompts[1].lstrip().startswith("Not a move: 'foo'")
    assert prompts[2].lstrip().startswith("Answer (proven")  # asked for
    assert "Right: after it player 0 wins under best play, the best result here" in prompts[3]
    assert "player 1 (solution): pass" in prompts[3] and "player 1 turns QD (R10)" in prompts[3]
    assert "Done (deal over, player 0 won): 1 wrong try on the way." in text
    assert text.endswith("The stored answer is correct.") and prompts[4].count("Answer (proven") == 1


def test_puzzle_try_best_pay_and_going_out() -> None:
    code, out, _ = run("puzzle", str(PUZZLE_DIR / "classic-best-pay-1.json"), "--try", input="1\n")
    text = " ".join(out.split())
    assert code == 0 and "Right: " in text and "Done (" in text and "every move right" in text
    code, out, _ = run("puzzle", str(PUZZLE_DIR / "classic-go-out-within-1.json"), "--try", input="1\n1\n")
    text = " ".join(out.split())
    assert code == 0 and "can still make sure he goes out within 1 more of his moves" in text
    assert "Right: it goes out (R15)." in text and "every move right" in text


def test_puzzle_try_quit_end_of_input_and_json() -> None:
    path = str(PUZZLE_DIR / "classic-win-2.json")
    code, out, _ = run("puzzle", path, "--try", input="quit\n")
    assert code == 0 and "Puzzle left." in out and "Answer (" not in out
    code, out, err = run("puzzle", path, "--try", input="")
    assert code == 1 and one_error_line(err) and "the input ended before the puzzle did" in err
    code, out, err = run("puzzle", path, "--try", "--json")
    assert code == 2 and one_error_line(err) and "--try" in err and out == ""
    code, out, err = run("puzzle", path, "--try", "--budget", "1", input="1\n")
    assert code == 1 and one_error_line(err) and "--try needs the proven solution" in err


def test_puzzle_try_plays_a_forced_pass_for_the_player(tmp_path: Path) -> None:
    # A late classic position where the player's first choice is a pass with no other move:
    # it is played for him, as `conquian play` does, and the try goes on.
    import random

    from analyzer.core.dealing import deal
    from analyzer.core.moves import Pass
    from analyzer.core.state import dump_position

    found = None
    for seed in range(300):
        rng = random.Random(seed)
        state = deal("classic", rng)
        while not state.is_terminal() and found is None:
            moves = state.legal_moves()
            if state.stock_count <= 6 and not state.is_chance_node() and moves == [Pass()]:
                found = state
                break
            state = state.apply(moves[0] if state.is_chance_node() else rng.choice(moves))
        if found is not None:
            break
    assert found is not None
    path = tmp_path / "forced.json"
    puzzle = {"type": "puzzle", "title": "forced", "question": {"kind": "win", "player": found.to_act},
              "position": dump_position(found)}  # fmt: skip
    path.write_text(json.dumps(puzzle), encoding="utf-8")
    code, out, err = run("puzzle", str(path), "--try", input="quit\n" * 30)
    assert code == 0, err
    text = " ".join(out.split())
    assert "you pass (your only move" in text
    assert text.index("you pass (your only move") < text.find("your move>") or "your move>" not in text
