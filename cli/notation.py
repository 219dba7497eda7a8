"""``conquian notation``: a position as one line of text (docs/notation.md), like FEN in chess."""

from __future__ import annotations

from typing import Annotated

import typer

from analyzer.service.results import notation_data
from cli.console import emit, out
from cli.inputs import POSITION_HELP, position_arg
from cli.options import JsonOpt, LabelsOpt

__all__ = ["notation"]


def notation(
    position: Annotated[str, typer.Argument(metavar="POSITION", help=POSITION_HELP)],
    labels: LabelsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print POSITION as one line of text that every command reads in place of a file.

    The line holds the variant, labels, dealer, player to act, each player's hand (or its count)
    and layout, the centre card with its kind, source, declined and forced players, the dead
    cards, the stock (count or order) and the exchange when present; see docs/notation.md.
    Given a notation, it prints the canonical one; with --json also the position as JSON.
    """
    pos = position_arg(position, labels)
    data = notation_data(pos.state)
    if as_json:
        emit(data)
        return
    out.print(data["notation"], markup=False, soft_wrap=True, highlight=False)
