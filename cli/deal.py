"""``conquian deal``: a valid dealt position to start from, without counting 40 cards."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from analyzer.bots.deals import deal_position
from analyzer.core.cards import counted
from analyzer.core.dealing import view
from analyzer.core.plain import dump_position, relabel
from analyzer.core.state import GameState
from analyzer.formats.notation import format_notation
from analyzer.search.limits import MAX_SEED
from analyzer.service.board import MAX_PLIES
from cli.boundary import usage
from cli.console import out
from cli.inputs import rules_of
from cli.options import ForceOpt, JsonOpt, PlayersOpt, RulesOpt, VariantLabelsOpt, VariantOpt
from cli.outputs import maybe, output_file

__all__ = ["deal"]


def deal(
    variant: VariantOpt = "classic",
    players: PlayersOpt = None,
    rules_options: RulesOpt = None,
    seed: Annotated[
        int, typer.Option("--seed", min=0, max=MAX_SEED, metavar="S", help="Deal seed: same seed, same deal.")
    ] = 0,
    dealer: Annotated[
        int | None,
        typer.Option("--dealer", min=0, metavar="P", help="The dealer; default: drawn with the seed."),
    ] = None,
    after: Annotated[
        int,
        typer.Option(
            "--after",
            min=0,
            max=MAX_PLIES,
            metavar="N",
            help="Play N greedy moves first (each seat from its own view; turns of the stock "
            "are not counted).",
        ),
    ] = 0,
    to_choice: Annotated[
        bool,
        typer.Option(
            "--to-choice",
            help="Then turn stock cards (R10) until a player is to choose (or the deal is over): "
            "a position that 'conquian hint' answers.",
        ),
    ] = False,
    seat: Annotated[
        int | None,
        typer.Option(
            "--view",
            min=0,
            metavar="P",
            help="Write player P's view: the other hands as counts and the stock order hidden.",
        ),
    ] = None,
    notation: Annotated[
        bool,
        typer.Option("--notation", help="Print the one-line notation instead of JSON."),
    ] = False,
    output: Annotated[
        str | None,
        typer.Option(
            "--output", "-o", metavar="FILE", help="Write the position to FILE instead of stdout (- is stdout)."
        ),
    ] = None,
    force: ForceOpt = False,
    labels: VariantLabelsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Deal a valid position (R8) with every hand and the stock order, or one player's view.

    The position is JSON in the position format (docs/position-format.md), the default and
    what --json asks for, or the one-line notation with --notation; every command that takes
    a POSITION reads either. A new deal starts with a stock card to turn (R10), where nobody
    chooses yet (or, where the dealer turns one up at the deal, its offer, R10a); after one greedy choice (--after 1) a player is to choose:
    conquian deal --after 1 | conquian hint -. After more, the next step may be a stock card to
    turn; --to-choice turns it: conquian deal --after 8 --to-choice | conquian hint -
    """
    rules = rules_of(variant, players, rules_options)
    if dealer is not None and dealer >= rules.players:
        usage(f"--dealer: {rules.name} has seats 0 to {rules.players - 1}, not {dealer}")
    if seat is not None and seat >= rules.players:
        usage(f"--view: {rules.name} has seats 0 to {rules.players - 1}, not {seat}")
    if notation and as_json:
        usage("--notation and --json choose different outputs: give one")
    target = output_file(output, "--output", force=force, stdout=True)
    with maybe(target):
        state, _ = deal_position(rules, seed=seed, dealer=dealer, after=after, to_choice=to_choice)
        if seat is not None:
            state = view(state, seat)
        state = relabel(state, labels)
        if notation:
            text = format_notation(state)
        else:
            text = json.dumps(dump_position(state), ensure_ascii=False, indent=2, allow_nan=False)
        if target is not None:
            target.write_text(text + "\n")
            target.commit()
            form = " as the one-line notation" if notation else ""
            out.print(f"Wrote {_what(state, after, seat)} to {output}{form}.", markup=False, soft_wrap=True)
            return
    out.print(text, markup=False, soft_wrap=True, highlight=False)


def _what(state: GameState, after: int, seat: int | None) -> str:
    """What ``-o`` wrote, in words: ``the position after 6 moves (classic, offer, ...)``, or
    ``(deal over, a draw)`` when the last move ended the deal (R15, R18)."""
    whose = "the position" if seat is None else f"player {seat}'s view of the position"
    when = "as dealt" if after == 0 else f"after {counted(after, 'move')}"
    if state.is_terminal():
        how = "deal over, " + ("a draw" if state.winner is None else f"player {state.winner} won")
    else:
        how = state.describe()
    return f"{whose} {when} ({how})"
