"""The named choices of the searches and hint engines, as types: a typo in a choice is a type error
(``mypy --strict``), and the tuples that run-time checks and help texts list come from the same
``Literal`` (``typing.get_args``), so the two cannot drift apart."""

from __future__ import annotations

from typing import Literal, TypeVar, get_args

from analyzer.core.errors import ConquianError

__all__ = [
    "CANDIDATES",
    "ENGINE_LEAVES",
    "LEARNED_LEAVES",
    "LEAVES",
    "METHODS",
    "MODES",
    "OPPONENTS",
    "PLAYOUTS",
    "POLICIES",
    "SEARCHES",
    "STOCK_MODELS",
    "Candidates",
    "EngineLeaf",
    "Leaf",
    "LearnedLeaf",
    "Method",
    "Mode",
    "Opponents",
    "Playout",
    "Policy",
    "SearchKind",
    "StockModel",
    "one_of",
]

_T = TypeVar("_T", bound=str)

Leaf = Literal["rollout", "fitted", "selfplay"]
"""How IS-MCTS scores a position where its tree ends: an eager playout, or a learned evaluation
(``fitted``: fitted on greedy deals; ``selfplay``: on the hint bot's self-play records)."""
Method = Literal["uct", "halving"]
"""IS-MCTS's tree (UCT), or sequential halving over the root moves on common deals."""
Opponents = Literal["search", "policy"]
"""How the other players choose inside a search: by searching, or by the eager policy."""
Playout = Literal["eager", "nomeld"]
"""How the searching player's own seat plays in playouts (``nomeld``: never a hand-only meld, R16)."""
Policy = Literal["eager", "random"]
"""The playout policy of every seat (OpenSpiel's ``ismcts`` bot)."""
EngineLeaf = Literal["fitted", "melded", "rollout", "selfplay"]
"""A hint engine's leaf evaluation: a learned model (``fitted`` or ``selfplay``), melded-card lead,
or playouts."""
LearnedLeaf = Literal["fitted", "selfplay"]
"""The learned leaf evaluations: the data file each names (:func:`analyzer.search.evaluation.evaluator_for`)."""
SearchKind = Literal["lookahead", "exact", "mcts"]
"""How a hint engine searches each sampled deal."""
Candidates = Literal["all", "v1"]
"""Which moves a hint engine weighs: every distinct choice, or the first engine's CP-SAT takes."""
Mode = Literal["auto", "maxn", "paranoid"]
"""Three players: max-n (each for himself) or paranoid (the others against the root player)."""
StockModel = Literal["known", "chance"]
"""A sampled deal's stock: ordered and seen by the search, or chance (expectimax)."""

LEAVES: tuple[Leaf, ...] = get_args(Leaf)
METHODS: tuple[Method, ...] = get_args(Method)
OPPONENTS: tuple[Opponents, ...] = get_args(Opponents)
PLAYOUTS: tuple[Playout, ...] = get_args(Playout)
POLICIES: tuple[Policy, ...] = get_args(Policy)
ENGINE_LEAVES: tuple[EngineLeaf, ...] = get_args(EngineLeaf)
LEARNED_LEAVES: tuple[LearnedLeaf, ...] = get_args(LearnedLeaf)
SEARCHES: tuple[SearchKind, ...] = get_args(SearchKind)
CANDIDATES: tuple[Candidates, ...] = get_args(Candidates)
MODES: tuple[Mode, ...] = get_args(Mode)
STOCK_MODELS: tuple[StockModel, ...] = get_args(StockModel)


def one_of(value: object, choices: tuple[_T, ...], what: str) -> _T:
    """``value`` as one of ``choices`` (typed as the choice), checked at run time.

    Raises
    ------
    ConquianError
        If ``value`` is not one of them; the message names ``what`` and the choices.
    """
    for choice in choices:
        if value == choice:
            return choice
    raise ConquianError(f"{what} must be one of {', '.join(choices)}, not {value!r}")
