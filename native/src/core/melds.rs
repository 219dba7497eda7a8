//! Meld legality, a layout's lay-off cards and the exact meld search without a solver (R4-R6,
//! R14), as `analyzer.core.melds` computes them (the meld shapes and the catalog themselves:
//! `crate::core::catalog`).
//!
//! [`max_melded`] and [`covers`] are depth-first searches over the catalog: the lowest card of the
//! remaining set is either left unmelded or covered by a catalog meld whose lowest card it is,
//! memoised on the remaining cards.  The order in which covers are listed is Python's, so that the
//! move lists of both cores are the same lists.

use std::cell::RefCell;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::core::cards::{CardSet, NUM_CARDS};
pub use crate::core::catalog::is_set;
use crate::core::rules::{Rules, MAX_MELDS};

/// A list of melds as catalog indices (a layout, or a cover of a take), at most [`MAX_MELDS`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug, PartialOrd, Ord)]
pub struct MeldList {
    len: u8,
    items: [u8; MAX_MELDS],
}

impl MeldList {
    pub fn new() -> Self {
        MeldList::default()
    }

    /// The melds of `indices` in the order given.
    pub fn from_slice(indices: &[u8]) -> Self {
        let mut out = MeldList::new();
        for &i in indices {
            out.push(i);
        }
        out
    }

    #[inline]
    pub fn push(&mut self, index: u8) {
        self.items[self.len as usize] = index;
        self.len += 1;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.items[..self.len as usize]
    }

    /// Sorted by mask (the catalog is sorted by mask, so by index).
    pub fn sorted(mut self) -> Self {
        self.items[..self.len as usize].sort_unstable();
        self
    }

    /// The same list with `index` inserted in sorted place.
    pub fn with(mut self, index: u8) -> Self {
        self.push(index);
        self.sorted()
    }

    /// All the cards of these melds.
    #[inline]
    pub fn cards(&self, rules: &Rules) -> CardSet {
        self.as_slice()
            .iter()
            .fold(CardSet::EMPTY, |acc, &i| acc | rules.meld(i))
    }
}

/// True if `cards` are 3..=`max_run` cards of one suit in consecutive ranks (R3, R5).
pub fn is_run(cards: CardSet, rules: &Rules) -> bool {
    let n = cards.len();
    if n < 3 || n > rules.max_run {
        return false;
    }
    let low = cards.lowest();
    let mut expected = CardSet::EMPTY;
    for k in 0..n as usize {
        let c = low + 4 * k;
        if c >= NUM_CARDS {
            return false;
        }
        expected.insert(c as u8);
    }
    cards == expected
}

/// True if `cards` are a set (R4) or a run (R5).
pub fn is_meld(cards: CardSet, rules: &Rules) -> bool {
    is_set(cards) || is_run(cards, rules)
}

/// Union of the lay-off extensions (`catalog::extensions`) of the melds of a layout, minus its
/// own cards (R6, R14).
pub fn layoff_mask(layout: &MeldList, rules: &Rules) -> CardSet {
    let mut out = CardSet::EMPTY;
    let mut own = CardSet::EMPTY;
    for &i in layout.as_slice() {
        out |= rules.extension[i as usize];
        own |= rules.meld(i);
    }
    out - own
}

/// The covers of one (cards, must) pair, shared between lookups.
type Covers = Arc<Vec<MeldList>>;

/// The cards of `pool` that lie in some catalog meld inside `pool`.
pub fn live_cards(pool: CardSet, rules: &Rules) -> CardSet {
    let mut live = CardSet::EMPTY;
    for c in pool {
        for &meld in &rules.by_lowest[c as usize] {
            if meld.is_subset(pool) {
                live |= meld;
            }
        }
    }
    live
}

/// The memo tables of the meld search for one ruleset; cleared when they grow past their cap
/// (the answers are pure functions, so clearing changes nothing but time).
pub struct MeldMemo {
    max: RefCell<FxHashMap<(CardSet, CardSet), i8>>,
    walk: RefCell<FxHashMap<(CardSet, CardSet), Covers>>,
    hand_meld: RefCell<FxHashMap<CardSet, bool>>,
}

const MAX_MEMO: usize = 1 << 20;
const WALK_MEMO: usize = 1 << 17;

impl Default for MeldMemo {
    fn default() -> Self {
        MeldMemo {
            max: RefCell::new(FxHashMap::default()),
            walk: RefCell::new(FxHashMap::default()),
            hand_meld: RefCell::new(FxHashMap::default()),
        }
    }
}

impl MeldMemo {
    /// Forget every memo table.
    pub fn clear(&self) {
        self.max.borrow_mut().clear();
        self.walk.borrow_mut().clear();
        self.hand_meld.borrow_mut().clear();
    }

    fn max_melded_rec(&self, cards: CardSet, must: CardSet, rules: &Rules) -> i32 {
        if cards.is_empty() {
            return 0;
        }
        if let Some(&v) = self.max.borrow().get(&(cards, must)) {
            return i32::from(v);
        }
        let x = cards.lowest();
        let low = CardSet::card(x as u8);
        let mut best = -1i32;
        if !must.intersects(low) {
            best = self.max_melded_rec(cards - low, must - low, rules);
        }
        let total = cards.len() as i32;
        for &meld in &rules.by_lowest[x] {
            if meld.is_subset(cards) {
                let rest = self.max_melded_rec(cards - meld, must - meld, rules);
                if rest >= 0 && rest + meld.len() as i32 > best {
                    best = rest + meld.len() as i32;
                    if best == total {
                        break;
                    }
                }
            }
        }
        let mut memo = self.max.borrow_mut();
        if memo.len() >= MAX_MEMO {
            memo.clear();
        }
        memo.insert((cards, must), best as i8);
        best
    }

    /// Most cards of `cards` that split into disjoint melds melding all of `must`; -1 if `must`
    /// cannot all be melded (or is not inside `cards`).
    pub fn max_melded(&self, cards: CardSet, must: CardSet, rules: &Rules) -> i32 {
        if !must.is_subset(cards) {
            return -1;
        }
        // Cards in no meld inside the set are never melded: drop them first (the answer is the
        // same; the search and its memo see fewer cards).
        let live = live_cards(cards, rules);
        if !must.is_subset(live) {
            return -1;
        }
        self.max_melded_rec(live, must, rules)
    }

    /// True if every card of `cards` lies in a meld of one partition.
    pub fn can_meld_all(&self, cards: CardSet, rules: &Rules) -> bool {
        self.max_melded_rec(cards, cards, rules) == cards.len() as i32
    }

    fn walk(&self, rest: CardSet, need: CardSet, rules: &Rules) -> Covers {
        if let Some(hit) = self.walk.borrow().get(&(rest, need)) {
            return Arc::clone(hit);
        }
        let mut out: Vec<MeldList> = Vec::new();
        let done = 'body: {
            if need.is_empty() {
                out.push(MeldList::new());
                if rest.is_empty() {
                    break 'body true;
                }
            }
            if rest.is_empty() {
                break 'body true;
            }
            let x = rest.lowest();
            let low = CardSet::card(x as u8);
            if !need.intersects(low) {
                // The lowest card stays unmelded.
                for t in self.walk(rest - low, need, rules).iter() {
                    if !t.is_empty() {
                        out.push(*t);
                    }
                }
            }
            for (k, &meld) in rules.by_lowest[x].iter().enumerate() {
                if meld.is_subset(rest) {
                    let left = rest - meld;
                    let left_need = need - meld;
                    if self.max_melded_rec(left, left_need, rules) >= 0 {
                        let index = rules.by_lowest_index[x][k];
                        for tail in self.walk(left, left_need, rules).iter() {
                            let mut cover = MeldList::new();
                            cover.push(index);
                            for &i in tail.as_slice() {
                                cover.push(i);
                            }
                            out.push(cover);
                        }
                    }
                }
            }
            true
        };
        debug_assert!(done);
        let out = Arc::new(out);
        let mut memo = self.walk.borrow_mut();
        if memo.len() >= WALK_MEMO {
            memo.clear();
        }
        memo.insert((rest, need), Arc::clone(&out));
        out
    }

    /// Every set of disjoint melds inside `pool` that melds all of `must`, each sorted and once,
    /// in Python's order (`analyzer.core.melds.covers`).
    pub fn covers(&self, pool: CardSet, must: CardSet, rules: &Rules) -> Vec<MeldList> {
        if !must.is_subset(pool) {
            return Vec::new();
        }
        let live = live_cards(pool, rules);
        if !must.is_subset(live) {
            return Vec::new();
        }
        let parts = self.walk(pool & live, must, rules);
        let mut seen = rustc_hash::FxHashSet::default();
        let mut out = Vec::with_capacity(parts.len());
        for part in parts.iter() {
            let key = part.sorted();
            if seen.insert(key) {
                out.push(key);
            }
        }
        out
    }

    /// True if some meld can be laid from `hand` alone (R16).
    pub fn has_hand_meld(&self, hand: CardSet, rules: &Rules) -> bool {
        if let Some(&v) = self.hand_meld.borrow().get(&hand) {
            return v;
        }
        let found = hand.iter().any(|x| {
            rules.by_lowest[x as usize]
                .iter()
                .any(|&m| m.is_subset(hand))
        });
        let mut memo = self.hand_meld.borrow_mut();
        if memo.len() >= MAX_MEMO {
            memo.clear();
        }
        memo.insert(hand, found);
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cards: &[u8]) -> CardSet {
        cards.iter().copied().collect()
    }

    #[test]
    fn worked_example_1_runs() {
        // RULES.md worked example 1: AS 2S 3S is a run; QC KC AC is not (no wrap-around, R3).
        let rules = Rules::classic();
        assert!(is_run(set(&[0, 4, 8]), &rules));
        assert!(!is_meld(set(&[35, 39, 3]), &rules));
    }

    #[test]
    fn worked_example_3_max_run() {
        // Eight spades from the ace is a run in classic; nine is over max_run (R5).
        let classic = Rules::classic();
        let mega = Rules::megajogos();
        let eight: CardSet = (0..8).map(|r| 4 * r).collect();
        let nine = eight | CardSet::card(32);
        assert!(is_run(eight, &classic));
        assert!(!is_run(nine, &classic));
        assert!(is_run(nine, &mega));
    }

    #[test]
    fn sets_and_max_melded() {
        let rules = Rules::classic();
        let memo = MeldMemo::default();
        let sevens = CardSet::rank(6);
        assert!(is_set(sevens));
        assert_eq!(
            memo.max_melded(sevens | CardSet::card(0), CardSet::EMPTY, &rules),
            4
        );
        assert_eq!(memo.max_melded(sevens, CardSet::card(0), &rules), -1);
        assert!(memo.can_meld_all(sevens, &rules));
    }

    #[test]
    fn covers_of_a_take_meld_the_must_cards() {
        let rules = Rules::classic();
        let memo = MeldMemo::default();
        // 6H 7H JH melded; JS JD in hand; 5H offered (worked example 4).
        let layout = set(&[21, 25, 29]);
        let hand = set(&[28, 30]);
        let centre = CardSet::card(17);
        let must = layout | centre;
        let found = memo.covers(must | hand, must, &rules);
        assert!(!found.is_empty());
        for cover in &found {
            assert_eq!(cover.cards(&rules) & must, must);
        }
    }
}
