//! The options of a variant (RULES.md section 4), as `analyzer.core.rules.Rules` holds them, and
//! the meld catalog they imply (R4, R5).  Every field is read by the shared mechanics, so a new
//! preset needs no new code here.

use crate::core::cards::{CardSet, NUM_CARDS};
use crate::core::catalog::{build_catalog, extensions};

/// The most melds one layout can hold: 40 cards in melds of three.
pub const MAX_MELDS: usize = 13;
/// The most players of any variant.
pub const MAX_PLAYERS: usize = 4;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Players at the table (2..=4).
    pub players: usize,
    /// Cards dealt to each player (R8); `target` is one more (R15).
    pub hand_size: usize,
    /// Longest legal run (R5), 3..=10.
    pub max_run: u32,
    /// R9: the exchange `pass_one` is played before the first turn.
    pub exchange: bool,
    /// R14 `force_fit = rearrange` (else `layoff`).
    pub force_fit_rearrange: bool,
    /// R14 `force_when = any_offer` (else `after_decline`).
    pub force_any_offer: bool,
    /// R16: hand-only melds may be laid when offered a card.
    pub hand_melds: bool,
    /// R18 `on_stock_out = fewest_in_hand` (else `draw`).
    pub stock_out_fewest: bool,
    /// R13a `rearrange = borrow` (else `own`): Foster's borrowing limits.
    pub borrow: bool,
    /// R10a: the dealer turns a card up at the deal.
    pub upcard: bool,
    /// R14a: a payer may force with his paid card.
    pub discard_force: bool,
    /// Every legal meld, sorted by mask (R4, R5).
    pub catalog: Vec<CardSet>,
    /// Per card: the catalog melds whose lowest card it is, larger melds first (ties in catalog order).
    pub by_lowest: Vec<Vec<CardSet>>,
    /// Per card: the same melds as catalog indices.
    pub by_lowest_index: Vec<Vec<u8>>,
    /// Per catalog meld: the cards that extend it by lay-off (R14, `catalog::extensions`).
    pub extension: Vec<CardSet>,
}

impl Rules {
    /// The rules with these options.
    ///
    /// # Errors
    /// A message naming the option out of range.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        players: usize,
        hand_size: usize,
        max_run: u32,
        exchange: bool,
        force_fit_rearrange: bool,
        force_any_offer: bool,
        hand_melds: bool,
        stock_out_fewest: bool,
    ) -> Result<Self, String> {
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(format!("players must be 2 to 4, got {players}"));
        }
        if hand_size < 1 || players * hand_size >= NUM_CARDS {
            return Err(format!(
                "hand_size {hand_size} does not deal {players} players from 40 cards"
            ));
        }
        if !(3..=10).contains(&max_run) {
            return Err(format!("max_run must be 3..10, got {max_run}"));
        }
        let catalog = build_catalog(max_run);
        let mut by_lowest_index: Vec<Vec<u8>> = vec![Vec::new(); NUM_CARDS];
        for (i, &meld) in catalog.iter().enumerate() {
            by_lowest_index[meld.lowest()].push(i as u8);
        }
        for list in &mut by_lowest_index {
            // Larger melds first; a stable sort keeps the catalog order among equals (as Python).
            list.sort_by_key(|&i| std::cmp::Reverse(catalog[i as usize].len()));
        }
        let by_lowest = by_lowest_index
            .iter()
            .map(|list| list.iter().map(|&i| catalog[i as usize]).collect())
            .collect();
        let mut rules = Rules {
            players,
            hand_size,
            max_run,
            exchange,
            force_fit_rearrange,
            force_any_offer,
            hand_melds,
            stock_out_fewest,
            borrow: false,
            upcard: false,
            discard_force: false,
            catalog,
            by_lowest,
            by_lowest_index,
            extension: Vec::new(),
        };
        rules.extension = rules
            .catalog
            .iter()
            .map(|&m| extensions(m, max_run))
            .collect();
        Ok(rules)
    }

    /// These rules with the historical mechanics set: `rearrange = borrow` (R13a), the upcard
    /// (R10a) and forcing with one's own paid card (R14a).
    pub fn with_historical(mut self, borrow: bool, upcard: bool, discard_force: bool) -> Self {
        self.borrow = borrow;
        self.upcard = upcard;
        self.discard_force = discard_force;
        self
    }

    /// `classic` (RULES.md section 4).
    pub fn classic() -> Self {
        Rules::new(2, 10, 8, false, false, false, false, false).expect("classic")
    }

    /// `megajogos` (RULES.md section 4).
    pub fn megajogos() -> Self {
        Rules::new(3, 8, 10, true, false, true, true, true).expect("megajogos")
    }

    /// Melded cards needed to go out (R15).
    pub fn target(&self) -> usize {
        self.hand_size + 1
    }

    /// The catalog index of a legal meld.
    pub fn meld_index(&self, meld: CardSet) -> Option<u8> {
        self.catalog.binary_search(&meld).ok().map(|i| i as u8)
    }

    /// The cards of catalog meld `index`.
    #[inline]
    pub fn meld(&self, index: u8) -> CardSet {
        self.catalog[index as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_sizes() {
        // 50 sets, and 132 runs with max_run 8 or 144 with no cap (RULES.md R4, R5).
        assert_eq!(Rules::classic().catalog.len(), 182);
        assert_eq!(Rules::megajogos().catalog.len(), 194);
    }

    #[test]
    fn bad_options_refused() {
        assert!(Rules::new(5, 8, 10, false, false, false, false, false).is_err());
        assert!(Rules::new(2, 20, 10, false, false, false, false, false).is_err());
        assert!(Rules::new(2, 10, 2, false, false, false, false, false).is_err());
    }
}
