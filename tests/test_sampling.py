"""Sampling hidden cards from a player's view: consistency (property test) and uniformity (chi-square)."""

from __future__ import annotations

import pytest

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.core.cards import FULL_DECK, format_mask
from analyzer.core.dealing import deal, view
from analyzer.formats.position import load_position
from analyzer.core.rules import CLASSIC, MEGAJOGOS
from analyzer.search.sampling import is_consistent, sample_deal, sample_deals, unseen_cards
from analyzer.core.state import GameState

# Every test here runs on both cores: the Python engine (the reference) and the native core.
pytestmark = pytest.mark.usefixtures("both_cores")


def random_position(variant: str, seed: int, steps: int) -> GameState:
    rng = random.Random(seed)
    state = deal(variant, seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state = state.apply(rng.choice(state.legal_moves()))
    return state


@settings(max_examples=80, deadline=None)
@given(
    variant=st.sampled_from(["classic", "megajogos"]),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 60),
    who=st.integers(0, 2),
)
def test_every_sample_is_consistent_with_the_view(variant: str, seed: int, steps: int, who: int) -> None:
    state = random_position(variant, seed, steps)
    player = who % state.rules.players
    mine = view(state, player)
    for sample in sample_deals(mine, player, 5, seed):
        assert is_consistent(sample, mine, player)
        # Cards seen face up never appear in a sampled hand or the stock.
        seen = mine.table_mask()
        for p, hand in enumerate(sample.hands):
            assert hand is not None
            if p != player:
                assert not hand & seen
        # The true deal is one of the consistent ones too.
    assert is_consistent(state, mine, player)


def test_exchange_pass_stays_with_the_receiver() -> None:
    state = deal(MEGAJOGOS, 8, dealer=0)
    while state.phase.value == "exchange":
        state = state.apply(state.legal_moves()[-1])
    mine = view(state, 0)
    given = mine.gave[0]
    assert given is not None
    for sample in sample_deals(mine, 0, 50, 1):
        assert sample.hands[1] is not None and sample.hands[1] >> given & 1


def test_samples_are_reproducible() -> None:
    mine = view(deal(CLASSIC, 4), 0)
    first = [s.hands for s in sample_deals(mine, 0, 5, 9)]
    again = [s.hands for s in sample_deals(mine, 0, 5, 9)]
    assert first == again and len({h for h in first}) > 1


def test_uniform_over_consistent_deals_chi_square() -> None:
    """4 unseen cards, a hidden hand of 2 and a stock of 2: 6 x 2 = 12 consistent deals."""
    p0 = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "JS", "QS", "KS"]
    p1_layout = [["AH", "2H", "3H", "4H", "5H", "6H", "7H", "JH"]]
    data = {
        "variant": "classic",
        "dealer": 1,
        "to_act": 0,
        "players": [{"hand": p0, "layout": []}, {"hand": 2, "layout": p1_layout}],
        "stock": 2,
        "centre": None,
    }
    known = set(p0) | {c for meld in p1_layout for c in meld}
    from analyzer.core.cards import parse_cards

    mask = 0
    for c in parse_cards(" ".join(known)):
        mask |= 1 << c
    rest = format_mask(FULL_DECK & ~mask).split()
    hidden = ["QH", "KH", "AD", "2D"]
    data["dead"] = [c for c in rest if c not in hidden]
    mine = load_position(data)
    assert unseen_cards(mine, 0).bit_count() == 4
    rng = random.Random(2026)
    trials = 12_000
    counts = Counter((s.hands[1], s.stock) for s in (sample_deal(mine, 0, rng) for _ in range(trials)))
    assert len(counts) == 12
    expected = trials / 12
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    # 11 degrees of freedom: the 0.999 quantile is 31.26.
    assert chi2 < 31.26, chi2


def declines_view():
    """A seeded mid-game classic view of player 1 in which some uniform deals give player 0 two
    cards that meld with a card he let die, and some do not; with its declined pairs."""
    from analyzer.bots.registry import GreedyBot
    from analyzer.core.dealing import deal, view
    from analyzer.search.sampling import _broken, declined_pairs

    rng = random.Random(4)
    state = deal("classic", rng)
    bot = GreedyBot()
    while not state.is_terminal():
        if state.is_chance_node():
            state = state.apply(state.chance_outcomes()[0][0])
            continue
        mine = view(state, 1)
        pairs = declined_pairs(mine, 1)
        if state.to_act == 1 and pairs[0]:
            uniform = [_broken(list(sample_deal(mine, 1, rng).hands), pairs) for _ in range(100)]
            if 0 < sum(1 for u in uniform if u) < 80:
                return mine, pairs
        state = state.apply(bot.choose(view(state, state.to_act), rng))
    raise AssertionError("no such view in the seeded deal")


def test_inference_from_declines_keeps_only_deals_consistent_with_them() -> None:
    # Some uniform deals give player 0 two cards that meld with a card he let die: with
    # infer=True no sampled deal does (he would have taken it, R12, R17).
    from analyzer.search.sampling import _broken

    mine, pairs = declines_view()
    rng = random.Random(4)
    for _ in range(50):
        sample = sample_deal(mine, 1, rng, infer=True)
        assert is_consistent(sample, mine, 1)
        assert _broken(list(sample.hands), pairs) == 0


def test_a_players_own_paid_card_is_not_read_as_declined_by_him() -> None:
    # Player 1 paid 2D (it died); player 0 paid JD (it died too). A paid card is offered to the
    # players after its payer (R11): player 1 declined JD and the centre card, never his own 2D.
    from analyzer.formats.notation import parse_notation
    from analyzer.search.sampling import declined_cards, declined_pairs

    line = "classic french 1 0 3S,4S,5S,JC[5H,6H,7H][KS,KH,KD]/7[QS,QH,QC] 4H:turned:1:1 2D,JD 17 paid:QH,JD/2D"
    state = parse_notation(line)
    names = lambda cards: sorted(format_mask(1 << c) for c in cards)  # noqa: E731
    assert names(declined_cards(state, 1)) == ["4H", "JD"]
    pairs = declined_pairs(state, 0)[1]
    two_d = next(c for c in state.dead if format_mask(1 << c) == "2D")
    assert not any(any((m | 1 << two_d) == meld for meld in _melds3()) for m in pairs)
    # The sampler with the reading (both cores) may give him a pair that melds with 2D.
    rng = random.Random(3)
    seen_pair = False
    for _ in range(400):
        deal_ = sample_deal(state, 0, rng, infer=True)
        hand = deal_.hands[1] or 0
        if any(meld >> two_d & 1 and (meld & ~(1 << two_d)) & hand == meld & ~(1 << two_d) for meld in _melds3()):
            seen_pair = True
            break
    assert seen_pair
    # Without the history every dead card counts, as before.
    bare = state.evolve(paid=())
    assert names(declined_cards(bare, 1)) == ["2D", "4H", "JD"]


def _melds3() -> list[int]:
    from analyzer.core.melds import catalog

    return [m for m in catalog(CLASSIC) if m.bit_count() == 3]
