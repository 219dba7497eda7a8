"""The JSON answers of the commands, as plain data: one builder per answer.

Each command's ``--json`` output and the engine's ``result`` for the same
request come from the same builder here, so that ``conquian engine`` answers
exactly what ``conquian analyze --json`` (and the others) print.  The
builders only call :mod:`analyzer` and arrange its answers; they hold no
game logic and print nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from analyzer.advisor import Advice, advise
from analyzer.cards import Labels, format_card, format_mask
from analyzer.hints import WEIGHTS, Hint
from analyzer.hints import analyze as analyze_position
from analyzer.moves import parse_move
from analyzer.multipv import MoveValue
from analyzer.notation import format_notation
from analyzer.partition import Arrangement
from analyzer.position import dump_position
from analyzer.review import SCALE, THRESHOLDS, GameReview, Label
from analyzer.search import SearchResult
from analyzer.state import GameState, Phase
from analyzer.why import Explanation

__all__ = [
    "all_moves_data",
    "analyze_data",
    "arrangement_data",
    "hint_data",
    "notation_data",
    "review_data",
    "solve_data",
    "static_data",
    "why_data",
]


def analyze_data(state: GameState) -> dict[str, Any]:
    """``analyze --json``: validity, phase, and per player melded count, outs (R15), forceable (R14)."""
    lab = state.rules.labels

    def names(cards: tuple[int, ...] | None) -> list[str] | None:
        return None if cards is None else [format_card(c, lab) for c in cards]

    return {
        "valid": True,
        "variant": state.rules.name,
        "labels": str(lab),
        "phase": str(state.phase),
        "to_act": state.to_act,
        "players": [
            {
                "melded": r.melded,
                "hand_count": r.hand_count,
                "outs": names(r.outs),
                "forceable": names(r.forceable),
            }
            for r in analyze_position(state)
        ],
    }


def hint_moves(state: GameState, advice: Advice) -> list[dict[str, Any]]:
    """The ranked moves of a sampled hint, as ``hint --json`` lists them."""
    lab = state.rules.labels
    return [
        {
            "move": e.move.text(lab),
            "score": round(e.expected, 6),
            "reasons": list(e.reasons),
            "win": round(e.win, 6),
            "draw": round(e.draw, 6),
            "loss": round(e.loss, 6),
            "ci95": [round(e.ci95[0], 6), round(e.ci95[1], 6)],
            "static_score": e.static_score,
        }
        for e in advice.estimates
    ]


def hint_data(
    state: GameState, advice: Advice, *, seed: int, open_hands: bool, top: int | None
) -> dict[str, Any]:
    """``hint --json`` (sampled): the moves best first with win/draw/loss and reasons."""
    moves = hint_moves(state, advice)
    return {
        "to_act": state.to_act,
        "evaluation": "open" if open_hands else "sampled",
        "exact": open_hands and state.stock is not None,
        "labels": str(state.rules.labels),
        "samples": advice.samples,
        "seed": seed,
        "seconds": round(advice.seconds, 3),
        "unproven": round(advice.unproven, 4),
        "time_limited": advice.samples < advice.planned,
        "moves": moves[:top] if top else moves,
    }


def static_data(state: GameState, hints: list[Hint], *, top: int | None) -> dict[str, Any]:
    """``hint --static --json``: every legal move by its one-move static score."""
    lab = state.rules.labels
    moves = [{"move": h.move.text(lab), "score": h.score, "reasons": list(h.reasons)} for h in hints]
    return {
        "to_act": state.to_act,
        "evaluation": "static",
        "labels": str(lab),
        "weights": WEIGHTS,
        "moves": moves[:top] if top else moves,
    }


def solve_data(state: GameState, result: SearchResult) -> dict[str, Any]:
    """``solve --json``: winner, proof, principal variation, values (R20)."""
    lab = state.rules.labels
    n = state.rules.players
    data: dict[str, Any] = {
        "winner": result.winner,
        "proven": result.proven,
        "pv": [m.text(lab) for m in result.pv],
        "nodes": result.nodes,
        "values": [round(v, 6) for v in result.values],
        "mode": result.mode,
        "stopped_by": result.stopped_by,
        "seconds": round(result.seconds, 4),
    }
    if result.mode == "expectimax":
        probabilities = {str(p): round(result.outcome[p], 6) for p in range(n)}
        probabilities["draw"] = round(result.outcome[n], 6)
        data["probabilities"] = probabilities
    return data


def all_moves_data(state: GameState, values: list[MoveValue]) -> dict[str, Any]:
    """``solve --all-moves --json``: every legal root move, best first for the player to act,
    with its values per player, ``proven`` and its principal variation (the move first)."""
    lab = state.rules.labels
    return {
        "to_act": state.to_act,
        "moves": [
            {
                "move": v.move.text(lab),
                "values": [round(x, 6) for x in v.values],
                "proven": v.proven,
                "pv": [m.text(lab) for m in v.pv],
            }
            for v in values
        ],
        "proven": all(v.proven for v in values),
        "nodes": sum(v.nodes for v in values),
        "seconds": round(sum(v.seconds for v in values), 4),
    }


def why_data(
    state: GameState,
    explanation: Explanation,
    *,
    samples: int,
    seed: int,
    time_limit: float,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """``why --json``: the rule facts forbidding a move, or how a legal move compares with the
    best on the same sampled deals as hint (not for the bare ``take``, which names no move)."""
    lab = state.rules.labels
    data: dict[str, Any] = {
        "move": explanation.move,
        "legal": explanation.legal,
        "facts": list(explanation.facts),
    }
    comparable = explanation.legal and explanation.move != "take"
    if comparable and state.phase in (Phase.OFFER, Phase.FORCED, Phase.EXCHANGE):
        # A legal move's text is in the state's labels: it reads back as the same move.
        asked = parse_move(explanation.move, lab)
        advice = advise(
            state,
            samples=samples,
            seed=seed,
            time_limit=time_limit,
            extra=[asked],
            progress=progress,
        )
        rank = next(k for k, e in enumerate(advice.estimates) if e.move == asked)
        mine, best = advice.estimates[rank], advice.estimates[0]
        data["comparison"] = {
            "rank": rank + 1,
            "of": len(advice.estimates),
            "best": best.move.text(lab),
            "win": round(mine.win, 6),
            "best_win": round(best.win, 6),
            "expected": round(mine.expected, 6),
            "best_expected": round(best.expected, 6),
            "samples": advice.samples,
            "time_limited": advice.samples < advice.planned,
        }
    return data


def arrangement_data(result: Arrangement, lab: Labels) -> dict[str, Any]:
    """An arrangement of ``melds --json``: feasible, melded count, melds, unmelded, optimal."""
    return {
        "feasible": result.feasible,
        "melded": result.melded,
        "melds": [format_mask(m, lab).split() for m in result.melds],
        "unmelded": format_mask(result.unmelded, lab).split(),
        "optimal": result.optimal,
    }


def notation_data(state: GameState) -> dict[str, Any]:
    """``notation --json``: the one-line notation and the same position as position data."""
    return {
        "notation": format_notation(state),
        "position": dump_position(state),
    }


def review_data(result: GameReview, labels: Labels) -> dict[str, Any]:
    """``review --json``: ``moves`` (ply, player, move, best, win_best, win_played, loss,
    label) and ``summary`` (player, accuracy, and the count of each label), plus the
    ``settings`` the review ran with (samples, seed, time limit, scale, thresholds)."""
    moves = [
        {
            "ply": m.ply,
            "player": m.player,
            "move": m.move.text(labels),
            "best": m.best.text(labels),
            "win_best": round(m.win_best, 6),
            "win_played": round(m.win_played, 6),
            "loss": round(m.loss, 6),
            "label": str(m.label),
        }
        for m in result.moves
    ]
    summary = [
        {
            "player": s.player,
            "accuracy": None if s.accuracy is None else round(s.accuracy, 1),
            **{str(label): s.counts[label] for label in Label},
        }
        for s in result.summary
    ]
    return {
        "moves": moves,
        "summary": summary,
        "settings": {
            "samples": result.samples,
            "seed": result.seed,
            "time_limit": result.time_limit,
            "time_limited": result.time_limited,
            "scale": list(SCALE),
            "thresholds": {str(label): least for label, least in THRESHOLDS},
        },
    }
