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
from analyzer.core.rules import ForceFit, ForceWhen, Rules

__all__ = ["fits_layout"]


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
        if not cards >> card & 1 and can_meld_all(cards | 1 << card, rules):
            out |= 1 << card
    return out


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
    ``rules.force_when``): those who declined it, or anyone else but the payer of a paid card."""
    if rules.force_when is ForceWhen.AFTER_DECLINE:
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
    return takes_of(layout_cards, hand, card, rules)


@lru_cache(maxsize=1 << 17)
def takes_of(layout_cards: int, hand: int, card: int, rules: Rules) -> tuple[Take, ...]:
    """:func:`take_moves` by the layout's cards (how they are arranged does not change what
    can be melded, R13).  Cached: the same player situation recurs across a search."""
    base = layout_cards | 1 << card
    groups = grouped_layouts(base | hand, base, hand, rules)
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
