"""The ``conquian`` command: parse arguments, call one analyzer function, render.

Exit codes: 0 success; 1 a domain error (an impossible position, an
illegal move, a position file that is not valid JSON); 2 a usage error (a
malformed card or duplicate card on the command line, an unknown variant,
a missing file, a bad option).  Every error is one line on standard error,
never a traceback.
"""

from __future__ import annotations

import enum
import json
import random
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from typer.exceptions import TyperException

from analyzer.advisor import DEFAULT_NODE_BUDGET, DEFAULT_SAMPLES, DEFAULT_TIME_LIMIT, advise
from analyzer.bots import BOTS, Bot, make_bot
from analyzer.cards import (
    Labels,
    check_mixed_labels,
    clip,
    format_card,
    format_mask,
    mask_of,
    parse_cards,
)
from analyzer.errors import CardError, ConquianError, IllegalMoveError, UnknownVariantError
from analyzer.hints import WEIGHTS, analyze, static_hints
from analyzer.moves import Give, Move, parse_move
from analyzer.partition import solve_arrangement
from analyzer.position import deal, load_position, parse_json, view
from analyzer.puzzles import check_puzzle, load_puzzle, solve_puzzle
from analyzer.records import record_lines, replay_lines
from analyzer.rules import PRESETS, Rules, get_rules
from analyzer.search import Solver
from analyzer.search import solve as search_solve
from analyzer.simulate import GameResult, Summary
from analyzer.simulate import simulate as simulate_games
from analyzer.state import GameState, Phase
from analyzer.tree import build_tree, export_tree
from analyzer.why import explain

app = typer.Typer(
    name="conquian",
    help="Play, check and analyse Conquian, the oldest rummy game of the West.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

USAGE = 2
DOMAIN = 1


class SearchMode(enum.StrEnum):
    """Search mode of ``conquian solve``."""

    AUTO = "auto"
    MAXN = "maxn"
    PARANOID = "paranoid"


JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
VariantOpt = Annotated[
    str, typer.Option("--variant", "-v", help=f"Variant preset: {', '.join(PRESETS)}.")
]
LabelsOpt = Annotated[
    Labels | None,
    typer.Option(
        "--labels", help="Card labels; default: the variant's (R2).", case_sensitive=False
    ),
]


_JSON_ERRORS = {"on": False}


def fail(message: str, code: int) -> NoReturn:
    """Print one error line on stderr and exit with ``code``.

    For a domain error of a command run with ``--json`` that validates input
    (analyze, replay), ``{"valid": false, "error": ...}`` also goes to stdout.
    """
    if _JSON_ERRORS["on"] and code == DOMAIN:
        _emit({"valid": False, "error": message})
    err.print(f"conquian: error: {message}", markup=False, soft_wrap=True)
    raise typer.Exit(code)


@contextmanager
def boundary() -> Iterator[None]:
    """Turn domain errors into one line and exit 1 (usage errors exit 2 earlier)."""
    try:
        yield
    except ConquianError as exc:
        fail(str(exc), DOMAIN)
    except RecursionError:
        fail("the input is nested too deeply to read", DOMAIN)
    except KeyboardInterrupt:
        err.print("conquian: interrupted", markup=False)
        raise typer.Exit(130) from None


def _rules(variant: str) -> Rules:
    try:
        return get_rules(variant)
    except UnknownVariantError as exc:
        fail(str(exc), USAGE)


def _cards_arg(text: str, labels: Labels, what: str) -> int:
    try:
        return mask_of(parse_cards(text, labels))
    except CardError as exc:
        fail(f"{what}: {exc}", USAGE)


def _emit(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def _input_text(path_text: str, what: str) -> tuple[str, str]:
    """Read a file named on the command line (``-`` is standard input): (text, printable name).

    A missing path or a directory is a usage error (exit 2); content that is
    not UTF-8 text is a domain error (exit 1).
    """
    if path_text == "-":
        try:
            return sys.stdin.read().removeprefix("\ufeff"), "standard input"
        except UnicodeDecodeError:
            fail("standard input is not UTF-8 text", DOMAIN)
    if not path_text.strip():
        fail(f"no {what} named: the name is empty", USAGE)
    path = Path(path_text)
    if path.is_dir():
        fail(f"{what} {clip(path_text)!r} is a directory, not a file", USAGE)
    if not path.exists():
        fail(f"no such {what}: {clip(path_text)!r}", USAGE)
    try:
        # utf-8-sig: a byte-order mark from an editor is accepted.
        return path.read_text(encoding="utf-8-sig"), path_text
    except UnicodeDecodeError:
        fail(f"{what} {clip(path_text)!r} is not UTF-8 text", DOMAIN)
    except OSError as exc:
        fail(f"cannot read {clip(path_text)!r}: {exc.strerror or exc}", USAGE)


def _output_file(path: Path, option: str, force: bool) -> None:
    """Check an output file before any work: its folder exists, it is not a folder, and an
    existing file is replaced only with ``--force`` (usage errors, exit 2)."""
    if path.is_dir():
        fail(f"{option} {clip(str(path))!r} is a directory: give a file name", USAGE)
    if not path.parent.is_dir():
        fail(f"{option}: no directory {clip(str(path.parent))!r} to write into", USAGE)
    if path.exists() and not force:
        fail(f"{option} {clip(str(path))!r} exists: use --force to replace it", USAGE)


def _progress(label: str, as_json: bool, *, transient: bool) -> Progress:
    """A progress bar on stderr, shown only on a terminal and never with --json."""
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=as_json or not err.is_terminal,
        transient=transient,
    )


def _read_position(position: str | None) -> tuple[GameState, str]:
    if position is None:
        text = resources.files("cli").joinpath("data/default-position.json").read_text("utf-8")
        name = "the bundled position (RULES.md worked example 5)"
    else:
        text, name = _input_text(position, "position file")
    with boundary():
        data = parse_json(text, name if name == "standard input" else repr(name))
        if (
            isinstance(data, dict)
            and "players" not in data
            and isinstance(data.get("position"), dict)
        ):
            data = data["position"]
        return load_position(data), name
    raise AssertionError("unreachable")


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        out.print(f"conquian {version('conquian')}")
        raise typer.Exit(0)


@app.callback()
def _root(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Play, check and analyse Conquian, the oldest rummy game of the West.

    Exit codes: 0 success, 1 domain error (impossible position, illegal move,
    bad file content), 2 usage error (bad argument or option).
    """
    _JSON_ERRORS["on"] = False


# ----------------------------------------------------------------- variants
@app.command()
def variants(as_json: JsonOpt = False) -> None:
    """List the variant presets and their options (RULES.md section 4)."""
    data = [rules.as_dict() for rules in PRESETS.values()]
    if as_json:
        _emit({"variants": data})
        return
    table = Table(title="Conquian variants")
    table.add_column("option")
    for rules in PRESETS.values():
        table.add_column(rules.name)
    for key in data[0]:
        table.add_row(key, *(str(d[key]) for d in data))
    out.print(table)


# -------------------------------------------------------------------- melds
@app.command()
def melds(
    cards: Annotated[list[str], typer.Argument(help="Cards, e.g. 'AS 2S 3S 7H 7D 7C'.")],
    must: Annotated[
        str, typer.Option("--must", "-m", help="Cards that must be melded (R13).")
    ] = "",
    variant: VariantOpt = "classic",
    labels: LabelsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Find the arrangement of CARDS into melds that melds the most cards (CP-SAT)."""
    rules = _rules(variant)
    lab = labels or rules.labels
    text = " ".join(cards)
    if not text.replace(",", " ").split():
        fail("CARDS: no cards given", USAGE)
    try:
        check_mixed_labels((text + " " + must).replace(",", " ").split(), lab)
    except CardError as exc:
        fail(str(exc), USAGE)
    mask = _cards_arg(text, lab, "CARDS")
    need = _cards_arg(must, lab, "--must")
    if need & ~mask:
        missing = format_mask(need & ~mask, lab)
        fail(f"--must cards not among CARDS: {missing}", USAGE)
    with boundary():
        result = solve_arrangement(mask, rules, must=need)
    data = {
        "feasible": result.feasible,
        "melded": result.melded,
        "melds": [format_mask(m, lab).split() for m in result.melds],
        "unmelded": format_mask(result.unmelded, lab).split(),
        "optimal": result.optimal,
        "variant": rules.name,
    }
    if as_json:
        _emit(data)
        return
    if not result.feasible:
        out.print(f"No arrangement melds all of {format_mask(need, lab)} ({rules.name}).")
        return
    out.print(f"{result.melded} of {mask.bit_count()} cards melded ({rules.name}):")
    for meld in result.melds:
        out.print(f"  [{format_mask(meld, lab)}]")
    if result.unmelded:
        out.print(f"Unmelded: {format_mask(result.unmelded, lab)}")


# ------------------------------------------------------------------ analyze
@app.command("analyze")
def analyze_cmd(
    position: Annotated[str, typer.Argument(help="Position JSON file, or - for stdin.")],
    as_json: JsonOpt = False,
) -> None:
    """Validate POSITION and show each player's melded count, outs (R15) and forceable cards (R14)."""
    _JSON_ERRORS["on"] = as_json
    state, name = _read_position(position)
    lab = state.rules.labels
    with boundary():
        reports = analyze(state)

    def names(cards: tuple[int, ...] | None) -> list[str] | None:
        return None if cards is None else [format_card(c, lab) for c in cards]

    players = [
        {
            "melded": r.melded,
            "hand_count": r.hand_count,
            "outs": names(r.outs),
            "forceable": names(r.forceable),
        }
        for r in reports
    ]
    data = {
        "valid": True,
        "variant": state.rules.name,
        "phase": str(state.phase),
        "to_act": state.to_act,
        "players": players,
    }
    if as_json:
        _emit(data)
        return
    out.print(f"Valid {state.rules.name} position ({name}): {state.describe()}.", markup=False)
    table = Table()
    for col in ("player", "melded", "hand", "outs (R15)", "forceable (R14)"):
        table.add_column(col)
    for p, report in enumerate(reports):
        outs_names = names(report.outs)
        outs_text = "hidden hand" if outs_names is None else (" ".join(outs_names) or "none")
        table.add_row(
            str(p),
            str(report.melded),
            str(report.hand_count),
            outs_text,
            " ".join(names(report.forceable) or []) or "none",
        )
    out.print(table)


# --------------------------------------------------------------------- hint
@app.command()
def hint(
    position: Annotated[
        str | None,
        typer.Argument(help="Position JSON file, or - for stdin; default: the bundled position."),
    ] = None,
    samples: Annotated[
        int,
        typer.Option("--samples", "-n", min=1, help="Most deals of the hidden cards to sample."),
    ] = DEFAULT_SAMPLES,
    seed: Annotated[int, typer.Option("--seed", help="Sampling seed: same seed, same answer.")] = 0,
    time_limit: Annotated[
        float, typer.Option("--time-limit", min=0.05, help="Seconds of sampling.")
    ] = DEFAULT_TIME_LIMIT,
    budget: Annotated[
        int, typer.Option("--budget", min=100, help="Positions per double-dummy solve.")
    ] = DEFAULT_NODE_BUDGET,
    static: Annotated[
        bool,
        typer.Option("--static", help="One-move static evaluation only (instant, no sampling)."),
    ] = False,
    open_hands: Annotated[
        bool,
        typer.Option("--open", help="Use every given hand and the stock as known (double-dummy)."),
    ] = False,
    top: Annotated[
        int | None,
        typer.Option(
            "--top",
            min=1,
            help="Show at most this many moves (default: 20 in the table, all in JSON).",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Rank the choices of the player to act, best first, from his own view.

    By default the hidden cards are sampled and every candidate move is solved on each sampled
    deal (win/draw/loss with 95% intervals); --static ranks every legal move by a one-move
    static evaluation instead.
    """
    state, name = _read_position(position)
    lab = state.rules.labels
    if static:
        _static_hint(state, name, top, as_json)
        return
    progress = _progress("sampling deals", as_json, transient=True)
    with boundary(), progress:
        task = progress.add_task("deals", total=samples)
        advice = advise(
            state,
            samples=samples,
            seed=seed,
            time_limit=time_limit,
            node_budget=budget,
            open_hands=open_hands,
            progress=lambda done, total: progress.update(task, completed=done, total=total),
        )
    moves: list[dict[str, Any]] = [
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
    if as_json:
        _emit(
            {
                "to_act": state.to_act,
                "evaluation": "open" if open_hands else "sampled",
                "samples": advice.samples,
                "seed": seed,
                "seconds": round(advice.seconds, 3),
                "unproven": round(advice.unproven, 4),
                "time_limited": advice.samples < advice.planned,
                "moves": moves[:top] if top else moves,
            }
        )
        return
    out.print(f"Position: {name}", markup=False)
    out.print(f"{state.describe()}.")
    if open_hands and state.stock is not None:
        how = "Solved double-dummy with every hand and the stock as given"
    elif open_hands:
        how = (
            f"Evaluated on {advice.samples} sampled stock orders, every hand as given "
            f"(seed {seed}), each solved double-dummy"
        )
    else:
        how = (
            f"Evaluated on {advice.samples} sampled deals of the cards player {state.to_act} "
            f"cannot see (seed {seed}), each solved double-dummy"
        )
    out.print(
        f"{how}; {100 * advice.unproven:.0f}% of the solves hit their budget of {budget} "
        f"positions and used the heuristic. {advice.seconds:.1f} s.",
        markup=False,
    )
    if advice.samples < advice.planned:
        out.print(
            f"The time limit stopped sampling after {advice.samples} of {advice.planned} deals: "
            "the answer depends on machine speed (raise --time-limit for a reproducible one)."
        )
    table = Table(show_lines=False)
    for col, just in (("#", "right"), ("move", "left"), ("win", "right"), ("draw", "right"),
                      ("95% (win)", "right"), ("reasons", "left")):  # fmt: skip
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    limit = top or 20
    for k, m in enumerate(moves[:limit], 1):
        low, high = m["ci95"]
        table.add_row(
            str(k), m["move"], f"{100 * m['win']:.0f}%", f"{100 * m['draw']:.0f}%",
            f"{100 * low:.0f}-{100 * high:.0f}%", "; ".join(m["reasons"][1:]),
        )  # fmt: skip
    out.print(table)
    if len(moves) > limit:
        out.print(f"... and {len(moves) - limit} more (use --top).")
    out.print(f"Best move: [bold]{moves[0]['move']}[/bold]")


def _static_hint(state: GameState, name: str, top: int | None, as_json: bool) -> None:
    lab = state.rules.labels
    with boundary():
        hints = static_hints(state)
    moves: list[dict[str, Any]] = [
        {"move": h.move.text(lab), "score": h.score, "reasons": list(h.reasons)} for h in hints
    ]
    if as_json:
        shown = moves[:top] if top else moves
        _emit({"to_act": state.to_act, "evaluation": "static", "weights": WEIGHTS, "moves": shown})
        return
    out.print(f"Position: {name}", markup=False)
    out.print(f"{state.describe()}.")
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
    out.print(f"Best move: [bold]{moves[0]['move']}[/bold]")


# ---------------------------------------------------------------------- why
@app.command()
def why(
    position: Annotated[str, typer.Argument(help="Position JSON file, or -.")],
    move: Annotated[
        str, typer.Argument(help="A move, e.g. 'take [5C 6C 7C] pay KS', or just 'take'.")
    ],
    samples: Annotated[
        int, typer.Option("--samples", "-n", min=1, help="Deals to sample when comparing.")
    ] = DEFAULT_SAMPLES,
    seed: Annotated[int, typer.Option("--seed", help="Sampling seed.")] = 0,
    time_limit: Annotated[
        float, typer.Option("--time-limit", min=0.05, help="Seconds of sampling when comparing.")
    ] = DEFAULT_TIME_LIMIT,
    as_json: JsonOpt = False,
) -> None:
    """Explain MOVE: the rule facts that forbid it, or how it compares with the best move
    (on the same sampled deals as hint)."""
    state, name = _read_position(position)
    lab = state.rules.labels
    try:
        explanation = explain(state, move)
    except IllegalMoveError as exc:
        fail(str(exc), USAGE)
    except ConquianError as exc:
        fail(str(exc), DOMAIN)
    data: dict[str, Any] = {
        "move": explanation.move,
        "legal": explanation.legal,
        "facts": list(explanation.facts),
    }
    if explanation.legal and state.phase in (Phase.OFFER, Phase.FORCED, Phase.EXCHANGE):
        asked = parse_move(move, lab)
        with boundary():
            advice = advise(state, samples=samples, seed=seed, time_limit=time_limit, extra=[asked])
        rank = next(k for k, e in enumerate(advice.estimates) if e.move == asked)
        mine, best = advice.estimates[rank], advice.estimates[0]
        data["comparison"] = {
            "rank": rank + 1,
            "of": len(advice.estimates),
            "best": best.move.text(lab),
            "win": mine.win,
            "best_win": best.win,
            "expected": mine.expected,
            "best_expected": best.expected,
            "samples": advice.samples,
            "time_limited": advice.samples < advice.planned,
        }
    if as_json:
        _emit(data)
        return
    out.print(f"Position: {name}: {state.describe()}.", markup=False)
    if not explanation.legal:
        out.print(f"{explanation.move} is not legal here, because:", markup=False)
        for line in explanation.facts:
            out.print(f"  - {line}", markup=False)
        return
    out.print(f"{explanation.move} is legal.", markup=False)
    comp = data.get("comparison")
    if comp:
        if comp["time_limited"]:
            out.print(
                "The time limit stopped sampling early: raise --time-limit for a reproducible answer."
            )
        if comp["rank"] == 1:
            out.print(
                f"It is the best move found: it wins {100 * comp['win']:.0f}% of {comp['samples']} sampled deals."
            )
        else:
            out.print(
                f"It ranks {comp['rank']} of {comp['of']}: it wins {100 * comp['win']:.0f}% of {comp['samples']} "
                f"sampled deals; the best, {comp['best']}, wins {100 * comp['best_win']:.0f}% "
                f"({comp['best_expected'] - comp['expected']:.2f} more in expected result).",
                markup=False,
            )


def main(args: list[str] | None = None) -> int:
    """Entry point of the ``conquian`` command: usage errors become one line, exit code 2.

    Parameters
    ----------
    args : list of str, optional
        Command-line arguments; ``sys.argv[1:]`` when omitted.

    Returns
    -------
    int
        The exit code (also passed to ``sys.exit`` by the console script).
    """
    try:
        result = app(args=args, prog_name="conquian", standalone_mode=False)
    except BrokenPipeError:
        # The reader went away (e.g. '| head'): stop quietly.
        sys.stderr.close()
        return 0
    except OSError as exc:
        err.print(f"conquian: error: cannot write the output: {exc.strerror or exc}", markup=False)
        return DOMAIN
    except typer.Abort:
        err.print("conquian: aborted", markup=False)
        return 130
    except TyperException as exc:
        # Argument and option errors (typer's vendored click): one line, exit 2.
        ctx = getattr(exc, "ctx", None)
        command = ctx.command_path if ctx is not None else "conquian"
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        if not message.strip() and ctx is not None:
            # No command given: show the help, as 'conquian --help' does.
            out.print(ctx.get_help(), markup=False)
            return USAGE
        err.print(
            f"conquian: error: {message} (see '{command} --help')", markup=False, soft_wrap=True
        )
        return int(getattr(exc, "exit_code", USAGE))
    return result if isinstance(result, int) else 0


# ------------------------------------------------------------------- replay
@app.command()
def replay(
    record: Annotated[str, typer.Argument(help="Game record (JSON lines), or - for stdin.")],
    as_json: JsonOpt = False,
) -> None:
    """Re-play a game record and check every move; report the first illegal one."""
    _JSON_ERRORS["on"] = as_json
    text, _ = _input_text(record, "record file")
    with boundary():
        result = replay_lines(text.splitlines())
    final = result.final
    data: dict[str, Any] = {
        "valid": True,
        "variant": final.rules.name,
        "moves": len(result.moves),
        "finished": result.finished,
        "winner": final.winner if result.finished else None,
        "final": final.describe(),
    }
    if as_json:
        _emit(data)
        return
    out.print(f"Valid record: {len(result.moves)} moves, {final.rules.name}.")
    if result.finished:
        out.print(
            "Outcome: " + ("draw" if final.winner is None else f"player {final.winner} won") + "."
        )
    else:
        out.print(f"Not finished: {final.describe()}.")


# ----------------------------------------------------------------- simulate
@app.command()
def simulate(
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of deals.")] = 100,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help=f"Bot per seat, comma-separated ({', '.join(BOTS)}); "
            "default: greedy, then random at the other seats.",
        ),
    ] = None,
    variant: VariantOpt = "classic",
    seed: Annotated[int, typer.Option("--seed", help="Run seed: same seed, same games.")] = 0,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", "-j", min=1, max=64, help="Worker processes (at most one per game)."
        ),
    ] = 1,
    rotate: Annotated[
        bool, typer.Option("--rotate", help="Rotate the bots one seat per game.")
    ] = False,
    records: Annotated[
        str | None,
        typer.Option(
            "--records", help="Write one record per game into this new or empty directory."
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Play many deals between bots; print win and draw rates with 95% intervals."""
    rules = _rules(variant)
    if bots is None:
        bots = ",".join(["greedy"] + ["random"] * (rules.players - 1))
    names = [b.strip().lower() for b in bots.split(",") if b.strip()]
    for name in names:
        if name not in BOTS:
            fail(f"unknown bot: {clip(name)!r} (known: {', '.join(BOTS)})", USAGE)
    if len(names) not in (1, rules.players):
        fail(f"{rules.name} has {rules.players} seats: give 1 or {rules.players} bots", USAGE)
    directory = _records_dir(records)
    summary = Summary(rules.players)
    interrupted = False
    with boundary():
        progress = _progress("games", as_json, transient=False)
        previous = signal.signal(signal.SIGTERM, _terminate)
        try:
            with progress:
                task = progress.add_task("games", total=games)
                workers = min(jobs, games)
                for result in simulate_games(
                    rules, names, games, seed, jobs=workers, rotate=rotate
                ):
                    if directory is not None:
                        _write_record(directory, result)
                    summary.add(result)
                    progress.advance(task)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            signal.signal(signal.SIGTERM, previous)
    data = {
        "variant": rules.name,
        "bots": names,
        "seed": seed,
        "rotate": rotate,
        "interrupted": interrupted,
        **summary.as_dict(),
    }
    if as_json:
        _emit(data)
    else:
        _print_summary(data, rules)
    if interrupted:
        err.print(f"interrupted after {summary.games} of {games} games", markup=False)
        raise typer.Exit(130)


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM stops a simulation like Ctrl-C: finished games are kept and summarised."""
    raise KeyboardInterrupt


def _records_dir(records: str | None) -> Path | None:
    """Check ``--records`` before any game is played: a new or empty-of-records directory."""
    if records is None:
        return None
    if not records.strip():
        fail("--records needs a directory name", USAGE)
    directory = Path(records)
    if directory.exists() and not directory.is_dir():
        fail(f"--records must be a directory: {clip(records)!r} is a file", USAGE)
    if directory.is_dir() and any(directory.glob("game-*.jsonl")):
        fail(
            f"--records directory {clip(records)!r} already holds game records: use a new one",
            USAGE,
        )
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot create --records directory {clip(records)!r}: {exc.strerror or exc}", USAGE)
    return directory


def _write_record(directory: Path, result: GameResult) -> None:
    lines = record_lines(
        result.start, result.moves, result.final, seed=result.seed, players=list(result.seats)
    )
    path = directory / f"game-{result.index:06d}.jsonl"
    tmp = path.with_suffix(".tmp")
    try:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
        tmp.replace(path)  # a finished record appears whole, or not at all
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        fail(f"cannot write the record {clip(str(path))!r}: {exc.strerror or exc}", DOMAIN)


def _print_summary(data: dict[str, Any], rules: Rules) -> None:
    games = data["games"]
    out.print(
        f"{games} {rules.name} games, bots by seat: {', '.join(data['bots'])}, seed {data['seed']}"
    )
    table = Table()
    for col in ("", "wins", "rate", "95% interval"):
        table.add_column(col)
    for p, (wins, rate) in enumerate(zip(data["wins"], data["win_rates"], strict=True)):
        low, high = rate["ci95"]
        table.add_row(f"seat {p}", str(wins), f"{rate['rate']:.3f}", f"{low:.3f} - {high:.3f}")
    low, high = data["draw_rate"]["ci95"]
    table.add_row(
        "draws", str(data["draws"]), f"{data['draw_rate']['rate']:.3f}", f"{low:.3f} - {high:.3f}"
    )
    if data["rotate"]:
        for name, rate in data["bot_win_rates"].items():
            low, high = rate["ci95"]
            table.add_row(
                f"bot {name}",
                str(data["wins_by_bot"][name]),
                f"{rate['rate']:.3f}",
                f"{low:.3f} - {high:.3f}",
            )
    out.print(table)


# --------------------------------------------------------------------- play
def _render(state: GameState, seat: int) -> None:
    lab = state.rules.labels
    table = Table(title=state.describe(), show_header=True)
    table.add_column("player")
    table.add_column("hand")
    table.add_column("layout")
    for p in range(state.rules.players):
        hand = state.hands[p]
        shown = (
            format_mask(hand, lab) if p == seat and hand is not None else f"{state.counts[p]} cards"
        )
        layout = "  ".join(f"[{format_mask(m, lab)}]" for m in state.layouts[p]) or "-"
        who = "you" if p == seat else f"player {p}"
        table.add_row(f"{p} ({who})", shown, layout)
    out.print(table)
    dead = " ".join(format_card(c, lab) for c in state.dead) or "none"
    centre = "none"
    if state.centre is not None:
        c = state.centre
        centre = f"{format_card(c.card, lab)} ({c.kind} by player {c.source})"
    out.print(f"stock {state.stock_count} | dead: {dead} | centre: {centre}")


@app.command()
def play(
    variant: VariantOpt = "classic",
    seed: Annotated[
        int | None, typer.Option("--seed", help="Deal seed (random if omitted).")
    ] = None,
    seat: Annotated[int, typer.Option("--seat", min=0, help="Your seat.")] = 0,
    bots: Annotated[
        str,
        typer.Option(
            "--bots", help="Bot for the other seats, or one per other seat, comma-separated."
        ),
    ] = "greedy",
    record: Annotated[
        Path | None, typer.Option("--record", help="Save the game record (JSON lines) here.")
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace an existing record file.")
    ] = False,
) -> None:
    """Play a deal against bots in the terminal. Type a move, its number, 'hint', 'moves' or 'quit'."""
    rules = _rules(variant)
    if seat >= rules.players:
        fail(f"--seat must be below {rules.players} in {rules.name}", USAGE)
    names = [b.strip().lower() for b in bots.split(",") if b.strip()]
    if len(names) == 1:
        names *= rules.players - 1
    if len(names) != rules.players - 1:
        others_text = "1 bot" if rules.players == 2 else f"1 or {rules.players - 1} bots"
        fail(f"give {others_text} for the other seats", USAGE)
    for name in names:
        if name not in BOTS:
            fail(f"unknown bot: {clip(name)!r} (known: {', '.join(BOTS)})", USAGE)
    if record is not None:
        _output_file(record, "--record", force)
    others = [make_bot(n) for n in names]
    seats: list[Bot | None] = list(others)
    seats.insert(seat, None)
    if seed is None:
        seed = random.randrange(2**31)
    players = [*names]
    players.insert(seat, "human")
    rng = random.Random(seed)
    state = start = deal(rules, rng)
    history: list[tuple[int | None, Move]] = []
    lab = rules.labels
    out.print(f"conquian play: {rules.name}, you are player {seat}. Type 'help' for commands.")
    try:
        while not state.is_terminal():
            if state.is_chance_node():
                move: Move = state.chance_outcomes()[0][0]
                history.append((None, move))
                state = state.apply(move)
                assert state.centre is not None
                out.print(
                    f"player {state.to_act} turns {format_card(state.centre.card, lab)} (R10)"
                )
                continue
            player = state.current_player()
            bot = seats[player]
            if bot is not None:
                move = bot.choose(view(state, player), rng)
                if isinstance(move, Give):
                    # The exchange is face down (R9): nobody sees another player's pass.
                    out.print(f"player {player} ({bot.name}) has chosen a card to pass")
                else:
                    out.print(f"player {player} ({bot.name}): {move.text(lab)}", markup=False)
            else:
                move = _ask(state, seat)
            history.append((player, move))
            exchanging = state.phase is Phase.EXCHANGE
            state = state.apply(move)
            if exchanging and state.phase is not Phase.EXCHANGE:
                got = state.hand(seat) & ~start.hand(seat)
                out.print(f"The exchange is done: you received {format_mask(got, lab)} (R9).")
    except (EOFError, KeyboardInterrupt) as exc:
        out.print("\nGame abandoned.")
        _save(record, start, history, state, seed, players)
        if isinstance(exc, KeyboardInterrupt):
            raise typer.Exit(130) from None
        return
    _render(state, seat)
    if state.winner is None:
        out.print("The deal is a draw (R18).")
    else:
        out.print("You won!" if state.winner == seat else f"Player {state.winner} won.")
    _save(record, start, history, state, seed, players)


def _save(
    path: Path | None,
    start: GameState,
    history: list[tuple[int | None, Move]],
    final: GameState,
    seed: int,
    players: list[str],
) -> None:
    if path is None:
        return
    lines = record_lines(start, history, final, seed=seed, players=players)
    try:
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write the record {str(path)!r}: {exc}", DOMAIN)
    out.print(f"Record saved to {path}.", markup=False)


def _ask(state: GameState, seat: int) -> Move:
    lab = state.rules.labels
    moves = state.legal_moves()
    _render(state, seat)
    _list_moves(moves, lab)
    while True:
        text = out.input("[bold]your move>[/bold] ").strip()
        if not text:
            continue
        word = text.lower()
        if word in ("quit", "exit"):
            raise EOFError
        if word == "help":
            out.print(
                "Type a move number or its text (pass, take [..] pay CARD, force N, lay [..] pay CARD, "
                "meld [..], give CARD); 'moves' lists them, 'hint' ranks them, 'quit' leaves."
            )
            continue
        if word == "moves":
            _list_moves(moves, lab)
            continue
        if word == "hint":
            advice = advise(view(state, seat), samples=24, time_limit=1.0, seed=len(state.dead))
            for k, e in enumerate(advice.estimates[:5], 1):
                out.print(
                    f"  {k}. {e.move.text(lab)}  (wins {100 * e.win:.0f}%, draws {100 * e.draw:.0f}% "
                    f"of {e.samples} sampled deals; {'; '.join(e.reasons[2:4])})",
                    markup=False,
                )
            continue
        if text.isdigit():
            k = int(text)
            if 1 <= k <= len(moves):
                return moves[k - 1]
            out.print(f"No move number {k}: choose 1 to {len(moves)}.", markup=False)
            continue
        try:
            move = parse_move(text, lab)
        except ConquianError as exc:
            message = str(exc)
            out.print(message[:1].upper() + message[1:], markup=False)
            continue
        if state.is_legal(move):
            return move
        out.print(
            f"Illegal here: {move.text(lab)!r} ({state.describe()}). Type 'moves' for the legal ones.",
            markup=False,
        )


def _list_moves(moves: list[Move], labels: Labels) -> None:
    for k, move in enumerate(moves, 1):
        out.print(f"  {k:>3}. {move.text(labels)}", markup=False)


# -------------------------------------------------------------------- solve
BudgetOpt = Annotated[
    int,
    typer.Option("--budget", min=1, help="Most positions to search before giving up the proof."),
]
TimeOpt = Annotated[float, typer.Option("--time-limit", min=0.01, help="Most seconds to search.")]


@app.command()
def solve(
    position: Annotated[str, typer.Argument(help="Position JSON with every hand known, or -.")],
    budget: BudgetOpt = 2_000_000,
    time_limit: TimeOpt = 60.0,
    mode: Annotated[
        SearchMode,
        typer.Option("--mode", help="3 players: maxn or paranoid.", case_sensitive=False),
    ] = SearchMode.AUTO,
    as_json: JsonOpt = False,
) -> None:
    """Solve a position with every hand known under best play (double-dummy)."""
    state, name = _read_position(position)
    lab = state.rules.labels
    spinner = err.status("searching...") if not as_json and err.is_terminal else nullcontext()
    with boundary(), spinner:
        result = search_solve(state, mode=mode.value, max_nodes=budget, time_limit=time_limit)
    n = state.rules.players
    probabilities = {str(p): result.outcome[p] for p in range(n)}
    probabilities["draw"] = result.outcome[n]
    data: dict[str, Any] = {
        "winner": result.winner,
        "proven": result.proven,
        "pv": [m.text(lab) for m in result.pv],
        "nodes": result.nodes,
        "values": list(result.values),
        "mode": result.mode,
        "stopped_by": result.stopped_by,
        "seconds": round(result.seconds, 4),
    }
    if result.mode == "expectimax":
        data["probabilities"] = probabilities
    if as_json:
        _emit(data)
        return
    out.print(f"Position: {name}: {state.describe()}.", markup=False)
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
        out.print(f"Not proven within the budget; heuristic estimate of the results: {estimate}.")
    stop = {"positions": "position budget spent", "time": "time limit reached"}.get(
        result.stopped_by or "", "budget spent"
    )
    out.print(
        f"{'Proven' if result.proven else f'NOT proven ({stop})'}: {result.nodes} positions "
        f"in {result.seconds:.2f} s ({result.mode})."
    )
    if result.pv:
        out.print("Principal variation:")
        for k, move in enumerate(result.pv, 1):
            out.print(f"  {k:>3}. {move.text(lab)}", markup=False)


# --------------------------------------------------------------------- tree
@app.command()
def tree(
    position: Annotated[str, typer.Argument(help="Position JSON, or -.")],
    depth: Annotated[
        int, typer.Option("--depth", "-d", min=0, max=12, help="Plies to expand.")
    ] = 3,
    export: Annotated[
        Path | None,
        typer.Option("--export", help="Write the tree: .graphml, .gexf or .json (node-link)."),
    ] = None,
    max_nodes: Annotated[int, typer.Option("--max-nodes", min=1, help="Most tree nodes.")] = 2_000,
    values: Annotated[
        bool,
        typer.Option("--values/--no-values", help="Solve every node (needs every hand known)."),
    ] = True,
    budget: BudgetOpt = 200_000,
    force: Annotated[
        bool, typer.Option("--force", help="Replace an existing export file.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Explore the game tree from POSITION and export it (networkx).

    Node values need every hand and the stock order known; otherwise the tree is built
    without them (solve gives chances for an unknown stock order).
    """
    state, name = _read_position(position)
    if export is not None:
        if export.suffix.lower().lstrip(".") not in ("graphml", "gexf", "json", "xml"):
            fail(f"--export must end in .graphml, .gexf or .json: {clip(str(export))!r}", USAGE)
        if position != "-" and export.exists() and export.samefile(position):
            fail("--export would overwrite the input position", USAGE)
        _output_file(export, "--export", force)
    exact = all(h is not None for h in state.hands) and (
        state.stock is not None or state.stock_count == 0
    )
    if values and not exact and not as_json:
        err.print(
            "note: node values skipped: they need every hand and the stock order", markup=False
        )
    values = values and exact
    with boundary():
        progress = _progress("exploring", as_json, transient=True)
        with progress:
            task = progress.add_task("nodes", total=max_nodes)
            graph = build_tree(
                state,
                depth=depth,
                max_nodes=max_nodes,
                solve_values=values,
                solver=Solver(max_nodes=budget, time_limit=60.0),
                progress=lambda k: progress.update(task, completed=min(k, max_nodes)),
            )
        fmt = export_tree(graph, export) if export is not None else None
    data = {
        "nodes": graph.number_of_nodes(),
        "edges": graph.number_of_edges(),
        "depth": depth,
        "truncated": graph.graph["truncated"],
        "root": graph.graph["root"],
        "pv": graph.graph.get("pv", []),
        "export": None if export is None else {"path": str(export), "format": fmt},
    }
    if as_json:
        _emit(data)
        return
    out.print(f"Position: {name}: {state.describe()}.", markup=False)
    out.print(
        f"Explored {data['nodes']} positions and {data['edges']} moves to depth {depth}"
        + (" (node limit reached)" if data["truncated"] else "")
        + "."
    )
    if data["pv"]:
        out.print("Principal variation: " + ", ".join(data["pv"]), markup=False)
    if export is not None:
        out.print(f"Written {fmt} to {export}.", markup=False)


# ------------------------------------------------------------------- puzzle
@app.command()
def puzzle(
    file: Annotated[str, typer.Argument(help="Puzzle JSON file, or -.")],
    budget: BudgetOpt = 2_000_000,
    time_limit: TimeOpt = 60.0,
    as_json: JsonOpt = False,
) -> None:
    """Solve a puzzle, and check its stored answer if it has one.

    Exit 1 when the stored answer is wrong, or when the search could not prove the answer
    within the budget (the stored answer is then not judged).
    """
    text, name = _input_text(file, "puzzle file")
    with boundary():
        puz = load_puzzle(parse_json(text, name if name == "standard input" else repr(name)))
        found = solve_puzzle(puz, max_nodes=budget, time_limit=time_limit)
    verified = bool(found["proven"])
    problems = check_puzzle(puz, found) if verified else []
    data = {
        "title": puz.title,
        "question": puz.question,
        "answer": found,
        "checked": puz.answer is not None and verified,
        "correct": None if puz.answer is None or not verified else not problems,
        "problems": problems,
    }
    if as_json:
        _emit(data)
    else:
        out.print(f"Puzzle: {puz.title or name}: {puz.state.describe()}.", markup=False)
        out.print(f"Question: {_question_text(puz.question)}", markup=False)
        out.print(f"Answer ({'proven' if verified else 'NOT proven'}, {found['nodes']} positions):")
        for key, value in found.items():
            if key not in ("proven", "nodes"):
                out.print(f"  {key}: {value}", markup=False)
        if puz.answer is not None and not verified:
            out.print("The stored answer was not checked: the search ran out of budget.")
        elif puz.answer is not None:
            out.print(
                "The stored answer is correct." if not problems else "The stored answer is WRONG:"
            )
            for line in problems:
                out.print(f"  {line}", markup=False)
    if problems or not verified:
        raise typer.Exit(DOMAIN)


def _question_text(question: dict[str, Any]) -> str:
    kind = question["kind"]
    if kind == "win":
        return f"can player {question['player']} win under best play, and with which moves?"
    if kind == "best_pay":
        return "which pay cards keep the best result?"
    return f"can player {question['player']} go out within {question['turns']} of his moves?"
