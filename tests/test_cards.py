"""Card parsing and printing (RULES.md R1-R3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer.core.cards import (
    FULL_DECK,
    Card,
    CardSet,
    Labels,
    card_index,
    format_card,
    format_mask,
    iter_mask,
    mask_of,
    parse_card,
    parse_cards,
)
from analyzer.core.errors import AmbiguousCardError, CardError, ConquianError, DuplicateCardError

FRENCH_RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]
SPANISH_RANKS = ["1", "2", "3", "4", "5", "6", "7", "10", "11", "12"]


def idx(rank: int, suit: int) -> int:
    """Index from R1 written out independently of analyzer.core.cards."""
    return (rank - 1) * 4 + suit


# --- R1: the deck and the index -------------------------------------------------------


def test_index_layout_and_deck_size() -> None:
    assert card_index(1, 0) == 0
    assert card_index(10, 3) == 39
    assert FULL_DECK == (1 << 40) - 1
    assert len(CardSet(FULL_DECK)) == 40
    for i in range(40):
        c = Card(i)
        assert (c.rank, c.suit) == (i // 4 + 1, i % 4)
        assert card_index(c.rank, c.suit) == i


@pytest.mark.parametrize(("rank", "suit"), [(0, 0), (11, 0), (1, -1), (1, 4)])
def test_card_index_out_of_range(rank: int, suit: int) -> None:
    with pytest.raises(CardError):
        card_index(rank, suit)


@pytest.mark.parametrize("index", [-1, 40, 100])
def test_card_out_of_range(index: int) -> None:
    with pytest.raises(CardError):
        Card(index)


def test_cardset_rejects_bits_outside_deck() -> None:
    with pytest.raises(CardError):
        CardSet(1 << 40)
    with pytest.raises(CardError):
        CardSet(-1)


# --- R2: French labels ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [
        ("AS", 1, 0),
        ("as", 1, 0),
        ("aS", 1, 0),
        ("7H", 7, 1),
        ("7h", 7, 1),
        ("JS", 8, 0),
        ("js", 8, 0),
        ("QD", 9, 2),
        ("KC", 10, 3),
        ("kc", 10, 3),
        ("2d", 2, 2),
        (" 5C ", 5, 3),
    ],
)
def test_parse_french(token: str, rank: int, suit: int) -> None:
    assert parse_card(token) == idx(rank, suit)
    assert Card.parse(token) == Card(idx(rank, suit))


@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [("A♠", 1, 0), ("7♥", 7, 1), ("Q♦", 9, 2), ("K♣", 10, 3), ("j♣", 8, 3), ("2♠", 2, 0)],
)
def test_parse_suit_symbols(token: str, rank: int, suit: int) -> None:
    assert parse_card(token) == idx(rank, suit)


def test_every_french_token_any_case() -> None:
    for r, rt in enumerate(FRENCH_RANKS, start=1):
        for s, st_ in enumerate("SHDC"):
            for tok in (rt + st_, (rt + st_).lower(), rt.lower() + st_, rt + "♠♥♦♣"[s]):
                assert parse_card(tok) == idx(r, s), tok


@pytest.mark.parametrize("token", ["10H", "10h", "10S", "12D", "1S", "QO", "Ae"])
def test_a_rank_of_one_deck_with_a_suit_of_the_other_is_no_card(token: str) -> None:
    # R2: with French labels 10 is not a card; with Spanish labels H, S, D are no suits.
    for labels in Labels:
        with pytest.raises(CardError) as info:
            parse_card(token, labels)
        assert token in str(info.value)


@pytest.mark.parametrize(("token", "french"), [("11C", "QH"), ("1e", "AS"), ("10o", "JD")])
def test_a_spanish_only_card_is_read_in_spanish_whatever_the_default(
    token: str, french: str
) -> None:
    # R2: a token of one label set only has one reading; the default decides nothing.
    for labels in Labels:
        assert parse_card(token, labels) == parse_card(french)


@pytest.mark.parametrize(
    "token", ["", "X", "S", "8S", "9H", "0C", "AX", "ZZ", "A", "7", "KK", "AS2", "♠A", "A♤♤"]
)
def test_bad_tokens(token: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(token)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, ConquianError)
    assert repr(token) in str(info.value) or token in str(info.value)


def test_error_hierarchy() -> None:
    assert issubclass(CardError, ValueError)
    assert issubclass(DuplicateCardError, CardError)
    assert issubclass(DuplicateCardError, ValueError)


# --- R2: Spanish labels --------------------------------------------------------------


@pytest.mark.parametrize(
    ("spanish", "french"),
    [
        ("10o", "JD"),  # sota de oros
        ("12b", "KC"),  # rey de bastos
        ("1e", "AS"),  # as de espadas
        ("11c", "QH"),  # caballo de copas
        ("7o", "7D"),
        ("1b", "AC"),
        ("12e", "KS"),
        ("10O", "JD"),
        ("12B", "KC"),
    ],
)
def test_parse_spanish(spanish: str, french: str) -> None:
    assert parse_card(spanish, Labels.SPANISH) == parse_card(french, Labels.FRENCH)


def test_every_spanish_token() -> None:
    suits = {"o": 2, "c": 1, "e": 0, "b": 3}  # oros=D, copas=H, espadas=S, bastos=C (R2)
    for r, rt in enumerate(SPANISH_RANKS, start=1):
        for st_, s in suits.items():
            assert parse_card(rt + st_, Labels.SPANISH) == idx(r, s)
            assert parse_card((rt + st_).upper(), Labels.SPANISH) == idx(r, s)
            assert format_card(idx(r, s), Labels.SPANISH) == rt + st_


@pytest.mark.parametrize("token", ["13o", "0c", "8e", "9b", "10x", "10H", "AO"])
def test_bad_spanish_tokens(token: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(token, Labels.SPANISH)
    assert token in str(info.value)


def test_spanish_labels_accept_unambiguous_french_tokens() -> None:
    # The megajogos preset reads Spanish labels and also accepts French ones.
    assert parse_card("KS", Labels.SPANISH) == idx(10, 0)
    assert parse_card("JD", Labels.SPANISH) == idx(8, 2)


# --- printing --------------------------------------------------------------------------


def test_format_card() -> None:
    assert format_card(idx(1, 0)) == "AS"
    assert format_card(idx(7, 1)) == "7H"
    assert format_card(idx(8, 2)) == "JD"
    assert format_card(idx(10, 3)) == "KC"
    assert format_card(idx(8, 2), Labels.SPANISH) == "10o"
    assert format_card(idx(10, 3), Labels.SPANISH) == "12b"
    assert str(Card.parse("7h")) == "7H"
    assert Card.parse("10o", Labels.SPANISH).text(Labels.SPANISH) == "10o"
    assert repr(Card.parse("qd")) == "Card.parse('QD')"


@given(st.integers(0, 39), st.sampled_from(list(Labels)))
def test_card_round_trip(index: int, labels: Labels) -> None:
    assert parse_card(format_card(index, labels), labels) == index


# --- parse_cards and duplicates ------------------------------------------------------------


def test_parse_cards_separators_and_order() -> None:
    expected = [idx(1, 0), idx(2, 0), idx(3, 0)]
    assert parse_cards("AS 2S 3S") == expected
    assert parse_cards("as,2s,3s") == expected
    assert parse_cards("as, 2s ,  3s") == expected
    assert parse_cards(["AS", "2S", "3S"]) == expected
    assert parse_cards("3S AS") == [idx(3, 0), idx(1, 0)]
    assert parse_cards("") == []
    assert parse_cards("10o 12b", Labels.SPANISH) == [idx(8, 2), idx(10, 3)]


def test_parse_cards_bad_token_named() -> None:
    with pytest.raises(CardError) as info:
        parse_cards("AS 2S XQ 3S")
    assert "XQ" in str(info.value)


def test_parse_cards_non_string_item() -> None:
    with pytest.raises(CardError):
        parse_cards(["AS", 5])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("text", "labels", "dup"),
    [
        ("AS 2S AS", Labels.FRENCH, "AS"),
        ("7h 7H", Labels.FRENCH, "7H"),
        ("K♣ KC", Labels.FRENCH, "KC"),
        ("10o 11c 10o", Labels.SPANISH, "10o"),
        ("10o JD", Labels.SPANISH, "JD"),
    ],
)
def test_duplicate_detection(text: str, labels: Labels, dup: str) -> None:
    with pytest.raises(DuplicateCardError) as info:
        parse_cards(text, labels)
    assert dup in str(info.value)
    with pytest.raises(DuplicateCardError):
        CardSet.parse(text, labels)


def test_duplicates_allowed_when_not_distinct() -> None:
    assert parse_cards("AS AS", distinct=False) == [0, 0]


# --- CardSet ------------------------------------------------------------------------------


def test_cardset_basics() -> None:
    cs = CardSet.parse("JS 7H 6H")
    assert str(cs) == "6H 7H JS"
    assert len(cs) == 3
    assert Card.parse("7h") in cs
    assert Card.parse("7s") not in cs
    assert [c.index for c in cs] == sorted(parse_cards("JS 7H 6H"))
    assert cs.text(Labels.SPANISH) == "6c 7c 10e"
    assert CardSet.of([Card.parse("6H"), idx(7, 1), Card.parse("JS")]) == cs
    other = CardSet.parse("7H 5D")
    assert str(cs | other) == "5D 6H 7H JS"
    assert str(cs & other) == "7H"
    assert str(cs - other) == "6H JS"
    assert repr(cs) == "CardSet.parse('6H 7H JS')"
    assert hash(cs) == hash(CardSet.parse("6h,7h,js"))


def test_iter_mask_and_format_mask() -> None:
    mask = (1 << 39) | (1 << 0) | (1 << 17)
    assert list(iter_mask(mask)) == [0, 17, 39]
    assert format_mask(mask) == "AS 5H KC"
    assert mask_of([0, 17, 39]) == mask
    assert format_mask(0) == ""


@given(st.integers(0, FULL_DECK), st.sampled_from(list(Labels)))
def test_cardset_round_trip(mask: int, labels: Labels) -> None:
    cs = CardSet(mask)
    text = cs.text(labels)
    assert len(text.split()) == mask.bit_count()
    assert CardSet.parse(text, labels).mask == mask
    assert mask_of(parse_cards(text, labels)) == mask


@given(st.sets(st.integers(0, 39)))
def test_cardset_round_trip_from_sets(cards: set[int]) -> None:
    # Independent of FULL_DECK: print with our own label tables and parse back.
    french = " ".join(FRENCH_RANKS[c // 4] + "SHDC"[c % 4] for c in sorted(cards))
    spanish = " ".join(SPANISH_RANKS[c // 4] + "ecob"[c % 4] for c in sorted(cards))
    assert CardSet.parse(french).mask == mask_of(cards)
    assert CardSet.parse(spanish, Labels.SPANISH).mask == mask_of(cards)
    assert str(CardSet.of(cards)) == french
    assert CardSet.of(cards).text(Labels.SPANISH) == spanish


def test_spanish_labels_do_not_silently_misread_french_clubs() -> None:
    # Either the French reading (a club run) or an AmbiguousCardError naming the token,
    # but never a mix of the two decks within one text.
    try:
        got = parse_cards("AC 2C 3C", Labels.SPANISH)
    except AmbiguousCardError as exc:
        assert "2C" in str(exc)
    else:
        assert got == [idx(1, 3), idx(2, 3), idx(3, 3)]
