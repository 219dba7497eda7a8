"""The game state and the one move generator of the rules engine (R8-R19).

:class:`GameState` is immutable and hashable.  Its method names follow
OpenSpiel's state contract: :meth:`~GameState.current_player`,
:meth:`~GameState.legal_moves`, :meth:`~GameState.apply` (alias
:meth:`~GameState.child`), :meth:`~GameState.is_chance_node`,
:meth:`~GameState.chance_outcomes`, :meth:`~GameState.is_terminal` and
:meth:`~GameState.returns`.

A state may hide hands (a player's *view*): a hidden hand is ``None`` with
its count kept.  Moves that need a hidden hand (the hidden player's own
choices, a turn from a stock whose cards are unknown) raise
:class:`~analyzer.core.errors.PositionError`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from typing import Any

from analyzer.core import native
from analyzer.core.cards import clip, format_card, iter_mask
from analyzer.core.dump import dump_position
from analyzer.core.errors import IllegalMoveError, PositionError
from analyzer.core.legal import (
    borrow_ok,
    fits_another,
    fits_layout,
    fitting_cards,
    force_candidates,
    lay_in_layouts,
    player_facts,
    take_moves,
)
from analyzer.core.melds import (
    cards_of,
    is_meld,
    melds_by_lowest,
)
from analyzer.core.moves import Force, Give, LayIn, Meld, Move, Pass, Take, Turn
from analyzer.core.offers import Offer, Phase, offer_order, seat_order
from analyzer.core.rules import Rearrange, Rules, StockOut

_PASS = Pass()

__all__ = ["GameState", "Offer", "Phase", "dump_position", "fits_layout", "offer_order"]


@dataclass(frozen=True, slots=True, repr=False, init=False)
class GameState:
    """An immutable, hashable position of one deal.

    Attributes
    ----------
    rules : Rules
    dealer : int
    hands : tuple of (int or None)
        Each player's hand as a card mask, ``None`` when hidden.
    counts : tuple of int
        Number of cards in each hand.
    layouts : tuple of tuple of int
        Each player's melds as sorted card masks (R6).
    stock : tuple of int or None
        Stock card indices top first, when the order is known.
    stock_count : int
        Cards in the stock.
    dead : tuple of int
        Dead cards in the order they died (R17).
    centre : Offer or None
        The centre card, ``None`` when the next action is a turn.
    to_act : int
        The player to act (for a turn: the player who turns).
    phase : Phase
    winner : int or None
        Once over: the winner, or ``None`` for a draw.
    gifts : tuple of (int or None)
        In the exchange: the card each player has chosen so far (R9).
    gave : tuple of (int or None)
        After the exchange: the card each player passed on.
    paid : tuple of tuple of int
        Per player, the cards he was seen to pay this deal, oldest first
        (R13, R14: public, the deal's history); ``()`` when none are known.
        :meth:`apply` adds each pay.  History, not position: it takes no part
        in equality or hashing, so searches see the same positions with or
        without it; :mod:`analyzer.search.inference` reads the hidden hands from it.
    """

    rules: Rules
    dealer: int
    hands: tuple[int | None, ...]
    counts: tuple[int, ...]
    layouts: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...] | None
    stock_count: int
    dead: tuple[int, ...]
    centre: Offer | None
    to_act: int
    phase: Phase
    winner: int | None = None
    gifts: tuple[int | None, ...] = ()
    gave: tuple[int | None, ...] = ()
    paid: tuple[tuple[int, ...], ...] = field(default=(), compare=False)

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        hands: tuple[int | None, ...],
        counts: tuple[int, ...],
        layouts: tuple[tuple[int, ...], ...],
        stock: tuple[int, ...] | None,
        stock_count: int,
        dead: tuple[int, ...],
        centre: Offer | None,
        to_act: int,
        phase: Phase,
        winner: int | None = None,
        gifts: tuple[int | None, ...] = (),
        gave: tuple[int | None, ...] = (),
        paid: tuple[tuple[int, ...], ...] = (),
    ) -> None:
        # The frozen dataclass's own __init__ sets each field through object.__setattr__;
        # the slots' setters do the same at half the cost, and searches build millions.
        _SET_RULES(self, rules)
        _SET_DEALER(self, dealer)
        _SET_HANDS(self, hands)
        _SET_COUNTS(self, counts)
        _SET_LAYOUTS(self, layouts)
        _SET_STOCK(self, stock)
        _SET_STOCK_COUNT(self, stock_count)
        _SET_DEAD(self, dead)
        _SET_CENTRE(self, centre)
        _SET_TO_ACT(self, to_act)
        _SET_PHASE(self, phase)
        _SET_WINNER(self, winner)
        _SET_GIFTS(self, gifts)
        _SET_GAVE(self, gave)
        _SET_PAID(self, paid)

    # ----------------------------------------------------------- basic facts
    def melded(self, player: int) -> int:
        """Number of cards in ``player``'s layout."""
        return sum(m.bit_count() for m in self.layouts[player])

    def table_mask(self) -> int:
        """Mask of every face-up card: layouts, dead cards and the centre card."""
        mask = 0
        for layout in self.layouts:
            mask |= cards_of(layout)
        for card in self.dead:
            mask |= 1 << card
        if self.centre is not None:
            mask |= 1 << self.centre.card
        return mask

    def known_mask(self) -> int:
        """Mask of every card whose place is known: the table and the known hands and stock."""
        mask = self.table_mask()
        for hand in self.hands:
            if hand is not None:
                mask |= hand
        if self.stock is not None:
            for card in self.stock:
                mask |= 1 << card
        return mask

    def stock_mask(self) -> int | None:
        """Mask of the stock cards when known (stock order known or all hands known)."""
        if self.stock is not None:
            mask = 0
            for card in self.stock:
                mask |= 1 << card
            return mask
        if any(h is None for h in self.hands):
            return None
        return ((1 << 40) - 1) & ~self.known_mask()

    def hand(self, player: int) -> int:
        """``player``'s hand mask.

        Raises
        ------
        PositionError
            If that hand is hidden in this state.
        """
        hand = self.hands[player]
        if hand is None:
            raise PositionError(f"player {player}'s hand is hidden in this position")
        return hand

    # ------------------------------------------------------ OpenSpiel contract
    def current_player(self) -> int:
        """The player to act; -1 at a chance node (a turn), -4 when over (OpenSpiel's codes)."""
        if self.phase is Phase.OVER:
            return -4
        if self.phase is Phase.TURN:
            return -1
        return self.to_act

    def is_terminal(self) -> bool:
        """True when the deal has ended (R15, R18)."""
        return self.phase is Phase.OVER

    def is_chance_node(self) -> bool:
        """True when the next action is turning a stock card (R10)."""
        return self.phase is Phase.TURN

    def returns(self) -> tuple[float, ...]:
        """Results per player (R20): winner +1, the others -1; a draw is 0 for all.

        Raises
        ------
        PositionError
            If the deal is not over.
        """
        if self.phase is not Phase.OVER:
            raise PositionError("the deal is not over")
        if self.winner is None:
            return tuple(0.0 for _ in range(self.rules.players))
        return tuple(1.0 if p == self.winner else -1.0 for p in range(self.rules.players))

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """The possible turns with their probabilities (R8, R10).

        With a known stock order only the top card can come; otherwise every
        stock card is equally likely.

        Raises
        ------
        PositionError
            If this is not a chance node, or the stock cards are unknown.
        """
        if self.phase is not Phase.TURN:
            raise PositionError("not a chance node: no card is being turned")
        if self.stock is not None:
            return [(Turn(self.stock[0]), 1.0)]
        mask = self.stock_mask()
        if mask is None:
            raise PositionError("the stock cards are unknown while hands are hidden")
        cards = list(iter_mask(mask))
        return [(Turn(c), 1.0 / len(cards)) for c in cards]

    def legal_moves(self) -> list[Move]:
        """Every legal move for the player to act, in a deterministic order.

        Offer (R12): takes (R13, R15), forces (R14), hand-only melds (R16),
        then pass.  Forced (R14): lay-ins.  Exchange (R9): gives.  Turn:
        the chance outcomes (R10).  Over: none.  The native core, when in use, lists the same
        moves (:mod:`analyzer.core.native`).
        """
        if native.ACTIVE and self.phase is not Phase.TURN:
            found = native.legal_moves(self)
            if found is not None:
                return found
        if self.phase is Phase.OVER:
            return []
        if self.phase is Phase.TURN:
            return [move for move, _ in self.chance_outcomes()]
        if self.phase is Phase.EXCHANGE:
            return [Give(c) for c in iter_mask(self.hand(self.to_act))]
        assert self.centre is not None
        if self.phase is Phase.FORCED:
            return list(self._lay_ins())
        # R14a: the payer, offered his own paid card, may only force with it or pass.
        own = self._payer_offered()
        moves: list[Move] = [] if own else list(self._takes())
        forces = self.forceable_players()
        if forces:
            moves.extend(Force(k) for k in forces)
        if self.rules.hand_melds and not own:
            moves.extend(Meld(m) for m in self._hand_melds())
        moves.append(_PASS)
        return moves

    def forceable_players(self) -> list[int]:
        """Players the player to act may force with the centre card (R14)."""
        if self.phase is not Phase.OFFER or self.centre is None:
            return []
        offer, rules, card = self.centre, self.rules, self.centre.card
        candidates = force_candidates(rules, self.to_act, offer.kind, offer.source, offer.declined)
        return [p for p in candidates if fitting_cards(self.layouts[p], rules) >> card & 1]

    def _payer_offered(self) -> bool:
        """True when the player to act is offered the card he paid (R14a: force or pass only)."""
        c = self.centre
        return c is not None and c.kind == "paid" and c.source == self.to_act

    def takes(self) -> tuple[Take, ...]:
        """The takes of the player to act (R13, R15), in :meth:`legal_moves` order; empty
        unless a centre card is offered to him (``Phase.OFFER``) and he did not pay it (R14a)."""
        if self.phase is not Phase.OFFER or self.centre is None or self._payer_offered():
            return ()
        return self._takes()

    def hand_melds(self) -> Iterator[int]:
        """Masks of the melds the player to act could lay from his hand alone (R16), in
        :meth:`legal_moves` order (whether the variant allows them is :attr:`Rules.hand_melds`)."""
        return self._hand_melds()

    def _takes(self) -> tuple[Take, ...]:
        assert self.centre is not None
        me = self.to_act
        return take_moves(self.layouts[me], self.hand(me), self.centre.card, self.rules)

    def _lay_ins(self) -> Iterator[LayIn]:
        assert self.centre is not None and self.centre.forced is not None
        me = self.centre.forced
        hand = self.hand(me)
        layouts = lay_in_layouts(self.layouts[me], self.centre.card, self.rules)
        if not hand:
            # Forced onto an empty hand: he goes out (R14, R15).
            yield LayIn(layouts[0], None)
            return
        for layout in layouts:
            for pay in iter_mask(hand):
                yield LayIn(layout, pay)

    def _hand_melds(self) -> Iterator[int]:
        hand = self.hand(self.to_act)
        for x in iter_mask(hand):
            for meld in melds_by_lowest(self.rules)[x]:
                if meld & hand == meld:
                    yield meld

    # ----------------------------------------------------------------- apply
    def child(self, move: Move) -> GameState:
        """Alias of :meth:`apply` (OpenSpiel's name)."""
        return self.apply(move)

    def apply(self, move: Move, *, check: bool = True) -> GameState:
        """The state after ``move``; this state is not changed.

        Parameters
        ----------
        move : Move
        check : bool
            Check legality first (default).  Searches that only apply moves
            taken from :meth:`legal_moves` pass ``False`` to save the check.

        Raises
        ------
        IllegalMoveError
            If the move is not legal here; the message names the move and
            the position (phase, player to act, centre card).
        """
        if check and not isinstance(move, Move):  # Move is a union of the move classes
            raise IllegalMoveError(
                f"apply needs a move (analyzer.core.moves.parse_move reads one from text), got {clip(repr(move))}"
            )
        if check and not self.is_legal(move):
            raise IllegalMoveError(
                f"illegal move {move.text(self.rules.labels)!r} in this position ({self.describe()})"
            )
        return self._apply(move)

    def is_legal(self, move: Move) -> bool:
        """True if ``move`` is legal here (checked without listing every move)."""
        phase = self.phase
        if phase is Phase.OVER:
            return False
        if isinstance(move, Turn):
            return phase is Phase.TURN and any(m == move for m, _ in self.chance_outcomes())
        if phase is Phase.EXCHANGE:
            return isinstance(move, Give) and bool(self.hand(self.to_act) >> move.card & 1)
        if phase is Phase.FORCED:
            return isinstance(move, LayIn) and self._legal_placement(
                move.layout, move.pay, self.centre.forced if self.centre else None, lay_in=True
            )
        if phase is not Phase.OFFER:
            return False
        if isinstance(move, Pass):
            return True
        if isinstance(move, Force):
            return move.player in self.forceable_players()
        if self._payer_offered():
            return False  # R14a: force or pass only
        if isinstance(move, Take):
            return self._legal_placement(move.layout, move.pay, self.to_act, lay_in=False)
        if isinstance(move, Meld):
            hand = self.hand(self.to_act)
            return (
                self.rules.hand_melds
                and move.meld & hand == move.meld
                and is_meld(move.meld, self.rules)
            )
        return False

    def _legal_placement(
        self, layout: tuple[int, ...], pay: int | None, player: int | None, *, lay_in: bool
    ) -> bool:
        if player is None or self.centre is None:
            return False
        hand = self.hand(player)
        old = cards_of(self.layouts[player])
        new = cards_of(layout)
        card = 1 << self.centre.card
        used = new & ~old & ~card
        if sum(m.bit_count() for m in layout) != new.bit_count():
            return False  # two melds share a card
        if new & (old | card) != old | card or used & ~hand:
            return False  # R13: old melds and the centre card stay melded; only hand cards added
        if lay_in and used:
            return False  # R14: a forced player adds no hand card
        if not all(is_meld(m, self.rules) for m in layout):
            return False  # R4-R6: any legal arrangement of the new melded cards
        if self.rules.rearrange is Rearrange.BORROW and not borrow_ok(self.layouts[player], layout):
            return False  # R13a: only what borrowing allows
        rest = hand & ~used
        if pay is None:
            return rest == 0
        return bool(rest >> pay & 1)

    def evolve(self, **changes: Any) -> GameState:
        """A copy with some fields changed, without any check (a faster ``dataclasses.replace``).

        For analysis code that builds what-if positions; moves go through
        :meth:`apply`.  Unknown field names are ignored.
        """
        get = changes.get
        return GameState(
            self.rules,
            self.dealer,
            get("hands", self.hands),
            get("counts", self.counts),
            get("layouts", self.layouts),
            get("stock", self.stock),
            get("stock_count", self.stock_count),
            get("dead", self.dead),
            get("centre", self.centre),
            get("to_act", self.to_act),
            get("phase", self.phase),
            get("winner", self.winner),
            get("gifts", self.gifts),
            get("gave", self.gave),
            get("paid", self.paid),
        )

    def _apply(self, move: Move) -> GameState:
        if native.ACTIVE:
            return native.apply(self, move)
        if isinstance(move, (Take, LayIn)):
            return self._place(move)  # the commonest move in a search first
        rules, n = self.rules, self.rules.players
        if isinstance(move, Turn):
            stock = self.stock[1:] if self.stock is not None else None
            offer = Offer(move.card, "turned", self.to_act)
            return GameState(
                self.rules, self.dealer, self.hands, self.counts, self.layouts, stock,
                self.stock_count - 1, self.dead, offer, self.to_act, Phase.OFFER, self.winner,
                self.gifts, self.gave, self.paid,
            )  # fmt: skip
        if isinstance(move, Give):
            gifts: list[int | None] = list(self.gifts) if self.gifts else [None] * n
            gifts[self.to_act] = move.card
            nxt = (self.to_act + 1) % n
            if gifts[nxt] is None:
                return self.evolve(gifts=tuple(gifts), to_act=nxt)
            # Every player has chosen: the passes happen at once (R9).
            hands = list(self.hands)
            for p in range(n):
                given, got = gifts[p], gifts[(p - 1) % n]
                assert given is not None and got is not None
                hand = hands[p]
                if hand is not None:
                    hands[p] = hand & ~(1 << given) | 1 << got
            return self.evolve(
                hands=tuple(hands),
                gifts=(),
                gave=tuple(gifts),
                # The upcard, turned at the deal, is offered now (R10a); else the first turn.
                phase=Phase.TURN if self.centre is None else Phase.OFFER,
                to_act=(self.dealer + 1) % n,
            )
        assert self.centre is not None
        offer = self.centre
        if isinstance(move, Pass):
            declined = (*offer.declined, self.to_act)
            order = offer_order(rules, offer)
            if len(declined) < len(order):
                still = Offer(offer.card, offer.kind, offer.source, declined, offer.forced)
                return GameState(
                    self.rules, self.dealer, self.hands, self.counts, self.layouts, self.stock,
                    self.stock_count, self.dead, still, order[len(declined)], self.phase,
                    self.winner, self.gifts, self.gave, self.paid,
                )  # fmt: skip
            return self._card_dies()
        if isinstance(move, Force):
            forced = Offer(offer.card, offer.kind, offer.source, offer.declined, move.player)
            return self.evolve(centre=forced, to_act=move.player, phase=Phase.FORCED)
        if isinstance(move, Meld):
            return self._with_player(
                self.to_act, (*self.layouts[self.to_act], move.meld), move.meld
            )
        raise TypeError(f"not a move: {move!r}")

    def _place(self, move: Take | LayIn) -> GameState:
        """A take (R13, R15) or a forced lay-in (R14): the new layout, the pay card offered."""
        offer = self.centre
        assert offer is not None
        player, pay, layout = self.to_act, move.pay, move.layout
        new_hands, new_counts, new_layouts = self.hands, self.counts, self.layouts
        hand, after = new_hands[player], player + 1
        if hand is not None:
            # Only hand cards join the layout (R13); they and the pay card leave the hand.
            spent = cards_of(layout) & hand
            if pay is not None:
                spent |= 1 << pay
            new_hands = (*new_hands[:player], hand & ~spent, *new_hands[after:])
            new_counts = (*new_counts[:player], new_counts[player] - spent.bit_count(), *new_counts[after:])
        new_layouts = (*new_layouts[:player], tuple(sorted(layout)), *new_layouts[after:])
        paid = self.paid
        if pay is None:
            centre: Offer | None = None
            phase, to_act, winner = Phase.OVER, player, player
        else:
            phase, to_act, winner = Phase.OFFER, (player + 1) % self.rules.players, None
            if not self.rules.discard_force:
                centre = Offer(pay, "paid", player)
            elif fits_another(new_layouts, player, pay, self.rules):
                centre, to_act = Offer(pay, "paid", player), player  # R14a: he may force with it
            else:
                centre = Offer(pay, "paid", player, (player,))  # R14a: it fits nobody's layout
            paid = paid or ((),) * self.rules.players
            paid = (*paid[:player], (*paid[player], pay), *paid[after:])
        return GameState(
            self.rules, self.dealer, new_hands, new_counts, new_layouts, self.stock, self.stock_count,
            self.dead, centre, to_act, phase, winner, self.gifts, self.gave, paid,
        )  # fmt: skip

    def run_forced(self, limit: int, *, turns: bool = True) -> tuple[GameState, int]:
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
        self : GameState
            The first position with a choice, the end of the deal, a position
            this path does not handle (the exchange, a forced lay-in, a
            hidden hand or stock order), or the position after ``limit``
            steps; ``self`` when no step was taken.
        steps : int
            Positions passed, each with one legal move (0..``limit``).
        """
        if native.ACTIVE:
            return native.run_forced(self, limit, turns)
        phase = self.phase
        stock = self.stock
        centre = self.centre
        if phase is Phase.OFFER:
            assert centre is not None
            me = self.to_act
            hand = self.hands[me]
            if centre.forced is not None or hand is None or limit <= 0:
                return self, 0
            # Most calls come at a choice: find out first, before any other work.
            card = centre.card
            mine = player_facts(self.layouts[me], hand, self.rules)
            own = centre.kind == "paid" and centre.source == me  # R14a: force or pass only
            if not own and (
                mine[2]
                or (mine[0] >> card & 1 and take_moves(self.layouts[me], hand, card, self.rules))
            ):
                return self, 0
            kind, source, declined = centre.kind, centre.source, centre.declined
        elif phase is Phase.TURN and stock is not None and limit > 0 and turns:
            card, kind, source, declined = -1, "turned", self.to_act, ()
        else:
            return self, 0
        if None in self.hands:
            return self, 0
        rules, hands, layouts = self.rules, self.hands, self.layouts
        n = rules.players
        count, dead, to_act = self.stock_count, self.dead, self.to_act
        # Nobody takes or melds inside the run, so each player's facts hold throughout;
        # they are looked up when first needed.
        facts: list[tuple[int, int, bool] | None] = [None] * n
        if phase is Phase.OFFER:
            facts[to_act] = mine
        fit_any = (
            hot
        ) = -1  # cards that fit someone's layout (R14), that may stop a run; -1: not yet
        order = seat_order(n, kind, source, rules.discard_force)
        top = 0  # stock cards turned so far in the run
        steps = 0
        while steps < limit:
            if phase is Phase.TURN:
                if stock is None or not turns:
                    break  # the turn is a chance node: the caller draws it
                if fit_any < 0:
                    fit_any, hot = self._run_facts(facts)
                # A card that melds with nobody's cards and fits no layout is offered to
                # every player in turn and dies: n + 1 positions, nothing else changes.
                while not hot >> stock[top] & 1 and steps + n < limit:
                    dead = (*dead, stock[top])
                    top += 1
                    steps += n + 1
                    to_act = (to_act + 1) % n
                    if top == count:
                        return self._stock_out(stock[top:], dead, to_act), steps
                if steps >= limit:
                    break
                card, kind, source, declined = stock[top], "turned", to_act, ()
                order = seat_order(n, kind, source, rules.discard_force)
                top += 1
                phase = Phase.OFFER
                steps += 1
                continue
            fact = facts[to_act]
            if fact is None:
                fact = facts[to_act] = player_facts(layouts[to_act], hands[to_act], rules)
            if kind == "paid" and to_act == source:
                pass  # R14a: the payer may only force with his card or pass
            elif fact[2]:
                break  # a choice (R16): the search takes over
            elif fact[0] >> card & 1 and take_moves(layouts[to_act], hands[to_act], card, rules):
                break  # a take (R13, R15)
            if fit_any < 0:
                fit_any, hot = self._run_facts(facts)
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
            return self._stock_out(stock[top:] if stock is not None else None, dead, to_act), steps
        if steps == 0:
            return self, 0
        offer = None if phase is Phase.TURN else Offer(card, kind, source, declined)
        return GameState(
            rules, self.dealer, hands, self.counts, layouts,
            stock[top:] if stock is not None else None, count - top, dead, offer, to_act,
            phase, self.winner, self.gifts, self.gave, self.paid,
        ), steps  # fmt: skip

    def _run_facts(self, facts: list[tuple[int, int, bool] | None]) -> tuple[int, int]:
        """Fill ``facts`` (:func:`player_facts` of every player) for :meth:`run_forced`; return
        the cards that fit someone's layout (R14) and the cards whose offer may stop a run
        (every card when someone can meld from his hand alone, R16)."""
        rules = self.rules
        fit_any = near_any = 0
        alone = False
        for p, fact in enumerate(facts):
            if fact is None:
                fact = facts[p] = player_facts(self.layouts[p], self.hands[p], rules)
            near_any |= fact[0]
            fit_any |= fact[1]
            alone = alone or fact[2]
        return fit_any, ((1 << 40) - 1 if alone else near_any | fit_any)

    def _stock_out(self, stock: tuple[int, ...] | None, dead: tuple[int, ...], to_act: int) -> GameState:
        """The deal over because the last card died with the stock empty (R17, R18)."""
        return self.evolve(
            stock=stock, stock_count=0, dead=dead, centre=None, to_act=to_act,
            phase=Phase.OVER, winner=self.stock_out_winner(),
        )  # fmt: skip

    def with_hand(self, player: int, hand: int) -> GameState:
        """A copy where ``player`` holds ``hand`` (count updated), without any check; for what-ifs."""
        hands = list(self.hands)
        counts = list(self.counts)
        hands[player] = hand
        counts[player] = hand.bit_count()
        return self.evolve(hands=tuple(hands), counts=tuple(counts))

    def _with_player(self, player: int, layout: tuple[int, ...], spent: int) -> GameState:
        hands, counts, layouts = self._spend(player, layout, spent)
        return self.evolve(hands=hands, counts=counts, layouts=layouts)

    def _spend(
        self, player: int, layout: tuple[int, ...], spent: int
    ) -> tuple[tuple[int | None, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """Hands, counts and layouts once ``player`` has the new ``layout`` and has spent ``spent``."""
        hands, counts, layouts = self.hands, self.counts, self.layouts
        after = player + 1
        hand = hands[player]
        if hand is not None:
            hands = (*hands[:player], hand & ~spent, *hands[after:])
            counts = (*counts[:player], counts[player] - spent.bit_count(), *counts[after:])
        layouts = (*layouts[:player], tuple(sorted(layout)), *layouts[after:])
        return hands, counts, layouts

    def _card_dies(self) -> GameState:
        """R17 and R18: the centre card is dead; the next player turns or the deal ends."""
        assert self.centre is not None
        dead = (*self.dead, self.centre.card)
        nxt = (self.centre.source + 1) % self.rules.players
        if self.stock_count > 0:
            return GameState(
                self.rules, self.dealer, self.hands, self.counts, self.layouts, self.stock,
                self.stock_count, dead, None, nxt, Phase.TURN, self.winner, self.gifts, self.gave, self.paid,
            )  # fmt: skip
        return self._stock_out(self.stock, dead, nxt)

    def stock_out_winner(self) -> int | None:
        """The winner when the stock runs out (R18): none for ``draw``, else the fewest hand cards."""
        if self.rules.on_stock_out is StockOut.DRAW:
            return None
        fewest = min(self.counts)
        holders = [p for p, c in enumerate(self.counts) if c == fewest]
        return holders[0] if len(holders) == 1 else None

    # ------------------------------------------------------------------ text
    def describe(self) -> str:
        """A one-line summary: phase, player to act and centre card."""
        labels = self.rules.labels
        if self.phase is Phase.OVER:
            return "deal over, " + ("draw" if self.winner is None else f"player {self.winner} won")
        text = f"{self.rules.title}, {self.phase}, player {self.to_act} to act"
        if self.centre is not None:
            c = self.centre
            text += f", centre {format_card(c.card, labels)} ({c.origin} by player {c.source})"
        return text

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        """``load_position({...})``: rebuilds the state from its position data (R2 labels kept)."""
        try:
            return f"load_position({dump_position(self)!r})"
        except Exception:  # a repr never raises; a hand-built state may not dump
            return f"<GameState {self.describe()}>"


(
    _SET_RULES, _SET_DEALER, _SET_HANDS, _SET_COUNTS, _SET_LAYOUTS, _SET_STOCK, _SET_STOCK_COUNT,
    _SET_DEAD, _SET_CENTRE, _SET_TO_ACT, _SET_PHASE, _SET_WINNER, _SET_GIFTS, _SET_GAVE,
    _SET_PAID,
) = (getattr(GameState, f.name).__set__ for f in fields(GameState))  # fmt: skip
