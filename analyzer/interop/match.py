"""One deal as learning libraries see it: explicit chance, integer actions, private views.

:class:`Match` is the library-free core of the OpenSpiel game and the
PettingZoo environment.  It is immutable (every action gives a new match) and
holds what the engine's :class:`~analyzer.core.state.GameState` does not:

* **chance for the deal** (R8): the dealer (when not given) and then every
  dealt card, one at a time from the player after the dealer, are chance
  outcomes; every turned card is one too (R10), drawn uniformly from the
  stock, whose order is never fixed in advance;
* **the history** of moves, so that a player's *information state* is what
  he has seen (perfect recall): his own cards and exchange (R9), and every
  public move, turned card, pass, take, force and payment;
* **sampling a history** that a player cannot tell from the real one
  (:meth:`Match.resample`), for IS-MCTS.

The exchange (R9) is the engine's: turn-order ``give`` moves that nobody else
sees, applied together once all have chosen.  Actions are those of
:class:`~analyzer.interop.codec.ActionCodec`.

A match may also start from a position (:meth:`Match.from_position`): its
history then starts there, and the information state shows the position as
that player saw it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from analyzer.core.cards import format_card, iter_mask
from analyzer.core.dealing import deal, view
from analyzer.core.errors import ConquianError, IllegalMoveError, PositionError
from analyzer.core.melds import cards_of
from analyzer.core.moves import Give, LayIn, Meld, Move, Pass, Take, Turn
from analyzer.core.rules import RULE_OPTIONS, Rules, get_rules
from analyzer.core.state import GameState, Offer, Phase
from analyzer.interop import observation
from analyzer.interop.codec import NUM_CARDS, ActionCodec
from analyzer.interop.observation import tensor_layout
from analyzer.search.sampling import chosen_gifts, sample_deal, sample_world

__all__ = [
    "CHANCE",
    "RULE_OPTIONS",
    "TERMINAL",
    "Match",
    "codec_for",
    "rules_with",
    "sample_world",
    "tensor_layout",
]

CHANCE = -1
"""Player id of a chance node (OpenSpiel's)."""

TERMINAL = -4
"""Player id once the deal is over (OpenSpiel's)."""

def rules_with(variant: str | Rules = "classic", **options: Any) -> Rules:
    """A preset with some rule options changed (RULES.md section 4).

    Parameters
    ----------
    variant : str or Rules
        ``"classic"`` or ``"megajogos"`` (or a :class:`~analyzer.core.rules.Rules`).
    **options
        Any of :data:`RULE_OPTIONS`: ``players``, ``hand_size``, ``max_run``
        (int), ``exchange``, ``force_fit``, ``force_when``, ``on_stock_out``
        (their text values, e.g. ``"after_decline"``), ``hand_melds`` (bool,
        or ``"true"``/``"false"``).  ``None``, ``-1`` and ``""`` keep the
        preset's value.

    Raises
    ------
    ConquianError
        For an unknown variant or option, a bad value, or numbers that cannot
        make a deal; the message names the option.
    """
    try:
        return get_rules(variant).with_options(options)
    except ValueError as exc:
        raise ConquianError(str(exc)) from None


@cache
def codec_for(rules: Rules) -> ActionCodec:
    """The :class:`ActionCodec` of ``rules`` (one per variant)."""
    return ActionCodec(rules)


@dataclass(frozen=True)
class Match:
    """A deal in progress with its history (see the module docstring).

    Build one with :meth:`new` or :meth:`from_position`; advance it with
    :meth:`apply`.

    Attributes
    ----------
    rules : Rules
    dealer : int or None
        The dealer (R8); ``None`` until chance has chosen him.
    fixed_dealer : bool
        True when the dealer was given rather than drawn by chance.
    dealt : tuple of int
        Cards dealt so far, in dealing order (empty for a match that
        started from a position).
    start : GameState or None
        The position play started from: after the deal, or the given one.
    state : GameState or None
        The current position (every hand known, the stock order left to
        chance); ``None`` during the deal.
    events : tuple of (int or None, Move)
        Moves since ``start``: acting seat (``None`` for a turned card) and move.
    paid, declined, departed : tuple of int
        Per seat, masks of the cards he paid (R13, R14), the centre cards he
        passed (R12), and every card that left his hand in view of all
        (melded or paid) since ``start``.
    """

    rules: Rules
    dealer: int | None
    fixed_dealer: bool
    dealt: tuple[int, ...]
    start: GameState | None
    state: GameState | None
    events: tuple[tuple[int | None, Move], ...]
    paid: tuple[int, ...]
    declined: tuple[int, ...]
    departed: tuple[int, ...]

    # A match never changes: copies share it (OpenSpiel clones states by deepcopy).
    def __copy__(self) -> Match:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        return self

    # ------------------------------------------------------------ builders
    @classmethod
    def new(cls, rules: Rules | str, dealer: int | None = None) -> Match:
        """A deal about to be dealt (R8).

        Parameters
        ----------
        rules : Rules or str
        dealer : int, optional
            The dealer; drawn by chance (a chance node with one outcome per
            seat) when omitted.

        Raises
        ------
        ConquianError
            If ``dealer`` is not a seat.
        """
        rules = get_rules(rules)
        if dealer is not None and not 0 <= dealer < rules.players:
            raise ConquianError(f"no seat {dealer} to deal in {rules.name}")
        zeros = (0,) * rules.players
        return cls(rules, dealer, dealer is not None, (), None, None, (), zeros, zeros, zeros)

    @classmethod
    def from_position(cls, state: GameState) -> Match:
        """A match that starts at ``state``, a whole deal (every hand known).

        The stock order, if ``state`` has one, is dropped: every turn is a
        chance outcome drawn uniformly from the stock (R10).

        Raises
        ------
        PositionError
            If a hand is hidden in ``state``, or an exchange gift is hidden.
        """
        if any(h is None for h in state.hands):
            raise PositionError("a match needs every hand: sample the hidden ones first")
        if state.phase is Phase.EXCHANGE and None in chosen_gifts(state):
            raise PositionError("a gift chosen in the exchange is hidden: sample it first")
        start = state.evolve(stock=None)
        zeros = (0,) * state.rules.players
        return cls(state.rules, state.dealer, True, (), start, start, (), zeros, zeros, zeros)

    # ---------------------------------------------------------------- facts
    @property
    def codec(self) -> ActionCodec:
        """The action codec of this variant."""
        return codec_for(self.rules)

    @property
    def in_deal(self) -> bool:
        """True while the cards are being dealt (R8)."""
        return self.state is None

    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` at a chance node, :data:`TERMINAL` when over."""
        if self.state is None:
            return CHANCE
        return self.state.current_player()

    def is_chance_node(self) -> bool:
        """True when chance acts: the dealer, a dealt card (R8) or a turned card (R10)."""
        return self.state is None or self.state.is_chance_node()

    def is_terminal(self) -> bool:
        """True when the deal is over (R15, R18)."""
        return self.state is not None and self.state.is_terminal()

    def returns(self) -> list[float]:
        """Result per seat (R20): winner +1, the others -1, a draw 0; all 0 before the end."""
        if not self.is_terminal():
            return [0.0] * self.rules.players
        assert self.state is not None
        return list(self.state.returns())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance actions and their probabilities, increasing by action.

        Raises
        ------
        ConquianError
            If this is not a chance node.
        """
        n = self.rules.players
        if self.state is None:
            if self.dealer is None:
                return [(seat, 1.0 / n) for seat in range(n)]
            taken = 0
            for card in self.dealt:
                taken |= 1 << card
            left = [c for c in range(NUM_CARDS) if not taken >> c & 1]
            return [(c, 1.0 / len(left)) for c in left]
        if not self.state.is_chance_node():
            raise ConquianError("not a chance node")
        return [
            (move.card, p) for move, p in self.state.chance_outcomes() if isinstance(move, Turn)
        ]

    def legal_actions(self) -> list[int]:
        """The legal actions, increasing: chance outcomes at a chance node, none when over."""
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        assert self.state is not None
        if self.state.is_terminal():
            return []
        return self.codec.legal_actions(self.state)

    def move_of(self, action: int) -> Move | None:
        """The engine move of ``action`` here; ``None`` for a chance action of the deal.

        Raises
        ------
        IllegalMoveError
            If ``action`` is not legal here.
        """
        if self.state is None:
            if action not in dict(self.chance_outcomes()):
                raise IllegalMoveError(f"{action} is not a chance outcome of the deal here")
            return None
        return self.codec.decode(self.state, action)

    def action_text(self, action: int) -> str:
        """``action`` in words: its move text here, else what it means in general."""
        labels = self.rules.labels
        if self.state is None:
            if self.dealer is None:
                return f"dealer {action}"
            return f"deal {format_card(action, labels)}" if 0 <= action < NUM_CARDS else "?"
        table = {} if self.state.is_terminal() else self.codec.table(self.state)
        move = table.get(action)
        if move is not None:
            return move.text(labels)
        if self.state.is_chance_node() and 0 <= action < NUM_CARDS:
            return f"turn {format_card(action, labels)}"
        return self.codec.describe(action)

    # ---------------------------------------------------------------- apply
    def apply(self, action: int) -> Match:
        """The match after ``action`` (a chance outcome or the acting seat's action).

        Raises
        ------
        IllegalMoveError
            If ``action`` is not legal here.
        """
        action = int(action)
        if self.state is None:
            self.move_of(action)  # checks the outcome
            if self.dealer is None:
                return replace(self, dealer=action)
            dealt = (*self.dealt, action)
            if len(dealt) < _deal_size(self.rules):
                return replace(self, dealt=dealt)
            start = _dealt_state(self.rules, self.dealer, dealt)
            return replace(self, dealt=dealt, start=start, state=start)
        move = self.codec.decode(self.state, action)  # a legal move: no second check
        return self._play(move, check=False)

    def play(self, move: Move) -> Match:
        """The match after the engine move ``move`` (legality checked by the engine).

        Raises
        ------
        IllegalMoveError
            If ``move`` is not legal here.
        ConquianError
            During the deal, which has no engine moves.
        """
        return self._play(move, check=True)

    def _play(self, move: Move, *, check: bool) -> Match:
        state = self.state
        if state is None:
            raise ConquianError("the cards are being dealt: no move yet")
        after = state.apply(move, check=check)
        actor = None if isinstance(move, Turn) else state.to_act
        paid, declined, departed = list(self.paid), list(self.declined), list(self.departed)
        if actor is not None:
            if isinstance(move, Pass) and state.centre is not None:
                declined[actor] |= 1 << state.centre.card
            elif isinstance(move, (Take, LayIn)):
                used = cards_of(move.layout) & state.hand(actor)
                departed[actor] |= used
                if move.pay is not None:
                    paid[actor] |= 1 << move.pay
                    departed[actor] |= 1 << move.pay
            elif isinstance(move, Meld):
                departed[actor] |= move.meld
        return replace(
            self,
            state=after,
            events=(*self.events, (actor, move)),
            paid=tuple(paid),
            declined=tuple(declined),
            departed=tuple(departed),
        )

    # ------------------------------------------------------------ resampling
    def resample(self, player: int, rng: random.Random) -> tuple[Match, list[int]]:
        """A history ``player`` cannot tell from this one, drawn at random.

        The hidden cards are drawn uniformly among the deals consistent with
        what ``player`` has seen (:func:`analyzer.search.sampling.sample_deal`: no
        inference from the others' choices), and so are the others' hidden
        exchange gifts (R9).  The public moves are the same.

        Parameters
        ----------
        player : int
            The seat whose information is kept.
        rng : random.Random

        Returns
        -------
        (Match, list of int)
            The match the history starts from (:meth:`new` or
            :meth:`from_position`) and the actions that replay it; applying
            them gives a match with the same :meth:`information_string` for
            ``player``.

        Raises
        ------
        ConquianError
            If ``player`` is not a seat.
        """
        n = self.rules.players
        if not 0 <= player < n:
            raise ConquianError(f"no seat {player} in {self.rules.name}")
        head: list[int] = [] if self.fixed_dealer or self.dealer is None else [self.dealer]
        origin = Match.new(self.rules, self.dealer if self.fixed_dealer else None)
        if self.state is None:
            return origin, head + self._redeal_partial(player, rng)
        assert self.start is not None
        world, gifts = self._sample_now(player, rng)
        starts = self._start_hands(player, world, gifts)
        start = self.start
        new_start = start.evolve(
            hands=tuple(starts),
            gifts=_with_hidden(start.gifts, gifts, player),
            gave=_with_hidden(start.gave, gifts, player),
        )
        if self.dealt:
            origin_actions = head + self._redeal(player, starts, rng)
        else:
            origin = Match.from_position(new_start)
            origin_actions = []
        actions: list[int] = []
        replay = origin
        for action in origin_actions:
            replay = replay.apply(action)
        for actor, move in self.events:
            if isinstance(move, Give) and actor is not None and actor != player:
                move = Give(gifts[actor])
            assert replay.state is not None
            action = replay.codec.encode(replay.state, move)
            replay = replay.play(move)
            actions.append(action)
        return origin, origin_actions + actions

    def _redeal_partial(self, player: int, rng: random.Random) -> list[int]:
        """During the deal: the others' cards so far drawn again from those ``player`` lacks."""
        assert self.dealer is not None or not self.dealt
        if self.dealer is None:
            return []
        mine = self._slots(player, len(self.dealt))
        own = 0
        for k in mine:
            own |= 1 << self.dealt[k]
        pool = [c for c in range(NUM_CARDS) if not own >> c & 1]
        rng.shuffle(pool)
        out = list(self.dealt)
        it = iter(pool)
        for k in range(len(out)):
            if k not in mine:
                out[k] = next(it)
        return out

    def _slots(self, player: int, count: int) -> set[int]:
        assert self.dealer is not None
        n = self.rules.players
        count = min(count, n * self.rules.hand_size)  # the upcard (R10a) is nobody's
        return {k for k in range(count) if (self.dealer + 1 + k) % n == player}

    def _sample_now(self, player: int, rng: random.Random) -> tuple[list[int], list[int]]:
        """Current hands and every seat's exchange gift (-1: none), as ``player`` may imagine them."""
        state = self.state
        assert state is not None
        n = self.rules.players
        world = sample_deal(view(state, player), player, rng)
        hands = [h or 0 for h in world.hands]
        gifts = [-1] * n
        if state.phase is Phase.EXCHANGE:
            for q, g in enumerate(state.gifts):
                if g is not None:
                    gifts[q] = g if q == player else rng.choice(list(iter_mask(hands[q])))
        elif state.gave:
            post = [hands[q] | self.departed[q] for q in range(n)]
            for q, g in enumerate(state.gave):
                assert g is not None
                known = q == player or (q + 1) % n == player
                gifts[q] = g if known else rng.choice(list(iter_mask(post[(q + 1) % n])))
        return hands, gifts

    def _start_hands(self, player: int, hands: list[int], gifts: list[int]) -> list[int]:
        """Each seat's hand at ``start`` given his current hand, public departures and gifts."""
        state, start = self.state, self.start
        assert state is not None and start is not None
        n = self.rules.players
        post = [hands[q] | self.departed[q] for q in range(n)]
        exchanged_since = start.phase is Phase.EXCHANGE and state.phase is not Phase.EXCHANGE
        if not exchanged_since:
            return post
        return [post[q] & ~(1 << gifts[(q - 1) % n]) | 1 << gifts[q] for q in range(n)]

    def _redeal(self, player: int, starts: Sequence[int], rng: random.Random) -> list[int]:
        """Dealing order of the start hands: ``player``'s cards where they were, the others' shuffled."""
        assert self.dealer is not None
        n = self.rules.players
        pools = {q: list(iter_mask(starts[q])) for q in range(n) if q != player}
        for cards in pools.values():
            rng.shuffle(cards)
        out: list[int] = []
        for k, card in enumerate(self.dealt):
            q = (self.dealer + 1 + k) % n
            upcard = k >= n * self.rules.hand_size  # face up (R10a): it stays
            out.append(card if q == player or upcard else pools[q].pop())
        return out

    # ------------------------------------------------ what a player sees (analyzer.interop.observation)
    def information_string(
        self, player: int, *, private: str = "single", public: bool = True
    ) -> str:
        """What ``player`` knows, with perfect recall (:func:`~analyzer.interop.observation.information_string`)."""
        return observation.information_string(self, player, private=private, public=public)

    def observation_string(
        self, player: int, *, private: str = "single", public: bool = True
    ) -> str:
        """What ``player`` sees now (:func:`~analyzer.interop.observation.observation_string`)."""
        return observation.observation_string(self, player, private=private, public=public)

    def tensor(
        self, player: int, *, private: str = "single", public: bool = True, recall: bool = True
    ) -> list[float]:
        """``player``'s information as numbers (:func:`~analyzer.interop.observation.tensor`)."""
        return observation.tensor(self, player, private=private, public=public, recall=recall)
    def __str__(self) -> str:
        return observation.describe_match(self)


def _with_hidden(
    values: tuple[int | None, ...], gifts: Sequence[int], player: int
) -> tuple[int | None, ...]:
    """``values`` (a start's gifts or gave) with the other seats' entries from ``gifts``."""
    if not values:
        return values
    return tuple(
        v if v is None or q == player or gifts[q] < 0 else gifts[q] for q, v in enumerate(values)
    )


def _dealt_state(rules: Rules, dealer: int, dealt: Sequence[int]) -> GameState:
    """The position after the deal (R8): hands from the dealing order, the stock order unknown."""
    n = rules.players
    hands = [0] * n
    for k, card in enumerate(dealt[: n * rules.hand_size]):
        hands[(dealer + 1 + k) % n] |= 1 << card
    state = deal(rules, 0, dealer=dealer)
    if rules.upcard:  # the card after the hands, turned up (R10a)
        assert state.centre is not None
        upcard = Offer(dealt[-1], "upcard", dealer)
        return state.evolve(hands=tuple(hands), stock=None, centre=upcard)
    return state.evolve(hands=tuple(hands), stock=None)


def _deal_size(rules: Rules) -> int:
    """Cards chance deals before play: the hands, and the upcard where one is turned (R8, R10a)."""
    return rules.players * rules.hand_size + int(rules.upcard)
