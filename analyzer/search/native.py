"""The searches' side of the native core: leaf evaluations, random generators, and the named
options and answers of the native searches (see :mod:`analyzer.core.native` for rules, states
and moves).

A search hands its work to the native core when it is in use and its leaf evaluation is one the
native core has (the fitted model, the melded-card lead, eager playouts); any other leaf (a
Python callable) keeps the search in Python.  A ``random.Random`` crosses as its state
(``getstate()``) and is set to the state the native search left it in, so the caller's stream
continues exactly as after the Python search.

Each native search takes one options dict and answers with one, with the fixed keys of the
``TypedDict`` classes here (``native/src/pysearch.rs`` holds the same fields by name): a missing key
is a ``KeyError`` naming it, a wrong value a ``TypeError`` naming ``Struct.field``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypedDict

from analyzer.core import native
from analyzer.core.moves import Move
from analyzer.core.native import MoveData, rng_state, set_rng_state
from analyzer.core.rules import Rules
from analyzer.core.state import GameState
from analyzer.search.evaluation import FittedEvaluator, melded_lead
from analyzer.search.outcome import Outcome
from analyzer.search.playout import RolloutLeaf

__all__ = [
    "EquilibriumData",
    "EquilibriumOptions",
    "EquilibriumResult",
    "LeafArgs",
    "LookaheadData",
    "LookaheadOptions",
    "MctsData",
    "NativeMctsOptions",
    "SizeData",
    "SolveData",
    "SolveOptions",
    "StatsData",
    "TreeData",
    "TreeOptions",
    "finish_leaf",
    "leaf_args",
    "moves_data",
    "native_model",
    "rng_state",
    "set_rng_state",
    "weights_list",
]

Weights = Sequence[Sequence[float] | None] | None
"""Per seat 40 card weights, or ``None`` for a seat drawn uniformly; ``None``: none."""


class LeafArgs(TypedDict):
    """A leaf evaluation as the native core names it (``LeafSpec``): ``kind`` ``melded``,
    ``fitted`` (with its ``model``) or ``rollout`` (with its ``playouts`` and generator ``rng``)."""

    kind: str
    model: Any
    playouts: int
    rng: Sequence[int] | None


class SolveOptions(TypedDict):
    """The options of ``NativeSolver.solve`` (``player`` ``None``: every player)."""

    player: int | None
    max_nodes: int
    time_limit: float
    table_cap: int | None
    leaf: LeafArgs
    stop: Callable[[], bool] | None


class SolveData(TypedDict):
    """The answer of ``NativeSolver.solve``, and the rollout leaf's generator state."""

    outcome: Sequence[float]
    winner: int | None
    values: Sequence[float]
    pv: Sequence[MoveData]
    nodes: int
    proven: bool
    seconds: float
    mode: str
    stopped_by: str | None
    lower: float
    upper: float
    rng: Sequence[int] | None


class LookaheadOptions(TypedDict):
    """The options of ``NativeLookahead.values``."""

    maxn: bool
    max_nodes: int
    time_limit: float
    max_depth: int
    spread: int
    policy: bool
    leaf: LeafArgs
    stop: Callable[[], bool] | None


class LookaheadData(TypedDict):
    """The answer of ``NativeLookahead.values``, and the rollout leaf's generator state."""

    outcomes: Sequence[Sequence[float]]
    depth: int
    exact: bool
    nodes: int
    stopped_by: str | None
    rng: Sequence[int] | None


class NativeMctsOptions(TypedDict):
    """The options of ``mcts_search`` (``MctsOptions`` in ``native/src/pysearch.rs``)."""

    iterations: int
    rng: Sequence[int]
    c: float
    model: Any
    infer: bool
    halving: bool
    policy: bool
    nomeld: bool
    time_limit: float | None
    weights: Weights
    stop: Callable[[], bool] | None
    progress: Callable[[int, int], None] | None
    root_bias: Sequence[float] | None


class StatsData(TypedDict):
    """A root move's statistics in :class:`MctsData`."""

    move: MoveData
    visits: int
    value: float
    win: float
    draw: float


class MctsData(TypedDict):
    """The answer of ``mcts_search`` and the generator's state after it."""

    moves: Sequence[StatsData]
    iterations: int
    seconds: float
    interrupted: bool
    depth: float
    ended: float
    rng: Sequence[int]


class SizeData(TypedDict):
    """The size of an endgame's tree."""

    nodes: int
    infosets: int
    deals: int


class InfosetData(TypedDict):
    """An information set of an endgame's tree: its player, his hand as dealt, the public moves."""

    player: int
    hand: int
    history: Sequence[MoveData]


class DealData(TypedDict):
    """A root deal of an endgame's tree: the two hands and its probability."""

    hand0: int
    hand1: int
    probability: float


class KeysData(TypedDict):
    """An endgame tree's information sets and deals in the order built, and its sequences."""

    infosets: Sequence[InfosetData]
    deals: Sequence[DealData]
    parent_seq: Sequence[int]
    seq_base: Sequence[int]


class TreeOptions(TypedDict):
    """The options of ``equilibrium_tree``."""

    max_nodes: int
    prior: Weights
    stop: Callable[[], bool] | None
    keys: bool


class TreeData(TypedDict):
    """The answer of ``equilibrium_tree``: why it was not built (``positions``, ``interrupted``,
    else ``None``), its size and, when asked, its keys."""

    why: str | None
    size: SizeData
    keys: KeysData | None


class EquilibriumOptions(TypedDict):
    """The options of ``equilibrium`` (CFR+ on an endgame's tree)."""

    max_nodes: int
    tolerance: float
    max_iterations: int
    time_limit: float | None
    prior: Weights
    stop: Callable[[], bool] | None
    lp_below: int
    every: bool


class EquilibriumData(TypedDict):
    """An equilibrium of an endgame for its player to act (``strategy`` and ``move_values`` in
    the order of ``moves``)."""

    player: int
    moves: Sequence[MoveData]
    strategy: Sequence[float]
    move_values: Sequence[float]
    value: float
    exploitability: float
    game_value: float
    iterations: int
    stopped_by: str | None
    every: Sequence[Sequence[float]] | None


class EquilibriumResult(TypedDict):
    """The answer of ``equilibrium``: the equilibrium, or ``None`` with ``why`` (``positions``,
    ``interrupted``, ``small``), and the tree's size."""

    answer: EquilibriumData | None
    why: str | None
    size: SizeData


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
        return {"kind": "melded", "model": None, "playouts": 1, "rng": None}
    if isinstance(leaf, FittedEvaluator):
        if leaf.players != rules.players:
            return None
        return {"kind": "fitted", "model": native_model(leaf), "playouts": 1, "rng": None}
    if type(leaf) is RolloutLeaf:
        return {"kind": "rollout", "model": None, "playouts": leaf.playouts, "rng": rng_state(leaf.rng)}
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


def moves_data(moves: Sequence[Move]) -> list[MoveData]:
    """Moves as the native core reads them."""
    return [native.pack_move(m) for m in moves]
