"""Matches and stakes: what each deal of a match is played for, and who pays whom (RULES.md R21).

A match is a sequence of deals between the same players.  The dealer moves to the next player in
turn order after every deal (R21: classic alternates; pagat's Mexican rules pass the deal "to the
right", the next player in their anticlockwise play; the MegaJogos text is silent).  After a deal
with a winner every other player pays him the deal's stake; the stake rule says what a draw does:

=====================  ========================================================================
``single``             each deal on its own: a draw pays nothing (the MegaJogos rules: win or
                       draw only).
``double_after_draw``  the deal after a draw is played for twice the stake; after a win the
                       stake is back to one (the classic text: "some believe the next game is
                       played for a double stake").  Successive draws do not double it again.
``tableau``            on a draw each player puts one stake into a pool, which the winner of the
                       next won deal takes besides his stake; pools of successive draws add up
                       (Foster 1897 and 1913).
=====================  ========================================================================

Stakes are counted in units of the base stake and the scores of a match always sum to zero less
the pool on the table; a pool left when the match ends goes back to the players in equal shares
(:meth:`Standing.closed`).  The stake never changes how a deal is played: every player still prefers
winning, then a draw, then another player winning (R20), whatever the stake, so the hint's choice
does not depend on it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from analyzer.core.rules import Rules

__all__ = ["DEFAULT_STAKES", "StakeRule", "Standing", "default_stakes"]


class StakeRule(enum.StrEnum):
    """R21: what a draw does to the stakes of a match."""

    SINGLE = "single"
    DOUBLE_AFTER_DRAW = "double_after_draw"
    TABLEAU = "tableau"


DEFAULT_STAKES: dict[str, StakeRule] = {
    "classic": StakeRule.DOUBLE_AFTER_DRAW,
    "megajogos": StakeRule.SINGLE,
    "mexican": StakeRule.SINGLE,
    "mexican_9_10": StakeRule.SINGLE,
    "hoyle1897": StakeRule.TABLEAU,  # Foster 1897: the "tableau" pool
    "cooncan1913": StakeRule.TABLEAU,  # Foster 1913: "tableau", to the winner of the next game
}
"""Each preset's stake rule (R21); a preset not listed plays ``single``."""


def default_stakes(rules: Rules) -> StakeRule:
    """The stake rule of ``rules``' preset (:data:`DEFAULT_STAKES`), ``single`` if none."""
    return DEFAULT_STAKES.get(rules.name, StakeRule.SINGLE)


@dataclass(frozen=True, slots=True)
class Standing:
    """A match between deals (R21).

    Attributes
    ----------
    rule : StakeRule
    players : int
    scores : tuple of int
        Each player's winnings so far, in base stakes (negative: he has paid more).
    stake : int
        The stake of the next deal, in base stakes.
    pool : int
        Stakes in the tableau pool, taken by the next winner (``tableau`` only).
    dealer : int
        The dealer of the next deal.
    deals : int
        Deals played so far.
    """

    rule: StakeRule
    players: int
    scores: tuple[int, ...]
    stake: int = 1
    pool: int = 0
    dealer: int = 0
    deals: int = 0

    @classmethod
    def start(cls, rule: StakeRule | str, players: int, dealer: int = 0) -> Standing:
        """A match before its first deal, ``dealer`` dealing it.

        Raises
        ------
        ValueError
            If ``rule`` is not a stake rule or ``dealer`` is not a seat.
        """
        try:
            rule = StakeRule(str(rule).strip().lower())
        except ValueError:
            known = ", ".join(r.value for r in StakeRule)
            raise ValueError(f"unknown stake rule {rule!r} (known: {known})") from None
        if not 0 <= dealer < players:
            raise ValueError(f"the dealer must be a seat from 0 to {players - 1}, not {dealer}")
        return cls(rule, players, (0,) * players, dealer=dealer)

    def after(self, winner: int | None) -> Standing:
        """The standing after the next deal, won by ``winner`` (``None``: a draw); R21.

        Raises
        ------
        ValueError
            If ``winner`` is not a seat.
        """
        if winner is not None and not 0 <= winner < self.players:
            raise ValueError(f"the winner must be a seat from 0 to {self.players - 1}, not {winner}")
        scores = list(self.scores)
        stake, pool = self.stake, self.pool
        if winner is None:
            if self.rule is StakeRule.TABLEAU:
                for p in range(self.players):
                    scores[p] -= stake
                pool += stake * self.players
            elif self.rule is StakeRule.DOUBLE_AFTER_DRAW:
                stake = 2
        else:
            for p in range(self.players):
                if p != winner:
                    scores[p] -= stake
                    scores[winner] += stake
            scores[winner] += pool
            pool = 0
            stake = 1
        return replace(
            self,
            scores=tuple(scores),
            stake=stake,
            pool=pool,
            dealer=(self.dealer + 1) % self.players,
            deals=self.deals + 1,
        )

    def closed(self) -> Standing:
        """The standing when the match ends here: a pool left on the table goes back to the
        players in equal shares (each put the same into it), so the scores sum to zero (R21)."""
        if not self.pool:
            return self
        share = self.pool // self.players
        return replace(self, scores=tuple(s + share for s in self.scores), pool=0)

    def won(self, before: Standing) -> tuple[int, ...]:
        """Each player's winnings in the deal between ``before`` and this standing."""
        return tuple(a - b for a, b in zip(self.scores, before.scores, strict=True))

    def as_dict(self) -> dict[str, object]:
        """JSON-ready: ``stakes``, ``scores``, ``stake`` (the next deal's), ``pool``, ``dealer``
        (the next deal's), ``deals``."""
        return {
            "stakes": str(self.rule),
            "scores": list(self.scores),
            "stake": self.stake,
            "pool": self.pool,
            "dealer": self.dealer,
            "deals": self.deals,
        }
