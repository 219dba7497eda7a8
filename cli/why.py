"""``conquian why``: why a move is illegal, or how it compares with the best."""

from __future__ import annotations

import math
from typing import Annotated, Any

import typer

from analyzer.core.cards import Labels, counted
from analyzer.core.errors import IllegalMoveError
from analyzer.core.moves import Force, parse_move
from analyzer.core.state import GameState
from analyzer.service.results import why_data
from analyzer.solver.why import explain
from cli.boundary import usage
from cli.console import emit, out
from cli.inputs import POSITION_HELP, position_arg
from cli.options import (
    SAMPLES_DEFAULTS,
    JsonOpt,
    LabelsOpt,
    samples_option,
    seed_option,
    time_limit_option,
)

__all__ = ["why"]


def why(
    position: Annotated[
        str, typer.Argument(metavar="POSITION", help=POSITION_HELP)
    ],
    move: Annotated[
        str,
        typer.Argument(
            metavar="MOVE",
            help="A move, e.g. 'take [5C 6C 7C] pay KS', or just 'take'; its cards are read in "
            "the position's labels unless its own cards decide (R2).",
        ),
    ],
    samples: Annotated[int | None, samples_option(f"Deals to sample when comparing{SAMPLES_DEFAULTS}")] = None,
    seed: Annotated[int, seed_option("Sampling seed.")] = 0,
    time_limit: Annotated[
        float,
        time_limit_option(
            "Most seconds of sampling when comparing (default: none: it samples until the "
            "verdict is settled, as hint); where every card is known (a puzzle), half of them go "
            "to the exact search first, which needs no sampling."
        ),
    ] = math.inf,
    labels: LabelsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Explain MOVE: the rule facts that forbid it, or how it compares with the best move
    (on the same sampled deals as hint; exactly, without sampling, where every card is known,
    as in a puzzle)."""
    pos = position_arg(position, labels)
    state = pos.state
    try:
        explanation = explain(state, move, labels=pos.labels)
    except IllegalMoveError as exc:
        usage(f"MOVE: {exc}")
    seat = _no_such_seat(state, move, pos.labels)
    if seat is not None:
        usage(f"MOVE: {seat}")
    data = why_data(
        state, explanation, samples=samples, seed=seed, time_limit=time_limit
    )
    if as_json:
        emit(data)
        return
    out.print(f"Position: {pos.name}: {state.describe()}.", markup=False)
    if not explanation.legal:
        out.print(f"{explanation.move} is not legal here, because:", markup=False)
        for line in explanation.facts:
            out.print(f"  - {line}", markup=False)
        return
    out.print(f"{explanation.move} is legal.", markup=False)
    comp = data.get("comparison")
    if comp and comp.get("exact"):
        out.print(_exact_text(comp, state.to_act), markup=False)
    elif comp:
        if comp["time_limited"]:
            out.print(
                "The time limit stopped sampling early: raise --time-limit for a reproducible "
                "answer."
            )
        if comp["move_samples"] == 0:
            out.print(
                f"It was not tried: the search spent its {comp['samples']} sampled deals on other "
                f"moves, so there is no estimate for it (raise --samples or --time-limit); the "
                f"best, {comp['best']}, wins {100 * comp['best_win']:.0f}%.",
                markup=False,
            )
        elif comp["rank"] == 1:
            out.print(
                f"It is the best move found: it wins {100 * comp['win']:.0f}% of "
                f"{_deals(comp)}."
            )
        elif comp["best_expected"] < comp["expected"]:
            # v3 ranks by visits: the first may have the lower mean, over more iterations.
            out.print(
                f"It ranks {comp['rank']} of {comp['of']}: it wins {100 * comp['win']:.0f}% of "
                f"{_deals(comp)}, {comp['expected'] - comp['best_expected']:.2f} more in expected "
                f"result than the first, {comp['best']} (wins {100 * comp['best_win']:.0f}%), "
                "which the search tried more often and settled on; over so few deals the "
                "difference is not reliable (raise --samples).",
                markup=False,
            )
        else:
            out.print(
                f"It ranks {comp['rank']} of {comp['of']}: it wins {100 * comp['win']:.0f}% of "
                f"{_deals(comp)}; the best, {comp['best']}, wins "
                f"{100 * comp['best_win']:.0f}% "
                f"({comp['best_expected'] - comp['expected']:.2f} more in expected result).",
                markup=False,
            )


def _no_such_seat(state: GameState, text: str, labels: Labels) -> str | None:
    """What is wrong with a move naming a player the variant does not have (``force 7`` in
    classic): no rule forbids it, it names no one, like a card that does not exist."""
    if text.strip().lower() == "take":
        return None
    move = parse_move(text, labels)
    players = state.rules.players
    if isinstance(move, Force) and not 0 <= move.player < players:
        return (
            f"{text.strip()!r} names player {move.player}, and {state.rules.name} has players 0 "
            f"to {players - 1}"
        )
    return None


def _deals(comp: dict[str, Any]) -> str:
    """``48 sampled deals``, or ``the 37 of 400 sampled deals that tried it`` when the search
    (v3: one deal per iteration) did not try the move on every deal."""
    if comp["move_samples"] == comp["samples"]:
        return counted(comp["samples"], "sampled deal")
    return f"the {comp['move_samples']} of {counted(comp['samples'], 'sampled deal')} that tried it"


def _exact_text(comp: dict[str, Any], player: int) -> str:
    """The comparison when every card is known: results under best play, no sampling (R20)."""
    mine = _result(comp["winner"], player)
    if comp["rank"] == 1:
        return f"It is a best move (exact: every card is known): under best play {mine}."
    best = _result(comp["best_winner"], player)
    return (
        f"It ranks {comp['rank']} of {comp['of']} (exact: every card is known): under best play "
        f"{mine}; after the best, {comp['best']}, {best}."
    )


def _result(winner: int | None, player: int) -> str:
    if winner is None:
        return "the deal is a draw"
    return f"player {player} wins" if winner == player else f"player {winner} wins"
