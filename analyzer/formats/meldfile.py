"""Meld query files: questions about sets of cards, answered with the meld models (R3-R5).

A meld query file (``examples/positions/example1-runs.json``; schema in
``docs/melds.schema.json``) lists card texts, each with an optional expected
answer::

    {"type": "melds", "variant": "classic",
     "queries": [{"cards": "AS 2S 3S", "expected": {"is_meld": true, "melded": 3}}]}

``conquian melds --file FILE`` answers every query and checks the expected
answers.  The cards of the whole file are read in one label set (R2): its
``labels`` key, else its unambiguous cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from analyzer.core.cards import Labels, format_mask, mask_of, parse_cards, text_labels
from analyzer.core.errors import CardError, ConquianError, PositionError
from analyzer.core.melds import is_meld
from analyzer.core.rules import Rules, get_rules
from analyzer.formats.shape_errors import check_shape
from analyzer.formats.shapes import MeldQueryFile
from analyzer.solver.partition import Arrangement, solve_arrangement

__all__ = ["MeldAnswer", "answer_meld_queries", "load_meld_queries"]


@dataclass(frozen=True, slots=True)
class MeldAnswer:
    """One answered query of a meld query file.

    Attributes
    ----------
    rules : Rules
        The query's variant, printing cards in the file's labels.
    cards : int
        Mask of the query's cards.
    must : int
        Mask of the cards that must be melded.
    is_meld : bool
        Whether the cards are one legal meld (R4, R5).
    arrangement : Arrangement
        The arrangement that melds the most cards (CP-SAT).
    expected : dict or None
        The file's expected answer (``is_meld``, ``melded``), if any.
    problems : tuple of str
        How the answer differs from the expected one; empty when it agrees.
    """

    rules: Rules
    cards: int
    must: int
    is_meld: bool
    arrangement: Arrangement
    expected: dict[str, Any] | None
    problems: tuple[str, ...]


def load_meld_queries(data: Any, labels: Labels | None = None) -> tuple[MeldQueryFile, Labels]:
    """Check a meld query file: its shape, then the one label set of its cards (R2).

    The labels are decided as for cards typed on the command line
    (``conquian melds``): the file's ``labels`` key, else its cards that
    belong to one label set only, else ``labels`` (``--labels``), else the
    variants' own default, which decides only when every query's variant
    reads French by default (:attr:`Rules.reading_default`): in a file with a
    ``megajogos`` query, ``5C 6C 7C`` alone is refused, never read silently
    as clubs or as copas.

    Parameters
    ----------
    data : Any
        The parsed file.
    labels : Labels, optional
        The labels chosen by the caller (``--labels``) for cards that
        nothing else decides.

    Returns
    -------
    (MeldQueryFile, Labels)
        The validated file and the labels its cards are read in.

    Raises
    ------
    PositionError
        If a key is unknown, a value has the wrong type, there is no query, or
        the labels cannot be decided (R2).
    UnknownVariantError
        If a variant is not a preset.
    """
    if isinstance(data, dict) and (
        data.get("type") in ("position", "puzzle") or "players" in data or "position" in data
    ):
        what = "a puzzle" if data.get("type") == "puzzle" else "a position"
        raise PositionError(
            f"this is {what}, not a meld query file: read it with 'conquian "
            f"{'puzzle' if what == 'a puzzle' else 'analyze'} FILE'"
        )
    shape = check_shape(MeldQueryFile, data, "a meld query file")
    if not shape.queries:
        raise PositionError("the meld query file has no queries: nothing to answer")
    for k, query in enumerate(shape.queries):
        if not query.cards.replace(",", " ").split():
            raise PositionError(f"queries[{k}]: 'cards': no cards given")
    used = [_rules_of(query.variant, shape.variant, k) for k, query in enumerate(shape.queries)]
    default = labels
    if default is None:
        defaults = {rules.reading_default for rules in used}
        default = defaults.pop() if len(defaults) == 1 else None
    tokens = [t for q in shape.queries for t in f"{q.cards} {q.must}".replace(",", " ").split()]
    declared = None if shape.labels is None else Labels(shape.labels)
    try:
        chosen = text_labels(tokens, default, declared=declared)
    except CardError as exc:
        raise PositionError(_where_labels_fail(shape, default, declared, exc)) from None
    return shape, chosen


def _rules_of(own: str | None, default: str, k: int) -> Rules:
    """The preset of query ``k``: its own ``variant``, else the file's; an unknown name is named
    with where it is written."""
    try:
        return get_rules(own or default)
    except ConquianError as exc:
        raise PositionError(f"{f'queries[{k}].variant' if own else 'variant'}: {exc}") from None


def _where_labels_fail(
    shape: MeldQueryFile, default: Labels | None, declared: Labels | None, exc: CardError
) -> str:
    """The message of a label problem of the file's cards, naming the query it is in: the first
    query whose own cards fail alone, else (a French query beside a Spanish one) the first query
    whose cards fail together with the ones before it."""
    texts = [f"{q.cards} {q.must}".replace(",", " ").split() for q in shape.queries]
    for k, tokens in enumerate(texts):
        try:
            text_labels(tokens, default, declared=declared)
        except CardError as own:
            return f"queries[{k}]: {own}"
    for k in range(1, len(texts)):
        try:
            text_labels([t for part in texts[: k + 1] for t in part], default, declared=declared)
        except CardError as joined:
            return f"queries[{k}] and the queries before it: {joined}"
    return str(exc)


def answer_meld_queries(data: Any, labels: Labels | None = None) -> list[MeldAnswer]:
    """Answer every query of a meld query file and compare with its expected answers.

    ``labels`` decide the cards that nothing in the file decides, as in
    :func:`load_meld_queries`.

    Raises
    ------
    PositionError
        As :func:`load_meld_queries`, or if a query's cards cannot be read
        (the message names the query, from 1).
    """
    shape, labels = load_meld_queries(data, labels)
    answers: list[MeldAnswer] = []
    for k, query in enumerate(shape.queries, 1):
        rules = get_rules(query.variant or shape.variant).with_labels(labels)
        try:
            cards = mask_of(parse_cards(query.cards, labels))
            must = mask_of(parse_cards(query.must, labels))
        except CardError as exc:
            raise PositionError(f"queries[{k - 1}]: {exc}") from None
        if must & ~cards:
            raise PositionError(
                f"queries[{k - 1}]: 'must' cards not among 'cards': {format_mask(must & ~cards, labels)}"
            )
        arrangement = solve_arrangement(cards, rules, must=must)
        meld = is_meld(cards, rules)
        expected = None if query.expected is None else query.expected.model_dump(exclude_none=True)
        expected = expected or None  # "expected": {} checks nothing: not counted as a check
        problems: list[str] = []
        if expected is not None:
            if "is_meld" in expected and expected["is_meld"] != meld:
                problems.append(
                    f"is_meld: expected {str(expected['is_meld']).lower()}, found {str(meld).lower()}"
                )
            if "melded" in expected and expected["melded"] != arrangement.melded:
                problems.append(
                    f"melded: expected {expected['melded']}, found {arrangement.melded}"
                )
        answers.append(
            MeldAnswer(rules, cards, must, meld, arrangement, expected, tuple(problems))
        )
    return answers
