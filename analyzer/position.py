"""Positions as JSON: loading with validation, dumping, views and new deals.

The format is documented in ``docs/position-format.md``.  Loading checks
the variant, that no card appears twice, that every layout meld is legal
(R4-R6), the counting invariant (R7), that the cards add up to the deck
(R1), and that the player to act is the one the offer order names (R11).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from analyzer.cards import (
    Labels,
    check_mixed_labels,
    clip,
    format_card,
    format_mask,
    parse_card,
)
from analyzer.errors import CardError, ConquianError, DuplicateCardError, PositionError
from analyzer.melds import is_meld
from analyzer.rules import Exchange, Rules, get_rules
from analyzer.state import GameState, Offer, Phase, fits_layout, offer_order

__all__ = [
    "deal",
    "dump_position",
    "load_position",
    "parse_json",
    "read_position",
    "view",
]


def parse_json(text: str, name: str) -> Any:
    """Parse JSON text; any failure is one :class:`PositionError` naming ``name``.

    Raises
    ------
    PositionError
        If the text is not valid JSON (including nesting too deep to read).
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise PositionError(
            f"{name} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        raise PositionError(f"{name} is not valid JSON: nested too deeply") from None


def _card_tokens(data: dict[str, Any]) -> list[str]:
    """Every card text in position data, to check them together for mixed labels (R2)."""
    tokens: list[Any] = []
    for entry in data.get("players") or []:
        if isinstance(entry, dict):
            hand = entry.get("hand")
            if isinstance(hand, list):
                tokens += hand
            for meld in entry.get("layout") or []:
                if isinstance(meld, list):
                    tokens += meld
            tokens.append(entry.get("gave"))
    for key in ("stock", "dead"):
        if isinstance(data.get(key), list):
            tokens += data[key]
    if isinstance(data.get("centre"), dict):
        tokens.append(data["centre"].get("card"))
    exchange = data.get("exchange")
    if isinstance(exchange, dict) and isinstance(exchange.get("chosen"), list):
        tokens += exchange["chosen"]
    return [t for t in tokens if isinstance(t, str)]


def _as_int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise PositionError(
            f"{what} must be a whole number from {low} to {high}, got {clip(repr(value))}"
        )
    return value


class _Cards:
    """Collects cards while reading, so that a repeat is named with where it was seen."""

    def __init__(self, labels: Labels) -> None:
        self.labels = labels
        self.seen: dict[int, str] = {}

    def card(self, token: Any, where: str) -> int:
        if not isinstance(token, str):
            raise PositionError(f"{where}: not a card: {clip(repr(token))}")
        try:
            index = parse_card(token, self.labels)
        except CardError as exc:
            raise PositionError(f"{where}: {exc}") from None
        if index in self.seen:
            raise DuplicateCardError(
                f"duplicate card: {token!r} in {where} is also in {self.seen[index]}"
            )
        self.seen[index] = where
        return index

    def loose(self, token: Any, where: str) -> int:
        """A card that may also appear elsewhere (a card passed in the exchange, R9)."""
        if not isinstance(token, str):
            raise PositionError(f"{where}: not a card: {clip(repr(token))}")
        try:
            return parse_card(token, self.labels)
        except CardError as exc:
            raise PositionError(f"{where}: {exc}") from None

    def cards(self, tokens: Any, where: str) -> list[int]:
        if not isinstance(tokens, list):
            raise PositionError(f"{where} must be a list of cards, got {clip(repr(tokens))}")
        return [self.card(t, where) for t in tokens]


def load_position(data: Any) -> GameState:
    """Build a validated :class:`GameState` from position data (parsed JSON).

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
        If anything else is malformed or impossible under the rules; the
        message names the field and the rule.
    """
    if not isinstance(data, dict):
        raise PositionError("a position must be a JSON object")
    if data.get("type") == "melds":
        raise PositionError("this is a meld query file, not a position (see 'conquian melds')")
    rules = get_rules(str(data.get("variant", "classic")))
    n = rules.players
    raw_labels = data.get("labels")
    if raw_labels is None:
        labels = rules.labels
    elif raw_labels in ("french", "spanish"):
        labels = Labels(raw_labels)
    else:
        raise PositionError(
            f'\'labels\' must be "french" or "spanish", got {clip(repr(raw_labels))}'
        )
    try:
        check_mixed_labels(_card_tokens(data), labels)
    except CardError as exc:
        raise PositionError(str(exc)) from None
    reader = _Cards(labels)
    dealer = _as_int(data.get("dealer", n - 1), "dealer", 0, n - 1)
    players = data.get("players")
    if not isinstance(players, list) or len(players) != n:
        raise PositionError(f"'players' must list {n} players for {rules.name}")

    hands: list[int | None] = []
    counts: list[int] = []
    layouts: list[tuple[int, ...]] = []
    gave: list[int | None] = []
    for p, entry in enumerate(players):
        if not isinstance(entry, dict):
            raise PositionError(f"players[{p}] must be an object with 'hand' and 'layout'")
        hand = entry.get("hand", [])
        if isinstance(hand, list):
            mask = 0
            for c in reader.cards(hand, f"player {p}'s hand"):
                mask |= 1 << c
            hands.append(mask)
            counts.append(len(hand))
        else:
            hands.append(None)
            counts.append(_as_int(hand, f"player {p}'s hidden hand count", 0, rules.hand_size))
        melds: list[int] = []
        raw_layout = entry.get("layout", [])
        if not isinstance(raw_layout, list):
            raise PositionError(f"player {p}'s layout must be a list of melds")
        for k, raw in enumerate(raw_layout):
            meld = 0
            for c in reader.cards(raw, f"player {p}'s meld {k + 1}"):
                meld |= 1 << c
            if not is_meld(meld, rules):
                raise PositionError(
                    f"player {p}'s meld [{' '.join(map(str, raw))}] is not a legal meld "
                    f"in {rules.name} (R4, R5)"
                )
            melds.append(meld)
        layouts.append(tuple(sorted(melds)))
        given = entry.get("gave")
        gave.append(None if given is None else reader.loose(given, f"player {p}'s 'gave'"))

    raw_stock = data.get("stock", 0)
    stock: tuple[int, ...] | None
    if isinstance(raw_stock, list):
        stock = tuple(reader.cards(raw_stock, "the stock"))
        stock_count = len(stock)
    else:
        stock = None
        stock_count = _as_int(raw_stock, "stock", 0, 40)
    dead = tuple(reader.cards(data.get("dead", []), "the dead cards"))

    centre: Offer | None = None
    raw_centre = data.get("centre")
    if raw_centre is not None:
        if not isinstance(raw_centre, dict):
            raise PositionError("'centre' must be an object or null")
        card = reader.card(raw_centre.get("card"), "the centre")
        kind = raw_centre.get("kind", "turned")
        if kind not in ("turned", "paid"):
            raise PositionError(f"centre kind must be 'turned' or 'paid', got {kind!r}")
        source = _as_int(raw_centre.get("source"), "centre source", 0, n - 1)
        declined_raw = raw_centre.get("declined", [])
        if not isinstance(declined_raw, list):
            raise PositionError("centre 'declined' must be a list of players")
        declined = tuple(_as_int(d, "a declining player", 0, n - 1) for d in declined_raw)
        forced_raw = raw_centre.get("forced")
        forced = None if forced_raw is None else _as_int(forced_raw, "forced player", 0, n - 1)
        centre = Offer(card, kind, source, declined, forced)

    exchange = data.get("exchange")
    phase = (
        Phase.TURN if centre is None else (Phase.OFFER if centre.forced is None else Phase.FORCED)
    )
    gifts: tuple[int | None, ...] = ()
    if exchange is not None:
        if rules.exchange is Exchange.NONE:
            raise PositionError(f"{rules.name} has no exchange (R9)")
        phase = Phase.EXCHANGE
        raw_gifts = exchange.get("chosen", [None] * n) if isinstance(exchange, dict) else None
        if not isinstance(raw_gifts, list) or len(raw_gifts) != n:
            raise PositionError(f"exchange 'chosen' must list {n} entries (card or null)")
        gifts = tuple(
            None if g is None else reader.loose(g, f"exchange 'chosen' of player {k}")
            for k, g in enumerate(raw_gifts)
        )
        for k, g in enumerate(gifts):
            hand = hands[k]
            if g is not None and hand is not None and not hand >> g & 1:
                raise PositionError(
                    f"player {k} chose {format_card(g, labels)} in the exchange, "
                    f"but it is not in his hand (R9)"
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
    )
    to_act = _as_int(data.get("to_act", _default_to_act(state)), "to_act", 0, n - 1)
    state = _validated(GameState(**{**_fields(state), "to_act": to_act}))
    return state


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
                f"player {p} has {state.counts[p]} cards in hand and {melded[p]} melded: "
                f"they must add up to {rules.hand_size} (R7)"
            )
    for p, given in enumerate(state.gave):
        hand = state.hands[p]
        if given is not None and hand is not None and hand >> given & 1:
            raise PositionError(
                f"player {p} passed {format_card(given, labels)} in the exchange, "
                f"but it is still in his hand (R9)"
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
        if len(chosen) == n:
            raise PositionError("every player has chosen a card: the exchange is already done (R9)")
        if chosen != seats[: len(chosen)]:
            missing = next(p for p in seats if p not in chosen)
            raise PositionError(
                f"the exchange choices are made in turn order {seats} from the player after the "
                f"dealer, and player {missing} has not chosen yet (R9)"
            )
        if state.to_act != seats[len(chosen)]:
            raise PositionError(
                f"player {seats[len(chosen)]} chooses the next card to pass, not player "
                f"{state.to_act} (R9)"
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
    order = offer_order(rules, centre)
    if centre.kind == "turned" and state.stock_count >= rules.stock_size:
        raise PositionError("a turned centre card must have come from the stock (R10)")
    if tuple(order[: len(centre.declined)]) != centre.declined:
        raise PositionError(
            f"declined players {list(centre.declined)} do not follow the offer order "
            f"{list(order)} of this {centre.kind} card (R11)"
        )
    if centre.forced is not None:
        forcers = [p for p in range(n) if p != centre.forced]
        if not fits_layout(state.layouts[centre.forced], centre.card, rules):
            raise PositionError(
                f"player {centre.forced} is forced with {format_card(centre.card, labels)}, "
                f"which does not fit his layout (R14)"
            )
        if state.to_act != centre.forced or not forcers:
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


def read_position(path: str | Path) -> GameState:
    """Load and validate a position file (JSON).

    Raises
    ------
    PositionError
        If the file cannot be read or is not valid JSON; other errors as
        :func:`load_position`.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PositionError(
            f"cannot read {str(path)!r}: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    data = parse_json(text, repr(str(path)))
    if isinstance(data, dict) and "position" in data and "players" not in data:
        data = data["position"]
    return load_position(data)


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


def view(state: GameState, player: int) -> GameState:
    """What ``player`` can know (R6, R9): other hands hidden, the stock order hidden.

    He keeps his own hand, every layout, the dead cards, the counts and the
    card he passed in the exchange (the others' passes are hidden).

    Raises
    ------
    PositionError
        If ``player`` is not a seat of this variant.
    """
    if not 0 <= player < state.rules.players:
        raise PositionError(f"no player {player} in {state.rules.name}")
    hands = tuple(h if p == player else None for p, h in enumerate(state.hands))
    gifts = tuple(g if p == player else None for p, g in enumerate(state.gifts))
    gave = tuple(g if p == player else None for p, g in enumerate(state.gave))
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
        The dealer; drawn with the seed when omitted.

    Returns
    -------
    GameState
        In the exchange phase (R9) when the variant has one, else ready to turn.
    """
    rules = get_rules(rules)
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    n = rules.players
    if dealer is None:
        dealer = rng.randrange(n)
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
