"""The anytime verdict (issue 45, part 5): confidence sequences by betting whose error bound holds
however many looks the sampling takes, the union over the best move's pairs, the "narrow"
verdict, IS-MCTS searches of one size, and the same answer for the same --seed."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest
from cli_run import run
from conftest import EXAMPLES

from analyzer import read_position, view
from analyzer.analysis import advisor
from analyzer.analysis.advisor import advise, choices
from analyzer.analysis.engines import BATCH, DECIDE_CAP, MCTS_SEARCH, MCTS_SEARCHES, TTEST_CAP
from analyzer.analysis.verdict import (
    ALPHA,
    BET_CAP,
    MARGIN,
    _Bets,
    confidence_sequence,
    decide,
    t975,
    verdict_sentence,
)
from analyzer.bots.game import play_game
from analyzer.core.state import Phase
from analyzer.service import hints

# --------------------------------------------------------------------------- the statistics


def _streams(kind: str, streams: int, n: int, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """``streams`` rows of ``n`` paired differences in [-2, 2] of a known law, and its mean."""
    if kind == "coin":  # a lead or a loss of the whole deal: +-2, skewed
        return np.where(rng.random((streams, n)) < 0.3, 2.0, -2.0), 0.3 * 2 - 0.7 * 2
    if kind == "three":  # win, draw or loss against the same deal: -1, 0, 1
        return rng.choice([-1.0, 0.0, 1.0], size=(streams, n), p=[0.2, 0.5, 0.3]), 0.1
    if kind == "rare":  # mostly the same result, now and then a whole deal lost
        return np.where(rng.random((streams, n)) < 0.05, -2.0, 0.1), 0.95 * 0.1 - 0.05 * 2
    return rng.uniform(-0.5, 1.0, size=(streams, n)), 0.25  # a leaf's fractional estimates


def _ever_excluded(d: np.ndarray, mean: float, alpha: float) -> np.ndarray:
    """Per stream, True when the anytime interval excluded ``mean`` at some length of the
    stream: either bet's log-capital at the true mean reached its threshold at some unit."""
    bets = _Bets(d, alpha / 2)
    m = (mean + 2.0) / 4.0
    up = np.log1p(np.minimum(bets.bets, BET_CAP / m) * (bets.x - m))
    down = np.log1p(np.minimum(bets.bets, BET_CAP / (1 - m)) * (m - bets.x))
    paths = np.maximum(np.cumsum(up, axis=1), np.cumsum(down, axis=1))
    return np.asarray(paths.max(axis=1) >= bets.threshold)


@pytest.mark.parametrize("kind", ["coin", "three", "rare", "uniform"])
def test_the_confidence_sequence_holds_the_true_mean_at_every_look_at_once(kind: str) -> None:
    # 400 streams of 600 units each, looked at after every unit: the interval must hold the
    # true mean at all 600 looks at once in at least 95% of the streams (Ville's inequality).
    rng = np.random.default_rng(7)
    d, mean = _streams(kind, 400, 600, rng)
    missed = _ever_excluded(d, mean, ALPHA)
    assert missed.mean() <= ALPHA
    # The check can fail: a 95% Student-t interval looked at every 8 units misses far more often.
    t_missed = 0
    for row in d:
        for n in range(8, 601, 8):
            half = t975(n - 1) * float(np.std(row[:n], ddof=1)) / math.sqrt(n)
            if abs(float(np.mean(row[:n])) - mean) > half:
                t_missed += 1
                break
    assert t_missed / len(d) > 2 * ALPHA


def test_the_interval_after_the_stream_is_the_values_no_bet_rejects() -> None:
    rng = np.random.default_rng(3)
    d, mean = _streams("three", 1, 500, rng)
    low, high = confidence_sequence(d[0])
    assert low < float(np.mean(d[0])) < high and low < mean < high
    inside = _Bets(d, ALPHA / 2)
    for value in (low + 0.01, (low + high) / 2, high - 0.01):  # inside: rejected by neither bet
        assert not inside.above(value)[0] and not inside.below(value)[0]
    assert inside.above(low - 0.01)[0] and inside.below(high + 0.01)[0]


def test_the_width_shrinks_as_one_over_root_n_up_to_logs() -> None:
    rng = np.random.default_rng(11)
    widths = {}
    for n in (100, 400, 1600, 6400):
        d = rng.choice([-1.0, 0.0, 1.0], size=n, p=[0.25, 0.5, 0.25])
        low, high = confidence_sequence(d)
        widths[n] = high - low
    for n in (100, 400, 1600):
        # Four times the units: about half the width (a log factor allows a little more).
        assert 0.4 < widths[4 * n] / widths[n] < 0.65
    scaled = [widths[n] * math.sqrt(n / math.log(n)) for n in widths]
    assert max(scaled) / min(scaled) < 1.6  # width * sqrt(n / log n) stays put


def test_a_steady_difference_is_bounded_by_the_range_of_one_deal() -> None:
    # Every unit the same: no nonparametric interval can be a point, since one deal in a
    # hundred could differ by 2; it narrows as 1/n instead (the reason v3 uses small searches).
    widths = {}
    for n in (50, 200, 800):
        low, high = confidence_sequence(np.zeros(n))
        assert low < 0 < high
        widths[n] = high - low
    assert widths[800] < widths[200] < widths[50]
    assert 0.5 < (widths[800] * 800) / (widths[200] * 200) < 1.5


# --------------------------------------------------------------------------- the decision


def _equal_moves(streams: int, n: int, moves: int, rng: np.random.Generator) -> np.ndarray:
    """Results (-1, 0, 1) of ``moves`` equally good moves on the same deals: each deal's luck
    shared, each move's own noise added."""
    luck = rng.choice([-1.0, 0.0, 1.0], size=(streams, n, 1), p=[0.4, 0.2, 0.4])
    own = rng.choice([-1.0, 0.0, 1.0], size=(streams, n, moves), p=[0.15, 0.7, 0.15])
    return np.clip(luck + own, -1.0, 1.0)


def test_equal_moves_are_never_clear_however_often_one_looks() -> None:
    rng = np.random.default_rng(5)
    data = _equal_moves(60, 480, 3, rng)
    named = 0
    for stream in data:
        for n in range(BATCH, 481, BATCH):
            seen = stream[:n]
            order = np.argsort(-seen.mean(axis=0), kind="stable")  # the best by its mean first
            found = decide([seen[:, k].tolist() for k in order], intervals=False)
            if found.verdict.kind in ("clear", "narrow"):
                named += 1
                break
            if found.settled:
                break
    assert named / len(data) <= ALPHA
    same = [[1.0, -1.0, 0.0, 1.0] * 50] * 3  # the same result on every deal
    found = decide(same)
    assert found.verdict.kind == "close" and found.verdict.close == (1, 2)
    assert all(c.ci95[0] < 0 < c.ci95[1] for c in found.comparisons[1:])


def test_the_t_test_names_equal_moves_when_it_looks_after_every_batch() -> None:
    # The rule before, on the same kind of streams: its 95% does not hold with many looks.
    rng = np.random.default_rng(5)
    data = _equal_moves(60, 480, 3, rng)
    named = 0
    for stream in data:
        for n in range(BATCH, 481, BATCH):
            seen = stream[:n]
            order = np.argsort(-seen.mean(axis=0), kind="stable")
            found = decide([seen[:, k].tolist() for k in order], rule="ttest")
            if found.verdict.kind in ("clear", "narrow") or found.settled:
                named += found.verdict.kind in ("clear", "narrow")
                break
    assert named / len(data) > ALPHA


def test_a_small_certain_lead_is_narrow_and_a_large_one_clear() -> None:
    rng = np.random.default_rng(2)
    luck = rng.choice([-1.0, 0.0, 1.0], size=3000)
    for lead, kind in ((0.05, "narrow"), (0.3, "clear")):
        ahead = (rng.random(3000) < lead).astype(float)  # the best wins a deal more, now and then
        best, other = np.clip(luck + ahead, -1, 1), luck
        found = decide([best.tolist(), other.tolist()])
        assert found.verdict.kind == kind and found.settled and not found.within_margin
        assert found.comparisons[1].ci95[0] > 0
        assert (found.comparisons[1].diff < MARGIN) == (kind == "narrow")


def test_moves_within_the_margin_settle_as_a_close_call() -> None:
    rng = np.random.default_rng(4)
    luck = rng.choice([-1.0, 0.0, 1.0], size=1000)
    twins = [luck.tolist(), luck.tolist(), np.clip(luck - (rng.random(1000) < 0.02), -1, 1).tolist()]
    found = decide(twins)
    assert found.verdict.kind == "close" and found.settled and found.within_margin
    early = decide([row[:40] for row in twins])  # 40 deals cannot tell 0.1 from 0 (the range is 4)
    assert early.verdict.kind == "close" and not early.settled


def test_the_union_is_over_the_other_moves_and_both_ways() -> None:
    # Each pair's interval is at alpha / (K - 1): more moves, wider intervals for the same pair.
    rng = np.random.default_rng(8)
    best = rng.choice([-1.0, 0.0, 1.0], size=300).tolist()
    other = rng.choice([-1.0, 0.0, 1.0], size=300).tolist()
    two = decide([best, other]).comparisons[1].ci95
    five = decide([best, other, other, other, other]).comparisons[1].ci95
    assert five[0] < two[0] and five[1] > two[1]
    assert two == pytest.approx(confidence_sequence(np.subtract(best, other), ALPHA), abs=1e-5)


def test_a_search_that_never_tried_a_move_is_left_out_of_its_pairs() -> None:
    best = [0.5] * 200
    other = [None if k % 2 else -0.5 for k in range(200)]
    found = decide([best, other])
    assert found.comparisons[1].units == 100 and found.comparisons[1].diff == pytest.approx(1.0)


def test_an_unknown_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown verdict rule"):
        decide([[0.0], [0.0]], rule="bayes")


def test_the_narrow_sentence() -> None:
    text = verdict_sentence("narrow", ["pass", "force 0"], [])
    assert text.startswith("pass is best, by a small margin (ahead of force 0 at 95%")
    assert "lead is under 0.1" in text and "clearly" not in text
    many = verdict_sentence("narrow", ["pass", "force 0", "take"], [], unit="searches")
    assert "ahead of every other move" in many and "same searches" in many


# --------------------------------------------------------------------------- the advice


def _mid_game(variant: str, seed: int):  # type: ignore[no-untyped-def]
    """A decision with two or more choices once eight cards have left the stock, in a seeded
    deal of greedy bots, seen by the player to act (bench/hint.py's positions)."""
    result = play_game(variant, ["greedy"] * (3 if variant == "megajogos" else 2), seed)
    state = result.start
    for _, move in result.moves:
        if state.stock_count <= 12 and state.phase in (Phase.OFFER, Phase.FORCED):
            mine = view(state, state.to_act)
            if len(state.legal_moves()) >= 3 and len(choices(mine)) >= 2:
                return mine
        state = state.apply(move)
    return None


def test_v3_pools_searches_of_one_size(monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: list[int] = []
    real = advisor.mcts_search

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        found = real(*args, **kwargs)
        sizes.append(found.iterations)
        return found

    monkeypatch.setattr(advisor, "mcts_search", spy)
    state = next(s for s in (_mid_game("megajogos", k) for k in range(10)) if s is not None)
    advice = advise(state, seed=3, until_decided=True, searches=MCTS_SEARCHES, time_limit=math.inf)
    assert set(sizes) == {MCTS_SEARCH} and len(sizes) % BATCH == 0 and len(sizes) >= BATCH
    assert advice.samples == MCTS_SEARCH * len(sizes) <= DECIDE_CAP["mcts"]
    sizes.clear()
    fixed = advise(state, seed=3, samples=1000, searches=MCTS_SEARCHES)  # --samples 1000
    assert set(sizes) == {MCTS_SEARCH} and len(sizes) == 10 and fixed.samples == 1000
    sizes.clear()
    before = advise(state, seed=3, until_decided=True, searches=MCTS_SEARCHES, rule="ttest",
                    time_limit=math.inf)  # fmt: skip
    assert set(sizes) == {500} and before.samples <= TTEST_CAP["mcts"]


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_the_same_seed_gives_the_same_answer(variant: str) -> None:
    state = next(s for s in (_mid_game(variant, k) for k in range(10)) if s is not None)
    answers = [
        advise(state, seed=seed, until_decided=True, searches=MCTS_SEARCHES, time_limit=math.inf)
        for seed in (4, 4, 5)
    ]
    first, again, other = answers
    key = [(e.move, e.expected, e.diff, e.diff_ci95) for e in first.estimates]
    assert key == [(e.move, e.expected, e.diff, e.diff_ci95) for e in again.estimates]
    assert (first.verdict, first.samples, first.stopped_by) == (again.verdict, again.samples, again.stopped_by)
    assert other.estimates != first.estimates  # another seed draws other deals or searches


def test_a_decided_hint_stops_at_a_look_and_its_verdict_reads_its_intervals() -> None:
    for k in range(6):
        state = _mid_game("classic", k)
        if state is None:
            continue
        advice = advise(state, seed=k, until_decided=True, time_limit=math.inf)
        assert advice.samples % BATCH == 0 and advice.samples <= DECIDE_CAP["lookahead"]
        lows = [e.diff_ci95[0] for e in advice.estimates[1:]]
        if advice.verdict in ("clear", "narrow"):
            assert all(low > 0 for low in lows) and advice.stopped_by == "verdict"
            assert (min(e.diff for e in advice.estimates[1:]) < MARGIN) == (advice.verdict == "narrow")
        else:
            assert any(low <= 0 for low in lows)
        for e in advice.estimates[1:]:
            assert e.diff_ci95[0] <= e.diff_ci95[1]


def test_the_narrow_verdict_in_json_and_text(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same hint, its verdict made "narrow": the front ends show the new value as it is.
    real = hints.advise
    monkeypatch.setattr(hints, "advise", lambda *a, **k: replace(real(*a, **k), verdict="narrow"))
    position = str(EXAMPLES / "example6-going-out.json")
    code, out, err = run("hint", position, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["verdict"] == "narrow" and data["close_to_best"] == []
    assert data["verdict_text"].endswith("the estimated lead is under 0.1 in expected result).")
    code, out, err = run("hint", position)
    assert code == 0, err
    assert out.splitlines()[0].startswith("take [AS 2S 3S 4S 5S] [5H 5D 5C] [KS KH KD] out is best, by a small margin")


def test_the_example_position_is_still_clear() -> None:
    # Going out (R15) is a sure win: the anytime rule names it at once, as the t-test did.
    state = read_position(EXAMPLES / "example6-going-out.json")
    advice = advise(view(state, state.to_act), seed=0, until_decided=True, time_limit=math.inf)
    assert advice.verdict == "clear" and advice.stopped_by == "verdict"


@pytest.mark.parametrize("seed", range(6))
def test_pairs_in_contention_are_checked_in_chunks_as_all_at_once(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The chunked check of every pair of the moves in contention answers as the check of all
    # the pairs at once, whatever the chunk; and it stops at the first chunk that is not settled.
    import numpy as np

    from analyzer.analysis import verdict

    rng = np.random.default_rng(seed)
    moves, units = 12, 400
    spread = 0.02 if seed % 2 else 0.6
    table = np.clip(rng.normal(0.1, spread, (moves, units)), -1, 1)
    close = tuple(range(1, moves))
    level = 0.05 / (2 * (moves - 1))
    pairs = [(i, j) for n, i in enumerate(close) for j in close[n + 1 :]]
    gaps = verdict._Bets(np.stack([table[i] - table[j] for i, j in pairs]), level)
    whole = bool(np.all(gaps.below(0.1)) and np.all(gaps.above(-0.1)))
    for chunk in (1, 7, 1024):
        monkeypatch.setattr(verdict, "PAIR_CHUNK", chunk)
        assert verdict._others_within(table, close, level, 0.1) == whole
    made: list[int] = []
    real = verdict._Bets
    monkeypatch.setattr(verdict, "PAIR_CHUNK", 5)
    monkeypatch.setattr(verdict, "_Bets", lambda d, lv: made.append(len(d)) or real(d, lv))
    verdict._others_within(table, close, level, 0.1)
    within = (gaps.below(0.1) & gaps.above(-0.1)).tolist()
    chunks = [all(within[k : k + 5]) for k in range(0, len(pairs), 5)]
    looked = chunks.index(False) + 1 if not whole else len(chunks)
    assert len(made) == looked and sum(made) == min(5 * looked, len(pairs))


def test_a_close_call_among_several_moves_says_any_of_them() -> None:
    """The margin's close call: 'either is fine' for two moves, 'any of them is fine' for more."""
    two = verdict_sentence("close", ["pass", "force 0"], ["force 0"], stopped_by="margin")
    many = verdict_sentence("close", ["pass", "force 0", "take"], ["force 0", "take"], stopped_by="margin")
    assert two.endswith("either is fine.") and many.endswith("any of them is fine.")
