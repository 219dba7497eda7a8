"""The library-free core of the OpenSpiel and PettingZoo bridges: chance for the deal (R8, R10),
histories and private views (R6, R9), returns (R20), resampling an information state."""

from __future__ import annotations

import random

import pytest
from interop_support import card_tokens, random_matches, secret_cards

from analyzer.core.cards import iter_mask
from analyzer.core.errors import ConquianError, IllegalMoveError, PositionError
from analyzer.interop.match import CHANCE, Match, rules_with, sample_world, tensor_layout
from analyzer.core.moves import Give
from analyzer.core.dealing import deal, view
from analyzer.core.rules import ForceWhen, get_rules
from analyzer.core.state import Phase


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_the_deal_is_chance_card_by_card(variant: str) -> None:
    rules = get_rules(variant)
    n, h = rules.players, rules.hand_size
    match = Match.new(variant)
    assert match.current_player() == CHANCE and match.is_chance_node()
    assert match.chance_outcomes() == [(seat, 1 / n) for seat in range(n)]  # the dealer (R8)
    match = match.apply(1)
    order = list(range(40))
    random.Random(5).shuffle(order)
    for k, card in enumerate(order[: n * h]):
        outcomes = dict(match.chance_outcomes())
        assert len(outcomes) == 40 - k and card in outcomes
        assert outcomes[card] == pytest.approx(1 / (40 - k))
        match = match.apply(card)
    state = match.state
    assert state is not None and state.stock is None and state.stock_count == 40 - n * h
    for k, card in enumerate(order[: n * h]):  # one at a time from the player after the dealer
        assert state.hand((1 + 1 + k) % n) >> card & 1
    assert state.phase is (Phase.EXCHANGE if variant == "megajogos" else Phase.TURN)
    if variant == "classic":
        turns = dict(match.chance_outcomes())  # R10: any stock card, uniformly
        assert set(turns) == set(order[n * h :]) and set(turns.values()) == {1 / 20}


def test_a_given_dealer_skips_the_dealer_chance_node() -> None:
    match = Match.new("classic", dealer=0)
    assert len(match.chance_outcomes()) == 40
    with pytest.raises(ConquianError, match="no seat 5"):
        Match.new("classic", dealer=5)


def test_a_chance_outcome_that_cannot_happen_is_refused() -> None:
    match = Match.new("classic", dealer=0).apply(7)
    with pytest.raises(IllegalMoveError):
        match.apply(7)  # already dealt


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_returns_follow_r20(variant: str) -> None:
    seen = set()
    for match in random_matches(variant, games=30, seed=1, every=1000):
        assert match.is_terminal()
        state = match.state
        assert state is not None
        returns = match.returns()
        if state.winner is None:
            assert returns == [0.0] * state.rules.players
        else:
            assert returns[state.winner] == 1.0
            assert sorted(returns) == [-1.0] * (state.rules.players - 1) + [1.0]
        seen.add(state.winner is None)
    assert Match.new(variant).returns() == [0.0] * get_rules(variant).players
    assert seen == {True, False}  # both draws and wins happened


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_information_and_observation_show_no_hidden_card(variant: str) -> None:
    checked = 0
    for match in random_matches(variant, games=6, seed=2, every=3):
        if match.state is None:
            continue
        for player in range(match.rules.players):
            secret = secret_cards(match, player)
            for text in (match.information_string(player), match.observation_string(player)):
                leaked = card_tokens(text) & secret
                assert not leaked, (leaked, text)
            checked += 1
    assert checked > 50


def test_others_gifts_are_hidden_and_ones_own_shown() -> None:
    match = Match.new("megajogos", dealer=2)
    rng = random.Random(0)
    while match.state is None or match.state.phase is Phase.EXCHANGE:
        match = match.apply(rng.choice(match.legal_actions()))
    text = match.information_string(0)
    assert "p1 gives a card" in text and "p2 gives a card" in text
    assert "p0 give " in text and "got: " in text
    everything = match.information_string(0, private="all")
    assert "gives a card" not in everything
    assert "p1 hand:" in everything and "p1 hand:" not in text


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_resampled_histories_look_the_same_to_the_player(variant: str) -> None:
    rng = random.Random(7)
    checks = differs = 0
    for match in random_matches(variant, games=8, seed=4, every=4):
        if match.is_terminal():
            continue
        for player in range(match.rules.players):
            origin, actions = match.resample(player, rng)
            replay = origin
            for action in actions:
                replay = replay.apply(action)  # a real history: every action legal
            assert replay.information_string(player) == match.information_string(player)
            assert replay.tensor(player) == match.tensor(player)
            assert replay.current_player() == match.current_player()
            if match.state is not None and replay.state is not None:
                others = [q for q in range(match.rules.players) if q != player]
                differs += any(replay.state.hands[q] != match.state.hands[q] for q in others)
            checks += 1
    assert checks > 30 and differs > checks // 2  # the hidden cards really are drawn again


def test_resampling_in_the_exchange_keeps_the_turn_order_of_gifts() -> None:
    match = Match.new("megajogos", dealer=0)
    rng = random.Random(1)
    while match.state is None:
        match = match.apply(rng.choice(match.legal_actions()))
    match = match.apply(match.legal_actions()[0])  # seat 1 chooses; seat 2 to choose
    assert match.state is not None and match.state.phase is Phase.EXCHANGE
    origin, actions = match.resample(2, rng)
    replay = origin
    for action in actions:
        replay = replay.apply(action)
    assert replay.information_string(2) == match.information_string(2)
    assert replay.state is not None and replay.state.gifts[1] is not None


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_a_match_from_a_position_resamples_from_that_position(variant: str) -> None:
    rng = random.Random(3)
    state = deal(variant, 11)
    match = Match.from_position(state)
    assert match.state is not None and match.state.stock is None
    for _ in range(25):
        if match.is_terminal():
            break
        if not match.is_chance_node():
            for player in range(match.rules.players):
                origin, actions = match.resample(player, rng)
                assert origin.dealt == () and origin.start is not None
                replay = origin
                for action in actions:
                    replay = replay.apply(action)
                assert replay.information_string(player) == match.information_string(player)
        match = match.apply(rng.choice(match.legal_actions()))
    with pytest.raises(PositionError, match="every hand"):
        Match.from_position(view(state, 0))


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_sampled_worlds_agree_with_the_view(variant: str) -> None:
    rng = random.Random(2)
    for match in random_matches(variant, games=4, seed=6, every=5):
        if match.state is None or match.is_terminal():
            continue
        me = match.current_player()
        mine = view(match.state, me)
        world = sample_world(mine, me, rng)
        assert world.hands[me] == match.state.hands[me]
        assert all(h is not None for h in world.hands) and world.stock is None
        assert world.legal_moves() == match.state.legal_moves()  # what he may do is what he knows
        first = Match.from_position(world)
        again = Match.from_position(sample_world(mine, me, rng))
        assert first.information_string(me) == again.information_string(me)


@pytest.mark.parametrize("private", ["single", "none", "all"])
@pytest.mark.parametrize("recall", [True, False])
def test_tensor_layout_matches_the_tensor(private: str, recall: bool) -> None:
    for match in random_matches("megajogos", games=1, seed=9, every=7):
        size = sum(s for _, s, _ in tensor_layout(match.rules, private=private, recall=recall))
        values = match.tensor(1, private=private, recall=recall)
        assert len(values) == size
        assert all(0.0 <= v <= 1.0 for v in values)


def test_the_tensor_starts_with_ones_own_hand() -> None:
    match = next(m for m in random_matches("classic", 1, seed=2, every=5) if m.state)
    assert match.state is not None
    values = match.tensor(1)
    hand = {c for c in range(40) if values[c] == 1.0}
    assert hand == set(iter_mask(match.state.hand(1)))


def test_rule_options_change_the_preset_and_bad_ones_are_named() -> None:
    rules = rules_with("megajogos", force_when="after_decline", hand_melds="false", max_run=8)
    assert rules.force_when is ForceWhen.AFTER_DECLINE and not rules.hand_melds
    assert rules.max_run == 8 and rules.players == 3
    assert rules_with("classic", max_run=-1, exchange="") is get_rules("classic")
    with pytest.raises(ConquianError, match="force_fit='sideways' is not one of layoff, rearrange"):
        rules_with("classic", force_fit="sideways")
    with pytest.raises(ConquianError, match="unknown rule option"):
        rules_with("classic", jokers=2)
    with pytest.raises(ConquianError, match=r"deals 2 x 20 = 40 cards: .* stock must be left"):
        rules_with("classic", hand_size=20)
    with pytest.raises(ConquianError, match=r"classic is played by 2 players, not 3 \(R8\)"):
        rules_with("classic", players=3)
    four = rules_with("megajogos", players=4)
    assert four.players == 4 and four.player_counts == (2, 3, 4) and four.stock_size == 8
    with pytest.raises(ConquianError, match="whole number"):
        rules_with("classic", players="two")


def test_give_moves_are_recorded_privately_in_the_history() -> None:
    match = Match.new("megajogos", dealer=1)
    rng = random.Random(4)
    while match.state is None or match.state.phase is Phase.EXCHANGE:
        match = match.apply(rng.choice(match.legal_actions()))
    gives = [(q, m) for q, m in match.events if isinstance(m, Give)]
    assert [q for q, _ in gives] == [2, 0, 1]  # turn order from the player after the dealer (R9)
