"""The engine's and the HTTP API's requests about game records (docs/engine.md): ``record``
(a record built from a start and its moves, a view record, or a whole record's text read) and
``review``."""

from __future__ import annotations

from typing import Any

from analyzer.analysis.review import DEFAULT_REVIEW_TIME_LIMIT
from analyzer.core.errors import ConquianError, IllegalMoveError, PositionError
from analyzer.search.limits import MAX_POSITIONS, MAX_SAMPLES, MAX_SEED
from analyzer.service import board
from analyzer.service.fields import (
    PROGRESS,
    RequestError,
    get_engine,
    get_float,
    get_int,
    get_labels,
    get_position,
)

__all__ = ["record_request", "review_request"]


def record_request(request: dict[str, Any]) -> dict[str, Any]:
    if "text" in request:
        return _read_record(request)
    state, _ = get_position(request)
    moves = request.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RequestError("'moves' must be a list of move texts (turns included)", "moves")
    players = request.get("players")
    if players is not None and (
        not isinstance(players, list) or not all(isinstance(p, str) for p in players)
    ):
        raise RequestError("'players' must be a list of names", "players")
    viewer = get_int(request, "view", None, 0)
    try:
        if viewer is not None:
            return board.view_record_data(state, moves, viewer, players)
        return board.record_data(state, moves, players, get_int(request, "seed", None, 0, MAX_SEED))
    except IllegalMoveError as exc:
        raise RequestError.about(exc, "moves") from None
    except PositionError as exc:
        raise RequestError.about(exc, "view") from None


def _read_record(request: dict[str, Any]) -> dict[str, Any]:
    """``record`` with ``text``: a record's JSON lines read and checked as ``replay`` reads them."""
    given = sorted(request.keys() & {"position", "moves", "players", "seed", "view"})
    if given:
        raise RequestError(f"'{given[0]}' is for a record built from 'position' and 'moves'; 'text' is a whole record", given[0])
    text = request.get("text")
    if isinstance(text, list) and all(isinstance(line, str) for line in text):
        text = "\n".join(text)
    if not isinstance(text, str) or not text.strip():
        raise RequestError("'text' must be the record's JSON lines, as text or a list", "text")
    try:
        return board.read_record_data(text, get_int(request, "deal", None, 1), get_labels(request))
    except ConquianError as exc:
        field = "deal" if str(exc).startswith(("deal ", "'deal'")) else "text"
        raise RequestError.about(exc, field) from None


def review_request(request: dict[str, Any]) -> dict[str, Any]:
    record = request.get("record")
    if isinstance(record, list) and all(isinstance(line, str) for line in record):
        record = "\n".join(record)
    if not isinstance(record, str) or not record.strip():
        raise RequestError("'record' must be the record's JSON lines, as text or a list", "record")
    engine = get_engine(request)
    try:
        return board.review_request_data(
            record,
            samples=get_int(request, "samples", None, 1, MAX_SAMPLES),
            seed=get_int(request, "seed", 0, 0, MAX_SEED),
            time_limit=get_float(request, "time_limit", DEFAULT_REVIEW_TIME_LIMIT, 0.05),
            budget=get_int(request, "budget", 0, 100, MAX_POSITIONS) or None,
            engine=engine,
            labels=get_labels(request),
            progress=PROGRESS.get(),
            deal=get_int(request, "deal", None, 1),
            view=get_int(request, "view", None, 0),
        )
    except RequestError:
        raise
    except ConquianError as exc:
        if str(exc).startswith(("deal ", "'deal'")):
            raise RequestError(str(exc), "deal") from None
        if str(exc).startswith(("no player", "this record is player")):
            raise RequestError(str(exc), "view") from None
        raise RequestError.about(exc, "record") from None
