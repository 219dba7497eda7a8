"""Reading the fields of an engine or HTTP request (docs/engine.md): one check per type, the
same message for every command, and :class:`RequestError` naming the field."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from analyzer.analysis.advisor import DEFAULT_ENGINE, ENGINE_NAMES
from analyzer.core.cards import Labels, clip
from analyzer.core.errors import ConquianError
from analyzer.core.plain import relabel
from analyzer.core.rules import PRESETS
from analyzer.core.state import GameState
from analyzer.formats.jsonio import json_text
from analyzer.formats.notation import parse_notation
from analyzer.formats.position import load_position
from analyzer.formats.sniff import unwrap_position

__all__ = [
    "PROGRESS",
    "RequestError",
    "get_bool",
    "get_engine",
    "get_float",
    "get_int",
    "get_labels",
    "get_position",
    "get_text",
    "get_value",
]


PROGRESS: ContextVar[Callable[[int, int], None] | None] = ContextVar("progress", default=None)
"""The ``progress`` callback of the request being answered (:func:`answer`)."""


class RequestError(ConquianError):
    """A bad request: answered with ``ok: false``, naming the request's ``field``."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field

    @classmethod
    def about(cls, exc: ConquianError, field: str) -> RequestError:
        """``exc`` found reading the request's ``field``, as ``field: message``; an error about
        an option (:attr:`ConquianError.option`, e.g. the labels) names that field instead."""
        if exc.option is not None:
            return cls(exc.request_message or str(exc), exc.option)
        return cls(f"{field}: {exc}", field)


def get_value(request: dict[str, Any], key: str, kinds: tuple[type, ...], what: str) -> Any:
    """``request[key]`` if it is one of ``kinds`` (a bool is no number), else :class:`RequestError`
    saying it must be ``what``."""
    value = request[key]
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise RequestError(f"'{key}' must be {what}, got {json_text(value)}", key)
    return value


def get_int(
    request: dict[str, Any], key: str, default: Any, low: int, high: int | None = None
) -> Any:
    if key not in request:
        return default
    value: int = get_value(request, key, (int,), "a whole number")
    if value < low or (high is not None and value > high):
        span = f"at least {low}" if high is None else f"from {low} to {high}"
        raise RequestError(f"'{key}' must be {span}, got {value}", key)
    return value


def get_float(request: dict[str, Any], key: str, default: float, low: float) -> float:
    if key not in request:
        return default
    given = get_value(request, key, (int, float), "a number of seconds")
    value = float(given)
    if math.isnan(value) or value < low:  # infinity (1e400) is no limit, as --time-limit inf
        raise RequestError(
            f"'{key}' must be a number of seconds of at least {low:g} (1e400: no limit), got "
            f"{json_text(given)}",
            key,
        )
    return value


def get_bool(request: dict[str, Any], key: str) -> bool:
    if key not in request:
        return False
    value: bool = get_value(request, key, (bool,), "true or false")
    return value


def get_text(request: dict[str, Any], key: str, default: str | None = None) -> str:
    if key not in request:
        if default is None:
            raise RequestError(f"'{key}' is missing", key)
        return default
    value: str = get_value(request, key, (str,), "text")
    return value


def get_labels(request: dict[str, Any]) -> Labels | None:
    if "labels" not in request or request["labels"] is None:
        return None
    value = get_value(request, "labels", (str,), '"french" or "spanish"')
    try:
        return Labels(value.lower())
    except ValueError:
        raise RequestError(f"'labels' must be \"french\" or \"spanish\", got {value!r}", "labels") from None


def get_position(request: dict[str, Any]) -> tuple[GameState, Labels]:
    """The request's position (position data, or the notation as text) in the answer's labels,
    with the position's own labels (R2)."""
    if "position" not in request:
        raise RequestError("'position' is missing: position data or the notation text", "position")
    data = request["position"]
    if isinstance(data, str) and len(data.split()) == 1:
        word = data.strip()
        if word.lower().endswith(".json") or "/" in word or "\\" in word or word == "-":
            raise RequestError(
                f"position {clip(word)!r} looks like a file name: the engine does not read "
                "files; give the position data itself or the notation text",
                "position",
            )
        if word.lower() not in PRESETS:
            raise RequestError(
                f"position {clip(word)!r} is not a position: give the position data (a JSON "
                "object) or the notation text, which starts with the variant (classic, megajogos, mexican, ...)",
                "position",
            )
    try:
        if isinstance(data, str):
            state = parse_notation(data)
        else:
            state = load_position(unwrap_position(data))
    except RecursionError:
        raise RequestError("position: nested too deeply to read", "position") from None
    except ConquianError as exc:
        raise RequestError.about(exc, "position") from None
    return relabel(state, get_labels(request)), state.rules.labels


def get_engine(request: dict[str, Any]) -> str:
    """The request's hint ``engine`` (:data:`analyzer.analysis.advisor.ENGINE_NAMES`), ``auto`` by default."""
    name = get_text(request, "engine", DEFAULT_ENGINE).strip().lower()
    if name not in ENGINE_NAMES:
        raise RequestError(
            f"'engine' must be one of {', '.join(ENGINE_NAMES)}, got {json.dumps(name)[:40]}", "engine"
        )
    return name
