"""The one-line position notation (docs/notation.md): exact round trips, errors naming the field
and the column, and every command reading it in place of a position file."""

from __future__ import annotations

import doctest
import json
import random
import re
from pathlib import Path

import pytest
from cli_run import one_error_line, run
from conftest import EXAMPLES, ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

import analyzer.formats.notation
from analyzer.core.errors import PositionError
from analyzer.formats.notation import (
    NotationError,
    format_notation,
    looks_like_notation,
    notation_data,
    parse_notation,
)
from analyzer.core.dealing import deal, view
from analyzer.core.plain import dump_position, relabel
from analyzer.formats.position import load_position
from analyzer.formats.sniff import read_position
from analyzer.core.state import GameState, Phase
from cli.results import analyze_data

POSITIONS = sorted(
    p
    for p in EXAMPLES.glob("*.json")
    if json.loads(p.read_text()).get("type") != "melds" and "impossible" not in p.name
)
FORCING = "classic french 1 1 KS,KH[AC,2C,3C,4C][4S,5S,6S,7S]/AH,2H,2D,3S,3D,5D,6H,JD,QH,QD 5C:turned:0:0 7D 18"


def test_doctests() -> None:
    assert doctest.testmod(analyzer.formats.notation).failed == 0


@pytest.mark.parametrize("path", POSITIONS, ids=[p.name for p in POSITIONS])
def test_examples_round_trip_exactly(path: Path) -> None:
    state = read_position(path)
    text = format_notation(state)
    assert "\n" not in text and looks_like_notation(text)
    again = parse_notation(text)
    assert again == state and again.rules.labels == state.rules.labels
    assert format_notation(again) == text


def test_the_forcing_example_reads_as_documented() -> None:
    assert format_notation(read_position(EXAMPLES / "forcing.json")) == FORCING


def _played(variant: str, seed: int, moves: int, seat: int | None) -> GameState:
    """A dealt position played ``moves`` random legal moves, perhaps seen by one seat."""
    rng = random.Random(seed)
    state = deal(variant, seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state = state.apply(rng.choice(state.legal_moves()))
    if seat is not None:
        seat %= state.rules.players
        # A view during the exchange hides the others' chosen cards (R9); who is to act says
        # how far the exchange has gone, so such a view round-trips too.
        state = view(state, seat)
    return state


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(["classic", "megajogos"]),
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 90),
    seat=st.none() | st.integers(0, 2),
    spanish=st.booleans(),
)
def test_round_trip_of_dealt_and_played_positions(
    variant: str, seed: int, moves: int, seat: int | None, spanish: bool
) -> None:
    state = _played(variant, seed, moves, seat)
    if spanish:
        state = relabel(state, "spanish")
    text = format_notation(state)
    again = parse_notation(text)
    assert again == state  # position -> text -> position
    assert format_notation(again) == text  # text -> position -> text
    assert load_position(dump_position(again)) == state  # the same as the file
    assert analyze_data(again) == analyze_data(load_position(dump_position(state)))


@pytest.mark.parametrize("path", POSITIONS, ids=[p.name for p in POSITIONS])
def test_analyze_from_the_text_equals_analyze_from_the_file(path: Path) -> None:
    code, text, _ = run("notation", str(path))
    assert code == 0
    line = text.strip()
    assert len(text.strip().splitlines()) == 1
    from_file = run("analyze", str(path), "--json")
    from_text = run("analyze", line, "--json")
    assert from_file[0] == from_text[0] == 0
    assert json.loads(from_file[1]) == json.loads(from_text[1])


def test_every_position_command_reads_the_notation(tmp_path: Path) -> None:
    puzzle = json.loads((ROOT / "examples" / "puzzles" / "classic-win-1.json").read_text())
    exact = load_position(puzzle["position"])
    line = format_notation(exact)
    file = tmp_path / "p.json"
    file.write_text(json.dumps(puzzle["position"]))
    for args in (
        ["analyze", "--json"],
        ["hint", "--static", "--json"],
        ["hint", "--samples", "2", "--time-limit", "10", "--json"],
        ["why", "pass", "--samples", "2", "--time-limit", "10", "--json"],
        ["solve", "--json"],
        ["solve", "--all-moves", "--json"],
        ["tree", "--depth", "1", "--json"],
        ["notation", "--json"],
    ):
        name, rest = args[0], args[1:]
        if name == "why":
            rest = [rest[0], *rest[1:]]
            by_text = run(name, line, *rest)
            by_file = run(name, str(file), *rest)
        else:
            by_text = run(name, line, *rest)
            by_file = run(name, str(file), *rest)
        assert by_text[0] == by_file[0] == 0, (args, by_text[2])
        a, b = json.loads(by_text[1]), json.loads(by_file[1])
        for data in (a, b):
            data.pop("seconds", None)
            for move in data.get("moves", []):
                move.pop("seconds", None)
        assert a == b, args
    code, out, _ = run("show", line)
    assert code == 0 and "to act" in out


def test_notation_on_stdin_and_in_a_file(tmp_path: Path) -> None:
    expected = json.loads(run("analyze", str(EXAMPLES / "forcing.json"), "--json")[1])
    code, out, _ = run("analyze", "-", "--json", input=FORCING + "\n")
    assert code == 0 and json.loads(out) == expected
    path = tmp_path / "forcing.txt"
    path.write_text(FORCING + "\n")
    code, out, _ = run("analyze", str(path), "--json")
    assert code == 0 and json.loads(out) == expected


def test_notation_json_and_labels() -> None:
    code, out, _ = run("notation", str(EXAMPLES / "forcing.json"), "--json")
    data = json.loads(out)
    assert code == 0 and data["notation"] == FORCING
    assert load_position(data["position"]) == parse_notation(FORCING)
    code, out, _ = run("notation", FORCING, "--labels", "spanish")
    spanish = out.strip()
    assert code == 0 and spanish.startswith("classic spanish 1 1 12e,12c[1b,2b,3b,4b]")
    assert relabel(parse_notation(spanish), "french") == parse_notation(FORCING)  # same cards...
    assert format_notation(parse_notation(spanish)) == spanish  # ...read back in Spanish


def test_defaults_of_the_trailing_fields() -> None:
    # No centre, no dead cards, and a stock of the cards not elsewhere.
    state = parse_notation(
        "classic - - - AS,2S,3S,4S,5S,6S,7S,JS,QS,KS/AH,2H,3H,4H,5H,6H,7H,JH,QH,KH"
    )
    assert state.stock_count == 20 and state.centre is None and state.dead == ()
    assert state.dealer == 1 and state.to_act == 0 and state.phase is Phase.TURN
    hidden = parse_notation("megajogos spanish 0 - 8/8/8 - - chosen:-,-,-")
    assert hidden.phase is Phase.EXCHANGE and hidden.to_act == 1 and hidden.stock_count == 16


def test_known_empty_and_hidden_empty_differ() -> None:
    known = read_position(EXAMPLES / "example6-going-out.json")
    text = format_notation(known)
    assert " -[" in text  # the empty known hand
    hidden = format_notation(view(known, 1))
    assert " 0[" in hidden and parse_notation(hidden) == view(known, 1)


BAD = [
    # text, field, the text the error points at (its column is checked), message
    ("", "variant", "", "empty"),
    ("classic", "labels", None, "missing field 'labels'"),
    ("classic french 1 1", "players", None, "missing field 'players'"),
    ("chess french 1 1 x", "variant", "chess", "unknown variant 'chess'"),
    ("classic klingon 1 1 x", "labels", "klingon", "french, spanish or -"),
    ("classic french 2 1 x/y", "dealer", "2 1", "from 0 to 1"),
    ("classic french 1 one x/y", "to_act", "one", "seat number"),
    ("classic french 1 1 AS/2S/3S", "players", "AS/", "2 players"),
    (FORCING.replace("KS,KH", "KS,ZZ"), "players", "ZZ", "not a card: 'ZZ'"),
    (FORCING.replace("KS,KH", "KS,,KH"), "players", ",KH", "empty card"),
    (FORCING.replace("[4S,5S,6S,7S]", "[4S,5S,6S,7S"), "players", "[4S", "unclosed '['"),
    (FORCING.replace("[4S,5S,6S,7S]", "x[4S,5S,6S,7S]"), "players", "x[4S", "expected '['"),
    (FORCING.replace(" 7D ", " KH "), "dead", "KH 18", "duplicate card: 'KH'"),
    (FORCING.replace("5C:turned", "5C:thrown"), "centre", "thrown", "turned, paid or upcard"),
    (FORCING.replace("5C:turned:0:0", "5C:turned"), "centre", "5C:", "CARD:KIND:SOURCE"),
    (FORCING.replace(":0:0 ", ":0:7 "), "centre", "7 7D", "from 0 to 1"),
    (FORCING.replace(" 18", " 1x"), "stock", "1x", "not a card: '1x'"),
    (FORCING.replace(" 18", " 41"), "stock", "41", "the deck has 40"),
    (FORCING + " foo", "exchange", "foo", "unexpected field 'foo'"),
    (FORCING + " gave:AS", "gave", "gave:", "one card or '-' per player"),
    (FORCING + " gave:-,-", "gave", "gave:", "classic has no exchange, so nobody passed a card (R9)"),
    (FORCING + " chosen:5H,-", "chosen", "chosen:", "classic has no exchange, so nobody chooses"),
    (FORCING.replace("AH,2H", "AH,2C").replace(",QD ", ",12o "), "players", "2C", "ambiguous"),
    # An empty meld or centre card is not told "write '-' for none", which fails too.
    (FORCING.replace("6S,7S]", "6S,7S][]"), "players", "]/AH", "a meld has three cards or more"),
    (FORCING.replace("5C:turned", ":turned"), "centre", ":turned", "the whole field is '-'"),
    # A space after a comma cuts the players field; the message says so, not only "got 1".
    (FORCING.replace("KS,KH", "KS, KH"), "players", "KS, KH", "got 1; the field ends with ','"),
    # A space before '[' or around '/' too.
    (FORCING.replace("KS,KH[", "KS,KH ["), "players", "KS,KH [", "got 1; the field is followed by '['"),
    (FORCING.replace("]/AH", "] /AH"), "players", "KS,KH[", "got 1; the field is followed by '/'"),
    (FORCING.replace("]/AH", "]/ AH"), "players", "KS,KH[", "the field ends with '/': a space ends"),
]


@pytest.mark.parametrize(("text", "field", "at", "needle"), BAD)
def test_errors_name_the_field_and_the_column(
    text: str, field: str, at: str | None, needle: str
) -> None:
    column = len(text) + 2 if at is None else text.index(at) + 1
    with pytest.raises(NotationError) as info:
        notation_data(text)
    error = info.value
    assert isinstance(error, PositionError) and isinstance(error, ValueError)
    assert (error.field, error.column) == (field, column), str(error)
    assert needle in str(error)
    assert f"notation field '{field}' at column {column}: " in str(error)
    assert error.line == 1 and " line " not in str(error)


@pytest.mark.parametrize(
    ("text", "field", "at", "needle"),
    [b for b in BAD if b[2] is not None and " " in b[0][: b[0].index(b[2])]],  # not in the first field
)
def test_a_notation_over_two_lines_names_the_line(
    text: str, field: str, at: str, needle: str
) -> None:
    # A notation read from a file or standard input may span lines (fields are separated by
    # any whitespace): the error then says which line, and the column within it.
    start = text.index(at)
    cut = text.rfind(" ", 0, start)
    two = text[:cut] + "\n" + text[cut + 1 :]
    with pytest.raises(NotationError) as info:
        notation_data(two)
    error = info.value
    assert (error.field, error.line, error.column) == (field, 2, start - cut), str(error)
    assert f"notation field '{field}' at line 2, column {start - cut}: " in str(error)
    assert needle in str(error)


def test_a_second_place_in_a_message_names_its_line_too() -> None:
    two = FORCING.replace(" KS,KH", "\nKS,KH").replace(",QD ", ",KS ")
    with pytest.raises(NotationError, match=r"at line 2, column 60: .*\(line 2, column 1\)"):
        notation_data(two)
    with pytest.raises(NotationError, match=r"at column \d+: .*\(column 20\) \(R1\)"):
        notation_data(FORCING.replace(",QD ", ",KS "))
    code, _, err = run("analyze", "-", input=two + "\n")
    assert code == 1 and one_error_line(err) and "line 2, column 60" in err


def test_a_text_that_parses_can_still_be_impossible() -> None:
    with pytest.raises(PositionError, match="add up to 41") as info:
        parse_notation(FORCING.replace(" 18", " 19"))
    assert not isinstance(info.value, NotationError)


def test_cli_errors_are_one_line_usage_for_syntax_domain_for_rules() -> None:
    code, out, err = run("analyze", FORCING.replace("5C:turned", "5C:thrown"))
    assert code == 2 and one_error_line(err) and out == ""
    assert "notation field 'centre' at column 85" in err and "(see 'conquian analyze --help')" in err
    code, _, err = run("hint", FORCING.replace(" 18", " 19"))
    assert code == 1 and one_error_line(err) and "add up to 41" in err
    code, _, err = run("analyze", "-", input=FORCING.replace("5C:turned", "5C:thrown"))
    assert code == 1 and one_error_line(err) and "column 85" in err  # file content: domain
    code, _, err = run("analyze", "not-a-file.json")
    assert code == 2 and "no such position file" in err


def test_the_documented_examples_parse() -> None:
    doc = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    examples = re.findall(r"^    ((?:classic|megajogos) .+)$", doc, flags=re.MULTILINE)
    assert len(examples) >= 4
    for text in examples:
        state = parse_notation(text)
        canonical = format_notation(state)
        assert canonical.startswith(text) and parse_notation(canonical) == state, text
    for line in re.findall(r"^\| `([^`]+)` \| ([a-z_]+) \| (\d+) \|", doc, flags=re.MULTILINE):
        text, field, column = line
        with pytest.raises(NotationError) as info:
            notation_data(text)
        assert (info.value.field, info.value.column) == (field, int(column)), text


EDITS = st.sampled_from(
    [" ", ",", "/", "[", "]", ":", "-", "0", "9", "10o", "7C", "KH", "AS", "turned", "paid",
     "chosen:", "gave:", "x", "♣", "\t", "²", "9" * 5000]
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(
    base=st.sampled_from(POSITIONS),
    where=st.floats(0, 1),
    cut=st.integers(0, 6),
    insert=st.lists(EDITS, max_size=3),
)
def test_mutated_notations_parse_or_fail_with_one_position_error(
    base: Path, where: float, cut: int, insert: list[str]
) -> None:
    text = format_notation(read_position(base))
    at = int(where * len(text))
    mutated = text[:at] + "".join(insert) + text[at + cut :]
    try:
        state = parse_notation(mutated)
    except NotationError as exc:
        assert 1 <= exc.column <= len(mutated) + 2 and exc.field
        assert "\n" not in str(exc)
    except PositionError as exc:
        assert "\n" not in str(exc)
    else:
        assert parse_notation(format_notation(state)) == state


@pytest.mark.parametrize("count", ["41", "99999999999999999999999", "9" * 5000])
def test_a_huge_stock_count_says_what_is_wrong(count: str) -> None:
    # A huge stock number says what is wrong, not "the stock: not a card".
    code, _, err = run("notation", f"classic french 1 1 KS,KH/AH 5C:turned:0:0 7D {count}")
    assert code == 2 and one_error_line(err), err
    assert "notation field 'stock'" in err and "cards: the deck has 40 (R1)" in err
    assert "not a card" not in err and "File name too long" not in err


def test_huge_seat_and_hand_numbers_say_what_is_wrong() -> None:
    code, _, err = run("notation", "classic french 1 12345 KS,KH/AH 5C:turned:0:0 7D 18")
    assert code == 2 and "to_act must be a seat from 0 to 1 in classic, got 12345" in err
    code, _, err = run("notation", "classic french 1 1 KS,KH/12345678901 5C:turned:0:0 7D 18")
    assert code == 2 and "hidden hand: 12345678901 cards, more than the 10 dealt" in err


def test_a_wrapper_notation_must_describe_its_position(tmp_path: Path) -> None:
    # 'notation --json' output with its notation edited is not read from 'position' alone.
    code, out, _ = run("notation", "--json", str(EXAMPLES / "forcing.json"))
    wrapper = json.loads(out)
    path = tmp_path / "nj.json"
    path.write_text(json.dumps(wrapper))
    assert run("analyze", str(path))[0] == 0
    other = json.loads(run("notation", "--json", str(EXAMPLES / "example4-rearrangement.json"))[1])
    for notation, needle in (
        ("garbage", "notation: notation field"),
        (other["notation"], "does not describe the same position as 'position'"),
    ):
        path.write_text(json.dumps({**wrapper, "notation": notation}))
        code, _, err = run("analyze", str(path))
        assert code == 1 and one_error_line(err) and "notation" in err and needle in err, err
