"""The hint engines: which candidate moves are weighed and how each sampled deal is searched.

``v1`` (exact solves of CP-SAT-chosen takes), ``v2`` (lookahead with the fitted
evaluation), ``v3`` (IS-MCTS); ``auto`` picks by the number of players.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.core.errors import ConquianError
from analyzer.core.rules import Rules
from analyzer.core.state import GameState
from analyzer.search.options import (
    Candidates,
    EngineLeaf,
    Method,
    Mode,
    Opponents,
    Playout,
    SearchKind,
    StockModel,
)

__all__ = [
    "AUTO",
    "BATCH",
    "DECIDE_CAP",
    "DEFAULT_ENGINE",
    "DEFAULT_NODE_BUDGET",
    "DEFAULT_SAMPLES",
    "DEFAULT_TIME_LIMIT",
    "ENGINES",
    "ENGINE_NAMES",
    "MCTS_SEARCH",
    "MCTS_SEARCHES",
    "METHODS",
    "OPEN_NODE_BUDGET",
    "TTEST_CAP",
    "Engine",
    "engine_for",
    "searching_engine",
]

DEFAULT_SAMPLES = 48
"""Most deals sampled by default."""
DEFAULT_TIME_LIMIT = 2.0
"""Seconds of sampling by default (a mid-game position is answered in about this)."""
DEFAULT_NODE_BUDGET = 4_000
"""Positions per double-dummy solve of the ``v1`` engine by default."""

BATCH = 8
"""Deals (``v3``: searches) sampled between two looks at the verdict when a hint samples until it
decides."""

DECIDE_CAP = {"lookahead": 960, "exact": 48, "mcts": 100_000}
"""Most deals (``mcts``: IS-MCTS iterations) a hint that samples until it decides may use, by
search, with the anytime verdict rule (:func:`analyzer.analysis.verdict.decide`).  Sized so that
at least 90% of mid-game positions with a choice are decided before the cap (``bench/hint.py``,
BENCHMARKS.md), which the native core answers in about a second at most."""

TTEST_CAP = {"lookahead": 480, "exact": 48, "mcts": 40_000}
"""The caps of the rule before (``rule="ttest"``), kept with it so that its answers stay as they
were."""

MCTS_SEARCH = 100
"""IS-MCTS iterations of each independent search a ``v3`` hint compares moves over (the anytime
rule): every search of one hint has this size, so that the searches estimate the same thing and
their results can be pooled; small, because the bound on a difference over searches needs many
of them (docs/hint.md)."""

MCTS_SEARCHES = 4
"""Fewest independent IS-MCTS searches a ``v3`` hint with a verdict runs (a deciding hint with
the anytime rule runs them :data:`BATCH` at a time)."""

OPEN_NODE_BUDGET = 100_000
"""Positions of ``v2``'s lookahead on the one deal of ``open_hands`` with the stock order given
(instead of the budget per sampled deal), when no budget is asked for."""


@dataclass(frozen=True, slots=True)
class Engine:
    """A named hint engine: which candidates are weighed and how each sampled deal is searched.

    Attributes
    ----------
    name : str
    candidates : str
        ``"all"`` (every distinct choice, :func:`candidate_moves`) or ``"v1"``
        (one take per set of hand cards, arranged and paid by CP-SAT).
    search : str
        ``"lookahead"`` (:class:`analyzer.search.lookahead.Lookahead`), ``"exact"``
        (:class:`analyzer.search.exact.Solver` to the end of the deal) or ``"mcts"``
        (:func:`analyzer.search.mcts.search`: one IS-MCTS tree over every sampled
        deal, the stock drawn at random, never seen in advance).
    leaf : str
        ``"fitted"`` (:func:`analyzer.search.evaluation.fitted_evaluator`, the
        melded-card lead where no model was fitted), ``"melded"`` or
        ``"rollout"`` (:class:`analyzer.search.playout.RolloutLeaf`: eager playouts
        to the end of the sampled deal).
    mode : str
        Three players: ``"auto"`` (max-n), ``"maxn"`` or ``"paranoid"``.
    node_budget : int
        Positions per sampled deal (``lookahead``, all candidates together)
        or per solve of one candidate (``exact``).
    max_depth : int
        Deepest lookahead iteration, in offers.
    stock : str
        ``"known"``: each sampled deal orders the stock and the search follows
        that order (it sees the cards to come, as double-dummy does);
        ``"chance"``: the search averages over every card a turn may bring
        (expectimax), seeing only the hands of the sampled deal.
    playouts : int
        Playouts per leaf with ``leaf="rollout"``.
    infer : bool
        Sample only deals consistent with the other players' declines
        (:func:`analyzer.search.sampling.sample_deal` with ``infer=True``).
    spread : int
        ``lookahead`` with a known stock: the first ``spread`` stock cards are
        searched as a chance node (:class:`analyzer.search.lookahead.Lookahead`).
    samples : int
        Deals sampled by default (``mcts``: iterations, each on its own sampled deal).
    bot_samples : int
        Deals sampled per decision by the ``hint`` bot of this engine (``mcts``: iterations).
    bot_node_budget : int or None
        Positions per sampled deal of the ``hint`` bot (``lookahead``); ``None``: ``node_budget``.
    c : float
        ``mcts``: UCB1 exploration constant (:func:`analyzer.search.mcts.search`).
    method : str
        ``mcts``: ``"uct"`` (one IS-MCTS tree) or ``"halving"`` (sequential
        halving over the root moves on common deals; :func:`analyzer.search.mcts.search`).
    opponents : str
        How the other players choose inside the search: ``"search"`` (``mcts``:
        UCB1, each maximising his own result; ``lookahead``: alpha-beta or
        max-n) or ``"policy"`` (the ``eager`` playout policy's move, an
        opponent model; :data:`analyzer.search.playout.OPPONENTS`).
    playout : str
        ``mcts``: how the player's own seat is played in the playouts:
        ``"eager"`` or ``"nomeld"`` (never laying a meld from the hand alone,
        R16; :data:`analyzer.search.playout.PLAYOUTS`).
    method_name : str
        The engine's name by its method (``ismcts``, ``pimc``, ``cpsat``; :data:`METHODS`).
    read : bool
        Read the hidden hands from the cards their players were seen to give up
        (the position's history ``GameState.paid``, a paid centre card, the card
        passed to the reader): hidden hands are drawn with the fitted card
        weights of :mod:`analyzer.search.inference`; else uniformly.
    reader : str
        With ``read``: which reading draws the hidden hands: ``"paid"`` (the cards given up,
        :func:`analyzer.search.inference.infer_weights`) or ``"learned"`` (the card-location
        model learned from self-play, :func:`analyzer.search.reader.reader_weights`).
    """

    name: str
    candidates: Candidates
    search: SearchKind
    leaf: EngineLeaf
    mode: Mode = "auto"
    node_budget: int = 2_000
    max_depth: int = 40
    stock: StockModel = "known"
    infer: bool = True
    playouts: int = 1
    spread: int = 1
    samples: int = DEFAULT_SAMPLES
    bot_samples: int = 8
    bot_node_budget: int | None = None
    c: float = 0.7
    method: Method = "uct"
    opponents: Opponents = "search"
    read: bool = False
    playout: Playout = "eager"
    method_name: str = ""
    reader: str = "paid"


ENGINES: dict[str, Engine] = {
    "v3": Engine(
        "v3", "all", "mcts", "rollout", samples=2_000, bot_samples=1_000, infer=False,
        method_name="ismcts",
    ),
    "v2": Engine("v2", "all", "lookahead", "fitted", bot_node_budget=1_000, method_name="pimc"),
    "v1": Engine(
        "v1", "v1", "exact", "melded", node_budget=DEFAULT_NODE_BUDGET, infer=False,
        method_name="cpsat",
    ),
}  # fmt: skip
"""The hint engines by name; ``v1`` is the first one, kept to measure the others against.

The ``hint`` bot's budgets (``bot_samples``, ``bot_node_budget``; ``v2``: 8 deals of 1,000
positions, ``v3``: 1,000 iterations) are cheap on purpose: the Python engine's wall time per
decision spent on the native core (``hint:samples=48:node_budget=8000``,
``hint:samples=50000``) won no more deals over 500 paired deals per match (BENCHMARKS.md), and the
cheap bot plays a ``classic`` deal in about 0.16 s."""

AUTO = "auto"
"""The default engine name: ``v3`` (IS-MCTS) for three or more players, ``v2`` for two.

Chosen by measured strength (``bench/strength.py``, docs/hint.md): in
``megajogos`` the IS-MCTS search wins far more deals against greedy than the
``v2`` lookahead at about the same time per deal; in ``classic`` the two are level on the same
deals and ``v2`` is the faster."""

METHODS: dict[str, str] = {e.method_name: name for name, e in ENGINES.items()}
"""The engines by the method they search with: ``ismcts`` (information-set Monte Carlo tree
search, ``v3``), ``pimc`` (perfect-information Monte Carlo: a lookahead on sampled deals,
``v2``) and ``cpsat`` (CP-SAT-chosen takes solved exactly on sampled deals, ``v1``); the version
names ``v3``, ``v2``, ``v1`` are kept as their aliases."""

ENGINE_NAMES: tuple[str, ...] = (AUTO, *METHODS, *ENGINES)
"""Every name ``--engine`` takes: ``auto``, the method names, and the version names."""


def engine_for(engine: str | Engine, rules: Rules) -> Engine:
    """The engine named ``engine`` (:data:`ENGINE_NAMES`) for a deal of ``rules``.

    ``"auto"`` is ``v3`` with three or more players, else ``v2`` (:data:`AUTO`).

    Raises
    ------
    ConquianError
        If the name is unknown.
    """
    if isinstance(engine, Engine):
        return engine
    engine = METHODS.get(engine, engine)
    if engine == AUTO:
        return ENGINES["v3" if rules.players >= 3 else "v2"]
    if engine not in ENGINES:
        raise ConquianError(f"unknown hint engine: {engine!r} (known: {', '.join(ENGINE_NAMES)})")
    return ENGINES[engine]


def searching_engine(engine: str | Engine, state: GameState, *, open_hands: bool = False) -> Engine:
    """The engine that answers :func:`advise` on ``state``: :func:`engine_for` its rules,
    except that an ``mcts`` engine hands a deal with every card and the stock order known
    (``open_hands``) to ``v2``'s exact lookahead, which then equals the exact search.

    Raises
    ------
    ConquianError
        If the name is unknown.
    """
    found = engine_for(engine, state.rules)
    if found.search == "mcts" and open_hands and state.stock is not None:
        return ENGINES["v2"]
    return found


DEFAULT_ENGINE = "auto"
