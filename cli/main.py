"""The ``conquian`` command: parse arguments, call one analyzer function, render.

Exit codes: 0 success; 1 a domain error (an impossible position, an
illegal move, a position file that is not valid JSON); 2 a usage error (a
malformed card or duplicate card on the command line, an unknown variant,
a missing file, a bad option).  Every error is one line on standard error,
never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from analyzer.cards import Labels, format_card, format_mask, mask_of, parse_cards
from analyzer.errors import CardError, ConquianError, UnknownVariantError
from analyzer.hints import WEIGHTS, analyze, static_hints
from analyzer.partition import solve_arrangement
from analyzer.position import load_position
from analyzer.rules import PRESETS, Rules, get_rules
from analyzer.state import GameState

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


def fail(message: str, code: int) -> NoReturn:
    """Print one error line on stderr and exit with ``code``."""
    err.print(f"conquian: error: {message}", markup=False, soft_wrap=True)
    raise typer.Exit(code)


@contextmanager
def boundary() -> Iterator[None]:
    """Turn domain errors into one line and exit 1 (usage errors exit 2 earlier)."""
    try:
        yield
    except ConquianError as exc:
        fail(str(exc), DOMAIN)


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


def _read_position(position: str | None) -> tuple[GameState, str]:
    if position is None:
        text = resources.files("cli").joinpath("data/default-position.json").read_text("utf-8")
        name = "the bundled position (RULES.md worked example 5)"
    elif position == "-":
        text, name = sys.stdin.read(), "standard input"
    else:
        path = Path(position)
        if not path.is_file():
            fail(f"no such position file: {position!r}", USAGE)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            fail(f"cannot read {position!r}: {exc}", USAGE)
        name = position
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"{name} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", DOMAIN)
    if isinstance(data, dict) and "players" not in data and isinstance(data.get("position"), dict):
        data = data["position"]
    with boundary():
        return load_position(data), name
    raise AssertionError("unreachable")


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
    mask = _cards_arg(" ".join(cards), lab, "CARDS")
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
    try:
        state, name = _read_position(position)
    except typer.Exit:
        raise
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
    out.print(f"Valid {state.rules.name} position ({name}): {state.describe()}.")
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
    top: Annotated[int, typer.Option("--top", min=1, help="Show at most this many moves.")] = 20,
    as_json: JsonOpt = False,
) -> None:
    """Rank every legal choice of the player to act, best first (static evaluation)."""
    state, name = _read_position(position)
    lab = state.rules.labels
    with boundary():
        hints = static_hints(state)
    moves: list[dict[str, Any]] = [
        {"move": h.move.text(lab), "score": h.score, "reasons": list(h.reasons)} for h in hints
    ]
    if as_json:
        _emit(
            {
                "to_act": state.to_act,
                "evaluation": "static",
                "weights": WEIGHTS,
                "moves": moves,
            }
        )
        return
    out.print(f"Position: {name}")
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
    for k, m in enumerate(moves[:top], 1):
        table.add_row(str(k), m["move"], f"{m['score']:g}", "; ".join(m["reasons"]))
    out.print(table)
    if len(moves) > top:
        out.print(f"... and {len(moves) - top} more (use --top).")
    out.print(f"Best move: [bold]{moves[0]['move']}[/bold]")


def main() -> None:
    """Entry point for ``python -m cli``."""
    app()
