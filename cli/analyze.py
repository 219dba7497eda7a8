"""``conquian analyze``: validate a position; per player his melded count, outs and forceable cards."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from analyzer.service.results import analyze_data
from cli.boundary import json_errors
from cli.console import emit, out
from cli.inputs import POSITION_HELP, position_arg
from cli.options import JsonOpt, LabelsOpt

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
    pos = position_arg(position, labels)
    state = pos.state
    data = analyze_data(state)
    if as_json:
        emit(data)
        return
    out.print(f"Valid {state.rules.name} position ({pos.name}): {state.describe()}.", markup=False)
    table = Table()
    for col in ("player", "melded", "hand", "outs (R15)", "forceable (R14)"):
        table.add_column(col)
    over = state.is_terminal()
    for p, report in enumerate(data["players"]):
        outs = report["outs"]
        table.add_row(
            str(p),
            str(report["melded"]),
            str(report["hand_count"]),
            "-" if over else "hidden hand" if outs is None else (" ".join(outs) or "none"),
            "-" if over else " ".join(report["forceable"]) or "none",
        )
    out.print(table)
    if over:
        out.print("The deal is over: no card is offered, taken or forced any more (R15, R18).")
