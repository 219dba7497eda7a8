"""What the advisor answers: :class:`MoveEstimate` per move and :class:`Advice` per position."""

from __future__ import annotations

from dataclasses import dataclass, field

from analyzer.analysis.engines import DEFAULT_ENGINE
from analyzer.core.moves import Move

__all__ = ["Advice", "MoveEstimate"]


@dataclass(frozen=True, slots=True)
class MoveEstimate:
    """One candidate move with its sampled results.

    Attributes
    ----------
    move : Move
    win, draw, loss : float
        Frequencies over the sampled deals (probabilities, summing to 1).
    ci95 : tuple of float
        95% Wilson interval of the win probability.
    expected : float
        Mean result, ``win - loss`` (R20).
    samples : int
        Deals evaluated.
    static_score : float
        The static evaluation of :mod:`analyzer.analysis.static`.
    reasons : tuple of str
        Facts computed from the position and the samples.
    diff : float
        The best move's expected result minus this one's, over the same sampled deals (or
        independent searches); 0 for the best (:mod:`analyzer.analysis.verdict`).
    diff_ci95 : tuple of float
        Interval of ``diff`` by the verdict's rule: the anytime confidence sequence (or, with
        ``rule="ttest"``, the paired Student-t 95% interval; :mod:`analyzer.analysis.verdict`).
    sure : bool
        The result is certain by the rules (the move goes out, R15), not estimated.
    """

    move: Move
    win: float
    draw: float
    loss: float
    ci95: tuple[float, float]
    expected: float
    samples: int
    static_score: float
    reasons: tuple[str, ...]
    diff: float = 0.0
    diff_ci95: tuple[float, float] = (0.0, 0.0)
    sure: bool = False


@dataclass(frozen=True, slots=True)
class Advice:
    """The answer of :func:`advise`.

    Attributes
    ----------
    player : int
        The player to act.
    estimates : list of MoveEstimate
        Best first.
    samples : int
        Deals evaluated.
    seconds : float
    unproven : float
        Fraction of the searches (one per deal, or per deal and move for
        ``v1``) whose values are estimates, not exact results: ``v1``, the
        solves that ran out of their node budget; ``v2``, the deals where the
        lookahead stopped before the end of the deal and used its leaf evaluation;
        ``v3``, the IS-MCTS iterations that left the tree before the end of the
        deal and were scored by a playout (or the fitted leaf).
    seed : int
    planned : int
        Deals planned; more than ``samples`` when the time limit stopped sampling.
    engine : str
        The engine's version name (``v3``, ``v2``, ``v1``: the hint JSON's ``engine``, a public
        value); ``ENGINES[engine]`` is the engine (:class:`~analyzer.analysis.engines.EngineTable`
        finds it by that alias).
    depth : float
        ``v2``: median depth in offers of the lookahead over the deals
        (-1: the budget allowed only the evaluation of each move's position);
        ``v1``: 0; ``v3``: median number of moves chosen in the tree per iteration.
    shallow : float
        ``v2``: fraction of deals where the budget cut the lookahead before
        it had looked one full offer beyond the move (depth below 1) and the
        search did not reach the end of the deal; ``v1``: equal to ``unproven``.
        ``v3``: 0.
    interrupted : bool
        True when ``stop`` ended the sampling early (Ctrl-C): the answer is
        the best found so far.
    clock_cut : bool
        ``v2``: a search within a deal was stopped by the time limit, not by its budget.
    verdict : str
        ``"clear"`` (the best move's lead over every other is above zero, and at least 0.1),
        ``"narrow"`` (above zero but under 0.1: best, by a small margin), ``"close"`` or
        ``"only"`` (one choice); :mod:`analyzer.analysis.verdict`.
    close_to_best : tuple of Move
        With ``"close"``: the moves not separated from the best.
    stopped_by : str
        What ended the sampling: ``"verdict"`` (clear), ``"margin"`` (the moves left in
        contention within :data:`~analyzer.analysis.verdict.MARGIN` of each other), ``"cap"``
        (the most deals or searches), ``"samples"`` (the number asked for), ``"position"`` (the one
        deal of an open position with the stock order given), ``"time"`` (the time limit) or
        ``"interrupted"``.
    reading : dict of int to tuple of int
        The cards given up (passed in the exchange, paid) that the hidden hands
        were read from, per player (:func:`analyzer.search.inference.read_cards`); empty
        when the engine does not read (``Engine.read``) or nobody gave up a card seen.
    per_deal : dict of Move to tuple of (float, float)
        ``v1``, ``v2``: per candidate move, its win and draw chances on each sampled deal in
        seed order (0 or 1 where the search reached the end of the deal, else the leaf's
        estimate); :mod:`analyzer.analysis.lines` picks a typical deal from them.  Empty for
        ``v3``, whose iterations keep no deals.
    """

    player: int
    estimates: list[MoveEstimate]
    samples: int
    seconds: float
    unproven: float
    seed: int
    planned: int = 0
    engine: str = DEFAULT_ENGINE
    depth: float = 0.0
    shallow: float = 0.0
    interrupted: bool = False
    clock_cut: bool = False
    reading: dict[int, tuple[int, ...]] = field(default_factory=dict)
    verdict: str = "close"
    close_to_best: tuple[Move, ...] = ()
    stopped_by: str = "samples"
    per_deal: dict[Move, tuple[tuple[float, float], ...]] = field(default_factory=dict)

    @property
    def time_limited(self) -> bool:
        """True when the clock, not the budgets, shaped the answer: sampling stopped before the
        planned deals, or a search within a deal was cut by the time limit (the answer then
        depends on machine speed)."""
        return not self.interrupted and (self.stopped_by == "time" or self.clock_cut)
