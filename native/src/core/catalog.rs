//! The shapes of melds as card masks, by the longest run alone (R4, R5): what a set is, which
//! cards extend a meld, and the catalog of every legal meld.  `crate::core::rules` builds its
//! tables from these and `crate::core::melds` reads them, so neither imports the other.

use crate::core::cards::{high_card, low_card, popcount, NUM_CARDS, RANK_MASK};

/// True if `mask` is 3 or 4 cards of one rank (R4).
#[inline]
pub fn is_set(mask: u64) -> bool {
    let n = popcount(mask);
    if n != 3 && n != 4 {
        return false;
    }
    mask & !RANK_MASK[low_card(mask) / 4] == 0
}

/// Cards that extend `meld` by lay-off without other cards (R14 `layoff`), runs being at most
/// `max_run` long (Python's `melds.extensions`).
pub fn extensions(meld: u64, max_run: u32) -> u64 {
    if is_set(meld) {
        if popcount(meld) == 4 {
            return 0;
        }
        return RANK_MASK[low_card(meld) / 4] & !meld;
    }
    if popcount(meld) >= max_run {
        return 0;
    }
    let low = low_card(meld);
    let high = high_card(meld);
    let mut out = 0;
    if low >= 4 {
        out |= 1u64 << (low - 4);
    }
    if high + 4 < NUM_CARDS {
        out |= 1u64 << (high + 4);
    }
    out
}

/// Every legal meld with runs at most `max_run` long, sorted by mask (Python's `melds.catalog`).
pub fn build_catalog(max_run: u32) -> Vec<u64> {
    let mut melds = Vec::new();
    for rank in 0..10 {
        let four = RANK_MASK[rank];
        melds.push(four);
        for suit in 0..4 {
            melds.push(four & !(1u64 << (4 * rank + suit)));
        }
    }
    for suit in 0..4 {
        for low in 0..10u32 {
            for length in 3..=max_run {
                if low + length > 10 {
                    break;
                }
                let mut meld = 0u64;
                for k in 0..length {
                    meld |= 1u64 << (4 * (low + k) + suit);
                }
                melds.push(meld);
            }
        }
    }
    melds.sort_unstable();
    melds
}
