"""The best reply to greedy opponents (analyzer/response.py): the proven ceiling of the
"against greedy" figures.

Checked against a plain reference (every choice of the seat tried, no table, no
ordering, no runs of forced moves, no cut-off on a win) on late positions of both
presets, by playing the ``oracle-greedy`` bot in real deals against greedy bots
(its deal must end as its first search promised, R20), and for its budget and errors.
"""

from __future__ import annotations

import random

import conftest
import pytest

from analyzer.bots.registry import GreedyBot, make_bot
from analyzer.core.errors import ConquianError, PositionError
from analyzer.core.dealing import deal, view
from analyzer.bots.reply import DRAW, LOSS, WIN, BestReply, BestReplyBot
from analyzer.bots.simulate import game_seed, play_game
from analyzer.core.state import GameState

NAMES = {WIN: "win", DRAW: "draw", LOSS: "loss"}


def reference(state: GameState, seat: int, greedy: GreedyBot) -> int:
    """The seat's best result by plain enumeration: each legal move of the seat, greedy's
    move for every other seat (on his view), the known stock's next card at a turn."""
    if state.is_terminal():
        return DRAW if state.winner is None else WIN if state.winner == seat else LOSS
    if state.is_chance_node():
        return reference(state.apply(state.chance_outcomes()[0][0]), seat, greedy)
    if state.to_act != seat:
        move = greedy.choose(view(state, state.to_act), random.Random(0))
        return reference(state.apply(move), seat, greedy)
    return max(reference(state.apply(m), seat, greedy) for m in state.legal_moves())


def late_position(variant: str, seed: int, stock_left: int) -> GameState | None:
    """A seeded deal played by greedy bots with a random move one time in four until the stock is
    down to ``stock_left``, at an offer with a choice; every card known."""
    greedy = GreedyBot()

    def pick(state: GameState, moves: list, rng: random.Random):  # type: ignore[no-untyped-def]
        if rng.random() < 0.25:
            return rng.choice(moves)
        return greedy.choose(view(state, state.to_act), rng)

    return conftest.late_position(variant, seed, stock_left, pick)


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_best_reply_equals_plain_enumeration(variant: str) -> None:
    checked = {WIN: 0, DRAW: 0, LOSS: 0}
    greedy = GreedyBot()
    for seed in range(60):
        state = late_position(variant, seed, stock_left=3)
        if state is None:
            continue
        for seat in range(state.rules.players):
            expected = reference(state, seat, greedy)
            answer = BestReply(seat).solve(state)
            assert answer.proven
            assert answer.result == NAMES[expected], (variant, seed, seat)
            checked[expected] += 1
            if state.to_act == seat:
                # The move given reaches the promised result.
                assert answer.move in state.legal_moves()
                after = reference(state.apply(answer.move), seat, greedy)
                assert after == expected
            else:
                assert answer.move is None
    # Every kind of result was met, so a search that always answered one of them would fail.
    assert min(checked.values()) >= 3, checked


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_bot_ends_each_deal_as_its_first_search_promised(variant: str) -> None:
    seats = ["oracle-greedy"] + ["greedy"] * (2 if variant == "megajogos" else 1)
    results = set()
    for i in range(12):
        k = i % len(seats)
        order = tuple(seats[-k:] + seats[:-k]) if k else tuple(seats)
        game = play_game(variant, order, game_seed(0, i), i)
        seat = order.index("oracle-greedy")
        note = game.notes[seat]
        assert note is not None and note["unproven"] == 0 and note["searches"] >= 1
        assert all(n is None for s, n in enumerate(game.notes) if s != seat)
        winner = game.final.winner
        result = "draw" if winner is None else "win" if winner == seat else "loss"
        results.add(result)
        # Replay with a bot of our own to read its first answer.
        bot = BestReplyBot()
        state = game.start
        first = None
        for player, move in game.moves:
            if player == seat and first is None and len(state.legal_moves()) > 1:
                chosen = bot.choose(state, random.Random(0))
                first = bot.results[0] if bot.results else result
                assert chosen == move
            state = state.apply(move)
        assert first in (None, result)
    assert "win" in results


def test_bot_reused_for_a_new_deal_starts_new_tables() -> None:
    bot = BestReplyBot()
    greedy = GreedyBot()
    for index in (3, 4, 3):
        state = deal("classic", game_seed(5, index))
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply(state.chance_outcomes()[0][0])
            elif state.to_act == 0:
                state = state.apply(bot.choose(state, random.Random(0)))
            else:
                state = state.apply(greedy.choose(view(state, state.to_act), random.Random(0)))
        fresh = play_game("classic", ("oracle-greedy", "greedy"), game_seed(5, index), index)
        assert state.winner == fresh.final.winner


def test_small_budget_is_a_lower_bound_and_says_so() -> None:
    greedy = GreedyBot()
    seen_unproven = 0
    for seed in range(30):
        state = late_position("megajogos", seed, stock_left=6)
        if state is None:
            continue
        exact = reference(state, state.to_act, greedy) if state.stock_count <= 3 else None
        full = BestReply(state.to_act).solve(state)
        small = BestReply(state.to_act, max_nodes=3).solve(state)
        order = {"loss": 0, "draw": 1, "win": 2}
        assert order[small.result] <= order[full.result]
        assert small.move in state.legal_moves()
        if not small.proven:
            seen_unproven += 1
        else:
            assert small.result == full.result
        if exact is not None:
            assert full.result == NAMES[exact]
    assert seen_unproven >= 3


def test_bad_input_is_refused() -> None:
    state = deal("classic", 1)
    with pytest.raises(ConquianError, match="max_nodes"):
        BestReply(0, max_nodes=0)
    for name in (
        "oracle-greedy:max_nodes=0",
        "oracle-greedy:max_nodes=abc",
        "oracle-greedy:max_nodes=1.0",
        "oracle:max_nodes=abc",
        "oracle:max_nodes=0",
    ):
        with pytest.raises(ConquianError, match="max_nodes"):
            make_bot(name)
    with pytest.raises(ConquianError, match="mode=zzz must be one of"):
        make_bot("oracle:mode=zzz")
    with pytest.raises(PositionError, match="no player 2"):
        BestReply(2).solve(state)
    with pytest.raises(PositionError, match="every hand and the stock order"):
        BestReply(0).solve(view(state, 0))


def test_strength_bench_reports_the_ceiling_and_its_proofs(tmp_path) -> None:
    import json
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "bench" / "strength.py"
    out = tmp_path / "best.json"
    run = subprocess.run(
        [sys.executable, str(script), "--only", "classic-best-greedy", "megajogos-best-greedy",
         "--ceiling", "3", "--jobs", "1", "--json", str(out)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "searches hit the budget" in run.stdout
    data = json.loads(out.read_text())
    assert [m["match"] for m in data] == ["classic-best-greedy", "megajogos-best-greedy"]
    for match in data:
        entry = match["bots"]["oracle-greedy"]
        assert entry["unproven"] == 0 and entry["searches"] >= 3
        assert "searches" not in match["bots"]["greedy"]
        assert len(match["winners"]) == 3


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_stock_blind_reply_plays_a_best_move_when_the_order_cannot_matter(variant: str) -> None:
    # One stock card: every shuffle is the same order, so blind-greedy's mean over sampled
    # orders is the best reply's value and its move must reach the best result (checked by
    # plain enumeration, not by BestReply).
    from analyzer.bots.reply import StockBlindReplyBot

    greedy = GreedyBot()
    checked = 0
    for seed in range(80):
        state = late_position(variant, seed, stock_left=1)
        if state is None or len(state.legal_moves()) < 2:
            continue
        seat = state.to_act
        best = reference(state, seat, greedy)
        move = StockBlindReplyBot(samples=2).choose(state, random.Random(seed))
        assert move in state.legal_moves()
        assert reference(state.apply(move), seat, greedy) == best, (variant, seed)
        checked += 1
    assert checked >= 10


def test_stock_blind_reply_compares_moves_on_the_same_orders() -> None:
    # With two stock cards and both orders sampled equally often the mean is exact: the move
    # played has the best mean result over the two orders (plain enumeration).
    from analyzer.bots.reply import StockBlindReplyBot

    greedy = GreedyBot()
    checked = differs = 0
    for seed in range(80):
        state = late_position("classic", seed, stock_left=2)
        if state is None or len(state.legal_moves()) < 2:
            continue
        seat, stock = state.to_act, tuple(state.stock or ())
        orders = [stock, stock[::-1]]

        def mean(move, state=state, seat=seat, orders=orders):  # type: ignore[no-untyped-def]
            return sum(reference(state.evolve(stock=o).apply(move), seat, greedy) for o in orders)

        values = {m: mean(m) for m in state.legal_moves()}
        bot = StockBlindReplyBot(samples=2)
        # A generator that shuffles the stock once each way: the two orders, once each.
        flips = iter([orders[0], orders[1]])
        bot._deal = lambda s, rng: s.evolve(stock=next(flips))  # type: ignore[method-assign]
        move = bot.choose(state, random.Random(0))
        assert values[move] == max(values.values()), seed
        checked += 1
        differs += len(set(values.values())) > 1
    assert checked >= 10 and differs >= 3


def test_sampled_reply_uses_only_the_view_and_is_reproducible() -> None:
    state = late_position("classic", 3, stock_left=6)
    assert state is not None
    mine = view(state, state.to_act)
    assert any(h is None for h in mine.hands) and mine.stock is None
    a = make_bot("reply-greedy:samples=3").choose(mine, random.Random(5))
    b = make_bot("reply-greedy:samples=3").choose(mine, random.Random(5))
    assert a == b and a in mine.legal_moves()
    for bad in ("reply-greedy:samples=0", "blind-greedy:max_nodes=abc", "blind-greedy:samples=1.5"):
        with pytest.raises(ConquianError):
            make_bot(bad)
