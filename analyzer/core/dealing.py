"""New deals and what one player sees of a deal: :func:`deal` (R8) and :func:`view` (R6, R9)."""

from __future__ import annotations

import random
from typing import Any

from analyzer.core.errors import ConquianError, PositionError
from analyzer.core.rules import Exchange, Rules, get_rules
from analyzer.core.state import GameState, Offer, Phase

__all__ = ["deal", "state_fields", "view"]


def state_fields(state: GameState) -> dict[str, Any]:
    """The fields of ``state`` by name, to build a changed copy with every check skipped."""
    return {name: getattr(state, name) for name in GameState.__dataclass_fields__}


def view(state: GameState, player: int) -> GameState:
    """What ``player`` can know (R6, R9): other hands hidden, the stock order hidden.

    He keeps his own hand, every layout, the dead cards, the counts, the
    history of pays (``paid``), the card he passed in the exchange and the
    one he received from the player before him (R9); the other passes are hidden.

    Raises
    ------
    PositionError
        If ``player`` is not a seat of this variant.
    """
    if not 0 <= player < state.rules.players:
        raise PositionError(f"no player {player} in {state.rules.name}")
    hands = tuple(h if p == player else None for p, h in enumerate(state.hands))
    gifts = tuple(g if p == player else None for p, g in enumerate(state.gifts))
    n = state.rules.players
    gave = tuple(g if player in (p, (p + 1) % n) else None for p, g in enumerate(state.gave))
    return GameState(
        **{**state_fields(state), "hands": hands, "stock": None, "gifts": gifts, "gave": gave}
    )


def deal(
    rules: Rules | str, seed: int | random.Random | None = None, dealer: int | None = None
) -> GameState:
    """Shuffle and deal a new game (R8), with the stock order known.

    Parameters
    ----------
    rules : Rules or str
        The variant.
    seed : int or random.Random, optional
        The same seed gives the same deal.
    dealer : int, optional
        The dealer; drawn with the seed when omitted.  The shuffle is the seed's
        either way, so naming the dealer the seed draws gives the same deal.

    Returns
    -------
    GameState
        In the exchange phase (R9) when the variant has one, else ready to turn, or offering
        the upcard (R10a) in a variant that turns one at the deal.
    """
    rules = get_rules(rules)
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    n = rules.players
    drawn = rng.randrange(n)  # drawn even when given, so naming a dealer keeps the seed's shuffle
    if dealer is None:
        dealer = drawn
    elif not 0 <= dealer < n:
        raise ConquianError(f"no player {dealer} to deal in {rules.name}")
    deck = list(range(40))
    rng.shuffle(deck)
    hands = [0] * n
    for k in range(n * rules.hand_size):  # one at a time, from the player after the dealer
        hands[(dealer + 1 + k) % n] |= 1 << deck[k]
    stock = tuple(deck[n * rules.hand_size :])
    exchange = rules.exchange is not Exchange.NONE
    centre = None
    if rules.upcard:  # R10a: the dealer turns the next card up, before any exchange
        centre, stock = Offer(stock[0], "upcard", dealer), stock[1:]
    return GameState(
        rules=rules,
        dealer=dealer,
        hands=tuple(hands),
        counts=tuple(rules.hand_size for _ in range(n)),
        layouts=tuple(() for _ in range(n)),
        stock=stock,
        stock_count=len(stock),
        dead=(),
        centre=centre,
        to_act=(dealer + 1) % n,
        phase=Phase.EXCHANGE if exchange else Phase.TURN if centre is None else Phase.OFFER,
        gifts=(None,) * n if exchange else (),
    )
