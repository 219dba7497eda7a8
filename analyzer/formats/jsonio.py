"""Hardened JSON reading for every input: repeated keys, NaN and over-long numbers refused,
and the one-phrase texts that name what is wrong and where."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

from analyzer.core.cards import clip

__all__ = [
    "TOO_DEEP",
    "DuplicateKeyError",
    "FloatText",
    "NumberTooLongError",
    "json_error_text",
    "json_text",
    "load_json",
]

TOO_DEEP = "nested too deeply to read (arrays and objects inside one another about a thousand deep)"
"""What a JSON text too deep for the reader (Python's recursion limit) is called: valid JSON,
not "not valid JSON" (positions, records and engine requests say the same)."""


class DuplicateKeyError(ValueError):
    """JSON text holds one key twice in an object: which value counts is unclear, so it is refused.

    Attributes
    ----------
    key : str
        The repeated key.
    """

    def __init__(self, key: str) -> None:
        super().__init__(f"the key {clip(key)!r} appears twice in one object")
        self.key = key


class NumberTooLongError(ValueError):
    """JSON text holds a whole number with more digits than Python converts from text
    (``sys.get_int_max_str_digits()``, 4300 by default): the JSON is valid, the number is not
    readable.

    Attributes
    ----------
    digits : int
        The number's digits.
    """

    def __init__(self, digits: int) -> None:
        limit = sys.get_int_max_str_digits()
        super().__init__(
            f"a number has too many digits ({digits}; Python reads whole numbers of at most "
            f"{limit} digits: its int max str digits limit)"
        )
        self.digits = digits


def _parse_int(text: str) -> int:
    try:
        return int(text)
    except ValueError:  # json only hands over well-formed whole numbers: the digit limit
        raise NumberTooLongError(len(text.lstrip("-"))) from None


class FloatText(float):
    """A JSON number too large for a double (``1e400``), read as an infinity that remembers the
    text written, so that a message names ``1e400`` rather than ``Infinity`` (which the text
    does not hold, and standard JSON does not have).

    Attributes
    ----------
    text : str
        The number as written in the JSON text.
    """

    __slots__ = ("text",)
    text: str

    def __new__(cls, text: str) -> FloatText:
        made = super().__new__(cls, text)
        made.text = text
        return made

    def __reduce__(self) -> tuple[type[FloatText], tuple[str]]:
        return FloatText, (self.text,)


def _parse_float(text: str) -> float:
    """A JSON number with a fraction or an exponent: a float, or a :class:`FloatText` where the
    double overflows (``1e400``, ``-1e400``, a whole number of 400 digits with ``.0``)."""
    value = float(text)
    return value if math.isfinite(value) else FloatText(text)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise DuplicateKeyError(key)
        obj[key] = value
    return obj


def json_error_text(exc: json.JSONDecodeError) -> str:
    """What is wrong in a JSON text and where, in one phrase: ``"Expecting value at line 1
    column 5"``, ``"Unterminated string starting at line 1 column 17"`` (the decoder's message
    already ends in "at" there, and is not given it twice)."""
    where = f"line {exc.lineno} column {exc.colno}"
    return f"{exc.msg} {where}" if exc.msg.endswith(" at") else f"{exc.msg} at {where}"


def load_json(text: str, *, constants: bool = False) -> Any:
    """``json.loads`` for every JSON input (files, standard input, engine requests, records).

    Unlike ``json.loads``, a key repeated in one object is refused instead of
    the last value silently winning, ``NaN`` and ``Infinity`` (not standard JSON) are
    refused unless ``constants`` is true, and a number too large for a double (``1e400``) is
    an infinity that keeps its text for messages (:class:`FloatText`, :func:`json_text`).

    Parameters
    ----------
    text : str
    constants : bool
        Read ``NaN``, ``Infinity`` and ``-Infinity`` as floats (the engine's requests, whose
        checks then name the field that holds one: ``"time_limit": NaN``).

    Raises
    ------
    DuplicateKeyError
        If an object holds a key twice (a ``ValueError``).
    NumberTooLongError
        If a whole number has more digits than Python converts (a ``ValueError``).
    ValueError
        If the text holds ``NaN`` or ``Infinity`` and ``constants`` is false.
    json.JSONDecodeError, RecursionError, ValueError
        As ``json.loads``.
    """
    if constants:
        return json.loads(
            text, object_pairs_hook=_unique_keys, parse_int=_parse_int, parse_float=_parse_float
        )
    return json.loads(
        text,
        object_pairs_hook=_unique_keys,
        parse_int=_parse_int,
        parse_float=_parse_float,
        parse_constant=_refuse_constant,
    )


def _refuse_constant(name: str) -> Any:
    """``NaN``, ``Infinity`` and ``-Infinity``, which Python's ``json`` reads and standard JSON
    (RFC 8259) does not have: refused, so that ``"x-a": NaN`` is an error."""
    raise ValueError(f"{name} is not a JSON number (standard JSON has no NaN or Infinity)")


def json_text(value: Any) -> str:
    """``value`` as JSON text, clipped, for messages: ``true``, ``null``, ``"7H"``, never Python;
    a number too large for a double as it was written (``1e400``, :class:`FloatText`)."""
    if isinstance(value, FloatText):
        return clip(value.text)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = str(value)
    return clip(text)
