"""The equilibrium of a two-player endgame from the player to act's view: ``solve`` on a view and
``hint --exact`` (docs/solve.md, Views: equilibrium endgames)."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from analyzer.analysis.endgame import solve_view
from analyzer.core.cards import counted
from analyzer.core.errors import ConquianError
from analyzer.core.state import GameState
from analyzer.search.equilibrium import EndgameTooLarge, Equilibrium
from analyzer.service.endgames import (
    PLAYED,
    equilibrium_data,
    how_solved,
    played_moves,
    ranked,
    signed,
)
from cli.console import emit, err, out
from cli.progress import interruptible

__all__ = ["print_equilibrium", "too_large_text", "try_equilibrium"]

def try_equilibrium(state: GameState, max_nodes: int, read: bool, option: str = "--budget") -> Equilibrium | str:
    """The endgame's equilibrium, or why it cannot be had within ``max_nodes`` positions (the
    text of :func:`too_large_text`); Ctrl-C stops the build the same way.

    Raises
    ------
    PositionError
        If the position is not a two-player one after the exchange with the mover's hand known.
    """
    spinner = err.status("solving the endgame...") if err.is_terminal else None
    try:
        with interruptible() as stop:
            if spinner is not None:
                spinner.start()
            return solve_view(state, max_nodes=max_nodes, read=read, stop=stop)
    except EndgameTooLarge as exc:
        return too_large_text(exc, max_nodes, option)
    finally:
        if spinner is not None:
            spinner.stop()


def too_large_text(exc: ConquianError, max_nodes: int, option: str = "--budget") -> str:
    """Why an endgame was not solved: too large for the budget (``option`` raises it), or stopped."""
    if "stopped" in str(exc):
        return "the endgame was not solved: stopped"
    return f"the endgame has more than {max_nodes:,} positions, too many to solve exactly ({option})"


def print_equilibrium(
    state: GameState, eq: Equilibrium, *, name: str, read: bool, as_json: bool, top: int | None, more: str = "--top 0 lists all"
) -> dict[str, Any]:
    """Print the equilibrium (or, with ``as_json``, its data) and return its data; ``more`` says how
    to list the moves past ``top``."""
    data = equilibrium_data(state, eq, read=read)
    if as_json:
        emit(data)
        return data
    me = eq.player
    prior = (
        "dealt by the reading of the cards each player gave up, --read"
        if read
        else "dealt uniformly among those consistent with what is public"
    )
    out.print(f"Position: {name}: {state.describe()}.", markup=False)
    out.print(
        f"Equilibrium of the endgame from player {me}'s view: the hands not shown {prior} "
        f"({_many(eq.deals, 'deal')}, {_many(eq.nodes, 'position')}, "
        f"{_many(eq.infosets, 'information set')}; exploitability {eq.exploitability:.6f}"
        f"{'' if eq.method == 'lp' else ', CFR+ to ' + format(eq.tolerance, '.4f')}, {eq.seconds:.1f} s).",
        markup=False,
    )
    out.print(f"Value of player {me}'s hand: {signed(eq.value)} (win +1, draw 0, loss -1).", markup=False)
    table = Table(show_header=True, box=None, pad_edge=False)
    table.add_column("move")
    table.add_column("probability", justify="right")
    table.add_column("value", justify="right")
    lab = state.rules.labels
    moves = ranked(eq)
    shown = moves if top is None or top == 0 else moves[:top]
    for move in shown:
        p = eq.strategy[move]
        table.add_row(move.text(lab), f"{p:.3f}" if p >= PLAYED else "0", signed(eq.move_values[move]))
    out.print(table)
    if len(shown) < len(moves):
        out.print(f"... and {counted(len(moves) - len(shown), 'more move')}: {more}.", markup=False)
    mixed = played_moves(eq)
    if len(mixed) > 1:
        out.print(
            f"The equilibrium mixes {len(mixed)} moves: each is worth the hand's value, and playing "
            "them in these proportions leaves the other player nothing to exploit.",
            markup=False,
        )
    traces = [m for m in moves if eq.strategy[m] >= PLAYED and m not in mixed]
    if traces:
        out.print(
            f"{', '.join(m.text(lab) for m in traces)}: worth less than the best, "
            f"{'it keeps' if len(traces) == 1 else 'they keep'} a trace of probability from CFR+, "
            f"which stops at a tolerance (the endgame {how_solved(eq)}).",
            markup=False,
        )
    out.print(
        "A move's value is what his hand is worth if he plays it and both play the equilibrium "
        "afterwards; "
        + (
            "the hidden hands were dealt by the reading of the cards each player gave up."
            if read
            else "the deal of the hidden hands ignores what earlier play said of them (--read weighs it "
            "by the cards each gave up)."
        ),
        markup=False,
    )
    return data


def _many(number: int, noun: str) -> str:
    """``1,268 information sets``: a count with thousands separated."""
    return f"{number:,} {noun}{'' if number == 1 else 's'}"
