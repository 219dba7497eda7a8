"""Explaining a move: why it is illegal (rule facts from a CP-SAT infeasibility core), or how it
compares with the best move.

For a take or a lay-in (R13, R14) the question "can the centre card be
melded this way?" is a CP-SAT model whose rule facts are *assumptions*
(enforcement literals):

* ``centre``: the centre card must be melded (R13);
* ``keep M``: the cards of each meld M of his layout must stay melded (R13);
* ``absent Y``: a card Y that could share a meld with the cards in play is
  not the player's (it is elsewhere, or unseen), so it cannot be used;
* ``only``: only the hand cards the move names are melded (for a named move);
* ``pay``: a hand card must be left to pay, unless the player goes out (R7, R13);
* ``lay-in``: a forced player adds no hand card (R14).

When the model is infeasible, :meth:`CpSolver.sufficient_assumptions_for_infeasibility`
gives a core of facts that together forbid the move; the core is then made
minimal by dropping each fact in turn and solving again (deletion filter).
Other illegal moves (wrong player, a force that does not fit, ...) are
explained by the rule they break.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from analyzer.core.cards import Labels, counted, format_card, format_mask, iter_mask
from analyzer.core.legal import borrow_fault
from analyzer.core.melds import cards_of, catalog, is_meld, is_run, is_set
from analyzer.core.moves import Force, Give, LayIn, Meld, Move, Pass, Take, Turn, parse_move
from analyzer.core.rules import Exchange, ForceWhen, Rearrange
from analyzer.core.state import GameState, Phase, fits_layout, offer_order
from analyzer.solver.partition import _solver, cover_model

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = ["Explanation", "explain", "melding_core"]


@dataclass(frozen=True, slots=True)
class Explanation:
    """The answer of :func:`explain`.

    Attributes
    ----------
    move : str
        The move as asked.
    legal : bool
    facts : tuple of str
        For an illegal move: the rule facts that forbid it (a minimal set).
    """

    move: str
    legal: bool
    facts: tuple[str, ...]


def _where(state: GameState, card: int, player: int) -> str:
    for p, layout in enumerate(state.layouts):
        if cards_of(layout) >> card & 1:
            return "in your layout" if p == player else f"in player {p}'s layout"
    if card in state.dead:
        return "a dead card"
    if state.centre is not None and state.centre.card == card:
        return "the centre card"
    for p, hand in enumerate(state.hands):
        if hand is not None and hand >> card & 1:
            return "in your hand" if p == player else f"in player {p}'s hand"
    return "not yours"


def melding_core(
    state: GameState, player: int, used: int | None, going_out: bool | None, lay_in: bool
) -> list[str] | None:
    """A minimal set of rule facts that forbid melding the centre card, or ``None`` if it can be done.

    Parameters
    ----------
    state : GameState
        A position with a centre card.
    player : int
        Who melds it.
    used : int or None
        The hand cards to meld with it (``None``: any).
    going_out : bool or None
        Whether he must go out (``True``), must keep a card to pay
        (``False``), or either (``None``).
    lay_in : bool
        A forced lay-in (no hand card may be added, R14).

    Returns
    -------
    list of str or None
        The facts (one line each), or ``None`` when the melding is possible.
    """
    from ortools.sat.python import cp_model  # imported when needed (start-up time)
    assert state.centre is not None
    rules = state.rules
    labels = rules.labels
    hand = state.hand(player)
    old_layout = state.layouts[player]
    old = cards_of(old_layout)
    centre = state.centre.card
    mine = old | hand | 1 << centre
    # Cards outside his reach that share a catalog meld with the centre card or his melded cards.
    near = 0
    for meld in catalog(rules):
        if meld & (old | 1 << centre):
            near |= meld
    absent = near & ~mine
    # Every card at most once (R6); what must be melded is an assumption below.
    cover = cover_model(mine | absent, 0, rules)
    model, covered = cover.model, cover.covered
    facts: dict[int, str] = {}
    literals: dict[int, cp_model.IntVar] = {}

    def fact(text: str) -> cp_model.IntVar:
        lit = model.new_bool_var(text)
        facts[lit.index] = text
        literals[lit.index] = lit
        return lit

    lit = fact(f"{format_card(centre, labels)} must be melded (R13)")
    model.add(covered[centre] == 1).only_enforce_if(lit)
    for meld in old_layout:
        lit = fact(
            f"your melded {format_mask(meld, labels)} must all stay melded (R13), "
            "so none of them can leave that meld unless the rest still make melds"
        )
        for card in iter_mask(meld):
            model.add(covered[card] == 1).only_enforce_if(lit)
    for card in iter_mask(absent):
        lit = fact(
            f"{format_card(card, labels)} is {_where(state, card, player)}, so you cannot use it"
        )
        model.add(covered[card] == 0).only_enforce_if(lit)
    if lay_in:
        lit = fact("a forced player adds no hand card (R14)")
        for card in iter_mask(hand):
            model.add(covered[card] == 0).only_enforce_if(lit)
    elif used is not None:
        names = format_mask(used, labels)
        lit = fact(
            f"your move melds only {names} from your hand" if names
            else "your move melds no card from your hand"
        )
        for card in iter_mask(hand & ~used):
            model.add(covered[card] == 0).only_enforce_if(lit)
        for card in iter_mask(used):
            model.add(covered[card] == 1).only_enforce_if(lit)
    hand_melded = sum(covered[c] for c in iter_mask(hand)) if hand else 0
    if going_out is False and hand:
        lit = fact("you must keep a hand card to pay (R13)")
        model.add(hand_melded <= hand.bit_count() - 1).only_enforce_if(lit)
    elif going_out is True:
        count = hand.bit_count()
        lit = fact(
            f"going out needs all {count} hand cards melded (R15)" if count > 1
            else "going out needs your hand card melded (R15)"
        )
        model.add(hand_melded == hand.bit_count()).only_enforce_if(lit)
    model.add_assumptions(list(literals.values()))
    solver = _solver(10.0)
    if solver.solve(model) != cp_model.INFEASIBLE:
        return None
    core = list(solver.sufficient_assumptions_for_infeasibility())
    # Deletion filter: drop every fact the others still forbid the move without.
    k = 0
    while k < len(core):
        trial = core[:k] + core[k + 1 :]
        model.clear_assumptions()
        model.add_assumptions([literals[i] for i in trial])
        if _solver(10.0).solve(model) == cp_model.INFEASIBLE:
            core = trial
        else:
            k += 1
    return [facts[i] for i in core]


def _meld_problem(meld: int, state: GameState) -> str | None:
    rules, labels = state.rules, state.rules.labels
    if is_meld(meld, rules):
        return None
    text = f"[{format_mask(meld, labels)}]"
    n = meld.bit_count()
    if n < 3:
        return f"{text} is not a meld: a meld has at least 3 cards (R4, R5)"
    if is_set(meld | 0) or is_run(meld, rules):
        return None
    suits = {c % 4 for c in iter_mask(meld)}
    ranks = {c // 4 for c in iter_mask(meld)}
    if len(suits) == 1 and n > rules.max_run:
        return f"{text} is a run of {n} cards, longer than {rules.max_run} in {rules.name} (R5)"
    if len(ranks) == 1:
        return f"{text} is not a set: a set has 3 or 4 cards (R4)"
    return f"{text} is neither a set (one rank, R4) nor a run (one suit, consecutive ranks, R3, R5)"


def explain(state: GameState, text: str, *, labels: Labels | None = None) -> Explanation:
    """Explain the move ``text`` in ``state``: the facts that forbid it, or nothing if legal.

    Parameters
    ----------
    state : GameState
        The position; the answer is in its labels (``state.rules.labels``).
    text : str
        A move (``take [..] pay X``, ``force 1``, ...) or just ``take`` (any
        take of the centre card).
    labels : Labels, optional
        The labels that decide the move's cards that read both ways when none
        of its cards does (R2): the position's own; ``state.rules.labels``
        when omitted.

    Raises
    ------
    IllegalMoveError
        If ``text`` is not a move at all.
    """
    general = text.strip().lower() == "take"
    move: Move | None = (
        None if general else parse_move(text, labels or state.rules.labels)
    )
    labels = state.rules.labels
    if move is not None and state.is_legal(move):
        return Explanation(move.text(labels), True, ())
    if general and state.phase is Phase.OFFER:
        takes = [m for m in state.legal_moves() if isinstance(m, Take)]
        if takes:
            assert state.centre is not None
            card = format_card(state.centre.card, labels)
            return Explanation(
                "take", True, (f"{card} can be taken in {len(takes)} ways (arrangement and pay)",)
            )
    facts = _facts(state, move)
    return Explanation(text if move is None else move.text(labels), False, tuple(facts))


def _facts(state: GameState, move: Move | None) -> list[str]:
    labels = state.rules.labels
    phase = state.phase
    me = state.to_act
    if phase is Phase.OVER:
        return [f"the deal is over ({state.describe()})"]
    if isinstance(move, Turn):
        turn_facts = ["a turn is a chance move: the stock decides it, not a player (R10)"]
        if phase is not Phase.TURN:
            turn_facts.append(f"no card is turned now: {state.describe()}")
        else:
            stock = state.stock_mask()
            if stock is not None and not stock >> move.card & 1:
                where = _where(state, move.card, me)
                turn_facts.append(
                    f"{format_card(move.card, labels)} is not in the stock: it is {where}"
                )
            elif state.stock is not None and state.stock[0] != move.card:
                turn_facts.append(f"the top stock card is {format_card(state.stock[0], labels)}")
        return turn_facts
    if phase is Phase.TURN:
        return [f"no card is offered: player {me} turns the next stock card first (R10)"]
    if phase is Phase.EXCHANGE:
        if isinstance(move, Give):
            return [f"{format_card(move.card, labels)} is not in player {me}'s hand (R9)"]
        return ["the exchange comes first: each player gives one card (R9)"]
    if isinstance(move, Give):
        if state.rules.exchange is Exchange.NONE:
            return [f"{state.rules.name} has no exchange: no card is given (R9)"]
        return ["the exchange is over: cards are given only before play (R9)"]
    assert state.centre is not None
    centre = state.centre
    card = format_card(centre.card, labels)
    if phase is Phase.FORCED and not isinstance(move, LayIn):
        return [f"player {me} was forced to take {card}: he must lay it in and pay (R14)"]
    if phase is Phase.OFFER and isinstance(move, LayIn):
        return ["nobody has been forced: 'lay' is only for a forced player (R14); use 'take'"]
    if isinstance(move, Force):
        return _force_facts(state, move.player)
    if isinstance(move, Meld):
        if not state.rules.hand_melds:
            return [
                f"{state.rules.name} has no hand-only melds: hand cards reach the table with a centre card (R16)"
            ]
        if move.meld & ~state.hand(me):
            missing = move.meld & ~state.hand(me)
            verb = "is" if missing.bit_count() == 1 else "are"
            return [f"{format_mask(missing, labels)} {verb} not in your hand (R16)"]
        return [_meld_problem(move.meld, state) or "not a legal meld (R4, R5)"]
    if isinstance(move, Pass):
        return []
    if phase is Phase.OFFER and centre.kind == "paid" and centre.source == me:
        return [
            f"player {me} paid {card}: offered his own paid card, he may only force a player "
            "whose layout it fits, or pass (R14a)"
        ]
    # A take or a lay-in, named or general.
    lay_in = isinstance(move, LayIn) or phase is Phase.FORCED
    hand = state.hand(me)
    old = cards_of(state.layouts[me])
    if move is None:
        core = melding_core(state, me, None, None, lay_in)
        return core or [f"{card} can be taken: try 'conquian hint'"]
    assert isinstance(move, (Take, LayIn))
    if isinstance(move, LayIn) and move.pay is None and hand:
        return [
            f"player {me} still holds {counted(hand.bit_count(), 'card')}: a forced player goes out only "
            f"when he has no hand card left, since he adds none (R14, R15); he must pay one"
        ]
    new = cards_of(move.layout)
    facts: list[str] = []
    foreign = new & ~(old | hand | 1 << centre.card)
    for c in iter_mask(foreign):
        facts.append(f"{format_card(c, labels)} is {_where(state, c, me)}, so you cannot meld it")
    for meld in move.layout:
        problem = _meld_problem(meld, state)
        if problem:
            facts.append(problem)
    if move.pay is not None:
        if not hand >> move.pay & 1:
            facts.append(
                f"you can only pay a card from your hand, and {format_card(move.pay, labels)} is {_where(state, move.pay, me)} (R13)"
            )
        elif new >> move.pay & 1:
            facts.append(f"{format_card(move.pay, labels)} cannot be both melded and paid (R13)")
    if facts:
        return facts
    added = new & hand
    if lay_in and added:
        verb = "is" if added.bit_count() == 1 else "are"
        return [
            f"a forced player lays in {card} alone and adds no hand card, and "
            f"{format_mask(added, labels)} {verb} from player {me}'s hand (R14)"
        ]
    if state.rules.rearrange is Rearrange.BORROW:
        problem = _borrow_problem(state.layouts[me], move.layout, labels)
        if problem:
            return [problem]
    used = new & hand
    core = melding_core(state, me, used, move.pay is None, lay_in)
    if core:
        return core
    missing = (old | 1 << centre.card) & ~new
    if missing:
        return [f"{format_mask(missing, labels)} must be melded in the new layout (R13)"]
    return ["the layout is not a legal arrangement of these cards (R4-R6)"]


def _force_facts(state: GameState, target: int) -> list[str]:
    rules, labels = state.rules, state.rules.labels
    assert state.centre is not None
    centre = state.centre
    card = format_card(centre.card, labels)
    me = state.to_act
    if not 0 <= target < rules.players:
        return [f"there is no player {target} in {rules.name}"]
    own = centre.kind == "paid" and centre.source == me  # R14a: his own paid card
    if target == me:
        if own:
            return ["you cannot force yourself: offered your own paid card, you may force another player whose layout it fits, or pass (R14a)"]
        return ["you cannot force yourself: take the card instead (R14)"]
    if centre.kind == "paid" and target == centre.source:
        rule = "R14a" if rules.discard_force else "R14"
        return [f"player {target} paid {card}: he cannot be forced with it ({rule})"]
    facts = []
    if rules.force_when is ForceWhen.AFTER_DECLINE and target not in centre.declined and not own:
        order = offer_order(rules, centre)
        facts.append(
            f"in {rules.name} you may force only a player who has declined {card} in this offer, "
            f"and player {target} has not (offer order {list(order)}, R14)"
        )
    if not fits_layout(state.layouts[target], centre.card, rules):
        layout = (
            " ".join(f"[{format_mask(m, labels)}]" for m in state.layouts[target]) or "no melds"
        )
        facts.append(
            f"{card} extends none of player {target}'s melds ({layout}) (R14 {rules.force_fit})"
        )
    return facts or ["this force is not allowed here (R14)"]


def _borrow_problem(old: tuple[int, ...], new: tuple[int, ...], labels: Labels) -> str | None:
    """What borrowing (R13a) forbids in going from the melds ``old`` to ``new``, or ``None``
    (:func:`~analyzer.core.legal.borrow_fault` in words)."""
    fault = borrow_fault(old, new)
    if fault is None:
        return None
    how, meld, other = fault
    text = f"[{format_mask(meld, labels)}]"
    if how == "split":
        groups = [part & meld for part in new if (part & meld).bit_count() >= 2]
        parts = " and ".join(f"[{format_mask(g, labels)}]" for g in groups)
        rule = "a set of four lends one card" if is_set(meld) else (
            "a run lends only end cards, one to each other meld, never a middle card"
        )
        return f"{text} is split into {parts}: {rule} (R13a)"
    if how == "lent":
        return f"{text} lends every card: borrowing leaves a meld in place (R13a)"
    if how == "merged":
        return f"[{format_mask(other, labels)}] and {text} are merged: borrowing never joins two melds (R13a)"
    lent = format_mask(meld & ~other, labels)
    if meld.bit_count() == 3:
        return f"{text} has three cards: it lends none (R13a), not {lent}"
    if is_set(meld):
        return f"a set of four lends one card, not {lent} (R13a)"
    return f"{lent} would leave {text} without three cards in sequence: a run lends only end cards, never a middle card (R13a)"
