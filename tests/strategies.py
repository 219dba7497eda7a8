"""Hypothesis strategies shared by the meld and CP-SAT property tests."""

from __future__ import annotations

from hypothesis import strategies as st
from reference import ref_random_layout

CARD_SETS = st.sets(st.integers(0, 39), max_size=20)
"""Any 0-20 distinct card indices."""


@st.composite
def card_sets(draw: st.DrawFn, max_run: int) -> set[int]:
    """Random card sets of 0-20 cards; half are unions of melds plus a few cards."""
    if draw(st.booleans()):
        return draw(CARD_SETS)
    rng = draw(st.randoms(use_true_random=False))
    out: set[int] = set()
    for meld in ref_random_layout(rng, max_run, draw(st.integers(1, 6))):
        if len(out) + len(meld) <= 20:
            out |= set(meld)
    for x in sorted(draw(st.sets(st.integers(0, 39), max_size=3))):
        if len(out) < 20:
            out.add(x)
    return out
