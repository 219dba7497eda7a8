"""The ``exact`` bot: the endgame's equilibrium where it is small enough, else the hint bot."""

from __future__ import annotations

import random

from analyzer.analysis.endgame import solve_view
from analyzer.bots.base import bot_option, obvious_move
from analyzer.bots.searchbots import HintBot
from analyzer.core.moves import Move
from analyzer.core.state import GameState, Phase
from analyzer.search.equilibrium import EndgameTooLarge

__all__ = ["ExactBot"]

DEFAULT_BUDGET = 20_000
"""Most positions of an endgame the bot solves by default (well under a second natively)."""


class ExactBot:
    """Plays, in a two-player deal, the equilibrium of the endgame from its own view (the hidden
    hands dealt uniformly, or by the public reading with ``read``; docs/solve.md) where it has
    at most ``budget`` positions, drawing its move from the mixed strategy with the game's random
    generator; else, and with three players or more, as the ``hint`` bot.

    Parameters
    ----------
    budget : int
        Most positions of an endgame solved (default :data:`DEFAULT_BUDGET`).
    read : int
        1: deal the hidden hands by the reading of the cards each player gave up; 0 (default):
        uniformly.

    Raises
    ------
    ConquianError
        If an option is out of its range.
    """

    name = "exact"
    sees_all = False

    def __init__(self, budget: int = DEFAULT_BUDGET, read: int = 0) -> None:
        bot_option("budget", budget, whole=True, low=1)
        bot_option("read", read, whole=True, low=0, high=1)
        self.budget, self.read = budget, bool(read)
        self.hint = HintBot()
        self.solved = self.sampled = 0

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """The move: the equilibrium's (drawn from its mix) where the endgame is small, else the
        hint bot's."""
        found = obvious_move(view)
        if found is not None:
            return found
        if view.rules.players == 2 and view.phase in (Phase.OFFER, Phase.FORCED):
            try:
                eq = solve_view(view, max_nodes=self.budget, read=self.read)
            except EndgameTooLarge:
                pass
            else:
                self.solved += 1
                draw = rng.random()
                moves = view.legal_moves()
                for move in moves:
                    draw -= eq.strategy.get(move, 0.0)
                    if draw < 0:
                        return move
                return max(moves, key=lambda m: eq.strategy.get(m, 0.0))
        self.sampled += 1
        return self.hint.choose(view, rng)

    def report(self) -> dict[str, int]:
        """Its decisions: ``solved`` by the equilibrium, ``sampled`` by the hint bot."""
        return {"solved": self.solved, "sampled": self.sampled}
