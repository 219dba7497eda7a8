//! Outcomes of a deal (R20): probabilities of each player winning, then of a draw; and the
//! budget every search shares (positions, seconds, a stop request), as Python's searches count it.

use std::time::Instant;

use crate::core::rules::MAX_PLAYERS;
use crate::core::state::State;

/// Probabilities (player 0 wins, ..., player n-1 wins, draw); `len` is players + 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub len: u8,
    pub v: [f64; MAX_PLAYERS + 1],
}

impl Outcome {
    pub fn zeros(players: usize) -> Self {
        Outcome {
            len: players as u8 + 1,
            v: [0.0; MAX_PLAYERS + 1],
        }
    }

    #[inline]
    pub fn players(&self) -> usize {
        self.len as usize - 1
    }

    #[inline]
    pub fn as_slice(&self) -> &[f64] {
        &self.v[..self.len as usize]
    }

    /// The outcome of a finished deal: 1.0 for its winner, or for the draw.
    pub fn of_end(s: &State, players: usize) -> Self {
        let mut o = Outcome::zeros(players);
        o.v[s.winner.map_or(players, usize::from)] = 1.0;
        o
    }

    /// Expected result of `player` (R20): win +1, draw 0, another player's win -1, summed left to
    /// right from 0 as Python's `utility` does.
    #[inline]
    pub fn utility(&self, player: usize) -> f64 {
        let n = self.players();
        let mut others = 0.0;
        for p in 0..n {
            if p != player {
                others += self.v[p];
            }
        }
        self.v[player] - others
    }
}

/// Why a search stopped before proving its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Positions,
    Time,
    Interrupted,
}

impl Stop {
    pub fn name(self) -> &'static str {
        match self {
            Stop::Positions => "positions",
            Stop::Time => "time",
            Stop::Interrupted => "interrupted",
        }
    }
}

/// A request to stop polled by long searches: the caller's `stop` (Ctrl-C) and its signals.
pub trait Poll {
    /// True when the search should end now with the best answer so far.
    fn stop(&mut self) -> bool;
}

/// No stop request: only the budgets end a search.
pub struct Never;

impl Poll for Never {
    fn stop(&mut self) -> bool {
        false
    }
}

/// The clock of a search: seconds since it started, and whether its deadline passed.
#[derive(Clone, Copy)]
pub struct Clock {
    start: Instant,
    limit: f64,
}

impl Clock {
    pub fn new(limit: f64) -> Self {
        Clock {
            start: Instant::now(),
            limit,
        }
    }

    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    pub fn past(&self) -> bool {
        self.elapsed() > self.limit
    }
}
