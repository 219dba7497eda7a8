"""solve with the stock order unknown (analyzer.search.anytime): proven moves equal the exact
expectimax, estimated moves' intervals hold the mean double-dummy value over every stock order,
answers are reproducible by seed, solve and solve --all-moves name the same move, a turn is a
move, and options without effect are noted, not refused."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
from cli_run import run
from conftest import EXAMPLES

from analyzer.core.cards import iter_mask, parse_cards
from analyzer.core.state import GameState
from analyzer.formats.notation import format_notation
from analyzer.formats.sniff import read_position
from analyzer.search.anytime import solve_anytime, stock_orders
from analyzer.search.exact import Solver
from cli.engine import answer

# Every test here runs on both cores: the Python engine (the reference) and the native core.
pytestmark = pytest.mark.usefixtures("both_cores")

FORCING = EXAMPLES / "forcing.json"


def small(keep: str) -> GameState:
    """forcing.json with only the cards ``keep`` left in its stock (the others dead), order unknown."""
    state = read_position(FORCING)
    kept = set(parse_cards(keep))
    gone = tuple(c for c in iter_mask(state.stock_mask() or 0) if c not in kept)
    return state.evolve(dead=state.dead + gone, stock_count=len(kept))


def double_dummy_mean(state: GameState, move: Any) -> float:
    """The mean over every stock order of the double-dummy value of ``move`` for the player to act."""
    me = state.to_act
    stock = list(iter_mask(state.stock_mask() or 0))
    values = [
        Solver().solve(state.evolve(stock=order).apply(move), player=me).values[me]
        for order in itertools.permutations(stock)
    ]
    return sum(values) / len(values)


# Stocks of four cards where pass, force 0 or both have values that depend on the order.
SMALL = ["AD 2S 4D KD", "4H 6D JS QS", "2S 6C JS QS"]


@pytest.mark.parametrize("keep", SMALL)
def test_proven_moves_are_the_exact_expectimax(keep: str) -> None:
    state = small(keep)
    me = state.to_act
    result = solve_anytime(state, prove=1_000_000, time_limit=600)
    assert result.proven and result.samples == 0 and result.stopped_by is None
    assert sorted(v.text() for v in result.moves) == sorted(m.text() for m in state.legal_moves())
    for v in result.moves:
        assert v.move is not None
        exact = Solver(max_nodes=10_000_000, time_limit=600).solve(state.apply(v.move), player=me)
        assert exact.proven and exact.mode == "expectimax" and v.values == exact.values
    mine = [v.values[me] for v in result.moves]
    assert mine == sorted(mine, reverse=True)
    assert result.lower == result.upper == mine[0]


@pytest.mark.parametrize("keep", SMALL)
def test_the_interval_holds_the_mean_over_every_stock_order(keep: str) -> None:
    # 24 orders of 4 cards, each solved double-dummy: the mean is what the sampled estimate
    # estimates; 200 orders drawn with replacement give a 95% interval that must hold it.
    state = small(keep)
    me = state.to_act
    result = solve_anytime(state, prove=0, samples=200, seed=5, time_limit=600)
    assert not result.proven and result.samples == 200 and result.stopped_by is None
    for v in result.moves:
        assert v.ci95 is not None and v.samples == 200 and not v.proven
        truth = double_dummy_mean(state, v.move)
        assert v.ci95[0] - 1e-9 <= truth <= v.ci95[1] + 1e-9, (v.text(), truth, v.ci95)
        assert v.ci95[0] <= v.values[me] <= v.ci95[1]


def test_the_estimate_is_the_mean_over_the_seeded_orders() -> None:
    state = small("4H 6D JS QS")
    me = state.to_act
    result = solve_anytime(state, prove=0, samples=6, seed=11, time_limit=600)
    orders = stock_orders(state, 6, 11)
    for v in result.moves:
        values = [Solver().solve(state.evolve(stock=o).apply(v.move), player=me).values[me] for o in orders]
        assert abs(v.values[me] - sum(values) / len(values)) < 1e-9
    assert stock_orders(state, 6, 11) == orders != stock_orders(state, 6, 12)


def test_three_players_estimate_over_the_same_orders() -> None:
    # megajogos (max-n): each estimated value is the mean over the seeded orders of the search of
    # that order, for every player.
    from analyzer.core.dealing import deal
    from analyzer.core.state import Phase

    state = deal("megajogos", 3)
    while state.phase is not Phase.OFFER or len(state.legal_moves()) < 2 or state.stock_count > 12:
        state = state.apply(state.legal_moves()[0])
    state = state.evolve(stock=None)
    result = solve_anytime(state, prove=0, samples=2, seed=1, time_limit=600)
    orders = stock_orders(state, 2, 1)
    for v in result.moves:
        rows = [Solver().solve(state.evolve(stock=o).apply(v.move), player=state.to_act).values for o in orders]
        assert all(abs(v.values[p] - (rows[0][p] + rows[1][p]) / 2) < 1e-9 for p in range(3))
    mine = [v.values[state.to_act] for v in result.moves]
    assert mine == sorted(mine, reverse=True) and len(mine) == len(state.legal_moves())


def test_the_double_dummy_estimate_can_differ_from_the_expectimax() -> None:
    # Knowing the order helps here: pass is worth -0.5 to player 1 by expectimax, and the mean
    # double-dummy value is higher. The proof, where it finishes, is what solve answers.
    state = small("AD 2S 4D KD")
    (pass_move,) = [m for m in state.legal_moves() if m.text() == "pass"]
    exact = Solver().solve(state.apply(pass_move), player=state.to_act)
    assert exact.proven and double_dummy_mean(state, pass_move) > exact.values[state.to_act]
    proven = solve_anytime(state, prove=1_000_000, time_limit=600)
    assert proven.proven and dict((v.text(), v.values) for v in proven.moves)["pass"] == exact.values


def test_same_seed_same_answer_and_the_count_does_not_depend_on_the_clock() -> None:
    state = read_position(FORCING)
    first = solve_anytime(state, samples=3, seed=2, prove=500, time_limit=600)
    again = solve_anytime(state, samples=3, seed=2, prove=500, time_limit=600)
    key = [(v.text(), v.values, v.ci95, v.samples) for v in first.moves]
    assert key == [(v.text(), v.values, v.ci95, v.samples) for v in again.moves]
    assert first.samples == again.samples == 3 and first.diffs == again.diffs


def test_a_time_cap_that_cuts_the_sampling_says_so() -> None:
    state = read_position(FORCING)
    result = solve_anytime(state, samples=1000, prove=0, time_limit=0.3)
    assert result.stopped_by == "time" and result.samples < 1000
    assert all(v.samples == result.samples for v in result.moves)
    code, out, _ = run("solve", str(FORCING), "--samples", "1000", "--prove", "0", "--time-limit", "0.3")
    words = " ".join(out.split())  # the sentence may wrap anywhere at 80 columns
    assert code == 0 and "the time limit cut the sampling" in words and "of 1000 stock orders" in words
    code, out, _ = run("solve", str(FORCING), "--samples", "1000", "--prove", "0", "--time-limit", "0.3",
                       "--json")  # fmt: skip
    data = json.loads(out)
    assert data["stopped_by"] == "time" and data["samples"] < data["samples_asked"] == 1000


@pytest.mark.parametrize("seed", ["0", "7"])
def test_solve_and_all_moves_name_the_same_best_move(seed: str) -> None:
    options = ["--samples", "4", "--prove", "300", "--seed", seed, "--time-limit", "600", "--json"]
    code, whole, _ = run("solve", str(FORCING), *options)
    assert code == 0
    code, every, _ = run("solve", str(FORCING), "--all-moves", *options)
    assert code == 0
    whole_data, every_data = json.loads(whole), json.loads(every)
    assert whole_data["method"] == every_data["method"] == "anytime"
    assert whole_data["move"] == every_data["moves"][0]["move"]
    assert whole_data["moves"] == every_data["moves"]
    values = [m["value"] for m in every_data["moves"]]
    assert values == sorted(values, reverse=True)
    for move in every_data["moves"]:
        low, high = move["ci95"]
        assert low <= move["value"] <= high and move["samples"] == 4 and move["proven"] is False
        assert move["diff"] is not None and move["diff"] == round(values[0] - move["value"], 6)


def test_a_turn_with_the_stock_order_unknown_is_the_move_turn() -> None:
    state = small("4H 6D JS QS")
    turn = state.apply(state.legal_moves()[-1])  # pass: the card dies, a turn is next
    assert turn.is_chance_node() and turn.stock is None
    code, out, _ = run("solve", format_notation(turn), "--all-moves", "--json")
    data = json.loads(out)
    assert code == 0 and [m["move"] for m in data["moves"]] == ["turn"]
    exact = Solver().solve(turn)
    assert data["moves"][0]["proven"] and data["moves"][0]["values"] == [round(v, 6) for v in exact.values]
    code, out, _ = run("solve", format_notation(turn), "--all-moves")
    assert code == 0 and "turn" in out and "no move to choose" not in out


def test_options_without_effect_are_noted_not_refused() -> None:
    known = read_position(FORCING)
    known = known.evolve(stock=tuple(random.Random(1).sample(sorted(iter_mask(known.stock_mask() or 0)),
                                                               known.stock_count)))  # fmt: skip
    text = format_notation(known)
    code, plain, _ = run("solve", text, "--json")
    assert code == 0
    code, out, err = run("solve", text, "--json", "--samples", "5", "--seed", "3", "--mode", "paranoid")
    notes = err.strip().splitlines()
    assert code == 0 and len(notes) == 3 and all(n.startswith("Note: ") for n in notes)
    assert any("--samples" in n for n in notes) and any("--mode" in n for n in notes)
    strip = lambda d: {k: v for k, v in json.loads(d).items() if k != "seconds"}  # noqa: E731
    assert strip(out) == strip(plain)
    code, _, err = run("solve", str(EXAMPLES / "example6-going-out.json"), "--exact", "--samples", "3",
                       "--time-limit", "0.5", "--json")  # fmt: skip
    assert code == 0 and err.count("Note: ") == 1 and "--samples has no effect with --exact" in err
    # The engine answers the same, with the notes in the result.
    reply, _ = answer(json.dumps({"id": 1, "cmd": "solve", "position": text, "seed": 3, "mode": "paranoid"}))
    assert reply["ok"] and len(reply["result"]["notes"]) == 2
    assert {k: v for k, v in reply["result"].items() if k not in ("seconds", "notes")} == strip(plain)


def test_the_engine_gives_the_anytime_answer_of_the_command() -> None:
    position = json.loads(FORCING.read_text())
    request = {"id": 1, "cmd": "solve", "position": position, "samples": 3, "seed": 4, "prove": 200}
    reply, _ = answer(json.dumps(request))
    code, out, _ = run("solve", str(FORCING), "--samples", "3", "--seed", "4", "--prove", "200", "--json")
    assert reply["ok"] and code == 0
    mine = json.loads(out)
    assert reply["result"]["moves"] == mine["moves"] and reply["result"]["move"] == mine["move"]


def test_a_proven_win_settles_the_answer_while_other_moves_stay_estimated() -> None:
    # Going out wins at once (R15): nothing beats it (R20), so solve's answer is proven although
    # pass is only estimated.
    code, out, _ = run("solve", str(EXAMPLES / "example6-going-out.json"), "--samples", "2", "--json")
    data = json.loads(out)
    best = data["moves"][0]
    assert code == 0 and best["proven"] and best["value"] == 1.0 and best["move"].endswith("out")
    assert data["proven"] and data["winner"] == 0 and data["stopped_by"] is None
    assert data["bounds"]["lower"] == data["bounds"]["upper"] == 1.0
    assert [m["proven"] for m in data["moves"][1:]] == [False] and data["moves"][1]["samples"] == 2


def test_a_finished_deal_with_stock_left_is_answered_as_before() -> None:
    # Player 0 goes out with 14 stock cards left (R15): nothing to sample, the result is known.
    state = read_position(EXAMPLES / "example6-going-out.json")
    over = state.apply(state.legal_moves()[0])
    assert over.is_terminal() and over.stock is None and over.stock_count
    code, out, err = run("solve", format_notation(over), "--json")
    data = json.loads(out)
    assert code == 0 and data["proven"] and data["winner"] == 0 and data["method"] == "exact", err
