"""The CP-SAT choice models, on cases whose answer is known by hand (R13, R14)."""

from __future__ import annotations

import pytest

from analyzer.core.cards import FULL_DECK, format_mask, mask_of, parse_card, parse_cards
from analyzer.solver.choice import best_pay, least_exposed_arrangement
from analyzer.core.errors import ConquianError
from analyzer.core.melds import is_meld
from analyzer.core.rules import CLASSIC, MEGAJOGOS


def M(text: str) -> int:
    return mask_of(parse_cards(text))


def test_eight_card_run_exposes_nothing_in_classic() -> None:
    # AS..JS: one run of 8 (max_run in classic) takes no more cards; split runs would expose QS.
    cards = M("AS 2S 3S 4S 5S 6S 7S JS")
    result = least_exposed_arrangement(cards, 0, FULL_DECK & ~cards, CLASSIC)
    assert result is not None and result.melds == (cards,) and result.exposed == 0
    # In megajogos (no cap) the same run is exposed to QS whatever the arrangement.
    result = least_exposed_arrangement(cards, 0, FULL_DECK & ~cards, MEGAJOGOS)
    assert result is not None and format_mask(result.exposed) == "QS"


def test_melding_more_beats_exposing_less() -> None:
    must = M("5S 6S 7S")
    result = least_exposed_arrangement(must, M("4S KH"), FULL_DECK & ~M("4S 5S 6S 7S KH"), CLASSIC)
    assert result is not None and result.melds == (M("4S 5S 6S 7S"),) and result.melded == 4
    assert format_mask(result.exposed) == "3S JS"


def test_exposure_counts_only_unseen_cards() -> None:
    cards = M("3H 3D 3C 3S 4S 5S")
    unseen = FULL_DECK & ~cards & ~M("2S")  # 2S is dead: it cannot be forced
    result = least_exposed_arrangement(cards, 0, unseen, CLASSIC)
    assert result is not None and all(is_meld(m, CLASSIC) for m in result.melds)
    assert format_mask(result.exposed) == "6S"


def test_infeasible_must_is_none() -> None:
    assert least_exposed_arrangement(M("QC KC AC"), 0, 0, CLASSIC) is None


def test_best_pay_prefers_outs_then_not_giving() -> None:
    hand = M("KS 2C 3C")
    ks, c2, c3 = parse_card("KS"), parse_card("2C"), parse_card("3C")
    # Paying KS keeps 3 outs, the clubs keep none: pay KS.
    assert best_pay(hand, {ks: 3, c2: 0, c3: 0}, {ks: 0, c2: 0, c3: 0}) == ks
    # Equal outs: pay the card no next player can use.
    assert best_pay(hand, {ks: 1, c2: 1, c3: 1}, {ks: 1, c2: 0, c3: 1}) == c2
    # A full tie goes to the lowest card index.
    assert best_pay(hand, {ks: 0, c2: 0, c3: 0}, {ks: 0, c2: 0, c3: 0}) == c2
    # One out kept (weight 8) outweighs one player who can use the paid card (weight 6).
    assert best_pay(hand, {ks: 1, c2: 0, c3: 0}, {ks: 1, c2: 0, c3: 1}) == ks
    # With nothing else to choose by, keep the cards with partners: pay the lone king.
    zero = {ks: 0, c2: 0, c3: 0}
    assert best_pay(hand, zero, zero, {ks: 0, c2: 5, c3: 5}) == ks


def test_best_pay_errors() -> None:
    with pytest.raises(ConquianError):
        best_pay(0, {}, {})
    with pytest.raises(ConquianError):
        best_pay(M("KS"), {}, {})
