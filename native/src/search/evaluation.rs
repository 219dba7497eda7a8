//! Leaf evaluations, as `analyzer.search.evaluation` and `analyzer.search.playout.RolloutLeaf`
//! compute them: the melded-card lead, the fitted model on the position's features, and playouts.
//!
//! The arithmetic is Python's, in Python's order (sums left to right from zero, `exp` from the
//! C library), so both cores give the same floating-point numbers.

use std::cell::RefCell;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::core::cards::CardSet;
use crate::core::legal::Engine;
use crate::core::melds::MeldList;
use crate::core::offers::Phase;
use crate::core::rules::MAX_PLAYERS;
use crate::core::state::State;
use crate::rng::PyRandom;
use crate::search::outcome::Outcome;
use crate::search::playout::playout_outcome;

/// Features per player (`FEATURES_PER_PLAYER`).
pub const PER_PLAYER: usize = 15;
/// Position-wide features (`GLOBAL_FEATURES`).
pub const GLOBAL: usize = 5;

/// A fitted multilayer perceptron (`FittedEvaluator`): layers of (weights by output row, bias).
#[derive(Clone, Debug)]
pub struct Fitted {
    pub players: usize,
    pub layers: Vec<(Vec<Vec<f64>>, Vec<f64>)>,
}

impl Fitted {
    /// The model, checked against the feature width of `players`.
    ///
    /// # Errors
    /// A message when the layers do not fit the features or each other.
    pub fn new(players: usize, layers: Vec<(Vec<Vec<f64>>, Vec<f64>)>) -> Result<Self, String> {
        let width = PER_PLAYER * players + GLOBAL;
        let Some(first) = layers.first() else {
            return Err("a model needs a layer".into());
        };
        if first.0.iter().any(|row| row.len() != width) {
            return Err("the evaluation data does not fit this variant's features".into());
        }
        let mut inputs = first.0.len();
        for (k, (w, b)) in layers.iter().enumerate() {
            if w.len() != b.len() || (k > 0 && w.iter().any(|row| row.len() != inputs)) {
                return Err("malformed evaluation layers".into());
            }
            inputs = w.len();
        }
        if inputs != players + 1 {
            return Err("the evaluation data does not fit this variant's outcomes".into());
        }
        Ok(Fitted { players, layers })
    }

    /// The outcome vector of a position from its feature blocks (players from the one to act,
    /// then the position), as `FittedEvaluator.fast_probabilities` computes it.
    pub fn outcome(
        &self,
        blocks: &[[f64; PER_PLAYER]],
        global: &[f64; GLOBAL],
        to_act: usize,
    ) -> Outcome {
        let (w0, b0) = &self.layers[0];
        let mut h: Vec<f64> = b0.clone();
        for (i, block) in blocks.iter().enumerate() {
            let offset = i * PER_PLAYER;
            for (j, row) in w0.iter().enumerate() {
                let mut acc = 0.0;
                for (k, v) in block.iter().enumerate() {
                    acc += row[offset + k] * v;
                }
                h[j] += acc;
            }
        }
        let offset = self.players * PER_PLAYER;
        for (j, row) in w0.iter().enumerate() {
            let mut acc = 0.0;
            for (k, v) in global.iter().enumerate() {
                acc += row[offset + k] * v;
            }
            h[j] += acc;
        }
        for (w, b) in &self.layers[1..] {
            // Python's max(z, 0.0): z unless 0.0 is greater.
            let relu: Vec<f64> = h.iter().map(|&z| if 0.0 > z { 0.0 } else { z }).collect();
            h = w
                .iter()
                .zip(b)
                .map(|(row, bias)| {
                    let mut acc = 0.0;
                    for (x, y) in row.iter().zip(&relu) {
                        acc += x * y;
                    }
                    bias + acc
                })
                .collect();
        }
        let mut top = h[0];
        for &z in &h[1..] {
            if z > top {
                top = z;
            }
        }
        let exps: Vec<f64> = h.iter().map(|&z| (z - top).exp()).collect();
        let mut total = 0.0;
        for &e in &exps {
            total += e;
        }
        let n = self.players;
        let mut o = Outcome::zeros(n);
        for k in 0..n {
            o.v[(to_act + k) % n] = exps[k] / total;
        }
        o.v[n] = exps[n] / total;
        o
    }
}

/// How a search scores a position where it stops.
#[derive(Clone)]
#[allow(clippy::large_enum_variant)] // one leaf per search: its size does not matter
pub enum Leaf {
    /// The melded-card lead (`melded_lead`).
    Melded,
    /// The fitted model (`FittedEvaluator`).
    Fitted(Arc<Fitted>),
    /// The mean of `playouts` eager playouts, drawing from one generator (`RolloutLeaf`).
    Rollout { playouts: usize, rng: PyRandom },
}

/// A leaf evaluation with the caches of its features.
pub struct Evaluator {
    pub leaf: Leaf,
    gains: RefCell<FxHashMap<(CardSet, CardSet), Gains>>,
    blocks: RefCell<FxHashMap<BlockKey, [f64; PER_PLAYER]>>,
}

/// Cards to go out with, to take, to take with a hand card, and the hand cards that meld alone.
type Gains = (CardSet, CardSet, CardSet, i32);
/// A player's block of features by what it depends on: layout, hand, stock, the other hands,
/// the centre card, the hand-count lead and the stock count.
type BlockKey = (MeldList, CardSet, CardSet, CardSet, Option<u8>, i32, u8);

const CACHE: usize = 1 << 18;

impl Evaluator {
    pub fn new(leaf: Leaf) -> Self {
        Evaluator {
            leaf,
            gains: RefCell::new(FxHashMap::default()),
            blocks: RefCell::new(FxHashMap::default()),
        }
    }

    /// The leaf's outcome vector of `s` (not over; every hand and the stock cards known).
    pub fn evaluate(&mut self, engine: &Engine, s: &State) -> Outcome {
        match &mut self.leaf {
            Leaf::Melded => melded_lead(engine, s),
            Leaf::Rollout { playouts, rng } => {
                let n = engine.players();
                let runs: Vec<Outcome> = (0..*playouts)
                    .map(|_| playout_outcome(engine, s, true, rng, -1))
                    .collect();
                let mut o = Outcome::zeros(n);
                for k in 0..=n {
                    let mut acc = 0.0;
                    for r in &runs {
                        acc += r.v[k];
                    }
                    o.v[k] = acc / *playouts as f64;
                }
                o
            }
            Leaf::Fitted(model) => {
                let model = Arc::clone(model);
                let (blocks, global) = self.feature_blocks(engine, s);
                model.outcome(&blocks, &global, s.to_act as usize)
            }
        }
    }

    /// The cards that would let a player go out, take, and take with a hand card too, and the
    /// most hand cards that meld alone (Python's `_gains`).
    fn gains(&self, engine: &Engine, layout_cards: CardSet, hand: CardSet) -> Gains {
        if let Some(&g) = self.gains.borrow().get(&(layout_cards, hand)) {
            return g;
        }
        let rules = &*engine.rules;
        let base = layout_cards | hand;
        let need = hand.len() as i32 + 1;
        let melded = layout_cards.len() as i32;
        let mut reach = CardSet::EMPTY;
        for &meld in &rules.catalog {
            let rest = meld - base;
            if rest.len() == 1 {
                reach |= rest;
            }
        }
        let (mut out, mut take, mut take2) = (CardSet::EMPTY, CardSet::EMPTY, CardSet::EMPTY);
        for card in reach {
            let b = CardSet::card(card);
            let best = engine.melds.max_melded(base | b, layout_cards | b, rules);
            if best < 0 {
                continue;
            }
            let gain = best - melded;
            take |= b;
            if gain >= 2 {
                take2 |= b;
            }
            if gain == need {
                out |= b;
            }
        }
        let g = (
            out,
            take,
            take2,
            engine.melds.max_melded(hand, CardSet::EMPTY, rules),
        );
        let mut memo = self.gains.borrow_mut();
        if memo.len() >= CACHE {
            memo.clear();
        }
        memo.insert((layout_cards, hand), g);
        g
    }

    #[allow(clippy::too_many_arguments)]
    fn player_block(
        &self,
        engine: &Engine,
        layout: &MeldList,
        hand: CardSet,
        stock: CardSet,
        others: CardSet,
        card: Option<u8>,
        fewest: i32,
        s: u8,
    ) -> [f64; PER_PLAYER] {
        let key = (*layout, hand, stock, others, card, fewest, s);
        if let Some(b) = self.blocks.borrow().get(&key) {
            return *b;
        }
        let lc = layout.cards(&engine.rules);
        let (outs, takes, takes2, alone) = self.gains(engine, lc, hand);
        let fit = engine.fitting_cards(layout);
        let (c_out, c_take) = match card {
            Some(c) => (
                f64::from(u8::from(outs.contains(c))),
                f64::from(u8::from(takes.contains(c))) + f64::from(u8::from(takes2.contains(c))),
            ),
            None => (0.0, 0.0),
        };
        let outs_stock = (outs & stock).len();
        let outs_hands = (outs & others).len();
        let takes_stock = (takes & stock).len();
        let per = if s > 0 { 1.0 / f64::from(s) } else { 0.0 };
        let count = hand.len();
        let block = [
            f64::from(lc.len()),
            f64::from(count),
            f64::from(outs_stock),
            f64::from(outs_hands),
            f64::from(takes_stock),
            f64::from((takes2 & stock).len()),
            f64::from((fit & (stock | others)).len()),
            c_out,
            c_take,
            f64::from(fewest),
            f64::from(u8::from(count == 0)),
            f64::from(u8::from(outs_stock + outs_hands > 0)),
            f64::from(outs_stock) * per,
            f64::from(takes_stock) * per,
            f64::from(alone),
        ];
        let mut memo = self.blocks.borrow_mut();
        if memo.len() >= CACHE {
            memo.clear();
        }
        memo.insert(key, block);
        block
    }

    /// The feature blocks of `features`: one per player from the one to act, and the
    /// position-wide block.
    pub fn feature_blocks(
        &self,
        engine: &Engine,
        s: &State,
    ) -> (Vec<[f64; PER_PLAYER]>, [f64; GLOBAL]) {
        let n = engine.players();
        let stock = s
            .stock_mask(n)
            .expect("the evaluation needs every hand and the stock cards");
        let mut everyone = CardSet::EMPTY;
        for p in 0..n {
            everyone |= s.hands[p];
        }
        let card = s.centre.map(|c| c.card);
        let mut blocks = Vec::with_capacity(n);
        for k in 0..n {
            let p = (s.to_act as usize + k) % n;
            let hand = s.hands[p];
            let mut fewest = i32::MAX;
            for q in 0..n {
                if q != p {
                    fewest = fewest.min(i32::from(s.counts[q]));
                }
            }
            fewest -= i32::from(s.counts[p]);
            blocks.push(self.player_block(
                engine,
                &s.layouts[p],
                hand,
                stock,
                everyone - hand,
                card,
                fewest,
                s.stock_count,
            ));
        }
        let st = f64::from(s.stock_count);
        let offer = s.centre.is_some();
        let paid = s.centre.is_some_and(|c| c.paid);
        let global = [
            st,
            f64::from(u8::from(s.stock_count <= 3)),
            f64::from(u8::from(offer)),
            f64::from(u8::from(paid)),
            1.0 / (st + 1.0),
        ];
        (blocks, global)
    }
}

/// The melded-card lead as an outcome vector (`melded_lead`).
pub fn melded_lead(engine: &Engine, s: &State) -> Outcome {
    let n = engine.players();
    let mut weights = [0.0; MAX_PLAYERS];
    let mut total = 0.0;
    for p in 0..n {
        weights[p] = 1.0 + f64::from(s.melded_count(p));
        total += weights[p];
    }
    let progress = 1.0 - f64::from(s.stock_count) / 40.0;
    let mut o = Outcome::zeros(n);
    let mut sum = 0.0;
    for p in 0..n {
        o.v[p] = progress * weights[p] / total;
        sum += o.v[p];
    }
    o.v[n] = 1.0 - sum;
    o
}

/// True when a position is a place the fitted model was fitted on (not over).
pub fn evaluable(s: &State) -> bool {
    s.phase != Phase::Over
}
