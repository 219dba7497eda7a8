"""A hint request, checked once for both front ends: :class:`HintOptions` holds what ``conquian
hint`` and the engine's (and the board's) ``hint`` request ask for, says which options have no
effect where they are given, refuses the one that cannot be honoured, and runs the hint.

The front ends only word the findings: the command line names ``--samples``, the engine names
``'samples'`` (their messages differ in form, never in what they find).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from analyzer.analysis.advisor import (
    DEFAULT_ENGINE,
    Advice,
    Engine,
    advise,
    engine_for,
    searching_engine,
)
from analyzer.analysis.engines import MCTS_SEARCHES
from analyzer.analysis.lines import Line, expected_lines
from analyzer.analysis.whereabouts import Whereabouts, whereabouts
from analyzer.core.errors import ConquianError
from analyzer.core.moves import Move
from analyzer.core.state import GameState

__all__ = ["CARD_OPTIONS", "HINT_ONLY", "SAMPLING", "HintFindings", "HintOptionError", "HintOptions"]

SAMPLING = ("samples", "seed", "time_limit", "budget", "engine", "read")
"""The options of a sampled hint, which a static one does not read."""

CARD_OPTIONS = ("view", "card_samples")
"""The options of the card table (``cards``), which have no effect without it."""

HINT_ONLY = ("samples", "time_limit", "budget", "top")
"""The options that shape the hint alone: with ``view`` (the card table alone) they have no
effect, nor do the flags ``static``, ``open`` and ``line``."""


class HintOptionError(ConquianError):
    """An option given that cannot be honoured here; ``option`` names it."""

    def __init__(self, message: str, option: str) -> None:
        super().__init__(message)
        self.option = option


@dataclass(frozen=True)
class HintFindings:
    """The options given that have no effect here, by why (each front end words them).

    Attributes
    ----------
    static : tuple of str
        Sampling options given with a static hint (a one-move evaluation).
    one_deal : tuple of str
        ``samples`` or ``seed`` given with every hand open and the stock order given (one deal,
        nothing sampled).
    read_open : bool
        ``read`` given with every hand open (nothing to read).
    line_static : bool
        ``line`` asked with a static hint (no search, so no line).
    no_cards : tuple of str
        :data:`CARD_OPTIONS` given without ``cards``.
    cards_only : tuple of str
        With ``view`` (the card table alone, no hint): the hint's options given
        (:data:`HINT_ONLY`, and the flags ``static``, ``open``, ``line`` when set).
    """

    static: tuple[str, ...] = ()
    one_deal: tuple[str, ...] = ()
    read_open: bool = False
    line_static: bool = False
    no_cards: tuple[str, ...] = ()
    cards_only: tuple[str, ...] = ()


@dataclass(frozen=True)
class HintOptions:
    """What a hint request asks for, as both front ends take it.

    Attributes
    ----------
    static : bool
        The one-move static evaluation, without sampling.
    open_hands : bool
        Every hand used as given (double-dummy).
    samples : int or None
        Deals (``v3``: iterations) to sample; ``None``: until the verdict is settled.
    seed : int
        The seed of the sampling.
    time_limit : float
        Most seconds of sampling (``math.inf``: none).
    budget : int or None
        Positions per sampled deal (``v2``, ``v1``); ``None``: the engine's.
    engine : str
        The engine's name (``auto``, a method or a version name).
    read : bool or None
        Read the hidden hands from the cards given up; ``None``: the engine's setting.
    cards : bool
        Add the card table: where the cards the player cannot see may be
        (:func:`analyzer.analysis.whereabouts.whereabouts`).
    line : bool
        Add the line expected after each move shown (:func:`analyzer.analysis.lines.expected_lines`).
    view : int or None
        With ``cards``: the card table from this seat's view, alone (no hint is run).
    card_samples : int or None
        Deals the card table draws where it samples; ``None``: its default.
    given : frozenset of str
        The options the request named (for the findings about options with no effect).
    """

    static: bool = False
    open_hands: bool = False
    samples: int | None = None
    seed: int = 0
    time_limit: float = math.inf
    budget: int | None = None
    engine: str = DEFAULT_ENGINE
    read: bool | None = None
    cards: bool = False
    line: bool = False
    view: int | None = None
    card_samples: int | None = None
    given: frozenset[str] = field(default_factory=frozenset)

    @property
    def cards_only(self) -> bool:
        """The card table alone, from ``view``'s view: no hint is run."""
        return self.cards and self.view is not None

    def unread(self) -> tuple[str, ...]:
        """The sampling options given with a static hint, which it does not read (found without
        the position); the card table reads ``seed``, ``engine`` and ``read``."""
        if not self.static or self.cards_only:
            return ()
        kept = ("seed", "engine", "read") if self.cards else ()
        return tuple(o for o in SAMPLING if o in self.given and o not in kept)

    def check(self, state: GameState) -> HintFindings:
        """The options given that have no effect on ``state``.

        Raises
        ------
        HintOptionError
            If ``budget`` is given for a position an IS-MCTS engine searches
            (:attr:`~analyzer.analysis.engines.Engine.one_tree`: it counts iterations, ``samples``).
        ConquianError
            If the engine is unknown.
        """
        no_cards = () if self.cards else tuple(o for o in CARD_OPTIONS if o in self.given)
        if self.cards_only:
            assert self.view is not None
            if not 0 <= self.view < state.rules.players:
                raise HintOptionError(
                    f"names a seat: {state.rules.name} has seats 0 to {state.rules.players - 1}, "
                    f"not {self.view}",
                    "view",
                )
            flags = (("static", self.static), ("open", self.open_hands), ("line", self.line))
            return HintFindings(cards_only=tuple(
                [o for o in HINT_ONLY if o in self.given] + [name for name, on in flags if on]
            ))  # fmt: skip
        if self.static:
            return HintFindings(static=self.unread(), line_static=self.line, no_cards=no_cards)
        if "budget" in self.given and self.searching(state).one_tree:
            raise HintOptionError(
                "counts the positions of engines v2 and v1; this position is searched by v3 "
                "(IS-MCTS), which counts iterations",
                "budget",
            )
        one_deal = self.open_hands and state.stock is not None
        return HintFindings(
            one_deal=tuple(o for o in ("samples", "seed") if o in self.given) if one_deal else (),
            read_open=self.open_hands and "read" in self.given,
            no_cards=no_cards,
        )

    def by_default(self, state: GameState) -> bool:
        """True when the hint's defaults apply on ``state``: two players, and no ``static``,
        ``open``, ``samples``, ``budget``, ``engine``, ``line`` or ``cards`` given. A small endgame is then answered by its equilibrium
        (:func:`analyzer.service.endgames.auto_hint`)."""
        plain = not (self.static or self.open_hands or self.line or self.cards)
        unset = self.samples is None and self.budget is None and self.engine == DEFAULT_ENGINE
        return plain and unset and state.rules.players == 2

    def searching(self, state: GameState) -> Engine:
        """The engine that answers on ``state`` (:func:`searching_engine`)."""
        return searching_engine(self.engine, state, open_hands=self.open_hands)

    def chosen_engine(self, state: GameState) -> str | Engine:
        """The engine asked for, with ``read`` applied where it has an effect."""
        if self.read is None or self.open_hands:
            return self.engine
        return replace(engine_for(self.engine, state.rules), read=self.read)

    def advise(
        self,
        state: GameState,
        *,
        progress: Callable[[int, int], None] | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> Advice:
        """The sampled hint on ``state``, as ``conquian hint`` gives it: sampled until the verdict
        is settled unless ``samples`` is given (:func:`analyzer.analysis.advisor.advise`)."""
        return advise(
            state,
            samples=self.samples,
            seed=self.seed,
            time_limit=self.time_limit,
            node_budget=self.budget,
            open_hands=self.open_hands,
            engine=self.chosen_engine(state),
            progress=progress,
            stop=stop,
            until_decided=self.samples is None,
            searches=MCTS_SEARCHES,
        )

    def card_engine(self, state: GameState) -> Engine:
        """The engine whose sampler the card table follows: the one asked for on ``state``'s
        rules (never the open hand-over: the table is always from a player's view), with
        ``read`` applied."""
        found = engine_for(self.engine, state.rules)
        return found if self.read is None else replace(found, read=self.read)

    def whereabouts(self, state: GameState) -> Whereabouts:
        """The card table on ``state``: from ``view``'s view, else the player to act's
        (:func:`analyzer.analysis.whereabouts.whereabouts`)."""
        return whereabouts(
            state, self.view, engine=self.card_engine(state), samples=self.card_samples,
            seed=self.seed,
        )  # fmt: skip

    def lines(
        self,
        state: GameState,
        advice: Advice,
        moves: list[Move],
        *,
        stop: Callable[[], bool] | None = None,
    ) -> dict[Move, Line]:
        """The line expected after each of ``moves`` of ``advice`` (:meth:`advise`'s answer on
        ``state``), searched as the hint searched (:func:`analyzer.analysis.lines.expected_lines`)."""
        return expected_lines(
            state, advice, moves, engine=self.chosen_engine(state), seed=self.seed,
            open_hands=self.open_hands, node_budget=self.budget, time_limit=self.time_limit,
            stop=stop,
        )  # fmt: skip
