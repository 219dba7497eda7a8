"""Game records (JSON lines): writing, reading and replaying with validation.

A record is one deal, one JSON object per line (``docs/record-format.md``)::

    {"format": "conquian-record", "version": 1, "variant": "classic", "seed": 7,
     "players": ["greedy", "random"], "start": {<position with the stock order>}}
    {"n": 1, "player": null, "move": "turn 7H"}
    {"n": 2, "player": 0, "move": "pass"}
    ...
    {"result": {"winner": 1, "returns": [-1.0, 1.0]}, "moves": 57}

``player`` is the acting seat, ``null`` for a chance move (a turn, R10).
The ``start`` position is authoritative: replaying never depends on the
random generator that dealt it.

A *view record* (header key ``view``) is the same deal as one player saw it: its start hides the
other hands and the stock order, and its moves are those he saw, ``give ?`` for a pass in the
exchange he did not see (R9); it is replayed by :class:`analyzer.core.seen.ViewPlay`, which
checks every card a move shows against what that player knows (R1, R7).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analyzer.core.cards import clip, format_card
from analyzer.core.dealing import view as view_of
from analyzer.core.errors import ConquianError, IllegalMoveError, PositionError
from analyzer.core.moves import Give, Move, Turn, parse_move
from analyzer.core.plain import dump_position
from analyzer.core.rules import get_rules
from analyzer.core.seen import SeenMove, UnseenGive, ViewPlay, parse_seen_move
from analyzer.core.state import GameState
from analyzer.formats.jsonio import (
    TOO_DEEP,
    DuplicateKeyError,
    NumberTooLongError,
    json_error_text,
    json_text,
    load_json,
)
from analyzer.formats.notation import looks_like_notation
from analyzer.formats.position import load_position
from analyzer.formats.shape_errors import check_shape
from analyzer.formats.shapes import RECORD_FORMAT, RecordHeader, RecordMove, RecordResult
from analyzer.solver.why import explain

__all__ = [
    "FORMAT",
    "RecordError",
    "Replay",
    "play_seen",
    "record_lines",
    "replay_file",
    "replay_lines",
    "view_lines",
]

FORMAT = RECORD_FORMAT


class RecordError(ConquianError, ValueError):
    """A record is corrupt or holds an illegal move; the message names the line and move."""


@dataclass(slots=True)
class Replay:
    """The result of :func:`replay_lines`.

    Attributes
    ----------
    start : GameState
        The position the record starts from.
    final : GameState
        The position after the last move.
    moves : list of Move
        The moves in order; in a view record a pass the viewer did not see is an
        :class:`~analyzer.core.seen.UnseenGive`.
    header : dict
        The first line of the record.
    finished : bool
        True when the deal is over.
    view : int or None
        The seat whose view the record is (``start`` and ``states`` are his views), ``None``
        for a record with every card known.
    states : list of GameState
        The position before each move (``states[k]`` before ``moves[k]``).
    """

    start: GameState
    final: GameState
    moves: list[SeenMove] = field(default_factory=list)
    header: dict[str, Any] = field(default_factory=dict)
    finished: bool = False
    view: int | None = None
    states: list[GameState] = field(default_factory=list)

    def full_moves(self) -> list[Move]:
        """The moves of a record with every card known.

        Raises
        ------
        RecordError
            If this is a view record, in which a pass may be unseen (R9).
        """
        if self.view is not None:
            raise RecordError(f"this is player {self.view}'s view of the deal, not a record with every card known")
        return [m for m in self.moves if not isinstance(m, UnseenGive)]


def _result(state: GameState) -> dict[str, Any]:
    return {"winner": state.winner, "returns": list(state.returns())}


def record_lines(
    start: GameState,
    moves: Iterable[tuple[int | None, SeenMove]],
    final: GameState | None = None,
    *,
    seed: int | None = None,
    players: list[str] | None = None,
    view: int | None = None,
) -> list[str]:
    """The lines of a record: header, one line per move, and the result if the deal is over.

    Parameters
    ----------
    start : GameState
        The deal, with known hands and stock order (a view record: the player's view).
    moves : iterable of (player or None, Move)
        The moves in order with the acting seat (``None`` for a turn).
    final : GameState, optional
        The last position; adds the result line when it is over.
    seed, players : optional
        Kept in the header for information.
    view : int, optional
        The seat whose view this is: a view record (header key ``view``).

    Returns
    -------
    list of str
        JSON texts without newlines.
    """
    labels = start.rules.labels
    header: dict[str, Any] = {
        "format": FORMAT,
        "version": 1,
        "variant": start.rules.name,
        "seed": seed,
        "players": players,
        "start": dump_position(start),
    }
    if view is not None:
        header = {"format": FORMAT, "version": 1, "variant": start.rules.name, "view": view,
                  "seed": seed, "players": players, "start": dump_position(start)}  # fmt: skip
    lines = [json.dumps(header, ensure_ascii=False, allow_nan=False)]
    count = 0
    for count, (player, move) in enumerate(moves, 1):
        lines.append(
            json.dumps(
                {"n": count, "player": player, "move": move.text(labels)},
                ensure_ascii=False,
                allow_nan=False,
            )
        )
    if final is not None and final.is_terminal():
        lines.append(json.dumps({"result": _result(final), "moves": count}, allow_nan=False))
    return lines


def _shape(model: Any, entry: dict[str, Any], number: int, what: str) -> None:
    """The line's keys and JSON types (analyzer.formats.shapes), before any rule check."""
    try:
        check_shape(model, entry, what)
    except ConquianError as exc:
        raise RecordError(f"line {number}: {exc}") from None


def _not_a_record(entry: Any) -> str | None:
    """What a JSON object given as a record is instead (a position, a puzzle), or ``None``."""
    if not isinstance(entry, dict) or "format" in entry:
        return None
    if any(key in entry for key in ("start", "version", "seed")):
        return None  # keys of a record header only: a header with a misspelt 'format'
    if entry.get("type") == "puzzle":
        return "a puzzle, not a game record: use 'conquian puzzle'"
    if entry.get("type") == "melds" or "queries" in entry:
        return "a meld query file, not a game record: use 'conquian melds --file'"
    if "players" in entry or "position" in entry:
        return "a position, not a game record: use 'conquian hint', 'analyze' or 'show'"
    return None


def _header(entry: dict[str, Any], number: int) -> Replay:
    instead = _not_a_record(entry)
    if instead is not None:
        raise RecordError(f"line {number}: this is {instead} (docs/record-format.md)")
    if ("format" not in entry and "start" in entry) or (entry.get("format") == FORMAT and "start" not in entry):
        # A header with a misspelt or missing 'format' or 'start': the shape check names it.
        _shape(RecordHeader, entry, number, "the header")
    if "format" not in entry or "start" not in entry:
        raise RecordError(f"line {number}: not a conquian record header (need format and start)")
    if entry.get("format") != FORMAT:
        raise RecordError(
            f"line {number}: not a conquian record header: format is "
            f"{json.dumps(entry.get('format'))[:40]}, not {json.dumps(FORMAT)}"
        )
    version = entry.get("version", 1)
    if version != 1 or isinstance(version, (bool, float)):  # 1, not 1.0 (as 'n' and 'moves')
        raise RecordError(
            f"line {number}: record version must be the number 1, got {json_text(version)}"
        )
    start_data = entry["start"]
    if not isinstance(start_data, dict):
        # A one-line notation here is named as such, with the command that converts it.
        notation = isinstance(start_data, str) and looks_like_notation(start_data)
        raise RecordError(
            f"line {number}: 'start' must be a position object (docs/position-format.md), got "
            + (
                "the one-line notation: 'conquian notation \"LINE\" --json' prints its position"
                if notation
                else json_text(start_data)
            )
        )
    # Keys and types first, with their path ("unknown key 'stok' in start; did you mean
    # 'stock'?", as for the other keys of the start).
    _shape(RecordHeader, entry, number, "the header")
    viewer = entry.get("view")
    if viewer is not None:
        return _view_header(entry, number, viewer)
    if not isinstance(start_data.get("stock"), list):
        # The position's own checks come first (a misspelt key such as "stok" is named as
        # one), then the record's stock rule.
        try:
            load_position(start_data)
        except ConquianError as exc:
            raise RecordError(f"line {number}: bad start position: {exc}") from None
        raise RecordError(
            f"line {number}: the start position must list the stock cards in order (docs/record-format.md)"
        )
    try:
        start = load_position(entry["start"])
    except ConquianError as exc:
        raise RecordError(f"line {number}: bad start position: {exc}") from None
    hidden = [p for p, hand in enumerate(start.hands) if hand is None]
    if hidden:
        raise RecordError(
            f"line {number}: the start position hides player {hidden[0]}'s hand; a record starts "
            "with every hand known (docs/record-format.md)"
        )
    _check_header_names(entry, number, start)
    return Replay(start, start, [], entry)


def _view_header(entry: dict[str, Any], number: int, viewer: int) -> Replay:
    """The header of a view record: its start is ``viewer``'s view (his hand, the other hands
    and the stock as counts), replayed by :class:`~analyzer.core.seen.ViewPlay`."""
    if isinstance(entry["start"].get("stock"), list):
        raise RecordError(
            f"line {number}: player {viewer}'s view hides the stock order: give the start's "
            "stock as its count (docs/record-format.md)"
        )
    try:
        start = load_position(entry["start"])
        ViewPlay.start(start, viewer)
    except ConquianError as exc:
        raise RecordError(f"line {number}: bad start position: {exc}") from None
    _check_header_names(entry, number, start)
    return Replay(start, start, [], entry, view=viewer)


def _check_header_names(entry: dict[str, Any], number: int, start: GameState) -> None:
    """The header's ``variant`` and ``players`` agree with the start position."""
    if "variant" in entry:
        # Read as a position's variant is: in any case ("Classic" is classic), and an unknown
        # name is reported as unknown, not as a mismatch with the start position.
        try:
            named = get_rules(entry["variant"]).name
        except ConquianError as exc:
            raise RecordError(f"line {number}: the header's variant: {exc}") from None
        if named != start.rules.name:
            raise RecordError(
                f"line {number}: the header says variant {json_text(entry['variant'])} "
                f"but the start position is {start.rules.name}"
            )
    players = entry.get("players")
    if isinstance(players, list) and len(players) != start.rules.players:
        raise RecordError(
            f"line {number}: the header names {len(players)} "
            f"player{'' if len(players) == 1 else 's'} but "
            f"{start.rules.name} is played by {start.rules.players}"
        )


def _check_result(entry: dict[str, Any], number: int, state: GameState, moves: int) -> None:
    if not state.is_terminal():
        raise RecordError(f"line {number}: the record claims a result but the deal is not over")
    _shape(RecordResult, entry, number, "the result line")
    result = entry["result"]
    expected = result.get("winner")
    if expected != state.winner:
        raise RecordError(
            f"line {number}: the record says winner {json_text(expected)}, "
            f"the replay gives {json_text(state.winner)}"
        )
    returns = result.get("returns")  # never NaN: load_json refuses it (not standard JSON)
    if returns is not None and returns != list(state.returns()):
        raise RecordError(
            f"line {number}: the record says returns {json_text(returns)}, "
            f"the replay gives {json_text(list(state.returns()))}"
        )
    if "moves" in entry and entry["moves"] != moves:
        raise RecordError(
            f"line {number}: the record says {json_text(entry['moves'])} moves, the replay has {moves}"
        )


def replay_lines(lines: Iterable[str]) -> Replay:
    """Replay a record and check every move (R8-R19).

    Raises
    ------
    RecordError
        On the first corrupt line, illegal move, wrong player, or a result
        line that does not match; the message gives the line number and, for
        a move, its number and text.
    """
    replay: Replay | None = None
    state: GameState | None = None
    play: ViewPlay | None = None  # a view record's deal, as its player saw it
    seen_result = False
    lines = iter(lines)  # the rest is read at once if the first line is not a whole object
    for number, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text:
            continue
        try:
            entry = load_json(text)
        except DuplicateKeyError as exc:
            raise RecordError(f"line {number}: {exc}: write it once") from None
        except NumberTooLongError as exc:
            raise RecordError(f"line {number}: {exc}") from None
        except json.JSONDecodeError as exc:
            if replay is None:
                # One JSON value over many lines: a record's lines as one array (what
                # 'conquian record --json' prints), or a pretty-printed position or puzzle.
                whole = text + "".join(lines)
                try:
                    parsed = load_json(whole)
                except (ValueError, RecursionError):
                    parsed = None
                if isinstance(parsed, list) and parsed and all(isinstance(x, dict) for x in parsed):
                    return replay_lines(json.dumps(x, ensure_ascii=False) for x in parsed)
                instead = _not_a_record(parsed)
                if instead is not None:
                    raise RecordError(f"this is {instead} (docs/record-format.md)") from None
                if looks_like_notation(text):
                    raise RecordError(
                        "this is a position's one-line notation, not a game record: use "
                        "'conquian hint', 'analyze' or 'show' (docs/record-format.md)"
                    ) from None
            raise RecordError(f"line {number}: not valid JSON ({json_error_text(exc)})") from None
        except RecursionError:
            raise RecordError(f"line {number}: {TOO_DEEP}") from None
        except ValueError as exc:
            raise RecordError(f"line {number}: not valid JSON ({exc})") from None
        if not isinstance(entry, dict):
            raise RecordError(f"line {number}: expected a JSON object")
        if replay is None:
            replay = _header(entry, number)
            state = replay.start
            if replay.view is not None:
                play = ViewPlay.start(state, replay.view)
            continue
        assert state is not None
        if seen_result:
            raise RecordError(f"line {number}: nothing may follow the result line")
        if "result" in entry or ("moves" in entry and "move" not in entry):
            # A line with the result line's 'moves' count and no move is one (a misspelt
            # 'result' then gets the shape check's suggestion).
            seen_result = True
            _check_result(entry, number, state, len(replay.moves))
            continue
        move_text = entry.get("move")
        n = len(replay.moves) + 1
        _shape(RecordMove, entry, number, "a move line")
        if not isinstance(move_text, str):
            raise RecordError(f"line {number} (move {n}): no move text")
        if "n" in entry and entry["n"] != n:
            raise RecordError(f"line {number}: move number {json_text(entry['n'])} should be {n}")
        try:
            move: SeenMove = (
                parse_move(move_text, state.rules.labels)
                if play is None
                else parse_seen_move(move_text, state.rules.labels)
            )
        except ConquianError as exc:
            raise RecordError(f"line {number} (move {n}): {exc}") from None
        acting = None if state.is_chance_node() else state.current_player()
        if "player" in entry and entry["player"] != acting and not state.is_terminal():
            raise RecordError(
                f"line {number} (move {n}) {clip(move_text)!r}: the record says player "
                f"{json_text(entry['player'])}{' (a chance move)' if entry['player'] is None else ''}, but "
                f"{'chance' if acting is None else f'player {acting}'} acts here"
            )
        before = state
        try:
            if play is None:
                assert not isinstance(move, UnseenGive)
                state = state.apply(move)
            else:
                play = play_seen(play, move)
                state = play.state
        except ConquianError as exc:
            hint = ""
            if isinstance(move, Turn) and state.is_chance_node() and state.stock:
                # A wrong turned card: say which card is next (R10).
                hint = f": the stock's next card is {format_card(state.stock[0], state.rules.labels)}"
            # The message shows the move in the engine's labels ('turn QS'); when the record
            # writes it otherwise ('turn 11e'), quote the move as written too.
            written = "" if move.text(state.rules.labels) == " ".join(move_text.split()) else f" {clip(move_text)!r}"
            raise RecordError(f"line {number} (move {n}){written}: {exc}{hint}") from None
        replay.moves.append(move)
        replay.states.append(before)
        replay.final = state
    if replay is None:
        raise RecordError("the record is empty")
    replay.finished = replay.final.is_terminal()
    return replay


def play_seen(play: ViewPlay, move: SeenMove) -> ViewPlay:
    """``play.apply(move)``; an illegal move's message gives the rule facts that forbid it
    (:func:`analyzer.solver.why.explain`), told from what the viewer knows: on his view, with the
    acting player's hand (when it is hidden) holding the cards his move shows, and in that
    player's name, so that no fact places a card the viewer has not seen.

    Raises
    ------
    IllegalMoveError
        As :meth:`analyzer.core.seen.ViewPlay.apply`, with the facts.
    """
    try:
        return play.apply(move)
    except IllegalMoveError as exc:
        if not str(exc).startswith("illegal move"):
            raise  # the view decided it, and the message says why
        try:
            world = play.world(move)
        except ConquianError:
            raise exc from None
        acting = play.acting()
        known = play.state
        if acting is not None and acting != play.viewer:
            known = known.evolve(hands=tuple(
                world.hands[p] if p == acting else h for p, h in enumerate(known.hands)
            ))  # fmt: skip
        facts = explain(known, move.text(known.rules.labels)).facts
        if acting is not None and acting != play.viewer:
            # His hand is the world's filling: what it lacks says nothing of what he holds, and
            # the facts speak of him, not of the viewer.
            facts = tuple(_his(f, acting) for f in facts if "not yours" not in f)
        if not facts:
            raise
        raise IllegalMoveError(f"{exc}: {'; '.join(facts)}") from None


def _his(fact: str, player: int) -> str:
    """``fact``, written to the player who acts ("you", "your"), said of ``player``."""
    fact = re.sub(r"\byour\b", f"player {player}'s", fact)
    fact = re.sub(r"\bYour\b", f"Player {player}'s", fact)
    return re.sub(r"\byou\b", f"player {player}", fact)


def view_lines(replay: Replay, viewer: int) -> list[str]:
    """The record ``replay`` as player ``viewer`` saw it: a view record (docs/record-format.md).

    Its start is his view of the start (:func:`analyzer.core.dealing.view`), its moves those he
    saw, with ``give ?`` for each pass in the exchange made face down between two other players
    (R9); the seed, which would deal the hidden cards again, is left out.

    Raises
    ------
    RecordError
        If ``viewer`` is no seat, or ``replay`` is another player's view.
    """
    rules = replay.start.rules
    if not 0 <= viewer < rules.players:
        raise RecordError(f"no player {viewer} in {rules.name} (players 0 to {rules.players - 1})")
    if replay.view is not None and replay.view != viewer:
        raise RecordError(
            f"this record is player {replay.view}'s view: it hides player {viewer}'s hand"
        )
    giver = (viewer - 1) % rules.players
    moves: list[tuple[int | None, SeenMove]] = []
    for state, move in zip(replay.states, replay.moves, strict=True):
        acting = None if state.is_chance_node() else state.to_act
        hidden = isinstance(move, Give) and acting not in (viewer, giver)
        moves.append((acting, UnseenGive() if hidden else move))
    try:
        start = view_of(replay.start, viewer)
        ViewPlay.start(start, viewer)
    except PositionError as exc:
        raise RecordError(str(exc)) from None
    return record_lines(
        start, moves, replay.final, players=replay.header.get("players"), view=viewer
    )


def replay_file(path: str | Path) -> Replay:
    """Replay the record in file ``path``; see :func:`replay_lines`.

    Raises
    ------
    RecordError
        If the file cannot be read, or as :func:`replay_lines`.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            return replay_lines(handle)
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {str(path)!r}: {exc}") from None
