"""The core IS-MCTS search and the ``mcts`` bot (analyzer.search.mcts)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from cli_run import one_error_line, run

from analyzer.analysis.advisor import ENGINES, advise, candidate_moves, engine_for
from analyzer.bots.registry import make_bot
from analyzer.core.cards import iter_mask
from analyzer.core.errors import ConquianError
from analyzer.bots.searchbots import MctsBot
from analyzer.search.mcts import search
from analyzer.core.moves import Take, parse_move
from analyzer.core.dealing import deal, view
from analyzer.formats.position import load_position
from analyzer.formats.sniff import read_position
from analyzer.core.rules import get_rules
from analyzer.search.sampling import is_consistent, sample_world
from analyzer.search.exact import solve
from analyzer.bots.simulate import simulate
from tests.test_hint_engine import PAY_MATTERS

# Every test here runs on both cores: the Python engine (the reference) and the native core.
pytestmark = pytest.mark.usefixtures("both_cores")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "positions"
WINNING = "take [2S 3S 4S 5S 6S] [QS QH QD QC] pay 7S"


def _mid_game(variant: str, seed: int, plies: int = 14):
    """A position some plies into a seeded deal played by the first legal moves and turned cards."""
    state = deal(variant, seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state = state.apply(state.legal_moves()[0])
    while state.is_chance_node():
        state = state.apply(state.chance_outcomes()[0][0])
    return state


@pytest.mark.parametrize("leaf", ["rollout", "fitted"])
def test_the_winning_pay_card_is_found(leaf: str) -> None:
    # Only paying 7S wins (R13, R15); every card known, one stock card.
    state = load_position(PAY_MATTERS)
    assert solve(state).values[0] == 1.0
    stats = search(state, 400, seed=3, leaf=leaf).moves
    assert stats[0].move == parse_move(WINNING)
    assert stats[0].value > 0.9  # below 1 only by exploring later moves
    # The takes that pay JH lose to best play (player 1 takes JH and goes out); the search,
    # which still explores player 1's other replies, rates them well below.
    jh = parse_move("take [2S 3S 4S 5S 6S] [QS QH QD QC] pay JH").pay
    paying_jh = [s for s in stats if isinstance(s.move, Take) and s.move.pay == jh]
    assert len(paying_jh) == 2 and all(s.value < stats[0].value - 0.2 for s in paying_jh)


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_every_root_move_is_listed_and_the_visits_add_up(variant: str) -> None:
    state = _mid_game(variant, 4)
    me = state.to_act
    stats = search(view(state, me), 120, seed=1).moves
    assert sorted(map(str, (s.move for s in stats))) == sorted(map(str, state.legal_moves()))
    assert sum(s.visits for s in stats) == 120
    assert [s.visits for s in stats] == sorted((s.visits for s in stats), reverse=True)
    assert all(0.0 <= s.value <= 1.0 for s in stats)


def test_a_seeded_search_is_reproducible_and_the_seed_matters() -> None:
    state = view(_mid_game("megajogos", 9), _mid_game("megajogos", 9).to_act)
    a = search(state, 150, seed=5).moves
    b = search(state, 150, seed=5).moves
    assert a == b
    c = search(state, 150, seed=6).moves
    assert [(s.move, s.visits) for s in c] != [(s.move, s.visits) for s in a] or len(a) == 1


def test_root_moves_time_limit_stop_and_progress() -> None:
    state = _mid_game("classic", 4)
    v = view(state, state.to_act)
    legal = v.legal_moves()
    some = legal[-2:]
    found = search(v, 60, seed=2, root_moves=some)
    assert {s.move for s in found.moves} == set(some) and found.iterations == 60
    for s in found.moves:
        assert 0.0 <= s.win <= s.win + s.draw <= 1.0 + 1e-9
        assert s.value == pytest.approx(s.win + 0.5 * s.draw)
    seen: list[tuple[int, int]] = []
    calls = iter(range(1000))
    stopped = search(v, 10_000, seed=2, stop=lambda: next(calls) >= 30, progress=lambda d, t: seen.append((d, t)))
    assert stopped.interrupted and stopped.iterations == 31
    assert seen == [(31, 10_000)]  # stopped before the 50th, then the last count
    timed = search(v, 10**7, seed=2, time_limit=0.0)
    assert timed.iterations == 1 and not timed.interrupted
    with pytest.raises(ConquianError, match="not a legal root move"):
        search(v, 5, root_moves=[parse_move("force 1")] if "force 1" not in map(str, legal) else [])


@pytest.mark.parametrize(("variant", "seed"), [("classic", 2), ("megajogos", 3)])
def test_the_move_prior_at_the_root_draws_visits_to_the_moves_it_finds_likely(variant: str, seed: int) -> None:
    state = _mid_game(variant, seed, 10 if variant == "megajogos" else 14)
    mine = view(state, state.to_act)
    plain = search(mine, 300, seed=1).moves
    assert len(plain) > 1
    least = plain[-1].move  # the move the search visits least
    legal = mine.legal_moves()
    prior = [1.0 if m == least else 0.0 for m in legal]
    # Without a weight the prior changes nothing; with one, the move it backs is tried more.
    assert search(mine, 300, seed=1, root_prior=prior).moves == plain
    leaning = search(mine, 300, seed=1, root_prior=prior, prior_bias=2.0).moves
    visits = {s.move: s.visits for s in leaning}
    assert visits[least] > plain[-1].visits
    assert sum(visits.values()) == 300
    assert leaning[0].move == least  # a weight this large overrules the search


def test_a_bad_move_prior_is_refused() -> None:
    state = _mid_game("classic", 2)
    mine = view(state, state.to_act)
    k = len(mine.legal_moves())
    with pytest.raises(ConquianError, match="prior_bias"):
        search(mine, 10, prior_bias=-1.0)
    with pytest.raises(ConquianError, match="prior_bias has no effect with method=halving"):
        search(mine, 10, prior_bias=1.0, method="halving")
    with pytest.raises(ConquianError, match=f"one probability .0 to 1. per root move .{k}."):
        search(mine, 10, prior_bias=1.0, root_prior=[0.5] * (k + 1))
    with pytest.raises(ConquianError, match="per root move"):
        search(mine, 10, prior_bias=1.0, root_prior=[2.0] * k)


def test_the_search_refuses_what_it_cannot_search() -> None:
    state = _mid_game("classic", 2)
    with pytest.raises(ConquianError, match="iterations"):
        search(state, 0)
    with pytest.raises(ConquianError, match="leaf"):
        search(state, 10, leaf="oracle")
    other = view(state, 1 - state.to_act)
    with pytest.raises(ConquianError, match="hidden"):
        search(other, 10)
    over = state
    while not over.is_terminal():
        over = over.apply(over.legal_moves()[0])
    with pytest.raises(ConquianError, match="no decision"):
        search(over, 10)
    with pytest.raises(ConquianError, match="leaf"):
        MctsBot(leaf="x")
    with pytest.raises(ConquianError, match="iterations"):
        make_bot("mcts:iterations=0")


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_modelled_opponents_play_the_eager_policy_inside_the_tree(
    variant: str, monkeypatch: pytest.MonkeyPatch, both_cores: str
) -> None:
    # opponents="policy": every decision of another player inside the tree is the eager
    # policy's (only the searching player's choices branch); "search" never calls it there.
    import analyzer.search.mcts as mcts

    if both_cores == "native":
        pytest.skip("spies on the Python engine's eager_move; the native core's trees are "
                    "held equal to it in test_native_core.py")
    state = _mid_game(variant, 4)
    me = state.to_act
    asked: list[tuple[int, int]] = []
    real = mcts.eager_move

    def spy(s, moves, rng):
        asked.append((s.to_act, len(moves)))
        move = real(s, moves, rng)
        assert move in moves
        return move

    monkeypatch.setattr(mcts, "eager_move", spy)
    plain = search(view(state, me), 150, seed=1)
    assert asked == []
    modelled = search(view(state, me), 150, seed=1, opponents="policy")
    assert asked and all(seat != me for seat, _ in asked)
    assert any(count > 1 for _, count in asked)  # real choices, not only forced ones
    assert sum(s.visits for s in modelled.moves) == 150
    assert {s.move for s in modelled.moves} == {s.move for s in plain.moves}
    with pytest.raises(ConquianError, match="opponents must be one of search, policy"):
        search(view(state, me), 5, opponents="greedy")


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_sampled_worlds_agree_with_the_view(variant: str) -> None:
    rng = random.Random(0)
    for seed in range(6):
        state = _mid_game(variant, seed, plies=seed * 3)
        if state.is_terminal():
            continue
        me = state.to_act
        v = view(state, me)
        world = sample_world(v, me, rng)
        assert world.stock is None
        stock = world.stock_mask()
        assert stock is not None and stock.bit_count() == v.stock_count
        assert is_consistent(world.evolve(stock=tuple(iter_mask(stock))), v, me)
        assert world.hands[me] == state.hands[me]
        assert all(h is not None for h in world.hands)


def test_inferred_worlds_respect_the_declines_and_steer_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # infer=True: every determinization is a deal where player 0 holds no pair that melds with
    # a card he declined (R12, R17), as sample_deal(infer=True) draws them; uniform ones may.
    from analyzer.search.sampling import _broken, declined_pairs
    from tests.test_sampling import declines_view

    mine, pairs = declines_view()
    rng = random.Random(1)
    given = declined_pairs(mine, 1)
    inferred = [sample_world(mine, 1, rng, infer=True, pairs=given) for _ in range(40)]
    assert all(_broken(list(w.hands), pairs) == 0 for w in inferred)
    uniform = [sample_world(mine, 1, rng) for _ in range(200)]
    assert any(_broken(list(w.hands), pairs) for w in uniform)
    a = search(mine, 200, seed=3, infer=True)
    assert a.moves == search(mine, 200, seed=3, infer=True).moves  # reproducible
    assert sum(s.visits for s in a.moves) == 200
    # The hint engine passes its infer setting to the search: v3 draws uniformly unless told to.
    import analyzer.analysis.advisor as advisor

    asked: list[bool] = []

    def spy(*args, **kwargs):
        asked.append(kwargs["infer"])
        return search(*args, **kwargs)

    monkeypatch.setattr(advisor, "mcts_search", spy)
    state = _mid_game("megajogos", 4)
    v = view(state, state.to_act)
    advise(v, samples=30, seed=3, engine="v3")
    advise(v, samples=30, seed=3, engine=replace(ENGINES["v3"], infer=True))
    assert asked == [False, True]


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_the_mcts_bot_plays_whole_deals(variant: str) -> None:
    bots = ["mcts:iterations=20"] + ["greedy"] * (1 if variant == "classic" else 2)
    results = list(simulate(variant, bots, games=2, seed=1, rotate=True))
    assert len(results) == 2
    again = list(simulate(variant, bots, games=2, seed=1, rotate=True))
    assert again == results


def test_auto_is_v3_for_three_players_and_v2_for_two() -> None:
    assert engine_for("auto", get_rules("megajogos")).name == "v3"
    assert engine_for("auto", get_rules("classic")).name == "v2"
    assert engine_for("v1", get_rules("megajogos")).name == "v1"
    with pytest.raises(ConquianError, match=r"unknown hint engine: 'v9' \(known: auto, ismcts, pimc, cpsat, v3, v2, v1\)"):
        engine_for("v9", get_rules("classic"))
    bot = make_bot("hint")
    assert bot.setup(get_rules("megajogos"))[:2] == (ENGINES["v3"], ENGINES["v3"].bot_samples)  # type: ignore[attr-defined]
    assert bot.setup(get_rules("classic"))[0].name == "v2"  # type: ignore[attr-defined]
    old = make_bot("hint-v2")
    assert old.setup(get_rules("megajogos"))[0].name == "v2"  # type: ignore[attr-defined]
    tuned = make_bot("hint:engine=v3:c=1.5:samples=50")
    engine, samples, _ = tuned.setup(get_rules("classic"))  # type: ignore[attr-defined]
    assert (engine.name, engine.c, samples) == ("v3", 1.5, 50)


def test_the_bots_deals_per_decision_are_the_presets_measured_figure_where_there_is_one() -> None:
    """The hint bot samples BOT_SAMPLES' deals on a preset measured for pimc (classic, 16), the
    engine's bot_samples elsewhere: other presets, the preset with an option changed or at another
    player count, another engine; samples= given always wins; the same rules twice, one setup."""
    from dataclasses import replace

    from analyzer.analysis.engines import BOT_SAMPLES, bot_samples_for

    classic = get_rules("classic")
    pimc = ENGINES["pimc"]
    assert BOT_SAMPLES["classic"] != pimc.bot_samples
    assert bot_samples_for(pimc, classic) == BOT_SAMPLES["classic"]
    assert bot_samples_for(pimc, classic.with_labels("spanish")) == BOT_SAMPLES["classic"]
    assert bot_samples_for(pimc, replace(classic, hand_size=9)) == pimc.bot_samples
    assert bot_samples_for(pimc, get_rules("hoyle1897")) == BOT_SAMPLES.get("hoyle1897", pimc.bot_samples)
    assert bot_samples_for(ENGINES["ismcts"], classic) == ENGINES["ismcts"].bot_samples
    bot = make_bot("hint")
    assert bot.setup(classic)[1] == BOT_SAMPLES["classic"]  # type: ignore[attr-defined]
    assert bot.setup(replace(classic, hand_size=9))[1] != BOT_SAMPLES["classic"]  # type: ignore[attr-defined]
    assert bot.setup(classic) is bot.setup(classic)  # type: ignore[attr-defined]
    assert make_bot("hint:samples=8").setup(classic)[1] == 8  # type: ignore[attr-defined]
    for kept in ("hint-v2", "peek"):  # the bots measured against keep their budgets
        assert make_bot(kept).setup(classic)[1] == pimc.bot_samples  # type: ignore[attr-defined]


def test_v3_advice_ranks_every_choice_from_the_players_view() -> None:
    state = read_position(EXAMPLES / "example6-forced-out.json")
    advice = advise(state, engine="v3", samples=300, seed=1)
    assert advice.engine == "v3" and advice.samples == 300 and not advice.interrupted
    assert {str(e.move) for e in advice.estimates} == {str(m) for m in candidate_moves(state)}
    assert sum(e.samples for e in advice.estimates) == 300
    # Forcing player 0 with 5S hands him the game (worked example 6): the search passes.
    assert str(advice.estimates[0].move) == "pass"
    force = next(e for e in advice.estimates if str(e.move) == "force 0")
    assert force.win == 0.0 and force.samples < advice.estimates[0].samples
    for e in advice.estimates:
        assert e.win + e.draw + e.loss == pytest.approx(1.0) and e.ci95[0] <= e.win <= e.ci95[1]
    assert advise(state, engine="v3", samples=300, seed=1).estimates == advice.estimates


def test_v3_advice_with_halving_ranks_the_survivors_first() -> None:
    state = read_position(EXAMPLES / "example6-forced-out.json")
    engine = replace(ENGINES["v3"], method="halving")
    advice = advise(state, engine=engine, samples=300, seed=1)
    assert {str(e.move) for e in advice.estimates} == {str(m) for m in candidate_moves(state)}
    assert sum(e.samples for e in advice.estimates) == 300
    assert str(advice.estimates[0].move) == "pass"  # forcing player 0 hands him the game
    assert next(e for e in advice.estimates if str(e.move) == "force 0").win == 0.0
    assert [e.samples for e in advice.estimates] == sorted((e.samples for e in advice.estimates), reverse=True)
    bot = make_bot("hint:engine=v3:method=halving")
    assert bot.setup(state.rules)[0].method == "halving"  # type: ignore[attr-defined]


def test_v3_with_every_card_known_answers_exactly_as_v2() -> None:
    # --open with the stock order given: v3 hands over to v2's exact lookahead (= solve).
    state = load_position(PAY_MATTERS)
    advice = advise(state, engine="v3", open_hands=True)
    assert advice.engine == "v2" and advice.unproven == 0
    assert advice.estimates[0].move == parse_move(WINNING) and advice.estimates[0].win == 1.0


@pytest.mark.parametrize(
    ("bot", "named"),
    [
        ("hint:samples=abc", "samples=abc"),
        ("hint:samples=2.5", "samples=2.5"),
        ("hint:samples=0", "samples=0"),
        # A huge count would run a match without end; capped as the engine caps it.
        ("hint:samples=99999999999999999999999", "must be at most 100000"),
        ("mcts:playout=never", "playout=never"),
        ("hint:playout=x", "playout=x"),
        ("hint:node_budget=-1", "node_budget=-1"),
        ("hint:engine=v3:c=abc", "c=abc"),
        ("hint:c=nan:engine=v3", "c=nan"),
        ("hint:mode=foo", "mode=foo"),
        ("hint:leaf=x", "leaf=x"),
        ("hint:engine=v3:leaf=melded", "leaf=melded must be one of rollout, fitted"),
        ("hint:samples=1:samples=2", "'samples' is given twice"),
        ("hint:foo=1", "no option 'foo'"),
        ("hint-v2:foo=1", "no option 'foo'"),
        ("greedy:x=1", "no option 'x'"),
        ("mcts:iterations=abc", "iterations=abc"),
        ("mcts:iterations=-5", "iterations=-5"),
        ("mcts:c=-1", "c=-1"),
        ("mcts:infer=2", "infer=2 must be at most 1"),
        ("hint:infer=2", "infer=2 must be at most 1"),
        ("mcts:infer=x", "infer=x must be a whole number"),
        ("mcts:method=flat", "method=flat"),
        ("hint:method=tree", "method=tree"),
        ("mcts:opponents=greedy", "opponents=greedy"),
        ("hint:opponents=x", "opponents=x"),
        ("hint:engine=v1:opponents=policy", "opponents=policy has no effect with engine v1"),
        ("hint:method=halving:opponents=policy", "no effect with method=halving"),
        ("mcts:method=halving:opponents=policy", "no effect with method=halving"),
        # Refused before any game (exit 2), not at the bot's first choice.
        ("hint:engine=v3:method=halving:prior_bias=1", "prior_bias=1 has no effect with method=halving"),
        ("hint:engine=v3:method=halving:c=0.1", "c=0.1 has no effect with method=halving"),
        # Options the named engine never reads: refused, not silently unused.
        ("hint:engine=v1:c=0.4", "c=0.4 has no effect with engine v1"),
        ("hint:engine=v2:method=halving", "method=halving has no effect with engine v2"),
        ("hint-v2:c=1", "c=1 has no effect with engine v2"),
        ("hint:engine=v3:node_budget=5", "node_budget=5 has no effect with engine v3"),
        ("hint:engine=v3:max_depth=2", "max_depth=2 has no effect with engine v3"),
        ("hint:engine=v1:leaf=fitted", "leaf=fitted has no effect with engine v1"),
        ("hint:engine=v2:playouts=3", "playouts=3 has no effect with leaf=fitted"),
        ("hint:engine=v2:stock=chance:spread=2", "spread=2 has no effect with stock=chance"),
        ("hint-v2:engine=v3", "hint-v2 is the v2 engine's bot"),
        # The text typed is named, not what it became (1e400 read as inf); other scripts' digits
        # are not numbers.
        ("hint:samples=1e400", "option samples=1e400 must be a finite number"),
        ("hint:engine=v3:c=1e400", "option c=1e400 must be a finite number"),
        ("hint:engine=v3:c=\u0663", "c=\u0663 must be a finite number"),
        ("hint:samples=1_000", "samples=1_000 must be a whole number"),
        ("hint:samples= 5", "samples= 5 must be a whole number"),
    ],
)
def test_a_bad_bot_option_is_a_usage_error_before_any_game(bot: str, named: str) -> None:
    # Refused before any game, not a traceback once the bot moves, nor accepted.
    for command in ("simulate", "play"):
        code, _, err = run(command, "--games" if command == "simulate" else "--seed", "1",
                             "--bots", f"{bot},greedy" if command == "simulate" else bot,
                             input="quit\n")  # fmt: skip
        assert code == 2 and one_error_line(err) and named in err and "Traceback" not in err


def test_v3_marks_the_moves_it_never_tried() -> None:
    state = read_position(EXAMPLES / "example4-rearrangement.json")
    advice = advise(state, engine="v3", samples=3, seed=0)
    untried = [e for e in advice.estimates if e.samples == 0]
    assert untried and advice.estimates[0].samples > 0
    for e in untried:
        assert (e.win, e.draw, e.loss, e.expected, e.ci95) == (0.0, 0.0, 0.0, 0.0, (0.0, 1.0))
        assert e.reasons[0].startswith("not evaluated")
        assert not any("worse in expected result" in r for r in e.reasons)
    # The best move is compared with a move that was tried, never with an untried one.
    tried = [e for e in advice.estimates if e.samples > 0]
    if len(tried) > 1:
        assert tried[1].move.text(state.rules.labels) in advice.estimates[0].reasons[1]


def test_open_hint_is_exact_only_when_every_line_reached_the_end(tmp_path: Path) -> None:
    # --open on a new deal is not "exact" with unproven 1.0.
    code, out, _ = run("deal", "--seed", "5", "--after", "3")
    assert code == 0
    position = tmp_path / "deal.json"
    position.write_text(out)
    code, out, _ = run("hint", str(position), "--open", "--json", "--budget", "200")
    data = json.loads(out)
    assert code == 0 and data["unproven"] > 0 and data["exact"] is False
    code, out, _ = run("hint", str(position), "--open", "--budget", "200")
    assert "exact" not in out.split("Best move")[0].split("vs best")[-1]
    solved = tmp_path / "pay-matters.json"
    solved.write_text(json.dumps(PAY_MATTERS))
    code, out, _ = run("hint", str(solved), "--open", "--json")
    assert code == 0 and json.loads(out)["exact"] is True


def test_budget_is_refused_where_v3_searches() -> None:
    megajogos = str(EXAMPLES / "example3-megajogos-nine-card-run.json")
    code, _, err = run("hint", megajogos, "--budget", "500")
    assert code == 2 and one_error_line(err) and "--samples" in err
    code, _, _ = run("hint", megajogos, "--budget", "500", "--engine", "v2", "--samples", "2")
    assert code == 0
    record = str(EXAMPLES.parent.parent / "tests" / "golden" / "megajogos-4.jsonl")
    code, out, err = run("review", record, "--budget", "500")
    assert code == 2 and one_error_line(err) and "--samples" in err and out == ""
    request = {"id": 1, "cmd": "hint", "position": json.loads(Path(megajogos).read_text()),
               "budget": 500}  # fmt: skip
    code, out, _ = run("engine", input=json.dumps(request) + "\n")
    answer = json.loads(out)
    assert code == 0 and answer["ok"] is False and answer["field"] == "budget"


def test_halving_finds_the_winning_pay_card() -> None:
    # The same position, with sequential halving at the root: the take paying 7S wins on every
    # deal (R13, R15), the takes paying JH lose on every deal (player 1 takes JH and goes out).
    state = load_position(PAY_MATTERS)
    found = search(state, 400, seed=3, method="halving")
    assert found.moves[0].move == parse_move(WINNING)
    assert found.moves[0].value == 1.0
    jh = parse_move("take [2S 3S 4S 5S 6S] [QS QH QD QC] pay JH").pay
    paying_jh = [s for s in found.moves if isinstance(s.move, Take) and s.move.pay == jh]
    assert len(paying_jh) == 2 and all(s.value == 0.0 for s in paying_jh)
    assert found.iterations == 400 and sum(s.visits for s in found.moves) == 400


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_halving_spends_the_budget_on_the_survivors(variant: str) -> None:
    for seed in (4, 7, 11):
        state = _mid_game(variant, seed)
        if state.is_terminal():
            continue
        v = view(state, state.to_act)
        found = search(v, 300, seed=seed, method="halving")
        stats = found.moves
        assert sorted(map(str, (s.move for s in stats))) == sorted(map(str, v.legal_moves()))
        assert found.iterations == sum(s.visits for s in stats) <= 300
        assert [s.visits for s in stats] == sorted((s.visits for s in stats), reverse=True)
        assert all(s.visits > 0 for s in stats)  # every move is played in the first round
        top = [s for s in stats if s.visits == stats[0].visits]
        assert stats[0].value == max(s.value for s in top)  # the last round's better mean
        if len(stats) > 2:
            assert stats[0].visits > stats[-1].visits  # the worse half was dropped
        assert search(v, 300, seed=seed, method="halving").moves == stats  # reproducible


def test_halving_with_one_move_or_a_stop() -> None:
    state = _mid_game("megajogos", 9)
    v = view(state, state.to_act)
    one = v.legal_moves()[:1]
    found = search(v, 40, seed=1, method="halving", root_moves=one)
    assert [(s.move, s.visits) for s in found.moves] == [(one[0], 40)]
    calls = iter(range(1000))
    stopped = search(v, 10_000, seed=2, method="halving", stop=lambda: next(calls) >= 5)
    assert stopped.interrupted and 0 < stopped.iterations < 10_000
    few = search(load_position(PAY_MATTERS), 2, seed=1, method="halving")
    assert [s.visits for s in few.moves] == [1, 1, 1, 1] and few.iterations == 4  # each once
    mid = search(load_position(PAY_MATTERS), 9, seed=1, method="halving")
    assert mid.iterations <= 9 and all(s.visits >= 1 for s in mid.moves)
    with pytest.raises(ConquianError, match="method"):
        search(v, 10, method="paranoid")
    with pytest.raises(ConquianError, match="method"):
        make_bot("mcts:method=flat")


def test_ordered_worlds_place_the_stock_too() -> None:
    rng = random.Random(3)
    for variant in ("classic", "megajogos"):
        state = _mid_game(variant, 5)
        me = state.to_act
        v = view(state, me)
        world = sample_world(v, me, rng, ordered=True)
        assert world.stock is not None and len(world.stock) == v.stock_count
        assert is_consistent(world, v, me)


@pytest.mark.parametrize(
    "bot",
    [
        "hint:engine=v2:leaf=rollout:playouts=3",
        "hint:engine=v2:stock=known:spread=2",
        "hint:engine=v3:c=1.5",
        "hint:engine=v3:method=halving:playout=nomeld",
        "hint:engine=v1:node_budget=500:stock=chance",
        "hint:c=0.4:node_budget=500",  # auto: v3 reads c, v2 reads node_budget
    ],
)
def test_an_option_that_the_engine_reads_is_accepted(bot: str) -> None:
    from analyzer.bots.registry import make_bot

    assert make_bot(bot).name == "hint"


@pytest.mark.parametrize(
    ("variant", "bot", "named"),
    [
        ("classic", "hint:c=0.4", "c=0.4 has no effect with engine v2 in classic"),
        ("classic", "hint:method=halving", "method=halving has no effect with engine v2 in classic"),
        ("megajogos", "hint:node_budget=500", "node_budget=500 has no effect with engine v3 in megajogos"),
        ("megajogos", "hint:max_depth=3", "max_depth=3 has no effect with engine v3 in megajogos"),
        # Caught before the game, not at the first decision (a game under way, exit 1).
        ("megajogos", "hint:leaf=melded", "leaf=melded must be one of rollout, fitted"),
        ("classic", "hint:mode=paranoid", "mode=paranoid has no effect in classic"),
        ("classic", "peek:mode=paranoid", "mode=paranoid has no effect in classic"),
        ("classic", "hint:prior_bias=1", "prior_bias=1 has no effect with engine v2 in classic"),
        # megajogos has no move prior fitted (analyzer/data/prior.json).
        ("megajogos", "hint:prior_bias=1", "prior_bias=1 needs a move prior, and none is fitted for megajogos"),
        ("megajogos", "hint:prior_weight=0.2", "prior_weight=0.2 has no effect: the bot weighs no move prior in megajogos"),
        ("classic", "hint:engine=v3:prior_weight=0.1", "prior_weight=0.1 has no effect: the bot weighs no move prior in classic with engine v3 (docs"),
    ],
)
def test_an_option_the_variants_engine_never_reads_is_a_usage_error(variant: str, bot: str, named: str) -> None:
    # With the engine left to "auto" these are refused too, not accepted to do nothing.
    others = ",greedy" * (2 if variant == "megajogos" else 1)  # one bot per seat
    code, _, err = run("simulate", "--variant", variant, "--games", "1", "--bots", bot + others)
    assert code == 2 and one_error_line(err) and named in err
    code, _, err = run("play", "--variant", variant, "--bots", bot, "--seed", "1", input="quit\n")
    assert code == 2 and named in err


def test_an_option_the_variants_engine_reads_is_accepted_with_auto() -> None:
    code, _, err = run("simulate", "--variant", "megajogos", "--games", "1", "--bots",
                       "hint:c=0.5:samples=20,greedy,greedy")  # fmt: skip
    assert code == 0, err


def test_the_move_prior_inside_the_tree_steers_the_bots_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # hint:engine=v3:prior_bias=W hands the search the learned prior of each choice (R13: one
    # root move per choice) with the weight; without the option the search gets no prior.
    import analyzer.analysis.advisor as advisor

    seen: list[tuple[float, list[float] | None]] = []
    real = advisor.mcts_search

    def spy(view, *args, **kwargs):
        seen.append((kwargs["prior_bias"], kwargs["root_prior"]))
        return real(view, *args, **kwargs)

    monkeypatch.setattr(advisor, "mcts_search", spy)
    state = _mid_game("classic", 9, 14)
    mine = view(state, state.to_act)
    for option, bias in (("", 0.0), (":prior_bias=0.5", 0.5)):
        seen.clear()
        make_bot(f"hint:engine=v3:samples=60{option}").choose(mine, random.Random(1))
        assert [b for b, _ in seen] == [bias]
        prior = seen[0][1]
        if not bias:
            assert prior is None
        else:
            assert prior is not None and len(prior) > 1 and sum(prior) == pytest.approx(1.0)


def test_review_by_v3_says_iterations() -> None:
    # In megajogos --samples counts v3's IS-MCTS iterations, and the review says so (not "up
    # to 30 sampled deals"); JSON settings name the engine.
    record = str(EXAMPLES.parent.parent / "tests" / "golden" / "megajogos-4.jsonl")
    code, out, err = run("review", record, "--samples", "20", "--time-limit", "30")
    assert code == 0, err
    assert "20 IS-MCTS iterations" in " ".join(out.split()) and "sampled deals (" not in out
    code, out, err = run("review", record, "--samples", "20", "--time-limit", "30", "--json")
    assert code == 0 and json.loads(out)["settings"]["engine"] == "v3"


def test_a_move_with_a_better_mean_below_the_first_is_not_called_worse() -> None:
    # v3 ranks by visits, and a lower move with the better mean is not called "-0.08 worse in
    # expected result than the best".
    from analyzer.bots.deals import deal_position
    from analyzer.core.dealing import view

    state, _ = deal_position("megajogos", seed=1)
    advice = advise(view(state, state.to_act), samples=50, seed=1)
    first = advice.estimates[0]
    better = [e for e in advice.estimates[1:] if e.samples and e.expected > first.expected]
    assert better  # this deal has one (give 6b)
    for e in advice.estimates[1:]:
        if not e.samples:
            continue
        text = " ".join(e.reasons)
        if e.expected > first.expected:
            assert "better in expected result than the first" in text and "worse" not in text
        else:
            assert "worse in expected result than the best" in text


def test_a_v3_hint_says_when_it_raises_samples_to_its_fewest_searches() -> None:
    # v3 compares moves over at least MCTS_SEARCHES independent searches of one iteration or
    # more, so --samples 3 runs 4 iterations: said on stderr, not silently.
    from analyzer.analysis.engines import MCTS_SEARCHES

    code, out, err = run("hint", "--engine", "v3", "--samples", "3", "--json")
    assert code == 0, err
    assert json.loads(out)["samples"] == MCTS_SEARCHES > 3
    assert f"--samples 3 raised to {MCTS_SEARCHES}" in err and one_error_line(err)
    code, out, err = run("hint", "--engine", "v3", "--samples", "40", "--json")
    assert code == 0 and "raised" not in err
