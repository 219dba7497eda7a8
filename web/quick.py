"""The web board's limits on what one request may cost, applied where the request is answered
(the board's worker processes, :mod:`web.pool`): the legal moves an answer lists, the positions
a static hint ranks, and which requests are cheap enough to be answered in the server itself
(``docs/web.md``, "Searches, quick requests and limits").

A position with custom rules the rules allow (two players, ``hand_size`` 19) can have 80,000
legal moves: listed whole, a ``moves`` answer takes seconds and 30 MB.  Here a ``moves`` answer
lists the first :data:`MAX_MOVES` in the engine's order and says how many there are
(``"truncated": true, "total": N``), counting them before building any; a static hint of more than
:data:`MAX_RANKED` legal moves is refused before it ranks any.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from analyzer.core.errors import ConquianError
from analyzer.core.state import GameState
from analyzer.formats.jsonio import load_json
from analyzer.formats.notation import format_notation
from analyzer.service.board import move_entry, situation
from analyzer.service.fields import get_position
from analyzer.service.requests import COMMANDS, answer

__all__ = [
    "CAPPED",
    "CHEAP",
    "MAX_MOVES",
    "MAX_RANKED",
    "WARM",
    "answer_capped",
    "cap_moves",
    "is_cheap",
    "quick_answer",
]

MAX_MOVES = 1000
"""Most moves one answer lists (``moves``, a hint's ranking, ``play``, ``solve``'s values); the
presets' positions have a few hundred at most (classic: about 200)."""

MAX_RANKED = 10_000
"""Most legal moves of a position whose static hint the board ranks (about a second)."""

CAPPED = frozenset({"moves", "hint", "play", "solve", "puzzle"})
"""The commands whose ``result.moves`` is a list of moves, cut to :data:`MAX_MOVES`."""

CHEAP = frozenset({"variants", "examples"})
"""Commands answered in the server's own threads: their cost does not grow with the request."""

WARM = '{"id": 0, "cmd": "melds", "cards": "5H 6H 7H JS"}'
"""A request a worker answers before its first one: the first CP-SAT solve of a process pays
its set-up (about a second)."""


def is_cheap(request: Any) -> bool:
    """True when the parsed request is answered at once whatever it holds: an ``action``
    (``query_version``), a command of :data:`CHEAP`, or one the engine refuses before any work
    (not an object, no ``cmd`` or an unknown one)."""
    if not isinstance(request, dict):
        return True
    if "action" in request:
        return True
    cmd = request.get("cmd")
    return not isinstance(cmd, str) or cmd not in COMMANDS or cmd in CHEAP


def cap_moves(reply: dict[str, Any], cmd: Any) -> dict[str, Any]:
    """``reply`` with its ``result.moves`` cut to the first :data:`MAX_MOVES` when ``cmd`` is one
    of :data:`CAPPED` and the list is longer, adding ``"truncated": true`` and ``"total"`` (the
    length before the cut) to the result; any other reply as it is."""
    result = reply.get("result")
    if cmd not in CAPPED or not isinstance(result, dict):
        return reply
    moves = result.get("moves")
    if not isinstance(moves, list) or len(moves) <= MAX_MOVES:
        return reply
    return {**reply, "result": {**result, "moves": moves[:MAX_MOVES], "truncated": True, "total": len(moves)}}


def _request(line: str) -> dict[str, Any] | None:
    """The request ``line`` read as the engine reads it, or ``None`` when the engine would refuse
    it as it reads it (it then answers with its own message)."""
    try:
        request = load_json(line, constants=True)
    except (ValueError, RecursionError, ConquianError):
        return None
    return request if isinstance(request, dict) else None


def _legal(request: dict[str, Any]) -> tuple[GameState, list[Any]] | None:
    """The request's position in the answer's labels and its legal moves (R9-R16), or ``None``
    when the position does not read (the engine answers why)."""
    try:
        state, _ = get_position(request)
        return state, state.legal_moves()
    except (ConquianError, RecursionError, ValueError, TypeError):
        return None


_REFUSED = object()
"""Stands for a request the engine refuses, in :func:`_checked`."""


def _checked(request: dict[str, Any]) -> Any:
    """The request's ``id`` when the engine finds nothing wrong with its fields, its ``id``, its
    labels and its position (checked as ``notation`` checks them, which lists nothing), else
    :data:`_REFUSED` (the engine then answers the request itself, saying why)."""
    _, fields = COMMANDS[request["cmd"]]
    if not set(request) <= fields | {"id", "cmd", "labels"}:
        return _REFUSED
    shown = {k: v for k, v in request.items() if k in ("id", "labels", "position")}
    checked, _ = answer(json.dumps({**shown, "cmd": "notation"}))
    return checked["id"] if checked.get("ok") else _REFUSED


def _many_moves(request: dict[str, Any], state: GameState, moves: list[Any]) -> dict[str, Any] | None:
    """The ``moves`` answer for a position of more than :data:`MAX_MOVES` legal moves: the first
    :data:`MAX_MOVES` as the engine lists them (``analyzer.service.board.moves_data``), with
    ``truncated`` and ``total``; ``None`` when the engine refuses the request (it says why)."""
    request_id = _checked(request)
    if request_id is _REFUSED:
        return None
    labels = state.rules.labels
    entries = []
    for move in moves[:MAX_MOVES]:
        entry = move_entry(move, labels)
        entry["after"] = format_notation(state.apply(move, check=False))
        entries.append(entry)
    result = {
        **situation(state),
        "notation": format_notation(state),
        "moves": entries,
        "truncated": True,
        "total": len(moves),
    }
    return {"id": request_id, "ok": True, "result": result}


def _too_many_to_rank(request: dict[str, Any], count: int) -> dict[str, Any] | None:
    """The refusal of a static hint of ``count`` legal moves, over :data:`MAX_RANKED`; ``None``
    when the engine refuses the request (it says why)."""
    request_id = _checked(request)
    if request_id is _REFUSED:
        return None
    message = (
        f"position: {count:,} legal moves: the board ranks at most {MAX_RANKED:,} in a static hint "
        f"(docs/web.md); 'moves' lists the first {MAX_MOVES:,}"
    )
    return {"id": request_id, "ok": False, "error": message, "field": "position"}


def quick_answer(line: str) -> dict[str, Any]:
    """The engine's answer to a quick request ``line`` (:func:`analyzer.service.requests.answer`),
    within the board's limits: a ``moves`` answer of more than :data:`MAX_MOVES` legal moves lists
    the first ones and the ``total`` (only those are built), a static hint of more than
    :data:`MAX_RANKED` is refused before any move is ranked, and every list of moves of
    :data:`CAPPED` is cut (:func:`cap_moves`)."""
    request = _request(line)
    cmd = request.get("cmd") if request is not None else None
    static = cmd == "hint" and request is not None and request.get("static") is True
    if request is not None and (cmd == "moves" or static):
        legal = _legal(request)
        if legal is not None:
            state, moves = legal
            early: dict[str, Any] | None = None
            if cmd == "moves" and len(moves) > MAX_MOVES:
                early = _many_moves(request, state, moves)
            elif static and len(moves) > MAX_RANKED:
                early = _too_many_to_rank(request, len(moves))
            if early is not None:
                return early
    reply, _ = answer(line)
    return cap_moves(reply, cmd)


def answer_capped(line: str, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """The engine's answer to a search ``line``, its list of moves cut as :func:`cap_moves` cuts
    it; ``progress`` as for :func:`analyzer.service.requests.answer`."""
    request = _request(line)
    reply, _ = answer(line, progress=progress)
    return cap_moves(reply, request.get("cmd") if request is not None else None)
