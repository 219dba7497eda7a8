//! Cards as indices `(rank - 1) * 4 + suit` and sets of cards as 40-bit masks (R1-R3).

pub const NUM_CARDS: usize = 40;
pub const FULL_DECK: u64 = (1u64 << NUM_CARDS) - 1;

/// Per rank ordinal 0..10: the mask of its four cards.
pub const RANK_MASK: [u64; 10] = {
    let mut out = [0u64; 10];
    let mut r = 0;
    while r < 10 {
        out[r] = 0xF << (4 * r);
        r += 1;
    }
    out
};

#[inline]
pub fn popcount(mask: u64) -> u32 {
    mask.count_ones()
}

/// The lowest card of a non-empty mask.
#[inline]
pub fn low_card(mask: u64) -> usize {
    mask.trailing_zeros() as usize
}

/// The highest card of a non-empty mask.
#[inline]
pub fn high_card(mask: u64) -> usize {
    63 - mask.leading_zeros() as usize
}

/// The cards of a mask in increasing order (rank, then suit), as Python's `iter_mask`.
#[inline]
pub fn cards(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let c = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            Some(c)
        }
    })
}

#[inline]
pub fn bit(card: u8) -> u64 {
    1u64 << card
}
