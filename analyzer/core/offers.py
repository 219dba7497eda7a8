"""The centre card and its offer: :class:`Phase`, :class:`Offer` and the offer order (R10-R14)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from functools import cache

from analyzer.core.cards import format_card
from analyzer.core.rules import Rules

__all__ = ["Offer", "Phase", "offer_order"]


class Phase(enum.StrEnum):
    """What happens next."""

    EXCHANGE = "exchange"  # R9: players choose a card to pass
    TURN = "turn"  # R10: a stock card is turned (chance)
    OFFER = "offer"  # R11, R12: the centre card is offered
    FORCED = "forced"  # R14: the forced player lays the card in and pays
    OVER = "over"  # R15, R18: the deal has ended


@dataclass(frozen=True, slots=True, repr=False, init=False)
class Offer:
    """The centre card and the state of its offer (R10-R14).

    Attributes
    ----------
    card : int
        Index of the centre card.
    kind : str
        ``"turned"`` (R10), ``"paid"`` (R13) or ``"upcard"`` (turned up at the deal, R10a).
    source : int
        The player who turned or paid it; the dealer for the upcard.
    declined : tuple of int
        Players who have passed it in this offer, in order.
    forced : int or None
        The player forced to take it (R14), who must now lay it in.
    """

    card: int
    kind: str
    source: int
    declined: tuple[int, ...] = ()
    forced: int | None = None

    def __init__(
        self,
        card: int,
        kind: str,
        source: int,
        declined: tuple[int, ...] = (),
        forced: int | None = None,
    ) -> None:
        # As GameState.__init__: the slots' setters, at half the cost of object.__setattr__.
        _SET_CARD(self, card)
        _SET_KIND(self, kind)
        _SET_SOURCE(self, source)
        _SET_DECLINED(self, declined)
        _SET_FORCED(self, forced)

    @property
    def origin(self) -> str:
        """How it came, in words: ``"turned"``, ``"paid"`` or ``"turned up at the deal"``."""
        return "turned up at the deal" if self.kind == "upcard" else self.kind

    def __repr__(self) -> str:
        """``Offer(parse_card('5C'), 'turned', 0, (0,), None)``: the card by its text."""
        card = f"parse_card({format_card(self.card)!r})"
        return f"Offer({card}, {self.kind!r}, {self.source}, {self.declined!r}, {self.forced!r})"


_SET_CARD, _SET_KIND, _SET_SOURCE, _SET_DECLINED, _SET_FORCED = (
    getattr(Offer, f.name).__set__ for f in fields(Offer)
)


def offer_order(rules: Rules, offer: Offer) -> tuple[int, ...]:
    """The players a centre card is offered to, in order (R11).

    A turned card goes first to its turner, then the others in turn order;
    a paid card goes to the players after the payer, never the payer, except that under
    ``discard_force`` the payer comes first, to force with it or pass (R14a); the upcard goes
    to the players after the dealer and to the dealer last (R10a).
    """
    return seat_order(rules.players, offer.kind, offer.source, rules.discard_force)


@cache
def seat_order(n: int, kind: str, source: int, payer_first: bool = False) -> tuple[int, ...]:
    """The seats of ``n`` players offered a ``kind`` card from ``source``, in order (R10a, R11,
    R14a); ``payer_first`` is :attr:`Rules.discard_force`.  Cached."""
    if kind == "upcard":
        return tuple((source + k) % n for k in range(1, n + 1))
    start = 0 if kind == "turned" or payer_first else 1
    return tuple((source + k) % n for k in range(start, n))
