"""Sampling the hidden cards of a player's view (PIMC: perfect-information Monte Carlo).

From a player's view (his hand, every layout, the dead cards and centre
card, the hand counts, the stock count and the card he passed in the
exchange, R9) a *consistent deal* gives every hidden hand its count of
cards and orders the rest as the stock, using only the cards he has not
seen.  :func:`sample_deals` draws such deals uniformly: every consistent
deal is equally likely.  It makes no inference from the other players'
choices (a player who passed a card may still hold cards that fit it)
unless asked: ``infer=True`` draws from the deals where no other player
holds a pair that melds with a card he declined (:func:`declined_pairs`);
``weights`` draws each hidden hand by per-card weights (the reading of the
cards its player gave up, :mod:`analyzer.search.inference`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from analyzer.core import native
from analyzer.core.cards import FULL_DECK, iter_mask
from analyzer.core.errors import PositionError
from analyzer.core.melds import cards_of
from analyzer.core.state import GameState, Phase

__all__ = [
    "MAX_TRIES",
    "declined_cards",
    "declined_pairs",
    "is_consistent",
    "sample_deal",
    "sample_deals",
    "sample_world",
    "unseen_cards",
]

MAX_TRIES = 64
"""Uniform draws tried by ``sample_deal(..., infer=True)`` before it settles for the best one."""


def unseen_cards(view: GameState, player: int) -> int:
    """Mask of the cards ``player`` has not seen: not in his hand, no layout, not dead, not the centre."""
    return FULL_DECK & ~view.hand(player) & ~view.table_mask()


def _required(view: GameState, player: int, unseen: int) -> dict[int, int]:
    """Cards known to be in another hand: the card ``player`` passed in the exchange (R9)."""
    need: dict[int, int] = {}
    if view.gave and view.gave[player] is not None:
        card = view.gave[player]
        assert card is not None
        if unseen >> card & 1:
            need[(player + 1) % view.rules.players] = 1 << card
    return need


def declined_pairs(view: GameState, player: int) -> dict[int, tuple[int, ...]]:
    """For each other player whose hand is hidden: masks of the two-card pairs he would not hold
    had he taken the cards he declined (``infer=True`` of :func:`sample_deal`).

    A dead card was declined by every player it was offered to (R11, R17),
    except that the payer of a paid card was not offered it: the cards he is
    read as declining are :func:`declined_cards` (every dead card but his own
    paid ones, as the ``paid`` history tells; the centre card if he passed
    it).  A pair is two cards that make a three-card meld with the declined card.
    """
    from analyzer.core.melds import catalog

    melds3 = [m for m in catalog(view.rules) if m.bit_count() == 3]
    out: dict[int, tuple[int, ...]] = {}
    for p, hand in enumerate(view.hands):
        if p == player or hand is not None:
            continue
        cards = declined_cards(view, p)
        pairs = {m & ~(1 << c) for c in cards for m in melds3 if m >> c & 1}
        out[p] = tuple(sorted(pairs))
    return out


def declined_cards(view: GameState, player: int) -> list[int]:
    """The cards ``player`` is read as having declined (:func:`declined_pairs`): every dead card
    but those he paid himself, and the centre card if he has passed it and did not pay it.

    A paid card is offered to the players after its payer (R11), never to be taken by him (under
    R14a he is offered it first, to force with it or pass): his own paid cards say nothing of what
    he holds.  A position that does not list its ``paid`` history counts every dead card.
    """
    own = set(view.paid[player]) if view.paid and player < len(view.paid) else set()
    cards = [c for c in view.dead if c not in own]
    centre = view.centre
    own_centre = centre is not None and centre.kind == "paid" and centre.source == player
    if centre is not None and player in centre.declined and not own_centre:
        cards.append(centre.card)
    return cards


def _broken(hands: list[int | None], pairs: dict[int, tuple[int, ...]]) -> int:
    """How many declined-card facts a deal breaks (pairs held)."""
    count = 0
    for p, masks in pairs.items():
        hand = hands[p] or 0
        count += sum(1 for m in masks if m & hand == m)
    return count


def sample_deal(
    view: GameState,
    player: int,
    rng: random.Random,
    *,
    infer: bool = False,
    pairs: dict[int, tuple[int, ...]] | None = None,
    weights: Mapping[int, Sequence[float]] | None = None,
) -> GameState:
    """One consistent deal of the hidden cards, uniform over all of them (module docstring).

    With ``infer`` the deal is drawn from those where no other player holds a
    pair of cards that melds with a card he declined (:func:`declined_pairs`).

    Parameters
    ----------
    view : GameState
        ``player``'s view: his hand known; other hands may be hidden.
    player : int
        Whose knowledge the sample respects.
    rng : random.Random
    infer : bool
        Draw from the deals consistent with the other players' declines.
    pairs : dict, optional
        With ``infer``: ``declined_pairs(view, player)`` computed once by a
        caller that samples the same view many times (IS-MCTS).
    weights : mapping of int to sequence of float, optional
        Per hidden player, a weight in (0, 1] per card index: his hand is
        drawn card by card in proportion to the weights of the cards left
        (the paid-card reading, :func:`analyzer.search.inference.infer_weights`); a
        player not in it, and every card of the stock, uniformly.  ``None``:
        uniform (the same draws as before the reading existed).

    Returns
    -------
    GameState
        Every hand known and the stock order known.

    Raises
    ------
    PositionError
        If ``player``'s hand is hidden or the counts do not fit the unseen
        cards (an impossible view).
    """
    if native.ACTIVE and 0 <= player < view.rules.players and view.hands[player] is not None:
        return _native_sample(view, player, rng, infer, weights, world=False, ordered=True)
    if not infer:
        pairs = {}
    elif pairs is None:
        pairs = declined_pairs(view, player)
    best: GameState | None = None
    fewest = -1
    for _ in range(MAX_TRIES if pairs else 1):
        deal = _draw(view, player, rng, weights)
        broken = _broken(list(deal.hands), pairs) if pairs else 0
        if best is None or broken < fewest:
            best, fewest = deal, broken
        if broken == 0:
            break
    assert best is not None
    return best


def _draw(
    view: GameState,
    player: int,
    rng: random.Random,
    weights: Mapping[int, Sequence[float]] | None = None,
) -> GameState:
    """One consistent deal: uniform, or with ``weights`` each hidden hand drawn card by card in
    proportion to its player's weight of each card left (successive sampling, keyed as in
    Efraimidis and Spirakis, "Weighted random sampling with a reservoir", IPL 2006)."""
    unseen = unseen_cards(view, player)
    for hand in view.hands:
        if hand is not None:
            unseen &= ~hand  # a hand the view shows is known, not to be dealt again
    need = _required(view, player, unseen)
    free = unseen
    for mask in need.values():
        free &= ~mask
    cards = list(iter_mask(free))
    rng.shuffle(cards)
    hands = list(view.hands)
    pos = 0
    for p in range(view.rules.players):
        if hands[p] is not None:
            continue
        fixed = need.get(p, 0)
        take = view.counts[p] - fixed.bit_count()
        if take < 0 or pos + take > len(cards):
            raise PositionError("the hidden hand counts do not fit the unseen cards")
        weight = weights.get(p) if weights else None
        if weight is not None and take:
            # The cards left, best key first: key log(u) / w, the larger the likelier.
            rest = cards[pos:]
            rnd = rng.random
            keyed = sorted(rest, key=lambda c: math.log(1.0 - rnd()) / weight[c], reverse=True)
            cards[pos:] = keyed
        mask = fixed
        for card in cards[pos : pos + take]:
            mask |= 1 << card
        hands[p] = mask
        pos += take
    if any(mask for q, mask in need.items() if view.hands[q] is not None):
        raise PositionError("the card passed in the exchange is not where the view says")
    rest = cards[pos:]
    if weights:
        rng.shuffle(rest)  # the last weighted hand left the rest in its key order
    stock = tuple(rest)
    if len(stock) != view.stock_count:
        raise PositionError(
            f"the view has {view.stock_count} stock cards but {len(stock)} unseen cards are left for it"
        )
    return GameState(
        view.rules, view.dealer, tuple(hands), view.counts, view.layouts, stock, len(stock),
        view.dead, view.centre, view.to_act, view.phase, view.winner, view.gifts, view.gave,
        view.paid,
    )  # fmt: skip


def sample_deals(
    view: GameState,
    player: int,
    count: int,
    seed: int | random.Random = 0,
    *,
    infer: bool = False,
) -> Iterator[GameState]:
    """``count`` independent consistent deals (see :func:`sample_deal`), reproducible with ``seed``."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    for _ in range(count):
        yield sample_deal(view, player, rng, infer=infer)


def is_consistent(sample: GameState, view: GameState, player: int) -> bool:
    """True if ``sample`` agrees with everything ``player`` knows in ``view``."""
    if sample.hands[player] != view.hands[player] or sample.counts != view.counts:
        return False
    if (sample.layouts, sample.dead, sample.centre, sample.stock_count) != (
        view.layouts, view.dead, view.centre, view.stock_count,
    ):  # fmt: skip
        return False
    seen = view.hand(player) | view.table_mask()
    total = 0
    for p, hand in enumerate(sample.hands):
        if hand is None or hand.bit_count() != view.counts[p]:
            return False
        if p != player and hand & seen:
            return False
        if total & hand:
            return False
        total |= hand
    for card in sample.stock or ():
        if seen >> card & 1 or total >> card & 1:
            return False
        total |= 1 << card
    need = _required(view, player, unseen_cards(view, player))
    return all(sample.hands[q] is not None and sample.hands[q] & m for q, m in need.items())  # type: ignore[operator]


def sample_world(
    view_state: GameState,
    player: int,
    rng: random.Random,
    *,
    infer: bool = False,
    pairs: dict[int, tuple[int, ...]] | None = None,
    ordered: bool = False,
    weights: Mapping[int, Sequence[float]] | None = None,
) -> GameState:
    """A whole deal consistent with ``player``'s view, for a :meth:`Match.from_position`.

    Hidden hands are drawn by :func:`analyzer.search.sampling.sample_deal`
    (uniform; with ``infer`` from the deals consistent with the others'
    declines, ``pairs`` as there; ``weights``: the paid-card reading, as
    there); hidden exchange gifts (R9) uniformly from
    the hand that holds them.  The stock order is left to chance, or with
    ``ordered`` drawn uniformly too (a whole deal with every card placed, for
    searches that play several moves on the same deal).

    Raises
    ------
    PositionError
        If the view is impossible (the counts do not fit the unseen cards).
    """
    if native.ACTIVE and 0 <= player < view_state.rules.players and view_state.hands[player] is not None:
        return _native_sample(view_state, player, rng, infer, weights, world=True, ordered=ordered)
    world = sample_deal(view_state, player, rng, infer=infer, pairs=pairs, weights=weights)
    n = world.rules.players
    hands = [h or 0 for h in world.hands]
    changes: dict[str, Any] = {} if ordered else {"stock": None}
    if world.phase is Phase.EXCHANGE:
        gifts: list[int | None] = list(view_state.gifts) if view_state.gifts else [None] * n
        for q, g in zip(range(n), chosen_gifts(view_state), strict=True):
            if g is None and q != player:
                gifts[q] = rng.choice(list(iter_mask(hands[q])))
        changes["gifts"] = tuple(gifts)
    elif world.gave:
        gave = list(world.gave)
        for q in range(n):
            # A hidden pass is drawn from its receiver's cards.  The pass the viewer received
            # from a hidden hand is shown in his view (R9) but drawn and dropped all the same,
            # so that the random stream, and a seeded search's deals, are those of the views
            # that hid it.
            received = (q + 1) % n == player and view_state.hands[q] is None
            if gave[q] is None or received:
                holder = (q + 1) % n
                pool = hands[holder] | cards_of(world.layouts[holder])
                drawn = rng.choice(list(iter_mask(pool))) if pool else None
                if gave[q] is None:
                    gave[q] = drawn
        changes["gave"] = tuple(gave)
    return world.evolve(**changes)


def _native_sample(
    view: GameState,
    player: int,
    rng: random.Random,
    infer: bool,
    weights: Mapping[int, Sequence[float]] | None,
    *,
    world: bool,
    ordered: bool,
) -> GameState:
    """:func:`sample_deal` (or :func:`sample_world`) by the native core: the same draws from
    ``rng``, the same deal (``pairs`` are the view's :func:`declined_pairs`, found again).

    Raises
    ------
    PositionError
        If the view is impossible.
    """
    table = [list(weights[p]) if p in weights else None for p in range(view.rules.players)] if weights else None
    options: native.SampleOptions = {"player": player, "rng": native.rng_state(rng), "infer": infer,
                                      "weights": table, "world": world, "ordered": ordered}  # fmt: skip
    try:
        data: native.SampleData = native.native_module().sample(
            native.pack_rules(view.rules), native.pack_state(view), options
        )
    except ValueError as exc:
        raise PositionError(str(exc)) from None
    native.set_rng_state(rng, data["rng"])
    return native.unpack_state(view.rules, data["state"], GameState)


def chosen_gifts(state: GameState) -> list[int | None]:
    """Per seat in the exchange: his gift if chosen and shown, ``None`` if hidden, ``-1`` if not yet chosen.

    The exchange is played in turn order from the player after the dealer (R9):
    the seats before the one to act have chosen.
    """
    n = state.rules.players
    order = [(state.dealer + 1 + k) % n for k in range(n)]
    done = set(order[: order.index(state.to_act)])
    gifts = state.gifts or (None,) * n
    return [gifts[q] if q in done else -1 for q in range(n)]
