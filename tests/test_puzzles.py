"""Every puzzle in examples/puzzles/ is proven by the solver and matches its stored answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT

from analyzer.errors import PositionError
from analyzer.puzzles import check_puzzle, load_puzzle, read_puzzle, solve_puzzle

PUZZLES = sorted((ROOT / "examples" / "puzzles").glob("*.json"))


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


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"type": "position"}, "not a puzzle"),
        ({"question": {"kind": "mate"}}, "question.kind"),
        ({"question": {"kind": "win", "player": 7}}, "player"),
        ({"question": {"kind": "go_out_within", "player": 0, "turns": 0}}, "turns"),
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
