"""How well do the samplers know the hidden hands? Log loss of each reading on greedy deals.

    python3 bench/read_choice.py [--variant classic] [--games 300] [--seed 5] [--deals 200]

Plays seeded deals between greedy bots.  At every offer where player 0 has a
choice and another player has given up a card he can see (paid, or passed to
him in the exchange, R9, R13), each sampler draws ``--deals`` deals of the
hidden cards from player 0's view, and the share of them holding each unseen
card in each hidden hand is that sampler's probability that the card is there
(clipped to 0.01..0.99).  Printed: the mean log loss per (hidden player,
unseen card) against the true deal, lower is better:

* ``uniform``: every consistent deal alike (:func:`analyzer.search.sampling.sample_deal`);
* ``infer``: only deals where no other player holds a pair melding with a card
  he declined (the hint bot's ``infer``);
* ``read``: ``infer`` with the paid-card reading (``read``, :mod:`analyzer.search.inference`:
  a card next to one he gave up drawn less often, each card weighed alone);
* ``learned``: ``infer`` with the card-location model learned from self-play (``read=learned``,
  :mod:`analyzer.search.reader`);
* ``choice B``: the ``infer`` deals weighed by how well they explain every card
  given up under a choice model (importance sampling, self-normalised): a
  player gives up card ``x`` of the hand ``H`` he then held with probability
  ``exp(-B u(x)) / sum over c in H of exp(-B u(c))``, ``u`` the greedy bot's
  usefulness of a card to the rest of ``H`` (:func:`analyzer.analysis.static.usefulness`)
  and ``H`` his sampled hand now plus the cards he gave up since (the cards he
  melded since are not known, so they are left out).  Also printed: the mean
  effective number of deals, (sum w)^2 / sum w^2, which a sharp model spends;
* ``linked B``: the ``infer`` deals weighed by ``exp(B k)``, ``k`` the number of
  hidden-hand cards that link with another card of the same hand (same rank,
  or same suit within two ranks, as the ``eager`` policy's links): a prior
  that players keep linked cards and give up lone ones, with no history.

Greedy bots pay exactly their least useful card, so the choice model with a
large ``B`` is their rule; it is the "sampler that weighs deals by how well
they explain the history" that docs/hint.md names as the road to the other
hand.  The figures are in docs/hint.md.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchargs import whole

from analyzer.core.cards import FULL_DECK, NUM_CARDS, iter_mask
from analyzer.core.melds import usefulness
from analyzer.core.melds import catalog
from analyzer.search.playout import LINKS
from analyzer.core.dealing import view
from analyzer.search.inference import infer_weights, read_cards
from analyzer.search.reader import reader_weights
from analyzer.core.rules import get_rules
from analyzer.search.sampling import declined_pairs, sample_deal, unseen_cards
from analyzer.bots.simulate import game_seed, play_game
from analyzer.core.state import GameState, Phase

BETAS = (1.0, 3.0, 10.0)
LINKED = (0.5, 1.0)


def log_likelihood(deal: GameState, reader_view: GameState, given: dict[int, tuple[int, ...]],
                   beta: float, melds: tuple[int, ...]) -> float:
    """log P(each card given up | the sampled hands) under the choice model (module docstring)."""
    table = reader_view.table_mask()
    total = 0.0
    for q, cards in given.items():
        hand = deal.hands[q] or 0
        later = 0
        for card in reversed(cards):  # newest first: the hand then held it and the later ones
            held = hand | 1 << card | later
            unseen = FULL_DECK & ~table & ~held
            scores = {c: usefulness(c, held & ~(1 << c), unseen, melds) for c in iter_mask(held)}
            low = min(scores.values())
            norm = sum(math.exp(-beta * (s - low)) for s in scores.values())
            total += -beta * (scores[card] - low) - math.log(norm)
            later |= 1 << card
    return total


def linked_cards(hand: int) -> int:
    """How many cards of ``hand`` link with another card of it (``linked B`` in the module docstring)."""
    return sum(1 for c in iter_mask(hand) if LINKS[c] & hand)


def shares(deals: Sequence[GameState], hidden: list[int], weights: Sequence[float] | None = None
           ) -> dict[int, list[float]]:
    """Per hidden player, the (weighted) share of the deals that put each card in his hand."""
    w = list(weights) if weights is not None else [1.0] * len(deals)
    total = sum(w)
    return {
        q: [sum(x for d, x in zip(deals, w, strict=True) if (d.hands[q] or 0) >> c & 1) / total
            for c in range(NUM_CARDS)]
        for q in hidden
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic", choices=["classic", "megajogos"])
    parser.add_argument("--games", type=whole(1), default=300, help="greedy deals to read (300)")
    parser.add_argument("--seed", type=whole(0), default=5, help="deal seed (5)")
    parser.add_argument("--deals", type=whole(2), default=200, help="deals each sampler draws per position (200)")
    args = parser.parse_args(argv)
    rules = get_rules(args.variant)
    melds = catalog(rules)
    names = ["uniform", "infer", "read", "learned", *(f"choice {b:g}" for b in BETAS), *(f"linked {b:g}" for b in LINKED)]
    loss: Counter[str] = Counter()
    ess: Counter[str] = Counter()  # summed effective sample sizes of the weighted deals
    rows = positions = 0
    rng = random.Random(args.seed)
    start = time.perf_counter()
    for k in range(args.games):
        game = play_game(rules, ["greedy"] * rules.players, game_seed(args.seed, k), k)
        state = game.start
        for player, move in game.moves:
            if player == 0 and state.phase is Phase.OFFER and len(state.legal_moves()) > 1:
                mine = view(state, 0)
                given = read_cards(mine, 0)
                if given:
                    positions += 1
                    pairs = declined_pairs(mine, 0)
                    weights = infer_weights(mine, 0)
                    hidden = [q for q in range(rules.players) if mine.hands[q] is None]
                    uniform = [sample_deal(mine, 0, rng) for _ in range(args.deals)]
                    inferred = [sample_deal(mine, 0, rng, infer=True, pairs=pairs) for _ in range(args.deals)]
                    read = [sample_deal(mine, 0, rng, infer=True, pairs=pairs, weights=weights)
                            for _ in range(args.deals)]
                    learned_weights = reader_weights(mine, 0)
                    learned = [sample_deal(mine, 0, rng, infer=True, pairs=pairs, weights=learned_weights)
                               for _ in range(args.deals)]
                    found = {"uniform": shares(uniform, hidden), "infer": shares(inferred, hidden),
                             "read": shares(read, hidden), "learned": shares(learned, hidden)}
                    for beta in BETAS:
                        logs = [log_likelihood(d, mine, given, beta, melds) for d in inferred]
                        top = max(logs)
                        w = [math.exp(x - top) for x in logs]
                        found[f"choice {beta:g}"] = shares(inferred, hidden, w)
                        ess[f"choice {beta:g}"] += sum(w) ** 2 / sum(x * x for x in w)
                    counts = [sum(linked_cards(d.hands[q] or 0) for q in hidden) for d in inferred]
                    most = max(counts)
                    for beta in LINKED:
                        w = [math.exp(beta * (k - most)) for k in counts]
                        found[f"linked {beta:g}"] = shares(inferred, hidden, w)
                        ess[f"linked {beta:g}"] += sum(w) ** 2 / sum(x * x for x in w)
                    unseen = unseen_cards(mine, 0)
                    for q in hidden:
                        truth = state.hands[q] or 0
                        for c in iter_mask(unseen):
                            rows += 1
                            for name, probs in found.items():
                                p = min(max(probs[q][c], 0.01), 0.99)
                                loss[name] += -math.log(p if truth >> c & 1 else 1.0 - p)
            state = state.apply(move)
    print(f"{args.variant}: {args.games} greedy deals of seed {args.seed}, {positions} positions of player 0 "
          f"with cards given up, {rows} (hidden player, unseen card) rows, {args.deals} deals per sampler, "
          f"{time.perf_counter() - start:.0f} s")
    for name in names:
        spread = f", effective deals {ess[name] / positions:.0f} of {args.deals}" if name in ess else ""
        print(f"  {name:10s} log loss {loss[name] / max(rows, 1):.4f}{spread}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
