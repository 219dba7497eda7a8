"""The sentence that says how a sampled hint searched: one builder for ``conquian hint`` and the
board (the ``description`` of the hint's JSON answer)."""

from __future__ import annotations

import math
from typing import Any

from analyzer.analysis.engines import ENGINES, MCTS_SEARCHES
from analyzer.analysis.estimates import Advice
from analyzer.analysis.reasons import signed
from analyzer.core.cards import counted
from analyzer.core.rules import Rules
from analyzer.core.state import GameState
from analyzer.search.evaluation import evaluator_for

__all__ = ["engine_named", "hint_description", "search_text", "vs_best_text"]


def hint_description(state: GameState, advice: Advice, *, seed: int, open_hands: bool) -> str:
    """How the hint searched ``state``: what was sampled (deals, stock orders or IS-MCTS
    iterations, with the seed), then how deep the searches went and how much of the answer is
    exact. Two sentences, without the seconds spent (the answer's ``seconds``)."""
    return f"{_sampled(state, advice, seed=seed, open_hands=open_hands)}. {search_text(advice, state.rules)}"


def _sampled(state: GameState, advice: Advice, *, seed: int, open_hands: bool) -> str:
    """What the hint sampled and searched, by engine and ``--open``."""
    if open_hands and state.stock is not None and advice.unproven == 0:
        return "Solved double-dummy with every hand and the stock as given"
    if open_hands and state.stock is not None:
        return (
            "Searched double-dummy with every hand and the stock as given, not to the end of "
            "every line (the values are estimates)"
        )
    if open_hands and ENGINES[advice.engine].one_tree:
        return (
            f"Searched {counted(advice.samples, 'IS-MCTS iteration')} with every hand as given, the stock "
            f"cards turned at random (seed {seed})"
        )
    if open_hands:
        return (
            f"Evaluated on {counted(advice.samples, 'sampled stock order')}, every hand as given "
            f"(seed {seed}), each searched double-dummy"
        )
    if ENGINES[advice.engine].one_tree:
        return (
            f"Searched {counted(advice.samples, 'IS-MCTS iteration')}, each on its own sampled deal of the "
            f"cards player {state.to_act} cannot see (seed {seed}), the stock order never "
            f"assumed{_unused_hands(state)}"
        )
    return (
        f"Evaluated on {counted(advice.samples, 'sampled deal')} of the cards player {state.to_act} "
        f"cannot see (seed {seed}), each searched double-dummy{_unused_hands(state)}"
    )


def _unused_hands(state: GameState) -> str:
    """Where the position gives another player's hand that the player to act cannot see: that
    the sampled hint does not use it (``hint --open`` would), else ``""``."""
    shown = [p for p, hand in enumerate(state.hands) if p != state.to_act and hand]  # None: hidden
    if not shown:
        return ""
    if len(shown) > 1:
        return f" (the other hands, though given, are not used: player {state.to_act} cannot see them)"
    return f" (player {shown[0]}'s hand, though given, is not used: player {state.to_act} cannot see it)"


def search_text(advice: Advice, rules: Rules) -> str:
    """How deep the searches went and how much of the answer is exact; the leaf named is the one
    used (the fitted evaluation exists for a preset's own rules only)."""
    exact = 100 * (1 - advice.unproven)
    if ENGINES[advice.engine].search == "exact":
        return (
            f"Engine {engine_named(advice.engine)}: {100 * advice.unproven:.0f}% of the solves hit their position budget "
            "and used the melded-card heuristic."
        )
    if ENGINES[advice.engine].one_tree:
        return (
            f"Engine {engine_named(advice.engine)}: a median of {_median(advice.depth, 'move')} chosen in the tree "
            f"per iteration; {exact:.0f}% of the iterations ended the deal inside the tree, the "
            f"rest were played out by the eager policy; {MCTS_SEARCHES} or more independent "
            "searches, moves ranked by their mean result over the searches."
        )
    if advice.unproven == 0:
        return f"Engine {engine_named(advice.engine)}: every search reached the end of the deal (exact)."
    ahead = (
        f"searched {_median(advice.depth, 'offer')} ahead (median)"
        if advice.depth >= -0.5
        else "searched no offer ahead (median): the budget allowed only each move's position"
    )
    return (
        f"Engine {engine_named(advice.engine)}: {ahead}; "
        f"{exact:.0f}% of the deals solved to the end, the rest scored by "
        + ("the fitted leaf evaluation." if evaluator_for(rules) else "the melded-card lead (no "
           "evaluation is fitted for these rules).")
    )  # fmt: skip


def _median(value: float, noun: str) -> str:
    """A median count in words, the noun singular for 1 (``1 move``, ``2 moves``, ``0 moves``)."""
    shown = f"{value:.0f}"
    return f"{shown} {noun}" if shown == "1" else f"{shown} {noun}s"


def engine_named(engine: str) -> str:
    """An engine by its method, its version name beside it: ``pimc (v2)``."""
    found = ENGINES.get(engine)
    return found.label if found is not None else engine


def vs_best_text(move: dict[str, Any], rank: int, *, exact: bool) -> str:
    """The hint table's "vs best" for ``move`` (an entry of ``hint --json``'s ``moves``, ranked
    ``rank`` from 0): ``"best"``, ``"-0.36 ±0.33"`` (the move's result minus the best's, ± the
    larger distance from it to an end of its interval, rounded up, so that the range shown holds
    the whole interval: a confidence sequence need not be centred on the estimate), or the
    difference alone where it is exact or its interval is a point; ``""`` for a move never tried."""
    if rank == 0:
        return "best"
    if not move["evaluated"]:
        return ""
    low, high = move["diff_ci95"]
    shown = round(move["diff"], 2)
    if exact or low == high:
        return signed(-move["diff"])
    return f"{signed(-shown)} ±{math.ceil(100 * max(high - shown, shown - low) - 1e-9) / 100:.2f}"

