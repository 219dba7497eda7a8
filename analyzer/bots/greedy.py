"""The simple bots: ``random`` and ``greedy`` (the baseline every search bot is measured against)."""

from __future__ import annotations

import random

from analyzer.core.cards import FULL_DECK
from analyzer.core.errors import ConquianError
from analyzer.core.melds import cards_of, catalog, usefulness
from analyzer.core.moves import Force, Give, LayIn, Meld, Move, Pass, Take
from analyzer.core.state import GameState, Phase
from analyzer.solver.partition import best_take

__all__ = ["GreedyBot", "RandomBot"]


class RandomBot:
    """Picks uniformly among the legal moves."""

    name = "random"
    sees_all = False

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """A uniformly random legal move."""
        return rng.choice(view.legal_moves())


class GreedyBot:
    """Takes whenever it can (the most cards melded, found with CP-SAT), pays its least useful card.

    Offer: go out if possible; else the take melding the most cards
    (:func:`analyzer.solver.partition.best_take` gives the count), paying the hand
    card of least :func:`usefulness`; with no take, lay hand-only melds
    (R16), then force a player who cannot go out by it (R14), else pass.
    Lay-in and exchange: give up the least useful card.
    """

    name = "greedy"
    sees_all = False

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
            best = best_take(
                old, view.hand(me), view.centre.card, view.rules, layout=view.layouts[me]
            )
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
