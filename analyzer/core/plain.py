"""A state as plain position data (the shape of docs/position-format.md), and its labels (R2).

:func:`dump_position` (which the state's ``repr`` uses) writes the data that
:func:`analyzer.formats.position.load_position` reads back.
"""

from __future__ import annotations

from dataclasses import replace

from analyzer.core.cards import Labels
from analyzer.core.dump import dump_position
from analyzer.core.state import GameState

__all__ = ["dump_position", "relabel"]


def relabel(state: GameState, labels: Labels | str | None) -> GameState:
    """``state`` with its cards printed and read in ``labels`` (R2); the same position.

    Every answer about a state (moves, descriptions, reasons, dumps) uses
    ``state.rules.labels``; :func:`load_position` sets them to the
    position's labels, and this function changes them (``--labels``).

    Raises
    ------
    ValueError
        If ``labels`` is not ``"french"`` or ``"spanish"``.
    """
    if labels is None:
        return state
    rules = state.rules.with_labels(labels)
    return state if rules is state.rules else replace(state, rules=rules)
