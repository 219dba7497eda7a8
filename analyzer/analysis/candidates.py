"""The candidate moves a hint weighs: every legal choice, takes and lay-ins that leave the same
hand grouped into one choice shown with its least exposed arrangement (R13, R14, R16).
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzer.analysis.static import outs
from analyzer.core.cards import iter_mask
from analyzer.core.errors import PositionError
from analyzer.core.melds import cards_of, catalog, layoff_mask, usefulness
from analyzer.core.moves import LayIn, Move, Take
from analyzer.core.state import GameState, Phase, fits_layout
from analyzer.search.sampling import unseen_cards
from analyzer.solver.choice import best_pay, least_exposed_arrangement

__all__ = ["candidate_moves", "choices", "goes_out", "same_choice", "v1_candidates"]


def _usable(state: GameState, player: int, card: int) -> int:
    """Players offered ``card`` after ``player`` pays it whose layout it fits (R11, R14)."""
    n = state.rules.players
    return sum(
        1 for k in range(1, n) if fits_layout(state.layouts[(player + k) % n], card, state.rules)
    )


def _choose_placement(state: GameState, player: int, used: int, lay_in: bool) -> Move | None:
    """``v1``: the take (or lay-in) melding ``used`` hand cards, arranged and paid by CP-SAT."""
    assert state.centre is not None
    rules = state.rules
    hand = state.hand(player)
    must = cards_of(state.layouts[player]) | 1 << state.centre.card
    unseen = unseen_cards(state, player) & ~(1 << state.centre.card)
    arrangement = least_exposed_arrangement(must | used, 0, unseen, rules)
    if arrangement is None:
        return None
    rest = hand & ~used
    if not rest:
        return LayIn(arrangement.melds, None) if lay_in else Take(arrangement.melds, None)
    probe = (LayIn if lay_in else Take)(arrangement.melds, next(iter_mask(rest)))
    after = state.apply(probe, check=False)
    kept: dict[int, int] = {}
    usable: dict[int, int] = {}
    potential: dict[int, int] = {}
    melds = catalog(rules)
    for card in iter_mask(rest):
        # The position once he has paid ``card``: the centre is not his to take back.
        trial = after.with_hand(player, rest & ~(1 << card)).evolve(centre=None, phase=Phase.TURN)
        kept[card] = len(outs(trial, player) or ())
        usable[card] = _usable(state, player, card)
        potential[card] = usefulness(card, rest & ~(1 << card), unseen, melds)
    pay = best_pay(rest, kept, usable, potential)
    return (LayIn if lay_in else Take)(arrangement.melds, pay)


def v1_candidates(state: GameState) -> list[Move]:
    """``v1``: one take or lay-in per set of hand cards melded, chosen by the CP-SAT models,
    and every other legal move (forces, hand-only melds, pass, gives)."""
    player = state.to_act
    legal = state.legal_moves()
    out: list[Move] = []
    seen_used: set[int] = set()
    hand = state.hand(player)
    if state.phase is Phase.FORCED:
        return legal  # the pay card is the forced player's only choice: keep every lay-in
    for move in legal:
        if isinstance(move, (Take, LayIn)):
            used = cards_of(move.layout) & hand
            if used in seen_used:
                continue
            seen_used.add(used)
            chosen = _choose_placement(state, player, used, isinstance(move, LayIn))
            if chosen is not None and state.is_legal(chosen):
                out.append(chosen)
            else:
                out.append(move)
        else:
            out.append(move)
    return out


def _choice_key(state: GameState, move: Move) -> tuple[object, ...]:
    """What a move changes for its player: the cards melded, the cards left in hand and the
    card paid (None: going out).  Moves with the same key are one choice."""
    if isinstance(move, (Take, LayIn)):
        return (type(move).__name__, cards_of(move.layout), move.pay)
    return (move,)


def _exposure(state: GameState, move: Move) -> int:
    """Unseen cards (from the mover's view) that fit the move's new layout for forcing (R14)."""
    if not isinstance(move, (Take, LayIn)):
        return 0
    unseen = unseen_cards(state, state.to_act)
    if state.centre is not None:
        unseen &= ~(1 << state.centre.card)
    return (layoff_mask(move.layout, state.rules) & unseen & ~cards_of(move.layout)).bit_count()


def same_choice(state: GameState, a: Move, b: Move) -> bool:
    """True if ``a`` and ``b`` are one choice: takes or lay-ins that meld the same cards and
    pay the same card (they differ only in the arrangement of the melds), or equal moves."""
    return _choice_key(state, a) == _choice_key(state, b)


def choices(state: GameState, moves: Sequence[Move] | None = None) -> list[list[Move]]:
    """The legal moves of the player to act grouped into choices, in engine order (``moves``:
    ``state.legal_moves()`` when the caller already has them).

    Takes and lay-ins that meld the same cards, keep the same hand and pay
    the same card are one choice: they differ only in how the melds are
    arranged (R13), which matters only for what can later be forced on the
    player (R14).  Within a group the arrangements are sorted by the unseen
    cards they expose to forcing, fewest first (engine order on a tie).
    Every force, hand-only meld, pass and give is a choice of its own.

    Raises
    ------
    PositionError
        If nobody chooses here (a turn or the end of the deal), or the
        chooser's hand is hidden.
    """
    if state.phase not in (Phase.OFFER, Phase.FORCED, Phase.EXCHANGE):
        raise PositionError(f"no move to choose: {state.describe()}")
    groups: dict[tuple[object, ...], list[Move]] = {}
    for move in state.legal_moves() if moves is None else moves:
        groups.setdefault(_choice_key(state, move), []).append(move)
    return [sorted(group, key=lambda m: _exposure(state, m)) for group in groups.values()]


def candidate_moves(state: GameState) -> list[Move]:
    """One move per choice (:func:`choices`): the arrangement exposing the fewest unseen cards
    to forcing (R14), the first in engine order on a tie.

    Raises
    ------
    PositionError
        If nobody chooses here, or the chooser's hand is hidden.
    """
    return [group[0] for group in choices(state)]


def goes_out(move: Move) -> bool:
    """True if ``move`` goes out: a take or lay-in with nothing to pay (R15)."""
    return isinstance(move, (Take, LayIn)) and move.pay is None
