"""Move hints from a player's own view: sampled deals searched by the explorer (PIMC).

For the player to act, :func:`advise`

1. lists the candidate moves with the one engine (:meth:`GameState.legal_moves`):
   every legal choice, where takes and lay-ins that leave the same cards in
   hand, the same cards melded and pay the same card are one choice, shown
   with the arrangement that exposes the fewest unseen cards to forcing
   (R14), the first in engine order on a tie (:func:`candidate_moves`);
2. draws deals of the hidden cards consistent with his view: ``v2`` among
   those where no other player holds two cards that meld with a card he
   declined (he would have taken it), ``v1`` uniformly
   (:mod:`analyzer.search.sampling`);
3. searches every candidate on each sampled deal as if every card were
   known, with the engine's search:

   * ``v2`` (default): :class:`analyzer.search.lookahead.Lookahead`, iterative
     deepening in offers with the fitted leaf evaluation of
     :mod:`analyzer.search.evaluation`, alpha-beta for two players and max-n for
     three, the move ordering shared across the deals of one hint;
   * ``v1`` (the first hint engine, kept to measure against): one take per
     set of hand cards melded, arranged and paid by the CP-SAT models of
     :mod:`analyzer.solver.choice`, each solved to the end of the deal by
     :class:`analyzer.search.exact.Solver` within a node budget, past which the
     melded-card lead scores what is left;
4. reports, per move, the win / draw / loss frequencies over the deals
   with a 95% interval for the win probability (Wilson score interval),
   ranked by expected result (R20: win +1, draw 0, loss -1).

This is perfect-information Monte Carlo: each sampled deal is searched as
if every card were visible, which overrates moves that need to know the
hidden cards; it is the standard baseline for hidden-information card games.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

import numpy as np

from analyzer.analysis.candidates import (
    candidate_moves,
    choices,
    goes_out,
    same_choice,
    v1_candidates,
)
from analyzer.analysis.engines import (
    AUTO,
    BATCH,
    DECIDE_CAP,
    DEFAULT_ENGINE,
    DEFAULT_NODE_BUDGET,
    DEFAULT_SAMPLES,
    DEFAULT_TIME_LIMIT,
    ENGINE_NAMES,
    ENGINES,
    MCTS_SEARCH,
    MCTS_SEARCHES,
    OPEN_NODE_BUDGET,
    TTEST_CAP,
    Engine,
    engine_for,
    searching_engine,
)
from analyzer.analysis.estimates import Advice, MoveEstimate
from analyzer.analysis.prior import choice_probabilities
from analyzer.analysis.reasons import with_reasons
from analyzer.analysis.static import Hint, check_chooser, score_move
from analyzer.analysis.verdict import DEFAULT_RULE, RULES, Decision, decide, t975
from analyzer.core.dealing import view as view_of
from analyzer.core.errors import ConquianError, PositionError
from analyzer.core.moves import Move
from analyzer.core.state import GameState, Phase
from analyzer.search.evaluation import evaluator_for, melded_lead
from analyzer.search.exact import Outcome, Solver
from analyzer.search.inference import read_cards
from analyzer.search.limits import MAX_CHOICES
from analyzer.search.lookahead import Lookahead
from analyzer.search.mcts import SearchResult
from analyzer.search.mcts import search as mcts_search
from analyzer.search.options import LEARNED_LEAVES, LEAVES, one_of
from analyzer.search.playout import RolloutLeaf
from analyzer.search.reader import reading_weights
from analyzer.search.sampling import sample_deal
from analyzer.search.stats import wilson

__all__ = [
    "AUTO",
    "DEFAULT_ENGINE",
    "DEFAULT_NODE_BUDGET",
    "DEFAULT_SAMPLES",
    "DEFAULT_TIME_LIMIT",
    "ENGINES",
    "ENGINE_NAMES",
    "Advice",
    "Engine",
    "MoveEstimate",
    "advise",
    "candidate_moves",
    "check_open",
    "choices",
    "engine_for",
    "same_choice",
    "searching_engine",
]


def _evaluator(engine: Engine, state: GameState, seed: int) -> Callable[[GameState], Outcome]:
    if engine.leaf == "rollout":
        return RolloutLeaf(engine.playouts, seed)
    if engine.leaf in LEARNED_LEAVES:
        fitted = evaluator_for(state.rules, engine.leaf)
        if fitted is not None:
            return fitted
    return melded_lead


def _check_budgets(samples: object, time_limit: object, node_budget: object) -> None:
    """Refuse budgets that no search can use (the command line refuses them as usage errors)."""
    for name, value in (("samples", samples), ("node_budget", node_budget)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ConquianError(f"{name} must be a whole number of at least 1, got {value!r}")
    if (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, (int, float))
        or math.isnan(time_limit)
        or time_limit <= 0
    ):
        raise ConquianError(
            f"time_limit must be a number of seconds above 0 (inf for none), got {time_limit!r}"
        )


def check_open(state: GameState) -> None:
    """Refuse ``--open`` (every hand used as given, double-dummy) on a position that hides a hand.

    Used by :func:`advise` with ``open_hands`` and by ``hint --static --open``, so that both
    say the same.  A hidden hand to act is refused first, as such (:func:`check_chooser`).

    Raises
    ------
    PositionError
        If the hand of the player to act is hidden; else if another hand of ``state`` is
        hidden, named as the option ``open``.
    """
    check_chooser(state)
    hidden = [p for p, hand in enumerate(state.hands) if hand is None]
    if hidden:
        whose = " and ".join(f"player {p}'s" for p in hidden)
        problem = f"needs every hand known (double-dummy), and this position hides {whose} hand"
        raise PositionError(f"--open {problem}").naming("open", f"'open' {problem}")


def advise(
    state: GameState,
    *,
    samples: int | None = None,
    seed: int = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
    node_budget: int | None = None,
    open_hands: bool = False,
    extra: list[Move] | None = None,
    progress: Callable[[int, int], None] | None = None,
    engine: str | Engine = DEFAULT_ENGINE,
    stop: Callable[[], bool] | None = None,
    until_decided: bool = False,
    searches: int = 1,
    rule: str = DEFAULT_RULE,
) -> Advice:
    """Rank the candidate moves of the player to act by sampled double-dummy results.

    Parameters
    ----------
    state : GameState
        The position; only the hand of the player to act needs to be known.
        Other hands, even if given, are hidden unless ``open_hands``.
    samples : int, optional
        Most deals to sample (at least one is always evaluated); the engine's
        default when omitted (``v2`` 48; ``v3`` 2,000 IS-MCTS iterations, each
        on its own sampled deal).
    seed : int
        Same seed, same deals, same answer (given the same time budget).
    time_limit : float
        Seconds; sampling stops when they are spent (at least one deal is evaluated).
    node_budget : int, optional
        Positions per sampled deal (``v2``) or per solve (``v1``); the engine's
        default when omitted.
    open_hands : bool
        Use the given hands and stock as they are (double-dummy, one "sample").
    extra : list of Move, optional
        Legal moves to evaluate as well (e.g. the move a user asks about); a
        move that is one choice with a candidate (:func:`same_choice`) is
        evaluated as itself in place of that candidate.
    progress : callable, optional
        Called with (deals done, deals planned).
    engine : str or Engine
        The hint engine (:data:`ENGINE_NAMES`), ``"auto"`` by default: ``v3``
        for three players, ``v2`` for two (:data:`AUTO`).
    stop : callable, optional
        Polled between and during the searches; when it returns True the
        answer is built from the deals finished so far (at least one), and
        ``Advice.interrupted`` says so.
    until_decided : bool
        Sample in seeded batches of :data:`BATCH` deals until the verdict is settled
        (:func:`analyzer.analysis.verdict.decide`), with ``samples`` (or the engine's
        :data:`DECIDE_CAP`) as the cap; the number of deals then depends on the position and
        seed only, never on the machine.  ``v3``: independent searches of
        :data:`MCTS_SEARCH` iterations are added instead, :data:`BATCH` at a time.
    searches : int
        ``v3``: independent IS-MCTS searches (different seeds) that share the iterations;
        two or more give the verdict a paired test over searches (with one, it is ``close``).
        With the anytime rule the iterations go in searches of :data:`MCTS_SEARCH` (fewer
        iterations: ``searches`` equal searches), at least ``searches`` of them.
    rule : str
        How the verdict reads the paired differences (:data:`analyzer.analysis.verdict.RULES`):
        ``"anytime"``, confidence sequences whose error bound holds however many looks the
        sampling took, or ``"ttest"``, the Student-t rule before (with its caps,
        :data:`TTEST_CAP`, and ``v3``'s searches of the engine's ``samples`` over ``searches``).

    Returns
    -------
    Advice

    Raises
    ------
    PositionError
        If nobody has a choice here, or the player to act's hand is hidden.
    ConquianError
        If the engine or the rule is unknown, or ``samples`` or ``node_budget`` is not a
        whole number of at least 1, or ``time_limit`` is not a number above 0
        (an infinity is no limit).
    """
    start = time.perf_counter()
    _check_budgets(samples, time_limit, node_budget)
    if rule not in RULES:
        raise ConquianError(f"unknown verdict rule: {rule!r} (known: {', '.join(RULES)})")
    if isinstance(searches, bool) or not isinstance(searches, int) or searches < 1:
        raise ConquianError(f"searches must be a whole number of at least 1, got {searches!r}")
    found = searching_engine(engine, state, open_hands=open_hands)
    if state.phase in (Phase.OVER, Phase.TURN):
        raise PositionError(f"no move to choose: {state.describe()}")
    check_chooser(state)
    if open_hands:
        check_open(state)
    mine = state if open_hands else view_of(state, state.to_act)
    weights = reading_weights(found.reader, mine, mine.to_act) if found.read and not open_hands else None
    reading = read_cards(mine, mine.to_act) if weights else {}
    legal = _checked_moves(mine)
    groups, asked = _choices(mine, found, extra, legal)
    caps = DECIDE_CAP if rule == "anytime" else TTEST_CAP
    cap = caps.get(found.search, found.samples) if until_decided else found.samples
    samples = cap if samples is None else samples
    if found.one_tree:
        return _advise_mcts(
            mine, groups, asked, found, samples, seed, time_limit, progress, stop, start, weights,
            reading, searches=max(searches, MCTS_SEARCHES) if until_decided else searches,
            until_decided=until_decided, rule=rule,
        )
    budget = _node_budget(found, node_budget, open_hands and state.stock is not None)
    sampling = _Sampling(mine, groups, asked, found, budget, seed, time_limit, stop, weights, rule)
    sampling.run(samples, open_hands and state.stock is not None, until_decided, progress, start)
    return sampling.answer(start, reading)


def _node_budget(engine: Engine, asked: int | None, exact_deal: bool) -> int:
    """Positions per deal: the one asked for, else the engine's; on the one deal of an open
    position with the stock order given, :data:`OPEN_NODE_BUDGET` (every card known: the whole
    budget of the sampled deals goes to it, so that a cheap position is solved to the end)."""
    if asked is not None:
        return asked
    if engine.search == "lookahead" and exact_deal:
        return OPEN_NODE_BUDGET
    return engine.node_budget


def _checked_moves(mine: GameState) -> list[Move]:
    """The legal moves of ``mine``, refused when there are more than
    :data:`~analyzer.search.limits.MAX_CHOICES` (custom rules with large hands, R13) before any
    deal is sampled: every deal would search each.

    Raises
    ------
    ConquianError
        Naming the count and the cap.
    """
    legal = mine.legal_moves()
    count = len(legal)
    if count > MAX_CHOICES:
        raise ConquianError(
            f"this position has {count:,} legal moves; a sampled hint searches at most "
            f"{MAX_CHOICES:,} (custom rules with large hands); --static ranks them one move ahead"
        )
    return legal


def _choices(
    mine: GameState, engine: Engine, extra: list[Move] | None, legal: list[Move]
) -> tuple[list[list[Move]], set[Move]]:
    """The candidate moves grouped by choice (:func:`choices` of ``legal``, or ``v1``'s CP-SAT
    takes), with the legal moves of ``extra`` each put in its choice's group; and those
    asked-about moves."""
    groups = [[m] for m in v1_candidates(mine)] if engine.candidates == "v1" else choices(mine, legal)
    asked: set[Move] = set()
    for move in extra or []:
        if not mine.is_legal(move):
            continue
        asked.add(move)
        home = next((g for g in groups if same_choice(mine, g[0], move)), None)
        if home is None:
            groups.append([move])
        elif move not in home:
            home.append(move)
    return groups, asked


class _Sampling:
    """PIMC for :func:`advise`: sampled deals of the hidden cards, every candidate searched on
    each (``v2``'s lookahead or ``v1``'s exact solves), tallied per move for the answer."""

    def __init__(
        self,
        mine: GameState,
        groups: list[list[Move]],
        asked: set[Move],
        engine: Engine,
        budget: int,
        seed: int,
        time_limit: float,
        stop: Callable[[], bool] | None,
        weights: Mapping[int, Sequence[float]] | None,
        rule: str = DEFAULT_RULE,
    ) -> None:
        self.mine, self.groups, self.asked, self.engine = mine, groups, asked, engine
        self.rule = rule
        self.budget, self.seed, self.time_limit, self.weights = budget, seed, time_limit, weights
        self.player, self.n = mine.to_act, mine.rules.players
        self.candidates = [m for g in groups for m in g]
        self.tallies = {m: [0.0, 0.0, 0.0] for m in self.candidates}  # win, draw, loss
        self.results: dict[Move, list[float]] = {m: [] for m in self.candidates}  # per deal
        self.per_deal: dict[Move, list[tuple[float, float]]] = {m: [] for m in self.candidates}
        self.scores: dict[Move, Hint] = {}
        self.solves = self.unproven = self.shallow = self.done = self.clock_cut = 0
        self.depths: list[int] = []
        self.planned = 1
        self.exact_deal = False
        self.interrupted = False
        self.stopped_by = "samples"
        self._stop = stop
        self.lookahead = (
            Lookahead(
                _evaluator(engine, mine, seed),
                mode=engine.mode,
                max_nodes=budget,
                time_limit=max(0.05, time_limit),
                max_depth=engine.max_depth,
                spread=engine.spread,
                opponents=engine.opponents,
                stop=self.stopping if stop is not None else None,
            )
            if engine.search == "lookahead"
            else None
        )

    def stopping(self) -> bool:
        """``stop``, once one deal is whole (the searches of the first deal are never cut)."""
        return self.done > 0 and self._stop is not None and self._stop()

    def run(
        self,
        samples: int,
        exact_deal: bool,
        until_decided: bool,
        progress: Callable[[int, int], None] | None,
        start: float,
    ) -> None:
        """Sample and search deals until the planned number, a settled verdict (in batches of
        :data:`BATCH`, ``until_decided``), the time limit or ``stop``."""
        self.exact_deal = exact_deal
        self.planned = planned = 1 if exact_deal else max(1, samples)
        rng = random.Random(self.seed)
        for _ in range(planned):
            if self.stopping():
                self.interrupted = True
                break
            self.search(self.deal(rng))
            self.done += 1
            if progress is not None:
                progress(self.done, planned)
            if until_decided and self.done % BATCH == 0 and self.done < planned:
                now = self.decision(self.ranking(False), False, intervals=False)
                if now.settled:
                    self.stopped_by = "margin" if now.within_margin else "verdict"
                    break
            if time.perf_counter() - start > self.time_limit:
                if self.done < planned:
                    self.stopped_by = "time"
                break
        else:
            self.stopped_by = "position" if exact_deal else "cap" if until_decided else "samples"
        if self._stop is not None and self._stop():
            self.interrupted = True
        if self.interrupted:
            self.stopped_by = "interrupted"

    def deal(self, rng: random.Random) -> GameState:
        """The next deal: the position itself (open, stock order given), else a sampled one."""
        if self.exact_deal:
            return self.mine
        deal = sample_deal(self.mine, self.player, rng, infer=self.engine.infer, weights=self.weights)
        return deal.evolve(stock=None) if self.engine.stock == "chance" else deal

    def search(self, deal: GameState) -> None:
        """Every candidate's outcome on ``deal``, tallied."""
        if self.lookahead is not None:
            found = self.lookahead.values(deal, self.candidates)
            self.solves += 1
            self.unproven += not found.exact
            self.shallow += not found.exact and found.depth < 1
            self.clock_cut += found.stopped_by == "time"
            self.depths.append(found.depth)
            for move, outcome in zip(self.candidates, found.outcomes, strict=True):
                self.tally(move, outcome)
            return
        solver = Solver(
            max_nodes=self.budget,
            time_limit=max(0.05, self.time_limit),
            leaf=melded_lead,
            stop=self.stopping if self._stop is not None else None,
        )
        for move in self.candidates:
            result = solver.solve(deal.apply(move, check=False))
            self.solves += 1
            self.unproven += not result.proven
            self.shallow += not result.proven
            self.tally(move, result.outcome)

    def tally(self, move: Move, outcome: Outcome) -> None:
        """Add one deal's outcome of ``move`` (R20)."""
        win, draw = outcome[self.player], outcome[self.n]
        t = self.tallies[move]
        t[0] += win
        t[1] += draw
        t[2] += 1.0 - win - draw
        self.results[move].append(2.0 * win + draw - 1.0)
        self.per_deal[move].append((win, draw))

    def decision(self, ranked: list[MoveEstimate], exact: bool, *, intervals: bool = True) -> Decision:
        """The verdict on ``ranked`` from each move's results over the same deals."""
        return decide(
            [self.results[e.move] for e in ranked], rule=self.rule, exact=exact, intervals=intervals
        )

    def ranking(self, exact: bool) -> list[MoveEstimate]:
        """One estimate per choice, best first (:func:`_ranked`)."""
        return _ranked(self.mine, self.groups, self.asked, self.tallies, self.done, exact, self.scores)

    def answer(self, start: float, reading: dict[int, tuple[int, ...]]) -> Advice:
        """The :class:`Advice` of the deals searched: ranking, verdict, reasons."""
        exact = self.exact_deal and self.unproven == 0
        ranked = self.ranking(exact)
        decision = self.decision(ranked, exact)
        comparisons, verdict = decision.comparisons, decision.verdict
        estimates = [
            replace(e, diff=c.diff, diff_ci95=c.ci95) for e, c in zip(ranked, comparisons, strict=True)
        ]
        static = {e.move: self.scores[e.move] for e in estimates}
        estimates = with_reasons(self.mine, self.player, estimates, static)
        self.depths.sort()
        solves = self.solves
        return Advice(
            self.player,
            estimates,
            self.done,
            time.perf_counter() - start,
            self.unproven / solves if solves else 0.0,
            self.seed,
            self.planned,
            self.engine.name,
            float(self.depths[len(self.depths) // 2]) if self.depths else 0.0,
            self.shallow / solves if solves else 0.0,
            self.interrupted,
            self.clock_cut > 0,
            reading,
            verdict.kind,
            tuple(estimates[k].move for k in verdict.close),
            self.stopped_by,
            {m: tuple(r) for m, r in self.per_deal.items()},
        )


def _ranked(
    mine: GameState,
    groups: list[list[Move]],
    asked: set[Move],
    tallies: Mapping[Move, list[float]],
    done: int,
    exact: bool,
    scores: dict[Move, Hint],
) -> list[MoveEstimate]:
    """One estimate per choice (the arrangement asked about, else the one with the best expected
    result), best first; a move that goes out at once (R15) beats one that wins later."""
    estimates: list[MoveEstimate] = []
    for group in groups:
        # One row per choice: the arrangement asked about, else the one with the best
        # expected result (fewest cards exposed to forcing on a tie: the group's order).
        def expected(move: Move) -> float:
            w, _, lo = tallies[move]
            return (w - lo) / done

        shown = [m for m in group if m in asked] or group
        move = max(shown, key=lambda m: (expected(m), -group.index(m)))
        w, d, lo = (x / done for x in tallies[move])
        ci = (w, w) if exact else wilson(w * done, done)  # fractional: per-deal win chances
        sure = goes_out(move)  # R15: he wins at once, whatever the deal
        if sure:
            ci = (1.0, 1.0)
        # Reasons use only what the player can see (his view), unless the hands are open.
        if move not in scores:
            scores[move] = score_move(mine, move)
        estimates.append(
            MoveEstimate(move, w, d, lo, ci, w - lo, done, scores[move].score, (), sure=sure)
        )
    estimates.sort(key=lambda e: (-e.expected, not goes_out(e.move), -e.win, -e.static_score))
    return estimates


def _advise_mcts(
    mine: GameState,
    groups: list[list[Move]],
    asked: set[Move],
    engine: Engine,
    samples: int,
    seed: int,
    time_limit: float,
    progress: Callable[[int, int], None] | None,
    stop: Callable[[], bool] | None,
    start: float,
    weights: Mapping[int, Sequence[float]] | None = None,
    reading: dict[int, tuple[int, ...]] | None = None,
    *,
    searches: int = 1,
    until_decided: bool = False,
    rule: str = DEFAULT_RULE,
) -> Advice:
    """``advise`` with the ``mcts`` search: IS-MCTS trees over one move per choice.

    Each choice is searched with the arrangement asked about, else the one exposing the fewest
    cards to forcing (:func:`choices`).  ``searches`` independent trees (different seeds) share
    the iterations; per move: the mean win and draw results of the iterations that tried it,
    with a 95% Wilson interval over its visits; moves are ranked by visits (the move the
    searches settled on first), a move that goes out first of all.  The verdict compares each
    move with the first over the searches that tried both (:func:`decide`, by ``rule``); with
    ``until_decided`` searches are added (:func:`_search_plan`) until it is settled or
    ``samples`` iterations are spent.  Every search of one answer has the same size.
    """
    player = mine.to_act
    roots = [([m for m in g if m in asked] or g)[0] for g in groups]
    root_prior = choice_probabilities(mine, roots) if engine.prior_bias else None
    per, first, step, most = _search_plan(engine, samples, searches, until_decided, rule)
    if until_decided and len(roots) == 1:
        most = 1  # one choice: nothing to decide, one search for its figures
    # The anytime rule's searches are whole: --samples N plans N rounded down to them.
    whole = until_decided or (rule == "anytime" and searches > 1)
    planned = per * most if whole else max(1, samples)
    seeds = random.Random(seed)
    found_all: list[SearchResult] = []
    pooled = _Pooled()
    stopped_by = "cap" if until_decided else "samples"
    interrupted = False
    while len(found_all) < most:
        k = len(found_all)
        left = time_limit - (time.perf_counter() - start)
        if k and left <= 0:
            stopped_by = "time"
            break
        offset = k * per

        def report(done: int, total: int, offset: int = offset) -> None:
            if progress is not None:
                progress(offset + done, planned)

        found = mcts_search(
            mine,
            max(1, samples) if searches == 1 and not until_decided else per,
            seed=seed if searches == 1 and not until_decided else seeds.randrange(2**31),
            c=engine.c,
            leaf=one_of(engine.leaf, LEAVES, "leaf"),
            infer=engine.infer,
            method=engine.method,
            opponents=engine.opponents,
            playout=engine.playout,
            prior_bias=engine.prior_bias,
            root_moves=roots,
            root_prior=root_prior,
            time_limit=max(0.05, left),
            stop=stop,
            progress=report,
            weights=weights,
        )
        found_all.append(found)
        pooled.add(found)
        if found.interrupted:
            interrupted = True
            stopped_by = "interrupted"
            break
        k = len(found_all)
        if until_decided and k >= first and (k - first) % step == 0 and k < most:
            now = decide(pooled.ranking()[1], rule=rule, intervals=False)
            if now.settled:
                stopped_by = "margin" if now.within_margin else "verdict"
                break
    ranked, rows = pooled.ranking()
    # One search (the hint bot's) gives no pairs to test: its verdict is "close" whatever the
    # rule, and its intervals the whole range.
    decision = decide(rows, rule=rule if len(found_all) > 1 else "ttest")
    comparisons = decision.comparisons
    verdict = decision.verdict if len(found_all) > 1 or len(ranked) == 1 else None
    static = {e.move: score_move(mine, e.move) for e in ranked}
    estimates = [
        replace(e, static_score=static[e.move].score, diff=c.diff, diff_ci95=c.ci95)
        for e, c in zip(ranked, comparisons, strict=True)
    ]
    estimates = with_reasons(
        mine, player, estimates, static, unit="IS-MCTS iteration", paired=len(found_all) > 1
    )
    iterations = sum(f.iterations for f in found_all)
    if stopped_by in ("cap", "samples") and iterations < planned:
        stopped_by = "time"  # a search ran out of time before its iterations
    ended = sum(f.ended * f.iterations for f in found_all) / iterations if iterations else 0.0
    depths = sorted(f.depth for f in found_all)
    close = (
        tuple(estimates[k].move for k in verdict.close)
        if verdict is not None
        else tuple(e.move for e in estimates[1:])
    )
    return Advice(
        player,
        estimates,
        iterations,
        time.perf_counter() - start,
        1.0 - ended,
        seed,
        planned,
        engine.name,
        depths[len(depths) // 2],
        0.0,
        interrupted,
        False,
        reading or {},
        verdict.kind if verdict is not None else "close",
        close,
        stopped_by,
    )


def _search_plan(
    engine: Engine, samples: int, searches: int, until_decided: bool, rule: str
) -> tuple[int, int, int, int]:
    """How ``v3`` spends ``samples`` iterations: the size of each search, the searches before
    the first look at the verdict, the searches between two looks, and the most searches.

    The anytime rule (:func:`decide`) compares moves over searches of :data:`MCTS_SEARCH`
    iterations (fewer iterations: ``searches`` equal searches; ``samples`` rounded down to whole
    searches), looked at every :data:`BATCH` searches; the ``ttest`` rule, as before, over ``searches`` searches of the engine's
    ``samples`` and then pairs more of that size.  One search (the ``hint`` bot): all of
    ``samples``.
    """
    if searches == 1 and not until_decided:
        return max(1, samples), 1, 1, 1
    if rule == "ttest":
        per = max(1, (engine.samples if until_decided else samples) // searches)
        most = max(searches, samples // per) if until_decided else searches
        return per, searches + searches % 2, 2, most  # looks after an even number of searches
    if until_decided:
        return MCTS_SEARCH, BATCH, BATCH, max(BATCH, samples // MCTS_SEARCH)
    per = MCTS_SEARCH if samples >= searches * MCTS_SEARCH else max(1, samples // searches)
    count = max(searches, samples // per)
    return per, count, 1, count


def _search_mean(values: list[float]) -> float:
    """The mean of one move's per-search mean results over the searches that tried it (NaN:
    not tried); -inf where none did."""
    tried = [v for v in values if not math.isnan(v)]
    return sum(tried) / len(tried) if tried else -math.inf


def _per_search(wins: list[float], draws: list[float]) -> tuple[float, float, tuple[float, float]]:
    """A move's win and draw chances as the mean over the searches that tried it (each search
    counted once, NaN: not tried), and the win chance's 95% Student t interval over them: the
    iterations of one search share its tree, so they are not independent draws."""
    tried = [(w, d) for w, d in zip(wins, draws, strict=True) if not math.isnan(w)]
    k = len(tried)
    win = sum(w for w, _ in tried) / k
    draw = sum(d for _, d in tried) / k
    spread = math.sqrt(sum((w - win) ** 2 for w, _ in tried) / (k - 1))
    half = t975(k - 1) * spread / math.sqrt(k)
    return win, draw, (max(0.0, win - half), min(1.0, win + half))


class _Pooled:
    """Independent IS-MCTS searches pooled as they finish: per root move, its visits, win and
    draw results added, and its win and draw chances in each search (NaN where a search never
    tried it)."""

    def __init__(self) -> None:
        self.searches = 0
        self.index: dict[Move, int] = {}
        self.moves: list[Move] = []
        self.visits: list[int] = []
        self.wins: list[float] = []
        self.draws: list[float] = []
        self.search_wins: list[list[float]] = []
        self.search_draws: list[list[float]] = []

    def add(self, found: SearchResult) -> None:
        """Pool one more search."""
        k = self.searches
        self.searches += 1
        for rows in (self.search_wins, self.search_draws):
            for row in rows:
                row.append(math.nan)
        for st in found.moves:
            i = self.index.get(st.move)
            if i is None:
                i = self.index[st.move] = len(self.moves)
                self.moves.append(st.move)
                self.visits.append(0)
                self.wins.append(0.0)
                self.draws.append(0.0)
                self.search_wins.append([math.nan] * (k + 1))
                self.search_draws.append([math.nan] * (k + 1))
            self.visits[i] += st.visits
            self.wins[i] += st.win * st.visits
            self.draws[i] += st.draw * st.visits
            if st.visits:
                self.search_wins[i][k] = st.win
                self.search_draws[i][k] = st.draw

    def values(self) -> list[list[float]]:
        """Each move's mean result in each search (win 1, draw 0, loss -1; NaN: not tried)."""
        return [
            [2.0 * w + d - 1.0 for w, d in zip(wins, draws, strict=True)]
            for wins, draws in zip(self.search_wins, self.search_draws, strict=True)
        ]

    def ranking(self) -> tuple[list[MoveEstimate], list[list[float]]]:
        """The moves pooled, ranked (below), and each one's mean result per search, for the paired
        comparisons with the first over the searches.  One search: its means (weighted by visits).
        Several: each move's chances are the mean over the searches that tried it, each counted
        once, as it is ranked and compared (with a t interval where two or more tried it)."""
        estimates: list[MoveEstimate] = []
        for i, (move, n, w, d) in enumerate(zip(self.moves, self.visits, self.wins, self.draws, strict=True)):
            # A move the search never tried has no estimate: win, draw and loss 0, interval 0-100%.
            win = w / n if n else 0.0
            draw = d / n if n else 0.0
            ci = wilson(win * n, n) if n else (0.0, 1.0)
            if self.searches > 1 and sum(not math.isnan(v) for v in self.search_wins[i]) > 1:
                win, draw, ci = _per_search(self.search_wins[i], self.search_draws[i])
            loss = max(0.0, 1.0 - win - draw) if n else 0.0
            sure = goes_out(move)  # R15
            ci = (1.0, 1.0) if sure else ci
            estimates.append(
                MoveEstimate(move, win, draw, loss, ci, win - loss, n, 0.0, (), sure=sure)
            )
        visits = dict(zip(self.moves, self.visits, strict=True))
        values = self.values()
        if self.searches > 1:
            # Independent searches: the best mean result among the moves the searches settled on
            # (a tenth of the most visits or more) first, so that "vs best" reads down the ranking.
            # The mean is over searches, each search's mean counted once, as the paired
            # differences count them (a mean pooled by visits can put first a move that the
            # searches trying both find worse).
            floor = 0.1 * max(visits.values())
            per_search = {m: _search_mean(values[i]) for m, i in self.index.items()}
            estimates.sort(
                key=lambda e: (not goes_out(e.move), visits[e.move] < floor, -per_search[e.move], -visits[e.move])
            )
            # The rest by their mean paired difference from the best (0 with no search in
            # common), so that the column reads down.
            table = np.array(values)
            gaps = table[self.index[estimates[0].move]] - table
            tried = ~np.isnan(gaps)
            leads = np.where(tried, gaps, 0.0).sum(axis=1) / np.maximum(tried.sum(axis=1), 1)
            lead = {m: float(leads[i]) for m, i in self.index.items()}
            estimates = [estimates[0], *sorted(estimates[1:], key=lambda e: (
                not goes_out(e.move), visits[e.move] < floor, lead[e.move], -visits[e.move],
            ))]  # fmt: skip
        else:
            estimates.sort(key=lambda e: (not goes_out(e.move), -visits[e.move], -e.expected))
        return estimates, [values[self.index[e.move]] for e in estimates]
