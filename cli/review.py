"""``conquian review``: every decision of a game record marked, with each player's accuracy."""

from __future__ import annotations

import math
import textwrap
from typing import Annotated, Any

import typer

from analyzer.analysis.advisor import DEFAULT_ENGINE, ENGINES, searching_engine
from analyzer.analysis.review import (
    DEFAULT_REVIEW_TIME_LIMIT,
    GameReview,
    Label,
    review_record,
)
from analyzer.core.cards import counted
from analyzer.formats.matches import MatchReplay, replay_any
from analyzer.formats.records import Replay
from analyzer.service.results import review_data
from cli.boundary import domain, usage
from cli.console import emit, out
from cli.inputs import input_text
from cli.options import (
    SAMPLES_DEFAULTS,
    EngineOpt,
    ForceOpt,
    JsonOpt,
    LabelsOpt,
    deal_budget_option,
    samples_option,
    seed_option,
    time_limit_option,
)
from cli.outputs import maybe, svg_file
from cli.progress import progress
from cli.replay import print_scores
from cli.svg import review_svg

__all__ = ["review", "table_lines"]

MARKS = {
    Label.BEST: "",
    Label.GOOD: "",
    Label.INACCURACY: "?!",
    Label.MISTAKE: "?",
    Label.BLUNDER: "??",
}
"""The chess marks of the labels, after the label in the text table."""


def review(
    record: Annotated[
        str,
        typer.Argument(
            metavar="RECORD", help="Game or match record (JSON lines), or - for stdin."
        ),
    ],
    deal: Annotated[
        int | None,
        typer.Option(
            "--deal",
            min=1,
            metavar="K",
            help="Of a match record: review deal K only (default: every deal).",
        ),
    ] = None,
    samples: Annotated[int | None, samples_option(f"Most deals sampled per decision{SAMPLES_DEFAULTS}")] = None,
    seed: Annotated[int, seed_option("Sampling seed: same seed, same review.")] = 0,
    time_limit: Annotated[
        float,
        time_limit_option(
            "Most seconds of sampling per decision (default: none: each decision samples "
            "until its verdict is settled, as hint, the same on any machine)."
        ),
    ] = DEFAULT_REVIEW_TIME_LIMIT,
    budget: Annotated[
        int | None,
        deal_budget_option("Positions searched per sampled deal, as hint; default: the hint engine's."),
    ] = None,
    engine: EngineOpt = DEFAULT_ENGINE,
    viewer: Annotated[
        int | None,
        typer.Option(
            "--view",
            min=0,
            metavar="P",
            help="Review player P's decisions from his view only: the record as he saw it "
            "(conquian record --view P), each decision on what it showed by then. A view "
            "record is reviewed so by itself.",
            show_default=False,
        ),
    ] = None,
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
    choice) and turns of the stock are not reviewed. A match record (play --match) is reviewed
    deal by deal (--deal K: one deal). See docs/review.md.
    """
    target = svg_file(svg, force=force, inputs=[record])
    with maybe(target):
        text, name = input_text(record, "record file")
        if not text.strip():
            domain(f"{name} is empty: give a game record (play --record, simulate --records)")
        replays, match = replay_any(text.splitlines())
        if match is None and deal is not None:
            usage("--deal is for a match record (play --match); this is a game record")
        if match is not None and deal is not None:
            if deal > len(replays):
                usage(f"--deal {deal}: the match record holds {counted(len(replays), 'deal')}")
            replays, match = [replays[deal - 1]], None  # one deal, reviewed as a game
        if match is not None and svg is not None:
            usage("--svg plots one game: give --deal K with a match record")
        for replay in replays:
            _check_view(replay, viewer)
        if budget is not None and searching_engine(engine, replays[0].start).one_tree:
            usage(
                "--budget counts the positions of engines v2 and v1; this game is reviewed by v3 "
                "(IS-MCTS), which counts iterations: use --samples"
            )
        reviews: list[tuple[GameReview, dict[str, Any]]] = []
        bar = progress("reviewing", as_json, transient=True)
        with bar:
            task = bar.add_task("decisions", total=None)
            for replay in replays:
                result = review_record(
                    replay,
                    view=viewer,
                    samples=samples,
                    seed=seed,
                    time_limit=time_limit,
                    node_budget=budget,
                    engine=engine,
                    progress=lambda done, total: bar.update(task, completed=done, total=total),
                )
                reviews.append((result, review_data(result, labels or replay.start.rules.labels)))
        if target is not None:
            picture = review_svg(
                reviews[0][1], players=replays[0].start.rules.players, plies=len(replays[0].moves)
            )
            target.write_text(picture + "\n")
            target.commit()
    if match is not None:
        _print_match(match, reviews, as_json)
    elif as_json:
        emit(reviews[0][1])
    else:
        _print(*reviews[0], svg, plies=len(replays[0].moves))


def _check_view(replay: Replay, viewer: int | None) -> None:
    """``--view P`` names a seat of the deal, and of a view record only its own viewer."""
    n = replay.start.rules.players
    if viewer is not None and viewer >= n:
        usage(f"--view {viewer}: no such player; this {replay.start.rules.name} game has {n} players, 0 to {n - 1}")
    if viewer is not None and replay.view is not None and viewer != replay.view:
        usage(f"--view {viewer}: this record is player {replay.view}'s view; it hides player {viewer}'s hand")


def _print_match(
    match: MatchReplay, reviews: list[tuple[GameReview, dict[str, Any]]], as_json: bool
) -> None:
    """Every deal of a match reviewed with the same settings; the JSON holds one review per deal."""
    if as_json:
        # As replay's: the scores, the pool left, and the scores with it shared back (R21).
        emit({"match": True, "stakes": str(match.final.rule), "deals": [d for _, d in reviews],
              "scores": list(match.final.scores), "pool": match.final.pool,
              "final_scores": list(match.final.closed().scores)})  # fmt: skip
        return
    for k, (replay, (result, data)) in enumerate(zip(match.deals, reviews, strict=True), 1):
        out.print(f"Deal {k} of {len(match.deals)} (dealer {replay.start.dealer}):", markup=False)
        _print(result, data, None, plies=len(replay.moves))
    print_scores(f"Match scores (stakes {match.final.rule}, R21)", match.final)


def _print(result: GameReview, data: dict[str, Any], svg: str | None, *, plies: int) -> None:
    width = max(out.width, 40)
    if result.view is not None:
        out.print(
            f"From player {result.view}'s view: his decisions only, each evaluated on what the "
            "record showed him by then.",
            markup=False,
        )
    for line in table_lines(result, data, width):
        out.print(line, markup=False, soft_wrap=True)
    if not result.moves and plies == 0:  # a record of no moves: not "every move was forced"
        out.print("No decisions to review: the record has no moves.")
    elif not result.moves:
        out.print("No decisions to review: every move was forced or a turn of the stock.")
    out.print(
        f"Each decision: {_budget(result)} (seed {result.seed}, "
        f"{_limit(result.time_limit)}); 'drop' is the expected result given up (win +1, draw 0, loss -1; JSON 'loss' is the win chance given up)."
    )
    if result.time_limited:
        out.print(
            f"The time limit stopped sampling early at {result.time_limited} "
            f"decision{'s' if result.time_limited != 1 else ''}: raise --time-limit for a "
            "reproducible review."
        )
    # Each player's accuracy and count of each label, one line per player.
    heads = ["seat", "accuracy", *[str(label) for label in Label]]
    out.print(" ".join(heads), markup=False, soft_wrap=True)
    for entry in data["summary"]:
        if result.view is not None and entry["player"] != result.view:
            continue
        accuracy = "-" if entry["accuracy"] is None else f"{entry['accuracy']:.1f}"
        cells = [str(entry["player"]), accuracy, *[str(entry[str(label)]) for label in Label]]
        out.print(" ".join(f"{c:>{len(h)}}" for c, h in zip(cells, heads, strict=True)), markup=False, soft_wrap=True)
    if svg is not None:
        out.print(f"Wrote the win-chance plot to {svg}.", markup=False, soft_wrap=True)


def table_lines(result: GameReview, data: dict[str, Any], width: int) -> list[str]:
    """The review as plain lines of at most ``width`` characters: one line per decision (ply,
    seat, the move in full, win chance, drop in expected result (R20), label and mark), then
    the best move found where another was played.  A move longer than its column wraps at a
    space (never cut); nothing else does."""
    if not result.moves:
        return []
    rows = []
    for m, row in zip(result.moves, data["moves"], strict=True):
        label = f"{row['label']} {MARKS[m.label]}".rstrip()
        drop = "" if m.label is Label.BEST else f"{m.drop:.2f}"
        rows.append((str(m.ply), str(m.player), row["move"], f"{100 * m.win_played:.0f}%", drop, label))
    ply_w = max(3, *(len(r[0]) for r in rows))
    label_w = max(5, *(len(r[5]) for r in rows))
    fixed = ply_w + 1 + 4 + 1 + 1 + 4 + 1 + 4 + 1 + label_w
    move_w = max(12, min(max(len(r[2]) for r in rows), width - fixed))
    lines = [f"{'ply':>{ply_w}} seat {'move':<{move_w}} {'win':>4} {'drop':>4} label".rstrip()]
    for ply, seat, move, win, drop, label in rows:
        parts = _wrapped(move, move_w)
        head = f"{ply:>{ply_w}} {seat:>4} {parts[0]:<{move_w}} {win:>4} {drop:>4} {label}"
        lines.append(head.rstrip())
        lines += [" " * (ply_w + 6) + part for part in parts[1:]]
    better = [(m, row) for m, row in zip(result.moves, data["moves"], strict=True) if m.label is not Label.BEST]
    if better:
        lines.append("Best move found where another was played:")
        for m, row in better:
            text = f"ply {m.ply}: {row['best']} (wins {100 * m.win_best:.0f}%)"
            lines += _wrapped(text, width - 2, indent=2, more=4)
    return lines


def _wrapped(text: str, width: int, *, indent: int = 0, more: int = 0) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken at spaces only (a card or a
    meld is never cut); the first line indented by ``indent``, the others by ``indent + more``."""
    lines = textwrap.wrap(
        text, width, initial_indent=" " * indent, subsequent_indent=" " * (indent + more),
        break_long_words=False, break_on_hyphens=False,
    )  # fmt: skip
    return lines or [""]


def _budget(result: GameReview) -> str:
    """What ``--samples`` counted for the engine that reviewed the game."""
    settled = "sampled until its verdict is settled, " if result.until_decided else ""
    found = ENGINES.get(result.engine)
    if found is not None and found.one_tree:
        return f"{settled}up to {result.samples:,} IS-MCTS iterations, each on its own sampled deal (engine v3)"
    engine = f" (engine {result.engine})" if result.engine else ""
    return f"{settled}up to {result.samples} sampled deals{engine}"


def _limit(seconds: float) -> str:
    """The time limit per decision, as the text says it."""
    return f"{seconds:g} s" if math.isfinite(seconds) else "no time limit"
