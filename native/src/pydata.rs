//! The boundary of `analyzer._native`, shared by its functions (`py`) and its searches
//! (`pysearch`): rules, states and moves as plain data in and out, the pool of engines, and Rust
//! panics turned into Python exceptions.
//!
//! A state crosses as the tuple `analyzer.core.native.pack_state` builds, a move as
//! `(code, values, pay)`; the Python adapter turns them back into `GameState` and `Move` values.
//! Positions are validated in Python before they cross.  A Rust panic reaches Python as a
//! `RuntimeError` naming the native core, never an abort.

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rustc_hash::FxHashMap;

use crate::core::cards::CardSet;
use crate::core::legal::Engine;
use crate::core::melds::MeldList;
use crate::core::moves::Move;
use crate::core::offers::{Offer, Phase};
use crate::core::rules::{Rules, MAX_PLAYERS};
use crate::core::state::{Paid, State};

/// The rules as `analyzer.core.native.pack_rules` gives them, one whole number: players (bits
/// 0-2), hand size (3-7), longest run (8-11), then one bit each: the exchange, `force_fit =
/// rearrange`, `force_when = any_offer`, hand-only melds, `on_stock_out = fewest_in_hand`,
/// `rearrange = borrow`, the upcard, `discard_force`.
pub type RulesData = u32;
/// The offer: card, kind (0 turned, 1 paid, 2 upcard), source, declined, forced.
pub type OfferData = (u8, u8, u8, Vec<u8>, Option<u8>);
/// `(dealer, to_act, phase, winner, stock_count)`, hands, counts, layouts, stock, dead, centre,
/// `(gifts, gave, paid)`.
pub type StateData = (
    (u8, u8, u8, Option<u8>, u8),
    Vec<Option<u64>>,
    Vec<u8>,
    Vec<Vec<u64>>,
    Option<Vec<u8>>,
    Vec<u8>,
    Option<OfferData>,
    (
        Option<Vec<Option<u8>>>,
        Option<Vec<Option<u8>>>,
        Option<Vec<Vec<u8>>>,
    ),
);
/// A move: code (0 pass, 1 take, 2 lay-in, 3 force, 4 meld, 5 give, 6 turn), values (the layout's
/// melds, or the one player, meld or card), and the card paid (`None`: out, or no pay).
pub type MoveData = (u8, Vec<u64>, Option<u8>);

/// Run `f`, turning a Rust panic into a Python `RuntimeError` with its message.
pub fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => {
            let text = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            let place = PANIC_PLACE
                .with(|p| p.borrow_mut().take())
                .unwrap_or_default();
            Err(PyRuntimeError::new_err(format!(
                "internal error in the native core: {text}{place} (please report it; CONQUIAN_CORE=python uses the Python core)"
            )))
        }
    }
}

thread_local! {
    static PANIC_PLACE: RefCell<Option<String>> = const { RefCell::new(None) };
    // Boxed: an engine moves in and out of the pool (and into searches) by its pointer.
    #[allow(clippy::vec_box)]
    static ENGINES: RefCell<FxHashMap<RulesData, Vec<Box<Engine>>>> = RefCell::new(FxHashMap::default());
}

/// The rules of `data`, checked.
pub fn rules_of(data: RulesData) -> PyResult<Arc<Rules>> {
    let field = |at: u32, width: u32| (data >> at) & ((1 << width) - 1);
    let flag = |at: u32| data >> at & 1 == 1;
    Rules::new(
        field(0, 3) as usize,
        field(3, 5) as usize,
        field(8, 4),
        flag(12),
        flag(13),
        flag(14),
        flag(15),
        flag(16),
    )
    .map(|r| r.with_historical(flag(17), flag(18), flag(19)))
    .map(Arc::new)
    .map_err(PyValueError::new_err)
}

/// An engine (rules and memo tables) for `data` from this thread's pool, made when none is
/// free: its memo tables stay warm from one call, one solver, one search to the next.  Give it
/// back with [`give_engine`] (an engine lost to a panic is simply made again).
pub fn take_engine(data: RulesData) -> PyResult<Box<Engine>> {
    if let Some(e) = ENGINES.with(|m| m.borrow_mut().get_mut(&data).and_then(Vec::pop)) {
        return Ok(e);
    }
    Ok(Box::new(Engine::new(rules_of(data)?)))
}

/// Return an engine taken with [`take_engine`] to the pool.
pub fn give_engine(data: RulesData, engine: Box<Engine>) {
    ENGINES.with(|m| m.borrow_mut().entry(data).or_default().push(engine));
}

/// Run `f` with a pooled engine for `data`.
pub fn with_engine<T>(data: RulesData, f: impl FnOnce(&Engine) -> PyResult<T>) -> PyResult<T> {
    let engine = take_engine(data)?;
    let out = f(&engine);
    give_engine(data, engine);
    out
}

fn layout_of(rules: &Rules, melds: &[u64]) -> PyResult<MeldList> {
    let mut out = MeldList::new();
    if melds.len() > crate::core::rules::MAX_MELDS {
        return Err(PyValueError::new_err("too many melds in a layout"));
    }
    for &m in melds {
        let index = rules.meld_index(CardSet(m)).ok_or_else(|| {
            PyValueError::new_err(format!("not a meld of these rules: mask {m:#x}"))
        })?;
        out.push(index);
    }
    Ok(out.sorted())
}

fn card(c: u8) -> PyResult<u8> {
    if c < 40 {
        Ok(c)
    } else {
        Err(PyValueError::new_err(format!("no card with index {c}")))
    }
}

fn seats(values: &Option<Vec<Option<u8>>>) -> PyResult<Option<[Option<u8>; MAX_PLAYERS]>> {
    match values {
        None => Ok(None),
        Some(v) => {
            let mut out = [None; MAX_PLAYERS];
            for (p, x) in v.iter().enumerate().take(MAX_PLAYERS) {
                if let Some(c) = x {
                    out[p] = Some(card(*c)?);
                }
            }
            Ok(Some(out))
        }
    }
}

/// The native state of `data` (see [`StateData`]).
pub fn state_of(rules: &Rules, data: &StateData) -> PyResult<State> {
    let (
        (dealer, to_act, phase, winner, stock_count),
        hands,
        counts,
        layouts,
        stock,
        dead,
        centre,
        history,
    ) = data;
    let n = rules.players;
    if hands.len() != n || counts.len() != n || layouts.len() != n {
        return Err(PyValueError::new_err(
            "the state does not have one entry per player",
        ));
    }
    let mut s = State {
        dealer: *dealer,
        hands: [CardSet::EMPTY; MAX_PLAYERS],
        hidden: 0,
        counts: [0; MAX_PLAYERS],
        layouts: [MeldList::new(); MAX_PLAYERS],
        melded: [CardSet::EMPTY; MAX_PLAYERS],
        stock: [0; 40],
        stock_known: stock.is_some(),
        stock_count: *stock_count,
        dead: [0; 40],
        ndead: 0,
        dead_mask: CardSet::EMPTY,
        centre: None,
        to_act: *to_act,
        phase: match phase {
            0 => Phase::Exchange,
            1 => Phase::Turn,
            2 => Phase::Offer,
            3 => Phase::Forced,
            4 => Phase::Over,
            _ => return Err(PyValueError::new_err(format!("no phase {phase}"))),
        },
        winner: *winner,
        gifts: seats(&history.0)?,
        gave: seats(&history.1)?,
        paid: Paid::default(),
    };
    for p in 0..n {
        match hands[p] {
            Some(h) => s.hands[p] = CardSet(h) & CardSet::FULL,
            None => s.hidden |= 1 << p,
        }
        s.counts[p] = counts[p];
        s.layouts[p] = layout_of(rules, &layouts[p])?;
        s.melded[p] = s.layouts[p].cards(rules);
    }
    if let Some(cards) = stock {
        if cards.len() > 40 || cards.len() != *stock_count as usize {
            return Err(PyValueError::new_err(
                "the stock order does not match its count",
            ));
        }
        for (i, &c) in cards.iter().rev().enumerate() {
            s.stock[i] = card(c)?;
        }
    }
    if dead.len() > 40 {
        return Err(PyValueError::new_err("too many dead cards"));
    }
    for &c in dead {
        let c = card(c)?;
        s.dead[s.ndead as usize] = c;
        s.ndead += 1;
        s.dead_mask.insert(c);
    }
    if let Some((c, kind, source, declined, forced)) = centre {
        if *kind > 2 {
            return Err(PyValueError::new_err(
                "the centre card's kind must be 0, 1 or 2",
            ));
        }
        let mut offer = Offer::new(card(*c)?, *kind == 1, *source);
        offer.upcard = *kind == 2;
        if declined.len() > MAX_PLAYERS {
            return Err(PyValueError::new_err(
                "too many players declined the centre card",
            ));
        }
        for &d in declined {
            offer.declined[offer.ndeclined as usize] = d;
            offer.ndeclined += 1;
        }
        offer.forced = *forced;
        s.centre = Some(offer);
    }
    if let Some(paid) = &history.2 {
        s.paid.present = true;
        // Per player in order; the interleaving between players is not kept (nor needed).
        for (p, cards) in paid.iter().enumerate() {
            for &c in cards {
                s.paid.push(p as u8, card(c)?);
            }
        }
    }
    Ok(s)
}

/// The plain data of a native state (see [`StateData`]).
pub fn state_data(rules: &Rules, s: &State) -> StateData {
    let n = rules.players;
    let hands = (0..n)
        .map(|p| {
            if s.is_hidden(p) {
                None
            } else {
                Some(s.hands[p].bits())
            }
        })
        .collect();
    let layouts = (0..n)
        .map(|p| {
            s.layouts[p]
                .as_slice()
                .iter()
                .map(|&i| rules.meld(i).bits())
                .collect()
        })
        .collect();
    let stock = if s.stock_known {
        Some(s.stock_cards().collect())
    } else {
        None
    };
    let centre = s
        .centre
        .map(|c| (c.card, c.kind(), c.source, c.declined().to_vec(), c.forced));
    let seat_list = |v: Option<[Option<u8>; MAX_PLAYERS]>| v.map(|a| a[..n].to_vec());
    let paid = if s.paid.present {
        Some((0..n as u8).map(|p| s.paid.of(p).collect()).collect())
    } else {
        None
    };
    (
        (s.dealer, s.to_act, s.phase as u8, s.winner, s.stock_count),
        hands,
        s.counts[..n].to_vec(),
        layouts,
        stock,
        s.dead_cards().to_vec(),
        centre,
        (seat_list(s.gifts), seat_list(s.gave), paid),
    )
}

/// The plain data of a move.
pub fn move_data(rules: &Rules, m: &Move) -> MoveData {
    let layout = |l: &MeldList| {
        l.as_slice()
            .iter()
            .map(|&i| rules.meld(i).bits())
            .collect::<Vec<u64>>()
    };
    match m {
        Move::Pass => (0, vec![], None),
        Move::Take(l, p) => (1, layout(l), *p),
        Move::LayIn(l, p) => (2, layout(l), *p),
        Move::Force(p) => (3, vec![u64::from(*p)], None),
        Move::Meld(i) => (4, vec![rules.meld(*i).bits()], None),
        Move::Give(c) => (5, vec![u64::from(*c)], None),
        Move::Turn(c) => (6, vec![u64::from(*c)], None),
    }
}

/// The native move of plain data.
pub fn move_of(rules: &Rules, data: &MoveData) -> PyResult<Move> {
    let (code, values, pay) = data;
    let one = || -> PyResult<u8> {
        match values.as_slice() {
            [x] if *x < 40 => Ok(*x as u8),
            _ => Err(PyValueError::new_err("a move of one value")),
        }
    };
    let pay = match pay {
        None => None,
        Some(c) => Some(card(*c)?),
    };
    Ok(match code {
        0 => Move::Pass,
        1 => Move::Take(layout_of(rules, values)?, pay),
        2 => Move::LayIn(layout_of(rules, values)?, pay),
        3 => Move::Force(one()?),
        4 => Move::Meld(
            layout_of(rules, values)?
                .as_slice()
                .first()
                .copied()
                .ok_or_else(|| PyValueError::new_err("a meld move has one meld"))?,
        ),
        5 => Move::Give(card(one()?)?),
        6 => Move::Turn(card(one()?)?),
        _ => return Err(PyValueError::new_err(format!("no move code {code}"))),
    })
}

/// Forget the memo tables of this thread's pooled engines.
pub fn clear_engines() {
    ENGINES.with(|m| m.borrow().values().flatten().for_each(|e| e.clear_memos()));
}

/// Install the panic hook: a panic is reported once, as the Python exception of [`guard`]; the
/// hook only notes where it happened.
pub fn note_panic_places() {
    std::panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        PANIC_PLACE.with(|p| *p.borrow_mut() = Some(place));
    }));
}
