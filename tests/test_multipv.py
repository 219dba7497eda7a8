"""solve --all-moves (analyzer.search.allmoves): every legal root move with its values, proof and
principal variation, best first, agreeing with the plain solve and with the puzzle answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import one_error_line, run
from conftest import EXAMPLES, ROOT

from analyzer.core.cards import iter_mask
from analyzer.core.errors import PositionError
from analyzer.core.moves import Turn
from analyzer.core.state import Phase
from analyzer.formats.notation import format_notation
from analyzer.search.allmoves import solve_moves
from analyzer.formats.position import load_position
from analyzer.formats.sniff import read_position
from analyzer.core.dealing import view
from analyzer.analysis.puzzles import read_puzzle
from analyzer.search.exact import solve

# Every test here runs on both cores: the Python engine (the reference) and the native core.
pytestmark = pytest.mark.usefixtures("both_cores")

PUZZLES = sorted((ROOT / "examples" / "puzzles").glob("*-win-*.json"))


@pytest.mark.parametrize("path", PUZZLES, ids=[p.name for p in PUZZLES])
def test_every_move_is_valued_and_the_best_agrees_with_solve(path: Path) -> None:
    puzzle = read_puzzle(path)
    state = puzzle.state
    me = state.to_act
    values = solve_moves(state, max_nodes=500_000, time_limit=120)
    assert sorted(str(v.move) for v in values) == sorted(str(m) for m in state.legal_moves())
    mine = [v.values[me] for v in values]
    assert mine == sorted(mine, reverse=True)
    for v in values:
        assert v.proven and v.pv[0] == v.move
        end = state
        for move in v.pv:
            end = end.apply(move)  # the line is legal
        assert abs(sum(v.outcome) - 1) < 1e-9
    whole = solve(state, max_nodes=500_000, time_limit=120)
    assert whole.proven and values[0].values == whole.values
    if puzzle.answer is not None and "moves" in puzzle.answer and puzzle.question["player"] == me:
        best = {v.move.text(state.rules.labels) for v in values if v.values[me] == mine[0]}
        assert best == set(puzzle.answer["moves"])


MEGAJOGOS_PUZZLES = [p for p in PUZZLES if p.name.startswith("megajogos")]


@pytest.mark.parametrize("path", MEGAJOGOS_PUZZLES, ids=[p.name for p in MEGAJOGOS_PUZZLES])
def test_paranoid_all_moves_agree_with_paranoid_solve(path: Path) -> None:
    # Each move's position is solved with the coalition against the player who chooses (not
    # against whoever acts there), so the best move's proven value is the position's: on
    # megajogos-win-1 'solve --mode paranoid' and '--all-moves --mode paranoid' agree.
    from analyzer.search.exact import Solver

    state = read_puzzle(path).state
    me = state.to_act
    values = solve_moves(state, mode="paranoid", max_nodes=500_000, time_limit=120)
    whole = Solver(mode="paranoid", max_nodes=500_000, time_limit=120).solve(state)
    assert whole.proven and all(v.proven for v in values)
    assert values[0].values[me] == whole.values[me]
    for v in values:  # each move's value is what a paranoid search of his position proves for him
        child = Solver(mode="paranoid", max_nodes=500_000).solve(state.apply(v.move), player=me)
        assert child.values[me] == v.values[me]


def test_cli_all_moves_json_and_text(tmp_path: Path) -> None:
    position = json.loads(PUZZLES[0].read_text())["position"]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(position))
    code, out, _ = run("solve", str(path), "--all-moves", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["to_act"] == load_position(position).to_act
    for move in data["moves"]:
        assert set(move) == {"move", "values", "value", "ci95", "proven", "samples", "stopped_by", "pv"}
        assert move["pv"][0] == move["move"] and len(move["values"]) == 2
        assert (move["stopped_by"] is None) == move["proven"]
        assert move["value"] == move["values"][data["to_act"]] and move["samples"] == 0
        assert move["ci95"] == ([move["value"]] * 2 if move["proven"] else None)
    assert data["method"] == "exact"
    # The search is named as 'solve --json' names it.
    code, whole, _ = run("solve", str(path), "--json")
    assert code == 0 and data["mode"] == json.loads(whole)["mode"] == "minimax"
    code, text, _ = run("solve", str(path), "--all-moves")
    assert code == 0 and "principal variation" in text and data["moves"][0]["move"][:20] in text


def test_a_budget_cut_is_reported_per_move() -> None:
    state = read_puzzle(PUZZLES[0]).state
    values = solve_moves(state, max_nodes=3, time_limit=30)
    assert any(not v.proven for v in values)
    assert all(v.stopped_by == "positions" for v in values if not v.proven)


def test_positions_without_a_choice_or_with_a_hidden_hand_are_refused() -> None:
    forcing = read_position(EXAMPLES / "forcing.json")
    with pytest.raises(PositionError, match="hidden"):
        solve_moves(view(forcing, 1))
    over = forcing.evolve(phase=Phase.OVER, centre=None, winner=0)
    with pytest.raises(PositionError, match="no move to choose"):
        solve_moves(over)
    # The stock order is unknown here (--exact: the expectimax alone): the time limit cuts the
    # other moves short.
    code, out, err = run("solve", str(EXAMPLES / "example6-going-out.json"), "--all-moves", "--exact",
                         "--labels", "spanish", "--time-limit", "1", "--json")  # fmt: skip
    data = json.loads(out)
    best = data["moves"][0]
    assert code == 0 and best["values"][0] == 1.0 and best["proven"] and data["mode"] == "expectimax"
    assert {m["stopped_by"] for m in data["moves"] if not m["proven"]} <= {"time", "positions"}
    assert best["move"].startswith("take [1e 2e 3e 4e") and best["move"].endswith("out")
    hidden = tmp_hidden()
    code, _, err = run("solve", hidden, "--all-moves")
    # A view: the endgame's equilibrium (docs/solve.md), too large here; --all-moves is noted.
    assert code == 1 and "too many to solve exactly" in err and "--all-moves has no effect" in err
    assert one_error_line(err.split("\n", 1)[1])


def test_a_turn_is_the_one_move_and_its_value_is_the_position_s() -> None:
    # Where a stock card is turned next (R10) the turn is the one move; with the stock order
    # given its value is the exact search of the position, for the player who turns.
    forcing = read_position(EXAMPLES / "forcing.json")
    passed = forcing.apply(forcing.legal_moves()[-1])  # pass: the card dies, a turn is next
    assert passed.is_chance_node()
    stock = tuple(sorted(iter_mask(passed.stock_mask() or 0)))
    known = passed.evolve(stock=stock)
    (turn,) = solve_moves(known, max_nodes=500_000, time_limit=120)
    whole = solve(known, max_nodes=500_000, time_limit=120)
    assert turn.move == Turn(stock[0]) and turn.pv[0] == turn.move
    assert turn.proven and whole.proven and turn.values == whole.values
    path = format_notation(known)
    code, out, _ = run("solve", path, "--all-moves", "--json")
    data = json.loads(out)
    assert code == 0 and [m["move"] for m in data["moves"]] == [turn.move.text()]
    assert data["moves"][0]["values"] == [round(v, 6) for v in whole.values]


def tmp_hidden() -> str:
    from analyzer.formats.notation import format_notation

    return format_notation(view(read_position(EXAMPLES / "forcing.json"), 1))
