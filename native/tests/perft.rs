//! Perft: the native core's legal-move tree counted against the Python engine's counts.
//!
//! `perft.txt` holds, for a few seeded deals per preset, the number of move sequences of each
//! length from the deal (the positions at that depth of the legal-move tree; a deal that ends
//! sooner adds nothing deeper).  The deals are Python's `deal(preset, seed)` with the stock
//! order known, so every turn is one move (the top card: chance is fixed, not expanded).  The
//! counts were computed with the Python engine (`analyzer.core`: `legal_moves`, `apply`);
//! `tests/test_perft.py` recomputes them with it, so both cores are held to the same numbers.

use std::sync::Arc;

use _native::core::dealing::deal;
use _native::core::legal::Engine;
use _native::core::rules::Rules;
use _native::core::state::State;

/// Per depth 1..=`counts.len()`: the move sequences of that length from `s`.
fn perft(engine: &Engine, s: &State, depth: usize, counts: &mut [u64]) {
    let moves = engine
        .legal_moves(s)
        .expect("every hand and the stock known");
    counts[depth] += moves.len() as u64;
    if depth + 1 < counts.len() {
        for m in &moves {
            perft(engine, &engine.apply(s, m), depth + 1, counts);
        }
    }
}

/// The rows of `perft.txt`: preset, seed and the counts from depth 1.
fn rows() -> Vec<(String, u128, Vec<u64>)> {
    include_str!("perft.txt")
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let mut words = line.split_whitespace();
            let preset = words.next().expect("a preset").to_string();
            let seed = words.next().expect("a seed").parse().expect("a whole seed");
            let counts = words.map(|w| w.parse().expect("a whole count")).collect();
            (preset, seed, counts)
        })
        .collect()
}

#[test]
fn the_legal_move_tree_has_the_python_engines_counts() {
    let rows = rows();
    for preset in ["classic", "megajogos"] {
        assert!(
            rows.iter().filter(|r| r.0 == preset).count() >= 3,
            "a few deals of {preset}"
        );
    }
    for (preset, seed, expected) in rows {
        let rules = match preset.as_str() {
            "classic" => Rules::classic(),
            "megajogos" => Rules::megajogos(),
            other => panic!("no preset {other} in perft.txt"),
        };
        let engine = Engine::new(Arc::new(rules));
        let mut counts = vec![0u64; expected.len()];
        perft(&engine, &deal(&engine.rules, seed), 0, &mut counts);
        assert_eq!(counts, expected, "{preset} seed {seed}");
    }
}
