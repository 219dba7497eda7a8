//! Layer 4, evaluating positions: exact search, lookahead, leaf evaluations, playouts, IS-MCTS
//! and sampling, each the port of its `analyzer.search` namesake.
pub mod evaluation;
pub mod exact;
pub mod lookahead;
pub mod mcts;
pub mod outcome;
pub mod playout;
pub mod sampling;
