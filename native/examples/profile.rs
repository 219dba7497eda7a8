//! Time the native core alone (no Python): eager and random playouts and exact solves of dealt
//! positions.  `cargo run --release --no-default-features --example profile [playouts|exact]`;
//! run it under `perf record` to see where the time goes.

use std::sync::Arc;
use std::time::Instant;

use _native::core::cards::bit;
use _native::core::legal::Engine;
use _native::core::melds::MeldList;
use _native::core::offers::Phase;
use _native::core::rules::{Rules, MAX_PLAYERS};
use _native::core::state::{Paid, State};
use _native::rng::PyRandom;
use _native::search::evaluation::{Evaluator, Leaf};
use _native::search::exact::{Asked, Solver};
use _native::search::outcome::Never;
use _native::search::playout::play_counted;

fn deal(rules: &Rules, seed: u128) -> State {
    let mut rng = PyRandom::from_seed(seed);
    let mut deck: Vec<u8> = (0..40).collect();
    rng.shuffle(&mut deck);
    let n = rules.players;
    let h = rules.hand_size;
    let mut hands = [0u64; MAX_PLAYERS];
    let mut counts = [0u8; MAX_PLAYERS];
    for p in 0..n {
        for &c in &deck[p * h..(p + 1) * h] {
            hands[p] |= bit(c);
        }
        counts[p] = h as u8;
    }
    let rest = &deck[n * h..];
    let mut stock = [0u8; 40];
    for (i, &c) in rest.iter().rev().enumerate() {
        stock[i] = c;
    }
    State {
        dealer: 0,
        hands,
        hidden: 0,
        counts,
        layouts: [MeldList::new(); MAX_PLAYERS],
        melded: [0; MAX_PLAYERS],
        stock,
        stock_known: true,
        stock_count: rest.len() as u8,
        dead: [0; 40],
        ndead: 0,
        dead_mask: 0,
        centre: None,
        to_act: 1,
        phase: Phase::Turn,
        winner: None,
        gifts: None,
        gave: None,
        paid: Paid::default(),
    }
}

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
