//! Sampling the hidden cards of a player's view (`analyzer.search.sampling`), drawing from the
//! same generator in the same order as Python: the same seed gives the same deals in both cores.

use crate::core::cards::CardSet;
use crate::core::legal::Engine;
use crate::core::offers::Phase;
use crate::core::rules::MAX_PLAYERS;
use crate::core::state::State;
use crate::rng::PyRandom;

/// Uniform draws tried by `sample_deal(..., infer=True)` before it settles for the best one.
pub const MAX_TRIES: usize = 64;

/// Per hidden player, a weight in (0, 1] per card (the paid-card reading); `None`: uniform.
pub type Weights = [Option<Vec<f64>>; MAX_PLAYERS];

/// The cards `player` has not seen: not in his hand, no layout, not dead, not the centre card.
pub fn unseen_cards(engine: &Engine, view: &State, player: usize) -> CardSet {
    !view.hands[player] - view.table_mask(engine.players())
}

/// The card `player` passed in the exchange, known to be in the next hand (R9).
fn required(
    engine: &Engine,
    view: &State,
    player: usize,
    unseen: CardSet,
) -> [CardSet; MAX_PLAYERS] {
    let mut need = [CardSet::EMPTY; MAX_PLAYERS];
    if let Some(Some(card)) = view.gave.map(|gave| gave[player]) {
        if unseen.contains(card) {
            need[(player + 1) % engine.players()] = CardSet::card(card);
        }
    }
    need
}

/// For each other hidden player: the two-card pairs that make a three-card meld with a card he
/// declined (`declined_pairs`), sorted.
pub fn declined_pairs(
    engine: &Engine,
    view: &State,
    player: usize,
) -> [Option<Vec<CardSet>>; MAX_PLAYERS] {
    let melds3: Vec<CardSet> = engine
        .rules
        .catalog
        .iter()
        .copied()
        .filter(|m| m.len() == 3)
        .collect();
    let mut out: [Option<Vec<CardSet>>; MAX_PLAYERS] = Default::default();
    for p in 0..engine.players() {
        if p == player || !view.is_hidden(p) {
            continue;
        }
        // A paid card is offered to the players after its payer (R11), never taken by him: his
        // own paid cards, dead or in the centre, say nothing of his hand (Python's declined_cards).
        let own: Vec<u8> = view.paid.of(p as u8).collect();
        let mut declined: Vec<u8> = view
            .dead_cards()
            .iter()
            .copied()
            .filter(|c| !own.contains(c))
            .collect();
        if let Some(c) = view.centre {
            let his = c.paid && c.source as usize == p;
            if c.declined().contains(&(p as u8)) && !his {
                declined.push(c.card);
            }
        }
        let mut pairs: Vec<CardSet> = Vec::new();
        for &c in &declined {
            for &m in &melds3 {
                if m.contains(c) {
                    pairs.push(m - CardSet::card(c));
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        out[p] = Some(pairs);
    }
    out
}

fn broken(hands: &[CardSet; MAX_PLAYERS], pairs: &[Option<Vec<CardSet>>; MAX_PLAYERS]) -> usize {
    let mut count = 0;
    for (p, sets) in pairs.iter().enumerate() {
        if let Some(sets) = sets {
            count += sets.iter().filter(|m| m.is_subset(hands[p])).count();
        }
    }
    count
}

/// The error of an impossible view.
#[derive(Debug, Clone)]
pub struct Impossible(pub String);

/// One consistent deal: uniform, or each hidden hand drawn card by card by its weights (`_draw`).
fn draw(
    engine: &Engine,
    view: &State,
    player: usize,
    rng: &mut PyRandom,
    weights: Option<&Weights>,
) -> Result<State, Impossible> {
    let n = engine.players();
    let mut unseen = unseen_cards(engine, view, player);
    for p in 0..n {
        if !view.is_hidden(p) {
            unseen -= view.hands[p];
        }
    }
    let need = required(engine, view, player, unseen);
    let mut free = unseen;
    for cards in need {
        free -= cards;
    }
    let mut deck: Vec<u8> = free.iter().collect();
    rng.shuffle(&mut deck);
    let mut out = view.clone();
    let mut pos = 0usize;
    for p in 0..n {
        if !view.is_hidden(p) {
            continue;
        }
        let fixed = need[p];
        let take = i64::from(view.counts[p]) - i64::from(fixed.len());
        if take < 0 || pos + take as usize > deck.len() {
            return Err(Impossible(
                "the hidden hand counts do not fit the unseen cards".into(),
            ));
        }
        let take = take as usize;
        if let Some(Some(weight)) = weights.map(|w| &w[p]) {
            if take > 0 {
                // The cards left, best key first: key log(u) / w (Efraimidis and Spirakis).
                let rest = &deck[pos..];
                let keyed: Vec<(f64, u8)> = rest
                    .iter()
                    .map(|&c| ((1.0 - rng.random()).ln() / weight[c as usize], c))
                    .collect();
                let mut order: Vec<usize> = (0..keyed.len()).collect();
                // Python's sorted(..., reverse=True): descending, equal keys in their first order.
                order.sort_by(|&a, &b| keyed[b].0.partial_cmp(&keyed[a].0).expect("finite keys"));
                let sorted: Vec<u8> = order.iter().map(|&i| keyed[i].1).collect();
                deck[pos..].copy_from_slice(&sorted);
            }
        }
        out.hands[p] = fixed | deck[pos..pos + take].iter().copied().collect();
        out.hidden &= !(1 << p);
        pos += take;
    }
    if (0..n).any(|q| !need[q].is_empty() && !view.is_hidden(q)) {
        return Err(Impossible(
            "the card passed in the exchange is not where the view says".into(),
        ));
    }
    let mut rest: Vec<u8> = deck[pos..].to_vec();
    if weights.is_some_and(|w| w.iter().any(Option::is_some)) {
        rng.shuffle(&mut rest); // the last weighted hand left the rest in its key order
    }
    if rest.len() != view.stock_count as usize {
        return Err(Impossible(format!(
            "the view has {} stock cards but {} unseen cards are left for it",
            view.stock_count,
            rest.len()
        )));
    }
    out.stock_known = true;
    out.stock_count = rest.len() as u8;
    for (i, &c) in rest.iter().rev().enumerate() {
        out.stock[i] = c;
    }
    Ok(out)
}

/// One consistent deal of the hidden cards (`sample_deal`); with `pairs` (inference) the best of
/// up to [`MAX_TRIES`] draws by the declined-card facts it breaks.
pub fn sample_deal(
    engine: &Engine,
    view: &State,
    player: usize,
    rng: &mut PyRandom,
    pairs: Option<&[Option<Vec<CardSet>>; MAX_PLAYERS]>,
    weights: Option<&Weights>,
) -> Result<State, Impossible> {
    let pairs = pairs.filter(|p| p.iter().any(Option::is_some));
    let tries = if pairs.is_some() { MAX_TRIES } else { 1 };
    let mut best: Option<State> = None;
    let mut fewest = usize::MAX;
    for _ in 0..tries {
        let deal = draw(engine, view, player, rng, weights)?;
        let b = pairs.map_or(0, |p| broken(&deal.hands, p));
        if best.is_none() || b < fewest {
            best = Some(deal);
            fewest = b;
        }
        if b == 0 {
            break;
        }
    }
    Ok(best.expect("one draw"))
}

/// A seat's gift in the exchange as a view shows it (R9).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Gift {
    /// Not chosen yet (Python's `-1`).
    NotYet,
    /// Chosen, and hidden from the viewer (`None`).
    Hidden,
    /// Chosen and shown.
    Shown(u8),
}

/// Per seat in the exchange: his gift if chosen and shown, hidden, or not yet chosen
/// (`chosen_gifts`).  The exchange is played in turn order from the player after the dealer:
/// the seats before the one to act have chosen.
fn chosen_gifts(engine: &Engine, s: &State) -> [Gift; MAX_PLAYERS] {
    let n = engine.players();
    let order: Vec<usize> = (0..n).map(|k| (s.dealer as usize + 1 + k) % n).collect();
    let at = order
        .iter()
        .position(|&q| q == s.to_act as usize)
        .unwrap_or(n);
    let done = &order[..at];
    let gifts = s.gifts.unwrap_or([None; MAX_PLAYERS]);
    let mut out = [Gift::NotYet; MAX_PLAYERS];
    for q in 0..n {
        if done.contains(&q) {
            out[q] = gifts[q].map_or(Gift::Hidden, Gift::Shown);
        }
    }
    out
}

/// A whole deal consistent with `player`'s view (`sample_world`): hidden hands drawn by
/// [`sample_deal`], hidden exchange gifts from the hand that holds them; the stock order left
/// to chance unless `ordered`.
pub fn sample_world(
    engine: &Engine,
    view: &State,
    player: usize,
    rng: &mut PyRandom,
    pairs: Option<&[Option<Vec<CardSet>>; MAX_PLAYERS]>,
    ordered: bool,
    weights: Option<&Weights>,
) -> Result<State, Impossible> {
    let mut world = sample_deal(engine, view, player, rng, pairs, weights)?;
    let n = engine.players();
    if !ordered {
        world.stock_known = false;
    }
    if world.phase == Phase::Exchange {
        let mut gifts = view.gifts.unwrap_or([None; MAX_PLAYERS]);
        let chosen = chosen_gifts(engine, view);
        for q in 0..n {
            if chosen[q] == Gift::Hidden && q != player {
                let hand: Vec<u8> = world.hands[q].iter().collect();
                gifts[q] = Some(hand[rng.randrange(hand.len())]);
            }
        }
        world.gifts = Some(gifts);
    } else if let Some(mut gave) = world.gave {
        for q in 0..n {
            // A hidden pass is drawn from its receiver's cards; the pass the viewer received
            // from a hidden hand is drawn and dropped all the same (the seeded stream of views).
            let received = (q + 1) % n == player && view.is_hidden(q);
            if gave[q].is_none() || received {
                let holder = (q + 1) % n;
                let pool = world.hands[holder] | world.melded[holder];
                let drawn = if pool.is_empty() {
                    None
                } else {
                    let list: Vec<u8> = pool.iter().collect();
                    Some(list[rng.randrange(list.len())])
                };
                if gave[q].is_none() {
                    gave[q] = drawn;
                }
            }
        }
        world.gave = Some(gave);
    }
    Ok(world)
}
