"""``conquian hint``: the choices of the player to act, ranked, from his own view."""

from __future__ import annotations

import math
from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table

from analyzer.analysis.advisor import (
    DEFAULT_ENGINE,
    Advice,
    check_open,
)
from analyzer.analysis.engines import ENGINES, MCTS_SEARCHES
from analyzer.analysis.lines import Line, line_text
from analyzer.analysis.static import static_hints
from analyzer.analysis.verdict import verdict_sentence
from analyzer.analysis.whereabouts import DEFAULT_CARD_SAMPLES, STOCK, Whereabouts, basis_text
from analyzer.core.cards import counted, format_card
from analyzer.core.dealing import view
from analyzer.core.errors import PositionError
from analyzer.core.rules import Rules
from analyzer.core.state import GameState
from analyzer.search.equilibrium import DEFAULT_MAX_NODES, Equilibrium
from analyzer.search.evaluation import evaluator_for
from analyzer.search.limits import MAX_POSITIONS, MAX_SAMPLES, MAX_SEED
from analyzer.service.endgames import auto_hint, solved_hint_data, solved_text
from analyzer.service.hint_extras import cards_data, cards_only_data, with_lines
from analyzer.service.hints import CARD_OPTIONS, HINT_ONLY, SAMPLING, HintOptionError, HintOptions
from analyzer.service.results import hint_data, static_data
from cli.boundary import domain, usage
from cli.console import emit, note, out
from cli.endgame import print_equilibrium, try_equilibrium
from cli.inputs import POSITION_HELP, position_arg
from cli.options import SAMPLES_DEFAULTS, EngineOpt, JsonOpt, LabelsOpt, given_options
from cli.progress import interruptible, progress

__all__ = ["SAMPLING_OPTIONS", "hint"]

SAMPLING_OPTIONS = SAMPLING  # the options a static hint does not read
"""The parameters of the sampling search, which --static does without."""


def hint(
    ctx: typer.Context,
    position: Annotated[
        str | None,
        typer.Argument(
            metavar="POSITION",
            help=POSITION_HELP + " Default: the bundled position.",
            show_default=False,
        ),
    ] = None,
    samples: Annotated[
        int | None,
        typer.Option(
            "--samples",
            "-n",
            min=1,
            max=MAX_SAMPLES,
            metavar="N",
            help="Most deals of the hidden cards to sample"
            f"{SAMPLES_DEFAULTS}",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", min=0, max=MAX_SEED, metavar="S", help="Sampling seed: same seed, same answer.")
    ] = 0,
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit",
            min=0.05,
            metavar="SECONDS",
            help="Most seconds to spend, a cap. Default: none; the hint samples in seeded "
            "batches until its verdict is settled or its deal cap is reached, so the same "
            "position and seed give the same answer on any machine.",
            show_default=False,
        ),
    ] = None,
    budget: Annotated[
        int | None,
        typer.Option(
            "--budget",
            min=100,
            max=MAX_POSITIONS,
            metavar="N",
            help="Positions searched per sampled deal (engine v1: per move and deal); "
            "default: the engine's.",
            show_default=False,
        ),
    ] = None,
    engine: EngineOpt = DEFAULT_ENGINE,
    static: Annotated[
        bool,
        typer.Option(
            "--static",
            help="One-move static evaluation only (instant, no sampling; so without --samples, "
            "--seed, --time-limit, --budget and --engine), from what the player to act sees "
            "(with --open: every hand given).",
        ),
    ] = False,
    open_hands: Annotated[
        bool,
        typer.Option("--open", help="Use every given hand and the stock as known (double-dummy)."),
    ] = False,
    read: Annotated[
        bool | None,
        typer.Option(
            "--read/--no-read",
            help="Draw the hidden hands by the cards their players were seen to give up "
            "(each player's 'paid' in the position, a paid centre card, the card passed to you "
            "in the exchange): cards that meld with them less often. Default: the engine's.",
            show_default=False,
        ),
    ] = None,
    reasons: Annotated[
        bool,
        typer.Option("--reasons", help="Give the reasons of every move shown (default: the first three)."),
    ] = False,
    top: Annotated[
        int | None,
        typer.Option(
            "--top",
            min=1,
            metavar="N",
            help="Show at most this many moves (default: 20 in the table, all in JSON).",
        ),
    ] = None,
    line: Annotated[
        bool,
        typer.Option(
            "--line",
            help="Under each move whose reasons are shown (in JSON: each move listed), the line "
            "the hint expects after it: each player's choice by the hint's own search on one "
            "typical sampled deal, its sampled cards marked.",
        ),
    ] = False,
    cards: Annotated[
        bool,
        typer.Option(
            "--cards",
            help="Also show what the others can hold: for each card the player to act cannot "
            "see, the chance that it is in each other hand or in the stock, from the hint's own "
            "sampler (declines, the card passed in the exchange, --read).",
        ),
    ] = False,
    view: Annotated[
        int | None,
        typer.Option(
            "--view",
            min=0,
            metavar="P",
            help="With --cards: the table from player P's view instead, alone (no hint is run; "
            "any position where P's hand is given, a turn too).",
            show_default=False,
        ),
    ] = None,
    card_samples: Annotated[
        int | None,
        typer.Option(
            "--card-samples",
            min=1,
            max=MAX_SAMPLES,
            metavar="N",
            help=f"Deals --cards draws where its chances are sampled (default {DEFAULT_CARD_SAMPLES}; "
            "where the sampler is uniform they are exact).",
            show_default=False,
        ),
    ] = None,
    exact: Annotated[
        bool,
        typer.Option(
            "--exact",
            help="Two players: solve the endgame exactly as a game of hidden cards (the "
            "equilibrium, as solve on a view) where it is small enough; else the sampled hint, "
            "with a note.",
        ),
    ] = False,
    labels: LabelsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Rank the choices of the player to act, best first, from his own view.

    By default the hidden cards are sampled and every candidate move is solved on each sampled
    deal (win/draw/loss with 95% intervals); --static ranks every legal move by a one-move
    static evaluation instead. --line adds the line expected after each move, --cards where the
    unseen cards may be.
    """
    options = HintOptions(
        static=static,
        open_hands=open_hands,
        samples=samples,
        seed=seed,
        time_limit=math.inf if time_limit is None else time_limit,
        budget=budget,
        engine=engine,
        read=read,
        cards=cards,
        line=line,
        view=view,
        card_samples=card_samples,
        given=frozenset(
            name for name in (*SAMPLING_OPTIONS, *CARD_OPTIONS, *HINT_ONLY) if given_options(ctx, name)
        ),
    )
    unread = options.unread()
    if unread:
        typed = given_options(ctx, *unread)
        note(
            f"--static ranks moves by a one-move evaluation, without sampling: "
            f"{', '.join(typed)} {'has' if len(typed) == 1 else 'have'} no effect with it"
        )
    pos = position_arg(position, labels)
    state, name = pos.state, pos.name
    if options.cards_only:
        _cards_only(ctx, options, state, name, as_json)
        return
    if state.is_chance_node():
        domain(
            f"no move to choose: player {state.to_act} turns the next stock card (R10), and "
            "nobody chooses until it is offered (for a new deal: conquian deal --after 1; "
            "deal --after N can also stop before a turn: try another N)"
            + ("; the card table alone is given at a turn too: --cards --view P" if cards else "")
        )
    if exact and (static or open_hands):
        note(f"--exact has no effect with {'--static' if static else '--open'}: "
             + ("the one-move evaluation" if static else "every hand is used as given (double-dummy)"))
        exact = False
    if static:
        # Scored from the player's view, as the sampled hint's static_score is (not counting
        # the outs of a hand he cannot see, so that both agree); --open scores the position
        # as given.
        if open_hands:
            check_open(state)  # as the sampled hint says it
        _extra_notes(ctx, options, state)
        table = options.whereabouts(state) if cards else None
        _static_hint(state, name, top, as_json, own_view=not open_hands, cards=table)
        return
    try:
        found = options.check(state)  # the same checks as the engine's and the board's hint
    except HintOptionError as exc:
        usage(f"--{exc.option} {exc}: use --samples")
    _extra_notes(ctx, options, state)
    if found.one_deal:
        typed = given_options(ctx, *found.one_deal)
        note(
            f"with --open and the stock order given there is one deal, the position itself, "
            f"and nothing is sampled: {', '.join(typed)} {'has' if len(typed) == 1 else 'have'} no effect"
        )
    if found.read_open:
        note("--open uses every hand as given, so there is nothing to read: --read/--no-read has no effect")
    if (exact and _exact_hint(state, name, bool(read), top, as_json)) or (
        not exact and options.by_default(state) and _small_endgame(state, name, bool(read), top, as_json)
    ):
        typed = given_options(ctx, *UNSOLVED)
        if typed:
            note(f"{', '.join(typed)} {'has' if len(typed) == 1 else 'have'} no effect: the endgame was solved, nothing sampled")
        return
    bar = progress("sampling deals", as_json, transient=True)
    with bar, interruptible() as stop:
        task = bar.add_task("deals", total=samples)
        advice = options.advise(
            state,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
            stop=stop,
        )
        limit = top or 20
        # The lines of the moves shown: every move listed in JSON, else those with reasons.
        wanted = (top or len(advice.estimates)) if as_json else limit if reasons else min(3, limit)
        lines = (
            options.lines(state, advice, [e.move for e in advice.estimates[:wanted]], stop=stop)
            if line and not advice.interrupted
            else {}
        )
    table = options.whereabouts(state) if cards else None
    exact = open_hands and state.stock is not None and advice.unproven == 0
    data = hint_data(state, advice, seed=seed, open_hands=open_hands, top=None)
    moves: list[dict[str, Any]] = data["moves"]
    if as_json:
        data = {**data, "moves": moves[:top] if top else moves}
        if line:
            data = with_lines(state, advice, data, lines)
        if table is not None:
            data["cards"] = cards_data(state, table)
        emit(data)
        return
    verdict = _verdict_text(advice, moves, data["close_to_best"], exact)
    out.print(f"[bold]{_escape(verdict)}[/bold]")
    out.print(f"Position: {name}", markup=False)
    out.print(f"{state.describe()}.", markup=False)
    if exact:
        how = "Solved double-dummy with every hand and the stock as given"
    elif open_hands and state.stock is not None:
        how = (
            "Searched double-dummy with every hand and the stock as given, not to the end of "
            "every line (the values are estimates)"
        )
    elif open_hands and advice.engine == "v3":
        how = (
            f"Searched {counted(advice.samples, 'IS-MCTS iteration')} with every hand as given, the stock "
            f"cards turned at random (seed {seed})"
        )
    elif open_hands:
        how = (
            f"Evaluated on {counted(advice.samples, 'sampled stock order')}, every hand as given "
            f"(seed {seed}), each searched double-dummy"
        )
    elif advice.engine == "v3":
        how = (
            f"Searched {counted(advice.samples, 'IS-MCTS iteration')}, each on its own sampled deal of the "
            f"cards player {state.to_act} cannot see (seed {seed}), the stock order never assumed"
        )
    else:
        how = (
            f"Evaluated on {counted(advice.samples, 'sampled deal')} of the cards player {state.to_act} "
            f"cannot see (seed {seed}), each searched double-dummy"
        )
    out.print(f"{how}. {_search_text(advice, state.rules)} {advice.seconds:.1f} s.", markup=False)
    if advice.reading:
        lab = state.rules.labels
        what = "; ".join(
            f"player {q}: {' '.join(format_card(c, lab) for c in cards)}"
            for q, cards in advice.reading.items()
        )
        out.print(
            f"Hidden hands read from the cards their players gave up ({what}): cards that meld "
            "with them were drawn less often (--no-read: uniformly).",
            markup=False,
        )
    elif read:
        out.print(
            "Nothing to read: no other player has given up a card you saw (no 'paid' history, no "
            "paid centre card, no card passed to you), so the hidden hands were drawn uniformly.",
            markup=False,
        )
    if advice.interrupted:
        out.print(
            f"Interrupted: the best answer found so far, from {advice.samples} of "
            f"{advice.planned} deals."
        )
    elif advice.stopped_by == "time":
        out.print(
            f"The time limit stopped sampling after {advice.samples} of {advice.planned} deals: "
            "the answer depends on machine speed (drop --time-limit for a reproducible one)."
        )
    elif advice.time_limited:
        out.print(
            "The time limit cut a search before its --budget of positions: the answer depends "
            "on machine speed (raise --time-limit, or lower --budget, for a reproducible one)."
        )
    out.print(_move_table(moves[:limit], exact))
    if len(moves) > limit:
        out.print(f"... and {len(moves) - limit} more (use --top).")
    shown = moves[:limit] if reasons else moves[: min(3, limit)]
    for k, (m, e) in enumerate(zip(shown, advice.estimates, strict=False), 1):
        out.print(f"{k}. {_escape(m['move'])}: {_escape('; '.join(m['reasons']))}", overflow="fold")
        if line:
            _print_line(lines.get(e.move), state, advice.engine)
    if table is not None:
        _print_cards(state, table)
    out.print(f"Best move: [bold]{_escape(moves[0]['move'])}[/bold]")


UNSOLVED = ("samples", "seed", "time_limit", "budget", "engine", "line", "cards", "card_samples", "reasons")
"""The options of the sampled hint that a solved endgame does not read."""


def _exact_hint(state: GameState, name: str, read: bool, top: int | None, as_json: bool) -> bool:
    """``hint --exact``: the endgame's equilibrium from the player to act's view, printed with the
    verdict "solved"; False (with a note) where it cannot be had, for the sampled hint."""
    if state.rules.players != 2:
        note(f"--exact solves two-player endgames; this {state.rules.name} deal has {state.rules.players}: the sampled hint instead")
        return False
    if state.hands[state.to_act] is None:
        return False  # the hint says why it cannot answer for a hand it does not see
    mine = view(state, state.to_act)
    try:
        found = try_equilibrium(mine, DEFAULT_MAX_NODES, read, option="solve --budget N")
    except PositionError as exc:
        note(f"--exact: {exc}; the sampled hint instead")
        return False
    if isinstance(found, str):
        note(f"--exact: {found}; the sampled hint instead")
        return False
    _print_solved(mine, found, name, read, top, as_json)
    return True


def _small_endgame(state: GameState, name: str, read: bool, top: int | None, as_json: bool) -> bool:
    """The default hint on a small two-player endgame: its equilibrium, the exact answer in a few
    hundredths of a second (``--samples``, ``--engine`` or ``--budget`` ask for the sampled hint);
    False where the endgame is larger (:func:`analyzer.service.endgames.auto_hint`)."""
    found = auto_hint(state, read)
    if found is None:
        return False
    _print_solved(view(state, state.to_act), found, name, read, top, as_json)
    return True


def _print_solved(mine: GameState, found: Equilibrium, name: str, read: bool, top: int | None, as_json: bool) -> None:
    """Print a hint answered by the endgame's equilibrium (``--exact``, or by default on a small
    endgame): the verdict, then the equilibrium; JSON as the engine's ``hint`` answers it."""
    if as_json:
        data = solved_hint_data(mine, found, read=read)
        emit({**data, "moves": data["moves"][:top]} if top else data)
        return
    out.print(f"[bold]{_escape(solved_text(found, mine.rules.labels))}[/bold]")
    print_equilibrium(mine, found, name=name, read=read, as_json=False, top=top, more="a larger --top lists them")


def _extra_notes(ctx: typer.Context, options: HintOptions, state: GameState) -> None:
    """Note --line with --static, and --view or --card-samples without --cards (no effect)."""
    found = options.check(state) if options.static else None
    if found is not None and found.line_static:
        note("--static ranks moves without a search, so there is no line: --line has no effect")
    for option in given_options(ctx, *CARD_OPTIONS) if not options.cards else ():
        note(f"{option} chooses what --cards shows: without --cards it has no effect")


def _cards_only(
    ctx: typer.Context, options: HintOptions, state: GameState, name: str, as_json: bool
) -> None:
    """``--cards --view P``: the card table from player P's view, alone (no hint)."""
    try:
        found = options.check(state)
    except HintOptionError as exc:
        usage(f"--{exc.option} {exc}")
    if found.cards_only:
        params = {"open": "open_hands", "samples": "samples", "time_limit": "time_limit"}
        typed = given_options(ctx, *(params.get(o, o) for o in found.cards_only))
        note(
            f"--view gives the card table alone, no hint: {', '.join(typed)} "
            f"{'has' if len(typed) == 1 else 'have'} no effect"
        )
    try:
        table = options.whereabouts(state)
    except PositionError as exc:
        domain(f"--view {options.view}: {exc}")
    if as_json:
        emit(cards_only_data(state, table))
        return
    out.print(f"Position: {name}", markup=False)
    out.print(f"{state.describe()}.", markup=False)
    _print_cards(state, table)


def _print_line(found: Line | None, state: GameState, engine: str) -> None:
    """A move's expected line, indented under its reasons."""
    if found is None:
        out.print("   (no line: interrupted)")
        return
    rows = line_text(found, state.rules.labels, player=state.to_act, engine=engine)
    out.print(f"   {rows[0]}", markup=False, overflow="fold")
    for row in rows[1:]:
        out.print(f"     {row}", markup=False, overflow="fold")


def _print_cards(state: GameState, found: Whereabouts) -> None:
    """The card table: a row per unseen card (by suit, then rank), a column per place, the
    chances in percent ('-': the place cannot hold it)."""
    lab = state.rules.labels
    names = ["stock" if p == STOCK else f"player {p}" for p in found.places]
    held = "; ".join(f"{n}: {counted(c, 'card')}" for n, c in zip(names, found.counts, strict=True))
    out.print(
        f"What the others can hold: the chance that each card player {found.player} cannot "
        f"see is in each place ({held}).",
        markup=False,
    )
    out.print(basis_text(found, lab), markup=False)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
    table.add_column("card", no_wrap=True)
    for n in names:
        table.add_column(n, justify="right", no_wrap=True)
    cards = sorted(found.chances, key=lambda c: (c % 4, c // 4))  # by suit, then rank (R1)
    for k, card in enumerate(cards):
        cells = [
            _percent(p) if ok else "-"
            for p, ok in zip(found.chances[card], found.possible[card], strict=True)
        ]
        last = k + 1 == len(cards) or cards[k + 1] % 4 != card % 4
        table.add_row(format_card(card, lab), *cells, end_section=last)
    out.print(table)


def _percent(chance: float) -> str:
    """A chance in whole percent; below half a percent but not zero, '<1%'."""
    if 0.0 < chance < 0.005:
        return "<1%"
    if 0.995 <= chance < 1.0:
        return ">99%"
    return f"{100 * chance:.0f}%"


def _move_table(moves: list[dict[str, Any]], exact: bool) -> Table:
    """One line per move: rank, move (in full, wrapped only if it must), win, draw, and the
    paired difference from the best, ± the larger distance from it to an end of its interval."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("move", overflow="fold")
    table.add_column("win", justify="right", no_wrap=True)
    table.add_column("draw", justify="right", no_wrap=True)
    table.add_column("vs best", justify="right", no_wrap=True)
    for k, m in enumerate(moves, 1):
        if not m["evaluated"]:
            table.add_row(str(k), m["move"], "-", "-", "not evaluated")
            continue
        win = "sure" if m["sure"] else f"{100 * m['win']:.0f}%"
        if k == 1:
            gap = "best"
        elif exact or m["diff_ci95"][0] == m["diff_ci95"][1]:
            gap = f"{-m['diff']:+.2f}"
        else:
            # The interval need not be centred on the estimate (a confidence sequence): ± the
            # larger distance to its ends, so that the range shown holds the whole interval.
            # Rounded up, from the estimate as shown, so that the range holds the interval.
            low, high = m["diff_ci95"]
            shown = round(m["diff"], 2)
            gap = f"{-shown:+.2f} ±{math.ceil(100 * max(high - shown, shown - low) - 1e-9) / 100:.2f}"
        table.add_row(str(k), m["move"], win, f"{100 * m['draw']:.0f}%", gap)
    return table


def _verdict_text(
    advice: Advice, moves: list[dict[str, Any]], close_to_best: list[str], exact: bool
) -> str:
    """The answer in a player's words: which move, and whether the evidence separates it
    (:func:`analyzer.analysis.verdict.verdict_sentence`, which the board shows too)."""
    return verdict_sentence(
        advice.verdict, [m["move"] for m in moves], close_to_best,
        unit="searches" if advice.engine == "v3" else "deals", stopped_by=advice.stopped_by,
        exact=exact,
    )  # fmt: skip


def _search_text(advice: Advice, rules: Rules) -> str:
    """How deep the searches went and how much of the answer is exact; the leaf named is the one
    used (the fitted evaluation exists for a preset's own rules only)."""
    exact = 100 * (1 - advice.unproven)
    if advice.engine == "v1":
        return (
            f"Engine cpsat (v1): {100 * advice.unproven:.0f}% of the solves hit their position budget "
            "and used the melded-card heuristic."
        )
    if advice.engine == "v3":
        return (
            f"Engine ismcts (v3): a median of {_median(advice.depth, 'move')} chosen in the tree "
            f"per iteration; {exact:.0f}% of the iterations ended the deal inside the tree, the "
            f"rest were played out by the eager policy; {MCTS_SEARCHES} or more independent "
            "searches, moves ranked by their mean result."
        )
    if advice.unproven == 0:
        return f"Engine {_named(advice.engine)}: every search reached the end of the deal (exact)."
    ahead = (
        f"searched {_median(advice.depth, 'offer')} ahead (median)"
        if advice.depth >= -0.5
        else "searched no offer ahead (median): the budget allowed only each move's position"
    )
    return (
        f"Engine {_named(advice.engine)}: {ahead}; "
        f"{exact:.0f}% of the deals solved to the end, the rest scored by "
        + ("the fitted leaf evaluation." if evaluator_for(rules) else "the melded-card lead (no "
           "evaluation is fitted for these rules).")
    )


def _median(value: float, noun: str) -> str:
    """A median count in words, the noun singular for 1 (``1 move``, ``2 moves``, ``0 moves``)."""
    shown = f"{value:.0f}"
    return f"{shown} {noun}" if shown == "1" else f"{shown} {noun}s"


def _escape(text: str) -> str:
    """A move text inside rich markup: its brackets are not markup."""
    return text.replace("[", r"\[")


def _static_hint(
    state: GameState,
    name: str,
    top: int | None,
    as_json: bool,
    *,
    own_view: bool,
    cards: Whereabouts | None = None,
) -> None:
    data = static_data(state, static_hints(state, own_view=own_view), top=None)
    moves: list[dict[str, Any]] = data["moves"]
    if as_json:
        data = {**data, "moves": moves[:top] if top else moves}
        if cards is not None:
            data["cards"] = cards_data(state, cards)
        emit(data)
        return
    out.print(f"Position: {name}", markup=False)
    out.print(f"{state.describe()}.", markup=False)
    out.print(
        "Static evaluation, one move ahead (no search): "
        "going out, then cards melded, outs kept, cards given to the next players."
    )
    table = Table(show_lines=False)
    table.add_column("#", justify="right")
    table.add_column("move")
    table.add_column("score", justify="right")
    table.add_column("reasons")
    limit = top or 20
    for k, m in enumerate(moves[:limit], 1):
        table.add_row(str(k), m["move"], f"{m['score']:g}", "; ".join(m["reasons"]))
    out.print(table)
    if len(moves) > limit:
        out.print(f"... and {len(moves) - limit} more (use --top).")
    if cards is not None:
        _print_cards(state, cards)
    out.print(f"Best move: [bold]{_escape(moves[0]['move'])}[/bold]")


def _named(engine: str) -> str:
    """An engine by its method, its version name beside it: ``pimc (v2)``."""
    found = ENGINES.get(engine)
    return f"{found.method_name} ({engine})" if found is not None and found.method_name else engine
