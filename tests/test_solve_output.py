"""solve's output: --top (the moves listed with the stock order unknown, 5 by default, the rest
counted in one line; --top 0 lists all), --json complete unless --top is given, the moves not
separated from the best named a few at a time, --top noted where solve lists no moves, and
docs/solve.md giving the --time-limit defaults the code uses."""

from __future__ import annotations

import json
import re
from typing import Any

from cli_run import run
from conftest import EXAMPLES, ROOT

from analyzer.formats.sniff import read_position
from analyzer.service.results import ANYTIME_TIME_LIMIT, EXACT_TIME_LIMIT
from cli.solve import CLOSE_NAMED, TOP

# classic, 13 legal moves, the stock order unknown (RULES.md worked example 4); two orders and no
# proof keep each run short.
REARRANGE = str(EXAMPLES / "example4-rearrangement.json")
QUICK = ("--samples", "2", "--prove", "0")


def solved(*extra: str) -> tuple[str, list[dict[str, Any]]]:
    """The text answer (its lines joined, as wrapped) and the complete --json move list."""
    code, out, _ = run("solve", REARRANGE, *QUICK, *extra)
    assert code == 0, out
    code, data, _ = run("solve", REARRANGE, *QUICK, "--json")
    assert code == 0
    return " ".join(out.split()), json.loads(data)["moves"]


def test_the_json_answer_lists_every_move_unless_top_is_given() -> None:
    _, moves = solved()
    assert len(moves) == len(read_position(REARRANGE).legal_moves()) > TOP
    code, out, _ = run("solve", REARRANGE, *QUICK, "--json", "--top", "3")
    assert code == 0 and json.loads(out)["moves"] == moves[:3]
    code, out, _ = run("solve", REARRANGE, *QUICK, "--json", "--top", "0")
    assert code == 0 and json.loads(out)["moves"] == moves


def test_the_text_lists_the_top_moves_and_counts_the_rest() -> None:
    text, moves = solved()
    names = [m["move"] for m in moves]
    assert f"Best move for player 0: {names[0]}," in text
    listed = [n for n in names[1:] if f" {n}: " in text]
    assert listed == names[1:TOP], listed
    assert f"... and {len(names) - TOP} more moves: --top 0 lists all." in text
    text, _ = solved("--top", "0")
    assert all(f" {n}: " in text for n in names[1:]) and "more moves" not in text
    text, _ = solved("--top", "2")
    assert [n for n in names[1:] if f" {n}: " in text] == names[1:2]
    assert f"... and {len(names) - 2} more moves" in text


def test_all_moves_lists_every_move_unless_top_is_given() -> None:
    code, out, _ = run("solve", REARRANGE, *QUICK, "--all-moves", "--top", "2")
    rows = [line for line in out.splitlines() if re.match(r"│ *\d+ │", line)]
    assert code == 0 and [r.split("│")[1].strip() for r in rows] == ["1", "2"]
    assert "... and 11 more moves: --top 0 lists all." in " ".join(out.split())
    code, out, _ = run("solve", REARRANGE, *QUICK, "--all-moves")
    rows = [line for line in out.splitlines() if re.match(r"│ *\d+ │", line)]
    assert code == 0 and len(rows) == 13 and "more moves" not in out


def test_the_moves_not_separated_from_the_best_are_named_a_few_at_a_time() -> None:
    text, moves = solved()
    close = re.search(r"Not separated from the best by these orders \([^)]*\): (.*?); more --samples", text)
    assert close, text
    named = [m["move"] for m in moves[1:] if m["move"] in close.group(1)]
    assert 0 < len(named) <= CLOSE_NAMED
    rest = re.search(r" and (\d+) more$", close.group(1))
    tied = [m for m in moves[1:] if m["diff_ci95"] is not None and m["diff_ci95"][0] <= 0.0]
    assert len(named) + (int(rest.group(1)) if rest else 0) == len(tied)


def test_top_is_noted_where_solve_lists_no_moves() -> None:
    code, out, err = run("solve", str(EXAMPLES.parent / "puzzles" / "classic-win-1.json"), "--top", "2")
    assert code == 0 and "Note: --top has no effect" in err and "Principal variation" in out


def test_the_docs_give_the_time_limit_defaults_the_code_uses() -> None:
    """docs/solve.md states both defaults where it first names --time-limit, each with its mode,
    and no other default for it."""
    text = " ".join((ROOT / "docs" / "solve.md").read_text(encoding="utf-8").split())
    first = text[text.index("`--time-limit") :][:300]
    assert f"{EXACT_TIME_LIMIT:g} by default for an exact search" in first, first
    assert f"{ANYTIME_TIME_LIMIT:g} with the stock order unknown" in first, first
    for sentence in re.split(r"(?<=[.;])\s", text):
        if "--time-limit" in sentence:
            stated = re.findall(r"default (\d+)|(\d+)(?: s)? by default", sentence)
            numbers = {float(a or b) for a, b in stated}
            assert numbers <= {EXACT_TIME_LIMIT, ANYTIME_TIME_LIMIT}, sentence
