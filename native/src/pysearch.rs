//! The searches of `analyzer._native`: a solver and a lookahead that keep their tables between
//! calls, IS-MCTS, sampling, playouts and equilibrium endgames.  Each releases the GIL while it searches and polls the
//! caller's `stop` (and Python's signals, so Ctrl-C is seen) as the Python searches do.
//!
//! Random draws use the caller's `random.Random` state (`getstate()[1]` in, the new state out),
//! so a search continues the caller's stream exactly as the Python search would.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::core::legal::Engine;
use crate::core::moves::Move;
use crate::core::offers::Phase;
use crate::core::rules::MAX_PLAYERS;
use crate::core::state::State;
use crate::pydata::{
    give_engine, guard, move_data, move_of, rules_of, state_data, state_of, take_engine,
    with_engine, MoveData, RulesData, StateData,
};
use crate::rng::PyRandom;
use crate::search::equilibrium::{self as endgame, BuildStop, Prior};
use crate::search::evaluation::{Evaluator, Fitted, Leaf};
use crate::search::exact::{Asked, SolveResult, Solver};
use crate::search::lookahead::{Lookahead, LookaheadResult, Options as LookOptions};
use crate::search::mcts::{self, Hooks};
use crate::search::outcome::{Outcome, Poll};
use crate::search::playout::play_counted;
use crate::search::sampling::{
    declined_pairs, sample_deal as native_sample_deal, sample_world as native_sample_world, Weights,
};

/// A generator's state as `random.Random.getstate()[1]` gives it: 624 words, then the position.
pub type RngState = Vec<u32>;

fn rng_of(state: &RngState) -> PyResult<PyRandom> {
    match state.split_last() {
        Some((&index, words)) => PyRandom::from_state(words, index as usize)
            .ok_or_else(|| PyValueError::new_err("not a Mersenne Twister state")),
        None => Err(PyValueError::new_err("not a Mersenne Twister state")),
    }
}

fn rng_data(rng: &PyRandom) -> RngState {
    let (mut words, index) = rng.state();
    words.push(index as u32);
    words
}

/// The caller's `stop` and `progress`, polled with the GIL taken back; Python's signal handlers
/// run at each poll (so a Ctrl-C handler sets its flag, or raises, during a native search).
pub struct PyHooks {
    stop: Option<Py<PyAny>>,
    progress: Option<Py<PyAny>>,
    /// An exception raised by a callback or a signal handler, re-raised after the search.
    pub error: Option<PyErr>,
}

impl PyHooks {
    pub fn new(stop: Option<Py<PyAny>>, progress: Option<Py<PyAny>>) -> Self {
        PyHooks {
            stop,
            progress,
            error: None,
        }
    }

    /// The search's answer, or the exception a callback raised.
    pub fn finish<T>(self, value: T) -> PyResult<T> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(value),
        }
    }
}

impl Poll for PyHooks {
    fn stop(&mut self) -> bool {
        if self.error.is_some() {
            return true;
        }
        Python::attach(|py| {
            if let Err(e) = py.check_signals() {
                self.error = Some(e);
                return true;
            }
            match &self.stop {
                None => false,
                Some(f) => match f.bind(py).call0().and_then(|v| v.is_truthy()) {
                    Ok(v) => v,
                    Err(e) => {
                        self.error = Some(e);
                        true
                    }
                },
            }
        })
    }
}

impl Hooks for PyHooks {
    fn progress(&mut self, done: usize, total: usize) {
        if self.error.is_some() {
            return;
        }
        if let Some(f) = &self.progress {
            Python::attach(|py| {
                if let Err(e) = f.bind(py).call1((done, total)) {
                    self.error = Some(e);
                }
            });
        }
    }
}

/// A fitted model, made once from its layers (`FittedEvaluator`).
#[pyclass(module = "analyzer._native", frozen)]
pub struct NativeModel {
    model: Arc<Fitted>,
}

#[pymethods]
impl NativeModel {
    #[new]
    fn new(players: usize, layers: Vec<(Vec<Vec<f64>>, Vec<f64>)>) -> PyResult<Self> {
        Fitted::new(players, layers)
            .map(|m| NativeModel { model: Arc::new(m) })
            .map_err(PyValueError::new_err)
    }
}

/// A leaf as Python names it: `"melded"`, `"fitted"` (with its model) or `"rollout"` (with its
/// playouts and generator state).
fn leaf_of(
    kind: &str,
    model: Option<&NativeModel>,
    playouts: usize,
    rng: Option<&RngState>,
) -> PyResult<Leaf> {
    match kind {
        "melded" => Ok(Leaf::Melded),
        "fitted" => match model {
            Some(m) => Ok(Leaf::Fitted(Arc::clone(&m.model))),
            None => Err(PyValueError::new_err("a fitted leaf needs its model")),
        },
        "rollout" => match rng {
            Some(state) if playouts >= 1 => Ok(Leaf::Rollout {
                playouts,
                rng: rng_of(state)?,
            }),
            _ => Err(PyValueError::new_err(
                "a rollout leaf needs playouts and a generator",
            )),
        },
        other => Err(PyValueError::new_err(format!("no leaf {other:?}"))),
    }
}

fn leaf_rng(eval: &Evaluator) -> Option<RngState> {
    match &eval.leaf {
        Leaf::Rollout { rng, .. } => Some(rng_data(rng)),
        _ => None,
    }
}

fn outcome_data(o: &Outcome) -> Vec<f64> {
    o.as_slice().to_vec()
}

/// The plain answer of a solve.
type SolveData = (
    Vec<f64>,
    Option<u8>,
    Vec<f64>,
    Vec<MoveData>,
    i64,
    bool,
    f64,
    &'static str,
    Option<&'static str>,
    f64,
    f64,
);

fn solve_data(engine: &Engine, r: &SolveResult) -> SolveData {
    (
        outcome_data(&r.outcome),
        r.winner,
        r.values.clone(),
        r.pv.iter().map(|m| move_data(&engine.rules, m)).collect(),
        r.nodes,
        r.proven,
        r.seconds,
        r.mode.name(),
        r.stopped_by.map(|s| s.name()),
        r.lower,
        r.upper,
    )
}

/// The exact solver with its tables (`analyzer.search.exact.Solver`).
#[pyclass(module = "analyzer._native")]
pub struct NativeSolver {
    rules: RulesData,
    solver: Solver,
}

#[pymethods]
impl NativeSolver {
    #[new]
    fn new(rules: RulesData, mode: &str, max_nodes: i64, time_limit: f64) -> PyResult<Self> {
        let asked = match mode {
            "auto" => Asked::Auto,
            "maxn" => Asked::Maxn,
            "paranoid" => Asked::Paranoid,
            "minimax" => Asked::Minimax,
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown search mode: {other:?}"
                )))
            }
        };
        give_engine(rules, take_engine(rules)?); // checks the rules, warms the pool
        Ok(NativeSolver {
            rules,
            solver: Solver::new(asked, max_nodes, time_limit),
        })
    }

    /// Entries in the transposition tables.
    #[getter]
    fn entries(&self) -> usize {
        self.solver.entries()
    }

    /// Solve `state` (every hand known) for `player`; `leaf` scores the positions where the
    /// budget runs out.  Returns the answer and the rollout generator's state (if any).
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (state, player, max_nodes, time_limit, leaf, model=None, playouts=1, rng=None, stop=None, table_cap=None))]
    fn solve(
        &mut self,
        py: Python<'_>,
        state: StateData,
        player: Option<usize>,
        max_nodes: i64,
        time_limit: f64,
        leaf: &str,
        model: Option<PyRef<'_, NativeModel>>,
        playouts: usize,
        rng: Option<RngState>,
        stop: Option<Py<PyAny>>,
        table_cap: Option<usize>,
    ) -> PyResult<(SolveData, Option<RngState>)> {
        guard(|| {
            let mut engine = take_engine(self.rules)?;
            let s = state_of(&engine.rules, &state)?;
            if s.any_hidden() {
                give_engine(self.rules, engine);
                return Err(PyValueError::new_err("solving needs every hand"));
            }
            let mut eval = Evaluator::new(leaf_of(leaf, model.as_deref(), playouts, rng.as_ref())?);
            self.solver.max_nodes = max_nodes;
            self.solver.time_limit = time_limit;
            if let Some(cap) = table_cap {
                self.solver.table_cap = cap;
            }
            let mut hooks = PyHooks::new(stop, None);
            let solver = &mut self.solver;
            let (engine_ref, eval_ref, hooks_ref, s_ref) = (&mut engine, &mut eval, &mut hooks, &s);
            let found =
                py.detach(move || solver.solve(engine_ref, eval_ref, s_ref, player, hooks_ref));
            let data = solve_data(&engine, &found);
            give_engine(self.rules, engine);
            hooks.finish((data, leaf_rng(&eval)))
        })
    }
}

/// The lookahead with its history table (`analyzer.search.lookahead.Lookahead`).
#[pyclass(module = "analyzer._native")]
pub struct NativeLookahead {
    rules: RulesData,
    look: Lookahead,
}

type LookaheadData = (Vec<Vec<f64>>, i32, bool, i64, Option<&'static str>);

fn lookahead_data(r: &LookaheadResult) -> LookaheadData {
    (
        r.outcomes.iter().map(outcome_data).collect(),
        r.depth,
        r.exact,
        r.nodes,
        r.stopped_by.map(|s| s.name()),
    )
}

#[pymethods]
impl NativeLookahead {
    #[new]
    fn new(rules: RulesData) -> PyResult<Self> {
        let opts = LookOptions {
            maxn: false,
            max_nodes: 1,
            time_limit: 1.0,
            max_depth: 0,
            spread: 1,
            policy: false,
        };
        give_engine(rules, take_engine(rules)?); // checks the rules, warms the pool
        Ok(NativeLookahead {
            rules,
            look: Lookahead::new(opts),
        })
    }

    /// Positions evaluated by the leaf so far, every call together.
    #[getter]
    fn leaves(&self) -> i64 {
        self.look.leaves
    }

    /// The outcome vector of each of `moves` in `state` (every hand known).
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (state, moves, maxn, max_nodes, time_limit, max_depth, spread, policy, leaf, model=None, playouts=1, rng=None, stop=None))]
    fn values(
        &mut self,
        py: Python<'_>,
        state: StateData,
        moves: Vec<MoveData>,
        maxn: bool,
        max_nodes: i64,
        time_limit: f64,
        max_depth: i32,
        spread: usize,
        policy: bool,
        leaf: &str,
        model: Option<PyRef<'_, NativeModel>>,
        playouts: usize,
        rng: Option<RngState>,
        stop: Option<Py<PyAny>>,
    ) -> PyResult<(LookaheadData, Option<RngState>)> {
        guard(|| {
            let mut engine = take_engine(self.rules)?;
            let rules = Arc::clone(&engine.rules);
            let s = state_of(&rules, &state)?;
            if s.any_hidden() {
                return Err(PyValueError::new_err("the lookahead needs every hand"));
            }
            let moves: Vec<Move> = moves
                .iter()
                .map(|m| move_of(&rules, m))
                .collect::<PyResult<_>>()?;
            let mut eval = Evaluator::new(leaf_of(leaf, model.as_deref(), playouts, rng.as_ref())?);
            self.look.opts = LookOptions {
                maxn,
                max_nodes,
                time_limit,
                max_depth,
                spread: spread.max(1),
                policy,
            };
            let mut hooks = PyHooks::new(stop, None);
            let look = &mut self.look;
            let (engine_ref, eval_ref, hooks_ref, s_ref, moves_ref) =
                (&mut engine, &mut eval, &mut hooks, &s, &moves);
            let found =
                py.detach(move || look.values(engine_ref, eval_ref, s_ref, moves_ref, hooks_ref));
            give_engine(self.rules, engine);
            hooks.finish((lookahead_data(&found), leaf_rng(&eval)))
        })
    }
}

fn weights_of(weights: Option<Vec<Option<Vec<f64>>>>) -> PyResult<Option<Weights>> {
    let Some(list) = weights else { return Ok(None) };
    let mut out: Weights = Default::default();
    for (p, w) in list.into_iter().enumerate().take(MAX_PLAYERS) {
        if let Some(w) = &w {
            if w.len() != 40 || w.iter().any(|x| !(x.is_finite() && *x > 0.0)) {
                return Err(PyValueError::new_err("card weights are 40 numbers above 0"));
            }
        }
        out[p] = w;
    }
    Ok(Some(out))
}

/// One consistent deal of `view`'s hidden cards for `player` (`sample_deal`, or `sample_world`
/// with `world`), and the generator's state after it.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (rules, view, player, rng, infer=false, weights=None, world=false, ordered=false))]
pub fn sample(
    rules: RulesData,
    view: StateData,
    player: usize,
    rng: RngState,
    infer: bool,
    weights: Option<Vec<Option<Vec<f64>>>>,
    world: bool,
    ordered: bool,
) -> PyResult<(StateData, RngState)> {
    guard(|| {
        with_engine(rules, |engine| {
            let s = state_of(&engine.rules, &view)?;
            if player >= engine.players() || s.is_hidden(player) {
                return Err(PyValueError::new_err(
                    "the sampling player's hand must be known",
                ));
            }
            let mut r = rng_of(&rng)?;
            let pairs = if infer {
                Some(declined_pairs(engine, &s, player))
            } else {
                None
            };
            let weights = weights_of(weights.clone())?;
            let found = if world {
                native_sample_world(
                    engine,
                    &s,
                    player,
                    &mut r,
                    pairs.as_ref(),
                    ordered,
                    weights.as_ref(),
                )
            } else {
                native_sample_deal(engine, &s, player, &mut r, pairs.as_ref(), weights.as_ref())
            };
            let deal = found.map_err(|e| PyValueError::new_err(e.0))?;
            Ok((state_data(&engine.rules, &deal), rng_data(&r)))
        })
    })
}

/// `count` playouts of `state` to its end, one after the other from one generator (each
/// `playout_outcome`): their outcomes, the generator's state and the moves played in all.
#[pyfunction]
#[pyo3(signature = (rules, state, eager, rng, quiet=-1, count=1))]
pub fn playout(
    py: Python<'_>,
    rules: RulesData,
    state: StateData,
    eager: bool,
    rng: RngState,
    quiet: i32,
    count: usize,
) -> PyResult<(Vec<Vec<f64>>, RngState, u64)> {
    guard(|| {
        let mut engine = take_engine(rules)?;
        let s = state_of(&engine.rules, &state)?;
        if s.any_hidden() {
            give_engine(rules, engine);
            return Err(PyValueError::new_err("a playout needs every hand"));
        }
        let mut r = rng_of(&rng)?;
        let (r_ref, engine_ref) = (&mut r, &mut engine);
        let s_ref = &s;
        let mut run = move || {
            let mut plies = 0;
            let found: Vec<Outcome> = (0..count)
                .map(|_| {
                    let (end, n) = play_counted(engine_ref, s_ref, eager, r_ref, quiet);
                    plies += n;
                    Outcome::of_end(&end, engine_ref.players())
                })
                .collect();
            (found, plies)
        };
        let (found, plies) = if count > 8 { py.detach(run) } else { run() };
        give_engine(rules, engine);
        Ok((
            found.iter().map(outcome_data).collect(),
            rng_data(&r),
            plies,
        ))
    })
}

type StatsData = (MoveData, u64, f64, f64, f64);
type MctsData = (Vec<StatsData>, usize, f64, bool, f64, f64);

/// IS-MCTS from `view` (`mcts.search`); the options are checked in Python.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (rules, view, root_moves, iterations, rng, c, model=None, infer=false, halving=false, policy=false, nomeld=false, time_limit=None, weights=None, stop=None, progress=None))]
pub fn mcts_search(
    py: Python<'_>,
    rules: RulesData,
    view: StateData,
    root_moves: Vec<MoveData>,
    iterations: usize,
    rng: RngState,
    c: f64,
    model: Option<PyRef<'_, NativeModel>>,
    infer: bool,
    halving: bool,
    policy: bool,
    nomeld: bool,
    time_limit: Option<f64>,
    weights: Option<Vec<Option<Vec<f64>>>>,
    stop: Option<Py<PyAny>>,
    progress: Option<Py<PyAny>>,
) -> PyResult<(MctsData, RngState)> {
    let rules_data = rules;
    guard(|| {
        let rules = rules_of(rules_data)?;
        let s = state_of(&rules, &view)?;
        let roots: Vec<Move> = root_moves
            .iter()
            .map(|m| move_of(&rules, m))
            .collect::<PyResult<_>>()?;
        let weights = weights_of(weights)?;
        let mut r = rng_of(&rng)?;
        let opts = mcts::Options {
            iterations,
            c,
            model: model.as_ref().map(|m| Arc::clone(&m.model)),
            infer,
            halving,
            policy,
            nomeld,
            time_limit,
        };
        let mut hooks = PyHooks::new(stop, progress);
        let mut engine = take_engine(rules_data)?;
        let (engine_ref, r_ref, hooks_ref, s_ref, roots_ref, opts_ref, weights_ref) = (
            &mut engine,
            &mut r,
            &mut hooks,
            &s,
            &roots,
            &opts,
            weights.as_ref(),
        );
        let found = py.detach(move || {
            mcts::search(
                engine_ref,
                s_ref,
                roots_ref,
                opts_ref,
                r_ref,
                weights_ref,
                hooks_ref,
            )
        });
        give_engine(rules_data, engine);
        let found = found.map_err(|e| PyValueError::new_err(e.0))?;
        let data: MctsData = (
            found
                .moves
                .iter()
                .map(|m| (move_data(&rules, &m.mv), m.visits, m.value, m.win, m.draw))
                .collect(),
            found.iterations,
            found.seconds,
            found.interrupted,
            found.depth,
            found.ended,
        );
        hooks.finish((data, rng_data(&r)))
    })
}

/// The feature vector of a position (`analyzer.search.evaluation.features`), for the tests.
#[pyfunction]
pub fn features(rules: RulesData, state: StateData) -> PyResult<Vec<f64>> {
    guard(|| {
        with_engine(rules, |engine| {
            let s = state_of(&engine.rules, &state)?;
            if s.any_hidden() || s.is_terminal() {
                return Err(PyValueError::new_err(
                    "the evaluation needs every hand, and a deal not over",
                ));
            }
            let eval = Evaluator::new(Leaf::Melded);
            let (blocks, global) = eval.feature_blocks(engine, &s);
            let mut out: Vec<f64> = blocks.iter().flat_map(|b| b.iter().copied()).collect();
            out.extend(global);
            Ok(out)
        })
    })
}

/// A leaf's outcome vector of one position (for the tests of the evaluations).
#[pyfunction]
#[pyo3(signature = (rules, state, leaf, model=None, playouts=1, rng=None))]
pub fn evaluate(
    rules: RulesData,
    state: StateData,
    leaf: &str,
    model: Option<PyRef<'_, NativeModel>>,
    playouts: usize,
    rng: Option<RngState>,
) -> PyResult<(Vec<f64>, Option<RngState>)> {
    guard(|| {
        with_engine(rules, |engine| {
            let s = state_of(&engine.rules, &state)?;
            let mut eval = Evaluator::new(leaf_of(leaf, model.as_deref(), playouts, rng.as_ref())?);
            let o = eval.evaluate(engine, &s);
            Ok((outcome_data(&o), leaf_rng(&eval)))
        })
    })
}

/// The prior of an endgame's deal: per player, 40 card weights (finite, at least 0) or `None`.
fn prior_of(prior: Option<Vec<Option<Vec<f64>>>>) -> PyResult<Option<Prior>> {
    let Some(list) = prior else { return Ok(None) };
    if list.len() != 2 {
        return Err(PyValueError::new_err(
            "an endgame's prior has one entry per player (two)",
        ));
    }
    let mut out: Prior = Default::default();
    for (p, w) in list.into_iter().enumerate() {
        if let Some(w) = &w {
            if w.len() != 40 || w.iter().any(|x| !(x.is_finite() && *x >= 0.0)) {
                return Err(PyValueError::new_err(
                    "card weights are 40 numbers of at least 0",
                ));
            }
        }
        out[p] = w;
    }
    Ok(Some(out))
}

/// The view of an endgame, checked: two players, after the exchange, a move to choose, the
/// hand of the player to act known (the Python caller checks the same first, in its words).
fn endgame_view(engine: &Engine, view: &StateData) -> PyResult<State> {
    let s = state_of(&engine.rules, view)?;
    if engine.players() != 2 {
        return Err(PyValueError::new_err(
            "equilibrium endgames are for two players",
        ));
    }
    if matches!(s.phase, Phase::Exchange | Phase::Over) || s.is_hidden(s.to_act as usize) {
        return Err(PyValueError::new_err(
            "an endgame starts after the exchange, at a move of a known hand",
        ));
    }
    Ok(s)
}

/// A pooled engine for `rules`, the checked view of an endgame ([`endgame_view`]) and its
/// prior ([`prior_of`]); when either is refused the engine goes back to the pool.
fn endgame_input(
    rules: RulesData,
    view: &StateData,
    prior: Option<Vec<Option<Vec<f64>>>>,
) -> PyResult<(Box<Engine>, State, Option<Prior>)> {
    let engine = take_engine(rules)?;
    match endgame_view(&engine, view).and_then(|s| Ok((s, prior_of(prior)?))) {
        Ok((s, prior)) => Ok((engine, s, prior)),
        Err(e) => {
            give_engine(rules, engine);
            Err(e)
        }
    }
}

/// Why a tree was not built, as Python names it: `"positions"` (the budget) or `"interrupted"`.
fn build_stop(stop: BuildStop) -> PyResult<&'static str> {
    match stop {
        BuildStop::TooLarge => Ok("positions"),
        BuildStop::Interrupted => Ok("interrupted"),
        BuildStop::Position(text) => Err(PyValueError::new_err(text)),
    }
}

/// Positions, information sets and root deals of a tree.
type SizeData = (usize, usize, usize);
/// Per information set (player, hand as dealt, public moves), the deals (hand 0, hand 1,
/// probability), and per information set its parent sequence and first sequence.
type KeysData = (
    Vec<(u8, u64, Vec<MoveData>)>,
    Vec<(u64, u64, f64)>,
    Vec<u32>,
    Vec<u32>,
);

/// The tree of the endgame of `view` (`analyzer.search.equilibrium.build_endgame`): why it
/// was not built (`"positions"`, `"interrupted"`, else `None`), its size and, with `keys`, its
/// information sets and deals in the order built.
#[pyfunction]
#[pyo3(signature = (rules, view, max_nodes, prior=None, stop=None, keys=false))]
pub fn equilibrium_tree(
    py: Python<'_>,
    rules: RulesData,
    view: StateData,
    max_nodes: usize,
    prior: Option<Vec<Option<Vec<f64>>>>,
    stop: Option<Py<PyAny>>,
    keys: bool,
) -> PyResult<(Option<&'static str>, SizeData, Option<KeysData>)> {
    guard(|| {
        let (mut engine, s, prior) = endgame_input(rules, &view, prior)?;
        let mut hooks = PyHooks::new(stop, None);
        let (engine_ref, hooks_ref, s_ref, prior_ref) =
            (&mut engine, &mut hooks, &s, prior.as_ref());
        let built = py.detach(move || {
            endgame::build(engine_ref, s_ref, prior_ref, max_nodes, hooks_ref, keys)
        });
        let found = match built {
            Err(stop) => build_stop(stop).map(|why| (Some(why), (0, 0, 0), None)),
            Ok(tree) => {
                let data = keys.then(|| {
                    let infosets = (0..tree.infosets())
                        .map(|k| {
                            let (a, b) = (tree.act_base[k] as usize, tree.act_base[k + 1] as usize);
                            debug_assert!(a < b);
                            let history = &tree.history_moves[k];
                            (
                                tree.owner[k],
                                tree.hand[k].bits(),
                                history
                                    .iter()
                                    .map(|m| move_data(&engine.rules, m))
                                    .collect(),
                            )
                        })
                        .collect();
                    let deals = tree
                        .deal_hands
                        .iter()
                        .zip(&tree.deal_prob)
                        .map(|(h, &p)| (h[0].bits(), h[1].bits(), p))
                        .collect();
                    (
                        infosets,
                        deals,
                        tree.parent_seq.clone(),
                        tree.seq_base.clone(),
                    )
                });
                Ok((
                    None,
                    (tree.nodes(), tree.infosets(), tree.deal_prob.len()),
                    data,
                ))
            }
        };
        give_engine(rules, engine);
        hooks.finish(())?;
        found
    })
}

/// The answer of an equilibrium: player, moves, strategy, move values, value, exploitability,
/// game value, iterations, why it stopped short (`None`: the tolerance was reached) and, when
/// asked, every information set's average strategy.
type EquilibriumData = (
    usize,
    Vec<MoveData>,
    Vec<f64>,
    Vec<f64>,
    f64,
    f64,
    f64,
    u64,
    Option<&'static str>,
    Option<Vec<Vec<f64>>>,
);

/// The equilibrium of the endgame of `view` for its player to act by CFR+
/// (`analyzer.search.cfr.solve_cfr` on `build_endgame`'s tree): the answer, or `None` with why
/// (`"positions"`, `"interrupted"` while building, `"small"` for a tree of at most `lp_below`
/// positions, left to the linear program), and the tree's size.  Position errors are
/// ValueErrors.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (rules, view, max_nodes, tolerance, max_iterations, time_limit=None, prior=None, stop=None, lp_below=0, every=false))]
pub fn equilibrium(
    py: Python<'_>,
    rules: RulesData,
    view: StateData,
    max_nodes: usize,
    tolerance: f64,
    max_iterations: u64,
    time_limit: Option<f64>,
    prior: Option<Vec<Option<Vec<f64>>>>,
    stop: Option<Py<PyAny>>,
    lp_below: usize,
    every: bool,
) -> PyResult<(Option<EquilibriumData>, Option<&'static str>, SizeData)> {
    guard(|| {
        let below_0 = |x: f64| x.is_nan() || x < 0.0;
        if below_0(tolerance) || max_iterations == 0 || time_limit.is_some_and(below_0) {
            return Err(PyValueError::new_err(
                "a tolerance of at least 0, at least one iteration, seconds of at least 0",
            ));
        }
        let (mut engine, s, prior) = endgame_input(rules, &view, prior)?;
        let opts = endgame::Options {
            tolerance,
            max_iterations,
            time_limit,
        };
        let mut hooks = PyHooks::new(stop, None);
        let (engine_ref, hooks_ref, s_ref, prior_ref) =
            (&mut engine, &mut hooks, &s, prior.as_ref());
        let found = py.detach(move || {
            let tree = endgame::build(engine_ref, s_ref, prior_ref, max_nodes, hooks_ref, false)?;
            let size = (tree.nodes(), tree.infosets(), tree.deal_prob.len());
            if size.0 <= lp_below {
                return Ok((None, size));
            }
            let answer = endgame::solve(engine_ref, s_ref, &tree, &opts, every, hooks_ref);
            Ok((Some(answer), size))
        });
        let out = match found {
            Err(stop) => build_stop(stop).map(|why| (None, Some(why), (0, 0, 0))),
            Ok((None, size)) => Ok((None, Some("small"), size)),
            Ok((Some(Err(text)), _)) => Err(PyValueError::new_err(text)),
            Ok((Some(Ok(a)), size)) => {
                let moves = a
                    .moves
                    .iter()
                    .map(|m| move_data(&engine.rules, m))
                    .collect();
                let data: EquilibriumData = (
                    a.player,
                    moves,
                    a.strategy,
                    a.move_values,
                    a.value,
                    a.exploitability,
                    a.game_value,
                    a.iterations,
                    a.stopped_by,
                    a.every,
                );
                Ok((Some(data), None, size))
            }
        };
        give_engine(rules, engine);
        hooks.finish(())?;
        out
    })
}

/// Register the searches in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NativeModel>()?;
    m.add_class::<NativeSolver>()?;
    m.add_class::<NativeLookahead>()?;
    m.add_function(wrap_pyfunction!(sample, m)?)?;
    m.add_function(wrap_pyfunction!(playout, m)?)?;
    m.add_function(wrap_pyfunction!(mcts_search, m)?)?;
    m.add_function(wrap_pyfunction!(features, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(equilibrium_tree, m)?)?;
    m.add_function(wrap_pyfunction!(equilibrium, m)?)?;
    Ok(())
}
