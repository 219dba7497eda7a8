"""The line the hint expects after a move: its principal variation on one typical sampled deal.

A hint weighs each move over sampled deals of the hidden cards (:mod:`analyzer.analysis.advisor`);
:func:`expected_lines` shows, for a move, the moves that follow it on **one** of those deals,
chosen as typical for that move:

* ``v1``, ``v2`` (sampled deals each searched double-dummy): the move's result on each deal is
  the likeliest of win, draw and loss by that deal's search (certain where it reached the end of
  the deal, else by the leaf evaluation's chances; R20); the typical result is the most common of
  these over the deals (a tie: the one nearer the move's mean result, then the better); the deal
  is the **first in seed order** with that result whose line (below), searched on, does not end
  otherwise (of at most :data:`LINE_DEALS`; none: the first, its heading saying so).  The deals
  are the hint's own, drawn again from its seed.
* ``v3`` (IS-MCTS keeps no deals): the typical result is the move's likeliest by the hint's
  figures (win, draw, loss); the deals are drawn as the IS-MCTS iterations draw them (seeded,
  the stock order drawn too), and the deal is the first (of at most :data:`LINE_DEALS`) on
  which the line, played on past its end by the ``eager`` policy (the IS-MCTS playout), ends
  with that result (none: the first with the next likeliest).

On that deal the line follows the move with each player's choice by the hint engine's own
search: ``v2`` the lookahead with the engine's budget of positions (every card of the deal seen,
as the hint searched it); ``v1`` the exact search within its budget; ``v3`` an IS-MCTS search
of the hint bot's iterations from the mover's own view of that deal (he does not see the sampled
cards).  Turns follow the deal's stock order.  It stops at the end of the deal or after
:data:`LINE_DECISIONS` decisions (positions with two or more legal moves; a move with no choice
and a turn are not counted).  Everything is seeded, so the same position and seed give the same
lines.  The cards of hidden hands and of the stock that the line shows are the sampled deal's,
not known: each step lists them (``LineStep.sampled``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from analyzer.analysis.candidates import candidate_moves
from analyzer.analysis.engines import (
    DEFAULT_ENGINE,
    ENGINES,
    OPEN_NODE_BUDGET,
    Engine,
    searching_engine,
)
from analyzer.analysis.estimates import Advice, MoveEstimate
from analyzer.core.cards import Labels, counted, format_card, iter_mask
from analyzer.core.dealing import view as view_of
from analyzer.core.melds import cards_of
from analyzer.core.moves import Give, LayIn, Meld, Move, Pass, Take, Turn
from analyzer.core.state import GameState
from analyzer.search.evaluation import evaluator_for, melded_lead
from analyzer.search.exact import Outcome, Solver
from analyzer.search.inference import infer_weights
from analyzer.search.lookahead import Lookahead
from analyzer.search.mcts import search as mcts_search
from analyzer.search.options import LEARNED_LEAVES, LEAVES, one_of
from analyzer.search.outcome import outcome_vector, utility
from analyzer.search.playout import RolloutLeaf, eager_move, playout_outcome
from analyzer.search.sampling import sample_deal, sample_world, unseen_cards

__all__ = ["LINE_DEALS", "LINE_DECISIONS", "RESULTS", "Line", "LineStep", "expected_lines", "line_text"]

LINE_DECISIONS = 8
"""Most decisions a line shows after its move (moves with no choice and turns not counted)."""

LINE_DEALS = 8
"""Most deals played to find one where the move's line ends with its typical result."""

RESULTS = ("win", "draw", "loss")
"""Whole results of a deal for the player to act (R20), by their value +1, 0, -1."""

_VALUE = {"win": 1.0, "draw": 0.0, "loss": -1.0}


@dataclass(frozen=True, slots=True)
class LineStep:
    """One move of a line.

    Attributes
    ----------
    player : int or None
        Who moved; ``None`` for a turn of the stock (R10).
    move : Move
    forced : bool
        It was the only legal move (not counted as a decision).
    sampled : int
        Mask of the move's cards that come from the sampled part of the deal (another hand or
        the stock, as the player to act's view hides them).
    """

    player: int | None
    move: Move
    forced: bool
    sampled: int


@dataclass(frozen=True, slots=True)
class Line:
    """The line expected after one move (module docstring).

    Attributes
    ----------
    move : Move
        The move the line follows.
    deal : int
        The deal it is played on, from 1 in seed order.
    deals : int
        The deals it was chosen among.
    result : str
        The move's result on that deal (:data:`RESULTS`).
    typical : bool
        ``result`` is the move's typical result and the line does not end otherwise: False for
        ``v3`` when no deal drawn gave its likeliest result (the deal then has the next
        likeliest), and for ``v1``, ``v2`` when on each deal tried with that result the line,
        searched on to the end, ended otherwise.
    value : float
        The move's result on that deal, -1..1 (R20): the hint's search value (``v3``: the
        eager playout's).
    share : float
        The share of that result: of the hint's deals (``v1``, ``v2``), or the move's figure
        (``v3``).
    steps : tuple of LineStep
        The moves after ``move``, turns and moves with no choice included.
    end : str
        ``"over"`` (the deal ended), ``"decisions"`` (:data:`LINE_DECISIONS` reached) or
        ``"interrupted"``.
    winner : int or None
        With ``end == "over"``: the winner (``None``: a draw, R18).
    sampled : bool
        The deal's hidden cards are sampled (False only for the position itself, every card and
        the stock order given).
    deal_state : GameState
        The deal before ``move``: every hand and the stock order (sampled where hidden).
    """

    move: Move
    deal: int
    deals: int
    result: str
    typical: bool
    value: float
    share: float
    steps: tuple[LineStep, ...]
    end: str
    winner: int | None
    sampled: bool
    deal_state: GameState


def expected_lines(
    state: GameState,
    advice: Advice,
    moves: Iterable[Move],
    *,
    engine: str | Engine = DEFAULT_ENGINE,
    seed: int = 0,
    open_hands: bool = False,
    node_budget: int | None = None,
    time_limit: float = math.inf,
    stop: Callable[[], bool] | None = None,
    decisions: int = LINE_DECISIONS,
) -> dict[Move, Line]:
    """The line expected after each of ``moves`` (module docstring).

    Parameters
    ----------
    state : GameState
        The position advised on.
    advice : Advice
        :func:`analyzer.analysis.advisor.advise`'s answer on ``state`` with the same ``engine``,
        ``seed``, ``open_hands`` and ``node_budget``.
    moves : iterable of Move
        Moves of ``advice.estimates`` to give a line for.
    engine, seed, open_hands, node_budget, time_limit, stop
        As given to :func:`~analyzer.analysis.advisor.advise`; ``stop`` returning True ends
        the line being played (``end == "interrupted"``) and gives no more lines.
    decisions : int
        Most decisions per line.

    Returns
    -------
    dict of Move to Line
        In the order of ``moves``.
    """
    found = searching_engine(engine, state, open_hands=open_hands)
    player = state.to_act
    mine = state if open_hands else view_of(state, player)
    weights = infer_weights(mine, player) if found.read and not open_hands else None
    exact_deal = open_hands and state.stock is not None
    budget = node_budget or (
        OPEN_NODE_BUDGET if found.search == "lookahead" and exact_deal else found.node_budget
    )
    estimates = {e.move: e for e in advice.estimates}
    deals = _Deals(mine, player, found, seed, weights, exact_deal, bool(advice.per_deal))
    chooser = _Chooser(found, player, budget, time_limit, stop, open_hands, seed)
    hidden = _hidden(mine, player, open_hands)
    out: dict[Move, Line] = {}
    for move in moves:
        if stop is not None and stop():
            break
        per_deal = advice.per_deal.get(move)
        if per_deal:
            line = _searched_line(move, per_deal, deals, chooser, hidden, decisions)
        else:
            line = _played_line(move, estimates.get(move), deals, chooser, hidden, decisions)
        out[move] = line
        if line.end == "interrupted":
            break
    return out


def _searched_line(
    move: Move,
    per_deal: Sequence[tuple[float, float]],
    deals: _Deals,
    chooser: _Chooser,
    hidden: int,
    decisions: int,
) -> Line:
    """``v1``, ``v2``: the line on the first deal, in seed order, whose search gave the move its
    most common result and whose line, searched on, does not end otherwise (a line stopped after
    ``decisions`` is not said to); at most :data:`LINE_DEALS` lines are played.  None: the first
    such deal's line, marked not ``typical`` (its heading says it ends otherwise)."""
    _, result, share = _typical(per_deal)
    chosen = [k for k, (w, d) in enumerate(per_deal) if _likeliest(w, d) == result]
    first: Line | None = None
    for k in chosen[: 1 if deals.exact_deal else LINE_DEALS]:
        deal = deals.get(k)
        steps, end, after = chooser.line(deal.apply(move, check=False), hidden, decisions)
        winner = after.winner if end == "over" else None
        line = Line(
            move, k + 1, len(per_deal), result, True, _value(*per_deal[k]), share, steps, end,
            winner, not deals.exact_deal, deal,
        )  # fmt: skip
        ended = "draw" if winner is None else "win" if winner == chooser.root else "loss"
        if end != "over" or ended == result:
            return line
        first = first or line
    assert first is not None  # the typical result is some deal's
    return replace(first, typical=False)


def _played_line(
    move: Move,
    estimate: MoveEstimate | None,
    deals: _Deals,
    chooser: _Chooser,
    hidden: int,
    decisions: int,
) -> Line:
    """``v3``: the line on the first deal (of at most :data:`LINE_DEALS`, seed order) where the
    move, its line and an ``eager`` playout past the line's end give the move's likeliest result
    by the hint's figures (none: the first deal with the next likeliest)."""
    if estimate is None or estimate.samples == 0:
        shares, mean = dict.fromkeys(RESULTS, 0.0), 0.0
    else:
        shares = {"win": estimate.win, "draw": estimate.draw, "loss": estimate.loss}
        mean = estimate.expected
    order = _rank(shares, mean)
    player = chooser.root
    quiet = player if chooser.engine.playout == "nomeld" else -1
    tried: dict[str, Line] = {}
    for k in range(1 if deals.exact_deal else LINE_DEALS):
        deal = deals.get(k)
        steps, end, after = chooser.line(deal.apply(move, check=False), hidden, decisions)
        if end == "interrupted":
            return Line(move, k + 1, k + 1, order[0], False, 0.0, 0.0, steps, end, None, True, deal)
        outcome = (
            outcome_vector(after) if end == "over"
            else playout_outcome(after, "eager", random.Random(deals.playout_seeds[k]), quiet)
        )  # fmt: skip
        result = _likeliest(outcome[player], outcome[-1])
        if result not in tried:
            tried[result] = Line(
                move, k + 1, 0, result, result == order[0], utility(outcome, player),
                shares[result], steps, end, after.winner if end == "over" else None,
                not deals.exact_deal, deal,
            )  # fmt: skip
        if result == order[0]:
            break
    best = tried[next(r for r in order if r in tried)]
    return replace(best, deals=k + 1)


def _hidden(mine: GameState, player: int, open_hands: bool) -> int:
    """The cards whose place the hint sampled: unseen by the player (less the card he passed in
    the exchange, whose place is known, R9); with every hand open, the stock's when its order is
    not given."""
    if open_hands:
        return 0 if mine.stock is not None else ((1 << 40) - 1) & ~mine.known_mask()
    unseen = unseen_cards(mine, player)
    passed = mine.gave[player] if mine.gave else None
    return unseen & ~(1 << passed) if passed is not None else unseen


def _value(win: float, draw: float) -> float:
    """The expected result of win and draw chances, -1..1 (R20)."""
    return 2.0 * win + draw - 1.0


def _likeliest(win: float, draw: float) -> str:
    """The likeliest whole result of one deal (R20); a tie: the one nearer its expected result,
    then the better."""
    chances = {"win": win, "draw": draw, "loss": 1.0 - win - draw}
    return _rank(chances, _value(win, draw))[0]


def _rank(shares: dict[str, float], mean: float) -> list[str]:
    """The whole results, most common first; a tie: the one nearer ``mean``, then the better."""
    return sorted(RESULTS, key=lambda r: (-shares[r], abs(_VALUE[r] - mean), -_VALUE[r]))


def _typical(per_deal: Sequence[tuple[float, float]]) -> tuple[int, str, float]:
    """The first deal (index) with the most common likeliest result, that result and its share."""
    classes = [_likeliest(w, d) for w, d in per_deal]
    shares = {r: classes.count(r) / len(classes) for r in RESULTS}
    best = _rank(shares, sum(_value(w, d) for w, d in per_deal) / len(per_deal))[0]
    return classes.index(best), best, shares[best]


class _Deals:
    """The sampled deals of a hint, drawn again from its seed in its order, kept as drawn."""

    def __init__(
        self,
        mine: GameState,
        player: int,
        engine: Engine,
        seed: int,
        weights: dict[int, tuple[float, ...]] | None,
        exact_deal: bool,
        pimc: bool,
    ) -> None:
        self.mine, self.player, self.engine, self.weights = mine, player, engine, weights
        self.exact_deal, self.pimc = exact_deal, pimc
        self.rng = random.Random(seed)
        self.deals: list[GameState] = []
        self.playout_seeds: list[int] = []

    def get(self, k: int) -> GameState:
        """Deal ``k`` (from 0) in seed order: ``advise``'s ``k``-th deal (``v1``, ``v2``), or the
        ``k``-th whole deal drawn as IS-MCTS draws them (``v3``), with a seed for its playout."""
        while len(self.deals) <= k:
            if self.exact_deal:
                self.deals.append(self.mine)
                self.playout_seeds.append(0)
            elif self.pimc:
                # Exactly advise's draws: nothing else may take from this generator.
                self.deals.append(sample_deal(
                    self.mine, self.player, self.rng, infer=self.engine.infer, weights=self.weights
                ))  # fmt: skip
            else:
                self.deals.append(sample_world(
                    self.mine, self.player, self.rng, infer=self.engine.infer,
                    weights=self.weights, ordered=True,
                ))  # fmt: skip
                self.playout_seeds.append(self.rng.randrange(2**31))
        return self.deals[k]


class _Chooser:
    """Each player's choice on a deal by the hint engine's search (module docstring)."""

    def __init__(
        self,
        engine: Engine,
        root: int,
        budget: int,
        time_limit: float,
        stop: Callable[[], bool] | None,
        open_hands: bool,
        seed: int,
    ) -> None:
        self.engine, self.root, self.budget, self.stop = engine, root, budget, stop
        self.time_limit, self.open_hands, self.seed = max(0.05, time_limit), open_hands, seed

    def line(
        self, state: GameState, hidden: int, decisions: int
    ) -> tuple[tuple[LineStep, ...], str, GameState]:
        """The moves from ``state`` on: the steps, how the line ended and where."""
        steps: list[LineStep] = []
        made = 0
        rng = random.Random(self.seed)  # the IS-MCTS searches' seeds, the same for every line
        look = self._lookahead(state)
        while not state.is_terminal() and made < decisions:
            if self.stop is not None and self.stop():
                return tuple(steps), "interrupted", state
            if state.is_chance_node():
                ((move, _),) = state.chance_outcomes()  # the deal's stock order (R10)
                steps.append(LineStep(None, move, False, _cards(move) & hidden))
                state = state.apply(move, check=False)
                continue
            legal = state.legal_moves()
            if len(legal) == 1:
                move, forced = legal[0], True
            else:
                move, forced = self._choose(state, legal, look, rng), False
                made += 1
            steps.append(LineStep(state.to_act, move, forced, _cards(move) & hidden))
            state = state.apply(move, check=False)
        return tuple(steps), "over" if state.is_terminal() else "decisions", state

    def _lookahead(self, state: GameState) -> Lookahead | None:
        """A fresh lookahead per line (its move ordering then depends on the line alone)."""
        engine = self.engine
        if engine.search != "lookahead":
            return None
        if engine.leaf == "rollout":
            leaf: Callable[[GameState], Outcome] = RolloutLeaf(engine.playouts, self.seed)
        else:
            learned = engine.leaf in LEARNED_LEAVES
            leaf = (evaluator_for(state.rules, engine.leaf) if learned else None) or melded_lead
        return Lookahead(
            leaf, mode=engine.mode, max_nodes=self.budget, time_limit=self.time_limit,
            max_depth=engine.max_depth, spread=engine.spread, opponents=engine.opponents,
            stop=self.stop,
        )  # fmt: skip

    def _choose(
        self, state: GameState, legal: list[Move], look: Lookahead | None, rng: random.Random
    ) -> Move:
        """The mover's choice: the search's best move for him, the first in engine order on a tie."""
        engine, mover = self.engine, state.to_act
        searched = state.evolve(stock=None) if engine.stock == "chance" else state
        if engine.one_tree:
            return self._mcts(state, rng)
        if engine.opponents == "policy" and mover != self.root:
            return eager_move(state, legal, random.Random(0))  # the engine's opponent model
        if look is not None:
            outcomes = look.values(searched, legal).outcomes
            values = [utility(o, mover) for o in outcomes]
            return legal[max(range(len(legal)), key=lambda i: (values[i], -i))]
        solver = Solver(
            max_nodes=self.budget, time_limit=self.time_limit, leaf=melded_lead, stop=self.stop
        )
        pv = solver.solve(searched).pv
        return pv[0] if pv and pv[0] in legal else legal[0]

    def _mcts(self, state: GameState, rng: random.Random) -> Move:
        """``v3``: one IS-MCTS search of the hint bot's iterations from the mover's view."""
        engine, mover = self.engine, state.to_act
        view = state if self.open_hands else view_of(state, mover)
        weights = infer_weights(view, mover) if engine.read and not self.open_hands else None
        found = mcts_search(
            view, engine.bot_samples, seed=rng.randrange(2**31), c=engine.c,
            leaf=one_of(engine.leaf, LEAVES, "leaf"), infer=engine.infer, method=engine.method,
            opponents=engine.opponents, playout=engine.playout, root_moves=candidate_moves(view),
            time_limit=self.time_limit, stop=self.stop, weights=weights,
        )  # fmt: skip
        return found.moves[0].move


def _cards(move: Move) -> int:
    """The cards a move shows: a take's or lay-in's whole layout and pay card, a meld, a card
    given or turned."""
    if isinstance(move, (Take, LayIn)):
        return cards_of(move.layout) | (1 << move.pay if move.pay is not None else 0)
    if isinstance(move, Meld):
        return move.meld
    if isinstance(move, (Give, Turn)):
        return 1 << move.card
    return 0


def _marked(move: Move, sampled: int, labels: Labels) -> str:
    """The move's text with each sampled card marked ``*``."""
    text = move.text(labels)
    if not sampled:
        return text
    names = {format_card(c, labels) for c in iter_mask(sampled)}
    out = []
    for token in text.split(" "):
        core = token.strip("[]")
        out.append(token.replace(core, core + "*") if core in names else token)
    return " ".join(out)


def line_text(line: Line, labels: Labels, *, player: int, engine: str | Engine) -> list[str]:
    """The line in a player's words: a heading (which deal, why it is typical, what is
    sampled), one text per move (a pass with no choice left out), then how it ends.  ``engine``
    is the hint's (:attr:`Advice.engine`, any name :data:`ENGINES` knows, or the engine): an
    IS-MCTS line (:attr:`Engine.one_tree`) was chosen among the deals played, not the hint's."""
    what = "a draw" if line.result == "draw" else f"a {line.result}"
    found = engine if isinstance(engine, Engine) else ENGINES.get(engine)
    if not line.sampled:
        head = "Expected line, on the position itself (every card known)"
    elif found is not None and found.one_tree:
        why = (
            f"its likeliest result ({100 * line.share:.0f}%)" if line.typical
            else f"none of the {line.deals} deals played gave its likeliest result"
        )
        head = (
            f"Expected line, on sampled deal {line.deal} of {line.deals} played: {what} (the "
            f"line, played on by the eager policy), {why}"
        )
    else:
        common = round(line.share * line.deals)
        head = (
            f"Expected line, on sampled deal {line.deal} of {line.deals}: {what}, its most "
            f"common result ({common} of {counted(line.deals, 'deal')})"
        )
        if not line.typical:  # the search's horizon said so; searched on, the line ends otherwise
            head += (
                " by the search's estimate; searched on to the end, this line ends otherwise, as "
                "did the others tried"
            )
    if any(s.sampled for s in line.steps):
        head += "; cards marked * are that deal's, sampled, not known"
    rows = [head + ":"]
    for step in line.steps:
        if step.forced and isinstance(step.move, Pass):
            continue
        text = _marked(step.move, step.sampled, labels)
        if step.player is None:
            rows.append(text)
            continue
        you = " (you)" if step.player == player else ""
        rows.append(f"player {step.player}{you}: {text}{' (no choice)' if step.forced else ''}")
    if line.end == "over":
        if not line.steps:
            rows.append("the move ends the deal")
        rows.append(
            "the deal is over: a draw (R18)" if line.winner is None
            else f"the deal is over: player {line.winner} wins"
        )
    elif line.end == "decisions":
        made = sum(1 for s in line.steps if s.player is not None and not s.forced)
        rows.append(f"... ({counted(made, 'decision')} shown; the deal goes on)")
    else:
        rows.append("... (interrupted)")
    return rows
