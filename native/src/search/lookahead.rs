//! Depth-limited search with a leaf evaluation (`analyzer.search.lookahead.Lookahead`):
//! iterative deepening in offers, alpha-beta for two players (or paranoid), max-n for more,
//! expectimax over the stock when its order is unknown.  Node for node as Python searches, so
//! that both cores give the same values, depths and node counts.

use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::core::cards::CardSet;
use crate::core::legal::Engine;
use crate::core::moves::Move;
use crate::core::offers::Phase;
use crate::core::state::{Key, State};
use crate::rng::PyRandom;
use crate::search::evaluation::Evaluator;
use crate::search::outcome::{Clock, Outcome, Poll, Stop};
use crate::search::playout::eager_move;

/// The values of the candidate moves (`LookaheadResult`).
#[derive(Clone, Debug)]
pub struct LookaheadResult {
    pub outcomes: Vec<Outcome>,
    pub depth: i32,
    pub exact: bool,
    pub nodes: i64,
    pub stopped_by: Option<Stop>,
}

/// A table key: the position (with the stock order when `spread` varies it) and the depth left.
#[derive(Clone, PartialEq, Eq, Hash)]
struct PosKey {
    key: Key,
    stock: Option<Vec<u8>>,
}

struct Expansion {
    moves: Vec<Move>,
    children: Vec<(State, i32)>,
    outs: Vec<usize>,
    takes: Vec<usize>,
    rest: Vec<usize>,
}

struct OutOfBudget;

/// A table entry: the lower bound and the outcome of the line that set it, the upper and its.
type Bounds = (f64, Option<Outcome>, f64, Option<Outcome>);

/// The options of a lookahead (validated in Python).
#[derive(Clone)]
pub struct Options {
    /// Max-n (else alpha-beta: two players, or paranoid).
    pub maxn: bool,
    pub max_nodes: i64,
    pub time_limit: f64,
    pub max_depth: i32,
    pub spread: usize,
    /// `opponents="policy"`: the other players play the eager policy's move.
    pub policy: bool,
}

/// A lookahead searcher: the history table persists across [`Lookahead::values`] calls.
pub struct Lookahead {
    pub opts: Options,
    pub history: FxHashMap<Move, i64>,
    pub leaves: i64,
    table: FxHashMap<(PosKey, i32), Bounds>,
    best: FxHashMap<PosKey, Move>,
    leaf_values: FxHashMap<PosKey, Outcome>,
    expanded: FxHashMap<PosKey, Arc<Expansion>>,
    inexact: FxHashSet<(PosKey, i32)>,
    nodes: i64,
    limit: i64,
    root: usize,
    estimates: i64,
    stopped_by: Option<Stop>,
    clock: Clock,
    zero_rng: PyRandom,
}

fn boundary(s: &State) -> bool {
    if s.phase == Phase::Turn {
        return true;
    }
    match s.centre {
        Some(c) => s.phase == Phase::Offer && c.ndeclined == 0 && c.forced.is_none(),
        None => false,
    }
}

/// The card the greedy bot gives in the exchange: least useful to the rest of the hand (R9).
fn greedy_give(engine: &Engine, s: &State) -> Move {
    let hand = s.hands[s.to_act as usize];
    let unseen = !s.table_mask(engine.players()) - hand;
    let mut best: Option<(i64, u8)> = None;
    for c in hand {
        let rest = hand - CardSet::card(c);
        let mut score = 0i64;
        for &meld in &engine.rules.catalog {
            if meld.contains(c) && meld.len() == 3 {
                let others = meld - CardSet::card(c);
                if others.is_subset(rest | unseen) {
                    score += 1 + 2 * i64::from((others & rest).len());
                }
            }
        }
        if best.is_none_or(|(low, _)| score < low) {
            best = Some((score, c));
        }
    }
    Move::Give(best.expect("a hand to give from").1)
}

impl Lookahead {
    pub fn new(opts: Options) -> Self {
        Lookahead {
            opts,
            history: FxHashMap::default(),
            leaves: 0,
            table: FxHashMap::default(),
            best: FxHashMap::default(),
            leaf_values: FxHashMap::default(),
            expanded: FxHashMap::default(),
            inexact: FxHashSet::default(),
            nodes: 0,
            limit: 0,
            root: 0,
            estimates: 0,
            stopped_by: None,
            clock: Clock::new(0.0),
            zero_rng: PyRandom::from_seed(0),
        }
    }

    /// The outcome vector of each of `moves` played in `state` (`Lookahead.values`).
    pub fn values(
        &mut self,
        engine: &Engine,
        eval: &mut Evaluator,
        state: &State,
        moves: &[Move],
        poll: &mut dyn Poll,
    ) -> LookaheadResult {
        self.table.clear();
        self.best.clear();
        self.leaf_values.clear();
        self.inexact.clear();
        self.expanded.clear();
        self.nodes = 0;
        self.limit = self.opts.max_nodes;
        self.clock = Clock::new(self.opts.time_limit);
        self.root = state.to_act as usize;
        self.stopped_by = None;
        let children: Vec<State> = moves.iter().map(|m| engine.apply(state, m)).collect();
        let mut best: Vec<Outcome> = children
            .iter()
            .map(|c| self.static_value(engine, eval, c))
            .collect();
        let mut depth_done = -1;
        let mut exact = children.iter().all(State::is_terminal);
        let mut depth = 0;
        while !exact && depth <= self.opts.max_depth {
            let before = self.estimates;
            let mut found = Vec::with_capacity(children.len());
            let mut cut = false;
            for c in &children {
                match self.value(engine, eval, c, depth, poll) {
                    Ok(v) => found.push(v),
                    Err(OutOfBudget) => {
                        cut = true;
                        break;
                    }
                }
            }
            if cut {
                break;
            }
            best = found;
            depth_done = depth;
            exact = self.estimates == before;
            depth += 1;
        }
        LookaheadResult {
            outcomes: best,
            depth: depth_done,
            exact,
            nodes: self.nodes,
            stopped_by: self.stopped_by,
        }
    }

    fn static_value(&mut self, engine: &Engine, eval: &mut Evaluator, s: &State) -> Outcome {
        let n = engine.players();
        if s.is_terminal() {
            return Outcome::of_end(s, n);
        }
        let mut state = s.clone();
        while !boundary(&state) {
            // Finish the offer cheaply: the evaluation is fitted on offer boundaries only.
            let moves = engine.legal_moves(&state).expect("every hand known");
            let m = moves
                .iter()
                .find(|m| **m == Move::Pass)
                .copied()
                .unwrap_or(moves[moves.len() - 1]);
            state = engine.apply(&state, &m);
            if state.is_terminal() {
                return Outcome::of_end(&state, n);
            }
        }
        eval.evaluate(engine, &state)
    }

    fn key(&self, engine: &Engine, s: &State) -> PosKey {
        let stock = if self.opts.spread > 1 && s.stock_known {
            Some(s.stock_cards().collect())
        } else {
            None
        };
        PosKey {
            key: s.key(engine.players()),
            stock,
        }
    }

    fn evaluate(&mut self, engine: &Engine, eval: &mut Evaluator, s: &State) -> Outcome {
        self.leaves += 1;
        self.estimates += 1;
        let key = self.key(engine, s);
        if let Some(v) = self.leaf_values.get(&key) {
            return *v;
        }
        let v = eval.evaluate(engine, s);
        self.leaf_values.insert(key, v);
        v
    }

    fn expand(&mut self, engine: &Engine, pos: &PosKey, s: &State) -> Arc<Expansion> {
        if let Some(hit) = self.expanded.get(pos) {
            return Arc::clone(hit);
        }
        let mut moves = engine.legal_moves(s).expect("every hand known");
        if s.phase == Phase::Exchange && s.to_act as usize != self.root {
            moves = vec![greedy_give(engine, s)];
        } else if self.opts.policy && s.to_act as usize != self.root && moves.len() > 1 {
            let mut rng = self.zero_rng.clone();
            moves = vec![eager_move(engine, s, &moves, &mut rng)];
        }
        let children: Vec<(State, i32)> = moves
            .iter()
            .map(|m| {
                let child = engine.apply(s, m);
                let step = i32::from(boundary(&child) && child.phase != Phase::Turn);
                (child, step)
            })
            .collect();
        let (mut outs, mut takes, mut rest) = (Vec::new(), Vec::new(), Vec::new());
        for (i, m) in moves.iter().enumerate() {
            match m {
                Move::Take(..) | Move::LayIn(..) => {
                    if m.goes_out() {
                        outs.push(i);
                    } else {
                        takes.push(i);
                    }
                }
                _ => rest.push(i),
            }
        }
        let hit = Arc::new(Expansion {
            moves,
            children,
            outs,
            takes,
            rest,
        });
        self.expanded.insert(pos.clone(), Arc::clone(&hit));
        hit
    }

    fn order(&self, exp: &Expansion, hint: Option<&Move>) -> Vec<usize> {
        let mut takes = exp.takes.clone();
        if !self.history.is_empty() && takes.len() > 1 {
            takes.sort_by_key(|&i| -self.history.get(&exp.moves[i]).copied().unwrap_or(0));
        }
        let mut order: Vec<usize> = exp
            .outs
            .iter()
            .chain(&takes)
            .chain(&exp.rest)
            .copied()
            .collect();
        if let Some(hint) = hint {
            let k = exp
                .moves
                .iter()
                .position(|m| m == hint)
                .expect("the hint is a legal move");
            order.retain(|&i| i != k);
            order.insert(0, k);
        }
        order
    }

    fn hit(&mut self, key: &(PosKey, i32), v: Outcome) -> Outcome {
        if self.inexact.contains(key) {
            self.estimates += 1;
        }
        v
    }

    fn store(&mut self, key: (PosKey, i32), entry: Bounds, before: i64) {
        if self.estimates > before {
            self.inexact.insert(key.clone());
        }
        self.table.insert(key, entry);
    }

    fn tick(&mut self, poll: &mut dyn Poll) -> Result<(), OutOfBudget> {
        self.nodes += 1;
        if self.nodes >= self.limit {
            self.stopped_by = Some(Stop::Positions);
            return Err(OutOfBudget);
        }
        if self.nodes & 255 == 0 {
            if self.clock.past() {
                self.stopped_by = Some(Stop::Time);
                return Err(OutOfBudget);
            }
            if poll.stop() {
                self.stopped_by = Some(Stop::Interrupted);
                return Err(OutOfBudget);
            }
        }
        Ok(())
    }

    fn value(
        &mut self,
        engine: &Engine,
        eval: &mut Evaluator,
        s: &State,
        depth: i32,
        poll: &mut dyn Poll,
    ) -> Result<Outcome, OutOfBudget> {
        if self.opts.maxn {
            return self.maxn(engine, eval, s, depth, poll);
        }
        Ok(self.alphabeta(engine, eval, s, depth, -2.0, 2.0, poll)?.1)
    }

    /// Walk through forced steps; the position, the depth left and, at a leaf, its outcome.
    fn leaf(
        &mut self,
        engine: &Engine,
        eval: &mut Evaluator,
        s: &State,
        mut depth: i32,
        poll: &mut dyn Poll,
    ) -> Result<(State, i32, Option<Outcome>), OutOfBudget> {
        let mut state = s.clone();
        loop {
            if state.phase == Phase::Over {
                let o = Outcome::of_end(&state, engine.players());
                return Ok((state, depth, Some(o)));
            }
            if state.phase == Phase::Turn {
                if depth <= 0 {
                    let o = self.evaluate(engine, eval, &state);
                    return Ok((state, depth, Some(o)));
                }
                if !state.stock_known || (self.opts.spread > 1 && state.stock_count > 1) {
                    let o = self.chance(engine, eval, &state, depth, poll)?;
                    return Ok((state, depth, Some(o)));
                }
                let turn = Move::Turn(state.stock_top());
                state = engine.apply(&state, &turn);
                depth -= 1;
                continue;
            }
            return Ok((state, depth, None));
        }
    }

    fn branches(&self, engine: &Engine, s: &State) -> Vec<(State, f64)> {
        if !s.stock_known {
            let cards = engine.chance_cards(s).expect("every hand known");
            let p = 1.0 / cards.len() as f64;
            return cards
                .into_iter()
                .map(|c| (engine.apply(s, &Move::Turn(c)), p))
                .collect();
        }
        let stock: Vec<u8> = s.stock_cards().collect();
        let k = self.opts.spread.min(stock.len());
        let p = 1.0 / k as f64;
        (0..k)
            .map(|i| {
                let card = stock[i];
                let mut order: Vec<u8> = Vec::with_capacity(stock.len());
                order.push(card);
                order.extend(stock[..i].iter().copied());
                order.extend(stock[i + 1..].iter().copied());
                let mut t = s.clone();
                for (j, &c) in order.iter().rev().enumerate() {
                    t.stock[j] = c;
                }
                (engine.apply(&t, &Move::Turn(card)), p)
            })
            .collect()
    }

    fn chance(
        &mut self,
        engine: &Engine,
        eval: &mut Evaluator,
        s: &State,
        depth: i32,
        poll: &mut dyn Poll,
    ) -> Result<Outcome, OutOfBudget> {
        self.tick(poll)?;
        let key = (self.key(engine, s), depth);
        if let Some(&(lower, lvec, upper, _)) = self.table.get(&key) {
            if lower == upper {
                return Ok(self.hit(&key, lvec.expect("an exact entry has its outcome")));
            }
        }
        let before = self.estimates;
        let n = engine.players();
        let mut total = Outcome::zeros(n);
        for (child, p) in self.branches(engine, s) {
            let vec = self.value(engine, eval, &child, depth - 1, poll)?;
            for k in 0..=n {
                total.v[k] += p * vec.v[k];
            }
        }
        let v = total.utility(self.root);
        self.store(key, (v, Some(total), v, Some(total)), before);
        Ok(total)
    }

    #[allow(clippy::too_many_arguments)]
    fn alphabeta(
        &mut self,
        engine: &Engine,
        eval: &mut Evaluator,
        s: &State,
        depth: i32,
        alpha: f64,
        beta: f64,
        poll: &mut dyn Poll,
    ) -> Result<(f64, Outcome), OutOfBudget> {
        let (state, depth, done) = self.leaf(engine, eval, s, depth, poll)?;
        let root = self.root;
        if let Some(o) = done {
            return Ok((o.utility(root), o));
        }
        if boundary(&state) && depth <= 0 {
            let v = self.evaluate(engine, eval, &state);
            return Ok((v.utility(root), v));
        }
        self.tick(poll)?;
        let pos = self.key(engine, &state);
        let key = (pos.clone(), depth);
        let (lower, lvec, upper, uvec) = self
            .table
            .get(&key)
            .copied()
            .unwrap_or((-2.0, None, 2.0, None));
        if lower == upper || lower >= beta {
            let v = lvec.expect("a stored bound has its outcome");
            return Ok((lower, self.hit(&key, v)));
        }
        if upper <= alpha {
            let v = uvec.expect("a stored bound has its outcome");
            return Ok((upper, self.hit(&key, v)));
        }
        let before = self.estimates;
        let a0 = if alpha > lower { alpha } else { lower };
        let b0 = if beta < upper { beta } else { upper };
        let (mut a, mut b) = (a0, b0);
        let maximizing = state.to_act as usize == root;
        let mut value = if maximizing { -3.0 } else { 3.0 };
        let mut best_vec: Option<Outcome> = None;
        let mut best_move: Option<Move> = None;
        let exp = self.expand(engine, &pos, &state);
        let hint = self.best.get(&pos).copied();
        for i in self.order(&exp, hint.as_ref()) {
            let m = exp.moves[i];
            let (child, step) = &exp.children[i];
            let (v, vec) = self.alphabeta(engine, eval, child, depth - step, a, b, poll)?;
            if (maximizing && v > value) || (!maximizing && v < value) {
                value = v;
                best_vec = Some(vec);
                best_move = Some(m);
            }
            if maximizing {
                if value > a {
                    a = value;
                }
            } else if value < b {
                b = value;
            }
            if a >= b {
                *self.history.entry(m).or_insert(0) += i64::from((depth + 1) * (depth + 1));
                break;
            }
        }
        if let Some(m) = best_move {
            self.best.insert(pos, m);
        }
        if value <= a0 {
            self.store(key, (lower, lvec, value, best_vec), before);
        } else if value >= b0 {
            self.store(key, (value, best_vec, upper, uvec), before);
        } else {
            self.store(key, (value, best_vec, value, best_vec), before);
        }
        Ok((
            value,
            best_vec.expect("a position with moves has a best line"),
        ))
    }

    fn maxn(
        &mut self,
        engine: &Engine,
        eval: &mut Evaluator,
        s: &State,
        depth: i32,
        poll: &mut dyn Poll,
    ) -> Result<Outcome, OutOfBudget> {
        let (state, depth, done) = self.leaf(engine, eval, s, depth, poll)?;
        if let Some(o) = done {
            return Ok(o);
        }
        if boundary(&state) && depth <= 0 {
            return Ok(self.evaluate(engine, eval, &state));
        }
        self.tick(poll)?;
        let pos = self.key(engine, &state);
        let key = (pos.clone(), depth);
        if let Some(&(_, v, _, _)) = self.table.get(&key) {
            return Ok(self.hit(&key, v.expect("a stored value")));
        }
        let before = self.estimates;
        let player = state.to_act as usize;
        let mut best: Option<Outcome> = None;
        let mut best_move: Option<Move> = None;
        let mut best_i = usize::MAX;
        let exp = self.expand(engine, &pos, &state);
        let hint = self.best.get(&pos).copied();
        for i in self.order(&exp, hint.as_ref()) {
            let m = exp.moves[i];
            let (child, step) = &exp.children[i];
            let vec = self.maxn(engine, eval, child, depth - step, poll)?;
            let better = match best {
                None => true,
                Some(b) => {
                    // Equal results for the mover: the move listed first by the engine.
                    let gain = vec.utility(player) - b.utility(player);
                    gain > 1e-12 || (gain > -1e-12 && i < best_i)
                }
            };
            if better {
                best = Some(vec);
                best_move = Some(m);
                best_i = i;
                if vec.v[player] >= 1.0 - 1e-12 {
                    break; // he wins for sure (R20)
                }
            }
        }
        let best = best.expect("a position with moves");
        let best_move = best_move.expect("a position with moves");
        *self.history.entry(best_move).or_insert(0) += i64::from((depth + 1) * (depth + 1));
        self.store(key, (0.0, Some(best), 0.0, Some(best)), before);
        self.best.insert(pos, best_move);
        Ok(best)
    }
}
