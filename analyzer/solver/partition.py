"""CP-SAT models over the meld catalog (OR-Tools).

Each model follows the same shape (see the CP-SAT Primer): data prepared
first (the catalog melds that fit in the cards), then variables, then
constraints (one comment each), the objective, the solve with a fixed
seed, one worker and a time limit, and the extraction.  Every solution is
checked by :func:`check_arrangement`, which uses no solver.

"No arrangement" is a normal result (``feasible=False`` or ``None``),
never an exception.

The rules engine uses the exact search of :mod:`analyzer.core.melds` for speed;
the tests and ``bench/melds.py`` check that both agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from analyzer.core.cards import format_card, format_mask, iter_mask
from analyzer.core.errors import ConquianError
from analyzer.core.legal import core_ok
from analyzer.core.melds import catalog, extensions, is_meld
from analyzer.core.rules import ForceFit, Rearrange, Rules

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "Arrangement",
    "CoverModel",
    "TakeChoice",
    "best_take",
    "can_meld_all_cpsat",
    "check_arrangement",
    "cover_model",
    "fits",
    "solve_arrangement",
    "solve_model",
]

DEFAULT_TIME_LIMIT = 5.0
"""Seconds allowed for one solve unless the caller says otherwise."""


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Result of :func:`solve_arrangement`.

    Attributes
    ----------
    feasible : bool
        False when the ``must`` cards cannot all be melded.
    melds : tuple of int
        The chosen melds as card masks, sorted; empty when infeasible.
    melded : int
        Number of cards melded (0 when infeasible).
    unmelded : int
        Mask of the cards left out of every meld (all cards when infeasible).
    optimal : bool
        True when CP-SAT proved the answer optimal (or infeasibility) within
        the time limit; False means a best-found answer.
    """

    feasible: bool
    melds: tuple[int, ...]
    melded: int
    unmelded: int
    optimal: bool

    def __repr__(self) -> str:
        melds = " ".join(f"[{format_mask(m)}]" for m in self.melds)
        return (
            f"Arrangement(feasible={self.feasible}, melds='{melds}', melded={self.melded}, "
            f"unmelded='{format_mask(self.unmelded)}', optimal={self.optimal})"
        )


@dataclass(frozen=True, slots=True)
class TakeChoice:
    """Result of :func:`best_take` (R13, R15).

    Attributes
    ----------
    melds : tuple of int
        The player's whole new layout (old melded cards, the centre card and
        the hand cards used), as sorted card masks.
    used : int
        Mask of the hand cards melded with the centre card.
    pay : int or None
        Index of the hand card paid, or ``None`` when he goes out.
    goes_out : bool
        True when the take makes ``rules.target`` melded cards (R15).
    optimal : bool
        True when proven optimal within the time limit.
    """

    melds: tuple[int, ...]
    used: int
    pay: int | None
    goes_out: bool
    optimal: bool

    def __repr__(self) -> str:
        melds = " ".join(f"[{format_mask(m)}]" for m in self.melds)
        pay = "None" if self.pay is None else repr(format_card(self.pay))
        return (
            f"TakeChoice(melds='{melds}', used='{format_mask(self.used)}', pay={pay}, "
            f"goes_out={self.goes_out}, optimal={self.optimal})"
        )


def check_arrangement(cards: int, melds: tuple[int, ...], rules: Rules, must: int = 0) -> None:
    """Check an arrangement without a solver (R4-R6).

    Parameters
    ----------
    cards : int
        Mask of the available cards.
    melds : tuple of int
        Proposed melds.
    rules : Rules
    must : int
        Cards that must all be melded.

    Raises
    ------
    ConquianError
        If a meld is not legal, two melds share a card, a meld uses a card
        not in ``cards``, or a ``must`` card is left unmelded.
    """
    seen = 0
    for meld in melds:
        if not is_meld(meld, rules):
            raise ConquianError(f"not a legal meld: mask {meld:#x}")
        if meld & seen:
            raise ConquianError("two melds share a card")
        if meld & ~cards:
            raise ConquianError("a meld uses a card that is not available")
        seen |= meld
    if must & ~seen:
        raise ConquianError("a card that must be melded is left out")

WALL_FACTOR = 20.0
"""The wall-clock cap of a meld model, as a multiple of its limit in deterministic time."""


def _solver(time_limit: float) -> cp_model.CpSolver:
    """A one-worker, seeded CP-SAT solver limited to ``time_limit`` deterministic seconds
    (and ``WALL_FACTOR`` times that on the wall clock)."""
    from ortools.sat.python import cp_model  # imported when needed (start-up time)

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    # The limit is counted in CP-SAT's deterministic time, so that a seeded game plays the same
    # on a loaded machine (a starved process once ran out of wall time on a model of a dozen
    # melds); the wall clock keeps a looser cap as a safety net.
    solver.parameters.max_deterministic_time = time_limit
    solver.parameters.max_time_in_seconds = time_limit * WALL_FACTOR
    # Ctrl-C belongs to the caller (KeyboardInterrupt), not to the solver.
    solver.parameters.catch_sigint_signal = False
    return solver


@dataclass
class CoverModel:
    """The variables every meld model shares: one boolean per catalog meld inside the cards.

    Attributes
    ----------
    model : cp_model.CpModel
    melds : list of int
        The catalog melds inside the cards (R4, R5).
    use : list of BoolVar
        ``use[k]`` is true when ``melds[k]`` is chosen.
    covered : dict of int to LinearExpr
        For each card, how many chosen melds hold it (0 or 1).
    """

    model: cp_model.CpModel
    melds: list[int]
    use: list[cp_model.IntVar]
    covered: dict[int, cp_model.LinearExpr]

    def melded(self) -> cp_model.LinearExpr:
        """The number of cards melded."""
        from ortools.sat.python import cp_model  # imported when needed (start-up time)
        return cp_model.LinearExpr.weighted_sum(self.use, [m.bit_count() for m in self.melds])

    def chosen(self, solver: cp_model.CpSolver) -> tuple[int, ...]:
        """The chosen melds of a solution, sorted."""
        return tuple(
            sorted(
                m for m, var in zip(self.melds, self.use, strict=True) if solver.boolean_value(var)
            )
        )


def cover_model(cards: int, must: int, rules: Rules) -> CoverModel:
    """Variables and the constraints of R6 and R13 shared by the meld models.

    A card lies in at most one chosen meld (R6); a ``must`` card (old layout,
    centre card) in exactly one (R13).
    """
    from ortools.sat.python import cp_model  # imported when needed (start-up time)
    model = cp_model.CpModel()
    melds = [m for m in catalog(rules) if m & cards == m]
    use = [model.new_bool_var(f"m{k}") for k in range(len(melds))]
    covered: dict[int, cp_model.LinearExpr] = {}
    for card in iter_mask(cards):
        holding = [use[k] for k, m in enumerate(melds) if m >> card & 1]
        if must >> card & 1:
            # A card that must be melded lies in exactly one chosen meld (R13).
            model.add_exactly_one(holding)
        elif len(holding) > 1:
            # A card lies in at most one chosen meld (R6).
            model.add_at_most_one(holding)
        covered[card] = cp_model.LinearExpr.sum(holding)
    return CoverModel(model, melds, use, covered)


def solve_model(
    model: cp_model.CpModel, time_limit: float, what: str
) -> tuple[cp_model.CpSolver, bool] | None:
    """Solve with one worker, a fixed seed and ``time_limit``; ``None`` if infeasible.

    Returns
    -------
    (CpSolver, bool) or None
        The solver holding the solution and whether it is proven optimal.

    Raises
    ------
    ConquianError
        If the solver neither finds a solution nor proves there is none in time.
    """
    from ortools.sat.python import cp_model  # imported when needed (start-up time)
    solver = _solver(time_limit)
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return None
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise ConquianError(f"{what} gave no answer within {time_limit} s")
    return solver, status == cp_model.OPTIMAL


def solve_arrangement(
    cards: int, rules: Rules, must: int = 0, *, time_limit: float = DEFAULT_TIME_LIMIT
) -> Arrangement:
    """The arrangement of ``cards`` that melds the most cards, melding all of ``must``.

    Model: one boolean per catalog meld inside ``cards``; each card in at
    most one chosen meld, each ``must`` card in exactly one; maximise the
    number of cards melded.

    Parameters
    ----------
    cards : int
        Mask of the available cards (0 to 40 cards).
    rules : Rules
        Gives the catalog (R4, R5: ``max_run``).
    must : int
        Mask of cards that must be melded, e.g. the old layout and the centre
        card in a take (R13).  Cards of ``must`` outside ``cards`` make the
        problem infeasible.
    time_limit : float
        Seconds for the solve.

    Returns
    -------
    Arrangement
        ``feasible=False`` when ``must`` cannot be melded.  When ``cards``
        are one meld (R4, R5), that meld, not a split of it into several.
    """
    from ortools.sat.python import cp_model  # imported when needed (start-up time)
    if must & ~cards:
        return Arrangement(False, (), 0, cards, True)
    if cards and is_meld(cards, rules):
        # Every card melded either way; one meld says what the cards are (an eight-card run
        # is not shown as a five- and a three-card run beside the verdict "a meld").
        return Arrangement(True, (cards,), cards.bit_count(), 0, True)
    cover = cover_model(cards, must, rules)
    # Meld as many cards as possible.
    cover.model.maximize(cover.melded())
    solver = _solver(time_limit)
    status = solver.solve(cover.model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Arrangement(False, (), 0, cards, status == cp_model.INFEASIBLE)
    chosen = cover.chosen(solver)
    check_arrangement(cards, chosen, rules, must)
    melded = sum(m.bit_count() for m in chosen)
    unmelded = cards
    for m in chosen:
        unmelded &= ~m
    return Arrangement(True, chosen, melded, unmelded, status == cp_model.OPTIMAL)


def can_meld_all_cpsat(cards: int, rules: Rules, *, time_limit: float = DEFAULT_TIME_LIMIT) -> bool:
    """True if all of ``cards`` can be split into legal melds (CP-SAT, R4-R6).

    Raises
    ------
    ConquianError
        If the solver neither proves nor refutes it within ``time_limit``.
    """
    result = solve_arrangement(cards, rules, must=cards, time_limit=time_limit)
    if not result.feasible and not result.optimal:
        raise ConquianError(f"meld solver gave no answer within {time_limit} s")
    return result.feasible


def best_take(
    layout_cards: int,
    hand: int,
    centre: int,
    rules: Rules,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    layout: tuple[int, ...] | None = None,
) -> TakeChoice | None:
    """The take of the centre card that melds the most cards (R13), or going out (R15).

    Model: one boolean per catalog meld inside layout + centre + hand; the
    old layout cards and the centre card are melded exactly once (R13), hand
    cards at most once; one unmelded hand card is paid unless every hand card
    is melded, which is going out (R7, R15).  Objective: most cards melded
    (going out melds the most possible); ties go to paying the highest card
    index, so the answer is deterministic.

    Parameters
    ----------
    layout_cards : int
        Mask of the player's melded cards.
    hand : int
        Mask of his hand.
    centre : int
        Index of the centre card.
    rules : Rules
    time_limit : float
        Seconds for the solve.
    layout : tuple of int, optional
        The player's melds, needed under ``rearrange = borrow`` (R13a): each old meld then
        has exactly one chosen meld holding two or more of its cards, which holds what
        borrowing may leave of it (:func:`~analyzer.core.legal.core_ok`) and no other old
        meld's two.

    Returns
    -------
    TakeChoice or None
        ``None`` when the centre card cannot be taken.

    Raises
    ------
    ConquianError
        If the cards overlap, ``layout`` is missing under borrowing or does not hold
        ``layout_cards``, or the solver neither finds a take nor proves there is none
        within ``time_limit``.
    """
    c = 1 << centre
    if (layout_cards | hand) & c or layout_cards & hand:
        raise ConquianError("centre card, layout and hand must be disjoint")
    cards = layout_cards | hand | c
    # Old melded cards stay melded and the centre card is melded (R13); hand cards at most once.
    cover = cover_model(cards, layout_cards | c, rules)
    model = cover.model
    if rules.rearrange is Rearrange.BORROW:
        if layout is None or sum(m.bit_count() for m in layout) != layout_cards.bit_count():
            raise ConquianError("borrowing (R13a) needs the layout's melds, holding its cards")
        _borrow_constraints(cover, layout)
    hand_cards = list(iter_mask(hand))
    melded = cover.covered
    pay = {card: model.new_bool_var(f"pay{card}") for card in hand_cards}
    out = model.new_bool_var("out")
    for card in hand_cards:
        # Only an unmelded hand card can be paid (R13).
        model.add(pay[card] + melded[card] <= 1)
        # Going out means every hand card is melded (R15).
        model.add(melded[card] >= 1).only_enforce_if(out)
    # Exactly one card is paid, unless the player goes out (R13, R15).
    model.add(sum(pay.values()) + out == 1)
    tie = sum(card * pay[card] for card in hand_cards)
    model.maximize(cover.melded() * 64 + tie)
    found = solve_model(model, time_limit, "take solver")
    if found is None:
        return None
    solver, optimal = found
    chosen = cover.chosen(solver)
    check_arrangement(cards, chosen, rules, layout_cards | c)
    used = 0
    for m in chosen:
        used |= m & hand
    paid = [card for card in hand_cards if solver.boolean_value(pay[card])]
    goes_out = solver.boolean_value(out)
    return TakeChoice(chosen, used, None if goes_out else paid[0], goes_out, optimal)


def _borrow_constraints(cover: CoverModel, layout: tuple[int, ...]) -> None:
    """R13a on a cover model: every old meld has one *home*, the one chosen meld with two or
    more of its cards, which keeps what borrowing may leave of it; a meld holding two or more
    cards of two old melds (a merge) is never chosen."""
    homes: dict[int, list[cp_model.IntVar]] = {meld: [] for meld in layout}
    for meld, var in zip(cover.melds, cover.use, strict=True):
        held = [old for old in layout if (meld & old).bit_count() >= 2]
        if len(held) > 1 or any(not core_ok(old, meld & old) for old in held):
            cover.model.add(var == 0)
        elif held:
            homes[held[0]].append(var)
    for options in homes.values():
        cover.model.add_exactly_one(options)


def fits(
    layout: tuple[int, ...], card: int, rules: Rules, *, time_limit: float = DEFAULT_TIME_LIMIT
) -> bool:
    """True if card index ``card`` fits ``layout`` for forcing (R14).

    With ``force_fit = layoff`` the card must extend one meld of the chosen
    arrangement without other cards; with ``rearrange`` the layout's cards
    plus the card must be meldable in full (checked with CP-SAT), under
    ``rearrange = borrow`` as borrowing allows (R13a).
    """
    cards = 0
    for meld in layout:
        cards |= meld
    if cards >> card & 1:
        return False
    if rules.force_fit is ForceFit.LAYOFF:
        return any(extensions(m, rules) >> card & 1 for m in layout)
    if rules.rearrange is Rearrange.BORROW:
        # R13a: the layout's cards and it all melded, each old meld as borrowing leaves it.
        new = cards | 1 << card
        cover = cover_model(new, new, rules)
        _borrow_constraints(cover, layout)
        return solve_model(cover.model, time_limit, "fit solver") is not None
    return can_meld_all_cpsat(cards | 1 << card, rules, time_limit=time_limit)
