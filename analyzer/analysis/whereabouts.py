"""What can the others hold: per card a player cannot see, the chance that it is in each other
player's hand or in the stock, from the sampler the hint draws its deals with.

The hint (:func:`analyzer.analysis.advisor.advise`) draws the hidden cards of the player's view
with :func:`analyzer.search.sampling.sample_deal`, as its engine says:

* the card the player passed in the exchange is in the next player's hand (R9) until shown;
* ``infer`` (``v2``): deals where another player holds two cards that make a meld with a card he
  declined are avoided (he would have taken it, R11, R12, R17;
  :func:`analyzer.search.sampling.declined_pairs`);
* ``read`` (off by default): each hidden hand is drawn by the weights of the cards its player
  was seen to give up (:mod:`analyzer.search.inference`).

:func:`whereabouts` answers with the chances of that same sampler.  Where it is uniform (no
weights, and no declined card with two unseen partners), every free unseen card is in a place
with a chance proportional to the place's count, computed exactly; else the chances are the
frequencies over a seeded number of draws.  Either way a card's chances sum to 1 and a place's
chances sum to its count (each draw fills every place with its count of cards).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from analyzer.analysis.engines import DEFAULT_ENGINE, ENGINES, Engine, engine_for
from analyzer.core.cards import Labels, counted, format_card, iter_mask
from analyzer.core.dealing import view as view_of
from analyzer.core.errors import ConquianError, PositionError
from analyzer.core.melds import catalog
from analyzer.core.state import GameState
from analyzer.search.inference import infer_weights, read_cards
from analyzer.search.sampling import declined_cards, sample_deal, unseen_cards

__all__ = ["DEFAULT_CARD_SAMPLES", "STOCK", "Whereabouts", "basis_text", "whereabouts"]

DEFAULT_CARD_SAMPLES = 4_000
"""Deals drawn where the chances are sampled: a chance's standard error is at most 0.8 points
(sqrt(0.25 / 4000)); about a quarter of a second with the native core."""

STOCK = -1
"""The place "stock" among :attr:`Whereabouts.places` (the others are seats)."""


@dataclass(frozen=True, slots=True)
class Whereabouts:
    """Where the cards ``player`` cannot see may be (module docstring).

    Attributes
    ----------
    player : int
        Whose view.
    places : tuple of int
        The other seats, in seat order, then :data:`STOCK`.
    counts : tuple of int
        Cards in each place.
    chances : dict of int to tuple of float
        Per unseen card index, ascending: the chance it is in each place (``places`` order),
        summing to 1.
    possible : dict of int to tuple of bool
        Per unseen card: whether each place can hold it at all (False only where the exchange
        put it in another hand, R9).
    exact : bool
        True when the chances are computed, not sampled.
    samples : int
        Deals drawn (0 when ``exact``).
    seed : int
    engine : str
        The engine whose sampler it is, by its version name (``v3``, ``v2``, ``v1``; a public value
        of the JSON answer, :attr:`~analyzer.analysis.engines.Engine.name`).
    infer : bool
        The sampler avoids the deals that break a decline (``Engine.infer``).
    read : bool
        The sampler reads the hidden hands from the cards given up (``Engine.read``).
    declined : dict of int to tuple of int
        With ``infer``: per seat, the cards he declined that rule hands out (each with two unseen
        cards that make a meld with it); empty otherwise.
    paid : dict of int to tuple of int
        With ``read``: per seat, the cards he gave up that his hand was read from.
    exchange : dict of int to int
        Per seat, the card ``player`` passed him in the exchange, still unseen: his for sure.
    """

    player: int
    places: tuple[int, ...]
    counts: tuple[int, ...]
    chances: dict[int, tuple[float, ...]]
    possible: dict[int, tuple[bool, ...]]
    exact: bool
    samples: int
    seed: int
    engine: str
    infer: bool
    read: bool
    declined: dict[int, tuple[int, ...]]
    paid: dict[int, tuple[int, ...]]
    exchange: dict[int, int]


def whereabouts(
    state: GameState,
    player: int | None = None,
    *,
    engine: str | Engine = DEFAULT_ENGINE,
    samples: int | None = None,
    seed: int = 0,
) -> Whereabouts:
    """The chance that each card ``player`` cannot see is in each other hand or the stock.

    Parameters
    ----------
    state : GameState
        A position where ``player``'s hand is known (any phase: a turn, R10, too); other hands,
        if given, are hidden first (his view, :func:`analyzer.core.dealing.view`).
    player : int, optional
        Whose view; default the player to act.
    engine : str or Engine
        The hint engine whose sampler to follow (``auto``: the one the hint uses on ``state``).
    samples : int, optional
        Deals to draw where the chances are sampled (:data:`DEFAULT_CARD_SAMPLES`).
    seed : int
        Same seed, same draws.

    Returns
    -------
    Whereabouts

    Raises
    ------
    PositionError
        If ``player`` is not a seat or his hand is hidden, or the hidden counts do not fit the
        unseen cards.
    ConquianError
        If the engine is unknown or ``samples`` is not a whole number of at least 1.
    """
    n = state.rules.players
    player = state.to_act if player is None else player
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
        raise PositionError(f"no player {player} in {state.rules.name}: seats 0 to {n - 1}")
    if state.hands[player] is None:
        raise PositionError(
            f"player {player}'s hand is hidden in this position: his view needs his hand"
        )
    if samples is None:
        samples = DEFAULT_CARD_SAMPLES
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ConquianError(f"samples must be a whole number of at least 1, got {samples!r}")
    found = engine_for(engine, state.rules)
    mine = view_of(state, player)
    weights = infer_weights(mine, player) if found.read else None
    unseen = unseen_cards(mine, player)
    exchange = _exchange(mine, player, unseen)
    free = unseen & ~sum(1 << c for c in exchange.values())
    seats = tuple(q for q in range(n) if q != player)
    places = (*seats, STOCK)
    counts = (*(mine.counts[q] for q in seats), mine.stock_count)
    if sum(counts) != unseen.bit_count():
        raise PositionError("the hidden hand counts do not fit the unseen cards")
    declined = _declined(mine, player, free, exchange) if found.infer else {}
    possible = {
        c: tuple(c not in exchange.values() or exchange.get(place) == c for place in places)
        for c in iter_mask(unseen)
    }
    exact = weights is None and not declined
    if exact:
        chances = _uniform(places, counts, free, exchange)
    else:
        chances = _sampled(mine, player, places, unseen, found, weights, samples, seed)
    return Whereabouts(
        player, places, counts, chances, possible, exact, 0 if exact else samples, seed,
        found.name, found.infer, found.read, declined,
        read_cards(mine, player) if weights else {}, exchange,
    )  # fmt: skip


def _exchange(view: GameState, player: int, unseen: int) -> dict[int, int]:
    """The card ``player`` passed in the exchange, by its receiver, while unseen (R9): the
    sampler's required card (:func:`analyzer.search.sampling.sample_deal`)."""
    card = view.gave[player] if view.gave else None
    if card is None or not unseen >> card & 1:
        return {}
    return {(player + 1) % view.rules.players: card}


def _declined(
    view: GameState, player: int, free: int, exchange: dict[int, int]
) -> dict[int, tuple[int, ...]]:
    """Per other seat, the cards he declined (:func:`analyzer.search.sampling.declined_cards`:
    every dead card but his own paid ones, the centre card if he passed it) that have two cards he could
    hold making a three-card meld with them: those rule hands out."""
    melds3 = [m for m in catalog(view.rules) if m.bit_count() == 3]
    out: dict[int, tuple[int, ...]] = {}
    for q in range(view.rules.players):
        if q == player:
            continue
        cards = declined_cards(view, q)
        could = free | (1 << exchange[q] if q in exchange else 0)
        used = tuple(
            c for c in dict.fromkeys(cards)
            if any(m >> c & 1 and (m & ~(1 << c)) & ~could == 0 for m in melds3)
        )  # fmt: skip
        if used:
            out[q] = used
    return out


def _uniform(
    places: tuple[int, ...], counts: tuple[int, ...], free: int, exchange: dict[int, int]
) -> dict[int, tuple[float, ...]]:
    """The uniform sampler's chances, exactly: a free card is in a place with the chance of the
    place's free slots among the free cards; an exchange card is its receiver's."""
    slots = [count - (1 if place in exchange else 0) for place, count in zip(places, counts, strict=True)]
    total = free.bit_count()
    chances: dict[int, tuple[float, ...]] = {}
    for c in iter_mask(free):
        chances[c] = tuple(s / total for s in slots)
    for q, c in exchange.items():
        chances[c] = tuple(1.0 if place == q else 0.0 for place in places)
    return dict(sorted(chances.items()))


def _sampled(
    view: GameState,
    player: int,
    places: tuple[int, ...],
    unseen: int,
    engine: Engine,
    weights: dict[int, tuple[float, ...]] | None,
    samples: int,
    seed: int,
) -> dict[int, tuple[float, ...]]:
    """The sampler's chances as frequencies over ``samples`` seeded draws."""
    rng = random.Random(seed)
    index = {place: k for k, place in enumerate(places)}
    tally = {c: [0] * len(places) for c in iter_mask(unseen)}
    stock = index[STOCK]
    for _ in range(samples):
        deal = sample_deal(view, player, rng, infer=engine.infer, weights=weights)
        held = 0
        for q, hand in enumerate(deal.hands):
            if q == player or hand is None:
                continue
            held |= hand
            k = index[q]
            for c in iter_mask(hand):
                tally[c][k] += 1
        for c in iter_mask(unseen & ~held):
            tally[c][stock] += 1
    return {c: tuple(t / samples for t in row) for c, row in tally.items()}


def basis_text(found: Whereabouts, labels: Labels) -> str:
    """What the chances rest on, in a player's words: the sampler's engine, the exchange card,
    the declines and the cards given up that it used, and whether it is exact or sampled."""

    def cards(seq: tuple[int, ...]) -> str:
        return " ".join(format_card(c, labels) for c in seq)

    known = ENGINES.get(found.engine)
    name = known.label if known is not None else found.engine
    parts = [f"Drawn as the hint's engine {name} draws its deals, from player {found.player}'s view"]
    for q, card in found.exchange.items():
        parts.append(f"player {q} holds {format_card(card, labels)}, passed to him in the exchange (R9)")
    if found.declined:
        who = "; ".join(f"player {q} declined {cards(c)}" for q, c in found.declined.items())
        parts.append(
            f"a hand with two cards that make a meld with a card its player declined is avoided "
            f"({who}; R11, R17)"
        )
    elif found.infer:
        parts.append("no declined card rules a hand out (none has two unseen partners)")
    else:
        parts.append("the declines are not used (this engine draws the hands uniformly)")
    if found.paid:
        who = "; ".join(f"player {q} gave up {cards(c)}" for q, c in found.paid.items())
        parts.append(f"cards that meld with a card a player gave up are drawn less often ({who})")
    elif found.read:
        parts.append("no other player gave up a card seen, so nothing was read")
    else:
        parts.append("the cards given up are not read (the engine's read option is off)")
    how = (
        "exact: each free unseen card is in a place in proportion to its count"
        if found.exact
        else f"sampled: frequencies over {counted(found.samples, 'drawn deal')} (seed {found.seed})"
    )
    return f"{parts[0]}: {'; '.join(parts[1:])}. Chances {how}."
