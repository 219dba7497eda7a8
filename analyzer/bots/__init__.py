"""Layer 6, players: the bot protocol (:mod:`~analyzer.bots.base`), the bots, their registry
and simulate (local processes, or the Ray backend of :mod:`analyzer.interop.ray`).

The package exports what the 0.1 module ``analyzer.bots`` did.
"""

from analyzer.bots.registry import (
    BOTS,
    Bot,
    BotFactory,
    GreedyBot,
    HintBot,
    RandomBot,
    bot_option,
    check_bot,
    known_bot,
    make_bot,
    obvious_move,
    parse_bot,
    register_bot,
    usefulness,
)

__all__ = [
    "BOTS",
    "Bot",
    "BotFactory",
    "GreedyBot",
    "HintBot",
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
