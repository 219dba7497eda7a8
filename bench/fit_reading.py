"""Fit the paid-card reading model (analyzer/reading.py) and report it on held-out deals.

    pip install -e ".[fit]"
    python3 bench/fit_reading.py [--variant classic] [--games 2000] [--seed 0] [--jobs 2] [--write]

Plays seeded deals between greedy bots.  At every offer a player p is asked
about, for each other player q and each card c that p has not seen, it keeps
``n1`` (cards q has given up so far that c is near: its rank, or its suit one
rank away; given up: paid, or passed to p in the exchange, R9), ``n2`` (those
c is a gap from: its suit two ranks away),
the log of q's hand count over the unseen cards not in it (how likely any
unseen card is his before reading), and whether c is in q's hand.  A logistic
regression on the positions of 80% of the deals gives the coefficients of
``n1`` and ``n2`` (their negatives are the model's ``near`` and ``gap``); on
the other 20% it prints the log loss of the fitted model and of the count
alone (the uniform sampler).  With --write it stores the coefficients in
analyzer/data/reading.json, the file the sampler loads.  The same arguments
give the same file.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.bots.registry import GreedyBot  # noqa: E402
from analyzer.core.cards import iter_mask  # noqa: E402
from analyzer.core.dealing import deal, view  # noqa: E402
from analyzer.search.inference import near_counts, read_cards  # noqa: E402
from analyzer.core.rules import get_rules  # noqa: E402
from analyzer.search.sampling import unseen_cards  # noqa: E402
from analyzer.bots.simulate import game_seed  # noqa: E402
from analyzer.core.state import Phase  # noqa: E402
from benchargs import count, whole  # noqa: E402
from fitting import log_loss, logistic_regression, write_variant  # noqa: E402

Row = tuple[float, float, float, int]


def play(args: tuple[str, int]) -> list[Row]:
    """One greedy deal: a row per (position, asked player, other player, unseen card)."""
    variant, seed = args
    rules = get_rules(variant)
    rng = random.Random(seed)
    state = deal(rules, rng)
    bot = GreedyBot()
    rows: list[Row] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state = state.apply(state.chance_outcomes()[0][0], check=False)
            continue
        me = state.to_act
        if state.phase is Phase.OFFER:
            v = view(state, me)
            pool = unseen_cards(v, me)
            size = pool.bit_count()
            # What each other player gave up that me saw, as the sampler reads it.
            for q, given in read_cards(v, me).items():
                k = state.counts[q]
                if not k or k >= size:
                    continue
                hand = state.hands[q] or 0
                offset = math.log(k / (size - k))
                for card in iter_mask(pool):
                    n1, n2 = near_counts(given, card)
                    rows.append((n1, n2, offset, hand >> card & 1))
        else:
            v = view(state, me)
        state = state.apply(bot.choose(v, rng), check=False)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", type=str, default="classic")
    parser.add_argument("--games", type=whole(10), default=2000)
    parser.add_argument("--seed", type=whole(0), default=0)
    parser.add_argument("--jobs", type=whole(1), default=2)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    LogisticRegression = logistic_regression("fit_reading.py")
    rules = get_rules(args.variant)
    start = time.perf_counter()
    tasks = [(rules.name, game_seed(args.seed, i)) for i in range(args.games)]
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        deals = pool.map(play, tasks, chunksize=32)
    split = int(0.8 * len(deals))
    train = [r for d in deals[:split] for r in d]
    test = [r for d in deals[split:] for r in d]
    print(
        f"{rules.name}: {count(args.games, 'deal')}, {len(train)} training and {len(test)} "
        f"held-out rows, {time.perf_counter() - start:.0f} s"
    )
    full = LogisticRegression(C=1e6, max_iter=1000).fit([r[:3] for r in train], [r[3] for r in train])
    base = LogisticRegression(C=1e6, max_iter=1000).fit([r[2:3] for r in train], [r[3] for r in train])
    ty = [r[3] for r in test]
    fitted = log_loss(list(full.predict_proba([r[:3] for r in test])[:, 1]), ty)
    counted = log_loss(list(base.predict_proba([r[2:3] for r in test])[:, 1]), ty)
    near, gap = -float(full.coef_[0][0]), -float(full.coef_[0][1])
    print(f"  near {near:.4f}, gap {gap:.4f} (log-odds per paid card; odds x{math.exp(-near):.3f}, x{math.exp(-gap):.3f})")
    print(f"  held-out log loss per card: read {fitted:.5f}, count alone {counted:.5f}")
    if args.write:
        path = write_variant("reading.json", "bench/fit_reading.py", rules.name, {
            "near": round(near, 4),
            "gap": round(gap, 4),
            "games": args.games,
            "seed": args.seed,
            "log_loss_read": round(fitted, 5),
            "log_loss_count": round(counted, 5),
        })  # fmt: skip
        print(f"  wrote {path}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit("fit_reading.py: interrupted")
