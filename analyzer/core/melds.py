"""Meld legality, the catalog of legal melds, lay-off extensions and exact
meld search without a solver (R4-R6, R14).

Melds and card sets are 40-bit masks (see :mod:`analyzer.core.cards`).  The
catalog of a ruleset lists every legal meld (50 sets, and 132 runs in
``classic`` or 144 in ``megajogos``); it is built once per ``max_run``.

The functions :func:`max_melded`, :func:`can_meld_all` and
:func:`arrangements` are the fast exact path used by the rules engine.
They are a depth-first search over the catalog: the lowest card of the
remaining set is either left unmelded or covered by a catalog meld whose
lowest card it is, memoised on the remaining mask.  The CP-SAT models in
:mod:`analyzer.solver.partition` answer the same questions and are checked
against this path and an independent brute force in the tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, lru_cache

from analyzer.core import native
from analyzer.core.cards import NUM_CARDS
from analyzer.core.rules import Rules

__all__ = [
    "arrangements",
    "best_partition",
    "can_meld_all",
    "canonical_layout",
    "cards_of",
    "catalog",
    "covers",
    "extensions",
    "fits_layoff",
    "is_meld",
    "is_run",
    "is_set",
    "layoff_mask",
    "max_melded",
    "melds_by_lowest",
    "usefulness",
]

_RANK_MASK = [0xF << (4 * r) for r in range(10)]


def is_set(mask: int) -> bool:
    """True if ``mask`` is 3 or 4 cards of one rank (R4)."""
    n = mask.bit_count()
    if n not in (3, 4):
        return False
    low = (mask & -mask).bit_length() - 1
    return mask & ~_RANK_MASK[low // 4] == 0


def is_run(mask: int, rules: Rules) -> bool:
    """True if ``mask`` is 3..``rules.max_run`` cards of one suit in consecutive ranks (R3, R5).

    The ace is low only and there is no wrap-around (R3): with indices
    ``(rank - 1) * 4 + suit`` a run is ``low, low + 4, low + 8, ...``.
    """
    n = mask.bit_count()
    if not 3 <= n <= rules.max_run:
        return False
    low = (mask & -mask).bit_length() - 1
    expected = sum(1 << (low + 4 * k) for k in range(n))
    return mask == expected and low + 4 * (n - 1) < NUM_CARDS


def is_meld(mask: int, rules: Rules) -> bool:
    """True if ``mask`` is a set (R4) or a run (R5) under ``rules``."""
    return is_set(mask) or is_run(mask, rules)


@cache
def _catalog(max_run: int) -> tuple[int, ...]:
    melds: list[int] = []
    for rank in range(10):
        four = _RANK_MASK[rank]
        melds.append(four)
        melds.extend(four & ~(1 << (4 * rank + s)) for s in range(4))
    for suit in range(4):
        for low_rank in range(10):
            for length in range(3, max_run + 1):
                if low_rank + length > 10:
                    break
                melds.append(sum(1 << (4 * (low_rank + k) + suit) for k in range(length)))
    return tuple(sorted(melds))


def catalog(rules: Rules) -> tuple[int, ...]:
    """Every legal meld under ``rules`` as masks, sorted (R4, R5).

    Returns
    -------
    tuple of int
        182 masks for ``max_run = 8``, 194 for ``max_run = 10``.
    """
    return _catalog(rules.max_run)


@cache
def _by_lowest(max_run: int) -> tuple[tuple[int, ...], ...]:
    table: list[list[int]] = [[] for _ in range(NUM_CARDS)]
    for meld in _catalog(max_run):
        table[(meld & -meld).bit_length() - 1].append(meld)
    # Larger melds first: the search finds full covers sooner.
    return tuple(tuple(sorted(t, key=lambda m: -m.bit_count())) for t in table)


def melds_by_lowest(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """The catalog indexed by each meld's lowest card index (40 tuples of masks)."""
    return _by_lowest(rules.max_run)


def extensions(meld: int, rules: Rules) -> int:
    """Cards that extend ``meld`` by lay-off without other cards (R14 ``layoff``).

    A set of three takes its fourth card; a set of four takes nothing; a run
    takes the card just below or just above it in its suit, if it is shorter
    than ``rules.max_run`` (R5) and the rank exists (R3: no wrap-around).

    Parameters
    ----------
    meld : int
        Mask of a legal meld.
    rules : Rules

    Returns
    -------
    int
        Mask of the cards that extend it.
    """
    if is_set(meld):
        if meld.bit_count() == 4:
            return 0
        rank = ((meld & -meld).bit_length() - 1) // 4
        return _RANK_MASK[rank] & ~meld
    if meld.bit_count() >= rules.max_run:
        return 0
    low = (meld & -meld).bit_length() - 1
    high = meld.bit_length() - 1
    out = 0
    if low >= 4:
        out |= 1 << (low - 4)
    if high + 4 < NUM_CARDS:
        out |= 1 << (high + 4)
    return out


def layoff_mask(layout: tuple[int, ...] | list[int], rules: Rules) -> int:
    """Union of :func:`extensions` over the melds of a layout (R6, R14).

    Judged on the arrangement the player chose (R6), not on every
    arrangement of the same cards.
    """
    out = 0
    cards = 0
    for meld in layout:
        out |= extensions(meld, rules)
        cards |= meld
    return out & ~cards


def fits_layoff(layout: tuple[int, ...] | list[int], card: int, rules: Rules) -> bool:
    """True if card index ``card`` extends one meld of ``layout`` (R14 ``layoff``)."""
    return bool(layoff_mask(layout, rules) >> card & 1)


@lru_cache(maxsize=1 << 20)
def _max_melded(mask: int, must: int, max_run: int) -> int:
    if not mask:
        return 0
    low = mask & -mask
    x = low.bit_length() - 1
    best = -1
    if not must & low:
        best = _max_melded(mask ^ low, must & ~low, max_run)
    for meld in _by_lowest(max_run)[x]:
        if meld & mask == meld:
            rest = _max_melded(mask & ~meld, must & ~meld, max_run)
            if rest >= 0 and rest + meld.bit_count() > best:
                best = rest + meld.bit_count()
                if best == mask.bit_count():
                    break
    return best


def max_melded(cards: int, rules: Rules, must: int = 0) -> int:
    """Most cards of ``cards`` that can be split into disjoint melds, melding all of ``must``.

    Parameters
    ----------
    cards : int
        Mask of the cards available.
    rules : Rules
    must : int
        Mask of cards that must be melded (R13: old layout plus centre card).

    Returns
    -------
    int
        Number of cards melded, or ``-1`` if ``must`` cannot all be melded
        (including when ``must`` is not a subset of ``cards``).
    """
    if must & ~cards:
        return -1
    if native.ACTIVE:
        return native.max_melded(cards, rules, must)
    return _max_melded(cards, must, rules.max_run)


def best_partition(cards: int, rules: Rules, must: int = 0) -> tuple[int, ...] | None:
    """A partition reaching :func:`max_melded`: the melds, sorted; ``None`` if infeasible."""
    target = max_melded(cards, rules, must)
    if target < 0:
        return None
    melds: list[int] = []
    mask, need = cards, must
    while mask and target > 0:
        low = mask & -mask
        x = low.bit_length() - 1
        for meld in _by_lowest(rules.max_run)[x]:
            if meld & mask == meld:
                rest = _max_melded(mask & ~meld, need & ~meld, rules.max_run)
                if rest >= 0 and rest + meld.bit_count() == target:
                    melds.append(meld)
                    mask &= ~meld
                    need &= ~meld
                    target = rest
                    break
        else:
            mask ^= low
    return tuple(sorted(melds))


def can_meld_all(cards: int, rules: Rules) -> bool:
    """True if every card of ``cards`` lies in some meld of one partition (R4-R6)."""
    return _max_melded(cards, cards, rules.max_run) == cards.bit_count()


def arrangements(cards: int, rules: Rules) -> Iterator[tuple[int, ...]]:
    """Every partition of ``cards`` into legal melds, each a sorted tuple of masks.

    Yields nothing if ``cards`` cannot all be melded; yields ``()`` for no cards.
    Deterministic order.  These are the :func:`covers` of ``cards`` that
    must meld all of them.
    """
    yield from covers(cards, cards, rules)


def covers(pool: int, must: int, rules: Rules) -> Iterator[tuple[int, ...]]:
    """Every set of disjoint melds inside ``pool`` that melds all of ``must`` (R13).

    Each yielded tuple of melds (sorted masks) is distinct; cards of ``pool``
    outside ``must`` may be melded or not.  This lists every take at once:
    with ``pool`` = layout + centre card + hand and ``must`` = layout +
    centre card, the hand cards used are ``cards_of(melds) & hand``.

    Parameters
    ----------
    pool : int
        Mask of the cards that may be melded.
    must : int
        Mask of the cards that must be melded.
    rules : Rules

    Yields
    ------
    tuple of int
        Melds covering ``must``, each once, in a deterministic order.
    """
    if must & ~pool:
        return
    by_low = _by_lowest(rules.max_run)
    max_run = rules.max_run
    # Cards in no catalog meld inside the pool can never be melded.
    live = 0
    rest = pool
    while rest:
        low = rest & -rest
        rest ^= low
        for meld in by_low[low.bit_length() - 1]:
            if meld & pool == meld:
                live |= meld
    if must & ~live:
        return

    seen: set[tuple[int, ...]] = set()
    for part in _walk(pool & live, must, max_run):
        key = tuple(sorted(part))
        if key not in seen:
            seen.add(key)
            yield key


@lru_cache(maxsize=1 << 18)
def _walk(rest: int, need: int, max_run: int) -> tuple[tuple[int, ...], ...]:
    """The meld covers of :func:`covers`, lowest card first: that card stays unmelded (when
    it need not be melded) or is covered by each catalog meld whose lowest card it is.
    Memoised on the cards left, so a subproblem shared by several branches or several
    takes is solved once (the list is the one a recursive generator would yield, in order)."""
    out: list[tuple[int, ...]] = []
    if not need:
        out.append(())
        if not rest:
            return tuple(out)
    if not rest:
        return ()
    low = rest & -rest
    x = low.bit_length() - 1
    if not need & low:
        # The lowest card stays unmelded.
        out.extend(t for t in _walk(rest ^ low, need, max_run) if t)
    for meld in _by_lowest(max_run)[x]:
        if meld & rest == meld:
            left, left_need = rest & ~meld, need & ~meld
            if _max_melded(left, left_need, max_run) >= 0:
                out.extend((meld, *tail) for tail in _walk(left, left_need, max_run))
    return tuple(out)


def canonical_layout(layout: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """The layout as a sorted tuple of meld masks (the same layout compares equal)."""
    return tuple(sorted(layout))


def cards_of(layout: tuple[int, ...] | list[int]) -> int:
    """Mask of all cards in a layout."""
    out = 0
    for meld in layout:
        out |= meld
    return out


def usefulness(card: int, hand: int, unseen: int, melds: tuple[int, ...]) -> int:
    """How much ``card`` helps its holder: a heuristic count, higher = keep.

    For every three-card meld of the catalog that holds ``card`` and whose
    other two cards are in the hand or still unseen, 1 point plus 2 per
    other card already in the hand.

    Parameters
    ----------
    card : int
        Card index.
    hand, unseen : int
        Card masks (the holder's other hand cards; the cards he has not seen).
    melds : tuple of int
        The catalog of the variant.

    Returns
    -------
    int
        Points, 0 for a card that fits nothing.
    """
    bit = 1 << card
    score = 0
    for meld in melds:
        if meld & bit and meld.bit_count() == 3:
            others = meld & ~bit
            if others & ~(hand | unseen) == 0:
                score += 1 + 2 * (others & hand).bit_count()
    return score
