"""Reading a hidden hand from the cards its player paid (an opponent model for sampling).

A player pays the card he needs least (R13, R14): seldom one next to cards
he keeps; so does he pass in the exchange (R9), and the player he passes to
sees it.  So each card a hidden player is seen to give up makes the cards
that would meld with it less likely to be in his hand: a card of its rank or of
its suit one rank away (*near*, ``NEAR1``), or of its suit two ranks away
(*gap*, ``NEAR2``).  Hands only lose cards (R13: a take melds the centre
card at once), so a card still in the hand now was in it when he paid.

The model gives each unseen card ``c`` a weight for each hidden player ``q``::

    w_q(c) = exp(-(near * n1_q(c) + gap * n2_q(c)))

where ``n1_q(c)`` counts the cards ``q`` gave up (:func:`read_cards`) that
``c`` is near and ``n2_q(c)`` those it is a gap from.  A hand is drawn with probability
roughly proportional to the product of its cards' weights
(:func:`analyzer.search.sampling.sample_deal` with ``weights``).  The two
coefficients are fitted by logistic regression on positions of seeded
deals between greedy bots (``bench/fit_reading.py``, which writes
``analyzer/data/reading.json``); with none fitted the model is off.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources

from analyzer.core.cards import NUM_CARDS
from analyzer.core.state import GameState

__all__ = [
    "NEAR1",
    "NEAR2",
    "coefficients",
    "hand_weights",
    "infer_weights",
    "near_counts",
    "read_cards",
    "read_weights",
]


def _masks() -> tuple[tuple[int, ...], tuple[int, ...]]:
    near: list[int] = []
    gap: list[int] = []
    for card in range(NUM_CARDS):
        rank, suit = divmod(card, 4)
        one = 0
        for s in range(4):
            if s != suit:
                one |= 1 << (rank * 4 + s)
        for d in (-1, 1):
            if 0 <= rank + d < 10:
                one |= 1 << ((rank + d) * 4 + suit)
        two = 0
        for d in (-2, 2):
            if 0 <= rank + d < 10:
                two |= 1 << ((rank + d) * 4 + suit)
        near.append(one)
        gap.append(two)
    return tuple(near), tuple(gap)


NEAR1, NEAR2 = _masks()
"""Per card index: the mask of the cards *near* it (its rank, or its suit one rank away) and of
those a *gap* from it (its suit two ranks away); a card never counts itself."""


def near_counts(paid: Sequence[int], card: int) -> tuple[int, int]:
    """``(n1, n2)``: how many cards of ``paid`` the ``card`` is near and a gap from (module docstring)."""
    return (
        sum(1 for x in paid if NEAR1[x] >> card & 1),
        sum(1 for x in paid if NEAR2[x] >> card & 1),
    )


@lru_cache(maxsize=4)
def coefficients(variant: str) -> tuple[float, float] | None:
    """The fitted ``(near, gap)`` coefficients for ``variant`` (per card paid, in log-odds), or
    ``None`` when ``analyzer/data/reading.json`` has none for it."""
    try:
        text = resources.files("analyzer").joinpath("data/reading.json").read_text("utf-8")
    except FileNotFoundError:
        return None
    entry = json.loads(text).get("variants", {}).get(variant)
    if entry is None:
        return None
    return float(entry["near"]), float(entry["gap"])


def hand_weights(paid: Sequence[int], near: float, gap: float) -> tuple[float, ...]:
    """Per card index: the weight ``w(c)`` of the module docstring for a player who paid ``paid``.

    Parameters
    ----------
    paid : sequence of int
        Card indices the player was seen to pay.
    near, gap : float
        Log-odds per paid card of being near / a gap from it (positive: less likely).

    Returns
    -------
    tuple of float
        40 weights in (0, 1]; 1 for a card next to nothing he paid.
    """
    return tuple(
        math.exp(-(near * n1 + gap * n2))
        for n1, n2 in (near_counts(paid, c) for c in range(NUM_CARDS))
    )


def infer_weights(view: GameState, player: int) -> dict[int, tuple[float, ...]] | None:
    """The sampler's weights (:func:`analyzer.search.sampling.sample_deal`) for ``player``'s view.

    The cards each other player was seen to give up (:func:`read_cards`):
    the view's history (``GameState.paid``, kept by
    :meth:`~analyzer.core.state.GameState.apply` and given in a position file as
    each player's ``"paid"``), the centre card when he paid it, and the card
    he passed to ``player`` in the exchange.

    Parameters
    ----------
    view : GameState
        ``player``'s view.
    player : int
        The reader.

    Returns
    -------
    dict of int to tuple of float, or None
        Per hidden player who gave up something seen, his 40 card weights;
        ``None`` (uniform sampling) when nobody did or no model is fitted for
        the variant (:func:`coefficients`).
    """
    found = coefficients(view.rules.name)
    if found is None:
        return None
    near, gap = found
    out = {q: hand_weights(cards, near, gap) for q, cards in read_cards(view, player).items()}
    return out or None


def read_cards(view: GameState, player: int) -> dict[int, tuple[int, ...]]:
    """Per other player whose hand ``player`` cannot see: the cards he was seen to give up this
    deal, oldest first: the card he passed to ``player`` in the exchange (R9: the one he needed
    least, as a pay), then his pays (the view's ``paid``, and the centre card when he paid it);
    players who gave up nothing seen are left out."""
    paid: dict[int, list[int]] = {q: [] for q in range(len(view.hands))}
    for q, card in enumerate(view.gave):
        if card is not None:
            paid[q].append(card)
    for q, cards in enumerate(view.paid):
        paid[q] += [c for c in cards if c not in paid[q]]
    c = view.centre
    if c is not None and c.kind == "paid" and c.card not in paid[c.source]:
        paid[c.source].append(c.card)
    return {
        q: tuple(cards)
        for q, cards in sorted(paid.items())
        if cards and q != player and 0 <= q < len(view.hands) and view.hands[q] is None
    }


read_weights = infer_weights
"""The 0.1 name of :func:`infer_weights` (it infers hidden hands; it reads no file)."""
