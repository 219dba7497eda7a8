"""One deal played between bots: :func:`play_game`, the unit every simulate backend runs.

Game ``i`` of a run with seed ``s`` is dealt with :func:`game_seed` ``(s, i)``,
so a run gives the same games whatever the backend or number of workers.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from analyzer.bots.registry import make_bot
from analyzer.core.dealing import deal, view
from analyzer.core.errors import ConquianError
from analyzer.core.moves import Move
from analyzer.core.rules import Rules, get_rules
from analyzer.core.state import GameState

__all__ = ["GameResult", "game_seed", "play_game", "seating"]


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished deal.

    Attributes
    ----------
    index : int
        Game number in the run, from 0.
    seed : int
        The deal's seed.
    seats : tuple of str
        Bot name at each seat.
    start : GameState
    moves : tuple of (int or None, Move)
        Acting seat (``None`` for a turn) and move.
    final : GameState
    notes : tuple of (dict or None)
        Per seat, what its bot reports about its own thinking (``report()``, e.g. the
        searches of a ceiling bot and how many ran out of budget), or ``None``.
    """

    index: int
    seed: int
    seats: tuple[str, ...]
    start: GameState
    moves: tuple[tuple[int | None, Move], ...]
    final: GameState
    notes: tuple[dict[str, int] | None, ...] = ()


def seating(bots: Sequence[str], index: int, rotate: bool) -> tuple[str, ...]:
    """The bots of game ``index`` of a run, seat by seat: as given, or with ``rotate`` moved
    one seat on per game (game 1 seats the last bot first).

    Parameters
    ----------
    bots : sequence of str
        One bot name per seat, for game 0.
    index : int
        Game number in the run, from 0.
    rotate : bool

    Returns
    -------
    tuple of str
    """
    names = list(bots)
    k = index % len(names) if rotate else 0
    return tuple(names[-k:] + names[:-k]) if k else tuple(names)


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded ``seed`` (a fixed mix, stable across versions)."""
    return (seed * 1_000_003 + index * 7_919 + 12_345) % (2**63)


def play_game(
    rules: Rules | str, seats: Sequence[str], seed: int, index: int = 0, dealer: int | None = None
) -> GameResult:
    """Deal with ``seed`` and play to the end, each seat's bot seeing only its view.

    ``dealer`` deals (R8); by default he is drawn with the seed.  A match passes the deal round
    the table (R21).

    Raises
    ------
    ConquianError
        If a bot name is unknown or the seats do not match the variant.
    """
    rules = get_rules(rules)
    if len(seats) != rules.players:
        raise ConquianError(f"{rules.name} needs {rules.players} bots, got {len(seats)}")
    bots = [make_bot(name) for name in seats]
    rng = random.Random(seed)
    state = start = deal(rules, rng, dealer=dealer)
    moves: list[tuple[int | None, Move]] = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            move: Move = outcomes[0][0]
            player = None
        else:
            player = state.current_player()
            bot = bots[player]
            # A ceiling bot (sees_all) is given the whole deal; every other bot its view.
            move = bot.choose(state if getattr(bot, "sees_all", False) else view(state, player), rng)
        state = state.apply(move)
        moves.append((player, move))
    notes = tuple(bot.report() if hasattr(bot, "report") else None for bot in bots)
    return GameResult(index, seed, tuple(seats), start, tuple(moves), state, notes)
