"""What a position text is, and reading it: a bare position, a wrapper around one
(``conquian notation --json`` output, a puzzle file), or a file of either.

Above :mod:`analyzer.formats.position` and :mod:`analyzer.formats.notation`: a
wrapper's ``notation`` is parsed and compared with its ``position``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from analyzer.core.cards import Labels, clip
from analyzer.core.errors import PositionError
from analyzer.core.state import GameState
from analyzer.formats.notation import format_notation, parse_notation
from analyzer.formats.position import load_position, parse_json
from analyzer.formats.shape_errors import check_shape, nearest_key, nested_key
from analyzer.formats.shapes import NOTE_PREFIX, Position, PositionWrapper, PuzzleFile

__all__ = ["read_position", "unwrap_position"]


def unwrap_position(data: Any) -> Any:
    """The position data inside a wrapper object, or ``data`` itself.

    An object with a ``position`` key and no ``players`` key is a wrapper:
    ``conquian notation --json`` output (``notation``, ``position``) or a
    puzzle file (``"type": "puzzle"``, its shape checked as a puzzle).  Its
    keys are checked like every other level (docs/position-format.md): an
    unknown key is refused, naming the nearest known key, and a key of the
    position written beside ``position`` instead of inside it is named as
    such (``'stock' beside 'position'``).

    Raises
    ------
    PositionError
        If the wrapper has an unknown key or a value of the wrong type.
    """
    if not (isinstance(data, dict) and "position" in data and "players" not in data):
        return data
    if data.get("type") == "puzzle":
        check_shape(PuzzleFile, data, "a puzzle file")
        return data["position"]
    known = sorted(PositionWrapper.model_fields)
    inner = sorted(Position.model_fields)
    for key in data:
        if not isinstance(key, str) or key in known or key.startswith(NOTE_PREFIX):
            continue
        if nearest_key(key, known) is not None:
            continue
        inside = nearest_key(key, inner) or nested_key(Position, key)
        if inside is not None:
            raise PositionError(
                f"unknown key {key!r} beside 'position': the keys of a position go inside it; "
                f"did you mean 'position.{inside}'?"
            )
    check_shape(PositionWrapper, data, "the object around the position")
    if data.get("notation") is not None:
        _check_notation(data["notation"], data["position"])
    return data["position"]


def _check_notation(text: str, position: Any) -> None:
    """A wrapper's ``notation`` must parse and describe its ``position`` (both are read: which
    one counts would be unclear).  Compared in one label set, so that only the cards count."""
    try:
        described = parse_notation(text)
    except PositionError as exc:
        raise PositionError(f"notation: {exc}") from None
    state = load_position(position)
    # A notation without 'paid:' describes the position too (history is not position); one
    # with it must give the same history, 'paid:-/-' (nobody paid) too.
    n = state.rules.players
    given = any(word.startswith("paid:") for word in text.split())
    same_cards = format_notation(state.evolve(paid=()), Labels.FRENCH) == format_notation(
        described.evolve(paid=()), Labels.FRENCH
    )
    same_history = not given or (described.paid or ((),) * n) == (state.paid or ((),) * n)
    if not (same_cards and same_history):
        what = "" if not same_cards else " (its 'paid:' history is not the players' 'paid')"
        raise PositionError(
            f"notation {clip(text, 60)!r} does not describe the same position as 'position'"
            f"{what}: correct it, or leave 'notation' out"
        )


def read_position(path: str | Path) -> GameState:
    """Load and validate a position file (JSON).

    Raises
    ------
    PositionError
        If the file cannot be read or is not valid JSON, or a wrapper object
        around the position is wrong (:func:`unwrap_position`); other errors as
        :func:`load_position`.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PositionError(
            f"cannot read {str(path)!r}: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    return load_position(unwrap_position(parse_json(text, repr(str(path)))))
