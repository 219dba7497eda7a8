"""``conquian solve``: the value of a position under best play with every hand known."""

from __future__ import annotations

import enum
from contextlib import nullcontext
from typing import Annotated

import typer
from rich.table import Table

from analyzer.core.cards import counted
from analyzer.core.state import GameState
from analyzer.search.allmoves import solve_moves
from analyzer.search.exact import solve as search_solve
from cli.boundary import usage
from cli.console import emit, err, out
from cli.inputs import POSITION_HELP, position_arg
from cli.options import BudgetOpt, JsonOpt, LabelsOpt, TimeOpt
from cli.progress import interruptible, progress
from cli.results import all_moves_data, solve_data

__all__ = ["SearchMode", "solve"]


class SearchMode(enum.StrEnum):
    """Search mode of ``conquian solve``."""

    AUTO = "auto"
    MAXN = "maxn"
    PARANOID = "paranoid"


def solve(
    position: Annotated[
        str,
        typer.Argument(metavar="POSITION", help=POSITION_HELP + " Every hand must be known."),
    ],
    budget: BudgetOpt = 2_000_000,
    time_limit: TimeOpt = 60.0,
    mode: Annotated[
        SearchMode,
        typer.Option("--mode", help="3 players: maxn or paranoid.", case_sensitive=False),
    ] = SearchMode.AUTO,
    all_moves: Annotated[
        bool,
        typer.Option(
            "--all-moves",
            help="The value of every legal move of the player to act, best first, each with its "
            "proof and principal variation (like MultiPV); --budget is per move, --time-limit "
            "for all of them.",
        ),
    ] = False,
    labels: LabelsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Solve a position with every hand known under best play (double-dummy)."""
    pos = position_arg(position, labels)
    state = pos.state
    if mode is not SearchMode.AUTO and state.rules.players == 2:
        usage(
            f"--mode {mode.value} chooses how three players are searched; this position has two "
            "players, whose search is the same either way: it has no effect"
        )
    lab = state.rules.labels
    if all_moves:
        _all_moves(state, pos.name, mode, budget, time_limit, as_json)
        return
    spinner = err.status("searching...") if not as_json and err.is_terminal else nullcontext()
    with spinner, interruptible() as stop:
        result = search_solve(
            state, mode=mode.value, max_nodes=budget, time_limit=time_limit, stop=stop
        )
    n = state.rules.players
    data = solve_data(state, result)
    if as_json:
        emit(data)
        return
    out.print(f"Position: {pos.name}: {state.describe()}.", markup=False)
    if result.mode == "expectimax":
        parts = ", ".join(f"player {p} wins {result.outcome[p]:.3f}" for p in range(n))
        kind = "exact chances" if result.proven else "NOT proven, heuristic estimate only"
        out.print(
            f"Stock order unknown: expectimax over the stock cards ({kind}): {parts}, "
            f"draw {result.outcome[n]:.3f}."
        )
    elif result.winner is None and result.proven:
        out.print("Under best play the deal is a draw.")
    elif result.winner is not None:
        out.print(f"Under best play player {result.winner} wins.")
    else:
        estimate = ", ".join(f"player {p} {result.values[p]:+.2f}" for p in range(n))
        out.print(f"Not proven within the budget; estimated results: {estimate}.")
    if not result.proven:
        me = state.to_act  # on a turn (R10): the player who turns, as the search
        out.print(f"Proven for player {me}: {_bounds_text(result.lower, result.upper)}.")
    stop_text = {
        "positions": "position budget spent",
        "time": "time limit reached",
        "interrupted": "interrupted: best answer found so far",
    }.get(result.stopped_by or "", "budget spent")
    out.print(
        f"{'Proven' if result.proven else f'NOT proven ({stop_text})'}: "
        f"{counted(result.nodes, 'position')} in {result.seconds:.2f} s ({result.mode})."
    )
    if result.pv:
        out.print("Principal variation:" if result.proven else "Best line found so far:")
        for k, move in enumerate(result.pv, 1):
            out.print(f"  {k:>3}. {move.text(lab)}", markup=False)


def _bounds_text(lower: float, upper: float) -> str:
    """Proven bounds on an expected result (R20: win +1, draw 0, loss -1) in words."""
    if lower <= -1.0 and upper >= 1.0:
        return "nothing yet"
    if lower == upper:
        return {1.0: "a win", 0.0: "a draw", -1.0: "a loss"}.get(lower, f"{lower:+.2f}")
    parts = []
    if lower > -1.0:
        parts.append(f"at least {lower:+.2f}" if lower not in (0.0, 1.0) else f"at least a {'draw' if lower == 0 else 'win'}")
    if upper < 1.0:
        parts.append(f"at most {upper:+.2f}" if upper not in (0.0, -1.0) else f"at most a {'draw' if upper == 0 else 'loss'}")
    return " and ".join(parts) + " (win +1, draw 0, loss -1)"


def _all_moves(
    state: GameState, name: str, mode: SearchMode, budget: int, time_limit: float, as_json: bool
) -> None:
    lab = state.rules.labels
    bar = progress("solving moves", as_json, transient=True)
    with bar, interruptible() as stop:
        task = bar.add_task("moves", total=None)
        values = solve_moves(
            state,
            mode=mode.value,
            max_nodes=budget,
            time_limit=time_limit,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
            stop=stop,
        )
    data = all_moves_data(state, values)
    if as_json:
        emit(data)
        return
    me = state.to_act
    out.print(f"Position: {name}: {state.describe()}.", markup=False)
    out.print(
        f"Every legal move of player {me}, best first, by his expected result under best play "
        "(+1 win, 0 draw, -1 loss):"
    )
    table = Table(show_lines=False)
    for col, just in (("#", "right"), ("move", "left"), ("value", "right"), ("proven", "left"),
                      ("principal variation", "left")):  # fmt: skip
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for k, (value, row) in enumerate(zip(values, data["moves"], strict=True), 1):
        line = "; ".join(row["pv"][1:6]) + (" ..." if len(row["pv"]) > 6 else "")
        table.add_row(
            str(k),
            value.move.text(lab),
            f"{value.values[me]:+.3f}",
            "yes" if value.proven else f"no ({value.stopped_by or 'budget'})",
            line or "-",
        )
    out.print(table)
    out.print(
        f"{'Proven' if data['proven'] else 'NOT all proven'}: {counted(data['nodes'], 'position')} in "
        f"{data['seconds']:.2f} s."
    )
