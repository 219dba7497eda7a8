"""Game review: every decision of a game record marked, as chess sites do (lichess).

At every decision of a record, :func:`review_game` evaluates the choices of
the acting player from his own view, with the same evaluation as ``hint``
(:func:`analyzer.analysis.advisor.advise`: deals of the cards he cannot see, each
searched as if every card were known), the move he played always among
them.  The move is then marked by how much *expected result* it gave up
against the best move.

Scale and thresholds (kept here, in the library, like the label enum)
---------------------------------------------------------------------
The expected result is the mean result on the scale of R20, from -1 (a
sure loss) through 0 (a draw) to +1 (a sure win): ``win - loss`` where
``loss`` is the chance that another player wins.  The drop is
``expected(best) - expected(played)``, from 0 to 2, and the label is the
first that applies (:data:`THRESHOLDS`, the lichess values on the same
-1..1 scale):

==============  =========================================
``blunder``     drop >= 0.3
``mistake``     0.2 <= drop < 0.3
``inaccuracy``  0.1 <= drop < 0.2
``good``        0 < drop < 0.1
``best``        drop = 0: the best move, or one as good
==============  =========================================

A sure result at stake makes the label worse, as lichess does for forced
mates (:data:`SURE_THRESHOLDS`): a move that turns the game into a sure loss
(lost on every sampled deal) where the best move did not is a ``blunder``,
unless the best move's expected result was already below -0.86 (then a
``mistake``) or -0.95 (an ``inaccuracy``); likewise a move that misses a
sure win, by its own expected result above 0.86 or 0.95.  Forcing a player
whose hand is empty hands him the game (R14, R15): a blunder.

Accuracy (0-100)
----------------
The accuracy of one decision is lichess's move accuracy with the drop
converted to its win-percentage scale (0..100, i.e. 50 x the drop):
``103.1668 * exp(-0.04354 * 50 * drop) - 3.1669``, clamped to 0..100, so a
best move scores 100, a drop of 0.1 about 80, 0.3 about 51, 1.0 about 9 and
a drop of 2 (a sure win thrown into a sure loss) 0.  A player's accuracy
is the mean over his decisions (``None`` when he had none).

A *decision* is a position where the acting player has at least two
distinct choices (:func:`analyzer.analysis.advisor.candidate_moves`); a forced move
(a single choice, a turn of the stock) is not reviewed.
"""

from __future__ import annotations

import enum
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from analyzer.analysis.advisor import (
    DEFAULT_ENGINE,
    advise,
    candidate_moves,
    engine_for,
)
from analyzer.analysis.engines import DECIDE_CAP, MCTS_SEARCHES
from analyzer.core.dealing import view
from analyzer.core.moves import Move
from analyzer.core.rules import Rules
from analyzer.core.seen import SeenMove, UnseenGive
from analyzer.core.state import GameState, Phase
from analyzer.formats.records import Replay, replay_lines, view_lines

__all__ = [
    "DEFAULT_REVIEW_SAMPLES",
    "DEFAULT_REVIEW_TIME_LIMIT",
    "SCALE",
    "SURE_THRESHOLDS",
    "THRESHOLDS",
    "GameReview",
    "Label",
    "PlayerSummary",
    "ReviewedMove",
    "decisions",
    "label_for",
    "label_move",
    "move_accuracy",
    "review_game",
    "review_record",
    "review_steps",
    "summarize",
]

DEFAULT_REVIEW_SAMPLES: int | None = None
"""Most deals sampled per decision by default: the engine's, as ``hint``
(:attr:`analyzer.analysis.advisor.Engine.samples`)."""
DEFAULT_REVIEW_TIME_LIMIT = math.inf
"""Seconds of sampling per decision by default: none. As ``hint``, each decision samples in seeded
batches until its verdict is settled (or the cap), so the same record and settings give the same
marks on any machine; a ``time_limit`` is a cap only (``bench/review.py``)."""

SCALE = (-1.0, 1.0)
"""The scale of the expected result (R20): a sure loss, a sure win; a draw is 0."""


class Label(enum.StrEnum):
    """The mark of a reviewed move, from the expected result it gave up (:data:`THRESHOLDS`)."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


THRESHOLDS: tuple[tuple[Label, float], ...] = (
    (Label.BLUNDER, 0.3),
    (Label.MISTAKE, 0.2),
    (Label.INACCURACY, 0.1),
)
"""The least drop in expected result (on :data:`SCALE`) of each label, worst first; a smaller
drop above zero is ``good``, none is ``best`` (the lichess thresholds)."""

SURE_THRESHOLDS: tuple[tuple[Label, float], ...] = (
    (Label.BLUNDER, -0.86),
    (Label.MISTAKE, -0.95),
)
"""Labels of a move that turns the game into a sure loss, or misses a sure win, by what there
was to lose: the expected result of the best move (for a sure loss created) or minus that of the
move played (for a sure win missed) is at least this; below the last, ``inaccuracy``.  These
are lichess's labels of a move that allows or misses a forced mate (-700 and -999 centipawns,
i.e. -0.86 and -0.95 on its -1..1 scale of winning chances)."""

_EPSILON = 1e-9


def label_for(drop: float) -> Label:
    """The label of a move that gave up ``drop`` in expected result (:data:`THRESHOLDS`).

    Parameters
    ----------
    drop : float
        ``expected(best) - expected(played)`` on the -1..1 scale of R20, from 0 to 2.

    Returns
    -------
    Label

    Examples
    --------
    >>> [str(label_for(d)) for d in (0.0, 0.05, 0.1, 0.25, 1.5)]
    ['best', 'good', 'inaccuracy', 'mistake', 'blunder']
    """
    for label, least in THRESHOLDS:
        if drop >= least - _EPSILON:
            return label
    return Label.GOOD if drop > _EPSILON else Label.BEST


def _sure_label(margin: float) -> Label:
    for label, least in SURE_THRESHOLDS:
        if margin >= least - _EPSILON:
            return label
    return Label.INACCURACY


def label_move(
    best_expected: float,
    played_expected: float,
    *,
    best_win: float = 0.0,
    played_win: float = 0.0,
    best_loss: float = 0.0,
    played_loss: float = 0.0,
) -> Label:
    """The label of a played move from its results and those of the best move.

    The label is :func:`label_for` of the drop in expected result, made worse
    where a sure result is at stake (:data:`SURE_THRESHOLDS`, lichess's rule
    for forced mates): a move that makes the loss sure (``played_loss`` 1)
    where the best move did not is a blunder unless the best move's expected
    result was already below -0.86; a move that misses a sure win
    (``best_win`` 1) is a blunder unless its own expected result is still
    above 0.86.  Forcing a player with an empty hand, which hands him the
    game (R14, R15), is such a move.

    Parameters
    ----------
    best_expected, played_expected : float
        Expected results (R20, -1..1) of the best and of the played move.
    best_win, played_win : float
        Their win chances (0..1).
    best_loss, played_loss : float
        Their chances that another player wins (0..1).

    Returns
    -------
    Label

    Examples
    --------
    >>> str(label_move(-0.72, -1.0, best_loss=0.85, played_loss=1.0))
    'blunder'
    >>> str(label_move(-0.97, -1.0, best_loss=0.98, played_loss=1.0))
    'inaccuracy'
    >>> str(label_move(1.0, 0.9, best_win=1.0, played_win=0.95))
    'mistake'
    """
    order = list(Label)
    label = label_for(max(0.0, best_expected - played_expected))
    sure: list[Label] = []
    if played_loss >= 1.0 - _EPSILON and best_loss < 1.0 - _EPSILON:
        sure.append(_sure_label(best_expected))
    if best_win >= 1.0 - _EPSILON and played_win < 1.0 - _EPSILON:
        sure.append(_sure_label(-played_expected))
    return max([label, *sure], key=order.index)


def move_accuracy(drop: float) -> float:
    """The accuracy (0-100) of a move that gave up ``drop`` in expected result.

    Lichess's move accuracy, ``103.1668 * exp(-0.04354 * d) - 3.1669``, where
    ``d`` is the drop in win percentage points (0..100 scale): here
    ``d = 50 * drop`` for a drop on the -1..1 scale of R20.  Clamped to 0..100.

    Examples
    --------
    >>> [round(move_accuracy(d)) for d in (0.0, 0.1, 0.3, 1.0, 2.0)]
    [100, 80, 51, 9, 0]
    """
    value = 103.1668 * math.exp(-0.04354 * 50.0 * max(0.0, drop)) - 3.1669
    return min(100.0, max(0.0, value))


@dataclass(frozen=True, slots=True)
class ReviewedMove:
    """One reviewed decision.

    Attributes
    ----------
    ply : int
        The move's number in the record, from 1 (turns of the stock count).
    player : int
        The acting player.
    move : Move
        The move played.
    best : Move
        The best move found (``move`` itself when it was the best).
    win_best, win_played : float
        Win chance (0..1) of the best and of the played move, from the
        player's view over the sampled deals.
    expected_best, expected_played : float
        Expected results (R20, -1..1) of the best and of the played move.
    label : Label
    choices : int
        Distinct choices the player had.
    samples : int
        Deals evaluated.
    """

    ply: int
    player: int
    move: Move
    best: Move
    win_best: float
    win_played: float
    expected_best: float
    expected_played: float
    label: Label
    choices: int
    samples: int

    @property
    def loss(self) -> float:
        """Win chance given up: ``win_best - win_played``, at least 0."""
        return max(0.0, self.win_best - self.win_played)

    @property
    def drop(self) -> float:
        """Expected result given up: ``expected_best - expected_played``, at least 0."""
        return max(0.0, self.expected_best - self.expected_played)

    @property
    def accuracy(self) -> float:
        """:func:`move_accuracy` of the drop."""
        return move_accuracy(self.drop)


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """The review of one player's decisions.

    Attributes
    ----------
    player : int
    accuracy : float or None
        Mean :func:`move_accuracy` of his decisions (0-100), ``None`` without any.
    counts : dict of Label to int
        How many of his decisions got each label.
    decisions : int
    """

    player: int
    accuracy: float | None
    counts: dict[Label, int]
    decisions: int


@dataclass(frozen=True, slots=True)
class GameReview:
    """The answer of :func:`review_game`.

    Attributes
    ----------
    moves : list of ReviewedMove
        The decisions, in the order played.
    summary : list of PlayerSummary
        One per player, by seat.
    samples : int
        Most deals per decision.
    seed : int
    time_limit : float
        Seconds of sampling per decision.
    time_limited : int
        Decisions where the time limit stopped sampling before ``samples``
        deals (their answers depend on machine speed).
    seconds : float
    engine : str
        The version name of the hint engine that evaluated the decisions (``v3``, ``v2``,
        ``v1``, as the JSON's ``engine``; an IS-MCTS engine's ``samples``,
        :attr:`~analyzer.analysis.engines.Engine.one_tree`, counts iterations, each on its own
        sampled deal).
    until_decided : bool
        Each decision sampled until its verdict was settled, ``samples`` being the cap (the
        default), rather than ``samples`` deals.
    view : int or None
        The seat whose view was reviewed (his decisions only), ``None`` for every seat.
    """

    moves: list[ReviewedMove]
    summary: list[PlayerSummary]
    samples: int
    seed: int
    time_limit: float
    time_limited: int = 0
    seconds: float = 0.0
    engine: str = ""
    until_decided: bool = False
    view: int | None = None


def decisions(start: GameState, moves: Sequence[Move]) -> list[int]:
    """The plies (from 1) of ``moves`` played from ``start`` where the acting player had at
    least two distinct choices (:func:`analyzer.analysis.advisor.candidate_moves`).

    Parameters
    ----------
    start : GameState
        Every hand known.
    moves : sequence of Move
        The moves in order, turns of the stock (R10) included.

    Returns
    -------
    list of int
        The plies of the decisions, in order; turns and forced moves are not among them.

    Raises
    ------
    IllegalMoveError
        If a move is illegal where it is played.
    """
    return [ply for ply, _, _ in _decisions(_steps(start, moves), None)]


def _steps(start: GameState, moves: Sequence[Move]) -> list[tuple[GameState, Move]]:
    """Each move with the position it is played in.

    Raises
    ------
    IllegalMoveError
        If a move is illegal where it is played.
    """
    steps: list[tuple[GameState, Move]] = []
    state = start
    for move in moves:
        steps.append((state, move))
        state = state.apply(move)
    return steps


def _decisions(
    steps: Sequence[tuple[GameState, SeenMove]], seat: int | None
) -> list[tuple[int, GameState, Move]]:
    """The decisions among ``steps`` (ply from 1, position, move): positions where the acting
    player (``seat`` only, when given) had at least two distinct choices."""
    found: list[tuple[int, GameState, Move]] = []
    for ply, (state, move) in enumerate(steps, 1):
        if state.phase not in (Phase.OFFER, Phase.FORCED, Phase.EXCHANGE):
            continue
        if seat is not None and state.to_act != seat:
            continue
        if isinstance(move, UnseenGive):
            continue  # another player's pass, unseen: never the viewer's (R9)
        if len(candidate_moves(view(state, state.to_act))) >= 2:
            found.append((ply, state, move))
    return found


def summarize(moves: Sequence[ReviewedMove], players: int) -> list[PlayerSummary]:
    """Per player: mean accuracy and the count of each label (see the module docstring).

    Parameters
    ----------
    moves : sequence of ReviewedMove
    players : int
        Seats in the game.

    Returns
    -------
    list of PlayerSummary
        One per seat: accuracy 0..100 (mean of :func:`move_accuracy`, ``None`` without
        decisions), the count of every :class:`Label` and the number of decisions.
    """
    out: list[PlayerSummary] = []
    for p in range(players):
        mine = [m for m in moves if m.player == p]
        counts = {label: sum(1 for m in mine if m.label is label) for label in Label}
        accuracy = sum(m.accuracy for m in mine) / len(mine) if mine else None
        out.append(PlayerSummary(p, accuracy, counts, len(mine)))
    return out


def _most(search: str) -> int:
    """The most deals (``mcts``: iterations) a decision samples by default: the cap of a hint that
    samples until its verdict is settled."""
    return DECIDE_CAP[search]


def review_game(
    start: GameState,
    moves: Sequence[Move],
    *,
    samples: int | None = DEFAULT_REVIEW_SAMPLES,
    seed: int = 0,
    time_limit: float = DEFAULT_REVIEW_TIME_LIMIT,
    node_budget: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    engine: str = DEFAULT_ENGINE,
) -> GameReview:
    """Review every decision of a game played from ``start``.

    Each decision is evaluated by :func:`analyzer.analysis.advisor.advise` on the
    acting player's view, with the played move passed as ``extra`` so that
    it is always ranked; the move at ply ``k`` is evaluated with seed
    ``seed + k``.

    Parameters
    ----------
    start : GameState
        The position the moves are played from, every hand known.
    moves : sequence of Move
        The moves in order, chance moves (turns, R10) included.
    samples : int, optional
        Deals sampled per decision; when omitted each decision samples in seeded batches until
        its verdict is settled, as ``hint`` does, at most the engine's cap
        (:data:`analyzer.analysis.engines.DECIDE_CAP`).
    seed : int
        Same seed, same review (on any machine, unless ``time_limit`` cuts the sampling).
    time_limit : float
        Most seconds of sampling per decision (none by default).
    node_budget : int, optional
        Positions per sampled deal, as ``hint --budget``; the hint engine's
        default when omitted (as ``hint``).
    progress : callable, optional
        Called with (decisions done, decisions) as the review goes.
    engine : str
        The hint engine (:data:`analyzer.analysis.advisor.ENGINES`), as ``hint --engine``.

    Returns
    -------
    GameReview

    Raises
    ------
    IllegalMoveError
        If a move is illegal where it is played.
    PositionError
        If a hand the review needs is hidden.
    ConquianError
        If the engine is unknown.
    """
    return review_steps(
        _steps(start, moves),
        start.rules,
        samples=samples,
        seed=seed,
        time_limit=time_limit,
        node_budget=node_budget,
        progress=progress,
        engine=engine,
    )


def review_steps(
    steps: Sequence[tuple[GameState, SeenMove]],
    rules: Rules,
    *,
    seat: int | None = None,
    samples: int | None = DEFAULT_REVIEW_SAMPLES,
    seed: int = 0,
    time_limit: float = DEFAULT_REVIEW_TIME_LIMIT,
    node_budget: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    engine: str = DEFAULT_ENGINE,
) -> GameReview:
    """Review the decisions among ``steps`` (each move with the position it was played in); see
    :func:`review_game`, whose loop this is.

    Parameters
    ----------
    steps : sequence of (GameState, Move)
        The moves in order, with the position before each: every hand known, or the views of
        one player (a view record, :attr:`analyzer.formats.records.Replay.states`).
    rules : Rules
        The deal's rules.
    seat : int, optional
        Review only this seat's decisions (a view record: the viewer's, the only hand known).
    samples, seed, time_limit, node_budget, progress, engine
        As :func:`review_game`; the decision at ply ``k`` is evaluated with seed ``seed + k``.

    Returns
    -------
    GameReview
    """
    begin = time.perf_counter()
    found = _decisions(steps, seat)
    total = len(found)
    if progress is not None:
        progress(0, total)
    reviewed: list[ReviewedMove] = []
    limited = 0
    for ply, state, move in found:
        reviewed_move, cut = _review_one(
            state, move, ply, samples, seed, time_limit, node_budget, engine
        )
        limited += cut
        reviewed.append(reviewed_move)
        if progress is not None:
            progress(len(reviewed), total)
    found_engine = engine_for(engine, rules)
    return GameReview(
        reviewed,
        summarize(reviewed, rules.players),
        _most(found_engine.search) if samples is None else samples,
        seed,
        time_limit,
        limited,
        time.perf_counter() - begin,
        found_engine.name,
        samples is None,
        seat,
    )


def _review_one(
    state: GameState,
    move: Move,
    ply: int,
    samples: int | None,
    seed: int,
    time_limit: float,
    node_budget: int | None,
    engine: str,
) -> tuple[ReviewedMove, int]:
    """One decision reviewed (the module docstring), and 1 if the time limit cut it short."""
    advice = advise(
        state,
        samples=samples,
        seed=seed + ply,
        time_limit=time_limit,
        node_budget=node_budget,
        extra=[move],
        engine=engine,
        until_decided=samples is None,
        # Independent IS-MCTS searches for the verdict, as hint; one search when the
        # number of iterations is given (as reviews always were).
        searches=MCTS_SEARCHES if samples is None else 1,
    )
    best = advice.estimates[0]
    played = next(e for e in advice.estimates if e.move == move)
    label = (
        Label.BEST
        if played is best
        else label_move(
            best.expected,
            played.expected,
            best_win=best.win,
            played_win=played.win,
            best_loss=best.loss,
            played_loss=played.loss,
        )
    )
    # A move labelled best is the best shown, with its own figures: v3 ranks by visits,
    # so a played move tried less often may have the higher mean, and 'best' must not
    # name the played move beside the first move's win chance.
    shown = played if label is Label.BEST else best
    reviewed = ReviewedMove(
        ply,
        state.to_act,
        move,
        shown.move,
        shown.win,
        played.win,
        shown.expected,
        played.expected,
        label,
        len(advice.estimates),
        advice.samples,
    )
    return reviewed, advice.time_limited


def review_record(
    replay: Replay,
    *,
    samples: int | None = DEFAULT_REVIEW_SAMPLES,
    seed: int = 0,
    time_limit: float = DEFAULT_REVIEW_TIME_LIMIT,
    node_budget: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    engine: str = DEFAULT_ENGINE,
    view: int | None = None,
) -> GameReview:
    """Review a replayed record (:func:`analyzer.formats.records.replay_lines`); see :func:`review_game`.

    A view record (``replay.view``) is reviewed from its player's view: his decisions only, each
    evaluated on what the record shows up to it.  ``view`` asks the same of a record with every
    card known: it is first turned into that player's view record
    (:func:`analyzer.formats.records.view_lines`), so only what he saw is used; his marks are
    those the whole record's review gives his decisions, which is evaluated from his view too.

    Parameters
    ----------
    replay : Replay
        The record replayed: its start position and its moves.
    samples, seed, time_limit, node_budget, progress, engine
        As :func:`review_game`.
    view : int, optional
        Review from this seat's view only.

    Returns
    -------
    GameReview

    Raises
    ------
    RecordError
        If ``view`` is no seat, or ``replay`` is another player's view.
    PositionError
        If a hand the review needs is hidden.
    """
    if view is not None and replay.view != view:
        replay = replay_lines(view_lines(replay, view))
    return review_steps(
        list(zip(replay.states, replay.moves, strict=True)),
        replay.start.rules,
        seat=replay.view,
        samples=samples,
        seed=seed,
        time_limit=time_limit,
        node_budget=node_budget,
        progress=progress,
        engine=engine,
    )
