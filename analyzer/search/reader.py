"""The learned card-location model: where the unseen cards are, read from the public history.

A second reading of the hidden hands beside :mod:`analyzer.search.inference` (which reads the
cards given up alone): for a player ``p``'s view, each other player ``q`` whose hand ``p`` cannot
see and each card ``c`` that ``p`` has not seen, a logistic model of "``c`` is in ``q``'s hand"::

    logit P(c in q) = b0 * prior(q) + sum_k b_k * f_k(q, c)

where ``prior(q)`` is the log-odds of any unseen card being his before reading (his hand count
over the unseen cards not in it) and the features :data:`FEATURES` are

================  ==================================================================
``near_given``    cards ``q`` gave up (paid, R13/R14, or passed to ``p``, R9) that ``c`` is
                  near: its rank, or its suit one rank away (:data:`~analyzer.search.inference.NEAR1`)
``gap_given``     those ``c`` is a gap from: its suit two ranks away
``near_declined`` cards ``q`` declined (:func:`~analyzer.search.sampling.declined_cards`,
                  R11, R17) that ``c`` is near
``gap_declined``  those ``c`` is a gap from
``near_layout``   cards of ``q``'s own layout that ``c`` is near (R6)
``fits_own``      ``c`` fits ``q``'s layout (a card he could be forced with, R14)
``fits_other``    ``c`` fits another player's layout
``stock_share``   the stock's share of the unseen cards (how far the deal has gone)
================  ==================================================================

The sampler draws each hidden hand with probability roughly proportional to the product of its
cards' weights ``exp(sum_k b_k f_k(q, c))`` (the prior is the hand count, which every drawn
hand keeps: :func:`analyzer.search.sampling.sample_deal` with ``weights``).  The coefficients
are fitted on the hint bot's self-play records (``bench/fit_reader.py``, which writes
``analyzer/data/reader.json``); where none are fitted the model is off.  The weights are computed
here, once per decision, and handed to either core's sampler, so both draw from the same model.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache

from analyzer.core.cards import NUM_CARDS, iter_mask
from analyzer.core.legal import fitting_cards
from analyzer.core.melds import cards_of
from analyzer.core.state import GameState
from analyzer.search.fitted import fitted_coefficients
from analyzer.search.inference import NEAR1, NEAR2, infer_weights, read_cards
from analyzer.search.sampling import declined_cards, unseen_cards

__all__ = ["FEATURES", "READERS", "card_features", "reader_coefficients", "reader_weights", "reading_weights"]

READERS = ("paid", "learned")
"""The readings of the hidden hands: the cards given up alone, or this module's learned model."""

FEATURES = (
    "near_given",
    "gap_given",
    "near_declined",
    "gap_declined",
    "near_layout",
    "fits_own",
    "fits_other",
    "stock_share",
)
"""Names of the card-location features, in order (module docstring)."""


def _near(cards: Iterable[int], card: int, table: tuple[int, ...]) -> int:
    """How many of ``cards`` have ``card`` in their ``table`` mask (near or a gap from it)."""
    return sum(1 for x in cards if table[x] >> card & 1)


def card_features(view: GameState, player: int) -> dict[int, tuple[float, list[tuple[int, tuple[float, ...]]]]]:
    """The model's inputs on ``player``'s view: per other player whose hand is hidden and who
    holds a card, his prior log-odds and, per unseen card, the :data:`FEATURES` (module
    docstring).

    Returns
    -------
    dict of int to (float, list of (card, features))
        Empty when no hand is hidden or no card is unseen.
    """
    rules = view.rules
    pool = unseen_cards(view, player)
    size = pool.bit_count()
    given = read_cards(view, player)
    fits = [fitting_cards(layout, rules) for layout in view.layouts]
    stock_share = view.stock_count / size if size else 0.0
    out: dict[int, tuple[float, list[tuple[int, tuple[float, ...]]]]] = {}
    for q, hand in enumerate(view.hands):
        k = view.counts[q]
        if q == player or hand is not None or not 0 < k < size:
            continue
        paid = given.get(q, ())
        declined = declined_cards(view, q)
        layout = list(iter_mask(cards_of(view.layouts[q])))
        others = 0
        for r, fit in enumerate(fits):
            if r != q:
                others |= fit
        rows: list[tuple[int, tuple[float, ...]]] = []
        for c in iter_mask(pool):
            rows.append((c, (
                float(_near(paid, c, NEAR1)),
                float(_near(paid, c, NEAR2)),
                float(_near(declined, c, NEAR1)),
                float(_near(declined, c, NEAR2)),
                float(_near(layout, c, NEAR1)),
                float(fits[q] >> c & 1),
                float(others >> c & 1),
                stock_share,
            )))  # fmt: skip
        out[q] = (math.log(k / (size - k)), rows)
    return out


@lru_cache(maxsize=8)
def reader_coefficients(variant: str) -> tuple[float, ...] | None:
    """The fitted coefficients of :data:`FEATURES` for ``variant`` (log-odds per unit), or
    ``None`` when ``analyzer/data/reader.json`` has none for it.

    Raises
    ------
    ValueError
        If the file was fitted on other features (refit it with ``bench/fit_reader.py``).
    """
    return fitted_coefficients("reader.json", variant, FEATURES, "bench/fit_reader.py")


def reader_weights(view: GameState, player: int) -> dict[int, tuple[float, ...]] | None:
    """The sampler's weights (:func:`analyzer.search.sampling.sample_deal`) for ``player``'s view
    by the learned model: per hidden player, 40 weights ``exp(sum_k b_k f_k)`` (1 for a card
    he cannot hold); ``None`` (uniform sampling) when no model is fitted for the variant."""
    coefficients = reader_coefficients(view.rules.name)
    if coefficients is None:
        return None
    out: dict[int, tuple[float, ...]] = {}
    for q, (_, rows) in card_features(view, player).items():
        logits = [0.0] * NUM_CARDS
        for c, x in rows:
            logits[c] = sum(b * v for b, v in zip(coefficients, x, strict=True))
        top = max(logits)  # scaled into (0, 1], as the sampler takes them (the draw is the same)
        out[q] = tuple(math.exp(z - top) for z in logits)
    return out or None


def reading_weights(reader: str, view: GameState, player: int) -> dict[int, tuple[float, ...]] | None:
    """The sampler's weights by the reading ``reader`` (:data:`READERS`) for ``player``'s view."""
    if reader == "learned":
        return reader_weights(view, player)
    return infer_weights(view, player)
