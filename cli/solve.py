"""``conquian solve``: the value of a position under best play with every hand known.

With the stock order given, one exact search (or one per move with ``--all-moves``); with it
unknown, the anytime answer of :func:`analyzer.search.anytime.solve_anytime` (``--exact``: the
expectimax alone).
"""

from __future__ import annotations

import enum
from contextlib import nullcontext
from typing import Annotated

import typer
from rich.table import Table

from analyzer.core.cards import counted
from analyzer.core.errors import PositionError
from analyzer.core.state import GameState
from analyzer.search.allmoves import MoveValue, solve_moves
from analyzer.search.anytime import DEFAULT_PROVE, DEFAULT_SAMPLES, solve_anytime
from analyzer.search.equilibrium import DEFAULT_MAX_NODES
from analyzer.search.exact import solve as search_solve
from analyzer.search.guarantees import guarantees
from analyzer.search.limits import MAX_POSITIONS
from analyzer.service.results import (
    ANYTIME_TIME_LIMIT,
    EXACT_TIME_LIMIT,
    GUARANTEE_UNUSED,
    all_moves_data,
    anytime_data,
    guarantees_data,
    needs_anytime,
    solve_data,
    solve_notes,
)
from cli.console import emit, err, out
from cli.endgame import print_equilibrium, try_equilibrium
from cli.inputs import POSITION_HELP, position_arg
from cli.options import (
    BudgetOpt,
    JsonOpt,
    LabelsOpt,
    given_options,
    samples_option,
    seed_option,
    time_limit_option,
)
from cli.progress import interruptible, progress

__all__ = [
    "ANYTIME_TIME_LIMIT",
    "EXACT_TIME_LIMIT",
    "SearchMode",
    "needs_anytime",
    "solve",
    "solve_notes",
]


TOP = 5
"""Moves ``solve`` lists by default with the stock order unknown (``--top``); the rest are
counted in one line."""


CLOSE_NAMED = 3
"""Moves not separated from the best that the answer names; the others are counted."""


class SearchMode(enum.StrEnum):
    """Search mode of ``conquian solve``."""

    AUTO = "auto"
    MAXN = "maxn"
    PARANOID = "paranoid"


def solve(
    ctx: typer.Context,
    position: Annotated[
        str,
        typer.Argument(
            metavar="POSITION",
            help=POSITION_HELP + " Every hand known, or a two-player view (the hand of the player "
            "to act): then the endgame's equilibrium.",
        ),
    ],
    budget: BudgetOpt = 2_000_000,
    time_limit: Annotated[
        float | None,
        time_limit_option(
            f"Most seconds to search (default: {EXACT_TIME_LIMIT:g} for an exact search; "
            f"{ANYTIME_TIME_LIMIT:g}, a cap, with the stock order unknown: when it cuts the "
            "sampling, the answer says so).",
            least=0.01,
            show_default=True,
        ),
    ] = None,
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
    samples: Annotated[
        int | None,
        samples_option(
            f"Stock order unknown: stock orders to sample for the moves not proven, each "
            f"solved double-dummy (default {DEFAULT_SAMPLES}, on any machine).",
            show_default=True,
        ),
    ] = None,
    seed: Annotated[int | None, seed_option("Seed of the sampled stock orders (default 0).")] = None,
    prove: Annotated[
        int | None,
        typer.Option(
            "--prove",
            min=0,
            max=MAX_POSITIONS,
            metavar="N",
            help=f"Stock order unknown: positions of each move's exact expectimax, the proof "
            f"(default {DEFAULT_PROVE:,}; 0: none).",
        ),
    ] = None,
    exact: Annotated[
        bool,
        typer.Option(
            "--exact",
            help="Stock order unknown: the exact expectimax alone, within --budget and "
            "--time-limit, instead of the anytime answer.",
        ),
    ] = False,
    top: Annotated[
        int | None,
        typer.Option(
            "--top",
            min=0,
            metavar="N",
            help=f"Show at most N moves, best first, the rest counted in one line (default: "
            f"{TOP} with the stock order unknown, every move with --all-moves; in --json every "
            "move unless --top is given; 0: every move).",
            show_default=False,
        ),
    ] = None,
    each: Annotated[
        bool,
        typer.Option(
            "--guarantees",
            help="Who can win: for each player the best result he can force against any play "
            "of the others (a paranoid search for each, --budget each, --time-limit for all), "
            "and the outcomes of best play those results leave. Every card known.",
        ),
    ] = False,
    read: Annotated[
        bool,
        typer.Option(
            "--read",
            help="A view: deal the hidden hands by the reading of the cards each player gave up "
            "(as hint --read), instead of uniformly.",
        ),
    ] = False,
    labels: LabelsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Solve a position with every hand known under best play (double-dummy).

    On a two-player view (the hand of the player to act known, the other hidden) the answer is
    the endgame's equilibrium: the hidden hands dealt uniformly (or --read), the deal played out
    as a game of hidden cards and solved exactly; the strategy of the player to act (mixed
    where it mixes), his hand's value, each move's value and the exploitability; --budget caps
    the endgame's positions (default 200,000).

    With the stock order unknown the answer is anytime: each move's exact expectimax where it
    finishes within --prove positions, else its mean over --samples sampled stock orders, each
    solved double-dummy, with a 95% interval; proven and estimated values are marked.
    """
    pos = position_arg(position, labels)
    state = pos.state
    if each:
        _guarantees(ctx, state, pos.name, budget, time_limit, as_json)
        return
    if any(h is None for h in state.hands):
        useless = given_options(ctx, "time_limit", "mode", "all_moves", "samples", "seed", "prove", "exact")
        for option in useless:
            err.print(f"Note: {option} has no effect on a view (the endgame's equilibrium).", markup=False)
        limit = budget if given_options(ctx, "budget") else DEFAULT_MAX_NODES
        _view(state, pos.name, limit, read, top, as_json)
        return
    if read:
        err.print("Note: --read has no effect with every hand known.", markup=False)
    anytime = needs_anytime(state) and not exact
    given = {"mode": mode is not SearchMode.AUTO, "samples": samples is not None,
             "seed": seed is not None, "prove": prove is not None, "exact": exact}  # fmt: skip
    notes = solve_notes(state, given)
    if top is not None and not (anytime or all_moves):
        notes.append(
            "--top has no effect: with the stock order given (or --exact) solve answers the best "
            "move and its line; --all-moves lists the moves"
        )
    for message in notes:
        err.print(f"Note: {message}.", markup=False, soft_wrap=True)
    if state.rules.players == 2:
        mode = SearchMode.AUTO  # the same search either way (noted above when given)
    lab = state.rules.labels
    if anytime:
        _anytime(
            state,
            pos.name,
            mode=mode,
            samples=DEFAULT_SAMPLES if samples is None else samples,
            seed=0 if seed is None else seed,
            prove=DEFAULT_PROVE if prove is None else prove,
            budget=budget,
            time_limit=ANYTIME_TIME_LIMIT if time_limit is None else time_limit,
            all_moves=all_moves,
            top=top,
            as_json=as_json,
        )
        return
    if time_limit is None:
        time_limit = EXACT_TIME_LIMIT
    if all_moves:
        _all_moves(state, pos.name, mode, budget, time_limit, top, as_json)
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
    elif result.proven:
        ends = "the deal is a draw" if result.winner is None else f"player {result.winner} wins"
        out.print(f"{_best_play(state, result.mode)} {ends}.")
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


def _best_play(state: GameState, mode: str) -> str:
    """The words before a proven result: best play with two players; with more, which best play
    (max-n, or the others' coalition of paranoid), since it has no one value (R20)."""
    if state.rules.players == 2:
        return "Under best play"
    if mode == "paranoid":
        return f"With the others playing together against player {state.to_act} (paranoid),"
    return (
        "With each player playing for himself (max-n, ties to the move listed first; "
        "--guarantees says what each can force),"
    )


def _guarantees(
    ctx: typer.Context, state: GameState, name: str, budget: int, time_limit: float | None, as_json: bool
) -> None:
    """``solve --guarantees``: each player's guarantee and the outcomes left (R20)."""
    for option in given_options(ctx, *GUARANTEE_UNUSED, "read"):
        err.print(f"Note: {option} has no effect with --guarantees.", markup=False)
    spinner = err.status("searching...") if not as_json and err.is_terminal else nullcontext()
    with spinner, interruptible() as stop:
        found = guarantees(
            state,
            max_nodes=budget,
            time_limit=EXACT_TIME_LIMIT if time_limit is None else time_limit,
            stop=stop,
        )
    data = guarantees_data(state, found)
    if as_json:
        emit(data)
        return
    out.print(f"Position: {name}: {state.describe()}.", markup=False)
    out.print("What each player can force against any play of the others (paranoid search):")
    for g, shown in zip(found.players, data["guarantees"], strict=True):
        text = f"{g.result}: {shown['meaning']}" if g.proven else f"not proven: {_bounds_text(g.lower, g.upper)}"
        out.print(f"  player {g.player}: {text} ({counted(g.nodes, 'position')})", markup=False)
    out.print(data["summary"], markup=False)
    out.print(
        f"{'Proven' if found.proven else 'NOT proven'}: {counted(found.nodes, 'position')} in "
        f"{found.seconds:.2f} s."
    )
    lab = state.rules.labels
    for g in found.players:
        if g.result == "win" and g.pv:
            out.print(f"Player {g.player}'s line against the others' best reply:")
            for k, move in enumerate(g.pv, 1):
                out.print(f"  {k:>3}. {move.text(lab)}", markup=False)


def _view(state: GameState, name: str, max_nodes: int, read: bool, top: int | None, as_json: bool) -> None:
    """``solve`` on a two-player view: the endgame's equilibrium (cli/endgame.py).

    Raises
    ------
    PositionError
        If the view is not one whose endgame can be solved (three players or more, the
        exchange, the hand of the player to act hidden), naming what to use instead.
    """
    if state.rules.players != 2:
        raise PositionError(
            f"solving a view is for two players (the endgame's equilibrium); this {state.rules.name} "
            f"deal has {state.rules.players}: use hint, or give every hand"
        )
    found = try_equilibrium(state, max_nodes, read)
    if isinstance(found, str):
        raise PositionError(f"{found}; 'conquian hint' answers from the view by sampled deals")
    print_equilibrium(state, found, name=name, read=read, as_json=as_json, top=top)


def _bounds_text(lower: float, upper: float) -> str:
    """Proven bounds on an expected result (R20: win +1, draw 0, loss -1) in words."""
    if lower <= -1.0 and upper >= 1.0:
        return "nothing yet"
    if lower == upper:
        return {1.0: "a win", 0.0: "a draw", -1.0: "a loss"}.get(lower, f"{lower:+.2f}")
    parts = []
    if lower > -1.0:
        parts.append(
            f"at least {lower:+.2f}"
            if lower not in (0.0, 1.0)
            else f"at least a {'draw' if lower == 0 else 'win'}"
        )
    if upper < 1.0:
        parts.append(
            f"at most {upper:+.2f}"
            if upper not in (0.0, -1.0)
            else f"at most a {'draw' if upper == 0 else 'loss'}"
        )
    return " and ".join(parts) + " (win +1, draw 0, loss -1)"


def _shown(count: int, top: int | None, default: int | None) -> int:
    """How many of ``count`` moves to list: ``--top`` when given (0: all), else ``default``
    (``None``: all)."""
    limit = default if top is None else top
    return count if not limit else min(limit, count)


def _more(count: int, shown: int) -> None:
    """The line counting the moves not listed: ``... and 48 more moves: --top 0 lists all.``"""
    if count > shown:
        out.print(f"... and {counted(count - shown, 'more move')}: --top 0 lists all.")


def _all_moves(
    state: GameState,
    name: str,
    mode: SearchMode,
    budget: int,
    time_limit: float,
    top: int | None,
    as_json: bool,
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
        emit({**data, "moves": data["moves"][: _shown(len(values), top, None)]})
        return
    shown = _shown(len(values), top, None)
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
    for k, (value, row) in enumerate(zip(values[:shown], data["moves"], strict=False), 1):
        line = "; ".join(row["pv"][1:6]) + (" ..." if len(row["pv"]) > 6 else "")
        table.add_row(
            str(k),
            value.text(lab),
            f"{value.values[me]:+.3f}",
            "yes" if value.proven else f"no ({value.stopped_by or 'budget'})",
            line or "-",
        )
    out.print(table)
    _more(len(values), shown)
    out.print(
        f"{'Proven' if data['proven'] else 'NOT all proven'}: {counted(data['nodes'], 'position')} in "
        f"{data['seconds']:.2f} s."
    )


def _anytime(
    state: GameState,
    name: str,
    *,
    mode: SearchMode,
    samples: int,
    seed: int,
    prove: int,
    budget: int,
    time_limit: float,
    all_moves: bool,
    top: int | None,
    as_json: bool,
) -> None:
    """The anytime answer with the stock order unknown (the same search for ``--all-moves``):
    the best ``top`` moves listed (default :data:`TOP`, every move with ``--all-moves``)."""
    lab = state.rules.labels
    bar = progress("sampling stock orders", as_json, transient=True)
    with bar, interruptible() as stop:
        task = bar.add_task("orders", total=samples)
        result = solve_anytime(
            state,
            samples=samples,
            seed=seed,
            prove=prove,
            mode=mode.value,
            max_nodes=budget,
            time_limit=time_limit,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
            stop=stop,
        )
    data = anytime_data(state, result, all_moves=all_moves)
    if as_json:
        emit({**data, "moves": data["moves"][: _shown(len(result.moves), top, None)]})
        return
    shown = _shown(len(result.moves), top, None if all_moves else TOP)
    me = result.player
    out.print(f"Position: {name}: {state.describe()}.", markup=False)
    out.print(
        f"Stock order unknown: a move is proven by its exact expectimax (within {prove:,} "
        f"positions), else estimated over {samples} sampled stock orders (seed {seed})."
    )
    best = result.moves[0]
    if not all_moves:
        out.print(
            f"Best move for player {me}: {best.text(lab)}, {_value_text(best, me)}.", markup=False
        )
        for v in result.moves[1:shown]:
            out.print(f"  {v.text(lab)}: {_value_text(v, me)}", markup=False)
    else:
        out.print(
            f"Every legal move of player {me}, best first, by his expected result "
            "(+1 win, 0 draw, -1 loss):"
        )
        table = Table(show_lines=False)
        for col, just in (("#", "right"), ("move", "left"), ("value", "right"),
                          ("95% interval", "left"), ("how", "left")):  # fmt: skip
            table.add_column(col, justify=just)  # type: ignore[arg-type]
        for k, v in enumerate(result.moves[:shown], 1):
            low, high = v.ci95 if v.ci95 is not None else (v.values[me], v.values[me])
            table.add_row(
                str(k),
                v.text(lab),
                f"{v.values[me]:+.3f}",
                "-" if v.proven else f"{low:+.2f} to {high:+.2f}",
                "proven (expectimax)" if v.proven else f"estimated ({v.samples} orders)",
            )
        out.print(table)
    _more(len(result.moves), shown)
    close = [
        v.text(lab)
        for v, d in zip(result.moves[1:], result.diffs[1:], strict=True)
        if d is not None and d[1] <= 0.0
    ]
    if close:
        # The first few by name, the rest counted: one or two lines however many moves tie.
        named = ", ".join(close[:CLOSE_NAMED])
        if len(close) > CLOSE_NAMED:
            named += f" and {len(close) - CLOSE_NAMED} more"
        out.print(
            f"Not separated from the best by these orders (paired 95% interval of the "
            f"difference holds 0): {named}; more --samples may separate them.",
            markup=False,
        )
    if not result.proven:
        out.print(f"Proven for player {me}: {_bounds_text(result.lower, result.upper)}.")
    if result.settled and not result.proven:
        out.print(
            f"Proven best: {best.text(lab)} wins for player {me}; the other moves estimated "
            f"({result.samples} stock orders): {counted(result.nodes, 'position')} in "
            f"{result.seconds:.2f} s.",
            markup=False,
        )
        return
    cut = {"time": "the time limit cut the sampling", "interrupted": "interrupted"}
    how = (
        "Proven"
        if result.proven
        else f"NOT proven, estimated ({cut[result.stopped_by]}: {result.samples} of {samples} "
        "stock orders)"
        if result.stopped_by in cut
        else f"NOT proven, estimated ({result.samples} stock orders)"
    )
    inexact = (
        f"; {counted(result.inexact, 'double-dummy search')} ran out of --budget (heuristic value)"
        if result.inexact
        else ""
    )
    out.print(
        f"{how}: {counted(result.nodes, 'position')} in {result.seconds:.2f} s{inexact}.",
        markup=False,
    )


def _value_text(v: MoveValue, me: int) -> str:
    """A move's value for player ``me`` in words: proven, or estimated with its interval."""
    value = v.values[me]
    if v.proven:
        return f"{value:+.3f}, proven (exact expectimax)"
    if v.ci95 is None:
        return f"{value:+.3f}, estimated"
    if not v.samples:
        return f"{value:+.3f}, heuristic estimate (no stock order solved in time)"
    return (
        f"{value:+.3f}, estimated (95%: {v.ci95[0]:+.2f} to {v.ci95[1]:+.2f}, {v.samples} orders)"
    )
