"""Every move's value with the stock order unknown, in bounded time (R8, R10, R19, R20).

Every hand is known and only the stock order is left to chance.  The exact
answer is the expectimax over the stock cards (:mod:`analyzer.search.exact`),
whose tree grows with the factorial of the stock; :func:`solve_anytime`
answers within a budget instead:

1. **Proof.**  The position after each move is searched by the exact
   expectimax within ``prove`` positions; a move whose search finishes has
   its exact value (``proven``).
2. **Estimate.**  Each move left is valued on ``samples`` stock orders drawn
   uniformly with ``seed`` (the same orders for every move), each solved
   double-dummy by the exact search (:class:`~analyzer.search.exact.Solver`,
   the order known to every player).  The estimate is the mean result of the
   player who chooses, with a 95% Wilson interval of that mean (the result
   rescaled to 0..1).  It estimates the double-dummy value, which can differ
   from the expectimax value: a player who knew the order could plan on it.
3. **Ranking.**  Moves are ranked by the player's expected result: the exact
   value where proven, else the estimate; ties keep the engine's move order.
   When the best move is estimated, each other estimated move gets the mean
   difference from it over the same orders (paired) with a 95% normal interval
   (mean +- 1.96 standard errors); an interval that holds 0 does not separate them.

The number of orders does not depend on the machine: ``time_limit`` is only
a cap, and when it (or ``stop``) cuts the sampling, the orders solved for
every move so far are kept, the order under way is dropped, and the answer
says ``stopped_by="time"`` (``"interrupted"``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from analyzer.core.cards import iter_mask
from analyzer.core.errors import ConquianError, PositionError
from analyzer.core.moves import Move
from analyzer.core.state import GameState, Phase
from analyzer.search.allmoves import MoveValue
from analyzer.search.exact import Solver
from analyzer.search.outcome import Outcome, paused_gc, utility
from analyzer.search.stats import wilson

__all__ = ["DEFAULT_PROVE", "DEFAULT_SAMPLES", "AnytimeResult", "solve_anytime", "stock_orders"]

DEFAULT_SAMPLES = 16
"""Stock orders sampled by default."""
DEFAULT_PROVE = 200_000
"""Positions of each move's exact expectimax by default."""


@dataclass(frozen=True, slots=True)
class AnytimeResult:
    """The answer of :func:`solve_anytime`.

    Attributes
    ----------
    player : int
        The player who chooses (on a turn, R10, the player who turns).
    moves : list of MoveValue
        Every legal move, best first for ``player``: ``proven`` with its exact
        expectimax value, or estimated (``ci95``, ``samples``).
    samples : int
        Stock orders solved for every estimated move (0 when every move is proven).
    asked : int
        Stock orders asked for.
    seed : int
        Seed of the orders.
    inexact : int
        Double-dummy searches of a sampled order that ran out of ``max_nodes``
        (their result is the heuristic estimate of the search).
    stopped_by : str or None
        ``"time"`` or ``"interrupted"`` when the sampling was cut before
        ``asked`` orders (or a proof attempt was cut), else ``None``.
    nodes : int
        Positions searched in all.
    seconds : float
        Wall-clock time.
    diffs : list of (float, float, float) or None
        For each move of ``moves``: the best move's result minus this move's, for ``player``,
        over the same orders (mean, 95% low, 95% high); ``None`` unless both are estimated
        (the best move's own entry is ``(0, 0, 0)``).
    """

    player: int
    moves: list[MoveValue]
    samples: int
    asked: int
    seed: int
    inexact: int
    stopped_by: str | None
    nodes: int
    seconds: float
    diffs: list[tuple[float, float, float] | None]

    @property
    def proven(self) -> bool:
        """True when every move's value is exact."""
        return all(v.proven for v in self.moves)

    @property
    def settled(self) -> bool:
        """True when the best move's value is proven best: every move proven, or a proven win
        (R20: nothing is better)."""
        return self.proven or self.lower >= 1.0 - 1e-12

    @property
    def lower(self) -> float:
        """The best proven value of a move for ``player`` (R20 scale), -1 when none is proven."""
        proven = [v.values[self.player] for v in self.moves if v.proven]
        return max(proven, default=-1.0)

    @property
    def upper(self) -> float:
        """The proven upper bound for ``player``: the best value when :attr:`settled`, else 1."""
        return self.moves[0].values[self.player] if self.settled else 1.0


def stock_orders(state: GameState, count: int, seed: int) -> list[tuple[int, ...]]:
    """``count`` stock orders drawn uniformly (with replacement) from ``random.Random(seed)``.

    Raises
    ------
    PositionError
        If the stock cards are unknown (a hand is hidden).
    """
    mask = state.stock_mask()
    if mask is None:
        raise PositionError("the stock cards are unknown while hands are hidden")
    cards = list(iter_mask(mask))
    rng = random.Random(seed)
    return [tuple(rng.sample(cards, len(cards))) for _ in range(count)]


def _interval(scores: Sequence[float]) -> tuple[float, float]:
    """95% interval of the mean of results on -1..1 (Wilson, on the result rescaled to 0..1)."""
    low, high = wilson(sum((x + 1.0) / 2.0 for x in scores), len(scores))
    return (2.0 * low - 1.0, 2.0 * high - 1.0)


def _paired(best: Sequence[float], other: Sequence[float]) -> tuple[float, float, float]:
    """Mean of ``best - other`` over the same orders and its 95% normal interval."""
    d = [b - o for b, o in zip(best, other, strict=True)]
    n = len(d)
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else 2.0
    half = 1.959964 * sd / math.sqrt(n)
    return (mean, mean - half, mean + half)


def solve_anytime(
    state: GameState,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    prove: int = DEFAULT_PROVE,
    mode: str = "auto",
    max_nodes: int = 2_000_000,
    time_limit: float = 15.0,
    progress: Callable[[int, int], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> AnytimeResult:
    """Value every move of the player to act with the stock order unknown (the module's algorithm).

    Parameters
    ----------
    state : GameState
        Every hand known, the stock order not (a choice, or a turn: R10).
    samples : int
        Stock orders to sample for the moves not proven (at least 1).
    seed : int
        Seed of the orders.
    prove : int
        Positions of each move's exact expectimax; 0 skips the proof.
    mode : str
        ``"auto"``, ``"maxn"`` or ``"paranoid"`` (three players, :mod:`analyzer.search.exact`).
    max_nodes : int
        Positions of each double-dummy search of a sampled order.
    time_limit : float
        Seconds in all (a cap: see the module docstring).
    progress : callable, optional
        Called with (orders done, orders asked) after each order.
    stop : callable, optional
        Polled during the searches (e.g. set by Ctrl-C); True ends the sampling.

    Returns
    -------
    AnytimeResult

    Raises
    ------
    PositionError
        If the deal is over, a hand is hidden or the stock order is known.
    ConquianError
        If ``mode`` is unknown or ``samples`` < 1.
    """
    if state.phase is Phase.OVER:
        raise PositionError(f"no move to choose: {state.describe()}")
    if any(h is None for h in state.hands):
        raise PositionError(
            "solving needs every hand, but a hand is hidden in this position (use hint for a view)"
        )
    if state.stock is not None or state.stock_count == 0:
        raise PositionError("the stock order is known: solve the position exactly")
    if samples < 1:
        raise ConquianError(f"samples must be at least 1, not {samples}")
    with paused_gc():
        return _solve_anytime(
            state, samples, seed, prove, mode, max_nodes, time_limit, progress, stop
        )


def _solve_anytime(
    state: GameState,
    samples: int,
    seed: int,
    prove: int,
    mode: str,
    max_nodes: int,
    time_limit: float,
    progress: Callable[[int, int], None] | None,
    stop: Callable[[], bool] | None,
) -> AnytimeResult:
    start = time.perf_counter()
    deadline = start + time_limit
    me = state.to_act
    turn = state.phase is Phase.TURN
    moves: list[Move | None] = [None] if turn else list(state.legal_moves())
    nodes = 0
    stopped: str | None = None
    found: dict[int, MoveValue] = {}
    fallback: dict[int, Outcome] = {}
    # 1. Proof: each move's exact expectimax within ``prove`` positions.
    for k, move in enumerate(moves):
        if prove <= 0 or stopped is not None:
            break
        child = state if move is None else state.apply(move, check=False)
        solver = Solver(mode=mode, max_nodes=prove, stop=stop)
        solver.time_limit = max(0.01, deadline - time.perf_counter())
        result = solver.solve(child, player=me)
        nodes += result.nodes
        if result.proven:
            pv = result.pv if move is None else (move, *result.pv)
            found[k] = MoveValue(move, result.values, result.outcome, True, pv, result.nodes,
                                 result.seconds, None, result.mode)  # fmt: skip
        else:
            fallback[k] = result.outcome
            if result.stopped_by in ("time", "interrupted"):
                stopped = result.stopped_by
    # 2. Estimate: the moves left on the same sampled orders, each solved double-dummy.
    left = [k for k in range(len(moves)) if k not in found]
    outcomes: dict[int, list[Outcome]] = {k: [] for k in left}
    spent = dict.fromkeys(left, 0)
    seconds = dict.fromkeys(left, 0.0)
    inexact = 0
    done = 0
    if left and stopped is None:
        for order in stock_orders(state, samples, seed):
            if time.perf_counter() > deadline:
                # The cap holds between orders too: a search short enough never to look at
                # the clock (it looks every 1,024 positions) must not outlive it.
                stopped = "time"
                break
            known = state.evolve(stock=order)
            solver = Solver(mode=mode, max_nodes=max_nodes, stop=stop)  # one deal: shared tables
            row: dict[int, Outcome] = {}
            misses = 0
            for k in left:
                move = moves[k]
                solver.time_limit = max(0.01, deadline - time.perf_counter())
                result = solver.solve(known if move is None else known.apply(move, check=False),
                                      player=me)  # fmt: skip
                nodes += result.nodes
                spent[k] += result.nodes
                seconds[k] += result.seconds
                if result.stopped_by in ("time", "interrupted"):
                    stopped = result.stopped_by
                    break
                misses += not result.proven
                row[k] = result.outcome
            if stopped is not None:
                break  # the order under way is dropped: every move keeps the same orders
            for k in left:
                outcomes[k].append(row[k])
            inexact += misses
            done += 1
            if progress is not None:
                progress(done, samples)
    n = state.rules.players
    for k in left:
        rows = outcomes[k]
        move = moves[k]
        if rows:
            outcome = tuple(sum(r[i] for r in rows) / len(rows) for i in range(n + 1))
            ci95 = _interval([utility(r, me) for r in rows])
        else:  # nothing sampled in time: the proof's heuristic estimate, interval unknown
            outcome = fallback.get(k) or tuple(1.0 / (n + 1) for _ in range(n + 1))
            ci95 = (-1.0, 1.0)
        values = tuple(utility(outcome, p) for p in range(n))
        found[k] = MoveValue(
            move, values, outcome, False, () if move is None else (move,), spent[k],
            seconds[k], stopped or "positions", "expectimax", ci95, len(rows),
        )  # fmt: skip
    ranked = sorted(range(len(moves)), key=lambda k: (-found[k].values[me], k))
    first = ranked[0]
    mine = {k: [utility(r, me) for r in outcomes[k]] for k in left}
    diffs: list[tuple[float, float, float] | None] = [
        (0.0, 0.0, 0.0)
        if k == first
        else _paired(mine[first], mine[k])
        if k in mine and first in mine and mine[k]
        else None
        for k in ranked
    ]
    return AnytimeResult(
        me,
        [found[k] for k in ranked],
        done if left else 0,
        samples,
        seed,
        inexact,
        stopped,
        nodes,
        time.perf_counter() - start,
        diffs,
    )
