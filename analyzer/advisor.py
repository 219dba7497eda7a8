"""Move hints from a player's own view: sampled deals searched by the explorer (PIMC).

For the player to act, :func:`advise`

1. lists the candidate moves with the one engine (:meth:`GameState.legal_moves`):
   every legal choice, where takes and lay-ins that leave the same cards in
   hand, the same cards melded and pay the same card are one choice, shown
   with the arrangement that exposes the fewest unseen cards to forcing
   (R14), the first in engine order on a tie (:func:`candidate_moves`);
2. draws deals of the hidden cards consistent with his view: ``v2`` among
   those where no other player holds two cards that meld with a card he
   declined (he would have taken it), ``v1`` uniformly
   (:mod:`analyzer.sampling`);
3. searches every candidate on each sampled deal as if every card were
   known, with the engine's search:

   * ``v2`` (default): :class:`analyzer.lookahead.Lookahead`, iterative
     deepening in offers with the fitted leaf evaluation of
     :mod:`analyzer.evaluation`, alpha-beta for two players and max-n for
     three, the move ordering shared across the deals of one hint;
   * ``v1`` (the first hint engine, kept to measure against): one take per
     set of hand cards melded, arranged and paid by the CP-SAT models of
     :mod:`analyzer.choice`, each solved to the end of the deal by
     :class:`analyzer.search.Solver` within a node budget, past which the
     melded-card lead scores what is left;
4. reports, per move, the win / draw / loss frequencies over the deals
   with a 95% interval for the win probability (Wilson score interval),
   ranked by expected result (R20: win +1, draw 0, loss -1).

This is perfect-information Monte Carlo: each sampled deal is searched as
if every card were visible, which overrates moves that need to know the
hidden cards; it is the standard baseline for hidden-information card games.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from analyzer.cards import counted, iter_mask
from analyzer.choice import best_pay, least_exposed_arrangement
from analyzer.errors import ConquianError, PositionError
from analyzer.evaluation import fitted_evaluator, melded_lead
from analyzer.hints import Hint, check_chooser, outs, score_move, usefulness
from analyzer.lookahead import Lookahead
from analyzer.mcts import search as mcts_search
from analyzer.melds import cards_of, catalog, layoff_mask
from analyzer.moves import LayIn, Move, Take
from analyzer.playout import RolloutLeaf
from analyzer.position import view as view_of
from analyzer.reading import read_cards, read_weights
from analyzer.rules import Rules
from analyzer.sampling import sample_deal, unseen_cards
from analyzer.search import Outcome, Solver
from analyzer.state import GameState, Phase, fits_layout
from analyzer.stats import wilson

__all__ = [
    "DEFAULT_ENGINE",
    "DEFAULT_NODE_BUDGET",
    "DEFAULT_SAMPLES",
    "DEFAULT_TIME_LIMIT",
    "ENGINES",
    "ENGINE_NAMES",
    "Advice",
    "Engine",
    "MoveEstimate",
    "advise",
    "candidate_moves",
    "check_open",
    "choices",
    "engine_for",
    "same_choice",
    "searching_engine",
]

DEFAULT_SAMPLES = 48
"""Most deals sampled by default."""
DEFAULT_TIME_LIMIT = 2.0
"""Seconds of sampling by default (a mid-game position is answered in about this)."""
DEFAULT_NODE_BUDGET = 4_000
"""Positions per double-dummy solve of the ``v1`` engine by default."""

OPEN_NODE_BUDGET = 100_000
"""Positions of ``v2``'s lookahead on the one deal of ``open_hands`` with the stock order given
(instead of the budget per sampled deal), when no budget is asked for."""


@dataclass(frozen=True, slots=True)
class Engine:
    """A named hint engine: which candidates are weighed and how each sampled deal is searched.

    Attributes
    ----------
    name : str
    candidates : str
        ``"all"`` (every distinct choice, :func:`candidate_moves`) or ``"v1"``
        (one take per set of hand cards, arranged and paid by CP-SAT).
    search : str
        ``"lookahead"`` (:class:`analyzer.lookahead.Lookahead`), ``"exact"``
        (:class:`analyzer.search.Solver` to the end of the deal) or ``"mcts"``
        (:func:`analyzer.mcts.search`: one IS-MCTS tree over every sampled
        deal, the stock drawn at random, never seen in advance).
    leaf : str
        ``"fitted"`` (:func:`analyzer.evaluation.fitted_evaluator`, the
        melded-card lead where no model was fitted), ``"melded"`` or
        ``"rollout"`` (:class:`analyzer.playout.RolloutLeaf`: eager playouts
        to the end of the sampled deal).
    mode : str
        Three players: ``"auto"`` (max-n), ``"maxn"`` or ``"paranoid"``.
    node_budget : int
        Positions per sampled deal (``lookahead``, all candidates together)
        or per solve of one candidate (``exact``).
    max_depth : int
        Deepest lookahead iteration, in offers.
    stock : str
        ``"known"``: each sampled deal orders the stock and the search follows
        that order (it sees the cards to come, as double-dummy does);
        ``"chance"``: the search averages over every card a turn may bring
        (expectimax), seeing only the hands of the sampled deal.
    playouts : int
        Playouts per leaf with ``leaf="rollout"``.
    infer : bool
        Sample only deals consistent with the other players' declines
        (:func:`analyzer.sampling.sample_deal` with ``infer=True``).
    spread : int
        ``lookahead`` with a known stock: the first ``spread`` stock cards are
        searched as a chance node (:class:`analyzer.lookahead.Lookahead`).
    samples : int
        Deals sampled by default (``mcts``: iterations, each on its own sampled deal).
    bot_samples : int
        Deals sampled per decision by the ``hint`` bot of this engine.
    c : float
        ``mcts``: UCB1 exploration constant (:func:`analyzer.mcts.search`).
    method : str
        ``mcts``: ``"uct"`` (one IS-MCTS tree) or ``"halving"`` (sequential
        halving over the root moves on common deals; :func:`analyzer.mcts.search`).
    opponents : str
        How the other players choose inside the search: ``"search"`` (``mcts``:
        UCB1, each maximising his own result; ``lookahead``: alpha-beta or
        max-n) or ``"policy"`` (the ``eager`` playout policy's move, an
        opponent model; :data:`analyzer.playout.OPPONENTS`).
    playout : str
        ``mcts``: how the player's own seat is played in the playouts:
        ``"eager"`` or ``"nomeld"`` (never laying a meld from the hand alone,
        R16; :data:`analyzer.playout.PLAYOUTS`).
    read : bool
        Read the hidden hands from the cards their players were seen to give up
        (the position's history ``GameState.paid``, a paid centre card, the card
        passed to the reader): hidden hands are drawn with the fitted card
        weights of :mod:`analyzer.reading`; else uniformly.
    """

    name: str
    candidates: str
    search: str
    leaf: str
    mode: str = "auto"
    node_budget: int = 2_000
    max_depth: int = 40
    stock: str = "known"
    infer: bool = True
    playouts: int = 1
    spread: int = 1
    samples: int = DEFAULT_SAMPLES
    bot_samples: int = 8
    c: float = 0.7
    method: str = "uct"
    opponents: str = "search"
    read: bool = False
    playout: str = "eager"


ENGINES: dict[str, Engine] = {
    "v3": Engine("v3", "all", "mcts", "rollout", samples=2_000, bot_samples=1_000, infer=False),
    "v2": Engine("v2", "all", "lookahead", "fitted"),
    "v1": Engine("v1", "v1", "exact", "melded", node_budget=DEFAULT_NODE_BUDGET, infer=False),
}
"""The hint engines by name; ``v1`` is the first one, kept to measure the others against."""

AUTO = "auto"
"""The default engine name: ``v3`` (IS-MCTS) for three or more players, ``v2`` for two.

Chosen by measured strength (``bench/strength.py``, docs/hint.md): in
``megajogos`` the IS-MCTS search wins far more deals against greedy than the
``v2`` lookahead at about the same time per deal; in ``classic`` the two are level on the same
deals and ``v2`` is the faster."""

ENGINE_NAMES: tuple[str, ...] = (AUTO, *ENGINES)
"""Every name ``--engine`` takes."""


def engine_for(engine: str | Engine, rules: Rules) -> Engine:
    """The engine named ``engine`` (:data:`ENGINE_NAMES`) for a deal of ``rules``.

    ``"auto"`` is ``v3`` with three or more players, else ``v2`` (:data:`AUTO`).

    Raises
    ------
    ConquianError
        If the name is unknown.
    """
    if isinstance(engine, Engine):
        return engine
    if engine == AUTO:
        return ENGINES["v3" if rules.players >= 3 else "v2"]
    if engine not in ENGINES:
        raise ConquianError(f"unknown hint engine: {engine!r} (known: {', '.join(ENGINE_NAMES)})")
    return ENGINES[engine]


def searching_engine(engine: str | Engine, state: GameState, *, open_hands: bool = False) -> Engine:
    """The engine that answers :func:`advise` on ``state``: :func:`engine_for` its rules,
    except that an ``mcts`` engine hands a deal with every card and the stock order known
    (``open_hands``) to ``v2``'s exact lookahead, which then equals the exact search.

    Raises
    ------
    ConquianError
        If the name is unknown.
    """
    found = engine_for(engine, state.rules)
    if found.search == "mcts" and open_hands and state.stock is not None:
        return ENGINES["v2"]
    return found


DEFAULT_ENGINE = "auto"


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
        Fraction of the searches (one per deal, or per deal and move for
        ``v1``) whose values are estimates, not exact results: ``v1``, the
        solves that ran out of their node budget; ``v2``, the deals where the
        lookahead stopped before the end of the deal and used its leaf evaluation;
        ``v3``, the IS-MCTS iterations that left the tree before the end of the
        deal and were scored by a playout (or the fitted leaf).
    seed : int
    planned : int
        Deals planned; more than ``samples`` when the time limit stopped sampling.
    engine : str
        Name of the engine (:data:`ENGINES`).
    depth : float
        ``v2``: median depth in offers of the lookahead over the deals
        (-1: the budget allowed only the evaluation of each move's position);
        ``v1``: 0; ``v3``: median number of moves chosen in the tree per iteration.
    shallow : float
        ``v2``: fraction of deals where the budget cut the lookahead before
        it had looked one full offer beyond the move (depth below 1) and the
        search did not reach the end of the deal; ``v1``: equal to ``unproven``.
        ``v3``: 0.
    interrupted : bool
        True when ``stop`` ended the sampling early (Ctrl-C): the answer is
        the best found so far.
    clock_cut : bool
        ``v2``: a search within a deal was stopped by the time limit, not by its budget.
    reading : dict of int to tuple of int
        The cards given up (passed in the exchange, paid) that the hidden hands
        were read from, per player (:func:`analyzer.reading.read_cards`); empty
        when the engine does not read (``Engine.read``) or nobody gave up a card seen.
    """

    player: int
    estimates: list[MoveEstimate]
    samples: int
    seconds: float
    unproven: float
    seed: int
    planned: int = 0
    engine: str = DEFAULT_ENGINE
    depth: float = 0.0
    shallow: float = 0.0
    interrupted: bool = False
    clock_cut: bool = False
    reading: dict[int, tuple[int, ...]] = field(default_factory=dict)

    @property
    def time_limited(self) -> bool:
        """True when the clock, not the budgets, shaped the answer: sampling stopped before the
        planned deals, or a search within a deal was cut by the time limit (the answer then
        depends on machine speed)."""
        return not self.interrupted and (self.samples < self.planned or self.clock_cut)


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


def _v1_candidates(state: GameState) -> list[Move]:
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


def choices(state: GameState) -> list[list[Move]]:
    """The legal moves of the player to act grouped into choices, in engine order.

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
    for move in state.legal_moves():
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


def _evaluator(engine: Engine, state: GameState, seed: int) -> Callable[[GameState], Outcome]:
    if engine.leaf == "rollout":
        return RolloutLeaf(engine.playouts, seed)
    if engine.leaf == "fitted":
        fitted = fitted_evaluator(state.rules.name)
        if fitted is not None and fitted.players == state.rules.players:
            return fitted
    return melded_lead


def _check_budgets(samples: object, time_limit: object, node_budget: object) -> None:
    """Refuse budgets that no search can use (the command line refuses them as usage errors)."""
    for name, value in (("samples", samples), ("node_budget", node_budget)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ConquianError(f"{name} must be a whole number of at least 1, got {value!r}")
    if (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, (int, float))
        or math.isnan(time_limit)
        or time_limit <= 0
    ):
        raise ConquianError(
            f"time_limit must be a number of seconds above 0 (inf for none), got {time_limit!r}"
        )


def check_open(state: GameState) -> None:
    """Refuse ``--open`` (every hand used as given, double-dummy) on a position that hides a hand.

    Used by :func:`advise` with ``open_hands`` and by ``hint --static --open``, so that both
    say the same.  A hidden hand to act is refused first, as such (:func:`check_chooser`).

    Raises
    ------
    PositionError
        If the hand of the player to act is hidden; else if another hand of ``state`` is
        hidden, named as the option ``open``.
    """
    check_chooser(state)
    hidden = [p for p, hand in enumerate(state.hands) if hand is None]
    if hidden:
        whose = " and ".join(f"player {p}'s" for p in hidden)
        problem = f"needs every hand known (double-dummy), and this position hides {whose} hand"
        raise PositionError(f"--open {problem}").naming("open", f"'open' {problem}")


def advise(
    state: GameState,
    *,
    samples: int | None = None,
    seed: int = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
    node_budget: int | None = None,
    open_hands: bool = False,
    extra: list[Move] | None = None,
    progress: Callable[[int, int], None] | None = None,
    engine: str | Engine = DEFAULT_ENGINE,
    stop: Callable[[], bool] | None = None,
) -> Advice:
    """Rank the candidate moves of the player to act by sampled double-dummy results.

    Parameters
    ----------
    state : GameState
        The position; only the hand of the player to act needs to be known.
        Other hands, even if given, are hidden unless ``open_hands``.
    samples : int, optional
        Most deals to sample (at least one is always evaluated); the engine's
        default when omitted (``v2`` 48; ``v3`` 2,000 IS-MCTS iterations, each
        on its own sampled deal).
    seed : int
        Same seed, same deals, same answer (given the same time budget).
    time_limit : float
        Seconds; sampling stops when they are spent (at least one deal is evaluated).
    node_budget : int, optional
        Positions per sampled deal (``v2``) or per solve (``v1``); the engine's
        default when omitted.
    open_hands : bool
        Use the given hands and stock as they are (double-dummy, one "sample").
    extra : list of Move, optional
        Legal moves to evaluate as well (e.g. the move a user asks about); a
        move that is one choice with a candidate (:func:`same_choice`) is
        evaluated as itself in place of that candidate.
    progress : callable, optional
        Called with (deals done, deals planned).
    engine : str or Engine
        The hint engine (:data:`ENGINE_NAMES`), ``"auto"`` by default: ``v3``
        for three players, ``v2`` for two (:data:`AUTO`).
    stop : callable, optional
        Polled between and during the searches; when it returns True the
        answer is built from the deals finished so far (at least one), and
        ``Advice.interrupted`` says so.

    Returns
    -------
    Advice

    Raises
    ------
    PositionError
        If nobody has a choice here, or the player to act's hand is hidden.
    ConquianError
        If the engine is unknown, or ``samples`` or ``node_budget`` is not a
        whole number of at least 1, or ``time_limit`` is not a number above 0
        (an infinity is no limit).
    """
    start = time.perf_counter()
    _check_budgets(samples, time_limit, node_budget)
    engine = searching_engine(engine, state, open_hands=open_hands)
    budget = engine.node_budget if node_budget is None else node_budget
    if (
        node_budget is None
        and engine.search == "lookahead"
        and open_hands
        and state.stock is not None
    ):
        # One deal, every card known: the whole budget of the sampled deals goes to it, so that
        # a cheap position is solved to the end (the time limit still stops the search).
        budget = OPEN_NODE_BUDGET
    samples = engine.samples if samples is None else samples
    player = state.to_act
    if state.phase in (Phase.OVER, Phase.TURN):
        raise PositionError(f"no move to choose: {state.describe()}")
    check_chooser(state)
    if open_hands:
        check_open(state)
    mine = state if open_hands else view_of(state, player)
    weights = read_weights(mine, player) if engine.read and not open_hands else None
    reading = read_cards(mine, player) if weights else {}
    v1 = engine.candidates == "v1"
    groups = [[m] for m in _v1_candidates(mine)] if v1 else choices(mine)
    asked: set[Move] = set()
    for move in extra or []:
        if not mine.is_legal(move):
            continue
        asked.add(move)
        home = next((g for g in groups if same_choice(mine, g[0], move)), None)
        if home is None:
            groups.append([move])
        elif move not in home:
            home.append(move)
    candidates = [m for g in groups for m in g]
    rng = random.Random(seed)
    exact_deal = open_hands and state.stock is not None
    if engine.search == "mcts":
        return _advise_mcts(
            mine, groups, asked, engine, samples, seed, time_limit, progress, stop, start, weights,
            reading,
        )
    planned = 1 if exact_deal else max(1, samples)
    n = state.rules.players
    tallies = {m: [0.0, 0.0, 0.0] for m in candidates}  # win, draw, loss
    searches = unproven = shallow = done = clock_cut = 0
    depths: list[int] = []

    def stopping() -> bool:
        # The searches of a deal may be cut only once one deal is whole.
        return done > 0 and stop is not None and stop()

    lookahead = (
        Lookahead(
            _evaluator(engine, state, seed),
            mode=engine.mode,
            max_nodes=budget,
            time_limit=max(0.05, time_limit),
            max_depth=engine.max_depth,
            spread=engine.spread,
            opponents=engine.opponents,
            stop=stopping if stop is not None else None,
        )
        if engine.search == "lookahead"
        else None
    )

    def tally(move: Move, outcome: Outcome) -> None:
        win, draw = outcome[player], outcome[n]
        t = tallies[move]
        t[0] += win
        t[1] += draw
        t[2] += 1.0 - win - draw

    interrupted = False
    for _ in range(planned):
        if stopping():
            interrupted = True
            break
        deal = (
            mine
            if exact_deal
            else sample_deal(mine, player, rng, infer=engine.infer, weights=weights)
        )
        if engine.stock == "chance" and not exact_deal:
            deal = deal.evolve(stock=None)
        if lookahead is not None:
            found = lookahead.values(deal, candidates)
            searches += 1
            unproven += not found.exact
            shallow += not found.exact and found.depth < 1
            clock_cut += found.stopped_by == "time"
            depths.append(found.depth)
            for move, outcome in zip(candidates, found.outcomes, strict=True):
                tally(move, outcome)
        else:
            solver = Solver(
                max_nodes=budget,
                time_limit=max(0.05, time_limit),
                leaf=melded_lead,
                stop=stopping if stop is not None else None,
            )
            for move in candidates:
                result = solver.solve(deal.apply(move, check=False))
                searches += 1
                unproven += not result.proven
                shallow += not result.proven
                tally(move, result.outcome)
        done += 1
        if progress is not None:
            progress(done, planned)
        if time.perf_counter() - start > time_limit:
            break
    if stop is not None and stop():
        interrupted = True
    estimates: list[MoveEstimate] = []
    static: dict[Move, Hint] = {}
    exact = exact_deal and unproven == 0
    for group in groups:
        # One row per choice: the arrangement asked about, else the one with the best
        # expected result (fewest cards exposed to forcing on a tie: the group's order).
        def expected(move: Move) -> float:
            w, _, lo = tallies[move]
            return (w - lo) / done

        shown = [m for m in group if m in asked] or group
        move = max(shown, key=lambda m: (expected(m), -group.index(m)))
        w, d, lo = (x / done for x in tallies[move])
        ci = (w, w) if exact else wilson(w * done, done)  # fractional: per-deal win chances
        # Reasons use only what the player can see (his view), unless the hands are open.
        static[move] = score_move(mine, move)
        estimates.append(MoveEstimate(move, w, d, lo, ci, w - lo, done, static[move].score, ()))
    # Best expected result first; a move that goes out at once beats one that wins later.
    estimates.sort(key=lambda e: (-e.expected, not _goes_out(e.move), -e.win, -e.static_score))
    estimates = _with_reasons(mine, player, estimates, static)
    depths.sort()
    return Advice(
        player,
        estimates,
        done,
        time.perf_counter() - start,
        unproven / searches if searches else 0.0,
        seed,
        planned,
        engine.name,
        float(depths[len(depths) // 2]) if depths else 0.0,
        shallow / searches if searches else 0.0,
        interrupted,
        clock_cut > 0,
        reading,
    )


def _advise_mcts(
    mine: GameState,
    groups: list[list[Move]],
    asked: set[Move],
    engine: Engine,
    samples: int,
    seed: int,
    time_limit: float,
    progress: Callable[[int, int], None] | None,
    stop: Callable[[], bool] | None,
    start: float,
    weights: Mapping[int, Sequence[float]] | None = None,
    reading: dict[int, tuple[int, ...]] | None = None,
) -> Advice:
    """``advise`` with the ``mcts`` search: one IS-MCTS tree over one move per choice.

    Each choice is searched with the arrangement asked about, else the one
    exposing the fewest cards to forcing (:func:`choices`).  Per move: the
    mean win and draw results of the iterations that tried it, with a 95%
    Wilson interval over its visits; moves are ranked by visits (the move the
    search settled on first), a move that goes out first of all.
    """
    player = mine.to_act
    roots = [([m for m in g if m in asked] or g)[0] for g in groups]
    found = mcts_search(
        mine,
        max(1, samples),
        seed=seed,
        c=engine.c,
        leaf=engine.leaf,
        infer=engine.infer,
        method=engine.method,
        opponents=engine.opponents,
        playout=engine.playout,
        root_moves=roots,
        time_limit=max(0.05, time_limit),
        stop=stop,
        progress=progress,
        weights=weights,
    )
    estimates: list[MoveEstimate] = []
    static: dict[Move, Hint] = {}
    for st in found.moves:
        # A move the search never tried has no estimate: win, draw and loss 0, interval 0-100%.
        win, draw = st.win, st.draw
        loss = max(0.0, 1.0 - win - draw) if st.visits else 0.0
        ci = wilson(win * st.visits, st.visits) if st.visits else (0.0, 1.0)
        static[st.move] = score_move(mine, st.move)
        estimates.append(
            MoveEstimate(
                st.move, win, draw, loss, ci, win - loss, st.visits, static[st.move].score, ()
            )
        )
    visits = {st.move: st.visits for st in found.moves}
    estimates.sort(key=lambda e: (not _goes_out(e.move), -visits[e.move], -e.expected))
    estimates = _with_reasons(mine, player, estimates, static)
    return Advice(
        player,
        estimates,
        found.iterations,
        time.perf_counter() - start,
        1.0 - found.ended,
        seed,
        max(1, samples),
        engine.name,
        found.depth,
        0.0,
        found.interrupted,
        False,
        reading or {},
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
    tried = [e for e in estimates if e.samples > 0]
    for rank, est in enumerate(estimates):
        if est.samples == 0:
            # v3 with few iterations: the search never tried this move; nothing is claimed.
            reasons = ["not evaluated: the search never tried it (raise --samples)"]
        else:
            reasons = [
                f"wins {_pct(est.win)} of {counted(est.samples, 'sampled deal')} "
                f"(95% interval {_pct(est.ci95[0])}-{_pct(est.ci95[1])}), draws {_pct(est.draw)}"
            ]
        if est.samples == 0:
            pass
        elif rank == 0 and len(tried) > 1:
            second = tried[1]
            gap = est.expected - second.expected
            # v3 ranks by visits: the second may have the better mean (a fresh-user report:
            # "the next best ... -0.16 in expected result" read as if it were worse).
            reasons.append(
                f"the next best, {second.move.text(labels)}, wins {_pct(second.win)}: "
                f"{gap:+.2f} in expected result"
                if gap >= 0
                else f"the second, {second.move.text(labels)}, wins {_pct(second.win)} with "
                f"{-gap:.2f} more in expected result, over fewer iterations (the search chose "
                "this move more often)"
            )
        elif rank > 0:
            gap = best.expected - est.expected
            # v3 ranks by visits: a move below the first may have the better mean, over fewer
            # iterations (fourth fresh-user round: it was called "-0.08 worse").
            reasons.append(
                f"{gap:.2f} worse in expected result than the best"
                if gap >= 0
                else f"{-gap:.2f} better in expected result than the first, over fewer "
                "iterations (the search chose the first more often)"
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
