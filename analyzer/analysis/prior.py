"""The learned move prior: how likely the hint's search is to choose each move, from the player's view.

A conditional-logit (softmax) model over the *choices* of the player to act
(:func:`analyzer.analysis.candidates.choices`: takes and lay-ins that meld the same cards and pay
the same card are one choice, R13)::

    P(choice) = exp(b . f(choice)) / sum over the choices c' of exp(b . f(c'))

fitted on the hint bot's own choices in its self-play records (``bench/fit_prior.py``, which
writes ``analyzer/data/prior.json``).  The features :data:`FEATURES` see only the player's view:
his hand, the layouts, the dead cards, the centre card and the public history (the cards each
player gave up or declined).  A choice's *released card* is the card it puts in the centre: the
card paid by a take or lay-in (R13, R14), the centre card passed on (R12) or the card given in the
exchange (R9); a force or a hand-only meld releases none.

=====================  ===========================================================================
``take``, ``lay``,     the kind of move (a pass is the reference, 0 in each)
``force``, ``meld``,
``give``
``melded``             cards the move adds to the player's layout
``outs``               his outs after the move (cards that would let him go out, R15)
``exposed``            unseen cards that fit his layout after the move (he may be forced, R14)
``links``              pairs of his hand cards after the move that are near each other (same rank,
                       or same suit one rank apart)
``gaps``               pairs a gap apart (same suit, two ranks)
``use``                the released card's use to his hand (greedy's :func:`~analyzer.core.melds.usefulness`)
``danger``             three-card melds with the released card whose two other cards are unseen
                       (someone could meld it)
``fits``               the other players whose layout the released card fits (R14)
``fits_own``           the released card fits his own layout after the move
``near_given``         cards the others gave up that the released card is near (they keep none)
``near_declined``      cards the others declined that it is near (R11, R17)
``stock``              the take indicator times the stock's share of the unseen cards
=====================  ===========================================================================

Inference is plain Python (no training library).  Where no weights are fitted for the rules
the prior is off: :func:`prior_for` is ``None`` and the ``hint:prior=learned`` bot
option is refused (:class:`analyzer.bots.searchbots.HintBot`).

:func:`pick` is how the bot uses it: among the moves the search leaves *not separated* from its
best (the verdict's ``close`` moves, :mod:`analyzer.analysis.verdict`), the one of largest mean
result plus :data:`WEIGHT` times its log prior.  At the bot's budget (8 to 32 sampled deals) the verdict
separates almost no move, so the weight, not the verdict, keeps the search in charge: the prior
alone (an infinite weight) agrees with the search on half the decisions and plays worse
(``bench/prior_pick.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from analyzer.analysis.candidates import choices, same_choice
from analyzer.analysis.estimates import Advice
from analyzer.analysis.static import outs
from analyzer.core.cards import iter_mask
from analyzer.core.errors import ConquianError
from analyzer.core.legal import fitting_cards
from analyzer.core.melds import cards_of, catalog, layoff_mask, usefulness
from analyzer.core.moves import Force, Give, LayIn, Meld, Move, Pass, Take
from analyzer.core.rules import Rules
from analyzer.core.state import GameState
from analyzer.search.fitted import fitted_coefficients
from analyzer.search.inference import NEAR1, NEAR2, read_cards
from analyzer.search.sampling import declined_cards, unseen_cards

__all__ = [
    "FEATURES",
    "PRIORS",
    "WEIGHT",
    "choice_features",
    "choice_prior",
    "choice_probabilities",
    "leaning",
    "move_prior",
    "pick",
    "pick_visited",
    "prior_coefficients",
    "prior_for",
    "weighs_prior",
]

PRIORS = ("auto", "none", "learned")
"""The values of the ``hint:prior`` bot option: ``auto`` (the default: this model where one is
fitted for the rules and the bot's engine is ``pimc``, else none), no prior (the search's first),
or this model."""

FEATURES = (
    "take",
    "lay",
    "force",
    "meld",
    "give",
    "melded",
    "outs",
    "exposed",
    "links",
    "gaps",
    "use",
    "danger",
    "fits",
    "fits_own",
    "near_given",
    "near_declined",
    "stock",
)
"""Names of the move features, in order (module docstring)."""

WEIGHT = 0.05
"""How much the bot's choice weighs the prior (:func:`pick`): the mean result (R20, -1..1) plus
``WEIGHT`` times the log prior, so that halving a move's odds costs it 0.035 of mean result.
Chosen offline by ``bench/prior_pick.py`` (``0.02`` and ``0.05`` were level with the search's own
choice against a 16 times larger search; the prior alone gave up 0.03 more)."""

_KINDS = {Take: 0, LayIn: 1, Force: 2, Meld: 3, Give: 4}


def _pairs(hand: int, table: tuple[int, ...]) -> int:
    """Pairs of cards of ``hand`` related by ``table`` (:data:`~analyzer.search.inference.NEAR1` or ``NEAR2``)."""
    return sum((table[c] & hand).bit_count() for c in iter_mask(hand)) // 2


class _Context:
    """What every choice of one view shares: the player, his hand, the unseen cards, the cards
    the others gave up and declined, the three-card melds of the variant."""

    def __init__(self, view: GameState) -> None:
        self.view = view
        self.player = p = view.to_act
        self.hand = view.hand(p)
        self.unseen = unseen_cards(view, p)
        if view.centre is not None:
            self.unseen &= ~(1 << view.centre.card)
        given = read_cards(view, p)
        self.given = [c for q, cards in given.items() for c in cards]
        self.declined = [
            c for q in range(view.rules.players) if q != p for c in declined_cards(view, q)
        ]
        self.melds = catalog(view.rules)
        self.melds3 = tuple(m for m in self.melds if m.bit_count() == 3)
        share = view.stock_count / max(self.unseen.bit_count(), 1)
        self.share = min(share, 1.0)

    def features(self, move: Move) -> tuple[float, ...]:
        """The :data:`FEATURES` of one legal ``move`` of the player to act (module docstring)."""
        view, p, rules = self.view, self.player, self.view.rules
        kind = [0.0] * 5
        k = _KINDS.get(type(move))
        if k is not None:
            kind[k] = 1.0
        after = view.apply(move)
        hand = self.hand
        released: int | None = None
        if isinstance(move, (Take, LayIn)):
            hand = after.hand(p)
            released = move.pay
        elif isinstance(move, Give):
            hand = hand & ~(1 << move.card)
            after = after.with_hand(p, hand)  # the exchange happens when all have chosen (R9)
            released = move.card
        elif isinstance(move, Pass) and view.centre is not None:
            released = view.centre.card
        elif isinstance(move, Meld):
            hand = after.hand(p)
        layout = after.layouts[p]
        melded = after.melded(p) - view.melded(p)
        found = outs(after, p) or ()
        if after.centre is not None and not isinstance(move, Meld):
            found = tuple(c for c in found if c != after.centre.card)
        exposed = (layoff_mask(layout, rules) & self.unseen & ~cards_of(layout)).bit_count()
        row = [
            *kind,
            float(melded),
            float(len(found)),
            float(exposed),
            float(_pairs(hand, NEAR1)),
            float(_pairs(hand, NEAR2)),
        ]
        if released is None:
            row += [0.0] * 6
        else:
            bit = 1 << released
            danger = sum(1 for m in self.melds3 if m & bit and (m & ~bit) & ~self.unseen == 0)
            fits = sum(
                1
                for q, other in enumerate(after.layouts)
                if q != p and fitting_cards(other, rules) >> released & 1
            )
            row += [
                float(usefulness(released, hand & ~bit, self.unseen, self.melds)),
                float(danger),
                float(fits),
                float(fitting_cards(layout, rules) >> released & 1),
                float(sum(1 for x in self.given if NEAR1[x] >> released & 1)),
                float(sum(1 for x in self.declined if NEAR1[x] >> released & 1)),
            ]
        row.append(kind[0] * self.share)
        return tuple(row)


def choice_features(view: GameState, moves: Sequence[Move] | None = None) -> list[tuple[list[Move], tuple[float, ...]]]:
    """The choices of the player to act on his ``view`` (:func:`choices`, each with its
    arrangements fewest-exposed first) and the :data:`FEATURES` of each (of its first
    arrangement: the arrangements of one choice differ only in what may be forced on him).

    Raises
    ------
    PositionError
        If nobody chooses here, or the chooser's hand is hidden.
    """
    context = _Context(view)
    return [(group, context.features(group[0])) for group in choices(view, moves)]


@lru_cache(maxsize=8)
def prior_coefficients(variant: str) -> tuple[float, ...] | None:
    """The fitted coefficients of :data:`FEATURES` for ``variant``, or ``None`` when
    ``analyzer/data/prior.json`` has none for it (the prior is off there).

    Raises
    ------
    ValueError
        If the file was fitted on other features (refit it with ``bench/fit_prior.py``).
    """
    return fitted_coefficients("prior.json", variant, FEATURES, "bench/fit_prior.py")


def prior_for(rules: Rules) -> tuple[float, ...] | None:
    """The prior's coefficients fitted for exactly these rules: a preset at its own player count
    with no option changed (the labels aside); ``None`` otherwise (a prior fitted on other rules
    would misjudge their moves), or where none is fitted for the preset."""
    return prior_coefficients(rules.name) if rules.exact_preset else None


def softmax(scores: Sequence[float]) -> list[float]:
    """Probabilities proportional to ``exp(score)``, summing to 1 (shifted by the largest score)."""
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def choice_prior(
    view: GameState, coefficients: Sequence[float] | None = None, moves: Sequence[Move] | None = None
) -> list[tuple[list[Move], float]]:
    """The prior probability of each choice of the player to act on his ``view`` (summing to 1),
    with ``coefficients`` (default: the variant's fitted ones).

    Raises
    ------
    ValueError
        If no prior is fitted for these rules (:func:`prior_for`) and none is given.
    PositionError
        If nobody chooses here, or the chooser's hand is hidden.
    """
    b = prior_for(view.rules) if coefficients is None else tuple(coefficients)
    if b is None:
        raise ValueError(f"no move prior is fitted for {view.rules.name} with these rules")
    rows = choice_features(view, moves)
    probs = softmax([sum(w * x for w, x in zip(b, f, strict=True)) for _, f in rows])
    return [(group, q) for (group, _), q in zip(rows, probs, strict=True)]


def choice_probabilities(view: GameState, moves: Sequence[Move]) -> list[float]:
    """The prior probability of each of ``moves``, one move per choice of the player to act
    (the roots of an IS-MCTS search, :func:`analyzer.search.mcts.search`'s ``root_prior``).

    Raises
    ------
    ConquianError
        If no move prior is fitted for these rules (:func:`prior_for`).
    """
    if prior_for(view.rules) is None:
        raise ConquianError(f"no move prior is fitted for {view.rules.title}")
    probability = {m: q for group, q in choice_prior(view, moves=moves) for m in group}
    return [probability[m] for m in moves]


def move_prior(view: GameState, coefficients: Sequence[float] | None = None) -> dict[Move, float]:
    """The prior over the legal moves of the player to act: each choice's probability
    (:func:`choice_prior`) shared evenly among its arrangements, so that the legal moves' sum to 1."""
    out: dict[Move, float] = {}
    for group, q in choice_prior(view, coefficients):
        for move in group:
            out[move] = q / len(group)
    return out


def pick(
    view: GameState,
    advice: Advice,
    weight: float = math.inf,
    coefficients: Sequence[float] | None = None,
) -> Move:
    """The move to play from ``advice`` on ``view``: among the best move and the moves its verdict
    leaves not separated from it (``advice.close_to_best``), the one of largest mean result
    (R20) plus ``weight`` times the log of its choice's prior probability (:func:`choice_prior`);
    ``weight`` infinite: the choice the prior finds most likely.  Ties keep the search's order.
    The best move when the verdict separates it, or when it goes out (R15).
    """
    best = advice.estimates[0]
    if best.sure or not advice.close_to_best:
        return best.move
    close = set(advice.close_to_best)
    contenders = [e for e in advice.estimates if e is best or e.move in close]
    prior = choice_prior(view, coefficients)

    def log_prior(move: Move) -> float:
        q = max((q for group, q in prior if same_choice(view, group[0], move)), default=0.0)
        return math.log(q) if q > 0 else -math.inf

    def score(k: int) -> tuple[float, float, int]:
        e = contenders[k]
        if math.isinf(weight):
            return (log_prior(e.move), 0.0, -k)
        return (e.expected + weight * log_prior(e.move), 0.0, -k)

    return contenders[max(range(len(contenders)), key=score)].move


SHARE = 0.5
"""With one IS-MCTS tree (:func:`pick_visited`): the moves with at least this share of the most
visited move's visits are the contenders (UCB1 spreads its visits over the moves it cannot tell
apart, and a move it visited little has a noisy mean)."""


def pick_visited(
    view: GameState,
    advice: Advice,
    weight: float = WEIGHT,
    share: float = SHARE,
    coefficients: Sequence[float] | None = None,
) -> Move:
    """:func:`pick` for one IS-MCTS tree, which has no verdict: the moves visited at least
    ``share`` times as often as the most visited (``advice.estimates[k].samples``, visits) stand
    for the moves left close to the best."""
    most = max(e.samples for e in advice.estimates)
    close = tuple(e.move for e in advice.estimates[1:] if e.samples >= share * most and e.samples > 0)
    return pick(view, replace(advice, close_to_best=close), weight, coefficients)


def weighs_prior(rules: Rules, method: str) -> bool:
    """Whether the ``hint`` bot's default (``prior=auto``) weighs the learned prior: a prior is
    fitted for ``rules`` (:func:`prior_for`) and the engine's method is ``pimc``."""
    return method == "pimc" and prior_for(rules) is not None


def leaning(view: GameState, advice: Advice, engine: str) -> Move | None:
    """The move the ``hint`` bot plays where the verdict leaves moves close to the best: the
    search's best or a close move, by :func:`pick` at :data:`WEIGHT`. ``None`` where the verdict
    separates the best, nobody chooses, or the bot weighs no prior (:func:`weighs_prior`;
    ``engine``: the method name)."""
    if not advice.close_to_best or advice.estimates[0].sure or view.to_act is None:
        return None
    return pick(view, advice, WEIGHT) if weighs_prior(view.rules, engine) else None
