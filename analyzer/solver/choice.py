"""CP-SAT choice models for the take / lay-in / pay decision (R13, R14).

Two models, each a plain CP-SAT model over card masks (no game state):

:func:`least_exposed_arrangement`
    The arrangement that melds the most cards and, among those, exposes the
    fewest cards to forcing.  Variables: one boolean per catalog meld inside
    the cards, and one per *exposed* unseen card.  Constraints: the ``must``
    cards (old layout and centre card, R13) lie in exactly one chosen meld;
    optional cards (hand cards) in at most one; an unseen card counts as
    exposed when it extends a chosen meld by lay-off (a run shorter than
    ``max_run``, a set of three; R14 ``layoff``).  Objective: maximise
    ``EXPOSURE_WEIGHT * melded - exposed`` (``EXPOSURE_WEIGHT`` = 64, more
    than the 40 cards, so melding more always wins).

:func:`best_pay`
    The card to pay: one boolean per hand card, exactly one chosen.
    Objective: maximise ``OUTS_WEIGHT * outs_kept - GIVES_WEIGHT * usable -
    POTENTIAL_WEIGHT * potential`` (8, 6 and 1) where ``outs_kept[c]`` is the
    number of outs (R15) the player keeps if he pays ``c``, ``usable[c]`` the
    number of players next offered ``c`` whose layout it fits (they can take
    or be forced with it, R11, R14), and ``potential[c]`` what the card is
    worth to the hand that keeps it (the partial melds it belongs to); the
    first two are exact counts from the rules engine.  Ties go to the lowest
    card index, so answers are reproducible.

Both solve with one worker, a fixed seed and a time limit (see
:mod:`analyzer.solver.partition`), and their answers are checked without a solver.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from analyzer.core.cards import iter_mask
from analyzer.core.errors import ConquianError
from analyzer.core.melds import extensions
from analyzer.core.rules import Rules
from analyzer.solver.partition import (
    DEFAULT_TIME_LIMIT,
    check_arrangement,
    cover_model,
    solve_model,
)

__all__ = [
    "EXPOSURE_WEIGHT",
    "GIVES_WEIGHT",
    "OUTS_WEIGHT",
    "ExposedArrangement",
    "best_pay",
    "least_exposed_arrangement",
]

EXPOSURE_WEIGHT = 64
OUTS_WEIGHT = 8
GIVES_WEIGHT = 6
POTENTIAL_WEIGHT = 1


@dataclass(frozen=True, slots=True)
class ExposedArrangement:
    """Result of :func:`least_exposed_arrangement`.

    Attributes
    ----------
    melds : tuple of int
        The chosen melds, sorted card masks.
    melded : int
        Cards melded.
    exposed : int
        Mask of the unseen cards that extend a chosen meld (R14).
    optimal : bool
        Proven optimal within the time limit.
    """

    melds: tuple[int, ...]
    melded: int
    exposed: int
    optimal: bool


def least_exposed_arrangement(
    must: int,
    optional: int,
    unseen: int,
    rules: Rules,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> ExposedArrangement | None:
    """The arrangement melding the most cards, then exposing the fewest unseen cards (R13, R14).

    Parameters
    ----------
    must : int
        Cards that must be melded (old layout and the centre card).
    optional : int
        Cards that may be melded (hand cards).
    unseen : int
        Cards that could later be forced on the player (not his, not on the table).
    rules : Rules
    time_limit : float
        Seconds for the solve.

    Returns
    -------
    ExposedArrangement or None
        ``None`` when the ``must`` cards cannot all be melded.

    Raises
    ------
    ConquianError
        If the masks overlap or the solver gives no answer in time.
    """
    if must & optional:
        raise ConquianError("must and optional cards overlap")
    cards = must | optional
    # Old melded cards and the centre card exactly once (R13), hand cards at most once (R6).
    cover = cover_model(cards, must, rules)
    model = cover.model
    exposed_vars = []
    for card in iter_mask(unseen & ~cards):
        extended = [
            var for meld, var in zip(cover.melds, cover.use, strict=True)
            if extensions(meld, rules) >> card & 1
        ]  # fmt: skip
        if extended:
            var = model.new_bool_var(f"x{card}")
            # An unseen card is exposed when it extends a chosen meld (R14 layoff).
            model.add_max_equality(var, extended)
            exposed_vars.append(var)
    # Meld the most cards; then expose the fewest.
    model.maximize(EXPOSURE_WEIGHT * cover.melded() - sum(exposed_vars))
    found = solve_model(model, time_limit, "arrangement model")
    if found is None:
        return None
    solver, optimal = found
    chosen = cover.chosen(solver)
    check_arrangement(cards, chosen, rules, must)
    exposed = 0
    for meld in chosen:
        exposed |= extensions(meld, rules)
    exposed &= unseen & ~cards
    return ExposedArrangement(chosen, sum(m.bit_count() for m in chosen), exposed, optimal)


def best_pay(
    hand: int,
    outs_kept: Mapping[int, int],
    usable: Mapping[int, int],
    potential: Mapping[int, int] | None = None,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> int:
    """The hand card to pay: most outs kept, fewest players who can use it (R13, R14, R15).

    Parameters
    ----------
    hand : int
        Mask of the cards he may pay (non-empty).
    outs_kept : mapping of int to int
        For each card, the outs he keeps if he pays it.
    usable : mapping of int to int
        For each card, the number of players next offered it whose layout it fits.
    potential : mapping of int to int, optional
        For each card, its value to the hand that keeps it
        (:func:`analyzer.core.melds.usefulness`: partial melds it belongs to); 0 if omitted.
    time_limit : float

    Returns
    -------
    int
        The card index to pay.

    Raises
    ------
    ConquianError
        If ``hand`` is empty or a feature is missing.
    """
    from ortools.sat.python import cp_model  # imported when needed (start-up time)
    cards = list(iter_mask(hand))
    if not cards:
        raise ConquianError("no card to pay")
    missing = [c for c in cards if c not in outs_kept or c not in usable]
    if missing:
        raise ConquianError("every payable card needs its outs_kept and usable counts")
    model = cp_model.CpModel()
    pay = {c: model.new_bool_var(f"p{c}") for c in cards}
    # Exactly one card is paid (R13).
    model.add_exactly_one(pay.values())
    scale = 64  # the tie-break (lower index) never outweighs a real difference
    pot = potential or {}
    model.maximize(
        sum(
            (
                scale
                * (
                    OUTS_WEIGHT * outs_kept[c]
                    - GIVES_WEIGHT * usable[c]
                    - POTENTIAL_WEIGHT * pot.get(c, 0)
                )
                - c
            )
            * pay[c]
            for c in cards
        )
    )
    found = solve_model(model, time_limit, "pay model")
    if found is None:
        raise ConquianError("pay model is infeasible")
    solver, _ = found
    chosen = [c for c in cards if solver.boolean_value(pay[c])]
    if len(chosen) != 1:
        raise ConquianError("pay model chose no single card")
    return chosen[0]
