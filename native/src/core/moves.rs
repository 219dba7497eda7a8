//! Move values (R9-R16), as `analyzer.core.moves` has them: a take or lay-in is the player's whole
//! new layout (sorted catalog indices) and the card paid, or none when he goes out.

use crate::core::melds::MeldList;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// Decline the centre card (R12, R17).
    Pass,
    /// Take the centre card (R13): the new layout, and the card paid, or `None` when he goes
    /// out (R15).
    Take(MeldList, Option<u8>),
    /// The forced player's lay-in (R14): the new layout and the card paid, or `None` (R15).
    LayIn(MeldList, Option<u8>),
    /// Force this player to take the centre card (R14).
    Force(u8),
    /// Lay one meld from the hand alone (R16), by catalog index.
    Meld(u8),
    /// Pass this card to the next player in the exchange (R9).
    Give(u8),
    /// This card is turned from the stock (R10, a chance move).
    Turn(u8),
}

impl Move {
    /// True for a take or lay-in that goes out (R15).
    #[inline]
    pub fn goes_out(&self) -> bool {
        matches!(self, Move::Take(_, None) | Move::LayIn(_, None))
    }

    /// The new layout of a take or lay-in.
    #[inline]
    pub fn layout(&self) -> Option<&MeldList> {
        match self {
            Move::Take(layout, _) | Move::LayIn(layout, _) => Some(layout),
            _ => None,
        }
    }

    /// The card paid by a take or lay-in that does not go out.
    #[inline]
    pub fn pay(&self) -> Option<u8> {
        match self {
            Move::Take(_, pay) | Move::LayIn(_, pay) => *pay,
            _ => None,
        }
    }
}
