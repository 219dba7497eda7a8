"""An independent brute-force meld solver, the oracle of the tests and the bench.

It shares nothing with :mod:`analyzer.core.melds` or :mod:`analyzer.solver.partition`
except the card numbering of R1 (``index = (rank - 1) * 4 + suit``): the
meld test is written again from RULES.md R3-R5, and the search is a plain
exhaustive recursion over :func:`itertools.combinations`.  It favours being
obviously correct over speed; it is fast enough for 20 cards.

Cards are plain ``int`` indices ``0..39`` in lists and sets, never masks.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterable

__all__ = [
    "rank_of",
    "ref_all_melds",
    "ref_can_meld_all",
    "ref_count_partitions",
    "ref_fits_layoff",
    "ref_is_meld",
    "ref_is_run",
    "ref_is_set",
    "ref_max_melded",
    "ref_random_layout",
    "suit_of",
]


def rank_of(card: int) -> int:
    """Return the ordinal rank ``1..10`` of a card index (R1).

    Parameters
    ----------
    card : int
        Card index ``0..39``.

    Returns
    -------
    int
        ``card // 4 + 1``: 1 = ace, 7 = seven, 8 = jack (sota), 9 = queen, 10 = king.
    """
    return card // 4 + 1


def suit_of(card: int) -> int:
    """Return the suit ``0..3`` (S H D C) of a card index (R1).

    Parameters
    ----------
    card : int
        Card index ``0..39``.

    Returns
    -------
    int
        ``card % 4``.
    """
    return card % 4


def _check_cards(cards: Iterable[int]) -> list[int]:
    out = list(cards)
    for c in out:
        if not isinstance(c, int) or not 0 <= c < 40:
            raise ValueError(f"not a card index: {c!r}")
    if len(set(out)) != len(out):
        raise ValueError(f"repeated card in {out!r}")
    return out


def ref_is_set(cards: Iterable[int]) -> bool:
    """Return True if the cards are a set: 3 or 4 cards of one rank (R4).

    Parameters
    ----------
    cards : iterable of int
        Distinct card indices.

    Returns
    -------
    bool
    """
    cs = _check_cards(cards)
    return len(cs) in (3, 4) and len({rank_of(c) for c in cs}) == 1


def ref_is_run(cards: Iterable[int], max_run: int) -> bool:
    """Return True if the cards are a run (R3, R5).

    A run is 3 to ``max_run`` cards of one suit whose ranks are consecutive
    ordinals; the ace is rank 1 only (low), and there is no wrap-around
    from the king (10) to the ace.

    Parameters
    ----------
    cards : iterable of int
        Distinct card indices.
    max_run : int
        Longest legal run, in cards (8 in ``classic``, 10 in ``megajogos``).

    Returns
    -------
    bool
    """
    cs = _check_cards(cards)
    if not 3 <= len(cs) <= max_run:
        return False
    if len({suit_of(c) for c in cs}) != 1:
        return False
    ranks = sorted(rank_of(c) for c in cs)
    return all(b == a + 1 for a, b in itertools.pairwise(ranks))


def ref_is_meld(cards: Iterable[int], max_run: int) -> bool:
    """Return True if the cards are a set (R4) or a run (R5).

    Parameters
    ----------
    cards : iterable of int
        Distinct card indices.
    max_run : int
        Longest legal run, in cards.

    Returns
    -------
    bool
    """
    cs = list(cards)
    return ref_is_set(cs) or ref_is_run(cs, max_run)


def ref_all_melds(max_run: int) -> set[frozenset[int]]:
    """Return every legal meld of the 40-card deck.

    Every meld is all of one rank (a set) or all of one suit (a run), so
    every subset of each rank group and of each suit group is tested with
    :func:`ref_is_meld`; nothing else can be a meld.

    Parameters
    ----------
    max_run : int
        Longest legal run, in cards.

    Returns
    -------
    set of frozenset of int
        The melds as sets of card indices.
    """
    groups = [[c for c in range(40) if rank_of(c) == r] for r in range(1, 11)]
    groups += [[c for c in range(40) if suit_of(c) == s] for s in range(4)]
    out: set[frozenset[int]] = set()
    for group in groups:
        for size in range(3, len(group) + 1):
            for combo in itertools.combinations(group, size):
                if ref_is_meld(combo, max_run):
                    out.add(frozenset(combo))
    return out


def _melds_with_lowest(low: int, rest: frozenset[int], max_run: int) -> list[frozenset[int]]:
    """Every legal meld made of ``low`` and cards of ``rest`` (all higher than ``low``)."""
    # A meld containing ``low`` is all of its rank or all of its suit, so only
    # those cards can join it; every combination of them is tried.
    partners = sorted(c for c in rest if rank_of(c) == rank_of(low) or suit_of(c) == suit_of(low))
    out = []
    for size in range(2, min(len(partners), max(max_run, 4) - 1) + 1):
        for combo in itertools.combinations(partners, size):
            if ref_is_meld((low, *combo), max_run):
                out.append(frozenset((low, *combo)))
    return out


def ref_max_melded(cards: list[int], max_run: int, must: set[int]) -> int:
    """Return the most cards that disjoint legal melds can cover, covering every ``must`` card.

    Exhaustive recursion on the lowest remaining card: it is either left
    out (allowed only if it is not a ``must`` card) or it is the lowest card
    of one meld built from the remaining cards with
    :func:`itertools.combinations`.  Results are memoised on the remaining
    cards within one call.

    Parameters
    ----------
    cards : list of int
        Distinct card indices available.
    max_run : int
        Longest legal run, in cards (R5).
    must : set of int
        Cards that must lie in some meld (R13: the old layout and the centre card).

    Returns
    -------
    int
        Number of cards melded, or ``-1`` if the ``must`` cards cannot all be
        melded (including when a ``must`` card is not among ``cards``).
    """
    avail = frozenset(_check_cards(cards))
    need = frozenset(must)
    if not need <= avail:
        return -1
    memo: dict[frozenset[int], int] = {}

    def solve(rest: frozenset[int]) -> int:
        if not rest:
            return 0
        if rest in memo:
            return memo[rest]
        low = min(rest)
        others = rest - {low}
        best = -1
        if low not in need:
            best = solve(others)
        for meld in _melds_with_lowest(low, others, max_run):
            sub = solve(rest - meld)
            if sub >= 0:
                best = max(best, sub + len(meld))
        memo[rest] = best
        return best

    return solve(avail)


def ref_can_meld_all(cards: list[int], max_run: int) -> bool:
    """Return True if all the cards can be split into disjoint legal melds.

    Parameters
    ----------
    cards : list of int
        Distinct card indices; no cards is trivially meldable.
    max_run : int
        Longest legal run, in cards.

    Returns
    -------
    bool
    """
    return ref_max_melded(cards, max_run, set(cards)) == len(cards)


def ref_count_partitions(cards: list[int], max_run: int) -> int:
    """Return how many ways the cards split exactly into disjoint legal melds.

    Parameters
    ----------
    cards : list of int
        Distinct card indices.
    max_run : int
        Longest legal run, in cards.

    Returns
    -------
    int
        Number of partitions into melds; 1 for no cards (the empty partition),
        0 if the cards cannot all be melded.
    """
    memo: dict[frozenset[int], int] = {}

    def count(rest: frozenset[int]) -> int:
        if not rest:
            return 1
        if rest in memo:
            return memo[rest]
        low = min(rest)
        total = sum(count(rest - m) for m in _melds_with_lowest(low, rest - {low}, max_run))
        memo[rest] = total
        return total

    return count(frozenset(_check_cards(cards)))


def ref_fits_layoff(layout: Iterable[Iterable[int]], card: int, max_run: int) -> bool:
    """Return True if ``card`` extends one meld of ``layout`` on its own (R14 ``layoff``).

    Parameters
    ----------
    layout : iterable of iterable of int
        The melds of a layout, each as card indices.
    card : int
        The card laid off; it must not already be in the layout.
    max_run : int
        Longest legal run, in cards.

    Returns
    -------
    bool
        True if some meld plus ``card`` is again a legal meld.
    """
    melds = [list(m) for m in layout]
    if any(card in m for m in melds):
        return False
    return any(ref_is_meld([*m, card], max_run) for m in melds)


def ref_random_layout(
    rng: random.Random, max_run: int, n_melds: int, avoid: Iterable[int] = ()
) -> list[list[int]]:
    """Return up to ``n_melds`` disjoint legal melds picked at random.

    Meant to build meldable card sets and layouts for tests and benchmarks
    (random card sets are seldom fully meldable).

    Parameters
    ----------
    rng : random.Random
        Source of randomness.
    max_run : int
        Longest legal run, in cards.
    n_melds : int
        Number of melds to try to place; a meld that would reuse a card is skipped.
    avoid : iterable of int
        Cards no meld may use.

    Returns
    -------
    list of list of int
        The melds, each a sorted list of card indices.
    """
    used = set(avoid)
    out: list[list[int]] = []
    pool = _sorted_melds(max_run)
    for _ in range(n_melds):
        meld = rng.choice(pool)
        if used.isdisjoint(meld):
            out.append(sorted(meld))
            used |= meld
    return out


@functools.cache
def _sorted_melds(max_run: int) -> tuple[frozenset[int], ...]:
    return tuple(sorted(ref_all_melds(max_run), key=sorted))
