"""Outcomes of a deal and the helpers every search shares (R20).

An outcome is a probability vector: player 0 wins, ..., player n-1 wins, draw.
"""

from __future__ import annotations

import gc
from collections.abc import Hashable, Iterator
from contextlib import contextmanager

from analyzer.core.cards import mask_of
from analyzer.core.state import GameState

__all__ = ["Outcome", "outcome_vector", "paused_gc", "position_key", "utility"]

Outcome = tuple[float, ...]
"""Probabilities of: player 0 wins, ..., player n-1 wins, draw (they sum to 1)."""


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the block (a search), then restore it.

    A search allocates millions of short-lived tuples and positions, none of
    them in a reference cycle, so reference counting frees them all; the
    cyclic collector would only rescan the growing tables again and again
    (about a tenth of a double-dummy solve's time).  Cycles made inside the
    block are collected once it ends.  Nested blocks leave the collector as
    they found it.  The switch is process-wide: another thread's cycles also
    wait until the block ends (reference counting still frees the rest).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def position_key(state: GameState) -> Hashable:
    """A hashable key of everything that matters for the rest of one deal.

    Within one deal with a known stock order the stock is always what is
    left of the same sequence, so its length stands for it; dead cards are
    then the cards that are nowhere else, and their order plays no further
    part.  With the stock order unknown the dead cards are kept as a set.
    Keys of different deals must not share a table (:class:`Solver` clears
    its table when the deal changes).
    """
    centre = state.centre
    return (
        state.hands,
        state.layouts,
        state.stock_count,
        mask_of(state.dead) if state.stock is None else 0,
        None
        if centre is None
        else (centre.card, centre.kind, centre.source, centre.declined, centre.forced),
        state.to_act,
        state.phase,
        state.winner,
        state.gifts,
    )


def outcome_vector(state: GameState) -> Outcome:
    """The outcome of a finished deal as probabilities (one 1.0), R20."""
    n = state.rules.players
    vec = [0.0] * (n + 1)
    vec[n if state.winner is None else state.winner] = 1.0
    return tuple(vec)


def utility(outcome: Outcome, player: int) -> float:
    """Expected result of ``player`` (R20): win +1, draw 0, another player wins -1."""
    n = len(outcome) - 1
    return outcome[player] - sum(outcome[p] for p in range(n) if p != player)
