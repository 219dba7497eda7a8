"""The fast path of :class:`~analyzer.core.state.GameState` through positions with one legal move.

Searches spend most of a deal in offers nobody can use (R11, R12, R17);
:func:`run_forced` passes them without building every position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from analyzer.core.legal import force_candidates, player_facts, take_moves
from analyzer.core.offers import Offer, Phase, seat_order

if TYPE_CHECKING:
    from analyzer.core.state import GameState

__all__ = ["run_forced"]


def run_forced(state: GameState, limit: int, *, turns: bool = True) -> tuple[GameState, int]:
    """Follow the positions that have exactly one legal move, without building them.

    From a turn with the stock order known (R10) or an offer, the turned
    card is offered and passed (R11, R12) by every player who can neither
    take it (R13, R15), force it (R14) nor lay a hand-only meld (R16); a
    card nobody can use dies (R17) and the next card is turned, or the
    deal ends (R18).  The result equals applying the one legal move of
    each such position in turn (the tests check it); searches use it to
    skip the dead offers that make up most of a deal.

    Parameters
    ----------
    limit : int
        Most positions to pass (a search's remaining budget, in positions).
    turns : bool
        Also turn the next stock card when its order is known (default);
        with False the run ends at every turn, as it does when the stock
        order is unknown (a playout draws the card itself).

    Returns
    -------
    state : GameState
        The first position with a choice, the end of the deal, a position
        this path does not handle (the exchange, a forced lay-in, a
        hidden hand or stock order), or the position after ``limit``
        steps; ``state`` when no step was taken.
    steps : int
        Positions passed, each with one legal move (0..``limit``).
    """
    phase = state.phase
    stock = state.stock
    centre = state.centre
    if phase is Phase.OFFER:
        assert centre is not None
        me = state.to_act
        hand = state.hands[me]
        if centre.forced is not None or hand is None or limit <= 0:
            return state, 0
        # Most calls come at a choice: find out first, before any other work.
        card = centre.card
        mine = player_facts(state.layouts[me], hand, state.rules)
        if mine[2] or (mine[0] >> card & 1 and take_moves(state.layouts[me], hand, card, state.rules)):
            return state, 0
        kind, source, declined = centre.kind, centre.source, centre.declined
    elif phase is Phase.TURN and stock is not None and limit > 0 and turns:
        card, kind, source, declined = -1, "turned", state.to_act, ()
    else:
        return state, 0
    if None in state.hands:
        return state, 0
    rules, hands, layouts = state.rules, state.hands, state.layouts
    n = rules.players
    count, dead, to_act = state.stock_count, state.dead, state.to_act
    # Nobody takes or melds inside the run, so each player's facts hold throughout;
    # they are looked up when first needed.
    facts: list[tuple[int, int, bool] | None] = [None] * n
    if phase is Phase.OFFER:
        facts[to_act] = mine
    fit_any = hot = -1  # cards that fit someone's layout (R14), that may stop a run; -1: not yet
    order = seat_order(n, kind, source)
    top = 0  # stock cards turned so far in the run
    steps = 0
    while steps < limit:
        if phase is Phase.TURN:
            if stock is None or not turns:
                break  # the turn is a chance node: the caller draws it
            if fit_any < 0:
                fit_any, hot = _run_facts(state, facts)
            # A card that melds with nobody's cards and fits no layout is offered to
            # every player in turn and dies: n + 1 positions, nothing else changes.
            while not hot >> stock[top] & 1 and steps + n < limit:
                dead = (*dead, stock[top])
                top += 1
                steps += n + 1
                to_act = (to_act + 1) % n
                if top == count:
                    return state._stock_out(stock[top:], dead, to_act), steps
            if steps >= limit:
                break
            card, kind, source, declined = stock[top], "turned", to_act, ()
            order = seat_order(n, kind, source)
            top += 1
            phase = Phase.OFFER
            steps += 1
            continue
        fact = facts[to_act]
        if fact is None:
            fact = facts[to_act] = player_facts(layouts[to_act], hands[to_act], rules)
        if fact[2]:
            break  # a choice (R16): the search takes over
        if fact[0] >> card & 1 and take_moves(layouts[to_act], hands[to_act], card, rules):
            break  # a take (R13, R15)
        if fit_any < 0:
            fit_any, hot = _run_facts(state, facts)
        if fit_any >> card & 1 and any(
            facts[q][1] >> card & 1  # type: ignore[index]
            for q in force_candidates(rules, to_act, kind, source, declined)
        ):
            break  # a force (R14)
        steps += 1
        declined = (*declined, to_act)
        if len(declined) < len(order):
            to_act = order[len(declined)]
            continue
        dead = (*dead, card)  # R17: nobody used it
        to_act = (source + 1) % n
        if count > top:
            phase = Phase.TURN
            continue
        return state._stock_out(stock[top:] if stock is not None else None, dead, to_act), steps
    if steps == 0:
        return state, 0
    offer = None if phase is Phase.TURN else Offer(card, kind, source, declined)
    return type(state)(
        rules, state.dealer, hands, state.counts, layouts,
        stock[top:] if stock is not None else None, count - top, dead, offer, to_act,
        phase, state.winner, state.gifts, state.gave, state.paid,
    ), steps  # fmt: skip

def _run_facts(state: GameState, facts: list[tuple[int, int, bool] | None]) -> tuple[int, int]:
    """Fill ``facts`` (:func:`player_facts` of every player) for :meth:`run_forced`; return
    the cards that fit someone's layout (R14) and the cards whose offer may stop a run
    (every card when someone can meld from his hand alone, R16)."""
    rules = state.rules
    fit_any = near_any = 0
    alone = False
    for p, fact in enumerate(facts):
        if fact is None:
            fact = facts[p] = player_facts(state.layouts[p], state.hands[p], rules)
        near_any |= fact[0]
        fit_any |= fact[1]
        alone = alone or fact[2]
    return fit_any, ((1 << 40) - 1 if alone else near_any | fit_any)


