"""Engine moves as integer actions, one to one in every position (OpenSpiel, PettingZoo).

Learning libraries need a fixed, finite action space: a move is an integer
in ``range(num_actions)`` and a position's legal moves are a subset of it.
:class:`ActionCodec` maps every legal move of a position (its
:meth:`~analyzer.core.state.GameState.legal_moves`) to a distinct integer and back;
the full table is in ``docs/openspiel.md``.  With ``n`` players, hand size
``h`` and ``M`` catalog melds (182 in ``classic``, 194 in ``megajogos``):

====================================  =============================================
actions                               move
====================================  =============================================
``0 .. 39``                           ``give c``: pass card index ``c`` (R9)
``40``                                ``pass`` (R12)
``41 .. 41+n-1``                      ``force q``: force seat ``q`` (R14)
``41+n .. 41+n+M-1``                  ``meld m``: the catalog meld number ``m`` (R16)
``P .. P + (h*2**(h-1) + 1)*4 - 1``   a placement: ``take`` in an offer (R13, R15),
                                      ``lay`` when forced (R14); ``P = 41+n+M``
====================================  =============================================

A placement is ``P + 4 * code + slot``.  Number the acting player's hand
cards ``0 .. k-1`` in card-index order (``k <= h``).  Paying hand card ``i``
while melding the hand cards of the set ``U`` (``i`` not in ``U``) is
``code = i * 2**(h-1) + u``, where ``u`` has bit ``j`` set when the
``j``-th of the *other* hand cards (``i`` skipped) is in ``U``; going out
(every hand card melded, R15) is ``code = h * 2**(h-1)``.  The same cards
may be arranged in up to four ways that differ in what can be laid off on
them (R6, R14); ``slot`` is the rank of the arrangement among those of the
same cards, in the engine's order.  No set of at most 11 cards has more
than four such arrangements for any ``max_run`` (checked exhaustively in
the tests), hence the hand size limit :data:`MAX_HAND`.

Chance outcomes (R8, R10) are card indices ``0 .. 39`` (a dealt or turned
card), or a seat for the choice of the dealer.

``classic`` has ``41 + 2 + 182 + 5121 * 4 = 20709`` actions and ``megajogos``
``41 + 3 + 194 + 1025 * 4 = 4338``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from analyzer.core.cards import format_card, format_mask, iter_mask
from analyzer.core.errors import ConquianError, IllegalMoveError
from analyzer.core.melds import cards_of, catalog
from analyzer.core.moves import Force, Give, LayIn, Meld, Move, Pass, Take, Turn
from analyzer.core.rules import Rules, get_rules
from analyzer.core.state import GameState, Phase

__all__ = ["ARRANGEMENTS", "MAX_HAND", "NUM_CARDS", "ActionCodec"]

NUM_CARDS = 40
"""Cards in the deck (R1): the give actions and the chance outcomes."""

MAX_HAND = 10
"""Largest hand size the placement encoding covers (``classic`` deals 10, R8)."""

ARRANGEMENTS = 4
"""Arrangement slots per placement code: the most distinct lay-off exposures (R6, R14) of
one set of at most ``MAX_HAND + 1`` cards, for every ``max_run`` (an exhaustive count)."""


class ActionCodec:
    """The integer actions of one variant and their moves (see the module table).

    Parameters
    ----------
    rules : Rules or str
        The variant.

    Attributes
    ----------
    rules : Rules
    num_actions : int
        Size of the action space: every action is in ``range(num_actions)``.
    pass_action : int
        The action of ``pass``.
    force_base, meld_base, place_base : int
        First action of the force, hand-only meld and placement blocks.
    out_code : int
        Placement code of going out (R15).

    Raises
    ------
    ConquianError
        If the hand size is over :data:`MAX_HAND` (the placement block would
        not cover it).
    """

    def __init__(self, rules: Rules | str) -> None:
        rules = get_rules(rules)
        if rules.hand_size > MAX_HAND:
            raise ConquianError(
                f"the action encoding covers hands of at most {MAX_HAND} cards, "
                f"{rules.name!r} deals {rules.hand_size}"
            )
        self.rules = rules
        n, h = rules.players, rules.hand_size
        self.pass_action = NUM_CARDS
        self.force_base = NUM_CARDS + 1
        self.meld_base = self.force_base + n
        self._melds = catalog(rules)
        self._meld_index = {m: i for i, m in enumerate(self._melds)}
        self.place_base = self.meld_base + len(self._melds)
        self._half = 1 << (h - 1)
        self.out_code = h * self._half
        self.num_actions = self.place_base + (self.out_code + 1) * ARRANGEMENTS
        self._table: Callable[[GameState], dict[int, Move]] = lru_cache(maxsize=4096)(self._build)

    def __repr__(self) -> str:
        return f"ActionCodec({self.rules!r})"

    # ------------------------------------------------------------ positions
    def table(self, state: GameState) -> dict[int, Move]:
        """Every legal action of ``state`` and its move, in increasing action order.

        At a turn (a chance node, R10) the actions are the turnable card
        indices.  The table is cached per position; do not change it.

        Raises
        ------
        PositionError
            If the moves of the player to act are hidden in ``state``.
        ConquianError
            If two legal moves would share an action (never expected: the
            encoding is one to one by construction).
        """
        return self._table(state)

    def legal_actions(self, state: GameState) -> list[int]:
        """The legal actions of ``state``, increasing (OpenSpiel's order)."""
        return list(self._table(state))

    def encode(self, state: GameState, move: Move) -> int:
        """The action of ``move`` in ``state``.

        Raises
        ------
        IllegalMoveError
            If ``move`` is not legal in ``state``.
        """
        for action, legal in self._table(state).items():
            if legal == move:
                return action
        raise IllegalMoveError(
            f"illegal move {move.text(state.rules.labels)!r} in this position ({state.describe()})"
        )

    def decode(self, state: GameState, action: int) -> Move:
        """The move of ``action`` in ``state``.

        Raises
        ------
        IllegalMoveError
            If ``action`` is not a legal action of ``state``; the message
            says what the action means (:meth:`describe`).
        """
        move = self._table(state).get(int(action))
        if move is None:
            raise IllegalMoveError(
                f"action {action} ({self.describe(action)}) is not legal in this position "
                f"({state.describe()})"
            )
        return move

    def describe(self, action: int) -> str:
        """What ``action`` means without a position, e.g. ``"give 7H"`` or ``"pass"``.

        A placement is described by its code: the hand positions (0 = lowest
        card) melded and paid, and the arrangement slot.
        """
        labels = self.rules.labels
        action = int(action)
        if not 0 <= action < self.num_actions:
            return f"no action (the actions are 0..{self.num_actions - 1})"
        if action < NUM_CARDS:
            return f"give {format_card(action, labels)}"
        if action == self.pass_action:
            return "pass"
        if action < self.meld_base:
            return f"force {action - self.force_base}"
        if action < self.place_base:
            return f"meld [{format_mask(self._melds[action - self.meld_base], labels)}]"
        code, slot = divmod(action - self.place_base, ARRANGEMENTS)
        if code == self.out_code:
            return f"placement: go out, arrangement {slot}"
        pay, used = divmod(code, self._half)
        others = [i for i in range(self.rules.hand_size) if i != pay]
        melded = [others[j] for j in range(len(others)) if used >> j & 1]
        return (
            f"placement: meld hand positions {melded or 'none'}, pay hand position {pay}, "
            f"arrangement {slot}"
        )

    def placement_code(self, hand: int, used: int, pay: int | None) -> int:
        """The placement code of melding hand cards ``used`` and paying ``pay`` (``None``: going out).

        Parameters
        ----------
        hand : int
            Mask of the acting player's hand.
        used : int
            Mask of the hand cards melded (a subset of ``hand``).
        pay : int or None
            Card index paid, a hand card outside ``used``; ``None`` when
            every hand card is melded (R15).

        Raises
        ------
        IllegalMoveError
            If ``pay`` is not a hand card or is melded too.
        """
        if pay is None:
            return self.out_code
        cards = list(iter_mask(hand))
        if pay not in cards or used >> pay & 1:
            raise IllegalMoveError("the card paid must be a hand card that is not melded")
        position = cards.index(pay)
        bits = 0
        j = 0
        for i, card in enumerate(cards):
            if i == position:
                continue
            if used >> card & 1:
                bits |= 1 << j
            j += 1
        return position * self._half + bits

    # ------------------------------------------------------------- building
    def _build(self, state: GameState) -> dict[int, Move]:
        if state.phase is Phase.TURN:
            return {move.card: move for move, _ in _turns(state)}
        table: dict[int, Move] = {}
        moves = state.legal_moves()
        hand = state.hand(state.to_act) if moves else 0
        slots: dict[int, dict[tuple[int, ...], int]] = {}
        for move in moves:
            action = self._action(move, hand, slots)
            if action in table:
                raise ConquianError(f"two moves share action {action}: {table[action]} and {move}")
            table[action] = move
        return dict(sorted(table.items()))

    def _action(self, move: Move, hand: int, slots: dict[int, dict[tuple[int, ...], int]]) -> int:
        if isinstance(move, Give):
            return move.card
        if isinstance(move, Pass):
            return self.pass_action
        if isinstance(move, Force):
            return self.force_base + move.player
        if isinstance(move, Meld):
            return self.meld_base + self._meld_index[move.meld]
        if isinstance(move, (Take, LayIn)):
            used = cards_of(move.layout) & hand
            group = slots.setdefault(used, {})
            slot = group.setdefault(move.layout, len(group))
            if slot >= ARRANGEMENTS:
                raise ConquianError(
                    f"more than {ARRANGEMENTS} arrangements of the same cards: {move}"
                )
            code = self.placement_code(hand, used, move.pay)
            return self.place_base + code * ARRANGEMENTS + slot
        assert isinstance(move, Turn)
        return move.card


def _turns(state: GameState) -> list[tuple[Turn, float]]:
    return [(move, p) for move, p in state.chance_outcomes() if isinstance(move, Turn)]
