"""Cards and sets of cards (R1-R3).

A card is an index ``0..39``: ``index = (rank - 1) * 4 + suit`` where the
rank is the ordinal ``1..10`` (R1) and the suit ``0..3`` is ``S H D C``
(French) = ``e c o b`` (Spanish espadas, copas, oros, bastos).  A set of
cards is a 40-bit integer mask (bit ``index`` set), wrapped by
:class:`CardSet` for users; hot code uses the bare ``int``.

One text is read in one label set (R2), decided by its unambiguous cards:
``7C`` is the 7 of clubs next to ``7H 7D`` and the 7 of copas next to
``7o 7e`` (see :func:`text_labels`).

Every value type's ``repr`` is a Python expression that rebuilds it from its
text, in the style of python-chess (``Move.from_uci('e2e4')``):
``Card.parse('7H')``, ``CardSet.parse('6H 7H JS')``, and likewise
``Take.parse('take [5H 6H 7H] pay KS')`` for moves and
``load_position({...})`` for a :class:`~analyzer.core.state.GameState`.

Examples
--------
>>> Card.parse("7h")
Card.parse('7H')
>>> Card.parse("10o").text(Labels.SPANISH)
'10o'
>>> str(Card.parse("10o"))
'JD'
>>> CardSet.parse("7C 7H 7D")
CardSet.parse('7H 7D 7C')
>>> CardSet.parse("7c 7o 7e")
CardSet.parse('7S 7H 7D')
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from analyzer.core.errors import AmbiguousCardError, CardError, DuplicateCardError

__all__ = [
    "FULL_DECK",
    "NUM_CARDS",
    "Card",
    "CardSet",
    "Labels",
    "card_index",
    "check_mixed_labels",
    "clip",
    "counted",
    "format_card",
    "format_mask",
    "iter_mask",
    "mask_of",
    "parse_card",
    "parse_cards",
    "text_labels",
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


def _french(token: str) -> int | None:
    return _read(token, _FR, _FRENCH_SUIT_OF)


def _spanish(token: str) -> int | None:
    return _read(token, _ES, _SPANISH_SUIT_OF)


def _kind(token: str) -> str:
    """``"french"`` or ``"spanish"`` for a card of one label set only, ``"both"`` for a token
    that names a different card in each (``7C``: 7 of clubs, or 7 of copas), ``""`` for no card."""
    french, spanish = _french(token), _spanish(token)
    if french is None:
        return "" if spanish is None else "spanish"
    if spanish is None:
        return "french"
    return "both" if french != spanish else "french"


def _readings(token: str) -> str:
    french, spanish = _french(token), _spanish(token)
    assert french is not None and spanish is not None
    return (
        f"{format_card(french, Labels.FRENCH)} (clubs) in French labels but "
        f"{format_card(spanish, Labels.SPANISH)} (copas, = {format_card(spanish, Labels.FRENCH)}) "
        "in Spanish labels"
    )


def text_labels(
    tokens: Iterable[str],
    default: Labels | None = Labels.FRENCH,
    *,
    declared: Labels | None = None,
    empty: Labels | None = None,
) -> Labels:
    """The one label set a text is read in, decided by its unambiguous cards (R2).

    A card is written in one label set only (``AS``, ``KH``, ``7♥`` are French;
    ``1e``, ``10o``, ``12b`` are Spanish), except a shared rank ``2..7`` with the
    letter ``c``, which names a club in French and a copa (heart) in Spanish.
    The cards of one label set decide how such a token is read: in
    ``7C 7H 7D`` it is the 7 of clubs, in ``7c 7o 7e`` the 7 of copas.

    Parameters
    ----------
    tokens : iterable of str
        The card tokens of one text (a command line, a file, a move).
    default : Labels or None
        The labels that decide when no card of the text does (every card reads
        both ways); ``None`` means nothing decides and such a text is refused.
    declared : Labels, optional
        Labels the text says it is written in (a position file's ``labels``).
    empty : Labels, optional
        The labels of a text with no card at all, when not ``declared`` (a
        position showing no card takes its variant's labels); default: as
        when no card decides.
        They decide like ``default``; unambiguous cards of the other set are
        still read, unless the text also holds a card that reads both ways.

    Returns
    -------
    Labels
        The label set of the text: ``declared`` when given, else the one its
        unambiguous cards belong to, else ``default`` (French when that is
        ``None`` and no card needs deciding).

    Raises
    ------
    AmbiguousCardError
        If a token reads both ways and the text has French-only and
        Spanish-only cards (a real mix), or its cards contradict ``declared``,
        or nothing decides; the message names the token and the cards of
        each kind.
    """
    seen: dict[str, list[str]] = {"french": [], "spanish": [], "both": [], "": []}
    for token in tokens:
        if isinstance(token, str):
            seen[_kind(token)].append(token.strip())
    french, spanish, both = seen["french"], seen["spanish"], seen["both"]
    if both:
        token = both[0]
        voted = Labels.FRENCH if french else Labels.SPANISH if spanish else None
        if declared is not None and ((french and spanish) or voted not in (None, declared)):
            # The cards that contradict the declared labels come first, then the card they
            # leave unread, rather than the shared token first.
            other_set = Labels.SPANISH if declared is Labels.FRENCH else Labels.FRENCH
            other = spanish if declared is Labels.FRENCH else french
            raise AmbiguousCardError(
                f"the labels are said to be {declared}, but {clip(' '.join(other[:3]))} "
                f"{'is a' if len(other) == 1 else 'are'} {other_set} card{'s' if len(other) > 1 else ''}, "
                f"so {clip(token)!r} is ambiguous ({_readings(token)}): write every card in one "
                "label set"
            )
        if french and spanish:
            raise AmbiguousCardError(
                f"ambiguous card: {clip(token)!r} is {_readings(token)}, and this text mixes "
                f"French cards ({clip(' '.join(french[:3]))}) with Spanish cards "
                f"({clip(' '.join(spanish[:3]))}): write every card in one label set"
            )
        chosen = voted or declared or default
        if chosen is None:
            problem = (
                f"ambiguous card: {clip(token)!r} is {_readings(token)}, and no card of this text "
                "decides which: choose the labels"
            )
            error = AmbiguousCardError(
                f"{problem} (--labels french or --labels spanish on the command line, "
                '"labels" in a file)'
            ).naming("labels", f'{problem} ("labels": "french" or "spanish" in the request)')
            error.problem = problem
            raise error
        return chosen
    if declared is not None:
        return declared
    if french and not spanish:
        return Labels.FRENCH
    if spanish and not french:
        return Labels.SPANISH
    if empty is not None and not any(seen.values()):
        return empty
    return default or Labels.FRENCH


def _parse_in(token: str, labels: Labels) -> int:
    """Read one token with ``labels`` first, then the other label set (R2)."""
    first, second = (_french, _spanish) if labels == Labels.FRENCH else (_spanish, _french)
    index = first(token)
    if index is None:
        index = second(token)
    if index is None:
        raise CardError(
            f"not a card: {clip(token)!r} (French: ranks A 2 3 4 5 6 7 J Q K, suits S H D C; "
            "Spanish: ranks 1-7 10 11 12, suits o c e b)"
        )
    return index


def parse_card(token: str, labels: Labels | None = Labels.FRENCH) -> int:
    """Parse one card token into its index (R2).

    Parameters
    ----------
    token : str
        Rank then suit, any case: ``7H``, ``js``, ``K♣``, ``10o``, ``12b``.
    labels : Labels or None
        The labels that decide a token naming a card in each set: ``7C`` is
        the 7 of clubs with ``FRENCH`` (default) and the 7 of copas with
        ``SPANISH``; with ``None`` it is refused.  A token of one set only
        (``JS``, ``10o``) is read in that set.

    Returns
    -------
    int
        The card index ``0..39``.

    Raises
    ------
    CardError
        If the token is not a card in either label set; the message names it.
    AmbiguousCardError
        If ``labels`` is ``None`` and the token reads both ways.
    """
    return _parse_in(token, text_labels([token], labels))


def parse_cards(
    text: str | Iterable[str], labels: Labels | None = Labels.FRENCH, *, distinct: bool = True
) -> list[int]:
    """Parse several card tokens, separated by spaces or commas, in one label set (R2).

    Parameters
    ----------
    text : str or iterable of str
        ``"AS 2S 3S"``, ``"as,2s,3s"`` or ``["AS", "2S", "3S"]``.
    labels : Labels or None
        The labels that decide when no card of the text does; see
        :func:`text_labels`.
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
        If the text mixes French-only and Spanish-only cards with a token that
        reads differently in the two, or nothing decides such a token (R2).
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    for token in tokens:
        if not isinstance(token, str):
            raise CardError(f"not a card: {clip(repr(token))}")
    chosen = text_labels(tokens, labels)
    out: list[int] = []
    seen = 0
    for token in tokens:
        index = _parse_in(token, chosen)
        if distinct and seen >> index & 1:
            raise DuplicateCardError(f"duplicate card: {token!r}")
        seen |= 1 << index
        out.append(index)
    return out


def check_mixed_labels(tokens: Iterable[str], labels: Labels | None) -> None:
    """Refuse a text whose label set cannot be decided (R2); see :func:`text_labels`.

    Raises
    ------
    AmbiguousCardError
        Naming the first ambiguous token and the cards of each kind.
    """
    text_labels(tokens, labels)


def clip(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, for error messages."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def counted(number: int, noun: str) -> str:
    """``1 position``, ``2 positions``, ``223,255 positions``: a count with its noun, for messages."""
    return f"{number} {noun}" if number == 1 else f"{number:,} {noun}s"


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
    def parse(cls, token: str, labels: Labels | None = Labels.FRENCH) -> Card:
        """Parse a token such as ``7H`` or ``10o``; see :func:`parse_card`.

        Raises
        ------
        CardError
            If the token is not a card (R2).
        """
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
        """``Card.parse('7H')``: rebuilds the card from its French text."""
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
    def parse(cls, text: str | Iterable[str], labels: Labels | None = Labels.FRENCH) -> CardSet:
        """Parse distinct cards in one label set; see :func:`parse_cards`.

        Raises
        ------
        CardError
            If a token is not a card; :class:`DuplicateCardError` on a repeat (R1),
            :class:`AmbiguousCardError` on a real mix of label sets (R2).
        """
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
        """``CardSet.parse('6H 7H JS')``: rebuilds the set from its French text."""
        return f"CardSet.parse({str(self)!r})"
