"""Positions as JSON: loading with validation, dumping, views and new deals.

The format is documented in ``docs/position-format.md``.  Loading checks
the shape (known keys and JSON types, :mod:`analyzer.schema`), then the one
label set of the cards (R2), then the rules: the variant, that no card
appears twice, that every layout meld is legal (R4-R6), the counting
invariant (R7), that the cards add up to the deck (R1), that the player to
act is the one the offer order names (R11), and who may force whom (R14).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

from analyzer.cards import Labels, clip, counted, format_card, format_mask, parse_card, text_labels
from analyzer.errors import (
    AmbiguousCardError,
    CardError,
    ConquianError,
    DuplicateCardError,
    PositionError,
)
from analyzer.melds import is_meld
from analyzer.rules import Exchange, ForceWhen, Rules, get_rules
from analyzer.schema import (
    NOTE_PREFIX,
    TOO_DEEP,
    DuplicateKeyError,
    NumberTooLongError,
    Position,
    PositionWrapper,
    PuzzleFile,
    check_shape,
    json_error_text,
    load_json,
    nearest_key,
    nested_key,
)
from analyzer.state import GameState, Offer, Phase, offer_order

__all__ = [
    "deal",
    "dump_position",
    "load_position",
    "parse_json",
    "position_labels",
    "read_position",
    "relabel",
    "unwrap_position",
    "view",
]


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
    """True if ``data`` is a game record's header line (:data:`analyzer.records.FORMAT`)."""
    from analyzer.records import FORMAT  # records imports this module

    return isinstance(data, dict) and data.get("format") == FORMAT


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
    from analyzer.notation import format_notation, parse_notation

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


def _labels_of(shape: Position, rules: Rules) -> Labels:
    declared = None if shape.labels is None else Labels(shape.labels)
    try:
        return text_labels(_card_tokens(shape), rules.reading_default, declared=declared, empty=rules.labels)
    except CardError as exc:
        if isinstance(exc, AmbiguousCardError) and exc.problem:
            # '--labels' sets only the answer's labels for a position (a fresh-user report:
            # the message sent him there): the choice belongs in the position.
            raise PositionError(
                f'{exc.problem}: write "labels": "french" or "spanish" in the position'
            ) from None
        raise PositionError(str(exc)) from None


def load_position(data: Any) -> GameState:
    """Build a validated :class:`GameState` from position data (parsed JSON).

    Reading goes in three steps: the shape (known keys, JSON types; see
    :mod:`analyzer.schema`), then the one label set of the cards (R2), then
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
    shape = check_shape(Position, data, "a position")
    rules = get_rules(shape.variant)
    labels = _labels_of(shape, rules)
    rules = rules.with_labels(labels)
    n = rules.players
    reader = _Cards(labels)
    dealer = _seat(n - 1 if shape.dealer is None else shape.dealer, "dealer", rules)
    if len(shape.players) != n:
        raise PositionError(
            f"'players' must list {n} players for {rules.name}, got {len(shape.players)}"
        )

    hands: list[int | None] = []
    counts: list[int] = []
    layouts: list[tuple[int, ...]] = []
    gave: list[int | None] = []
    paid: list[tuple[int, ...]] = []
    for p, entry in enumerate(shape.players):
        if isinstance(entry.hand, list):
            mask = 0
            for c in reader.cards(entry.hand, f"player {p}'s hand"):
                mask |= 1 << c
            hands.append(mask)
            counts.append(len(entry.hand))
        else:
            hands.append(None)
            counts.append(
                _as_int(
                    entry.hand,
                    f"player {p}'s hidden hand count",
                    0,
                    rules.hand_size,
                    f" ({rules.name} deals {rules.hand_size} cards, R8)",
                )
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
        layouts.append(tuple(sorted(melds)))
        if entry.gave is not None and rules.exchange is Exchange.NONE:
            raise PositionError(
                f"players[{p}].gave: {rules.name} has no exchange, so nobody passed a card (R9)"
            )
        gave.append(None if entry.gave is None else reader.loose(entry.gave, f"players[{p}].gave"))
        # Paid cards are face up elsewhere too (dead, a layout, the centre): _check_paid places them.
        paid.append(tuple(reader.loose(t, f"players[{p}].paid") for t in entry.paid))

    stock: tuple[int, ...] | None
    if isinstance(shape.stock, list):
        stock = tuple(reader.cards(shape.stock, "the stock"))
        stock_count = len(stock)
    else:
        stock = None
        stock_count = shape.stock
    dead = tuple(reader.cards(shape.dead, "the dead cards"))

    centre: Offer | None = None
    if shape.centre is not None:
        given = shape.centre
        card = reader.card(given.card, "the centre")
        source = _seat(given.source, "centre source", rules)
        declined = tuple(_seat(d, "a declining player", rules) for d in given.declined)
        forced = (
            None if given.forced is None else _seat(given.forced, "forced player", rules)
        )
        centre = Offer(card, given.kind, source, declined, forced)

    phase = (
        Phase.TURN if centre is None else (Phase.OFFER if centre.forced is None else Phase.FORCED)
    )
    gifts: tuple[int | None, ...] = ()
    if shape.exchange is not None:
        if rules.exchange is Exchange.NONE:
            raise PositionError(f"{rules.name} has no exchange (R9)")
        phase = Phase.EXCHANGE
        raw_gifts = shape.exchange.chosen if shape.exchange.chosen is not None else [None] * n
        if len(raw_gifts) != n:
            raise PositionError(f"exchange 'chosen' must list {n} entries (card or null)")
        gifts = tuple(
            None if g is None else reader.loose(g, f"exchange 'chosen' of player {k}")
            for k, g in enumerate(raw_gifts)
        )
        # A card shown anywhere else (another known hand, the stock, the table) is not in the
        # hand of the player who chose it, hidden or not (R1, R9).
        shown = 0
        for hand in hands:
            shown |= hand or 0
        for card in (*(stock or ()), *dead, *((centre.card,) if centre is not None else ())):
            shown |= 1 << card
        choosers: dict[int, int] = {}
        for k, g in enumerate(gifts):
            if g is None:
                continue
            hand = hands[k]
            if (shown >> g & 1) if hand is None else not hand >> g & 1:
                raise PositionError(
                    f"player {k} chose {format_card(g, labels)} in the exchange, "
                    f"but it is not in his hand (R9)"
                )
            if g in choosers:
                raise PositionError(
                    f"players {choosers[g]} and {k} both chose {format_card(g, labels)} in the "
                    "exchange: a card is in one hand only (R1, R9)"
                )
            choosers[g] = k
        if any(g is not None for g in gave):
            raise PositionError(
                "a position in the exchange (R9) cannot say who passed what ('gave'): nobody "
                "has passed a card until every player has chosen one"
            )

    state = GameState(
        rules=rules,
        dealer=dealer,
        hands=tuple(hands),
        counts=tuple(counts),
        layouts=tuple(layouts),
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
    _check_paid(state)
    to_act = _seat(_default_to_act(state) if shape.to_act is None else shape.to_act, "to_act", rules)
    try:
        state = _validated(GameState(**{**_fields(state), "to_act": to_act}))
    except PositionError as exc:
        # Fresh-user report: a player without a "hand" key was told only R7's count.
        missing = [p for p, entry in enumerate(shape.players) if "hand" not in entry.model_fields_set]
        if missing and f"player {missing[0]} has " in str(exc):
            raise PositionError(f"{exc}; player {missing[0]} has no 'hand' key, which reads as an empty hand") from None
        raise
    return state


def _check_paid(state: GameState) -> None:
    """Each card a player paid (R13, R14) was offered to the others: it is face up now, dead
    (R17) or in another player's layout, or it is the centre card he paid, his last pay; it was
    paid once; and each pay followed a take or lay-in (R13, R14) that put one centre card in his
    layout, beside at least two of his own cards (a meld has three, R4, R5): so he paid at most
    his melded cards less two, and a layout holds at most that many cards the others paid."""
    if not state.paid:
        return
    labels = state.rules.labels
    seen: dict[int, int] = {}
    c = state.centre
    centre = c.card if c is not None else -1
    for p, cards in enumerate(state.paid):
        for card in cards:  # a card listed twice first: it explains a count too high
            if card in seen:
                where = "twice" if seen[card] == p else f"by player {seen[card]} too"
                raise PositionError(
                    f"players[{p}].paid: {format_card(card, labels)} is listed {where}; "
                    "a card is paid once"
                )
            seen[card] = p
        takes = max(0, state.melded(p) - 2)
        if len(cards) > takes:
            raise PositionError(
                f"players[{p}].paid lists {counted(len(cards), 'card')}, but with "
                f"{counted(state.melded(p), 'card')} melded he took at most {takes} (each pay "
                "follows a take, R13)"
            )
        last_dead = -1
        for k, card in enumerate(cards):
            text = format_card(card, labels)
            if card == centre and c is not None:
                if c.kind != "paid" or c.source != p:
                    how = "turned from the stock" if c.kind == "turned" else f"paid by player {c.source}"
                    raise PositionError(
                        f"players[{p}].paid: {text} is the centre card, {how} (R10, R13)"
                    )
                if k != len(cards) - 1:
                    raise PositionError(
                        f"players[{p}].paid: {text} is the centre card, so his last pay; the "
                        "list is oldest first"
                    )
            if any(m >> card & 1 for m in state.layouts[p]):
                raise PositionError(
                    f"players[{p}].paid: {text} is in his own layout; a paid card is offered to the "
                    f"other players (R13)"
                )
            if card in state.dead:
                # A paid card nobody takes dies at once (R17): his pays die in the order he paid.
                at = state.dead.index(card)
                if at < last_dead:
                    raise PositionError(
                        f"players[{p}].paid: {text} died before "
                        f"{format_card(state.dead[last_dead], labels)}, which is listed before it; "
                        "the list is oldest first, as the dead cards are (R17)"
                    )
                last_dead = at
            others = any(m >> card & 1 for q, lay in enumerate(state.layouts) for m in lay if q != p)
            if card != centre and card not in state.dead and not others:
                raise PositionError(
                    f"players[{p}].paid: {text} is not face up; a paid card is the centre card, "
                    f"dead or in another player's layout (R13, R17)"
                )
    for q in range(state.rules.players):
        taken = sum(1 for card, p in seen.items() if any(m >> card & 1 for m in state.layouts[q]))
        takes = max(0, state.melded(q) - 2)
        if taken > takes:
            raise PositionError(
                f"player {q}'s layout holds {taken} cards the others paid, but with "
                f"{state.melded(q)} cards melded he took at most {takes} (one centre card per "
                "take, R13)"
            )


def _fields(state: GameState) -> dict[str, Any]:
    return {name: getattr(state, name) for name in GameState.__dataclass_fields__}


def _default_to_act(state: GameState) -> int:
    n = state.rules.players
    if state.phase is Phase.EXCHANGE:
        seats = [(state.dealer + 1 + k) % n for k in range(n)]
        waiting = [p for p in seats if not state.gifts or state.gifts[p] is None]
        return waiting[0] if waiting else seats[0]
    if state.centre is None:
        return (state.dealer + 1) % n
    if state.centre.forced is not None:
        return state.centre.forced
    order = offer_order(state.rules, state.centre)
    k = len(state.centre.declined)
    return order[k] if k < len(order) else order[-1]


def _validated(state: GameState) -> GameState:
    rules, n = state.rules, state.rules.players
    labels = rules.labels
    melded = [state.melded(p) for p in range(n)]
    winners = [p for p in range(n) if melded[p] == rules.target]
    for p in range(n):
        if melded[p] > rules.target or (melded[p] == rules.target and state.counts[p] != 0):
            raise PositionError(
                f"player {p} has {melded[p]} cards melded and {state.counts[p]} in hand: "
                f"impossible in {rules.name} (R7, R15)"
            )
        if p not in winners and state.counts[p] + melded[p] != rules.hand_size:
            raise PositionError(
                f"player {p} has {counted(state.counts[p], 'card')} in hand and {melded[p]} melded: "
                f"they must add up to {rules.hand_size} (R7)"
            )
    for p, given in enumerate(state.gave):
        hand = state.hands[p]
        if given is not None and hand is not None and hand >> given & 1:
            raise PositionError(
                f"player {p} passed {format_card(given, labels)} in the exchange, "
                f"but it is still in his hand (R9)"
            )
    passers: dict[int, int] = {}
    for p, given in enumerate(state.gave):
        if given is None:
            continue
        if given in passers:
            raise PositionError(
                f"players {passers[given]} and {p} both passed {format_card(given, labels)} in "
                "the exchange: each passes a card of his own hand, so no card is passed twice (R9)"
            )
        passers[given] = p
        # He passed it to the next player (R9), whose hand only loses cards to the table: the
        # card is in the receiver's hand or face up, never in a third hand or the stock.
        receiver = (p + 1) % n
        face_up = state.table_mask() >> given & 1
        known = state.hands[receiver]
        elsewhere = [
            f"player {q}'s hand" for q, hand in enumerate(state.hands)
            if q not in (p, receiver) and hand is not None and hand >> given & 1
        ] + (["the stock"] if state.stock is not None and given in state.stock else [])
        if not face_up and (elsewhere or (known is not None and not known >> given & 1)):
            where = elsewhere[0] if elsewhere else f"not in player {receiver}'s hand"
            raise PositionError(
                f"players[{p}].gave: {format_card(given, labels)} is "
                f"{'in ' + where if elsewhere else where}; player {p} passed it to player "
                f"{receiver} (R9), so it is in his hand or face up"
            )
        # Face up, it left the receiver's hand the only ways a hand card can: melded or paid by him.
        c = state.centre
        payers = [q for q, cards in enumerate(state.paid) if given in cards and q != receiver]
        if c is not None and c.card == given and (c.kind != "paid" or c.source != receiver):
            payers.append(c.source)
        if payers:
            how = "turned from the stock" if c is not None and c.card == given and c.kind == "turned" else f"paid by player {payers[0]}"
            raise PositionError(
                f"players[{p}].gave: {format_card(given, labels)} went to player {receiver} "
                f"(R9), but it was {how}: only he can have melded or paid it"
            )
    if len(winners) > 1:
        raise PositionError(f"players {winners} have all gone out: only one can (R15)")
    total = (
        sum(state.counts)
        + sum(melded)
        + state.stock_count
        + len(state.dead)
        + (state.centre is not None)
    )
    if total != 40:
        raise PositionError(
            f"the cards add up to {total}, not 40 (hands {sum(state.counts)}, layouts "
            f"{sum(melded)}, stock {state.stock_count}, dead {len(state.dead)}, centre "
            f"{int(state.centre is not None)}) (R1)"
        )
    if winners:
        if state.centre is not None:
            raise PositionError(f"player {winners[0]} has gone out: there is no centre card (R15)")
        return GameState(**{**_fields(state), "phase": Phase.OVER, "winner": winners[0]})
    if state.phase is Phase.EXCHANGE:
        if any(melded) or state.dead or state.stock_count != rules.stock_size:
            raise PositionError("the exchange happens before any card is turned (R9)")
        # Players choose in turn order from the player after the dealer; nobody sees the others'
        # choices (R9), but the engine asks them one at a time.
        seats = [(state.dealer + 1 + k) % n for k in range(n)]
        chosen = [p for p in seats if state.gifts and state.gifts[p] is not None]
        # A view hides the card another player chose (R9): a hidden hand's missing choice may
        # have been made, and who is to act says how far the exchange has gone.
        hidden = {p for p in seats if state.hands[p] is None}
        last = max((seats.index(p) for p in chosen), default=-1)
        waiting = [p for p in seats[: max(last, 0)] if p not in chosen and p not in hidden]
        if waiting:
            raise PositionError(
                f"the exchange choices are made in turn order {seats} from the player after the "
                f"dealer, and player {waiting[0]} has not chosen yet (R9)"
            )
        if last == n - 1:  # the last to choose has chosen (so has everyone before him)
            raise PositionError(
                f"player {seats[-1]} chooses last in the exchange (turn order {seats}), so with his "
                "choice made every player has chosen a card: the exchange is already done (R9)"
            )
        turn = seats.index(state.to_act)
        if turn <= last or any(p not in hidden for p in seats[last + 1 : turn]):
            # The next to choose: the first player after the last choice, or, where a hidden
            # hand may have chosen unseen, any player up to the first known hand.
            after = seats[last + 1 :]
            known = next((k for k, p in enumerate(after) if p not in hidden), len(after) - 1)
            next_up = " or ".join(str(p) for p in after[: known + 1])
            raise PositionError(
                f"player {next_up} chooses the next card to pass, not player {state.to_act} (R9)"
            )
        return state
    centre = state.centre
    if centre is None:
        if state.stock_count == 0:
            # R18: no centre card and an empty stock: the deal is over.
            return GameState(
                **{**_fields(state), "phase": Phase.OVER, "winner": state.stock_out_winner()}
            )
        fresh = not any(melded) and not state.dead and state.stock_count == rules.stock_size
        if fresh and state.to_act != (state.dealer + 1) % n:
            raise PositionError(
                f"the first card is turned by the player after the dealer, player "
                f"{(state.dealer + 1) % n}, not player {state.to_act} (R10)"
            )
        return state
    if centre.kind == "paid" and not state.layouts[centre.source]:
        raise PositionError(
            f"player {centre.source} paid the centre card {format_card(centre.card, labels)}, "
            "but his layout is empty: a pay always follows a take or a lay-in, which melds "
            "cards (R13, R14)"
        )
    order = offer_order(rules, centre)
    if centre.kind == "turned" and state.stock_count >= rules.stock_size:
        raise PositionError("a turned centre card must have come from the stock (R10)")
    if tuple(order[: len(centre.declined)]) != centre.declined:
        raise PositionError(
            f"declined players {list(centre.declined)} do not follow the offer order "
            f"{list(order)} of this {centre.kind} card (R11)"
        )
    if centre.forced is not None:
        _check_force(state, centre, order)
        if state.to_act != centre.forced:
            raise PositionError(f"the forced player {centre.forced} must be the one to act (R14)")
        return state
    if len(centre.declined) >= len(order):
        raise PositionError("every player has declined the centre card: it is dead (R17)")
    expected = order[len(centre.declined)]
    if state.to_act != expected:
        raise PositionError(
            f"player {expected} is offered {format_card(centre.card, labels)} next, "
            f"not player {state.to_act} (R11)"
        )
    return state


def _check_force(state: GameState, centre: Offer, order: tuple[int, ...]) -> None:
    """Check who may have forced whom (R14), not only the fit.

    The forcer is the player the card was offered to after the decliners
    (R11); the position before the force must list the forced player among
    that player's forces, by the engine's own rule.
    """
    rules, labels = state.rules, state.rules.labels
    forced = centre.forced
    assert forced is not None
    card = format_card(centre.card, labels)
    if len(centre.declined) >= len(order):
        raise PositionError(
            f"every player has declined {card}: it is dead, so nobody can force player "
            f"{forced} with it (R14, R17)"
        )
    forcer = order[len(centre.declined)]
    before = state.evolve(
        centre=Offer(centre.card, centre.kind, centre.source, centre.declined, None),
        to_act=forcer,
        phase=Phase.OFFER,
    )
    if forced in before.forceable_players():
        return
    offer = f"offer order {list(order)}, declined {list(centre.declined)}"
    if forced == forcer:
        raise PositionError(
            f"player {forced} is forced with {card}, but he is the one offered it now "
            f"({offer}): a player cannot force himself (R11, R14)"
        )
    if rules.force_when is ForceWhen.AFTER_DECLINE and forced not in centre.declined:
        raise PositionError(
            f"player {forced} is forced with {card}, but in {rules.name} player {forcer} may force "
            f"only a player who has declined it in this offer, and player {forced} has not "
            f"({offer}) (R14)"
        )
    if centre.kind == "paid" and forced == centre.source:
        raise PositionError(
            f"player {forced} is forced with {card}, the card he paid: a payer cannot be forced "
            "with his own card (R11, R14)"
        )
    raise PositionError(
        f"player {forced} is forced with {card}, which does not fit his layout "
        f"(R14, force_fit {rules.force_fit})"
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


def dump_position(state: GameState, labels: Labels | None = None) -> dict[str, Any]:
    """The position data of ``state``; :func:`load_position` reads it back to an equal state.

    Parameters
    ----------
    state : GameState
    labels : Labels, optional
        Card labels; the variant's default if omitted.

    Returns
    -------
    dict
        JSON-ready data (see ``docs/position-format.md``).
    """
    labels = labels or state.rules.labels

    def cards(mask: int) -> list[str]:
        return format_mask(mask, labels).split()

    players: list[dict[str, Any]] = []
    for p in range(state.rules.players):
        hand = state.hands[p]
        entry: dict[str, Any] = {
            "hand": cards(hand) if hand is not None else state.counts[p],
            "layout": [cards(m) for m in state.layouts[p]],
        }
        if state.gave and state.gave[p] is not None:
            entry["gave"] = format_card(state.gave[p], labels)  # type: ignore[arg-type]
        if state.paid and state.paid[p]:
            entry["paid"] = [format_card(c, labels) for c in state.paid[p]]
        players.append(entry)
    data: dict[str, Any] = {
        "variant": state.rules.name,
        "labels": str(labels),
        "dealer": state.dealer,
        "to_act": state.to_act,
        "players": players,
        "stock": (
            [format_card(c, labels) for c in state.stock]
            if state.stock is not None
            else state.stock_count
        ),
        "dead": [format_card(c, labels) for c in state.dead],
        "centre": None,
    }
    if state.centre is not None:
        c = state.centre
        data["centre"] = {
            "card": format_card(c.card, labels),
            "kind": c.kind,
            "source": c.source,
            "declined": list(c.declined),
        }
        if c.forced is not None:
            data["centre"]["forced"] = c.forced
    if state.phase is Phase.EXCHANGE:
        data["exchange"] = {
            "chosen": [None if g is None else format_card(g, labels) for g in state.gifts]
            if state.gifts
            else [None] * state.rules.players
        }
    return data


def relabel(state: GameState, labels: Labels | str | None) -> GameState:
    """``state`` with its cards printed and read in ``labels`` (R2); the same position.

    Every answer about a state (moves, descriptions, reasons, dumps) uses
    ``state.rules.labels``; :func:`load_position` sets them to the
    position's labels, and this function changes them (``--labels``).

    Raises
    ------
    ValueError
        If ``labels`` is not ``"french"`` or ``"spanish"``.
    """
    if labels is None:
        return state
    rules = state.rules.with_labels(labels)
    return state if rules is state.rules else replace(state, rules=rules)


def view(state: GameState, player: int) -> GameState:
    """What ``player`` can know (R6, R9): other hands hidden, the stock order hidden.

    He keeps his own hand, every layout, the dead cards, the counts, the
    history of pays (``paid``), the card he passed in the exchange and the
    one he received from the player before him (R9); the other passes are hidden.

    Raises
    ------
    PositionError
        If ``player`` is not a seat of this variant.
    """
    if not 0 <= player < state.rules.players:
        raise PositionError(f"no player {player} in {state.rules.name}")
    hands = tuple(h if p == player else None for p, h in enumerate(state.hands))
    gifts = tuple(g if p == player else None for p, g in enumerate(state.gifts))
    n = state.rules.players
    gave = tuple(g if player in (p, (p + 1) % n) else None for p, g in enumerate(state.gave))
    return GameState(
        **{**_fields(state), "hands": hands, "stock": None, "gifts": gifts, "gave": gave}
    )


def deal(
    rules: Rules | str, seed: int | random.Random | None = None, dealer: int | None = None
) -> GameState:
    """Shuffle and deal a new game (R8), with the stock order known.

    Parameters
    ----------
    rules : Rules or str
        The variant.
    seed : int or random.Random, optional
        The same seed gives the same deal.
    dealer : int, optional
        The dealer; drawn with the seed when omitted.  The shuffle is the seed's
        either way, so naming the dealer the seed draws gives the same deal.

    Returns
    -------
    GameState
        In the exchange phase (R9) when the variant has one, else ready to turn.
    """
    rules = get_rules(rules)
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    n = rules.players
    drawn = rng.randrange(n)  # drawn even when given, so naming a dealer keeps the seed's shuffle
    if dealer is None:
        dealer = drawn
    elif not 0 <= dealer < n:
        raise ConquianError(f"no player {dealer} to deal in {rules.name}")
    deck = list(range(40))
    rng.shuffle(deck)
    hands = [0] * n
    for k in range(n * rules.hand_size):  # one at a time, from the player after the dealer
        hands[(dealer + 1 + k) % n] |= 1 << deck[k]
    stock = tuple(deck[n * rules.hand_size :])
    exchange = rules.exchange is not Exchange.NONE
    return GameState(
        rules=rules,
        dealer=dealer,
        hands=tuple(hands),
        counts=tuple(rules.hand_size for _ in range(n)),
        layouts=tuple(() for _ in range(n)),
        stock=stock,
        stock_count=len(stock),
        dead=(),
        centre=None,
        to_act=(dealer + 1) % n,
        phase=Phase.EXCHANGE if exchange else Phase.TURN,
        gifts=(None,) * n if exchange else (),
    )
