"""Bots that choose moves from a player's view: ``random``, ``greedy`` and ``hint``.

Every bot implements :class:`Bot`: ``choose(view, rng)`` gets the view of
the player to act (:func:`analyzer.position.view`: his own hand, the table,
counts) and returns one of ``view.legal_moves()``.  Bots never see hidden
cards, so any bot can sit at any seat.
"""

from __future__ import annotations

import random
from typing import Protocol

from analyzer.cards import FULL_DECK
from analyzer.errors import ConquianError
from analyzer.melds import cards_of, catalog
from analyzer.moves import Force, Give, LayIn, Meld, Move, Pass, Take
from analyzer.partition import best_take
from analyzer.state import GameState, Phase

__all__ = ["BOTS", "Bot", "GreedyBot", "HintBot", "RandomBot", "make_bot", "usefulness"]


class Bot(Protocol):
    """A player: picks one legal move of the view it is given."""

    name: str

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """Return one of ``view.legal_moves()``."""
        ...


class RandomBot:
    """Picks uniformly among the legal moves."""

    name = "random"

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """A uniformly random legal move."""
        return rng.choice(view.legal_moves())


def usefulness(card: int, hand: int, unseen: int, melds: tuple[int, ...]) -> int:
    """How much ``card`` helps its holder: a heuristic count, higher = keep.

    For every three-card meld of the catalog that holds ``card`` and whose
    other two cards are in the hand or still unseen, 1 point plus 2 per
    other card already in the hand.

    Parameters
    ----------
    card : int
        Card index.
    hand, unseen : int
        Card masks (the holder's other hand cards; the cards he has not seen).
    melds : tuple of int
        The catalog of the variant.

    Returns
    -------
    int
        Points, 0 for a card that fits nothing.
    """
    bit = 1 << card
    score = 0
    for meld in melds:
        if meld & bit and meld.bit_count() == 3:
            others = meld & ~bit
            if others & ~(hand | unseen) == 0:
                score += 1 + 2 * (others & hand).bit_count()
    return score


class GreedyBot:
    """Takes whenever it can (the most cards melded, found with CP-SAT), pays its least useful card.

    Offer: go out if possible; else the take melding the most cards
    (:func:`analyzer.partition.best_take` gives the count), paying the hand
    card of least :func:`usefulness`; with no take, lay hand-only melds
    (R16), then force a player who cannot go out by it (R14), else pass.
    Lay-in and exchange: give up the least useful card.
    """

    name = "greedy"

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """The greedy move (deterministic; ``rng`` is unused)."""
        moves = view.legal_moves()
        me = view.to_act
        if view.phase is Phase.EXCHANGE:
            hand = view.hand(me)
            return min(
                moves, key=lambda m: self._value(view, hand, m.card if isinstance(m, Give) else 0)
            )
        if view.phase is Phase.FORCED:
            lay_ins = [m for m in moves if isinstance(m, LayIn)]
            return self._cheapest(view, me, lay_ins)
        takes = [m for m in moves if isinstance(m, Take)]
        for take in takes:
            if take.pay is None:
                return take
        if takes:
            assert view.centre is not None
            old = cards_of(view.layouts[me])
            best = best_take(old, view.hand(me), view.centre.card, view.rules)
            if best is None:
                raise ConquianError("CP-SAT found no take where the engine lists one")
            most = cards_of(best.melds).bit_count()
            top = [t for t in takes if cards_of(t.layout).bit_count() == most]
            if not top:
                raise ConquianError("the engine lists no take as large as the CP-SAT best")
            return self._cheapest(view, me, top)
        for move in moves:
            if isinstance(move, Meld):
                return move
        for move in moves:
            if isinstance(move, Force) and view.counts[move.player] > 0:
                return move
        return Pass()

    def _value(self, view: GameState, hand: int, card: int) -> int:
        unseen = FULL_DECK & ~view.table_mask() & ~view.hand(view.to_act)
        return usefulness(card, hand & ~(1 << card), unseen, catalog(view.rules))

    def _cheapest(self, view: GameState, me: int, moves: list[Take] | list[LayIn]) -> Move:
        hand = view.hand(me)

        def cost(move: Take | LayIn) -> tuple[int, int]:
            # The pay card least useful to what stays in the hand; ties: highest card.
            assert move.pay is not None
            kept = hand & ~cards_of(move.layout)
            return (self._value(view, kept, move.pay), -move.pay)

        out = [m for m in moves if m.pay is None]
        if out:
            return out[0]
        return min(moves, key=cost)


class HintBot:
    """Plays the best move of :func:`analyzer.advisor.advise` from its own view.

    Parameters
    ----------
    samples : int
        Deals sampled per decision.
    time_limit : float
        Seconds per decision.
    node_budget : int
        Positions per double-dummy solve.

    A decision with a single legal move is played at once.  The sampling
    seed comes from the game's random generator, so a seeded game is
    reproducible.
    """

    name = "hint"

    def __init__(
        self, samples: int = 16, time_limit: float = 0.5, node_budget: int = 2_000
    ) -> None:
        self.samples = samples
        self.time_limit = time_limit
        self.node_budget = node_budget

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """The advisor's best move on ``view``."""
        from analyzer.advisor import advise

        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        for move in moves:
            if isinstance(move, (Take, LayIn)) and move.pay is None:
                return move  # going out wins at once (R15)
        advice = advise(
            view,
            samples=self.samples,
            seed=rng.randrange(2**31),
            time_limit=self.time_limit,
            node_budget=self.node_budget,
        )
        return advice.estimates[0].move


BOTS: dict[str, type[RandomBot] | type[GreedyBot] | type[HintBot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "hint": HintBot,
}


def make_bot(name: str) -> Bot:
    """The bot called ``name``.

    Raises
    ------
    ConquianError
        If there is no such bot; the message lists the bots.
    """
    cls = BOTS.get(name.strip().lower())
    if cls is None:
        raise ConquianError(f"unknown bot: {name!r} (known: {', '.join(BOTS)})")
    return cls()
