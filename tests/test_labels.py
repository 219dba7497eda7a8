"""Card labels (R2): one text is read in one label set, decided by its unambiguous cards; a
position's labels apply to the moves typed for it and to every answer; --labels chooses the output.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from cli_run import forcing, one_error_line, run
from conftest import EXAMPLES, ROOT

from analyzer.core.cards import Labels, parse_card, parse_cards, text_labels
from analyzer.core.errors import AmbiguousCardError, IllegalMoveError, PositionError
from analyzer.core.moves import Take, parse_move
from analyzer.core.plain import dump_position, relabel
from analyzer.formats.position import load_position, position_labels

PUZZLES = ROOT / "examples" / "puzzles"

# A megajogos position written in French labels, without a "labels" key.
FRENCH_MEGAJOGOS: dict[str, Any] = {
    "variant": "megajogos", "dealer": 2, "to_act": 0,
    "players": [{"hand": ["5C", "6C", "KS", "KH", "2D", "JH", "QH", "4S"], "layout": []},
                {"hand": 8, "layout": []}, {"hand": 8, "layout": []}],
    "stock": 15, "dead": [],
    "centre": {"card": "7C", "kind": "turned", "source": 0, "declined": []},
}  # fmt: skip

FRENCH_ONLY = re.compile(r"(?<![\w])(?:[AJQK][SHDC]|[2-7][SHD])(?![\w])")
SPANISH_ONLY = re.compile(r"(?<![\w])(?:1|1[012]|[2-7])[oeb](?![\w])")


def card(text: str) -> int:
    return parse_card(text)


# --- one text, one label set ----------------------------------------------------------------


def test_french_cards_decide_a_shared_token() -> None:
    # 7C next to 7H 7D is the 7 of clubs, whatever the default labels.
    for default in (Labels.FRENCH, Labels.SPANISH, None):
        assert parse_cards("7C 7H 7D", default) == [card("7C"), card("7H"), card("7D")]
        assert text_labels(["7C", "7H", "7D"], default) is Labels.FRENCH


def test_spanish_cards_decide_a_shared_token() -> None:
    for default in (Labels.FRENCH, Labels.SPANISH, None):
        assert parse_cards("7c 7o 12e", default) == [card("7H"), card("7D"), card("KS")]


def test_a_text_of_shared_tokens_only_takes_the_default_or_is_refused() -> None:
    assert parse_cards("5C 6C 7C", Labels.FRENCH) == [card("5C"), card("6C"), card("7C")]
    assert parse_cards("5C 6C 7C", Labels.SPANISH) == [card("5H"), card("6H"), card("7H")]
    with pytest.raises(AmbiguousCardError, match=r"'5C'.*choose the labels"):
        parse_cards("5C 6C 7C", None)


def test_a_real_mix_is_refused_naming_both_kinds_of_card() -> None:
    with pytest.raises(AmbiguousCardError) as info:
        parse_cards("AS 10o 7C", Labels.SPANISH)
    message = str(info.value)
    assert "'7C'" in message and "AS" in message and "10o" in message


def test_cards_of_each_set_without_a_shared_token_are_read() -> None:
    # Nothing reads two ways: each card has one reading (R2).
    assert parse_cards("AS 10o", None) == [card("AS"), card("JD")]


def test_declared_labels_contradicted_by_the_cards_are_refused() -> None:
    with pytest.raises(AmbiguousCardError, match="said to be spanish"):
        text_labels(["KS", "7C"], Labels.FRENCH, declared=Labels.SPANISH)
    assert text_labels(["KS", "JD"], None, declared=Labels.SPANISH) is Labels.SPANISH
    # With cards of both sets the declared set is named, not only "mixes".
    with pytest.raises(AmbiguousCardError, match="the labels are said to be french, but 10o is a spanish card"):
        text_labels(["KS", "10o", "7C"], None, declared=Labels.FRENCH)
    with pytest.raises(AmbiguousCardError, match="said to be spanish, but KS AH are french cards"):
        text_labels(["KS", "AH", "10o", "7C"], None, declared=Labels.SPANISH)
    # The message begins with the contradicting card, not the card that reads both ways.
    with pytest.raises(AmbiguousCardError, match=r"^the labels are said to be spanish, but KS is a french card, so '7C' is ambiguous \("):
        text_labels(["KS", "7C"], None, declared=Labels.SPANISH)
    with pytest.raises(AmbiguousCardError, match="mixes French cards"):
        text_labels(["KS", "10o", "7C"], None)


def test_a_move_is_one_text() -> None:
    # The pay card KS decides the run: clubs, not copas.
    move = parse_move("take [5C 6C 7C] pay KS", Labels.SPANISH)
    assert isinstance(move, Take) and move.layout == (parse_cards_mask("5C 6C 7C"),)
    move = parse_move("take [5c 6c 7c] pay 12e", Labels.FRENCH)
    assert isinstance(move, Take) and move.layout == (parse_cards_mask("5H 6H 7H"),)
    with pytest.raises(IllegalMoveError, match="'5C'"):
        parse_move("take [5C 6C 7C] out", None)


def parse_cards_mask(text: str) -> int:
    return sum(1 << c for c in parse_cards(text))


# --- positions ---------------------------------------------------------------------------------


def test_a_french_megajogos_position_without_labels_is_read_in_french() -> None:
    state = load_position(FRENCH_MEGAJOGOS)
    assert state.rules.labels is Labels.FRENCH and position_labels(FRENCH_MEGAJOGOS) is Labels.FRENCH
    assert state.centre is not None and state.centre.card == card("7C")  # clubs
    assert state.hand(0) >> card("5C") & 1 and state.hand(0) >> card("6C") & 1


def test_a_position_is_refused_only_when_nothing_decides(tmp_path: Path) -> None:
    # Every hand hidden: the centre 7C is the only card, and it reads both ways.
    hidden = {**FRENCH_MEGAJOGOS, "players": [{"hand": 8}, {"hand": 8}, {"hand": 8}]}
    with pytest.raises(PositionError, match=r"'7C'.*choose the labels") as info:
        load_position(hidden)
    # Where to choose them: in the position ('--labels' only sets the answer's labels, so the
    # message does not point there).
    assert str(info.value).endswith('write "labels": "french" or "spanish" in the position')
    assert "--labels" not in str(info.value)
    path = tmp_path / "hidden.json"
    path.write_text(json.dumps(hidden))
    code, _, err = run("analyze", str(path), "--labels", "french")
    assert code == 1 and '"labels": "french"' in err and "--labels" not in err
    code, _, err = run("notation", "megajogos - 0 1 5[2C,3C,4C]/8/8 - - 16", "--labels", "spanish")
    assert code == 2 and "notation field 'players' at column 19" in err
    assert "write french or spanish as the notation's second field" in err and "--labels french" not in err
    assert load_position({**hidden, "labels": "french"}).centre == load_position(FRENCH_MEGAJOGOS).centre
    spanish = load_position({**hidden, "labels": "spanish"})
    assert spanish.centre is not None and spanish.centre.card == card("7H")
    # In classic, French (R2's default) decides.
    classic = {"dealer": 1, "players": [{"hand": 10}, {"hand": 10}], "stock": 19,
               "centre": {"card": "5C", "source": 0}}  # fmt: skip
    state = load_position(classic)
    assert state.rules.labels is Labels.FRENCH and state.centre is not None
    assert state.centre.card == card("5C")


def test_a_real_mix_in_a_position_is_refused() -> None:
    mixed = json.loads(json.dumps(FRENCH_MEGAJOGOS))
    mixed["players"][0]["hand"] = ["5C", "6C", "KS", "KH", "2D", "JH", "QH", "10o"]
    with pytest.raises(PositionError, match="mixes French cards"):
        load_position(mixed)


def test_a_position_in_spanish_labels_reads_in_any_variant() -> None:
    french = load_position(forcing())
    data = dump_position(french, Labels.SPANISH)
    del data["labels"]
    spanish = load_position(data)
    assert spanish.rules.labels is Labels.SPANISH and relabel(spanish, "french") == french
    assert "centre 5b" in spanish.describe() and "centre 5C" in french.describe()


def test_moves_typed_for_a_position_use_its_labels(tmp_path: Path) -> None:
    data = {**FRENCH_MEGAJOGOS, "labels": "french"}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    code, out, err = run("why", str(path), "take [5C 6C 7C] pay KS", "--json", "--samples", "2",
                         "--time-limit", "5")  # fmt: skip
    assert code == 0, err
    result = json.loads(out)
    assert result["legal"] is True and result["move"] == "take [5C 6C 7C] pay KS"
    # A shared-token-only move is read in the position's labels, not the variant's.
    code, out, err = run("why", str(path), "take [5C 6C 7C] [JH QH KH] pay KS", "--json",
                         "--samples", "2", "--time-limit", "5")  # fmt: skip
    assert code == 0 and json.loads(out)["legal"] is True


def test_answers_about_a_french_position_are_in_french(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({**FRENCH_MEGAJOGOS, "labels": "french"}))
    code, out, _ = run("analyze", str(path))
    assert code == 0 and "centre 7C" in out and not SPANISH_ONLY.search(out)
    code, out, _ = run("hint", str(path), "--static", "--json")
    moves = [m["move"] for m in json.loads(out)["moves"]]
    assert code == 0 and "take [5C 6C 7C] pay KS" in moves
    assert not any(SPANISH_ONLY.search(m) for m in moves)


# --- the command line ---------------------------------------------------------------------------


def test_melds_reads_french_cards_in_megajogos() -> None:
    code, out, err = run("melds", "7C", "7H", "7D", "-v", "megajogos", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["melds"] == [["7H", "7D", "7C"]] and data["labels"] == "french"


def test_melds_refuses_to_guess_shared_tokens_in_megajogos() -> None:
    code, _, err = run("melds", "5C", "6C", "7C", "-v", "megajogos")
    assert code == 2 and one_error_line(err) and "'5C'" in err and "--labels" in err
    code, out, _ = run("melds", "5C", "6C", "7C", "-v", "megajogos", "--labels", "spanish", "--json")
    assert code == 0 and json.loads(out)["melds"] == [["5c", "6c", "7c"]]
    code, out, _ = run("melds", "5C", "6C", "7C", "-v", "megajogos", "--labels", "french", "--json")
    assert code == 0 and json.loads(out)["melds"] == [["5C", "6C", "7C"]]


def test_melds_refuses_a_real_mix_naming_both_kinds() -> None:
    code, _, err = run("melds", "JC QC KC 7H 7S 7D 10o", "--variant", "megajogos", "--must", "7C")
    assert code == 2 and one_error_line(err) and "'7C'" in err and "10o" in err and "JC" in err


COMMANDS: list[tuple[str, list[str]]] = [
    ("melds", ["melds", "7C 7H 7D AS 2S 3S", "--json"]),
    ("analyze", ["analyze", str(EXAMPLES / "forcing.json"), "--json"]),
    ("hint", ["hint", str(EXAMPLES / "forcing.json"), "--static", "--json"]),
    ("why", ["why", str(EXAMPLES / "forcing.json"), "take", "--json"]),
    ("solve", ["solve", str(PUZZLES / "classic-win-1.json"), "--json"]),
    ("puzzle", ["puzzle", str(PUZZLES / "classic-best-pay-1.json"), "--json"]),
    ("tree", ["tree", str(EXAMPLES / "example4-rearrangement.json"), "--depth", "1", "--no-values",
              "--export", "{tmp}/t.json"]),
    ("replay", ["replay", "{tmp}/unfinished.jsonl"]),
    ("review", ["review", "{tmp}/unfinished.jsonl", "--samples", "1", "--json"]),
    ("show", ["show", str(EXAMPLES / "forcing.json")]),
    ("notation", ["notation", str(EXAMPLES / "forcing.json")]),
    ("deal", ["deal", "--seed", "1"]),
    ("play", ["play", "--seed", "3", "--record", "{tmp}/g.jsonl"]),
    ("simulate", ["simulate", "--games", "1", "--records", "{tmp}/records"]),
]  # fmt: skip


@pytest.mark.parametrize(("name", "args"), COMMANDS, ids=[c[0] for c in COMMANDS])
def test_labels_option_chooses_the_output_labels_on_every_command(
    name: str, args: list[str], tmp_path: Path
) -> None:
    lines = (ROOT / "tests" / "golden" / "classic-1.jsonl").read_text().splitlines()[:12]
    (tmp_path / "unfinished.jsonl").write_text("\n".join(lines) + "\n")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    code, out, err = run(*args, "--labels", "spanish", input="quit\n")
    assert code == 0, err
    written = "".join(
        p.read_text() for p in sorted(tmp_path.rglob("*")) if p.is_file() and p.name != "unfinished.jsonl"
    )
    text = out + written
    assert SPANISH_ONLY.search(text), text[:500]
    assert not FRENCH_ONLY.search(text), FRENCH_ONLY.search(text)


def _meld_file(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "melds.json"
    path.write_text(json.dumps({"type": "melds", **data}))
    return str(path)


def test_a_meld_query_file_decides_labels_as_the_command_line(tmp_path: Path) -> None:
    # A megajogos query "5C 6C 7C" in a file is ambiguous, as it is for `conquian melds -v
    # megajogos 5C 6C 7C` and the engine (not read as French clubs).
    code, _, err = run("melds", "-v", "megajogos", "5C", "6C", "7C")
    assert code == 2 and "ambiguous card: '5C'" in err
    megajogos = {"queries": [{"cards": "5C 6C 7C", "variant": "megajogos"}]}
    for data in (megajogos, {"variant": "megajogos", "queries": [{"cards": "5C 6C 7C"}]},
                 {"queries": [{"cards": "2C 3C 4C"}, {"cards": "5C 6C 7C", "variant": "megajogos"}]}):  # fmt: skip
        code, _, err = run("melds", "--file", _meld_file(tmp_path, data), "--json")
        assert code == 1 and one_error_line(err) and "ambiguous card: '" in err, err
    for labels, first in (("french", "5C"), ("spanish", "5c")):
        code, out, err = run("melds", "--file", _meld_file(tmp_path, megajogos), "--labels", labels, "--json")
        assert code == 0, err
        assert json.loads(out)["queries"][0]["melds"][0][0] == first
        code, out, err = run("melds", "--file", _meld_file(tmp_path, {**megajogos, "labels": labels}), "--json")
        assert code == 0 and json.loads(out)["queries"][0]["cards"][0] == first, err
    classic = {"queries": [{"cards": "5C 6C 7C"}]}  # classic reads French by default (R2)
    code, out, err = run("melds", "--file", _meld_file(tmp_path, classic), "--json")
    assert code == 0 and json.loads(out)["queries"][0]["cards"] == ["5C", "6C", "7C"], err


def test_labels_decide_only_text_that_nothing_else_decides_in_every_variant() -> None:
    # One rule (README, melds --help): a text's own cards, else its context, else --labels, else
    # R2's default (classic: French; megajogos: refused). The same in classic and megajogos.
    for variant in ("classic", "megajogos"):
        code, out, err = run("melds", "5C", "6C", "7C", "-v", variant, "--labels", "spanish", "--json")
        assert code == 0 and json.loads(out)["melds"] == [["5c", "6c", "7c"]], err
        # KS decides French: clubs, shown in the chosen Spanish labels (bastos).
        code, out, err = run("melds", "5C 6C 7C KS", "-v", variant, "--labels", "spanish", "--json")
        assert code == 0 and json.loads(out)["melds"] == [["5b", "6b", "7b"]], err
    code, out, _ = run("melds", "5C", "6C", "7C", "--json")
    assert code == 0 and json.loads(out)["melds"] == [["5C", "6C", "7C"]]
    readme = (ROOT / "README.md").read_text()
    assert "`conquian melds 5C 6C 7C --labels spanish` is 5, 6, 7 de copas in every variant" in readme


def test_a_position_without_a_card_shown_takes_its_variants_labels() -> None:
    # "megajogos - - - 8/8/8" comes back in Spanish, as megajogos deals (R2): no card decides,
    # so the variant's labels do (or the ones given).
    from analyzer.formats.notation import format_notation, parse_notation
    from analyzer.formats.position import load_position

    assert format_notation(parse_notation("megajogos - - - 8/8/8")).startswith("megajogos spanish ")
    assert format_notation(parse_notation("megajogos french - - 8/8/8")).startswith("megajogos french ")
    assert format_notation(parse_notation("classic - - - 10/10")).startswith("classic french ")
    hidden = {"variant": "megajogos", "players": [{"hand": 8, "layout": []}] * 3, "stock": 16}
    assert str(load_position(hidden).rules.labels) == "spanish"
    assert str(load_position({**hidden, "labels": "french"}).rules.labels) == "french"


def test_a_files_labels_are_read_in_any_case(tmp_path: Path) -> None:
    # "labels": "Spanish" in a file reads as "variant": "Classic" and --labels SPANISH do:
    # every case reads alike, and a wrong name is still named.
    hidden = {**FRENCH_MEGAJOGOS, "players": [{"hand": 8}, {"hand": 8}, {"hand": 8}]}
    for written in ("Spanish", "SPANISH", " spanish "):
        state = load_position({**hidden, "labels": written})
        assert state.centre is not None and state.centre.card == card("7H")
    assert load_position({**hidden, "labels": "French"}).centre == load_position(FRENCH_MEGAJOGOS).centre
    with pytest.raises(PositionError, match='labels must be "french" or "spanish", got "Klingon"'):
        load_position({**hidden, "labels": "Klingon"})
    queries = {"type": "melds", "labels": "Spanish", "queries": [{"cards": "1e 2e 3e"}]}
    path = tmp_path / "q.json"
    path.write_text(json.dumps(queries))
    code, out, err = run("melds", "--file", str(path), "--json")
    assert code == 0, err
    (answer,) = json.loads(out)["queries"]
    assert answer["melded"] == 3 and answer["melds"] == [["1e", "2e", "3e"]]
