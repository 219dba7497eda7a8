"""The JSON answers of the commands, as plain data: one builder per answer.

Each command's ``--json`` output and the engine's ``result`` for the same
request come from the same builder here, so that ``conquian engine`` answers
exactly what ``conquian analyze --json`` (and the others) print.  The
builders only call :mod:`analyzer` and arrange its answers; they hold no
game logic and print nothing.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from analyzer.analysis.advisor import Advice, advise
from analyzer.analysis.engines import ENGINES, MCTS_SEARCHES
from analyzer.analysis.prior import leaning
from analyzer.analysis.review import SCALE, THRESHOLDS, GameReview, Label
from analyzer.analysis.static import WEIGHTS, Hint
from analyzer.analysis.static import analyze as analyze_position
from analyzer.analysis.verdict import verdict_sentence
from analyzer.core.cards import Labels, format_card, format_mask
from analyzer.core.moves import Move, parse_move
from analyzer.core.plain import dump_position
from analyzer.core.state import GameState, Phase
from analyzer.formats.notation import format_notation
from analyzer.search.allmoves import MoveValue, solve_moves
from analyzer.search.anytime import AnytimeResult
from analyzer.search.exact import SearchResult
from analyzer.search.guarantees import Guarantees
from analyzer.service.hint_text import hint_description, vs_best_text
from analyzer.solver.partition import Arrangement
from analyzer.solver.why import Explanation

__all__ = [
    "ANYTIME_TIME_LIMIT",
    "EXACT_TIME_LIMIT",
    "all_moves_data",
    "analyze_data",
    "anytime_data",
    "arrangement_data",
    "hint_data",
    "hint_moves",
    "needs_anytime",
    "notation_data",
    "review_data",
    "solve_data",
    "solve_notes",
    "static_data",
    "why_data",
]


EXACT_TIME_LIMIT = 60.0
"""Default seconds of an exact search (the stock order given, or ``--exact``)."""
ANYTIME_TIME_LIMIT = 15.0
"""Default cap in seconds of the anytime answer (the stock order unknown)."""


def needs_anytime(state: GameState) -> bool:
    """True when ``state`` is solved by the anytime answer: the stock order unknown, with stock
    cards left, and the deal not over."""
    return state.stock is None and state.stock_count > 0 and not state.is_terminal()


def solve_notes(
    state: GameState, given: dict[str, bool], spell: Callable[[str], str] = "--{}".format
) -> list[str]:
    """One line for each option given that has no effect on ``state`` (it changes nothing, so it
    is not an error): ``given`` maps ``mode``, ``samples``, ``seed``, ``prove`` and ``exact`` to
    whether each was given; ``spell`` writes an option's name (``--samples``, or the engine's
    ``'samples'``)."""
    notes: list[str] = []
    if given.get("mode") and state.rules.players == 2:
        notes.append(
            f"{spell('mode')} has no effect: it chooses how three players are searched, and this "
            "position has two, whose search is the same either way"
        )
    sampled = ("samples", "seed", "prove")
    if state.stock is not None or state.stock_count == 0:
        why = "the stock order is given" if state.stock_count else "the stock is empty"
        notes.extend(
            f"{spell(option)} has no effect: {why}, so the search is exact and nothing is sampled"
            for option in (*sampled, "exact")
            if given.get(option)
        )
    elif given.get("exact"):
        notes.extend(
            f"{spell(option)} has no effect with {spell('exact')} (the expectimax alone: nothing "
            "is sampled)"
            for option in sampled
            if given.get(option)
        )
    return notes


def analyze_data(state: GameState) -> dict[str, Any]:
    """``analyze --json``: validity, phase, and per player melded count, outs (R15), forceable (R14).

    Parameters
    ----------
    state : GameState
        A validated position; its cards are named in ``state.rules.labels`` (R2).

    Returns
    -------
    dict
        ``valid``, ``variant``, ``labels``, ``phase``, ``to_act`` and ``players`` (each with
        ``melded``, ``hand_count``, ``outs`` (``None`` for a hidden hand) and ``forceable``).
    """
    lab = state.rules.labels

    def names(cards: tuple[int, ...] | None) -> list[str] | None:
        return None if cards is None else [format_card(c, lab) for c in cards]

    return {
        "valid": True,
        "variant": state.rules.name,
        "rules": state.rules.overrides(),
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
    """The ranked moves of a sampled hint, as ``hint --json`` lists them.

    Parameters
    ----------
    state : GameState
        The position advised on (its labels name the moves, R2).
    advice : Advice
        :func:`analyzer.analysis.advisor.advise`'s answer for it.

    Returns
    -------
    list of dict
        Best first: ``move``, ``score`` (expected result, -1..1, R20), ``reasons``, ``win``,
        ``draw``, ``loss`` (probabilities), ``ci95`` (95% Wilson interval of ``win``),
        ``static_score``, ``evaluated`` (false for a move the search never tried: its ``win``,
        ``draw``, ``loss`` and ``score`` are then 0, no estimate, and ``ci95`` is 0-1) and
        ``samples`` (the sampled deals, or IS-MCTS visits, that evaluated it), ``diff`` (the
        best move's expected result minus this one's over the same deals or searches, 0 for the
        best), ``diff_ci95`` (its paired 95% interval) and ``sure`` (the result is certain by
        the rules: the move goes out, R15).
    """
    lab = state.rules.labels
    return [
        {
            "move": e.move.text(lab),
            "score": round(e.expected, 6),
            "reasons": list(e.reasons),
            "win": round(e.win, 6),
            "draw": round(e.draw, 6),
            # From the rounded win and draw, so that the three still add up to 1; a move never
            # tried has no estimate, so its loss is 0, not 1.0 beside score 0.0.
            "loss": round(1.0 - round(e.win, 6) - round(e.draw, 6), 6) if e.samples else 0.0,
            "ci95": [round(e.ci95[0], 6), round(e.ci95[1], 6)],
            "static_score": e.static_score,
            "evaluated": e.samples > 0,
            "samples": e.samples,
            "diff": round(e.diff, 6),
            "diff_ci95": [round(e.diff_ci95[0], 6), round(e.diff_ci95[1], 6)],
            "sure": e.sure,
        }
        for e in advice.estimates
    ]


def hint_data(
    state: GameState, advice: Advice, *, seed: int, open_hands: bool, top: int | None
) -> dict[str, Any]:
    """``hint --json`` (sampled): the moves best first with win/draw/loss and reasons.

    Parameters
    ----------
    state : GameState
    advice : Advice
        :func:`analyzer.analysis.advisor.advise`'s answer for ``state``.
    seed : int
        The sampling seed it ran with.
    open_hands : bool
        Whether it used every hand as given (``--open``).
    top : int or None
        Keep only the first ``top`` moves (all when ``None``).

    Returns
    -------
    dict
        ``to_act``, ``evaluation``, ``exact``, ``labels``, ``samples``, ``seed``, ``seconds``,
        ``unproven``, ``time_limited``, ``interrupted``, ``engine``, ``depth``, ``read`` (per
        player, the cards he gave up, passed in the exchange or paid, that his hidden hand was
        read from, :mod:`analyzer.search.inference`; empty when nothing was read)
        ``verdict`` (``"clear"``, ``"close"`` or ``"only"``), ``close_to_best`` (the moves not
        separated from the best), ``prior_pick`` (where moves are left close to the best and a
        move prior is fitted, the one the learned prior leans to, which the ``hint`` bot plays;
        else ``None``) and ``prior_text`` (that in a sentence, else ``""``), ``stopped_by`` (what ended the sampling: ``verdict``,
        ``margin``, ``cap``, ``samples``, ``position``, ``time`` or ``interrupted``)
        ``description`` (how it searched, :func:`analyzer.service.hint_text.hint_description`)
        and ``moves`` (:func:`hint_moves`, each with ``vs_best``, the text of the table's "vs
        best" column, :func:`analyzer.service.hint_text.vs_best_text`).
    """
    moves = hint_moves(state, advice)
    lab = state.rules.labels
    found = ENGINES.get(advice.engine)
    exact = open_hands and state.stock is not None and advice.unproven == 0
    for rank, m in enumerate(moves):
        m["vs_best"] = vs_best_text(m, rank, exact=exact)
    return {
        "to_act": state.to_act,
        "evaluation": "open" if open_hands else "sampled",
        "exact": open_hands and state.stock is not None and advice.unproven == 0,
        "labels": str(state.rules.labels),
        "samples": advice.samples,
        "seed": seed,
        "seconds": round(advice.seconds, 3),
        "unproven": round(advice.unproven, 4),
        "time_limited": advice.time_limited,
        "interrupted": advice.interrupted,
        "engine": advice.engine,
        "method": found.method_name if found is not None else "",
        "depth": advice.depth,
        "verdict": advice.verdict,
        "verdict_text": verdict_sentence(
            advice.verdict, [e.move.text(lab) for e in advice.estimates],
            [m.text(lab) for m in advice.close_to_best],
            unit=found.unit if found is not None else "deals", stopped_by=advice.stopped_by,
            exact=open_hands and state.stock is not None and advice.unproven == 0,
        ) if advice.estimates else "",
        "close_to_best": [m.text(lab) for m in advice.close_to_best],
        **_prior_pick(state, advice, "" if open_hands or found is None else found.method_name),
        "stopped_by": advice.stopped_by,
        "description": hint_description(state, advice, seed=seed, open_hands=open_hands),
        "read": {
            str(q): [format_card(c, state.rules.labels) for c in cards]
            for q, cards in advice.reading.items()
        },
        "moves": moves[:top] if top else moves,
    }


def _prior_pick(state: GameState, advice: Advice, method: str) -> dict[str, str | None]:
    """``prior_pick``, the move the learned prior leans to among those close to the best
    (:func:`analyzer.analysis.prior.leaning`), as text or ``None``, and ``prior_text``, the
    sentence every front end shows for it (``""`` without one)."""
    move = leaning(state, advice, method)
    if move is None:
        return {"prior_pick": None, "prior_text": ""}
    text = move.text(state.rules.labels)
    return {"prior_pick": text, "prior_text": prior_sentence(text)}


def prior_sentence(move: str) -> str:
    """The sentence every front end shows for the move the learned prior leans to (``move``, as
    text) among those the verdict leaves close."""
    return (
        f"Of the moves left close, the learned move prior (from the hint bot's self-play) "
        f"leans to {move}, the move a player in this spot usually chooses."
    )


def static_data(state: GameState, hints: list[Hint], *, top: int | None) -> dict[str, Any]:
    """``hint --static --json``: every legal move by its one-move static score.

    Parameters
    ----------
    state : GameState
    hints : list of Hint
        :func:`analyzer.analysis.static.static_hints` of ``state``, best first.
    top : int or None
        Keep only the first ``top`` moves (all when ``None``).

    Returns
    -------
    dict
        ``to_act``, ``evaluation`` (``"static"``), ``labels``, ``weights`` and ``moves`` (each
        ``move``, ``score``, ``reasons``).
    """
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
    """``solve --json``: winner, proof, principal variation, values (R20).

    Parameters
    ----------
    state : GameState
        The position solved (its labels name the moves).
    result : SearchResult
        :func:`analyzer.search.exact.solve`'s answer for it.

    Returns
    -------
    dict
        ``winner``, ``proven``, ``pv``, ``nodes``, ``values`` (expected result per player,
        -1..1), ``mode``, ``stopped_by``, ``seconds``, ``bounds`` (what is proven for the
        player to act: ``player``, ``lower``, ``upper``), ``estimate`` and ``method``
        (``"exact"``: one search); with the stock order unknown also ``probabilities`` (each
        player's win and the draw).
    """
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
        # What is proven for the player to act (R20 scale), and whether the rest is an estimate.
        "bounds": {
            "player": state.to_act,
            "lower": round(result.lower, 6),
            "upper": round(result.upper, 6),
        },
        "estimate": not result.proven,
        "method": "exact",
    }
    if result.mode == "expectimax":
        probabilities = {str(p): round(result.outcome[p], 6) for p in range(n)}
        probabilities["draw"] = round(result.outcome[n], 6)
        data["probabilities"] = probabilities
    return data


GUARANTEE_UNUSED = ("mode", "all_moves", "samples", "seed", "prove", "exact", "top")
"""The options of ``solve`` that change nothing in its ``--guarantees`` answer (noted, not refused)."""


def guarantees_data(state: GameState, found: Guarantees) -> dict[str, Any]:
    """``solve --guarantees --json``: each player's guarantee and the outcomes left (R20).

    Returns
    -------
    dict
        ``guarantees`` (one per seat: ``player``, ``result`` ``"win"``/``"draw"``/``"loss"`` or
        null when not proven, ``proven``, ``lower``, ``upper``, ``pv``, ``nodes``, ``seconds``,
        ``stopped_by``, ``meaning``: the result in words), ``outcomes`` (the seats whose win
        best play can still reach, ``null`` for the draw), ``settled`` (one outcome left),
        ``winner`` (the seat when one win is left, else null), ``summary`` (the outcomes left in
        a sentence), ``proven``, ``nodes``, ``seconds`` and ``method`` (``"guarantees"``).
    """
    lab = state.rules.labels
    others, do = ("the others", "do") if state.rules.players > 2 else ("his opponent", "does")
    meaning = {
        "win": f"he wins whatever {others} {do}",
        "draw": "he can force a draw, not a win",
        "loss": f"{others} can always make him lose",
    }
    left = outcomes_text(found.outcomes)
    if found.settled:
        summary = f"Best play ends: {left}, by any choice between equal moves."
    elif len(found.outcomes) <= state.rules.players:
        summary = f"Best play, each player for himself, can end: {left}; the guarantees rule out the rest."
    else:
        summary = (
            f"Best play, each player for himself, can end: {left}: the guarantees rule out "
            "nothing (solve's max-n answers one way of playing)."
        )
    return {
        "guarantees": [
            {
                "player": g.player,
                "result": g.result,
                "proven": g.proven,
                "lower": round(g.lower, 6),
                "upper": round(g.upper, 6),
                "pv": [m.text(lab) for m in g.pv],
                "nodes": g.nodes,
                "seconds": round(g.seconds, 4),
                "stopped_by": g.stopped_by,
                "meaning": meaning[g.result] if g.result is not None else "not proven",
            }
            for g in found.players
        ],
        "outcomes": list(found.outcomes),
        "settled": found.settled,
        "winner": found.outcomes[0] if found.settled else None,
        "summary": summary,
        "proven": found.proven,
        "nodes": found.nodes,
        "seconds": round(found.seconds, 4),
        "method": "guarantees",
    }


def outcomes_text(outcomes: tuple[int | None, ...]) -> str:
    """The outcomes left in words: ``player 0 wins, player 2 wins or a draw``."""
    words = ["a draw" if o is None else f"player {o} wins" for o in outcomes]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def all_moves_data(
    state: GameState, values: list[MoveValue], *, method: str = "exact"
) -> dict[str, Any]:
    """``solve --all-moves --json``: every legal root move, best first for the player to act,
    with its values per player, ``proven`` and its principal variation (the move first).

    Parameters
    ----------
    state : GameState
        The position (its labels name the moves, R2).
    values : list of MoveValue
        :func:`analyzer.search.allmoves.solve_moves`'s answer for it (or the moves of
        :func:`analyzer.search.anytime.solve_anytime`'s), best first.
    method : str
        ``"exact"`` (each move searched) or ``"anytime"`` (:func:`anytime_data`).

    Returns
    -------
    dict
        ``to_act``, ``mode`` (the search, as ``solve --json``), ``method``, ``moves``
        (:func:`_move_data`), ``proven`` (every move), ``nodes`` and ``seconds`` (all moves).
    """
    return {
        "to_act": state.to_act,
        "mode": values[0].mode if values else None,
        "method": method,
        "moves": [_move_data(state, v) for v in values],
        "proven": all(v.proven for v in values),
        "nodes": sum(v.nodes for v in values),
        "seconds": round(sum(v.seconds for v in values), 4),
    }


def _move_data(state: GameState, v: MoveValue) -> dict[str, Any]:
    """One move of ``solve``: ``move`` (``turn`` for an unknown stock card), ``values`` per
    player on -1..1 (R20), ``value`` (the player to act's), ``ci95`` (its 95% interval: one point
    when proven, ``null`` for an unproven search), ``proven``, ``samples`` (stock orders the
    estimate averages, 0 when searched), ``stopped_by`` and ``pv``."""
    value = v.values[state.to_act]
    ci95 = v.ci95 if v.ci95 is not None else (value, value) if v.proven else None
    return {
        "move": v.text(state.rules.labels),
        "values": [round(x, 6) for x in v.values],
        "value": round(value, 6),
        "ci95": None if ci95 is None else [round(ci95[0], 6), round(ci95[1], 6)],
        "proven": v.proven,
        "samples": v.samples,
        "stopped_by": v.stopped_by,
        "pv": v.pv_text(state.rules.labels),
    }


def anytime_data(state: GameState, result: AnytimeResult, *, all_moves: bool) -> dict[str, Any]:
    """``solve --json`` (and ``--all-moves``) with the stock order unknown
    (:func:`analyzer.search.anytime.solve_anytime`), ``method`` ``"anytime"``.

    Returns
    -------
    dict
        With ``all_moves``: :func:`all_moves_data`'s keys; else :func:`solve_data`'s for the best
        move (``values``, ``probabilities``, ``pv``, ``bounds``: the best proven move's value as
        ``lower``; ``proven`` when that move's value is proven best: every move proven, or a
        proven win) plus ``move`` (the best), ``value``, ``ci95`` and ``moves``
        (:func:`_move_data`, best first).  Each move also has ``diff`` (the best move's result
        minus its own over the same sampled orders) and ``diff_ci95`` (its paired 95% interval),
        ``null`` unless both are estimated.  Both add ``samples`` (stock orders solved),
        ``samples_asked``, ``seed``, ``inexact`` (double-dummy searches that ran out of
        ``--budget``) and ``stopped_by`` (``"time"`` or ``"interrupted"`` when the sampling was
        cut, ``"positions"`` when a move is not proven, else ``null``).
    """
    stopped = result.stopped_by or (None if result.proven else "positions")
    sampling = {
        "samples": result.samples,
        "samples_asked": result.asked,
        "seed": result.seed,
        "inexact": result.inexact,
        "stopped_by": stopped,
    }
    moves = [_move_data(state, v) for v in result.moves]
    for row, diff in zip(moves, result.diffs, strict=True):
        row["diff"] = None if diff is None else round(diff[0], 6)
        row["diff_ci95"] = None if diff is None else [round(diff[1], 6), round(diff[2], 6)]
    if all_moves:
        data = all_moves_data(state, result.moves, method="anytime")
        data.update(sampling, moves=moves, nodes=result.nodes, seconds=round(result.seconds, 4))
        return data
    best = result.moves[0]
    n = state.rules.players
    settled = result.settled  # the best move's value is proven best (a proven win settles it)
    winner = next((p for p in range(n) if best.outcome[p] > 1 - 1e-9), None) if settled else None
    probabilities = {str(p): round(best.outcome[p], 6) for p in range(n)}
    probabilities["draw"] = round(best.outcome[n], 6)
    return {
        "winner": winner,
        "proven": settled,
        "pv": moves[0]["pv"],
        "nodes": result.nodes,
        "values": moves[0]["values"],
        "mode": "expectimax",
        "seconds": round(result.seconds, 4),
        "bounds": {
            "player": result.player,
            "lower": round(result.lower, 6),
            "upper": round(result.upper, 6),
        },
        "estimate": not settled,
        "probabilities": probabilities,
        "method": "anytime",
        "move": moves[0]["move"],
        "value": moves[0]["value"],
        "ci95": moves[0]["ci95"],
        **sampling,
        "stopped_by": None if settled else stopped,
        "moves": moves,
    }


def why_data(
    state: GameState,
    explanation: Explanation,
    *,
    samples: int | None,
    seed: int,
    time_limit: float,
    progress: Callable[[int, int], None] | None = None,
    view: bool = False,
) -> dict[str, Any]:
    """``why --json``: the rule facts forbidding a move, or how a legal move compares with the
    best on the same sampled deals as hint (not for the bare ``take``, which names no move).
    With ``view`` the comparison is always from the acting player's view, as a hint's (no exact
    search where every card is known).

    Parameters
    ----------
    state : GameState
    explanation : Explanation
        :func:`analyzer.solver.why.explain`'s answer for the move.
    samples : int or None
        Deals sampled for the comparison (None: the engine's default).
    seed : int
        Their seed.
    time_limit : float
        Most seconds of sampling for the comparison (``math.inf``: none; without ``samples`` it
        samples until the verdict is settled, as hint).
    progress : callable, optional
        Called with (deals done, deals planned).

    Returns
    -------
    dict
        ``move``, ``legal``, ``facts``; for a legal choice also ``comparison`` (``rank``, ``of``,
        ``best``, ``win``, ``best_win``, ``expected``, ``best_expected``, ``samples``, ``move_samples``,
        ``time_limited``; where every card is known and every move's search is proven also
        ``exact`` true, ``winner`` and ``best_winner``: one deal, searched exactly, no
        sampling).  ``move_samples`` counts the deals (``v3``: iterations) that tried the
        move; with 0 it was never tried and its ``win`` and ``expected`` (0) are no estimate.
        ``best`` is the first move of the ranking, which ``v3`` orders by visits, so with few
        samples its ``best_expected`` may be below ``expected``.

    Raises
    ------
    PositionError
        If the comparison needs a hidden hand (R6).
    """
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
        if _all_known(state) and not view:
            # Half the time for the exact search; where it does not prove every move, the
            # sampling of a hint gets the rest.
            started = time.perf_counter()
            exact = _exact_comparison(state, asked, time_limit / 2)
            if exact is not None:
                data["comparison"] = exact
                return data
            time_limit = max(time_limit / 2, time_limit - (time.perf_counter() - started))
        advice = advise(
            state,
            samples=samples,
            seed=seed,
            time_limit=time_limit,
            extra=[asked],
            progress=progress,
            until_decided=samples is None,
            searches=MCTS_SEARCHES if samples is None else 1,
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
            "time_limited": advice.time_limited,
            # The deals (v3: iterations) that evaluated this move; 0: never tried, no estimate.
            "move_samples": mine.samples,
        }
    return data


def _all_known(state: GameState) -> bool:
    """Every hand and the stock order known (a puzzle, a whole deal): nothing to sample."""
    return all(h is not None for h in state.hands) and (state.stock is not None or not state.stock_count)


def _exact_comparison(state: GameState, asked: Move, time_limit: float) -> dict[str, Any] | None:
    """``why``'s comparison by the exact search of every legal move (R19, R20), for a position
    where every card is known; None when a search is not proven within ``time_limit``."""
    lab = state.rules.labels
    player = state.to_act
    values = solve_moves(state, time_limit=time_limit)
    if not all(v.proven for v in values):
        return None
    mine = next(v for v in values if v.move == asked)
    best = values[0]
    better = sum(v.values[player] > mine.values[player] + 1e-9 for v in values)
    return {
        "rank": better + 1,
        "of": len(values),
        "best": best.text(lab),
        "win": round(mine.outcome[player], 6),
        "best_win": round(best.outcome[player], 6),
        "expected": round(mine.values[player], 6),
        "best_expected": round(best.values[player], 6),
        "samples": 1,
        "time_limited": False,
        "move_samples": 1,
        # Every card known: one deal, searched to its end; the values are proven results.
        "exact": True,
        "winner": _winner(mine.outcome),
        "best_winner": _winner(best.outcome),
    }


def _winner(outcome: tuple[float, ...]) -> int | None:
    """The player who wins for sure in an exact outcome vector, None for a draw (R18, R20)."""
    return next((p for p, chance in enumerate(outcome[:-1]) if chance > 1 - 1e-9), None)


def arrangement_data(result: Arrangement, lab: Labels) -> dict[str, Any]:
    """An arrangement of ``melds --json``: feasible, melded count, melds, unmelded, optimal.

    Parameters
    ----------
    result : Arrangement
        :func:`analyzer.solver.partition.solve_arrangement`'s answer.
    lab : Labels
        The labels of the cards (R2).

    Returns
    -------
    dict
        ``feasible``, ``melded`` (cards), ``melds`` (lists of card texts, R4, R5),
        ``unmelded``, ``optimal``.
    """
    return {
        "feasible": result.feasible,
        "melded": result.melded,
        "melds": [format_mask(m, lab).split() for m in result.melds],
        "unmelded": format_mask(result.unmelded, lab).split(),
        "optimal": result.optimal,
    }


def notation_data(state: GameState) -> dict[str, Any]:
    """``notation --json``: the one-line notation and the same position as position data.

    Parameters
    ----------
    state : GameState

    Returns
    -------
    dict
        ``notation`` (:func:`analyzer.formats.notation.format_notation`) and ``position``
        (:func:`analyzer.formats.position.dump_position`), in ``state.rules.labels``.
    """
    return {
        "notation": format_notation(state),
        "position": dump_position(state),
    }


def review_data(result: GameReview, labels: Labels) -> dict[str, Any]:
    """``review --json``: ``moves`` (ply, player, move, best, win_best, win_played, loss,
    label, expected_best, expected_played, drop) and ``summary`` (player, accuracy, and the count of each label), plus the
    ``settings`` the review ran with (samples, seed, time limit, engine, method, one_tree,
    scale, thresholds).

    Parameters
    ----------
    result : GameReview
        :func:`analyzer.analysis.review.review_game`'s answer.
    labels : Labels
        The labels of the moves' cards (R2).

    Returns
    -------
    dict
        ``moves``: per decision ``ply`` (from 1), ``player``, ``move``, ``best``, ``win_best``
        and ``win_played`` (win chances 0..1), ``loss`` (win chance given up, at least 0),
        ``label``, ``expected_best`` and ``expected_played`` (win - loss, -1..1, R20) and
        ``drop`` (expected result given up, 0..2: what the label is read from); ``summary``: per player ``player``, ``accuracy`` (0..100, ``None`` without
        decisions) and the count of each label; ``settings``.  See ``docs/review.md``.
    """
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
            # What the label is read from, so that the JSON shows why a blunder whose win
            # chance is higher than the best's is one.
            "expected_best": round(m.expected_best, 6),
            "expected_played": round(m.expected_played, 6),
            "drop": round(m.drop, 6),
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
    found = ENGINES.get(result.engine)
    return {
        "moves": moves,
        "summary": summary,
        # The seat whose view was reviewed (his decisions only), null for every seat.
        "view": result.view,
        "settings": {
            "samples": result.samples,
            "seed": result.seed,
            "time_limit": result.time_limit if math.isfinite(result.time_limit) else None,
            "time_limited": result.time_limited,
            "until_decided": result.until_decided,
            "engine": result.engine,
            "method": found.method_name if found is not None else "",
            # What differs by engine is read from its attributes (analyzer.analysis.engines):
            # an IS-MCTS review's samples count iterations, and a fixed number ran one search.
            "one_tree": found is not None and found.one_tree,
            "scale": list(SCALE),
            "thresholds": {str(label): least for label, least in THRESHOLDS},
        },
    }
