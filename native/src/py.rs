//! The Python module `analyzer._native`: the rules engine's functions here, the searches in
//! `pysearch`, both on the named data of `pydata` (`NativeRules`; states and moves as dicts with
//! fixed keys; a Rust panic becomes a `RuntimeError`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::core::cards::CardSet;
use crate::pydata::{
    clear_engines, guard, move_of, note_panic_places, state_data, state_of, with_engine, MoveData,
    MovesData, NativeRules, StateData,
};

/// The answer of `run_forced`: the first position with a choice, and the positions passed.
#[derive(IntoPyObject)]
pub struct ForcedData {
    pub state: StateData,
    pub steps: i64,
}

/// Every legal move of the player to act, in the Python engine's order.
#[pyfunction]
fn legal_moves(rules: PyRef<'_, NativeRules>, state: StateData) -> PyResult<MovesData> {
    guard(|| {
        with_engine(&rules, |engine| {
            let s = state_of(&engine.rules, &state)?;
            let moves = engine
                .legal_moves(&s)
                .map_err(|e| PyValueError::new_err(e.0))?;
            Ok(MovesData::of(&engine.rules, &moves))
        })
    })
}

/// The state after a legal move.
#[pyfunction]
fn apply(rules: PyRef<'_, NativeRules>, state: StateData, mv: MoveData) -> PyResult<StateData> {
    guard(|| {
        with_engine(&rules, |engine| {
            let s = state_of(&engine.rules, &state)?;
            let m = move_of(&engine.rules, &mv)?;
            Ok(state_data(&engine.rules, &engine.apply(&s, &m)))
        })
    })
}

/// `GameState.run_forced`: the first position with a choice and the positions passed.
#[pyfunction]
fn run_forced(
    rules: PyRef<'_, NativeRules>,
    state: StateData,
    limit: i64,
    turns: bool,
) -> PyResult<Option<ForcedData>> {
    guard(|| {
        with_engine(&rules, |engine| {
            let s = state_of(&engine.rules, &state)?;
            Ok(engine
                .run_forced(&s, limit, turns)
                .map(|(t, steps)| ForcedData {
                    state: state_data(&engine.rules, &t),
                    steps,
                }))
        })
    })
}

/// Most cards of `cards` that split into melds melding all of `must`, or -1.
#[pyfunction]
fn max_melded(rules: PyRef<'_, NativeRules>, cards: u64, must: u64) -> PyResult<i32> {
    guard(|| {
        with_engine(&rules, |engine| {
            Ok(engine
                .melds
                .max_melded(CardSet(cards), CardSet(must), &engine.rules))
        })
    })
}

/// The state's data after a round trip through the native state (for the tests of the boundary).
#[pyfunction]
fn round_trip(rules: PyRef<'_, NativeRules>, state: StateData) -> PyResult<StateData> {
    guard(|| {
        with_engine(&rules, |engine| {
            Ok(state_data(&engine.rules, &state_of(&engine.rules, &state)?))
        })
    })
}

/// Forget the memo tables of this thread's engines (for benchmarks that time cold lookups).
#[pyfunction]
fn clear_caches() {
    clear_engines();
}

/// Panic on purpose: the test that a panic reaches Python as an exception.
#[pyfunction]
fn _panic_for_test() -> PyResult<()> {
    guard(|| panic!("a panic raised on purpose by the test"))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    note_panic_places();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<NativeRules>()?;
    m.add_function(wrap_pyfunction!(legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(apply, m)?)?;
    m.add_function(wrap_pyfunction!(run_forced, m)?)?;
    m.add_function(wrap_pyfunction!(max_melded, m)?)?;
    m.add_function(wrap_pyfunction!(round_trip, m)?)?;
    m.add_function(wrap_pyfunction!(clear_caches, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_test, m)?)?;
    crate::pysearch::register(m)?;
    Ok(())
}
