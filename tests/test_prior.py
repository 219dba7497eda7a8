"""The learned move prior (analyzer/analysis/prior.py), the ``hint:prior=learned`` bot option and
the bench script that fits it (bench/fit_prior.py)."""

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

from analyzer.analysis import prior
from analyzer.analysis.advisor import advise
from analyzer.analysis.candidates import choices
from analyzer.analysis.estimates import Advice, MoveEstimate
from analyzer.bots.game import play_game
from analyzer.bots.registry import check_bot
from analyzer.bots.searchbots import HintBot
from analyzer.core.dealing import view
from analyzer.core.errors import ConquianError
from analyzer.core.moves import Pass, Take
from analyzer.core.rules import get_rules

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
CLASSIC = get_rules("classic")
SHIPPED = prior.prior_coefficients("classic") is not None

PASS_FIRST = tuple(-8.0 if name in ("take", "force") else 0.0 for name in prior.FEATURES)
"""Coefficients of a prior that finds a pass far likelier than a take or a force."""


def _offer() -> tuple[object, int]:
    """Player 0's view of a classic offer with a take, a pass and more than two choices."""
    for seed in range(3, 60):
        state, me, _ = _after_pays("classic", seed)
        mine = view(state, me)
        moves = mine.legal_moves()
        if any(isinstance(m, Take) and m.pay is not None for m in moves) and len(choices(mine)) > 2:
            return mine, me
    raise AssertionError("no offer with a take")


@pytest.mark.skipif(not SHIPPED, reason="no move prior shipped")
def test_the_shipped_prior_is_read_and_beat_its_baselines() -> None:
    data = json.loads((ROOT / "analyzer" / "data" / "prior.json").read_text(encoding="utf-8"))
    assert data["features"] == list(prior.FEATURES)
    for variant, entry in data["variants"].items():
        assert prior.prior_coefficients(variant) == tuple(entry["coefficients"])
        assert len(entry["coefficients"]) == len(prior.FEATURES)
        held = entry["held_out"]
        assert held["prior"]["log_loss"] < held["static"]["log_loss"] < held["uniform"]["log_loss"]
        assert held["prior"]["top1"] > held["uniform"]["top1"]
    assert prior.prior_for(CLASSIC) == prior.prior_coefficients("classic")
    assert prior.prior_for(replace(CLASSIC, hand_size=9)) is None  # custom rules: none fitted


def test_the_prior_sums_to_one_over_the_legal_moves() -> None:
    mine, _ = _offer()
    coefficients = tuple(0.1 * (k + 1) for k in range(len(prior.FEATURES)))
    found = prior.move_prior(mine, coefficients)
    assert set(found) == set(mine.legal_moves())
    assert math.fsum(found.values()) == pytest.approx(1.0) and all(q > 0 for q in found.values())
    by_choice = prior.choice_prior(mine, coefficients)
    assert math.fsum(q for _, q in by_choice) == pytest.approx(1.0)
    for group, q in by_choice:  # a choice's arrangements share its probability evenly
        assert all(found[m] == pytest.approx(q / len(group)) for m in group)
    # No coefficients: every choice alike.
    flat = prior.choice_prior(mine, (0.0,) * len(prior.FEATURES))
    assert {round(q, 12) for _, q in flat} == {round(1 / len(flat), 12)}
    with pytest.raises(ValueError, match="no move prior"):
        prior.choice_prior(replace(mine, rules=replace(CLASSIC, hand_size=9)))


def test_features_name_the_released_card() -> None:
    mine, me = _offer()
    rows = prior.choice_features(mine)
    for group, f in rows:
        named = dict(zip(prior.FEATURES, f, strict=True))
        move = group[0]
        if isinstance(move, Pass):
            assert named["take"] == named["force"] == 0.0 and named["melded"] == 0.0
        if isinstance(move, Take):
            assert named["take"] == 1.0 and named["melded"] >= 1.0
            assert named["stock"] == pytest.approx(min(1.0, mine.stock_count / max(1, _unseen(mine, me))))


def _unseen(mine: object, me: int) -> int:
    from analyzer.search.sampling import unseen_cards

    pool = unseen_cards(mine, me)  # type: ignore[arg-type]
    centre = mine.centre  # type: ignore[attr-defined]
    return (pool & ~(1 << centre.card)).bit_count()


def _estimate(move: object, expected: float) -> MoveEstimate:
    return MoveEstimate(move, (1 + expected) / 2, 0.0, (1 - expected) / 2, (0.0, 1.0), expected, 8, 0.0, ())  # type: ignore[arg-type]


def test_pick_follows_the_prior_among_unseparated_moves_only() -> None:
    mine, _ = _offer()
    take = next(m for m in mine.legal_moves() if isinstance(m, Take) and m.pay is not None)
    passing = Pass()
    estimates = [_estimate(take, 0.3), _estimate(passing, 0.1)]
    close = Advice(0, estimates, 8, 0.0, 0.0, 0, verdict="close", close_to_best=(passing,))
    assert prior.pick(mine, close, coefficients=PASS_FIRST) == passing  # the prior's choice
    assert prior.pick(mine, close, weight=0.0, coefficients=PASS_FIRST) == take  # the mean's
    # A small weight keeps the search's lead; a large one lets the prior's odds decide.
    assert prior.pick(mine, close, weight=0.001, coefficients=PASS_FIRST) == take
    assert prior.pick(mine, close, weight=1.0, coefficients=PASS_FIRST) == passing
    separated = replace(close, verdict="clear", close_to_best=())
    assert prior.pick(mine, separated, coefficients=PASS_FIRST) == take
    taking = tuple(-x for x in PASS_FIRST)
    assert prior.pick(mine, close, coefficients=taking) == take


def test_hint_bot_with_the_prior_plays_the_priors_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    mine, _ = _offer()
    monkeypatch.setattr(prior, "prior_for", lambda rules: PASS_FIRST)
    bot = HintBot(prior="learned")
    plain = HintBot(prior="none")
    engine, samples, budget = bot.setup(CLASSIC)
    seed = random.Random(5).randrange(2**31)
    advice = advise(mine, samples=samples, seed=seed, node_budget=budget, engine=engine)
    searched = plain.choose(mine, random.Random(5))
    assert searched == advice.estimates[0].move
    chosen = bot.choose(mine, random.Random(5))
    contenders = [advice.estimates[0].move, *advice.close_to_best]
    # In this offer the search's best is a take and the pass is not separated from it: the prior,
    # which finds a pass far likelier, has the pass played (with its weight, the mean's lead of a
    # few hundredths does not outweigh odds of e^-8).
    assert isinstance(searched, Take) and Pass() in contenders
    assert chosen == Pass()


def test_prior_option_is_accepted_where_fitted_and_refused_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConquianError, match="prior=guess must be one of auto, none, learned"):
        check_bot("hint:prior=guess")
    assert check_bot("hint:engine=v3:prior=learned").prior == "learned"  # type: ignore[attr-defined]
    with pytest.raises(ConquianError, match="prior=learned has no effect with peek"):
        check_bot("peek:prior=learned")
    with pytest.raises(ConquianError, match="prior=learned needs a move prior, and none is fitted for mexican, 3 players"):
        check_bot("hint:prior=learned", get_rules("mexican").with_players(3))  # fitted for two
    with pytest.raises(ConquianError, match=r"none is fitted for classic \(hand_size=9\)"):
        check_bot("hint:engine=pimc:prior=learned", replace(CLASSIC, hand_size=9))
    assert check_bot("hint:prior=none", get_rules("megajogos")).prior == "none"  # type: ignore[attr-defined]
    monkeypatch.setattr(prior, "prior_coefficients", lambda variant: None)
    with pytest.raises(ConquianError, match="none is fitted for classic"):
        check_bot("hint:prior=learned", CLASSIC)


@pytest.mark.skipif(not SHIPPED, reason="no move prior shipped")
def test_the_default_bot_weighs_the_prior_where_one_is_fitted_for_pimc() -> None:
    """prior=auto (the default): the learned prior in classic, whose engine is pimc; none in
    megajogos (IS-MCTS), under custom rules, with another engine, or for a bot seeing every hand."""
    assert HintBot().prior == "auto" and HintBot().uses_prior(CLASSIC)
    for fitted in ("hoyle1897", "cooncan1913", "mexican", "mexican_9_10"):
        assert HintBot().uses_prior(get_rules(fitted)) == (prior.prior_coefficients(fitted) is not None)
    assert HintBot(prior="learned").uses_prior(CLASSIC)
    assert not HintBot(prior="none").uses_prior(CLASSIC)
    assert not HintBot().uses_prior(get_rules("megajogos"))
    assert not HintBot().uses_prior(get_rules("mexican").with_players(3))  # fitted for two players
    assert not HintBot().uses_prior(replace(CLASSIC, hand_size=9))
    assert not HintBot(engine="cpsat").uses_prior(CLASSIC)
    assert not check_bot("peek", CLASSIC).uses_prior(CLASSIC)  # type: ignore[attr-defined]
    mine, _ = _offer()
    assert HintBot().choose(mine, random.Random(5)) == HintBot(prior="learned").choose(mine, random.Random(5))


def test_prior_weight_sets_how_much_the_prior_weighs(monkeypatch: pytest.MonkeyPatch) -> None:
    """prior_weight replaces WEIGHT in the bot's pick: 0 plays the search's best, a large one the
    prior's choice; refused with prior=none and out of 0..100."""
    mine, _ = _offer()
    monkeypatch.setattr(prior, "prior_for", lambda rules: PASS_FIRST)
    searched = HintBot(prior="none").choose(mine, random.Random(5))
    assert HintBot(prior="learned", prior_weight=0).choose(mine, random.Random(5)) == searched
    assert HintBot(prior="learned", prior_weight=100).choose(mine, random.Random(5)) == Pass() != searched
    assert check_bot("hint:prior_weight=0.2", CLASSIC).prior_weight == 0.2  # type: ignore[attr-defined]
    with pytest.raises(ConquianError, match="prior_weight has no effect with prior=none"):
        check_bot("hint:prior=none:prior_weight=1")
    with pytest.raises(ConquianError, match="prior_weight=101 must be at most 100"):
        check_bot("hint:prior_weight=101")


@pytest.mark.skipif(not SHIPPED, reason="no move prior shipped")
def test_hint_bot_with_the_prior_is_reproducible_with_a_seed() -> None:
    assert check_bot("hint:prior=learned", CLASSIC) is not None
    seats = ["hint:prior=learned:node_budget=200:samples=4", "greedy"]
    first = play_game("classic", seats, seed=11)
    again = play_game("classic", seats, seed=11)
    assert first.moves == again.moves and first.final.winner == again.final.winner


def test_fit_prior_fits_records(tmp_path: Path) -> None:
    out = tmp_path / "sp"
    run = subprocess.run(
        [sys.executable, str(BENCH / "selfplay.py"), "play", str(out), "--bots", "greedy",
         "--games", "12", "--jobs", "1"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    sys.path.insert(0, str(BENCH))
    try:
        import fit_prior
        from selfplay import record_paths
    finally:
        sys.path.remove(str(BENCH))
    decisions = [d for p in record_paths(out) for d in fit_prior.decisions_of(p)[1]]
    assert decisions
    for features, static, played, pays in decisions:
        assert len(features) == len(static) >= 2 and 0 <= played < len(features)
        assert not pays or played in pays
    table = fit_prior.Table(decisions)
    b = table.fit(1.0)
    loss, top1 = table.scores(b)
    flat, _ = table.scores(b * 0.0)
    assert loss < flat and 0.0 <= top1 <= 1.0  # the fit lowers the log loss on its own rows
    assert table.fit(1.0).tolist() == b.tolist()  # Newton's method is deterministic
    bad = subprocess.run(
        [sys.executable, str(BENCH / "fit_prior.py"), "--records", str(out), "--l2", "-1"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert bad.returncode == 2 and "--l2" in bad.stderr


@pytest.mark.skipif(not SHIPPED, reason="no move prior shipped")
def test_the_shipped_prior_written_again_gives_the_same_bytes(tmp_path: Path) -> None:
    sys.path.insert(0, str(BENCH))
    try:
        from fitting import DATA, write_variant
    finally:
        sys.path.remove(str(BENCH))
    shipped = (DATA / "prior.json").read_bytes()
    data = json.loads(shipped)
    assert data["script"] == "bench/fit_prior.py"
    (tmp_path / "prior.json").write_bytes(shipped)
    for variant, entry in data["variants"].items():
        path = write_variant("prior.json", "bench/fit_prior.py", variant, entry, features=prior.FEATURES, folder=tmp_path)
        assert path.read_bytes() == shipped


def test_leaning_names_the_bots_pick_only_among_close_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hint's prior_pick (analyzer.analysis.prior.leaning): the bot's pick where the verdict
    leaves moves close, with pimc and a fitted prior; None where the best is separated, with
    another engine or where no prior is fitted."""
    mine, _ = _offer()
    monkeypatch.setattr(prior, "prior_for", lambda rules: PASS_FIRST)
    take = next(m for m in mine.legal_moves() if isinstance(m, Take) and m.pay is not None)
    close = Advice(
        0, [_estimate(take, 0.3), _estimate(Pass(), 0.29)], 8, 0.0, 0.0, 0, verdict="close",
        close_to_best=(Pass(),),
    )  # fmt: skip
    assert prior.leaning(mine, close, "pimc") == Pass()  # the prior's choice, as the bot's pick
    assert prior.leaning(mine, close, "ismcts") is None
    assert prior.leaning(mine, replace(close, verdict="clear", close_to_best=()), "pimc") is None
    monkeypatch.setattr(prior, "prior_for", lambda rules: None)
    assert prior.leaning(mine, close, "pimc") is None


@pytest.mark.skipif(not SHIPPED, reason="no move prior shipped")
def test_the_hint_json_and_text_name_the_priors_pick_among_close_moves() -> None:
    """hint --json: prior_pick is the best or one of close_to_best where the verdict is close
    (a classic deal the greedy bots played 9 moves into), and the text prints prior_text; a
    clear verdict has none."""
    from typer.testing import CliRunner

    from cli.main import app

    runner = CliRunner()
    found = []
    for seed in range(15, 30):
        dealt = runner.invoke(app, ["deal", "--seed", str(seed), "--after", "9"])
        answer = runner.invoke(app, ["hint", "-", "--json"], input=dealt.stdout)
        if answer.exit_code != 0:  # the deal is over, or nobody chooses
            continue
        data = json.loads(answer.stdout)
        if data.get("verdict") not in ("close", "clear", "narrow"):
            continue
        found.append(data["verdict"])
        if data["verdict"] != "close":
            assert data["prior_pick"] is None and data["prior_text"] == ""
            continue
        assert data["prior_pick"] in [data["moves"][0]["move"], *data["close_to_best"]]
        assert data["prior_pick"] in data["prior_text"]
        text = runner.invoke(app, ["hint", "-"], input=dealt.stdout).stdout
        assert data["prior_text"].split(" leans")[0] in " ".join(text.split())
        break
    assert "close" in found


def _visited(move: object, expected: float, visits: int) -> MoveEstimate:
    return replace(_estimate(move, expected), samples=visits)


def test_pick_visited_weighs_the_prior_among_the_moves_a_tree_visited_often() -> None:
    """One IS-MCTS tree: the contenders are the moves with at least half the most visits; among
    them the prior decides as in pick; a move visited little is never played for its prior."""
    mine, _ = _offer()
    take = next(m for m in mine.legal_moves() if isinstance(m, Take) and m.pay is not None)
    near = Advice(0, [_visited(take, 0.30, 600), _visited(Pass(), 0.28, 400)], 1000, 0.0, 0.0, 0)
    assert prior.pick_visited(mine, near, coefficients=PASS_FIRST) == Pass()
    assert prior.pick_visited(mine, near, weight=0.0, coefficients=PASS_FIRST) == take
    far = Advice(0, [_visited(take, 0.30, 900), _visited(Pass(), 0.28, 100)], 1000, 0.0, 0.0, 0)
    assert prior.pick_visited(mine, far, coefficients=PASS_FIRST) == take
    assert prior.pick_visited(mine, far, share=0.1, coefficients=PASS_FIRST) == Pass()


def test_choice_probabilities_give_each_root_its_choices_prior(monkeypatch: pytest.MonkeyPatch) -> None:
    """One move per choice (the IS-MCTS roots): each gets its choice's probability, in the order
    given; refused where no prior is fitted."""
    mine, _ = _offer()
    monkeypatch.setattr(prior, "prior_for", lambda rules: PASS_FIRST)
    groups = choices(mine)
    roots = [g[-1] for g in reversed(groups)]  # not the engine's order, not the first arrangement
    found = prior.choice_probabilities(mine, roots)
    by_choice = {g[0]: q for g, q in prior.choice_prior(mine)}
    assert found == pytest.approx([by_choice[g[0]] for g in reversed(groups)])
    assert sum(found) == pytest.approx(1.0) and found[roots.index(Pass())] == max(found)
    monkeypatch.setattr(prior, "prior_for", lambda rules: None)
    with pytest.raises(ConquianError, match="no move prior is fitted for classic"):
        prior.choice_probabilities(mine, roots)
