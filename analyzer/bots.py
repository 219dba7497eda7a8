"""Bots that choose moves from a player's view: ``random``, ``greedy`` and ``hint``.

Every bot implements :class:`Bot`: ``choose(view, rng)`` gets the view of
the player to act (:func:`analyzer.position.view`: his own hand, the table,
counts) and returns one of ``view.legal_moves()``.  Bots never see hidden
cards, so any bot can sit at any seat.
"""

from __future__ import annotations

import importlib
import inspect
import math
import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Protocol

from analyzer.cards import FULL_DECK
from analyzer.errors import ConquianError
from analyzer.hints import usefulness
from analyzer.melds import cards_of, catalog
from analyzer.moves import Force, Give, LayIn, Meld, Move, Pass, Take
from analyzer.partition import best_take
from analyzer.state import GameState, Phase

if TYPE_CHECKING:
    from analyzer.rules import Rules

__all__ = [
    "BOTS",
    "Bot",
    "GreedyBot",
    "RandomBot",
    "bot_option",
    "check_bot",
    "known_bot",
    "make_bot",
    "obvious_move",
    "parse_bot",
    "register_bot",
    "usefulness",
]


class Bot(Protocol):
    """A player: picks one legal move of the view it is given."""

    name: str
    sees_all: bool
    """True for a bot that is given the whole deal instead of its view (a ceiling, not a player)."""

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """Return one of ``view.legal_moves()``."""
        ...


class RandomBot:
    """Picks uniformly among the legal moves."""

    name = "random"
    sees_all = False

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """A uniformly random legal move."""
        return rng.choice(view.legal_moves())


class GreedyBot:
    """Takes whenever it can (the most cards melded, found with CP-SAT), pays its least useful card.

    Offer: go out if possible; else the take melding the most cards
    (:func:`analyzer.partition.best_take` gives the count), paying the hand
    card of least :func:`usefulness`; with no take, lay hand-only melds
    (R16), then force a player who cannot go out by it (R14), else pass.
    Lay-in and exchange: give up the least useful card.
    """

    name = "greedy"
    sees_all = False

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """The greedy move (deterministic; ``rng`` is unused)."""
        moves = view.legal_moves()
        me = view.to_act
        if view.phase is Phase.EXCHANGE:
            hand = view.hand(me)
            return min(
                moves, key=lambda m: self._value(view, hand, m.card if isinstance(m, Give) else 0)
            )
        if view.phase is Phase.FORCED:
            lay_ins = [m for m in moves if isinstance(m, LayIn)]
            return self._cheapest(view, me, lay_ins)
        takes = [m for m in moves if isinstance(m, Take)]
        for take in takes:
            if take.pay is None:
                return take
        if takes:
            assert view.centre is not None
            old = cards_of(view.layouts[me])
            best = best_take(old, view.hand(me), view.centre.card, view.rules)
            if best is None:
                raise ConquianError("CP-SAT found no take where the engine lists one")
            most = cards_of(best.melds).bit_count()
            top = [t for t in takes if cards_of(t.layout).bit_count() == most]
            if not top:
                raise ConquianError("the engine lists no take as large as the CP-SAT best")
            return self._cheapest(view, me, top)
        for move in moves:
            if isinstance(move, Meld):
                return move
        for move in moves:
            if isinstance(move, Force) and view.counts[move.player] > 0:
                return move
        return Pass()

    def _value(self, view: GameState, hand: int, card: int) -> int:
        unseen = FULL_DECK & ~view.table_mask() & ~view.hand(view.to_act)
        return usefulness(card, hand & ~(1 << card), unseen, catalog(view.rules))

    def _cheapest(self, view: GameState, me: int, moves: list[Take] | list[LayIn]) -> Move:
        hand = view.hand(me)

        def cost(move: Take | LayIn) -> tuple[int, int]:
            # The pay card least useful to what stays in the hand; ties: highest card.
            assert move.pay is not None
            kept = hand & ~cards_of(move.layout)
            return (self._value(view, kept, move.pay), -move.pay)

        out = [m for m in moves if m.pay is None]
        if out:
            return out[0]
        return min(moves, key=cost)


BotFactory = Callable[..., Bot]

BOTS: dict[str, str | BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "hint": "analyzer.hintbot:HintBot",
    "hint-v2": "analyzer.hintbot:HintV2Bot",
    "hint-v1": "analyzer.hintbot:HintV1Bot",
    "oracle": "analyzer.hintbot:OracleBot",
    "oracle-greedy": "analyzer.response:BestReplyBot",
    "peek": "analyzer.hintbot:PeekBot",
    "blind-greedy": "analyzer.response:StockBlindReplyBot",
    "reply-greedy": "analyzer.response:SampledReplyBot",
    "mcts": "analyzer.mcts:MctsBot",
    "ismcts": "analyzer.interop.ismcts:IsmctsBot",  # OpenSpiel's IS-MCTS: pip install conquian[openspiel]
}
"""Every bot by name: a factory, or ``"module:attribute"`` imported when the bot is made.

Search bots are named by their module path so that importing this module
never imports the advisor (which itself uses :func:`usefulness` and the
greedy bot's helpers); :func:`register_bot` adds more.
"""


def register_bot(name: str, factory: str | BotFactory) -> None:
    """Make ``factory`` available as bot ``name`` (e.g. from an interop module).

    Parameters
    ----------
    name : str
        Lower-case bot name, as typed after ``--bots``.
    factory : callable or str
        A no-argument callable returning a :class:`Bot`, or ``"module:attribute"``.
    """
    BOTS[name.strip().lower()] = factory


def parse_bot(name: str) -> tuple[str, dict[str, int | float | str]]:
    """Split a bot name with options, ``"hint:samples=8:node_budget=3000"``, into its parts.

    Parameters
    ----------
    name : str
        A bot name (:data:`BOTS`), optionally followed by ``:option=value``
        pairs passed to its factory as keyword arguments (integers and
        floats are converted).

    Returns
    -------
    (str, dict)
        The lower-case name and the options.

    Raises
    ------
    ConquianError
        If an option is not written ``key=value``.
    """
    base, *parts = name.strip().lower().split(":")
    options: dict[str, int | float | str] = {}
    for part in parts:
        key, sep, text = part.partition("=")
        if not sep or not key.isidentifier():
            raise ConquianError(f"bot option {part!r} of {name!r} is not key=value")
        if key in options:
            raise ConquianError(f"bot option {key!r} is given twice in {name!r}")
        value: int | float | str = text
        for convert in (int, float):
            if not text.isascii() or "_" in text or text != text.strip():
                # int() and float() read other scripts' digits ("٣"), "1_000" and " 5": keep the
                # text, which the bot's option check then refuses naming it.
                break
            try:
                value = convert(text)
                break
            except ValueError:
                continue
        if isinstance(value, float) and not math.isfinite(value):
            # 1e400 reads as inf: name what was typed, not what it became.
            raise ConquianError(f"bot option {key}={text} is not a finite number")
        options[key] = value
    return base, options


def obvious_move(view: GameState) -> Move | None:
    """The move a searching bot plays without searching: the only legal one, or going out
    (R15, it wins at once); ``None`` when there is a choice to think about.

    Raises
    ------
    ConquianError
        If nobody has a move here (the deal is over).
    """
    moves = view.legal_moves()
    if not moves:
        raise ConquianError(f"no move to choose: {view.describe()}")
    if len(moves) == 1:
        return moves[0]
    for move in moves:
        if isinstance(move, (Take, LayIn)) and move.pay is None:
            return move
    return None


def bot_option(
    name: str,
    value: object,
    *,
    whole: bool = False,
    low: float | None = None,
    high: float | None = None,
    choices: tuple[str, ...] | None = None,
) -> None:
    """Check one option of a bot (``hint:samples=8``): its kind and range.

    Parameters
    ----------
    name : str
        The option's name, for the message.
    value : object
        Its value, as :func:`parse_bot` converted it (int, float or str).
    whole : bool
        It must be a whole number (an int, not a bool).
    low : float, optional
        Its least value (it must then be a finite number).
    high : float, optional
        Its greatest value.
    choices : tuple of str, optional
        The words it may be.

    Raises
    ------
    ConquianError
        If the value is of the wrong kind or out of range; the message names the option.
    """
    if choices is not None:
        if value not in choices:
            raise ConquianError(f"option {name}={value} must be one of {', '.join(choices)}")
        return
    if whole and (isinstance(value, bool) or not isinstance(value, int)):
        raise ConquianError(f"option {name}={value} must be a whole number")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ConquianError(f"option {name}={value} must be a finite number")
    if low is not None and value < low:
        raise ConquianError(f"option {name}={value} must be at least {low:g}")
    if high is not None and value > high:
        raise ConquianError(f"option {name}={value} must be at most {high:g}")


def check_bot(name: str, rules: Rules | None = None) -> Bot:
    """The bot called ``name`` (:func:`make_bot`), also asked, when ``rules`` is given, whether
    its options act in that variant (its ``check_variant``, if it has one: ``hint:c=0.4`` in
    ``classic`` has no effect).

    Raises
    ------
    ConquianError
        If the name or an option is refused, or an option has no effect with ``rules``.
    """
    bot = make_bot(name)
    check = getattr(bot, "check_variant", None)
    if rules is not None and check is not None:
        check(rules)
    return bot


def known_bot(name: str) -> bool:
    """True if ``name`` (options allowed) names a bot of :data:`BOTS`."""
    try:
        return parse_bot(name)[0] in BOTS
    except ConquianError:
        return False


def make_bot(name: str) -> Bot:
    """The bot called ``name``, with its options (:func:`parse_bot`).

    Raises
    ------
    ConquianError
        If there is no such bot (the message lists the bots) or it does not
        take one of the options.
    """
    base, options = parse_bot(name)
    spec = BOTS.get(base)
    if spec is None:
        raise ConquianError(f"unknown bot: {base!r} (known: {', '.join(BOTS)})")
    if isinstance(spec, str):
        module, _, attr = spec.partition(":")
        spec = getattr(importlib.import_module(module), attr)
    try:
        params: Mapping[str, inspect.Parameter] | None = inspect.signature(spec).parameters
    except (TypeError, ValueError):
        params = None  # a callable whose signature cannot be read: let the call decide
    takes_any = params is None or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()
    )
    unknown = [key for key in options if params is not None and key not in params]
    if unknown and params is not None and not takes_any:
        known = [p for p in params if p != "self"]
        offer = f"its options: {', '.join(known)}" if known else "it takes no options"
        raise ConquianError(f"bot {base!r} has no option {unknown[0]!r} ({offer})")
    try:
        return spec(**options)
    except TypeError as exc:
        raise ConquianError(f"bot {base!r} does not take those options: {exc}") from None


def __getattr__(name: str) -> object:
    # ``from analyzer.bots import HintBot`` keeps working without an import cycle.
    if name == "HintBot":
        from analyzer.hintbot import HintBot

        return HintBot
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
