"""How the hint bot should use the move prior: offline, against a larger search as the judge.

    python3 bench/prior_pick.py --records DIR [--games 4000] [--seed 0] [--positions 400]
                                [--judge 128] [--weights 0,0.02,0.05,0.1,0.2,inf]

On decisions of the held-out deals of ``bench/fit_prior.py`` (the same ``--seed`` draw), the hint
bot's search (its budgets: 8 deals of 1,000 positions) ranks the choices; a larger search of the
same engine on other deals (``--judge`` deals) scores them.  Each rule picks one choice:

* ``w``: the choice of largest mean result + w * log prior (``w = 0``: the bot's own choice;
  ``inf``: the prior's most likely choice);

and the script prints, per rule, how often it changes the bot's choice (and how often to another
pay of the same melds) and the judge's mean result
given up against the judge's best choice (lower is better), with the paired difference from
``w = 0`` and its 95% half-width.  The judge is a search too (more search does not win more
deals), so this ranks the rules; only paired play (bench/paired.py) measures them.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from selfplay import record_paths  # noqa: E402

from analyzer.analysis.advisor import advise  # noqa: E402
from analyzer.analysis.candidates import same_choice  # noqa: E402
from analyzer.analysis.prior import choice_prior  # noqa: E402
from analyzer.bots.base import obvious_move  # noqa: E402
from analyzer.bots.searchbots import HintBot  # noqa: E402
from analyzer.core.dealing import view  # noqa: E402
from analyzer.core.melds import cards_of  # noqa: E402
from analyzer.core.moves import LayIn, Take  # noqa: E402
from analyzer.formats.records import replay_file  # noqa: E402
from benchargs import whole  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=Path, required=True)
    parser.add_argument("--games", type=whole(10), default=4000, help="records fit_prior.py read")
    parser.add_argument("--seed", type=whole(0), default=0, help="fit_prior.py's --seed")
    parser.add_argument("--positions", type=whole(1), default=400)
    parser.add_argument("--judge", type=whole(1), default=128, help="deals of the judging search")
    parser.add_argument("--weights", default="0,0.02,0.05,0.1,0.2,inf")
    args = parser.parse_args()
    weights = [float(w) for w in args.weights.split(",")]
    paths = record_paths(args.records)[: args.games]
    held = sorted(random.Random(args.seed).sample(range(len(paths)), len(paths) // 5))
    bot = HintBot()
    given_up: dict[float, list[float]] = {w: [] for w in weights}
    changed = dict.fromkeys(weights, 0)
    repaid = dict.fromkeys(weights, 0)  # changes to another pay of the same melds
    done = 0
    start = time.perf_counter()
    for index in held:
        replay = replay_file(paths[index])
        for state in replay.states if replay.finished else []:
            if state.is_chance_node() or state.is_terminal() or done >= args.positions:
                continue
            mine = view(state, state.to_act)
            if obvious_move(mine) is not None:
                continue
            engine, samples, budget = bot.setup(mine.rules)
            seed = 1000 * index + len(mine.dead) + mine.stock_count
            advice = advise(mine, samples=samples, seed=seed, node_budget=budget, engine=engine, time_limit=math.inf)
            judge = advise(mine, samples=args.judge, seed=seed + 7, node_budget=budget, engine=engine,
                           time_limit=math.inf)  # budgets, not the clock: the same figures on any machine
            value = {e.move: e.expected for e in judge.estimates}
            top = max(value.values())
            prior = choice_prior(mine)
            ranked = advice.estimates
            logs = [math.log(max(q for g, q in prior if same_choice(mine, g[0], e.move))) for e in ranked]
            for w in weights:
                scores = [(lg if math.isinf(w) else e.expected + w * lg, -k)
                          for k, (e, lg) in enumerate(zip(ranked, logs, strict=True))]  # fmt: skip
                pick = ranked[max(range(len(ranked)), key=scores.__getitem__)].move
                if ranked[0].sure:
                    pick = ranked[0].move
                first = ranked[0].move
                changed[w] += pick != first
                repaid[w] += (
                    pick != first and isinstance(pick, (Take, LayIn)) and isinstance(first, (Take, LayIn))
                    and cards_of(pick.layout) == cards_of(first.layout)
                )  # fmt: skip
                judged = next(v for m, v in value.items() if same_choice(mine, m, pick))
                given_up[w].append(top - judged)
            done += 1
        if done >= args.positions:
            break
    base = given_up[weights[0]]
    print(f"{done} decisions of {len(held)} held-out deals, judge {args.judge} deals, "
          f"{time.perf_counter() - start:.0f} s")
    for w in weights:
        diffs = [a - b for a, b in zip(given_up[w], base, strict=True)]
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
        print(f"  w={w:<6} changed {changed[w]:4d} ({repaid[w]:3d} to another pay)  given up {statistics.fmean(given_up[w]):.4f}  "
              f"against w={weights[0]}: {statistics.fmean(diffs):+.4f} +- {half:.4f}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit("prior_pick.py: interrupted")
