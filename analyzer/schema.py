"""The shapes of the JSON files: positions, game records, puzzles and meld queries.

Reading a file goes in three steps, each with its own errors:

1. **shape** (this module): every key is known, every value has the right JSON
   type.  The models are pydantic models in strict mode (no coercion: ``"1"``
   is not a number, ``true`` is not 1) that refuse unknown keys at every level,
   naming the nearest known key: ``unknown key 'toAct'; did you mean 'to_act'?``.
   Notes have documented places: ``description``, ``expected`` and ``rule`` at
   the top of a position, and any key starting with ``x-`` at any level.
2. **labels** (:func:`analyzer.cards.text_labels`): the one label set of the
   file's cards (R2).
3. **rules** (:mod:`analyzer.position`, :mod:`analyzer.records`,
   :mod:`analyzer.puzzles`): the rule checks R1, R7, R11, R14 and the others.

The JSON Schemas published in ``docs/`` are generated from these models
(:func:`json_schema`); a test checks that the published files are current.
Regenerate them with
``python -c "from analyzer.schema import write_schemas; write_schemas('docs')"``.
"""

from __future__ import annotations

import difflib
import json
import sys
import typing
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, TypeVar, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from analyzer.cards import clip
from analyzer.errors import ConquianError, PositionError

__all__ = [
    "KINDS",
    "TOO_DEEP",
    "Centre",
    "DuplicateKeyError",
    "Exchange",
    "MeldQuery",
    "MeldQueryFile",
    "NumberTooLongError",
    "Player",
    "Position",
    "PositionWrapper",
    "PuzzleAnswer",
    "PuzzleFile",
    "PuzzleQuestion",
    "RecordHeader",
    "RecordMove",
    "RecordResult",
    "check_shape",
    "json_schema",
    "json_text",
    "load_json",
    "nearest_key",
    "nested_key",
    "schema_text",
    "write_schemas",
]

TOO_DEEP = "nested too deeply to read (arrays and objects inside one another about a thousand deep)"
"""What a JSON text too deep for the reader (Python's recursion limit) is called: valid JSON,
not "not valid JSON" (positions, records and engine requests say the same)."""

NOTE_PREFIX = "x-"
"""Keys starting with this are notes, allowed at every level and ignored."""

Card = Annotated[str, Field(description="A card, rank then suit: 7H, JS, 10o, 12b (R2).")]
# The most seats of any variant is published in the schema but checked with the variant, so that
# the message names its real range ("classic has 2 players, seats 0 to 1").
Seat = Annotated[
    int,
    Field(
        ge=0,
        json_schema_extra={"maximum": 3},
        description="A player's seat, from 0 in turn order.",
    ),
]


def _shape_schema(schema: dict[str, Any], model: type[BaseModel]) -> None:
    """The published schema of a shape: ``x-`` keys are notes, and ``null`` is allowed only for
    the keys whose documented type is nullable (:attr:`_Shape.nullable_keys`)."""
    schema["patternProperties"] = {"^x-": {"description": "a note, ignored"}}
    nullable: frozenset[str] = getattr(model, "nullable_keys", frozenset())
    for key, prop in schema.get("properties", {}).items():
        if key in nullable or "anyOf" not in prop:
            continue
        kept = [branch for branch in prop["anyOf"] if branch != {"type": "null"}]
        if len(kept) == 1:
            outer = {k: v for k, v in prop.items() if k != "anyOf"}  # its own description wins
            prop.clear()
            prop.update({**kept[0], **outer})
        else:
            prop["anyOf"] = kept
        if prop.get("default", ...) is None:
            del prop["default"]  # absent, not null: the key's default is described


class _Shape(BaseModel):
    """Strict shape: JSON types only, unknown keys refused, ``x-`` keys are notes, and ``null``
    only for the keys whose documented type is nullable (:attr:`nullable_keys`): an optional key
    is left out, not written as ``null`` (``"labels": null`` is refused like ``"variant": null``).
    """

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        frozen=True,
        json_schema_extra=_shape_schema,
    )

    nullable_keys: ClassVar[frozenset[str]] = frozenset()
    """The keys that may hold ``null`` (documented so); every other key's ``null`` is refused."""

    @field_validator("*", mode="before")
    @classmethod
    def _null_only_where_documented(cls, value: Any, info: ValidationInfo) -> Any:
        name = info.field_name or ""
        if value is None and name not in cls.nullable_keys and name in cls.model_fields:
            if cls.model_fields[name].is_required():
                return value  # a required key: its type's own message ("must be a list, got null")
            raise PydanticCustomError("null_value", "must not be null")
        return value

    @field_validator("labels", mode="before", check_fields=False)
    @classmethod
    def _labels_in_any_case(cls, value: Any) -> Any:
        # "Spanish" is read as "spanish", as a variant "Classic" and the command line's
        # --labels SPANISH are (fresh-user report: only the file's labels were refused).
        if isinstance(value, str) and value.strip().lower() in ("french", "spanish"):
            return value.strip().lower()
        return value  # refused as written

    @model_validator(mode="before")
    @classmethod
    def _drop_notes(cls, data: Any) -> Any:
        if isinstance(data, dict):
            return {
                k: v
                for k, v in data.items()
                if not (isinstance(k, str) and k.startswith(NOTE_PREFIX))
            }
        return data


def _json_kind(value: Any) -> str | None:
    """``"cards"`` for a list, ``"count"`` for a whole number (not a bool), else ``None``."""
    if isinstance(value, list):
        return "<cards>"
    if isinstance(value, int) and not isinstance(value, bool):
        return "<count>"
    return None


def _cards_or_count(what: str, high: int, description: str, *, checked: bool = True) -> Any:
    """A list of cards or a count from 0 to ``high`` (published; checked here only if ``checked``,
    else by the rules, which know the variant's own limit)."""
    return Annotated[
        Union[  # noqa: UP007 - a tagged union needs the Union form
            Annotated[list[Card], Tag("<cards>")],
            Annotated[int, Field(ge=0, le=high), Tag("<count>")]
            if checked
            else Annotated[int, Field(ge=0, json_schema_extra={"maximum": high}), Tag("<count>")],
        ],
        Discriminator(
            _json_kind,
            custom_error_type="cards_or_count",
            custom_error_message=f"must be a list of cards or {what}",
        ),
        Field(description=description),
    ]


Hand = _cards_or_count(
    "the number of cards in a hidden hand (0 to 10)",
    10,
    "The hand: its cards, or how many cards it holds when it is hidden.",
    checked=False,
)
Stock = _cards_or_count(
    "the number of stock cards (0 to 40)",
    40,
    "The stock: a count, or its cards top first when the order is known.",
)


class Player(_Shape):
    """One player of a position (R6, R9)."""

    hand: Hand = []  # type: ignore[valid-type]
    layout: list[list[Card]] = Field(
        default=[], description="His melds as he arranged them (R6), each a list of cards."
    )
    gave: Card | None = Field(
        default=None, description="The card he passed in the exchange (R9, megajogos)."
    )
    paid: list[Card] = Field(
        default=[],
        description=(
            "History, optional: the cards he was seen to pay this deal, oldest first (R13, R14); "
            "the hint reads the hidden hands from them."
        ),
    )


class Centre(_Shape):
    """The centre card and its offer (R10-R14)."""

    card: Card = Field(description="The centre card.")
    kind: Literal["turned", "paid"] = Field(
        default="turned", description="Turned from the stock (R10) or paid by a player (R13)."
    )
    source: Seat = Field(description="The player who turned or paid it.")
    declined: list[Seat] = Field(
        default=[], description="Players who have passed it in this offer, in offer order (R11)."
    )
    forced: Seat | None = Field(
        default=None, description="A player forced to take it (R14), who must lay it in and pay."
    )


class Exchange(_Shape):
    """The exchange before play (R9)."""

    chosen: list[Card | None] | None = Field(
        default=None, description="Per player, the card chosen to pass so far, or null."
    )


class Position(_Shape):
    """A position (docs/position-format.md)."""

    nullable_keys = frozenset({"centre", "description", "rule", "expected"})

    model_config = ConfigDict(title="Conquian position")

    variant: str = Field(default="classic", description="A preset: classic or megajogos.")
    labels: Literal["french", "spanish"] | None = Field(
        default=None,
        description="Card labels of the file (R2); default: decided by its unambiguous cards.",
    )
    dealer: Seat | None = Field(default=None, description="The dealer; default: the last seat.")
    to_act: Seat | None = Field(
        default=None, description="The player to act; default: the one the rules name."
    )
    players: list[Player] = Field(description="One object per player, in turn order.")
    stock: Stock = 0  # type: ignore[valid-type]
    dead: list[Card] = Field(default=[], description="Dead cards, oldest first (R17).")
    centre: Centre | None = Field(
        default=None, description="The centre card; null when a stock card is turned next."
    )
    exchange: Exchange | None = Field(
        default=None, description="Present during the exchange (R9)."
    )
    type: Literal["position"] | None = Field(default=None, description='Optional: "position".')
    description: str | None = Field(default=None, description="A note: free text.")
    rule: str | None = Field(default=None, description="A note: the rules it illustrates.")
    expected: Any = Field(default=None, description="A note: expected answers, for tests.")


class PositionWrapper(_Shape):
    """An object holding a position under ``position`` (what ``conquian notation --json`` prints).

    A position read from a file, standard input or an engine request may be
    wrapped so; a puzzle file (``"type": "puzzle"``) is read from its position too,
    with the puzzle's own shape (:class:`PuzzleFile`).
    """

    nullable_keys = frozenset({"description"})

    model_config = ConfigDict(title="Conquian position, wrapped")

    position: Position = Field(description="The position (docs/position-format.md).")
    notation: str | None = Field(default=None, description="The same position as one line.")
    description: str | None = Field(default=None, description="A note: free text.")


class RecordHeader(_Shape):
    """The first line of a game record (docs/record-format.md)."""

    nullable_keys = frozenset({"seed", "players"})

    model_config = ConfigDict(title="Conquian game record: header line")

    format: Literal["conquian-record"]
    version: Literal[1] = 1
    variant: str | None = None
    seed: int | None = Field(default=None, description="Information only: the deal's seed.")
    players: list[str | None] | None = Field(
        default=None, description="Information only: who played each seat."
    )
    start: Position = Field(description="The dealt position, with every hand and the stock order.")


class RecordMove(_Shape):
    """A move line of a game record."""

    nullable_keys = frozenset({"player"})

    model_config = ConfigDict(title="Conquian game record: move line")

    n: int | None = Field(default=None, ge=1, description="Move number, from 1.")
    player: Seat | None = Field(
        default=None, description="The seat that acts, null for a chance move (R10)."
    )
    move: str = Field(description="The move text (analyzer/moves.py).")


class RecordResultData(_Shape):
    """The result of a finished deal."""

    nullable_keys = frozenset({"winner"})

    winner: int | None = Field(description="The winner's seat, or null for a draw.")
    returns: list[float] | None = Field(default=None, description="+1 / -1 / 0 per seat (R20).")


class RecordResult(_Shape):
    """The last line of a finished game record."""

    model_config = ConfigDict(title="Conquian game record: result line")

    result: RecordResultData
    moves: int | None = Field(default=None, ge=0, description="The number of moves.")


class PuzzleQuestion(_Shape):
    """A puzzle's question (docs/puzzle-format.md)."""

    kind: Literal["win", "best_pay", "go_out_within"]
    player: int | None = None
    turns: int | None = None


class PuzzleAnswer(_Shape):
    """A puzzle's stored answer; the keys allowed depend on the question."""

    wins: bool | None = None
    possible: bool | None = None
    moves: list[str] | None = None
    pays: list[Card] | None = None


class PuzzleFile(_Shape):
    """A puzzle file."""

    nullable_keys = frozenset({"description"})

    model_config = ConfigDict(title="Conquian puzzle")

    type: Literal["puzzle"]
    # The title is printed and drawn: no control characters (checked by analyzer.puzzles, which
    # names the character; the pattern only tells schema users).
    title: str = Field(default="", json_schema_extra={"pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"})
    description: str | None = None
    question: PuzzleQuestion
    answer: PuzzleAnswer | None = None
    position: Position


class MeldQueryAnswer(_Shape):
    """The expected answer of a meld query."""

    is_meld: bool | None = Field(default=None, description="The cards are one meld (R4, R5).")
    melded: int | None = Field(default=None, ge=0, description="Most cards melded (CP-SAT).")


class MeldQuery(_Shape):
    """One question of a meld query file."""

    cards: str = Field(description='Cards, e.g. "AS 2S 3S".')
    must: str = Field(default="", description="Cards that must be melded (R13).")
    variant: str | None = Field(default=None, description="Overrides the file's variant.")
    expected: MeldQueryAnswer | None = None


class MeldQueryFile(_Shape):
    """A meld query file, read by ``conquian melds --file``."""

    nullable_keys = frozenset({"description", "rule"})

    model_config = ConfigDict(title="Conquian meld queries")

    type: Literal["melds"]
    variant: str = "classic"
    labels: Literal["french", "spanish"] | None = None
    description: str | None = None
    rule: str | None = None
    # At least one query (refused by analyzer.meldfile with its own message; here for schema users).
    queries: list[MeldQuery] = Field(json_schema_extra={"minItems": 1})


RecordLine = Union[RecordHeader, RecordMove, RecordResult]  # noqa: UP007

KINDS: dict[str, Any] = {
    "position": Position,
    "record": RecordLine,
    "puzzle": PuzzleFile,
    "melds": MeldQueryFile,
}
"""The published schemas: name -> model (``docs/<name>.schema.json``)."""

_M = TypeVar("_M", bound=BaseModel)

_SYNONYMS = {
    "passed": "declined",
    "declines": "declined",
    "toact": "to_act",
    "player_to_act": "to_act",
    "turn": "to_act",
    "melds": "layout",
    "cards": "hand",
    "center": "centre",
    "centre_card": "centre",
    "deck": "stock",
    "discard": "dead",
    "discards": "dead",
    "forced_player": "forced",
    "from": "source",
    "player": "source",
    "label": "labels",
    "game": "variant",
    "preset": "variant",
}


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models inside a field's annotation (through Optional, list, Annotated)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    found: list[type[BaseModel]] = []
    for arg in typing.get_args(annotation):
        found += _models_in(arg)
    return found


def _model_at(model: Any, loc: list[str | int]) -> list[type[BaseModel]]:
    """The models whose object sits at ``loc`` below ``model`` (several for a union)."""
    current = _models_in(model)
    for part in loc:
        if isinstance(part, int):
            continue
        nxt: list[type[BaseModel]] = []
        for m in current:
            field = m.model_fields.get(part)
            if field is not None:
                nxt += _models_in(field.annotation)
        current = nxt
    return current


def _path(loc: list[str | int]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _is_list(annotation: Any) -> bool:
    """True if the annotation is a list (through Optional and Annotated)."""
    if typing.get_origin(annotation) is list:
        return True
    return any(_is_list(arg) for arg in typing.get_args(annotation) if arg is not type(None))


def _key_one_level_down(model: Any, parent: list[str | int], key: str) -> str | None:
    """The path of ``key`` in an object one level below ``parent`` that has it
    (``players[i].paid`` for a ``paid`` key given beside ``players``), or None."""
    norm = key.replace("-", "_").lower()
    for m in _model_at(model, parent):
        for name, field in m.model_fields.items():
            for child in _models_in(field.annotation):
                if norm in child.model_fields:
                    base = _path([*parent, name])
                    return f"{base}[i].{norm}" if _is_list(field.annotation) else f"{base}.{norm}"
    return None


def _nearest(key: str, known: list[str]) -> str | None:
    norm = key.replace("-", "_").lower()
    if norm in known:
        return norm
    synonym = _SYNONYMS.get(norm) or _SYNONYMS.get(norm.replace("_", ""))
    if synonym in known:
        return synonym
    squashed = {k.replace("_", ""): k for k in known}
    if norm.replace("_", "") in squashed:
        return squashed[norm.replace("_", "")]
    close = difflib.get_close_matches(norm, known, n=1, cutoff=0.6)
    return close[0] if close else None


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
    the last value silently winning, and ``NaN`` and ``Infinity`` (not standard JSON) are
    refused unless ``constants`` is true.

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
        return json.loads(text, object_pairs_hook=_unique_keys, parse_int=_parse_int)
    return json.loads(
        text, object_pairs_hook=_unique_keys, parse_int=_parse_int, parse_constant=_refuse_constant
    )


def _refuse_constant(name: str) -> Any:
    """``NaN``, ``Infinity`` and ``-Infinity``, which Python's ``json`` reads and standard JSON
    (RFC 8259) does not have: refused (a fresh-user report: ``"x-a": NaN`` was read)."""
    raise ValueError(f"{name} is not a JSON number (standard JSON has no NaN or Infinity)")


def nearest_key(key: str, known: list[str]) -> str | None:
    """The known key ``key`` was most likely meant to be (a synonym, a spelling), or ``None``."""
    return _nearest(key, known)


def nested_key(model: Any, key: str) -> str | None:
    """The path of ``key`` one level below the top of ``model`` (``players[i].paid`` for a
    position's ``paid``), or ``None`` when no object there has that key."""
    return _key_one_level_down(model, [], key)


def json_text(value: Any) -> str:
    """``value`` as JSON text, clipped, for messages: ``true``, ``null``, ``"7H"``, never Python."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = str(value)
    return clip(text)


_got = json_text


_CARD_FIELDS = {"hand", "layout", "dead", "stock", "card", "gave", "chosen", "pays"}

_MESSAGES = {
    "list_type": "must be a list",
    "string_type": "must be a text",
    "int_type": "must be a whole number",
    "float_type": "must be a number",
    "bool_type": "must be true or false",
    "model_type": "must be a JSON object",
    "dict_type": "must be a JSON object",
    "model_attributes_type": "must be a JSON object",
}


def _is_key(data: Any, loc: list[str | int], text: Any) -> bool:
    """True if ``text`` is a key of the object at ``loc`` in ``data`` (not a value)."""
    for part in loc:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return False
    return isinstance(data, dict) and isinstance(text, str) and text in data


def _describe(error: Any, model: Any, what: str, data: Any = None) -> str:
    loc = [p for p in error["loc"] if not (isinstance(p, str) and p.startswith("<"))]
    kind = error["type"]
    if kind == "string_unicode" and _is_key(data, loc, error.get("input")):
        # A key holding a lone surrogate (a "\\ud800" escape): no known key does.
        kind, loc = "extra_forbidden", [*loc, error["input"]]
    where = _path(loc) or what
    if kind == "extra_forbidden":
        key = str(loc[-1])
        parent = loc[:-1]
        known = sorted(
            {name for m in _model_at(model, parent) for name in m.model_fields}
        )
        place = f" in {_path(parent)}" if parent else ""
        near = _nearest(key, known)
        if near is not None:
            return f"unknown key {clip(key)!r}{place}; did you mean {near!r}?"
        deeper = _key_one_level_down(model, parent, key)
        if deeper is not None:
            return f"unknown key {clip(key)!r}{place}; did you mean {deeper!r} (it belongs one level down)?"
        return (
            f"unknown key {clip(key)!r}{place} (known: {', '.join(known)}; "
            f"notes go in keys starting with {NOTE_PREFIX!r})"
        )
    if kind == "null_value":
        return f"{where} must not be null: leave the key out for its default, or give a value"
    if kind == "missing":

        return f"missing key {str(loc[-1])!r}" + (f" in {_path(loc[:-1])}" if loc[:-1] else "")
    got = _got(error.get("input"))
    ctx = error.get("ctx") or {}
    named = [p for p in loc if isinstance(p, str)]
    if kind == "string_type" and named and named[-1] in _CARD_FIELDS:
        return f'{where} must be a card, a text such as "7H" or "10o", got {got}'
    if kind in _MESSAGES:
        return f"{where} {_MESSAGES[kind]}, got {got}"
    if kind == "literal_error":
        expected = str(ctx.get("expected", "")).replace("'", '"')
        return f"{where} must be {expected}, got {got}"
    if kind == "greater_than_equal":
        return f"{where} must be at least {ctx.get('ge')}, got {got}"
    if kind == "less_than_equal":
        return f"{where} must be at most {ctx.get('le')}, got {got}"
    if kind == "cards_or_count":
        return f"{where} {error['msg']}, got {got}"
    if kind == "string_unicode":
        return f"{where} must be text without a lone surrogate escape (such as \\ud800), got {got}"
    return f"{where}: {error['msg'][:1].lower()}{error['msg'][1:]}, got {got}"


def check_shape(
    model: type[_M],
    data: Any,
    what: str,
    error: type[ConquianError] = PositionError,
) -> _M:
    """Check the JSON shape of ``data`` against ``model``: keys, nesting and JSON types.

    Parameters
    ----------
    model : type
        One of the models of this module.
    data : Any
        Parsed JSON.
    what : str
        What the data is, for a message about the whole of it ("a position").
    error : type
        The exception class to raise.

    Returns
    -------
    model
        The validated data.

    Raises
    ------
    ConquianError
        Of class ``error``, one line naming the first offending key or value
        with its path (``players[0].layout``) and, for an unknown key, the
        nearest known key.
    """
    try:
        return model.model_validate(data, strict=True)
    except ValidationError as exc:
        # An unknown key explains a missing one ('toAct' for 'to_act'): name it first.
        errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")
        raise error(_describe(errors[0], model, what, data)) from None


def json_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a file kind: ``position``, ``record``, ``puzzle``, ``melds``.

    A game record is JSON lines: the schema is that of one line.

    Raises
    ------
    KeyError
        If ``kind`` is not one of :data:`KINDS`.
    """
    model = KINDS[kind]
    schema: dict[str, Any]
    if isinstance(model, type) and issubclass(model, BaseModel):
        schema = model.model_json_schema()
    else:
        schema = TypeAdapter(model).json_schema()
        schema["title"] = "Conquian game record: one line (header, move or result)"
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


def schema_text(kind: str) -> str:
    """The text of ``docs/<kind>.schema.json``: :func:`json_schema` indented, with a final newline."""
    return json.dumps(json_schema(kind), indent=2, ensure_ascii=False) + "\n"


def write_schemas(directory: str | Path) -> list[Path]:
    """Write ``<kind>.schema.json`` for every kind of :data:`KINDS` into ``directory``.

    Returns
    -------
    list of Path
        The files written.

    Raises
    ------
    OSError
        If a file cannot be written.
    """
    paths = []
    for kind in KINDS:
        path = Path(directory) / f"{kind}.schema.json"
        path.write_text(schema_text(kind), encoding="utf-8")
        paths.append(path)
    return paths
