"""Who can win: each player's guarantee against any play of the others, and the outcomes of
best play those guarantees leave (R20).

With three or more players a position has no single value: what a player gets depends on how
the others, each playing for himself, choose between moves that are all the same to them.  What
a player can be *sure* of is his **guarantee**: the best result he can force against any play
of the others, found by a paranoid search (the others a coalition that minimises his result:
a two-player game, solved exactly by alpha-beta with null windows and a transposition table,
:class:`analyzer.search.exact.Solver` with ``mode="paranoid"``).

In every line where each player picks his best move (max-n, whatever the ties between equal
moves), each player gets at least his guarantee: at his turns he picks his best move, and any
choice of the others is one the coalition could have made.  So the outcomes best play can reach
are among those that give every player at least his guarantee: a win for ``p`` only if every
other player's guarantee is a loss, a draw only if nobody's is a win.  Where one outcome is left
(a player who can force a win; every guarantee a draw) it is *the* outcome of best play, by any
tie rule; where several are left the guarantees prove that none of the others is possible.

With two players the two guarantees are the minimax value seen from each side, and exactly one
outcome is left: the one :func:`analyzer.search.exact.solve` proves.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from analyzer.core.errors import PositionError
from analyzer.core.moves import Move
from analyzer.core.state import GameState
from analyzer.search.exact import Solver
from analyzer.search.outcome import paused_gc

__all__ = ["RESULTS", "Guarantee", "Guarantees", "guarantees", "outcomes_left"]

RESULTS = {1.0: "win", 0.0: "draw", -1.0: "loss"}
"""The name of a result on R20's scale (+1 win, 0 draw, -1 loss)."""


@dataclass(frozen=True, slots=True)
class Guarantee:
    """One player's guarantee: the best result he can force against any play of the others.

    Attributes
    ----------
    player : int
        The seat.
    lower, upper : float
        The proven bounds on his guarantee (R20 scale, -1..1); equal when proven.
    proven : bool
        Whether the paranoid search finished within its budget.
    pv : tuple of Move
        A line of the search: his forcing play against the coalition's best reply (proven), or
        the best line found so far.
    nodes : int
        Positions searched.
    seconds : float
        Wall-clock time of the search.
    stopped_by : str or None
        What ended an unproven search (``"positions"``, ``"time"``, ``"interrupted"``).
    """

    player: int
    lower: float
    upper: float
    proven: bool
    pv: tuple[Move, ...]
    nodes: int
    seconds: float
    stopped_by: str | None = None

    @property
    def result(self) -> str | None:
        """``"win"``, ``"draw"`` or ``"loss"`` when proven, else ``None``."""
        return RESULTS.get(self.lower) if self.proven else None


@dataclass(frozen=True, slots=True)
class Guarantees:
    """Every player's guarantee and the outcomes of best play they leave.

    Attributes
    ----------
    players : tuple of Guarantee
        One per seat, in seat order.
    outcomes : tuple of (int or None)
        The outcomes best play can still reach by the proven guarantees: a seat for his win,
        ``None`` for a draw; seat order, the draw last.
    """

    players: tuple[Guarantee, ...]
    outcomes: tuple[int | None, ...]

    @property
    def proven(self) -> bool:
        """Whether every guarantee is proven."""
        return all(g.proven for g in self.players)

    @property
    def settled(self) -> bool:
        """Whether one outcome is left: the outcome of best play, by any tie rule."""
        return len(self.outcomes) == 1

    @property
    def nodes(self) -> int:
        """Positions searched by all the searches."""
        return sum(g.nodes for g in self.players)

    @property
    def seconds(self) -> float:
        """Wall-clock time of all the searches."""
        return sum(g.seconds for g in self.players)


def outcomes_left(lowers: list[float]) -> tuple[int | None, ...]:
    """The outcomes that give every player at least his proven lower bound (R20 scale).

    A win for ``p`` gives every other player -1, so it is left only where every other player's
    lower bound is -1; a draw gives every player 0, so it is left where no lower bound is above
    0 (every variant can end in a draw, R18).  Seats first, then ``None`` for the draw.
    """
    n = len(lowers)
    left: list[int | None] = [
        p for p in range(n) if all(lowers[q] <= -1.0 for q in range(n) if q != p)
    ]
    if all(lo <= 0.0 for lo in lowers):
        left.append(None)
    return tuple(left)


@paused_gc()
def guarantees(
    state: GameState,
    *,
    max_nodes: int = 2_000_000,
    time_limit: float = 60.0,
    stop: Callable[[], bool] | None = None,
) -> Guarantees:
    """Every player's guarantee from ``state`` and the outcomes they leave (module docstring).

    Parameters
    ----------
    state : GameState
        Every hand and the stock order known (double-dummy).
    max_nodes : int
        Budget of positions of each player's search.
    time_limit : float
        Seconds for all the searches together.
    stop : callable, optional
        Polled during the searches; True ends them (the guarantees not reached stay unproven).

    Returns
    -------
    Guarantees

    Raises
    ------
    PositionError
        If a hand is hidden or the stock order is unknown (a guarantee is a proof over every
        card, R19).
    """
    if any(h is None for h in state.hands):
        raise PositionError(
            "the guarantees need every hand, but a hand is hidden in this position"
        )
    if state.stock is None and state.stock_count > 0:
        raise PositionError(
            "the guarantees need the stock order (every card known); this position has "
            f"{state.stock_count} stock cards in an unknown order"
        )
    deadline = time.perf_counter() + time_limit
    found = []
    for player in range(state.rules.players):
        left = max(0.0, deadline - time.perf_counter())
        solver = Solver(mode="paranoid", max_nodes=max_nodes, time_limit=left, stop=stop)
        r = solver.solve(state, player=player)
        found.append(
            Guarantee(player, r.lower, r.upper, r.proven, r.pv, r.nodes, r.seconds, r.stopped_by)
        )
    return Guarantees(tuple(found), outcomes_left([g.lower for g in found]))
