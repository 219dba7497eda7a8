"""The bot protocol and the checks every bot shares: :class:`Bot`, :func:`bot_option`,
:func:`obvious_move`.

Every bot implements :class:`Bot`: ``choose(view, rng)`` gets the view of the
player to act (:func:`analyzer.core.dealing.view`: his own hand, the table,
counts) and returns one of ``view.legal_moves()``.  Bots never see hidden
cards, so any bot can sit at any seat.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Protocol

from analyzer.core.errors import ConquianError
from analyzer.core.moves import LayIn, Move, Take
from analyzer.core.state import GameState
from analyzer.search.limits import MAX_POSITIONS

__all__ = ["Bot", "BotFactory", "bot_option", "obvious_move"]


class Bot(Protocol):
    """A player: picks one legal move of the view it is given."""

    name: str
    sees_all: bool
    """True for a bot that is given the whole deal instead of its view (a ceiling, not a player)."""

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """Return one of ``view.legal_moves()``."""
        ...


BotFactory = Callable[..., Bot]
"""A callable that returns a :class:`Bot`; keyword arguments are the bot's options."""


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
        Its greatest value; a whole number's is at most
        :data:`analyzer.search.limits.MAX_POSITIONS` (10**12) when not given, so that no
        option reaches the native core past its 64-bit integers.
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
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (whole or _finite(value)):
        raise ConquianError(f"option {name}={value} must be a finite number")
    if whole and high is None:
        high = MAX_POSITIONS
    if low is not None and value < low:
        raise ConquianError(f"option {name}={value} must be at least {_number(low)}")
    if high is not None and value > high:
        raise ConquianError(f"option {name}={value} must be at most {_number(high)}")


def _finite(value: float) -> bool:
    """True for a finite float or a whole number that a float holds (``10**400`` is not one:
    past the largest float, it could not reach a search)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _number(bound: float) -> str:
    """A bound as the messages write it: a whole number in full (1000000000000), else ``:g``."""
    return str(bound) if isinstance(bound, int) else f"{bound:g}"
