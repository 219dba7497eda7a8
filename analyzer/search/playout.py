"""Playouts: a deal played to its end by a fast fixed policy, and a leaf evaluation made of them.

The ``eager`` policy (the playout policy of the ``ismcts`` bot and of the hint
engine's ``rollout`` leaf): go out when possible (R15); else the take that
melds the most cards, paying the card with the fewest links to the cards kept
(same rank, R4, or same suit within two ranks, R5); else a hand-only meld
(R16); else force a player who cannot go out by it (R14); else pass.  A card
to lay in or give (R9) is likewise the least linked one.  Ties are broken by
the random generator.  It looks at nothing but the hand and the centre card,
so it plays the same whether or not the stock order is known: a playout on a
sampled deal is an unbiased sample of the result of that deal under the
policy, with no knowledge of the cards to come (the search above the leaves
is what sees them).
"""

from __future__ import annotations

import random
from typing import Any

from analyzer.core import native
from analyzer.core.cards import NUM_CARDS
from analyzer.core.melds import cards_of
from analyzer.core.moves import Force, Give, LayIn, Meld, Move, Pass, Take, Turn
from analyzer.core.state import GameState, Phase
from analyzer.search.options import OPPONENTS as _OPPONENTS
from analyzer.search.options import PLAYOUTS as _PLAYOUTS
from analyzer.search.options import POLICIES as _POLICIES
from analyzer.search.outcome import Outcome, outcome_vector

__all__ = [
    "LINKS", "OPPONENTS", "PLAYOUTS", "POLICIES", "RolloutLeaf", "eager_move", "playout", "playout_outcome",
    "playout_outcomes", "random_turn",
]

POLICIES = _POLICIES
"""Playout policies: ``eager`` (see the module docstring) or ``random`` (uniform legal moves)."""

PLAYOUTS = _PLAYOUTS
"""How a search plays its own seat in the playouts: ``eager`` like every other seat, or
``nomeld``: ``eager`` without laying melds from the hand alone (R16), so that a search weighs
laying a hand meld now against never laying it, not against laying it at the next offer (the
others stay ``eager``)."""

OPPONENTS = _OPPONENTS
"""How a search lets the other players choose: ``search`` (their choices are searched: UCB1 in
:func:`analyzer.search.mcts.search`, alpha-beta or max-n in :class:`analyzer.search.lookahead.Lookahead`) or
``policy`` (each plays the ``eager`` policy's move, :func:`eager_move`: an opponent model)."""


def _link_masks() -> tuple[int, ...]:
    """Per card: the mask of the cards that link with it (same rank, or same suit within two ranks)."""
    masks = []
    for card in range(NUM_CARDS):
        rank, suit = divmod(card, 4)
        mask = 0
        for other in range(NUM_CARDS):
            r, s = divmod(other, 4)
            if other != card and (r == rank or (s == suit and abs(r - rank) <= 2)):
                mask |= 1 << other
        masks.append(mask)
    return tuple(masks)


LINKS = _link_masks()
"""Per card index (0-39): the mask of the cards that link with it, the links of the ``eager`` policy."""


def _links(card: int, hand: int) -> int:
    """How much ``card`` helps the cards of ``hand``: same rank (a set, R4), or same suit within
    two ranks (a run, R5); one bit count on a table made once."""
    return (hand & LINKS[card]).bit_count()


def _cheapest(moves: list[Any], hand: int, rng: random.Random) -> Any:
    """Among takes, lay-ins or gives: the one giving up the card least linked to what stays."""

    def cost(move: Any) -> int:
        card = move.card if isinstance(move, Give) else move.pay
        kept = hand & ~cards_of(move.layout) if isinstance(move, (Take, LayIn)) else hand
        return _links(card, kept)

    low = min(cost(m) for m in moves)
    return rng.choice([m for m in moves if cost(m) == low])


def eager_move(state: GameState, moves: list[Move], rng: random.Random) -> Move:
    """The ``eager`` playout policy's move among ``moves`` (see the module docstring)."""
    best: list[Take] = []
    most = -1
    for move in moves:
        if isinstance(move, (Take, LayIn)) and move.pay is None:
            return move  # going out wins (R15)
        if isinstance(move, Take):
            count = cards_of(move.layout).bit_count()
            if count > most:
                best, most = [move], count
            elif count == most:
                best.append(move)
    hand = state.hands[state.to_act] or 0
    if best:
        chosen: Move = _cheapest(best, hand, rng)
        return chosen
    for move in moves:
        if isinstance(move, Meld):
            return move
    forces = [m for m in moves if isinstance(m, Force) and state.counts[m.player] > 0]
    if forces:
        return rng.choice(forces)
    if state.phase is Phase.OFFER:
        return Pass()
    if state.phase in (Phase.FORCED, Phase.EXCHANGE):
        picked: Move = _cheapest(moves, hand, rng)
        return picked
    return rng.choice(moves)


def random_turn(state: GameState, rng: random.Random) -> Turn:
    """The card a chance node turns (R10): the top of a known stock, else a stock card drawn
    uniformly; the same draw as picking from :meth:`GameState.chance_outcomes` by
    ``rng.randrange``, without building the outcome list.

    Parameters
    ----------
    state : GameState
        A chance node (``Phase.TURN``).
    rng : random.Random
        Consumed exactly as ``outcomes[rng.randrange(len(outcomes))]`` would.

    Returns
    -------
    Turn

    Raises
    ------
    PositionError
        If the stock cards are unknown (hidden hands and no stock order).
    """
    if state.stock is not None:
        rng.randrange(1)  # as the one-outcome list costs
        return Turn(state.stock[0])
    mask = state.stock_mask()
    if mask is None:
        state.chance_outcomes()  # raises: the stock cards are unknown while hands are hidden
        raise AssertionError("unreachable")
    # The k-th stock card in index order, as chance_outcomes lists them.
    for _ in range(rng.randrange(mask.bit_count())):
        mask &= mask - 1
    return Turn((mask & -mask).bit_length() - 1)


def _eager_offer(state: GameState, rng: random.Random, melds: bool = True) -> Move:
    """``eager_move(state, state.legal_moves(), rng)`` at an offer, generating only the moves
    it can pick: takes first; without one the first hand-only meld (unless ``melds`` is
    False), then a force, then pass."""
    takes = state.takes()
    if takes:
        return eager_move(state, list(takes), rng)
    if melds and state.rules.hand_melds:
        for meld in state.hand_melds():
            return Meld(meld)
    forces = [Force(k) for k in state.forceable_players() if state.counts[k] > 0]
    if forces:
        return rng.choice(forces)
    return Pass()


def _play(state: GameState, policy: str, rng: random.Random, quiet: int = -1) -> GameState:
    """``state`` played to its end with ``policy``: turned cards uniformly from the stock (R10);
    with ``eager``, player ``quiet`` (if any) never lays a meld from his hand alone (R16)."""
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
    eager = policy == "eager"
    while not state.is_terminal():
        if state.is_chance_node():
            move: Move = random_turn(state, rng)
        elif eager and state.phase is Phase.OFFER:
            # Offers that nobody can use are passed at once (no draw is spent on a pass).
            state, steps = state.run_forced(1 << 30, turns=False)
            if steps:
                continue
            move = _eager_offer(state, rng, state.to_act != quiet)
        else:
            moves = state.legal_moves()
            move = eager_move(state, moves, rng) if eager else rng.choice(moves)
        state = state.apply(move, check=False)
    return state


def playout(state: GameState, policy: str, rng: random.Random) -> tuple[float, ...]:
    """Play ``state`` (every hand known) to the end with ``policy``; the results per R20.

    Turned cards follow the stock order when it is known, else are drawn
    uniformly from the stock (R10).

    Raises
    ------
    ValueError
        If ``policy`` is not one of :data:`POLICIES`.
    """
    if native.ACTIVE and policy in POLICIES and None not in state.hands:
        outcome = _native_playout(state, policy, rng, -1)
        n = state.rules.players
        if outcome[n] == 1.0:
            return tuple(0.0 for _ in range(n))
        return tuple(1.0 if outcome[p] == 1.0 else -1.0 for p in range(n))
    return _play(state, policy, rng).returns()


def playout_outcome(state: GameState, policy: str, rng: random.Random, quiet: int = -1) -> Outcome:
    """Play ``state`` to the end like :func:`playout`; the outcome vector (1.0 for the winner,
    or for the draw, R18, R20), as :func:`analyzer.search.exact.outcome_vector` gives it.

    Parameters
    ----------
    state : GameState
        Every hand known.
    policy : str
        One of :data:`POLICIES`.
    rng : random.Random
    quiet : int
        With ``eager``: a player who never lays a meld from his hand alone (R16) in the
        playout (the searching player of a ``nomeld`` search, :data:`PLAYOUTS`); -1: none.

    Raises
    ------
    ValueError
        If ``policy`` is not one of :data:`POLICIES`.
    """
    if native.ACTIVE and policy in POLICIES and None not in state.hands:
        return _native_playout(state, policy, rng, quiet)
    return outcome_vector(_play(state, policy, rng, quiet))


def playout_outcomes(
    state: GameState, policy: str, rng: random.Random, count: int, quiet: int = -1
) -> list[Outcome]:
    """``count`` playouts of ``state`` one after the other, each :func:`playout_outcome` with the
    same ``rng`` (the native core plays them in one call).

    Raises
    ------
    ValueError
        If ``policy`` is not one of :data:`POLICIES`, or ``count`` is negative.
    """
    if count < 0:
        raise ValueError(f"count must be at least 0, not {count}")
    if native.ACTIVE and policy in POLICIES and None not in state.hands:
        return _native_playouts(state, policy, rng, quiet, count)
    return [outcome_vector(_play(state, policy, rng, quiet)) for _ in range(count)]


def _native_playout(state: GameState, policy: str, rng: random.Random, quiet: int) -> Outcome:
    """:func:`playout_outcome` by the native core: the same draws from ``rng``, the same end."""
    return _native_playouts(state, policy, rng, quiet, 1)[0]


def _native_playouts(
    state: GameState, policy: str, rng: random.Random, quiet: int, count: int
) -> list[Outcome]:
    options: native.PlayoutOptions = {"eager": policy == "eager", "rng": native.rng_state(rng),
                                       "quiet": quiet, "count": count}  # fmt: skip
    data: native.PlayoutData = native.native_module().playout(
        native.pack_rules(state.rules), native.pack_state(state), options
    )
    native.set_rng_state(rng, data["rng"])
    return [tuple(o) for o in data["outcomes"]]


class RolloutLeaf:
    """Leaf evaluation by playouts: the mean outcome vector of ``playouts`` eager playouts.

    Parameters
    ----------
    playouts : int
        Playouts per evaluated position (at least 1).  On a sampled deal with
        the stock order known the eager policy is deterministic but for ties,
        so one is usually enough; the samples of the hint supply the variety.
    seed : int
        Seeds the ties and, with the stock order unknown, the turned cards.

    Returns (when called)
    ---------------------
    tuple of float
        Probabilities of (player 0 wins, ..., player n-1 wins, draw), each a
        multiple of ``1 / playouts``.

    Raises
    ------
    ValueError
        If ``playouts`` is below 1.
    """

    def __init__(self, playouts: int = 1, seed: int = 0) -> None:
        if playouts < 1:
            raise ValueError(f"playouts must be at least 1, not {playouts}")
        self.playouts = playouts
        self.rng = random.Random(seed)

    def __call__(self, state: GameState) -> Outcome:
        """The mean outcome vector of the playouts from ``state`` (every hand known)."""
        runs = playout_outcomes(state, "eager", self.rng, self.playouts)
        return tuple(sum(column) / self.playouts for column in zip(*runs, strict=True))
