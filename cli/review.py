"""``conquian review``: every decision of a game record marked, with each player's accuracy."""

from __future__ import annotations

import math
from typing import Annotated, Any

import typer
from rich.table import Table

from analyzer.analysis.advisor import DEFAULT_ENGINE, searching_engine
from analyzer.analysis.review import (
    DEFAULT_REVIEW_TIME_LIMIT,
    GameReview,
    Label,
    review_record,
)
from analyzer.formats.records import replay_lines
from cli.boundary import usage
from cli.console import emit, out
from cli.inputs import input_text
from cli.options import SAMPLES_DEFAULTS, EngineOpt, ForceOpt, JsonOpt, LabelsOpt
from cli.outputs import maybe, svg_file
from cli.progress import progress
from cli.results import review_data
from cli.svg import review_svg

__all__ = ["review"]

MARKS = {
    Label.BEST: "",
    Label.GOOD: "",
    Label.INACCURACY: "?!",
    Label.MISTAKE: "?",
    Label.BLUNDER: "??",
}
"""The chess marks of the labels in the text table."""


def review(
    record: Annotated[
        str,
        typer.Argument(metavar="RECORD", help="Game record (JSON lines), or - for stdin."),
    ],
    samples: Annotated[
        int | None,
        typer.Option(
            "--samples",
            "-n",
            min=1,
            metavar="N",
            help=f"Most deals sampled per decision{SAMPLES_DEFAULTS}",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", min=0, metavar="S", help="Sampling seed: same seed, same review.")
    ] = 0,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit", min=0.05, metavar="SECONDS", help="Seconds of sampling per decision."
        ),
    ] = DEFAULT_REVIEW_TIME_LIMIT,
    budget: Annotated[
        int | None,
        typer.Option(
            "--budget",
            min=100,
            metavar="N",
            help="Positions searched per sampled deal, as hint; default: the hint engine's.",
            show_default=False,
        ),
    ] = None,
    engine: EngineOpt = DEFAULT_ENGINE,
    svg: Annotated[
        str | None,
        typer.Option(
            "--svg",
            metavar="FILE",
            help="Write a plot of each player's win chance over the game, blunders marked "
            "(SVG); checked before the work.",
        ),
    ] = None,
    force: ForceOpt = False,
    labels: LabelsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Review a game record: every decision evaluated from the acting player's own view (the
    same evaluation as hint) and marked best, good, inaccuracy (?!), mistake (?) or blunder (??)
    by the expected result it gave up; each player's accuracy (0-100).

    Labels by the drop in expected result (win +1, draw 0, loss -1): blunder >= 0.3, mistake
    >= 0.2, inaccuracy >= 0.1, good above 0, best none; a move that makes a loss sure (or misses
    a sure win) is a blunder unless the game was already nearly decided. Forced moves (one
    choice) and turns of the stock are not reviewed. See docs/review.md.
    """
    target = svg_file(svg, force=force, inputs=[record])
    with maybe(target):
        text, _ = input_text(record, "record file")
        replay = replay_lines(text.splitlines())
        if budget is not None and searching_engine(engine, replay.start).name == "v3":
            usage(
                "--budget counts the positions of engines v2 and v1; this game is reviewed by v3 "
                "(IS-MCTS), which counts iterations: use --samples"
            )
        bar = progress("reviewing", as_json, transient=True)
        with bar:
            task = bar.add_task("decisions", total=None)
            result = review_record(
                replay,
                samples=samples,
                seed=seed,
                time_limit=time_limit,
                node_budget=budget,
                engine=engine,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
        data = review_data(result, labels or replay.start.rules.labels)
        if target is not None:
            picture = review_svg(data, players=replay.start.rules.players, plies=len(replay.moves))
            target.write_text(picture + "\n")
            target.commit()
    if as_json:
        emit(data)
        return
    _print(result, data, svg, plies=len(replay.moves))


def _print(result: GameReview, data: dict[str, Any], svg: str | None, *, plies: int) -> None:
    table = Table(show_lines=False)
    for col, just in (("ply", "right"), ("player", "right"), ("move", "left"), ("mark", "left"),
                      ("win", "right"), ("best", "left"), ("best win", "right"),
                      ("drop", "right"), ("label", "left")):  # fmt: skip
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for m, row in zip(result.moves, data["moves"], strict=True):
        same = m.label is Label.BEST
        table.add_row(
            str(m.ply),
            str(m.player),
            row["move"],
            MARKS[m.label],
            f"{100 * m.win_played:.0f}%",
            "" if same else row["best"],
            "" if same else f"{100 * m.win_best:.0f}%",
            "" if same else f"{m.drop:.2f}",
            row["label"],
        )
    if result.moves:
        out.print(table)
    elif plies == 0:  # a record of no moves: not "every move was forced"
        out.print("No decisions to review: the record has no moves.")
    else:
        out.print("No decisions to review: every move was forced or a turn of the stock.")
    out.print(
        f"Each decision: up to {_budget(result)} (seed {result.seed}, "
        f"{_limit(result.time_limit)}); 'drop' is the expected result given up (win +1, draw 0, loss -1; JSON 'loss' is the win chance given up)."
    )
    if result.time_limited:
        out.print(
            f"The time limit stopped sampling early at {result.time_limited} "
            f"decision{'s' if result.time_limited != 1 else ''}: raise --time-limit for a "
            "reproducible review."
        )
    summary = Table(show_lines=False)
    for col in ("player", "accuracy", *[str(label) for label in Label]):
        summary.add_column(col, justify="left" if col == "player" else "right")
    for s in data["summary"]:
        summary.add_row(
            str(s["player"]),
            "-" if s["accuracy"] is None else f"{s['accuracy']:.1f}",
            *[str(s[str(label)]) for label in Label],
        )
    out.print(summary)
    if svg is not None:
        out.print(f"Written the win-chance plot to {svg}.", markup=False, soft_wrap=True)


def _budget(result: GameReview) -> str:
    """What ``--samples`` counted for the engine that reviewed the game."""
    if result.engine == "v3":
        return f"{result.samples} IS-MCTS iterations, each on its own sampled deal (engine v3)"
    return f"{result.samples} sampled deals" + (f" (engine {result.engine})" if result.engine else "")


def _limit(seconds: float) -> str:
    """The time limit per decision, as the text says it."""
    return f"{seconds:g} s" if math.isfinite(seconds) else "no time limit"
