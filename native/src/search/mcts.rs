//! Information-set Monte Carlo tree search from a player's view (`analyzer.search.mcts`): the
//! same determinizations, UCB1 with availability counts, expansions, playouts and backups, drawn
//! from the same generator in the same order, so a seed gives the same tree in both cores.

use std::sync::Arc;

use crate::core::cards::CardSet;
use crate::core::legal::Engine;
use crate::core::moves::Move;
use crate::core::state::State;
use crate::rng::PyRandom;
use crate::search::evaluation::{Evaluator, Fitted, Leaf};
use crate::search::outcome::{Clock, Outcome, Poll};
use crate::search::playout::{eager_move, playout_outcome, random_turn};
use crate::search::sampling::{declined_pairs, sample_world, Impossible, Weights};

/// What a search reports as it goes.
pub trait Hooks: Poll {
    /// Called with (iterations done, iterations planned).
    fn progress(&mut self, _done: usize, _total: usize) {}
}

impl Hooks for crate::search::outcome::Never {}

/// The options of one search (`mcts.search`'s keywords), validated in Python.
#[derive(Clone)]
pub struct Options {
    pub iterations: usize,
    pub c: f64,
    /// The fitted leaf (`leaf="fitted"`); `None`: an eager playout (`leaf="rollout"`).
    pub model: Option<Arc<Fitted>>,
    pub infer: bool,
    /// `method="halving"` (else `"uct"`).
    pub halving: bool,
    /// `opponents="policy"` (else `"search"`).
    pub policy: bool,
    /// `playout="nomeld"`: the searching player never lays a hand-only meld in playouts.
    pub nomeld: bool,
    pub time_limit: Option<f64>,
    /// The move prior's term at the root (`prior_bias` times each root move's prior
    /// probability, aligned with the root moves); `None`: UCB1 alone.
    pub root_bias: Option<Vec<f64>>,
}

/// A root move's statistics (`MoveStats`).
#[derive(Clone, Debug)]
pub struct MoveStats {
    pub mv: Move,
    pub visits: u64,
    pub value: f64,
    pub win: f64,
    pub draw: f64,
}

/// What a search found (`SearchResult`).
#[derive(Clone, Debug)]
pub struct MctsResult {
    pub moves: Vec<MoveStats>,
    pub iterations: usize,
    pub seconds: f64,
    pub interrupted: bool,
    pub depth: f64,
    pub ended: f64,
}

struct Node {
    visits: u64,
    available: u64,
    reward: [f64; 4],
    draws: f64,
    children: Vec<(Move, usize)>,
}

impl Node {
    fn new(available: u64) -> Self {
        Node {
            visits: 0,
            available,
            reward: [0.0; 4],
            draws: 0.0,
            children: Vec::new(),
        }
    }
}

fn child_of(tree: &[Node], node: usize, m: &Move) -> Option<usize> {
    tree[node]
        .children
        .iter()
        .find(|(k, _)| k == m)
        .map(|&(_, i)| i)
}

/// PUCT's prior term (Rosin 2011; Silver et al. 2017) added to UCB1 at the root: `bias` (the
/// weight times the move's prior probability) times sqrt(availability) / (1 + visits).
fn prior_term(bias: f64, available: u64, visits: u64) -> f64 {
    bias * (available as f64).sqrt() / (1.0 + visits as f64)
}

fn rewards(o: &Outcome) -> ([f64; 4], f64) {
    let n = o.players();
    let draw = o.v[n];
    let mut r = [0.0; 4];
    for p in 0..n {
        r[p] = o.v[p] + 0.5 * draw;
    }
    (r, draw)
}

/// IS-MCTS from the view of the player to act (`mcts.search`), over `root_list`.
///
/// # Errors
/// An impossible view (the hidden counts do not fit the unseen cards).
pub fn search(
    engine: &Engine,
    view: &State,
    root_list: &[Move],
    opts: &Options,
    rng: &mut PyRandom,
    weights: Option<&Weights>,
    hooks: &mut dyn Hooks,
) -> Result<MctsResult, Impossible> {
    let me = view.to_act as usize;
    let quiet = if opts.nomeld { me as i32 } else { -1 };
    let pairs = if opts.infer {
        Some(declined_pairs(engine, view, me))
    } else {
        None
    };
    if opts.halving {
        return halving(
            engine,
            view,
            root_list,
            opts,
            rng,
            pairs.as_ref(),
            weights,
            quiet,
            hooks,
        );
    }
    let n = engine.players();
    let mut eval = opts
        .model
        .as_ref()
        .map(|m| Evaluator::new(Leaf::Fitted(Arc::clone(m))));
    let clock = Clock::new(opts.time_limit.unwrap_or(f64::INFINITY));
    let mut tree: Vec<Node> = vec![Node::new(0)];
    let (mut done, mut ended) = (0usize, 0usize);
    let mut interrupted = false;
    let mut depths: Vec<usize> = Vec::new();
    let iterations = opts.iterations;
    while done < iterations {
        if done > 0 && hooks.stop() {
            interrupted = true;
            break;
        }
        if done > 0 && opts.time_limit.is_some() && clock.past() {
            break;
        }
        let mut state = sample_world(engine, view, me, rng, pairs.as_ref(), false, weights)?;
        let mut node = 0usize;
        let mut path: Vec<usize> = Vec::new();
        let mut expanded = false;
        let mut first = true;
        while !state.is_terminal() {
            let step = if state.is_chance() {
                Some(random_turn(engine, &state, rng))
            } else if opts.policy && state.to_act as usize != me {
                let moves = engine.legal_moves(&state).expect("every hand known");
                Some(eager_move(engine, &state, &moves, rng))
            } else {
                None
            };
            if let Some(step) = step {
                let child = match child_of(&tree, node, &step) {
                    Some(c) => c,
                    None => {
                        tree.push(Node::new(0));
                        let c = tree.len() - 1;
                        tree[node].children.push((step, c));
                        c
                    }
                };
                state = engine.apply(&state, &step);
                node = child;
                continue;
            }
            let listed;
            let moves: &[Move] = if first {
                root_list
            } else {
                listed = engine.legal_moves(&state).expect("every hand known");
                &listed
            };
            let at_root = first;
            first = false;
            let p = state.to_act as usize;
            let mut untried: Vec<Move> = Vec::new();
            for m in moves {
                match child_of(&tree, node, m) {
                    None => untried.push(*m),
                    Some(c) => tree[c].available += 1,
                }
            }
            if !untried.is_empty() {
                let m = untried[rng.randrange(untried.len())];
                tree.push(Node::new(1));
                let c = tree.len() - 1;
                tree[node].children.push((m, c));
                path.push(c);
                state = engine.apply(&state, &m);
                expanded = true;
                break;
            }
            let mut best = -1.0f64;
            let mut chosen: Vec<Move> = Vec::new();
            let bias = if at_root {
                opts.root_bias.as_deref()
            } else {
                None
            };
            for (i, m) in moves.iter().enumerate() {
                let ch = &tree[child_of(&tree, node, m).expect("tried")];
                let visits = ch.visits as f64;
                let mut score =
                    ch.reward[p] / visits + opts.c * ((ch.available as f64).ln() / visits).sqrt();
                if let Some(b) = bias {
                    score += prior_term(b[i], ch.available, ch.visits);
                }
                if score > best + 1e-12 {
                    best = score;
                    chosen.clear();
                    chosen.push(*m);
                } else if score > best - 1e-12 {
                    chosen.push(*m);
                }
            }
            let m = if chosen.len() == 1 {
                chosen[0]
            } else {
                chosen[rng.randrange(chosen.len())]
            };
            node = child_of(&tree, node, &m).expect("tried");
            path.push(node);
            state = engine.apply(&state, &m);
        }
        depths.push(path.len());
        let outcome = if state.is_terminal() {
            ended += 1;
            Outcome::of_end(&state, n)
        } else if let (Some(e), true) = (eval.as_mut(), expanded) {
            e.evaluate(engine, &state)
        } else {
            playout_outcome(engine, &state, true, rng, quiet)
        };
        let (reward, draw) = rewards(&outcome);
        for &edge in &path {
            let e = &mut tree[edge];
            e.visits += 1;
            e.draws += draw;
            for q in 0..n {
                e.reward[q] += reward[q];
            }
        }
        done += 1;
        if done.is_multiple_of(50) || done == iterations {
            hooks.progress(done, iterations);
        }
    }
    if !done.is_multiple_of(50) && done != iterations {
        hooks.progress(done, iterations);
    }
    let mut stats: Vec<MoveStats> = Vec::with_capacity(root_list.len());
    for m in root_list {
        match child_of(&tree, 0, m) {
            Some(c) if tree[c].visits > 0 => {
                let ch = &tree[c];
                let visits = ch.visits as f64;
                let draw = ch.draws / visits;
                let value = ch.reward[me] / visits;
                stats.push(MoveStats {
                    mv: *m,
                    visits: ch.visits,
                    value,
                    win: value - 0.5 * draw,
                    draw,
                });
            }
            _ => stats.push(MoveStats {
                mv: *m,
                visits: 0,
                value: 0.0,
                win: 0.0,
                draw: 0.0,
            }),
        }
    }
    let mut order: Vec<usize> = (0..stats.len()).collect();
    order.sort_by(|&a, &b| {
        stats[b]
            .visits
            .cmp(&stats[a].visits)
            .then(stats[b].value.partial_cmp(&stats[a].value).expect("finite"))
            .then(a.cmp(&b))
    });
    depths.sort_unstable();
    Ok(MctsResult {
        moves: order.iter().map(|&i| stats[i].clone()).collect(),
        iterations: done,
        seconds: clock.elapsed(),
        interrupted,
        depth: depths.get(depths.len() / 2).map_or(0.0, |&d| d as f64),
        ended: if done > 0 {
            ended as f64 / done as f64
        } else {
            0.0
        },
    })
}

/// `method="halving"`: sequential halving over the root moves with common random numbers.
#[allow(clippy::too_many_arguments)]
fn halving(
    engine: &Engine,
    view: &State,
    root_list: &[Move],
    opts: &Options,
    rng: &mut PyRandom,
    pairs: Option<&[Option<Vec<CardSet>>; 4]>,
    weights: Option<&Weights>,
    quiet: i32,
    hooks: &mut dyn Hooks,
) -> Result<MctsResult, Impossible> {
    let me = view.to_act as usize;
    let clock = Clock::new(opts.time_limit.unwrap_or(f64::INFINITY));
    let k = root_list.len();
    let rounds = ((k as f64).log2().ceil() as usize).max(1);
    let iterations = opts.iterations;
    let mut visits = vec![0u64; k];
    let mut reward = vec![0.0f64; k];
    let mut draws = vec![0.0f64; k];
    let mut ended_at = vec![0usize; k];
    let mut alive: Vec<usize> = (0..k).collect();
    let mut done = 0usize;
    let mut interrupted = false;
    let timed = opts.time_limit.is_some();
    for r in 0..rounds {
        if alive.len() == 1 && r > 0 {
            break;
        }
        let budget = if r == rounds - 1 {
            iterations - done.min(iterations)
        } else {
            iterations / rounds
        };
        let mut worlds = budget / alive.len();
        if worlds < 1 {
            if r > 0 {
                break;
            }
            worlds = 1;
        }
        for _ in 0..worlds {
            if done > 0 && hooks.stop() {
                interrupted = true;
                break;
            }
            if done > 0 && timed && clock.past() {
                break;
            }
            let world = sample_world(engine, view, me, rng, pairs, true, weights)?;
            let seed = rng.randbelow(1u64 << 62);
            for &i in &alive {
                let state = engine.apply(&world, &root_list[i]);
                let mut local = PyRandom::from_seed(u128::from(seed));
                let outcome = playout_outcome(engine, &state, true, &mut local, quiet);
                let (rewards, draw) = rewards(&outcome);
                visits[i] += 1;
                reward[i] += rewards[me];
                draws[i] += draw;
                done += 1;
                if done.is_multiple_of(50) {
                    hooks.progress(done.min(iterations), iterations);
                }
            }
        }
        if interrupted || (timed && clock.past()) {
            break;
        }
        if r < rounds - 1 {
            alive.sort_by(|&a, &b| {
                let va = -reward[a] / visits[a].max(1) as f64;
                let vb = -reward[b] / visits[b].max(1) as f64;
                va.partial_cmp(&vb).expect("finite").then(a.cmp(&b))
            });
            let keep = alive.len().div_ceil(2);
            for &i in &alive[keep..] {
                ended_at[i] = r;
            }
            alive.truncate(keep);
        }
    }
    for &i in &alive {
        ended_at[i] = rounds;
    }
    hooks.progress(done.min(iterations), iterations);
    let stats: Vec<MoveStats> = (0..k)
        .map(|i| {
            if visits[i] == 0 {
                MoveStats {
                    mv: root_list[i],
                    visits: 0,
                    value: 0.0,
                    win: 0.0,
                    draw: 0.0,
                }
            } else {
                let v = visits[i] as f64;
                let draw = draws[i] / v;
                let value = reward[i] / v;
                MoveStats {
                    mv: root_list[i],
                    visits: visits[i],
                    value,
                    win: value - 0.5 * draw,
                    draw,
                }
            }
        })
        .collect();
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| {
        ended_at[b]
            .cmp(&ended_at[a])
            .then(stats[b].visits.cmp(&stats[a].visits))
            .then(stats[b].value.partial_cmp(&stats[a].value).expect("finite"))
            .then(a.cmp(&b))
    });
    Ok(MctsResult {
        moves: order.iter().map(|&i| stats[i].clone()).collect(),
        iterations: done,
        seconds: clock.elapsed(),
        interrupted,
        depth: 1.0,
        ended: 0.0,
    })
}
