"""New deals to start from: dealt (R8) and, if asked, played a few moves by a bot.

Writing a position by hand means counting 40 cards (R1, R7); :func:`deal_position`
deals a valid one with a seed, and can play it forward with the ``greedy``
bot (:class:`analyzer.bots.registry.GreedyBot`, each seat seeing only its view) so that
a mid-game position is one command away.
"""

from __future__ import annotations

import random

from analyzer.bots.registry import make_bot
from analyzer.core.dealing import deal, view
from analyzer.core.errors import ConquianError
from analyzer.core.moves import Move
from analyzer.core.rules import Rules, get_rules
from analyzer.core.state import GameState

__all__ = ["deal_position"]


def deal_position(
    rules: Rules | str,
    *,
    seed: int = 0,
    dealer: int | None = None,
    after: int = 0,
    bot: str = "greedy",
    to_choice: bool = False,
) -> tuple[GameState, list[tuple[int | None, Move]]]:
    """Deal with ``seed`` (R8) and play ``after`` bot moves, turning stock cards as needed.

    Parameters
    ----------
    rules : Rules or str
        The variant.
    seed : int
        The same seed gives the same deal and the same moves.
    dealer : int, optional
        The dealer; drawn with the seed when omitted.
    after : int
        Choices to play first (takes, passes, forces, lay-ins, hand-only melds,
        exchange gives); the turns of stock cards between them (R10) are not
        counted.  The position returned is the one after the last choice.
    bot : str
        The bot that plays every seat (``analyzer.bots.registry.BOTS``), from its view.
    to_choice : bool
        Then turn stock cards (R10) until a player is to choose or the deal is over: the
        position a hint answers.

    Returns
    -------
    state : GameState
        Every hand and the stock order known.
    moves : list of (int or None, Move)
        The moves played, with the acting seat (``None`` for a turn).

    Raises
    ------
    ConquianError
        If the deal ends before ``after`` choices (the message says after how
        many), ``dealer`` is not a seat, or the bot or variant is unknown.
    """
    rules = get_rules(rules)
    rng = random.Random(seed)
    state = deal(rules, rng, dealer)
    player_bot = make_bot(bot)
    moves: list[tuple[int | None, Move]] = []
    chosen = 0
    while chosen < after:
        if state.is_terminal():
            raise ConquianError(
                f"the deal ended after {chosen} {bot} move{'s' if chosen != 1 else ''} "
                f"({state.describe()}): ask for at most {chosen}"
            )
        if state.is_chance_node():
            move: Move = state.chance_outcomes()[0][0]
            moves.append((None, move))
        else:
            player = state.to_act
            move = player_bot.choose(view(state, player), rng)
            moves.append((player, move))
            chosen += 1
        state = state.apply(move)
    while to_choice and state.is_chance_node() and not state.is_terminal():
        turn = state.chance_outcomes()[0][0]
        moves.append((None, turn))
        state = state.apply(turn)
    return state, moves
