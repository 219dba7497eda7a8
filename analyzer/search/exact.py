"""Exact game-tree search: double-dummy alpha-beta, max-n, paranoid and expectimax (R19, R20).

Every deal is finite (R19), so the search runs to the end of the deal.

* Two players, everything known (hands and stock order): minimax with
  alpha-beta pruning and a transposition table over win / draw / loss
  (+1 / 0 / -1 for player 0, R20).
* Three players, everything known: max-n (every player maximises his own
  result, R20); ties between moves of equal value for the mover go to the
  move listed first by :meth:`GameState.legal_moves`; shallow pruning
  (Korf 1991) skips the moves that cannot change a choice (:meth:`Solver._maxn`).  With
  ``mode="paranoid"`` the other players are assumed to minimise the result
  of the player to act at the root, which turns the search into alpha-beta.
* Hands known, stock order unknown: expectimax over the stock cards
  (chance nodes, R8, R10); the value is the probability of each outcome
  (a win for each player, or a draw), and each player maximises his
  expected result.

A budget of positions (``max_nodes``) and of seconds (``time_limit``) bounds
the search, and a ``stop`` callable (e.g. set by Ctrl-C) ends it early.  When
it runs out, the unfinished positions are scored by a heuristic (the fitted
leaf evaluation of :mod:`analyzer.search.evaluation` where one was fitted for the
variant, else the melded-card lead) and the answer says ``proven=False``; it
still gives the bounds the search did prove (``lower``, ``upper``) and the
best move found so far, which is never one whose proven value is worse than
another move's estimate (the search is *anytime*).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from analyzer.core import native
from analyzer.core.cards import mask_of
from analyzer.core.errors import ConquianError, PositionError
from analyzer.core.melds import cards_of
from analyzer.core.moves import LayIn, Move, Pass, Take, Turn
from analyzer.core.rules import Rules
from analyzer.core.state import GameState, Phase
from analyzer.search.evaluation import evaluator_for, melded_lead
from analyzer.search.lookahead import Lookahead
from analyzer.search.native import SolveData, SolveOptions, finish_leaf, leaf_args
from analyzer.search.outcome import Outcome, outcome_vector, paused_gc, position_key
from analyzer.search.outcome import utility as _utility

__all__ = [
    "TABLE_CAP",
    "Outcome",
    "SearchResult",
    "Solver",
    "outcome_vector",
    "paused_gc",
    "position_key",
    "solve",
]

TABLE_CAP = 1_500_000
"""The most entries of each transposition table of a :class:`Solver`: past it the table stores
nothing more (the search stays exact and only revisits more).  The same cap in both cores keeps
their node counts equal.  Natively an entry takes about 130 bytes and a table of 1,500,000 stays
in its 2,097,152 slots (about 270 MB), so that a default ``solve`` stays under 500 MB of memory."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The answer of :func:`solve`.

    Attributes
    ----------
    outcome : tuple of float
        Probabilities (player 0 wins, ..., player n-1 wins, draw); with
        everything known exactly one entry is 1.
    winner : int or None
        The winner under best play, or ``None`` for a draw, when the outcome
        is uncertain (chance), or when the answer is not proven.
    values : tuple of float
        Expected result of each player (R20: +1 win, 0 draw, -1 loss).
    pv : tuple of Move
        Principal variation from the position (chance moves included).
    nodes : int
        Positions searched.
    proven : bool
        False when the budget ran out and heuristic values were used.
    seconds : float
        Wall-clock time of the search.
    mode : str
        ``"minimax"``, ``"maxn"``, ``"paranoid"`` or ``"expectimax"``.
    stopped_by : str or None
        What ended an unproven search: ``"positions"`` (the node budget),
        ``"time"`` (the time limit) or ``"interrupted"`` (``stop``); ``None``
        when proven.
    lower, upper : float
        Bounds on the expected result of the player to act (on a turn, R10,
        the player who turns) (R20 scale, -1..1) that the search proved; equal when proven, (-1, 1) when
        nothing was proven.
    """

    outcome: Outcome
    winner: int | None
    values: tuple[float, ...]
    pv: tuple[Move, ...]
    nodes: int
    proven: bool
    seconds: float
    mode: str
    stopped_by: str | None = None
    lower: float = -1.0
    upper: float = 1.0


_OPEN: tuple[float, float, Move | None] = (-1.0, 1.0, None)
_PASS = Pass()


def _melded_after(move: Take | LayIn) -> int:
    """Cards melded after a take or lay-in (its layout's size)."""
    return cards_of(move.layout).bit_count()


def _order(
    state: GameState, moves: list[Move], history: dict[Move, int] | None = None
) -> list[Move]:
    """Likely-best moves first: going out, takes, forces, passes last; within the takes,
    the moves with the best history (cut-offs elsewhere in the tree), then the biggest takes."""
    outs: list[Move] = []
    takes: list[Take | LayIn] = []
    others: list[Move] = []
    passes: list[Move] = []
    for move in moves:
        if isinstance(move, (Take, LayIn)):
            if move.pay is None:
                outs.append(move)
            else:
                takes.append(move)
        elif isinstance(move, Pass):
            passes.append(move)
        else:
            others.append(move)
    if len(takes) > 1:
        # Biggest takes first, then (a stable sort) the best history first.
        takes.sort(key=_melded_after, reverse=True)
        if history:
            get = history.get
            takes.sort(key=lambda m: -get(m, 0))
    if len(others) > 1 and history:
        others.sort(key=lambda m: -history.get(m, 0))
    return [*outs, *takes, *others, *passes]


@dataclass
class Solver:
    """A reusable searcher with its transposition table.

    Parameters
    ----------
    mode : str
        ``"auto"`` (minimax for 2 players, max-n for more, expectimax when
        the stock order is unknown), ``"maxn"`` or ``"paranoid"``.
    max_nodes : int
        Budget of positions searched per :meth:`solve` call.
    time_limit : float
        Budget in seconds per :meth:`solve` call.
    leaf : callable, optional
        Heuristic outcome vector of a position where the budget ran out; by
        default the fitted evaluation of the variant (:func:`analyzer.search.evaluation.fitted_evaluator`),
        or the melded-card lead (:func:`analyzer.search.evaluation.melded_lead`) where none was fitted.
    stop : callable, optional
        Polled during the search; when it returns True the search ends as if
        the budget were spent (``stopped_by="interrupted"``).
    """

    mode: str = "auto"
    max_nodes: int = 2_000_000
    time_limit: float = 60.0
    leaf: Callable[[GameState], Outcome] | None = None
    stop: Callable[[], bool] | None = None
    table: dict[Hashable, tuple[Outcome, Move | None, bool]] = field(default_factory=dict)
    bounds: dict[Hashable, tuple[float, float, Move | None]] = field(default_factory=dict)
    history: dict[Move, int] = field(default_factory=dict)
    _deal: tuple[Rules, tuple[int, ...] | None, int | bool] | None = None
    nodes: int = 0
    _deadline: float = 0.0
    _limit: int = 0
    _exhausted: bool = False
    _root_player: int = 0
    stopped_by: str | None = None
    _root_moves: list[tuple[Move, Outcome, bool]] = field(default_factory=list)
    _native: object = None
    _native_rules: object = None

    @paused_gc()
    def solve(self, state: GameState, player: int | None = None) -> SearchResult:
        """Search ``state`` to the end of the deal within the budget.

        Parameters
        ----------
        state : GameState
            Every hand known.
        player : int, optional
            Whose result the search is about: the maximising player of
            minimax and ``paranoid`` (the others form a coalition against
            him), and the player of the bounds.  Default: the player to act
            (on a turn, R10, the player who turns).  Solving the positions
            after each of a player's moves for that player keeps the
            coalition of ``paranoid`` the same (:func:`analyzer.search.allmoves.solve_moves`).

        Raises
        ------
        PositionError
            If a hand is hidden (use a view-free position), or the stock
            cards are unknown.
        ConquianError
            If ``player`` is not a seat.
        """
        if any(h is None for h in state.hands):
            raise PositionError(
                "solving needs every hand, but a hand is hidden in this position (use hint for a view)"
            )
        mode = self._mode(state)
        if player is not None and not 0 <= player < state.rules.players:
            raise ConquianError(f"no player {player} in {state.rules.name}")
        if native.ACTIVE:
            found = self._native_solve(state, player)
            if found is not None:
                return found
        self._same_deal(state)
        start = time.perf_counter()
        self.start_budget()
        # On a turn (R10) the answer is given for the player who turns, the one named to act.
        # A finished deal too: its bounds are for the seat it names (the winner when he went out).
        root_player = player if player is not None else state.to_act
        if root_player != self._root_player:
            # The bounds table holds values for the root player of the searches that filled it.
            self.bounds.clear()
        self._root_player = root_player
        self._root_moves = []
        root, n = self._root_player, state.rules.players
        lower, upper = -1.0, 1.0
        pv: tuple[Move, ...]
        if mode in ("minimax", "paranoid"):
            # Null-window tests: a win for the root player?  If not, a draw?
            value = self._alphabeta(state, 0.0, 1.0)
            if not self._exhausted:
                lower, upper = (1.0, 1.0) if value >= 1.0 else (-1.0, 0.0)
                if value < 1.0:
                    value = self._alphabeta(state, -1.0, 0.0)
                    if not self._exhausted:
                        lower, upper = (0.0, 0.0) if value >= 0.0 else (-1.0, -1.0)
            if not self._exhausted:
                outcome = self._from_value(state, value)
                pv = self.principal_variation(state)
                # The outcome is where best play ends: replay the principal variation.
                end = state
                for move in pv:
                    end = end.apply(move, check=False)
                if end.is_terminal():
                    outcome = outcome_vector(end)
            else:
                outcome, pv = self._estimate(state, start)
        else:
            outcome = self._maxn(state, root=True)[0]
            if self._exhausted and self._root_moves:
                # Anytime: the best root move among proven values and estimates.
                move, outcome, _ = max(
                    self._root_moves, key=lambda r: _utility(r[1], state.current_player())
                )
                pv = (move,)
                proven = [_utility(v, root) for _, v, ok in self._root_moves if ok]
                if proven:
                    lower = max(proven)
            else:
                pv = self.principal_variation(state, stop_at_chance=mode == "expectimax")
            if not self._exhausted:
                lower = upper = _utility(outcome, root)
        values = tuple(_utility(outcome, p) for p in range(n))
        proven_all = not self._exhausted
        winner = (
            next((p for p in range(n) if outcome[p] > 1 - 1e-9), None) if proven_all else None
        )
        return SearchResult(
            outcome,
            winner,
            values,
            pv,
            self.nodes,
            proven_all,
            time.perf_counter() - start,
            mode,
            self.stopped_by,
            lower,
            upper,
        )

    def _native_solve(self, state: GameState, player: int | None) -> SearchResult | None:
        """:meth:`solve` by the native core (the same answer, tables kept between calls), or
        ``None`` when the leaf evaluation is a Python callable the native core does not have."""
        leaf = self._resolve_leaf(state)
        args = leaf_args(leaf, state.rules)
        if args is None:
            return None
        if self._native is None or self._native_rules != state.rules:
            self._native = native.native_module().NativeSolver(
                native.pack_rules(state.rules), self.mode, self.max_nodes, self.time_limit
            )
            self._native_rules = state.rules
        options: SolveOptions = {
            "player": player, "max_nodes": self.max_nodes, "time_limit": self.time_limit,
            "table_cap": TABLE_CAP, "leaf": args, "stop": self.stop,
        }  # fmt: skip
        data: SolveData = self._native.solve(native.pack_state(state), options)  # type: ignore[attr-defined]
        finish_leaf(leaf, data["rng"])
        nodes, proven, stopped_by = data["nodes"], data["proven"], data["stopped_by"]
        self.nodes, self.stopped_by, self._exhausted = nodes, stopped_by, not proven
        return SearchResult(
            tuple(data["outcome"]), data["winner"], tuple(data["values"]),
            tuple(native.unpack_move(m) for m in data["pv"]), nodes, proven, data["seconds"],
            data["mode"], stopped_by, data["lower"], data["upper"],
        )  # fmt: skip

    def _estimate(self, state: GameState, start: float) -> tuple[Outcome, tuple[Move, ...]]:
        """The best answer so far when the exact two-sided search ran out: a short lookahead
        with the leaf evaluation (:mod:`analyzer.search.lookahead`) picks the move and its estimate."""
        prefix: list[Move] = []
        moves: list[Move] = []
        while not state.is_terminal():
            moves = state.legal_moves()
            if len(moves) != 1:
                break
            prefix.append(moves[0])
            state = state.apply(moves[0], check=False)
        if state.is_terminal():
            return outcome_vector(state), tuple(prefix)
        if self.stopped_by == "interrupted" or state.stock is None:
            return self.heuristic(state), tuple(prefix)
        remaining = max(0.05, self.time_limit - (time.perf_counter() - start))
        look = Lookahead(
            self.heuristic,
            mode="paranoid" if self.mode == "paranoid" else "auto",
            max_nodes=max(2_000, min(50_000, self.max_nodes // 4)),
            time_limit=min(remaining, 5.0),
            stop=self.stop,
        )
        found = look.values(state, moves)
        me = state.to_act
        k = max(range(len(moves)), key=lambda i: _utility(found.outcomes[i], me))
        return found.outcomes[k], (*prefix, moves[k])

    def _same_deal(self, state: GameState) -> None:
        """Clear the tables unless ``state`` belongs to the deal they were built for."""
        deal = (state.rules, state.stock, state.stock is None and mask_of(state.dead))
        stock = state.stock
        if self._deal is not None:
            rules, old_stock, _ = self._deal
            if (
                rules == state.rules
                and stock is not None
                and old_stock is not None
                and old_stock[len(old_stock) - len(stock) :] == stock
            ):
                return
        self.table.clear()
        self.bounds.clear()
        self.history.clear()
        self._deal = deal

    def _mode(self, state: GameState) -> str:
        n = state.rules.players
        if self.mode not in ("auto", "maxn", "paranoid", "minimax"):
            raise ConquianError(f"unknown search mode: {self.mode!r} (auto, maxn, paranoid)")
        if state.stock is None and state.stock_count > 0:
            return "expectimax"
        if self.mode == "paranoid":
            return "paranoid"
        if self.mode == "maxn":
            return "maxn"
        return "minimax" if n == 2 else "maxn"

    # ------------------------------------------------------------ budget
    def start_budget(self) -> None:
        """Reset the node count and start the clock of the budget (``max_nodes``, ``time_limit``)."""
        self.nodes = 0
        self._limit = self.max_nodes
        self._deadline = time.perf_counter() + self.time_limit
        self._exhausted = False
        self.stopped_by = None

    @property
    def exhausted(self) -> bool:
        """True once the budget of the current search is spent."""
        return self._exhausted

    def tick(self) -> bool:
        """Count one position searched; True when the budget is spent."""
        return self._tick()

    def _tick(self) -> bool:
        """Count a node; True when the budget is spent (then the node gets a heuristic)."""
        if self._exhausted:
            return True
        self.nodes += 1
        if self.nodes >= self._limit:
            self._exhausted, self.stopped_by = True, "positions"
            return True
        return self.nodes & 1023 == 0 and self._out_of_time()

    def _tick_many(self, steps: int) -> bool:
        """Count ``steps`` positions passed at once (:meth:`GameState.run_forced`, which stays
        below the position budget); True when the time limit or ``stop`` ends the search."""
        before = self.nodes
        self.nodes += steps
        return before >> 10 != self.nodes >> 10 and self._out_of_time()

    def _out_of_time(self) -> bool:
        """Check the clock and ``stop`` (every 1,024 positions); True ends the search."""
        if time.perf_counter() > self._deadline:
            self._exhausted, self.stopped_by = True, "time"
            return True
        if self.stop is not None and self.stop():
            self._exhausted, self.stopped_by = True, "interrupted"
            return True
        return False

    def heuristic(self, state: GameState) -> Outcome:
        """Leaf estimate when the budget is spent (the ``leaf`` parameter, or its default).

        Returns
        -------
        tuple of float
            (player 0 wins, ..., player n-1 wins, draw), summing to 1.
        """
        return self._resolve_leaf(state)(state)

    def _resolve_leaf(self, state: GameState) -> Callable[[GameState], Outcome]:
        """The ``leaf`` parameter, or its default for ``state``'s variant, chosen once."""
        if self.leaf is None:
            fitted = evaluator_for(state.rules)
            self.leaf = fitted if fitted is not None else melded_lead
        return self.leaf

    # --------------------------------------------------- two-sided search
    def _value_for_root(self, outcome: Outcome) -> float:
        return _utility(outcome, self._root_player)

    def _proven_value(self, value: float) -> bool:
        return not self._exhausted and value in (-1.0, 0.0, 1.0)

    def _alphabeta(self, state: GameState, alpha: float, beta: float) -> float:
        """Minimax value for the root player (2 players, or paranoid): alpha-beta with a
        transposition table of bounds, ``bounds[key] = (lower, upper, best move)``."""
        while True:
            # Forced steps (a known turn, a single legal move) need no table entry.
            if state.phase is Phase.OVER:
                winner = state.winner  # R20: +1 the root player's win, 0 a draw, -1 a loss
                return 0.0 if winner is None else 1.0 if winner == self._root_player else -1.0
            room = self._limit - self.nodes - 1
            state, steps = state.run_forced(room)
            if steps:
                # Dead offers passed without building them, each counted as a position.
                if self._tick_many(steps):
                    # Out of budget: the run may have ended the deal (R17, R18), exactly valued.
                    return self._value_for_root(self._cheap(state))
                continue
            moves: list[Move] | None
            if state.phase is Phase.OFFER and room > 0:
                moves = None  # run_forced stopped at a choice: its moves are listed when needed
                break
            if state.phase is Phase.TURN:
                ((move, _),) = state.chance_outcomes()
            else:
                moves = state.legal_moves()
                if len(moves) != 1:
                    break
                move = moves[0]
            if self._tick():
                return self._value_for_root(self.heuristic(state))
            state = state.apply(move, check=False)
        key = position_key(state)
        lower, upper, hint = self.bounds.get(key, _OPEN)
        if lower >= beta:
            return lower
        if upper <= alpha:
            return upper
        if lower == upper:
            return lower
        if self._tick():
            return self._value_for_root(self.heuristic(state))
        alpha0 = alpha if alpha > lower else lower
        beta0 = beta if beta < upper else upper
        a, b = alpha0, beta0
        # A choice position (offer, lay-in or exchange): the player to act chooses.
        maximizing = state.to_act == self._root_player
        value = -2.0 if maximizing else 2.0
        best_move: Move | None = None
        search = self._alphabeta
        # The table's best move first (tried again later in the list: a cheap table hit);
        # the other moves are listed and ordered only if it does not cut off.
        ordered: list[Move] | None = None
        k = -1 if hint is not None else 0
        while True:
            if k < 0:
                move = hint  # type: ignore[assignment]
            else:
                if ordered is None:
                    ordered = _order(state, state.legal_moves() if moves is None else moves, self.history)
                if k >= len(ordered):
                    break
                move = ordered[k]
            k += 1
            child = search(state._apply(move), a, b)  # legal: listed by legal_moves
            if maximizing:
                if child > value:
                    value, best_move = child, move
                    if value > a:
                        a = value
            elif child < value:
                value, best_move = child, move
                if value < b:
                    b = value
            if self._exhausted:
                break
            if a >= b:
                # History heuristic: moves that cut off early in the deal count more.
                self.history[move] = self.history.get(move, 0) + state.stock_count**2
                break
        if not self._exhausted:
            if value <= alpha0:
                upper = min(upper, value)
            elif value >= beta0:
                lower = max(lower, value)
            else:
                lower = upper = value
            if len(self.bounds) < TABLE_CAP or key in self.bounds:
                self.bounds[key] = (lower, upper, best_move or hint)
        return value

    def _from_value(self, state: GameState, value: float) -> Outcome:
        """An outcome vector with the given value for the root player (2-player or paranoid)."""
        n = state.rules.players
        vec = [0.0] * (n + 1)
        root = self._root_player
        if value > 0.5:
            vec[root] = 1.0
        elif value < -0.5:
            other = (root + 1) % n
            vec[other] = 1.0
        else:
            vec[n] = 1.0
        return tuple(vec)

    # --------------------------------------------------- max-n / expectimax
    def _maxn(
        self, state: GameState, *, root: bool = False, bound: tuple[int, float] | None = None
    ) -> tuple[Outcome, bool]:
        """Max-n with chance averaging: each player maximises his own expected result; returns
        the outcome and whether it is a *cut* (a bound, not the value: not stored).

        Shallow pruning (Korf 1991): ``bound`` is ``(r, b)``, the player who chose the move into
        this position and the best result he has so far.  Any two players' results add up to at
        most 0 (R20: a win +1 takes every other player to -1; a draw is 0 for all), so once the
        player to act here, another than ``r``, has a move worth ``u >= -b`` to him, ``r`` gets
        at most ``-u <= b`` here and, ties going to the move listed first, will not choose it:
        the other moves are not searched.  The answer is the same as without the cut.

        Once the budget is spent, the moves not yet searched are scored by
        the heuristic of the position they lead to, and the move being
        searched by its partial value: a move whose proven value is worse
        than another move's estimate is never preferred.
        """
        if state.is_terminal():
            return outcome_vector(state), False
        key = position_key(state)
        hit = self.table.get(key)
        if hit is not None and hit[2]:
            return hit[0], False
        if not root:
            after, steps = state.run_forced(self._limit - self.nodes - 1)
            if steps:
                # Dead offers passed without building them, each counted as a position;
                # the first one keeps its table entry, where other lines may join it.
                if self._tick_many(steps):
                    return self._cheap(after), False
                outcome, cut = self._maxn(after, bound=bound)
                if not cut:
                    first = Turn(state.stock[0]) if state.stock is not None and state.centre is None else _PASS
                    self._store(key, (outcome, first, not self._exhausted))
                return outcome, cut
        if self._tick():
            return self.heuristic(state), False
        if state.is_chance_node():
            total = [0.0] * (state.rules.players + 1)
            best_move: Move | None = None
            best_p = -1.0
            for move, p in state.chance_outcomes():
                child = state.apply(move, check=False)
                vec = self._maxn(child)[0] if not self._exhausted else self._cheap(child)
                for k, v in enumerate(vec):
                    total[k] += p * v
                if p > best_p:
                    best_move, best_p = move, p
            outcome = tuple(total)
            self._store(key, (outcome, best_move, not self._exhausted))
            return outcome, False
        player = state.current_player()
        best: Outcome | None = None
        best_move = None
        for move in state.legal_moves():  # legal order: ties go to the first move listed
            child = state.apply(move, check=False)
            cut = False
            if self._exhausted:
                vec, proven = self._cheap(child), child.is_terminal()
            else:
                mine = None if best is None else (player, _utility(best, player))
                vec, cut = self._maxn(child, bound=mine)
                proven = not self._exhausted
            if root:
                self._root_moves.append((move, vec, proven and not cut))
            if best is None or _utility(vec, player) > _utility(best, player) + 1e-12:
                best, best_move = vec, move
                if proven and vec[player] >= 1.0 - 1e-12:
                    break  # he wins for sure: nothing can be better (R20)
                if (
                    proven
                    and bound is not None
                    and bound[0] != player
                    and _utility(best, player) >= -bound[1] - 1e-12
                ):
                    return best, True  # shallow cut (docstring)
        assert best is not None
        self._store(key, (best, best_move, not self._exhausted))
        return best, False

    def _store(self, key: Hashable, entry: tuple[Outcome, Move | None, bool]) -> None:
        """A max-n or expectimax table entry, unless the table is full (:data:`TABLE_CAP`)."""
        if len(self.table) < TABLE_CAP or key in self.table:
            self.table[key] = entry

    def _cheap(self, state: GameState) -> Outcome:
        """A position's value without search: exact when over, else the heuristic."""
        return outcome_vector(state) if state.is_terminal() else self.heuristic(state)

    # ------------------------------------------------------------- PV
    def principal_variation(
        self, state: GameState, limit: int = 400, *, stop_at_chance: bool = False
    ) -> tuple[Move, ...]:
        """The best line from ``state`` read from the transposition table.

        With ``stop_at_chance`` the line ends before the first chance move
        whose outcome is not certain (expectimax: what comes next depends on
        the card turned).
        """
        line: list[Move] = []
        seen: set[Hashable] = set()
        while not state.is_terminal() and len(line) < limit:
            if stop_at_chance and state.is_chance_node() and len(state.chance_outcomes()) > 1:
                break
            key = position_key(state)
            if key in seen:
                break
            seen.add(key)
            hit = self.table.get(key)
            if hit is not None:
                move = hit[1]
            elif key in self.bounds:
                move = self.bounds[key][2]
            elif state.is_chance_node() or len(state.legal_moves()) == 1:
                move = state.legal_moves()[0]
            else:
                move = None
            if move is None:
                break
            line.append(move)
            state = state.apply(move, check=False)
        return tuple(line)


def solve(
    state: GameState,
    *,
    mode: str = "auto",
    max_nodes: int = 2_000_000,
    time_limit: float = 60.0,
    stop: Callable[[], bool] | None = None,
) -> SearchResult:
    """Solve a position where every hand is known (double-dummy), R19 and R20.

    Parameters
    ----------
    state : GameState
        Every hand known; the stock order known (exact value) or not
        (expectimax over the stock cards).
    mode : str
        ``"auto"``, ``"maxn"`` or ``"paranoid"`` (see the module docstring).
    max_nodes : int
        Budget of positions.
    time_limit : float
        Budget in seconds.
    stop : callable, optional
        Polled during the search; True ends it with the best answer so far.

    Returns
    -------
    SearchResult

    Raises
    ------
    PositionError
        If a hand is hidden.
    ConquianError
        If ``mode`` is unknown.

    Examples
    --------
    >>> from analyzer.formats.sniff import read_position
    >>> result = solve(read_position("examples/positions/example6-going-out.json"))
    >>> result.winner, result.proven
    (0, True)
    """
    with paused_gc():
        # The solver and its tables are freed inside the block, before the collector runs again.
        return Solver(mode=mode, max_nodes=max_nodes, time_limit=time_limit, stop=stop).solve(state)
