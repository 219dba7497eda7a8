"""Every bot by name: the registry behind ``--bots``, ``make_bot`` and ``simulate``.

The built-in bots are imported here directly.  Bots of an extra (OpenSpiel's
``ismcts``) and of other packages are *plugins*: an entry point in the group
``conquian.bots`` (``name = "module:attribute"``), loaded when the bot is made,
so that nothing below :mod:`analyzer.interop` imports the extras.
"""

from __future__ import annotations

import importlib
import inspect
import math
from collections.abc import Mapping
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from analyzer.bots.base import Bot, BotFactory, bot_option, obvious_move
from analyzer.bots.exact import ExactBot
from analyzer.bots.greedy import GreedyBot, RandomBot
from analyzer.bots.reply import BestReplyBot, SampledReplyBot, StockBlindReplyBot
from analyzer.bots.searchbots import HintBot, HintV1Bot, HintV2Bot, MctsBot, OracleBot, PeekBot
from analyzer.core.errors import ConquianError
from analyzer.core.melds import usefulness

if TYPE_CHECKING:
    from analyzer.core.rules import Rules

__all__ = [
    "BOTS",
    "BOT_NOTES",
    "Bot",
    "BotFactory",
    "GreedyBot",
    "HintBot",
    "RandomBot",
    "bot_option",
    "check_bot",
    "installed_bot",
    "known_bot",
    "make_bot",
    "obvious_move",
    "parse_bot",
    "register_bot",
    "usefulness",
]

PLUGIN_GROUP = "conquian.bots"
"""The entry-point group of bots that live outside the built-in layers (extras, other packages)."""

BOTS: dict[str, str | BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "hint": HintBot,
    "hint-v2": HintV2Bot,
    "hint-v1": HintV1Bot,
    "oracle": OracleBot,
    "oracle-greedy": BestReplyBot,
    "peek": PeekBot,
    "blind-greedy": StockBlindReplyBot,
    "reply-greedy": SampledReplyBot,
    "mcts": MctsBot,
    "exact": ExactBot,
}
"""Every bot by name: a factory, or ``"module:attribute"`` imported when the bot is made.

Plugins of the ``conquian.bots`` entry-point group (``ismcts``, with the
``openspiel`` extra) are added when this module is imported;
:func:`register_bot` adds more.
"""

for _plugin in entry_points(group=PLUGIN_GROUP):
    BOTS.setdefault(_plugin.name, _plugin.value)

BOT_NOTES: dict[str, str] = {
    "random": "a legal move at random",
    "greedy": "the take that melds the most, paying its least useful card",
    "hint": (
        "the hint's best move (engine auto: ismcts with three or more players or no fitted leaf "
        "evaluation, else pimc; in the two-player presets but megajogos the learned prior breaks near-ties)"
    ),
    "hint-v2": "the hint bot with engine pimc (v2) in every variant",
    "hint-v1": "the hint bot with engine cpsat (v1)",
    "oracle": "sees every card and the stock order and plays the exact search's move (a ceiling)",
    "oracle-greedy": "sees every card and plays the best reply to greedy opponents",
    "peek": "the hint bot shown every hand, not the stock order",
    "blind-greedy": "the best reply to greedy, every hand seen but not the stock order",
    "reply-greedy": "the best reply to greedy on sampled deals of the hidden cards",
    "mcts": (
        "this package's IS-MCTS, the search of hint engine ismcts, as a bot (mcts:iterations=N); "
        "not OpenSpiel's ismcts bot"
    ),
    "exact": "a two-player endgame's equilibrium from its own view, else as the hint bot",
    "ismcts": (
        "OpenSpiel's IS-MCTS on the OpenSpiel game python_conquian (extra openspiel, "
        "ismcts:simulations=N); not this package's mcts bot, nor hint engine ismcts"
    ),
}
"""What each bot of :data:`BOTS` plays, in a few words, by name (``simulate --bots``, docs/hint.md).

Two bots search with IS-MCTS and their names are easily confused: ``mcts`` is this package's own
search (:func:`analyzer.search.mcts.search`, which the ``ismcts`` hint engine runs: the
``hint`` bot's engine with three players or more), ``ismcts`` is OpenSpiel's
(:mod:`analyzer.interop.ismcts`), the first opponent not written here."""


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
            raise ConquianError(f"option {key}={text} must be a finite number")
        options[key] = value
    return base, options


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


def installed_bot(name: str) -> bool:
    """True if the bot called ``name`` can be made here: built in, or a plugin whose extra is
    installed (``ismcts`` needs OpenSpiel)."""
    try:
        make_bot(name)
    except (ImportError, ConquianError):
        return False
    return True


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


