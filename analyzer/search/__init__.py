"""Layer 4, evaluating positions: exact search (:mod:`~analyzer.search.exact`), lookahead,
playouts, IS-MCTS, sampling and hand inference, the fitted evaluation, all-moves values and the
networkx tree explorer.

The package exports what the 0.1 module ``analyzer.search`` did (the exact search).
"""

from analyzer.search.exact import SearchResult, Solver, solve
from analyzer.search.outcome import Outcome, outcome_vector, paused_gc, position_key

__all__ = ["Outcome", "SearchResult", "Solver", "outcome_vector", "paused_gc", "position_key", "solve"]
