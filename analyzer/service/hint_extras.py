"""The JSON of a hint's extras: the card table (``cards``) and the expected lines (``line``), as
``hint --json`` prints them and the engine's and the board's ``hint`` answers carry them.

Kept beside :mod:`analyzer.service.results` (whose :func:`~analyzer.service.results.hint_data`
builds the hint itself), so that both front ends build them in one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from analyzer.analysis.advisor import Advice
from analyzer.analysis.engines import ENGINES
from analyzer.analysis.lines import Line, line_text
from analyzer.analysis.whereabouts import STOCK, Whereabouts, basis_text
from analyzer.core.cards import format_card, iter_mask
from analyzer.core.moves import Move
from analyzer.core.state import GameState
from analyzer.formats.notation import format_notation

__all__ = ["cards_data", "cards_only_data", "line_data", "with_lines"]


def cards_data(state: GameState, found: Whereabouts) -> dict[str, Any]:
    """The card table: where the cards a player cannot see may be.

    Returns
    -------
    dict
        ``view`` (whose view), ``engine`` and ``method`` (whose sampler), ``exact`` (computed,
        not sampled), ``samples`` (deals drawn; 0 when exact), ``seed``, ``places`` (the other
        seats as text, then ``"stock"``), ``counts`` (cards per place), ``based_on``
        (``exchange``: per seat the card the viewer passed him, R9; ``declined``: per seat the
        declined cards that ruled hands out, R11, R17; ``paid``: per seat the cards given up that
        his hand was read from; ``infer`` and ``read``: the sampler's settings), ``based_on_text``
        (the same in words) and ``unseen``: per unseen card, its chance in each place (keys as
        ``places``), summing to 1.
    """
    lab = state.rules.labels
    names = ["stock" if place == STOCK else str(place) for place in found.places]
    unseen: dict[str, dict[str, float]] = {}
    for card, chances in found.chances.items():
        rounded = [round(p, 6) for p in chances]
        top = max(range(len(rounded)), key=lambda k: chances[k])
        rounded[top] = round(rounded[top] + 1.0 - sum(rounded), 6)  # so that they add up to 1
        unseen[format_card(card, lab)] = dict(zip(names, rounded, strict=True))
    return {
        "view": found.player,
        "engine": found.engine,
        "method": ENGINES[found.engine].method_name if found.engine in ENGINES else "",
        "exact": found.exact,
        "samples": found.samples,
        "seed": found.seed,
        "places": names,
        "counts": dict(zip(names, found.counts, strict=True)),
        "based_on": {
            "exchange": {str(q): format_card(c, lab) for q, c in found.exchange.items()},
            "declined": {
                str(q): [format_card(c, lab) for c in cards] for q, cards in found.declined.items()
            },
            "paid": {str(q): [format_card(c, lab) for c in cards] for q, cards in found.paid.items()},
            "infer": found.infer,
            "read": found.read,
        },
        "based_on_text": basis_text(found, lab),
        "unseen": unseen,
    }


def cards_only_data(state: GameState, found: Whereabouts) -> dict[str, Any]:
    """``hint --cards --view P --json``: the card table alone (``evaluation``: ``"cards"``)."""
    return {
        "to_act": state.to_act,
        "evaluation": "cards",
        "labels": str(state.rules.labels),
        "cards": cards_data(state, found),
    }


def line_data(state: GameState, line: Line, *, engine: str) -> dict[str, Any]:
    """One move's expected line (:mod:`analyzer.analysis.lines`).

    Returns
    -------
    dict
        ``deal`` (the sampled deal it is played on, from 1 in seed order), ``deals`` (the deals
        it was chosen among), ``result`` (``"win"``, ``"draw"`` or ``"loss"``: the move's result
        on that deal for the player to act, R20), ``typical`` (that result is the move's most
        common, or for ``v3`` its likeliest), ``value`` (the move's result on that deal, -1..1),
        ``share`` (how common that result is), ``sampled`` (the deal's hidden cards are sampled,
        not known), ``moves`` (each ``player``, null for a turn of the stock, ``move``,
        ``forced``: the only legal move, and ``sampled``: the move's cards that come from the
        sampled deal), ``end`` (``"over"``, ``"decisions"``: the line's most decisions reached,
        or ``"interrupted"``), ``winner`` (at the end of the deal; null for a draw or when not
        over), ``notation`` (the sampled deal before the move: every hand and the stock order)
        and ``text`` (the line in words, as ``hint --line`` prints it).
    """
    lab = state.rules.labels
    return {
        "deal": line.deal,
        "deals": line.deals,
        "result": line.result,
        "typical": line.typical,
        "value": round(line.value, 6),
        "share": round(line.share, 6),
        "sampled": line.sampled,
        "moves": [
            {
                "player": step.player,
                "move": step.move.text(lab),
                "forced": step.forced,
                "sampled": [format_card(c, lab) for c in iter_mask(step.sampled)],
            }
            for step in line.steps
        ],
        "end": line.end,
        "winner": line.winner,
        "notation": format_notation(line.deal_state),
        "text": line_text(line, lab, player=state.to_act, engine=engine),
    }


def with_lines(
    state: GameState, advice: Advice, data: dict[str, Any], lines: Mapping[Move, Line]
) -> dict[str, Any]:
    """``data`` (:func:`analyzer.service.results.hint_data` of ``advice``) with each listed move's
    ``line`` (null for a move without one: the lines were interrupted)."""
    moves = [
        {**m, "line": line_data(state, lines[e.move], engine=advice.engine) if e.move in lines else None}
        for m, e in zip(data["moves"], advice.estimates, strict=False)
    ]
    return {**data, "moves": moves}
