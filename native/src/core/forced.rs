//! Forced runs (Python's `GameState.run_forced`): the positions of a deal that have exactly one
//! legal move, followed without building them.  From a turn of a known stock (R10) or an offer,
//! the centre card is offered and passed (R11, R12) by every player who can neither take it
//! (R13, R15), force it (R14) nor lay a hand-only meld (R16); a card nobody can use dies (R17)
//! and the next card is turned, or the deal ends (R18).  Searches use it to skip the dead
//! offers that make up most of a deal; the result equals applying the one legal move of each
//! position in turn.

use crate::core::cards::CardSet;
use crate::core::legal::{Engine, Facts};
use crate::core::offers::{Offer, Phase};
use crate::core::rules::MAX_PLAYERS;
use crate::core::state::State;

/// What a run does after one step.
enum Step {
    /// On to the next position.
    Go,
    /// A position with a choice, or the budget spent: the run ends here.
    Stop,
    /// The last card died with the stock empty: the deal is over (R18).
    Over,
}

/// The centre card a run starts from (`None`: a turn) and the facts known so far.
type RunStart = (Option<Offer>, [Option<Facts>; MAX_PLAYERS]);

/// A forced run under way.  Nobody takes or melds inside a run, so each player's [`Facts`] hold
/// throughout; they are looked up when first needed.
struct Run<'a> {
    engine: &'a Engine,
    /// The position the run started from.
    s: &'a State,
    /// `s` with the cards that died on the way.
    t: State,
    turns: bool,
    limit: i64,
    /// Positions passed so far.
    steps: i64,
    /// Stock cards turned so far.
    top: i64,
    to_act: u8,
    /// The centre card and its offer; `None` when a turn is next.
    centre: Option<Offer>,
    facts: [Option<Facts>; MAX_PLAYERS],
    /// Once known: the cards that fit someone's layout (R14) and the cards whose offer may
    /// stop the run (every card when someone can meld from his hand alone, R16).
    hot: Option<(CardSet, CardSet)>,
}

impl Engine {
    /// Follow the positions that have exactly one legal move, without building them (Python's
    /// `GameState.run_forced`): dead offers and, with `turns`, turns of a known stock.  Returns
    /// the first position with a choice (or the end, or the position after `limit` steps) and
    /// the positions passed; `None` when no step was taken.
    pub fn run_forced(&self, s: &State, limit: i64, turns: bool) -> Option<(State, i64)> {
        let (centre, facts) = self.start_run(s, limit, turns)?;
        let mut run = Run {
            engine: self,
            s,
            t: s.clone(),
            turns,
            limit,
            steps: 0,
            top: 0,
            to_act: s.to_act,
            centre,
            facts,
            hot: None,
        };
        while run.steps < limit {
            let step = match run.centre {
                None => run.turn(),
                Some(offer) => run.offer(offer),
            };
            match step {
                Step::Go => {}
                Step::Stop => break,
                Step::Over => return Some(run.stock_out()),
            }
        }
        run.finish()
    }

    /// Where a run from `s` starts, if one can: an offer nobody forced to a known hand that
    /// has no take or hand meld with it (its centre card, and the facts of the player to act
    /// found on the way), or a turn of a known stock (with `turns`); every hand known either
    /// way.
    fn start_run(&self, s: &State, limit: i64, turns: bool) -> Option<RunStart> {
        let mut facts = [None; MAX_PLAYERS];
        let centre = match s.phase {
            Phase::Offer => {
                let centre = s.centre.expect("an offer has a centre card");
                let me = s.to_act as usize;
                if centre.forced.is_some() || s.is_hidden(me) || limit <= 0 {
                    return None;
                }
                // Most calls come at a choice: find out first, before any other work.
                let mine = self.player_facts(&s.layouts[me], s.hands[me]);
                if self.can_use(s, me, &centre, &mine) {
                    return None;
                }
                facts[me] = Some(mine);
                Some(centre)
            }
            Phase::Turn if s.stock_known && limit > 0 && turns => None,
            _ => return None,
        };
        if s.any_hidden() {
            return None;
        }
        Some((centre, facts))
    }

    /// True if player `p`, with these facts, can take the offered card or lay a meld from his
    /// hand (R13, R15, R16); the payer of a paid card can do neither with it (R14a).
    fn can_use(&self, s: &State, p: usize, offer: &Offer, fact: &Facts) -> bool {
        let own = offer.paid && offer.source as usize == p;
        !own && (fact.alone
            || (fact.near.contains(offer.card)
                && self.has_take(&s.layouts[p], s.melded[p], s.hands[p], offer.card)))
    }
}

impl Run<'_> {
    /// The facts of player `p`, looked up once.
    #[inline]
    fn facts(&mut self, p: usize) -> Facts {
        let (engine, s) = (self.engine, self.s);
        *self.facts[p].get_or_insert_with(|| engine.player_facts(&s.layouts[p], s.hands[p]))
    }

    /// The cards that fit someone's layout and the cards that may stop the run (see
    /// [`Run::hot`]), every player's facts filled on the way (Python's `_run_facts`).
    #[inline]
    fn hot(&mut self) -> (CardSet, CardSet) {
        match self.hot {
            Some(found) => found,
            None => self.find_hot(),
        }
    }

    fn find_hot(&mut self) -> (CardSet, CardSet) {
        let (mut fit, mut near, mut alone) = (CardSet::EMPTY, CardSet::EMPTY, false);
        for p in 0..self.engine.players() {
            let f = self.facts(p);
            near |= f.near;
            fit |= f.fit;
            alone = alone || f.alone;
        }
        let found = (fit, if alone { CardSet::FULL } else { near | fit });
        self.hot = Some(found);
        found
    }

    /// The stock card `k` cards below the top of the stock the run started from.
    fn stock_at(&self, k: i64) -> u8 {
        self.s.stock[(i64::from(self.s.stock_count) - 1 - k) as usize]
    }

    /// A turn (R10): a card that melds with nobody's cards and fits no layout is offered to
    /// every player in turn and dies, `n + 1` positions with nothing else changed (R17); the
    /// first other card is turned and offered.
    fn turn(&mut self) -> Step {
        if !self.s.stock_known || !self.turns {
            return Step::Stop; // the turn is a chance node: the caller draws it
        }
        let n = self.engine.players() as i64;
        let (_, hot) = self.hot();
        while !hot.contains(self.stock_at(self.top)) && self.steps + n < self.limit {
            self.t.push_dead(self.stock_at(self.top));
            self.top += 1;
            self.steps += n + 1;
            self.to_act = (self.to_act + 1) % n as u8;
            if self.top == i64::from(self.s.stock_count) {
                return Step::Over;
            }
        }
        if self.steps >= self.limit {
            return Step::Stop;
        }
        self.centre = Some(Offer::new(self.stock_at(self.top), false, self.to_act));
        self.top += 1;
        self.steps += 1;
        Step::Go
    }

    /// The offer of the centre card to the player to act: a stop when he has a choice (a
    /// take, a hand meld or a force), else his pass (R12); the card goes on in its offer order
    /// or dies when all have passed (R17).
    fn offer(&mut self, offer: Offer) -> Step {
        let p = self.to_act as usize;
        let fact = self.facts(p);
        if self.engine.can_use(self.s, p, &offer, &fact) || self.can_force(&offer) {
            return Step::Stop; // a choice: the search takes over
        }
        self.steps += 1;
        let n = self.engine.players() as u8;
        let declined = offer.with_decline(self.to_act);
        let (start, order_len) = offer.order_shape(&self.engine.rules);
        if declined.ndeclined < order_len {
            self.to_act = (offer.source + start + declined.ndeclined) % n;
            self.centre = Some(declined);
            return Step::Go;
        }
        self.t.push_dead(offer.card); // R17: nobody used it
        self.to_act = (offer.source + 1) % n;
        self.centre = None;
        if i64::from(self.s.stock_count) > self.top {
            Step::Go
        } else {
            Step::Over
        }
    }

    /// True if the player to act may force the offered card on a player whose layout it fits
    /// (R14).
    fn can_force(&mut self, offer: &Offer) -> bool {
        if !self.hot().0.contains(offer.card) {
            return false;
        }
        let (cands, k) = self.engine.force_candidates(self.to_act, offer);
        cands[..k].iter().any(|&q| {
            self.facts[q as usize]
                .expect("filled")
                .fit
                .contains(offer.card)
        })
    }

    /// The position where the run stopped and the positions passed; `None` when no step was
    /// taken.
    fn finish(mut self) -> Option<(State, i64)> {
        if self.steps == 0 {
            return None;
        }
        self.t.stock_count = (i64::from(self.s.stock_count) - self.top) as u8;
        self.t.to_act = self.to_act;
        self.t.phase = if self.centre.is_some() {
            Phase::Offer
        } else {
            Phase::Turn
        };
        self.t.centre = self.centre;
        Some((self.t, self.steps))
    }

    /// The deal over because the last card died with the stock empty (R17, R18; Python's
    /// `_stock_out`), and the positions passed.
    fn stock_out(mut self) -> (State, i64) {
        self.t.stock_count = (i64::from(self.s.stock_count) - self.top) as u8;
        self.t.centre = None;
        self.t.to_act = self.to_act;
        self.t.phase = Phase::Over;
        self.t.winner = self.engine.stock_out_winner(self.s);
        (self.t, self.steps)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::core::dealing::deal;
    use crate::core::rules::Rules;
    use crate::rng::PyRandom;

    /// A run from `s` lands where applying the one legal move of each position in turn does,
    /// within its budget and turning no card without `turns`; a run that takes no step from an
    /// offer (nobody forced) leaves a choice, and one from a turn of the known stock always
    /// steps.
    fn check_run(engine: &Engine, s: &State, limit: i64, turns: bool) {
        let Some((after, steps)) = engine.run_forced(s, limit, turns) else {
            let offered = s.phase == Phase::Offer && s.centre.is_some_and(|c| c.forced.is_none());
            if offered {
                assert!(engine.legal_moves(s).expect("every hand known").len() > 1);
            }
            assert!(
                !(s.is_chance() && turns),
                "a turn of a known stock is forced"
            );
            return;
        };
        assert!((1..=limit).contains(&steps));
        let mut t = s.clone();
        for _ in 0..steps {
            assert!(turns || !t.is_chance());
            let moves = engine.legal_moves(&t).expect("every hand known");
            assert_eq!(moves.len(), 1);
            t = engine.apply(&t, &moves[0]);
        }
        assert!(t == after);
    }

    /// Along random deals of three variants (the historical mechanics in the third), at every
    /// position and for several budgets, forced runs are their single moves.
    #[test]
    fn a_forced_run_equals_its_single_moves() {
        let variants = [
            Rules::classic(),
            Rules::megajogos(),
            Rules::megajogos().with_historical(true, true, true),
        ];
        let budgets = [
            (1, true),
            (3, false),
            (7, true),
            (1 << 30, true),
            (1 << 30, false),
        ];
        for rules in variants {
            let engine = Engine::new(Arc::new(rules));
            let mut rng = PyRandom::from_seed(5);
            for seed in 0..12 {
                let mut s = deal(&engine.rules, seed);
                while !s.is_terminal() {
                    for (limit, turns) in budgets {
                        check_run(&engine, &s, limit, turns);
                    }
                    let moves = engine.legal_moves(&s).expect("every hand known");
                    s = engine.apply(&s, &moves[rng.randrange(moves.len())]);
                }
            }
        }
    }
}
