"""Match records: the deals of a match and their stakes, as JSON lines (docs/record-format.md).

A match record is a header line, then each deal as a game record (its own header, moves and
result: :mod:`analyzer.formats.records`), then an optional ``standing`` line::

    {"format": "conquian-match", "version": 1, "variant": "classic", "stakes": "double_after_draw",
     "players": ["human", "greedy"], "seed": 7, "deals": 3}
    {"format": "conquian-record", "version": 1, "variant": "classic", ...}
    {"n": 1, "player": null, "move": "turn 7H"}
    ...
    {"result": {"winner": null, "returns": [0.0, 0.0]}, "moves": 63}
    {"format": "conquian-record", ...}
    ...
    {"standing": {"stakes": "double_after_draw", "scores": [2, -2], "stake": 1, ...}}

The stakes are not trusted from the file: replaying a match recomputes them from the deals' results
under its stake rule (R21), and checks the ``standing`` line, when present, against them.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from analyzer.core.cards import clip
from analyzer.core.errors import ConquianError
from analyzer.core.moves import Move
from analyzer.core.stakes import StakeRule, Standing
from analyzer.core.state import GameState
from analyzer.formats.records import FORMAT, RecordError, Replay, record_lines, replay_lines
from analyzer.formats.shape_errors import check_shape
from analyzer.formats.shapes import MatchHeader, MatchStanding

__all__ = [
    "MATCH_FORMAT",
    "MatchReplay",
    "is_match_text",
    "match_lines",
    "replay_any",
    "replay_match_lines",
]

MATCH_FORMAT = "conquian-match"


@dataclass(slots=True)
class MatchReplay:
    """A match replayed: its header, each deal's :class:`~analyzer.formats.records.Replay`, and the
    standing before the first deal and after each finished deal (R21)."""

    header: dict[str, Any]
    deals: list[Replay] = field(default_factory=list)
    standings: list[Standing] = field(default_factory=list)

    @property
    def final(self) -> Standing:
        """The standing after the last finished deal."""
        return self.standings[-1]


def match_lines(
    games: Sequence[tuple[GameState, Sequence[tuple[int | None, Move]], GameState]],
    standing: Standing,
    *,
    seeds: Sequence[int | None] | None = None,
    players: list[str] | None = None,
    seed: int | None = None,
    planned: int | None = None,
) -> list[str]:
    """The lines of a match record: the header, each deal's record, the standing after them.

    Parameters
    ----------
    games : sequence of (start, moves, final)
        The deals in order (the last may be unfinished, when the match stopped there).
    standing : Standing
        The standing before the first deal (its stake rule and first dealer).
    seeds, players, seed, planned : optional
        Information: each deal's seed, the player at each seat, the match's seed, the deals
        planned.
    """
    rules = games[0][0].rules if games else None
    header = {
        "format": MATCH_FORMAT,
        "version": 1,
        "variant": None if rules is None else rules.name,
        "stakes": str(standing.rule),
        "players": players,
        "seed": seed,
        "deals": planned,
    }
    lines = [json.dumps(header, ensure_ascii=False, allow_nan=False)]
    for k, (start, moves, final) in enumerate(games):
        deal_seed = None if seeds is None else seeds[k]
        lines += record_lines(start, moves, final, seed=deal_seed, players=players)
        if final.is_terminal():
            standing = standing.after(final.winner)
    lines.append(json.dumps({"standing": standing.as_dict()}, allow_nan=False))
    return lines


def is_match_text(first_line: str) -> bool:
    """True if ``first_line`` is a match record's header."""
    try:
        entry = json.loads(first_line)
    except (ValueError, RecursionError):
        return False
    return isinstance(entry, dict) and entry.get("format") == MATCH_FORMAT


def _entry(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def replay_match_lines(lines: Iterable[str]) -> MatchReplay:
    """Replay a match record: every deal as :func:`~analyzer.formats.records.replay_lines`
    checks it, the deal passing round the table, the stakes recomputed (R21).

    Raises
    ------
    RecordError
        For a bad header, a deal that does not replay (with the line number in the file), a
        deal after an unfinished one, a dealer out of turn, a deal of other rules or players,
        or a ``standing`` line that the results do not give.
    """
    texts = list(lines)
    header = _entry(texts[0]) if texts else None
    if not isinstance(header, dict) or header.get("format") != MATCH_FORMAT:
        raise RecordError(f"line 1: not a match record (its first line has \"format\": \"{MATCH_FORMAT}\")")
    try:
        check_shape(MatchHeader, header, "the match header")
    except ConquianError as exc:
        raise RecordError(f"line 1: {exc}") from None
    rule = StakeRule(header["stakes"])
    starts: list[int] = []
    end: tuple[int, Any] | None = None
    for number, text in enumerate(texts[1:], 2):
        entry = _entry(text) if text.strip() else None
        if isinstance(entry, dict) and entry.get("format") == FORMAT:
            if end is not None:
                raise RecordError(f"line {number}: nothing may follow the standing line")
            starts.append(number)
        elif isinstance(entry, dict) and "standing" in entry:
            if end is not None:
                raise RecordError(f"line {number}: a second standing line")
            end = (number, entry)
        elif not starts and text.strip():
            raise RecordError(f"line {number}: expected a deal's record header after the match header")
    if not starts:
        raise RecordError("the match record holds no deal")
    replay = MatchReplay(header)
    bounds = [*starts, end[0] if end else len(texts) + 1]
    for k, (first, stop) in enumerate(itertools.pairwise(bounds)):
        # Blank lines in front keep replay_lines' line numbers those of the file.
        deal = replay_lines([""] * (first - 1) + texts[first - 1 : stop - 1])
        if replay.deals and not replay.deals[-1].finished:
            raise RecordError(f"line {first}: deal {k + 1} follows deal {k}, which is not finished")
        rules = deal.start.rules
        if k == 0:
            replay.standings.append(Standing.start(rule, rules.players, deal.start.dealer))
        elif rules != replay.deals[0].start.rules:
            raise RecordError(f"line {first}: deal {k + 1} is played under other rules than deal 1")
        elif deal.start.dealer != replay.standings[-1].dealer:
            raise RecordError(
                f"line {first}: deal {k + 1} is dealt by player {deal.start.dealer}, but the deal "
                f"passes to player {replay.standings[-1].dealer} (R21)"
            )
        if k == 0:
            named = header.get("variant")
            if named is not None and named != rules.name:
                raise RecordError(
                    f"line 1: the match header says variant {clip(str(named))!r}, but deal 1 is "
                    f"{rules.name}"
                )
            seats = header.get("players")
            if seats is not None and len(seats) != rules.players:
                raise RecordError(
                    f"line 1: 'players' names {len(seats)} players, but the deals have "
                    f"{rules.players} seats"
                )
        replay.deals.append(deal)
        if deal.finished:
            replay.standings.append(replay.standings[-1].after(deal.final.winner))
    if end is not None:
        number, entry = end
        try:
            check_shape(MatchStanding, entry, "the standing line")
        except ConquianError as exc:
            raise RecordError(f"line {number}: {exc}") from None
        written = {k: v for k, v in entry["standing"].items() if not k.startswith("x-")}
        computed = replay.final.as_dict()
        if written != computed:
            raise RecordError(
                f"line {number}: the standing line says {json.dumps(written)}, but the deals give "
                f"{json.dumps(computed)} (R21)"
            )
    return replay


def replay_any(lines: Sequence[str]) -> tuple[list[Replay], MatchReplay | None]:
    """The deals of a game record (one) or of a match record (each, and the match), replayed
    and checked as :func:`~analyzer.formats.records.replay_lines` and
    :func:`replay_match_lines` check them.

    Raises
    ------
    RecordError
        As those functions.
    """
    if lines and is_match_text(lines[0]):
        match = replay_match_lines(lines)
        return list(match.deals), match
    return [replay_lines(lines)], None
