//! The game state and the move generator (R8-R19), as `analyzer.core.state.GameState` has them.
//!
//! A [`State`] is a plain value; [`Engine`] holds the rules and the memo tables of the move
//! generator (what a player can take with a card, what fits his layout), which Python keeps in
//! `lru_cache`s.  Every list comes in Python's order, so that both cores list the same moves.

use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

use rustc_hash::FxHashMap;

use crate::core::cards::{bit, cards, popcount, FULL_DECK};
use crate::core::melds::{layoff_mask, near_cards, MeldList, MeldMemo};
use crate::core::moves::{Move, OUT};
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

    fn with_decline(mut self, player: u8) -> Self {
        self.declined[self.ndeclined as usize] = player;
        self.ndeclined += 1;
        self
    }
}

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

/// No card chosen, in `gifts` and `gave`.
pub const NONE: u8 = 255;

/// One position of a deal.
#[derive(Clone, Debug)]
pub struct State {
    pub dealer: u8,
    /// Each hand as a mask; 0 and its bit in `hidden` when hidden.
    pub hands: [u64; MAX_PLAYERS],
    pub hidden: u8,
    pub counts: [u8; MAX_PLAYERS],
    pub layouts: [MeldList; MAX_PLAYERS],
    /// The cards of each layout (derived from `layouts`).
    pub melded: [u64; MAX_PLAYERS],
    /// The stock when its order is known: `stock[..stock_count]`, the top card last.
    pub stock: [u8; 40],
    pub stock_known: bool,
    pub stock_count: u8,
    /// Dead cards in the order they died (R17).
    pub dead: [u8; 40],
    pub ndead: u8,
    pub dead_mask: u64,
    pub centre: Option<Offer>,
    pub to_act: u8,
    pub phase: Phase,
    pub winner: Option<u8>,
    /// The exchange: the card each player has chosen so far ([`NONE`] for none); `None` is `()`.
    pub gifts: Option<[u8; MAX_PLAYERS]>,
    /// After the exchange: the card each player passed on.
    pub gave: Option<[u8; MAX_PLAYERS]>,
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

    fn push_dead(&mut self, card: u8) {
        self.dead[self.ndead as usize] = card;
        self.ndead += 1;
        self.dead_mask |= bit(card);
    }

    /// Every face-up card: layouts, dead cards and the centre card.
    pub fn table_mask(&self, players: usize) -> u64 {
        let mut mask = self.dead_mask;
        for p in 0..players {
            mask |= self.melded[p];
        }
        if let Some(c) = self.centre {
            mask |= bit(c.card);
        }
        mask
    }

    /// The stock cards as a mask when known (order known, or every hand known).
    pub fn stock_mask(&self, players: usize) -> Option<u64> {
        if self.stock_known {
            return Some(self.stock_cards().fold(0, |m, c| m | bit(c)));
        }
        if self.any_hidden() {
            return None;
        }
        let mut known = self.table_mask(players);
        for p in 0..players {
            known |= self.hands[p];
        }
        Some(FULL_DECK & !known)
    }

    /// The table key of this position (see [`Key`]), packed in fixed places: the hands in
    /// words 0-2, the layouts (at most 13 melds in all) in words 3-4, then the rest.
    pub fn key(&self, players: usize) -> Key {
        let h = &self.hands;
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
        let dead = if self.stock_known { 0 } else { self.dead_mask };
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
            w6 |= 1 << 24;
            for (k, &x) in g.iter().take(players).enumerate() {
                w6 |= u64::from(x & 127) << (25 + 7 * k);
            }
        }
        Key([w0, w1, w2, melds as u64, (melds >> 64) as u64, w5, w6])
    }

    /// The melded count of `player`.
    #[inline]
    pub fn melded_count(&self, player: usize) -> u32 {
        popcount(self.melded[player])
    }
}

/// What a player's offers depend on while his layout and hand stay as they are (Python's
/// `player_facts`): the cards that may give him a take, the cards that fit his layout for
/// forcing (R14), and whether he can lay a meld from his hand alone (R16).
#[derive(Clone, Copy, Debug)]
pub struct Facts {
    pub near: u64,
    pub fit: u64,
    pub alone: bool,
}

/// Takes by group of hand cards used, fewest first (then by their indices: Python's
/// `(bit_count, index_key)`); each layout with every pay card, or the group's first layout going
/// out when no hand card is left (R15).
fn ordered_takes(mut groups: Vec<(u64, Vec<MeldList>)>, hand: u64) -> Vec<Move> {
    groups.sort_by(|a, b| {
        popcount(a.0)
            .cmp(&popcount(b.0))
            .then_with(|| cards(a.0).cmp(cards(b.0)))
    });
    let mut moves = Vec::new();
    for (used, layouts) in &groups {
        let rest = hand & !used;
        if rest == 0 {
            // Going out ends the deal: the arrangement no longer matters (R15).
            moves.push(Move::Take(layouts[0], OUT));
            continue;
        }
        for layout in layouts {
            for pay in cards(rest) {
                moves.push(Move::Take(*layout, pay));
            }
        }
    }
    moves
}

/// True if `new` keeps each meld of `old` as Foster's borrowing allows (R13a, Python's
/// `borrow_ok`): each old meld stays in one new meld (no two share one) and lends cards, each to
/// a different other meld: one card of a set of four, end cards of a run as long as three in
/// sequence stay; never a middle card, nothing from a meld of three.
pub fn borrow_ok(rules: &Rules, old: &MeldList, new: &MeldList) -> bool {
    let mut homes = 0u32;
    for &i in old.as_slice() {
        let meld = rules.meld(i);
        let mut core = 0u64;
        let mut home = usize::MAX;
        for (k, &j) in new.as_slice().iter().enumerate() {
            let got = rules.meld(j) & meld;
            if got & got.wrapping_sub(1) != 0 {
                if core != 0 {
                    return false; // split into two groups
                }
                core = got;
                home = k;
            }
        }
        if core == 0 || homes >> home & 1 == 1 {
            return false; // every card lent, or two old melds merged
        }
        homes |= 1 << home;
        let (size, kept) = (popcount(meld), popcount(core));
        if kept == size {
            continue;
        }
        if kept < 3 {
            return false;
        }
        let rank = meld.trailing_zeros() / 4;
        if meld & !(0xF_u64 << (4 * rank)) == 0 {
            if size != 4 {
                return false; // a set lends one card of four, nothing of three
            }
            continue;
        }
        // A run's core is three or more in sequence: only ends were lent.
        let low = core.trailing_zeros();
        let expected = (0..kept).fold(0u64, |m, k| m | 1 << (low + 4 * k));
        if core != expected {
            return false;
        }
    }
    true
}

/// The error of a move the position cannot make (a hidden hand, an unknown stock).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HiddenError(pub &'static str);

/// A list of moves shared between lookups.
pub type MoveList = Arc<Vec<Move>>;

/// The rules and the move generator's memo tables.
pub struct Engine {
    pub rules: Arc<Rules>,
    pub melds: MeldMemo,
    takes: RefCell<FxHashMap<(u64, u64, u8), MoveList>>,
    borrow_takes: RefCell<FxHashMap<(MeldList, u64, u8), MoveList>>,
    fits: RefCell<FxHashMap<MeldList, u64>>,
}

const TAKES_MEMO: usize = 1 << 17;

impl Engine {
    pub fn new(rules: Arc<Rules>) -> Self {
        Engine {
            rules,
            melds: MeldMemo::default(),
            takes: RefCell::new(FxHashMap::default()),
            borrow_takes: RefCell::new(FxHashMap::default()),
            fits: RefCell::new(FxHashMap::default()),
        }
    }

    #[inline]
    pub fn players(&self) -> usize {
        self.rules.players
    }

    /// Forget every memo table (the answers do not change; only the time to find them).
    pub fn clear_memos(&self) {
        self.melds.clear();
        self.takes.borrow_mut().clear();
        self.borrow_takes.borrow_mut().clear();
        self.fits.borrow_mut().clear();
    }

    /// The cards that fit `layout` for forcing (R14, `force_fit`).
    pub fn fitting_cards(&self, layout: &MeldList) -> u64 {
        let rules = &*self.rules;
        if !rules.force_fit_rearrange {
            return layoff_mask(layout, rules);
        }
        if let Some(&v) = self.fits.borrow().get(layout) {
            return v;
        }
        let own = layout.cards(rules);
        let mut out = 0u64;
        for card in 0..40u8 {
            if own & bit(card) != 0 {
                continue;
            }
            let new = own | bit(card);
            let fits = if rules.borrow {
                self.melds
                    .covers(new, new, rules)
                    .iter()
                    .any(|l| borrow_ok(rules, layout, l))
            } else {
                self.melds.can_meld_all(new, rules)
            };
            if fits {
                out |= bit(card);
            }
        }
        let mut memo = self.fits.borrow_mut();
        if memo.len() >= TAKES_MEMO {
            memo.clear();
        }
        memo.insert(*layout, out);
        out
    }

    /// [`Facts`] of a player with this layout and hand (computed afresh: cheaper than a lookup,
    /// but for `force_fit = rearrange`, whose fitting cards are memoised).
    #[inline]
    pub fn player_facts(&self, layout: &MeldList, hand: u64) -> Facts {
        let rules = &*self.rules;
        let near = near_cards(layout.cards(rules) | hand);
        let alone = rules.hand_melds && hand != 0 && self.melds.has_hand_meld(hand, rules);
        Facts {
            near,
            fit: self.fitting_cards(layout),
            alone,
        }
    }

    /// Layouts melding all of `must` and some of `pool`, grouped by the `hand` cards they use,
    /// one per distinct lay-off exposure within a group, groups in first-found order (R6, R13).
    fn grouped_layouts(&self, pool: u64, must: u64, hand: u64) -> Vec<(u64, Vec<MeldList>)> {
        let rules = &*self.rules;
        let mut groups: Vec<(u64, Vec<MeldList>, Vec<u64>)> = Vec::new();
        for layout in self.melds.covers(pool, must, rules) {
            let used = layout.cards(rules) & hand;
            let key = if rules.force_fit_rearrange {
                0
            } else {
                layoff_mask(&layout, rules)
            };
            match groups.iter_mut().find(|g| g.0 == used) {
                Some(group) => {
                    if !group.2.contains(&key) {
                        group.2.push(key);
                        group.1.push(layout);
                    }
                }
                None => groups.push((used, vec![layout], vec![key])),
            }
        }
        groups
            .into_iter()
            .map(|(used, layouts, _)| (used, layouts))
            .collect()
    }

    /// Arrangements of exactly `cards`, one per lay-off exposure (R6, R14).
    pub fn layouts_for(&self, cards_mask: u64) -> Vec<MeldList> {
        self.grouped_layouts(cards_mask, cards_mask, 0)
            .into_iter()
            .find(|g| g.0 == 0)
            .map(|g| g.1)
            .unwrap_or_default()
    }

    /// Every take of `card` by a player with these layout cards and hand (R13, R15), in order.
    pub fn take_moves(&self, layout_cards: u64, hand: u64, card: u8) -> Arc<Vec<Move>> {
        if near_cards(layout_cards | hand) & bit(card) == 0 {
            static EMPTY: OnceLock<Arc<Vec<Move>>> = OnceLock::new();
            return Arc::clone(EMPTY.get_or_init(|| Arc::new(Vec::new())));
        }
        let key = (layout_cards, hand, card);
        if let Some(hit) = self.takes.borrow().get(&key) {
            return Arc::clone(hit);
        }
        let base = layout_cards | bit(card);
        let groups = self.grouped_layouts(base | hand, base, hand);
        let moves = Arc::new(ordered_takes(groups, hand));
        let mut memo = self.takes.borrow_mut();
        if memo.len() >= TAKES_MEMO {
            memo.clear();
        }
        memo.insert(key, Arc::clone(&moves));
        moves
    }

    /// True if a player with this layout and hand can take `card` (R13): the non-emptiness of
    /// [`Engine::take_moves`], found first by two sure signs (the card extends one of his melds,
    /// or makes a meld with two of his hand cards), else from the takes themselves.
    pub fn has_take(&self, layout: &MeldList, layout_cards: u64, hand: u64, card: u8) -> bool {
        let rules = &*self.rules;
        let b = bit(card);
        if near_cards(layout_cards | hand) & b == 0 {
            return false;
        }
        if layoff_mask(layout, rules) & b != 0 {
            return true;
        }
        let c = u32::from(card);
        if popcount(hand & crate::core::cards::RANK_MASK[(c / 4) as usize]) >= 2 {
            return true;
        }
        let has = |k: i32| {
            let x = c as i32 + 4 * k;
            (0..40).contains(&x) && hand >> x & 1 == 1
        };
        if (has(-1) && (has(-2) || has(1))) || (has(1) && has(2)) {
            return true;
        }
        !self
            .layout_takes(layout, layout_cards, hand, card)
            .is_empty()
    }

    /// Every take of `card` by a player with this layout (its cards `layout_cards`) and hand:
    /// [`Engine::take_moves`], or under `rearrange = borrow` the takes borrowing allows (R13a),
    /// every arrangement (Python's `take_moves`).
    pub fn layout_takes(
        &self,
        layout: &MeldList,
        layout_cards: u64,
        hand: u64,
        card: u8,
    ) -> Arc<Vec<Move>> {
        if !self.rules.borrow {
            return self.take_moves(layout_cards, hand, card);
        }
        if near_cards(layout_cards | hand) & bit(card) == 0 {
            return Arc::new(Vec::new());
        }
        let key = (*layout, hand, card);
        if let Some(hit) = self.borrow_takes.borrow().get(&key) {
            return Arc::clone(hit);
        }
        let rules = &*self.rules;
        let base = layout_cards | bit(card);
        let mut groups: Vec<(u64, Vec<MeldList>)> = Vec::new();
        for new in self.melds.covers(base | hand, base, rules) {
            if !borrow_ok(rules, layout, &new) {
                continue;
            }
            let used = new.cards(rules) & hand;
            match groups.iter_mut().find(|g| g.0 == used) {
                Some(group) => group.1.push(new),
                None => groups.push((used, vec![new])),
            }
        }
        let moves = Arc::new(ordered_takes(groups, hand));
        let mut memo = self.borrow_takes.borrow_mut();
        if memo.len() >= TAKES_MEMO {
            memo.clear();
        }
        memo.insert(key, Arc::clone(&moves));
        moves
    }

    /// The offer order of a card (R10a, R11, R14a) as the seat offset of its first player from
    /// the source and its length: a turned card from its turner, all players; a paid card from
    /// the next player, all but the payer (under `discard_force` from the payer, all); the
    /// upcard from the player after the dealer round to the dealer.
    #[inline]
    pub fn order_shape(&self, paid: bool, upcard: bool) -> (u8, u8) {
        let n = self.players() as u8;
        if upcard {
            (1, n)
        } else if paid && !self.rules.discard_force {
            (1, n - 1)
        } else {
            (0, n)
        }
    }

    /// Players `me` may force with the centre card if it fits their layout (R14, `force_when`);
    /// never the payer of a paid card, and anyone else when `me` paid it (R14a).
    pub fn force_candidates(&self, me: u8, offer: &Offer) -> ([u8; MAX_PLAYERS], usize) {
        let mut out = [0u8; MAX_PLAYERS];
        let mut n = 0;
        if offer.paid && me == offer.source {
            for p in 0..self.players() as u8 {
                if p != me {
                    out[n] = p;
                    n += 1;
                }
            }
        } else if !self.rules.force_any_offer {
            for &p in offer.declined() {
                if p != me && !(offer.paid && p == offer.source) {
                    out[n] = p;
                    n += 1;
                }
            }
        } else {
            for p in 0..self.players() as u8 {
                if p != me && !(offer.paid && p == offer.source) {
                    out[n] = p;
                    n += 1;
                }
            }
        }
        (out, n)
    }

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
            if self.fitting_cards(&s.layouts[p as usize]) & bit(offer.card) != 0 {
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
        for x in cards(hand) {
            for (k, &meld) in rules.by_lowest[x as usize].iter().enumerate() {
                if meld & hand == meld {
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
        for x in cards(hand) {
            for (k, &meld) in rules.by_lowest[x as usize].iter().enumerate() {
                if meld & !hand == 0 {
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
            Some(mask) => Ok(cards(mask).collect()),
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
                Ok(cards(s.hands[me]).map(Move::Give).collect())
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
        let new = s.melded[me] | bit(offer.card);
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
        if hand == 0 {
            // Forced onto an empty hand: he goes out (R14, R15).
            out.push(Move::LayIn(layouts[0], OUT));
            return Ok(out);
        }
        for layout in &layouts {
            for pay in cards(hand) {
                out.push(Move::LayIn(*layout, pay));
            }
        }
        Ok(out)
    }

    /// The state after `mv`, which must be legal here (Python's `GameState._apply`).
    pub fn apply(&self, s: &State, mv: &Move) -> State {
        let n = self.players() as u8;
        let mut t = s.clone();
        match *mv {
            Move::Take(layout, pay) | Move::LayIn(layout, pay) => {
                let player = s.to_act as usize;
                if !s.is_hidden(player) {
                    // Only hand cards join the layout (R13); they and the pay leave the hand.
                    let hand = s.hands[player];
                    let mut spent = layout.cards(&self.rules) & hand;
                    if pay != OUT {
                        spent |= bit(pay);
                    }
                    t.hands[player] = hand & !spent;
                    t.counts[player] = s.counts[player] - popcount(spent) as u8;
                }
                t.layouts[player] = layout;
                t.melded[player] = layout.cards(&self.rules);
                if pay == OUT {
                    t.centre = None;
                    t.phase = Phase::Over;
                    t.to_act = player as u8;
                    t.winner = Some(player as u8);
                } else {
                    let mut offer = Offer::new(pay, true, player as u8);
                    t.to_act = (player as u8 + 1) % n;
                    if self.rules.discard_force {
                        // R14a: he is offered his paid card first when it fits another layout.
                        let fits = (0..n as usize).any(|q| {
                            q != player && self.fitting_cards(&t.layouts[q]) & bit(pay) != 0
                        });
                        if fits {
                            t.to_act = player as u8;
                        } else {
                            offer = offer.with_decline(player as u8);
                        }
                    }
                    t.centre = Some(offer);
                    t.phase = Phase::Offer;
                    t.winner = None;
                    t.paid.push(player as u8, pay);
                }
                t
            }
            Move::Turn(card) => {
                t.stock_count -= 1;
                t.centre = Some(Offer::new(card, false, s.to_act));
                t.phase = Phase::Offer;
                t
            }
            Move::Give(card) => {
                let mut gifts = s.gifts.unwrap_or([NONE; MAX_PLAYERS]);
                gifts[s.to_act as usize] = card;
                let next = (s.to_act + 1) % n;
                if gifts[next as usize] == NONE {
                    t.gifts = Some(gifts);
                    t.to_act = next;
                    return t;
                }
                // Every player has chosen: the passes happen at once (R9).
                for p in 0..n as usize {
                    let given = gifts[p];
                    let got = gifts[(p + n as usize - 1) % n as usize];
                    if !s.is_hidden(p) {
                        t.hands[p] = s.hands[p] & !bit(given) | bit(got);
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
            Move::Pass => {
                let offer = s.centre.expect("a pass has a centre card");
                let declined = offer.with_decline(s.to_act);
                let (start, order_len) = self.order_shape(offer.paid, offer.upcard);
                if declined.ndeclined < order_len {
                    t.centre = Some(declined);
                    t.to_act = (offer.source + start + declined.ndeclined) % n;
                    return t;
                }
                self.card_dies(s, t)
            }
            Move::Force(player) => {
                let mut offer = s.centre.expect("a force has a centre card");
                offer.forced = Some(player);
                t.centre = Some(offer);
                t.to_act = player;
                t.phase = Phase::Forced;
                t
            }
            Move::Meld(index) => {
                let me = s.to_act as usize;
                let meld = self.rules.meld(index);
                if !s.is_hidden(me) {
                    t.hands[me] = s.hands[me] & !meld;
                    t.counts[me] = s.counts[me] - popcount(meld) as u8;
                }
                t.layouts[me] = s.layouts[me].with(index);
                t.melded[me] = s.melded[me] | meld;
                t
            }
        }
    }

    /// R17 and R18: the centre card is dead; the next player turns or the deal ends.
    fn card_dies(&self, s: &State, mut t: State) -> State {
        let offer = s.centre.expect("a dying card is the centre card");
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

    /// Follow the positions that have exactly one legal move, without building them (Python's
    /// `GameState.run_forced`): dead offers and, with `turns`, turns of a known stock.  Returns
    /// the first position with a choice (or the end, or the position after `limit` steps) and
    /// the positions passed; `None` when no step was taken.
    pub fn run_forced(&self, s: &State, limit: i64, turns: bool) -> Option<(State, i64)> {
        let n = self.players();
        let mut phase = s.phase;
        let mut card: u8;
        let mut paid: bool;
        let mut upcard = false;
        let mut source: u8;
        let mut declined: Offer;
        let mut facts: [Option<Facts>; MAX_PLAYERS] = [None; MAX_PLAYERS];
        match phase {
            Phase::Offer => {
                let centre = s.centre.expect("an offer has a centre card");
                let me = s.to_act as usize;
                if centre.forced.is_some() || s.is_hidden(me) || limit <= 0 {
                    return None;
                }
                card = centre.card;
                let mine = self.player_facts(&s.layouts[me], s.hands[me]);
                let own = centre.paid && centre.source == s.to_act; // R14a: force or pass only
                if !own
                    && (mine.alone
                        || (mine.near & bit(card) != 0
                            && self.has_take(&s.layouts[me], s.melded[me], s.hands[me], card)))
                {
                    return None;
                }
                paid = centre.paid;
                upcard = centre.upcard;
                source = centre.source;
                declined = centre;
                facts[me] = Some(mine);
            }
            Phase::Turn if s.stock_known && limit > 0 && turns => {
                card = NONE;
                paid = false;
                source = s.to_act;
                declined = Offer::new(0, false, source);
            }
            _ => return None,
        }
        if s.any_hidden() {
            return None;
        }
        let count = s.stock_count as i64;
        let mut t = s.clone();
        let mut to_act = s.to_act;
        let mut fit_any: i64 = -1;
        let mut hot: u64 = 0;
        let mut top: i64 = 0;
        let mut steps: i64 = 0;
        let run_facts = |facts: &mut [Option<Facts>; MAX_PLAYERS]| -> (u64, u64) {
            let mut fit = 0u64;
            let mut near = 0u64;
            let mut alone = false;
            for p in 0..n {
                let f = match facts[p] {
                    Some(f) => f,
                    None => {
                        let f = self.player_facts(&s.layouts[p], s.hands[p]);
                        facts[p] = Some(f);
                        f
                    }
                };
                near |= f.near;
                fit |= f.fit;
                alone = alone || f.alone;
            }
            (fit, if alone { FULL_DECK } else { near | fit })
        };
        // The stock card `top` cards below the top of the original stock.
        let stock_at = |k: i64| s.stock[(count - 1 - k) as usize];
        while steps < limit {
            if phase == Phase::Turn {
                if !s.stock_known || !turns {
                    break;
                }
                if fit_any < 0 {
                    let (f, h) = run_facts(&mut facts);
                    fit_any = f as i64;
                    hot = h;
                }
                // A card that melds with nobody's cards and fits no layout is offered to every
                // player in turn and dies: n + 1 positions, nothing else changes.
                while hot & bit(stock_at(top)) == 0 && steps + (n as i64) < limit {
                    t.push_dead(stock_at(top));
                    top += 1;
                    steps += n as i64 + 1;
                    to_act = (to_act + 1) % n as u8;
                    if top == count {
                        return Some((self.stock_out(s, t, count - top, to_act), steps));
                    }
                }
                if steps >= limit {
                    break;
                }
                card = stock_at(top);
                paid = false;
                upcard = false;
                source = to_act;
                declined = Offer::new(card, false, source);
                top += 1;
                phase = Phase::Offer;
                steps += 1;
                continue;
            }
            let p = to_act as usize;
            let fact = match facts[p] {
                Some(f) => f,
                None => {
                    let f = self.player_facts(&s.layouts[p], s.hands[p]);
                    facts[p] = Some(f);
                    f
                }
            };
            let own = paid && to_act == source; // R14a: the payer may only force or pass
            if !own && fact.alone {
                break; // a choice (R16): the search takes over
            }
            if !own
                && fact.near & bit(card) != 0
                && self.has_take(&s.layouts[p], s.melded[p], s.hands[p], card)
            {
                break; // a take (R13, R15)
            }
            if fit_any < 0 {
                let (f, h) = run_facts(&mut facts);
                fit_any = f as i64;
                hot = h;
            }
            if (fit_any as u64) & bit(card) != 0 {
                let probe = Offer {
                    card,
                    paid,
                    upcard,
                    source,
                    ..declined
                };
                let (cands, k) = self.force_candidates(to_act, &probe);
                if cands[..k]
                    .iter()
                    .any(|&q| facts[q as usize].expect("filled").fit & bit(card) != 0)
                {
                    break; // a force (R14)
                }
            }
            steps += 1;
            declined = Offer {
                card,
                paid,
                upcard,
                source,
                ..declined
            }
            .with_decline(to_act);
            let (start, order_len) = self.order_shape(paid, upcard);
            let (start, order_len) = (start as usize, order_len as usize);
            if (declined.ndeclined as usize) < order_len {
                to_act = (source as usize + start + declined.ndeclined as usize) as u8 % n as u8;
                continue;
            }
            t.push_dead(card); // R17: nobody used it
            to_act = (source + 1) % n as u8;
            if count > top {
                phase = Phase::Turn;
                continue;
            }
            return Some((self.stock_out(s, t, count - top, to_act), steps));
        }
        if steps == 0 {
            return None;
        }
        t.stock_count = (count - top) as u8;
        t.to_act = to_act;
        t.phase = phase;
        t.centre = if phase == Phase::Turn {
            None
        } else {
            Some(Offer {
                card,
                paid,
                upcard,
                source,
                forced: None,
                ..declined
            })
        };
        Some((t, steps))
    }

    /// The deal over because the last card died with the stock empty (R17, R18).
    fn stock_out(&self, s: &State, mut t: State, left: i64, to_act: u8) -> State {
        t.stock_count = left as u8;
        t.centre = None;
        t.to_act = to_act;
        t.phase = Phase::Over;
        t.winner = self.stock_out_winner(s);
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deal(rules: &Rules, order: &[u8]) -> State {
        let n = rules.players;
        let h = rules.hand_size;
        let mut hands = [0u64; MAX_PLAYERS];
        let mut counts = [0u8; MAX_PLAYERS];
        for p in 0..n {
            for &c in &order[p * h..(p + 1) * h] {
                hands[p] |= bit(c);
            }
            counts[p] = h as u8;
        }
        let rest: Vec<u8> = order[n * h..].to_vec();
        let mut stock = [0u8; 40];
        for (i, &c) in rest.iter().rev().enumerate() {
            stock[i] = c;
        }
        State {
            dealer: 0,
            hands,
            hidden: 0,
            counts,
            layouts: [MeldList::new(); MAX_PLAYERS],
            melded: [0; MAX_PLAYERS],
            stock,
            stock_known: true,
            stock_count: rest.len() as u8,
            dead: [0; 40],
            ndead: 0,
            dead_mask: 0,
            centre: None,
            to_act: 1,
            phase: Phase::Turn,
            winner: None,
            gifts: None,
            gave: None,
            paid: Paid::default(),
        }
    }

    /// Every deal ends (R19) and cards are conserved, following the first legal move.
    #[test]
    fn first_moves_end_the_deal_and_conserve_cards() {
        let rules = Arc::new(Rules::classic());
        let engine = Engine::new(Arc::clone(&rules));
        let order: Vec<u8> = (0..40).collect();
        let mut s = deal(&rules, &order);
        let mut plies = 0;
        while !s.is_terminal() {
            let moves = engine.legal_moves(&s).expect("all known");
            s = engine.apply(&s, &moves[0]);
            let mut all = s.dead_mask | s.stock_mask(2).expect("known");
            for p in 0..2 {
                all |= s.hands[p] | s.melded[p];
            }
            if let Some(c) = s.centre {
                all |= bit(c.card);
            }
            assert_eq!(all, FULL_DECK);
            plies += 1;
            assert!(plies < 1000);
        }
    }

    /// `run_forced` lands where applying the single legal moves one by one does.
    #[test]
    fn run_forced_equals_single_moves() {
        let rules = Arc::new(Rules::classic());
        let engine = Engine::new(Arc::clone(&rules));
        let order: Vec<u8> = (0..40).rev().collect();
        let s = deal(&rules, &order);
        if let Some((after, steps)) = engine.run_forced(&s, 1 << 30, true) {
            let mut t = s.clone();
            for _ in 0..steps {
                let moves = engine.legal_moves(&t).expect("all known");
                assert_eq!(moves.len(), 1);
                t = engine.apply(&t, &moves[0]);
            }
            assert!(t == after);
        }
    }
}

#[cfg(test)]
mod properties {
    use std::sync::Arc;

    use proptest::prelude::*;

    use super::*;
    use crate::core::melds::near_cards;

    /// `near_cards` as first written: a loop over the ranks.
    fn near_reference(pool: u64) -> u64 {
        let up = pool >> 4;
        let down = (pool << 4) & FULL_DECK;
        let runs = (up & (pool >> 8)) | (down & ((pool << 8) & FULL_DECK)) | (up & down);
        let mut sets = 0u64;
        for rank in 0..10 {
            let quad = (pool >> (4 * rank)) & 0xF;
            if quad != 0 && quad & (quad - 1) != 0 && quad != 0xF {
                sets |= 0xF << (4 * rank);
            }
        }
        (runs | sets) & FULL_DECK & !pool
    }

    proptest! {
        #[test]
        fn near_cards_agrees_with_the_loop(pool in 0u64..(1u64 << 40)) {
            prop_assert_eq!(near_cards(pool), near_reference(pool));
        }

        /// The sure signs of `has_take` never claim a take the full list does not have.
        #[test]
        fn has_take_is_the_non_emptiness_of_take_moves(
            hand in 0u64..(1u64 << 40),
            card in 0u8..40,
            meld_pick in 0usize..182,
            classic in any::<bool>(),
        ) {
            let rules = Arc::new(if classic { Rules::classic() } else { Rules::megajogos() });
            let engine = Engine::new(Arc::clone(&rules));
            let meld_index = (meld_pick % rules.catalog.len()) as u8;
            let meld = rules.meld(meld_index);
            let layout = MeldList::from_slice(&[meld_index]);
            let hand = hand & !meld & !bit(card);
            prop_assume!(meld & bit(card) == 0);
            let full = !engine.take_moves(meld, hand, card).is_empty();
            prop_assert_eq!(engine.has_take(&layout, meld, hand, card), full);
        }
    }
}
