"""The searches' side of the native core: leaf evaluations, random generators and answers as plain
data (see :mod:`analyzer.core.native` for states and moves).

A search hands its work to the native core when it is in use and its leaf evaluation is one the
native core has (the fitted model, the melded-card lead, eager playouts); any other leaf (a
Python callable) keeps the search in Python.  A ``random.Random`` crosses as its state
(``getstate()``) and is set to the state the native search left it in, so the caller's stream
continues exactly as after the Python search.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from analyzer.core import native
from analyzer.core.moves import Move
from analyzer.core.native import rng_state, set_rng_state
from analyzer.core.rules import Rules
from analyzer.core.state import GameState
from analyzer.search.evaluation import FittedEvaluator, melded_lead
from analyzer.search.outcome import Outcome
from analyzer.search.playout import RolloutLeaf

__all__ = [
    "LeafArgs",
    "finish_leaf",
    "leaf_args",
    "moves_data",
    "native_model",
    "rng_state",
    "set_rng_state",
    "weights_list",
]

LeafArgs = dict[str, Any]


def native_model(model: FittedEvaluator) -> Any:
    """The native copy of a fitted model, made once per model."""
    made = getattr(model, "_native_model", None)
    if made is None:
        layers = [(w.tolist(), b.tolist()) for w, b in model.layers]
        made = native.native_module().NativeModel(model.players, layers)
        model._native_model = made
    return made


def leaf_args(leaf: Callable[[GameState], Outcome], rules: Rules) -> LeafArgs | None:
    """The native form of a leaf evaluation, or ``None`` when the native core has no such leaf
    (a Python callable: the search then stays in Python)."""
    if leaf is melded_lead:
        return {"leaf": "melded"}
    if isinstance(leaf, FittedEvaluator):
        if leaf.players != rules.players:
            return None
        return {"leaf": "fitted", "model": native_model(leaf)}
    if type(leaf) is RolloutLeaf:
        return {"leaf": "rollout", "playouts": leaf.playouts, "rng": rng_state(leaf.rng)}
    return None


def finish_leaf(leaf: Callable[[GameState], Outcome], words: Sequence[int] | None) -> None:
    """After a native search: the rollout leaf's generator continues where the search left it."""
    if words is not None and isinstance(leaf, RolloutLeaf):
        set_rng_state(leaf.rng, words)


def weights_list(
    weights: Mapping[int, Sequence[float]] | None, players: int
) -> list[list[float] | None] | None:
    """The hand-reading weights as one entry per seat (``None`` for a seat drawn uniformly)."""
    if not weights:
        return None
    return [list(weights[p]) if p in weights else None for p in range(players)]


def moves_data(moves: Sequence[Move]) -> list[tuple[int, tuple[int, ...], int | None]]:
    """Moves as the native core reads them."""
    return [native.pack_move(m) for m in moves]
