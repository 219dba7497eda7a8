"""Information-set Monte Carlo tree search from a player's own view (the ``mcts`` bot).

Single-observer IS-MCTS (Cowling, Powley and Whitehouse, "Information Set
Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012), written on the engine's
own :class:`~analyzer.state.GameState` (no OpenSpiel needed).  One tree is
grown from the searching player's view; every iteration

1. **determinizes**: draws a whole deal consistent with the view
   (:func:`analyzer.sampling.sample_world`: hidden hands uniform, no
   inference; the stock order is *not* fixed, so every turned card is drawn
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
   ``eager`` policy (:func:`analyzer.playout.playout`), ``leaf="fitted"``
   takes the fitted win/draw/loss model
   (:func:`analyzer.evaluation.fitted_evaluator`) at once;
5. **backs up** the reward vector along the path.

Moves are tree edges by their text (a take, its layout and its pay card; a
pass; a force), which the other players see; the exchange gifts (R9) are the
only hidden moves, so the other players' gift edges differ between deals and
are averaged by the availability counts.  The final choice is the most
visited root move (ties: the better mean, then engine order).  Budgets are
counted in iterations, so a seeded search is the same on any machine.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from analyzer.errors import ConquianError
from analyzer.evaluation import fitted_evaluator
from analyzer.moves import LayIn, Move, Take
from analyzer.playout import playout
from analyzer.sampling import sample_world
from analyzer.state import GameState

__all__ = ["LEAVES", "MctsBot", "MoveStats", "Node", "search"]

LEAVES = ("rollout", "fitted")
"""Leaf evaluations: an ``eager`` playout to the end of the deal, or the fitted model."""


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
    children : dict
        Child edges by move.
    """

    visits: int = 0
    available: int = 0
    reward: list[float] = field(default_factory=list)
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
    """

    move: Move
    visits: int
    value: float


def _reward(state: GameState) -> list[float]:
    """Reward per player of a finished deal: winner 1, others 0; a draw 1/2 for all (R20)."""
    n = state.rules.players
    if state.winner is None:
        return [0.5] * n
    return [1.0 if p == state.winner else 0.0 for p in range(n)]


def _fitted_reward(state: GameState, model: object) -> list[float]:
    """Expected reward per player from the fitted outcome probabilities (win 1, draw 1/2)."""
    probs = model(state)  # type: ignore[operator]
    n = state.rules.players
    draw = probs[n]
    return [probs[p] + 0.5 * draw for p in range(n)]


def search(
    view: GameState,
    iterations: int = 1000,
    *,
    seed: int | random.Random = 0,
    c: float = 0.7,
    leaf: str = "rollout",
) -> list[MoveStats]:
    """IS-MCTS from the view of the player to act (module docstring); root moves, most visited first.

    Parameters
    ----------
    view : GameState
        The acting player's view: his hand known, the others' hands and the
        stock order may be hidden.  A whole deal works too (its hidden parts
        are then known, except that the stock order is always drawn at random).
    iterations : int
        Determinized descents, each adding one node and evaluating one leaf.
    seed : int or random.Random
        Seeds the sampling, the turned cards and the playouts.
    c : float
        UCB1 exploration constant (rewards lie in [0, 1]).
    leaf : str
        ``"rollout"`` or ``"fitted"`` (:data:`LEAVES`).

    Returns
    -------
    list of MoveStats
        Every legal root move, most visited first (ties: higher value, then engine order).

    Raises
    ------
    ConquianError
        If the deal is over, it is a chance node, the acting player's hand is
        hidden, ``iterations`` is below 1 or ``leaf`` unknown.
    PositionError
        If the view is impossible (the hidden counts do not fit the unseen cards).
    """
    if iterations < 1:
        raise ConquianError(f"iterations must be at least 1, not {iterations}")
    if leaf not in LEAVES:
        raise ConquianError(f"leaf must be one of {', '.join(LEAVES)}, not {leaf!r}")
    if view.is_terminal() or view.is_chance_node():
        raise ConquianError(f"no decision to search: {view.describe()}")
    me = view.to_act
    if view.hands[me] is None:
        raise ConquianError(f"player {me}'s hand is hidden: nothing to search from")
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    model = fitted_evaluator(view.rules.name) if leaf == "fitted" else None
    if leaf == "fitted" and model is None:
        leaf = "rollout"  # no fitted model for these rules
    n = view.rules.players
    root = Node(reward=[0.0] * n)
    root_moves = view.legal_moves()
    log = math.log
    sqrt = math.sqrt
    for _ in range(iterations):
        state = sample_world(view, me, rng)
        node = root
        path: list[Node] = []
        expanded = False
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                move = outcomes[rng.randrange(len(outcomes))][0]
                child = node.children.get(move)
                if child is None:
                    child = node.children[move] = Node(reward=[0.0] * n)
                state = state.apply(move, check=False)
                node = child
                continue
            moves = state.legal_moves()
            p = state.to_act
            children = node.children
            untried = []
            for m in moves:
                ch = children.get(m)
                if ch is None:
                    untried.append(m)
                else:
                    ch.available += 1
            if untried:
                move = untried[rng.randrange(len(untried))]
                child = children[move] = Node(available=1, reward=[0.0] * n)
                path.append(child)
                state = state.apply(move, check=False)
                expanded = True
                break
            best = -1.0
            chosen: list[Move] = []
            for m in moves:
                ch = children[m]
                score = ch.reward[p] / ch.visits + c * sqrt(log(ch.available) / ch.visits)
                if score > best + 1e-12:
                    best, chosen = score, [m]
                elif score > best - 1e-12:
                    chosen.append(m)
            move = chosen[0] if len(chosen) == 1 else chosen[rng.randrange(len(chosen))]
            node = children[move]
            path.append(node)
            state = state.apply(move, check=False)
        if state.is_terminal():
            reward = _reward(state)
        elif model is not None and expanded:
            reward = _fitted_reward(state, model)
        else:
            reward = _reward_of_playout(state, rng)
        for edge in path:
            edge.visits += 1
            r = edge.reward
            for q in range(n):
                r[q] += reward[q]
    stats = []
    for m in root_moves:
        ch = root.children.get(m)
        if ch is None or ch.visits == 0:
            stats.append(MoveStats(m, 0, 0.0))
        else:
            stats.append(MoveStats(m, ch.visits, ch.reward[me] / ch.visits))
    order = sorted(range(len(stats)), key=lambda i: (-stats[i].visits, -stats[i].value, i))
    return [stats[i] for i in order]


def _reward_of_playout(state: GameState, rng: random.Random) -> list[float]:
    """One ``eager`` playout's reward per player (win 1, draw 1/2, loss 0)."""
    return [(r + 1.0) / 2.0 for r in playout(state, "eager", rng)]


class MctsBot:
    """Plays the most visited move of an IS-MCTS search from its own view (:func:`search`).

    Parameters
    ----------
    iterations : int
        Iterations per decision (1,000).
    c : float
        UCB1 exploration constant.
    leaf : str
        ``"rollout"`` or ``"fitted"``.

    A decision with a single legal move, or one that goes out (R15), is
    played at once.  The search seed comes from the game's random generator,
    so a seeded game is reproducible.
    """

    name = "mcts"
    sees_all = False

    def __init__(self, iterations: int = 1000, c: float = 0.7, leaf: str = "rollout") -> None:
        if iterations < 1:
            raise ConquianError(f"iterations must be at least 1, not {iterations}")
        if leaf not in LEAVES:
            raise ConquianError(f"leaf must be one of {', '.join(LEAVES)}, not {leaf!r}")
        self.iterations = iterations
        self.c = c
        self.leaf = leaf

    def __repr__(self) -> str:
        return f"MctsBot(iterations={self.iterations}, c={self.c}, leaf={self.leaf!r})"

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """The most visited root move of :func:`search` on ``view``."""
        moves = view.legal_moves()
        if not moves:
            raise ConquianError(f"no move to choose: {view.describe()}")
        if len(moves) == 1:
            return moves[0]
        for move in moves:
            if isinstance(move, (Take, LayIn)) and move.pay is None:
                return move  # going out wins at once (R15)
        stats = search(view, self.iterations, seed=rng.randrange(2**31), c=self.c, leaf=self.leaf)
        return stats[0].move
