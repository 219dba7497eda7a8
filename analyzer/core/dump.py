"""A state as the plain position data of docs/position-format.md (:func:`dump_position`)."""

from __future__ import annotations

from typing import Any

from analyzer.core.cards import Labels, format_card, format_mask
from analyzer.core.offers import Phase

__all__ = ["dump_position"]


def dump_position(state: Any, labels: Labels | None = None) -> dict[str, Any]:
    """The position data of ``state``; :func:`load_position` reads it back to an equal state.

    Parameters
    ----------
    state : GameState
        (any object with its fields: this module sits below :mod:`analyzer.core.state`,
        whose ``repr`` uses it)
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
            entry["gave"] = format_card(state.gave[p], labels)
        if state.paid and state.paid[p]:
            entry["paid"] = [format_card(c, labels) for c in state.paid[p]]
        players.append(entry)
    data: dict[str, Any] = {"variant": state.rules.name}
    overrides = state.rules.overrides()
    if overrides:
        data["rules"] = overrides
    data |= {
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
    if state.phase is Phase.EXCHANGE:
        data["exchange"] = {
            "chosen": [None if g is None else format_card(g, labels) for g in state.gifts]
            if state.gifts
            else [None] * state.rules.players
        }
    return data
