//! Layer 4, evaluating positions: exact search, lookahead, leaf evaluations, playouts, IS-MCTS,
//! sampling and equilibrium endgames, each the port of its `analyzer.search` namesake.
pub mod equilibrium;
pub mod evaluation;
pub mod exact;
pub mod lookahead;
pub mod mcts;
pub mod outcome;
pub mod playout;
pub mod sampling;
