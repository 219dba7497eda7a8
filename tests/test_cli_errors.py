"""Bad input on the command line and in files: one line on stderr, the right exit code, no traceback.

Exit 2 is a usage error (bad argument, option, card on the command line, missing file, unusable
output path); exit 1 a domain error (file content, position impossible under the rules).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import forcing, one_error_line, run, run_process
from conftest import EXAMPLES

from analyzer.core.errors import IllegalMoveError
from analyzer.core.moves import parse_move
from cli.engine import answer
from cli.main import main


def test_deeply_nested_json_is_one_line() -> None:
    deep = "[" * 3000 + "]" * 3000
    for command in ("hint", "analyze", "replay"):
        code, out, err = run(command, "-", input=deep)
        assert code == 1 and one_error_line(err) and "Traceback" not in out


def test_markup_in_a_path_is_printed_as_is(tmp_path: Path) -> None:
    folder = tmp_path / "["
    folder.mkdir()
    path = folder / "]x [draft].json"
    path.write_text((EXAMPLES / "forcing.json").read_text())
    code, out, _ = run("analyze", str(path))
    # Wrapped between words at the output's width: read with the breaks as spaces.
    assert code == 0 and "[/]x [draft].json" in " ".join(out.split())


def test_directory_and_binary_inputs(tmp_path: Path) -> None:
    code, _, err = run("hint", str(tmp_path))
    assert code == 2 and "is a directory" in err
    binary = tmp_path / "b.json"
    binary.write_bytes(b"\xff\xfe\x00")
    for command in ("hint", "analyze", "replay"):
        code, _, err = run(command, str(binary))
        assert code == 1 and "not UTF-8" in err


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("command", ["analyze", "replay", "puzzle"])
def test_an_endless_input_is_refused_not_read_whole(command: str) -> None:
    # Reading /dev/zero whole would fill the memory: inputs are read up to MAX_INPUT bytes.
    code, _, err = run(command, "/dev/zero")
    assert code == 2 and one_error_line(err) and "/dev/zero' is larger than 32 MB" in err


def test_files_with_bom_empty_names_and_version(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + (EXAMPLES / "forcing.json").read_bytes())
    assert run("analyze", str(path))[0] == 0
    code, _, err = run("hint", "")
    assert code == 2 and "empty" in err
    code, out, _ = run("--version")
    assert code == 0 and out.startswith("conquian ")


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


MISSPELT = "mexcan french 1 1 KS,KH[AC,2C,3C,4C][4S,5S,6S,7S]/AH,2H,2D,3S,3D,5D,6H,JD,QH,QD 5C:turned:0:0 7D 18"


def test_a_misspelt_variant_is_answered_with_the_nearest_preset(tmp_path: Path) -> None:
    """Wherever a variant is named (an option, a position, its notation, a record, a request),
    the nearest preset is suggested; a name near none lists the presets alone."""
    position = tmp_path / "position.json"
    position.write_text(json.dumps({**forcing(), "variant": "clasic"}))
    notation = tmp_path / "position.txt"
    notation.write_text(MISSPELT + "\n")
    record = tmp_path / "game.jsonl"
    lines = (EXAMPLES.parent / "records" / "classic-hint-vs-greedy.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    record.write_text("\n".join([json.dumps({**header, "variant": "Clasic"}), *lines[1:]]) + "\n")
    for args, code, meant in [
        (("deal", "--variant", "mexcan"), 2, "mexican"),
        (("simulate", "--variant", "megajogo", "--games", "1"), 2, "megajogos"),
        (("analyze", str(position)), 1, "classic"),
        (("analyze", MISSPELT), 2, "mexican"),
        (("analyze", str(notation)), 1, "mexican"),
        (("replay", str(record)), 1, "classic"),
    ]:
        got, _, err = run(*args)
        assert got == code and f"did you mean {meant!r}?" in err and one_error_line(err), (args, err)
    reply, _ = answer(json.dumps({"id": 1, "cmd": "deal", "variant": "hoyle"}))
    assert "did you mean 'hoyle1897'?" in reply["error"]
    _, _, err = run("deal", "--variant", "gin")
    assert "did you mean" not in err and "known: classic" in err


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("melds", "AS", "2S", "9S"), "'9S'"),
        (("melds", "AS", "AS", "2S"), "duplicate card: 'AS'"),
        (("melds", "AS", "--variant", "gin"), "unknown variant: 'gin'"),
        (("melds", "AS", "2S", "3S", "--must", "4S"), "4S"),
        (("melds", ""), "no cards"),
        (("hint", "no-such-file.json"), "no such position file"),
        (("simulate", "--games", "0"), "--games"),
        (("simulate", "--bots", "greedy,deepblue"), "unknown bot: 'deepblue'"),
        (("simulate", "--bots", "greedy,deepblue:infer=x"), "unknown bot: 'deepblue' (known"),
        (("simulate", "--bots", "greedy,random,random"), "2 seats"),
        # An empty entry is not dropped silently ("greedy," would play greedy at every seat).
        (("simulate", "--bots", "greedy,"), "--bots 'greedy,' has an empty entry"),
        (("simulate", "--bots", ",greedy"), "--bots ',greedy' has an empty entry"),
        (("play", "--bots", "greedy,,random"), "--bots 'greedy,,random' has an empty entry"),
        (("simulate", "--bots", " "), "--bots ' ' is empty"),
        (("simulate", "--variant", "poker"), "unknown variant"),
        (("simulate", "--games", "2", "--jobs", "100000"), "--jobs"),
        (("replay", "missing.jsonl"), "no such record file"),
        (("play", "--seat", "5"), "--seat"),
        (("why", str(EXAMPLES / "forcing.json"), "dance"), "not a move"),
    ],
)
def test_usage_errors_exit_2_with_one_line_naming_the_command_help(
    args: tuple[str, ...], needle: str
) -> None:
    code, out, err = run(*args)
    assert code == 2 and needle in err and one_error_line(err), err
    # The pointer is to the command's own help, not the top-level one.
    assert f"(see 'conquian {args[0]} --help')" in err
    assert "Traceback" not in out


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("{not json", "not valid JSON"),
        ('{"a": 1}\n{"b": 2}\n', "not valid JSON: Extra data"),
        # Text that is neither kind is named as neither, not only "not valid JSON", and
        # standard input may hold the notation too.
        ("garbage\n", "is neither JSON nor the one-line notation, which starts with a variant (classic, megajogos, mexican, mexican_9_10, hoyle1897, cooncan1913); it starts with 'garbage'"),
        ("\n  \n", "is empty: give a position, as JSON or the one-line notation"),
        (
            (EXAMPLES.parent / "records" / "classic-hint-vs-greedy.jsonl").read_text(),
            "is a game record (JSON lines), not a position",
        ),
        (
            (EXAMPLES.parent / "records" / "classic-hint-vs-greedy.jsonl").read_text().splitlines()[0],
            "is a game record (JSON lines), not a position",
        ),
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
        assert needle in err and one_error_line(err)
        assert "Traceback" not in out
    assert path.read_text() == text  # nothing the user had is changed


def test_usage_errors_are_one_line_through_the_console_entry_point() -> None:
    for args in (["melds"], ["simulate", "--games", "0"], ["nocmd"], ["melds", "AS", "--bogus"]):
        proc = run_process(*args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert one_error_line(proc.stderr)
    assert main(["variants", "--json"]) == 0


def test_a_full_output_device_is_one_line() -> None:
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-c", "import sys; from cli.main import main; sys.exit(main())",
             "variants"],
            stdout=full, stderr=subprocess.PIPE, text=True, timeout=120,
        )  # fmt: skip
    assert proc.returncode == 1 and "cannot write the output" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_long_move_text_is_clipped() -> None:
    with pytest.raises(IllegalMoveError) as info:
        parse_move("take [" + "AS " * 50_000 + "] out")
    assert len(str(info.value)) < 300


def test_a_number_too_long_to_read_is_one_line() -> None:
    huge = "9" * 5000
    code, out, err = run("analyze", "-", input='{"variant": "classic", "stock": ' + huge + "}")
    assert code == 1 and one_error_line(err) and "Traceback" not in out
    # The JSON is valid: the number is what cannot be read (not "not valid JSON: ... 5000 di").
    assert "not valid JSON" not in err and "a number has too many digits (5000;" in err
    header = (EXAMPLES.parent / "puzzles" / "classic-win-1.json").read_text()
    start = json.loads(header)["position"]
    header = json.dumps({"format": "conquian-record", "start": start})
    code, _, err = run("replay", "-", input=header + '\n{"n": ' + huge + "}\n")
    assert code == 1 and one_error_line(err) and "line 2: a number has too many digits" in err


def _commands_with(option: str) -> list[str]:
    import typer.main

    from cli.main import app

    group = typer.main.get_command(app)
    return [
        name
        for name, command in group.commands.items()  # type: ignore[attr-defined]
        if any(option in getattr(p, "opts", ()) for p in command.params)
    ]


# Positional arguments that make each command otherwise valid.
_ARGS = {
    "hint": [str(EXAMPLES / "forcing.json")],
    "why": [str(EXAMPLES / "forcing.json"), "pass"],
    "review": [str(EXAMPLES.parent.parent / "tests" / "golden" / "classic-1.jsonl")],
}


def test_negative_seeds_are_refused_everywhere() -> None:
    # --seed S and --seed -S would give the same results (Random uses abs of an int).
    names = _commands_with("--seed")
    assert set(names) >= {"deal", "hint", "play", "review", "simulate", "why"}
    for name in names:
        code, out, err = run(name, *_ARGS.get(name, []), "--seed", "-3", input="quit\n")
        assert code == 2 and one_error_line(err) and "--seed" in err and "greater than or equal to 0" in err, (name, err)
        assert out == ""
    for cmd, extra in (("hint", {"static": False, "samples": 1}), ("why", {"move": "pass"})):
        reply, _ = answer(json.dumps({"id": 1, "cmd": cmd, "position": forcing(), "seed": -3, **extra}))
        assert reply["ok"] is False and reply["field"] == "seed" and "from 0 to" in reply["error"]


def test_option_errors_point_at_the_command_and_name_the_value() -> None:
    # A missing option value is found before the command has a context: still its own help.
    code, _, err = run("hint", "--samples")
    assert code == 2 and one_error_line(err) and "(see 'conquian hint --help')" in err
    code, _, err = run("hint", "--samples", "-5")
    assert code == 2 and "(got '-5')" in err and "conquian hint --help" in err
    code, _, err = run("hint", "--time-limit=nan")
    assert code == 2 and "(got 'nan')" in err
    # NaN is no number, not a number below the least value (it compares false with every bound).
    for text in ("nan", "-NaN"):
        code, _, err = run("review", "x.jsonl", f"--time-limit={text}")
        assert code == 2 and one_error_line(err) and "'--time-limit': not a number" in err, err
        assert "greater than" not in err and f"(got '{text}')" in err
    code, _, err = run("hint", "--samples", "nan")  # a whole-number option keeps its own message
    assert code == 2 and "valid integer" in err and "(got 'nan')" in err
    # A value glued to a short option is named too (-nnan, -n-3).
    for glued, typed in (("-nnan", "nan"), ("-n-3", "-3"), ("-n5x", "5x")):
        code, _, err = run("hint", glued)
        assert code == 2 and one_error_line(err) and f"(got '{typed}')" in err, err
    code, _, err = run("melds", "AS", "--labels", "nan")  # and a choice its own
    assert code == 2 and "not a number" not in err and "'nan'" in err and "french" in err
    code, _, err = run("melds", "AS", "--labels", "german")
    assert code == 2 and "Value error" not in err and "'german'" in err


def test_solve_notes_a_three_player_mode_on_two_players() -> None:
    # The search is the same either way: a note on stderr, and the same answer.
    position = str(EXAMPLES / "example6-going-out.json")
    code, out, err = run("solve", position, "--mode", "paranoid", "--prove", "100", "--samples", "1", "--json")
    assert code == 0 and one_error_line(err) and "Note: --mode has no effect" in err and "has two" in err
    code, plain, _ = run("solve", position, "--prove", "100", "--samples", "1", "--json")
    assert json.loads(out)["moves"] == json.loads(plain)["moves"]


def test_completion_for_an_unknown_shell_is_refused_before_anything_is_written() -> None:
    code, out, err = run("--install-completion", "bogusshell")
    assert code == 2 and one_error_line(err) and "'bogusshell'" in err and out == ""


def test_messages_say_twice_and_name_a_wrong_record_format(tmp_path: Path) -> None:
    data = forcing()
    hand = data["players"][0]["hand"]
    hand[1] = hand[0]
    path = tmp_path / "twice.json"
    path.write_text(json.dumps(data))
    code, _, err = run("analyze", str(path))
    assert code == 1 and f"{hand[0]!r} in player 0's hand is twice" in err
    record = tmp_path / "r.jsonl"
    record.write_text('{"format": "chess", "start": {}}\n')
    code, _, err = run("replay", str(record))
    assert code == 1 and 'format is "chess", not "conquian-record"' in err


def test_a_record_given_as_a_puzzle_or_meld_queries_is_named_as_such() -> None:
    record = str(EXAMPLES.parent / "records" / "classic-hint-vs-greedy.jsonl")
    code, _, err = run("puzzle", record)
    assert code == 1 and "is a game record (JSON lines), not a puzzle" in err and one_error_line(err)
    code, _, err = run("melds", "--file", record)
    assert code == 1 and "not a meld query file" in err and one_error_line(err)


def test_an_empty_card_argument_is_refused() -> None:
    """``conquian melds 5H 6H ""``: the empty argument is named, not silently dropped."""
    code, out, err = run("melds", "5H", "6H", "")
    assert code == 2 and one_error_line(err) and "an empty argument ('') is not a card" in err
    assert out == ""


def test_a_notation_with_an_unknown_variant_says_so() -> None:
    """Several words that name no file read as a notation whose first field is no variant."""
    code, _, err = run("analyze", "nope french 1 1 KS,KH 5C:turned:0:0 7D 18")
    assert code == 2 and one_error_line(err)
    assert "no such position file" in err and "first field must be a variant" in err and "'nope'" in err
    code, _, err = run("analyze", "my pos.json")  # two words: a file name, as before
    assert code == 2 and "no such position file: 'my pos.json'" in err


def test_a_variant_alone_is_read_as_the_start_of_a_notation() -> None:
    # A first word that is a variant starts a notation line, so it is not "no such position
    # file: 'classic'".
    for text in ("classic", "MEGAJOGOS"):
        code, out, err = run("analyze", text)
        assert code == 2 and one_error_line(err) and out == ""
        assert "as the one-line notation it has only its first field" in err and repr(text) in err


@pytest.mark.parametrize(
    "args",
    [
        ["show", str(EXAMPLES / "forcing.json")],
        ["analyze", str(EXAMPLES / "forcing.json")],
        ["deal", "--seed", "1"],
        ["--help"],
        ["variants", "--json"],
    ],
)
def test_a_reader_gone_away_ends_quietly_with_0(args: list[str]) -> None:
    # With '| head' every command stops quietly with exit code 0, those printing through rich
    # too (rich's own choice would be exit 1).
    import os
    import subprocess

    from cli_run import CONQUIAN

    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first write
    try:
        done = subprocess.run([*CONQUIAN, *args], stdout=write, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)
    assert done.returncode == 0 and done.stderr == "", (done.returncode, done.stderr)


@pytest.mark.parametrize(
    "args",
    [("deal", "--seed", "3", "--seed", "-3"), ("deal", "--seed=3", "--seed=-3"),
     ("hint", "--samples", "4", "-n", "-3")],
)
def test_an_option_given_twice_is_quoted_by_the_value_that_counts(args: tuple[str, ...]) -> None:
    # 'deal --seed 3 --seed -3' quotes "(got '-3')": the last value counts.
    code, out, err = run(*args)
    assert code == 2 and one_error_line(err) and "(got '-3')" in err and out == ""


def test_a_card_in_two_melds_of_a_move_is_named() -> None:
    # Not "a card appears in two melds": the card is named.
    with pytest.raises(IllegalMoveError, match=r"^5D appears in two melds in move 'take \[3D 4D 5D\]"):
        parse_move("take [3D 4D 5D] [5C 5D 5H] pay QH")
    code, _, err = run("why", str(EXAMPLES / "forcing.json"), "take [3D 4D 5D] [5C 5D 5H] pay QH")
    assert code == 2 and one_error_line(err) and "5D appears in two melds" in err


@pytest.mark.parametrize("text", ["take [] pay AH", "take [ ] [AH 2H 3H] pay AH", "meld []", "lay [] out"])
def test_an_empty_meld_in_a_move_is_a_usage_error(text: str) -> None:
    # 'take [] pay AH' is a usage error, as 'take pay AH' is ("lists no melds"), not read and
    # refused later as "[] is not a meld" with exit 0.
    with pytest.raises(IllegalMoveError, match=r"^an empty meld '\[\]' in move"):
        parse_move(text)
    code, out, err = run("why", str(EXAMPLES / "forcing.json"), text)
    assert code == 2 and one_error_line(err) and "an empty meld '[]'" in err and out == ""


@pytest.mark.parametrize(
    "text",
    [
        "take[5S 5D 5C]pay AD",
        "take [5S 5D 5C],[2H 3H 4H] pay AD",
        "take [5S 5D 5C] , [2H 3H 4H] pay AD",
        "TAKE[2H,3H,4H][5S,5D,5C]PAY AD",
    ],
)
def test_brackets_need_no_spaces_and_a_comma_may_part_melds(text: str) -> None:
    # 'take[5S 5D 5C]pay AD' and 'take [..], [..] pay AD' are moves.
    want = parse_move("take [5S 5D 5C] [2H 3H 4H] pay AD" if "2H" in text else "take [5S 5D 5C] pay AD")
    assert parse_move(text) == want


@pytest.mark.parametrize("text", ["take [5S 5D 5C], pay AD", "take , [5S 5D 5C] pay AD", "take [5S 5D 5C],, [2H 3H 4H] pay AD"])
def test_a_comma_outside_brackets_only_parts_melds(text: str) -> None:
    with pytest.raises(IllegalMoveError, match=r"^expected 'pay CARD' or 'out'|lists no melds"):
        parse_move(text)


def test_counts_of_one_are_singular() -> None:
    # Not "player 0 has 1 cards in hand" or "Evaluated on 1 sampled deals".
    code, _, err = run("analyze", "classic french 1 1 KS/AH")
    assert code == 1 and "player 0 has 1 card in hand and 0 melded" in err
    code, out, _ = run("hint", str(EXAMPLES / "forcing.json"), "--samples", "1", "--time-limit", "1e400")
    text = " ".join(out.split())
    assert code == 0 and "Evaluated on 1 sampled deal of the cards" in text and "1 sampled deals" not in text
    # and 'why' too (not "wins 46% of 1 sampled deals")
    code, out, _ = run("why", str(EXAMPLES / "forcing.json"), "pass", "--samples", "1", "--time-limit", "1e400")
    text = " ".join(out.split())
    assert code == 0 and "of 1 sampled deal" in text and "1 sampled deals" not in text


def test_a_player_without_a_hand_key_is_told_so(tmp_path: Path) -> None:
    # A player object without "hand" is told so, not only "0 cards in hand and 8 melded: they
    # must add up to 10 (R7)".
    data = json.loads((EXAMPLES / "forcing.json").read_text())
    del data["players"][0]["hand"]
    path = tmp_path / "nohand.json"
    path.write_text(json.dumps(data))
    code, out, err = run("analyze", str(path))
    assert code == 1 and one_error_line(err) and out == ""
    assert "must add up to 10 (R7); player 0 has no 'hand' key, which reads as an empty hand" in err


def test_a_negative_rule_count_and_an_empty_position_are_named() -> None:
    """--rules max_run=-3 says the count is negative (it is a whole number); an empty POSITION
    says it is empty and what to give, not that a file named '' is missing (exit 2 each)."""
    code, _, error = run("deal", "--rules", "max_run=-3")
    assert code == 2 and "--rules: max_run must not be negative, got -3" in error
    code, _, error = run("hint", "")
    assert code == 2 and "an empty position: give a file, the one-line notation, or '-'" in error
