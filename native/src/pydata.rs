//! The boundary of `analyzer._native`, shared by its functions (`py`) and its searches
//! (`pysearch`): rules, states and moves by named fields in and out, the pool of engines, and
//! Rust panics turned into Python exceptions.
//!
//! Every value that crosses is read and written by field name on both sides, never by
//! position, so that a field added, renamed or dropped on one side is an error naming it, not a
//! value misread:
//!
//! - the rules are a [`NativeRules`], made once per Python `Rules` from its named attributes
//!   ([`RulesFields`]; `analyzer.core.native.pack_rules` caches it); an option value the native
//!   core does not know is a `ValueError` naming the field;
//! - a state is read from the `GameState` itself, attribute by attribute ([`StateData`],
//!   [`OfferData`]), and written back as a dict with the same keys; a move crosses as a dict
//!   ([`MoveData`]), a move list as three named lists ([`MovesData`]).  The Python adapter is
//!   `pack_state`, `unpack_state`, `pack_move`, `unpack_move` and `unpack_moves`, whose
//!   `TypedDict`s carry the same names.
//!
//! A missing field is an `AttributeError` or `KeyError` naming it, a value of the wrong type a
//! `TypeError` naming `Struct.field` (its cause says why).  The structs that cross at every node
//! of a Python-driven search are declared with `named_data!`, which interns their keys; the
//! searches' options and answers use PyO3's derives.  Positions are validated in Python before
//! they cross.  A Rust panic reaches Python as a `RuntimeError` naming the native core, never
//! an abort.

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use rustc_hash::FxHashMap;

use crate::core::cards::CardSet;
use crate::core::legal::Engine;
use crate::core::melds::MeldList;
use crate::core::moves::Move;
use crate::core::offers::{Offer, Phase};
use crate::core::rules::{Rules, MAX_PLAYERS};
use crate::core::state::{Paid, State};

/// Declare a struct that crosses by its field names: read from a Python object with `$get`
/// (`getattr`: its attributes; `get_item`: a dict's keys), a missing one an `AttributeError`
/// or `KeyError` naming it and a wrong value a `TypeError` naming `Struct.field` (as PyO3's
/// derives); written as a dict with the same keys, interned (states and moves cross at every
/// node of a Python-driven search: each key is made once, not per dict).
macro_rules! named_data {
    ($get:ident, $(#[$meta:meta])* pub struct $name:ident {
        $($(#[$fmeta:meta])* pub $field:ident: $ty:ty,)*
    }) => {
        $(#[$meta])*
        pub struct $name {
            $($(#[$fmeta])* pub $field: $ty,)*
        }

        impl<'a, 'py> FromPyObject<'a, 'py> for $name {
            type Error = PyErr;

            fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
                let py = obj.py();
                Ok($name {
                    $($field: {
                        let value = obj.$get(intern!(py, stringify!($field)))?;
                        value.extract().map_err(|e: PyErr| {
                            let err = PyTypeError::new_err(concat!(
                                "failed to extract field ", stringify!($name), ".", stringify!($field)
                            ));
                            err.set_cause(py, Some(e));
                            err
                        })?
                    },)*
                })
            }
        }

        impl<'py> IntoPyObject<'py> for $name {
            type Target = PyDict;
            type Output = Bound<'py, PyDict>;
            type Error = PyErr;

            fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
                let dict = PyDict::new(py);
                $(dict.set_item(intern!(py, stringify!($field)), self.$field)?;)*
                Ok(dict)
            }
        }
    };
}

/// Declare an enum that crosses as the text of its Python `StrEnum` (or `str`) value: an
/// unknown text is a `ValueError` naming it; written as the same text, interned.
macro_rules! named_enum {
    ($what:literal, $name:ident { $($variant:path => $text:literal,)* }) => {
        impl<'a, 'py> FromPyObject<'a, 'py> for $name {
            type Error = PyErr;

            fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
                let text = obj.cast::<PyString>()?;
                match text.to_str()? {
                    $($text => Ok($variant),)*
                    other => Err(PyValueError::new_err(format!(
                        concat!("no ", $what, " {:?} in the native core"), other
                    ))),
                }
            }
        }

        impl<'py> IntoPyObject<'py> for $name {
            type Target = PyString;
            type Output = Bound<'py, PyString>;
            type Error = std::convert::Infallible;

            fn into_pyobject(self, py: Python<'py>) -> Result<Bound<'py, PyString>, Self::Error> {
                Ok(match self {
                    $($variant => intern!(py, $text).clone(),)*
                })
            }
        }
    };
}

/// The fields of a Python `analyzer.core.rules.Rules` the native core reads, by their Python
/// names (every mechanic's field; not the name, labels or player counts).  The options are the
/// values of Python's `StrEnum`s.
#[derive(FromPyObject)]
pub struct RulesFields {
    pub players: usize,
    pub hand_size: usize,
    pub max_run: u32,
    /// R9: `"none"` or `"pass_one"`.
    pub exchange: String,
    /// R13a: `"own"` or `"borrow"`.
    pub rearrange: String,
    /// R14: `"layoff"` or `"rearrange"`.
    pub force_fit: String,
    /// R14: `"after_decline"` or `"any_offer"`.
    pub force_when: String,
    /// R16.
    pub hand_melds: bool,
    /// R18: `"draw"` or `"fewest_in_hand"`.
    pub on_stock_out: String,
    /// R10a.
    pub upcard: bool,
    /// R14a.
    pub discard_force: bool,
}

/// `true` for `yes`, `false` for `no`, else a `ValueError` naming the field and the value.
fn option(field: &str, value: &str, no: &str, yes: &str) -> PyResult<bool> {
    if value == yes {
        Ok(true)
    } else if value == no {
        Ok(false)
    } else {
        Err(PyValueError::new_err(format!(
            "rules.{field} is '{value}', which the native core does not know ('{no}' or '{yes}')"
        )))
    }
}

/// The rules of a variant, checked and made once (`analyzer.core.native.pack_rules` caches one
/// per `Rules`): `NativeRules(rules)` reads the named fields of [`RulesFields`] from `rules`.
#[pyclass(module = "analyzer._native", frozen, skip_from_py_object)]
#[derive(Clone)]
pub struct NativeRules {
    pub rules: Arc<Rules>,
    /// The engine pool's key: every field the native rules hold, packed.
    key: u32,
}

#[pymethods]
impl NativeRules {
    #[new]
    fn new(rules: RulesFields) -> PyResult<Self> {
        let r = &rules;
        let made = Rules::new(
            r.players,
            r.hand_size,
            r.max_run,
            option("exchange", &r.exchange, "none", "pass_one")?,
            option("force_fit", &r.force_fit, "layoff", "rearrange")?,
            option("force_when", &r.force_when, "after_decline", "any_offer")?,
            r.hand_melds,
            option("on_stock_out", &r.on_stock_out, "draw", "fewest_in_hand")?,
        )
        .map_err(PyValueError::new_err)?
        .with_historical(
            option("rearrange", &r.rearrange, "own", "borrow")?,
            r.upcard,
            r.discard_force,
        );
        let key = pool_key(&made);
        Ok(NativeRules {
            rules: Arc::new(made),
            key,
        })
    }

    #[getter]
    fn players(&self) -> usize {
        self.rules.players
    }

    #[getter]
    fn hand_size(&self) -> usize {
        self.rules.hand_size
    }

    #[getter]
    fn max_run(&self) -> u32 {
        self.rules.max_run
    }

    fn __repr__(&self) -> String {
        let r = &self.rules;
        format!(
            "NativeRules(players={}, hand_size={}, max_run={}, exchange={}, force_fit_rearrange={}, \
             force_any_offer={}, hand_melds={}, stock_out_fewest={}, borrow={}, upcard={}, \
             discard_force={})",
            r.players,
            r.hand_size,
            r.max_run,
            r.exchange,
            r.force_fit_rearrange,
            r.force_any_offer,
            r.hand_melds,
            r.stock_out_fewest,
            r.borrow,
            r.upcard,
            r.discard_force
        )
    }
}

/// Every field of `r` the engine depends on, packed: players (bits 0-2), hand size (3-7),
/// longest run (8-11), then one bit per option.  Only the pool reads it.
fn pool_key(r: &Rules) -> u32 {
    let flags = [
        r.exchange,
        r.force_fit_rearrange,
        r.force_any_offer,
        r.hand_melds,
        r.stock_out_fewest,
        r.borrow,
        r.upcard,
        r.discard_force,
    ];
    let mut key = r.players as u32 | (r.hand_size as u32) << 3 | r.max_run << 8;
    for (k, &flag) in flags.iter().enumerate() {
        key |= u32::from(flag) << (12 + k);
    }
    key
}

/// How the centre card came (`analyzer.core.offers.Offer.kind`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OfferKind {
    /// Turned from the stock (R10).
    Turned,
    /// Paid by a player (R13).
    Paid,
    /// Turned up at the deal (R10a).
    Upcard,
}

named_enum!("offer kind", OfferKind {
    OfferKind::Turned => "turned",
    OfferKind::Paid => "paid",
    OfferKind::Upcard => "upcard",
});

named_enum!("phase", Phase {
    Phase::Exchange => "exchange",
    Phase::Turn => "turn",
    Phase::Offer => "offer",
    Phase::Forced => "forced",
    Phase::Over => "over",
});

named_data!(
    getattr,
    /// The centre card (R10-R14): read from an `analyzer.core.offers.Offer`'s attributes.
    pub struct OfferData {
        pub card: u8,
        pub kind: OfferKind,
        /// The player who turned or paid it.
        pub source: u8,
        /// The players who declined it, in order.
        pub declined: Vec<u8>,
        /// The player forced to take it (R14), if any.
        pub forced: Option<u8>,
    }
);

named_data!(
    getattr,
    /// A position: read from an `analyzer.core.state.GameState`'s attributes (cards as indices
    /// 0-39, hands and melds as card masks); written as a dict with the same keys
    /// (`analyzer.core.native.StateData`).
    pub struct StateData {
        pub dealer: u8,
        pub to_act: u8,
        pub phase: Phase,
        pub winner: Option<u8>,
        pub stock_count: u8,
        /// Per player his hand's mask, `None` when hidden.
        pub hands: Vec<Option<u64>>,
        pub counts: Vec<u8>,
        /// Per player his melds' masks.
        pub layouts: Vec<Vec<u64>>,
        /// The stock top first, `None` when its order is unknown.
        pub stock: Option<Vec<u8>>,
        pub dead: Vec<u8>,
        pub centre: Option<OfferData>,
        /// In the exchange (R9): per player the card chosen so far; empty when none is.
        pub gifts: Vec<Option<u8>>,
        /// After the exchange: per player the card he passed on; empty before.
        pub gave: Vec<Option<u8>>,
        /// Per player the cards he paid, in order; empty when not kept.
        pub paid: Vec<Vec<u8>>,
    }
);

named_data!(
    get_item,
    /// A move, as a dict (`analyzer.core.native.pack_move`): `kind` 0 pass, 1 take, 2 lay-in,
    /// 3 force, 4 meld, 5 give, 6 turn; `values` the layout's melds (take, lay-in), or the one
    /// player, meld or card; `pay` the card paid (`None`: out, or no pay).
    pub struct MoveData {
        pub kind: u8,
        pub values: Vec<u64>,
        pub pay: Option<u8>,
    }
);

named_data!(
    get_item,
    /// Moves in order, as three parallel lists (one dict for a whole move list, at every node of
    /// a Python-driven search): each move's `kind`, `values` and `pay` as in [`MoveData`].
    pub struct MovesData {
        pub kinds: Vec<u8>,
        pub values: Vec<Vec<u64>>,
        pub pays: Vec<Option<u8>>,
    }
);

impl MovesData {
    /// The data of `moves`, in order.
    pub fn of(rules: &Rules, moves: &[Move]) -> Self {
        let mut out = MovesData {
            kinds: Vec::with_capacity(moves.len()),
            values: Vec::with_capacity(moves.len()),
            pays: Vec::with_capacity(moves.len()),
        };
        for m in moves {
            let MoveData { kind, values, pay } = move_data(rules, m);
            out.kinds.push(kind);
            out.values.push(values);
            out.pays.push(pay);
        }
        out
    }
}

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
    static ENGINES: RefCell<FxHashMap<u32, Vec<Box<Engine>>>> = RefCell::new(FxHashMap::default());
}

/// An engine (rules and memo tables) for `rules` from this thread's pool, made when none is
/// free: its memo tables stay warm from one call, one solver, one search to the next.  Give it
/// back with [`give_engine`] (an engine lost to a panic is simply made again).
pub fn take_engine(rules: &NativeRules) -> Box<Engine> {
    ENGINES
        .with(|m| m.borrow_mut().get_mut(&rules.key).and_then(Vec::pop))
        .unwrap_or_else(|| Box::new(Engine::new(Arc::clone(&rules.rules))))
}

/// Return an engine taken with [`take_engine`] to the pool.
pub fn give_engine(rules: &NativeRules, engine: Box<Engine>) {
    ENGINES.with(|m| m.borrow_mut().entry(rules.key).or_default().push(engine));
}

/// Run `f` with a pooled engine for `rules`.
pub fn with_engine<T>(rules: &NativeRules, f: impl FnOnce(&Engine) -> PyResult<T>) -> PyResult<T> {
    let engine = take_engine(rules);
    let out = f(&engine);
    give_engine(rules, engine);
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

/// Per seat a card or none; `None` for an empty list (the exchange not reached, or over).
fn seats(values: &[Option<u8>]) -> PyResult<Option<[Option<u8>; MAX_PLAYERS]>> {
    if values.is_empty() {
        return Ok(None);
    }
    let mut out = [None; MAX_PLAYERS];
    for (p, x) in values.iter().enumerate().take(MAX_PLAYERS) {
        if let Some(c) = x {
            out[p] = Some(card(*c)?);
        }
    }
    Ok(Some(out))
}

/// The native state of `data` (see [`StateData`]).
pub fn state_of(rules: &Rules, data: &StateData) -> PyResult<State> {
    let StateData {
        dealer,
        to_act,
        phase,
        winner,
        stock_count,
        hands,
        counts,
        layouts,
        stock,
        dead,
        centre,
        gifts,
        gave,
        paid,
    } = data;
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
        phase: *phase,
        winner: *winner,
        gifts: seats(gifts)?,
        gave: seats(gave)?,
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
    if let Some(OfferData {
        card: c,
        kind,
        source,
        declined,
        forced,
    }) = centre
    {
        let mut offer = Offer::new(card(*c)?, *kind == OfferKind::Paid, *source);
        offer.upcard = *kind == OfferKind::Upcard;
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
    if !paid.is_empty() {
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
    let centre = s.centre.map(|c| OfferData {
        card: c.card,
        kind: [OfferKind::Turned, OfferKind::Paid, OfferKind::Upcard][c.kind() as usize],
        source: c.source,
        declined: c.declined().to_vec(),
        forced: c.forced,
    });
    let seat_list =
        |v: Option<[Option<u8>; MAX_PLAYERS]>| v.map(|a| a[..n].to_vec()).unwrap_or_default();
    let paid = if s.paid.present {
        (0..n as u8).map(|p| s.paid.of(p).collect()).collect()
    } else {
        Vec::new()
    };
    StateData {
        dealer: s.dealer,
        to_act: s.to_act,
        phase: s.phase,
        winner: s.winner,
        stock_count: s.stock_count,
        hands,
        counts: s.counts[..n].to_vec(),
        layouts,
        stock,
        dead: s.dead_cards().to_vec(),
        centre,
        gifts: seat_list(s.gifts),
        gave: seat_list(s.gave),
        paid,
    }
}

/// The plain data of a move.
pub fn move_data(rules: &Rules, m: &Move) -> MoveData {
    let layout = |l: &MeldList| {
        l.as_slice()
            .iter()
            .map(|&i| rules.meld(i).bits())
            .collect::<Vec<u64>>()
    };
    let (kind, values, pay) = match m {
        Move::Pass => (0, vec![], None),
        Move::Take(l, p) => (1, layout(l), *p),
        Move::LayIn(l, p) => (2, layout(l), *p),
        Move::Force(p) => (3, vec![u64::from(*p)], None),
        Move::Meld(i) => (4, vec![rules.meld(*i).bits()], None),
        Move::Give(c) => (5, vec![u64::from(*c)], None),
        Move::Turn(c) => (6, vec![u64::from(*c)], None),
    };
    MoveData { kind, values, pay }
}

/// The native move of plain data.
pub fn move_of(rules: &Rules, data: &MoveData) -> PyResult<Move> {
    let MoveData {
        kind: code,
        values,
        pay,
    } = data;
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
