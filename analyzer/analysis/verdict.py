"""Is the best move really better? Paired comparisons of every move with the best (R20 results).

Every move of a sampled hint is evaluated on the same sampled deals (or, for IS-MCTS, in the same
independent searches of one size), so the question "is the first move better than the second?" is
answered by the *paired* difference of their results, unit by unit (a unit: a sampled deal, or a
search).  Two rules read those differences (:data:`RULES`):

* ``"anytime"`` (the default, :func:`decide`): a confidence sequence per pair of moves, valid
  at every look at once, so the hint may look after every batch and stop when it likes without
  spoiling the error bound: a verdict that names a best move is wrong with probability at most
  :data:`ALPHA` however many batches were looked at;
* ``"ttest"`` (the rule before): a 95% Student-t interval of the mean difference at each look,
  kept to measure against; looked at after every batch, its 95% does not hold.

The verdicts (:func:`judge`):

* ``"clear"``: the best move's lead over every other move is above zero, and at least
  :data:`MARGIN` as estimated;
* ``"narrow"``: the lead is above zero but under :data:`MARGIN` ("best, by a small margin");
* ``"close"``: some moves are not separated from the best (:attr:`Verdict.close`);
* ``"only"``: there is one legal choice.

A sampled hint may stop adding deals once the best move is separated (clear or narrow), or once
every move still in contention is within :data:`MARGIN` of the others (then either is fine).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float64]

__all__ = [
    "ALPHA",
    "DEFAULT_RULE",
    "MARGIN",
    "RULES",
    "Comparison",
    "Decision",
    "Verdict",
    "compare",
    "confidence_sequence",
    "decide",
    "judge",
    "settled",
    "verdict_sentence",
]

MARGIN = 0.1
"""Expected-result difference (R20: win +1, draw 0, loss -1) below which two moves count as
equally good: 0.1 is five points of win chance against as many of loss."""

ALPHA = 0.05
"""The anytime rule's error bound: a verdict naming a best move (``clear``, ``narrow``), or the
moves within :data:`MARGIN` of each other, is wrong with probability at most this, however many
looks were taken."""

RULES = ("anytime", "ttest")
"""The rules a hint decides by: confidence sequences (:func:`decide`) or the Student-t test at
each look (the rule before, :func:`compare`)."""

DEFAULT_RULE = "anytime"
"""The rule of every command that samples until it decides."""

BET_CAP = 0.9
"""Largest fraction of the most a bet may stake (the truncation ``c`` of Waudby-Smith and Ramdas):
below 1, so that no single result can ruin the capital."""

_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
"""The 97.5% quantile of Student's t for 1..30 degrees of freedom."""


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (inf for none)."""
    if df < 1:
        return math.inf
    if df <= len(_T975):
        return _T975[df - 1]
    return 1.96 + 2.4 / df  # within 0.003 of the exact quantile from 31 on


@dataclass(frozen=True, slots=True)
class Comparison:
    """The best move's lead over one move: mean paired difference and its interval.

    ``diff`` is the best move's expected result minus this move's (0 for the best itself);
    ``ci95`` its interval (the anytime rule's confidence sequence now, or the Student-t 95%
    interval); ``units`` the deals or searches both were evaluated on.
    """

    diff: float
    ci95: tuple[float, float]
    units: int


def compare(best: Sequence[float], other: Sequence[float], *, exact: bool = False) -> Comparison:
    """The paired difference ``best - other`` with its Student-t 95% interval (the ``ttest`` rule).

    Parameters
    ----------
    best, other : sequence of float
        Expected results (-1..1) per unit (sampled deal or independent search), in the same order.
    exact : bool
        The values are exact (a solved deal): the interval is the difference itself.
    """
    diffs = [b - o for b, o in zip(best, other, strict=True)]
    n = len(diffs)
    if n == 0:
        return Comparison(0.0, (-2.0, 2.0), 0)
    mean = statistics.fmean(diffs)
    if exact:
        return Comparison(mean, (mean, mean), n)
    if n == 1:
        return Comparison(mean, (-2.0, 2.0), 1)
    half = t975(n - 1) * statistics.stdev(diffs) / math.sqrt(n)
    return Comparison(mean, (max(-2.0, mean - half), min(2.0, mean + half)), n)


# --------------------------------------------------------------------------- the anytime rule
#
# A paired difference d lies in [-2, 2]; x = (d + 2) / 4 lies in [0, 1] and has mean m exactly
# when d has mean 4m - 2.  Against "the mean of x is at most m" a bettor stakes, on each unit,
# a fraction lam_i of his capital on x_i - m (Waudby-Smith and Ramdas 2024, "Estimating means of
# bounded random variables by betting", JRSS-B 86(1), section 4):
#
#     K_t(m) = prod_{i <= t} (1 + lam_i(m) (x_i - m)),   0 <= lam_i(m) <= BET_CAP / m,
#
# with lam_i chosen from the units before i only.  Under that hypothesis K_t is a nonnegative
# supermartingale starting at 1, so by Ville's inequality P(some t has K_t >= 1/a) <= a: the
# test may be read after every unit and stopped at will (the time-uniform, nonasymptotic
# confidence sequences of Howard, Ramdas, McAuliffe and Sekhon 2021, Ann. Statist. 49(2)).
# The bets are the predictable plug-in ones of Waudby-Smith and Ramdas (their eq. 26):
#
#     lam_i = sqrt(2 log(1/a) / (s2_{i-1} i log(1 + i))),
#     mu_i = (1/2 + sum_{j<=i} x_j) / (i + 1),  s2_i = (1/4 + sum_{j<=i} (x_j - mu_j)^2) / (i + 1),
#
# large where the differences vary little (so a steady lead is found soon), and shrinking like
# 1/sqrt(t log t), so the interval's width falls like sqrt(log t / t).  The mirror bet on
# m - x tests "the mean is at least m".  The interval at t is every m neither bet rejects.


class _Bets:
    """The bets on several paired differences at once, one per row of ``d`` (values in [-2, 2]
    per unit; NaN where a unit has no value for that pair, which then bets nothing on it), each
    at one-sided ``level``: the capital of each for any hypothesised mean, and the values it
    rejects."""

    __slots__ = ("bets", "means", "threshold", "units", "valid", "x")

    def __init__(self, d: Floats, level: float) -> None:
        self.valid = ~np.isnan(d)
        self.x = np.where(self.valid, np.clip((d + 2.0) / 4.0, 0.0, 1.0), 0.5)
        self.units = self.valid.sum(axis=1)
        self.means = np.where(self.valid, d, 0.0).sum(axis=1) / np.maximum(self.units, 1)
        seen = np.cumsum(self.valid, axis=1)  # t of each unit, counting its pair's own units
        t = np.maximum(seen, 1).astype(float)
        mean = (0.5 + np.cumsum(np.where(self.valid, self.x, 0.0), axis=1)) / (t + 1)
        spread = np.where(self.valid, (self.x - mean) ** 2, 0.0)
        before = (0.25 + np.cumsum(spread, axis=1) - spread) / (seen - self.valid + 1)
        self.bets = np.sqrt(2.0 * math.log(1.0 / level) / (before * t * np.log1p(t)))
        self.threshold = math.log(1.0 / level)

    def rejects(self, values: Floats, up: bool) -> NDArray[np.bool_]:
        """For each row of ``values`` (one value per pair), True where the pair's bets reject "the
        mean difference is at most that value" (``up``), or "at least that value"."""
        m = ((np.atleast_2d(values) + 2.0) / 4.0)[:, :, None]  # (values, pairs, 1)
        if up:
            stake = np.minimum(self.bets, BET_CAP / np.maximum(m, 1e-12))
            gains = stake * (self.x - m)
        else:
            stake = np.minimum(self.bets, BET_CAP / np.maximum(1.0 - m, 1e-12))
            gains = stake * (m - self.x)
        gains[:, ~self.valid] = 0.0
        capital = np.log1p(gains).sum(axis=2)
        found: NDArray[np.bool_] = (capital >= self.threshold) & (self.units > 0)
        return found

    def above(self, value: float) -> NDArray[np.bool_]:
        """Per pair, True when its mean difference is above ``value`` (at its level)."""
        found: NDArray[np.bool_] = self.rejects(np.full(len(self.units), value), True)[0]
        return found

    def below(self, value: float) -> NDArray[np.bool_]:
        """Per pair, True when its mean difference is below ``value`` (at its level)."""
        found: NDArray[np.bool_] = self.rejects(np.full(len(self.units), value), False)[0]
        return found

    def intervals(self) -> list[tuple[float, float]]:
        """Per pair, the values of its mean difference neither bet rejects.  Each bet's capital
        falls as the value moves against it, so the values it rejects are a ray: its end is
        found on a grid of 8 steps refined 7 times, to 2e-6, rounded outwards."""
        ends = [self._ends(up) for up in (True, False)]
        return [(float(low), float(high)) for low, high in zip(*ends, strict=True)]

    def _ends(self, up: bool) -> Floats:
        # The values rejected are [-2, end) when ``up``, else (end, 2]; the far end is never.
        pairs = len(self.units)
        out = np.full(pairs, -2.0 if up else 2.0)
        keep = -out
        hit = self.rejects(out, up)[0]
        for _ in range(7):
            grid = np.linspace(out, keep, 9)  # (9, pairs)
            rejected = self.rejects(grid, up)
            k = np.argmin(rejected, axis=0)  # the first value not rejected (the last never is)
            cols = np.arange(pairs)
            out, keep = grid[np.maximum(k - 1, 0), cols], grid[k, cols]
        ends: Floats = np.where(hit, out, -2.0 if up else 2.0)
        return ends


def confidence_sequence(diffs: Sequence[float], alpha: float = ALPHA) -> tuple[float, float]:
    """The anytime ``1 - alpha`` interval of the mean of ``diffs`` (values in [-2, 2]) after all
    of them: the mean lies in it at every length of the stream at once, with probability at least
    ``1 - alpha`` (two bets, each at ``alpha / 2``; the comment above)."""
    return _Bets(np.asarray(diffs, dtype=float).reshape(1, -1), alpha / 2).intervals()[0]


@dataclass(frozen=True, slots=True)
class Verdict:
    """``kind`` is ``"clear"``, ``"narrow"``, ``"close"`` or ``"only"``; ``close`` the indices of
    the moves (in the ranking, the best is 0) not separated from the best."""

    kind: str
    close: tuple[int, ...]


def judge(comparisons: Sequence[Comparison], margin: float = MARGIN) -> Verdict:
    """The verdict on a ranking, from each move's comparison with the best (the best first):
    ``clear`` when every interval is above zero and the smallest lead at least ``margin``,
    ``narrow`` when it is under."""
    if len(comparisons) <= 1:
        return Verdict("only", ())
    close = tuple(k for k, c in enumerate(comparisons) if k > 0 and not c.ci95[0] > 0)
    if close:
        return Verdict("close", close)
    lead = min(c.diff for c in comparisons[1:])
    return Verdict("clear" if lead >= margin else "narrow", ())


def settled(comparisons: Sequence[Comparison], margin: float = MARGIN) -> bool:
    """The ``ttest`` rule's stop: the verdict names a best move, or every move not separated from
    the best is within ``margin`` of it at 95% (either is fine)."""
    verdict = judge(comparisons, margin)
    return verdict.kind != "close" or all(comparisons[k].ci95[1] < margin for k in verdict.close)


@dataclass(frozen=True, slots=True)
class Decision:
    """What a look at the evidence decides: each move's comparison with the best (the best
    first), the verdict, and whether more units would change the advice (``settled``: a best
    move is named, or the moves in contention are within the margin of each other)."""

    comparisons: list[Comparison]
    verdict: Verdict
    settled: bool
    within_margin: bool


def _pairs(best: Floats, other: Floats) -> Floats:
    """The differences ``best - other`` over the units where both have a value (not NaN)."""
    d: Floats = best - other
    return d[~np.isnan(d)]


def decide(
    results: Sequence[Sequence[float | None]],
    *,
    rule: str = DEFAULT_RULE,
    exact: bool = False,
    alpha: float = ALPHA,
    margin: float = MARGIN,
    intervals: bool = True,
) -> Decision:
    """The verdict on ranked moves from their results per unit.

    Parameters
    ----------
    results : sequence of sequences of float or None
        Per move, best first, its result (-1..1, R20) on each unit (sampled deal, or search of one
        size) in unit order; ``None`` where the unit has no value for it (a search that never
        tried it).  A pair of moves is compared over the units where both have a value.
    rule : str
        ``"anytime"`` (:data:`RULES`): confidence sequences by betting (module comment), each pair
        of moves at ``alpha / (K - 1)`` for K moves, both ways, so that with probability at least
        ``1 - alpha`` every pair that involves the truly best move is covered at every look at
        once (Garivier and Kaufmann 2016's union over the best arm's pairs); a best move is named
        when its lead over every other move is above zero, and the moves left in contention are
        within ``margin`` when every pair of them is.  ``"ttest"``: the Student-t 95% interval
        of each move's difference from the best, at this look alone.
    exact : bool
        The values are exact (one deal solved to its end): every interval is its difference.
    intervals : bool
        Compute the anytime intervals of the comparisons (the answer shows them); ``False`` at a
        look that only asks whether to stop (the comparisons then carry the mean alone).

    Raises
    ------
    ValueError
        If ``rule`` is unknown.
    """
    if rule not in RULES:
        raise ValueError(f"unknown verdict rule {rule!r} (known: {', '.join(RULES)})")
    table = np.array(results, dtype=float).reshape(len(results), -1)  # None: NaN
    best = table[0] if len(table) else np.zeros(0)
    if rule == "ttest" or exact or len(results) <= 1:
        comparisons = []
        for other in table:
            d = _pairs(best, other)
            comparisons.append(compare(d.tolist(), [0.0] * len(d), exact=exact))
        verdict = judge(comparisons, margin)
        within = verdict.kind == "close" and settled(comparisons, margin)
        return Decision(comparisons, verdict, verdict.kind != "close" or within, within)
    level = alpha / (2 * (len(results) - 1))  # each side of each pair
    leads = _Bets(best[None, :] - table[1:], level)
    ahead = leads.above(0.0)
    close = tuple(k + 1 for k, a in enumerate(ahead) if not a)
    spans = leads.intervals() if intervals else [(float(m), float(m)) for m in leads.means]
    comparisons = [Comparison(0.0, (0.0, 0.0), int(np.sum(~np.isnan(best))))]
    comparisons += [
        Comparison(float(m), span, int(n)) for m, span, n in zip(leads.means, spans, leads.units, strict=True)
    ]
    if not close:
        lead = float(min(leads.means))
        return Decision(comparisons, Verdict("clear" if lead >= margin else "narrow", ()), True, False)
    # Every pair of the moves in contention within the margin, both ways: those with the best
    # first (the bets already made), then the others.
    rows = [k - 1 for k in close]
    within = bool(np.all(leads.below(margin)[rows]) and np.all(leads.above(-margin)[rows]))
    if within:
        within = _others_within(table, close, level, margin)
    return Decision(comparisons, Verdict("close", close), within, within)


PAIR_CHUNK = 1024
"""Pairs of moves in contention compared at once by :func:`_others_within` (its memory bound)."""


def _others_within(table: np.ndarray, close: tuple[int, ...], level: float, margin: float) -> bool:
    """Whether every pair of the moves in contention, the best aside, is within ``margin`` both
    ways (the bets of the pairs, :class:`_Bets`), compared :data:`PAIR_CHUNK` pairs at a time and
    stopping at the first pair that is not: a position of tens of thousands of moves (custom
    rules) has too many pairs to hold at once."""
    chunk: list[np.ndarray] = []

    def settled_chunk() -> bool:
        gaps = _Bets(np.stack(chunk), level)
        return bool(np.all(gaps.below(margin)) and np.all(gaps.above(-margin)))

    for n, i in enumerate(close):
        for j in close[n + 1 :]:
            chunk.append(table[i] - table[j])
            if len(chunk) == PAIR_CHUNK:
                if not settled_chunk():
                    return False
                chunk = []
    return not chunk or settled_chunk()


def verdict_sentence(
    verdict: str,
    moves: Sequence[str],
    close_to_best: Sequence[str],
    *,
    unit: str = "deals",
    stopped_by: str = "",
    exact: bool = False,
) -> str:
    """The verdict in a player's words, the one sentence every front end shows.

    Parameters
    ----------
    verdict : str
        ``"clear"``, ``"narrow"``, ``"close"`` or ``"only"`` (:func:`decide`).
    moves : sequence of str
        The moves' texts, best first.
    close_to_best : sequence of str
        With ``"close"``: the moves not separated from the best.
    unit : str
        What the comparison is over: ``"deals"``, or ``"searches"`` (independent IS-MCTS searches).
    stopped_by : str
        What ended the sampling (``"margin"``: the moves left are within :data:`MARGIN`).
    exact : bool
        Every value is exact (one deal solved to its end).

    Returns
    -------
    str
        E.g. ``"pass is clearly best (ahead of force 0 at 95%, over the same deals)."``.
    """
    best = moves[0]
    if verdict == "only":
        return f"{best} is the only choice."
    if verdict in ("clear", "narrow"):
        whom = moves[1] if len(moves) == 2 else "every other move"
        if verdict == "narrow":
            return (
                f"{best} is best, by a small margin (ahead of {whom} at 95%, over the same {unit}; "
                f"the estimated lead is under {MARGIN:.1f} in expected result)."
            )
        return f"{best} is clearly best (ahead of {whom} at 95%, over the same {unit})."
    close = [m for m in moves if m in close_to_best]
    names = " or ".join([best, *close[:3]])
    more = f" (and {len(close) - 3} more)" if len(close) > 3 else ""
    if stopped_by == "margin":
        fine = "either is fine" if len(close) == 1 else "any of them is fine"
        return f"Close call: {names}{more}, within {MARGIN:.1f} in expected result of each other: {fine}."
    if exact:
        return f"Close call: {names}{more} are worth the same."
    return f"Close call: {names}{more} (not separated at 95%; more samples may tell them apart)."
