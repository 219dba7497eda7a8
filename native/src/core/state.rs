//! The game state and its moves (R8-R19), as `analyzer.core.state.GameState` has them: a
//! [`State`] is a plain value; the [`Engine`] (rules and memo tables, `crate::core::legal`) lists
//! its legal moves and applies them (its forced runs: `crate::core::forced`).  Every list comes
//! in Python's order, so that both cores list the same moves.

use std::sync::Arc;

use crate::core::cards::CardSet;
use crate::core::legal::{borrow_ok, Engine};
use crate::core::melds::MeldList;
use crate::core::moves::Move;
use crate::core::offers::{Offer, Phase};
use crate::core::rules::MAX_PLAYERS;

/// The cards each player was seen to pay this deal (history: no part of equality or keys).
#[derive(Clone, Copy, Debug)]
pub struct Paid {
    /// Python's `paid` is `()` until the first pay, then one tuple per player.
    pub present: bool,
    pub len: u8,
    /// `player << 6 | card`, oldest first.
    pub items: [u8; 40],
}

impl Default for Paid {
    fn default() -> Self {
        Paid {
            present: false,
            len: 0,
            items: [0; 40],
        }
    }
}

impl Paid {
    pub fn push(&mut self, player: u8, card: u8) {
        self.present = true;
        if (self.len as usize) < self.items.len() {
            self.items[self.len as usize] = player << 6 | card;
            self.len += 1;
        }
    }

    /// The cards paid by `player`, oldest first.
    pub fn of(&self, player: u8) -> impl Iterator<Item = u8> + '_ {
        self.items[..self.len as usize]
            .iter()
            .filter(move |&&x| x >> 6 == player)
            .map(|&x| x & 63)
    }
}

/// One position of a deal.
#[derive(Clone, Debug)]
pub struct State {
    pub dealer: u8,
    /// Each hand; empty and its bit in `hidden` when hidden.
    pub hands: [CardSet; MAX_PLAYERS],
    pub hidden: u8,
    pub counts: [u8; MAX_PLAYERS],
    pub layouts: [MeldList; MAX_PLAYERS],
    /// The cards of each layout (derived from `layouts`).
    pub melded: [CardSet; MAX_PLAYERS],
    /// The stock when its order is known: `stock[..stock_count]`, the top card last.
    pub stock: [u8; 40],
    pub stock_known: bool,
    pub stock_count: u8,
    /// Dead cards in the order they died (R17).
    pub dead: [u8; 40],
    pub ndead: u8,
    pub dead_mask: CardSet,
    pub centre: Option<Offer>,
    pub to_act: u8,
    pub phase: Phase,
    pub winner: Option<u8>,
    /// The exchange: the card each player has chosen so far (`None`: not yet, or hidden);
    /// `None` is Python's `()`.
    pub gifts: Option<[Option<u8>; MAX_PLAYERS]>,
    /// After the exchange: the card each player passed on (`None`: hidden).
    pub gave: Option<[Option<u8>; MAX_PLAYERS]>,
    pub paid: Paid,
}

impl PartialEq for State {
    /// Python's equality: every field but the history `paid`.
    fn eq(&self, other: &Self) -> bool {
        self.dealer == other.dealer
            && self.hands == other.hands
            && self.hidden == other.hidden
            && self.counts == other.counts
            && self.layouts == other.layouts
            && self.stock_known == other.stock_known
            && self.stock_count == other.stock_count
            && (!self.stock_known || self.stock_cards().eq(other.stock_cards()))
            && self.dead_cards() == other.dead_cards()
            && self.centre == other.centre
            && self.to_act == other.to_act
            && self.phase == other.phase
            && self.winner == other.winner
            && self.gifts == other.gifts
            && self.gave == other.gave
    }
}

/// A compact, exact key of everything that matters for the rest of one deal (Python's
/// `position_key`): hands, layouts, the stock length (the order is the deal's), the dead cards
/// as a set when the stock order is unknown, the offer, the player to act, phase, winner, gifts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Key([u64; 7]);

impl State {
    /// The stock cards top first, as Python's tuple.
    pub fn stock_cards(&self) -> impl Iterator<Item = u8> + '_ {
        self.stock[..self.stock_count as usize]
            .iter()
            .rev()
            .copied()
    }

    /// The top card of a known stock.
    #[inline]
    pub fn stock_top(&self) -> u8 {
        self.stock[self.stock_count as usize - 1]
    }

    pub fn dead_cards(&self) -> &[u8] {
        &self.dead[..self.ndead as usize]
    }

    #[inline]
    pub fn is_hidden(&self, player: usize) -> bool {
        self.hidden >> player & 1 == 1
    }

    #[inline]
    pub fn any_hidden(&self) -> bool {
        self.hidden != 0
    }

    #[inline]
    pub fn is_terminal(&self) -> bool {
        self.phase == Phase::Over
    }

    #[inline]
    pub fn is_chance(&self) -> bool {
        self.phase == Phase::Turn
    }

    pub(crate) fn push_dead(&mut self, card: u8) {
        self.dead[self.ndead as usize] = card;
        self.ndead += 1;
        self.dead_mask.insert(card);
    }

    /// Every face-up card: layouts, dead cards and the centre card.
    pub fn table_mask(&self, players: usize) -> CardSet {
        let mut cards = self.dead_mask;
        for p in 0..players {
            cards |= self.melded[p];
        }
        if let Some(c) = self.centre {
            cards.insert(c.card);
        }
        cards
    }

    /// The stock cards when known (order known, or every hand known).
    pub fn stock_mask(&self, players: usize) -> Option<CardSet> {
        if self.stock_known {
            return Some(self.stock_cards().collect());
        }
        if self.any_hidden() {
            return None;
        }
        let mut known = self.table_mask(players);
        for p in 0..players {
            known |= self.hands[p];
        }
        Some(!known)
    }

    /// The table key of this position (see [`Key`]), packed in fixed places: the hands in
    /// words 0-2, the layouts (at most 13 melds in all) in words 3-4, then the rest.
    pub fn key(&self, players: usize) -> Key {
        let h = self.hands.map(CardSet::bits);
        let w0 = h[0] | h[1] << 40;
        let w1 = h[1] >> 24 | h[2] << 16 | h[3] << 56;
        let w2 = h[3] >> 8;
        let mut melds: u128 = 0;
        let mut at = 0u32;
        for p in 0..players {
            let layout = &self.layouts[p];
            melds |= (layout.len() as u128) << at;
            at += 4;
            for &m in layout.as_slice() {
                melds |= u128::from(m) << at;
                at += 8;
            }
        }
        let dead = if self.stock_known {
            0
        } else {
            self.dead_mask.bits()
        };
        let w5 = dead
            | u64::from(self.stock_count) << 40
            | u64::from(self.hidden) << 46
            | u64::from(self.to_act) << 50
            | (self.phase as u64) << 52
            | self.winner.map_or(0, |w| 1 + u64::from(w)) << 55;
        let mut w6 = match self.centre {
            None => 0,
            Some(c) => {
                let mut x =
                    1 | u64::from(c.card) << 1 | u64::from(c.paid) << 7 | u64::from(c.source) << 8;
                x |= u64::from(c.ndeclined) << 10 | u64::from(c.upcard) << 62;
                for (k, &d) in c.declined().iter().enumerate() {
                    x |= u64::from(d) << (13 + 2 * k);
                }
                x | c.forced.map_or(0, |f| 1 + u64::from(f)) << 21
            }
        };
        if let Some(g) = self.gifts {
            // Seven bits a seat: the card chosen, 127 for none yet.
            w6 |= 1 << 24;
            for (k, &x) in g.iter().take(players).enumerate() {
                w6 |= x.map_or(127, u64::from) << (25 + 7 * k);
            }
        }
        Key([w0, w1, w2, melds as u64, (melds >> 64) as u64, w5, w6])
    }

    /// The melded count of `player`.
    #[inline]
    pub fn melded_count(&self, player: usize) -> u32 {
        self.melded[player].len()
    }
}

/// The error of a move the position cannot make (a hidden hand, an unknown stock).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HiddenError(pub &'static str);

impl Engine {
    /// Players the player to act may force with the centre card (R14).
    pub fn forceable(&self, s: &State) -> ([u8; MAX_PLAYERS], usize) {
        let mut out = [0u8; MAX_PLAYERS];
        let mut n = 0;
        if s.phase != Phase::Offer {
            return (out, 0);
        }
        let Some(offer) = s.centre else {
            return (out, 0);
        };
        let (cands, k) = self.force_candidates(s.to_act, &offer);
        for &p in &cands[..k] {
            if self
                .fitting_cards(&s.layouts[p as usize])
                .contains(offer.card)
            {
                out[n] = p;
                n += 1;
            }
        }
        (out, n)
    }

    /// The takes of the player to act (R13, R15); empty unless a card is offered to him and
    /// he did not pay it (R14a).
    pub fn takes(&self, s: &State) -> Result<Arc<Vec<Move>>, HiddenError> {
        let me = s.to_act as usize;
        match (s.phase, s.centre) {
            (Phase::Offer, Some(offer)) if !(offer.paid && offer.source == s.to_act) => {
                if s.is_hidden(me) {
                    return Err(HiddenError("the hand of the player to act is hidden"));
                }
                Ok(self.layout_takes(&s.layouts[me], s.melded[me], s.hands[me], offer.card))
            }
            _ => Ok(Arc::new(Vec::new())),
        }
    }

    /// The catalog indices of the melds the player to act could lay from his hand alone (R16).
    pub fn hand_melds(&self, s: &State) -> Vec<u8> {
        let hand = s.hands[s.to_act as usize];
        let rules = &*self.rules;
        let mut out = Vec::new();
        for x in hand {
            for (k, &meld) in rules.by_lowest[x as usize].iter().enumerate() {
                if meld.is_subset(hand) {
                    out.push(rules.by_lowest_index[x as usize][k]);
                }
            }
        }
        out
    }

    /// The first meld the player to act could lay from his hand alone (R16), in
    /// [`Engine::hand_melds`] order, without listing the others.
    pub fn first_hand_meld(&self, s: &State) -> Option<u8> {
        let hand = s.hands[s.to_act as usize];
        let rules = &*self.rules;
        for x in hand {
            for (k, &meld) in rules.by_lowest[x as usize].iter().enumerate() {
                if meld.is_subset(hand) {
                    return Some(rules.by_lowest_index[x as usize][k]);
                }
            }
        }
        None
    }

    /// The possible turns (R10): the top of a known stock, else every stock card.
    pub fn chance_cards(&self, s: &State) -> Result<Vec<u8>, HiddenError> {
        if s.stock_known {
            return Ok(vec![s.stock_top()]);
        }
        match s.stock_mask(self.players()) {
            Some(stock) => Ok(stock.iter().collect()),
            None => Err(HiddenError(
                "the stock cards are unknown while hands are hidden",
            )),
        }
    }

    /// Every legal move of the player to act, in Python's order (`GameState.legal_moves`).
    pub fn legal_moves(&self, s: &State) -> Result<Vec<Move>, HiddenError> {
        match s.phase {
            Phase::Over => Ok(Vec::new()),
            Phase::Turn => Ok(self.chance_cards(s)?.into_iter().map(Move::Turn).collect()),
            Phase::Exchange => {
                let me = s.to_act as usize;
                if s.is_hidden(me) {
                    return Err(HiddenError("the hand of the player to act is hidden"));
                }
                Ok(s.hands[me].iter().map(Move::Give).collect())
            }
            Phase::Forced => self.lay_ins(s),
            Phase::Offer => {
                // R14a: the payer, offered his own paid card, may only force with it or pass
                // (`takes` lists none for him).
                let offer = s.centre.expect("an offer has a centre card");
                let own = offer.paid && offer.source == s.to_act;
                let takes = self.takes(s)?;
                let mut moves: Vec<Move> = Vec::with_capacity(takes.len() + MAX_PLAYERS + 2);
                moves.extend_from_slice(&takes);
                let (forces, k) = self.forceable(s);
                moves.extend(forces[..k].iter().map(|&p| Move::Force(p)));
                if self.rules.hand_melds && !own {
                    moves.extend(self.hand_melds(s).into_iter().map(Move::Meld));
                }
                moves.push(Move::Pass);
                Ok(moves)
            }
        }
    }

    fn lay_ins(&self, s: &State) -> Result<Vec<Move>, HiddenError> {
        let offer = s.centre.expect("a forced lay-in has a centre card");
        let me = offer.forced.expect("a forced lay-in has a forced player") as usize;
        if s.is_hidden(me) {
            return Err(HiddenError("the forced player's hand is hidden"));
        }
        let hand = s.hands[me];
        let new = s.melded[me] | CardSet::card(offer.card);
        let layouts = if self.rules.borrow {
            let old = &s.layouts[me];
            self.melds
                .covers(new, new, &self.rules)
                .into_iter()
                .filter(|l| borrow_ok(&self.rules, old, l))
                .collect()
        } else {
            self.layouts_for(new)
        };
        let mut out = Vec::new();
        if hand.is_empty() {
            // Forced onto an empty hand: he goes out (R14, R15).
            out.push(Move::LayIn(layouts[0], None));
            return Ok(out);
        }
        for layout in &layouts {
            for pay in hand {
                out.push(Move::LayIn(*layout, Some(pay)));
            }
        }
        Ok(out)
    }

    /// The state after `mv`, which must be legal here (Python's `GameState._apply`).
    pub fn apply(&self, s: &State, mv: &Move) -> State {
        match *mv {
            Move::Take(layout, pay) | Move::LayIn(layout, pay) => self.place(s, layout, pay),
            Move::Turn(card) => {
                let mut t = s.clone();
                t.stock_count -= 1;
                t.centre = Some(Offer::new(card, false, s.to_act));
                t.phase = Phase::Offer;
                t
            }
            Move::Give(card) => self.give(s, card),
            Move::Pass => self.pass(s),
            Move::Force(player) => {
                let mut t = s.clone();
                let mut offer = s.centre.expect("a force has a centre card");
                offer.forced = Some(player);
                t.centre = Some(offer);
                t.to_act = player;
                t.phase = Phase::Forced;
                t
            }
            Move::Meld(index) => self.lay_meld(s, index),
        }
    }

    /// A take (R13) or a forced lay-in (R14): the player's new layout, and his pay offered
    /// (R13) or the deal won when he goes out (R15) (Python's `_place`).
    fn place(&self, s: &State, layout: MeldList, pay: Option<u8>) -> State {
        let player = s.to_act as usize;
        let mut t = s.clone();
        if !s.is_hidden(player) {
            // Only hand cards join the layout (R13); they and the pay leave the hand.
            let hand = s.hands[player];
            let mut spent = layout.cards(&self.rules) & hand;
            if let Some(pay) = pay {
                spent.insert(pay);
            }
            t.hands[player] = hand - spent;
            t.counts[player] = s.counts[player] - spent.len() as u8;
        }
        t.layouts[player] = layout;
        t.melded[player] = layout.cards(&self.rules);
        match pay {
            None => {
                t.centre = None;
                t.phase = Phase::Over;
                t.to_act = player as u8;
                t.winner = Some(player as u8);
            }
            Some(pay) => self.offer_paid(&mut t, player as u8, pay),
        }
        t
    }

    /// `player`'s pay `pay` becomes the centre card (R13), offered from the next player, or
    /// first to him when it fits another layout under `discard_force` (R14a); it joins the
    /// deal's history of pays.
    fn offer_paid(&self, t: &mut State, player: u8, pay: u8) {
        let n = self.players() as u8;
        let mut offer = Offer::new(pay, true, player);
        t.to_act = (player + 1) % n;
        if self.rules.discard_force {
            // R14a: he is offered his paid card first when it fits another layout.
            let fits = (0..n)
                .any(|q| q != player && self.fitting_cards(&t.layouts[q as usize]).contains(pay));
            if fits {
                t.to_act = player;
            } else {
                offer = offer.with_decline(player);
            }
        }
        t.centre = Some(offer);
        t.phase = Phase::Offer;
        t.winner = None;
        t.paid.push(player, pay);
    }

    /// The player to act chooses `card` to pass in the exchange (R9); once every player has
    /// chosen, the passes happen at once and the upcard (R10a) or the first turn follows.
    fn give(&self, s: &State, card: u8) -> State {
        let n = self.players() as u8;
        let mut t = s.clone();
        let mut gifts = s.gifts.unwrap_or([None; MAX_PLAYERS]);
        gifts[s.to_act as usize] = Some(card);
        let next = (s.to_act + 1) % n;
        if gifts[next as usize].is_none() {
            t.gifts = Some(gifts);
            t.to_act = next;
            return t;
        }
        // Every player has chosen: the passes happen at once (R9).
        for p in 0..n as usize {
            let chosen = |q: usize| gifts[q].expect("every player has chosen his card");
            let (given, got) = (chosen(p), chosen((p + n as usize - 1) % n as usize));
            if !s.is_hidden(p) {
                t.hands[p] = (s.hands[p] - CardSet::card(given)) | CardSet::card(got);
            }
        }
        t.gifts = None;
        t.gave = Some(gifts);
        // The upcard, turned at the deal, is offered now (R10a); else the first turn.
        t.phase = if s.centre.is_some() {
            Phase::Offer
        } else {
            Phase::Turn
        };
        t.to_act = (s.dealer + 1) % n;
        t
    }

    /// The player to act declines the centre card (R12): it goes to the next player in its
    /// offer order, or dies when all have declined it (R17).
    fn pass(&self, s: &State) -> State {
        let offer = s.centre.expect("a pass has a centre card");
        let declined = offer.with_decline(s.to_act);
        let (start, order_len) = offer.order_shape(&self.rules);
        if declined.ndeclined < order_len {
            let mut t = s.clone();
            t.centre = Some(declined);
            t.to_act = (offer.source + start + declined.ndeclined) % self.players() as u8;
            return t;
        }
        self.card_dies(s)
    }

    /// The player to act lays catalog meld `index` from his hand alone (R16).
    fn lay_meld(&self, s: &State, index: u8) -> State {
        let me = s.to_act as usize;
        let meld = self.rules.meld(index);
        let mut t = s.clone();
        if !s.is_hidden(me) {
            t.hands[me] = s.hands[me] - meld;
            t.counts[me] = s.counts[me] - meld.len() as u8;
        }
        t.layouts[me] = s.layouts[me].with(index);
        t.melded[me] = s.melded[me] | meld;
        t
    }

    /// R17 and R18: the centre card is dead; the next player turns or the deal ends.
    fn card_dies(&self, s: &State) -> State {
        let offer = s.centre.expect("a dying card is the centre card");
        let mut t = s.clone();
        t.push_dead(offer.card);
        let next = (offer.source + 1) % self.players() as u8;
        t.centre = None;
        t.to_act = next;
        if s.stock_count > 0 {
            t.phase = Phase::Turn;
            return t;
        }
        t.phase = Phase::Over;
        t.winner = self.stock_out_winner(&t);
        t
    }

    /// The winner when the stock runs out (R18): none for `draw`, else the fewest hand cards.
    pub fn stock_out_winner(&self, s: &State) -> Option<u8> {
        if !self.rules.stock_out_fewest {
            return None;
        }
        let n = self.players();
        let fewest = *s.counts[..n].iter().min().expect("players");
        let mut holders = (0..n).filter(|&p| s.counts[p] == fewest);
        let first = holders.next();
        if holders.next().is_some() {
            None
        } else {
            first.map(|p| p as u8)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::dealing::deal_deck;
    use crate::core::rules::Rules;

    /// Every deal ends (R19) and cards are conserved, following the first legal move.
    #[test]
    fn first_moves_end_the_deal_and_conserve_cards() {
        let rules = Arc::new(Rules::classic());
        let engine = Engine::new(Arc::clone(&rules));
        let order: Vec<u8> = (0..40).collect();
        let mut s = deal_deck(&rules, &order, 0);
        let mut plies = 0;
        while !s.is_terminal() {
            let moves = engine.legal_moves(&s).expect("all known");
            s = engine.apply(&s, &moves[0]);
            let mut all = s.dead_mask | s.stock_mask(2).expect("known");
            for p in 0..2 {
                all |= s.hands[p] | s.melded[p];
            }
            if let Some(c) = s.centre {
                all.insert(c.card);
            }
            assert_eq!(all, CardSet::FULL);
            plies += 1;
            assert!(plies < 1000);
        }
    }
}
