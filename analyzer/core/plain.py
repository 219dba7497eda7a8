"""A state as plain position data (the shape of docs/position-format.md), and its labels (R2).

:func:`dump_position` writes the data that :func:`analyzer.formats.position.load_position`
reads back; it needs nothing but the state, so the state's ``repr`` uses it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from analyzer.core.cards import Labels, format_card, format_mask

if TYPE_CHECKING:
    from analyzer.core.state import GameState

__all__ = ["dump_position", "relabel"]


def dump_position(state: GameState, labels: Labels | None = None) -> dict[str, Any]:
    """The position data of ``state``; :func:`load_position` reads it back to an equal state.

    Parameters
    ----------
    state : GameState
    labels : Labels, optional
        Card labels; the variant's default if omitted.

    Returns
    -------
    dict
        JSON-ready data (see ``docs/position-format.md``).
    """
    labels = labels or state.rules.labels

    def cards(mask: int) -> list[str]:
        return format_mask(mask, labels).split()

    players: list[dict[str, Any]] = []
    for p in range(state.rules.players):
        hand = state.hands[p]
        entry: dict[str, Any] = {
            "hand": cards(hand) if hand is not None else state.counts[p],
            "layout": [cards(m) for m in state.layouts[p]],
        }
        if state.gave and state.gave[p] is not None:
            entry["gave"] = format_card(state.gave[p], labels)  # type: ignore[arg-type]
        if state.paid and state.paid[p]:
            entry["paid"] = [format_card(c, labels) for c in state.paid[p]]
        players.append(entry)
    data: dict[str, Any] = {
        "variant": state.rules.name,
        "labels": str(labels),
        "dealer": state.dealer,
        "to_act": state.to_act,
        "players": players,
        "stock": (
            [format_card(c, labels) for c in state.stock]
            if state.stock is not None
            else state.stock_count
        ),
        "dead": [format_card(c, labels) for c in state.dead],
        "centre": None,
    }
    if state.centre is not None:
        c = state.centre
        data["centre"] = {
            "card": format_card(c.card, labels),
            "kind": c.kind,
            "source": c.source,
            "declined": list(c.declined),
        }
        if c.forced is not None:
            data["centre"]["forced"] = c.forced
    if state.phase == "exchange":
        data["exchange"] = {
            "chosen": [None if g is None else format_card(g, labels) for g in state.gifts]
            if state.gifts
            else [None] * state.rules.players
        }
    return data


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
