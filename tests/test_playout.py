"""Playouts with the eager policy (R15, R13, R16, R14) and the rollout leaf evaluation."""

from __future__ import annotations

import random

import pytest

from analyzer.core.cards import format_card
from analyzer.core.moves import Pass, Take
from analyzer.search.playout import RolloutLeaf, eager_move, playout, playout_outcome
from analyzer.core.dealing import deal
from analyzer.formats.position import load_position

# Every test here runs on both cores: the Python engine (the reference) and the native core.
pytestmark = pytest.mark.usefixtures("both_cores")


def test_the_eager_playout_policy_takes_the_most_cards() -> None:
    state = load_position(
        {
            "variant": "classic",
            "dealer": 1,
            "to_act": 0,
            "players": [
                {
                    "hand": ["5H", "6H", "JS", "JD", "2C", "AD", "QC", "KC", "3D", "4S"],
                    "layout": [],
                },
                {"hand": 10, "layout": []},
            ],
            "stock": 19,
            "dead": [],
            "centre": {"card": "7H", "kind": "turned", "source": 0, "declined": []},
        }
    )
    move = eager_move(state, state.legal_moves(), random.Random(1))
    assert isinstance(move, Take) and move.layout == Take.parse("take [5H 6H 7H] pay 2C").layout
    # The pay is a card with no link to the cards kept (no same rank, no same suit within two).
    assert move.pay is not None and format_card(move.pay) in {"2C", "4S"}
    assert eager_move(state, [Pass()], random.Random(1)) == Pass()


@pytest.mark.parametrize("policy", ["eager", "random"])
def test_playouts_end_with_r20_results(policy: str) -> None:
    rng = random.Random(2)
    state = deal("megajogos", 3)
    for _ in range(5):
        returns = playout(state.evolve(stock=None), policy, rng)
        assert len(returns) == 3
        assert returns == (0.0, 0.0, 0.0) or sorted(returns) == [-1.0, -1.0, 1.0]
        vec = playout_outcome(state.evolve(stock=None), policy, rng)
        assert sorted(vec) == [0.0, 0.0, 0.0, 1.0]


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_the_rollout_leaf_is_a_reproducible_mean_of_playouts(variant: str) -> None:
    state = deal(variant, 5)
    while state.is_chance_node():
        state = state.apply(state.chance_outcomes()[0][0])
    first = RolloutLeaf(playouts=4, seed=9)(state)
    assert len(first) == state.rules.players + 1
    assert sum(first) == pytest.approx(1.0)
    assert all(4 * x == pytest.approx(round(4 * x)) for x in first)
    assert RolloutLeaf(playouts=4, seed=9)(state) == first
    # With the stock order known and one playout, the policy alone decides: one outcome.
    assert sorted(RolloutLeaf(playouts=1, seed=3)(state)).count(1.0) == 1


def test_bad_playout_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="playouts must be at least 1"):
        RolloutLeaf(playouts=0)
    with pytest.raises(ValueError, match="policy must be one of eager, random"):
        playout(deal("classic", 1), "clever", random.Random(0))


def _reference_play(state, rng: random.Random):
    """The eager playout as the module docstring defines it: the policy over every legal move,
    each turned card drawn from the listed chance outcomes (R10)."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            move = outcomes[rng.randrange(len(outcomes))][0]
        else:
            move = eager_move(state, state.legal_moves(), rng)
        state = state.apply(move)
    return state


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_the_fast_eager_playout_plays_exactly_the_reference_policy(variant: str) -> None:
    # The playout generates only the moves the policy can pick (takes before melds before
    # forces); the deals it plays must be move for move those of the policy over every legal
    # move, with the stock order known and drawn.
    from analyzer.search.playout import _play

    for seed in range(12):
        start = deal(variant, seed)
        for state in (start, start.evolve(stock=None)):
            fast = _play(state, "eager", random.Random(seed))
            slow = _reference_play(state, random.Random(seed))
            assert fast == slow
            assert fast.winner == slow.winner and fast.layouts == slow.layouts


def test_random_turn_draws_as_the_chance_outcomes_do() -> None:
    from analyzer.search.playout import random_turn

    state = deal("megajogos", 2)
    while not state.is_chance_node():
        state = state.apply(state.legal_moves()[0])
    for hidden in (state, state.evolve(stock=None)):
        a, b = random.Random(5), random.Random(5)
        for _ in range(20):
            outcomes = hidden.chance_outcomes()
            assert random_turn(hidden, a) == outcomes[b.randrange(len(outcomes))][0]


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_eager_playouts_pass_dead_offers_without_changing_anything(variant: str) -> None:
    """The eager playout passes the offers nobody can use in one step
    (:meth:`GameState.run_forced`); the deal ends as when every move is applied one by
    one by the policy, and the random generator is left in the same state (R10-R18)."""
    from analyzer.search.playout import _eager_offer, _play, random_turn
    from analyzer.core.state import Phase

    def stepwise(state, rng):  # type: ignore[no-untyped-def]
        while not state.is_terminal():
            if state.is_chance_node():
                move = random_turn(state, rng)
            elif state.phase is Phase.OFFER:
                move = _eager_offer(state, rng)
            else:
                move = eager_move(state, state.legal_moves(), rng)
            state = state.apply(move)
        return state

    picker = random.Random(8)
    for k in range(30):
        state = deal(variant, k)
        for _ in range(picker.randrange(25)):
            if state.is_terminal():
                break
            state = state.apply(picker.choice(state.legal_moves()))
        for start in (state, state.evolve(stock=None)):
            for seed in range(3):
                fast, slow = random.Random(seed), random.Random(seed)
                end = _play(start, "eager", fast)
                assert end == stepwise(start, slow) and fast.getstate() == slow.getstate()


def test_a_nomeld_seat_never_lays_a_hand_meld_and_the_others_play_eager() -> None:
    # playout=nomeld (PLAYOUTS): the searching seat's playout moves are eager's without the
    # melds from the hand alone (R16); every other seat is eager, move for move.
    from analyzer.core.moves import Meld
    from analyzer.search.playout import _play

    def reference(state, rng, quiet):  # type: ignore[no-untyped-def]
        melds = {p: 0 for p in range(state.rules.players)}
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                move = outcomes[rng.randrange(len(outcomes))][0]
            else:
                moves = state.legal_moves()
                if state.to_act == quiet:
                    moves = [m for m in moves if not isinstance(m, Meld)]
                move = eager_move(state, moves, rng)
                melds[state.to_act] += isinstance(move, Meld)
            state = state.apply(move)
        return state, melds

    laid = changed = 0
    for seed in range(16):
        start = deal("megajogos", seed)
        quiet = seed % 3
        for state in (start, start.evolve(stock=None)):
            fast = _play(state, "eager", random.Random(seed), quiet)
            slow, melds = reference(state, random.Random(seed), quiet)
            assert fast == slow and melds[quiet] == 0
            eager, melds = reference(state, random.Random(seed), -1)
            laid += melds[quiet]
            changed += eager != fast
    assert laid and changed  # eager lays hand melds in that seat, and the option changes deals


def test_the_nomeld_playout_is_an_option_of_the_search_and_the_bots() -> None:
    from analyzer.bots.registry import make_bot
    from analyzer.core.errors import ConquianError
    from analyzer.bots.searchbots import MctsBot
    from analyzer.search.mcts import search
    from analyzer.core.rules import get_rules

    state = deal("megajogos", 4)
    while state.phase.name != "OFFER":
        state = state.apply(state.legal_moves()[0])
    a = search(state, 60, seed=2)
    assert a.moves == search(state, 60, seed=2, playout="eager").moves  # the same search
    b = search(state, 60, seed=2, playout="nomeld")
    assert b.iterations == 60
    with pytest.raises(ConquianError, match="playout must be one of eager, nomeld"):
        search(state, 10, playout="never")
    assert MctsBot(playout="nomeld").playout == "nomeld"
    bot = make_bot("hint:playout=nomeld")
    assert bot.setup(get_rules("megajogos"))[0].playout == "nomeld"  # type: ignore[attr-defined]
    with pytest.raises(ConquianError, match="playout=nomeld has no effect"):
        bot.check_variant(get_rules("classic"))  # type: ignore[attr-defined]
    with pytest.raises(ConquianError, match="playout"):
        make_bot("hint:playout=never")
