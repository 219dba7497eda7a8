//! New deals (R8), as `analyzer.core.dealing.deal` makes them: the same seed deals the same
//! cards in both cores, so that tests, examples and benchmarks start from Python's deals.

use crate::core::cards::CardSet;
use crate::core::melds::MeldList;
use crate::core::offers::{Offer, Phase};
use crate::core::rules::{Rules, MAX_PLAYERS};
use crate::core::state::{Paid, State};
use crate::rng::PyRandom;

/// The deal of `deck` (the 40 cards in the order dealt) by `dealer` (R8): one card at a time
/// from the player after him, the rest the stock, top first and its order known; the upcard
/// turned from it (R10a) and the exchange to play first (R9) where the rules have them.
///
/// # Panics
/// If `deck` is shorter than the hands, or `dealer` is not a seat.
pub fn deal_deck(rules: &Rules, deck: &[u8], dealer: u8) -> State {
    let n = rules.players;
    assert!((dealer as usize) < n, "no seat {dealer} to deal");
    let dealt = n * rules.hand_size;
    let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
    let mut counts = [0u8; MAX_PLAYERS];
    for (k, &card) in deck[..dealt].iter().enumerate() {
        hands[(dealer as usize + 1 + k) % n].insert(card);
    }
    counts[..n].fill(rules.hand_size as u8);
    let mut rest = &deck[dealt..];
    let mut centre = None;
    if rules.upcard {
        let mut upcard = Offer::new(rest[0], false, dealer);
        upcard.upcard = true;
        centre = Some(upcard);
        rest = &rest[1..];
    }
    let mut stock = [0u8; 40];
    for (i, &c) in rest.iter().rev().enumerate() {
        stock[i] = c;
    }
    let phase = if rules.exchange {
        Phase::Exchange
    } else if centre.is_some() {
        Phase::Offer
    } else {
        Phase::Turn
    };
    State {
        dealer,
        hands,
        hidden: 0,
        counts,
        layouts: [MeldList::new(); MAX_PLAYERS],
        melded: [CardSet::EMPTY; MAX_PLAYERS],
        stock,
        stock_known: true,
        stock_count: rest.len() as u8,
        dead: [0; 40],
        ndead: 0,
        dead_mask: CardSet::EMPTY,
        centre,
        to_act: (dealer + 1) % n as u8,
        phase,
        winner: None,
        gifts: rules.exchange.then_some([None; MAX_PLAYERS]),
        gave: None,
        paid: Paid::default(),
    }
}

/// Python's `deal(rules, seed)`: the dealer drawn (`randrange(players)`), the 40 cards
/// shuffled, then dealt by [`deal_deck`].
pub fn deal(rules: &Rules, seed: u128) -> State {
    let mut rng = PyRandom::from_seed(seed);
    let dealer = rng.randrange(rules.players) as u8;
    let mut deck: Vec<u8> = (0..40).collect();
    rng.shuffle(&mut deck);
    deal_deck(rules, &deck, dealer)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every card is dealt once: the hands, the stock and the upcard make the deck (R8, R10a).
    #[test]
    fn a_deal_holds_every_card_once() {
        let rules = [
            Rules::classic(),
            Rules::megajogos(),
            Rules::classic().with_historical(true, true, true),
        ];
        for rules in &rules {
            for seed in 0..20 {
                let s = deal(rules, seed);
                let mut all = s.stock_mask(rules.players).expect("known");
                for p in 0..rules.players {
                    assert_eq!(s.hands[p].len() as usize, rules.hand_size);
                    assert!(!all.intersects(s.hands[p]));
                    all |= s.hands[p];
                }
                if let Some(c) = s.centre {
                    assert!(c.upcard && c.source == s.dealer);
                    assert!(!all.contains(c.card));
                    all.insert(c.card);
                }
                assert_eq!(all, CardSet::FULL);
            }
        }
    }
}
