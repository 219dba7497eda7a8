"""``conquian melds``: the arrangement of some cards that melds the most (CP-SAT), or a meld query file."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from analyzer.core.cards import Labels, format_mask, text_labels
from analyzer.core.errors import CardError
from analyzer.formats.meldfile import MeldAnswer, answer_meld_queries
from analyzer.service.results import arrangement_data
from analyzer.solver.partition import Arrangement, solve_arrangement
from cli.boundary import DOMAIN, usage
from cli.console import emit, out
from cli.inputs import cards_arg, input_text, json_input, rules_of
from cli.options import JsonOpt, LabelsOpt, VariantOpt, given_options

__all__ = ["melds"]


def melds(
    ctx: typer.Context,
    cards: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="CARDS",
            help="Cards, e.g. 'AS 2S 3S 7H 7D 7C' or '10o 11o 12o' (R2), in one label set.",
            show_default=False,
        ),
    ] = None,
    must: Annotated[
        list[str] | None,
        typer.Option(
            "--must", "-m", metavar="CARDS",
            help="Cards that must be melded (R13); may be given more than once (the cards add up).",
        ),
    ] = None,
    file: Annotated[
        str | None,
        typer.Option(
            "--file",
            "-f",
            metavar="FILE",
            help="Answer every query of a meld query file (or - for stdin) and check its "
            "expected answers, e.g. examples/positions/example1-runs.json.",
        ),
    ] = None,
    variant: VariantOpt = "classic",
    labels: LabelsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Find the arrangement of CARDS into melds that melds the most cards (CP-SAT).

    The cards are read in one label set, decided by the cards that belong to one set only
    (7C is the 7 of clubs next to 7H, the 7 of copas next to 7o); when none does, --labels
    decides (5C 6C 7C --labels spanish is 5, 6, 7 de copas), and without it classic reads
    French (R2's default) while megajogos, where both are accepted, asks for --labels. A meld
    query file decides by its "labels" key first. The answer is in --labels, or else in the
    labels the cards were read in.
    """
    rules = rules_of(variant)
    must_text = " ".join(must or [])  # a repeated --must adds its cards (it kept only the last)
    if file is not None:
        if cards:
            usage("give CARDS or --file, not both")
        unused = given_options(ctx, "must", "variant")
        if unused:
            usage(
                f"{', '.join(unused)} {'applies' if len(unused) == 1 else 'apply'} to CARDS: "
                "a meld query file gives its own ('must' per query, 'variant' for the file or "
                "a query)"
            )
        _file(file, labels, as_json)
        return
    empty = [not card.replace(",", " ").strip() for card in cards or []]
    if any(empty) and not all(empty):  # all empty: "no cards given" below
        usage("CARDS: an empty argument ('') is not a card")
    text = " ".join(cards or [])
    if not text.replace(",", " ").split():
        usage("CARDS: no cards given (or use --file FILE)")
    try:
        read_in = text_labels(
            f"{text} {must_text}".replace(",", " ").split(), labels or rules.reading_default
        )
    except CardError as exc:
        usage(str(exc))
    lab = labels or read_in
    mask = cards_arg(text, read_in, "CARDS")
    need = cards_arg(must_text, read_in, "--must")
    if need & ~mask:
        usage(f"--must cards not among CARDS: {format_mask(need & ~mask, lab)}")
    result = solve_arrangement(mask, rules, must=need)
    data = {**_arrangement(result, lab), "variant": rules.name, "labels": str(lab)}
    if as_json:
        emit(data)
        return
    if not result.feasible:
        out.print(f"No arrangement melds all of {format_mask(need, lab)} ({rules.name}).")
        return
    out.print(f"{result.melded} of {mask.bit_count()} cards melded ({rules.name}):")
    _print_melds(result, lab)


def _arrangement(result: Arrangement, lab: Labels) -> dict[str, Any]:
    return arrangement_data(result, lab)


def _print_melds(result: Arrangement, lab: Labels) -> None:
    for meld in result.melds:
        out.print(f"  [{format_mask(meld, lab)}]")
    if result.unmelded:
        out.print(f"Unmelded: {format_mask(result.unmelded, lab)}")


def _file(path: str, labels: Labels | None, as_json: bool) -> None:
    text, name = input_text(path, "meld query file")
    answers = answer_meld_queries(json_input(text, name, "a meld query file"), labels)

    def lab(answer: MeldAnswer) -> Labels:
        return labels or answer.rules.labels

    rows = [
        {
            "cards": format_mask(a.cards, lab(a)).split(),
            "must": format_mask(a.must, lab(a)).split(),
            "variant": a.rules.name,
            "is_meld": a.is_meld,
            **_arrangement(a.arrangement, lab(a)),
            "expected": a.expected,
            "correct": None if a.expected is None else not a.problems,
            "problems": list(a.problems),
        }
        for a in answers
    ]
    wrong = sum(1 for a in answers if a.problems)
    if as_json:
        emit({"file": name, "queries": rows, "wrong": wrong})
    else:
        out.print(f"Meld queries: {name}", markup=False)
        for k, (a, row) in enumerate(zip(answers, rows, strict=True), 1):
            verdict = "a meld" if a.is_meld else "not a meld"
            out.print(
                f"{k}. {' '.join(row['cards'])} ({a.rules.name}): {verdict}; "
                f"{a.arrangement.melded} of {a.cards.bit_count()} cards melded",
                markup=False,
            )
            _print_melds(a.arrangement, lab(a))
            for problem in a.problems:
                out.print(f"   WRONG expected answer: {problem}", markup=False)
        checked = sum(1 for a in answers if a.expected is not None)
        if checked:
            out.print(f"{checked - wrong} of {checked} expected answers are correct.")
        else:
            out.print("No query gives an expected answer to check.")
    if wrong:
        raise typer.Exit(DOMAIN)
