//! Layer 1, the rules engine: cards, rules, melds, moves, offers, what is legal and the state
//! (R1-R19), one module per Python module of `analyzer.core`.
pub mod cards;
pub mod catalog;
pub mod dealing;
pub mod forced;
pub mod legal;
pub mod melds;
pub mod moves;
pub mod offers;
pub mod rules;
pub mod state;
