"""Matches between bots: deals in sequence under a stake rule (R21, :mod:`analyzer.core.stakes`).

:func:`play_match` plays one match; :class:`MatchSummary` counts what each bot won per deal over
the matches of a run (``conquian simulate --match N``), with a 95% interval over matches, the
independent units (the deals of one match are tied by their stakes).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from analyzer.bots.game import GameResult, game_seed, play_game
from analyzer.bots.simulate import match_dealer
from analyzer.core.errors import ConquianError
from analyzer.core.rules import Rules, get_rules
from analyzer.core.stakes import StakeRule, Standing, default_stakes

__all__ = ["MatchResult", "MatchSummary", "play_match", "standings"]


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A match played: its deals and the standing before the first and after each deal."""

    deals: tuple[GameResult, ...]
    standings: tuple[Standing, ...]

    @property
    def final(self) -> Standing:
        """The standing after the last deal."""
        return self.standings[-1]


def standings(
    rule: StakeRule | str, players: int, winners: Sequence[int | None], dealer: int = 0
) -> list[Standing]:
    """The standing before the first deal and after each deal of a match won by ``winners``
    (``None``: a draw), the first dealt by ``dealer`` (R21).

    Raises
    ------
    ValueError
        For an unknown stake rule or a winner or dealer that is not a seat.
    """
    out = [Standing.start(rule, players, dealer)]
    for winner in winners:
        out.append(out[-1].after(winner))
    return out


def play_match(
    rules: Rules | str,
    seats: Sequence[str],
    deals: int,
    seed: int = 0,
    stakes: StakeRule | str | None = None,
) -> MatchResult:
    """Play a match of ``deals`` deals between the bots ``seats`` (R21).

    Deal ``k`` is dealt with :func:`~analyzer.bots.game.game_seed` ``(seed, k)``; the first
    dealer is drawn with the seed and the deal then passes round the table, as
    ``conquian simulate --match`` plays it.  ``stakes`` defaults to the preset's
    (:func:`~analyzer.core.stakes.default_stakes`).

    Raises
    ------
    ConquianError
        For fewer than one deal, an unknown stake rule or bot, or seats that do not fit.
    """
    rules = get_rules(rules)
    if deals < 1:
        raise ConquianError(f"a match has at least 1 deal, not {deals}")
    try:
        standing = Standing.start(
            stakes or default_stakes(rules), rules.players, match_dealer(rules, seed, 0, deals) or 0
        )
    except ValueError as exc:
        raise ConquianError(str(exc)) from None
    played: list[GameResult] = []
    history = [standing]
    for k in range(deals):
        game = play_game(rules, seats, game_seed(seed, k), k, dealer=standing.dealer)
        played.append(game)
        standing = standing.after(game.final.winner)
        history.append(standing)
    return MatchResult(tuple(played), tuple(history))


@dataclass
class MatchSummary:
    """What each seat and each bot won per deal over the matches of a run (R21).

    Feed the run's games in order with :meth:`add`; every ``match`` games make a match.  A match
    cut short (the run stopped) counts its deals played.
    """

    rules: Rules
    match: int
    rule: StakeRule
    won_by_seat: list[int] = field(default_factory=list)
    deals: int = 0
    _per_match: dict[str, list[float]] = field(default_factory=dict)
    _current: dict[str, list[int]] = field(default_factory=dict)
    _standing: Standing | None = None
    _seats: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.won_by_seat:
            self.won_by_seat = [0] * self.rules.players

    def add(self, game: GameResult) -> None:
        """Count the next game of the run (games arrive in order)."""
        if self.deals % self.match == 0:
            self._standing = Standing.start(self.rule, self.rules.players, game.start.dealer)
        assert self._standing is not None
        before = self._standing
        self._standing = before.after(game.final.winner)
        self.deals += 1
        self._seats = game.seats
        self._count(self._standing.won(before), 1)
        if self.deals % self.match == 0:
            self._close()

    def _count(self, won: tuple[int, ...], deals: int) -> None:
        for seat, (name, value) in enumerate(zip(self._seats, won, strict=True)):
            self.won_by_seat[seat] += value
            total = self._current.setdefault(name, [0, 0])
            total[0] += value
            total[1] += deals

    def _close(self) -> None:
        """End the current match: its pool goes back in equal shares (R21), its per-deal
        winnings join the figures."""
        if self._standing is not None and self._standing.pool:
            closed = self._standing.closed()
            self._count(closed.won(self._standing), 0)
            self._standing = closed
        for name, (won, seats) in self._current.items():
            self._per_match.setdefault(name, []).append(won / seats)
        self._current = {}

    def as_dict(self) -> dict[str, object]:
        """JSON-ready: ``match`` (deals per match), ``stakes``, ``matches`` (a match cut short
        counted), ``complete_matches`` (those played to their last deal: the match records a run
        writes), ``stake_per_deal``
        (per seat), ``bot_stake_per_deal`` (per bot: ``mean`` and ``ci95`` over matches, null
        with fewer than two).  A pool left at the end of a match is shared back (R21), so the
        figures of two players are opposite."""
        self._close()
        per_seat = [round(w / self.deals, 6) if self.deals else 0.0 for w in self.won_by_seat]
        bots: dict[str, dict[str, object]] = {}
        for name, values in self._per_match.items():
            n = len(values)
            mean = sum(values) / n
            ci: list[float] | None = None
            if n >= 2:
                sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
                half = 1.96 * sd / math.sqrt(n)
                ci = [round(mean - half, 6), round(mean + half, 6)]
            bots[name] = {"mean": round(mean, 6), "ci95": ci}
        return {
            "match": self.match,
            "stakes": str(self.rule),
            "matches": -(-self.deals // self.match) if self.match else 0,
            "complete_matches": self.deals // self.match if self.match else 0,
            "stake_per_deal": per_seat,
            "bot_stake_per_deal": bots,
        }
