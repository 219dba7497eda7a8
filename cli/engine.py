"""``conquian engine``: one process answering JSON requests on stdin, one answer line each.

The protocol (``docs/engine.md``) follows KataGo's JSON analysis engine: one
JSON object per line each way, a required ``id`` echoed in every answer,
answers in the order of the requests, errors as answers naming the ``field``
(the engine goes on), control requests by an ``action`` field, and end of
input ends the engine (exit 0).  The requests are answered by the library's
request layer (:mod:`analyzer.service.requests`), which the board's HTTP API
shares; this module reads the lines and writes the answers.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any

from analyzer.core.cards import Labels
from analyzer.core.errors import ConquianError
from analyzer.service.requests import COMMANDS, MAX_INPUT, RequestError, answer, error_answer
from cli.console import json_out
from cli.options import LabelsOpt

__all__ = ["COMMANDS", "RequestError", "answer", "engine", "serve"]

_NOT_UTF8 = "\x00not-utf-8"
_TOO_LONG = "\x00too-long"


def _lines(stream: Any) -> Iterator[str]:
    """Request lines of ``stream`` as text; a line that is not UTF-8, or longer than
    :data:`analyzer.service.requests.MAX_INPUT` bytes (read no further than that), comes as an error marker."""
    binary = getattr(stream, "buffer", None)
    if binary is None:
        yield from stream
        return
    while True:
        raw = binary.readline(MAX_INPUT + 1)
        if not raw:
            return
        if len(raw) > MAX_INPUT and not raw.endswith(b"\n"):
            # Skip the rest of the line in bounded pieces: memory stays at the cap.
            while True:
                rest = binary.readline(MAX_INPUT)
                if not rest or rest.endswith(b"\n"):
                    break
            yield _TOO_LONG
            continue
        try:
            # A byte-order mark may open any line (files joined with cat): it is not the request.
            yield raw.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            yield _NOT_UTF8


def serve(stream: Any, write: Callable[[str], None], labels: Labels | None = None) -> int:
    """Answer every request line of ``stream`` in order with ``write``.

    Parameters
    ----------
    stream : file-like
        Request lines (text, or bytes through its ``buffer``; a line that is
        not UTF-8 gets an error answer).  Blank lines are skipped.
    write : callable
        Called with each answer line (JSON and a newline), in order.
    labels : Labels, optional
        The answers' card labels where a request does not say (R2).

    Returns
    -------
    int
        0, at end of input or after a ``quit`` action.
    """
    for line in _lines(stream):
        if not line.strip():
            continue
        if line == _NOT_UTF8:
            reply, stop = error_answer(None, "the request is not UTF-8 text", None), False
        elif line == _TOO_LONG:
            limit = MAX_INPUT // (1024 * 1024)
            reply, stop = error_answer(None, f"the request line is longer than {limit} MB", None), False
        else:
            reply, stop = answer(line, labels=labels)
        try:
            text = json_out(reply)
        except ConquianError as exc:
            text = json_out(error_answer(reply.get("id"), str(exc), None))
        write(text + "\n")
        if stop:
            break
    return 0


def engine(labels: LabelsOpt = None) -> None:
    """Answer JSON requests on stdin, one answer line per request, in order (docs/engine.md).

    Each request is one line: {"id": 1, "cmd": "analyze", "position": {...}} gets
    {"id": 1, "ok": true, "result": {...}}, the result being what the command's --json prints.
    Commands: analyze, melds, hint, solve, why, notation, and the web board's deal, moves,
    play, record, review, examples, puzzle; a position is position JSON or the notation text. A bad request gets {"id": ..., "ok": false, "error": "...", "field": ...}
    and the engine goes on; end of input (or {"id": ..., "action": "quit"}) exits 0.
    --labels sets the answers' card labels where a request has no "labels".
    """

    def write(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    serve(sys.stdin, write, labels)
