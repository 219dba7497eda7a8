"""The value of every legal root move, like MultiPV in chess engines (R19, R20).

:func:`solve_moves` solves the position after each legal move of the player
to act with :class:`analyzer.search.exact.Solver`, and ranks the moves by the
expected result of that player (R20: win +1, draw 0, another player wins
-1).  Every move gets its own proof flag and principal variation, so a move
whose search ran out of budget says so while the others stay exact.  Where a
stock card is turned next (R10) the one move is the turn, valued by the search
of the position itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from analyzer.core.cards import Labels
from analyzer.core.errors import PositionError
from analyzer.core.moves import Move, Turn
from analyzer.core.state import GameState, Phase
from analyzer.search.exact import Outcome, Solver

__all__ = ["MoveValue", "solve_moves"]


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One root move with the value of the position it leads to.

    Attributes
    ----------
    move : Move or None
        ``None``: the turn of a stock card whose order is unknown (R10), written ``turn``.
    values : tuple of float
        Expected result of each player after the move, under best play
        (R20: +1 win, 0 draw, -1 loss; with the stock order unknown, the
        expectation over the stock cards).
    outcome : tuple of float
        Probabilities (player 0 wins, ..., player n-1 wins, draw).
    proven : bool
        False when this move's search ran out of its budget and used the
        heuristic of :class:`~analyzer.search.exact.Solver`.
    pv : tuple of Move
        The principal variation, starting with ``move``.
    nodes : int
        Positions searched for this move.
    seconds : float
        Wall-clock time of this move's search.
    stopped_by : str or None
        ``"positions"`` or ``"time"`` for an unproven search, else ``None``.
    mode : str
        The search that valued the move (:class:`~analyzer.search.exact.SearchResult`'s ``mode``:
        ``"minimax"``, ``"maxn"``, ``"paranoid"`` or ``"expectimax"``); empty if not given.
    ci95 : (float, float) or None
        95% interval of the expected result of the player who chooses (R20 scale) when the
        value is a sampled estimate (:mod:`analyzer.search.anytime`); ``None`` when searched.
    samples : int
        Stock orders whose double-dummy searches the estimate averages; 0 when searched.
    """

    move: Move | None
    values: tuple[float, ...]
    outcome: Outcome
    proven: bool
    pv: tuple[Move, ...]
    nodes: int
    seconds: float
    stopped_by: str | None = None
    mode: str = ""
    ci95: tuple[float, float] | None = None
    samples: int = 0

    def text(self, labels: Labels = Labels.FRENCH) -> str:
        """The move's text; ``turn`` for the turn of an unknown stock card."""
        return "turn" if self.move is None else self.move.text(labels)

    def pv_text(self, labels: Labels = Labels.FRENCH) -> list[str]:
        """The principal variation as text, starting with the move."""
        if self.move is None:
            return [self.text(labels), *(m.text(labels) for m in self.pv)]
        return [m.text(labels) for m in self.pv]


def solve_moves(
    state: GameState,
    *,
    mode: str = "auto",
    max_nodes: int = 2_000_000,
    time_limit: float = 60.0,
    progress: Callable[[int, int], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[MoveValue]:
    """Solve every legal move of the player to act; best first for him.

    Parameters
    ----------
    state : GameState
        Every hand known (double-dummy); the stock order known (exact values)
        or not (expectimax over the stock cards).
    mode : str
        ``"auto"``, ``"maxn"`` or ``"paranoid"`` (see :mod:`analyzer.search.exact`).
    max_nodes : int
        Budget of positions for each move's search.
    time_limit : float
        Seconds for all the moves together: each move gets an equal share
        of the time that is left when its search starts.
    progress : callable, optional
        Called with (moves done, moves) after each move.
    stop : callable, optional
        Polled during the searches (e.g. set by Ctrl-C): when it returns True
        the search under way and those after it end at once, unproven
        (``stopped_by="interrupted"``), with the best found so far.

    Returns
    -------
    list of MoveValue
        Every legal move (:meth:`GameState.legal_moves`), sorted by the
        expected result of the player to act, best first; ties keep the
        engine's move order.  Where a stock card is turned next (R10): the one
        move, the turn (``move=None`` when the stock order is unknown), valued
        by the search of the position for the player who turns.

    Raises
    ------
    PositionError
        If the deal is over, or a hand is hidden.
    ConquianError
        If ``mode`` is unknown.
    """
    if state.phase is Phase.OVER:
        raise PositionError(f"no move to choose: {state.describe()}")
    if any(h is None for h in state.hands):
        raise PositionError(
            "solving needs every hand, but a hand is hidden in this position (use hint for a view)"
        )
    player = state.to_act
    if state.phase is Phase.TURN:
        result = Solver(mode=mode, max_nodes=max_nodes, time_limit=time_limit, stop=stop).solve(
            state, player=player
        )
        turn = Turn(state.stock[0]) if state.stock is not None else None
        pv = result.pv if turn is None or result.pv[:1] == (turn,) else (turn, *result.pv)
        if progress is not None:
            progress(1, 1)
        value = MoveValue(
            turn, result.values, result.outcome, result.proven, pv, result.nodes,
            result.seconds, result.stopped_by, result.mode,
        )  # fmt: skip
        return [value]
    moves = state.legal_moves()
    deadline = time.perf_counter() + time_limit
    # Every child is solved for the player who chooses here: in ``paranoid`` the coalition is the
    # one against him, as in the search of the whole position (solved for the player to act in
    # each child, the coalition changed with the move and contradicted 'solve'); one solver, so
    # the tables of one child serve the next.
    solver = Solver(mode=mode, max_nodes=max_nodes, stop=stop)
    found: list[MoveValue] = []
    for k, move in enumerate(moves):
        child = state.apply(move, check=False)
        share = max(0.01, (deadline - time.perf_counter()) / (len(moves) - k))
        solver.time_limit = share
        result = solver.solve(child, player=player)
        found.append(
            MoveValue(
                move,
                result.values,
                result.outcome,
                result.proven,
                (move, *result.pv),
                result.nodes,
                result.seconds,
                result.stopped_by,
                result.mode,
            )
        )
        if progress is not None:
            progress(k + 1, len(moves))
    order = {id(v): k for k, v in enumerate(found)}
    return sorted(found, key=lambda v: (-v.values[player], order[id(v)]))
