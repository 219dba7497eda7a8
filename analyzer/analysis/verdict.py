"""Is the best move really better? Paired comparisons of every move with the best (R20 results).

Every move of a sampled hint is evaluated on the same sampled deals (or, for IS-MCTS, in the same
independent searches), so the question "is the first move better than the second?" is answered by
the *paired* difference of their results, unit by unit: its mean and a 95% Student-t interval.

* ``"clear"``: the best move's lead over every other move is above zero at 95%;
* ``"close"``: some moves are not separated from the best (:attr:`Verdict.close`);
* ``"only"``: there is one legal choice.

A sampled hint may stop adding deals once the verdict is clear, or once every move still in
contention is within :data:`MARGIN` of the best at 95% (then either is fine).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["MARGIN", "Comparison", "Verdict", "compare", "judge", "settled", "verdict_sentence"]

MARGIN = 0.1
"""Expected-result difference (R20: win +1, draw 0, loss -1) below which two moves count as
equally good: 0.1 is five points of win chance against as many of loss."""

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
    """The best move's lead over one move: mean paired difference and its 95% interval.

    ``diff`` is the best move's expected result minus this move's (0 for the best itself);
    ``ci95`` its interval; ``units`` the deals or searches both were evaluated on.
    """

    diff: float
    ci95: tuple[float, float]
    units: int


def compare(best: Sequence[float], other: Sequence[float], *, exact: bool = False) -> Comparison:
    """The paired difference ``best - other`` over the units both were evaluated on.

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


@dataclass(frozen=True, slots=True)
class Verdict:
    """``kind`` is ``"clear"``, ``"close"`` or ``"only"``; ``close`` the indices of the moves
    (in the ranking, the best is 0) not separated from the best."""

    kind: str
    close: tuple[int, ...]


def judge(comparisons: Sequence[Comparison]) -> Verdict:
    """The verdict on a ranking, from each move's comparison with the best (the best first)."""
    if len(comparisons) <= 1:
        return Verdict("only", ())
    close = tuple(k for k, c in enumerate(comparisons) if k > 0 and not c.ci95[0] > 0)
    return Verdict("close" if close else "clear", close)


def settled(comparisons: Sequence[Comparison], margin: float = MARGIN) -> bool:
    """True when more units would not change the advice: the verdict is clear or only, or every
    move not separated from the best is within ``margin`` of it at 95% (either is fine)."""
    verdict = judge(comparisons)
    return verdict.kind != "close" or all(comparisons[k].ci95[1] < margin for k in verdict.close)


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
        ``"clear"``, ``"close"`` or ``"only"`` (:func:`judge`).
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
    if verdict == "clear":
        if len(moves) == 2:
            return f"{best} is clearly best (ahead of {moves[1]} at 95%, over the same {unit})."
        return f"{best} is clearly best (ahead of every other move at 95%, over the same {unit})."
    close = [m for m in moves if m in close_to_best]
    names = " or ".join([best, *close[:3]])
    more = f" (and {len(close) - 3} more)" if len(close) > 3 else ""
    if stopped_by == "margin":
        return f"Close call: {names}{more}, within {MARGIN:.1f} in expected result of each other: either is fine."
    if exact:
        return f"Close call: {names}{more} are worth the same."
    return f"Close call: {names}{more} (not separated at 95%; more --samples may tell them apart)."
