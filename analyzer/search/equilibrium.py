"""Equilibrium endgames for two players: the end of a deal solved as a game of hidden cards.

From a two-player position seen by the player to act, the endgame from the *public* state (the
layouts, the dead cards, the centre card, the counts, and the cards both players know from the
exchange, R9) is a finite two-player zero-sum game (R20): a chance node deals the cards neither
player has shown, both hands uniformly among the deals consistent with what is public (or in
proportion to a prior), each stock card is turned uniformly from those left (R10), and the deal
is played out under the rules.  A player's information set is his hand as dealt here and the
public moves since: every move of the game is public once the exchange is over, so the game
has perfect recall.

:func:`solve_endgame` builds the tree and solves it exactly with the sequence-form linear
program (Koller, Megiddo and von Stengel, "Efficient computation of equilibria for extensive
two-person games", 1996) on OR-Tools' GLOP: one LP per player, each giving his realization plan
and the game value.  The answer for the player to act is his equilibrium strategy at his own
hand, the value of his hand, each move's value if he deviates to it (both playing the
equilibrium afterwards), and the exploitability of the solution, from exact best responses
(:func:`analyzer.search.cfr.exploitability`: each information set, descendants first, plays its
best move against the other's strategy).

Two methods solve the tree (``method=``):

* ``"lp"``: the sequence-form LP above, the reference, exact up to the LP's floating-point
  tolerance;
* ``"cfr"``: CFR+ (:mod:`analyzer.search.cfr`) until the exploitability of its average
  strategies is at most ``tolerance`` (default 1e-4) or a cap is reached, by the native core
  when it is in use (``native/src/search/equilibrium.rs``: the same tree built and the same
  iterates, 30 to 100 times faster end to end, ``bench/equilibrium.py``), else in Python.

By default (``method=None``) the native core's CFR+ solves a tree of more than
:data:`LP_NODES` positions and the LP a smaller one (exact, and quick at that size); without
the native core the LP solves every tree.

The uniform deal ignores what earlier play says about the hands (a card declined, a card paid):
``prior`` weights the deals by per-card weights instead (the hint's hand reading,
:func:`analyzer.search.inference.infer_weights`).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from analyzer.core import native
from analyzer.core.cards import FULL_DECK, iter_mask
from analyzer.core.errors import ConquianError, PositionError
from analyzer.core.moves import Move
from analyzer.core.state import GameState, Phase
from analyzer.search.cfr import exploitability, solve_cfr
from analyzer.search.native import EquilibriumOptions, EquilibriumResult

__all__ = [
    "DEFAULT_ITERATIONS",
    "DEFAULT_MAX_NODES",
    "DEFAULT_TOLERANCE",
    "LP_NODES",
    "METHODS",
    "EndgameTooLarge",
    "EndgameTree",
    "Equilibrium",
    "build_endgame",
    "native_prior",
    "solve_endgame",
]

DEFAULT_MAX_NODES = 200_000
"""Most positions of an endgame tree built by default (the chance deals counted)."""

METHODS = ("lp", "cfr")
"""The methods of :func:`solve_endgame`: the sequence-form LP and CFR+."""

DEFAULT_TOLERANCE = 1e-4
"""The exploitability at which CFR+ stops by default."""

DEFAULT_ITERATIONS = 100_000
"""The most CFR+ iterations by default."""

LP_NODES = 5_000
"""The largest tree the LP solves by default when the native core is in use (about 0.2 s end
to end: ``bench/equilibrium.py``); a larger one goes to the native CFR+."""

_TOLERANCE = 1e-9


class EndgameTooLarge(ConquianError):
    """The endgame's tree has more positions than the budget allows."""


class LinearProgramFailed(ConquianError):
    """GLOP did not solve the sequence-form LP to optimality (numerical trouble); the endgame is
    then solved by CFR+ instead."""


@dataclass(slots=True)
class EndgameTree:
    """The game tree of an endgame (module docstring), nodes by index, the root at 0.

    Attributes
    ----------
    kind : list of str
        Per node: ``"chance"``, ``"decision"`` or ``"terminal"``.
    children : list of list of (int, float)
        Per node: its children with the chance probability (chance nodes) or the action's index
        in its information set's ``actions`` (decision nodes).
    infoset : list of int
        Per decision node, its information set; -1 elsewhere.
    value : list of float
        Per terminal node, the result for player 0 (R20); 0 elsewhere.
    infosets : list of tuple
        Per information set: (player, his hand as dealt, the public moves since the root).
    actions : list of list of Move
        Per information set, its moves in the engine's order.
    parent_seq : list of int
        Per information set, the sequence of its player that leads to it (0: the empty one).
    seq_base : list of int
        Per information set, the index of its first action's sequence (the others follow).
    sequences : list of int
        Per player, his number of sequences (the empty one included).
    root_hands : dict
        Per root deal (a child of the root, by node index), the two hands dealt.
    """

    kind: list[str] = field(default_factory=list)
    children: list[list[tuple[int, float]]] = field(default_factory=list)
    infoset: list[int] = field(default_factory=list)
    value: list[float] = field(default_factory=list)
    infosets: list[tuple[int, int, tuple[Move, ...]]] = field(default_factory=list)
    actions: list[list[Move]] = field(default_factory=list)
    parent_seq: list[int] = field(default_factory=list)
    seq_base: list[int] = field(default_factory=list)
    sequences: list[int] = field(default_factory=lambda: [1, 1])
    root_hands: dict[int, tuple[int, int]] = field(default_factory=dict)

    @property
    def nodes(self) -> int:
        """The number of positions in the tree."""
        return len(self.kind)


@dataclass(frozen=True, slots=True)
class Equilibrium:
    """The answer of :func:`solve_endgame`, for the player to act at his own hand.

    Attributes
    ----------
    player : int
    strategy : dict of Move to float
        His equilibrium probabilities of his moves (summing to 1).
    value : float
        The value of his hand under the equilibrium, -1..1 (R20).
    move_values : dict of Move to float
        Each move's value if he plays it and both play the equilibrium afterwards.
    exploitability : float
        Half the sum of what each player gains by a best response to the other's equilibrium
        strategy (the NashConv over two, as OpenSpiel's ``exploitability``); 0 for an exact one.
    game_value : float
        The value of the whole endgame for player 0, his hand not yet dealt (the LP's value).
    nodes : int
    infosets : int
    deals : int
        The chance deals of the two hands at the root.
    seconds : float
    method : str
        ``"lp"`` or ``"cfr"`` (module docstring).
    iterations : int
        CFR+ iterations run (0 for the LP).
    tolerance : float
        The exploitability CFR+ was asked to reach (0 for the LP, exact up to its
        floating-point tolerance); ``exploitability`` is the one reached.
    stopped_by : str or None
        Why CFR+ stopped before reaching ``tolerance``: ``"iterations"``, ``"time"`` or
        ``"interrupted"``; ``None`` when it reached it (and for the LP).
    """

    player: int
    strategy: dict[Move, float]
    value: float
    move_values: dict[Move, float]
    exploitability: float
    game_value: float
    nodes: int
    infosets: int
    deals: int
    seconds: float
    method: str = "lp"
    iterations: int = 0
    tolerance: float = 0.0
    stopped_by: str | None = None


def _public_hidden(view: GameState) -> tuple[int, tuple[int, int], tuple[int, int]]:
    """The cards neither player has shown, the cards each is known (by both) to hold from the
    exchange (R9), and the two hand counts."""
    table = view.table_mask()
    unseen = FULL_DECK & ~table
    known = [0, 0]
    if view.gave:
        for q, card in enumerate(view.gave):
            if card is not None and unseen >> card & 1:
                known[(q + 1) % 2] |= 1 << card
    return unseen, (known[0], known[1]), (view.counts[0], view.counts[1])


def _deals(
    unseen: int, known: tuple[int, int], counts: tuple[int, int],
    prior: Mapping[int, Sequence[float]] | None,
) -> list[tuple[int, int, float]]:  # fmt: skip
    """Every deal of the two hands from ``unseen`` (each holding its known cards) with its
    probability: uniform, or in proportion to the product of ``prior``'s card weights."""
    free = [c for c in iter_mask(unseen & ~(known[0] | known[1]))]
    need0 = counts[0] - known[0].bit_count()
    need1 = counts[1] - known[1].bit_count()
    if need0 < 0 or need1 < 0 or need0 + need1 > len(free):
        raise PositionError("the hand counts do not fit the cards not shown (R1, R7)")
    out: list[tuple[int, int, float]] = []
    for first in itertools.combinations(free, need0):
        h0 = known[0] | sum(1 << c for c in first)
        rest = [c for c in free if not h0 >> c & 1]
        for second in itertools.combinations(rest, need1):
            h1 = known[1] | sum(1 << c for c in second)
            weight = 1.0
            if prior:
                for p, hand in ((0, h0), (1, h1)):
                    if p in prior:
                        for c in iter_mask(hand & ~known[p]):
                            weight *= prior[p][c]
            out.append((h0, h1, weight))
    total = sum(w for _, _, w in out)
    if total <= 0:
        raise PositionError("the prior gives every deal of the hidden cards a weight of 0")
    return [(h0, h1, w / total) for h0, h1, w in out]


def _check_view(view: GameState, max_nodes: int) -> None:
    """Refuse what is not a two-player endgame with a move to choose after the exchange, and a
    tree with more deals than the budget (each deal is at least one position more), before the
    deals are listed (an early deal has billions)."""
    rules = view.rules
    if rules.players != 2:
        raise PositionError(
            f"equilibrium endgames are for two players; this {rules.name} deal has {rules.players}"
        )
    if view.phase is Phase.EXCHANGE:
        raise PositionError("the exchange comes first (R9): solve the endgame after it")
    if view.phase is Phase.OVER:
        raise PositionError(f"no move to choose: {view.describe()}")
    unseen, known, counts = _public_hidden(view)
    free = (unseen & ~(known[0] | known[1])).bit_count()
    need = [counts[p] - known[p].bit_count() for p in (0, 1)]
    if min(need) >= 0 and need[0] + need[1] <= free:
        number = math.comb(free, need[0]) * math.comb(free - need[0], need[1])
        if number + 1 > max_nodes:
            raise EndgameTooLarge(
                f"the endgame has more than {max_nodes:,} positions ({number:,} deals of the hidden hands)"
            )


def build_endgame(
    view: GameState,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    prior: Mapping[int, Sequence[float]] | None = None,
    stop: Callable[[], bool] | None = None,
) -> EndgameTree:
    """The game tree of the endgame of ``view`` (module docstring).

    Parameters
    ----------
    view : GameState
        A two-player position after the exchange; the hands given are not used (both are dealt).
    max_nodes : int
        Most positions built.
    prior : mapping of int to sequence of float, optional
        Per player, a weight per card index for the deal of his hand (uniform without).
    stop : callable, optional
        Polled as the tree grows; when it returns True the build stops with
        :class:`EndgameTooLarge`.

    Raises
    ------
    PositionError
        If the position is not a two-player position with a move to choose after the exchange.
    EndgameTooLarge
        If the tree has more than ``max_nodes`` positions.
    """
    _check_view(view, max_nodes)
    unseen, known, counts = _public_hidden(view)
    deals = _deals(unseen, known, counts, prior)
    tree = EndgameTree()
    tree.kind.append("chance")
    tree.children.append([])
    tree.infoset.append(-1)
    tree.value.append(0.0)
    index: dict[tuple[int, int, tuple[Move, ...]], int] = {}
    builder = _Builder(tree, index, max_nodes, stop)
    public = view.evolve(stock=None)
    for h0, h1, prob in deals:
        world = public.evolve(hands=(h0, h1), counts=(h0.bit_count(), h1.bit_count()))
        child = builder.expand(world, (h0, h1), (), (0, 0))
        tree.children[0].append((child, prob))
        tree.root_hands[child] = (h0, h1)
    return tree


class _Builder:
    """Depth-first construction of an :class:`EndgameTree` with information sets keyed by
    (player, his hand as dealt, the public moves since the root)."""

    def __init__(
        self,
        tree: EndgameTree,
        index: dict[tuple[int, int, tuple[Move, ...]], int],
        max_nodes: int,
        stop: Callable[[], bool] | None,
    ) -> None:
        self.tree, self.index, self.max_nodes, self.stop = tree, index, max_nodes, stop

    def _node(self, kind: str, infoset: int = -1, value: float = 0.0) -> int:
        tree = self.tree
        if tree.nodes >= self.max_nodes:
            raise EndgameTooLarge(f"the endgame has more than {self.max_nodes:,} positions")
        if self.stop is not None and tree.nodes % 1024 == 0 and self.stop():
            raise EndgameTooLarge("stopped while building the endgame")
        tree.kind.append(kind)
        tree.children.append([])
        tree.infoset.append(infoset)
        tree.value.append(value)
        return tree.nodes - 1

    def expand(
        self, state: GameState, dealt: tuple[int, int], history: tuple[Move, ...], seqs: tuple[int, int]
    ) -> int:
        """The node of ``state``, its subtree built; ``seqs`` is each player's last sequence."""
        tree = self.tree
        if state.phase is Phase.OVER:
            return self._node("terminal", value=state.returns()[0])
        if state.phase is Phase.TURN:
            outcomes = state.chance_outcomes()
            node = self._node("chance")
            kids = [
                (self.expand(state.apply(move, check=False), dealt, (*history, move), seqs), prob)
                for move, prob in outcomes
            ]
            tree.children[node] = kids
            return node
        player = state.to_act
        key = (player, dealt[player], history)
        infoset = self.index.get(key)
        if infoset is None:
            moves = state.legal_moves()
            if len(moves) == 1:
                # No choice (a forced pass, the one lay-in): the same at every position of the
                # information set, so it needs none; the move stays in the public history.
                return self.expand(state.apply(moves[0], check=False), dealt, (*history, moves[0]), seqs)
            infoset = len(tree.infosets)
            self.index[key] = infoset
            tree.infosets.append(key)
            tree.actions.append(moves)
            tree.parent_seq.append(seqs[player])
            tree.seq_base.append(tree.sequences[player])
            tree.sequences[player] += len(moves)
        moves = tree.actions[infoset]
        node = self._node("decision", infoset)
        base = tree.seq_base[infoset]
        kids = []
        for k, move in enumerate(moves):
            nxt = (base + k, seqs[1]) if player == 0 else (seqs[0], base + k)
            kids.append((self.expand(state.apply(move, check=False), dealt, (*history, move), nxt), float(k)))
        tree.children[node] = kids
        return node


def _payoffs(tree: EndgameTree) -> dict[tuple[int, int], float]:
    """The sequence-form payoff matrix for player 0: per pair of sequences reaching a terminal
    node, the sum of its chance probability times its result."""
    pay: dict[tuple[int, int], float] = {}
    stack: list[tuple[int, float, int, int]] = [(0, 1.0, 0, 0)]
    while stack:
        node, chance, s0, s1 = stack.pop()
        kind = tree.kind[node]
        if kind == "terminal":
            if tree.value[node]:
                pay[s0, s1] = pay.get((s0, s1), 0.0) + chance * tree.value[node]
            continue
        if kind == "chance":
            for child, prob in tree.children[node]:
                stack.append((child, chance * prob, s0, s1))
            continue
        infoset = tree.infoset[node]
        player = tree.infosets[infoset][0]
        base = tree.seq_base[infoset]
        for child, k in tree.children[node]:
            seq = base + int(k)
            stack.append((child, chance, seq, s1) if player == 0 else (child, chance, s0, seq))
    return pay


def _realization_lp(
    tree: EndgameTree, pay: Mapping[tuple[int, int], float], player: int
) -> tuple[list[float], float]:
    """The sequence-form LP of ``player`` (0 maximizes the payoff, 1 minimizes it): his
    realization plan and the game value for player 0.

    max over x, q of q_root subject to the plan's constraints E x = e, x >= 0, and for each
    sequence of the other player F^T q <= A^T x (player 0; signs reversed for player 1).
    """
    from ortools.linear_solver import pywraplp

    solver = pywraplp.Solver.CreateSolver("GLOP")
    other = 1 - player
    sign = 1.0 if player == 0 else -1.0
    x = [solver.NumVar(0.0, solver.infinity(), "") for _ in range(tree.sequences[player])]
    mine = [k for k, key in enumerate(tree.infosets) if key[0] == player]
    theirs = [k for k, key in enumerate(tree.infosets) if key[0] == other]
    solver.Add(x[0] == 1.0)
    for k in mine:
        base, count = tree.seq_base[k], len(tree.actions[k])
        solver.Add(sum(x[base + a] for a in range(count)) == x[tree.parent_seq[k]])
    # q: one free variable for the other player's root and each of his information sets.
    q_root = solver.NumVar(-solver.infinity(), solver.infinity(), "")
    q = {k: solver.NumVar(-solver.infinity(), solver.infinity(), "") for k in theirs}
    # One constraint per sequence of the other player: (F^T q)_s <= sign * (A^T x)_s.
    terms: list[list[tuple[int, float]]] = [[] for _ in range(tree.sequences[other])]
    for (s0, s1), amount in pay.items():
        mine_seq, their_seq = (s0, s1) if player == 0 else (s1, s0)
        terms[their_seq].append((mine_seq, sign * amount))
    # F's column of sequence s: +1 on the row of the infoset where s is played (or the root for the
    # empty sequence), -1 on the rows of the infosets whose parent sequence is s.
    owner: dict[int, int | None] = {0: None}
    children: dict[int, list[int]] = {}
    for k in theirs:
        base = tree.seq_base[k]
        for a in range(len(tree.actions[k])):
            owner[base + a] = k
        children.setdefault(tree.parent_seq[k], []).append(k)
    for s in range(tree.sequences[other]):
        k_owner = owner.get(s)
        row = q_root if k_owner is None else q[k_owner]
        lhs = row - sum(q[k] for k in children.get(s, []))
        solver.Add(lhs <= sum(coef * x[i] for i, coef in terms[s]))
    solver.Maximize(q_root)
    status = solver.Solve()
    if status != pywraplp.Solver.OPTIMAL:
        raise LinearProgramFailed(f"the endgame's linear program did not solve (status {status})")
    plan = [v.solution_value() for v in x]
    return plan, sign * q_root.solution_value()


def _behaviour(tree: EndgameTree, plan: Sequence[float], player: int) -> dict[int, list[float]]:
    """Per information set of ``player``, his move probabilities from his realization plan
    (uniform where the plan never reaches it)."""
    out: dict[int, list[float]] = {}
    for k, key in enumerate(tree.infosets):
        if key[0] != player:
            continue
        base, count = tree.seq_base[k], len(tree.actions[k])
        reach = plan[tree.parent_seq[k]]
        weights = [max(0.0, plan[base + a]) for a in range(count)]
        total = sum(weights)
        if reach <= _TOLERANCE or total <= _TOLERANCE:
            out[k] = [1.0 / count] * count
        else:
            out[k] = [w / total for w in weights]
    return out


def _values(tree: EndgameTree, policy: Mapping[int, Sequence[float]]) -> list[float]:
    """Every node's value for player 0 with both players playing ``policy`` (bottom-up: a child
    is always built after its parent, so reverse index order is a valid order)."""
    value = [0.0] * tree.nodes
    for node in range(tree.nodes - 1, -1, -1):
        kind = tree.kind[node]
        if kind == "terminal":
            value[node] = tree.value[node]
        elif kind == "chance":
            value[node] = sum(prob * value[child] for child, prob in tree.children[node])
        else:
            probs = policy[tree.infoset[node]]
            value[node] = sum(probs[int(k)] * value[child] for child, k in tree.children[node])
    return value


def solve_endgame(
    view: GameState,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    prior: Mapping[int, Sequence[float]] | None = None,
    stop: Callable[[], bool] | None = None,
    method: str | None = None,
    tolerance: float = DEFAULT_TOLERANCE,
    max_iterations: int = DEFAULT_ITERATIONS,
    time_limit: float | None = None,
) -> Equilibrium:
    """The equilibrium of the endgame of ``view`` for its player to act (module docstring).

    Parameters
    ----------
    view : GameState
        A two-player position after the exchange, the hand of the player to act known.
    max_nodes, prior
        As :func:`build_endgame`.
    stop : callable, optional
        Polled while the tree is built (True stops it with :class:`EndgameTooLarge`) and once
        per CFR+ iteration (True ends it with the answer so far, ``stopped_by="interrupted"``).
    method : str, optional
        ``"lp"`` or ``"cfr"``; by default CFR+ on the native core for a tree of more than
        :data:`LP_NODES` positions, else the LP (module docstring).
    tolerance, max_iterations, time_limit
        CFR+ stops when the exploitability is at most ``tolerance``, or after
        ``max_iterations`` iterations or ``time_limit`` seconds (the answer then says the
        exploitability reached).

    Returns
    -------
    Equilibrium

    Raises
    ------
    PositionError
        If the position is not one (two players, after the exchange, a choice to make, the hand
        of the player to act known).
    EndgameTooLarge
        If its tree is larger than ``max_nodes``.
    ConquianError
        If ``method`` names no method or a CFR+ cap is not a number at least 0 (iterations: 1).
    """
    begin = time.perf_counter()
    if method is not None and method not in METHODS:
        raise ConquianError(f"no equilibrium method {method!r} (lp or cfr)")
    if not (tolerance >= 0.0 and max_iterations >= 1 and (time_limit is None or time_limit >= 0.0)):
        raise ConquianError("CFR+ needs a tolerance of at least 0, at least one iteration and seconds of at least 0")
    if view.rules.players != 2:
        raise PositionError(
            f"equilibrium endgames are for two players; this {view.rules.name} deal has {view.rules.players}"
        )
    me = view.to_act
    if view.hands[me] is None:
        raise PositionError(f"player {me}'s hand is hidden: the equilibrium is his, from his view")
    if method != "lp" and native.ACTIVE:
        _check_view(view, max_nodes)
        found = _native_solve(
            view, max_nodes, prior, stop, tolerance, max_iterations, time_limit, LP_NODES if method is None else 0
        )
        if found is not None:
            return replace(found, seconds=time.perf_counter() - begin)
        method = "lp"  # a tree small enough for the LP
    method = method or "lp"  # the Python core solves every tree by the LP by default
    tree = build_endgame(view, max_nodes=max_nodes, prior=prior, stop=stop)
    if method == "lp":
        try:
            pay = _payoffs(tree)
            plan0, value0 = _realization_lp(tree, pay, 0)
            plan1, _ = _realization_lp(tree, pay, 1)
        except LinearProgramFailed:
            method = "cfr"  # GLOP did not finish: CFR+ to the tolerance instead
    if method == "cfr":
        solved = solve_cfr(tree, tolerance=tolerance, max_iterations=max_iterations, time_limit=time_limit, stop=stop)
        policy = dict(enumerate(solved.average))
        values = _values(tree, policy)
        answer = _answer(tree, view, policy, values, solved.exploitability, values[0])
        answer = replace(answer, method="cfr", iterations=solved.iterations, tolerance=tolerance, stopped_by=solved.stopped_by)
        return replace(answer, seconds=time.perf_counter() - begin)
    policy = {**_behaviour(tree, plan0, 0), **_behaviour(tree, plan1, 1)}
    values = _values(tree, policy)
    # The exploitability by exact best responses (descendant information sets first), as CFR+
    # checks its own: no second linear program, which GLOP may fail to finish.
    gap = exploitability(tree, [policy[k] for k in range(len(tree.infosets))])
    answer = _answer(tree, view, policy, values, gap, value0)
    return replace(answer, seconds=time.perf_counter() - begin)


def _answer(
    tree: EndgameTree,
    view: GameState,
    policy: Mapping[int, Sequence[float]],
    values: Sequence[float],
    exploitability: float,
    game_value: float,
) -> Equilibrium:
    """The answer for the player to act of ``view`` at his own hand, from both players'
    ``policy`` and every node's value for player 0 under it (``seconds`` left at 0)."""
    me = view.to_act
    hand = view.hands[me]
    # His own information set: the root deals that give him his hand; he acts first.
    mine = [(child, prob) for child, prob in tree.children[0] if tree.root_hands[child][me] == hand]
    weight = sum(prob for _, prob in mine)
    if not mine or weight <= 0:
        raise PositionError("his hand is not among the deals of the endgame (a prior of 0?)")
    sign = 1.0 if me == 0 else -1.0
    first = mine[0][0]
    infoset = tree.infoset[first]
    if infoset >= 0 and not tree.infosets[infoset][2]:
        actions = tree.actions[infoset]
        move_values = {
            move: sign * sum(prob * values[tree.children[child][a][0]] for child, prob in mine) / weight
            for a, move in enumerate(actions)
        }
        strategy = dict(zip(actions, policy[infoset], strict=True))
    else:  # one legal move: no information set, and the hand's value is the move's
        actions = view.legal_moves()
        move_values = {actions[0]: sign * sum(prob * values[child] for child, prob in mine) / weight}
        strategy = {actions[0]: 1.0}
    value = sum(strategy[m] * move_values[m] for m in actions)
    return Equilibrium(
        player=me,
        strategy=strategy,
        value=value,
        move_values=move_values,
        exploitability=exploitability,
        game_value=game_value,
        nodes=tree.nodes,
        infosets=len(tree.infosets),
        deals=len(tree.children[0]),
        seconds=0.0,
    )


def native_prior(prior: Mapping[int, Sequence[float]] | None) -> list[list[float] | None] | None:
    """A prior as the native core reads it: per player his 40 card weights, or ``None``."""
    if not prior:
        return None
    return [[float(w) for w in prior[p]] if p in prior else None for p in (0, 1)]


def _native_solve(
    view: GameState,
    max_nodes: int,
    prior: Mapping[int, Sequence[float]] | None,
    stop: Callable[[], bool] | None,
    tolerance: float,
    max_iterations: int,
    time_limit: float | None,
    lp_below: int,
) -> Equilibrium | None:
    """CFR+ by the native core; ``None`` for a tree of at most ``lp_below`` positions (left to
    the LP)."""
    options: EquilibriumOptions = {
        "max_nodes": max_nodes, "tolerance": tolerance, "max_iterations": max_iterations,
        "time_limit": time_limit, "prior": native_prior(prior), "stop": stop, "lp_below": lp_below,
        "every": False,
    }  # fmt: skip
    try:
        result: EquilibriumResult = native.native_module().equilibrium(
            native.pack_rules(view.rules), native.pack_state(view), options
        )
    except ValueError as exc:
        raise PositionError(str(exc)) from None
    why = result["why"]
    if why == "positions":
        raise EndgameTooLarge(f"the endgame has more than {max_nodes:,} positions")
    if why == "interrupted":
        raise EndgameTooLarge("stopped while building the endgame")
    found, size = result["answer"], result["size"]
    if found is None:
        return None
    actions = [native.unpack_move(m) for m in found["moves"]]
    return Equilibrium(
        player=found["player"],
        strategy=dict(zip(actions, found["strategy"], strict=True)),
        value=found["value"],
        move_values=dict(zip(actions, found["move_values"], strict=True)),
        exploitability=found["exploitability"],
        game_value=found["game_value"],
        nodes=size["nodes"],
        infosets=size["infosets"],
        deals=size["deals"],
        seconds=0.0,
        method="cfr",
        iterations=found["iterations"],
        tolerance=tolerance,
        stopped_by=found["stopped_by"],
    )
