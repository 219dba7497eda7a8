"""``conquian puzzle``: answer a puzzle exactly and check its stored answer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Annotated, Any

import typer

from analyzer.analysis.puzzles import Puzzle, PuzzleTry, check_puzzle, load_puzzle, solve_puzzle
from analyzer.core.cards import Labels, counted, format_card, parse_card
from analyzer.core.moves import Move, Pass, Turn, parse_move
from analyzer.core.plain import dump_position, relabel
from analyzer.core.state import GameState
from cli.boundary import DOMAIN, domain, usage
from cli.console import emit, out
from cli.inputs import input_text, json_input
from cli.options import BudgetOpt, ForceOpt, JsonOpt, LabelsOpt, TimeOpt
from cli.outputs import maybe, svg_file
from cli.play import Quit, list_moves, typed_move
from cli.show import symbols_fit, table_lines
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
    trying: Annotated[
        bool,
        typer.Option(
            "--try",
            help="Play the puzzle's moves yourself at a prompt, each checked against the proven "
            "solution, which plays the other seats; the answer is shown when you type 'answer' "
            "(or '?') or finish.",
        ),
    ] = False,
) -> None:
    """Solve a puzzle, and check its stored answer if it has one.

    Exit 1 when the stored answer is wrong, or when the search could not prove the answer
    within the budget (the stored answer is then not judged). With --try, also when the input
    ends before the puzzle does.
    """
    if trying and as_json:
        usage("--try plays at a prompt and --json prints the answer as data: give one")
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
    if trying and not verified:
        domain(
            "--try needs the proven solution, and the search could not prove it within the "
            "budget: raise --budget or --time-limit"
        )
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
        if trying and not _try(puz, state, budget, time_limit, lambda: _answer(shown, found, state)):
            return  # left at the prompt: the answer stays hidden
        _answer(shown, found, state)
        if puz.answer is not None and not verified:
            out.print("The stored answer was not checked: the search ran out of budget.")
        elif puz.answer is not None:
            out.print(
                "The stored answer is correct." if not problems else "The stored answer is WRONG:"
            )
            for line in problems:
                out.print(f"  {line}", markup=False)
        if svg is not None:
            out.print(f"Wrote the picture of the position to {svg}.", markup=False, soft_wrap=True)
    if problems or not verified:
        raise typer.Exit(DOMAIN)


def _answer(shown: dict[str, Any], found: dict[str, Any], state: GameState) -> None:
    """The proven (or not) answer, one key a line."""
    out.print(f"Answer ({'proven' if found['proven'] else 'NOT proven'}, {found['nodes']} positions):")
    for key, value in shown.items():
        if key == "value":
            # The best expected result of the player to act (R20), whoever the question asks about.
            key = f"value for player {state.to_act} (to act)"
        if key not in ("proven", "nodes"):
            out.print(f"  {key}: {_human(value)}", markup=False)


def _try(puz: Puzzle, start: GameState, budget: int, time_limit: float, answer: Callable[[], None]) -> bool:
    """The player plays the puzzle at a prompt, each move judged by the exact search (R19,
    R20); a wrong move is not played, so he may try again.  False when he left ('quit')."""
    trial = PuzzleTry(replace(puz, state=start), max_nodes=budget, time_limit=time_limit)
    lab = start.rules.labels
    me = trial.player
    out.print(
        f"You play player {me}'s moves; the solution plays the others'. Type a move or its "
        "number, 'moves', 'answer' (or '?') to see the answer, 'quit' to leave.",
        markup=False,
    )
    tried = False  # a wrong move was tried here: the position is not drawn again
    try:
        while not trial.over():
            if not trial.yours():
                mover = trial.state.to_act  # on a turn, the player who turns (R10)
                move = trial.reply()
                if isinstance(move, Turn):
                    out.print(f"player {mover} turns {format_card(move.card, lab)} (R10)", markup=False)
                else:
                    out.print(f"player {mover} (solution): {move.text(lab)}", markup=False)
                continue
            if trial.state.legal_moves() == [Pass()]:
                # His only move (R12): played for him, as 'conquian play' does.
                out.print(f"you pass (your only move; {trial.state.describe()})", markup=False)
                trial.play(Pass())
                tried = False
                continue
            move = _ask(trial, answer, fresh=not tried)
            verdict = trial.judge(move)
            tried = not verdict.right and bool(verdict.best)
            sure = "" if verdict.proven else " (not proven within the budget)"
            if verdict.right:
                out.print(f"Right: {verdict.why}{sure}.", markup=False)
                trial.play(move)
            elif not verdict.best:  # no move would do: the try ends with it
                out.print(f"Wrong: {verdict.why}{sure}.", markup=False)
                trial.play(move)
            else:
                trial.wrong += 1
                out.print(f"Wrong: {verdict.why}{sure}. Try again, or type 'answer'.", markup=False)
    except Quit:
        out.print("Puzzle left.")
        return False
    except EOFError:
        out.print()  # ends the prompt's line
        domain("the input ended before the puzzle did")
    tries = "every move right" if not trial.wrong else f"{counted(trial.wrong, 'wrong try')} on the way"
    out.print(f"Done ({trial.state.describe()}): {tries}.", markup=False)
    return True


def _ask(trial: PuzzleTry, answer: Callable[[], None], *, fresh: bool) -> Move:
    """The player's next legal move, typed at the prompt; a ``fresh`` position is drawn first."""
    state = trial.state
    moves = state.legal_moves()
    if fresh:
        for line in table_lines(dump_position(state), state.describe(), glyphs=symbols_fit()):
            out.print(line)
        list_moves(moves, state.rules.labels)
    while True:
        text = out.input("[bold]your move>[/bold] ").strip()
        word = text.lower()
        if not text:
            continue
        if word in ("quit", "exit"):
            raise Quit
        if word in ("answer", "?"):
            answer()
            continue
        if word in ("moves", "help"):
            list_moves(moves, state.rules.labels)
            continue
        move = typed_move(text, moves, state)
        if isinstance(move, str):
            out.print(move, markup=False)
            continue
        return move


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
