"""The hint engine: every choice weighed, honest unproven answers, one row per choice, reasons
from the position after the move, and agreement with the exact search (R13-R15, R20)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from cli_run import one_error_line, run
from conftest import EXAMPLES, late_position
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.analysis.advisor import ENGINES, advise, candidate_moves, choices, same_choice
from analyzer.core.cards import parse_card
from analyzer.core.errors import ConquianError
from analyzer.search.evaluation import (
    FEATURES_PER_PLAYER,
    GLOBAL_FEATURES,
    FittedEvaluator,
    features,
    fitted_evaluator,
    melded_lead,
)
from analyzer.search.lookahead import Lookahead
from analyzer.core.melds import cards_of
from analyzer.core.moves import Force, LayIn, Pass, Take, parse_move
from analyzer.search.playout import eager_move
from analyzer.core.dealing import deal
from analyzer.formats.position import load_position
from analyzer.formats.sniff import read_position
from analyzer.search.exact import Solver, outcome_vector, solve
from analyzer.core.state import GameState, Phase

# Every test here runs on both cores: the Python engine (the reference) and the native core.
pytestmark = pytest.mark.usefixtures("both_cores")

# Player 0 wins only by paying 7S (nobody can use it; KH then goes out with JH).
PAY_MATTERS = {
    "variant": "classic", "dealer": 1, "to_act": 0,
    "players": [
        {"hand": ["JH", "7S"], "layout": [["2S", "3S", "4S", "5S"], ["QD", "QS", "QC", "QH"]]},
        {"hand": ["AS", "JD", "JC", "JS"], "layout": [["AD", "AC", "AH"], ["2D", "3D", "4D"]]},
    ],
    "stock": ["KH"],
    "dead": ["2C", "2H", "3C", "3H", "4C", "4H", "5D", "5C", "5H", "6D", "6C", "6H", "7D", "7C",
             "7H", "KD", "KS", "KC"],
    "centre": {"card": "6S", "kind": "turned", "source": 0, "declined": []},
}  # fmt: skip


def test_the_winning_pay_card_is_weighed_and_chosen() -> None:
    state = load_position(PAY_MATTERS)
    winning = parse_move("take [2S 3S 4S 5S 6S] [QS QH QD QC] pay 7S")
    assert winning in candidate_moves(state)
    advice = advise(state, open_hands=True)
    best = advice.estimates[0]
    assert best.move == winning and best.win == 1.0 and advice.unproven == 0
    assert best.expected == solve(state).values[0] == 1.0
    # Both takes that pay JH lose: player 1 takes JH with his whole hand and goes out.
    jh = [e for e in advice.estimates if isinstance(e.move, Take) and e.move.pay == parse_card("JH")]
    assert len(jh) == 2 and all(e.loss == 1.0 for e in jh)


def test_every_pay_card_of_every_take_is_a_candidate() -> None:
    state = read_position(EXAMPLES / "example4-rearrangement.json")
    legal = {(cards_of(m.layout), m.pay) for m in state.legal_moves() if isinstance(m, Take)}
    weighed = {(cards_of(m.layout), m.pay) for m in candidate_moves(state) if isinstance(m, Take)}
    assert weighed == legal and len(weighed) > 4


def test_unproven_solve_never_recommends_the_losing_force() -> None:
    # Forcing player 0 hands him the game; the budget runs out on pass.
    state = read_position(EXAMPLES / "example6-forced-out.json")
    result = solve(state, max_nodes=20_000, time_limit=30)
    assert not result.proven and result.stopped_by == "positions"
    assert result.pv[0] == Pass() and result.winner is None
    assert result.outcome[0] < 1.0  # an estimate, not the certainty the force would give
    assert result.lower >= -1.0 and result.upper == 1.0


def test_solve_answers_when_stopped() -> None:
    state = read_position(EXAMPLES / "example6-forced-out.json")
    result = solve(state, stop=lambda: True)
    assert result.stopped_by == "interrupted" and not result.proven
    assert result.pv and state.is_legal(result.pv[0])


def test_hint_answers_when_stopped_after_one_deal() -> None:
    state = read_position(EXAMPLES / "example4-rearrangement.json")
    calls = iter(range(10**6))
    advice = advise(state, samples=20, stop=lambda: next(calls) > 0, time_limit=60)
    assert advice.interrupted and 1 <= advice.samples < 20


@pytest.mark.parametrize(
    ("example", "move"),
    [
        ("example3-megajogos-nine-card-run.json", "take [1e 2e 3e 4e 5e 6e 7e 10e 11e] out"),
        ("example6-going-out.json", "take [AS 2S 3S 4S] [5S 5H 5D 5C] [KS KH KD] out"),
    ],
)
def test_one_going_out_is_one_row(example: str, move: str) -> None:
    # The same going out in two arrangements is one choice, ranked first.
    state = read_position(EXAMPLES / example)
    asked = parse_move(move, state.rules.labels)
    advice = advise(state, samples=4, extra=[asked])
    outs = [e for e in advice.estimates if isinstance(e.move, Take) and e.move.pay is None]
    assert len(outs) == 1 and advice.estimates[0].move == asked
    keys = [(cards_of(e.move.layout), e.move.pay) if isinstance(e.move, Take) else e.move
            for e in advice.estimates]  # fmt: skip
    assert len(keys) == len(set(keys))


def test_choices_group_arrangements_fewest_exposed_first() -> None:
    state = read_position(EXAMPLES / "example4-rearrangement.json")
    groups = choices(state)
    assert sum(len(g) for g in groups) == len(state.legal_moves())
    for group in groups:
        assert all(same_choice(state, group[0], m) for m in group)
    merged = [g for g in groups if len(g) > 1]
    for group in merged:
        unseen = ~state.hand(0) & ~state.table_mask()
        exposure = [
            bin(sum(1 << c for c in range(40) if unseen >> c & 1) & _layoff(state, m)).count("1")
            for m in group
        ]
        assert exposure == sorted(exposure)


def _layoff(state: GameState, move: Take | LayIn) -> int:
    from analyzer.core.melds import layoff_mask

    return layoff_mask(move.layout, state.rules) & ~cards_of(move.layout)


def test_reasons_describe_the_position_after_the_move() -> None:
    # After passing 5S, 5S is not one of his outs any more.
    state = read_position(EXAMPLES / "example6-going-out.json")
    advice = advise(state, samples=2)
    passing = next(e for e in advice.estimates if e.move == Pass())
    text = " ".join(passing.reasons)
    assert "5S" not in text.split("outs:")[-1] if "outs:" in text else True
    assert not any(r.startswith("keeps") and "5S" in r for r in passing.reasons)


def _late_position(variant: str, seed: int, stock_left: int) -> GameState | None:
    """A position from a seeded random deal once the stock is down to ``stock_left``, at a
    decision with more than one choice, every card known."""

    def pick(state: GameState, moves: list, rng: random.Random):  # type: ignore[no-untyped-def]
        # Mostly take (deals progress), sometimes pass or force.
        takes = [m for m in moves if isinstance(m, Take)]
        return rng.choice(takes) if takes and rng.random() < 0.7 else rng.choice(moves)

    return late_position(variant, seed, stock_left, pick)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["classic", "megajogos"]), st.integers(0, 10**6))
def test_open_hint_agrees_with_solve(variant: str, seed: int) -> None:
    state = _late_position(variant, seed, stock_left=2)
    if state is None:
        return
    exact = solve(state, max_nodes=400_000, time_limit=120)
    advice = advise(state, open_hands=True, node_budget=400_000, time_limit=120)
    if not exact.proven or advice.unproven:
        return
    me = state.to_act
    assert advice.estimates[0].expected == pytest.approx(exact.values[me])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["classic", "megajogos"]), st.integers(0, 10**6))
def test_lookahead_values_every_move_like_the_exact_search(variant: str, seed: int) -> None:
    state = _late_position(variant, seed, stock_left=1)
    if state is None:
        return
    moves = state.legal_moves()
    found = Lookahead(melded_lead, max_nodes=500_000).values(state, moves)
    if not found.exact:
        return
    solver = Solver(max_nodes=500_000, time_limit=120)
    for move, outcome in zip(moves, found.outcomes, strict=True):
        exact = solver.solve(state.apply(move))
        assert exact.proven
        me = state.to_act
        assert exact.values[me] == pytest.approx(
            outcome[me] - sum(outcome[p] for p in range(state.rules.players) if p != me)
        )


WINNING_TAKE = "take [2S 3S 4S 5S 6S] [QS QH QD QC] pay 7S"


def _two_card_stock(order: list[str]) -> GameState:
    """PAY_MATTERS with 5D moved from the dead cards into a two-card stock of ``order``."""
    data = json.loads(json.dumps(PAY_MATTERS))
    data["stock"] = order
    data["dead"].remove("5D")
    return load_position(data)


def test_chance_lookahead_averages_the_stock() -> None:
    # After the winning take, player 1 turns next: KH first lets player 0 go out, 5D first lets
    # player 1 go out (5D on his diamond run, AS and JD JC JS with it).  Known order KH 5D: a win;
    # unknown order: one chance in two.
    state = _two_card_stock(["KH", "5D"])
    move = parse_move(WINNING_TAKE)
    known = Lookahead(melded_lead).values(state, [move])
    unknown = Lookahead(melded_lead).values(state.evolve(stock=None), [move])
    assert known.exact and unknown.exact
    assert known.outcomes[0][0] == 1.0
    assert unknown.outcomes[0][0] == pytest.approx(0.5) and unknown.outcomes[0][1] == pytest.approx(0.5)


def test_spread_searches_the_first_stock_cards_as_a_chance_node() -> None:
    # The position of the test above: with spread 2 the known order KH 5D is searched as KH
    # first and 5D first, one half each, the same as the unknown order; spread 1 follows it.
    state = _two_card_stock(["KH", "5D"])
    move = parse_move(WINNING_TAKE)
    one = Lookahead(melded_lead, spread=1).values(state, [move])
    two = Lookahead(melded_lead, spread=2).values(state, [move])
    assert one.exact and two.exact
    assert one.outcomes[0][0] == 1.0
    assert two.outcomes[0][0] == pytest.approx(0.5) and two.outcomes[0][1] == pytest.approx(0.5)
    # Reversed order: spread 2 answers the same, spread 1 follows the order (5D first loses).
    reverse = _two_card_stock(["5D", "KH"])
    assert Lookahead(melded_lead, spread=2).values(reverse, [move]).outcomes == two.outcomes
    assert Lookahead(melded_lead, spread=1).values(reverse, [move]).outcomes[0][1] == 1.0


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_fitted_evaluation_ships_and_beats_the_old_heuristic(variant: str) -> None:
    fitted = fitted_evaluator(variant)
    assert fitted is not None and fitted.players == (2 if variant == "classic" else 3)
    assert fitted.meta["brier_fitted"] < fitted.meta["brier_melded_lead"]
    state = deal(variant, 5)
    while state.phase is not Phase.TURN:
        state = state.apply(state.legal_moves()[0])
    x = features(state)
    assert len(x) == len(FEATURES_PER_PLAYER) * fitted.players + len(GLOBAL_FEATURES)
    vec = fitted(state)
    assert len(vec) == fitted.players + 1 and sum(vec) == pytest.approx(1.0)
    assert all(0.0 <= p <= 1.0 for p in vec)


def test_a_player_with_an_out_in_the_stock_is_rated_higher() -> None:
    fitted = fitted_evaluator("classic")
    assert fitted is not None
    state = load_position(PAY_MATTERS).apply(parse_move("take [2S 3S 4S 5S 6S] [QS QH QD QC] pay 7S"))
    state = state.apply(Pass())  # 7S dies: player 1 turns KH next, player 0's out
    assert state.phase is Phase.TURN
    without = state.evolve(stock=(parse_card("7D"),), dead=(*state.dead[:-1], parse_card("7S")))
    assert fitted(state)[0] > fitted(without)[0]


def test_evaluation_data_with_other_features_is_refused() -> None:
    fitted = fitted_evaluator("classic")
    assert fitted is not None
    data = fitted.to_json()
    data["features_per_player"] = ["melded"]
    with pytest.raises(ConquianError, match="refit"):
        FittedEvaluator.from_json(data)


def test_engines_v1_and_v2_both_answer() -> None:
    state = read_position(EXAMPLES / "forcing.json")
    for name in ENGINES:  # the method names; the answer names the engine by its version
        advice = advise(state, samples=3, engine=name)
        assert advice.engine == ENGINES[name].name and {e.move for e in advice.estimates} == {Pass(), Force(0)}
    with pytest.raises(ConquianError, match="unknown hint engine"):
        advise(state, engine="v9")


def test_an_unknown_engine_is_a_usage_error_on_every_command(tmp_path: Path) -> None:
    # Like an unknown --variant, --bots or --backend: exit 2 with the command's help, checked
    # when the command line is read (before review reads its record or checks --svg).
    forcing = str(EXAMPLES / "forcing.json")
    code, out, err = run("hint", forcing, "--engine", "v9")
    assert code == 2 and one_error_line(err) and out == ""
    assert "unknown hint engine: 'v9' (known: auto, ismcts, pimc, cpsat, v3, v2, v1)" in err
    assert "(see 'conquian hint --help')" in err
    record = tmp_path / "game.jsonl"
    record.write_text("not read\n")
    code, out, err = run("review", str(record), "--engine", "v9", "--svg", str(tmp_path / "r.svg"))
    assert code == 2 and one_error_line(err) and "'v9'" in err
    assert "(see 'conquian review --help')" in err and not (tmp_path / "r.svg").exists()
    for command in ("simulate", "play"):  # the engine of a hint bot, too
        code, out, err = run(command, "--bots", "hint:engine=v9", input="quit\n")
        assert code == 2 and one_error_line(err) and "unknown hint engine: 'v9'" in err
        assert f"(see 'conquian {command} --help')" in err
    code, out, _ = run("hint", forcing, "--engine", " V1 ", "--samples", "2", "--json")
    assert code == 0 and json.loads(out)["engine"] == "v1"


def test_a_search_cut_by_the_clock_is_time_limited(tmp_path: Path) -> None:
    # With a huge --budget the time limit decides the depth (and the answer): the output says
    # time_limited true.  The position is the first choice of a deal, with some 50 plies left,
    # so no machine finishes its search in 0.2 s (a late position could be proven in time on a
    # fast machine, and then the clock would not have cut anything).
    early = tmp_path / "early.json"
    code, _, _ = run("deal", "--seed", "3", "--after", "1", "--view", "0", "-o", str(early))
    assert code == 0
    code, out, _ = run("hint", str(early), "--budget", "100000000", "--samples", "1",
                       "--time-limit", "0.2", "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["time_limited"] is True
    code, out, _ = run("hint", str(early), "--budget", "100000000", "--samples", "1",
                       "--time-limit", "0.2")  # fmt: skip
    assert "The time limit cut a search" in out
    forcing = str(EXAMPLES / "forcing.json")
    code, out, _ = run("hint", forcing, "--samples", "2", "--json")
    assert code == 0 and json.loads(out)["time_limited"] is False


def test_the_clock_stopping_an_ismcts_hint_counts_iterations_not_deals(tmp_path: Path) -> None:
    """IS-MCTS samples count iterations (one tree, each iteration its own deal): the line that
    says where the time limit stopped the sampling names them so."""
    early = tmp_path / "early.json"
    assert run("deal", "--variant", "megajogos", "--seed", "5", "--after", "1", "-o", str(early))[0] == 0
    code, out, _ = run("hint", str(early), "--samples", "100000", "--time-limit", "0.05")
    assert code == 0 and "The time limit stopped sampling after" in out
    stopped = " ".join(out.split()).split("The time limit stopped sampling after", 1)[1]
    assert stopped.split(":", 1)[0].endswith("of 100,000 IS-MCTS iterations"), stopped


def _modelled_value(state: GameState, me: int) -> float:
    """Plain enumeration with an opponent model (no table, no ordering, no cut-offs): ``me``
    picks his best move, every other player the eager policy's (ties by ``Random(0)``), turns
    follow the stock; the result for ``me`` (win +1, draw 0, loss -1; R20)."""
    if state.is_terminal():
        outcome = outcome_vector(state)
        return outcome[me] - sum(outcome[p] for p in range(state.rules.players) if p != me)
    if state.is_chance_node():
        ((turn, _),) = state.chance_outcomes()
        return _modelled_value(state.apply(turn), me)
    moves = state.legal_moves()
    if state.to_act != me:
        return _modelled_value(state.apply(eager_move(state, moves, random.Random(0))), me)
    return max(_modelled_value(state.apply(m), me) for m in moves)


@pytest.mark.parametrize(
    ("variant", "seeds"), [("classic", (3, 4, 7, 11)), ("megajogos", (0, 7, 8, 10))]
)
def test_lookahead_with_modelled_opponents_is_a_best_reply_to_the_eager_policy(
    variant: str, seeds: tuple[int, ...]
) -> None:
    # opponents="policy": the other players play the eager policy's move, only the root player's
    # choices are searched; where the search is exact it equals plain enumeration of that.  On
    # some of these positions the model changes a value (the others no longer play their best).
    differs = 0
    for seed in seeds:
        state = _late_position(variant, seed, stock_left=6)
        assert state is not None
        me = state.to_act
        moves = state.legal_moves()
        # Budgets in positions only (a long time limit), so a loaded machine cannot cut them.
        found = Lookahead(melded_lead, max_nodes=500_000, time_limit=3600, opponents="policy").values(
            state, moves
        )
        searched = Lookahead(melded_lead, max_nodes=500_000, time_limit=3600).values(state, moves)
        assert found.exact and searched.exact
        for move, outcome, other in zip(moves, found.outcomes, searched.outcomes, strict=True):
            got = outcome[me] - sum(outcome[p] for p in range(state.rules.players) if p != me)
            assert got == pytest.approx(_modelled_value(state.apply(move), me))
            differs += outcome != other
    assert differs


def test_lookahead_refuses_an_unknown_opponent_model() -> None:
    state = load_position(PAY_MATTERS)
    with pytest.raises(ConquianError, match="opponents must be one of search, policy, not 'x'"):
        Lookahead(melded_lead, opponents="x").values(state, state.legal_moves())


def test_open_hint_spends_the_budget_of_its_one_deal_and_solves_a_cheap_position(tmp_path: Path) -> None:
    # `solve` proves this early position lost in about 600 positions; with every card known
    # `hint --open`'s one deal gets the whole budget (not the 2,000 of one sampled deal), so
    # it proves the same instead of answering "win 45%, estimates".
    code, text, err = run("deal", "--seed", "3", "--after", "6")
    assert code == 0, err
    path = tmp_path / "d6.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = run("solve", str(path), "--json")
    assert code == 0, err
    solved = json.loads(out)
    assert solved["proven"]
    code, out, err = run("hint", str(path), "--open", "--json", "--time-limit", "1e400")
    assert code == 0, err
    hint = json.loads(out)
    assert hint["exact"] is True and hint["unproven"] == 0.0
    best = hint["moves"][0]
    assert best["win"] - best["loss"] == pytest.approx(solved["values"][hint["to_act"]])


def test_engines_are_named_by_method_with_their_version_names_kept() -> None:
    from analyzer.analysis.engines import ENGINES, METHODS, engine_for
    from analyzer.core.rules import get_rules

    rules = get_rules("classic")
    assert METHODS == {"ismcts": "v3", "pimc": "v2", "cpsat": "v1"}
    for method, version in METHODS.items():
        assert engine_for(method, rules) is engine_for(version, rules) is ENGINES[version]
        assert ENGINES[version].method_name == method
    code, out, _ = run("hint", str(EXAMPLES / "forcing.json"), "--engine", "pimc", "--samples", "4", "--json")
    code2, out2, _ = run("hint", str(EXAMPLES / "forcing.json"), "--engine", "v2", "--samples", "4", "--json")
    assert code == code2 == 0
    first, second = json.loads(out), json.loads(out2)
    assert first["engine"] == "v2" and first["method"] == "pimc"
    first.pop("seconds"), second.pop("seconds")
    assert first == second
