"""Positions as JSON: reading position data into a validated state.

The format is documented in ``docs/position-format.md``.  Loading checks
the shape (known keys and JSON types, :mod:`analyzer.formats.shapes`), then the one
label set of the cards (R2), then the rules: the variant, that no card
appears twice, that every layout meld is legal (R4-R6), the counting
invariant (R7), that the cards add up to the deck (R1), that the player to
act is the one the offer order names (R11), and who may force whom (R14).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from analyzer.core.cards import (
    Labels,
    format_card,
    parse_card,
    text_labels,
)
from analyzer.core.dealing import state_fields
from analyzer.core.errors import (
    AmbiguousCardError,
    CardError,
    DuplicateCardError,
    PositionError,
)
from analyzer.core.melds import is_meld
from analyzer.core.plain import dump_position, relabel
from analyzer.core.rules import Exchange, Rules, get_rules
from analyzer.core.state import GameState, Offer, Phase
from analyzer.core.validate import check_paid, default_to_act, validated
from analyzer.formats.jsonio import (
    TOO_DEEP,
    DuplicateKeyError,
    NumberTooLongError,
    json_error_text,
    load_json,
)
from analyzer.formats.shape_errors import check_shape
from analyzer.formats.shapes import (
    RECORD_FORMAT,
    Player,
    Position,
)
from analyzer.formats.shapes import Exchange as ExchangeShape

__all__ = ["dump_position", "load_position", "parse_json", "position_labels", "relabel"]


def parse_json(text: str, name: str, expected: str = "a position") -> Any:
    """Parse JSON text; any failure is one :class:`PositionError` naming ``name``.

    ``expected`` names what the file should hold (``"a position"``, ``"a
    puzzle"``), for the message when it is a game record instead.

    Raises
    ------
    PositionError
        If the text is not valid JSON (including nesting too deep to read), an
        object holds a key twice, or the text is a game record (JSON lines, or
        its header line alone), or it is empty.
    """
    if not text.strip():
        raise PositionError(f"{name} is empty: give {expected} as JSON")
    try:
        data = load_json(text)
    except DuplicateKeyError as exc:
        raise PositionError(f"{name}: {exc}: write it once") from None
    except NumberTooLongError as exc:
        raise PositionError(f"{name}: {exc}") from None
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data" and _is_record_header(_first_value(text[: exc.pos])):
            raise PositionError(_record_given(name, expected)) from None
        raise PositionError(
            f"{name} is not valid JSON: {json_error_text(exc)}"
        ) from None
    except RecursionError:
        raise PositionError(f"{name} is {TOO_DEEP}") from None
    except ValueError as exc:
        raise PositionError(f"{name} is not valid JSON: {exc}") from None
    if _is_record_header(data):
        raise PositionError(_record_given(name, expected))
    return data


def _record_given(name: str, expected: str) -> str:
    return (
        f"{name} is a game record (JSON lines), not {expected}: check it with "
        "'conquian replay' or review it with 'conquian review'"
    )


def _first_value(text: str) -> Any:
    """The JSON value of ``text`` (what came before a second value), ``None`` if unreadable."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _is_record_header(data: Any) -> bool:
    """True if ``data`` is a game record's header line (:data:`analyzer.formats.shapes.RECORD_FORMAT`)."""
    return isinstance(data, dict) and data.get("format") == RECORD_FORMAT


def _card_tokens(shape: Position) -> list[str]:
    """Every card text of a position, to decide its one label set (R2)."""
    tokens: list[str] = []
    for player in shape.players:
        if isinstance(player.hand, list):
            tokens += player.hand
        for meld in player.layout:
            tokens += meld
        if player.gave is not None:
            tokens.append(player.gave)
        tokens += player.paid
    if isinstance(shape.stock, list):
        tokens += shape.stock
    tokens += shape.dead
    if shape.centre is not None:
        tokens.append(shape.centre.card)
    if shape.exchange is not None and shape.exchange.chosen is not None:
        tokens += [c for c in shape.exchange.chosen if c is not None]
    return tokens


def _as_int(value: int, what: str, low: int, high: int, why: str = "") -> int:
    if not low <= value <= high:
        raise PositionError(f"{what} must be from {low} to {high}{why}, got {value}")
    return value


def _seat(value: int, what: str, rules: Rules) -> int:
    """A seat number, checked against the variant's players (the shape only knows seats >= 0)."""
    n = rules.players
    return _as_int(value, what, 0, n - 1, f" ({rules.name} has {n} players)")


class _Cards:
    """Collects cards while reading, so that a repeat is named with where it was seen."""

    def __init__(self, labels: Labels) -> None:
        self.labels = labels
        self.seen: dict[int, str] = {}

    def card(self, token: str, where: str) -> int:
        index = self.loose(token, where)
        if index in self.seen:
            first = self.seen[index]
            place = "twice" if first == where else f"also in {first}"
            raise DuplicateCardError(f"duplicate card: {token!r} in {where} is {place}")
        self.seen[index] = where
        return index

    def loose(self, token: str, where: str) -> int:
        """A card that may also appear elsewhere (a card passed in the exchange, R9)."""
        try:
            return parse_card(token, self.labels)
        except CardError as exc:
            raise PositionError(f"{where}: {exc}") from None

    def cards(self, tokens: list[str], where: str) -> list[int]:
        return [self.card(t, where) for t in tokens]


def position_labels(data: Any) -> Labels:
    """The label set a position is written in (R2): its ``labels`` key, else its unambiguous cards.

    A position is one text: all its cards are read in one label set.  With
    no ``labels`` key and no card that decides (every card reads both ways,
    like ``5C``), the variant decides when its labels are French (R2's
    default) and the position is refused otherwise.

    Raises
    ------
    PositionError
        If the shape is wrong (as :func:`load_position`), the variant is
        unknown, or the labels cannot be decided (naming the cards).
    """
    shape = check_shape(Position, data, "a position")
    return _labels_of(shape, get_rules(shape.variant))


def position_rules(shape: Position) -> Rules:
    """The rules of a checked position: its variant, for as many players as ``players`` lists
    (one of the variant's player counts, R8), with its ``rules`` overrides (section 4).

    Raises
    ------
    UnknownVariantError
        If ``variant`` is not a preset.
    PositionError
        If the player count is not one the variant allows, ``rules.players`` disagrees with
        it, or the overrides make impossible rules (naming the rule).
    """
    rules = get_rules(shape.variant)
    overrides = {} if shape.rules is None else shape.rules.model_dump(exclude_none=True)
    count = len(shape.players)
    stated = overrides.pop("players", None)
    if stated is not None and stated != count:
        raise PositionError(
            f"rules.players is {stated} but 'players' lists {count} players (R8)"
        )
    if count not in rules.player_counts:
        raise PositionError(
            f"'players' must list {rules.player_counts_text} players for {rules.name}, "
            f"got {count} (R8)"
        )
    try:
        return rules.with_options({"players": count, **overrides})
    except ValueError as exc:
        raise PositionError(f"rules: {exc}") from None


def _labels_of(shape: Position, rules: Rules) -> Labels:
    declared = None if shape.labels is None else Labels(shape.labels)
    try:
        return text_labels(_card_tokens(shape), rules.reading_default, declared=declared, empty=rules.labels)
    except CardError as exc:
        if isinstance(exc, AmbiguousCardError) and exc.problem:
            # '--labels' sets only the answer's labels for a position, so the message does not
            # point there: the choice belongs in the position.
            raise PositionError(
                f'{exc.problem}: write "labels": "french" or "spanish" in the position'
            ) from None
        raise PositionError(str(exc)) from None


def load_position(data: Any) -> GameState:
    """Build a validated :class:`GameState` from position data (parsed JSON).

    Reading goes in three steps: the shape (known keys, JSON types; see
    :mod:`analyzer.formats.shapes`), then the one label set of the cards (R2), then
    the rules.  The state's ``rules.labels`` are the position's labels, so
    that every answer about it uses them.

    Parameters
    ----------
    data : dict
        See ``docs/position-format.md``.

    Returns
    -------
    GameState

    Raises
    ------
    UnknownVariantError
        If ``variant`` is not a preset.
    DuplicateCardError
        If a card appears twice (the message names both places).
    PositionError
        If a key is unknown (naming the nearest known key) or a value has the
        wrong type, the labels cannot be decided (R2), or anything is
        impossible under the rules; the message names the field and the rule.
    """
    if isinstance(data, dict) and data.get("type") == "melds":
        raise PositionError(
            "this is a meld query file, not a position: read it with 'conquian melds --file FILE'"
        )
    if isinstance(data, dict) and isinstance(data.get("variant"), str):
        get_rules(data["variant"])  # an unknown variant is named before the shape's other keys
    shape = check_shape(Position, data, "a position")
    rules = position_rules(shape)
    rules = rules.with_labels(_labels_of(shape, rules))
    reader = _Cards(rules.labels)
    dealer = _seat(rules.players - 1 if shape.dealer is None else shape.dealer, "dealer", rules)
    seats = [_read_player(p, entry, reader, rules) for p, entry in enumerate(shape.players)]
    hands = [s.hand for s in seats]
    gave = [s.gave for s in seats]
    paid = [s.paid for s in seats]
    stock, stock_count = _read_stock(shape, reader)
    dead = tuple(reader.cards(shape.dead, "the dead cards"))
    centre = _read_centre(shape, reader, rules)
    phase = (
        Phase.TURN if centre is None else (Phase.OFFER if centre.forced is None else Phase.FORCED)
    )
    gifts: tuple[int | None, ...] = ()
    if shape.exchange is not None:
        phase = Phase.EXCHANGE
        shown = _shown(hands, (*(stock or ()), *dead, *((centre.card,) if centre is not None else ())))
        gifts = _read_exchange(shape.exchange, reader, rules, hands, shown, gave)
    state = GameState(
        rules=rules,
        dealer=dealer,
        hands=tuple(hands),
        counts=tuple(s.count for s in seats),
        layouts=tuple(s.layout for s in seats),
        stock=stock,
        stock_count=stock_count,
        dead=dead,
        centre=centre,
        to_act=0,
        phase=phase,
        gifts=gifts,
        gave=tuple(gave) if any(g is not None for g in gave) else (),
        paid=tuple(paid) if any(paid) else (),
    )
    check_paid(state)
    to_act = _seat(default_to_act(state) if shape.to_act is None else shape.to_act, "to_act", rules)
    return _validated(shape, GameState(**{**state_fields(state), "to_act": to_act}))


@dataclass(frozen=True)
class _Seat:
    """One player's entry as read: his hand (``None`` hidden), its count, his layout, the card
    he passed in the exchange and the cards he paid."""

    hand: int | None
    count: int
    layout: tuple[int, ...]
    gave: int | None
    paid: tuple[int, ...]


def _read_player(p: int, entry: Player, reader: _Cards, rules: Rules) -> _Seat:
    """Player ``p``'s entry: the hand or its count (R8), the melds of the layout (R4, R5), the card
    passed in the exchange (R9) and the cards paid."""
    if isinstance(entry.hand, list):
        mask = 0
        for c in reader.cards(entry.hand, f"player {p}'s hand"):
            mask |= 1 << c
        hand: int | None = mask
        count = len(entry.hand)
    else:
        hand = None
        count = _as_int(
            entry.hand,
            f"player {p}'s hidden hand count",
            0,
            rules.hand_size,
            f" ({rules.name} deals {rules.hand_size} cards, R8)",
        )
    melds: list[int] = []
    for k, raw in enumerate(entry.layout):
        meld = 0
        for c in reader.cards(raw, f"player {p}'s meld {k + 1}"):
            meld |= 1 << c
        if not is_meld(meld, rules):
            raise PositionError(
                f"player {p}'s meld [{' '.join(raw)}] is not a legal meld "
                f"in {rules.name} (R4, R5)"
            )
        melds.append(meld)
    if entry.gave is not None and rules.exchange is Exchange.NONE:
        raise PositionError(
            f"players[{p}].gave: {rules.name} has no exchange, so nobody passed a card (R9)"
        )
    gave = None if entry.gave is None else reader.loose(entry.gave, f"players[{p}].gave")
    # Paid cards are face up elsewhere too (dead, a layout, the centre): _check_paid places them.
    paid = tuple(reader.loose(t, f"players[{p}].paid") for t in entry.paid)
    return _Seat(hand, count, tuple(sorted(melds)), gave, paid)


def _read_stock(shape: Position, reader: _Cards) -> tuple[tuple[int, ...] | None, int]:
    """The stock in order, or ``None`` with its count where only the count is given."""
    if isinstance(shape.stock, list):
        stock = tuple(reader.cards(shape.stock, "the stock"))
        return stock, len(stock)
    return None, shape.stock


def _read_centre(shape: Position, reader: _Cards, rules: Rules) -> Offer | None:
    """The centre card and its offer so far, its seats checked (R11, R14)."""
    if shape.centre is None:
        return None
    given = shape.centre
    card = reader.card(given.card, "the centre")
    source = _seat(given.source, "centre source", rules)
    declined = tuple(_seat(d, "a declining player", rules) for d in given.declined)
    forced = None if given.forced is None else _seat(given.forced, "forced player", rules)
    return Offer(card, given.kind, source, declined, forced)


def _shown(hands: list[int | None], cards: tuple[int, ...]) -> int:
    """The mask of the cards shown: every known hand and ``cards``."""
    shown = 0
    for hand in hands:
        shown |= hand or 0
    for card in cards:
        shown |= 1 << card
    return shown


def _read_exchange(
    exchange: ExchangeShape,
    reader: _Cards,
    rules: Rules,
    hands: list[int | None],
    shown: int,
    gave: list[int | None],
) -> tuple[int | None, ...]:
    """The cards chosen so far in the exchange (R9), one entry per player: each in its chooser's
    hand, or where his hand is hidden, shown nowhere else (``shown``), and none chosen twice (R1);
    a position in the exchange has no card passed yet."""
    n = rules.players
    if rules.exchange is Exchange.NONE:
        raise PositionError(f"{rules.name} has no exchange (R9)")
    raw_gifts = exchange.chosen if exchange.chosen is not None else [None] * n
    if len(raw_gifts) != n:
        raise PositionError(f"exchange 'chosen' must list {n} entries (card or null)")
    gifts = tuple(
        None if g is None else reader.loose(g, f"exchange 'chosen' of player {k}")
        for k, g in enumerate(raw_gifts)
    )
    choosers: dict[int, int] = {}
    for k, g in enumerate(gifts):
        if g is None:
            continue
        hand = hands[k]
        if (shown >> g & 1) if hand is None else not hand >> g & 1:
            raise PositionError(
                f"player {k} chose {format_card(g, rules.labels)} in the exchange, "
                f"but it is not in his hand (R9)"
            )
        if g in choosers:
            raise PositionError(
                f"players {choosers[g]} and {k} both chose {format_card(g, rules.labels)} in the "
                "exchange: a card is in one hand only (R1, R9)"
            )
        choosers[g] = k
    if any(g is not None for g in gave):
        raise PositionError(
            "a position in the exchange (R9) cannot say who passed what ('gave'): nobody "
            "has passed a card until every player has chosen one"
        )
    return gifts


def _validated(shape: Position, state: GameState) -> GameState:
    """:func:`validated`, naming a missing "hand" key beside R7's count: a player without one
    reads as an empty hand."""
    try:
        return validated(state)
    except PositionError as exc:
        missing = [p for p, entry in enumerate(shape.players) if "hand" not in entry.model_fields_set]
        if missing and f"player {missing[0]} has " in str(exc):
            raise PositionError(f"{exc}; player {missing[0]} has no 'hand' key, which reads as an empty hand") from None
        raise


