"""Cached facts of hands and layouts behind the move generator: what fits a layout (R14),
which takes a card allows (R13, R15), which players may be forced, who can meld from his hand (R16).

Every function is a pure function of masks and rules, cached because the searches call them
millions of times.
"""

from __future__ import annotations

from functools import lru_cache

from analyzer.core.cards import iter_mask
from analyzer.core.melds import (
    can_meld_all,
    cards_of,
    covers,
    layoff_mask,
    melds_by_lowest,
)
from analyzer.core.moves import Take
from analyzer.core.rules import ForceFit, ForceWhen, Rearrange, Rules

__all__ = ["borrow_fault", "borrow_ok", "core_ok", "fits_layout"]


def borrow_ok(old: tuple[int, ...], new: tuple[int, ...]) -> bool:
    """True if ``new`` keeps each meld of ``old`` as Foster's borrowing allows (R13a).

    Each old meld stays in one new meld (its *core*; no two old melds share one) and may lend
    cards, each to a different other meld: one card of a set of four; end cards of a run, as
    long as three in sequence stay; never a middle card of a run, nothing from a meld of three.
    Masks only: every card of ``old`` must be in ``new``.
    """
    return borrow_fault(old, new) is None


def borrow_fault(old: tuple[int, ...], new: tuple[int, ...]) -> tuple[str, int, int] | None:
    """The first way ``new`` breaks the borrowing of :func:`borrow_ok` (R13a), or ``None``:
    ``("split", meld, 0)`` (two groups of its cards: a run cut in the middle, a set 2 + 2),
    ``("lent", meld, 0)`` (every card lent), ``("merged", meld, other)`` (it and the old meld
    ``other`` in one new meld) or ``("core", meld, core)`` (:func:`core_ok` refuses ``core``)."""
    homes: dict[int, int] = {}
    for meld in old:
        core = 0
        home = -1
        for k, part in enumerate(new):
            got = part & meld
            if got & (got - 1):  # two cards or more of this meld together: its core
                if core:
                    return ("split", meld, 0)
                core, home = got, k
        if not core:
            return ("lent", meld, 0)
        if home in homes:
            return ("merged", meld, homes[home])
        homes[home] = meld
        if not core_ok(meld, core):
            return ("core", meld, core)
    return None


def core_ok(meld: int, core: int) -> bool:
    """True if ``core``, the cards of ``meld`` that stay together, is what borrowing may leave
    of it (R13a): all of it; three of a set of four; three or more in sequence of a run (so
    only end cards were lent).  ``core`` is a subset of ``meld`` with two cards or more."""
    size, kept = meld.bit_count(), core.bit_count()
    if kept == size:
        return True
    if kept < 3:
        return False
    rank = ((meld & -meld).bit_length() - 1) // 4
    if meld & ~(0xF << 4 * rank) == 0:  # a set lends one card of four, nothing of three
        return size == 4
    low = (core & -core).bit_length() - 1
    return core == sum(1 << (low + 4 * k) for k in range(kept))


def _borrowing(rules: Rules) -> bool:
    return rules.rearrange is Rearrange.BORROW


def fits_layout(layout: tuple[int, ...], card: int, rules: Rules) -> bool:
    """True if ``card`` fits ``layout`` for forcing (R14) under ``rules.force_fit``.

    ``layoff``: it extends one meld of the chosen arrangement (R6);
    ``rearrange``: the layout's cards plus it can all be melded.
    """
    return bool(fitting_cards(layout, rules) >> card & 1)


@lru_cache(maxsize=1 << 16)
def fitting_cards(layout: tuple[int, ...], rules: Rules) -> int:
    """Mask of the cards that fit ``layout`` for forcing (R14); cached, the search is hot."""
    if rules.force_fit is ForceFit.LAYOFF:
        return layoff_mask(layout, rules)
    cards = cards_of(layout)
    out = 0
    for card in range(40):
        if cards >> card & 1:
            continue
        new = cards | 1 << card
        if _borrowing(rules):
            if any(borrow_ok(layout, lay) for lay in covers(new, new, rules)):
                out |= 1 << card
        elif can_meld_all(new, rules):
            out |= 1 << card
    return out

def fits_another(layouts: tuple[tuple[int, ...], ...], player: int, card: int, rules: Rules) -> bool:
    """True if ``card`` fits (R14) the layout of a player other than ``player``: whether its
    payer ``player`` is offered it to force with (R14a)."""
    return any(fitting_cards(lay, rules) >> card & 1 for q, lay in enumerate(layouts) if q != player)


def lay_in_layouts(layout: tuple[int, ...], card: int, rules: Rules) -> list[tuple[int, ...]]:
    """The layouts a player forced with ``card`` may make (R14): every arrangement of his melded
    cards and it, one per lay-off exposure; under ``rearrange = borrow`` every arrangement that
    borrows as R13a allows."""
    new = cards_of(layout) | 1 << card
    if _borrowing(rules):
        return [lay for lay in covers(new, new, rules) if borrow_ok(layout, lay)]
    return layouts_for(new, rules)


def grouped_layouts(
    pool: int, must: int, hand: int, rules: Rules
) -> dict[int, list[tuple[int, ...]]]:
    """Layouts melding all of ``must`` and some of ``pool``, grouped by the ``hand`` cards they use,
    one per distinct lay-off exposure within a group (R6, R13, R14).

    Own melds are freely rearranged at every take and lay-in (R13), so two
    arrangements of the same cards differ in play only by which cards can be
    laid off on them; one representative of each is kept (the first found).
    Under ``force_fit = rearrange`` the arrangement does not matter at all.
    """
    groups: dict[int, list[tuple[int, ...]]] = {}
    keys: dict[int, set[int]] = {}
    for layout in covers(pool, must, rules):
        used = cards_of(layout) & hand
        key = layoff_mask(layout, rules) if rules.force_fit is ForceFit.LAYOFF else 0
        seen = keys.setdefault(used, set())
        if key not in seen:
            seen.add(key)
            groups.setdefault(used, []).append(layout)
    return groups


def force_candidates(
    rules: Rules, me: int, kind: str, source: int, declined: tuple[int, ...]
) -> tuple[int, ...] | range:
    """Players that ``me`` may force with the centre card if it fits their layout (R14,
    ``rules.force_when``): those who declined it, or anyone else; never the payer of a paid
    card, and anyone else when ``me`` is its payer (R14a, ``discard_force``)."""
    if kind == "paid" and me == source:
        return tuple(p for p in range(rules.players) if p != me)
    if rules.force_when is ForceWhen.AFTER_DECLINE:
        if kind == "paid":
            return tuple(p for p in declined if p != me and p != source)
        return tuple(p for p in declined if p != me)
    if kind == "paid":
        return tuple(p for p in range(rules.players) if p != me and p != source)
    return tuple(p for p in range(rules.players) if p != me)


def near_cards(pool: int) -> int:
    """Mask of the cards outside ``pool`` that make a meld with some cards of ``pool`` (R4, R5).

    A card outside it gives no take to a player whose layout and hand are ``pool``
    (the cheap first test of :func:`take_moves`).  A meld that lacks only that card
    holds a three-card meld that does too (R4, R5: every legal meld has three cards
    or more, and ``max_run`` is at least 3), so it is enough to look for two cards of
    its rank, or two of its suit next to it (card index ``(rank - 1) * 4 + suit``),
    whatever the variant.
    """
    full = (1 << 40) - 1
    up, down = pool >> 4, pool << 4 & full  # the card of the next rank, of the rank below
    runs = (up & pool >> 8) | (down & pool << 8) | (up & down)
    sets = 0
    for rank in range(10):
        quad = pool >> (4 * rank) & 0xF
        if quad and quad & (quad - 1) and quad != 0xF:
            sets |= 0xF << (4 * rank)
    return (runs | sets) & full & ~pool


@lru_cache(maxsize=1 << 17)
def player_facts(layout: tuple[int, ...], hand: int, rules: Rules) -> tuple[int, int, bool]:
    """What a player's offers depend on while his layout and hand stay as they are:
    the cards that may give him a take (:func:`near_cards`), the cards that fit his
    layout for forcing (R14), and whether he can lay a meld from his hand alone (R16)."""
    near = near_cards(cards_of(layout) | hand)
    melds_alone = rules.hand_melds and has_hand_meld(hand, rules)
    return near, fitting_cards(layout, rules), melds_alone


@lru_cache(maxsize=1 << 16)
def has_hand_meld(hand: int, rules: Rules) -> bool:
    """True if some meld can be laid from ``hand`` alone (R16)."""
    by_lowest = melds_by_lowest(rules)
    return any(meld & hand == meld for x in iter_mask(hand) for meld in by_lowest[x])


def layouts_for(cards: int, rules: Rules) -> list[tuple[int, ...]]:
    """Arrangements of exactly ``cards``, one per distinct lay-off exposure (R6, R14)."""
    return grouped_layouts(cards, cards, 0, rules).get(0, [])


def index_key(mask: int) -> tuple[int, ...]:
    return tuple(iter_mask(mask))


@lru_cache(maxsize=1 << 17)
def take_moves(layout: tuple[int, ...], hand: int, card: int, rules: Rules) -> tuple[Take, ...]:
    """Every take of ``card`` by a player with this layout and hand (R13, R15), in order.

    Every arrangement of layout + centre card + some hand cards is listed,
    grouped by the hand cards used, one per lay-off exposure (R6, R14);
    each is paired with every pay card, or is going out when no hand card
    is left.  Cached: the same player situation recurs across a search.
    """
    layout_cards = cards_of(layout)
    # Most offered cards meld with nothing he has: no take, without a search.
    if not near_cards(layout_cards | hand) >> card & 1:
        return ()
    if _borrowing(rules):
        return _borrow_takes(layout, hand, card, rules)
    return takes_of(layout_cards, hand, card, rules)


def _borrow_takes(layout: tuple[int, ...], hand: int, card: int, rules: Rules) -> tuple[Take, ...]:
    """:func:`take_moves` under ``rearrange = borrow`` (R13a): the arrangements that keep the
    old melds as borrowing allows, every one (how they are arranged matters later), grouped and
    ordered as :func:`takes_of` does."""
    base = cards_of(layout) | 1 << card
    groups: dict[int, list[tuple[int, ...]]] = {}
    for new in covers(base | hand, base, rules):
        if borrow_ok(layout, new):
            groups.setdefault(cards_of(new) & hand, []).append(new)
    return _ordered_takes(groups, hand)


def _ordered_takes(groups: dict[int, list[tuple[int, ...]]], hand: int) -> tuple[Take, ...]:
    """Takes by group of hand cards used, fewest first; each layout with every pay card, or the
    group's first layout going out when no hand card is left (R15)."""
    moves: list[Take] = []
    for used in sorted(groups, key=lambda u: (u.bit_count(), index_key(u))):
        rest = hand & ~used
        if not rest:
            # Going out ends the deal: the arrangement no longer matters (R15).
            moves.append(Take(groups[used][0], None))
            continue
        for new in groups[used]:
            moves.extend(Take(new, pay) for pay in iter_mask(rest))
    return tuple(moves)


@lru_cache(maxsize=1 << 17)
def takes_of(layout_cards: int, hand: int, card: int, rules: Rules) -> tuple[Take, ...]:
    """:func:`take_moves` by the layout's cards (how they are arranged does not change what
    can be melded, R13).  Cached: the same player situation recurs across a search."""
    base = layout_cards | 1 << card
    return _ordered_takes(grouped_layouts(base | hand, base, hand, rules), hand)
