"""The best reply to fixed opponents: a proven ceiling for the "against greedy" figures.

When every card is known (every hand and the stock order, R6, R8) and
every other seat plays a *deterministic* policy (the ``greedy`` bot: its
move is a function of its own view, it uses no randomness), the rest of the
deal depends on one seat's choices only.  Searching those choices to the
end of the deal gives the best result that seat can reach against those
opponents: no player, not even one who sees every card, does better
against them in that deal.  Averaged over the deals of a strength match,
it is the ceiling of "hint against greedy" (``bench/strength.py``,
``--only classic-best-greedy megajogos-best-greedy``), and unlike the
``oracle`` bot's max-n it is proven, not estimated: the search either
finishes (``proven``) or says it did not.

The search is a depth-first search over the seat's choices with a
transposition table (:func:`analyzer.search.exact.position_key`): a win ends the
search of a position at once (nothing is better, R20), otherwise every
legal move is tried, going out first, then the takes that meld the most
cards (R13), then the rest in engine order.  The others' moves are the
policy's, computed on their views (:func:`analyzer.formats.position.view`) and
remembered per position; positions with one legal move are passed without
being built (:meth:`GameState.run_forced`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from analyzer.bots.base import Bot, bot_option, obvious_move
from analyzer.bots.greedy import GreedyBot
from analyzer.core.dealing import view as view_of
from analyzer.core.errors import ConquianError, PositionError
from analyzer.core.melds import cards_of
from analyzer.core.moves import LayIn, Move, Take
from analyzer.core.state import GameState
from analyzer.search.exact import paused_gc, position_key
from analyzer.search.limits import MAX_SAMPLES

__all__ = ["DRAW", "LOSS", "SCORE", "WIN", "BestReply", "BestReplyBot", "Reply", "SampledReplyBot", "StockBlindReplyBot"]

LOSS, DRAW, WIN = 0, 1, 2
"""Results of the replying seat (R20): another player goes out, nobody does, he goes out."""

_NAMES = {WIN: "win", DRAW: "draw", LOSS: "loss"}

SCORE = {"win": 1, "draw": 0, "loss": -1}
"""A :attr:`Reply.result` as a score: win +1, draw 0, loss -1 (R20)."""


@dataclass(frozen=True, slots=True)
class Reply:
    """What :meth:`BestReply.solve` found.

    Attributes
    ----------
    result : str
        ``"win"``, ``"draw"`` or ``"loss"`` for the replying seat (R20): the best
        result he can reach against the policy; a lower bound when not ``proven``.
    proven : bool
        True if the search finished: the result is exact.
    move : Move or None
        The seat's first move on a best line (``None`` if the seat does not act here).
    positions : int
        Positions searched by this call (cumulative over a :class:`BestReply`'s calls
        in :attr:`BestReply.positions`).
    """

    result: str
    proven: bool
    move: Move | None
    positions: int


def _order(state: GameState, moves: list[Move]) -> list[Move]:
    """Going out first (R15), then takes and lay-ins by cards melded (most first), then the
    rest, each group in engine order."""

    def rank(move: Move) -> int:
        if isinstance(move, (Take, LayIn)):
            if move.pay is None:
                return -100
            return -cards_of(move.layout).bit_count()
        return 0

    return sorted(moves, key=rank)


class BestReply:
    """Depth-first search of one seat's best result against fixed, deterministic opponents.

    Parameters
    ----------
    seat : int
        The replying seat (0-based).
    policy : Bot, optional
        The other seats' policy, called on each one's view; it must be
        deterministic (its move a function of the view alone). Default: the
        greedy bot (:class:`analyzer.bots.greedy.GreedyBot`).
    max_nodes : int
        Positions per call of :meth:`solve` (each position passed by a run of
        forced moves counts); past it the answer is a lower bound, not proven.

    Raises
    ------
    ConquianError
        If ``max_nodes`` is not a whole number of at least 1.

    Notes
    -----
    One instance serves one deal: its tables (results by
    :func:`analyzer.search.exact.position_key`, the policy's moves) are keyed
    by positions of that deal, whose stock order they take as fixed.
    """

    def __init__(self, seat: int, policy: Bot | None = None, max_nodes: int = 2_000_000) -> None:
        if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
            raise ConquianError(f"max_nodes must be at least 1, not {max_nodes}")
        self.seat = seat
        self.policy: Bot = GreedyBot() if policy is None else policy
        self.max_nodes = max_nodes
        self.table: dict[object, tuple[int, Move | None]] = {}
        self.replies: dict[object, Move] = {}
        self.positions = 0
        self._budget = 0
        self._exhausted = False
        self._rng = random.Random(0)  # handed to the policy, which must not depend on it

    @paused_gc()
    def solve(self, state: GameState) -> Reply:
        """The seat's best result from ``state`` against the policy, and his first move on it.

        Parameters
        ----------
        state : GameState
            A whole deal: every hand and the stock order known.

        Returns
        -------
        Reply

        Raises
        ------
        PositionError
            If a hand or the stock order is hidden, or ``seat`` is not a seat of the variant.
        """
        if not 0 <= self.seat < state.rules.players:
            raise PositionError(f"no player {self.seat} in {state.rules.name}")
        if any(h is None for h in state.hands) or (state.stock is None and state.stock_count):
            raise PositionError("a best reply needs every hand and the stock order known")
        before = self.positions
        self._budget = self.positions + self.max_nodes
        self._exhausted = False
        value = self._search(state)  # one level per choice of the seat: a few dozen at most
        found = self.table.get(position_key(state))
        move = found[1] if found is not None else None
        if move is None and not state.is_terminal() and state.current_player() == self.seat:
            move = _order(state, state.legal_moves())[0]
        return Reply(_NAMES[value], not self._exhausted, move, self.positions - before)

    def _reply(self, state: GameState) -> Move:
        key = position_key(state)
        move = self.replies.get(key)
        if move is None:
            move = self.replies[key] = self.policy.choose(view_of(state, state.to_act), self._rng)
        return move

    def _search(self, state: GameState) -> int:
        seat = self.seat
        while True:
            if state.is_terminal():
                winner = state.winner
                return DRAW if winner is None else WIN if winner == seat else LOSS
            key = position_key(state)
            found = self.table.get(key)
            if found is not None:
                return found[0]
            if self.positions >= self._budget:
                self._exhausted = True
                return LOSS  # a lower bound
            self.positions += 1
            if state.is_chance_node():
                state = state.apply(state.chance_outcomes()[0][0], check=False)
                continue
            forced, passed = state.run_forced(self._budget - self.positions)
            if passed:
                self.positions += passed
                state = forced
                continue
            if state.current_player() != seat:
                state = state.apply(self._reply(state), check=False)
                continue
            break
        best, best_move = -1, None
        exhausted = self._exhausted
        self._exhausted = False
        for move in _order(state, state.legal_moves()):
            value = self._search(state.apply(move, check=False))
            if value > best:
                best, best_move = value, move
                if best == WIN:
                    break
            if self._exhausted:
                break
        if not self._exhausted:
            self.table[key] = (best, best_move)
        self._exhausted = self._exhausted or exhausted
        return best


class BestReplyBot:
    """``oracle-greedy``: sees every card and plays the best reply to greedy opponents.

    At each choice it searches the rest of the deal with :class:`BestReply`
    (the other seats taken to be greedy bots) and plays the first move of a
    best line; against greedy opponents its result is the proven ceiling of
    any bot's result in that deal (module docstring).  Against other
    opponents it is a bot with a wrong model of them, nothing more.

    Parameters
    ----------
    max_nodes : int
        Positions per search (:class:`BestReply`).

    Attributes
    ----------
    searches, unproven : int
        Searches done, and how many of them ran out of positions.

    Raises
    ------
    ConquianError
        If ``max_nodes`` is not a whole number of at least 1.
    """

    name = "oracle-greedy"
    sees_all = True

    def __init__(self, max_nodes: int = 2_000_000) -> None:
        bot_option("max_nodes", max_nodes, whole=True, low=1)
        self.max_nodes = max_nodes
        self.searches = 0
        self.unproven = 0
        self.results: list[str] = []
        self._reply: BestReply | None = None
        self._last: GameState | None = None

    def _same_deal(self, state: GameState) -> bool:
        """True if ``state`` can follow the last position searched in one deal: same variant and
        dealer, its stock a tail of that stock and its dead cards an extension of those."""
        last = self._last
        if last is None or last.rules != state.rules or last.dealer != state.dealer:
            return False
        stock, before = state.stock or (), last.stock or ()
        return (
            len(stock) <= len(before)
            and before[len(before) - len(stock) :] == stock
            and state.dead[: len(last.dead)] == last.dead
        )

    def choose(self, state: GameState, rng: random.Random) -> Move:
        """The first move of a best line against greedy (``rng`` unused)."""
        obvious = obvious_move(state)
        if obvious is not None:
            return obvious
        reply = self._reply
        if reply is None or reply.seat != state.to_act or not self._same_deal(state):
            # A new deal (or seat): the tables are keyed by positions of one deal.
            reply = self._reply = BestReply(state.to_act, max_nodes=self.max_nodes)
        self._last = state
        answer = reply.solve(state)
        self.searches += 1
        self.unproven += not answer.proven
        self.results.append(answer.result)
        assert answer.move is not None
        return answer.move

    def report(self) -> dict[str, int]:
        """Searches done and how many of them ran out of positions (for ``bench/strength.py``)."""
        return {"searches": self.searches, "unproven": self.unproven}


class StockBlindReplyBot:
    """``blind-greedy``: the best reply to greedy with every hand seen but the stock order not.

    A measuring instrument, like ``oracle-greedy`` and ``peek``: it answers
    "how well can a player do against greedy who knows the other hands and
    greedy's rule, but not the cards to come?".  At each choice it draws
    ``samples`` orders of the stock (uniform shuffles of the stock cards,
    R6), solves the position after each legal move on each of them with
    :class:`BestReply` (the rest of the deal searched to its end, the other
    seats playing greedy's rule), and plays the move with the best mean
    result (win +1, draw 0, loss -1, R20); ties go to the move listed first
    by the best reply's order (going out, then the takes melding the most
    cards).  The moves are compared on the same stock orders (common random
    numbers), so the luck of the order cancels out of their differences.
    This is perfect-information Monte Carlo over the stock order alone: each
    solve sees its order, so its values are optimistic, but the moves it
    plays are real and its result is a result a stock-blind player reaches.

    Parameters
    ----------
    samples : int
        Stock orders drawn per choice (at least 1).
    max_nodes : int
        Positions per solve of one sampled order (:class:`BestReply`, shared by
        the moves of that order).

    Attributes
    ----------
    searches, unproven : int
        Solves done (one per sampled order and choice), and how many ran out of positions.

    Raises
    ------
    ConquianError
        If an option is not a whole number of at least 1.
    """

    name = "blind-greedy"
    sees_all = True

    def __init__(self, samples: int = 16, max_nodes: int = 200_000) -> None:
        bot_option("samples", samples, whole=True, low=1, high=MAX_SAMPLES)
        bot_option("max_nodes", max_nodes, whole=True, low=1)
        self.samples = samples
        self.max_nodes = max_nodes
        self.searches = 0
        self.unproven = 0

    def choose(self, state: GameState, rng: random.Random) -> Move:
        """The legal move with the best mean result over sampled stock orders."""
        obvious = obvious_move(state)
        if obvious is not None:
            return obvious
        moves = _order(state, state.legal_moves())
        if len(moves) == 1:
            return moves[0]
        totals = [0] * len(moves)
        seat = state.to_act
        for _ in range(self._draws(state)):
            deal = self._deal(state, rng)
            reply = BestReply(seat, max_nodes=self.max_nodes)
            proven = True
            for i, move in enumerate(moves):
                answer = reply.solve(deal.apply(move, check=False))
                totals[i] += SCORE[answer.result]
                proven = proven and answer.proven
            self.searches += 1
            self.unproven += not proven
        best = max(range(len(moves)), key=lambda i: (totals[i], -i))
        return moves[best]

    def _draws(self, state: GameState) -> int:
        """Deals to solve: with at most one card left in the stock every order is the same, so
        one solve is exact."""
        return self.samples if state.stock_count > 1 else 1

    def _deal(self, state: GameState, rng: random.Random) -> GameState:
        """One deal to solve: ``state`` with its stock cards shuffled."""
        stock = list(state.stock or ())
        rng.shuffle(stock)
        return state.evolve(stock=tuple(stock))

    def report(self) -> dict[str, int]:
        """Solves done and how many of them ran out of positions (for ``bench/strength.py``)."""
        return {"searches": self.searches, "unproven": self.unproven}


class SampledReplyBot(StockBlindReplyBot):
    """``reply-greedy``: the best reply to greedy on sampled deals of the hidden cards.

    A player who sees only his own view (:func:`analyzer.formats.position.view`) but
    takes the other players to follow greedy's rule: each of ``samples``
    deals of the hidden cards (hands and stock order, drawn as the hint bot
    draws them: :func:`analyzer.search.sampling.sample_deal` with ``infer=True``) is
    solved to the end of the deal after each legal move with
    :class:`BestReply`, and the move with the best mean result is played, as
    in :class:`StockBlindReplyBot`.  Against greedy opponents its model of
    them is exact but for their hidden cards; against others it is a bot
    with a wrong model of them.  Same options and attributes as
    :class:`StockBlindReplyBot`.
    """

    name = "reply-greedy"
    sees_all = False

    def _draws(self, state: GameState) -> int:
        """Deals to solve: always ``samples`` (the other hands are drawn too)."""
        return self.samples

    def _deal(self, state: GameState, rng: random.Random) -> GameState:
        """One deal of the hidden cards consistent with ``state`` (the player's view)."""
        from analyzer.search.sampling import sample_deal

        return sample_deal(state, state.to_act, rng, infer=True)
