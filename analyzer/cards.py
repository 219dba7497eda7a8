"""Cards and sets of cards (R1-R3).

A card is an index ``0..39``: ``index = (rank - 1) * 4 + suit`` where the
rank is the ordinal ``1..10`` (R1) and the suit ``0..3`` is ``S H D C``
(French) = ``e c o b`` (Spanish espadas, copas, oros, bastos).  A set of
cards is a 40-bit integer mask (bit ``index`` set), wrapped by
:class:`CardSet` for users; hot code uses the bare ``int``.

Examples
--------
>>> Card.parse("7h")
Card.parse('7H')
>>> str(Card.parse("10o", labels=Labels.SPANISH))
'10o'
>>> str(CardSet.parse("JS 7H 6H"))
'6H 7H JS'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from analyzer.errors import AmbiguousCardError, CardError, DuplicateCardError

__all__ = [
    "FULL_DECK",
    "NUM_CARDS",
    "Card",
    "CardSet",
    "Labels",
    "card_index",
    "check_mixed_labels",
    "clip",
    "format_card",
    "format_mask",
    "iter_mask",
    "mask_of",
    "parse_card",
    "parse_cards",
]

NUM_CARDS = 40
FULL_DECK = (1 << NUM_CARDS) - 1


class Labels(enum.StrEnum):
    """The two label sets of R2."""

    FRENCH = "french"
    SPANISH = "spanish"


_FRENCH_RANKS = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
_SPANISH_RANKS = ("1", "2", "3", "4", "5", "6", "7", "10", "11", "12")
_FRENCH_SUITS = "SHDC"
_SPANISH_SUITS = "ecob"  # espadas=S, copas=H, oros=D, bastos=C (R2)
_SYMBOLS = {"♠": 0, "♥": 1, "♦": 2, "♣": 3, "♤": 0, "♡": 1, "♢": 2, "♧": 3}

_FRENCH_RANK_OF = {r: i + 1 for i, r in enumerate(_FRENCH_RANKS)}
_SPANISH_RANK_OF = {r: i + 1 for i, r in enumerate(_SPANISH_RANKS)}
_FRENCH_SUIT_OF = {s: i for i, s in enumerate(_FRENCH_SUITS.lower())} | _SYMBOLS
_SPANISH_SUIT_OF = {s: i for i, s in enumerate(_SPANISH_SUITS)}


def card_index(rank: int, suit: int) -> int:
    """Return the index ``(rank - 1) * 4 + suit`` of a card.

    Parameters
    ----------
    rank : int
        Ordinal ``1..10`` (R1).
    suit : int
        ``0..3`` for S H D C.

    Raises
    ------
    CardError
        If rank or suit is out of range.
    """
    if not 1 <= rank <= 10 or not 0 <= suit <= 3:
        raise CardError(f"no card with rank {rank} and suit {suit}")
    return (rank - 1) * 4 + suit


def _read(token: str, ranks: dict[str, int], suits: dict[str, int]) -> int | None:
    text = token.strip().lower()
    if len(text) < 2:
        return None
    rank = ranks.get(text[:-1])
    suit = suits.get(text[-1])
    if rank is None or suit is None:
        return None
    return (rank - 1) * 4 + suit


_FR = {k.lower(): v for k, v in _FRENCH_RANK_OF.items()}
_ES = {k.lower(): v for k, v in _SPANISH_RANK_OF.items()}


def parse_card(token: str, labels: Labels = Labels.FRENCH) -> int:
    """Parse one card token into its index (R2).

    Parameters
    ----------
    token : str
        Rank then suit, any case: ``7H``, ``js``, ``K♣``, ``10o``, ``12b``.
    labels : Labels
        ``FRENCH`` accepts only French labels (``10`` is not a card).
        ``SPANISH`` reads Spanish labels first and also accepts French
        tokens that are not Spanish cards (the ``megajogos`` preset).  A
        token valid in both, such as ``7C`` (7 of copas, or 7 of clubs), is
        read as Spanish here; :func:`parse_cards` refuses it as ambiguous
        when the same text also holds French-only cards.

    Returns
    -------
    int
        The card index ``0..39``.

    Raises
    ------
    CardError
        If the token is not a card under these labels; the message names it.
    """
    if labels == Labels.FRENCH:
        index = _read(token, _FR, _FRENCH_SUIT_OF)
    else:
        index = _read(token, _ES, _SPANISH_SUIT_OF)
        if index is None:
            index = _read(token, _FR, _FRENCH_SUIT_OF)
    if index is None:
        hint = ""
        if labels == Labels.FRENCH and _read(token, _ES, _SPANISH_SUIT_OF) is not None:
            hint = " with French labels (it is a Spanish card: use the Spanish labels)"
        if not hint:
            hint = (
                " (French: ranks A 2 3 4 5 6 7 J Q K, suits S H D C)"
                if labels == Labels.FRENCH
                else " (Spanish: ranks 1-7 10 11 12, suits o c e b)"
            )
        raise CardError(f"not a card: {clip(token)!r}{hint}")
    return index


def parse_cards(
    text: str | Iterable[str], labels: Labels = Labels.FRENCH, *, distinct: bool = True
) -> list[int]:
    """Parse several card tokens, separated by spaces or commas.

    Parameters
    ----------
    text : str or iterable of str
        ``"AS 2S 3S"``, ``"as,2s,3s"`` or ``["AS", "2S", "3S"]``.
    labels : Labels
        See :func:`parse_card`.
    distinct : bool
        If true (default) a card given twice is an error (R1).

    Returns
    -------
    list of int
        Card indices in the order given.

    Raises
    ------
    CardError
        If a token is not a card.
    DuplicateCardError
        If ``distinct`` and a card appears twice; the message names it.
    AmbiguousCardError
        With Spanish labels, if the text mixes French-only cards (``AC``) with
        tokens that read differently in the two decks (``2C``), R2.
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    for token in tokens:
        if not isinstance(token, str):
            raise CardError(f"not a card: {clip(repr(token))}")
    check_mixed_labels(tokens, labels)
    out: list[int] = []
    seen = 0
    for token in tokens:
        index = parse_card(token, labels)
        if distinct and seen >> index & 1:
            raise DuplicateCardError(f"duplicate card: {token!r}")
        seen |= 1 << index
        out.append(index)
    return out


def check_mixed_labels(tokens: Iterable[str], labels: Labels) -> None:
    """Refuse a text that mixes the two decks where a token reads differently in each (R2).

    With Spanish labels, French cards are accepted too; but ``7C`` is the 7
    of copas in Spanish and the 7 of clubs in French.  When the same text
    holds a French-only card (``AC``, ``JS``, ``7♥``), such tokens are
    ambiguous.

    Raises
    ------
    AmbiguousCardError
        Naming the first ambiguous token.
    """
    if labels != Labels.SPANISH:
        return
    tokens = [t for t in tokens if isinstance(t, str)]
    if any(_french_only(t) for t in tokens):
        for token in tokens:
            _check_unambiguous(token)


def clip(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, for error messages."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _french_only(token: str) -> bool:
    """True if ``token`` is a French card and not a Spanish one (``AC``, ``JS``, ``7♥``)."""
    return (
        _read(token, _ES, _SPANISH_SUIT_OF) is None
        and _read(token, _FR, _FRENCH_SUIT_OF) is not None
    )


def _check_unambiguous(token: str) -> None:
    spanish = _read(token, _ES, _SPANISH_SUIT_OF)
    french = _read(token, _FR, _FRENCH_SUIT_OF)
    if spanish is not None and french is not None and spanish != french:
        raise AmbiguousCardError(
            f"ambiguous card: {token!r} is {format_card(spanish, Labels.SPANISH)} "
            f"(= {format_card(spanish, Labels.FRENCH)}, c = copas) with Spanish labels but "
            f"{format_card(french, Labels.FRENCH)} (C = clubs) with French labels, and this text "
            "mixes both decks: write every card with one label set"
        )


def format_card(index: int, labels: Labels = Labels.FRENCH) -> str:
    """Return the text of a card index under ``labels`` (R2), e.g. ``7H`` or ``10o``."""
    rank, suit = divmod(index, 4)
    if labels == Labels.FRENCH:
        return _FRENCH_RANKS[rank] + _FRENCH_SUITS[suit]
    return _SPANISH_RANKS[rank] + _SPANISH_SUITS[suit]


def mask_of(indices: Iterable[int]) -> int:
    """Return the bit mask of card indices."""
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


def iter_mask(mask: int) -> Iterator[int]:
    """Yield the card indices of a mask in increasing order (rank, then suit)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def format_mask(mask: int, labels: Labels = Labels.FRENCH) -> str:
    """Return the cards of a mask as space-separated text, in index order."""
    return " ".join(format_card(i, labels) for i in iter_mask(mask))


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card of the 40-card deck (R1).

    Attributes
    ----------
    index : int
        ``(rank - 1) * 4 + suit``, in ``0..39``.
    """

    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index < NUM_CARDS:
            raise CardError(f"no card with index {self.index}")

    @classmethod
    def parse(cls, token: str, labels: Labels = Labels.FRENCH) -> Card:
        """Parse a token such as ``7H`` or ``10o``; see :func:`parse_card`."""
        return cls(parse_card(token, labels))

    @property
    def rank(self) -> int:
        """Ordinal ``1..10`` (A..7, J, Q, K)."""
        return self.index // 4 + 1

    @property
    def suit(self) -> int:
        """``0..3`` for S H D C."""
        return self.index % 4

    def text(self, labels: Labels = Labels.FRENCH) -> str:
        """The card's text under ``labels``."""
        return format_card(self.index, labels)

    def __str__(self) -> str:
        return format_card(self.index)

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class CardSet:
    """An immutable, hashable set of cards stored as a 40-bit mask.

    Attributes
    ----------
    mask : int
        Bit ``i`` is set when card index ``i`` is in the set.
    """

    mask: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.mask <= FULL_DECK:
            raise CardError(f"not a set of cards: mask {self.mask:#x}")

    @classmethod
    def parse(cls, text: str | Iterable[str], labels: Labels = Labels.FRENCH) -> CardSet:
        """Parse distinct cards; raises :class:`DuplicateCardError` on a repeat."""
        return cls(mask_of(parse_cards(text, labels)))

    @classmethod
    def of(cls, cards: Iterable[Card | int]) -> CardSet:
        """Build a set from cards or indices."""
        return cls(mask_of(c.index if isinstance(c, Card) else c for c in cards))

    def __iter__(self) -> Iterator[Card]:
        return (Card(i) for i in iter_mask(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        if isinstance(card, Card):
            return bool(self.mask >> card.index & 1)
        return False

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def text(self, labels: Labels = Labels.FRENCH) -> str:
        """The cards as space-separated text under ``labels``."""
        return format_mask(self.mask, labels)

    def __str__(self) -> str:
        return format_mask(self.mask)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"
