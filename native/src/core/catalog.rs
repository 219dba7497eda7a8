//! The shapes of melds as card sets, by the longest run alone (R4, R5): what a set is, which
//! cards extend a meld, and the catalog of every legal meld.  `crate::core::rules` builds its
//! tables from these and `crate::core::melds` reads them, so neither imports the other.

use crate::core::cards::{CardSet, NUM_CARDS};

/// True if `meld` is 3 or 4 cards of one rank (R4).
#[inline]
pub fn is_set(meld: CardSet) -> bool {
    let n = meld.len();
    if n != 3 && n != 4 {
        return false;
    }
    meld.is_subset(CardSet::rank(meld.lowest() / 4))
}

/// Cards that extend `meld` by lay-off without other cards (R14 `layoff`), runs being at most
/// `max_run` long (Python's `melds.extensions`).
pub fn extensions(meld: CardSet, max_run: u32) -> CardSet {
    if is_set(meld) {
        if meld.len() == 4 {
            return CardSet::EMPTY;
        }
        return CardSet::rank(meld.lowest() / 4) - meld;
    }
    if meld.len() >= max_run {
        return CardSet::EMPTY;
    }
    let low = meld.lowest();
    let high = meld.highest();
    let mut out = CardSet::EMPTY;
    if low >= 4 {
        out.insert((low - 4) as u8);
    }
    if high + 4 < NUM_CARDS {
        out.insert((high + 4) as u8);
    }
    out
}

/// Every legal meld with runs at most `max_run` long, sorted (Python's `melds.catalog`).
pub fn build_catalog(max_run: u32) -> Vec<CardSet> {
    let mut melds = Vec::new();
    for rank in 0..10 {
        let four = CardSet::rank(rank);
        melds.push(four);
        for suit in 0..4 {
            melds.push(four - CardSet::card((4 * rank + suit) as u8));
        }
    }
    for suit in 0..4 {
        for low in 0..10u32 {
            for length in 3..=max_run {
                if low + length > 10 {
                    break;
                }
                let meld = (0..length).map(|k| (4 * (low + k) + suit) as u8).collect();
                melds.push(meld);
            }
        }
    }
    melds.sort_unstable();
    melds
}
