"""``conquian hint``: the choices of the player to act, ranked, from his own view."""

from __future__ import annotations

import math
from dataclasses import dataclass
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
from analyzer.core.moves import Move
from analyzer.core.state import GameState
from analyzer.search.equilibrium import DEFAULT_MAX_NODES, Equilibrium
from analyzer.search.limits import MAX_SAMPLES
from analyzer.service.endgames import auto_hint, solved_hint_data, solved_text
from analyzer.service.hint_extras import cards_data, cards_only_data, with_lines
from analyzer.service.hints import CARD_OPTIONS, HINT_ONLY, SAMPLING, HintOptionError, HintOptions
from analyzer.service.results import hint_data, static_data
from cli.boundary import domain, usage
from cli.console import emit, hanging, indented, note, out, paragraph
from cli.endgame import print_equilibrium, try_equilibrium
from cli.inputs import POSITION_HELP, position_arg
from cli.options import (
    SAMPLES_DEFAULTS,
    EngineOpt,
    JsonOpt,
    LabelsOpt,
    deal_budget_option,
    given_options,
    samples_option,
    seed_option,
    time_limit_option,
)
from cli.progress import interruptible, progress

__all__ = ["SAMPLING_OPTIONS", "hint"]

SAMPLING_OPTIONS = SAMPLING  # the options a static hint does not read
"""The parameters of the sampling search, which --static does without."""

_PositionArg = Annotated[
    str | None,
    typer.Argument(
        metavar="POSITION", help=POSITION_HELP + " Default: the bundled position.", show_default=False
    ),
]
_SamplesOpt = Annotated[
    int | None, samples_option(f"Most deals of the hidden cards to sample{SAMPLES_DEFAULTS}")
]
_SeedOpt = Annotated[int, seed_option("Sampling seed: same seed, same answer.")]
_TimeLimitOpt = Annotated[
    float | None,
    time_limit_option(
        "Most seconds to spend, a cap. Default: none; the hint samples in seeded "
        "batches until its verdict is settled or its deal cap is reached, so the same "
        "position and seed give the same answer on any machine."
    ),
]
_BudgetOpt = Annotated[
    int | None,
    deal_budget_option(
        "Positions searched per sampled deal (engine v1: per move and deal); default: the engine's."
    ),
]
_StaticOpt = Annotated[
    bool,
    typer.Option(
        "--static",
        help="One-move static evaluation only (instant, no sampling; so without --samples, "
        "--seed, --time-limit, --budget and --engine), from what the player to act sees "
        "(with --open: every hand given).",
    ),
]
_OpenOpt = Annotated[
    bool, typer.Option("--open", help="Use every given hand and the stock as known (double-dummy).")
]
_ReadOpt = Annotated[
    bool | None,
    typer.Option(
        "--read/--no-read",
        help="Draw the hidden hands by the cards their players were seen to give up "
        "(each player's 'paid' in the position, a paid centre card, the card passed to you "
        "in the exchange): cards that meld with them less often. Default: the engine's.",
        show_default=False,
    ),
]
_ReasonsOpt = Annotated[
    bool, typer.Option("--reasons", help="Give the reasons of every move shown (default: the first three).")
]
_TopOpt = Annotated[
    int | None,
    typer.Option(
        "--top", min=1, metavar="N", help="Show at most this many moves (default: 20 in the table, all in JSON)."
    ),
]
_LineOpt = Annotated[
    bool,
    typer.Option(
        "--line",
        help="Under each move whose reasons are shown (in JSON: each move listed), the line "
        "the hint expects after it: each player's choice by the hint's own search on one "
        "typical sampled deal, its sampled cards marked.",
    ),
]
_CardsOpt = Annotated[
    bool,
    typer.Option(
        "--cards",
        help="Also show what the others can hold: for each card the player to act cannot "
        "see, the chance that it is in each other hand or in the stock, from the hint's own "
        "sampler (declines, the card passed in the exchange, --read).",
    ),
]
_ViewOpt = Annotated[
    int | None,
    typer.Option(
        "--view",
        min=0,
        metavar="P",
        help="With --cards: the table from player P's view instead, alone (no hint is run; "
        "any position where P's hand is given, a turn too).",
        show_default=False,
    ),
]
_CardSamplesOpt = Annotated[
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
]
_ExactOpt = Annotated[
    bool,
    typer.Option(
        "--exact",
        help="Two players: solve the endgame exactly as a game of hidden cards (the "
        "equilibrium, as solve on a view) where it is small enough; else the sampled hint, "
        "with a note.",
    ),
]


@dataclass(frozen=True)
class _Show:
    """How the answer is shown: the position's name, ``--top``, ``--reasons``, ``--line`` and
    ``--json``."""

    name: str
    top: int | None
    reasons: bool
    line: bool
    as_json: bool

    @property
    def limit(self) -> int:
        """Most moves in the table (``--top``, else 20)."""
        return self.top or 20


def hint(
    ctx: typer.Context,
    position: _PositionArg = None,
    samples: _SamplesOpt = None,
    seed: _SeedOpt = 0,
    time_limit: _TimeLimitOpt = None,
    budget: _BudgetOpt = None,
    engine: EngineOpt = DEFAULT_ENGINE,
    static: _StaticOpt = False,
    open_hands: _OpenOpt = False,
    read: _ReadOpt = None,
    reasons: _ReasonsOpt = False,
    top: _TopOpt = None,
    line: _LineOpt = False,
    cards: _CardsOpt = False,
    view: _ViewOpt = None,
    card_samples: _CardSamplesOpt = None,
    exact: _ExactOpt = False,
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
    _note_unread(ctx, options)
    pos = position_arg(position, labels)
    show = _Show(name=pos.name, top=top, reasons=reasons, line=line, as_json=as_json)
    _answer(ctx, options, show, pos.state, exact)


def _note_unread(ctx: typer.Context, options: HintOptions) -> None:
    """Note the sampling options given with --static (no effect)."""
    unread = options.unread()
    if unread:
        typed = given_options(ctx, *unread)
        note(
            f"--static ranks moves by a one-move evaluation, without sampling: "
            f"{', '.join(typed)} {'has' if len(typed) == 1 else 'have'} no effect with it"
        )


def _answer(ctx: typer.Context, options: HintOptions, show: _Show, state: GameState, exact: bool) -> None:
    """The hint in the mode asked for: the card table alone, the static hint, the solved
    endgame, else the sampled hint.

    Raises a domain error at a turn of the stock (R10: nobody chooses) and a usage error for
    options that the position cannot take (:meth:`HintOptions.check`)."""
    if options.cards_only:
        _cards_only(ctx, options, state, show.name, show.as_json)
        return
    _refuse_turn(state, options.cards)
    exact = _exact_asked(options, exact)
    if options.static:
        _static_mode(ctx, options, state, show)
        return
    _sampled_notes(ctx, options, state)
    if _solved(ctx, options, state, show, exact):
        return
    advice, lines = _sample(options, state, show)
    table = options.whereabouts(state) if options.cards else None
    data = hint_data(state, advice, seed=options.seed, open_hands=options.open_hands, top=None)
    if show.as_json:
        _emit_sampled(state, advice, data, lines, table, show)
    else:
        _print_sampled(state, advice, data, lines, table, show, read=bool(options.read))


def _refuse_turn(state: GameState, cards: bool) -> None:
    """A domain error where the player to act turns the next stock card (R10)."""
    if state.is_chance_node():
        domain(
            f"no move to choose: player {state.to_act} turns the next stock card (R10), and "
            "nobody chooses until it is offered (for a new deal: conquian deal --after 1; "
            "deal --after N can also stop before a turn: deal --after N --to-choice turns it)"
            + ("; the card table alone is given at a turn too: --cards --view P" if cards else "")
        )


def _exact_asked(options: HintOptions, exact: bool) -> bool:
    """``--exact``, noted as having no effect (and dropped) with --static or --open."""
    if exact and (options.static or options.open_hands):
        note(f"--exact has no effect with {'--static' if options.static else '--open'}: "
             + ("the one-move evaluation" if options.static else "every hand is used as given (double-dummy)"))
        return False
    return exact


def _static_mode(ctx: typer.Context, options: HintOptions, state: GameState, show: _Show) -> None:
    """``--static``: scored from the player's view, as the sampled hint's static_score is (not
    counting the outs of a hand he cannot see, so that both agree); --open scores the position
    as given."""
    if options.open_hands:
        check_open(state)  # as the sampled hint says it
    _extra_notes(ctx, options, state)
    table = options.whereabouts(state) if options.cards else None
    _static_hint(state, show.name, show.top, show.as_json, own_view=not options.open_hands, cards=table)


def _sampled_notes(ctx: typer.Context, options: HintOptions, state: GameState) -> None:
    """Check the options of the sampled hint on ``state`` (the same checks as the engine's and
    the board's hint: a usage error) and note those with no effect."""
    try:
        found = options.check(state)
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


def _solved(ctx: typer.Context, options: HintOptions, state: GameState, show: _Show, exact: bool) -> bool:
    """The endgame solved (``--exact``, or by default on a small one) and shown; False where the
    sampled hint answers instead."""
    read = bool(options.read)
    if (exact and _exact_hint(state, show.name, read, show.top, show.as_json)) or (
        not exact
        and options.by_default(state)
        and _small_endgame(state, show.name, read, show.top, show.as_json)
    ):
        typed = given_options(ctx, *UNSOLVED)
        if typed:
            note(f"{', '.join(typed)} {'has' if len(typed) == 1 else 'have'} no effect: the endgame was solved, nothing sampled")
        return True
    return False


def _sample(options: HintOptions, state: GameState, show: _Show) -> tuple[Advice, dict[Move, Line]]:
    """The sampled hint under a progress bar, Ctrl-C answering with what was found, and the
    lines of the moves shown (--line): every move listed in JSON, else those with reasons."""
    bar = progress("sampling deals", show.as_json, transient=True)
    with bar, interruptible() as stop:
        task = bar.add_task("deals", total=options.samples)
        advice = options.advise(
            state,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
            stop=stop,
        )
        limit = show.limit
        wanted = (show.top or len(advice.estimates)) if show.as_json else limit if show.reasons else min(3, limit)
        lines = (
            options.lines(state, advice, [e.move for e in advice.estimates[:wanted]], stop=stop)
            if show.line and not advice.interrupted
            else {}
        )
    if ENGINES[advice.engine].one_tree and options.samples is not None and advice.samples > options.samples:
        note(
            f"--samples {options.samples:,} raised to {advice.samples:,}: the IS-MCTS hint compares "
            f"moves over at least {MCTS_SEARCHES} independent searches"
        )
    return advice, lines


def _emit_sampled(
    state: GameState,
    advice: Advice,
    data: dict[str, Any],
    lines: dict[Move, Line],
    table: Whereabouts | None,
    show: _Show,
) -> None:
    """``hint --json``: the engine's answer, its moves cut to --top, with the lines and the card
    table asked for."""
    moves: list[dict[str, Any]] = data["moves"]
    data = {**data, "moves": moves[: show.top] if show.top else moves}
    if show.line:
        data = with_lines(state, advice, data, lines)
    if table is not None:
        data["cards"] = cards_data(state, table)
    emit(data)


def _print_sampled(
    state: GameState,
    advice: Advice,
    data: dict[str, Any],
    lines: dict[Move, Line],
    table: Whereabouts | None,
    show: _Show,
    *,
    read: bool,
) -> None:
    """The sampled hint as text: verdict, position, how it searched, the moves and their
    reasons (and lines), the card table, the best move."""
    moves: list[dict[str, Any]] = data["moves"]
    exact: bool = data["exact"]  # solved double-dummy
    verdict = _verdict_text(advice, moves, data["close_to_best"], exact)
    out.print(paragraph(verdict, "bold"))
    if data["prior_text"]:
        out.print(paragraph(data["prior_text"]))
    out.print(paragraph(f"Position: {show.name}"))
    out.print(paragraph(f"{state.describe()}."))
    out.print(paragraph(f"{data['description']} {advice.seconds:.1f} s."))
    _print_reading(state, advice, read)
    _print_stop(advice)
    out.print(_move_table(moves[: show.limit]))
    if len(moves) > show.limit:
        out.print(f"... and {len(moves) - show.limit} more (use --top).")
    shown = moves[: show.limit] if show.reasons else moves[: min(3, show.limit)]
    for k, (m, e) in enumerate(zip(shown, advice.estimates, strict=False), 1):
        out.print(hanging(f"{k}.", f"{m['move']}: {'; '.join(m['reasons'])}"))
        if show.line:
            _print_line(lines.get(e.move), state, advice.engine)
    if table is not None:
        _print_cards(state, table)
    out.print(f"Best move: [bold]{_escape(moves[0]['move'])}[/bold]")


def _print_reading(state: GameState, advice: Advice, read: bool) -> None:
    """The cards the hidden hands were read from (--read), or why there was nothing to read."""
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


def _print_stop(advice: Advice) -> None:
    """What cut the sampling short, if Ctrl-C or the clock did (counted in deals, or in
    IS-MCTS iterations where the engine grows one tree)."""
    unit = "IS-MCTS iterations" if ENGINES[advice.engine].one_tree else "deals"
    if advice.interrupted:
        out.print(
            f"Interrupted: the best answer found so far, from {advice.samples:,} of "
            f"{advice.planned:,} {unit}."
        )
    elif advice.stopped_by == "time":
        out.print(
            f"The time limit stopped sampling after {advice.samples:,} of {advice.planned:,} {unit}: "
            "the answer depends on machine speed (drop --time-limit for a reproducible one)."
        )
    elif advice.time_limited:
        out.print(
            "The time limit cut a search before its --budget of positions: the answer depends "
            "on machine speed (raise --time-limit, or lower --budget, for a reproducible one)."
        )



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
    out.print(indented(rows[0], 3))
    for row in rows[1:]:
        out.print(indented(row, 5))


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


def _move_table(moves: list[dict[str, Any]]) -> Table:
    """One line per move: rank, move (in full, wrapped only if it must), win, draw, and the
    paired difference from the best, ± the larger distance from it to an end of its interval
    (``vs_best``, :func:`analyzer.service.hint_text.vs_best_text`)."""
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
        table.add_row(str(k), m["move"], win, f"{100 * m['draw']:.0f}%", m["vs_best"])
    return table


def _verdict_text(
    advice: Advice, moves: list[dict[str, Any]], close_to_best: list[str], exact: bool
) -> str:
    """The answer in a player's words: which move, and whether the evidence separates it
    (:func:`analyzer.analysis.verdict.verdict_sentence`, which the board shows too)."""
    return verdict_sentence(
        advice.verdict, [m["move"] for m in moves], close_to_best,
        unit=ENGINES[advice.engine].unit, stopped_by=advice.stopped_by,
        exact=exact,
    )  # fmt: skip


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
    out.print(paragraph(f"Position: {name}"))
    out.print(paragraph(f"{state.describe()}."))
    out.print(
        paragraph(
            "Static evaluation, one move ahead (no search): "
            "going out, then cards melded, outs kept, cards given to the next players."
        )
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
