"""The hint's verdict (issue 32): paired differences from the best move, clear / close / only,
sampling until it decides, and the same answer under load."""

from __future__ import annotations

import json
import math
import statistics
import subprocess
import sys

import pytest
from cli_run import run
from conftest import EXAMPLES

from analyzer import read_position, view
from analyzer.analysis.advisor import advise
from analyzer.analysis.engines import BATCH, MCTS_SEARCHES
from analyzer.analysis.verdict import MARGIN, Comparison, compare, judge, settled, t975
from analyzer.bots.game import play_game
from analyzer.core.state import Phase
from analyzer.search.exact import solve

# Every test here runs on both cores: the Python engine (the reference) and the native core.
pytestmark = pytest.mark.usefixtures("both_cores")

# --------------------------------------------------------------------------- the statistics


def test_a_paired_interval_is_the_student_t_interval_of_the_differences() -> None:
    best = [1.0, 1.0, 0.0, 1.0, -1.0, 1.0, 0.0, 1.0]
    other = [0.0, -1.0, 0.0, 1.0, -1.0, -1.0, -1.0, 0.0]
    diffs = [b - o for b, o in zip(best, other, strict=True)]
    half = 2.365 * statistics.stdev(diffs) / math.sqrt(8)  # t(7) at 97.5%
    found = compare(best, other)
    assert found.diff == pytest.approx(statistics.fmean(diffs))
    assert found.ci95 == pytest.approx((found.diff - half, found.diff + half))
    assert found.units == 8


def test_the_t_quantiles_are_those_of_the_tables() -> None:
    for df, quantile in ((1, 12.706), (5, 2.571), (10, 2.228), (30, 2.042), (60, 2.000), (120, 1.980)):
        assert t975(df) == pytest.approx(quantile, abs=0.004)
    assert t975(0) == math.inf


def test_the_verdict_kinds() -> None:
    sure = Comparison(0.0, (0.0, 0.0), 8)
    ahead = Comparison(0.5, (0.2, 0.8), 8)
    unseparated = Comparison(0.1, (-0.1, 0.3), 8)
    assert judge([sure]).kind == "only"
    assert judge([sure, ahead]).kind == "clear" and settled([sure, ahead])
    verdict = judge([sure, ahead, unseparated])
    assert verdict.kind == "close" and verdict.close == (2,)
    assert not settled([sure, ahead, unseparated])  # 0.3 may be a real lead: sample on
    within = Comparison(0.0, (-0.05, MARGIN / 2), 40)
    assert settled([sure, within])  # either is fine


def test_equal_results_on_every_deal_are_never_clear() -> None:
    same = [1.0, -1.0, 0.0, 1.0]
    assert compare(same, same).ci95 == (0.0, 0.0)
    assert judge([compare(same, same), compare(same, same)]).kind == "close"


# --------------------------------------------------------------------------- the advice


@pytest.mark.parametrize("seed", range(4))
def test_a_clearly_best_move_is_clear_for_every_seed(seed: int) -> None:
    # Worked example 6: going out (R15) wins at once; passing gives the others a chance.
    state = read_position(EXAMPLES / "example6-going-out.json")
    advice = advise(view(state, state.to_act), seed=seed, until_decided=True, time_limit=math.inf)
    best = advice.estimates[0]
    assert advice.verdict == "clear" and advice.close_to_best == ()
    assert best.move.text().endswith(" out") and best.sure and best.ci95 == (1.0, 1.0)
    for other in advice.estimates[1:]:
        assert other.diff_ci95[0] > 0 and other.diff > 0
    assert advice.stopped_by == "verdict" and advice.samples % BATCH == 0


def _tied_positions(count: int) -> list[tuple[object, list[str]]]:
    """Late positions of seeded greedy deals, every card known, where two moves have the same
    value by the exact search, and the texts of those moves."""
    found: list[tuple[object, list[str]]] = []
    for seed in range(60):
        result = play_game("classic", ["greedy", "greedy"], seed)
        state = result.start
        for _, move in result.moves:
            if state.stock_count <= 6 and state.phase is Phase.OFFER and len(state.legal_moves()) >= 2:
                me = state.to_act
                values = {}
                for m in state.legal_moves():
                    child = solve(state.apply(m))
                    if child.proven:
                        values[m.text()] = child.values[me]
                best = max(values.values(), default=None)
                tied = [t for t, v in values.items() if v == best]
                if len(values) == len(state.legal_moves()) and len(tied) >= 2:
                    found.append((state, tied))
                    break
            state = state.apply(move)
        if len(found) == count:
            return found
    raise AssertionError("no tied positions found")


def test_moves_that_are_provably_equal_are_a_close_call() -> None:
    for state, tied in _tied_positions(2):
        advice = advise(state, open_hands=True, until_decided=True)  # type: ignore[arg-type]
        assert advice.unproven == 0
        assert advice.verdict == "close"
        best = advice.estimates[0].move.text()
        close = {m.text() for m in advice.close_to_best}
        # The exact search's equals of the best are all "close"; a choice groups arrangements
        # of the same cards, so compare by the moves shown.
        shown = {e.move.text() for e in advice.estimates}
        assert best in tied and (set(tied) & shown) - {best} <= close and close


def test_the_json_has_the_verdict_and_the_paired_differences() -> None:
    code, out, err = run("hint", str(EXAMPLES / "example6-going-out.json"), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["verdict"] == "clear" and data["close_to_best"] == [] and data["stopped_by"] == "verdict"
    first, *rest = data["moves"]
    assert first["diff"] == 0 and first["diff_ci95"] == [0, 0] and first["sure"] is True
    for move in rest:
        low, high = move["diff_ci95"]
        assert low <= move["diff"] <= high and low > 0 and move["sure"] is False


def test_the_text_leads_with_the_verdict_and_fits_80_columns() -> None:
    code, out, _ = run("hint", str(EXAMPLES / "example6-going-out.json"))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("take [AS 2S 3S 4S 5S] [5H 5D 5C] [KS KH KD] out is clearly best")
    table = [line for line in lines if line.strip().startswith(("1 ", "2 "))]
    assert table and all(len(line) <= 80 for line in table)
    assert "sure" in out and "…" not in out


def test_v3_tests_its_verdict_over_independent_searches() -> None:
    state = read_position(EXAMPLES / "example3-megajogos-nine-card-run.json")
    mine = view(state, state.to_act)
    advice = advise(mine, samples=800, seed=1, searches=MCTS_SEARCHES)
    assert advice.engine == "v3" and advice.samples == 800
    # Going out is the first move and a sure win; the others are compared over the searches.
    assert advice.estimates[0].sure and advice.verdict in ("clear", "close")
    for other in advice.estimates[1:]:
        if other.samples:
            assert other.diff_ci95[0] <= other.diff <= other.diff_ci95[1]
    single = advise(mine, samples=800, seed=1)  # one search (the bot's): no paired test
    assert single.verdict == "close" or len(single.estimates) == 1


def test_the_default_answer_is_the_same_under_load() -> None:
    # No clock decides how many deals: a busy machine gives the same answer, only slower.
    position = str(EXAMPLES.parent.parent / "examples" / "positions" / "forcing.json")
    code, quiet, err = run("hint", position, "--json")
    assert code == 0, err
    hogs = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3)
    ]
    try:
        code, busy, err = run("hint", position, "--json")
    finally:
        for hog in hogs:
            hog.kill()
    assert code == 0, err
    a, b = json.loads(quiet), json.loads(busy)
    a.pop("seconds")
    b.pop("seconds")
    assert a == b and a["time_limited"] is False


def test_independent_searches_put_first_the_move_the_paired_comparison_finds_best() -> None:
    """With several IS-MCTS searches the first move is the one of best mean over searches (each
    search counted once, as the paired differences count them): a move first by its mean pooled
    by visits but worse in every comparison over the same searches is not put first."""
    from types import SimpleNamespace

    from analyzer.analysis.advisor import _Pooled
    from analyzer.core.moves import Force, Pass
    from analyzer.search.mcts import MoveStats

    a, b = Pass(), Force(1)
    pooled = _Pooled()
    # a: 0.2 over 900 visits, then -0.2 over 100 (pooled 0.16, per search 0.0);
    # b: 0.3 over 100, then 0.0 over 900 (pooled 0.03, per search 0.15): b leads a in both searches.
    pooled.add(SimpleNamespace(moves=[MoveStats(a, 900, 0.6, 0.6, 0.0), MoveStats(b, 100, 0.65, 0.65, 0.0)]))  # type: ignore[arg-type]
    pooled.add(SimpleNamespace(moves=[MoveStats(a, 100, 0.4, 0.4, 0.0), MoveStats(b, 900, 0.5, 0.5, 0.0)]))  # type: ignore[arg-type]
    estimates, values = pooled.ranking()
    assert [e.move for e in estimates] == [b, a]
    assert all(first >= second for first, second in zip(values[0], values[1], strict=True))
    # The columns are the same means over searches (pooled by visits, a would look better): the
    # first's win chance and expected result are the best shown, each inside its t interval.
    assert [round(e.win, 6) for e in estimates] == [0.575, 0.5] and estimates[0].expected > estimates[1].expected
    for e in estimates:
        assert e.ci95[0] <= e.win <= e.ci95[1] and e.ci95[1] - e.ci95[0] > 0.1  # two searches: wide
