//! Equilibrium endgames for two players (`analyzer.search.equilibrium`): the tree of the endgame
//! of a view, node for node as Python's `build_endgame` builds it, solved by CFR+ as Python's
//! `analyzer.search.cfr.solve_cfr` does, with the same arithmetic in the same order.
//!
//! The tree: a chance root deals the cards neither player has shown (uniformly, or by a prior),
//! each turn is a chance node over the stock cards left (R10), and a player's information set is
//! his hand as dealt and the public moves since (here a 128-bit hash of them: two histories
//! collide with a chance of about 2^-128); a position with one legal move is no node.  The
//! nodes are kept in Python's order (depth first, a node before its children), each with the end
//! of its subtree, so a node's children are `node + 1`, `end[node + 1]`, ...
//!
//! CFR+ (Tammelin 2014): regret matching+, alternating updates, linear averaging; the
//! exploitability of the average strategies is computed exactly by a best response of each
//! player on the tree.

use std::time::Instant;

use rustc_hash::FxHashMap;

use crate::core::cards::CardSet;
use crate::core::legal::Engine;
use crate::core::moves::Move;
use crate::core::offers::Phase;
use crate::core::state::State;
use crate::search::outcome::{Poll, Stop};

const CHANCE: u8 = 0;
const DECISION: u8 = 1;
const WIN0: u8 = 2;
const LOSS0: u8 = 3;
const DRAW: u8 = 4;

/// A public history: a 128-bit hash of its moves (see [`extend`]).
pub type History = u128;
/// The empty public history (the root's).
pub const ROOT_HISTORY: History = 0;
const UNSET: u32 = u32::MAX;

/// Per player, a weight (at least 0) per card index for the deal of his hand; `None`: uniform.
pub type Prior = [Option<Vec<f64>>; 2];

/// Why a tree was not built.
#[derive(Clone, Debug, PartialEq)]
pub enum BuildStop {
    /// More positions than the budget.
    TooLarge,
    /// The caller's stop request.
    Interrupted,
    /// The view cannot be dealt (the message says why).
    Position(String),
}

/// The game tree of an endgame (Python's `EndgameTree`).
#[derive(Default)]
pub struct Tree {
    /// Per node: chance, decision or a terminal (player 0 wins, loses, a draw).
    kind: Vec<u8>,
    /// Per node: the index after its subtree.
    end: Vec<u32>,
    /// Per node: its information set (decision), its number of children (chance).
    info: Vec<u32>,
    /// Per root deal: its probability and the two hands.
    pub deal_prob: Vec<f64>,
    pub deal_hands: Vec<[CardSet; 2]>,
    /// Per information set: its player, his hand as dealt, the public history.
    pub owner: Vec<u8>,
    pub hand: Vec<CardSet>,
    pub history: Vec<History>,
    /// Per information set, its moves: `moves[act_base[k]..act_base[k + 1]]`.
    pub act_base: Vec<u32>,
    pub moves: Vec<Move>,
    /// Per information set, the sequence of its player leading to it and its first action's.
    pub parent_seq: Vec<u32>,
    pub seq_base: Vec<u32>,
    /// Per player, his number of sequences (the empty one included).
    pub sequences: [u32; 2],
    /// Per information set (when kept): its public moves, first to last.
    pub history_moves: Vec<Vec<Move>>,
    /// Per information set, its positions in index order: `by_infoset[infoset_start[k]..]`.
    infoset_start: Vec<u32>,
    by_infoset: Vec<u32>,
}

impl Tree {
    /// The number of positions.
    pub fn nodes(&self) -> usize {
        self.kind.len()
    }

    /// The number of information sets.
    pub fn infosets(&self) -> usize {
        self.owner.len()
    }

    #[inline]
    fn actions(&self, infoset: usize) -> (usize, usize) {
        let base = self.act_base[infoset] as usize;
        (base, self.act_base[infoset + 1] as usize - base)
    }

    /// The result for player 0 of a terminal node (R20).
    #[inline]
    fn terminal_value(kind: u8) -> f64 {
        match kind {
            WIN0 => 1.0,
            LOSS0 => -1.0,
            _ => 0.0,
        }
    }

    /// A chance node's probability of its `k`th child.
    #[inline]
    fn chance_prob(&self, node: usize, k: usize) -> f64 {
        if node == 0 {
            self.deal_prob[k]
        } else {
            1.0 / f64::from(self.info[node])
        }
    }

    /// The `k`th child of `node` (walking the children before it).
    fn child(&self, node: usize, k: usize) -> usize {
        let mut c = node + 1;
        for _ in 0..k {
            c = self.end[c] as usize;
        }
        c
    }

    fn index_infosets(&mut self) {
        let mut count = vec![0u32; self.infosets() + 1];
        for (node, &kind) in self.kind.iter().enumerate() {
            if kind == DECISION {
                count[self.info[node] as usize + 1] += 1;
            }
        }
        for k in 1..count.len() {
            count[k] += count[k - 1];
        }
        self.infoset_start = count.clone();
        self.by_infoset = vec![0; *count.last().unwrap_or(&0) as usize];
        for (node, &kind) in self.kind.iter().enumerate() {
            if kind == DECISION {
                let at = &mut count[self.info[node] as usize];
                self.by_infoset[*at as usize] = node as u32;
                *at += 1;
            }
        }
    }
}

/// The cards neither player has shown, the cards each is known by both to hold from the
/// exchange (R9), and the two hand counts (Python's `_public_hidden`).
pub fn public_hidden(view: &State) -> (CardSet, [CardSet; 2], [u8; 2]) {
    let unseen = !view.table_mask(2);
    let mut known = [CardSet::EMPTY; 2];
    if let Some(gave) = view.gave {
        for q in 0..2 {
            if let Some(card) = gave[q].filter(|&c| unseen.contains(c)) {
                known[(q + 1) % 2].insert(card);
            }
        }
    }
    (unseen, known, [view.counts[0], view.counts[1]])
}

/// The number of deals of the two hands (`None` when the counts do not fit the cards).
pub fn deal_count(unseen: CardSet, known: [CardSet; 2], counts: [u8; 2]) -> Option<u128> {
    let free = (unseen - (known[0] | known[1])).len() as i64;
    let need0 = i64::from(counts[0]) - i64::from(known[0].len());
    let need1 = i64::from(counts[1]) - i64::from(known[1].len());
    if need0 < 0 || need1 < 0 || need0 + need1 > free {
        return None;
    }
    let comb =
        |n: i64, k: i64| (0..k).fold(1u128, |acc, i| acc * (n - i) as u128 / (i + 1) as u128);
    Some(comb(free, need0).saturating_mul(comb(free - need0, need1)))
}

/// Every `k`-subset of `0..n` in lexicographic order (Python's `itertools.combinations`).
fn for_each_combination(n: usize, k: usize, mut f: impl FnMut(&[usize])) {
    if k > n {
        return;
    }
    let mut idx: Vec<usize> = (0..k).collect();
    loop {
        f(&idx);
        let Some(i) = (0..k).rev().find(|&i| idx[i] < n - k + i) else {
            return;
        };
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// Every deal of the two hands from `unseen`, each holding its known cards, with its
/// probability: uniform, or in proportion to the product of the prior's card weights (Python's
/// `_deals`, in its order).
pub fn deals(
    unseen: CardSet,
    known: [CardSet; 2],
    counts: [u8; 2],
    prior: Option<&Prior>,
) -> Result<Vec<(CardSet, CardSet, f64)>, String> {
    let free: Vec<u8> = (unseen - (known[0] | known[1])).iter().collect();
    let need0 = i64::from(counts[0]) - i64::from(known[0].len());
    let need1 = i64::from(counts[1]) - i64::from(known[1].len());
    if need0 < 0 || need1 < 0 || need0 + need1 > free.len() as i64 {
        return Err("the hand counts do not fit the cards not shown (R1, R7)".to_string());
    }
    let mut out: Vec<(CardSet, CardSet, f64)> = Vec::new();
    for_each_combination(free.len(), need0 as usize, |first| {
        let h0 = known[0] | first.iter().map(|&i| free[i]).collect();
        let rest: Vec<u8> = free.iter().copied().filter(|&c| !h0.contains(c)).collect();
        for_each_combination(rest.len(), need1 as usize, |second| {
            let h1 = known[1] | second.iter().map(|&i| rest[i]).collect();
            let mut weight = 1.0;
            if let Some(prior) = prior {
                for (p, hand) in [(0, h0), (1, h1)] {
                    if let Some(w) = &prior[p] {
                        for c in hand - known[p] {
                            weight *= w[c as usize];
                        }
                    }
                }
            }
            out.push((h0, h1, weight));
        });
    });
    let mut total = 0.0;
    for d in &out {
        total += d.2;
    }
    if total <= 0.0 {
        return Err("the prior gives every deal of the hidden cards a weight of 0".to_string());
    }
    for d in &mut out {
        d.2 /= total;
    }
    Ok(out)
}

/// A move as two words, one to one: its kind, pay (255 when he goes out) and layout (at most 13
/// meld indices).
fn move_words(m: &Move) -> (u64, u64) {
    let (kind, value, layout) = match *m {
        Move::Pass => (0u64, 0u64, None),
        Move::Take(l, pay) => (1, pay.map_or(255, u64::from), Some(l)),
        Move::LayIn(l, pay) => (2, pay.map_or(255, u64::from), Some(l)),
        Move::Force(p) => (3, u64::from(p), None),
        Move::Meld(i) => (4, u64::from(i), None),
        Move::Give(c) => (5, u64::from(c), None),
        Move::Turn(c) => (6, u64::from(c), None),
    };
    let (mut low, mut high) = (kind | value << 3 | 1 << 11, 0u64);
    if let Some(l) = layout {
        let items = l.as_slice();
        low |= (items.len() as u64) << 12;
        for (k, &i) in items.iter().enumerate() {
            if k < 6 {
                low |= u64::from(i) << (16 + 8 * k);
            } else {
                high |= u64::from(i) << (8 * (k - 6));
            }
        }
    }
    (low, high)
}

/// The public history `h` followed by `m`: each of its two halves mixed with the move's words
/// and the other half (a multiply and xor-shift, as splitmix64 mixes).
pub fn extend(h: History, m: &Move) -> History {
    fn mix(mut x: u64) -> u64 {
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }
    let (low, high) = move_words(m);
    let (a, b) = (h as u64, (h >> 64) as u64);
    let a2 = mix(a ^ mix(low ^ 0x9e37_79b9_7f4a_7c15) ^ mix(high ^ 0x632b_e59b_d9b4_e019));
    let b2 = mix(b.rotate_left(23)
        ^ mix(high ^ 0xd6e8_feb8_6659_fd93)
        ^ mix(low ^ 0xa076_1d64_78bd_642f)
        ^ a);
    u128::from(a2) | u128::from(b2) << 64
}

/// Depth-first construction of a [`Tree`] (Python's `_Builder`).
struct Builder<'a> {
    engine: &'a Engine,
    tree: Tree,
    index: FxHashMap<(History, u8, CardSet), u32>,
    /// The moves from the root to the position being built (kept only with `keep`).
    path: Vec<Move>,
    max_nodes: usize,
    poll: &'a mut dyn Poll,
    keep: bool,
}

impl Builder<'_> {
    fn node(&mut self, kind: u8, info: u32) -> Result<usize, BuildStop> {
        let n = self.tree.kind.len();
        if n >= self.max_nodes {
            return Err(BuildStop::TooLarge);
        }
        if n.is_multiple_of(1024) && self.poll.stop() {
            return Err(BuildStop::Interrupted);
        }
        self.tree.kind.push(kind);
        self.tree.end.push(0);
        self.tree.info.push(info);
        Ok(n)
    }

    /// The public history `parent` followed by `m` (its moves kept with `keep`).
    #[inline]
    fn history(&mut self, parent: History, m: Move) -> History {
        if self.keep {
            self.path.push(m);
        }
        extend(parent, &m)
    }

    /// The moves kept back to `len` (after a child's subtree).
    #[inline]
    fn back(&mut self, len: usize) {
        if self.keep {
            self.path.truncate(len);
        }
    }

    /// The node of `s`, its subtree built; `seqs` is each player's last sequence.
    fn expand(
        &mut self,
        s: State,
        dealt: [CardSet; 2],
        hist: History,
        seqs: [u32; 2],
    ) -> Result<usize, BuildStop> {
        let engine = self.engine;
        let (mut s, mut hist) = (s, hist);
        let at = self.path.len();
        let found = loop {
            match s.phase {
                Phase::Over => {
                    let kind = match s.winner {
                        None => DRAW,
                        Some(0) => WIN0,
                        Some(_) => LOSS0,
                    };
                    let node = self.node(kind, 0)?;
                    self.tree.end[node] = node as u32 + 1;
                    break node;
                }
                Phase::Turn => {
                    let turns = engine.chance_cards(&s).expect("every hand is dealt");
                    let node = self.node(CHANCE, turns.len() as u32)?;
                    let len = self.path.len();
                    for c in turns {
                        let m = Move::Turn(c);
                        let h = self.history(hist, m);
                        self.expand(engine.apply(&s, &m), dealt, h, seqs)?;
                        self.back(len);
                    }
                    self.tree.end[node] = self.tree.kind.len() as u32;
                    break node;
                }
                _ => {}
            }
            let player = s.to_act;
            let key = (hist, player, dealt[player as usize]);
            let infoset = match self.index.get(&key) {
                Some(&k) => k as usize,
                None => {
                    let moves = engine.legal_moves(&s).expect("every hand is dealt");
                    if moves.len() == 1 {
                        // No choice: the same at every position of the information set, so it
                        // needs none; the move stays in the public history.
                        hist = self.history(hist, moves[0]);
                        s = engine.apply(&s, &moves[0]);
                        continue;
                    }
                    let tree = &mut self.tree;
                    let k = tree.owner.len();
                    self.index.insert(key, k as u32);
                    tree.owner.push(player);
                    tree.hand.push(dealt[player as usize]);
                    tree.history.push(hist);
                    if self.keep {
                        tree.history_moves.push(self.path.clone());
                    }
                    tree.moves.extend_from_slice(&moves);
                    tree.act_base.push(tree.moves.len() as u32);
                    tree.parent_seq.push(seqs[player as usize]);
                    tree.seq_base.push(tree.sequences[player as usize]);
                    tree.sequences[player as usize] += moves.len() as u32;
                    k
                }
            };
            let node = self.node(DECISION, infoset as u32)?;
            let (base, count) = self.tree.actions(infoset);
            let seq_base = self.tree.seq_base[infoset];
            let len = self.path.len();
            for a in 0..count {
                let m = self.tree.moves[base + a];
                let mut next = seqs;
                next[player as usize] = seq_base + a as u32;
                let h = self.history(hist, m);
                self.expand(engine.apply(&s, &m), dealt, h, next)?;
                self.back(len);
            }
            self.tree.end[node] = self.tree.kind.len() as u32;
            break node;
        };
        self.back(at);
        Ok(found)
    }
}

/// The tree of the endgame of `view` (Python's `build_endgame`): a two-player position after
/// the exchange with a move to choose (checked by the caller); the hands are dealt, those
/// given unused.  At most `max_nodes` positions; `poll` is asked every 1,024 positions.  With
/// `keep`, each information set's public moves are kept (`Tree::history_moves`).
pub fn build(
    engine: &Engine,
    view: &State,
    prior: Option<&Prior>,
    max_nodes: usize,
    poll: &mut dyn Poll,
    keep: bool,
) -> Result<Tree, BuildStop> {
    let (unseen, known, counts) = public_hidden(view);
    if deal_count(unseen, known, counts).is_some_and(|n| n.saturating_add(1) > max_nodes as u128) {
        // Each deal is at least one position more: refused before the deals are listed.
        return Err(BuildStop::TooLarge);
    }
    let dealt = deals(unseen, known, counts, prior).map_err(BuildStop::Position)?;
    let mut tree = Tree {
        act_base: vec![0],
        sequences: [1, 1],
        ..Tree::default()
    };
    tree.kind.push(CHANCE);
    tree.end.push(0);
    tree.info.push(dealt.len() as u32);
    let mut builder = Builder {
        engine,
        tree,
        index: FxHashMap::default(),
        path: Vec::new(),
        max_nodes,
        poll,
        keep,
    };
    let mut public = view.clone();
    public.stock_known = false;
    for &(h0, h1, prob) in &dealt {
        let mut world = public.clone();
        world.hands[0] = h0;
        world.hands[1] = h1;
        world.hidden = 0;
        world.counts[0] = h0.len() as u8;
        world.counts[1] = h1.len() as u8;
        builder.expand(world, [h0, h1], ROOT_HISTORY, [0, 0])?;
        builder.tree.deal_prob.push(prob);
        builder.tree.deal_hands.push([h0, h1]);
    }
    let mut tree = builder.tree;
    tree.end[0] = tree.kind.len() as u32;
    tree.index_infosets();
    Ok(tree)
}

/// The caps of a CFR+ run.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Stop when the exploitability is at most this.
    pub tolerance: f64,
    pub max_iterations: u64,
    /// Seconds; `None`: no limit.
    pub time_limit: Option<f64>,
}

/// The answer of [`solve`], for the player to act at his own hand.
#[derive(Clone, Debug)]
pub struct Answer {
    pub player: usize,
    /// His moves (in the engine's order), their average-strategy probabilities and values.
    pub moves: Vec<Move>,
    pub strategy: Vec<f64>,
    pub move_values: Vec<f64>,
    pub value: f64,
    pub exploitability: f64,
    /// Player 0's value of the whole endgame under the average strategies.
    pub game_value: f64,
    pub iterations: u64,
    /// `None` when the tolerance was reached.
    pub stopped_by: Option<&'static str>,
    /// Per information set, the average strategy (when asked for).
    pub every: Option<Vec<Vec<f64>>>,
}

/// Visits between two polls of the stop request and the clock inside an iteration.
const POLL_EVERY: u64 = 1 << 16;

/// The iteration of the next exploitability check after one at `iteration` found `reached`
/// (Python's `next_check`): where it would reach `tolerance` falling as 1/t^2, but at least an
/// eighth and at most all of the iterations done later.
pub fn next_check(iteration: u64, reached: f64, tolerance: f64) -> u64 {
    let (low, high) = ((iteration / 8).max(1), iteration);
    if tolerance <= 0.0 {
        return iteration + high;
    }
    let wanted = (iteration as f64 * (reached / tolerance).sqrt()).ceil() - iteration as f64;
    iteration + wanted.clamp(low as f64, high as f64) as u64
}

/// CFR+ on a tree (Python's `_Cfr`, `_BestResponse`), its arrays flat over every action.
pub struct Cfr<'t> {
    tree: &'t Tree,
    regret: Vec<f64>,
    acc: Vec<f64>,
    total: Vec<f64>,
    current: Vec<f64>,
    mine: [Vec<u32>; 2],
    scratch: Vec<f64>,
    // The best response's: the others' reach of each position, the memo, the choices.
    reach: Vec<f64>,
    memo: Vec<f64>,
    choice: Vec<u32>,
    average: Vec<f64>,
    visits: u64,
    aborted: Option<Stop>,
    deadline: Option<Instant>,
}

impl<'t> Cfr<'t> {
    pub fn new(tree: &'t Tree) -> Self {
        let actions = tree.moves.len();
        let mut current = vec![0.0; actions];
        let mut mine: [Vec<u32>; 2] = Default::default();
        for k in 0..tree.infosets() {
            let (base, n) = tree.actions(k);
            for a in 0..n {
                current[base + a] = 1.0 / n as f64;
            }
            mine[tree.owner[k] as usize].push(k as u32);
        }
        Cfr {
            tree,
            regret: vec![0.0; actions],
            acc: vec![0.0; actions],
            total: vec![0.0; actions],
            current,
            mine,
            scratch: Vec::new(),
            reach: Vec::new(),
            memo: Vec::new(),
            choice: Vec::new(),
            average: vec![0.0; actions],
            visits: 0,
            aborted: None,
            deadline: None,
        }
    }

    fn tick(&mut self, poll: &mut dyn Poll) {
        self.visits += 1;
        if self.visits.is_multiple_of(POLL_EVERY) && self.aborted.is_none() {
            if self.deadline.is_some_and(|d| Instant::now() > d) {
                self.aborted = Some(Stop::Time);
            } else if poll.stop() {
                self.aborted = Some(Stop::Interrupted);
            }
        }
    }

    /// The value of `node` for `player` under the current strategies, his instantaneous regrets
    /// added; `reach` is the others' probability of reaching it (Python's `_Cfr.walk`).
    fn walk(&mut self, node: usize, player: u8, reach: f64, poll: &mut dyn Poll) -> f64 {
        if reach == 0.0 || self.aborted.is_some() {
            return 0.0;
        }
        self.tick(poll);
        let tree = self.tree;
        let kind = tree.kind[node];
        if kind >= WIN0 {
            let v = Tree::terminal_value(kind);
            return if player == 0 { v } else { -v };
        }
        let mut value = 0.0;
        let mut child = node + 1;
        if kind == CHANCE {
            let n = tree.info[node] as usize;
            let uniform = 1.0 / n as f64;
            for k in 0..n {
                let prob = if node == 0 {
                    tree.deal_prob[k]
                } else {
                    uniform
                };
                value += prob * self.walk(child, player, reach * prob, poll);
                child = tree.end[child] as usize;
            }
            return value;
        }
        let infoset = tree.info[node] as usize;
        let (base, n) = tree.actions(infoset);
        if tree.owner[infoset] != player {
            for a in 0..n {
                let share = self.current[base + a];
                value += share * self.walk(child, player, reach * share, poll);
                child = tree.end[child] as usize;
            }
            return value;
        }
        let at = self.scratch.len();
        for _ in 0..n {
            let v = self.walk(child, player, reach, poll);
            self.scratch.push(v);
            child = tree.end[child] as usize;
        }
        for a in 0..n {
            value += self.current[base + a] * self.scratch[at + a];
        }
        for a in 0..n {
            self.acc[base + a] += reach * (self.scratch[at + a] - value);
        }
        self.scratch.truncate(at);
        value
    }

    /// After `player`'s walk: his strategy sums, regrets and current strategies (Python's
    /// `_Cfr.update`).
    fn update(&mut self, player: usize, iteration: u64) {
        let tree = self.tree;
        let mut plan = vec![0.0; tree.sequences[player] as usize];
        plan[0] = 1.0;
        let mut own = Vec::with_capacity(self.mine[player].len());
        for &k in &self.mine[player] {
            let k = k as usize;
            let reach = plan[tree.parent_seq[k] as usize];
            own.push(reach);
            let (base, n) = tree.actions(k);
            let seq = tree.seq_base[k] as usize;
            for a in 0..n {
                plan[seq + a] = reach * self.current[base + a];
            }
        }
        for (i, &k) in self.mine[player].iter().enumerate() {
            let (base, n) = tree.actions(k as usize);
            let weight = iteration as f64 * own[i];
            for a in base..base + n {
                self.total[a] += weight * self.current[a];
                let r = self.regret[a] + self.acc[a];
                self.regret[a] = if r > 0.0 { r } else { 0.0 };
                self.acc[a] = 0.0;
            }
            let mut positive = 0.0;
            for a in base..base + n {
                positive += self.regret[a];
            }
            if positive > 0.0 {
                for a in base..base + n {
                    self.current[a] = self.regret[a] / positive;
                }
            } else {
                for a in base..base + n {
                    self.current[a] = 1.0 / n as f64;
                }
            }
        }
    }

    /// The average strategies into `self.average` (Python's `average_strategy`).
    fn compute_average(&mut self) {
        let tree = self.tree;
        for k in 0..tree.infosets() {
            let (base, n) = tree.actions(k);
            let mut whole = 0.0;
            for a in base..base + n {
                whole += self.total[a];
            }
            for a in base..base + n {
                self.average[a] = if whole > 0.0 {
                    self.total[a] / whole
                } else {
                    1.0 / n as f64
                };
            }
        }
    }

    /// The others' probability of reaching each of `player`'s positions (`_BestResponse.fill`).
    fn fill(&mut self, node: usize, player: u8, reach: f64) {
        if reach == 0.0 {
            return;
        }
        let tree = self.tree;
        let kind = tree.kind[node];
        if kind >= WIN0 {
            return;
        }
        let mut child = node + 1;
        if kind == CHANCE {
            for k in 0..tree.info[node] as usize {
                let prob = tree.chance_prob(node, k);
                self.fill(child, player, reach * prob);
                child = tree.end[child] as usize;
            }
            return;
        }
        let infoset = tree.info[node] as usize;
        let (base, n) = tree.actions(infoset);
        if tree.owner[infoset] == player {
            self.reach[node] = reach;
            for _ in 0..n {
                self.fill(child, player, reach);
                child = tree.end[child] as usize;
            }
            return;
        }
        for a in 0..n {
            let share = self.average[base + a];
            self.fill(child, player, reach * share);
            child = tree.end[child] as usize;
        }
    }

    /// `player`'s value of `node` under his best response (`_BestResponse.value`).
    fn best_value(&mut self, node: usize, player: u8, reach: f64) -> f64 {
        if reach == 0.0 {
            return 0.0;
        }
        let tree = self.tree;
        let kind = tree.kind[node];
        if kind >= WIN0 {
            let v = Tree::terminal_value(kind);
            return if player == 0 { v } else { -v };
        }
        let mut value = 0.0;
        let mut child = node + 1;
        if kind == CHANCE {
            for k in 0..tree.info[node] as usize {
                let prob = tree.chance_prob(node, k);
                value += prob * self.best_value(child, player, reach * prob);
                child = tree.end[child] as usize;
            }
            return value;
        }
        let infoset = tree.info[node] as usize;
        if tree.owner[infoset] == player {
            if self.choice[infoset] == UNSET {
                self.choose(infoset, player);
            }
            return self.memo[node];
        }
        let (base, n) = tree.actions(infoset);
        for a in 0..n {
            let share = self.average[base + a];
            value += share * self.best_value(child, player, reach * share);
            child = tree.end[child] as usize;
        }
        value
    }

    /// The best move of `infoset` (`_BestResponse.choose`): the highest value summed over its
    /// positions, weighted by the others' reach; each position's value memoised.
    fn choose(&mut self, infoset: usize, player: u8) {
        let tree = self.tree;
        let (_, n) = tree.actions(infoset);
        let at = self.scratch.len();
        self.scratch.resize(at + n, 0.0);
        let positions =
            tree.infoset_start[infoset] as usize..tree.infoset_start[infoset + 1] as usize;
        for &node in &tree.by_infoset[positions.clone()] {
            let node = node as usize;
            let reach = self.reach[node];
            if reach == 0.0 {
                continue;
            }
            let mut child = node + 1;
            for a in 0..n {
                let v = self.best_value(child, player, reach);
                self.scratch.push(v);
                self.scratch[at + a] += reach * v;
                child = tree.end[child] as usize;
            }
        }
        let mut best = 0;
        for a in 1..n {
            if self.scratch[at + a] > self.scratch[at + best] {
                best = a;
            }
        }
        self.choice[infoset] = best as u32;
        let mut found = at + n;
        for &node in &tree.by_infoset[positions] {
            let node = node as usize;
            if self.reach[node] == 0.0 {
                continue;
            }
            self.memo[node] = self.scratch[found + best];
            found += n;
        }
        self.scratch.truncate(at);
    }

    /// The exploitability of the average strategies (Python's `exploitability`).
    pub fn exploitability(&mut self) -> f64 {
        self.compute_average();
        let nodes = self.tree.nodes();
        let mut gains = [0.0; 2];
        for player in 0..2u8 {
            self.reach.clear();
            self.reach.resize(nodes, 0.0);
            if self.memo.len() != nodes {
                self.memo = vec![0.0; nodes];
            }
            self.choice.clear();
            self.choice.resize(self.tree.infosets(), UNSET);
            self.fill(0, player, 1.0);
            gains[player as usize] = self.best_value(0, player, 1.0);
        }
        self.reach = Vec::new();
        let half = (gains[0] + gains[1]) / 2.0;
        if half > 0.0 {
            half
        } else {
            0.0
        }
    }

    /// CFR+ until the exploitability is at most the tolerance (checked as Python checks it) or
    /// a cap is reached; `poll` is asked every iteration and every 65,536 positions visited.
    /// Returns the iterations, the exploitability reached and why it stopped short (`None`:
    /// the tolerance was reached).
    pub fn run(&mut self, opts: &Options, poll: &mut dyn Poll) -> (u64, f64, Option<&'static str>) {
        let start = Instant::now();
        self.deadline = opts
            .time_limit
            .map(|t| start + std::time::Duration::from_secs_f64(t.clamp(0.0, 1e9)));
        let (mut iteration, mut check) = (0u64, 1u64);
        loop {
            let saved = (
                self.regret.clone(),
                self.total.clone(),
                self.current.clone(),
            );
            for player in 0..2u8 {
                self.walk(0, player, 1.0, poll);
                if self.aborted.is_some() {
                    break;
                }
                self.update(player as usize, iteration + 1);
            }
            if let Some(why) = self.aborted {
                // An iteration cut short is undone: the answer is the last whole one's.
                (self.regret, self.total, self.current) = saved;
                self.acc.iter_mut().for_each(|x| *x = 0.0);
                let reached = self.exploitability();
                return (iteration, reached, Some(why.name()));
            }
            iteration += 1;
            let stopped_by = if iteration >= opts.max_iterations {
                Some("iterations")
            } else if self.deadline.is_some_and(|d| Instant::now() > d) {
                Some("time")
            } else if poll.stop() {
                Some("interrupted")
            } else {
                None
            };
            if iteration == check || stopped_by.is_some() {
                let reached = self.exploitability();
                check = next_check(iteration, reached, opts.tolerance);
                if reached <= opts.tolerance {
                    return (iteration, reached, None);
                }
                if stopped_by.is_some() {
                    return (iteration, reached, stopped_by);
                }
            }
        }
    }

    /// Player 0's value of `node` with both playing the average strategies (Python's `_values`).
    fn average_value(&self, node: usize) -> f64 {
        let tree = self.tree;
        let kind = tree.kind[node];
        if kind >= WIN0 {
            return Tree::terminal_value(kind);
        }
        let mut value = 0.0;
        let mut child = node + 1;
        if kind == CHANCE {
            for k in 0..tree.info[node] as usize {
                value += tree.chance_prob(node, k) * self.average_value(child);
                child = tree.end[child] as usize;
            }
            return value;
        }
        let (base, n) = tree.actions(tree.info[node] as usize);
        for a in 0..n {
            let share = self.average[base + a];
            if share != 0.0 {
                value += share * self.average_value(child);
            }
            child = tree.end[child] as usize;
        }
        value
    }
}

/// The equilibrium of the endgame of `view` for its player to act, by CFR+ on `tree` (built
/// from `view` by [`build`]): his average strategy at his hand, each move's value and the
/// hand's, the exploitability and player 0's game value.  Errors name an impossible answer.
pub fn solve(
    engine: &Engine,
    view: &State,
    tree: &Tree,
    opts: &Options,
    every: bool,
    poll: &mut dyn Poll,
) -> Result<Answer, String> {
    let mut cfr = Cfr::new(tree);
    let (iterations, exploitability, stopped_by) = cfr.run(opts, poll);
    cfr.compute_average();
    let me = view.to_act as usize;
    let hand = view.hands[me];
    let mut mine: Vec<(usize, f64)> = Vec::new();
    let mut child = 1;
    for k in 0..tree.deal_prob.len() {
        if tree.deal_hands[k][me] == hand {
            mine.push((child, tree.deal_prob[k]));
        }
        child = tree.end[child] as usize;
    }
    let mut weight = 0.0;
    for &(_, prob) in &mine {
        weight += prob;
    }
    if mine.is_empty() || weight <= 0.0 {
        return Err("his hand is not among the deals of the endgame (a prior of 0?)".to_string());
    }
    let sign = if me == 0 { 1.0 } else { -1.0 };
    let first = mine[0].0;
    let at_root =
        tree.kind[first] == DECISION && tree.history[tree.info[first] as usize] == ROOT_HISTORY;
    let (moves, strategy, move_values) = if at_root {
        let infoset = tree.info[first] as usize;
        let (base, n) = tree.actions(infoset);
        let values = (0..n)
            .map(|a| {
                let mut sum = 0.0;
                for &(node, prob) in &mine {
                    sum += prob * cfr.average_value(tree.child(node, a));
                }
                sign * sum / weight
            })
            .collect();
        (
            tree.moves[base..base + n].to_vec(),
            cfr.average[base..base + n].to_vec(),
            values,
        )
    } else {
        // One legal move: no information set; its value is the hand's.
        let moves = engine.legal_moves(view).map_err(|e| e.0.to_string())?;
        let mut sum = 0.0;
        for &(node, prob) in &mine {
            sum += prob * cfr.average_value(node);
        }
        (moves, vec![1.0], vec![sign * sum / weight])
    };
    let mut value = 0.0;
    for (p, v) in strategy.iter().zip(&move_values) {
        value += p * v;
    }
    let every = every.then(|| {
        (0..tree.infosets())
            .map(|k| {
                let (base, n) = tree.actions(k);
                cfr.average[base..base + n].to_vec()
            })
            .collect()
    });
    Ok(Answer {
        player: me,
        moves,
        strategy,
        move_values,
        value,
        exploitability,
        game_value: cfr.average_value(0),
        iterations,
        stopped_by,
        every,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::core::dealing::deal_deck;
    use crate::core::rules::Rules;
    use crate::search::outcome::Never;

    /// A classic deal (the cards in the order `k * step + 3`, `step` prime to 40, dealt by player
    /// 0) played by first legal moves until `stock` cards are left at an offer with a choice, as
    /// seen by the player to act (the other hand hidden, the stock order unknown).
    fn late_view(engine: &Engine, step: u8, stock: u8) -> Option<State> {
        let rules = &engine.rules;
        let order: Vec<u8> = (0..40u16)
            .map(|k| ((k * u16::from(step) + 3) % 40) as u8)
            .collect();
        let mut s = deal_deck(rules, &order, 0);
        while !s.is_terminal() {
            let moves = engine.legal_moves(&s).ok()?;
            if s.phase == Phase::Offer && s.stock_count <= stock && moves.len() > 1 {
                let me = s.to_act as usize;
                let mut view = s.clone();
                view.hands[1 - me] = CardSet::EMPTY;
                view.hidden = 1 << (1 - me);
                view.stock_known = false;
                return Some(view);
            }
            s = engine.apply(&s, &moves[0]);
        }
        None
    }

    #[test]
    fn combinations_in_python_order() {
        let mut seen = Vec::new();
        for_each_combination(4, 2, |c| seen.push(c.to_vec()));
        assert_eq!(
            seen,
            vec![
                vec![0, 1],
                vec![0, 2],
                vec![0, 3],
                vec![1, 2],
                vec![1, 3],
                vec![2, 3]
            ]
        );
        let mut empty = 0;
        for_each_combination(3, 0, |c| {
            assert!(c.is_empty());
            empty += 1;
        });
        assert_eq!(empty, 1);
    }

    /// CFR+ reaches a small exploitability on a late endgame, its strategy sums to one and no
    /// move of the player to act is worth more than his hand by more than the bound.
    #[test]
    fn cfr_converges_on_a_late_endgame() {
        let engine = Engine::new(Arc::new(Rules::classic()));
        let steps = [3u8, 7, 9, 11, 13, 17, 19, 21, 23, 27, 29, 31, 33, 37, 39];
        let tree_of = |view: State| {
            let tree = build(&engine, &view, None, 100_000, &mut Never, false).ok()?;
            (tree.nodes() > 500).then_some((view, tree))
        };
        let found = steps.iter().find_map(|&step| {
            (1..6)
                .find_map(|k| late_view(&engine, step, k))
                .and_then(tree_of)
        });
        let (view, tree) = found.expect("a late endgame small enough among the deals");
        let (unseen, known, counts) = public_hidden(&view);
        assert_eq!(
            deal_count(unseen, known, counts),
            Some(tree.deal_prob.len() as u128)
        );
        let opts = Options {
            tolerance: 1e-4,
            max_iterations: 20_000,
            time_limit: None,
        };
        let answer = solve(&engine, &view, &tree, &opts, false, &mut Never).expect("solved");
        assert!(answer.exploitability <= 1e-4, "{answer:?}");
        assert!((answer.strategy.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert_eq!(
            answer.moves,
            engine.legal_moves(&view).expect("his hand is known")
        );
        // The hand's value is at most its best response value: no move is worth much more.
        let deals = tree.deal_prob.len() as f64;
        for v in &answer.move_values {
            assert!(*v <= answer.value + 2.0 * answer.exploitability * deals + 1e-9);
        }
    }

    /// A budget below the tree's size is refused, and the node count is the budget's to check.
    #[test]
    fn a_budget_too_small_is_refused() {
        let engine = Engine::new(Arc::new(Rules::classic()));
        let view = (1..10)
            .find_map(|k| late_view(&engine, 7, k))
            .expect("a late position");
        assert!(matches!(
            build(&engine, &view, None, 2, &mut Never, false),
            Err(BuildStop::TooLarge)
        ));
    }
}
