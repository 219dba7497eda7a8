"""Who can win (docs/solve.md, `solve --guarantees`): each player's guarantee against any play of
the others (paranoid search per player) and the outcomes of best play it leaves (R20), held to
minimax with two players and to max-n with three, on both cores."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from cli_run import run
from conftest import EXAMPLES, ROOT, late_position

from analyzer.core.dealing import deal, view
from analyzer.core.errors import PositionError
from analyzer.core.plain import dump_position
from analyzer.core.state import GameState
from analyzer.search.exact import Solver, solve
from analyzer.search.guarantees import guarantees, outcomes_left
from cli.engine import answer

PUZZLE = ROOT / "examples" / "puzzles" / "classic-win-1.json"


def _random_pick(state: GameState, moves: list[Any], rng: random.Random) -> Any:
    return rng.choice(moves)


def _positions(variant: str, stock_left: int, count: int) -> list[GameState]:
    found = []
    for seed in range(200):
        state = late_position(variant, seed, stock_left, _random_pick)
        if state is not None:
            found.append(state)
        if len(found) == count:
            break
    assert len(found) == count
    return found


@pytest.mark.parametrize(
    ("lowers", "left"),
    [
        ([-1.0, -1.0, -1.0], (0, 1, 2, None)),  # nobody can force anything: nothing ruled out
        ([1.0, -1.0, -1.0], (0,)),  # player 0 forces a win
        ([0.0, 0.0, 0.0], (None,)),  # everyone forces a draw: nobody can win
        ([0.0, -1.0, -1.0], (0, None)),  # player 0 forces a draw: 1 and 2 cannot win
        ([-1.0, 0.0, 0.0], (None,)),  # two force a draw: neither the third nor they can win
        ([1.0, -1.0], (0,)),
        ([0.0, 0.0], (None,)),
        ([-1.0, -1.0], (0, 1, None)),  # bounds only, nothing proven
    ],
)
def test_the_outcomes_left_give_every_player_his_guarantee(lowers: list[float], left: tuple) -> None:
    assert outcomes_left(lowers) == left


@pytest.mark.usefixtures("both_cores")
class TestOnBothCores:
    def test_two_players_the_guarantees_are_minimax_from_each_side(self) -> None:
        for state in _positions("classic", stock_left=8, count=6):
            exact = solve(state, max_nodes=10**8)
            assert exact.proven
            found = guarantees(state, max_nodes=10**8)
            assert found.proven and found.settled
            assert found.outcomes == (exact.winner,)
            root = exact.values[0]
            assert [g.lower for g in found.players] == [root, -root]

    def test_three_players_max_n_gives_each_player_at_least_his_guarantee(self) -> None:
        for state in _positions("megajogos", stock_left=5, count=6):
            maxn = Solver(mode="maxn", max_nodes=10**8).solve(state)
            assert maxn.proven
            found = guarantees(state, max_nodes=10**8)
            assert found.proven
            for g in found.players:
                assert maxn.values[g.player] >= g.lower
            assert maxn.winner in found.outcomes

    def test_a_player_who_can_force_a_win_is_the_one_outcome(self) -> None:
        state = _puzzle_state()
        found = guarantees(state)
        assert [g.result for g in found.players] == ["win", "loss"]
        assert found.settled and found.outcomes == (0,)
        assert found.players[0].pv[-1].text(state.rules.labels).endswith("out")


def _puzzle_state() -> GameState:
    from analyzer.formats.sniff import read_position

    return read_position(str(PUZZLE))


def test_a_hidden_hand_or_an_unknown_stock_order_is_refused() -> None:
    state = deal("megajogos", 3)
    with pytest.raises(PositionError, match="stock order"):
        guarantees(state.evolve(stock=None))
    with pytest.raises(PositionError, match="hidden"):
        guarantees(view(state, 0))


def test_solve_guarantees_json_and_text() -> None:
    code, out, err = run("solve", str(PUZZLE), "--guarantees", "--json", "--mode", "maxn")
    assert code == 0, err
    data = json.loads(out)
    assert [g["result"] for g in data["guarantees"]] == ["win", "loss"]
    assert data["outcomes"] == [0] and data["settled"] and data["winner"] == 0
    assert data["method"] == "guarantees" and data["proven"]
    assert data["guarantees"][0]["pv"][-1].endswith("out")
    assert "--mode has no effect" in err
    code, out, _ = run("solve", str(PUZZLE), "--guarantees")
    assert code == 0
    assert "player 0: win" in out and "Best play ends: player 0 wins" in out


def test_solve_guarantees_refuses_an_unknown_stock_order_in_one_line() -> None:
    code, out, err = run("solve", str(EXAMPLES / "forcing.json"), "--guarantees")
    assert code == 1
    assert out == "" and len(err.strip().splitlines()) == 1 and "stock order" in err


def test_the_engine_answers_guarantees_as_the_command() -> None:
    position = json.loads(PUZZLE.read_text())["position"]
    got, _ = answer(json.dumps({"id": 1, "cmd": "solve", "position": position, "guarantees": True, "samples": 3}))
    code, out, _ = run("solve", str(PUZZLE), "--guarantees", "--json")
    expected = json.loads(out)
    result = got["result"]
    assert result.pop("notes") == ["'samples' has no effect with 'guarantees'"]
    for data in (result, expected):
        data.pop("seconds")
        for g in data["guarantees"]:
            g.pop("seconds")
    assert result == expected


def test_a_dealt_megajogos_position_is_answered_from_the_first_turn() -> None:
    state = deal("megajogos", 7)
    found = guarantees(state, max_nodes=10**9)
    assert found.proven
    # The guarantees and the outcomes agree (outcomes_left of the proven results).
    assert found.outcomes == outcomes_left([g.lower for g in found.players])
    text = json.dumps(dump_position(state))
    code, out, err = run("solve", "-", "--guarantees", "--json", input=text)
    assert code == 0, err
    assert json.loads(out)["outcomes"] == list(found.outcomes)
