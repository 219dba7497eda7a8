"""A position as one line of text, like FEN in chess (``docs/notation.md``).

::

    classic french 1 1 KS,KH[AC,2C,3C,4C][4S,5S,6S,7S]/AH,2H,2D,3S,3D,5D,6H,JD,QH,QD 5C:turned:0:0 7D 18

The fields, separated by spaces:

==========  ==============================================================
variant     ``classic`` or ``megajogos``
labels      ``french`` or ``spanish`` (R2); ``-``: decided by the cards
dealer      the dealer's seat; ``-``: the last seat
to_act      the seat to act; ``-``: the one the rules name (R10, R11, R14)
players     one entry per seat, ``/`` between them (their number is the
            player count, one the variant allows: R8): the hand (cards joined
            by ``,``; a number for a hidden hand of that many cards; ``-``
            for an empty hand), then each meld of the layout in ``[..]``
centre      ``-`` (a stock card is turned next), or
            ``CARD:KIND:SOURCE[:DECLINED[:FORCED]]`` (R10-R14)
dead        ``-`` or the dead cards, oldest first (R17)
stock       a number of cards, ``-`` for an empty known stock, or the
            cards top first when the order is known
rules:..    rule options changed on top of the variant (section 4), as
            ``NAME=VALUE`` joined by ``,``: ``rules:max_run=8,hand_melds=false``
chosen:..   during the exchange (R9): each seat's chosen card or ``-``
gave:..     after the exchange (R9): each seat's passed card or ``-``
paid:..     history: per seat, separated by ``/``, the cards he was seen
            to pay this deal, oldest first, by ``,`` (``-`` for none)
==========  ==============================================================

Missing trailing fields take defaults: no centre card, no dead cards, and
a stock of the cards that are nowhere else (a count).  As in python-chess's
``set_fen``, reading goes in two steps: every field is parsed first, each
with its own error naming the field and the column
(:class:`NotationError`); only then are the rules checked, by
:func:`analyzer.formats.position.load_position` (a position that parses can still be
impossible: :class:`~analyzer.core.errors.PositionError`).

:func:`format_notation` writes the canonical text, and reading it back gives
an equal state: ``parse_notation(format_notation(s)) == s`` and
``format_notation(parse_notation(t)) == t`` for a canonical ``t``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from analyzer.core.cards import Labels, clip, format_card, parse_card, text_labels
from analyzer.core.errors import AmbiguousCardError, CardError, PositionError
from analyzer.core.plain import dump_position
from analyzer.core.rules import (
    BOOL_OPTIONS,
    PRESETS,
    RULE_OPTIONS,
    Exchange,
    Rules,
    get_rules,
    nearest_variant,
)
from analyzer.core.state import GameState
from analyzer.formats.position import load_position

__all__ = [
    "FIELDS",
    "NotationError",
    "format_notation",
    "looks_like_notation",
    "notation_data",
    "parse_notation",
]

FIELDS = ("variant", "labels", "dealer", "to_act", "players", "centre", "dead", "stock")
"""The positional fields, in order; ``rules:``, ``chosen:``, ``gave:`` and ``paid:`` keyword
fields may follow."""

REQUIRED = 5
"""The first five fields (variant to players) are required; the others have defaults."""

KINDS = ("turned", "paid", "upcard")
KEYWORDS = ("rules", "chosen", "gave", "paid")



class NotationError(PositionError):
    """A position notation that does not parse; the message names the field and the column.

    Attributes
    ----------
    field : str
        The field, e.g. ``"stock"`` or ``"players"`` (see :data:`FIELDS`).
    column : int
        1-based column of the offending text in its line of the notation.
    line : int
        1-based line of the offending text (a notation read from a file or
        standard input may span lines; the message names the line only then).
    problem : str
        What is wrong, without the field and the place.
    """

    def __init__(self, field: str, column: int, problem: str, text: str | None = None) -> None:
        line, column = _line_column(text, column)
        super().__init__(f"notation field '{field}' at {_place(text, line, column)}: {problem}")
        self.field = field
        self.column = column
        self.line = line
        self.problem = problem


def _line_column(text: str | None, column: int) -> tuple[int, int]:
    """The 1-based line and column in ``text`` of its ``column``-th character (1-based offset)."""
    if not text or column < 1:
        return 1, column
    before = text[: column - 1]
    return before.count("\n") + 1, column - (before.rfind("\n") + 1)


def _place(text: str | None, line: int, column: int) -> str:
    """``column 7``, or ``line 2, column 7`` when the text spans lines."""
    return f"line {line}, column {column}" if text and "\n" in text.strip() else f"column {column}"


@dataclass(frozen=True, slots=True)
class _Token:
    """A piece of the notation text and the 1-based column where it starts."""

    text: str
    column: int

    def split(self, sep: str) -> list[_Token]:
        parts: list[_Token] = []
        col = self.column
        for piece in self.text.split(sep):
            parts.append(_Token(piece, col))
            col += len(piece) + len(sep)
        return parts

    def cut(self, start: int, end: int | None = None) -> _Token:
        return _Token(self.text[start:end], self.column + start)


_FIELD = re.compile(r"\S+")
_DIGITS = re.compile(r"[0-9]+")


def _number(text: str) -> int:
    """The value of a token of digits; a very long one (beyond any count here) as a large number
    without converting it (Python refuses to convert more than 4,300 digits)."""
    return int(text) if len(text) <= 9 else 10**9


def looks_like_notation(text: str) -> bool:
    """True if ``text`` reads as a notation rather than a file name: its first word is a
    variant (``classic``, ``megajogos``) and more fields follow."""
    words = text.split(None, 1)
    return len(words) == 2 and words[0].lower() in PRESETS


def _meant(name: str) -> str:
    """``; did you mean 'mexican'?`` for a misspelt variant name, else nothing."""
    near = nearest_variant(name)
    return f"; did you mean {near!r}?" if near else ""


class _Reader:
    """Parses the fields of one notation text into position data (no rule checks)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.cards: list[tuple[_Token, str, str]] = []  # token, field, where

    def fail(self, field: str, token: _Token, problem: str) -> NotationError:
        return NotationError(field, token.column, problem, self.text)

    def where(self, token: _Token) -> str:
        """Where ``token`` starts, for a message that names a second place: ``column 7``, or
        ``line 2, column 7`` when the text spans lines."""
        return _place(self.text, *_line_column(self.text, token.column))

    def seat(self, field: str, token: _Token, rules: Rules, what: str) -> int:
        if not _DIGITS.fullmatch(token.text):
            raise self.fail(field, token, f"{what} must be a seat number, got {clip(token.text)!r}")
        value = _number(token.text)
        if value >= rules.players:
            raise self.fail(
                field,
                token,
                f"{what} must be a seat from 0 to {rules.players - 1} in {rules.name}, "
                f"got {clip(token.text)}",
            )
        return value

    def card_list(
        self, field: str, token: _Token, where: str, empty: str = "write '-' for none"
    ) -> list[str]:
        """Cards joined by ``,``; each kept with its column to be read once labels are known.
        ``empty`` is the advice given when there are none."""
        if not token.text:
            raise self.fail(field, token, f"{where}: no cards ({empty})")
        out: list[str] = []
        for piece in token.split(","):
            if not piece.text:
                raise self.fail(field, piece, f"{where}: an empty card between commas")
            self.cards.append((piece, field, where))
            out.append(piece.text)
        return out

    # ----------------------------------------------------------- fields
    def variant(self, token: _Token) -> Rules:
        name = token.text.lower()
        if name not in PRESETS:
            raise self.fail(
                "variant",
                token,
                f"unknown variant {clip(token.text)!r}{_meant(token.text)} "
                f"(known: {', '.join(sorted(PRESETS))})",
            )
        return get_rules(name)

    def labels(self, token: _Token) -> Labels | None:
        if token.text == "-":
            return None
        try:
            return Labels(token.text.lower())
        except ValueError:
            raise self.fail(
                "labels", token, f"labels must be french, spanish or -, got {clip(token.text)!r}"
            ) from None

    def players(self, token: _Token, rules: Rules, after: _Token | None = None) -> list[dict[str, Any]]:
        """The players field; ``after`` is the field that follows it, to tell a field cut by a
        space (``KS,KH [AC,2C,3C]``) from a wrong count of players."""
        entries = token.split("/")
        if token.text.endswith("/") and after is not None:
            raise self.fail(
                "players",
                token,
                "the field ends with '/': a space ends a field, so write the players without spaces",
            )
        if len(entries) not in rules.player_counts or len(entries) != rules.players:
            # "KS, KH[...]", "KS,KH [AC,2C,3C]/..." and "KS / AH" split the field at the space;
            # say so.
            spaced = ""
            if token.text.endswith(","):
                spaced = "; the field ends with ',': a space ends a field, so write the cards without spaces"
            elif after is not None and after.text[:1] in ("[", "/", ","):
                spaced = (
                    f"; the field is followed by {after.text[:1]!r} at {self.where(after)}: "
                    "a space ends a field, so write the players without spaces"
                )
            count = (
                f"has {rules.players} players"
                if len(rules.player_counts) == 1
                else f"is played by {rules.player_counts_text} players"
            )
            raise self.fail(
                "players",
                token,
                f"{rules.name} {count}, separated by '/'; got {len(entries)}{spaced}",
            )
        return [self.player(entry, p, rules) for p, entry in enumerate(entries)]

    def player(self, token: _Token, p: int, rules: Rules) -> dict[str, Any]:
        bracket = token.text.find("[")
        head = token.cut(0, None if bracket < 0 else bracket)
        entry: dict[str, Any] = {"hand": self.hand(head, p, rules), "layout": []}
        rest = token.cut(len(head.text))
        k = 0
        while rest.text:
            if not rest.text.startswith("["):
                raise self.fail(
                    "players", rest, f"player {p}: expected '[' to start a meld, got {clip(rest.text)!r}"
                )
            close = rest.text.find("]")
            if close < 0:
                raise self.fail("players", rest, f"player {p}: unclosed '[' in his layout")
            k += 1
            inner = rest.cut(1, close)
            if "[" in inner.text:
                raise self.fail("players", inner, f"player {p}: unclosed '[' in his layout")
            entry["layout"].append(self.card_list(
                "players", inner, f"player {p}'s meld {k}",
                "a meld has three cards or more; a player without melds writes no brackets",
            ))
            rest = rest.cut(close + 1)
        return entry

    def hand(self, token: _Token, p: int, rules: Rules) -> list[str] | int:
        if token.text == "-":
            return []
        if _DIGITS.fullmatch(token.text):
            count = _number(token.text)
            if count > rules.hand_size:
                raise self.fail(
                    "players",
                    token,
                    f"player {p}'s hidden hand: {clip(token.text)} cards, more than the "
                    f"{rules.hand_size} dealt in {rules.name} (R7, R8)",
                )
            return count
        if not token.text:
            raise self.fail(
                "players",
                token,
                f"player {p}'s hand is missing (cards, a number for a hidden hand, or '-')",
            )
        return self.card_list("players", token, f"player {p}'s hand")

    def centre(self, token: _Token, rules: Rules) -> dict[str, Any] | None:
        if token.text == "-":
            return None
        parts = token.split(":")
        if not 3 <= len(parts) <= 5:
            raise self.fail(
                "centre",
                token,
                f"expected '-' or CARD:KIND:SOURCE[:DECLINED[:FORCED]], got {clip(token.text)!r}",
            )
        card = self.card_list(
            "centre", parts[0], "the centre card",
            "write the card; the whole field is '-' when a stock card is turned next",
        )
        if len(card) != 1:
            raise self.fail("centre", parts[0], "the centre is one card")
        kind = parts[1].text.lower()
        if kind not in KINDS:
            raise self.fail(
                "centre",
                parts[1],
                f"the kind must be turned, paid or upcard, got {clip(parts[1].text)!r}",
            )
        data: dict[str, Any] = {
            "card": card[0],
            "kind": kind,
            "source": self.seat("centre", parts[2], rules, "the source"),
            "declined": [],
        }
        if len(parts) >= 4 and parts[3].text != "-":
            data["declined"] = [
                self.seat("centre", d, rules, "a declining player") for d in parts[3].split(",")
            ]
        if len(parts) == 5:
            data["forced"] = self.seat("centre", parts[4], rules, "the forced player")
        return data

    def dead(self, token: _Token) -> list[str]:
        return [] if token.text == "-" else self.card_list("dead", token, "the dead cards")

    def stock(self, token: _Token) -> list[str] | int:
        if token.text == "-":
            return []
        if _DIGITS.fullmatch(token.text):
            count = _number(token.text)
            if count > 40:
                raise self.fail(
                    "stock",
                    token,
                    f"a stock of {clip(token.text)} cards: the deck has 40 (R1)",
                )
            return count
        return self.card_list("stock", token, "the stock")

    def rules(self, token: _Token, rules: Rules) -> tuple[Rules, dict[str, Any]]:
        """The ``rules:NAME=VALUE,...`` field: ``rules`` with the options changed, and the
        options as position data (JSON values)."""
        options: dict[str, Any] = {}
        for piece in token.cut(len("rules:")).split(","):
            name, equals, value = piece.text.partition("=")
            name = name.strip().lower()
            if not equals or not name or not value:
                raise self.fail(
                    "rules", piece, f"expected NAME=VALUE, got {clip(piece.text)!r} "
                    f"(names: {', '.join(RULE_OPTIONS)})",
                )
            if name in options:
                raise self.fail("rules", piece, f"{name!r} given twice")
            if name not in RULE_OPTIONS:
                raise self.fail(
                    "rules", piece,
                    f"unknown rule option {clip(name)!r} (known: {', '.join(RULE_OPTIONS)})",
                )
            lowered = value.lower()
            if _DIGITS.fullmatch(value) and len(value) > 4:
                raise self.fail("rules", piece, f"{name}={clip(value)} is out of range")
            if _DIGITS.fullmatch(value):
                options[name] = _number(value)
            elif lowered in ("true", "false") and name in BOOL_OPTIONS:
                options[name] = lowered == "true"
            else:
                options[name] = lowered
            if name == "players" and options[name] != rules.players:
                raise self.fail(
                    "rules", piece,
                    f"players={clip(value)} but the 'players' field lists {rules.players} "
                    "players (R8)",
                )
            try:
                rules.with_options({name: options[name]})
            except ValueError as exc:
                raise self.fail("rules", piece, str(exc)) from None
        try:
            changed = rules.with_options(options)
        except ValueError as exc:
            raise self.fail("rules", token, str(exc)) from None
        options.pop("players", None)
        return changed, options

    def keyword(self, token: _Token, rules: Rules) -> tuple[str, list[Any]]:
        name, colon, _body = token.text.partition(":")
        if not colon or name.lower() not in KEYWORDS:
            raise self.fail(
                "exchange",
                token,
                f"unexpected field {clip(token.text)!r}: after the stock only 'rules:...', "
                "'chosen:...', 'gave:...' or 'paid:...' may follow",
            )
        name = name.lower()
        paid = name == "paid"  # a list of cards per seat, the seats separated by '/'
        values = token.cut(len(name) + 1).split("/" if paid else ",")
        if len(values) != rules.players:
            what = (
                "each player's cards paid, or '-', separated by '/'"
                if paid
                else "one card or '-' per player"
            )
            raise self.fail(
                name,
                token,
                f"'{name}' lists {what}: {rules.players} in {rules.name}, got {len(values)}",
            )
        if paid:
            return name, [
                [] if seat.text == "-" else self.card_list(name, seat, f"player {p}'s paid cards")
                for p, seat in enumerate(values)
            ]
        out: list[str | None] = []
        for p, value in enumerate(values):
            if value.text == "-":
                out.append(None)
            else:
                out.extend(self.card_list(name, value, f"player {p}'s {name} card"))
                if len(out) != p + 1:
                    raise self.fail(name, value, "one card per player")
        return name, out

    # ------------------------------------------------------------ cards
    def read_cards(self, rules: Rules, declared: Labels | None) -> Labels:
        """Decide the one label set of the text (R2) and check every card, with its column."""
        tokens = [t.text for t, _, _ in self.cards]
        try:
            labels = text_labels(tokens, rules.reading_default, declared=declared, empty=rules.labels)
        except AmbiguousCardError as exc:
            # The labels are the notation's second field ('--labels' sets only the answer's).
            problem = (
                f"{exc.problem}: write french or spanish as the notation's second field"
                if exc.problem
                else str(exc)
            )
            for token, field, _ in self.cards:
                try:
                    parse_card(token.text, None)
                except AmbiguousCardError:
                    raise self.fail(field, token, problem) from None
                except CardError:
                    continue
            raise self.fail("labels", _Token(self.text, 1), problem) from None
        seen: dict[int, tuple[_Token, str]] = {}
        for token, field, where in self.cards:
            try:
                index = parse_card(token.text, labels)
            except CardError as exc:
                raise self.fail(field, token, f"{where}: {exc}") from None
            if index in seen and field not in KEYWORDS:
                first, first_where = seen[index]
                raise self.fail(
                    field,
                    token,
                    f"duplicate card: {token.text!r} in {where} is "
                    f"{'twice' if first_where == where else 'also in ' + first_where} "
                    f"({self.where(first)}) (R1)",
                )
            if field not in KEYWORDS:
                seen[index] = (token, where)
        return labels


def notation_data(text: str) -> dict[str, Any]:
    """Parse a notation into position data (``docs/position-format.md``), without the rules.

    Every field is parsed, and every card read in the text's one label set
    (R2), before anything else; :func:`analyzer.formats.position.load_position`
    then checks the rules.

    Parameters
    ----------
    text : str
        The notation (``docs/notation.md``); fields separated by spaces.

    Returns
    -------
    dict
        Position data with every key present, ``labels`` decided.

    Raises
    ------
    NotationError
        If a field does not parse: the message names the field and the
        1-based column of the offending text (:attr:`NotationError.field`,
        :attr:`NotationError.column`).
    """
    return _notation_parts(text)[0]


def _notation_parts(text: str) -> tuple[dict[str, Any], dict[str, tuple[str, int]]]:
    """:func:`notation_data`, and where each seat's part of a history field starts: the key
    of the position that a rule check names (``players[1].paid``) to the field and column."""
    if not isinstance(text, str):
        raise NotationError("variant", 1, "a notation is text")
    reader = _Reader(text)
    fields = [_Token(m.group(), m.start() + 1) for m in _FIELD.finditer(text)]
    if not fields:
        raise NotationError("variant", 1, "the notation is empty")
    rules = reader.variant(fields[0])  # an unknown first word says more than a missing field
    if len(fields) < REQUIRED:
        missing = FIELDS[len(fields)]
        raise NotationError(
            missing,
            len(text.rstrip()) + 2,
            f"missing field '{missing}' (the first {REQUIRED} fields, "
            f"{' '.join(FIELDS[:REQUIRED])}, are required)",
            text,
        )
    declared = reader.labels(fields[1])
    data: dict[str, Any] = {"variant": rules.name}
    # The player count is the number of entries of the players field (R8), and the rule options
    # (a keyword field after the stock) change what the other fields mean: both come first.
    count = len(fields[4].text.split("/"))
    if count not in rules.player_counts:
        reader.players(fields[4], rules, fields[5] if len(fields) > 5 else None)  # raises
    rules = rules.with_players(count)
    options = [t for t in fields[5:] if t.text.lower().startswith("rules:")]
    if len(options) > 1:
        raise reader.fail(
            "rules", options[1], f"'rules:' given twice (also at {reader.where(options[0])})"
        )
    if options:
        rules, data["rules"] = reader.rules(options[0], rules)
    for name, token in zip(("dealer", "to_act"), fields[2:4], strict=True):
        if token.text != "-":  # "-": the default, a key left out (null is not a seat)
            data[name] = reader.seat(name, token, rules, name)
    data["players"] = reader.players(fields[4], rules, fields[5] if len(fields) > 5 else None)
    centre = fields[5] if len(fields) > 5 else _Token("-", 0)
    data["centre"] = reader.centre(centre, rules)
    data["dead"] = reader.dead(fields[6]) if len(fields) > 6 else []
    stock = fields[7] if len(fields) > 7 and ":" not in fields[7].text else None
    data["stock"] = reader.stock(stock) if stock is not None else None
    extra = fields[8:] if stock is not None else fields[7:]
    seen: dict[str, _Token] = {}
    places: dict[str, tuple[str, int]] = {}
    for token in extra:
        if token in options:
            continue
        name, values = reader.keyword(token, rules)
        if name in seen:
            raise reader.fail(name, token, f"'{name}:' given twice (also at {reader.where(seen[name])})")
        seen[name] = token
        for p, seat in enumerate(token.cut(len(name) + 1).split("/" if name == "paid" else ",")):
            places[f"players[{p}].{name}"] = (name, seat.column)
        if name == "paid":
            for entry, cards in zip(data["players"], values, strict=True):
                if cards:
                    entry["paid"] = cards
            continue
        if rules.exchange is Exchange.NONE:
            # Even with every seat '-': the field has no meaning in this variant.
            what = "nobody passed a card" if name == "gave" else "nobody chooses a card to pass"
            raise reader.fail(name, token, f"{rules.name} has no exchange, so {what} (R9)")
        if name == "chosen":
            data["exchange"] = {"chosen": values}
        else:
            for entry, value in zip(data["players"], values, strict=True):
                if value is not None:
                    entry["gave"] = value
    labels = reader.read_cards(rules, declared)
    data["labels"] = str(labels)
    if data["stock"] is None:
        data["stock"] = max(0, 40 - _counted(data))
    return data, places


def _counted(data: dict[str, Any]) -> int:
    """Cards placed by the data, counting a hidden hand by its number: the stock is the rest."""
    total = len(data["dead"]) + (data["centre"] is not None)
    for entry in data["players"]:
        hand = entry["hand"]
        total += hand if isinstance(hand, int) else len(hand)
        total += sum(len(meld) for meld in entry["layout"])
    return total


def parse_notation(text: str) -> GameState:
    """Read a position from its notation, like ``chess.Board(fen)``.

    Parameters
    ----------
    text : str
        The notation (``docs/notation.md``).

    Returns
    -------
    GameState
        The validated position; its ``rules.labels`` are the text's labels.

    Raises
    ------
    NotationError
        If the text does not parse (naming the field and the column).
    PositionError
        If it parses but the position is impossible under the rules (R1,
        R4-R7, R9-R18), as :func:`analyzer.formats.position.load_position`.

    Examples
    --------
    >>> state = parse_notation("classic french 1 0 - -")
    Traceback (most recent call last):
    ...
    analyzer.formats.notation.NotationError: notation field 'players' at column 20: classic has 2 players, separated by '/'; got 1
    >>> text = "classic french 1 1 KS,KH[AC,2C,3C,4C][4S,5S,6S,7S]/AH,2H,2D,3S,3D,5D,6H,JD,QH,QD 5C:turned:0:0 7D 18"
    >>> format_notation(parse_notation(text)) == text
    True
    """
    data, places = _notation_parts(text)
    try:
        return load_position(data)
    except PositionError as exc:
        raise _placed(exc, places, text) from None


_HISTORY_KEY = re.compile(r"players\[(\d+)\]\.(paid|gave)(: | )")


def _placed(exc: PositionError, places: dict[str, tuple[str, int]], text: str) -> PositionError:
    """A rule check's error about a history key of the position (``players[1].paid: ...``),
    named at its field and column of the notation instead, since the notation has no such
    key; other errors as they are."""
    message = str(exc)
    match = _HISTORY_KEY.match(message)
    if match is None or f"players[{match[1]}].{match[2]}" not in places:
        return exc
    field, column = places[f"players[{match[1]}].{match[2]}"]
    problem = message[match.end() :]
    if match[3] == " ":  # "players[0].paid lists 2 cards, ...": the seat's part is the subject
        problem = f"player {match[1]}'s part {problem}"
    return PositionError(f"notation field '{field}' at {_place(text, *_line_column(text, column))}: {problem}")


def _cards(cards: list[str]) -> str:
    return ",".join(cards) if cards else "-"


def format_notation(state: GameState, labels: Labels | None = None) -> str:
    """The canonical one-line notation of ``state``, like ``board.fen()``.

    Parameters
    ----------
    state : GameState
        Any valid position, including a view with hidden hands.
    labels : Labels, optional
        Card labels of the text; the state's own (``state.rules.labels``)
        when omitted.

    Returns
    -------
    str
        Every positional field written out; ``chosen:`` and ``gave:`` only
        when the position has them.  :func:`parse_notation` reads it back to
        an equal state.
    """
    data = dump_position(state, labels)
    players = []
    for entry in data["players"]:
        hand = entry["hand"]
        text = str(hand) if isinstance(hand, int) else _cards(hand)
        text += "".join(f"[{','.join(meld)}]" for meld in entry["layout"])
        players.append(text)
    centre = data["centre"]
    if centre is None:
        centre_text = "-"
    else:
        declined = ",".join(str(d) for d in centre["declined"]) or "-"
        centre_text = f"{centre['card']}:{centre['kind']}:{centre['source']}:{declined}"
        if "forced" in centre:
            centre_text += f":{centre['forced']}"
    stock = data["stock"]
    fields = [
        data["variant"],
        data["labels"],
        str(data["dealer"]),
        str(data["to_act"]),
        "/".join(players),
        centre_text,
        _cards(data["dead"]),
        str(stock) if isinstance(stock, int) else _cards(stock),
    ]
    if "rules" in data:
        fields.append(
            "rules:"
            + ",".join(
                f"{name}={str(value).lower() if isinstance(value, bool) else value}"
                for name, value in data["rules"].items()
            )
        )
    if "exchange" in data:
        fields.append("chosen:" + ",".join(c or "-" for c in data["exchange"]["chosen"]))
    if state.gave:
        lab = labels or state.rules.labels
        fields.append(
            "gave:" + ",".join("-" if g is None else format_card(g, lab) for g in state.gave)
        )
    if any(state.paid):
        lab = labels or state.rules.labels
        fields.append(
            "paid:"
            + "/".join(",".join(format_card(c, lab) for c in cards) or "-" for cards in state.paid)
        )
    return " ".join(fields)
