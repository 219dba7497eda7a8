"""``conquian replay``: re-play a game record and report the first illegal move."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from analyzer.core.cards import counted
from analyzer.core.plain import relabel
from analyzer.core.stakes import Standing
from analyzer.formats.matches import MatchReplay, replay_any
from cli.boundary import json_errors
from cli.console import emit, out
from cli.inputs import input_text
from cli.options import JsonOpt, LabelsOpt

__all__ = ["print_scores", "replay"]


def replay(
    record: Annotated[
        str,
        typer.Argument(
            metavar="RECORD", help="Game or match record (JSON lines), or - for stdin."
        ),
    ],
    labels: LabelsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Re-play a game record and check every move; report the first illegal one.

    A match record (play --match, docs/record-format.md) is replayed deal by deal, and its stakes
    are recomputed from the results (R21). With --json a record that is not valid also prints
    {"valid": false, "error": ...}.
    """
    json_errors(as_json)
    text, _ = input_text(record, "record file")
    replays, match = replay_any(text.splitlines())
    if match is not None:
        _match(match, as_json)
        return
    (result,) = replays
    final = relabel(result.final, labels)
    data: dict[str, Any] = {
        "valid": True,
        "variant": final.rules.name,
        "moves": len(result.moves),
        "finished": result.finished,
        "winner": final.winner if result.finished else None,
        "final": final.describe(),
        "view": result.view,
    }
    if as_json:
        emit(data)
        return
    seen = "" if result.view is None else f" from player {result.view}'s view"
    out.print(f"Valid record{seen}: {counted(len(result.moves), 'move')}, {final.rules.title}.")
    if result.finished:
        out.print(
            "Outcome: " + ("draw" if final.winner is None else f"player {final.winner} won") + "."
        )
    else:
        out.print(f"Not finished: {final.describe()}.", markup=False)


def _match(match: MatchReplay, as_json: bool) -> None:
    """Report a replayed match: each deal's dealer, stake, winner and winnings, then the scores."""
    deals: list[dict[str, Any]] = []
    for k, deal in enumerate(match.deals):
        entry: dict[str, Any] = {
            "moves": len(deal.moves),
            "finished": deal.finished,
            "winner": deal.final.winner if deal.finished else None,
            "dealer": deal.start.dealer,
            "stake": match.standings[k].stake,
        }
        if k + 1 < len(match.standings):
            entry["won"] = list(match.standings[k + 1].won(match.standings[k]))
        deals.append(entry)
    final = match.final
    data: dict[str, Any] = {
        "valid": True,
        "match": True,
        "variant": match.deals[0].start.rules.name,
        "stakes": str(final.rule),
        "deals": deals,
        "scores": list(final.scores),
        "standing": final.as_dict(),
        # R21: a pool left when the match ends goes back to the players in equal shares.
        "final_scores": list(final.closed().scores),
    }
    if as_json:
        emit(data)
        return
    out.print(
        f"Valid match record: {counted(len(deals), 'deal')}, {data['variant']}, stakes {data['stakes']}."
    )
    for k, entry in enumerate(deals, 1):
        if not entry["finished"]:
            outcome = "not finished"
        elif entry["winner"] is None:
            outcome = "a draw"
        else:
            outcome = f"player {entry['winner']} won"
        out.print(
            f"Deal {k} (dealer {entry['dealer']}, stake {entry['stake']}): {outcome}.", markup=False
        )
    print_scores("Scores", final)


def print_scores(head: str, final: Standing) -> None:
    """A match's scores after ``head``, the pool left, and the scores with it shared back (R21)."""
    pool = f"; {final.pool} in the pool" if final.pool else ""
    scores = ", ".join(f"player {p} {s:+d}" for p, s in enumerate(final.scores))
    out.print(f"{head}: {scores}{pool}.", markup=False)
    if final.pool:
        closed = ", ".join(f"player {p} {s:+d}" for p, s in enumerate(final.closed().scores))
        out.print(f"If the match ends here, the pool goes back in equal shares (R21): {closed}.")
