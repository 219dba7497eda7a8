"""Depth-limited search with a leaf evaluation, for deals where every card is known.

The exact search (:mod:`analyzer.search.exact`) runs every line to the end of the
deal.  A move hint needs values for many candidate moves on many sampled
deals within a second or two, which is far too little for that early in a
deal.  :class:`Lookahead` searches a fixed number of *offers* ahead instead
(each new centre card, turned or paid, is one step of depth, R10, R13) and
scores the positions where it stops with a leaf evaluation
(:mod:`analyzer.search.evaluation`); finished deals are scored exactly (R15, R18,
R20).  It deepens iteratively (depth 0, 1, 2, ...) until the budget is
spent or every line reaches the end of the deal, and answers with the
deepest iteration it finished, so it is *anytime*.

Leaves are the positions before a turn (the next stock card is not looked
at) and the positions where a new centre card is offered; within one offer
(passes, forces, lay-ins, hand-only melds) the search never stops.  In the
exchange (R9) the other players' cards are not searched: they choose at the
same time without seeing the root player's, and are modelled by the greedy
bot's rule (the card least useful to the hand).  With
the stock order unknown (``stock=None``) a turn inside the horizon is a
chance node: the average over every stock card (expectimax).

Two players: alpha-beta on the expected result of the root player (win +1,
draw 0, loss -1, R20) with a transposition table of bounds per depth and the
history heuristic.  Three players: ``paranoid`` (the others minimise the
root player's result: alpha-beta again) or ``maxn`` (each player maximises
his own expected result).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from analyzer.core import native
from analyzer.core.cards import FULL_DECK, iter_mask
from analyzer.core.errors import ConquianError, PositionError
from analyzer.core.melds import catalog, usefulness
from analyzer.core.moves import Give, LayIn, Move, Pass, Take, Turn
from analyzer.core.state import GameState, Phase
from analyzer.search.native import (
    LookaheadData,
    LookaheadOptions,
    finish_leaf,
    leaf_args,
    moves_data,
)
from analyzer.search.outcome import Outcome, outcome_vector, paused_gc, position_key
from analyzer.search.outcome import utility as _utility
from analyzer.search.playout import OPPONENTS, eager_move

__all__ = ["Lookahead", "LookaheadResult"]

Evaluator = Callable[[GameState], Outcome]
_Expansion = tuple[list[Move], list[tuple[GameState, int]], tuple[list[int], list[int], list[int]]]


_OPEN: tuple[float, Outcome, float, Outcome] = (-2.0, (), 2.0, ())


class _OutOfBudget(Exception):
    """Raised inside the search when the position or time budget is spent."""


@dataclass(frozen=True, slots=True)
class LookaheadResult:
    """Values of the candidate moves at one position.

    Attributes
    ----------
    outcomes : list of tuple of float
        Per move (in the order given): the outcome vector (player 0 wins,
        ..., player n-1 wins, draw) at the end of its best line; estimated
        by the leaf evaluation unless ``exact``.
    depth : int
        Offers searched ahead in the iteration the values come from (-1 when
        not even depth 0 finished: then every value is the evaluation of the
        position right after the move).
    exact : bool
        True when every line of that iteration reached the end of the deal.
    nodes : int
        Positions searched, all iterations together.
    stopped_by : str or None
        ``"positions"``, ``"time"`` or ``"interrupted"`` when the budget cut the deepening;
        ``None`` when it stopped because the values were exact or ``max_depth``
        was reached.
    """

    outcomes: list[Outcome]
    depth: int
    exact: bool
    nodes: int
    stopped_by: str | None


def _kinds(moves: list[Move]) -> tuple[list[int], list[int], list[int]]:
    """Indices of ``moves`` by kind: going out, other takes and lay-ins, the rest (engine order)."""
    out: list[int] = []
    takes: list[int] = []
    rest: list[int] = []
    for i, move in enumerate(moves):
        if isinstance(move, (Take, LayIn)):
            (out if move.pay is None else takes).append(i)
        else:
            rest.append(i)
    return out, takes, rest


def _order_index(
    moves: list[Move],
    kinds: tuple[list[int], list[int], list[int]],
    history: dict[Move, int],
    hint: Move | None,
) -> list[int]:
    """Indices of ``moves`` in search order: the best move of a shallower iteration first, then
    going out, then the rest in engine order (takes, forces, hand-only melds, pass) with the
    takes that caused the most cut-offs first."""
    out, takes, rest = kinds
    if history and len(takes) > 1:
        takes = sorted(takes, key=lambda i: -history.get(moves[i], 0))
    order = out + takes + rest
    if hint is not None:
        k = moves.index(hint)
        order.remove(k)
        order.insert(0, k)
    return order


def _greedy_give(state: GameState) -> Move:
    """The card the greedy bot gives in the exchange: least useful to the rest of the hand (R9)."""
    hand = state.hand(state.to_act)
    unseen = FULL_DECK & ~state.table_mask() & ~hand
    melds = catalog(state.rules)
    card = min(iter_mask(hand), key=lambda c: usefulness(c, hand & ~(1 << c), unseen, melds))
    return Give(card)


def _boundary(state: GameState) -> bool:
    """A position where the search may stop: before a turn, or a centre card nobody has
    declined or been forced with yet (R10, R11)."""
    if state.phase is Phase.TURN:
        return True
    centre = state.centre
    return (
        state.phase is Phase.OFFER
        and centre is not None
        and not centre.declined
        and centre.forced is None
    )


@dataclass
class Lookahead:
    """Iterative-deepening, depth-limited search of positions with every card known.

    Parameters
    ----------
    evaluate : callable
        Leaf evaluation: position -> outcome vector (:mod:`analyzer.search.evaluation`).
    mode : str
        ``"auto"`` (alpha-beta for two players, max-n for three),
        ``"paranoid"`` or ``"maxn"``.
    max_nodes : int
        Budget of positions per :meth:`values` call.
    time_limit : float
        Budget in seconds per :meth:`values` call.
    max_depth : int
        Deepest iteration, in offers.
    stop : callable, optional
        Polled during the search; True ends it like a spent budget
        (``stopped_by="interrupted"``).
    spread : int
        With the stock order known and ``spread`` above 1, a turn inside the
        horizon is a chance node over the next ``spread`` stock cards, each
        turned in its turn with the others kept in order, at equal weight
        (sparse sampling); 1 follows the order.  Measured: no gain in
        strength (``docs/hint.md``).
    opponents : str
        ``"search"``: the other players' choices are searched (alpha-beta or
        max-n); ``"policy"``: each other player plays the ``eager`` playout
        policy's move (:func:`analyzer.search.playout.eager_move`, its ties broken by
        ``random.Random(0)`` afresh at each position), so only the root player's choices
        branch (an opponent model).

    The history table persists across calls, so the samples of one hint
    share their move ordering; the transposition table is per deal.
    """

    evaluate: Evaluator
    mode: str = "auto"
    max_nodes: int = 20_000
    time_limit: float = 10.0
    max_depth: int = 40
    stop: Callable[[], bool] | None = None
    spread: int = 1
    opponents: str = "search"
    history: dict[Move, int] = field(default_factory=dict)
    nodes: int = 0
    leaves: int = 0
    _table: dict[tuple[Hashable, int], tuple[float, Outcome, float, Outcome]] = field(
        default_factory=dict
    )
    _best: dict[Hashable, Move] = field(default_factory=dict)
    _leaf_values: dict[Hashable, Outcome] = field(default_factory=dict)
    _expanded: dict[Hashable, _Expansion] = field(default_factory=dict)
    _limit: int = 0
    _deadline: float = 0.0
    _root: int = 0
    _estimates: int = 0
    _inexact: set[tuple[Hashable, int]] = field(default_factory=set)
    _stopped_by: str | None = None
    _mode: str = "alphabeta"
    _native: object = None
    _native_rules: object = None

    @paused_gc()
    def values(self, state: GameState, moves: Sequence[Move]) -> LookaheadResult:
        """The outcome vector of each of ``moves`` played in ``state``.

        Parameters
        ----------
        state : GameState
            Every hand known and a player to act.  With the stock order
            known the turns follow it; with ``stock=None`` every turn is a
            chance node averaged over the stock cards (expectimax), so the
            search never looks at cards it could not know.
        moves : sequence of Move
            Legal moves of the player to act.

        Returns
        -------
        LookaheadResult

        Raises
        ------
        PositionError
            If a hand is hidden, or nobody is to act.
        ConquianError
            If the mode or ``opponents`` is unknown.
        """
        if any(h is None for h in state.hands):
            raise PositionError("the lookahead needs every hand")
        if state.phase in (Phase.OVER, Phase.TURN):
            raise PositionError(f"no move to choose: {state.describe()}")
        mode = self.mode
        if mode == "auto":
            mode = "alphabeta" if state.rules.players == 2 else "maxn"
        elif mode == "paranoid":
            mode = "alphabeta"
        elif mode != "maxn":
            raise ConquianError(f"unknown lookahead mode: {self.mode!r} (auto, paranoid, maxn)")
        if self.opponents not in OPPONENTS:
            raise ConquianError(f"opponents must be one of {', '.join(OPPONENTS)}, not {self.opponents!r}")
        if native.ACTIVE:
            fast = self._native_values(state, moves, mode)
            if fast is not None:
                return fast
        self._table.clear()
        self._best.clear()
        self._leaf_values.clear()
        self._inexact.clear()
        self._expanded.clear()
        self.nodes = 0
        self._limit = self.max_nodes
        self._deadline = time.perf_counter() + self.time_limit
        self._root = state.to_act
        self._stopped_by = None
        self._mode = mode
        children = [state.apply(m, check=False) for m in moves]
        # Depth -1: the evaluation of the position each move leaves (never cut by the budget).
        best: list[Outcome] = [self._static(c) for c in children]
        depth_done, exact = -1, all(c.is_terminal() for c in children)
        depth = 0
        while not exact and depth <= self.max_depth:
            before = self._estimates
            try:
                found = [self._value(c, depth, mode) for c in children]
            except _OutOfBudget:
                break
            best, depth_done = found, depth
            exact = self._estimates == before
            depth += 1
        return LookaheadResult(best, depth_done, exact, self.nodes, self._stopped_by)

    def _native_values(
        self, state: GameState, moves: Sequence[Move], mode: str
    ) -> LookaheadResult | None:
        """:meth:`values` by the native core (the same values and node counts; its history table
        kept between calls), or ``None`` when the evaluation is a Python callable it does not have."""
        args = leaf_args(self.evaluate, state.rules)
        if args is None:
            return None
        if self._native is None or self._native_rules != state.rules:
            self._native = native.native_module().NativeLookahead(native.pack_rules(state.rules))
            self._native_rules = state.rules
        look: Any = self._native
        options: LookaheadOptions = {
            "maxn": mode == "maxn", "max_nodes": self.max_nodes, "time_limit": self.time_limit,
            "max_depth": self.max_depth, "spread": self.spread, "policy": self.opponents == "policy",
            "leaf": args, "stop": self.stop,
        }  # fmt: skip
        data: LookaheadData = look.values(native.pack_state(state), moves_data(moves), options)
        finish_leaf(self.evaluate, data["rng"])
        nodes = data["nodes"]
        self.nodes, self.leaves = nodes, look.leaves
        return LookaheadResult(
            [tuple(o) for o in data["outcomes"]], data["depth"], data["exact"], nodes, data["stopped_by"]
        )

    # -------------------------------------------------------------- helpers
    def _static(self, state: GameState) -> Outcome:
        if state.is_terminal():
            return outcome_vector(state)
        while not _boundary(state):
            # Finish the offer cheaply: the evaluation is fitted on offer boundaries only.
            moves = state.legal_moves()
            state = state.apply(
                next((m for m in moves if isinstance(m, Pass)), moves[-1]), check=False
            )
            if state.is_terminal():
                return outcome_vector(state)
        return self.evaluate(state)

    def _key(self, state: GameState) -> Hashable:
        """The table key: with ``spread`` the stock order varies within one deal, so it is part
        of the key (:func:`analyzer.search.exact.position_key` lets the stock length stand for it)."""
        if self.spread > 1:
            return (position_key(state), state.stock)
        return position_key(state)

    def _evaluate(self, state: GameState) -> Outcome:
        """The leaf evaluation, once per position of this deal."""
        self.leaves += 1
        self._estimates += 1
        key = self._key(state)
        vec = self._leaf_values.get(key)
        if vec is None:
            vec = self._leaf_values[key] = self.evaluate(state)
        return vec

    def _expand(self, pos: Hashable, state: GameState) -> _Expansion:
        """The legal moves of a position and their children with the depth each costs (a new
        centre card is one offer), computed once per deal: deepening revisits every node."""
        hit = self._expanded.get(pos)
        if hit is None:
            moves = state.legal_moves()
            if state.phase is Phase.EXCHANGE and state.to_act != self._root:
                # The others choose their exchange card at the same time as the root player,
                # without seeing his (R9): they are modelled, not searched, by the greedy
                # bot's rule (give the card that helps the hand least).
                moves = [_greedy_give(state)]
            elif self.opponents == "policy" and state.to_act != self._root and len(moves) > 1:
                # Opponent model: the other player plays the eager policy's move (its ties
                # broken the same way wherever the position is met).
                moves = [eager_move(state, moves, random.Random(0))]
            children = []
            for move in moves:
                child = state.apply(move, check=False)
                children.append((child, 1 if _boundary(child) and child.phase is not Phase.TURN else 0))
            hit = self._expanded[pos] = (moves, children, _kinds(moves))
        return hit

    def _hit(self, key: tuple[Hashable, int], vec: Outcome) -> Outcome:
        """A table entry used: if it rests on leaf estimates, so does what uses it."""
        if key in self._inexact:
            self._estimates += 1
        return vec

    def _store(
        self, key: tuple[Hashable, int], entry: tuple[float, Outcome, float, Outcome], before: int
    ) -> None:
        self._table[key] = entry
        if self._estimates > before:
            self._inexact.add(key)

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self._limit:
            self._stopped_by = "positions"
            raise _OutOfBudget
        if self.nodes & 255 == 0:
            if time.perf_counter() > self._deadline:
                self._stopped_by = "time"
                raise _OutOfBudget
            if self.stop is not None and self.stop():
                self._stopped_by = "interrupted"
                raise _OutOfBudget

    def _value(self, state: GameState, depth: int, mode: str) -> Outcome:
        if mode == "maxn":
            return self._maxn(state, depth)
        vec = self._alphabeta(state, depth, -2.0, 2.0)[1]
        # A full window gives an exact value, whose line ends in a real outcome vector.
        assert len(vec) == state.rules.players + 1, "lookahead lost the outcome of its line"
        return vec

    def _leaf(self, state: GameState, depth: int) -> tuple[GameState, int, Outcome | None]:
        """Walk through forced steps; return the position, the depth left and, at a leaf,
        its outcome vector."""
        while True:
            if state.phase is Phase.OVER:
                return state, depth, outcome_vector(state)
            if state.phase is Phase.TURN:
                if depth <= 0:
                    return state, depth, self._evaluate(state)
                if state.stock is None or (self.spread > 1 and len(state.stock) > 1):
                    return state, depth, self._chance(state, depth)
                ((move, _),) = state.chance_outcomes()
                state = state.apply(move, check=False)
                depth -= 1
                continue
            return state, depth, None

    def _chance(self, state: GameState, depth: int) -> Outcome:
        """A turn searched as a chance node: the weighted average of its branches
        (:meth:`_branches`), each searched with a full window (expectimax)."""
        self._tick()
        key = (self._key(state), depth)
        hit = self._table.get(key)
        if hit is not None and hit[0] == hit[2]:
            return self._hit(key, hit[1])
        before = self._estimates
        n = state.rules.players
        total = [0.0] * (n + 1)
        for child, p in self._branches(state):
            vec = self._value(child, depth - 1, self._mode)
            for k in range(n + 1):
                total[k] += p * vec[k]
        outcome = tuple(total)
        v = _utility(outcome, self._root)
        self._store(key, (v, outcome, v, outcome), before)
        return outcome

    def _branches(self, state: GameState) -> list[tuple[GameState, float]]:
        """The positions a turn may lead to, with their weights.

        Stock order unknown: every stock card (R8, R10).  Stock order known
        with ``spread`` above 1: each of its first ``spread`` cards turned in
        its turn, the rest kept in order, at equal weight -- sparse sampling
        (Kearns, Mansour and Ng 2002), so that a choice before a turn does not
        rest on knowing the card that comes.
        """
        stock = state.stock
        if stock is None:
            return [(state.apply(move, check=False), p) for move, p in state.chance_outcomes()]
        cards = stock[: self.spread]
        return [
            (
                state.evolve(stock=(card, *stock[:i], *stock[i + 1 :])).apply(Turn(card), check=False),
                1.0 / len(cards),
            )
            for i, card in enumerate(cards)
        ]

    def _alphabeta(
        self, state: GameState, depth: int, alpha: float, beta: float
    ) -> tuple[float, Outcome]:
        state, depth, done = self._leaf(state, depth)
        root = self._root
        if done is not None:
            return _utility(done, root), done
        fresh = _boundary(state)
        if fresh and depth <= 0:
            vec = self._evaluate(state)
            return _utility(vec, root), vec
        self._tick()
        pos = self._key(state)
        key = (pos, depth)
        # Bounds with the outcome vector of the line that set each: lower, its vector, upper, its.
        lower, lvec, upper, uvec = self._table.get(key, _OPEN)
        if lower == upper or lower >= beta:
            return lower, self._hit(key, lvec)
        if upper <= alpha:
            return upper, self._hit(key, uvec)
        before = self._estimates
        a0, b0 = max(alpha, lower), min(beta, upper)
        a, b = a0, b0
        maximizing = state.to_act == root
        value = -3.0 if maximizing else 3.0
        best_vec: Outcome = ()
        best_move: Move | None = None
        legal, children, kinds = self._expand(pos, state)
        order = _order_index(legal, kinds, self.history, self._best.get(pos))
        # A new centre card (turned or paid) is one step of depth.
        for i in order:
            move = legal[i]
            child, step = children[i]
            v, vec = self._alphabeta(child, depth - step, a, b)
            if (maximizing and v > value) or (not maximizing and v < value):
                value, best_vec, best_move = v, vec, move
            if maximizing:
                a = max(a, value)
            else:
                b = min(b, value)
            if a >= b:
                self.history[move] = self.history.get(move, 0) + (depth + 1) ** 2
                break
        if best_move is not None:
            self._best[pos] = best_move
        if value <= a0:
            self._store(key, (lower, lvec, value, best_vec), before)
        elif value >= b0:
            self._store(key, (value, best_vec, upper, uvec), before)
        else:
            self._store(key, (value, best_vec, value, best_vec), before)
        return value, best_vec

    def _maxn(self, state: GameState, depth: int) -> Outcome:
        state, depth, done = self._leaf(state, depth)
        if done is not None:
            return done
        if _boundary(state) and depth <= 0:
            return self._evaluate(state)
        self._tick()
        pos = self._key(state)
        key = (pos, depth)
        hit = self._table.get(key)
        if hit is not None:
            return self._hit(key, hit[1])
        before = self._estimates
        player = state.to_act
        best: Outcome | None = None
        best_move: Move | None = None
        legal, children, kinds = self._expand(pos, state)
        best_i = -1
        for i in _order_index(legal, kinds, self.history, self._best.get(pos)):
            move = legal[i]
            child, step = children[i]
            vec = self._maxn(child, depth - step)
            if best is None:
                better = True
            else:
                # Equal results for the mover: the move listed first by the engine (as the
                # exact search does, so that both agree where both are exact).
                gain = _utility(vec, player) - _utility(best, player)
                better = gain > 1e-12 or (gain > -1e-12 and i < best_i)
            if better:
                best, best_move, best_i = vec, move, i
                if vec[player] >= 1.0 - 1e-12:
                    break  # he wins for sure: nothing can be better (R20)
        assert best is not None and best_move is not None
        self.history[best_move] = self.history.get(best_move, 0) + (depth + 1) ** 2
        self._store(key, (0.0, best, 0.0, best), before)
        self._best[pos] = best_move
        return best
