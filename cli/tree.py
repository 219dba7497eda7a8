"""``conquian tree``: explore the game tree from a position and export it (networkx)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from analyzer.core.cards import clip, counted
from analyzer.search.exact import Solver
from analyzer.search.tree import build_tree, export_tree
from cli.boundary import usage
from cli.console import emit, note, out
from cli.inputs import POSITION_HELP, position_arg
from cli.options import BudgetOpt, ForceOpt, JsonOpt, LabelsOpt, given_options
from cli.outputs import maybe, output_file, output_name
from cli.progress import progress

__all__ = ["tree"]

FORMATS = {"graphml": "graphml", "xml": "graphml", "gexf": "gexf", "json": "json"}


def tree(
    ctx: typer.Context,
    position: Annotated[str, typer.Argument(metavar="POSITION", help=POSITION_HELP)],
    depth: Annotated[
        int,
        typer.Option("--depth", "-d", min=0, max=12, metavar="N", help="Plies to expand."),
    ] = 3,
    export: Annotated[
        str | None,
        typer.Option(
            "--export",
            metavar="FILE",
            help="Write the tree: .graphml, .gexf or .json (node-link); checked before the work.",
        ),
    ] = None,
    max_nodes: Annotated[
        int, typer.Option("--max-nodes", min=1, metavar="N", help="Most tree nodes.")
    ] = 2_000,
    values: Annotated[
        bool,
        typer.Option("--values/--no-values", help="Solve every node (needs every hand known)."),
    ] = True,
    budget: BudgetOpt = 200_000,
    force: ForceOpt = False,
    labels: LabelsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Explore the game tree from POSITION and export it (networkx).

    Node values need every hand and the stock order known; otherwise the tree is built
    without them (solve gives chances for an unknown stock order). A position whose player
    to act has a hidden hand cannot be expanded: that is an error, not a tree of one node.
    """
    if not values and given_options(ctx, "budget"):
        note("--budget is the search budget of the node values: it has no effect with --no-values")
    fmt = None
    if export is not None:
        path = output_name(export, "--export")
        # The ending after the name's last dot: '.json' alone names a JSON file too, as
        # 'show --svg .svg' writes one.
        name = path.name.lower()
        fmt = FORMATS.get(name.rsplit(".", 1)[1] if "." in name else "")
        if fmt is None and not _is_dir(path):
            usage(f"--export must end in .graphml, .gexf or .json: {clip(str(export), 100)!r}")
    target = output_file(export, "--export", force=force, inputs=[position])
    with maybe(target):
        pos = position_arg(position, labels)
        state = pos.state
        exact = all(h is not None for h in state.hands) and (
            state.stock is not None or state.stock_count == 0
        )
        skipped = values and not exact
        given = given_options(ctx, "values", "budget")
        if skipped and given:
            # An explicit --values or --budget that cannot apply is a usage error, not a note.
            hand_hidden = any(h is None for h in state.hands)
            # 'solve' gives chances over an unknown stock order but needs every hand, so with a
            # hidden hand the message names 'hint' instead.
            elsewhere = (
                "'conquian hint' for the best move from this view"
                if hand_hidden
                else "'conquian solve' for chances with an unknown stock order"
            )
            usage(
                f"{' and '.join(given)}: node values need every hand and the stock order, and this "
                f"position hides {'a hand' if hand_hidden else 'the stock order'}: leave "
                f"{'them' if len(given) > 1 else 'it'} out (the tree is then built without "
                f"values), or use {elsewhere}"
            )
        bar = progress("exploring", as_json, transient=True)
        with bar:
            task = bar.add_task("nodes", total=max_nodes)
            graph = build_tree(
                state,
                depth=depth,
                max_nodes=max_nodes,
                solve_values=values and exact,
                solver=Solver(max_nodes=budget, time_limit=60.0),
                progress=lambda k: bar.update(task, completed=min(k, max_nodes)),
            )
        if target is not None and fmt is not None:
            export_tree(graph, target.tmp, fmt)
            target.commit()
    if skipped and not as_json:
        note("node values skipped: they need every hand and the stock order")
    nodes, edges = graph.number_of_nodes(), graph.number_of_edges()
    data = {
        "nodes": nodes,
        "edges": edges,
        "depth": depth,
        "truncated": graph.graph["truncated"],
        "unexpanded": graph.graph["unexpanded"],
        "root": graph.graph["root"],
        "pv": graph.graph.get("pv", []),
        "proven": graph.graph.get("proven"),
        "export": None if export is None else {"path": str(export), "format": fmt},
    }
    if as_json:
        emit(data)
        return
    out.print(f"Position: {pos.name}: {state.describe()}.", markup=False)
    out.print(
        f"Explored {counted(nodes, 'position')} and {counted(edges, 'move')} to depth {depth}"
        + (" (node limit reached)" if data["truncated"] else "")
        + "."
    )
    if data["unexpanded"]:
        out.print(
            f"{counted(data['unexpanded'], 'position')} within the depth not expanded: a hand or "
            "the stock is hidden there."
        )
    if data["pv"]:
        unproven = "" if data["proven"] else " (not proven: the budget ran out; --budget N searches more)"
        out.print("Principal variation: " + ", ".join(data["pv"]) + unproven, markup=False, soft_wrap=True)
    if export is not None:
        out.print(f"Wrote {fmt} to {export}.", markup=False, soft_wrap=True)


def _is_dir(path: Path) -> bool:
    """True if ``path`` is a directory (False for a name the system cannot look up)."""
    try:
        return path.is_dir()
    except OSError:  # a name too long: OutputFile names the fault
        return False
