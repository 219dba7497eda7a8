"""CFR+ on an endgame's tree: the reference of the native core's equilibrium solver.

Counterfactual regret minimization (Zinkevich, Johanson, Bowling and Piccione 2007) in its CFR+
form (Tammelin 2014; Tammelin, Burch, Johanson and Bowling 2015): regret matching+ (a regret
never below 0), alternating updates (player 0's regrets, then player 1's against player 0's
new strategy) and linear averaging (iteration ``t`` weighs ``t`` in the average strategy).  It
runs on the tree :func:`analyzer.search.equilibrium.build_endgame` builds, until the
exploitability of the average strategies, computed exactly by a best response of each player
on the tree, is at most the tolerance, or a cap (iterations, seconds, a stop request) is reached.

A subtree that the others' play (chance and the other player) reaches with probability 0 adds
nothing to the regrets and is not visited.  The native solver (``native/src/search/
equilibrium.rs``) does the same arithmetic in the same order, so both cores give the same
iterates, bit for bit.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["CfrResult", "GameTree", "average_strategy", "exploitability", "next_check", "solve_cfr"]


class GameTree(Protocol):
    """The fields of :class:`analyzer.search.equilibrium.EndgameTree` CFR reads (see there)."""

    kind: list[str]
    children: list[list[tuple[int, float]]]
    infoset: list[int]
    value: list[float]
    infosets: list[tuple[int, int, tuple[Any, ...]]]
    actions: list[list[Any]]
    parent_seq: list[int]
    seq_base: list[int]
    sequences: list[int]

    @property
    def nodes(self) -> int: ...


@dataclass(frozen=True, slots=True)
class CfrResult:
    """The answer of :func:`solve_cfr`.

    Attributes
    ----------
    average : list of list of float
        Per information set, the average strategy (its moves' probabilities).
    iterations : int
    exploitability : float
        Of the average strategies: half of what the two players together gain by a best
        response to the other's (the NashConv over two).
    stopped_by : str or None
        ``None`` when the exploitability reached the tolerance, else ``"iterations"``,
        ``"time"`` or ``"interrupted"``.
    """

    average: list[list[float]]
    iterations: int
    exploitability: float
    stopped_by: str | None


def next_check(iteration: int, reached: float, tolerance: float) -> int:
    """The iteration of the next exploitability check after one at ``iteration`` found
    ``reached``: where the exploitability would reach ``tolerance`` if it falls as 1/t^2 (as
    CFR+'s does on these endgames), but at least an eighth and at most all of the iterations
    done later (a check costs about two iterations)."""
    low, high = max(1, iteration // 8), iteration
    if tolerance <= 0.0:
        return iteration + high
    wanted = math.ceil(iteration * math.sqrt(reached / tolerance)) - iteration
    return iteration + min(high, max(low, wanted))


def _utility(value: float, player: int) -> float:
    return value if player == 0 else -value


class _Cfr:
    """The regrets, the strategy sums and the current strategies of every information set."""

    def __init__(self, tree: GameTree) -> None:
        self.tree = tree
        self.owner = [key[0] for key in tree.infosets]
        counts = [len(moves) for moves in tree.actions]
        self.regret = [[0.0] * n for n in counts]
        self.acc = [[0.0] * n for n in counts]
        self.total = [[0.0] * n for n in counts]
        self.current = [[1.0 / n] * n for n in counts]
        self.mine = ([k for k, p in enumerate(self.owner) if p == 0], [k for k, p in enumerate(self.owner) if p == 1])

    def walk(self, node: int, player: int, reach: float) -> float:
        """The value of ``node`` for ``player`` under the current strategies, his instantaneous
        regrets added; ``reach`` is the others' probability (chance and the other player's) of
        reaching it."""
        if reach == 0.0:
            return 0.0
        tree = self.tree
        kind = tree.kind[node]
        if kind == "terminal":
            return _utility(tree.value[node], player)
        value = 0.0
        if kind == "chance":
            for child, prob in tree.children[node]:
                value += prob * self.walk(child, player, reach * prob)
            return value
        infoset = tree.infoset[node]
        current = self.current[infoset]
        if self.owner[infoset] != player:
            for a, (child, _) in enumerate(tree.children[node]):
                share = current[a]
                value += share * self.walk(child, player, reach * share)
            return value
        values = [self.walk(child, player, reach) for child, _ in tree.children[node]]
        for a, v in enumerate(values):
            value += current[a] * v
        acc = self.acc[infoset]
        for a, v in enumerate(values):
            acc[a] += reach * (v - value)
        return value

    def update(self, player: int, iteration: int) -> None:
        """After ``player``'s walk: his strategy sums (weighted by ``iteration`` and his own
        probability of reaching each information set), regrets (floored at 0) and new current
        strategies (regret matching)."""
        tree = self.tree
        plan = [0.0] * tree.sequences[player]
        plan[0] = 1.0
        own: list[float] = []
        for k in self.mine[player]:
            reach = plan[tree.parent_seq[k]]
            own.append(reach)
            base = tree.seq_base[k]
            for a, share in enumerate(self.current[k]):
                plan[base + a] = reach * share
        for k, reach in zip(self.mine[player], own, strict=True):
            current, regret, acc, total = self.current[k], self.regret[k], self.acc[k], self.total[k]
            weight = iteration * reach
            for a in range(len(current)):
                total[a] += weight * current[a]
                r = regret[a] + acc[a]
                regret[a] = r if r > 0.0 else 0.0
                acc[a] = 0.0
            positive = 0.0
            for r in regret:
                positive += r
            if positive > 0.0:
                for a in range(len(current)):
                    current[a] = regret[a] / positive
            else:
                for a in range(len(current)):
                    current[a] = 1.0 / len(current)


def average_strategy(total: Sequence[Sequence[float]]) -> list[list[float]]:
    """Per information set, its strategy sums normalized (uniform where they are all 0)."""
    out = []
    for sums in total:
        whole = 0.0
        for x in sums:
            whole += x
        out.append([x / whole for x in sums] if whole > 0.0 else [1.0 / len(sums)] * len(sums))
    return out


class _BestResponse:
    """The value for ``player`` of his best response to the other's ``policy``: each of his
    information sets, descendants first, plays the move of the highest value summed over its
    positions weighted by the others' probability of reaching them."""

    def __init__(self, tree: GameTree, policy: Sequence[Sequence[float]], player: int, nodes_of: Sequence[Sequence[int]]) -> None:
        self.tree, self.policy, self.player, self.nodes_of = tree, policy, player, nodes_of
        self.owner = [key[0] for key in tree.infosets]
        self.reach = [0.0] * tree.nodes
        self.memo: dict[int, float] = {}
        self.choice: dict[int, int] = {}

    def fill(self, node: int, reach: float) -> None:
        """The others' probability of reaching each of ``player``'s positions."""
        if reach == 0.0:
            return
        tree = self.tree
        kind = tree.kind[node]
        if kind == "terminal":
            return
        if kind == "chance":
            for child, prob in tree.children[node]:
                self.fill(child, reach * prob)
            return
        infoset = tree.infoset[node]
        if self.owner[infoset] == self.player:
            self.reach[node] = reach
            for child, _ in tree.children[node]:
                self.fill(child, reach)
            return
        for a, (child, _) in enumerate(tree.children[node]):
            share = self.policy[infoset][a]
            self.fill(child, reach * share)

    def value(self, node: int, reach: float) -> float:
        if reach == 0.0:
            return 0.0
        tree = self.tree
        kind = tree.kind[node]
        if kind == "terminal":
            return _utility(tree.value[node], self.player)
        value = 0.0
        if kind == "chance":
            for child, prob in tree.children[node]:
                value += prob * self.value(child, reach * prob)
            return value
        infoset = tree.infoset[node]
        if self.owner[infoset] == self.player:
            if infoset not in self.choice:
                self.choose(infoset)
            return self.memo[node]
        for a, (child, _) in enumerate(tree.children[node]):
            share = self.policy[infoset][a]
            value += share * self.value(child, reach * share)
        return value

    def choose(self, infoset: int) -> None:
        tree = self.tree
        sums = [0.0] * len(tree.actions[infoset])
        found: list[tuple[int, list[float]]] = []
        for node in self.nodes_of[infoset]:
            reach = self.reach[node]
            if reach == 0.0:
                continue
            values = [self.value(child, reach) for child, _ in tree.children[node]]
            for a, v in enumerate(values):
                sums[a] += reach * v
            found.append((node, values))
        best = 0
        for a in range(1, len(sums)):
            if sums[a] > sums[best]:
                best = a
        self.choice[infoset] = best
        for node, values in found:
            self.memo[node] = values[best]


def infoset_nodes(tree: GameTree) -> list[list[int]]:
    """Per information set, its positions in index order."""
    out: list[list[int]] = [[] for _ in tree.infosets]
    for node, infoset in enumerate(tree.infoset):
        if infoset >= 0:
            out[infoset].append(node)
    return out


def exploitability(tree: GameTree, policy: Sequence[Sequence[float]], nodes_of: Sequence[Sequence[int]] | None = None) -> float:
    """Half the sum of what each player gains by a best response to the other's ``policy``
    (per information set, its moves' probabilities): 0 at an equilibrium."""
    nodes_of = infoset_nodes(tree) if nodes_of is None else nodes_of
    gains = []
    for player in (0, 1):
        best = _BestResponse(tree, policy, player, nodes_of)
        best.fill(0, 1.0)
        gains.append(best.value(0, 1.0))
    return max(0.0, (gains[0] + gains[1]) / 2.0)


def solve_cfr(
    tree: GameTree,
    *,
    tolerance: float,
    max_iterations: int,
    time_limit: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> CfrResult:
    """CFR+ on ``tree`` (module docstring) until the exploitability of the average strategies is
    at most ``tolerance``, checked after iteration 1 and then at :func:`next_check`, or
    ``max_iterations`` are done, ``time_limit`` seconds have passed or ``stop()`` returns True
    (polled once per iteration); then the exploitability reached."""
    start = time.perf_counter()
    cfr = _Cfr(tree)
    nodes_of = infoset_nodes(tree)
    iteration, check = 0, 1
    while True:
        iteration += 1
        for player in (0, 1):
            cfr.walk(0, player, 1.0)
            cfr.update(player, iteration)
        stopped_by = None
        if iteration >= max_iterations:
            stopped_by = "iterations"
        elif time_limit is not None and time.perf_counter() - start > time_limit:
            stopped_by = "time"
        elif stop is not None and stop():
            stopped_by = "interrupted"
        if iteration == check or stopped_by is not None:
            average = average_strategy(cfr.total)
            reached = exploitability(tree, average, nodes_of)
            check = next_check(iteration, reached, tolerance)
            if reached <= tolerance:
                return CfrResult(average, iteration, reached, None)
            if stopped_by is not None:
                return CfrResult(average, iteration, reached, stopped_by)
