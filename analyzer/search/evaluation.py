"""Leaf evaluation of positions for the search: a fitted win / draw / loss model.

A depth-limited search (:mod:`analyzer.search.exact`, the hint advisor) stops
before the deal ends and needs an estimate of the outcome there.  Two
estimates are available:

* :func:`melded_lead` -- the first heuristic: each player's win chance is
  his share of ``1 + melded cards``, scaled by how far the deal has gone.
* :class:`FittedEvaluator` -- a small neural network (or multinomial logistic
  regression) giving the probabilities of the outcome (which player wins, or
  a draw), fitted on positions of seeded simulated deals (``bench/fit_eval.py`` reproduces the fit; the coefficients ship as
  ``analyzer/data/eval-<variant>.json``).

Both take a position where every hand and the stock cards are known (a
sampled or double-dummy deal) and return an *outcome vector*: the
probabilities of (player 0 wins, ..., player n-1 wins, draw).

Features (:func:`features`) are computed per player, listed from the player
to act (or to turn) onward, then position-wide:

==============  ===================================================================
``melded``      cards in his layout (R6)
``hand``        cards in his hand (R7)
``outs_stock``  stock cards that let him go out when offered (R15)
``outs_hands``  cards in the other hands that let him go out (paid to him, R13)
``takes``       stock cards he could take (meld with his layout and hand, R13)
``takes2``      stock cards he could take melding at least one hand card too
``exposed``     stock and other-hand cards that fit his layout, so that he can be
                forced with them (R14)
``centre_out``  the centre card lets him go out (0/1)
``centre_take`` 0: he cannot take the centre card; 1: he can; 2: with hand cards too
``fewest``      how many cards fewer than the next-fewest hand he holds (R18)
``empty``       his hand is empty: only a card that fits his layout can end it (R7)
``has_out``     some unseen card lets him go out (0/1)
``outs_share``  ``outs_stock`` divided by the stock left (0 when empty)
``takes_share`` ``takes`` divided by the stock left (0 when empty)
``hand_melds``  most hand cards that meld on their own (R16 in megajogos)
==============  ===================================================================

Position-wide: ``stock`` (cards left), ``stock_small`` (1 when at most 3
are left), ``offer`` (1 when a centre card is offered, 0 before a turn),
``paid`` (1 when that card was paid, R13) and ``inv_stock`` (1 / (stock + 1)).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache, lru_cache
from importlib import resources
from typing import Any

import numpy as np

from analyzer.core.cards import iter_mask
from analyzer.core.errors import ConquianError
from analyzer.core.legal import fitting_cards
from analyzer.core.melds import cards_of, catalog, max_melded
from analyzer.core.rules import Rules
from analyzer.core.state import GameState, Phase

__all__ = [
    "FEATURES_PER_PLAYER",
    "GLOBAL_FEATURES",
    "FittedEvaluator",
    "evaluator_for",
    "features",
    "fitted_evaluator",
    "melded_lead",
]

Outcome = tuple[float, ...]

FEATURES_PER_PLAYER = (
    "melded",
    "hand",
    "outs_stock",
    "outs_hands",
    "takes",
    "takes2",
    "exposed",
    "centre_out",
    "centre_take",
    "fewest",
    "empty",
    "has_out",
    "outs_share",
    "takes_share",
    "hand_melds",
)
"""Names of the per-player features, in order (module docstring)."""

GLOBAL_FEATURES = ("stock", "stock_small", "offer", "paid", "inv_stock")
"""Names of the position-wide features, in order."""


def melded_lead(state: GameState) -> Outcome:
    """The melded-card lead as an outcome vector (the search's first heuristic).

    Each player's weight is ``1 + melded cards``; his win probability is his
    share of the total weight, scaled by ``1 - stock/40`` (how far the deal
    has gone); the rest is a draw.

    Parameters
    ----------
    state : GameState
        Any position.

    Returns
    -------
    tuple of float
        (player 0 wins, ..., player n-1 wins, draw), summing to 1.
    """
    n = state.rules.players
    weights = [1.0 + state.melded(p) for p in range(n)]
    total = sum(weights)
    progress = 1.0 - state.stock_count / 40.0
    vec = [progress * w / total for w in weights]
    vec.append(1.0 - sum(vec))
    return tuple(vec)


@lru_cache(maxsize=1 << 18)
def _gains(layout_cards: int, hand: int, rules: Rules) -> tuple[int, int, int, int]:
    """Masks of the cards that would let a player (layout cards, hand) go out, take, and take
    with at least one hand card, if offered to him (R13, R15), and the most hand cards that meld
    on their own (R16).  Cached: it recurs in a search."""
    out = take = take2 = 0
    base = layout_cards | hand
    need = hand.bit_count() + 1
    melded = layout_cards.bit_count()
    # Only a card that completes some meld with cards he has can be melded at all.
    reach = 0
    for meld in catalog(rules):
        rest = meld & ~base
        if rest and rest & (rest - 1) == 0:
            reach |= rest
    for card in iter_mask(reach):
        bit = 1 << card
        best = max_melded(base | bit, rules, layout_cards | bit)
        if best < 0:
            continue
        gain = best - melded
        take |= bit
        if gain >= 2:
            take2 |= bit
        if gain == need:
            out |= bit
    return out, take, take2, max_melded(hand, rules)


def _order(state: GameState) -> tuple[int, ...]:
    n = state.rules.players
    first = state.to_act
    return tuple((first + k) % n for k in range(n))


@lru_cache(maxsize=1 << 18)
def _player_features(
    layout: tuple[int, ...],
    hand: int,
    stock: int,
    others: int,
    card: int,
    fewest: int,
    s: int,
    rules: Rules,
) -> tuple[float, ...]:
    """One player's block of :func:`features` (cached: a player's situation recurs in a search
    while the others move)."""
    lc = cards_of(layout)
    outs, takes, takes2, alone = _gains(lc, hand, rules)
    fit = fitting_cards(layout, rules)
    if card >= 0:
        bit = 1 << card
        c_out = float(bool(outs & bit))
        c_take = float(bool(takes & bit)) + float(bool(takes2 & bit))
    else:
        c_out = c_take = 0.0
    outs_stock = (outs & stock).bit_count()
    outs_hands = (outs & others).bit_count()
    takes_stock = (takes & stock).bit_count()
    per = 1.0 / s if s else 0.0
    count = hand.bit_count()
    return (
        float(lc.bit_count()),
        float(count),
        float(outs_stock),
        float(outs_hands),
        float(takes_stock),
        float((takes2 & stock).bit_count()),
        float((fit & (stock | others)).bit_count()),
        c_out,
        c_take,
        float(fewest),
        float(count == 0),
        float(outs_stock + outs_hands > 0),
        outs_stock * per,
        takes_stock * per,
        float(alone),
    )


def feature_blocks(state: GameState) -> tuple[list[tuple[float, ...]], tuple[float, ...]]:
    """:func:`features` in blocks: one tuple per player from the one to act, and the
    position-wide tuple (their concatenation is :func:`features`).

    Raises
    ------
    ConquianError
        If a hand or the stock cards are hidden, or the deal is over.
    """
    if state.phase is Phase.OVER:
        raise ConquianError("the deal is over: nothing to estimate")
    stock = state.stock_mask()
    if stock is None:
        raise ConquianError("the evaluation needs every hand and the stock cards")
    rules = state.rules
    hands = state.hands
    everyone = 0
    for hand in hands:
        everyone |= hand or 0
    centre = state.centre
    card = -1 if centre is None else centre.card
    counts = state.counts
    s = state.stock_count
    blocks: list[tuple[float, ...]] = []
    for p in _order(state):
        hand = hands[p] or 0
        fewest = min(c for q, c in enumerate(counts) if q != p) - counts[p]
        blocks.append(
            _player_features(state.layouts[p], hand, stock, everyone & ~hand, card, fewest, s, rules)
        )
    paid = centre is not None and centre.kind == "paid"
    return blocks, _global_features(s, centre is not None, paid)


@cache
def _global_features(s: int, offer: bool, paid: bool) -> tuple[float, ...]:
    return (float(s), float(s <= 3), float(offer), float(paid), 1.0 / (s + 1))


def features(state: GameState) -> list[float]:
    """The feature vector of a position (module docstring), players from the one to act.

    Parameters
    ----------
    state : GameState
        Every hand known and the stock cards known (order or set); not over.

    Returns
    -------
    list of float
        ``len(FEATURES_PER_PLAYER) * players + len(GLOBAL_FEATURES)`` numbers.

    Raises
    ------
    ConquianError
        If a hand or the stock cards are hidden, or the deal is over.
    """
    blocks, position = feature_blocks(state)
    out: list[float] = []
    for block in blocks:
        out.extend(block)
    out.extend(position)
    return out


class FittedEvaluator:
    """A small fitted model of the outcome: which player wins, counted from the player to act,
    or a draw.

    A multilayer perceptron (or, with one layer, a multinomial logistic
    regression): ``h = relu(W_k h + b_k)`` for every layer but the last,
    then class probabilities ``softmax(W h + b)``.  Class ``k < players`` is
    "the ``k``-th player from the player to act wins", class ``players`` is
    a draw.  The input scaling is folded into the first layer.

    Parameters
    ----------
    variant : str
        The preset it was fitted for.
    players : int
    layers : sequence of (weights, bias)
        ``weights`` has one row per output unit and one column per input;
        the first layer's inputs are :func:`features`.
    meta : dict, optional
        How it was fitted (script, deals, Brier scores); kept in the data file.
    """

    def __init__(
        self,
        variant: str,
        players: int,
        layers: Sequence[tuple[Sequence[Sequence[float]], Sequence[float]]],
        meta: dict[str, object] | None = None,
    ) -> None:
        self.variant = variant
        self.players = players
        self.layers = [
            (np.asarray(w, dtype=np.float64), np.asarray(b, dtype=np.float64)) for w, b in layers
        ]
        self.meta = dict(meta or {})
        width = len(FEATURES_PER_PLAYER) * players + len(GLOBAL_FEATURES)
        if self.layers[0][0].shape[1] != width or self.layers[-1][0].shape[0] != players + 1:
            raise ConquianError("the evaluation data does not fit this variant's features")
        # The search calls the model on one position at a time, where numpy's per-call cost
        # dominates: the same arithmetic in plain Python, the first layer split by feature
        # block so that each block's product is computed once per distinct block.
        w0 = self.layers[0][0]
        k = len(FEATURES_PER_PLAYER)
        self._w0_blocks = [
            tuple(tuple(row) for row in w0[:, i * k : (i + 1) * k].tolist()) for i in range(players)
        ]
        self._w0_global = tuple(tuple(row) for row in w0[:, players * k :].tolist())
        self._b0 = tuple(self.layers[0][1].tolist())
        self._rest = [
            (tuple(tuple(row) for row in w.tolist()), tuple(b.tolist())) for w, b in self.layers[1:]
        ]
        self._products: dict[tuple[int, tuple[float, ...]], tuple[float, ...]] = {}
        self._native_model: object = None  # its copy in the native core, made on first use

    @staticmethod
    def label(to_act: int, winner: int | None, players: int) -> int:
        """The class of an outcome seen from a position with ``to_act`` to act."""
        if winner is None:
            return players
        return (winner - to_act) % players

    def probabilities(self, x: Sequence[float]) -> list[float]:
        """Class probabilities of one feature vector (see the class docstring)."""
        h = np.asarray(x, dtype=np.float64)
        last = len(self.layers) - 1
        for k, (w, b) in enumerate(self.layers):
            h = w @ h + b
            if k < last:
                h = np.maximum(h, 0.0)
        z = np.exp(h - h.max())
        return (z / z.sum()).tolist()  # type: ignore[no-any-return]

    def _product(self, i: int, block: tuple[float, ...]) -> tuple[float, ...]:
        """First-layer contribution of feature block ``i`` (players, then the position)."""
        key = (i, block)
        hit = self._products.get(key)
        if hit is None:
            rows = self._w0_blocks[i] if i < self.players else self._w0_global
            hit = tuple(sum(w * v for w, v in zip(row, block, strict=True)) for row in rows)
            if len(self._products) > 1 << 18:
                self._products.clear()
            self._products[key] = hit
        return hit

    def fast_probabilities(self, state: GameState) -> list[float]:
        """:meth:`probabilities` of ``state``'s features, in plain Python with the first
        layer's products cached per feature block (the same numbers up to rounding)."""
        blocks, position = feature_blocks(state)
        h = list(self._b0)
        for i, block in enumerate((*blocks, position)):
            for j, v in enumerate(self._product(i, block)):
                h[j] += v
        for w, b in self._rest:
            h = [max(z, 0.0) for z in h]
            h = [bias + sum(x * y for x, y in zip(row, h, strict=True)) for row, bias in zip(w, b, strict=True)]
        top = max(h)
        exps = [math.exp(z - top) for z in h]
        total = sum(exps)
        return [e / total for e in exps]

    def __call__(self, state: GameState) -> Outcome:
        """The outcome vector of ``state``: (player 0 wins, ..., player n-1 wins, draw).

        Raises
        ------
        ConquianError
            If a hand or the stock cards are hidden, or the deal is over.
        """
        probs = self.fast_probabilities(state)
        n = self.players
        vec = [0.0] * (n + 1)
        first = state.to_act
        for k in range(n):
            vec[(first + k) % n] = probs[k]
        vec[n] = probs[n]
        return tuple(vec)

    def to_json(self) -> dict[str, object]:
        """JSON-ready form (the shipped data file's shape)."""
        return {
            "variant": self.variant,
            "players": self.players,
            "features_per_player": list(FEATURES_PER_PLAYER),
            "global_features": list(GLOBAL_FEATURES),
            "layers": [{"weights": w.tolist(), "bias": b.tolist()} for w, b in self.layers],
            "fit": self.meta,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FittedEvaluator:
        """Read the data file's shape (see :meth:`to_json`).

        Raises
        ------
        ConquianError
            If the feature names differ from this version's, or a layer is malformed.
        """
        if data.get("features_per_player") != list(FEATURES_PER_PLAYER) or data.get(
            "global_features"
        ) != list(GLOBAL_FEATURES):
            raise ConquianError("the evaluation data was fitted on other features: refit it")
        try:
            layers = [(layer["weights"], layer["bias"]) for layer in data["layers"]]
            return cls(str(data["variant"]), int(data["players"]), layers, data.get("fit"))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ConquianError(f"malformed evaluation data: {exc}") from None


def evaluator_for(rules: Rules, kind: str = "fitted") -> FittedEvaluator | None:
    """The shipped evaluator of kind ``kind`` fitted for exactly these rules: a preset at its own
    player count with no option changed (the labels aside); ``None`` otherwise, when the search
    values its leaves by :func:`melded_lead` (a model fitted on other rules would misjudge them).

    ``kind`` names the data file (:func:`fitted_evaluator`): ``"fitted"``, fitted on greedy deals;
    ``"selfplay"``, on the hint bot's self-play records (``bench/selfplay.py``)."""
    if not rules.exact_preset:
        return None
    fitted = fitted_evaluator(rules.name, kind)
    return fitted if fitted is not None and fitted.players == rules.players else None


@cache
def fitted_evaluator(variant: str, kind: str = "fitted") -> FittedEvaluator | None:
    """The shipped evaluator of a preset, or ``None`` if none was fitted for it: the data file
    ``eval-<variant>.json`` (``kind="fitted"``) or ``eval-<variant>-<kind>.json``."""
    name = f"eval-{variant}.json" if kind == "fitted" else f"eval-{variant}-{kind}.json"
    try:
        text = resources.files("analyzer").joinpath(f"data/{name}").read_text()
    except (FileNotFoundError, OSError):
        return None
    return FittedEvaluator.from_json(json.loads(text))

