"""A deal followed from one player's view: the moves he saw, checked against what he knows.

The *viewer* knows his own hand, every layout, the dead cards, the centre card, the hand counts
and, in the exchange, the card he passed and the one he received (R9); the other hands and the
stock order are hidden (:func:`analyzer.core.dealing.view`).  Every move he sees is public but
the other players' passes in the exchange, which he writes ``give ?`` (:class:`UnseenGive`).  A
move he sees can name cards that were hidden until then: the hand cards of a take or hand-only
meld and the card paid (R13, R16), a lay-in's pay (R14), a turned card (R10).

:meth:`ViewPlay.apply` plays such a move.  Every card it shows must be one the viewer has not
seen elsewhere (R1): not in his hand, not on the table, not a card he passed to another player;
the acting player must hold that many cards (R7); and the move must be legal for some hand
consistent with the view.  Legality is the engine's (:meth:`GameState.is_legal`), asked on a
*world* in which each hidden hand holds its known cards (the cards the move shows, the card the
viewer passed it) and is filled up to its count with other unseen cards: what is legal for the
shown cards does not depend on the filling, which never leaves the world.  The state that comes
back is the viewer's next view, equal to ``view(full_state, viewer)`` of the full deal.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.core.cards import FULL_DECK, Labels, format_card, iter_mask
from analyzer.core.dealing import view
from analyzer.core.errors import IllegalMoveError, PositionError
from analyzer.core.melds import cards_of
from analyzer.core.moves import Give, LayIn, Meld, Move, Take, Turn, parse_move
from analyzer.core.offers import Offer, Phase
from analyzer.core.rules import Exchange, Rules
from analyzer.core.state import GameState

__all__ = ["SeenMove", "UnseenGive", "ViewPlay", "exchange_order", "parse_seen_move"]


@dataclass(frozen=True, slots=True)
class UnseenGive:
    """Another player's pass in the exchange, which the viewer did not see (R9): ``give ?``."""

    def text(self, labels: Labels = Labels.FRENCH) -> str:
        """The move's text, ``give ?``."""
        return "give ?"

    def __str__(self) -> str:
        return self.text()


SeenMove = Move | UnseenGive
"""A move as the viewer saw it."""


def parse_seen_move(text: str, labels: Labels | None = Labels.FRENCH) -> SeenMove:
    """Read a move as a view record writes it: :func:`~analyzer.core.moves.parse_move`, or
    ``give ?`` for a pass the viewer did not see (R9).

    Raises
    ------
    InvalidMoveError
        If the text is not a move.
    """
    if isinstance(text, str) and "".join(text.split()).lower() == "give?":
        return UnseenGive()
    return parse_move(text, labels)


def exchange_order(state: GameState) -> list[int]:
    """The seats in the order they choose their pass: from the player after the dealer (R9)."""
    n = state.rules.players
    return [(state.dealer + 1 + k) % n for k in range(n)]


def _chosen(state: GameState) -> list[int]:
    """The seats that have chosen their pass so far (R9: in turn order, before the one to act)."""
    if state.phase is not Phase.EXCHANGE:
        return []
    order = exchange_order(state)
    return order[: order.index(state.to_act)]


@dataclass(frozen=True, slots=True)
class ViewPlay:
    """A deal from ``viewer``'s view, played one seen move at a time (module docstring).

    Attributes
    ----------
    state : GameState
        The viewer's view: his hand known, the other hands hidden, the stock order unknown.
    viewer : int
    received : int or None
        In the exchange: the card the player before the viewer has chosen to pass him (R9),
        known to the viewer only once the passes are made (not in ``state`` until then).
    """

    state: GameState
    viewer: int
    received: int | None = None

    @classmethod
    def start(cls, state: GameState, viewer: int) -> ViewPlay:
        """Begin at ``state`` as ``viewer`` sees it.

        Raises
        ------
        PositionError
            If ``viewer`` is no seat, his hand is hidden, another hand or the stock order is
            given, or the exchange is past the choice of the player who passes to him (his card
            cannot be known, R9).
        """
        n = state.rules.players
        if not 0 <= viewer < n:
            raise PositionError(f"no player {viewer} in {state.rules.name} (players 0 to {n - 1})")
        if state.hands[viewer] is None:
            raise PositionError(f"the view's player {viewer} must list his hand")
        shown = [p for p, hand in enumerate(state.hands) if hand is not None and p != viewer]
        if shown:
            raise PositionError(
                f"player {viewer}'s view hides the other hands: give player {shown[0]}'s hand as "
                "its count of cards"
            )
        if state.stock is not None:
            raise PositionError(f"player {viewer}'s view hides the stock order: give the stock as its count")
        giver = (viewer - 1) % n
        if giver in _chosen(state) and (not state.gifts or state.gifts[giver] is None):
            raise PositionError(
                f"the view starts in the exchange after player {giver} chose the card he passes "
                f"to player {viewer}, which it cannot name (R9): start before or after the exchange"
            )
        received = state.gifts[giver] if giver in _chosen(state) and state.gifts else None
        return cls(view(state, viewer), viewer, received)

    @classmethod
    def deal(
        cls,
        rules: Rules,
        viewer: int,
        hand: int,
        dealer: int | None = None,
        upcard: int | None = None,
    ) -> ViewPlay:
        """A new deal as ``viewer`` sees it: his ``hand`` dealt (R8), the upcard turned where
        the rules turn one (R10a), the other hands and the stock hidden.

        Parameters
        ----------
        rules : Rules
        viewer : int
        hand : int
            His cards (a mask of exactly ``rules.hand_size`` cards).
        dealer : int, optional
            The dealer; the last player by default (as a position's).
        upcard : int, optional
            The card the dealer turned up, required where ``rules.upcard`` (R10a).

        Raises
        ------
        PositionError
            If a seat is out of range, the hand has the wrong number of cards, the upcard is
            missing, given where the rules turn none, or one of his cards.
        """
        n = rules.players
        dealer = n - 1 if dealer is None else dealer
        for name, seat in (("player", viewer), ("dealer", dealer)):
            if not 0 <= seat < n:
                raise PositionError(f"no {name} {seat} in {rules.name} (players 0 to {n - 1})")
        if hand.bit_count() != rules.hand_size:
            raise PositionError(
                f"a hand in {rules.name} has {rules.hand_size} cards, got {hand.bit_count()} (R8)"
            )
        centre = None
        if rules.upcard:
            if upcard is None:
                raise PositionError(f"{rules.name} turns up a card at the deal: name it (R10a)")
            if hand >> upcard & 1:
                raise PositionError(f"the upcard {format_card(upcard, rules.labels)} is in your hand (R1)")
            centre = Offer(upcard, "upcard", dealer)
        elif upcard is not None:
            raise PositionError(f"{rules.name} turns up no card at the deal (R10a)")
        exchange = rules.exchange is not Exchange.NONE
        stock = 40 - n * rules.hand_size - (centre is not None)
        state = GameState(
            rules=rules,
            dealer=dealer,
            hands=tuple(hand if p == viewer else None for p in range(n)),
            counts=(rules.hand_size,) * n,
            layouts=((),) * n,
            stock=None,
            stock_count=stock,
            dead=(),
            centre=centre,
            to_act=(dealer + 1) % n,
            phase=Phase.EXCHANGE if exchange else Phase.TURN if centre is None else Phase.OFFER,
            gifts=(None,) * n if exchange else (),
        )
        return cls.start(state, viewer)

    # ------------------------------------------------------------------ facts
    def acting(self) -> int | None:
        """The seat that acts next, ``None`` at a turn of the stock (R10) or at the end."""
        state = self.state
        if state.phase in (Phase.TURN, Phase.OVER):
            return None
        return state.to_act

    def unseen(self) -> int:
        """Mask of the cards the viewer has not seen: not his, not on the table (R1)."""
        return FULL_DECK & ~self.state.hand(self.viewer) & ~self.state.table_mask()

    def held(self) -> dict[int, int]:
        """Cards the viewer knows to be in a hidden hand: the card he passed in the exchange,
        until it is shown (R9)."""
        state, n = self.state, self.state.rules.players
        out: dict[int, int] = {}
        card = state.gave[self.viewer] if state.gave else None
        if card is not None and self.unseen() >> card & 1:
            out[(self.viewer + 1) % n] = 1 << card
        return out

    def where(self, card: int) -> str | None:
        """Where the viewer has seen ``card`` (``"in your hand"``, ``"in player 1's layout"``,
        ``"dead"``, ...), or ``None`` if he has not: it may be anywhere hidden."""
        state = self.state
        if state.hand(self.viewer) >> card & 1:
            return f"in your hand (player {self.viewer})"
        for p, layout in enumerate(state.layouts):
            if cards_of(layout) >> card & 1:
                return f"in player {p}'s layout"
        if card in state.dead:
            return "a dead card"
        if state.centre is not None and state.centre.card == card:
            return "the centre card"
        for p, mask in self.held().items():
            if mask >> card & 1:
                return f"in player {p}'s hand: you passed it to him in the exchange (R9)"
        return None

    def shown_cards(self, move: SeenMove) -> int:
        """The cards ``move`` takes from the acting player's hand: a take's new hand cards and
        its pay (R13), a lay-in's pay (R14), a hand-only meld (R16), a pass in the exchange (R9),
        or the turned card (R10)."""
        state = self.state
        if isinstance(move, Turn | Give):
            return 1 << move.card
        if isinstance(move, Meld):
            return move.meld
        if isinstance(move, Take | LayIn) and state.centre is not None:
            player = state.to_act
            old = cards_of(state.layouts[player]) | 1 << state.centre.card
            mask = cards_of(move.layout) & ~old
            if move.pay is not None:
                mask |= 1 << move.pay
            return mask
        return 0

    # ------------------------------------------------------------------ moves
    def apply(self, move: SeenMove) -> ViewPlay:
        """The view after ``move``, checked against what the viewer knows (module docstring).

        Raises
        ------
        IllegalMoveError
            If the move shows a card the viewer has seen elsewhere (R1), more hand cards than
            the acting player holds (R7), a pass in the exchange that the viewer could not see
            or one he must have seen (R9), or is illegal for every hand consistent with the
            view (R8-R19); the message names the card or the rule.
        """
        world = self.world(move)
        state = self.state
        real = self._engine_move(move, world)
        if not world.is_legal(real):
            raise IllegalMoveError(
                f"illegal move {move.text(state.rules.labels)!r} in this position ({state.describe()})"
            )
        after = world.apply(real, check=False)
        received = self.received
        if state.phase is Phase.EXCHANGE and isinstance(move, Give) and state.to_act == self._giver():
            received = move.card
        if after.phase is not Phase.EXCHANGE:
            received = None
        return ViewPlay(view(after, self.viewer), self.viewer, received)

    def world(self, move: SeenMove) -> GameState:
        """A full state consistent with the view in which ``move``'s shown cards are in the acting
        player's hand (for the engine's legality and for explanations).

        Raises
        ------
        IllegalMoveError
            As :meth:`apply`, for what the view alone decides (cards seen elsewhere, counts,
            unseen passes).
        """
        state = self.state
        acting = self.acting()
        if state.phase is Phase.EXCHANGE:
            self._check_pass(move)
        elif isinstance(move, UnseenGive):
            raise IllegalMoveError("'give ?' is a pass in the exchange, and there is none now (R9)")
        if not _fits_phase(move, state.phase):
            # Not a move of this moment (a pass at a turn, a give after the exchange): the
            # engine refuses it, and its explanation says why.
            return self._filled(dict(self.held()), 0)
        shown = self.shown_cards(move)
        if acting != self.viewer or isinstance(move, Turn):
            self._check_shown(move, shown, acting)
        need: dict[int, int] = dict(self.held())
        avoid = 0
        if isinstance(move, Turn):
            avoid = shown
        elif acting is not None and acting != self.viewer:
            need[acting] = need.get(acting, 0) | shown
            if shown.bit_count() > state.counts[acting]:
                raise IllegalMoveError(
                    f"player {acting} holds {state.counts[acting]} "
                    f"card{'' if state.counts[acting] == 1 else 's'} and this move shows "
                    f"{shown.bit_count()} from his hand (R7)"
                )
        if state.phase is Phase.EXCHANGE and self.received is not None:
            giver = self._giver()
            need[giver] = need.get(giver, 0) | 1 << self.received
        return self._filled(need, avoid)

    # --------------------------------------------------------------- helpers
    def _check_shown(self, move: SeenMove, shown: int, acting: int | None) -> None:
        """Every card ``move`` shows from a hidden place is one the viewer has not seen elsewhere
        (R1); a card paid is a hand card, never the centre card (R13)."""
        state, labels = self.state, self.state.rules.labels
        centre = state.centre
        pay = move.pay if isinstance(move, Take | LayIn) else None
        if pay is not None and centre is not None and pay == centre.card:
            raise IllegalMoveError(
                f"player {acting} can only pay a card from his hand, and "
                f"{format_card(pay, labels)} is the centre card (R13)"
            )
        for card in iter_mask(shown):
            where = self.where(card)
            if where is not None and not self._holds(acting, card):
                who = "turned" if isinstance(move, Turn) else f"shown by player {acting}"
                raise IllegalMoveError(
                    f"{format_card(card, labels)} cannot be {who}: it is {where} (R1: each card is in one place)"
                )

    def _giver(self) -> int:
        """The player who passes to the viewer in the exchange (R9)."""
        return (self.viewer - 1) % self.state.rules.players

    def _holds(self, player: int | None, card: int) -> bool:
        """True when ``card`` is known to be in ``player``'s hidden hand (the viewer's pass)."""
        return player is not None and bool(self.held().get(player, 0) >> card & 1)

    def _check_pass(self, move: SeenMove) -> None:
        """In the exchange: the viewer writes his own pass and the one made to him, ``give ?``
        for the others (R9)."""
        acting = self.state.to_act
        if acting == self.viewer:
            if isinstance(move, UnseenGive):
                raise IllegalMoveError(f"you are player {acting}: name the card you pass (R9)")
            return
        if isinstance(move, UnseenGive):
            if acting == self._giver():
                raise IllegalMoveError(
                    f"player {acting} passes his card to you (player {self.viewer}): name it, as "
                    "you saw it when the passes were made (R9)"
                )
            return
        if isinstance(move, Give) and acting != self._giver():
            nxt = (acting + 1) % self.state.rules.players
            raise IllegalMoveError(
                f"player {acting} passes his card to player {nxt}, face down: you (player "
                f"{self.viewer}) cannot have seen it; write 'give ?' (R9)"
            )

    def _engine_move(self, move: SeenMove, world: GameState) -> Move:
        """The engine's move for ``move`` in ``world``: an unseen pass is one of the filled cards."""
        if isinstance(move, UnseenGive):
            hand = world.hand(world.to_act)
            return Give(next(iter_mask(hand)))
        return move

    def _filled(self, need: dict[int, int], avoid: int) -> GameState:
        """The world: each hidden hand holds its needed cards and is filled up to its count with
        the lowest unseen cards not needed elsewhere and not in ``avoid``; the hidden passes of
        the players who have chosen are cards of their hands."""
        state = self.state
        hands = list(state.hands)
        placed = 0
        for q, mask in need.items():
            hands[q] = mask
            placed |= mask
        free = self.unseen() & ~placed & ~avoid
        for q, hand in enumerate(state.hands):
            if hand is not None:
                continue
            mine = hands[q] or 0
            for card in iter_mask(free):
                if mine.bit_count() >= state.counts[q]:
                    break
                mine |= 1 << card
                free &= ~(1 << card)
            if mine.bit_count() != state.counts[q]:
                raise PositionError("the view's hand counts do not fit the cards it has not seen (R1, R7)")
            hands[q] = mine
        world = state.evolve(hands=tuple(hands))
        if state.phase is Phase.EXCHANGE:
            gifts = list(state.gifts or (None,) * state.rules.players)
            for q in _chosen(state):
                if gifts[q] is None:
                    known = self.received if q == self._giver() else None
                    gifts[q] = known if known is not None else next(iter_mask(hands[q] or 0))
            world = world.evolve(gifts=tuple(gifts))
        return world


def _fits_phase(move: SeenMove, phase: Phase) -> bool:
    """True when ``move`` is of the kind ``phase`` asks for: a turn at a turn (R10), a pass in the
    exchange (R9), a lay-in from a forced player (R14), the rest when a card is offered (R12)."""
    if isinstance(move, Turn):
        return phase is Phase.TURN
    if isinstance(move, Give | UnseenGive):
        return phase is Phase.EXCHANGE
    if isinstance(move, LayIn):
        return phase is Phase.FORCED
    return phase is Phase.OFFER
