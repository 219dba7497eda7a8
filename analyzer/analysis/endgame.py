"""Exact answers under hidden information: the equilibrium of a two-player endgame, for the
player to act (:mod:`analyzer.search.equilibrium`), with the deal of the hidden hands uniform or
read from the cards each player gave up."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from analyzer.core.state import GameState
from analyzer.search.equilibrium import DEFAULT_MAX_NODES, Equilibrium, solve_endgame
from analyzer.search.inference import infer_weights

__all__ = ["DEFAULT_MAX_NODES", "public_prior", "solve_view"]


def public_prior(view: GameState) -> dict[int, Sequence[float]] | None:
    """Per player, the weights of his hand's cards read from what he gave up in public (his pays
    and his pass in the exchange, R9, R13: :func:`analyzer.search.inference.infer_weights`), the
    same for both players' eyes; ``None`` when nobody gave up anything or the variant has no
    fitted reading."""
    public = view.evolve(hands=(None,) * view.rules.players, stock=None)
    prior: dict[int, Sequence[float]] = {}
    for q in range(view.rules.players):
        weights = infer_weights(public, (q + 1) % view.rules.players)
        if weights and q in weights:
            prior[q] = weights[q]
    return prior or None


def solve_view(
    view: GameState,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    read: bool = False,
    stop: Callable[[], bool] | None = None,
) -> Equilibrium:
    """The equilibrium of the endgame of ``view`` for its player to act: the hidden hands dealt
    uniformly, or with ``read`` by :func:`public_prior`.

    Raises
    ------
    PositionError
        If the position is not a two-player one after the exchange with a choice to make and the
        hand of the player to act known.
    EndgameTooLarge
        If the endgame has more than ``max_nodes`` positions.
    """
    prior = public_prior(view) if read else None
    return solve_endgame(view, max_nodes=max_nodes, prior=prior, stop=stop)
