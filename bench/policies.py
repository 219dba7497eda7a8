"""Playout policies as bots against greedy: a minute's check of a policy before it goes into a search.

    python3 bench/policies.py [--variant megajogos] [--deals 2000] [--seed 0] [POLICY ...]

The IS-MCTS search (``analyzer/mcts.py``) and the ``rollout`` leaf play the
rest of each sampled deal with the ``eager`` policy
(:mod:`analyzer.search.playout`), so a root move is worth what that policy makes of
it; a policy that plays better on its own is the first candidate for a better
playout.  Each policy here plays one seat against greedy bots in the others
(seats rotating, the same seeded deals for every policy) and the script prints
its wins in its seat with a 95% Wilson interval, greedy's wins per seat and the
draws.  No search is involved, so 2,000 deals take about a minute.

Policies (variations of ``eager``, which takes the take melding the most
cards and pays the card with the fewest links to the cards kept):

- ``eager``: the playout policy itself;
- ``noforce``: ``eager`` that never forces (R14), passing instead;
- ``useful``: pays the card of least :func:`analyzer.analysis.static.usefulness` (greedy's rule: three-card
  melds still possible with the hand and the unseen cards) instead of the fewest links;
- ``nomeld``: ``eager`` that never lays melds from the hand alone (R16);
- ``defend``: pays, among the cards of fewest links plus two per opponent's layout the card
  fits (R14: he could take it or be forced with it), the cheapest.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.bots.registry import register_bot
from analyzer.core.cards import FULL_DECK
from analyzer.core.melds import usefulness
from analyzer.core.melds import cards_of, catalog
from analyzer.core.moves import Force, Give, LayIn, Meld, Move, Pass, Take
from analyzer.search.playout import _eager_offer, _links, eager_move
from analyzer.core.rules import get_rules
from analyzer.bots.simulate import game_seed, play_game
from analyzer.core.state import GameState, Phase, fits_layout
from analyzer.search.stats import wilson
from benchargs import variant, whole

Cost = Callable[[GameState, int, int, int], float]
"""cost(state, card given up, cards kept, player) of a pay or gift: lower is given up first."""


def links_cost(state: GameState, card: int, kept: int, me: int) -> float:
    return _links(card, kept)


def useful_cost(state: GameState, card: int, kept: int, me: int) -> float:
    unseen = FULL_DECK & ~state.table_mask() & ~state.hand(me)
    return usefulness(card, kept & ~(1 << card), unseen, catalog(state.rules))


def defend_cost(state: GameState, card: int, kept: int, me: int) -> float:
    fits = sum(
        1 for p, lay in enumerate(state.layouts) if p != me and lay and fits_layout(lay, card, state.rules)
    )
    return _links(card, kept) + 2 * fits


class Policy:
    """``eager`` with a pay/give cost, and forcing and hand melds switched on or off."""

    sees_all = False

    def __init__(self, cost: Cost = links_cost, force: bool = True, meld: bool = True) -> None:
        self.cost, self.force, self.meld = cost, force, meld

    def _cheapest(self, state: GameState, moves: list[Move], rng: random.Random) -> Move:
        me = state.to_act
        hand = state.hand(me)

        def cost(move: Move) -> float:
            if isinstance(move, Give):
                return self.cost(state, move.card, hand, me)
            assert isinstance(move, (Take, LayIn)) and move.pay is not None
            return self.cost(state, move.pay, hand & ~cards_of(move.layout), me)

        costs = [cost(m) for m in moves]
        low = min(costs)
        return rng.choice([m for m, c in zip(moves, costs, strict=True) if c == low])

    def choose(self, view: GameState, rng: random.Random) -> Move:
        if view.phase is Phase.OFFER:
            takes = list(view.takes())
            for take in takes:
                if take.pay is None:
                    return take  # going out wins (R15)
            if takes:
                most = max(cards_of(t.layout).bit_count() for t in takes)
                return self._cheapest(view, [t for t in takes if cards_of(t.layout).bit_count() == most], rng)
            if self.meld and view.rules.hand_melds:
                for meld in view.hand_melds():
                    return Meld(meld)
            forces = [Force(k) for k in view.forceable_players() if view.counts[k] > 0]
            if self.force and forces:
                return rng.choice(forces)
            return Pass()
        moves = view.legal_moves()
        if view.phase in (Phase.FORCED, Phase.EXCHANGE):
            return self._cheapest(view, moves, rng)
        return eager_move(view, moves, rng)


class Eager:
    """The playout policy itself (:mod:`analyzer.search.playout`), not a copy of it."""

    sees_all = False

    def choose(self, view: GameState, rng: random.Random) -> Move:
        if view.phase is Phase.OFFER:
            return _eager_offer(view, rng)
        return eager_move(view, view.legal_moves(), rng)


POLICIES: dict[str, Callable[[], Policy | Eager]] = {
    "eager": Eager,
    "noforce": lambda: Policy(force=False),
    "useful": lambda: Policy(useful_cost),
    "nomeld": lambda: Policy(meld=False),
    "defend": lambda: Policy(defend_cost),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("policies", nargs="*", default=list(POLICIES), help=", ".join(POLICIES))
    parser.add_argument("--variant", type=variant, default="megajogos")
    parser.add_argument("--deals", type=whole(1), default=2000)
    parser.add_argument("--seed", type=whole(0), default=0)
    args = parser.parse_args()
    for name in args.policies:
        if name not in POLICIES:
            parser.error(f"unknown policy {name!r} (known: {', '.join(POLICIES)})")
    for name in args.policies:
        bot = f"policy-{name}"
        register_bot(bot, POLICIES[name])
        won = lost = drawn = 0
        start = time.perf_counter()
        players = get_rules(args.variant).players
        interrupted = False
        try:
            for k in range(args.deals):
                seats = [bot] + ["greedy"] * (players - 1)
                shift = k % players
                seats = seats[shift:] + seats[:shift]
                result = play_game(args.variant, seats, game_seed(args.seed, k), k)
                winner = result.final.winner
                if winner is None:
                    drawn += 1
                elif seats[winner] == bot:
                    won += 1
                else:
                    lost += 1
        except KeyboardInterrupt:  # Ctrl-C: this policy's finished deals are reported, then stop
            interrupted = True
        deals = won + lost + drawn
        if deals:
            low, high = wilson(won, deals)
            print(
                f"{name:>8}: won {won} of {deals} in its seat ({won / deals:.1%}, "
                f"{low:.1%}-{high:.1%}); greedy {lost / (players - 1) / deals:.1%} per seat; "
                f"{drawn} drawn; {time.perf_counter() - start:.0f} s",
                flush=True,
            )
        if interrupted:
            sys.exit(f"policies.py: interrupted after {deals} of {args.deals} deals of {name}")

if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # Ctrl-C: one line, not a traceback (nothing was written)
        sys.exit("policies.py: interrupted")
