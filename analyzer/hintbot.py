"""Bots that search: ``hint`` (the advisor), ``hint-v1`` (the first advisor) and ``oracle``.

``hint`` and ``hint-v1`` play the best move of :func:`analyzer.advisor.advise`
from their own view with the ``v2`` and ``v1`` engines.  Their budgets are
counted in deals and positions, not seconds, so a seeded game is the same
game on any machine and under any load (the time limit is only a safety net).

``oracle`` is a ceiling, not a player: it is given the whole deal (every
hand and the stock order, :attr:`~analyzer.bots.Bot.sees_all`) and plays
the first move of the exact search's principal variation
(:func:`analyzer.search.solve`).
"""

from __future__ import annotations

import random
from dataclasses import replace

from analyzer.advisor import ENGINES, advise
from analyzer.errors import ConquianError
from analyzer.moves import LayIn, Move, Take
from analyzer.search import Solver
from analyzer.state import GameState

__all__ = ["HintBot", "HintV1Bot", "OracleBot", "PeekBot"]


def _obvious(view: GameState) -> Move | None:
    """The move to play without thinking: the only legal one, or going out (R15)."""
    moves = view.legal_moves()
    if len(moves) == 1:
        return moves[0]
    for move in moves:
        if isinstance(move, (Take, LayIn)) and move.pay is None:
            return move  # going out wins at once (R15)
    return None


class HintBot:
    """Plays the best move of :func:`analyzer.advisor.advise` from its own view.

    Parameters
    ----------
    samples : int
        Deals sampled per decision (8: a bot plays many deals; ``hint`` samples 48).
    node_budget : int, optional
        Positions per sampled deal (1,000; engine ``v1``: its own default).
    time_limit : float
        Seconds per decision, a safety net: the budgets above normally end
        the search first, which keeps seeded games reproducible.
    engine : str
        The advisor's engine (``"v2"``).
    mode : str, optional
        Search mode for three players (``"maxn"`` or ``"paranoid"``); the engine's when omitted.
    max_depth : int, optional
        Deepest lookahead, in offers; the engine's when omitted.
    stock : str, optional
        ``"known"`` or ``"chance"`` (:class:`analyzer.advisor.Engine`); the engine's when omitted.
    infer : int, optional
        1: sample only deals consistent with the others' declines; 0: uniform; the engine's
        when omitted.
    leaf : str, optional
        Leaf evaluation: ``"fitted"``, ``"melded"`` or ``"rollout"``; the engine's when omitted.
    playouts : int, optional
        Playouts per leaf with ``leaf="rollout"``; the engine's when omitted.

    A decision with a single legal move, or one that goes out, is played at
    once.  The sampling seed comes from the game's random generator, so a
    seeded game is reproducible.
    """

    name = "hint"
    sees_all = False

    def __init__(
        self,
        samples: int = 8,
        time_limit: float = 30.0,
        node_budget: int | None = None,
        engine: str = "v2",
        mode: str | None = None,
        max_depth: int | None = None,
        stock: str | None = None,
        infer: int | None = None,
        leaf: str | None = None,
        playouts: int | None = None,
        spread: int | None = None,
    ) -> None:
        if engine not in ENGINES:
            raise ConquianError(f"unknown hint engine: {engine!r} (known: {', '.join(ENGINES)})")
        base = ENGINES[engine]
        self.engine = replace(
            base,
            mode=base.mode if mode is None else mode,
            max_depth=base.max_depth if max_depth is None else max_depth,
            stock=base.stock if stock is None else stock,
            infer=base.infer if infer is None else bool(infer),
            leaf=base.leaf if leaf is None else leaf,
            playouts=base.playouts if playouts is None else playouts,
            spread=base.spread if spread is None else spread,
        )
        self.samples = samples
        self.time_limit = time_limit
        self.node_budget = node_budget if node_budget is not None or engine != "v2" else 1_000

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """The advisor's best move on ``view``."""
        obvious = _obvious(view)
        if obvious is not None:
            return obvious
        advice = advise(
            view,
            samples=self.samples,
            seed=rng.randrange(2**31),
            time_limit=self.time_limit,
            node_budget=self.node_budget,
            engine=self.engine,
        )
        return advice.estimates[0].move


class PeekBot(HintBot):
    """The hint bot given the other players' hands but not the stock order (a second ceiling).

    It answers "how much of the all-seeing bot's edge comes from knowing the
    hands?": the advisor runs with the hands open and samples only the
    stock order.  Same options as :class:`HintBot`.
    """

    name = "peek"
    sees_all = True

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """The advisor's best move with every hand known and the stock order sampled."""
        obvious = _obvious(view)
        if obvious is not None:
            return obvious
        advice = advise(
            view.evolve(stock=None),
            samples=self.samples,
            seed=rng.randrange(2**31),
            time_limit=self.time_limit,
            node_budget=self.node_budget,
            engine=self.engine,
            open_hands=True,
        )
        return advice.estimates[0].move


class HintV1Bot(HintBot):
    """The first hint bot (engine ``v1``: 16 deals, 2,000 positions per solve), kept as a
    named bot so that every change is measured head to head against it."""

    name = "hint-v1"

    def __init__(self) -> None:
        super().__init__(samples=16, node_budget=2_000, engine="v1")


class OracleBot:
    """Sees every card and the stock order and plays the exact search's best move (a ceiling).

    Parameters
    ----------
    max_nodes : int
        Positions per solve; past it the search's heuristic decides.
    mode : str
        Search mode for three players (:func:`analyzer.search.solve`).
    """

    name = "oracle"
    sees_all = True

    def __init__(self, max_nodes: int = 200_000, mode: str = "auto") -> None:
        self.max_nodes = max_nodes
        self.mode = mode
        self.solves = 0
        self.unproven = 0

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """The first move of the principal variation of ``view`` (the whole deal)."""
        obvious = _obvious(view)
        if obvious is not None:
            return obvious
        result = Solver(mode=self.mode, max_nodes=self.max_nodes, time_limit=600.0).solve(view)
        self.solves += 1
        self.unproven += not result.proven
        if result.pv:
            return result.pv[0]
        return view.legal_moves()[0]
