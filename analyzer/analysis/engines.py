"""The hint engines: which candidate moves are weighed and how each sampled deal is searched.

Keyed by method: ``ismcts`` (IS-MCTS), ``pimc`` (a lookahead with the fitted evaluation on each
sampled deal) and ``cpsat`` (exact solves of CP-SAT-chosen takes); their version names ``v3``,
``v2``, ``v1`` are aliases, and the name the answers give (``engine`` in JSON).  ``auto`` picks by
the number of players.  Code that behaves differently by engine reads its attributes
(:attr:`Engine.one_tree`, :attr:`Engine.unit`, :attr:`Engine.search`), never its name.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from analyzer.core.errors import ConquianError
from analyzer.core.rules import Rules
from analyzer.core.state import GameState
from analyzer.search.evaluation import evaluator_for
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
    "ALIASES",
    "AUTO",
    "BATCH",
    "BOT_SAMPLES",
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
    "EngineTable",
    "bot_samples_for",
    "engine_for",
    "searching_engine",
]

DEFAULT_SAMPLES = 48
"""Most deals sampled by default."""
DEFAULT_TIME_LIMIT = 2.0
"""Seconds of sampling by default (a mid-game position is answered in about this)."""
DEFAULT_NODE_BUDGET = 4_000
"""Positions per double-dummy solve of the ``cpsat`` (``v1``) engine by default."""

BATCH = 8
"""Deals (IS-MCTS, :attr:`Engine.one_tree`: searches) sampled between two looks at the verdict
when a hint samples until it decides."""

DECIDE_CAP = {"lookahead": 960, "exact": 48, "mcts": 100_000}
"""Most deals (``mcts``: IS-MCTS iterations) a hint that samples until it decides may use, by
search, with the anytime verdict rule (:func:`analyzer.analysis.verdict.decide`).  Sized so that
at least 90% of mid-game positions with a choice are decided before the cap (``bench/hint.py``,
BENCHMARKS.md), which the native core answers in about a second at most."""

TTEST_CAP = {"lookahead": 480, "exact": 48, "mcts": 40_000}
"""The caps of the rule before (``rule="ttest"``), kept with it so that its answers stay as they
were."""

MCTS_SEARCH = 100
"""IS-MCTS iterations of each independent search an ``ismcts`` hint compares moves over (the
anytime rule): every search of one hint has this size, so that the searches estimate the same thing and
their results can be pooled; small, because the bound on a difference over searches needs many
of them (docs/hint.md)."""

MCTS_SEARCHES = 4
"""Fewest independent IS-MCTS searches an ``ismcts`` hint with a verdict runs (a deciding hint
with the anytime rule runs them :data:`BATCH` at a time)."""

OPEN_NODE_BUDGET = 100_000
"""Positions of ``pimc``'s lookahead on the one deal of ``open_hands`` with the stock order given
(instead of the budget per sampled deal), when no budget is asked for."""


@dataclass(frozen=True, slots=True)
class Engine:
    """A named hint engine: which candidates are weighed and how each sampled deal is searched.

    Attributes
    ----------
    name : str
        The version name (``v3``, ``v2``, ``v1``): an alias of :attr:`method_name`, and the
        name the answers give (``engine`` in JSON, :attr:`Advice.engine`; a public value).
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
        The engine's name by its method (``ismcts``, ``pimc``, ``cpsat``): its key in
        :data:`ENGINES`.
    read : bool
        Read the hidden hands from the cards their players were seen to give up
        (the position's history ``GameState.paid``, a paid centre card, the card
        passed to the reader): hidden hands are drawn with the fitted card
        weights of :mod:`analyzer.search.inference`; else uniformly.
    reader : str
        With ``read``: which reading draws the hidden hands: ``"paid"`` (the cards given up,
        :func:`analyzer.search.inference.infer_weights`) or ``"learned"`` (the card-location
        model learned from self-play, :func:`analyzer.search.reader.reader_weights`).
    prior_bias : float
        ``mcts``: the weight of the learned move prior's PUCT term at the tree's root
        (:func:`analyzer.search.mcts.search`; 0: none).
    description : str
        What the engine does, in a few words (the ``--engine`` help lists it).
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
    prior_bias: float = 0.0
    description: str = ""

    @property
    def one_tree(self) -> bool:
        """True when the engine searches with IS-MCTS (``search="mcts"``): a search grows one
        tree over many sampled deals, each iteration on its own deal, instead of searching each
        deal apart.  Its ``samples`` count iterations, it has no budget of positions, and its
        hint compares moves over independent searches (:data:`MCTS_SEARCH`)."""
        return self.search == "mcts"

    @property
    def unit(self) -> str:
        """What the verdict compares the moves over: ``"searches"`` (:attr:`one_tree`: the
        independent IS-MCTS searches) or ``"deals"`` (the sampled deals)."""
        return "searches" if self.one_tree else "deals"

    @property
    def label(self) -> str:
        """The engine by its method, its version name beside it: ``pimc (v2)``."""
        return f"{self.method_name} ({self.name})" if self.method_name else self.name


class EngineTable(Mapping[str, Engine]):
    """The engines keyed by method name (``ismcts``, ``pimc``, ``cpsat``, in that order); a
    version name (``v3``, ``v2``, ``v1``, :data:`ALIASES`) finds the same engine:
    ``ENGINES["v2"] is ENGINES["pimc"]`` and ``"v2" in ENGINES``, while iterating gives the
    method names alone."""

    __slots__ = ("_aliases", "_engines")

    def __init__(self, engines: Iterable[Engine]) -> None:
        self._engines = {e.method_name: e for e in engines}
        self._aliases = {e.name: e.method_name for e in self._engines.values()}

    def __getitem__(self, name: str) -> Engine:
        return self._engines[self._aliases.get(name, name)]

    def __iter__(self) -> Iterator[str]:
        return iter(self._engines)

    def __len__(self) -> int:
        return len(self._engines)

    def __repr__(self) -> str:
        return f"EngineTable({list(self._engines.values())!r})"

    @property
    def aliases(self) -> dict[str, str]:
        """The version names, each with the method name it stands for."""
        return dict(self._aliases)


ENGINES: EngineTable = EngineTable([
    Engine(
        "v3", "all", "mcts", "rollout", samples=2_000, bot_samples=1_000, infer=False,
        method_name="ismcts", description="information-set Monte Carlo tree search",
    ),
    Engine(
        "v2", "all", "lookahead", "fitted", bot_node_budget=1_000, method_name="pimc",
        description="sampled deals searched by a lookahead",
    ),
    Engine(
        "v1", "v1", "exact", "melded", node_budget=DEFAULT_NODE_BUDGET, infer=False,
        method_name="cpsat", description="the first one, kept for comparison",
    ),
])  # fmt: skip
"""The hint engines by method name, each also found by its version name (:class:`EngineTable`);
``cpsat`` (``v1``) is the first one, kept to measure the others against.

The ``hint`` bot's budgets (``bot_samples``, ``bot_node_budget``; ``pimc``: 8 deals of 1,000
positions, 16 or 32 in the presets of :data:`BOT_SAMPLES`, ``ismcts``: 1,000 iterations) are
cheap on purpose: the Python engine's wall time per decision spent on the native core
(``hint:samples=48:node_budget=8000``, ``hint:samples=50000``) won no more deals over 500 paired
deals per match before the move prior (BENCHMARKS.md), and the bot plays a ``classic`` deal in
about a quarter of a second."""

BOT_SAMPLES: Mapping[str, int] = {
    "classic": 32, "hoyle1897": 16, "cooncan1913": 16, "mexican": 16, "mexican_9_10": 16,
}  # fmt: skip
"""Deals per decision of the ``hint`` bot with ``pimc`` on a preset where more than the engine's
``bot_samples`` (8) were measured to win more deals (the preset exactly, :attr:`Rules.exact_preset`):
16 won +0.018 ± 0.012 a deal against greedy over 8,000 paired deals set beforehand in
``classic``, ``hoyle1897`` and ``cooncan1913`` each, +0.025 ± 0.015 in ``mexican`` and +0.025 ±
0.016 in ``mexican_9_10``; in ``classic`` 32 won +0.015 ± 0.011 more than 16 (BENCHMARKS.md,
"Learned from self-play").  16 take 1.7 times the CPU time a decision of 8."""


def bot_samples_for(engine: Engine, rules: Rules) -> int:
    """Deals (``ismcts``: iterations) per decision of the ``hint`` bot searching with ``engine`` on
    ``rules``: :data:`BOT_SAMPLES` for a preset searched by ``pimc``, else ``engine.bot_samples``."""
    if engine.method_name == "pimc" and rules.exact_preset:
        return BOT_SAMPLES.get(rules.name, engine.bot_samples)
    return engine.bot_samples


AUTO = "auto"
"""The default engine name: ``ismcts`` (``v3``) for three or more players and for two players
under rules with no fitted leaf evaluation, else ``pimc`` (``v2``).

Chosen by measured strength (``bench/strength.py``, docs/hint.md): in
``megajogos`` the IS-MCTS search wins far more deals against greedy than the
``pimc`` lookahead at about the same time per deal; in ``classic`` the two are level on the same
deals and ``pimc`` is the faster. Where no leaf evaluation was fitted for the rules
(:func:`analyzer.search.evaluation.evaluator_for`: two-player ``megajogos``, custom rules) the
lookahead scores its leaves by the melded-card lead alone, and IS-MCTS won +0.200 ± 0.046 a deal
more over 2,000 paired two-player ``megajogos`` deals (BENCHMARKS.md)."""

ALIASES: dict[str, str] = ENGINES.aliases
"""The version names, each with the method name it is an alias of: ``v3`` ``ismcts``, ``v2``
``pimc``, ``v1`` ``cpsat``."""

METHODS: dict[str, str] = {method: e.name for method, e in ENGINES.items()}
"""The engines by the method they search with, each with its version name: ``ismcts``
(information-set Monte Carlo tree search, ``v3``), ``pimc`` (perfect-information Monte Carlo: a
lookahead on sampled deals, ``v2``) and ``cpsat`` (CP-SAT-chosen takes solved exactly on sampled
deals, ``v1``)."""

ENGINE_NAMES: tuple[str, ...] = (AUTO, *METHODS, *ALIASES)
"""Every name ``--engine`` takes: ``auto``, the method names, and the version names."""


def engine_for(engine: str | Engine, rules: Rules) -> Engine:
    """The engine named ``engine`` (:data:`ENGINE_NAMES`) for a deal of ``rules``.

    ``"auto"`` is ``ismcts`` with three or more players or no fitted leaf evaluation, else
    ``pimc`` (:data:`AUTO`); a method name and its version name (:data:`ALIASES`) give the same
    engine.

    Raises
    ------
    ConquianError
        If the name is unknown.
    """
    if isinstance(engine, Engine):
        return engine
    if engine == AUTO:
        return ENGINES["ismcts" if rules.players >= 3 or evaluator_for(rules) is None else "pimc"]
    if engine not in ENGINES:
        raise ConquianError(f"unknown hint engine: {engine!r} (known: {', '.join(ENGINE_NAMES)})")
    return ENGINES[engine]


def searching_engine(engine: str | Engine, state: GameState, *, open_hands: bool = False) -> Engine:
    """The engine that answers :func:`advise` on ``state``: :func:`engine_for` its rules,
    except that an IS-MCTS engine (:attr:`Engine.one_tree`) hands a deal with every card and
    the stock order known (``open_hands``) to ``pimc``'s exact lookahead, which then equals the
    exact search.

    Raises
    ------
    ConquianError
        If the name is unknown.
    """
    found = engine_for(engine, state.rules)
    if found.one_tree and open_hands and state.stock is not None:
        return ENGINES["pimc"]
    return found


DEFAULT_ENGINE = "auto"
