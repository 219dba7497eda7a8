"""The rules' checks of a whole position: counts (R7, R15), the deck (R1), melds (R4-R6),
the offer order (R11), forcing (R14) and the pay history (R13, R17).

:func:`validated` is what makes a :class:`~analyzer.core.state.GameState` built from
outside (a file, a notation, a puzzle) one the rules can reach.
"""

from __future__ import annotations

from analyzer.core.cards import counted, format_card
from analyzer.core.dealing import state_fields
from analyzer.core.errors import PositionError
from analyzer.core.legal import fits_another
from analyzer.core.offers import Offer, Phase, offer_order
from analyzer.core.rules import ForceWhen
from analyzer.core.state import GameState

__all__ = ["check_paid", "default_to_act", "validated"]


def check_paid(state: GameState) -> None:
    """Each card a player paid (R13, R14) was offered to the others: it is face up now, dead
    (R17) or in another player's layout, or it is the centre card he paid, his last pay; it was
    paid once; and each pay followed a take or lay-in (R13, R14) that put one centre card in his
    layout, beside at least two of his own cards (a meld has three, R4, R5): so he paid at most
    his melded cards less two, and a layout holds at most that many cards the others paid."""
    if not state.paid:
        return
    labels = state.rules.labels
    seen: dict[int, int] = {}
    c = state.centre
    centre = c.card if c is not None else -1
    for p, cards in enumerate(state.paid):
        for card in cards:  # a card listed twice first: it explains a count too high
            if card in seen:
                where = "twice" if seen[card] == p else f"by player {seen[card]} too"
                raise PositionError(
                    f"players[{p}].paid: {format_card(card, labels)} is listed {where}; "
                    "a card is paid once"
                )
            seen[card] = p
        takes = max(0, state.melded(p) - 2)
        if len(cards) > takes:
            raise PositionError(
                f"players[{p}].paid lists {counted(len(cards), 'card')}, but with "
                f"{counted(state.melded(p), 'card')} melded he took at most {takes} (each pay "
                "follows a take, R13)"
            )
        last_dead = -1
        for k, card in enumerate(cards):
            text = format_card(card, labels)
            if card == centre and c is not None:
                if c.kind != "paid" or c.source != p:
                    how = (
                        "turned from the stock"
                        if c.kind != "paid"
                        else f"paid by player {c.source}"
                    )
                    raise PositionError(
                        f"players[{p}].paid: {text} is the centre card, {how} (R10, R13)"
                    )
                if k != len(cards) - 1:
                    raise PositionError(
                        f"players[{p}].paid: {text} is the centre card, so his last pay; the "
                        "list is oldest first"
                    )
            if any(m >> card & 1 for m in state.layouts[p]):
                raise PositionError(
                    f"players[{p}].paid: {text} is in his own layout; a paid card is offered to the "
                    f"other players (R13)"
                )
            if card in state.dead:
                # A paid card nobody takes dies at once (R17): his pays die in the order he paid.
                at = state.dead.index(card)
                if at < last_dead:
                    raise PositionError(
                        f"players[{p}].paid: {text} died before "
                        f"{format_card(state.dead[last_dead], labels)}, which is listed before it; "
                        "the list is oldest first, as the dead cards are (R17)"
                    )
                last_dead = at
            others = any(m >> card & 1 for q, lay in enumerate(state.layouts) for m in lay if q != p)
            if card != centre and card not in state.dead and not others:
                raise PositionError(
                    f"players[{p}].paid: {text} is not face up; a paid card is the centre card, "
                    f"dead or in another player's layout (R13, R17)"
                )
    for q in range(state.rules.players):
        taken = sum(1 for card, p in seen.items() if any(m >> card & 1 for m in state.layouts[q]))
        takes = max(0, state.melded(q) - 2)
        if taken > takes:
            raise PositionError(
                f"player {q}'s layout holds {taken} cards the others paid, but with "
                f"{state.melded(q)} cards melded he took at most {takes} (one centre card per "
                "take, R13)"
            )


def default_to_act(state: GameState) -> int:
    """The player to act that the phase and the offer name, for a position that omits ``to_act`` (R9-R14)."""
    n = state.rules.players
    if state.phase is Phase.EXCHANGE:
        seats = [(state.dealer + 1 + k) % n for k in range(n)]
        waiting = [p for p in seats if not state.gifts or state.gifts[p] is None]
        return waiting[0] if waiting else seats[0]
    if state.centre is None:
        return (state.dealer + 1) % n
    if state.centre.forced is not None:
        return state.centre.forced
    order = offer_order(state.rules, state.centre)
    k = len(state.centre.declined)
    return order[k] if k < len(order) else order[-1]


def validated(state: GameState) -> GameState:
    """Check that the rules can reach ``state``, a position built from outside (a file, a
    notation, a puzzle), and return it with its end named where the deal is over.

    The checks, in this order: hand and layout counts (R7, R15); the cards passed in the
    exchange, out of the passer's hand, passed once, in the receiver's hand or melded or paid
    by him (R9); one winner at most (R15) and 40 cards in all (R1); no centre card once a
    player has gone out (R15); the dealer's upcard (R10a); an exchange before any card is
    turned, its choices in turn order (R9); no meld before any card is turned and the first
    card turned by the player after the dealer (R10, R16); then the centre card: a pay follows
    a meld (R13, R14), a turned card came from the stock (R10, R10a), while the deal's first
    centre card is offered only the players it reached have melds, from their hands (R10,
    R10a, R16), the declined players follow the offer order (R11, R14a), the
    forced player fits and acts (R14), the player to act is the next offered (R11), and a
    card declined by all is dead (R17).

    Returns
    -------
    GameState
        ``state`` itself, or where a player has gone out (R15) or the stock ran out with no
        centre card (R18) a copy in :attr:`Phase.OVER` with its ``winner``.

    Raises
    ------
    PositionError
        Naming the first rule the position breaks.
    """
    n = state.rules.players
    melded = [state.melded(p) for p in range(n)]
    winners = [p for p in range(n) if melded[p] == state.rules.target]
    _check_counts(state, melded, winners)
    _check_gifts(state)
    _check_total(state, melded, winners)
    if winners:
        if state.centre is not None:
            raise PositionError(f"player {winners[0]} has gone out: there is no centre card (R15)")
        return GameState(**{**state_fields(state), "phase": Phase.OVER, "winner": winners[0]})
    if state.centre is not None and state.centre.kind == "upcard":
        _check_upcard(state, melded)
    if state.phase is Phase.EXCHANGE:
        _check_exchange(state, melded)
        return state
    if state.centre is None:
        return _without_centre(state, melded)
    _check_centre(state, state.centre)
    return state


def _check_counts(state: GameState, melded: list[int], winners: list[int]) -> None:
    """Each player's hand and layout add up to a hand (R7), or a full layout to the target with
    an empty hand (R15)."""
    rules = state.rules
    for p in range(rules.players):
        if melded[p] > rules.target or (melded[p] == rules.target and state.counts[p] != 0):
            raise PositionError(
                f"player {p} has {melded[p]} cards melded and {state.counts[p]} in hand: "
                f"impossible in {rules.name} (R7, R15)"
            )
        if p not in winners and state.counts[p] + melded[p] != rules.hand_size:
            raise PositionError(
                f"player {p} has {counted(state.counts[p], 'card')} in hand and {melded[p]} melded: "
                f"they must add up to {rules.hand_size} (R7)"
            )


def _check_gifts(state: GameState) -> None:
    """The cards passed in the exchange (R9): out of the passer's hand, none passed twice, and
    each in the receiver's hand or face up by his own meld or pay."""
    labels = state.rules.labels
    for p, given in enumerate(state.gave):
        hand = state.hands[p]
        if given is not None and hand is not None and hand >> given & 1:
            raise PositionError(
                f"player {p} passed {format_card(given, labels)} in the exchange, "
                f"but it is still in his hand (R9)"
            )
    passers: dict[int, int] = {}
    for p, given in enumerate(state.gave):
        if given is None:
            continue
        if given in passers:
            raise PositionError(
                f"players {passers[given]} and {p} both passed {format_card(given, labels)} in "
                "the exchange: each passes a card of his own hand, so no card is passed twice (R9)"
            )
        passers[given] = p
        _check_gift(state, p, given)


def _check_gift(state: GameState, p: int, given: int) -> None:
    """Player ``p`` passed ``given`` to the next player (R9), whose hand only loses cards to the
    table: the card is in the receiver's hand or face up, never in a third hand or the stock;
    face up, it left the receiver's hand the only ways a hand card can, melded or paid by him."""
    labels = state.rules.labels
    receiver = (p + 1) % state.rules.players
    face_up = state.table_mask() >> given & 1
    known = state.hands[receiver]
    elsewhere = [
        f"player {q}'s hand" for q, hand in enumerate(state.hands)
        if q not in (p, receiver) and hand is not None and hand >> given & 1
    ] + (["the stock"] if state.stock is not None and given in state.stock else [])  # fmt: skip
    if not face_up and (elsewhere or (known is not None and not known >> given & 1)):
        where = elsewhere[0] if elsewhere else f"not in player {receiver}'s hand"
        raise PositionError(
            f"players[{p}].gave: {format_card(given, labels)} is "
            f"{'in ' + where if elsewhere else where}; player {p} passed it to player "
            f"{receiver} (R9), so it is in his hand or face up"
        )
    c = state.centre
    payers = [q for q, cards in enumerate(state.paid) if given in cards and q != receiver]
    if c is not None and c.card == given and (c.kind != "paid" or c.source != receiver):
        payers.append(c.source)
    if payers:
        how = (
            "turned from the stock"
            if c is not None and c.card == given and c.kind != "paid"
            else f"paid by player {payers[0]}"
        )
        raise PositionError(
            f"players[{p}].gave: {format_card(given, labels)} went to player {receiver} "
            f"(R9), but it was {how}: only he can have melded or paid it"
        )


def _check_total(state: GameState, melded: list[int], winners: list[int]) -> None:
    """One winner at most (R15), and the hands, layouts, stock, dead cards and centre card make
    the 40 cards of the deck (R1)."""
    if len(winners) > 1:
        raise PositionError(f"players {winners} have all gone out: only one can (R15)")
    total = (
        sum(state.counts)
        + sum(melded)
        + state.stock_count
        + len(state.dead)
        + (state.centre is not None)
    )
    if total != 40:
        raise PositionError(
            f"the cards add up to {total}, not 40 (hands {sum(state.counts)}, layouts "
            f"{sum(melded)}, stock {state.stock_count}, dead {len(state.dead)}, centre "
            f"{int(state.centre is not None)}) (R1)"
        )


def _check_exchange(state: GameState, melded: list[int]) -> None:
    """An exchange comes before any card is turned (R9); its choices are made in turn order from
    the player after the dealer, and the player to act is the next to choose."""
    rules, n = state.rules, state.rules.players
    upcard = state.centre is not None and state.centre.kind == "upcard"
    if state.centre is not None and not upcard:
        raise PositionError("the exchange happens before any card is turned (R9)")
    if any(melded) or state.dead or state.stock_count != rules.stock_size - int(upcard):
        raise PositionError("the exchange happens before any card is turned (R9)")
    # Players choose in turn order from the player after the dealer; nobody sees the others'
    # choices (R9), but the engine asks them one at a time.
    seats = [(state.dealer + 1 + k) % n for k in range(n)]
    chosen = [p for p in seats if state.gifts and state.gifts[p] is not None]
    # A view hides the card another player chose (R9): a hidden hand's missing choice may
    # have been made, and who is to act says how far the exchange has gone.
    hidden = {p for p in seats if state.hands[p] is None}
    last = max((seats.index(p) for p in chosen), default=-1)
    waiting = [p for p in seats[: max(last, 0)] if p not in chosen and p not in hidden]
    if waiting:
        raise PositionError(
            f"the exchange choices are made in turn order {seats} from the player after the "
            f"dealer, and player {waiting[0]} has not chosen yet (R9)"
        )
    if last == n - 1:  # the last to choose has chosen (so has everyone before him)
        raise PositionError(
            f"player {seats[-1]} chooses last in the exchange (turn order {seats}), so with his "
            "choice made every player has chosen a card: the exchange is already done (R9)"
        )
    turn = seats.index(state.to_act)
    if turn <= last or any(p not in hidden for p in seats[last + 1 : turn]):
        # The next to choose: the first player after the last choice, or, where a hidden
        # hand may have chosen unseen, any player up to the first known hand.
        after = seats[last + 1 :]
        known = next((k for k, p in enumerate(after) if p not in hidden), len(after) - 1)
        next_up = " or ".join(str(p) for p in after[: known + 1])
        raise PositionError(
            f"player {next_up} chooses the next card to pass, not player {state.to_act} (R9)"
        )


def _without_centre(state: GameState, melded: list[int]) -> GameState:
    """A position before a card is turned: over with an empty stock (R18); at the deal, the
    upcard is given (R10a) and the player after the dealer turns the first card (R10)."""
    rules, n = state.rules, state.rules.players
    if state.stock_count == 0:
        # R18: no centre card and an empty stock: the deal is over.
        return GameState(
            **{**state_fields(state), "phase": Phase.OVER, "winner": state.stock_out_winner()}
        )
    if state.stock_count == rules.stock_size and any(melded):
        # Nothing turned (the upcard included): no card has been offered, and only a player
        # offered a card lays melds, with it (R13) or from his hand alone (R16).
        p = next(q for q in range(n) if melded[q])
        raise PositionError(
            f"player {p} has melds, but no card has been turned yet ({rules.stock_size} cards in "
            "the stock), so no card has been offered: only a player offered a card lays melds "
            f"(R10, R13, R16)"
        )
    fresh = not any(melded) and not state.dead and state.stock_count == rules.stock_size
    if fresh and rules.upcard:
        raise PositionError(
            f"in {rules.title} the dealer turns a card up at the deal (upcard, R10a): give it as "
            "the centre card, of kind upcard"
        )
    if fresh and state.to_act != (state.dealer + 1) % n:
        raise PositionError(
            f"the first card is turned by the player after the dealer, player "
            f"{(state.dealer + 1) % n}, not player {state.to_act} (R10)"
        )
    return state


def _check_centre(state: GameState, centre: Offer) -> None:
    """Where the centre card came from (R10, R10a, R13, R14) and its offer so far: the declined
    players in offer order (R11, R14a), a forced player who acts (R14), else the next player
    offered acts (R11) unless every player declined it (R17)."""
    rules, labels = state.rules, state.rules.labels
    order = _check_origin(state, centre)
    _check_first_melds(state, centre, order)
    if (
        centre.kind == "paid"
        and rules.discard_force
        and centre.forced is None
        and not centre.declined
        and not fits_another(state.layouts, centre.source, centre.card, rules)
    ):
        raise PositionError(
            f"player {centre.source} paid {format_card(centre.card, labels)}, which fits no other "
            f"player's layout: he is not offered it, his pass is in its declined list "
            f"[{centre.source}] (R14a)"
        )
    if centre.forced is not None:
        _check_force(state, centre, order)
        if state.to_act != centre.forced:
            raise PositionError(f"the forced player {centre.forced} must be the one to act (R14)")
        return
    if len(centre.declined) >= len(order):
        raise PositionError("every player has declined the centre card: it is dead (R17)")
    expected = order[len(centre.declined)]
    if state.to_act != expected:
        raise PositionError(
            f"player {expected} is offered {format_card(centre.card, labels)} next, "
            f"not player {state.to_act} (R11)"
        )


def _check_origin(state: GameState, centre: Offer) -> tuple[int, ...]:
    """A paid card follows a meld (R13, R14), a turned card came from the stock after any upcard
    (R10, R10a), and the declined players follow the offer order (R11); returns that order."""
    rules = state.rules
    if centre.kind == "paid" and not state.layouts[centre.source]:
        raise PositionError(
            f"player {centre.source} paid the centre card {format_card(centre.card, rules.labels)}, "
            "but his layout is empty: a pay always follows a take or a lay-in, which melds "
            "cards (R13, R14)"
        )
    order = offer_order(rules, centre)
    if centre.kind == "turned" and state.stock_count >= rules.stock_size:
        raise PositionError("a turned centre card must have come from the stock (R10)")
    if centre.kind == "turned" and rules.upcard and state.stock_count >= rules.stock_size - 1:
        raise PositionError(
            f"in {rules.title} the first card turned is the dealer's upcard, at the deal: a card "
            f"turned from the stock comes after it ({state.stock_count} cards in the stock) (R10a)"
        )
    first = state.stock_count == rules.stock_size - 1 and not rules.upcard
    if centre.kind == "turned" and first and centre.source != (state.dealer + 1) % rules.players:
        raise PositionError(
            f"the deal's first card is turned by the player after the dealer, player "
            f"{(state.dealer + 1) % rules.players}, not player {centre.source} (R10)"
        )
    if tuple(order[: len(centre.declined)]) != centre.declined:
        what = "the upcard" if centre.kind == "upcard" else f"this {centre.kind} card"
        rule = "R10a, R11" if centre.kind == "upcard" else "R11, R14a" if rules.discard_force and centre.kind == "paid" else "R11"
        raise PositionError(
            f"declined players {list(centre.declined)} do not follow the offer order "
            f"{list(order)} of {what} ({rule})"
        )
    return order


def _check_upcard(state: GameState, melded: list[int]) -> None:
    """The upcard (R10a): turned by the dealer at the deal, where the rules turn one, so the
    first centre card of the deal."""
    rules, centre = state.rules, state.centre
    assert centre is not None
    if not rules.upcard:
        raise PositionError(
            f"the centre card is an upcard, but in {rules.title} no card is turned up at the deal "
            "(the option upcard, R10a)"
        )
    if centre.source != state.dealer:
        raise PositionError(
            f"the dealer, player {state.dealer}, turns the upcard, not player {centre.source} (R10a)"
        )
    if state.dead or (any(melded) and not rules.hand_melds):
        raise PositionError(
            "the upcard is turned at the deal: it is the first centre card, before any card is "
            "dead or melded with a centre card (R10a; only melds from the hand, R16, may be laid "
            "while it is offered)"
        )
    if state.stock_count != rules.stock_size - 1:
        raise PositionError(
            f"the upcard is turned at the deal, so {rules.stock_size - 1} cards are left in the "
            f"stock, not {state.stock_count} (R8, R10a)"
        )


def _check_first_melds(state: GameState, centre: Offer, order: tuple[int, ...]) -> None:
    """While the deal's first centre card is offered (the upcard, R10a, or else the first card
    turned from the stock, R10) nothing has been taken, so a layout holds only melds from the
    hand (R16), laid by a player offered that card: one who declined it or the one offered it
    now, never one it has not reached yet (the upcard reaches the dealer last, a turned card
    reaches its turner first).  Without hand melds no layout holds any."""
    rules, labels = state.rules, state.rules.labels
    if centre.kind == "upcard":
        if not rules.hand_melds:
            return  # _check_upcard refuses any meld
        what, rule = f"the upcard {format_card(centre.card, labels)} is the deal's first centre card", "R10a, R16"
    elif centre.kind == "turned" and not rules.upcard and state.stock_count == rules.stock_size - 1:
        what, rule = f"{format_card(centre.card, labels)} is the deal's first card turned", "R10, R16"
    else:
        return
    if not rules.hand_melds:
        melder = next((p for p, layout in enumerate(state.layouts) if layout), None)
        if melder is not None:
            raise PositionError(
                f"player {melder} has melds, but nothing has been taken yet ({what}) and in "
                f"{rules.title} melds are laid only with a centre card (R13, R16)"
            )
        return
    k = len(centre.declined)
    offered = {*centre.declined, *order[k : k + 1]}
    late = [p for p, layout in enumerate(state.layouts) if layout and p not in offered]
    if late:
        raise PositionError(
            f"player {late[0]} has melds, but nothing has been taken yet ({what}) and he has not "
            f"been offered it (offer order {list(order)}, declined {list(centre.declined)}): "
            f"only a player offered a card lays melds from his hand ({rule})"
        )


def _check_force(state: GameState, centre: Offer, order: tuple[int, ...]) -> None:
    """Check who may have forced whom (R14), not only the fit.

    The forcer is the player the card was offered to after the decliners
    (R11); the position before the force must list the forced player among
    that player's forces, by the engine's own rule.
    """
    rules, labels = state.rules, state.rules.labels
    forced = centre.forced
    assert forced is not None
    card = format_card(centre.card, labels)
    if len(centre.declined) >= len(order):
        raise PositionError(
            f"every player has declined {card}: it is dead, so nobody can force player "
            f"{forced} with it (R14, R17)"
        )
    forcer = order[len(centre.declined)]
    before = state.evolve(
        centre=Offer(centre.card, centre.kind, centre.source, centre.declined, None),
        to_act=forcer,
        phase=Phase.OFFER,
    )
    if forced in before.forceable_players():
        return
    offer = f"offer order {list(order)}, declined {list(centre.declined)}"
    if forced == forcer:
        raise PositionError(
            f"player {forced} is forced with {card}, but he is the one offered it now "
            f"({offer}): a player cannot force himself (R11, R14)"
        )
    if rules.force_when is ForceWhen.AFTER_DECLINE and forced not in centre.declined:
        raise PositionError(
            f"player {forced} is forced with {card}, but in {rules.name} player {forcer} may force "
            f"only a player who has declined it in this offer, and player {forced} has not "
            f"({offer}) (R14)"
        )
    if centre.kind == "paid" and forced == centre.source:
        raise PositionError(
            f"player {forced} is forced with {card}, the card he paid: a payer cannot be forced "
            "with his own card (R11, R14)"
        )
    raise PositionError(
        f"player {forced} is forced with {card}, which does not fit his layout "
        f"(R14, force_fit {rules.force_fit})"
    )
