"""Information-set Monte Carlo tree search from a player's own view (the ``mcts`` bot).

Single-observer IS-MCTS (Cowling, Powley and Whitehouse, "Information Set
Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012), written on the engine's
own :class:`~analyzer.core.state.GameState` (no OpenSpiel needed).  One tree is
grown from the searching player's view; every iteration

1. **determinizes**: draws a whole deal consistent with the view
   (:func:`analyzer.search.sampling.sample_world`: hidden hands uniform, or with
   ``infer`` from the deals where no other player holds a pair that melds
   with a card he declined; the stock order is *not* fixed, so every turned card is drawn
   uniformly from the stock when the iteration reaches it, R10 -- the search
   never sees the cards to come, unlike a PIMC search on ordered samples);
2. **selects** down the tree, at each decision among the moves legal in this
   deal, by UCB1 with availability counts (a move's exploration term counts
   the iterations in which it was legal, not the parent's visits); each
   player maximises his own mean reward (max-n in expectation, R20: a win
   is 1, a draw 1/2, another player's win 0); a turned card is a branch
   (the card is public);
3. **expands** one untried move;
4. **evaluates** the new leaf: ``leaf="rollout"`` plays the deal out with the
   ``eager`` policy (:func:`analyzer.search.playout.playout`), ``leaf="fitted"``
   takes the fitted win/draw/loss model
   (:func:`analyzer.search.evaluation.fitted_evaluator`) at once;
5. **backs up** the reward vector along the path.

With a move prior (``root_prior`` and ``prior_bias`` above 0) the root's selection adds PUCT's
prior term (Rosin 2011; Silver et al. 2017) to UCB1: ``prior_bias`` times the move's prior
probability times sqrt(availability) / (1 + visits), so that the moves the prior finds likely are
tried more often early; deeper nodes keep UCB1 alone.

Moves are tree edges by their text (a take, its layout and its pay card; a
pass; a force), which the other players see; the exchange gifts (R9) are the
only hidden moves, so the other players' gift edges differ between deals and
are averaged by the availability counts.  The final choice is the most
visited root move (ties: the better mean, then engine order).  Budgets are
counted in iterations, so a seeded search is the same on any machine.

``method="halving"`` replaces the tree by sequential halving over the root
moves, every surviving move played out on the same sampled deals (common
random numbers; :func:`search`).  Measured level with the tree in strength
(docs/hint.md), in less time; the tree stays the default.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from analyzer.core import native
from analyzer.core.errors import ConquianError, PositionError
from analyzer.core.moves import Move
from analyzer.core.state import GameState
from analyzer.search.evaluation import FittedEvaluator, evaluator_for
from analyzer.search.exact import Outcome, outcome_vector, paused_gc
from analyzer.search.native import MctsData, NativeMctsOptions, native_model
from analyzer.search.options import LEARNED_LEAVES, Leaf, Method, Opponents, Playout
from analyzer.search.options import LEAVES as _LEAVES
from analyzer.search.options import METHODS as _METHODS
from analyzer.search.playout import OPPONENTS, PLAYOUTS, eager_move, playout_outcome, random_turn
from analyzer.search.sampling import declined_pairs, sample_world

__all__ = [
    "LEAVES",
    "METHODS",
    "OPPONENTS",
    "MctsOptions",
    "MoveStats",
    "Node",
    "SearchResult",
    "search",
]

LEAVES = _LEAVES
"""Leaf evaluations: an ``eager`` playout to the end of the deal, or the fitted model."""

METHODS = _METHODS
"""Root searches: one IS-MCTS tree (``uct``), or sequential halving over the root moves with
every move played out on the same deals (``halving``, :func:`search`)."""


@dataclass(slots=True)
class Node:
    """One edge of the tree: the move that led here and its statistics.

    Attributes
    ----------
    visits : int
        Iterations that passed through this move.
    available : int
        Iterations in which this move was legal at its parent (availability count).
    reward : list of float
        Summed reward per player (win 1, draw 1/2, loss 0; R20).
    draws : float
        Summed draw results (a probability per iteration with the fitted leaf).
    children : dict
        Child edges by move.
    """

    visits: int = 0
    available: int = 0
    reward: list[float] = field(default_factory=list)
    draws: float = 0.0
    children: dict[Move, Node] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MoveStats:
    """A root move's statistics after a search.

    Attributes
    ----------
    move : Move
    visits : int
        Iterations that tried it.
    value : float
        Mean reward of the searching player after it, in [0, 1] (win 1, draw 1/2).
    win, draw : float
        Mean win and draw results of the searching player after it (probabilities).
    """

    move: Move
    visits: int
    value: float
    win: float = 0.0
    draw: float = 0.0


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What :func:`search` found.

    Attributes
    ----------
    moves : list of MoveStats
        The root moves, most visited first (ties: higher value, then the given order).
    iterations : int
        Iterations done (fewer than asked when the time limit or ``stop`` ended the search).
    seconds : float
    interrupted : bool
        ``stop`` ended the search.
    depth : float
        Median number of moves chosen in the tree per iteration (the rest was evaluated by the leaf).
    ended : float
        Fraction of the iterations that reached the end of the deal inside the tree.
    """

    moves: list[MoveStats]
    iterations: int
    seconds: float
    interrupted: bool
    depth: float
    ended: float


def _rewards(outcome: Outcome) -> tuple[list[float], float]:
    """Reward per player from an outcome vector (win probabilities, then the draw; R20): a win
    1, a draw 1/2, another player's win 0; and the draw probability."""
    draw = outcome[-1]
    return [win + 0.5 * draw for win in outcome[:-1]], draw


@dataclass(frozen=True, slots=True)
class MctsOptions:
    """How :func:`search` searches, checked once when made (the strategy object of OpenSpiel's
    ``MCTSBot``).

    Attributes
    ----------
    iterations : int
        Determinized descents, each adding one node and evaluating one leaf (at least 1).
    c : float
        UCB1 exploration constant (rewards lie in [0, 1]).
    leaf : str
        ``"rollout"``, ``"fitted"`` or ``"selfplay"`` (:data:`LEAVES`).
    infer : bool
        Determinize only into deals consistent with the other players' declines.
    method : str
        ``"uct"`` (the tree) or ``"halving"`` (sequential halving at the root, :data:`METHODS`).
    opponents : str
        ``"search"`` or ``"policy"`` (:data:`OPPONENTS`).
    playout : str
        ``"eager"`` or ``"nomeld"`` (:data:`analyzer.search.playout.PLAYOUTS`).
    time_limit : float or None
        Seconds; the search stops after the iteration that passes it.
    prior_bias : float
        Weight of the move prior's PUCT term at the root (module docstring; 0: UCB1 alone).

    Raises
    ------
    ConquianError
        If ``iterations`` is below 1, a choice is unknown, ``prior_bias`` is negative or not
        finite, or ``opponents="policy"`` or ``prior_bias`` comes with ``method="halving"`` (no
        effect: its playouts play the policy already, it has no tree).
    """

    iterations: int = 1000
    c: float = 0.7
    leaf: Leaf = "rollout"
    infer: bool = False
    method: Method = "uct"
    opponents: Opponents = "search"
    playout: Playout = "eager"
    time_limit: float | None = None
    prior_bias: float = 0.0

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise ConquianError(f"iterations must be at least 1, not {self.iterations}")
        if not 0 <= self.prior_bias < math.inf:
            raise ConquianError(f"prior_bias must be a number of at least 0, not {self.prior_bias}")
        if self.prior_bias and self.method == "halving":
            raise ConquianError("prior_bias has no effect with method=halving (it has no tree)")
        for name, choices in (("leaf", LEAVES), ("method", METHODS), ("opponents", OPPONENTS),
                              ("playout", PLAYOUTS)):  # fmt: skip
            value = getattr(self, name)
            if value not in choices:
                raise ConquianError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
        if self.opponents == "policy" and self.method == "halving":
            raise ConquianError(
                "opponents=policy has no effect with method=halving (its playouts play the policy already)"
            )


@paused_gc()
def search(
    view: GameState,
    iterations: int = 1000,
    *,
    seed: int | random.Random = 0,
    c: float = 0.7,
    leaf: Leaf = "rollout",
    infer: bool = False,
    method: Method = "uct",
    opponents: Opponents = "search",
    playout: Playout = "eager",
    prior_bias: float = 0.0,
    root_moves: Sequence[Move] | None = None,
    time_limit: float | None = None,
    stop: Callable[[], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
    weights: Mapping[int, Sequence[float]] | None = None,
    options: MctsOptions | None = None,
    root_prior: Sequence[float] | None = None,
) -> SearchResult:
    """IS-MCTS from the view of the player to act (module docstring).

    Parameters
    ----------
    view : GameState
        The acting player's view: his hand known, the others' hands and the
        stock order may be hidden.  A whole deal works too (its hidden parts
        are then known, except that the stock order is always drawn at random).
    iterations, c, leaf, infer, method, opponents, playout, time_limit, prior_bias
        How to search, as the fields of :class:`MctsOptions` (``method="halving"``: sequential
        halving at the root with common random numbers, Karnin, Koren and Somekh, ICML 2013:
        the budget split over ceil(log2 K) rounds for K root moves, every surviving move played
        on the same whole deals, the better half surviving; ``leaf`` and ``c`` unused);
        ignored when ``options`` is given.
    seed : int or random.Random
        Seeds the sampling, the turned cards and the playouts.
    root_moves : sequence of Move, optional
        The root moves to weigh (legal ones; default every legal move).
    stop : callable, optional
        Polled between iterations; True ends the search (``interrupted``).
    progress : callable, optional
        Called with (iterations done, iterations planned) every 50 iterations and at the end.
    weights : mapping, optional
        The paid-card reading: hidden hands drawn with these card weights
        (:func:`analyzer.search.sampling.sample_deal`); ``None``: uniformly.
    options : MctsOptions, optional
        The search's options as one checked value.
    root_prior : sequence of float, optional
        The move prior's probability of each root move (in the order of ``root_moves``, or of
        the legal moves), weighed by ``options.prior_bias`` at the root; ``None``: no prior.

    Returns
    -------
    SearchResult
        Every root move with its visits and values, most visited first.

    Raises
    ------
    ConquianError
        If the options are not valid (:class:`MctsOptions`), the deal is over, it is a chance
        node, the acting player's hand is hidden, a root move is not legal, or ``root_prior``
        does not give one probability (0 to 1) per root move.
    PositionError
        If the view is impossible (the hidden counts do not fit the unseen cards).
    """
    opts = options or MctsOptions(
        iterations, c, leaf, infer, method, opponents, playout, time_limit, prior_bias
    )
    root_list = _root_moves(view, root_moves)
    bias = _root_bias(opts.prior_bias, root_prior, len(root_list))
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    # None: rollouts (also where no model was fitted for these very rules).
    model = evaluator_for(view.rules, opts.leaf) if opts.leaf in LEARNED_LEAVES else None
    if native.ACTIVE and (model is None or model.players == view.rules.players):
        return _native_search(view, root_list, opts, rng, model, stop, progress, weights, bias)
    if opts.method == "halving":
        return _halving(view, root_list, opts, rng, stop, progress, weights)
    return _Tree(view, root_list, opts, rng, model, weights, bias).run(stop, progress)


def _root_bias(prior_bias: float, root_prior: Sequence[float] | None, k: int) -> list[float] | None:
    """The prior's term per root move: ``prior_bias`` times its probability; ``None`` without a
    prior or a weight.

    Raises
    ------
    ConquianError
        If ``root_prior`` does not give one probability (0 to 1) for each of the ``k`` root moves.
    """
    if root_prior is None or not prior_bias:
        return None
    probabilities = [float(q) for q in root_prior]
    if len(probabilities) != k or not all(0 <= q <= 1 for q in probabilities):
        raise ConquianError(f"root_prior must give one probability (0 to 1) per root move ({k})")
    return [prior_bias * q for q in probabilities]


def _root_moves(view: GameState, root_moves: Sequence[Move] | None) -> list[Move]:
    """The root moves of a search: every legal move, or the legal ones given (each once).

    Raises
    ------
    ConquianError
        If nobody chooses here, the chooser's hand is hidden, or a given move is not legal.
    """
    if view.is_terminal() or view.is_chance_node():
        raise ConquianError(f"no decision to search: {view.describe()}")
    if view.hands[view.to_act] is None:
        raise ConquianError(f"player {view.to_act}'s hand is hidden: nothing to search from")
    legal = view.legal_moves()
    if root_moves is None:
        return legal
    root_list = list(dict.fromkeys(root_moves))
    bad = [m for m in root_list if m not in legal]
    if bad or not root_list:
        raise ConquianError(f"not a legal root move here: {bad[0] if bad else 'none given'}")
    return root_list


class _Tree:
    """One IS-MCTS tree: each iteration :meth:`descend`s a sampled deal, :meth:`evaluate`s the
    leaf it reached and :meth:`backup`s the rewards (module docstring)."""

    def __init__(
        self,
        view: GameState,
        root_list: list[Move],
        opts: MctsOptions,
        rng: random.Random,
        model: FittedEvaluator | None,
        weights: Mapping[int, Sequence[float]] | None,
        bias: list[float] | None = None,
    ) -> None:
        self.view, self.root_list, self.opts, self.rng, self.model = view, root_list, opts, rng, model
        self.weights, self.bias = weights, bias
        self.me = view.to_act
        self.n = view.rules.players
        self.quiet = self.me if opts.playout == "nomeld" else -1
        self.pairs = declined_pairs(view, self.me) if opts.infer else None
        self.root = Node(reward=[0.0] * self.n)

    def run(
        self, stop: Callable[[], bool] | None, progress: Callable[[int, int], None] | None
    ) -> SearchResult:
        """Iterate until the budget, the time limit or ``stop``; the root moves' statistics."""
        iterations, time_limit = self.opts.iterations, self.opts.time_limit
        start = time.perf_counter()
        done = ended = 0
        interrupted = False
        depths: list[int] = []
        while done < iterations:
            if done and stop is not None and stop():
                interrupted = True
                break
            if done and time_limit is not None and time.perf_counter() - start > time_limit:
                break
            state = sample_world(self.view, self.me, self.rng, infer=self.opts.infer,
                                 pairs=self.pairs, weights=self.weights)  # fmt: skip
            path, state, expanded = self.descend(state)
            depths.append(len(path))
            ended += state.is_terminal()
            self.backup(path, self.evaluate(state, expanded))
            done += 1
            if progress is not None and (done % 50 == 0 or done == iterations):
                progress(done, iterations)
        if progress is not None and done % 50 and done != iterations:
            progress(done, iterations)
        depths.sort()
        return SearchResult(
            self.stats(), done, time.perf_counter() - start, interrupted,
            float(depths[len(depths) // 2]) if depths else 0.0, ended / done if done else 0.0,
        )  # fmt: skip

    def _step(self, state: GameState) -> Move | None:
        """The move not searched here: a turned card, or (opponent model) another player's."""
        if state.is_chance_node():
            return random_turn(state, self.rng)
        if self.opts.opponents == "policy" and state.to_act != self.me:
            return eager_move(state, state.legal_moves(), self.rng)
        return None

    def descend(self, state: GameState) -> tuple[list[Node], GameState, bool]:
        """Select by UCB1 with availability counts down the tree and expand one untried move:
        the edges chosen, the position reached and whether a node was added."""
        node, path, first = self.root, [], True
        while not state.is_terminal():
            step = self._step(state)
            if step is not None:
                child = node.children.get(step)
                if child is None:
                    child = node.children[step] = Node(reward=[0.0] * self.n)
                node = child
                state = state.apply(step, check=False)
                continue
            moves = self.root_list if first else state.legal_moves()
            bias = self.bias if first else None
            first = False
            children = node.children
            untried = []
            for m in moves:
                child = children.get(m)
                if child is None:
                    untried.append(m)
                else:
                    child.available += 1
            if untried:
                move = untried[self.rng.randrange(len(untried))]
                child = children[move] = Node(available=1, reward=[0.0] * self.n)
                path.append(child)
                return path, state.apply(move, check=False), True
            move = self._select(moves, children, state.to_act, bias)
            node = children[move]
            path.append(node)
            state = state.apply(move, check=False)
        return path, state, False

    def _select(
        self, moves: list[Move], children: dict[Move, Node], p: int, bias: list[float] | None = None
    ) -> Move:
        """UCB1 with availability counts for player ``p``, plus the prior's term per move
        (``bias``, the root's; module docstring); ties drawn at random."""
        c, log, sqrt = self.opts.c, math.log, math.sqrt
        best = -1.0
        chosen: list[Move] = []
        for i, m in enumerate(moves):
            ch = children[m]
            score = ch.reward[p] / ch.visits + c * sqrt(log(ch.available) / ch.visits)
            if bias is not None:
                score += bias[i] * sqrt(ch.available) / (1 + ch.visits)
            if score > best + 1e-12:
                best, chosen = score, [m]
            elif score > best - 1e-12:
                chosen.append(m)
        return chosen[0] if len(chosen) == 1 else chosen[self.rng.randrange(len(chosen))]

    def evaluate(self, state: GameState, expanded: bool) -> Outcome:
        """The leaf's outcome: the end of the deal, the fitted model, or an eager playout."""
        if state.is_terminal():
            return outcome_vector(state)
        if self.model is not None and expanded:
            return self.model(state)
        return playout_outcome(state, "eager", self.rng, self.quiet)

    def backup(self, path: list[Node], outcome: Outcome) -> None:
        """Add the rewards of ``outcome`` to every edge of ``path``."""
        reward, draw = _rewards(outcome)
        for edge in path:
            edge.visits += 1
            edge.draws += draw
            r = edge.reward
            for q in range(self.n):
                r[q] += reward[q]

    def stats(self) -> list[MoveStats]:
        """The root moves' statistics, most visited first (ties: the better mean, then order)."""
        stats = [_move_stats(m, self.root.children.get(m), self.me) for m in self.root_list]
        order = sorted(range(len(stats)), key=lambda i: (-stats[i].visits, -stats[i].value, i))
        return [stats[i] for i in order]


def _move_stats(move: Move, node: Node | None, me: int) -> MoveStats:
    """A root move's statistics from its edge (``None`` or unvisited: never tried)."""
    if node is None or node.visits == 0:
        return MoveStats(move, 0, 0.0)
    draw = node.draws / node.visits
    value = node.reward[me] / node.visits
    return MoveStats(move, node.visits, value, value - 0.5 * draw, draw)


def _native_search(
    view: GameState,
    root_list: list[Move],
    opts: MctsOptions,
    rng: random.Random,
    model: FittedEvaluator | None,
    stop: Callable[[], bool] | None,
    progress: Callable[[int, int], None] | None,
    weights: Mapping[int, Sequence[float]] | None,
    bias: list[float] | None = None,
) -> SearchResult:
    """:func:`search` by the native core: the same deals, tree and answer for the same seed."""
    n = view.rules.players
    table = [list(weights[p]) if p in weights else None for p in range(n)] if weights else None
    options: NativeMctsOptions = {
        "iterations": opts.iterations, "rng": native.rng_state(rng), "c": opts.c,
        "model": None if model is None else native_model(model), "infer": opts.infer,
        "halving": opts.method == "halving", "policy": opts.opponents == "policy",
        "nomeld": opts.playout == "nomeld", "time_limit": opts.time_limit, "weights": table,
        "stop": stop, "progress": progress, "root_bias": bias,
    }  # fmt: skip
    try:
        data: MctsData = native.native_module().mcts_search(
            native.pack_rules(view.rules), native.pack_state(view), [native.pack_move(m) for m in root_list], options
        )
    except ValueError as exc:
        raise PositionError(str(exc)) from None
    native.set_rng_state(rng, data["rng"])
    moves = [MoveStats(native.unpack_move(s["move"]), s["visits"], s["value"], s["win"], s["draw"])
             for s in data["moves"]]  # fmt: skip
    return SearchResult(moves, data["iterations"], data["seconds"], data["interrupted"], data["depth"], data["ended"])


def _halving(
    view: GameState,
    root_list: list[Move],
    opts: MctsOptions,
    rng: random.Random,
    stop: Callable[[], bool] | None,
    progress: Callable[[int, int], None] | None,
    weights: Mapping[int, Sequence[float]] | None,
) -> SearchResult:
    """:func:`search` with ``method="halving"``: sequential halving with common random numbers."""
    me = view.to_act
    quiet = me if opts.playout == "nomeld" else -1
    pairs = declined_pairs(view, me) if opts.infer else None
    iterations, time_limit = opts.iterations, opts.time_limit
    start = time.perf_counter()
    k = len(root_list)
    rounds = max(1, math.ceil(math.log2(k)))
    visits = [0] * k
    reward = [0.0] * k
    draws = [0.0] * k
    ended_at = [0] * k  # the round after which a move was dropped (survivors: rounds)
    alive = list(range(k))
    done = 0
    interrupted = False
    for r in range(rounds):
        if len(alive) == 1 and r:
            break
        # An equal share per round, the last one taking what is left; the first round plays
        # every move at least once, so a budget below the number of moves still ranks them all.
        budget = iterations - done if r == rounds - 1 else iterations // rounds
        worlds = budget // len(alive)
        if worlds < 1:
            if r:
                break
            worlds = 1
        for _ in range(worlds):
            if done and stop is not None and stop():
                interrupted = True
                break
            if done and time_limit is not None and time.perf_counter() - start > time_limit:
                break
            world = sample_world(
                view, me, rng, infer=opts.infer, pairs=pairs, ordered=True, weights=weights
            )
            seed = rng.randrange(2**62)
            for i in alive:
                state = world.apply(root_list[i], check=False)
                outcome = playout_outcome(state, "eager", random.Random(seed), quiet)
                rewards, draw = _rewards(outcome)
                visits[i] += 1
                reward[i] += rewards[me]
                draws[i] += draw
                done += 1
                if progress is not None and done % 50 == 0:
                    progress(min(done, iterations), iterations)
        if interrupted or (time_limit is not None and time.perf_counter() - start > time_limit):
            break
        if r < rounds - 1:
            alive.sort(key=lambda i: (-reward[i] / max(1, visits[i]), i))
            for i in alive[(len(alive) + 1) // 2 :]:
                ended_at[i] = r
            alive = alive[: (len(alive) + 1) // 2]
    for i in alive:
        ended_at[i] = rounds
    if progress is not None:
        progress(min(done, iterations), iterations)
    stats = []
    for i, m in enumerate(root_list):
        if visits[i] == 0:
            stats.append(MoveStats(m, 0, 0.0))
        else:
            draw = draws[i] / visits[i]
            value = reward[i] / visits[i]
            stats.append(MoveStats(m, visits[i], value, value - 0.5 * draw, draw))
    # Later survivors first; among moves dropped together, or the last ones, the better mean.
    order = sorted(range(k), key=lambda i: (-ended_at[i], -stats[i].visits, -stats[i].value, i))
    return SearchResult(
        [stats[i] for i in order], done, time.perf_counter() - start, interrupted, 1.0, 0.0
    )
