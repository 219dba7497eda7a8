//! Playouts: a deal played to its end by the `eager` policy (`analyzer.search.playout`), drawing
//! from the same generator in the same order as Python, so a seed gives the same playout.

use crate::core::cards::{CardSet, NUM_CARDS};
use crate::core::legal::Engine;
use crate::core::moves::Move;
use crate::core::offers::Phase;
use crate::core::state::State;
use crate::rng::PyRandom;
use crate::search::outcome::Outcome;

/// Per card: the cards that link with it (same rank, or same suit within two ranks).
pub static LINKS: [CardSet; NUM_CARDS] = {
    let mut out = [CardSet::EMPTY; NUM_CARDS];
    let mut card = 0;
    while card < NUM_CARDS {
        let (rank, suit) = (card / 4, card % 4);
        let mut other = 0;
        while other < NUM_CARDS {
            let (r, s) = (other / 4, other % 4);
            let close = if r > rank {
                r - rank <= 2
            } else {
                rank - r <= 2
            };
            if other != card && (r == rank || (s == suit && close)) {
                out[card].0 |= 1u64 << other;
            }
            other += 1;
        }
        card += 1;
    }
    out
};

fn cost(engine: &Engine, m: &Move, hand: CardSet) -> u32 {
    match m {
        Move::Give(card) => (hand & LINKS[*card as usize]).len(),
        Move::Take(layout, Some(pay)) | Move::LayIn(layout, Some(pay)) => {
            let kept = hand - layout.cards(&engine.rules);
            (kept & LINKS[*pay as usize]).len()
        }
        _ => 0,
    }
}

/// Among takes, lay-ins or gives: the one giving up the card least linked to what stays; ties
/// drawn by `rng.choice` (the k-th tied move in order).
fn cheapest<'a>(
    engine: &Engine,
    moves: impl Iterator<Item = &'a Move> + Clone,
    hand: CardSet,
    rng: &mut PyRandom,
) -> Move {
    let mut low = u32::MAX;
    let mut tied = 0usize;
    for m in moves.clone() {
        let c = cost(engine, m, hand);
        if c < low {
            low = c;
            tied = 1;
        } else if c == low {
            tied += 1;
        }
    }
    let k = rng.randrange(tied);
    *moves
        .filter(|m| cost(engine, m, hand) == low)
        .nth(k)
        .expect("a tied move")
}

/// The `eager` policy's move among `moves` (`eager_move`).
pub fn eager_move(engine: &Engine, s: &State, moves: &[Move], rng: &mut PyRandom) -> Move {
    let rules = &*engine.rules;
    let mut most: i64 = -1;
    for m in moves {
        if m.goes_out() {
            return *m; // going out wins (R15)
        }
        if let Move::Take(layout, _) = m {
            most = most.max(i64::from(layout.cards(rules).len()));
        }
    }
    let hand = s.hands[s.to_act as usize];
    if most >= 0 {
        // The takes that meld the most cards, in order.
        let best = moves.iter().filter(|m| match m {
            Move::Take(layout, _) => i64::from(layout.cards(rules).len()) == most,
            _ => false,
        });
        return cheapest(engine, best, hand, rng);
    }
    if let Some(m) = moves.iter().find(|m| matches!(m, Move::Meld(_))) {
        return *m;
    }
    let forces: Vec<Move> = moves
        .iter()
        .filter(|m| matches!(m, Move::Force(p) if s.counts[*p as usize] > 0))
        .copied()
        .collect();
    if !forces.is_empty() {
        return forces[rng.randrange(forces.len())];
    }
    match s.phase {
        Phase::Offer => Move::Pass,
        Phase::Forced | Phase::Exchange => cheapest(engine, moves.iter(), hand, rng),
        _ => moves[rng.randrange(moves.len())],
    }
}

/// The card a chance node turns (`random_turn`): the top of a known stock (one `randrange(1)`
/// drawn all the same), else the k-th stock card in index order, k drawn uniformly.
pub fn random_turn(engine: &Engine, s: &State, rng: &mut PyRandom) -> Move {
    if s.stock_known {
        rng.randrange(1);
        return Move::Turn(s.stock_top());
    }
    let mut mask = s
        .stock_mask(engine.players())
        .expect("the stock cards are known");
    for _ in 0..rng.randrange(mask.len() as usize) {
        mask = mask.without_lowest();
    }
    Move::Turn(mask.lowest() as u8)
}

/// The eager move at an offer, generating only the moves it can pick (`_eager_offer`).
fn eager_offer(engine: &Engine, s: &State, rng: &mut PyRandom, melds: bool) -> Move {
    let takes = engine.takes(s).expect("every hand known");
    if !takes.is_empty() {
        return eager_move(engine, s, &takes, rng);
    }
    if melds && engine.rules.hand_melds {
        if let Some(m) = engine.first_hand_meld(s) {
            return Move::Meld(m);
        }
    }
    let (forceable, k) = engine.forceable(s);
    let forces: Vec<u8> = forceable[..k]
        .iter()
        .copied()
        .filter(|&p| s.counts[p as usize] > 0)
        .collect();
    if !forces.is_empty() {
        return Move::Force(forces[rng.randrange(forces.len())]);
    }
    Move::Pass
}

/// `s` played to its end with `eager` (else uniformly random moves); player `quiet` (if any)
/// never lays a meld from his hand alone (R16).
pub fn play(engine: &Engine, s: &State, eager: bool, rng: &mut PyRandom, quiet: i32) -> State {
    play_counted(engine, s, eager, rng, quiet).0
}

/// [`play`], and the moves applied on the way (each forced run counted as its positions).
pub fn play_counted(
    engine: &Engine,
    s: &State,
    eager: bool,
    rng: &mut PyRandom,
    quiet: i32,
) -> (State, u64) {
    let mut plies = 0u64;
    let mut state = s.clone();
    while !state.is_terminal() {
        let m = if state.is_chance() {
            random_turn(engine, &state, rng)
        } else if eager && state.phase == Phase::Offer {
            // Offers that nobody can use are passed at once (no draw is spent on a pass).
            if let Some((after, steps)) = engine.run_forced(&state, 1 << 30, false) {
                state = after;
                plies += steps as u64;
                continue;
            }
            eager_offer(engine, &state, rng, i32::from(state.to_act) != quiet)
        } else {
            let moves = engine.legal_moves(&state).expect("every hand known");
            if eager {
                eager_move(engine, &state, &moves, rng)
            } else {
                moves[rng.randrange(moves.len())]
            }
        };
        state = engine.apply(&state, &m);
        plies += 1;
    }
    (state, plies)
}

/// The outcome vector of a playout (`playout_outcome`).
pub fn playout_outcome(
    engine: &Engine,
    s: &State,
    eager: bool,
    rng: &mut PyRandom,
    quiet: i32,
) -> Outcome {
    let end = play(engine, s, eager, rng, quiet);
    Outcome::of_end(&end, engine.players())
}

/// The cards of a set, as a vector (for `rng.choice(list(iter_mask(...)))`).
pub fn card_list(cards: CardSet) -> Vec<u8> {
    cards.iter().collect()
}
