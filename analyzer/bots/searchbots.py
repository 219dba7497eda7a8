"""Bots that search: ``hint`` (the advisor), ``hint-v1`` (the first advisor), ``mcts`` and ``oracle``.

``hint``, ``hint-v2`` and ``hint-v1`` play the best move of
:func:`analyzer.analysis.advisor.advise` from their own view: ``hint`` with the default
engine (``auto``: ``v3`` IS-MCTS for three players, ``v2`` for two),
``hint-v2`` and ``hint-v1`` with the earlier engines, kept to measure against.  Their budgets are
counted in deals and positions, not seconds, so a seeded game is the same
game on any machine and under any load (the time limit is only a safety net).

``oracle`` is a ceiling, not a player: it is given the whole deal (every
hand and the stock order, :attr:`~analyzer.bots.registry.Bot.sees_all`) and plays
the first move of the exact search's principal variation
(:func:`analyzer.search.exact.solve`).
"""

from __future__ import annotations

import inspect
import random
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from analyzer.analysis.advisor import AUTO, ENGINE_NAMES, ENGINES, Engine, advise, engine_for
from analyzer.analysis.engines import bot_samples_for
from analyzer.analysis.prior import PRIORS, WEIGHT, pick, pick_visited, prior_for, weighs_prior
from analyzer.bots.base import bot_option, obvious_move
from analyzer.core.errors import ConquianError
from analyzer.core.moves import Move
from analyzer.core.rules import Rules
from analyzer.core.state import GameState
from analyzer.search.evaluation import evaluator_for
from analyzer.search.exact import Solver
from analyzer.search.limits import MAX_DEPTH, MAX_POSITIONS, MAX_SAMPLES, MAX_SPREAD
from analyzer.search.mcts import LEAVES, METHODS
from analyzer.search.mcts import search as mcts_search
from analyzer.search.options import ENGINE_LEAVES, LEARNED_LEAVES, one_of
from analyzer.search.playout import OPPONENTS, PLAYOUTS

__all__ = ["HintBot", "HintBotOptions", "HintV1Bot", "HintV2Bot", "MctsBot", "OracleBot", "PeekBot"]


_SEARCH_OPTIONS: dict[str, frozenset[str]] = {
    "mcts": frozenset({"leaf", "c", "method", "opponents", "playout", "prior_bias"}),
    "lookahead": frozenset(
        {"node_budget", "mode", "max_depth", "stock", "leaf", "playouts", "spread", "opponents"}
    ),
    "exact": frozenset({"node_budget", "stock"}),
}
"""The search options (besides ``samples``, ``time_limit`` and ``infer``) each search reads."""

_SEARCH_NAMES = {
    "mcts": "an IS-MCTS tree",
    "lookahead": "a lookahead on sampled deals",
    "exact": "an exact search of every reply",
}


def _refuse_unused(engine: str, given: dict[str, Any], where: str = "") -> None:
    """Refuse a bot option that the named engine never reads (``hint:engine=v1:c=0.4``), a leaf
    the IS-MCTS search has not, and option pairs that exclude each other (``opponents=policy``,
    ``c`` or ``prior_bias`` with ``method=halving``, ``playouts`` without ``leaf=rollout``,
    ``spread`` with ``stock=chance``).

    With ``auto`` the engine depends on the variant (``v3`` for three players, ``v2`` for
    two), so only the pairs are checked here; :meth:`HintBot.check_variant` checks the rest
    once the variant is known.

    Raises
    ------
    ConquianError
        If an option has no effect with ``engine``.
    """
    if given.get("method") == "halving":
        # Sequential halving plays every surviving root move out on the same deals: no tree, so
        # no UCB1 constant, no prior steering it, and its playouts play the policy already.
        unused = ["opponents"] if given.get("opponents") == "policy" else []
        unused += [k for k in ("c", "prior_bias") if k in given]
        if unused:
            raise ConquianError(f"{unused[0]}={given[unused[0]]} has no effect with method=halving")
    if engine not in ENGINES:
        return
    found = ENGINES[engine]
    known = _SEARCH_OPTIONS[found.search]
    leaf = given.get("leaf", found.leaf)
    for key, value in given.items():
        if key not in known:
            what = _SEARCH_NAMES[found.search]
            at = f" {where}" if where else ""
            raise ConquianError(f"{key}={value} has no effect with engine {engine}{at} ({what})")
    if found.search == "mcts" and "leaf" in given:
        bot_option("leaf", given["leaf"], choices=LEAVES)  # the leaves of the IS-MCTS search
    if "playouts" in given and leaf != "rollout":
        raise ConquianError(
            f"playouts={given['playouts']} has no effect with leaf={leaf} (only with leaf=rollout)"
        )
    if "spread" in given and given.get("stock", found.stock) == "chance":
        raise ConquianError(
            f"spread={given['spread']} has no effect with stock=chance (every turn is a chance node)"
        )


@dataclass(frozen=True)
class HintBotOptions:
    """The options of :class:`HintBot` (``hint:name=value``; ``None``: the engine's), described
    in its docstring. :meth:`check` refuses a value out of its range or choices."""

    samples: int | None = None
    time_limit: float = 30.0
    node_budget: int | None = None
    engine: str | None = None
    mode: str | None = None
    max_depth: int | None = None
    stock: str | None = None
    infer: int | None = None
    read: int | str | None = None
    leaf: str | None = None
    playouts: int | None = None
    spread: int | None = None
    c: float | None = None
    method: str | None = None
    opponents: str | None = None
    playout: str | None = None
    prior: str | None = None
    prior_weight: float | None = None
    prior_bias: float | None = None

    def check(self) -> None:
        """Refuse a value out of its range or choices (:func:`bot_option`; the engine checked
        apart, by :class:`HintBot`).

        Raises
        ------
        ConquianError
            Naming the first option refused.
        """
        read = self.read
        if isinstance(read, str) and read != "learned":
            raise ConquianError(f"option read={read} must be 0, 1 or learned")
        for key, value, rule in (
            ("samples", self.samples, {"whole": True, "low": 1, "high": MAX_SAMPLES}),  # as the engine caps it
            ("time_limit", self.time_limit, {"low": 0.05}),
            ("node_budget", self.node_budget, {"whole": True, "low": 1, "high": MAX_POSITIONS}),
            ("mode", self.mode, {"choices": ("auto", "maxn", "paranoid")}),
            ("max_depth", self.max_depth, {"whole": True, "low": 0, "high": MAX_DEPTH}),
            ("stock", self.stock, {"choices": ("known", "chance")}),
            ("infer", self.infer, {"whole": True, "low": 0, "high": 1}),
            ("read", None if isinstance(read, str) else read, {"whole": True, "low": 0, "high": 1}),
            ("leaf", self.leaf, {"choices": ENGINE_LEAVES}),
            ("playouts", self.playouts, {"whole": True, "low": 1, "high": MAX_SAMPLES}),
            ("spread", self.spread, {"whole": True, "low": 1, "high": MAX_SPREAD}),
            ("c", self.c, {"low": 0}),
            ("method", self.method, {"choices": METHODS}),
            ("opponents", self.opponents, {"choices": OPPONENTS}),
            ("playout", self.playout, {"choices": PLAYOUTS}),
            ("prior", self.prior, {"choices": PRIORS}),
            ("prior_weight", self.prior_weight, {"low": 0, "high": 100}),
            ("prior_bias", self.prior_bias, {"low": 0, "high": 100}),
        ):
            if value is not None:
                bot_option(key, value, **rule)

    def search_options(self) -> dict[str, Any]:
        """The search options given (not ``None``), by name: those an engine may not read
        (:func:`_refuse_unused`)."""
        names = ("node_budget", "mode", "max_depth", "stock", "leaf", "playouts", "spread", "c", "method",
                 "opponents", "playout", "prior_bias")  # fmt: skip
        return {k: getattr(self, k) for k in names if getattr(self, k) is not None}


def _keywords(options: type[HintBotOptions]) -> inspect.Signature:
    """The options as keyword parameters: the signature :func:`analyzer.bots.registry.make_bot`
    reads to refuse an option the bot does not take, naming those it does."""
    return inspect.Signature(
        [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=f.default) for f in fields(options)]
    )


class HintBot:
    """Plays the best move of :func:`analyzer.analysis.advisor.advise` from its own view.

    Parameters
    ----------
    samples : int, optional
        Deals sampled per decision; when omitted the engine's ``bot_samples`` (``v2`` and
        ``v1``: 8, ``v3``: 1,000 IS-MCTS iterations), or the preset's measured figure
        (:func:`analyzer.analysis.engines.bot_samples_for`: with ``v2``, 32 in ``classic``, 16
        in the other two-player presets measured).
    node_budget : int, optional
        Positions per sampled deal (``v2``: the engine's ``bot_node_budget``, 1,000; other
        engines: their own default).
    time_limit : float
        Seconds per decision, a safety net: the budgets above normally end
        the search first, which keeps seeded games reproducible.
    engine : str, optional
        The advisor's engine (default :attr:`default_engine`): ``"auto"`` (``v3`` for three players, ``v2`` for
        two, :data:`analyzer.analysis.advisor.AUTO`), ``"v3"``, ``"v2"`` or ``"v1"``.
    mode : str, optional
        Search mode for three players (``"maxn"`` or ``"paranoid"``); the engine's when omitted.
    max_depth : int, optional
        Deepest lookahead, in offers; the engine's when omitted.
    stock : str, optional
        ``"known"`` or ``"chance"`` (:class:`analyzer.analysis.advisor.Engine`); the engine's when omitted.
    infer : int, optional
        1: sample only deals consistent with the others' declines; 0: uniform; the engine's
        when omitted (``v2``: 1, ``v3``: 0).
    read : int or str, optional
        1: read the others' hands from the cards they were seen to pay this deal
        (:mod:`analyzer.search.inference`; the view's ``paid``); ``"learned"``: by the
        card-location model learned from self-play (:mod:`analyzer.search.reader`); 0: not;
        the engine's when omitted.
    leaf : str, optional
        Leaf evaluation: ``"fitted"``, ``"selfplay"`` (learned from self-play records),
        ``"melded"`` or ``"rollout"``; the engine's when omitted.
    playouts : int, optional
        Playouts per leaf with ``leaf="rollout"``; the engine's when omitted.
    spread : int, optional
        Stock cards searched as a chance node (``lookahead``); the engine's when omitted.
    c : float, optional
        UCB1 exploration constant (``mcts``); the engine's when omitted.
    method : str, optional
        ``mcts``: ``"uct"`` or ``"halving"`` (:data:`analyzer.search.mcts.METHODS`); the engine's when omitted.
    opponents : str, optional
        ``"search"`` or ``"policy"``: the other players' choices searched, or played by the
        ``eager`` policy inside the search (:data:`analyzer.search.playout.OPPONENTS`); the engine's when omitted.
    playout : str, optional
        ``mcts``: ``"eager"`` or ``"nomeld"``: the player's own seat in the playouts never lays a
        meld from the hand alone (:data:`analyzer.search.playout.PLAYOUTS`); the engine's when omitted.
    prior : str, optional
        ``"learned"``: among the moves the search leaves close to its best, play the one of best
        mean result plus :data:`analyzer.analysis.prior.WEIGHT` times the log of the move prior
        learned from self-play (:func:`analyzer.analysis.prior.pick`);
        ``"none"``: the search's best; ``"auto"`` (default): ``"learned"`` where a prior is
        fitted for the rules (:func:`analyzer.analysis.prior.prior_for`: every preset but ``megajogos``, for two players) and the
        engine is ``pimc``, else ``"none"`` (+0.015 ± 0.010 a deal against greedy over 10,000
        paired ``classic`` deals, BENCHMARKS.md).  ``"learned"`` is refused where no prior is
        fitted.  With one IS-MCTS tree (no verdict) the contenders are the moves
        visited at least half as often as the most visited (:func:`analyzer.analysis.prior.pick_visited`).
    prior_weight : float, optional
        How much the prior weighs against the mean result (0 to 100; default
        :data:`analyzer.analysis.prior.WEIGHT`, 0.05); refused with ``prior=none``.
    prior_bias : float, optional
        ``mcts``: the learned move prior inside the tree, as PUCT's prior term at the root with
        this weight (0 to 100; :func:`analyzer.search.mcts.search`); refused where no prior is
        fitted; the engine's (0: none) when omitted.

    A decision with a single legal move, or one that goes out, is played at
    once.  The sampling seed comes from the game's random generator, so a
    seeded game is reproducible.
    """

    name = "hint"
    sees_all = False
    default_engine = "auto"
    preset_samples = True
    """Sample a preset's measured deals per decision (:func:`~analyzer.analysis.engines.bot_samples_for`)
    when ``samples`` is omitted; the bots kept to measure against (``peek``, ``hint-v2``,
    ``hint-v1``) keep the engine's ``bot_samples``, as they were measured."""
    """The engine when none is named (``hint-v2``: ``"v2"``)."""

    __signature__: ClassVar[inspect.Signature | None] = _keywords(HintBotOptions)
    """The options as keywords, for :func:`analyzer.bots.registry.make_bot` (a subclass with an
    ``__init__`` of its own is read from it)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass with its own ``__init__`` (``hint-v1``: no options) is read from it."""
        super().__init_subclass__(**kwargs)
        if "__init__" in vars(cls):
            cls.__signature__ = None  # inspect reads the subclass's own __init__

    def __init__(self, options: HintBotOptions | None = None, /, **given: Any) -> None:
        """The bot with ``options``, or with the options as keywords (``HintBot(samples=8)``,
        as :func:`analyzer.bots.registry.make_bot` passes ``hint:samples=8``).

        Raises
        ------
        ConquianError
            If the engine is not this bot's or unknown, an option is out of its range or
            choices, or the engine never reads it (:func:`_refuse_unused`).
        """
        opts = HintBotOptions(**given) if options is None else replace(options, **given)
        engine = self._engine(opts.engine)
        opts.check()
        self._given = opts.search_options()
        _refuse_unused(engine, self._given)
        self.engine_name = engine
        # The engine's fields to replace (setup); node_budget is passed to advise on its own.
        self.overrides: dict[str, Any] = {k: v for k, v in self._given.items() if k != "node_budget"}
        if opts.infer is not None:
            self.overrides["infer"] = bool(opts.infer)
        if opts.read is not None:
            self.overrides["read"] = bool(opts.read)
            if opts.read == "learned":
                self.overrides["reader"] = "learned"
        self._samples = opts.samples
        self._node_budget = opts.node_budget
        self.time_limit = opts.time_limit
        self.prior = opts.prior or "auto"
        if opts.prior_weight is not None and self.prior == "none":
            raise ConquianError("prior_weight has no effect with prior=none")
        self._prior_weight = opts.prior_weight
        self.prior_weight = WEIGHT if opts.prior_weight is None else float(opts.prior_weight)
        if self.prior == "learned" and self.sees_all:
            raise ConquianError(f"prior={self.prior} has no effect with {self.name}, which sees every hand")
        self._setups: dict[Rules, tuple[Engine, int, int | None]] = {}

    def _engine(self, engine: str | None) -> str:
        """The engine's name: the one asked for, else :attr:`default_engine`; a bot of one engine
        (``hint-v2``) refuses another."""
        if (
            engine is not None
            and self.default_engine != AUTO
            and ENGINES.get(engine) is not ENGINES.get(self.default_engine)
        ):
            raise ConquianError(
                f"engine={engine}: {self.name} is the {self.default_engine} engine's bot "
                f"(for another engine: hint:engine={engine})"
            )
        engine = self.default_engine if engine is None else engine
        if engine not in ENGINE_NAMES:
            raise ConquianError(
                f"unknown hint engine: {engine!r} (known: {', '.join(ENGINE_NAMES)})"
            )
        return engine

    def check_variant(self, rules: Rules) -> None:
        """Refuse an option that the engine used for ``rules`` never reads (with ``auto``:
        ``hint:c=0.4`` in ``classic``, whose engine ``v2`` has no UCB1 constant).

        Raises
        ------
        ConquianError
            If a given option has no effect in this variant.
        """
        if self.engine_name == AUTO:
            _refuse_unused(engine_for(AUTO, rules).name, self._given, f"in {rules.name}")
        leaf = self._given.get("leaf")
        if leaf in LEARNED_LEAVES and leaf != "fitted" and evaluator_for(rules, leaf) is None:
            raise ConquianError(
                f"leaf={leaf} has no evaluation fitted for {rules.name} with these rules "
                "(docs/hint.md, the options of an engine)"
            )
        self._check_prior(rules)
        if rules.players == 2 and self._given.get("mode") == "paranoid":
            # With two players the other player is the only one: paranoid is the alpha-beta
            # search that "auto" already runs (as `conquian solve --mode` says).
            raise ConquianError(
                f"mode=paranoid has no effect in {rules.name}, which has two players"
            )

    def _check_prior(self, rules: Rules) -> None:
        """Refuse the prior's options on ``rules`` where no move prior is fitted for them
        (``prior=learned``, ``prior_bias``), or where the bot weighs none (``prior_weight``).

        Raises
        ------
        ConquianError
            Naming the option and the rules.
        """
        wanted = {"prior": self.prior if self.prior == "learned" else None,
                  "prior_bias": self._given.get("prior_bias") or None}  # fmt: skip
        for key, value in wanted.items():
            if value is not None and prior_for(rules) is None:
                raise ConquianError(
                    f"{key}={value} needs a move prior, and none is fitted for {rules.title} "
                    "(docs/hint.md, the options of an engine)"
                )
        if self._prior_weight is not None and not self.uses_prior(rules):
            raise ConquianError(
                f"prior_weight={self._prior_weight:g} has no effect: the bot weighs no move prior in "
                f"{rules.title} with engine {self.setup(rules)[0].name} (docs/hint.md, the options of an engine)"
            )

    def setup(self, rules: Rules) -> tuple[Engine, int, int | None]:
        """The engine, the deals sampled per decision and the node budget for a deal of ``rules``
        (``"auto"`` picks the engine by the number of players, :data:`analyzer.analysis.advisor.AUTO`)."""
        found = self._setups.get(rules)
        if found is None:
            base = engine_for(self.engine_name, rules)
            engine = replace(base, **self.overrides)
            samples = engine.bot_samples if self._samples is None else self._samples
            if self._samples is None and self.preset_samples:
                samples = bot_samples_for(engine, rules)
            budget = self._node_budget
            if budget is None and engine.search == "lookahead":
                budget = engine.bot_node_budget
            found = self._setups[rules] = (engine, samples, budget)
        return found

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """The advisor's best move on ``view``."""
        obvious = obvious_move(view)
        if obvious is not None:
            return obvious
        engine, samples, budget = self.setup(view.rules)
        advice = advise(
            view,
            samples=samples,
            seed=rng.randrange(2**31),
            time_limit=self.time_limit,
            node_budget=budget,
            engine=engine,
        )
        if self.uses_prior(view.rules):
            if engine.one_tree:  # one IS-MCTS tree: no verdict, its visits say which are close
                return pick_visited(view, advice, self.prior_weight)
            return pick(view, advice, self.prior_weight)
        return advice.estimates[0].move

    def uses_prior(self, rules: Rules) -> bool:
        """Whether the bot weighs the learned move prior on a deal of ``rules`` (``prior``:
        ``learned``, or ``auto`` where a prior is fitted for them, the engine is ``pimc`` and the
        bot does not see every hand)."""
        if self.prior != "auto":
            return self.prior == "learned"
        engine, _, _ = self.setup(rules)
        return not self.sees_all and weighs_prior(rules, engine.method_name)


class PeekBot(HintBot):
    """The hint bot given the other players' hands but not the stock order (a second ceiling).

    It answers "how much of the all-seeing bot's edge comes from knowing the
    hands?": the advisor runs with the hands open and samples only the
    stock order.  Same options as :class:`HintBot`.
    """

    name = "peek"
    preset_samples = False
    sees_all = True

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """The advisor's best move with every hand known and the stock order sampled."""
        obvious = obvious_move(view)
        if obvious is not None:
            return obvious
        engine, samples, budget = self.setup(view.rules)
        advice = advise(
            view.evolve(stock=None),
            samples=samples,
            seed=rng.randrange(2**31),
            time_limit=self.time_limit,
            node_budget=budget,
            engine=engine,
            open_hands=True,
        )
        return advice.estimates[0].move


class HintV2Bot(HintBot):
    """The second hint bot (engine ``v2`` in every variant: 8 deals, 1,000 positions each), the
    default before ``v3``, kept as a named bot so that every change is measured head to head
    against it.  Same options as :class:`HintBot`."""

    name = "hint-v2"
    preset_samples = False
    default_engine = "v2"


class HintV1Bot(HintBot):
    """The first hint bot (engine ``v1``: 16 deals, 2,000 positions per solve), kept as a
    named bot so that every change is measured head to head against it."""

    name = "hint-v1"
    preset_samples = False

    def __init__(self) -> None:
        super().__init__(samples=16, node_budget=2_000, engine="v1")


class OracleBot:
    """Sees every card and the stock order and plays the exact search's best move (a ceiling).

    Parameters
    ----------
    max_nodes : int
        Positions per solve; past it the search's heuristic decides.
    mode : str
        Search mode for three players (:func:`analyzer.search.exact.solve`).

    Raises
    ------
    ConquianError
        If ``max_nodes`` is not a whole number of at least 1 or ``mode`` is not
        ``auto``, ``maxn`` or ``paranoid``.
    """

    name = "oracle"
    sees_all = True

    def __init__(self, max_nodes: int = 200_000, mode: str = "auto") -> None:
        bot_option("max_nodes", max_nodes, whole=True, low=1, high=MAX_POSITIONS)
        bot_option("mode", mode, choices=("auto", "maxn", "paranoid"))
        self.max_nodes = max_nodes
        self.mode = mode
        self.solves = 0
        self.unproven = 0

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """The first move of the principal variation of ``view`` (the whole deal)."""
        obvious = obvious_move(view)
        if obvious is not None:
            return obvious
        result = Solver(mode=self.mode, max_nodes=self.max_nodes, time_limit=600.0).solve(view)
        self.solves += 1
        self.unproven += not result.proven
        if result.pv:
            return result.pv[0]
        return view.legal_moves()[0]

    def report(self) -> dict[str, int]:
        """Searches done and how many of them hit the budget (for ``bench/strength.py``)."""
        return {"searches": self.solves, "unproven": self.unproven}


class MctsBot:
    """Plays the most visited move of an IS-MCTS search from its own view (:func:`~analyzer.search.mcts.search`).

    Parameters
    ----------
    iterations : int
        Iterations per decision (1,000).
    c : float
        UCB1 exploration constant.
    leaf : str
        ``"rollout"``, ``"fitted"`` or ``"selfplay"``.
    infer : int
        1: determinize into deals consistent with the others' declines; 0
        (default, as first measured): uniform deals.
    method : str
        ``"uct"`` (the tree) or ``"halving"`` (:data:`~analyzer.search.mcts.METHODS`, :func:`~analyzer.search.mcts.search`).
    opponents : str
        ``"search"`` (default) or ``"policy"`` (:data:`OPPONENTS`, :func:`~analyzer.search.mcts.search`).
    playout : str
        ``"eager"`` (default) or ``"nomeld"`` (:data:`analyzer.search.playout.PLAYOUTS`, :func:`~analyzer.search.mcts.search`).

    A decision with a single legal move, or one that goes out (R15), is
    played at once.  The search seed comes from the game's random generator,
    so a seeded game is reproducible.
    """

    name = "mcts"
    sees_all = False

    def __init__(
        self,
        iterations: int = 1000,
        c: float = 0.7,
        leaf: str = "rollout",
        infer: int = 0,
        method: str = "uct",
        opponents: str = "search",
        playout: str = "eager",
    ) -> None:
        bot_option("iterations", iterations, whole=True, low=1, high=MAX_SAMPLES)
        bot_option("c", c, low=0)
        bot_option("leaf", leaf, choices=LEAVES)
        bot_option("infer", infer, whole=True, low=0, high=1)
        bot_option("method", method, choices=METHODS)
        bot_option("opponents", opponents, choices=OPPONENTS)
        bot_option("playout", playout, choices=PLAYOUTS)
        if opponents == "policy" and method == "halving":
            raise ConquianError(
                "opponents=policy has no effect with method=halving (its playouts play the policy already)"
            )
        self.opponents = one_of(opponents, OPPONENTS, "opponents")
        self.playout = one_of(playout, PLAYOUTS, "playout")
        self.method = one_of(method, METHODS, "method")
        self.iterations = iterations
        self.c = c
        self.leaf = one_of(leaf, LEAVES, "leaf")
        self.infer = bool(infer)

    def __repr__(self) -> str:
        return (
            f"MctsBot(iterations={self.iterations}, c={self.c}, leaf={self.leaf!r}, "
            f"infer={int(self.infer)}, method={self.method!r}, opponents={self.opponents!r}, "
            f"playout={self.playout!r})"
        )

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """The most visited root move of :func:`~analyzer.search.mcts.search` on ``view``."""
        obvious = obvious_move(view)
        if obvious is not None:
            return obvious
        found = mcts_search(
            view,
            self.iterations,
            seed=rng.randrange(2**31),
            c=self.c,
            leaf=self.leaf,
            infer=self.infer,
            method=self.method,
            opponents=self.opponents,
            playout=self.playout,
        )
        return found.moves[0].move
