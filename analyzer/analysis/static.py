"""Position analysis and ranked move hints by a static evaluation.

This module looks one move ahead only.  It does not search: every legal
choice of the player to act is scored by the position it leaves, with the
formula below, and the reasons are computed from that position.

Static evaluation (higher is better for the player choosing)::

    score = 1000 * goes_out          (R15: the deal is won at once)
          - 1000 * opponent_goes_out (a force that hands a player the game, R14)
          + 10 * melded               (his melded cards after the move)
          + 2 * outs                  (cards that would let him go out, see outs())
          - 3 * gives                 (players next offered the card he releases
                                       whose layout it fits, R11, R14; a pass of a
                                       card that fits his own layout counts one
                                       more: it may be forced on him)
          - 1 * exposed               (unseen cards that fit his layout, so that he
                                       can be forced with them, R14)
          + 3 * forces                (a force makes the forced player pay one of
                                       his hand cards, R14)

See Also
--------
analyzer.core.state.GameState.legal_moves : the one move generator scored here.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.core.cards import FULL_DECK, counted, format_card, format_mask, iter_mask
from analyzer.core.dealing import view
from analyzer.core.errors import PositionError
from analyzer.core.legal import take_moves
from analyzer.core.melds import can_meld_all, cards_of, layoff_mask
from analyzer.core.moves import Force, Give, LayIn, Meld, Move, Pass, Take
from analyzer.core.rules import Rearrange
from analyzer.core.state import GameState, Phase, fits_layout, offer_order

__all__ = [
    "WEIGHTS",
    "Hint",
    "PlayerReport",
    "analyze",
    "check_chooser",
    "forceable",
    "outs",
    "score_move",
    "static_hints",
]

WEIGHTS = {"out": 1000, "melded": 10, "outs": 2, "gives": 3, "exposed": 1, "force": 3}
"""Weights of the static evaluation (see the module docstring)."""


@dataclass(frozen=True, slots=True)
class PlayerReport:
    """One player's line of :func:`analyze`.

    Attributes
    ----------
    melded : int
        Cards in his layout.
    hand_count : int
        Cards in his hand.
    outs : tuple of int or None
        Card indices that would let him go out as the centre card (R15);
        ``None`` when his hand is hidden.
    forceable : tuple of int
        Card indices that fit his layout for forcing (R14).
    """

    melded: int
    hand_count: int
    outs: tuple[int, ...] | None
    forceable: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Hint:
    """One scored move of :func:`static_hints`.

    Attributes
    ----------
    move : Move
    score : float
        Static evaluation (module docstring); higher is better.
    reasons : tuple of str
        Short facts computed from the position the move leaves.
    """

    move: Move
    score: float
    reasons: tuple[str, ...]


def _candidates(state: GameState, hand: int) -> int:
    """Cards that could still be offered: not in ``hand``, no layout, not dead (the centre card counts)."""
    table = state.table_mask()
    if state.centre is not None:
        table &= ~(1 << state.centre.card)
    return FULL_DECK & ~hand & ~table


def outs(state: GameState, player: int) -> tuple[int, ...] | None:
    """Cards that would let ``player`` go out if they were the centre card (R15).

    A card counts if it is not in his hand, not in a layout and not dead
    (the current centre card counts), and his melded cards, his whole hand
    and it can all be melded (R13: his own layout may be rearranged; under
    ``rearrange = borrow`` only as borrowing allows, R13a).

    Returns
    -------
    tuple of int or None
        Card indices in order; ``None`` when his hand is hidden.
    """
    hand = state.hands[player]
    if hand is None:
        return None
    base = cards_of(state.layouts[player]) | hand
    rules = state.rules
    if rules.rearrange is Rearrange.BORROW:
        layout = state.layouts[player]
        return tuple(
            c
            for c in iter_mask(_candidates(state, hand))
            if any(t.pay is None for t in take_moves(layout, hand, c, rules))
        )
    return tuple(
        c for c in iter_mask(_candidates(state, hand)) if can_meld_all(base | 1 << c, rules)
    )


def forceable(state: GameState, player: int) -> tuple[int, ...]:
    """Cards that fit ``player``'s layout for forcing (R14) and could still be forced on him.

    Candidates are the cards not in his hand, no layout, not dead (the centre
    card counts).  With two players a card in the other player's known hand
    cannot be forced on him: it can only reach the centre as that player's
    pay, and a paid card is offered to him alone (R11, R14) - unless its payer
    may force with it (``discard_force``, R14a).
    """
    hand = state.hands[player] or 0
    pool = _candidates(state, hand)
    if state.rules.players == 2 and not state.rules.discard_force:
        other = state.hands[1 - player]
        if other is not None:
            pool &= ~other
    layout = state.layouts[player]
    return tuple(c for c in iter_mask(pool) if fits_layout(layout, c, state.rules))


def analyze(state: GameState) -> list[PlayerReport]:
    """Per player: melded count, hand count, outs (R15) and forceable cards (R14).

    In a finished deal (R15, R18) no card is offered, taken or forced any more: every
    player's outs and forceable cards are empty, so that ``analyze --json`` agrees with
    the table's ``-``.
    """
    if state.is_terminal():
        return [PlayerReport(state.melded(p), state.counts[p], (), ()) for p in range(state.rules.players)]
    return [
        PlayerReport(state.melded(p), state.counts[p], outs(state, p), forceable(state, p))
        for p in range(state.rules.players)
    ]


def _cards(mask_or_list: int | tuple[int, ...], state: GameState) -> str:
    if isinstance(mask_or_list, int):
        return format_mask(mask_or_list, state.rules.labels)
    return " ".join(format_card(c, state.rules.labels) for c in mask_or_list)


def _exposed(state: GameState, player: int, layout: tuple[int, ...], hand: int) -> int:
    unseen = FULL_DECK & ~state.table_mask() & ~hand & ~cards_of(layout)
    return (layoff_mask(layout, state.rules) & unseen).bit_count()


def _takers(state: GameState, card: int, order: list[int]) -> list[int]:
    return [p for p in order if fits_layout(state.layouts[p], card, state.rules)]


def check_chooser(state: GameState) -> None:
    """Refuse a position whose player to act has a hidden hand: choosing needs it.

    Raises
    ------
    PositionError
        If the hand of the player to act is hidden.
    """
    player = state.to_act
    if state.hands[player] is None:
        raise PositionError(
            f"player {player}'s hand is hidden, and this needs the hand of the player to act"
        )


def static_hints(state: GameState, *, own_view: bool = False) -> list[Hint]:
    """Every legal choice of the player to act, scored and ranked best first.

    Parameters
    ----------
    state : GameState
        A position where a player chooses: an offer (R12), a forced lay-in
        (R14) or the exchange (R9).  The chooser's hand must be known.
    own_view : bool
        Score from what the player to act sees (:func:`analyzer.formats.position.view`: the other
        hands and the stock order hidden), as the sampled hint's ``static_score`` does;
        else from every hand ``state`` gives (``hint --static --open``).

    Returns
    -------
    list of Hint
        Best first; ties keep the move generator's order.

    Raises
    ------
    PositionError
        If the deal is over, the next action is a turn (chance, R10), or
        the chooser's hand is hidden.
    """
    if state.phase is Phase.OVER:
        raise PositionError(f"no move to choose: {state.describe()}")
    if state.phase is Phase.TURN:
        raise PositionError(
            f"no move to choose: player {state.to_act} turns the next stock card (R10)"
        )
    player = state.to_act
    check_chooser(state)
    scored = view(state, player) if own_view else state
    hints = [score_move(scored, move) for move in scored.legal_moves()]
    order = sorted(range(len(hints)), key=lambda k: -hints[k].score)
    return [hints[k] for k in order]


def score_move(state: GameState, move: Move) -> Hint:
    """The static evaluation of one legal ``move`` of the player to act, with its reasons.

    Uses only what ``state`` shows: on a player's view, hidden hands stay hidden.

    Raises
    ------
    IllegalMoveError
        If ``move`` is not legal in ``state``.
    """
    player = state.to_act
    rules = state.rules
    n = rules.players
    w = WEIGHTS
    reasons: list[str] = []
    score = 0.0
    after = state.apply(move)
    if isinstance(move, Give):
        # The exchange happens at once when all have chosen (R9); judge the hand without the card.
        after = after.with_hand(player, state.hand(player) & ~(1 << move.card))
    if isinstance(move, (Take, LayIn)) and move.pay is None:
        reasons.append(f"goes out with {rules.target} cards melded and wins (R15)")
        return Hint(move, float(w["out"] + w["melded"] * rules.target), tuple(reasons))
    if isinstance(move, Force) and state.counts[move.player] == 0:
        reasons.append(
            f"player {move.player} has an empty hand: forcing him hands him the game (R14)"
        )
        return Hint(move, float(-w["out"]), tuple(reasons))

    melded_before = state.melded(player)
    melded = after.melded(player)
    hand_after = after.hands[player] or 0
    layout = after.layouts[player]
    my_outs = outs(after, player) or ()
    if after.centre is not None and not isinstance(move, Meld):
        # Reasons describe the position after the move: a card he has passed, forced on
        # another player or paid himself is no longer his to take (R11, R12).
        my_outs = tuple(c for c in my_outs if c != after.centre.card)
    exposed = _exposed(after, player, layout, hand_after)
    score += w["melded"] * melded + w["outs"] * len(my_outs) - w["exposed"] * exposed

    if isinstance(move, (Take, LayIn)):
        assert move.pay is not None and state.centre is not None
        used = cards_of(layout) & ~cards_of(state.layouts[player]) & ~(1 << state.centre.card)
        verb = "takes" if isinstance(move, Take) else "lays in"
        detail = f" with {_cards(used, state)}" if used else ""
        reasons.append(
            f"{verb} {format_card(state.centre.card, rules.labels)}{detail}: "
            f"{melded_before} -> {melded} cards melded"
        )
        order = [(player + k) % n for k in range(1, n)]
        takers = _takers(after, move.pay, order)
        score -= w["gives"] * len(takers)
        pay = format_card(move.pay, rules.labels)
        if takers:
            who = ", ".join(f"player {p}" for p in takers)
            reasons.append(f"pays {pay}, which fits the layout of {who}")
        else:
            reasons.append(f"pays {pay}, which fits no opponent's layout")
    elif isinstance(move, Force) and state.centre is not None:
        k = move.player
        score += w["force"]
        reasons.append(
            f"forces player {k} to lay in {format_card(state.centre.card, rules.labels)} "
            f"and pay one of his {state.counts[k]} hand cards (R14)"
        )
        before = outs(state, k)
        if before is not None:
            # His best lay-in keeps the most outs; the force costs him the rest.
            kept = max((len(outs(after.apply(m), k) or ()) for m in after.legal_moves()), default=0)
            lost = len(before) - kept
            score += w["outs"] * lost
            if lost > 0:
                reasons.append(
                    f"player {k}'s outs drop from {len(before)} ({_cards(before, state)}) to {kept}"
                )
    elif isinstance(move, Pass) and state.centre is not None:
        centre = state.centre
        offer = offer_order(rules, centre)
        rest = [p for p in offer[len(centre.declined) + 1 :]]
        card = format_card(centre.card, rules.labels)
        takers = _takers(state, centre.card, rest)
        score -= w["gives"] * len(takers)
        if rest and fits_layout(state.layouts[player], centre.card, rules):
            score -= w["gives"]
            reasons.append(f"{card} fits your layout: you may then be forced with it (R14)")
        if not rest:
            reasons.append(f"{card} becomes a dead card (R17)")
        elif takers:
            reasons.append(
                f"leaves {card} to {', '.join(f'player {p}' for p in takers)}, whose layout it fits"
            )
        else:
            reasons.append(f"leaves {card} to players whose layouts it does not fit")
    elif isinstance(move, Meld):
        reasons.append(f"lays [{_cards(move.meld, state)}] from the hand (R16)")
    elif isinstance(move, Give):
        reasons.append(
            f"passes {format_card(move.card, rules.labels)} to player {(player + 1) % n} (R9)"
        )

    if my_outs:
        reasons.append(f"keeps {counted(len(my_outs), 'out')}: {_cards(my_outs, state)}")
    else:
        reasons.append("no outs yet")
    if exposed:
        reasons.append(f"exposes {counted(exposed, 'card')} to forcing (R14)")
    return Hint(move, score, tuple(reasons))
