//! Cards as indices `(rank - 1) * 4 + suit` and sets of cards as [`CardSet`]s (R1-R3).

use std::fmt;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign,
};

pub const NUM_CARDS: usize = 40;

/// A set of cards of the 40-card deck: card `c` is bit `c` of a 40-bit mask (Python's card
/// masks, which cross the boundary as they are).  Ordered as the masks are; iterated in
/// increasing card order (rank, then suit), as Python's `iter_mask`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[repr(transparent)]
pub struct CardSet(pub u64);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);
    /// Every card of the deck.
    pub const FULL: CardSet = CardSet((1u64 << NUM_CARDS) - 1);

    /// The set of one card.
    #[inline]
    pub const fn card(card: u8) -> CardSet {
        CardSet(1u64 << card)
    }

    /// The four cards of rank ordinal `rank` (0..10).
    #[inline]
    pub const fn rank(rank: usize) -> CardSet {
        CardSet(0xF << (4 * rank))
    }

    /// The mask, as Python holds it.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    #[inline]
    pub const fn contains(self, card: u8) -> bool {
        self.0 >> card & 1 == 1
    }

    #[inline]
    pub fn insert(&mut self, card: u8) {
        self.0 |= 1u64 << card;
    }

    #[inline]
    pub fn remove(&mut self, card: u8) {
        self.0 &= !(1u64 << card);
    }

    /// The number of cards.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True if every card of `self` is in `other`.
    #[inline]
    pub const fn is_subset(self, other: CardSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// True if the two sets share a card.
    #[inline]
    pub const fn intersects(self, other: CardSet) -> bool {
        self.0 & other.0 != 0
    }

    /// The lowest card, if any.
    #[inline]
    pub const fn first(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as u8)
        }
    }

    /// The lowest card of a set known not to be empty.
    #[inline]
    pub const fn lowest(self) -> usize {
        debug_assert!(self.0 != 0);
        self.0.trailing_zeros() as usize
    }

    /// The highest card of a set known not to be empty.
    #[inline]
    pub const fn highest(self) -> usize {
        debug_assert!(self.0 != 0);
        63 - self.0.leading_zeros() as usize
    }

    /// The set without its lowest card.
    #[inline]
    pub const fn without_lowest(self) -> CardSet {
        CardSet(self.0 & self.0.wrapping_sub(1))
    }

    /// The cards in increasing order.
    #[inline]
    pub const fn iter(self) -> Cards {
        Cards(self.0)
    }
}

/// The cards of a [`CardSet`] in increasing order.
#[derive(Clone, Copy, Debug)]
pub struct Cards(u64);

impl Iterator for Cards {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let c = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(c)
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Cards {}

impl IntoIterator for CardSet {
    type Item = u8;
    type IntoIter = Cards;

    #[inline]
    fn into_iter(self) -> Cards {
        self.iter()
    }
}

impl FromIterator<u8> for CardSet {
    fn from_iter<I: IntoIterator<Item = u8>>(cards: I) -> Self {
        let mut set = CardSet::EMPTY;
        for c in cards {
            set.insert(c);
        }
        set
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CardSet")?;
        f.debug_list().entries(self.iter()).finish()
    }
}

impl BitOr for CardSet {
    type Output = CardSet;
    #[inline]
    fn bitor(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }
}

impl BitAnd for CardSet {
    type Output = CardSet;
    #[inline]
    fn bitand(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }
}

impl BitXor for CardSet {
    type Output = CardSet;
    #[inline]
    fn bitxor(self, other: CardSet) -> CardSet {
        CardSet(self.0 ^ other.0)
    }
}

/// The cards of the deck not in the set.
impl Not for CardSet {
    type Output = CardSet;
    #[inline]
    fn not(self) -> CardSet {
        CardSet(!self.0 & CardSet::FULL.0)
    }
}

/// The cards of the first set not in the second.
impl Sub for CardSet {
    type Output = CardSet;
    #[inline]
    fn sub(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }
}

impl BitOrAssign for CardSet {
    #[inline]
    fn bitor_assign(&mut self, other: CardSet) {
        self.0 |= other.0;
    }
}

impl BitAndAssign for CardSet {
    #[inline]
    fn bitand_assign(&mut self, other: CardSet) {
        self.0 &= other.0;
    }
}

impl BitXorAssign for CardSet {
    #[inline]
    fn bitxor_assign(&mut self, other: CardSet) {
        self.0 ^= other.0;
    }
}

impl SubAssign for CardSet {
    #[inline]
    fn sub_assign(&mut self, other: CardSet) {
        self.0 &= !other.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let a: CardSet = [0u8, 4, 8, 39].into_iter().collect();
        let b = CardSet::card(4) | CardSet::card(5);
        assert_eq!((a | b).iter().collect::<Vec<_>>(), vec![0, 4, 5, 8, 39]);
        assert_eq!(a & b, CardSet::card(4));
        assert_eq!(
            a - b,
            CardSet::card(0) | CardSet::card(8) | CardSet::card(39)
        );
        assert_eq!((!a).len(), 36);
        assert!(!(!a).contains(39) && !(!a).intersects(a));
        assert_eq!(!CardSet::EMPTY, CardSet::FULL);
        assert_eq!((a.len(), a.first(), a.highest()), (4, Some(0), 39));
        assert_eq!(CardSet::EMPTY.first(), None);
        let mut c = a;
        c.remove(0);
        c.insert(1);
        assert_eq!(
            c,
            CardSet::card(1) | CardSet::card(4) | CardSet::card(8) | CardSet::card(39)
        );
        assert!(CardSet::card(4).is_subset(a) && !b.is_subset(a));
        assert_eq!(CardSet::rank(1), [4u8, 5, 6, 7].into_iter().collect());
        assert_eq!(a.without_lowest(), a - CardSet::card(0));
    }
}
