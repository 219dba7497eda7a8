//! The centre card and its offer (R10-R14), as `analyzer.core.offers` has them: the [`Phase`]
//! of a deal, the [`Offer`] of the centre card and the order in which it is offered.

use crate::core::rules::{Rules, MAX_PLAYERS};

/// What happens next (Python's `Phase`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// R9: players choose a card to pass.
    Exchange,
    /// R10: a stock card is turned (chance).
    Turn,
    /// R11, R12: the centre card is offered.
    Offer,
    /// R14: the forced player lays the card in and pays.
    Forced,
    /// R15, R18: the deal has ended.
    Over,
}

/// The centre card and its offer (R10-R14).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Offer {
    pub card: u8,
    /// A paid card (R13); else turned (R10).
    pub paid: bool,
    /// The upcard, turned up by the dealer at the deal (R10a; `paid` is false).
    pub upcard: bool,
    pub source: u8,
    /// Players who passed it, in order; entries past `ndeclined` are 0.
    pub declined: [u8; MAX_PLAYERS],
    pub ndeclined: u8,
    /// The player forced to take it (R14).
    pub forced: Option<u8>,
}

impl Offer {
    pub fn new(card: u8, paid: bool, source: u8) -> Self {
        Offer {
            card,
            paid,
            upcard: false,
            source,
            declined: [0; MAX_PLAYERS],
            ndeclined: 0,
            forced: None,
        }
    }

    /// The kind as Python's code: 0 turned, 1 paid, 2 upcard.
    pub fn kind(&self) -> u8 {
        if self.paid {
            1
        } else if self.upcard {
            2
        } else {
            0
        }
    }

    #[inline]
    pub fn declined(&self) -> &[u8] {
        &self.declined[..self.ndeclined as usize]
    }

    pub(crate) fn with_decline(mut self, player: u8) -> Self {
        self.declined[self.ndeclined as usize] = player;
        self.ndeclined += 1;
        self
    }

    /// The offer order of this card (R10a, R11, R14a, Python's `offer_order`) as the seat
    /// offset of its first player from the source and its length: a turned card from its
    /// turner, all players; a paid card from the next player, all but the payer (under
    /// `discard_force` from the payer, all); the upcard from the player after the dealer round
    /// to the dealer.
    #[inline]
    pub fn order_shape(&self, rules: &Rules) -> (u8, u8) {
        let n = rules.players as u8;
        if self.upcard {
            (1, n)
        } else if self.paid && !rules.discard_force {
            (1, n - 1)
        } else {
            (0, n)
        }
    }
}
