"""Move hints from a player's own view: sampled deals solved by the explorer (PIMC).

For the player to act, :func:`advise`

1. lists candidate moves with the one engine (:meth:`GameState.legal_moves`):
   every force, pass and hand-only meld, and for each set of hand cards that
   can be melded with the centre card one take (or lay-in), whose
   arrangement and pay card come from the CP-SAT choice models of
   :mod:`analyzer.choice` (most melded, fewest cards exposed to forcing;
   most outs kept, fewest cards given to the next players);
2. draws deals of the hidden cards consistent with his view, uniformly
   (:mod:`analyzer.sampling`; no inference from the others' past choices);
3. solves each candidate on each sampled deal with the double-dummy search
   (:mod:`analyzer.search`), sharing one transposition table per deal; a
   search that runs out of its node budget scores its unfinished positions
   with the search's documented heuristic (melded-card lead);
4. reports, per move, the win / draw / loss frequencies over the deals
   with a 95% interval for the win probability (Wilson score interval),
   ranked by expected result (R20: win +1, draw 0, loss -1).

This is perfect-information Monte Carlo: each sampled deal is solved as if
every card were visible, which overrates moves that need to know the hidden
cards; it is the standard baseline for hidden-information card games.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from analyzer.bots import usefulness
from analyzer.cards import iter_mask
from analyzer.choice import best_pay, least_exposed_arrangement
from analyzer.errors import PositionError
from analyzer.hints import Hint, outs, score_move
from analyzer.melds import cards_of, catalog
from analyzer.moves import LayIn, Move, Take
from analyzer.position import view as view_of
from analyzer.sampling import sample_deal, unseen_cards
from analyzer.search import Solver
from analyzer.simulate import wilson
from analyzer.state import GameState, Phase, fits_layout

__all__ = [
    "DEFAULT_NODE_BUDGET",
    "DEFAULT_SAMPLES",
    "DEFAULT_TIME_LIMIT",
    "Advice",
    "MoveEstimate",
    "advise",
    "candidate_moves",
]

DEFAULT_SAMPLES = 48
"""Most deals sampled by default."""
DEFAULT_TIME_LIMIT = 2.0
"""Seconds of sampling by default (a mid-game position is answered in about this)."""
DEFAULT_NODE_BUDGET = 4_000
"""Positions per double-dummy solve by default."""


@dataclass(frozen=True, slots=True)
class MoveEstimate:
    """One candidate move with its sampled results.

    Attributes
    ----------
    move : Move
    win, draw, loss : float
        Frequencies over the sampled deals (probabilities, summing to 1).
    ci95 : tuple of float
        95% Wilson interval of the win probability.
    expected : float
        Mean result, ``win - loss`` (R20).
    samples : int
        Deals evaluated.
    static_score : float
        The static evaluation of :mod:`analyzer.hints`.
    reasons : tuple of str
        Facts computed from the position and the samples.
    """

    move: Move
    win: float
    draw: float
    loss: float
    ci95: tuple[float, float]
    expected: float
    samples: int
    static_score: float
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Advice:
    """The answer of :func:`advise`.

    Attributes
    ----------
    player : int
        The player to act.
    estimates : list of MoveEstimate
        Best first.
    samples : int
        Deals evaluated.
    seconds : float
    unproven : float
        Fraction of solves that ran out of their node budget.
    seed : int
    planned : int
        Deals planned; more than ``samples`` when the time limit stopped sampling.
    """

    player: int
    estimates: list[MoveEstimate]
    samples: int
    seconds: float
    unproven: float
    seed: int
    planned: int = 0


def _usable(state: GameState, player: int, card: int) -> int:
    """Players offered ``card`` after ``player`` pays it whose layout it fits (R11, R14)."""
    n = state.rules.players
    return sum(
        1 for k in range(1, n) if fits_layout(state.layouts[(player + k) % n], card, state.rules)
    )


def _choose_placement(state: GameState, player: int, used: int, lay_in: bool) -> Move | None:
    """The take (or lay-in) melding ``used`` hand cards, arranged and paid by the CP-SAT models."""
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


def candidate_moves(state: GameState) -> list[Move]:
    """The moves worth evaluating: one take or lay-in per set of hand cards melded, chosen by the
    CP-SAT models, and every other legal move (forces, hand-only melds, pass, gives)."""
    if state.phase not in (Phase.OFFER, Phase.FORCED, Phase.EXCHANGE):
        raise PositionError(f"no move to choose: {state.describe()}")
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


def advise(
    state: GameState,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
    node_budget: int = DEFAULT_NODE_BUDGET,
    open_hands: bool = False,
    extra: list[Move] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Advice:
    """Rank the candidate moves of the player to act by sampled double-dummy results.

    Parameters
    ----------
    state : GameState
        The position; only the hand of the player to act needs to be known.
        Other hands, even if given, are hidden unless ``open_hands``.
    samples : int
        Most deals to sample (at least one is always evaluated).
    seed : int
        Same seed, same deals, same answer (given the same time budget).
    time_limit : float
        Seconds; sampling stops when they are spent.
    node_budget : int
        Positions per solve; past it the search's heuristic scores the rest.
    open_hands : bool
        Use the given hands and stock as they are (double-dummy, one "sample").
    extra : list of Move, optional
        Legal moves to evaluate as well (e.g. the move a user asks about).
    progress : callable, optional
        Called with (deals done, deals planned).

    Returns
    -------
    Advice

    Raises
    ------
    PositionError
        If nobody has a choice here, or the player to act's hand is hidden.
    """
    start = time.perf_counter()
    player = state.to_act
    if state.phase in (Phase.OVER, Phase.TURN):
        raise PositionError(f"no move to choose: {state.describe()}")
    if state.hands[player] is None:
        raise PositionError(
            f"player {player}'s hand is hidden, and this needs the hand of the player to act"
        )
    if open_hands and any(h is None for h in state.hands):
        raise PositionError("--open needs every hand known")
    mine = state if open_hands else view_of(state, player)
    candidates = candidate_moves(mine)
    for move in extra or []:
        if move not in candidates and mine.is_legal(move):
            candidates.append(move)
    # Reasons use only what the player can see (his view), unless the hands are open.
    static = {move: score_move(mine, move) for move in candidates}
    rng = random.Random(seed)
    planned = 1 if open_hands and state.stock is not None else max(1, samples)
    tallies = {m: [0.0, 0.0, 0.0] for m in candidates}  # win, draw, loss
    solves = unproven = done = 0
    for _ in range(planned):
        deal = mine if open_hands and state.stock is not None else sample_deal(mine, player, rng)
        solver = Solver(max_nodes=node_budget, time_limit=max(0.05, time_limit))
        for move in candidates:
            result = solver.solve(deal.apply(move, check=False))
            solves += 1
            unproven += not result.proven
            n = deal.rules.players
            win = result.outcome[player]
            draw = result.outcome[n]
            tally = tallies[move]
            tally[0] += win
            tally[1] += draw
            tally[2] += 1.0 - win - draw
        done += 1
        if progress is not None:
            progress(done, planned)
        if time.perf_counter() - start > time_limit:
            break
    estimates: list[MoveEstimate] = []
    for move in candidates:
        w, d, lo = (x / done for x in tallies[move])
        exact = open_hands and state.stock is not None and unproven == 0
        ci = (w, w) if exact else wilson(round(w * done), done)
        hint = static.get(move)
        estimates.append(
            MoveEstimate(move, w, d, lo, ci, w - lo, done, hint.score if hint else 0.0, ())
        )
    # Best expected result first; a move that goes out at once beats one that wins later.
    estimates.sort(key=lambda e: (-e.expected, not _goes_out(e.move), -e.win, -e.static_score))
    estimates = _with_reasons(mine, player, estimates, static)
    return Advice(
        player,
        estimates,
        done,
        time.perf_counter() - start,
        unproven / solves if solves else 0.0,
        seed,
        planned,
    )


def _goes_out(move: Move) -> bool:
    return isinstance(move, (Take, LayIn)) and move.pay is None


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _with_reasons(
    state: GameState, player: int, estimates: list[MoveEstimate], static: Mapping[Move, Hint]
) -> list[MoveEstimate]:
    labels = state.rules.labels
    out: list[MoveEstimate] = []
    best = estimates[0]
    for rank, est in enumerate(estimates):
        reasons = [
            f"wins {_pct(est.win)} of {est.samples} sampled deals "
            f"(95% interval {_pct(est.ci95[0])}-{_pct(est.ci95[1])}), draws {_pct(est.draw)}"
        ]
        if rank == 0 and len(estimates) > 1:
            second = estimates[1]
            gap = est.expected - second.expected
            reasons.append(
                f"the next best, {second.move.text(labels)}, wins {_pct(second.win)}: "
                f"{gap:+.2f} in expected result"
            )
        elif rank > 0:
            reasons.append(
                f"{best.expected - est.expected:.2f} worse in expected result than the best"
            )
        hint = static.get(est.move)
        if hint is not None:
            reasons.extend(hint.reasons)
        out.append(
            MoveEstimate(
                est.move,
                est.win,
                est.draw,
                est.loss,
                est.ci95,
                est.expected,
                est.samples,
                est.static_score,
                tuple(dict.fromkeys(reasons)),
            )
        )
    return out
