//! What the move generator asks of hands and layouts (R13-R16), as `analyzer.core.legal` has it:
//! what fits a layout for forcing (R14), which takes a card allows (R13, R15), which players may
//! be forced, who can meld from his hand alone (R16).
//!
//! [`Engine`] holds the rules and the memo tables of these answers, which Python keeps in
//! `lru_cache`s; `crate::core::state` adds the position's moves and their application to it.
//! Every list comes in Python's order, so that both cores list the same moves.

use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

use rustc_hash::FxHashMap;

use crate::core::cards::CardSet;
use crate::core::melds::{layoff_mask, MeldList, MeldMemo};
use crate::core::moves::Move;
use crate::core::offers::Offer;
use crate::core::rules::{Rules, MAX_PLAYERS};

/// What a player's offers depend on while his layout and hand stay as they are (Python's
/// `player_facts`): the cards that may give him a take, the cards that fit his layout for
/// forcing (R14), and whether he can lay a meld from his hand alone (R16).
#[derive(Clone, Copy, Debug)]
pub struct Facts {
    pub near: CardSet,
    pub fit: CardSet,
    pub alone: bool,
}

/// Takes by group of hand cards used, fewest first (then by their indices: Python's
/// `(bit_count, index_key)`); each layout with every pay card, or the group's first layout going
/// out when no hand card is left (R15).
fn ordered_takes(mut groups: Vec<(CardSet, Vec<MeldList>)>, hand: CardSet) -> Vec<Move> {
    groups.sort_by(|a, b| {
        a.0.len()
            .cmp(&b.0.len())
            .then_with(|| a.0.iter().cmp(b.0.iter()))
    });
    let mut moves = Vec::new();
    for (used, layouts) in &groups {
        let rest = hand - *used;
        if rest.is_empty() {
            // Going out ends the deal: the arrangement no longer matters (R15).
            moves.push(Move::Take(layouts[0], None));
            continue;
        }
        for layout in layouts {
            for pay in rest {
                moves.push(Move::Take(*layout, Some(pay)));
            }
        }
    }
    moves
}

/// True if `new` keeps each meld of `old` as Foster's borrowing allows (R13a, Python's
/// `borrow_ok`): each old meld stays in one new meld (no two share one) and lends cards, each to
/// a different other meld: one card of a set of four, end cards of a run as long as three in
/// sequence stay; never a middle card, nothing from a meld of three.
pub fn borrow_ok(rules: &Rules, old: &MeldList, new: &MeldList) -> bool {
    let mut homes = 0u32;
    for &i in old.as_slice() {
        let meld = rules.meld(i);
        let mut core = CardSet::EMPTY;
        let mut home = None;
        for (k, &j) in new.as_slice().iter().enumerate() {
            let got = rules.meld(j) & meld;
            if !got.without_lowest().is_empty() {
                if home.is_some() {
                    return false; // split into two groups
                }
                core = got;
                home = Some(k);
            }
        }
        let Some(home) = home else {
            return false; // every card lent
        };
        if homes >> home & 1 == 1 {
            return false; // two old melds merged
        }
        homes |= 1 << home;
        let (size, kept) = (meld.len(), core.len());
        if kept == size {
            continue;
        }
        if kept < 3 {
            return false;
        }
        if meld.is_subset(CardSet::rank(meld.lowest() / 4)) {
            if size != 4 {
                return false; // a set lends one card of four, nothing of three
            }
            continue;
        }
        // A run's core is three or more in sequence: only ends were lent.
        let low = core.lowest() as u32;
        let expected: CardSet = (0..kept).map(|k| (low + 4 * k) as u8).collect();
        if core != expected {
            return false;
        }
    }
    true
}

/// A list of moves shared between lookups.
pub type MoveList = Arc<Vec<Move>>;

/// The rules and the move generator's memo tables.
pub struct Engine {
    pub rules: Arc<Rules>,
    pub melds: MeldMemo,
    takes: RefCell<FxHashMap<(CardSet, CardSet, u8), MoveList>>,
    borrow_takes: RefCell<FxHashMap<(MeldList, CardSet, u8), MoveList>>,
    fits: RefCell<FxHashMap<MeldList, CardSet>>,
}

const TAKES_MEMO: usize = 1 << 17;

impl Engine {
    pub fn new(rules: Arc<Rules>) -> Self {
        Engine {
            rules,
            melds: MeldMemo::default(),
            takes: RefCell::new(FxHashMap::default()),
            borrow_takes: RefCell::new(FxHashMap::default()),
            fits: RefCell::new(FxHashMap::default()),
        }
    }

    #[inline]
    pub fn players(&self) -> usize {
        self.rules.players
    }

    /// Forget every memo table (the answers do not change; only the time to find them).
    pub fn clear_memos(&self) {
        self.melds.clear();
        self.takes.borrow_mut().clear();
        self.borrow_takes.borrow_mut().clear();
        self.fits.borrow_mut().clear();
    }

    /// The cards that fit `layout` for forcing (R14, `force_fit`).
    pub fn fitting_cards(&self, layout: &MeldList) -> CardSet {
        let rules = &*self.rules;
        if !rules.force_fit_rearrange {
            return layoff_mask(layout, rules);
        }
        if let Some(&v) = self.fits.borrow().get(layout) {
            return v;
        }
        let own = layout.cards(rules);
        let mut out = CardSet::EMPTY;
        for card in !own {
            let new = own | CardSet::card(card);
            let fits = if rules.borrow {
                self.melds
                    .covers(new, new, rules)
                    .iter()
                    .any(|l| borrow_ok(rules, layout, l))
            } else {
                self.melds.can_meld_all(new, rules)
            };
            if fits {
                out.insert(card);
            }
        }
        let mut memo = self.fits.borrow_mut();
        if memo.len() >= TAKES_MEMO {
            memo.clear();
        }
        memo.insert(*layout, out);
        out
    }

    /// [`Facts`] of a player with this layout and hand (computed afresh: cheaper than a lookup,
    /// but for `force_fit = rearrange`, whose fitting cards are memoised).
    #[inline]
    pub fn player_facts(&self, layout: &MeldList, hand: CardSet) -> Facts {
        let rules = &*self.rules;
        let near = near_cards(layout.cards(rules) | hand);
        let alone = rules.hand_melds && !hand.is_empty() && self.melds.has_hand_meld(hand, rules);
        Facts {
            near,
            fit: self.fitting_cards(layout),
            alone,
        }
    }

    /// Layouts melding all of `must` and some of `pool`, grouped by the `hand` cards they use,
    /// one per distinct lay-off exposure within a group, groups in first-found order (R6, R13).
    fn grouped_layouts(
        &self,
        pool: CardSet,
        must: CardSet,
        hand: CardSet,
    ) -> Vec<(CardSet, Vec<MeldList>)> {
        let rules = &*self.rules;
        let mut groups: Vec<(CardSet, Vec<MeldList>, Vec<CardSet>)> = Vec::new();
        for layout in self.melds.covers(pool, must, rules) {
            let used = layout.cards(rules) & hand;
            let key = if rules.force_fit_rearrange {
                CardSet::EMPTY
            } else {
                layoff_mask(&layout, rules)
            };
            match groups.iter_mut().find(|g| g.0 == used) {
                Some(group) => {
                    if !group.2.contains(&key) {
                        group.2.push(key);
                        group.1.push(layout);
                    }
                }
                None => groups.push((used, vec![layout], vec![key])),
            }
        }
        groups
            .into_iter()
            .map(|(used, layouts, _)| (used, layouts))
            .collect()
    }

    /// Arrangements of exactly `cards`, one per lay-off exposure (R6, R14).
    pub fn layouts_for(&self, cards: CardSet) -> Vec<MeldList> {
        self.grouped_layouts(cards, cards, CardSet::EMPTY)
            .into_iter()
            .find(|g| g.0.is_empty())
            .map(|g| g.1)
            .unwrap_or_default()
    }

    /// Every take of `card` by a player with these layout cards and hand (R13, R15), in order.
    pub fn take_moves(&self, layout_cards: CardSet, hand: CardSet, card: u8) -> Arc<Vec<Move>> {
        if !near_cards(layout_cards | hand).contains(card) {
            static EMPTY: OnceLock<Arc<Vec<Move>>> = OnceLock::new();
            return Arc::clone(EMPTY.get_or_init(|| Arc::new(Vec::new())));
        }
        let key = (layout_cards, hand, card);
        if let Some(hit) = self.takes.borrow().get(&key) {
            return Arc::clone(hit);
        }
        let base = layout_cards | CardSet::card(card);
        let groups = self.grouped_layouts(base | hand, base, hand);
        let moves = Arc::new(ordered_takes(groups, hand));
        let mut memo = self.takes.borrow_mut();
        if memo.len() >= TAKES_MEMO {
            memo.clear();
        }
        memo.insert(key, Arc::clone(&moves));
        moves
    }

    /// True if a player with this layout and hand can take `card` (R13): the non-emptiness of
    /// [`Engine::take_moves`], found first by two sure signs (the card extends one of his melds,
    /// or makes a meld with two of his hand cards), else from the takes themselves.
    pub fn has_take(
        &self,
        layout: &MeldList,
        layout_cards: CardSet,
        hand: CardSet,
        card: u8,
    ) -> bool {
        let rules = &*self.rules;
        if !near_cards(layout_cards | hand).contains(card) {
            return false;
        }
        if layoff_mask(layout, rules).contains(card) {
            return true;
        }
        if (hand & CardSet::rank(card as usize / 4)).len() >= 2 {
            return true;
        }
        let has = |k: i32| {
            let x = i32::from(card) + 4 * k;
            (0..40).contains(&x) && hand.contains(x as u8)
        };
        if (has(-1) && (has(-2) || has(1))) || (has(1) && has(2)) {
            return true;
        }
        !self
            .layout_takes(layout, layout_cards, hand, card)
            .is_empty()
    }

    /// Every take of `card` by a player with this layout (its cards `layout_cards`) and hand:
    /// [`Engine::take_moves`], or under `rearrange = borrow` the takes borrowing allows (R13a),
    /// every arrangement (Python's `take_moves`).
    pub fn layout_takes(
        &self,
        layout: &MeldList,
        layout_cards: CardSet,
        hand: CardSet,
        card: u8,
    ) -> Arc<Vec<Move>> {
        if !self.rules.borrow {
            return self.take_moves(layout_cards, hand, card);
        }
        if !near_cards(layout_cards | hand).contains(card) {
            return Arc::new(Vec::new());
        }
        let key = (*layout, hand, card);
        if let Some(hit) = self.borrow_takes.borrow().get(&key) {
            return Arc::clone(hit);
        }
        let rules = &*self.rules;
        let base = layout_cards | CardSet::card(card);
        let mut groups: Vec<(CardSet, Vec<MeldList>)> = Vec::new();
        for new in self.melds.covers(base | hand, base, rules) {
            if !borrow_ok(rules, layout, &new) {
                continue;
            }
            let used = new.cards(rules) & hand;
            match groups.iter_mut().find(|g| g.0 == used) {
                Some(group) => group.1.push(new),
                None => groups.push((used, vec![new])),
            }
        }
        let moves = Arc::new(ordered_takes(groups, hand));
        let mut memo = self.borrow_takes.borrow_mut();
        if memo.len() >= TAKES_MEMO {
            memo.clear();
        }
        memo.insert(key, Arc::clone(&moves));
        moves
    }

    /// Players `me` may force with the centre card if it fits their layout (R14, `force_when`);
    /// never the payer of a paid card, and anyone else when `me` paid it (R14a).
    pub fn force_candidates(&self, me: u8, offer: &Offer) -> ([u8; MAX_PLAYERS], usize) {
        let mut out = [0u8; MAX_PLAYERS];
        let mut n = 0;
        if offer.paid && me == offer.source {
            for p in 0..self.players() as u8 {
                if p != me {
                    out[n] = p;
                    n += 1;
                }
            }
        } else if !self.rules.force_any_offer {
            for &p in offer.declined() {
                if p != me && !(offer.paid && p == offer.source) {
                    out[n] = p;
                    n += 1;
                }
            }
        } else {
            for p in 0..self.players() as u8 {
                if p != me && !(offer.paid && p == offer.source) {
                    out[n] = p;
                    n += 1;
                }
            }
        }
        (out, n)
    }
}

/// The cards outside `pool` that make a meld with some cards of `pool` (R4, R5): a cheap first
/// test of a take (Python's `near_cards`).
pub fn near_cards(pool: CardSet) -> CardSet {
    let (pool, deck) = (pool.bits(), CardSet::FULL.bits());
    let up = pool >> 4;
    let down = (pool << 4) & deck;
    let runs = (up & (pool >> 8)) | (down & ((pool << 8) & deck)) | (up & down);
    // Ranks holding two or three cards: the count of each nibble (rank), bit 1 set means 2 or 3
    // (4 is 0b100), spread back over the nibble.
    let pairs = (pool & 0x5555_5555_5555_5555) + ((pool >> 1) & 0x5555_5555_5555_5555);
    let counts = (pairs & 0x3333_3333_3333_3333) + ((pairs >> 2) & 0x3333_3333_3333_3333);
    let sets = ((counts >> 1) & 0x1111_1111_1111_1111) * 0xF;
    CardSet((runs | sets) & deck & !pool)
}

#[cfg(test)]
mod properties {
    use std::sync::Arc;

    use proptest::prelude::*;

    use super::*;

    /// `near_cards` as first written: a loop over the ranks.
    fn near_reference(pool: u64) -> u64 {
        const FULL_DECK: u64 = (1 << 40) - 1;
        let up = pool >> 4;
        let down = (pool << 4) & FULL_DECK;
        let runs = (up & (pool >> 8)) | (down & ((pool << 8) & FULL_DECK)) | (up & down);
        let mut sets = 0u64;
        for rank in 0..10 {
            let quad = (pool >> (4 * rank)) & 0xF;
            if quad != 0 && quad & (quad - 1) != 0 && quad != 0xF {
                sets |= 0xF << (4 * rank);
            }
        }
        (runs | sets) & FULL_DECK & !pool
    }

    proptest! {
        #[test]
        fn near_cards_agrees_with_the_loop(pool in 0u64..(1u64 << 40)) {
            prop_assert_eq!(near_cards(CardSet(pool)).bits(), near_reference(pool));
        }

        /// The sure signs of `has_take` never claim a take the full list does not have.
        #[test]
        fn has_take_is_the_non_emptiness_of_take_moves(
            hand in 0u64..(1u64 << 40),
            card in 0u8..40,
            meld_pick in 0usize..182,
            classic in any::<bool>(),
        ) {
            let rules = Arc::new(if classic { Rules::classic() } else { Rules::megajogos() });
            let engine = Engine::new(Arc::clone(&rules));
            let meld_index = (meld_pick % rules.catalog.len()) as u8;
            let meld = rules.meld(meld_index);
            let layout = MeldList::from_slice(&[meld_index]);
            let hand = CardSet(hand) - meld - CardSet::card(card);
            prop_assume!(!meld.contains(card));
            let full = !engine.take_moves(meld, hand, card).is_empty();
            prop_assert_eq!(engine.has_take(&layout, meld, hand, card), full);
        }
    }
}
