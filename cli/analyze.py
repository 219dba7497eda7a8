"""``conquian analyze``: validate a position; per player his melded count, outs and forceable cards."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from analyzer.cards import format_card
from analyzer.hints import analyze as analyze_position
from cli.common import POSITION_HELP, JsonOpt, LabelsOpt, emit, json_errors, out, read_position
from cli.results import analyze_data

__all__ = ["analyze"]


def analyze(
    position: Annotated[
        str, typer.Argument(metavar="POSITION", help=POSITION_HELP)
    ],
    labels: LabelsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Validate POSITION and show each player's melded count, outs (R15) and forceable cards (R14).

    With --json a position that is not valid also prints {"valid": false, "error": ...}.
    """
    json_errors(as_json)
    pos = read_position(position, labels)
    state = pos.state
    lab = state.rules.labels
    reports = analyze_position(state)

    def names(cards: tuple[int, ...] | None) -> list[str] | None:
        return None if cards is None else [format_card(c, lab) for c in cards]

    data = analyze_data(state)
    if as_json:
        emit(data)
        return
    out.print(f"Valid {state.rules.name} position ({pos.name}): {state.describe()}.", markup=False)
    table = Table()
    for col in ("player", "melded", "hand", "outs (R15)", "forceable (R14)"):
        table.add_column(col)
    for p, report in enumerate(reports):
        outs_names = names(report.outs)
        outs_text = "hidden hand" if outs_names is None else (" ".join(outs_names) or "none")
        table.add_row(
            str(p),
            str(report.melded),
            str(report.hand_count),
            outs_text,
            " ".join(names(report.forceable) or []) or "none",
        )
    out.print(table)
