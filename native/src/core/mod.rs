//! Layer 1, the rules engine: cards, rules, melds, moves and the state (R1-R19).
pub mod cards;
pub mod melds;
pub mod moves;
pub mod rules;
pub mod state;
