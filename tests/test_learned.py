"""The learned pieces of the hint bot: the card-location model (analyzer/search/reader.py), the
self-play leaf evaluation (``leaf=selfplay``) and the self-play pipeline of bench/ that fits them."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from test_reading import _after_pays

from analyzer.analysis.advisor import advise
from analyzer.analysis.engines import ENGINES
from analyzer.bots.registry import check_bot
from analyzer.bots.searchbots import HintBot
from analyzer.core import native
from analyzer.core.cards import iter_mask
from analyzer.core.dealing import view
from analyzer.core.errors import ConquianError
from analyzer.core.legal import fitting_cards
from analyzer.core.rules import get_rules
from analyzer.search import reader
from analyzer.search.evaluation import FEATURES_PER_PLAYER, GLOBAL_FEATURES, evaluator_for, features
from analyzer.search.inference import near_counts, read_cards
from analyzer.search.sampling import declined_cards, sample_deal, unseen_cards

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
CLASSIC = get_rules("classic")


def test_card_features_are_the_history_read_card_by_card() -> None:
    state, me, paid = _after_pays("classic", 3)
    mine = view(state, me)
    found = reader.card_features(mine, me)
    pool = unseen_cards(mine, me)
    assert set(found) == set(paid)  # the one hidden hand of classic
    for q, (prior, rows) in found.items():
        k = mine.counts[q]
        assert prior == pytest.approx(math.log(k / (pool.bit_count() - k)))
        assert [c for c, _ in rows] == list(iter_mask(pool))
        given = read_cards(mine, me)[q]
        declined = declined_cards(mine, q)
        for c, x in rows:
            named = dict(zip(reader.FEATURES, x, strict=True))
            assert (named["near_given"], named["gap_given"]) == near_counts(given, c)
            assert (named["near_declined"], named["gap_declined"]) == near_counts(declined, c)
            assert named["fits_own"] == float(fitting_cards(mine.layouts[q], CLASSIC) >> c & 1)
            assert named["stock_share"] == mine.stock_count / pool.bit_count()


def test_reader_weights_follow_the_coefficients(monkeypatch: pytest.MonkeyPatch) -> None:
    state, me, paid = _after_pays("classic", 3)
    mine = view(state, me)
    monkeypatch.setattr(reader, "reader_coefficients", lambda variant: None)
    assert reader.reader_weights(mine, me) is None
    # Only the paid-card nearness counts: the weights are exp(-n1), scaled to a largest of 1.
    only_near = (-1.0,) + (0.0,) * (len(reader.FEATURES) - 1)
    monkeypatch.setattr(reader, "reader_coefficients", lambda variant: only_near)
    weights = reader.reader_weights(mine, me)
    assert weights is not None and set(weights) == set(paid)
    (q,) = weights
    given = read_cards(mine, me)[q]
    pool = list(iter_mask(unseen_cards(mine, me)))
    least = min(near_counts(given, c)[0] for c in pool)
    for c in pool:
        assert weights[q][c] == pytest.approx(math.exp(least - near_counts(given, c)[0]))
    assert max(weights[q][c] for c in pool) == 1.0
    # Drawn by those weights, every deal keeps the view and the counts.
    for seed in range(5):
        deal = sample_deal(mine, me, random.Random(seed), infer=True, weights=weights)
        assert deal.hands[me] == mine.hands[me]
        assert [bin(h or 0).count("1") for h in deal.hands] == list(mine.counts)


@pytest.mark.skipif(reader.reader_coefficients("classic") is None, reason="no card-location model shipped")
def test_the_shipped_card_location_model_beat_the_paid_reading() -> None:
    data = json.loads((ROOT / "analyzer" / "data" / "reader.json").read_text(encoding="utf-8"))
    assert data["features"] == list(reader.FEATURES)
    for entry in data["variants"].values():
        assert len(entry["coefficients"]) == len(reader.FEATURES)
        assert entry["log_loss_learned"] < entry["log_loss_paid"] < entry["log_loss_count"]


def test_hint_bot_reads_by_the_learned_model(monkeypatch: pytest.MonkeyPatch) -> None:
    assert check_bot("hint:read=learned") is not None
    with pytest.raises(ConquianError, match="read=guess must be 0, 1 or learned"):
        check_bot("hint:read=guess")
    bot = HintBot(read="learned", samples=2, node_budget=100)
    engine, _, _ = bot.setup(CLASSIC)
    assert engine.read and engine.reader == "learned"
    assert HintBot(read=1).setup(CLASSIC)[0].reader == "paid"
    state, me, _ = _after_pays("classic", 3)
    mine = view(state, me)
    seen: list[str] = []
    real = reader.reading_weights
    monkeypatch.setattr(
        "analyzer.analysis.advisor.reading_weights",
        lambda name, v, p: seen.append(name) or real(name, v, p),
    )
    found = advise(mine, samples=2, seed=0, engine=engine, node_budget=100)
    assert state.is_legal(found.estimates[0].move) and seen == ["learned"]


def test_leaf_selfplay_is_an_option_of_the_hint_bot() -> None:
    assert check_bot("hint:leaf=selfplay") is not None
    with pytest.raises(ConquianError, match="leaf"):
        check_bot("hint:leaf=learnt")
    engine, _, _ = HintBot(leaf="selfplay").setup(CLASSIC)
    assert engine.leaf == "selfplay"


@pytest.mark.skipif(evaluator_for(CLASSIC, "selfplay") is None, reason="no self-play evaluation shipped")
def test_the_selfplay_evaluation_is_its_own_file_and_agrees_on_both_cores() -> None:
    model = evaluator_for(CLASSIC, "selfplay")
    fitted = evaluator_for(CLASSIC)
    assert model is not None and fitted is not None
    assert model.meta.get("records") and model.layers[0][0].tolist() != fitted.layers[0][0].tolist()
    state, me, _ = _after_pays("classic", 3)
    mine = view(state, me)
    learned = replace(ENGINES["v2"], leaf="selfplay")
    answers = []
    for core in ("python", "native"):
        if core == "native" and not native.native_available():
            pytest.skip("the native core is not built")
        with native.use_core(core):
            found = advise(mine, samples=3, seed=4, engine=learned, node_budget=300)
        answers.append([(e.move, e.expected) for e in found.estimates])
    assert answers[0] == answers[1]
    p = model.probabilities(features(state))
    assert sum(p) == pytest.approx(1.0) and all(0 < x < 1 for x in p)


def test_selfplay_records_give_the_training_rows(tmp_path: Path) -> None:
    out = tmp_path / "sp"
    run = subprocess.run(
        [sys.executable, str(BENCH / "selfplay.py"), "play", str(out), "--bots", "greedy",
         "--games", "3", "--jobs", "1"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "decisions/s" in run.stdout
    again = subprocess.run(
        [sys.executable, str(BENCH / "selfplay.py"), "play", str(out), "--bots", "greedy", "--games", "3"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert "all 3 games are there" in again.stdout  # resumable: nothing played twice
    sys.path.insert(0, str(BENCH))
    try:
        import fit_eval
        import fit_reader
        from selfplay import record_paths, replays
    finally:
        sys.path.remove(str(BENCH))
    paths = record_paths(out)
    assert [p.name for p in paths] == ["game-000000.jsonl", "game-000001.jsonl", "game-000002.jsonl"]
    for (index, replay), path in zip(replays(out), paths, strict=True):
        winner = replay.final.winner
        rows = fit_eval.record_rows(path)
        assert rows and {len(x) for x, _, _ in rows} == {len(FEATURES_PER_PLAYER) * 2 + len(GLOBAL_FEATURES)}
        # Each position's class is the deal's result seen from its player to act.
        kept = [s for s in replay.states if not s.is_terminal() and fit_eval._boundary(s)]
        assert [label for _, label, _ in rows] == [
            2 if winner is None else (winner - s.to_act) % 2 for s in kept
        ]
        variant, cards = fit_reader.rows_of(path)
        assert variant == "classic" and cards
        truth = 0
        for s in replay.states:
            if not s.is_chance_node() and not s.is_terminal() and len(s.legal_moves()) > 1:
                q = 1 - s.to_act
                truth += (s.hands[q] or 0).bit_count()
        # Every hidden card is in exactly one row labelled 1 per decision.
        assert sum(label for _, _, label, _ in cards) == truth
        assert index == int(path.name[5:11])


def test_leaf_selfplay_is_refused_where_no_evaluation_was_fitted() -> None:
    megajogos = get_rules("megajogos")
    assert evaluator_for(megajogos, "selfplay") is None
    with pytest.raises(ConquianError, match="leaf=selfplay has no evaluation fitted for megajogos"):
        check_bot("hint:leaf=selfplay", megajogos)
    if evaluator_for(CLASSIC, "selfplay") is not None:
        assert check_bot("hint:leaf=selfplay", CLASSIC) is not None
    with pytest.raises(ConquianError, match="leaf=selfplay"):
        check_bot("hint:leaf=selfplay", replace(CLASSIC, hand_size=9))  # custom rules: none fitted


def test_a_bot_of_one_engine_takes_its_method_name_too() -> None:
    assert check_bot("hint-v2:engine=pimc") is not None
    assert check_bot("hint-v2:engine=v2") is not None
    with pytest.raises(ConquianError, match="hint-v2 is the v2 engine's bot"):
        check_bot("hint-v2:engine=ismcts")
