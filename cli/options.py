"""The ``Annotated`` option types: an option reads and is documented alike on every command."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from analyzer.analysis.advisor import ENGINE_NAMES
from analyzer.analysis.engines import DECIDE_CAP, ENGINES
from analyzer.core.cards import Labels, clip
from analyzer.core.rules import PRESETS
from analyzer.search.limits import MAX_POSITIONS, MAX_SAMPLES, MAX_SEED
from cli.boundary import usage

__all__ = [
    "SAMPLES_DEFAULTS",
    "BudgetOpt",
    "EngineOpt",
    "ForceOpt",
    "JsonOpt",
    "LabelsOpt",
    "MatchOpt",
    "PlayersOpt",
    "RulesOpt",
    "StakesOpt",
    "TimeOpt",
    "VariantLabelsOpt",
    "VariantOpt",
    "deal_budget_option",
    "given_options",
    "samples_option",
    "seed_option",
    "time_limit_option",
]

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
VariantOpt = Annotated[
    str,
    typer.Option(
        "--variant", "-v", metavar="NAME", help=f"Variant preset: {', '.join(PRESETS)}."
    ),
]

MatchOpt = Annotated[
    int,
    typer.Option(
        "--match",
        min=0,
        max=1000,
        metavar="N",
        help="Play each game as a match of N deals: the deal passes round the table and each deal is played "
        "for the stake of the stake rule (--stakes; R21). 0: single deals.",
    ),
]
StakesOpt = Annotated[
    str | None,
    typer.Option(
        "--stakes",
        metavar="RULE",
        help="The stake rule of a match (R21): single, double_after_draw (classic's default) or "
        "tableau; default: the variant's. Needs --match.",
    ),
]
PlayersOpt = Annotated[
    int | None,
    typer.Option(
        "--players",
        min=2,
        max=4,
        metavar="N",
        help="Number of players, one the variant allows (R8; 'conquian variants' lists each "
        "variant's player_counts); default: the variant's own.",
    ),
]


RulesOpt = Annotated[
    str | None,
    typer.Option(
        "--rules",
        metavar="NAME=VALUE,...",
        help="Rule options changed on top of the variant, as a position's 'rules' (RULES.md "
        "section 4), e.g. max_run=8,upcard=true or rearrange=borrow; "
        "'conquian variants' lists the options.",
    ),
]


def _labels_option(default: str) -> Any:
    """The ``--labels`` option (R2), saying where its default comes from."""
    return typer.Option(
        "--labels",
        "-l",
        case_sensitive=False,
        help=f"Card labels of the output, french (7H JS) or spanish (7c 10e) (R2); default: {default}.",
    )


LabelsOpt = Annotated[Labels | None, _labels_option("those of the input")]
VariantLabelsOpt = Annotated[Labels | None, _labels_option("the variant's")]
"""``--labels`` of a command without an input to take labels from (deal, play, simulate)."""
RecordLabelsOpt = Annotated[
    Labels | None, _labels_option("those of the input (the record), or the variant's when entering a game")
]
"""``--labels`` of ``record``, which reads a record or enters a new deal."""
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace an existing output file.")]
BudgetOpt = Annotated[
    int,
    typer.Option(
        "--budget",
        min=1,
        max=MAX_POSITIONS,
        metavar="N",
        help="Most positions to search before giving up the proof, per search (puzzle, tree and "
        "solve --all-moves search each move or node on its own, each with this budget).",
    ),
]
TimeOpt = Annotated[
    float,
    typer.Option("--time-limit", min=0.01, metavar="SECONDS", help="Most seconds to search."),
]


def samples_option(help: str, *, show_default: bool = False) -> Any:
    """``--samples``/``-n`` of hint, review, why and solve: 1 to :data:`MAX_SAMPLES` (whose
    commands say what a sample is and their default in ``help``)."""
    return typer.Option(
        "--samples", "-n", min=1, max=MAX_SAMPLES, metavar="N", help=help, show_default=show_default
    )


def deal_budget_option(help: str) -> Any:
    """``--budget`` of hint and review: positions searched per sampled deal, 100 to
    :data:`MAX_POSITIONS` (``None``: the engine's)."""
    return typer.Option("--budget", min=100, max=MAX_POSITIONS, metavar="N", help=help, show_default=False)


def seed_option(help: str) -> Any:
    """``--seed`` of hint, review, why and solve: 0 to :data:`MAX_SEED`."""
    return typer.Option("--seed", min=0, max=MAX_SEED, metavar="S", help=help)


def time_limit_option(help: str, *, least: float = 0.05, show_default: bool = False) -> Any:
    """``--time-limit`` in seconds, at least ``least`` (the sampling commands 0.05, solve 0.01)."""
    return typer.Option(
        "--time-limit", min=least, metavar="SECONDS", help=help, show_default=show_default
    )


def _engine_name(value: str) -> str:
    """``--engine``: a known hint engine, as its canonical name; an unknown one is a usage error."""
    name = value.strip().lower()
    if name not in ENGINE_NAMES:
        usage(f"unknown hint engine: {clip(value)!r} (known: {', '.join(ENGINE_NAMES)})")
    return name


SAMPLES_DEFAULTS = (
    " (default: sample in seeded batches until the verdict is settled, at most "
    f"{DECIDE_CAP['mcts']:,} IS-MCTS iterations for ismcts, each on its own sampled deal, "
    f"{DECIDE_CAP['lookahead']} deals for pimc, {DECIDE_CAP['exact']} for cpsat)."
)
"""The end of the ``--samples`` help of hint, why and review."""


def _engines_help() -> str:
    """``--engine``'s help: each engine by its method name, what it does and its alias."""
    each = [f"{name} ({e.description}; alias {e.name})" for name, e in ENGINES.items()]
    return (
        "Hint engine: auto (the default: ismcts for three or four players and for two "
        "under rules with no fitted leaf evaluation, else pimc), "
        f"{', '.join(each[:-1])} or {each[-1]}."
    )


EngineOpt = Annotated[
    str,
    typer.Option("--engine", metavar="NAME", callback=_engine_name, help=_engines_help()),
]
"""``--engine`` of hint and review: checked when the command line is read (exit 2)."""


def given_options(ctx: typer.Context, *names: str) -> list[str]:
    """The options among the parameters ``names`` given on the command line, as typed
    (``--samples``), to refuse options that have no effect in a mode."""
    shown: list[str] = []
    for param in ctx.command.params:
        if param.name not in names:
            continue
        source = ctx.get_parameter_source(param.name)
        if source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT", "PROMPT"):
            # A flag pair (--read/--no-read) given as its second form is named so.
            second = getattr(param, "secondary_opts", None)
            opts = second if second and ctx.params.get(param.name) is False else param.opts
            shown.append(max(opts, key=len))
    return shown
