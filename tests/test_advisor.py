"""Hints from a player's own view (advisor), the hint bot, and `why` explanations (R13, R14)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from cli_run import run
from conftest import EXAMPLES

from analyzer.analysis.advisor import advise, candidate_moves
from analyzer.bots.registry import HintBot
from analyzer.core.errors import IllegalMoveError, PositionError
from analyzer.core.melds import cards_of
from analyzer.core.moves import Take, parse_move
from analyzer.formats.position import load_position
from analyzer.formats.sniff import read_position
from analyzer.core.dealing import view
from analyzer.solver.why import explain

# Every test here runs on both cores: the Python engine (the reference) and the native core.
pytestmark = pytest.mark.usefixtures("both_cores")


def test_going_out_is_a_sure_win() -> None:
    state = read_position(EXAMPLES / "example6-going-out.json")
    advice = advise(state, samples=4, seed=1, time_limit=60)
    best = advice.estimates[0]
    assert best.move.text().endswith(" out") and best.win == 1.0 and best.ci95[1] == pytest.approx(1.0)
    assert advice.samples == 4


def test_estimates_are_probabilities_and_reproducible() -> None:
    state = read_position(EXAMPLES / "example4-rearrangement.json")
    first = advise(state, samples=6, seed=7, time_limit=60)
    again = advise(state, samples=6, seed=7, time_limit=60)
    assert [(e.move, e.win, e.draw) for e in first.estimates] == [(e.move, e.win, e.draw) for e in again.estimates]
    for est in first.estimates:
        assert est.win + est.draw + est.loss == pytest.approx(1.0)
        assert 0 <= est.ci95[0] <= est.ci95[1] <= 1 and est.samples == 6
    expected = [e.expected for e in first.estimates]
    assert expected == sorted(expected, reverse=True)


def test_candidates_one_per_choice() -> None:
    # One candidate per (cards melded, card paid): arrangements of the same cards are one choice.
    state = read_position(EXAMPLES / "example4-rearrangement.json")
    moves = candidate_moves(state)
    keys = [(cards_of(m.layout), m.pay) for m in moves if isinstance(m, Take)]
    assert len(keys) == len(set(keys)) and len(keys) >= 2
    assert all(state.is_legal(m) for m in moves)
    legal = {(cards_of(m.layout), m.pay) for m in state.legal_moves() if isinstance(m, Take)}
    assert set(keys) == legal


def test_reasons_use_only_the_players_view() -> None:
    # Player 1 cannot see player 0's kings: no reason may mention them.
    state = read_position(EXAMPLES / "forcing.json")
    advice = advise(state, samples=4, seed=0)
    text = " ".join(r for e in advice.estimates for r in e.reasons)
    assert "KD KC" not in text and "wins" in text
    best = advice.estimates[0]
    assert any("next best" in r for r in best.reasons)


def test_hidden_hand_of_the_player_to_act_is_refused() -> None:
    data = json.loads((EXAMPLES / "forcing.json").read_text())
    data["players"][1]["hand"] = 10
    with pytest.raises(PositionError, match="hidden"):
        advise(load_position(data), samples=2)


def test_hint_bot_plays_legal_moves() -> None:
    from analyzer.core.dealing import deal

    bot = HintBot(samples=4, time_limit=0.2, node_budget=300)
    rng = random.Random(3)
    state = deal("classic", 3)
    steps = 0
    while not state.is_terminal() and steps < 12:
        if state.is_chance_node():
            state = state.apply(state.chance_outcomes()[0][0])
            continue
        move = bot.choose(view(state, state.to_act), rng)
        assert state.is_legal(move)
        state = state.apply(move)
        steps += 1


def test_why_illegal_take_has_a_minimal_core() -> None:
    # Player 0 has the set 4S 4H 4C and holds 3C: taking 5C would need 4C for a club run (3C 4C 5C),
    # but 4C must stay melded with 4S 4H (R13), and no third 5 or 6C is available.
    data = {
        "variant": "classic", "dealer": 1, "to_act": 0,
        "players": [
            {"hand": ["3C", "KH", "KS", "QD", "QH", "JD", "2D"], "layout": [["4S", "4H", "4C"]]},
            {"hand": ["AH", "2H", "3D", "5D", "6H", "3S", "7D", "JH", "QC", "KD"], "layout": []},
        ],
        "stock": 18, "dead": ["6C"],
        "centre": {"card": "5C", "kind": "turned", "source": 0, "declined": []},
    }
    state = load_position(data)
    result = explain(state, "take")
    assert not result.legal
    facts = " | ".join(result.facts)
    assert "5C must be melded (R13)" in facts
    assert "4S 4H 4C must all stay melded" in facts
    assert "6C is a dead card" in facts
    named = explain(state, "take [3C 4C 5C] pay KH")
    assert not named.legal and any("stay melded" in f for f in named.facts)


def test_why_other_moves() -> None:
    state = read_position(EXAMPLES / "forcing.json")
    assert explain(state, "force 0").legal
    assert explain(state, "pass").legal
    forced_self = explain(state, "force 1")
    assert not forced_self.legal and "yourself" in forced_self.facts[0]
    foreign = explain(state, "take [5C 6C 7C] pay QH")
    assert any("6C" in f for f in foreign.facts)
    with pytest.raises(IllegalMoveError):
        explain(state, "dance")


def test_why_force_needs_decline_and_fit() -> None:
    data = json.loads((EXAMPLES / "forcing.json").read_text())
    data["to_act"] = 0
    data["centre"]["declined"] = []
    state = load_position(data)
    facts = explain(state, "force 1").facts
    assert any("has not" in f and "R14" in f for f in facts)
    assert any("extends none of player 1's melds" in f for f in facts)


def test_why_bare_take_turn_and_forced_out() -> None:
    state = read_position(EXAMPLES / "example4-rearrangement.json")
    result = explain(state, "take")
    assert result.legal and "5H can be taken" in result.facts[0]
    forced = read_position(EXAMPLES / "forcing.json").apply(parse_move("force 0"))
    facts = explain(forced, "lay [AC 2C 3C 4C 5C] [4S 5S 6S 7S] out").facts
    assert len(facts) == 1 and "R14" in facts[0]
    dead = read_position(EXAMPLES / "forcing.json").apply(parse_move("pass"))
    facts = explain(dead, "turn 5C").facts
    assert any("dead card" in f for f in facts)


def test_going_out_ranks_first_and_all_lay_ins_are_candidates() -> None:
    state = read_position(EXAMPLES / "example3-megajogos-nine-card-run.json")
    best = advise(state, samples=4).estimates[0]
    assert best.move.text(state.rules.labels).endswith(" out")
    assert any("goes out" in r for r in best.reasons) and best.static_score > 1000
    forced = read_position(EXAMPLES / "forcing.json").apply(parse_move("force 0"))
    assert len(candidate_moves(forced)) == 2


@pytest.mark.parametrize(
    ("options", "needle"),
    [
        ({"samples": 0}, "samples must be a whole number of at least 1, got 0"),
        ({"samples": -5}, "samples must be"),
        ({"samples": True}, "samples must be"),
        ({"node_budget": 0}, "node_budget must be a whole number of at least 1"),
        ({"time_limit": -1}, "time_limit must be a number of seconds above 0"),
        ({"time_limit": float("nan")}, "time_limit must be"),
    ],
)
def test_the_library_refuses_budgets_the_command_line_refuses(options: dict[str, object], needle: str) -> None:
    # advise(state, samples=0) and the like are refused, as the CLI refuses them.
    from analyzer.core.errors import ConquianError

    state = read_position(EXAMPLES / "forcing.json")
    with pytest.raises(ConquianError, match=needle):
        advise(state, **options)  # type: ignore[arg-type]


def test_moves_given_as_something_else_are_named() -> None:
    # state.apply("pass") and parse_move(None) are named errors, not AttributeError or TypeError.
    state = read_position(EXAMPLES / "forcing.json")
    with pytest.raises(IllegalMoveError, match=r"apply needs a move .*parse_move.*got 'pass'"):
        state.apply("pass")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match=r"not a move: None \(a move is text"):
        parse_move(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("turn", "'turn' takes one card, e.g. 'turn 7H' (R10)"),
        ("give", "'give' takes one card"),
        ("force", "'force' takes the seat of the player forced"),
        ("force \u0661", "'force' takes the seat"),  # another script's digit is not a seat
        ("force 00", "'force' takes the seat"),  # not 'force 0'
        ("force 01", "'force' takes the seat"),
        ("force " + "9" * 5000, "'force' takes the seat"),  # no traceback
        ("pass 3", "'pass' takes nothing after it"),
        ("fly", "expected pass, take, force, lay, meld, give or turn"),
    ],
)
def test_a_move_word_without_its_rest_says_what_it_takes(text: str, needle: str) -> None:
    # 'turn' alone says what it takes, not "not a move: 'turn' (expected ... or turn)".
    with pytest.raises(IllegalMoveError, match=re.escape(needle)):
        parse_move(text)


@pytest.mark.parametrize(
    ("text", "number"),
    [("0", 0), ("7", 7), ("123456789", 123456789), ("00", None), ("01", None),
     ("1234567890", None), ("\u0661", None), ("-1", None), ("", None), ("1 ", None)],
)  # fmt: skip
def test_small_number_reads_only_plain_short_numbers(text: str, number: int | None) -> None:
    from analyzer.core.moves import small_number

    assert small_number(text) == number


def _wilson_by_hand(p: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@pytest.mark.parametrize("name,samples", [("forcing.json", 3), ("example3-megajogos-nine-card-run.json", 40)])
def test_the_interval_is_of_the_win_chance_shown(name: str, samples: int) -> None:
    # A deal whose stock order is left to chance counts its win probability, so the count of
    # wins is fractional and the interval is that of the proportion shown (win 0.188 of 3
    # sampled deals does not get the interval of 1 win in 3, 0.061-0.792).
    state = read_position(EXAMPLES / name)
    advice = advise(view(state, state.to_act), samples=samples, seed=3, time_limit=60)
    for est in advice.estimates:
        if not est.samples:
            continue
        low, high = est.ci95
        assert low <= est.win <= high
        if est.sure:  # going out wins at once (R15): certain, no interval around it
            assert est.move.text().endswith(" out") and (est.win, low, high) == (1.0, 1.0, 1.0)
            continue
        assert (low, high) == pytest.approx(_wilson_by_hand(est.win, est.samples)), est.move.text()


def test_a_move_never_tried_is_shown_as_not_evaluated(tmp_path: Path) -> None:
    # With --samples 2 in megajogos the search never tries most moves: they have no loss 1.0
    # beside score 0.0, and the table shows no "0% | 0% | 0-100%".
    path = tmp_path / "d.json"
    code, _, err = run("deal", "--variant", "megajogos", "--seed", "1", "--after", "2", "--view", "0", "-o", str(path))
    assert code == 0, err
    code, out, err = run("hint", str(path), "--json", "--samples", "2", "--time-limit", "inf")
    assert code == 0, err
    moves = json.loads(out)["moves"]
    tried = [m for m in moves if m["evaluated"]]
    untried = [m for m in moves if not m["evaluated"]]
    assert tried and untried
    for m in tried:
        assert m["samples"] >= 1
        assert m["win"] + m["draw"] + m["loss"] == pytest.approx(1.0)
        assert m["score"] == pytest.approx(m["win"] - m["loss"])
    for m in untried:
        assert m["samples"] == 0 and (m["win"], m["draw"], m["loss"], m["score"]) == (0.0, 0.0, 0.0, 0.0)
        assert m["reasons"][0].startswith("not evaluated")
    code, out, err = run("hint", str(path), "--samples", "2", "--time-limit", "inf")
    assert code == 0, err
    assert "not evaluated" in out
    dashes = re.compile(r"\s-\s+-\s+not evaluated")
    for m in untried:
        assert any(m["move"] in line and dashes.search(line) for line in out.splitlines()), m["move"]
    for m in tried:
        assert not any(m["move"] in line and dashes.search(line) for line in out.splitlines()), m["move"]
