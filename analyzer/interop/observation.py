"""What a player of a :class:`~analyzer.interop.match.Match` sees: information-state and
observation strings and tensors (OpenSpiel's observer, the PettingZoo observation).

Perfect recall (the information state) shows the history a player has seen;
an observation shows the table now.  Hidden cards (R6, R9) never appear.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from analyzer.core.cards import format_card, format_mask
from analyzer.core.melds import cards_of
from analyzer.core.moves import Give, Move
from analyzer.core.rules import Rules
from analyzer.core.state import GameState, Phase, fits_layout
from analyzer.interop.codec import NUM_CARDS
from analyzer.search.sampling import chosen_gifts


class Match(Protocol):
    """What the observation reads of a :class:`~analyzer.interop.match.Match` (a protocol, so
    that this module does not import the match it describes)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def dealer(self) -> int | None: ...
    @property
    def dealt(self) -> tuple[int, ...]: ...
    @property
    def start(self) -> GameState | None: ...
    @property
    def state(self) -> GameState | None: ...
    @property
    def events(self) -> tuple[tuple[int | None, Move], ...]: ...
    @property
    def paid(self) -> tuple[int, ...]: ...
    @property
    def declined(self) -> tuple[int, ...]: ...

    def _slots(self, player: int, count: int) -> set[int]: ...

__all__ = ["describe_match", "information_string", "observation_string", "tensor", "tensor_layout"]

_PHASES = ("deal", "exchange", "turn", "offer", "forced", "over")



def information_string(
    match: Match, player: int, *, private: str = "single", public: bool = True
) -> str:
    """What ``player`` knows, with perfect recall (OpenSpiel's information state string).

    Parameters
    ----------
    player : int
    private : str
        ``"single"``: ``player``'s own cards and exchange (default);
        ``"none"``: public information only; ``"all"``: every hand.
    public : bool
        Include the public information (the moves everybody sees).

    Returns
    -------
    str
        Lines: the seat and variant, the private cards, then the history.
    """
    return "\n".join(_lines(match, player, private, public, recall=True))

def observation_string(
    match: Match, player: int, *, private: str = "single", public: bool = True
) -> str:
    """What ``player`` sees now (OpenSpiel's observation string): the table, no history."""
    return "\n".join(_lines(match, player, private, public, recall=False))

def _lines(match: Match, player: int, private: str, public: bool, recall: bool) -> list[str]:
    n = match.rules.players
    lines = [f"{match.rules.name}, seat {player} of {n}"]
    if public:
        dealer = "?" if match.dealer is None else str(match.dealer)
        lines.append(f"dealer {dealer}")
    seats = range(n) if private == "all" else [player] if private == "single" else []
    for q in seats:
        lines.extend(_private_lines(match, q, recall))
    if not public:
        return lines
    if match.state is None:
        lines.append(f"dealing: {len(match.dealt)} of {n * match.rules.hand_size} cards dealt")
        return lines
    if recall:
        assert match.start is not None
        if not match.dealt:
            lines.append("from: " + _public_summary(match.start))
        history = [
            _event_text(match, player, private, actor, move) for actor, move in match.events
        ]
        lines.append("history: " + (" | ".join(history) if history else "-"))
    lines.append("now: " + _public_summary(match.state))
    if match.state.is_terminal():
        winner = match.state.winner
        lines.append("result: " + ("draw" if winner is None else f"p{winner} won"))
    return lines

def _private_lines(match: Match, q: int, recall: bool) -> list[str]:
    labels = match.rules.labels
    lines: list[str] = []
    if match.state is None:
        if match.dealer is not None:
            cards = [match.dealt[k] for k in sorted(match._slots(q, len(match.dealt)))]
            mask = sum(1 << c for c in cards)
            lines.append(f"p{q} dealt: {format_mask(mask, labels) or '-'}")
        return lines
    hand = match.state.hands[q] or 0
    if recall and match.dealt:
        mine = sum(1 << match.dealt[k] for k in match._slots(q, len(match.dealt)))
        lines.append(f"p{q} dealt: {format_mask(mine, labels)}")
    elif recall:
        assert match.start is not None
        lines.append(
            f"p{q} hand at start: {format_mask(match.start.hands[q] or 0, labels) or '-'}"
        )
        if match.start.gave and match.start.gave[q] is not None:
            lines.append(f"p{q} gave at start: {format_card(match.start.gave[q], labels)}")  # type: ignore[arg-type]
    lines.append(f"p{q} hand: {format_mask(hand, labels) or '-'}")
    if match.state.phase is Phase.EXCHANGE and match.state.gifts:
        g = match.state.gifts[q]
        lines.append(f"p{q} chose: {'-' if g is None else format_card(g, labels)}")
    elif match.state.gave and match.state.gave[q] is not None:
        g = match.state.gave[q]
        assert g is not None
        text = f"p{q} gave: {format_card(g, labels)}"
        got = match.state.gave[(q - 1) % match.rules.players]
        if recall and _exchanged_in_history(match) and got is not None:
            text += f", got: {format_card(got, labels)}"
        lines.append(text)
    return lines

def _exchanged_in_history(match: Match) -> bool:
    return any(isinstance(move, Give) for _, move in match.events)

def _event_text(match: Match, player: int, private: str, actor: int | None, move: Move) -> str:
    labels = match.rules.labels
    if actor is None:
        return move.text(labels)
    if (
        isinstance(move, Give)
        and private != "all"
        and not (private == "single" and actor == player)
    ):
        return f"p{actor} gives a card"
    return f"p{actor} {move.text(labels)}"

def describe_match(match: Match) -> str:
    """Every hand and the history (for debugging; it shows hidden cards)."""
    head = f"{match.rules.name}, {match.rules.players} players"
    return "\n".join([head, *_lines(match, 0, "all", True, recall=match.state is not None)[1:]])


# --------------------------------------------------------------- tensors
def tensor(
    match: Match, player: int, *, private: str = "single", public: bool = True, recall: bool = True
) -> list[float]:
    """``player``'s information as numbers in ``[0, 1]`` (see :func:`tensor_layout`).

    Parameters
    ----------
    player : int
    private, public
        As for :meth:`information_string`.
    recall : bool
        Add what only the history shows: per seat, the cards he paid
        and the centre cards he passed (the information state tensor).

    Returns
    -------
    list of float
        Of length ``sum(size for _, size, _ in tensor_layout(...))``.
    """
    rules = match.rules
    n, h = rules.players, rules.hand_size
    out: list[float] = []

    def seat_of(q: int) -> int:
        return (q - player) % n

    def plane(mask: int) -> list[float]:
        return [1.0 if mask >> c & 1 else 0.0 for c in range(NUM_CARDS)]

    def one_hot(size: int, index: int | None) -> list[float]:
        v = [0.0] * size
        if index is not None and 0 <= index < size:
            v[index] = 1.0
        return v

    def by_seat(values: Sequence[int]) -> list[int]:
        return [values[(player + k) % n] for k in range(n)]

    state = match.state
    if private != "none":
        seats = [player] if private == "single" else [(player + k) % n for k in range(n)]
        for q in seats:
            if state is None:
                mask = 0
                if match.dealer is not None:
                    for k in match._slots(q, len(match.dealt)):
                        mask |= 1 << match.dealt[k]
                out += plane(mask)
            else:
                out += plane(state.hands[q] or 0)
        for q in seats:
            out += plane(_gift(match, q))
        if private == "single":
            got = _got(match, player)
            out += plane(got)
    if public:
        phase = "deal" if state is None else str(state.phase)
        out += one_hot(len(_PHASES), _PHASES.index(phase))
        out += one_hot(n, None if state is None else seat_of(state.to_act))
        out += one_hot(n, None if match.dealer is None else seat_of(match.dealer))
        layouts = by_seat([cards_of(state.layouts[q]) if state else 0 for q in range(n)])
        for mask in layouts:
            out += plane(mask)
        for k in range(n):
            q = (player + k) % n
            fits = 0
            if state is not None:
                for c in range(NUM_CARDS):
                    if fits_layout(state.layouts[q], c, rules):
                        fits |= 1 << c
            out += plane(fits)
        dead = sum(1 << c for c in state.dead) if state else 0
        out += plane(dead)
        centre = state.centre if state else None
        out += plane(0 if centre is None else 1 << centre.card)
        # Turned from the stock (the upcard too, R10a: the dealer turned it) or paid.
        out += one_hot(2, None if centre is None else int(centre.kind == "paid"))
        out += one_hot(n, None if centre is None else seat_of(centre.source))
        declined_now = [0.0] * n
        if centre is not None:
            for q in centre.declined:
                declined_now[seat_of(q)] = 1.0
        out += declined_now
        out += one_hot(
            n, None if centre is None or centre.forced is None else seat_of(centre.forced)
        )
        chosen = [0.0] * n
        if state is not None and state.phase is Phase.EXCHANGE:
            for q, g in enumerate(state.gifts):
                if g is not None:
                    chosen[seat_of(q)] = 1.0
        out += chosen
        counts = by_seat(state.counts if state else [0] * n)
        out += [c / h for c in counts]
        out += [(state.stock_count if state else rules.stock_size) / rules.stock_size]
        result = [0.0] * (n + 1)
        if state is not None and state.is_terminal():
            result[n if state.winner is None else seat_of(state.winner)] = 1.0
        out += result
        if recall:
            for mask in by_seat(match.paid):
                out += plane(mask)
            for mask in by_seat(match.declined):
                out += plane(mask)
    return out

def _gift(match: Match, q: int) -> int:
    """Mask of the card seat ``q`` chose or gave in the exchange (R9), 0 if none."""
    state = match.state
    if state is None:
        return 0
    g = None
    if state.phase is Phase.EXCHANGE and state.gifts:
        g = state.gifts[q]
    elif state.gave:
        g = state.gave[q]
    return 0 if g is None else 1 << g

def _got(match: Match, q: int) -> int:
    """Mask of the card seat ``q`` received in the exchange, when his history shows it."""
    state = match.state
    if state is None or not state.gave or not _exchanged_in_history(match):
        return 0
    g = state.gave[(q - 1) % match.rules.players]
    return 0 if g is None else 1 << g


def tensor_layout(
    rules: Rules, *, private: str = "single", public: bool = True, recall: bool = True
) -> list[tuple[str, int, tuple[int, ...]]]:
    """The named pieces of :meth:`Match.tensor`, in order: ``(name, size, shape)``.

    Seats are relative: row ``k`` of a per-seat piece is the seat ``k``
    places after the observing player (row 0 is himself).  Card planes are
    indexed by card index (R1: ``rank_ordinal_0_based * 4 + suit``).

    Raises
    ------
    ValueError
        If ``private`` is not ``"single"``, ``"none"`` or ``"all"``.
    """
    if private not in ("single", "none", "all"):
        raise ValueError(f"private must be single, none or all, not {private!r}")
    n = rules.players
    c = NUM_CARDS
    pieces: list[tuple[str, tuple[int, ...]]] = []
    if private == "single":
        pieces += [("hand", (c,)), ("gave", (c,)), ("got", (c,))]
    elif private == "all":
        pieces += [("hands", (n, c)), ("gave", (n, c))]
    if public:
        pieces += [
            ("phase", (len(_PHASES),)),
            ("to_act", (n,)),
            ("dealer", (n,)),
            ("melded", (n, c)),
            ("fits", (n, c)),
            ("dead", (c,)),
            ("centre", (c,)),
            ("centre_kind", (2,)),
            ("centre_source", (n,)),
            ("declined_now", (n,)),
            ("forced", (n,)),
            ("chosen", (n,)),
            ("hand_counts", (n,)),
            ("stock", (1,)),
            ("result", (n + 1,)),
        ]
        if recall:
            pieces += [("paid", (n, c)), ("declined", (n, c))]
    out = []
    for name, shape in pieces:
        size = 1
        for d in shape:
            size *= d
        out.append((name, size, shape))
    return out


def _public_summary(state: GameState) -> str:
    """The public part of a position on one line: phase, to act, layouts, dead, centre, counts."""
    labels = state.rules.labels
    n = state.rules.players
    parts = [f"{state.phase}"]
    if not state.is_terminal():
        parts.append(f"p{state.to_act} to act")
    layouts = "; ".join(
        f"p{q} " + (" ".join(f"[{format_mask(m, labels)}]" for m in state.layouts[q]) or "-")
        for q in range(n)
    )
    parts.append(f"layouts {layouts}")
    parts.append("dead " + (" ".join(format_card(c, labels) for c in state.dead) or "-"))
    if state.centre is not None:
        c = state.centre
        text = f"centre {format_card(c.card, labels)} {c.kind} by p{c.source}"
        if c.declined:
            text += ", declined by " + " ".join(f"p{q}" for q in c.declined)
        if c.forced is not None:
            text += f", p{c.forced} forced"
        parts.append(text)
    if state.phase is Phase.EXCHANGE:
        chosen = [q for q, g in enumerate(chosen_gifts(state)) if g != -1]
        parts.append("chosen " + (" ".join(f"p{q}" for q in chosen) or "-"))
    parts.append("hands " + " ".join(str(k) for k in state.counts))
    parts.append(f"stock {state.stock_count}")
    return " | ".join(parts)
