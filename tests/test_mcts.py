"""The core IS-MCTS search and the ``mcts`` bot (analyzer.mcts)."""

from __future__ import annotations

import random

import pytest

from analyzer.bots import make_bot
from analyzer.cards import iter_mask
from analyzer.errors import ConquianError
from analyzer.mcts import MctsBot, search
from analyzer.moves import Take, parse_move
from analyzer.position import deal, load_position, view
from analyzer.sampling import is_consistent, sample_world
from analyzer.search import solve
from analyzer.simulate import simulate
from tests.test_hint_engine import PAY_MATTERS

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
    # Issue 8, fault 1: only paying 7S wins (R13, R15); every card known, one stock card.
    state = load_position(PAY_MATTERS)
    assert solve(state).values[0] == 1.0
    stats = search(state, 400, seed=3, leaf=leaf)
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
    stats = search(view(state, me), 120, seed=1)
    assert sorted(map(str, (s.move for s in stats))) == sorted(map(str, state.legal_moves()))
    assert sum(s.visits for s in stats) == 120
    assert [s.visits for s in stats] == sorted((s.visits for s in stats), reverse=True)
    assert all(0.0 <= s.value <= 1.0 for s in stats)


def test_a_seeded_search_is_reproducible_and_the_seed_matters() -> None:
    state = view(_mid_game("megajogos", 9), _mid_game("megajogos", 9).to_act)
    a = search(state, 150, seed=5)
    b = search(state, 150, seed=5)
    assert a == b
    c = search(state, 150, seed=6)
    assert [(s.move, s.visits) for s in c] != [(s.move, s.visits) for s in a] or len(a) == 1


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


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_the_mcts_bot_plays_whole_deals(variant: str) -> None:
    bots = ["mcts:iterations=20"] + ["greedy"] * (1 if variant == "classic" else 2)
    results = list(simulate(variant, bots, games=2, seed=1, rotate=True))
    assert len(results) == 2
    again = list(simulate(variant, bots, games=2, seed=1, rotate=True))
    assert again == results
