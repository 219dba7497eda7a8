"""conquian show and the SVG pictures (cli/svg.py): the table in the terminal, the picture of a
position and of a puzzle, pure functions of plain data with overridable colours."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cli_run import one_error_line, run
from conftest import EXAMPLES, ROOT

from analyzer.core.plain import dump_position
from analyzer.formats.sniff import read_position
from analyzer.core.dealing import view
from cli.svg import DEFAULT_COLORS, position_svg, review_svg

PUZZLE = ROOT / "examples" / "puzzles" / "classic-win-1.json"
NS = "{http://www.w3.org/2000/svg}"


def classes(root: ET.Element) -> list[str]:
    return [e.get("class", "") for e in root.iter()]


def test_show_draws_hands_layouts_centre_stock_in_the_terminal() -> None:
    code, out, _ = run("show", str(EXAMPLES / "forcing.json"))
    assert code == 0
    assert "K♠ K♥" in out and "[A♣ 2♣ 3♣ 4♣]" in out and "[4♠ 5♠ 6♠ 7♠]" in out
    assert "▶ Player 1 (dealer) to act" in out
    assert "Centre    5♣  turned by player 0, declined by 0" in out
    assert "18 cards, order unknown" in out and "Dead      7♦" in out


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_show_writes_suits_as_letters_where_the_encoding_has_no_symbols(
    encoding: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Not 'K\u2660': the cards as they are written (R2), the marks in ASCII.
    from cli_run import run_process

    monkeypatch.setenv("PYTHONIOENCODING", encoding)
    state = view(read_position(EXAMPLES / "forcing.json"), 0)
    done = run_process("show", "-", input=json.dumps(dump_position(state)))
    assert done.returncode == 0, done.stderr
    assert "hand    KS KH" in done.stdout and "[AC 2C 3C 4C]  [4S 5S 6S 7S]" in done.stdout
    assert "> Player 1 (dealer) to act" in done.stdout and "# # # 10 hidden" in done.stdout
    assert "Centre    5C  turned" in done.stdout and "Dead      7D" in done.stdout
    assert "\\u" not in done.stdout and done.stdout.isascii()
    monkeypatch.setenv("PYTHONIOENCODING", "utf-8")
    assert "hand    K\u2660 K\u2665" in run_process("show", str(EXAMPLES / "forcing.json")).stdout


def test_show_spanish_hidden_hands_and_labels() -> None:
    code, out, _ = run("show", str(EXAMPLES / "example3-megajogos-nine-card-run.json"))
    assert code == 0 and "[1e 2e 3e 4e 5e 6e 7e 10e]" in out and "hand    empty" in out
    code, out, _ = run("show", str(EXAMPLES / "forcing.json"), "--labels", "spanish")
    assert code == 0 and "12e 12c" in out
    state = view(read_position(EXAMPLES / "forcing.json"), 0)
    code, out, _ = run("show", "-", input=json.dumps(dump_position(state)))
    assert code == 0 and "10 hidden" in out


def test_show_svg_is_a_picture_of_the_table(tmp_path: Path) -> None:
    target = tmp_path / "table.svg"
    code, out, err = run("show", str(EXAMPLES / "forcing.json"), "--svg", str(target))
    assert code == 0 and out.startswith("Wrote the picture of ") and f" to {target}." in out, err
    root = ET.fromstring(target.read_text())
    assert root.tag == f"{NS}svg" and root.get("viewBox")
    names = classes(root)
    faces = [c for c in names if c.startswith("card ") and "back" not in c]
    assert len(faces) == 2 + 8 + 10 + 1 + 1  # hands, layouts, centre, dead
    assert sum("back" in c for c in names) == 1  # the stock
    acting = [e for e in root.iter() if "to-act" in e.get("class", "").split()]
    assert len(acting) == 1 and acting[0].get("id") == "player-1"
    hearts = [e for e in root.iter() if "hearts" in e.get("class", "")]
    assert hearts and all(
        t.get("fill") == DEFAULT_COLORS["red"] for h in hearts for t in h.iter(f"{NS}text")
    )
    # Checked before the work; replaced only with --force.
    code, _, err = run("show", str(EXAMPLES / "forcing.json"), "--svg", str(target))
    assert code == 2 and "--force" in err and one_error_line(err)
    assert run("show", str(EXAMPLES / "forcing.json"), "--svg", str(target), "--force")[0] == 0


def test_puzzle_svg_draws_the_puzzle_position(tmp_path: Path) -> None:
    target = tmp_path / "puzzle.svg"
    code, out, _ = run("puzzle", str(PUZZLE), "--svg", str(target), "--json")
    assert code == 0 and json.loads(out)["correct"] is True
    root = ET.fromstring(target.read_text())
    title = json.loads(PUZZLE.read_text())["title"]
    assert any(title in (e.text or "") for e in root.iter())
    assert sum(c.startswith("card ") and "back" not in c for c in classes(root)) >= 10
    code, _, err = run("puzzle", str(PUZZLE), "--svg", str(tmp_path / "no" / "x.svg"))
    assert code == 2 and "no directory" in err and one_error_line(err)


def test_pictures_are_pure_functions_of_plain_data_with_colours_by_key() -> None:
    data = dump_position(read_position(EXAMPLES / "forcing.json"))
    before = json.dumps(data)
    plain = position_svg(data)
    assert plain == position_svg(json.loads(before)) and json.dumps(data) == before
    custom = position_svg(data, colors={"table": "#ffffff"})
    assert 'fill="#ffffff"' in custom and DEFAULT_COLORS["red"] in custom
    assert DEFAULT_COLORS["table"] not in custom
    review = {"moves": [{"ply": 3, "player": 1, "move": "force 0", "win_played": 0.0,
                         "label": "blunder"}], "summary": [{}, {}]}  # fmt: skip
    root = ET.fromstring(review_svg(review, plies=10))
    assert any(e.text == "??" for e in root.iter())
    assert "no decisions" in review_svg({"moves": [], "summary": []})


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (("show", "missing.json"), 2, "no such position file"),
        (("show", "classic french 1 1 KS"), 2, "notation field 'players' at column 20"),
        (("show", str(EXAMPLES / "example7-impossible-take.json")), 1, "R7"),
        (("show", str(EXAMPLES / "forcing.json"), "--svg", "/proc/x.svg"), 2, "cannot write into"),
    ],
)
def test_show_bad_input_is_one_line(args: tuple[str, ...], code: int, needle: str) -> None:
    got, out, err = run(*args)
    assert got == code and needle in err and one_error_line(err) and "Traceback" not in out


EXAMPLE_POSITIONS = sorted(
    p
    for p in EXAMPLES.glob("*.json")
    if json.loads(p.read_text()).get("type") != "melds" and "impossible" not in p.name
) + sorted((ROOT / "examples" / "puzzles").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLE_POSITIONS, ids=[p.name for p in EXAMPLE_POSITIONS])
def test_show_and_its_picture_for_every_bundled_position(path: Path, tmp_path: Path) -> None:
    code, out, err = run("show", str(path))
    assert code == 0 and "Player 0" in out, err
    target = tmp_path / "p.svg"
    assert run("show", str(path), "--svg", str(target))[0] == 0
    root = ET.fromstring(target.read_text())
    assert sum("to-act" in c.split() for c in classes(root)) <= 1


def test_nobody_is_marked_to_act_once_the_deal_is_over() -> None:
    state = read_position(EXAMPLES / "example6-going-out.json")
    over = state.apply(next(m for m in state.legal_moves() if str(m).endswith("out")))
    assert over.is_terminal()
    code, out, _ = run("show", "-", input=json.dumps(dump_position(over)))
    assert code == 0 and "deal over, player 0 won" in out.lower() and "to act" not in out
    # No card is turned next either: the centre line says the deal is over.
    assert "the deal is over" in out and "turned next" not in out
    picture = position_svg(dump_position(over), over=True)
    assert "the deal is over" in picture and "turned next" not in picture


def test_an_exchange_position_says_the_exchange_comes_first() -> None:
    # The exchange example of docs/notation.md: player 0 has a card to choose (R9), so the
    # centre does not say "a stock card is turned next".
    exchange = (
        "megajogos spanish 0 0 3e,3b,5c,6e,7b,10c,11c,11o/1c,2c,2o,4o,5o,6b,11e,12c/"
        "1o,3c,3o,6c,6o,7c,12o,12b - - 5b,11b,4e,7o,1e,4b,1b,4c,7e,10o,10e,10b,2b,5e,2e,12e "
        "chosen:-,12c,1o"
    )
    code, out, _ = run("show", exchange)
    assert code == 0 and "the exchange comes first (R9)" in out and "turned next" not in out
    from analyzer.formats.notation import parse_notation

    picture = position_svg(dump_position(parse_notation(exchange)))
    assert "the exchange comes first (R9)" in picture and "turned next" not in picture
    code, out, _ = run("show", str(EXAMPLES / "forcing.json"))  # a centre card: no such line
    assert code == 0 and "exchange comes first" not in out
