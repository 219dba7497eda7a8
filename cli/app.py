"""The ``conquian`` typer app: registers every command module.

The entry point :func:`cli.main.main` imports this module (and with it
typer, rich and the analyzer) only after it has set up Ctrl-C handling.

Each command lives in its own module (``cli/hint.py``, ``cli/melds.py``, ...)
that only parses and renders; the pieces they share are one module each:
the error boundary (:mod:`cli.boundary`), standard output and JSON
(:mod:`cli.console`), option types (:mod:`cli.options`), input reading with
the label choice (:mod:`cli.inputs`), output files (:mod:`cli.outputs`) and
progress (:mod:`cli.progress`).

Exit codes: 0 success; 1 a domain error (an impossible position, an
illegal move, a position file that is not valid JSON); 2 a usage error (a
malformed card or duplicate card on the command line, an unknown variant,
a missing file, an unusable output path, a bad option).  Every error is one
line on standard error, never a traceback.
"""

from __future__ import annotations

from typing import Annotated

import typer

from cli import (
    analyze,
    deal,
    engine,
    hint,
    melds,
    notation,
    play,
    puzzle,
    record,
    replay,
    review,
    serve,
    show,
    simulate,
    solve,
    tree,
    variants,
    why,
)
from cli.boundary import Command, Group
from cli.console import out

__all__ = ["COMMANDS", "app"]

app = typer.Typer(
    name="conquian",
    cls=Group,
    help="Play, check and analyse Conquian, the oldest rummy game of the West.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

COMMANDS = (
    ("variants", variants.variants),
    ("melds", melds.melds),
    ("analyze", analyze.analyze),
    ("hint", hint.hint),
    ("why", why.why),
    ("replay", replay.replay),
    ("simulate", simulate.simulate),
    ("play", play.play),
    ("solve", solve.solve),
    ("tree", tree.tree),
    ("puzzle", puzzle.puzzle),
    ("review", review.review),
    ("record", record.record),
    ("notation", notation.notation),
    ("show", show.show),
    ("deal", deal.deal),
    ("engine", engine.engine),
    ("serve", serve.serve),
)
"""Every command, by name, in the order of ``conquian --help``."""

for _name, _function in COMMANDS:
    app.command(name=_name, cls=Command)(_function)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        from analyzer.core.native import core_description

        out.print(f"conquian {version('conquian')}", markup=False)
        out.print(core_description(), markup=False)
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
