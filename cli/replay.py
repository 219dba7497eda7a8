"""``conquian replay``: re-play a game record and report the first illegal move."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from analyzer.core.cards import counted
from analyzer.core.plain import relabel
from analyzer.formats.records import replay_lines
from cli.boundary import json_errors
from cli.console import emit, out
from cli.inputs import input_text
from cli.options import JsonOpt, LabelsOpt

__all__ = ["replay"]


def replay(
    record: Annotated[
        str,
        typer.Argument(metavar="RECORD", help="Game record (JSON lines), or - for stdin."),
    ],
    labels: LabelsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Re-play a game record and check every move; report the first illegal one.

    With --json a record that is not valid also prints {"valid": false, "error": ...}.
    """
    json_errors(as_json)
    text, _ = input_text(record, "record file")
    result = replay_lines(text.splitlines())
    final = relabel(result.final, labels)
    data: dict[str, Any] = {
        "valid": True,
        "variant": final.rules.name,
        "moves": len(result.moves),
        "finished": result.finished,
        "winner": final.winner if result.finished else None,
        "final": final.describe(),
    }
    if as_json:
        emit(data)
        return
    out.print(f"Valid record: {counted(len(result.moves), 'move')}, {final.rules.name}.")
    if result.finished:
        out.print(
            "Outcome: " + ("draw" if final.winner is None else f"player {final.winner} won") + "."
        )
    else:
        out.print(f"Not finished: {final.describe()}.", markup=False)
