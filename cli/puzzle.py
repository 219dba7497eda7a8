"""``conquian puzzle``: answer a puzzle exactly and check its stored answer."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from analyzer.analysis.puzzles import check_puzzle, load_puzzle, solve_puzzle
from analyzer.core.cards import Labels, format_card, parse_card
from analyzer.core.moves import parse_move
from analyzer.core.plain import dump_position, relabel
from cli.boundary import DOMAIN
from cli.console import emit, out
from cli.inputs import input_text, json_input
from cli.options import BudgetOpt, ForceOpt, JsonOpt, LabelsOpt, TimeOpt
from cli.outputs import maybe, svg_file
from cli.svg import position_svg

__all__ = ["puzzle"]


def puzzle(
    file: Annotated[str, typer.Argument(metavar="FILE", help="Puzzle JSON file, or -.")],
    budget: BudgetOpt = 2_000_000,
    time_limit: TimeOpt = 60.0,
    svg: Annotated[
        str | None,
        typer.Option(
            "--svg",
            metavar="FILE",
            help="Also write an SVG picture of the puzzle's position (as 'conquian show --svg'), "
            "for a puzzle page; checked before the work.",
        ),
    ] = None,
    force: ForceOpt = False,
    labels: LabelsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Solve a puzzle, and check its stored answer if it has one.

    Exit 1 when the stored answer is wrong, or when the search could not prove the answer
    within the budget (the stored answer is then not judged).
    """
    target = svg_file(svg, force=force, inputs=[file])
    with maybe(target):
        text, name = input_text(file, "puzzle file")
        puz = load_puzzle(json_input(text, name, "a puzzle"))
        if target is not None:
            pictured = relabel(puz.state, labels)
            caption = f"{puz.title}: {pictured.describe()}" if puz.title else pictured.describe()
            target.write_text(position_svg(dump_position(pictured), caption=caption, over=pictured.is_terminal()) + "\n")
            target.commit()
    found = solve_puzzle(puz, max_nodes=budget, time_limit=time_limit)
    verified = bool(found["proven"])
    problems = check_puzzle(puz, found) if verified else []
    own = puz.state.rules.labels
    lab = labels or own
    shown = _relabelled(found, own, lab)
    data = {
        "title": puz.title,
        "question": puz.question,
        "answer": shown,
        "checked": puz.answer is not None and verified,
        "correct": None if puz.answer is None or not verified else not problems,
        "problems": problems,
    }
    if as_json:
        emit(data)
    else:
        state = relabel(puz.state, lab)
        out.print(f"Puzzle: {puz.title or name}: {state.describe()}.", markup=False)
        out.print(f"Question: {_question_text(puz.question)}", markup=False)
        out.print(f"Answer ({'proven' if verified else 'NOT proven'}, {found['nodes']} positions):")
        for key, value in shown.items():
            if key == "value":
                # The best expected result of the player to act (R20), whoever the question asks about.
                key = f"value for player {state.to_act} (to act)"
            if key not in ("proven", "nodes"):
                out.print(f"  {key}: {_human(value)}", markup=False)
        if puz.answer is not None and not verified:
            out.print("The stored answer was not checked: the search ran out of budget.")
        elif puz.answer is not None:
            out.print(
                "The stored answer is correct." if not problems else "The stored answer is WRONG:"
            )
            for line in problems:
                out.print(f"  {line}", markup=False)
        if svg is not None:
            out.print(f"Written the picture of the position to {svg}.", markup=False, soft_wrap=True)
    if problems or not verified:
        raise typer.Exit(DOMAIN)


def _relabelled(found: dict[str, Any], own: Labels, labels: Labels) -> dict[str, Any]:
    """The answer's moves and cards in the output labels (R2)."""
    if labels == own:
        return found
    shown = dict(found)
    if "moves" in shown:
        shown["moves"] = [parse_move(m, own).text(labels) for m in shown["moves"]]
    if "pays" in shown:
        shown["pays"] = [format_card(parse_card(c, own), labels) for c in shown["pays"]]
    return shown


def _human(value: Any) -> str:
    """An answer value as a person reads it: yes/no, one move after another; never Python."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "; ".join(str(v) for v in value) if value else "none"
    if isinstance(value, float):
        return f"{value:+.3f}"
    return str(value)


def _question_text(question: dict[str, Any]) -> str:
    kind = question["kind"]
    if kind == "win":
        return f"can player {question['player']} win under best play, and with which moves?"
    if kind == "best_pay":
        return "which pay cards keep the best result?"
    return f"can player {question['player']} go out within {question['turns']} of his moves?"
