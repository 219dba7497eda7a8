//! The searches of `analyzer._native`: a solver and a lookahead that keep their tables between
//! calls, IS-MCTS, sampling, playouts and equilibrium endgames.  Each releases the GIL while it searches and polls the
//! caller's `stop` (and Python's signals, so Ctrl-C is seen) as the Python searches do.
//!
//! Random draws use the caller's `random.Random` state (`getstate()[1]` in, the new state out),
//! so a search continues the caller's stream exactly as the Python search would.
//!
//! Each search takes its options as one named structure (a dict with fixed keys: [`SolveOptions`],
//! [`LookaheadOptions`], [`MctsOptions`], ...) and answers with one ([`SolveData`],
//! [`MctsData`], ...), so that a missing or misnamed field is an error naming it; the Python
//! side builds and reads them in `analyzer.search.native` and the searches' modules.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::core::legal::Engine;
use crate::core::moves::Move;
use crate::core::offers::Phase;
use crate::core::rules::MAX_PLAYERS;
use crate::core::state::State;
use crate::pydata::{
    give_engine, guard, move_data, move_of, state_data, state_of, take_engine, with_engine,
    MoveData, NativeRules, StateData,
};
use crate::rng::PyRandom;
use crate::search::equilibrium::{self as endgame, BuildStop, Prior};
use crate::search::evaluation::{Evaluator, Fitted, Leaf};
use crate::search::exact::{Asked, SolveResult, Solver};
use crate::search::lookahead::{Lookahead, Options as LookOptions};
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

/// A leaf evaluation as Python names it (`analyzer.search.native.leaf_args`): `kind` is
/// `"melded"`, `"fitted"` (with its `model`) or `"rollout"` (with its `playouts` and the
/// generator state `rng`).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct LeafSpec {
    pub kind: String,
    pub model: Option<Py<NativeModel>>,
    pub playouts: usize,
    pub rng: Option<RngState>,
}

fn leaf_of(spec: &LeafSpec) -> PyResult<Leaf> {
    match spec.kind.as_str() {
        "melded" => Ok(Leaf::Melded),
        "fitted" => match &spec.model {
            Some(m) => Ok(Leaf::Fitted(Arc::clone(&m.get().model))),
            None => Err(PyValueError::new_err("a fitted leaf needs its model")),
        },
        "rollout" => match &spec.rng {
            Some(state) if spec.playouts >= 1 => Ok(Leaf::Rollout {
                playouts: spec.playouts,
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

/// The answer of a solve (`analyzer.search.exact.SearchResult`), and the rollout leaf's
/// generator state after it (`None` for the other leaves).
#[derive(IntoPyObject)]
pub struct SolveData {
    pub outcome: Vec<f64>,
    pub winner: Option<u8>,
    pub values: Vec<f64>,
    pub pv: Vec<MoveData>,
    pub nodes: i64,
    pub proven: bool,
    pub seconds: f64,
    pub mode: &'static str,
    pub stopped_by: Option<&'static str>,
    pub lower: f64,
    pub upper: f64,
    pub rng: Option<RngState>,
}

fn solve_data(engine: &Engine, r: &SolveResult, rng: Option<RngState>) -> SolveData {
    SolveData {
        outcome: outcome_data(&r.outcome),
        winner: r.winner,
        values: r.values.clone(),
        pv: r.pv.iter().map(|m| move_data(&engine.rules, m)).collect(),
        nodes: r.nodes,
        proven: r.proven,
        seconds: r.seconds,
        mode: r.mode.name(),
        stopped_by: r.stopped_by.map(|s| s.name()),
        lower: r.lower,
        upper: r.upper,
        rng,
    }
}

/// The options of one solve: the `player` to solve for (`None`: every player), the budget
/// (`max_nodes`, `time_limit` in seconds), the transposition tables' `table_cap` (`None`: keep
/// the solver's), the `leaf` that scores the positions where the budget runs out, and `stop`.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct SolveOptions {
    pub player: Option<usize>,
    pub max_nodes: i64,
    pub time_limit: f64,
    pub table_cap: Option<usize>,
    pub leaf: LeafSpec,
    pub stop: Option<Py<PyAny>>,
}

/// The exact solver with its tables (`analyzer.search.exact.Solver`).
#[pyclass(module = "analyzer._native")]
pub struct NativeSolver {
    rules: NativeRules,
    solver: Solver,
}

#[pymethods]
impl NativeSolver {
    #[new]
    fn new(
        rules: PyRef<'_, NativeRules>,
        mode: &str,
        max_nodes: i64,
        time_limit: f64,
    ) -> PyResult<Self> {
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
        give_engine(&rules, take_engine(&rules)); // warms the pool
        Ok(NativeSolver {
            rules: rules.clone(),
            solver: Solver::new(asked, max_nodes, time_limit),
        })
    }

    /// Entries in the transposition tables.
    #[getter]
    fn entries(&self) -> usize {
        self.solver.entries()
    }

    /// Solve `state` (every hand known) with `options` ([`SolveOptions`]).
    fn solve(
        &mut self,
        py: Python<'_>,
        state: StateData,
        options: SolveOptions,
    ) -> PyResult<SolveData> {
        guard(|| {
            let mut engine = take_engine(&self.rules);
            let s = state_of(&engine.rules, &state)?;
            if s.any_hidden() {
                give_engine(&self.rules, engine);
                return Err(PyValueError::new_err("solving needs every hand"));
            }
            let mut eval = Evaluator::new(leaf_of(&options.leaf)?);
            self.solver.max_nodes = options.max_nodes;
            self.solver.time_limit = options.time_limit;
            if let Some(cap) = options.table_cap {
                self.solver.table_cap = cap;
            }
            let player = options.player;
            let mut hooks = PyHooks::new(options.stop, None);
            let solver = &mut self.solver;
            let (engine_ref, eval_ref, hooks_ref, s_ref) = (&mut engine, &mut eval, &mut hooks, &s);
            let found =
                py.detach(move || solver.solve(engine_ref, eval_ref, s_ref, player, hooks_ref));
            let data = solve_data(&engine, &found, leaf_rng(&eval));
            give_engine(&self.rules, engine);
            hooks.finish(data)
        })
    }
}

/// The lookahead with its history table (`analyzer.search.lookahead.Lookahead`).
#[pyclass(module = "analyzer._native")]
pub struct NativeLookahead {
    rules: NativeRules,
    look: Lookahead,
}

/// The answer of a lookahead (`analyzer.search.lookahead.LookaheadResult`): each move's outcome
/// vector, and the rollout leaf's generator state after it.
#[derive(IntoPyObject)]
pub struct LookaheadData {
    pub outcomes: Vec<Vec<f64>>,
    pub depth: i32,
    pub exact: bool,
    pub nodes: i64,
    pub stopped_by: Option<&'static str>,
    pub rng: Option<RngState>,
}

/// The options of one lookahead call, as `analyzer.search.lookahead.Lookahead` holds them:
/// `maxn` (else alpha-beta for the player to act), the budget (`max_nodes`, `time_limit` in
/// seconds, `max_depth`), the stock orders of `spread`, `policy` opponents, the `leaf`, `stop`.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct LookaheadOptions {
    pub maxn: bool,
    pub max_nodes: i64,
    pub time_limit: f64,
    pub max_depth: i32,
    pub spread: usize,
    pub policy: bool,
    pub leaf: LeafSpec,
    pub stop: Option<Py<PyAny>>,
}

#[pymethods]
impl NativeLookahead {
    #[new]
    fn new(rules: PyRef<'_, NativeRules>) -> Self {
        let opts = LookOptions {
            maxn: false,
            max_nodes: 1,
            time_limit: 1.0,
            max_depth: 0,
            spread: 1,
            policy: false,
        };
        give_engine(&rules, take_engine(&rules)); // warms the pool
        NativeLookahead {
            rules: rules.clone(),
            look: Lookahead::new(opts),
        }
    }

    /// Positions evaluated by the leaf so far, every call together.
    #[getter]
    fn leaves(&self) -> i64 {
        self.look.leaves
    }

    /// The outcome vector of each of `moves` in `state` (every hand known).
    fn values(
        &mut self,
        py: Python<'_>,
        state: StateData,
        moves: Vec<MoveData>,
        options: LookaheadOptions,
    ) -> PyResult<LookaheadData> {
        guard(|| {
            let mut engine = take_engine(&self.rules);
            let rules = Arc::clone(&engine.rules);
            let s = state_of(&rules, &state)?;
            if s.any_hidden() {
                return Err(PyValueError::new_err("the lookahead needs every hand"));
            }
            let moves: Vec<Move> = moves
                .iter()
                .map(|m| move_of(&rules, m))
                .collect::<PyResult<_>>()?;
            let mut eval = Evaluator::new(leaf_of(&options.leaf)?);
            self.look.opts = LookOptions {
                maxn: options.maxn,
                max_nodes: options.max_nodes,
                time_limit: options.time_limit,
                max_depth: options.max_depth,
                spread: options.spread.max(1),
                policy: options.policy,
            };
            let mut hooks = PyHooks::new(options.stop, None);
            let look = &mut self.look;
            let (engine_ref, eval_ref, hooks_ref, s_ref, moves_ref) =
                (&mut engine, &mut eval, &mut hooks, &s, &moves);
            let found =
                py.detach(move || look.values(engine_ref, eval_ref, s_ref, moves_ref, hooks_ref));
            give_engine(&self.rules, engine);
            hooks.finish(LookaheadData {
                outcomes: found.outcomes.iter().map(outcome_data).collect(),
                depth: found.depth,
                exact: found.exact,
                nodes: found.nodes,
                stopped_by: found.stopped_by.map(|s| s.name()),
                rng: leaf_rng(&eval),
            })
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

/// The options of [`sample`]: the sampling `player` (his hand known), the generator state
/// `rng`, `infer` (hand reading from declined cards), per-seat card `weights`, `world` (also
/// the stock order, `sample_world`) and `ordered` (the stock order kept where known).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct SampleOptions {
    pub player: usize,
    pub rng: RngState,
    pub infer: bool,
    pub weights: Option<Vec<Option<Vec<f64>>>>,
    pub world: bool,
    pub ordered: bool,
}

/// A sampled deal and the generator's state after it.
#[derive(IntoPyObject)]
pub struct SampleData {
    pub state: StateData,
    pub rng: RngState,
}

/// One consistent deal of `view`'s hidden cards for the options' player (`sample_deal`, or
/// `sample_world` with `world`).
#[pyfunction]
pub fn sample(
    rules: PyRef<'_, NativeRules>,
    view: StateData,
    options: SampleOptions,
) -> PyResult<SampleData> {
    guard(|| {
        with_engine(&rules, |engine| {
            let s = state_of(&engine.rules, &view)?;
            let player = options.player;
            if player >= engine.players() || s.is_hidden(player) {
                return Err(PyValueError::new_err(
                    "the sampling player's hand must be known",
                ));
            }
            let mut r = rng_of(&options.rng)?;
            let pairs = if options.infer {
                Some(declined_pairs(engine, &s, player))
            } else {
                None
            };
            let weights = weights_of(options.weights.clone())?;
            let found = if options.world {
                native_sample_world(
                    engine,
                    &s,
                    player,
                    &mut r,
                    pairs.as_ref(),
                    options.ordered,
                    weights.as_ref(),
                )
            } else {
                native_sample_deal(engine, &s, player, &mut r, pairs.as_ref(), weights.as_ref())
            };
            let deal = found.map_err(|e| PyValueError::new_err(e.0))?;
            Ok(SampleData {
                state: state_data(&engine.rules, &deal),
                rng: rng_data(&r),
            })
        })
    })
}

/// The options of [`playout`]: the `eager` policy (else random), the generator state `rng`,
/// `quiet` (moves without a meld before a deal is called a draw; -1: never) and `count`.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct PlayoutOptions {
    pub eager: bool,
    pub rng: RngState,
    pub quiet: i32,
    pub count: usize,
}

/// The outcomes of playouts, the generator's state after them and the moves played in all.
#[derive(IntoPyObject)]
pub struct PlayoutData {
    pub outcomes: Vec<Vec<f64>>,
    pub rng: RngState,
    pub plies: u64,
}

/// `count` playouts of `state` to its end, one after the other from one generator (each
/// `playout_outcome`).
#[pyfunction]
pub fn playout(
    py: Python<'_>,
    rules: PyRef<'_, NativeRules>,
    state: StateData,
    options: PlayoutOptions,
) -> PyResult<PlayoutData> {
    guard(|| {
        let mut engine = take_engine(&rules);
        let s = state_of(&engine.rules, &state)?;
        if s.any_hidden() {
            give_engine(&rules, engine);
            return Err(PyValueError::new_err("a playout needs every hand"));
        }
        let PlayoutOptions {
            eager,
            quiet,
            count,
            ..
        } = options;
        let mut r = rng_of(&options.rng)?;
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
        give_engine(&rules, engine);
        Ok(PlayoutData {
            outcomes: found.iter().map(outcome_data).collect(),
            rng: rng_data(&r),
            plies,
        })
    })
}

/// The options of [`mcts_search`] (`analyzer.search.mcts.MctsOptions`, checked in Python):
/// `iterations`, the generator state `rng`, the exploration constant `c`, the fitted `model`
/// (`None`: playouts), `infer`, `halving` (sequential halving at the root), `policy`
/// opponents, `nomeld` playouts, `time_limit` (seconds, `None`: none), the hand-reading
/// `weights` per seat, the callbacks `stop` and `progress`, and `root_bias` (the move prior's
/// term per root move, `None`: none).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct MctsOptions {
    pub iterations: usize,
    pub rng: RngState,
    pub c: f64,
    pub model: Option<Py<NativeModel>>,
    pub infer: bool,
    pub halving: bool,
    pub policy: bool,
    pub nomeld: bool,
    pub time_limit: Option<f64>,
    pub weights: Option<Vec<Option<Vec<f64>>>>,
    pub stop: Option<Py<PyAny>>,
    pub progress: Option<Py<PyAny>>,
    pub root_bias: Option<Vec<f64>>,
}

/// A root move's statistics (`analyzer.search.mcts.MoveStats`).
#[derive(IntoPyObject)]
pub struct StatsData {
    pub r#move: MoveData,
    pub visits: u64,
    pub value: f64,
    pub win: f64,
    pub draw: f64,
}

/// The answer of IS-MCTS (`analyzer.search.mcts.SearchResult`) and the generator's state.
#[derive(IntoPyObject)]
pub struct MctsData {
    pub moves: Vec<StatsData>,
    pub iterations: usize,
    pub seconds: f64,
    pub interrupted: bool,
    pub depth: f64,
    pub ended: f64,
    pub rng: RngState,
}

/// IS-MCTS from `view` over `root_moves` (`mcts.search`).
#[pyfunction]
pub fn mcts_search(
    py: Python<'_>,
    rules: PyRef<'_, NativeRules>,
    view: StateData,
    root_moves: Vec<MoveData>,
    options: MctsOptions,
) -> PyResult<MctsData> {
    guard(|| {
        let native = &rules.rules;
        let s = state_of(native, &view)?;
        let roots: Vec<Move> = root_moves
            .iter()
            .map(|m| move_of(native, m))
            .collect::<PyResult<_>>()?;
        let weights = weights_of(options.weights)?;
        let mut r = rng_of(&options.rng)?;
        if let Some(b) = &options.root_bias {
            if b.len() != roots.len() || b.iter().any(|x| !x.is_finite() || *x < 0.0) {
                return Err(PyValueError::new_err(
                    "root_bias must give one finite, non-negative term per root move",
                ));
            }
        }
        let opts = mcts::Options {
            iterations: options.iterations,
            c: options.c,
            model: options.model.as_ref().map(|m| Arc::clone(&m.get().model)),
            infer: options.infer,
            halving: options.halving,
            policy: options.policy,
            nomeld: options.nomeld,
            time_limit: options.time_limit,
            root_bias: options.root_bias,
        };
        let mut hooks = PyHooks::new(options.stop, options.progress);
        let mut engine = take_engine(&rules);
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
        give_engine(&rules, engine);
        let found = found.map_err(|e| PyValueError::new_err(e.0))?;
        let data = MctsData {
            moves: found
                .moves
                .iter()
                .map(|m| StatsData {
                    r#move: move_data(native, &m.mv),
                    visits: m.visits,
                    value: m.value,
                    win: m.win,
                    draw: m.draw,
                })
                .collect(),
            iterations: found.iterations,
            seconds: found.seconds,
            interrupted: found.interrupted,
            depth: found.depth,
            ended: found.ended,
            rng: rng_data(&r),
        };
        hooks.finish(data)
    })
}

/// The feature vector of a position (`analyzer.search.evaluation.features`), for the tests.
#[pyfunction]
pub fn features(rules: PyRef<'_, NativeRules>, state: StateData) -> PyResult<Vec<f64>> {
    guard(|| {
        with_engine(&rules, |engine| {
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

/// A leaf's outcome vector of one position, and the rollout leaf's generator state after it.
#[derive(IntoPyObject)]
pub struct EvaluateData {
    pub outcome: Vec<f64>,
    pub rng: Option<RngState>,
}

/// A leaf's outcome vector of one position (for the tests of the evaluations).
#[pyfunction]
pub fn evaluate(
    rules: PyRef<'_, NativeRules>,
    state: StateData,
    leaf: LeafSpec,
) -> PyResult<EvaluateData> {
    guard(|| {
        with_engine(&rules, |engine| {
            let s = state_of(&engine.rules, &state)?;
            let mut eval = Evaluator::new(leaf_of(&leaf)?);
            let o = eval.evaluate(engine, &s);
            Ok(EvaluateData {
                outcome: outcome_data(&o),
                rng: leaf_rng(&eval),
            })
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
    rules: &NativeRules,
    view: &StateData,
    prior: Option<Vec<Option<Vec<f64>>>>,
) -> PyResult<(Box<Engine>, State, Option<Prior>)> {
    let engine = take_engine(rules);
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

/// The size of an endgame's tree: positions, information sets and root deals.
#[derive(IntoPyObject)]
pub struct SizeData {
    pub nodes: usize,
    pub infosets: usize,
    pub deals: usize,
}

impl SizeData {
    const NONE: SizeData = SizeData {
        nodes: 0,
        infosets: 0,
        deals: 0,
    };
}

/// An information set: its `player`, his `hand` as dealt, and the public moves before it.
#[derive(IntoPyObject)]
pub struct InfosetData {
    pub player: u8,
    pub hand: u64,
    pub history: Vec<MoveData>,
}

/// A root deal: the two hands and its probability.
#[derive(IntoPyObject)]
pub struct DealData {
    pub hand0: u64,
    pub hand1: u64,
    pub probability: f64,
}

/// A tree's information sets and root deals in the order built, and per information set its
/// parent sequence and first sequence.
#[derive(IntoPyObject)]
pub struct KeysData {
    pub infosets: Vec<InfosetData>,
    pub deals: Vec<DealData>,
    pub parent_seq: Vec<u32>,
    pub seq_base: Vec<u32>,
}

/// The options of [`equilibrium_tree`]: the budget of positions `max_nodes`, the `prior` per
/// player (40 card weights or `None`), `stop`, and `keys` (also return [`KeysData`]).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct TreeOptions {
    pub max_nodes: usize,
    pub prior: Option<Vec<Option<Vec<f64>>>>,
    pub stop: Option<Py<PyAny>>,
    pub keys: bool,
}

/// The answer of [`equilibrium_tree`]: why the tree was not built (`"positions"`,
/// `"interrupted"`, else `None`), its size and, when asked, its keys.
#[derive(IntoPyObject)]
pub struct TreeData {
    pub why: Option<&'static str>,
    pub size: SizeData,
    pub keys: Option<KeysData>,
}

/// The tree of the endgame of `view` (`analyzer.search.equilibrium.build_endgame`).
#[pyfunction]
pub fn equilibrium_tree(
    py: Python<'_>,
    rules: PyRef<'_, NativeRules>,
    view: StateData,
    options: TreeOptions,
) -> PyResult<TreeData> {
    guard(|| {
        let (mut engine, s, prior) = endgame_input(&rules, &view, options.prior)?;
        let (max_nodes, keys) = (options.max_nodes, options.keys);
        let mut hooks = PyHooks::new(options.stop, None);
        let (engine_ref, hooks_ref, s_ref, prior_ref) =
            (&mut engine, &mut hooks, &s, prior.as_ref());
        let built = py.detach(move || {
            endgame::build(engine_ref, s_ref, prior_ref, max_nodes, hooks_ref, keys)
        });
        let found = match built {
            Err(stop) => build_stop(stop).map(|why| TreeData {
                why: Some(why),
                size: SizeData::NONE,
                keys: None,
            }),
            Ok(tree) => {
                let data = keys.then(|| {
                    let infosets = (0..tree.infosets())
                        .map(|k| {
                            let (a, b) = (tree.act_base[k] as usize, tree.act_base[k + 1] as usize);
                            debug_assert!(a < b);
                            InfosetData {
                                player: tree.owner[k],
                                hand: tree.hand[k].bits(),
                                history: tree.history_moves[k]
                                    .iter()
                                    .map(|m| move_data(&engine.rules, m))
                                    .collect(),
                            }
                        })
                        .collect();
                    let deals = tree
                        .deal_hands
                        .iter()
                        .zip(&tree.deal_prob)
                        .map(|(h, &p)| DealData {
                            hand0: h[0].bits(),
                            hand1: h[1].bits(),
                            probability: p,
                        })
                        .collect();
                    KeysData {
                        infosets,
                        deals,
                        parent_seq: tree.parent_seq.clone(),
                        seq_base: tree.seq_base.clone(),
                    }
                });
                Ok(TreeData {
                    why: None,
                    size: SizeData {
                        nodes: tree.nodes(),
                        infosets: tree.infosets(),
                        deals: tree.deal_prob.len(),
                    },
                    keys: data,
                })
            }
        };
        give_engine(&rules, engine);
        hooks.finish(())?;
        found
    })
}

/// The answer of an equilibrium (`analyzer.search.equilibrium.Equilibrium`): the player to
/// act, his moves, their probabilities (`strategy`) and values, the value, the
/// exploitability, the game value, the CFR+ iterations, why it stopped short (`None`: the
/// tolerance was reached) and, when asked, every information set's average strategy.
#[derive(IntoPyObject)]
pub struct EquilibriumData {
    pub player: usize,
    pub moves: Vec<MoveData>,
    pub strategy: Vec<f64>,
    pub move_values: Vec<f64>,
    pub value: f64,
    pub exploitability: f64,
    pub game_value: f64,
    pub iterations: u64,
    pub stopped_by: Option<&'static str>,
    pub every: Option<Vec<Vec<f64>>>,
}

/// The options of [`equilibrium`]: the tree's budget `max_nodes`, CFR+'s `tolerance`,
/// `max_iterations` and `time_limit` (seconds, `None`: none), the `prior`, `stop`,
/// `lp_below` (a tree of at most this many positions is left to the linear program) and
/// `every` (also every information set's strategy).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct EquilibriumOptions {
    pub max_nodes: usize,
    pub tolerance: f64,
    pub max_iterations: u64,
    pub time_limit: Option<f64>,
    pub prior: Option<Vec<Option<Vec<f64>>>>,
    pub stop: Option<Py<PyAny>>,
    pub lp_below: usize,
    pub every: bool,
}

/// The answer of [`equilibrium`]: the equilibrium, or `None` with `why` (`"positions"`,
/// `"interrupted"` while building, `"small"`: left to the linear program), and the tree's size.
#[derive(IntoPyObject)]
pub struct EquilibriumResult {
    pub answer: Option<EquilibriumData>,
    pub why: Option<&'static str>,
    pub size: SizeData,
}

/// The equilibrium of the endgame of `view` for its player to act by CFR+
/// (`analyzer.search.cfr.solve_cfr` on `build_endgame`'s tree).  Position errors are
/// ValueErrors.
#[pyfunction]
pub fn equilibrium(
    py: Python<'_>,
    rules: PyRef<'_, NativeRules>,
    view: StateData,
    options: EquilibriumOptions,
) -> PyResult<EquilibriumResult> {
    guard(|| {
        let below_0 = |x: f64| x.is_nan() || x < 0.0;
        let EquilibriumOptions {
            max_nodes,
            tolerance,
            max_iterations,
            time_limit,
            lp_below,
            every,
            ..
        } = options;
        if below_0(tolerance) || max_iterations == 0 || time_limit.is_some_and(below_0) {
            return Err(PyValueError::new_err(
                "a tolerance of at least 0, at least one iteration, seconds of at least 0",
            ));
        }
        let (mut engine, s, prior) = endgame_input(&rules, &view, options.prior)?;
        let opts = endgame::Options {
            tolerance,
            max_iterations,
            time_limit,
        };
        let mut hooks = PyHooks::new(options.stop, None);
        let (engine_ref, hooks_ref, s_ref, prior_ref) =
            (&mut engine, &mut hooks, &s, prior.as_ref());
        let found = py.detach(move || {
            let tree = endgame::build(engine_ref, s_ref, prior_ref, max_nodes, hooks_ref, false)?;
            let size = SizeData {
                nodes: tree.nodes(),
                infosets: tree.infosets(),
                deals: tree.deal_prob.len(),
            };
            if size.nodes <= lp_below {
                return Ok((None, size));
            }
            let answer = endgame::solve(engine_ref, s_ref, &tree, &opts, every, hooks_ref);
            Ok((Some(answer), size))
        });
        let out = match found {
            Err(stop) => build_stop(stop).map(|why| EquilibriumResult {
                answer: None,
                why: Some(why),
                size: SizeData::NONE,
            }),
            Ok((None, size)) => Ok(EquilibriumResult {
                answer: None,
                why: Some("small"),
                size,
            }),
            Ok((Some(Err(text)), _)) => Err(PyValueError::new_err(text)),
            Ok((Some(Ok(a)), size)) => Ok(EquilibriumResult {
                answer: Some(EquilibriumData {
                    player: a.player,
                    moves: a
                        .moves
                        .iter()
                        .map(|m| move_data(&engine.rules, m))
                        .collect(),
                    strategy: a.strategy,
                    move_values: a.move_values,
                    value: a.value,
                    exploitability: a.exploitability,
                    game_value: a.game_value,
                    iterations: a.iterations,
                    stopped_by: a.stopped_by,
                    every: a.every,
                }),
                why: None,
                size,
            }),
        };
        give_engine(&rules, engine);
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
