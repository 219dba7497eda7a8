//! Time the native core alone (no Python): eager and random playouts and exact solves of the
//! deals of seeds 0..200 (Python's `deal(rules, seed)`).
//! `cargo run --release --no-default-features --example profile [playouts|exact]`; run it under
//! `perf record` to see where the time goes.

use std::sync::Arc;
use std::time::Instant;

use _native::core::dealing::deal;
use _native::core::legal::Engine;
use _native::core::rules::Rules;
use _native::core::state::State;
use _native::rng::PyRandom;
use _native::search::evaluation::{Evaluator, Leaf};
use _native::search::exact::{Asked, Solver};
use _native::search::outcome::Never;
use _native::search::playout::play_counted;

fn main() {
    let what = std::env::args().nth(1).unwrap_or_else(|| "playouts".into());
    let only = std::env::args().nth(2);
    for rules in [Rules::classic(), Rules::megajogos()] {
        if only.as_deref().is_some_and(|o| {
            o != if rules.players == 2 {
                "classic"
            } else {
                "megajogos"
            }
        }) {
            continue;
        }
        let engine = Engine::new(Arc::new(rules.clone()));
        let starts: Vec<State> = (0..200).map(|k| deal(&rules, k)).collect();
        if what == "playouts" {
            for eager in [false, true] {
                let mut rng = PyRandom::from_seed(1);
                let begin = Instant::now();
                let mut plies = 0;
                let mut games = 0;
                for _ in 0..20 {
                    for s in &starts {
                        plies += play_counted(&engine, s, eager, &mut rng, -1).1;
                        games += 1;
                    }
                }
                let dt = begin.elapsed().as_secs_f64();
                println!(
                    "players {} eager {eager}: {:.0} deals/s, {:.0} moves/s",
                    rules.players,
                    games as f64 / dt,
                    plies as f64 / dt
                );
            }
        } else {
            let mut nodes = 0;
            let begin = Instant::now();
            for s in starts
                .iter()
                .cycle()
                .take(if rules.players == 2 { 1000 } else { 40 })
            {
                // A few turns in: play the first moves.
                let mut t = s.clone();
                let mut rng = PyRandom::from_seed(3);
                let mut turned = 0;
                while !t.is_terminal() && turned < 6 {
                    if t.is_chance() {
                        turned += 1;
                    }
                    let moves = engine.legal_moves(&t).unwrap();
                    t = engine.apply(&t, &moves[rng.randrange(moves.len())]);
                }
                if t.is_terminal() {
                    continue;
                }
                let mut solver = Solver::new(Asked::Auto, 2_000_000, 1e9);
                let mut eval = Evaluator::new(Leaf::Melded);
                nodes += solver.solve(&engine, &mut eval, &t, None, &mut Never).nodes;
            }
            let dt = begin.elapsed().as_secs_f64();
            println!(
                "players {}: {nodes} positions, {:.0} positions/s",
                rules.players,
                nodes as f64 / dt
            );
        }
    }
}
