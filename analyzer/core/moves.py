"""Move types and their text form (R9-R16).

Every move is a small frozen value with a text form that round-trips:
``parse_move(str(move)) == move``.  Layouts are whole new layouts, each meld
in square brackets.  The cards of one move are read in one label set,
decided by its unambiguous cards (R2, :func:`analyzer.core.cards.text_labels`):
``take [5C 6C 7C] pay KS`` is a club run.  A move's ``repr`` rebuilds it
from its text, like python-chess: ``Take.parse('take [5H 6H 7H] pay KS')``.

==========================  =====================================================
text                        meaning
==========================  =====================================================
``pass``                    decline the centre card (R12)
``take [..] [..] pay KS``   meld the centre card, new layout, pay KS (R13)
``take [..] [..] out``      meld the centre card and the whole hand: go out (R15)
``force 1``                 force player 1 to take the centre card (R14)
``lay [..] [..] pay KS``    the forced player's new layout and pay (R14)
``lay [..] out``            the forced player goes out (R14, R15)
``meld [10o 11o 12o]``      lay one hand-only meld (R16, megajogos)
``give 7H``                 pass 7H to the next player in the exchange (R9)
``turn 7H``                 7H is turned from the stock (R10, a chance move)
==========================  =====================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeVar

from analyzer.core.cards import (
    Labels,
    clip,
    format_card,
    format_mask,
    mask_of,
    parse_card,
    parse_cards,
    text_labels,
)
from analyzer.core.errors import CardError, InvalidMoveError

__all__ = [
    "Force",
    "Give",
    "LayIn",
    "Meld",
    "Move",
    "Pass",
    "Take",
    "Turn",
    "format_move",
    "parse_move",
    "small_number",
]


def small_number(text: str) -> int | None:
    """``text`` as a small whole number written plainly (a seat, a move number), else None.

    Only ASCII digits without a leading zero (``'0'`` itself is allowed) and at most nine of
    them: ``'01'``, ``'00'``, another script's digits and a number too long to be a seat or
    a move number are not numbers here (so that, e.g., ``force`` with 5,000 digits does not
    hit Python's own limit on converting digits to a number).

    Parameters
    ----------
    text : str

    Returns
    -------
    int or None
    """
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        return None
    if len(text) > 1 and text[0] == "0":
        return None
    return int(text)


def _layout_text(layout: tuple[int, ...], labels: Labels) -> str:
    return " ".join(f"[{format_mask(m, labels)}]" for m in layout)


def _ending(pay: int | None, labels: Labels) -> str:
    return "out" if pay is None else f"pay {format_card(pay, labels)}"


_M = TypeVar("_M", bound="_Text")


class _Text:
    """``str(move)`` is its text with French labels (R2); ``repr(move)`` rebuilds it from that text."""

    __slots__ = ()

    def text(self, labels: Labels = Labels.FRENCH) -> str:
        raise NotImplementedError

    @classmethod
    def parse(cls: type[_M], text: str, labels: Labels | None = Labels.FRENCH) -> _M:
        """Read a move of this type from its text; see :func:`parse_move`.

        Raises
        ------
        InvalidMoveError
            If the text is not a move, or is a move of another type.
        """
        move = parse_move(text, labels)
        if not isinstance(move, cls):
            raise InvalidMoveError(
                f"{clip(text)!r} is a {type(move).__name__} move, not a {cls.__name__} move"
            )
        return move

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({self.text()!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Pass(_Text):
    """Decline the centre card (R12, R17)."""

    def text(self, labels: Labels = Labels.FRENCH) -> str:
        """The move's text."""
        return "pass"


@dataclass(frozen=True, slots=True, repr=False)
class Take(_Text):
    """Take the centre card (R13) and pay, or go out (R15).

    Attributes
    ----------
    layout : tuple of int
        The player's whole new layout, sorted card masks.
    pay : int or None
        Index of the card paid; ``None`` means going out.
    """

    layout: tuple[int, ...]
    pay: int | None

    def text(self, labels: Labels = Labels.FRENCH) -> str:
        """The move's text."""
        return f"take {_layout_text(self.layout, labels)} {_ending(self.pay, labels)}"


@dataclass(frozen=True, slots=True, repr=False)
class LayIn(_Text):
    """The forced player's lay-in of the centre card and his pay (R14)."""

    layout: tuple[int, ...]
    pay: int | None

    def text(self, labels: Labels = Labels.FRENCH) -> str:
        """The move's text."""
        return f"lay {_layout_text(self.layout, labels)} {_ending(self.pay, labels)}"


@dataclass(frozen=True, slots=True, repr=False)
class Force(_Text):
    """Force player ``player`` to take the centre card (R14)."""

    player: int

    def text(self, labels: Labels = Labels.FRENCH) -> str:
        """The move's text."""
        return f"force {self.player}"


@dataclass(frozen=True, slots=True, repr=False)
class Meld(_Text):
    """Lay one new meld made only of hand cards (R16)."""

    meld: int

    def text(self, labels: Labels = Labels.FRENCH) -> str:
        """The move's text."""
        return f"meld [{format_mask(self.meld, labels)}]"


@dataclass(frozen=True, slots=True, repr=False)
class Give(_Text):
    """Pass one hand card to the next player in the exchange (R9)."""

    card: int

    def text(self, labels: Labels = Labels.FRENCH) -> str:
        """The move's text."""
        return f"give {format_card(self.card, labels)}"


@dataclass(frozen=True, slots=True, repr=False)
class Turn(_Text):
    """The chance move: ``card`` is turned from the stock (R10)."""

    card: int

    def text(self, labels: Labels = Labels.FRENCH) -> str:
        """The move's text."""
        return f"turn {format_card(self.card, labels)}"


Move = Pass | Take | Force | LayIn | Meld | Give | Turn


def format_move(move: Move, labels: Labels = Labels.FRENCH) -> str:
    """Text of ``move`` under ``labels``; ``parse_move`` reads it back."""
    return move.text(labels)


_BRACKETS = re.compile(r"\[([^\[\]]*)\]")


def _parse_layout(body: str, labels: Labels, text: str) -> tuple[tuple[int, ...], str]:
    melds: list[int] = []
    seen = 0
    pos = 0
    body = body.strip()
    while True:
        ahead = body[pos:].lstrip()
        if melds and ahead.startswith(",") and ahead[1:].lstrip().startswith("["):
            ahead = ahead[1:].lstrip()  # 'take [..], [..] pay AC' reads too
        if not ahead.startswith("["):
            break
        pos = len(body) - len(ahead)
        match = _BRACKETS.match(body, pos)
        if match is None:
            raise InvalidMoveError(f"unclosed '[' in move {clip(text)!r}")
        mask = mask_of(parse_cards(match.group(1), labels))
        if not mask:  # 'take [] pay AH' is refused, as 'take pay AH' is
            raise InvalidMoveError(f"an empty meld '[]' in move {clip(text)!r}: a meld lists its cards")
        if mask & seen:
            twice = format_card((mask & seen & -(mask & seen)).bit_length() - 1, labels)
            raise InvalidMoveError(f"{twice} appears in two melds in move {clip(text)!r}")
        seen |= mask
        melds.append(mask)
        pos = match.end()
    return tuple(sorted(melds)), body[pos:].strip()


def _parse_end(rest: str, labels: Labels, text: str) -> int | None:
    words = rest.split()
    if [w.lower() for w in words] == ["out"]:
        return None
    if len(words) == 2 and words[0].lower() == "pay":
        return parse_card(words[1], labels)
    raise InvalidMoveError(f"expected 'pay CARD' or 'out' at the end of move {clip(text)!r}")


def _card_tokens(verb: str, rest: str) -> list[str]:
    """The card tokens of a move text, to decide its one label set (R2)."""
    tokens: list[str] = []
    for match in _BRACKETS.finditer(rest):
        tokens += match.group(1).replace(",", " ").split()
    words = _BRACKETS.sub(" ", rest).split()
    if verb in ("take", "lay") and len(words) == 2 and words[0].lower() == "pay":
        tokens.append(words[1])
    if verb in ("give", "turn") and len(words) == 1:
        tokens.append(words[0])
    return tokens


def parse_move(text: str, labels: Labels | None = Labels.FRENCH) -> Move:
    """Read a move from its text (see the module table).

    Parameters
    ----------
    text : str
        Move text, any case, e.g. ``"take [5H 6H 7H] [JS JH JD] pay KS"``.
    labels : Labels or None
        The labels that decide cards that read both ways when no card of the
        move does (R2); give the position's labels.  ``None``: refuse such a
        move.

    Returns
    -------
    Move

    Raises
    ------
    InvalidMoveError
        If the text is not a move (a syntax error; a subclass of
        :class:`~analyzer.core.errors.IllegalMoveError`); the message quotes it.
        Legality in a position is checked by :meth:`analyzer.core.state.GameState.apply`,
        which raises ``IllegalMoveError`` itself.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"not a move: {clip(repr(text))} (a move is text, e.g. 'pass')")
    # Brackets end words: 'take[5S 5D 5C]pay AD' is a move.
    clean = " ".join(text.replace("[", " [").replace("]", "] ").split())
    head, _, rest = clean.partition(" ")
    verb = head.lower()
    try:
        labels = text_labels(_card_tokens(verb, rest), labels)
        if verb == "pass" and not rest:
            return Pass()
        if verb in ("take", "lay"):
            layout, end = _parse_layout(rest, labels, text)
            if not layout:
                raise InvalidMoveError(f"move {clip(text)!r} lists no melds")
            pay = _parse_end(end, labels, text)
            return Take(layout, pay) if verb == "take" else LayIn(layout, pay)
        seat = small_number(rest) if verb == "force" else None
        if seat is not None:  # not 'force 00'
            return Force(seat)
        if verb == "meld":
            layout, end = _parse_layout(rest, labels, text)
            if len(layout) != 1 or end:
                raise InvalidMoveError(f"'meld' takes exactly one [meld] in move {clip(text)!r}")
            return Meld(layout[0])
        if verb in ("give", "turn") and rest and " " not in rest:
            card = parse_card(rest, labels)
            return Give(card) if verb == "give" else Turn(card)
    except CardError as exc:
        raise InvalidMoveError(f"{exc} in move {clip(text)!r}") from None
    shape = _SHAPES.get(verb)
    if shape is not None:  # a known word with the wrong rest: say what it takes
        raise InvalidMoveError(f"not a move: {clip(text)!r} ({shape})")
    raise InvalidMoveError(
        f"not a move: {clip(text)!r} (expected pass, take, force, lay, meld, give or turn)"
    )


_SHAPES = {
    "pass": "'pass' takes nothing after it",
    "force": "'force' takes the seat of the player forced, e.g. 'force 1' (R14)",
    "give": "'give' takes one card, e.g. 'give 7H' (R9)",
    "turn": "'turn' takes one card, e.g. 'turn 7H' (R10)",
}
"""What a move word takes, for the message about a move that has the word but not the rest."""
