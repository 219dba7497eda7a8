"""The native core held to the Python engine, position by position (the differential check).

:func:`crosscheck` plays seeded deals with random legal moves and, at every position on the way,
asks both cores for the legal moves (the same list in the same order), the position after every
one of them (equal, the history ``paid`` included), the run of forced positions
(:meth:`~analyzer.core.state.GameState.run_forced`, the same position and count, with a full
and a short budget) and the view of the player to act (the same moves with the other hands
hidden).  The tests run it over at least 100,000 tree nodes per preset; ``bench/differential.py``
over a million.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from analyzer.core import native
from analyzer.core.dealing import deal, view
from analyzer.core.melds import max_melded
from analyzer.core.rules import Rules
from analyzer.core.state import GameState

__all__ = ["CrossCheck", "crosscheck"]


@dataclass
class CrossCheck:
    """What :func:`crosscheck` compared.

    Attributes
    ----------
    positions : int
        Positions whose moves, children and forced runs were compared.
    nodes : int
        Tree nodes compared: the positions and their children.
    children : int
        Child positions compared (one per legal move).
    deals : int
        Deals played.
    mismatches : list of str
        One line per difference found (empty when the cores agree).
    """

    positions: int = 0
    children: int = 0

    @property
    def nodes(self) -> int:
        """Tree nodes compared: the positions and their children."""
        return self.positions + self.children

    deals: int = 0
    mismatches: list[str] = field(default_factory=list)


def _both(ask: Callable[[], object]) -> tuple[object, object]:
    """``ask()`` answered by the Python engine, then by the native core."""
    with native.use_core("python"):
        reference = ask()
    with native.use_core("native"):
        fast = ask()
    return reference, fast


def _same_state(a: object, b: object) -> bool:
    if isinstance(a, GameState) and isinstance(b, GameState):
        return a == b and a.paid == b.paid
    return a == b


def crosscheck(
    rules: Rules,
    nodes: int,
    seed: int = 0,
    *,
    progress: Callable[[int], None] | None = None,
    limit: int = 50,
) -> CrossCheck:
    """Compare both cores over at least ``nodes`` tree nodes of seeded random deals.

    Parameters
    ----------
    rules : Rules
        Any variant (presets or custom).
    nodes : int
        Tree nodes to compare (positions and their children); whole deals are played until at
        least this many.
    seed : int
        Seeds the deals and the random moves.
    progress : callable, optional
        Called with the tree nodes compared so far after each deal.
    limit : int
        Stop after this many mismatches.

    Returns
    -------
    CrossCheck

    Raises
    ------
    CoreUnavailableError
        If the native core is not built.
    """
    native.native_module()
    rng = random.Random(seed)
    report = CrossCheck()

    def mismatch(what: str, state: GameState, reference: object, fast: object) -> None:
        report.mismatches.append(
            f"{what} differ at {state!r}: python {reference!r}, native {fast!r}"
        )

    while report.nodes < nodes and len(report.mismatches) < limit:
        state = deal(rules, rng)
        report.deals += 1
        while not state.is_terminal() and len(report.mismatches) < limit:
            report.positions += 1
            ref_moves, fast_moves = _both(state.legal_moves)
            if ref_moves != fast_moves:
                mismatch("legal moves", state, ref_moves, fast_moves)
                break
            assert isinstance(ref_moves, list)
            for move in ref_moves:
                a, b = _both(partial(state.apply, move, check=False))
                report.children += 1
                if not _same_state(a, b):
                    mismatch(f"positions after {move}", state, a, b)
            for budget, turns in ((1 << 30, True), (rng.randrange(1, 12), True), (1 << 30, False)):
                a, b = _both(partial(state.run_forced, budget, turns=turns))
                if not (_same_state(a[0], b[0]) and a[1] == b[1]):  # type: ignore[index]
                    mismatch(f"forced runs ({budget}, turns={turns})", state, a, b)
            if not state.is_chance_node():
                seen = view(state, state.to_act)
                a, b = _both(seen.legal_moves)
                if a != b:
                    mismatch("legal moves of the view", seen, a, b)
                me = state.to_act
                cards = (state.hands[me] or 0) | (1 << state.centre.card if state.centre else 0)
                layout = 0
                for meld in state.layouts[me]:
                    layout |= meld
                for must in (0, layout):
                    a, b = _both(partial(max_melded, cards | layout, rules, must))
                    if a != b:
                        mismatch("max_melded", state, a, b)
            state = state.apply(rng.choice(ref_moves), check=False)
        if progress is not None:
            progress(report.nodes)
    return report
