//! The native core of conquian: the rules engine and the searches of `analyzer` in Rust, laid out
//! like the Python layers (`core`, `search`), bound to Python as `analyzer._native` (module `py`).
//!
//! The Python engine is the reference: every function here answers as its Python namesake does,
//! move lists in the same order and sampled draws from the same generator (`rng`).

// Loops over seats and cards index several parallel arrays, as the Python reference does: kept
// as index loops so that the two read side by side.
#![allow(clippy::needless_range_loop)]

pub mod core;
pub mod rng;
pub mod search;

#[cfg(feature = "python")]
mod py;
#[cfg(feature = "python")]
mod pydata;
#[cfg(feature = "python")]
mod pysearch;
