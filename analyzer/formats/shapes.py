"""The shapes of the JSON files: positions, game records, puzzles and meld queries.

Reading a file goes in three steps, each with its own errors:

1. **shape** (this module): every key is known, every value has the right JSON
   type.  The models are pydantic models in strict mode (no coercion: ``"1"``
   is not a number, ``true`` is not 1) that refuse unknown keys at every level,
   naming the nearest known key: ``unknown key 'toAct'; did you mean 'to_act'?``.
   Notes have documented places: ``description``, ``expected`` and ``rule`` at
   the top of a position, and any key starting with ``x-`` at any level.
2. **labels** (:func:`analyzer.core.cards.text_labels`): the one label set of the
   file's cards (R2).
3. **rules** (:mod:`analyzer.formats.position`, :mod:`analyzer.formats.records`,
   :mod:`analyzer.analysis.puzzles`): the rule checks R1, R7, R11, R14 and the others.

The JSON Schemas published in ``docs/`` are generated from these models
(:func:`json_schema`); a test checks that the published files are current.
Regenerate them with
``python -c "from analyzer.formats.shapes import write_schemas; write_schemas('docs')"``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, Union, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    TypeAdapter,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

__all__ = [
    "KINDS",
    "NOTE_PREFIX",
    "PUZZLE_THEMES",
    "RECORD_FORMAT",
    "Centre",
    "Exchange",
    "MeldQuery",
    "MeldQueryFile",
    "Player",
    "Position",
    "PositionWrapper",
    "PuzzleAnswer",
    "PuzzleDifficulty",
    "PuzzleFile",
    "PuzzleHint",
    "PuzzleQuestion",
    "PuzzleSource",
    "RecordHeader",
    "RecordMove",
    "RecordResult",
    "json_schema",
    "schema_text",
    "write_schemas",
]

RECORD_FORMAT = "conquian-record"
"""The ``format`` of a game record's header line (docs/record-format.md)."""

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
        # --labels SPANISH are, so that a file and the command line read labels alike.
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
    kind: Literal["turned", "paid", "upcard"] = Field(
        default="turned",
        description=(
            "Turned from the stock (R10), paid by a player (R13), or turned up by the dealer at "
            "the deal (R10a)."
        ),
    )
    source: Seat = Field(
        description="The player who turned or paid it (the dealer for the upcard)."
    )
    declined: list[Seat] = Field(
        default=[], description="Players who have passed it in this offer, in offer order (R11)."
    )
    forced: Seat | None = Field(
        default=None, description="A player forced to take it (R14), who must lay it in and pay."
    )

    @field_validator("kind", mode="before")
    @classmethod
    def _kind_in_any_case(cls, value: Any) -> Any:
        # "Upcard" is read as "upcard", as the notation reads its kinds in any case.
        if isinstance(value, str) and value.strip().lower() in ("turned", "paid", "upcard"):
            return value.strip().lower()
        return value  # refused as written


class Exchange(_Shape):
    """The exchange before play (R9)."""

    chosen: list[Card | None] | None = Field(
        default=None, description="Per player, the card chosen to pass so far, or null."
    )


class RuleOverrides(_Shape):
    """Rule options changed on top of a position's variant (RULES.md section 4).

    Each key is a :class:`~analyzer.core.rules.Rules` field; a combination the rules forbid is
    refused when the position is read, naming the rule.
    """

    model_config = ConfigDict(title="Conquian rule overrides")

    players: int | None = Field(
        default=None,
        ge=2,
        le=4,
        description="Players (R8); must equal the length of the position's 'players' list.",
    )
    hand_size: int | None = Field(default=None, ge=2, le=19, description="Cards dealt (R8).")
    max_run: int | None = Field(default=None, ge=3, le=10, description="Longest run (R5).")
    exchange: Literal["none", "pass_one"] | None = Field(default=None, description="R9.")
    rearrange: Literal["own", "borrow"] | None = Field(
        default=None, description="R13; borrow: Foster's borrowing limits (R13a)."
    )
    force_fit: Literal["layoff", "rearrange"] | None = Field(default=None, description="R14.")
    force_when: Literal["after_decline", "any_offer"] | None = Field(
        default=None, description="R14."
    )
    hand_melds: bool | None = Field(default=None, description="Hand-only melds on an offer (R16).")
    on_stock_out: Literal["draw", "fewest_in_hand"] | None = Field(default=None, description="R18.")
    upcard: bool | None = Field(default=None, description="A card turned up at the deal (R10a).")
    discard_force: bool | None = Field(
        default=None, description="Forcing with one's own paid card (R14a)."
    )


class Position(_Shape):
    """A position (docs/position-format.md)."""

    nullable_keys = frozenset({"centre", "description", "rule", "expected"})

    model_config = ConfigDict(title="Conquian position")

    variant: str = Field(default="classic", description="A preset: classic, megajogos, mexican or mexican_9_10 (conquian variants).")
    rules: RuleOverrides | None = Field(
        default=None, description="Rule options changed on top of the variant's (section 4)."
    )
    labels: Literal["french", "spanish"] | None = Field(
        default=None,
        description="Card labels of the file (R2); default: decided by its unambiguous cards.",
    )
    dealer: Seat | None = Field(default=None, description="The dealer; default: the last seat.")
    to_act: Seat | None = Field(
        default=None, description="The player to act; default: the one the rules name."
    )
    players: list[Player] = Field(
        description="One object per player, in turn order; their number is the player count, "
        "one the variant allows (R8)."
    )
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

    nullable_keys = frozenset({"seed", "players", "view"})

    model_config = ConfigDict(title="Conquian game record: header line")

    format: Literal["conquian-record"]
    version: Literal[1] = 1
    variant: str | None = None
    seed: int | None = Field(default=None, description="Information only: the deal's seed.")
    players: list[str | None] | None = Field(
        default=None, description="Information only: who played each seat."
    )
    view: Seat | None = Field(
        default=None,
        description="A view record: the seat whose view it is (his hand known, the other hands "
        "and the stock order hidden, moves as he saw them; docs/record-format.md).",
    )
    start: Position = Field(
        description="The dealt position, with every hand and the stock order; in a view record, "
        "the viewer's view of it (his hand, the other hands and the stock as counts)."
    )


class MatchHeader(_Shape):
    """The first line of a match record (docs/record-format.md, Match records)."""

    nullable_keys = frozenset({"variant", "seed", "players", "deals"})

    model_config = ConfigDict(title="Conquian match record: header line")

    format: Literal["conquian-match"]
    version: Literal[1] = 1
    stakes: Literal["single", "double_after_draw", "tableau"] = Field(
        description="The stake rule (R21)."
    )
    variant: str | None = Field(default=None, description="The preset of every deal.")
    seed: int | None = Field(default=None, ge=0, description="Information only: the match's seed.")
    players: list[str | None] | None = Field(
        default=None, description="Information only: who played each seat."
    )
    deals: int | None = Field(default=None, ge=1, description="Information only: the deals planned.")


class MatchStandingData(_Shape):
    """A match's standing (R21), as analyzer.core.stakes.Standing.as_dict writes it."""

    model_config = ConfigDict(title="Conquian match standing")

    stakes: Literal["single", "double_after_draw", "tableau"]
    scores: list[int] = Field(description="Each player's winnings, in stakes.")
    stake: int = Field(ge=1, description="The next deal's stake.")
    pool: int = Field(ge=0, description="Stakes in the tableau pool.")
    dealer: int = Field(ge=0, description="The next deal's dealer.")
    deals: int = Field(ge=0, description="Deals played.")


class MatchStanding(_Shape):
    """The last line of a match record: the standing after its deals."""

    model_config = ConfigDict(title="Conquian match record: standing line")

    standing: MatchStandingData


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


PuzzleTheme = Literal[
    "going_out", "forcing", "declining", "hand_meld", "giving", "arranging", "paying_safe", "melding"
]

PUZZLE_THEMES: tuple[str, ...] = get_args(PuzzleTheme)
"""The themes of a mined puzzle, in the order they are tried (docs/puzzle-format.md, Mined puzzles)."""


class PuzzleHint(_Shape):
    """One hint asked for a mined puzzle's difficulty."""

    samples: int = Field(ge=1, description="Deals the hint sampled.")
    move: str = Field(description="The hint's best move.")
    found: bool = Field(description="The hint's best move is one of the answer's moves.")


class PuzzleDifficulty(_Shape):
    """How hard a mined puzzle is (docs/puzzle-format.md, Mined puzzles)."""

    nullable_keys = frozenset({"found_at"})

    plies: int = Field(
        ge=1,
        description="Plies to the win under best play (the winner hurries, the others delay; "
        "turns of stock cards not counted).",
    )
    hint: list[PuzzleHint] = Field(
        default=[], description="The hint from the player's own view at each number of samples."
    )
    found_at: int | None = Field(
        default=None, ge=1, description="The fewest samples whose hint finds the move; null: none does."
    )
    hint_seed: int | None = Field(default=None, ge=0, description="The seed of the hints.")


class PuzzleSource(_Shape):
    """Where a mined puzzle comes from: a record, or a self-play game."""

    record: str | None = Field(default=None, description="The record file's name.")
    deal: int | None = Field(default=None, ge=1, description="The deal of a match record, from 1.")
    bots: list[str] | None = Field(default=None, description="Self-play: the bot at each seat.")
    seed: int | None = Field(default=None, ge=0, description="Self-play: the run's seed.")
    game: int | None = Field(default=None, ge=0, description="Self-play: the game's number in the run, from 0.")
    move: int | None = Field(
        default=None, ge=1, description="The number of the move played at the puzzle's position, from 1."
    )
    played: str | None = Field(default=None, description="The move played there in the game.")


class PuzzleFile(_Shape):
    """A puzzle file."""

    nullable_keys = frozenset({"description"})

    model_config = ConfigDict(title="Conquian puzzle")

    type: Literal["puzzle"]
    # The title is printed and drawn: no control characters (checked by analyzer.analysis.puzzles, which
    # names the character; the pattern only tells schema users).
    title: str = Field(default="", json_schema_extra={"pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"})
    description: str | None = None
    question: PuzzleQuestion
    answer: PuzzleAnswer | None = None
    position: Position
    theme: PuzzleTheme | None = Field(
        default=None, description="Mined puzzles: what decides the win (docs/puzzle-format.md)."
    )
    difficulty: PuzzleDifficulty | None = Field(default=None, description="Mined puzzles: how hard.")
    line: list[str] | None = Field(
        default=None,
        description="Mined puzzles: a line of best play from the position to the win, turns included.",
    )
    source: PuzzleSource | None = Field(default=None, description="Mined puzzles: where from.")


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
    # At least one query (refused by analyzer.formats.meldfile with its own message; here for schema users).
    queries: list[MeldQuery] = Field(json_schema_extra={"minItems": 1})

RecordLine = Union[RecordHeader, RecordMove, RecordResult]  # noqa: UP007

KINDS: dict[str, Any] = {
    "position": Position,
    "record": RecordLine,
    "puzzle": PuzzleFile,
    "melds": MeldQueryFile,
}
"""The published schemas: name -> model (``docs/<name>.schema.json``)."""


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
