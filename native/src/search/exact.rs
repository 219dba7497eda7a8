//! Exact game-tree search (`analyzer.search.exact.Solver`): double-dummy alpha-beta for two
//! players (or paranoid), max-n for more, expectimax over the stock cards when their order is
//! unknown, with transposition tables, the history heuristic and the anytime answer of a search
//! cut by its budget.  Node for node as Python searches: the same values, principal variations
//! and node counts.
//!
//! The tables are bounded: past [`TABLE_CAP`] entries a table stores nothing more (the search
//! stays exact, it only revisits more); the Python engine applies the same cap.

use std::time::Instant;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::core::legal::Engine;
use crate::core::moves::Move;
use crate::core::offers::Phase;
use crate::core::state::{Key, State};
use crate::search::evaluation::Evaluator;
use crate::search::lookahead::{Lookahead, Options as LookOptions};
use crate::search::outcome::{Outcome, Poll, Stop};

/// The most entries of each transposition table by default (the Python caller passes its own,
/// `analyzer.search.exact.TABLE_CAP`): 1,500,000, about 130 bytes each, within 2^21 slots.
pub const TABLE_CAP: usize = 1_500_000;

/// The search a solve ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Minimax,
    Maxn,
    Paranoid,
    Expectimax,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Minimax => "minimax",
            Mode::Maxn => "maxn",
            Mode::Paranoid => "paranoid",
            Mode::Expectimax => "expectimax",
        }
    }
}

/// The asked mode: `"auto"`, `"maxn"`, `"paranoid"` (or `"minimax"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    Auto,
    Maxn,
    Paranoid,
    Minimax,
}

/// The answer of a solve (`SearchResult`).
#[derive(Clone, Debug)]
pub struct SolveResult {
    pub outcome: Outcome,
    pub winner: Option<u8>,
    pub values: Vec<f64>,
    pub pv: Vec<Move>,
    pub nodes: i64,
    pub proven: bool,
    pub seconds: f64,
    pub mode: Mode,
    pub stopped_by: Option<Stop>,
    pub lower: f64,
    pub upper: f64,
}

/// A reusable searcher with its tables (`Solver`).
pub struct Solver {
    pub asked: Asked,
    pub max_nodes: i64,
    pub time_limit: f64,
    pub table_cap: usize,
    table: FxHashMap<Key, (Outcome, Option<Move>, bool)>,
    bounds: FxHashMap<Key, (f64, f64, Option<Move>)>,
    history: FxHashMap<Move, i64>,
    deal: Option<Option<Vec<u8>>>,
    nodes: i64,
    deadline: Instant,
    limit: i64,
    exhausted: bool,
    root_player: usize,
    stopped_by: Option<Stop>,
    root_moves: Vec<(Move, Outcome, bool)>,
}

fn melded_after(engine: &Engine, m: &Move) -> u32 {
    m.layout().map_or(0, |l| l.cards(&engine.rules).len())
}

impl Solver {
    pub fn new(asked: Asked, max_nodes: i64, time_limit: f64) -> Self {
        Solver {
            asked,
            max_nodes,
            time_limit,
            table_cap: TABLE_CAP,
            table: FxHashMap::default(),
            bounds: FxHashMap::default(),
            history: FxHashMap::default(),
            deal: None,
            nodes: 0,
            deadline: Instant::now(),
            limit: 0,
            exhausted: false,
            root_player: 0,
            stopped_by: None,
            root_moves: Vec::new(),
        }
    }

    /// The entries held by the tables (for memory reports).
    pub fn entries(&self) -> usize {
        self.table.len() + self.bounds.len()
    }

    fn mode(&self, engine: &Engine, s: &State) -> Mode {
        if !s.stock_known && s.stock_count > 0 {
            return Mode::Expectimax;
        }
        match self.asked {
            Asked::Paranoid => Mode::Paranoid,
            Asked::Maxn => Mode::Maxn,
            _ if engine.players() == 2 => Mode::Minimax,
            _ => Mode::Maxn,
        }
    }

    /// Clear the tables unless `s` belongs to the deal they were built for.
    fn same_deal(&mut self, s: &State) {
        let stock: Option<Vec<u8>> = if s.stock_known {
            Some(s.stock_cards().collect())
        } else {
            None
        };
        if let (Some(Some(old)), Some(new)) = (&self.deal, &stock) {
            if old.len() >= new.len() && old[old.len() - new.len()..] == new[..] {
                return;
            }
        }
        self.table.clear();
        self.bounds.clear();
        self.history.clear();
        self.deal = Some(stock);
    }

    fn start_budget(&mut self) {
        self.nodes = 0;
        self.limit = self.max_nodes;
        self.deadline =
            Instant::now() + std::time::Duration::from_secs_f64(self.time_limit.clamp(0.0, 1e9));
        self.exhausted = false;
        self.stopped_by = None;
    }

    fn out_of_time(&mut self, poll: &mut dyn Poll) -> bool {
        if Instant::now() > self.deadline {
            self.exhausted = true;
            self.stopped_by = Some(Stop::Time);
            return true;
        }
        if poll.stop() {
            self.exhausted = true;
            self.stopped_by = Some(Stop::Interrupted);
            return true;
        }
        false
    }

    fn tick(&mut self, poll: &mut dyn Poll) -> bool {
        if self.exhausted {
            return true;
        }
        self.nodes += 1;
        if self.nodes >= self.limit {
            self.exhausted = true;
            self.stopped_by = Some(Stop::Positions);
            return true;
        }
        self.nodes & 1023 == 0 && self.out_of_time(poll)
    }

    fn tick_many(&mut self, steps: i64, poll: &mut dyn Poll) -> bool {
        let before = self.nodes;
        self.nodes += steps;
        before >> 10 != self.nodes >> 10 && self.out_of_time(poll)
    }

    fn heuristic(&self, engine: &Engine, eval: &mut Evaluator, s: &State) -> Outcome {
        eval.evaluate(engine, s)
    }

    fn cheap(&self, engine: &Engine, eval: &mut Evaluator, s: &State) -> Outcome {
        if s.is_terminal() {
            Outcome::of_end(s, engine.players())
        } else {
            self.heuristic(engine, eval, s)
        }
    }

    /// Search `s` to the end of the deal within the budget (`Solver.solve`); `player` is whose
    /// result it is about (the player to act when `None`).  Every hand must be known.
    pub fn solve(
        &mut self,
        engine: &Engine,
        eval: &mut Evaluator,
        s: &State,
        player: Option<usize>,
        poll: &mut dyn Poll,
    ) -> SolveResult {
        let mode = self.mode(engine, s);
        self.same_deal(s);
        let start = Instant::now();
        self.start_budget();
        let root_player = player.unwrap_or(s.to_act as usize);
        if root_player != self.root_player {
            self.bounds.clear();
        }
        self.root_player = root_player;
        self.root_moves.clear();
        let n = engine.players();
        let root = root_player;
        let (mut lower, mut upper) = (-1.0, 1.0);
        let pv: Vec<Move>;
        let outcome: Outcome;
        if matches!(mode, Mode::Minimax | Mode::Paranoid) {
            let mut value = self.alphabeta(engine, eval, s, 0.0, 1.0, poll);
            if !self.exhausted {
                if value >= 1.0 {
                    (lower, upper) = (1.0, 1.0);
                } else {
                    (lower, upper) = (-1.0, 0.0);
                    value = self.alphabeta(engine, eval, s, -1.0, 0.0, poll);
                    if !self.exhausted {
                        (lower, upper) = if value >= 0.0 {
                            (0.0, 0.0)
                        } else {
                            (-1.0, -1.0)
                        };
                    }
                }
            }
            if !self.exhausted {
                let mut o = self.outcome_of_value(n, value);
                pv = self.principal_variation(engine, s, 400, false);
                let mut end = s.clone();
                for m in &pv {
                    end = engine.apply(&end, m);
                }
                if end.is_terminal() {
                    o = Outcome::of_end(&end, n);
                }
                outcome = o;
            } else {
                let (o, line) = self.estimate(engine, eval, s, start, poll);
                outcome = o;
                pv = line;
            }
        } else {
            let mut o = self.maxn(engine, eval, s, true, None, poll).0;
            if self.exhausted && !self.root_moves.is_empty() {
                // Anytime: the best root move among proven values and estimates.
                let me = (!s.is_chance()).then_some(s.to_act as usize);
                let mut best = 0;
                for (k, r) in self.root_moves.iter().enumerate() {
                    if utility_at(&r.1, me) > utility_at(&self.root_moves[best].1, me) {
                        best = k;
                    }
                }
                o = self.root_moves[best].1;
                pv = vec![self.root_moves[best].0];
                let proven: Vec<f64> = self
                    .root_moves
                    .iter()
                    .filter(|r| r.2)
                    .map(|r| r.1.utility(root))
                    .collect();
                if !proven.is_empty() {
                    lower =
                        proven
                            .iter()
                            .copied()
                            .fold(f64::NEG_INFINITY, |a, b| if b > a { b } else { a });
                }
            } else {
                pv = self.principal_variation(engine, s, 400, mode == Mode::Expectimax);
            }
            if !self.exhausted {
                lower = o.utility(root);
                upper = lower;
            }
            outcome = o;
        }
        let values: Vec<f64> = (0..n).map(|p| outcome.utility(p)).collect();
        let proven = !self.exhausted;
        let winner = if proven {
            (0..n).find(|&p| outcome.v[p] > 1.0 - 1e-9).map(|p| p as u8)
        } else {
            None
        };
        SolveResult {
            outcome,
            winner,
            values,
            pv,
            nodes: self.nodes,
            proven,
            seconds: start.elapsed().as_secs_f64(),
            mode,
            stopped_by: self.stopped_by,
            lower,
            upper,
        }
    }

    /// The best answer so far when the two-sided search ran out: a short lookahead with the leaf
    /// evaluation picks the move and its estimate (`Solver._estimate`).
    fn estimate(
        &mut self,
        engine: &Engine,
        eval: &mut Evaluator,
        s: &State,
        start: Instant,
        poll: &mut dyn Poll,
    ) -> (Outcome, Vec<Move>) {
        let mut prefix = Vec::new();
        let mut state = s.clone();
        let mut moves: Vec<Move> = Vec::new();
        while !state.is_terminal() {
            moves = engine.legal_moves(&state).expect("every hand known");
            if moves.len() != 1 {
                break;
            }
            prefix.push(moves[0]);
            state = engine.apply(&state, &moves[0]);
        }
        if state.is_terminal() {
            return (Outcome::of_end(&state, engine.players()), prefix);
        }
        if self.stopped_by == Some(Stop::Interrupted) || !state.stock_known {
            return (self.heuristic(engine, eval, &state), prefix);
        }
        let remaining = (self.time_limit - start.elapsed().as_secs_f64()).max(0.05);
        let mut look = Lookahead::new(LookOptions {
            maxn: engine.players() > 2 && self.asked != Asked::Paranoid,
            max_nodes: 2_000.max(50_000.min(self.max_nodes / 4)),
            time_limit: remaining.min(5.0),
            max_depth: 40,
            spread: 1,
            policy: false,
        });
        let found = look.values(engine, eval, &state, &moves, poll);
        let me = state.to_act as usize;
        let mut k = 0;
        for i in 1..moves.len() {
            if found.outcomes[i].utility(me) > found.outcomes[k].utility(me) {
                k = i;
            }
        }
        prefix.push(moves[k]);
        (found.outcomes[k], prefix)
    }

    fn outcome_of_value(&self, n: usize, value: f64) -> Outcome {
        let mut o = Outcome::zeros(n);
        let root = self.root_player;
        if value > 0.5 {
            o.v[root] = 1.0;
        } else if value < -0.5 {
            o.v[(root + 1) % n] = 1.0;
        } else {
            o.v[n] = 1.0;
        }
        o
    }

    fn value_for_root(&self, o: &Outcome) -> f64 {
        o.utility(self.root_player)
    }

    fn order(&self, engine: &Engine, moves: &[Move]) -> Vec<Move> {
        let hist = |m: &Move| self.history.get(m).copied().unwrap_or(0);
        let mut out: Vec<Move> = Vec::with_capacity(moves.len());
        let mut takes: Vec<(i64, u32, Move)> = Vec::new();
        let mut others: Vec<(i64, Move)> = Vec::new();
        let mut passes = 0;
        for m in moves {
            match m {
                Move::Take(..) | Move::LayIn(..) => {
                    if m.goes_out() {
                        out.push(*m);
                    } else {
                        takes.push((0, melded_after(engine, m), *m));
                    }
                }
                Move::Pass => passes += 1,
                _ => others.push((0, *m)),
            }
        }
        let known = !self.history.is_empty();
        if takes.len() > 1 {
            // Biggest takes first, then (a stable sort) the best history first: one stable sort
            // on (history, size), both descending.
            if known {
                for t in &mut takes {
                    t.0 = hist(&t.2);
                }
            }
            takes.sort_by_key(|t| (std::cmp::Reverse(t.0), std::cmp::Reverse(t.1)));
        }
        if others.len() > 1 && known {
            for o in &mut others {
                o.0 = hist(&o.1);
            }
            others.sort_by_key(|o| std::cmp::Reverse(o.0));
        }
        out.extend(takes.iter().map(|t| t.2));
        out.extend(others.iter().map(|o| o.1));
        out.extend(std::iter::repeat_n(Move::Pass, passes));
        out
    }

    fn alphabeta(
        &mut self,
        engine: &Engine,
        eval: &mut Evaluator,
        s: &State,
        alpha: f64,
        beta: f64,
        poll: &mut dyn Poll,
    ) -> f64 {
        // The position advances through forced steps; it is copied only when it does.
        let mut holder: State;
        let mut state: &State = s;
        let mut moves: Option<Vec<Move>>;
        loop {
            // Forced steps (a known turn, a single legal move) need no table entry.
            if state.phase == Phase::Over {
                return match state.winner {
                    None => 0.0,
                    Some(w) if w as usize == self.root_player => 1.0,
                    Some(_) => -1.0,
                };
            }
            let room = self.limit - self.nodes - 1;
            if let Some((after, steps)) = engine.run_forced(state, room, true) {
                holder = after;
                state = &holder;
                if self.tick_many(steps, poll) {
                    // Out of budget: the run may have ended the deal (R17, R18), exactly valued.
                    let o = self.cheap(engine, eval, state);
                    return self.value_for_root(&o);
                }
                continue;
            }
            if state.phase == Phase::Offer && room > 0 {
                moves = None; // a choice: its moves are listed when needed
                break;
            }
            let mv = if state.phase == Phase::Turn {
                Move::Turn(state.stock_top())
            } else {
                let listed = engine.legal_moves(state).expect("every hand known");
                if listed.len() != 1 {
                    moves = Some(listed);
                    break;
                }
                listed[0]
            };
            if self.tick(poll) {
                let o = self.heuristic(engine, eval, state);
                return self.value_for_root(&o);
            }
            holder = engine.apply(state, &mv);
            state = &holder;
        }
        let key = state.key(engine.players());
        let (lower, upper, hint) = self.bounds.get(&key).copied().unwrap_or((-1.0, 1.0, None));
        if lower >= beta {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        if lower == upper {
            return lower;
        }
        if self.tick(poll) {
            let o = self.heuristic(engine, eval, state);
            return self.value_for_root(&o);
        }
        let alpha0 = if alpha > lower { alpha } else { lower };
        let beta0 = if beta < upper { beta } else { upper };
        let (mut a, mut b) = (alpha0, beta0);
        let maximizing = state.to_act as usize == self.root_player;
        let mut value = if maximizing { -2.0 } else { 2.0 };
        let mut best_move: Option<Move> = None;
        // The table's best move first (tried again later in the list: a cheap table hit); the
        // other moves are listed and ordered only if it does not cut off.
        let mut ordered: Option<Vec<Move>> = None;
        let mut k: i64 = if hint.is_some() { -1 } else { 0 };
        loop {
            let mv = if k < 0 {
                hint.expect("a hint")
            } else {
                if ordered.is_none() {
                    let listed = match moves.take() {
                        Some(m) => m,
                        None => engine.legal_moves(state).expect("every hand known"),
                    };
                    ordered = Some(self.order(engine, &listed));
                }
                let list = ordered.as_ref().expect("listed");
                if k as usize >= list.len() {
                    break;
                }
                list[k as usize]
            };
            k += 1;
            let child_state = engine.apply(state, &mv);
            let child = self.alphabeta(engine, eval, &child_state, a, b, poll);
            if maximizing {
                if child > value {
                    value = child;
                    best_move = Some(mv);
                    if value > a {
                        a = value;
                    }
                }
            } else if child < value {
                value = child;
                best_move = Some(mv);
                if value < b {
                    b = value;
                }
            }
            if self.exhausted {
                break;
            }
            if a >= b {
                // History heuristic: moves that cut off early in the deal count more.
                let sc = i64::from(state.stock_count);
                *self.history.entry(mv).or_insert(0) += sc * sc;
                break;
            }
        }
        if !self.exhausted {
            let (mut lo, mut up) = (lower, upper);
            if value <= alpha0 {
                up = if value < up { value } else { up };
            } else if value >= beta0 {
                lo = if value > lo { value } else { lo };
            } else {
                lo = value;
                up = value;
            }
            if self.bounds.len() < self.table_cap || self.bounds.contains_key(&key) {
                self.bounds.insert(key, (lo, up, best_move.or(hint)));
            }
        }
        value
    }

    fn store(&mut self, key: Key, entry: (Outcome, Option<Move>, bool)) {
        if self.table.len() < self.table_cap || self.table.contains_key(&key) {
            self.table.insert(key, entry);
        }
    }

    /// Max-n with chance averaging (`Solver._maxn`): the outcome and whether it is a cut (a
    /// bound, not the value: not stored).  `bound` is `(r, b)`, the player who chose the move
    /// into `s` and his best result so far: any two players' results add up to at most 0 (R20),
    /// so once the player to act, another than `r`, has a move worth `u >= -b` to him, `r` gets
    /// at most `b` here and will not choose it (shallow pruning, Korf 1991).
    fn maxn(
        &mut self,
        engine: &Engine,
        eval: &mut Evaluator,
        s: &State,
        root: bool,
        bound: Option<(usize, f64)>,
        poll: &mut dyn Poll,
    ) -> (Outcome, bool) {
        let n = engine.players();
        if s.is_terminal() {
            return (Outcome::of_end(s, n), false);
        }
        let key = s.key(n);
        if let Some(&(o, _, true)) = self.table.get(&key) {
            return (o, false);
        }
        if !root {
            if let Some((after, steps)) = engine.run_forced(s, self.limit - self.nodes - 1, true) {
                // Dead offers passed without building them, each counted as a position; the
                // first one keeps its table entry, where other lines may join it.
                if self.tick_many(steps, poll) {
                    return (self.cheap(engine, eval, &after), false);
                }
                let (o, cut) = self.maxn(engine, eval, &after, false, bound, poll);
                if !cut {
                    let first = if s.stock_known && s.centre.is_none() {
                        Move::Turn(s.stock_top())
                    } else {
                        Move::Pass
                    };
                    let proven = !self.exhausted;
                    self.store(key, (o, Some(first), proven));
                }
                return (o, cut);
            }
        }
        if self.tick(poll) {
            return (self.heuristic(engine, eval, s), false);
        }
        if s.is_chance() {
            let mut total = Outcome::zeros(n);
            let cards = engine.chance_cards(s).expect("every hand known");
            let p = 1.0 / cards.len() as f64;
            let mut best_move: Option<Move> = None;
            let mut best_p = -1.0;
            for c in cards {
                let mv = Move::Turn(c);
                let child = engine.apply(s, &mv);
                let vec = if !self.exhausted {
                    self.maxn(engine, eval, &child, false, None, poll).0
                } else {
                    self.cheap(engine, eval, &child)
                };
                for k in 0..=n {
                    total.v[k] += p * vec.v[k];
                }
                if p > best_p {
                    best_move = Some(mv);
                    best_p = p;
                }
            }
            let proven = !self.exhausted;
            self.store(key, (total, best_move, proven));
            return (total, false);
        }
        let player = s.to_act as usize;
        let mut best: Option<Outcome> = None;
        let mut best_move: Option<Move> = None;
        for mv in engine.legal_moves(s).expect("every hand known") {
            let child = engine.apply(s, &mv);
            let mut cut = false;
            let (vec, proven) = if self.exhausted {
                (self.cheap(engine, eval, &child), child.is_terminal())
            } else {
                let mine = best.map(|b| (player, b.utility(player)));
                let (v, c) = self.maxn(engine, eval, &child, false, mine, poll);
                cut = c;
                (v, !self.exhausted)
            };
            if root {
                self.root_moves.push((mv, vec, proven && !cut));
            }
            let better = match best {
                None => true,
                Some(b) => vec.utility(player) > b.utility(player) + 1e-12,
            };
            if better {
                best = Some(vec);
                best_move = Some(mv);
                if proven && vec.v[player] >= 1.0 - 1e-12 {
                    break; // he wins for sure: nothing can be better (R20)
                }
                if let Some((r, b)) = bound {
                    if proven && r != player && vec.utility(player) >= -b - 1e-12 {
                        return (vec, true); // shallow cut (above)
                    }
                }
            }
        }
        let best = best.expect("a position with moves");
        let proven = !self.exhausted;
        self.store(key, (best, best_move, proven));
        (best, false)
    }

    /// The best line from `s` read from the tables (`Solver.principal_variation`).
    pub fn principal_variation(
        &self,
        engine: &Engine,
        s: &State,
        limit: usize,
        stop_at_chance: bool,
    ) -> Vec<Move> {
        let n = engine.players();
        let mut line = Vec::new();
        let mut seen: FxHashSet<Key> = FxHashSet::default();
        let mut state = s.clone();
        while !state.is_terminal() && line.len() < limit {
            if stop_at_chance
                && state.is_chance()
                && engine.chance_cards(&state).map_or(0, |c| c.len()) > 1
            {
                break;
            }
            let key = state.key(n);
            if !seen.insert(key) {
                break;
            }
            let mv = if let Some(hit) = self.table.get(&key) {
                hit.1
            } else if let Some(b) = self.bounds.get(&key) {
                b.2
            } else {
                let moves = engine.legal_moves(&state).expect("every hand known");
                if state.is_chance() || moves.len() == 1 {
                    Some(moves[0])
                } else {
                    None
                }
            };
            let Some(mv) = mv else { break };
            line.push(mv);
            state = engine.apply(&state, &mv);
        }
        line
    }
}

/// `utility(outcome, player)`, where Python may pass -1 (`None` here: a chance node's
/// `current_player`) and then reads the draw entry and subtracts every player's win.
fn utility_at(o: &Outcome, player: Option<usize>) -> f64 {
    match player {
        Some(p) => o.utility(p),
        None => {
            let n = o.players();
            let mut others = 0.0;
            for p in 0..n {
                others += o.v[p];
            }
            o.v[n] - others
        }
    }
}
