"""Playing whole deals between bots, many at a time, with reproducible seeds.

Game ``i`` of a run with seed ``s`` is dealt with :func:`game_seed` ``(s, i)``,
so a run gives the same games whatever the number of worker processes, and
whatever the backend: ``local`` (this machine) or ``ray`` (Ray tasks, on a
local Ray runtime or a cluster; :mod:`analyzer.interop.ray`).
"""

from __future__ import annotations

import multiprocessing
import random
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points

from analyzer.bots.game import GameResult, game_seed, play_game, seating
from analyzer.bots.registry import make_bot
from analyzer.core.errors import ConquianError
from analyzer.core.rules import Rules, get_rules
from analyzer.search.stats import wilson

__all__ = ["BACKENDS", "GameResult", "Summary", "game_seed", "play_game", "seating", "simulate", "wilson"]

BACKENDS = ("local", "ray")
"""Where :func:`simulate` plays: this machine's processes, or Ray tasks."""

BACKEND_GROUP = "conquian.backends"
"""The entry-point group of simulate backends other than ``local``: ``ray`` is
``analyzer.interop.ray:run`` (the ``ray`` extra), loaded only when asked for."""


def _plugin_backend(name: str) -> Callable[..., Iterator[GameResult]]:
    """The ``run`` function of backend ``name`` (an entry point of :data:`BACKEND_GROUP`).

    Raises
    ------
    ConquianError
        If no installed package provides that backend.
    """
    for plugin in entry_points(group=BACKEND_GROUP, name=name):
        run: Callable[..., Iterator[GameResult]] = plugin.load()
        return run
    raise ConquianError(
        f"the {name!r} backend is not installed: reinstall conquian (pip install -e .) "
        "so that its entry points are registered"
    )


Task = tuple[str | Rules, tuple[str, ...], int, int, int | None]
"""A game to play: the rules, the bot at each seat, the deal's seed, its index, its dealer."""


def _job(args: Task) -> GameResult:
    return play_game(*args)


def match_dealer(rules: Rules, seed: int, index: int, match: int) -> int | None:
    """The dealer of game ``index`` of a run played as matches of ``match`` deals (R21): the first
    deal of each match drawn with its seed, then the next player in turn order every deal; with
    ``match`` 0 (no matches), ``None``: each deal draws its own."""
    if match <= 0:
        return None
    first = index - index % match
    return (random.Random(game_seed(seed, first)).randrange(rules.players) + index - first) % rules.players


def simulate(
    rules: Rules | str,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    jobs: int = 1,
    rotate: bool = False,
    backend: str = "local",
    address: str | None = None,
    first: int = 0,
    match: int = 0,
) -> Iterator[GameResult]:
    """Play ``games`` deals and yield them in game order.

    Parameters
    ----------
    rules : Rules or str
    bots : sequence of str
        One bot name per seat (a single name fills every seat).
    games : int
        Number of deals.
    seed : int
        Run seed; game ``i`` uses :func:`game_seed` ``(seed, i)``.
    first : int
        Index of the first game (default 0): games ``first`` to ``first + games - 1``
        of the run, the same deals and seats as in a run from 0 that goes that far, so a
        run stopped early can be continued.
    jobs : int
        Worker processes (1 = this process).  With ``backend="ray"``: above
        1, the CPUs of a local Ray runtime and the most games at once; 1,
        every CPU of the runtime or cluster.
    rotate : bool
        Rotate the bots one seat per game, so each bot sits at each seat.
    backend : str
        ``"local"`` (default) or ``"ray"`` (``pip install 'conquian[ray]'``).
        Both give the same games, game for game.
    address : str, optional
        With ``backend="ray"``: the Ray cluster to join (``"HOST:PORT"`` or
        ``"auto"``); without it a local Ray runtime starts and stops.
    match : int
        Deals per match (0: none).  Games ``k * match`` to ``(k + 1) * match - 1`` are match
        ``k``: the deal passes round the table (:func:`match_dealer`, R21) and, with ``rotate``,
        the bots rotate once per match instead of once per deal.

    Yields
    ------
    GameResult

    Raises
    ------
    ConquianError
        For an unknown bot or backend, a bot count that does not fit the
        variant, a negative ``first``, an address without the Ray backend, or (Ray) when the
        cluster cannot be joined; :class:`~analyzer.core.errors.MissingExtraError`
        when the Ray extra is not installed.
    """
    rules = get_rules(rules)
    if first < 0:
        raise ConquianError(f"the first game index must be 0 or more, not {first}")
    if backend not in BACKENDS:
        raise ConquianError(f"unknown backend: {backend!r} (known: {', '.join(BACKENDS)})")
    if address is not None and backend != "ray":
        raise ConquianError("an address is for the ray backend (backend='ray')")
    names = list(bots) * rules.players if len(bots) == 1 else list(bots)
    if len(names) != rules.players:
        raise ConquianError(
            f"{rules.name} has {rules.players} seats; give that many bots, got {len(names)}"
        )
    for name in names:
        make_bot(name)  # fail early on an unknown bot

    if match < 0:
        raise ConquianError(f"a match has at least 1 deal, not {match}")

    def tasks(start: int, stop: int) -> list[Task]:
        # The rules travel whole (a player count or options other than the preset's).
        return [
            (
                rules,
                seating(names, i // match if match else i, rotate),
                game_seed(seed, i),
                i,
                match_dealer(rules, seed, i, match),
            )
            for i in range(first + start, first + stop)
        ]

    if backend != "local":
        yield from _plugin_backend(backend)(tasks, games, jobs=jobs, address=address)
        return
    if jobs <= 1:
        for i in range(games):
            yield _job(tasks(i, i + 1)[0])
        return
    # Workers ignore Ctrl-C: the parent stops them and keeps what has finished.
    pool = multiprocessing.get_context("spawn").Pool(jobs, initializer=_ignore_sigint)
    batch = 64 * jobs  # tasks are made a batch at a time: memory stays small for any --games
    chunk = max(1, min(16, games // (jobs * 8) or 1))
    try:
        for start in range(0, games, batch):
            yield from pool.imap(_job, tasks(start, min(games, start + batch)), chunksize=chunk)
    except BaseException:
        pool.terminate()
        raise
    else:
        pool.close()
    finally:
        pool.join()


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass(slots=True)
class Summary:
    """Running win/draw counts of a simulation.

    Attributes
    ----------
    players : int
    games : int
    wins : list of int
        Wins per seat.
    draws : int
    wins_by_bot : dict of str to int
    seats_by_bot : dict of str to int
        Games each bot played (a bot at two seats counts twice).
    """

    players: int
    games: int = 0
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    wins_by_bot: dict[str, int] = field(default_factory=dict)
    seats_by_bot: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * self.players

    def add(self, result: GameResult) -> None:
        """Count one finished game."""
        self.games += 1
        for name in result.seats:
            self.seats_by_bot[name] = self.seats_by_bot.get(name, 0) + 1
            self.wins_by_bot.setdefault(name, 0)
        winner = result.final.winner
        if winner is None:
            self.draws += 1
        else:
            self.wins[winner] += 1
            name = result.seats[winner]
            self.wins_by_bot[name] += 1

    def as_dict(self) -> dict[str, object]:
        """JSON-ready: games, wins per seat, draws, rates and 95% Wilson intervals."""
        g = self.games

        def rate(k: int, n: int) -> dict[str, object]:
            low, high = wilson(k, n)
            # Rounded like every other figure of the JSON output (six places).
            return {"rate": round(k / n, 6) if n else 0.0, "ci95": [round(low, 6), round(high, 6)]}

        return {
            "games": g,
            "wins": list(self.wins),
            "draws": self.draws,
            "win_rates": [rate(w, g) for w in self.wins],
            "draw_rate": rate(self.draws, g),
            "wins_by_bot": dict(self.wins_by_bot),
            "bot_win_rates": {
                name: rate(self.wins_by_bot[name], self.seats_by_bot[name])
                for name in self.wins_by_bot
            },
        }
