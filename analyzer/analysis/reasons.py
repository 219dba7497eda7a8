"""The reasons a hint gives for each move: its sampled results, how it compares with the best,
and the static evaluation's facts (:mod:`analyzer.analysis.static`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from analyzer.analysis.estimates import MoveEstimate
from analyzer.analysis.static import Hint
from analyzer.core.cards import counted
from analyzer.core.moves import Move
from analyzer.core.state import GameState

__all__ = ["signed", "with_reasons"]


def signed(x: float) -> str:
    """``x`` to two decimals with its sign, ``"0.00"`` where it rounds to zero (never ``-0.00``)."""
    text = f"{x:+.2f}"
    return "0.00" if text in ("+0.00", "-0.00") else text


def _lead(gap: float, paired: bool, behind: str, ahead: str, paired_detail: str, chosen: str) -> str:
    """The words for a move ``gap`` behind another in expected result: ``behind`` when it is
    (``gap >= 0``); else ``ahead``, with ``paired_detail`` where the gap is paired over the
    independent searches, or said to be over fewer iterations where one tree chose ``chosen``
    more often (IS-MCTS ranks by visits)."""
    if gap >= 0:
        return behind
    if paired:
        return f"{ahead}{paired_detail}"
    return f"{ahead}, over fewer iterations (the search chose {chosen} more often)"


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def with_reasons(
    state: GameState,
    player: int,
    estimates: list[MoveEstimate],
    static: Mapping[Move, Hint],
    unit: str = "sampled deal",
    paired: bool = False,
) -> list[MoveEstimate]:
    """``estimates`` with their reasons: the sampled results (``unit``: what ``samples``
    counts), the comparison with the best (``paired``: by each move's paired ``diff``, as the
    independent IS-MCTS searches give it), and the static evaluation's facts."""
    labels = state.rules.labels
    out: list[MoveEstimate] = []
    best = estimates[0]
    tried = [e for e in estimates if e.samples > 0]
    for rank, est in enumerate(estimates):
        if est.samples == 0:
            # v3 with few iterations: the search never tried this move; nothing is claimed.
            reasons = ["not evaluated: the search never tried it (raise --samples)"]
        elif est.sure:
            reasons = ["goes out: a sure win (R15)"]
        else:
            # Win chances are averages of per-deal chances (a search may end in an estimate),
            # not counts of whole deals won.
            reasons = [
                f"win chance {_pct(est.win)} on average of {counted(est.samples, unit)} "
                f"(95% interval {_pct(est.ci95[0])}-{_pct(est.ci95[1])}), draws {_pct(est.draw)}"
            ]
        if est.samples == 0:
            pass
        elif rank == 0 and len(tried) > 1:
            second = tried[1]
            gap = second.diff if paired else est.expected - second.expected
            # v3 ranks by visits: the second may have the better mean, which is then said in
            # words (a negative "the next best ... -0.16" would read as if it were worse).
            # Independent searches rank by the mean over searches; the paired difference counts
            # only the searches that tried both, so it may still lean the other way.
            named = f"{second.move.text(labels)}, wins {_pct(second.win)}"
            reasons.append(_lead(
                gap, paired, f"the next best, {named}: {signed(gap)} in expected result",
                f"the second, {named} with {-gap:.2f} more in expected result",
                " over the searches that tried both", "this move",
            ))  # fmt: skip
        elif rank > 0:
            gap = est.diff if paired else best.expected - est.expected
            # v3 ranks by visits: a move below the first may have the better mean, over fewer
            # iterations; it is then called better, not "-0.08 worse".
            over = "searches" if paired else "deals"
            detail = (
                f" (paired over the same {over}: {est.diff:.2f}, 95% interval "
                f"{est.diff_ci95[0]:.2f} to {est.diff_ci95[1]:.2f})"
                if (paired or unit == "sampled deal") and not est.sure
                else ""
            )
            reasons.append(_lead(
                gap, paired, f"{gap:.2f} worse in expected result than the best{detail}",
                f"{-gap:.2f} better in expected result than the first", detail, "the first",
            ))  # fmt: skip
        hint = static.get(est.move)
        if hint is not None:
            reasons.extend(hint.reasons)
        out.append(replace(est, reasons=tuple(dict.fromkeys(reasons))))
    return out
